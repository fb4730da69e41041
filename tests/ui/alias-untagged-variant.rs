use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(untagged)]
enum Value {
    #[llmout(alias = "num")]
    Number(f64),
    Text(String),
}

fn main() {}
