//! Replies with no family's marker: a JSON envelope (`{"content", "tool_calls"/"toolCalls",
//! "needs_more_work"/"needsMoreWork"}`), a single `{"name", "arguments"}` call, an OpenAI-shaped
//! object, or an array of calls, whole, fenced or in prose; or a reply that is nothing but
//! pythonic calls. Anything else is content, and so is a call the text mentions rather than
//! makes: one it introduces as an example or a wrong value (`for example:`), or quotes as
//! code inside a sentence (``run `{"name": ...}` yourself``); a warning says so.

use std::ops::Range;

use serde_json::Value;

use super::family::Found;
use super::fenced::LaterFences;
use super::json_text::{self, Repaired};
use super::pythonic::pythonic_reply;
use super::read::{call_from_json, cut_short, warn_fixes, ArgNotes, End, Shape};
use super::ToolCall;
use crate::extract;
use crate::repair::{self, RepairKind, RepairOptions};
use crate::{Warning, WarningKind};

/// Reads a reply with no marker.
pub(crate) fn read(t: &str, found: &mut Found) {
    if !pythonic_reply(t, found) {
        json_values(t, found);
    }
}

/// No marker: a JSON envelope, call, OpenAI-shaped object or array of calls, whole, fenced or
/// in prose. The first candidate span that is one wins; more calls may follow it, separated by
/// `;`, commas or white space (Llama 3's JSON calls after prose), and in each later markdown
/// fence whose body starts with calls.
fn json_values(t: &str, found: &mut Found) {
    match first(t, found) {
        First::Envelope(range) => {
            if found.content.is_none() {
                found.taken.push(with_fence(t, range));
            }
        }
        First::Calls(range, said) => {
            // Only the longest spans are candidates: the chain of calls it belongs to may
            // start earlier, at the reply's first JSON value.
            if let Some((calls, chain)) = chain_through(t, range.start) {
                // (The calls of the value at `range` are the chain's too: read again.)
                let first = found.calls.len() - following_value_count(t, &range);
                found.calls.truncate(first);
                found.warnings.truncate(said);
                found.append_calls(calls);
                let end = chain.end;
                found.taken.push(chain);
                LaterFences::new(end).walk(t, true, found);
                return;
            }
            let mut end = range.end;
            found.taken.push(with_fence(t, range));
            while let Some(next) = following_calls(t, end, found) {
                found.taken.push(end..next);
                end = next;
            }
            LaterFences::new(end).walk(t, true, found);
        }
        First::Nothing => {}
    }
}

/// How many calls the value at `range` gave.
fn following_value_count(t: &str, range: &Range<usize>) -> usize {
    t.get(range.clone())
        .and_then(|v| repair::parse(v, &RepairOptions::default()).ok())
        .and_then(|p| following_value_calls(p.value))
        .map_or(0, |c| c.len())
}

/// The calls of the chain (JSON calls separated by `;`, commas or white space) that starts at
/// the reply's first JSON value, when that chain runs through a value starting at `through`:
/// the calls (and their warnings, as the first calls of a reply), and the range the chain
/// takes. `None` when the first value is the one at `through`, or starts no such chain.
fn chain_through(t: &str, through: usize) -> Option<(Found, Range<usize>)> {
    let start = t.find(['{', '['])?;
    if start >= through {
        return None;
    }
    let mut chain = Found::default();
    let len = super::read::json_end(&t[start..])?;
    let p = repair::parse(&t[start..start + len], &RepairOptions::default()).ok()?;
    let shape = if p.value.is_array() {
        Shape::Items
    } else {
        Shape::One
    };
    chain.push_calls(following_value_calls(p.value)?);
    warn_fixes(&mut chain, &p.repairs, shape, 0, 0, None);
    let mut end = start + len;
    let mut passed = false;
    while let Some(next) = following_calls(t, end, &mut chain) {
        let value_start = end + separators(&t[end..]);
        passed |= value_start == through;
        end = next;
    }
    passed.then_some((chain, start..end))
}

/// `range` and the markdown fence (or single backticks) around it, if it is all a fence
/// holds: the fence is no content.
fn with_fence(t: &str, range: Range<usize>) -> Range<usize> {
    let b = t.as_bytes();
    if range.start >= 1
        && b[range.start - 1] == b'`'
        && (range.start < 2 || b[range.start - 2] != b'`')
        && b.get(range.end) == Some(&b'`')
        && b.get(range.end + 1) != Some(&b'`')
    {
        return range.start - 1..range.end + 1;
    }
    let before = t.get(..range.start).unwrap_or_default().trim_end();
    let after = t.get(range.end..).unwrap_or_default().trim_start();
    let line = before.rsplit('\n').next().unwrap_or(before);
    let Some(at) = line.rfind("```").or_else(|| line.rfind("~~~")) else {
        return range;
    };
    let info = &line[at + 3..];
    if !info.bytes().all(|c| c.is_ascii_alphanumeric()) || !after.starts_with(&line[at..at + 3]) {
        return range;
    }
    let start = before.len() - line.len() + at;
    let end = t.len() - after.len() + 3;
    start..end
}

/// What the first candidate span that is calls came to (for calls, how many warnings there
/// were before theirs).
enum First {
    Envelope(Range<usize>),
    Calls(Range<usize>, usize),
    Nothing,
}

/// Reads the first candidate span of `t` that is an envelope or calls into `found`. Calls cut
/// off are no calls (a warning says so); complete calls inside them or after them still are.
fn first(t: &str, found: &mut Found) -> First {
    let mut warned = false;
    let mut warned_mention = false;
    let read = Repaired::read_as(found);
    for c in extract::candidates(t) {
        // A call the text gives as an example, or quotes as code inside a sentence, is a
        // mention: content, with a warning, and never a call.
        if mentioned(t, c.range.start) {
            if !warned_mention && read(c.text).is_ok_and(|(v, _)| looks_like_calls(&v)) {
                warned_mention = true;
                found.warnings.push(Warning::new(
                    WarningKind::ItemDropped,
                    "/tool_calls",
                    "a tool call the text gives as an example or quotes in a sentence is kept \
                     as content, not called",
                ));
            }
            continue;
        }
        // Written calls: an envelope that is JSON as it stands is read where it is.
        if found.calls.is_written() && json_text::envelope_as_it_stands(c.text, found).is_some() {
            return First::Envelope(c.range);
        }
        let Ok((value, repairs)) = read(c.text) else {
            continue;
        };
        // Cut off (a string left open included, though the repair ended it at a brace in
        // it), as in every family: no call.
        if cut_short(c.text, &repairs, End::Open) {
            if looks_like_calls(&value) && !warned {
                cut_off(found);
                warned = true;
            }
            continue;
        }
        let (base, at) = (found.calls.len(), found.warnings.len());
        let value = match envelope(value, found) {
            Ok(()) => {
                warn_fixes(found, &repairs, Shape::Envelope, base, at, None);
                return First::Envelope(c.range);
            }
            Err(value) => value,
        };
        let shape = Shape::of(&value);
        if value.into_calls(found) {
            warn_fixes(found, &repairs, shape, base, at, None);
            return First::Calls(c.range, at);
        }
    }
    First::Nothing
}

/// Whether a value starting at `start` of `t` is one the text mentions rather than makes:
/// the text before it, since any value before it, introduces an example or a wrong value
/// (``for example:``, see [`extract::introduced_aside`]), or it is code quoted inside a
/// sentence, a single backtick opening it after words on its line (``run `{"name": ...}`
/// yourself``) that no colon ends (``Calling it now: `{"name": ...}` `` is a call). Only the
/// text before the value decides, so that [`Stream`](super::Stream) knows it when the value
/// opens, as `parse` does; at most [`MENTION_LOOK`] bytes of it are read.
pub(crate) fn mentioned(t: &str, start: usize) -> bool {
    let Some(before) = t.get(..start) else {
        return false;
    };
    let mut cut = start.saturating_sub(MENTION_LOOK);
    while !before.is_char_boundary(cut) {
        cut += 1;
    }
    let before = &before[cut..];
    // (What an earlier value ends is not the clause that introduces this one.)
    let clause = &before[before.rfind(['}', ']']).map_or(0, |i| i + 1)..];
    if extract::introduced_aside(clause) {
        return true;
    }
    let Some(quoted) = before.strip_suffix('`').filter(|b| !b.ends_with('`')) else {
        return false;
    };
    let line = &quoted[quoted.rfind('\n').map_or(0, |i| i + 1)..];
    line.bytes().any(|c| c.is_ascii_alphabetic()) && !line.trim_end().ends_with(':')
}

/// How much of the text before a value [`mentioned`] reads: more than the clause
/// [`extract::introduced_aside`] looks at.
const MENTION_LOOK: usize = 512;

/// Says that calls were cut off, and kept as content.
fn cut_off(found: &mut Found) {
    found.warnings.push(Warning::new(
        WarningKind::ItemDropped,
        "/tool_calls",
        "tool calls were cut off; the text is kept as content",
    ));
}

/// Says so where `text`, a JSON value that never closes, is calls cut off.
pub(crate) fn warn_if_cut_off_calls(text: &str, found: &mut Found) {
    let cut = Repaired::read(text, found).is_ok_and(|(value, repairs)| {
        repairs.iter().any(|r| r.kind == RepairKind::Truncated) && looks_like_calls(&value)
    });
    if cut {
        cut_off(found);
    }
}

/// The calls a JSON value following other calls holds: a call, or an array of nothing but
/// calls; each with what reading its arguments changed.
pub(crate) fn following_value_calls(v: Value) -> Option<Vec<(ToolCall, ArgNotes)>> {
    match v {
        Value::Array(items) if !items.is_empty() => items.into_iter().map(call_from_json).collect(),
        Value::Array(_) => None,
        v => call_from_json(v).map(|c| vec![c]),
    }
}

/// How many bytes of `rest` are separators between calls (`;`, commas, white space).
pub(crate) fn separators(rest: &str) -> usize {
    rest.bytes()
        .take_while(|c| c.is_ascii_whitespace() || matches!(c, b';' | b','))
        .count()
}

fn looks_like_calls(v: &Repaired) -> bool {
    match v {
        Repaired::Value(v) => looks_like_call_value(v),
        Repaired::Text(json) => json_text::looks_like_calls(json),
    }
}

fn looks_like_call_value(v: &Value) -> bool {
    let o = match v {
        Value::Object(o) => o,
        Value::Array(a) => return a.first().is_some_and(looks_like_call_value),
        _ => return false,
    };
    ["tool_calls", "toolCalls", "name", "function"]
        .iter()
        .any(|k| o.contains_key(*k))
}

/// The seed's envelope (either spelling), or OpenAI's message shape, read into `found`; else
/// `v` back.
fn envelope(v: Repaired, found: &mut Found) -> Result<(), Repaired> {
    match v {
        Repaired::Value(v) => envelope_value(v, found).map_err(Repaired::Value),
        Repaired::Text(json) => json_text::envelope(json, found).map_err(Repaired::Text),
    }
}

fn envelope_value(v: Value, found: &mut Found) -> Result<(), Value> {
    let Value::Object(mut o) = v else {
        return Err(v);
    };
    let calls_key = ["tool_calls", "toolCalls"]
        .into_iter()
        .find(|k| o.contains_key(*k));
    let flag = o
        .get("needs_more_work")
        .or_else(|| o.get("needsMoreWork"))
        .map(Value::as_bool);
    if calls_key.is_none() && !(o.contains_key("content") && flag.is_some()) {
        return Err(Value::Object(o));
    }
    if let Some(Value::Array(items)) = calls_key.and_then(|k| o.remove(k)) {
        for item in items {
            if let Some((call, notes)) = call_from_json(item) {
                found.push_call(call, notes);
            }
        }
    }
    found.needs_more_work = flag.flatten();
    // The envelope's own content, when it has some; else the text around it.
    if let Some(Value::String(s)) = o.get("content") {
        if !s.trim().is_empty() {
            found.content = Some(Some(s.trim().to_owned()));
        }
    }
    Ok(())
}

/// More JSON calls right after a value that ended at `end`, past `;`, commas and white space:
/// the calls added to `found`, and the offset where they end. `None` when what follows is
/// not a complete JSON call.
fn following_calls(t: &str, end: usize, found: &mut Found) -> Option<usize> {
    let rest = t.get(end..)?;
    let skip = separators(rest);
    let value = &rest[skip..];
    if !value.starts_with(['{', '[']) {
        return None;
    }
    let len = super::read::json_end(value)?;
    let (value, repairs) = Repaired::read(&value[..len], found).ok()?;
    if repairs.iter().any(|r| r.kind == RepairKind::Truncated) {
        return None;
    }
    let (shape, base, at) = (Shape::of(&value), found.calls.len(), found.warnings.len());
    if !value.into_calls(found) {
        return None;
    }
    warn_fixes(found, &repairs, shape, base, at, None);
    Some(end + skip + len)
}
