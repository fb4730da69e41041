//! Reasoning blocks left out of a reply: `<think>`-like tags as they arrive (as
//! [`visible_segments`](crate::extract::visible_segments) does for a whole text), and the
//! reasoning markers of families that write their own ([`EXTRA`]), for a whole text too.

use std::borrow::Cow;

use crate::tools::family::scan_for;

/// Reasoning blocks some families write with markers of their own, opener and closer:
/// Seed-OSS `<seed:think>`, Cohere Command `<|START_THINKING|>`.
pub(crate) const EXTRA: [(&str, &str); 2] = [
    ("<seed:think>", "</seed:think>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
];

/// `t` without the [`EXTRA`] reasoning blocks, read as the stream reads them: an opener hides
/// the text up to the next closer (or the end), and a closer with no opener hides all before
/// it.
pub(crate) fn hide_extra(t: &str) -> Cow<'_, str> {
    let markers = EXTRA.iter().flat_map(|(open, close)| [*open, *close]);
    let Some(first) = scan_for(t, 0, markers.clone()) else {
        return Cow::Borrowed(t);
    };
    let mut out = String::with_capacity(t.len());
    let (mut pos, mut inside, mut next) = (0, false, Some(first));
    while let Some((at, k)) = next {
        if !inside {
            out.push_str(&t[pos..at]);
        }
        let closing = k % 2 == 1;
        if closing && !inside {
            out.clear();
        }
        inside = !closing;
        pos = at + markers.clone().nth(k).map_or(1, str::len);
        next = scan_for(t, pos, markers.clone());
    }
    if !inside {
        out.push_str(&t[pos..]);
    }
    Cow::Owned(out)
}

/// Leaves reasoning blocks out of text as it arrives, as
/// [`visible_segments`](crate::extract::visible_segments) does for a whole text.
#[derive(Debug, Clone, Default)]
pub(super) struct Reasoning {
    pos: usize,
    inside: bool,
}

const REASONING: [&str; 3] = ["think", "thinking", "reasoning"];

impl Reasoning {
    /// Appends the newly visible part of `text` to `visible`. Returns true when a closer with
    /// no opener arrived: `visible` was emptied, everything before it being reasoning.
    pub(super) fn advance(&mut self, text: &str, visible: &mut String) -> bool {
        let b = text.as_bytes();
        let mut reset = false;
        while self.pos < b.len() {
            let Some(lt) = b[self.pos..].iter().position(|&c| c == b'<') else {
                if !self.inside {
                    visible.push_str(&text[self.pos..]);
                }
                self.pos = b.len();
                break;
            };
            let at = self.pos + lt;
            if !self.inside {
                visible.push_str(&text[self.pos..at]);
            }
            match reasoning_tag(&b[at..]) {
                Tag::Partial => {
                    self.pos = at;
                    break;
                }
                Tag::None => {
                    if !self.inside {
                        visible.push('<');
                    }
                    self.pos = at + 1;
                }
                Tag::Open(len) => {
                    self.inside = true;
                    self.pos = at + len;
                }
                Tag::Close(len) => {
                    if !self.inside {
                        visible.clear();
                        reset = true;
                    }
                    self.inside = false;
                    self.pos = at + len;
                }
            }
        }
        reset
    }
}

enum Tag {
    None,
    /// The text ends inside what may be a tag.
    Partial,
    Open(usize),
    Close(usize),
}

/// The reasoning tag at the start of `b` (a `<`), case-insensitive; or one of the
/// [`EXTRA`] markers, as written.
fn reasoning_tag(b: &[u8]) -> Tag {
    for (open, close) in EXTRA {
        for (marker, closing) in [(open, false), (close, true)] {
            let m = marker.as_bytes();
            if b.len() < m.len() && m.starts_with(b) {
                return Tag::Partial;
            }
            if b.starts_with(m) {
                return if closing {
                    Tag::Close(m.len())
                } else {
                    Tag::Open(m.len())
                };
            }
        }
    }
    let closing = b.get(1) == Some(&b'/');
    let name_at = if closing { 2 } else { 1 };
    for name in REASONING {
        let n = name.len();
        let Some(got) = b.get(name_at..) else {
            return Tag::Partial;
        };
        let m = got.len().min(n + 1);
        let want = |i: usize| if i < n { name.as_bytes()[i] } else { b'>' };
        if (0..m).all(|i| got[i].eq_ignore_ascii_case(&want(i))) {
            if m < n + 1 {
                return Tag::Partial;
            }
            let len = name_at + n + 1;
            return if closing {
                Tag::Close(len)
            } else {
                Tag::Open(len)
            };
        }
    }
    Tag::None
}
