//! Reasoning blocks left out of a reply: `<think>`-like tags as they arrive (as
//! [`segments_at_every_tag`](crate::extract::segments_at_every_tag) does for a whole text), and the
//! reasoning markers of families that write their own ([`EXTRA`], and the suffixed
//! `<think:opensource>` of Tencent's Hy3 tokenizers), for a whole text too.

use std::borrow::Cow;

/// Reasoning blocks some families write with markers of their own, opener and closer:
/// Seed-OSS `<seed:think>`, Cohere Command `<|START_THINKING|>`, MiniMax M3 `<mm:think>`,
/// LongCat `<longcat_think>`, Apertus `<|inner_prefix|>`, Gemma 4 `<|channel>thought…`.
pub(crate) const EXTRA: [(&str, &str); 6] = [
    ("<seed:think>", "</seed:think>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
    ("<mm:think>", "</mm:think>"),
    ("<longcat_think>", "</longcat_think>"),
    ("<|inner_prefix|>", "<|inner_suffix|>"),
    ("<|channel>", "<channel|>"),
];

/// The longest suffix a special token may carry after its name (`<think:opensource>`: the
/// `:opensource`, colon included).
pub(crate) const MAX_SUFFIX: usize = 64;

/// `t` without the reasoning blocks that [`segments_at_every_tag`](crate::extract::segments_at_every_tag)
/// does not know ([`EXTRA`], and `<think:…>` with a token suffix), read as the stream reads
/// them: an opener hides the text up to the next closer (or the end), and a closer with no
/// opener hides all before it.
pub(crate) fn hide_extra(t: &str) -> Cow<'_, str> {
    let b = t.as_bytes();
    let next = |from: usize| {
        let mut at = from;
        while let Some(i) = b.get(at..).and_then(|s| s.iter().position(|&c| c == b'<')) {
            at += i;
            match tag(&b[at..], false) {
                Tag::Open(len) => return Some((at, len, false)),
                Tag::Close(len) => return Some((at, len, true)),
                // The text is whole: a tag it ends inside is no tag.
                Tag::None | Tag::Partial => at += 1,
            }
        }
        None
    };
    let Some(first) = next(0) else {
        return Cow::Borrowed(t);
    };
    let mut out = String::with_capacity(t.len());
    let (mut pos, mut inside, mut found) = (0, false, Some(first));
    while let Some((at, len, closing)) = found {
        if !inside {
            out.push_str(&t[pos..at]);
        }
        if closing && !inside {
            out.clear();
        }
        inside = !closing;
        pos = at + len;
        found = next(pos);
    }
    if !inside {
        out.push_str(&t[pos..]);
    }
    Cow::Owned(out)
}

/// Leaves reasoning blocks out of text as it arrives, as
/// [`segments_at_every_tag`](crate::extract::segments_at_every_tag) and [`hide_extra`] do for a whole
/// text.
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
            match tag(&b[at..], true) {
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

/// The reasoning tag at the start of `b` (a `<`): one of the [`EXTRA`] markers, as written;
/// a reasoning name with a token suffix (`<think:opensource>`, case-insensitive); and, when
/// `bare`, a reasoning name alone (`<think>`, case-insensitive).
fn tag(b: &[u8], bare: bool) -> Tag {
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
    let Some(got) = b.get(name_at..) else {
        return Tag::Partial;
    };
    let mut partial = false;
    for name in REASONING {
        let n = name.len();
        let m = got.len().min(n);
        if !(0..m).all(|i| got[i].eq_ignore_ascii_case(&name.as_bytes()[i])) {
            continue;
        }
        let len = match got.get(n) {
            None => {
                partial = true;
                continue;
            }
            Some(b'>') if bare => Some(n + 1),
            Some(b':') => match suffix_len(&got[n..]) {
                Suffix::Len(s) => Some(n + s + 1),
                Suffix::Partial => {
                    partial = true;
                    continue;
                }
                Suffix::None => None,
            },
            Some(_) => None,
        };
        if let Some(len) = len {
            return if closing {
                Tag::Close(name_at + len)
            } else {
                Tag::Open(name_at + len)
            };
        }
    }
    if partial {
        Tag::Partial
    } else {
        Tag::None
    }
}

/// What a token suffix (`:opensource`) at the start of a tag's remainder came to.
pub(crate) enum Suffix {
    /// Not a suffix: no `:`, an empty one, white space, `<`, or longer than [`MAX_SUFFIX`].
    None,
    /// The text ends inside it.
    Partial,
    /// Its length, colon included; a `>` follows it.
    Len(usize),
}

/// The token suffix at the start of `b`: a `:` and up to [`MAX_SUFFIX`] bytes that are not
/// white space, `<` or `>`, then `>`.
pub(crate) fn suffix_len(b: &[u8]) -> Suffix {
    if b.first() != Some(&b':') {
        return Suffix::None;
    }
    for (i, &c) in b.iter().enumerate().skip(1).take(MAX_SUFFIX) {
        match c {
            b'>' if i > 1 => return Suffix::Len(i),
            b'>' | b'<' => return Suffix::None,
            c if c.is_ascii_whitespace() => return Suffix::None,
            _ => {}
        }
    }
    if b.len() <= MAX_SUFFIX {
        Suffix::Partial
    } else {
        Suffix::None
    }
}
