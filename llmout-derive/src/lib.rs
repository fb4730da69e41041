//! `#[derive(LlmOutput)]`: see the `llmout` crate.
//!
//! The derive reads serde's attributes through `serde_derive_internals` (as schemars_derive
//! does) and its own `#[llmout(...)]` options, checks them, and generates
//! `LlmOutput::__llmout_annotate`, which records the type's LLM-specific schema facts.
//!
//! - `ast.rs`: the type as serde reads it, joined with the `#[llmout]` options.
//! - `attr.rs`: parsing of `#[llmout(...)]`.
//! - `valid.rs`: options that parse but contradict each other or serde.
//! - `expand.rs`: code generation, and the fallback impl emitted next to errors.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod expand;
mod valid;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `llmout::LlmOutput` for a struct or enum that also derives `serde::Deserialize`
/// and `schemars::JsonSchema`.
///
/// The schema is schemars' (deserialize contract, doc comments as descriptions); the derive
/// adds what only recovery needs, as vendor keywords of that schema: `x-aliases` (other names
/// the model may use) and `x-no-invent` (fields recovery must never fill in). It reads serde's
/// attributes the way serde does: names are the serialized ones (after `rename` and
/// `rename_all`), every `#[serde(alias = "...")]` becomes an `x-aliases` entry, and fields of
/// enum variants are annotated in the branch of their variant under each of serde's enum
/// representations (external, `tag`, `tag` + `content`, `untagged`). Annotations of the types
/// of fields (inside `Option`, `Vec`, `Box`, maps, arrays, tuples...) land in their own
/// definitions; `#[serde(flatten)]` and `#[serde(transparent)]` fields carry theirs into
/// the parent.
///
/// ```
/// use llmout::LlmOutput;
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Deserialize, JsonSchema, LlmOutput)]
/// #[serde(rename_all = "camelCase")]
/// struct Invoice {
///     #[serde(alias = "number")]
///     invoice_id: String,
///     lines: Vec<Line>,
/// }
///
/// #[derive(Deserialize, JsonSchema, LlmOutput)]
/// struct Line {
///     #[llmout(alias = "qty")]
///     quantity: u32,
/// }
///
/// let schema = Invoice::schema();
/// assert_eq!(schema["x-aliases"], json!({"number": "invoiceId"}));
/// assert_eq!(schema["$defs"]["Line"]["x-aliases"], json!({"qty": "quantity"}));
/// ```
///
/// # Attributes
///
/// ## `#[llmout(no_invent)]` on a field
///
/// Recovery must never invent this field's value: when the reply lacks it or gives `null`,
/// the result is an error naming the field, not a default or empty value. Use it for values
/// only the model can know (an amount, an identifier). It contradicts `#[serde(default)]` and
/// `#[serde(skip)]` (on the field, or `default` on the struct), and needs a named field.
///
/// ```
/// # use llmout::LlmOutput;
/// # use serde_json::json;
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// struct Payment {
///     #[llmout(no_invent)]
///     amount_cents: u64,
///     note: Option<String>,
/// }
/// assert_eq!(Payment::schema()["x-no-invent"], json!(["amount_cents"]));
/// ```
///
/// ## `#[llmout(alias = "name")]` on a field or a variant (repeatable)
///
/// Another name the model may use. Unlike `#[serde(alias)]`, serde itself does not accept
/// it: recovery renames the key (or the enum value, or tag) and records a warning. An alias
/// must not be the name or an alias of another field (variant): that would be ambiguous.
/// It has no effect on an untagged variant, whose name never appears in the data.
///
/// ```
/// # use llmout::LlmOutput;
/// # use serde_json::json;
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// #[serde(rename_all = "snake_case")]
/// enum Verdict {
///     #[llmout(alias = "pass", alias = "ok")]
///     Approved,
///     #[serde(alias = "reject")]
///     Rejected,
/// }
/// assert_eq!(
///     Verdict::schema()["x-aliases"],
///     json!({"reject": "rejected", "pass": "approved", "ok": "approved"}),
/// );
///
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// #[serde(tag = "type")]
/// enum Shape {
///     Circle {
///         #[llmout(alias = "r")]
///         radius: f64,
///     },
/// }
/// // The alias sits in the variant's own branch of the schema.
/// assert_eq!(Shape::schema()["oneOf"][0]["x-aliases"], json!({"r": "radius"}));
/// ```
///
/// ## `#[llmout(crate = "path")]` on the type
///
/// The path of the `llmout` crate, when the dependency is renamed (default `::llmout`).
///
/// ```
/// extern crate llmout as out;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema, out::LlmOutput)]
/// #[llmout(crate = "out")]
/// struct Reply {
///     text: String,
/// }
/// # use out::LlmOutput as _;
/// assert_eq!(Reply::schema()["required"], serde_json::json!(["text"]));
/// ```
///
/// # Errors at compile time
///
/// Every mistake is reported at once, at the token it concerns: an unknown or duplicated
/// option, a value of the wrong type (`alias = 5`), an option in the wrong place,
/// `no_invent` together with `#[serde(default)]` or `#[serde(skip)]`, `no_invent` or
/// `alias` on a tuple field or a `#[serde(flatten)]` field, an ambiguous alias, a `union`,
/// and a lifetime parameter (`LlmOutput` values are owned: `DeserializeOwned + 'static`).
/// A type that lacks `Deserialize` or `JsonSchema` gets one message, at its name, saying
/// which derive to add.
///
/// ```compile_fail
/// #[derive(serde::Deserialize, schemars::JsonSchema, llmout::LlmOutput)]
/// struct Reply {
///     #[serde(default)]
///     #[llmout(no_invent)] // error: `no_invent` contradicts `#[serde(default)]`
///     score: u32,
/// }
/// ```
///
/// # Generic types
///
/// A generic type implements `LlmOutput` for the instances that deserialize and have a
/// schema (`where Self: DeserializeOwned + JsonSchema`, and `'static` parameters). The
/// annotations of a type reached only through a type parameter are not collected when the
/// generic type is itself the root (`Page::<Item>::schema()` does not see `Item`'s): the
/// derive cannot tell whether `T` is an `LlmOutput`. Named at a use site (a field of type
/// `Page<Item>` in another derived type), `Item` is collected there.
#[proc_macro_derive(LlmOutput, attributes(llmout))]
pub fn derive_llm_output(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
