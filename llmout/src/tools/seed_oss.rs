//! ByteDance Seed-OSS: `<seed:tool_call>` around Qwen3-Coder-style calls,
//! `<function=f><parameter=p>v</parameter></function>`; its reasoning is
//! `<seed:think>…</seed:think>`, and calls quoted there are not calls.

use super::params::{CallSyntax, ParamName, ParamStyle};
use super::xml_calls::XmlCalls;

static PARAMS: ParamStyle = ParamStyle {
    opens: &["<parameter="],
    name: ParamName::UntilGt,
    closes: &["</parameter>"],
    call_closes: &["</function>"],
    raw_attr: None,
};

pub(crate) static SEED_OSS: XmlCalls = XmlCalls {
    markers: &["<seed:tool_call>"],
    wrappers: &[("<seed:tool_call>", "</seed:tool_call>")],
    call: CallSyntax {
        open: "<function=",
        close: "</function>",
        name: ParamName::UntilGt,
        style: &PARAMS,
    },
    openers: &["<seed:tool_call>", "<function="],
    closers: &["</function>", "</seed:tool_call>"],
    strip: &[],
};
