//! Replies with no family's marker: a JSON envelope (`{"content", "tool_calls"/"toolCalls",
//! "needs_more_work"/"needsMoreWork"}`), a single `{"name", "arguments"}` call, an OpenAI-shaped
//! object, or an array of calls, whole, fenced or in prose; or a reply that is nothing but
//! pythonic calls. Anything else is content.

use serde_json::Value;

use super::family::Found;
use super::pythonic::pythonic_reply;
use super::read::{call_from_json, calls_from_json};
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
/// in prose. The first candidate span that is one wins.
fn json_values(t: &str, found: &mut Found) {
    for c in extract::candidates(t) {
        let Ok(p) = repair::parse(c.text, &RepairOptions::default()) else {
            continue;
        };
        if p.repairs.iter().any(|r| r.kind == RepairKind::Truncated) {
            if looks_like_calls(&p.value) {
                found.warnings.push(Warning::new(
                    WarningKind::ItemDropped,
                    "/tool_calls",
                    "tool calls were cut off; the text is kept as content",
                ));
                return;
            }
            continue;
        }
        if envelope(&p.value, found) || calls_from_json(&p.value, found) {
            if found.content.is_none() {
                found.taken.push(c.range.clone());
            }
            return;
        }
    }
}

fn looks_like_calls(v: &Value) -> bool {
    let o = match v {
        Value::Object(o) => o,
        Value::Array(a) => return a.first().is_some_and(looks_like_calls),
        _ => return false,
    };
    ["tool_calls", "toolCalls", "name", "function"]
        .iter()
        .any(|k| o.contains_key(*k))
}

/// The seed's envelope (either spelling), or OpenAI's message shape.
fn envelope(v: &Value, found: &mut Found) -> bool {
    let Some(o) = v.as_object() else { return false };
    let calls = o.get("tool_calls").or_else(|| o.get("toolCalls"));
    let flag = o.get("needs_more_work").or_else(|| o.get("needsMoreWork"));
    let content = o.get("content");
    if calls.is_none() && !(content.is_some() && flag.is_some()) {
        return false;
    }
    if let Some(Value::Array(items)) = calls {
        for item in items {
            if let Some(c) = call_from_json(item) {
                found.calls.push(c);
            }
        }
    }
    found.needs_more_work = flag.and_then(Value::as_bool);
    // The envelope's own content, when it has some; else the text around it.
    if let Some(Value::String(s)) = content {
        if !s.trim().is_empty() {
            found.content = Some(Some(s.trim().to_owned()));
        }
    }
    true
}
