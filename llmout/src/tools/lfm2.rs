//! Liquid LFM2: `<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`, pythonic
//! calls (or a JSON array of calls) between the markers.

use super::family::{Family, Found, Head};
use super::longcat::json_head;
use super::pythonic::{read_element, starts_pythonic};
use super::read::{closed_by, json_elements, take_calls, value_calls};
use super::stream::window;

const OPEN: &str = "<|tool_call_start|>";
const CLOSE: &str = "<|tool_call_end|>";

pub(crate) struct Lfm2;

impl Family for Lfm2 {
    fn markers(&self) -> &'static [&'static str] {
        &[OPEN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in json_elements(t, 0..t.len(), OPEN, CLOSE) {
            let inner = t.get(body.clone()).unwrap_or_default();
            if starts_pythonic(inner) == Some(true) {
                read_element(t, whole, body.clone(), found);
            } else {
                let len = value_calls(inner, found, "an LFM2 call", closed_by(&whole, &body));
                take_calls(whole, body.start, len, inner, found);
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CLOSE]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        match starts_pythonic(trimmed) {
            None => Head::Wait,
            Some(true) => Head::Python(head + text.len() - trimmed.len()),
            Some(false) => json_head(v, head),
        }
    }
}
