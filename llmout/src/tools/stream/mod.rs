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
//!   in the prose is read as the calls (past JSON that is none), and a marker appearing later
//!   takes over. A value the text mentions rather than makes (after `for example:`, or
//!   quoted in backticks inside a sentence) is decided by the text before it, so it is
//!   never shown as calls. JSON calls after the first ones (after `;`, or in later markdown
//!   fences) join the calls when their value closes; meanwhile a lone call, or an array's first, is
//!   shown while it is written.
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

mod body;
mod python;
mod reasoning;
mod scan;

pub(crate) use reasoning::{suffix_len, visible, Suffix};
pub(crate) use scan::{find_any, hold_back, hold_back_any, window};

use body::{body_calls, body_current, value_current};
pub(crate) use python::{PyCalls, PyList};
use reasoning::Reasoning;

use super::family::{detect, longest_marker, Detected, Family, Found, Head, Named, Quoted};
use super::fenced::LaterFences;
use super::json;
use super::params::{ParamHead, ParamStyle};
use super::read::{arguments, calls_from_json, cut_short, json_end, End, JsonValues};
use super::{parse, parse_with_tools, ToolCall, ToolCallResponse, ToolDef};
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
    /// A named call whose parameters are being read.
    Params(Box<Params>),
    /// Pythonic calls: `name(args)`, each up to its matching `)`.
    Python(PyList),
    /// A call read with the family's reader once its closer arrives; where the family's
    /// calls open with JSON, the closer after it (`json` reads it from `body`).
    Whole {
        call: Option<Named>,
        start: usize,
        body: usize,
        json: Option<JsonValues>,
    },
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

#[derive(Debug, Clone)]
struct Params {
    call: Named,
    style: &'static ParamStyle,
    /// The parameters so far; the one being written is a string, marked as the leaf.
    partial: Partial,
    /// The parameter being written: its name, how much of its text is shown, and whether its
    /// value is text only.
    open: Option<(String, usize, bool)>,
}

#[derive(Clone, Default)]
struct Live {
    /// The family, once a marker was seen.
    family: Option<&'static dyn Family>,
    /// Where the marker search resumes.
    scan: usize,
    /// The strings of the JSON the reply opens with, whose markers are text.
    quoted: Quoted,
    /// Where the family's reader resumes.
    pos: usize,
    phase: Phase,
    calls: Vec<ToolCall>,
    /// With no marker: a JSON value or pythonic list in the prose.
    loose: Option<Loose>,
    /// How much of the visible text is whitespace before anything else.
    blank: usize,
    /// Whether a JSON body of calls just ended: in families whose calls are JSON values after
    /// one marker, the next value may follow it.
    after_body: bool,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("family", &self.family.map(|fam| fam.markers()))
            .field("pos", &self.pos)
            .field("phase", &self.phase)
            .field("calls", &self.calls)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone)]
enum Loose {
    /// A JSON value in the prose (a call, an array of calls, an envelope), looked for from
    /// `base`.
    Json {
        scan: Box<crate::Stream<Value>>,
        done: usize,
        base: usize,
        /// Whether the value is one the text mentions ([`json::mentioned`]), once it opened:
        /// its calls are not shown, and `parse` makes none of it.
        held: Option<bool>,
    },
    /// A reply that is a pythonic list.
    Python(PyList),
    /// More JSON calls after the first value's calls, separated by `;`, commas or white space:
    /// where the next one may start, and the one being read.
    Follow { pos: usize, scan: Option<ValueScan> },
    /// After those: calls in the markdown fences opened later, and the value being read in
    /// one (where it starts, and its live view).
    Fences {
        walk: LaterFences,
        shown: Option<(usize, ValueScan)>,
    },
}

/// The fences walk after calls that ended at `end`.
fn fences_after(end: usize) -> Loose {
    Loose::Fences {
        walk: LaterFences::new(end),
        shown: None,
    }
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

    /// The earliest marker in the visible text not yet searched (at one position, the first
    /// family in the registry, as [`parse`] decides).
    fn find_marker(&mut self, v: &str) -> Option<(usize, &'static dyn Family)> {
        let from = self.scan;
        let (found, mut next) = match detect(v, from, false, &mut self.quoted) {
            Detected::At(at, family) => (Some((at, family)), v.len()),
            // Whether this marker opens calls is told by text still to come: look again
            // from it.
            Detected::Pending(at) => (None, at),
            // A marker may be cut by the end of the text: search its last bytes again.
            Detected::None => (None, v.len().saturating_sub(longest_marker() - 1)),
        };
        next = next.max(from);
        while !v.is_char_boundary(next) {
            next -= 1;
        }
        self.scan = next;
        found
    }

    fn current(&self) -> Option<CallInProgress<'_>> {
        if self.family.is_none() {
            return match &self.loose {
                Some(Loose::Json {
                    held: Some(true), ..
                }) => None,
                Some(Loose::Json { scan, done, .. }) => body_current(scan.partial(), *done),
                Some(Loose::Python(list)) => {
                    list.call.as_ref().map(|p| CallInProgress::named(&p.call))
                }
                Some(Loose::Follow {
                    scan: Some(scan), ..
                })
                | Some(Loose::Fences {
                    shown: Some((_, scan)),
                    ..
                }) => value_current(scan.partial()),
                _ => None,
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
            Phase::Whole { call, .. } => call.as_ref().map(CallInProgress::named),
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
                    base: 0,
                    held: None,
                }),
            };
        }
        match &mut self.loose {
            Some(Loose::Json {
                scan,
                done,
                base,
                held,
            }) => {
                // Fed up to each closing bracket, so that the first value that gives calls is
                // seen complete exactly where it ends: calls may follow it there (Llama 3's
                // JSON calls after prose).
                let mut from = *base + scan.text().len();
                loop {
                    let piece = v[from..]
                        .bytes()
                        .position(|c| c == b'}' || c == b']')
                        .map_or(v.len(), |i| from + i + 1);
                    scan.push(&v[from..piece]);
                    // (Until the value opens, no bracket was fed: look in this piece only.)
                    if held.is_none() {
                        *held = v[from..piece]
                            .find(['{', '['])
                            .map(|i| json::mentioned(v, from + i));
                    }
                    from = piece;
                    if *held != Some(true) {
                        body_calls(scan.partial(), done, &mut self.calls);
                    }
                    if scan.partial().is_complete() && !self.calls.is_empty() {
                        self.loose = Some(Loose::Follow {
                            pos: from,
                            scan: None,
                        });
                        self.follow(v);
                        return;
                    }
                    if scan.partial().is_complete() {
                        // A value that is no calls: the calls may be a later one.
                        **scan = Default::default();
                        *done = 0;
                        *base = from;
                        *held = None;
                    } else if scan.partial().stalled() && self.calls.is_empty() {
                        // A value the live view cannot follow (`[x]`, a word in brackets in
                        // the prose): once its brackets close, the calls may be a later one,
                        // as `parse` tries the reply's spans in turn.
                        let start = v[*base..].find(['{', '[']).map(|i| *base + i);
                        let end = start.and_then(|s| Some(s + json_end(&v[s..])?));
                        if let Some(end) = end.filter(|&e| e <= from) {
                            **scan = Default::default();
                            *done = 0;
                            *base = end;
                            *held = None;
                            from = end;
                        }
                    }
                    if from == v.len() {
                        break;
                    }
                }
            }
            Some(Loose::Python(list)) => {
                list.read(v, &mut self.calls);
            }
            Some(Loose::Follow { .. }) => self.follow(v),
            Some(Loose::Fences { .. }) => self.fences(v),
            None => {}
        }
    }

    /// Reads the JSON calls that follow the first value's, one value at a time; then the
    /// calls in later fences.
    fn follow(&mut self, v: &str) {
        while let Some(Loose::Follow { pos, scan }) = &mut self.loose {
            match scan {
                Some(sc) => {
                    sc.advance(v);
                    match sc.end() {
                        Some(end) => {
                            let calls = sc
                                .partial()
                                .value()
                                .cloned()
                                .and_then(json::following_value_calls);
                            match calls {
                                Some(calls) => {
                                    // (The live view: what reading them changed is
                                    // said by `finish`.)
                                    self.calls.extend(calls.into_iter().map(|(c, _)| c));
                                    *pos = end;
                                    *scan = None;
                                }
                                None => self.loose = Some(fences_after(*pos)),
                            }
                        }
                        None if sc.stalled() => self.loose = Some(fences_after(*pos)),
                        None => return,
                    }
                }
                None => {
                    *pos += json::separators(&v[*pos..]);
                    match v.as_bytes().get(*pos) {
                        None => return,
                        Some(b'{' | b'[') => *scan = Some(ValueScan::at(*pos)),
                        Some(_) => self.loose = Some(fences_after(*pos)),
                    }
                }
            }
        }
        self.fences(v);
    }

    /// Reads the calls in the fences after the first calls, each once its value has closed;
    /// the value being written is shown meanwhile.
    fn fences(&mut self, v: &str) {
        if let Some(Loose::Fences { walk, shown }) = &mut self.loose {
            let mut found = Found::default();
            walk.walk(v, false, &mut found);
            self.calls.extend(found.calls.into_vec());
            *shown = walk.open_value().map(|start| match shown.take() {
                Some((at, mut scan)) if at == start => {
                    scan.advance(v);
                    (at, scan)
                }
                _ => {
                    let mut scan = ValueScan::at(start);
                    scan.advance(v);
                    (start, scan)
                }
            });
        }
    }

    // ----- families with markers --------------------------------------------------------

    /// One step of `family`'s reader; false when it must wait for more text.
    fn step(&mut self, family: &'static dyn Family, v: &str) -> bool {
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
                            arguments: arguments(args).0,
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
                        self.after_body = true;
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
            Phase::Whole {
                call,
                start,
                body,
                mut json,
            } => {
                if let Some(scan) = &mut json {
                    let markers = [family.openers(), family.closers()].concat();
                    match scan.read(&v[body..], &markers, false) {
                        None => {
                            self.phase = Phase::Whole {
                                call,
                                start,
                                body,
                                json,
                            };
                            return false;
                        }
                        // The closer is looked for after the JSON (or, with none to go by,
                        // from the body's start).
                        Some(end) => {
                            self.pos = self.pos.max(body + end.unwrap_or(0));
                        }
                    }
                }
                self.whole(family, v, call, start, body)
            }
            Phase::Close => {
                // The call's closer, if it comes before the next call.
                let rest = v[self.pos..].trim_start();
                let at = v.len() - rest.len();
                // Whitespace read is not read again.
                self.pos = at;
                for c in family.closers() {
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
                self.phase = Phase::Seek;
                true
            }
            Phase::Stalled { from, call, skip } => self.stalled_step(family, v, from, call, skip),
        }
    }

    /// Finds the next call's opener.
    fn seek(&mut self, family: &'static dyn Family, v: &str) -> bool {
        let opens = family.openers();
        // Families whose calls are JSON values after one marker: the next value.
        if family.values_follow() && self.after_body {
            // Separators read are not read again.
            self.pos += v[self.pos..]
                .bytes()
                .take_while(|c| c.is_ascii_whitespace() || matches!(c, b';' | b','))
                .count();
            let rest = &v[self.pos..];
            if rest.is_empty() {
                self.phase = Phase::Seek;
                return false;
            }
            self.after_body = false;
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

    /// A call read whole, opened at `start` (its body at `body`): read with the family's
    /// reader once its closer, searched from `Live::pos`, has come.
    fn whole(
        &mut self,
        family: &'static dyn Family,
        v: &str,
        call: Option<Named>,
        start: usize,
        body: usize,
    ) -> bool {
        match family.whole_end(v, start, self.pos) {
            Ok(end) => {
                let mut found = Found::default();
                family.read(&v[start..end], &mut found);
                self.calls.extend(found.calls);
                self.pos = end;
                self.phase = Phase::Seek;
                true
            }
            Err(resume) => {
                self.pos = resume;
                self.phase = Phase::Whole {
                    call,
                    start,
                    body,
                    json: None,
                };
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
    fn head(&mut self, family: &'static dyn Family, v: &str, start: usize, head: usize) -> bool {
        match family.head(v, start, head) {
            Head::Wait if window(v, head).len() > MAX_HEAD => {
                self.phase = Phase::Stalled {
                    from: head,
                    call: None,
                    skip: 0,
                };
            }
            Head::Wait | Head::Hold => {
                self.phase = Phase::Head { start, head };
                return false;
            }
            Head::Body(at) => self.start_body(at),
            Head::Args(call, at) => {
                self.pos = at;
                self.phase = Phase::Args {
                    call,
                    scan: ValueScan::at(at),
                };
            }
            Head::Params(call, style, at) => {
                self.pos = at;
                self.phase = Phase::Params(Box::new(Params {
                    call,
                    style,
                    partial: Partial::object(),
                    open: None,
                }));
            }
            Head::Python(at) => {
                self.pos = at;
                self.phase = Phase::Python(PyList::at(at));
            }
            Head::Whole(call) => {
                self.pos = head;
                self.phase = Phase::Whole {
                    call,
                    start,
                    body: head,
                    json: family.json_whole().then(JsonValues::default),
                };
            }
            Head::Skip(at) => {
                self.pos = at;
                self.phase = Phase::Close;
            }
            Head::Seek(at) => {
                self.pos = at;
                self.phase = Phase::Seek;
            }
            Head::Stall(from, call) => {
                self.phase = Phase::Stalled {
                    from,
                    call,
                    skip: 0,
                };
            }
        }
        true
    }

    /// Reads parameters.
    fn params(&mut self, p: &mut Params, v: &str) -> Read {
        match p.open.take() {
            Some((name, shown, raw)) => {
                // Inside a parameter's value, from `self.pos` (its start).
                let ends = p.style.value_ends();
                match p.style.value_end(v, shown, &ends) {
                    Some((at, len)) => {
                        let value = p.style.value(&v[self.pos..at], raw);
                        if let Some(m) = p.partial.members() {
                            m.insert(name, value);
                        }
                        p.partial.set_leaf(None);
                        self.pos = at + len;
                        Read::More
                    }
                    None => {
                        // Show the text so far, but not what may be the start of the closer.
                        let keep = hold_back_any(v, &ends).max(shown);
                        if let Some(Value::String(s)) =
                            p.partial.members().and_then(|m| m.get_mut(&name))
                        {
                            s.push_str(&v[shown..keep]);
                        }
                        p.open = Some((name, keep, raw));
                        Read::Wait
                    }
                }
            }
            None => {
                // Between parameters: the next one, or the call's end.
                let mut markers: Vec<&str> = p.style.opens.to_vec();
                markers.extend(p.style.call_closes);
                let Some((at, len)) = find_any(v, self.pos, &markers) else {
                    self.pos = hold_back_any(v, &markers).max(self.pos);
                    return Read::Wait;
                };
                let marker = &v[at..at + len];
                if p.style.call_closes.contains(&marker) {
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
                let (name, value_at, raw) = match p.style.head(rest) {
                    ParamHead::Named(n, after, raw) => (n, after, raw),
                    ParamHead::Partial => return self.wait_at(at, rest.len()),
                };
                let value_start = at + len + value_at;
                if let Some(m) = p.partial.members() {
                    m.insert(name.clone(), Value::String(String::new()));
                }
                p.partial.set_leaf(Some(name.clone()));
                self.pos = value_start;
                p.open = Some((name, value_start, raw));
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
        family: &'static dyn Family,
        v: &str,
        from: usize,
        call: Option<Named>,
        skip: usize,
    ) -> bool {
        let after = self.pos.max(from) + 1;
        let closer = find_any(v, after.min(v.len()), family.closers());
        let opener = find_any(v, after.min(v.len()), family.openers());
        let end = closer.into_iter().chain(opener).min();
        // Ended by the call's closer, not the next call: brackets left open were forgotten.
        let ended = match (closer, end) {
            (Some(c), Some(e)) if c == e => End::Closed,
            _ => End::Open,
        };
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
            let parsed = repair::parse(&text[start..], &RepairOptions::default());
            // What was cut off gives no call, as in `parse`.
            let whole = parsed
                .ok()
                .filter(|p| !cut_short(&text[start..], &p.repairs, ended));
            if let Some(p) = whole {
                match call {
                    Some(call) => self.calls.push(ToolCall {
                        id: call.id,
                        name: call.name,
                        arguments: arguments(Some(p.value)).0,
                    }),
                    None => {
                        let mut found = Found::default();
                        calls_from_json(p.value, &mut found);
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
