//! Meituan LongCat-Flash: `<longcat_tool_call>{json}</longcat_tool_call>`, one call per
//! element, elements one after another.

use super::family::{Family, Found, Head};
use super::read::tagged_json;
use super::stream::window;

const OPEN: &str = "<longcat_tool_call>";
const CLOSE: &str = "</longcat_tool_call>";

pub(crate) struct LongCat;

impl Family for LongCat {
    fn markers(&self) -> &'static [&'static str] {
        &[OPEN]
    }

    fn read(&self, t: &str, found: &mut Found) {
        tagged_json(t, OPEN, CLOSE, found);
    }

    fn closers(&self) -> &'static [&'static str] {
        &[CLOSE]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        json_head(v, head)
    }
}

/// The head of a call whose body is JSON: the body, or (anything else) read when it ends.
pub(crate) fn json_head(v: &str, head: usize) -> Head {
    let text = window(v, head);
    let trimmed = text.trim_start();
    match trimmed.as_bytes().first() {
        None => Head::Wait,
        Some(b'{' | b'[') => Head::Body(head + text.len() - trimmed.len()),
        Some(_) => Head::Stall(head, None),
    }
}
