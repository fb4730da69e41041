//! The record of fixes: every fix's kind, offset and JSON pointer.
//!
//! A fix costs an entry: its kind, its offset and the node of its path. The first fix made
//! inside a value makes that value's node, whose JSON pointer [`Repairs`] writes once, from its
//! parent node's; [`Counter`] only numbers nodes. So the fixes made inside one value share one
//! rendering of its pointer however many there are, and "the same value" is one comparison of
//! two numbers.
//!
//! [`Repairs`] writes each fix as a byte of its kind and of its node's distance from the fix
//! before's, then its offset's distance: two bytes for most fixes, where a struct took 24.
//! A node's place among the pointers takes a byte (`NodeSpans`), where two `usize`s took 16.
//! On 100 MB of the messy benchmark records, a fix every 10 bytes, the record took 400 MB as
//! structs, 145 MB at three bytes a fix and 8 a node, and about 100 MB so; reading a fix's
//! pointer then decodes a few nodes' bytes, which [`Iter`] mostly skips by remembering the
//! nodes it read last.

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

/// A node as a [`Log`] hands it back: its number, and what else the log needs of a parent.
pub(super) trait NodeRef: Copy {
    /// [`ROOT`]'s.
    const ROOT: Self;
    fn number(self) -> usize;
}

impl NodeRef for usize {
    const ROOT: usize = ROOT;
    fn number(self) -> usize {
        self
    }
}

/// A node [`Repairs`] made: its number, and where its pointer is in `Repairs::paths`. The
/// parser's [`Path`] keeps the nodes it is inside, so a new node's parent pointer is found
/// without reading `Repairs::spans`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Made {
    pub(super) node: usize,
    text: (usize, usize),
}

impl NodeRef for Made {
    const ROOT: Made = Made {
        node: ROOT,
        text: (0, 0),
    };
    fn number(self) -> usize {
        self.node
    }
}

/// The path of the value being built, and the log's node for each of its first segments: a
/// node is made only when a fix needs it, and forgotten when the parser leaves its value.
pub(super) struct Path<N> {
    segs: Vec<Seg>,
    /// The node of `segs[..=i]` for each `i < nodes.len()`, and what its pointer costs of
    /// the parser's pointer budget ([`Path::pointer_charge`]).
    nodes: Vec<(N, usize)>,
}

impl<N> Default for Path<N> {
    fn default() -> Self {
        Path {
            segs: Vec::new(),
            nodes: Vec::new(),
        }
    }
}

impl<N: NodeRef> Path<N> {
    /// Whether the value being built is a member's (the path ends with a key).
    pub(super) fn in_member(&self) -> bool {
        matches!(self.segs.last(), Some(Seg::Key { .. }))
    }

    /// Where the path ends with an index: the index, and whether the array is a member's
    /// value (the segment before is a key). `(0, false)` otherwise.
    pub(super) fn item_of_member(&self) -> (usize, bool) {
        match self.segs.as_slice() {
            [.., Seg::Key { .. }, Seg::Index(i)] => (*i, true),
            [.., Seg::Index(i)] => (*i, false),
            _ => (0, false),
        }
    }

    pub(super) fn push(&mut self, seg: Seg) {
        self.segs.push(seg);
    }

    pub(super) fn pop(&mut self) {
        self.segs.pop();
        self.nodes.truncate(self.segs.len());
    }

    /// The log's node for the whole path, made (with those of its unmade prefixes) if needed.
    #[inline]
    pub(super) fn node<L: Log<Node = N>>(&mut self, log: &mut L, src: &str) -> usize {
        if self.nodes.len() < self.segs.len() {
            self.make_nodes(log, src);
        }
        self.nodes.last().map_or(ROOT, |n| n.0.number())
    }

    /// What the pointer of the node [`node`](Self::node) last made or found costs of the
    /// parser's pointer budget: each key on the way, with its `/`, beyond
    /// [`POINTER_PER_LEVEL`](crate::warning::POINTER_PER_LEVEL) bytes (an index is free).
    /// The same for every log, whether it keeps pointers or only counts the fixes, so every
    /// output of the parser fails alike.
    pub(super) fn pointer_charge(&self) -> usize {
        self.nodes.last().map_or(0, |n| n.1)
    }

    #[inline(never)]
    fn make_nodes<L: Log<Node = N>>(&mut self, log: &mut L, src: &str) {
        while let Some(&seg) = self.segs.get(self.nodes.len()) {
            let (parent, charge) = self.nodes.last().copied().unwrap_or((N::ROOT, 0));
            let own = match seg {
                Seg::Key { start, end } => {
                    (end - start + 1).saturating_sub(crate::warning::POINTER_PER_LEVEL)
                }
                Seg::Index(_) => 0,
            };
            self.nodes.push((log.node(parent, seg, src), charge + own));
        }
    }
}

/// Where the parser's fixes go.
pub(super) trait Log: Sized {
    fn new() -> Self;
    /// What the log hands back for a node it made, which the parser's [`Path`] keeps while
    /// it is inside the node's value.
    type Node: NodeRef;
    /// A new node: the path of node `parent` (or [`NodeRef::ROOT`]) followed by `seg` (a key
    /// read from `src`).
    fn node(&mut self, parent: Self::Node, seg: Seg, src: &str) -> Self::Node;
    /// Records a fix at the path of `node` (or [`ROOT`]).
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize);
    /// Records that the integer at `offset`, at the path of `node`, is held rounded by the
    /// value the parser builds ([`Repairs::rounded`]): no fix, and none counted.
    fn rounded(&mut self, _offset: usize, _node: usize) {}
    /// How many integers [`rounded`](Log::rounded) recorded.
    fn rounded_len(&self) -> usize {
        0
    }
    /// Prefixes `/0` to the paths of the first `n` fixes, except those at the top level that
    /// are about the top level itself (a wrapper, a stray closer), and to those of the first
    /// `rounded` integers rounded: the document turned out to be the first of several
    /// top-level values.
    fn prefix_first(&mut self, n: usize, rounded: usize);
    /// Appends another log's fixes (a double-encoded document's).
    fn append(&mut self, other: Self);
    /// Whether the log keeps where each container is ([`span`](Log::span) is called).
    const SPANS: bool = false;
    /// The container at the path of `node` was read from `start..end` of the input.
    fn span(&mut self, _node: usize, _start: usize, _end: usize) {}
}

/// Where each container (and each integer held rounded) was read from, with its JSON pointer
/// (see [`super::container_spans`]).
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
    type Node = Made;
    fn node(&mut self, parent: Made, seg: Seg, src: &str) -> Made {
        self.repairs.node(parent, seg, src)
    }
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize) {
        self.repairs.push(kind, offset, node);
    }
    fn prefix_first(&mut self, n: usize, rounded: usize) {
        // The containers read so far belong to the first of several top-level values; their
        // pointers no longer hold. Forget them rather than name them wrongly.
        self.found.clear();
        self.repairs.prefix_first(n, rounded);
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
    type Node = usize;
    fn node(&mut self, _: usize, _: Seg, _: &str) -> usize {
        self.nodes += 1;
        self.nodes - 1
    }
    fn push(&mut self, kind: RepairKind, _: usize, _: usize) {
        self.fixes += 1;
        self.duplicate_keys += usize::from(kind == RepairKind::DuplicateKey);
    }
    fn prefix_first(&mut self, _: usize, _: usize) {}
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
    /// Each fix: a byte of its kind ([`KIND_BITS`]) and of how far its node moved from the
    /// fix before's when that is at most 3 either way, then how far its offset moved (and its
    /// node, when that did not fit; [`NODE_FOLLOWS`]), each a zigzag LEB128 number; the first
    /// fix's from offset 0 and node 0. Two bytes for most fixes, where a record of each in
    /// full takes 24. [`Cursor::step`] reads one.
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
    /// The integers held rounded ([`Repairs::rounded`]): each one's offset and node, and
    /// how many fixes were recorded before it (to say both in the order they were met).
    /// Few replies have any, so they are kept plainly, apart from the fixes.
    rounded: Vec<(usize, usize, usize)>,
}

/// An integer too large for 64 bits that the value the lenient parser built holds as the
/// nearest `f64`, which loses some of its digits (see [`Repairs::rounded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rounded<'a> {
    /// Byte offset in the input where the integer starts.
    pub offset: usize,
    /// JSON pointer of the integer in the value.
    pub path: &'a str,
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
        let head = fixes.get(self.at).copied().unwrap_or_default();
        let kind = KINDS[usize::from(head & KIND_BITS)];
        let (offset, at) = read_delta(fixes, self.at + 1);
        let (node, at) = match head >> 5 {
            NODE_FOLLOWS => read_delta(fixes, at),
            z => (unzigzag(usize::from(z)), at),
        };
        let next = Cursor {
            at,
            offset: self.offset.wrapping_add(offset),
            node: self.node.wrapping_add(node),
        };
        (kind, next)
    }
}

/// The bits of a fix's first byte that hold its kind (`kind as u8`, an index into [`KINDS`]).
const KIND_BITS: u8 = 0b1_1111;

/// In the three high bits of a fix's first byte: its node's move is not there (0 to 6, the
/// zigzag code of a move of -3 to 3), but written after its offset's.
const NODE_FOLLOWS: u8 = 7;

/// Every kind, at the index of its byte in [`Repairs::fixes`] (`kind as u8`): 32 kinds fill the
/// five bits [`KIND_BITS`] keeps for them.
const KINDS: [RepairKind; KIND_BITS as usize + 1] = {
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

/// The move whose zigzag code is `z` (to add, wrapping).
#[inline]
fn unzigzag(z: usize) -> usize {
    ((z >> 1) as isize ^ -((z & 1) as isize)) as usize
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
    (unzigzag(z), at)
}

/// Each node's byte range in [`Repairs::paths`], about a byte a node.
///
/// A node's pointer is written at the end of `paths` when the node is made: its range ends
/// where the node before's ended plus what it wrote, and starts where that one's ended (its
/// parent's pointer copied, then its segment) or where that one's started (the node before
/// is its parent, whose bytes it extends). Such a node is one byte: [`SpanCursor::SHARES`]
/// and how many bytes it wrote. Any other range (a pointer of 127 bytes or more, those that
/// [`Log::prefix_first`] and [`Log::append`] write) is [`SpanCursor::ESCAPE`], then its
/// start's distance from the node before's end (zigzag) and its length, as LEB128 numbers.
/// Where every `MARK`-th node is read from is kept, so a range is read in fewer than
/// `MARK` steps.
#[derive(Clone, Default)]
struct NodeSpans {
    bytes: Vec<u8>,
    len: usize,
    marks: Vec<SpanCursor>,
    /// The last node's range.
    last: (usize, usize),
}

/// A place in [`NodeSpans::bytes`], and the range of the node before it.
#[derive(Clone, Copy, Default)]
struct SpanCursor {
    at: usize,
    start: usize,
    end: usize,
}

impl SpanCursor {
    /// A node's byte with this bit starts where the node before's starts.
    const SHARES: u8 = 0x80;
    /// The bits of a node's byte that hold how many bytes it wrote, and their value that
    /// says its range follows in full.
    const ESCAPE: u8 = 0x7f;

    /// Reads the node at this place: the cursor at the next one, whose range is this node's.
    #[inline]
    fn step(self, bytes: &[u8]) -> SpanCursor {
        let head = bytes.get(self.at).copied().unwrap_or_default();
        let wrote = head & Self::ESCAPE;
        if wrote == Self::ESCAPE {
            let (from_end, at) = read_delta(bytes, self.at + 1);
            let (len, at) = read_delta(bytes, at);
            let start = self.end.wrapping_add(from_end);
            // (The length was written zigzag-coded too, to share the reader.)
            return SpanCursor {
                at,
                start,
                end: start.wrapping_add(len),
            };
        }
        SpanCursor {
            at: self.at + 1,
            start: if head & Self::SHARES != 0 {
                self.start
            } else {
                self.end
            },
            end: self.end.wrapping_add(usize::from(wrote)),
        }
    }
}

impl NodeSpans {
    fn len(&self) -> usize {
        self.len
    }

    /// Where node `node`'s range is read from.
    fn cursor(&self, node: usize) -> Option<SpanCursor> {
        if node >= self.len {
            return None;
        }
        let mut at = *self.marks.get(node / MARK)?;
        for _ in 0..node % MARK {
            at = at.step(&self.bytes);
        }
        Some(at)
    }

    fn get(&self, node: usize) -> Option<(usize, usize)> {
        if node.wrapping_add(1) == self.len {
            return Some(self.last);
        }
        let next = self.cursor(node)?.step(&self.bytes);
        Some((next.start, next.end))
    }

    /// Every node's range, in order.
    fn ranges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut at = SpanCursor::default();
        (0..self.len).map(move |_| {
            at = at.step(&self.bytes);
            (at.start, at.end)
        })
    }

    #[inline]
    fn push(&mut self, start: usize, end: usize) {
        let (last_start, last_end) = self.last;
        // (Wrapping: an end before the last one's is far from it.)
        let wrote = end.wrapping_sub(last_end);
        let head = match wrote < usize::from(SpanCursor::ESCAPE) {
            true if start == last_end => wrote as u8,
            true if start == last_start => wrote as u8 | SpanCursor::SHARES,
            _ => SpanCursor::ESCAPE,
        };
        if head == SpanCursor::ESCAPE || self.len.is_multiple_of(MARK) {
            self.push_slow(start, end, head);
        } else {
            self.bytes.push(head);
        }
        self.last = (start, end);
        self.len += 1;
    }

    /// [`push`](NodeSpans::push) for a node that starts a run of [`MARK`] or whose range is
    /// written in full.
    #[inline(never)]
    fn push_slow(&mut self, start: usize, end: usize, head: u8) {
        let (last_start, last_end) = self.last;
        if self.len.is_multiple_of(MARK) {
            self.marks.push(SpanCursor {
                at: self.bytes.len(),
                start: last_start,
                end: last_end,
            });
        }
        self.bytes.push(head);
        if head == SpanCursor::ESCAPE {
            write_leb128(&mut self.bytes, zigzag(last_end, start));
            write_leb128(&mut self.bytes, zigzag(0, end.wrapping_sub(start)));
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
        match self.spans.get(node) {
            Some((start, end)) if node != ROOT => self.text(start, end),
            _ => "",
        }
    }

    /// The pointer at `start..end` of `paths`.
    fn text(&self, start: usize, end: usize) -> &str {
        self.paths
            .get(start..end)
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }

    /// The fixes in input order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            repairs: self,
            next: 0,
            at: Cursor::default(),
            recent: [(ROOT, SpanCursor::default()); RECENT],
            latest: 0,
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
        let node_move = zigzag(self.last.1, node);
        match u8::try_from(node_move) {
            Ok(b) if b < NODE_FOLLOWS => {
                self.fixes.push(kind as u8 | b << 5);
                write_leb128(&mut self.fixes, zigzag(self.last.0, offset));
            }
            _ => {
                self.fixes.push(kind as u8 | NODE_FOLLOWS << 5);
                write_leb128(&mut self.fixes, zigzag(self.last.0, offset));
                write_leb128(&mut self.fixes, node_move);
            }
        }
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

    /// The integers too large for 64 bits (above `u64::MAX` or below `i64::MIN`) that the
    /// value built holds as the nearest `f64`, where that loses digits, in input order. They
    /// are no fixes (not in [`len`](Self::len) or [`iter`](Self::iter)): a value of
    /// `serde_json` (or a [`Node`](super::Node)) holds no larger integer, while the JSON text
    /// [`to_string`](super::to_string) writes keeps their digits, and its record has none.
    /// Their pointers share the fixes' budget (see the [module docs](super)), but spending it
    /// fails no parse: past it an integer is named at the top level (`""`), its offset exact.
    ///
    /// ```
    /// use llmout::repair::{parse, to_string, RepairOptions};
    /// let input = "{id: 123456789012345678901, n: 100000000000000000000}";
    /// let parsed = parse(input, &RepairOptions::default()).unwrap();
    /// assert_eq!(parsed.value["id"], 123456789012345680000.0);
    /// // 10^20 is an `f64` exactly: only the first lost digits.
    /// let rounded: Vec<_> = parsed.repairs.rounded().map(|r| (r.offset, r.path)).collect();
    /// assert_eq!(rounded, [(5, "/id")]);
    /// let text = to_string(input, &RepairOptions::default()).unwrap();
    /// assert_eq!(text.json, r#"{"id":123456789012345678901,"n":100000000000000000000}"#);
    /// assert_eq!(text.repairs.rounded().len(), 0);
    /// ```
    pub fn rounded(&self) -> impl ExactSizeIterator<Item = Rounded<'_>> + '_ {
        self.rounded.iter().map(|&(offset, node, _)| Rounded {
            offset,
            path: self.pointer(node),
        })
    }
}

/// A fix, or an integer held rounded, as [`Repairs::said`] gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Said<'a> {
    Fix(Repair<'a>),
    Rounded(Rounded<'a>),
}

impl Repairs {
    /// The fixes and the integers held rounded, in the order the parser met them: what
    /// reading the value item by item says, item by item.
    pub(crate) fn said(&self) -> impl Iterator<Item = Said<'_>> + '_ {
        let mut rounded = self.rounded.iter().peekable();
        let mut fixes = self.iter().enumerate().peekable();
        std::iter::from_fn(move || {
            let next_fix = fixes.peek().map(|&(i, _)| i);
            match rounded.peek() {
                Some(&&(offset, node, at)) if next_fix.is_none_or(|i| at <= i) => {
                    rounded.next();
                    Some(Said::Rounded(Rounded {
                        offset,
                        path: self.pointer(node),
                    }))
                }
                _ => fixes.next().map(|(_, fix)| Said::Fix(fix)),
            }
        })
    }
}

/// Two records are equal when they hold the same fixes and the same integers rounded, however
/// their paths are stored.
impl PartialEq for Repairs {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.iter().eq(other.iter())
            && self.rounded().eq(other.rounded())
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
    /// The nodes whose pointers were read last, each with the place after
    /// it in `NodeSpans::bytes` (which holds its range). The next fix's node is most often
    /// one of them (the value around the last ones) or a little after the last.
    recent: [(usize, SpanCursor); RECENT],
    /// Where in `recent` the last node read is (the others before it, going round).
    latest: usize,
}

/// How many nodes [`Iter`] remembers.
const RECENT: usize = 8;

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
        let path = match self.range(fix.node) {
            Some(at) => self.repairs.text(at.start, at.end),
            None => "",
        };
        Some(Repair {
            kind,
            offset: fix.offset,
            path,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.repairs.len() - self.next;
        (n, Some(n))
    }
}

impl Iter<'_> {
    /// The place after `node` in `NodeSpans::bytes`, which holds its range (`None` for
    /// [`ROOT`]): from the nodes read last, stepping on from the last one when `node` is a
    /// little after it, or else from the mark before it.
    fn range(&mut self, node: usize) -> Option<SpanCursor> {
        let spans = &self.repairs.spans;
        if node >= spans.len {
            return None;
        }
        let (last, after) = self.recent[self.latest];
        if node == last {
            return Some(after);
        }
        let found = if node > last && node - last < MARK && last != ROOT {
            let mut after = after;
            for _ in last..node {
                after = after.step(&spans.bytes);
            }
            after
        } else if let Some(&(_, after)) = self.recent.iter().find(|r| r.0 == node) {
            after
        } else {
            spans.cursor(node)?.step(&spans.bytes)
        };
        self.latest = (self.latest + 1) % RECENT;
        self.recent[self.latest] = (node, found);
        Some(found)
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

    type Node = Made;
    #[inline]
    fn node(&mut self, parent: Made, seg: Seg, src: &str) -> Made {
        let mut start = self.paths.len();
        match parent.text {
            _ if parent.node == ROOT => {}
            (from, to) if to == start => start = from,
            (from, to) => self.paths.extend_from_within(from..to),
        }
        write_segment(&mut self.paths, src, seg);
        let node = self.spans.len();
        self.spans.push(start, self.paths.len());
        Made {
            node,
            text: (start, self.paths.len()),
        }
    }

    // A call of its own: inlined into the parser's `repair`, it made that function save and
    // restore registers on every fix, which cost more than the call (callgrind).
    #[inline(never)]
    fn push(&mut self, kind: RepairKind, offset: usize, node: usize) {
        let (a, b) = (zigzag(self.last.0, offset), zigzag(self.last.1, node));
        // Most fixes: two or three bytes written at once into room already there, and no
        // mark to keep.
        if (a | b) < 0x80
            && !self.len.is_multiple_of(MARK)
            && self.fixes.capacity() - self.fixes.len() >= 3
        {
            if b < usize::from(NODE_FOLLOWS) {
                self.fixes
                    .extend_from_slice(&[kind as u8 | (b as u8) << 5, a as u8]);
            } else {
                self.fixes
                    .extend_from_slice(&[kind as u8 | NODE_FOLLOWS << 5, a as u8, b as u8]);
            }
            self.last = (offset, node);
            self.len += 1;
        } else {
            self.push_slow(kind, offset, node);
        }
    }

    fn prefix_first(&mut self, n: usize, rounded: usize) {
        let mut entries: Vec<(RepairKind, usize, usize)> = self.entries().collect();
        let n = n.min(entries.len());
        let first = &mut entries[..n];
        let rounded = rounded.min(self.rounded.len());
        // A node is made just before the fix (or the integer rounded) that needs it, after
        // its parent: the first value's nodes are those up to the highest one they name.
        let nodes = first
            .iter()
            .map(|&(_, _, node)| node)
            .chain(self.rounded[..rounded].iter().map(|&(_, node, _)| node))
            .filter(|&node| node != ROOT)
            .map(|node| node + 1)
            .max()
            .unwrap_or(0);
        let old = std::mem::take(&mut self.spans);
        for (i, (from, to)) in old.ranges().enumerate() {
            if i < nodes {
                let start = self.paths.len();
                self.paths.extend_from_slice(b"/0");
                self.paths.extend_from_within(from..to);
                self.spans.push(start, self.paths.len());
            } else {
                self.spans.push(from, to);
            }
        }
        let mut zero = None;
        let mut zero_node = |this: &mut Self| {
            *zero.get_or_insert_with(|| {
                this.paths.extend_from_slice(b"/0");
                this.spans.push(this.paths.len() - 2, this.paths.len());
                this.spans.len() - 1
            })
        };
        for (kind, _, node) in first {
            if *node == ROOT && *kind != RepairKind::Wrapper && *kind != RepairKind::ExtraCloser {
                *node = zero_node(self);
            }
        }
        // (An integer at the top level is the first value itself.)
        for i in 0..rounded {
            if self.rounded[i].1 == ROOT {
                self.rounded[i].1 = zero_node(self);
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
        for (start, end) in other.spans.ranges() {
            self.spans.push(base + start, base + end);
        }
        let moved = |node| match node {
            ROOT => ROOT,
            node => nodes + node,
        };
        let before = self.len;
        for (kind, offset, node) in other.entries() {
            self.push(kind, offset, moved(node));
        }
        self.rounded.extend(
            other
                .rounded
                .iter()
                .map(|&(offset, node, at)| (offset, moved(node), before + at)),
        );
    }

    fn rounded(&mut self, offset: usize, node: usize) {
        self.rounded.push((offset, node, self.len));
    }

    fn rounded_len(&self) -> usize {
        self.rounded.len()
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

    use super::{Log, Made, NodeRef, NodeSpans, Repairs, Seg, KINDS, ROOT};
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
            fixes in proptest::collection::vec((0usize..5, offset(), 0usize..6), 0..200),
            tail in proptest::collection::vec((0usize..5, offset(), 0usize..6), 0..40),
            first in 0usize..250,
        ) {
            // The first and the last kind's bytes (every bit of the kind clear, and set) too.
            const KINDS: [RepairKind; 5] =
                [TrailingComma, Wrapper, QuoteStyle, ExtraCloser, DoubleEncoded];
            let src = "abcdef";
            let build = |fixes: &[(usize, usize, usize)]| {
                let mut repairs = Repairs::new();
                let mut nodes: Vec<Made> = Vec::new();
                for i in 0..5 {
                    let parent = if i % 2 == 1 { nodes[i - 1] } else { Made::ROOT };
                    nodes.push(repairs.node(parent, Seg::Key { start: i, end: i + 1 }, src));
                }
                let nodes: Vec<usize> = nodes.iter().map(|m| m.node).collect();
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

            repairs.prefix_first(first, 0);
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
    /// `iter` reads each fix's pointer from the nodes it read last, stepping on from the last
    /// one, or from a mark: over many nodes, with moves forward past a mark and back past
    /// what it remembers, it reads what `get` reads.
    #[test]
    fn iter_reads_pointers_as_get_does() {
        let src = "abcdefghij";
        let mut repairs = Repairs::new();
        // 200 nodes: every tenth a child of the one before, the others of the root.
        let mut nodes: Vec<Made> = Vec::new();
        for i in 0..200 {
            let parent = if i % 10 == 1 {
                nodes[i - 1]
            } else {
                Made::ROOT
            };
            let seg = Seg::Key {
                start: i % 10,
                end: i % 10 + 1,
            };
            nodes.push(repairs.node(parent, seg, src));
        }
        let order = [
            0, 1, 2, 3, 1, 40, 41, 9, 150, 199, 120, 121, 0, 199, 198, 60, 61, 61,
        ];
        for (offset, &n) in order.iter().enumerate() {
            repairs.push(TrailingComma, offset, nodes[n].node);
        }
        let by_iter: Vec<&str> = repairs.iter().map(|r| r.path).collect();
        let by_get: Vec<&str> = (0..order.len())
            .map(|i| repairs.get(i).unwrap().path)
            .collect();
        assert_eq!(by_iter, by_get);
        assert_eq!(&by_iter[..5], ["/a", "/a/b", "/c", "/d", "/a/b"]);
        assert_eq!(&by_iter[5..8], ["/a", "/a/b", "/j"]);
        assert_eq!(by_iter[9], "/j");
        assert_eq!(by_iter[11], "/a/b");
    }

    #[test]
    fn spans_of_any_range() {
        let mut spans = NodeSpans::default();
        let far = u32::MAX as usize;
        let ranges = [
            (0, 2),
            (0, 5),
            (5, 9),
            (3, 9),
            (far, far + 2),
            (far - 1, far - 1),
            (0, far + 5),
            (7, 8),
            (usize::MAX - 1, usize::MAX),
            (usize::MAX - 1, usize::MAX),
        ];
        let more = (0..100).map(|i| (3 * i, 3 * i + 3));
        let ranges: Vec<(usize, usize)> = ranges.into_iter().chain(more).collect();
        for &(start, end) in &ranges {
            spans.push(start, end);
        }
        let got: Vec<_> = (0..=ranges.len()).map(|i| spans.get(i)).collect();
        let expected: Vec<_> = ranges.iter().copied().map(Some).chain([None]).collect();
        assert_eq!(got, expected);
        assert_eq!(spans.ranges().collect::<Vec<_>>(), ranges);
        // The ranges a parser writes take a byte each: a node after the one before, or
        // extending it.
        let mut parsed = NodeSpans::default();
        for (start, end) in [(0, 2), (0, 5), (5, 9), (9, 135), (135, 300)] {
            parsed.push(start, end);
        }
        // The last wrote 165 bytes: escaped, 0 from the end before, and 165 (zigzag 330).
        assert_eq!(parsed.bytes, [2, 0x80 | 3, 4, 126, 0x7f, 0, 0xca, 0x02]);
        assert_eq!(parsed.ranges().last(), Some((135, 300)));
    }
}
