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
}

impl ErrorKind {
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
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "expected {}, found {}", self.expected, self.found)
        } else {
            write!(
                f,
                "at {}: expected {}, found {}",
                self.path, self.expected, self.found
            )
        }
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
