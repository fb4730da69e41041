//! [`ValidationResult`]: a value (or an error) plus every change made to get it.

use crate::{Error, Warning};

/// The outcome of [`from_llm`](crate::LlmOutput::from_llm): the value if one could be
/// recovered, every change made to the reply on the way, and whether any change was made.
///
/// Exactly one of `value` and `error` is `Some` for results built by llmout.
///
/// ```
/// use llmout::{ValidationResult, Warning, WarningKind};
/// let ok: ValidationResult<u32> = ValidationResult::ok(7, vec![]);
/// assert!(!ok.recovered);
/// assert_eq!(ok.into_result().unwrap(), 7);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use = "a ValidationResult may hold an error or warnings that should be looked at"]
pub struct ValidationResult<T> {
    /// The value, if one could be recovered.
    pub value: Option<T>,
    /// Every change made to the reply to get `value`, in pipeline order.
    pub warnings: Vec<Warning>,
    /// `true` iff any change was made (`warnings` is not empty).
    pub recovered: bool,
    /// Why no value could be produced, when `value` is `None`.
    pub error: Option<Error>,
}

impl<T> ValidationResult<T> {
    /// A successful result; `recovered` is derived from `warnings`.
    pub fn ok(value: T, warnings: Vec<Warning>) -> Self {
        ValidationResult {
            recovered: !warnings.is_empty(),
            value: Some(value),
            warnings,
            error: None,
        }
    }

    /// A failed result, keeping the warnings gathered before the failure.
    pub fn err(error: Error, warnings: Vec<Warning>) -> Self {
        ValidationResult {
            recovered: !warnings.is_empty(),
            value: None,
            warnings,
            error: Some(error),
        }
    }

    /// `true` when a value was produced.
    pub fn is_ok(&self) -> bool {
        self.value.is_some()
    }

    /// The value or the error, dropping the warnings.
    ///
    /// ```
    /// use llmout::{Error, ErrorKind, ValidationResult};
    /// let r: ValidationResult<u8> =
    ///     ValidationResult::err(Error::new(ErrorKind::NoJson, "", "a JSON value", "empty input"), vec![]);
    /// assert_eq!(r.into_result().unwrap_err().kind(), ErrorKind::NoJson);
    /// ```
    pub fn into_result(self) -> Result<T, Error> {
        match (self.value, self.error) {
            (Some(v), _) => Ok(v),
            (None, Some(e)) => Err(e),
            (None, None) => Err(Error::new(
                crate::ErrorKind::NoJson,
                "",
                "a value",
                "nothing (empty ValidationResult)",
            )),
        }
    }

    /// A short message for the model in a retry, listing what was wrong with its reply (the
    /// error, and every schema-level change: missing fields, values that did not fit, renamed
    /// or dropped keys), each with its path; for an [`ErrorKind::Invalid`](crate::ErrorKind::Invalid)
    /// error, every constraint broken, in plain words. `None` when the reply needed no recovery
    /// beyond syntax (extraction, escapes, commas), which a retry would not improve.
    ///
    /// ```
    /// use llmout::LlmOutput;
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Score { value: u8, reason: String }
    /// let r = Score::from_llm(r#"{"value": "high"}"#);
    /// assert_eq!(
    ///     r.feedback().unwrap(),
    ///     "Your reply did not match the expected JSON:\n\
    ///      - /value: expected an integer, found \"high\"\n\
    ///      Reply again with only the corrected JSON."
    /// );
    /// assert_eq!(Score::from_llm(r#"{"value": 3, "reason": "ok"}"#).feedback(), None);
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Commit {
    ///     #[schemars(regex(pattern = r"^[a-z]+$"))]
    ///     scope: String,
    ///     #[schemars(regex(pattern = r"^\S+$"))]
    ///     title: String,
    /// }
    /// let r = Commit::from_llm(r#"{"scope": "Auth", "title": "Fix login"}"#);
    /// assert_eq!(
    ///     r.feedback().unwrap(),
    ///     "Your reply did not match the expected JSON:\n\
    ///      - `scope` is \"Auth\", which does not match the pattern ^[a-z]+$\n\
    ///      - `title` is \"Fix login\", which does not match the pattern ^\\S+$\n\
    ///      Reply again with only the corrected JSON."
    /// );
    /// ```
    pub fn feedback(&self) -> Option<String> {
        use crate::WarningKind as K;
        let mut lines: Vec<String> = Vec::new();
        if let Some(e) = &self.error {
            let path = if e.path().is_empty() {
                "(root)"
            } else {
                e.path()
            };
            if e.violations().is_empty() {
                lines.push(format!(
                    "- {path}: expected {}, found {}",
                    e.expected(),
                    e.found()
                ));
            }
            // Every constraint broken, each in plain words.
            lines.extend(e.violations().iter().map(|v| format!("- {v}")));
        }
        for w in &self.warnings {
            if matches!(w.kind, K::Extracted | K::Sanitized | K::Repaired(_)) {
                continue;
            }
            lines.push(format!("- {w}"));
        }
        if lines.is_empty() {
            return None;
        }
        Some(format!(
            "Your reply did not match the expected JSON:\n{}\nReply again with only the corrected JSON.",
            lines.join("\n")
        ))
    }

    /// Transforms the value, keeping warnings and error.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ValidationResult<U> {
        ValidationResult {
            value: self.value.map(f),
            warnings: self.warnings,
            recovered: self.recovered,
            error: self.error,
        }
    }
}
