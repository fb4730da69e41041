//! Ask again when a reply cannot be used: a scripted model whose first reply leaves a field
//! out, the message sent back to it, and its second reply, which parses.
//!
//! Run it with `cargo run --example retry`. It runs offline: the "model" is a closure that
//! replays two bundled replies (`examples/replies/retry_*.txt`) and prints what it is sent.

use llmout::{retry, LlmOutput, Options, Policy};
use schemars::JsonSchema;
use serde::Deserialize;

/// A verdict on one change.
#[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
struct Verdict {
    /// One sentence on the change.
    summary: String,
    /// Approved, NeedsReview or Rejected.
    status: Status,
    /// Quality from 0 to 10.
    score: u8,
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Status {
    Approved,
    NeedsReview,
    Rejected,
}

const REPLIES: [&str; 2] = [
    include_str!("replies/retry_first.txt"),
    include_str!("replies/retry_second.txt"),
];

fn main() {
    // NoInvent: what the model left out is asked for again, never made up.
    let options = Options::default().policy(Policy::NoInvent);
    let result = retry::<Verdict, std::convert::Infallible>(3, &options, |attempts| {
        // A real application sends its prompt, then for each earlier attempt the model's
        // reply (as the assistant) and its feedback (as the user).
        if let Some(last) = attempts.last() {
            let feedback = last.feedback.as_deref().unwrap_or_default();
            println!("-- sent to the model:\n{feedback}\n");
        }
        let reply = REPLIES[attempts.len().min(REPLIES.len() - 1)];
        println!("-- reply {}:\n{}", attempts.len() + 1, reply.trim_end());
        Ok(reply.to_owned())
    });
    let result = match result {
        Ok(r) => r,
        Err(never) => match never.error {},
    };

    println!("\n-- {} attempts:", result.attempts.len());
    for (i, a) in result.attempts.iter().enumerate() {
        match &a.error {
            Some(e) => println!("{}: failed: {e}", i + 1),
            None => println!(
                "{}: used, {} change(s) made to read it",
                i + 1,
                a.warnings.len()
            ),
        }
    }
    match result.value {
        Some(verdict) => println!(
            "\n{:?} ({}/10): {}",
            verdict.status, verdict.score, verdict.summary
        ),
        None => println!("\nno usable reply"),
    }
}
