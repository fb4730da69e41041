//! Gemma: `<|tool_call>call:name{…}<tool_call|>` (Gemma 4 sometimes ends it with `<turn|>`),
//! arguments as keys and values with `<|"|>` as the quote token (see [`kv`](super::kv)).

use super::args::Args;
use super::family::{Family, Found, Head, Named};
use super::kv::kv_args;
use super::read::{arguments, elements, lenient, End};
use super::stream::window;
use super::ToolCall;

const QUOTE: &str = "<|\"|>";

pub(crate) struct Gemma;

impl Family for Gemma {
    fn markers(&self) -> &'static [&'static str] {
        &["<|tool_call>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (mut whole, body) in elements(t, 0..t.len(), "<|tool_call>", "<tool_call|>") {
            let mut inner = t.get(body.clone()).unwrap_or_default();
            // Some Gemma 4 replies end a call with `<turn|>`.
            if let Some(turn) = inner.find("<turn|>") {
                inner = &inner[..turn];
                whole.end = body.start + turn + "<turn|>".len();
            }
            if braced_call(inner.trim(), QUOTE, found, "a Gemma call").is_some() {
                found.taken.push(whole);
            }
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &["<tool_call|>", "<turn|>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        braced_head(v, head)
    }
}

/// A call written `call:name{args}` (the `call:` optional), put in `found`'s calls: its
/// name and its arguments, as keys and values (`quote` standing for `"`), or else as
/// lenient JSON. `None`, with nothing put, when it was cut off (a warning says so) or is no
/// call.
pub(crate) fn braced_call(inner: &str, quote: &str, found: &mut Found, what: &str) -> Option<()> {
    let inner = inner.strip_prefix("call:").unwrap_or(inner);
    let brace = inner.find('{')?;
    let name = inner[..brace].trim();
    if name.is_empty() {
        return None;
    }
    let named = Named::new(name, None);
    let mut args = Args::new(&found.calls);
    if kv_args(&inner[brace..], quote, &mut args).is_some() {
        args.push(&mut found.calls, named);
        return Some(());
    }
    let json = lenient(&inner[brace..].replace(quote, "\""), found, what, End::Open)?;
    let (arguments, notes) = arguments(Some(json));
    found.push_call(
        ToolCall {
            id: None,
            name: named.name,
            arguments,
        },
        notes,
    );
    Some(())
}

/// The head of a `call:name{args}` call: its name once the `{` is written; the call is read
/// whole when its closer arrives.
pub(crate) fn braced_head(v: &str, head: usize) -> Head {
    let trimmed = window(v, head).trim_start();
    if "call:".starts_with(trimmed) {
        return Head::Wait;
    }
    let name_part = trimmed.strip_prefix("call:").unwrap_or(trimmed);
    match name_part.find('{') {
        Some(brace) => Head::Whole(Some(Named::new(name_part[..brace].trim(), None))),
        None => Head::Wait,
    }
}
