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

/// DOCS
#[proc_macro_derive(LlmOutput, attributes(llmout))]
pub fn derive_llm_output(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
