//! The typed pipeline on replies that need no repair (issues 4 and 8):
//! * `fast_path`: `T::from_llm` on valid JSON against `serde_json::from_str::<T>` (target:
//!   within 5%; the fast path adds only the check for keys serde would drop silently);
//! * `recover_valid`: schema-aligned recovery of an already-valid `Value` against
//!   `serde_json::from_value::<T>` of the same value (target: under 2x);
//! * `messy_reply`: the whole pipeline (extraction, repair, recovery, deserialization) on a
//!   reply of about 1 KB, 100 KB and 2 MB with prose, a `<think>` block, a fence, and in the
//!   JSON unquoted keys, single quotes, Python literals, comments, trailing commas, a key in
//!   another case, numbers as strings and enum values in other words.
//!
//! Run: `cargo bench --bench pipeline`; `cargo bench --bench race` measures the fast path
//! interleaved with serde_json, which a busy machine disturbs less. Results are in BENCHMARKS.md.

mod common;

use common::{report, Item, Report};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llmout::LlmOutput;
use std::hint::black_box;

fn fast_path(c: &mut Criterion) {
    let mut g = c.benchmark_group("fast_path");
    for items in [10, 1_000] {
        let text = serde_json::to_string(&report(items)).unwrap();
        assert_eq!(Report::from_llm(&text).value, Some(report(items)));
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::new("llmout", text.len()), &text, |b, t| {
            b.iter(|| Report::from_llm(black_box(t)))
        });
        g.bench_with_input(BenchmarkId::new("serde_json", text.len()), &text, |b, t| {
            b.iter(|| serde_json::from_str::<Report>(black_box(t)))
        });
    }
    g.finish();
}

fn recover_valid(c: &mut Criterion) {
    let schema = Report::compiled_schema();
    let options = llmout::Options::default();
    let mut g = c.benchmark_group("recover_valid");
    for items in [10, 1_000] {
        let value = serde_json::to_value(report(items)).unwrap();
        let r = llmout::recover::recover(value.clone(), schema, &options).unwrap();
        assert!(r.warnings.is_empty());
        let size = serde_json::to_string(&value).unwrap().len();
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("recover", size), &value, |b, v| {
            b.iter_batched(
                || v.clone(),
                |v| llmout::recover::recover(v, schema, &options),
                criterion::BatchSize::LargeInput,
            )
        });
        g.bench_with_input(BenchmarkId::new("from_value", size), &value, |b, v| {
            b.iter_batched(
                || v.clone(),
                serde_json::from_value::<Report>,
                criterion::BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

/// A messy reply holding a `Report` with `items` items, and the report it means.
fn messy_reply(items: usize) -> (String, Report) {
    let mut text = String::from(
        "<think>The user wants the report as JSON.</think>\nSure! Here is the report:\n```json\n\
         {\n  title: 'Quarterly review of the parser',\n  \"Score\": \"8\",\n  ratio: .75,\n  \
         ok: True,\n  tags: ['parser', 'speed',],\n  note: None,\n  status: 'needs review',\n  \
         items: [\n",
    );
    let mut expected = report(0);
    for i in 0..items {
        if i % 2 == 0 {
            text.push_str(&format!(
                "    {{kind: 'text', body: \"Finding {i}: the token is compared with \"==\".\"}},\n"
            ));
            expected.items.push(Item::Text {
                body: format!("Finding {i}: the token is compared with \"==\"."),
            });
        } else {
            text.push_str(&format!(
                "    {{\"kind\": \"COUNT\", \"n\": \"{i}\", unit: 'ms',}}, // item {i}\n"
            ));
            expected.items.push(Item::Count {
                n: i as u32,
                unit: Some("ms".to_owned()),
            });
        }
    }
    text.push_str("  ],\n  extra: {");
    for (k, v) in &expected.extra {
        text.push_str(&format!("{k}: {v}, "));
    }
    text.push_str("},\n}\n```\nLet me know if you need anything else.");
    (text, expected)
}

fn messy(c: &mut Criterion) {
    let mut g = c.benchmark_group("messy_reply");
    g.sample_size(20);
    for items in [10, 1_500, 29_500] {
        let (text, expected) = messy_reply(items);
        let r = Report::from_llm(&text);
        assert_eq!(r.value, Some(expected));
        assert!(r.recovered);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::new("from_llm", text.len()), &text, |b, t| {
            b.iter_with_large_drop(|| Report::from_llm(black_box(t)))
        });
    }
    g.finish();
}

criterion_group!(benches, fast_path, recover_valid, messy);
criterion_main!(benches);
