//! `#[derive(LlmOutput)]` (placeholder: emits a bare impl; the full derive lands next).
use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, DeriveInput};

/// Derives `llmout::LlmOutput`.
#[proc_macro_derive(LlmOutput, attributes(llmout))]
pub fn derive_llm_output(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::llmout::LlmOutput for #ident #ty_generics #where_clause {}
    }
    .into()
}
