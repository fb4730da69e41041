//! Mistral `[TOOL_CALLS]`: a JSON array of calls (older models; or one call), or
//! `name{json}`, `name[ARGS]{json}`, `name[CALL_ID]id[ARGS]{json}` (newer), one marker per
//! call. A marker followed by anything else (prose that names it) opens no call.

use super::family::{Family, Found, Head, Named};
use super::read::{json_end, lenient, lenient_call, value_calls, End};
use super::stream::window;
use super::MAX_HEAD;

pub(crate) struct Mistral;

const M: &str = "[TOOL_CALLS]";

impl Family for Mistral {
    fn markers(&self) -> &'static [&'static str] {
        &[M]
    }

    fn opens(&self, t: &str, after: usize, complete: bool) -> Option<bool> {
        opens_call(window(t, after), complete)
    }

    fn read(&self, t: &str, found: &mut Found) {
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(M)) {
            let start = at + i;
            let mut pos = start + M.len();
            if opens_call(window(t, pos), true) != Some(true) {
                // Prose after the marker (`[TOOL_CALLS] is how I call tools`): no call here.
                at = pos;
                continue;
            }
            let rest = t.get(pos..).unwrap_or_default();
            let skipped = rest.len() - rest.trim_start().len();
            pos += skipped;
            let rest = rest.trim_start();
            if rest.starts_with('[') || rest.starts_with('{') {
                // Older generations: a JSON array of calls (or one call).
                let end = json_end(rest).unwrap_or(rest.len());
                if let Some(len) =
                    value_calls(&rest[..end], found, "a [TOOL_CALLS] call", End::Open)
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
        if c == b'{'
            || c == b'[' && !trimmed.starts_with("[CALL_ID]") && !trimmed.starts_with("[ARGS]")
        {
            return Head::Body(head + lead);
        }
        match opens_call(text, false) {
            None if text.len() <= MAX_HEAD => return Head::Wait,
            Some(true) => {}
            // As `read` passes it by.
            _ => return Head::Skip(head),
        }
        let Some(brace) = text.find('{') else {
            return Head::Wait;
        };
        let (name, id) = mistral_head(&text[..brace]);
        Head::Args(Named::new(name, id), head + brace)
    }
}

/// Whether `text`, what follows a `[TOOL_CALLS]`, opens a call: a JSON array or object, or
/// a name (letters, digits, `_`, `-`, `.`) and then `{`, `[ARGS]` or `[CALL_ID]`. Anything
/// else (prose, a word and then a list) is no call: the marker is text, and the reply is
/// read past it. `None` while the text ends before that can be told (never when
/// `complete`).
fn opens_call(text: &str, complete: bool) -> Option<bool> {
    // More text may still decide it.
    let waiting = !complete && text.len() <= MAX_HEAD;
    let t = text.trim_start();
    let Some(&c) = t.as_bytes().first() else {
        return (!waiting).then_some(false);
    };
    if c == b'[' || c == b'{' {
        return Some(true);
    }
    let name = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        .count();
    if name == 0 {
        return Some(false);
    }
    let after = t[name..].trim_start();
    for m in ["{", "[ARGS]", "[CALL_ID]"] {
        if after.starts_with(m) {
            return Some(true);
        }
        if m.starts_with(after) && waiting {
            return None;
        }
    }
    Some(false)
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
