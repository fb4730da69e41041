//! Lenient JSON: parses the JSON models actually write, in one linear pass, recording every fix.
//!
//! [`parse`] accepts everything `serde_json` accepts and returns the same value with no repairs.
//! On anything else it keeps going where a reader would, and records each fix as a [`Repair`]
//! with its byte offset and the JSON pointer of the value it was building:
//!
//! | mistake | example | becomes | kind |
//! |---|---|---|---|
//! | trailing comma | `[1, 2,]` | `[1, 2]` | [`TrailingComma`](RepairKind::TrailingComma) |
//! | leading or doubled comma | `[, 1,, 2]` | `[1, 2]` | [`ExtraComma`](RepairKind::ExtraComma) |
//! | missing comma | `{"a": 1 "b": 2}` | `{"a": 1, "b": 2}` | [`MissingComma`](RepairKind::MissingComma) |
//! | missing colon | `{"a" 1}` | `{"a": 1}` | [`MissingColon`](RepairKind::MissingColon) |
//! | comments | `// …`, `/* … */`, `# …` | removed | [`Comment`](RepairKind::Comment) |
//! | other quotes | `'a'`, `“a”`, `‘a’`, `` `a` ``, `"""a"""` | `"a"` | [`QuoteStyle`](RepairKind::QuoteStyle) |
//! | unquoted key | `{name: 1}` | `{"name": 1}` | [`UnquotedKey`](RepairKind::UnquotedKey) |
//! | unquoted value | `{"a": hello world}` | `{"a": "hello world"}` | [`UnquotedValue`](RepairKind::UnquotedValue) |
//! | Python / JS literal | `True`, `None`, `undefined` | `true`, `null`, `null` | [`Literal`](RepairKind::Literal) |
//! | non-finite number | `NaN`, `-Infinity`, `1e999` | `null` | [`NonFinite`](RepairKind::NonFinite) |
//! | number format | `+1`, `.5`, `5.`, `1_000`, `{"a": 1,250.5}` | `1`, `0.5`, `5`, `1000`, `{"a": 1250.5}` | [`NumberFormat`](RepairKind::NumberFormat) |
//! | number glued to text, or with leading zeros | `12abc`, `2024-01-05`, `007` | `"12abc"`, `"2024-01-05"`, `"007"` | [`UnquotedValue`](RepairKind::UnquotedValue) |
//! | invalid escape | `"\'"`, `"C:\xyz"`, lone `\uD800` | `"'"`, `"C:\\xyz"`, `"\uFFFD"` | [`InvalidEscape`](RepairKind::InvalidEscape) |
//! | raw control character | a newline inside a string | kept | [`ControlCharacter`](RepairKind::ControlCharacter) |
//! | layout before a closing quote on a line of its own | `"text`, a line break, `  "` | `"text"` | [`StrayText`](RepairKind::StrayText) |
//! | unescaped inner quote | `"She said "no" twice"` | one string | [`UnescapedQuote`](RepairKind::UnescapedQuote) |
//! | missing quote | `{"a": "b, "c": 1}`, `{"a": "x}` | `{"a": "b", "c": 1}`, `{"a": "x"}` | [`MissingQuote`](RepairKind::MissingQuote) |
//! | strings joined with `+` | `"a" + "b"` | `"ab"` | [`Concatenation`](RepairKind::Concatenation) |
//! | truncation | `{"a": [1, "tw` | `{"a": [1, "tw"]}` | [`Truncated`](RepairKind::Truncated) |
//! | wrong closer | `{"a": [1, 2}` | `{"a": [1, 2]}` | [`MismatchedCloser`](RepairKind::MismatchedCloser) |
//! | extra closer | `[{"a": 1}]]` | `[{"a": 1}]` | [`ExtraCloser`](RepairKind::ExtraCloser) |
//! | missing closer | `[{"a": 1, {"a": 2}]` | `[{"a": 1}, {"a": 2}]` | [`MissingCloser`](RepairKind::MissingCloser) |
//! | text that is no JSON | `{"a": 1, NOTE "b": 2}`, `{{"a": 1}}` | `{"a": 1, "b": 2}`, `{"a": 1}` | [`StrayText`](RepairKind::StrayText) |
//! | a reasoning block between tokens | `[1, <think>or 3?</think> 2]` | `[1, 2]` | [`StrayText`](RepairKind::StrayText) |
//! | `key: value` in an array | `["a": 1, "b": 2]` | `[{"a": 1, "b": 2}]` | [`KeyValueInArray`](RepairKind::KeyValueInArray) |
//! | Python tuple, set | `(1, 2)`, `{'a', 'b'}` | `[1, 2]`, `["a", "b"]` | [`Tuple`](RepairKind::Tuple), [`Set`](RepairKind::Set) |
//! | an array where a key should be | `{"a": [1], [2]}` | `{"a": [1, 2]}` | [`SplitArray`](RepairKind::SplitArray) |
//! | an empty value beside the document | `[]{"a": 1}` | `{"a": 1}` | [`EmptyValue`](RepairKind::EmptyValue) |
//! | elision | `[1, 2, ...]`, `[1, …]` | `[1, 2]`, `[1]` | [`Ellipsis`](RepairKind::Ellipsis) |
//! | a key with no value | `{"a": , "b": 1}` | `{"a": null, "b": 1}` | [`MissingValue`](RepairKind::MissingValue) |
//! | duplicate key | `{"a": 1, "a": 2}` | `{"a": 2}` | [`DuplicateKey`](RepairKind::DuplicateKey) |
//! | several top-level values | `{"a":1}\n{"a":2}` | `[{"a":1}, {"a":2}]` | [`MultipleValues`](RepairKind::MultipleValues) |
//! | JSONP or call wrapper | `callback({"a": 1});`, `ObjectId("5f…")`, `NumberLong(2)` | `{"a": 1}`, `"5f…"`, `2` | [`Wrapper`](RepairKind::Wrapper) |
//! | regex literal, code block | `/^a+$/i`, ```` ```\ncode\n``` ```` | `"/^a+$/i"`, `"code"` | [`UnquotedValue`](RepairKind::UnquotedValue), [`QuoteStyle`](RepairKind::QuoteStyle) |
//! | double encoding (opt-in) | `"{\"a\": 1}"` | `{"a": 1}` | [`DoubleEncoded`](RepairKind::DoubleEncoded) |
//!
//! # How it decides
//!
//! * **Where a string ends.** A quote inside a string ends it only when what follows it, past
//!   whitespace and comments, could follow a string in its place: `:` after a key; after a
//!   member's value a `}`, or a `,` and then the next key; after an item a `]`, or a `,` and
//!   then the next item; the end of input. So `{"q": "She said "no", then left"}` keeps the
//!   whole sentence. When no quote ends it, the string's closing quote was missing and it
//!   ends at the first place one could have stood (a `,` before the next key, a closer the
//!   input ends with), with a [`MissingQuote`](RepairKind::MissingQuote) fix. That is a guess:
//!   if it leads the document nowhere, the document is read once more without any such guess
//!   (at most two reads). The rules in full are in the `parser::strings` module's docs.
//! * **Where an unquoted value ends.** At the end of the line, at `}`/`]`, or at a `,` — in an
//!   object only at a `,` followed by the next key, so `{"a": red, green, "b": 1}` reads
//!   `"red, green"`.
//! * **Truncation.** At the end of input every open string and container is closed; a key with
//!   no value yet (`{"a": 1, "b` or `{"a": 1, "b":`) is dropped, a literal cut short (`tru`) is
//!   completed, a number keeps its complete prefix (`1.` is `1`). The `Truncated` fix is
//!   recorded once, at the innermost value the input ended in: at a number the input ends
//!   in too (`{"n": 12` at `/n`), whose last digits may be what was cut off.
//! * **Closers.** A closer that does not match the innermost container closes it when an outer
//!   container of the closer's kind is open; otherwise it is skipped.
//! * **Text that is not JSON.** Inside a document, words and tokens that cannot be part of it
//!   (a note between members, a stray quote or colon) are skipped with a
//!   [`StrayText`](RepairKind::StrayText) fix. Prose around the document, or a top-level
//!   bare word, is an error: choosing among candidate spans, and reading a reply that is
//!   only words, is the pipeline's job, not the parser's. So is text that needs more than
//!   one fix per 4 bytes (a megabyte of quotes): that is noise, and recording a fix for each
//!   would turn a small input into a huge list.
//!
//! # Three outputs
//!
//! [`parse`] builds a [`serde_json::Value`]; [`parse_borrowed`] builds the same value as a
//! [`Node`], which borrows every string and key that needed no decoding from the input and
//! keeps an object's members in one vector (no per-string allocation, no hashing: the fastest
//! way to a value, which types deserialize from directly); [`to_string`] writes the same JSON as
//! compact text, with no allocation per string or container (the faster way to hand repaired
//! JSON on). All come from one parser, generic over where its output goes, so they cannot
//! disagree: the text parses to exactly the value, the `Node` is the value, with the same
//! [`Repairs`]. The record of fixes keeps every path in one buffer, not one allocation per
//! fix, and writes each value's pointer once however many fixes it needed.
//!
//! The record is the one part a caller may not want: [`to_string_counted`] writes the same
//! text and only counts the fixes (what `llmout repair` prints), for a sixth less time on a
//! document that needs a fix every 10 bytes.
//!
//! # Cost
//!
//! One pass over the bytes with a cursor and a depth counter, and at most one more when a
//! guess about a missing quote led nowhere. Lookahead at a quote or a comma reads at most a
//! key's length, except where a string's end is in doubt; what those decisions read is
//! charged to a budget of a few bytes per input byte, and once it is spent strings end at
//! their first possible closing quote. So every byte is looked at a bounded number of
//! times: time is linear in the input for any input. Fixes are limited to one per 4 bytes
//! of input, and the pointers of their values (each fix names its value's) to a mebibyte
//! and 16 bytes per byte of input, counting each key on the way beyond 8 bytes, so a long
//! key above many fixes is an error, not a record quadratic in the input; past either limit
//! the parse fails, whichever output is asked for. (An integer a value holds rounded,
//! [`Repairs::rounded`], is charged its pointer while that budget lasts, and named at the
//! top level past it: it fails no parse, as the text, which keeps its digits, would not.)
//! Nesting deeper than
//! [`RepairOptions::max_depth`] is an error, never a stack overflow.
//!
//! ```
//! use llmout::repair::{parse, RepairKind, RepairOptions};
//! let parsed = parse("{name: 'Ada', tags: ['x',], age: 36", &RepairOptions::default()).unwrap();
//! assert_eq!(parsed.value, serde_json::json!({"name": "Ada", "tags": ["x"], "age": 36}));
//! let kinds: Vec<_> = parsed.repairs.iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [
//!     RepairKind::UnquotedKey, RepairKind::QuoteStyle,
//!     RepairKind::UnquotedKey, RepairKind::QuoteStyle, RepairKind::TrailingComma,
//!     RepairKind::UnquotedKey, RepairKind::Truncated,
//! ]);
//! ```

pub(crate) mod compact;
pub(crate) mod items;
mod log;
mod node;
mod parser;
mod sink;
pub(crate) mod streamed;
#[cfg(test)]
mod tests;

use serde_json::Value;
use std::fmt;

pub(crate) use log::{Counter, Said};
pub use log::{Iter, Repair, Repairs, Rounded};
pub use node::Node;
pub(crate) use sink::push_escape;
use sink::{KeySink, SpanSink, TextSink, ValueSink, ValueTextSink};

/// The largest nesting depth the parser accepts, whatever [`RepairOptions::max_depth`] says:
/// the parser recurses once per level, and this bound keeps it inside a 2 MiB thread stack (the
/// default for spawned threads) even in debug builds.
pub const MAX_DEPTH_CAP: usize = 512;

/// Options for the lenient parser.
///
/// ```
/// let options = llmout::repair::RepairOptions::default();
/// assert_eq!(options.max_depth, 128);
/// assert!(!options.unwrap_double_encoded);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RepairOptions {
    /// Nesting limit; deeper input is an error (default 128, at most [`MAX_DEPTH_CAP`]).
    pub max_depth: usize,
    /// When the whole input is one JSON string holding an object or array, parse that instead
    /// (recorded as [`RepairKind::DoubleEncoded`]). Off by default: a string is a valid answer.
    pub unwrap_double_encoded: bool,
}

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            max_depth: crate::options::DEFAULT_MAX_DEPTH,
            unwrap_double_encoded: false,
        }
    }
}

impl RepairOptions {
    /// Sets [`max_depth`](RepairOptions::max_depth).
    ///
    /// ```
    /// let o = llmout::repair::RepairOptions::default().max_depth(8);
    /// assert_eq!(o.max_depth, 8);
    /// ```
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets [`unwrap_double_encoded`](RepairOptions::unwrap_double_encoded).
    ///
    /// ```
    /// use llmout::repair::{parse, RepairOptions};
    /// let o = RepairOptions::default().unwrap_double_encoded(true);
    /// let parsed = parse(r#""{\"a\": 1}""#, &o).unwrap();
    /// assert_eq!(parsed.value, serde_json::json!({"a": 1}));
    /// ```
    pub fn unwrap_double_encoded(mut self, yes: bool) -> Self {
        self.unwrap_double_encoded = yes;
        self
    }
}

/// What kind of syntax mistake was fixed. The [module docs](self) show each on an example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RepairKind {
    /// A comma after the last member or item was removed.
    TrailingComma,
    /// A comma before the first member or item, or a doubled comma, was removed.
    ExtraComma,
    /// A missing comma between members or items was inserted.
    MissingComma,
    /// A missing `:` after a key was inserted (or `=` was read as `:`).
    MissingColon,
    /// A comment was removed.
    Comment,
    /// A string in single, curly, backtick or triple quotes was read as a JSON string.
    QuoteStyle,
    /// A key without quotes was quoted.
    UnquotedKey,
    /// A value without quotes (a bare word, or a number glued to text) was read as a string.
    UnquotedValue,
    /// A Python or JavaScript literal (`True`, `False`, `None`, `undefined`) was translated.
    Literal,
    /// `NaN`, `Infinity` or a number too large for a double became `null`.
    NonFinite,
    /// A number in a form JSON does not allow (`+1`, `.5`, `5.`, `1_000`, `1,250` as a member's
    /// value) was normalised.
    NumberFormat,
    /// An invalid escape was kept as the characters meant, or a lone surrogate replaced by U+FFFD.
    InvalidEscape,
    /// A raw control character (a newline, a tab) inside a string was kept as part of it.
    ControlCharacter,
    /// A quote inside a string that was not escaped was kept as part of the string.
    UnescapedQuote,
    /// The input ended early; open strings and containers were closed and a dangling key dropped.
    Truncated,
    /// A closer of the wrong kind closed the innermost container.
    MismatchedCloser,
    /// A closer with nothing to close was skipped.
    ExtraCloser,
    /// A string's closing quote was missing; the string ends where it should have been.
    MissingQuote,
    /// A container's closer was missing before what follows it (`[{"a": 1, {"a": 2}]`).
    MissingCloser,
    /// Text that is no part of the JSON (a word between members, a stray colon or quote, a
    /// doubled brace, a `<think>` block between two tokens) was skipped.
    StrayText,
    /// `key: value` pairs written inside an array were read as an object in it.
    KeyValueInArray,
    /// A Python tuple was read as an array (and a value in parentheses as that value).
    Tuple,
    /// A Python set (values in braces, no keys) was read as an array.
    Set,
    /// Strings joined with `+` were read as one string.
    Concatenation,
    /// An empty object or array beside the document's value (`[]{"a": 1}`) was dropped.
    EmptyValue,
    /// An array written where a key should be (`{"a": [1], [2]}`) joined the array before it.
    SplitArray,
    /// A `...` or `…` standing for omitted items was removed.
    Ellipsis,
    /// A key followed by no value was kept, with `null`.
    MissingValue,
    /// A key given twice kept its last value.
    DuplicateKey,
    /// Several top-level values were collected into one array.
    MultipleValues,
    /// A function-call (JSONP) wrapper around the value was removed.
    Wrapper,
    /// A JSON document inside a JSON string was parsed.
    DoubleEncoded,
}

impl RepairKind {
    /// A short sentence describing the fix.
    ///
    /// ```
    /// use llmout::repair::RepairKind;
    /// assert_eq!(RepairKind::TrailingComma.description(), "removed a trailing comma");
    /// ```
    pub fn description(self) -> &'static str {
        match self {
            RepairKind::TrailingComma => "removed a trailing comma",
            RepairKind::ExtraComma => "removed an extra comma",
            RepairKind::MissingComma => "inserted a missing comma",
            RepairKind::MissingColon => "inserted a missing colon after a key",
            RepairKind::Comment => "removed a comment",
            RepairKind::QuoteStyle => "read a string in non-JSON quotes",
            RepairKind::UnquotedKey => "quoted an unquoted key",
            RepairKind::UnquotedValue => "read an unquoted value as a string",
            RepairKind::Literal => "translated a Python or JavaScript literal",
            RepairKind::NonFinite => "replaced a non-finite number with null",
            RepairKind::NumberFormat => "normalised a number JSON does not allow",
            RepairKind::InvalidEscape => "kept an invalid escape as the characters meant",
            RepairKind::ControlCharacter => "kept a raw control character inside a string",
            RepairKind::UnescapedQuote => "kept an unescaped quote inside a string",
            RepairKind::Truncated => "the input was cut off here; closed what it left open",
            RepairKind::MismatchedCloser => "closed a container with a closer of the wrong kind",
            RepairKind::ExtraCloser => "skipped a closer with nothing to close",
            RepairKind::MissingQuote => "inserted a missing quote",
            RepairKind::MissingCloser => "closed a container whose closer was missing",
            RepairKind::StrayText => "skipped text that is no part of the JSON",
            RepairKind::KeyValueInArray => "read key: value pairs inside an array as an object",
            RepairKind::Tuple => "read a parenthesized tuple as an array",
            RepairKind::Set => "read a set of values in braces as an array",
            RepairKind::Concatenation => "joined strings concatenated with +",
            RepairKind::EmptyValue => "dropped an empty value beside the document's",
            RepairKind::SplitArray => {
                "joined an array written where a key should be to the one before it"
            }
            RepairKind::Ellipsis => "removed an ellipsis standing for omitted items",
            RepairKind::MissingValue => "kept a key that had no value, with null",
            RepairKind::DuplicateKey => "a key given twice kept its last value",
            RepairKind::MultipleValues => "collected several top-level values into an array",
            RepairKind::Wrapper => "removed a function-call wrapper",
            RepairKind::DoubleEncoded => "parsed a JSON document given as a string",
        }
    }
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The value the lenient parser produced and the fixes it made.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The parsed value.
    pub value: Value,
    /// Every fix, in input order.
    pub repairs: Repairs,
}

/// The repaired JSON text the lenient parser wrote and the fixes it made (see [`to_string`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedText {
    /// Compact JSON (no whitespace between tokens).
    pub json: String,
    /// Every fix, in input order.
    pub repairs: Repairs,
}

/// Why the lenient parser gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairError {
    /// Nesting went deeper than the limit.
    pub depth_exceeded: bool,
    /// Byte offset where parsing stopped.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for RepairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for RepairError {}

/// Parses `input` leniently: valid JSON comes back as `serde_json` would parse it with no
/// repairs (except a [`RepairKind::DuplicateKey`] record for each key given twice, which
/// `serde_json` keeps the last value of silently); anything else is repaired as the [module docs](self) describe, or is an error when
/// there is no JSON value to be had (empty input, prose, nesting beyond the limit).
///
/// Memory: the value and the record of fixes are held whole. A `Value` of dense JSON (short
/// strings in small objects) takes about ten times its text: 16.8 times the input for
/// 100 MB of messy records (BENCHMARKS.md, "Memory"). For a large reply, [`to_string_counted`]
/// holds the input and the text it writes (2.0 times), and
/// [`large::from_llm_with_compiled`](crate::large::from_llm_with_compiled) hands the items of
/// an array over one at a time (2.1 times).
///
/// ```
/// use llmout::repair::{parse, RepairOptions};
/// let parsed = parse(r#"{"q": "She said "no" twice", "ok": True,}"#, &RepairOptions::default()).unwrap();
/// assert_eq!(parsed.value, serde_json::json!({"q": "She said \"no\" twice", "ok": true}));
/// assert_eq!(parsed.repairs.len(), 3); // the inner quotes, `True`, the trailing comma
///
/// let err = parse("no JSON here", &RepairOptions::default()).unwrap_err();
/// assert!(!err.depth_exceeded);
/// ```
pub fn parse(input: &str, options: &RepairOptions) -> Result<Parsed, RepairError> {
    let (sink, repairs, _) = parser::run::<ValueSink, Repairs>(input, options)?;
    Ok(Parsed {
        value: sink.finish(),
        repairs,
    })
}

/// Parses `input` leniently, as [`parse`] does, and writes the result as compact JSON text
/// instead of building a [`Value`]: no allocation per string or container, so it is the
/// faster way to get repaired JSON to hand on (it is what `llmout repair` prints).
///
/// The text parses, with `serde_json`, to exactly the value [`parse`] returns, and the fixes
/// are the same. Strings are escaped as `serde_json` escapes them; numbers that were valid
/// JSON are kept as written, digit for digit (`1.50` stays `1.50`, a 30-digit integer keeps
/// all its digits), and the others are normalised (`.5` becomes `0.5`, `NaN` becomes `null`).
/// A key given twice keeps its last value at its first position, as in [`parse`].
///
/// Memory: the input, the text, and the record of fixes (an entry per fix and a JSON
/// pointer per value fixed): 5.9 times the input for 100 MB of records with a fix every
/// ten bytes; [`to_string_counted`] keeps a count instead (2.0 times).
///
/// ```
/// use llmout::repair::{to_string, RepairKind, RepairOptions};
/// let fixed = to_string("{name: 'Ada', tags: ['x',], n: 1.50, \"n\": .5 // note", &RepairOptions::default()).unwrap();
/// assert_eq!(fixed.json, r#"{"name":"Ada","tags":["x"],"n":0.5}"#);
/// assert_eq!(fixed.repairs.iter().filter(|r| r.kind == RepairKind::DuplicateKey).count(), 1);
/// ```
pub fn to_string(input: &str, options: &RepairOptions) -> Result<ParsedText, RepairError> {
    let (sink, repairs, _) = parser::run::<TextSink, Repairs>(input, options)?;
    Ok(ParsedText {
        json: sink.finish(),
        repairs,
    })
}

/// [`to_string`] with every number written as `serde_json` writes [`parse`]'s value (`1.50`
/// as `1.5`): the text is `serde_json::to_string(&parse(input).value)` byte for byte, and the
/// fixes are the same. For callers who hand the text on where that value's JSON went
/// (`tools::parse_compact`), without building the value.
pub(crate) fn to_value_text(
    input: &str,
    options: &RepairOptions,
) -> Result<ParsedText, RepairError> {
    let (sink, repairs, _) = parser::run::<ValueTextSink, Repairs>(input, options)?;
    Ok(ParsedText {
        json: sink.finish(),
        repairs,
    })
}

/// How many bytes longer `bytes` become once their control characters are escaped as JSON
/// escapes them in a string: one more for a line break, carriage return, tab, backspace or
/// form feed (`\n`), five more for any other (`\u0001`). For a text, an upper bound of how
/// much longer the lenient parser's JSON for it can grow by them (between tokens they are
/// dropped).
pub(crate) fn control_growth(bytes: &[u8]) -> usize {
    // (Two counts the compiler makes vector loops of.)
    let control = bytes.iter().filter(|&&c| c < 0x20).count();
    let short = (bytes.iter())
        .filter(|&&c| matches!(c, b'\n' | b'\r' | b'\t' | 0x08 | 0x0c))
        .count();
    short + 5 * (control - short)
}

/// The value [`parse_borrowed`] produced and the fixes it made.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedNode<'a> {
    /// The parsed value, borrowing from the input.
    pub value: Node<'a>,
    /// Every fix, in input order.
    pub repairs: Repairs,
}

/// Parses `input` leniently, as [`parse`] does, into a [`Node`] that borrows every string and
/// key needing no decoding from `input`: the fastest way to a value, with an allocation per
/// container and per decoded string instead of per string, key and container. Deserialize a
/// type from it with `T::deserialize(&parsed.value)`, or get [`parse`]'s `Value` with
/// [`Node::into_value`]. The fixes are the same as [`parse`]'s.
///
/// Memory: the tree and the record of fixes, 9.4 times the input for 100 MB of messy records
/// (see [`parse`] for the ways to hold less).
///
/// ```
/// use llmout::repair::{parse_borrowed, RepairOptions};
/// use serde::Deserialize;
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Step { tool: String, args: Vec<u32> }
/// let parsed = parse_borrowed("[{tool: 'add', args: [1, 2,]}, {tool: 'neg', args: [3]}", &RepairOptions::default()).unwrap();
/// let steps = Vec::<Step>::deserialize(&parsed.value).unwrap();
/// assert_eq!(steps[1], Step { tool: "neg".into(), args: vec![3] });
/// // four unquoted keys, two single-quoted strings, the trailing comma, the missing `]`
/// assert_eq!(parsed.repairs.len(), 8);
/// ```
pub fn parse_borrowed<'a>(
    input: &'a str,
    options: &RepairOptions,
) -> Result<ParsedNode<'a>, RepairError> {
    let (sink, repairs, _) = parser::run::<node::NodeSink<'a>, Repairs>(input, options)?;
    Ok(ParsedNode {
        value: sink.finish(),
        repairs,
    })
}

/// The repaired JSON text and how many fixes it took (see [`to_string_counted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountedText {
    /// Compact JSON (no whitespace between tokens), as [`to_string`] writes it.
    pub json: String,
    /// How many fixes it took: [`ParsedText::repairs`]`.len()` for the same input.
    pub fixes: usize,
    /// Of which [`RepairKind::DuplicateKey`], the one fix valid JSON can need: when the two
    /// counts are equal, the input was valid JSON (with a key given twice, perhaps).
    pub duplicate_keys: usize,
}

/// [`to_string`] without the record of fixes: the same JSON text, and how many fixes it took
/// instead of what each one was and where. For callers that hand the text on and do not read
/// the record (`llmout repair` and [`crate::repair_json`] run this): the record costs an entry
/// per fix and a JSON pointer per value fixed, about a sixth of the time on a document that
/// needs a fix every 10 bytes, and memory in proportion.
///
/// ```
/// use llmout::repair::{to_string, to_string_counted, RepairOptions};
/// let input = "{name: 'Ada', tags: ['x',], \"n\": 1, \"n\": 2}";
/// let counted = to_string_counted(input, &RepairOptions::default()).unwrap();
/// assert_eq!(counted.json, r#"{"name":"Ada","tags":["x"],"n":2}"#);
/// // two unquoted keys, two single-quoted strings, the trailing comma, the repeated key
/// assert_eq!((counted.fixes, counted.duplicate_keys), (6, 1));
///
/// let full = to_string(input, &RepairOptions::default()).unwrap();
/// assert_eq!((full.json, full.repairs.len()), (counted.json, counted.fixes));
/// ```
pub fn to_string_counted(input: &str, options: &RepairOptions) -> Result<CountedText, RepairError> {
    let (sink, counter, _) = parser::run::<TextSink, Counter>(input, options)?;
    Ok(CountedText {
        json: sink.finish(),
        fixes: counter.fixes,
        duplicate_keys: counter.duplicate_keys,
    })
}

/// Where each object and array of `input` was read from, by the JSON pointer [`parse`] gives
/// it, in the order they were closed (a key given twice has two), and each integer [`parse`]
/// holds rounded ([`Repairs::rounded`]), where it was read (written as it stands: not one
/// whose digits were grouped by separators). Containers of a
/// double-encoded document, or of all but the last of several top-level values, are left out:
/// their ranges or pointers would not hold.
pub(crate) fn container_spans(
    input: &str,
    options: &RepairOptions,
) -> Result<Vec<(String, std::ops::Range<usize>)>, RepairError> {
    parser::run::<SpanSink, log::Spans>(input, options).map(|(_, spans, _)| spans.into_spans())
}

/// The fixes [`parse`] would make, with nothing built: for a caller who needs to know what
/// was fixed before it takes the value (memory: the fixes and the open objects' keys).
pub(crate) fn repairs_of(input: &str, options: &RepairOptions) -> Result<Repairs, RepairError> {
    parser::run::<KeySink, Repairs>(input, options).map(|(_, repairs, _)| repairs)
}

/// The fixes [`to_string`] would make, counted, with nothing written: memory proportional to
/// the open objects' keys, whatever the input's size.
pub(crate) fn count(input: &str, options: &RepairOptions) -> Result<Counter, RepairError> {
    parser::run::<KeySink, Counter>(input, options).map(|(_, counter, _)| counter)
}
