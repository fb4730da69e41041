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

/// A pythonic argument is a Python literal read as JSON: its quotes, `True`/`None`, a
/// trailing comma, a tuple or a set. What is no literal JSON can hold (a bytes literal, a
/// name, quotes that do not pair, a bracket too many, a float too large for JSON) is the
/// text the model wrote, as a parameter's text is: the repair guesses nothing from it (it
/// took `1]` for `1` and `1e999` for `null`).
#[test]
fn a_pythonic_argument_that_is_no_literal_is_its_text() {
    let r = parse(
        "[f(tuple=(1, 2), items=[1,], map={'a': None,}, set={3}, flag=True, n=-1.5, big=1e999, \
         bytes=b'z', name=x, quotes='x 'y' 'z, bracket=1])]",
    );
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "f",
            json!({
                "tuple": [1, 2], "items": [1], "map": {"a": null}, "set": [3], "flag": true,
                "n": -1.5, "big": "1e999", "bytes": "b'z'", "name": "x", "quotes": "'x 'y' 'z",
                "bracket": "1]"
            })
        )]
    );
    assert_eq!(r.warnings, []);
    let reply = "<|python_start|>[calc(x=1e999), get_weather(city='LA')]<|python_end|>";
    assert_eq!(
        parse(reply).tool_calls,
        [
            call(None, "calc", json!({"x": "1e999"})),
            call(None, "get_weather", json!({"city": "LA"}))
        ]
    );
}
