//! GigaChat 3: `function call<|role_sep|>` (or `<|function_call|>`) then one JSON call
//! `{"name", "arguments"}`; the text before it, up to `<|message_sep|>`, is content.

use super::json_values::AfterMarker;

pub(crate) static GIGACHAT: AfterMarker = AfterMarker {
    markers: &["function call<|role_sep|>", "<|function_call|>"],
    opener: &["function call<|role_sep|>", "<|function_call|>"],
    closer: &[],
    values_follow: false,
    strip: &["<|message_sep|>", "</s>"],
};
