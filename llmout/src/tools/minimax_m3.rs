//! MiniMax M3: every tag preceded by the namespace token `]<]minimax[>[` (white space may
//! come between the token and its tag), calls `<invoke name="f">` inside `<tool_call>`, each
//! argument an element named after it, whose text is its value (JSON when it parses as JSON)
//! or whose child elements make an object (`<item>` children an array); reasoning in
//! `<mm:think>` (left out as reasoning):
//!
//! ```text
//! ]<]minimax[>[<tool_call>
//! ]<]minimax[>[<invoke name="get_weather">
//! ]<]minimax[>[<city>Paris]<]minimax[>[</city>
//! ]<]minimax[>[</invoke>
//! ]<]minimax[>[</tool_call>
//! ```
//!
//! A call is read once its `</invoke>` is written: one cut off, or one that another call or
//! the wrapper's closer ends first, is no call, and its text stays content.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::args::Args;
use super::calls::Calls;
use super::family::{Family, Found, Head, Named};
use super::params::{name_at, ParamName};
use super::read::param_value;
use super::stream::{hold_back, window};
use super::{ToolCall, MAX_HEAD};

pub(crate) const NS: &str = "]<]minimax[>[";

/// How much white space may come between the namespace token and its tag.
pub(crate) const MAX_GAP: usize = 64;

/// How deep arguments may nest.
const MAX_DEPTH: usize = 64;

pub(crate) struct MinimaxM3;

impl Family for MinimaxM3 {
    fn markers(&self) -> &'static [&'static str] {
        &[NS]
    }

    fn read(&self, t: &str, found: &mut Found) {
        // The wrapper open, from where, and how many calls there were when it opened.
        let mut wrapper: Option<(usize, usize)> = None;
        let mut last_end = 0;
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(NS)) {
            let p = at + i;
            at = p + NS.len();
            match tag(t, p, true) {
                At::Tag(Kind::Invoke, name) => {
                    let before = found.calls.len();
                    at = read_invoke(t, p, name, found);
                    if found.calls.len() > before {
                        last_end = at;
                    }
                }
                At::Tag(Kind::ToolCall, end) => {
                    take_wrapper(wrapper.take(), last_end, found);
                    wrapper = Some((p, found.calls.len()));
                    at = end;
                }
                At::Tag(Kind::ToolCallEnd, end) => {
                    if let Some((start, calls)) = wrapper.take() {
                        if found.calls.len() > calls {
                            found.taken.push(start..end);
                        }
                    }
                    at = end;
                }
                _ => {}
            }
        }
        take_wrapper(wrapper, last_end, found);
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        match tag(v, start, false) {
            At::Partial => Head::Hold,
            At::Tag(Kind::Invoke, name) => match name_at(ParamName::Quoted, window(v, name)) {
                Some((name, _, _)) => Head::Whole(Some(Named::new(name, None))),
                None if window(v, name).len() > MAX_HEAD => Head::Seek(head),
                None => Head::Hold,
            },
            At::Tag(_, end) => Head::Seek(end),
            At::None => Head::Seek(head),
        }
    }

    fn whole_end(&self, v: &str, start: usize, from: usize) -> Result<usize, usize> {
        let mut at = from.max(start + NS.len());
        while let Some(i) = v.get(at..).and_then(|s| s.find(NS)) {
            let p = at + i;
            match tag(v, p, false) {
                At::Tag(Kind::InvokeEnd, end) => return Ok(end),
                // Another call, or the wrapper's end, before this call's closer.
                At::Tag(Kind::Invoke | Kind::ToolCall | Kind::ToolCallEnd, _) => return Ok(p),
                At::Partial => return Err(p),
                At::Tag(Kind::Other, _) | At::None => at = p + NS.len(),
            }
        }
        Err(hold_back(v, NS).max(at.min(v.len())))
    }
}

/// The wrapper opened at `.0` when `.1` calls had been read: taken up to the end of its last
/// call when calls were read in it (its closer never came).
fn take_wrapper(wrapper: Option<(usize, usize)>, last_end: usize, found: &mut Found) {
    if let Some((start, calls)) = wrapper {
        if found.calls.len() > calls {
            found.taken.push(start..last_end);
        }
    }
}

/// The tags the reader tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ToolCall,
    ToolCallEnd,
    /// `<invoke name=`; the offset given is where the name starts.
    Invoke,
    InvokeEnd,
    /// Any other tag (an argument's).
    Other,
}

/// What follows a namespace token.
enum At {
    /// A tag, and where it ends (for `Invoke`, where its name starts).
    Tag(Kind, usize),
    /// The text ends before it is known (`complete` false only).
    Partial,
    /// No tag: the token is text.
    None,
}

/// The tag after the namespace token at `at` in `t`, past up to [`MAX_GAP`] bytes of white
/// space. `complete`: the text is whole (what it ends inside is no tag).
fn tag(t: &str, at: usize, complete: bool) -> At {
    let b = t.as_bytes();
    let mut i = at + NS.len();
    let gap_end = (i + MAX_GAP).min(b.len());
    while i < gap_end && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    let rest = &b[i..];
    if rest.is_empty() {
        return if complete || i - at - NS.len() >= MAX_GAP {
            At::None
        } else {
            At::Partial
        };
    }
    if rest[0] != b'<' {
        return At::None;
    }
    const KNOWN: [(&str, Kind); 4] = [
        ("<tool_call>", Kind::ToolCall),
        ("</tool_call>", Kind::ToolCallEnd),
        ("<invoke name=", Kind::Invoke),
        ("</invoke>", Kind::InvokeEnd),
    ];
    for (text, kind) in KNOWN {
        if rest.starts_with(text.as_bytes()) {
            return At::Tag(kind, i + text.len());
        }
        if !complete && text.as_bytes().starts_with(rest) {
            return At::Partial;
        }
    }
    // An argument's tag ends within a bounded distance, or it is no tag.
    let limit = rest.len().min(MAX_HEAD);
    match rest[..limit].iter().position(|&c| c == b'>') {
        Some(gt) => At::Tag(Kind::Other, i + gt + 1),
        None if complete || rest.len() >= MAX_HEAD => At::None,
        None => At::Partial,
    }
}

/// Reads the call whose opener (its namespace token) is at `start`, its name at `name`, into
/// `found`, if it is one; returns where to look for the next call.
fn read_invoke(t: &str, start: usize, name_start: usize, found: &mut Found) -> usize {
    let Some((name, after, _)) = name_at(ParamName::Quoted, window(t, name_start)) else {
        return start + NS.len();
    };
    let body_start = name_start + after;
    let mut at = body_start;
    while let Some(i) = t.get(at..).and_then(|s| s.find(NS)) {
        let p = at + i;
        match tag(t, p, true) {
            At::Tag(Kind::InvokeEnd, end) => {
                let body = t.get(body_start..p);
                match body.and_then(|body| call(body, name, &mut found.calls)) {
                    Some(()) => found.taken.push(start..end),
                    None => {
                        found.drop_call(start..end, "a MiniMax call's arguments could not be read")
                    }
                }
                return end;
            }
            At::Tag(Kind::Invoke | Kind::ToolCall | Kind::ToolCallEnd, _) => {
                found.drop_call(start..p, "a MiniMax call has no closer");
                return p;
            }
            _ => at = p + NS.len(),
        }
    }
    found.drop_call(start..t.len(), "a MiniMax call was cut off");
    t.len()
}

/// An element being read: its tag, its text (borrowed while it is one piece of the reply),
/// and its children so far.
struct Node<'a> {
    tag: String,
    text: Cow<'a, str>,
    children: Vec<(String, Child<'a>)>,
}

/// A closed element: a text element's text (read as a parameter's text is, once it is
/// needed), or the value its children make.
enum Child<'a> {
    Text(Cow<'a, str>),
    Value(Value),
}

impl<'a> Node<'a> {
    /// The element closed.
    fn child(self) -> Child<'a> {
        if self.children.is_empty() {
            return Child::Text(self.text);
        }
        if self.children.iter().all(|(tag, _)| tag == "item") {
            let items = self.children.into_iter().map(|(_, c)| c.value());
            return Child::Value(Value::Array(items.collect()));
        }
        Child::Value(Value::Object(members(self.children)))
    }
}

impl Child<'_> {
    fn value(self) -> Value {
        match self {
            Child::Text(text) => param_value(text.trim()),
            Child::Value(v) => v,
        }
    }
}

/// Children as an object: a tag given several times is an array of its values.
fn members(children: Vec<(String, Child<'_>)>) -> Map<String, Value> {
    let mut map = Map::new();
    for (tag, child) in children {
        let value = child.value();
        match map.get_mut(&tag) {
            Some(Value::Array(items)) => items.push(value),
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, value]);
            }
            None => {
                map.insert(tag, value);
            }
        }
    }
    map
}

/// The call `name` whose arguments are written in `body`, put in `calls`: `None`, with
/// nothing put, when an element is not closed, or closed by another tag's closer. Where
/// calls are written as they come and no argument is given twice, each is written as it is
/// read ([`Args`]): a text argument of 100 MB is never a value.
fn call(body: &str, name: String, calls: &mut Calls) -> Option<()> {
    let arguments = tree(body)?;
    let named = Named::new(name, None);
    let repeated = || {
        let mut tags: Vec<&str> = arguments.iter().map(|(tag, _)| tag.as_str()).collect();
        tags.sort_unstable();
        tags.windows(2).any(|w| w[0] == w[1])
    };
    if !calls.is_written() || repeated() {
        calls.push(ToolCall {
            id: named.id,
            name: named.name,
            arguments: members(arguments),
        });
        return Some(());
    }
    let mut args = Args::new(calls);
    for (tag, child) in arguments {
        match child {
            Child::Text(text) => args.insert(tag, text.trim()),
            Child::Value(v) => args.insert_value(tag, v),
        }
    }
    args.push(calls, named);
    Some(())
}

/// The arguments written in `body` (each tag after the namespace token), as elements:
/// `None` when an element is not closed, or closed by another tag's closer.
fn tree(body: &str) -> Option<Vec<(String, Child<'_>)>> {
    let mut stack = vec![Node {
        tag: String::new(),
        text: Cow::Borrowed(""),
        children: Vec::new(),
    }];
    for chunk in body.split(NS) {
        let chunk = chunk.trim_start();
        if let Some(close) = chunk.strip_prefix("</") {
            let tag = close[..close.find('>')?].trim();
            if stack.len() < 2 || stack.last()?.tag != tag {
                return None;
            }
            let node = stack.pop()?;
            let tag = node.tag.clone();
            let child = node.child();
            stack.last_mut()?.children.push((tag, child));
        } else if let Some(open) = chunk.strip_prefix('<') {
            let gt = open.find('>')?;
            if stack.len() > MAX_DEPTH {
                return None;
            }
            stack.push(Node {
                tag: open[..gt].trim().to_owned(),
                text: Cow::Borrowed(&open[gt + 1..]),
                children: Vec::new(),
            });
        } else if let Some(node) = stack.last_mut() {
            node.text.to_mut().push_str(chunk);
        }
    }
    if stack.len() != 1 {
        return None;
    }
    Some(stack.pop()?.children)
}
