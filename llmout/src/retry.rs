//! Asking again: call the model, read its reply with `from_llm`, and when no value comes of
//! it, call again with a message that says what was wrong, up to a number of attempts.
//!
//! [`retry()`] takes a closure that calls the model; [`retry_async`] takes one that returns a
//! future, and works on any runtime (it only awaits what the closure returns). The closure is
//! given the attempts so far, each with the model's reply and the [`feedback`](Attempt::feedback)
//! written for it, so it can send the conversation as the provider wants it: the reply as
//! the assistant's turn and the feedback as the user's, or the feedback alone.
//!
//! A reply fails when no value comes of it, so the [`Options`]' policy decides what is worth
//! asking again for. Under the default lenient policy a missing field is filled in (with a
//! warning) and is no failure; under [`Policy::NoInvent`](crate::Policy::NoInvent) it is, and
//! the model is asked for it: "The field `score` is missing; it must be an integer." That is
//! what a retry loop is for, and what the examples use.
//!
//! The result keeps every attempt (reply, warnings, error, feedback), so an application can
//! log what happened; the model's own error (a network failure, say) ends the loop at once,
//! with the attempts made before it.
//!
//! ```
//! use llmout::{retry::retry, LlmOutput, Options, Policy};
//!
//! #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
//! struct Rating { title: String, score: u8 }
//!
//! // A scripted model: the first reply leaves `score` out, the second has it.
//! let mut replies = vec![r#"{"title": "Good"}"#, r#"{"title": "Good", "score": 4}"#].into_iter();
//! let mut sent = Vec::new();
//! let options = Options::default().policy(Policy::NoInvent);
//! let r = retry::<Rating, std::convert::Infallible>(3, &options, |attempts| {
//!     if let Some(last) = attempts.last() {
//!         sent.push(last.feedback.clone().unwrap());
//!     }
//!     Ok(replies.next().unwrap().to_owned())
//! })
//! .unwrap();
//! assert_eq!(r.value, Some(Rating { title: "Good".into(), score: 4 }));
//! assert_eq!(r.attempts.len(), 2);
//! assert_eq!(sent, ["Your reply could not be used:\n\
//!     - The field `score` is missing; it must be an integer.\n\
//!     Reply again with only the corrected JSON."]);
//! ```

use std::fmt;
use std::future::Future;

use crate::schema::Schema;
use crate::{Error, ErrorKind, LlmOutput, Options, ValidationResult, Warning};

/// One call of the model and what came of its reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The model's reply, as it came.
    pub reply: String,
    /// Every change made to read it (see [`ValidationResult::warnings`]).
    pub warnings: Vec<Warning>,
    /// Why no value came of it; `None` for the reply that was used.
    pub error: Option<Error>,
    /// The message for the model about this reply, sent with the next call when there is
    /// one; `None` for the reply that was used.
    pub feedback: Option<String>,
}

/// What [`retry()`] and [`retry_async`] came to: the value of the first reply that gave one,
/// and every attempt, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Retried<T> {
    /// The value, if a reply gave one.
    pub value: Option<T>,
    /// Every call of the model, in order; the last is the one whose reply was used, if any
    /// was.
    pub attempts: Vec<Attempt>,
}

impl<T> Retried<T> {
    /// Why the last reply could not be used, when none was.
    pub fn error(&self) -> Option<&Error> {
        match self.value {
            Some(_) => None,
            None => self.attempts.last().and_then(|a| a.error.as_ref()),
        }
    }

    /// The value, or the last attempt's error.
    pub fn into_result(self) -> Result<T, Error> {
        match self.value {
            Some(v) => Ok(v),
            None => Err(self
                .attempts
                .last()
                .and_then(|a| a.error.clone())
                .unwrap_or_else(|| {
                    Error::new(ErrorKind::NoJson, "", "a reply", "no attempt was made")
                })),
        }
    }
}

/// The model's own call failed (the closure returned an error): the loop ends there.
#[derive(Debug, Clone, PartialEq)]
pub struct CallFailed<E> {
    /// The closure's error.
    pub error: E,
    /// The attempts made before it.
    pub attempts: Vec<Attempt>,
}

impl<E: fmt::Display> fmt::Display for CallFailed<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "calling the model failed after {} attempt(s): {}",
            self.attempts.len(),
            self.error
        )
    }
}

impl<E: std::error::Error + 'static> std::error::Error for CallFailed<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Calls the model (`call`, given the attempts so far) and reads its reply as `T` with
/// `options`, up to `max_attempts` times (at least once), until a reply gives a value. Each
/// failed attempt carries the feedback the next call should send. See the [module
/// docs](self).
pub fn retry<T: LlmOutput, E>(
    max_attempts: usize,
    options: &Options,
    mut call: impl FnMut(&[Attempt]) -> Result<String, E>,
) -> Result<Retried<T>, CallFailed<E>> {
    let mut attempts = Vec::new();
    loop {
        let reply = match call(&attempts) {
            Ok(reply) => reply,
            Err(error) => return Err(CallFailed { error, attempts }),
        };
        if let Some(done) = read::<T>(reply, options, &mut attempts, max_attempts) {
            return Ok(done);
        }
    }
}

/// [`retry()`] for a model called asynchronously: `call` returns a future of the reply. It
/// needs no particular runtime: it awaits the futures `call` makes, nothing else.
///
/// ```
/// use llmout::{retry::retry_async, LlmOutput, Options, Policy};
/// use std::future::Future;
///
/// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// struct Rating { score: u8 }
///
/// async fn model(turn: usize) -> Result<String, std::io::Error> {
///     Ok(if turn == 0 { "{\"score\": \"high\"}" } else { "{\"score\": 4}" }.to_owned())
/// }
///
/// let options = Options::default().policy(Policy::NoInvent);
/// let task = retry_async::<Rating, _, _>(2, &options, |attempts| model(attempts.len()));
/// // Any executor runs it; this one polls once, as nothing here waits.
/// let mut task = std::pin::pin!(task);
/// let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// let std::task::Poll::Ready(r) = task.as_mut().poll(&mut cx) else { unreachable!() };
/// let r = r.unwrap();
/// assert_eq!(r.value, Some(Rating { score: 4 }));
/// assert_eq!(
///     r.attempts[0].error.as_ref().unwrap().to_string(),
///     "at /score: expected an integer, found \"high\""
/// );
/// ```
pub async fn retry_async<T, E, Fut>(
    max_attempts: usize,
    options: &Options,
    mut call: impl FnMut(&[Attempt]) -> Fut,
) -> Result<Retried<T>, CallFailed<E>>
where
    T: LlmOutput,
    Fut: Future<Output = Result<String, E>>,
{
    let mut attempts = Vec::new();
    loop {
        let reply = match call(&attempts).await {
            Ok(reply) => reply,
            Err(error) => return Err(CallFailed { error, attempts }),
        };
        if let Some(done) = read::<T>(reply, options, &mut attempts, max_attempts) {
            return Ok(done);
        }
    }
}

/// The feedback for a result of `schema` (the message [`retry()`] sends):
/// [`ValidationResult::feedback`], with what each field must be taken from the schema.
///
/// ```
/// use llmout::{schema::Schema, Options, Policy};
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
///     "required": ["city", "days"]
/// });
/// let compiled = Schema::compile(&schema).unwrap();
/// let o = Options::default().policy(Policy::NoInvent);
/// let r = llmout::from_llm_with_compiled("{\"city\": \"Oslo\", \"days\": null}", &compiled, &o);
/// assert_eq!(
///     llmout::retry::feedback(&r, &compiled).unwrap(),
///     "Your reply could not be used:\n\
///      - The field `days` is null; it must be an integer.\n\
///      Reply again with only the corrected JSON."
/// );
/// ```
pub fn feedback<T>(result: &ValidationResult<T>, schema: &Schema) -> Option<String> {
    crate::feedback::message(result.error.as_ref(), &result.warnings, Some(schema))
}

/// Reads one reply into `attempts`; the outcome when the loop is over.
fn read<T: LlmOutput>(
    reply: String,
    options: &Options,
    attempts: &mut Vec<Attempt>,
    max_attempts: usize,
) -> Option<Retried<T>> {
    let result = T::from_llm_with(&reply, options);
    let feedback = match &result.value {
        Some(_) => None,
        None => feedback(&result, T::compiled_schema()),
    };
    // A schema llmout cannot use is no fault of the reply: asking again would not help.
    let hopeless = result
        .error
        .as_ref()
        .is_some_and(|e| e.kind() == ErrorKind::InvalidSchema);
    attempts.push(Attempt {
        reply,
        warnings: result.warnings,
        error: result.error,
        feedback,
    });
    if result.value.is_some() || hopeless || attempts.len() >= max_attempts.max(1) {
        return Some(Retried {
            value: result.value,
            attempts: std::mem::take(attempts),
        });
    }
    None
}
