// Generic types derive with the bounds they need and nothing more.
use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Page<T> {
    items: Vec<T>,
    next: Option<u32>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Pair<A, B>
where
    A: Clone,
{
    #[llmout(alias = "left")]
    first: A,
    second: Box<B>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Fixed<const N: usize> {
    #[serde(default)]
    label: String,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Item {
    name: String,
}

fn schema_of<T: LlmOutput>() -> &'static serde_json::Value {
    T::schema()
}

fn main() {
    let _ = schema_of::<Page<Item>>();
    let _ = schema_of::<Pair<String, Item>>();
    let _ = schema_of::<Fixed<3>>();
}
