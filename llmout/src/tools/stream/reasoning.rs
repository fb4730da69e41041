//! Reasoning blocks left out of a reply, as they arrive and in a whole text, by one machine
//! ([`Reasoning`]): `<think>`, `<thinking>` and `<reasoning>` blocks, the reasoning markers
//! of families that write their own ([`EXTRA`]), and the suffixed `<think:opensource>` of
//! Tencent's Hy3 tokenizers. A tag written inside a quoted string within brackets or
//! parentheses (a call's argument that mentions `<think>`) is that string's text, as
//! [`visible_segments`](crate::extract::visible_segments) has it; so is one inside a
//! parameter element's value (`<parameter=content>…</parameter>` and its kin, see
//! [`PARAMS`]), and so is one anywhere in a MiniMax M3 call, whose arguments are elements
//! named after them (see [`m3_invoke`]).

use std::borrow::Cow;

use crate::extract::Strings;

use super::super::minimax_m3;

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

/// `t`, a whole reply, without its reasoning blocks, as [`Reasoning`] leaves them out of a
/// reply that arrives in chunks: an opener hides the text up to the next closer (or the end),
/// and a closer with no opener hides all before it. Borrowed where `t` has no reasoning tag
/// (a large reply is not copied).
pub(crate) fn visible(t: &str) -> Cow<'_, str> {
    let b = t.as_bytes();
    let any = memchr::memchr_iter(b'<', b)
        .any(|at| matches!(tag(&b[at..], true), Tag::Open(_) | Tag::Close(_)));
    if !any {
        return Cow::Borrowed(t);
    }
    let mut r = Reasoning::default();
    let mut out = String::with_capacity(t.len());
    r.advance(t, &mut out);
    // The text is whole: a tag it ends inside is no tag.
    if !r.inside {
        out.push_str(&t[r.pos..]);
    }
    Cow::Owned(out)
}

/// Leaves reasoning blocks out of text as it arrives (see [`visible`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Reasoning {
    pos: usize,
    inside: bool,
    /// The visible text read so far, for the string a tag may be in.
    strings: Strings,
    /// The closer of the parameter element the text is in (see [`param_open`]).
    param: Option<String>,
}

const REASONING: [&str; 3] = ["think", "thinking", "reasoning"];

impl Reasoning {
    /// Appends the newly visible part of `text` to `visible`. Returns true when a closer with
    /// no opener arrived: `visible` was emptied, everything before it being reasoning.
    pub(super) fn advance(&mut self, text: &str, visible: &mut String) -> bool {
        let b = text.as_bytes();
        let mut reset = false;
        while self.pos < b.len() {
            let Some(lt) = memchr::memchr(b'<', &b[self.pos..]) else {
                if !self.inside {
                    visible.push_str(&text[self.pos..]);
                    self.strings.read(&b[self.pos..]);
                }
                self.pos = b.len();
                break;
            };
            let at = self.pos + lt;
            if !self.inside {
                visible.push_str(&text[self.pos..at]);
                self.strings.read(&b[self.pos..at]);
            }
            self.pos = at;
            let found = match (&self.param, self.inside) {
                // In a parameter's value, tags are its text, up to its closer.
                (Some(close), false) => match strip(&b[at..], close) {
                    Ok(_) => {
                        self.param = None;
                        Tag::None
                    }
                    Err(true) => Tag::Partial,
                    Err(false) => Tag::None,
                },
                _ => match tag(&b[at..], true) {
                    // Written inside a string: the string's text.
                    Tag::Open(_) | Tag::Close(_) if !self.inside && self.strings.in_string() => {
                        Tag::None
                    }
                    Tag::None if !self.inside => match param_open(b, at) {
                        Param::Open(close) => {
                            self.param = Some(close);
                            Tag::None
                        }
                        Param::Partial => Tag::Partial,
                        Param::None => Tag::None,
                    },
                    found => found,
                },
            };
            match found {
                Tag::Partial => break,
                Tag::None => {
                    if !self.inside {
                        visible.push('<');
                        self.strings.read(b"<");
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
                        self.strings = Strings::default();
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

/// The elements whose text is a tool call's parameter value, as the families write them
/// (namespace, name): `<parameter=p>` (Qwen3-Coder, Seed-OSS), `<parameter name="p">` with
/// or without a namespace (Anthropic, MiniMax M2, Step-3, DeepSeek's DSML), `<param
/// name="p">` (MiniCPM) and `<arg_value>` (GLM; with a token suffix, Hunyuan). A reasoning
/// tag inside one is the value's text, as one inside a quoted string is.
const PARAMS: [(&str, &str); 6] = [
    ("", "parameter"),
    ("", "param"),
    ("", "arg_value"),
    (concat!("antml", ":"), "parameter"),
    ("steptml:", "parameter"),
    ("｜DSML｜", "parameter"),
];

/// What a parameter element's opener at the start of `b` (a `<`) came to.
enum Param {
    None,
    /// The text ends inside what may be one.
    Partial,
    /// Its closer.
    Open(String),
}

/// The parameter element (see [`PARAMS`]) whose opener starts `text` at `at` (a `<`): its
/// name, then `=`, white space or `>` (or, for `arg_value`, a token suffix), is written. Or a
/// MiniMax M3 call's opener (see [`m3_invoke`]).
fn param_open(text: &[u8], at: usize) -> Param {
    let b = &text[at..];
    // Most tags start otherwise: one comparison for them.
    let first = match b.get(1) {
        None => return Param::Partial,
        Some(b'i') => return m3_invoke(text, at),
        Some(&c @ (b'p' | b'a' | b's' | 0xEF)) => c,
        Some(_) => return Param::None,
    };
    let mut partial = false;
    for (prefix, name) in PARAMS {
        let head = if prefix.is_empty() { name } else { prefix };
        if head.as_bytes()[0] != first {
            continue;
        }
        let rest = match strip(&b[1..], prefix).and_then(|rest| strip(rest, name)) {
            Ok(rest) => rest,
            Err(cut) => {
                partial |= cut;
                continue;
            }
        };
        let suffix = match rest.first() {
            None => {
                partial = true;
                continue;
            }
            Some(b'=' | b'>' | b' ' | b'\t' | b'\n') => "",
            Some(b':') if name == "arg_value" => match suffix_len(rest) {
                // (A suffix holds no `<`, `>` or white space: it ends on a character.)
                Suffix::Len(n) => std::str::from_utf8(&rest[..n]).unwrap_or_default(),
                Suffix::Partial => {
                    partial = true;
                    continue;
                }
                Suffix::None => continue,
            },
            Some(_) => continue,
        };
        return Param::Open(format!("</{prefix}{name}{suffix}>"));
    }
    if partial {
        Param::Partial
    } else {
        Param::None
    }
}

/// A MiniMax M3 call's opener at `at` in `text`: `<invoke name=` after the family's
/// namespace token (white space may come between them, as the family reads it). Its
/// arguments are elements named after them (`<city>`), which no list of names can know,
/// so the whole call, up to its `</invoke>`, is read as a parameter value is.
fn m3_invoke(text: &[u8], at: usize) -> Param {
    const OPENER: &str = "<invoke name=";
    match strip(&text[at..], OPENER) {
        Ok(_) => {}
        Err(true) => return Param::Partial,
        Err(false) => return Param::None,
    }
    let before = &text[..at];
    let gap = before
        .iter()
        .rev()
        .take(minimax_m3::MAX_GAP)
        .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    if before[..at - gap].ends_with(minimax_m3::NS.as_bytes()) {
        Param::Open("</invoke>".to_owned())
    } else {
        Param::None
    }
}

/// `b` after `p`, when it starts with it; else whether `b` ends inside `p`. (A byte loop:
/// the markers are short, and this runs at every tag.)
fn strip<'a>(b: &'a [u8], p: &str) -> Result<&'a [u8], bool> {
    for (i, &c) in p.as_bytes().iter().enumerate() {
        match b.get(i) {
            None => return Err(true),
            Some(&d) if d != c => return Err(false),
            Some(_) => {}
        }
    }
    Ok(&b[p.len()..])
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
