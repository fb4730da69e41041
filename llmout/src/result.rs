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

    /// The message for the model when its reply could not be used, to send with the next
    /// request (see [`retry()`](crate::retry())): one line per problem, in the model's terms
    /// ("The field `value` must be an integer, not \"high\"."), the error first, then the
    /// changes that lost or made up data (a missing field filled in, a key dropped). `None`
    /// when there is nothing to say: the reply needed only syntax repair or reinterpreting
    /// (a key in another case, a number written as text), which a retry would not improve.
    ///
    /// For an [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) error, every constraint the
    /// value breaks is a line of its own. Without a schema at hand it says what a missing
    /// field must be only when the error does; [`retry::feedback`](crate::retry::feedback)
    /// takes the schema and always does.
    ///
    /// ```
    /// use llmout::LlmOutput;
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Score { value: u8, reason: String }
    /// let r = Score::from_llm(r#"{"value": "high"}"#);
    /// assert_eq!(
    ///     r.feedback().unwrap(),
    ///     "Your reply could not be used:\n\
    ///      - The field `value` must be an integer, not \"high\".\n\
    ///      Reply again with only the corrected JSON."
    /// );
    /// assert_eq!(Score::from_llm(r#"{"Value": "3", "reason": "ok"}"#).feedback(), None);
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
    ///     "Your reply could not be used:\n\
    ///      - `scope` is \"Auth\", which does not match the pattern ^[a-z]+$.\n\
    ///      - `title` is \"Fix login\", which does not match the pattern ^\\S+$.\n\
    ///      Reply again with only the corrected JSON."
    /// );
    /// ```
    pub fn feedback(&self) -> Option<String> {
        crate::feedback::message(self.error.as_ref(), &self.warnings, None)
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
