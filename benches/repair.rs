//! Throughput of the lenient parser (issue 3), compared in the same run with
//! `serde_json::from_str::<Value>` (valid input only), the `jsonrepair` crate 0.1.0 and the
//! `llm_json` crate 1.0.3 (a port of Python's `json-repair`).
//!
//! Run: `cargo bench --bench repair`. Results and the machine they were measured on are in
//! BENCHMARKS.md. The inputs are generated here, deterministically:
//! * `messy`: ~1.9 MB of records with every common mistake (unquoted keys, single quotes,
//!   unescaped inner quotes, Python literals, `.5`, invalid escapes, trailing commas, `#`
//!   comments); `messy_common`: the same without the two mistakes the `jsonrepair` crate gets
//!   wrong (`#` comments and invalid escapes), for a race in which it can be correct;
//! * `valid`: the same records as compact JSON;
//! * `prose`: ~2 MB of records whose text fields are sentences of a few hundred bytes, valid
//!   and messy (single quotes, unquoted keys, trailing commas): long strings, as in answers;
//! * `scaling`: the messy document at 1x, 10x and 100x of ~150 KB;
//! * `adversarial`: 1 MB of `"`, `{`, `[`, `,`, `\` and alternating quotes in the places
//!   where they cost most.

mod common;

use common::{adversarial, assert_llmout_correct, jsonrepair_value, messy_with, prose};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llmout::repair::{parse, parse_borrowed, to_string, to_string_counted, RepairOptions};
use serde_json::{json, Value};
use std::hint::black_box;

/// `n` messy records and the value they mean.
fn messy(n: usize) -> (String, Value) {
    messy_with(n, false)
}

fn llm_json_value(text: &str) -> Option<Value> {
    llm_json::loads(text, &Default::default()).ok()
}

/// Checks llmout's output (it must be right) and reports the peers' (JSON, for run.sh).
fn check(name: &str, text: &str, expected: &Value) -> Value {
    assert_llmout_correct(name, text, expected);
    let correct = json!({
        "jsonrepair": jsonrepair_value(text).as_ref() == Some(expected),
        "llm_json": llm_json_value(text).as_ref() == Some(expected),
    });
    eprintln!(
        "{name}: {} bytes; peers' output correct: {correct}",
        text.len()
    );
    correct
}

/// One group per document: llmout and the Rust peers on the same text.
fn race(c: &mut Criterion, group: &str, text: &str) {
    let options = RepairOptions::default();
    let mut g = c.benchmark_group(group);
    g.sample_size(20)
        .throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("llmout", |b| {
        b.iter_with_large_drop(|| parse(black_box(text), &options))
    });
    g.bench_function("llmout_to_string", |b| {
        b.iter_with_large_drop(|| to_string(black_box(text), &options))
    });
    g.bench_function("llmout_to_string_counted", |b| {
        b.iter_with_large_drop(|| to_string_counted(black_box(text), &options))
    });
    g.bench_function("llmout_to_node", |b| {
        b.iter_with_large_drop(|| parse_borrowed(black_box(text), &options))
    });
    g.bench_function("jsonrepair_to_string", |b| {
        b.iter_with_large_drop(|| {
            jsonrepair::repair_to_string(black_box(text), &jsonrepair::Options::default())
        })
    });
    g.bench_function("jsonrepair_to_value", |b| {
        b.iter_with_large_drop(|| jsonrepair_value(black_box(text)))
    });
    g.bench_function("llm_json_to_value", |b| {
        b.iter_with_large_drop(|| llm_json_value(black_box(text)))
    });
    g.finish();
}

fn messy_and_valid(c: &mut Criterion) {
    let (text, expected) = messy(10_000);
    let (common, _) = messy_with(10_000, true);
    let valid = serde_json::to_string(&expected).unwrap();
    let correct = json!({
        "messy": check("messy", &text, &expected),
        "messy_common": check("messy_common", &common, &expected),
    });
    check("valid", &valid, &expected);
    // benches/peers/run.sh times the Python and npm peers on exactly these inputs.
    if let Ok(dir) = std::env::var("LLMOUT_PEERS_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/messy.json"), &text).unwrap();
        std::fs::write(format!("{dir}/messy_common.json"), &common).unwrap();
        std::fs::write(format!("{dir}/expected.json"), &valid).unwrap();
        std::fs::write(format!("{dir}/rust_correct.json"), correct.to_string()).unwrap();
    }
    race(c, "messy", &text);
    race(c, "messy_common", &common);
    let options = RepairOptions::default();

    let mut g = c.benchmark_group("valid");
    g.sample_size(20)
        .throughput(Throughput::Bytes(valid.len() as u64));
    g.bench_function("llmout", |b| {
        b.iter_with_large_drop(|| parse(black_box(&valid), &options))
    });
    g.bench_function("llmout_to_string", |b| {
        b.iter_with_large_drop(|| to_string(black_box(&valid), &options))
    });
    g.bench_function("llmout_to_node", |b| {
        b.iter_with_large_drop(|| parse_borrowed(black_box(&valid), &options))
    });
    g.bench_function("serde_json", |b| {
        b.iter_with_large_drop(|| serde_json::from_str::<Value>(black_box(&valid)))
    });
    g.bench_function("jsonrepair_to_value", |b| {
        b.iter_with_large_drop(|| jsonrepair_value(black_box(&valid)))
    });
    g.finish();
}

/// Long strings: valid and messy, to text and to a `Value`, beside the peers.
fn prose_documents(c: &mut Criterion) {
    let (valid, messy, expected) = prose(4_000);
    let options = RepairOptions::default();
    for (name, text) in [("prose_valid", &valid), ("prose_messy", &messy)] {
        check(name, text, &expected);
        let mut g = c.benchmark_group(name);
        g.sample_size(20)
            .throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("llmout_to_string", |b| {
            b.iter_with_large_drop(|| to_string(black_box(text), &options))
        });
        g.bench_function("llmout", |b| {
            b.iter_with_large_drop(|| parse(black_box(text), &options))
        });
        g.bench_function("llmout_to_node", |b| {
            b.iter_with_large_drop(|| parse_borrowed(black_box(text), &options))
        });
        g.bench_function("jsonrepair_to_string", |b| {
            b.iter_with_large_drop(|| {
                jsonrepair::repair_to_string(black_box(text), &jsonrepair::Options::default())
            })
        });
        if name == "prose_valid" {
            g.bench_function("serde_json", |b| {
                b.iter_with_large_drop(|| serde_json::from_str::<Value>(black_box(text)))
            });
        }
        g.finish();
    }
}

fn scaling(c: &mut Criterion) {
    let options = RepairOptions::default();
    let mut g = c.benchmark_group("scaling");
    g.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let (text, _) = messy(n);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(text.len()), &text, |b, t| {
            b.iter_with_large_drop(|| parse(black_box(t), &options))
        });
    }
    g.finish();
}

fn adversarial_inputs(c: &mut Criterion) {
    let options = RepairOptions::default();
    let mut g = c.benchmark_group("adversarial");
    g.sample_size(10);
    for (name, text) in adversarial() {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter_with_large_drop(|| parse(black_box(t), &options))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    messy_and_valid,
    prose_documents,
    scaling,
    adversarial_inputs
);
criterion_main!(benches);
