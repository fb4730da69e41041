// A malformed `#[serde]` attribute is reported by serde_derive (and schemars_derive); the
// LlmOutput derive adds no third copy.
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[serde(renam = "reply")]
    text: String,
}

fn main() {}
