//! InternLM: `<|action_start|><|plugin|>` then a JSON call with `parameters`, ended by
//! `<|action_end|>`.

use super::json_values::AfterMarker;

pub(crate) static INTERNLM: AfterMarker = AfterMarker {
    markers: &["<|action_start|><|plugin|>"],
    opener: &["<|action_start|><|plugin|>"],
    closer: &["<|action_end|>"],
    values_follow: false,
    strip: &[],
};
