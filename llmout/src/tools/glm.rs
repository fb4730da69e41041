//! GLM-4.5 and later, inside `<tool_call>` (see [`hermes`](super::hermes)): the tool's name,
//! then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, one text value per argument; a
//! call with no arguments is its name alone (`<tool_call>get_time</tool_call>`). Tencent's
//! HY v3 writes the same with `<tool_sep>` after the name, inside `<tool_calls>` (see
//! [`jamba`](super::jamba)).

use std::ops::Range;

use serde_json::Map;

use super::args::Args;
use super::family::{Found, Head, Named};
use super::params::{ParamName, ParamStyle};
use super::read::elements;
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
/// `k` in it); `whole` is the element's range. A call whose closer never came and that runs
/// to `end` (the end of what is read) was cut off: no call, its text stays content. False when
/// it is no call.
pub(crate) fn read_call(
    t: &str,
    (whole, body): (Range<usize>, Range<usize>),
    k: usize,
    end: usize,
    found: &mut Found,
) -> bool {
    if whole.end == body.end && body.end == end {
        found.drop_call(whole, "a call was cut off");
        return false;
    }
    let inner = t.get(body.clone()).unwrap_or_default();
    let name = tool_name(&inner[..k]).to_owned();
    if name.is_empty() {
        return false;
    }
    let mut args = Args::new(&found.calls);
    let keys = elements(t, body.clone(), "<arg_key>", "</arg_key>");
    let values = elements(t, body, "<arg_value>", "</arg_value>");
    for ((_, kb), (_, vb)) in keys.into_iter().zip(values) {
        let key = t.get(kb).unwrap_or_default().trim().to_owned();
        args.insert(key, t.get(vb).unwrap_or_default());
    }
    args.push(&mut found.calls, Named::new(name, None));
    found.taken.push(whole);
    true
}

/// A call with no arguments, `t[body]` being its name alone (then its closer, `whole`).
pub(crate) fn read_bare(
    t: &str,
    whole: Range<usize>,
    body: Range<usize>,
    found: &mut Found,
) -> bool {
    let Some(name) = bare_name(t.get(body).unwrap_or_default()) else {
        return false;
    };
    found.calls.push(ToolCall {
        id: None,
        name: name.to_owned(),
        arguments: Map::new(),
    });
    found.taken.push(whole);
    true
}

/// The name before the arguments, without HY v3's `<tool_sep>`.
fn tool_name(text: &str) -> &str {
    let name = text.trim();
    name.strip_suffix("<tool_sep>").unwrap_or(name).trim()
}

/// `text` when it is a tool's name and nothing else.
pub(crate) fn bare_name(text: &str) -> Option<&str> {
    let name = tool_name(text);
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':'));
    ok.then_some(name)
}

/// The streaming head of a GLM call (`text` starts at `at` in the visible text): the name,
/// then parameters from the first `<arg_key>`; or a name alone, then the closer.
pub(crate) fn head(text: &str, at: usize) -> Head {
    let key = text.find("<arg_key>");
    // The closer counts only before the first key.
    let close = text[..key.unwrap_or(text.len())].find("</tool_call>");
    match (key, close) {
        (_, Some(c)) => match bare_name(&text[..c]) {
            Some(name) => Head::Params(Named::new(name, None), &GLM, at + c),
            None => Head::Stall(at, None),
        },
        (Some(k), None) => Head::Params(Named::new(tool_name(&text[..k]), None), &GLM, at + k),
        (None, None) => Head::Wait,
    }
}
