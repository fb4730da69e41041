use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    text: String,
    #[serde(skip)]
    #[llmout(no_invent)]
    cached: u32,
}

fn main() {}
