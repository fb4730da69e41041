//! MiniCPM 4 and later: `<function name="f"><param name="p">v</param></function>`, a value
//! maybe in `<![CDATA[…]]>`.

use super::params::{CallSyntax, ParamName, ParamStyle};
use super::xml_calls::XmlCalls;

static PARAMS: ParamStyle = ParamStyle {
    opens: &["<param name="],
    name: ParamName::Quoted,
    closes: &["</param>"],
    call_closes: &["</function>"],
    raw_attr: None,
};

pub(crate) static MINICPM: XmlCalls = XmlCalls {
    markers: &["<function name="],
    wrappers: &[],
    call: CallSyntax {
        open: "<function name=",
        close: "</function>",
        name: ParamName::Quoted,
        style: &PARAMS,
    },
    openers: &["<function name="],
    closers: &["</function>"],
    strip: &[],
};
