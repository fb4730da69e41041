//! The typed `Stream<T>` and `tools::Stream` fed the same text in two different random
//! chunkings: never panic, and what they end with does not depend on the chunking; `finish`
//! is `from_llm` (typed) and `tools::parse` (tools) on the whole text.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use llmout::LlmOutput;

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Report {
    title: String,
    score: Option<f64>,
    status: Status,
    tags: Vec<String>,
    items: Vec<Item>,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Item {
    Text { body: String },
    Count { n: u32 },
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
enum Status {
    Open,
    NeedsReview,
    Done,
}

fuzz_target!(|data: &[u8]| {
    let split = usize::from(data.first().copied().unwrap_or(0) % 32).min(data.len());
    let sizes = data.get(1..split).unwrap_or_default();
    let text = String::from_utf8_lossy(data.get(split..).unwrap_or_default());
    let other: Vec<u8> = sizes.iter().rev().map(|b| b.wrapping_mul(7)).collect();

    let mut finals = Vec::new();
    for sizes in [sizes, &other[..]] {
        let mut s = llmout::Stream::<Report>::new();
        for chunk in common::chunks(&text, sizes) {
            let _ = s.push(chunk).state("/items/0");
        }
        let partial = s.partial().value().cloned();
        finals.push((partial, s.finish()));
    }
    assert_eq!(finals[0], finals[1]);
    assert_eq!(finals[0].1, Report::from_llm(&text));

    let whole = llmout::tools::parse(&text);
    for sizes in [sizes, &other[..]] {
        let mut s = llmout::tools::Stream::new();
        for chunk in common::chunks(&text, sizes) {
            s.push(chunk);
            if let Some(c) = s.current() {
                let _ = (c.name, c.arguments(), c.state(""));
            }
        }
        assert_eq!(s.finish(), whole);
    }
});
