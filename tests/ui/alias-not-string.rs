use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[llmout(alias = 5)]
    text: String,
}

fn main() {}
