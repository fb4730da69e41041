//! MiniMax M2: `<minimax:tool_call>` around Anthropic-style calls,
//! `<invoke name="f"><parameter name="p">v</parameter></invoke>`.

use super::invoke::ANTHROPIC;
use super::params::{CallSyntax, ParamName};
use super::xml_calls::XmlCalls;

pub(crate) static MINIMAX_M2: XmlCalls = XmlCalls {
    markers: &["<minimax:tool_call>"],
    wrappers: &[("<minimax:tool_call>", "</minimax:tool_call>")],
    call: CallSyntax {
        open: "<invoke name=",
        close: "</invoke>",
        name: ParamName::Quoted,
        style: &ANTHROPIC,
    },
    openers: &["<minimax:tool_call>", "<invoke name="],
    closers: &["</invoke>", "</minimax:tool_call>"],
    strip: &[],
};
