//! Gemma: `<|tool_call>call:name{…}<tool_call|>`, arguments with `<|"|>` as the quote token.

use super::family::{Family, Found, Head, Named};
use super::read::{arguments, elements, lenient};
use super::stream::window;
use super::ToolCall;

pub(crate) struct Gemma;

impl Family for Gemma {
    fn markers(&self) -> &'static [&'static str] {
        &["<|tool_call>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in elements(t, 0..t.len(), "<|tool_call>", "<tool_call|>") {
            let inner = t.get(body).unwrap_or_default().trim();
            let inner = inner.strip_prefix("call:").unwrap_or(inner);
            let Some(brace) = inner.find('{') else {
                continue;
            };
            let name = inner[..brace].trim().to_owned();
            let args = inner[brace..].replace("<|\"|>", "\"");
            if let Some(v) = lenient(&args, found, "a Gemma call") {
                if !name.is_empty() {
                    found.calls.push(ToolCall {
                        id: None,
                        name,
                        arguments: arguments(Some(&v)),
                    });
                    found.taken.push(whole);
                }
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &["<tool_call|>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let trimmed = window(v, head).trim_start();
        if "call:".starts_with(trimmed) {
            return Head::Wait;
        }
        let name_part = trimmed.strip_prefix("call:").unwrap_or(trimmed);
        match name_part.find('{') {
            Some(brace) => Head::Whole(Some(Named::new(name_part[..brace].trim(), None))),
            None => Head::Wait,
        }
    }
}
