// Every `#[llmout]` option in a well-formed position.
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct User {
    #[serde(alias = "uid")]
    #[llmout(no_invent, alias = "user_id", alias = "id")]
    user_id: u64,
    #[serde(default)]
    nickname: Option<String>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "kind")]
enum Event {
    #[llmout(alias = "signup")]
    Joined {
        #[llmout(no_invent)]
        user: User,
    },
    #[serde(alias = "gone")]
    Left,
}

fn main() {
    let _ = User::schema();
    let _ = Event::schema();
}
