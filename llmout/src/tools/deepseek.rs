//! DeepSeek V3 and V3.1: `<｜tool▁calls▁begin｜>` around calls
//! `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>`; V3 writes `function<｜tool▁sep｜>name` then a
//! fenced JSON, V3.1 `name<｜tool▁sep｜>{json}`.

use super::family::{Family, Found, Head, Named};
use super::read::{closed_by, elements, lenient_call};
use super::stream::window;

pub(crate) struct DeepSeek;

const CALLS_BEGIN: &str = "<｜tool▁calls▁begin｜>";
const CALLS_END: &str = "<｜tool▁calls▁end｜>";
const CALL_BEGIN: &str = "<｜tool▁call▁begin｜>";
const CALL_END: &str = "<｜tool▁call▁end｜>";
const SEP: &str = "<｜tool▁sep｜>";

impl Family for DeepSeek {
    fn markers(&self) -> &'static [&'static str] {
        &[CALLS_BEGIN, CALL_BEGIN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let before = found.calls.len();
        for (whole, body) in elements(t, 0..t.len(), CALL_BEGIN, CALL_END) {
            let end = closed_by(&whole, &body);
            let inner = t.get(body).unwrap_or_default();
            let Some(s) = inner.find(SEP) else { continue };
            let left = inner[..s].trim();
            let right = &inner[s + SEP.len()..];
            let (name, json_text) = if left == "function" {
                // V3: the name up to the line end, then a fenced JSON.
                // The fence's closer may be cut off (the JSON is read as in the stream); a
                // fence being opened holds no JSON yet.
                let (name, rest) = right.split_once('\n').unwrap_or((right, ""));
                let rest = rest.trim();
                let json_text = match rest
                    .strip_prefix("```json")
                    .or_else(|| rest.strip_prefix("```"))
                {
                    Some(body) => body.trim_end().trim_end_matches('`'),
                    None if rest.starts_with('`') => "",
                    None => rest,
                };
                (name.trim(), json_text)
            } else {
                (left, right)
            };
            if json_text.trim().is_empty() {
                // V3's arguments are always written (`{}` at the least): none is a cut.
                found.drop_call(whole, "a DeepSeek call was cut off before its arguments");
                continue;
            }
            if lenient_call(
                json_text,
                found,
                "a DeepSeek call",
                end,
                Named::new(name, None),
            ) {
                found.taken.push(whole);
            }
        }
        // The section's markers go with the calls it holds; where none was read, the reply
        // is content as written, markers and all.
        if found.calls.len() == before {
            return;
        }
        for marker in [CALLS_BEGIN, CALLS_END] {
            let mut at = 0;
            while let Some(i) = t.get(at..).and_then(|s| s.find(marker)) {
                found.taken.push(at + i..at + i + marker.len());
                at += i + marker.len();
            }
        }
    }

    fn openers(&self) -> &'static [&'static str] {
        &[CALL_BEGIN]
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CALL_END]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let Some(s) = text.find(SEP) else {
            return Head::Wait;
        };
        let left = text[..s].trim();
        let right = &text[s + SEP.len()..];
        let (name, brace) = if left == "function" {
            let Some(nl) = right.find('\n') else {
                return Head::Wait;
            };
            let Some(b) = right[nl..].find('{') else {
                return Head::Wait;
            };
            (right[..nl].trim(), nl + b)
        } else {
            // V3.1: the JSON right after the separator; anything else is no call to follow
            // (`parse` finds no JSON there either).
            let rest = right.trim_start();
            match rest.as_bytes().first() {
                None => return Head::Wait,
                Some(b'{') => (left, right.len() - rest.len()),
                Some(_) => return Head::Skip(head + s + SEP.len()),
            }
        };
        Head::Args(Named::new(name, None), head + s + SEP.len() + brace)
    }
}
