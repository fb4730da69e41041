//! The record of fixes: every fix's kind, offset and JSON pointer, kept in two allocations
//! (one list of entries, one string of all paths) however many fixes there are.

use std::fmt;

use super::RepairKind;

/// One step of the JSON pointer of the value being built. Keys are kept as byte ranges of the
/// input and only turned into text when a fix is recorded.
#[derive(Debug, Clone, Copy)]
pub(super) enum Seg {
    Key { start: usize, end: usize },
    Index(usize),
}

/// The path of the value being built, with the JSON pointer of its first segments rendered
/// and kept: a fix renders only the segments pushed since the last one, so recording many fixes
/// inside one member costs a copy each, not a rendering each.
#[derive(Default)]
pub(super) struct Path {
    segs: Vec<Seg>,
    /// The pointer of the first `ends.len()` segments.
    rendered: String,
    /// Where each rendered segment ends in `rendered`.
    ends: Vec<usize>,
}

impl Path {
    pub(super) fn push(&mut self, seg: Seg) {
        self.segs.push(seg);
    }

    pub(super) fn pop(&mut self) {
        self.segs.pop();
        if self.ends.len() > self.segs.len() {
            self.ends.truncate(self.segs.len());
            self.rendered
                .truncate(self.ends.last().copied().unwrap_or(0));
        }
    }

    /// The JSON pointer of the whole path, keys read from `src`.
    #[inline]
    pub(super) fn pointer(&mut self, src: &str) -> &str {
        if self.ends.len() < self.segs.len() {
            self.render(src);
        }
        &self.rendered
    }

    #[inline(never)]
    fn render(&mut self, src: &str) {
        while self.ends.len() < self.segs.len() {
            write_segment(&mut self.rendered, src, self.segs[self.ends.len()]);
            self.ends.push(self.rendered.len());
        }
    }
}

/// Where the parser's fixes go.
pub(super) trait Log: Sized {
    fn new() -> Self;
    /// Records a fix at `path` (a JSON pointer).
    fn push(&mut self, kind: RepairKind, offset: usize, path: &str);
    /// The path of the last fix recorded.
    fn last_path(&self) -> &str;
    /// Prefixes `/0` to the paths of the first `n` fixes, except those that are about the
    /// top level itself (a wrapper, a stray closer): the document turned out to be the first
    /// of several top-level values.
    fn prefix_first(&mut self, n: usize);
    /// Appends another log's fixes (a double-encoded document's).
    fn append(&mut self, other: Self);
}

/// Counts fixes, and keeps only the last one's path: for callers that need the repaired JSON
/// and how many fixes it took, not the list, so memory stays flat on huge inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Counter {
    /// Fixes recorded.
    pub(crate) fixes: usize,
    /// Of which [`RepairKind::DuplicateKey`]: the one fix valid JSON can need.
    pub(crate) duplicate_keys: usize,
    last: String,
}

impl Log for Counter {
    fn new() -> Self {
        Counter::default()
    }
    fn push(&mut self, kind: RepairKind, _: usize, path: &str) {
        self.fixes += 1;
        self.duplicate_keys += usize::from(kind == RepairKind::DuplicateKey);
        self.last.clear();
        self.last.push_str(path);
    }
    fn last_path(&self) -> &str {
        &self.last
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
/// Consecutive fixes of the same kind at the same path are recorded once, at the first offset
/// (`[1,,,,2]` is one [`RepairKind::ExtraComma`]).
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
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Repairs {
    entries: Vec<Entry>,
    /// Every entry's path, one after another.
    paths: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    kind: RepairKind,
    offset: usize,
    /// Where this entry's path ends in `paths` (it starts where the previous one ends).
    path_end: usize,
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
        let start = match i {
            0 => 0,
            _ => self.entries[i - 1].path_end,
        };
        Some(Repair {
            kind: e.kind,
            offset: e.offset,
            path: &self.paths[start..e.path_end],
        })
    }

    /// The fixes in input order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            repairs: self,
            next: 0,
        }
    }
}

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

    fn push(&mut self, kind: RepairKind, offset: usize, path: &str) {
        self.paths.push_str(path);
        self.entries.push(Entry {
            kind,
            offset,
            path_end: self.paths.len(),
        });
    }

    fn last_path(&self) -> &str {
        match self.entries.len() {
            0 => "",
            1 => &self.paths,
            n => &self.paths[self.entries[n - 2].path_end..],
        }
    }

    fn prefix_first(&mut self, n: usize) {
        let mut paths = String::with_capacity(self.paths.len() + 2 * n);
        let mut start = 0;
        for (i, e) in self.entries.iter_mut().enumerate() {
            let path = &self.paths[start..e.path_end];
            start = e.path_end;
            if i < n && e.kind != RepairKind::Wrapper && e.kind != RepairKind::ExtraCloser {
                paths.push_str("/0");
            }
            paths.push_str(path);
            e.path_end = paths.len();
        }
        self.paths = paths;
    }

    fn append(&mut self, other: Self) {
        let base = self.paths.len();
        self.paths.push_str(&other.paths);
        self.entries
            .extend(other.entries.into_iter().map(|e| Entry {
                path_end: base + e.path_end,
                ..e
            }));
    }
}

/// Appends one segment of a JSON pointer (a key decoded from `src`, `~` and `/` escaped).
fn write_segment(out: &mut String, src: &str, seg: Seg) {
    out.push('/');
    let (start, end) = match seg {
        Seg::Index(i) => return push_decimal(out, i),
        Seg::Key { start, end } => (start, end),
    };
    let raw = src.get(start..end).unwrap_or_default();
    if !raw.bytes().any(|c| matches!(c, b'\\' | b'~' | b'/')) {
        return out.push_str(raw);
    }
    let decoded;
    let key = if raw.contains('\\') {
        decoded = serde_json::from_str::<String>(&format!("\"{raw}\""));
        decoded.as_deref().unwrap_or(raw)
    } else {
        raw
    };
    out.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// Appends `n` in decimal without going through `fmt`.
fn push_decimal(out: &mut String, mut n: usize) {
    if n < 10 {
        return out.push(char::from(b'0' + n as u8));
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    while n > 0 {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.push_str(std::str::from_utf8(&digits[i..]).unwrap_or_default());
}
