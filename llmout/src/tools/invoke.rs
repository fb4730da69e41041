//! Anthropic: `<invoke name="…"><parameter name="…">…</parameter></invoke>`, with or without
//! the `<function_calls>` wrapper (see [`function_calls`](super::function_calls)), with or
//! without the `antml:` namespace prefix. One text value per parameter.

use std::ops::Range;

use super::args::Args;
use super::family::{Family, Found, Head, Named};
use super::params::{ParamName, ParamStyle};
use super::pythonic::starts_pythonic;
use super::read::{elements, quoted_attr};
use super::stream::window;

pub(crate) const NS_FUNCTION_CALLS: &str = concat!("<", "antml", ":function_calls>");
pub(crate) const NS_FUNCTION_CALLS_CLOSE: &str = concat!("</", "antml", ":function_calls>");
pub(crate) const NS_INVOKE: &str = concat!("<", "antml", ":invoke name=");
pub(crate) const NS_INVOKE_CLOSE: &str = concat!("</", "antml", ":invoke>");
pub(crate) const NS_PARAM: &str = concat!("<", "antml", ":parameter name=");
pub(crate) const NS_PARAM_CLOSE: &str = concat!("</", "antml", ":parameter>");

/// `<parameter name="p">v</parameter>`, ended by `</invoke>`.
pub(crate) static ANTHROPIC: ParamStyle = ParamStyle {
    opens: &["<parameter name=", NS_PARAM],
    name: ParamName::Quoted,
    closes: &["</parameter>", NS_PARAM_CLOSE],
    call_closes: &["</invoke>", NS_INVOKE_CLOSE],
    raw_attr: None,
};

/// The openers of `<invoke>` calls and of their wrapper.
pub(crate) const OPENERS: &[&str] = &[
    "<function_calls>",
    NS_FUNCTION_CALLS,
    "<invoke name=",
    NS_INVOKE,
];

/// What closes an `<invoke>` call or its wrapper.
pub(crate) const CLOSERS: &[&str] = &[
    "</invoke>",
    NS_INVOKE_CLOSE,
    "</function_calls>",
    NS_FUNCTION_CALLS_CLOSE,
];

pub(crate) struct Invoke;

impl Family for Invoke {
    fn markers(&self) -> &'static [&'static str] {
        &["<invoke name=", NS_INVOKE]
    }

    fn read(&self, t: &str, found: &mut Found) {
        invokes(t, 0..t.len(), found);
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

/// The head of an `<invoke>` (its quoted name), or of a `<function_calls>` wrapper (a JSON
/// array of calls, or `<invoke>` elements to look for).
pub(crate) fn invoke_head(v: &str, start: usize, head: usize) -> Head {
    let text = window(v, head);
    if v[start..head].ends_with("function_calls>") {
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        return match (trimmed.as_bytes().first(), starts_pythonic(trimmed)) {
            (None, _) | (_, None) => Head::Wait,
            (_, Some(true)) => Head::Python(head + lead),
            (Some(b'{' | b'['), _) => Head::Body(head + lead),
            (Some(_), _) => Head::Seek(head),
        };
    }
    match quoted_attr(text) {
        Some((name, after)) => Head::Params(Named::new(name, None), &ANTHROPIC, head + after),
        None => Head::Wait,
    }
}

/// Every `<invoke>` in `t[within]`, plain or namespaced.
pub(crate) fn invokes(t: &str, within: Range<usize>, found: &mut Found) {
    let plain = (
        "<invoke name=",
        "</invoke>",
        "<parameter name=",
        "</parameter>",
    );
    let prefixed = (NS_INVOKE, NS_INVOKE_CLOSE, NS_PARAM, NS_PARAM_CLOSE);
    for (open, close, param_open, param_close) in [plain, prefixed] {
        for (whole, body) in elements(t, within.clone(), open, close) {
            // An `<invoke>` whose closer never came, running to the end of the text, was cut
            // off: its last parameter may be half written, so it is not a call.
            if whole.end == body.end && body.end == t.len() {
                found.drop_call(whole, "an <invoke> was cut off");
                continue;
            }
            // `"name">` then the parameters.
            let head = t.get(body.clone()).unwrap_or_default();
            let Some((name, after)) = quoted_attr(head) else {
                continue;
            };
            let params_start = body.start + after;
            let mut args = Args::new(&found.calls);
            for (_, pbody) in elements(t, params_start..body.end, param_open, param_close) {
                let ptext = t.get(pbody).unwrap_or_default();
                if let Some((pname, pafter)) = quoted_attr(ptext) {
                    args.insert(pname, ptext.get(pafter..).unwrap_or_default());
                }
            }
            args.push(&mut found.calls, Named::new(name, None));
            found.taken.push(whole);
        }
    }
}
