//! Mistral `[TOOL_CALLS]`: a JSON array of calls (older models), or `name{json}`,
//! `name[ARGS]{json}`, `name[CALL_ID]id[ARGS]{json}` (newer), one marker per call.

use super::family::{Family, Found, Head, Named};
use super::read::{json_end, lenient, lenient_call, value_calls, End};
use super::stream::window;

pub(crate) struct Mistral;

const M: &str = "[TOOL_CALLS]";

impl Family for Mistral {
    fn markers(&self) -> &'static [&'static str] {
        &[M]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(M)) {
            let start = at + i;
            let mut pos = start + M.len();
            let rest = t.get(pos..).unwrap_or_default();
            let skipped = rest.len() - rest.trim_start().len();
            pos += skipped;
            let rest = rest.trim_start();
            if rest.starts_with('[') {
                // Older generations: a JSON array of calls.
                let end = json_end(rest).unwrap_or(rest.len());
                if let Some(len) =
                    value_calls(&rest[..end], found, "a [TOOL_CALLS] array", End::Open)
                {
                    found.taken.push(start..pos + len);
                }
                at = pos + end;
                continue;
            }
            // Newer: name, optional [CALL_ID]id, optional [ARGS], then a JSON object.
            let Some(brace) = rest.find('{') else {
                break;
            };
            let (name, id) = mistral_head(&rest[..brace]);
            let body = &rest[brace..];
            let end = json_end(body).unwrap_or(body.len());
            let stop = pos + brace + end;
            let read = if name.is_empty() {
                // No call, but its arguments are read all the same, for what they warn of.
                let _ = lenient(&body[..end], found, "a [TOOL_CALLS] call", End::Open);
                false
            } else {
                let named = Named::new(name, id);
                lenient_call(&body[..end], found, "a [TOOL_CALLS] call", End::Open, named)
            };
            if read {
                found.taken.push(start..stop);
            }
            at = stop;
        }
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        let Some(&c) = trimmed.as_bytes().first() else {
            return Head::Wait;
        };
        if c == b'[' && !trimmed.starts_with("[CALL_ID]") && !trimmed.starts_with("[ARGS]") {
            return Head::Body(head + lead);
        }
        let Some(brace) = text.find('{') else {
            return Head::Wait;
        };
        let (name, id) = mistral_head(&text[..brace]);
        Head::Args(Named::new(name, id), head + brace)
    }
}

/// A Mistral call's head, `name`, `name[ARGS]` or `name[CALL_ID]id[ARGS]`: the name and id.
fn mistral_head(head: &str) -> (String, Option<String>) {
    let (name_part, id) = match head.find("[CALL_ID]") {
        Some(c) => (
            &head[..c],
            Some(head[c + 9..].replace("[ARGS]", "").trim().to_owned()),
        ),
        None => (head, None),
    };
    (name_part.replace("[ARGS]", "").trim().to_owned(), id)
}
