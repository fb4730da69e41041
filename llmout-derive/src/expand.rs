//! Code generation. Everything here assumes `valid.rs` found no mistake.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use serde_derive_internals::Ctxt;
use syn::spanned::Spanned;
use syn::{DeriveInput, GenericArgument, Generics, Path, PathArguments, Type};

use crate::ast::{Enum, Field, Input, Struct, Tagging, Variant};
use crate::attr::{self, Target};

pub fn derive(node: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = attr::get(&cx, &node.attrs, Target::Container);
    let krate = attrs
        .crate_path
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::llmout));
    let input = Input::from_syn(&cx, node, attrs);
    if let Some(input) = &input {
        input.validate(&cx);
    }
    match (cx.check(), input) {
        (Ok(()), Some(input)) => expand(&input),
        (Ok(()), None) => fallback(node, &krate, None),
        (Err(err), _) => fallback(node, &krate, Some(err)),
    }
}

/// On a mistake: the errors, and an empty impl so that code using the type as an
/// `LlmOutput` does not add a cascade of "trait not implemented" errors. Its bounds mention
/// the type under a `for<'__llmout>` binder, which keeps them from being "trivially false"
/// (an error of its own) when the type lacks `Deserialize` or `JsonSchema` too.
fn fallback(node: &DeriveInput, krate: &Path, error: Option<syn::Error>) -> TokenStream {
    let error = error.map(syn::Error::into_compile_error);
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    let mut bounds = where_clause.map(|w| w.predicates.to_token_stream());
    if let Some(b) = &mut bounds {
        if !b.is_empty() {
            b.extend(quote!(,));
        }
    }
    quote! {
        #error

        #[automatically_derived]
        #[allow(unused_qualifications)]
        impl #impl_generics #krate::LlmOutput for #ident #ty_generics
        where
            #bounds
            for<'__llmout> #ident #ty_generics:
                #krate::__private::serde::de::DeserializeOwned
                + #krate::__private::schemars::JsonSchema
                + 'static,
        {}
    }
}

fn expand(input: &Input) -> TokenStream {
    let (ident, generics, attrs) = match input {
        Input::Struct(s) => (s.ident, s.generics, &s.attrs),
        Input::Enum(e) => (e.ident, e.generics, &e.attrs),
    };
    let default_krate: Path = syn::parse_quote!(::llmout);
    let krate = attrs.crate_path.as_ref().unwrap_or(&default_krate);
    let params = generic_params(generics);

    let mut body = Body {
        params: params.clone(),
        ..Body::default()
    };
    match input {
        Input::Struct(s) => body.push_struct(s, krate),
        Input::Enum(e) => body.push_enum(e, krate),
    }
    for field in input.live_fields() {
        if !field.flatten {
            collect_probe_types(
                field.ty,
                field.original.ty.span(),
                &params,
                &mut body.probes,
            );
        }
    }
    let Body {
        edits,
        probes,
        flattens,
        ..
    } = body;
    let probes = probes.iter().map(|(ty, span)| {
        quote_spanned! {*span=>
            (&&#krate::__private::Probe::<#ty>::new()).llmout_nested(annotations);
        }
    });
    let flattens = flattens.iter().map(|(ty, variant)| {
        quote! {
            (&&#krate::__private::Probe::<#ty>::new()).llmout_nested(annotations);
            annotations.flatten::<Self, #ty>(#variant);
        }
    });

    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let mut predicates: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(ToTokens::to_token_stream).collect())
        .unwrap_or_default();
    let assertions;
    if params.is_empty() {
        // A concrete type: assert its traits at the type's name, with the messages of
        // `AssertDeserialize` / `AssertJsonSchema`. The assertions sit outside the impl,
        // whose where clause would satisfy them. That where clause restates the supertraits
        // under a binder: it keeps the impl itself from adding a second, rawer error for the
        // same missing trait (a plain `Type: Trait` bound would be a "trivially false" one).
        let span = ident.span();
        assertions = quote_spanned! {span=>
            const _: fn() = #krate::__private::assert_deserialize::<#ident>;
            const _: fn() = #krate::__private::assert_json_schema::<#ident>;
        };
        predicates.push(quote! {
            for<'__llmout> #ident:
                #krate::__private::serde::de::DeserializeOwned
                + #krate::__private::schemars::JsonSchema
        });
    } else {
        // A generic type: `LlmOutput` holds for the instances that deserialize and have a
        // schema, whatever bounds serde and schemars put on the parameters.
        assertions = TokenStream::new();
        for param in generics.type_params() {
            let p = &param.ident;
            predicates.push(quote!(#p: 'static));
        }
        predicates.push(quote! {
            #ident #ty_generics:
                #krate::__private::serde::de::DeserializeOwned
                + #krate::__private::schemars::JsonSchema
        });
    }

    quote! {
        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)]
            impl #impl_generics #krate::LlmOutput for #ident #ty_generics
            where
                #(#predicates,)*
            {
                fn __llmout_annotate(annotations: &mut #krate::__private::Annotations) {
                    if !annotations.enter::<Self>() {
                        return;
                    }
                    #(#edits)*
                    #[allow(unused_imports)]
                    use #krate::__private::{ViaLlmOutput as _, ViaNothing as _};
                    #(#probes)*
                    #(#flattens)*
                }
            }
            #assertions
        };
    }
}

#[derive(Default)]
struct Body {
    /// The type's generic parameters.
    params: BTreeSet<String>,
    edits: Vec<TokenStream>,
    /// Field types (or types inside them) that may implement `LlmOutput`, deduplicated, with
    /// the span of the field type they come from.
    probes: Vec<(Type, Span)>,
    /// Types whose properties this type's schema holds, and in which variant.
    flattens: Vec<(Type, TokenStream)>,
}

impl Body {
    fn push_struct(&mut self, s: &Struct, krate: &Path) {
        let none = quote!(::core::option::Option::None);
        if s.transparent {
            if let Some(field) = s.fields.iter().find(|f| !f.skipped) {
                self.push_flatten(field, &none);
            }
            return;
        }
        self.push_fields(&s.fields, &none, krate);
    }

    fn push_enum(&mut self, e: &Enum, krate: &Path) {
        let live: Vec<&Variant> = e.variants.iter().filter(|v| !v.skipped).collect();
        for (i, variant) in live.iter().enumerate() {
            let name = &variant.name;
            let locator = if variant.untagged {
                let from_end = live.len() - 1 - i;
                quote!(#krate::__private::Variant::Untagged { from_end: #from_end })
            } else {
                match &e.tagging {
                    Tagging::External => {
                        quote!(#krate::__private::Variant::External { name: #name })
                    }
                    Tagging::Internal { tag } => {
                        quote!(#krate::__private::Variant::Internal { tag: #tag, name: #name })
                    }
                    Tagging::Adjacent { tag, content } => quote! {
                        #krate::__private::Variant::Adjacent {
                            tag: #tag,
                            content: #content,
                            name: #name,
                        }
                    },
                    // Every variant of an untagged enum is untagged.
                    Tagging::Untagged => continue,
                }
            };
            if !variant.untagged {
                let aliases = variant
                    .serde_aliases
                    .iter()
                    .cloned()
                    .chain(variant.attrs.aliases.iter().map(syn::LitStr::value));
                for alias in aliases {
                    self.edits.push(quote! {
                        annotations.edit::<Self>(#krate::__private::Edit::VariantAlias {
                            variant: #locator,
                            alias: #alias,
                        });
                    });
                }
            }
            let some = quote!(::core::option::Option::Some(#locator));
            self.push_fields(&variant.fields, &some, krate);
        }
    }

    /// The edits of named fields (tuple fields have no names, hence no edits).
    fn push_fields(&mut self, fields: &[Field], variant: &TokenStream, krate: &Path) {
        for field in fields.iter().filter(|f| !f.skipped) {
            if field.flatten {
                self.push_flatten(field, variant);
                continue;
            }
            if matches!(field.member, syn::Member::Unnamed(_)) {
                continue;
            }
            let property = &field.name;
            let aliases = field
                .serde_aliases
                .iter()
                .cloned()
                .chain(field.attrs.aliases.iter().map(syn::LitStr::value));
            for alias in aliases {
                self.edits.push(quote! {
                    annotations.edit::<Self>(#krate::__private::Edit::PropertyAlias {
                        variant: #variant,
                        property: #property,
                        alias: #alias,
                    });
                });
            }
            if field.attrs.no_invent.is_some() {
                self.edits.push(quote! {
                    annotations.edit::<Self>(#krate::__private::Edit::NoInvent {
                        variant: #variant,
                        property: #property,
                    });
                });
            }
        }
    }

    /// A field whose type's properties are this type's (`flatten`, `transparent`). Skipped
    /// when it mentions a generic parameter: its annotations cannot be known here.
    fn push_flatten(&mut self, field: &Field, variant: &TokenStream) {
        let ty = peel_option(field.ty);
        if !mentions(ty, &self.params) {
            self.flattens.push((ty.clone(), variant.clone()));
        }
    }
}

impl Input<'_> {
    /// Every field serde reads.
    fn live_fields(&self) -> Vec<&Field<'_>> {
        match self {
            Input::Struct(s) => s.fields.iter().filter(|f| !f.skipped).collect(),
            Input::Enum(e) => e
                .variants
                .iter()
                .filter(|v| !v.skipped)
                .flat_map(|v| v.fields.iter().filter(|f| !f.skipped))
                .collect(),
        }
    }
}

/// The names of the type's generic type and const parameters.
fn generic_params(generics: &Generics) -> BTreeSet<String> {
    generics
        .type_params()
        .map(|p| p.ident.to_string())
        .chain(generics.const_params().map(|p| p.ident.to_string()))
        .collect()
}

/// Whether `ty` names one of `params` anywhere.
fn mentions(ty: &Type, params: &BTreeSet<String>) -> bool {
    fn walk(tokens: TokenStream, params: &BTreeSet<String>) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(ident) => params.contains(&ident.to_string()),
            TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(ty.to_token_stream(), params)
}

/// `Option<T>` -> `T` (serde flattens an `Option` of a struct too).
fn peel_option(ty: &Type) -> &Type {
    match last_segment(ty) {
        Some((ident, args)) if ident == "Option" && args.len() == 1 => args[0],
        _ => ty,
    }
}

fn last_segment(ty: &Type) -> Option<(&Ident, Vec<&Type>)> {
    let Type::Path(path) = serde_derive_internals::ungroup(ty) else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segment = path.path.segments.last()?;
    let args = match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((&segment.ident, args))
}

/// Standard containers whose schema is their element's: look inside them, not at them.
const CONTAINERS: &[&str] = &[
    "Option",
    "Vec",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "Box",
    "Rc",
    "Arc",
    "Cell",
    "RefCell",
    "Mutex",
    "RwLock",
    "HashSet",
    "BTreeSet",
    "IndexSet",
];

/// Maps: their schema is their values'.
const MAPS: &[&str] = &["HashMap", "BTreeMap", "IndexMap"];

/// Types that are never `LlmOutput`, to keep the generated code short.
const LEAVES: &[&str] = &[
    "bool", "char", "str", "String", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "f32", "f64", "Value", "PathBuf",
];

/// Collects the types inside `ty` that may implement `LlmOutput`: `ty` itself unless it is a
/// standard container, and the types in its generic arguments, each once. Types naming a
/// generic parameter are left out: which `LlmOutput` impl they have is unknown here.
fn collect_probe_types(
    ty: &Type,
    span: Span,
    params: &BTreeSet<String>,
    out: &mut Vec<(Type, Span)>,
) {
    match serde_derive_internals::ungroup(ty) {
        Type::Paren(t) => collect_probe_types(&t.elem, span, params, out),
        Type::Reference(t) => collect_probe_types(&t.elem, span, params, out),
        Type::Array(t) => collect_probe_types(&t.elem, span, params, out),
        Type::Slice(t) => collect_probe_types(&t.elem, span, params, out),
        Type::Tuple(t) => {
            for elem in &t.elems {
                collect_probe_types(elem, span, params, out);
            }
        }
        Type::Path(_) => {
            let Some((ident, args)) = last_segment(ty) else {
                return;
            };
            let name = ident.to_string();
            if MAPS.contains(&name.as_str()) {
                if let Some(value) = args.last() {
                    collect_probe_types(value, span, params, out);
                }
                return;
            }
            let container = CONTAINERS.contains(&name.as_str());
            let leaf = LEAVES.contains(&name.as_str()) && args.is_empty();
            if !container && !leaf && !mentions(ty, params) {
                let key = ty.to_token_stream().to_string();
                if !out
                    .iter()
                    .any(|(t, _)| t.to_token_stream().to_string() == key)
                {
                    out.push((ty.clone(), span));
                }
            }
            for arg in args {
                collect_probe_types(arg, span, params, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probes(ty: &str, params: &[&str]) -> Vec<String> {
        let ty: Type = syn::parse_str(ty).unwrap();
        let params = params.iter().map(|p| (*p).to_owned()).collect();
        let mut out = Vec::new();
        collect_probe_types(&ty, Span::call_site(), &params, &mut out);
        out.iter()
            .map(|(t, _)| t.to_token_stream().to_string())
            .collect()
    }

    #[test]
    fn probes_look_inside_standard_containers() {
        assert_eq!(probes("Vec<Option<Inner>>", &[]), ["Inner"]);
        assert_eq!(probes("Option<Box<std::sync::Arc<a::B>>>", &[]), ["a :: B"]);
        assert_eq!(
            probes("HashMap<Key, BTreeSet<Item>>", &[]),
            ["Item"],
            "a map's keys are strings in JSON, only its values have a schema"
        );
        assert_eq!(
            probes("(A, [B; 3], &'static [C], (D,))", &[]),
            ["A", "B", "C", "D"]
        );
        assert_eq!(probes("Vec<String>", &[]), Vec::<String>::new());
    }

    #[test]
    fn probes_include_user_generics_and_their_arguments() {
        assert_eq!(
            probes("Page<Item, Vec<Other>>", &[]),
            ["Page < Item , Vec < Other > >", "Item", "Other"]
        );
    }

    #[test]
    fn probes_leave_out_types_naming_a_parameter() {
        assert_eq!(probes("Vec<T>", &["T"]), Vec::<String>::new());
        assert_eq!(probes("Page<T, Item>", &["T"]), ["Item"]);
        assert_eq!(probes("Grid<N>", &["N"]), Vec::<String>::new());
    }

    fn derive_str(src: &str) -> String {
        let input: DeriveInput = syn::parse_str(src).unwrap();
        derive(&input).to_string()
    }

    #[test]
    fn edits_use_serialized_names_and_serde_aliases() {
        let out = derive_str(
            r#"
            #[serde(rename_all = "camelCase")]
            struct User {
                #[serde(alias = "uid")]
                #[llmout(alias = "user_id", no_invent)]
                user_id: u32,
            }"#,
        );
        assert!(!out.contains("compile_error"), "{out}");
        for expected in [
            r#"property : "userId" , alias : "uid""#,
            r#"property : "userId" , alias : "user_id""#,
            r#"Edit :: NoInvent { variant : :: core :: option :: Option :: None , property : "userId" ,"#,
        ] {
            assert!(out.contains(expected), "missing {expected} in {out}");
        }
    }

    #[test]
    fn variants_are_located_by_representation() {
        let out = derive_str(
            r#"
            #[serde(tag = "t", content = "c")]
            enum E { #[serde(alias = "bee")] B { #[llmout(alias = "ex")] x: i32 } }"#,
        );
        assert!(
            out.contains(r#"Variant :: Adjacent { tag : "t" , content : "c" , name : "B" , }"#),
            "{out}"
        );
        let out = derive_str(
            r#"
            #[serde(untagged)]
            enum E { P { #[llmout(alias = "ex")] x: i32 }, #[serde(skip)] S, Q(i32), R(f64) }"#,
        );
        assert!(
            out.contains("Variant :: Untagged { from_end : 2usize }"),
            "{out}"
        );
    }

    #[test]
    fn errors_come_with_a_fallback_impl() {
        let out = derive_str("struct S { #[llmout(nope)] a: u32, #[llmout(alias = 1)] b: u32 }");
        assert!(out.contains("unknown llmout attribute `nope`"), "{out}");
        assert!(out.contains("`alias` takes a string"), "{out}");
        assert!(out.contains(":: llmout :: LlmOutput for S"), "{out}");
        assert!(!out.contains("__llmout_annotate"), "{out}");
    }

    #[test]
    fn malformed_serde_attributes_are_left_to_serde() {
        let out = derive_str("struct S { #[serde(renam = \"x\")] a: u32 }");
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains(":: llmout :: LlmOutput for S"), "{out}");
    }
}
