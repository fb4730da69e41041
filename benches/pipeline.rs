//! The typed pipeline on replies that need no repair (issues 4 and 8):
//! * `fast_path`: `T::from_llm` on valid JSON against `serde_json::from_str::<T>` (target:
//!   within 5%; the fast path adds only the check for keys serde would drop silently);
//! * `recover_valid`: schema-aligned recovery of an already-valid `Value` against
//!   `serde_json::from_value::<T>` of the same value (target: under 2x);
//! * `messy_reply`: the whole pipeline (extraction, repair, recovery, deserialization) on a
//!   reply of about 1 KB, 100 KB and 2 MB with prose, a `<think>` block, a fence, and in the
//!   JSON unquoted keys, single quotes, Python literals, comments, trailing commas, a key in
//!   another case, numbers as strings and enum values in other words;
//! * `recursive_unions`: replies nested 10 to 80 deep against recursive union schemas (the
//!   issue's twin-array schema at runtime, and an untagged enum of a node and the same node
//!   with one field more, 8 to 60 deep), each with a coercion at the bottom so that every union
//!   weighs all its branches. Before union choices were memoised these took time doubling with each
//!   level (5 s at 20 levels); now time grows with the reply. And a chain of objects 20 to 90
//!   deep against a union of a number, an array of itself and an object around itself, where
//!   the recursion nears its limit (0.4 s at 90 levels before a limit met while weighing
//!   ended the recovery, session 30).
//! * `renamed_records`: 1 000 to 50 000 records whose keys are all in another case, written
//!   with unquoted keys and single quotes, each with an object where a string is wanted:
//!   every warning is followed through the moves recovery made, and each object kept as
//!   written is found among the reply's containers. Both were done against all of them (a
//!   7 MB reply took minutes, session 31); now time grows with the reply.
//! * `wrapper_chain`: 10 to 120 wrapper objects (keys that are no field) around a value
//!   whose enum needs a long text looked up, and around one of 100 000 labels: the chain is
//!   weighed in one scope (before session 35, each wrapper's weighings were made again for
//!   every wrapper above it: time grew with the square of the depth, 27 s for 1.2 MB under
//!   120 wrappers).
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
        let r = llmout::advanced::recover::recover(value.clone(), schema, &options).unwrap();
        assert!(r.warnings.is_empty());
        let size = serde_json::to_string(&value).unwrap().len();
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(BenchmarkId::new("recover", size), &value, |b, v| {
            b.iter_batched(
                || v.clone(),
                |v| llmout::advanced::recover::recover(v, schema, &options),
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

/// An untagged enum of a node and the same node with one field more.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
#[serde(untagged)]
#[allow(dead_code)]
enum Tree {
    Plain {
        name: String,
        children: Vec<Tree>,
    },
    Tagged {
        name: String,
        children: Vec<Tree>,
        extra: u32,
    },
}

/// A chain `depth` deep of nodes carrying `extra` (so the first variant costs a dropped key
/// and the second must be weighed too), with a sibling leaf at each level and a number given
/// as a string at the bottom.
fn tree_reply(depth: usize) -> String {
    let mut v = serde_json::json!({"name": "leaf", "children": [], "extra": "1"});
    for i in 0..depth {
        v = serde_json::json!({"name": format!("n{i}"), "children": [v, {"name": "x", "children": []}], "extra": i});
    }
    v.to_string()
}

fn recursive_unions(c: &mut Criterion) {
    let mut g = c.benchmark_group("recursive_unions");
    g.sample_size(20);
    let twin = serde_json::json!({
        "$defs": {"T": {"anyOf": [
            {"type": "array", "items": {"$ref": "#/$defs/T"}},
            {"type": "array", "items": {"$ref": "#/$defs/T"}, "description": "o"},
            {"type": "integer"}
        ]}},
        "$ref": "#/$defs/T"
    });
    let compiled = llmout::schema::Schema::compile(&twin).unwrap();
    let options = llmout::Options::default();
    for depth in [10, 20, 40, 80] {
        let reply = format!("{}\"1\"{}", "[".repeat(depth), "]".repeat(depth));
        let r = llmout::from_llm_with_compiled(&reply, &compiled, &options);
        assert!(r.recovered && r.value.is_some());
        g.bench_with_input(BenchmarkId::new("twin_arrays", depth), &reply, |b, t| {
            b.iter(|| llmout::from_llm_with_compiled(black_box(t), &compiled, &options))
        });
    }
    // A number, an array of itself or an object around itself; a chain of objects whose keys
    // are in another case and whose leaf is a string: each level costs something, so each
    // object's wrap in an array is weighed too. 90 levels is 180 frames of the 192 the
    // unions may take: a weighing that met a limit was not reused elsewhere, and this reply
    // took 0.4 s at 90 levels before session 30.
    let number_array_or_object = serde_json::json!({
        "$defs": {"N": {"anyOf": [
            {"type": "integer"},
            {"type": "array", "items": {"$ref": "#/$defs/N"}},
            {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}, "required": ["c"]}
        ]}},
        "$ref": "#/$defs/N"
    });
    let compiled = llmout::schema::Schema::compile(&number_array_or_object).unwrap();
    for depth in [20, 60, 90] {
        let reply = format!("{}\"1\"{}", "{\"C\": ".repeat(depth), "}".repeat(depth));
        let r = llmout::from_llm_with_compiled(&reply, &compiled, &options);
        assert_eq!(r.warnings.len(), depth + 1);
        g.bench_with_input(BenchmarkId::new("miscased_chain", depth), &reply, |b, t| {
            b.iter(|| llmout::from_llm_with_compiled(black_box(t), &compiled, &options))
        });
    }
    // Two levels of JSON per level of the tree: 60 is 121 deep, under the limit of 128.
    for depth in [8, 15, 30, 60] {
        let reply = tree_reply(depth);
        assert!(Tree::from_llm(&reply).value.is_some());
        g.bench_with_input(BenchmarkId::new("untagged_tree", depth), &reply, |b, t| {
            b.iter(|| Tree::from_llm(black_box(t)))
        });
        // Recovery alone (the pipeline above also ranks every nested object as a candidate).
        let value: serde_json::Value = serde_json::from_str(&reply).unwrap();
        let schema = Tree::compiled_schema();
        g.bench_with_input(
            BenchmarkId::new("untagged_tree_recover", depth),
            &value,
            |b, v| {
                b.iter_batched(
                    || v.clone(),
                    |v| llmout::advanced::recover::recover(v, schema, &options),
                    criterion::BatchSize::SmallInput,
                )
            },
        );
    }
    g.finish();
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Listing {
    records: Vec<Entry>,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Entry {
    id: u32,
    name: String,
    meta: String,
}

fn renamed_records(c: &mut Criterion) {
    let mut g = c.benchmark_group("renamed_records");
    g.sample_size(10);
    for n in [1_000, 10_000, 50_000] {
        let mut reply = String::from("{Records: [");
        for i in 0..n {
            reply.push_str(&format!(
                "{{ID: '{i}', 'Name': 'n{i}', Meta: {{a: {i},}}}}, "
            ));
        }
        reply.push_str("]}");
        let r = Listing::from_llm(&reply);
        assert_eq!(r.value.map(|l| l.records.len()), Some(n));
        // A rename and a fix or two for each key, the number, the object kept as written.
        assert_eq!(r.warnings.len(), 10 * n + 3);
        g.throughput(Throughput::Bytes(reply.len() as u64));
        g.bench_with_input(BenchmarkId::new("from_llm", n), &reply, |b, t| {
            b.iter_with_large_drop(|| Listing::from_llm(black_box(t)))
        });
    }
    g.finish();
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Ticket {
    title: String,
    state: State,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
enum State {
    Open,
    Closed,
}

/// `inner` in `depth` wrapper objects, each of one key that is no field (`{"w0": {"w1": ...`).
fn in_wrappers(depth: usize, inner: &serde_json::Value) -> String {
    let mut reply: String = (0..depth).map(|i| format!("{{\"w{i}\": ")).collect();
    reply.push_str(&inner.to_string());
    reply.push_str(&"}".repeat(depth));
    reply
}

fn wrapper_chain(c: &mut Criterion) {
    let mut g = c.benchmark_group("wrapper_chain");
    g.sample_size(10);
    // Wrapper objects whose keys are no field, around a ticket whose state is a long text
    // matched on its first line: the chain weighed once (session 35; before, each wrapper's
    // weighings again for every wrapper above it).
    let state = format!("Open\n{}", "é ".repeat(2_000));
    let ticket = serde_json::json!({"title": "x", "state": state});
    for depth in [10, 40, 120] {
        let reply = in_wrappers(depth, &ticket);
        assert_eq!(Ticket::from_llm(&reply).warnings.len(), depth + 1);
        g.bench_with_input(BenchmarkId::new("from_llm", depth), &reply, |b, t| {
            b.iter(|| Ticket::from_llm(black_box(t)))
        });
    }
    // The same wrappers around a ticket with 100 000 labels (1.2 MB): 27 s at 120 wrappers
    // before session 35.
    let labels: Vec<String> = (0..100_000).map(|i| format!("label{i}")).collect();
    let labelled = serde_json::json!({"title": "x", "state": "open", "labels": labels});
    for depth in [10, 60, 120] {
        let reply = in_wrappers(depth, &labelled);
        assert_eq!(Labelled::from_llm(&reply).warnings.len(), depth + 1);
        g.bench_with_input(BenchmarkId::new("labels", depth), &reply, |b, t| {
            b.iter(|| Labelled::from_llm(black_box(t)))
        });
    }
    g.finish();
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Labelled {
    title: String,
    state: State,
    labels: Vec<String>,
}

criterion_group!(
    benches,
    fast_path,
    recover_valid,
    messy,
    recursive_unions,
    renamed_records,
    wrapper_chain
);
criterion_main!(benches);
