use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Default, Deserialize, JsonSchema, LlmOutput)]
#[serde(default)]
struct Answer {
    #[llmout(no_invent)]
    text: String,
}

fn main() {}
