use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Pair(#[llmout(no_invent)] String, u32);

#[derive(Deserialize, JsonSchema, LlmOutput)]
enum Shape {
    Point(#[llmout(alias = "x")] i32, i32),
}

fn main() {}
