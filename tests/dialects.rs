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

#[test]
fn openai_strict_rules_hold() {
    for s in [
        Order::schema_for(Dialect::OpenAiStrict),
        Tree::schema_for(Dialect::OpenAiStrict),
    ] {
        let s = s.unwrap();
        assert_eq!(s["type"], "object");
        walk(&s, "", &mut |path, m| {
            no_vendor_keys(path, m);
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
    // A map cannot be expressed: an error naming it.
    let e = WithMap::schema_for(Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(
        (e.kind(), e.path()),
        (ErrorKind::InvalidSchema, "/properties/counts")
    );
}

#[test]
fn anthropic_rules_hold() {
    for s in [
        Order::schema_for(Dialect::Anthropic),
        Tree::schema_for(Dialect::Anthropic),
        WithMap::schema_for(Dialect::Anthropic),
    ] {
        let s = s.unwrap();
        assert_eq!(s["type"], "object");
        walk(&s, "", &mut |path, m| no_vendor_keys(path, m));
    }
}

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
