//! Calls written in the prose, with no marker: Llama 3 JSON calls separated by `;` after
//! text, and pythonic lists (Llama 3.2 / 4) whose closing `]` is missing; Command R's
//! `Action:` on one line, with text after it; and a `<tool_call>` holding prose. Each reply
//! is also streamed in many chunkings.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::{parse, Stream};
use serde_json::json;

#[test]
fn llama3_json_calls_separated_by_semicolons_after_prose() {
    let reply = "I'll check the weather in both cities. {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"units\": {\"temp\": \"c\"}}}; {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lyon\"}}";
    let r = parse(reply);
    assert_eq!(
        r.content.as_deref(),
        Some("I'll check the weather in both cities.")
    );
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Paris", "units": {"temp": "c"}})
            ),
            call(None, "get_weather", json!({"city": "Lyon"})),
        ]
    );
    streams_like_parse(reply);
    // Three calls; the last one cut off is not a call, and its text stays.
    let reply = "{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"q\": \"say \\\"hi\\\"\"}}; {\"name\": \"c\", \"parameters\": {\"q\": \"ha";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({})),
            call(None, "b", json!({"q": "say \"hi\""})),
        ]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("; {\"name\": \"c\", \"parameters\": {\"q\": \"ha")
    );
    streams_like_parse(reply);
    // An array of calls after the first call: its calls join when it closes.
    let reply = "{\"name\": \"a\", \"parameters\": {}}; [{\"name\": \"b\", \"parameters\": {}}, {\"name\": \"c\", \"parameters\": {}}]";
    assert_eq!(parse(reply).tool_calls.len(), 3);
    streams_like_parse(reply);
    // While the array's first call is written, it is the call shown; not the second.
    let mut s = Stream::new();
    s.push(&reply[..reply.find("{}}, ").unwrap()]);
    assert_eq!(s.current().and_then(|c| c.name), Some("b"));
    s.push(&reply[reply.find("{}}, ").unwrap()..reply.rfind("{}").unwrap()]);
    assert_eq!(s.calls().len(), 1);
    assert!(s.current().is_none());
    // JSON that is no call after the first call ends the list: it is content.
    let reply = "{\"name\": \"a\", \"parameters\": {}}; {\"note\": \"not a call\"}";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "a", json!({}))]);
    assert_eq!(r.content.as_deref(), Some("; {\"note\": \"not a call\"}"));
    streams_like_parse(reply);
}

#[test]
fn one_call_to_a_markdown_fence() {
    // Each fence that starts with calls holds calls; the prose between them and a fence of
    // code stay content.
    let reply = "Two lookups.\n```json\n{\"name\": \"lookup\", \"arguments\": {\"id\": 7}}\n```\nThen the other one:\n\n```\n{\"name\": \"lookup\", \"arguments\": {\"id\": 8}}\n```\n```python\nprint({\"name\": 1})\n```\n~~~json\n[{\"name\": \"save\", \"arguments\": {}}, {\"name\": \"close\", \"arguments\": {}}]\n~~~";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "lookup", json!({"id": 7})),
            call(None, "lookup", json!({"id": 8})),
            call(None, "save", json!({})),
            call(None, "close", json!({})),
        ]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("Two lookups.\n\nThen the other one:\n\n\n```python\nprint({\"name\": 1})\n```")
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    streams_like_parse(reply);

    // Calls then text in one fence: the calls are calls, the text and the fence stay. Calls
    // separated by `;` in a fence are all read.
    let reply = "```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n```json\n{\"name\": \"b\", \"arguments\": {}};\n{\"name\": \"c\", \"arguments\": {}}\nas asked\n```";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({})),
            call(None, "b", json!({})),
            call(None, "c", json!({})),
        ]
    );
    assert_eq!(r.content.as_deref(), Some("```json\n\nas asked\n```"));
    streams_like_parse(reply);

    // The stream shows a call in a later fence while it is written.
    let mut s = Stream::new();
    s.push("```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n```json\n{\"name\": \"b\", \"arguments\": {\"q\": \"wh");
    assert_eq!(s.calls(), [call(None, "a", json!({}))]);
    let current = s.current().expect("a call being written");
    assert_eq!(current.name, Some("b"));
    assert_eq!(current.arguments(), Some(&json!({"q": "wh"})));
    s.push("y\"}}\n");
    assert_eq!(
        s.calls(),
        [
            call(None, "a", json!({})),
            call(None, "b", json!({"q": "why"}))
        ]
    );
    assert!(s.current().is_none());
}

#[test]
fn json_that_is_no_call_before_the_calls_is_passed_over_live() {
    // `parse` takes the first JSON that is calls; the stream looks on past a value that is
    // none, and shows the calls as they come.
    let reply = "The plan: {\"steps\": 2}\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n```json\n{\"name\": \"b\", \"arguments\": {}}\n```";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "a", json!({})), call(None, "b", json!({}))]
    );
    assert_eq!(r.content.as_deref(), Some("The plan: {\"steps\": 2}"));
    streams_like_parse(reply);
    let mut s = Stream::new();
    s.push(&reply[..reply.find("{}}").unwrap()]);
    assert_eq!(s.current().and_then(|c| c.name), Some("a"));
}

#[test]
fn fences_after_the_first_call_are_read_as_extraction_reads_fences() {
    // A call shown inside a fence of another kind is part of that fence's text, not a fence
    // of its own: no call. The `{...}` that is no call stays content.
    let reply = "```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n````markdown\nWrite:\n```json\n{\"name\": \"b\", \"arguments\": {}}\n```\n````\n```json\n{\"note\": 1}\n```\n  ```\n  {\"name\": \"c\", \"arguments\": {}}\n  ```";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "a", json!({})), call(None, "c", json!({}))]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("````markdown\nWrite:\n```json\n{\"name\": \"b\", \"arguments\": {}}\n```\n````\n```json\n{\"note\": 1}\n```")
    );
    streams_like_parse(reply);

    // A reply cut off in a later fence: its complete calls are calls; a call cut off is
    // content, and a warning says so.
    let reply = "```json\n{\"name\": \"a\", \"arguments\": {}}\n```\n```json\n{\"name\": \"b\", \"arguments\": {}}\n{\"name\": \"c\", \"arguments\": {\"q\": \"lo";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "a", json!({})), call(None, "b", json!({}))]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("```json\n\n{\"name\": \"c\", \"arguments\": {\"q\": \"lo")
    );
    assert_eq!(
        r.warnings
            .iter()
            .map(|w| (w.path.as_str(), &*w.message))
            .collect::<Vec<_>>(),
        [(
            "/tool_calls",
            "tool calls were cut off; the text is kept as content"
        )]
    );
    streams_like_parse(reply);
}

#[test]
fn pythonic_lists_missing_their_closing_bracket() {
    let reply = "[get_weather(city='Paris', days=[1, 2]), get_time(tz=\"Europe/Paris\")";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Paris", "days": [1, 2]})
            ),
            call(None, "get_time", json!({"tz": "Europe/Paris"})),
        ]
    );
    assert_eq!(r.content, None);
    streams_like_parse(reply);
    // Cut off inside the second call: the first call, written in full, is a call (as the
    // stream shows it); the second is not, and its text stays content.
    let cut = "[get_weather(city='Paris'), get_time(tz=\"Eur";
    let r = parse(cut);
    assert_eq!(
        r.tool_calls,
        [call(None, "get_weather", json!({"city": "Paris"}))]
    );
    assert_eq!(r.content.as_deref(), Some(", get_time(tz=\"Eur"));
    streams_like_parse(cut);
    // Cut off inside the first: no call.
    let cut = "[get_weather(city='Par";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
}

#[test]
fn a_long_chain_of_json_calls_is_read_from_its_first_call() {
    // Only the longest spans are JSON candidates; the chain still starts at its first call.
    let calls: Vec<String> = (0..30)
        .map(|i| {
            let note = if i < 10 { String::new() } else { "x".repeat(i) };
            format!(
                "{{\"name\": \"lookup\", \"parameters\": {{\"id\": {i}, \"note\": \"{note}\"}}}}"
            )
        })
        .collect();
    let reply = format!("Looking them all up. {}", calls.join("; "));
    let r = parse(&reply);
    let ids: Vec<u64> = r
        .tool_calls
        .iter()
        .map(|c| c.arguments["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (0..30).collect::<Vec<u64>>());
    assert_eq!(r.content.as_deref(), Some("Looking them all up."));
    streams_like_parse(&reply);
}

#[test]
fn command_r_actions_on_one_line_and_unfenced() {
    let reply = "Action: ```json [{\"tool_name\": \"ls\", \"parameters\": {\"dir\": \"/\"}}] ``` then more text";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/"}))]);
    assert_eq!(r.content.as_deref(), Some("then more text"));
    streams_like_parse(reply);
    let reply = "Action: [{\"tool_name\": \"search\", \"parameters\": {\"q\": \"x\"}}]";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "search", json!({"q": "x"}))]);
    assert_eq!(r.content, None);
    streams_like_parse(reply);
}

#[test]
fn a_tool_call_element_holding_no_call_stays_content() {
    let reply = "<tool_call>I think I should call something</tool_call> and more";
    let r = parse(reply);
    assert_eq!(r.tool_calls, []);
    assert_eq!(r.content.as_deref(), Some(reply));
    streams_like_parse(reply);
}

/// An action whose JSON list never closes holds the rest of the reply: its whole calls are
/// calls, and no `Action:` after it starts one (as the stream reads it), so thousands of
/// such actions are read once, in linear time (`benches/tools.rs`, `action_fences`).
#[test]
fn an_action_list_that_never_closes_holds_the_rest_of_the_reply() {
    let reply = "Action: ```json\n[{\"tool_name\": \"ls\", \"parameters\": {}}, {\"tool_name\": \"cat\", \"para\nAction: click(start_box='(1,2)')";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({}))]);
    assert_eq!(
        r.content.as_deref(),
        Some(", {\"tool_name\": \"cat\", \"para\nAction: click(start_box='(1,2)')")
    );
    streams_like_parse(reply);
    let reply = "Action: ```json\n[".repeat(1000);
    let r = parse(&reply);
    assert_eq!(r.tool_calls, []);
    assert_eq!(r.content.as_deref(), Some(reply.trim()));
}

/// A pythonic action whose `)` is never written holds the rest of the reply in the same way:
/// the calls before it are calls, no `Action:` after it starts one, and thousands of such
/// actions are read once (each read to the end of the reply was quadratic: 40 000 lines,
/// under 1 MB, took 17 s; `benches/tools.rs`, `action_calls_left_open`).
#[test]
fn a_pythonic_action_left_open_holds_the_rest_of_the_reply() {
    let reply = "Thought: click, then type.\nAction: click(start_box='(1,2)')\nAction: type(content='hello\nAction: scroll(direction='down')";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "click", json!({"start_box": "(1,2)"}))]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("click, then type.\n\nAction: type(content='hello\nAction: scroll(direction='down')")
    );
    streams_like_parse(reply);
    let reply = "Thought: look\nAction: click(start_box='(1,2)'\n".repeat(20_000);
    let r = parse(&reply);
    assert_eq!(r.tool_calls, []);
    assert_eq!(r.content.as_deref(), Some(reply.trim()));
}
