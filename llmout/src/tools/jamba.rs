//! AI21 Jamba and MiniMax-Text: `<tool_calls>…</tool_calls>` holding a JSON array of calls, or
//! one JSON call per line.

use super::json_values::AfterMarker;

pub(crate) static JAMBA: AfterMarker = AfterMarker {
    markers: &["<tool_calls>"],
    opener: &["<tool_calls>"],
    closer: &["</tool_calls>"],
    values_follow: true,
    strip: &[],
};
