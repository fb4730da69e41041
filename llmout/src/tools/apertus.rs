//! Swiss AI Apertus: `<|tools_prefix|>[{"get_weather": {"city": "Bern"}}, …]<|tools_suffix|>`,
//! each call an object whose one key is the tool's name and whose value its arguments.

use serde_json::Value;

use super::family::{Family, Found, Head, Named};
use super::json_text::{keyed_calls_from_text, Repaired};
use super::read::{arguments, json_elements, lenient_with, ArgNotes, End};
use super::stream::window;
use super::ToolCall;

const OPEN: &str = "<|tools_prefix|>";
const CLOSE: &str = "<|tools_suffix|>";

pub(crate) struct Apertus;

impl Family for Apertus {
    fn markers(&self) -> &'static [&'static str] {
        &[OPEN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in json_elements(t, 0..t.len(), OPEN, CLOSE) {
            let inner = t.get(body).unwrap_or_default();
            let read = Repaired::read_as(found);
            let v = match lenient_with(inner, found, "an Apertus call list", (End::Open, ""), read)
            {
                Some(Repaired::Value(v)) => v,
                // Calls written as they come: from the JSON's text, no map made.
                Some(Repaired::Text(json)) => {
                    if keyed_calls_from_text(json, found) {
                        found.taken.push(whole);
                    }
                    continue;
                }
                None => continue,
            };
            let items = match v {
                Value::Array(items) => items,
                v => vec![v],
            };
            let calls: Option<Vec<_>> = items.into_iter().map(call).collect();
            if let Some(calls) = calls.filter(|c| !c.is_empty()) {
                found.push_calls(calls);
                found.taken.push(whole);
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CLOSE]
    }

    fn json_whole(&self) -> bool {
        true
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        // The first tool's name, once its key is written: `[{"name":`.
        let text = window(v, head);
        let rest = text.trim_start().strip_prefix('[').map(str::trim_start);
        let rest = rest.and_then(|r| r.strip_prefix('{')).map(str::trim_start);
        match rest.and_then(|r| r.strip_prefix('"')) {
            Some(key) => match key.find('"') {
                Some(end) => Head::Whole(Some(Named::new(&key[..end], None))),
                None => Head::Wait,
            },
            None if text.trim_start().len() < 3 => Head::Wait,
            None => Head::Whole(None),
        }
    }
}

/// `{"tool": {args}}` as a call, and what reading its arguments changed.
fn call(item: Value) -> Option<(ToolCall, ArgNotes)> {
    let Value::Object(o) = item else {
        return None;
    };
    if o.len() != 1 {
        return None;
    }
    let (name, args) = o.into_iter().next()?;
    if !matches!(args, Value::Object(_) | Value::String(_) | Value::Null) {
        return None;
    }
    let (arguments, notes) = arguments(Some(args));
    Some((
        ToolCall {
            id: None,
            name,
            arguments,
        },
        notes,
    ))
}
