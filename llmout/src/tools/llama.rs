//! Llama 3.1: `<|python_tag|>` then JSON calls with `parameters`, separated by `;`.

use super::json_values::AfterMarker;

pub(crate) static PYTHON_TAG: AfterMarker = AfterMarker {
    markers: &["<|python_tag|>"],
    opener: &["<|python_tag|>"],
    closer: &[],
    values_follow: true,
    strip: &["<|python_tag|>"],
};
