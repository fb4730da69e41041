//! Calls whose arguments are written one parameter at a time, as text between markers
//! (`<parameter name="p">v</parameter>`, `<parameter=p>v</parameter>`,
//! `<arg_key>p</arg_key><arg_value>v</arg_value>`, …): how a family writes them, for the
//! streaming reader, which completes one parameter at a time.

use serde_json::Value;

use super::read::param_value;

/// How a parameter's (or a call's) name is written after its opener.
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
    /// An attribute saying the value is text, never JSON (DeepSeek's `string="true"`).
    pub raw_attr: Option<&'static str>,
}

/// What a parameter's head (the text after its opener) came to.
pub(crate) enum ParamHead {
    /// Not all written yet.
    Partial,
    /// The name, the offset of the value in the head, and whether the value is text only.
    Named(String, usize, bool),
}

impl ParamStyle {
    /// Reads a parameter's name from `rest`, the text after its opener.
    pub fn head(&self, rest: &str) -> ParamHead {
        match name_at(self.name, rest) {
            Some((name, after, attrs)) => {
                let raw = self.raw_attr.is_some_and(|a| attrs.contains(a));
                ParamHead::Named(name, after, raw)
            }
            None => ParamHead::Partial,
        }
    }

    /// A parameter's value from its text.
    pub fn value(&self, text: &str, raw: bool) -> Value {
        if raw {
            let t = text.strip_prefix('\n').unwrap_or(text);
            let t = t.strip_suffix('\n').unwrap_or(t);
            Value::String(t.to_owned())
        } else {
            param_value(text)
        }
    }
}

/// A name written the `form` way at the start of `rest`: the name, the offset after it (and
/// after its `>`), and the attributes written between them.
pub(crate) fn name_at(form: ParamName, rest: &str) -> Option<(String, usize, &str)> {
    match form {
        ParamName::Quoted => {
            let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let end = rest[1..].find(q)? + 1;
            let gt = rest[end..].find('>')? + end;
            Some((rest[1..end].to_owned(), gt + 1, &rest[end + 1..gt]))
        }
        ParamName::UntilGt => {
            let gt = rest.find('>')?;
            Some((rest[..gt].trim().to_owned(), gt + 1, ""))
        }
        ParamName::Key {
            key_close,
            value_open,
        } => {
            let k = rest.find(key_close)?;
            let val = rest[k..].find(value_open)?;
            Some((rest[..k].trim().to_owned(), k + val + value_open.len(), ""))
        }
    }
}
