use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[llmout(crate = "llmout")]
#[llmout(crate = "llmout")]
struct Answer {
    #[llmout(no_invent)]
    #[llmout(no_invent)]
    text: String,
    #[llmout(alias = "why", alias = "why")]
    reason: String,
}

fn main() {}
