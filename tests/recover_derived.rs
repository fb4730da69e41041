//! Recovery on derived types: nested structs, collections, maps, `Option`, every serde enum
//! representation, and the serde attributes that change the schema.

use std::collections::HashMap;

use llmout::{ErrorKind, LlmOutput, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

fn kinds<T>(r: &llmout::ValidationResult<T>) -> Vec<(WarningKind, String)> {
    r.warnings
        .iter()
        .map(|w| (w.kind, w.path.clone()))
        .collect()
}

fn k(kind: WarningKind, path: &str) -> (WarningKind, String) {
    (kind, path.to_owned())
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct Order {
    order_id: u64,
    customer: Customer,
    lines: Vec<Line>,
    notes: Option<String>,
    #[serde(default)]
    priority: u8,
    totals: HashMap<String, f64>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Customer {
    full_name: String,
    vip: bool,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Line {
    sku: String,
    qty: u32,
    price: f64,
}

#[test]
fn nested_struct_with_many_problems() {
    let reply = r#"{
        "order_id": "17 or 18",
        "customer": {"FullName": "Ada", "vip": "yes"},
        "lines": {"sku": 42, "qty": "3", "price": "€9.99"},
        "totals": {"net": "1,000.50", "tax": 190}
    }"#;
    let r = Order::from_llm(reply);
    // order_id is required and "17 or 18" has two numbers: not a guess.
    let e = r.error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Ambiguous);
    assert_eq!(e.path(), "/orderId");

    let reply = reply.replace("17 or 18", "#17");
    let r = Order::from_llm(&reply);
    assert_eq!(
        r.value,
        Some(Order {
            order_id: 17,
            customer: Customer {
                full_name: "Ada".into(),
                vip: true
            },
            lines: vec![Line {
                sku: "42".into(),
                qty: 3,
                price: 9.99
            }],
            notes: None,
            priority: 0,
            totals: HashMap::from([("net".into(), 1000.5), ("tax".into(), 190.0)]),
        })
    );
    assert_eq!(
        kinds(&r),
        [
            k(WarningKind::KeyRenamed, "/orderId"),
            k(WarningKind::Coerced, "/orderId"),
            k(WarningKind::KeyRenamed, "/customer/fullName"),
            k(WarningKind::Coerced, "/customer/vip"),
            k(WarningKind::Reshaped, "/lines"),
            k(WarningKind::Coerced, "/lines/0/sku"),
            k(WarningKind::Coerced, "/lines/0/qty"),
            k(WarningKind::Coerced, "/lines/0/price"),
            k(WarningKind::Coerced, "/totals/net"),
        ]
    );
}

#[test]
fn serde_default_fields_are_not_invented() {
    // `priority` has #[serde(default)]: not required, so a missing one is serde's business and
    // no warning; a missing required field is filled and reported.
    let r = Order::from_llm(
        r#"{"orderId": 1, "customer": {"fullName": "A", "vip": false}, "lines": [], "totals": {}, "notes": null}"#,
    );
    let v = r.value.unwrap();
    assert_eq!(v.priority, 0);
    assert!(r
        .warnings
        .iter()
        .all(|w| !matches!(w.kind, WarningKind::MissingField)));
}

// ---------------------------------------------------------------- enum representations

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum External {
    Stop,
    Say(String),
    Move { x: i32, y: i32 },
}

#[test]
fn externally_tagged() {
    assert_eq!(External::from_llm("\"stop\"").value, Some(External::Stop));
    assert_eq!(
        External::from_llm(r#"{"say": 5}"#).value,
        Some(External::Say("5".into()))
    );
    let r = External::from_llm(r#"{"MOVE": {"x": "1", "y": 2.0}}"#);
    assert_eq!(r.value, Some(External::Move { x: 1, y: 2 }));
    assert_eq!(
        kinds(&r),
        [
            k(WarningKind::KeyRenamed, "/Move"),
            k(WarningKind::Coerced, "/Move/x"),
            k(WarningKind::Coerced, "/Move/y"),
        ]
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Internal {
    Click { target: String },
    TypeText { text: String, submit: bool },
}

#[test]
fn internally_tagged() {
    let r = Internal::from_llm(r#"{"type": "Type Text", "text": "hi", "submit": "no"}"#);
    assert_eq!(
        r.value,
        Some(Internal::TypeText {
            text: "hi".into(),
            submit: false
        })
    );
    assert_eq!(
        kinds(&r),
        [
            k(WarningKind::EnumMatched, "/type"),
            k(WarningKind::Coerced, "/submit"),
        ]
    );
    // The cheapest branch wins: `target` fits Click exactly.
    let r = Internal::from_llm(r##"{"type": "CLICK", "target": "#ok"}"##);
    assert_eq!(
        r.value,
        Some(Internal::Click {
            target: "#ok".into()
        })
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Num(i64),
    Pair { a: String, b: String },
}

#[test]
fn adjacently_tagged() {
    let r = Adjacent::from_llm(r#"{"t": "num", "c": "12,500"}"#);
    assert_eq!(r.value, Some(Adjacent::Num(12500)));
    let r = Adjacent::from_llm(r#"{"t": "Pair", "c": {"a": "x"}}"#);
    assert_eq!(
        r.value,
        Some(Adjacent::Pair {
            a: "x".into(),
            b: "".into()
        })
    );
    assert_eq!(kinds(&r), [k(WarningKind::MissingField, "/c/b")]);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(untagged)]
enum Untagged {
    Point { x: f64, y: f64 },
    Label(String),
}

#[test]
fn untagged() {
    let r = Untagged::from_llm(r#"{"X": "1.5", "y": 2}"#);
    assert_eq!(r.value, Some(Untagged::Point { x: 1.5, y: 2.0 }));
    let r = Untagged::from_llm("[\"just text\"]");
    assert_eq!(r.value, Some(Untagged::Label("just text".into())));
    assert_eq!(kinds(&r), [k(WarningKind::Reshaped, "")]);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum Verdict {
    Approved,
    NeedsReview,
    Rejected,
}

#[test]
fn unit_enum_in_words() {
    for (reply, expected) in [
        ("\"needs review\"", Verdict::NeedsReview),
        ("\"**Approved**\"", Verdict::Approved),
        ("\"REJECTED.\"", Verdict::Rejected),
        ("The change is approved.", Verdict::Approved),
    ] {
        let r = Verdict::from_llm(reply);
        assert_eq!(r.value, Some(expected), "{reply}");
        assert!(r.recovered);
    }
    let r = Verdict::from_llm("\"approved or rejected\"");
    assert_eq!(r.error.unwrap().kind(), ErrorKind::Ambiguous);
}

// ---------------------------------------------------------------- flatten

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Page {
    title: String,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Meta {
    author: String,
    year: u16,
}

#[test]
fn flattened_fields_are_recovered_in_place() {
    let r = Page::from_llm(r#"{"Title": "T", "author": "A", "year": "2024"}"#);
    assert_eq!(
        r.value,
        Some(Page {
            title: "T".into(),
            meta: Meta {
                author: "A".into(),
                year: 2024
            }
        })
    );
    assert_eq!(
        kinds(&r),
        [
            k(WarningKind::KeyRenamed, "/title"),
            k(WarningKind::Coerced, "/year")
        ]
    );
}

// ---------------------------------------------------------------- strict policy

#[test]
fn strict_policy_refuses_every_recovery() {
    let strict = llmout::Options::strict();
    let r = Verdict::from_llm_with("\"needs review\"", &strict);
    assert_eq!(r.error.unwrap().kind(), ErrorKind::Forbidden);
    // Extraction and syntax are still fine under strict.
    let r = Verdict::from_llm_with("```json\n\"NeedsReview\"\n```", &strict);
    assert_eq!(r.value, Some(Verdict::NeedsReview));
}

#[test]
fn syntax_warnings_follow_their_value_to_where_recovery_put_it() {
    // The trailing comma sits in "Lines" (renamed to "lines") inside an object that recovery
    // wraps in a one-element array: the warning names the place in the final value.
    let reply = r#"{"orderId": 1, "customer": {"fullName": "Ada", "vip": true},
        "Lines": {"sku": "a", "qty": 1, "price": 2.0, 'x': [1,],}, "totals": {}}"#;
    let r = Order::from_llm(reply);
    assert!(r.error.is_none(), "{:?}", r.error);
    let repaired: Vec<String> = r
        .warnings
        .iter()
        .filter(|w| matches!(w.kind, WarningKind::Repaired(_)))
        .map(|w| w.path.clone())
        .collect();
    // The single-quoted key is named by its object; the comma in [1,] by the array.
    assert_eq!(repaired, ["/lines/0", "/lines/0/x", "/lines/0"]);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Chapter {
    n: u32,
    text: String,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Book {
    title: String,
    chapters: Vec<Chapter>,
}

/// A reply of several megabytes is read item by item (the book's chapters one at a time,
/// `T` deserialized from the value's text as it is written): the value and the warnings are
/// those of a short reply of the same shape, chapter for chapter.
#[test]
fn a_reply_of_megabytes_comes_to_the_value_a_short_one_does() {
    use llmout::RepairKind::{QuoteStyle, TrailingComma, UnquotedKey};
    use WarningKind::{Coerced, KeyRenamed, Repaired};
    let chapters = 40;
    let text = |n: u32| format!("{n} ").repeat(50_000);
    let mut reply = String::from("Here is the book:\n```json\n{Title: 'Notes', chapters: [");
    for n in 0..chapters {
        reply.push_str(&format!("{{n: '{n}', 'text': '{}'}}, ", text(n)));
    }
    reply.push_str("]}\n```");
    assert!(reply.len() > 4 << 20, "{}", reply.len());

    let r = Book::from_llm(&reply);
    let book = Book {
        title: "Notes".to_owned(),
        chapters: (0..chapters)
            .map(|n| Chapter { n, text: text(n) })
            .collect(),
    };
    assert_eq!(r.value, Some(book));
    // The parser's fixes in the reply's order, then recovery's: the key renamed, and each
    // chapter's number read from its string.
    let mut warnings = vec![
        k(Repaired(UnquotedKey), ""),
        k(Repaired(QuoteStyle), "/title"),
        k(Repaired(UnquotedKey), ""),
    ];
    for n in 0..chapters {
        let at = format!("/chapters/{n}");
        warnings.extend([
            k(Repaired(UnquotedKey), &at),
            k(Repaired(QuoteStyle), &format!("{at}/n")),
            k(Repaired(QuoteStyle), &at),
            k(Repaired(QuoteStyle), &format!("{at}/text")),
        ]);
    }
    warnings.extend([
        k(Repaired(TrailingComma), "/chapters"),
        k(KeyRenamed, "/title"),
    ]);
    warnings.extend((0..chapters).map(|n| k(Coerced, &format!("/chapters/{n}/n"))));
    assert_eq!(kinds(&r), warnings);
    assert!(r.recovered);
}

/// A refund as an extraction type might hold it.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Refund {
    amount: f64,
    rating: u8,
    approved: bool,
}

#[test]
fn money_scores_and_unknown_answers_are_read_as_the_model_meant_them() {
    let said = |r: &llmout::ValidationResult<Refund>| -> Vec<String> {
        r.warnings.iter().map(ToString::to_string).collect()
    };
    // A minus sign before the currency sign is the amount's.
    let r = Refund::from_llm(r#"{"amount": "-$45.00", "rating": 4, "approved": "yes"}"#);
    assert_eq!(
        r.value,
        Some(Refund {
            amount: -45.0,
            rating: 4,
            approved: true
        })
    );
    assert_eq!(
        said(&r),
        [
            "/amount: read \"-$45.00\" as the number -45",
            "/approved: read \"yes\" as the boolean true"
        ]
    );
    // `5/5` for an integer: a score on a scale, or a fraction.
    let e = Refund::from_llm(r#"{"amount": 1, "rating": "5/5", "approved": true}"#)
        .error
        .unwrap();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Ambiguous, "/rating"));
    // "N/A" is no "no".
    let e = Refund::from_llm(r#"{"amount": 1, "rating": 5, "approved": "N/A"}"#)
        .error
        .unwrap();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Mismatch, "/approved"));
}
