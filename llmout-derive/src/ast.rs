//! The deriving type as the derive sees it: serde's reading of the `#[serde]` attributes
//! (through `serde_derive_internals`, exactly as schemars_derive does) joined with the
//! `#[llmout]` options, each node keeping a reference to its `syn` original for spans.

use proc_macro2::{Ident, Span};
use serde_derive_internals::ast as serde_ast;
use serde_derive_internals::attr::TagType;
use serde_derive_internals::{Ctxt, Derive};
use syn::{DeriveInput, Generics, Member, Type};

use crate::attr::{self, Attrs, Target};

pub enum Input<'a> {
    Struct(Struct<'a>),
    Enum(Enum<'a>),
}

pub struct Struct<'a> {
    pub attrs: Attrs,
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub style: Style,
    /// `#[serde(default)]` on the struct: serde fills every missing field.
    pub serde_default: bool,
    /// `#[serde(transparent)]`: the struct is its single field in the data.
    pub transparent: bool,
    pub fields: Vec<Field<'a>>,
}

pub struct Enum<'a> {
    pub attrs: Attrs,
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub tagging: Tagging,
    pub variants: Vec<Variant<'a>>,
}

/// serde's enum representations.
pub enum Tagging {
    /// `{"Variant": {...}}`, serde's default.
    External,
    /// `#[serde(tag = "t")]`: `{"t": "Variant", ...}`.
    Internal { tag: String },
    /// `#[serde(tag = "t", content = "c")]`: `{"t": "Variant", "c": {...}}`.
    Adjacent { tag: String, content: String },
    /// `#[serde(untagged)]`: the variant's content only.
    Untagged,
}

pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub attrs: Attrs,
    /// The name serde reads (after `rename` / `rename_all`).
    pub name: String,
    /// serde's `alias`es, without the name itself.
    pub serde_aliases: Vec<String>,
    /// `#[serde(untagged)]` on the variant or on the enum: no name in the data.
    pub untagged: bool,
    /// `#[serde(skip)]` / `skip_deserializing`: never read, absent from the schema.
    pub skipped: bool,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub attrs: Attrs,
    pub member: Member,
    pub ty: &'a Type,
    /// The property name serde reads (after `rename` / `rename_all`).
    pub name: String,
    /// serde's `alias`es, without the name itself.
    pub serde_aliases: Vec<String>,
    /// `#[serde(default)]` or `#[serde(default = "...")]` on the field.
    pub serde_default: bool,
    /// `#[serde(skip)]` / `skip_deserializing`: never read, absent from the schema.
    pub skipped: bool,
    /// `#[serde(flatten)]`: the field's own properties are merged into the parent.
    pub flatten: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Named fields: each field is a property.
    Struct,
    /// Unnamed fields (including newtypes): no property names.
    Tuple,
    /// No fields.
    Unit,
}

impl<'a> Input<'a> {
    /// Reads the input. Returns `None` when it cannot be read: a `union` (reported to `cx`), or
    /// malformed `#[serde]` attributes (not reported: serde_derive and schemars_derive already
    /// report those, a third copy would only add noise).
    pub fn from_syn(cx: &Ctxt, node: &'a DeriveInput, attrs: Attrs) -> Option<Self> {
        if let syn::Data::Union(data) = &node.data {
            cx.error_spanned_by(
                data.union_token,
                "`LlmOutput` cannot be derived for a union: use a struct or an enum",
            );
            return None;
        }

        let serde_cx = Ctxt::new();
        let private = Ident::new("__private", Span::call_site());
        let serde = serde_ast::Container::from_ast(&serde_cx, node, Derive::Deserialize, &private);
        if serde_cx.check().is_err() {
            return None;
        }
        let serde = serde?;

        Some(match serde.data {
            serde_ast::Data::Struct(style, fields) => Input::Struct(Struct {
                attrs,
                ident: &node.ident,
                generics: &node.generics,
                style: Style::from(style),
                serde_default: !serde.attrs.default().is_none(),
                transparent: serde.attrs.transparent(),
                fields: fields.iter().map(|f| Field::from_serde(cx, f)).collect(),
            }),
            serde_ast::Data::Enum(variants) => Input::Enum(Enum {
                attrs,
                ident: &node.ident,
                generics: &node.generics,
                tagging: match serde.attrs.tag() {
                    TagType::External => Tagging::External,
                    TagType::Internal { tag } => Tagging::Internal { tag: tag.clone() },
                    TagType::Adjacent { tag, content } => Tagging::Adjacent {
                        tag: tag.clone(),
                        content: content.clone(),
                    },
                    TagType::None => Tagging::Untagged,
                },
                variants: variants
                    .iter()
                    .map(|v| Variant::from_serde(cx, v, matches!(serde.attrs.tag(), TagType::None)))
                    .collect(),
            }),
        })
    }
}

impl<'a> Variant<'a> {
    fn from_serde(cx: &Ctxt, v: &serde_ast::Variant<'a>, enum_untagged: bool) -> Self {
        let name = v.attrs.name().deserialize_name().value.clone();
        Variant {
            original: v.original,
            attrs: attr::get(cx, &v.original.attrs, Target::Variant),
            serde_aliases: other_names(v.attrs.aliases(), &name),
            name,
            untagged: enum_untagged || v.attrs.untagged(),
            skipped: v.attrs.skip_deserializing(),
            style: Style::from(v.style),
            fields: v.fields.iter().map(|f| Field::from_serde(cx, f)).collect(),
        }
    }
}

impl<'a> Field<'a> {
    fn from_serde(cx: &Ctxt, f: &serde_ast::Field<'a>) -> Self {
        let name = f.attrs.name().deserialize_name().value.clone();
        Field {
            original: f.original,
            attrs: attr::get(cx, &f.original.attrs, Target::Field),
            member: f.member.clone(),
            ty: f.ty,
            serde_aliases: other_names(f.attrs.aliases(), &name),
            name,
            serde_default: !f.attrs.default().is_none(),
            skipped: f.attrs.skip_deserializing(),
            flatten: f.attrs.flatten(),
        }
    }

    /// The field as users wrote it, for messages: `name` or `0`.
    pub fn display(&self) -> String {
        match &self.member {
            Member::Named(ident) => ident.to_string(),
            Member::Unnamed(index) => index.index.to_string(),
        }
    }
}

/// serde counts a field's own name among its aliases; llmout wants only the other names.
fn other_names(
    aliases: &std::collections::BTreeSet<serde_derive_internals::name::Name>,
    name: &str,
) -> Vec<String> {
    aliases
        .iter()
        .map(|a| a.value.clone())
        .filter(|a| a != name)
        .collect()
}

impl From<serde_ast::Style> for Style {
    fn from(style: serde_ast::Style) -> Self {
        match style {
            serde_ast::Style::Struct => Style::Struct,
            serde_ast::Style::Tuple | serde_ast::Style::Newtype => Style::Tuple,
            serde_ast::Style::Unit => Style::Unit,
        }
    }
}
