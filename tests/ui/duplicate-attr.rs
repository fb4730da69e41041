use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[llmout(no_invent)]
    #[llmout(no_invent)]
    text: String,
}

fn main() {}
