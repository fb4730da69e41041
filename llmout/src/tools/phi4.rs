//! Phi-4-mini: `functools[…]`, a JSON array of calls.

use super::json_values::AfterMarker;

pub(crate) static PHI4: AfterMarker = AfterMarker {
    markers: &["functools["],
    opener: &["functools"],
    closer: &[],
    values_follow: true,
    strip: &[],
};
