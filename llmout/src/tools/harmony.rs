//! gpt-oss harmony: messages `<|start|>ROLE<|channel|>NAME … <|message|>BODY` ended by
//! `<|end|>`, `<|call|>`, `<|return|>`, the next `<|start|>`, or the end of the text. `final`
//! (and `commentary` without recipient) is content, `analysis` is reasoning, a message
//! addressed `to=functions.name` is a call, the recipient written in the role
//! (`<|start|>assistant to=functions.x<|channel|>commentary json<|message|>`, the standard
//! form) or after the channel (`<|channel|>commentary to=functions.x`). A call whose JSON was
//! cut off is content; one ended by its `<|call|>` with no JSON in it is a call with no
//! arguments (text that is no JSON there is said).

use serde_json::Map;

use super::family::{Family, Found, Head, Named};
use super::read::{lenient_call, ArgNotes, End};
use super::stream::window;
use super::{ToolCall, MAX_HEAD};

pub(crate) struct Harmony;

const MSG: &str = "<|message|>";

impl Family for Harmony {
    fn markers(&self) -> &'static [&'static str] {
        &["<|start|>", "<|channel|>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        const ENDS: [&str; 4] = ["<|end|>", "<|call|>", "<|return|>", "<|start|>"];
        let mut content = String::new();
        let mut at = 0;
        let mut messages = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(MSG)) {
            messages += 1;
            let header = t.get(at..at + i).unwrap_or_default();
            let body_start = at + i + MSG.len();
            // End markers are looked for only before the next message: linear in the text.
            let all = t.get(body_start..).unwrap_or_default();
            let rest = &all[..all.find(MSG).unwrap_or(all.len())];
            let (body_len, end) = ENDS
                .iter()
                .filter_map(|e| {
                    rest.find(e)
                        .map(|j| (j, if *e == "<|start|>" { j } else { j + e.len() }))
                })
                .min()
                .unwrap_or((rest.len(), rest.len()));
            let body = &rest[..body_len];
            // (A call ended by its marker is whole: a brace left open was forgotten.)
            let ended = if body_len < rest.len() {
                End::Closed
            } else {
                End::Open
            };
            at = body_start + end;
            let called = match harmony_header(header) {
                (true, _) => continue,
                (false, Some(name)) => {
                    let trimmed = body.trim();
                    // (`end > body_len`: ended by `<|call|>`, `<|end|>` or `<|return|>`,
                    // not by the next message.)
                    let json = trimmed.starts_with(['{', '[', '"'])
                        || serde_json::from_str::<serde::de::IgnoredAny>(trimmed).is_ok();
                    if end > body_len && !json {
                        // Ended by its marker with no JSON: a call with no arguments (none
                        // written, or text that is no JSON, which is said).
                        let notes = if trimmed.is_empty() {
                            ArgNotes::default()
                        } else {
                            ArgNotes::no_json(trimmed)
                        };
                        let call = ToolCall {
                            id: None,
                            name,
                            arguments: Map::new(),
                        };
                        found.push_call(call, notes);
                        true
                    } else {
                        let named = Named::new(name, None);
                        lenient_call(body, found, "a harmony call", ended, named)
                    }
                }
                (false, None) => false,
            };
            if !called && !body.trim().is_empty() {
                if !content.is_empty() {
                    content.push('\n');
                }
                content.push_str(body.trim());
            }
        }
        // With no message at all, the text is content as it stands.
        if messages > 0 {
            let trimmed = content.trim();
            found.content = Some((!trimmed.is_empty()).then(|| trimmed.to_owned()));
        }
    }

    fn openers(&self) -> &'static [&'static str] {
        &["<|start|>", "<|channel|>"]
    }

    fn closers(&self) -> &'static [&'static str] {
        &["<|call|>", "<|end|>", "<|return|>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let Some(m) = window(v, head).find(MSG) else {
            return Head::Wait;
        };
        let body = head + m + MSG.len();
        match harmony_header(&v[head..head + m]) {
            (true, _) | (_, None) => Head::Skip(body),
            (false, Some(name)) => {
                // The arguments' JSON, looked for in this message only.
                let text = window(v, body);
                let ended = ["<|call|>", "<|end|>", "<|return|>", "<|start|>", MSG]
                    .iter()
                    .enumerate()
                    .filter_map(|(k, e)| Some((text.find(e)?, k)))
                    .min();
                let within = &text[..ended.map_or(text.len(), |(at, _)| at)];
                match (within.find('{'), ended) {
                    (Some(b), _) => Head::Args(Named::new(name, None), body + b),
                    // Ended by its closer with no JSON: read whole, as `read` reads it (a
                    // call with no arguments); by the next message, no call.
                    (None, Some((_, k))) if k < 3 => Head::Whole(Some(Named::new(name, None))),
                    (None, Some(_)) => Head::Skip(body),
                    (None, None) if v.len() - body > MAX_HEAD => {
                        Head::Stall(body, Some(Named::new(name, None)))
                    }
                    (None, None) => Head::Hold,
                }
            }
        }
    }
}

/// A harmony message header, what comes before `<|message|>`
/// (`<|start|>assistant to=functions.name<|channel|>commentary json`): whether it is
/// reasoning (`analysis`), and the tool it calls, if any.
fn harmony_header(header: &str) -> (bool, Option<String>) {
    let header = header.rsplit("<|start|>").next().unwrap_or(header);
    let channel = header.rsplit("<|channel|>").next().unwrap_or(header);
    let analysis = channel.split_whitespace().next() == Some("analysis");
    let recipient = header
        .split_whitespace()
        .find_map(|w| w.strip_prefix("to="))
        .map(|r| r.split("<|").next().unwrap_or(r));
    let name = recipient.map(|to| to.strip_prefix("functions.").unwrap_or(to).to_owned());
    (analysis, name)
}
