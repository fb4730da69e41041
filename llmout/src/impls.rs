//! [`LlmOutput`] for standard types, so `Vec<T>::from_llm`, `Option<T>::from_llm`,
//! `HashMap<String, T>::from_llm` and `String::from_llm` work without a wrapper struct.
//! Containers forward the annotations (aliases, `no_invent`) of their element type.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::__private::Annotations;
use crate::LlmOutput;

macro_rules! forward {
    ($($ty:ty),* $(,)?) => {$(
        impl<T: LlmOutput> LlmOutput for $ty {
            fn __llmout_annotate(annotations: &mut Annotations) {
                T::__llmout_annotate(annotations);
            }
        }
    )*};
}

forward!(
    Vec<T>,
    VecDeque<T>,
    Option<T>,
    Box<T>,
    HashMap<String, T>,
    BTreeMap<String, T>,
);

macro_rules! leaf {
    ($($ty:ty),* $(,)?) => {$(
        impl LlmOutput for $ty {}
    )*};
}

leaf!(
    String, bool, char, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64,
    serde_json::Value, serde_json::Map<String, serde_json::Value>,
);

#[cfg(test)]
mod tests {
    use crate::LlmOutput;

    #[test]
    fn containers_and_leaves() {
        let r = Vec::<u32>::from_llm("Numbers: [1, \"2\", 3.0]");
        assert_eq!(r.value, Some(vec![1, 2, 3]));
        assert_eq!(r.warnings.len(), 2); // "2" and 3.0 coerced
        let r = String::from_llm("Just some text.");
        assert_eq!(r.value.as_deref(), Some("Just some text."));
        let r = Option::<bool>::from_llm("null");
        assert_eq!(r.value, Some(None));
        let r = std::collections::HashMap::<String, i64>::from_llm("{\"a\": \"1,000\"}");
        assert_eq!(r.value.unwrap()["a"], 1000);
    }
}
