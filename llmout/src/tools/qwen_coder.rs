//! Qwen3-Coder: `<function=name><parameter=p>value</parameter></function>`, alone or inside
//! `<tool_call>`. A parameter's closer may be left out, and a call's when the next call or its
//! `</tool_call>` ends it; a call that runs to the end of the reply with no closer was cut off
//! and is not a call. One text value per parameter. A JSON object in place of the
//! parameters is the arguments written whole, as Llama 3.1 writes a custom tool's call
//! (`<function=get_weather>{"city": "Paris"}</function>`).

use std::ops::Range;

use super::args::Args;
use super::family::{Family, Found, Head, Named};
use super::params::{ParamName, ParamStyle};
use super::read::{elements, json_params};
use super::stream::window;

/// `<parameter=p>v</parameter>`, ended by `</function>` (or `</tool_call>`, or nothing).
pub(crate) static QWEN: ParamStyle = ParamStyle {
    opens: &["<parameter="],
    name: ParamName::UntilGt,
    closes: &["</parameter>"],
    call_closes: &["</function>", "</tool_call>"],
    raw_attr: None,
};

pub(crate) struct QwenCoder;

impl Family for QwenCoder {
    fn markers(&self) -> &'static [&'static str] {
        &["<function="]
    }

    fn read(&self, t: &str, found: &mut Found) {
        functions(t, 0..t.len(), found);
    }

    fn closers(&self) -> &'static [&'static str] {
        &["</function>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let Some(gt) = text.find('>') else {
            return Head::Wait;
        };
        let named = Named::new(text[..gt].trim(), None);
        let rest = &text[gt + 1..];
        let body = rest.trim_start();
        match body.as_bytes().first() {
            None => Head::Wait,
            // A JSON object in place of the parameters (see `functions`).
            Some(b'{') => Head::Args(named, head + gt + 1 + rest.len() - body.len()),
            Some(_) => Head::Params(named, &QWEN, head + gt + 1),
        }
    }
}

/// Every `<function=…>` call in `t[within]`.
pub(crate) fn functions(t: &str, within: Range<usize>, found: &mut Found) {
    for (whole, body) in elements(t, within, "<function=", "</function>") {
        // No closer (neither its own nor its `<tool_call>`'s) before the end of the reply: cut
        // off, its last parameter maybe half written. Not a call.
        if whole.end == body.end && body.end == t.len() {
            found.drop_call(whole, "a <function=…> call was cut off");
            continue;
        }
        let head = t.get(body.clone()).unwrap_or_default();
        let Some(gt) = head.find('>') else { continue };
        let name = head[..gt].trim().to_owned();
        let text = head[gt + 1..].trim_start();
        if json_params(text, &whole, &body, &name, found) {
            continue;
        }
        let mut args = Args::new(&found.calls);
        for (_, pbody) in elements(
            t,
            body.start + gt + 1..body.end,
            "<parameter=",
            "</parameter>",
        ) {
            let ptext = t.get(pbody).unwrap_or_default();
            let Some(pgt) = ptext.find('>') else { continue };
            args.insert(ptext[..pgt].trim().to_owned(), &ptext[pgt + 1..]);
        }
        args.push(&mut found.calls, Named::new(name, None));
        found.taken.push(whole);
    }
}
