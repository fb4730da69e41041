//! Mistral `[TOOL_CALLS]` in all its generations.

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
fn mistral() {
    let r = parse(
        "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {\"s\": \"x]y\"}, \"id\": \"abc123def\"}]",
    );
    assert_eq!(
        r.tool_calls,
        [call(Some("abc123def"), "a", json!({"s": "x]y"}))]
    );
    let r = parse("[TOOL_CALLS]search{\"q\": \"a {b}\"}[TOOL_CALLS]open[ARGS]{\"url\": \"u\"}");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "search", json!({"q": "a {b}"})),
            call(None, "open", json!({"url": "u"}))
        ]
    );
    let r =
        parse("Looking it up.[TOOL_CALLS]search[CALL_ID]x1y2z3a4b[ARGS]{\"q\": \"line1\\nline2\"}");
    assert_eq!(r.content.as_deref(), Some("Looking it up."));
    assert_eq!(
        r.tool_calls,
        [call(
            Some("x1y2z3a4b"),
            "search",
            json!({"q": "line1\nline2"})
        )]
    );
    let r = parse("[TOOL_CALLS]search{\"q\": \"cut");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
}
