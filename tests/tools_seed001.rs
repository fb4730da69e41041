//! Seed 001's test list, in full, through `llmout::tools::parse` (Rust naming; where the seed
//! expects `content: ""` for an empty reply, llmout says `None`, as issue 5 asks).

use llmout::tools::parse;
use serde_json::json;

#[test]
fn clean_json_envelope() {
    let r = parse(
        r#"{"toolCalls": [{"name": "read_file", "arguments": {"path": "x.txt"}}], "needsMoreWork": true}"#,
    );
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "read_file");
    assert_eq!(r.needs_more_work, Some(true));
}

#[test]
fn content_only_response() {
    let r = parse(r#"{"content": "The answer is 42", "needsMoreWork": false}"#);
    assert_eq!(r.content.as_deref(), Some("The answer is 42"));
    assert_eq!(r.needs_more_work, Some(false));
    assert!(r.tool_calls.is_empty());
}

#[test]
fn function_calls_with_json_array() {
    let r = parse(
        r#"<function_calls>[{"name": "list_dir", "arguments": {"path": "."}}]</function_calls>"#,
    );
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "list_dir");
    assert_eq!(r.content, None);
}

#[test]
fn text_outside_function_calls_is_content() {
    let r = parse("I will list that directory.\n<function_calls>[{\"name\": \"list_dir\", \"arguments\": {\"path\": \".\"}}]</function_calls>");
    assert_eq!(r.content.as_deref(), Some("I will list that directory."));
    assert_eq!(r.tool_calls[0].arguments["path"], ".");
}

#[test]
fn invoke_tags_with_parameters() {
    let r = parse(
        r#"<function_calls><invoke name="read_file"><parameter name="path">config.json</parameter></invoke></function_calls>"#,
    );
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "read_file");
    assert_eq!(r.tool_calls[0].arguments["path"], "config.json");
}

#[test]
fn multiple_invoke_tags() {
    let r = parse(
        r#"<function_calls><invoke name="read_file"><parameter name="path">a.txt</parameter></invoke><invoke name="read_file"><parameter name="path">b.txt</parameter></invoke></function_calls>"#,
    );
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(r.tool_calls[1].arguments["path"], "b.txt");
}

#[test]
fn json_in_a_markdown_fence() {
    let r = parse("Here is the result:\n```json\n{\"toolCalls\": [{\"name\": \"test\", \"arguments\": {}}], \"needsMoreWork\": true}\n```");
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "test");
}

#[test]
fn json_embedded_in_text() {
    let r = parse("I will help you with that.\n\n{\"toolCalls\": [{\"name\": \"search\", \"arguments\": {\"q\": \"test\"}}], \"needsMoreWork\": true}");
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "search");
    assert_eq!(r.content.as_deref(), Some("I will help you with that."));
}

#[test]
fn token_markers() {
    let r = parse(
        r#"<|tool_calls_section_begin|><|tool_call_begin|>{"name": "test", "arguments": {}}<|tool_call_end|><|tool_calls_section_end|>"#,
    );
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "test");
    assert_eq!(r.content, None);
}

#[test]
fn single_tool_object() {
    let r = parse(r#"{"name": "read_file", "arguments": {"path": "test.txt"}}"#);
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "read_file");
    assert_eq!(r.needs_more_work, Some(true));
}

#[test]
fn plain_text() {
    let r = parse("The answer to your question is 42.");
    assert_eq!(
        r.content.as_deref(),
        Some("The answer to your question is 42.")
    );
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.needs_more_work, None);
}

#[test]
fn empty_string() {
    let r = parse("");
    assert_eq!(
        (r.content, r.tool_calls.len(), r.needs_more_work),
        (None, 0, None)
    );
}

#[test]
fn malformed_json_stays_content() {
    let input = r#"{"toolCalls": [{"name": "test""#;
    let r = parse(input);
    assert_eq!(r.content.as_deref(), Some(input));
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn claude_example_b_types_parameter_values() {
    let r = parse("<function_calls>\n<invoke name=\"search_web\">\n<parameter name=\"query\">weather today</parameter>\n<parameter name=\"num_results\">5</parameter>\n</invoke>\n</function_calls>");
    assert_eq!(
        r.tool_calls[0].arguments,
        json!({"query": "weather today", "num_results": 5})
            .as_object()
            .unwrap()
            .clone()
    );
}
