//! Compact prompt rendering of a schema: TypeScript-like type definitions a model reads easily
//! and that cost a fraction of the JSON Schema's tokens.
//!
//! ```text
//! // A code review of one change.
//! {
//!   // One sentence on the change as a whole.
//!   summary: string,
//!   // The verdict.
//!   status: Status,
//!   issues: Issue[],
//!   note?: string | null,
//! }
//!
//! // The review verdict.
//! Status = "Approved" | "NeedsReview" | "Rejected"
//! ```
//!
//! Rules, in the order they are tried for each schema:
//!
//! | schema | rendered |
//! |---|---|
//! | `true`, `{}` | `any` |
//! | `false` | `never` |
//! | `$ref` to `#/$defs/Name` | `Name`, defined once below the root (recursion is fine) |
//! | `$ref` to `#` | the root's `title` (or `Root`), and the root is written `Title = …` |
//! | `const` | the JSON literal |
//! | `enum` | literals joined with ` \| ` |
//! | `anyOf`, `oneOf` | branches joined with ` \| ` |
//! | `allOf` | branches joined with ` & ` |
//! | `type` array | types joined with ` \| ` (`string \| null`) |
//! | `array` | `T[]`, or `[A, B]` for `prefixItems` (tuples) |
//! | `object` with properties | `{ name: T, optional?: T }`, one per line with descriptions as `//` comments |
//! | `object` with only `additionalProperties` | `{ [key: string]: T }` |
//! | `string`, `integer`, `number`, `boolean`, `null` | themselves; a `format` is added as `string /* date-time */` |
//!
//! A property's `default` is shown in its comment. Bounds (`minimum`, `maxLength`, ...) are not
//! shown: recovery enforces them, and the prompt stays short. Vendor keywords (`x-…`) are not
//! shown.
//!
//! A schema [`validate`](super::validate) rejects (`{"type": 3}`, `{"enum": []}`, a `$ref`
//! cycle) is an error, never rendered as `any`.

use std::collections::BTreeSet;
use std::fmt::Write;

use serde_json::{Map, Value};

use crate::Error;

/// Validation bounds a schema's nesting below this; the check stays as a guard.
const MAX_DEPTH: usize = super::valid::MAX_NESTING + 1;

/// Renders a JSON schema as compact, TypeScript-like text for a prompt: the root type first,
/// then each named definition it uses, once. Fails on a schema that is not a schema (see
/// [`validate`](super::validate)).
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "description": "A point.",
///     "type": "object",
///     "properties": {
///         "x": {"type": "integer", "description": "Across."},
///         "label": {"type": ["string", "null"]}
///     },
///     "required": ["x"]
/// });
/// assert_eq!(
///     llmout::schema::prompt::render(&schema).unwrap(),
///     "// A point.\n{\n  // Across.\n  x: integer,\n  label?: string | null,\n}"
/// );
/// let e = llmout::schema::prompt::render(&json!({"properties": "x"})).unwrap_err();
/// assert_eq!(e.to_string(), "at /properties: expected an object of schemas, found \"x\"");
/// ```
pub fn render(schema: &Value) -> Result<String, Error> {
    super::validate(schema)?;
    let mut r = Renderer {
        root: schema,
        queue: Vec::new(),
        seen: BTreeSet::new(),
        root_used: false,
    };
    let mut out = String::new();
    r.comment(&mut out, schema, 0);
    let mut body = String::new();
    r.expr(&mut body, schema, 0, 0);
    if r.root_used {
        // A recursive root (`"$ref": "#"`) is named, so its uses can refer to it.
        out.push_str(&r.root_name());
        out.push_str(" = ");
    }
    out.push_str(&body);
    let mut next = 0;
    while next < r.queue.len() {
        let (name, pointer) = r.queue[next].clone();
        next += 1;
        let Some(def) = r.root.pointer(&pointer) else {
            continue;
        };
        out.push_str("\n\n");
        r.comment(&mut out, def, 0);
        out.push_str(&name);
        out.push_str(" = ");
        r.expr(&mut out, def, 0, 1);
    }
    Ok(out)
}

struct Renderer<'a> {
    root: &'a Value,
    /// Definitions to render after the root: (name, JSON pointer), in order of first use.
    queue: Vec<(String, String)>,
    seen: BTreeSet<String>,
    /// Whether the root refers to itself.
    root_used: bool,
}

impl Renderer<'_> {
    fn root_name(&self) -> String {
        self.root
            .get("title")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .unwrap_or("Root")
            .to_owned()
    }

    /// `// description` lines (and a default) above a type or property.
    fn comment(&self, out: &mut String, s: &Value, indent: usize) {
        let description = s.get("description").and_then(Value::as_str);
        let default = s.get("default");
        let mut lines: Vec<String> = description
            .map(|d| d.lines().map(str::trim_end).map(str::to_owned).collect())
            .unwrap_or_default();
        if let Some(d) = default {
            lines.push(format!("default: {d}"));
        }
        for line in lines {
            pad(out, indent);
            out.push_str("//");
            if !line.is_empty() {
                out.push(' ');
                out.push_str(&line);
            }
            out.push('\n');
        }
    }

    /// The type expression of `s`; `indent` is the current nesting of object bodies.
    fn expr(&mut self, out: &mut String, s: &Value, indent: usize, depth: usize) {
        if depth > MAX_DEPTH {
            out.push_str("any");
            return;
        }
        let obj = match s {
            Value::Bool(true) => return out.push_str("any"),
            Value::Bool(false) => return out.push_str("never"),
            Value::Object(o) => o,
            _ => return out.push_str("any"),
        };
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            return self.reference(out, r);
        }
        if let Some(c) = obj.get("const") {
            return out.push_str(&c.to_string());
        }
        if let Some(Value::Array(values)) = obj.get("enum") {
            let literals: Vec<String> = values.iter().map(Value::to_string).collect();
            return out.push_str(&literals.join(" | "));
        }
        for (key, sep) in [("anyOf", " | "), ("oneOf", " | "), ("allOf", " & ")] {
            if let Some(Value::Array(branches)) = obj.get(key) {
                return self.joined(out, branches, sep, indent, depth);
            }
        }
        match obj.get("type") {
            Some(Value::String(t)) => self.typed(out, obj, t, indent, depth),
            Some(Value::Array(types)) => {
                for (i, t) in types.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" | ");
                    }
                    self.typed(out, obj, t.as_str().unwrap_or("any"), indent, depth);
                }
            }
            _ if obj.contains_key("properties") => self.typed(out, obj, "object", indent, depth),
            _ if obj.contains_key("items") => self.typed(out, obj, "array", indent, depth),
            _ => out.push_str("any"),
        }
    }

    fn joined(
        &mut self,
        out: &mut String,
        branches: &[Value],
        sep: &str,
        indent: usize,
        depth: usize,
    ) {
        for (i, b) in branches.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            self.expr(out, b, indent, depth + 1);
        }
        if branches.is_empty() {
            out.push_str("never");
        }
    }

    fn typed(
        &mut self,
        out: &mut String,
        obj: &Map<String, Value>,
        t: &str,
        indent: usize,
        depth: usize,
    ) {
        match t {
            "object" => self.object(out, obj, indent, depth),
            "array" => self.array(out, obj, indent, depth),
            "string" => {
                out.push_str("string");
                if let Some(f) = obj.get("format").and_then(Value::as_str) {
                    let _ = write!(out, " /* {f} */");
                }
            }
            "integer" | "number" | "boolean" | "null" => out.push_str(t),
            _ => out.push_str("any"),
        }
    }

    fn array(&mut self, out: &mut String, obj: &Map<String, Value>, indent: usize, depth: usize) {
        if let Some(Value::Array(prefix)) = obj.get("prefixItems") {
            out.push('[');
            self.joined(out, prefix, ", ", indent, depth);
            return out.push(']');
        }
        let Some(items) = obj.get("items") else {
            return out.push_str("any[]");
        };
        let mut inner = String::new();
        self.expr(&mut inner, items, indent, depth + 1);
        if inner.contains(" | ") || inner.contains(" & ") {
            let _ = write!(out, "({inner})[]");
        } else {
            let _ = write!(out, "{inner}[]");
        }
    }

    fn object(&mut self, out: &mut String, obj: &Map<String, Value>, indent: usize, depth: usize) {
        let props = obj.get("properties").and_then(Value::as_object);
        let additional = obj.get("additionalProperties");
        let Some(props) = props.filter(|p| !p.is_empty()) else {
            return match additional {
                Some(Value::Bool(false)) => out.push_str("{}"),
                Some(a @ Value::Object(_)) => {
                    out.push_str("{ [key: string]: ");
                    self.expr(out, a, indent, depth + 1);
                    out.push_str(" }");
                }
                _ => out.push_str("{ [key: string]: any }"),
            };
        };
        let required: BTreeSet<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        out.push_str("{\n");
        for (name, s) in props {
            self.comment(out, s, indent + 1);
            pad(out, indent + 1);
            out.push_str(&key(name));
            if !required.contains(name.as_str()) {
                out.push('?');
            }
            out.push_str(": ");
            self.expr(out, s, indent + 1, depth + 1);
            out.push_str(",\n");
        }
        if let Some(a @ Value::Object(_)) = additional {
            pad(out, indent + 1);
            out.push_str("[key: string]: ");
            self.expr(out, a, indent + 1, depth + 1);
            out.push_str(",\n");
        }
        pad(out, indent);
        out.push('}');
    }

    /// A `$ref`: the definition's name, queued to be rendered once.
    fn reference(&mut self, out: &mut String, r: &str) {
        let Some(pointer) = r.strip_prefix('#') else {
            return out.push_str("any");
        };
        if pointer.is_empty() {
            self.root_used = true;
            return out.push_str(&self.root_name());
        }
        let name = pointer
            .rsplit('/')
            .next()
            .unwrap_or(pointer)
            .replace("~1", "/")
            .replace("~0", "~");
        if self.seen.insert(pointer.to_owned()) {
            self.queue.push((name.clone(), pointer.to_owned()));
        }
        out.push_str(&name);
    }
}

fn pad(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// A property name as written in the rendering: bare when it is an identifier, else quoted.
fn key(name: &str) -> String {
    let bare = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if bare {
        name.to_owned()
    } else {
        Value::String(name.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::render;
    use serde_json::json;

    #[test]
    fn scalars_and_unions() {
        assert_eq!(render(&json!(true)).unwrap(), "any");
        assert_eq!(render(&json!(false)).unwrap(), "never");
        assert_eq!(render(&json!({"type": "integer"})).unwrap(), "integer");
        assert_eq!(
            render(&json!({"type": ["number", "null"]})).unwrap(),
            "number | null"
        );
        assert_eq!(
            render(&json!({"enum": ["a", 1, null]})).unwrap(),
            "\"a\" | 1 | null"
        );
        assert_eq!(render(&json!({"const": "x"})).unwrap(), "\"x\"");
        assert_eq!(
            render(&json!({"type": "string", "format": "date-time"})).unwrap(),
            "string /* date-time */"
        );
        assert_eq!(
            render(&json!({"anyOf": [{"type": "string"}, {"type": "null"}]})).unwrap(),
            "string | null"
        );
        assert_eq!(
            render(&json!({"anyOf": []})).unwrap_err().to_string(),
            "at /anyOf: expected a non-empty array of schemas, found []"
        );
    }

    #[test]
    fn arrays_tuples_and_maps() {
        assert_eq!(
            render(&json!({"type": "array", "items": {"type": "string"}})).unwrap(),
            "string[]"
        );
        assert_eq!(
            render(&json!({"type": "array", "items": {"type": ["string", "null"]}})).unwrap(),
            "(string | null)[]"
        );
        assert_eq!(
            render(
                &json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]})
            )
            .unwrap(),
            "[integer, string]"
        );
        assert_eq!(
            render(&json!({"type": "object", "additionalProperties": {"type": "integer"}}))
                .unwrap(),
            "{ [key: string]: integer }"
        );
        assert_eq!(
            render(&json!({"type": "object", "additionalProperties": false})).unwrap(),
            "{}"
        );
    }

    #[test]
    fn objects_with_comments_defaults_and_odd_keys() {
        let schema = json!({
            "type": "object",
            "properties": {
                "user id": {"type": "string", "description": "Two\nlines."},
                "n": {"type": "integer", "default": 3},
                "inner": {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"]}
            },
            "required": ["user id"]
        });
        assert_eq!(
            render(&schema).unwrap(),
            "{\n  // Two\n  // lines.\n  \"user id\": string,\n  // default: 3\n  n?: integer,\n  inner?: {\n    a: boolean,\n  },\n}"
        );
    }

    #[test]
    fn definitions_render_once_in_order_of_use_and_recursion_terminates() {
        let schema = json!({
            "type": "object",
            "properties": {
                "root": {"$ref": "#/$defs/Node"},
                "other": {"$ref": "#/$defs/Leaf"}
            },
            "required": ["root", "other"],
            "$defs": {
                "Leaf": {"type": "string", "description": "A leaf."},
                "Node": {
                    "type": "object",
                    "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                    "required": ["children"]
                }
            }
        });
        assert_eq!(
            render(&schema).unwrap(),
            "{\n  root: Node,\n  other: Leaf,\n}\n\nNode = {\n  children: Node[],\n}\n\n// A leaf.\nLeaf = string"
        );
    }

    #[test]
    fn schemas_that_are_not_schemas_are_errors() {
        let mut s = json!({"type": "string"});
        for _ in 0..200 {
            s = json!({"type": "array", "items": s});
        }
        let e = render(&s).unwrap_err();
        assert_eq!(e.expected(), "a schema nested at most 100 deep");
        assert_eq!(e.path(), "/items".repeat(101));
        for (schema, path) in [
            (json!({"type": 3}), "/type"),
            (json!({"properties": "x"}), "/properties"),
            (json!({"enum": []}), "/enum"),
            (
                json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}),
                "/$defs/B/$ref",
            ),
        ] {
            assert_eq!(render(&schema).unwrap_err().path(), path, "{schema}");
        }
    }
}
