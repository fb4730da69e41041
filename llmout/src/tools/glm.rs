//! GLM-4.5 and later, inside `<tool_call>` (see [`hermes`](super::hermes)): the tool's name,
//! then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs. One text value per argument.

use std::ops::Range;

use serde_json::Map;

use super::family::{Found, Head, Named};
use super::params::{ParamName, ParamStyle};
use super::read::{elements, param_value};
use super::ToolCall;

/// `<arg_key>p</arg_key><arg_value>v</arg_value>`, ended by `</tool_call>`.
pub(crate) static GLM: ParamStyle = ParamStyle {
    opens: &["<arg_key>"],
    name: ParamName::Key {
        key_close: "</arg_key>",
        value_open: "<arg_value>",
    },
    closes: &["</arg_value>"],
    call_closes: &["</tool_call>"],
    raw_attr: None,
};

/// A GLM call's body (`t[body]`, the text inside `<tool_call>`, whose first `<arg_key>` is at
/// `k` in it); `whole` is the element's range. False when it is no call.
pub(crate) fn read_call(
    t: &str,
    whole: Range<usize>,
    body: Range<usize>,
    k: usize,
    found: &mut Found,
) -> bool {
    let inner = t.get(body.clone()).unwrap_or_default();
    let name = inner[..k].trim().to_owned();
    let mut args = Map::new();
    let keys = elements(t, body.clone(), "<arg_key>", "</arg_key>");
    let values = elements(t, body, "<arg_value>", "</arg_value>");
    for ((_, kb), (_, vb)) in keys.into_iter().zip(values) {
        let key = t.get(kb).unwrap_or_default().trim().to_owned();
        args.insert(key, param_value(t.get(vb).unwrap_or_default()));
    }
    if name.is_empty() {
        return false;
    }
    found.calls.push(ToolCall {
        id: None,
        name,
        arguments: args,
    });
    found.taken.push(whole);
    true
}

/// The streaming head of a GLM call: the name, then parameters from the first `<arg_key>`
/// (`text` starts at `at` in the visible text).
pub(crate) fn head(text: &str, at: usize) -> Head {
    match text.find("<arg_key>") {
        Some(k) => Head::Params(Named::new(text[..k].trim(), None), &GLM, at + k),
        None => Head::Wait,
    }
}
