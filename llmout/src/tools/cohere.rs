//! Cohere Command (R+, A): `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f",
//! "parameters": {…}}, …]<|END_ACTION|>`; the tool plan in `<|START_THINKING|>…<|END_THINKING|>`
//! is reasoning, the text in `<|START_RESPONSE|>…<|END_RESPONSE|>` content. (Command R's
//! older `` Action: ```json [...]``` `` form is read by [`ui_tars`](super::ui_tars).)

use super::json_values::AfterMarker;

pub(crate) static COHERE: AfterMarker = AfterMarker {
    markers: &["<|START_ACTION|>"],
    opener: &["<|START_ACTION|>"],
    closer: &["<|END_ACTION|>"],
    values_follow: false,
    strip: &[
        "<|START_RESPONSE|>",
        "<|END_RESPONSE|>",
        "<|START_TEXT|>",
        "<|END_TEXT|>",
        "<|END_OF_TURN_TOKEN|>",
    ],
};
