//! Tool-call parsing throughput (issue 8): replies of 1 000 calls in three families.
//!
//! Run: `cargo bench --bench tools`. Results are in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn replies() -> Vec<(&'static str, String)> {
    let n = 1_000;
    let hermes: String = (0..n)
        .map(|i| format!("<tool_call>\n{{\"name\": \"read_file\", \"arguments\": {{\"path\": \"src/{i}.rs\", \"lines\": [1, 20]}}}}\n</tool_call>\n"))
        .collect();
    let invoke: String = (0..n)
        .map(|i| format!("<invoke name=\"search\">\n<parameter name=\"query\">item {i} \"quoted\"</parameter>\n<parameter name=\"limit\">5</parameter>\n</invoke>\n"))
        .collect();
    let mistral: String = (0..n)
        .map(|i| format!("[TOOL_CALLS]get_time[ARGS]{{\"tz\": \"UTC+{i}\"}}"))
        .collect();
    vec![
        ("hermes", format!("I'll read them all.\n{hermes}")),
        (
            "anthropic_invoke",
            format!("<function_calls>\n{invoke}</function_calls>"),
        ),
        ("mistral", mistral),
    ]
}

fn tools(c: &mut Criterion) {
    let mut g = c.benchmark_group("tools");
    for (name, text) in replies() {
        assert_eq!(
            llmout::tools::parse(&text).tool_calls.len(),
            1_000,
            "{name}"
        );
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| llmout::tools::parse(black_box(t)))
        });
    }
    g.finish();
}

criterion_group!(benches, tools);
criterion_main!(benches);
