//! XML families: `<function_calls>` with JSON or `<invoke>`, and Anthropic `<invoke>`.

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
fn function_calls_json() {
    let r = parse("<function_calls>\n[{\"name\": \"a\", \"arguments\": {\"x\": \"<b>\"}}, {\"name\": \"c\", \"arguments\": {}}]\n</function_calls>\nWaiting for results.");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"x": "<b>"})),
            call(None, "c", json!({}))
        ]
    );
    assert_eq!(r.content.as_deref(), Some("Waiting for results."));
    let r = parse("<function_calls>[{\"name\": \"a\", \"arguments\": {\"x\": 1");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn invoke() {
    let r = parse("I'll edit it.\n<function_calls>\n<invoke name=\"edit\">\n<parameter name=\"path\">src/lib.rs</parameter>\n<parameter name=\"new\">fn main() {\n    println!(\"{}\", 1);\n}</parameter>\n</invoke>\n</function_calls>");
    assert_eq!(r.content.as_deref(), Some("I'll edit it."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "edit",
            json!({"path": "src/lib.rs", "new": "fn main() {\n    println!(\"{}\", 1);\n}"})
        )]
    );
    let r = parse("<invoke name=\"a\"><parameter name=\"n\">1</parameter></invoke><invoke name=\"b\"><parameter name=\"flags\">[\"-v\"]</parameter></invoke>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"n": 1})),
            call(None, "b", json!({"flags": ["-v"]}))
        ]
    );
    // Cut off inside the last parameter: not a call (half an argument must not run a tool).
    let r = parse("Answering.<invoke name=\"a\"><parameter name=\"text\">partial answ");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(
        r.content.as_deref(),
        Some("Answering.<invoke name=\"a\"><parameter name=\"text\">partial answ")
    );
}
