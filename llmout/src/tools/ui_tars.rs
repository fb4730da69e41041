//! `Action:` lines. UI-TARS: `Thought: …` then `Action: click(start_box='(1,2)')`, the actions
//! pythonic calls and the thought content. Cohere Command R (before Command A's
//! `<|START_ACTION|>`): `Action:` then a fenced JSON list of
//! `{"tool_name", "parameters"}` calls. `Action:` is also an English word: it is a marker
//! only where a call starts after it (a name and `(`, or JSON, maybe fenced), so that a reply
//! whose `Action:` is prose is read as if it had no marker. An action that never closes (its
//! JSON, or its call's `)`, never written) holds the rest of the reply, as the stream reads
//! it: no `Action:` after it starts a call.

use super::family::{Family, Found, Head};
use super::outside;
use super::pythonic::{leading_calls_open, starts_pythonic};
use super::read::{json_end, value_calls, End};
use super::stream::window;
use super::MAX_HEAD;

const MARKER: &str = "Action:";

pub(crate) struct UiTars;

impl Family for UiTars {
    fn markers(&self) -> &'static [&'static str] {
        &[MARKER]
    }

    fn read(&self, t: &str, found: &mut Found) {
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(MARKER)) {
            let start = at + i;
            let body = start + MARKER.len();
            at = body;
            // JSON starts within the window the stream looks at, or not at all.
            if let Ok(Some((offset, fenced))) = json_start(window(t, body)) {
                let value = body + offset;
                let Some(whole) = json_end(&t[value..]) else {
                    // The value runs to the end of the reply: all after it is inside it (as
                    // the stream reads it), no `Action:` there starts a call, and it is read
                    // once (one read a marker would make this quadratic).
                    if let Some(len) = value_calls(&t[value..], found, "an action", End::Open) {
                        found.taken.push(start..value + len);
                    }
                    break;
                };
                if let Some(len) =
                    value_calls(&t[value..value + whole], found, "an action", End::Open)
                {
                    let mut end = value + len;
                    let rest = &t[end..];
                    let after = rest.trim_start();
                    if fenced && after.starts_with("```") {
                        end += rest.len() - after.len() + 3;
                    }
                    found.taken.push(start..end);
                    at = end;
                }
                continue;
            }
            // Pythonic calls, as the stream reads them: each up to its `)`, until what follows
            // is not a call.
            let (calls, end, open) = leading_calls_open(t, body..t.len());
            if !calls.is_empty() {
                found.calls.extend(calls);
                found.taken.push(start..end);
                at = end;
            }
            if open {
                // A call whose `)` is never written runs to the end of the reply: all after it
                // is inside it (as the stream reads it), no `Action:` there starts a call, and
                // the rest is read once (reading it again at each marker was quadratic).
                break;
            }
        }
        if found.calls.is_empty() {
            return;
        }
        if let Some(content) = outside(t, &found.taken, &found.kept, &[]) {
            let content = content
                .strip_prefix("Thought:")
                .unwrap_or(&content)
                .trim()
                .to_owned();
            found.content = Some((!content.is_empty()).then_some(content));
        }
    }

    fn opens(&self, t: &str, after: usize, complete: bool) -> Option<bool> {
        let text = window(t, after);
        let starts = match json_start(text) {
            Ok(Some(_)) => Some(true),
            Ok(None) => starts_pythonic(text),
            Err(()) => None,
        };
        match starts {
            Some(starts) => Some(starts),
            // Undecided when the reply is whole, or the window full: no call starts here.
            None if complete || text.len() > MAX_HEAD => Some(false),
            None => None,
        }
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        let text = window(v, head);
        match json_start(text) {
            Ok(Some((offset, _))) => Head::Body(head + offset),
            Ok(None) => Head::Python(head),
            // As `read` decides on the same window.
            Err(()) if text.len() > MAX_HEAD => Head::Python(head),
            Err(()) => Head::Hold,
        }
    }
}

/// Where a JSON value of calls starts in `text`, the text after `Action:`: past white space
/// and a fence line (`` ```json ``), `Ok(Some((offset, fenced)))`; `Ok(None)` when none does
/// (pythonic calls may); `Err(())` when the text ends before that can be told.
fn json_start(text: &str) -> Result<Option<(usize, bool)>, ()> {
    let trimmed = text.trim_start();
    let lead = text.len() - trimmed.len();
    if let Some(after) = trimmed.strip_prefix("```") {
        let info = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
        let line = &after[info..];
        let line = line.trim_start_matches([' ', '\t']);
        // The value on the fence's line, or on the lines after it.
        let next = match line.as_bytes().first() {
            Some(b'[' | b'{') => line,
            _ => match line
                .strip_prefix('\n')
                .or_else(|| line.strip_prefix("\r\n"))
            {
                Some(next) => next,
                None if line.is_empty() => return Err(()),
                None => return Ok(None),
            },
        };
        let value = next.trim_start();
        return match value.as_bytes().first() {
            None => Err(()),
            Some(b'[' | b'{') => Ok(Some((text.len() - value.len(), true))),
            Some(_) => Ok(None),
        };
    }
    match trimmed.as_bytes().first() {
        None => Err(()),
        Some(b'`') if "```".starts_with(trimmed) => Err(()),
        Some(b'{') => Ok(Some((lead, false))),
        Some(b'[') => match starts_pythonic(trimmed) {
            None => Err(()),
            Some(true) => Ok(None),
            Some(false) => Ok(Some((lead, false))),
        },
        Some(_) => Ok(None),
    }
}
