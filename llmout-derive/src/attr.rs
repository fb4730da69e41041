//! Parsing of `#[llmout(...)]` attributes, and nothing else: serde's attributes are read
//! through `serde_derive_internals` (see `ast.rs`), semantic checks live in `valid.rs`.

use serde_derive_internals::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Lit, LitStr, Path, Result};

/// Where an attribute sits; decides which options it accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Container,
    Variant,
    Field,
}

impl Target {
    fn describe(self) -> &'static str {
        match self {
            Target::Container => "a struct or enum",
            Target::Variant => "an enum variant",
            Target::Field => "a field",
        }
    }
}

/// The `#[llmout(...)]` options of one item. Each option remembers its path for spans.
#[derive(Default)]
pub struct Attrs {
    /// `#[llmout(crate = "path")]`: the path of the `llmout` crate.
    pub crate_path: Option<Path>,
    /// `#[llmout(no_invent)]`: the `no_invent` token.
    pub no_invent: Option<Path>,
    /// `#[llmout(alias = "name")]`, in order of appearance.
    pub aliases: Vec<LitStr>,
}

/// Parses every `#[llmout(...)]` in `attrs`; errors go to `cx` so that all are reported.
pub fn get(cx: &Ctxt, attrs: &[Attribute], target: Target) -> Attrs {
    let mut out = Attrs::default();
    for attr in attrs {
        if !attr.path().is_ident("llmout") {
            continue;
        }
        if let Err(err) = attr.parse_nested_meta(|meta| parse_one(cx, &mut out, &meta, target)) {
            cx.syn_error(err);
        }
    }
    out
}

fn parse_one(cx: &Ctxt, out: &mut Attrs, meta: &ParseNestedMeta, target: Target) -> Result<()> {
    if meta.path.is_ident("crate") {
        // #[llmout(crate = "path::to::llmout")]
        let lit = string_value(cx, meta, "crate", "crate = \"path::to::llmout\"")?;
        let Some(lit) = lit else { return Ok(()) };
        if target != Target::Container {
            return misplaced(cx, meta, "crate", Target::Container);
        }
        match lit.parse::<Path>() {
            Ok(path) if out.crate_path.is_none() => out.crate_path = Some(path),
            Ok(_) => duplicate(cx, meta, "crate"),
            Err(_) => cx.error_spanned_by(
                &lit,
                format!("`{}` is not a path to the llmout crate", lit.value()),
            ),
        }
        Ok(())
    } else if meta.path.is_ident("no_invent") {
        // #[llmout(no_invent)]
        if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            return Err(meta.error("`no_invent` takes no value: write `#[llmout(no_invent)]`"));
        }
        if target != Target::Field {
            return misplaced(cx, meta, "no_invent", Target::Field);
        }
        if out.no_invent.is_some() {
            duplicate(cx, meta, "no_invent");
        } else {
            out.no_invent = Some(meta.path.clone());
        }
        Ok(())
    } else if meta.path.is_ident("alias") {
        // #[llmout(alias = "name")], repeatable
        let lit = string_value(cx, meta, "alias", "alias = \"name\"")?;
        let Some(lit) = lit else { return Ok(()) };
        if target == Target::Container {
            return misplaced(cx, meta, "alias", Target::Field);
        }
        if out.aliases.iter().any(|a| a.value() == lit.value()) {
            cx.error_spanned_by(&lit, format!("duplicate alias `{}`", lit.value()));
        } else {
            out.aliases.push(lit);
        }
        Ok(())
    } else {
        let name = path_to_string(&meta.path);
        Err(meta.path.get_ident().map_or_else(
            || syn::Error::new_spanned(&meta.path, format!("unknown llmout attribute `{name}`")),
            |ident| syn::Error::new(ident.span(), format!("unknown llmout attribute `{name}`")),
        ))
    }
}

/// Reads `= "string"`. A literal of another type is reported to `cx` (parsing goes on) and
/// gives `None`; anything else is a parse error.
fn string_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    name: &str,
    syntax: &str,
) -> Result<Option<LitStr>> {
    if !meta.input.peek(syn::Token![=]) {
        return Err(meta.error(format!("expected a value: `{syntax}`")));
    }
    let value = meta.value()?;
    match value.parse::<Lit>() {
        Ok(Lit::Str(lit)) => Ok(Some(lit)),
        Ok(other) => {
            cx.error_spanned_by(&other, format!("`{name}` takes a string: `{syntax}`"));
            Ok(None)
        }
        Err(err) => Err(syn::Error::new(
            err.span(),
            format!("`{name}` takes a string: `{syntax}`"),
        )),
    }
}

fn duplicate(cx: &Ctxt, meta: &ParseNestedMeta, name: &str) {
    cx.error_spanned_by(&meta.path, format!("duplicate llmout attribute `{name}`"));
}

fn misplaced(cx: &Ctxt, meta: &ParseNestedMeta, name: &str, belongs: Target) -> Result<()> {
    let also = if name == "alias" {
        " or an enum variant"
    } else {
        ""
    };
    cx.error_spanned_by(
        &meta.path,
        format!("`#[llmout({name})]` goes on {}{also}", belongs.describe()),
    );
    Ok(())
}

fn path_to_string(path: &Path) -> String {
    let mut s = String::new();
    if path.leading_colon.is_some() {
        s.push_str("::");
    }
    for (i, seg) in path.segments.iter().enumerate() {
        if i > 0 {
            s.push_str("::");
        }
        s.push_str(&seg.ident.to_string());
    }
    s
}
