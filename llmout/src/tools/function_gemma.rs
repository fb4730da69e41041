//! Google FunctionGemma: `<start_function_call>call:name{key:<escape>value<escape>,…}<end_function_call>`,
//! arguments as keys and values with `<escape>` as the quote token (see [`kv`](super::kv)).

use super::family::{Family, Found, Head};
use super::gemma::{braced_call, braced_head};
use super::read::elements;

const OPEN: &str = "<start_function_call>";
const CLOSE: &str = "<end_function_call>";

pub(crate) struct FunctionGemma;

impl Family for FunctionGemma {
    fn markers(&self) -> &'static [&'static str] {
        &[OPEN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in elements(t, 0..t.len(), OPEN, CLOSE) {
            let inner = t.get(body).unwrap_or_default().trim();
            if braced_call(inner, "<escape>", found, "a FunctionGemma call").is_some() {
                found.taken.push(whole);
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CLOSE]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        braced_head(v, head)
    }
}
