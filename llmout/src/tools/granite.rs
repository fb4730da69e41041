//! IBM Granite: `<|tool_call|>` then a JSON array of calls.

use super::json_values::AfterMarker;

pub(crate) static GRANITE: AfterMarker = AfterMarker {
    markers: &["<|tool_call|>"],
    opener: &["<|tool_call|>"],
    closer: &[],
    values_follow: true,
    strip: &[],
};
