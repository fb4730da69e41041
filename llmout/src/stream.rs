//! Streaming: a partial value while the reply is still arriving.
//!
//! (For tool calls, see [`tools::Stream`](crate::tools::Stream).)
//!
//! Feed a [`Stream`] the chunks of a reply as they arrive; after each it holds the best
//! [`Partial`] value so far, and [`Stream::finish`] gives exactly what
//! [`LlmOutput::from_llm`] gives on the whole text, warnings included.
//!
//! # Design
//!
//! * **A generic view, not a generated type.** A [`Partial`] is the JSON written so far (a
//!   `serde_json::Value`) plus where writing is going on. A generated "all fields optional"
//!   twin of every user type would double the derive's output and still need a state per field;
//!   the view gives both for any type, and typed access per subtree once it is complete
//!   ([`Partial::complete_as`]).
//! * **Completion states** come from the open path: the containers still open and the scalar
//!   being written are [`FieldState::InProgress`]; everything else present is
//!   [`FieldState::Complete`]; the rest is [`FieldState::NotStarted`]. A string being written is
//!   shown as far as it got; a number or literal is not shown until a delimiter ends it (`12`
//!   may become `123`). Nothing half-written is ever reported complete.
//! * **Linear cost.** The stream keeps a cursor into the text received so far and never scans a
//!   byte twice: each chunk costs its own length (times the nesting depth, at most 128, for
//!   reaching the open container). A scanner that stops mid-token (a `\u` escape split across
//!   chunks, a number that may grow) resumes there. [`Stream::finish`] runs the full pipeline
//!   once.
//! * **Where the JSON starts.** Prose, markdown fences and reasoning blocks (`<think>`,
//!   `<thinking>`, `<reasoning>`, in any case, even with only the closer) are skipped; the
//!   first `{` or `[` outside a reasoning block starts the value. If it fails before its
//!   first member (`Here is {an example}`), the stream goes back to looking; a later
//!   top-level value replaces a finished one (the answer follows examples).
//! * **What the live view follows.** Standard JSON plus single quotes, comments, trailing
//!   commas, Python literals and reasoning blocks between tokens. Anything else (unquoted
//!   keys, say) stops the live view where it is ([`Partial::stalled`]); the text keeps
//!   accumulating and [`Stream::finish`] repairs it with the full parser. Keys are shown as
//!   the model wrote them; `finish` aligns them with the schema.
//!
//! ```
//! use llmout::{LlmOutput, stream::{FieldState, Stream}};
//!
//! #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
//! struct Answer { title: String, score: u32 }
//!
//! let mut s = Stream::<Answer>::new();
//! s.push("<think>hmm</think>Sure: {\"title\": \"Streams ar");
//! assert_eq!(s.partial().get("/title"), Some(&serde_json::json!("Streams ar")));
//! assert_eq!(s.partial().state("/title"), FieldState::InProgress);
//! s.push("e fun\", \"score\": 1");
//! assert_eq!(s.partial().state("/title"), FieldState::Complete);
//! assert_eq!(s.partial().state("/score"), FieldState::InProgress); // 1 may become 10
//! assert_eq!(s.partial().get("/score"), None);
//! s.push("0}");
//! assert!(s.partial().is_complete());
//! let result = s.finish();
//! assert_eq!(result.value, Some(Answer { title: "Streams are fun".into(), score: 10 }));
//! ```

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::extract::{reasoning_closer_ahead, reasoning_tag_ahead, TagAhead};
use crate::{LlmOutput, Options, ValidationResult};

/// Nesting the live view follows; deeper input stalls it (`finish` applies the real limit).
const MAX_DEPTH: usize = 128;

/// Whether a part of the value is written yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Fully written: it will not change.
    Complete,
    /// Being written: a container still open, or a scalar not yet ended.
    InProgress,
    /// Not written yet (or never will be).
    NotStarted,
}

/// The value written so far, and where writing is going on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Partial {
    value: Option<Value>,
    /// JSON pointer segments of the innermost open container.
    open: Vec<String>,
    /// Segment (under `open`) of the scalar being written, if any.
    leaf: Option<String>,
    complete: bool,
    stalled: bool,
}

impl Partial {
    /// The value so far: `None` until a JSON value has started.
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }

    /// The part of the value at a JSON pointer (`""` for the whole), if written (or being
    /// written, for strings and containers).
    pub fn get(&self, pointer: &str) -> Option<&Value> {
        self.value.as_ref()?.pointer(pointer)
    }

    /// The completion state of the part at a JSON pointer.
    ///
    /// ```
    /// use llmout::stream::{FieldState, Stream};
    /// let mut s = Stream::<serde_json::Value>::new();
    /// s.push(r#"{"done": [1, 2], "doing": [3"#);
    /// let p = s.partial();
    /// assert_eq!(p.state("/done"), FieldState::Complete);
    /// assert_eq!(p.state("/doing"), FieldState::InProgress);
    /// assert_eq!(p.state("/doing/0"), FieldState::InProgress); // 3 may become 30
    /// assert_eq!(p.state("/later"), FieldState::NotStarted);
    /// ```
    pub fn state(&self, pointer: &str) -> FieldState {
        let Some(value) = &self.value else {
            return FieldState::NotStarted;
        };
        if !self.complete {
            let n = segments(pointer).count();
            let on_path = segments(pointer).zip(&self.open).all(|(a, b)| a == **b);
            let on_open = n <= self.open.len() && on_path;
            let is_leaf = n == self.open.len() + 1
                && on_path
                && self.leaf.as_deref() == segments(pointer).last().as_deref();
            if on_open || is_leaf {
                return FieldState::InProgress;
            }
        }
        if value.pointer(pointer).is_some() {
            FieldState::Complete
        } else {
            FieldState::NotStarted
        }
    }

    /// The part at `pointer` as a `U`, only once it is [`FieldState::Complete`].
    ///
    /// ```
    /// use llmout::stream::Stream;
    /// let mut s = Stream::<serde_json::Value>::new();
    /// s.push(r#"{"tags": ["a", "b"], "n": 4"#);
    /// assert_eq!(s.partial().complete_as::<Vec<String>>("/tags"), Some(vec!["a".into(), "b".into()]));
    /// assert_eq!(s.partial().complete_as::<u32>("/n"), None); // may still grow
    /// ```
    pub fn complete_as<U: DeserializeOwned>(&self, pointer: &str) -> Option<U> {
        if self.state(pointer) != FieldState::Complete {
            return None;
        }
        U::deserialize(self.get(pointer)?).ok()
    }

    /// Whether the whole value has been written (its last closer arrived).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether the live view stopped at syntax it does not follow; [`Stream::finish`] still
    /// repairs the whole text.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// An object with no member yet, being written (the tools stream's parameters).
    pub(crate) fn object() -> Partial {
        Partial {
            value: Some(Value::Object(Map::new())),
            ..Partial::default()
        }
    }

    /// The members of an object being built by hand.
    pub(crate) fn members(&mut self) -> Option<&mut Map<String, Value>> {
        self.value.as_mut()?.as_object_mut()
    }

    /// Marks the member `key` as the one being written (`None`: none is).
    pub(crate) fn set_leaf(&mut self, key: Option<String>) {
        self.leaf = key;
    }

    /// Marks the whole value written.
    pub(crate) fn set_complete(&mut self) {
        self.complete = true;
        self.leaf = None;
        self.open.clear();
    }

    /// The pointer segments of the innermost open container.
    pub(crate) fn open_path(&self) -> &[String] {
        &self.open
    }

    /// The segment, under the open container, of the scalar being written.
    pub(crate) fn leaf(&self) -> Option<&str> {
        self.leaf.as_deref()
    }
}

/// The unescaped segments of a JSON pointer (borrowed unless one holds an escape).
fn segments(pointer: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
    pointer.split('/').skip(1).map(|s| {
        if s.contains('~') {
            std::borrow::Cow::Owned(s.replace("~1", "/").replace("~0", "~"))
        } else {
            std::borrow::Cow::Borrowed(s)
        }
    })
}

/// A reply arriving in chunks, parsed as it comes; see the [module docs](self).
#[derive(Debug, Clone)]
pub struct Stream<T> {
    text: String,
    scan: Scanner,
    options: Options,
    _target: PhantomData<fn() -> T>,
}

impl<T> Default for Stream<T> {
    fn default() -> Self {
        Stream {
            text: String::new(),
            scan: Scanner::default(),
            options: Options::default(),
            _target: PhantomData,
        }
    }
}

impl<T> Stream<T> {
    /// An empty stream with the default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty stream whose [`finish`](Stream::finish) uses `options`.
    pub fn with_options(options: Options) -> Self {
        Stream {
            options,
            ..Self::default()
        }
    }

    /// Adds a chunk of the reply and returns the partial value so far.
    pub fn push(&mut self, chunk: &str) -> &Partial {
        self.text.push_str(chunk);
        self.scan.advance(&self.text);
        &self.scan.partial
    }

    /// The partial value so far.
    pub fn partial(&self) -> &Partial {
        &self.scan.partial
    }

    /// All the text received so far.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl<T: LlmOutput> Stream<T> {
    /// The reply is complete: the result of the full pipeline on the whole text, exactly
    /// [`LlmOutput::from_llm_with`] with this stream's options.
    pub fn finish(self) -> ValidationResult<T> {
        T::from_llm_with(&self.text, &self.options)
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Prose,
    /// In a reasoning block, whose name is the `extract::TagAhead` index.
    Think(usize),
    Json,
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    KeyOrClose,
    Colon,
    Value,
    CommaOrClose,
}

#[derive(Debug, Clone)]
struct Frame {
    object: bool,
    expect: Expect,
    key: Option<String>,
    len: usize,
}

impl Frame {
    /// A container just opened: an object expects a key (or `}`), an array a value (or `]`).
    fn open(object: bool) -> Self {
        Frame {
            object,
            expect: if object {
                Expect::KeyOrClose
            } else {
                Expect::Value
            },
            key: None,
            len: 0,
        }
    }
}

#[derive(Debug, Clone)]
enum Scalar {
    /// A string: its quote, whether it is a key, and text decoded but not yet stored.
    Str {
        quote: u8,
        key: bool,
        buf: String,
    },
    Number {
        start: usize,
    },
    Literal {
        start: usize,
    },
    LineComment,
    BlockComment,
    /// A reasoning block between two tokens (the pipeline leaves it out too), whose name is
    /// the `extract::TagAhead` index.
    Think(usize),
}

#[derive(Debug, Clone, Default)]
struct Scanner {
    pos: usize,
    mode: Mode,
    /// One value starting exactly at the first position, then nothing (see [`ValueScan`]).
    single: bool,
    /// With `single`: where the value ended.
    end: Option<usize>,
    frames: Vec<Frame>,
    scalar: Option<Scalar>,
    /// Whether the current value has any member or item yet (a failure before that is prose).
    started: bool,
    partial: Partial,
}

enum Step {
    /// Keep scanning.
    Go,
    /// Wait for more text.
    Wait,
    /// The live view cannot follow this.
    Fail,
}

impl Scanner {
    fn advance(&mut self, text: &str) {
        let b = text.as_bytes();
        while self.pos < b.len() {
            let step = match self.mode {
                Mode::Prose => self.prose(b),
                Mode::Think(name) => self.think(b, name),
                Mode::Json => self.json(text),
                Mode::Done => {
                    self.pos = b.len();
                    Step::Go
                }
            };
            match step {
                Step::Go => {}
                Step::Wait => break,
                Step::Fail => self.fail(),
            }
        }
        // Store what a string being written has so far, so the view shows it.
        if let Some(Scalar::Str {
            key: false, buf, ..
        }) = &mut self.scalar
        {
            if !buf.is_empty() {
                let p = &mut self.partial;
                if let Some(Value::String(s)) = slot(&mut p.value, &p.open, p.leaf.as_deref()) {
                    s.push_str(buf);
                }
                buf.clear();
            }
        }
    }

    fn fail(&mut self) {
        self.frames.clear();
        self.scalar = None;
        self.partial.open.clear();
        self.partial.leaf = None;
        if self.single {
            self.partial.stalled = true;
            self.mode = Mode::Done;
        } else if self.started {
            // A value with content that the live view cannot follow: keep it as it is.
            self.partial.stalled = true;
            self.mode = Mode::Done;
        } else {
            // Braces in prose (`Here is {an example}`): keep looking.
            self.partial.value = None;
            self.mode = Mode::Prose;
            self.pos += 1;
        }
    }

    fn prose(&mut self, b: &[u8]) -> Step {
        let rest = &b[self.pos..];
        if self.single && !matches!(rest[0], b'{' | b'[') {
            return Step::Fail;
        }
        match rest[0] {
            b'{' | b'[' => {
                let object = rest[0] == b'{';
                self.partial = Partial {
                    value: Some(if object {
                        Value::Object(Map::new())
                    } else {
                        Value::Array(Vec::new())
                    }),
                    ..Partial::default()
                };
                self.frames.push(Frame::open(object));
                self.started = false;
                self.mode = Mode::Json;
                self.pos += 1;
                Step::Go
            }
            b'<' => match reasoning_tag_ahead(rest) {
                TagAhead::Open { name, len } => {
                    self.pos += len;
                    self.mode = Mode::Think(name);
                    Step::Go
                }
                TagAhead::Close { len, .. } => {
                    // Everything before a dangling closer was reasoning.
                    self.pos += len;
                    self.partial = Partial::default();
                    Step::Go
                }
                TagAhead::Unsure => Step::Wait,
                TagAhead::Text => {
                    self.pos += 1;
                    Step::Go
                }
            },
            _ => {
                self.pos += 1;
                Step::Go
            }
        }
    }

    fn think(&mut self, b: &[u8], name: usize) -> Step {
        match reasoning_closer_ahead(b, self.pos, name) {
            Ok(end) => {
                self.pos = end;
                self.mode = Mode::Prose;
                Step::Go
            }
            Err(resume) => {
                // (From a `<` that may yet be the closer.)
                self.pos = resume;
                Step::Wait
            }
        }
    }

    fn json(&mut self, text: &str) -> Step {
        let b = text.as_bytes();
        if self.scalar.is_some() {
            return self.continue_scalar(text);
        }
        let c = b[self.pos];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
            return Step::Go;
        }
        if c == b'/' {
            return match b.get(self.pos + 1) {
                None => Step::Wait,
                Some(b'/') => {
                    self.pos += 2;
                    self.scalar = Some(Scalar::LineComment);
                    Step::Go
                }
                Some(b'*') => {
                    self.pos += 2;
                    self.scalar = Some(Scalar::BlockComment);
                    Step::Go
                }
                Some(_) => Step::Fail,
            };
        }
        if c == b'<' {
            match reasoning_tag_ahead(&b[self.pos..]) {
                TagAhead::Open { name, len } => {
                    self.pos += len;
                    self.scalar = Some(Scalar::Think(name));
                    return Step::Go;
                }
                TagAhead::Unsure => return Step::Wait,
                _ => {}
            }
        }
        let Some(frame) = self.frames.last_mut() else {
            return Step::Fail;
        };
        match (frame.expect, c) {
            (Expect::KeyOrClose, b'"' | b'\'') => {
                self.pos += 1;
                self.scalar = Some(Scalar::Str {
                    quote: c,
                    key: true,
                    buf: String::new(),
                });
                Step::Go
            }
            (Expect::KeyOrClose, b'}') | (Expect::CommaOrClose, b'}') if frame.object => {
                self.close()
            }
            (Expect::Value | Expect::CommaOrClose, b']') if !frame.object => self.close(),
            (Expect::KeyOrClose, b',') => {
                self.pos += 1;
                Step::Go
            }
            (Expect::Colon, b':') => {
                frame.expect = Expect::Value;
                self.pos += 1;
                Step::Go
            }
            (Expect::CommaOrClose, b',') => {
                frame.expect = if frame.object {
                    Expect::KeyOrClose
                } else {
                    Expect::Value
                };
                self.pos += 1;
                Step::Go
            }
            (Expect::Value, _) => self.start_value(c),
            _ => Step::Fail,
        }
    }

    /// A value starts at the cursor inside the innermost frame.
    fn start_value(&mut self, c: u8) -> Step {
        let (placeholder, scalar) = match c {
            b'{' => (Some(Value::Object(Map::new())), None),
            b'[' => (Some(Value::Array(Vec::new())), None),
            b'"' | b'\'' => (
                Some(Value::String(String::new())),
                Some(Scalar::Str {
                    quote: c,
                    key: false,
                    buf: String::new(),
                }),
            ),
            b'-' | b'+' | b'.' | b'0'..=b'9' => (None, Some(Scalar::Number { start: self.pos })),
            c if c.is_ascii_alphabetic() => (None, Some(Scalar::Literal { start: self.pos })),
            _ => return Step::Fail,
        };
        let Some(seg) = self.child_segment() else {
            return Step::Fail;
        };
        self.started = true;
        if let Some(v) = placeholder {
            if self.insert(v).is_none() {
                return Step::Fail;
            }
        }
        self.pos += 1;
        match (c, scalar) {
            (b'{' | b'[', _) => {
                if self.frames.len() >= MAX_DEPTH {
                    return Step::Fail;
                }
                let object = c == b'{';
                self.partial.open.push(seg);
                self.frames.push(Frame::open(object));
            }
            (_, Some(word @ (Scalar::Number { .. } | Scalar::Literal { .. }))) => {
                // Shown only once complete; cursor back so the scanner reads it whole.
                self.pos -= 1;
                self.partial.leaf = Some(seg);
                self.scalar = Some(word);
            }
            (_, scalar) => {
                self.partial.leaf = Some(seg);
                self.scalar = scalar;
            }
        }
        Step::Go
    }

    fn continue_scalar(&mut self, text: &str) -> Step {
        let b = text.as_bytes();
        match self.scalar.take() {
            Some(Scalar::LineComment) => match find(&b[self.pos..], b"\n") {
                Some(i) => {
                    self.pos += i + 1;
                    Step::Go
                }
                None => {
                    self.pos = b.len();
                    self.scalar = Some(Scalar::LineComment);
                    Step::Wait
                }
            },
            Some(Scalar::BlockComment) => match find(&b[self.pos..], b"*/") {
                Some(i) => {
                    self.pos += i + 2;
                    Step::Go
                }
                None => {
                    self.pos = self.pos.max(b.len().saturating_sub(1));
                    self.scalar = Some(Scalar::BlockComment);
                    Step::Wait
                }
            },
            Some(Scalar::Think(name)) => match reasoning_closer_ahead(b, self.pos, name) {
                Ok(end) => {
                    self.pos = end;
                    Step::Go
                }
                Err(resume) => {
                    self.pos = resume;
                    self.scalar = Some(Scalar::Think(name));
                    Step::Wait
                }
            },
            Some(word @ (Scalar::Number { .. } | Scalar::Literal { .. })) => {
                let (Scalar::Number { start } | Scalar::Literal { start }) = word else {
                    return Step::Fail;
                };
                let mut i = self.pos;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'+' | b'-' | b'.'))
                {
                    i += 1;
                }
                if i == b.len() {
                    self.pos = i;
                    self.scalar = Some(word);
                    return Step::Wait;
                }
                self.pos = i;
                let word = &text[start..i];
                let value = match word {
                    "true" | "True" => Value::Bool(true),
                    "false" | "False" => Value::Bool(false),
                    "null" | "None" => Value::Null,
                    _ => match serde_json::from_str::<serde_json::Number>(word) {
                        Ok(n) => Value::Number(n),
                        Err(_) => return Step::Fail,
                    },
                };
                if self.insert(value).is_none() {
                    return Step::Fail;
                }
                self.partial.leaf = None;
                self.after_value();
                Step::Go
            }
            Some(Scalar::Str {
                quote,
                key,
                mut buf,
            }) => {
                let step = self.string(text, quote, &mut buf);
                match step {
                    Step::Go => {
                        // Closed.
                        if key {
                            if let Some(f) = self.frames.last_mut() {
                                f.key = Some(buf);
                                f.expect = Expect::Colon;
                            }
                        } else {
                            if let Some(Value::String(s)) = self.leaf_slot() {
                                s.push_str(&buf);
                            }
                            self.partial.leaf = None;
                            self.after_value();
                        }
                        Step::Go
                    }
                    other => {
                        self.scalar = Some(Scalar::Str { quote, key, buf });
                        other
                    }
                }
            }
            None => Step::Go,
        }
    }

    /// Reads string content into `buf`; `Go` when the closing quote was passed, `Wait` when
    /// the text ends first.
    fn string(&mut self, text: &str, quote: u8, buf: &mut String) -> Step {
        let b = text.as_bytes();
        loop {
            let run = self.pos;
            while self.pos < b.len() && b[self.pos] != quote && b[self.pos] != b'\\' {
                self.pos += 1;
            }
            buf.push_str(&text[run..self.pos]);
            let Some(&c) = b.get(self.pos) else {
                return Step::Wait;
            };
            if c == quote {
                self.pos += 1;
                return Step::Go;
            }
            // An escape: wait until all of it has arrived.
            let Some(&e) = b.get(self.pos + 1) else {
                return Step::Wait;
            };
            let simple = match e {
                b'n' => Some('\n'),
                b't' => Some('\t'),
                b'r' => Some('\r'),
                b'b' => Some('\u{8}'),
                b'f' => Some('\u{c}'),
                b'u' => None,
                other => Some(char::from(other)),
            };
            if let Some(ch) = simple {
                if e.is_ascii() {
                    buf.push(ch);
                    self.pos += 2;
                    continue;
                }
                // A backslash before a non-ASCII character: keep both, as `finish` does.
                buf.push('\\');
                self.pos += 1;
                continue;
            }
            let Some(unit) = hex4(b, self.pos + 2) else {
                if b.len() < self.pos + 6 {
                    return Step::Wait;
                }
                buf.push('\\');
                self.pos += 1;
                continue;
            };
            if (0xD800..0xDC00).contains(&unit) {
                // A high surrogate: wait to see whether its low half follows.
                let after = b.get(self.pos + 6..).unwrap_or_default();
                let n = after.len().min(2);
                if after[..n] == b"\\u"[..n] && b.len() < self.pos + 12 {
                    return Step::Wait;
                }
                if after.starts_with(b"\\u") {
                    if let Some(low @ 0xDC00..0xE000) = hex4(b, self.pos + 8) {
                        let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        buf.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                        self.pos += 12;
                        continue;
                    }
                }
            }
            buf.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
            self.pos += 6;
        }
    }

    fn close(&mut self) -> Step {
        self.pos += 1;
        self.frames.pop();
        if self.frames.is_empty() {
            self.partial.complete = true;
            self.partial.open.clear();
            if self.single {
                self.end = Some(self.pos);
                self.mode = Mode::Done;
            } else {
                self.mode = Mode::Prose;
            }
            return Step::Go;
        }
        self.partial.open.pop();
        self.after_value();
        Step::Go
    }

    /// A value ended in the innermost frame.
    fn after_value(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if f.object {
                f.key = None;
            } else {
                f.len += 1;
            }
            f.expect = Expect::CommaOrClose;
        }
    }

    /// The pointer segment the next value of the innermost frame goes to.
    fn child_segment(&self) -> Option<String> {
        let f = self.frames.last()?;
        if f.object {
            f.key.clone()
        } else {
            Some(f.len.to_string())
        }
    }

    /// The innermost open container.
    fn container(&mut self) -> Option<&mut Value> {
        walk(self.partial.value.as_mut()?, &self.partial.open)
    }

    /// Stores `v` as the next value of the innermost container: last in it, a key given
    /// again too (its earlier value taken out), so each open container and the string being
    /// written are the last in theirs ([`walk`]).
    fn insert(&mut self, v: Value) -> Option<()> {
        let key = self.frames.last()?.key.clone();
        match (self.container()?, key) {
            (Value::Object(m), Some(k)) => {
                m.swap_remove(&k);
                m.insert(k, v);
            }
            (Value::Array(a), _) => a.push(v),
            _ => return None,
        }
        Some(())
    }

    /// The scalar being written.
    fn leaf_slot(&mut self) -> Option<&mut Value> {
        let p = &mut self.partial;
        slot(&mut p.value, &p.open, p.leaf.as_deref())
    }
}

/// The container at the end of `open` in `v`: each open container is the last value in the
/// one around it ([`Scanner::insert`]), so it is found by position, never by its key. (Looked
/// up by key, as it was, a long key above many values cost its length for each value: a
/// megabyte key above 200 000 numbers took four seconds.)
fn walk<'v>(mut v: &'v mut Value, open: &[String]) -> Option<&'v mut Value> {
    for _ in open {
        v = last(v)?;
    }
    Some(v)
}

/// The last value in a container.
fn last(v: &mut Value) -> Option<&mut Value> {
    match v {
        Value::Object(m) => m.values_mut().next_back(),
        Value::Array(a) => a.last_mut(),
        _ => None,
    }
}

/// The string being written (`leaf`, the last value in the container at the end of `open`:
/// its placeholder is stored when it starts).
fn slot<'v>(
    value: &'v mut Option<Value>,
    open: &[String],
    leaf: Option<&str>,
) -> Option<&'v mut Value> {
    leaf?;
    last(walk(value.as_mut()?, open)?)
}

/// One JSON value (an object or array) read as it arrives, starting exactly at a given
/// offset of a growing text and ending with its last closer: the live arguments of a streamed
/// tool call. It follows what [`Stream`]'s live view follows, and stalls on anything else.
#[derive(Debug, Clone)]
pub(crate) struct ValueScan(Scanner);

impl ValueScan {
    /// A value whose `{` or `[` is at `pos`.
    pub(crate) fn at(pos: usize) -> Self {
        ValueScan(Scanner {
            pos,
            single: true,
            ..Scanner::default()
        })
    }

    /// Reads what `text` (the same text, grown) adds.
    pub(crate) fn advance(&mut self, text: &str) {
        if self.0.mode != Mode::Done {
            self.0.advance(text);
        }
    }

    pub(crate) fn partial(&self) -> &Partial {
        &self.0.partial
    }

    /// Where the value ended, once its last closer arrived.
    pub(crate) fn end(&self) -> Option<usize> {
        self.0.end
    }

    /// Whether the value uses syntax the live view does not follow.
    pub(crate) fn stalled(&self) -> bool {
        self.0.partial.stalled
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let digits = b.get(at..at + 4)?;
    let mut n = 0;
    for &d in digits {
        n = n * 16 + (d as char).to_digit(16)?;
    }
    Some(n)
}
