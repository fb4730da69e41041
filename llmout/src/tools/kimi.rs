//! Kimi K2: `<|tool_calls_section_begin|>` around calls
//! `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{json}<|tool_call_end|>`
//! (the id names the tool; also written `functions_name_0`), or a JSON call between the call
//! markers.

use super::family::{Family, Found, Head, Named};
use super::read::{closed_by, elements, lenient_call, take_calls, value_calls};
use super::stream::window;

pub(crate) struct Kimi;

const SECTION_BEGIN: &str = "<|tool_calls_section_begin|>";
const SECTION_END: &str = "<|tool_calls_section_end|>";
const CALL_BEGIN: &str = "<|tool_call_begin|>";
const CALL_END: &str = "<|tool_call_end|>";
const ARG: &str = "<|tool_call_argument_begin|>";

impl Family for Kimi {
    fn markers(&self) -> &'static [&'static str] {
        &[SECTION_BEGIN, CALL_BEGIN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in elements(t, 0..t.len(), CALL_BEGIN, CALL_END) {
            let body_start = body.start;
            let end = closed_by(&whole, &body);
            let inner = t.get(body).unwrap_or_default();
            match inner.find(ARG) {
                Some(a) => {
                    let id = inner[..a].trim().to_owned();
                    let name = kimi_name(&id);
                    let named = Named::new(name, Some(id.clone()));
                    if lenient_call(&inner[a + ARG.len()..], found, "a Kimi call", end, named) {
                        found.taken.push(whole);
                    }
                }
                None => {
                    let len = value_calls(inner, found, "a call", end);
                    take_calls(whole, body_start, len, inner, found);
                }
            }
        }
    }

    fn strip(&self) -> &'static [&'static str] {
        &[SECTION_BEGIN, SECTION_END]
    }

    fn openers(&self) -> &'static [&'static str] {
        &[CALL_BEGIN]
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CALL_END]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        if trimmed.starts_with('{') {
            return Head::Body(head + text.len() - trimmed.len());
        }
        let Some(a) = text.find(ARG) else {
            return Head::Wait;
        };
        let Some(b) = text[a..].find('{') else {
            return Head::Wait;
        };
        let id = text[..a].trim();
        Head::Args(Named::new(kimi_name(id), Some(id.to_owned())), head + a + b)
    }
}

/// The tool name in a Kimi call id: `functions.name:0`, or `functions_name_0` as the model
/// also writes it (the index after the last `_` is dropped only in that form).
fn kimi_name(id: &str) -> String {
    if let Some(rest) = id.strip_prefix("functions_") {
        let name = match rest.rsplit_once('_') {
            Some((name, index))
                if !name.is_empty() && index.bytes().all(|c| c.is_ascii_digit()) =>
            {
                name
            }
            _ => rest,
        };
        return name.to_owned();
    }
    let rest = id.strip_prefix("functions.").unwrap_or(id);
    rest.rsplit_once(':').map_or(rest, |(n, _)| n).to_owned()
}
