//! The comparisons whose targets are ratios, measured interleaved: each round runs every
//! contender once, so a noisy neighbour slows them all alike, and the tables report the
//! fastest round of each (the least disturbed) and the median round.
//! * the lenient parser (to text with its fixes counted or recorded, to a `Value`, to its own
//!   borrowed `Node`) against the `jsonrepair` crate on the messy documents of
//!   `benches/common` (issue 3: at least 150 MB/s; issue 8: at least twice that crate);
//! * the lenient parser on the same records as valid JSON, against
//!   `serde_json::from_str::<Value>` (issue 3: at least 70%);
//! * time per byte as the messy document grows 10x and 100x (`jsonrepair` beside it), and on
//!   the adversarial inputs, against the 1.9 MB messy document (issue 3: 10x input within 11x
//!   time; issue 8: adversarial input within 2x of a normal document);
//! * the fast path, `Report::from_llm` on valid JSON, against `serde_json::from_str::<Report>`
//!   (issue 8: within 5%);
//! * schema-aligned recovery of an already valid `Value` against
//!   `serde_json::from_value::<Report>` of it (issue 4: under 2x);
//! * a type with constraints (`CheckedReport`: lengths, ranges, patterns) on valid JSON:
//!   `from_llm`, which checks them in the recovery walk, against `serde_json::from_str` (no
//!   checks) and against checking with the `jsonschema` crate after serde_json; and the walk on
//!   a `Value` against the walk without constraints followed by `jsonschema` (issue 21: the
//!   choice between the two, by measurement).
//!
//! criterion (`benches/repair.rs`, `benches/pipeline.rs`) measures each contender in its own
//! stretch of time; on a machine whose cores are shared, load that comes and goes between
//! stretches moves the ratios by a third from run to run. This bench is the check on them.
//!
//! Run: `cargo bench --bench race` (optionally `-- ROUNDS`, default 40, and words that pick
//! the sections whose names hold them: `messy`, `valid`, `per_byte`, `fast_path`,
//! `recover_valid`, `constrained`). Timed calls include
//! freeing the output, for every contender alike. The untimed correctness calls before the
//! rounds leave glibc's malloc with raised mmap and trim thresholds, which llmout (whose
//! repair log allocates several MB) gains from and `jsonrepair` does not: BENCHMARKS.md shows
//! the same loop without them.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{
    adversarial, assert_llmout_correct, checked_report, jsonrepair_value, messy_with, report,
    CheckedReport, Report,
};
use llmout::repair::{parse, parse_borrowed, to_string, to_string_counted, RepairOptions};
use llmout::LlmOutput;
use serde::Deserialize;
use serde_json::Value;

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(40)
        .max(1);
    // Words (not numbers, not cargo's `--bench`) pick sections; none runs them all.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<usize>().is_err() && !a.starts_with('-'))
        .collect();
    let run = |section: &str| only.is_empty() || only.iter().any(|o| section.contains(o.as_str()));
    for (name, common) in [("messy", false), ("messy_common", true)] {
        if run(name) {
            let (text, expected) = messy_with(10_000, common);
            race(name, &text, &expected, rounds);
        }
    }
    if run("valid") {
        valid(rounds);
    }
    if run("per_byte") {
        per_byte(rounds);
    }
    for items in [10, 1_000] {
        if run("fast_path") {
            fast_path(items, rounds);
        }
    }
    for items in [10, 1_000] {
        if run("recover_valid") {
            recover_valid(items, rounds);
        }
    }
    for items in [10, 1_000] {
        if run("constrained") {
            constrained(items, rounds);
        }
    }
}

/// Issue 21: where a type's constraints are checked. `CheckedReport::from_llm` (the recovery
/// walk checks them) against `serde_json::from_str` (checks nothing) and against serde_json
/// with the `jsonschema` crate's validator (compiled once, like llmout's schema) on the
/// `Value` before deserializing from it; then, on a `Value`, the walk with the constraints
/// against the walk without them (`Report`'s schema) followed by `jsonschema`.
fn constrained(items: usize, rounds: usize) {
    let text = serde_json::to_string(&checked_report(items)).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(CheckedReport::schema()).unwrap();
    assert!(validator.is_valid(&value));
    assert_eq!(
        CheckedReport::from_llm(&text).value,
        Some(checked_report(items))
    );
    let broken = text.replacen("\"score\":8", "\"score\":11", 1);
    let e = CheckedReport::from_llm(&broken).error.unwrap();
    assert_eq!(
        (e.path(), e.violations()[0].keyword()),
        ("/score", "maximum")
    );
    assert!(!validator.is_valid(&serde_json::from_str(&broken).unwrap()));
    let post_pass = |t: &str| -> Option<CheckedReport> {
        let v: Value = serde_json::from_str(t).ok()?;
        if !validator.is_valid(&v) {
            return None;
        }
        CheckedReport::deserialize(&v).ok()
    };
    assert_eq!(post_pass(&text), Some(checked_report(items)));
    let batch = (1_000_000 / text.len()).max(1);
    fn batched(batch: usize, f: &dyn Fn()) -> impl FnMut() + '_ {
        move || {
            for _ in 0..batch {
                f();
            }
        }
    }
    let walk = || drop(black_box(CheckedReport::from_llm(black_box(&text))));
    let serde = || {
        drop(black_box(serde_json::from_str::<CheckedReport>(black_box(
            &text,
        ))))
    };
    let crate_ = || drop(black_box(post_pass(black_box(&text))));
    let times = rounds_of(
        rounds,
        &mut [
            Box::new(batched(batch, &walk)),
            Box::new(batched(batch, &serde)),
            Box::new(batched(batch, &crate_)),
        ],
    );
    let per_call = |times: &[Vec<Duration>], k: usize, at: usize| {
        times[k][at].as_secs_f64() * 1e6 / batch as f64
    };
    let us = |k: usize, at: usize| per_call(&times, k, at);
    println!(
        "constrained type, valid JSON of {} bytes, {rounds} interleaved rounds of {batch} \
         calls, µs per call, fastest round (median):\n\n\
         | | µs | x serde_json |\n|---|---:|---:|\n\
         | `CheckedReport::from_llm` (checks in the walk) | {:.2} ({:.2}) | {:.2} ({:.2}) |\n\
         | `serde_json::from_str::<CheckedReport>` (no checks) | {:.2} ({:.2}) | 1 |\n\
         | serde_json `Value` + `jsonschema` + deserialize | {:.2} ({:.2}) | {:.2} ({:.2}) |\n",
        text.len(),
        us(0, 0),
        us(0, rounds / 2),
        us(0, 0) / us(1, 0),
        us(0, rounds / 2) / us(1, rounds / 2),
        us(1, 0),
        us(1, rounds / 2),
        us(2, 0),
        us(2, rounds / 2),
        us(2, 0) / us(1, 0),
        us(2, rounds / 2) / us(1, rounds / 2),
    );

    let options = llmout::Options::default();
    let checked = CheckedReport::compiled_schema();
    let plain = Report::compiled_schema();
    let walk_checked = || {
        let r = llmout::advanced::recover::recover(black_box(value.clone()), checked, &options);
        drop(black_box(r));
    };
    let walk_then_crate = || {
        let v = value.clone();
        let ok = validator.is_valid(black_box(&v));
        let r = llmout::advanced::recover::recover(black_box(v), plain, &options);
        drop(black_box((ok, r)));
    };
    let walk_plain = || {
        let r = llmout::advanced::recover::recover(black_box(value.clone()), plain, &options);
        drop(black_box(r));
    };
    let times = rounds_of(
        rounds,
        &mut [
            Box::new(batched(batch, &walk_checked)),
            Box::new(batched(batch, &walk_then_crate)),
            Box::new(batched(batch, &walk_plain)),
        ],
    );
    let us = |k: usize, at: usize| per_call(&times, k, at);
    println!(
        "recovery of the valid `Value` (copy included), µs per call, fastest round \
         (median):\n\n\
         | | µs | x the walk without constraints |\n|---|---:|---:|\n\
         | walk with the constraints | {:.2} ({:.2}) | {:.2} ({:.2}) |\n\
         | walk without, then `jsonschema` | {:.2} ({:.2}) | {:.2} ({:.2}) |\n\
         | walk without (`Report`) | {:.2} ({:.2}) | 1 |\n",
        us(0, 0),
        us(0, rounds / 2),
        us(0, 0) / us(2, 0),
        us(0, rounds / 2) / us(2, rounds / 2),
        us(1, 0),
        us(1, rounds / 2),
        us(1, 0) / us(2, 0),
        us(1, rounds / 2) / us(2, rounds / 2),
        us(2, 0),
        us(2, rounds / 2),
    );
}

/// `advanced::recover::recover` of a valid `Report` value against `serde_json::from_value::<Report>`
/// of it, on copies made before the clock starts.
fn recover_valid(items: usize, rounds: usize) {
    let schema = Report::compiled_schema();
    let options = llmout::Options::default();
    let value = serde_json::to_value(report(items)).unwrap();
    let size = value.to_string().len();
    let checked = llmout::advanced::recover::recover(value.clone(), schema, &options).unwrap();
    assert!(checked.value == value && checked.warnings.is_empty());
    let (ours, theirs, batch) = batched_pair(
        rounds,
        size,
        || value.clone(),
        |v| {
            drop(black_box(llmout::advanced::recover::recover(
                black_box(v),
                schema,
                &options,
            )))
        },
        |v| drop(black_box(serde_json::from_value::<Report>(black_box(v)))),
    );
    let ratio = |at: usize| ours[at].as_secs_f64() / theirs[at].as_secs_f64();
    println!(
        "recovery of a valid value, {size} bytes as JSON, {rounds} interleaved rounds of \
         {batch} calls: `advanced::recover::recover` {:.2} µs, `serde_json::from_value` {:.2} µs \
         (fastest rounds): {:.2}x (fastest), {:.2}x (median).\n",
        ours[0].as_secs_f64() * 1e6,
        theirs[0].as_secs_f64() * 1e6,
        ratio(0),
        ratio(rounds / 2),
    );
}

/// Runs each of `fs` once per round, `rounds` times; each one's times, sorted.
fn rounds_of(rounds: usize, fs: &mut [Box<dyn FnMut() + '_>]) -> Vec<Vec<Duration>> {
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); fs.len()];
    for _ in 0..rounds {
        for (k, f) in fs.iter_mut().enumerate() {
            let start = Instant::now();
            f();
            times[k].push(start.elapsed());
        }
    }
    for t in &mut times {
        t.sort();
    }
    times
}

/// The lenient parser on valid JSON against serde_json building the same `Value`.
fn valid(rounds: usize) {
    let (_, expected) = messy_with(10_000, false);
    let text = serde_json::to_string(&expected).unwrap();
    let options = RepairOptions::default();
    let parsed = parse(&text, &options).unwrap();
    assert!(parsed.value == expected && parsed.repairs.is_empty());
    let times = rounds_of(
        rounds,
        &mut [
            Box::new(|| drop(black_box(parse(black_box(&text), &options)))),
            Box::new(|| drop(black_box(to_string(black_box(&text), &options)))),
            Box::new(|| drop(black_box(serde_json::from_str::<Value>(black_box(&text))))),
            Box::new(|| drop(black_box(parse_borrowed(black_box(&text), &options)))),
        ],
    );
    let mbps = |d: Duration| text.len() as f64 / d.as_secs_f64() / 1e6;
    let share = |k: usize, at: usize| times[2][at].as_secs_f64() / times[k][at].as_secs_f64();
    println!(
        "valid document, {} bytes, {rounds} interleaved rounds (fastest round; median in \
         parentheses):\n\n\
         | implementation | MB/s | share of serde_json's throughput |\n|---|---:|---:|\n\
         | llmout (to Value) | {:.1} ({:.1}) | {:.0}% ({:.0}%) |\n\
         | llmout (to string) | {:.1} ({:.1}) | {:.0}% ({:.0}%) |\n\
         | llmout (to a borrowed Node) | {:.1} ({:.1}) | {:.0}% ({:.0}%) |\n\
         | `serde_json::from_str::<Value>` | {:.1} ({:.1}) | 100% |\n",
        text.len(),
        mbps(times[0][0]),
        mbps(times[0][rounds / 2]),
        share(0, 0) * 100.0,
        share(0, rounds / 2) * 100.0,
        mbps(times[1][0]),
        mbps(times[1][rounds / 2]),
        share(1, 0) * 100.0,
        share(1, rounds / 2) * 100.0,
        mbps(times[3][0]),
        mbps(times[3][rounds / 2]),
        share(3, 0) * 100.0,
        share(3, rounds / 2) * 100.0,
        mbps(times[2][0]),
        mbps(times[2][rounds / 2]),
    );
}

/// What a row of [`per_byte`] runs.
#[derive(Clone, Copy)]
enum Who {
    /// llmout's parser to a `Value`.
    Value,
    /// llmout's parser to JSON text.
    Text,
    /// llmout's parser to its borrowed `Node`.
    Node,
    /// The `jsonrepair` crate to JSON text.
    Peer,
}

/// Time per byte of the parser on the messy document at 1x, 10x and 100x of ~190 KB (to a
/// `Value`, to text and to a `Node`; `jsonrepair` on `messy_common`, where it is correct, beside it) and on
/// the adversarial inputs (to a `Value`), each against the 1.9 MB document of the same row
/// kind.
fn per_byte(rounds: usize) {
    let options = RepairOptions::default();
    let peer = jsonrepair::Options::default();
    // (name, input, who, index of the row it is compared with)
    let mut inputs: Vec<(String, String, Who, usize)> = Vec::new();
    for (who, base) in [
        (Who::Value, 1),
        (Who::Text, 4),
        (Who::Node, 7),
        (Who::Peer, 10),
    ] {
        for n in [1_000, 10_000, 100_000] {
            let (name, common) = match who {
                Who::Value => (format!("llmout, messy, {n} records, to Value"), false),
                Who::Text => (format!("llmout, messy, {n} records, to text"), false),
                Who::Node => (format!("llmout, messy, {n} records, to a Node"), false),
                Who::Peer => (
                    format!("jsonrepair 0.1.0, messy_common, {n} records, to text"),
                    true,
                ),
            };
            inputs.push((name, messy_with(n, common).0, who, base));
        }
    }
    inputs.extend(
        adversarial()
            .into_iter()
            .map(|(name, t)| (format!("llmout, `{name}`, to Value"), t, Who::Value, 1)),
    );
    let mut fs: Vec<Box<dyn FnMut() + '_>> = inputs
        .iter()
        .map(|(_, t, who, _)| -> Box<dyn FnMut() + '_> {
            match who {
                Who::Value => Box::new(|| drop(black_box(parse(black_box(t), &options)))),
                Who::Text => Box::new(|| drop(black_box(to_string(black_box(t), &options)))),
                Who::Node => Box::new(|| drop(black_box(parse_borrowed(black_box(t), &options)))),
                Who::Peer => {
                    Box::new(|| drop(black_box(jsonrepair::repair_to_string(black_box(t), &peer))))
                }
            }
        })
        .collect();
    let times = rounds_of(rounds, &mut fs);
    let per_byte = |k: usize, at: usize| times[k][at].as_secs_f64() / inputs[k].1.len() as f64;
    println!(
        "time per byte against the 1.9 MB document of the same implementation and output, \
         {rounds} interleaved rounds (fastest round; median in parentheses):\n\n\
         | input | bytes | fastest round | per byte, x the messy document's |\n|---|---:|---:|---:|"
    );
    for (k, (name, text, _, base)) in inputs.iter().enumerate() {
        println!(
            "| {name} | {} | {:.3} ms | {:.2} ({:.2}) |",
            text.len(),
            times[k][0].as_secs_f64() * 1e3,
            per_byte(k, 0) / per_byte(*base, 0),
            per_byte(k, rounds / 2) / per_byte(*base, rounds / 2),
        );
    }
    println!();
}

/// `Report::from_llm` against `serde_json::from_str::<Report>` on the same valid JSON.
fn fast_path(items: usize, rounds: usize) {
    let text = serde_json::to_string(&report(items)).unwrap();
    assert_eq!(Report::from_llm(&text).value, Some(report(items)));
    let (ours, theirs, batch) = batched_pair(
        rounds,
        text.len(),
        || text.as_str(),
        |t| drop(black_box(Report::from_llm(black_box(t)))),
        |t| drop(black_box(serde_json::from_str::<Report>(black_box(t)))),
    );
    let overhead = |at: usize| (ours[at].as_secs_f64() / theirs[at].as_secs_f64() - 1.0) * 100.0;
    println!(
        "fast path, {} bytes, {rounds} interleaved rounds of {batch} calls: \
         `Report::from_llm` {:.2} µs, `serde_json::from_str` {:.2} µs (fastest rounds): \
         overhead {:+.1}% (fastest), {:+.1}% (median).\n",
        text.len(),
        ours[0].as_secs_f64() * 1e6,
        theirs[0].as_secs_f64() * 1e6,
        overhead(0),
        overhead(rounds / 2),
    );
}

/// Times `ours` and `theirs` in alternating rounds, each round a batch of calls (about a
/// millisecond's worth for `size` bytes of input) on inputs made by `input` before the clock
/// starts. Per-call times of each round, sorted, and the batch size.
fn batched_pair<I>(
    rounds: usize,
    size: usize,
    input: impl Fn() -> I,
    mut ours: impl FnMut(I),
    mut theirs: impl FnMut(I),
) -> (Vec<Duration>, Vec<Duration>, usize) {
    let batch = (1_000_000 / size.max(1)).max(1);
    let time = |f: &mut dyn FnMut(I)| {
        let inputs: Vec<I> = (0..batch).map(|_| input()).collect();
        let start = Instant::now();
        for i in inputs {
            f(i);
        }
        start.elapsed() / batch as u32
    };
    let (mut a, mut b) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        a.push(time(&mut ours));
        b.push(time(&mut theirs));
    }
    a.sort();
    b.sort();
    (a, b, batch)
}

fn race(name: &str, text: &str, expected: &Value, rounds: usize) {
    let options = RepairOptions::default();
    let peer = jsonrepair::Options::default();
    // Correctness once, untimed; the timed calls then do only each contender's own work.
    assert_llmout_correct(name, text, expected);
    let peer_correct = jsonrepair_value(text).as_ref() == Some(expected);
    let labels = [
        ("llmout (to string, fixes counted)", true),
        ("llmout (to string, with repair log)", true),
        ("llmout (to Value, with repair log)", true),
        ("llmout (to a borrowed Node, with repair log)", true),
        ("jsonrepair 0.1.0 (to string)", peer_correct),
        ("jsonrepair 0.1.0 (to Value)", peer_correct),
    ];
    let mut timed: Vec<Box<dyn FnMut() + '_>> = vec![
        Box::new(|| drop(black_box(to_string_counted(black_box(text), &options)))),
        Box::new(|| drop(black_box(to_string(black_box(text), &options)))),
        Box::new(|| drop(black_box(parse(black_box(text), &options)))),
        Box::new(|| drop(black_box(parse_borrowed(black_box(text), &options)))),
        Box::new(|| {
            drop(black_box(jsonrepair::repair_to_string(
                black_box(text),
                &peer,
            )))
        }),
        Box::new(|| drop(black_box(jsonrepair_value(black_box(text))))),
    ];
    let times = rounds_of(rounds, &mut timed);
    let mbps = |d: Duration| text.len() as f64 / d.as_secs_f64() / 1e6;
    println!(
        "`{name}`: {} bytes, {rounds} interleaved rounds.\n",
        text.len()
    );
    println!("| implementation | fastest round MB/s | median round MB/s | output correct |");
    println!("|---|---:|---:|---|");
    for (k, (label, correct)) in labels.iter().enumerate() {
        println!(
            "| {label} | {:.1} | {:.1} | {} |",
            mbps(times[k][0]),
            mbps(times[k][rounds / 2]),
            if *correct { "yes" } else { "no" }
        );
    }
    let ratio =
        |a: usize, b: usize, at: usize| times[b][at].as_secs_f64() / times[a][at].as_secs_f64();
    println!(
        "\nllmout / jsonrepair, same output: to string {:.2}x (fastest) {:.2}x (median); \
         to Value {:.2}x (fastest) {:.2}x (median). With llmout's repair log besides: to \
         string {:.2}x (fastest) {:.2}x (median). llmout to a Node / jsonrepair to Value: \
         {:.2}x (fastest) {:.2}x (median).\n",
        ratio(0, 4, 0),
        ratio(0, 4, rounds / 2),
        ratio(2, 5, 0),
        ratio(2, 5, rounds / 2),
        ratio(1, 4, 0),
        ratio(1, 4, rounds / 2),
        ratio(3, 5, 0),
        ratio(3, 5, rounds / 2),
    );
}
