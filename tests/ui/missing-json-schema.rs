use llmout::LlmOutput;
use serde::Deserialize;

#[derive(Deserialize, LlmOutput)]
struct Answer {
    text: String,
}

fn main() {}
