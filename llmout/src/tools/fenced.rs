//! JSON calls in the markdown fences after a reply's first calls, where no family's marker
//! is written: a model that puts each call in a fence of its own.
//!
//! One walk serves [`parse`](super::parse) (the whole text) and the stream (the text so far):
//! it decides nothing on a line that has not ended, and reads a fence's JSON once its value
//! has closed, with the reader the first calls were read with. So the calls the stream shows
//! are always the first calls `parse` finds, and at the end all of them.

use std::ops::Range;

use super::family::Found;
use super::json::{separators, warn_if_cut_off_calls};
use super::json_text::Repaired;
use super::read::JsonEnd;
use crate::repair::RepairKind;

/// The fences of a reply as extraction reads them: an opener line of three or more
/// backticks or tildes (indented or not) with an info string (no backtick in it after
/// backticks); the closer a line of at least as many of the same character and nothing
/// else; a fence left open runs to the end. In each fence opened from `from` on, the JSON
/// calls its body starts with (one value, or several separated by `;`, commas or white
/// space) are calls; what else the fence holds stays content.
#[derive(Debug, Clone)]
pub(crate) struct LaterFences {
    from: usize,
    /// Where the walk resumes.
    pos: usize,
    /// Where the search for the end of the line at `pos` resumes.
    seen: usize,
    state: State,
}

#[derive(Debug, Clone)]
enum State {
    /// Outside a fence, at the start of a line.
    Out,
    /// Inside a fence, at the start of a line (`line_start`) or inside one.
    In { fence: Fence, line_start: bool },
    /// At the start of a fence's body, past white space: calls may start here. `line` is
    /// where the line `pos` is on starts.
    Body { fence: Fence, line: usize },
    /// A JSON value in a fence's body, from `start`.
    Value {
        fence: Fence,
        start: usize,
        end: JsonEnd,
    },
    /// After a fence's calls: separators, and maybe more calls.
    After(Fence),
}

#[derive(Debug, Clone)]
struct Fence {
    /// The fence character and how many of it opened the fence.
    ch: u8,
    n: usize,
    /// Where the opener's run starts.
    opener: usize,
    /// The calls read in it, from the first one's start to the last one's end.
    calls: Option<Range<usize>>,
}

/// The line's indentation, and the fence character and how many of it start the line after
/// it (three or more).
fn fence_run(line: &str) -> Option<(usize, u8, usize)> {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let rest = &line.as_bytes()[indent..];
    let ch = *rest.first().filter(|c| matches!(c, b'`' | b'~'))?;
    let n = rest.iter().take_while(|c| **c == ch).count();
    (n >= 3).then_some((indent, ch, n))
}

impl LaterFences {
    /// A walk from the start of the text, that reads calls in the fences opened from `from`
    /// on.
    pub(crate) fn new(from: usize) -> Self {
        LaterFences {
            from,
            pos: 0,
            seen: 0,
            state: State::Out,
        }
    }

    /// Where the JSON value being read in a fence starts, while it is open.
    pub(crate) fn open_value(&self) -> Option<usize> {
        match self.state {
            State::Value { start, .. } => Some(start),
            _ => None,
        }
    }

    /// Walks `t` (the text walked before, grown; `whole`: all of it) on from where it
    /// stopped: the calls found are put in `found`, and the text they take.
    pub(crate) fn walk(&mut self, t: &str, whole: bool, found: &mut Found) {
        while self.pos <= t.len() {
            let state = std::mem::replace(&mut self.state, State::Out);
            match self.step(state, t, whole, found) {
                Ok(next) => self.state = next,
                Err(wait) => {
                    self.state = wait;
                    break;
                }
            }
        }
        if whole {
            // A fence left open runs to the end; a value left open is no call.
            if let State::Value { start, .. } = &self.state {
                warn_if_cut_off_calls(&t[*start..], found);
            }
            if let State::In { fence, .. } | State::After(fence) | State::Value { fence, .. } =
                &self.state
            {
                found.taken.extend(fence.calls.clone());
            }
        }
    }

    /// The end of the line at `pos` (before its `\n`), once it has ended (`whole`: the
    /// text's end ends it too).
    fn line_end(&mut self, t: &str, whole: bool) -> Option<usize> {
        let from = self.seen.max(self.pos);
        match memchr::memchr(b'\n', &t.as_bytes()[from..]) {
            Some(k) => Some(from + k),
            None => {
                self.seen = t.len();
                whole.then_some(t.len())
            }
        }
    }

    /// One step from `state`: the next state, or the state to wait in for more text.
    fn step(
        &mut self,
        state: State,
        t: &str,
        whole: bool,
        found: &mut Found,
    ) -> Result<State, State> {
        match state {
            State::Out => {
                let Some(end) = self.line_end(t, whole).filter(|&e| e < t.len()) else {
                    // An opener needs its line ended and a body after it.
                    return Err(State::Out);
                };
                let line = &t[self.pos..end];
                let next = match fence_run(line) {
                    Some((indent, ch, n))
                        if ch == b'~' || !line.as_bytes()[indent + n..].contains(&b'`') =>
                    {
                        let fence = Fence {
                            ch,
                            n,
                            opener: self.pos + indent,
                            calls: None,
                        };
                        if fence.opener >= self.from {
                            State::Body {
                                fence,
                                line: end + 1,
                            }
                        } else {
                            State::In {
                                fence,
                                line_start: true,
                            }
                        }
                    }
                    _ => State::Out,
                };
                self.pos = end + 1;
                Ok(next)
            }
            State::In { fence, line_start } => {
                let Some(end) = self.line_end(t, whole) else {
                    return Err(State::In { fence, line_start });
                };
                let line = &t[self.pos..end];
                let closes = line_start
                    && fence_run(line).is_some_and(|(indent, ch, n)| {
                        ch == fence.ch && n >= fence.n && line[indent + n..].trim().is_empty()
                    });
                let next = if closes {
                    if let Some(calls) = fence.calls {
                        // A fence that holds nothing but calls is no content either.
                        let only_calls = t[calls.end..self.pos].trim().is_empty();
                        let run_end = self.pos + line.trim_end().len();
                        found.taken.push(if only_calls {
                            fence.opener..run_end
                        } else {
                            calls
                        });
                    }
                    State::Out
                } else {
                    State::In {
                        fence,
                        line_start: true,
                    }
                };
                self.pos = end + 1;
                Ok(next)
            }
            State::Body { fence, line } => {
                let blank = t[self.pos..]
                    .bytes()
                    .take_while(u8::is_ascii_whitespace)
                    .count();
                let at = self.pos + blank;
                // The start of the line `at` is on.
                let line = t[self.pos..at]
                    .rfind('\n')
                    .map_or(line, |k| self.pos + k + 1);
                self.pos = at;
                match t.as_bytes().get(at) {
                    None => Err(State::Body { fence, line }),
                    Some(b'{' | b'[') => Ok(State::Value {
                        fence,
                        start: at,
                        end: JsonEnd::default(),
                    }),
                    Some(_) => {
                        // Not calls: the fence goes on from that line.
                        self.pos = line;
                        Ok(State::In {
                            fence,
                            line_start: true,
                        })
                    }
                }
            }
            State::Value {
                mut fence,
                start,
                mut end,
            } => {
                let Some(len) = end.read(&t[start..]) else {
                    return Err(State::Value { fence, start, end });
                };
                let value_end = start + len;
                self.pos = value_end;
                let calls = Repaired::read(&t[start..value_end], found)
                    .ok()
                    .filter(|(_, repairs)| repairs.iter().all(|r| r.kind != RepairKind::Truncated))
                    .is_some_and(|(value, _)| value.into_calls(found));
                if !calls {
                    return Ok(State::In {
                        fence,
                        line_start: false,
                    });
                }
                let first = fence.calls.map_or(start, |c| c.start);
                fence.calls = Some(first..value_end);
                Ok(State::After(fence))
            }
            State::After(fence) => {
                let at = self.pos + separators(&t[self.pos..]);
                self.pos = at;
                let Some(&c) = t.as_bytes().get(at) else {
                    return Err(State::After(fence));
                };
                if c == b'{' || c == b'[' {
                    return Ok(State::Value {
                        fence,
                        start: at,
                        end: JsonEnd::default(),
                    });
                }
                // The fence goes on: from the line `c` is on if it starts one.
                let calls_end = fence.calls.as_ref().map_or(at, |c| c.end);
                let line = t[calls_end..at].rfind('\n').map(|k| calls_end + k + 1);
                self.pos = line.unwrap_or(at);
                Ok(State::In {
                    fence,
                    line_start: line.is_some(),
                })
            }
        }
    }
}
