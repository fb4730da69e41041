//! Arguments written as keys and values in braces, the way Gemma models write them:
//! `{city:<|"|>Paris<|"|>,days:3}` (the quote token standing for `"`), and the variants seen
//! in replies, `{city: "Paris"}`, `{city='Paris', days=3}`, `{city=Paris}`. FunctionGemma
//! writes the same with `<escape>` as its quote token.

use std::borrow::Cow;

use super::args::Args;

/// The arguments in `text`, which starts with `{`, put in `args`: the offset after its `}`.
/// `None` when the braces do not close (the call was cut off) or what is inside is not keys
/// and values (then `args` holds some of them).
pub(crate) fn kv_args(text: &str, quote: &str, args: &mut Args) -> Option<usize> {
    let b = text.as_bytes();
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut i = 1;
    loop {
        i += skip(&text[i..], |c| c.is_ascii_whitespace() || c == b',');
        if *b.get(i)? == b'}' {
            return Some(i + 1);
        }
        // The key, maybe quoted.
        let (key, after) = key(&text[i..], quote)?;
        i += after;
        i += skip(&text[i..], |c| c.is_ascii_whitespace());
        if !matches!(b.get(i)?, b':' | b'=') {
            return None;
        }
        i += 1;
        i += skip(&text[i..], |c| c.is_ascii_whitespace());
        let (value, len) = value(&text[i..], quote)?;
        match value {
            Written::String(s) => args.insert_string(key, s),
            Written::Literal(text) => args.insert_literal(key, &text).ok()?,
            Written::Word(word) => args.insert(key, word),
        }
        i += len;
    }
}

fn skip(s: &str, f: impl Fn(u8) -> bool) -> usize {
    s.bytes().take_while(|c| f(*c)).count()
}

/// A key: a word, or a quoted word.
fn key(s: &str, quote: &str) -> Option<(String, usize)> {
    if let Some(rest) = s.strip_prefix(quote) {
        let end = rest.find(quote)?;
        return Some((rest[..end].to_owned(), quote.len() * 2 + end));
    }
    if let Some(q) = s.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = s[1..].find(q)? + 1;
        return Some((s[1..end].to_owned(), end + 1));
    }
    let len = skip(s, |c| {
        c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.'
    });
    (len > 0).then(|| (s[..len].to_owned(), len))
}

/// How a value is written.
enum Written<'a> {
    /// In the quote token: the string as it stands.
    String(&'a str),
    /// In quotes, or a JSON (or Python) object or array, the quote token read as `"`.
    Literal(Cow<'a, str>),
    /// A bare word, read as a parameter's text is.
    Word(&'a str),
}

/// A value and its length: a string in the quote token or in quotes, a JSON (or Python)
/// object or array, or a bare word up to the next `,` or `}`.
fn value<'a>(s: &'a str, quote: &str) -> Option<(Written<'a>, usize)> {
    if let Some(rest) = s.strip_prefix(quote) {
        let end = rest.find(quote)?;
        return Some((Written::String(&rest[..end]), quote.len() * 2 + end));
    }
    let b = s.as_bytes();
    match b.first()? {
        b'"' | b'\'' => {
            let len = quoted_len(s)?;
            Some((Written::Literal(Cow::Borrowed(&s[..len])), len))
        }
        b'{' | b'[' => {
            let len = nested_len(s, quote)?;
            let text = &s[..len];
            let text = match text.contains(quote) {
                true => Cow::Owned(text.replace(quote, "\"")),
                false => Cow::Borrowed(text),
            };
            Some((Written::Literal(text), len))
        }
        _ => {
            let len = s.find([',', '}']).unwrap_or(s.len());
            if len == s.len() {
                // No delimiter after it: the value may be cut off.
                return None;
            }
            Some((Written::Word(s[..len].trim()), len))
        }
    }
}

/// The length of the quoted string at the start of `s`, its closing quote included.
fn quoted_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let q = b[0];
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == q => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The length of the object or array at the start of `s`, strings (in quotes or the quote
/// token) skipped.
fn nested_len(s: &str, quote: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(quote.as_bytes()) {
            let end = s.get(i + quote.len()..)?.find(quote)?;
            i += quote.len() * 2 + end;
            continue;
        }
        match b[i] {
            b'"' | b'\'' => i += quoted_len(&s[i..])?,
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                i += 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}
