//! Streaming cost (issue 7): a ~1 MB reply fed in 10-byte chunks, against parsing it once.
//! The live view must stay linear: a small constant times one parse, not quadratic re-parsing.
//!
//! Run: `cargo bench --bench streaming`. Results are in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use llmout::stream::Stream;
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;
use std::hint::black_box;

#[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Log {
    entries: Vec<Entry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Entry {
    id: u64,
    message: String,
    tags: Vec<String>,
}

fn reply() -> String {
    let entries: Vec<String> = (0..10_000)
        .map(|i| {
            format!(
                "    {{\"id\": {i}, \"message\": \"Entry {i}: the \\\"quoted\\\" text goes on for a while\", \"tags\": [\"a\", \"b\"]}}"
            )
        })
        .collect();
    format!(
        "<think>Let me list them.</think>\nHere you go:\n```json\n{{\"entries\": [\n{}\n]}}\n```\n",
        entries.join(",\n")
    )
}

fn feed(text: &str, size: usize) -> Stream<Log> {
    let mut s = Stream::<Log>::new();
    let b = text.as_bytes();
    let mut at = 0;
    while at < b.len() {
        let mut end = (at + size).min(b.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        s.push(&text[at..end]);
        at = end;
    }
    s
}

fn streaming(c: &mut Criterion) {
    let text = reply();
    assert!(feed(&text, 10).partial().is_complete());
    assert_eq!(
        Log::from_llm(&text).value.map(|l| l.entries.len()),
        Some(10_000)
    );
    let mut g = c.benchmark_group("streaming");
    g.sample_size(10)
        .throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("from_llm_once", |b| {
        b.iter(|| Log::from_llm(black_box(&text)))
    });
    g.bench_function("repair_parse_once", |b| {
        b.iter(|| llmout::repair_text(black_box(&text), &llmout::Options::default()))
    });
    g.bench_function("push_10_byte_chunks", |b| {
        b.iter(|| feed(black_box(&text), 10))
    });
    g.bench_function("push_10_byte_chunks_and_finish", |b| {
        b.iter(|| feed(black_box(&text), 10).finish())
    });
    g.finish();
}

criterion_group!(benches, streaming);
criterion_main!(benches);
