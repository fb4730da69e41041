//! Tool calls while the reply is still arriving: each call's name as soon as it is known, its
//! arguments as they arrive.
//!
//! Feed a [`Stream`] the chunks of a reply. After each, [`Stream::calls`] holds the calls
//! whose text has ended, and [`Stream::current`] the call being written: its name (and id)
//! once written, and its arguments so far with a completion state per field, as
//! [`stream::Partial`](crate::stream::Partial) gives them for [`crate::Stream`].
//! [`Stream::finish`] returns exactly what [`parse`] returns on the whole text.
//!
//! # How
//!
//! * Reasoning blocks are left out as they arrive. The family is the first tool-call marker
//!   in the visible text, as for [`parse`] (markers are met in text order, so
//!   the first one seen is the earliest); with no marker, a JSON value or a pythonic call list
//!   in the prose is read as the calls, and a marker appearing later takes over.
//! * Each family has a resumable reader: it finds a call's opener, reads its name when the
//!   name's delimiter has arrived, then its arguments. JSON arguments (and JSON calls, whose
//!   name is inside) are followed by the same incremental scanner as the typed stream;
//!   `<parameter>`-style arguments (Anthropic, Qwen3-Coder, GLM) complete one parameter at a
//!   time, the one being written shown as text so far. Python-literal arguments (pythonic
//!   calls, UI-TARS, Gemma) are shown once their call has closed; their names show as soon as
//!   the `(` or `{` after them arrives.
//! * A call ends when its arguments end (or its closer arrives); its text is then read once
//!   with the same functions [`parse`] uses, so it is the call `finish` will
//!   give. JSON the live scanner does not follow (unquoted keys, say) stalls the view of that
//!   call until its closer arrives, when it is read with the lenient parser.
//! * Every byte is scanned a bounded number of times: a chunk costs its own length, plus the
//!   text of the calls it completes, read once. The name of a call is looked for in at most
//!   [`MAX_HEAD`] bytes after its opener.
//!
//! ```
//! use llmout::stream::FieldState;
//! use llmout::tools::Stream;
//!
//! let mut s = Stream::new();
//! s.push("Let me check. <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par");
//! let call = s.current().unwrap();
//! assert_eq!(call.name, Some("get_weather"));
//! assert_eq!(call.arguments().unwrap()["city"], "Par");
//! assert_eq!(call.state("/city"), FieldState::InProgress);
//! s.push("is\", \"days\": 3}}</tool_call>");
//! assert_eq!(s.calls()[0].name, "get_weather");
//! assert_eq!(s.calls()[0].arguments["days"], 3);
//! assert!(s.current().is_none());
//! let r = s.finish();
//! assert_eq!(r.content.as_deref(), Some("Let me check."));
//! assert_eq!(r.tool_calls.len(), 1);
//! ```

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{
    arguments, call_from_json, harmony_header, kimi_name, mistral_head, param_value, parse,
    parse_with_tools, pythonic, quoted_attr, Family, ToolCall, ToolCallResponse, ToolDef, MARKERS,
    NS_INVOKE, NS_INVOKE_CLOSE, NS_PARAM, NS_PARAM_CLOSE,
};
use crate::repair::{self, RepairOptions};
use crate::stream::{FieldState, Partial, ValueScan};

/// How far after a call's opener its name (and id) is looked for. A model writing more than
/// this before the name ends is not followed live; [`Stream::finish`] still reads the call.
pub const MAX_HEAD: usize = 512;

/// A reply arriving in chunks, its tool calls read as they come; see the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct Stream {
    text: String,
    reasoning: Reasoning,
    visible: String,
    live: Live,
}

/// The call being written (see [`Stream::current`]).
#[derive(Debug, Clone)]
pub struct CallInProgress<'a> {
    /// Its id, once written (for the formats that carry one).
    pub id: Option<&'a str>,
    /// Its name, once written in full.
    pub name: Option<&'a str>,
    /// What is written so far, and the pointer of the arguments in it (`None`: not started,
    /// or shown only once complete).
    partial: Option<&'a Partial>,
    base: Option<String>,
}

impl<'a> CallInProgress<'a> {
    fn named(call: &'a Named) -> Self {
        CallInProgress {
            id: call.id.as_deref(),
            name: Some(&call.name),
            partial: None,
            base: None,
        }
    }

    fn with_arguments(self, partial: &'a Partial, base: Option<String>) -> Self {
        CallInProgress {
            partial: Some(partial),
            base,
            ..self
        }
    }

    /// The arguments written so far: `None` until they start, or for formats whose arguments
    /// are shown only once the call is complete (pythonic calls, UI-TARS, Gemma).
    pub fn arguments(&self) -> Option<&'a Value> {
        self.partial?.get(self.base.as_deref()?)
    }

    /// The completion state of the argument at a JSON pointer (`""` for all of them).
    pub fn state(&self, pointer: &str) -> FieldState {
        match (self.partial, &self.base) {
            (Some(p), Some(base)) => p.state(&format!("{base}{pointer}")),
            _ => FieldState::NotStarted,
        }
    }

    /// The argument at `pointer` as a `U`, once it is [`FieldState::Complete`].
    pub fn complete_as<U: DeserializeOwned>(&self, pointer: &str) -> Option<U> {
        let base = self.base.as_deref()?;
        self.partial?.complete_as(&format!("{base}{pointer}"))
    }
}

impl Stream {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a chunk of the reply.
    pub fn push(&mut self, chunk: &str) {
        self.text.push_str(chunk);
        if self.reasoning.advance(&self.text, &mut self.visible) {
            // A closer with no opener: everything so far was reasoning.
            self.live = Live::default();
        }
        self.live.advance(&self.visible);
    }

    /// The calls whose text has ended, in order.
    pub fn calls(&self) -> &[ToolCall] {
        &self.live.calls
    }

    /// The call being written, if any.
    pub fn current(&self) -> Option<CallInProgress<'_>> {
        self.live.current()
    }

    /// Whether the live view of the current call stopped at syntax it does not follow; the
    /// call is read when it ends, and [`finish`](Stream::finish) reads everything.
    pub fn stalled(&self) -> bool {
        self.live.stalled()
    }

    /// All the text received so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The reply is complete: exactly [`parse`] on the whole text.
    pub fn finish(self) -> ToolCallResponse {
        parse(&self.text)
    }

    /// The reply is complete: exactly [`parse_with_tools`] on the
    /// whole text.
    pub fn finish_with_tools(self, tools: &[ToolDef]) -> ToolCallResponse {
        parse_with_tools(&self.text, tools)
    }
}

// ----- reasoning ----------------------------------------------------------------------------

/// Leaves reasoning blocks out of text as it arrives, as
/// [`visible_segments`](crate::extract::visible_segments) does for a whole text.
#[derive(Debug, Clone, Default)]
struct Reasoning {
    pos: usize,
    inside: bool,
}

const REASONING: [&str; 3] = ["think", "thinking", "reasoning"];

impl Reasoning {
    /// Appends the newly visible part of `text` to `visible`. Returns true when a closer with
    /// no opener arrived: `visible` was emptied, everything before it being reasoning.
    fn advance(&mut self, text: &str, visible: &mut String) -> bool {
        let b = text.as_bytes();
        let mut reset = false;
        while self.pos < b.len() {
            let Some(lt) = b[self.pos..].iter().position(|&c| c == b'<') else {
                if !self.inside {
                    visible.push_str(&text[self.pos..]);
                }
                self.pos = b.len();
                break;
            };
            let at = self.pos + lt;
            if !self.inside {
                visible.push_str(&text[self.pos..at]);
            }
            match reasoning_tag(&b[at..]) {
                Tag::Partial => {
                    self.pos = at;
                    break;
                }
                Tag::None => {
                    if !self.inside {
                        visible.push('<');
                    }
                    self.pos = at + 1;
                }
                Tag::Open(len) => {
                    self.inside = true;
                    self.pos = at + len;
                }
                Tag::Close(len) => {
                    if !self.inside {
                        visible.clear();
                        reset = true;
                    }
                    self.inside = false;
                    self.pos = at + len;
                }
            }
        }
        reset
    }
}

enum Tag {
    None,
    /// The text ends inside what may be a tag.
    Partial,
    Open(usize),
    Close(usize),
}

/// The reasoning tag at the start of `b` (a `<`), case-insensitive.
fn reasoning_tag(b: &[u8]) -> Tag {
    let closing = b.get(1) == Some(&b'/');
    let name_at = if closing { 2 } else { 1 };
    for name in REASONING {
        let n = name.len();
        let Some(got) = b.get(name_at..) else {
            return Tag::Partial;
        };
        let m = got.len().min(n + 1);
        let want = |i: usize| if i < n { name.as_bytes()[i] } else { b'>' };
        if (0..m).all(|i| got[i].eq_ignore_ascii_case(&want(i))) {
            if m < n + 1 {
                return Tag::Partial;
            }
            let len = name_at + n + 1;
            return if closing {
                Tag::Close(len)
            } else {
                Tag::Open(len)
            };
        }
    }
    Tag::None
}

// ----- the live reader ----------------------------------------------------------------------

/// Where a family's reader is.
#[derive(Debug, Clone, Default)]
enum Phase {
    /// Looking for the next call from `Live::pos`.
    #[default]
    Seek,
    /// A call opened at `start`; its name (and id) is written from `head`.
    Head { start: usize, head: usize },
    /// A named call whose JSON arguments are being read.
    Args { call: Named, scan: ValueScan },
    /// JSON holding the calls themselves (a call, an array of calls, an envelope).
    Body { scan: ValueScan, done: usize },
    /// A named call whose `<parameter>`-style arguments are being read.
    Params(Box<Params>),
    /// Pythonic calls: `name(args)`, each up to its matching `)`.
    Python(PyList),
    /// A Gemma call, read once its closer arrives.
    Gemma { call: Named, start: usize },
    /// After a call: its closer, which may not come.
    Close,
    /// Text the live view does not follow, from `from` up to the call's closer or the next
    /// call, read then with the lenient parser (as the call `call`, when its name was read;
    /// its first `skip` calls were already read live).
    Stalled {
        from: usize,
        call: Option<Named>,
        skip: usize,
    },
}

/// What a reader step came to.
enum Read {
    /// It read something and can go on.
    More,
    /// It needs more text.
    Wait,
    /// Its phase is over (the reader set the next one).
    Ended,
}

/// A call whose name is known.
#[derive(Debug, Clone)]
struct Named {
    id: Option<String>,
    name: String,
}

#[derive(Debug, Clone)]
struct Params {
    call: Named,
    style: Style,
    /// The parameters so far; the one being written is a string, marked as the leaf.
    partial: Partial,
    /// The parameter being written: its name, and how much of its text is shown.
    open: Option<(String, usize)>,
}

/// How a family writes its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// `<parameter name="p">v</parameter>`, ended by `</invoke>`.
    Anthropic,
    /// `<parameter=p>v</parameter>`, ended by `</function>` (or `</tool_call>`, or nothing).
    Qwen,
    /// `<arg_key>p</arg_key><arg_value>v</arg_value>`, ended by `</tool_call>`.
    Glm,
}

impl Style {
    fn param_opens(self) -> &'static [&'static str] {
        match self {
            Style::Anthropic => &["<parameter name=", NS_PARAM],
            Style::Qwen => &["<parameter="],
            Style::Glm => &["<arg_key>"],
        }
    }
    fn param_close(self) -> &'static [&'static str] {
        match self {
            Style::Anthropic => &["</parameter>", NS_PARAM_CLOSE],
            Style::Qwen => &["</parameter>"],
            Style::Glm => &["</arg_value>"],
        }
    }
    fn call_close(self) -> &'static [&'static str] {
        match self {
            Style::Anthropic => &["</invoke>", NS_INVOKE_CLOSE],
            Style::Qwen => &["</function>", "</tool_call>"],
            Style::Glm => &["</tool_call>"],
        }
    }
}

/// A pythonic call being read, from its name to the `)` matching the `(` after it.
#[derive(Debug, Clone)]
struct Python {
    call: Named,
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
struct PyList {
    call: Option<Python>,
    next: usize,
}

impl PyList {
    fn at(next: usize) -> Self {
        PyList { call: None, next }
    }

    /// Reads calls into `calls`. `Some(end)` when the list ended at `end` (what follows is
    /// not another call); `None` when more text is needed.
    fn read(&mut self, v: &str, calls: &mut Vec<ToolCall>) -> Option<usize> {
        loop {
            if let Some(p) = &mut self.call {
                let call = python_step(p, v)?;
                self.next = p.at;
                self.call = None;
                calls.extend(call);
                continue;
            }
            // Separators read are not read again.
            self.next += v[self.next..]
                .bytes()
                .take_while(|c| matches!(c, b' ' | b'\t' | b',' | b'['))
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

#[derive(Debug, Clone, Default)]
struct Live {
    /// The family, once a marker was seen.
    family: Option<Family>,
    /// Where the marker search resumes.
    scan: usize,
    /// Where the family's reader resumes.
    pos: usize,
    phase: Phase,
    calls: Vec<ToolCall>,
    /// With no marker: a JSON value or pythonic list in the prose.
    loose: Option<Loose>,
    /// How much of the visible text is whitespace before anything else.
    blank: usize,
}

#[derive(Debug, Clone)]
enum Loose {
    /// A JSON value in the prose (a call, an array of calls, an envelope).
    Json {
        scan: Box<crate::Stream<Value>>,
        done: usize,
    },
    /// A reply that is a pythonic list.
    Python(PyList),
}

impl Live {
    fn advance(&mut self, v: &str) {
        if self.family.is_none() {
            if let Some((at, family)) = self.find_marker(v) {
                // Markers decide; what was read as loose calls was not the calls.
                self.family = Some(family);
                self.loose = None;
                self.calls.clear();
                self.pos = at;
                self.phase = Phase::Seek;
            } else {
                self.loose(v);
                return;
            }
        }
        let Some(family) = self.family else { return };
        // Each step either moves forward or returns false (wait for more text).
        while self.step(family, v) {}
    }

    /// The earliest marker in the visible text not yet searched (at one position, the first in
    /// [`MARKERS`] order, as [`parse`] decides).
    fn find_marker(&mut self, v: &str) -> Option<(usize, Family)> {
        let from = self.scan;
        let found =
            scan_for(v, from, MARKERS.iter().map(|(m, _)| *m)).map(|(at, i)| (at, MARKERS[i].1));
        // A marker may be cut by the end of the text: search its last bytes again next time.
        let longest = MARKERS.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
        let mut next = v.len().saturating_sub(longest - 1).max(from);
        while !v.is_char_boundary(next) {
            next -= 1;
        }
        self.scan = next;
        found
    }

    fn current(&self) -> Option<CallInProgress<'_>> {
        if self.family.is_none() {
            return match &self.loose {
                Some(Loose::Json { scan, done }) => body_current(scan.partial(), *done),
                Some(Loose::Python(list)) => {
                    list.call.as_ref().map(|p| CallInProgress::named(&p.call))
                }
                None => None,
            };
        }
        match &self.phase {
            Phase::Args { call, scan } => Some(
                CallInProgress::named(call).with_arguments(scan.partial(), Some(String::new())),
            ),
            Phase::Body { scan, done } => body_current(scan.partial(), *done),
            Phase::Params(p) => {
                Some(CallInProgress::named(&p.call).with_arguments(&p.partial, Some(String::new())))
            }
            Phase::Python(list) => list.call.as_ref().map(|p| CallInProgress::named(&p.call)),
            Phase::Gemma { call, .. } => Some(CallInProgress::named(call)),
            Phase::Stalled {
                call: Some(call), ..
            } => Some(CallInProgress::named(call)),
            _ => None,
        }
    }

    fn stalled(&self) -> bool {
        match &self.phase {
            Phase::Stalled { .. } => true,
            Phase::Args { scan, .. } | Phase::Body { scan, .. } => scan.stalled(),
            _ => matches!(&self.loose, Some(Loose::Json { scan, .. }) if scan.partial().stalled()),
        }
    }

    // ----- no marker: JSON or pythonic calls in the prose --------------------------------

    fn loose(&mut self, v: &str) {
        if self.loose.is_none() {
            // Leading whitespace read is not read again.
            let blank = &v[self.blank..];
            self.blank += blank.len() - blank.trim_start().len();
            let start = self.blank;
            let rest = &v[start..];
            // `[name(` is a pythonic list; anything else is looked at as JSON in prose.
            let pythonic = rest.strip_prefix('[').map(str::trim_start).map(|w| {
                let ident = w
                    .bytes()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
                    .count();
                (ident, w.as_bytes().get(ident).copied())
            });
            self.loose = match pythonic {
                None if rest.is_empty() => return,
                Some((ident, None)) if ident < MAX_HEAD => return,
                Some((ident, Some(b'('))) if ident > 0 => Some(Loose::Python(PyList::at(start))),
                _ => Some(Loose::Json {
                    scan: Box::default(),
                    done: 0,
                }),
            };
        }
        match &mut self.loose {
            Some(Loose::Json { scan, done }) => {
                let already = scan.text().len();
                scan.push(&v[already..]);
                body_calls(scan.partial(), done, &mut self.calls);
            }
            Some(Loose::Python(list)) => {
                list.read(v, &mut self.calls);
            }
            None => {}
        }
    }

    // ----- families with markers --------------------------------------------------------

    /// One step of `family`'s reader; false when it must wait for more text.
    fn step(&mut self, family: Family, v: &str) -> bool {
        match std::mem::take(&mut self.phase) {
            Phase::Seek => self.seek(family, v),
            Phase::Head { start, head } => self.head(family, v, start, head),
            Phase::Args { call, mut scan } => {
                scan.advance(v);
                match scan.end() {
                    Some(end) => {
                        let args = scan.partial().value().cloned();
                        self.calls.push(ToolCall {
                            id: call.id,
                            name: call.name,
                            arguments: arguments(args.as_ref()),
                        });
                        self.pos = end;
                        self.phase = Phase::Close;
                        true
                    }
                    None if scan.stalled() => {
                        self.phase = Phase::Stalled {
                            from: self.pos,
                            call: Some(call),
                            skip: 0,
                        };
                        true
                    }
                    None => {
                        self.phase = Phase::Args { call, scan };
                        false
                    }
                }
            }
            Phase::Body { mut scan, mut done } => {
                scan.advance(v);
                body_calls(scan.partial(), &mut done, &mut self.calls);
                match scan.end() {
                    Some(end) => {
                        self.pos = end;
                        self.phase = Phase::Close;
                        true
                    }
                    None if scan.stalled() => {
                        // The rest is read from the body's text when it ends.
                        self.phase = Phase::Stalled {
                            from: self.pos,
                            call: None,
                            skip: done,
                        };
                        true
                    }
                    None => {
                        self.phase = Phase::Body { scan, done };
                        false
                    }
                }
            }
            Phase::Params(mut p) => match self.params(&mut p, v) {
                Read::Ended => true,
                Read::More => {
                    self.phase = Phase::Params(p);
                    true
                }
                Read::Wait => {
                    self.phase = Phase::Params(p);
                    false
                }
            },
            Phase::Python(mut list) => match list.read(v, &mut self.calls) {
                Some(end) => {
                    self.pos = end;
                    self.phase = Phase::Close;
                    true
                }
                None => {
                    self.phase = Phase::Python(list);
                    false
                }
            },
            Phase::Gemma { call, start } => match find_any(v, self.pos, &["<tool_call|>"]) {
                Some((at, len)) => {
                    let mut found = super::Found::default();
                    super::gemma(&v[start..at + len], &mut found);
                    self.calls.extend(found.calls);
                    self.pos = at + len;
                    self.phase = Phase::Seek;
                    true
                }
                None => {
                    self.pos = hold_back(v, "<tool_call|>");
                    self.phase = Phase::Gemma { call, start };
                    false
                }
            },
            Phase::Close => {
                // The call's closer, if it comes before the next call.
                let closers = closers(family);
                let rest = v[self.pos..].trim_start();
                let at = v.len() - rest.len();
                // Whitespace read is not read again.
                self.pos = at;
                for c in closers {
                    if rest.starts_with(c) {
                        self.pos = at + c.len();
                        self.phase = Phase::Seek;
                        return true;
                    }
                    if c.starts_with(rest) && !rest.is_empty() {
                        self.phase = Phase::Close;
                        return false;
                    }
                }
                if rest.is_empty() {
                    self.phase = Phase::Close;
                    return false;
                }
                self.pos = at;
                self.phase = Phase::Seek;
                true
            }
            Phase::Stalled { from, call, skip } => self.stalled_step(family, v, from, call, skip),
        }
    }

    /// Finds the next call's opener.
    fn seek(&mut self, family: Family, v: &str) -> bool {
        let opens = openers(family);
        // Families whose calls are JSON values after one marker: the next value.
        if matches!(
            family,
            Family::PythonTag | Family::ToolCallsTag | Family::Granite | Family::Phi4
        ) && self.pos > 0
        {
            // Separators read are not read again.
            self.pos += v[self.pos..]
                .bytes()
                .take_while(|c| c.is_ascii_whitespace() || matches!(c, b';' | b','))
                .count();
            let rest = &v[self.pos..];
            match rest.as_bytes().first() {
                Some(b'{' | b'[') => {
                    self.start_body(self.pos);
                    return true;
                }
                Some(_) if !rest.starts_with('<') => {
                    self.phase = Phase::Stalled {
                        from: self.pos,
                        call: None,
                        skip: 0,
                    };
                    return true;
                }
                _ => {}
            }
        }
        match find_any(v, self.pos, opens) {
            Some((at, len)) => {
                self.phase = Phase::Head {
                    start: at,
                    head: at + len,
                };
                true
            }
            None => {
                let longest = opens.iter().map(|o| o.len()).max().unwrap_or(1);
                let mut keep = v.len().saturating_sub(longest - 1).max(self.pos);
                while !v.is_char_boundary(keep) {
                    keep -= 1;
                }
                self.pos = keep;
                self.phase = Phase::Seek;
                false
            }
        }
    }

    fn start_body(&mut self, at: usize) {
        self.pos = at;
        self.phase = Phase::Body {
            scan: ValueScan::at(at),
            done: 0,
        };
    }

    /// Reads a call's head: what comes between its opener and its arguments.
    fn head(&mut self, family: Family, v: &str, start: usize, head: usize) -> bool {
        let text = window(v, head);
        let wait = |live: &mut Live| {
            if text.len() > MAX_HEAD {
                live.phase = Phase::Stalled {
                    from: head,
                    call: None,
                    skip: 0,
                };
                true
            } else {
                live.phase = Phase::Head { start, head };
                false
            }
        };
        let trimmed = text.trim_start();
        let lead = text.len() - trimmed.len();
        match family {
            Family::ToolCallTag => {
                let Some(&c) = trimmed.as_bytes().first() else {
                    return wait(self);
                };
                if c == b'{' || c == b'[' {
                    self.start_body(head + lead);
                } else if "<function=".starts_with(trimmed) && trimmed.len() < 10 {
                    return wait(self);
                } else if let Some(name_part) = trimmed.strip_prefix("<function=") {
                    let Some(gt) = name_part.find('>') else {
                        return wait(self);
                    };
                    let name = name_part[..gt].trim().to_owned();
                    self.start_params(name, None, Style::Qwen, head + lead + 10 + gt + 1);
                } else {
                    // GLM: the name, then `<arg_key>`.
                    let Some(k) = trimmed.find("<arg_key>") else {
                        return wait(self);
                    };
                    let name = trimmed[..k].trim().to_owned();
                    self.start_params(name, None, Style::Glm, head + lead + k);
                }
            }
            Family::Invoke | Family::FunctionCalls => {
                if v[start..head].ends_with("function_calls>") {
                    // `<function_calls>`: a JSON array, or `<invoke>` elements to seek.
                    let Some(&c) = trimmed.as_bytes().first() else {
                        return wait(self);
                    };
                    if c == b'{' || c == b'[' {
                        self.start_body(head + lead);
                    } else {
                        self.pos = head;
                        self.phase = Phase::Seek;
                    }
                    return true;
                }
                let Some((name, after)) = quoted_attr(text) else {
                    return wait(self);
                };
                self.start_params(name, None, Style::Anthropic, head + after);
            }
            Family::QwenCoder => {
                let Some(gt) = text.find('>') else {
                    return wait(self);
                };
                let name = text[..gt].trim().to_owned();
                self.start_params(name, None, Style::Qwen, head + gt + 1);
            }
            Family::Mistral => {
                let Some(&c) = trimmed.as_bytes().first() else {
                    return wait(self);
                };
                if c == b'[' && !trimmed.starts_with("[CALL_ID]") && !trimmed.starts_with("[ARGS]")
                {
                    self.start_body(head + lead);
                    return true;
                }
                let Some(brace) = text.find('{') else {
                    return wait(self);
                };
                let (name, id) = mistral_head(&text[..brace]);
                self.start_args(name, id, head + brace);
            }
            Family::DeepSeek => {
                const SEP: &str = "<｜tool▁sep｜>";
                let Some(s) = text.find(SEP) else {
                    return wait(self);
                };
                let left = text[..s].trim();
                let right = &text[s + SEP.len()..];
                let (name, brace) = if left == "function" {
                    let Some(nl) = right.find('\n') else {
                        return wait(self);
                    };
                    let Some(b) = right[nl..].find('{') else {
                        return wait(self);
                    };
                    (right[..nl].trim().to_owned(), nl + b)
                } else {
                    let Some(b) = right.find('{') else {
                        return wait(self);
                    };
                    (left.to_owned(), b)
                };
                self.start_args(name, None, head + s + SEP.len() + brace);
            }
            Family::Kimi => {
                const ARG: &str = "<|tool_call_argument_begin|>";
                if trimmed.starts_with('{') {
                    self.start_body(head + lead);
                    return true;
                }
                let Some(a) = text.find(ARG) else {
                    return wait(self);
                };
                let Some(b) = text[a..].find('{') else {
                    return wait(self);
                };
                let id = text[..a].trim().to_owned();
                self.start_args(kimi_name(&id), Some(id), head + a + b);
            }
            Family::PythonTag
            | Family::Granite
            | Family::ToolCallsTag
            | Family::Phi4
            | Family::InternLm => {
                let Some(&c) = trimmed.as_bytes().first() else {
                    return wait(self);
                };
                if c == b'{' || c == b'[' {
                    self.start_body(head + lead);
                } else {
                    self.phase = Phase::Stalled {
                        from: head,
                        call: None,
                        skip: 0,
                    };
                }
            }
            Family::Harmony => return self.harmony_head(v, head),
            Family::Gemma => {
                let name_part = trimmed.strip_prefix("call:").unwrap_or(trimmed);
                if "call:".starts_with(trimmed) {
                    return wait(self);
                }
                let Some(brace) = name_part.find('{') else {
                    return wait(self);
                };
                self.pos = head;
                self.phase = Phase::Gemma {
                    call: Named {
                        id: None,
                        name: name_part[..brace].trim().to_owned(),
                    },
                    start,
                };
            }
            Family::PythonStart | Family::UiTars => {
                if trimmed.is_empty() {
                    return wait(self);
                }
                self.pos = head;
                self.phase = Phase::Python(PyList::at(head));
            }
        }
        true
    }

    /// gpt-oss harmony: the header before `<|message|>` says whether the message is a call.
    fn harmony_head(&mut self, v: &str, head: usize) -> bool {
        const MSG: &str = "<|message|>";
        let Some(m) = window(v, head).find(MSG) else {
            self.phase = Phase::Head { start: head, head };
            if v.len() - head > MAX_HEAD {
                self.phase = Phase::Stalled {
                    from: head,
                    call: None,
                    skip: 0,
                };
                return true;
            }
            return false;
        };
        let body = head + m + MSG.len();
        match harmony_header(&v[head..head + m]) {
            (true, _) | (_, None) => {
                // Not a call: skip the message.
                self.pos = body;
                self.phase = Phase::Close;
            }
            (false, Some(name)) => {
                let Some(b) = window(v, body).find('{') else {
                    if v.len() - body > MAX_HEAD {
                        self.phase = Phase::Stalled {
                            from: body,
                            call: Some(Named { id: None, name }),
                            skip: 0,
                        };
                        return true;
                    }
                    self.phase = Phase::Head { start: head, head };
                    return false;
                };
                self.start_args(name, None, body + b);
            }
        }
        true
    }

    fn start_args(&mut self, name: String, id: Option<String>, brace: usize) {
        self.pos = brace;
        self.phase = Phase::Args {
            call: Named { id, name },
            scan: ValueScan::at(brace),
        };
    }

    fn start_params(&mut self, name: String, id: Option<String>, style: Style, at: usize) {
        self.pos = at;
        self.phase = Phase::Params(Box::new(Params {
            call: Named { id, name },
            style,
            partial: Partial::object(),
            open: None,
        }));
    }

    /// Reads parameters.
    fn params(&mut self, p: &mut Params, v: &str) -> Read {
        match p.open.take() {
            Some((name, shown)) => {
                // Inside a parameter's value, from `self.pos` (its start).
                let closes = p.style.param_close();
                match find_any(v, shown, closes) {
                    Some((at, len)) => {
                        let value = param_value(&v[self.pos..at]);
                        if let Some(m) = p.partial.members() {
                            m.insert(name, value);
                        }
                        p.partial.set_leaf(None);
                        self.pos = at + len;
                        Read::More
                    }
                    None => {
                        // Show the text so far, but not what may be the start of the closer.
                        let keep = closes
                            .iter()
                            .map(|c| hold_back(v, c))
                            .min()
                            .unwrap_or(v.len())
                            .max(shown);
                        if let Some(Value::String(s)) =
                            p.partial.members().and_then(|m| m.get_mut(&name))
                        {
                            s.push_str(&v[shown..keep]);
                        }
                        p.open = Some((name, keep));
                        Read::Wait
                    }
                }
            }
            None => {
                // Between parameters: the next one, or the call's end.
                let mut markers: Vec<&str> = p.style.param_opens().to_vec();
                markers.extend(p.style.call_close());
                let Some((at, len)) = find_any(v, self.pos, &markers) else {
                    self.pos = markers
                        .iter()
                        .map(|m| hold_back(v, m))
                        .min()
                        .unwrap_or(self.pos)
                        .max(self.pos);
                    return Read::Wait;
                };
                let marker = &v[at..at + len];
                if p.style.call_close().contains(&marker) {
                    p.partial.set_complete();
                    let arguments = match p.partial.value() {
                        Some(Value::Object(m)) => m.clone(),
                        _ => Map::new(),
                    };
                    self.calls.push(ToolCall {
                        id: p.call.id.clone(),
                        name: p.call.name.clone(),
                        arguments,
                    });
                    self.pos = at + len;
                    self.phase = Phase::Seek;
                    return Read::Ended;
                }
                // A parameter's name, then its value.
                let rest = window(v, at + len);
                let (name, value_at) = match p.style {
                    Style::Anthropic => match quoted_attr(rest) {
                        Some((n, after)) => (n, after),
                        None => return self.wait_at(at, rest.len()),
                    },
                    Style::Qwen => match rest.find('>') {
                        Some(gt) => (rest[..gt].trim().to_owned(), gt + 1),
                        None => return self.wait_at(at, rest.len()),
                    },
                    Style::Glm => {
                        let Some(k) = rest.find("</arg_key>") else {
                            return self.wait_at(at, rest.len());
                        };
                        let Some(val) = rest[k..].find("<arg_value>") else {
                            return self.wait_at(at, rest.len());
                        };
                        (rest[..k].trim().to_owned(), k + val + "<arg_value>".len())
                    }
                };
                let value_start = at + len + value_at;
                if let Some(m) = p.partial.members() {
                    m.insert(name.clone(), Value::String(String::new()));
                }
                p.partial.set_leaf(Some(name.clone()));
                self.pos = value_start;
                p.open = Some((name, value_start));
                Read::More
            }
        }
    }

    /// A parameter head not yet complete: wait at its start, unless it is already too long
    /// (the call is then left to the end of its text).
    fn wait_at(&mut self, at: usize, written: usize) -> Read {
        self.pos = at;
        if written > MAX_HEAD {
            self.phase = Phase::Stalled {
                from: at,
                call: None,
                skip: 0,
            };
            return Read::Ended;
        }
        Read::Wait
    }

    /// Past what the live view cannot follow: when the call's closer (or the next call)
    /// arrives, its text is read once with the lenient parser.
    fn stalled_step(
        &mut self,
        family: Family,
        v: &str,
        from: usize,
        call: Option<Named>,
        skip: usize,
    ) -> bool {
        let after = self.pos.max(from) + 1;
        let end = [closers(family), openers(family)]
            .iter()
            .filter_map(|m| find_any(v, after.min(v.len()), m))
            .min();
        let Some((at, _)) = end else {
            self.phase = Phase::Stalled { from, call, skip };
            self.pos = v.len().saturating_sub(64).max(from);
            while !v.is_char_boundary(self.pos) {
                self.pos -= 1;
            }
            return false;
        };
        let text = &v[from..at];
        if let Some(start) = text.find(['{', '[']) {
            if let Ok(p) = repair::parse(&text[start..], &RepairOptions::default()) {
                match call {
                    Some(call) => self.calls.push(ToolCall {
                        id: call.id,
                        name: call.name,
                        arguments: arguments(Some(&p.value)),
                    }),
                    None => {
                        let mut found = super::Found::default();
                        super::calls_from_json(&p.value, &mut found);
                        self.calls.extend(found.calls.into_iter().skip(skip));
                    }
                }
            }
        }
        self.pos = at;
        self.phase = Phase::Close;
        true
    }
}

/// The calls of a JSON body (a call, an array of calls, or an envelope) that are complete,
/// from the `done`-th on, appended to `calls`.
fn body_calls(p: &Partial, done: &mut usize, calls: &mut Vec<ToolCall>) {
    let Some(root) = p.value() else { return };
    match calls_base(root) {
        None => {
            // One call: complete when the whole value is.
            if p.is_complete() && *done == 0 {
                if let Some(c) = call_from_json(root) {
                    calls.push(c);
                }
                *done = 1;
            }
        }
        Some(base) => {
            let Some(Value::Array(items)) = p.get(base) else {
                return;
            };
            let (finished, _) = progress(p, base, items.len());
            for item in items.iter().take(finished).skip(*done) {
                if let Some(c) = call_from_json(item) {
                    calls.push(c);
                }
            }
            *done = (*done).max(finished);
        }
    }
}

/// Where the calls of a JSON body are: `None` when the body is one call, else the pointer of
/// its array of calls.
fn calls_base(root: &Value) -> Option<&'static str> {
    match root {
        Value::Array(_) => Some(""),
        Value::Object(o) if o.contains_key("tool_calls") => Some("/tool_calls"),
        Value::Object(o) if o.contains_key("toolCalls") => Some("/toolCalls"),
        _ => None,
    }
}

/// Of the `len` items of the array at `base`: how many are complete, and which one is being
/// written.
fn progress(p: &Partial, base: &str, len: usize) -> (usize, Option<usize>) {
    if p.is_complete() {
        return (len, None);
    }
    let segs: Vec<&str> = if base.is_empty() {
        Vec::new()
    } else {
        base[1..].split('/').collect()
    };
    let open = p.open_path();
    if open.len() < segs.len() || open.iter().zip(&segs).any(|(a, b)| a != b) {
        // The array is closed.
        return (len, None);
    }
    let writing = match open.get(segs.len()) {
        Some(i) => i.parse().ok(),
        None => p.leaf().and_then(|l| l.parse().ok()),
    };
    match writing {
        Some(i) => (i, Some(i)),
        None => (len, None),
    }
}

/// The call being written in a JSON body whose first `done` calls are complete.
fn body_current(p: &Partial, done: usize) -> Option<CallInProgress<'_>> {
    let root = p.value()?;
    let (item, pointer) = match calls_base(root) {
        None if done == 0 && !p.is_complete() => (root, String::new()),
        None => return None,
        Some(base) => {
            let Some(Value::Array(items)) = p.get(base) else {
                return None;
            };
            let i = progress(p, base, items.len()).1?;
            (items.get(i)?, format!("{base}/{i}"))
        }
    };
    let call = item.as_object()?;
    let depth = pointer.matches('/').count();
    let writing = |object, key, extra| written(p, depth, object, key, extra);
    let (name, args) = match call.get("function") {
        Some(Value::Object(f)) => (
            writing(f, "name", "function"),
            Some(format!("{pointer}/function/arguments")),
        ),
        _ => {
            let args = ["arguments", "parameters", "args", "input"]
                .iter()
                .find(|k| call.contains_key(**k))
                .map(|k| format!("{pointer}/{k}"));
            (
                writing(call, "name", "").or_else(|| writing(call, "tool", "")),
                args,
            )
        }
    };
    Some(CallInProgress {
        id: writing(call, "id", ""),
        name,
        partial: Some(p),
        base: args,
    })
}

/// `object[key]` (an object `depth` levels down, or its member `inner`) as text, once written
/// in full: not while it is the string being written.
fn written<'a>(
    p: &Partial,
    depth: usize,
    object: &'a Map<String, Value>,
    key: &str,
    inner: &str,
) -> Option<&'a str> {
    let open = p.open_path();
    let here = open.len() == depth + usize::from(!inner.is_empty())
        && (inner.is_empty() || open.last().map(String::as_str) == Some(inner));
    object
        .get(key)
        .and_then(Value::as_str)
        .filter(|_| !(here && p.leaf() == Some(key)))
}

/// Reads a pythonic call from `p.at` to its `)`: `None` while it is open, then the call
/// (`Some(None)` if its text is not a call after all).
fn python_step(p: &mut Python, v: &str) -> Option<Option<ToolCall>> {
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
                b')' => {
                    // The call's text, read as `parse` reads it; `Some(None)` when it is not
                    // a call after all.
                    return Some(pythonic(&v[p.start..p.at]).and_then(|c| c.into_iter().next()));
                }
                _ => {}
            },
        }
    }
    None
}

/// The openers of a family's calls.
fn openers(family: Family) -> &'static [&'static str] {
    match family {
        Family::FunctionCalls | Family::Invoke => &[
            "<function_calls>",
            concat!("<", "antml", ":function_calls>"),
            "<invoke name=",
            NS_INVOKE,
        ],
        Family::ToolCallTag => &["<tool_call>"],
        Family::QwenCoder => &["<function="],
        Family::Mistral => &["[TOOL_CALLS]"],
        Family::PythonTag => &["<|python_tag|>"],
        Family::DeepSeek => &["<｜tool▁call▁begin｜>"],
        Family::Kimi => &["<|tool_call_begin|>"],
        Family::Granite => &["<|tool_call|>"],
        Family::ToolCallsTag => &["<tool_calls>"],
        Family::Phi4 => &["functools"],
        Family::InternLm => &["<|action_start|><|plugin|>"],
        Family::Harmony => &["<|channel|>"],
        Family::Gemma => &["<|tool_call>"],
        Family::PythonStart => &["<|python_start|>"],
        Family::UiTars => &["Action:"],
    }
}

/// The markers that may close a family's call (or its block of calls).
fn closers(family: Family) -> &'static [&'static str] {
    match family {
        Family::FunctionCalls | Family::Invoke => &[
            "</invoke>",
            NS_INVOKE_CLOSE,
            "</function_calls>",
            concat!("</", "antml", ":function_calls>"),
        ],
        Family::ToolCallTag => &["</tool_call>"],
        Family::QwenCoder => &["</function>"],
        Family::DeepSeek => &["<｜tool▁call▁end｜>"],
        Family::Kimi => &["<|tool_call_end|>"],
        Family::ToolCallsTag => &["</tool_calls>"],
        Family::InternLm => &["<|action_end|>"],
        Family::Harmony => &["<|call|>", "<|end|>", "<|return|>"],
        Family::Gemma => &["<tool_call|>"],
        Family::PythonStart => &["<|python_end|>"],
        Family::Mistral | Family::PythonTag | Family::Granite | Family::Phi4 | Family::UiTars => {
            &[]
        }
    }
}

/// The text from `from` on, but at most one byte more than [`MAX_HEAD`]: where a call's name
/// or a parameter's name is looked for, so that a head that never ends costs a bounded scan
/// per chunk, not the rest of the text.
fn window(v: &str, from: usize) -> &str {
    let mut end = (from + MAX_HEAD + 1).min(v.len());
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    &v[from..end]
}

/// The earliest of `markers` in `v` from `from`: its offset and length.
fn find_any(v: &str, from: usize, markers: &[&str]) -> Option<(usize, usize)> {
    scan_for(v, from, markers.iter().copied()).map(|(at, i)| (at, markers[i].len()))
}

/// The earliest position from `from` where one of `markers` starts, and which one (the first
/// in order at that position). One pass over the bytes that tries only the markers beginning
/// with the byte at hand: no searcher is set up per marker and per chunk.
fn scan_for<'m>(
    v: &str,
    from: usize,
    markers: impl Iterator<Item = &'m str> + Clone,
) -> Option<(usize, usize)> {
    let b = v.as_bytes();
    let mut first = [false; 256];
    for m in markers.clone() {
        if let Some(&c) = m.as_bytes().first() {
            first[usize::from(c)] = true;
        }
    }
    let start = from.min(b.len());
    b[start..].iter().enumerate().find_map(|(i, &c)| {
        if !first[usize::from(c)] {
            return None;
        }
        let at = start + i;
        markers
            .clone()
            .position(|m| b[at..].starts_with(m.as_bytes()))
            .map(|k| (at, k))
    })
}

/// Where text that may still be the start of `marker` begins at the end of `v` (`v.len()` if
/// none may be).
fn hold_back(v: &str, marker: &str) -> usize {
    let b = v.as_bytes();
    let m = marker.as_bytes();
    for keep in (1..m.len().min(b.len() + 1)).rev() {
        if b[b.len() - keep..] == m[..keep] {
            let mut at = b.len() - keep;
            while !v.is_char_boundary(at) {
                at -= 1;
            }
            return at;
        }
    }
    v.len()
}
