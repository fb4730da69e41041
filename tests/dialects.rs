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
        Documented::schema_for(Dialect::GeminiJson),
    ] {
        let s = s.unwrap();
        walk(&s, "", &mut |path, m| {
            for k in m.keys() {
                assert!(KEPT.contains(&k.as_str()), "{path} has {k}");
            }
            assert!(!m.contains_key("oneOf"), "{path}");
            // "If a schema node contains a ref, it cannot contain any other fields except for
            // description and default" (su-kaka/gcli2api#374).
            if m.contains_key("$ref") {
                assert!(
                    m.keys().all(|k| k.starts_with('$') || k == "description"),
                    "{path}: {m:?}"
                );
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

fn to(schema: &Value, d: Dialect) -> Result<Value, llmout::Error> {
    let value = llmout::schema::dialect::to_dialect(schema, d);
    // The text is the value's, or the same error.
    assert_eq!(
        llmout::schema::dialect::to_dialect_json(schema, d),
        value
            .as_ref()
            .map(ToString::to_string)
            .map_err(Clone::clone),
        "{d}: {schema}"
    );
    value
}

/// The error `to` gives, as (kind, pointer, message).
fn refused(schema: &Value, d: Dialect) -> (ErrorKind, String, String) {
    let e = to(schema, d).unwrap_err();
    (e.kind(), e.path().to_owned(), e.to_string())
}

/// An invalid-schema error at `pointer` (`""`: the root, which the message does not name).
fn invalid(pointer: &str, message: &str) -> (ErrorKind, String, String) {
    let message = match pointer {
        "" => message.to_owned(),
        _ => format!("at {pointer}: {message}"),
    };
    (ErrorKind::InvalidSchema, pointer.to_owned(), message)
}

/// A tuple, as schemars writes `(String, u8)` and pydantic `tuple[str, int]`, has no form in
/// OpenAI strict mode or Gemini's `responseSchema` (both want `items`): its `items` are the
/// elements' schemas as `anyOf` branches, in order, or the one schema they all are.
#[test]
fn tuples_become_items_of_their_elements() {
    let pair = serde_json::json!({
        "type": "object",
        "properties": {"at": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2, "maxItems": 2}},
        "required": ["at"]
    });
    let items = serde_json::json!({
        "type": "array",
        "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "minItems": 2,
        "maxItems": 2,
        "description": "a tuple: item i follows items.anyOf[i]"
    });
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        assert_eq!(to(&pair, d).unwrap()["properties"]["at"], items, "{d}");
    }
    // gemini-json has `prefixItems`; anthropic takes the schema as it is.
    assert_eq!(
        to(&pair, Dialect::GeminiJson).unwrap()["properties"]["at"],
        pair["properties"]["at"]
    );

    // Elements all of one schema (`Line(f64, f64)`): that schema, no note.
    let same = serde_json::json!({
        "type": "object",
        "properties": {"p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "minItems": 2, "maxItems": 2}},
        "required": ["p"]
    });
    assert_eq!(
        to(&same, Dialect::OpenAiStrict).unwrap()["properties"]["p"],
        serde_json::json!({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2})
    );

    // Draft 7's tuple (`items` as an array) with more items after it: they are the last
    // branch. For gemini-json it is written as 2020-12's `prefixItems` and `items`.
    let open = serde_json::json!({
        "type": "object",
        "properties": {"t": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/$defs/N"}], "additionalItems": {"type": "boolean"}}},
        "required": ["t"],
        "$defs": {"N": {"type": "integer", "description": "A count."}}
    });
    assert_eq!(
        to(&open, Dialect::OpenAiStrict).unwrap()["properties"]["t"],
        serde_json::json!({
            "type": "array",
            "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/N"}, {"type": "boolean"}]},
            "description": "a tuple: item i follows items.anyOf[i], and the items after the first 2 follow the last"
        })
    );
    assert_eq!(
        to(&open, Dialect::Gemini).unwrap()["properties"]["t"]["items"],
        serde_json::json!({"anyOf": [{"type": "string"}, {"type": "integer", "description": "A count."}, {"type": "boolean"}]})
    );
    assert_eq!(
        to(&open, Dialect::GeminiJson).unwrap()["properties"]["t"],
        serde_json::json!({"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/$defs/N"}], "items": {"type": "boolean"}})
    );

    // Items of any value after the tuple cannot be expressed: nothing bounds them here.
    let unbounded = serde_json::json!({
        "type": "object",
        "properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}]}}
    });
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        assert_eq!(
            refused(&unbounded, d),
            invalid(
                "/properties/t",
                &format!(
                    "expected a typed items or maxItems: 1 beside prefixItems ({d} cannot \
                     express \"any value\"), found {{\"type\":\"array\",\"prefixItems\":[{{\"type\":\"string\"}}]}}"
                )
            )
        );
    }
    // A tuple of a derived type: every value of it fits the dialects' schemas.
    #[derive(Deserialize, JsonSchema, LlmOutput, serde::Serialize)]
    struct Segment {
        ends: ((f64, f64), (f64, f64)),
        label: (String, u8),
    }
    let value = serde_json::to_value(Segment {
        ends: ((0.0, 1.5), (2.0, -3.0)),
        label: ("north".into(), 7),
    })
    .unwrap();
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let schema = Segment::schema_for(d).unwrap();
        walk(&schema, "", &mut |path, m| {
            assert!(!m.contains_key("prefixItems"), "{d} {path}");
            if m.get("type") == Some(&Value::from("array")) {
                assert!(m["items"].is_object(), "{d} {path}");
            }
        });
        assert!(
            jsonschema::validator_for(&schema).unwrap().is_valid(&value),
            "{d}"
        );
    }
}

/// An array whose items may be anything (`Vec<serde_json::Value>`: `items: true`; `items:
/// {}`; no `items` at all) has no form in OpenAI strict mode or Gemini's `responseSchema`:
/// the same error as "any value" anywhere, at the items or at the array.
#[test]
fn arrays_of_any_value_are_refused_where_a_type_is_needed() {
    #[derive(Deserialize, JsonSchema, LlmOutput)]
    #[allow(dead_code)]
    struct Loose {
        values: Vec<Value>,
    }
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let e = Loose::schema_for(d).unwrap_err();
        assert_eq!(
            (e.kind(), e.path(), e.to_string()),
            (
                ErrorKind::InvalidSchema,
                "/properties/values/items",
                format!(
                    "at /properties/values/items: expected a typed schema ({d} cannot express \
                     \"any value\"), found true"
                )
            )
        );
        let empty = serde_json::json!({"type": "object", "properties": {"l": {"type": "array", "items": {}}}});
        assert_eq!(
            refused(&empty, d),
            invalid(
                "/properties/l/items",
                &format!("expected a typed schema ({d} cannot express \"any value\"), found {{}}")
            )
        );
        let bare =
            serde_json::json!({"type": "object", "properties": {"l": {"type": ["array", "null"]}}});
        assert_eq!(
            refused(&bare, d),
            invalid(
                "/properties/l",
                &format!(
                    "expected an array with typed items ({d} cannot express \"any value\"), \
                     found {{\"type\":[\"array\",\"null\"]}}"
                )
            )
        );
    }
    // The dialects that take any value take these as they are.
    for d in [Dialect::Anthropic, Dialect::GeminiJson] {
        assert!(Loose::schema_for(d).is_ok(), "{d}");
    }
}

/// Gemini's `responseSchema` refuses an OBJECT without properties ("properties: should be
/// non-empty for OBJECT type", browser-use/browser-use#3786), and no reference writes one
/// another way: an empty struct, `{"type": "object"}` and a map of any value are errors.
#[test]
fn gemini_refuses_objects_without_properties() {
    #[derive(Deserialize, JsonSchema)]
    struct Nothing {}
    #[derive(Deserialize, JsonSchema, LlmOutput)]
    #[allow(dead_code)]
    struct HasNothing {
        nothing: Nothing,
    }
    // (At the reference: gemini inlines it there.)
    let e = HasNothing::schema_for(Dialect::Gemini).unwrap_err();
    assert_eq!(
        (e.kind(), e.path(), e.expected()),
        (
            ErrorKind::InvalidSchema,
            "/properties/nothing",
            "an object with at least one property (gemini refuses an OBJECT without properties)"
        )
    );
    let object = serde_json::json!({"type": "object", "properties": {"o": {"type": ["object", "null"], "properties": {}}}});
    assert_eq!(
        refused(&object, Dialect::Gemini),
        invalid(
            "/properties/o",
            "expected an object with at least one property (gemini refuses an OBJECT without \
             properties), found {\"type\":[\"object\",\"null\"],\"properties\":{}}"
        )
    );
    // A map of any value: "any value"'s error, where the values' schema is.
    #[derive(Deserialize, JsonSchema, LlmOutput)]
    #[allow(dead_code)]
    struct AnyMap {
        extra: HashMap<String, Value>,
    }
    let e = AnyMap::schema_for(Dialect::Gemini).unwrap_err();
    assert_eq!(
        (e.path(), e.expected()),
        (
            "/properties/extra/additionalProperties",
            "a typed schema (gemini cannot express \"any value\")"
        )
    );
    // The root too.
    let root = serde_json::json!({"type": "object"});
    assert_eq!(
        refused(&root, Dialect::Gemini),
        invalid(
            "",
            "expected an object with at least one property (gemini refuses an OBJECT without \
             properties), found {\"type\":\"object\"}"
        )
    );
}

/// Draft 7's `definitions` (schemars 0.8, zod-to-json-schema) are `$defs` in every dialect:
/// kept for OpenAI and Anthropic (and counted against OpenAI's limits), inlined for Gemini,
/// written as `$defs` for gemini-json, the one keyword its guide lists, with the `$ref`s into
/// them. No output holds a `$ref` to what it does not hold.
#[test]
fn draft_7_definitions_are_definitions() {
    let s = serde_json::json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/definitions/A"},
            "definitions": {"$ref": "#/properties/a"},
            "b": {"$ref": "#/$defs/B"}
        },
        "required": ["a", "definitions", "b"],
        "definitions": {"A": {"type": "object", "properties": {"x": {"$ref": "#/definitions/A/definitions/X"}}, "required": ["x"], "definitions": {"X": {"type": "string"}}}},
        "$defs": {"B": {"type": "integer"}}
    });
    assert_eq!(
        to(&s, Dialect::GeminiJson).unwrap(),
        serde_json::json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/A"},
                "definitions": {"$ref": "#/properties/a"},
                "b": {"$ref": "#/$defs/B"}
            },
            "required": ["a", "definitions", "b"],
            "$defs": {
                "A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A/$defs/X"}}, "required": ["x"], "$defs": {"X": {"type": "string"}}},
                "B": {"type": "integer"}
            }
        })
    );
    let inlined = to(&s, Dialect::Gemini).unwrap();
    assert_eq!(
        inlined["properties"]["a"],
        serde_json::json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "propertyOrdering": ["x"]})
    );
    let out = to(&s, Dialect::OpenAiStrict).unwrap();
    assert_eq!(out["definitions"]["A"]["additionalProperties"], false);
    assert_eq!(
        out["properties"]["a"],
        serde_json::json!({"$ref": "#/definitions/A"})
    );
    // Every `$ref` resolves in what is sent.
    for d in Dialect::ALL {
        let out = to(&s, d).unwrap();
        walk(&out, "", &mut |path, m| {
            if let Some(Value::String(r)) = m.get("$ref") {
                assert!(out.pointer(&r[1..]).is_some(), "{d} {path}: {r}");
            }
        });
    }

    // A name in both: gemini-json cannot write them as one `$defs`.
    let both = serde_json::json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/definitions/A"}},
        "$defs": {"A": {"type": "string"}},
        "definitions": {"A": {"type": "integer"}}
    });
    assert_eq!(
        refused(&both, Dialect::GeminiJson),
        invalid(
            "/definitions/A",
            "expected a definition whose name is not also in $defs (gemini-json writes draft \
             7's definitions as $defs), found {\"type\":\"integer\"}"
        )
    );

    // OpenAI's limits count properties in `definitions` as in `$defs`.
    for key in ["$defs", "definitions"] {
        let defs: serde_json::Map<String, Value> = (0..2)
            .map(|i| {
                let props: serde_json::Map<String, Value> = (0..2501)
                    .map(|p| (format!("p{p}"), serde_json::json!({"type": "integer"})))
                    .collect();
                (
                    format!("D{i}"),
                    serde_json::json!({"type": "object", "properties": props}),
                )
            })
            .collect();
        let s = serde_json::json!({"type": "object", "properties": {"d": {"type": "string"}}, key: defs});
        assert_eq!(
            refused(&s, Dialect::OpenAiStrict),
            (
                ErrorKind::InvalidSchema,
                String::new(),
                "expected at most 5000 object properties in all (OpenAI), found 5003 properties"
                    .to_owned()
            ),
            "{key}"
        );
    }
}

/// A map's key schema from `propertyNames` is a string's, which `propertyNames` seldom says:
/// the `{"key", "value"}` pairs say it.
#[test]
fn a_map_key_from_property_names_is_a_string() {
    let s = serde_json::json!({
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1}},
        "required": ["m"]
    });
    let key = serde_json::json!({"type": "string", "pattern": "^[a-z]+$"});
    for d in [Dialect::OpenAiStrict, Dialect::Gemini] {
        let out = to(&s, d).unwrap();
        assert_eq!(
            out["properties"]["m"]["items"]["properties"]["key"], key,
            "{d}"
        );
        assert_eq!(out["properties"]["m"]["minItems"], 1, "{d}");
    }
}

/// What OpenAI strict mode has no keyword for is written into `description`, one `key: value`
/// per keyword, as `default` and unsupported `format`s are: the model still sees the bound,
/// and recovery still checks it. `minLength`/`maxLength` among them: OpenAI's guide does not
/// list them (only third parties report them enforced).
#[test]
fn openai_describes_what_it_removes() {
    let s = serde_json::json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": "The code.", "minLength": 1, "maxLength": 20, "examples": ["ab"]},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "named": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "required": ["a"],
                "propertyNames": {"pattern": "^[a-z]$"},
                "patternProperties": {"^x": {"type": "string"}},
                "minProperties": 1,
                "maxProperties": 2
            },
            "when": {"type": "string", "format": "uri", "default": "x"}
        },
        "required": ["code", "tags", "named", "when"]
    });
    let out = to(&s, Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        out["properties"],
        serde_json::json!({
            "code": {"type": "string", "description": "The code. (minLength: 1, maxLength: 20, examples: [\"ab\"])"},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "uniqueItems: true"},
            "named": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "required": ["a"],
                "description": "propertyNames: {\"pattern\":\"^[a-z]$\"}, patternProperties: {\"^x\":{\"type\":\"string\"}}, minProperties: 1, maxProperties: 2",
                "additionalProperties": false
            },
            "when": {"type": "string", "description": "format: uri, default: \"x\""}
        })
    );
}

/// gemini-json keeps the keywords Gemini's guide lists for `responseJsonSchema`; the others
/// that bound the value are written into `description`, as for OpenAI. Beside a `$ref`, the
/// `description` stays ("cannot contain any other fields except for description and
/// default", su-kaka/gcli2api#374).
#[test]
fn gemini_json_describes_what_it_removes_and_keeps_a_description_by_a_ref() {
    let s = serde_json::json!({
        "type": "object",
        "properties": {
            "slug": {"type": "string", "pattern": "^[a-z]+$", "minLength": 2},
            "ids": {"type": "array", "items": {"type": "integer", "multipleOf": 2}, "uniqueItems": true},
            "home": {"$ref": "#/$defs/Place", "description": "Where they live.", "default": {"name": "x"}, "title": "Home"}
        },
        "required": ["slug", "ids", "home"],
        "$defs": {"Place": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "description": "A place."}}
    });
    let out = to(&s, Dialect::GeminiJson).unwrap();
    assert_eq!(
        out["properties"],
        serde_json::json!({
            "slug": {"type": "string", "description": "pattern: \"^[a-z]+$\", minLength: 2"},
            "ids": {"type": "array", "items": {"type": "integer", "description": "multipleOf: 2"}, "description": "uniqueItems: true"},
            "home": {"$ref": "#/$defs/Place", "description": "Where they live. (default: {\"name\":\"x\"})"}
        })
    );
    // The derived form: a documented field of a named type.
    let s = Documented::schema_for(Dialect::GeminiJson).unwrap();
    assert_eq!(
        s["properties"]["payment"],
        serde_json::json!({"$ref": "#/$defs/Payment", "description": "How it is paid."})
    );
}
