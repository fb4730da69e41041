//! Hermes / Qwen `<tool_call>…</tool_call>` (closer optional): a JSON call, or a JSON array
//! of calls (xLAM, Granite 4); or pythonic calls; or GLM's `name<arg_key>…` and a name alone
//! (see [`glm`]); or Qwen3-Coder's `<function=…>` (see
//! [`qwen_coder`]).

use std::ops::Range;

use super::family::{Family, Found, Head, Named};
use super::pythonic::{read_element, starts_pythonic};
use super::read::{closed_by, json_elements, take_calls, value_calls};
use super::stream::window;
use super::MAX_HEAD;
use super::{glm, qwen_coder};

pub(crate) struct Hermes;

impl Family for Hermes {
    fn markers(&self) -> &'static [&'static str] {
        &["<tool_call>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        read_within(t, 0..t.len(), found);
    }

    /// `<tool_call>` opens a call where one can follow it: JSON (or pythonic calls),
    /// Qwen3-Coder's `<function=`, or GLM's name and then its keys or the closer. In prose
    /// (`wrap it in <tool_call> tags`) it is text, and the reply is read past it.
    fn opens(&self, t: &str, after: usize, complete: bool) -> Option<bool> {
        let text = window(t, after);
        let trimmed = text.trim_start();
        if trimmed.starts_with(['{', '['])
            || trimmed.starts_with("<function=")
            || text.contains("<arg_key>")
            || text.contains("</tool_call>")
        {
            return Some(true);
        }
        // What more text may still make a call.
        let waiting = !complete && text.len() <= MAX_HEAD;
        let name = trimmed
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
            .count();
        let rest = trimmed[name..].trim_start();
        let may_open = rest.is_empty()
            || if name == 0 {
                "<function=".starts_with(rest)
            } else {
                // HY v3's `name<tool_sep>` before its keys; or a marker cut by the end.
                rest.starts_with("<tool_sep>")
                    || ["<arg_key>", "</tool_call>", "<tool_sep>"]
                        .iter()
                        .any(|m| m.starts_with(rest))
            };
        (!(may_open && waiting)).then_some(false)
    }

    fn closers(&self) -> &'static [&'static str] {
        &["</tool_call>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        let Some(&c) = trimmed.as_bytes().first() else {
            return Head::Wait;
        };
        if c == b'[' {
            match starts_pythonic(trimmed) {
                None => return Head::Wait,
                Some(true) => return Head::Python(head + lead),
                Some(false) => {}
            }
        }
        if c == b'{' || c == b'[' {
            return Head::Body(head + lead);
        }
        if "<function=".starts_with(trimmed) && trimmed.len() < 10 {
            return Head::Wait;
        }
        if let Some(name_part) = trimmed.strip_prefix("<function=") {
            return match name_part.find('>') {
                Some(gt) => Head::Params(
                    Named::new(name_part[..gt].trim(), None),
                    &qwen_coder::QWEN,
                    head + lead + 10 + gt + 1,
                ),
                None => Head::Wait,
            };
        }
        glm::head(trimmed, head + lead)
    }
}

/// Every `<tool_call>` in `t[within]`.
pub(crate) fn read_within(t: &str, within: Range<usize>, found: &mut Found) {
    for (whole, body) in json_elements(t, within.clone(), "<tool_call>", "</tool_call>") {
        let inner = t.get(body.clone()).unwrap_or_default();
        let trimmed = inner.trim_start();
        if trimmed.starts_with('[') && starts_pythonic(trimmed) == Some(true) {
            read_element(t, whole, body.clone(), found);
        } else if trimmed.starts_with('{') || trimmed.starts_with('[') {
            // (A call whose closer was written is whole: a brace left open was forgotten.)
            let end = closed_by(&whole, &body);
            let len = value_calls(inner, found, "a <tool_call> call", end);
            take_calls(whole, body.start, len, inner, found);
        } else if trimmed.starts_with("<function=") {
            qwen_coder::functions(t, body, found);
            found.taken.push(whole);
        } else if let Some(k) = inner.find("<arg_key>") {
            glm::read_call(t, (whole, body), k, within.end, found);
        } else if whole.end > body.end {
            // A name alone, its closer written: a call with no arguments.
            glm::read_bare(t, whole, body, found);
        }
    }
}
