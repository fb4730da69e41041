//! The check every schema passes before llmout uses it: [`Schema::compile`](super::Schema::compile),
//! [`prompt::render`](super::prompt::render) and [`dialect::to_dialect`](super::dialect::to_dialect)
//! all call [`validate`] first, so a schema that is not a schema is the same error on every
//! path, at the JSON pointer of the bad keyword, and never read as "any value".
//!
//! | rejected | example |
//! |---|---|
//! | a schema that is neither an object nor a boolean | `5`, `{"items": "x"}` |
//! | `type` that is not a type name or a non-empty array of them | `{"type": 3}`, `{"type": "strnig"}` |
//! | `enum` that is not a non-empty array | `{"enum": []}` |
//! | `properties`, `$defs`, `patternProperties`… that are not objects of schemas | `{"properties": "x"}` |
//! | `anyOf`, `oneOf`, `allOf` that are not non-empty arrays of schemas | `{"anyOf": []}` |
//! | `required`, `x-no-invent` that are not arrays of strings; `x-aliases` not an object of strings | `{"required": "a"}` |
//! | bounds that are not numbers, counts that are not non-negative integers, `multipleOf` not above 0 | `{"minItems": -1}` |
//! | `format` that is not a string, `uniqueItems` not a boolean, `dependentRequired` not an object of name lists | `{"format": 1}` |
//! | a `pattern` or `patternProperties` key that is not a regular expression llmout can run (see [`Pattern`]: ECMA-262 without look-around or backreferences) | `{"pattern": "(?=a)"}` |
//! | a `$ref` that is not a string or does not resolve inside the document | `{"$ref": "#/$defs/Missing"}` |
//! | references that loop without consuming input: a cycle of `$ref`s and in-place applicators (`anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/`else`) with no `properties` or `items` on the way | `A -> B -> A`, a `$ref` that is its own `anyOf` branch |
//! | schema positions nested more than 100 deep | |
//!
//! Annotations (`title`, `description`, `default`, `examples`, …) and keywords llmout does not
//! know are not checked. A recursive schema whose references pass through `properties`,
//! `items` or `additionalProperties` (a tree, a linked list) is fine: each round consumes one
//! level of the value.
//!
//! The check is linear in the size of the schema (each position and each reference target is
//! visited once) and recurses at most 100 deep.
//!
//! ```
//! use llmout::schema::validate;
//! use serde_json::json;
//! assert!(validate(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).is_ok());
//! let e = validate(&json!({"properties": {"a": {"type": 3}}})).unwrap_err();
//! assert_eq!(e.path(), "/properties/a/type");
//! let e = validate(&json!({
//!     "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
//!     "$ref": "#/$defs/A"
//! })).unwrap_err();
//! assert_eq!(e.to_string(), "at /$defs/B/anyOf/0/$ref: expected references that reach \
//!     `properties` or `items` before they loop, found the cycle #/$defs/A -> #/$defs/B -> #/$defs/A");
//! ```

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::Pattern;
use crate::{Error, ErrorKind};

/// What an invalid-schema error for a regular expression expects.
pub(crate) const PATTERN_EXPECTED: &str =
    "a regular expression llmout can run (ECMA-262 without look-around or backreferences)";

/// Schema positions nested deeper than this are rejected (the checks and every consumer recurse
/// once per level).
pub(crate) const MAX_NESTING: usize = 100;

const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "integer", "string",
];

/// Keywords whose value is an object of schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one schema.
const SCHEMA_ONE: [&str; 10] = [
    "additionalProperties",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is a non-empty array of schemas.
const SCHEMA_LISTS: [&str; 3] = ["anyOf", "oneOf", "allOf"];
/// Keywords applied to the same value as the schema that holds them (no input consumed).
const IN_PLACE_ONE: [&str; 4] = ["not", "if", "then", "else"];
const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const COUNTS: [&str; 6] = [
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
];

/// Checks that `schema` is a JSON schema llmout can use; the error names the bad keyword by its
/// JSON pointer: a `type` that is not a type name, an `enum` that is not a non-empty array, a
/// `$ref` that does not resolve, references that loop without consuming input, and so on (the
/// full table is in the module docs of `schema/valid.rs`, which are not public).
///
/// ```
/// use llmout::schema::validate;
/// use serde_json::json;
/// assert_eq!(
///     validate(&json!({"enum": []})).unwrap_err().to_string(),
///     "at /enum: expected a non-empty array of values, found []"
/// );
/// ```
pub fn validate(schema: &Value) -> Result<(), Error> {
    check(schema).map(drop)
}

/// [`validate`], keeping the regular expressions it compiled (by source) for
/// [`Schema::compile`](super::Schema::compile).
pub(crate) fn check(schema: &Value) -> Result<HashMap<String, Pattern>, Error> {
    let mut c = Checker {
        root: schema,
        seen: HashSet::new(),
        refs: HashMap::new(),
        pending: Vec::new(),
        patterns: HashMap::new(),
    };
    let mut path = String::new();
    c.check(schema, &mut path, 0)?;
    // Reference targets outside the positions walked so far (`"#/x-extra/T"`) are schemas too.
    while let Some((target, mut path)) = c.pending.pop() {
        if !c.seen.contains(&addr(target)) {
            c.check(target, &mut path, 0)?;
        }
    }
    c.cycles()?;
    Ok(c.patterns)
}

/// A value's address: which node it is, while the document is borrowed.
pub(crate) fn addr(v: &Value) -> usize {
    v as *const Value as usize
}

/// A `$ref` found at a position: the position, its pointer, the reference, its target.
struct Ref<'a> {
    holder: &'a Value,
    /// How many `$ref`s were found before it: the order the search for loops starts from
    /// them in. (Its pointer is found again only for an error: kept for each `$ref`, the
    /// pointers held a long property name once per `$ref` below it.)
    seq: usize,
    reference: String,
    target: &'a Value,
}

struct Checker<'a> {
    root: &'a Value,
    /// Positions checked, by address (stable: the document is borrowed for the whole check).
    seen: HashSet<usize>,
    /// Positions holding a `$ref`, by address.
    refs: HashMap<usize, Ref<'a>>,
    /// Reference targets still to check, with their pointers.
    pending: Vec<(&'a Value, String)>,
    /// The regular expressions compiled, by source.
    patterns: HashMap<String, Pattern>,
}

fn bad(path: &str, expected: &str, found: &Value) -> Error {
    Error::new(
        ErrorKind::InvalidSchema,
        path,
        expected,
        json_excerpt(found),
    )
}

/// A value as JSON text for an error message: at most 60 bytes, with `…` when cut.
/// Only the first bytes are written: the value may be a whole large schema (a root that is not
/// an object), and its full text would cost more than the schema.
pub(crate) fn json_excerpt(found: &impl serde::Serialize) -> String {
    const MAX: usize = 60;
    /// The first `MAX + 4` bytes of the text (a whole character past `MAX`), then an error.
    struct Head(Vec<u8>);
    impl std::io::Write for Head {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let room = (MAX + 4).saturating_sub(self.0.len());
            if room == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            let n = buf.len().min(room);
            self.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut head = Head(Vec::new());
    let _ = serde_json::to_writer(&mut head, found);
    let mut text = head.0;
    if text.len() > MAX {
        // Not inside a UTF-8 sequence: before a byte that does not continue one.
        let cut = (0..=MAX)
            .rev()
            .find(|&i| text.get(i).is_none_or(|b| b & 0xC0 != 0x80))
            .unwrap_or(0);
        text.truncate(cut);
        text.extend_from_slice("…".as_bytes());
    }
    String::from_utf8(text).unwrap_or_default()
}

impl<'a> Checker<'a> {
    fn check(&mut self, s: &'a Value, path: &mut String, depth: usize) -> Result<(), Error> {
        if depth > MAX_NESTING {
            return Err(Error::new(
                ErrorKind::InvalidSchema,
                path.as_str(),
                "a schema nested at most 100 deep",
                "deeper nesting",
            ));
        }
        let obj = match s {
            Value::Bool(_) => return Ok(()),
            Value::Object(obj) => obj,
            other => {
                return Err(bad(path, "a schema (an object or a boolean)", other));
            }
        };
        self.seen.insert(addr(s));
        let base = path.len();
        for (key, value) in obj {
            path.truncate(base);
            push_segment(path, key);
            self.keyword(s, key, value, path, depth)?;
        }
        path.truncate(base);
        Ok(())
    }

    fn keyword(
        &mut self,
        holder: &'a Value,
        key: &str,
        value: &'a Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Error> {
        let base = path.len();
        if let Some(expected) = wrong_value(key, value) {
            return Err(bad(path, expected, value));
        }
        match key {
            "$ref" => {
                let Some(reference) = value.as_str() else {
                    return Err(bad(path, "a $ref that is a string", value));
                };
                let Some(target) = resolve(self.root, reference) else {
                    return Err(Error::new(
                        ErrorKind::InvalidSchema,
                        path.as_str(),
                        "a $ref that resolves inside the schema",
                        format!("\"{reference}\""),
                    ));
                };
                let seq = self.refs.len();
                self.refs.insert(
                    addr(holder),
                    Ref {
                        holder,
                        seq,
                        reference: reference.to_owned(),
                        target,
                    },
                );
                if !self.seen.contains(&addr(target)) {
                    self.pending.push((target, ref_pointer(reference)));
                }
            }
            "pattern" => {
                if let Some(source) = value.as_str() {
                    self.pattern(source, path)?;
                }
            }
            "patternProperties" => {
                let Some(map) = value.as_object() else {
                    return Err(bad(path, "an object of schemas", value));
                };
                for source in map.keys() {
                    path.truncate(base);
                    push_segment(path, source);
                    self.pattern(source, path)?;
                }
                path.truncate(base);
                self.check_all(map.iter().map(|(k, v)| (k.clone(), v)), path, depth)?;
            }
            "items" if !value.is_array() => self.check(value, path, depth + 1)?,
            k if SCHEMA_ONE.contains(&k) => self.check(value, path, depth + 1)?,
            k if SCHEMA_MAPS.contains(&k) => {
                let Some(map) = value.as_object() else {
                    return Err(bad(path, "an object of schemas", value));
                };
                self.check_all(map.iter().map(|(k, v)| (k.clone(), v)), path, depth)?;
            }
            // `items` as an array: draft 7 tuples.
            "prefixItems" | "items" => {
                let Some(items) = value.as_array() else {
                    return Err(bad(path, "an array of schemas", value));
                };
                self.check_all(
                    items.iter().enumerate().map(|(i, v)| (i.to_string(), v)),
                    path,
                    depth,
                )?;
            }
            k if SCHEMA_LISTS.contains(&k) => {
                let Some(branches) = value.as_array().filter(|b| !b.is_empty()) else {
                    return Err(bad(path, "a non-empty array of schemas", value));
                };
                self.check_all(
                    branches.iter().enumerate().map(|(i, v)| (i.to_string(), v)),
                    path,
                    depth,
                )?;
            }
            _ => {}
        }
        path.truncate(base);
        Ok(())
    }

    /// Compiles a regular expression once (see [`Pattern`]); the error is at `path`.
    fn pattern(&mut self, source: &str, path: &str) -> Result<(), Error> {
        if self.patterns.contains_key(source) {
            return Ok(());
        }
        let p = Pattern::new(source).map_err(|why| {
            Error::new(
                ErrorKind::InvalidSchema,
                path,
                PATTERN_EXPECTED,
                format!("{} ({why})", json_excerpt(&Value::from(source))),
            )
        })?;
        self.patterns.insert(source.to_owned(), p);
        Ok(())
    }

    /// Checks each named schema one level below `path`.
    fn check_all(
        &mut self,
        schemas: impl Iterator<Item = (String, &'a Value)>,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Error> {
        let base = path.len();
        for (name, s) in schemas {
            path.truncate(base);
            push_segment(path, &name);
            self.check(s, path, depth + 1)?;
        }
        path.truncate(base);
        Ok(())
    }

    /// Finds a loop of references that consumes no input: a depth-first search over positions,
    /// along in-place applicators and `$ref`s, from every position that holds a `$ref`.
    fn cycles(&self) -> Result<(), Error> {
        // 1: on the search's path, 2: done.
        let mut state: HashMap<usize, u8> = HashMap::new();
        let mut starts: Vec<(usize, usize, &'a Value)> = self
            .refs
            .iter()
            .map(|(a, r)| (r.seq, *a, r.holder))
            .collect();
        // A fixed order, so the same schema always reports the same cycle.
        starts.sort_unstable_by_key(|s| s.0);
        for (_, start, start_value) in starts {
            if state.contains_key(&start) {
                continue;
            }
            // (position, its in-place successors, the next one to follow)
            let mut stack: Vec<(usize, Vec<&'a Value>, usize)> = Vec::new();
            state.insert(start, 1);
            stack.push((start, self.successors(start_value, start), 0));
            while let Some((node, next, i)) = stack.last_mut() {
                let Some(&child) = next.get(*i) else {
                    state.insert(*node, 2);
                    stack.pop();
                    continue;
                };
                *i += 1;
                let c = addr(child);
                match state.get(&c) {
                    Some(2) => {}
                    Some(_) => {
                        let from = stack.iter().position(|(n, _, _)| *n == c).unwrap_or(0);
                        return Err(self.cycle_error(&stack[from..]));
                    }
                    None => {
                        state.insert(c, 1);
                        let succ = self.successors(child, c);
                        stack.push((c, succ, 0));
                    }
                }
            }
        }
        Ok(())
    }

    /// Positions applied to the same value as `s`: its in-place applicators and its `$ref`.
    fn successors(&self, s: &'a Value, a: usize) -> Vec<&'a Value> {
        let mut out = Vec::new();
        let Value::Object(obj) = s else { return out };
        if let Some(r) = self.refs.get(&a) {
            out.push(r.target);
        }
        for k in SCHEMA_LISTS {
            if let Some(Value::Array(bs)) = obj.get(k) {
                out.extend(bs.iter());
            }
        }
        for k in IN_PLACE_ONE {
            if let Some(v) = obj.get(k) {
                out.push(v);
            }
        }
        if let Some(Value::Object(m)) = obj.get("dependentSchemas") {
            out.extend(m.values());
        }
        out
    }

    /// The error for a cycle: the frames from the position it returns to up to the top of the
    /// search. It names the last `$ref` on the cycle and lists the references in order.
    fn cycle_error(&self, on_path: &[(usize, Vec<&'a Value>, usize)]) -> Error {
        // Each frame's edge taken is `next[i - 1]`; a `$ref`, when there is one, is edge 0.
        let taken: Vec<&Ref<'a>> = on_path
            .iter()
            .filter(|(_, _, i)| *i == 1)
            .filter_map(|(n, _, _)| self.refs.get(n))
            .collect();
        let Some(last) = taken.last() else {
            return Error::new(
                ErrorKind::InvalidSchema,
                "",
                "references that reach `properties` or `items` before they loop",
                "a cycle",
            );
        };
        let mut names = vec![last.reference.as_str()];
        names.extend(taken.iter().map(|r| r.reference.as_str()));
        let mut at = String::new();
        pointer_to(self.root, last.holder, &mut at);
        Error::new(
            ErrorKind::InvalidSchema,
            format!("{at}/$ref"),
            "references that reach `properties` or `items` before they loop",
            format!("the cycle {}", names.join(" -> ")),
        )
    }
}

/// What a keyword with a plain value (not schemas) should hold, when `value` is not that.
fn wrong_value(key: &str, value: &Value) -> Option<&'static str> {
    let is_name = |t: &Value| t.as_str().is_some_and(|t| TYPE_NAMES.contains(&t));
    let (ok, expected) = match key {
        "type" => (
            match value {
                Value::Array(ts) => !ts.is_empty() && ts.iter().all(is_name),
                t => is_name(t),
            },
            "a type name (null, boolean, object, array, number, integer, string) \
             or a non-empty array of them",
        ),
        "enum" => (
            value.as_array().is_some_and(|v| !v.is_empty()),
            "a non-empty array of values",
        ),
        "required" | "x-no-invent" => (
            value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            "an array of property names",
        ),
        "x-aliases" => (
            value
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_string)),
            "an object mapping aliases to names",
        ),
        // Draft 4's exclusive bounds are booleans.
        k if BOUNDS.contains(&k) => (
            value.is_number() || (k.starts_with("exclusive") && value.is_boolean()),
            "a number",
        ),
        "pattern" => (value.is_string(), "a regular expression (a string)"),
        "format" => (value.is_string(), "a format name (a string)"),
        "uniqueItems" => (value.is_boolean(), "true or false"),
        "dependentRequired" => (
            value.as_object().is_some_and(|m| {
                m.values()
                    .all(|v| v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
            }),
            "an object mapping property names to arrays of property names",
        ),
        "multipleOf" => (
            value.as_f64().is_some_and(|m| m > 0.0),
            "a number greater than 0",
        ),
        k if COUNTS.contains(&k) => (
            value.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0),
            "a non-negative integer",
        ),
        _ => (true, ""),
    };
    (!ok).then_some(expected)
}

/// Appends one JSON pointer segment (escaped) to `path`, in place: the path below a long
/// property name was copied whole for every keyword under it.
fn push_segment(path: &mut String, segment: &str) {
    crate::recover::push_key(path, segment);
}

/// Writes the JSON pointer of `target` in `v` (found by address) to `path`; false where it
/// is not there.
fn pointer_to(v: &Value, target: &Value, path: &mut String) -> bool {
    if std::ptr::eq(v, target) {
        return true;
    }
    let base = path.len();
    let found = match v {
        Value::Object(m) => m.iter().any(|(k, child)| {
            path.truncate(base);
            push_segment(path, k);
            pointer_to(child, target, path)
        }),
        Value::Array(items) => items.iter().enumerate().any(|(i, child)| {
            path.truncate(base);
            push_segment(path, &i.to_string());
            pointer_to(child, target, path)
        }),
        _ => false,
    };
    if !found {
        path.truncate(base);
    }
    found
}

/// The value a `$ref` inside the document points to (`#`, `#/json/pointer`, percent-encoded).
pub(crate) fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(&percent_decode(pointer))
}

/// The pointer a `$ref` names, for error messages (`"#/$defs/A"` -> `"/$defs/A"`).
fn ref_pointer(reference: &str) -> String {
    percent_decode(reference.strip_prefix('#').unwrap_or(reference))
}

/// Decodes `%XX` escapes in a `$ref` fragment (JSON pointer in URI form).
pub(crate) fn percent_decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        (b as char).to_digit(16).map(|d| d as u8)
    }
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    /// The whole text, cut as before the excerpt stopped writing at its limit.
    fn cut_whole(found: &Value) -> String {
        let mut text = found.to_string();
        if text.len() > 60 {
            let cut = (0..=60)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            text.truncate(cut);
            text.push('…');
        }
        text
    }

    #[test]
    fn an_excerpt_is_the_head_of_the_whole_text_cut_on_a_character() {
        let mut values = vec![json!(null), json!("é"), json!({"a": [1, 2, 3]})];
        for n in 50..70 {
            values.push(json!("x".repeat(n)));
            values.push(json!(format!("{}é€😀", "x".repeat(n))));
            values.push(json!([format!("{}😀😀", "y".repeat(n - 50))]));
        }
        values.push(json!({"big": vec!["0123456789"; 100_000]}));
        for v in values {
            assert_eq!(super::json_excerpt(&v), cut_whole(&v), "{v}");
        }
    }
}
