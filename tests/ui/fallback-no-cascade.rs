// A mistake in `#[llmout]` is reported once: the fallback impl keeps code that uses the type
// as an `LlmOutput` from adding "trait not implemented" errors.
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Answer {
    #[llmout(unknown)]
    text: String,
}

fn parse<T: LlmOutput>(raw: &str) -> Option<T> {
    T::from_llm(raw).value
}

fn main() {
    let _ = Answer::schema();
    let _: Option<Answer> = parse("{}");
}
