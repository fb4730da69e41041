//! Turn the raw text an LLM returns into typed, validated Rust values and tool calls.
//!
//! ```
//! use llmout::LlmOutput;
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//!
//! /// A commit message.
//! #[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
//! struct CommitMessage {
//!     emoji: Option<String>,
//!     title: String,
//!     message: String,
//! }
//!
//! let reply = "Sure! Here it is:\n```json\n{\"title\": \"Fix login\", \"message\": \"Line 1\nLine 2\",}\n```";
//! let result = CommitMessage::from_llm(reply);
//! let commit = result.value.as_ref().unwrap();
//! assert_eq!(commit.title, "Fix login");
//! assert_eq!(commit.message, "Line 1\nLine 2");
//! assert_eq!(commit.emoji, None);
//! assert!(result.recovered); // the fence was dropped, a newline escaped, a comma removed
//! ```
//!
//! # What is where
//!
//! | for | use |
//! |---|---|
//! | a reply into a Rust type | `#[derive(LlmOutput)]`, [`LlmOutput::from_llm`], [`ValidationResult`], [`Warning`], [`Error`] |
//! | how far recovery may go | [`Options`], [`Policy`] (lenient, no-invent, strict) |
//! | a schema known only at run time | [`from_llm_with_schema`], [`schema::Schema`] (compiled once, [`from_llm_with_compiled`]) |
//! | the schema for a provider or a prompt | [`LlmOutput::schema_for`] with a [`Dialect`], [`LlmOutput::prompt_schema`] |
//! | asking again when a reply does not do | [`retry()`], [`retry_async`], [`ValidationResult::feedback`] |
//! | tool calls in any model's format | [`tools::parse`], [`tools::parse_with_tools`], [`ToolCall`], [`ToolDef`], [`ToolCallResponse`] |
//! | a reply still arriving | [`Stream`] (a value), [`ToolStream`] (tool calls), [`Partial`], [`FieldState`] |
//! | JSON repair alone | [`repair_json`], [`repair_text`], [`repair`]; [`large::repair_json`] to write it as it is made |
//! | one stage of the pipeline alone | [`advanced`] |
//!
//! # The pipeline
//!
//! [`LlmOutput::from_llm`] runs these stages, one module each, every one a pure function from
//! its input to its output plus the [`Warning`]s it adds:
//!
//! 1. **Fast path**: valid JSON for the type goes straight through `serde_json`; no warnings.
//! 2. [`advanced::extract`]: candidate spans of the text, best first (whole text, fences,
//!    tags, bracket-balanced spans), with reasoning blocks (`<think>…</think>`) removed.
//! 3. [`advanced::sanitize`], then parse: strict `serde_json` first, then the lenient parser
//!    of [`repair`].
//! 4. [`advanced::recover`]: align each parsed candidate with the [`schema`], counting a cost
//!    per change.
//! 5. Choose the cheapest candidate, deserialize it; last resort, its required fields only.
//!
//! [`from_llm_with_schema`] runs the same pipeline on a JSON schema given at run time.
//!
//! # `serde_json` features
//!
//! llmout turns on two features of `serde_json`, and Cargo unifies features across a build,
//! so they hold for every use of `serde_json` in the program:
//!
//! - `preserve_order`: a `serde_json::Map` keeps keys in the order they were written, not
//!   sorted. A repaired or recovered value keeps the model's key order (`llmout repair` prints
//!   `{"b":1,"a":2}` as it came), and "the first on a tie" in recovery means the first the
//!   model wrote. The cost is an `IndexMap` instead of a `BTreeMap` behind `Map`.
//! - `float_roundtrip`: `serde_json` reads a number into the closest `f64`, as Rust's own
//!   parser (which llmout's lenient parser uses) does. Without it, `serde_json` is off by one
//!   unit in the last place on some inputs (`91109319140219417e17`), so the same number
//!   would be read differently by the fast path and by repair, depending on whether something
//!   else in the reply was broken. Measured on this crate's machine, it costs nothing visible
//!   on short decimals and about a quarter of `serde_json`'s speed on a document made only of
//!   17-digit floats.
//!
//! ```
//! use llmout::LlmOutput;
//! #[derive(Debug, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
//! struct Reading { x: f64 }
//! let exact: f64 = "91109319140219417e17".parse().unwrap();
//! // Valid JSON (serde_json) and JSON that needed repair (llmout's parser) agree, exactly.
//! assert_eq!(Reading::from_llm(r#"{"x": 91109319140219417e17}"#).value.unwrap().x, exact);
//! assert_eq!(Reading::from_llm(r#"{'x': 91109319140219417e17,}"#).value.unwrap().x, exact);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod advanced;
mod cache;
mod error;
mod feedback;
mod ignored;
mod impls;
pub mod large;
mod options;
mod pipeline;
pub mod repair;
mod result;
pub mod retry;
pub mod schema;
pub mod stream;
pub mod tools;
mod unique;
mod warning;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub(crate) use advanced::{extract, recover, sanitize};
pub use error::{excerpt, Error, ErrorKind, Violation};
pub use options::{Options, Policy, DEFAULT_MAX_DEPTH};
pub use pipeline::{
    from_llm_with_compiled, from_llm_with_schema, recover_with_schema, repair_json, repair_text,
    Repaired, RepairedJson,
};
pub use repair::RepairKind;
pub use result::ValidationResult;
pub use retry::{retry, retry_async};
pub use schema::dialect::Dialect;
pub use stream::{FieldState, Partial, Stream};
pub use tools::{CallInProgress, Stream as ToolStream, ToolCall, ToolCallResponse, ToolDef};
pub use warning::{pointer_push, Warning, WarningKind};

/// Derives [`LlmOutput`] for a struct or enum that also derives `serde::Deserialize` and
/// `schemars::JsonSchema`.
///
/// See the [`LlmOutput`] trait for what it gives, and the crate README for the
/// `#[llmout(...)]` attributes.
pub use llmout_derive::LlmOutput;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

/// A type that can be recovered from an LLM's reply.
///
/// Derive it with `#[derive(Deserialize, JsonSchema, LlmOutput)]`. The schema comes from
/// schemars (doc comments become descriptions); the derive adds what is LLM-specific
/// (serde aliases for key recovery, `#[llmout(no_invent)]` fields).
///
/// The schema accessor is called [`schema`](LlmOutput::schema), not `json_schema`, because
/// `schemars::JsonSchema::json_schema` would make `T::json_schema()` ambiguous.
pub trait LlmOutput: DeserializeOwned + JsonSchema + 'static {
    /// Collects this type's LLM-specific schema facts. Generated by the derive.
    #[doc(hidden)]
    fn __llmout_annotate(annotations: &mut __private::Annotations) {
        let _ = annotations;
    }

    /// The type's JSON schema (draft 2020-12, deserialize contract), generated once per process
    /// and cached, with llmout's vendor keywords (`x-aliases`, `x-no-invent`) added.
    ///
    /// ```
    /// # use llmout::LlmOutput;
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Point { x: i32, y: i32 }
    /// assert_eq!(Point::schema()["required"], serde_json::json!(["x", "y"]));
    /// ```
    fn schema() -> &'static serde_json::Value {
        &cache::entry::<Self>().json
    }

    /// A compact, TypeScript-like rendering of [`schema`](LlmOutput::schema) to put in a
    /// prompt (see [`schema::prompt`]), rendered once and cached. Much shorter than the JSON
    /// Schema; the full schema is still what replies are recovered against.
    ///
    /// ```
    /// # use llmout::LlmOutput;
    /// /// A point on the grid.
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Point {
    ///     /// Across.
    ///     x: i32,
    ///     y: Option<i32>,
    /// }
    /// assert_eq!(
    ///     Point::prompt_schema(),
    ///     "// A point on the grid.\n{\n  // Across.\n  x: integer,\n  y?: integer | null,\n}"
    /// );
    /// ```
    fn prompt_schema() -> &'static str {
        &cache::entry::<Self>().prompt
    }

    /// The schema in a provider's dialect, to send as its structured-output or tool schema
    /// (see [`schema::dialect`] for each dialect's rules). Replies are still recovered against
    /// the full [`schema`](LlmOutput::schema), so what a dialect cannot express is enforced
    /// after parsing.
    ///
    /// ```
    /// # use llmout::LlmOutput;
    /// use llmout::schema::dialect::Dialect;
    /// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Point { x: i32, label: Option<String> }
    /// let s = Point::schema_for(Dialect::OpenAiStrict).unwrap();
    /// assert_eq!(s["required"], serde_json::json!(["x", "label"]));
    /// assert_eq!(s["additionalProperties"], false);
    /// ```
    fn schema_for(dialect: schema::dialect::Dialect) -> Result<serde_json::Value, Error> {
        schema::dialect::to_dialect(Self::schema(), dialect)
    }

    /// The compiled view of [`schema`](LlmOutput::schema) that recovery runs against.
    fn compiled_schema() -> &'static schema::Schema {
        &cache::entry::<Self>().compiled
    }

    /// Turns an LLM reply into `Self` with the default options (lenient policy).
    ///
    /// Memory: valid JSON goes straight into `Self`, as `serde_json::from_str` does. Other
    /// replies are repaired and recovered as a value, then deserialized; a reply of 4 MiB
    /// or more whose shape [`large`] reads item by item (an array of records, an object
    /// around one, records keyed by id) is read one item at a time and `Self` deserialized
    /// from the value's text as it is written, so that memory is the reply, `Self` and the
    /// warnings (100 MB of records in a fence: 3.62 times the reply, where
    /// `serde_json::from_str` of the same records is 3.56; read whole, 18.3).
    ///
    /// ```
    /// # use llmout::LlmOutput;
    /// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// struct Point { x: i32, y: i32 }
    /// let r = Point::from_llm("The point is {\"x\": \"3\", \"y\": 4}.");
    /// assert_eq!(r.value, Some(Point { x: 3, y: 4 }));
    /// assert!(r.recovered);
    /// ```
    fn from_llm(raw: &str) -> ValidationResult<Self> {
        Self::from_llm_with(raw, &Options::default())
    }

    /// Turns an LLM reply into `Self` with the given options.
    fn from_llm_with(raw: &str, options: &Options) -> ValidationResult<Self> {
        pipeline::from_llm_typed::<Self>(raw, options)
    }
}
