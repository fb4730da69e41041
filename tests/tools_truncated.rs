//! Replies cut off in the middle of a list of calls (the model's token limit): the calls
//! written in full before the cut are calls, in every family whose calls are a JSON array,
//! exactly as the stream shows them while they arrive; the call cut off is not a call, its
//! text stays content, and a warning says so.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

/// Two whole calls, then the third cut off inside its arguments.
const CALLS: &str = "[{\"name\": \"read_file\", \"arguments\": {\"path\": \"src/{lib}.rs\", \"range\": [1, 40]}}, {\"name\": \"grep\", \"arguments\": {\"pattern\": \"fn \\\"main\\\"\"}}, {\"name\": \"write_file\", \"arguments\": {\"path\": \"a.rs\", \"content\": \"fn ma";
const CUT: &str =
    "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.rs\", \"content\": \"fn ma";

fn expected() -> Vec<llmout::tools::ToolCall> {
    vec![
        call(
            None,
            "read_file",
            json!({"path": "src/{lib}.rs", "range": [1, 40]}),
        ),
        call(None, "grep", json!({"pattern": "fn \"main\""})),
    ]
}

#[test]
fn the_whole_calls_of_a_cut_array_are_calls_in_every_family() {
    let replies = [
        format!("Reading both.\n<tool_call>{CALLS}"),
        format!("[TOOL_CALLS]{CALLS}"),
        format!("<|tool_call|>{CALLS}"),
        format!("<tool_calls>{CALLS}"),
        format!("<|python_tag|>{CALLS}"),
        format!("functools{CALLS}"),
        format!("<|tool_call_start|>{CALLS}"),
        format!("<function_calls>{CALLS}"),
        format!("<longcat_tool_call>{CALLS}"),
        format!("Action: ```json\n{CALLS}"),
    ];
    for reply in &replies {
        let r = parse(reply);
        assert_eq!(r.tool_calls, expected(), "{reply}");
        let content = r.content.as_deref().unwrap_or_default();
        assert!(
            content.ends_with(&format!(", {CUT}")),
            "{reply}: {content:?}"
        );
        assert_eq!(r.warnings.len(), 1, "{reply}");
        assert_eq!(r.warnings[0].path, "/tool_calls/2", "{reply}");
        streams_like_parse(reply);
    }
    assert_eq!(
        parse(&replies[0]).content.as_deref(),
        Some(format!("Reading both.\n, {CUT}").as_str())
    );
}

#[test]
fn a_cut_inside_the_first_call_gives_none() {
    for reply in [
        format!("<tool_call>[{CUT}"),
        format!("[TOOL_CALLS][{CUT}"),
        format!("<|tool_call|>[{CUT}"),
    ] {
        let r = parse(&reply);
        assert!(r.tool_calls.is_empty(), "{reply}");
        assert_eq!(r.content.as_deref(), Some(reply.as_str()));
        streams_like_parse(&reply);
    }
}
