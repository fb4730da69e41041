use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[serde(default)]
    #[llmout(no_invent)]
    score: u32,
}

fn main() {}
