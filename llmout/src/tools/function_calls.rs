//! `<function_calls>…</function_calls>` (also `antml:`-prefixed): a JSON array of calls,
//! Anthropic `<invoke>` elements (see [`invoke`](super::invoke)), or pythonic calls one per
//! line (OLMo 3, whose values may be JSON's `true`/`false`/`null`).

use super::family::{Family, Found, Head};
use super::invoke::{
    invoke_head, invokes, CLOSERS, NS_FUNCTION_CALLS, NS_FUNCTION_CALLS_CLOSE, OPENERS,
};
use super::pythonic::{read_element, starts_pythonic};
use super::read::{closed_by, json_elements, take_calls, value_calls};

pub(crate) struct FunctionCalls;

impl Family for FunctionCalls {
    fn markers(&self) -> &'static [&'static str] {
        &["<function_calls>", NS_FUNCTION_CALLS]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (open, close) in [
            ("<function_calls>", "</function_calls>"),
            (NS_FUNCTION_CALLS, NS_FUNCTION_CALLS_CLOSE),
        ] {
            for (whole, body) in json_elements(t, 0..t.len(), open, close) {
                let inner = t.get(body.clone()).unwrap_or_default();
                if inner.contains("invoke name=") {
                    let first = found.taken.len();
                    invokes(t, body.clone(), found);
                    // Whole when its closer came; else up to its last call (what follows may
                    // be a call cut off, which stays content).
                    match found.taken[first..].iter().map(|r| r.end).max() {
                        Some(_) if whole.end > body.end => found.taken.push(whole),
                        Some(end) => found.taken.push(whole.start..end),
                        None => {}
                    }
                } else if starts_pythonic(inner) == Some(true) {
                    read_element(t, whole, body.clone(), found);
                } else {
                    let len = value_calls(
                        inner,
                        found,
                        "a <function_calls> block",
                        closed_by(&whole, &body),
                    );
                    take_calls(whole, body.start, len, inner, found);
                }
            }
        }
    }

    fn openers(&self) -> &'static [&'static str] {
        OPENERS
    }

    fn closers(&self) -> &'static [&'static str] {
        CLOSERS
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        invoke_head(v, start, head)
    }
}
