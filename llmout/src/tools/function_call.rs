//! `<function_call>` (IBM granite-20b-functioncalling: `<function_call> {json}` before each
//! call, no closer) and the `<function-call>…</function-call>` wrapper other models invent: a
//! JSON call, or a tool's name alone (`<function-call>get_time</function-call>`, a call with
//! no arguments, only when its closer is written).

use super::family::{Family, Found, Head};
use super::glm::bare_name;
use super::longcat::json_head;
use super::read::{json_block, json_elements};
use super::ToolCall;
use serde_json::Map;

const FORMS: [(&str, &str); 2] = [
    ("<function_call>", "</function_call>"),
    ("<function-call>", "</function-call>"),
];

pub(crate) struct FunctionCall;

impl Family for FunctionCall {
    fn markers(&self) -> &'static [&'static str] {
        &["<function_call>", "<function-call>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (open, close) in FORMS {
            for (whole, body) in json_elements(t, 0..t.len(), open, close) {
                let inner = t.get(body.clone()).unwrap_or_default();
                if inner.trim_start().starts_with(['{', '[']) {
                    json_block(t, whole, body, found);
                } else if let Some(name) = bare_name(inner).filter(|_| whole.end > body.end) {
                    found.calls.push(ToolCall {
                        id: None,
                        name: name.to_owned(),
                        arguments: Map::new(),
                    });
                    found.taken.push(whole);
                }
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &["</function_call>", "</function-call>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        match json_head(v, head) {
            Head::Stall(..) => Head::Whole(None),
            other => other,
        }
    }
}
