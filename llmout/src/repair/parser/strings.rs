//! Strings: the quotes models write them in, and where one ends.
//!
//! A string is read in two steps. [`Parser::string_end`] finds where it ends, reading raw
//! bytes; [`Parser::decode`] then reads the body up to there (escapes, control characters,
//! quotes left inside). A string with nothing to decode is handed on as a slice of the input,
//! and is read once. The plainest strings skip both steps: a key with a plain body and a `:`
//! right after it ([`Parser::plain_key_end`]), and a value or item with a plain body whose
//! closing quote is plainly its end ([`Parser::plain_string`]); each is read to what the two
//! steps would give it.
//!
//! # Where a string ends
//!
//! A closing quote ends the string when what follows it, past whitespace and comments, can
//! follow a string in its place ([`Parser::verdict`]): `:` after a key; after a member's
//! value a `}`, or a `,` and then the next key (or an object: the object around the member
//! was left unclosed before the next item); after an item a `]`, or a `,` and then the next
//! item; another value (a missing comma); the end of the input. Nearly every string ends at
//! its first closing quote, with no more looking than that.
//!
//! Otherwise the quote is either text inside the string (`"She said "no" twice"`) or a sign
//! that the real closing quote was never written, and [`Parser::string_end_slow`] decides
//! which, from what stands before and after it:
//!
//! * after a comma, a quote that opens the next key (`{"a": "b, "c": 1}`) or item opens it:
//!   the string ended at the comma;
//! * after a `:`, `[`, `{` or `(`, a quote that cannot end the string shows that it already
//!   ended, at the first place a string there could end (its *stop*: a `}`, a `,` before the
//!   next key or a line that starts one, for a member's value; a `,`, `]` or line end for an
//!   item; the `:` for a key);
//! * a quote followed by a `,` and then text that is neither the next key nor a value is kept
//!   in mind: if no better end comes, it is the end (`["a "b", c]`); so is a member's quote
//!   followed by a `:` and words (`"Error "404": not found"`) or by a `:`, a value and then a
//!   word or a quote before a closer (`"set "retries": 3 here"`), and a quote followed by a `)`
//!   where the text opened a `(` (`"f("x") }"`);
//! * at the end of the input, a string whose text runs up to a closer or comma at the very end
//!   ends at its stop (`{"a": "b}`), and any other runs to the end (a reply cut off).
//!
//! # Cost
//!
//! The common case reads the body once. Deciding a hard case may read the rest of the input;
//! the bytes that decision reads are charged to a budget of [`LOOK_PER_BYTE`] per input
//! byte, and once it is spent, strings end at their first closing quote followed by anything
//! a string may be followed by. Every other look ahead ([`Parser::key_follows`] and the like)
//! reads at most a short key, so time stays linear in the input whatever it holds. (A body
//! [`Parser::plain_string`] gives up on is read once more by the two steps: each byte still
//! a bounded number of times.)

use super::{is_ident, is_ws, next2, Ctx, Parser, Text};
use crate::repair::log::Log;
use crate::repair::sink::Sink;
use crate::repair::RepairKind;

/// Bytes a string's hard case may read ahead per byte of input, in all.
pub(super) const LOOK_PER_BYTE: usize = 8;

/// How far a key is looked for ahead: keys are short, and the look must be bounded.
pub(super) const KEY_LOOK: usize = 256;

/// A string value whose body is at least this long, and needs decoding, goes to a sink that
/// takes strings in parts ([`Sink::begin_string`]) about this much at a time: the decoded
/// text is then never held whole beside the output (a 100 MB string of escapes would be held
/// three times: the input, the decoded text, the output).
pub(super) const PART: usize = 1 << 16;

/// The state of a string handed to the sink in parts while it is decoded.
struct Parts {
    /// Parts are handed over (off when the string is not to be, or the sink takes it whole).
    on: bool,
    /// The sink took the first part.
    begun: bool,
    /// The scratch length at which the next part is handed over.
    at: usize,
}

/// The quotes a string can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quote {
    /// `"`: JSON's own.
    Double,
    /// `'`.
    Single,
    /// `“ … ”`, either way round; a plain `"` closes it too.
    Curly,
    /// `‘ … ’`, a backtick or an acute accent (`´`); any of them or `'` closes it.
    OtherSingle,
    /// `"""…"""`.
    TripleDouble,
    /// `'''…'''`.
    TripleSingle,
    /// ```` ```…``` ````: a code block written as a value. No escapes inside.
    Fence,
}

impl Quote {
    /// The quote opening at `at`, if any, and its length in bytes.
    #[inline(always)]
    pub(super) fn at(b: &[u8], at: usize) -> Option<(Quote, usize)> {
        match *b.get(at)? {
            b'"' if !next2(b, at, b'"', b'"') => Some((Quote::Double, 1)),
            b'\'' if !next2(b, at, b'\'', b'\'') => Some((Quote::Single, 1)),
            b'"' | b'\'' | b'`' | 0xE2 | 0xC2 => Quote::at_slow(b, at),
            _ => None,
        }
    }

    #[inline(never)]
    fn at_slow(b: &[u8], at: usize) -> Option<(Quote, usize)> {
        match b.get(at)? {
            b'"' if next2(b, at, b'"', b'"') => Some((Quote::TripleDouble, 3)),
            b'"' => Some((Quote::Double, 1)),
            b'\'' if next2(b, at, b'\'', b'\'') => Some((Quote::TripleSingle, 3)),
            b'\'' => Some((Quote::Single, 1)),
            b'`' if next2(b, at, b'`', b'`') => Some((Quote::Fence, 3)),
            b'`' => Some((Quote::OtherSingle, 1)),
            0xE2 => match b.get(at + 1..at + 3)? {
                [0x80, 0x9C | 0x9D] => Some((Quote::Curly, 3)),
                [0x80, 0x98 | 0x99] => Some((Quote::OtherSingle, 3)),
                _ => None,
            },
            0xC2 if b.get(at + 1) == Some(&0xB4) => Some((Quote::OtherSingle, 2)),
            _ => None,
        }
    }

    /// The length of a quote closing this one at `at`, if one does.
    #[inline(always)]
    pub(super) fn closes_at(self, b: &[u8], at: usize) -> Option<usize> {
        // The common quotes, closed by the one byte they open with, without a call.
        match self {
            Quote::Double => (b.get(at) == Some(&b'"')).then_some(1),
            Quote::Single => (b.get(at) == Some(&b'\'')).then_some(1),
            _ => self.closes_at_other(b, at),
        }
    }

    /// [`closes_at`](Self::closes_at) for the other quotes.
    fn closes_at_other(self, b: &[u8], at: usize) -> Option<usize> {
        let c = *b.get(at)?;
        let curly = |second: [u8; 2]| b.get(at + 1..at + 3) == Some(&second[..]);
        let len = match self {
            Quote::Double => (c == b'"').then_some(1),
            Quote::Single => (c == b'\'').then_some(1),
            Quote::Curly => match c {
                b'"' => Some(1),
                0xE2 if curly([0x80, 0x9D]) || curly([0x80, 0x9C]) => Some(3),
                _ => None,
            },
            Quote::OtherSingle => match c {
                b'\'' | b'`' => Some(1),
                0xE2 if curly([0x80, 0x99]) || curly([0x80, 0x98]) => Some(3),
                0xC2 if b.get(at + 1) == Some(&0xB4) => Some(2),
                _ => None,
            },
            Quote::TripleDouble => (c == b'"' && next2(b, at, b'"', b'"')).then_some(3),
            Quote::TripleSingle => (c == b'\'' && next2(b, at, b'\'', b'\'')).then_some(3),
            Quote::Fence => (c == b'`' && next2(b, at, b'`', b'`')).then_some(3),
        };
        len
    }

    /// Whether the body is read as it stands: backslashes are text, and the text is dedented.
    fn is_block(self) -> bool {
        matches!(
            self,
            Quote::TripleDouble | Quote::TripleSingle | Quote::Fence
        )
    }
}

/// Bytes a string scan stops at: `\\`, control characters, and where a closing quote may
/// start. `"` strings have their own table; the others share one (which also stops at `"`, a
/// byte that must be escaped in JSON).
static STOPS_DOUBLE: [bool; 256] = stops(b"\"");
static STOPS_OTHER: [bool; 256] = stops(&[b'"', b'\'', b'`', 0xE2, 0xC2]);

const fn stops(closers: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'\\' as usize] = true;
    let mut i = 0;
    while i < closers.len() {
        t[closers[i] as usize] = true;
        i += 1;
    }
    t
}

/// The first position from `pos` whose 8-byte word may hold a stop of a `"` string (`"`, `\`
/// or a control character), checking a word at a time: the bytes before it need no look.
/// Returns `pos` itself when fewer than 8 bytes are left.
#[inline]
pub(super) fn skip_plain_words(b: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `x` is zero: sets its high bit (exactly for "any", not for which one).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    while let Some(word) = b.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*word);
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        if control | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\'))) != 0 {
            break;
        }
        pos += 8;
    }
    pos
}

/// The first stop of `table` from `i` (or the end of `b`). Most bodies (keys, short values)
/// end within a word: the table finds the stop before a word at a time (for `"` strings,
/// `double`) could start paying for itself.
#[inline(always)]
fn first_stop(b: &[u8], mut i: usize, table: &[bool; 256], double: bool) -> usize {
    let near = (i + 8).min(b.len());
    while i < near && !table[usize::from(b[i])] {
        i += 1;
    }
    if i == near {
        if double {
            i = skip_plain_words(b, i);
        }
        while i < b.len() && !table[usize::from(b[i])] {
            i += 1;
        }
    }
    i
}

/// Where a string ends.
#[derive(Debug, Clone, Copy)]
pub(super) struct End {
    /// The body is the input from the opening quote's end to here.
    pub(super) body_end: usize,
    /// Where reading goes on.
    pub(super) resume: usize,
    pub(super) how: Closed,
    /// What reading the body needs.
    pub(super) body: Body,
}

/// What the scan that found a string's end saw in its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Body {
    /// No escape, control character or quote: the body is the text, and is JSON as it stands.
    Plain,
    /// No escape or control character, so the body is the text, but it holds quotes:
    /// `inner`, where the first quote of the string's own kind stands (text, not its end);
    /// `safe`, whether it holds no `"` (which JSON escapes).
    Raw { inner: Option<usize>, safe: bool },
    /// Escapes or control characters, or a body the slow scan read: decoded.
    Decode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Closed {
    /// By its closing quote.
    Quote,
    /// Its closing quote was missing; it ends where one should have been.
    Missing,
    /// By the end of the input.
    Eof,
}

/// What a closing quote says about the string it may close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// It ends the string.
    End,
    /// It could end the string, but what follows is odd; the end if nothing better comes.
    Maybe,
    /// It is text inside the string.
    Inside,
    /// The string ended before, at this comma (its closing quote is missing), and this quote
    /// opens the next key or item.
    EndedAt(usize),
    /// The string ended before, at its stop: this quote follows a `:`, `[`, `{` or `(`.
    EndedAtStop,
    /// It ends the string, doubled (`""text""`): the next quote goes with it.
    EndDoubled,
}

/// Open brackets in a string's body so far: a closer after a quote that matches one of these
/// belongs to the text (`"the list [1, 2"] more"`).
#[derive(Debug, Default, Clone, Copy)]
struct Brackets {
    paren: u32,
    square: u32,
    curly: u32,
}

impl Brackets {
    fn note(&mut self, c: u8) {
        match c {
            b'(' => self.paren += 1,
            b'[' => self.square += 1,
            b'{' => self.curly += 1,
            b')' => self.paren = self.paren.saturating_sub(1),
            b']' => self.square = self.square.saturating_sub(1),
            b'}' => self.curly = self.curly.saturating_sub(1),
            _ => {}
        }
    }

    /// Notes the brackets of `body`, a stretch of a string's body with no closing quote in
    /// it, as the slow path does: an escaped byte is no bracket.
    fn count(&mut self, body: &[u8], q: Quote) {
        let mut k = 0;
        while k < body.len() {
            if body[k] == b'\\' && !q.is_block() {
                k += 2;
                continue;
            }
            self.note(body[k]);
            k += 1;
        }
    }

    /// The brackets left open in `body`.
    fn of(body: &[u8]) -> Brackets {
        let mut open = Brackets::default();
        for &c in body {
            open.note(c);
        }
        open
    }

    fn is_empty(&self) -> bool {
        self.paren == 0 && self.square == 0 && self.curly == 0
    }

    fn opens(&self, closer: u8) -> bool {
        match closer {
            b')' => self.paren > 0,
            b']' => self.square > 0,
            b'}' => self.curly > 0,
            _ => false,
        }
    }
}

/// The brackets a string's text holds up to a quote, counted as far as a verdict has needed
/// them (`counted`), and no further until one needs more: each byte of the text is counted
/// once at most.
struct OpenBrackets {
    q: Quote,
    counted: usize,
    open: Brackets,
}

impl OpenBrackets {
    /// The brackets open in the text before `at` (a closing quote's position).
    fn upto(&mut self, b: &[u8], at: usize) -> &Brackets {
        if at > self.counted {
            self.open.count(&b[self.counted..at], self.q);
            self.counted = at;
        }
        &self.open
    }
}

/// Bytes that may begin a JSON value, or the end of a container: after an item's comma, what
/// shows that the comma separated items.
fn starts_item(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        None => true,
        Some(&c) => {
            matches!(c, b'{' | b'[' | b']' | b'-' | b'0'..=b'9')
                || Quote::at(b, i).is_some()
                || literal_at(b, i)
                || cut_literal_at(b, i)
        }
    }
}

/// A literal cut off by the end of the input at `i` (`fal`).
fn cut_literal_at(b: &[u8], i: usize) -> bool {
    let rest = &b[i..];
    !rest.is_empty()
        && ["true", "false", "null", "True", "False", "None"]
            .iter()
            .any(|w| w.as_bytes().starts_with(rest))
}

/// A JSON or Python literal at `i`, not glued to more letters.
pub(super) fn literal_at(b: &[u8], i: usize) -> bool {
    if !matches!(b.get(i), Some(b't' | b'f' | b'n' | b'T' | b'F' | b'N')) {
        return false;
    }
    ["true", "false", "null", "True", "False", "None"]
        .iter()
        .any(|w| {
            b.get(i..i + w.len()) == Some(w.as_bytes())
                && !b.get(i + w.len()).is_some_and(|&c| is_ident(c))
        })
}

impl<'a, S: Sink<'a>, L: Log> Parser<'a, S, L> {
    /// A string in quotes `q` (`len` bytes long) starting at the cursor. Returns where its
    /// decoded text is, whether it was closed (false: the input ended inside it), and where
    /// its body ends in the input.
    pub(super) fn string(&mut self, q: Quote, len: usize, ctx: Ctx) -> (Text, bool, usize) {
        let b = self.b;
        let doubled = !self.careful
            && matches!(q, Quote::Double | Quote::Single)
            && b.get(self.pos + 1) == Some(&b[self.pos])
            && b.get(self.skip_blank(self.pos + 2))
                .is_some_and(u8::is_ascii_alphanumeric)
            && b.get(self.pos + 2).is_none_or(|&c| c != b'\n')
            && self.doubled_closer(self.pos + 2, b[self.pos]);
        if doubled {
            // `""answer""`: each quote doubled, as CSV writes them (a guess: a careful second
            // read takes the first quote as the opener).
            self.guessed = true;
            self.repair(RepairKind::StrayText, self.pos);
            self.pos += 1;
        }
        self.doubled_quote = doubled;
        let start = self.pos + len;
        let end = self.string_end(q, start, ctx);
        self.doubled_quote = false;
        // The body's text ends here: before the layout of a closing quote on a line of its
        // own, which is left out before the body is read, so nothing in it is said to be kept.
        // (Only a body with a control character can hold a raw line break.)
        let mut body_end = end.body_end;
        let text = match end.body {
            Body::Plain => Text::Input {
                start,
                end: body_end,
                safe: true,
            },
            Body::Raw { inner, safe } => {
                // What `decode` would find, known from the scan.
                if let Some(at) = inner {
                    self.repair(RepairKind::UnescapedQuote, at);
                }
                Text::Input {
                    start,
                    end: body_end,
                    safe,
                }
            }
            Body::Decode => {
                if end.how == Closed::Quote && !q.is_block() {
                    body_end = self.layout_start(start, body_end);
                }
                let parts = !doubled && self.streams(q, ctx, start, &end);
                self.decode(q, start, body_end, parts)
            }
        };
        let text = if q.is_block() {
            self.dedent(q, text)
        } else {
            text
        };
        self.pos = end.resume;
        match end.how {
            Closed::Quote if q.is_block() => (text, true, end.body_end),
            Closed::Quote => {
                if body_end < end.body_end {
                    // (Said as text left out: the log's 32 kinds are all taken.)
                    self.repair(RepairKind::StrayText, body_end);
                }
                (text, true, end.body_end)
            }
            Closed::Missing => {
                self.repair(RepairKind::MissingQuote, end.body_end);
                (self.trim_end(text), true, end.body_end)
            }
            Closed::Eof => {
                // Whitespace at the very end of a string cut off is no text yet.
                self.truncate();
                let text = if q.is_block() {
                    text
                } else {
                    self.trim_end(text)
                };
                (text, false, end.body_end)
            }
        }
    }

    /// Whether the string in quotes `q` whose body is `start..end.body_end` is handed to the
    /// sink in parts while it is decoded: a long body, in a string its caller surely hands
    /// over as it stands (see [`string_value`](Self::string_value) and `item`): no block
    /// (its text is dedented whole), no key, no part of a `+` concatenation, no array item
    /// followed by `:` (a key after all), not blank (a string cut off before its text is no
    /// value).
    fn streams(&self, q: Quote, ctx: Ctx, start: usize, end: &End) -> bool {
        if end.body_end - start < PART || q.is_block() || !matches!(ctx, Ctx::Member | Ctx::Item) {
            return false;
        }
        match self.b.get(self.skip_gap(end.resume).0) {
            Some(b'+') => return false,
            Some(b':') if ctx == Ctx::Item && end.how != Closed::Eof => return false,
            _ => {}
        }
        !self.src[start..end.body_end].trim().is_empty()
    }

    /// Where the body of the key in quotes `q` that starts at `start` ends, when the key is
    /// the plain case, read without [`string`](Self::string)'s machinery: `"` or `'`, a body
    /// of no escape, control character or quote, and a `:` right after the closing quote.
    /// [`string`](Self::string) reads such a key to the same text, with no fix.
    #[inline(always)]
    pub(super) fn plain_key_end(&self, q: Quote, start: usize) -> Option<usize> {
        let (quote, table) = match q {
            Quote::Double => (b'"', &STOPS_DOUBLE),
            Quote::Single => (b'\'', &STOPS_OTHER),
            _ => return None,
        };
        let b = self.b;
        let limit = (start + KEY_LOOK).min(b.len());
        let mut i = start;
        while i < limit && !table[usize::from(b[i])] {
            i += 1;
        }
        // An empty body is `""`, which `string` weighs as a doubled quote.
        (i > start && i < limit && b[i] == quote && b.get(i + 1) == Some(&b':')).then_some(i)
    }

    /// The common string value, read without [`string`](Self::string)'s machinery and handed
    /// to the sink: in `"` or `'`, a body of no escape, control character or quote, and a
    /// `,`, `]` or `}` right after the closing quote that plainly ends it (see
    /// [`plainly_ends`](Self::plainly_ends)), as in `["a", "b"]` or `{"k": 'v'}`. `ctx`: a
    /// member's value or an array's item. False, with nothing read, for any other string,
    /// which [`string`](Self::string) reads (to the same text and fixes, for these).
    // Inlined where it pays, in optimised builds; in a debug build that would add its frame
    // to each level of recursion (see `depth_cap_holds_in_a_small_stack`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn plain_string(&mut self, ctx: Ctx) -> bool {
        let b = self.b;
        let at = self.pos;
        let (quote, table) = match b.get(at) {
            Some(b'"') => (b'"', &STOPS_DOUBLE),
            Some(b'\'') => (b'\'', &STOPS_OTHER),
            _ => return false,
        };
        let start = at + 1;
        let end = first_stop(b, start, table, quote == b'"');
        // (An empty body is a doubled quote or a triple one: `string` weighs those.)
        if end == start
            || b.get(end) != Some(&quote)
            || !matches!(b.get(end + 1), Some(b',' | b']' | b'}'))
            || !self.plainly_ends(start, end + 1, ctx, None)
        {
            return false;
        }
        if quote != b'"' {
            self.repair(RepairKind::QuoteStyle, at);
        }
        self.pos = end + 1;
        self.sink.input_string(&self.src[start..end], true);
        true
    }

    /// A string value, handed to the sink; joined first with the strings concatenated to it
    /// with `+`, as JavaScript writes long strings (`"a" + "b"`).
    pub(super) fn string_value(&mut self, text: Text, ctx: Ctx) {
        let (plus, _) = self.skip_gap(self.pos);
        if self.b.get(plus) != Some(&b'+') {
            self.emit_string(text);
            return;
        }
        let mut joined = self.text_of(text).to_owned();
        let mut first = true;
        loop {
            let (plus, _) = self.skip_gap(self.pos);
            if self.b.get(plus) != Some(&b'+') {
                break;
            }
            let (next, _) = self.skip_gap(plus + 1);
            let Some((q, len)) = Quote::at(self.b, next) else {
                break;
            };
            if std::mem::take(&mut first) {
                self.repair(RepairKind::Concatenation, plus);
            }
            if q != Quote::Double {
                self.repair(RepairKind::QuoteStyle, next);
            }
            self.pos = next;
            let (part, _, _) = self.string(q, len, ctx);
            joined.push_str(self.text_of(part));
        }
        self.sink.string(&joined, false);
    }

    /// The text a [`Text`] stands for.
    pub(super) fn text_of(&self, text: Text) -> &str {
        match text {
            Text::Input { start, end, .. } => &self.src[start..end],
            // (Only a value is streamed, and `emit_string` ends it: this is its last part.)
            Text::Scratch | Text::Streamed => &self.scratch,
        }
    }

    /// Whether the first `quote` after `from` (within a key's length) closes a string opened
    /// with a doubled quote: doubled itself (`""answer""`), or followed by what ends a value
    /// (`""value"}`). Else the opener was a quote that begins the text (`""go" he said"`).
    fn doubled_closer(&self, from: usize, quote: u8) -> bool {
        let b = self.b;
        let limit = (from + KEY_LOOK).min(b.len());
        (from..limit).find(|&k| b[k] == quote).is_some_and(|k| {
            b.get(k + 1) == Some(&quote)
                || matches!(
                    b.get(self.skip_gap(k + 1).0),
                    None | Some(b',' | b'}' | b']' | b':')
                )
        })
    }

    /// Where the string whose body starts at `start` ends. Scans to the first closing quote;
    /// the hard cases go to [`string_end_slow`](Self::string_end_slow).
    fn string_end(&mut self, q: Quote, start: usize, ctx: Ctx) -> End {
        let b = self.b;
        let table = if q == Quote::Double || q == Quote::TripleDouble {
            &STOPS_DOUBLE
        } else {
            &STOPS_OTHER
        };
        let double = q == Quote::Double;
        let mut i = start;
        // Every byte that needs decoding or escaping is a stop of `table`: a body none of
        // whose stops is met before the closing quote is the text as it stands, and one with
        // no escape or control character among them is the text with quotes in it.
        let mut plain = true;
        let mut escaped = false;
        let mut inner = None;
        let mut safe = true;
        // After a quote that is text (`"She said "hi" to"`), the next ones are weighed as not
        // the first quote, and with the brackets the text holds so far when that needs them:
        // counted once, up to `counted`, when first needed (a quote is no bracket).
        let mut first = true;
        let mut open = OpenBrackets {
            q,
            counted: start,
            open: Brackets::default(),
        };
        loop {
            i = first_stop(b, i, table, double);
            let Some(&c) = b.get(i) else { break };
            if c == b'\\' && !q.is_block() {
                plain = false;
                escaped = true;
                i += 2;
            } else if c < 0x20 {
                plain = false;
                escaped = true;
                i += 1;
            } else if let Some(len) = q.closes_at(b, i) {
                let verdict = if self.look_spent() {
                    Verdict::End
                } else if first {
                    if self.plainly_ends(start, i + len, ctx, None) {
                        Verdict::End
                    } else if self.plainly_inside(start, i, len, ctx, true) {
                        Verdict::Inside
                    } else {
                        self.verdict(q, start, i, len, ctx, None, true)
                    }
                } else if self.plainly_inside(start, i, len, ctx, false) {
                    Verdict::Inside
                } else if self.plainly_ends(start, i + len, ctx, Some(&mut open)) {
                    Verdict::End
                } else {
                    let brackets = *open.upto(b, i);
                    self.verdict(q, start, i, len, ctx, Some(&brackets), false)
                };
                let resume = match verdict {
                    Verdict::End => i + len,
                    Verdict::EndDoubled => i + 2 * len,
                    // Text inside the string: go on to the next quote. What the string ends
                    // on otherwise is the slow path's to decide, from the start.
                    Verdict::Inside if !q.is_block() => {
                        first = false;
                        plain = false;
                        inner.get_or_insert(i);
                        safe &= c != b'"';
                        i += len;
                        continue;
                    }
                    _ => break,
                };
                let body = match (plain, escaped || q.is_block()) {
                    (true, _) => Body::Plain,
                    (false, false) => Body::Raw { inner, safe },
                    (false, true) => Body::Decode,
                };
                return End {
                    body_end: i,
                    resume,
                    how: Closed::Quote,
                    body,
                };
            } else {
                // A `"` inside other quotes must be escaped in JSON.
                plain = false;
                safe &= c != b'"';
                i += 1;
            }
        }
        if self.look_spent() {
            return End {
                body_end: b.len(),
                resume: b.len(),
                how: Closed::Eof,
                body: Body::Decode,
            };
        }
        self.string_end_slow(q, start, ctx)
    }

    /// Whether what follows the closing quote ending at `after` plainly ends the string, as
    /// in nearly every string: a key's `:`; a `,` and the next item or key; a closer the text
    /// opened no bracket of. The same answer [`verdict`](Self::verdict) gives these, for a
    /// fraction of its work; anything else is left to it.
    #[inline(always)]
    fn plainly_ends(
        &self,
        start: usize,
        after: usize,
        ctx: Ctx,
        brackets: Option<&mut OpenBrackets>,
    ) -> bool {
        let b = self.b;
        let Some(&c) = b.get(after).filter(|_| !self.doubled_quote) else {
            return false;
        };
        match (ctx, c) {
            (Ctx::Key, _) => !(c.is_ascii_alphabetic() || c == b'_' || c >= 0x80),
            (_, b':') => ctx != Ctx::Member,
            (Ctx::Member, b',') => self.key_follows(after + 1),
            (_, b',') => {
                let next = after + 1 + usize::from(b.get(after + 1) == Some(&b' '));
                matches!(b.get(next), Some(b'"' | b'{' | b'[' | b']' | b'0'..=b'9'))
            }
            (_, b'}' | b']' | b')') => match brackets {
                Some(open) => !open.upto(b, after - 1).opens(c),
                None => !b[start..after]
                    .iter()
                    .any(|&d| matches!(d, b'(' | b'[' | b'{')),
            },
            _ => false,
        }
    }

    /// Whether the closing quote at `at` (of `len` bytes) is plainly text inside the string,
    /// as the quotes of a quotation are (`"She said "hi" to me"`): a word follows it on the
    /// same line (glued to it, unless `first`, where a word after a space may stand on its
    /// own) that is no literal, and what stands before it is no separator or opener. The
    /// same answer [`verdict`](Self::verdict) gives these; anything else is left to it.
    #[inline(always)]
    fn plainly_inside(&self, start: usize, at: usize, len: usize, ctx: Ctx, first: bool) -> bool {
        if ctx == Ctx::Key || self.doubled_quote {
            return false;
        }
        let b = self.b;
        let after = at + len;
        let (i, newline) = self.skip_gap(after);
        let glued = i == after;
        if newline || (first && !glued) {
            return false;
        }
        let Some(&c) = b.get(i) else {
            return false;
        };
        c.is_ascii_alphabetic()
            && !literal_at(b, i)
            && self
                .before(start, at)
                .is_none_or(|d| !matches!(b[d], b',' | b':' | b'[' | b'{' | b'('))
    }

    /// Whether the budget for reading ahead is spent.
    pub(super) fn look_spent(&self) -> bool {
        self.look >= self.look_budget
    }

    /// The hard case of [`string_end`](Self::string_end): the first closing quote does not end
    /// the string, or there is none. Rescans the body, weighing each closing quote in turn
    /// (see the [module docs](self)).
    fn string_end_slow(&mut self, q: Quote, start: usize, ctx: Ctx) -> End {
        let b = self.b;
        let mut brackets = Brackets::default();
        let (mut stop, mut hard_stop) = (None, None);
        let mut maybe = None;
        let mut first = true;
        // Where the gap after the last line break weighed as a stop ends: the line breaks
        // before it open the same next line, weighed once (a run of blank or comment lines
        // read again at each of its breaks would make the scan quadratic).
        let mut gap_end = start;
        // The last line break followed by a line that opens an object with a key, and
        // where that key's quote is (`"Ann\n  {"id": 2`, the next item of an array).
        let mut object_line: Option<(usize, usize)> = None;
        let mut i = start;
        while i < b.len() {
            let c = b[i];
            if c == b'\\' && !q.is_block() {
                i += 2;
                continue;
            }
            if let Some(len) = q.closes_at(b, i) {
                let verdict = self.verdict(q, start, i, len, ctx, Some(&brackets), first);
                first = false;
                match verdict {
                    Verdict::End | Verdict::EndDoubled => {
                        self.charge(i - start);
                        let doubled = usize::from(verdict == Verdict::EndDoubled);
                        return End {
                            body_end: i,
                            resume: i + len * (1 + doubled),
                            how: Closed::Quote,
                            body: Body::Decode,
                        };
                    }
                    Verdict::EndedAt(comma) if !self.careful => {
                        self.guessed = true;
                        self.charge(i - start);
                        return End {
                            body_end: comma,
                            resume: comma,
                            how: Closed::Missing,
                            body: Body::Decode,
                        };
                    }
                    Verdict::EndedAtStop => {
                        // A line that looks like a key is weaker evidence than the quote is
                        // against it: only a comma or closer stop ends the string here, or
                        // the line break before an object this quote opens the first key of.
                        let opened = object_line.filter(|&(_, key)| key == i).map(|(s, _)| s);
                        if let Some(s) = hard_stop.or(opened).filter(|_| !self.careful) {
                            self.guessed = true;
                            self.charge(i - start);
                            return End {
                                body_end: s,
                                resume: s,
                                how: Closed::Missing,
                                body: Body::Decode,
                            };
                        }
                    }
                    Verdict::Maybe => {
                        maybe.get_or_insert((i, len));
                    }
                    Verdict::Inside | Verdict::EndedAt(_) => {}
                }
                i += len;
                continue;
            }
            if hard_stop.is_none() && brackets.is_empty() {
                if c == b'\n' && ctx == Ctx::Member {
                    if i >= gap_end {
                        let (next, _) = self.skip_gap(i + 1);
                        gap_end = next;
                        if self.key_line_at(i, next) {
                            stop.get_or_insert(i);
                        } else if let Some(key) = self.object_key_at(next) {
                            object_line = Some((i, key));
                        }
                    }
                } else if self.is_stop(i, ctx) {
                    stop.get_or_insert(i);
                    if c != b'\n' {
                        hard_stop = Some(i);
                    }
                }
            }
            brackets.note(c);
            i += 1;
        }
        self.charge(b.len() - start);
        if let Some((at, len)) = maybe.filter(|&(at, len)| self.ends_with_closer(ctx, at + len)) {
            return End {
                body_end: at,
                resume: at + len,
                how: Closed::Quote,
                body: Body::Decode,
            };
        }
        // A backslash only escapes inside a string: text after the stop that holds one is
        // still this string's.
        let escapes_after = |s: usize| self.b[s..].contains(&b'\\');
        let guess = |s: usize| {
            !self.careful
                && self.ends_with_closer(ctx, s)
                && self.tail_after(s)
                && !escapes_after(s)
        };
        // No stop fits: the closers the input ends with are the document's
        // (`{"a": "x} "y" z}` ends before its last `}`).
        let last =
            || Some(self.closers_at_end()).filter(|&s| s > start && s < b.len() && ctx != Ctx::Key);
        if let Some(s) = stop
            .filter(|&s| guess(s))
            .or_else(|| last().filter(|&s| guess(s)))
        {
            self.guessed = true;
            return End {
                body_end: s,
                resume: s,
                how: Closed::Missing,
                body: Body::Decode,
            };
        }
        End {
            body_end: b.len(),
            resume: b.len(),
            how: Closed::Eof,
            body: Body::Decode,
        }
    }

    /// Charges `n` bytes read ahead to the budget.
    pub(super) fn charge(&mut self, n: usize) {
        self.look = self.look.saturating_add(n);
    }

    /// Whether a string with no closing quote, in place `ctx`, could have ended at `i` (which
    /// no bracket opened in the string encloses). A member value's line break is weighed by
    /// [`key_line_at`](Self::key_line_at), once a gap.
    fn is_stop(&self, i: usize, ctx: Ctx) -> bool {
        let b = self.b;
        match (ctx, b[i]) {
            (Ctx::Member, b'}') => true,
            (Ctx::Member, b',') => self.key_follows(i + 1),
            (Ctx::Item, b',' | b']' | b'\n') => true,
            (Ctx::Key, b':') => true,
            _ => false,
        }
    }

    /// Whether the line break at `i`, whose gap ends at `next`, is a member value's stop:
    /// the next line starts a key or closes the object (or only comments follow).
    fn key_line_at(&self, i: usize, next: usize) -> bool {
        if next < self.b.len() {
            self.key_follows(next)
        } else {
            self.skip_blank(i + 1) < self.b.len()
        }
    }

    /// Where the quote of a key is when an object opens at `i` with one (`{"id": 2`).
    fn object_key_at(&self, i: usize) -> Option<usize> {
        if self.b.get(i) != Some(&b'{') {
            return None;
        }
        let (k, _) = self.skip_gap(i + 1);
        (Quote::at(self.b, k).is_some() && k < self.b.len() && self.key_follows(k)).then_some(k)
    }

    /// Whether the document can end from the stop at `s`: a separator (the next key or item
    /// follows), or closers and commas only, to the end.
    fn tail_after(&self, s: usize) -> bool {
        let b = self.b;
        if s >= b.len() {
            return false;
        }
        let after_colon = || {
            let i = self.skip_blank(s + 1);
            b.get(i)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'"' || c == b'-')
        };
        b[s] == b','
            || (b[s] == b':' && after_colon())
            || self.b[s..]
                .iter()
                .all(|&c| is_ws(c) || matches!(c, b'}' | b']' | b',' | b'`'))
    }

    /// Where the run of closers (and commas) the input ends with starts, before whitespace
    /// and a closing fence.
    fn closers_at_end(&self) -> usize {
        let b = self.b;
        let mut k = b.len();
        while k > 0 && is_ws(b[k - 1]) {
            k -= 1;
        }
        // A closing fence: three backticks or more.
        let ticks = b[..k].iter().rev().take_while(|&&c| c == b'`').count();
        if ticks >= 3 {
            k -= ticks;
        }
        while k > 0 && (is_ws(b[k - 1]) || matches!(b[k - 1], b'}' | b']' | b',')) {
            k -= 1;
        }
        k
    }

    /// Whether the input's last visible byte (before any closing fence) closes or separates:
    /// a sign that a string still open at the end should have closed before it.
    /// Whether, were the string to end at `from`, the closers the input ends with would close
    /// the container it sits in: those closers first close what the document opened after
    /// `from` (`{"a": "x, b: [1]}`), and the next must be this container's (`}` for a member
    /// or key, `]` for an item). A cut inside text that holds a bracket (`["a, [1]`, `["a
    /// {x}`) fails the test and stays a cut string.
    fn ends_with_closer(&self, ctx: Ctx, from: usize) -> bool {
        let b = self.b;
        let run = self.closers_at_end().max(from);
        let mut open = Brackets::of(&b[from..run]);
        for &c in &b[run..] {
            if !matches!(c, b'}' | b']') {
                continue;
            }
            if open.opens(c) {
                open.note(c);
                continue;
            }
            return matches!((c, ctx), (b'}', Ctx::Member | Ctx::Key) | (b']', Ctx::Item));
        }
        // No closer: a key cut after its colon (`{"a:`) is still one.
        ctx == Ctx::Key && self.src.trim_end().ends_with(':')
    }

    /// What the closing quote at `at` (of `len` bytes) says about the string whose body
    /// starts at `start`. `brackets` are those open in the body up to the quote, when known.
    #[allow(clippy::too_many_arguments)]
    fn verdict(
        &self,
        q: Quote,
        start: usize,
        at: usize,
        len: usize,
        ctx: Ctx,
        brackets: Option<&Brackets>,
        first: bool,
    ) -> Verdict {
        if matches!(q, Quote::TripleDouble | Quote::TripleSingle | Quote::Fence) {
            return Verdict::End;
        }
        let b = self.b;
        let after = at + len;
        let (i, newline) = self.skip_gap(after);
        let Some(&c) = b.get(i) else {
            return Verdict::End;
        };
        let glued = i == after;
        let root = ctx;
        if self.doubled_quote && glued && q.closes_at(b, i).is_some() {
            let (j, _) = self.skip_gap(i + len);
            if b.get(j)
                .is_none_or(|&d| matches!(d, b':' | b',' | b'}' | b']'))
            {
                return Verdict::EndDoubled;
            }
        }
        let ctx = match ctx {
            Ctx::Key => {
                if !(glued && (c.is_ascii_alphabetic() || c == b'_' || c >= 0x80)) {
                    return Verdict::End;
                }
                // `{"k"e"y": 1}`: text glued to the quote; but after a colon the key had
                // already ended (`{"key:"value"}`).
                return match self.before(start, at) {
                    Some(d) if b[d] == b':' => Verdict::EndedAtStop,
                    _ => Verdict::Inside,
                };
            }
            // A top-level string is weighed as an item: what may follow it is alike.
            Ctx::Root => Ctx::Item,
            ctx => ctx,
        };
        let open = |brackets: Option<&Brackets>| match brackets {
            Some(open) => *open,
            None => Brackets::of(&b[start..at]),
        };
        match c {
            // A colon after a member's value belongs to an object written inside the text
            // (`"answer is {"k": 1}, so"`) when the text opened one.
            b':' if ctx == Ctx::Member && open(brackets).opens(b'}') => return Verdict::Inside,
            // After a member's value, a colon makes the string a key with no value before
            // it, unless what follows the colon is no value but words, which read on as
            // text (`"Error "404": not found"`): then it is only a possible end.
            b':' if ctx == Ctx::Member && self.words_follow(i + 1) => return Verdict::Maybe,
            // The same when a value follows the colon and then text no member goes on with: a
            // word, or a quote glued to the value before a closer (`"Set "retries": 3 here"`,
            // `"Use "debug": true"}`): a pair quoted inside the text.
            b':' if ctx == Ctx::Member && self.value_then_text(q, i + 1) => return Verdict::Maybe,
            b':' => return Verdict::End,
            b',' => {
                let (next, _) = self.skip_gap(i + 1);
                let fits = if ctx == Ctx::Member {
                    // (`"a", {"b": 2}`: the object was left unclosed before the next item.)
                    self.key_follows(i + 1)
                        || self.word_then_key(next)
                        || b.get(next) == Some(&b'{')
                } else {
                    starts_item(b, next)
                };
                return if fits { Verdict::End } else { Verdict::Maybe };
            }
            // A `)` closes no container of JSON's where the text opened a `(`: the text's
            // own (`"g("a") }"`), or at most a possible end.
            b')' if open(brackets).opens(c) => return Verdict::Maybe,
            b'}' | b']' | b')' => {
                if !open(brackets).opens(c) {
                    return Verdict::End;
                }
                // The text opened a bracket of this kind: the closer is the text's, unless
                // the document goes on after it as a document does (`{"a": "{"}, "b": 1}`).
                let (j, _) = self.skip_gap(i + 1);
                let goes_on = match b.get(j) {
                    None | Some(b'}' | b']' | b':') => true,
                    Some(b',') => {
                        let (k, _) = self.skip_gap(j + 1);
                        starts_item(b, k) || self.key_follows(k)
                    }
                    Some(_) => false,
                };
                return if goes_on {
                    Verdict::End
                } else {
                    Verdict::Maybe
                };
            }
            b'`' if next2(b, i, b'`', b'`') => return Verdict::End,
            // `"a" + "b"`: concatenated strings.
            b'+' if Quote::at(b, self.skip_gap(i + 1).0).is_some() => return Verdict::End,
            // Another value follows (a missing comma), unless this quote follows a colon or an
            // opener in the text, where it can only open a value written inside the text
            // (`"answer is {"n": "5"}"`).
            // In an object a value is followed by a key, never by another value: there it is
            // only a possible end.
            b'{' | b'[' | b'-' | b'0'..=b'9' if ctx == Ctx::Member => return Verdict::Maybe,
            b'{' | b'[' | b'-' | b'0'..=b'9' if !self.opens_after(start, at) => {
                return Verdict::End
            }
            _ => {}
        }
        if Quote::at(b, i).is_some() {
            // `"a" "b"`: a missing comma. But a quote that itself ends the text is the real
            // end, and this one is inside (`"a 12" screen""`); and in an object what follows
            // a missing comma is the next key (`"x" "b": 1`).
            let (j, _) = self.skip_gap(i + 1);
            let real_end = b
                .get(j)
                .is_none_or(|&d| matches!(d, b',' | b'}' | b']' | b':'));
            return if real_end || (ctx == Ctx::Member && !self.key_follows(i)) {
                Verdict::Inside
            } else {
                Verdict::End
            };
        }
        if literal_at(b, i) || (newline && ctx == Ctx::Member && self.key_follows(i)) {
            return Verdict::End;
        }
        if first && !glued && !newline && root != Ctx::Root && self.word_then_end(i, ctx) {
            // `["a" b", "c"]`, `{"a": "x" tail`: a closed string, then a word of its own.
            return Verdict::End;
        }
        // Text follows: the quote is inside the string, unless what stands before it shows
        // the string already ended.
        match self.before(start, at) {
            Some(comma) if b[comma] == b',' => {
                if self.opens_next(q, at, ctx) {
                    Verdict::EndedAt(comma)
                } else {
                    Verdict::Inside
                }
            }
            Some(d) if matches!(b[d], b':' | b'[' | b'{' | b'(') => Verdict::EndedAtStop,
            _ => Verdict::Inside,
        }
    }

    /// Whether what follows the colon at `i - 1` is words, not a value: a letter that
    /// starts no literal, then more letters or spaces up to the next quote on the line
    /// (`: not found"`), read no further than a key is.
    fn words_follow(&self, i: usize) -> bool {
        let b = self.b;
        let (i, newline) = self.skip_gap(i);
        if newline || !b.get(i).is_some_and(|c| c.is_ascii_alphabetic()) || literal_at(b, i) {
            return false;
        }
        let limit = (i + KEY_LOOK).min(b.len());
        b[i..limit]
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || c == b' ' || c == b'-' || c == b'\''))
            .is_some_and(|k| b[i + k] == b'"')
    }

    /// Whether what follows the colon at `i - 1` is a value (a number, a literal or a short
    /// quoted string) on the same line and then what no member's value is followed by: a word
    /// that starts no literal (`: 3 here`, `: "low" for now`), or a quote of kind `q` glued to
    /// the value before a closer, a comma or the end (`: true"}`). Read no further than a key.
    fn value_then_text(&self, q: Quote, i: usize) -> bool {
        let b = self.b;
        let (i, newline) = self.skip_gap(i);
        let limit = (i + KEY_LOOK).min(b.len());
        if newline || i >= limit {
            return false;
        }
        let end = match b[i] {
            b'-' | b'0'..=b'9' => {
                i + 1
                    + b[i + 1..limit]
                        .iter()
                        .take_while(|&&c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E'))
                        .count()
            }
            quote @ (b'"' | b'\'') => match b[i + 1..limit]
                .iter()
                .position(|&c| c == quote || c == b'\n')
            {
                Some(k) if b[i + 1 + k] == quote => i + k + 2,
                _ => return false,
            },
            _ if literal_at(b, i) => {
                i + b[i..limit]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .count()
            }
            _ => return false,
        };
        if let Some(len) = q.closes_at(b, end) {
            let (j, _) = self.skip_gap(end + len);
            return b.get(j).is_none_or(|&d| matches!(d, b',' | b'}' | b']'));
        }
        let (j, newline) = self.skip_gap(end);
        j > end
            && !newline
            && b.get(j).is_some_and(|c| c.is_ascii_alphabetic())
            && !literal_at(b, j)
    }

    /// Whether a word and then a quoted key start at `i` (`COMMENT "b": 1`): a stray word the
    /// object reader skips before the next member.
    fn word_then_key(&self, i: usize) -> bool {
        let b = self.b;
        if !b.get(i).is_some_and(|&c| c.is_ascii_alphabetic()) {
            return false;
        }
        let limit = (i + KEY_LOOK).min(b.len());
        let Some(k) = (i..limit).find(|&k| !(b[k].is_ascii_alphanumeric() || b[k] == b'_')) else {
            return false;
        };
        let (j, _) = self.skip_gap(k);
        j > k && Quote::at(b, j).is_some() && self.key_follows(j)
    }

    /// After a string's first closing quote and a space, whether the text from `i` is one
    /// word standing on its own: it runs to a quote that ends it, to the end of the input, or
    /// to what closes or separates in place `ctx`.
    fn word_then_end(&self, i: usize, ctx: Ctx) -> bool {
        let b = self.b;
        let limit = (i + KEY_LOOK).min(b.len());
        let Some(k) = (i..limit)
            .find(|&k| matches!(b[k], b'"' | b',' | b'}' | b']') || b[k].is_ascii_whitespace())
        else {
            return limit == b.len();
        };
        let k = if b[k].is_ascii_whitespace() {
            match self.skip_gap(k) {
                (j, false) if j < b.len() => j,
                (j, newline) => return j == b.len() && !newline,
            }
        } else {
            k
        };
        match (b[k], ctx) {
            (b'"', _) => {
                let (j, _) = self.skip_gap(k + 1);
                b.get(j).is_none_or(|&d| matches!(d, b',' | b'}' | b']'))
            }
            (b']' | b',', Ctx::Item) | (b'}', Ctx::Member) => true,
            _ => false,
        }
    }

    /// Whether the last visible byte of the body before `at` is a `:` or an opener, after
    /// which a quote opens rather than closes.
    fn opens_after(&self, start: usize, at: usize) -> bool {
        self.before(start, at).is_some_and(|d| match self.b[d] {
            // `is {"k": "5"}`: a colon and a space, as JSON is written; `"x:"0` is text
            // that ends with a colon.
            b':' => d + 1 < at,
            c => matches!(c, b'{' | b'[' | b'('),
        })
    }

    /// The last non-whitespace byte of the body `start..at`, if any.
    fn before(&self, start: usize, at: usize) -> Option<usize> {
        (start..at).rev().find(|&k| !is_ws(self.b[k]))
    }

    /// Whether the quote at `at` opens what comes next in place `ctx`: for a member, a key
    /// (a short string and then `:`); for an item, a short string and then a separator.
    fn opens_next(&self, q: Quote, at: usize, ctx: Ctx) -> bool {
        let b = self.b;
        let Some(len) = q.closes_at(b, at) else {
            return false;
        };
        let body = at + len;
        let limit = (body + KEY_LOOK).min(b.len());
        let next = match q {
            Quote::Double | Quote::Single => b[body..limit]
                .iter()
                .position(|&c| c == b[at])
                .map(|k| body + k),
            _ => (body..limit).find(|&k| q.closes_at(b, k).is_some()),
        };
        let Some(k) = next else {
            // No end in sight: an item or a long key runs on (`"abc,\n"def…`).
            return true;
        };
        let close = q.closes_at(b, k).unwrap_or(1);
        let (j, _) = self.skip_gap(k + close);
        match ctx {
            Ctx::Member => b.get(j) == Some(&b':'),
            _ => b
                .get(j)
                .is_none_or(|&d| matches!(d, b',' | b']' | b'}' | b'\n')),
        }
    }

    /// Skips whitespace, comments and reasoning blocks from `i` (without recording them);
    /// returns where they end and whether they held a line break.
    #[inline(always)]
    pub(super) fn skip_gap(&self, i: usize) -> (usize, bool) {
        // Most gaps are empty or one space: settled without a call.
        let b = self.b;
        let at = i + usize::from(b.get(i) == Some(&b' '));
        match b.get(at) {
            Some(&c) if c > b' ' && c != b'/' && c != b'#' && c != b'<' => (at, false),
            None => (at, false),
            _ => self.skip_gap_slow(i),
        }
    }

    #[inline(never)]
    fn skip_gap_slow(&self, mut i: usize) -> (usize, bool) {
        let b = self.b;
        let mut newline = false;
        loop {
            while i < b.len() && is_ws(b[i]) {
                newline |= b[i] == b'\n';
                i += 1;
            }
            match (b.get(i), b.get(i + 1)) {
                (Some(b'/'), Some(b'/'))
                | (Some(b'#'), None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'#' | b'!')) => {
                    i = super::line_comment_end(b, i, b[i] == b'#');
                }
                (Some(b'/'), Some(b'*')) => match super::find2(&b[i + 2..], b'*', b'/') {
                    Some(k) => i += 2 + k + 2,
                    None => return (b.len(), newline),
                },
                (Some(b'<'), _) => match self.reasoning_at(i) {
                    Some(block) => i = block.end,
                    None => return (i, newline),
                },
                _ => return (i, newline),
            }
        }
    }

    /// Skips whitespace (not comments) from `i`.
    pub(super) fn skip_blank(&self, mut i: usize) -> usize {
        while i < self.b.len() && is_ws(self.b[i]) {
            i += 1;
        }
        i
    }

    /// Reads the body `start..end` of a string in quotes `q`: escapes decoded, control
    /// characters and quotes kept (each recorded once per string).
    ///
    /// `parts`: the text goes to the sink in parts as it is decoded (see [`PART`]); the
    /// scratch buffer keeps the rest, which always holds what a trim at the end could take.
    fn decode(&mut self, q: Quote, start: usize, end: usize, parts: bool) -> Text {
        let b = self.b;
        let mut parts = Parts {
            on: parts,
            begun: false,
            at: PART,
        };
        let mut copied = false;
        let mut run = start;
        let (mut control, mut inner, mut bad) = (false, false, false);
        let mut safe = true;
        let table = if q == Quote::Double || q == Quote::TripleDouble {
            &STOPS_DOUBLE
        } else {
            &STOPS_OTHER
        };
        let mut i = start;
        while i < end {
            // Bytes that are no escape, control character or quote are copied as they stand.
            while i < end && !table[usize::from(b[i])] {
                i += 1;
            }
            let Some(&c) = b.get(i).filter(|_| i < end) else {
                break;
            };
            if c == b'\\' && !q.is_block() {
                if !copied {
                    copied = true;
                    self.scratch.clear();
                }
                self.push_run(run, i, &mut parts);
                self.pos = i;
                if !self.escape(q, &mut bad, end) {
                    run = end;
                    break;
                }
                if parts.on {
                    self.hand_over(&mut parts);
                }
                i = self.pos;
                run = i;
                continue;
            }
            if c < 0x20 {
                safe = false;
                if !control {
                    control = true;
                    self.repair(RepairKind::ControlCharacter, i);
                }
            } else if c == b'"' || c == b'\\' {
                safe = false;
            }
            if let Some(len) = q.closes_at(b, i) {
                if !inner {
                    inner = true;
                    self.repair(RepairKind::UnescapedQuote, i);
                }
                i += len;
                continue;
            }
            i += 1;
        }
        if copied {
            self.push_run(run, end, &mut parts);
            if parts.begun {
                Text::Streamed
            } else {
                Text::Scratch
            }
        } else {
            Text::Input { start, end, safe }
        }
    }

    /// Appends the input `from..to` to the scratch buffer; a long run a part at a time when
    /// the text goes to the sink in parts.
    fn push_run(&mut self, mut from: usize, to: usize, parts: &mut Parts) {
        if !parts.on {
            self.scratch.push_str(&self.src[from..to]);
            return;
        }
        while from < to {
            let mut cut = (from + PART).min(to);
            while !self.src.is_char_boundary(cut) {
                cut -= 1;
            }
            self.scratch.push_str(&self.src[from..cut]);
            self.hand_over(parts);
            from = cut;
        }
    }

    /// Once the scratch buffer has grown to `parts.at`, hands its text to the sink but for
    /// what a trim at the end could still take: a trailing run of whitespace (`trim_end`'s;
    /// a closing quote's layout is left out before the body is decoded). The next hand-over
    /// waits until the buffer has doubled, so a long trailing run is looked at a bounded
    /// number of times.
    fn hand_over(&mut self, parts: &mut Parts) {
        if self.scratch.len() < parts.at {
            return;
        }
        let text = self.scratch.trim_end_matches(char::is_whitespace).len();
        if text > 0 {
            if !parts.begun {
                parts.begun = self.sink.begin_string();
                if !parts.begun {
                    parts.on = false;
                    return;
                }
            }
            self.sink.string_part(&self.scratch[..text]);
            self.scratch.drain(..text);
        }
        let held = self.scratch.len();
        parts.at = held.saturating_mul(2).max(held + PART);
    }

    /// A string written over several lines with its closing quote at the start of a line
    /// (`"a": "\n  some text\n",`): the raw line break before the quote is layout, not text,
    /// and is dropped with the indentation after it. Escaped line breaks (`\n`) are text.
    /// Returns where the text of the body `start..end` ends (`end` when it has no layout).
    #[inline(always)]
    fn layout_start(&self, start: usize, end: usize) -> usize {
        if end == start || !matches!(self.b[end - 1], b' ' | b'\t' | b'\n') {
            return end;
        }
        self.layout_start_slow(start, end)
    }

    /// [`layout_start`](Self::layout_start) where the body ends in a blank or line break.
    #[inline(never)]
    fn layout_start_slow(&self, start: usize, end: usize) -> usize {
        let b = self.b;
        let mut k = end;
        while k > start && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        if k == start || b[k - 1] != b'\n' || k - 1 > start && b[k - 2] == b'\\' {
            return end;
        }
        let mut k = k - 1;
        if k > start && b[k - 1] == b'\r' {
            k -= 1;
        }
        // A text begun on the quote's line whose last line holds only a quote: the closing
        // quote written twice (`"hello\n"\n",`). A text begun on a new line is a block of
        // lines, and a lone quote there is one of them.
        if b[start] != b'\n' && b[start] != b'\r' {
            let mut j = k;
            while j > start && matches!(b[j - 1], b' ' | b'\t') {
                j -= 1;
            }
            if j > start + 1 && b[j - 1] == b'"' && b[j - 2] == b'\n' {
                k = j - 2;
            }
        }
        k
    }

    /// A string's text without trailing whitespace (a string whose closing quote was missing
    /// ends at the last character before its stop).
    fn trim_end(&mut self, text: Text) -> Text {
        match text {
            Text::Input { start, end, safe } => Text::Input {
                start,
                end: start + self.src[start..end].trim_end().len(),
                safe,
            },
            Text::Scratch | Text::Streamed => {
                let keep = self.scratch.trim_end().len();
                self.scratch.truncate(keep);
                text
            }
        }
    }

    /// The body of a block (triple quotes, a fenced code block) as a reader means it: a fence's
    /// info string (`typescript`) and the line breaks next to the quotes dropped, the common
    /// indentation removed, and lines of only spaces left empty (as Python's
    /// `textwrap.dedent` leaves them).
    fn dedent(&mut self, q: Quote, text: Text) -> Text {
        let raw = match text {
            Text::Input { start, end, .. } => self.src[start..end].to_owned(),
            // (A block is never streamed.)
            Text::Scratch | Text::Streamed => std::mem::take(&mut self.scratch),
        };
        let mut body = raw.as_str();
        if let Some(nl) = body.find('\n') {
            let first = &body[..nl];
            let info = first.trim();
            // ```` ```typescript main.ts ```` or an empty first line: not part of the text.
            if info.is_empty()
                || (q == Quote::Fence
                    && !info.contains(['"', '\'', '(', '{', '[', ';', '='])
                    && info.split_whitespace().count() <= 2)
            {
                body = &body[nl + 1..];
            }
        }
        let body = body.trim_end();
        let indent = body
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
            .min()
            .unwrap_or(0);
        self.scratch.clear();
        for (n, line) in body.lines().enumerate() {
            if n > 0 {
                self.scratch.push('\n');
            }
            if !line.trim_start_matches([' ', '\t']).is_empty() {
                self.scratch
                    .push_str(line.get(indent..).unwrap_or(line.trim_start()));
            }
        }
        Text::Scratch
    }

    /// An escape at the cursor (a backslash) inside a body ending at `end`, appended to
    /// `scratch`. Returns false when the input ends inside it.
    fn escape(&mut self, q: Quote, bad: &mut bool, end: usize) -> bool {
        let start = self.pos;
        let Some(c) = self.b.get(start + 1).copied().filter(|_| start + 1 < end) else {
            // A lone backslash before a string's end stands for itself; at the very end of the
            // input it is an escape cut off from what it escaped.
            if end == self.b.len() {
                self.pos = end;
                return false;
            }
            self.scratch.push('\\');
            self.bad_escape(bad, start);
            self.pos = start + 1;
            return true;
        };
        self.pos = start + 2;
        let simple = match c {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            b'\'' => {
                if q != Quote::Single && q != Quote::OtherSingle {
                    self.bad_escape(bad, start);
                }
                Some('\'')
            }
            b'u' => return self.unicode_escape(bad, end),
            // A backslash before a line break continues the line, as in a shell script.
            b'\n' => {
                self.bad_escape(bad, start);
                Some('\n')
            }
            b'\r' if self.b.get(start + 2) == Some(&b'\n') && start + 2 < end => {
                self.bad_escape(bad, start);
                self.scratch.push('\r');
                self.pos += 1;
                Some('\n')
            }
            _ => None,
        };
        match simple {
            Some(ch) => self.scratch.push(ch),
            // A backslash before a character outside ASCII (`\„`) escapes nothing a path or
            // a regular expression would: the character alone.
            None if c >= 0x80 => {
                self.bad_escape(bad, start);
                self.pos = start + 1;
            }
            None => {
                // Not an escape JSON knows (`\x`, a Windows path): keep the backslash, and let
                // the next character be read as itself.
                self.scratch.push('\\');
                self.pos = start + 1;
                self.bad_escape(bad, start);
            }
        }
        true
    }

    fn bad_escape(&mut self, bad: &mut bool, at: usize) {
        if !*bad {
            *bad = true;
            self.repair(RepairKind::InvalidEscape, at);
        }
    }

    /// `\uXXXX` (the cursor is after the `u`), with surrogate pairs joined and lone surrogates
    /// replaced by U+FFFD.
    fn unicode_escape(&mut self, bad: &mut bool, end: usize) -> bool {
        let start = self.pos - 2;
        let Some(unit) = self.hex4(self.pos, end) else {
            if self.pos + 4 > end
                && end == self.b.len()
                && self.b[self.pos..end].iter().all(u8::is_ascii_hexdigit)
            {
                self.pos = end;
                return false;
            }
            self.scratch.push('\\');
            self.pos = start + 1;
            self.bad_escape(bad, start);
            return true;
        };
        self.pos += 4;
        let ch = match unit {
            0xD800..=0xDBFF => {
                let low = match self.b.get(self.pos..self.pos + 2) {
                    Some(b"\\u") => self.hex4(self.pos + 2, end),
                    _ => None,
                };
                match low {
                    Some(low @ 0xDC00..=0xDFFF) => {
                        self.pos += 6;
                        let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        char::from_u32(c)
                    }
                    _ => None,
                }
            }
            _ => char::from_u32(unit),
        };
        match ch {
            Some(ch) => self.scratch.push(ch),
            None => {
                self.scratch.push('\u{FFFD}');
                self.bad_escape(bad, start);
            }
        }
        true
    }

    fn hex4(&self, at: usize, end: usize) -> Option<u32> {
        if at + 4 > end {
            return None;
        }
        let digits = self.b.get(at..at + 4)?;
        let mut n = 0;
        for &d in digits {
            n = n * 16 + (d as char).to_digit(16)?;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::{skip_plain_words, PART};
    use crate::repair::log::Counter;
    use crate::repair::parser::Parser;
    use crate::repair::sink::TextSink;
    use crate::repair::{parse, to_string, RepairOptions};

    /// The text output of `input` (whose long strings are written a part at a time) and the
    /// value's (whose strings are whole): the same, with the same fixes. Returns the text.
    fn text_as_value(input: &str) -> String {
        let options = RepairOptions::default();
        let text = to_string(input, &options).unwrap();
        let value = parse(input, &options).unwrap();
        assert_eq!(text.json, serde_json::to_string(&value.value).unwrap());
        assert!(text.repairs.iter().eq(value.repairs.iter()));
        text.json
    }

    #[test]
    fn a_long_string_is_written_a_part_at_a_time_as_it_would_be_whole() {
        // An invalid escape, its backslash kept, a million times.
        let n = 1 << 18;
        assert_eq!(
            text_as_value(&format!("{{\"a\": \"{}\", \"b\": 1}}", r"\u12".repeat(n))),
            format!(r#"{{"a":"{}","b":1}}"#, r"\\u12".repeat(n))
        );
        // The layout before a closing quote on its own line is dropped, and with it the
        // quote of a closing quote written twice; here they come at the end of the last part
        // handed over (the run after the escape is exactly two parts).
        let layout = "\n\"\n  ";
        let body = format!(r"\t{}{layout}", "a".repeat(2 * PART - layout.len()));
        assert_eq!(
            text_as_value(&format!("[\"{body}\"]")),
            format!(r#"["\t{}"]"#, "a".repeat(2 * PART - layout.len()))
        );
        // Cut off: the blanks at the end (longer than a part) are no text.
        let input = format!("[\"\\t{}{}", "b".repeat(PART), " ".repeat(3 * PART));
        assert_eq!(
            text_as_value(&input),
            format!(r#"["\t{}"]"#, "b".repeat(PART))
        );
        // Not a value after all: a key in an array (`["k": 1]`), a part of a `+`.
        let long = format!(r"\n{}", "c".repeat(PART));
        assert_eq!(
            text_as_value(&format!("[\"{long}\": 1]")),
            format!(r#"[{{"\n{}":1}}]"#, "c".repeat(PART))
        );
        assert_eq!(
            text_as_value(&format!("{{\"a\": \"{long}\" + 'd'}}")),
            format!(r#"{{"a":"\n{}d"}}"#, "c".repeat(PART))
        );
    }

    #[test]
    fn a_long_string_of_escapes_is_never_held_whole() {
        let input = format!("[\"{}\"]", r"\u12".repeat(1 << 20));
        let mut p = Parser::<TextSink, Counter>::new(&input, &RepairOptions::default(), false);
        p.document().unwrap();
        assert!(p.scratch.capacity() <= 2 * PART, "{}", p.scratch.capacity());
        assert_eq!(p.sink.finish().len(), input.len() + (1 << 20));
    }

    #[test]
    fn word_skip_stops_at_the_word_holding_a_stop_and_never_past_it() {
        // Plain bytes include a space, DEL, `'` and UTF-8, which must not stop the scan.
        let plain = "ab c\u{7f}'é日".as_bytes();
        for stop in [b'"', b'\\', 0x00, 0x0a, 0x1f] {
            for at in 0..40 {
                let mut b: Vec<u8> = plain.iter().copied().cycle().take(48).collect();
                b[at] = stop;
                for from in 0..=at {
                    let end = skip_plain_words(&b, from);
                    // Whole words before the stop are skipped; the word holding it is not.
                    assert_eq!(
                        end,
                        from + (at - from) / 8 * 8,
                        "stop {stop:#x} at {at} from {from}"
                    );
                }
            }
        }
        let plain: Vec<u8> = plain.iter().copied().cycle().take(21).collect();
        assert_eq!(skip_plain_words(&plain, 0), 16);
        assert_eq!(skip_plain_words(&plain, 14), 14);
        assert_eq!(skip_plain_words(&plain, 21), 21);
        assert_eq!(skip_plain_words(&plain, 30), 30);
    }
}
