//! Reasoning blocks left out of a reply as it arrives.

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

/// The reasoning tag at the start of `b` (a `<`), case-insensitive.
fn reasoning_tag(b: &[u8]) -> Tag {
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
