//! Line-oriented families: Jamba and MiniMax `<tool_calls>`, Phi-4 `functools`, UI-TARS.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

#[test]
fn jamba() {
    let r = parse("<tool_calls>[{\"name\": \"a\", \"arguments\": {\"q\": \"x, y\"}}, {\"name\": \"b\", \"arguments\": {}}]</tool_calls>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"q": "x, y"})),
            call(None, "b", json!({}))
        ]
    );
    let r = parse("Checking.\n<tool_calls>[{\"name\": \"a\", \"arguments\": {\"s\": \"]}\"}}]</tool_calls>\nThen I will report.");
    assert_eq!(
        r.content.as_deref(),
        Some("Checking.\n\nThen I will report.")
    );
    assert_eq!(r.tool_calls, [call(None, "a", json!({"s": "]}"}))]);
    let r = parse("<tool_calls>[{\"name\": \"a\", \"argu");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn minimax() {
    let r = parse("<tool_calls>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}\n{\"name\": \"read\", \"arguments\": {\"path\": \"b\\nc\"}}\n</tool_calls>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "read", json!({"path": "a"})),
            call(None, "read", json!({"path": "b\nc"}))
        ]
    );
    let r = parse("Reading one file.\n<tool_calls>\n{\"name\": \"read\", \"arguments\": {\"path\": \"{x}\"}}\n</tool_calls>");
    assert_eq!(r.content.as_deref(), Some("Reading one file."));
    let r = parse(
        "<tool_calls>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}\n{\"name\": \"re",
    );
    assert_eq!(r.tool_calls, [call(None, "read", json!({"path": "a"}))]);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn phi4() {
    let r = parse("functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}]");
    assert_eq!(r.tool_calls.len(), 2);
    let r = parse("I will check.functools[{\"name\": \"f\", \"arguments\": {\"s\": \"[1, 2]\"}}]");
    assert_eq!(r.content.as_deref(), Some("I will check."));
    assert_eq!(r.tool_calls, [call(None, "f", json!({"s": "[1, 2]"}))]);
    let r = parse("functools[{\"name\": \"f\", \"arguments\": {\"s\": ");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn ui_tars() {
    let r = parse("Thought: Scroll down to find the button.\nAction: scroll(start_box='(500,400)', direction='down')");
    assert_eq!(
        r.content.as_deref(),
        Some("Scroll down to find the button.")
    );
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "scroll",
            json!({"start_box": "(500,400)", "direction": "down"})
        )]
    );
    let r = parse("Thought: Type, then submit.\nAction: type(content='hello, \\'world\\'')\nAction: hotkey(key='enter')");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "type", json!({"content": "hello, 'world'"})),
            call(None, "hotkey", json!({"key": "enter"}))
        ]
    );
    let r = parse("Thought: Done.\nAction: finished()");
    assert_eq!(r.tool_calls, [call(None, "finished", json!({}))]);
    // Cut off inside the call: no action.
    let r = parse("Thought: Click it.\nAction: click(start_box='(1,");
    assert!(r.tool_calls.is_empty());
    // The calls at the head of an action line are read as the stream reads them; what follows
    // them is content.
    let reply =
        "Thought: Click, then wait.\nAction: click(start_box='(10,20)') and wait for the page";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "click", json!({"start_box": "(10,20)"}))]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("Click, then wait.\n and wait for the page")
    );
    streams_like_parse(reply);
}
