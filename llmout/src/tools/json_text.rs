//! JSON calls read from their text, without a tree: what [`parse_compact`](super::parse_compact)
//! reads a call or an array of calls with. The JSON is repaired to the text `serde_json`
//! writes for its value (`repair::to_value_text`), each call's members are found in that
//! text as borrowed [`RawValue`]s, and the arguments stay where they are in it. The calls are
//! the ones [`call_from_json`](super::read::call_from_json) reads from the value, member for
//! member; only the arguments of a call of 100 MB are never a map of 100 MB.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use super::calls::{smaller_as_value, Arguments, Parts};
use super::family::Found;
use super::read::{calls_from_json, json_value, ArgNotes};
use crate::repair::{self, RepairError, RepairOptions, Repairs};

/// A member given in the call, whatever its value (`null` too: `call_from_json` takes a key
/// that is there, whatever it holds, before the next one).
#[derive(Default)]
struct Given<'a>(Option<&'a RawValue>);

impl<'de: 'a, 'a> Deserialize<'de> for Given<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(d).map(|v| Given(Some(v)))
    }
}

/// The members of a call that `call_from_json` reads; the others are skipped.
#[derive(Deserialize)]
struct RawCall<'a> {
    #[serde(borrow, default)]
    id: Given<'a>,
    #[serde(borrow, default)]
    tool_call_id: Given<'a>,
    #[serde(borrow, default)]
    function: Given<'a>,
    #[serde(borrow, default)]
    name: Given<'a>,
    #[serde(borrow, default)]
    tool: Given<'a>,
    #[serde(borrow, default)]
    tool_name: Given<'a>,
    #[serde(borrow, default)]
    arguments: Given<'a>,
    #[serde(borrow, default)]
    parameters: Given<'a>,
    #[serde(borrow, default)]
    args: Given<'a>,
    #[serde(borrow, default)]
    input: Given<'a>,
}

/// OpenAI's `function` member: `{"name", "arguments"}`.
#[derive(Deserialize)]
struct RawFunction<'a> {
    #[serde(borrow, default)]
    name: Given<'a>,
    #[serde(borrow, default)]
    arguments: Given<'a>,
}

/// A call's JSON (or an envelope's, or an array of calls') repaired: as a value, or as the
/// text `serde_json` writes for it where calls are written as they come.
pub(crate) enum Repaired {
    Value(Value),
    Text(String),
}

impl Repaired {
    /// `text` repaired as `found`'s calls take it, and the fixes made.
    pub(crate) fn read(text: &str, found: &Found) -> Result<(Repaired, Repairs), RepairError> {
        Repaired::read_as(found)(text)
    }

    /// How `found`'s calls take JSON (a function, so that `found` can be lent out meanwhile).
    /// Where calls are written, a text whose JSON could be far longer than its value is read
    /// as a value too ([`smaller_as_value`]), for its calls to be held as values.
    pub(crate) fn read_as(found: &Found) -> fn(&str) -> Result<(Repaired, Repairs), RepairError> {
        if found.calls.is_written() {
            |t| {
                if smaller_as_value(t) {
                    return Repaired::value(t);
                }
                repair::to_value_text(t, &RepairOptions::default())
                    .map(|p| (Repaired::Text(p.json), p.repairs))
            }
        } else {
            Repaired::value
        }
    }

    fn value(t: &str) -> Result<(Repaired, Repairs), RepairError> {
        repair::parse(t, &RepairOptions::default()).map(|p| (Repaired::Value(p.value), p.repairs))
    }

    /// The calls it holds (a call, or an array of nothing but calls), put in `found`: whether
    /// it held any (nothing is put when not).
    pub(crate) fn into_calls(self, found: &mut Found) -> bool {
        match self {
            Repaired::Value(v) => calls_from_json(v, found),
            Repaired::Text(json) => calls_from_text(json, found),
        }
    }
}

/// The calls in `json` (the text `serde_json` writes for a call or an array of calls), put
/// in `found` as [`calls_from_json`] puts the value's. False,
/// with nothing put, when it is not a call or an array of nothing but calls (at least one).
fn calls_from_text(json: String, found: &mut Found) -> bool {
    let calls = if json.starts_with('[') {
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(&json) else {
            return false;
        };
        if items.is_empty() {
            return false;
        }
        let calls: Option<Vec<CallAt>> = items.iter().map(|c| call_parts(&json, c)).collect();
        calls
    } else {
        serde_json::from_str::<&RawValue>(&json)
            .ok()
            .and_then(|c| call_parts(&json, c))
            .map(|c| vec![c])
    };
    match calls {
        Some(calls) => {
            push_in_place(found, json, calls);
            true
        }
        None => false,
    }
}

/// `calls`, found in `json`, put in `found` as [`read_in_place`] reads them, with what
/// reading each one's arguments changed (as `Found::push_call` says it).
fn push_in_place(found: &mut Found, json: String, calls: Vec<CallAt>) {
    let base = found.calls.len();
    let (json, calls, notes) = read_in_place(json, calls);
    found.calls.push_text(json, calls);
    for (i, notes) in notes.into_iter().enumerate() {
        found.warnings.extend(notes.warnings(base + i));
    }
}

/// Calls each written as an object whose one key is the tool's name and whose value its
/// arguments (`[{"get_weather": {"city": "Bern"}}]`, Apertus), in `json` (the text
/// `serde_json` writes for one such call or an array of them), put in `found` as their value
/// would be: each value an object, a string holding one, or `null`. False, with nothing
/// put, when any item is no such call, or there is none.
pub(crate) fn keyed_calls_from_text(json: String, found: &mut Found) -> bool {
    let items = if json.starts_with('[') {
        serde_json::from_str::<Vec<&RawValue>>(&json).ok()
    } else {
        serde_json::from_str::<&RawValue>(&json)
            .ok()
            .map(|c| vec![c])
    };
    let keyed = |item: &&RawValue| {
        let text = item.get();
        // (The text's keys are its value's: each once.)
        let members: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
        let mut members = members.into_iter();
        let (Some((name, arguments)), None) = (members.next(), members.next()) else {
            return None;
        };
        let given = arguments.get();
        if !(given.starts_with('{') || given.starts_with('"') || given == "null") {
            return None;
        }
        Some(CallAt {
            span: range_in(&json, text),
            id: None,
            name,
            arguments: arguments_of(&json, arguments),
        })
    };
    let parts: Option<Vec<CallAt>> = items.and_then(|items| items.iter().map(keyed).collect());
    match parts {
        Some(parts) if !parts.is_empty() => {
            push_in_place(found, json, parts);
            true
        }
        _ => false,
    }
}

/// The members of a reply's envelope that `json::envelope` reads.
#[derive(Deserialize)]
#[allow(non_snake_case)] // the envelope's own spelling
struct RawEnvelope<'a> {
    #[serde(borrow, default)]
    tool_calls: Given<'a>,
    #[serde(borrow, default)]
    toolCalls: Given<'a>,
    #[serde(borrow, default)]
    needs_more_work: Given<'a>,
    #[serde(borrow, default)]
    needsMoreWork: Given<'a>,
    #[serde(borrow, default)]
    content: Given<'a>,
}

/// The seed's envelope (either spelling), or OpenAI's message shape, whose text is `json`,
/// read into `found` as `json::envelope` reads its value: its calls (those of its items that
/// are calls), its flag and its content; else `json` back.
pub(crate) fn envelope(json: String, found: &mut Found) -> Result<(), String> {
    let Some(e) = read_envelope(&json) else {
        return Err(json);
    };
    let (flag, content) = (e.flag, e.content);
    push_in_place(found, json, e.calls);
    take_envelope(found, flag, content);
    Ok(())
}

/// [`envelope`] for a reply that is JSON as `serde_json` reads it into a `Value` (`text`, a
/// candidate of the reply), read where it is: no repaired copy of the whole is made, and
/// each call's arguments are written apart (an object as `serde_json` writes its value, a
/// string holding one decoded and repaired). One call of 100 MB, its arguments a string, is
/// then held as the reply, the decoded string and its JSON, not also as the reply's copy.
///
/// `None`, with nothing put, where `text` is no envelope, or is one that does not read the
/// same as it stands: it is then read as [`envelope`] reads it. That is text a `Value` would
/// not take (a lone surrogate in a string, which the repair writes as U+FFFD; a number out
/// of range), a key given twice in the envelope, and an item that is no call (as it stands,
/// a call with a key given twice is none, as `serde` refuses it, where repaired it is one).
pub(crate) fn envelope_as_it_stands(text: &str, found: &mut Found) -> Option<()> {
    // (The envelope is read first: text that is none, the usual case, is read once.)
    let e = read_envelope(text).filter(|e| e.calls.len() == e.items)?;
    if !json_value(text) {
        return None;
    }
    let mut calls = Vec::with_capacity(e.calls.len());
    for part in e.calls {
        let (arguments, notes) = match part.arguments {
            At::Object(r) => {
                // (JSON as it stands: its one fix is a key given twice.)
                let p = repair::to_value_text(text.get(r)?, &RepairOptions::default()).ok()?;
                (p.json, ArgNotes::fixed(&p.repairs))
            }
            // (Decoded apart: the text is the caller's.)
            At::Quoted(r) => {
                let s = text
                    .get(r)
                    .and_then(|q| serde_json::from_str::<String>(q).ok())?;
                let (held, notes) = object_in_string(&s);
                (held.unwrap_or_else(|| "{}".to_owned()), notes)
            }
            At::None(notes) => ("{}".to_owned(), notes),
        };
        calls.push((part.id, part.name, arguments, notes));
    }
    for (id, name, arguments, notes) in calls {
        let index = found.calls.len();
        found.warnings.extend(notes.warnings(index));
        found.calls.push_arguments(id, name, arguments);
    }
    take_envelope(found, e.flag, e.content);
    Some(())
}

/// What [`read_envelope`] finds in an envelope: its calls (in the text it was read from) and
/// how many items they were found among, its flag (`Some(None)` for a flag that is no
/// boolean) and its content.
struct Envelope {
    calls: Vec<CallAt>,
    items: usize,
    flag: Option<Option<bool>>,
    content: Option<String>,
}

/// The envelope whose text is `json`, as `json::envelope` reads its value: `None` where it
/// is none (no calls, and not both content and a flag).
fn read_envelope(json: &str) -> Option<Envelope> {
    if !json.starts_with('{') {
        return None;
    }
    let e = serde_json::from_str::<RawEnvelope<'_>>(json).ok()?;
    let calls = e.tool_calls.0.or(e.toolCalls.0);
    let flag = e
        .needs_more_work
        .0
        .or(e.needsMoreWork.0)
        .map(|f| match f.get() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        });
    if calls.is_none() && !(e.content.0.is_some() && flag.is_some()) {
        return None;
    }
    let items = calls
        .filter(|c| c.get().starts_with('['))
        .and_then(|c| serde_json::from_str::<Vec<&RawValue>>(c.get()).ok())
        .unwrap_or_default();
    let calls: Vec<CallAt> = items.iter().filter_map(|c| call_parts(json, c)).collect();
    let content = e
        .content
        .0
        .and_then(string)
        .filter(|s| !s.trim().is_empty());
    Some(Envelope {
        calls,
        items: items.len(),
        flag,
        content,
    })
}

/// The envelope's flag and content, put in `found` (its calls were put there).
fn take_envelope(found: &mut Found, flag: Option<Option<bool>>, content: Option<String>) {
    found.needs_more_work = flag.flatten();
    // The envelope's own content, when it has some; else the text around it.
    if let Some(s) = content {
        found.content = Some(Some(s.trim().to_owned()));
    }
}

/// Whether the value whose text is `json` looks like calls, as `json::looks_like_calls` says
/// of the value: an object with a key of calls or of a call, or an array whose first item
/// does.
pub(crate) fn looks_like_calls(json: &str) -> bool {
    /// The keys that say so.
    #[derive(Deserialize)]
    #[allow(non_snake_case)]
    struct Keys<'a> {
        #[serde(borrow, default)]
        tool_calls: Given<'a>,
        #[serde(borrow, default)]
        toolCalls: Given<'a>,
        #[serde(borrow, default)]
        name: Given<'a>,
        #[serde(borrow, default)]
        function: Given<'a>,
    }
    let mut v = json;
    // The first item of the first item ...: each read alone, so the whole is read once.
    loop {
        if let Some(items) = v.strip_prefix('[') {
            let mut items = serde_json::Deserializer::from_str(items);
            match <&RawValue>::deserialize(&mut items) {
                Ok(first) => v = first.get(),
                Err(_) => return false,
            }
        } else if v.starts_with('{') {
            return serde_json::from_str::<Keys<'_>>(v).is_ok_and(|k| {
                k.tool_calls.0.is_some()
                    || k.toolCalls.0.is_some()
                    || k.name.0.is_some()
                    || k.function.0.is_some()
            });
        } else {
            return false;
        }
    }
}

/// Where `part` (a slice of `json`) is in `json`.
fn range_in(json: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(json.as_ptr() as usize);
    start..start + part.len()
}

/// A JSON string's text, decoded; `None` when the value is no string.
fn string(v: &RawValue) -> Option<String> {
    let text = v.get();
    if !text.starts_with('"') {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// The parts of the call `call` (a slice of `json`), as `call_from_json` reads the value:
/// `{"name"|"tool"|"tool_name", "arguments"|"parameters"|"args"|"input"}` with an `"id"` or
/// `"tool_call_id"`, or OpenAI's `{"id", "function": {"name", "arguments"}}`.
fn call_parts(json: &str, call: &RawValue) -> Option<CallAt> {
    let text = call.get();
    if !text.starts_with('{') {
        return None;
    }
    let c: RawCall<'_> = serde_json::from_str(text).ok()?;
    let id = c.id.0.or(c.tool_call_id.0).and_then(string);
    let (name, arguments) = match c.function.0.filter(|f| f.get().starts_with('{')) {
        Some(f) => {
            let f: RawFunction<'_> = serde_json::from_str(f.get()).ok()?;
            (string(f.name.0?)?, f.arguments.0)
        }
        None => {
            let name = c.name.0.or(c.tool.0).or(c.tool_name.0)?;
            let arguments = c.arguments.0.or(c.parameters.0).or(c.args.0).or(c.input.0);
            (string(name)?, arguments)
        }
    };
    Some(CallAt {
        span: range_in(json, text),
        id,
        name,
        arguments: arguments.map_or(At::None(ArgNotes::default()), |a| arguments_of(json, a)),
    })
}

/// A call found in JSON text, its arguments where they are in it: [`Parts`] before a string
/// holding the arguments is read (see [`read_in_place`]).
struct CallAt {
    span: Range<usize>,
    id: Option<String>,
    name: String,
    arguments: At,
}

/// Where a call's arguments are in the text it was found in.
enum At {
    /// An object, at this range.
    Object(Range<usize>),
    /// A string (this range, its quotes included), which `read::arguments` reads as JSON.
    Quoted(Range<usize>),
    /// None given, or given as another value: `{}` (and what that leaves out).
    None(ArgNotes),
}

/// The arguments where `read::arguments` takes them from: an object; a string, to be read as
/// JSON; else none.
fn arguments_of(json: &str, a: &RawValue) -> At {
    let text = a.get();
    if text.starts_with('{') {
        At::Object(range_in(json, text))
    } else if text.starts_with('"') {
        At::Quoted(range_in(json, text))
    } else {
        At::None(ArgNotes::of_other(text))
    }
}

impl CallAt {
    /// The call's parts, with `quoted` reading arguments given as a string; and what
    /// reading its arguments changed.
    fn into_parts(
        self,
        quoted: impl FnOnce(Range<usize>) -> (Arguments, ArgNotes),
    ) -> (Parts, ArgNotes) {
        let (arguments, notes) = match self.arguments {
            At::Object(r) => (Arguments::At(r), ArgNotes::default()),
            At::Quoted(r) => quoted(r),
            At::None(notes) => (Arguments::Empty, notes),
        };
        let parts = Parts {
            span: self.span,
            id: self.id,
            name: self.name,
            arguments,
        };
        (parts, notes)
    }
}

/// `calls`, found in `json`, with each string of arguments read as `read::arguments` reads
/// it (see [`read_quoted`]), in place, and what reading each call's arguments changed. The
/// text is given back with each such string's place blank.
fn read_in_place(json: String, calls: Vec<CallAt>) -> (String, Vec<Parts>, Vec<ArgNotes>) {
    if !calls.iter().any(|c| matches!(c.arguments, At::Quoted(_))) {
        let (calls, notes) = calls
            .into_iter()
            .map(|c| c.into_parts(|_| (Arguments::Empty, ArgNotes::default())))
            .unzip();
        return (json, calls, notes);
    }
    let mut bytes = json.into_bytes();
    let (calls, notes) = calls
        .into_iter()
        .map(|c| c.into_parts(|r| read_quoted(&mut bytes, r)))
        .unzip();
    // Each string's place is blank and the rest as it was, so this is never lossy.
    let json = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (json, calls, notes)
}

/// The arguments held by the JSON string at `quoted` in `bytes` (whole UTF-8), read as
/// `read::arguments` reads a string: the JSON of the object it holds, read leniently; else
/// none. The string is decoded where it is (decoded, a string is never longer than its
/// JSON), so that one of 100 MB is held as the text it was found in and its object's JSON,
/// not also decoded apart. Its place is then blank (spaces): whole UTF-8 again.
fn read_quoted(bytes: &mut [u8], quoted: Range<usize>) -> (Arguments, ArgNotes) {
    let (held, notes) = match decode_in_place(bytes, quoted.clone())
        .and_then(|d| std::str::from_utf8(&bytes[d]).ok())
    {
        Some(s) => object_in_string(s),
        // (Text `serde_json` wrote, or read as a `Value`: always a string.)
        None => (None, ArgNotes::default()),
    };
    if let Some(place) = bytes.get_mut(quoted) {
        place.fill(b' ');
    }
    (held.map_or(Arguments::Empty, Arguments::Apart), notes)
}

/// Decodes the JSON string at `quoted` in `bytes` into the start of its place; returns where
/// the decoded text is. `None`, with the place part written, where `serde_json` would not
/// read it as a `String`: no string, a raw control character or quote, a bad escape, a
/// lone surrogate.
fn decode_in_place(bytes: &mut [u8], quoted: Range<usize>) -> Option<Range<usize>> {
    let (start, end) = (quoted.start, quoted.end.checked_sub(1)?);
    if start >= end || bytes.get(start) != Some(&b'"') || bytes.get(end) != Some(&b'"') {
        return None;
    }
    // Read at `r`, written at `w`, never past `r`: an escape is longer than what it stands
    // for.
    let (mut r, mut w) = (start + 1, start);
    while r < end {
        // A run with no escape, moved as it is: whole characters, as it ends at ASCII.
        let run = bytes[r..end]
            .iter()
            .position(|&b| b == b'\\' || b == b'"' || b < 0x20)
            .map_or(end, |n| r + n);
        bytes.copy_within(r..run, w);
        w += run - r;
        r = run;
        if r == end {
            break;
        }
        if bytes[r] != b'\\' {
            return None;
        }
        let c = match *bytes.get(r + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = hex4(bytes.get(r + 2..r + 6)?)?;
                r += 6;
                let code = match high {
                    0xD800..=0xDBFF => {
                        if bytes.get(r..r + 2)? != b"\\u" {
                            return None;
                        }
                        let low = hex4(bytes.get(r + 2..r + 6)?)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        r += 6;
                        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => high,
                };
                let c = char::from_u32(code)?;
                w += c.encode_utf8(&mut bytes[w..w + c.len_utf8()]).len();
                continue;
            }
            _ => return None,
        };
        bytes[w] = c as u8;
        w += 1;
        r += 2;
    }
    // (Past the end where the closing quote was escaped.)
    (r == end).then_some(start..w)
}

/// The value of four hex digits.
fn hex4(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0, |n, &d| {
        let d = char::from(d).to_digit(16)?;
        Some(n * 16 + d)
    })
}

/// The text of an object given as a JSON string, read leniently (`None` when it holds none),
/// and what reading it changed, as `read::arguments` says it.
fn object_in_string(s: &str) -> (Option<String>, ArgNotes) {
    if s.trim().is_empty() {
        return (None, ArgNotes::default());
    }
    match repair::to_value_text(s, &RepairOptions::default()) {
        Ok(p) if p.json.starts_with('{') => (Some(p.json), ArgNotes::fixed(&p.repairs)),
        _ => (None, ArgNotes::no_object(s)),
    }
}

/// The arguments' JSON as `read::arguments` makes it of the value whose text is `json`: an
/// object as it is; a string holding an object, that object; else `{}`. With what that
/// changed.
pub(crate) fn arguments_text(json: String) -> (String, ArgNotes) {
    if json.starts_with('{') {
        return (json, ArgNotes::default());
    }
    if !json.starts_with('"') {
        return ("{}".to_owned(), ArgNotes::of_other(&json));
    }
    // (The text is a value as `serde_json` writes it: a string is the whole of it.)
    let whole = 0..json.len();
    match read_quoted(&mut json.into_bytes(), whole) {
        (Arguments::Apart(text), notes) => (text, notes),
        (_, notes) => ("{}".to_owned(), notes),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{parse, parse_compact, ToolCall};

    /// The calls `parse_compact` reads from `reply`, each written out, after checking they are
    /// `parse`'s (read back and as `serde_json` writes them) with the same warnings.
    fn written(reply: &str) -> Vec<String> {
        let whole = parse(reply);
        let compact = parse_compact(reply);
        assert_eq!(compact.len(), whole.tool_calls.len(), "{reply:?}");
        assert_eq!(compact.warnings, whole.warnings, "{reply:?}");
        assert_eq!(compact.content, whole.content, "{reply:?}");
        (0..compact.len())
            .map(|i| {
                assert_eq!(
                    compact.call(i).as_ref(),
                    whole.tool_calls.get(i),
                    "{reply:?}"
                );
                let mut out = Vec::new();
                compact.write_call(i, &mut out).unwrap();
                let out = String::from_utf8(out).unwrap();
                assert_eq!(out, serde_json::to_string(&whole.tool_calls[i]).unwrap());
                out
            })
            .collect()
    }

    fn tagged(body: &str) -> String {
        format!("<tool_call>{body}</tool_call>")
    }

    /// The warnings `parse` gives for `reply` (the same as `parse_compact`'s: see [`written`]),
    /// each as its path and message.
    fn said(reply: &str) -> Vec<(String, String)> {
        written(reply);
        (parse(reply).warnings.into_iter())
            .map(|w| (w.path, w.message.into_owned()))
            .collect()
    }

    #[test]
    fn what_reading_a_calls_arguments_changed_is_said() {
        let openai = |arguments: &str| {
            format!(
                r#"{{"role": "assistant", "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "f", "arguments": {arguments}}}}}]}}"#
            )
        };
        // A string holding an object that needed fixes: each fix, at its place in the call.
        assert_eq!(
            said(&openai(r#""{city: 'Bern', \"tags\": [1,],}""#)),
            [
                (
                    "/tool_calls/0/arguments".into(),
                    "quoted an unquoted key".into()
                ),
                (
                    "/tool_calls/0/arguments/city".into(),
                    "read a string in non-JSON quotes".into()
                ),
                (
                    "/tool_calls/0/arguments/tags".into(),
                    "removed a trailing comma".into()
                ),
                (
                    "/tool_calls/0/arguments".into(),
                    "removed a trailing comma".into()
                ),
            ]
        );
        // Cut off inside the string: closed, and said.
        assert_eq!(
            said(&openai(r#""{\"city\": \"Par""#)),
            [(
                "/tool_calls/0/arguments/city".into(),
                "the input was cut off here; closed what it left open".into()
            )]
        );
        // No object in it, or no object given: the call has none, and that is said.
        assert_eq!(
            said(&openai(r#""look it up""#)),
            [(
                "/tool_calls/0/arguments".into(),
                "the arguments were given as a string holding no JSON object (\"look it up\"): the call has none".into()
            )]
        );
        for (given, what) in [
            ("[1, 2]", "an array"),
            ("42", "a number"),
            ("true", "a boolean"),
        ] {
            assert_eq!(
                said(&openai(given)),
                [(
                    "/tool_calls/0/arguments".into(),
                    format!("the arguments were given as {what}, not an object: the call has none")
                )],
                "{given}"
            );
        }
        // Nothing given, or an empty string: no arguments, nothing to say.
        for given in ["null", r#""""#, r#""  ""#, r#""{}""#] {
            assert_eq!(said(&openai(given)), [], "{given}");
        }
        // A bare array of calls repaired: each fix at its call.
        assert_eq!(
            said(r#"[{"name": "a", "arguments": {}}, {name: "b", "arguments": "{x: 1}"}]"#),
            [
                ("/tool_calls/1".into(), "quoted an unquoted key".into()),
                (
                    "/tool_calls/1/arguments".into(),
                    "quoted an unquoted key".into()
                ),
            ]
        );
        // A key given twice in arguments that are JSON as they stand.
        assert_eq!(
            said(&openai(r#""{\"x\": 1, \"x\": 2}""#)),
            [(
                "/tool_calls/0/arguments/x".into(),
                "a key given twice kept its last value".into()
            )]
        );
    }

    #[test]
    fn calls_keyed_by_their_tool_are_read_from_their_text() {
        let apertus = |calls: &str| format!("Checking.<|tools_prefix|>{calls}<|tools_suffix|>");
        // An array of calls: arguments as an object, a string holding one, `null`; repaired.
        assert_eq!(
            written(&apertus(
                r#"[{"get_weather": {city: 'Bern'}}, {"now": "{\"tz\": \"CET\"}"}, {"ping": null},]"#
            )),
            [
                r#"{"id":null,"name":"get_weather","arguments":{"city":"Bern"}}"#,
                r#"{"id":null,"name":"now","arguments":{"tz":"CET"}}"#,
                r#"{"id":null,"name":"ping","arguments":{}}"#,
            ]
        );
        // One call alone, and an escaped name.
        assert_eq!(
            written(&apertus(r#"{"a\"b": {"n": 1}}"#)),
            [r#"{"id":null,"name":"a\"b","arguments":{"n":1}}"#]
        );
        // No call: an item with two keys or arguments of another type; no item; cut off.
        for calls in [
            r#"[{"a": {}, "b": {}}]"#,
            r#"[{"a": {}}, {"b": 3}]"#,
            r#"[{"a": []}]"#,
            "[]",
            r#"[{"a": {"x": 1}"#,
        ] {
            assert!(written(&apertus(calls)).is_empty(), "{calls}");
        }
    }

    #[test]
    fn a_call_is_laid_out_from_its_text_as_the_value_writes_it() {
        // Arguments before a name longer than what comes before them: moved right.
        let long = "a_tool_name_longer_than_the_arguments_key";
        assert_eq!(
            written(&tagged(&format!(
                r#"{{"arguments": {{"n": 1.50, "e": 1E3, 'q': "it's"}}, "name": "{long}"}}"#
            ))),
            [format!(
                r#"{{"id":null,"name":"{long}","arguments":{{"n":1.5,"e":1000.0,"q":"it's"}}}}"#
            )]
        );
        // Escapes in the name and id, decoded, written again as `serde_json` writes them.
        assert_eq!(
            written(&tagged(
                r#"{"id": "c\"1", "name": "say_\u00e9", "input": {"t": "a\nb"}}"#
            )),
            [r#"{"id":"c\"1","name":"say_é","arguments":{"t":"a\nb"}}"#]
        );
        // A key that is there takes its place whatever it holds, as in the value.
        assert_eq!(
            written(&tagged(
                r#"{"id": null, "tool_call_id": "t", "tool": "x", "args": 5}"#
            )),
            [r#"{"id":null,"name":"x","arguments":{}}"#]
        );
        assert!(written(&tagged(r#"{"name": null, "tool": "x"}"#)).is_empty());
        assert!(written(&tagged(r#"{"function": {"name": 3}, "name": "x"}"#)).is_empty());
        // Arguments given as a string: read as JSON apart; not an object, none.
        assert_eq!(
            written(&tagged(
                r#"{"id": "c", "type": "function", "function": {"arguments": "{a: [1,]}", "name": "f"}}"#
            )),
            [r#"{"id":"c","name":"f","arguments":{"a":[1]}}"#]
        );
        assert_eq!(
            written(&tagged(r#"{"name": "f", "arguments": "plain words"}"#)),
            [r#"{"id":null,"name":"f","arguments":{}}"#]
        );
    }

    #[test]
    fn the_calls_of_an_array_are_laid_out_in_place_or_copied_when_one_grows() {
        // Each call's parts end before the next call's text: in place.
        let reply = tagged(
            r#"[{"name": "a", "arguments": {"x": [1, 2]}}, {"arguments": {}, "name": "bbbbbbbbbbbbbbbbbbbbbbbbb", "id": "2"}, {"name": "c"}]"#,
        );
        assert_eq!(
            written(&reply),
            [
                r#"{"id":null,"name":"a","arguments":{"x":[1,2]}}"#,
                r#"{"id":"2","name":"bbbbbbbbbbbbbbbbbbbbbbbbb","arguments":{}}"#,
                r#"{"id":null,"name":"c","arguments":{}}"#,
            ]
        );
        // Arguments given as a string of forty unquoted keys: laid out 80 bytes longer than
        // the call's text, so the calls are copied out of it.
        let keys: Vec<String> = (0..40).map(|i| format!("k{i}:{i}")).collect();
        let reply = tagged(&format!(
            r#"[{{"function": {{"name": "f", "arguments": "{{{}}}"}}}}, {{"name": "g", "arguments": {{"y": true}}}}]"#,
            keys.join(",")
        ));
        let args: serde_json::Map<String, serde_json::Value> =
            (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
        let first = ToolCall {
            id: None,
            name: "f".to_owned(),
            arguments: args,
        };
        assert_eq!(
            written(&reply),
            [
                serde_json::to_string(&first).unwrap(),
                r#"{"id":null,"name":"g","arguments":{"y":true}}"#.to_owned(),
            ]
        );
    }

    #[test]
    fn calls_from_text_and_calls_written_apart_share_the_chunks() {
        // A pythonic call (written into a chunk), a JSON call (a chunk of its own), another
        // pythonic call (a new chunk), then a cut-off call (a warning, content).
        let reply = format!(
            "<tool_call>[ls(dir='/')]</tool_call>{}<tool_call>[cat(path=\"a\")]</tool_call><tool_call>{{\"name\": \"x\", \"arguments\": {{\"a\": ",
            tagged(r#"{"name": "grep", "arguments": {"q": "x"}}"#)
        );
        assert_eq!(
            written(&reply),
            [
                r#"{"id":null,"name":"ls","arguments":{"dir":"/"}}"#,
                r#"{"id":null,"name":"grep","arguments":{"q":"x"}}"#,
                r#"{"id":null,"name":"cat","arguments":{"path":"a"}}"#,
            ]
        );
    }

    #[test]
    fn an_envelope_is_read_from_its_text_as_from_its_value() {
        let reply = r#"{"content": " Doing it. ", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "a", "arguments": "{\"x\": 1e2}"}}, 5, {"name": "b", "arguments": {"y": [1.0]}}], "needs_more_work": true}"#;
        assert_eq!(
            written(reply),
            [
                r#"{"id":"1","name":"a","arguments":{"x":100.0}}"#,
                r#"{"id":null,"name":"b","arguments":{"y":[1.0]}}"#,
            ]
        );
        let r = parse_compact(reply);
        assert_eq!(
            (r.content.as_deref(), r.needs_more_work),
            (Some("Doing it."), Some(true))
        );
        // A flag that is no boolean still makes the envelope, with no flag.
        let reply = r#"{"content": "Thinking.", "needsMoreWork": "maybe"}"#;
        assert!(written(reply).is_empty());
        let r = parse_compact(reply);
        assert_eq!(
            (r.content.as_deref(), r.needs_more_work),
            (Some("Thinking."), None)
        );
        // Calls that are not an array: an envelope with none.
        assert!(written(r#"{"tool_calls": {"name": "a"}, "content": "x"}"#).is_empty());
    }

    #[test]
    fn a_repaired_envelope_reads_its_string_arguments_in_place() {
        // A trailing comma: the envelope is repaired, and each string of arguments is decoded
        // where it is in the repaired text (escapes of every kind, a surrogate pair), then
        // read as JSON: as `parse` reads the value.
        let reply = r#"{"tool_calls": [{"id": "c1", "function": {"name": "a", "arguments": "{\"t\": \"tab\\there \\u00e9\\ud83d\\ude00\", k: 'v', \"s\": \"\\/\"}"}}, {"function": {"name": "b", "arguments": "no object"}}, {"name": "c", "arguments": "{\"é\": [1,]}"}, {"name": "d", "arguments": {"x": 1}},], "content": "ok",}"#;
        assert_eq!(
            written(reply),
            [
                r#"{"id":"c1","name":"a","arguments":{"t":"tab\there é😀","k":"v","s":"/"}}"#,
                r#"{"id":null,"name":"b","arguments":{}}"#,
                r#"{"id":null,"name":"c","arguments":{"é":[1]}}"#,
                r#"{"id":null,"name":"d","arguments":{"x":1}}"#,
            ]
        );
        assert_eq!(parse_compact(reply).content.as_deref(), Some("ok"));
    }

    #[test]
    fn a_string_is_decoded_in_place_as_serde_json_decodes_it() {
        let decoded = |quoted: &str| {
            let mut bytes = format!("<{quoted}>").into_bytes();
            let at = super::decode_in_place(&mut bytes, 1..1 + quoted.len())?;
            Some(String::from_utf8(bytes[at].to_vec()).unwrap())
        };
        for quoted in [
            r#""""#,
            r#""plain""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\u00e9\u00E9 \u20ac \uD83D\uDE00 \u0000 \u001f""#,
            r#""é 😀 中""#,
            r#""\\""#,
        ] {
            let expected: String = serde_json::from_str(quoted).unwrap();
            assert_eq!(decoded(quoted), Some(expected), "{quoted}");
        }
        // What `serde_json` refuses as a `String`, refused.
        for quoted in [
            r#""\ud800""#,
            r#""\udc00x""#,
            r#""\ud800\u0041""#,
            r#""\x41""#,
            r#""\u12g4""#,
            r#""\u+123""#,
            r#""a\""#,
            "\"a\nb\"",
            r#""a"b""#,
            r#""unclosed"#,
            "plain",
            "\"",
        ] {
            assert!(serde_json::from_str::<String>(quoted).is_err(), "{quoted}");
            assert_eq!(decoded(quoted), None, "{quoted}");
        }
    }

    proptest::proptest! {
        /// Any string, as `serde_json` writes it (or escaped wholly as `\uXXXX`, surrogate
        /// pairs for what is past the first plane), decodes in place to itself.
        #[test]
        fn any_string_decodes_in_place_to_itself(s in "\\PC*|[\\x00-\\x7f\\u{80}-\\u{10ffff}]{0,40}") {
            let escaped: String = s
                .encode_utf16()
                .map(|u| format!("\\u{u:04x}"))
                .collect();
            for quoted in [serde_json::to_string(&s).unwrap(), format!("\"{escaped}\"")] {
                let mut bytes = quoted.clone().into_bytes();
                let at = super::decode_in_place(&mut bytes, 0..quoted.len());
                let decoded = at.map(|at| String::from_utf8(bytes[at].to_vec()).unwrap());
                proptest::prop_assert_eq!(decoded.as_deref(), Some(s.as_str()), "{}", quoted);
            }
        }
    }

    #[test]
    fn an_envelope_that_is_json_as_it_stands_is_read_where_it_is() {
        use super::super::calls::Calls;
        use super::super::family::Found;
        let as_it_stands = |text: &str| {
            let mut found = Found {
                calls: Calls::written(),
                taken: Vec::new(),
                warnings: Vec::new(),
                kept: Vec::new(),
                needs_more_work: None,
                content: None,
            };
            super::envelope_as_it_stands(text, &mut found).map(|()| found.calls.len())
        };
        let long = "x".repeat(70_000);
        // OpenAI's message: arguments as a string (one large), as an object written as its
        // value writes it (a key given twice inside keeps its last value, at its place).
        let reply = format!(
            r#"{{"role": "assistant", "content": null, "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "save", "arguments": "{{\"text\": \"{long}\", \"n\": 1.50}}"}}}}, {{"name": "b", "arguments": {{"y": 1E2, "z": 1, "y": [2.50]}}}}, {{"id": 7, "name": "c"}}], "needs_more_work": false}}"#
        );
        assert_eq!(as_it_stands(&reply), Some(3));
        assert_eq!(
            written(&reply),
            [
                format!(r#"{{"id":"c1","name":"save","arguments":{{"text":"{long}","n":1.5}}}}"#),
                r#"{"id":null,"name":"b","arguments":{"y":[2.5],"z":1}}"#.to_owned(),
                r#"{"id":null,"name":"c","arguments":{}}"#.to_owned(),
            ]
        );
        assert_eq!(parse_compact(&reply).needs_more_work, Some(false));
        // As it stands, a call with a key given twice is refused by `serde`, and an item that
        // is no call is skipped: both read as the repaired text is.
        for reply in [
            r#"{"tool_calls": [{"name": "a", "name": "b", "arguments": {}}]}"#,
            r#"{"tool_calls": [{"name": "a"}, 5]}"#,
            r#"{"tool_calls": [], "tool_calls": [{"name": "a"}]}"#,
            // Text a `Value` would not take: the repair writes a lone surrogate as U+FFFD.
            r#"{"content": "hi\ud800", "tool_calls": [{"name": "a", "id": "x\udc00"}]}"#,
            r#"{"tool_calls": [{"name": "a", "arguments": {"n": 1e400}}]}"#,
        ] {
            assert_eq!(as_it_stands(reply), None, "{reply}");
            assert_eq!(written(reply).len(), 1, "{reply}");
        }
        // No envelope.
        assert_eq!(as_it_stands(r#"{"name": "a", "arguments": {}}"#), None);
    }

    #[test]
    fn calls_with_no_marker_are_read_from_their_text() {
        // A fenced call, then more after `;`.
        assert_eq!(
            written("Sure.\n```json\n{\"name\": \"a\", \"arguments\": {\"k\": 'v'}}; {\"name\": \"b\"}\n```"),
            [
                r#"{"id":null,"name":"a","arguments":{"k":"v"}}"#,
                r#"{"id":null,"name":"b","arguments":{}}"#,
            ]
        );
        // Cut off: no call, and a warning, nested in arrays or not; a cut value that does not
        // look like calls warns of nothing.
        for reply in [
            r#"{"name": "a", "arguments": {"x": "#,
            r#"[[{"function": {"name": "a"#,
            r#"[[], {"name": "a"#,
            r#"{"city": "Par"#,
        ] {
            assert!(written(reply).is_empty(), "{reply:?}");
        }
        let warned = |reply: &str| !parse_compact(reply).warnings.is_empty();
        assert!(warned(r#"[[{"function": {"name": "a"#));
        assert!(!warned(r#"[[], {"name": "a"#));
        assert!(!warned(r#"{"city": "Par"#));
    }

    #[test]
    fn a_large_call_keeps_its_text_as_its_own_chunk() {
        // Arguments of 64 KiB or more, from a call's text and from a family that gives the
        // arguments alone (Kimi, Mistral, DeepSeek, harmony), between small calls.
        let big = "x".repeat(70_000);
        let small = r#"<tool_call>{"name": "s", "arguments": {}}</tool_call>"#;
        let reply = format!(
            r#"{small}<tool_call>{{"name": "big", "arguments": {{"text": "{big}"}}, "id": "7"}}</tool_call>{small}{small}"#
        );
        let calls = written(&reply);
        assert_eq!(calls.len(), 4);
        assert_eq!(
            calls[1],
            format!(r#"{{"id":"7","name":"big","arguments":{{"text":"{big}"}}}}"#)
        );
        assert_eq!(calls[3], r#"{"id":null,"name":"s","arguments":{}}"#);
        let reply = format!(
            "[TOOL_CALLS]s[ARGS]{{}}[TOOL_CALLS]big[CALL_ID]c1[ARGS]{{\"text\": \"{big}\"}}[TOOL_CALLS]t[ARGS]{{\"n\": 1}}"
        );
        assert_eq!(
            written(&reply),
            [
                r#"{"id":null,"name":"s","arguments":{}}"#.to_owned(),
                format!(r#"{{"id":"c1","name":"big","arguments":{{"text":"{big}"}}}}"#),
                r#"{"id":null,"name":"t","arguments":{"n":1}}"#.to_owned(),
            ]
        );
    }
}
