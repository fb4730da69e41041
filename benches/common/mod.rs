//! Inputs shared by the benches: the messy records and the adversarial inputs (`repair.rs`,
//! `race.rs`) and the `Report` type (`pipeline.rs`, `race.rs`). Each bench uses a part of this module.
#![allow(dead_code)]

use std::collections::BTreeMap;

use llmout::repair::{parse, parse_borrowed, to_string, RepairOptions};
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The messy records; `common` leaves out the two mistakes the Rust `jsonrepair` crate gets
/// wrong (`#` comments become `//`, invalid escapes `C:\xyz` become valid `C:\\xyz`), for a
/// race in which it can be correct.
pub fn messy_with(n: usize, common: bool) -> (String, Value) {
    let (comment, sep) = if common { ("//", "\\\\") } else { ("#", "\\") };
    let mut text = String::from("// generated records\n[\n");
    let mut expected = Vec::with_capacity(n);
    for i in 0..n {
        text.push_str(&format!(
            "  {{id: {i}, 'name': 'Item {i}', \"desc\": \"She said \"hi\" to item {i}\", \
             tags: ['a', 'b',], active: True, score: .5, note: None, \
             \"path\": \"C:{sep}xyz{sep}{i}\", nested: {{\"x\": [1, 2, 3,],}}, {comment} end\n  }},\n"
        ));
        expected.push(json!({
            "id": i, "name": format!("Item {i}"), "desc": format!("She said \"hi\" to item {i}"),
            "tags": ["a", "b"], "active": true, "score": 0.5, "note": null,
            "path": format!("C:\\xyz\\{i}"), "nested": {"x": [1, 2, 3]}
        }));
    }
    text.push(']');
    (text, Value::Array(expected))
}

/// `n` records whose text fields are sentences of a few hundred bytes, as model answers are:
/// the valid document, a messy one (single-quoted strings, unquoted keys, trailing commas),
/// and the value both mean.
pub fn prose(n: usize) -> (String, String, Value) {
    let sentence = "The parser reads each byte once, keeps what it was told, and says what \
                    it changed; a model's answer is rarely longer than a page, yet it is \
                    read in full before anything else can happen. ";
    let mut messy = String::from("[\n");
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        let summary = format!("Item {i}. {sentence}");
        let detail = sentence.repeat(2);
        messy.push_str(&format!(
            "  {{id: {i}, summary: '{summary}', \"detail\": \"{detail}\",}},\n"
        ));
        values.push(json!({"id": i, "summary": summary, "detail": detail}));
    }
    messy.push(']');
    let value = Value::Array(values);
    (serde_json::to_string(&value).unwrap(), messy, value)
}

/// A report with a nested internally tagged enum list, a map, an option and a unit enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, LlmOutput)]
pub struct Report {
    pub title: String,
    pub score: i64,
    pub ratio: f64,
    pub ok: bool,
    pub tags: Vec<String>,
    pub note: Option<String>,
    pub status: Status,
    pub items: Vec<Item>,
    pub extra: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Status {
    Draft,
    NeedsReview,
    Done,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    Text { body: String },
    Count { n: u32, unit: Option<String> },
}

pub fn report(items: usize) -> Report {
    Report {
        title: "Quarterly review of the parser".to_owned(),
        score: 8,
        ratio: 0.75,
        ok: true,
        tags: vec!["parser".to_owned(), "speed".to_owned()],
        note: None,
        status: Status::NeedsReview,
        items: (0..items)
            .map(|i| {
                if i % 2 == 0 {
                    Item::Text {
                        body: format!("Finding {i}: the token is compared with ==."),
                    }
                } else {
                    Item::Count {
                        n: i as u32,
                        unit: Some("ms".to_owned()),
                    }
                }
            })
            .collect(),
        extra: (0..8).map(|i| (format!("k{i}"), i)).collect(),
    }
}

/// `Report` with the constraints of a real schema on every field (issue 21): lengths, ranges,
/// a pattern on each tag, a format-free string, bounds on the items' numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, LlmOutput)]
pub struct CheckedReport {
    #[schemars(length(min = 1, max = 72))]
    pub title: String,
    #[schemars(range(min = 0, max = 10))]
    pub score: i64,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ratio: f64,
    pub ok: bool,
    #[schemars(length(max = 8), inner(regex(pattern = "^[a-z]+$")))]
    pub tags: Vec<String>,
    #[schemars(length(max = 200))]
    pub note: Option<String>,
    pub status: Status,
    #[schemars(length(max = 5000))]
    pub items: Vec<CheckedItem>,
    pub extra: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckedItem {
    Text {
        #[schemars(length(min = 1, max = 200))]
        body: String,
    },
    Count {
        #[schemars(range(max = 100_000))]
        n: u32,
        #[schemars(length(max = 8))]
        unit: Option<String>,
    },
}

/// `report(items)` as a `CheckedReport` (it meets every constraint).
pub fn checked_report(items: usize) -> CheckedReport {
    serde_json::from_value(serde_json::to_value(report(items)).unwrap()).unwrap()
}

/// Adversarial inputs of 1 MB, each placed where it costs the parser most.
pub fn adversarial() -> Vec<(&'static str, String)> {
    const N: usize = 1 << 20;
    vec![
        (
            "quotes_in_string",
            format!("{{\"a\": \"{}\"}}", "\"".repeat(N)),
        ),
        (
            "quote_x_in_member",
            format!("{{\"a\": \"{}", "\"x, ".repeat(N / 4)),
        ),
        ("alternating_quotes", "[".to_owned() + &"\"'".repeat(N / 2)),
        ("open_braces", "{".repeat(N)),
        ("open_brackets", "[".repeat(N)),
        ("commas", "[".to_owned() + &",".repeat(N)),
        ("backslashes", format!("[\"{}\"]", "\\".repeat(N))),
        (
            "unquoted_commas",
            format!("{{\"a\": {}}}", "x, ".repeat(N / 3)),
        ),
        // Where a string ends is decided by what follows its quote, past whitespace and
        // comments: items each followed by a comment, and long gaps of both between quotes.
        (
            "commented_items",
            "[".to_owned() + &"\"a\", /* c */ ".repeat(N / 13),
        ),
        (
            "gaps_between_quotes",
            format!(
                "{{\"a\": \"{}",
                format!("\"{} /* c */ // d\n", " ".repeat(200)).repeat(N / 220)
            ),
        ),
        (
            "quotes_in_a_quotation",
            format!("{{\"a\": \"{}\"}}", "x \"y\" ".repeat(N / 8)),
        ),
        // Reasoning blocks between items, brackets and quotes in them; and quotes each
        // followed by a reasoning opener that no closer ends, where a string's end is decided
        // past it.
        (
            "reasoning_between_items",
            "[".to_owned() + &"\"a\", <think>{ ] \"</think> ".repeat(N / 28),
        ),
        (
            "unclosed_reasoning_after_quotes",
            format!("{{\"a\": \"{}", "x\" <think>".repeat(N / 10)),
        ),
        // A member's string left open over a long run of blank lines, or of `#` comment
        // lines, before a quote: where the string could end is weighed at its line breaks,
        // and the run is one gap, weighed once (weighed again at each break, this was
        // quadratic: a million lines took minutes).
        (
            "blank_lines_in_open_string",
            format!("{{\"a\": \"x{}\" and \"y}}", "\n".repeat(N)),
        ),
        (
            "comment_lines_in_open_string",
            format!("{{\"a\": \"x{}\" and \"y}}", "\n# h".repeat(N / 4)),
        ),
        // A string of raw control characters left open: its JSON is six times it, written
        // as it is made where the reply is large (`large::repair_json`, session 46).
        (
            "control_chars_in_open_string",
            format!("{{\"a\": \"{}", "\u{1}".repeat(N)),
        ),
    ]
}

/// Panics unless llmout's parser gets `text` right as a `Value`, as JSON text and as a `Node`.
pub fn assert_llmout_correct(name: &str, text: &str, expected: &Value) {
    let options = RepairOptions::default();
    let value = parse(text, &options).map(|p| p.value);
    assert_eq!(
        value.as_ref().ok(),
        Some(expected),
        "llmout is wrong on {name}"
    );
    let written = to_string(text, &options).map(|p| p.json);
    assert_eq!(
        written
            .ok()
            .and_then(|j| serde_json::from_str::<Value>(&j).ok())
            .as_ref(),
        Some(expected),
        "llmout's text output is wrong on {name}"
    );
    let node = parse_borrowed(text, &options).map(|p| p.value.into_value());
    assert_eq!(
        node.ok().as_ref(),
        Some(expected),
        "llmout's Node is wrong on {name}"
    );
}

/// The `jsonrepair` crate's repair of `text`, read back as a `Value`.
pub fn jsonrepair_value(text: &str) -> Option<Value> {
    let repaired = jsonrepair::repair_to_string(text, &jsonrepair::Options::default()).ok()?;
    serde_json::from_str(&repaired).ok()
}
