//! JSON family: envelopes, single calls, OpenAI-shaped leaks, arrays; whole, fenced, in prose.

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
fn json_family() {
    let r = parse("```json\n[{\"name\": \"a\", \"arguments\": {\"s\": \"{}\"}}, {\"name\": \"b\", \"parameters\": {\"t\": \"\\n\"}}]\n```");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"s": "{}"})),
            call(None, "b", json!({"t": "\n"}))
        ]
    );
    let r = parse("Here you go: {\"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"f\", \"arguments\": \"{\\\"a\\\": \\\"b c\\\"}\"}}]} Let me know.");
    assert_eq!(r.tool_calls, [call(Some("c1"), "f", json!({"a": "b c"}))]);
    assert_eq!(r.content.as_deref(), Some("Here you go:  Let me know."));
    let r = parse("{\"content\": \"Reading now\", \"tool_calls\": [{\"name\": \"read\", \"arguments\": {}}], \"needs_more_work\": false}");
    assert_eq!(
        (r.content.as_deref(), r.needs_more_work, r.tool_calls.len()),
        (Some("Reading now"), Some(false), 1)
    );
    let r = parse("{\"name\": \"read\", \"arguments\": {\"path\": \"a");
    assert!(r.tool_calls.is_empty());
    assert_eq!(
        r.content.as_deref(),
        Some("{\"name\": \"read\", \"arguments\": {\"path\": \"a")
    );
}
