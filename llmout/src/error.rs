//! The error returned when a reply cannot be turned into the expected value.

use std::fmt;

/// What went wrong, broadly. Match on this; read [`Error`]'s `Display` for the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The reply holds nothing usable: empty, whitespace, prose only, a refusal, or only reasoning.
    NoJson,
    /// Text that looked like JSON could not be parsed even leniently.
    Syntax,
    /// The input nests deeper than the configured limit.
    DepthLimit,
    /// A value does not fit the schema and no recovery rule applies.
    Mismatch,
    /// Recovery would have to guess between several equally good answers.
    Ambiguous,
    /// Recovery was possible but forbidden by the policy (strict mode, a field marked
    /// `#[llmout(no_invent)]`, or a value that would have been invented under
    /// [`Policy::NoInvent`](crate::Policy::NoInvent)).
    Forbidden,
    /// The JSON schema given at run time is not one llmout can use.
    InvalidSchema,
    /// The value has the schema's shape but breaks constraints it states (`maxLength`,
    /// `pattern`, `minimum`, ...): [`Error::violations`] lists every one.
    Invalid,
    /// What recovery would record is out of all proportion to the reply: the JSON pointers
    /// of its changes, moves or violations would hold more than a mebibyte and 16 bytes per
    /// byte of the reply (a long key above many changes). (The lenient parser's fixes have
    /// the same bound; past it the reply is a [`Syntax`](ErrorKind::Syntax) error.)
    TooLarge,
}

impl ErrorKind {
    /// A limit met, not a value that does not fit: nothing is dropped or reshaped around it.
    pub(crate) fn is_limit(self) -> bool {
        matches!(self, ErrorKind::DepthLimit | ErrorKind::TooLarge)
    }

    /// A short, stable, snake_case name for the kind (used by the CLI and in logs).
    ///
    /// ```
    /// assert_eq!(llmout::ErrorKind::Forbidden.name(), "forbidden");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::NoJson => "no_json",
            ErrorKind::Syntax => "syntax",
            ErrorKind::DepthLimit => "depth_limit",
            ErrorKind::Mismatch => "mismatch",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::InvalidSchema => "invalid_schema",
            ErrorKind::Invalid => "invalid",
            ErrorKind::TooLarge => "too_large",
        }
    }
}

/// Why a reply could not be turned into the expected value: what was expected, what was found,
/// and where (a JSON pointer, `""` for the root).
///
/// ```
/// use llmout::{Error, ErrorKind};
/// let e = Error::new(ErrorKind::Mismatch, "/age", "an integer", "\"old\"");
/// assert_eq!(e.to_string(), "at /age: expected an integer, found \"old\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    path: String,
    expected: String,
    found: String,
    /// Every violation, for [`ErrorKind::Invalid`] (the first is also `path`, `expected` and
    /// `found`); empty otherwise.
    violations: Vec<Violation>,
}

impl Error {
    /// Makes an error.
    pub fn new(
        kind: ErrorKind,
        path: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error {
            kind,
            path: path.into(),
            expected: expected.into(),
            found: found.into(),
            violations: Vec::new(),
        }
    }

    /// An [`ErrorKind::Invalid`] error holding every violation of a value, in the order given.
    /// Its path, `expected` and `found` are the first one's (`expected` names the keyword);
    /// its `Display` is the first one's, with how many more there are.
    ///
    /// ```
    /// use llmout::{Error, ErrorKind, Violation};
    /// let e = Error::invalid(vec![
    ///     Violation::new("/title", "maxLength", "at most 5 characters", "13 characters",
    ///         "`title` has 13 characters; at most 5 are allowed"),
    ///     Violation::new("/tags", "maxItems", "at most 1 item", "2 items",
    ///         "`tags` has 2 items; at most 1 is allowed"),
    /// ]);
    /// assert_eq!(e.kind(), ErrorKind::Invalid);
    /// assert_eq!(e.path(), "/title");
    /// assert_eq!(e.violations().len(), 2);
    /// assert_eq!(e.to_string(),
    ///     "at /title: expected at most 5 characters (maxLength), found 13 characters (and 1 more violation)");
    /// ```
    ///
    /// An empty list still makes an `Invalid` error, one that says no violation was listed.
    pub fn invalid(violations: Vec<Violation>) -> Self {
        let (path, expected, found) = match violations.first() {
            Some(v) => (
                v.path.clone(),
                format!("{} ({})", v.expected, v.keyword),
                v.found.clone(),
            ),
            None => (
                String::new(),
                "a value that meets its schema's constraints".to_owned(),
                "no violation listed".to_owned(),
            ),
        };
        Error {
            kind: ErrorKind::Invalid,
            path,
            expected,
            found,
            violations,
        }
    }

    /// The broad kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// JSON pointer to the value that failed (`""` for the whole reply).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was expected there, in words.
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What was found there, in words (a short excerpt of the input, or a description).
    pub fn found(&self) -> &str {
        &self.found
    }

    /// Every constraint the value breaks, for an [`ErrorKind::Invalid`] error; empty for the
    /// other kinds.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The same error located under `prefix` (a JSON pointer): for errors of a part of a
    /// larger document, such as one tool call's arguments.
    ///
    /// ```
    /// use llmout::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::Mismatch, "/path", "a string", "12").at_prefix("/tool_calls/0/arguments");
    /// assert_eq!(e.path(), "/tool_calls/0/arguments/path");
    /// ```
    pub fn at_prefix(mut self, prefix: &str) -> Self {
        self.path.insert_str(0, prefix);
        for v in &mut self.violations {
            v.path.insert_str(0, prefix);
        }
        self
    }

    /// The same error with the segment `/0` at byte `at` of its path taken out: the index a
    /// value wrapped in a one-element array was recovered at, which the reply never wrote.
    pub(crate) fn unwrapped_at(mut self, at: usize) -> Self {
        let rest = self.path.get(at..).unwrap_or_default();
        if rest == "/0" || rest.starts_with("/0/") {
            self.path.replace_range(at..at + 2, "");
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "expected {}, found {}", self.expected, self.found)?;
        } else {
            write!(
                f,
                "at {}: expected {}, found {}",
                self.path, self.expected, self.found
            )?;
        }
        match self.violations.len() {
            0 | 1 => Ok(()),
            2 => write!(f, " (and 1 more violation)"),
            n => write!(f, " (and {} more violations)", n - 1),
        }
    }
}

/// One constraint of the schema that a value breaks: where (a JSON pointer), which keyword
/// (`maxLength`, `pattern`, `minimum`, ...), what it asks for, what was found, and the same
/// in plain words for the model ([`ValidationResult::feedback`](crate::ValidationResult::feedback)
/// lists these).
///
/// ```
/// use llmout::Violation;
/// let v = Violation::new("/title", "maxLength", "at most 72 characters", "96 characters",
///     "`title` has 96 characters; at most 72 are allowed");
/// assert_eq!(v.keyword(), "maxLength");
/// assert_eq!(v.to_string(), "`title` has 96 characters; at most 72 are allowed");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    path: String,
    keyword: &'static str,
    expected: String,
    found: String,
    message: String,
}

impl Violation {
    /// Makes a violation.
    pub fn new(
        path: impl Into<String>,
        keyword: &'static str,
        expected: impl Into<String>,
        found: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Violation {
            path: path.into(),
            keyword,
            expected: expected.into(),
            found: found.into(),
            message: message.into(),
        }
    }

    /// JSON pointer to the value that breaks the constraint (`""` for the whole value).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The schema keyword broken: `maxLength`, `pattern`, `format`, `minimum`, ...
    pub fn keyword(&self) -> &str {
        self.keyword
    }

    /// What the keyword asks for, in words ("at most 72 characters").
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What was found instead, in words ("96 characters").
    pub fn found(&self) -> &str {
        &self.found
    }

    /// The violation in plain words, naming the value ("`title` has 96 characters; at most 72
    /// are allowed"): what the model is told.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Describes a piece of input for an error message: at most `max` characters, quoted,
/// with an ellipsis when cut. Never splits a UTF-8 character.
///
/// ```
/// assert_eq!(llmout::excerpt("hello world", 5), "\"hello…\"");
/// assert_eq!(llmout::excerpt("", 5), "empty input");
/// ```
pub fn excerpt(text: &str, max: usize) -> String {
    if text.trim().is_empty() {
        return if text.is_empty() {
            "empty input".to_owned()
        } else {
            "only whitespace".to_owned()
        };
    }
    let mut cut = text.len();
    for (n, (i, _)) in text.char_indices().enumerate() {
        if n == max {
            cut = i;
            break;
        }
    }
    let shown = &text[..cut];
    let mut out = serde_json::to_string(shown).unwrap_or_default();
    if cut < text.len() {
        out.insert(out.len() - 1, '…');
    }
    out
}
