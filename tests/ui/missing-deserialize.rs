use llmout::LlmOutput;
use schemars::JsonSchema;

#[derive(JsonSchema, LlmOutput)]
struct Answer {
    text: String,
}

fn main() {}
