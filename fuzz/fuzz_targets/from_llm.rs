//! The whole pipeline on any bytes, into a nested, recursive, enum-bearing type: never
//! panics; a value or an error, never both or neither.
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
