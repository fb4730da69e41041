//! Any value serialized by serde_json comes back equal with no warnings — as it is, pretty,
//! in a markdown fence, in prose, or after a reasoning block.

use std::collections::BTreeMap;

use llmout::LlmOutput;
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, LlmOutput)]
struct Report {
    title: String,
    score: i64,
    ratio: f64,
    ok: bool,
    tags: Vec<String>,
    note: Option<String>,
    status: Status,
    items: Vec<Item>,
    extra: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
enum Status {
    Draft,
    NeedsReview,
    Done,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Item {
    Text { body: String },
    Count { n: u32, unit: Option<String> },
}

fn text() -> impl Strategy<Value = String> {
    // Braces, quotes, backslashes, backticks, newlines and non-ASCII: what breaks naive parsers.
    proptest::string::string_regex("[a-zA-Z0-9 {}\\[\\]\"'\\\\`:,\\n\\té😀<>/-]{0,24}").unwrap()
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        text().prop_map(|body| Item::Text { body }),
        (any::<u32>(), proptest::option::of(text())).prop_map(|(n, unit)| Item::Count { n, unit }),
    ]
}

fn report() -> impl Strategy<Value = Report> {
    (
        (text(), any::<i64>(), -1.0e12f64..1.0e12, any::<bool>()),
        (
            proptest::collection::vec(text(), 0..4),
            proptest::option::of(text()),
            prop_oneof![
                Just(Status::Draft),
                Just(Status::NeedsReview),
                Just(Status::Done)
            ],
            proptest::collection::vec(item(), 0..4),
            proptest::collection::btree_map(text(), any::<u32>(), 0..3),
        ),
    )
        .prop_map(
            |((title, score, ratio, ok), (tags, note, status, items, extra))| Report {
                title,
                score,
                ratio,
                ok,
                tags,
                note,
                status,
                items,
                extra,
            },
        )
}

fn assert_clean(reply: &str, expected: &Report) {
    let r = Report::from_llm(reply);
    assert_eq!(r.error, None, "{reply}");
    assert_eq!(r.value.as_ref(), Some(expected), "{reply}");
    assert!(r.warnings.is_empty(), "{:?}\n{reply}", r.warnings);
    assert!(!r.recovered);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn serialized_values_come_back_unchanged(report in report()) {
        let compact = serde_json::to_string(&report).unwrap();
        let pretty = serde_json::to_string_pretty(&report).unwrap();
        assert_clean(&compact, &report);
        assert_clean(&pretty, &report);
        assert_clean(&format!("```json\n{pretty}\n```"), &report);
        assert_clean(&format!("~~~\n{compact}\n~~~\n"), &report);
        assert_clean(&format!("Here is the report you asked for:\n\n{pretty}\n\nLet me know!"), &report);
        assert_clean(&format!("Sure! ```json\n{compact}\n``` Hope it helps."), &report);
        assert_clean(&format!("<think>Draft: {{\"title\": 1}}</think>\n{compact}"), &report);
        assert_clean(&format!("<answer>{compact}</answer>"), &report);
    }
}
