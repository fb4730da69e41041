//! Semantic checks: options that parse but make no sense together. Every mistake goes to the
//! `Ctxt`, spanned at the user's token, so one build shows them all.

use serde_derive_internals::Ctxt;
use syn::Generics;

use crate::ast::{Enum, Field, Input, Struct, Style, Variant};

impl Input<'_> {
    pub fn validate(&self, cx: &Ctxt) {
        match self {
            Input::Struct(s) => s.validate(cx),
            Input::Enum(e) => e.validate(cx),
        }
    }
}

impl Struct<'_> {
    fn validate(&self, cx: &Ctxt) {
        check_generics(cx, self.generics);
        for field in &self.fields {
            let no_property = if self.transparent {
                Some("a field of a `#[serde(transparent)]` struct has no property name; put it on the fields of the inner type")
            } else if self.style == Style::Tuple {
                Some("a tuple field has no property name")
            } else {
                None
            };
            check_field(cx, field, no_property, self.serde_default);
        }
        if self.style == Style::Struct && !self.transparent {
            check_field_aliases(cx, &self.fields);
        }
    }
}

impl Enum<'_> {
    fn validate(&self, cx: &Ctxt) {
        check_generics(cx, self.generics);
        for variant in &self.variants {
            check_variant(cx, variant);
            for field in &variant.fields {
                let no_property =
                    (variant.style == Style::Tuple).then_some("a tuple field has no property name");
                check_field(cx, field, no_property, false);
            }
            if variant.style == Style::Struct {
                check_field_aliases(cx, &variant.fields);
            }
        }
        check_variant_aliases(cx, &self.variants);
    }
}

/// `LlmOutput` needs `DeserializeOwned + 'static`: a borrowed type can never be one.
fn check_generics(cx: &Ctxt, generics: &Generics) {
    for param in generics.lifetimes() {
        cx.error_spanned_by(
            &param.lifetime,
            format!(
                "`LlmOutput` cannot be derived for a type with a lifetime parameter (`{}`): \
                 recovered values are owned (`DeserializeOwned + 'static`); \
                 use owned fields such as `String` instead of `&str`",
                param.lifetime
            ),
        );
    }
}

fn check_field(cx: &Ctxt, field: &Field, no_property: Option<&str>, container_default: bool) {
    let attrs = &field.attrs;
    if let Some(reason) = no_property {
        if let Some(path) = &attrs.no_invent {
            cx.error_spanned_by(path, format!("`no_invent` needs a named field: {reason}"));
        }
        for alias in &attrs.aliases {
            cx.error_spanned_by(alias, format!("`alias` needs a named field: {reason}"));
        }
        return;
    }
    if field.flatten {
        if let Some(path) = &attrs.no_invent {
            cx.error_spanned_by(
                path,
                "`no_invent` cannot be used on a `#[serde(flatten)]` field: its properties are \
                 merged into this type's; put `no_invent` on the fields of the flattened type",
            );
        }
        for alias in &attrs.aliases {
            cx.error_spanned_by(
                alias,
                "`alias` cannot be used on a `#[serde(flatten)]` field: it has no property of \
                 its own; put the alias on a field of the flattened type",
            );
        }
        return;
    }
    if field.skipped {
        if let Some(path) = &attrs.no_invent {
            cx.error_spanned_by(
                path,
                format!(
                    "`no_invent` contradicts `#[serde(skip)]`: serde never reads field `{}`, \
                     it always takes its default value",
                    field.display()
                ),
            );
        }
        for alias in &attrs.aliases {
            cx.error_spanned_by(
                alias,
                format!(
                    "`alias` on a skipped field: serde never reads field `{}`",
                    field.display()
                ),
            );
        }
        return;
    }
    if let Some(path) = &attrs.no_invent {
        if field.serde_default {
            cx.error_spanned_by(
                path,
                format!(
                    "`no_invent` contradicts `#[serde(default)]`: serde fills field `{}` with a \
                     default value when it is missing",
                    field.display()
                ),
            );
        } else if container_default {
            cx.error_spanned_by(
                path,
                format!(
                    "`no_invent` contradicts the struct's `#[serde(default)]`: serde fills field \
                     `{}` from the struct's default value when it is missing",
                    field.display()
                ),
            );
        }
    }
}

/// A name the data may use for one of the fields (or variants), and whose it is.
struct Known<'n> {
    name: &'n str,
    owner: usize,
    what: &'static str,
}

fn find<'k, 'n>(known: &'k [Known<'n>], name: &str) -> Option<&'k Known<'n>> {
    known.iter().find(|k| k.name == name)
}

/// An `#[llmout(alias)]` must name exactly one field: not another field's name or alias, nor
/// repeat a name its own field already has.
fn check_field_aliases(cx: &Ctxt, fields: &[Field]) {
    let live = |f: &&Field| !f.skipped && !f.flatten;
    let mut known = Vec::new();
    for (i, field) in fields.iter().enumerate().filter(|(_, f)| live(f)) {
        known.push(Known {
            name: &field.name,
            owner: i,
            what: "the serialized name",
        });
        for alias in &field.serde_aliases {
            known.push(Known {
                name: alias,
                owner: i,
                what: "a serde alias",
            });
        }
    }
    let mut added: Vec<(String, usize)> = Vec::new();
    for (i, field) in fields.iter().enumerate().filter(|(_, f)| live(f)) {
        for alias in &field.attrs.aliases {
            let value = alias.value();
            let clash = find(&known, &value).map(|k| (k.owner, k.what)).or_else(|| {
                added
                    .iter()
                    .find(|(v, _)| *v == value)
                    .map(|(_, owner)| (*owner, "an alias"))
            });
            match clash {
                Some((owner, what)) if owner == i => cx.error_spanned_by(
                    alias,
                    format!("alias `{value}` is already {what} of this field"),
                ),
                Some((owner, what)) => cx.error_spanned_by(
                    alias,
                    format!(
                        "alias `{value}` is ambiguous: it is also {what} of field `{}`",
                        fields[owner].display()
                    ),
                ),
                None => added.push((value, i)),
            }
        }
    }
}

/// An alias on a variant names the variant in the data; an untagged variant has no name there.
fn check_variant(cx: &Ctxt, variant: &Variant) {
    for alias in &variant.attrs.aliases {
        if variant.untagged {
            cx.error_spanned_by(
                alias,
                format!(
                    "`alias` has no effect on an untagged variant: the data never names `{}`",
                    variant.original.ident
                ),
            );
        } else if variant.skipped {
            cx.error_spanned_by(
                alias,
                format!(
                    "`alias` on a skipped variant: serde never reads `{}`",
                    variant.original.ident
                ),
            );
        }
    }
}

fn check_variant_aliases(cx: &Ctxt, variants: &[Variant]) {
    let live = |v: &&Variant| !v.skipped && !v.untagged;
    let mut known = Vec::new();
    for (i, variant) in variants.iter().enumerate().filter(|(_, v)| live(v)) {
        known.push(Known {
            name: &variant.name,
            owner: i,
            what: "the name",
        });
        for alias in &variant.serde_aliases {
            known.push(Known {
                name: alias,
                owner: i,
                what: "a serde alias",
            });
        }
    }
    let mut added: Vec<(String, usize)> = Vec::new();
    for (i, variant) in variants.iter().enumerate().filter(|(_, v)| live(v)) {
        for alias in &variant.attrs.aliases {
            let value = alias.value();
            let clash = find(&known, &value).map(|k| (k.owner, k.what)).or_else(|| {
                added
                    .iter()
                    .find(|(v, _)| *v == value)
                    .map(|(_, owner)| (*owner, "an alias"))
            });
            match clash {
                Some((owner, what)) if owner == i => cx.error_spanned_by(
                    alias,
                    format!("alias `{value}` is already {what} of this variant"),
                ),
                Some((owner, what)) => cx.error_spanned_by(
                    alias,
                    format!(
                        "alias `{value}` is ambiguous: it is also {what} of variant `{}`",
                        variants[owner].original.ident
                    ),
                ),
                None => added.push((value, i)),
            }
        }
    }
}
