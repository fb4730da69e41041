use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Meta {
    id: u32,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[serde(flatten)]
    #[llmout(no_invent, alias = "m")]
    meta: Meta,
}

fn main() {}
