//! `<tool_call>` families: Hermes/Qwen JSON, GLM-4.5 `arg_key`, Qwen3-Coder `<function=…>`.

mod common;

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
fn hermes() {
    let r = parse("<tool_call>\n{\"name\": \"a\", \"arguments\": {\"code\": \"if (x) { return \\\"y\\\"; }\"}}\n</tool_call>");
    assert_eq!(
        r.tool_calls,
        [call(None, "a", json!({"code": "if (x) { return \"y\"; }"}))]
    );
    let r = parse("First:\n<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\nThen:\n<tool_call>{\"name\": \"b\", \"arguments\": {\"n\": 2}}</tool_call>\nThat's all.");
    assert_eq!(r.content.as_deref(), Some("First:\n\nThen:\n\nThat's all."));
    assert_eq!(r.tool_calls.len(), 2);
    let r = parse("<tool_call>\n{\"name\": \"a\", \"arguments\": {\"n\": 1}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"argum");
    assert_eq!(r.tool_calls, [call(None, "a", json!({"n": 1}))]);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn glm() {
    let r = parse("I'll search.\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>rust \"async\" {book}</arg_value>\n</tool_call>");
    assert_eq!(r.content.as_deref(), Some("I'll search."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "search",
            json!({"query": "rust \"async\" {book}"})
        )]
    );
    let r = parse("<tool_call>a\n<arg_key>n</arg_key>\n<arg_value>1</arg_value>\n</tool_call><tool_call>b\n<arg_key>tags</arg_key>\n<arg_value>[\"x\"]</arg_value>\n</tool_call>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"n": 1})),
            call(None, "b", json!({"tags": ["x"]}))
        ]
    );
}

#[test]
fn qwen3_coder() {
    let r = parse("<tool_call>\n<function=run>\n<parameter=cmd>\necho \"a\" && ls {x,y}\n</parameter>\n<parameter=timeout>\n30\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=read>\n<parameter=path>\nREADME.md\n</parameter>\n</function>\n</tool_call>");
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "run",
                json!({"cmd": "echo \"a\" && ls {x,y}", "timeout": 30})
            ),
            call(None, "read", json!({"path": "README.md"}))
        ]
    );
    let r =
        parse("Running it.\n<function=run>\n<parameter=cmd>\nmake test\n</parameter>\n</function>");
    assert_eq!(r.content.as_deref(), Some("Running it."));
    assert_eq!(
        r.tool_calls,
        [call(None, "run", json!({"cmd": "make test"}))]
    );
}

#[test]
fn a_call_that_cannot_be_read_is_content_with_a_warning() {
    // The lenient parser gives up on noise past its fix budget, and on a long key above many
    // fixes (their pointers past their budget): the call's text stayed content, and nothing
    // said why.
    let noise = format!(
        "{{\"name\": \"f\", \"arguments\": {{\"a\": {}}}}}",
        "\"".repeat(4_000)
    );
    let key = "k".repeat(100_000);
    let items: Vec<String> = (0..100).map(|i| format!("'{i}'")).collect();
    let long = format!(
        "{{\"name\": \"f\", \"arguments\": {{\"{key}\": [{}]}}}}",
        items.join(",")
    );
    for (body, why) in [
        (
            noise,
            "more fixes than any JSON document needs (over one per 4 bytes)",
        ),
        (long, "the fixes' JSON pointers would hold over"),
    ] {
        let reply = format!("Hello <tool_call>{body}</tool_call>");
        let r = parse(&reply);
        assert_eq!(r.content.as_deref(), Some(reply.as_str()));
        assert!(r.tool_calls.is_empty());
        assert_eq!(r.warnings.len(), 1);
        let w = &r.warnings[0];
        assert_eq!(
            (w.kind, w.path.as_str()),
            (llmout::WarningKind::ItemDropped, "/tool_calls/0")
        );
        assert!(
            w.message
                .starts_with(&format!("a <tool_call> call could not be read ({why}"))
                && w.message.ends_with("); its text is kept as content"),
            "{}",
            w.message
        );
        if body.len() < 100_000 {
            // (The live view reads the long key's arguments as they come, with no fix to
            // record: it shows the call until the end, where `finish` is `parse`.)
            common::streams_like_parse(&reply);
        }
    }
}

/// JSON in a `<tool_call>` that names no tool (its keys no call's) is no call: its text
/// stays content, and a warning says why.
#[test]
fn a_tagged_block_that_names_no_tool_is_said_to() {
    let reply = "Checking.<tool_call>{\"function\": \"get_weather\", \"args\": {\"city\": \"Paris\"}}</tool_call>";
    let r = parse(reply);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(reply));
    let said: Vec<(llmout::WarningKind, &str, &str)> = (r.warnings.iter())
        .map(|w| (w.kind, w.path.as_str(), &*w.message))
        .collect();
    assert_eq!(
        said,
        [(
            llmout::WarningKind::ItemDropped,
            "/tool_calls/0",
            "a <tool_call> call holds JSON that names no tool; its text is kept as content"
        )]
    );
    common::streams_like_parse(reply);
}

/// `<tool_call>` in prose (a model explaining the format) opens no call: it is text, and the
/// reply is read past it, its JSON calls with no marker included. Where a call can follow it
/// (JSON, `<function=`, a name and its keys or the closer), it opens one, as before.
#[test]
fn a_tool_call_marker_in_prose_is_text() {
    let reply = "Calls go in <tool_call> tags, like this one:\n{\"name\": \"lookup\", \"arguments\": {\"id\": 7}}";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "lookup", json!({"id": 7}))]);
    assert_eq!(
        r.content.as_deref(),
        Some("Calls go in <tool_call> tags, like this one:")
    );
    common::streams_like_parse(reply);

    let reply = "Wrap calls in <tool_call> tags.";
    let r = parse(reply);
    assert_eq!(r.tool_calls, []);
    assert_eq!(r.content.as_deref(), Some(reply));
    common::streams_like_parse(reply);

    for reply in [
        "<tool_call>get_time</tool_call>",
        "<tool_call>\nget_time\n<arg_key>tz</arg_key>\n<arg_value>UTC</arg_value>\n</tool_call>",
        "<tool_call>\n<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function>\n</tool_call>",
    ] {
        assert_eq!(parse(reply).tool_calls.len(), 1, "{reply}");
        common::streams_like_parse(reply);
    }
}
