//! Calls whose arguments are written one parameter at a time, as text between markers
//! (`<parameter name="p">v</parameter>`, `<parameter=p>v</parameter>`,
//! `<arg_key>p</arg_key><arg_value>v</arg_value>`, …). A [`ParamStyle`] says how a family
//! writes them; [`read_params`] reads a whole call's parameters exactly as the streaming
//! reader completes them one at a time, and [`read_calls`] reads every call of a
//! [`CallSyntax`] (`<invoke name="f">…</invoke>` and its kin).

use std::ops::Range;

use serde_json::Value;

use super::args::Args;
use super::family::{Found, Named};
use super::read::{elements, json_params, param_body, param_value};
use super::stream::{find_any, window};

/// How a parameter's (or a call's) name is written after its opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamName {
    /// `"p">` or `'p'>` (attributes after the name are allowed).
    Quoted,
    /// `p>`.
    UntilGt,
    /// `p` then `key_close`, then `value_open` and the value.
    Key {
        key_close: &'static str,
        value_open: &'static str,
    },
}

/// How a family writes its parameters.
#[derive(Debug)]
pub(crate) struct ParamStyle {
    /// What opens a parameter.
    pub opens: &'static [&'static str],
    /// How its name is written.
    pub name: ParamName,
    /// What closes a parameter's value.
    pub closes: &'static [&'static str],
    /// What closes the call.
    pub call_closes: &'static [&'static str],
    /// An attribute saying the value is text, never JSON (DeepSeek's `string="true"`).
    pub raw_attr: Option<&'static str>,
}

/// What a parameter's head (the text after its opener) came to.
pub(crate) enum ParamHead {
    /// Not all written yet.
    Partial,
    /// The name, the offset of the value in the head, and whether the value is text only.
    Named(String, usize, bool),
}

impl ParamStyle {
    /// What ends a parameter's value: its closer, or (its closer left out) the next
    /// parameter or the call's closer, which are not part of it.
    pub fn value_ends(&self) -> Vec<&'static str> {
        let mut ends = self.closes.to_vec();
        ends.extend(self.opens);
        ends.extend(self.call_closes);
        ends
    }

    /// Where the value from `from` in `v` ends: the offset, and how long the marker there is
    /// when it is the value's own closer (0 for what begins the next parameter or ends the
    /// call, read next).
    pub fn value_end(&self, v: &str, from: usize, ends: &[&str]) -> Option<(usize, usize)> {
        let (at, len) = find_any(v, from, ends)?;
        let own = self.closes.contains(&&v[at..at + len]);
        Some((at, if own { len } else { 0 }))
    }

    /// Reads a parameter's name from `rest`, the text after its opener.
    pub fn head(&self, rest: &str) -> ParamHead {
        match name_at(self.name, rest) {
            Some((name, after, attrs)) => {
                let raw = self.raw_attr.is_some_and(|a| attrs.contains(a));
                ParamHead::Named(name, after, raw)
            }
            None => ParamHead::Partial,
        }
    }

    /// A parameter's value from its text (a `<![CDATA[…]]>` section is text).
    pub fn value(&self, text: &str, raw: bool) -> Value {
        match text_as_it_stands(text, raw) {
            Some(s) => Value::String(s.to_owned()),
            None => param_value(text),
        }
    }

    /// [`value`](ParamStyle::value) as the parameter `name` of `args`.
    fn insert(&self, args: &mut Args, name: String, text: &str, raw: bool) {
        match text_as_it_stands(text, raw) {
            Some(s) => args.insert_string(name, s),
            None => args.insert(name, text),
        }
    }
}

/// The string a parameter's value is when it is text as it stands: a `<![CDATA[…]]>`
/// section, or any text with `raw` (less the line breaks that lay it out, [`param_body`]). `None` otherwise: the
/// text is read as [`param_value`] reads it.
fn text_as_it_stands(text: &str, raw: bool) -> Option<&str> {
    let trimmed = text.trim();
    if let Some(cdata) = trimmed
        .strip_prefix("<![CDATA[")
        .and_then(|c| c.strip_suffix("]]>"))
    {
        return Some(cdata);
    }
    raw.then(|| param_body(text))
}

/// A name written the `form` way at the start of `rest`: the name, the offset after it (and
/// after its `>`), and the attributes written between them.
pub(crate) fn name_at(form: ParamName, rest: &str) -> Option<(String, usize, &str)> {
    match form {
        ParamName::Quoted => {
            let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let end = rest[1..].find(q)? + 1;
            let gt = rest[end..].find('>')? + end;
            Some((rest[1..end].to_owned(), gt + 1, &rest[end + 1..gt]))
        }
        ParamName::UntilGt => {
            let gt = rest.find('>')?;
            Some((rest[..gt].trim().to_owned(), gt + 1, ""))
        }
        ParamName::Key {
            key_close,
            value_open,
        } => {
            let k = rest.find(key_close)?;
            let val = rest[k..].find(value_open)?;
            Some((rest[..k].trim().to_owned(), k + val + value_open.len(), ""))
        }
    }
}

/// The parameters in `t[range]` put in `args`, read as the streaming reader reads them: each
/// parameter's value runs to its closer (or to the end of the range when it has none).
pub(crate) fn read_params(t: &str, range: Range<usize>, style: &ParamStyle, args: &mut Args) {
    let Some(within) = t.get(..range.end) else {
        return;
    };
    let mut pos = range.start;
    let ends = style.value_ends();
    while let Some((at, len)) = find_any(within, pos, style.opens) {
        let ParamHead::Named(name, after, raw) = style.head(window(within, at + len)) else {
            break;
        };
        let value_start = at + len + after;
        match style.value_end(within, value_start, &ends) {
            Some((close, close_len)) => {
                style.insert(args, name, &within[value_start..close], raw);
                pos = close + close_len;
            }
            None => {
                style.insert(args, name, &within[value_start..], raw);
                break;
            }
        }
    }
}

/// A call written as an element: `open` and its name, parameters in `style`, `close`.
pub(crate) struct CallSyntax {
    /// What opens a call, up to its name (`<invoke name=`).
    pub open: &'static str,
    /// What closes it.
    pub close: &'static str,
    /// How its name is written after `open`.
    pub name: ParamName,
    /// How its parameters are written.
    pub style: &'static ParamStyle,
}

/// Every call of `syntax` in `t[within]`. A call whose closer never came and that runs to the
/// end of `within` was cut off (its last parameter may be half written): it is no call, and
/// its text stays content, with a warning. Returns how many calls were read.
pub(crate) fn read_calls(
    t: &str,
    within: Range<usize>,
    syntax: &CallSyntax,
    found: &mut Found,
) -> usize {
    let before = found.calls.len();
    for (whole, body) in elements(t, within.clone(), syntax.open, syntax.close) {
        if whole.end == body.end && body.end == within.end {
            found.drop_call(whole, "a call was cut off");
            continue;
        }
        let Some((name, after, _)) = name_at(syntax.name, window(t, body.start)) else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        let params = body.start + after..body.end;
        // A JSON object in place of the parameters: the arguments written whole (as DeepSeek
        // V3.2 models sometimes write them), read as a named call's JSON is, and as the
        // stream reads them.
        let text = t.get(params.clone()).unwrap_or_default().trim_start();
        if json_params(text, &whole, &body, &name, found) {
            continue;
        }
        let mut args = Args::new(&found.calls);
        read_params(t, params, syntax.style, &mut args);
        args.push(&mut found.calls, Named::new(name, None));
        found.taken.push(whole);
    }
    found.calls.len() - before
}
