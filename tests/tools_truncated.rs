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

#[test]
fn a_bare_array_and_an_envelope_cut_off_keep_their_whole_calls() {
    for (reply, content) in [
        (
            "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"argu",
            "[, {\"name\": \"b\", \"argu",
        ),
        (
            "{\"tool_calls\": [{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"argu",
            "{\"tool_calls\": [, {\"name\": \"b\", \"argu",
        ),
    ] {
        let r = parse(reply);
        assert_eq!(r.tool_calls, [call(None, "a", json!({}))], "{reply}");
        assert_eq!(r.content.as_deref(), Some(content), "{reply}");
        assert_eq!(r.warnings.len(), 1, "{reply}");
        assert_eq!(r.warnings[0].path, "/tool_calls", "{reply}");
        streams_like_parse(reply);
    }
}

/// Arguments cut off inside a string that holds a brace: the lenient reader could end the
/// string at that brace and close the object (`{"q": "a {b}` as `{"q": "a {b"}`), a call made
/// of a fragment. None is: the text stays content. So too a DeepSeek V3 call cut off as its
/// fence opens (its JSON whole before the fence's closer is a call, as the stream shows it).
#[test]
fn arguments_cut_off_inside_a_string_at_a_brace_are_no_call() {
    for reply in [
        "[TOOL_CALLS]search[ARGS]{\"q\": \"a {b}",
        "<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"a {b}",
        "<｜tool▁call▁begin｜>search<｜tool▁sep｜>{\"q\": \"a {b}",
        "<|tool_call>call:search{q:<|\"|>a {b}",
        "<start_function_call>call:search{q:<escape>a {b}",
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n``",
        // With no marker: a bare call, and one after prose.
        "{\"name\": \"search\", \"arguments\": {\"q\": \"a {b}}",
        "Searching. {\"name\": \"search\", \"arguments\": {\"q\": \"a {b}}}",
    ] {
        let r = parse(reply);
        assert_eq!(r.tool_calls, [], "{reply}");
        assert_eq!(r.content.as_deref(), Some(reply));
        streams_like_parse(reply);
    }
    // The same string closed: a call.
    let r = parse("[TOOL_CALLS]search[ARGS]{\"q\": \"a {b}\"}");
    assert_eq!(r.tool_calls, [call(None, "search", json!({"q": "a {b}"}))]);
    let reply = "<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{\"q\": \"a\"}\n``";
    assert_eq!(
        parse(reply).tool_calls,
        [call(None, "search", json!({"q": "a"}))]
    );
    streams_like_parse(reply);
}

/// A call whose closer was written is whole: a brace left open before it was forgotten, not
/// cut off. It is closed, with a warning; where the text ends inside a string or a value,
/// the call was cut off after all.
#[test]
fn a_brace_left_open_before_the_calls_closer_is_closed() {
    let said = |reply: &str| -> Vec<(llmout::WarningKind, String, String)> {
        (parse(reply).warnings.into_iter())
            .map(|w| (w.kind, w.path, w.message.into_owned()))
            .collect()
    };
    let missing = llmout::WarningKind::Repaired(llmout::repair::RepairKind::MissingCloser);
    let closed = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}\n</tool_call>";
    let r = parse(closed);
    assert_eq!(
        r.tool_calls,
        [call(None, "get_weather", json!({"city": "Paris"}))]
    );
    assert_eq!(
        said(closed),
        [(
            missing,
            "/tool_calls/0".to_owned(),
            "closed a container whose closer was missing".to_owned()
        )]
    );
    streams_like_parse(closed);
    // harmony's arguments, ended by `<|call|>`: under the call's arguments.
    let harmony = "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\", \"days\": 2<|call|>";
    let r = parse(harmony);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "get_weather",
            json!({"city": "Paris", "days": 2})
        )]
    );
    assert_eq!(
        said(harmony),
        [(
            missing,
            "/tool_calls/0/arguments".to_owned(),
            "closed a container whose closer was missing".to_owned()
        )]
    );
    streams_like_parse(harmony);
    // The same in every family whose call ends at its closer: the stream and `parse` agree.
    for reply in [
        "<|tool_call_begin|>functions.ls:0<|tool_call_argument_begin|>{\"dir\": \"/\"<|tool_call_end|>",
        "<|tool_call_start|>[{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}<|tool_call_end|>",
        "<function_calls>[{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}</function_calls>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ls<｜tool▁sep｜>{\"dir\": \"/\"<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    ] {
        let r = parse(reply);
        assert_eq!(r.tool_calls.len(), 1, "{reply}");
        assert_eq!(r.tool_calls[0].arguments, *json!({"dir": "/"}).as_object().unwrap(), "{reply}");
        assert_eq!(r.warnings.len(), 1, "{reply}");
        assert_eq!(r.warnings[0].kind, missing, "{reply}");
        streams_like_parse(reply);
    }
    // Cut off inside a string, or after a key, though a closer follows; or with no closer:
    // no call.
    for reply in [
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par\n</tool_call>",
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\":</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}",
    ] {
        let r = parse(reply);
        assert!(r.tool_calls.is_empty(), "{reply}");
        assert_eq!(
            r.warnings[0].kind,
            llmout::WarningKind::ItemDropped,
            "{reply}"
        );
        streams_like_parse(reply);
    }
}
