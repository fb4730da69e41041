//! Calls whose arguments are written one parameter at a time, as text between markers
//! (`<parameter name="p">v</parameter>`, `<parameter=p>v</parameter>`,
//! `<arg_key>p</arg_key><arg_value>v</arg_value>`, …): how a family writes them, for the
//! streaming reader, which completes one parameter at a time.

use super::read::quoted_attr;

/// How a parameter's name is written after its opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamName {
    /// `"p">` or `'p'>` (attributes after the name are allowed).
    Quoted,
    /// `p>`.
    UntilGt,
    /// `p` then `key_close`, then `value_open` and the value.
    Key {
        key_close: &'static str,
        value_open: &'static str,
    },
}

/// How a family writes its parameters.
#[derive(Debug)]
pub(crate) struct ParamStyle {
    /// What opens a parameter.
    pub opens: &'static [&'static str],
    /// How its name is written.
    pub name: ParamName,
    /// What closes a parameter's value.
    pub closes: &'static [&'static str],
    /// What closes the call.
    pub call_closes: &'static [&'static str],
}

/// What a parameter's head (the text after its opener) came to.
pub(crate) enum ParamHead {
    /// Not all written yet.
    Partial,
    /// The name, and the offset of the value in the head.
    Named(String, usize),
}

impl ParamStyle {
    /// Reads a parameter's name from `rest`, the text after its opener.
    pub fn head(&self, rest: &str) -> ParamHead {
        match self.name {
            ParamName::Quoted => match quoted_attr(rest) {
                Some((n, after)) => ParamHead::Named(n, after),
                None => ParamHead::Partial,
            },
            ParamName::UntilGt => match rest.find('>') {
                Some(gt) => ParamHead::Named(rest[..gt].trim().to_owned(), gt + 1),
                None => ParamHead::Partial,
            },
            ParamName::Key {
                key_close,
                value_open,
            } => {
                let Some(k) = rest.find(key_close) else {
                    return ParamHead::Partial;
                };
                let Some(val) = rest[k..].find(value_open) else {
                    return ParamHead::Partial;
                };
                ParamHead::Named(rest[..k].trim().to_owned(), k + val + value_open.len())
            }
        }
    }
}
