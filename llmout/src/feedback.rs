//! The message for the model when its reply could not be used: what is wrong with the reply,
//! in the model's terms (fields, values, types), never the library's ("filled with the empty
//! value 0"). [`ValidationResult::feedback`](crate::ValidationResult::feedback) and the retry
//! loop ([`crate::retry()`]) send it.
//!
//! One line per problem, each a sentence about a field of the reply: the error first, then
//! the changes that lost or made up data (a missing field filled in, a key dropped). Changes
//! that only reinterpret what the model wrote (a key in another case, `"3"` for 3) are not
//! listed: the value read is the one the model meant, and a retry would not improve it.
//!
//! To say something new to the model, add a case to [`error_line`] (one per [`ErrorKind`]) or
//! [`warning_line`] (one per [`WarningKind`]); the rest is layout. A validation error
//! ([`ErrorKind::Invalid`]) is a line per constraint broken, in the violation's own words.

use crate::schema::{Kind, NodeId, Schema};
use crate::{Error, ErrorKind, Warning, WarningKind};

/// The first line of every message.
const HEADER: &str = "Your reply could not be used:";
/// The last line of every message.
const FOOTER: &str = "Reply again with only the corrected JSON.";

/// The message for `error` and `warnings`, with what each field must be taken from `schema`
/// when given (else from the error's own words). `None` when there is nothing to say.
pub(crate) fn message(
    error: Option<&Error>,
    warnings: &[Warning],
    schema: Option<&Schema>,
) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    if let Some(e) = error {
        if e.violations().is_empty() {
            lines.push(error_line(e, schema));
        } else {
            // Every constraint the value breaks, each in its own words.
            lines.extend(e.violations().iter().map(|v| {
                let mut line = v.to_string();
                if !line.ends_with('.') {
                    line.push('.');
                }
                line
            }));
        }
    }
    lines.extend(warnings.iter().filter_map(|w| warning_line(w, schema)));
    if lines.is_empty() {
        return None;
    }
    let mut out = String::from(HEADER);
    for line in lines {
        out.push_str("\n- ");
        out.push_str(&line);
    }
    out.push('\n');
    out.push_str(FOOTER);
    Some(out)
}

/// One sentence about an error.
fn error_line(e: &Error, schema: Option<&Schema>) -> String {
    let field = Field(e.path());
    let what = expected(e, schema);
    match e.kind() {
        ErrorKind::NoJson => format!("The reply has no JSON in it; it must be {what}."),
        ErrorKind::Syntax => format!(
            "The reply is not JSON that can be read ({}); it must be {what}.",
            e.found()
        ),
        ErrorKind::DepthLimit => format!("{field} nests too deeply; it must be {}.", e.expected()),
        ErrorKind::Ambiguous => {
            format!("{field} must be {what}, not {}; say which one.", e.found())
        }
        _ if e.found() == "nothing" => format!("{field} is missing; it must be {what}."),
        _ if e.found() == "null" => format!("{field} is null; it must be {what}."),
        // Strict policy: the value needed a change the policy forbids.
        ErrorKind::Forbidden if e.found().starts_with("one that needs this: ") => {
            format!("{field} must be exactly {what}, as the schema writes it.")
        }
        _ => format!("{field} must be {what}, not {}.", e.found()),
    }
}

/// One sentence about a change that lost or made up data; `None` for the others.
fn warning_line(w: &Warning, schema: Option<&Schema>) -> Option<String> {
    let field = Field(&w.path);
    let what = || {
        schema
            .and_then(|s| at_pointer(s, &w.path).map(|id| s.describe(id)))
            .map_or_else(String::new, |t| format!("; it must be {t}"))
    };
    Some(match w.kind {
        WarningKind::MissingField => format!("{field} is missing{}.", what()),
        WarningKind::NullReplaced => format!("{field} is null{}.", what()),
        WarningKind::UnknownKeyDropped => format!("{field} is not a field of the answer."),
        WarningKind::RequiredOnly | WarningKind::ItemDropped => {
            format!("{field} could not be read{}.", what())
        }
        _ => return None,
    })
}

/// What is expected where `e` happened: the schema's description of that place when the
/// schema is known and the path leads somewhere in it, else the error's own words (without
/// the policy's note: `an integer for "n" (required; never filled in)` is `an integer`).
fn expected(e: &Error, schema: Option<&Schema>) -> String {
    if let Some(s) = schema {
        if let Some(id) = at_pointer(s, e.path()) {
            return s.describe(id);
        }
    }
    let text = e.expected();
    match text.find(" for \"") {
        Some(cut) if text.ends_with(')') => text[..cut].to_owned(),
        _ => text.to_owned(),
    }
}

/// A field of the reply named by its JSON pointer, as a model reads it: `` the field
/// `issues[0].line` ``, or `the reply` for the root.
struct Field<'a>(&'a str);

impl std::fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("The reply");
        }
        f.write_str("The field `")?;
        for (i, segment) in self.0.split('/').skip(1).enumerate() {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                write!(f, "[{segment}]")?;
            } else if i == 0 {
                f.write_str(&segment)?;
            } else {
                write!(f, ".{segment}")?;
            }
        }
        f.write_str("`")
    }
}

/// The schema node a JSON pointer into a value leads to: through properties (and
/// `additionalProperties`), array items, and the first union branch that leads on. `None`
/// where the schema does not say (or the path is not a pointer).
fn at_pointer(schema: &Schema, pointer: &str) -> Option<NodeId> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    follow(schema, schema.root(), &segments, 0)
}

fn follow(schema: &Schema, id: NodeId, rest: &[String], depth: usize) -> Option<NodeId> {
    let Some((first, rest)) = rest.split_first() else {
        return Some(id);
    };
    if depth > 64 {
        return None;
    }
    let id = schema.resolve(id);
    let next = match &schema.node(id).kind {
        Kind::Object(o) => o
            .properties
            .iter()
            .find(|p| p.name == *first)
            .map(|p| p.schema)
            .or(match o.additional {
                crate::schema::Additional::Schema(s) => Some(s),
                _ => None,
            })?,
        Kind::Array(a) => {
            let i: usize = first.parse().ok()?;
            a.prefix.get(i).copied().or(a.items)?
        }
        Kind::Union(branches) => {
            let segments: Vec<String> = std::iter::once(first.clone())
                .chain(rest.iter().cloned())
                .collect();
            return branches
                .iter()
                .find_map(|b| follow(schema, *b, &segments, depth + 1));
        }
        _ => return None,
    };
    follow(schema, next, rest, depth + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Schema {
        Schema::compile(&json!({
            "type": "object",
            "properties": {
                "score": {"type": "integer"},
                "issues": {"type": "array", "items": {"type": "object", "properties": {"line": {"type": "integer"}}}},
                "a/b": {"type": "string"}
            }
        }))
        .unwrap()
    }

    #[test]
    fn fields_are_named_as_a_model_reads_them() {
        assert_eq!(Field("").to_string(), "The reply");
        assert_eq!(Field("/score").to_string(), "The field `score`");
        assert_eq!(
            Field("/issues/0/line").to_string(),
            "The field `issues[0].line`"
        );
        assert_eq!(Field("/a~1b").to_string(), "The field `a/b`");
    }

    #[test]
    fn pointers_lead_into_the_schema() {
        let s = schema();
        let describe = |p: &str| at_pointer(&s, p).map(|id| s.describe(id));
        assert_eq!(describe("/score").as_deref(), Some("an integer"));
        assert_eq!(describe("/issues/3/line").as_deref(), Some("an integer"));
        assert_eq!(describe("/a~1b").as_deref(), Some("a string"));
        assert_eq!(describe("/nowhere"), None);
        assert_eq!(describe("score"), None);
    }

    #[test]
    fn each_error_kind_is_a_sentence() {
        let s = schema();
        let line = |kind, path: &str, expected: &str, found: &str| {
            error_line(&Error::new(kind, path, expected, found), Some(&s))
        };
        assert_eq!(
            line(
                ErrorKind::Forbidden,
                "/score",
                "an integer for \"score\" (required; never filled in)",
                "nothing"
            ),
            "The field `score` is missing; it must be an integer."
        );
        assert_eq!(
            line(
                ErrorKind::Mismatch,
                "/issues/0/line",
                "an integer",
                "\"ten\""
            ),
            "The field `issues[0].line` must be an integer, not \"ten\"."
        );
        assert_eq!(
            line(
                ErrorKind::Forbidden,
                "/score",
                "an integer (never filled in)",
                "null"
            ),
            "The field `score` is null; it must be an integer."
        );
        assert_eq!(
            line(
                ErrorKind::NoJson,
                "",
                "a JSON value",
                "text with no JSON in it: \"hi\""
            ),
            "The reply has no JSON in it; it must be an object."
        );
        // Without the schema, the error's own words, without the policy's note.
        let e = Error::new(
            ErrorKind::Forbidden,
            "/n",
            "a number for \"n\" (marked no_invent: never filled in)",
            "nothing",
        );
        assert_eq!(
            error_line(&e, None),
            "The field `n` is missing; it must be a number."
        );
    }
}
