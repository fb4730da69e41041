//! Extraction: text -> candidate spans that may hold the answer, in text order.
//!
//! A reply is prose, markdown and reasoning around (usually) one JSON value. This stage finds
//! every place the value could be, without parsing it:
//!
//! - the whole text (trimmed), outside reasoning blocks;
//! - the body of every markdown fence (```` ``` ````, ```` ```json ````, `~~~`), whose closer
//!   must stand at the start of a line (a fence left open runs to the end: truncation), and
//!   of fences opened and closed on one line of prose;
//! - the body of `<answer>`, `<json>`, `<output>`, `<result>` and `<response>` tags;
//! - every outermost bracket-balanced `{…}` / `[…]` span, found by one scan that skips
//!   brackets inside strings (and inside a value in triple backticks: code), plus the span
//!   from the first unclosed bracket to the end (a reply cut off at max tokens).
//!
//! Reasoning blocks (`<think>…</think>`, `<thinking>`, `<reasoning>`) are removed first; a
//! `</think>` with no opener means everything before it was reasoning (some chat templates put
//! the opener in the prompt), and an opener with no closer means everything after it is. A
//! tag written inside a quoted string within brackets is the string's text
//! ([`visible_segments`]). A block opened inside brackets but outside any string (a model
//! that reasons halfway through its answer: `[1, <think>…</think> 2]`) stays in its
//! candidate, which is then the whole value, and the parser leaves it out where it stands,
//! recording it ([`StrayText`](crate::repair::RepairKind::StrayText)).
//!
//! Everything here is one linear pass (or a constant number of them) over the text, and the
//! number of balanced spans and of one-line fences kept is bounded by [`MAX_SPANS`] each, so
//! the later stages parse at most a constant multiple of the input.
//!
//! ```
//! use llmout::advanced::extract::{candidates, Origin};
//! let found = candidates("Here you go:\n```json\n{\"a\": 1}\n```\nAnything else?");
//! let fence = found.iter().find(|c| c.origin == Origin::Fence).unwrap();
//! assert_eq!(fence.text, "{\"a\": 1}");
//! ```

use std::ops::Range;

/// The most bracket-balanced spans kept per text segment (the longest ones), so a reply made of
/// thousands of `{}` cannot make later stages parse thousands of candidates.
pub const MAX_SPANS: usize = 16;

/// Where a candidate came from. The order is also the preference order for equal ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The whole reply (outside reasoning), trimmed.
    Whole,
    /// The body of an `<answer>`-like tag.
    Tag,
    /// The body of a markdown fence.
    Fence,
    /// An outermost bracket-balanced span.
    Balanced,
    /// From an unclosed bracket to the end of the text: a reply cut off mid-value.
    Truncated,
}

impl Origin {
    /// How the origin reads in a warning ("a markdown fence", ...).
    pub fn describe(self) -> &'static str {
        match self {
            Origin::Whole => "the whole reply",
            Origin::Tag => "an answer tag",
            Origin::Fence => "a markdown fence",
            Origin::Balanced => "the text",
            Origin::Truncated => "an unclosed span at the end of the text",
        }
    }
}

/// One place in the reply that may hold the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<'a> {
    /// The candidate's text (trimmed), a slice of the input.
    pub text: &'a str,
    /// Its byte range in the input.
    pub range: Range<usize>,
    /// Where it came from.
    pub origin: Origin,
}

impl Candidate<'_> {
    /// `true` if this candidate's range contains `other`'s.
    pub fn contains(&self, other: &Candidate<'_>) -> bool {
        self.range.start <= other.range.start && other.range.end <= self.range.end
    }
}

/// Reasoning tags whose content is never the answer.
const REASONING_TAGS: [&str; 3] = ["think", "thinking", "reasoning"];
/// Tags whose content is the answer.
const ANSWER_TAGS: [&str; 5] = ["answer", "json", "output", "result", "response"];

/// Finds every candidate span in `text`, in text order (by start, then longest first), with
/// duplicates (same trimmed range) merged into the best origin.
///
/// ```
/// use llmout::advanced::extract::{candidates, Origin};
/// let c = candidates("<think>maybe {\"a\": 0}</think>\nAnswer: {\"a\": 1}");
/// assert_eq!(c.len(), 2);
/// assert_eq!((c[0].origin, c[0].text), (Origin::Whole, "Answer: {\"a\": 1}"));
/// assert_eq!((c[1].origin, c[1].text), (Origin::Balanced, "{\"a\": 1}"));
/// ```
pub fn candidates(text: &str) -> Vec<Candidate<'_>> {
    candidates_and_unread(text).0
}

/// [`candidates`], and whether a segment held more bracketed spans than are kept (the
/// [`MAX_SPANS`] longest): the reply may then hold JSON values that are no candidate.
pub(crate) fn candidates_and_unread(text: &str) -> (Vec<Candidate<'_>>, bool) {
    let mut out = Vec::new();
    let mut unread = false;
    let (segments, in_json) = segments_and_blocks(text);
    for segment in segments {
        let seg = &text[segment.clone()];
        push_trimmed(&mut out, text, segment.clone(), Origin::Whole);
        let first = out.len();
        fences(seg, segment.start, text, &mut out);
        let fenced = first..out.len();
        answer_tags(seg, segment.start, text, &mut out);
        unread |= balanced_spans(seg, segment.start, text, &in_json, &mut out);
        end_in_fence(&mut out, fenced, text);
    }
    in_order(&mut out);
    (out, unread)
}

/// The segments of `text` outside reasoning blocks, and the blocks within the JSON, which
/// stay in their segment's text (the parser leaves them out where they stand).
fn segments_and_blocks(text: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    let blocks = reasoning_blocks(text);
    let hidden = blocks
        .iter()
        .filter(|b| !b.in_json)
        .map(|b| b.range.clone());
    let in_json = blocks
        .iter()
        .filter(|b| b.in_json)
        .map(|b| b.range.clone())
        .collect();
    (around(text, hidden), in_json)
}

/// Candidates in the order [`candidates`] gives them: by start, the longer first, then by
/// origin; one of each range.
pub(crate) fn in_order(out: &mut Vec<Candidate<'_>>) {
    out.sort_by(|a, b| {
        a.range
            .start
            .cmp(&b.range.start)
            .then(b.range.end.cmp(&a.range.end))
            .then(a.origin.cmp(&b.origin))
    });
    out.dedup_by(|later, earlier| later.range == earlier.range);
}

/// Every outermost bracket-balanced span of `text`'s visible segments, as [`candidates`]
/// finds them but not only the [`MAX_SPANS`] longest: the separate values of a reply that
/// gives many objects one by one (`Item 1: {...}` ... `Item 5000: {...}`), which are all
/// collected where the schema asks for an array. `None` where there are more than one for
/// every 8 bytes (a list of them would outgrow the text: `{}` repeated).
pub(crate) fn all_balanced_spans(text: &str) -> Option<Vec<Candidate<'_>>> {
    let (segments, in_json) = segments_and_blocks(text);
    let mut out = Vec::new();
    for segment in segments {
        let seg = &text[segment.clone()];
        let (spans, _, _) = spans_of(seg, segment.start, &in_json, Some(seg.len() / 8))?;
        for s in spans {
            push_trimmed(
                &mut out,
                text,
                segment.start + s.start..segment.start + s.end,
                Origin::Balanced,
            );
        }
    }
    Some(out)
}

/// Byte ranges of `text` outside reasoning blocks, non-empty after trimming.
///
/// A reasoning tag written inside a quoted string within brackets is that string's text, not
/// a block (`{'prompt': "think in <think> tags"}`): the visible text is scanned up to each
/// reasoning tag for the brackets (and parentheses) open and the string it is in (double
/// quotes, and single quotes that open a key, a value or an argument), which is linear.
/// Prose outside brackets quotes nothing, so its apostrophes do not hide a block. A block
/// within the JSON (inside brackets, in no string) is left out here as any other is: as
/// text it is reasoning. ([`candidates`] keeps it in its candidate, for the parser to leave
/// out where it stands.)
///
/// ```
/// use llmout::advanced::extract::visible_segments;
/// let t = "<think>hmm</think> {\"x\": 1}";
/// let segs = visible_segments(t);
/// assert_eq!(&t[segs[0].clone()], " {\"x\": 1}");
/// // A tag in a string is text.
/// let t = "{'note': \"wrap it in <think> tags\", n: 1}";
/// assert_eq!(visible_segments(t), [0..t.len()]);
/// ```
pub fn visible_segments(text: &str) -> Vec<Range<usize>> {
    around(text, reasoning_blocks(text).iter().map(|b| b.range.clone()))
}

/// A reasoning block: its range (opener to closer, or to the end of the text), and whether it
/// opened inside brackets (`{` or `[`), outside any string: within the JSON, between two of
/// its tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    range: Range<usize>,
    in_json: bool,
}

/// Every reasoning block of `text`, in order (see [`visible_segments`]). A block that opened
/// inside the JSON hides nothing before it or after it.
fn reasoning_blocks(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Option<(usize, &str, bool)> = None;
    let mut i = 0;
    // The visible text read so far, to `scanned`.
    let mut scan = Strings::default();
    let mut scanned = 0;
    for tag in tags(text) {
        if tag.range.start < i {
            continue;
        }
        let Some(name) = REASONING_TAGS
            .iter()
            .find(|n| n.eq_ignore_ascii_case(tag.name))
        else {
            continue;
        };
        if open.is_none() {
            scan.read(&text.as_bytes()[scanned.max(i)..tag.range.start]);
            scanned = tag.range.start;
            if scan.in_string() {
                continue;
            }
        }
        match (open, tag.closing) {
            (None, false) => open = Some((tag.range.start, name, scan.in_brackets())),
            (Some((start, open_name, in_json)), true) if open_name == *name => {
                blocks.push(Block {
                    range: start..tag.range.end,
                    in_json,
                });
                open = None;
                i = tag.range.end;
            }
            // A closer with no opener: everything before it was reasoning.
            (None, true) => {
                blocks.clear();
                blocks.push(Block {
                    range: 0..tag.range.end,
                    in_json: false,
                });
                i = tag.range.end;
                scan = Strings::default();
            }
            _ => {}
        }
    }
    if let Some((start, _, in_json)) = open {
        blocks.push(Block {
            range: start..text.len(),
            in_json,
        });
    }
    blocks
}

/// The ranges of `text` around `hidden` (in order), non-empty after trimming.
fn around(text: &str, hidden: impl Iterator<Item = Range<usize>>) -> Vec<Range<usize>> {
    let mut segments = Vec::new();
    let mut pos = 0;
    for h in hidden {
        if h.start > pos {
            segments.push(pos..h.start);
        }
        pos = pos.max(h.end);
    }
    if pos < text.len() {
        segments.push(pos..text.len());
    }
    segments.retain(|r| !text[r.clone()].trim().is_empty());
    segments
}

/// Where a reasoning block opening at `at` of `b` ends: its opener (`<think>`, `<thinking>`,
/// `<reasoning>`, in any case, with or without attributes) and the text up to its first
/// closer of the same name. `None` when no reasoning opener starts at `at`.
///
/// `closers` is where the search for each name's closer last ended (see [`Closers`]), so a
/// parser asking at many places reads each byte of the text a bounded number of times.
pub(crate) fn reasoning_block_end(b: &[u8], at: usize, closers: &mut Closers) -> Option<BlockEnd> {
    let TagAhead::Open { name, len } = reasoning_tag_ahead(&b[at..]) else {
        return None;
    };
    let from = at + len;
    // (The text is whole: where `reasoning_closer_ahead` would wait, there is no closer.)
    let closer_len = REASONING_TAGS[name].len() + 3;
    let end = match closers.0[name] {
        (searched, found)
            if searched <= from && found.is_none_or(|end| from + closer_len <= end) =>
        {
            found
        }
        _ => {
            let found = reasoning_closer_ahead(b, from, name).ok();
            closers.0[name] = (from, found);
            found
        }
    };
    Some(match end {
        Some(end) => BlockEnd { end, closed: true },
        None => BlockEnd {
            end: b.len(),
            closed: false,
        },
    })
}

/// What text that arrives in chunks holds at a `<` ([`reasoning_tag_ahead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagAhead {
    /// A reasoning block's opener: which name (an index into the names) and its length.
    Open { name: usize, len: usize },
    /// A reasoning block's closer.
    Close { name: usize, len: usize },
    /// No reasoning tag.
    Text,
    /// Too little of it has arrived to tell.
    Unsure,
}

/// What `rest` (starting at a `<`) holds, read as [`visible_segments`] reads tags: a reasoning
/// tag in any case, an opener with or without attributes.
pub(crate) fn reasoning_tag_ahead(rest: &[u8]) -> TagAhead {
    let reasoning = |name: &[u8]| {
        REASONING_TAGS
            .iter()
            .position(|n| n.as_bytes().eq_ignore_ascii_case(name))
    };
    if let Some(tag) = tag_at(rest, 0) {
        return match (reasoning(&rest[tag.name]), tag.closing) {
            (Some(name), false) => TagAhead::Open { name, len: tag.end },
            (Some(name), true) => TagAhead::Close { name, len: tag.end },
            (None, _) => TagAhead::Text,
        };
    }
    // Could the text that follows make it one?
    let closing = rest.get(1) == Some(&b'/');
    let start = 1 + usize::from(closing);
    let name_len = rest
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let name = rest.get(start..start + name_len).unwrap_or_default();
    let after = start + name_len;
    if after == rest.len() {
        let prefix = |n: &&str| {
            n.len() >= name.len() && n.as_bytes()[..name.len()].eq_ignore_ascii_case(name)
        };
        return if REASONING_TAGS.iter().any(prefix) {
            TagAhead::Unsure
        } else {
            TagAhead::Text
        };
    }
    // An opener's attributes, its `>` not arrived yet (`tag_at` looks 200 bytes for it).
    let attributes = rest[after..].iter().all(|&b| b != b'>' && b != b'<');
    let waiting = !closing && rest[after] == b' ' && rest.len() < after + 200;
    if waiting && attributes && reasoning(name).is_some() {
        return TagAhead::Unsure;
    }
    TagAhead::Text
}

/// Where the closer of reasoning tag `name` (an index, as [`TagAhead`] gives it) ends in `b`
/// from `from` on: `Ok(end)`, or `Err(resume)` where the search should go on once more text
/// has arrived (the end, or a `<` that may yet be the closer).
pub(crate) fn reasoning_closer_ahead(b: &[u8], from: usize, name: usize) -> Result<usize, usize> {
    let mut pos = from;
    while let Some(k) = memchr::memchr(b'<', &b[pos.min(b.len())..]) {
        let at = pos + k;
        match reasoning_tag_ahead(&b[at..]) {
            TagAhead::Close { name: n, len } if n == name => return Ok(at + len),
            TagAhead::Unsure => return Err(at),
            _ => pos = at + 1,
        }
    }
    Err(b.len())
}

/// Where a reasoning block ends ([`reasoning_block_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockEnd {
    /// Just past its closer, or the end of the text.
    pub(crate) end: usize,
    /// Whether it has a closer.
    pub(crate) closed: bool,
}

/// For each reasoning tag name, where the last search for its closer began and where the
/// closer it found ends (`None`: none to the end). A search from a later place that the
/// closer still follows has the same answer, so searches that move forward read the text
/// once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Closers([(usize, Option<usize>); REASONING_TAGS.len()]);

impl Default for Closers {
    fn default() -> Self {
        Closers([(usize::MAX, None); REASONING_TAGS.len()])
    }
}

/// Where a scan of text that may be JSON (or a Python call, `f(a='x')`) is: how many
/// brackets and parentheses are open (and how many of them are JSON's brackets), the quote
/// of the string it is in (strings are looked for inside them only), whether the next byte
/// is escaped, and the last byte outside strings that is not white space (a single quote
/// opens a string only after `{`, `[`, `(`, `,`, `:` or `=`, where a key, a value or an
/// argument begins: `it's` is no string).
#[derive(Debug, Clone, Default)]
pub(crate) struct Strings {
    depth: usize,
    brackets: usize,
    quote: Option<u8>,
    escaped: bool,
    last: u8,
    /// Whether the brackets open at some point all closed again.
    emptied: bool,
}

impl Strings {
    /// Whether what was read ends inside a string within brackets.
    pub(crate) fn in_string(&self) -> bool {
        self.quote.is_some()
    }

    /// Whether the brackets open at some point in what was read all closed again.
    pub(crate) fn emptied(&self) -> bool {
        self.emptied
    }

    /// Whether what was read ends inside a `{` or `[` (and no string).
    fn in_brackets(&self) -> bool {
        self.brackets > 0 && self.quote.is_none()
    }

    /// Reads `bytes`, the text that follows what was read before.
    pub(crate) fn read(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.escaped {
                self.escaped = false;
                continue;
            }
            if let Some(q) = self.quote {
                if b == b'\\' {
                    self.escaped = true;
                } else if b == q {
                    self.quote = None;
                    self.last = b;
                }
                continue;
            }
            match b {
                b'{' | b'[' | b'(' => {
                    self.depth = self.depth.saturating_add(1);
                    self.brackets = self.brackets.saturating_add(usize::from(b != b'('));
                }
                b'}' | b']' | b')' => {
                    self.emptied |= self.depth == 1;
                    self.depth = self.depth.saturating_sub(1);
                    self.brackets = self.brackets.saturating_sub(usize::from(b != b')'));
                }
                b'"' if self.depth > 0 => self.quote = Some(b),
                b'\''
                    if self.depth > 0
                        && matches!(self.last, b'{' | b'[' | b'(' | b',' | b':' | b'=') =>
                {
                    self.quote = Some(b);
                }
                _ => {}
            }
            if self.quote.is_none() && !b.is_ascii_whitespace() {
                self.last = b;
            }
        }
    }
}

/// An HTML-like tag found in the text.
struct Tag<'a> {
    name: &'a str,
    closing: bool,
    range: Range<usize>,
}

/// Every `<name>` / `</name>` / `<name attr…>` tag, in order. Linear: each `<` is looked at once
/// and a tag name is at most 32 bytes.
fn tags(text: &str) -> impl Iterator<Item = Tag<'_>> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        while pos < bytes.len() {
            let lt = pos + memchr::memchr(b'<', &bytes[pos..])?;
            pos = lt + 1;
            if let Some(tag) = tag_at(bytes, lt) {
                pos = tag.end;
                return Some(Tag {
                    name: &text[tag.name],
                    closing: tag.closing,
                    range: lt..tag.end,
                });
            }
        }
        None
    })
}

/// A tag's name, whether it closes, and where it ends.
struct TagAt {
    name: Range<usize>,
    closing: bool,
    end: usize,
}

/// The tag starting at `lt` (a `<`), if one does: `<name>`, `</name>` or `<name attr…>`, its
/// name ASCII letters and digits, at most 32 of them. Reads at most a few hundred bytes.
fn tag_at(bytes: &[u8], lt: usize) -> Option<TagAt> {
    let mut j = lt + 1;
    let closing = bytes.get(j) == Some(&b'/');
    if closing {
        j += 1;
    }
    let name_start = j;
    while j < bytes.len() && j - name_start < 32 && bytes[j].is_ascii_alphanumeric() {
        j += 1;
    }
    if j == name_start {
        return None;
    }
    // `<think>` or `<think attr="…">`: find the `>` within a short distance.
    let end = match bytes.get(j) {
        Some(b'>') => j + 1,
        Some(b' ') if !closing => {
            // Attributes hold no `<`: one means this was text (`a <b c</answer>`).
            let limit = (j + 200).min(bytes.len());
            match bytes[j..limit].iter().position(|&b| b == b'>' || b == b'<') {
                Some(k) if bytes[j + k] == b'>' => j + k + 1,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(TagAt {
        name: name_start..j,
        closing,
        end,
    })
}

fn push_trimmed<'a>(
    out: &mut Vec<Candidate<'a>>,
    text: &'a str,
    range: Range<usize>,
    origin: Origin,
) {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.end - (slice.len() - slice.trim_end().len());
    if start < end {
        out.push(Candidate {
            text: &text[start..end],
            range: start..end,
            origin,
        });
    }
}

/// For each of `candidates` (as [`candidates`] gives them), whether it is part of the code in
/// a fence whose opening line names a language other than JSON (```` ```python ````,
/// ```` ```js ````): inside the fence's body, and not the body itself. A dict or an object in
/// a program (`data = {"id": 0}`, `print(data["id"])`) is code that uses a value, not the
/// value; the body of such a fence, taken whole, is a candidate like any fence's. A fence's
/// opening line is read from the whole reply's candidate around it (the segment).
pub(crate) fn in_code(candidates: &[Candidate<'_>]) -> Vec<bool> {
    let mut code_bodies: Vec<Range<usize>> = Vec::new();
    let mut whole: Option<&Candidate<'_>> = None;
    for c in candidates {
        match c.origin {
            Origin::Whole => whole = Some(c),
            Origin::Fence => {
                let Some(w) = whole.filter(|w| w.contains(c) && w.range.start < c.range.start)
                else {
                    continue;
                };
                let before = w.text[..c.range.start - w.range.start].trim_end();
                let opener = before.rsplit('\n').next().unwrap_or(before).trim_start();
                let Some(mark) = opener.chars().next().filter(|m| matches!(m, '`' | '~')) else {
                    continue;
                };
                let info = opener.trim_start_matches(mark).trim();
                if opener.len() - opener.trim_start_matches(mark).len() >= 3 && is_code(info) {
                    code_bodies.push(c.range.clone());
                }
            }
            _ => {}
        }
    }
    // The bodies come in order and apart (fences do not nest): the one that may hold a
    // candidate is the last that starts no later than it.
    candidates
        .iter()
        .map(|c| {
            let k = code_bodies.partition_point(|b| b.start <= c.range.start);
            k.checked_sub(1)
                .map(|k| &code_bodies[k])
                .is_some_and(|b| c.range.end <= b.end && c.range != *b)
        })
        .collect()
}

/// For each of `candidates` (as [`candidates`] gives them), whether the reply sets it aside
/// from its answer: part of a program's code ([`in_code`]), or a value the prose just before
/// it introduces as something else ([`introduced_aside`]: an example, a wrong or invalid
/// value, an earlier draft) or the sentence after it calls so ([`called_aside`]), or inside
/// such a value. The ranking lets any other candidate of
/// the same cost beat one set aside, so an example after the answer does not win as the
/// model's last word. A candidate inside one set aside is set aside too: an enclosing
/// candidate is never set aside where one inside it is not.
pub(crate) fn set_aside(candidates: &[Candidate<'_>]) -> Vec<bool> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut aside = in_code(candidates);
    let mut whole: Option<&Candidate<'_>> = None;
    // The furthest end of a candidate before this one (and apart from it): the prose that
    // introduces a candidate starts no earlier. `ends` holds the ends not yet passed.
    let mut ends: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
    let mut prose_from = 0;
    let mut introduced: Option<Range<usize>> = None;
    for (k, c) in candidates.iter().enumerate() {
        if c.origin == Origin::Whole {
            whole = Some(c);
            ends.clear();
            prose_from = c.range.start;
            continue;
        }
        while ends.peek().is_some_and(|&Reverse(e)| e <= c.range.start) {
            prose_from = prose_from.max(ends.pop().map_or(0, |Reverse(e)| e));
        }
        ends.push(Reverse(c.range.end));
        let inside = |r: &Range<usize>| r.start <= c.range.start && c.range.end <= r.end;
        if introduced.as_ref().is_some_and(inside) {
            aside[k] = true;
            continue;
        }
        let Some(w) = whole.filter(|w| w.contains(c)) else {
            continue;
        };
        let from = prose_from.max(w.range.start) - w.range.start;
        // The prose after it runs to the next candidate apart from it, at most.
        let next = candidates.partition_point(|d| d.range.start < c.range.end);
        let to = candidates
            .get(next)
            .map_or(w.range.end, |d| d.range.start.min(w.range.end))
            - w.range.start;
        let after = &w.text[c.range.end - w.range.start..to];
        if introduced_aside(&w.text[from..c.range.start - w.range.start]) || called_aside(after) {
            aside[k] = true;
            introduced = Some(c.range.clone());
        }
    }
    aside
}

/// How the reply presents a candidate, the better first: the ranking lets a candidate of a
/// better standing beat one of the same cost ([`standing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Standing {
    /// The whole reply, a fence's or an answer tag's body, or a value inside one (or one
    /// that holds one).
    Presented,
    /// A bracketed span in prose: JSON written inside a sentence, as a mention.
    Prose,
    /// Set aside from the answer ([`set_aside`]): code, an example, a wrong value.
    Aside,
}

/// For each of `candidates` (as [`candidates`] gives them), how the reply presents it
/// ([`Standing`]): set aside ([`set_aside`]); in prose, a bracketed span that meets no
/// fence or tag body (lies in none, holds none, overlaps none); or presented. A fenced answer followed by a sentence
/// that quotes another value (`had it been a colleague, {"label": "ham"}`) is the answer,
/// where the model's last word would take the quote. An enclosing candidate never stands
/// worse than one inside it: what holds a fence is presented, what lies inside one set aside
/// is set aside.
pub(crate) fn standing(candidates: &[Candidate<'_>]) -> Vec<Standing> {
    let aside = set_aside(candidates);
    let bodies: Vec<&Range<usize>> = candidates
        .iter()
        .filter(|c| matches!(c.origin, Origin::Fence | Origin::Tag))
        .map(|c| &c.range)
        .collect();
    // `reach[k]`: the furthest end of the bodies `..=k`, which start in order.
    let reach: Vec<usize> = bodies
        .iter()
        .scan(0, |far, b| {
            *far = (*far).max(b.end);
            Some(*far)
        })
        .collect();
    candidates
        .iter()
        .zip(aside)
        .map(|(c, aside)| {
            if aside {
                return Standing::Aside;
            }
            if !matches!(c.origin, Origin::Balanced | Origin::Truncated) {
                return Standing::Presented;
            }
            // A body meets it where one that starts before its end ends after its start.
            let m = bodies.partition_point(|b| b.start < c.range.end);
            if m.checked_sub(1).is_some_and(|m| reach[m] > c.range.start) {
                Standing::Presented
            } else {
                Standing::Prose
            }
        })
        .collect()
}

/// How much prose before a candidate is read for what introduces it: its line, or the line
/// before when its own holds nothing but markup.
const INTRO_LOOK: usize = 240;

/// Whether `before` (the reply's text before a candidate, from the end of the candidate
/// before it) introduces the candidate as something other than the answer. What is read is
/// the last clause before it: on its own line, or, where the candidate starts its line (after
/// a fence's opening line, a bullet, blank lines), the last line of prose before it, after its
/// last sentence end. The clause sets the candidate aside when it names an example (`for
/// example`, `e.g.`, `such as`, `sample`), a value that is wrong (`wrong`, `invalid`,
/// `incorrect`, `not valid`, `malformed`), one to avoid (`instead of`, `rather than`, `do
/// not`, `avoid`), an alternative (`another option`, `could also`, `for comparison`), a
/// template (`template`, `placeholder`) or an earlier one (`earlier`, `previous`, `draft`),
/// and does not also name the answer (`answer`, `final`, `correct`, `fixed`, `actual`): "the
/// final answer, an example of the format" introduces an answer as much as an example.
pub(crate) fn introduced_aside(before: &str) -> bool {
    let mut cut = before.len().saturating_sub(INTRO_LOOK);
    while !before.is_char_boundary(cut) {
        cut += 1;
    }
    let tail = &before[cut..];
    let markup = |line: &str| {
        let t = line.trim();
        t.is_empty()
            || t.starts_with("```")
            || t.starts_with("~~~")
            || t.chars()
                .all(|c| matches!(c, '-' | '*' | '>' | '#' | '`' | ' '))
    };
    let Some(line) = tail.rsplit('\n').take(4).find(|l| !markup(l)) else {
        return false;
    };
    let lower = line
        .to_ascii_lowercase()
        .replace("e.g.", "eg")
        .replace("i.e.", "ie");
    // (A line that ends its sentence, `I fixed an earlier mistake.`, introduces nothing.)
    let clause = lower.rsplit(['.', '!', '?', ';']).next().unwrap_or("");
    names_an_aside(&words_of(clause))
}

/// Whether `after` (the reply's text after a candidate, up to the next one) calls the
/// candidate something other than the answer, in the sentence the candidate is the subject
/// of: ``` `{"id": 8}` is not valid ```, `{...} would be wrong`. The clause must start with
/// the verb (`is`, `was`, `would`, ...) on the candidate's line: prose that goes on about
/// something else (`{...} (not the previous one)`) says nothing of the candidate.
fn called_aside(after: &str) -> bool {
    let mut end = after.len().min(INTRO_LOOK);
    while !after.is_char_boundary(end) {
        end -= 1;
    }
    let clause = after[..end]
        .split(['\n', '.', '!', '?', ';'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let words = words_of(&clause);
    words.first().is_some_and(|w| {
        matches!(
            *w,
            "is" | "was" | "are" | "were" | "would" | "isn't" | "wasn't" | "looks"
        )
    }) && names_an_aside(&words)
}

/// The words of `clause` (ASCII letters, digits, apostrophes).
fn words_of(clause: &str) -> Vec<&str> {
    clause
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether the words of a clause about a value (lowercase) name it an aside (see
/// [`introduced_aside`]) and not the answer.
fn names_an_aside(words: &[&str]) -> bool {
    let pair = |a: &str, b: &[&str]| words.windows(2).any(|w| w[0] == a && b.contains(&w[1]));
    let aside = words.iter().any(|w| {
        matches!(
            *w,
            "example"
                | "examples"
                | "eg"
                | "sample"
                | "wrong"
                | "invalid"
                | "incorrect"
                | "malformed"
                | "bad"
                | "avoid"
                | "don't"
                | "never"
                | "earlier"
                | "previous"
                | "previously"
                | "draft"
                | "template"
                | "placeholder"
                | "placeholders"
                | "comparison"
                | "contrast"
                | "alternative"
                | "alternatively"
                | "hypothetical"
                | "otherwise"
        )
    }) || pair("for", &["instance"])
        || pair("another", &["option", "way", "one"])
        || pair("could", &["also"])
        || pair("can", &["also"])
        || pair("such", &["as"])
        || pair("instead", &["of"])
        || pair("rather", &["than"])
        || pair("do", &["not"])
        || pair("not", &["valid", "correct", "this", "like"]);
    // (`not correct` names no answer.)
    let answer = words.iter().enumerate().any(|(i, w)| {
        matches!(
            *w,
            "answer" | "final" | "correct" | "corrected" | "fixed" | "actual"
        ) && (i == 0 || words[i - 1] != "not")
    });
    aside && !answer
}

/// Whether a fence's info string names a programming language: a first word that is
/// neither JSON's (`json`, `json5`, `jsonc`, `jsonl`, `ndjson`) nor plain text's (`text`,
/// `output`, `markdown`, ...), nor absent.
fn is_code(info: &str) -> bool {
    let Some(word) = info.split_whitespace().next() else {
        return false;
    };
    let word = word.to_ascii_lowercase();
    !matches!(
        word.as_str(),
        "json"
            | "json5"
            | "jsonc"
            | "jsonl"
            | "ndjson"
            | "text"
            | "txt"
            | "plaintext"
            | "plain"
            | "output"
            | "result"
            | "response"
            | "answer"
            | "markdown"
            | "md"
    )
}

/// Markdown fences: an opener line of 3+ backticks or tildes (indented or not) with an
/// optional info string; the closer is a line of at least as many of the same character.
fn fences<'a>(seg: &str, base: usize, text: &'a str, out: &mut Vec<Candidate<'a>>) {
    let mut open: Option<(u8, usize, usize)> = None; // (char, count, body start)
    let mut inline_left = MAX_SPANS;
    let mut line_start = 0;
    while line_start < seg.len() {
        let line_end = seg[line_start..]
            .find('\n')
            .map_or(seg.len(), |k| line_start + k);
        let line = &seg[line_start..line_end];
        // Any indentation: replies nest fences in lists and quotes, and indent them freely.
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let rest = &line[indent..];
        if open.is_none() && !rest.starts_with("```") && inline_left > 0 {
            inline_fences(line, base + line_start, text, out, &mut inline_left);
        }
        {
            if let Some(fc) = rest.bytes().next().filter(|b| *b == b'`' || *b == b'~') {
                let count = rest.bytes().take_while(|b| *b == fc).count();
                if count >= 3 {
                    match open {
                        Some((c, n, body))
                            if c == fc && count >= n && rest[count..].trim().is_empty() =>
                        {
                            push_trimmed(out, text, base + body..base + line_start, Origin::Fence);
                            open = None;
                        }
                        None => {
                            let info = &rest[count..];
                            // A backtick fence's info string cannot contain a backtick.
                            if fc == b'~' || !info.contains('`') {
                                open = Some((fc, count, (line_end + 1).min(seg.len())));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        line_start = line_end + 1;
    }
    if let Some((_, _, body)) = open {
        push_trimmed(out, text, base + body..base + seg.len(), Origin::Fence);
    }
}

/// Fences opened and closed on one line of prose (`see ```json {"a": 1} ``` and`): each pair
/// of backtick runs, the first with its info word, holds a candidate; at most `left` more
/// (a reply has a few, and a run of backticks must not make a candidate per pair).
fn inline_fences<'a>(
    line: &str,
    base: usize,
    text: &'a str,
    out: &mut Vec<Candidate<'a>>,
    left: &mut usize,
) {
    let b = line.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'`', &b[i..]) {
        i += k;
        let n = b[i..].iter().take_while(|&&c| c == b'`').count();
        if n >= 3 {
            runs.push((i, n));
        }
        i += n;
    }
    for pair in runs.chunks_exact(2) {
        if *left == 0 {
            return;
        }
        *left -= 1;
        let [(open, n), (close, _)] = [pair[0], pair[1]];
        let mut body = open + n;
        while body < close && b[body].is_ascii_alphanumeric() {
            body += 1;
        }
        push_trimmed(out, text, base + body..base + close, Origin::Fence);
    }
}

/// `<answer>…</answer>`-like tags (case-insensitive); an unclosed one runs to the end.
fn answer_tags<'a>(seg: &str, base: usize, text: &'a str, out: &mut Vec<Candidate<'a>>) {
    let mut open: Option<(&str, usize)> = None;
    for tag in tags(seg) {
        let Some(name) = ANSWER_TAGS
            .iter()
            .find(|n| n.eq_ignore_ascii_case(tag.name))
        else {
            continue;
        };
        match (open, tag.closing) {
            (None, false) => open = Some((name, tag.range.end)),
            (Some((open_name, body)), true) if open_name == *name => {
                push_trimmed(out, text, base + body..base + tag.range.start, Origin::Tag);
                open = None;
            }
            _ => {}
        }
    }
    if let Some((_, body)) = open {
        push_trimmed(out, text, base + body..base + seg.len(), Origin::Tag);
    }
}

/// Where the span left unclosed (the last of `out`, if any) starts in the body of a fence
/// that closes before the span's end, the span ends with the fence: the model closed the
/// fence, and with it the document (`{"a": "cut` and then a closing fence line is the
/// document `{"a": "cut`, not one whose string holds the fence and the prose after it).
/// The segment's fence bodies are `out[fenced]`, in order.
fn end_in_fence<'a>(out: &mut [Candidate<'a>], fenced: Range<usize>, text: &'a str) {
    let Some((last, _)) = out
        .split_last()
        .filter(|(l, _)| l.origin == Origin::Truncated)
    else {
        return;
    };
    let (at, cut_end) = (last.range.start, last.range.end);
    let fences = &out[fenced];
    let k = fences.partition_point(|f| f.range.start <= at);
    let Some(end) = k
        .checked_sub(1)
        .map(|k| fences[k].range.end)
        .filter(|&end| at < end && end < cut_end)
    else {
        return;
    };
    let Some(last) = out.last_mut() else {
        return;
    };
    last.text = text[at..end].trim_end();
    last.range = at..at + last.text.len();
}

/// Outermost bracket-balanced spans, string-aware inside brackets, plus the span from the
/// outermost unclosed bracket to the end. Keeps the [`MAX_SPANS`] longest.
///
/// Strings are only tracked inside brackets: quotes in prose (`it's`, `"quoted"`) must not
/// hide the JSON that follows. A value in triple backticks (code a model put in a field) is
/// a string up to the same run of backticks: its braces are code, not the JSON's. A closer that does not match the innermost opener closes the
/// nearest matching one (`{"a": [1, 2}`), or is ignored if there is none; both are O(1)
/// amortized, so the scan stays linear.
fn balanced_spans<'a>(
    seg: &str,
    base: usize,
    text: &'a str,
    blocks: &[Range<usize>],
    out: &mut Vec<Candidate<'a>>,
) -> bool {
    let Some((spans, unclosed, dropped)) = spans_of(seg, base, blocks, None) else {
        return false;
    };
    for s in spans {
        push_trimmed(out, text, base + s.start..base + s.end, Origin::Balanced);
    }
    if let Some(start) = unclosed {
        push_trimmed(out, text, base + start..base + seg.len(), Origin::Truncated);
    }
    dropped
}

/// The scan of [`balanced_spans`]: the outermost balanced spans of `seg` (relative to it),
/// the [`MAX_SPANS`] longest, or with `all` every one, up to that many (`None` past it);
/// where the outermost bracket left open starts; and whether spans were let go.
fn spans_of(
    seg: &str,
    base: usize,
    blocks: &[Range<usize>],
    all: Option<usize>,
) -> Option<(Vec<Range<usize>>, Option<usize>, bool)> {
    // The first span let go while pruning that no later span has taken in: spans are
    // disjoint, and a span that closes takes in every one that starts after its opener.
    let mut let_go: Option<usize> = None;
    let bytes = seg.as_bytes();
    // The reasoning blocks within the JSON, from the next one on: skipped, brackets and all.
    let mut blocks = blocks.iter().skip_while(|r| r.start < base).peekable();
    let mut stack = Openers::default();
    let mut open_braces = 0usize;
    let mut open_brackets = 0usize;
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut in_string = false;
    // The string was opened by `\"`: the JSON is escaped once more (`{\"a\": \"b\"}`, as
    // pasted from a string literal), and the string closes at the next `\"` that is not an
    // escaped quote of that level (`\\\"`).
    let mut escaped_string = false;
    // Backtick runs of these lengths (bit n-3) have no closing run left: not looked for again,
    // so the scan stays linear.
    let mut unclosed_runs = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        if in_string {
            // Only a backslash or the closing quote matter inside a string.
            let Some(k) = memchr::memchr2(b'"', b'\\', &bytes[i..]) else {
                break;
            };
            i += k;
            if bytes[i] == b'"' {
                in_string = false;
                i += 1;
            } else if !escaped_string {
                i += 2;
            } else {
                match bytes.get(i + 1) {
                    Some(b'"') => {
                        in_string = false;
                        i += 2;
                    }
                    // `\\`, a backslash of the inner level: it escapes what follows, one
                    // byte or, when that is a backslash too, an escape of the outer level.
                    Some(b'\\') => {
                        i += 2;
                        i += if bytes.get(i) == Some(&b'\\') { 2 } else { 1 };
                    }
                    _ => i += 2,
                }
            }
            continue;
        }
        while i < bytes.len() && !BALANCE_BYTES[bytes[i] as usize] {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else {
            break;
        };
        if b == b'`' && !stack.is_empty() {
            let n = bytes[i..].iter().take_while(|&&c| c == b'`').count();
            if (3..=32).contains(&n) && unclosed_runs & (1 << (n - 3)) == 0 {
                match backtick_close(&bytes[i + n..], n) {
                    Some(end) => {
                        i += n + end;
                        continue;
                    }
                    None => unclosed_runs |= 1 << (n - 3),
                }
            }
            i += n;
            continue;
        }
        if b == b'<' {
            while blocks.next_if(|r| r.start < base + i).is_some() {}
            if let Some(r) = blocks.next_if(|r| r.start == base + i) {
                i = (r.end - base).min(bytes.len());
                continue;
            }
        }
        match b {
            b'"' if !stack.is_empty() => {
                in_string = true;
                escaped_string = i > 0 && bytes[i - 1] == b'\\';
            }
            b'{' | b'[' => {
                if b == b'{' {
                    open_braces += 1;
                } else {
                    open_brackets += 1;
                }
                stack.push(b, i);
            }
            b'}' | b']' => {
                let (want, count) = if b == b'}' {
                    (b'{', open_braces)
                } else {
                    (b'[', open_brackets)
                };
                if count > 0 {
                    while let Some((opener, start)) = stack.pop() {
                        if opener == b'{' {
                            open_braces -= 1;
                        } else {
                            open_brackets -= 1;
                        }
                        if opener == want {
                            // (An opener under more than `Openers::KEPT` others has no span.)
                            let Some(start) = start else { break };
                            // Spans closed earlier and starting after `start` lie inside.
                            while spans.last().is_some_and(|s| s.start > start) {
                                spans.pop();
                            }
                            if let_go.is_some_and(|first| first > start) {
                                let_go = None;
                            }
                            spans.push(start..i + 1);
                            match all {
                                Some(most) if spans.len() > most.max(MAX_SPANS) => return None,
                                Some(_) => {}
                                None if spans.len() >= PRUNE_SPANS => {
                                    let kept = longest(&spans);
                                    let gone = spans.iter().filter(|s| !kept.contains(s));
                                    if let Some(first) = gone.map(|s| s.start).min() {
                                        let_go = Some(let_go.map_or(first, |f| f.min(first)));
                                    }
                                    spans = kept;
                                    spans.sort_by_key(|s| s.start);
                                }
                                None => {}
                            }
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if all.is_none() && spans.len() > MAX_SPANS {
        let kept = longest(&spans);
        let gone = spans.iter().filter(|s| !kept.contains(s));
        if let Some(first) = gone.map(|s| s.start).min() {
            let_go = Some(let_go.map_or(first, |f| f.min(first)));
        }
        spans = kept;
    }
    // Spans inside a bracket left open are in the span from it to the end.
    let unclosed = stack.first();
    if unclosed.is_some_and(|open| let_go.is_some_and(|first| first > open)) {
        let_go = None;
    }
    Some((spans, unclosed, let_go.is_some()))
}

/// The [`MAX_SPANS`] longest of `spans` (the earlier of equally long ones), as
/// [`keep_longest`] keeps them.
fn longest(spans: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut kept = spans.to_vec();
    keep_longest(&mut kept);
    kept
}

/// Spans kept while scanning before the shortest are let go (see [`keep_longest`]): a reply of
/// millions of sibling `{}` in an unclosed bracket holds a few spans at a time, not millions.
const PRUNE_SPANS: usize = 64 * MAX_SPANS;

/// Keeps the [`MAX_SPANS`] longest spans (the earlier of equally long ones).
fn keep_longest(spans: &mut Vec<Range<usize>>) {
    if spans.len() > MAX_SPANS {
        spans.sort_by_key(|s| std::cmp::Reverse(s.len()));
        spans.truncate(MAX_SPANS);
    }
}

/// The brackets open at a point of the scan, innermost last: a bit each for its kind, and the
/// positions of the innermost [`KEPT`](Openers::KEPT) and of the outermost. Memory is then an
/// eighth of a byte per bracket open, where a position each made `{` repeated 100 MB take
/// 1.6 GB. An opener under more than `KEPT` others gets no span when it closes: it holds more
/// nesting than the parser reads anyway (`repair::MAX_DEPTH_CAP`).
#[derive(Default)]
struct Openers {
    /// Bit `k`: whether the `k`th opener from the outermost is `{` (else `[`).
    braces: Vec<u64>,
    len: usize,
    /// Positions of the innermost openers, up to `KEPT` of them.
    inner: std::collections::VecDeque<usize>,
    /// Position of the outermost opener (when `len > 0`).
    outermost: usize,
}

impl Openers {
    const KEPT: usize = 8 * crate::repair::MAX_DEPTH_CAP;

    fn push(&mut self, opener: u8, at: usize) {
        if self.len == 0 {
            self.outermost = at;
        }
        let (word, bit) = (self.len / 64, self.len % 64);
        if word == self.braces.len() {
            self.braces.push(0);
        }
        if opener == b'{' {
            self.braces[word] |= 1 << bit;
        } else {
            self.braces[word] &= !(1 << bit);
        }
        self.len += 1;
        if self.inner.len() == Self::KEPT {
            self.inner.pop_front();
        }
        self.inner.push_back(at);
    }

    /// The innermost opener, and its position unless it is under more than `KEPT` others.
    fn pop(&mut self) -> Option<(u8, Option<usize>)> {
        self.len = self.len.checked_sub(1)?;
        let brace = self.braces[self.len / 64] & (1 << (self.len % 64)) != 0;
        Some((if brace { b'{' } else { b'[' }, self.inner.pop_back()))
    }

    fn first(&self) -> Option<usize> {
        (self.len > 0).then_some(self.outermost)
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The bytes [`balanced_spans`] stops at outside strings: brackets, quotes, backticks and the
/// `<` of a reasoning block.
const BALANCE_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    let special = b"{}[]\"`<";
    while k < special.len() {
        table[special[k] as usize] = true;
        k += 1;
    }
    table
};

/// Where the run of exactly `n` backticks that closes a block ends in `rest`, if there is one.
fn backtick_close(rest: &[u8], n: usize) -> Option<usize> {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'`', &rest[i..]) {
        i += k;
        let run = rest[i..].iter().take_while(|&&c| c == b'`').count();
        if run == n {
            return Some(i + run);
        }
        i += run;
    }
    None
}

/// `Key: value` lines, as models write when they ignore a request for JSON:
/// `**Title:** Fix login`, `- Status: pass`, `Score: 8`. Keys are one to five words; values
/// are kept as text (recovery converts them). `None` if no line has that shape.
///
/// ```
/// let pairs = llmout::advanced::extract::key_value_lines("Here you go.\n**Title:** Fix login\n- Score: 8\n");
/// assert_eq!(pairs.unwrap(), vec![("Title", "Fix login"), ("Score", "8")]);
/// ```
pub fn key_value_lines(text: &str) -> Option<Vec<(&str, &str)>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut l = line.trim();
        for bullet in ["- ", "* ", "+ ", "• "] {
            if let Some(rest) = l.strip_prefix(bullet) {
                l = rest.trim_start();
            }
        }
        let Some(colon) = l.find(':') else { continue };
        // `Key: value`, `**Key:** value` — but not `http://…`.
        let after = &l[colon + 1..];
        if !(after.is_empty() || after.starts_with([' ', '\t', '*', '_'])) {
            continue;
        }
        let key = l[..colon].trim().trim_matches(['*', '_', '`']).trim();
        let value = l[colon + 1..]
            .trim()
            .trim_start_matches(['*', '_'])
            .trim_end_matches(['*', '_'])
            .trim();
        let words = key.split_whitespace().count();
        let key_ok = (1..=5).contains(&words)
            && key.len() <= 40
            && key
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'));
        if key_ok && !value.is_empty() {
            out.push((key, value));
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_values() {
        let t = "Summary\n\n**Title**: Fix it\n__Status:__ needs review\nnot a pair\nhttp://x: y\n";
        assert_eq!(
            key_value_lines(t).unwrap(),
            vec![("Title", "Fix it"), ("Status", "needs review")]
        );
        assert_eq!(key_value_lines("no pairs here"), None);
        assert_eq!(key_value_lines("A very long key with many words: x"), None);
    }

    fn list(text: &str) -> Vec<(Origin, &str)> {
        candidates(text)
            .into_iter()
            .map(|c| (c.origin, c.text))
            .collect()
    }

    #[test]
    fn whole_json_is_one_candidate() {
        assert_eq!(list(" {\"a\": 1} \n"), vec![(Origin::Whole, "{\"a\": 1}")]);
    }

    #[test]
    fn json_fence_and_span_inside_it() {
        let t = "Here's the commit message:\n```json\n{\"title\": \"x\"}\n```\nThis enables it.";
        assert_eq!(
            list(t),
            vec![(Origin::Whole, t), (Origin::Fence, "{\"title\": \"x\"}"),]
        );
    }

    #[test]
    fn bare_and_tilde_fences() {
        assert_eq!(
            list("```\n[1]\n```"),
            vec![(Origin::Whole, "```\n[1]\n```"), (Origin::Fence, "[1]")]
        );
        assert_eq!(
            list("~~~json\n{\"b\": 2}\n~~~"),
            vec![
                (Origin::Whole, "~~~json\n{\"b\": 2}\n~~~"),
                (Origin::Fence, "{\"b\": 2}")
            ]
        );
    }

    #[test]
    fn fence_closer_only_at_line_start() {
        // The ``` inside the string is not a closer; the one on its own line is.
        let t = "```json\n{\"code\": \"use ``` here\"}\n```";
        assert_eq!(list(t)[1], (Origin::Fence, "{\"code\": \"use ``` here\"}"));
    }

    #[test]
    fn text_after_a_fence_is_not_eaten() {
        // The seed's regex fence stripper loses the text around the fence; here the fence body
        // and the later JSON are separate candidates.
        let t = "```json\n{\"a\": 1}\n```\nand then {\"b\": 2}";
        let l = list(t);
        assert!(l.contains(&(Origin::Fence, "{\"a\": 1}")));
        assert!(l.contains(&(Origin::Balanced, "{\"b\": 2}")));
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        assert_eq!(list("```json\n{\"a\": 1")[1], (Origin::Fence, "{\"a\": 1"));
    }

    #[test]
    fn braces_in_strings_do_not_break_spans() {
        let t = "Result: {\"msg\": \"use } and { freely\", \"n\": [1, 2]} done";
        assert_eq!(
            list(t)[1],
            (
                Origin::Balanced,
                "{\"msg\": \"use } and { freely\", \"n\": [1, 2]}"
            )
        );
    }

    #[test]
    fn braces_in_a_code_block_value_do_not_break_spans() {
        let t = "Here:\n{\"code\": ```\nif (a) { b(); }}\n```, \"lang\": \"js\"}\nDone.";
        assert_eq!(
            list(t)[1],
            (
                Origin::Balanced,
                "{\"code\": ```\nif (a) { b(); }}\n```, \"lang\": \"js\"}"
            )
        );
        // A run of backticks with no closing run is no string: braces after it still count,
        // and each length is looked for once (see `adversarial_inputs_are_linear_and_total`).
        let t = "x {\"a\": ```` 1} and ```";
        assert_eq!(list(t)[1], (Origin::Balanced, "{\"a\": ```` 1}"));
    }

    #[test]
    fn quotes_in_prose_do_not_hide_json() {
        let t = "It's \"quoted\" prose: {\"a\": \"b\"}";
        assert_eq!(list(t)[1], (Origin::Balanced, "{\"a\": \"b\"}"));
    }

    #[test]
    fn unclosed_prose_brace_does_not_hide_json() {
        let t = "smiley :-{ then {\"a\": 1} end";
        let l = list(t);
        assert!(l.contains(&(Origin::Balanced, "{\"a\": 1}")));
        assert!(l.contains(&(Origin::Truncated, "{ then {\"a\": 1} end")));
    }

    #[test]
    fn several_spans_in_prose() {
        let t = "Example: {\"a\": 0}. Answer: {\"a\": 1}";
        let l = list(t);
        assert_eq!(
            l[1..],
            [
                (Origin::Balanced, "{\"a\": 0}"),
                (Origin::Balanced, "{\"a\": 1}")
            ]
        );
    }

    #[test]
    fn truncated_reply() {
        let t = "Sure: {\"a\": [1, 2, {\"b\": 3}";
        let l = list(t);
        assert!(l.contains(&(Origin::Truncated, "{\"a\": [1, 2, {\"b\": 3}")));
        assert!(l.contains(&(Origin::Balanced, "{\"b\": 3}")));
    }

    #[test]
    fn a_document_left_open_in_a_fence_ends_with_the_fence() {
        // The fence closes after a string left open: the document ends there, one
        // candidate with the fence's body, not one that runs on over the fence and prose.
        let t = "So:\n```json\n{\"a\": [\"x\", \"y\n```\nThat is all.";
        assert_eq!(list(t)[1..], [(Origin::Fence, "{\"a\": [\"x\", \"y")]);
        // Left open past a fence it did not start in, the span runs to the end as before.
        let t = "Here: {\"a\": 1,\n```\nb\n```\n";
        let l = list(t);
        assert!(l.contains(&(Origin::Truncated, "{\"a\": 1,\n```\nb\n```")));
    }

    #[test]
    fn mismatched_closer() {
        let t = "x {\"a\": [1, 2} y";
        assert_eq!(list(t)[1], (Origin::Balanced, "{\"a\": [1, 2}"));
    }

    #[test]
    fn think_blocks_removed() {
        assert_eq!(
            list("<think>{\"a\": 0}</think>{\"a\": 1}"),
            vec![(Origin::Whole, "{\"a\": 1}")]
        );
        // Dangling closer: everything before it was reasoning.
        assert_eq!(
            list("I think {\"a\": 0} is wrong.</think>\n{\"a\": 1}"),
            vec![(Origin::Whole, "{\"a\": 1}")]
        );
        // Unclosed opener: everything after it is reasoning.
        assert_eq!(list("<THINKING>{\"a\": 0}"), vec![]);
        // Several blocks.
        assert_eq!(
            list("<think>a</think>{\"a\": 1}<reasoning>b</reasoning>"),
            vec![(Origin::Whole, "{\"a\": 1}")]
        );
    }

    #[test]
    #[allow(clippy::single_range_in_vec_init)] // (one range: the segments expected)
    fn a_reasoning_tag_in_a_string_is_text() {
        let whole = |t: &str| assert_eq!(visible_segments(t), [0..t.len()], "{t}");
        // Opener, closer and a whole block, in double and single quotes, in keys and values.
        whole("{'prompt': \"use <think> tags\", b: 1}");
        whole("{a: 'end with </think>', b: [1]}");
        whole("[{\"<reasoning>\": \"x</reasoning>\"}]");
        whole("{\"a\": \"say \\\"<thinking>\\\" first\"}");
        whole("{a: 'it''s', b: \"<think>\"}");
        // The reasoning after such a string is still reasoning.
        let t = "{a: \"<think>\"} <think>{\"a\": 0}</think>";
        assert_eq!(visible_segments(t), [0..15]);
        // Outside brackets, quotes and apostrophes protect nothing: the block is one.
        let t = "I'm on it \"<think>x</think>\" {\"a\": 1}";
        assert_eq!(visible_segments(t), [0..11, 27..t.len()]);
        // A single quote that opens no key or value is an apostrophe: the block is one.
        let t = "[it's <think>x</think> 1]";
        assert_eq!(visible_segments(t), [0..6, 22..t.len()]);
        // Inside brackets but in no string: a block, as before.
        let t = "{\"a\": <think>x</think> 1}";
        assert_eq!(visible_segments(t), [0..6, 22..t.len()]);
        // A closer with no opener, in a string: text; out of one, the end of the reasoning.
        let t = "Plan: emit [\"</think>\"].</think>\n{\"a\": 1}";
        assert_eq!(list(t), vec![(Origin::Whole, "{\"a\": 1}")]);
        // A Python call's arguments, in either quote.
        whole("[write(path='a.md', text='Use <think> tags')]");
        whole("write(text=\"a <think>b</think> c\")");
        // Parentheses in prose, closed, protect nothing after them.
        let t = "(as asked) \"<think>x</think>\" [1]";
        assert_eq!(visible_segments(t), [0..12, 28..t.len()]);
    }

    #[test]
    fn a_reasoning_block_inside_the_json_stays_in_its_candidate() {
        // The parser leaves it out where it stands; the JSON around it is one candidate, and
        // the brackets in it are no span.
        let t = "Sure: [1, <think>a ] or {b</think> 2] done";
        assert_eq!(
            list(t),
            vec![
                (Origin::Whole, t),
                (Origin::Balanced, "[1, <think>a ] or {b</think> 2]")
            ]
        );
        // As text, it is still reasoning.
        assert_eq!(visible_segments(t), [0..10, 34..t.len()]);
        // Never closed: the rest of the reply is in it (the span cut off is the whole).
        let t = "{\"a\": 1, <think>{\"b\": 2}";
        assert_eq!(list(t), vec![(Origin::Whole, t)]);
        // Before the JSON, and after it, a block is left out of the text.
        let t = "<think>[</think>{\"a\": 1} <think>]</think>";
        assert_eq!(list(t), vec![(Origin::Whole, "{\"a\": 1}")]);
    }

    #[test]
    fn reasoning_tags_ahead_in_text_that_arrives_in_parts() {
        use TagAhead::*;
        let ahead = |t: &str| reasoning_tag_ahead(t.as_bytes());
        assert_eq!(ahead("<think>x"), Open { name: 0, len: 7 });
        assert_eq!(ahead("<Reasoning a=\"1\">"), Open { name: 2, len: 17 });
        assert_eq!(ahead("</THINKING>"), Close { name: 1, len: 11 });
        for unsure in ["<", "</", "<thi", "</reason", "<think", "<think a=\"1"] {
            assert_eq!(ahead(unsure), Unsure, "{unsure}");
        }
        for text in [
            "<b>",
            "<thinker>",
            "<x",
            "<think/>",
            "< think>",
            "<think a<",
        ] {
            assert_eq!(ahead(text), Text, "{text}");
        }
        // The closer of the block's own name, wherever the text now ends.
        let t = b"a </reasoning> <think b</think> c";
        assert_eq!(reasoning_closer_ahead(t, 0, 0), Ok(31));
        assert_eq!(reasoning_closer_ahead(&t[..26], 0, 0), Err(23));
        assert_eq!(reasoning_closer_ahead(&t[..20], 0, 0), Err(15));
        assert_eq!(reasoning_closer_ahead(&t[..14], 0, 0), Err(14));
    }

    #[test]
    fn answer_tags() {
        let t = "<answer>\n{\"a\": 1}\n</answer>";
        assert_eq!(list(t)[1], (Origin::Tag, "{\"a\": 1}"));
    }

    #[test]
    fn nothing_in_empty_or_blank_text() {
        assert_eq!(list(""), vec![]);
        assert_eq!(list(" \n\t "), vec![]);
    }

    #[test]
    fn many_spans_are_capped() {
        let t = "{}".repeat(10_000);
        let c = candidates(&t);
        assert_eq!(
            c.iter().filter(|c| c.origin == Origin::Balanced).count(),
            MAX_SPANS
        );
    }

    /// Sibling spans in a bracket that never closes: the longest are kept as they come (the
    /// earliest of equally long ones), the same as keeping them all and choosing at the end.
    #[test]
    fn many_spans_in_an_unclosed_bracket_keep_the_longest() {
        let mut t = String::from("[");
        for i in 0..5_000 {
            // Every 500th is longer.
            let pad = if i % 500 == 7 { "  " } else { "" };
            t.push_str(&format!("{{{pad}}}, "));
        }
        // (The truncated candidate, from the `[` to the end, is the whole reply.)
        let mut got: Vec<(Origin, &str)> = list(&t)
            .into_iter()
            .filter(|(o, _)| *o != Origin::Whole)
            .collect();
        got.sort_by_key(|(o, s)| (*o, std::cmp::Reverse(s.len())));
        let mut expected = vec![(Origin::Balanced, "{  }"); 10];
        expected.extend(vec![(Origin::Balanced, "{}"); MAX_SPANS - 10]);
        assert_eq!(got, expected);
        // The `{}` kept are the first six.
        let plain: Vec<usize> = candidates(&t)
            .iter()
            .filter(|c| c.text == "{}")
            .map(|c| c.range.start)
            .collect();
        assert_eq!(plain, [1, 5, 9, 13, 17, 21]);
    }

    /// Brackets nested deeper than the parser reads: the innermost spans are found, and the
    /// outermost unclosed bracket starts the truncated candidate.
    #[test]
    fn deep_nesting_keeps_the_innermost_spans() {
        let depth = 3 * Openers::KEPT;
        let t = format!(
            "x {}{{\"a\": [1]}}{}",
            "[".repeat(depth),
            "]".repeat(depth - 1)
        );
        let c = candidates(&t);
        let truncated: Vec<usize> = c
            .iter()
            .filter(|c| c.origin == Origin::Truncated)
            .map(|c| c.range.start)
            .collect();
        assert_eq!(truncated, [2]);
        // The outermost span found is the outermost of the innermost `KEPT` openers (the
        // `{` and the `[` in it among them): the brackets around `{"a": [1]}` closed so far.
        let outer = c
            .iter()
            .filter(|c| c.origin == Origin::Balanced)
            .map(|c| c.range.clone())
            .max_by_key(|r| r.len())
            .unwrap();
        let brackets = Openers::KEPT - 2;
        assert_eq!(outer, 2 + depth - brackets..2 + depth + 10 + brackets);
    }

    #[test]
    fn adversarial_inputs_are_linear_and_total() {
        let n = 1_000_000;
        for s in [
            "{".repeat(n),
            "[".repeat(n),
            "\"".repeat(n),
            "}".repeat(n),
            "[}".repeat(n / 2),
            "```\n".repeat(n / 4),
            "{```".repeat(n / 4),
            format!("[{}", "````x```y``".repeat(n / 11)),
            "<think>".repeat(n / 7),
            "</think>".repeat(n / 8),
        ] {
            let c = candidates(&s);
            assert!(c.len() <= 3 + MAX_SPANS, "{} candidates", c.len());
        }
        // Non-ASCII text around brackets never splits a character.
        let c = candidates("é{\"ü\": \"ß\"}ñ");
        assert_eq!(c[1].text, "{\"ü\": \"ß\"}");
    }

    /// Whether extraction let bracketed spans go that no candidate holds: more than
    /// [`MAX_SPANS`] separate ones in a segment, however many were pruned while it scanned;
    /// not spans inside another that closes later, or inside a bracket left open (the span
    /// cut off at the end holds them). Where it did, every one is listed on request.
    #[test]
    fn spans_let_go_are_said_and_can_be_listed() {
        let unread = |t: &str| candidates_and_unread(t).1;
        let items: String = (0..2_000).map(|i| format!("{{\"n\": {i}}}, ")).collect();
        assert!(!unread(&format!("{{\"rows\": [{items}]}}")));
        assert!(!unread(&format!("Rows: [{items}")));
        assert!(!unread(&"Item: {\"n\": 1}\n".repeat(MAX_SPANS)));
        let prose = "Item: {\"n\": 1}\n".repeat(MAX_SPANS + 1);
        assert!(unread(&prose));
        assert!(unread(&format!("{items} and {{\"tail\": 1}}")));
        // Every one, in order, where they are not more than one every 8 bytes.
        let all = all_balanced_spans(&prose).unwrap();
        assert_eq!(all.len(), MAX_SPANS + 1);
        assert!(all.iter().all(|c| c.text == "{\"n\": 1}"));
        assert!(all.windows(2).all(|w| w[0].range.end < w[1].range.start));
        assert_eq!(all_balanced_spans(&"{}".repeat(100)), None);
    }

    #[test]
    fn prose_that_introduces_an_example_sets_it_aside() {
        // The clause just before the value, on its line or the line of prose before it.
        for before in [
            "For example, ",
            "a wrong reply would be ",
            "e.g. ",
            "Never write `",
            "Here is an invalid one:\n```json\n",
            "An example of the output: ",
            "Another option: ",
            "You could also write ",
            "Do NOT send this:\n\n",
            "Instead of ",
            "My earlier draft was\n- ",
            "It is not valid: ",
        ] {
            assert!(introduced_aside(before), "{before:?}");
        }
        for before in [
            "",
            "Answer: ",
            "Here is the JSON:\n```json\n",
            // The answer named beside the example, a cue in a sentence already ended, or
            // one line further back than the value's line and the one before it.
            "The final answer, in the example's form: ",
            "The correct example is ",
            "I fixed an earlier mistake.\n```json\n",
            "That was wrong. The reply: ",
            "For example\nthe list\n\n",
        ] {
            assert!(!introduced_aside(before), "{before:?}");
        }
        // Only the last bytes before the value are read.
        let far = format!("For example {}then ", "x".repeat(INTRO_LOOK));
        assert!(!introduced_aside(&far));
        let wide = format!("{}For example ", "\u{e9}".repeat(INTRO_LOOK));
        assert!(introduced_aside(&wide));
        // After it, only a sentence the value is the subject of.
        for after in [
            "` is not valid here.",
            " would be wrong",
            " was my earlier draft",
        ] {
            assert!(called_aside(after), "{after:?}");
        }
        for after in [
            " (not the previous one)",
            " is the answer; an example follows",
            "\nis wrong",
            ". Wrong ones are rare",
            " is the fixed version of the wrong one",
        ] {
            assert!(!called_aside(after), "{after:?}");
        }
        assert!(!called_aside(&format!(
            " is {} wrong",
            "\u{e9}".repeat(INTRO_LOOK)
        )));
    }

    #[test]
    fn values_in_prose_stand_below_those_in_a_fence_or_tag() {
        use Standing::*;
        fn of(t: &str) -> Vec<(&str, Standing)> {
            let c = candidates(t);
            let s = standing(&c);
            c.iter().map(|c| c.text).zip(s).collect()
        }
        assert_eq!(
            of("```json\n{\"a\": [1]}\n```\nor {\"a\": 2} e.g. {\"a\": 3}"),
            [
                (
                    "```json\n{\"a\": [1]}\n```\nor {\"a\": 2} e.g. {\"a\": 3}",
                    Presented
                ),
                ("{\"a\": [1]}", Presented),
                ("{\"a\": 2}", Prose),
                ("{\"a\": 3}", Aside),
            ]
        );
        // A span that meets a tag's body (here it starts inside and runs past it) stands
        // as the body does, as do the values inside it.
        assert_eq!(
            of("<answer>Hi {{a: 1}</answer>"),
            [
                ("<answer>Hi {{a: 1}</answer>", Presented),
                ("Hi {{a: 1}", Presented),
                ("{{a: 1}</answer>", Presented),
                ("{a: 1}", Presented),
            ]
        );
    }

    #[test]
    fn what_is_set_aside_is_read_from_the_prose_after_the_value_before_it() {
        fn aside(t: &str) -> Vec<(&str, bool)> {
            let c = candidates(t);
            let a = set_aside(&c);
            c.iter().map(|c| c.text).zip(a).collect()
        }
        // The example's values are set aside, the answer after it is not: the prose before
        // the answer starts where the example ends.
        assert_eq!(
            aside("For example {\"a\": [1]} or, the answer, [2]"),
            [
                ("For example {\"a\": [1]} or, the answer, [2]", false),
                ("{\"a\": [1]}", true),
                ("[2]", false),
            ]
        );
        // What lies inside a value set aside is set aside with it.
        assert_eq!(
            aside("E.g.\n```\n{\"a\": 1} {\"b\": 2}\n```"),
            [
                ("E.g.\n```\n{\"a\": 1} {\"b\": 2}\n```", false),
                ("{\"a\": 1} {\"b\": 2}", true),
                ("{\"a\": 1}", true),
                ("{\"b\": 2}", true),
            ]
        );
        assert_eq!(
            aside("[1]\nAvoid:\n```json\n[2]\n```"),
            [
                ("[1]\nAvoid:\n```json\n[2]\n```", false),
                ("[1]", false),
                ("[2]", true),
            ]
        );
    }
}
