//! Every dialect's schema accepts the JSON of any value of the types it was made from
//! (validated with the `jsonschema` crate), and each dialect's output for the examples' types
//! is pinned by a committed snapshot in `tests/snapshots/` (`LLMOUT_BLESS=1` rewrites them).

use llmout::schema::dialect::Dialect;
use llmout::LlmOutput;
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The quickstart's type (examples/quickstart.rs).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, LlmOutput)]
struct Review {
    /// One sentence on the change as a whole.
    summary: String,
    /// The verdict.
    status: Status,
    /// Overall quality from 0 to 10.
    score: u8,
    /// Problems found, most important first.
    issues: Vec<Issue>,
}

/// The review verdict.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
enum Status {
    Approved,
    NeedsReview,
    Rejected,
}

/// One problem in the change.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
struct Issue {
    file: String,
    line: u32,
    message: String,
}

/// Every serde enum representation, options and nesting.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, LlmOutput)]
struct Doc {
    title: String,
    ratio: f64,
    tags: Vec<String>,
    note: Option<String>,
    items: Vec<Item>,
    shipping: Option<Shipping>,
    answer: Answer,
    payment: Payment,
    // Tuples: of one element type, and of several.
    at: (f64, f64),
    label: (String, u8),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Item {
    Text { body: String },
    Count { n: u32, unit: Option<String> },
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Shipping {
    Pickup,
    Post(String),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Answer {
    Number(f64),
    Words { text: String },
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
enum Payment {
    Cash,
    Card { last4: String },
}

/// A recursive type (not expressible in `gemini`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, LlmOutput)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

/// Gemini's OpenAPI `nullable: true` in JSON Schema terms, so a JSON Schema validator can
/// check the gemini dialect.
fn openapi_to_json_schema(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out: serde_json::Map<String, Value> = m
                .iter()
                .filter(|(k, _)| k.as_str() != "nullable" && k.as_str() != "propertyOrdering")
                .map(|(k, x)| {
                    let x = match k.as_str() {
                        "properties" => Value::Object(
                            x.as_object()
                                .unwrap()
                                .iter()
                                .map(|(n, s)| (n.clone(), openapi_to_json_schema(s)))
                                .collect(),
                        ),
                        "items" => openapi_to_json_schema(x),
                        "anyOf" => Value::Array(
                            x.as_array()
                                .unwrap()
                                .iter()
                                .map(openapi_to_json_schema)
                                .collect(),
                        ),
                        _ => x.clone(),
                    };
                    (k.clone(), x)
                })
                .collect();
            if m.get("nullable") == Some(&Value::Bool(true)) {
                let inner = Value::Object(std::mem::take(&mut out));
                return json!({"anyOf": [inner, {"type": "null"}]});
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn validators<T: LlmOutput>(dialects: &[Dialect]) -> Vec<(Dialect, jsonschema::Validator)> {
    dialects
        .iter()
        .map(|&d| {
            let mut s = T::schema_for(d).unwrap();
            if d == Dialect::Gemini {
                s = openapi_to_json_schema(&s);
            }
            (d, jsonschema::validator_for(&s).unwrap())
        })
        .collect()
}

fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 \"'{}é]{0,8}").unwrap()
}

fn review() -> impl Strategy<Value = Review> {
    let status = prop_oneof![
        Just(Status::Approved),
        Just(Status::NeedsReview),
        Just(Status::Rejected)
    ];
    let issue = (text(), any::<u32>(), text()).prop_map(|(file, line, message)| Issue {
        file,
        line,
        message,
    });
    (
        text(),
        status,
        any::<u8>(),
        proptest::collection::vec(issue, 0..3),
    )
        .prop_map(|(summary, status, score, issues)| Review {
            summary,
            status,
            score,
            issues,
        })
}

fn doc() -> impl Strategy<Value = Doc> {
    let item = prop_oneof![
        text().prop_map(|body| Item::Text { body }),
        (any::<u32>(), proptest::option::of(text())).prop_map(|(n, unit)| Item::Count { n, unit }),
    ];
    let shipping = proptest::option::of(prop_oneof![
        Just(Shipping::Pickup),
        text().prop_map(Shipping::Post)
    ]);
    let answer = prop_oneof![
        (-1e6f64..1e6).prop_map(Answer::Number),
        text().prop_map(|text| Answer::Words { text })
    ];
    let payment = prop_oneof![
        Just(Payment::Cash),
        text().prop_map(|last4| Payment::Card { last4 })
    ];
    (
        (
            text(),
            -1e6f64..1e6,
            proptest::collection::vec(text(), 0..3),
            proptest::option::of(text()),
        ),
        (
            proptest::collection::vec(item, 0..3),
            shipping,
            answer,
            payment,
        ),
        ((-1e6f64..1e6, -1e6f64..1e6), (text(), any::<u8>())),
    )
        .prop_map(
            |((title, ratio, tags, note), (items, shipping, answer, payment), (at, label))| Doc {
                title,
                ratio,
                tags,
                note,
                items,
                shipping,
                answer,
                payment,
                at,
                label,
            },
        )
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = text().prop_map(|name| Tree {
        name,
        children: vec![],
    });
    leaf.prop_recursive(3, 12, 3, |inner| {
        (text(), proptest::collection::vec(inner, 0..3))
            .prop_map(|(name, children)| Tree { name, children })
    })
}

fn check(
    validators: &[(Dialect, jsonschema::Validator)],
    value: &Value,
) -> Result<(), TestCaseError> {
    for (d, v) in validators {
        let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
        prop_assert!(errors.is_empty(), "{}: {:?} for {}", d, errors, value);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_dialect_accepts_every_review(r in review()) {
        check(&validators::<Review>(&Dialect::ALL), &serde_json::to_value(r).unwrap())?;
    }

    #[test]
    fn every_dialect_accepts_every_doc(d in doc()) {
        check(&validators::<Doc>(&Dialect::ALL), &serde_json::to_value(d).unwrap())?;
    }

    #[test]
    fn every_dialect_that_allows_recursion_accepts_every_tree(t in tree()) {
        let dialects = [Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::GeminiJson];
        check(&validators::<Tree>(&dialects), &serde_json::to_value(t).unwrap())?;
    }
}

fn snapshot<T: LlmOutput>(name: &str) {
    for d in Dialect::ALL {
        let path = format!(
            "{}/tests/snapshots/{name}.{d}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let got = match T::schema_for(d) {
            Ok(s) => serde_json::to_string_pretty(&s).unwrap(),
            Err(e) => serde_json::to_string_pretty(&json!({"error": e.to_string()})).unwrap(),
        } + "\n";
        if std::env::var_os("LLMOUT_BLESS").is_some() {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (run with LLMOUT_BLESS=1)"));
        assert_eq!(got, want, "{path} differs (LLMOUT_BLESS=1 rewrites it)");
    }
}

#[test]
fn snapshots() {
    snapshot::<Review>("review");
    snapshot::<Doc>("doc");
    snapshot::<Tree>("tree");
}
