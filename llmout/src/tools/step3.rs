//! StepFun Step-3: `<｜tool_calls_begin｜>` around calls
//! `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f">…</steptml:invoke><｜tool_call_end｜>`,
//! parameters `<steptml:parameter name="p">v</steptml:parameter>`.

use super::params::{CallSyntax, ParamName, ParamStyle};
use super::xml_calls::XmlCalls;

const CALLS_BEGIN: &str = "<｜tool_calls_begin｜>";
const CALLS_END: &str = "<｜tool_calls_end｜>";
const CALL_BEGIN: &str = "<｜tool_call_begin｜>";
const CALL_END: &str = "<｜tool_call_end｜>";
const INVOKE: &str = "<steptml:invoke name=";
const INVOKE_END: &str = "</steptml:invoke>";

static PARAMS: ParamStyle = ParamStyle {
    opens: &["<steptml:parameter name="],
    name: ParamName::Quoted,
    closes: &["</steptml:parameter>"],
    call_closes: &[INVOKE_END],
    raw_attr: None,
};

pub(crate) static STEP3: XmlCalls = XmlCalls {
    markers: &[CALLS_BEGIN, CALL_BEGIN, INVOKE],
    wrappers: &[(CALLS_BEGIN, CALLS_END), (CALL_BEGIN, CALL_END)],
    call: CallSyntax {
        open: INVOKE,
        close: INVOKE_END,
        name: ParamName::Quoted,
        style: &PARAMS,
    },
    openers: &[CALLS_BEGIN, CALL_BEGIN, INVOKE],
    closers: &[INVOKE_END, CALL_END, CALLS_END],
    strip: &[],
};
