//! Provider dialects of a schema: what to send as a provider's structured-output or tool
//! schema. The full schema stays the one [`from_llm`](crate::LlmOutput::from_llm) recovers
//! against, so whatever a dialect cannot express (a map's value type in Gemini, a bound OpenAI
//! drops, which element of a tuple goes where) is still enforced after parsing.
//!
//! Every dialect drops llmout's vendor keywords (`x-aliases`, `x-no-invent`) and `$schema`.
//! Errors are [`ErrorKind::InvalidSchema`] with the JSON pointer (into the input schema) of
//! what cannot be expressed, raised before anything is sent.
//!
//! Where a dialect removes a keyword that bounds the value (`format`, `default`, `examples`,
//! `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems`, `contains`,
//! `minContains`, `maxContains`, `minProperties`, `maxProperties`, `propertyNames`,
//! `patternProperties`, `dependentRequired`, `deprecated`, `readOnly`, `writeOnly`), it writes
//! it into the node's `description` instead: `key: value` for each, in the node's order,
//! joined by `, `, the value as compact JSON (a `format` as its bare name), after the
//! node's own description in parentheses (`"The code. (minLength: 1, maxLength: 20)"`). The
//! model is still told the bound, and recovery still checks it. Other keywords it removes say
//! nothing to the model (`$comment`, `discriminator`) or are said another way (inlined
//! definitions, a map's pairs).
//!
//! A tuple (`prefixItems`, or draft 7's `items` as an array: what schemars derives for
//! tuples and tuple variants, pydantic for `tuple[...]`) has no form in the dialects that need
//! typed `items` (`openai-strict`, `gemini`): it becomes one `items` schema, the elements'
//! schema if they are all the same, else `{"anyOf": [...]}` of the elements' schemas in
//! order with `"a tuple: item i follows items.anyOf[i]"` in the `description` (as pydantic-ai
//! writes a tuple for Gemini, `profiles/google.py`, `_widen_tuple`). `minItems` and `maxItems`
//! stay. What is lost is the order: the provider lets any element take any of the types, and
//! recovery refuses a reply whose elements do not fit their places. Items after the tuple's
//! (`items` beside `prefixItems`, `additionalItems` beside an `items` array) are the last
//! branch; if nothing bounds them (no such schema, and no `maxItems` at most the tuple's
//! length or `false`), they are items of any value, an error.
//!
//! Draft 7's `definitions` are treated as `$defs` in every dialect (the notes below say
//! how): no output holds a `$ref` into definitions it does not hold.
//!
//! # `openai-strict`: OpenAI Structured Outputs with `strict: true`
//!
//! | rule | transform |
//! |---|---|
//! | the root is an object, not `anyOf` | error otherwise |
//! | every property is in `required` | optional properties are made nullable (`["T", "null"]`, or `anyOf` with `{"type": "null"}`) and listed |
//! | `additionalProperties: false` on every object | set; a map (`additionalProperties` with a schema and no properties) is an error |
//! | no `oneOf`, `allOf`, `not`, `if`/`then`/`else`, `dependent*` | `oneOf` becomes `anyOf`, a one-element `allOf` is merged, the rest are errors |
//! | `format` only `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`; no `default` | other formats and `default` are written into `description` |
//! | no `minLength`/`maxLength`, `minProperties`/`maxProperties`, `patternProperties`, `propertyNames`, `uniqueItems`, `examples`, `deprecated`, `readOnly`, `writeOnly` | removed, and written into `description`. That OpenAI now enforces `minLength`/`maxLength` rests on third-party reports (pydantic/pydantic-ai#7400 and #4490), not on a page llmout could check, so they are described rather than sent |
//! | every array has typed `items` (a tuple's `prefixItems` alone does not count) | a tuple becomes `items` of its elements (above), which the guide allows: `anyOf` is supported anywhere but at the root |
//! | "any value" (`{}`, `true`) cannot be expressed | error, also for array items (`items: {}`, `items: true`, an array without `items`) |
//! | limits: 5 000 properties in all, 10 levels of object nesting, 1 000 enum values, 120 000 characters of names, enum values and consts, 15 000 characters in one string enum of more than 250 values | checked (in `definitions` as in `$defs`); error naming the limit |
//! | no keyword beside `$ref` (the SDK inlines such a reference) | a `$ref` with siblings is inlined, its own keywords kept over the definition's; a recursive one becomes `{"anyOf": [{"$ref": …}], …}` |
//! | a map cannot be expressed (`additionalProperties` must be `false`) | written as an array of `{"key", "value"}` objects, which recovery reads back into the map; the key is `{"type": "string"}` with what `propertyNames` says; a map of any value is the "any value" error at its `additionalProperties` |
//! | `definitions` (draft 7) | kept as `$defs` are, with the `$ref`s into them (the SDK's `to_strict_json_schema` walks both) |
//!
//! The rules are OpenAI's, from the Structured Outputs guide, section "Supported schemas"
//! (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>): supported
//! types and `anyOf` not at the root, "All fields must be required", "additionalProperties:
//! false must always be set in objects", the supported `format`s and keywords, the limits on
//! nesting, size, total string length and enums; and from the OpenAI Python SDK's
//! `to_strict_json_schema` (`openai/lib/_pydantic.py`), which inlines a `$ref` that has
//! siblings. That an array needs typed `items` is from pydantic-ai
//! (`profiles/openai.py`, `_check_array_items`, after pydantic/pydantic-ai#4425). Each is
//! checked on derived and runtime schemas by `tests/dialects.rs`.
//!
//! # `anthropic`: a tool's `input_schema`
//!
//! Full JSON Schema; the root must be an object (error otherwise). Anthropic's "Define tools"
//! page (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools>) gives
//! `input_schema` as a JSON Schema object for the tool's parameters, `"type": "object"` at its
//! root. (Its `strict: true` mode takes a narrower subset, listed under "JSON Schema
//! limitations" in the structured-outputs guide; this dialect is for tools without it.)
//!
//! # `gemini`: `responseSchema` (an OpenAPI 3.0 subset)
//!
//! | rule | transform |
//! |---|---|
//! | no `$ref`/`$defs` | references are inlined (into `definitions` as into `$defs`), errors inside them named at the reference; a recursive type is an error at the reference |
//! | no type arrays, no `null` type | `["T", "null"]` and `anyOf` with a null branch become `nullable: true` |
//! | no `additionalProperties` | a map is written as an array of `{"key", "value"}` objects (as for OpenAI, the key a string), which recovery reads back into the map; elsewhere removed |
//! | an `OBJECT` has non-empty `properties` ("properties: should be non-empty for OBJECT type") | an object without properties (an empty struct, `{"type": "object"}`) is an error; a map of any value is the "any value" error at its `additionalProperties` |
//! | an `ARRAY` has `items` ("items: missing field") | a tuple becomes `items` of its elements (above); an array without `items`, `items: {}` and `items: true` are the "any value" error |
//! | "any value" (`{}`, `true`) cannot be expressed | error |
//! | `enum` of strings only; no `const` | a string `const` becomes a one-value `enum`; other values are an error |
//! | no `oneOf`/`allOf` | `oneOf` becomes `anyOf`, a one-element `allOf` is merged, else an error |
//! | keywords: `type`, `format`, `title`, `description`, `nullable`, `enum`, `items`, `properties`, `required`, `anyOf`, `minItems`, `maxItems`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `default`, `propertyOrdering`; `format` only `enum`, `date-time`, `float`, `double`, `int32`, `int64` | anything else is removed, a bound written into `description` (above) |
//! | properties are generated in alphabetical order unless `propertyOrdering` says otherwise | `propertyOrdering` is set to the schema's order |
//! | the schema counts against the input tokens, and large ones are refused ("too many states") | a schema over 1 000 000 bytes with its references inlined is an error, found before inlining |
//!
//! The keywords and their types are those of the `Schema` object of the Gemini API reference
//! (<https://ai.google.dev/api/caching#Schema>, "a select subset of an OpenAPI 3.0 schema
//! object": `type` is one type name, `enum` holds strings, `nullable` says `null`, no `$ref`),
//! and `propertyOrdering` is from the structured-output guide
//! (<https://ai.google.dev/gemini-api/docs/structured-output>); `tests/dialects.rs` checks
//! each on derived types. The API's answers quoted for `OBJECT` and `ARRAY` are from
//! browser-use/browser-use#3786 and AstrBotDevs/AstrBot#6029; google-genai and pydantic-ai
//! write an object without properties as it is, so no reference has a form that keeps it.
//!
//! Inlining copies a definition at every use, so a schema whose definitions each use the next
//! twice doubles per level (20 levels of 1 KB make 100 MB). Google publishes no size limit for
//! `responseSchema`; what it documents is that the schema counts against the model's input
//! (1 048 576 tokens on current models, about 4 characters each), and in practice it refuses
//! schemas far smaller with "too many states for serving". llmout refuses at 1 000 000 bytes of
//! compact JSON (about 250 000 tokens, a quarter of the input window): no schema that size is
//! served, and the check, made on the input with each definition's size computed once, costs
//! time linear in the schema instead of the output's. `gemini-json` keeps `$ref`s and has no
//! such growth.
//!
//! # `gemini-json`: `responseJsonSchema`
//!
//! The keywords Gemini's structured-output guide lists as supported for `responseJsonSchema`
//! (<https://ai.google.dev/gemini-api/docs/structured-output>):
//!
//! JSON Schema, with only `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`,
//! `description`, `enum`, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`,
//! `anyOf`, `oneOf`, `properties`, `additionalProperties`, `required` and `propertyOrdering`:
//! anything else is removed (a bound written into `description`, above: `pattern`,
//! `minLength`, `maxLength`, `multipleOf`, `uniqueItems`, `default`…), `const` becomes a
//! one-value `enum`, and `oneOf` becomes `anyOf`. Draft 7's forms are written in these
//! keywords: `definitions` as `$defs` (merged with the node's own; a name in both is an error
//! at the `definitions` one), each `$ref` through them rewritten to match, and a tuple's
//! `items` array and `additionalItems` as `prefixItems` and `items`. A node with `$ref` keeps
//! only `$`-keywords and `description`: "If a schema node contains a ref, it cannot contain
//! any other fields except for description and default" (reported in su-kaka/gcli2api#374;
//! `default` is not in the guide's list, so it is described).

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde_json::{json, Map, Value};

use crate::{Error, ErrorKind};

/// Deepest schema nesting the transforms walk; deeper is an error.
const MAX_DEPTH: usize = 64;

/// A provider's schema dialect. Parses from and displays as its CLI name.
///
/// ```
/// use llmout::schema::dialect::Dialect;
/// let d: Dialect = "openai-strict".parse().unwrap();
/// assert_eq!(d, Dialect::OpenAiStrict);
/// assert_eq!(d.to_string(), "openai-strict");
/// assert!("openai".parse::<Dialect>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Structured Outputs, `strict: true` (`openai-strict`).
    OpenAiStrict,
    /// An Anthropic tool's `input_schema` (`anthropic`).
    Anthropic,
    /// Gemini `responseSchema`, the OpenAPI subset (`gemini`).
    Gemini,
    /// Gemini `responseJsonSchema` (`gemini-json`).
    GeminiJson,
}

impl Dialect {
    /// Every dialect, in CLI order.
    pub const ALL: [Dialect; 4] = [
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::GeminiJson,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::GeminiJson => "gemini-json",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                format!("unknown dialect {s:?}: expected openai-strict, anthropic, gemini or gemini-json")
            })
    }
}

/// The schema in `dialect`, or an error naming what it cannot express and where. A schema that
/// is not a schema (see [`validate`](super::validate)) is an error in every dialect.
///
/// ```
/// use llmout::schema::dialect::{to_dialect, Dialect};
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
///     "required": ["a"],
///     "x-no-invent": ["a"]
/// });
/// assert_eq!(
///     to_dialect(&schema, Dialect::OpenAiStrict).unwrap(),
///     json!({
///         "type": "object",
///         "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}},
///         "required": ["a", "b"],
///         "additionalProperties": false
///     })
/// );
/// ```
pub fn to_dialect(schema: &Value, dialect: Dialect) -> Result<Value, Error> {
    convert(schema, dialect, false).map(|(out, _)| out)
}

/// [`to_dialect`]'s schema as compact JSON text (`to_dialect(schema, dialect)?.to_string()`),
/// for a large schema: the root's definitions (`$defs`, `definitions`) are converted and
/// written one at a time, so the rewritten schema is never held whole as a [`Value`] beside
/// the input (a schema of 20 000 definitions took twice its `Value` through `to_dialect`).
/// The same errors, decided before anything is written.
///
/// ```
/// use llmout::schema::dialect::{to_dialect, to_dialect_json, Dialect};
/// use serde_json::json;
/// let schema = json!({
///     "$ref": "#/$defs/A",
///     "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
///               "B": {"type": "string", "x-aliases": {}}}
/// });
/// for d in Dialect::ALL {
///     assert_eq!(
///         to_dialect_json(&schema, d).map_err(|e| e.to_string()),
///         to_dialect(&schema, d).map(|v| v.to_string()).map_err(|e| e.to_string())
///     );
/// }
/// ```
pub fn to_dialect_json(schema: &Value, dialect: Dialect) -> Result<String, Error> {
    let (out, text) = convert(schema, dialect, true)?;
    Ok(text.unwrap_or_default().write(&out))
}

/// The walk of [`to_dialect`] and [`to_dialect_json`]: the schema in `dialect`, with the root's
/// definitions held as text (in place of `null` in the value) when `text` is set.
fn convert(
    schema: &Value,
    dialect: Dialect,
    text: bool,
) -> Result<(Value, Option<Deferred>), Error> {
    super::validate(schema)?;
    let mut walk = Walk::new(schema, dialect, text);
    if matches!(dialect, Dialect::OpenAiStrict | Dialect::Anthropic) {
        if let Some((target, pointer)) = root_reference(schema) {
            let out = object_behind_root_ref(&mut walk, target, &pointer)?;
            return walk.finish(out);
        }
    }
    let root_object = is_object_schema(schema);
    let out = match dialect {
        Dialect::OpenAiStrict | Dialect::Anthropic if !root_object => {
            let expected = match dialect {
                Dialect::OpenAiStrict => "an object at the root (OpenAI strict mode)",
                _ => "an object at the root (Anthropic tool input)",
            };
            return Err(invalid(&At::Root, expected, schema));
        }
        Dialect::Gemini => {
            gemini_size(schema)?;
            walk.node(schema, &At::Root, 0)?
        }
        _ => walk.node(schema, &At::Root, 0)?,
    };
    walk.finish(out)
}

/// The object schema a root `{"$ref": …}` stands for, and its pointer (following references
/// from one to the next; [`validate`](super::validate) has ruled out loops).
fn root_reference(schema: &Value) -> Option<(&Value, String)> {
    let mut at = schema;
    let mut pointer = String::new();
    for _ in 0..=super::valid::MAX_NESTING {
        match at.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                at = super::valid::resolve(schema, r)?;
                pointer = super::valid::percent_decode(r.strip_prefix('#').unwrap_or_default());
            }
            None if pointer.is_empty() || !is_object_schema(at) => return None,
            None => return Some((at, pointer)),
        }
    }
    None
}

/// A root `$ref` to an object, for the dialects whose root must be an object: the object in
/// place at the root (its errors at its own pointer), beside the root's other keywords
/// (`$defs`, so references inside still resolve). Those keywords are walked as a copy of the
/// root without its `$ref`, in which the definitions are empty: the walk takes them from the
/// root ([`Walk::holder`]), so they are not held twice.
fn object_behind_root_ref(
    walk: &mut Walk<'_>,
    target: &Value,
    pointer: &str,
) -> Result<Value, Error> {
    let mut out = walk.node(target, &At::Text(pointer), 0)?;
    let mut rest = walk
        .root
        .as_object()
        .map(without_definitions)
        .unwrap_or_default();
    // (`remove` is `swap_remove`: the last keyword takes the place of `$ref`.)
    rest.remove("$ref");
    if rest.is_empty() {
        return Ok(out);
    }
    let rest = Value::Object(rest);
    walk.holder = super::valid::addr(&rest);
    let walked = walk.node(&rest, &At::Root, 0).map_err(|e| {
        // What the walk found in the copy, it found in the root without its `$ref`.
        if e.path().matches('/').count() > 1 || e.found() != super::valid::json_excerpt(&rest) {
            return e;
        }
        let found = super::valid::json_excerpt(&WithDefinitions(&rest, walk.root));
        Error::new(e.kind(), e.path(), e.expected(), found)
    })?;
    if let (Value::Object(out), Value::Object(rest)) = (&mut out, walked) {
        for (k, v) in rest {
            out.entry(k).or_insert(v);
        }
    }
    Ok(out)
}

/// A copy of an object, its definitions (`$defs` and `definitions` objects) left empty.
fn without_definitions(m: &Map<String, Value>) -> Map<String, Value> {
    m.iter()
        .map(|(k, v)| match (k.as_str(), v) {
            ("$defs" | "definitions", Value::Object(_)) => (k.clone(), Value::Object(Map::new())),
            _ => (k.clone(), v.clone()),
        })
        .collect()
}

/// A copy made by [`without_definitions`], serialized with the definitions of `root` in it.
struct WithDefinitions<'a>(&'a Value, &'a Value);

impl serde::Serialize for WithDefinitions<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let Value::Object(copy) = self.0 else {
            return self.0.serialize(s);
        };
        let mut map = s.serialize_map(Some(copy.len()))?;
        for (k, v) in copy {
            match self
                .1
                .get(k)
                .filter(|_| matches!(k.as_str(), "$defs" | "definitions"))
            {
                Some(defs) => map.serialize_entry(k, defs)?,
                None => map.serialize_entry(k, v)?,
            }
        }
        map.end()
    }
}

/// The root's definitions as [`to_dialect_json`] holds them while the rest is walked: each
/// one's compact text, under its name, in order.
#[derive(Default)]
struct Deferred {
    /// For each of the root's `$defs` and `definitions`: its definitions.
    maps: Vec<(String, Vec<(String, Def)>)>,
    /// OpenAI's limits, counted on the `$defs` and on the `definitions` held as text.
    counts: [Count; 2],
    /// The count is over a limit: the result is an error, and no more text is written.
    over: bool,
}

/// A definition held by [`Deferred`].
enum Def {
    Text(Box<str>),
    /// For OpenAI, a `$ref` with siblings: the root's walk inlines it at its end
    /// ([`Walk::refs_without_siblings`]), in order with the rest.
    Tree(Value),
}

impl Deferred {
    /// Holds `out`, the definition `name` of the root's `key`, as text: counted for OpenAI's
    /// limits first.
    fn text(&mut self, dialect: Dialect, key: &str, name: &str, out: &Value) -> Def {
        if dialect == Dialect::OpenAiStrict {
            let count = &mut self.counts[Deferred::slot(key)];
            count.definition(name, out);
            self.over = self.over || count.check().is_err();
        }
        // Boxed: a `String` written piece by piece has up to twice its length reserved.
        Def::Text(if self.over {
            Box::default()
        } else {
            out.to_string().into_boxed_str()
        })
    }

    /// Where in [`counts`](Self::counts) the definitions under `key` are counted.
    fn slot(key: &str) -> usize {
        usize::from(key == "definitions")
    }

    /// `out` as compact JSON, each root keyword `null` in it that holds definitions written
    /// as their texts (those held under that keyword, one after the other: gemini-json holds
    /// `$defs` and `definitions` both under `$defs`).
    fn write(self, out: &Value) -> String {
        let Value::Object(root) = out else {
            return out.to_string();
        };
        let mut maps = self.maps;
        let held: usize = maps
            .iter()
            .flat_map(|(_, defs)| defs)
            .map(|(name, def)| match def {
                Def::Text(t) => name.len() + t.len() + 4,
                Def::Tree(_) => 0,
            })
            .sum();
        let mut w = Vec::with_capacity(held + 256);
        w.push(b'{');
        for (i, (k, v)) in root.iter().enumerate() {
            if i > 0 {
                w.push(b',');
            }
            let _ = serde_json::to_writer(&mut w, k);
            w.push(b':');
            if !v.is_null() || !maps.iter().any(|(key, _)| key == k) {
                let _ = serde_json::to_writer(&mut w, v);
                continue;
            }
            let defs: Vec<_> = maps
                .iter_mut()
                .filter(|(key, _)| key == k)
                .flat_map(|(_, defs)| std::mem::take(defs))
                .collect();
            w.push(b'{');
            for (j, (name, def)) in defs.into_iter().enumerate() {
                if j > 0 {
                    w.push(b',');
                }
                let _ = serde_json::to_writer(&mut w, &name);
                w.push(b':');
                match def {
                    Def::Text(t) => w.extend_from_slice(t.as_bytes()),
                    Def::Tree(t) => {
                        let _ = serde_json::to_writer(&mut w, &t);
                    }
                }
            }
            w.push(b'}');
        }
        w.push(b'}');
        // serde_json writes UTF-8.
        String::from_utf8(w).unwrap_or_default()
    }
}

/// The most compact JSON a `gemini` schema may take once its references are inlined.
const GEMINI_MAX_BYTES: usize = 1_000_000;

/// Refuses a schema whose references, inlined, make more than [`GEMINI_MAX_BYTES`]: the size of
/// the input with every `$ref` replaced by its target (definitions themselves are dropped),
/// each target's size computed once.
fn gemini_size(schema: &Value) -> Result<(), Error> {
    struct Sizer<'a> {
        root: &'a Value,
        known: HashMap<String, usize>,
        open: Vec<String>,
        /// The `$ref` whose expansion made the size largest, for the message.
        worst: Option<(usize, String)>,
    }
    impl Sizer<'_> {
        fn size(&mut self, v: &Value, path: &At<'_>, depth: usize) -> usize {
            if depth > MAX_DEPTH {
                return 0; // the walk reports the depth
            }
            match v {
                Value::Object(m) => {
                    let mut n = 2usize;
                    for (k, x) in m {
                        if matches!(k.as_str(), "$defs" | "definitions") {
                            continue;
                        }
                        let here = push(path, k);
                        let inner = match (k.as_str(), x) {
                            ("$ref", Value::String(r)) => self.reference(r, &here, depth),
                            // and `propertyOrdering`, which lists the names again
                            ("properties", Value::Object(p)) => p
                                .keys()
                                .fold(22, |n, k| n + k.len() + 3)
                                .saturating_add(self.size(x, &here, depth + 1)),
                            _ => self.size(x, &here, depth + 1),
                        };
                        n = n.saturating_add(k.len() + 4).saturating_add(inner);
                    }
                    n
                }
                Value::Array(items) => items.iter().enumerate().fold(2usize, |n, (i, x)| {
                    n.saturating_add(1 + self.size(x, &push(path, &i.to_string()), depth + 1))
                }),
                leaf => json_len(leaf),
            }
        }

        fn reference(&mut self, r: &str, at: &At<'_>, depth: usize) -> usize {
            if let Some(n) = self.known.get(r) {
                return *n;
            }
            // Recursion: the walk reports it.
            if self.open.iter().any(|o| o == r) {
                return 0;
            }
            let Some(target) = super::valid::resolve(self.root, r) else {
                return 0;
            };
            self.open.push(r.to_owned());
            let n = self.size(target, at, depth + 1);
            self.open.pop();
            self.known.insert(r.to_owned(), n);
            if self.worst.as_ref().is_none_or(|(w, _)| n > *w) {
                self.worst = Some((n, at.to_string()));
            }
            n
        }
    }
    let mut sizer = Sizer {
        root: schema,
        known: HashMap::new(),
        open: Vec::new(),
        worst: None,
    };
    let n = sizer.size(schema, &At::Root, 0);
    if n <= GEMINI_MAX_BYTES {
        return Ok(());
    }
    let at = sizer.worst.map(|(_, at)| at).unwrap_or_default();
    Err(Error::new(
        ErrorKind::InvalidSchema,
        "",
        format!(
            "a schema of at most {GEMINI_MAX_BYTES} bytes once its references are inlined \
             (gemini has no $ref; use gemini-json)"
        ),
        format!("about {n} bytes (the largest reference inlined: {at})"),
    ))
}

/// The length of `v` as compact JSON, without writing it.
fn json_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

fn is_object_schema(s: &Value) -> bool {
    s.get("type").and_then(Value::as_str) == Some("object")
        || (s.get("properties").is_some() && s.get("type").is_none())
}

fn invalid(path: &At<'_>, expected: &str, found: &Value) -> Error {
    Error::new(
        ErrorKind::InvalidSchema,
        path.to_string(),
        expected,
        super::valid::json_excerpt(found),
    )
}

/// The error for "any value" (`{}`, `true`, an array without `items`) where `dialect` needs a
/// type: `what` is what it needs there.
fn any_value(dialect: Dialect, path: &At<'_>, what: &str, found: &Value) -> Error {
    invalid(
        path,
        &format!("{what} ({dialect} cannot express \"any value\")"),
        found,
    )
}

/// `items` in the place of a tuple's `prefix_key` (`prefixItems` or `items`) in `out`, in
/// place of the tuple's keywords.
fn items_in_place(out: &mut Map<String, Value>, prefix_key: &str, items: Value) {
    let mut items = Some(items);
    *out = std::mem::take(out)
        .into_iter()
        .filter_map(|(k, v)| match k.as_str() {
            k if k == prefix_key => Some(("items".to_owned(), items.take()?)),
            "prefixItems" | "items" | "additionalItems" => None,
            _ => Some((k, v)),
        })
        .collect();
}

/// Refuses an array whose items have no type (no `items`, or `items: false`) in a typed
/// dialect: OpenAI and Gemini both refuse an array without typed `items`. (`items: {}` and
/// `items: true` are refused as they are walked; a tuple has its `items` by now.)
fn typed_items(
    dialect: Dialect,
    out: &Map<String, Value>,
    obj: &Map<String, Value>,
    path: &At<'_>,
    s: &Value,
) -> Result<(), Error> {
    let array = match obj.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
        _ => false,
    };
    match out.get("items") {
        Some(no @ Value::Bool(false)) => Err(invalid(
            &push(path, "items"),
            &format!("typed items ({dialect} cannot express an array that must be empty)"),
            no,
        )),
        None if array => Err(any_value(dialect, path, "an array with typed items", s)),
        _ => Ok(()),
    }
}

/// Refuses a node whose `$defs` and `definitions` (draft 7's) share a name, for gemini-json,
/// which writes both as `$defs`.
fn definitions_apart(obj: &Map<String, Value>, path: &At<'_>) -> Result<(), Error> {
    let (Some(Value::Object(defs)), Some(Value::Object(definitions))) =
        (obj.get("$defs"), obj.get("definitions"))
    else {
        return Ok(());
    };
    let Some((name, found)) = definitions.iter().find(|(k, _)| defs.contains_key(*k)) else {
        return Ok(());
    };
    let at = push(path, "definitions");
    Err(invalid(
        &push(&at, name),
        "a definition whose name is not also in $defs (gemini-json writes draft 7's \
         definitions as $defs)",
        found,
    ))
}

/// The pointer of `seg` below `path`, written out only for an error.
fn push<'a>(path: &'a At<'a>, seg: &'a str) -> At<'a> {
    At::Below(path, seg)
}

/// A JSON pointer as the walk goes down: each level refers to the one above it, and the text
/// is written only for an error. (Built as text at every node, a long property name was
/// copied into the path of each node below it: 6 s for a 4 MB schema.)
#[derive(Debug, Clone, Copy)]
enum At<'a> {
    Root,
    /// A pointer written out already.
    Text(&'a str),
    Below(&'a At<'a>, &'a str),
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The segments from the root down (iteratively: a path is as deep as the schema).
        let mut segs = Vec::new();
        let mut at = self;
        while let At::Below(up, seg) = at {
            segs.push(*seg);
            at = up;
        }
        let mut pointer = match at {
            At::Text(text) => (*text).to_owned(),
            _ => String::new(),
        };
        for seg in segs.iter().rev() {
            crate::recover::push_key(&mut pointer, seg);
        }
        f.write_str(&pointer)
    }
}

/// The keywords a dialect that removes them writes into `description` instead (as `key:
/// value`): each says something about the value the model should still be told. What else a
/// dialect removes says nothing to the model (`$comment`, `$id`, `discriminator`, `title`
/// beside a `$ref`) or is said another way (definitions are inlined, a map becomes pairs).
const DESCRIBED: [&str; 25] = [
    "format",
    "default",
    "examples",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "patternProperties",
    "dependentRequired",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Removes the keywords of `out` that `removed` picks, writing those in [`DESCRIBED`] into its
/// `description`: `key: value` each, in the node's order, joined by `, `, the value as compact
/// JSON as the input node `original` has it (a `format` as its bare name).
fn remove_described(
    out: &mut Map<String, Value>,
    original: &Map<String, Value>,
    removed: impl Fn(&str, &Value) -> bool,
) {
    let mut notes = Vec::new();
    out.retain(|k, v| {
        if !removed(k, v) {
            return true;
        }
        if DESCRIBED.contains(&k.as_str()) {
            notes.push(match (k.as_str(), original.get(k).unwrap_or(v)) {
                ("format", Value::String(f)) => format!("format: {f}"),
                (_, v) => format!("{k}: {v}"),
            });
        }
        false
    });
    if !notes.is_empty() {
        describe(out, notes.join(", "));
    }
}

/// Appends `text` to a node's description.
fn describe(node: &mut Map<String, Value>, text: String) {
    let d = match node.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} ({text})"),
        _ => text,
    };
    node.insert("description".into(), Value::String(d));
}

const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const OPENAI_DROPPED: [&str; 12] = [
    "default",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "uniqueItems",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];
const GEMINI_KEPT: [&str; 19] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "properties",
    "required",
    "anyOf",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "default",
    "propertyOrdering",
];
const GEMINI_JSON_KEPT: [&str; 21] = [
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

struct Walk<'a> {
    root: &'a Value,
    dialect: Dialect,
    /// `$ref`s being inlined (Gemini; OpenAI where a `$ref` has siblings), to find recursion.
    stack: Vec<String>,
    /// Nodes walked inside references inlined for OpenAI, bounded by [`MAX_INLINED_NODES`].
    inlined_nodes: usize,
    /// The next node walked is the root (OpenAI's must stay an object: no map there becomes
    /// an array).
    at_root: bool,
    /// The node (by address) whose `$defs` and `definitions` are the root's: the root, or the
    /// copy of it [`object_behind_root_ref`] walks, where they are left empty.
    holder: usize,
    /// With [`to_dialect_json`]: the root's definitions, held as text once walked.
    text: Option<Deferred>,
}

/// The most schema nodes that inlining `$ref`s with siblings may walk for OpenAI: inlining
/// copies a definition at every use, so definitions that each use the next twice double per
/// level. Far more than a schema within OpenAI's 5 000 properties inlines to, and a bound on
/// the walk's time.
const MAX_INLINED_NODES: usize = 100_000;

impl<'a> Walk<'a> {
    fn new(root: &'a Value, dialect: Dialect, text: bool) -> Self {
        // The root is being walked: a `"$ref": "#"` inside it is recursion.
        Walk {
            root,
            dialect,
            stack: vec!["#".to_owned()],
            inlined_nodes: 0,
            at_root: true,
            holder: super::valid::addr(root),
            text: text.then(Deferred::default),
        }
    }

    /// The walk's result `out` (the root's), once OpenAI's limits are checked on it and on
    /// the definitions held as text where `out` still holds them.
    fn finish(self, out: Value) -> Result<(Value, Option<Deferred>), Error> {
        if self.dialect == Dialect::OpenAiStrict {
            let mut count = Count::default();
            count.add(&out, 0);
            if let Some(text) = &self.text {
                for key in ["$defs", "definitions"] {
                    if out.get(key).is_some_and(Value::is_null) {
                        count.merge(&text.counts[Deferred::slot(key)]);
                    }
                }
            }
            count.check()?;
        }
        Ok((out, self.text))
    }

    /// The root's definitions under `key`, walked: held as text one by one for
    /// [`to_dialect_json`] (`null` stands for them in the walk's value).
    fn definitions(
        &mut self,
        key: &str,
        defs: &'a Map<String, Value>,
        path: &At<'_>,
        depth: usize,
    ) -> Result<Value, Error> {
        if self.text.is_none() {
            return self.schemas(defs, path, depth);
        }
        let mut held = Vec::with_capacity(defs.len());
        for (name, d) in defs {
            let out = self.node(d, &push(path, name), depth + 1)?;
            let sibling_ref = self.dialect == Dialect::OpenAiStrict
                && out.get("$ref").is_some_and(Value::is_string)
                && out.as_object().is_some_and(|m| m.len() > 1);
            let def = match &mut self.text {
                Some(text) if !sibling_ref => text.text(self.dialect, key, name, &out),
                _ => Def::Tree(out),
            };
            held.push((name.clone(), def));
        }
        if let Some(text) = &mut self.text {
            text.maps.push((key.to_owned(), held));
        }
        Ok(Value::Null)
    }

    fn node(&mut self, s: &Value, path: &At<'_>, depth: usize) -> Result<Value, Error> {
        if depth > MAX_DEPTH {
            return Err(invalid(path, "a schema nested at most 64 deep", s));
        }
        let at_root = std::mem::take(&mut self.at_root);
        if self.dialect == Dialect::OpenAiStrict && self.stack.len() > 1 {
            self.inlined_nodes += 1;
            if self.inlined_nodes > MAX_INLINED_NODES {
                return Err(Error::new(
                    ErrorKind::InvalidSchema,
                    path.to_string(),
                    format!(
                        "a schema of at most {MAX_INLINED_NODES} nodes once its references \
                         with sibling keywords are inlined (OpenAI strict mode takes no \
                         keyword beside $ref)"
                    ),
                    "more",
                ));
            }
        }
        // "Any value" (`true`, `{}`) has no form in the typed dialects.
        let any = s == &Value::Bool(true) || s.as_object().is_some_and(Map::is_empty);
        if any && self.typed() {
            return Err(any_value(self.dialect, path, "a typed schema", s));
        }
        let Value::Object(obj) = s else {
            return Ok(s.clone());
        };
        let mut out = Map::new();
        // allOf with one branch is that branch; more is not expressible in the strict dialects.
        let mut merged;
        let mut obj = obj;
        if let Some(Value::Array(all)) = obj.get("allOf") {
            if all.len() == 1 && all[0].is_object() {
                merged = obj.clone();
                merged.remove("allOf");
                if let Some(Value::Object(inner)) = all.first() {
                    for (k, v) in inner {
                        merged.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                obj = &merged;
            } else if self.dialect != Dialect::Anthropic {
                return Err(invalid(
                    &push(path, "allOf"),
                    &format!("no allOf of several schemas ({})", self.dialect),
                    s,
                ));
            }
        }
        if self.dialect == Dialect::Gemini {
            if let Some(Value::String(r)) = obj.get("$ref") {
                return self.inline(r, obj, path, depth);
            }
        }
        if self.dialect == Dialect::GeminiJson {
            definitions_apart(obj, path)?;
        }
        // (OpenAI's root must be an object: a map there stays the error it is.)
        let pairs = match self.dialect {
            Dialect::OpenAiStrict => !at_root,
            Dialect::Gemini => true,
            _ => false,
        };
        if pairs {
            if let Some(pairs) = self.map_as_pairs(obj, path, depth)? {
                return Ok(pairs);
            }
        }
        let holder = super::valid::addr(s) == self.holder;
        let root = self.root;
        for (k, v) in obj {
            if k.starts_with("x-") || k == "$schema" {
                continue;
            }
            // Gemini drops the definitions (they are inlined where used): not walked.
            if self.dialect == Dialect::Gemini && matches!(k.as_str(), "$defs" | "definitions") {
                continue;
            }
            let here = push(path, k);
            let v = match k.as_str() {
                "$defs" | "definitions" if holder => match root.get(k) {
                    Some(Value::Object(defs)) => self.definitions(k, defs, &here, depth)?,
                    _ => self.schemas_or_clone(v, &here, depth)?,
                },
                "properties" | "$defs" | "definitions" | "patternProperties" => {
                    self.schemas_or_clone(v, &here, depth)?
                }
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "not"
                | "contains"
                | "propertyNames"
                    if v.is_object() =>
                {
                    self.node(v, &here, depth + 1)?
                }
                // Items of any value: refused in the typed dialects, as anywhere else.
                "items" | "additionalItems" if v == &Value::Bool(true) => {
                    self.node(v, &here, depth + 1)?
                }
                // (`items` as an array: draft 7's tuples.)
                "anyOf" | "oneOf" | "allOf" | "prefixItems" | "items" => match v {
                    Value::Array(branches) => Value::Array(
                        branches
                            .iter()
                            .enumerate()
                            .map(|(i, b)| self.node(b, &push(&here, &i.to_string()), depth + 1))
                            .collect::<Result<_, _>>()?,
                    ),
                    other => other.clone(),
                },
                _ => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        if self.typed() {
            self.tuple(&mut out, obj, path, s, depth)?;
            typed_items(self.dialect, &out, obj, path, s)?;
        }
        match self.dialect {
            Dialect::OpenAiStrict => {
                let out = openai(out, obj, path, s)?;
                self.refs_without_siblings(out, depth, holder)
            }
            Dialect::Anthropic => Ok(Value::Object(out)),
            Dialect::Gemini => gemini(out, obj, path, s),
            Dialect::GeminiJson => {
                if holder {
                    if let Some(text) = &mut self.text {
                        for (key, _) in &mut text.maps {
                            if key == "definitions" {
                                "$defs".clone_into(key);
                            }
                        }
                    }
                }
                Ok(gemini_json(out, obj, self.root))
            }
        }
    }

    /// Whether the dialect needs a type for every value (no "any value", no untyped array
    /// items): OpenAI strict mode and Gemini's `responseSchema`.
    fn typed(&self) -> bool {
        matches!(self.dialect, Dialect::OpenAiStrict | Dialect::Gemini)
    }

    /// A tuple (`prefixItems`, or draft 7's `items` as an array, its elements walked) for the
    /// typed dialects, which have neither: one `items` schema, the elements' schema if they
    /// are all the same, else an `anyOf` of the elements' schemas in order, noted in the
    /// `description` (which element goes where is then not enforced by the provider; recovery
    /// checks it). The items after the tuple's (`items` beside `prefixItems`,
    /// `additionalItems` beside an `items` array) are the last branch; where `maxItems` or a
    /// `false` leaves no room for them they are none, and items of any value there are an
    /// error. `minItems` and `maxItems` stay as they are.
    fn tuple(
        &mut self,
        out: &mut Map<String, Value>,
        obj: &Map<String, Value>,
        path: &At<'_>,
        s: &Value,
        depth: usize,
    ) -> Result<(), Error> {
        let (prefix_key, rest_key) = match (out.get("prefixItems"), out.get("items")) {
            (Some(Value::Array(_)), _) => ("prefixItems", "items"),
            (_, Some(Value::Array(_))) => ("items", "additionalItems"),
            _ => return Ok(()),
        };
        let Some(Value::Array(mut elements)) = out.get(prefix_key).cloned() else {
            return Ok(());
        };
        let rest = out.get(rest_key).cloned();
        let n = elements.len();
        let closed = obj.get(rest_key) == Some(&Value::Bool(false))
            || obj
                .get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|max| max <= n as u64);
        if !closed {
            // (`{}` and `true` were refused as they were walked.)
            let Some(rest @ Value::Object(_)) = rest else {
                let what = format!("a typed {rest_key} or maxItems: {n} beside {prefix_key}");
                return Err(match obj.get(rest_key) {
                    Some(found) => any_value(self.dialect, &push(path, rest_key), &what, found),
                    None => any_value(self.dialect, path, &what, s),
                });
            };
            elements.push(rest);
        }
        let Some(first) = elements.first().cloned() else {
            return Err(any_value(
                self.dialect,
                path,
                "an array with typed items",
                s,
            ));
        };
        if elements.iter().all(|e| e == &first) {
            items_in_place(out, prefix_key, first);
            return Ok(());
        }
        let count = elements.len();
        let mut union = Map::new();
        let union = match self.dialect {
            Dialect::OpenAiStrict => {
                let branches = elements
                    .into_iter()
                    .map(|e| self.ref_without_siblings(e, depth + 1))
                    .collect::<Result<_, _>>()?;
                union.insert("anyOf".into(), Value::Array(branches));
                Value::Object(union)
            }
            _ => {
                union.insert("anyOf".into(), Value::Array(elements));
                gemini(union, &Map::new(), path, s)?
            }
        };
        // (Gemini merges null branches into `nullable`: the branches are then not the items.)
        if union["anyOf"].as_array().is_some_and(|b| b.len() == count) {
            let note = if closed {
                "a tuple: item i follows items.anyOf[i]".to_owned()
            } else {
                format!(
                    "a tuple: item i follows items.anyOf[i], and the items after the first {n} \
                     follow the last"
                )
            };
            describe(out, note);
        }
        items_in_place(out, prefix_key, union);
        Ok(())
    }

    /// An object of schemas (`properties`, `$defs`…), each walked; anything else as it is.
    fn schemas_or_clone(&mut self, v: &Value, path: &At<'_>, depth: usize) -> Result<Value, Error> {
        match v {
            Value::Object(schemas) => self.schemas(schemas, path, depth),
            other => Ok(other.clone()),
        }
    }

    fn schemas(
        &mut self,
        schemas: &Map<String, Value>,
        path: &At<'_>,
        depth: usize,
    ) -> Result<Value, Error> {
        let mut m = Map::new();
        for (name, p) in schemas {
            m.insert(name.clone(), self.node(p, &push(path, name), depth + 1)?);
        }
        Ok(Value::Object(m))
    }

    /// A map (`additionalProperties` with a schema, no properties) as an array of
    /// `{"key", "value"}` objects, for the dialects that cannot say what a map's values are:
    /// OpenAI strict mode wants `additionalProperties: false` on every object, and Gemini's
    /// `responseSchema` has no `additionalProperties`. Recovery reads such an array back into
    /// the map (`recover`'s pairs rule), so a reply that follows this schema deserializes into
    /// the `HashMap`. `propertyNames`, if any, is the key's schema; `minProperties` and
    /// `maxProperties` become `minItems` and `maxItems`. `None` when `obj` is not a map.
    fn map_as_pairs(
        &mut self,
        obj: &Map<String, Value>,
        path: &At<'_>,
        depth: usize,
    ) -> Result<Option<Value>, Error> {
        // (`true`: a map of any value, refused as "any value" is, where the value's schema is.)
        let Some(values @ (Value::Object(_) | Value::Bool(true))) = obj.get("additionalProperties")
        else {
            return Ok(None);
        };
        // Definitions beside the map would be lost with its keywords (and Gemini inlines them).
        if self.dialect == Dialect::OpenAiStrict
            && (obj.contains_key("$defs") || obj.contains_key("definitions"))
        {
            return Ok(None);
        }
        let named = obj
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        let array_type = match obj.get("type") {
            None => Value::from("array"),
            Some(Value::String(t)) if t == "object" => Value::from("array"),
            Some(Value::Array(types)) if types.iter().any(|t| t == "object") => Value::Array(
                types
                    .iter()
                    .map(|t| {
                        if t == "object" {
                            json!("array")
                        } else {
                            t.clone()
                        }
                    })
                    .collect(),
            ),
            Some(_) => return Ok(None),
        };
        if named {
            return Ok(None);
        }
        let mut value = self.node(values, &push(path, "additionalProperties"), depth + 1)?;
        let mut key = match obj.get("propertyNames") {
            Some(names @ Value::Object(m)) if !m.is_empty() => {
                self.node(names, &push(path, "propertyNames"), depth + 1)?
            }
            _ => json!({"type": "string"}),
        };
        if self.dialect == Dialect::OpenAiStrict {
            value = self.ref_without_siblings(value, depth)?;
            key = self.ref_without_siblings(key, depth)?;
        }
        // A key is a string, which `propertyNames` seldom says (`{"pattern": …}`).
        if let Value::Object(k) = &mut key {
            if !["type", "$ref", "anyOf"].iter().any(|t| k.contains_key(*t)) {
                let mut typed = Map::new();
                typed.insert("type".into(), json!("string"));
                typed.append(k);
                *k = typed;
            }
        }
        let mut pair = json!({
            "type": "object",
            "properties": {"key": key, "value": value},
            "required": ["key", "value"]
        });
        match self.dialect {
            Dialect::OpenAiStrict => pair["additionalProperties"] = Value::Bool(false),
            _ => pair["propertyOrdering"] = json!(["key", "value"]),
        }
        let mut array = Map::new();
        array.insert("type".into(), array_type);
        for (k, v) in obj {
            let k = match k.as_str() {
                "description" | "title" => k.as_str(),
                "minProperties" => "minItems",
                "maxProperties" => "maxItems",
                _ => continue,
            };
            array.insert(k.into(), v.clone());
        }
        describe(
            &mut array,
            "a map: one {\"key\", \"value\"} object per entry".to_owned(),
        );
        array.insert("items".into(), pair);
        let s = Value::Object(obj.clone());
        match self.dialect {
            Dialect::OpenAiStrict => openai(array.clone(), &array, path, &s).map(Some),
            _ => gemini(array.clone(), &array, path, &s).map(Some),
        }
    }

    /// [`ref_without_siblings`](Self::ref_without_siblings) on every schema directly under
    /// `out`, once `openai` has made optional properties nullable (which moves a `$ref`'s
    /// siblings out of it: `{"anyOf": [{"$ref": …}, {"type": "null"}], "description": …}`, so
    /// only what is left needs inlining).
    /// At the root (`holder`), the definitions held as text are those in question.
    fn refs_without_siblings(
        &mut self,
        out: Value,
        depth: usize,
        holder: bool,
    ) -> Result<Value, Error> {
        let Value::Object(mut m) = out else {
            return Ok(out);
        };
        for (k, v) in m.iter_mut() {
            match (k.as_str(), v) {
                ("$defs" | "definitions", Value::Null) if holder && self.text.is_some() => {
                    self.held_refs_without_siblings(k, depth)?;
                }
                ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                    for child in children.values_mut() {
                        *child = self.ref_without_siblings(std::mem::take(child), depth + 1)?;
                    }
                }
                ("anyOf" | "prefixItems", Value::Array(children)) => {
                    for child in children.iter_mut() {
                        *child = self.ref_without_siblings(std::mem::take(child), depth + 1)?;
                    }
                }
                ("items" | "additionalProperties", child @ Value::Object(_)) => {
                    *child = self.ref_without_siblings(std::mem::take(child), depth + 1)?;
                }
                _ => {}
            }
        }
        Ok(Value::Object(m))
    }

    /// [`ref_without_siblings`](Self::ref_without_siblings) on the root's definitions held
    /// under `key` as trees, which are then held as text.
    fn held_refs_without_siblings(&mut self, key: &str, depth: usize) -> Result<(), Error> {
        let Some(text) = &mut self.text else {
            return Ok(());
        };
        let Some((_, defs)) = text.maps.iter_mut().find(|(k, _)| k == key) else {
            return Ok(());
        };
        let mut defs = std::mem::take(defs);
        for (name, def) in &mut defs {
            if let Def::Tree(tree) = def {
                let out = self.ref_without_siblings(std::mem::take(tree), depth + 1)?;
                if let Some(text) = &mut self.text {
                    *def = text.text(self.dialect, key, name, &out);
                }
            }
        }
        if let Some((_, held)) = self
            .text
            .as_mut()
            .and_then(|t| t.maps.iter_mut().find(|(k, _)| k == key))
        {
            *held = defs;
        }
        Ok(())
    }

    /// A `$ref` with sibling keywords (`{"$ref": …, "description": …}`, which schemars writes
    /// for a documented field of a named type): OpenAI strict mode does not take keywords
    /// beside `$ref`, and its own SDK inlines such a reference (`openai-python`,
    /// `lib/_pydantic.py`: "we can't use `$ref`s if there are also other properties
    /// defined"), the node's keywords taking priority over the definition's. So does this. A
    /// reference back into a definition being inlined (recursion) cannot be inlined: it
    /// becomes a one-branch `anyOf` holding the bare `$ref`, which keeps the siblings.
    fn ref_without_siblings(&mut self, out: Value, depth: usize) -> Result<Value, Error> {
        let Value::Object(mut m) = out else {
            return Ok(out);
        };
        let Some(Value::String(r)) = m.get("$ref").cloned() else {
            return Ok(Value::Object(m));
        };
        if m.len() == 1 {
            return Ok(Value::Object(m));
        }
        m.remove("$ref");
        let target = super::valid::resolve(self.root, &r);
        let Some(target) = target.filter(|_| !self.stack.contains(&r)) else {
            m.insert("anyOf".into(), json!([{"$ref": r}]));
            return Ok(Value::Object(m));
        };
        let pointer = super::valid::percent_decode(r.strip_prefix('#').unwrap_or_default());
        self.stack.push(r);
        let inlined = self.node(target, &At::Text(&pointer), depth + 1);
        self.stack.pop();
        match inlined? {
            Value::Object(mut t) => {
                t.extend(m);
                Ok(Value::Object(t))
            }
            other => Ok(other),
        }
    }

    /// Gemini has no references: the definition goes in place, unless it is on the way already.
    fn inline(
        &mut self,
        r: &str,
        node: &Map<String, Value>,
        path: &At<'_>,
        depth: usize,
    ) -> Result<Value, Error> {
        if self.stack.iter().any(|x| x == r) {
            return Err(invalid(&push(path, "$ref"), "a schema without recursion (gemini cannot express recursive types; use gemini-json)", &Value::String(r.to_owned())));
        }
        let target = r
            .strip_prefix('#')
            .and_then(|p| self.root.pointer(p))
            .ok_or_else(|| {
                invalid(
                    path,
                    "a $ref to a definition in this schema",
                    &Value::String(r.to_owned()),
                )
            })?;
        self.stack.push(r.to_owned());
        let mut inlined = self.node(target, path, depth + 1)?;
        self.stack.pop();
        if let (Value::Object(m), Some(d)) = (&mut inlined, node.get("description")) {
            m.insert("description".into(), d.clone());
        }
        Ok(inlined)
    }
}

fn openai(
    mut out: Map<String, Value>,
    original: &Map<String, Value>,
    path: &At<'_>,
    s: &Value,
) -> Result<Value, Error> {
    for bad in [
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
    ] {
        if out.contains_key(bad) {
            return Err(invalid(
                &push(path, bad),
                &format!("no \"{bad}\" (OpenAI strict mode)"),
                s,
            ));
        }
    }
    if let Some(v) = out.remove("oneOf") {
        out.insert("anyOf".into(), v);
    }
    out.remove("allOf");
    remove_described(&mut out, original, |k, v| {
        OPENAI_DROPPED.contains(&k)
            || k == "format" && v.as_str().is_some_and(|f| !OPENAI_FORMATS.contains(&f))
    });
    let is_object =
        out.get("type").and_then(Value::as_str) == Some("object") || out.contains_key("properties");
    if is_object {
        let props: Vec<String> = out
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        if props.is_empty() {
            if let Some(a) = original.get("additionalProperties") {
                if a.is_object() || a == &Value::Bool(true) {
                    return Err(invalid(
                        path,
                        "an object with named properties (OpenAI strict mode cannot express maps)",
                        s,
                    ));
                }
            }
        }
        // (A set: each property's name is looked up in it.)
        let required: std::collections::HashSet<String> = original
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Object(p)) = out.get_mut("properties") {
            for (name, schema) in p.iter_mut() {
                if !required.contains(name) {
                    nullable(schema);
                }
            }
        }
        out.insert("required".into(), json!(props));
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    Ok(Value::Object(out))
}

/// Makes a schema also accept `null` (an optional property in OpenAI strict mode).
fn nullable(s: &mut Value) {
    let Value::Object(m) = s else { return };
    match m.get_mut("type") {
        Some(Value::String(t)) if t == "null" => return,
        Some(t @ Value::String(_)) => {
            let name = t.clone();
            *t = json!([name, "null"]);
            if let Some(Value::Array(e)) = m.get_mut("enum") {
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
            }
            return;
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
            return;
        }
        _ => {}
    }
    if let Some(Value::Array(branches)) = m.get("anyOf") {
        if branches
            .iter()
            .any(|b| b.get("type") == Some(&json!("null")))
        {
            return;
        }
    }
    let description = m.remove("description");
    let inner = Value::Object(std::mem::take(m));
    m.insert("anyOf".into(), json!([inner, {"type": "null"}]));
    if let Some(d) = description {
        m.insert("description".into(), d);
    }
}

/// What OpenAI's documented limits bound, counted on the dialect schema (Structured Outputs
/// guide, "Supported schemas": "Objects have limitations on nesting depth and size",
/// "Limitations on total string size", "Limitations on enum size").
#[derive(Default)]
struct Count {
    properties: usize,
    enum_values: usize,
    chars: usize,
    depth: usize,
    /// The most characters of one string enum of more than 250 values.
    long_enum_chars: usize,
}

impl Count {
    /// Counts `v`, inside `object_depth` objects.
    fn add(&mut self, v: &Value, object_depth: usize) {
        let Value::Object(m) = v else { return };
        let is_object = m.contains_key("properties");
        let d = object_depth + usize::from(is_object);
        self.depth = self.depth.max(d);
        for (k, x) in m {
            match k.as_str() {
                "properties" | "$defs" | "definitions" => {
                    if let Value::Object(p) = x {
                        if k == "properties" {
                            self.properties += p.len();
                        }
                        for (name, s) in p {
                            if k != "properties" {
                                self.definition(name, s);
                            } else {
                                self.chars += name.chars().count();
                                self.add(s, d);
                            }
                        }
                    }
                }
                "enum" => {
                    if let Value::Array(e) = x {
                        self.enum_values += e.len();
                        let chars = e
                            .iter()
                            .filter_map(Value::as_str)
                            .map(|s| s.chars().count())
                            .sum::<usize>();
                        self.chars += chars;
                        if e.len() > 250 && e.iter().all(|v| v.is_string() || v.is_null()) {
                            self.long_enum_chars = self.long_enum_chars.max(chars);
                        }
                    }
                }
                "const" => self.chars += x.as_str().map_or(0, |s| s.chars().count()),
                "items" => self.add(x, d),
                "anyOf" => {
                    if let Value::Array(b) = x {
                        for s in b {
                            self.add(s, d);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Counts the definition `name` of a `$defs` (or `definitions`): its name, and its schema
    /// outside any object.
    fn definition(&mut self, name: &str, def: &Value) {
        self.chars += name.chars().count();
        self.add(def, 0);
    }

    fn merge(&mut self, other: &Count) {
        self.properties += other.properties;
        self.enum_values += other.enum_values;
        self.chars += other.chars;
        self.depth = self.depth.max(other.depth);
        self.long_enum_chars = self.long_enum_chars.max(other.long_enum_chars);
    }

    /// The first limit the count is over, as the error naming it.
    fn check(&self) -> Result<(), Error> {
        let checks = [
            (
                self.properties,
                5000,
                "at most 5000 object properties in all (OpenAI)",
                "properties",
            ),
            (
                self.depth,
                10,
                "at most 10 levels of object nesting (OpenAI)",
                "levels",
            ),
            (
                self.enum_values,
                1000,
                "at most 1000 enum values in all (OpenAI)",
                "enum values",
            ),
            (
                self.chars,
                120_000,
                "at most 120000 characters of names, enum values and consts (OpenAI)",
                "characters",
            ),
            (
                self.long_enum_chars,
                15_000,
                "at most 15000 characters in one string enum of more than 250 values (OpenAI)",
                "characters",
            ),
        ];
        for (n, max, expected, unit) in checks {
            if n > max {
                return Err(Error::new(
                    ErrorKind::InvalidSchema,
                    "",
                    expected,
                    format!("{n} {unit}"),
                ));
            }
        }
        Ok(())
    }
}

/// The Gemini `responseSchema` form of `out`, the walked node; `original` is the input node,
/// `s` what an error shows.
fn gemini(
    mut out: Map<String, Value>,
    original: &Map<String, Value>,
    path: &At<'_>,
    s: &Value,
) -> Result<Value, Error> {
    if let Some(v) = out.remove("oneOf") {
        out.insert("anyOf".into(), v);
    }
    if let Some(c) = out.remove("const") {
        let Value::String(_) = c else {
            return Err(invalid(
                &push(path, "const"),
                "a string constant (gemini enums hold strings only)",
                &c,
            ));
        };
        out.insert("type".into(), json!("string"));
        out.insert("enum".into(), json!([c]));
    }
    if let Some(Value::Array(values)) = out.get_mut("enum") {
        if values.contains(&Value::Null) {
            values.retain(|v| !v.is_null());
            out.insert("nullable".into(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(values)) = out.get("enum") {
        if let Some(bad) = values.iter().find(|v| !v.is_string()) {
            return Err(invalid(
                &push(path, "enum"),
                "string enum values (gemini)",
                bad,
            ));
        }
        out.entry("type").or_insert_with(|| json!("string"));
    }
    match out.get("type").cloned() {
        Some(Value::Array(types)) => {
            let mut rest: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
            if rest.len()
                < out
                    .get("type")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len)
            {
                out.insert("nullable".into(), Value::Bool(true));
            }
            match rest.len() {
                0 => return Err(invalid(path, "a type other than null (gemini)", s)),
                1 => {
                    out.insert("type".into(), rest.remove(0));
                }
                _ => {
                    out.remove("type");
                    let branches: Vec<Value> =
                        rest.into_iter().map(|t| json!({"type": t})).collect();
                    out.insert("anyOf".into(), Value::Array(branches));
                }
            }
        }
        // A null branch: the `anyOf` holding it turns it into `nullable: true`.
        Some(Value::String(t)) if t == "null" => return Ok(json!({"type": "null"})),
        _ => {}
    }
    if let Some(Value::Array(branches)) = out.get("anyOf").cloned() {
        let is_null = |b: &Value| {
            b.get("type") == Some(&json!("null"))
                || b.get("nullable").is_some() && b.get("type").is_none()
        };
        let mut rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        if rest.len() < branches.len() {
            out.insert("nullable".into(), Value::Bool(true));
        }
        if rest.is_empty() {
            return Err(invalid(path, "a type other than null (gemini)", s));
        }
        if rest.len() == 1 {
            out.remove("anyOf");
            if let Value::Object(inner) = rest.remove(0) {
                for (k, v) in inner {
                    if k == "description" && out.contains_key("description") {
                        continue;
                    }
                    out.insert(k, v);
                }
            }
        } else {
            out.insert("anyOf".into(), Value::Array(rest));
        }
    }
    let object = match out.get("type") {
        Some(Value::String(t)) => t == "object",
        None => out.contains_key("properties"),
        Some(_) => false,
    };
    if object
        && out
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
    {
        return Err(invalid(
            path,
            "an object with at least one property (gemini refuses an OBJECT without \
             properties)",
            s,
        ));
    }
    if let Some(Value::Object(props)) = out.get("properties") {
        let order: Vec<Value> = props.keys().cloned().map(Value::String).collect();
        out.insert("propertyOrdering".into(), Value::Array(order));
    }
    remove_described(&mut out, original, |k, v| {
        !GEMINI_KEPT.contains(&k)
            || k == "format"
                && v.as_str().is_some_and(|f| {
                    !matches!(
                        f,
                        "enum" | "date-time" | "float" | "double" | "int32" | "int64"
                    )
                })
    });
    Ok(Value::Object(out))
}

/// The Gemini `responseJsonSchema` form of `out`, the walked node; `original` is the input
/// node, `root` the input schema (which its `$ref`s point into).
fn gemini_json(mut out: Map<String, Value>, original: &Map<String, Value>, root: &Value) -> Value {
    if let Some(v) = out.remove("oneOf") {
        out.insert("anyOf".into(), v);
    }
    if let Some(c) = out.remove("const") {
        out.insert("enum".into(), json!([c]));
    }
    // Draft 7's tuples and definitions in the keywords the guide lists.
    if out.get("items").is_some_and(Value::is_array) {
        out = renamed(
            out,
            &[("items", "prefixItems"), ("additionalItems", "items")],
        );
    }
    if out.contains_key("definitions") {
        out = renamed(out, &[("definitions", "$defs")]);
    }
    if let Some(Value::String(r)) = out.get_mut("$ref") {
        if let Some(to_defs) = ref_into_defs(root, r) {
            *r = to_defs;
        }
    }
    // "If a schema node contains a ref, it cannot contain any other fields except for
    // description and default" (`default` is not in the guide's list: it is described).
    let reference = out.contains_key("$ref");
    remove_described(&mut out, original, |k, _| {
        !GEMINI_JSON_KEPT.contains(&k) || reference && !k.starts_with('$') && k != "description"
    });
    Value::Object(out)
}

/// `m` with the keys `renames` names renamed, each in its place; where the new name is there
/// already, two objects are merged (`definitions` into `$defs`, the names apart by
/// [`definitions_apart`]), and otherwise the later value is kept.
fn renamed(m: Map<String, Value>, renames: &[(&str, &str)]) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in m {
        let k = renames
            .iter()
            .find(|(from, _)| *from == k)
            .map_or(k, |(_, to)| (*to).to_owned());
        match (out.get_mut(&k), v) {
            (Some(Value::Object(have)), Value::Object(more)) => have.extend(more),
            (_, v) => {
                out.insert(k, v);
            }
        }
    }
    out
}

/// `reference` with each draft 7 `definitions` keyword it goes through written `$defs`, as
/// gemini-json writes the keyword; `None` if it goes through none. Only keywords count: a
/// property named `definitions` stays.
fn ref_into_defs(root: &Value, reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix("#/")?;
    let mut at = Some(root);
    // Whether `at` is a schema (its keys are keywords), else a map or list of schemas.
    let mut schema = true;
    let mut out = String::from("#");
    let mut changed = false;
    for raw in pointer.split('/') {
        out.push('/');
        let Some(here) = at else {
            out.push_str(raw);
            continue;
        };
        let seg = super::valid::percent_decode(raw)
            .replace("~1", "/")
            .replace("~0", "~");
        let next = match here {
            Value::Object(m) => m.get(&seg),
            Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        if !schema {
            out.push_str(raw);
            (at, schema) = (next, true);
            continue;
        }
        if seg == "definitions" && next.is_some_and(Value::is_object) {
            out.push_str("$defs");
            changed = true;
        } else {
            out.push_str(raw);
        }
        at = next;
        match seg.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            | "anyOf" | "oneOf" | "allOf" | "prefixItems" => schema = false,
            "items" => schema = !next.is_some_and(Value::is_array),
            "additionalProperties"
            | "additionalItems"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contains"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else" => {}
            // Not a schema below: nothing further is a keyword.
            _ => at = None,
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_writes_maps_as_pairs_and_refuses_any_and_non_object_roots() {
        let map = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 3}}, "required": ["m"]});
        assert_eq!(
            to_dialect(&map, Dialect::OpenAiStrict).unwrap()["properties"]["m"],
            json!({
                "type": "array",
                "maxItems": 3,
                "description": "a map: one {\"key\", \"value\"} object per entry",
                "items": {
                    "type": "object",
                    "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
                    "required": ["key", "value"],
                    "additionalProperties": false
                }
            })
        );
        // At the root, where OpenAI wants an object, a map stays an error.
        let root = json!({"type": "object", "additionalProperties": {"$ref": "#/$defs/D"}, "$defs": {"D": {"type": "integer"}}});
        let e = to_dialect(&root, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!((e.kind(), e.path()), (ErrorKind::InvalidSchema, ""));
        let via_ref = json!({"$ref": "#/$defs/M", "$defs": {"M": {"type": "object", "additionalProperties": {"type": "integer"}}}});
        assert_eq!(
            to_dialect(&via_ref, Dialect::OpenAiStrict)
                .unwrap_err()
                .path(),
            "/$defs/M"
        );
        // Gemini takes an array at the root, with the references inlined.
        assert_eq!(
            to_dialect(&root, Dialect::Gemini).unwrap()["items"]["properties"]["value"],
            json!({"type": "integer"})
        );
        // A map of any value cannot be written for OpenAI or Gemini either way: the error is
        // "any value"'s, where the values' schema is.
        for values in [json!(true), json!({})] {
            let any_map = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": values}}});
            for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
                let e = to_dialect(&any_map, d).unwrap_err();
                assert_eq!(
                    (e.kind(), e.path(), e.expected()),
                    (
                        ErrorKind::InvalidSchema,
                        "/properties/m/additionalProperties",
                        format!("a typed schema ({d} cannot express \"any value\")").as_str()
                    )
                );
            }
        }
        let any = json!({"type": "object", "properties": {"a": {}}});
        assert_eq!(
            to_dialect(&any, Dialect::OpenAiStrict).unwrap_err().path(),
            "/properties/a"
        );
        let array = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(
            to_dialect(&array, Dialect::OpenAiStrict)
                .unwrap_err()
                .path(),
            ""
        );
        assert_eq!(
            to_dialect(&array, Dialect::Anthropic).unwrap_err().path(),
            ""
        );
        assert!(to_dialect(&array, Dialect::Gemini).is_ok());
    }

    #[test]
    fn openai_nullable_forms_and_moved_keywords() {
        let s = json!({
            "type": "object",
            "properties": {
                "r": {"$ref": "#/$defs/R", "description": "A ref."},
                "e": {"type": "string", "enum": ["a", "b"]},
                "u": {"type": "string", "format": "uri", "default": "x", "minLength": 1}
            },
            "$defs": {"R": {"type": "object", "properties": {}, "x-aliases": {}}}
        });
        let out = to_dialect(&s, Dialect::OpenAiStrict).unwrap();
        assert_eq!(
            out["properties"],
            json!({
                "r": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}], "description": "A ref."},
                "e": {"type": ["string", "null"], "enum": ["a", "b", null]},
                "u": {"type": ["string", "null"], "description": "format: uri, default: \"x\", minLength: 1"}
            })
        );
        assert_eq!(
            out["$defs"]["R"],
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
        );
    }

    #[test]
    fn openai_inlines_a_ref_with_siblings() {
        let s = json!({
            "type": "object",
            "properties": {
                "required_ref": {"$ref": "#/$defs/R", "description": "Mine."},
                "optional_ref": {"$ref": "#/$defs/R", "description": "Also mine."},
                "bare": {"$ref": "#/$defs/R"}
            },
            "required": ["required_ref", "bare"],
            "$defs": {"R": {"type": "object", "description": "Theirs.", "properties": {"a": {"type": "string"}}, "required": ["a"]}}
        });
        let out = to_dialect(&s, Dialect::OpenAiStrict).unwrap();
        let r = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
        let mut inlined = r.clone();
        inlined["description"] = json!("Mine.");
        assert_eq!(out["properties"]["required_ref"], inlined);
        // An optional one is made nullable first, which leaves its `$ref` bare.
        assert_eq!(
            out["properties"]["optional_ref"],
            json!({"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}], "description": "Also mine."})
        );
        assert_eq!(out["properties"]["bare"], json!({"$ref": "#/$defs/R"}));
        let mut r_def = r;
        r_def["description"] = json!("Theirs.");
        assert_eq!(out["$defs"]["R"], r_def);

        // Recursion: the reference back into what is being inlined stays a reference.
        let tree = json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/N", "description": "The root."}},
            "required": ["root"],
            "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N", "description": "The next."}}, "required": ["next"]}}
        });
        let out = to_dialect(&tree, Dialect::OpenAiStrict).unwrap();
        assert_eq!(
            out["properties"]["root"]["properties"]["next"],
            json!({"description": "The next.", "anyOf": [{"$ref": "#/$defs/N"}]})
        );
        assert_eq!(out["properties"]["root"]["description"], "The root.");
    }

    #[test]
    fn openai_inlining_that_doubles_per_level_is_bounded() {
        // Each level uses the next twice, with a description: inlined, 2^30 copies.
        let mut defs = Map::new();
        for i in 0..30 {
            let next = format!("#/$defs/L{}", i + 1);
            defs.insert(
                format!("L{i}"),
                json!({"type": "object", "properties": {
                    "a": {"$ref": next, "description": "a"},
                    "b": {"$ref": next, "description": "b"}
                }, "required": ["a", "b"]}),
            );
        }
        defs.insert("L30".into(), json!({"type": "string"}));
        let s = json!({"type": "object", "properties": {"l": {"$ref": "#/$defs/L0", "description": "top"}}, "required": ["l"], "$defs": defs});
        let e = to_dialect(&s, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidSchema);
        assert!(
            e.expected().starts_with("a schema of at most 100000 nodes"),
            "{e}"
        );
    }

    #[test]
    fn openai_limits_are_checked() {
        let mut props = Map::new();
        for i in 0..5001 {
            props.insert(format!("p{i}"), json!({"type": "integer"}));
        }
        let s = json!({"type": "object", "properties": props});
        let e = to_dialect(&s, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected at most 5000 object properties in all (OpenAI), found 5001 properties"
        );
        let mut deep = json!({"type": "string"});
        for _ in 0..11 {
            deep = json!({"type": "object", "properties": {"a": deep}, "required": ["a"]});
        }
        let e = to_dialect(&deep, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected at most 10 levels of object nesting (OpenAI), found 11 levels"
        );
    }

    #[test]
    fn gemini_inlines_and_refuses_recursion() {
        let s = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "n": {"type": ["integer", "null"]}},
            "required": ["a"],
            "$defs": {"A": {"type": "string", "enum": ["x", "y"]}}
        });
        assert_eq!(
            to_dialect(&s, Dialect::Gemini).unwrap(),
            json!({
                "type": "object",
                "properties": {"a": {"type": "string", "enum": ["x", "y"]}, "n": {"type": "integer", "nullable": true}},
                "required": ["a"],
                "propertyOrdering": ["a", "n"]
            })
        );
        let rec = json!({"type": "object", "properties": {"c": {"type": "array", "items": {"$ref": "#"}}}});
        let e = to_dialect(&rec, Dialect::Gemini).unwrap_err();
        assert_eq!(e.path(), "/properties/c/items/$ref");
    }

    #[test]
    fn a_root_ref_to_an_object_is_an_object_root() {
        let s = json!({
            "$ref": "#/$defs/P",
            "$defs": {"P": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}}}
        });
        // Anthropic takes the object in place at the root, with the definitions beside it.
        assert_eq!(
            to_dialect(&s, Dialect::Anthropic).unwrap(),
            json!({
                "type": "object",
                "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
                "$defs": s["$defs"]
            })
        );
        // What a dialect cannot express in it is named at its own pointer.
        let s = json!({
            "$ref": "#/$defs/P",
            "$defs": {"P": {"type": "object", "properties": {"m": {}}}}
        });
        let e = to_dialect(&s, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!(e.path(), "/$defs/P/properties/m");
        // A root reference to something else is still not an object root.
        let e = to_dialect(
            &json!({"$ref": "#/$defs/S", "$defs": {"S": {"type": "string"}}}),
            Dialect::OpenAiStrict,
        )
        .unwrap_err();
        assert_eq!(
            (e.path(), e.expected()),
            ("", "an object at the root (OpenAI strict mode)")
        );
    }

    #[test]
    fn schemas_that_are_not_schemas_are_errors_in_every_dialect() {
        for d in Dialect::ALL {
            for (s, path) in [
                (json!({"type": 3}), "/type"),
                (json!({"type": "object", "properties": "x"}), "/properties"),
                (
                    json!({"type": "object", "properties": {"e": {"enum": []}}}),
                    "/properties/e/enum",
                ),
                (
                    json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}),
                    "/$defs/B/$ref",
                ),
            ] {
                let e = to_dialect(&s, d).unwrap_err();
                assert_eq!(
                    (e.kind(), e.path()),
                    (ErrorKind::InvalidSchema, path),
                    "{d} {s}"
                );
            }
        }
    }

    /// 20 levels, each using the next definition twice: inlined, 2^20 copies of the last.
    fn doubling(levels: usize) -> Value {
        let mut defs = Map::new();
        for i in 0..levels {
            defs.insert(
                format!("L{i}"),
                json!({"type": "object", "properties": {
                    "a": {"$ref": format!("#/$defs/L{}", i + 1)},
                    "b": {"$ref": format!("#/$defs/L{}", i + 1)}
                }}),
            );
        }
        defs.insert(format!("L{levels}"), json!({"type": "string"}));
        json!({"$ref": "#/$defs/L0", "$defs": defs})
    }

    #[test]
    fn gemini_refuses_what_inlining_would_blow_up() {
        let e = to_dialect(&doubling(20), Dialect::Gemini).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected a schema of at most 1000000 bytes once its references are inlined \
             (gemini has no $ref; use gemini-json), found about 117440428 bytes (the largest \
             reference inlined: /$ref)"
        );
        // Ten levels inline to 2^10 copies, well under the limit, and are written out.
        let out = to_dialect(&doubling(10), Dialect::Gemini).unwrap();
        let text = out.to_string();
        assert_eq!(text.matches("\"string\"").count(), 1024);
        assert!(!text.contains("$defs"));
        // gemini-json keeps the references: no growth.
        assert!(to_dialect(&doubling(20), Dialect::GeminiJson).is_ok());
    }

    /// `to_dialect_json` is `to_dialect`'s text, or its error, in every dialect.
    fn same_as_text(schema: &Value) {
        for d in Dialect::ALL {
            let text = to_dialect_json(schema, d);
            let value = to_dialect(schema, d).map(|v| v.to_string());
            assert_eq!(text, value, "{d}: {schema}");
        }
    }

    #[test]
    fn the_text_is_the_values_text_where_the_root_holds_definitions() {
        let sibling_refs = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/S", "description": "A."}},
            "required": ["a"],
            "$defs": {
                "S": {"$ref": "#/$defs/T", "description": "Inlined for OpenAI."},
                "T": {"type": "object", "properties": {"n": {"type": "integer"}}, "x-aliases": {}},
                "R": {"$ref": "#/$defs/R2", "title": "Recursive."},
                "R2": {"type": "object", "properties": {"r": {"$ref": "#/$defs/R", "title": "x"}}}
            },
            "definitions": {"U": {"oneOf": [{"const": "u"}, {"type": "null"}]}},
            "x-no-invent": ["a"]
        });
        same_as_text(&sibling_refs);
        // A root `$ref`: the root beside the object, with its other keywords.
        let mut root_ref = sibling_refs.clone();
        root_ref["$ref"] = json!("#/$defs/T");
        root_ref["description"] = json!("The root's.");
        same_as_text(&root_ref);
        // The object behind the root `$ref` holds definitions of its own: the root's go.
        same_as_text(&json!({
            "$ref": "#/$defs/P",
            "$defs": {"P": {"type": "object", "properties": {"q": {"$ref": "#/$defs/P/$defs/Q"}}, "$defs": {"Q": {"type": "string"}}}}
        }));
        // What the root cannot hold beside its `$ref` is named in the root without it.
        let bad_root = json!({
            "$ref": "#/$defs/P",
            "not": {"type": "string"},
            "$defs": {"P": {"type": "object", "properties": {"q": {"type": "string"}}}}
        });
        same_as_text(&bad_root);
        let e = to_dialect_json(&bad_root, Dialect::OpenAiStrict).unwrap_err();
        // (As `Map::remove` leaves it: the last keyword in the place of `$ref`.)
        assert_eq!(
            e.found(),
            r#"{"$defs":{"P":{"type":"object","properties":{"q":{"type":"st…"#
        );
        // Errors in definitions, and over OpenAI's limits through definitions alone.
        same_as_text(
            &json!({"type": "object", "$defs": {"A": {"type": "string"}, "B": {"not": {}}}}),
        );
        let mut defs = Map::new();
        for i in 0..3000 {
            defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/D0"}}}));
        }
        let many =
            json!({"type": "object", "properties": {"d": {"$ref": "#/$defs/D0"}}, "$defs": defs});
        same_as_text(&many);
        assert!(to_dialect_json(&many, Dialect::OpenAiStrict)
            .unwrap_err()
            .to_string()
            .contains("found 6001 properties"));
        // Roots that are not objects, maps, `allOf` at the root, and the other tests' schemas.
        for s in [
            json!(true),
            json!({"type": "array", "items": {"$ref": "#/$defs/I"}, "$defs": {"I": {"type": "integer"}}}),
            json!({"type": "object", "additionalProperties": {"$ref": "#/$defs/V"}, "$defs": {"V": {"type": "integer"}}}),
            json!({"allOf": [{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}], "$defs": {"A": {"type": "string"}}}),
            json!({"$ref": "#/$defs/A", "description": "d", "$defs": {"A": {"const": "x", "x-aliases": {}}}}),
            doubling(10),
            doubling(20),
        ] {
            same_as_text(&s);
        }
    }

    #[test]
    fn gemini_json_keeps_only_a_description_beside_a_ref() {
        let s = json!({"$ref": "#/$defs/A", "description": "d", "title": "T", "default": "x", "$defs": {"A": {"const": "x", "x-aliases": {}}}});
        assert_eq!(
            to_dialect(&s, Dialect::GeminiJson).unwrap(),
            json!({"$ref": "#/$defs/A", "description": "d (default: \"x\")", "$defs": {"A": {"enum": ["x"]}}})
        );
    }
}
