//! The families whose calls are JSON values after one marker (Llama `<|python_tag|>`, Granite,
//! Jamba / MiniMax, Phi-4, InternLM): one shape, each family a value of it.

use super::family::{Family, Found, Head};
use super::read::after_marker_json;
use super::stream::window;

/// JSON calls after a marker (up to a closer when the family has one), several separated by
/// `;`, commas or newlines, or one array.
pub(crate) struct AfterMarker {
    /// What selects the family.
    pub markers: &'static [&'static str],
    /// The markers the calls follow, for reading and streaming.
    pub opener: &'static [&'static str],
    /// What ends the calls, when the family has a closer (its first entry).
    pub closer: &'static [&'static str],
    /// Whether more calls may follow a call with no marker of their own.
    pub values_follow: bool,
    /// Markers dropped from the content.
    pub strip: &'static [&'static str],
}

impl Family for AfterMarker {
    fn markers(&self) -> &'static [&'static str] {
        self.markers
    }

    fn read(&self, t: &str, found: &mut Found) {
        for open in self.opener {
            after_marker_json(t, open, self.closer.first().copied(), found);
        }
    }

    fn strip(&self) -> &'static [&'static str] {
        self.strip
    }

    fn openers(&self) -> &'static [&'static str] {
        self.opener
    }

    fn closers(&self) -> &'static [&'static str] {
        self.closer
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        match trimmed.as_bytes().first() {
            None => Head::Wait,
            Some(b'{' | b'[') => Head::Body(head + lead),
            Some(_) => Head::Stall(head, None),
        }
    }

    fn values_follow(&self) -> bool {
        self.values_follow
    }
}
