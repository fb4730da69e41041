use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[llmout(no_invent, alias = "reply")]
struct Answer {
    #[llmout(crate = "::llmout")]
    text: String,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
enum Mood {
    #[llmout(no_invent)]
    Happy,
}

fn main() {}
