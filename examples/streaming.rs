//! Replay a recorded reply chunk by chunk, printing the partial value after each chunk, then
//! the final value.
//!
//! Run it with `cargo run --example streaming`.

use llmout::stream::{FieldState, Stream};
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

/// A release note.
#[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct ReleaseNote {
    title: String,
    highlights: Vec<String>,
    breaking: bool,
    downloads: u64,
}

/// A reply as it was streamed: reasoning first (with an example object in it), prose, a fence.
const REPLY: &str = include_str!("replies/streamed.txt");

fn main() {
    let mut stream = Stream::<ReleaseNote>::new();
    // A model streams a few characters per token; replay in chunks of 16 bytes.
    let mut rest = REPLY;
    while !rest.is_empty() {
        let mut cut = rest.len().min(16);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        rest = tail;
        stream.push(chunk);
        let received = stream.text().len();
        let partial = stream.partial();
        let Some(value) = partial.value() else {
            println!("{received:>4} bytes: (no JSON yet)");
            continue;
        };
        let states: Vec<String> = ["/title", "/highlights", "/breaking", "/downloads"]
            .iter()
            .map(|p| {
                let s = match partial.state(p) {
                    FieldState::Complete => "done",
                    FieldState::InProgress => "writing",
                    FieldState::NotStarted => "-",
                };
                format!("{}={s}", &p[1..])
            })
            .collect();
        println!("{received:>4} bytes: {value}   [{}]", states.join(" "));
    }
    let result = stream.finish();
    println!("\nFinal value: {:#?}", result.value);
    println!("recovered: {}", result.recovered);
    for w in &result.warnings {
        println!("  [{}] {w}", w.kind.name());
    }
}
