//! Where a family's reader puts the calls it finds: kept as [`ToolCall`]s (what
//! [`parse`](super::parse) returns), or each written as compact JSON the moment it is found
//! ([`parse_compact`](super::parse_compact)), so that a reply of a million calls is held as
//! its calls' text, not as a million maps. A call whose JSON text would be far longer than
//! its value (a string of raw control characters is six bytes of JSON for each, `\u0001`) is
//! held as its value instead, and written as JSON only when it is written out.

use std::ops::Range;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::ToolCall;

/// The calls found so far, in order. Readers use it as a `Vec`: `push`, `extend`, `len`,
/// `truncate` (to take back calls a later reading replaces).
#[derive(Debug)]
pub(crate) enum Calls {
    Kept(Vec<ToolCall>),
    /// Each call's name, its arguments as compact JSON and its id, one after another in a
    /// chunk of text; `entries[i]` says in which chunk call `i` is and where its parts end.
    /// Large calls laid out from their JSON text ([`push_text`](Calls::push_text)) keep that
    /// text as a chunk of their own, so they are never copied; the others are written into
    /// the last chunk while it takes more (`open`). A call held as its value
    /// ([`holds`]) is in `held`.
    Written {
        chunks: Vec<String>,
        open: bool,
        entries: Vec<Entry>,
        held: Vec<Held>,
    },
}

/// A written call held as its value, because its JSON text would be far longer (see
/// [`holds`]); that text is made only if it is asked for ([`Calls::parts`]).
#[derive(Debug)]
pub(crate) struct Held {
    call: ToolCall,
    arguments: OnceLock<String>,
}

/// Where a written call's parts end in its chunk (its name starts where the call before it
/// in the same chunk ends, or at the chunk's start).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    name_end: usize,
    arguments_end: usize,
    end: usize,
    chunk: u32,
    /// Whether the call has an id (the text after its arguments).
    id: bool,
    /// Whether the arguments come first, the name and id after them (ending at
    /// `arguments_end`, `name_end`, `end`): a large call's arguments kept as their chunk (see
    /// [`Calls::push_arguments`]).
    arguments_first: bool,
    /// Whether the call is held as its value: `held[chunk]`, the ends unused.
    held: bool,
}

/// A call found in JSON text, by its parts: `span` is where the call is in that text, the
/// name and id are decoded, and the arguments are where they are in the text or apart.
#[derive(Debug)]
pub(crate) struct Parts {
    pub span: Range<usize>,
    pub id: Option<String>,
    pub name: String,
    pub arguments: Arguments,
}

/// A call's arguments, as compact JSON.
#[derive(Debug)]
pub(crate) enum Arguments {
    /// At this range of the call's text.
    At(Range<usize>),
    /// This text, read apart (arguments given as a JSON string).
    Apart(String),
    /// None given, or not an object: `{}`.
    Empty,
}

impl Parts {
    /// The arguments' JSON, with `json` the text the call was found in.
    fn arguments<'a>(&'a self, json: &'a str) -> &'a str {
        match &self.arguments {
            Arguments::At(r) => json.get(r.clone()).unwrap_or("{}"),
            Arguments::Apart(text) => text,
            Arguments::Empty => "{}",
        }
    }

    /// How long the call is laid out: name, arguments, id.
    fn laid_out_len(&self, json: &str) -> usize {
        self.name.len() + self.arguments(json).len() + self.id.as_ref().map_or(0, String::len)
    }
}

impl Default for Calls {
    fn default() -> Self {
        Calls::Kept(Vec::new())
    }
}

impl Calls {
    /// Calls written as they come.
    pub(crate) fn written() -> Self {
        Calls::Written {
            chunks: Vec::new(),
            open: false,
            entries: Vec::new(),
            held: Vec::new(),
        }
    }

    /// Whether calls are written as they come (what [`push_text`](Calls::push_text) is for).
    pub(crate) fn is_written(&self) -> bool {
        matches!(self, Calls::Written { .. })
    }

    pub(crate) fn push(&mut self, call: ToolCall) {
        match self {
            Calls::Kept(calls) => calls.push(call),
            Calls::Written { entries, held, .. } if holds(&call.arguments) => {
                let Ok(chunk) = u32::try_from(held.len()) else {
                    // (Past four billion held calls: written as any call is.)
                    return self.write_call(call);
                };
                entries.push(Entry {
                    name_end: 0,
                    arguments_end: 0,
                    end: 0,
                    chunk,
                    id: call.id.is_some(),
                    arguments_first: false,
                    held: true,
                });
                held.push(Held {
                    call,
                    arguments: OnceLock::new(),
                });
            }
            Calls::Written { .. } => self.write_call(call),
        }
    }

    /// Writes `call` into the open chunk (where calls are written).
    fn write_call(&mut self, call: ToolCall) {
        match self {
            Calls::Kept(calls) => calls.push(call),
            Calls::Written {
                chunks,
                open,
                entries,
                ..
            } => write_open(
                chunks,
                open,
                entries,
                &call.name,
                call.id.as_deref(),
                |text| {
                    let name_end = text.len();
                    // Written straight into the text: a call's arguments are not held twice.
                    if serde_json::to_writer(Append(text), &call.arguments).is_err() {
                        // (Not reached: `serde_json` writes whole UTF-8 pieces, see `Append`.)
                        text.truncate(name_end);
                        if let Ok(arguments) = serde_json::to_string(&call.arguments) {
                            text.push_str(&arguments);
                        }
                    }
                },
            ),
        }
    }

    /// The calls `calls` found in `json`, the text `serde_json` writes for their value (a
    /// call, or an array of calls; see `repair::to_value_text`). Written, the calls are laid
    /// out in `json` in place: each call's parts are moved to where the calls before it end.
    /// Laid out in 64 KiB or more, the text is then a chunk of its own, so a large call is
    /// never copied; a smaller one is copied into the open chunk. (A call whose arguments
    /// were given as a string may be laid out longer than its text was: the calls are then
    /// copied out of `json`.)
    pub(crate) fn push_text(&mut self, json: String, calls: Vec<Parts>) {
        if calls.is_empty() {
            return;
        }
        let chunk = match self {
            Calls::Written { chunks, .. } => u32::try_from(chunks.len()).ok(),
            Calls::Kept(_) => None,
        };
        let (
            Some(chunk),
            Calls::Written {
                chunks,
                open,
                entries,
                ..
            },
        ) = (chunk, &mut *self)
        else {
            // Kept, or (past four billion chunks) written as any call is.
            for c in calls {
                let arguments = serde_json::from_str(c.arguments(&json)).unwrap_or_default();
                self.push(ToolCall {
                    id: c.id,
                    name: c.name,
                    arguments,
                });
            }
            return;
        };
        let (text, ends) = lay_out(json, &calls);
        // A large text is a chunk of its own, never copied. A small one is copied into the
        // open chunk, as `push` writes (a chunk a call would cost a `String` and the
        // allocator's rounding for each of a million small calls), or opens one.
        let large = text.len() >= OWN_CHUNK;
        let (chunk, offset) = match chunks.last_mut() {
            Some(last) if *open && !large => {
                let offset = last.len();
                last.push_str(&text);
                (chunk - 1, offset)
            }
            _ => {
                chunks.push(text);
                *open = !large;
                (chunk, 0)
            }
        };
        for ((name_end, arguments_end, end), c) in ends.into_iter().zip(&calls) {
            entries.push(Entry {
                name_end: offset + name_end,
                arguments_end: offset + arguments_end,
                end: offset + end,
                chunk,
                id: c.id.is_some(),
                arguments_first: false,
                held: false,
            });
        }
    }

    /// The call `name` (with `id`) whose arguments are `arguments`, the JSON text
    /// `serde_json` writes for them (an object). Written, arguments of 64 KiB or more are a
    /// chunk of their own, the name and id written after them, so they are never copied;
    /// smaller ones are copied into the open chunk.
    pub(crate) fn push_arguments(&mut self, id: Option<String>, name: String, arguments: String) {
        let Calls::Written {
            chunks,
            open,
            entries,
            ..
        } = self
        else {
            let arguments = serde_json::from_str(&arguments).unwrap_or_default();
            return self.push(ToolCall {
                id,
                name,
                arguments,
            });
        };
        let own = u32::try_from(chunks.len())
            .ok()
            .filter(|_| arguments.len() >= OWN_CHUNK);
        let Some(chunk) = own else {
            return write_open(chunks, open, entries, &name, id.as_deref(), |text| {
                text.push_str(&arguments)
            });
        };
        let mut text = arguments;
        let arguments_end = text.len();
        text.push_str(&name);
        let name_end = text.len();
        text.push_str(id.as_deref().unwrap_or_default());
        entries.push(Entry {
            name_end,
            arguments_end,
            end: text.len(),
            chunk,
            id: id.is_some(),
            arguments_first: true,
            held: false,
        });
        chunks.push(text);
        *open = false;
    }

    pub(crate) fn extend(&mut self, calls: impl IntoIterator<Item = ToolCall>) {
        for call in calls {
            self.push(call);
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Calls::Kept(calls) => calls.len(),
            Calls::Written { entries, .. } => entries.len(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the first `n` calls.
    pub(crate) fn truncate(&mut self, n: usize) {
        match self {
            Calls::Kept(calls) => calls.truncate(n),
            Calls::Written {
                chunks,
                open,
                entries,
                held,
            } => {
                entries.truncate(n);
                let last_held = entries.iter().rev().find(|e| e.held);
                held.truncate(last_held.map_or(0, |e| e.chunk as usize + 1));
                match entries.iter().rev().find(|e| !e.held) {
                    Some(e) => {
                        chunks.truncate(e.chunk as usize + 1);
                        if let Some(text) = chunks.last_mut() {
                            text.truncate(e.end);
                        }
                    }
                    None => chunks.clear(),
                }
                // The next call starts a chunk: the last one may be laid-out JSON.
                *open = false;
            }
        }
    }

    /// Call `i`'s parts as written: its name, its arguments' JSON, its id.
    /// For a call held as its value, the arguments' JSON is made the first time it is asked
    /// for, and kept.
    pub(crate) fn parts(&self, i: usize) -> Option<(&str, &str, Option<&str>)> {
        let Calls::Written {
            chunks,
            entries,
            held,
            ..
        } = self
        else {
            return None;
        };
        let e = entries.get(i)?;
        if e.held {
            let h = held.get(e.chunk as usize)?;
            let arguments = h.arguments.get_or_init(|| {
                serde_json::to_string(&h.call.arguments).unwrap_or_else(|_| "{}".to_owned())
            });
            return Some((&h.call.name, arguments, h.call.id.as_deref()));
        }
        // (Entries of held calls come between written ones in no chunk.)
        let start = entries[..i]
            .iter()
            .rev()
            .find(|before| !before.held)
            .filter(|before| before.chunk == e.chunk)
            .map_or(0, |before| before.end);
        let text = chunks.get(e.chunk as usize)?;
        let (name, arguments, id) = if e.arguments_first {
            (
                e.arguments_end..e.name_end,
                start..e.arguments_end,
                e.name_end..e.end,
            )
        } else {
            (
                start..e.name_end,
                e.name_end..e.arguments_end,
                e.arguments_end..e.end,
            )
        };
        Some((
            text.get(name)?,
            text.get(arguments)?,
            e.id.then(|| text.get(id)).flatten(),
        ))
    }

    /// Call `i`, where it is held as its value.
    pub(crate) fn held(&self, i: usize) -> Option<&ToolCall> {
        let Calls::Written { entries, held, .. } = self else {
            return None;
        };
        let e = entries.get(i).filter(|e| e.held)?;
        held.get(e.chunk as usize).map(|h| &h.call)
    }

    /// Writes call `i` as `serde_json` writes a [`ToolCall`] (compact).
    pub(crate) fn write(&self, i: usize, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Calls::Kept(calls) => match calls.get(i) {
                Some(call) => serde_json::to_writer(w, call).map_err(Into::into),
                None => Ok(()),
            },
            Calls::Written { entries, held, .. } if entries.get(i).is_some_and(|e| e.held) => {
                match held.get(entries[i].chunk as usize) {
                    // (The arguments' JSON written as it is made, not held.)
                    Some(h) => serde_json::to_writer(w, &h.call).map_err(Into::into),
                    None => Ok(()),
                }
            }
            Calls::Written { .. } => {
                let Some((name, arguments, id)) = self.parts(i) else {
                    return Ok(());
                };
                w.write_all(b"{\"id\":")?;
                serde_json::to_writer(&mut *w, &id)?;
                w.write_all(b",\"name\":")?;
                serde_json::to_writer(&mut *w, name)?;
                w.write_all(b",\"arguments\":")?;
                w.write_all(arguments.as_bytes())?;
                w.write_all(b"}")
            }
        }
    }

    /// Call `i`, read back from its JSON when written.
    pub(crate) fn get(&self, i: usize) -> Option<ToolCall> {
        match self {
            Calls::Kept(calls) => calls.get(i).cloned(),
            Calls::Written { entries, held, .. } if entries.get(i).is_some_and(|e| e.held) => {
                held.get(entries[i].chunk as usize).map(|h| h.call.clone())
            }
            Calls::Written { .. } => {
                let (name, arguments, id) = self.parts(i)?;
                Some(ToolCall {
                    id: id.map(str::to_owned),
                    name: name.to_owned(),
                    arguments: serde_json::from_str::<Map<String, Value>>(arguments).ok()?,
                })
            }
        }
    }

    /// The calls as [`ToolCall`]s.
    pub(crate) fn into_vec(mut self) -> Vec<ToolCall> {
        let held = match &mut self {
            Calls::Kept(calls) => return std::mem::take(calls),
            Calls::Written { held, .. } => std::mem::take(held),
        };
        let mut held = held.into_iter().map(|h| h.call);
        let Calls::Written { entries, .. } = &self else {
            return Vec::new();
        };
        // (Held calls are moved out, not copied.)
        (0..entries.len())
            .filter_map(|i| match entries[i].held {
                true => held.next(),
                false => self.get(i),
            })
            .collect()
    }
}

/// Writes a call into the open chunk: its name, its arguments (`arguments` writes them),
/// its id.
fn write_open(
    chunks: &mut Vec<String>,
    open: &mut bool,
    entries: &mut Vec<Entry>,
    name: &str,
    id: Option<&str>,
    arguments: impl FnOnce(&mut String),
) {
    let chunk = open_chunk(chunks, open);
    let text = &mut chunks[chunk];
    text.push_str(name);
    let name_end = text.len();
    arguments(text);
    let arguments_end = text.len();
    text.push_str(id.unwrap_or_default());
    entries.push(Entry {
        name_end,
        arguments_end,
        end: text.len(),
        chunk: chunk as u32,
        id: id.is_some(),
        arguments_first: false,
        held: false,
    });
}

/// The chunk calls are written into: the last one while it takes more, else a new one (the
/// last one when there are four billion).
fn open_chunk(chunks: &mut Vec<String>, open: &mut bool) -> usize {
    if (!*open || chunks.is_empty()) && u32::try_from(chunks.len()).is_ok() {
        chunks.push(String::new());
        *open = true;
    }
    chunks.len() - 1
}

/// Whether written calls hold a call with these arguments as its value rather than as its
/// JSON text: where escaping its strings' control characters (and quotes and backslashes)
/// would add at least [`HOLD_FROM`] bytes, and more than a value costs for each of its
/// nodes ([`NODE_COST`]). A string of 100 MB of raw U+0001 is then held as 100 MB, not as its
/// 600 MB of JSON; a file in a string, whose JSON is about as long, stays text.
pub(crate) fn holds(arguments: &Map<String, Value>) -> bool {
    let mut weight = Weight::default();
    for (k, v) in arguments {
        weight.string(k);
        weight.value(v);
    }
    weight.holds()
}

/// Whether arguments holding `v` are held as their value ([`holds`]), whatever else they
/// hold.
pub(crate) fn holds_value(v: &Value) -> bool {
    let mut weight = Weight::default();
    weight.value(v);
    weight.holds()
}

/// Whether arguments holding the string `s` are held as their value ([`holds`]).
pub(crate) fn holds_string(s: &str) -> bool {
    let mut weight = Weight::default();
    weight.string(s);
    weight.holds()
}

/// What escaping a value's strings adds to its JSON, and how many nodes it has.
#[derive(Default)]
struct Weight {
    growth: usize,
    nodes: usize,
}

impl Weight {
    fn string(&mut self, s: &str) {
        if s.len() >= SCANNED {
            let b = s.as_bytes();
            let quoted = b.iter().filter(|&&c| c == b'"' || c == b'\\').count();
            self.growth = (self.growth)
                .saturating_add(crate::repair::control_growth(b))
                .saturating_add(quoted);
        }
    }

    fn value<'v>(&mut self, v: &'v Value) {
        // (A stack, not recursion: any depth. Made only for containers: most arguments
        // are scalars, weighed for each argument of a million small calls.)
        let mut stack: Vec<&'v Value> = Vec::new();
        let mut next = Some(v);
        while let Some(v) = next.take().or_else(|| stack.pop()) {
            self.nodes += 1;
            match v {
                Value::String(s) => self.string(s),
                Value::Array(items) => stack.extend(items),
                Value::Object(members) => {
                    for (k, v) in members {
                        self.string(k);
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
    }

    fn holds(&self) -> bool {
        self.growth >= HOLD_FROM && self.growth / NODE_COST > self.nodes
    }
}

/// Whether `text`, the JSON (or Python literal) of a large call or of its arguments, is read
/// into a value to be held ([`holds`]) rather than repaired to its JSON text: where its
/// control characters could make that text a quarter longer, at least [`HOLD_FROM`] bytes,
/// and more than a value costs for each node it could have (each `,`, `:`, `[` or `{` may
/// begin one). The value is then about the text's size where its JSON would be up to six
/// times it.
pub(crate) fn smaller_as_value(text: &str) -> bool {
    if !may_hold(text.len()) {
        return false;
    }
    let b = text.as_bytes();
    let growth = crate::repair::control_growth(b);
    if growth < HOLD_FROM || growth <= text.len() / 4 {
        return false;
    }
    let nodes = (b.iter())
        .filter(|&&c| matches!(c, b',' | b':' | b'[' | b'{'))
        .count();
    growth / NODE_COST > nodes + 1
}

/// Whether a value read from a text of `len` bytes can be held ([`holds`]): its strings
/// are at most that long, and escaping adds at most five bytes a byte.
pub(crate) fn may_hold(len: usize) -> bool {
    len >= HOLD_FROM / 5
}

/// How much escaping a call's strings must add for it to be held as a value (small under the
/// fuzzer, whose inputs must reach both).
const HOLD_FROM: usize = if cfg!(fuzzing) { 16 } else { 64 * 1024 };

/// How long a string must be to be counted by [`holds`] (shorter ones add less than their
/// node costs).
const SCANNED: usize = if cfg!(fuzzing) { 4 } else { 256 };

/// About what a node of a `serde_json::Value` costs beyond its text: the value (32 bytes),
/// and a string's or container's allocation, or a map's entry.
const NODE_COST: usize = if cfg!(fuzzing) { 1 } else { 64 };

/// How long a call's laid-out text must be to be kept as a chunk of its own (see
/// [`Calls::push_text`]). Small under the fuzzer, whose inputs must reach both.
const OWN_CHUNK: usize = if cfg!(fuzzing) { 32 } else { 64 * 1024 };

/// The calls of `json` laid out one after another, each as its name, arguments and id, and
/// where each call's parts end. In place when every call fits in the text up to the next
/// call's (its name and id are decoded, so shorter than they were written, and its
/// arguments are moved, not rewritten); else copied into a new text.
fn lay_out(json: String, calls: &[Parts]) -> (String, Vec<(usize, usize, usize)>) {
    let mut cursor = 0;
    let fits = calls.iter().enumerate().all(|(i, c)| {
        cursor += c.laid_out_len(&json);
        cursor <= calls.get(i + 1).map_or(json.len(), |next| next.span.start)
    });
    let mut ends = Vec::with_capacity(calls.len());
    if !fits {
        let mut text = String::new();
        for c in calls {
            text.push_str(&c.name);
            let name_end = text.len();
            text.push_str(c.arguments(&json));
            let arguments_end = text.len();
            text.push_str(c.id.as_deref().unwrap_or_default());
            ends.push((name_end, arguments_end, text.len()));
        }
        return (text, ends);
    }
    // Call `i` is laid out from `cursor`, at or before its own text, and ends before the
    // next call's: its arguments are moved first (left, or right past a name longer than
    // what came before them), then the name and id are written around them. What is read
    // is never written over before it is read.
    let mut bytes = json.into_bytes();
    let mut cursor = 0;
    for c in calls {
        let name_end = cursor + c.name.len();
        let arguments_end = match &c.arguments {
            Arguments::At(r) => {
                bytes.copy_within(r.clone(), name_end);
                name_end + r.len()
            }
            Arguments::Apart(text) => put(&mut bytes, name_end, text),
            Arguments::Empty => put(&mut bytes, name_end, "{}"),
        };
        put(&mut bytes, cursor, &c.name);
        cursor = put(
            &mut bytes,
            arguments_end,
            c.id.as_deref().unwrap_or_default(),
        );
        ends.push((name_end, arguments_end, cursor));
    }
    bytes.truncate(cursor);
    // Every piece is whole UTF-8 and the pieces cover the text, so this is never lossy.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, ends)
}

/// Writes `s` at `at` in `bytes` (inside it: `lay_out` checked it fits); returns its end.
fn put(bytes: &mut [u8], at: usize, s: &str) -> usize {
    let end = at + s.len();
    if let Some(place) = bytes.get_mut(at..end) {
        place.copy_from_slice(s.as_bytes());
    }
    end
}

/// `serde_json`'s output appended to a `String`. Each piece it writes is whole UTF-8: it cuts
/// a string only before the ASCII characters it escapes. A piece that is not would be an
/// error, never a panic.
pub(crate) struct Append<'a>(pub &'a mut String);

impl std::io::Write for Append<'_> {
    fn write(&mut self, piece: &[u8]) -> std::io::Result<usize> {
        let piece = std::str::from_utf8(piece)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        self.0.push_str(piece);
        Ok(piece.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Extend<ToolCall> for Calls {
    fn extend<I: IntoIterator<Item = ToolCall>>(&mut self, calls: I) {
        Calls::extend(self, calls);
    }
}

impl IntoIterator for Calls {
    type Item = ToolCall;
    type IntoIter = std::vec::IntoIter<ToolCall>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(name: &str, args: Value) -> ToolCall {
        ToolCall {
            id: (name == "b").then(|| "id-\"1\"".to_owned()),
            name: name.to_owned(),
            arguments: args.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn written_calls_read_back_as_kept_ones() {
        let calls = [
            call("a", json!({"x": 1, "s": "q\"\n", "f": 1.5e-7, "n": null})),
            call(
                "n\"a\tme",
                json!({"k": [1.0, -0.0, 12345678901234567890u64]}),
            ),
            call("b", json!({})),
            call("c", json!({"z": [1, {"y": true}], "a": "é"})),
            // Escapes beside characters of two to four bytes, in keys and values.
            call(
                "d",
                json!({"\u{1F600}\"k\n": "\u{1F600}\t\u{e9}\\\u{2028}\u{1}x"}),
            ),
        ];
        let mut kept = Calls::default();
        let mut written = Calls::written();
        for c in &calls {
            kept.push(c.clone());
            written.push(c.clone());
        }
        assert_eq!((kept.len(), written.len()), (5, 5));
        let json = |calls: &Calls, i| {
            let mut out = Vec::new();
            calls.write(i, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        for (i, c) in calls.iter().enumerate() {
            assert_eq!(json(&written, i), serde_json::to_string(c).unwrap());
            assert_eq!(json(&kept, i), serde_json::to_string(c).unwrap());
            assert_eq!(written.get(i).as_ref(), Some(c));
        }
        written.truncate(1);
        kept.truncate(1);
        written.extend([calls[2].clone()]);
        kept.extend([calls[2].clone()]);
        assert_eq!(json(&written, 1), serde_json::to_string(&calls[2]).unwrap());
        assert_eq!(written.into_vec(), kept.into_vec());
        assert!(Calls::written().is_empty());
    }

    /// 70 000 raw U+0001: 420 000 bytes of JSON.
    fn control_run() -> String {
        "\u{1}".repeat(70_000)
    }

    #[test]
    fn a_call_whose_json_would_be_far_longer_is_held_as_its_value() {
        let held = call("h", json!({"s": control_run(), "n": [1, 2]}));
        // The same length of text that escapes short, or not at all: written.
        let file = call("f", json!({"s": "line\n".repeat(14_000)}));
        let mut written = Calls::written();
        written.push(call("a", json!({"x": 1})));
        written.push(held.clone());
        written.push(file.clone());
        written.push(call("b", json!({"y": "z"})));
        let Calls::Written {
            chunks,
            entries,
            held: values,
            ..
        } = &written
        else {
            unreachable!()
        };
        let kinds: Vec<bool> = entries.iter().map(|e| e.held).collect();
        assert_eq!(kinds, [false, true, false, false]);
        assert_eq!((chunks.len(), values.len()), (1, 1));
        let all = [
            call("a", json!({"x": 1})),
            held.clone(),
            file,
            call("b", json!({"y": "z"})),
        ];
        let check = |calls: &Calls, expected: &[ToolCall]| {
            assert_eq!(calls.len(), expected.len());
            for (i, c) in expected.iter().enumerate() {
                assert!(
                    calls.get(i).as_ref() == Some(c),
                    "call {i} read back otherwise"
                );
                let mut out = Vec::new();
                calls.write(i, &mut out).unwrap();
                assert!(
                    out == serde_json::to_vec(c).unwrap(),
                    "call {i} written otherwise"
                );
                let (name, arguments, id) = calls.parts(i).unwrap();
                assert_eq!((name, id), (c.name.as_str(), c.id.as_deref()));
                assert!(arguments == serde_json::to_string(&c.arguments).unwrap());
            }
        };
        check(&written, &all);
        // Taken back past the held call, and before it: what is kept reads the same.
        written.truncate(2);
        check(&written, &all[..2]);
        written.push(call("c", json!({})));
        check(
            &written,
            &[all[0].clone(), held.clone(), call("c", json!({}))],
        );
        written.truncate(1);
        written.push(held.clone());
        written.push(held.clone());
        check(&written, &[all[0].clone(), held.clone(), held.clone()]);
        assert!(written.into_vec() == [all[0].clone(), held.clone(), held]);
    }

    #[test]
    fn what_is_held_as_a_value_is_what_its_json_would_make_far_longer() {
        let map = |v: Value| v.as_object().cloned().unwrap();
        // Six bytes of JSON for each byte: held.
        assert!(holds(&map(json!({"s": control_run()}))));
        assert!(holds_string(&control_run()));
        assert!(holds_value(&json!([control_run()])));
        // Quotes and backslashes escape too (two bytes each).
        assert!(holds_string(&"\"\\".repeat(40_000)));
        // A line break every fifth byte (a file): a fifth longer, and under the bound.
        assert!(!holds_string(&"abcd\n".repeat(12_000)));
        // Too little to matter, however it escapes.
        assert!(!holds_string(&"\u{1}".repeat(10_000)));
        // Many small strings: each a node, which costs more than its escapes.
        let items: Vec<Value> = (0..20_000).map(|_| json!("\u{1}\u{1}\u{1}")).collect();
        assert!(!holds_value(&Value::Array(items)));
        // The same read from a text: its control characters against the nodes it may have.
        let text = format!("{{\"s\": \"{}\"}}", control_run());
        assert!(smaller_as_value(&text));
        let many = format!("[{}]", vec!["\"\u{1}\u{1}\u{1}\""; 20_000].join(","));
        assert!(!smaller_as_value(&many));
        assert!(!smaller_as_value(&format!(
            "{{\"s\": \"{}\"}}",
            "abcd\n".repeat(20_000)
        )));
        assert!(!smaller_as_value("{\"s\": \"\u{1}\"}"));
    }

    #[test]
    fn calls_laid_out_from_text_read_back_whatever_their_chunk() {
        let big = format!(r#"{{"t":"{}"}}"#, "y".repeat(OWN_CHUNK));
        let json = format!(r#"{{"id":"i","name":"n","arguments":{big}}}"#);
        let at = json.find(r#"{"t""#).unwrap();
        let parts = |json: &str, name: &str, at: usize, len: usize| Parts {
            span: 0..json.len(),
            id: Some("i".to_owned()),
            name: name.to_owned(),
            arguments: Arguments::At(at..at + len),
        };
        let args = |text: &str| serde_json::from_str::<Map<String, Value>>(text).unwrap();
        let expected = |name: &str, id: Option<&str>, text: &str| ToolCall {
            id: id.map(str::to_owned),
            name: name.to_owned(),
            arguments: args(text),
        };
        let mut written = Calls::written();
        written.push(call("a", json!({"x": 1})));
        // Large: a chunk of its own, laid out in place.
        written.push_text(json.clone(), vec![parts(&json, "n", at, big.len())]);
        // Small calls after it open a chunk.
        written.push(call("c", json!({})));
        let small = r#"{"name":"s","arguments":{"k":[1]}}"#;
        let k = small.find(r#"{"k"#).unwrap();
        written.push_text(small.to_owned(), vec![parts(small, "s", k, 9)]);
        // Arguments alone, large: the arguments first, the name and id after.
        written.push_arguments(None, "m".to_owned(), big.clone());
        written.push_arguments(Some("j".to_owned()), "o".to_owned(), "{}".to_owned());
        let Calls::Written { chunks, .. } = &written else {
            unreachable!()
        };
        assert_eq!(chunks.len(), 5);
        let all = [
            call("a", json!({"x": 1})),
            expected("n", Some("i"), &big),
            call("c", json!({})),
            expected("s", Some("i"), r#"{"k":[1]}"#),
            expected("m", None, &big),
            expected("o", Some("j"), "{}"),
        ];
        for (i, c) in all.iter().enumerate() {
            assert_eq!(written.get(i).as_ref(), Some(c), "{i}");
            let mut out = Vec::new();
            written.write(i, &mut out).unwrap();
            assert_eq!(out, serde_json::to_vec(c).unwrap(), "{i}");
        }
        // Taken back to the large call, then to the first: what is kept reads the same.
        written.truncate(5);
        written.push(call("p", json!({"z": null})));
        assert_eq!(written.get(5), Some(call("p", json!({"z": null}))));
        assert_eq!(written.get(4).as_ref(), Some(&all[4]));
        written.truncate(2);
        written.push(call("q", json!({})));
        assert_eq!(written.get(1).as_ref(), Some(&all[1]));
        assert_eq!(written.get(2), Some(call("q", json!({}))));
        written.truncate(0);
        assert!(written.is_empty());
        written.push(call("r", json!({})));
        assert_eq!(written.into_vec(), [call("r", json!({}))]);
    }
}
