//! Pythonic calls: `[get_weather(city='Paris'), now()]` (Llama 3.2 and 4, UI-TARS actions),
//! argument values written as Python literals (`True`, `None`, `'single quotes'`, lists,
//! dicts).

use std::ops::Range;

use super::args::Args;
use super::calls::Calls;
use super::family::{Found, Named};
use super::stream::{PyCalls, PyList};
use super::ToolCall;

/// Pythonic calls `f(a=1, b='x'), g()` (optionally in `[...]`, the `]` maybe missing), one
/// after another on a line or on lines of their own: `None` unless all of `text` is calls.
/// Values are Python literals, read by the lenient JSON parser (which knows single quotes and
/// `True`/`False`/`None`, and JSON's `true`/`false`/`null`).
pub(crate) fn pythonic(text: &str) -> Option<Vec<ToolCall>> {
    let mut calls = Calls::default();
    read_calls(text, &mut calls)?;
    (!calls.is_empty()).then(|| calls.into_vec())
}

/// [`pythonic`], each call put in `calls` as it is read: `None` (with some calls put there
/// already, for the caller to take back) unless all of `text` is calls.
fn read_calls(text: &str, calls: &mut Calls) -> Option<()> {
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix('[') {
        s = inner.strip_suffix(']').unwrap_or(inner).trim();
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // name: identifier (dots allowed), then `(`.
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
            i += 1;
        }
        let name = s.get(start..i)?.to_owned();
        if name.is_empty() || b.get(i) != Some(&b'(') || name.as_bytes()[0].is_ascii_digit() {
            return None;
        }
        i += 1;
        let mut arguments = Args::new(calls);
        loop {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match b.get(i)? {
                b')' => {
                    i += 1;
                    break;
                }
                b',' => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let key_start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let key = s.get(key_start..i)?.to_owned();
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if key.is_empty() || b.get(i) != Some(&b'=') {
                return None;
            }
            i += 1;
            // The value runs to the `,` or `)` at depth 0, outside quotes.
            let value_start = i;
            let (mut depth, mut quote, mut esc) = (0usize, None::<u8>, false);
            while i < b.len() {
                let c = b[i];
                match quote {
                    Some(q) => {
                        if esc {
                            esc = false;
                        } else if c == b'\\' {
                            esc = true;
                        } else if c == q {
                            quote = None;
                        }
                    }
                    None => match c {
                        b'"' | b'\'' => quote = Some(c),
                        b'[' | b'{' | b'(' => depth += 1,
                        b']' | b'}' => depth = depth.saturating_sub(1),
                        b')' if depth > 0 => depth -= 1,
                        b',' | b')' if depth == 0 => break,
                        _ => {}
                    },
                }
                i += 1;
            }
            arguments.insert_python(key, s.get(value_start..i)?.trim());
        }
        arguments.push(calls, Named { id: None, name });
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
        {
            i += 1;
        }
    }
    Some(())
}

/// A reply of pythonic calls: a list (`[f(a=1), g()]`) read as the stream reads it, the calls
/// heading it (what follows them, a call cut off or text, stays content); or, with no `[`,
/// a reply that is nothing but calls. Either way the calls go straight into `found` as they
/// are read (a reply of many calls is never held as a list of its own besides), and are
/// taken back if they turn out not to be calls of the reply.
pub(crate) fn pythonic_reply(t: &str, found: &mut Found) -> bool {
    let before = found.calls.len();
    let lead = t.len() - t.trim_start().len();
    if t[lead..].starts_with('[') && starts_pythonic(&t[lead..]) == Some(true) {
        let (read, end, _) = leading_calls_into(t, lead..t.len(), &mut found.calls);
        if read == 0 {
            return false;
        }
        found.taken.push(lead..end);
        return true;
    }
    if read_calls(t, &mut found.calls).is_some() && found.calls.len() > before {
        found.taken.push(0..t.len());
        return true;
    }
    found.calls.truncate(before);
    false
}

/// Whether `s` starts pythonic calls: an identifier then `(`, maybe after `[`. `None` while
/// that cannot be told yet (the identifier is still being written).
pub(crate) fn starts_pythonic(s: &str) -> Option<bool> {
    let s = s.trim_start();
    let s = s.strip_prefix('[').map_or(s, str::trim_start);
    let ident = s
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
        .count();
    match s.as_bytes().get(ident) {
        None if ident < crate::tools::MAX_HEAD => None,
        None => Some(false),
        Some(b'(') => Some(ident > 0 && !s.as_bytes()[0].is_ascii_digit()),
        Some(_) => Some(false),
    }
}

/// The pythonic calls at the start of `t[range]` (maybe in `[…]`, the `]` maybe missing),
/// read as the stream reads them: each call once its `)` is written, until what follows is not
/// a call. Returns the calls and where the text they take ends (with the `]` closing them).
pub(crate) fn leading_calls(t: &str, range: Range<usize>) -> (Vec<ToolCall>, usize) {
    let (calls, end, _) = leading_calls_open(t, range);
    (calls, end)
}

/// [`leading_calls`], and whether the text ended inside a call after them (its `)` never
/// written): all the rest of it is inside that call.
pub(crate) fn leading_calls_open(t: &str, range: Range<usize>) -> (Vec<ToolCall>, usize, bool) {
    let mut calls = Vec::new();
    let (_, end, open) = leading_calls_into(t, range, &mut calls);
    (calls, end, open)
}

/// [`leading_calls`], each call put in `calls` as it is read: how many, and where the text
/// they take ends.
pub(crate) fn leading_calls_into(
    t: &str,
    range: Range<usize>,
    calls: &mut impl PyCalls,
) -> (usize, usize, bool) {
    let Some(within) = t.get(..range.end) else {
        return (0, range.start, false);
    };
    let mut counted = Counted { calls, read: 0 };
    let (end, open) = PyList::leading(within, range.start, &mut counted);
    let read = counted.read;
    let rest = &within[end..];
    let trimmed = rest.trim_start();
    match trimmed.strip_prefix(']') {
        Some(after) if read > 0 => (read, range.end - after.len(), open),
        _ => (read, end, open),
    }
}

/// Passes calls on to `calls`, counting them.
struct Counted<'c, C> {
    calls: &'c mut C,
    read: usize,
}

impl<C: PyCalls> PyCalls for Counted<'_, C> {
    fn call(&mut self, text: &str) -> bool {
        let read = self.calls.call(text);
        self.read += usize::from(read);
        read
    }
}

/// Calls read as [`parse_compact`](super::parse_compact) keeps them: where they are written,
/// each argument is written as it is read (a large one repaired to its JSON text), no map
/// made.
impl PyCalls for Calls {
    fn call(&mut self, text: &str) -> bool {
        let before = self.len();
        if read_calls(text, self).is_some() && self.len() > before {
            return true;
        }
        self.truncate(before);
        false
    }
}

/// The pythonic calls heading the body of an element (`whole` the element, `body` inside it):
/// the element is taken whole when nothing but the calls is in it, else up to the last call.
/// False when it holds no call.
pub(crate) fn read_element(
    t: &str,
    whole: Range<usize>,
    body: Range<usize>,
    found: &mut Found,
) -> bool {
    let (calls, end) = leading_calls(t, body.clone());
    if calls.is_empty() {
        return false;
    }
    found.calls.extend(calls);
    let rest = t.get(end..body.end).unwrap_or_default();
    found.taken.push(if rest.trim().is_empty() {
        whole
    } else {
        whole.start..end
    });
    true
}
