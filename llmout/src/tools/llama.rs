//! Llama 3.1 to 3.3: `<|python_tag|>` then JSON calls with `parameters`, separated by `;`;
//! or pythonic calls (`<|python_tag|>[get_weather(city="Paris")]`, Llama 3.3's built-in
//! form). The turn markers after a call (`<|eom_id|>`, `<|eot_id|>`) are not content.

use super::family::{Family, Found, Head};
use super::pythonic::{leading_calls, starts_pythonic};
use super::read::{json_block, marker_blocks};
use super::stream::window;

const TAG: &str = "<|python_tag|>";

pub(crate) struct PythonTag;

impl Family for PythonTag {
    fn markers(&self) -> &'static [&'static str] {
        &[TAG]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in marker_blocks(t, TAG, None) {
            let text = t.get(body.clone()).unwrap_or_default();
            if starts_pythonic(text) == Some(true) {
                let (calls, end) = leading_calls(t, body);
                if !calls.is_empty() {
                    found.calls.extend(calls);
                    found.taken.push(whole.start..end);
                }
                continue;
            }
            json_block(t, whole, body, found);
        }
    }

    fn strip(&self) -> &'static [&'static str] {
        &[TAG, "<|eom_id|>", "<|eot_id|>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        match starts_pythonic(trimmed) {
            None => return Head::Wait,
            Some(true) => return Head::Python(head + lead),
            Some(false) => {}
        }
        match trimmed.as_bytes().first() {
            None => Head::Wait,
            Some(b'{' | b'[') => Head::Body(head + lead),
            Some(_) => Head::Stall(head, None),
        }
    }

    fn values_follow(&self) -> bool {
        true
    }
}
