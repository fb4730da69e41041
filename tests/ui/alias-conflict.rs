use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct User {
    #[llmout(alias = "fullName")]
    name: String,
    full_name: String,
    #[serde(alias = "mail")]
    email: String,
    #[llmout(alias = "mail")]
    address: String,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
enum Status {
    Open,
    #[llmout(alias = "Open")]
    Closed,
}

fn main() {}
