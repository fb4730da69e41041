//! DeepSeek V3.2 and V4 (DSML): `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>`
//! (V4) around `<｜DSML｜invoke name="f">` calls whose parameters are
//! `<｜DSML｜parameter name="p" string="true|false">v</｜DSML｜parameter>`: text when
//! `string="true"`, JSON otherwise. A JSON object written in place of the parameters is the
//! call's arguments.

use super::params::{CallSyntax, ParamName, ParamStyle};
use super::xml_calls::XmlCalls;

const FUNCTION_CALLS: &str = "<｜DSML｜function_calls>";
const FUNCTION_CALLS_END: &str = "</｜DSML｜function_calls>";
const TOOL_CALLS: &str = "<｜DSML｜tool_calls>";
const TOOL_CALLS_END: &str = "</｜DSML｜tool_calls>";
const INVOKE: &str = "<｜DSML｜invoke name=";
const INVOKE_END: &str = "</｜DSML｜invoke>";

static PARAMS: ParamStyle = ParamStyle {
    opens: &["<｜DSML｜parameter name="],
    name: ParamName::Quoted,
    closes: &["</｜DSML｜parameter>"],
    call_closes: &[INVOKE_END],
    raw_attr: Some("string=\"true\""),
};

pub(crate) static DSML: XmlCalls = XmlCalls {
    markers: &[FUNCTION_CALLS, TOOL_CALLS, INVOKE],
    wrappers: &[
        (FUNCTION_CALLS, FUNCTION_CALLS_END),
        (TOOL_CALLS, TOOL_CALLS_END),
    ],
    call: CallSyntax {
        open: INVOKE,
        close: INVOKE_END,
        name: ParamName::Quoted,
        style: &PARAMS,
    },
    openers: &[FUNCTION_CALLS, TOOL_CALLS, INVOKE],
    closers: &[INVOKE_END, FUNCTION_CALLS_END, TOOL_CALLS_END],
    strip: &[],
};
