//! The record of fixes: every fix's kind, offset and JSON pointer.
//!
//! A fix costs an entry: its kind, its offset and the node of its path. The first fix made
//! inside a value makes that value's node, whose JSON pointer [`Repairs`] writes once, from its
//! parent node's; [`Counter`] only numbers nodes. So the fixes made inside one value share one
//! rendering of its pointer however many there are, and "the same value" is one comparison of
//! two numbers.

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
    entries: Vec<Entry>,
    /// Where each node's pointer is in `paths`.
    spans: Vec<(usize, usize)>,
    /// The nodes' pointers, UTF-8. A node's starts with its parent's: when the parent's is the
    /// last one written, the two share those bytes. Bytes rather than a `String`, so that the
    /// small copies that build it are inlined (2% of the whole parse on the messy benchmark
    /// document); the price is a UTF-8 check of a pointer each time one is read, which costs
    /// less than the copy a reader makes of it.
    paths: Vec<u8>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    kind: RepairKind,
    offset: usize,
    /// The node of the fix's path, or [`ROOT`].
    node: usize,
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

impl Repairs {
    /// How many fixes were recorded.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the input needed no fix.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`-th fix.
    pub fn get(&self, i: usize) -> Option<Repair<'_>> {
        let e = self.entries.get(i)?;
        Some(Repair {
            kind: e.kind,
            offset: e.offset,
            path: self.pointer(e.node),
        })
    }

    /// The JSON pointer of `node`.
    fn pointer(&self, node: usize) -> &str {
        match node {
            ROOT => "",
            node => self
                .spans
                .get(node)
                .and_then(|&(start, end)| self.paths.get(start..end))
                .and_then(|bytes| std::str::from_utf8(bytes).ok())
                .unwrap_or_default(),
        }
    }

    /// The fixes in input order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            repairs: self,
            next: 0,
        }
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
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    repairs: &'a Repairs,
    next: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Repair<'a>;

    fn next(&mut self) -> Option<Repair<'a>> {
        let r = self.repairs.get(self.next)?;
        self.next += 1;
        Some(r)
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
            Some(&(from, to)) if to == start => start = from,
            Some(&(from, to)) => self.paths.extend_from_within(from..to),
            None => {}
        }
        write_segment(&mut self.paths, src, seg);
        self.spans.push((start, self.paths.len()));
        self.spans.len() - 1
    }

    fn push(&mut self, kind: RepairKind, offset: usize, node: usize) {
        self.entries.push(Entry { kind, offset, node });
    }

    fn prefix_first(&mut self, n: usize) {
        let n = n.min(self.entries.len());
        let first = &mut self.entries[..n];
        // A node is made just before the fix that needs it, after its parent: the first
        // value's nodes are those up to the highest one its fixes name.
        let nodes = first
            .iter()
            .filter(|e| e.node != ROOT)
            .map(|e| e.node + 1)
            .max()
            .unwrap_or(0);
        for i in 0..nodes {
            let (from, to) = self.spans[i];
            let start = self.paths.len();
            self.paths.extend_from_slice(b"/0");
            self.paths.extend_from_within(from..to);
            self.spans[i] = (start, self.paths.len());
        }
        let mut zero = None;
        for e in first {
            if e.node == ROOT && e.kind != RepairKind::Wrapper && e.kind != RepairKind::ExtraCloser
            {
                e.node = *zero.get_or_insert_with(|| {
                    self.paths.extend_from_slice(b"/0");
                    self.spans.push((self.paths.len() - 2, self.paths.len()));
                    self.spans.len() - 1
                });
            }
        }
    }

    fn append(&mut self, other: Self) {
        let (base, nodes) = (self.paths.len(), self.spans.len());
        self.paths.extend_from_slice(&other.paths);
        self.spans.extend(
            other
                .spans
                .into_iter()
                .map(|(start, end)| (base + start, base + end)),
        );
        self.entries
            .extend(other.entries.into_iter().map(|e| Entry {
                node: match e.node {
                    ROOT => ROOT,
                    node => nodes + node,
                },
                ..e
            }));
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
