//! The whole pipeline on any bytes, into a nested, recursive, enum-bearing type (with an
//! internally tagged enum and a map, which the fast path reads out of serde's sight and
//! checks key by key): never panics; a value or an error, never both or neither.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmout::LlmOutput;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Node {
    name: String,
    score: Option<f64>,
    status: Status,
    tags: Vec<String>,
    children: Vec<Node>,
    #[serde(default)]
    steps: Vec<Step>,
    #[serde(default)]
    counts: std::collections::BTreeMap<String, u32>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(dead_code)]
enum Step {
    Search { query: String },
    Finish { answer: String },
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
enum Status {
    Open,
    NeedsReview,
    Done,
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let r = Node::from_llm(&text);
    assert!(r.value.is_some() != r.error.is_some());
    assert_eq!(r.recovered, !r.warnings.is_empty());
});
