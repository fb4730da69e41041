//! The lenient parser itself: a cursor over bytes, one small method per token.
//!
//! Invariants that keep it total and linear:
//! * the cursor only moves forward, and every loop iteration either moves it or returns;
//! * slices of the input are taken only at positions of ASCII bytes or at the lead byte of a
//!   multi-byte character, so they are always on character boundaries;
//! * lookahead ([`Parser::key_follows`], [`Parser::string_end`]) reads at most up to the next
//!   key, which the cursor then passes over once: each byte is read a bounded number of times;
//! * recursion happens only in [`Parser::object`] and [`Parser::array`], after the depth check.

mod containers;
mod strings;

use std::cell::Cell;

use super::log::{Log, Path, Seg, ROOT};
use super::sink::{Int, Sink};
use super::{RepairError, RepairKind, RepairOptions, MAX_DEPTH_CAP};
use crate::extract::{reasoning_block_end, BlockEnd, Closers};
use strings::{Quote, KEY_LOOK, LOOK_PER_BYTE};

/// Where a value sits: decides where strings and unquoted values end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Root,
    Key,
    Member,
    Item,
}

/// Where a string's decoded text is: a range of the input (nothing needed decoding), or the
/// parser's scratch buffer.
#[derive(Debug, Clone, Copy)]
enum Text {
    /// `safe`: the range holds no `"`, `\` or control character, so it is already the body of
    /// a JSON string.
    Input {
        start: usize,
        end: usize,
        safe: bool,
    },
    Scratch,
    /// A long string value the sink was handed in parts while it was decoded (see
    /// `strings::PART`): the scratch buffer holds its last part, and
    /// [`emit_string`](Parser::emit_string) ends it.
    Streamed,
}

/// Whether the two bytes after `at` are `x` and `y` (no slice comparison: this is hot).
fn next2(b: &[u8], at: usize, x: u8, y: u8) -> bool {
    b.get(at + 1) == Some(&x) && b.get(at + 2) == Some(&y)
}

/// Boxed inside the parser: errors are rare, and a two-word `Result` travels in registers
/// through every call where the 40-byte error would not.
type Result<T> = std::result::Result<T, Box<RepairError>>;

/// Parses `input` into a sink of type `S`, logging fixes into `L`. Returns both and the number
/// of fixes.
pub(super) fn run<'a, S: Sink<'a>, L: Log>(
    input: &'a str,
    options: &RepairOptions,
) -> std::result::Result<(S, L, usize), RepairError> {
    run_noting_mode(input, options).map(|(sink, log, count, _)| (sink, log, count))
}

/// [`run`], saying whether the parse that came to the result was the careful one (for
/// [`run_in_mode`] to make the same parse again).
pub(super) fn run_noting_mode<'a, S: Sink<'a>, L: Log>(
    input: &'a str,
    options: &RepairOptions,
) -> std::result::Result<(S, L, usize, bool), RepairError> {
    match run_once::<S, L>(input, options, false) {
        Ok((sink, log, count)) => Ok((sink, log, count, false)),
        // A guess about a missing quote led nowhere: read again without guessing, once, so a
        // document is never lost to a heuristic (linear: at most two parses).
        Err((e, true)) => run_once::<S, L>(input, options, true)
            .map(|(sink, log, count)| (sink, log, count, true))
            .map_err(|(e, _)| e)
            .or(Err(e)),
        Err((e, false)) => Err(e),
    }
}

/// One parse, careful or not (see [`run_noting_mode`]).
pub(super) fn run_in_mode<'a, S: Sink<'a>, L: Log>(
    input: &'a str,
    options: &RepairOptions,
    careful: bool,
) -> std::result::Result<(S, L, usize), RepairError> {
    run_once::<S, L>(input, options, careful).map_err(|(e, _)| e)
}

/// One parse. `careful`: no guesses that a quote was missing before what the text holds (see
/// [`strings`]). The error says whether such a guess was made.
fn run_once<'a, S: Sink<'a>, L: Log>(
    input: &'a str,
    options: &RepairOptions,
    careful: bool,
) -> std::result::Result<(S, L, usize), (RepairError, bool)> {
    let mut p = Parser::new(input, options, careful);
    if let Err(e) = p.document() {
        // Noise is noise however its quotes are read: no second, careful parse.
        return Err((*e, p.guessed && !p.over_budget));
    }
    if p.over_budget {
        return Err((*p.over_budget_error(), false));
    }
    let (mut sink, mut log, mut count) = (p.sink, p.log, p.count);
    if options.unwrap_double_encoded {
        unwrap_double_encoded(&mut sink, &mut log, &mut count, options);
    }
    Ok((sink, log, count))
}

/// A top-level string holding an object or array is replaced by what it holds. The inner
/// document's fixes follow, with offsets into the decoded string.
fn unwrap_double_encoded<'a, S: Sink<'a>, L: Log>(
    sink: &mut S,
    log: &mut L,
    count: &mut usize,
    options: &RepairOptions,
) {
    if let Some((inner_log, inner_count)) = sink.unwrap_root::<L>(options) {
        log.push(RepairKind::DoubleEncoded, 0, ROOT);
        log.append(inner_log);
        *count += 1 + inner_count;
    }
}

/// The document a top-level string `root` holds, parsed into a new sink, when it is an object
/// or array (for [`Sink::unwrap_root`]).
pub(super) fn inner_document<S: for<'x> Sink<'x>, L: Log>(
    root: &str,
    options: &RepairOptions,
) -> Option<(S, L, usize)> {
    let t = root.trim();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    let inner_options = RepairOptions {
        unwrap_double_encoded: false,
        ..options.clone()
    };
    run::<S, L>(t, &inner_options).ok()
}

struct Parser<'a, S, L: Log> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
    /// Objects and arrays currently open, to tell a wrong closer from an extra one.
    open_objects: usize,
    open_arrays: usize,
    open_tuples: usize,
    /// The member just read, when its value is an array: its key and item count, for an
    /// array written after it where a key should be.
    joinable: Option<(Seg, usize)>,
    /// Items of the array that closed last.
    last_items: usize,
    /// The string being read opened with a doubled quote (`""text""`, as CSV escapes
    /// quotes): a doubled quote closes it.
    doubled_quote: bool,
    /// An object left unclosed before the next item took the comma that separated them
    /// (`[{"a": 1,{"a": 2}]`): the array's next item needs no missing-comma fix.
    separated: bool,
    /// Whether the end-of-input repair has been recorded (once, at the innermost point).
    truncated: bool,
    path: Path<L::Node>,
    sink: S,
    log: L,
    /// Fixes recorded so far.
    count: usize,
    /// The kind and path node of the last fix recorded: a run of one fix in one value is
    /// recorded once.
    last: Option<(RepairKind, usize)>,
    /// Most fixes a document of this length can need before it is not JSON but noise (a
    /// megabyte of quotes); past it nothing more is recorded and the parse fails.
    budget: usize,
    over_budget: bool,
    /// What the fixes' pointers cost so far (`Path::pointer_charge`, the same whatever the
    /// log keeps), and how much a document of this length may have
    /// ([`pointer_budget`](crate::warning::pointer_budget)): a long key above many fixes
    /// would otherwise make far more pointer text than reply.
    pointers: usize,
    pointer_budget: usize,
    /// Decoded text of the string being read, when it had escapes.
    scratch: String,
    /// A number rewritten into JSON syntax.
    num: String,
    /// Bytes read ahead to decide where strings end, and how many may be (see [`strings`]).
    look: usize,
    look_budget: usize,
    /// Make no guess that a string's closing quote was missing before text it holds.
    careful: bool,
    /// Such a guess was made.
    guessed: bool,
    /// Where the searches for reasoning blocks' closers got to.
    closers: Cell<Closers>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// Bytes of a bare key: letters (any script), digits, `_ $ - .`.
fn is_key_char(c: u8) -> bool {
    is_ident(c) || matches!(c, b'-' | b'.') || c >= 0x80
}

/// The length of a Unicode space other than JSON's four at the start of `b`, if one is:
/// U+00A0, U+180E, U+2000-U+200B, U+202F, U+205F, U+3000, U+FEFF.
fn other_space(b: &[u8]) -> Option<usize> {
    match b {
        [0xC2, 0xA0, ..] => Some(2),
        [0xE1, 0xA0, 0x8E, ..]
        | [0xE2, 0x80, 0x80..=0x8B | 0xAF, ..]
        | [0xE2, 0x81, 0x9F, ..]
        | [0xE3, 0x80, 0x80, ..]
        | [0xEF, 0xBB, 0xBF, ..] => Some(3),
        _ => None,
    }
}

fn is_ident(c: u8) -> bool {
    IDENT[usize::from(c)] != 0
}

/// Word bytes by table, one load each where a run of them is read: 1 for a letter, a digit
/// or `_`; 2 for `$`, which a word (a JavaScript name) may hold but the plain run at the
/// start of a bare key does not.
static IDENT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[c] = 1;
        }
        c += 1;
    }
    t[b'$' as usize] = 2;
    t
};

/// ASCII bytes that are neither whitespace nor the start of a comment (`/`, `#`) or of a
/// reasoning block (`<`): where [`Parser::skip_ws`] stops at once.
static TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = b'!';
    while c < 0x80 {
        t[c as usize] = c != b'/' && c != b'#' && c != b'<';
        c += 1;
    }
    t
};

/// A letter, a digit or `_`: what nearly every bare key is made of.
fn is_key_byte(c: u8) -> bool {
    IDENT[usize::from(c)] == 1
}

/// Bytes that, glued to a number, make it text (`12abc`, `2024-01-05`, `12:30`, `10%`).
fn is_glue(c: u8) -> bool {
    is_ident(c) || matches!(c, b'-' | b'+' | b'.' | b':' | b'%' | b'/') || c >= 0x80
}

impl<'a, S: Sink<'a>, L: Log> Parser<'a, S, L> {
    // ----- plumbing -------------------------------------------------------------------------

    fn new(input: &'a str, options: &RepairOptions, careful: bool) -> Self {
        Parser {
            src: input,
            b: input.as_bytes(),
            pos: 0,
            depth: 0,
            max_depth: options.max_depth.min(MAX_DEPTH_CAP),
            open_objects: 0,
            open_arrays: 0,
            open_tuples: 0,
            joinable: None,
            last_items: 0,
            doubled_quote: false,
            separated: false,
            truncated: false,
            path: Path::default(),
            sink: S::new(input.len()),
            log: L::new(),
            count: 0,
            last: None,
            budget: 64 + input.len() / 4,
            over_budget: false,
            pointers: 0,
            pointer_budget: crate::warning::pointer_budget(input.len()),
            scratch: String::new(),
            num: String::new(),
            look: 0,
            look_budget: 4096 + input.len().saturating_mul(LOOK_PER_BYTE),
            careful,
            guessed: false,
            closers: Cell::default(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn error(&self, message: impl Into<String>) -> Box<RepairError> {
        Box::new(RepairError {
            depth_exceeded: false,
            offset: self.pos,
            message: message.into(),
        })
    }

    /// Noise, not JSON: more fixes than the budget allows. The containers' loops stop on it at
    /// once, so what is read after the budget ran out is neither parsed nor held.
    fn over_budget_error(&self) -> Box<RepairError> {
        let message = if self.pointers > self.pointer_budget {
            crate::warning::over_pointer_budget(self.pointer_budget)
        } else {
            "more fixes than any JSON document needs (over one per 4 bytes)".to_owned()
        };
        Box::new(RepairError {
            depth_exceeded: false,
            offset: self.pos,
            message,
        })
    }

    /// Fails once the fix budget is spent (see [`over_budget_error`](Self::over_budget_error)).
    #[inline(always)]
    fn within_budget(&self) -> Result<()> {
        if self.over_budget {
            return Err(self.over_budget_error());
        }
        Ok(())
    }

    /// Records a fix. A fix of the same kind in the same value as the fix just recorded is
    /// not recorded again (`[1,,,,,2]` is one extra-comma fix), so hostile input cannot turn a
    /// megabyte of commas into a million warnings.
    fn repair(&mut self, kind: RepairKind, offset: usize) {
        if self.over_budget {
            return;
        }
        let node = self.path.node(&mut self.log, self.src);
        if self.last == Some((kind, node)) {
            return;
        }
        if self.count >= self.budget {
            self.over_budget = true;
            return;
        }
        self.pointers += self.path.pointer_charge();
        if self.pointers > self.pointer_budget {
            self.over_budget = true;
            return;
        }
        self.count += 1;
        self.last = Some((kind, node));
        self.log.push(kind, offset, node);
    }

    /// A number with no fraction or exponent, too large for 64 bits, that the sink is about to
    /// be handed as a float at `offset` (`text` as it goes; recorded first, so that a sink
    /// that hands each item on as it comes sends the record with it, and the sink is told its
    /// span after, [`Sink::ended`]): where the sink builds a value, which holds
    /// it as an `f64`, and that loses digits, the log is told. No fix, none counted (the JSON
    /// text keeps the digits), and never an error: so that every output of the parser fails
    /// alike. Its pointer is charged as a fix's while the budget lasts; past it, the integer
    /// is recorded at the top level, its offset still exact, so that every record is
    /// bounded (a long key above many such integers would make far more pointer text than
    /// reply). Where the log keeps spans, the integer's is kept too (`end`, where it was
    /// written as it stands in the input), at its own pointer only: a string schema then
    /// gets its digits as the reply writes them (`pipeline::as_written`).
    #[inline(never)]
    fn rounded(&mut self, offset: usize, end: Option<usize>, text: &str) {
        // (Called where [`rounds`] holds: the callers ask it first, before the sink has the
        // float.)
        debug_assert!(rounds::<S>(text));
        // (The nodes on the way are made first: the charge is the innermost one's.)
        let node = self.path.node(&mut self.log, self.src);
        let charge = self.path.pointer_charge();
        if self.pointers + charge > self.pointer_budget {
            return self.log.rounded(offset, ROOT);
        }
        self.pointers += charge;
        self.log.rounded(offset, node);
        if let (true, Some(end)) = (L::SPANS, end) {
            self.log.span(node, offset, end);
        }
    }

    /// Records the end of input once, at the innermost point it was met.
    fn truncate(&mut self) {
        if !self.truncated {
            self.truncated = true;
            self.repair(RepairKind::Truncated, self.b.len());
        }
    }

    /// Hands a string's decoded text to the sink.
    fn emit_string(&mut self, t: Text) {
        match t {
            Text::Input { start, end, safe } => self.sink.input_string(&self.src[start..end], safe),
            Text::Scratch => self.sink.string(&self.scratch, false),
            Text::Streamed => {
                self.sink.string_part(&self.scratch);
                self.sink.end_string();
            }
        }
    }

    fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(Box::new(RepairError {
                depth_exceeded: true,
                offset: self.pos,
                message: format!("nesting deeper than {}", self.max_depth),
            }));
        }
        self.depth += 1;
        Ok(())
    }

    /// Skips whitespace, comments (`//`, `/* */`, and `#` followed by a space) and reasoning
    /// blocks, recording each comment and block.
    #[inline(always)]
    fn skip_ws(&mut self) {
        // Most calls stand on a token, or on one space before it.
        let mut at = self.pos;
        if self.b.get(at) == Some(&b' ') {
            at += 1;
        }
        match self.b.get(at) {
            Some(&c) if TOKEN[usize::from(c)] => self.pos = at,
            _ => self.skip_ws_slow(),
        }
    }

    #[inline(never)]
    fn skip_ws_slow(&mut self) {
        loop {
            loop {
                if self.pos < self.b.len() && is_ws(self.b[self.pos]) {
                    self.pos += 1;
                } else if let Some(n) = other_space(&self.b[self.pos..]) {
                    // A no-break, zero-width or ideographic space between tokens: whitespace.
                    self.pos += n;
                } else {
                    break;
                }
            }
            if !matches!(self.peek(), Some(b'/' | b'#' | b'<')) {
                return;
            }
            let start = self.pos;
            if self.peek() == Some(b'<') {
                // A reasoning block between two tokens is no part of the JSON.
                let Some(block) = self.reasoning_at(start) else {
                    return;
                };
                self.pos = block.end;
                self.repair(RepairKind::StrayText, start);
                if !block.closed {
                    self.truncate();
                    return;
                }
                continue;
            }
            match (self.peek(), self.b.get(self.pos + 1).copied()) {
                (Some(b'/'), Some(b'/')) => self.pos = line_comment_end(self.b, self.pos, false),
                (Some(b'#'), None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'#' | b'!')) => {
                    self.pos = line_comment_end(self.b, self.pos, true)
                }
                (Some(b'/'), Some(b'*')) => {
                    let body = self.pos + 2;
                    match self.b.get(body..).and_then(|rest| find2(rest, b'*', b'/')) {
                        Some(i) => self.pos = body + i + 2,
                        None => {
                            self.pos = self.b.len();
                            self.repair(RepairKind::Comment, start);
                            self.truncate();
                            return;
                        }
                    }
                }
                _ => return,
            }
            self.repair(RepairKind::Comment, start);
        }
    }

    /// The reasoning block (`<think>…</think>`) starting at `i`, if one does: a model that
    /// reasons halfway through its answer writes one between two tokens.
    fn reasoning_at(&self, i: usize) -> Option<BlockEnd> {
        let mut closers = self.closers.get();
        let block = reasoning_block_end(self.b, i, &mut closers);
        self.closers.set(closers);
        block
    }

    /// Whether a comment starts at `i` (`//` or `/*`).
    fn comment_at(&self, i: usize) -> bool {
        self.b.get(i) == Some(&b'/') && matches!(self.b.get(i + 1), Some(b'/' | b'*'))
    }

    /// `...` or `…` standing for omitted items: its length in bytes.
    fn ellipsis_len(&self) -> Option<usize> {
        let b = self.b;
        let at = self.pos;
        match b.get(at)? {
            b'.' if next2(b, at, b'.', b'.') => {
                Some(b[at..].iter().take_while(|&&c| c == b'.').count())
            }
            0xE2 if next2(b, at, 0x80, 0xA6) => Some(3),
            _ => None,
        }
    }

    /// Whether a key starts at `i`, after whitespace and comments: a quoted key or a bare one
    /// (words, up to [`KEY_LOOK`] bytes) followed by `:`. The end of input and `}` count too
    /// (a trailing comma, or truncation). Reads at most a key's length ahead.
    fn key_follows(&self, i: usize) -> bool {
        let b = self.b;
        let (mut i, _) = self.skip_gap(i);
        let Some(&c) = b.get(i) else { return true };
        if c == b'}' {
            return true;
        }
        if let Some((q, len)) = Quote::at(b, i) {
            let body = i + len;
            let limit = (body + KEY_LOOK).min(b.len());
            let mut k = body;
            if matches!(q, Quote::Double | Quote::Single) {
                // The common quotes, closed by the byte they open with: a tight loop.
                let quote = b[i];
                while k < limit {
                    match b[k] {
                        c if c == quote => {
                            let (j, _) = self.skip_gap(k + 1);
                            return b.get(j).is_none_or(|&d| d == b':');
                        }
                        b'\\' => k += 2,
                        b'\n' => return false,
                        _ => k += 1,
                    }
                }
                return true;
            }
            while k < limit {
                match b[k] {
                    b'\\' => k += 2,
                    // A key holds no line break.
                    b'\n' => return false,
                    _ => match q.closes_at(b, k) {
                        Some(close) => {
                            let (j, _) = self.skip_gap(k + close);
                            return b.get(j).is_none_or(|&d| d == b':');
                        }
                        None => k += 1,
                    },
                }
            }
            // Cut off inside the key, or a key too long to look through: taken as a key, so
            // that valid JSON with long keys reads as it is.
            return true;
        }
        if !is_key_char(c) {
            return false;
        }
        let limit = (i + KEY_LOOK).min(b.len());
        while i < limit {
            let c = b[i];
            let word = is_key_char(c);
            if !(word || c == b' ' && b.get(i + 1).is_some_and(|&d| is_key_char(d))) {
                break;
            }
            i += 1;
        }
        // `b":`, a key whose opening quote is missing.
        if b.get(i) == Some(&b'"') {
            i += 1;
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        b.get(i).is_none_or(|&d| d == b':')
    }

    // ----- documents ------------------------------------------------------------------------

    fn document(&mut self) -> Result<()> {
        if self.src.starts_with('\u{feff}') {
            self.pos = 3;
        }
        self.skip_ws();
        self.fence_open();
        if self.pos >= self.b.len() {
            return Err(self.error("no JSON value"));
        }
        let wrapped = self.jsonp_open();
        // `[]{"a": 1}`: an empty value before the document's is nothing of it.
        if let Some(end) = self.empty_container_at(self.pos) {
            let (next, _) = self.skip_gap(end);
            let next = if self.b.get(next) == Some(&b',') {
                self.skip_gap(next + 1).0
            } else {
                next
            };
            let other_kind = self.b.get(next).is_some_and(|&c| c != self.b[self.pos]);
            if other_kind && self.value_starts_at(next) && self.empty_container_at(next).is_none() {
                self.repair(RepairKind::EmptyValue, self.pos);
                self.pos = next;
            }
        }
        let first_start = self.pos;
        if !self.value(Ctx::Root)? {
            return Err(self.error("no JSON value"));
        }
        if wrapped {
            self.jsonp_close();
        }
        let mut values = 1;
        let mut arrayed = false;
        // What an empty value beside the document's is dropped against: the first value's
        // opening byte, and whether it was empty.
        let first_empty = self.empty_container_at(first_start);
        let first_kind = self.b.get(first_start).copied();
        let mut first_repairs = self.count;
        let mut first_rounded = self.log.rounded_len();
        let mut separator = None;
        loop {
            self.within_budget()?;
            self.skip_ws();
            let Some(c) = self.peek() else { break };
            match c {
                b'}' | b']' => {
                    self.repair(RepairKind::ExtraCloser, self.pos);
                    self.pos += 1;
                }
                b',' | b';' => {
                    separator = Some(self.pos);
                    self.pos += 1;
                }
                b'`' if self.fence_len() >= 3 => self.pos += self.fence_len(),
                _ if self.empty_container_at(self.pos).is_some()
                    && (first_empty.is_none() || first_kind != self.peek()) =>
                {
                    // `{"a": 1}, []`: an empty value beside the document's adds nothing.
                    self.repair(RepairKind::EmptyValue, self.pos);
                    self.pos = self.empty_container_at(self.pos).unwrap_or(self.pos + 1);
                    separator = None;
                }
                _ if self.value_starts() => {
                    if !arrayed {
                        arrayed = true;
                        first_repairs = self.count;
                        first_rounded = self.log.rounded_len();
                        self.repair(RepairKind::MultipleValues, self.pos);
                        self.sink.root_to_array();
                    }
                    separator = None;
                    self.path.push(Seg::Index(values));
                    if self.value(Ctx::Root)? {
                        values += 1;
                    }
                    self.path.pop();
                }
                _ => return Err(self.error("unexpected text after the JSON value")),
            }
        }
        if let Some(at) = separator {
            self.repair(RepairKind::TrailingComma, at);
        }
        if arrayed {
            self.sink.end_array();
            self.log.prefix_first(first_repairs, first_rounded);
        }
        Ok(())
    }

    /// Where an empty object or array (`{}`, `[ ]`) that starts at `i` ends, if one does.
    fn empty_container_at(&self, i: usize) -> Option<usize> {
        let close = match self.b.get(i)? {
            b'{' => b'}',
            b'[' => b']',
            _ => return None,
        };
        let (j, _) = self.skip_gap(i + 1);
        (self.b.get(j) == Some(&close)).then_some(j + 1)
    }

    /// Whether a JSON value (not a bare word) starts at the cursor: what may follow a
    /// top-level value as another one.
    fn value_starts(&self) -> bool {
        self.value_starts_at(self.pos)
    }

    /// Whether a JSON value (not a bare word) starts at `i`.
    fn value_starts_at(&self, i: usize) -> bool {
        let b = self.b;
        match b.get(i) {
            Some(b'{' | b'[' | b'-' | b'0'..=b'9') => true,
            Some(_) => Quote::at(b, i).is_some() || strings::literal_at(b, i),
            None => false,
        }
    }

    /// The length of the run of backticks at the cursor.
    fn fence_len(&self) -> usize {
        self.b[self.pos..]
            .iter()
            .take_while(|&&c| c == b'`')
            .count()
    }

    /// A markdown fence around the whole document (```` ```json ````, also glued inside a
    /// bracket as in ```` [```json ````): skipped. Taking a reply out of its fence changes
    /// nothing the model wrote, so it is no fix; the closing fence is skipped after the value.
    fn fence_open(&mut self) {
        let start = self.pos;
        if matches!(self.peek(), Some(b'[' | b'{')) {
            self.pos += 1;
        }
        if self.fence_len() < 3 {
            self.pos = start;
            return;
        }
        self.pos += self.fence_len();
        while self.pos < self.b.len() && is_ident(self.b[self.pos]) {
            self.pos += 1;
        }
        self.skip_ws();
    }

    /// `callback(` before the value: skipped, and recorded.
    fn jsonp_open(&mut self) -> bool {
        let start = self.pos;
        let mut i = start;
        if !self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'$')
        {
            return false;
        }
        while i < self.b.len() && (is_ident(self.b[i]) || self.b[i] == b'.') {
            i += 1;
        }
        while i < self.b.len() && matches!(self.b[i], b' ' | b'\t') {
            i += 1;
        }
        if self.b.get(i) != Some(&b'(') {
            return false;
        }
        self.repair(RepairKind::Wrapper, start);
        self.pos = i + 1;
        self.skip_ws();
        true
    }

    fn jsonp_close(&mut self) {
        self.skip_ws();
        match self.peek() {
            None => self.truncate(),
            Some(b')') => {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b';') {
                    self.pos += 1;
                }
            }
            Some(_) => {}
        }
    }

    // ----- values ---------------------------------------------------------------------------

    /// A value at the cursor (whitespace already skipped), handed to the sink. False when the
    /// input ended before one began, or a number was cut off before its first digit.
    fn value(&mut self, ctx: Ctx) -> Result<bool> {
        let Some(c) = self.peek() else {
            self.truncate();
            return Ok(false);
        };
        match c {
            b'{' => self.object(ctx).map(|()| true),
            b'[' => self.array().map(|()| true),
            b'(' if self.tuple_starts() => self.tuple().map(|()| true),
            b'/' if self.regex_end().is_some() => {
                self.regex();
                Ok(true)
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(ctx),
            b'"' | b'\'' if ctx == Ctx::Member && self.plain_string(ctx) => Ok(true),
            _ => match Quote::at(self.b, self.pos) {
                Some((q, len)) => {
                    if q != Quote::Double {
                        self.repair(RepairKind::QuoteStyle, self.pos);
                    }
                    let body = self.pos + len;
                    let (text, complete, end) = self.string(q, len, ctx);
                    if !complete && self.src[body..end].trim().is_empty() {
                        // Cut off before its first character: no value yet (and a reply that
                        // is one opening quote holds none).
                        return Ok(false);
                    }
                    self.string_value(text, ctx);
                    Ok(true)
                }
                None => self.word(self.pos, ctx),
            },
        }
    }

    // ----- numbers and words ----------------------------------------------------------------

    /// A number at the cursor, handed to the sink; false when it was cut off before its first
    /// digit.
    fn number(&mut self, ctx: Ctx) -> Result<bool> {
        let start = self.pos;
        let b = self.b;
        if let Some(end) = plain_integer_end(b, start, ctx) {
            // The common number, `[1, 2]` or `{"id": 7}`: what the reading below hands over
            // for it, at once.
            let n = b[start..end]
                .iter()
                .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
            self.pos = end;
            self.sink.int(Int::Unsigned(n), &self.src[start..end]);
            return Ok(true);
        }
        let mut fix = false;
        let negative = b[start] == b'-';
        if matches!(b[start], b'-' | b'+') {
            fix |= b[start] == b'+';
            self.pos += 1;
        }
        if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            return self.word(start, ctx);
        }
        let int_start = self.pos;
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek() == Some(b'_') && b.get(self.pos + 1).is_some_and(u8::is_ascii_digit) {
            return self.separated_number(start, ctx);
        }
        if ctx == Ctx::Member
            && self.peek() == Some(b',')
            && b.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
            && !fix
        {
            if let Some(end) = self.thousands_end(int_start) {
                let text: String = self.src[start..end].chars().filter(|&c| c != ',').collect();
                self.pos = end;
                self.emit_separated(start, &text);
                return Ok(true);
            }
        }
        let int_end = self.pos;
        let int_digits = int_end - int_start;
        if int_digits > 1 && b[int_start] == b'0' {
            // `0789` is a code (a zip code, a phone number), not the number 789: kept as text.
            return self.word(start, ctx);
        }
        let mut frac = None;
        if self.peek() == Some(b'.') && b.get(self.pos + 1) != Some(&b'.') {
            self.pos += 1;
            let f = self.pos;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
            frac = Some(f..self.pos);
            fix |= f == self.pos || int_digits == 0;
            if f == self.pos && int_digits == 0 {
                return self.word(start, ctx);
            }
        } else if int_digits == 0 {
            if self.pos >= b.len() {
                self.truncate();
                return Ok(false);
            }
            return self.word(start, ctx);
        }
        let mut exp = None;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let e = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            let d = self.pos;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
            if d == self.pos {
                if self.pos >= b.len() {
                    // `1e` cut off: keep the number before the exponent.
                    self.pos = e;
                    self.emit_number(start, negative, fix, int_start..int_end, frac, None);
                    self.pos = b.len();
                    self.truncate();
                    return Ok(true);
                }
                if !self.peek().is_some_and(is_glue) {
                    // `2e` or `2e+` with no digits: the number before the exponent.
                    self.emit_number(start, negative, true, int_start..int_end, frac, None);
                    return Ok(true);
                }
                return self.word(start, ctx);
            }
            exp = Some(e..self.pos);
        }
        if ctx != Ctx::Root {
            if self.peek().is_some_and(is_glue) && !self.comment_at(self.pos) {
                return self.word(start, ctx);
            }
            if ctx == Ctx::Member {
                // `5 apples`: a number and words on the same line are one unquoted value.
                let mut i = self.pos;
                while i < b.len() && matches!(b[i], b' ' | b'\t') {
                    i += 1;
                }
                if i > self.pos
                    && b.get(i).is_some_and(|c| c.is_ascii_alphabetic())
                    && !self.key_follows(i)
                {
                    return self.word(start, ctx);
                }
            }
        }
        self.emit_number(start, negative, fix, int_start..int_end, frac, exp);
        if ctx != Ctx::Root && self.pos >= b.len() {
            // The input ends in the number: its last digits may be what was cut off, so the
            // cut is said here, at the number, not at the container left open around it.
            self.truncate();
        }
        Ok(true)
    }

    /// A number written with `_` between its digits (`82_461_110`, `1_234.5_6`), as Python and
    /// Rust allow: read without them. Anything else glued to it makes it a word.
    fn separated_number(&mut self, start: usize, ctx: Ctx) -> Result<bool> {
        let b = self.b;
        let mut i = start + usize::from(matches!(b[start], b'-' | b'+'));
        let mut text = String::new();
        if b[start] == b'-' {
            text.push('-');
        }
        let mut seen_dot = false;
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => text.push(char::from(c)),
                b'_' if b.get(i + 1).is_some_and(u8::is_ascii_digit)
                    && b[i - 1].is_ascii_digit() => {}
                b'.' if !seen_dot && b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    seen_dot = true;
                    text.push('.');
                }
                _ => break,
            }
            i += 1;
        }
        let digits = text.trim_start_matches('-');
        let leading_zero = digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0.");
        if leading_zero || (ctx != Ctx::Root && b.get(i).is_some_and(|&c| is_glue(c))) {
            return self.word(start, ctx);
        }
        self.pos = i;
        self.emit_separated(start, &text);
        Ok(true)
    }

    /// Where a member's value written with thousands separators (`1,250,000.5`) ends, when
    /// `int_start` begins one: one to three digits, then groups of exactly three digits each
    /// after a `,`, an optional fraction, and then the member's end. In an object nothing
    /// else can follow a value's `,` with a digit and no key, so the reading is not a guess;
    /// in an array `[1,250]` is two numbers and stays so.
    fn thousands_end(&self, int_start: usize) -> Option<usize> {
        let b = self.b;
        let mut i = int_start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if !(1..=3).contains(&(i - int_start)) || b[int_start] == b'0' {
            return None;
        }
        let mut groups = 0;
        while b.get(i) == Some(&b',')
            && b.get(i + 1..i + 4)
                .is_some_and(|g| g.iter().all(u8::is_ascii_digit))
            && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
        {
            i += 4;
            groups += 1;
        }
        if groups == 0 {
            return None;
        }
        if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let mut j = i;
        while b.get(j).is_some_and(|&c| c == b' ' || c == b'\t') {
            j += 1;
        }
        match b.get(j) {
            None | Some(b',' | b'}' | b'#' | b'\n' | b'\r') => Some(i),
            Some(_) if self.comment_at(j) => Some(i),
            Some(_) => None,
        }
    }

    /// Hands a number whose separators are removed (`text`) to the sink, with a warning at
    /// `start`.
    fn emit_separated(&mut self, start: usize, text: &str) {
        self.repair(RepairKind::NumberFormat, start);
        let digits = text.trim_start_matches('-');
        let seen_dot = digits.contains('.');
        let integer = if seen_dot {
            None
        } else {
            small_integer(digits.as_bytes())
        };
        match (seen_dot, integer) {
            (false, Some(n)) if !text.starts_with('-') => self.sink.int(Int::Unsigned(n), text),
            (false, Some(n)) if n <= 1 << 63 && n != 0 => self
                .sink
                .int(Int::Negative((n as i64).wrapping_neg()), text),
            _ => {
                if !seen_dot && rounds::<S>(text) {
                    // (Written with separators: not as its value's digits.)
                    self.rounded(start, None, text);
                }
                if !self.sink.float(text) {
                    self.repair(RepairKind::NonFinite, start);
                }
            }
        }
    }

    /// Hands the number whose parts have been scanned (it ends at the cursor) to the sink:
    /// as written when that is valid JSON, else normalised (`+1` is `1`, `.5` is `0.5`), with
    /// the value `serde_json` gives that text.
    fn emit_number(
        &mut self,
        start: usize,
        negative: bool,
        fix: bool,
        int: std::ops::Range<usize>,
        frac: Option<std::ops::Range<usize>>,
        exp: Option<std::ops::Range<usize>>,
    ) {
        if fix {
            self.repair(RepairKind::NumberFormat, start);
            self.num.clear();
            if negative {
                self.num.push('-');
            }
            let digits = self.src[int.clone()].trim_start_matches('0');
            self.num
                .push_str(if digits.is_empty() { "0" } else { digits });
            if let Some(f) = frac.clone() {
                self.num.push('.');
                self.num
                    .push_str(if f.is_empty() { "0" } else { &self.src[f] });
            }
            if let Some(e) = exp.clone() {
                self.num.push_str(&self.src[e]);
            }
        }
        let text = if fix {
            &self.num
        } else {
            &self.src[start..self.pos]
        };
        let integer = frac.is_none() && exp.is_none();
        if integer {
            if let Some(n) = small_integer(&self.b[int]) {
                if !negative {
                    return self.sink.int(Int::Unsigned(n), text);
                }
                // As serde_json: `-0` and values below i64::MIN are floats.
                let neg = (n as i64).wrapping_neg();
                if neg < 0 || n == 1 << 63 {
                    return self.sink.int(Int::Negative(neg), text);
                }
            }
        }
        if integer && rounds::<S>(text) {
            // (The text is owned by the parser when it was normalised: copied out first.)
            let text = text.to_owned();
            self.rounded(start, Some(self.pos), &text);
            self.sink.float(&text);
            if S::ENDS {
                self.sink.ended(start, self.pos);
            }
            return;
        }
        if !self.sink.float(text) {
            self.repair(RepairKind::NonFinite, start);
        }
    }

    /// A bare word at `start`: a literal (JSON, Python, JavaScript), a literal cut off by the end
    /// of input, or (inside a container) an unquoted value.
    fn word(&mut self, start: usize, ctx: Ctx) -> Result<bool> {
        let b = self.b;
        if b[start] < 0x20 {
            // A control character is no text a value could begin with.
            self.pos = start;
            return Err(self.error("expected a value"));
        }
        let mut i = start;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let word = &self.src[start..i];
        let delimited = match b.get(i) {
            None => true,
            Some(&c) => {
                is_ws(c)
                    || matches!(
                        c,
                        b',' | b'}' | b']' | b'{' | b'[' | b':' | b')' | b';' | b'/' | b'#' | b'"'
                    )
            }
        };
        if delimited {
            let literal = match word {
                "true" => Some((Some(true), None)),
                "false" => Some((Some(false), None)),
                "null" => Some((None, None)),
                "True" | "TRUE" => Some((Some(true), Some(RepairKind::Literal))),
                "False" | "FALSE" => Some((Some(false), Some(RepairKind::Literal))),
                "None" | "NULL" | "undefined" => Some((None, Some(RepairKind::Literal))),
                // Inside a document; a reply that is just the word may mean the word.
                "Null" if ctx != Ctx::Root => Some((None, Some(RepairKind::Literal))),
                "NaN" | "-NaN" | "Infinity" | "-Infinity" | "+Infinity" => {
                    Some((None, Some(RepairKind::NonFinite)))
                }
                _ => None,
            };
            if let Some((value, kind)) = literal {
                self.pos = i;
                if let Some(kind) = kind {
                    self.repair(kind, start);
                }
                self.literal(value);
                return Ok(true);
            }
            if i == b.len() && !word.is_empty() {
                let cut = ["true", "false", "null", "True", "False", "None"]
                    .iter()
                    .find(|lit| lit.starts_with(word));
                if let Some(lit) = cut {
                    self.pos = i;
                    self.truncate();
                    self.literal(match lit.as_bytes()[0] {
                        b't' | b'T' => Some(true),
                        b'f' | b'F' => Some(false),
                        _ => None,
                    });
                    return Ok(true);
                }
            }
        }
        if ctx == Ctx::Root {
            self.pos = start;
            return Err(self.error("no JSON value"));
        }
        if let Some(open) = self.call_open(i).filter(|_| i > start) {
            return self.wrapped(start, open, ctx);
        }
        self.unquoted(start, ctx).map(|()| true)
    }

    /// Whether the word ending at `end` is a function called on a value (`ObjectId("…")`,
    /// `NumberLong(2)`): where its `(` is.
    fn call_open(&self, end: usize) -> Option<usize> {
        let b = self.b;
        let mut i = end;
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if b.get(i) != Some(&b'(') {
            return None;
        }
        let inner = self.skip_blank(i + 1);
        (b.get(inner) == Some(&b')') || self.value_starts_at(inner)).then_some(i)
    }

    /// A value wrapped in a function call, as MongoDB shells print them: the value alone.
    fn wrapped(&mut self, start: usize, open: usize, ctx: Ctx) -> Result<bool> {
        self.repair(RepairKind::Wrapper, start);
        self.pos = open + 1;
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.pos += 1;
            self.sink.null();
            return Ok(true);
        }
        let complete = self.value(ctx)?;
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.pos += 1;
        }
        Ok(complete)
    }

    /// A JavaScript regular expression literal (`/[a-z]+/i`): its text, slashes and flags
    /// included, as a string.
    fn regex(&mut self) {
        let start = self.pos;
        let end = self.regex_end().unwrap_or(self.b.len());
        self.pos = end;
        self.repair(RepairKind::UnquotedValue, start);
        self.sink.input_string(&self.src[start..end], false);
    }

    /// Where a regular expression literal at the cursor ends (after its flags), if one is
    /// there: its closing `/` is on the same line, and the value ends after the flags. A path
    /// such as `/post/[id]` goes on after its second slash: it is an unquoted value.
    fn regex_end(&self) -> Option<usize> {
        let b = self.b;
        let mut i = self.pos + 1;
        while i < b.len() && b[i] != b'/' && b[i] != b'\n' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        if b.get(i) != Some(&b'/') || i == self.pos + 1 {
            return None;
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let mut j = i;
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        match b.get(j) {
            None | Some(b',' | b'}' | b']' | b')' | b'\n' | b'\r') => Some(i),
            Some(_) if self.comment_at(j) => Some(i),
            Some(_) => None,
        }
    }

    /// `true`, `false` (`Some`) or `null` (`None`), to the sink.
    fn literal(&mut self, value: Option<bool>) {
        match value {
            Some(v) => self.sink.bool(v),
            None => self.sink.null(),
        }
    }

    /// An unquoted value: up to a closer or the end of the line, or a comma (inside an
    /// object, only a comma followed by the next key). Inside an object the value goes on over
    /// lines that do not start a key or close the object, and it ends before a quoted key
    /// (`{"a": red "b": 1}`). Commas and closers inside brackets it opened are its text
    /// (`f(a, b)`, `words{in braces}`). A quote followed by a separator ends it, as the closing quote of a string
    /// whose opening quote is missing (`word",`).
    fn unquoted(&mut self, start: usize, ctx: Ctx) -> Result<()> {
        let b = self.b;
        let member = ctx == Ctx::Member;
        self.pos = start;
        let mut open = 0usize;
        let mut quoted = false;
        while let Some(&c) = b.get(self.pos) {
            match c {
                b'(' | b'[' | b'{' => open += 1,
                b')' | b']' | b'}' if open > 0 => open -= 1,
                b',' if open > 0 => {}
                b',' if member && !self.key_follows(self.pos + 1) => {}
                b',' | b'}' | b']' => break,
                b'\n' | b'\r' => {
                    let (next, _) = self.skip_gap(self.pos);
                    let ends = !member
                        || b.get(next).is_none_or(|&d| matches!(d, b'}' | b']' | b','))
                        || self.key_follows(next);
                    if ends {
                        break;
                    }
                }
                b'"' if !quoted => {
                    quoted = true;
                    let (next, newline) = self.skip_gap(self.pos + 1);
                    let closes =
                        newline || b.get(next).is_none_or(|&d| matches!(d, b',' | b'}' | b']'));
                    if closes || (member && self.key_follows(self.pos)) {
                        break;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        let text = self.src[start..self.pos].trim_end();
        if text.is_empty() {
            return Err(self.error("expected a value"));
        }
        self.repair(RepairKind::UnquotedValue, start);
        self.sink.input_string(text, false);
        Ok(())
    }
}

/// Where a line comment starting at `i` ends: at the end of its line. A `#` comment
/// (`hash`) that runs to the end of the input, as in JSON written on one line
/// (`{"a": 1 # note }, "b": 2}`), ends before its first closer instead: the closers are the
/// document's. (A `//` comment there is read to the end, as JavaScript reads it.)
fn line_comment_end(b: &[u8], i: usize, hash: bool) -> usize {
    match b[i..].iter().position(|&c| c == b'\n') {
        Some(k) => i + k,
        None if !hash => b.len(),
        None => b[i..]
            .iter()
            .position(|&c| c == b'}' || c == b']')
            .map_or(b.len(), |k| i + k),
    }
}

/// Where the plain integer at `start` ends, when one stands there: 1 to 19 digits (no
/// sign, no leading zero), so that its value fits a `u64`, followed right by a `]`, a `}` or a
/// `,` that starts no thousands group (in a member, `1,250` may be one number).
#[inline(always)]
fn plain_integer_end(b: &[u8], start: usize, ctx: Ctx) -> Option<usize> {
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    let end = start + digits;
    let plain = match b.get(end)? {
        b']' | b'}' => true,
        b',' => !(ctx == Ctx::Member && b.get(end + 1).is_some_and(u8::is_ascii_digit)),
        _ => false,
    };
    (plain && (digits == 1 || (2..20).contains(&digits) && b[start] != b'0')).then_some(end)
}

/// Whether the sink `S` holds the integer `text` rounded: it holds floats as values, and the
/// integer is finite (else the sink writes `null`) and loses digits as an `f64`.
fn rounds<'a, S: Sink<'a>>(text: &str) -> bool {
    S::ROUNDS && super::sink::finite_number(text).is_some() && loses_digits(text)
}

/// Whether the integer written `text` (an optional `-`, then digits) loses digits as the
/// nearest `f64`: the float's own digits, written out in full, are others (`-0` and 10^20
/// are exact; 10^20 + 1 is not).
fn loses_digits(text: &str) -> bool {
    // (Rounding is the same either side of zero; zero itself is no such number.)
    let digits = text.trim_start_matches('-').trim_start_matches('0');
    digits
        .parse::<f64>()
        .is_ok_and(|float| format!("{float:.0}") != digits)
}

/// The value of a run of ASCII digits, if it fits in 64 bits.
fn small_integer(digits: &[u8]) -> Option<u64> {
    let mut n: u64 = 0;
    for &d in digits {
        n = n
            .checked_mul(10)?
            .checked_add(u64::from(d.checked_sub(b'0')?))?;
    }
    Some(n)
}

/// Position of the first `a` immediately followed by `b` in `hay`.
fn find2(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    hay.windows(2).position(|w| w[0] == a && w[1] == b)
}
