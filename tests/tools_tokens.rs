//! Token-marker families: DeepSeek, Kimi K2, Granite, InternLM, gpt-oss harmony, Gemma.
//! Several realistic replies each: several calls, text around, braces, quotes and newlines in
//! arguments, truncation.

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
fn deepseek() {
    let r = parse("I'll write the file.\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n{\"path\": \"a.json\", \"content\": \"{\\\"k\\\": \\\"v\\\"}\\nline 2\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    assert_eq!(r.content.as_deref(), Some("I'll write the file."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "write_file",
            json!({"path": "a.json", "content": "{\"k\": \"v\"}\nline 2"})
        )]
    );
    // V3.1, two calls, text after.
    let r = parse("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"x\": 1}<｜tool▁call▁end｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{\"y\": [2]}<｜tool▁call▁end｜><｜tool▁calls▁end｜>Done.");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"x": 1})),
            call(None, "b", json!({"y": [2]}))
        ]
    );
    assert_eq!(r.content.as_deref(), Some("Done."));
    // Truncated inside the arguments: no call, a warning.
    let r = parse("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"x\": \"par");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn kimi_k2() {
    let r = parse("Let me search.<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"a \\\"b\\\" {c}\"}<|tool_call_end|><|tool_calls_section_end|>");
    assert_eq!(r.content.as_deref(), Some("Let me search."));
    assert_eq!(
        r.tool_calls,
        [call(
            Some("functions.search:0"),
            "search",
            json!({"q": "a \"b\" {c}"})
        )]
    );
    let r = parse("<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{\"n\": 2}<|tool_call_end|><|tool_calls_section_end|>");
    assert_eq!(
        r.tool_calls,
        [
            call(Some("functions.a:0"), "a", json!({})),
            call(Some("functions.b:1"), "b", json!({"n": 2}))
        ]
    );
    let r = parse("<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{\"n\": ");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn granite() {
    let r = parse("<|tool_call|>[{\"name\": \"get_stock\", \"arguments\": {\"ticker\": \"IBM\"}}, {\"name\": \"get_news\", \"arguments\": {\"topic\": \"Q3 {earnings}\"}}]");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_stock", json!({"ticker": "IBM"})),
            call(None, "get_news", json!({"topic": "Q3 {earnings}"}))
        ]
    );
    let r = parse("Checking the price.<|tool_call|>[{\"name\": \"get_stock\", \"arguments\": {\"ticker\": \"IBM\"}}]");
    assert_eq!(r.content.as_deref(), Some("Checking the price."));
    let r = parse("<|tool_call|>[{\"name\": \"get_stock\", \"arguments\": {\"tick");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn internlm() {
    let r = parse("I need the weather.<|action_start|><|plugin|>\n{\"name\": \"weather\", \"parameters\": {\"city\": \"Shanghai\", \"note\": \"line1\\nline2\"}}<|action_end|>\n");
    assert_eq!(r.content.as_deref(), Some("I need the weather."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "weather",
            json!({"city": "Shanghai", "note": "line1\nline2"})
        )]
    );
    let r = parse("<|action_start|><|plugin|>{\"name\": \"a\", \"parameters\": {}}<|action_end|><|action_start|><|plugin|>{\"name\": \"b\", \"parameters\": {}}<|action_end|>");
    assert_eq!(r.tool_calls.len(), 2);
    let r = parse("<|action_start|><|plugin|>{\"name\": \"a\", \"parameters\": {\"x\"");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn harmony() {
    let r = parse("<|start|>assistant<|channel|>analysis<|message|>Two lookups needed.<|end|><|start|>assistant<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{\"id\": 1}<|call|><|start|>assistant<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{\"id\": 2}<|call|>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "lookup", json!({"id": 1})),
            call(None, "lookup", json!({"id": 2}))
        ]
    );
    let r = parse("<|channel|>commentary<|message|>Working on it.<|end|><|start|>assistant<|channel|>commentary to=functions.run <|constrain|>json<|message|>{\"cmd\": \"echo \\\"{}\\\"\"}<|call|>");
    assert_eq!(r.content.as_deref(), Some("Working on it."));
    assert_eq!(
        r.tool_calls,
        [call(None, "run", json!({"cmd": "echo \"{}\""}))]
    );
    let r =
        parse("<|channel|>commentary to=functions.run <|constrain|>json<|message|>{\"cmd\": \"ec");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn gemma() {
    let r = parse("<|tool_call>call:search{query:<|\"|>rust {serde}<|\"|>,limit:5}<tool_call|><|tool_call>call:open{url:<|\"|>https://x.y<|\"|>}<tool_call|>");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "search", json!({"query": "rust {serde}", "limit": 5})),
            call(None, "open", json!({"url": "https://x.y"}))
        ]
    );
    let r = parse("Sure.\n<|tool_call>call:now{}<tool_call|>\nOne moment.");
    assert_eq!(r.content.as_deref(), Some("Sure.\n\nOne moment."));
    let r = parse("<|tool_call>call:search{query:<|\"|>cut");
    assert!(r.tool_calls.is_empty());
}
