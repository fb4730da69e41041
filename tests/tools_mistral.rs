//! Mistral `[TOOL_CALLS]` in all its generations.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

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

/// `[TOOL_CALLS]` opens a call only where a call follows it: JSON, or a name and then `{`,
/// `[ARGS]` or `[CALL_ID]`. A marker in prose (a model explaining the format), or one
/// followed by a word and then a list, is text: the reply is read past it, and JSON calls
/// after it are read as in any reply with no marker. The prose was taken for a tool's name,
/// with the real call as its arguments.
#[test]
fn a_marker_that_no_call_follows_is_text() {
    let reply =
        "[TOOL_CALLS]  planning [{\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2}}] done";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "add", json!({"a": 1, "b": 2}))]);
    assert_eq!(r.content.as_deref(), Some("[TOOL_CALLS]  planning  done"));
    streams_like_parse(reply);

    let reply = "Models mark calls with [TOOL_CALLS] before them.\n{\"name\": \"lookup\", \"arguments\": {\"id\": 7}}";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "lookup", json!({"id": 7}))]);
    assert_eq!(
        r.content.as_deref(),
        Some("Models mark calls with [TOOL_CALLS] before them.")
    );
    streams_like_parse(reply);

    // After a call, a later marker in prose is text too.
    let reply = "[TOOL_CALLS]get_time[ARGS]{\"tz\": \"UTC\"}\nThat was [TOOL_CALLS] at work.";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "get_time", json!({"tz": "UTC"}))]);
    assert_eq!(r.content.as_deref(), Some("That was [TOOL_CALLS] at work."));
    streams_like_parse(reply);

    // One call object after the marker, as the array's generation writes it alone; a name
    // then a space before its arguments.
    for reply in [
        "[TOOL_CALLS]{\"name\": \"add\", \"arguments\": {\"a\": 1}}",
        "[TOOL_CALLS]add {\"a\": 1}",
    ] {
        assert_eq!(
            parse(reply).tool_calls,
            [call(None, "add", json!({"a": 1}))],
            "{reply}"
        );
        streams_like_parse(reply);
    }
}
