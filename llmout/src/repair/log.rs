//! The record of fixes: every fix's kind, offset and JSON pointer.
//!
//! A fix costs an entry: its kind, its offset and the node of its path. The first fix made
//! inside a value makes that value's node, whose JSON pointer [`Repairs`] writes once, from its
//! parent node's; [`Counter`] only numbers nodes. So the fixes made inside one value share one
//! rendering of its pointer however many there are, and "the same value" is one comparison of
//! two numbers.
//!
//! [`Repairs`] writes each fix as its kind's byte and the distances of its offset and node
//! from the fix before's: three bytes for most fixes, where a struct took 24. A node's place
//! among the pointers takes 8 bytes (16 as two `usize`s). On 100 MB of the messy benchmark
//! records, a fix every 10 bytes, the record took 400 MB as structs and takes 145 MB so.

use std::fmt;

use super::RepairKind;

/// One step of the JSON pointer of the value being built. Keys are kept as byte ranges of the
/// input and only turned into text when a fix needs the value's node.
#[derive(Debug, Clone, Copy)]
pub(super) enum Seg {
    Key { start: usize, end: usize },
    Index(usize),
}

/// The node of the document itself, whose pointer is `""`.
pub(super) const ROOT: usize = usize::MAX;

/// The path of the value being built, and the log's node for each of its first segments: a
/// node is made only when a fix needs it, and forgotten when the parser leaves its value.
#[derive(Default)]
pub(super) struct Path {
    segs: Vec<Seg>,
    /// The node of `segs[..=i]` for each `i < nodes.len()`.
    nodes: Vec<usize>,
}

impl Path {
    pub(super) fn push(&mut self, seg: Seg) {
        self.segs.push(seg);
    }

    pub(super) fn pop(&mut self) {
        self.segs.pop();
        self.nodes.truncate(self.segs.len());
    }

    /// The log's node for the whole path, made (with those of its unmade prefixes) if needed.
    #[inline]
    pub(super) fn node<L: Log>(&mut self, log: &mut L, src: &str) -> usize {
        if self.nodes.len() < self.segs.len() {
            self.make_nodes(log, src);
        }
        self.nodes.last().copied().unwrap_or(ROOT)
    }

    #[inline(never)]
    fn make_nodes<L: Log>(&mut self, log: &mut L, src: &str) {
        while let Some(&seg) = self.segs.get(self.nodes.len()) {
            let parent = self.nodes.last().copied().unwrap_or(ROOT);
            self.nodes.push(log.node(parent, seg, src));
        }
    }
}

/// Where the parser's fixes go.
pub(super) trait Log: Sized {
    fn new() -> Self;
    /// A new node: the path of node `parent` (or [`ROOT`]) followed by `seg` (a key read
    /// from `src`).
    fn node(&mut self, parent: usize, seg: Seg, src: &str) -> usize;
    /// Records a fix at the path of `node` (or [`ROOT`]).
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize);
    /// Prefixes `/0` to the paths of the first `n` fixes, except those at the top level that
    /// are about the top level itself (a wrapper, a stray closer): the document turned out to
    /// be the first of several top-level values.
    fn prefix_first(&mut self, n: usize);
    /// Appends another log's fixes (a double-encoded document's).
    fn append(&mut self, other: Self);
    /// Whether the log keeps where each container is ([`span`](Log::span) is called).
    const SPANS: bool = false;
    /// The container at the path of `node` was read from `start..end` of the input.
    fn span(&mut self, _node: usize, _start: usize, _end: usize) {}
}

/// Where each container was read from, with its JSON pointer (see [`super::container_spans`]).
/// Fixes are kept only to name the nodes.
#[derive(Default)]
pub(super) struct Spans {
    repairs: Repairs,
    found: Vec<(usize, usize, usize)>,
}

impl Spans {
    /// Each container's pointer and byte range, in the order the containers were closed.
    pub(super) fn into_spans(self) -> Vec<(String, std::ops::Range<usize>)> {
        let repairs = self.repairs;
        self.found
            .into_iter()
            .map(|(node, start, end)| (repairs.pointer(node).to_owned(), start..end))
            .collect()
    }
}

impl Log for Spans {
    const SPANS: bool = true;
    fn new() -> Self {
        Spans::default()
    }
    fn node(&mut self, parent: usize, seg: Seg, src: &str) -> usize {
        self.repairs.node(parent, seg, src)
    }
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize) {
        self.repairs.push(kind, offset, node);
    }
    fn prefix_first(&mut self, n: usize) {
        // The containers read so far belong to the first of several top-level values; their
        // pointers no longer hold. Forget them rather than name them wrongly.
        self.found.clear();
        self.repairs.prefix_first(n);
    }
    fn append(&mut self, other: Self) {
        // A double-encoded document's containers are ranges of the decoded string, not of
        // the input: they are not kept.
        self.repairs.append(other.repairs);
    }
    fn span(&mut self, node: usize, start: usize, end: usize) {
        self.found.push((node, start, end));
    }
}

/// Counts fixes and keeps nothing else: for callers that need the repaired JSON and how many
/// fixes it took, not the list, so memory stays flat on huge inputs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counter {
    /// Fixes recorded.
    pub(crate) fixes: usize,
    /// Of which [`RepairKind::DuplicateKey`]: the one fix valid JSON can need.
    pub(crate) duplicate_keys: usize,
    /// Nodes handed out, so that each is told apart from the others.
    nodes: usize,
}

impl Log for Counter {
    fn new() -> Self {
        Counter::default()
    }
    fn node(&mut self, _: usize, _: Seg, _: &str) -> usize {
        self.nodes += 1;
        self.nodes - 1
    }
    fn push(&mut self, kind: RepairKind, _: usize, _: usize) {
        self.fixes += 1;
        self.duplicate_keys += usize::from(kind == RepairKind::DuplicateKey);
    }
    fn prefix_first(&mut self, _: usize) {}
    fn append(&mut self, other: Self) {
        self.fixes += other.fixes;
        self.duplicate_keys += other.duplicate_keys;
    }
}

/// Every fix the lenient parser made, in input order: its kind, its byte offset, and the JSON
/// pointer of the value being built.
///
/// A run of fixes of one kind in one value, with no other fix between them, is recorded once,
/// at the first offset (`[1,,,,2]` is one [`RepairKind::ExtraComma`]; so is `[1 2 3]` one
/// [`RepairKind::MissingComma`]). A key given twice is two values: each one's fixes are kept.
///
/// ```
/// use llmout::repair::{parse, RepairKind, RepairOptions};
/// let parsed = parse("{a: 1, 'b': [2,]}", &RepairOptions::default()).unwrap();
/// assert_eq!(parsed.repairs.len(), 3);
/// let last = parsed.repairs.get(2).unwrap();
/// assert_eq!((last.kind, last.offset, last.path), (RepairKind::TrailingComma, 14, "/b"));
/// let kinds: Vec<RepairKind> = parsed.repairs.iter().map(|r| r.kind).collect();
/// assert_eq!(kinds, [RepairKind::UnquotedKey, RepairKind::QuoteStyle, RepairKind::TrailingComma]);
/// ```
#[derive(Clone, Default)]
pub struct Repairs {
    /// How many fixes `fixes` holds.
    len: usize,
    /// Each fix: its kind's byte ([`KINDS`]), then how far its offset and its node moved from
    /// the fix before's (the first's from offset 0 and node 0), each a zigzag LEB128 number.
    /// Three bytes for most fixes, where a record of each in full takes 24. [`Cursor::step`]
    /// reads one.
    fixes: Vec<u8>,
    /// Where fix `MARK * k` is read from, for each `k`: reading any fix decodes fewer than
    /// [`MARK`] others.
    marks: Vec<Cursor>,
    /// The last fix's offset and node (0 and 0 before the first), which the next fix's moves
    /// are written from.
    last: (usize, usize),
    /// Where each node's pointer is in `paths`.
    spans: NodeSpans,
    /// The nodes' pointers, UTF-8. A node's starts with its parent's: when the parent's is the
    /// last one written, the two share those bytes. Bytes rather than a `String`, so that the
    /// small copies that build it are inlined (2% of the whole parse on the messy benchmark
    /// document); the price is a UTF-8 check of a pointer each time one is read, which costs
    /// less than the copy a reader makes of it.
    paths: Vec<u8>,
}

/// One fix the lenient parser made (a view into [`Repairs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair<'a> {
    /// What was fixed.
    pub kind: RepairKind,
    /// Byte offset in the input where the fix was made.
    pub offset: usize,
    /// JSON pointer of the value being built when the fix was made.
    pub path: &'a str,
}

/// Every `MARK`-th fix's place in [`Repairs::fixes`] is kept.
const MARK: usize = 32;

/// A place in [`Repairs::fixes`], and the offset and node of the fix before it.
#[derive(Debug, Clone, Copy, Default)]
struct Cursor {
    at: usize,
    offset: usize,
    node: usize,
}

impl Cursor {
    /// Reads the fix at this place: its kind, and the cursor at the next one, whose offset
    /// and node are this fix's.
    #[inline]
    fn step(self, fixes: &[u8]) -> (RepairKind, Cursor) {
        let kind = fixes
            .get(self.at)
            .and_then(|&k| KINDS.get(usize::from(k)))
            .copied()
            .unwrap_or(RepairKind::Truncated);
        let (offset, at) = read_delta(fixes, self.at + 1);
        let (node, at) = read_delta(fixes, at);
        let next = Cursor {
            at,
            offset: self.offset.wrapping_add(offset),
            node: self.node.wrapping_add(node),
        };
        (kind, next)
    }
}

/// Every kind, at the index of its byte in [`Repairs::fixes`] (`kind as u8`).
const KINDS: [RepairKind; 32] = {
    use RepairKind::*;
    [
        TrailingComma,
        ExtraComma,
        MissingComma,
        MissingColon,
        Comment,
        QuoteStyle,
        UnquotedKey,
        UnquotedValue,
        Literal,
        NonFinite,
        NumberFormat,
        InvalidEscape,
        ControlCharacter,
        UnescapedQuote,
        Truncated,
        MismatchedCloser,
        ExtraCloser,
        MissingQuote,
        MissingCloser,
        StrayText,
        KeyValueInArray,
        Tuple,
        Set,
        Concatenation,
        EmptyValue,
        SplitArray,
        Ellipsis,
        MissingValue,
        DuplicateKey,
        MultipleValues,
        Wrapper,
        DoubleEncoded,
    ]
};

/// `to - from` (wrapping), zigzag-coded: a move of fewer than 64 either way is under 128.
#[inline]
fn zigzag(from: usize, to: usize) -> usize {
    let d = to.wrapping_sub(from) as isize;
    ((d << 1) ^ (d >> (isize::BITS - 1))) as usize
}

/// Appends `z` as a LEB128 number.
fn write_leb128(out: &mut Vec<u8>, mut z: usize) {
    while z >= 0x80 {
        out.push(z as u8 | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Reads a number [`Repairs::push`] wrote at `at`: the move, to add (wrapping), and where
/// the next number starts.
#[inline]
fn read_delta(fixes: &[u8], mut at: usize) -> (usize, usize) {
    let (mut z, mut shift) = (0usize, 0u32);
    while let Some(&b) = fixes.get(at) {
        at += 1;
        z |= usize::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
        shift += 7;
        if b < 0x80 {
            break;
        }
    }
    let d = ((z >> 1) as isize) ^ -((z & 1) as isize);
    (d as usize, at)
}

/// Each node's byte range in [`Repairs::paths`], 8 bytes a node: a start and a length that fit
/// in 32 bits, else an index into `wide` (paths past 4 GiB).
#[derive(Clone, Default)]
struct NodeSpans {
    narrow: Vec<[u32; 2]>,
    wide: Vec<(usize, usize)>,
}

impl NodeSpans {
    /// Marks a `narrow` entry whose second number indexes `wide`.
    const WIDE: u32 = u32::MAX;

    fn len(&self) -> usize {
        self.narrow.len()
    }

    fn get(&self, node: usize) -> Option<(usize, usize)> {
        match *self.narrow.get(node)? {
            [Self::WIDE, i] => self.wide.get(i as usize).copied(),
            [start, len] => Some((start as usize, start as usize + len as usize)),
        }
    }

    fn encode(&mut self, start: usize, end: usize) -> [u32; 2] {
        match (u32::try_from(start), u32::try_from(end - start)) {
            (Ok(start), Ok(len)) if start != Self::WIDE => [start, len],
            _ => {
                self.wide.push((start, end));
                [Self::WIDE, (self.wide.len() - 1) as u32]
            }
        }
    }

    fn push(&mut self, start: usize, end: usize) {
        let span = self.encode(start, end);
        self.narrow.push(span);
    }

    fn set(&mut self, node: usize, start: usize, end: usize) {
        let span = self.encode(start, end);
        if let Some(slot) = self.narrow.get_mut(node) {
            *slot = span;
        }
    }
}

impl Repairs {
    /// How many fixes were recorded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the input needed no fix.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th fix.
    pub fn get(&self, i: usize) -> Option<Repair<'_>> {
        if i >= self.len {
            return None;
        }
        let mut at = *self.marks.get(i / MARK)?;
        for _ in 0..i % MARK {
            at = at.step(&self.fixes).1;
        }
        let (kind, fix) = at.step(&self.fixes);
        Some(self.repair(kind, fix))
    }

    fn repair(&self, kind: RepairKind, fix: Cursor) -> Repair<'_> {
        Repair {
            kind,
            offset: fix.offset,
            path: self.pointer(fix.node),
        }
    }

    /// The JSON pointer of `node`.
    fn pointer(&self, node: usize) -> &str {
        match node {
            ROOT => "",
            node => self
                .spans
                .get(node)
                .and_then(|(start, end)| self.paths.get(start..end))
                .and_then(|bytes| std::str::from_utf8(bytes).ok())
                .unwrap_or_default(),
        }
    }

    /// The fixes in input order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            repairs: self,
            next: 0,
            at: Cursor::default(),
        }
    }

    /// Each fix's kind, offset and node, in order.
    fn entries(&self) -> impl Iterator<Item = (RepairKind, usize, usize)> + '_ {
        let mut at = Cursor::default();
        (0..self.len).map(move |_| {
            let (kind, fix) = at.step(&self.fixes);
            at = fix;
            (kind, fix.offset, fix.node)
        })
    }

    /// [`Log::push`] for a fix that starts a run of [`MARK`], one of whose numbers takes more
    /// than a byte, or that needs room.
    #[inline(never)]
    fn push_slow(&mut self, kind: RepairKind, offset: usize, node: usize) {
        if self.len.is_multiple_of(MARK) {
            let (offset, node) = self.last;
            self.marks.push(Cursor {
                at: self.fixes.len(),
                offset,
                node,
            });
        }
        self.fixes.push(kind as u8);
        write_leb128(&mut self.fixes, zigzag(self.last.0, offset));
        write_leb128(&mut self.fixes, zigzag(self.last.1, node));
        self.last = (offset, node);
        self.len += 1;
    }

    /// Forgets the fixes (not the nodes), to write them again.
    fn clear_fixes(&mut self) {
        self.len = 0;
        self.fixes.clear();
        self.marks.clear();
        self.last = (0, 0);
    }
}

/// Two records are equal when they hold the same fixes, however their paths are stored.
impl PartialEq for Repairs {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Repairs {}

impl fmt::Debug for Repairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over [`Repairs`].
#[derive(Clone)]
pub struct Iter<'a> {
    repairs: &'a Repairs,
    next: usize,
    /// Where fix `next` is read from.
    at: Cursor,
}

impl fmt::Debug for Iter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter")
            .field("next", &self.next)
            .field("len", &self.repairs.len())
            .finish()
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = Repair<'a>;

    fn next(&mut self) -> Option<Repair<'a>> {
        if self.next >= self.repairs.len {
            return None;
        }
        let (kind, fix) = self.at.step(&self.repairs.fixes);
        self.at = fix;
        self.next += 1;
        Some(self.repairs.repair(kind, fix))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.repairs.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Repairs {
    type Item = Repair<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Log for Repairs {
    fn new() -> Self {
        Repairs::default()
    }

    #[inline]
    fn node(&mut self, parent: usize, seg: Seg, src: &str) -> usize {
        let mut start = self.paths.len();
        match self.spans.get(parent) {
            Some((from, to)) if to == start => start = from,
            Some((from, to)) => self.paths.extend_from_within(from..to),
            None => {}
        }
        write_segment(&mut self.paths, src, seg);
        self.spans.push(start, self.paths.len());
        self.spans.len() - 1
    }

    // A call of its own: inlined into the parser's `repair`, it made that function save and
    // restore registers on every fix, which cost more than the call (callgrind).
    #[inline(never)]
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize) {
        let (a, b) = (zigzag(self.last.0, offset), zigzag(self.last.1, node));
        // Most fixes: three bytes written at once into room already there, and no mark to
        // keep.
        if (a | b) < 0x80
            && !self.len.is_multiple_of(MARK)
            && self.fixes.capacity() - self.fixes.len() >= 3
        {
            self.fixes
                .extend_from_slice(&[kind as u8, a as u8, b as u8]);
            self.last = (offset, node);
            self.len += 1;
        } else {
            self.push_slow(kind, offset, node);
        }
    }

    fn prefix_first(&mut self, n: usize) {
        let mut entries: Vec<(RepairKind, usize, usize)> = self.entries().collect();
        let n = n.min(entries.len());
        let first = &mut entries[..n];
        // A node is made just before the fix that needs it, after its parent: the first
        // value's nodes are those up to the highest one its fixes name.
        let nodes = first
            .iter()
            .filter(|&&(_, _, node)| node != ROOT)
            .map(|&(_, _, node)| node + 1)
            .max()
            .unwrap_or(0);
        for i in 0..nodes {
            let Some((from, to)) = self.spans.get(i) else {
                continue;
            };
            let start = self.paths.len();
            self.paths.extend_from_slice(b"/0");
            self.paths.extend_from_within(from..to);
            self.spans.set(i, start, self.paths.len());
        }
        let mut zero = None;
        for (kind, _, node) in first {
            if *node == ROOT && *kind != RepairKind::Wrapper && *kind != RepairKind::ExtraCloser {
                *node = *zero.get_or_insert_with(|| {
                    self.paths.extend_from_slice(b"/0");
                    self.spans.push(self.paths.len() - 2, self.paths.len());
                    self.spans.len() - 1
                });
            }
        }
        self.clear_fixes();
        for (kind, offset, node) in entries {
            self.push(kind, offset, node);
        }
    }

    fn append(&mut self, other: Self) {
        let (base, nodes) = (self.paths.len(), self.spans.len());
        self.paths.extend_from_slice(&other.paths);
        for node in 0..other.spans.len() {
            if let Some((start, end)) = other.spans.get(node) {
                self.spans.push(base + start, base + end);
            }
        }
        for (kind, offset, node) in other.entries() {
            let node = match node {
                ROOT => ROOT,
                node => nodes + node,
            };
            self.push(kind, offset, node);
        }
    }
}

/// The bytes of a key that its pointer segment cannot copy as they stand: an escape, and
/// the two characters a JSON pointer escapes.
static POINTER_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\\' as usize] = true;
    t[b'~' as usize] = true;
    t[b'/' as usize] = true;
    t
};

/// Appends one segment of a JSON pointer (a key decoded from `src`, `~` and `/` escaped).
#[inline]
pub(super) fn write_segment(out: &mut Vec<u8>, src: &str, seg: Seg) {
    let (start, end) = match seg {
        Seg::Index(i) => return push_index(out, i),
        Seg::Key { start, end } => (start, end),
    };
    // The parser gives key ranges on character boundaries: only the rare key that needs
    // escaping is looked at as text.
    let bytes = src.as_bytes().get(start..end).unwrap_or_default();
    out.push(b'/');
    if !bytes.iter().any(|&c| POINTER_SPECIAL[usize::from(c)]) {
        return out.extend_from_slice(bytes);
    }
    let raw = src.get(start..end).unwrap_or_default();
    let decoded;
    let key = if raw.contains('\\') {
        decoded = serde_json::from_str::<String>(&format!("\"{raw}\""));
        decoded.as_deref().unwrap_or(raw)
    } else {
        raw
    };
    out.extend_from_slice(key.replace('~', "~0").replace('/', "~1").as_bytes());
}

/// Appends `/` and `n` in decimal without going through `fmt`.
fn push_index(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [b'/'; 21];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i - 1..]);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Log, NodeSpans, Repairs, Seg, KINDS, ROOT};
    use crate::repair::RepairKind::{self, *};

    /// The record as a plain list: what [`Repairs`] must read back.
    fn listed(repairs: &Repairs) -> Vec<(RepairKind, usize, String)> {
        repairs
            .iter()
            .map(|r| (r.kind, r.offset, r.path.to_owned()))
            .collect()
    }

    /// Offsets near the edges the encoding must survive: 0, past 32 bits, the top of `usize`.
    fn offset() -> impl Strategy<Value = usize> {
        prop_oneof![
            0usize..200,
            0usize..100_000,
            Just(u32::MAX as usize),
            (u32::MAX as usize)..(u32::MAX as usize + 1000),
            (usize::MAX - 3)..=usize::MAX,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Fixes at any offsets (backwards too, as after a double-encoded document) and any
        /// nodes read back exactly, by `get` and by `iter`, and after `prefix_first` and
        /// `append` as the plain list they stand for.
        #[test]
        fn reads_back_what_was_pushed(
            fixes in proptest::collection::vec((0usize..4, offset(), 0usize..6), 0..200),
            tail in proptest::collection::vec((0usize..4, offset(), 0usize..6), 0..40),
            first in 0usize..250,
        ) {
            const KINDS: [RepairKind; 4] = [TrailingComma, Wrapper, QuoteStyle, ExtraCloser];
            let src = "abcdef";
            let build = |fixes: &[(usize, usize, usize)]| {
                let mut repairs = Repairs::new();
                let nodes: Vec<usize> = (0..5)
                    .map(|i| {
                        let parent = if i % 2 == 1 { i - 1 } else { ROOT };
                        repairs.node(parent, Seg::Key { start: i, end: i + 1 }, src)
                    })
                    .collect();
                let mut expected = Vec::new();
                for &(kind, offset, node) in fixes {
                    let node = nodes.get(node).copied().unwrap_or(ROOT);
                    repairs.push(KINDS[kind], offset, node);
                    expected.push((KINDS[kind], offset, repairs.pointer(node).to_owned()));
                }
                (repairs, expected)
            };
            let (mut repairs, mut expected) = build(&fixes);
            prop_assert_eq!(listed(&repairs), expected.clone());
            for (i, fix) in expected.iter().enumerate() {
                let got = repairs.get(i).unwrap();
                prop_assert_eq!((got.kind, got.offset, got.path), (fix.0, fix.1, fix.2.as_str()));
            }
            prop_assert!(repairs.get(expected.len()).is_none());

            repairs.prefix_first(first);
            // The nodes up to the highest one the first fixes name are the first value's:
            // their pointers gain `/0`, for every fix that names them.
            let named = fixes.iter().take(first).filter(|f| f.2 < 5).map(|f| f.2 + 1).max();
            for (i, (fix, &(_, _, node))) in expected.iter_mut().zip(&fixes).enumerate() {
                if node < named.unwrap_or(0) {
                    fix.2.insert_str(0, "/0");
                } else if node >= 5 && i < first && fix.0 != Wrapper && fix.0 != ExtraCloser {
                    fix.2 = "/0".to_owned();
                }
            }
            prop_assert_eq!(listed(&repairs), expected.clone());

            let (other, more) = build(&tail);
            repairs.append(other);
            expected.extend(more);
            prop_assert_eq!(listed(&repairs), expected.clone());
            for (i, fix) in expected.iter().enumerate() {
                prop_assert_eq!(repairs.get(i).map(|r| r.offset), Some(fix.1));
            }
        }
    }

    /// Each kind is read back from its byte. The match has no wildcard: a new kind does not
    /// compile here until it has its place in `KINDS`.
    #[test]
    fn every_kind_has_its_byte() {
        fn place(kind: RepairKind) -> usize {
            match kind {
                TrailingComma => 0,
                ExtraComma => 1,
                MissingComma => 2,
                MissingColon => 3,
                Comment => 4,
                QuoteStyle => 5,
                UnquotedKey => 6,
                UnquotedValue => 7,
                Literal => 8,
                NonFinite => 9,
                NumberFormat => 10,
                InvalidEscape => 11,
                ControlCharacter => 12,
                UnescapedQuote => 13,
                Truncated => 14,
                MismatchedCloser => 15,
                ExtraCloser => 16,
                MissingQuote => 17,
                MissingCloser => 18,
                StrayText => 19,
                KeyValueInArray => 20,
                Tuple => 21,
                Set => 22,
                Concatenation => 23,
                EmptyValue => 24,
                SplitArray => 25,
                Ellipsis => 26,
                MissingValue => 27,
                DuplicateKey => 28,
                MultipleValues => 29,
                Wrapper => 30,
                DoubleEncoded => 31,
            }
        }
        for (i, &kind) in KINDS.iter().enumerate() {
            assert_eq!((place(kind), kind as usize), (i, i), "{kind:?}");
        }
    }

    /// A node's range past 32 bits, or as long, is kept in full.
    #[test]
    fn wide_spans() {
        let mut spans = NodeSpans::default();
        let far = u32::MAX as usize;
        spans.push(3, 9);
        spans.push(far, far + 2);
        spans.push(far - 1, far - 1);
        spans.push(0, far + 5);
        spans.push(7, 8);
        assert_eq!(
            (0..6).map(|i| spans.get(i)).collect::<Vec<_>>(),
            [
                Some((3, 9)),
                Some((far, far + 2)),
                Some((far - 1, far - 1)),
                Some((0, far + 5)),
                Some((7, 8)),
                None
            ]
        );
        spans.set(4, far + 10, far + 11);
        spans.set(1, 1, 2);
        assert_eq!(spans.get(4), Some((far + 10, far + 11)));
        assert_eq!(spans.get(1), Some((1, 2)));
        assert_eq!(spans.wide.len(), 3);
    }
}
