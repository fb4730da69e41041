//! MiniMax M3: every tag preceded by the namespace token `]<]minimax[>[`, calls
//! `<invoke name="f">` inside `<tool_call>`, each argument an element named after it, whose
//! text is its value (JSON when it parses as JSON) or whose child elements make an object
//! (`<item>` children an array):
//!
//! ```text
//! ]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="get_weather">
//! ]<]minimax[>[<city>Paris]<]minimax[>[</city>
//! ]<]minimax[>[</invoke>]<]minimax[>[</tool_call>
//! ```

use serde_json::{Map, Value};

use super::family::{Family, Found, Head, Named};
use super::params::{name_at, ParamName};
use super::read::{elements, param_value, take_wrappers};
use super::stream::window;
use super::ToolCall;
use crate::{Warning, WarningKind};

const NS: &str = "]<]minimax[>[";
const TOOL_CALL: &str = "]<]minimax[>[<tool_call>";
const TOOL_CALL_END: &str = "]<]minimax[>[</tool_call>";
const INVOKE: &str = "]<]minimax[>[<invoke name=";
const INVOKE_END: &str = "]<]minimax[>[</invoke>";

/// How deep arguments may nest.
const MAX_DEPTH: usize = 64;

pub(crate) struct MinimaxM3;

impl Family for MinimaxM3 {
    fn markers(&self) -> &'static [&'static str] {
        &[TOOL_CALL, INVOKE]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let first = found.taken.len();
        for (whole, body) in elements(t, 0..t.len(), INVOKE, INVOKE_END) {
            if whole.end == body.end && body.end == t.len() {
                found.warnings.push(Warning::new(
                    WarningKind::ItemDropped,
                    format!("/tool_calls/{}", found.calls.len()),
                    "a MiniMax call was cut off; its text is kept as content",
                ));
                continue;
            }
            let Some((name, after, _)) = name_at(ParamName::Quoted, window(t, body.start)) else {
                continue;
            };
            let Some(arguments) = t.get(body.start + after..body.end).and_then(tree) else {
                continue;
            };
            found.calls.push(ToolCall {
                id: None,
                name,
                arguments,
            });
            found.taken.push(whole);
        }
        take_wrappers(t, first, &[(TOOL_CALL, TOOL_CALL_END)], found);
    }

    fn openers(&self) -> &'static [&'static str] {
        &[TOOL_CALL, INVOKE]
    }

    fn closers(&self) -> &'static [&'static str] {
        &[INVOKE_END, TOOL_CALL_END]
    }

    fn head(&self, v: &str, start: usize, head: usize) -> Head {
        if v[start..head] == *TOOL_CALL {
            return Head::Seek(head);
        }
        match name_at(ParamName::Quoted, window(v, head)) {
            Some((name, _, _)) => Head::Whole(Some(Named::new(name, None))),
            None => Head::Wait,
        }
    }
}

/// An element being read: its tag, its text, and its children so far.
struct Node {
    tag: String,
    text: String,
    children: Vec<(String, Value)>,
}

impl Node {
    fn value(self) -> Value {
        if self.children.is_empty() {
            return param_value(self.text.trim());
        }
        if self.children.iter().all(|(tag, _)| tag == "item") {
            return Value::Array(self.children.into_iter().map(|(_, v)| v).collect());
        }
        Value::Object(members(self.children))
    }
}

/// Children as an object: a tag given several times is an array of its values.
fn members(children: Vec<(String, Value)>) -> Map<String, Value> {
    let mut map = Map::new();
    for (tag, value) in children {
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

/// The arguments written in `body` (each tag after the namespace token): `None` when an
/// element is not closed, or closed by another tag's closer.
fn tree(body: &str) -> Option<Map<String, Value>> {
    let mut stack = vec![Node {
        tag: String::new(),
        text: String::new(),
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
            let value = node.value();
            stack.last_mut()?.children.push((tag, value));
        } else if let Some(open) = chunk.strip_prefix('<') {
            let gt = open.find('>')?;
            if stack.len() > MAX_DEPTH {
                return None;
            }
            stack.push(Node {
                tag: open[..gt].trim().to_owned(),
                text: open[gt + 1..].to_owned(),
                children: Vec::new(),
            });
        } else if let Some(node) = stack.last_mut() {
            node.text.push_str(chunk);
        }
    }
    if stack.len() != 1 {
        return None;
    }
    Some(members(stack.pop()?.children))
}
