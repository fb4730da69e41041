//! Tencent Hy3 (HY v3 and later) as its released tokenizers write it: every special token
//! carries the checkpoint's suffix (`:opensource` today, a hash in some checkpoints), the same
//! one throughout a reply, the model's reasoning in `<think:opensource>` (left out as
//! reasoning):
//!
//! ```text
//! <tool_calls:opensource>
//! <tool_call:opensource>get_weather<tool_sep:opensource>
//! <arg_key:opensource>city</arg_key:opensource>
//! <arg_value:opensource>Beijing</arg_value:opensource>
//! </tool_call:opensource>
//! </tool_calls:opensource>
//! ```
//!
//! The name ends at `<tool_sep:…>` (later checkpoints write the first `<arg_key:…>` right
//! after it); a value is JSON when it parses as JSON, text otherwise. A call is read only
//! once its closer is written: one cut off, or one whose arguments are not key and value
//! pairs, is no call, and its text stays content. The suffix-less form of the preview
//! tokenizer is GLM's syntax inside `<tool_calls>`, read by [`jamba`](super::jamba).

use super::args::Args;
use super::calls::Calls;
use super::family::{Family, Found, Head, Named};
use super::read::take_wrappers;
use super::stream::{find_any, hold_back_any, suffix_len, window, Suffix};
use super::MAX_HEAD;

/// The openers, up to the suffix's colon.
const CALLS: &str = "<tool_calls:";
const CALL: &str = "<tool_call:";

pub(crate) struct HyV3;

impl Family for HyV3 {
    fn markers(&self) -> &'static [&'static str] {
        &[CALLS, CALL]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let first = found.taken.len();
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(CALL)) {
            let start = at + i;
            at = read_call(t, start, found);
        }
        // The wrappers, written with the suffix of the first one.
        if let Some(i) = t.find(CALLS) {
            if let Some((suffix, _)) = token(t, i, "tool_calls") {
                let close = format!("</tool_calls{suffix}>");
                let open = format!("<tool_calls{suffix}>");
                take_wrappers(t, first, &[(open.as_str(), close.as_str())], found);
            }
        }
    }

    fn strip(&self) -> &'static [&'static str] {
        &["<answer>", "</answer>"]
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        let name = if v[start..head] == *CALLS {
            "tool_calls"
        } else {
            "tool_call"
        };
        let (suffix, tag_end) = match suffix_len(&v.as_bytes()[head - 1..]) {
            Suffix::Partial => return Head::Wait,
            Suffix::None => return Head::Seek(head),
            Suffix::Len(len) => (&v[head - 1..head - 1 + len], head + len),
        };
        if name == "tool_calls" {
            return Head::Seek(tag_end);
        }
        let ends = delimiters(suffix);
        let text = window(v, tag_end);
        let ends: Vec<&str> = ends.iter().map(String::as_str).collect();
        match find_any(text, 0, &ends) {
            Some((d, _)) => Head::Whole(tool_name(&text[..d]).map(|n| Named::new(n, None))),
            None if text.len() > MAX_HEAD => Head::Whole(None),
            None => Head::Wait,
        }
    }

    fn whole_end(&self, v: &str, start: usize, from: usize) -> Result<usize, usize> {
        let Some((suffix, tag_end)) = token(v, start, "tool_call") else {
            return Ok(start + CALL.len());
        };
        let close = format!("</tool_call{suffix}>");
        let ends = [close.as_str(), CALL];
        match find_any(v, from.max(tag_end), &ends) {
            Some((at, len)) if v[at..].starts_with(&close) => Ok(at + len),
            // The next call began first: this one ends there, with no closer.
            Some((at, _)) => Ok(at),
            None => Err(hold_back_any(v, &ends).max(from.max(tag_end))),
        }
    }
}

/// The token `<{name}{suffix}>` at `at`: its suffix (colon included) and where it ends.
fn token<'t>(t: &'t str, at: usize, name: &str) -> Option<(&'t str, usize)> {
    let rest = t.get(at..)?.strip_prefix('<')?.strip_prefix(name)?;
    match suffix_len(rest.as_bytes()) {
        Suffix::Len(len) => Some((&rest[..len], at + 1 + name.len() + len + 1)),
        _ => None,
    }
}

/// What ends a call's name: its separator, its first key, its closer, or the next call.
fn delimiters(suffix: &str) -> [String; 4] {
    [
        format!("<tool_sep{suffix}>"),
        format!("<arg_key{suffix}>"),
        format!("</tool_call{suffix}>"),
        CALL.to_owned(),
    ]
}

/// A tool's name: not empty, no white space, `<`, `>` or control characters.
fn tool_name(text: &str) -> Option<&str> {
    let name = text.trim();
    let ok = !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>');
    ok.then_some(name)
}

/// Reads the call whose opener is at `start` into `found`, if it is one; returns where to
/// look for the next call.
fn read_call(t: &str, start: usize, found: &mut Found) -> usize {
    let Some((suffix, body_start)) = token(t, start, "tool_call") else {
        return start + CALL.len();
    };
    let close = format!("</tool_call{suffix}>");
    let ends = [close.as_str(), CALL];
    let (body_end, end) = match find_any(t, body_start, &ends) {
        Some((at, len)) if t[at..].starts_with(&close) => (at, at + len),
        other => {
            let next = other.map_or(t.len(), |(at, _)| at);
            found.drop_call(start..next, "a call was cut off (its closer never came)");
            return next;
        }
    };
    let body = &t[body_start..body_end];
    match call(body, suffix, &mut found.calls) {
        Some(()) => found.taken.push(start..end),
        None => found.drop_call(start..end, "a call's name or arguments could not be read"),
    }
    end
}

/// A call's body: its name, then `<tool_sep>` and key and value pairs (each tag with the
/// suffix), put in `calls`. `None`, with nothing put, when the name is not one or an
/// argument is not a whole pair.
fn call(body: &str, suffix: &str, calls: &mut Calls) -> Option<()> {
    let [sep, key, ..] = delimiters(suffix);
    let key_close = format!("</arg_key{suffix}>");
    let value_open = format!("<arg_value{suffix}>");
    let value_close = format!("</arg_value{suffix}>");
    let name_end = [body.find(&sep), body.find(&key)]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(body.len());
    let name = tool_name(&body[..name_end])?.to_owned();
    let mut rest = body[name_end..]
        .strip_prefix(sep.as_str())
        .unwrap_or(&body[name_end..]);
    let mut arguments = Args::new(calls);
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let k = rest.strip_prefix(key.as_str())?;
        let k_end = k.find(&key_close)?;
        let after_key = k[k_end + key_close.len()..].trim_start();
        let v = after_key.strip_prefix(value_open.as_str())?;
        let v_end = v.find(&value_close)?;
        arguments.insert(k[..k_end].trim().to_owned(), &v[..v_end]);
        rest = &v[v_end + value_close.len()..];
    }
    arguments.push(calls, Named::new(name, None));
    Some(())
}
