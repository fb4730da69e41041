//! `<tool_calls>…</tool_calls>`: AI21 Jamba, MiniMax-Text and Tencent Hunyuan A13B write a JSON
//! array of calls (or one JSON call per line) inside it, Hunyuan A13B inside `<answer>`;
//! Tencent HY v3 writes `<tool_call>name<tool_sep><arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`
//! elements inside it (see [`glm`](super::glm)).

use super::family::{Family, Found, Head};
use super::hermes::{self, Hermes};
use super::read::{after_marker_json, elements, take_wrappers};
use super::stream::window;

const OPEN: &str = "<tool_calls>";
const CLOSE: &str = "</tool_calls>";

pub(crate) struct Jamba;

impl Family for Jamba {
    fn markers(&self) -> &'static [&'static str] {
        &[OPEN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let blocks = elements(t, 0..t.len(), OPEN, CLOSE);
        let holds_elements = blocks.iter().any(|(_, body)| {
            t.get(body.clone())
                .is_some_and(|b| b.trim_start().starts_with("<tool_call>"))
        });
        if !holds_elements {
            after_marker_json(t, OPEN, Some(CLOSE), found);
            return;
        }
        let first = found.taken.len();
        for (_, body) in blocks {
            hermes::read_within(t, body, found);
        }
        take_wrappers(t, first, &[(OPEN, CLOSE)], found);
    }

    fn strip(&self) -> &'static [&'static str] {
        &["<answer>", "</answer>"]
    }

    fn openers(&self) -> &'static [&'static str] {
        &[OPEN, "<tool_call>"]
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CLOSE, "</tool_call>"]
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        if v[start..head] == *"<tool_call>" {
            return Hermes.head(v, start, head);
        }
        let text = window(v, head);
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        match trimmed.as_bytes().first() {
            None => Head::Wait,
            Some(b'{' | b'[') => Head::Body(head + lead),
            Some(b'<') if trimmed.starts_with("<tool_call>") => Head::Seek(head + lead),
            Some(b'<') if "<tool_call>".starts_with(trimmed) => Head::Wait,
            Some(_) => Head::Stall(head, None),
        }
    }

    fn values_follow(&self) -> bool {
        true
    }
}
