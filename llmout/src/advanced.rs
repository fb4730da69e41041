//! The pipeline's stages one by one, and the compiled schema's nodes: for benchmarks, fuzzing
//! and tools built on llmout.
//!
//! [`LlmOutput::from_llm`](crate::LlmOutput::from_llm) and
//! [`from_llm_with_schema`](crate::from_llm_with_schema) run every stage and choose between
//! the candidates; most programs need nothing here. What is here is public so that a stage can
//! be measured, fuzzed or reused alone. It is the implementation's shape, not a promise: it
//! follows the implementation more closely than the crate root does, and may change with it.
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | 2 | [`extract`] | text -> candidate spans (whole text, fences, tags, balanced spans), reasoning removed |
//! | 3 | [`sanitize`] | raw control characters and bad escapes inside strings |
//! | 3 | [`crate::repair`] | the lenient JSON parser (public at the root: it is a product of its own) |
//! | 4 | [`recover`] | one parsed value against a compiled [`Schema`](crate::schema::Schema), with the cost of every change |
//! | | [`schema`] | the compiled schema's nodes, which [`recover`] walks |
//!
//! ```
//! use llmout::advanced::{extract, recover::recover};
//! use llmout::{schema::Schema, Options};
//! use serde_json::json;
//!
//! let reply = "<think>{\"n\": 0}</think>Sure:\n```json\n{\"N\": \"4\"}\n```";
//! let fence = extract::candidates(reply)
//!     .into_iter()
//!     .find(|c| c.origin == extract::Origin::Fence)
//!     .unwrap();
//! let schema = Schema::compile(&json!({"type": "object", "properties": {"n": {"type": "integer"}}})).unwrap();
//! let r = recover(serde_json::from_str(fence.text).unwrap(), &schema, &Options::default()).unwrap();
//! assert_eq!(r.value, json!({"n": 4}));
//! assert_eq!(r.cost, 2); // a key renamed, a number read from text
//! ```

#[path = "extract.rs"]
pub mod extract;
#[path = "recover/mod.rs"]
pub mod recover;
#[path = "sanitize.rs"]
pub mod sanitize;

pub mod schema {
    //! The nodes of a compiled [`Schema`](crate::schema::Schema): what
    //! [`recover`](super::recover) walks. [`Schema::node`](crate::schema::Schema::node) and
    //! [`Schema::root`](crate::schema::Schema::root) reach them.
    pub use crate::schema::compiled::{
        Additional, Array, Check, Enum, Kind, Node, NodeId, Object, Property,
    };
    pub use crate::schema::pattern::Pattern;
    pub use crate::schema::Format;
}
