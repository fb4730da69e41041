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

/// A call the reply gives as an example, or quotes as code inside a sentence, is content with
/// a warning: the model described a call, it did not make one.
#[test]
fn a_call_the_text_mentions_is_content() {
    let mentioned = [
        "If you want the forecast, an example request is\n```json\n{\"name\": \"forecast\", \"arguments\": {\"town\": \"Oslo\"}}\n```\nSay which town.",
        "I have no tool access, so run `{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}` on your side.",
        "A search would be `{\"name\": \"grep\", \"arguments\": {\"pattern\": \"x\"}}` with your own pattern.",
        "Here is a sample:\n{\"name\": \"grep\", \"arguments\": {\"pattern\": \"x\"}}",
    ];
    for text in mentioned {
        let r = parse(text);
        assert_eq!(r.tool_calls, [], "{text}");
        assert_eq!(r.content.as_deref(), Some(text));
        let said: Vec<_> = r
            .warnings
            .iter()
            .map(|w| (w.path.to_string(), w.message.to_string()))
            .collect();
        let message = "a tool call the text gives as an example or quotes in a sentence is kept \
                       as content, not called";
        assert_eq!(
            said,
            [("/tool_calls".to_owned(), message.to_owned())],
            "{text}"
        );
    }
    // Presented: the line a colon ends, a line of its own, or the whole reply in backticks.
    let grep = || call(None, "grep", json!({"pattern": "TODO"}));
    let r = parse("Searching now: `{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}`");
    assert_eq!(
        (r.tool_calls, r.content.as_deref()),
        (vec![grep()], Some("Searching now:"))
    );
    let r = parse("Searching.\n`{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}`");
    assert_eq!(
        (r.tool_calls, r.content.as_deref()),
        (vec![grep()], Some("Searching."))
    );
    let r = parse("`{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}`");
    assert_eq!((r.tool_calls, r.content), (vec![grep()], None));
    assert!(r.warnings.is_empty());
}
