//! Replay recorded replies chunk by chunk: a typed value (printing the partial value after each
//! chunk, then the final value), and tool calls (printing each call's name as soon as it is
//! written and its arguments as they arrive).
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

/// A reply with two tool calls, Anthropic-style.
const TOOL_REPLY: &str = include_str!("replies/streamed_tool_call.txt");

/// A model streams a few characters per token: the reply in chunks of about `n` bytes.
fn chunks(text: &str, n: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(n);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        rest = tail;
        Some(chunk)
    })
}

fn main() {
    typed_value();
    tool_calls();
}

fn typed_value() {
    let mut stream = Stream::<ReleaseNote>::new();
    for chunk in chunks(REPLY, 16) {
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

fn tool_calls() {
    println!("\n--- tool calls ---\n");
    let mut stream = llmout::tools::Stream::new();
    let mut shown = (0, String::new());
    for chunk in chunks(TOOL_REPLY, 24) {
        stream.push(chunk);
        // A call finished: print it once.
        while shown.0 < stream.calls().len() {
            let call = &stream.calls()[shown.0];
            println!(
                "call #{} done: {}({})",
                shown.0,
                call.name,
                serde_json::Value::Object(call.arguments.clone())
            );
            shown = (shown.0 + 1, String::new());
        }
        // The call being written: its name, and its arguments so far when they changed.
        if let Some(call) = stream.current() {
            let now = format!(
                "{}: {}",
                call.name.unwrap_or("(name not written yet)"),
                call.arguments()
                    .map_or("(no arguments yet)".to_owned(), |a| a.to_string())
            );
            if now != shown.1 {
                println!("writing  {now}");
                shown.1 = now;
            }
        }
    }
    let r = stream.finish();
    println!(
        "\nFinal: content {:?}, {} calls",
        r.content,
        r.tool_calls.len()
    );
}
