//! Llama: `<|python_tag|>` JSON with `parameters`, and pythonic calls (3.2, 4).

use llmout::tools::{parse, ToolCall};
use serde_json::{json, Value};

fn call(id: Option<&str>, name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: id.map(str::to_owned),
        name: name.to_owned(),
        arguments: args.as_object().unwrap().clone(),
    }
}

#[test]
fn python_tag_json() {
    let r = parse("<|python_tag|>{\"name\": \"calc\", \"parameters\": {\"expr\": \"{1+2}\"}}");
    assert_eq!(r.tool_calls, [call(None, "calc", json!({"expr": "{1+2}"}))]);
    let r = parse("<|python_tag|>{\"name\": \"a\", \"parameters\": {}}\n{\"name\": \"b\", \"parameters\": {\"q\": \"x\\\"y\"}}");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({})),
            call(None, "b", json!({"q": "x\"y"}))
        ]
    );
    let r = parse("<|python_tag|>{\"name\": \"a\", \"parameters\": {\"q\": ");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn pythonic() {
    let r = parse("[search(query=\"it's {here}\", n=3), fetch(url='https://a.b/c?d=1,2')]");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "search", json!({"query": "it's {here}", "n": 3})),
            call(None, "fetch", json!({"url": "https://a.b/c?d=1,2"}))
        ]
    );
    let r = parse("<|python_start|>[a(x=[1, 2], y={'k': [True, False]})]<|python_end|>");
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "a",
            json!({"x": [1, 2], "y": {"k": [true, false]}})
        )]
    );
    let r = parse("[search(query='cut");
    assert!(r.tool_calls.is_empty());
}
