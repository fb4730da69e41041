//! JSON holding the calls themselves (a call, an array of calls, an envelope), followed as it
//! arrives: which calls are complete, and the one being written.

use serde_json::{Map, Value};

use super::CallInProgress;
use crate::stream::Partial;
use crate::tools::read::{call_from_json, ARGUMENT_KEYS, NAME_KEYS};
use crate::tools::ToolCall;

/// The calls of a JSON body (a call, an array of calls, or an envelope) that are complete,
/// from the `done`-th on, appended to `calls`.
pub(super) fn body_calls(p: &Partial, done: &mut usize, calls: &mut Vec<ToolCall>) {
    let Some(root) = p.value() else { return };
    match calls_base(root) {
        None => {
            // One call: complete when the whole value is.
            if p.is_complete() && *done == 0 {
                // (The live view's calls: what reading them changed is said by `finish`.)
                if let Some((c, _)) = call_from_json(root.clone()) {
                    calls.push(c);
                }
                *done = 1;
            }
        }
        Some(base) => {
            let Some(Value::Array(items)) = p.get(base) else {
                return;
            };
            let (finished, _) = progress(p, base, items.len());
            for item in items.iter().take(finished).skip(*done) {
                if let Some((c, _)) = call_from_json(item.clone()) {
                    calls.push(c);
                }
            }
            *done = (*done).max(finished);
        }
    }
}

/// Where the calls of a JSON body are: `None` when the body is one call, else the pointer of
/// its array of calls.
fn calls_base(root: &Value) -> Option<&'static str> {
    match root {
        Value::Array(_) => Some(""),
        Value::Object(o) if o.contains_key("tool_calls") => Some("/tool_calls"),
        Value::Object(o) if o.contains_key("toolCalls") => Some("/toolCalls"),
        _ => None,
    }
}

/// Of the `len` items of the array at `base`: how many are complete, and which one is being
/// written.
fn progress(p: &Partial, base: &str, len: usize) -> (usize, Option<usize>) {
    if p.is_complete() {
        return (len, None);
    }
    let segs: Vec<&str> = if base.is_empty() {
        Vec::new()
    } else {
        base[1..].split('/').collect()
    };
    let open = p.open_path();
    if open.len() < segs.len() || open.iter().zip(&segs).any(|(a, b)| a != b) {
        // The array is closed.
        return (len, None);
    }
    let writing = match open.get(segs.len()) {
        Some(i) => i.parse().ok(),
        None => p.leaf().and_then(|l| l.parse().ok()),
    };
    match writing {
        Some(i) => (i, Some(i)),
        None => (len, None),
    }
}

/// The call being written in a JSON body whose first `done` calls are complete.
pub(super) fn body_current(p: &Partial, done: usize) -> Option<CallInProgress<'_>> {
    let root = p.value()?;
    let (item, pointer) = match calls_base(root) {
        None if done == 0 && !p.is_complete() => (root, String::new()),
        None => return None,
        Some(base) => {
            let Some(Value::Array(items)) = p.get(base) else {
                return None;
            };
            let i = progress(p, base, items.len()).1?;
            (items.get(i)?, format!("{base}/{i}"))
        }
    };
    let call = item.as_object()?;
    let depth = pointer.matches('/').count();
    let writing = |object, key, extra| written(p, depth, object, key, extra);
    let (name, args) = match call.get("function") {
        Some(Value::Object(f)) => (
            writing(f, "name", "function"),
            Some(format!("{pointer}/function/arguments")),
        ),
        _ => {
            let args = ARGUMENT_KEYS
                .iter()
                .find(|k| call.contains_key(**k))
                .map(|k| format!("{pointer}/{k}"));
            let name = NAME_KEYS
                .iter()
                .find(|k| call.contains_key(**k))
                .and_then(|k| writing(call, k, ""));
            (name, args)
        }
    };
    Some(CallInProgress {
        id: writing(call, "id", "").or_else(|| writing(call, "tool_call_id", "")),
        name,
        partial: Some(p),
        base: args,
    })
}

/// The call being written in JSON whose calls join only once it is complete (calls after
/// the first ones): one call, or the first of an array. A later item is not shown, since
/// the calls written before it in the array are not calls yet.
pub(super) fn value_current(p: &Partial) -> Option<CallInProgress<'_>> {
    match calls_base(p.value()?) {
        None => body_current(p, 0),
        Some("") if writing_first(p) => body_current(p, 0),
        Some(_) => None,
    }
}

/// Whether the array `p` is being written is at its first item.
fn writing_first(p: &Partial) -> bool {
    let len = p.value().and_then(Value::as_array).map_or(0, Vec::len);
    progress(p, "", len).1 == Some(0)
}

/// `object[key]` (an object `depth` levels down, or its member `inner`) as text, once written
/// in full: not while it is the string being written.
fn written<'a>(
    p: &Partial,
    depth: usize,
    object: &'a Map<String, Value>,
    key: &str,
    inner: &str,
) -> Option<&'a str> {
    let open = p.open_path();
    let here = open.len() == depth + usize::from(!inner.is_empty())
        && (inner.is_empty() || open.last().map(String::as_str) == Some(inner));
    object
        .get(key)
        .and_then(Value::as_str)
        .filter(|_| !(here && p.leaf() == Some(key)))
}
