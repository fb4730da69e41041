//! Proptest strategies for JSON values, shared by the property tests of `llmout` and of the
//! workspace (`tests/tools_compact_props.rs` includes this file by its path).

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// Numbers of every kind: any `i64`, any `u64`, any finite `f64`.
pub fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
    ]
}

/// JSON values: null, booleans, [`number`]s and strings from `text`, in arrays and objects
/// (their keys from `key`) nested `depth` deep, about `size` nodes in all, up to `width`
/// items or members a container.
pub fn json(
    text: BoxedStrategy<String>,
    key: BoxedStrategy<String>,
    depth: u32,
    size: u32,
    width: usize,
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text.prop_map(Value::String),
    ];
    leaf.prop_recursive(depth, size, width as u32, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..width).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..width)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
