//! Sanitization: make the strings of almost-JSON text strict JSON, without parsing it.
//!
//! Some providers put raw newlines, tabs and other control characters inside JSON strings, or
//! escapes JSON does not have (`\'`, `\x41`, a Windows path's `\p`). Strict parsers reject all
//! of them. This stage rewrites just those bytes, inside strings only:
//!
//! - a raw control character becomes its escape (`\n`, `\t`, `\u0007`, ...);
//! - `\'` becomes `'`; any other invalid escape `\c` becomes `\\c` (the backslash was meant
//!   literally); a `\u` not followed by four hex digits likewise.
//!
//! When nothing needs to change, the input is returned borrowed: no allocation.
//!
//! ```
//! use llmout::advanced::sanitize::sanitize;
//! let s = sanitize("{\"message\": \"Line 1\nLine 2\"}");
//! assert_eq!(s.text, r#"{"message": "Line 1\nLine 2"}"#);
//! assert_eq!(s.fixes, vec![19]);
//! assert!(matches!(sanitize("{\"ok\": true}").text, std::borrow::Cow::Borrowed(_)));
//! ```

use std::borrow::Cow;

use crate::pointer_push;

/// A whole document escaped once more, as when JSON is pasted from inside a string literal:
/// `{\"a\": \"b\"}` or `\"text\"`. Returns the document with that one level of escaping
/// taken off (`\"` is `"`, `\\` is `\`, `\n` a line break), or `None` when the text does not
/// start that way: a backslash and a quote, first or right after the opening brackets
/// (`[{\"id\": 1}]`, an array of objects, as much as `{\"id\": 1}`). Between those brackets
/// the line breaks and tabs of pretty-printed JSON may be escaped too (`{\n  \"id\": 1\n}`).
///
/// ```
/// use llmout::advanced::sanitize::escaped_document;
/// assert_eq!(escaped_document(r#"{\"a\": \"say \\"hi\\"\"}"#).unwrap(), r#"{"a": "say \"hi\""}"#);
/// assert_eq!(escaped_document(r#"[{\"id\": 1}]"#).unwrap(), r#"[{"id": 1}]"#);
/// assert_eq!(escaped_document(r#"[\n  {\n    \"id\": 1\n  }\n]"#).unwrap(), "[\n  {\n    \"id\": 1\n  }\n]");
/// assert_eq!(escaped_document(r#"{"a": "\"quoted\""}"#), None);
/// assert_eq!(escaped_document(r#"{\n"a": 1}"#), None);
/// ```
pub fn escaped_document(text: &str) -> Option<String> {
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c == '{' || c == '[' || c.is_whitespace());
        match ["\\n", "\\r", "\\t"]
            .iter()
            .find_map(|e| rest.strip_prefix(e))
        {
            Some(after) => rest = after,
            None => break,
        }
    }
    if !rest.starts_with("\\\"") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(e @ ('"' | '\\' | '/')) => out.push(e),
            // Not one of the escapes the outer level can hold: kept as written.
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            // A lone backslash at the end escaped nothing.
            None => {}
        }
    }
    Some(out)
}

/// Sanitized text and the byte offsets (in the input) of every fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sanitized<'a> {
    /// The text, borrowed when unchanged.
    pub text: Cow<'a, str>,
    /// Byte offset in the input of each character that was rewritten.
    pub fixes: Vec<usize>,
}

/// Escapes raw control characters and repairs invalid escapes inside strings.
pub fn sanitize(input: &str) -> Sanitized<'_> {
    let mut fixes = Vec::new();
    let text = sanitize_into(input, &mut fixes);
    Sanitized { text, fixes }
}

/// [`sanitize`] with the warnings its fixes make counted, not listed: what a caller that needs
/// only their number takes, since a list of offsets is 8 bytes a fix (2x the input for a
/// reply of `\u12` repeated, whose every 4 bytes are one). As [`fix_warnings`] says them, a
/// run of fixes with the same message in one string counts once: where the text is JSON
/// once sanitized, each string is one value, and two strings are two.
pub(crate) fn sanitize_counted(input: &str) -> (Cow<'_, str>, usize) {
    let mut runs = Runs::new(input);
    let text = sanitize_into(input, &mut runs);
    (text, runs.count)
}

/// How long a sanitized copy may be ([`sanitize_counted_within`]), in bytes: the text alone,
/// and the text and its longest string together. The string is measured in the input (see
/// [`Walk::longest_string`]): what reading the copy with `serde_json` holds beside it, whose
/// scratch buffer takes a string's decoded text, never longer than the string's input.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Within {
    pub(crate) text: usize,
    pub(crate) with_longest: usize,
}

impl Within {
    /// No limit.
    const ANY: Within = Within {
        text: usize::MAX,
        with_longest: usize::MAX,
    };
}

/// [`sanitize_counted`] where its text is within `limit`: `None` once it would not be (found
/// as it is written: no more than the limit and a part are written).
pub(crate) fn sanitize_counted_within(input: &str, limit: Within) -> Option<(Cow<'_, str>, usize)> {
    let mut runs = Runs::new(input);
    let text = sanitize_within(input, &mut runs, limit)?;
    Some((text, runs.count))
}

/// [`sanitize`] with only the first fix of each run that [`fix_warnings`] says once (one
/// message in one string): the warnings are the same, and the list is a few offsets where
/// [`sanitize`]'s is 8 bytes a fix (four times the input for a string of `\q` repeated).
pub(crate) fn sanitize_runs(input: &str) -> Sanitized<'_> {
    let mut runs = RunStarts::new(input);
    let text = sanitize_into(input, &mut runs);
    Sanitized {
        text,
        fixes: runs.starts,
    }
}

/// [`sanitize_runs`] where its text is within `limit` (as [`sanitize_counted_within`]).
pub(crate) fn sanitize_runs_within(input: &str, limit: Within) -> Option<Sanitized<'_>> {
    let mut runs = RunStarts::new(input);
    let text = sanitize_within(input, &mut runs, limit)?;
    Some(Sanitized {
        text,
        fixes: runs.starts,
    })
}

/// Where [`sanitize_into`] puts each fix: its offset, and the number of the string it is in.
pub(crate) trait Fixes {
    fn push(&mut self, at: usize, string: usize);
}

impl Fixes for Vec<usize> {
    fn push(&mut self, at: usize, _: usize) {
        Vec::push(self, at);
    }
}

/// The runs of fixes in `input` with one message ([`fix_message`]) in one string, counted.
pub(crate) struct Runs<'a> {
    input: &'a str,
    count: usize,
    last: Option<(usize, &'static str)>,
}

impl<'a> Runs<'a> {
    fn new(input: &'a str) -> Self {
        Runs {
            input,
            count: 0,
            last: None,
        }
    }
}

impl Fixes for Runs<'_> {
    #[inline]
    fn push(&mut self, at: usize, string: usize) {
        let message = fix_message(self.input, at);
        if self.last != Some((string, message)) {
            self.count += 1;
            self.last = Some((string, message));
        }
    }
}

/// [`Runs`], and the offset of each run's first fix.
pub(crate) struct RunStarts<'a> {
    runs: Runs<'a>,
    starts: Vec<usize>,
}

impl<'a> RunStarts<'a> {
    fn new(input: &'a str) -> Self {
        RunStarts {
            runs: Runs::new(input),
            starts: Vec::new(),
        }
    }
}

impl Fixes for RunStarts<'_> {
    fn push(&mut self, at: usize, string: usize) {
        let count = self.runs.count;
        self.runs.push(at, string);
        if self.runs.count != count {
            self.starts.push(at);
        }
    }
}

/// The text of [`sanitize`]; each fix's offset is given to `fixes`.
fn sanitize_into<'a>(input: &'a str, fixes: &mut impl Fixes) -> Cow<'a, str> {
    let Some(text) = sanitize_within(input, fixes, Within::ANY) else {
        unreachable!("no text is longer than usize::MAX")
    };
    text
}

/// [`sanitize_into`] where the text is within `limit`, `None` once it would not be: written a
/// part at a time, the lengths looked at after each, where there is a limit.
fn sanitize_within<'a>(
    input: &'a str,
    fixes: &mut impl Fixes,
    limit: Within,
) -> Option<Cow<'a, str>> {
    let Some(mut walk) = Walk::start(input) else {
        return Some(Cow::Borrowed(input));
    };
    let mut out = String::with_capacity(input.len() + 16);
    out.push_str(&input[..walk.pos]);
    if limit == Within::ANY {
        walk.write::<false>(&mut out, fixes, input.len());
        return Some(Cow::Owned(out));
    }
    while !walk.done() {
        let until = walk.pos.saturating_add(PART);
        walk.write::<true>(&mut out, fixes, until);
        if out.len() > limit.text
            || out.len().saturating_add(walk.longest_string()) > limit.with_longest
        {
            return None;
        }
    }
    Some(Cow::Owned(out))
}

/// [`sanitize_into`]'s walk through the input from its first fix, able to stop before any
/// character and go on from there: [`Reader`] writes the text a part at a time with it.
struct Walk<'a> {
    input: &'a str,
    /// The next character to read.
    pos: usize,
    in_string: bool,
    /// The number of the string the walk is in, or was last in (counted from the first fix's).
    string: usize,
    /// Where the string the walk is in, or was last in, opened (0 for the first fix's, whose
    /// start is not looked for), and the longest closed so far, in the input's bytes: kept
    /// where the walk writes in parts ([`Walk::longest_string`]).
    opened: usize,
    longest: usize,
}

impl<'a> Walk<'a> {
    /// At the first fix `input` needs (the input before it is unchanged); `None` where it
    /// needs none.
    fn start(input: &'a str) -> Option<Self> {
        let first = first_fix(input.as_bytes())?;
        Some(Walk {
            input,
            pos: first.start,
            // The first fix is always inside a string.
            in_string: true,
            string: 0,
            opened: 0,
            longest: 0,
        })
    }

    /// The longest string read so far, the one open included, in the input's bytes from
    /// its opening quote (the first fix's string from the start of the input: every string
    /// before it fits there too). Kept only by walks in parts.
    fn longest_string(&self) -> usize {
        if self.in_string {
            self.longest.max(self.pos - self.opened)
        } else {
            self.longest
        }
    }

    fn done(&self) -> bool {
        self.pos >= self.input.len()
    }

    /// Writes the text from `pos` to `out`, to the first character that starts at or past
    /// `until` (or the end), giving each fix's offset to `fixes`. A character that takes
    /// the ones after it (an escape, a line break dropped as layout with the indentation
    /// after it) takes them whole, so the walk always stops between the input's units.
    /// With `PARTS` false the walk never stops early: the check is compiled out of
    /// [`sanitize`]'s own loop.
    fn write<const PARTS: bool>(&mut self, out: &mut String, fixes: &mut impl Fixes, until: usize) {
        let input = self.input;
        let bytes = input.as_bytes();
        // (The state in locals, stored where the walk stops.)
        let (mut in_string, mut string) = (self.in_string, self.string);
        let (mut opened, mut longest) = (self.opened, self.longest);
        let mut at = self.pos;
        while at < bytes.len() {
            if PARTS && at >= until {
                break;
            }
            // The run of bytes written as they are: outside strings to the next quote,
            // inside to the next quote, backslash or control character (all ASCII, so the
            // run ends between characters).
            let mut end = if in_string {
                bytes[at..]
                    .iter()
                    .position(|&b| STRING_STOPS[usize::from(b)])
                    .map_or(bytes.len(), |k| at + k)
            } else {
                memchr::memchr(b'"', &bytes[at..]).map_or(bytes.len(), |k| at + k)
            };
            if PARTS && end > until {
                end = (until..end)
                    .find(|&k| input.is_char_boundary(k))
                    .unwrap_or(end);
            }
            if end > at {
                // (One byte is an ASCII character: pushed as one, not copied.)
                if end == at + 1 {
                    out.push(char::from(bytes[at]));
                } else {
                    out.push_str(&input[at..end]);
                }
                at = end;
                continue;
            }
            let c = bytes[at];
            if !in_string {
                // A quote opens a string.
                out.push('"');
                in_string = true;
                string += 1;
                if PARTS {
                    opened = at;
                }
                at += 1;
                continue;
            }
            match c {
                b'"' => {
                    in_string = false;
                    if PARTS {
                        longest = longest.max(at - opened);
                    }
                    out.push('"');
                    at += 1;
                }
                b'\\' => match input[at + 1..].chars().next() {
                    Some(n @ ('"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't')) => {
                        out.push('\\');
                        out.push(n);
                        at += 2;
                    }
                    // (The `u` and its digits are written as the string's next run.)
                    Some('u') if is_unicode_escape(&bytes[at..]) => {
                        out.push('\\');
                        at += 1;
                    }
                    Some('\'') => {
                        out.push('\'');
                        fixes.push(at, string);
                        at += 2;
                    }
                    // Before a character outside ASCII a backslash escapes nothing: dropped, as
                    // the lenient parser reads it.
                    Some(n) if !n.is_ascii() => {
                        fixes.push(at, string);
                        at += 1;
                    }
                    // Before a line break it continues the line: the break is the text, as the
                    // lenient parser reads it.
                    Some('\n') => {
                        out.push_str("\\n");
                        fixes.push(at, string);
                        at += 2;
                    }
                    Some('\r') if bytes.get(at + 2) == Some(&b'\n') => {
                        out.push_str("\\r\\n");
                        fixes.push(at, string);
                        at += 3;
                    }
                    _ => {
                        out.push_str("\\\\");
                        fixes.push(at, string);
                        at += 1;
                    }
                },
                b'\n' | b'\r' if closes_after_layout(&bytes[at..]) => {
                    // The line break before a closing quote at the start of a line is layout, as
                    // the lenient parser reads it: dropped with the indentation after it.
                    fixes.push(at, string);
                    at += memchr::memchr(b'"', &bytes[at..]).unwrap_or(bytes.len() - at);
                }
                c => {
                    // A control character (the only other byte a string's run stops at).
                    crate::repair::push_escape(out, c);
                    fixes.push(at, string);
                    at += 1;
                }
            }
        }
        (self.pos, self.in_string, self.string) = (at, in_string, string);
        (self.opened, self.longest) = (opened, longest);
    }
}

/// The text [`sanitize_runs`] gives, read a part at a time (`std::io::Read`, or
/// [`Reader::next_part`]), with what it keeps of the fixes at the end: what `serde_json`
/// reads a large reply from, and what a large reply valid once sanitized is written from,
/// where the whole copy would be up to six times the reply (`\u0001` for each raw U+0001).
/// `F` keeps the fixes: each run's first ([`Reader::new`], [`Reader::fixes`]) or their
/// number ([`Reader::counting`], [`Reader::count`]).
pub(crate) struct Reader<'a, F = RunStarts<'a>> {
    /// The input before its first fix, read as it stands.
    unchanged: &'a [u8],
    walk: Option<Walk<'a>>,
    runs: F,
    /// The part written last, and how much of it is read.
    part: String,
    read: usize,
    /// The input's bytes to write a part from (the part is up to six times that).
    part_len: usize,
}

/// The input's bytes a [`Reader`]'s part is written from.
const PART: usize = 1 << 16;

impl<'a> Reader<'a> {
    /// Parts written from 64 KiB of the input at a time, each run's first fix kept.
    pub(crate) fn new(input: &'a str) -> Self {
        Reader::with_parts(input, PART, RunStarts::new(input))
    }

    /// [`sanitize_runs`]'s list of fixes: whole once every byte is read.
    pub(crate) fn fixes(self) -> Vec<usize> {
        self.runs.starts
    }
}

impl<'a> Reader<'a, Runs<'a>> {
    /// [`Reader::new`] with the fixes counted, as [`sanitize_counted`] counts them.
    pub(crate) fn counting(input: &'a str) -> Self {
        Reader::with_parts(input, PART, Runs::new(input))
    }

    /// [`sanitize_counted`]'s count: whole once every byte is read.
    pub(crate) fn count(&self) -> usize {
        self.runs.count
    }
}

impl<'a, F: Fixes> Reader<'a, F> {
    fn with_parts(input: &'a str, part_len: usize, runs: F) -> Self {
        let walk = Walk::start(input);
        let unchanged = &input.as_bytes()[..walk.as_ref().map_or(input.len(), |w| w.pos)];
        Reader {
            unchanged,
            walk,
            runs,
            part: String::new(),
            read: 0,
            part_len: part_len.max(1),
        }
    }

    /// Whether the input needs a fix at all: where it does not, it is the text as it stands.
    pub(crate) fn fixes_any(&self) -> bool {
        self.walk.is_some()
    }

    /// The text not yet read, up to the end of the next part: the input before its first
    /// fix, then each part as it is written (whole characters and escapes in each, but a
    /// surrogate pair's two escapes may fall in two parts). `None` at the end.
    pub(crate) fn next_part(&mut self) -> Option<&[u8]> {
        if !self.unchanged.is_empty() {
            return Some(std::mem::take(&mut self.unchanged));
        }
        self.fill()?;
        self.read = self.part.len();
        Some(self.part.as_bytes())
    }

    /// Writes the next part where the last is read; `None` at the end of the text.
    fn fill(&mut self) -> Option<()> {
        // (A part may be empty: a line break dropped as layout writes nothing.)
        while self.read == self.part.len() {
            let walk = self.walk.as_mut().filter(|w| !w.done())?;
            self.part.clear();
            self.read = 0;
            let until = walk.pos.saturating_add(self.part_len);
            walk.write::<true>(&mut self.part, &mut self.runs, until);
        }
        Some(())
    }
}

impl<F: Fixes> std::io::Read for Reader<'_, F> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.unchanged.is_empty() {
            let n = buf.len().min(self.unchanged.len());
            buf[..n].copy_from_slice(&self.unchanged[..n]);
            self.unchanged = &self.unchanged[n..];
            return Ok(n);
        }
        if self.fill().is_none() {
            return Ok(0);
        }
        let rest = &self.part.as_bytes()[self.read..];
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.read += n;
        Ok(n)
    }
}

/// The warning for the fix [`sanitize`] made at byte `at` of `input` (one of its
/// [`Sanitized::fixes`]): a line break dropped as layout before a closing quote, or a
/// character escaped.
pub(crate) fn fix_message(input: &str, at: usize) -> &'static str {
    let rest = input.as_bytes().get(at..).unwrap_or_default();
    if matches!(rest.first(), Some(b'\n' | b'\r')) && closes_after_layout(rest) {
        LAYOUT
    } else {
        ESCAPED
    }
}

/// What a fix that escaped a character says.
pub(crate) const ESCAPED: &str = "escaped a raw control character or an invalid escape in a string";

/// What a line break dropped as layout says.
pub(crate) const LAYOUT: &str =
    "dropped a raw line break before a string's closing quote at the start of a line, as layout";

/// Whether `rest` (starting at a raw line break inside a string) is that line break, then
/// only spaces and tabs, then the string's closing quote.
fn closes_after_layout(rest: &[u8]) -> bool {
    let rest = rest.strip_prefix(b"\r").unwrap_or(rest);
    let Some(rest) = rest.strip_prefix(b"\n") else {
        return false;
    };
    rest.iter()
        .find(|&&c| c != b' ' && c != b'\t')
        .is_some_and(|&c| c == b'"')
}

fn is_unicode_escape(at_backslash: &[u8]) -> bool {
    at_backslash.len() >= 6 && at_backslash[2..6].iter().all(u8::is_ascii_hexdigit)
}

/// The fast scan: the offset of the first string that needs a fix, or `None`.
/// Returns the start of that string's content (just after its opening quote is not needed:
/// the slow path resumes at the fix itself, inside the string).
fn first_fix(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
    let mut i = 0;
    loop {
        // Outside strings only a quote matters.
        i += memchr::memchr(b'"', &bytes[i..])? + 1;
        loop {
            while i < bytes.len() && !STRING_STOPS[bytes[i] as usize] {
                i += 1;
            }
            match *bytes.get(i)? {
                b'"' => {
                    i += 1;
                    break;
                }
                b'\\' => match bytes.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                    Some(b'u') if is_unicode_escape(&bytes[i..]) => i += 1,
                    _ => return Some(i..i + 1),
                },
                _ => return Some(i..i + 1),
            }
        }
    }
}

/// The bytes [`first_fix`] stops at inside a string: its end, an escape, a control character.
const STRING_STOPS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// For each byte offset (ascending) in `json`, the JSON pointer of the innermost value that
/// contains it, found by one structural scan that tracks keys and array indexes. Offsets past
/// the end get the pointer in force at the end.
///
/// ```
/// use llmout::advanced::sanitize::pointers_at;
/// let json = r#"{"a": [1, {"b": "x"}], "c": "y"}"#;
/// let at_x = json.find("x").unwrap();
/// let at_y = json.find("y").unwrap();
/// assert_eq!(pointers_at(json, &[at_x, at_y]), vec!["/a/1/b", "/c"]);
/// ```
pub fn pointers_at(json: &str, offsets: &[usize]) -> Vec<String> {
    let mut scan = Pointers::new(json);
    offsets
        .iter()
        .map(|&o| {
            scan.advance(o);
            current(&scan.stack)
        })
        .collect()
}

/// The warnings for the sanitizer's `fixes` in `input` (each fix, or the first of each run,
/// as [`sanitize_runs`] lists them), one at a time, each found when it is asked for (a
/// caller that hands them on holds none: a warning is some 60 bytes where its offset is 8):
/// each fix's pointer (as [`pointers_at`] gives it) and [`fix_message`], a run of fixes
/// with the same message in one value, no other fix between them, said once (as the repair
/// log records a run of one kind of fix in one value once): 10 million bad escapes in one
/// string are one warning.
pub(crate) fn fix_warnings<'a>(
    input: &'a str,
    fixes: &'a [usize],
) -> impl Iterator<Item = (String, &'static str)> + 'a {
    let mut scan = Pointers::new(input);
    let mut last = None;
    fixes.iter().filter_map(move |&at| {
        let string = scan.advance(at);
        let message = fix_message(input, at);
        if last == Some((string, message)) {
            return None;
        }
        last = Some((string, message));
        Some((current(&scan.stack), message))
    })
}

/// A container open where [`Pointers`] is.
enum Frame {
    Object { key: Option<String> },
    Array { index: usize },
}

/// The pointer of the value `stack` leads to.
fn current(stack: &[Frame]) -> String {
    let mut p = String::new();
    for f in stack {
        match f {
            Frame::Object { key: Some(k) } => p = pointer_push(&p, k),
            Frame::Object { key: None } => {}
            Frame::Array { index } => p = pointer_push(&p, &index.to_string()),
        }
    }
    p
}

/// One structural scan of JSON text, moved forward to each of a rising sequence of offsets
/// ([`Pointers::advance`]): the containers open there (`stack`) and the number of the string
/// it is in (a key or a value; counted from 1, 0 outside the first). Offsets in one string
/// have one pointer; offsets past the end, the pointer in force at the end.
struct Pointers<'a> {
    json: &'a str,
    stack: Vec<Frame>,
    string: usize,
    /// Where the scan is: the next byte to read.
    i: usize,
    expecting_key: bool,
    /// The end (closing quote) of the string the scan is in, when it is in one.
    in_string: Option<usize>,
}

impl<'a> Pointers<'a> {
    fn new(json: &'a str) -> Self {
        Pointers {
            json,
            stack: Vec::new(),
            string: 0,
            i: 0,
            expecting_key: false,
            in_string: None,
        }
    }

    /// Moves the scan to offset `o` (no smaller than the last one asked for); returns the
    /// number of the string it is in, `stack` being the containers open there.
    fn advance(&mut self, o: usize) -> usize {
        let bytes = self.json.as_bytes();
        loop {
            if let Some(end) = self.in_string {
                if o < end {
                    return self.string;
                }
                self.in_string = None;
                self.i = end + 1;
                continue;
            }
            if o <= self.i || self.i >= bytes.len() {
                return self.string;
            }
            match bytes[self.i] {
                b'{' => {
                    self.stack.push(Frame::Object { key: None });
                    self.expecting_key = true;
                }
                b'[' => {
                    self.stack.push(Frame::Array { index: 0 });
                    self.expecting_key = false;
                }
                b'}' | b']' => {
                    self.stack.pop();
                    self.expecting_key = false;
                }
                b',' => match self.stack.last_mut() {
                    Some(Frame::Array { index }) => *index += 1,
                    Some(Frame::Object { key }) => {
                        *key = None;
                        self.expecting_key = true;
                    }
                    None => {}
                },
                b'"' => {
                    self.string += 1;
                    let start = self.i + 1;
                    let mut j = start;
                    while j < bytes.len() && bytes[j] != b'"' {
                        if bytes[j] == b'\\' {
                            j += 1;
                        }
                        j += 1;
                    }
                    let end = j.min(bytes.len());
                    if self.expecting_key {
                        // Offsets inside a key: its member's pointer.
                        let raw = self.json.get(start..end).unwrap_or_default();
                        let key = serde_json::from_str::<String>(&format!("\"{raw}\""))
                            .unwrap_or_else(|_| raw.to_owned());
                        if let Some(Frame::Object { key: k }) = self.stack.last_mut() {
                            *k = Some(key);
                        }
                        self.expecting_key = false;
                    }
                    // Offsets inside a value string belong to that value.
                    self.in_string = Some(end);
                    continue;
                }
                _ => {}
            }
            self.i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting gives the same text, and as many warnings as listing the fixes makes; listing
    /// each run's first fix, the same text and warnings.
    #[test]
    fn counted_is_sanitize_with_the_warnings_counted() {
        for raw in [
            "{\"a\": \"x\ty\"}",
            "[\"\\u12\\u12\\q\"]",
            "{\"a\": \"it\\'s\", \"b\": \"line\n  \"}",
            "{\"a\": \"\\q\t\\x\u{1}\", \"b\": [\"\t\", \"\t\t\"], \"c\": \"x\n\", \"d\": \"\t\n  \"}",
            "{\"k\t\": \"\t\", \"j\t\": [\"\t\"]}",
            "{\"a\": 1}",
            "",
        ] {
            let listed = sanitize(raw);
            let (text, count) = sanitize_counted(raw);
            let warnings: Vec<_> = fix_warnings(raw, &listed.fixes).collect();
            assert_eq!((text, count), (listed.text.clone(), warnings.len()), "{raw:?}");
            let runs = sanitize_runs(raw);
            assert_eq!(runs.text, listed.text, "{raw:?}");
            assert_eq!(runs.fixes.len(), count, "{raw:?}");
            assert_eq!(fix_warnings(raw, &runs.fixes).collect::<Vec<_>>(), warnings, "{raw:?}");
        }
        // Ten fixes in one string: their first alone.
        assert_eq!(
            sanitize_runs("[\"\\q\\q\\q\\q\\q\\q\\q\\q\\q\\q\"]").fixes,
            [2]
        );
        // Within a limit on the text and its longest string together, the same text and
        // count; over it, none. The longest string is measured in the input from its opening
        // quote, the first fix's from the start of the input.
        for (raw, longest) in [
            ("{\"a\": \"x\ty\"}", 10),
            ("[\"\\q\"]", 4),
            ("\"\u{1}\u{1}\"", 3),
            ("[\"\tx\", \"a long string, never fixed\"]", 27),
            ("[\"a long string with a\tfix\", \"\tb\"]", 26),
        ] {
            let counted = sanitize_counted(raw);
            let len = counted.0.len();
            let within =
                |text, with_longest| sanitize_counted_within(raw, Within { text, with_longest });
            assert_eq!(within(len, len + longest), Some(counted), "{raw:?}");
            assert_eq!(within(len - 1, usize::MAX), None, "{raw:?}");
            assert_eq!(within(len, len + longest - 1), None, "{raw:?}");
        }
        // A text that needs no fix is itself, whatever the limit.
        let none = Within {
            text: 0,
            with_longest: 0,
        };
        assert_eq!(
            sanitize_counted_within("{\"a\": 1}", none),
            Some((Cow::Borrowed("{\"a\": 1}"), 0))
        );
        assert_eq!(sanitize_counted("[\"\\u12\\u12\"]").1, 1);
        assert_eq!(sanitize_counted("[\"\\u12\", \"\\u12\"]").1, 2);
    }

    /// All of [`Reader`]'s text, read `n` bytes a call, and its fixes.
    fn read_in_parts(raw: &str, part_len: usize, n: usize) -> (String, Vec<usize>) {
        use std::io::Read;
        let mut reader = Reader::with_parts(raw, part_len, RunStarts::new(raw));
        let mut text = Vec::new();
        let mut buf = vec![0; n];
        loop {
            match reader.read(&mut buf).unwrap() {
                0 => break,
                k => text.extend_from_slice(&buf[..k]),
            }
        }
        (String::from_utf8(text).unwrap(), reader.fixes())
    }

    /// The reader writes [`sanitize_runs`]'s text and fixes, wherever its parts end: within a
    /// run of fixes, between an escape's backslash and what follows it, in the indentation a
    /// line break dropped as layout takes with it.
    #[test]
    fn the_reader_gives_the_text_sanitize_gives() {
        let raw = "{\"a\": \"x\ty\", \"b\": \"it\\'s \\q\\q \\u12\\u00e9 \u{1}\u{1}\", \
                   \"c\": \"line\r\n     \", \"d\": \"\\\"\\\\\\\r\nx\\\né\", \"é\\é\": [\"\\\u{e9}\"]}";
        let whole = sanitize_runs(raw);
        // A run a string here: the tab; `\'` to the control characters; the layout; the
        // escaped line breaks; each backslash before `é`.
        assert_eq!(whole.fixes.len(), 6);
        for part_len in [1, 2, 3, 7, raw.len(), 1 << 16] {
            for n in [1, 5, 64] {
                let (text, fixes) = read_in_parts(raw, part_len, n);
                assert_eq!(text, whole.text, "parts of {part_len}, reads of {n}");
                assert_eq!(fixes, whole.fixes, "parts of {part_len}, reads of {n}");
            }
        }
        // Text that needs no fix is read as it stands, with none.
        assert_eq!(
            read_in_parts("{\"a\": \"b\\n\"}", 1, 3),
            ("{\"a\": \"b\\n\"}".to_owned(), Vec::new())
        );
        assert_eq!(read_in_parts("", 1, 3), (String::new(), Vec::new()));
        // The input before the first fix is read unchanged, then the rest a part at a time.
        let long = format!("[\"{}\", \"\t\"]", "a".repeat(100));
        assert_eq!(
            read_in_parts(&long, 4, 16),
            (sanitize_runs(&long).text.into_owned(), vec![106])
        );
    }

    proptest::proptest! {
        /// Any text, read in parts of any size: the text and fixes [`sanitize_runs`] gives.
        #[test]
        fn the_reader_gives_the_text_sanitize_gives_for_any_text(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "\\", "\\\"", "\\u", "\\u00e9", "\\u12", "\\'", "\\q", "\\é", "\n", "\r\n",
                "\r", "\t", " ", "  ", "\u{1}", "é", "a", "{", "}", "[", "]", ",", ":", "\\\n",
            ]), 0..40),
            part_len in 1usize..12,
            n in 1usize..9,
        ) {
            let raw = pieces.concat();
            let whole = sanitize_runs(&raw);
            let (text, fixes) = read_in_parts(&raw, part_len, n);
            proptest::prop_assert_eq!(text, whole.text.into_owned());
            proptest::prop_assert_eq!(fixes, whole.fixes);
        }
    }

    #[test]
    fn seed_003_literal_newlines() {
        let raw = "{\"message\": \"Line 1\nLine 2\"}";
        let s = sanitize(raw);
        assert_eq!(s.text, r#"{"message": "Line 1\nLine 2"}"#);
        let parsed: serde_json::Value = serde_json::from_str(&s.text).unwrap();
        assert_eq!(parsed["message"], "Line 1\nLine 2");
    }

    #[test]
    fn a_line_break_before_a_closing_quote_on_its_own_line_is_dropped() {
        let raw = "{\"a\": \"x\n  \", \"k\n\": \"y\r\n\", \"t\": \"a\tb\"}";
        let s = sanitize(raw);
        assert_eq!(s.text, r#"{"a": "x", "k": "y", "t": "a\tb"}"#);
        assert_eq!(s.fixes, vec![8, 16, 22, 34]);
        // Each fix says what it did: the line breaks were dropped, the tab escaped.
        let said: Vec<&str> = s.fixes.iter().map(|&at| fix_message(raw, at)).collect();
        assert_eq!(said, [LAYOUT, LAYOUT, LAYOUT, ESCAPED]);
        assert_eq!(
            LAYOUT,
            "dropped a raw line break before a string's closing quote at the start of a line, \
             as layout"
        );
        // Through the pipeline, each warning says its fix's.
        let raw = "{\"a\": \"x\n  \", \"k\": \"y\r\n\", \"t\": \"a\tb\"}";
        let r =
            crate::from_llm_with_schema(raw, &serde_json::json!({}), &crate::Options::default());
        let warnings: Vec<(&str, &str)> = r
            .warnings
            .iter()
            .map(|w| (w.path.as_str(), &*w.message))
            .collect();
        assert_eq!(warnings, [("/a", LAYOUT), ("/k", LAYOUT), ("/t", ESCAPED)]);
    }

    /// A run of fixes in one value is one warning, as a run in the repair log is one fix; a
    /// fix of another kind, or in another value, starts a new one.
    #[test]
    fn a_run_of_fixes_in_one_value_is_said_once() {
        let raw = "{\"a\": \"\\q\t\\x\u{1}\", \"b\": [\"\t\", \"\t\t\"], \"c\": \"x\n\", \"d\": \"\t\n  \"}";
        let s = sanitize(raw);
        assert_eq!(s.fixes.len(), 10);
        assert_eq!(
            fix_warnings(raw, &s.fixes).collect::<Vec<_>>(),
            [
                ("/a".to_owned(), ESCAPED),
                ("/b/0".to_owned(), ESCAPED),
                ("/b/1".to_owned(), ESCAPED),
                ("/c".to_owned(), LAYOUT),
                ("/d".to_owned(), ESCAPED),
                ("/d".to_owned(), LAYOUT),
            ]
        );
        // A million bad escapes in one string: one warning, through the pipeline too.
        let raw = format!("{{\"a\": \"{}\"}}", "\\q".repeat(1_000_000));
        let r =
            crate::from_llm_with_schema(&raw, &serde_json::json!({}), &crate::Options::default());
        assert_eq!(
            r.value.unwrap()["a"].as_str().map(str::len),
            Some(2_000_000)
        );
        let warnings: Vec<(&str, &str)> = r
            .warnings
            .iter()
            .map(|w| (w.path.as_str(), &*w.message))
            .collect();
        assert_eq!(warnings, [("/a", ESCAPED)]);
    }

    #[test]
    fn control_characters_outside_strings_are_left_alone() {
        let raw = "{\n\t\"a\": \"b\"\r\n}";
        let s = sanitize(raw);
        assert!(matches!(s.text, Cow::Borrowed(_)));
        assert!(s.fixes.is_empty());
    }

    #[test]
    fn every_control_character_is_escaped() {
        let s = sanitize("[\"a\tb\rc\u{7}d\u{8}e\u{c}\"]");
        assert_eq!(s.text, r#"["a\tb\rc\u0007d\be\f"]"#);
        assert_eq!(s.fixes, vec![3, 5, 7, 9, 11]);
    }

    #[test]
    fn a_backslash_before_a_non_ascii_character_is_dropped() {
        let s = sanitize("[\"a \\„ b\"]");
        assert_eq!(s.text, "[\"a „ b\"]");
        assert_eq!(s.fixes, vec![4]);
    }

    #[test]
    fn invalid_escapes() {
        let s = sanitize(r#"{"q": "it\'s", "path": "C:\Users\new", "hex": "\x41", "u": "\u12"}"#);
        assert_eq!(
            s.text,
            r#"{"q": "it's", "path": "C:\\Users\new", "hex": "\\x41", "u": "\\u12"}"#
        );
        let v: serde_json::Value = serde_json::from_str(&s.text).unwrap();
        assert_eq!(v["q"], "it's");
        // `\n` in a path is a valid escape and stays a newline: the text is ambiguous and
        // strict JSON reads it this way.
        assert_eq!(v["path"], "C:\\Users\new");
        assert_eq!(v["hex"], "\\x41");
        assert_eq!(s.fixes.len(), 4);
        // A backslash before a line break continues the line: the break is the text, as
        // the lenient parser has it.
        let s = sanitize("[\"one \\\ntwo\", \"three \\\r\nfour\"]");
        assert_eq!(s.text, r#"["one \ntwo", "three \r\nfour"]"#);
        assert_eq!(s.fixes, [6, 21]);
    }

    #[test]
    fn valid_escapes_and_unicode_untouched() {
        let raw = r#"{"a": "\"q\" \\ \/ \b\f\n\r\t \u00e9 é 😀"}"#;
        assert!(matches!(sanitize(raw).text, Cow::Borrowed(_)));
    }

    #[test]
    fn escaped_quote_does_not_end_string() {
        let raw = "{\"a\": \"x\\\"\ny\"}";
        assert_eq!(sanitize(raw).text, "{\"a\": \"x\\\"\\ny\"}");
    }

    #[test]
    fn pointers_of_fixes() {
        let raw = "{\"a\": {\"b\": [\"x\ny\", \"z\tw\"]}, \"c\": \"p\nq\"}";
        let s = sanitize(raw);
        assert_eq!(pointers_at(raw, &s.fixes), vec!["/a/b/0", "/a/b/1", "/c"]);
    }

    #[test]
    fn pointers_escape_keys() {
        let raw = "{\"a/b\": \"x\ny\"}";
        assert_eq!(pointers_at(raw, &sanitize(raw).fixes), vec!["/a~1b"]);
    }

    #[test]
    fn total_on_odd_input() {
        for raw in [
            "\"", "\"\\", "\"\\u", "\"\\u12", "\"\n", "\\", "\"é\\", "\"\\é",
        ] {
            let s = sanitize(raw);
            let _ = pointers_at(raw, &s.fixes);
        }
        assert_eq!(sanitize("\"\\").text, "\"\\\\");
        assert_eq!(sanitize("\"\\é\"").text, "\"é\"");
    }
}
