//! `T::prompt_schema()` on derived types: every serde enum representation, maps, options,
//! recursion, renamed fields; and how much shorter it is than the JSON Schema.

use std::collections::HashMap;

use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
#[serde(rename_all = "camelCase")]
struct Order {
    /// Who ordered.
    customer_name: String,
    lines: Vec<Line>,
    payment: Payment,
    shipping: Option<Shipping>,
    tags: HashMap<String, u32>,
    #[serde(default)]
    gift: bool,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Product { sku: String, qty: u32 },
    Discount { percent: f64 },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
enum Payment {
    Cash,
    Card { last4: String },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "t", content = "c")]
enum Shipping {
    Pickup,
    Post(String),
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[allow(dead_code)]
#[serde(untagged)]
enum Answer {
    Number(f64),
    Words { text: String },
}

#[test]
fn order_renders_every_representation() {
    assert_eq!(
        Order::prompt_schema(),
        r#"{
  // Who ordered.
  customerName: string,
  lines: Line[],
  payment: Payment,
  shipping?: Shipping | null,
  tags: { [key: string]: integer },
  // default: false
  gift?: boolean,
}

Line = {
  kind: "product",
  sku: string,
  qty: integer,
} | {
  kind: "discount",
  percent: number,
}

Payment = "Cash" | {
  Card: {
    last4: string,
  },
}

Shipping = {
  t: "Pickup",
} | {
  t: "Post",
  c: string,
}"#
    );
}

#[test]
fn recursion_and_untagged() {
    assert_eq!(
        Tree::prompt_schema(),
        "Tree = {\n  name: string,\n  children: Tree[],\n}"
    );
    assert_eq!(Answer::prompt_schema(), "number | {\n  text: string,\n}");
}

#[test]
fn much_shorter_than_the_json_schema() {
    for (name, prompt, json) in [
        ("Order", Order::prompt_schema(), Order::schema()),
        ("Tree", Tree::prompt_schema(), Tree::schema()),
    ] {
        let pretty = serde_json::to_string_pretty(json).unwrap();
        let ratio = prompt.len() as f64 / pretty.len() as f64;
        assert!(
            ratio < 0.5,
            "{name}: {} / {} bytes",
            prompt.len(),
            pretty.len()
        );
    }
}
