//! The pipeline: sequences the stages; holds no logic of its own beyond choosing.
//!
//! 1. fast path (`serde_json` straight into the target);
//! 2. [`extract`] candidates;
//! 3. [`sanitize`] and parse each (strict, then [`repair`]);
//! 4. [`recover`] each against the schema;
//! 5. choose the cheapest (or, where the schema asks for an array and the reply gives its
//!    objects one by one, all of them: [`collected`]), deserialize; last resort: its required
//!    fields only.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::extract::{self, Candidate, Origin};
use crate::recover::{self, describe_value};
use crate::repair::streamed::Streamable;
use crate::repair::{self, RepairOptions};
use crate::schema::{Kind, Schema};
use crate::unique;
use crate::{
    excerpt, sanitize, Error, ErrorKind, LlmOutput, Options, ValidationResult, Warning, WarningKind,
};

/// A JSON value repaired from a reply, without a schema: what `llmout repair` prints.
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    /// The value.
    pub value: Value,
    /// What was changed to get it (extraction, sanitization, syntax repairs).
    pub warnings: Vec<Warning>,
}

/// Finds and repairs the JSON in a reply, with no schema: extraction, sanitization and lenient
/// parsing. When several candidates parse, the one needing fewest changes wins; on a tie, an
/// enclosing candidate beats the one inside it and a later one beats an earlier one (the answer
/// usually follows any example).
///
/// A reply with no JSON value in it is read as its text, with a warning that says so: one
/// JSON string, or an array where it is a list of single words or numbers (`red, green`).
/// Code fence markers around it (three backticks and the fence's `json`) are markup, not
/// text; a reply with no text besides them (an empty fence, or one cut off after its
/// opening line) is an [`ErrorKind::NoJson`] error.
///
/// Memory: the value and a [`Warning`] per fix are held whole, 27 times the
/// input for 100 MB of records that need a fix every ten bytes. [`repair_json`] writes the
/// same value as text and counts the fixes (2.0 times).
///
/// ```
/// let r = llmout::repair_text("Sure!\n```json\n{\"a\": 1,}\n```", &llmout::Options::default()).unwrap();
/// assert_eq!(r.value, serde_json::json!({"a": 1}));
/// assert_eq!(r.warnings.len(), 1); // the trailing comma
/// ```
pub fn repair_text(raw: &str, options: &Options) -> Result<Repaired, Error> {
    if let Ok(value) = unique::value_from_str(raw) {
        return Ok(Repaired {
            value,
            warnings: Vec::new(),
        });
    }
    let (candidates, unread) = extract::candidates_and_unread(raw);
    if let Some(chosen) = fenced_answers(&candidates, options) {
        return Ok(Repaired {
            value: chosen.value,
            warnings: chosen.warnings,
        });
    }
    let chosen = match choose(raw, (candidates, unread), None, options) {
        Ok(chosen) => chosen,
        Err(e) if e.kind() == ErrorKind::NoJson => bare_text(raw).ok_or(e)?,
        Err(e) => return Err(e),
    };
    Ok(Repaired {
        value: chosen.value,
        warnings: chosen.warnings,
    })
}

/// The JSON of a reply as compact text, and how many changes it took (see [`repair_json`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairedJson {
    /// Compact JSON text (no whitespace between tokens).
    pub json: String,
    /// How many changes it took: as many as [`repair_text`] reports warnings, but for the
    /// integers too large for 64 bits that its value holds rounded
    /// ([`NumberRounded`](crate::WarningKind::NumberRounded)), whose digits the text keeps.
    pub changes: usize,
}

/// [`repair_text`] for callers that want JSON text to hand on (what `llmout repair` prints):
/// the same candidate is chosen and repaired the same way, but the result is written as
/// compact JSON instead of built as a [`Value`], and the changes are counted instead of
/// described. Memory stays at about the input plus the output, whatever the input's size
/// (the output may be six times the input: `\u0001` for a raw U+0001;
/// [`large::repair_json`](crate::large::repair_json) writes such JSON as it is made). A
/// reply that is one document (around any comments or wrapper) is parsed once, writing;
/// otherwise each candidate is counted and the winner written.
///
/// The text parses to exactly the value [`repair_text`] returns; strings are escaped as
/// `serde_json` escapes them and numbers that were valid JSON keep their digits (see
/// [`repair::to_string`]).
///
/// ```
/// let r = llmout::repair_json("Sure!\n```json\n{name: 'Ada', \"n\": 1.50,}\n```", &llmout::Options::default()).unwrap();
/// assert_eq!(r.json, r#"{"name":"Ada","n":1.50}"#);
/// assert_eq!(r.changes, 3); // the unquoted key, the single quotes, the trailing comma
/// ```
pub fn repair_json(raw: &str, options: &Options) -> Result<RepairedJson, Error> {
    let (written, changes) = repaired_json(raw, options)?;
    Ok(RepairedJson {
        json: written.into_string(),
        changes,
    })
}

/// [`repair_json`]'s work: the JSON, written or to be written, and the changes it took.
pub(crate) fn repaired_json<'a>(
    raw: &'a str,
    options: &Options,
) -> Result<(Written<'a>, usize), Error> {
    repaired_json_reading(raw, options, READ_SANITIZED)
}

/// [`repaired_json`], a candidate valid once sanitized read in parts from `read_from` bytes.
fn repaired_json_reading<'a>(
    raw: &'a str,
    options: &Options,
    read_from: usize,
) -> Result<(Written<'a>, usize), Error> {
    // As `repair_text`: valid JSON as it stands, as `parse` reads it (where no key is given
    // twice: the first value's loss is a change, and the candidates' reading counts it), is
    // written as the lenient parser would write it with no fix, without it.
    if unique::check_str(raw).is_ok() {
        return Ok((Written::Text(compacted(Cow::Borrowed(raw))), 0));
    }
    let (candidates, unread) = extract::candidates_and_unread(raw);
    if let Some(chosen) = fenced_answers(&candidates, options) {
        // Each block written as the lenient parser writes the winner, not the value: numbers
        // keep their digits (an integer beyond 64 bits, which the value holds rounded, too).
        let mut json = String::from("[");
        for (i, fence) in answer_fences(&candidates).into_iter().flatten().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str(
                &changes(fence.text, options, writing(read_from))?
                    .1
                    .into_string(),
            );
        }
        json.push(']');
        return Ok((Written::Text(json), changes_in(&chosen.warnings)));
    }
    // Only the winner's text is wanted: the others are counted, not written. The first
    // candidate, when it holds all the others, is written at once, since if it parses it wins.
    let mut ranking = rank(candidates, |text, holds_all| {
        let changed = if holds_all {
            changes(text, options, writing(read_from)).map(|(n, json)| (n, Some(json)))
        } else {
            changes(text, options, counting(read_from)).map(|(n, ())| (n, None))
        };
        match changed {
            Ok((n, json)) => Outcome::Parsed {
                out: json,
                cost: 0,
                syntax: n,
            },
            Err(e) => Outcome::Syntax(e),
        }
    });
    // (As `repair_text` says them: that the reply held more than was read too.)
    ranking.unread = unread;
    let extracted = ranking.choice_warnings().len();
    let Some(best) = ranking.best else {
        let e = no_value(raw, None, ranking);
        if e.kind() == ErrorKind::NoJson {
            if let Some(bare) = bare_text(raw) {
                // (Written as it is escaped: `\u0001` for a raw U+0001, six bytes.)
                return Ok((Written::Value(bare.value), bare.warnings.len()));
            }
        }
        return Err(e);
    };
    let json = match best.out {
        Some(json) => json,
        None => changes(best.candidate.text, options, writing(read_from))?.1,
    };
    Ok((json, best.syntax + extracted))
}

/// Compact JSON text that [`repair_json`] made: written, or to be written from a large text
/// that is valid once sanitized and whose sanitized copy would be long, a part at a time as
/// it is sanitized ([`Written::write_to`]), where the text written whole could be six times
/// the reply (`\u0001` for each raw U+0001).
#[derive(Debug)]
pub(crate) enum Written<'a> {
    Text(String),
    Sanitized(Cow<'a, str>),
    /// The lenient parser's JSON for a large text whose JSON, held whole, could be far
    /// larger than it (raw control characters in strings), and which no fix edits: parsed
    /// again as it is written ([`repair::streamed`]).
    Streamed(Cow<'a, str>, RepairOptions, Streamable),
    /// A reply with no JSON, read as text (a string, or a list of values): a value small
    /// beside its JSON, which is written as it is made.
    Value(Value),
}

impl Written<'_> {
    /// Writes the JSON text to `out`.
    pub(crate) fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Written::Text(json) => out.write_all(json.as_bytes()),
            Written::Value(value) => {
                let mut out = std::io::BufWriter::with_capacity(WRITE_BUFFER, out);
                serde_json::to_writer(&mut out, value)?;
                std::io::Write::flush(&mut out)
            }
            Written::Streamed(text, options, how) => {
                repair::streamed::write_streamed(text, options, *how, out)
            }
            Written::Sanitized(text) => {
                let mut buf = Vec::with_capacity(2 * WRITE_BUFFER);
                write_sanitized(text, &mut buf, |buf| {
                    let written = out.write_all(buf);
                    buf.clear();
                    written
                })
            }
        }
    }

    /// The JSON text.
    pub(crate) fn into_string(self) -> String {
        match self {
            Written::Text(json) => json,
            Written::Value(value) => value.to_string(),
            Written::Streamed(text, options, how) => {
                let mut out = Vec::with_capacity(text.len());
                match repair::streamed::write_streamed(&text, &options, how, &mut out) {
                    Ok(()) => String::from_utf8(out)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
                    // (Never: a Vec takes every write, and the parse that counted ended in
                    // the same mode. Else the text sink's, held.)
                    Err(_) => repair::to_string_counted(&text, &options)
                        .map(|c| c.json)
                        .unwrap_or_default(),
                }
            }
            Written::Sanitized(text) => {
                let mut out = Vec::with_capacity(text.len());
                let Ok(()) = write_sanitized(&text, &mut out, |_| Ok(())) else {
                    unreachable!("a Vec takes every write")
                };
                // Whole characters are copied or written, in order: the text is UTF-8 still.
                String::from_utf8(out)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
        }
    }
}

/// The bytes of the text from which [`Written::write_to`] hands what it wrote on.
const WRITE_BUFFER: usize = 1 << 16;

/// `text`, sanitized and written as compact JSON ([`repair::compact::Compactor`]) to `buf`,
/// which `flush` is given each time it holds [`WRITE_BUFFER`] bytes or more, and at the end.
/// The sanitized text is made and written a part at a time: at most a part of it is held.
fn write_sanitized(
    text: &str,
    buf: &mut Vec<u8>,
    mut flush: impl FnMut(&mut Vec<u8>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut parts = sanitize::Reader::counting(text);
    let mut compactor = repair::compact::Compactor::default();
    while let Some(part) = parts.next_part() {
        // (The text before the first fix comes whole: it is written a piece at a time.)
        for piece in part.chunks(WRITE_BUFFER) {
            compactor.part(piece, buf);
            if buf.len() >= WRITE_BUFFER {
                flush(buf)?;
            }
        }
    }
    compactor.finish(buf);
    flush(buf)
}

/// How [`changes`] reads a candidate: `parse` with the lenient parser, `valid` a candidate
/// that is valid JSON once sanitized as [`parse`] reads it ([`unique::check_str`]: no key
/// given twice, no number out of range), given the sanitized text, and `sanitized` one of at
/// least `read_from` bytes that is but whose sanitized copy would be too large to hold
/// beside it (see [`changes_unescaped`]), given the candidate's text (the sanitized text is read in parts, not copied: see
/// [`changes_unescaped`], [`valid_once_sanitized`]).
struct Run<'a, T> {
    parse: fn(&str, &RepairOptions) -> Ran<T>,
    valid: fn(Cow<'_, str>) -> Ran<T>,
    sanitized: fn(Cow<'a, str>) -> T,
    /// What is made of a text of `read_from` bytes or more whose JSON, written whole by the
    /// lenient parser, could be far larger, and can be written as it is made; `None` where
    /// nothing is written (then it is parsed as any text is).
    streamed: Option<Streams<'a, T>>,
    read_from: usize,
}

/// What a [`Run`] makes of a text written as it is made.
type Streams<'a, T> = fn(Cow<'a, str>, RepairOptions, Streamable) -> T;

/// What a [`Run`] came to: fixes, and what it produced.
type Ran<T> = Result<(usize, T), repair::RepairError>;

/// Writes the JSON text (a text of `read_from` bytes or more that is valid once sanitized,
/// and whose copy would be long, when it is asked for).
fn writing<'a>(read_from: usize) -> Run<'a, Written<'a>> {
    Run {
        parse: |text, options| {
            parse_writing(text, options).map(|(n, json)| (n, Written::Text(json)))
        },
        valid: |json| Ok((0, Written::Text(compacted(json)))),
        sanitized: Written::Sanitized,
        streamed: Some(Written::Streamed),
        read_from,
    }
}

/// Only counts.
fn counting<'a>(read_from: usize) -> Run<'a, ()> {
    Run {
        parse: parse_counting,
        valid: |_| Ok((0, ())),
        sanitized: |_| (),
        streamed: None,
        read_from,
    }
}

/// JSON that [`parse`] reads as it stands, written as the lenient parser writes it, which
/// would read it with no fix ([`repair::compact`]). A sanitized copy is written over itself:
/// the input, the copy and the output at once would be three texts as large as the reply.
fn compacted(json: Cow<'_, str>) -> String {
    repair::compact::compact_in_place(json.into_owned())
}

/// The lenient parse that writes the JSON text.
fn parse_writing(text: &str, options: &RepairOptions) -> Ran<String> {
    repair::to_string_counted(text, options).map(|c| (c.fixes, c.json))
}

/// The lenient parse that only counts.
fn parse_counting(text: &str, options: &RepairOptions) -> Ran<()> {
    repair::count(text, options).map(|c| (c.fixes, ()))
}

/// Step 3 of [`repair_json`] on one candidate, with `run` (which writes or only counts): as
/// many changes as [`parse`] reports warnings, and what `run` produced. Valid JSON once
/// sanitized is taken as [`parse`] takes it, the sanitizer's fixes being the changes; anything
/// else goes to the lenient parser.
fn changes<'a, T>(text: &'a str, options: &Options, run: Run<'a, T>) -> Result<(usize, T), Error> {
    if let Some(unescaped) = sanitize::escaped_document(text) {
        return changes_unescaped(Cow::Owned(unescaped), options, run).map(|(n, out)| (n + 1, out));
    }
    changes_unescaped(Cow::Borrowed(text), options, run)
}

/// [`changes`] on a text that is not escaped as a whole.
fn changes_unescaped<'a, T>(
    text: Cow<'a, str>,
    options: &Options,
    run: Run<'a, T>,
) -> Result<(usize, T), Error> {
    // In a block, so that a sanitized copy is gone before the lenient parser writes: the
    // input, a copy and the output at once would be 3x a huge input.
    // (One warning a fix, as `parse` gives them: only their number is wanted here.)
    'copy: {
        let (sanitized, sanitizer_fixes) = if text.len() < run.read_from {
            sanitize::sanitize_counted(&text)
        } else {
            // A large text is copied only where the copy is at most half as large again
            // (up to six times: `\u0001` for each raw U+0001), and the input, the copy and
            // `serde_json`'s scratch buffer for the copy's longest string (no longer than
            // that string in the input) stay within three times the input (one string can
            // be nearly the whole reply). Else, where it is valid once sanitized, as `parse`
            // reads it, the sanitized text is read in parts, and written so later; else it
            // goes to the lenient parser, as below.
            match sanitize::sanitize_counted_within(&text, copy_limit(text.len())) {
                Some(copy) => copy,
                None => match valid_once_sanitized(&text) {
                    Some(fixes) => return Ok((fixes, (run.sanitized)(text))),
                    None => break 'copy,
                },
            }
        };
        // Numbers out of range and a key given twice are changes ([`unique`]): the lenient
        // parser reads those.
        if unique::check_str(&sanitized).is_ok() {
            if let Ok((fixes, out)) = (run.valid)(sanitized) {
                if fixes == 0 {
                    return Ok((sanitizer_fixes, out));
                }
            }
        }
    }
    let repair = repair_options(options);
    if let Some(streamed) = run.streamed.filter(|_| text.len() >= run.read_from) {
        // Held whole, the JSON could be up to six times the text: where no fix edits what
        // was written before it, it is counted now and written as it is made, later.
        if may_grow(&text) {
            match repair::streamed::streamable(&text, &repair) {
                Ok(Some(how)) => return Ok((how.fixes, streamed(text, repair, how))),
                Ok(None) => {}
                Err(e) => return Err(syntax_error(e, &text, options)),
            }
        }
    }
    match (run.parse)(&text, &repair) {
        Ok((fixes, out)) => Ok((fixes, out)),
        Err(e) => Err(syntax_error(e, &text, options)),
    }
}

/// Whether the lenient parser's JSON for `text` could pass 1.25 times its length, by an
/// upper bound of what its control characters become in strings (`\n` for a line break,
/// two bytes for one; `\u0001` for U+0001, six). Between tokens they are dropped, so a
/// pretty-printed document is well under; and the other fixes add little (quotes around a
/// word).
fn may_grow(text: &str) -> bool {
    repair::control_growth(text.as_bytes()) > text.len() / 4
}

/// How long a sanitized copy of a large text of `len` bytes may be (see
/// [`changes_unescaped`]): half as long again, and with its longest string twice the text.
pub(crate) fn copy_limit(len: usize) -> sanitize::Within {
    sanitize::Within {
        text: len.saturating_add(len / 2),
        with_longest: len.saturating_mul(2),
    }
}

/// The sanitizer's fixes, counted as [`sanitize::sanitize_counted`] counts them, where
/// `text` needs some and is JSON once sanitized as [`parse`] reads it
/// ([`unique::check_reader`]: no key given twice, no number out of range; a float beyond
/// the 64-bit integers is taken, which text keeps as written and a value does not), read
/// from the sanitized text's parts as they are made, no value built. `None` where it needs
/// none or is no such JSON.
pub(crate) fn valid_once_sanitized(text: &str) -> Option<usize> {
    let mut reader = sanitize::Reader::counting(text);
    if !reader.fixes_any() {
        return None;
    }
    // (Through a `BufReader`, which the standard library reads a byte at a time from its
    // buffer: `serde_json` asks for one byte a call. It reads to the end of the text.)
    unique::check_reader(std::io::BufReader::new(&mut reader)).ok()?;
    Some(reader.count())
}

/// Lenient-parser options for JSON `serde_json` already accepts: its own nesting limit (128)
/// applies, not the pipeline's.
pub(crate) fn valid_json_options() -> RepairOptions {
    RepairOptions::default().max_depth(repair::MAX_DEPTH_CAP)
}

pub(crate) fn repair_options(options: &Options) -> RepairOptions {
    RepairOptions::default().max_depth(options.get_max_depth())
}

/// Runs the whole pipeline on a JSON schema given at run time (what `llmout parse` does).
/// The schema may carry `x-aliases` and `x-no-invent`; see the crate docs.
///
/// Memory: the value and every warning are held whole (27 times the input for 100 MB of
/// messy records against their schema). For a reply that is a large array, or an object
/// around one, [`large::from_llm_with_compiled`](crate::large::from_llm_with_compiled) gives
/// the same result an item at a time (2.1 times).
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"status": {"enum": ["pass", "fail"]}},
///     "required": ["status"]
/// });
/// let r = llmout::from_llm_with_schema("Result: {\"Status\": \"PASSED\"}", &schema, &llmout::Options::default());
/// assert_eq!(r.value, Some(json!({"status": "pass"})));
/// assert_eq!(r.warnings.len(), 2); // key renamed, enum matched
/// ```
pub fn from_llm_with_schema(
    raw: &str,
    schema: &Value,
    options: &Options,
) -> ValidationResult<Value> {
    match Schema::compile(schema) {
        Ok(compiled) => from_llm_with_compiled(raw, &compiled, options),
        Err(e) => ValidationResult::err(e, Vec::new()),
    }
}

/// [`from_llm_with_schema`] with a schema compiled once, for many replies.
pub fn from_llm_with_compiled(
    raw: &str,
    schema: &Schema,
    options: &Options,
) -> ValidationResult<Value> {
    let options = &*options.for_runtime_schema();
    if let Ok(value) = unique::value_from_str(raw) {
        if let Ok(r) = recover::recover(value, schema, options) {
            if r.warnings.is_empty() {
                return ValidationResult::ok(r.value, Vec::new());
            }
        }
    }
    match choose(
        raw,
        extract::candidates_and_unread(raw),
        Some(schema),
        options,
    ) {
        Ok(c) => ValidationResult::ok(c.value, c.warnings),
        Err(e) => ValidationResult::err(e, Vec::new()),
    }
}

/// Recovers an already-parsed value against a runtime schema: the recovery stage alone.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
/// let r = llmout::recover_with_schema(json!({"n": "3"}), &schema, &llmout::Options::default());
/// assert_eq!(r.value, Some(json!({"n": 3})));
/// assert!(r.recovered);
/// ```
pub fn recover_with_schema(
    value: Value,
    schema: &Value,
    options: &Options,
) -> ValidationResult<Value> {
    match Schema::compile(schema) {
        Ok(compiled) => recover_with_compiled(value, &compiled, options),
        Err(e) => ValidationResult::err(e, Vec::new()),
    }
}

/// [`recover_with_schema`] with the schema compiled.
pub(crate) fn recover_with_compiled(
    value: Value,
    schema: &Schema,
    options: &Options,
) -> ValidationResult<Value> {
    match recover::recover(value, schema, &options.for_runtime_schema()) {
        Ok(r) => ValidationResult::ok(r.value, r.warnings),
        Err(e) => ValidationResult::err(e, Vec::new()),
    }
}

pub(crate) fn from_llm_typed<T: LlmOutput>(raw: &str, options: &Options) -> ValidationResult<T> {
    // 1. Fast path: serde_json straight into T, unless serde had to ignore a key. Ignored keys
    //    are how data gets lost silently (`tool_calls` for a camelCase `toolCalls: Option<_>`
    //    deserializes to `None`), so such replies go through recovery, which renames or drops
    //    them with a warning.
    if !crate::cache::is_constrained::<T>() {
        match fast_path::<T>(raw) {
            Fast::Read(value) => return ValidationResult::ok(value, Vec::new()),
            // Read partly out of the fast path's sight: taken where every key is one the
            // schema lists where it stands, and none is given twice.
            Fast::Unseen(value) => {
                let keep = options.get_keep_unknown_keys().unwrap_or(false);
                if recover::keys_fit(raw, T::compiled_schema(), keep) {
                    return ValidationResult::ok(value, Vec::new());
                }
            }
            Fast::Not => {}
        }
    }
    let schema = T::compiled_schema();
    if schema.is_constrained() {
        // A type with constraints (`maxLength`, `pattern`, ...) has its value walked to
        // check them: valid JSON is parsed, checked and deserialized once.
        if let Some(e) = schema.broken() {
            return ValidationResult::err(e.clone(), Vec::new());
        }
        // (A large reply is checked item by item below, as JSON that needs no repair.)
        if raw.len() < LARGE_REPLY {
            if let Some(value) = checked_fast_path::<T>(raw, schema, options) {
                return ValidationResult::ok(value, Vec::new());
            }
        }
    }
    if raw.len() >= LARGE_REPLY {
        from_large::<T>(raw, schema, options)
    } else {
        from_whole::<T>(raw, schema, options)
    }
}

/// Steps 2-6 on the whole reply: the chosen candidate's value, then `T` from it.
fn from_whole<T: LlmOutput>(raw: &str, schema: &Schema, options: &Options) -> ValidationResult<T> {
    let chosen = match choose(
        raw,
        extract::candidates_and_unread(raw),
        Some(schema),
        options,
    ) {
        Ok(c) => c,
        Err(e) => return ValidationResult::err(e, Vec::new()),
    };
    deserialize::<T>(chosen.value, chosen.warnings, schema, options)
}

/// Replies at least this long (4 MiB) that are not JSON as `T` takes it go to
/// [`from_large`]. Reading item by item reads the reply twice or more, and hands items
/// between threads: a 2-10 MB reply took 1.4-2 times as long that way. Below this length
/// the whole value, as a tree with its warnings, holds at most about 110 MB.
const LARGE_REPLY: usize = 4 << 20;

/// Steps 2-6 for a large reply: read item by item where its shape allows
/// ([`crate::large`]), `T` deserialized from the value's text as it is written, so that the
/// value is never held as a tree beside `T` (for 100 MB of records in a fence, the tree was
/// 15 times the reply). The same result as reading it whole: the same value and warnings,
/// and where `T` refuses that value (or it nests deeper than `serde_json` reads text), the
/// value is built after all for step 6's fallback and its error.
fn from_large<T: LlmOutput>(raw: &str, schema: &Schema, options: &Options) -> ValidationResult<T> {
    use crate::large::Large;
    // A type's schema keeps no key it does not list unless asked to (the large reader
    // would take a runtime schema's default otherwise).
    let keep = options.get_keep_unknown_keys().unwrap_or(false);
    let options = &options.clone().keep_unknown_keys(keep);
    // Step 6 on a value in hand; a result with no value keeps its error and warnings.
    let typed = |r: ValidationResult<Value>| match r {
        ValidationResult {
            value: Some(value),
            error: None,
            warnings,
            ..
        } => deserialize::<T>(value, warnings, schema, options),
        r => ValidationResult {
            value: None,
            warnings: r.warnings,
            recovered: r.recovered,
            error: r.error,
        },
    };
    match crate::large::from_llm_with_compiled(raw, schema, options) {
        Large::Whole(r) => typed(r),
        Large::Items(items) | Large::Members(items) => {
            match crate::large::typed::deserialize::<T>(&items) {
                Ok(value) => {
                    let mut warnings = Vec::with_capacity(items.warning_count());
                    let Ok(()) = items.for_each_warning(|w| {
                        warnings.push(w);
                        Ok::<(), std::convert::Infallible>(())
                    });
                    ValidationResult::ok(value, warnings)
                }
                Err(_) => typed(items.to_result()),
            }
        }
    }
}

/// The fast path of a type with constraints: `raw` as JSON that fits the schema as it is
/// (no change, no violation), deserialized into `T`.
fn checked_fast_path<T: LlmOutput>(raw: &str, schema: &Schema, options: &Options) -> Option<T> {
    let value = unique::value_from_str(raw).ok()?;
    if !recover::fits_as_is(&value, schema, options) {
        return None;
    }
    T::deserialize(&value).ok()
}

/// What [`fast_path`] came to.
enum Fast<T> {
    /// `T`, read with nothing lost.
    Read(T),
    /// `T`, read partly out of sight: through serde's own buffer (an internally tagged or
    /// untagged enum, a `Value`), where a variant skips a key it does not know unseen, or
    /// by a map, which keeps a repeated key's last value. The text's keys are to be
    /// checked ([`recover::keys_fit`]).
    Unseen(T),
    /// Not JSON as `T` takes it, a key was ignored, or a number may be an integer held
    /// rounded ([`crate::unique`]).
    Not,
}

/// Deserializes `raw` straight into `T`.
fn fast_path<T: LlmOutput>(raw: &str) -> Fast<T> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let Ok((value, noticed)) = crate::ignored::deserialize(&mut de) else {
        return Fast::Not;
    };
    if de.end().is_err() || noticed.ignored || noticed.rounded {
        Fast::Not
    } else if noticed.open_object {
        Fast::Unseen(value)
    } else {
        Fast::Read(value)
    }
}

/// Step 6: deserialize. If serde refuses what recovery produced (a custom `Deserialize`, say),
/// try the required fields alone; else a clear error.
fn deserialize<T: LlmOutput>(
    value: Value,
    mut warnings: Vec<Warning>,
    schema: &Schema,
    options: &Options,
) -> ValidationResult<T> {
    let first = match T::deserialize(&value) {
        Ok(v) => return ValidationResult::ok(v, warnings),
        Err(e) => e,
    };
    let root = schema.resolve(schema.root());
    if let (Kind::Object(o), Value::Object(map), false) = (
        &schema.node(root).kind,
        &value,
        options.get_policy() == crate::Policy::Strict,
    ) {
        let names: std::collections::HashSet<&str> = o
            .properties
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name.as_str())
            .collect();
        let mut required = serde_json::Map::new();
        let mut dropped = Vec::new();
        for (k, v) in map {
            if names.contains(k.as_str()) {
                required.insert(k.clone(), v.clone());
            } else {
                dropped.push(k.clone());
            }
        }
        if !dropped.is_empty() {
            if let Ok(v) = T::deserialize(&Value::Object(required)) {
                for k in dropped {
                    warnings.push(Warning::new(
                        WarningKind::RequiredOnly,
                        crate::pointer_push("", &k),
                        format!("dropped optional field \"{k}\" so the required fields deserialize ({first})"),
                    ));
                }
                return ValidationResult::ok(v, warnings);
            }
        }
    }
    ValidationResult::err(
        Error::new(
            ErrorKind::Mismatch,
            "",
            schema.describe(schema.root()),
            format!("{} that serde rejects: {first}", describe_value(&value)),
        ),
        warnings,
    )
}

/// The chosen candidate's value and every change made to get it.
pub(crate) struct Chosen {
    pub(crate) value: Value,
    pub(crate) warnings: Vec<Warning>,
}

/// One candidate carried through parsing and recovery, with what it came to (`O`).
pub(crate) struct Evaluated<'a, O> {
    pub(crate) candidate: Candidate<'a>,
    pub(crate) out: O,
    /// Schema-level recovery cost. Syntax fixes do not count: a long answer with many raw
    /// newlines must still beat a short clean example.
    cost: u32,
    /// Syntax fixes, the tie-breaker between overlapping candidates.
    syntax: usize,
    /// How the reply presents it ([`extract::standing`]: in a fence or tag, in prose, or set
    /// aside as code, an example, a wrong value): a candidate of the same cost that stands
    /// better beats it, wherever it is.
    standing: extract::Standing,
}

/// What evaluating one candidate came to.
pub(crate) enum Outcome<O> {
    /// It parsed (and recovered, when there is a schema).
    Parsed { out: O, cost: u32, syntax: usize },
    /// It does not parse.
    Syntax(Error),
    /// It parsed, and the schema cannot be met.
    Recovery(Error),
}

/// The candidates of a reply, evaluated and ranked.
pub(crate) struct Ranking<'a, O> {
    pub(crate) best: Option<Evaluated<'a, O>>,
    /// Every candidate that parsed.
    parsed: Vec<std::ops::Range<usize>>,
    recovery_error: Option<Error>,
    syntax_error: Option<Error>,
    /// The whole reply (outside reasoning), a fence or an answer tag holds a JSON object or
    /// array, whether or not it parsed: the reply is JSON, not plain text. (A bracketed span
    /// in prose is not enough: `- [ ] done` and `{name}` are markdown and placeholders.)
    json_reply: bool,
    /// Candidates that start like JSON and could not be read, each with where the prose at
    /// its end begins (see [`prose_tail`]).
    failed: Vec<(std::ops::Range<usize>, usize)>,
    /// Extraction kept some of the reply's bracketed spans only (the longest): it may hold
    /// JSON values that were never candidates (`extract::candidates_and_unread`).
    pub(crate) unread: bool,
}

impl<'a, O> Ranking<'a, O> {
    fn new() -> Self {
        Ranking {
            best: None,
            parsed: Vec::new(),
            recovery_error: None,
            syntax_error: None,
            json_reply: false,
            failed: Vec::new(),
            unread: false,
        }
    }

    /// Takes a candidate that parsed; keeps the better of it and the best so far, and returns
    /// that.
    fn offer(&mut self, next: Evaluated<'a, O>) -> &Evaluated<'a, O> {
        self.parsed.push(next.candidate.range.clone());
        let best = match self.best.take() {
            None => next,
            Some(current) => better(current, next),
        };
        self.best.insert(best)
    }

    /// How many parsed candidates lie outside the chosen one: JSON values it was chosen over.
    fn others(&self) -> usize {
        let Some(best) = &self.best else { return 0 };
        let chosen = &best.candidate.range;
        self.parsed
            .iter()
            .filter(|r| r.end <= chosen.start || r.start >= chosen.end)
            .count()
    }

    /// The warnings for the choice: the best candidate was chosen over other JSON values, or
    /// lies inside JSON that could not be read as a whole (what was left out is said, never
    /// dropped silently).
    pub(crate) fn choice_warnings(&self) -> Vec<Warning> {
        self.extracted()
            .into_iter()
            .chain(self.left_out())
            .collect()
    }

    fn left_out(&self) -> Option<Warning> {
        let best = &self.best.as_ref()?.candidate.range;
        // (A value followed by prose, `{...}\nHope this helps!`, is no JSON left out: prose
        // around the answer is passed over, as before it.)
        let outer = self
            .failed
            .iter()
            .filter(|(f, _)| f.start <= best.start && best.end <= f.end && f.len() > best.len())
            .filter(|(f, prose)| !(f.start == best.start && best.end >= *prose))
            .map(|(f, _)| f)
            .max_by_key(|f| f.len())?;
        Some(Warning::new(
            WarningKind::Extracted,
            "",
            format!(
                "the JSON at bytes {}..{} could not be read as a whole: took the value at bytes \
                 {}..{} inside it and left out the other {} bytes",
                outer.start,
                outer.end,
                best.start,
                best.end,
                outer.len() - best.len()
            ),
        ))
    }

    /// The warning for choosing the best candidate over others, if there were others.
    /// (Where extraction kept only the longest bracketed spans, it says so: the count is of
    /// those read.)
    fn extracted(&self) -> Option<Warning> {
        let others = self.others();
        let best = self.best.as_ref()?;
        (others > 0 || self.unread).then(|| {
            let plural = if others == 1 { "value" } else { "values" };
            let chose = format!("chose the JSON in {}", best.candidate.origin.describe());
            let max = extract::MAX_SPANS;
            let message = match (others, self.unread) {
                (0, _) => format!(
                    "{chose}: the reply holds more bracketed spans than the {max} longest of a \
                     text that are read, which may be JSON too"
                ),
                (_, false) => format!("{chose} over {others} other JSON {plural} in the reply"),
                (_, true) => format!(
                    "{chose} over {others} other JSON {plural} in the reply, of the {max} \
                     longest bracketed spans of a text that are read: the reply holds more, \
                     which may be JSON too"
                ),
            };
            Warning::new(WarningKind::Extracted, "", message)
        })
    }
}

/// Where the prose at the end of `text` begins: the text after its last bracket, quote or
/// colon, which holds nothing of JSON's.
fn prose_tail(text: &str) -> usize {
    text.trim_end_matches(|c: char| !matches!(c, '{' | '}' | '[' | ']' | '"' | ':'))
        .len()
}

/// Steps 2 and 5: evaluates the candidates of `raw` with `eval` (steps 3 and 4) and keeps the
/// best, and the errors worth reporting if none is good.
///
/// Once the best so far cost nothing and holds every candidate still to come, none of those
/// can beat it (see [`better`]: it costs at least as much and lies inside), so they are not
/// evaluated; a reply that is one JSON document costs one parse, not one per object in it.
/// `eval` is told whether its candidate holds all the candidates after it while none before
/// it has parsed: if that one parses at no cost, it is the answer, and a caller that would
/// parse the winner again (to write it) can do so at once. So a reply that is prose around one
/// fence or tag costs one parse of it, like a bare document.
pub(crate) fn rank<'a, O>(
    candidates: Vec<Candidate<'a>>,
    mut eval: impl FnMut(&'a str, bool) -> Outcome<O>,
) -> Ranking<'a, O> {
    let mut ranking = Ranking::new();
    // `rest_end[k]`: the furthest end among candidates `k..`. They come sorted by start, so
    // candidates `k..` all lie inside a range that starts no later than candidate `k` and
    // ends at or after `rest_end[k]`.
    let mut rest_end = vec![0; candidates.len() + 1];
    for (k, c) in candidates.iter().enumerate().rev() {
        rest_end[k] = rest_end[k + 1].max(c.range.end);
    }
    let cut_off: Vec<bool> = (0..candidates.len())
        .map(|k| cut_off(&candidates, k))
        .collect();
    let fence_only: Vec<bool> = (0..candidates.len())
        .map(|k| only_a_fence(&candidates, k))
        .collect();
    let standing = extract::standing(&candidates);
    // A JSON document cut off that parsed: the spans inside it are its parts (see `cut_off`).
    let mut parts_of: Option<std::ops::Range<usize>> = None;
    for (k, candidate) in candidates.into_iter().enumerate() {
        if parts_of
            .as_ref()
            .is_some_and(|r| r.start < candidate.range.start && candidate.range.end <= r.end)
        {
            continue;
        }
        if fence_only[k] {
            continue;
        }
        let holds_all = ranking.best.is_none() && rest_end[k + 1] <= candidate.range.end;
        let outcome = eval(candidate.text, holds_all);
        if cut_off[k] && !matches!(outcome, Outcome::Syntax(_)) {
            parts_of = Some(candidate.range.clone());
        }
        if candidate.origin <= Origin::Fence && candidate.text.starts_with(['{', '[']) {
            ranking.json_reply = true;
        }
        let (out, cost, syntax) = match outcome {
            Outcome::Parsed { out, cost, syntax } => (out, cost, syntax),
            // Prose that does not even start like JSON says nothing about the JSON.
            Outcome::Syntax(_) if !looks_like_json(&candidate) => continue,
            Outcome::Syntax(e) => {
                let prose = candidate.range.start + prose_tail(candidate.text);
                ranking.failed.push((candidate.range.clone(), prose));
                // Depth errors say more than any other syntax error; keep the first of those.
                if ranking
                    .syntax_error
                    .as_ref()
                    .is_none_or(|s| s.kind() != ErrorKind::DepthLimit)
                {
                    ranking.syntax_error = Some(e);
                }
                continue;
            }
            Outcome::Recovery(e) => {
                ranking.parsed.push(candidate.range.clone());
                if ranking.recovery_error.is_none() || candidate.origin <= Origin::Fence {
                    ranking.recovery_error = Some(e);
                }
                continue;
            }
        };
        let best = ranking.offer(Evaluated {
            candidate,
            out,
            cost,
            syntax,
            standing: standing[k],
        });
        if best.cost == 0 && rest_end[k + 1] <= best.candidate.range.end {
            break;
        }
    }
    ranking
}

/// Whether candidate `k` is a JSON document cut off at the end of the reply: the reply, an
/// answer tag's or a fence's body (or, where the reply has prose before it, an unclosed span
/// whose first value is the first candidate inside it: its first item, or its first member's
/// value, or the first value inside that, as in `Here: {"records": [{...`; see
/// [`first_value_at`]) that starts with a bracket no other
/// candidate starts with, so that it never closes (and, for an object, with a key). Had it
/// closed, the spans inside it (the items it holds whole) would be no candidates; once it
/// parses, they are taken as its parts and not weighed against it, so that one item is
/// never chosen over the items around it (where the document cannot be recovered, its
/// error is the reply's, as it is for a document that closes).
fn cut_off(candidates: &[Candidate<'_>], k: usize) -> bool {
    let c = &candidates[k];
    let shares_start = |j: Option<usize>| {
        j.and_then(|j| candidates.get(j))
            .is_some_and(|d| d.range.start == c.range.start)
    };
    // (An object's first member starts with its key: `{{` is no document.)
    let opens = match c.text.as_bytes() {
        [b'[', ..] => true,
        [b'{', rest @ ..] => rest
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_none_or(|&b| matches!(b, b'"' | b'\'' | b'}' | b'_') || b.is_ascii_alphanumeric()),
        _ => false,
    };
    if !opens || shares_start(k.checked_sub(1)) || shares_start(Some(k + 1)) {
        return false;
    }
    match c.origin {
        Origin::Whole | Origin::Tag | Origin::Fence => true,
        Origin::Truncated => candidates.get(k + 1).is_some_and(|next| {
            c.contains(next) && first_value_at(c.text, next.range.start - c.range.start)
        }),
        Origin::Balanced => false,
    }
}

/// Whether candidate `k` is the whole reply and nothing but the markdown fence whose body is
/// candidate `k + 1`: its opening line (three backticks or tildes or more, and at most one
/// word, `json`), the body, and its closing marker, if any. The body is then the reply, and
/// read as the reply would be written bare; the fence markers are markup, no part of the
/// JSON. (Read with them, the reply is no JSON once sanitized: each raw control character
/// in it would be a fix of the lenient parser, its text written whole, where the body is
/// the sanitizer's one fix a run and read in parts.)
fn only_a_fence(candidates: &[Candidate<'_>], k: usize) -> bool {
    let (Some(whole), Some(body)) = (candidates.get(k), candidates.get(k + 1)) else {
        return false;
    };
    if whole.origin != Origin::Whole || body.origin != Origin::Fence || !whole.contains(body) {
        return false;
    }
    let before = &whole.text[..body.range.start - whole.range.start];
    let after = &whole.text[body.range.end - whole.range.start..];
    let Some(marker) = before.bytes().next().filter(|b| matches!(b, b'`' | b'~')) else {
        return false;
    };
    let info = before.trim_start_matches(marker as char);
    // (The opening line ends in the body's line break; a word there is the fence's language.)
    let one_word = info.split_whitespace().count() <= 1 && !info.contains(['`', '{', '[']);
    one_word && before.len() - info.len() >= 3 && after.trim().bytes().all(|b| b == marker)
}

/// Whether the first value inside `text` (which opens with `[` or `{`) starts at `at`: its
/// first item, or its first member's value after the key, or, where that opens an array or
/// an object in turn, the first value inside it (`{"records": [{...` has it at the inner
/// `{`, where the array is no candidate of its own while it is cut off with the rest).
fn first_value_at(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let blank = |p: usize| p + text[p..].len() - text[p..].trim_start().len();
    let mut p = 0;
    // Each turn moves past an opening bracket (and a key), so the loop ends by `at`.
    while p < at {
        p = match bytes[p] {
            b'[' => blank(p + 1),
            b'{' => {
                let q = blank(p + 1);
                // (A key ends before the value at `at`: each turn reads no further.)
                let Some(key) = key_len(&bytes[q..at.max(q)]) else {
                    return false;
                };
                let colon = blank(q + key);
                if bytes.get(colon) != Some(&b':') {
                    return false;
                }
                blank(colon + 1)
            }
            _ => return false,
        };
    }
    p == at
}

/// The length of the object key `bytes` starts with: quoted (with its quotes) or bare.
fn key_len(bytes: &[u8]) -> Option<usize> {
    match *bytes.first()? {
        q @ (b'"' | b'\'') => {
            let mut escaped = false;
            let end = bytes[1..].iter().position(|&b| {
                let closes = b == q && !escaped;
                escaped = b == b'\\' && !escaped;
                closes
            })?;
            Some(end + 2)
        }
        _ => {
            let bare = |b: &u8| *b == b'_' || *b == b'$' || b.is_ascii_alphanumeric();
            let len = bytes.iter().take_while(|b| bare(b)).count();
            (len > 0).then_some(len)
        }
    }
}

/// Steps 2-5: candidates, parse, recover, choose.
///
/// Taking the answer out of prose, a fence or a tag changes nothing the model wrote, so it is
/// no warning by itself; choosing it over *other* JSON values in the reply is a decision, and
/// that is recorded (`Extracted`).
fn choose<'a>(
    raw: &'a str,
    (candidates, unread): (Vec<Candidate<'a>>, bool),
    schema: Option<&Schema>,
    options: &Options,
) -> Result<Chosen, Error> {
    if let Some(chosen) = schema.and_then(|s| string_reply(raw, s, options)) {
        return chosen;
    }
    let outermost = schema
        .filter(|s| array_root(s))
        .map(|_| separate_values(raw, &candidates, unread));
    let mut ranking = rank(candidates, |text, _| evaluate(text, schema, options));
    ranking.unread = unread;
    if let (Some(schema), Some(outermost)) = (schema, outermost) {
        if let Some(chosen) = collected(&outermost, &ranking, schema, options) {
            return Ok(chosen);
        }
    }
    let extracted = ranking.choice_warnings();
    if let Some(best) = ranking.best {
        let (value, found) = best.out;
        let mut warnings = extracted;
        warnings.extend(found);
        return Ok(Chosen { value, warnings });
    }
    last_resorts(raw, schema, options, ranking)
}

/// What [`choose`] gives when no candidate of the ranking gave a value: the reply read as
/// `Key: value` lines or as plain text where the schema allows it, else the error worth
/// reporting.
pub(crate) fn last_resorts<O>(
    raw: &str,
    schema: Option<&Schema>,
    options: &Options,
    ranking: Ranking<'_, O>,
) -> Result<Chosen, Error> {
    if let Some(s) = schema {
        if ranking.parsed.is_empty() {
            if let Some(Ok(chosen)) = key_values(raw, s, options) {
                return Ok(chosen);
            }
        }
        // Plain text is the value only when the reply is not JSON itself (a JSON reply that
        // does not fit is an error, not text) and reading it so succeeds; otherwise the error
        // from the JSON that was there says more.
        let plain = if ranking.json_reply {
            None
        } else {
            plain_text(raw, s, options, ranking.parsed.len())
        };
        match plain {
            Some(Ok(chosen)) => return Ok(chosen),
            Some(Err(e)) if ranking.recovery_error.is_none() && ranking.syntax_error.is_none() => {
                return Err(e)
            }
            _ => {}
        }
    }
    Err(no_value(raw, schema, ranking))
}

/// Steps 3 and 4 on one candidate: parse it, then recover it against the schema, if any.
pub(crate) fn evaluate(
    text: &str,
    schema: Option<&Schema>,
    options: &Options,
) -> Outcome<(Value, Vec<Warning>)> {
    let (value, warnings) = match parse(text, options) {
        Ok(parsed) => parsed,
        Err(e) => return Outcome::Syntax(e),
    };
    // (`repair_json` ranks the candidates as this does.)
    let syntax = changes_in(&warnings);
    match schema {
        None => Outcome::Parsed {
            out: (value, warnings),
            cost: 0,
            syntax,
        },
        Some(schema) => match recover::recover_cut(value, schema, options, cut(&warnings)) {
            Ok(mut r) => {
                let mut warnings = warnings;
                if !r.as_text.is_empty() {
                    as_written(text, options, &mut r, &mut warnings);
                }
                // Syntax warnings name where a fix was made in the parsed value; recovery may
                // have moved that part (renamed a key, wrapped a value), so follow it there.
                let mut all: Vec<Warning> = warnings
                    .into_iter()
                    .map(|mut w| {
                        w.path = r.remap(&w.path);
                        w
                    })
                    .collect();
                all.extend(r.warnings);
                Outcome::Parsed {
                    out: (r.value, all),
                    cost: r.cost,
                    syntax,
                }
            }
            Err(e) => Outcome::Recovery(e),
        },
    }
}

/// How many of `warnings` are changes to the reply: all but the integers held rounded,
/// whose digits the JSON text keeps ([`repair_json`]).
fn changes_in(warnings: &[Warning]) -> usize {
    (warnings.iter())
        .filter(|w| w.kind != WarningKind::NumberRounded)
        .count()
}

/// Where the parser found the reply cut off: the path of its `Truncated` fix, one segment a
/// level, for recovery (`recover::recover_cut`).
pub(crate) fn cut(warnings: &[Warning]) -> Option<Vec<String>> {
    let truncated = WarningKind::Repaired(repair::RepairKind::Truncated);
    let w = warnings.iter().find(|w| w.kind == truncated)?;
    Some(recover::segments(&w.path))
}

/// Where the schema asks for a string and the reply has an object or array, the string is
/// that container's text as the reply writes it (`{title: string, onClick: () => void}`),
/// not JSON the parser wrote for it: nothing is added or taken away. The parser's fixes
/// inside it are then no part of the value, and their warnings go. So for an integer beyond
/// 64 bits, which the value held rounded (`123456789012345678901`, not its float's
/// `1.2345678901234568e20`): its digits, and the warning that it was rounded goes. Text
/// that does not read back as exactly the container's value (a pointer the recovery moved
/// in a way this cannot follow) leaves the JSON text in place.
fn as_written(
    text: &str,
    options: &Options,
    r: &mut recover::Recovered,
    syntax: &mut Vec<Warning>,
) {
    let Some(KeptWritten { kept, .. }) = keep_written(text, options, r, "") else {
        return;
    };
    if !kept.is_empty() {
        syntax.retain(|w| !inside_written(&kept, &w.path, w.kind));
    }
}

/// What [`keep_written`] did.
pub(crate) struct KeptWritten {
    /// The pointers in the text of what is now kept as the text writes it.
    pub(crate) kept: HashSet<String>,
    /// Whether every place recovery kept as text was found in the text and read back to
    /// its value (kept, or written there as the JSON text already).
    pub(crate) all: bool,
}

/// [`as_written`] for the value `r` recovered from `text`, at the path `at` of recovery's
/// paths (`""` for the whole reply; an item's, `/3`, where `text` is the item's): each
/// place recovery kept as text ([`recover::Recovered::as_text`]) gets the text's own, back
/// through recovery's moves to where the text has it. `None` where `text` does not parse.
pub(crate) fn keep_written(
    text: &str,
    options: &Options,
    r: &mut recover::Recovered,
    at: &str,
) -> Option<KeptWritten> {
    let repair_options = repair_options(options);
    let spans = repair::container_spans(text, &repair_options).ok()?;
    // The last container read at each pointer: a key given twice keeps its last value.
    let spans: HashMap<&str, &std::ops::Range<usize>> =
        spans.iter().map(|(p, range)| (p.as_str(), range)).collect();
    let below = |path: &str| -> Option<String> {
        let rest = path.strip_prefix(at)?;
        (rest.is_empty() || rest.starts_with('/')).then(|| rest.to_owned())
    };
    let mut written = KeptWritten {
        kept: HashSet::new(),
        all: true,
    };
    for (path, warning) in std::mem::take(&mut r.as_text) {
        // Where the value has it, where the text has it, and the text there.
        let place = (|| {
            let here = below(&path)?;
            let from = below(&r.unmap(&path))?;
            let range = (*spans.get(from.as_str())?).clone();
            let text = text.get(range).map(str::trim)?;
            Some((here, from, text))
        })();
        let Some((here, from, text)) = place else {
            written.all = false;
            continue;
        };
        let Some(Value::String(json)) = r.value.pointer(&here) else {
            written.all = false;
            continue;
        };
        if text == json {
            // Written there as the JSON text already.
            continue;
        }
        match repair::parse(text, &repair_options) {
            Ok(parsed) if serde_json::from_str::<Value>(json).is_ok_and(|v| v == parsed.value) => {}
            _ => {
                written.all = false;
                continue;
            }
        }
        let text = text.to_owned();
        let what = match text.as_bytes().first() {
            Some(b'[') => "an array",
            Some(b'{') => "an object",
            _ => "an integer",
        };
        if let Some(slot) = r.value.pointer_mut(&here) {
            *slot = Value::String(text);
        }
        if let Some(w) = r.warnings.get_mut(warning) {
            w.message =
                format!("the schema asks for a string: kept {what} as the reply writes it").into();
        }
        written.kept.insert(from);
    }
    Some(written)
}

/// Whether the parser's warning of `kind` at `path` (of the text [`keep_written`] read) is
/// about what it kept as written, and so goes. (A key given twice is said at its member's
/// pointer: about the object around, and the value it dropped, not the text kept.)
pub(crate) fn inside_written(kept: &HashSet<String>, path: &str, kind: WarningKind) -> bool {
    let duplicate = WarningKind::Repaired(repair::RepairKind::DuplicateKey);
    recover::pointer_prefixes(path).any(|p| kept.contains(p) && !(kind == duplicate && p == path))
}

/// The error when no candidate gave a value: recovery's, else the parser's, else "no JSON".
fn no_value<O>(raw: &str, schema: Option<&Schema>, ranking: Ranking<'_, O>) -> Error {
    ranking
        .recovery_error
        .or(ranking.syntax_error)
        .unwrap_or_else(|| {
            Error::new(
                ErrorKind::NoJson,
                "",
                match schema {
                    Some(s) => format!("JSON for {}", s.describe(s.root())),
                    None => "a JSON value".to_owned(),
                },
                no_json_found(raw),
            )
        })
}

/// Candidates arrive in text order. The cheaper wins; on equal cost, the one the reply
/// presents better ([`extract::standing`]: in a fence or a tag, then in prose, then set
/// aside as code, an example, a wrong value) wins, then an enclosing candidate beats one
/// inside it, and a later disjoint one beats an earlier one; between overlapping candidates
/// the one with fewer syntax fixes wins. (An enclosing candidate never stands worse than one
/// inside it.)
fn better<'a, O>(current: Evaluated<'a, O>, next: Evaluated<'a, O>) -> Evaluated<'a, O> {
    use std::cmp::Ordering::*;
    match next.cost.cmp(&current.cost) {
        Less => next,
        Greater => current,
        Equal if current.standing != next.standing => {
            if next.standing < current.standing {
                next
            } else {
                current
            }
        }
        Equal => {
            if current.candidate.contains(&next.candidate) {
                current
            } else if next.candidate.contains(&current.candidate)
                || next.candidate.range.start >= current.candidate.range.end
                || next.syntax < current.syntax
            {
                next
            } else {
                current
            }
        }
    }
}

/// Step 3: a document escaped as a whole is unescaped; then sanitize, then strict JSON, then
/// the lenient parser.
pub(crate) fn parse(text: &str, options: &Options) -> Result<(Value, Vec<Warning>), Error> {
    if let Some(unescaped) = sanitize::escaped_document(text) {
        let (value, mut warnings) = parse_unescaped(&unescaped, options)?;
        warnings.insert(
            0,
            Warning::new(
                WarningKind::Repaired(repair::RepairKind::DoubleEncoded),
                "",
                "took off a level of escaping around the whole document",
            ),
        );
        return Ok((value, warnings));
    }
    parse_unescaped(text, options)
}

/// [`parse`] on a text that is not escaped as a whole.
fn parse_unescaped(text: &str, options: &Options) -> Result<(Value, Vec<Warning>), Error> {
    if let Some((value, fixes)) = strict_sanitized(text, READ_SANITIZED) {
        let warnings = sanitize::fix_warnings(text, &fixes)
            .map(|(p, message)| Warning::new(WarningKind::Sanitized, p, message))
            .collect();
        return Ok((value, warnings));
    }
    match repair::parse(text, &repair_options(options)) {
        Ok(parsed) => Ok((parsed.value, repair_warnings(&parsed.repairs))),
        Err(e) => Err(syntax_error(e, text, options)),
    }
}

/// A warning for each of the lenient parser's fixes, where it made it.
pub(crate) fn repair_warnings(repairs: &repair::Repairs) -> Vec<Warning> {
    // (In the order the parser met them, as item-by-item reading says them.)
    repairs
        .said()
        .map(|said| match said {
            repair::Said::Fix(r) => {
                Warning::new(WarningKind::Repaired(r.kind), r.path, r.kind.description())
            }
            repair::Said::Rounded(r) => Warning::rounded(r.path),
        })
        .collect()
}

/// The size from which [`strict_sanitized`] reads the sanitized text a part at a time.
pub(crate) const READ_SANITIZED: usize = 1 << 20;

/// `text` sanitized, as strict JSON, and the sanitizer's fixes ([`sanitize::sanitize_runs`]);
/// `None` where it is not JSON once sanitized. From `copy_below` bytes on, `serde_json`
/// reads the sanitized text a part at a time as it is written, rather than a copy of it:
/// the copy of a large reply is up to six times the reply (one string of raw control
/// characters), and its strings are held once more in the value. The value and the fixes
/// are the same either way; reading the parts is slower (`serde_json` reads a byte at a
/// time from a reader).
fn strict_sanitized(text: &str, copy_below: usize) -> Option<(Value, Vec<usize>)> {
    if text.len() < copy_below {
        let sanitized = sanitize::sanitize_runs(text);
        let value = unique::value_from_str(&sanitized.text).ok()?;
        return Some((value, sanitized.fixes));
    }
    let mut reader = sanitize::Reader::new(text);
    if !reader.fixes_any() {
        return Some((unique::value_from_str(text).ok()?, Vec::new()));
    }
    // (Through a `BufReader`, which the standard library reads a byte at a time from its
    // buffer: `serde_json` asks for one byte a call.)
    let value = unique::value_from_reader(std::io::BufReader::new(&mut reader)).ok()?;
    Some((value, reader.fixes()))
}

/// The pipeline's error for a candidate the lenient parser gave up on.
pub(crate) fn syntax_error(e: repair::RepairError, text: &str, options: &Options) -> Error {
    if e.depth_exceeded {
        Error::new(
            ErrorKind::DepthLimit,
            "",
            format!("JSON nested at most {} deep", options.get_max_depth()),
            "deeper nesting",
        )
    } else {
        Error::new(
            ErrorKind::Syntax,
            "",
            "JSON that can be repaired",
            format!("{} ({e})", excerpt(text, 40)),
        )
    }
}

/// No JSON at all, but `Key: value` lines, and the schema wants an object: read the lines as
/// one, and recover it like any other candidate (keys loosely, values coerced).
fn key_values(raw: &str, schema: &Schema, options: &Options) -> Option<Result<Chosen, Error>> {
    let root = schema.resolve(schema.root());
    let Kind::Object(o) = &schema.node(root).kind else {
        return None;
    };
    // A single-string "markdown wrapper" takes the whole text instead (see `plain_text`).
    if o.properties.iter().filter(|p| p.required).count() < 2 {
        return None;
    }
    let mut text = String::new();
    for seg in extract::visible_segments(raw) {
        text.push_str(&raw[seg]);
        text.push('\n');
    }
    let pairs = extract::key_value_lines(&text)?;
    let mut map = serde_json::Map::new();
    for (k, v) in pairs {
        map.entry(k.to_owned())
            .or_insert_with(|| Value::String(v.to_owned()));
    }
    if options.get_policy() == crate::Policy::Strict {
        return Some(Err(Error::new(
            ErrorKind::Forbidden,
            "",
            format!(
                "JSON for {} (strict policy)",
                schema.describe(schema.root())
            ),
            "`Key: value` lines",
        )));
    }
    let r = recover::recover(Value::Object(map), schema, options).ok()?;
    let mut warnings = vec![Warning::new(
        WarningKind::Reshaped,
        "",
        "the reply has no JSON; read its `Key: value` lines as an object",
    )];
    warnings.extend(r.warnings);
    Some(Ok(Chosen {
        value: r.value,
        warnings,
    }))
}

/// Where the schema asks for a string, the reply is that string: a reply that is one JSON
/// string is its value; any other (prose, JSON, a fence) is taken as written, its visible text
/// (outside reasoning) trimmed, since re-serializing JSON or cutting prose would lose what the
/// model wrote.
fn string_reply(raw: &str, schema: &Schema, options: &Options) -> Option<Result<Chosen, Error>> {
    if !matches!(
        schema.node(schema.resolve(schema.root())).kind,
        Kind::String
    ) {
        return None;
    }
    let mut text = String::new();
    for seg in extract::visible_segments(raw) {
        text.push_str(&raw[seg]);
    }
    let text = text.trim();
    if only_fence_markers(text) {
        return None;
    }
    // (Recovering a string against a string schema changes nothing: it checks `pattern` and
    // the like.)
    let checked = |value: String, warnings: Vec<Warning>| {
        recover::recover(Value::String(value), schema, options).map(|r| Chosen {
            value: r.value,
            warnings,
        })
    };
    if let Ok(s) = serde_json::from_str::<String>(text) {
        return Some(checked(s, Vec::new()));
    }
    if options.get_policy() == crate::Policy::Strict {
        return None;
    }
    Some(checked(
        text.to_owned(),
        vec![Warning::new(
            WarningKind::Reshaped,
            "",
            "the schema asks for a string: the reply's text, as written, is the value",
        )],
    ))
}

/// Plain text where the schema wants a scalar (a string, an enum value, a number, a
/// boolean), or an object whose one required field is a string (seed 003's "markdown wrapper"
/// types): the visible text is the value, recovered like any other (so "The change is
/// approved." is the enum value `Approved`, and "About 42." the number 42). `json_values`:
/// how many JSON values were read in the prose (none fitting the schema), which the warning
/// says rather than calling the reply plain text.
fn plain_text(
    raw: &str,
    schema: &Schema,
    options: &Options,
    json_values: usize,
) -> Option<Result<Chosen, Error>> {
    let segments = extract::visible_segments(raw);
    let start = segments.first()?.start;
    let end = segments.last()?.end;
    let text = raw[start..end].trim();
    if only_fence_markers(text) {
        return None;
    }
    let root = schema.resolve(schema.root());
    let value = match &schema.node(root).kind {
        Kind::String | Kind::Enum(_) | Kind::Integer { .. } | Kind::Number | Kind::Boolean => {
            Value::String(text.to_owned())
        }
        // A union that takes text (`number | string`), and an array of scalars read as its
        // one item (`The answer is true` for `[bool]`).
        Kind::Union(branches)
            if branches
                .iter()
                .any(|b| matches!(schema.node(schema.resolve(*b)).kind, Kind::String)) =>
        {
            Value::String(text.to_owned())
        }
        Kind::Array(a)
            if a.items.is_some_and(|i| {
                matches!(
                    schema.node(schema.resolve(i)).kind,
                    Kind::String
                        | Kind::Enum(_)
                        | Kind::Integer { .. }
                        | Kind::Number
                        | Kind::Boolean
                )
            }) =>
        {
            Value::Array(vec![Value::String(text.to_owned())])
        }
        Kind::Object(o) => {
            let required: Vec<_> = o.properties.iter().filter(|p| p.required).collect();
            let [only] = required.as_slice() else {
                return None;
            };
            if !matches!(schema.node(schema.resolve(only.schema)).kind, Kind::String) {
                return None;
            }
            serde_json::json!({ only.name.clone(): text })
        }
        _ => return None,
    };
    if options.get_policy() == crate::Policy::Strict {
        return Some(Err(Error::new(
            ErrorKind::Forbidden,
            "",
            format!(
                "JSON for {} (strict policy)",
                schema.describe(schema.root())
            ),
            "plain text",
        )));
    }
    let r = match recover::recover(value, schema, options) {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let message = match json_values {
        0 => "the reply is plain text, not JSON; read the text as the value".to_owned(),
        1 => "no JSON value in the reply fits the schema (1 was read in the prose); read the \
              whole text as the value"
            .to_owned(),
        n => format!(
            "no JSON value in the reply fits the schema ({n} were read in the prose); read \
             the whole text as the value"
        ),
    };
    let mut warnings = vec![Warning::new(WarningKind::Reshaped, "", message)];
    warnings.extend(r.warnings);
    Some(Ok(Chosen {
        value: r.value,
        warnings,
    }))
}

/// Several fenced blocks of JSON in one reply, and no schema to choose between them: all of
/// them, in order, as an array (each block's fixes under its index), rather than one picked by
/// a guess. `None` unless there are two or more fences, none inside another, each holding an
/// object or an array. A fence the reply sets aside ([`extract::set_aside`]: `For example:`
/// before it) is none of them: the ranking weighs it, and any other fence beats it.
fn fenced_answers(candidates: &[Candidate<'_>], options: &Options) -> Option<Chosen> {
    let fences = answer_fences(candidates)?;
    let message = format!(
        "collected the JSON of {} fenced blocks into an array",
        fences.len()
    );
    let (values, warnings) = as_items(fences, message, options, |v| v.is_object() || v.is_array())?;
    Some(Chosen {
        value: Value::Array(values),
        warnings,
    })
}

/// The fenced blocks [`fenced_answers`] collects, in order: `None` unless there are two or
/// more, none inside another (not yet checked: that each holds an object or an array).
fn answer_fences<'s, 'a>(candidates: &'s [Candidate<'a>]) -> Option<Vec<&'s Candidate<'a>>> {
    let aside = extract::set_aside(candidates);
    let fences: Vec<&Candidate<'_>> = candidates
        .iter()
        .zip(aside)
        .filter(|(c, aside)| c.origin == Origin::Fence && !aside)
        .map(|(c, _)| c)
        .collect();
    if fences.len() < 2 || fences.windows(2).any(|w| w[1].range.start < w[0].range.end) {
        return None;
    }
    Some(fences)
}

/// Each candidate parsed, as the items of one array: the values, and the warnings (the
/// collection's, with `message`, then each candidate's fixes under its index). `None` when
/// one does not parse, or is not what `fits` takes.
fn as_items<'c>(
    candidates: impl IntoIterator<Item = &'c Candidate<'c>>,
    message: String,
    options: &Options,
    mut fits: impl FnMut(&Value) -> bool,
) -> Option<(Vec<Value>, Vec<Warning>)> {
    let mut values = Vec::new();
    let mut warnings = vec![multiple_values(message)];
    for (i, c) in candidates.into_iter().enumerate() {
        let (value, fixes) = parse(c.text, options).ok()?;
        if !fits(&value) {
            return None;
        }
        let index = crate::pointer_push("", &i.to_string());
        warnings.extend(fixes.into_iter().map(|mut w| {
            w.path = format!("{index}{}", w.path);
            w
        }));
        values.push(value);
    }
    Some((values, warnings))
}

/// The warning that the reply's separate values were taken together, saying how.
pub(crate) fn multiple_values(message: String) -> Warning {
    Warning::new(
        WarningKind::Repaired(repair::RepairKind::MultipleValues),
        "",
        message,
    )
}

/// Whether `schema`'s root is an array: objects given one by one in the reply may be its
/// items (see [`collected`]).
pub(crate) fn array_root(schema: &Schema) -> bool {
    matches!(
        schema.node(schema.resolve(schema.root())).kind,
        Kind::Array(_)
    )
}

/// The separate JSON values of `raw` ([`outermost`] of its `candidates`, but for those it
/// sets aside), for [`collected`].
/// Extraction keeps the [`MAX_SPANS`](extract::MAX_SPANS) longest bracketed spans of a
/// segment; where it let some go (`unread`), the reply is read again for all of them, so
/// that 5 000 objects given one by one are 5 000 items, not the 16 longest. None where they
/// are too many to list ([`extract::all_balanced_spans`]): nothing is collected then.
pub(crate) fn separate_values<'a>(
    raw: &'a str,
    candidates: &[Candidate<'a>],
    unread: bool,
) -> Vec<Candidate<'a>> {
    if !unread {
        return outermost(&answers(candidates));
    }
    let Some(all) = extract::all_balanced_spans(raw) else {
        return Vec::new();
    };
    let mut every: Vec<Candidate<'a>> = candidates
        .iter()
        .filter(|c| c.origin != Origin::Balanced)
        .cloned()
        .chain(all)
        .collect();
    extract::in_order(&mut every);
    outermost(&answers(&every))
}

/// The candidates the reply does not set aside ([`extract::set_aside`]): an example among
/// the objects given one by one is none of the items.
fn answers<'a>(candidates: &[Candidate<'a>]) -> Vec<Candidate<'a>> {
    let aside = extract::set_aside(candidates);
    candidates
        .iter()
        .zip(aside)
        .filter(|(_, aside)| !aside)
        .map(|(c, _)| c.clone())
        .collect()
}

/// The candidates that lie inside no other, in order, leaving out the whole reply and a span
/// cut off at its end: the separate JSON values of the reply (a fence's or a tag's body, or a
/// bracketed span in prose).
fn outermost<'a>(candidates: &[Candidate<'a>]) -> Vec<Candidate<'a>> {
    let mut out: Vec<Candidate<'a>> = Vec::new();
    for c in candidates {
        if matches!(c.origin, Origin::Whole | Origin::Truncated) {
            continue;
        }
        if out.last().is_some_and(|last| last.contains(c)) {
            continue;
        }
        out.push(c.clone());
    }
    out
}

/// Objects given one by one where the schema asks for an array (`Item 1: {...}` and `Item 2:
/// {...}` in prose, or a fence each): all of them, in order, as the array, rather than the one
/// the ranking chose wrapped alone, which would leave the others out. Only where the ranking
/// chose one of those objects over the others (not an array, nor a value inside one of them),
/// every separate value of the reply (`outermost`) is an object that can be an item (it names
/// a field of the items: [`recover::item_like`]), there are two or more, and the array they
/// make is recovered against the schema without error. The warning says so; each object's
/// fixes are under its index.
pub(crate) fn collected<O>(
    outermost: &[Candidate<'_>],
    ranking: &Ranking<'_, O>,
    schema: &Schema,
    options: &Options,
) -> Option<Chosen> {
    if !collects(outermost, ranking) {
        return None;
    }
    let message = collected_message(outermost.len());
    let mut keys = recover::KeyIndex::new();
    let (values, mut warnings) = as_items(outermost, message, options, |v| {
        v.as_object()
            .is_some_and(|o| recover::item_like(schema, o, &mut keys))
    })?;
    let r = recover::recover(Value::Array(values), schema, options).ok()?;
    if !r.as_text.is_empty() {
        return None;
    }
    for w in &mut warnings {
        w.path = r.remap(&w.path);
    }
    warnings.extend(r.warnings);
    Some(Chosen {
        value: r.value,
        warnings,
    })
}

/// Whether the ranking chose one of the reply's separate values (`outermost`, two or more)
/// over others: the first condition of [`collected`], before the values are read.
pub(crate) fn collects<O>(outermost: &[Candidate<'_>], ranking: &Ranking<'_, O>) -> bool {
    ranking.best.as_ref().is_some_and(|best| {
        outermost.len() >= 2
            && ranking.others() > 0
            && outermost.iter().any(|c| c.text == best.candidate.text)
    })
}

/// The message of [`collected`]'s warning, for `n` values.
pub(crate) fn collected_message(n: usize) -> String {
    format!("collected the {n} JSON objects given one by one in the reply into an array")
}

/// Whether `line` is a code fence's marker: three backticks and the fence's info string
/// (`json`), opening a fence (or cut off there, at the reply's end), or backticks alone,
/// closing one. Three backticks closed on the same line (`` ```no data``` ``) are inline
/// code, whose text is content.
fn fence_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") && !t.trim_start_matches('`').contains('`')
}

/// Whether `text` holds nothing but fence markers and white space (an empty fence, or one
/// cut off after its opening line): the model began a block and wrote nothing in it, which
/// is no text to read as the value.
fn only_fence_markers(text: &str) -> bool {
    text.lines().all(|l| l.trim().is_empty() || fence_marker(l))
}

/// A reply with no JSON value in it, read as plain text (what `llmout repair` gives when
/// there is nothing else): one string, or, when the text is a list of single words or numbers
/// separated by commas or lines (`a, b`, `1\n2`), an array of them, each a number or
/// literal where it reads as one. `None` when there is no visible text.
fn bare_text(raw: &str) -> Option<Chosen> {
    // (Most such replies are visible whole, with no fence marker and no carriage return:
    // read in place, not copied twice.)
    let segments = extract::visible_segments(raw);
    let text: Cow<'_, str> = match segments.as_slice() {
        [whole] if *whole == (0..raw.len()) => Cow::Borrowed(raw),
        _ => Cow::Owned(segments.into_iter().map(|seg| &raw[seg]).collect()),
    };
    // Fence markers are markup, not content (see `fence_marker`).
    let content: Cow<'_, str> = if text.contains('\r') || text.lines().any(fence_marker) {
        let mut content = String::with_capacity(text.len());
        for line in text.lines().filter(|l| !fence_marker(l)) {
            content.push_str(line);
            content.push('\n');
        }
        Cow::Owned(content)
    } else {
        // (Its lines, each with its line break, are itself.)
        text
    };
    let text = content.trim();
    let text = text
        .strip_prefix("```")
        .map_or(text, |t| t.trim_start_matches('`').trim())
        .trim_end_matches('`')
        .trim();
    if text.is_empty()
        || text
            .chars()
            .all(|c| matches!(c, '{' | '}' | '[' | ']' | '/' | '"' | '\''))
    {
        return None;
    }
    let items = || {
        text.split([',', '\n'])
            .map(str::trim)
            .filter(|i| !i.is_empty())
    };
    // (Prose fails at its first words: the items are not collected for it.)
    let list = items().all(|i| !i.contains(char::is_whitespace)) && items().nth(1).is_some();
    let item = |t: &str| match repair::parse(t, &RepairOptions::default()) {
        Ok(p) if !p.value.is_object() && !p.value.is_array() => p.value,
        // A string whose opening quote is missing: `abc"`.
        _ => match t.strip_suffix('"').filter(|s| !s.contains('"')) {
            Some(s) => Value::String(s.to_owned()),
            None => Value::String(t.to_owned()),
        },
    };
    let mut warnings = vec![Warning::new(
        WarningKind::Repaired(repair::RepairKind::UnquotedValue),
        "",
        "the reply holds no JSON value; read its text as one",
    )];
    let value = if list {
        warnings.push(Warning::new(
            WarningKind::Repaired(repair::RepairKind::MultipleValues),
            "",
            "read a list of values separated by commas or lines as an array",
        ));
        Value::Array(items().map(item).collect())
    } else {
        item(text)
    };
    Some(Chosen { value, warnings })
}

/// Whether a candidate's parse failure is worth reporting: it starts like a JSON container, or
/// a fence or tag says it is meant to be JSON.
fn looks_like_json(c: &Candidate<'_>) -> bool {
    matches!(c.origin, Origin::Fence | Origin::Tag) || c.text.starts_with(['{', '['])
}

fn no_json_found(raw: &str) -> String {
    if raw.trim().is_empty() {
        return excerpt(raw, 40);
    }
    let visible = extract::visible_segments(raw);
    if visible.is_empty() {
        return "only a reasoning block".to_owned();
    }
    if visible
        .iter()
        .all(|seg| only_fence_markers(&raw[seg.clone()]))
    {
        return format!(
            "a code fence with nothing in it: {}",
            excerpt(raw.trim(), 60)
        );
    }
    // The text quoted is the reply outside its reasoning, which is what was read.
    let shown: usize = visible.iter().map(|seg| seg.len()).sum();
    if shown == raw.len() {
        return format!("text with no JSON in it: {}", excerpt(raw.trim(), 60));
    }
    let text: String = visible.iter().map(|seg| &raw[seg.clone()]).collect();
    let hidden = raw.len() - shown;
    format!(
        "text with no JSON in it outside its reasoning ({hidden} bytes, not read as the \
         answer): {}",
        excerpt(text.trim(), 60)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// What [`rank`] chose, and how many JSON values it chose it over.
    type Choice = (Option<(std::ops::Range<usize>, Value, Vec<Warning>)>, usize);

    fn choice(ranking: Ranking<'_, (Value, Vec<Warning>)>) -> Choice {
        let others = ranking.others();
        let best = ranking.best.map(|b| (b.candidate.range, b.out.0, b.out.1));
        (best, others)
    }

    /// The ranking with every candidate evaluated: what [`rank`] must agree with.
    fn exhaustive(raw: &str, schema: Option<&Schema>) -> Choice {
        let options = Options::default();
        let mut ranking = Ranking::new();
        let candidates = extract::candidates(raw);
        let standing = extract::standing(&candidates);
        // (The parts of a document cut off that parsed are none: see `cut_off`.)
        let mut parts_of: Option<std::ops::Range<usize>> = None;
        for (k, candidate) in candidates.iter().cloned().enumerate() {
            let inside = parts_of
                .as_ref()
                .is_some_and(|r| r.start < candidate.range.start && candidate.range.end <= r.end);
            // (A whole reply that is only a fence is read as its body: see `only_a_fence`.)
            if inside || only_a_fence(&candidates, k) {
                continue;
            }
            let outcome = evaluate(candidate.text, schema, &options);
            if cut_off(&candidates, k) && !matches!(outcome, Outcome::Syntax(_)) {
                parts_of = Some(candidate.range.clone());
            }
            match outcome {
                Outcome::Parsed { out, cost, syntax } => {
                    ranking.offer(Evaluated {
                        candidate,
                        out,
                        cost,
                        syntax,
                        standing: standing[k],
                    });
                }
                Outcome::Recovery(_) => ranking.parsed.push(candidate.range.clone()),
                Outcome::Syntax(_) => {}
            }
        }
        choice(ranking)
    }

    /// `{"a": integer}`, required.
    fn object_with_a() -> Schema {
        Schema::compile(&json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "required": ["a"]
        }))
        .unwrap()
    }

    /// The candidates [`rank`] evaluated, each with whether it was told it holds the rest.
    fn evaluated(raw: &str) -> Vec<(String, bool)> {
        let mut seen = Vec::new();
        rank(extract::candidates(raw), |text, holds_all| {
            seen.push((text.to_owned(), holds_all));
            evaluate(text, None, &Options::default())
        });
        seen
    }

    /// The value and each warning's kind, path and message.
    fn answer(raw: &str, schema: &Value) -> (Option<Value>, Vec<(String, String, String)>) {
        let r = crate::from_llm_with_schema(raw, schema, &Options::default());
        let compiled = Schema::compile(schema).unwrap();
        let large = crate::large::from_llm_with_compiled(raw, &compiled, &Options::default());
        let large = match large {
            crate::large::Large::Whole(r) => r,
            crate::large::Large::Items(items) | crate::large::Large::Members(items) => {
                items.to_result()
            }
        };
        assert_eq!(large, r, "{raw}");
        let warnings = r
            .warnings
            .iter()
            .map(|w| {
                (
                    w.kind.name().to_owned(),
                    w.path.clone(),
                    w.message.to_string(),
                )
            })
            .collect();
        (r.value, warnings)
    }

    fn w(kind: &str, path: &str, message: &str) -> (String, String, String) {
        (kind.to_owned(), path.to_owned(), message.to_owned())
    }

    fn people() -> Value {
        json!({
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                "required": ["id", "name"]
            }
        })
    }

    #[test]
    fn objects_given_one_by_one_are_the_items_of_an_array_schema() {
        // In prose, each with its own fixes (under its index, then moved by recovery).
        let (value, warnings) = answer(
            "Two people:\n- {id: 1, 'name': 'Ann'}\n- {\"ID\": \"2\", \"name\": \"Bo\"}\nThat's all.",
            &people(),
        );
        assert_eq!(
            value,
            Some(json!([{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]))
        );
        let collected = "collected the 2 JSON objects given one by one in the reply into an array";
        assert_eq!(
            warnings,
            [
                w("repaired", "", collected),
                w("repaired", "/0", "quoted an unquoted key"),
                w("repaired", "/0", "read a string in non-JSON quotes"),
                w("repaired", "/0/name", "read a string in non-JSON quotes"),
                w(
                    "key_renamed",
                    "/1/id",
                    "renamed key \"ID\" to \"id\" (the same name in another case or spelling)"
                ),
                w("coerced", "/1/id", "read \"2\" as the integer 2"),
            ]
        );
        // A fence each.
        let fences = "First:\n```json\n{\"id\": 1, \"name\": \"a\"}\n```\nSecond:\n```json\n{\"id\": 2, \"name\": \"b\"}\n```";
        let (value, warnings) = answer(fences, &people());
        assert_eq!(
            value,
            Some(json!([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]))
        );
        assert_eq!(warnings, [w("repaired", "", collected)]);
        // Against an object schema the ranking still chooses one (the later, a correction).
        let (value, warnings) = answer(fences, &people()["items"]);
        assert_eq!(value, Some(json!({"id": 2, "name": "b"})));
        assert_eq!(warnings.len(), 1);
    }

    /// More objects than extraction keeps spans of (the 16 longest): the reply is read again
    /// for all of them, and every one is an item, in order. Before, the 16 longest were
    /// collected and the warning named 16: the others were lost without a word.
    #[test]
    fn every_object_given_one_by_one_is_collected() {
        let mut reply = String::from("The people:\n");
        for i in 0..100 {
            reply.push_str(&format!("Person {i}: {{id: {i}, \"name\": \"p{i}\"}}\n"));
        }
        let (value, warnings) = answer(&reply, &people());
        let expected: Vec<Value> = (0..100)
            .map(|i| json!({"id": i, "name": format!("p{i}")}))
            .collect();
        assert_eq!(value, Some(Value::Array(expected)));
        let collected =
            "collected the 100 JSON objects given one by one in the reply into an array";
        assert_eq!(warnings[0], w("repaired", "", collected));
        assert_eq!(warnings.len(), 101);
        assert_eq!(
            warnings[100],
            w("repaired", "/99", "quoted an unquoted key")
        );
        // Too many to list (more than one every 8 bytes): none collected, one object
        // chosen, and the warning says the reply holds more than was read.
        let crowded = "{id: 1}".repeat(40);
        let (value, warnings) = answer(&crowded, &people());
        assert_eq!(value, Some(json!([{"id": 1, "name": ""}])));
        assert_eq!(
            warnings[0],
            w(
                "extracted",
                "",
                "chose the JSON in the text over 15 other JSON values in the reply, of the 16 \
                 longest bracketed spans of a text that are read: the reply holds more, which \
                 may be JSON too"
            )
        );
        assert!(!warnings.iter().any(|w| w.0 == "repaired" && w.1.is_empty()));
    }

    #[test]
    fn objects_are_not_collected_where_they_are_not_the_items() {
        // An array among them: it is the answer, chosen over the object.
        let (value, warnings) = answer(
            "[{\"id\": 2, \"name\": \"b\"}] and {\"id\": 3, \"name\": \"c\"}",
            &people(),
        );
        assert_eq!(value, Some(json!([{"id": 2, "name": "b"}])));
        assert_eq!(warnings[0].0, "extracted");
        // An object that is no item (an example of another shape): the one that fits, alone.
        let (value, warnings) = answer(
            "Format: {\"type\": \"x\"}\nAnswer: {\"id\": 2, \"name\": \"b\"}",
            &people(),
        );
        assert_eq!(value, Some(json!([{"id": 2, "name": "b"}])));
        assert_eq!(
            warnings.iter().map(|w| w.0.as_str()).collect::<Vec<_>>(),
            ["extracted", "reshaped"]
        );
        // Braces in prose are no item: the answer alone, as before.
        let (value, warnings) = answer(
            "Fill in {name} for each.\nAnswer: {\"id\": 2, \"name\": \"b\"}",
            &people(),
        );
        assert_eq!(value, Some(json!([{"id": 2, "name": "b"}])));
        assert_eq!(
            warnings.iter().map(|w| w.0.as_str()).collect::<Vec<_>>(),
            ["extracted", "reshaped"]
        );
        let loose = json!({"type": "array", "items": {"type": "object", "properties": {"note": {"type": "string"}}}});
        let (value, _) = answer("Use {x: 1} or {}.\nAnswer: {\"note\": \"hi\"}", &loose);
        assert_eq!(value, Some(json!([{"note": "hi"}])));
        // Objects side by side are one document of several values, which the parser collects.
        let (value, warnings) = answer(
            "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}",
            &people(),
        );
        assert_eq!(
            value,
            Some(json!([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]))
        );
        assert_eq!(
            warnings,
            [w(
                "repaired",
                "",
                "collected several top-level values into an array"
            )]
        );
        // The answer inside a wrapper object, beside another object: the wrapper's array.
        let (value, _) = answer(
            "Note: {\"id\": 9, \"name\": \"z\"} {\"results\": [{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"b\"}]}",
            &people(),
        );
        assert_eq!(
            value,
            Some(json!([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]))
        );
    }

    #[test]
    fn code_that_uses_the_answer_is_not_the_answer() {
        // The answer in a JSON fence, then a program that reads it: the program's dict, its
        // subscript, its object literal are code, which any other candidate beats, before
        // or after it, with a schema that both fit or none.
        let chose = |n: usize| {
            let plural = if n == 1 { "value" } else { "values" };
            w(
                "extracted",
                "",
                &format!(
                    "chose the JSON in a markdown fence over {n} other JSON {plural} in the reply"
                ),
            )
        };
        let schema = json!({"type": "object", "required": ["id"],
            "properties": {"id": {"type": "integer"}}});
        let python = "Result:\n```json\n{\"id\": 7}\n```\nRead it so:\n```python\nrow = {\"id\": 0}\nprint(row[\"id\"])\n```";
        for schema in [json!({}), schema] {
            assert_eq!(
                answer(python, &schema),
                (Some(json!({"id": 7})), vec![chose(2)])
            );
        }
        let js = "```js\nconst out = { id: ids.length };\n```\nwhich gives\n~~~\n{\"id\": 3}\n~~~";
        assert_eq!(
            answer(js, &json!({})),
            (Some(json!({"id": 3})), vec![chose(1)])
        );
        // A fence of a language taken whole is a fence like any other: the last of two.
        let whole = "```json\n{\"id\": 1}\n```\n```python\n{\"id\": 2}\n```";
        assert_eq!(answer(whole, &json!({})).0, Some(json!({"id": 2})));
        // Code alone is still read, and a text fence is no code.
        let only = "```python\nrow = {\"id\": 5}\n```";
        assert_eq!(answer(only, &json!({})).0, Some(json!({"id": 5})));
        let text = "```json\n{\"id\": 1}\n```\n```text\nlog: {\"id\": 9}\n```";
        assert_eq!(answer(text, &json!({})).0, Some(json!({"id": 9})));
    }

    #[test]
    fn an_example_or_a_wrong_value_after_the_answer_is_not_the_answer() {
        let schema = json!({"type": "object", "required": ["id"],
            "properties": {"id": {"type": "integer"}}});
        let replies = [
            "Answer: {\"id\": 7}\n\nFor example, a reply with a typo would be {\"id\": 8}.",
            "```json\n{\"id\": 7}\n```\nNote that `{\"id\": 8}` is not valid here.",
            "Draft rejected.\n```json\n{\"id\": 7}\n```\nA wrong one:\n```json\n{\"id\": 8}\n```",
        ];
        for raw in replies {
            for schema in [json!({}), schema.clone()] {
                assert_eq!(answer(raw, &schema).0, Some(json!({"id": 7})), "{raw}");
            }
            let r = repair_text(raw, &Options::default()).unwrap();
            assert_eq!(r.value, json!({"id": 7}), "{raw}");
            let written = repair_json(raw, &Options::default()).unwrap();
            assert_eq!(written.json, r#"{"id":7}"#, "{raw}");
        }
        // A value quoted in a sentence after a fenced answer is a mention: the fence, the
        // reply's presented answer, wins; between two values in prose the later still does,
        // and a template after the answer is set aside.
        for (raw, id) in [
            (
                "```json\n{\"id\": 7}\n```\nHad it been Bob, I would write {\"id\": 8}.",
                7,
            ),
            (
                "<answer>{\"id\": 7}</answer> (Bob's would be {\"id\": 8})",
                7,
            ),
            ("First {\"id\": 8}, then on reflection {\"id\": 7}", 7),
            (
                "```json\n{\"id\": 7}\n```\nTemplate:\n```json\n{\"id\": 0}\n```",
                7,
            ),
        ] {
            for schema in [json!({}), schema.clone()] {
                assert_eq!(answer(raw, &schema).0, Some(json!({"id": id})), "{raw}");
            }
            let r = repair_text(raw, &Options::default()).unwrap();
            assert_eq!(r.value, json!({"id": id}), "{raw}");
        }
        // An example before the answer loses as it did, and one that costs less than the
        // answer still wins: the aside decides ties only.
        let before = "E.g. {\"id\": 8}. The answer: {\"id\": 7}";
        assert_eq!(answer(before, &schema).0, Some(json!({"id": 7})));
        let cheaper = "{\"id\": \"seven\"}\nFor example {\"id\": 8}";
        assert_eq!(answer(cheaper, &schema).0, Some(json!({"id": 8})));
        // Objects given one by one for an array are its items, but for an example.
        let items = json!({"type": "array", "items": schema});
        let one_by_one = "A bad item: {\"id\": \"x\"}\nThe items:\n{\"id\": 1}\n{\"id\": 2}";
        assert_eq!(
            answer(one_by_one, &items).0,
            Some(json!([{"id": 1}, {"id": 2}]))
        );
        // Fences the reply does not set aside are still collected, all of them.
        let two =
            "```json\n{\"id\": 1}\n```\n```json\n{\"id\": 2}\n```\nE.g.\n```json\n{\"id\": 3}\n```";
        let r = repair_text(two, &Options::default()).unwrap();
        assert_eq!(r.value, json!([{"id": 1}, {"id": 2}]));
    }

    #[test]
    fn a_document_that_holds_every_other_candidate_is_parsed_alone() {
        let raw = "// the records\n[{a: 1}, {b: [2, 3]}]";
        assert_eq!(evaluated(raw), [(raw.to_owned(), true)]);
        let (best, others) = exhaustive(raw, None);
        assert_eq!((best.map(|b| b.0), others), (Some(0..raw.len()), 0));
    }

    #[test]
    fn a_fence_that_holds_the_rest_is_parsed_once_after_the_prose_fails() {
        // The whole reply fails (it starts with words); the fence holds both objects, and no
        // candidate parsed before it, so it is told it holds the rest and nothing after it
        // is evaluated.
        let raw = "Here they are:\n```json\n[{a: 1}, {b: 2}]\n```";
        assert_eq!(
            evaluated(raw),
            [
                (raw.to_owned(), true),
                ("[{a: 1}, {b: 2}]".to_owned(), true),
            ]
        );
        let (best, others) = exhaustive(raw, None);
        assert_eq!((best.map(|b| b.0), others), (Some(23..39), 0));
    }

    #[test]
    fn candidates_outside_the_best_so_far_are_still_evaluated() {
        // The prose fails; the first object is best until the later one replaces it.
        let raw = "x {a: 1} y {b: 2}";
        assert_eq!(
            evaluated(raw),
            [
                (raw.to_owned(), true),
                ("{a: 1}".to_owned(), false),
                ("{b: 2}".to_owned(), false),
            ]
        );
    }

    #[test]
    fn a_costly_best_does_not_end_the_ranking() {
        // With a schema the whole reply (an array, then a comment) costs a reshaping; the
        // object inside it, in the comment, costs nothing and must still be looked at.
        let schema = object_with_a();
        let raw = "[{\"a\": 1}] // {a: 2}";
        let options = Options::default();
        let ranked = choice(rank(extract::candidates(raw), |text, _| {
            evaluate(text, Some(&schema), &options)
        }));
        assert_eq!(ranked, exhaustive(raw, Some(&schema)));
        assert_eq!(ranked.0.map(|b| b.1), Some(json!({"a": 2})));
    }

    /// Replies built from prose, fences, tags, comments and (broken) JSON values.
    fn reply() -> impl Strategy<Value = String> {
        let piece = proptest::sample::select(vec![
            "Sure! ",
            "```json\n",
            "```python\nx = ",
            "\n```",
            "<answer>",
            "</answer>",
            "<think>",
            "</think>",
            "// note\n",
            "{a: 1}",
            "{\"a\": 2}",
            "[1, 2]",
            "{a: 'x'}",
            "{b: {a: 3}}",
            "[{a: 4}]",
            " ",
            "\n",
            "{",
            "}",
            "[",
            "]",
            ",",
            "x",
            "\"",
        ]);
        proptest::collection::vec(piece, 0..16).prop_map(|parts| parts.concat())
    }

    /// A reply that is JSON once sanitized gives one value and one list of fixes whether its
    /// sanitized text is copied whole or read a part at a time; so does one that is not.
    #[test]
    fn a_sanitized_reply_read_in_parts_is_the_copy_s_value() {
        let many = format!(
            "{{\"text\": \"{}\", \"n\": [1, 2.5e3]}}",
            "\u{1}\\q\t".repeat(40_000)
        );
        for raw in [
            many.as_str(),
            "{\"a\": \"x\ty\", \"b\": \"\\q\", \"c\": [\"line\n  \"]}",
            "{\"a\": \"no fix\"}",
            "{\"a\": \"x\ty\", b: 1}",
            "{\"a\": \"x\ty\"} trailing",
        ] {
            let copied = strict_sanitized(raw, usize::MAX);
            assert_eq!(
                strict_sanitized(raw, 0),
                copied,
                "{:?}",
                &raw[..raw.len().min(40)]
            );
        }
        let (value, fixes) = strict_sanitized(&many, 0).unwrap();
        assert_eq!(value["text"].as_str().map(str::len), Some(160_000));
        assert_eq!((value["n"].clone(), fixes), (json!([1, 2500.0]), vec![10]));
        assert_eq!(strict_sanitized("{\"a\": \"x\ty\", b: 1}", 0), None);
    }

    #[test]
    fn a_reply_with_no_json_is_its_text_written_as_it_is_made() {
        let options = Options::default();
        for (raw, json) in [
            ("hello world", r#""hello world""#),
            ("a, b\n1", r#"["a","b",1]"#),
            ("line one\r\nline two", r#""line one\nline two""#),
            ("<think>x</think> just words", r#""just words""#),
            ("tab\there \u{1}", r#""tab\there \u0001""#),
        ] {
            let (written, _) = repaired_json(raw, &options).unwrap();
            assert!(matches!(written, Written::Value(_)), "{raw:?}");
            let mut out = Vec::new();
            written.write_to(&mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), json, "{raw:?}");
            let r = repair_json(raw, &options).unwrap();
            assert_eq!(r.json, json, "{raw:?}");
            assert_eq!(
                r.changes,
                repair_text(raw, &options).unwrap().warnings.len()
            );
        }
    }

    #[test]
    fn a_large_reply_whose_json_would_be_far_larger_is_written_as_it_is_made() {
        let n = READ_SANITIZED;
        let options = Options::default();
        for (raw, streamed) in [
            // A string of raw control characters left open: `\u0001` for each, six times.
            (format!("Here: {{\"log\": \"{}", "\u{1}".repeat(n)), true),
            // Raw line breaks in a string, closed: `\n` for each.
            (format!("{{\"a\": \"x{}\" and \"y}}", "\n".repeat(n)), true),
            // The same, but a key given twice rewrites the object: held whole.
            (format!("{{\"a\": \"{}\", a: 1}}", "\u{1}".repeat(n)), false),
            // Few control characters: written whole, as ever.
            (format!("{{a: '{}'}}", "x".repeat(n)), false),
        ] {
            let (written, changes) = repaired_json(&raw, &options).unwrap();
            assert_eq!(
                matches!(written, Written::Streamed(..)),
                streamed,
                "{streamed}"
            );
            let mut out = Vec::new();
            written.write_to(&mut out).unwrap();
            let candidate = &raw[raw.find('{').unwrap()..];
            let whole = repair::to_string_counted(candidate, &repair_options(&options)).unwrap();
            assert!(out == whole.json.as_bytes(), "{streamed}");
            assert_eq!(changes, whole.fixes);
            assert_eq!(repair_json(&raw, &options).unwrap().json, whole.json);
        }
    }

    #[test]
    fn a_large_reply_valid_once_sanitized_is_written_over_its_copy_or_from_its_parts() {
        // Over a MiB, in a fence: the sanitizer's fixes, escapes that are written shorter,
        // a surrogate pair, white space. A copy about as long as the reply, its strings
        // short, is written over itself; one six times as long is not made, nor is one
        // about as long whose one string is nearly the whole reply (checking the copy would
        // hold that string decoded beside the reply and the copy): read and written in parts.
        // A key given twice and a lone surrogate (fixes of the parser's) are not JSON as
        // `parse` reads it: the parser writes them.
        let unit = "\u{1}\\q\t\\u0041\\/\\ud83d\\ude00 é";
        let long = format!("{}\\/ é", "\u{1}".repeat(20)).repeat(50_000);
        let numbers = ", 0".repeat(400_000);
        // (The parser says the short body's control characters and its invalid escapes
        // apart, the sanitizer as one run of escapes.)
        for (body, pad, parts, fixes) in [
            (unit.repeat(20), numbers.as_str(), false, 2),
            (unit.repeat(50_000), "", true, 2),
            (long, "", true, 1),
        ] {
            for (tail, count, read) in [
                ("", 1, parts),
                (", \"a\": 2", fixes + 1, false),
                (", \"b\": \"\\udc00\"", fixes + 1, false),
            ] {
                let raw = format!(
                    "Here:\n```json\n{{ \"a\" : \"{body}\" ,\n \"n\": [1, 2.50e3{pad}]{tail} }}\n```"
                );
                let candidate = &raw[raw.find('{').unwrap()..raw.rfind('}').unwrap() + 1];
                let options = Options::default();
                // What the parser writes from a sanitized copy beside the reply.
                let beside = Run {
                    parse: parse_writing,
                    valid: |json| parse_writing(&json, &valid_json_options()),
                    sanitized: |_| unreachable!("copied"),
                    streamed: None,
                    read_from: usize::MAX,
                };
                let (n, copied) = changes(candidate, &options, beside).unwrap();
                let (m, written) = changes(candidate, &options, writing(READ_SANITIZED)).unwrap();
                assert_eq!(matches!(written, Written::Sanitized(_)), read, "{tail}");
                assert!(written.into_string() == copied, "{tail}");
                assert_eq!((n, m), (count, count), "{tail}");
                let r = repair_json(&raw, &options).unwrap();
                assert!(r.json == copied, "{tail}");
                assert_eq!(r.changes, count, "{tail}");
                assert_eq!(repair_text(&raw, &options).unwrap().warnings.len(), count);
            }
        }
    }

    #[test]
    fn the_first_value_is_found_through_opening_brackets_and_first_keys() {
        let at = |text: &str, value: &str| first_value_at(text, text.find(value).unwrap());
        // An array's first item; an object's first member's value, under a key quoted
        // (an escaped quote inside it), single-quoted or bare; and down through them.
        assert!(at("[ {\"a\": 1", "{"));
        assert!(at("{\"records\": [{\"id\": 1", "{\"id"));
        assert!(at("{\"a\\\"b\" : [1, 2", "[1"));
        assert!(at("{'k': {x: 1", "{x"));
        assert!(at("{rows:\n  [3", "[3"));
        // Not a first value: a later member's, or after a key that is no key.
        assert!(!at("{\"a\": 1, \"b\": [2", "[2"));
        assert!(!at("{a b: [2", "[2"));
        assert!(!at("{\"a\" [2", "[2"));
        assert!(!at("{{\"a\": 1", "{\"a"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Stopping at a best that costs nothing and holds the rest changes no choice.
        #[test]
        fn rank_chooses_what_evaluating_every_candidate_chooses(raw in reply()) {
            let schema = object_with_a();
            let options = Options::default();
            for schema in [None, Some(&schema)] {
                let ranked = choice(rank(extract::candidates(&raw), |text, _| evaluate(text, schema, &options)));
                prop_assert_eq!(ranked, exhaustive(&raw, schema));
            }
        }

        /// A reply valid once sanitized, written over its copy or (where the copy would be
        /// long) from its parts, as above a MiB, is the JSON and the count the copy beside
        /// it gives: around prose and in fences, with keys given twice, lone surrogates,
        /// numbers out of range, and (now and then) a syntax error.
        #[test]
        fn reading_the_sanitized_parts_writes_what_the_copy_writes(
            members in proptest::collection::vec((
                // (`a` may be given twice; the others are numbered.)
                proptest::sample::select(vec!["k", "k", "k\t", "a"]),
                proptest::collection::vec(proptest::sample::select(vec![
                    "\u{1}", "\t", "\n", "\n  ", "\\q", "\\u12", "\\'", "\\u0041",
                    "\\ud83d\\ude00", "é", "x", "\\\"", "\\\n", "\u{1f}", "\u{1}", "\t",
                ]), 1..6),
                // Now and then a lone surrogate, which `parse` does not read as JSON.
                proptest::sample::select(vec!["", "", "", "", "", "", "", "", "", "\\udc00"]),
                // Raw control characters, which make the sanitized text longer than half as
                // long again, to be read in parts.
                0..40usize,
                proptest::sample::select(vec![
                    "\"{}\"", "[1, \"{}\"]", "{\"s\": \"{}\"}", "\"{}\"", "[1, \"{}\"]",
                    "2", "\"{}\"", "[1, \"{}\"]", "1e400",
                ]),
            ), 1..5),
            around in proptest::sample::select(vec![
                "{}", "{}", "Here: {} Done.", "```json\n{}\n```", "{},", "{} {\"b\": \"\t\"}",
            ]),
        ) {
            let members: Vec<String> = members
                .iter()
                .enumerate()
                .map(|(i, (key, body, lone, controls, shape))| {
                    let key = if *key == "a" { "a".to_owned() } else { format!("{key}{i}") };
                    let body = body.concat() + lone + &"\u{1}".repeat(*controls);
                    format!("\"{key}\": {}", shape.replacen("{}", &body, 1))
                })
                .collect();
            let document = format!("{{{}}}", members.join(", "));
            let raw = around.replacen("{}", &document, 1);
            let options = Options::default();
            let copied = repaired_json_reading(&raw, &options, usize::MAX);
            let read = repaired_json_reading(&raw, &options, 0);
            prop_assert_eq!(
                read.map(|(json, n)| (json.into_string(), n)),
                copied.map(|(json, n)| (json.into_string(), n))
            );
        }
    }

    /// A record as a type: `from_large` and `from_whole` must give the same result for it.
    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Rec {
        id: u32,
        name: String,
        tags: Vec<String>,
        note: Option<String>,
    }
    impl LlmOutput for Rec {}

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Page {
        total: u32,
        records: Vec<Rec>,
    }
    impl LlmOutput for Page {}

    /// A type serde refuses more of than its schema does: `extra` never deserializes.
    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Picky {
        records: Vec<i64>,
        #[serde(default, deserialize_with = "refuse")]
        extra: Option<i64>,
    }
    impl LlmOutput for Picky {}

    fn refuse<'de, D: serde::Deserializer<'de>>(_: D) -> Result<Option<i64>, D::Error> {
        Err(serde::de::Error::custom("never"))
    }

    /// `from_large` on `raw` (which must read it item by item, `members` saying whether as an
    /// object's members) is `from_whole`, exactly; its result.
    fn large_is_whole<T: LlmOutput + PartialEq + std::fmt::Debug>(
        raw: &str,
        members: bool,
    ) -> ValidationResult<T> {
        large_is_whole_with(raw, members, &Options::default())
    }

    fn large_is_whole_with<T: LlmOutput + PartialEq + std::fmt::Debug>(
        raw: &str,
        members: bool,
        options: &Options,
    ) -> ValidationResult<T> {
        let schema = T::compiled_schema();
        let typed = options.clone().keep_unknown_keys(false);
        match crate::large::from_llm_with_compiled(raw, schema, &typed) {
            crate::large::Large::Items(_) => assert!(!members, "{raw}"),
            crate::large::Large::Members(_) => assert!(members, "{raw}"),
            crate::large::Large::Whole(r) => panic!("read whole: {r:?}"),
        }
        let large = from_large::<T>(raw, schema, options);
        assert_eq!(large, from_whole::<T>(raw, schema, options), "{raw}");
        large
    }

    fn rec(id: u32, name: &str, tags: &[&str], note: Option<&str>) -> Rec {
        Rec {
            id,
            name: name.to_owned(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            note: note.map(str::to_owned),
        }
    }

    #[test]
    fn a_large_reply_deserializes_from_its_text_as_it_is_written() {
        // Records in a fence after prose, each with fixes: unquoted keys, single quotes, a
        // number as a string, a key in another case, trailing commas, Python's `None`.
        let raw = "The records:\n```json\n[{id: 1, 'name': 'one', tags: ['a',],}, \
                   {\"ID\": \"2\", name: 'two', tags: [], note: None}]\n```";
        let r = large_is_whole::<Vec<Rec>>(raw, false);
        assert_eq!(
            r.value,
            Some(vec![rec(1, "one", &["a"], None), rec(2, "two", &[], None)])
        );
        assert!(r.recovered);
        let paths: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
        assert!(paths.contains(&"/1/id"), "{paths:?}");

        // An object around the records; its key in another case, and a key the type does
        // not have, which a type's schema drops with a warning.
        let raw = "{Total: 2, extra: true, records: [{id: 1, name: 'a', tags: []}, \
                   {id: 2, name: 'b', tags: ['x'], note: 'n'}]}";
        let r = large_is_whole::<Page>(raw, false);
        assert_eq!(
            r.value,
            Some(Page {
                total: 2,
                records: vec![rec(1, "a", &[], None), rec(2, "b", &["x"], Some("n"))],
            })
        );
        assert!(
            r.warnings.iter().any(|w| w.path == "/extra"),
            "{:?}",
            r.warnings
        );

        // Records keyed by id: an object's members, one by one.
        let raw = "{'r1': {id: 1, name: 'a', tags: []}, r2: {id: '2', name: 'b', tags: [],},}";
        let r = large_is_whole::<std::collections::BTreeMap<String, Rec>>(raw, true);
        let expected: std::collections::BTreeMap<String, Rec> = [
            ("r1".to_owned(), rec(1, "a", &[], None)),
            ("r2".to_owned(), rec(2, "b", &[], None)),
        ]
        .into();
        assert_eq!(r.value, Some(expected));

        // Cut off at the token limit inside the last record, before its required `name`:
        // that record is dropped, item by item as whole, with the warning that says so.
        let raw =
            "```json\n[{id: 1, name: 'a', tags: []}, {id: 2, name: 'b', tags: []}, {id: 3, ta";
        let r = large_is_whole::<Vec<Rec>>(raw, false);
        assert_eq!(
            r.value,
            Some(vec![rec(1, "a", &[], None), rec(2, "b", &[], None)])
        );
        let dropped: Vec<(&str, &str)> = (r.warnings.iter())
            .filter(|w| w.kind == WarningKind::ItemDropped)
            .map(|w| (w.path.as_str(), &*w.message))
            .collect();
        assert_eq!(
            dropped,
            [(
                "/2",
                "dropped item 2, which the reply was cut off in: at /2/name: expected a string \
                 for \"name\" (required; never filled in), found nothing"
            )]
        );
    }

    #[test]
    fn a_large_reply_serde_refuses_falls_back_as_the_whole_one_does() {
        // `extra` fits the schema but not serde: the required fields alone, with a warning.
        let r = large_is_whole::<Picky>("{records: [1, 2, '3'], extra: 4}", false);
        assert_eq!(
            r.value,
            Some(Picky {
                records: vec![1, 2, 3],
                extra: None
            })
        );
        assert_eq!(
            r.warnings.last().map(|w| w.kind),
            Some(WarningKind::RequiredOnly)
        );

        // Nested deeper than serde_json reads text (128): the value is built after all.
        let deep = format!("[1, {}2{},]", "[".repeat(150), "]".repeat(150));
        let options = Options::default().max_depth(200);
        let r = large_is_whole_with::<Vec<Value>>(&deep, false, &options);
        let mut expected = json!(2);
        for _ in 0..150 {
            expected = json!([expected]);
        }
        assert_eq!(r.value, Some(vec![json!(1), expected]));
    }

    #[test]
    fn a_large_reply_that_cannot_be_recovered_is_the_whole_ones_error() {
        let options = Options::default();
        let raw = "[1, 2, 'x']";
        let schema = <Vec<i64>>::compiled_schema();
        let large = from_large::<Vec<i64>>(raw, schema, &options);
        assert_eq!(large, from_whole::<Vec<i64>>(raw, schema, &options));
        assert_eq!(large.error.map(|e| e.kind()), Some(ErrorKind::Mismatch));
        // A shape not read item by item: the same result too.
        let raw = "{id: 1, name: 'a', tags: ['x']}";
        let schema = Rec::compiled_schema();
        let large = from_large::<Rec>(raw, schema, &options);
        assert_eq!(large, from_whole::<Rec>(raw, schema, &options));
        assert_eq!(large.value, Some(rec(1, "a", &["x"], None)));
    }
}
