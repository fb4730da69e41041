//! Pythonic calls (`f(a=1), g()`, maybe in `[…]`) followed as they arrive: each call's name as
//! soon as its `(` is written, the call itself once its `)` is.

use crate::tools::family::Named;
use crate::tools::pythonic::pythonic;
use crate::tools::{ToolCall, MAX_HEAD};

/// A pythonic call being read, from its name to the `)` matching the `(` after it.
#[derive(Debug, Clone)]
pub(super) struct Python {
    pub(super) call: Named,
    start: usize,
    /// Scan position, and the nesting and quoting there.
    at: usize,
    depth: usize,
    quote: Option<u8>,
    escaped: bool,
}

/// A list of pythonic calls (`f(a=1), g()`, maybe in `[…]`): the call being read, or where
/// the next name is read from.
#[derive(Debug, Clone)]
pub(crate) struct PyList {
    pub(super) call: Option<Python>,
    next: usize,
    /// Where the last call read ended (after its `)`).
    last_end: usize,
}

impl PyList {
    pub(crate) fn at(next: usize) -> Self {
        PyList {
            call: None,
            next,
            last_end: next,
        }
    }

    /// The calls at the start of `v[from..]`, which is all written: each call once its `)`
    /// is, until what follows is not a call, each put in `calls` as it is read. Returns where
    /// the last one ended, and whether `v` ended inside a call (its `)` never written) or its
    /// name: all after the calls read is then inside it.
    pub(crate) fn leading(v: &str, from: usize, calls: &mut impl PyCalls) -> (usize, bool) {
        let mut list = PyList::at(from);
        let open = list.read(v, calls).is_none();
        (list.last_end, open)
    }

    /// Reads calls into `calls`. `Some(end)` when the list ended at `end` (what follows is
    /// not another call); `None` when more text is needed.
    pub(crate) fn read(&mut self, v: &str, calls: &mut impl PyCalls) -> Option<usize> {
        loop {
            if let Some(p) = &mut self.call {
                python_step(p, v)?;
                let (start, end) = (p.start, p.at);
                self.call = None;
                if !calls.call(&v[start..end]) {
                    // Not a call after all: the list ends before it.
                    return Some(self.last_end);
                }
                self.next = end;
                self.last_end = end;
                continue;
            }
            // Separators read are not read again.
            self.next += v[self.next..]
                .bytes()
                .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b',' | b'['))
                .count();
            let word = &v[self.next..];
            let ident = word
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
                .count();
            match word.as_bytes().get(ident) {
                None if ident < MAX_HEAD => return None,
                Some(b'(') if ident > 0 && !word.as_bytes()[0].is_ascii_digit() => {
                    let start = self.next;
                    self.call = Some(Python {
                        call: Named {
                            id: None,
                            name: word[..ident].to_owned(),
                        },
                        start,
                        at: start + ident + 1,
                        depth: 0,
                        quote: None,
                        escaped: false,
                    });
                }
                _ => return Some(self.next),
            }
        }
    }
}

/// Where [`PyList`] puts the calls it reads.
pub(crate) trait PyCalls {
    /// Reads the call written as `text`, from its name to its `)`, and keeps it: whether it
    /// is a call, read as `parse` reads it.
    fn call(&mut self, text: &str) -> bool;
}

impl PyCalls for Vec<ToolCall> {
    fn call(&mut self, text: &str) -> bool {
        match pythonic(text).and_then(|c| c.into_iter().next()) {
            Some(call) => {
                self.push(call);
                true
            }
            None => false,
        }
    }
}

/// Scans a pythonic call from `p.at` to its `)`: `None` while it is open, then `Some`, with
/// `p.at` past the `)`.
fn python_step(p: &mut Python, v: &str) -> Option<()> {
    let b = v.as_bytes();
    while p.at < b.len() {
        let c = b[p.at];
        p.at += 1;
        match p.quote {
            Some(q) => {
                if p.escaped {
                    p.escaped = false;
                } else if c == b'\\' {
                    p.escaped = true;
                } else if c == q {
                    p.quote = None;
                }
            }
            None => match c {
                b'"' | b'\'' => p.quote = Some(c),
                b'[' | b'{' | b'(' => p.depth += 1,
                b']' | b'}' => p.depth = p.depth.saturating_sub(1),
                b')' if p.depth > 0 => p.depth -= 1,
                b')' => return Some(()),
                _ => {}
            },
        }
    }
    None
}
