//! What the families' readers share: finding elements between an opener and a closer, reading
//! JSON leniently (a cut-off call is no call), turning JSON into calls, and a parameter's text
//! into a value.

use std::ops::Range;

use serde_json::{Map, Value};

use super::calls::smaller_as_value;
use super::family::{Found, Named};
use super::json_text::{self, Repaired};
use super::ToolCall;
use crate::repair::{self, RepairKind, RepairOptions};
use crate::{Warning, WarningKind};

/// The byte ranges of `open … close` elements in `t[within]` (the whole element, and its
/// body); a missing closer runs to the next opener or the end.
pub(crate) fn elements(
    t: &str,
    within: Range<usize>,
    open: &str,
    close: &str,
) -> Vec<(Range<usize>, Range<usize>)> {
    elements_with(t, within, open, close, false)
}

/// [`elements`] whose bodies may be JSON: where a body opens with JSON (`{…}` or `[…]`), a
/// closer or opener written inside one of its strings (`{"text": "say </tool_call>"}`) is
/// that string's text, and the body runs to the first closer after its values (see
/// [`json_values_end`]). The stream reads such a body the same way.
pub(crate) fn json_elements(
    t: &str,
    within: Range<usize>,
    open: &str,
    close: &str,
) -> Vec<(Range<usize>, Range<usize>)> {
    elements_with(t, within, open, close, true)
}

fn elements_with(
    t: &str,
    within: Range<usize>,
    open: &str,
    close: &str,
    json: bool,
) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut at = within.start;
    // Bodies that start before this are read as text: a reading of JSON got this far, and
    // none reads any byte twice.
    let mut plain_until = within.start;
    while let Some(i) = t.get(at..within.end).and_then(|s| s.find(open)) {
        let start = at + i;
        let body_start = start + open.len();
        let rest = t.get(body_start..within.end).unwrap_or_default();
        let mut ends = None;
        if json && body_start >= plain_until {
            let (values, read) = json_values_end(rest, &[open, close]);
            plain_until = body_start + read;
            // The closer after the values, before the next opener.
            ends = values.and_then(|e| match closer_in(&rest[e..], open, close) {
                (j, k, true) => Some((body_start + e + j, body_start + e + k)),
                _ => None,
            });
        }
        // The closer is looked for only before the next opener: every byte is read a bounded
        // number of times, however many elements lack their closer.
        let (body_end, end) = ends.unwrap_or_else(|| {
            let (j, k, _) = closer_in(rest, open, close);
            (body_start + j, body_start + k)
        });
        out.push((start..end, body_start..body_end));
        if end <= at {
            break;
        }
        at = end;
    }
    out
}

/// Where the body `rest` ends: at the first `close` before the next `open` (its start and
/// end, and true), or, with no closer, at that opener or the end of `rest` (false).
fn closer_in(rest: &str, open: &str, close: &str) -> (usize, usize, bool) {
    let next_open = rest.find(open).unwrap_or(rest.len());
    match rest[..next_open].find(close) {
        Some(j) => (j, j + close.len(), true),
        None => (next_open, next_open, false),
    }
}

/// Where the JSON values that `rest` opens with end (after white space, `{…}` or `[…]`,
/// several separated by white space, `;` or `,`), read with JSON's strings: the offset past
/// the last value, and how far the reading went. `None` where `rest` opens with no bracket,
/// where its first value does not close, or where one of `markers` comes outside a string
/// before it closes (the marker then ends the body, as it does where no JSON is read: a
/// bracket left open before a closer was forgotten). A marker inside a string is text.
fn json_values_end(rest: &str, markers: &[&str]) -> (Option<usize>, usize) {
    let mut scan = JsonValues::default();
    let end = scan.read(rest, markers, true).flatten();
    (end, scan.at)
}

/// [`json_values_end`] on text that is still arriving (the stream's reading of a call read
/// whole): each call reads only what was added since the last.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JsonValues {
    at: usize,
    in_value: bool,
    depth: usize,
    in_str: bool,
    esc: bool,
    last: Option<usize>,
}

impl JsonValues {
    /// Reads `rest` (grown since the last call) from where it stopped: `Some` once the end
    /// of the values is known (`Some(None)`: no values to go by), `None` while it waits for
    /// more text (never when `complete`, the text being all there is). A marker that may
    /// be cut at the end of `rest` is waited for.
    pub(crate) fn read(
        &mut self,
        rest: &str,
        markers: &[&str],
        complete: bool,
    ) -> Option<Option<usize>> {
        let b = rest.as_bytes();
        let longest = markers.iter().map(|m| m.len()).max().unwrap_or(0);
        // Outside strings, the bytes that matter: the structure's, and each marker's first.
        let mut stops = [false; 256];
        for c in [b'"', b'{', b'[', b'}', b']'] {
            stops[usize::from(c)] = true;
        }
        for m in markers {
            if let Some(&c) = m.as_bytes().first() {
                stops[usize::from(c)] = true;
            }
        }
        let ran_out = |complete: bool, last: Option<usize>| complete.then_some(last);
        loop {
            if !self.in_value {
                while b.get(self.at).is_some_and(|&c| {
                    c.is_ascii_whitespace() || (self.last.is_some() && matches!(c, b';' | b','))
                }) {
                    self.at += 1;
                }
                match b.get(self.at) {
                    None if !complete => return None,
                    Some(b'{' | b'[') => {
                        self.in_value = true;
                        self.depth = 0;
                    }
                    _ => return Some(self.last),
                }
            }
            loop {
                if self.in_str {
                    if self.esc {
                        if self.at >= b.len() {
                            return ran_out(complete, self.last);
                        }
                        self.esc = false;
                        self.at += 1;
                    }
                    // To the string's next quote or backslash.
                    let Some(k) = memchr::memchr2(b'"', b'\\', &b[self.at.min(b.len())..]) else {
                        self.at = b.len();
                        return ran_out(complete, self.last);
                    };
                    let j = self.at + k;
                    if b[j] == b'\\' {
                        self.esc = true;
                    } else {
                        self.in_str = false;
                    }
                    self.at = j + 1;
                    continue;
                }
                let Some(k) = b[self.at.min(b.len())..]
                    .iter()
                    .position(|&c| stops[usize::from(c)])
                else {
                    self.at = b.len();
                    return ran_out(complete, self.last);
                };
                self.at += k;
                let c = b[self.at];
                let tail = &b[self.at..];
                let mut at_marker = false;
                for m in markers.iter().map(|m| m.as_bytes()) {
                    if m.first() != Some(&c) {
                        continue;
                    }
                    if tail.starts_with(m) {
                        at_marker = true;
                    } else if !complete && tail.len() < longest && m.starts_with(tail) {
                        // A marker perhaps, cut by the end of the text so far.
                        return None;
                    }
                }
                if at_marker {
                    return Some(self.last);
                }
                self.at += 1;
                match c {
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == 0 {
                            self.in_value = false;
                            self.last = Some(self.at);
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A parameter's text as a value: JSON when it is JSON (a number only as JSON writes it back),
/// else the string.
pub(crate) fn param_value(text: &str) -> Value {
    let t = param_body(text);
    if let Ok(v) = serde_json::from_str::<Value>(t.trim()) {
        return match v {
            // A number written in a form JSON does not keep (`1.10`, `1e5`): the form may be
            // the point (a version, a code), so the text stays as written.
            Value::Number(n) if n.to_string() != t.trim() => Value::String(t.to_owned()),
            v => v,
        };
    }
    // A Python literal (`True`, `None`, `['a', 'b']`, `{'k': 1}`): what the lenient parser
    // reads with nothing but quote-style and literal fixes.
    match repair::parse(t.trim(), &RepairOptions::default()) {
        Ok(p) if python_literal(&p.repairs) && !matches!(p.value, Value::String(_)) => p.value,
        _ => Value::String(t.to_owned()),
    }
}

/// A parameter's text less the line breaks that lay it out: one after its opener, and then
/// one before its closer (`<parameter=p>\nvalue\n</parameter>`). A value written right after
/// its opener keeps a line break it ends in (`>return 1\n</parameter>`: the line's own).
pub(crate) fn param_body(text: &str) -> &str {
    match text.strip_prefix('\n') {
        Some(t) => t.strip_suffix('\n').unwrap_or(t),
        None => text,
    }
}

/// Whether a value read with `repairs` was a Python literal: nothing but quote-style and
/// literal fixes.
fn python_literal(repairs: &repair::Repairs) -> bool {
    repairs
        .iter()
        .all(|r| matches!(r.kind, RepairKind::QuoteStyle | RepairKind::Literal))
}

/// What [`param_value`] makes of a parameter's text: the value itself when the text is small,
/// else, without making it, the JSON text `serde_json` writes for the value, or the text
/// that is the string.
pub(crate) enum ParamText<'a> {
    Value(Value),
    Json(String),
    Text(&'a str),
}

/// How long a parameter's text must be to be written without being made a value (below, the
/// value is made: one pass, where the text takes two). Small under the fuzzer, whose inputs
/// must reach both.
const LARGE_PARAM: usize = if cfg!(fuzzing) { 16 } else { 64 * 1024 };

/// [`param_value`] as [`ParamText`]: a parameter of 100 MB is never a value. JSON is what
/// `serde_json` reads as a value (checked by reading it through, nothing kept), written as
/// the repair writes it (`repair::to_value_text`, the same value's text).
pub(crate) fn param_text(text: &str) -> ParamText<'_> {
    let t = param_body(text);
    if t.len() < LARGE_PARAM {
        return ParamText::Value(param_value(text));
    }
    if smaller_as_value(t.trim()) {
        // Its JSON could be far longer than the value (raw control characters): the value,
        // for the call to be held as one (`calls::holds`). Made only where the text is JSON
        // or a Python literal, as its fixes say first; else the text is the string.
        let literal = json_value(t.trim())
            || repair::repairs_of(t.trim(), &RepairOptions::default())
                .is_ok_and(|r| python_literal(&r));
        return match literal {
            true => ParamText::Value(param_value(text)),
            false => ParamText::Text(t),
        };
    }
    let json = || repair::to_value_text(t.trim(), &RepairOptions::default()).ok();
    if json_value(t.trim()) {
        if let Some(p) = json() {
            // (A number kept only as JSON writes it back, as `param_value` keeps it.)
            let number = p.json.starts_with(|c: char| c == '-' || c.is_ascii_digit());
            if number && p.json != t.trim() {
                return ParamText::Text(t);
            }
            return ParamText::Json(p.json);
        }
    }
    match json() {
        Some(p) if python_literal(&p.repairs) && !p.json.starts_with('"') => {
            ParamText::Json(p.json)
        }
        _ => ParamText::Text(t),
    }
}

/// Whether `serde_json` reads `text` as a `Value`: read through with every check a `Value`
/// makes (numbers in range, escapes that are characters, nesting), keeping nothing.
pub(crate) fn json_value(text: &str) -> bool {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

    /// Any JSON value, read as a `Value` is read and then dropped.
    struct Checked;

    impl<'de> Deserialize<'de> for Checked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Checked)
        }
    }

    impl<'de> Visitor<'de> for Checked {
        type Value = Checked;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_unit<E>(self) -> Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Checked, A::Error> {
            while items.next_element::<Checked>()?.is_some() {}
            Ok(Checked)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Checked, A::Error> {
            // Keys as a `Value`'s are read: as strings.
            while members
                .next_entry::<std::borrow::Cow<'de, str>, Checked>()?
                .is_some()
            {}
            Ok(Checked)
        }
    }

    let mut d = serde_json::Deserializer::from_str(text);
    Checked::deserialize(&mut d).is_ok() && d.end().is_ok()
}

/// How a call's JSON text ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// At the end of the reply or at the next opener: the reply may have been cut off in it.
    Open,
    /// At its element's closer (`</tool_call>`, harmony's `<|call|>`): the model ended the
    /// call, so a bracket left open after a whole value was forgotten, not cut off.
    Closed,
}

/// Parses `text`, the arguments of the next call, as JSON leniently; `None` (and a warning)
/// when it was cut off or is no JSON.
pub(crate) fn lenient(text: &str, found: &mut Found, what: &str, end: End) -> Option<Value> {
    lenient_with(text, found, what, (end, "/arguments"), |t| {
        repair::parse(t, &RepairOptions::default()).map(|p| (p.value, p.repairs))
    })
}

/// [`lenient`], read by `read` (the value, or its text) with the fixes it made, said under
/// `under` in the next call (`/arguments` where `text` is its arguments, `""` where it is
/// the call).
pub(crate) fn lenient_with<T>(
    text: &str,
    found: &mut Found,
    what: &str,
    (end, under): (End, &str),
    read: impl FnOnce(&str) -> Result<(T, repair::Repairs), repair::RepairError>,
) -> Option<T> {
    match read(text.trim()) {
        Ok((_, repairs)) if ending(text, &repairs, end) == Ending::Cut => {
            found.warnings.push(Warning::new(
                WarningKind::ItemDropped,
                format!("/tool_calls/{}", found.calls.len()),
                format!("{what} was cut off; its text is kept as content"),
            ));
            None
        }
        Ok((value, repairs)) => {
            let unclosed = (ending(text, &repairs, end) == Ending::Unclosed).then_some(text);
            let base = format!("/tool_calls/{}{under}", found.calls.len());
            for r in &repairs {
                let (kind, path) = said_as(r.kind, r.path, unclosed);
                found.warnings.push(Warning::new(
                    WarningKind::Repaired(kind),
                    format!("{base}{path}"),
                    kind.description(),
                ));
            }
            Some(value)
        }
        Err(e) => {
            unreadable(found, what, &e);
            None
        }
    }
}

/// The calls in the JSON `text` (a call or an array of calls), read leniently into `found`:
/// whether it held any. The fixes are warned of as [`lenient`] warns of them, calls or not.
/// Calls written as they come take the value's text, not the value (see [`json_text`]).
pub(crate) fn lenient_calls(text: &str, found: &mut Found, what: &str, end: End) -> bool {
    let written = Repaired::read_as(found);
    lenient_with(text, found, what, (end, ""), written).is_some_and(|p| p.into_calls(found))
}

/// The call `named` whose arguments are the JSON `text`, read leniently into `found`: false
/// when it was cut off or is no JSON, as [`lenient`] says (and warns). Calls written as they
/// come take the arguments' text, never a map (see [`json_text`]).
pub(crate) fn lenient_call(
    text: &str,
    found: &mut Found,
    what: &str,
    end: End,
    named: Named,
) -> bool {
    if !found.calls.is_written() {
        return match lenient(text, found, what, end) {
            Some(v) => {
                let (arguments, notes) = arguments(Some(v));
                let call = ToolCall {
                    id: named.id,
                    name: named.name,
                    arguments,
                };
                found.push_call(call, notes);
                true
            }
            None => false,
        };
    }
    let json = lenient_with(text, found, what, (end, "/arguments"), |t| {
        repair::to_value_text(t, &RepairOptions::default()).map(|p| (p.json, p.repairs))
    });
    match json {
        Some(json) => {
            let (arguments, notes) = json_text::arguments_text(json);
            found.warnings.extend(notes.warnings(found.calls.len()));
            found.calls.push_arguments(named.id, named.name, arguments);
            true
        }
        None => false,
    }
}

/// How the text `body` of the element `whole` ends: at the element's closer where one was
/// written after it.
/// A call whose parameters are one JSON object, `text` (trimmed at its start; any text after
/// the object is passed over): the arguments written whole, read as a named call's JSON is.
/// False when `text` is no object; otherwise the call is read (or dropped with a warning,
/// as [`lenient_call`] decides) and `whole` taken when it was read.
pub(crate) fn json_params(
    text: &str,
    whole: &Range<usize>,
    body: &Range<usize>,
    name: &str,
    found: &mut Found,
) -> bool {
    if !text.starts_with('{') {
        return false;
    }
    let json = &text[..json_end(text).unwrap_or(text.len())];
    if lenient_call(
        json,
        found,
        "a call's arguments",
        closed_by(whole, body),
        Named::new(name, None),
    ) {
        found.taken.push(whole.clone());
    }
    true
}

pub(crate) fn closed_by(whole: &Range<usize>, body: &Range<usize>) -> End {
    if whole.end > body.end {
        End::Closed
    } else {
        End::Open
    }
}

/// How a call's JSON text, read with some fixes, ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Cut off: no call.
    Cut,
    Whole,
    /// Whole but for brackets the model left open before its closer ([`End::Closed`]): the
    /// parser's `Truncated` fix is then a `MissingCloser`.
    Unclosed,
}

/// How the JSON `text`, read with `repairs` and ending as `end` says, ended. It was cut off
/// where the repair says so, or where `text` ends inside a string (read strictly, a quote
/// after a backslash escaped): the repair may have ended such a string at a brace inside it
/// (`{"q": "a {b}` read as `{"q": "a {b"}`), a value made of what came before the cut, which
/// is no call. But where the call's closer followed and `text` ends with a whole value (a
/// string closed, a bracket, a number, a literal), only brackets were left open: the call is
/// whole, and the brackets closed with a warning.
fn ending(text: &str, repairs: &repair::Repairs, end: End) -> Ending {
    if repairs.iter().any(|r| r.kind == RepairKind::Truncated) {
        let t = text.trim_end();
        let value_ends = t.ends_with(['"', '}', ']'])
            || t.ends_with(|c: char| c.is_ascii_digit())
            || ["true", "false", "null"].iter().any(|l| t.ends_with(l));
        return if end == End::Closed && value_ends && !ends_in_string(text) {
            Ending::Unclosed
        } else {
            Ending::Cut
        };
    }
    if repairs.iter().any(|r| r.kind == RepairKind::MissingQuote) && ends_in_string(text) {
        return Ending::Cut;
    }
    Ending::Whole
}

/// Whether the JSON `text`, read with `repairs` and ending as `end` says, was cut off: no
/// call (see [`ending`]).
pub(crate) fn cut_short(text: &str, repairs: &repair::Repairs, end: End) -> bool {
    ending(text, repairs, end) == Ending::Cut
}

/// A fix as said, and where: the parser's `Truncated` is a `MissingCloser` where the text
/// was `unclosed` ([`Ending::Unclosed`], given as the text). The parser says a cut in the
/// number a text ends in at that number (its last digits may be what was cut); the call's
/// closer followed it, so the number is whole, and the brackets left open are around it.
fn said_as<'p>(kind: RepairKind, path: &'p str, unclosed: Option<&str>) -> (RepairKind, &'p str) {
    match unclosed {
        Some(text) if kind == RepairKind::Truncated => {
            let at_number = text.ends_with(|c: char| c.is_ascii_digit());
            let path = match path.rsplit_once('/') {
                Some((around, _)) if at_number => around,
                _ => path,
            };
            (RepairKind::MissingCloser, path)
        }
        _ => (kind, path),
    }
}

/// Whether `text` ends inside a JSON string, read strictly (a quote after a backslash
/// escaped).
fn ends_in_string(text: &str) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for &c in text.as_bytes() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, false, b'"') => in_string = !in_string,
            _ => {}
        }
    }
    in_string
}

/// The JSON calls in `text` (a call or an array of calls, white space around), as the stream
/// completes them: every call when the value is whole; when it was cut off, the calls of the
/// array written in full before the cut, and a warning for the rest, which stays content.
/// Returns how much of `text` the calls take (all of it when the value is whole), or `None`
/// when it gives no call.
///
/// Calls written as they come take the value's text, not the value (see [`json_text`]).
pub(crate) fn value_calls(text: &str, found: &mut Found, what: &str, end: End) -> Option<usize> {
    let (p, repairs) = match Repaired::read(text.trim(), found) {
        Ok(read) => read,
        Err(e) => {
            unreadable(found, what, &e);
            return None;
        }
    };
    let ended = ending(text, &repairs, end);
    if ended != Ending::Cut {
        let shape = Shape::of(&p);
        let (base, at) = (found.calls.len(), found.warnings.len());
        if !p.into_calls(found) {
            // JSON where a call was marked, but no call (no name under a key a call names
            // its tool with): its text stays content, and that is said.
            found.warnings.push(Warning::new(
                WarningKind::ItemDropped,
                format!("/tool_calls/{base}"),
                format!("{what} holds JSON that names no tool; its text is kept as content"),
            ));
            return None;
        }
        let unclosed = (ended == Ending::Unclosed).then_some(text);
        warn_fixes(found, &repairs, shape, base, at, unclosed);
        return Some(text.len());
    }
    let lead = text.len() - text.trim_start().len();
    let (base, end) = (found.calls.len(), leading_items(&text[lead..], found));
    let read = found.calls.len() > base;
    found.warnings.push(Warning::new(
        WarningKind::ItemDropped,
        format!("/tool_calls/{}", found.calls.len()),
        format!("{what} was cut off; its text is kept as content"),
    ));
    read.then_some(lead + end)
}

/// What a JSON value read as calls is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One call.
    One,
    /// An array of calls.
    Items,
    /// An envelope, its calls under `tool_calls` (or `toolCalls`).
    Envelope,
}

impl Shape {
    /// A call, or an array of calls.
    pub(crate) fn of(v: &Repaired) -> Shape {
        let array = match v {
            Repaired::Value(v) => v.is_array(),
            Repaired::Text(json) => json.starts_with('['),
        };
        if array {
            Shape::Items
        } else {
            Shape::One
        }
    }
}

/// The lenient parser's fixes (`repairs`) to JSON that was read as calls into `found`, its
/// first call at `base`, said where the calls are (`/tool_calls/3/arguments` for a fix in
/// the arguments of the fourth call), before the warnings from `at` on (what reading the
/// calls' arguments changed): a fixed call is never passed on unsaid. `unclosed` is the
/// text where it was [`Ending::Unclosed`].
pub(crate) fn warn_fixes(
    found: &mut Found,
    repairs: &repair::Repairs,
    shape: Shape,
    base: usize,
    at: usize,
    unclosed: Option<&str>,
) {
    let index = |rest: &str| -> Option<(usize, usize)> {
        let rest = rest.strip_prefix('/')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        Some((rest[..digits].parse().ok()?, digits + 1))
    };
    let place = |path: &str| match shape {
        Shape::One => format!("/tool_calls/{base}{path}"),
        Shape::Items => match index(path) {
            Some((i, len)) => format!("/tool_calls/{}{}", base + i, &path[len..]),
            None => format!("/tool_calls{path}"),
        },
        Shape::Envelope => {
            let calls = path
                .strip_prefix("/tool_calls")
                .or_else(|| path.strip_prefix("/toolCalls"));
            match calls.and_then(|rest| Some((rest, index(rest)?))) {
                Some((rest, (i, len))) => {
                    format!("/tool_calls/{}{}", base + i, &rest[len..])
                }
                None => path.to_owned(),
            }
        }
    };
    // (The arguments are values: an integer too large for 64 bits is held rounded.)
    let warnings = repairs.said().map(|said| match said {
        repair::Said::Fix(r) => {
            let (kind, path) = said_as(r.kind, r.path, unclosed);
            Warning::new(WarningKind::Repaired(kind), place(path), kind.description())
        }
        repair::Said::Rounded(r) => Warning::rounded(place(r.path)),
    });
    let at = at.min(found.warnings.len());
    let said: Vec<Warning> = warnings.collect();
    found.warnings.splice(at..at, said);
}

/// Says that the call `what`, whose JSON the lenient parser gave up on (noise past its fix
/// budget, a long key above many fixes, nesting past its limit), is no call: its text stays
/// content, as a call cut off does.
fn unreadable(found: &mut Found, what: &str, e: &repair::RepairError) {
    found.warnings.push(Warning::new(
        WarningKind::ItemDropped,
        format!("/tool_calls/{}", found.calls.len()),
        format!("{what} could not be read ({e}); its text is kept as content"),
    ));
}

/// The calls of an array of calls cut off at the end of `text` (which starts with `[`) that
/// were written in full, put in `found` (each one's fixes said); where the last of them ends.
fn leading_items(text: &str, found: &mut Found) -> usize {
    let (mut pos, mut end) = (0, 0);
    if !text.starts_with('[') {
        return end;
    }
    pos += 1;
    loop {
        pos += text[pos..]
            .bytes()
            .take_while(|c| c.is_ascii_whitespace() || *c == b',')
            .count();
        if !text[pos..].starts_with('{') {
            break;
        }
        let Some(len) = json_end(&text[pos..]) else {
            break;
        };
        let Ok(item) = repair::parse(&text[pos..pos + len], &RepairOptions::default()) else {
            break;
        };
        let Some((call, notes)) = call_from_json(item.value) else {
            break;
        };
        let (base, at) = (found.calls.len(), found.warnings.len());
        found.push_call(call, notes);
        warn_fixes(found, &item.repairs, Shape::One, base, at, None);
        pos += len;
        end = pos;
    }
    end
}

/// Arguments as an object (moved out of `v`, never copied): decoded once when given as a JSON
/// string, with what that changed ([`ArgNotes`]).
pub(crate) fn arguments(v: Option<Value>) -> (Map<String, Value>, ArgNotes) {
    match v {
        Some(Value::Object(m)) => (m, ArgNotes::default()),
        Some(Value::String(s)) if s.trim().is_empty() => (Map::new(), ArgNotes::default()),
        Some(Value::String(s)) => match repair::parse(&s, &RepairOptions::default()) {
            Ok(p) => match p.value {
                Value::Object(m) => (m, ArgNotes::fixed(&p.repairs)),
                _ => (Map::new(), ArgNotes::no_object(&s)),
            },
            Err(_) => (Map::new(), ArgNotes::no_object(&s)),
        },
        None | Some(Value::Null) => (Map::new(), ArgNotes::default()),
        Some(Value::Array(_)) => (Map::new(), ArgNotes::not_an_object("an array")),
        Some(Value::Bool(_)) => (Map::new(), ArgNotes::not_an_object("a boolean")),
        Some(Value::Number(_)) => (Map::new(), ArgNotes::not_an_object("a number")),
    }
}

/// What reading a call's arguments changed: where they were given as a JSON string
/// (OpenAI's `"arguments": "{\"city\": \"Paris\"}"`), the lenient parser's fixes to the
/// text it holds; or that what was given holds no object (a string of prose, `"[1, 2]"`, a
/// number), so the call has no arguments. Said as warnings once the call has its place
/// ([`Found::push_call`]): nothing a model wrote is changed or left out unsaid.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct ArgNotes {
    /// The fixes, and (with no kind) the integers the arguments hold rounded
    /// ([`repair::Repairs::rounded`]), in the order the parser met them.
    fixes: Vec<(Option<RepairKind>, String)>,
    /// What was given where it held no object, described.
    none: Option<String>,
}

impl ArgNotes {
    /// The fixes made reading a string's object.
    pub(crate) fn fixed(repairs: &repair::Repairs) -> ArgNotes {
        ArgNotes {
            fixes: repairs
                .said()
                .map(|said| match said {
                    repair::Said::Fix(r) => (Some(r.kind), r.path.to_owned()),
                    repair::Said::Rounded(r) => (None, r.path.to_owned()),
                })
                .collect(),
            none: None,
        }
    }

    /// A string (`text`, decoded) that holds no object.
    pub(crate) fn no_object(text: &str) -> ArgNotes {
        ArgNotes {
            fixes: Vec::new(),
            none: Some(format!(
                "a string holding no JSON object ({})",
                crate::excerpt(text, 40)
            )),
        }
    }

    /// Text that is no JSON (`text`), where the arguments were due.
    pub(crate) fn no_json(text: &str) -> ArgNotes {
        ArgNotes {
            fixes: Vec::new(),
            none: Some(format!(
                "text that is no JSON ({})",
                crate::excerpt(text, 40)
            )),
        }
    }

    /// A value that is no object, nor a string that may hold one: `what` it is.
    pub(crate) fn not_an_object(what: &str) -> ArgNotes {
        ArgNotes {
            fixes: Vec::new(),
            none: Some(format!("{what}, not an object")),
        }
    }

    /// The notes of arguments given as the JSON text `text` that is neither an object nor a
    /// string (`null` is no arguments; anything else is said).
    pub(crate) fn of_other(text: &str) -> ArgNotes {
        match text.as_bytes().first() {
            Some(b'[') => ArgNotes::not_an_object("an array"),
            Some(b't' | b'f') => ArgNotes::not_an_object("a boolean"),
            Some(b'-' | b'0'..=b'9') => ArgNotes::not_an_object("a number"),
            _ => ArgNotes::default(),
        }
    }

    /// The warnings for the call at `index`.
    pub(crate) fn warnings(self, index: usize) -> impl Iterator<Item = Warning> {
        let at = format!("/tool_calls/{index}/arguments");
        let none = self.none.map(|what| {
            Warning::new(
                WarningKind::ItemDropped,
                at.clone(),
                format!("the arguments were given as {what}: the call has none"),
            )
        });
        let fixes = self.fixes.into_iter().map(move |(kind, path)| match kind {
            Some(kind) => Warning::new(
                WarningKind::Repaired(kind),
                format!("{at}{path}"),
                kind.description(),
            ),
            None => Warning::rounded(format!("{at}{path}")),
        });
        none.into_iter().chain(fixes)
    }
}

/// The keys a JSON call may name its tool under, in order of preference.
pub(crate) const NAME_KEYS: [&str; 3] = ["name", "tool", "tool_name"];

/// The keys a JSON call may hold its arguments under, in order of preference.
pub(crate) const ARGUMENT_KEYS: [&str; 4] = ["arguments", "parameters", "args", "input"];

/// A call from JSON: `{"name", "arguments"|"parameters"|"args"|"input"}` (Cohere Command:
/// `{"tool_call_id", "tool_name", "parameters"}`) or OpenAI's
/// `{"id", "type": "function", "function": {"name", "arguments"}}`. The arguments are moved
/// out of `v`: a call's arguments are never copied on the way to the caller. With the call,
/// what reading its arguments changed.
pub(crate) fn call_from_json(v: Value) -> Option<(ToolCall, ArgNotes)> {
    let Value::Object(mut o) = v else {
        return None;
    };
    let id = o
        .get("id")
        .or_else(|| o.get("tool_call_id"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(Value::Object(f)) = o.get_mut("function") {
        let name = f.get("name")?.as_str()?.to_owned();
        let (arguments, notes) = arguments(f.remove("arguments"));
        return Some((
            ToolCall {
                id,
                name,
                arguments,
            },
            notes,
        ));
    }
    let name = NAME_KEYS
        .iter()
        .find_map(|k| o.get(*k))?
        .as_str()?
        .to_owned();
    let args = ARGUMENT_KEYS
        .iter()
        .find(|k| o.contains_key(**k))
        .and_then(|k| o.remove(*k));
    let (arguments, notes) = arguments(args);
    Some((
        ToolCall {
            id,
            name,
            arguments,
        },
        notes,
    ))
}

/// Calls from a JSON value that is a call or an array of calls.
pub(crate) fn calls_from_json(v: Value, found: &mut Found) -> bool {
    match v {
        Value::Array(items) => {
            let calls: Option<Vec<_>> = items.into_iter().map(call_from_json).collect();
            match calls {
                Some(calls) if !calls.is_empty() => {
                    found.push_calls(calls);
                    true
                }
                _ => false,
            }
        }
        v => match call_from_json(v) {
            Some((call, notes)) => {
                found.push_call(call, notes);
                true
            }
            None => false,
        },
    }
}

/// `"value">rest` (or `'value'>`): the value and the offset after `>`.
pub(crate) fn quoted_attr(s: &str) -> Option<(String, usize)> {
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let end = s[1..].find(q)? + 1;
    let name = s[1..end].to_owned();
    let gt = s[end..].find('>')? + end;
    Some((name, gt + 1))
}

/// The end of the JSON value starting at `s[0]` (`{` or `[`), string-aware; `None` when it
/// does not close.
pub(crate) fn json_end(s: &str) -> Option<usize> {
    JsonEnd::default().read(s)
}

/// [`json_end`] on text that is still arriving: each call reads only what was added since the
/// last.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JsonEnd {
    read: usize,
    depth: usize,
    in_str: bool,
    esc: bool,
}

impl JsonEnd {
    /// Reads `s` (the value's text so far, grown since the last call) from where it stopped:
    /// the value's end once it closes.
    pub(crate) fn read(&mut self, s: &str) -> Option<usize> {
        // The state in locals while the loop runs.
        let JsonEnd {
            read,
            mut depth,
            mut in_str,
            mut esc,
        } = *self;
        let b = s.as_bytes();
        let mut end = None;
        let mut i = read;
        while let Some(&c) = b.get(i) {
            i += 1;
            if in_str {
                match (esc, c) {
                    (true, _) => esc = false,
                    (false, b'\\') => esc = true,
                    (false, b'"') => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    let Some(d) = depth.checked_sub(1) else { break };
                    depth = d;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        *self = JsonEnd {
            read: i,
            depth,
            in_str,
            esc,
        };
        end
    }
}

/// JSON calls after `marker` (up to `close` when given), several separated by `;`, commas or
/// newlines, or one array.
pub(crate) fn after_marker_json(t: &str, marker: &str, close: Option<&str>, found: &mut Found) {
    for (whole, body) in marker_blocks(t, marker, close) {
        json_block(t, whole, body, found);
    }
}

/// The blocks after each `marker`, up to `close` (included) when given and found, else to the
/// end of the text: each block whole and its body. Where the block opens with JSON, its
/// closer is the first after the JSON's values: one inside their strings is their text (see
/// [`json_values_end`]).
pub(crate) fn marker_blocks(
    t: &str,
    marker: &str,
    close: Option<&str>,
) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut at = 0;
    // As in `elements_with`: bodies that start before this are read as text.
    let mut plain_until = 0;
    while let Some(i) = t.get(at..).and_then(|s| s.find(marker)) {
        let start = at + i;
        let body_start = start + marker.len();
        let rest = t.get(body_start..).unwrap_or_default();
        let closer = close.and_then(|c| {
            // A closer inside a string of the JSON the body opens with is that string's
            // text: the first after the JSON's values, else (none there) the first.
            let mut after_values = None;
            if body_start >= plain_until {
                let (values, read) = json_values_end(rest, &[c]);
                plain_until = body_start + read;
                after_values = values.and_then(|e| Some(e + rest[e..].find(c)?));
            }
            let j = after_values.or_else(|| rest.find(c))?;
            Some((j, j + c.len()))
        });
        let (body_end, end) = match closer {
            Some((j, e)) => (body_start + j, body_start + e),
            None => (t.len(), t.len()),
        };
        out.push((start..end, body_start..body_end));
        at = end.max(start + 1);
    }
    out
}

/// The JSON calls in `t[body]`, several separated by `;`, commas or newlines, or one array.
/// The text taken runs from the block's start to the end of the last value that gave calls
/// (to the block's end when nothing but separators follows it): a value cut off after it, or
/// text that is no call, stays content.
pub(crate) fn json_block(t: &str, whole: Range<usize>, body: Range<usize>, found: &mut Found) {
    let text = t.get(body.clone()).unwrap_or_default();
    let end = closed_by(&whole, &body);
    let mut pos = 0;
    let mut last_call = None;
    while let Some(j) = text[pos..].find(['{', '[']) {
        let from = pos + j;
        let Some(len) = json_end(&text[from..]) else {
            // Cut off: the calls of an array written in full before the cut.
            if let Some(len) = value_calls(&text[from..], found, "a call", end) {
                last_call = Some(from + len);
            }
            break;
        };
        if lenient_calls(&text[from..from + len], found, "a call", end) {
            last_call = Some(from + len);
        }
        pos = from + len;
    }
    if let Some(last) = last_call {
        let tail = text[last..].trim_matches(|c: char| c.is_whitespace() || c == ';' || c == ',');
        found.taken.push(
            whole.start..if tail.is_empty() {
                whole.end
            } else {
                body.start + last
            },
        );
    }
}

/// JSON calls between `open` and `close` (the closer optional, the element then running to the
/// next opener): each element whose JSON gives calls is taken; one cut off is content.
pub(crate) fn tagged_json(t: &str, open: &str, close: &str, found: &mut Found) {
    for (whole, body) in json_elements(t, 0..t.len(), open, close) {
        let inner = t.get(body.clone()).unwrap_or_default();
        let end = closed_by(&whole, &body);
        take_calls(
            whole,
            body.start,
            value_calls(inner, found, "a call", end),
            inner,
            found,
        );
    }
}

/// Takes the element `whole` (its body starting at `body`, its text `inner`) when [`value_calls`]
/// read calls taking `len` of `inner`: whole when they took all of it, else up to where they
/// end (what follows was cut off, and stays content).
pub(crate) fn take_calls(
    whole: Range<usize>,
    body: usize,
    len: Option<usize>,
    inner: &str,
    found: &mut Found,
) {
    match len {
        Some(len) if len == inner.len() => found.taken.push(whole),
        Some(len) => found.taken.push(whole.start..body + len),
        None => {}
    }
}

/// Takes each `open … close` wrapper around calls read since `found.taken[first]`: whole when
/// its closer came, else up to the end of its last call (what follows may be a call cut off,
/// which stays content). Calls and wrappers are both in text order: one pass over each.
pub(crate) fn take_wrappers(t: &str, first: usize, wrappers: &[(&str, &str)], found: &mut Found) {
    let calls: Vec<Range<usize>> = found.taken[first..].to_vec();
    for (open, close) in wrappers {
        let mut next = 0;
        for (whole, body) in elements(t, 0..t.len(), open, close) {
            while calls.get(next).is_some_and(|c| c.start < whole.start) {
                next += 1;
            }
            let mut last = None;
            while let Some(c) = calls.get(next).filter(|c| c.end <= whole.end) {
                last = Some(c.end);
                next += 1;
            }
            match last {
                Some(_) if whole.end > body.end => found.taken.push(whole),
                Some(end) => found.taken.push(whole.start..end),
                None => {}
            }
        }
    }
}
