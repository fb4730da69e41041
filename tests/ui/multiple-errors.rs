use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[llmout(crate = "::llmout", crate = "::llmout")]
struct Answer {
    #[llmout(colour = "red")]
    text: String,
    #[serde(default)]
    #[llmout(no_invent)]
    score: u32,
    #[llmout(alias = "text")]
    summary: String,
}

fn main() {}
