//! Parse a messy, realistic model reply into a typed struct and show what was changed.
//!
//! Run it with `cargo run --example quickstart`.

use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

/// A code review of one change.
#[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
struct Review {
    /// One sentence on the change as a whole.
    summary: String,
    /// The verdict.
    status: Status,
    /// Overall quality from 0 to 10.
    score: u8,
    /// Problems found, most important first.
    issues: Vec<Issue>,
}

/// The review verdict.
#[derive(Debug, Deserialize, JsonSchema)]
enum Status {
    Approved,
    NeedsReview,
    Rejected,
}

/// One problem in the change.
#[derive(Debug, Deserialize, JsonSchema)]
struct Issue {
    file: String,
    line: u32,
    message: String,
}

/// A reply as a model really sends it: reasoning first, prose around a fence, a key in the
/// wrong case, an enum value in words, numbers as strings, one object where a list is
/// expected, a raw newline inside a string, and a trailing comma.
const REPLY: &str = include_str!("replies/review.txt");

fn main() {
    let pretty = serde_json::to_string_pretty(Review::schema()).unwrap();
    println!(
        "Schema to put in the prompt ({} bytes; the JSON Schema is {} bytes):\n{}\n",
        Review::prompt_schema().len(),
        pretty.len(),
        Review::prompt_schema()
    );
    println!("Reply:\n{REPLY}");

    let result = Review::from_llm(REPLY);
    match &result.value {
        Some(review) => {
            println!("Value:\n{review:#?}\n");
            println!(
                "{:?} ({}/10): {}",
                review.status, review.score, review.summary
            );
            for issue in &review.issues {
                println!("  {}:{}: {}", issue.file, issue.line, issue.message);
            }
        }
        None => println!(
            "No value: {}\n",
            result
                .error
                .as_ref()
                .map_or(String::new(), |e| e.to_string())
        ),
    }
    println!("recovered: {}", result.recovered);
    println!("warnings ({}):", result.warnings.len());
    for w in &result.warnings {
        println!("  [{}] {w}", w.kind.name());
    }
}
