//! Where the parser's output goes: a `serde_json::Value` tree, or compact JSON text.
//!
//! The parser reports what it reads as events (a scalar, an object opened, a key, a member
//! ended, ...) to a [`Sink`]. Both sinks produce the same JSON: the text a [`TextSink`] writes
//! parses (with `serde_json`) to exactly the value a [`ValueSink`] builds. The parser is
//! generic over the sink, so each instantiation is as fast as a parser written for it.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;
use serde_json::{Map, Number, Value};

use super::log::Log;
use super::parser::inner_document;
use super::RepairOptions;

/// An integer that fits a JSON number without loss.
#[derive(Debug, Clone, Copy)]
pub(super) enum Int {
    Unsigned(u64),
    Negative(i64),
}

impl From<Int> for Number {
    fn from(n: Int) -> Number {
        match n {
            Int::Unsigned(n) => n.into(),
            Int::Negative(n) => n.into(),
        }
    }
}

/// A number in JSON syntax as a `Number`, or `None` when it is not finite (`1e999`).
pub(super) fn finite_number(text: &str) -> Option<Number> {
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

/// The events of one document. Members of an object arrive as `key`, the value's events,
/// then `end_member`; a key whose value never came is taken back with `abandon_member`.
pub(super) trait Sink<'a>: Sized {
    /// A sink for an input of `len` bytes.
    fn new(len: usize) -> Self;
    fn null(&mut self);
    fn bool(&mut self, v: bool);
    /// An integer; `text` is how it is written in JSON.
    fn int(&mut self, n: Int, text: &str);
    /// A number with a fraction or exponent (or too large for 64 bits), written as `text` in
    /// JSON syntax. Returns false when it is not finite; `null` is written instead.
    fn float(&mut self, text: &str) -> bool;
    /// Whether the sink holds a float as an `f64` (a value, not text): an integer too large
    /// for 64 bits is then rounded, which the parser records ([`Log::rounded`]).
    const ROUNDS: bool = true;
    /// A string; `safe` when it holds no `"`, `\` or control character (nothing to escape).
    fn string(&mut self, s: &str, safe: bool);
    /// Begins a string value that comes in parts: [`string_part`](Sink::string_part) for
    /// each, in order, then [`end_string`](Sink::end_string). A long string is then never
    /// held whole beside the output. False when the sink takes strings whole only, as most
    /// do: the string then comes through [`string`](Sink::string).
    fn begin_string(&mut self) -> bool {
        false
    }
    /// A part of the string [`begin_string`](Sink::begin_string) began.
    fn string_part(&mut self, _part: &str) {}
    /// The end of the string [`begin_string`](Sink::begin_string) began.
    fn end_string(&mut self) {}
    fn begin_object(&mut self);
    /// A member's key; `safe` as for [`string`](Sink::string).
    fn key(&mut self, key: &str, safe: bool);
    /// The value of the member just keyed is complete. Returns true when the key was already
    /// in the object: the value replaces the earlier one, which keeps its position (as
    /// `serde_json` does with `preserve_order`).
    fn end_member(&mut self) -> bool;
    fn abandon_member(&mut self);
    fn end_object(&mut self);
    fn begin_array(&mut self);
    fn end_array(&mut self);
    /// The top-level value becomes the first item of an array that further top-level values
    /// join; `end_array` closes it.
    fn root_to_array(&mut self);
    /// The innermost container, an object with no member yet, becomes an array (a Python
    /// set, `{'a', 'b'}`); `end_array` closes it.
    fn object_to_array(&mut self);
    /// Closes the innermost array, which holds exactly one item, as that item alone (a
    /// parenthesized value, `(1)`).
    fn end_array_as_item(&mut self);
    /// The member just ended, whose value is an array (the parser knows), takes more items:
    /// its array is open again (`{"a": [1], [2]}`) until `close_reopened`.
    fn reopen_array(&mut self);
    /// Closes an array `reopen_array` opened; its member holds it again.
    fn close_reopened(&mut self);
    /// The top-level value, when it is a string.
    fn root_string(&self) -> Option<&str>;
    /// Whether the sink is told where each container, and each integer it holds rounded,
    /// was read ([`ended`](Sink::ended)).
    const ENDS: bool = false;
    /// The container just closed (after `end_object` or `end_array`), or the integer just
    /// handed over that the sink holds rounded and the input writes as it stands, was read
    /// from `start..end` of the input.
    fn ended(&mut self, _start: usize, _end: usize) {}
    /// A string that is a slice of the input (no decoding was needed), which a sink may keep
    /// borrowed; `safe` as for [`string`](Sink::string).
    fn input_string(&mut self, s: &'a str, safe: bool) {
        self.string(s, safe)
    }
    /// A key that is a slice of the input, as [`input_string`](Sink::input_string).
    fn input_key(&mut self, key: &'a str, safe: bool) {
        self.key(key, safe)
    }
    /// When the top-level value is a string holding an object or array (double-encoded
    /// JSON), replaces it with that document, parsed; returns the inner document's fixes.
    fn unwrap_root<L: Log>(&mut self, options: &RepairOptions) -> Option<(L, usize)>;
}

// ----- Value --------------------------------------------------------------------------------

/// Builds a `serde_json::Value`.
///
/// Members and items of open containers wait on two shared stacks, and each container is
/// built once, at its exact size, when it closes: no container grows by reallocation, and a
/// map's keys are hashed once. A repeated key is found by a scan guarded by a one-word filter
/// of the keys seen; an object that grows past [`SCAN_MEMBERS`] members moves into a map.
pub(super) struct ValueSink {
    root: Option<Value>,
    stack: Vec<Frame>,
    /// Keys of the members being built, innermost last.
    keys: Vec<String>,
    /// Members of the open small objects, innermost object's last.
    members: Vec<(String, Value)>,
    /// Items of the open arrays, innermost array's last.
    items: Vec<Value>,
    duplicate: bool,
}

enum Frame {
    /// An object whose members are `members[start..]`; `seen` filters key fingerprints.
    Object { start: usize, seen: u64 },
    /// An object grown past the scan limit.
    Map(Map<String, Value>),
    /// An array whose items are `items[start..]`.
    Array { start: usize },
}

/// A key's length and first bytes, mixed into one bit of a 64-bit filter.
pub(super) fn filter_bit(key: &[u8]) -> u64 {
    bit_of(fingerprint(key))
}

/// The filter bit of a fingerprint.
fn bit_of(print: u64) -> u64 {
    1u64 << (print.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

impl ValueSink {
    fn put(&mut self, v: Value) {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Array { .. }) => self.items.push(v),
            Some(Frame::Map(map)) => {
                let key = self.keys.pop().unwrap_or_default();
                self.duplicate = map.insert(key, v).is_some();
            }
            Some(Frame::Object { start, seen }) => {
                let key = self.keys.pop().unwrap_or_default();
                let bit = filter_bit(key.as_bytes());
                let start = *start;
                if *seen & bit != 0 {
                    if let Some(m) = self.members[start..].iter_mut().find(|m| m.0 == key) {
                        // As `Map::insert`: the last value, at the first position.
                        m.1 = v;
                        self.duplicate = true;
                        return;
                    }
                }
                *seen |= bit;
                self.duplicate = false;
                self.members.push((key, v));
                if self.members.len() - start > SCAN_MEMBERS {
                    let mut map = Map::with_capacity(2 * SCAN_MEMBERS);
                    map.extend(self.members.drain(start..));
                    if let Some(top) = self.stack.last_mut() {
                        *top = Frame::Map(map);
                    }
                }
            }
        }
    }

    /// The finished value (`null` if the document had none, which the parser rules out).
    pub(super) fn finish(self) -> Value {
        self.root.unwrap_or(Value::Null)
    }
}

impl<'a> Sink<'a> for ValueSink {
    fn new(_: usize) -> Self {
        ValueSink {
            root: None,
            stack: Vec::new(),
            keys: Vec::new(),
            members: Vec::new(),
            items: Vec::new(),
            duplicate: false,
        }
    }
    fn null(&mut self) {
        self.put(Value::Null)
    }
    fn bool(&mut self, v: bool) {
        self.put(Value::Bool(v))
    }
    fn int(&mut self, n: Int, _: &str) {
        self.put(Value::Number(n.into()))
    }
    fn float(&mut self, text: &str) -> bool {
        let n = finite_number(text);
        let finite = n.is_some();
        self.put(n.map_or(Value::Null, Value::Number));
        finite
    }
    fn string(&mut self, s: &str, _: bool) {
        self.put(Value::String(s.to_owned()))
    }
    fn begin_object(&mut self) {
        self.stack.push(Frame::Object {
            start: self.members.len(),
            seen: 0,
        })
    }
    fn key(&mut self, key: &str, _: bool) {
        self.keys.push(key.to_owned())
    }
    fn end_member(&mut self) -> bool {
        std::mem::take(&mut self.duplicate)
    }
    fn abandon_member(&mut self) {
        self.keys.pop();
    }
    fn end_object(&mut self) {
        let map = match self.stack.pop() {
            Some(Frame::Object { start, .. }) => {
                let mut map = Map::with_capacity(self.members.len() - start);
                map.extend(self.members.drain(start..));
                map
            }
            Some(Frame::Map(map)) => map,
            _ => return,
        };
        self.put(Value::Object(map))
    }
    fn begin_array(&mut self) {
        self.stack.push(Frame::Array {
            start: self.items.len(),
        })
    }
    fn end_array(&mut self) {
        if let Some(Frame::Array { start }) = self.stack.pop() {
            let items = self.items.split_off(start);
            self.put(Value::Array(items))
        }
    }
    fn root_to_array(&mut self) {
        let first = self.root.take().unwrap_or(Value::Null);
        self.stack.push(Frame::Array {
            start: self.items.len(),
        });
        self.items.push(first);
    }
    fn object_to_array(&mut self) {
        if let Some(top @ Frame::Object { .. }) = self.stack.last_mut() {
            *top = Frame::Array {
                start: self.items.len(),
            };
        }
    }
    fn end_array_as_item(&mut self) {
        if let Some(Frame::Array { .. }) = self.stack.pop() {
            let item = self.items.pop().unwrap_or(Value::Null);
            self.put(item)
        }
    }
    fn reopen_array(&mut self) {
        let last = match self.stack.last_mut() {
            Some(Frame::Object { .. }) => self.members.pop(),
            Some(Frame::Map(map)) => {
                let key = map.keys().next_back().cloned();
                key.and_then(|k| map.shift_remove(&k).map(|v| (k, v)))
            }
            _ => None,
        };
        let (key, items) = match last {
            Some((key, Value::Array(items))) => (key, items),
            Some((key, other)) => (key, vec![other]),
            None => (String::new(), Vec::new()),
        };
        self.keys.push(key);
        self.stack.push(Frame::Array {
            start: self.items.len(),
        });
        self.items.extend(items);
    }
    fn close_reopened(&mut self) {
        self.end_array();
    }
    fn root_string(&self) -> Option<&str> {
        self.root.as_ref().and_then(Value::as_str)
    }
    fn unwrap_root<L: Log>(&mut self, options: &RepairOptions) -> Option<(L, usize)> {
        let (inner, log, count) = inner_document::<Self, L>(self.root_string()?, options)?;
        *self = inner;
        Some((log, count))
    }
}

// ----- text ---------------------------------------------------------------------------------

/// Writes compact JSON text. Strings are escaped as `serde_json` escapes them; numbers that
/// were valid JSON are copied as written (no digit is lost), others are written normalised.
///
/// A duplicate key is resolved as the value sink resolves it (the last value, at the first
/// key's position): the members of an object are remembered by their offsets in the output,
/// and an object in which a key repeats is rewritten once, when it closes, so the cost stays
/// linear. An object past [`SCAN_MEMBERS`] members keeps only an index of its keys' offsets
/// (4 bytes a key), and is read again from its text if it has to be rewritten.
pub(super) type TextSink = Text<true>;

/// Writes only the keys of the objects still open: what finding repeated keys needs, so that
/// a document's fixes can be counted in memory proportional to its open objects, not its size.
pub(super) type KeySink = Text<false>;

/// [`KeySink`] for a parse that names what the value holds as [`ValueSink`] builds it: an
/// integer beyond 64 bits is held rounded ([`Sink::ROUNDS`]), and the parser records it.
pub(super) type SpanSink = Text<false, true>;

/// Writes compact JSON text as `serde_json` writes the value a [`ValueSink`] builds, byte for
/// byte: as [`TextSink`], but every number is written as the `serde_json::Number` it becomes
/// (`1.50` as `1.5`, `1E3` as `1000.0`). For callers who hand on the text in place of that
/// value, and must not let the spelling differ.
pub(super) type ValueTextSink = Text<true, true>;

/// The text sink; `VALUES` false keeps only the open objects' keys (see [`KeySink`]);
/// `AS_VALUE` writes numbers as `serde_json` writes them (see [`ValueTextSink`]).
pub(super) struct Text<const VALUES: bool, const AS_VALUE: bool = false> {
    out: String,
    frames: Vec<TextFrame>,
    /// Members of the open objects, innermost object's last.
    members: Vec<TextMember>,
    /// The top-level value, decoded, when it is a string (for double-encoded documents).
    root_string: Option<String>,
    /// Whether an event changed what was written before it: a member taken back, a value
    /// made the first item of an array, a set read as an array, a parenthesized value
    /// unwrapped, an array opened again, a document unwrapped (a key given twice, whose
    /// object is rewritten, is counted apart). Where none did, the text can be written as
    /// it is made ([`super::streamed`]).
    edited: bool,
}

struct TextFrame {
    object: bool,
    /// Offset of the opening bracket in the output.
    start: usize,
    /// Items or members written so far (a separator goes before the next).
    count: usize,
    /// Index in `members` of this object's first member.
    first_member: usize,
    /// One bit per key fingerprint seen: a key whose bit is clear is new, with no scan.
    seen: u64,
    /// The keys of an object grown past [`SCAN_MEMBERS`], to find a repeated key without a
    /// scan. Its members after that keep no record but the current one's, at `slot`.
    index: Option<Box<KeyIndex>>,
    /// In an object with an `index`: where in `members` its current member's record is.
    slot: usize,
    /// Whether a key repeated, so the object is rewritten when it closes.
    rewrite: bool,
}

/// The keys of a large object, each as the offset of its opening quote in the output from
/// the object's own bracket: 4 bytes a key (8 past 4 GiB into the object), its hash computed
/// again from the text when the table grows. Keys are hashed with std's randomly keyed hasher,
/// so a reply cannot choose keys that collide.
struct KeyIndex {
    /// Offset of the object's opening bracket in the output.
    start: usize,
    near: HashTable<u32>,
    far: HashTable<usize>,
    state: RandomState,
}

impl KeyIndex {
    fn new(start: usize) -> Self {
        KeyIndex {
            start,
            near: HashTable::new(),
            far: HashTable::new(),
            state: RandomState::new(),
        }
    }

    /// Whether the object holds the key whose text in `out` is `key` (its escaped body and
    /// closing quote); `hash` is its body's. An earlier key whose text begins with `key` is
    /// the same key: an escaped body ends only at an unescaped quote.
    fn contains(&self, out: &[u8], key: &[u8], hash: u64) -> bool {
        let at = |quote: usize| out[quote + 1..].starts_with(key);
        self.near
            .find(hash, |&k| at(self.start + k as usize))
            .is_some()
            || self.far.find(hash, |&k| at(k)).is_some()
    }

    /// Adds the key whose opening quote is at `quote` in `out`; `hash` is its body's.
    fn insert(&mut self, out: &[u8], quote: usize, hash: u64) {
        let (state, start) = (&self.state, self.start);
        match u32::try_from(quote - start) {
            Ok(near) => {
                self.near.insert_unique(hash, near, |&k| {
                    state.hash_one(key_body(out, start + k as usize))
                });
            }
            Err(_) => {
                self.far
                    .insert_unique(hash, quote, |&k| state.hash_one(key_body(out, k)));
            }
        }
    }
}

/// A set of keys in about their own size: each written as JSON in one text, and a
/// [`KeyIndex`] of where. For the keys of an object read member by member
/// (`repair::items`), which may hold millions.
#[derive(Default)]
pub(super) struct KeySet {
    text: String,
    index: Option<KeyIndex>,
}

impl KeySet {
    /// Adds `key`; false when it was there already.
    pub(super) fn insert(&mut self, key: &str) -> bool {
        let start = self.text.len();
        write_string(&mut self.text, key, false);
        let index = self.index.get_or_insert_with(|| KeyIndex::new(0));
        let out = self.text.as_bytes();
        let written = &out[start + 1..];
        let hash = index.state.hash_one(&written[..written.len() - 1]);
        if index.contains(out, written, hash) {
            self.text.truncate(start);
            return false;
        }
        index.insert(out, start, hash);
        true
    }
}

impl TextFrame {
    fn new(object: bool, start: usize, first_member: usize) -> Self {
        TextFrame {
            object,
            start,
            count: 0,
            first_member,
            seen: 0,
            index: None,
            slot: 0,
            rewrite: false,
        }
    }
}

struct TextMember {
    /// Offset before the separator that precedes the member.
    sep: usize,
    /// Offset of the key's opening quote.
    key: usize,
    /// Offset of the `:` after the key.
    colon: usize,
    /// Offset after the value.
    end: usize,
    /// The key's length and first bytes, to rule out most other keys without a comparison.
    print: u64,
    /// Index in `members` of the member whose value this member's key takes.
    value_of: usize,
    /// Superseded: its key appeared earlier in the object.
    removed: bool,
    /// Its key is new in its object: the fingerprint filter said so when it was written.
    fresh: bool,
}

/// Objects with more members than this find repeated keys through a hash map.
pub(super) const SCAN_MEMBERS: usize = 16;

impl<const VALUES: bool, const AS_VALUE: bool> Text<VALUES, AS_VALUE> {
    /// The finished text.
    pub(super) fn finish(self) -> String {
        self.out
    }

    /// Whether an event changed what was written before it (see the field).
    pub(super) fn edited(&self) -> bool {
        self.edited
    }

    /// Writes the separator a new array item or member needs.
    fn separate(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if VALUES && f.count > 0 {
                self.out.push(',');
            }
            f.count += 1;
        }
    }

    /// Opens an object or an array.
    fn open(&mut self, object: bool) {
        self.before_value();
        let frame = TextFrame::new(object, self.out.len(), self.members.len());
        self.frames.push(frame);
        if VALUES {
            self.out.push(if object { '{' } else { '[' });
        }
    }

    /// A number or literal, as `text`.
    fn scalar(&mut self, text: &str) {
        self.before_value();
        if VALUES {
            self.out.push_str(text);
        }
    }

    /// A number as `serde_json` writes it (its `Display` is its serialization: `itoa` for
    /// integers, `ryu` for the others).
    fn number(&mut self, n: &Number) {
        use std::fmt::Write;
        self.before_value();
        if VALUES {
            let _ = write!(self.out, "{n}");
        }
    }

    /// Before a value: arrays and the top level need a separator; a member's value follows its
    /// key, which wrote one.
    fn before_value(&mut self) {
        if self.frames.last().is_some_and(|f| !f.object) {
            self.separate();
        }
    }

    /// The end of the last member, whose key may have been seen before in its object: when
    /// it was, the member is superseded (and the object rewritten when it closes). Returns
    /// whether it was.
    #[inline(never)]
    fn end_member_seen_before(&mut self) -> bool {
        let i = self.members.len() - 1;
        let Some(frame) = self.frames.last() else {
            return false;
        };
        if frame.index.is_some() || i - frame.first_member > SCAN_MEMBERS {
            return self.seen_in_index(i);
        }
        let Some(j) = self.earlier_member(i, frame.first_member) else {
            return false;
        };
        self.members[i].removed = true;
        let stale = self.members[j].value_of;
        if stale != j {
            // The key was repeated before: the member holding its last value is superseded
            // too, and this one (the last) takes its place, so a key repeated a million
            // times holds two entries, not a million.
            if let Some(last) = self.members.pop() {
                self.members[stale] = last;
            }
            return true;
        }
        self.members[j].value_of = i;
        if let Some(f) = self.frames.last_mut() {
            f.rewrite = true;
        }
        true
    }

    /// An earlier member of the innermost object (whose first member is `first`) with the
    /// same key as member `i`, if any, by a scan of their records.
    fn earlier_member(&self, i: usize, first: usize) -> Option<usize> {
        if self.members[i].fresh {
            return None;
        }
        let out = self.out.as_bytes();
        let key = |m: &TextMember| &out[m.key..m.colon];
        let print = self.members[i].print;
        let new = key(&self.members[i]);
        (first..i).find(|&j| {
            let m = &self.members[j];
            m.print == print && !m.removed && key(m) == new
        })
    }

    /// Whether member `i`'s key is already in its large object's index; it joins the index
    /// when it is not. The index is built from the records of the object's members on its
    /// first use, and from then on the object keeps a record of its current member only.
    fn seen_in_index(&mut self, i: usize) -> bool {
        let Some(frame) = self.frames.last_mut() else {
            return false;
        };
        let out = self.out.as_bytes();
        let index = frame.index.get_or_insert_with(|| {
            let mut index = Box::new(KeyIndex::new(frame.start));
            for m in &self.members[frame.first_member..i] {
                if !m.removed {
                    let hash = index.state.hash_one(&out[m.key + 1..m.colon - 1]);
                    index.insert(out, m.key, hash);
                }
            }
            index
        });
        frame.slot = i;
        let m = &self.members[i];
        let key = &out[m.key + 1..m.colon];
        let hash = index.state.hash_one(&key[..key.len() - 1]);
        if index.contains(out, key, hash) {
            frame.rewrite = true;
            return true;
        }
        index.insert(out, m.key, hash);
        false
    }

    /// Rewrites the object that starts at `frame.start` (closed at the end of the output) with
    /// each key once, at its first position, holding its last value.
    fn rewrite(&mut self, frame: &TextFrame) {
        let mut text = String::with_capacity(self.out.len() - frame.start);
        text.push('{');
        let mut first = true;
        for m in &self.members[frame.first_member..] {
            if m.removed {
                continue;
            }
            if !first {
                text.push(',');
            }
            first = false;
            let v = &self.members[m.value_of];
            text.push_str(&self.out[m.key..=m.colon]);
            text.push_str(&self.out[v.colon + 1..v.end]);
        }
        text.push('}');
        self.out.truncate(frame.start);
        self.out.push_str(&text);
    }

    /// Rewrites the object that starts at `start` (closed at the end of the output) as
    /// [`rewrite`](Self::rewrite) does, for a large object, which keeps no record of its
    /// members: they are read again from its text, which is JSON as this sink writes it.
    fn rewrite_from_text(&mut self, start: usize) {
        let text = &self.out[start..];
        let bytes = text.as_bytes();
        // Each key once, at its first position: its text and its last value's.
        let mut members: Vec<(&str, &str)> = Vec::new();
        let mut position: HashMap<&str, usize> = HashMap::new();
        let mut at = 1;
        while bytes.get(at).is_some_and(|&b| b != b'}') {
            if bytes[at] == b',' {
                at += 1;
            }
            let colon = at + 1 + key_body(bytes, at).len() + 1;
            let end = value_end(bytes, colon + 1);
            let (key, value) = (&text[at..colon], &text[colon + 1..end]);
            match position.get(key) {
                Some(&k) => members[k].1 = value,
                None => {
                    position.insert(key, members.len());
                    members.push((key, value));
                }
            }
            at = end;
        }
        let mut rewritten = String::with_capacity(text.len());
        rewritten.push('{');
        for (n, (key, value)) in members.iter().enumerate() {
            if n > 0 {
                rewritten.push(',');
            }
            rewritten.push_str(key);
            rewritten.push(':');
            rewritten.push_str(value);
        }
        rewritten.push('}');
        self.out.truncate(start);
        self.out.push_str(&rewritten);
    }
}

/// The escaped body of the string whose opening quote is at `quote` in JSON text this sink
/// wrote: up to its first unescaped quote.
fn key_body(text: &[u8], quote: usize) -> &[u8] {
    let body = &text[quote + 1..];
    let mut at = 0;
    while let Some(&b) = body.get(at) {
        match b {
            b'"' => break,
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    &body[..at.min(body.len())]
}

/// The end of the JSON value that starts at `start` in text this sink wrote, inside an object
/// or array: after its closing quote or bracket, or at the `,`, `}` or `]` after a scalar.
fn value_end(text: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut at = start;
    while let Some(&b) = text.get(at) {
        match b {
            b'"' => {
                at += key_body(text, at).len() + 2;
                if depth == 0 {
                    return at.min(text.len());
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth > 1 => depth -= 1,
            b'}' | b']' if depth == 1 => return at + 1,
            b',' | b'}' | b']' if depth == 0 => return at,
            _ => {}
        }
        at += 1;
    }
    text.len()
}

impl<'a, const VALUES: bool, const AS_VALUE: bool> Sink<'a> for Text<VALUES, AS_VALUE> {
    // Text keeps a number's digits; a text written as a `Value` would be does not.
    const ROUNDS: bool = AS_VALUE;
    fn new(len: usize) -> Self {
        Text {
            out: String::with_capacity(if VALUES { len } else { 0 }),
            frames: Vec::new(),
            members: Vec::new(),
            root_string: None,
            edited: false,
        }
    }
    fn null(&mut self) {
        self.scalar("null");
    }
    fn bool(&mut self, v: bool) {
        self.scalar(if v { "true" } else { "false" });
    }
    fn int(&mut self, n: Int, text: &str) {
        if AS_VALUE {
            self.number(&n.into());
        } else {
            self.scalar(text);
        }
    }
    fn float(&mut self, text: &str) -> bool {
        if AS_VALUE {
            return match finite_number(text) {
                Some(n) => {
                    self.number(&n);
                    true
                }
                None => {
                    self.scalar("null");
                    false
                }
            };
        }
        let finite = is_finite(text);
        self.scalar(if finite { text } else { "null" });
        finite
    }
    fn string(&mut self, s: &str, safe: bool) {
        if self.frames.is_empty() {
            self.root_string = Some(s.to_owned());
        }
        self.before_value();
        if VALUES {
            write_string(&mut self.out, s, safe);
        }
    }
    /// Inside a container (a top-level string is kept decoded, see `root_string`), a
    /// string is written a part at a time; without values, its parts are passed over, so
    /// that no string is held whole.
    fn begin_string(&mut self) -> bool {
        if self.frames.is_empty() {
            return false;
        }
        self.before_value();
        if VALUES {
            self.out.push('"');
        }
        true
    }
    fn string_part(&mut self, part: &str) {
        if VALUES {
            escape_body(&mut self.out, part);
        }
    }
    fn end_string(&mut self) {
        if VALUES {
            self.out.push('"');
        }
    }
    fn begin_object(&mut self) {
        self.open(true);
    }
    fn key(&mut self, key: &str, safe: bool) {
        let sep = self.out.len();
        // The separator, and whether the object is small enough for the filter. A large
        // object's current member takes the place of its last.
        let (comma, small) = match self.frames.last_mut() {
            Some(f) => {
                let comma = VALUES && f.count > 0;
                f.count += 1;
                if f.index.is_some() {
                    self.members.truncate(f.slot);
                }
                (
                    comma,
                    f.index.is_none() && self.members.len() - f.first_member <= SCAN_MEMBERS,
                )
            }
            None => (false, false),
        };
        let i = self.members.len();
        self.out.reserve(key.len() + 4);
        if comma {
            self.out.push(',');
        }
        let start = self.out.len();
        write_string(&mut self.out, key, safe);
        let colon = self.out.len();
        // The fingerprint of the key as written, from the key itself when it was written as
        // it stands.
        let print = if safe {
            fingerprint(key.as_bytes())
        } else {
            fingerprint(&self.out.as_bytes()[start + 1..colon - 1])
        };
        self.out.push(':');
        // In a small object, a key whose fingerprint's bit is clear is new: its member ends
        // with no scan.
        let fresh = match self.frames.last_mut() {
            Some(f) if small => {
                let bit = bit_of(print);
                let fresh = f.seen & bit == 0;
                f.seen |= bit;
                fresh
            }
            _ => false,
        };
        self.members.push(TextMember {
            sep,
            key: start,
            colon,
            end: colon + 1,
            print,
            value_of: i,
            removed: false,
            fresh,
        });
    }
    #[inline(always)]
    fn end_member(&mut self) -> bool {
        let Some(m) = self.members.last_mut() else {
            return false;
        };
        m.end = self.out.len();
        !m.fresh && self.end_member_seen_before()
    }
    fn abandon_member(&mut self) {
        self.edited = true;
        if let Some(m) = self.members.pop() {
            self.out.truncate(m.sep);
            if let Some(f) = self.frames.last_mut() {
                f.count -= 1;
            }
        }
    }
    fn end_object(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if !VALUES {
                self.out.truncate(frame.start);
            } else {
                self.out.push('}');
                if frame.rewrite {
                    if frame.index.is_some() {
                        self.rewrite_from_text(frame.start);
                    } else {
                        self.rewrite(&frame);
                    }
                }
            }
            self.members.truncate(frame.first_member);
        }
    }
    fn begin_array(&mut self) {
        self.open(false);
    }
    fn end_array(&mut self) {
        self.frames.pop();
        if VALUES {
            self.out.push(']');
        }
    }
    fn root_to_array(&mut self) {
        self.edited = true;
        if VALUES {
            self.out.insert(0, '[');
        }
        self.frames
            .push(TextFrame::new(false, 0, self.members.len()));
        if let Some(f) = self.frames.last_mut() {
            f.count = 1;
        }
    }
    fn object_to_array(&mut self) {
        self.edited = true;
        if let Some(f) = self.frames.last_mut() {
            f.object = false;
            if VALUES {
                self.out.replace_range(f.start..f.start + 1, "[");
            }
        }
    }
    fn end_array_as_item(&mut self) {
        self.edited = true;
        if let Some(f) = self.frames.pop() {
            if VALUES {
                self.out.remove(f.start);
            }
        }
    }
    fn reopen_array(&mut self) {
        self.edited = true;
        let start = self.members.last().map_or(self.out.len(), |m| m.colon + 1);
        let mut frame = TextFrame::new(false, start, self.members.len());
        if VALUES {
            self.out.pop();
            frame.count = usize::from(self.out.len() > start + 1);
        }
        self.frames.push(frame);
    }
    fn close_reopened(&mut self) {
        self.frames.pop();
        if VALUES {
            self.out.push(']');
        }
        let end = self.out.len();
        if let Some(m) = self.members.last_mut() {
            m.end = end;
        }
    }
    fn root_string(&self) -> Option<&str> {
        self.root_string.as_deref()
    }
    fn unwrap_root<L: Log>(&mut self, options: &RepairOptions) -> Option<(L, usize)> {
        let (inner, log, count) = inner_document::<Self, L>(self.root_string()?, options)?;
        *self = inner;
        self.edited = true;
        Some((log, count))
    }
}

/// A key body's length and its first eight bytes (as written, without the quotes), in one word.
fn fingerprint(body: &[u8]) -> u64 {
    first_bytes(body) ^ ((body.len() as u64) << 56)
}

/// Up to the first 8 bytes of `bytes` as a little-endian word, zero-padded. Keys are short,
/// and a `copy_from_slice` of a variable length is a call to `memcpy`; this is a few loads.
/// Shorter slices are read with two overlapping loads (4 to 7 bytes) or three single ones,
/// each put at its own place, so no loop runs over their bytes.
#[inline]
fn first_bytes(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if let Some(word) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*word);
    }
    if let (Some(lo), Some(hi)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let (lo, hi) = (u32::from_le_bytes(*lo), u32::from_le_bytes(*hi));
        return u64::from(lo) | (u64::from(hi) << ((n - 4) * 8));
    }
    match bytes {
        [] => 0,
        [first, ..] => {
            let at = |i: usize| u64::from(bytes[i]) << (i * 8);
            u64::from(*first) | at(n / 2) | at(n - 1)
        }
    }
}

/// Whether a number in JSON syntax is a finite double. Without an exponent, fewer than 300
/// integer digits cannot reach `f64::MAX` (about 1.8e308), so only the rest is parsed.
pub(super) fn is_finite(text: &str) -> bool {
    let digits = text.bytes().take_while(|&c| c != b'.').count();
    if digits < 300 && !text.bytes().any(|c| c == b'e' || c == b'E') {
        return true;
    }
    text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// What each byte becomes inside a JSON string: 0 for itself, else the letter after the
/// backslash (`u` for `\u00XX`), as `serde_json` escapes.
pub(crate) static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 0x20 {
        table[c] = b'u';
        c += 1;
    }
    table[0x08] = b'b';
    table[0x0c] = b'f';
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Appends `s` as a JSON string, escaped as `serde_json` escapes it (`safe`: the caller knows
/// there is nothing to escape).
///
/// The safe case, nearly every key and value, is inlined where it is written; the escaping
/// loop is a call of its own, so that case pays for none of its setup.
#[inline(always)]
pub(super) fn write_string(out: &mut String, s: &str, safe: bool) {
    if safe {
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        write_escaped(out, s);
    }
}

#[inline(never)]
fn write_escaped(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    escape_body(out, s);
    out.push('"');
}

/// Appends `s` escaped, without the quotes around it.
pub(super) fn escape_body(out: &mut String, s: &str) {
    let mut rest = s;
    // Each byte JSON escapes is ASCII, so every split falls on a character boundary.
    while let Some(i) = rest.bytes().position(|c| ESCAPE[usize::from(c)] != 0) {
        let (plain, tail) = rest.split_at(i);
        out.push_str(plain);
        push_escape(out, tail.as_bytes()[0]);
        rest = &tail[1..];
    }
    out.push_str(rest);
}

/// Appends the escape `serde_json` writes for `c`, a byte JSON escapes in a string (a quote,
/// a backslash, a control character: `\n` or `\u001f`).
pub(crate) fn push_escape(out: &mut String, c: u8) {
    match ESCAPE[usize::from(c)] {
        b'u' => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(c >> 4)]));
            out.push(char::from(HEX[usize::from(c & 0xf)]));
        }
        e => {
            out.push('\\');
            out.push(char::from(e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        for s in [
            "plain",
            "q\"b\\",
            "\n\r\t\u{8}\u{c}",
            "\u{0}\u{1f}\u{7f}",
            "é😀",
            "",
            "a\u{1}é\"😀\\",
        ] {
            let mut out = String::new();
            write_string(&mut out, s, false);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
        // An escape at every position of a string, beside multi-byte characters.
        let base = "abcé😀fgh";
        let boundaries = base.char_indices().map(|(i, _)| i).chain([base.len()]);
        for at in boundaries {
            for c in ['"', '\\', '\n', '\u{1f}'] {
                let mut s = base.to_owned();
                s.insert(at, c);
                let mut out = String::new();
                write_string(&mut out, &s, false);
                assert_eq!(out, serde_json::to_string(&s).unwrap(), "{s:?}");
            }
        }
    }

    #[test]
    fn first_bytes_are_the_zero_padded_little_endian_word() {
        assert_eq!(first_bytes(b""), 0);
        assert_eq!(first_bytes(b"a"), 0x61);
        assert_eq!(first_bytes(b"ab"), 0x6261);
        assert_eq!(first_bytes(b"abc"), 0x63_6261);
        assert_eq!(first_bytes(b"abcd"), 0x6463_6261);
        assert_eq!(first_bytes(b"abcde"), 0x65_6463_6261);
        assert_eq!(first_bytes(b"abcdefg"), 0x0067_6665_6463_6261);
        assert_eq!(first_bytes(b"abcdefgh"), 0x6867_6665_6463_6261);
        assert_eq!(first_bytes(b"abcdefghij"), 0x6867_6665_6463_6261);
        assert_ne!(filter_bit(b"ab"), 0);
        assert_eq!(fingerprint(b"key"), fingerprint(b"key"));
    }

    #[test]
    fn finiteness_is_decided_without_parsing_short_numbers() {
        assert!(is_finite("1.5"));
        assert!(is_finite(&"9".repeat(299)));
        assert!(is_finite(&"9".repeat(308)));
        assert!(!is_finite(&"9".repeat(309)));
        assert!(!is_finite("1e999"));
        assert!(is_finite("1e308"));
        assert!(!is_finite("-2E308"));
    }
}
