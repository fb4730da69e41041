//! Each dialect's rules, checked by walking its output for derived types of every shape:
//! nested structs, options, every serde enum representation, maps, recursion.

use std::collections::HashMap;

use llmout::schema::dialect::Dialect;
use llmout::{ErrorKind, LlmOutput};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
#[serde(rename_all = "camelCase")]
struct Order {
    /// Who ordered.
    customer_name: String,
    lines: Vec<Line>,
    payment: Payment,
    shipping: Option<Shipping>,
    answer: Answer,
    #[serde(default)]
    gift: bool,
    #[serde(alias = "qty")]
    quantity: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Product { sku: String, qty: u32 },
    Discount { percent: f64 },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
enum Payment {
    Cash,
    Card { last4: String },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "t", content = "c")]
enum Shipping {
    Pickup,
    Post(String),
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(untagged)]
enum Answer {
    Number(f64),
    Words { text: String },
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct WithMap {
    counts: HashMap<String, u32>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

/// Documented fields of named types: schemars writes `{"$ref": …, "description": …}`.
#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Documented {
    /// How it is paid.
    payment: Payment,
    /// Where it goes, if anywhere.
    shipping: Option<Shipping>,
    /// The first line.
    first: Line,
    /// A linked list, documented at the recursion.
    next: Option<Box<Documented>>,
    /// Counts by name.
    counts: HashMap<String, Line>,
}

/// Calls `f` on every schema node (objects reachable through schema keywords).
fn walk(v: &Value, path: &str, f: &mut dyn FnMut(&str, &serde_json::Map<String, Value>)) {
    let Value::Object(m) = v else { return };
    f(path, m);
    for (k, x) in m {
        match k.as_str() {
            "properties" | "$defs" => {
                if let Value::Object(p) = x {
                    for (n, s) in p {
                        walk(s, &format!("{path}/{k}/{n}"), f);
                    }
                }
            }
            "items" | "additionalProperties" => walk(x, &format!("{path}/{k}"), f),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(b) = x {
                    for (i, s) in b.iter().enumerate() {
                        walk(s, &format!("{path}/{k}/{i}"), f);
                    }
                }
            }
            _ => {}
        }
    }
}

fn no_vendor_keys(path: &str, m: &serde_json::Map<String, Value>) {
    assert!(
        m.keys().all(|k| !k.starts_with("x-") && k != "$schema"),
        "{path}: {m:?}"
    );
}

/// OpenAI's rules, from the Structured Outputs guide, "Supported schemas"
/// (platform.openai.com/docs/guides/structured-outputs#supported-schemas): the root is an
/// object and not `anyOf`; "All fields must be required"; "additionalProperties: false must
/// always be set in objects"; `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
/// `dependentSchemas` are not supported; only the listed `format`s. And no keyword beside a
/// `$ref` (the OpenAI SDK inlines such references, `openai/lib/_pydantic.py`).
#[test]
fn openai_strict_rules_hold() {
    for s in [
        Order::schema_for(Dialect::OpenAiStrict),
        Tree::schema_for(Dialect::OpenAiStrict),
        WithMap::schema_for(Dialect::OpenAiStrict),
        Documented::schema_for(Dialect::OpenAiStrict),
    ] {
        let s = s.unwrap();
        assert_eq!(s["type"], "object");
        assert!(s.get("anyOf").is_none());
        walk(&s, "", &mut |path, m| {
            no_vendor_keys(path, m);
            if m.contains_key("$ref") {
                assert_eq!(m.len(), 1, "{path}: a $ref with siblings {m:?}");
            }
            if m.get("type") == Some(&Value::from("object")) {
                assert!(
                    m.contains_key("properties"),
                    "{path}: an object without properties"
                );
            }
            for bad in [
                "if",
                "then",
                "else",
                "dependentRequired",
                "dependentSchemas",
            ] {
                assert!(!m.contains_key(bad), "{path} has {bad}");
            }
            for bad in [
                "oneOf",
                "allOf",
                "not",
                "default",
                "minLength",
                "prefixItems",
            ] {
                assert!(!m.contains_key(bad), "{path} has {bad}");
            }
            if let Some(Value::Object(props)) = m.get("properties") {
                assert_eq!(
                    m.get("additionalProperties"),
                    Some(&Value::Bool(false)),
                    "{path}"
                );
                let required: Vec<&str> = m["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                let names: Vec<&str> = props.keys().map(String::as_str).collect();
                assert_eq!(required, names, "{path}");
            }
            if let Some(Value::String(f)) = m.get("format") {
                assert!(
                    [
                        "date-time",
                        "time",
                        "date",
                        "duration",
                        "email",
                        "hostname",
                        "ipv4",
                        "ipv6",
                        "uuid"
                    ]
                    .contains(&f.as_str()),
                    "{path}: {f}"
                );
            }
        });
    }
    // Optional fields became nullable, required ones did not.
    let s = Order::schema_for(Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        s["properties"]["quantity"]["type"],
        serde_json::json!(["integer", "null"])
    );
    assert_eq!(s["properties"]["customerName"]["type"], "string");
}

/// OpenAI strict mode and Gemini's `responseSchema` cannot say what a map's values are: the
/// map is written as an array of `{"key", "value"}` objects, and a reply that follows that
/// schema comes back as the map.
#[test]
fn a_map_round_trips_through_the_pairs_the_dialect_asks_for() {
    let pairs = serde_json::json!({
        "type": "array",
        "description": "a map: one {\"key\", \"value\"} object per entry",
        "items": {
            "type": "object",
            "properties": {
                "key": {"type": "string"},
                "value": {"type": "integer", "minimum": 0, "description": "format: uint32"}
            },
            "required": ["key", "value"],
            "additionalProperties": false
        }
    });
    let s = WithMap::schema_for(Dialect::OpenAiStrict).unwrap();
    assert_eq!(s["properties"]["counts"], pairs);
    let s = WithMap::schema_for(Dialect::Gemini).unwrap();
    assert_eq!(
        s["properties"]["counts"]["items"]["properties"]["value"],
        serde_json::json!({"type": "integer", "minimum": 0, "description": "format: uint32"})
    );
    assert_eq!(
        s["properties"]["counts"]["items"]["propertyOrdering"],
        serde_json::json!(["key", "value"])
    );

    let reply = r#"{"counts": [{"key": "apples", "value": 3}, {"key": "pears", "value": 0}]}"#;
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let schema = WithMap::schema_for(d).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let reply_value: Value = serde_json::from_str(reply).unwrap();
        assert!(validator.is_valid(&reply_value), "{d}");
    }
    let r = WithMap::from_llm(reply);
    assert_eq!(
        r.value.unwrap().counts,
        HashMap::from([("apples".to_owned(), 3), ("pears".to_owned(), 0)])
    );
    assert_eq!(
        r.warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["/counts: read an array of 2 {\"key\", \"value\"} objects as a map"]
    );
    // The map as JSON writes it is still read as it is.
    let r = WithMap::from_llm(r#"{"counts": {"apples": 3}}"#);
    assert!(!r.recovered);
    // An empty array is the empty map; a key given twice is not a guess.
    assert_eq!(
        WithMap::from_llm(r#"{"counts": []}"#).value.unwrap().counts,
        HashMap::new()
    );
    let e =
        WithMap::from_llm(r#"{"counts": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}"#)
            .error
            .unwrap();
    assert_eq!(
        e.to_string(),
        "at /counts: expected a map, written as {\"key\", \"value\"} objects with different keys, found the key \"a\" given twice"
    );
    assert_eq!(e.kind(), ErrorKind::Ambiguous);
}

/// Anthropic's "Define tools" page (platform.claude.com/docs/en/agents-and-tools/tool-use/
/// define-tools): `input_schema` is a JSON Schema object, `"type": "object"` at its root.
#[test]
fn anthropic_rules_hold() {
    for s in [
        Order::schema_for(Dialect::Anthropic),
        Tree::schema_for(Dialect::Anthropic),
        WithMap::schema_for(Dialect::Anthropic),
        Documented::schema_for(Dialect::Anthropic),
    ] {
        let s = s.unwrap();
        assert_eq!(s["type"], "object");
        walk(&s, "", &mut |path, m| no_vendor_keys(path, m));
    }
}

/// Gemini's `responseSchema` is the API's `Schema` object (ai.google.dev/api/caching#Schema,
/// "a select subset of an OpenAPI 3.0 schema object"): only its fields, `type` one type name
/// (`nullable` for null), `enum` of strings, no `$ref`; `propertyOrdering` from the
/// structured-output guide (ai.google.dev/gemini-api/docs/structured-output).
#[test]
fn gemini_rules_hold() {
    const KEPT: [&str; 19] = [
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
    for s in [
        Order::schema_for(Dialect::Gemini),
        WithMap::schema_for(Dialect::Gemini),
    ] {
        let s = s.unwrap();
        walk(&s, "", &mut |path, m| {
            if m.get("type") == Some(&Value::from("object")) {
                assert!(
                    m.contains_key("properties"),
                    "{path}: an object without properties"
                );
            }
            for k in m.keys() {
                assert!(KEPT.contains(&k.as_str()), "{path} has {k}");
            }
            if let Some(t) = m.get("type") {
                assert!(t.is_string() && t != "null", "{path}: type {t}");
            }
            if let Some(Value::Array(e)) = m.get("enum") {
                assert!(e.iter().all(Value::is_string), "{path}: {e:?}");
            }
            if let Some(Value::Object(props)) = m.get("properties") {
                let order: Vec<&str> = m["propertyOrdering"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                assert_eq!(order, props.keys().map(String::as_str).collect::<Vec<_>>());
            }
        });
    }
    let s = Order::schema_for(Dialect::Gemini).unwrap();
    assert_eq!(s["properties"]["quantity"]["nullable"], true);
    let e = Tree::schema_for(Dialect::Gemini).unwrap_err();
    assert_eq!(
        (e.kind(), e.path()),
        (ErrorKind::InvalidSchema, "/properties/children/items/$ref")
    );
}

/// The keywords Gemini's structured-output guide (ai.google.dev/gemini-api/docs/
/// structured-output) lists for `responseJsonSchema`; siblings of `$ref` are ignored there.
#[test]
fn gemini_json_rules_hold() {
    const KEPT: [&str; 21] = [
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
    for s in [
        Order::schema_for(Dialect::GeminiJson),
        Tree::schema_for(Dialect::GeminiJson),
        WithMap::schema_for(Dialect::GeminiJson),
    ] {
        let s = s.unwrap();
        walk(&s, "", &mut |path, m| {
            for k in m.keys() {
                assert!(KEPT.contains(&k.as_str()), "{path} has {k}");
            }
            assert!(!m.contains_key("oneOf"), "{path}");
            if m.contains_key("$ref") {
                assert!(m.keys().all(|k| k.starts_with('$')), "{path}: {m:?}");
            }
        });
    }
}

/// OpenAI's limits ("Supported schemas"): 1 000 enum values in all; 120 000 characters of
/// property names, definition names, enum values and consts; 15 000 characters in one string
/// enum of more than 250 values. At the limit is fine, one past it is an error naming it.
#[test]
fn openai_size_limits_hold() {
    let with_enums = |enums: Vec<Vec<String>>| {
        let props: serde_json::Map<String, Value> = enums
            .into_iter()
            .enumerate()
            .map(|(i, values)| (format!("e{i}"), serde_json::json!({"enum": values})))
            .collect();
        let required: Vec<&String> = props.keys().collect();
        serde_json::json!({"type": "object", "properties": props, "required": required})
    };
    let values =
        |n: usize, len: usize| -> Vec<String> { (0..n).map(|i| format!("{i:0len$}")).collect() };
    let to = |s: &Value| llmout::schema::dialect::to_dialect(s, Dialect::OpenAiStrict);

    // 1 000 enum values in all.
    assert!(to(&with_enums(vec![values(500, 3), values(500, 3)])).is_ok());
    let e = to(&with_enums(vec![values(500, 3), values(501, 3)])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected at most 1000 enum values in all (OpenAI), found 1001 enum values"
    );
    // 15 000 characters in one enum of more than 250 values (251 values of 59 and 60).
    assert!(to(&with_enums(vec![values(251, 59)])).is_ok()); // 14 809 characters
    let e = to(&with_enums(vec![values(251, 60)])).unwrap_err(); // 15 060
    assert_eq!(
        e.to_string(),
        "expected at most 15000 characters in one string enum of more than 250 values (OpenAI), \
         found 15060 characters"
    );
    // ... but not in an enum of 250.
    assert!(to(&with_enums(vec![values(250, 61)])).is_ok());
    // 120 000 characters in all: property names count too.
    let long_names: serde_json::Map<String, Value> = (0..4)
        .map(|i| {
            (
                format!("{i}{}", "n".repeat(29_999)),
                serde_json::json!({"type": "string"}),
            )
        })
        .collect();
    let s = serde_json::json!({"type": "object", "properties": long_names});
    assert!(to(&s).is_ok());
    let mut more = s.clone();
    more["properties"]["x"] = serde_json::json!({"type": "string"});
    assert_eq!(
        to(&more).unwrap_err().to_string(),
        "expected at most 120000 characters of names, enum values and consts (OpenAI), found \
         120001 characters"
    );
}
