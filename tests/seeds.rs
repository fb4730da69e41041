//! Every example of the seeds (../shared/seeds) that llmout replaces, through the derive.
//!
//! Seed 000: a test runner's result parser. Seed 001: a tool-call envelope parser (its JSON
//! cases; the text formats are in tests/tools_*.rs). Seed 003: a commit tool's structured
//! output with extraction, sanitization and four recovery strategies.

use llmout::{ErrorKind, LlmOutput, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

fn kinds<T>(r: &llmout::ValidationResult<T>) -> Vec<(WarningKind, &str)> {
    r.warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect()
}

// ---------------------------------------------------------------- seed 003

/// A commit message (seed 003's GeneratedMessage).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct GeneratedMessage {
    emoji: Option<String>,
    title: String,
    message: String,
}

/// Seed 003's "markdown wrapper": one string field the model may fill as it likes.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct MarkdownPullRequest {
    content: String,
}

fn msg(emoji: Option<&str>, title: &str, message: &str) -> GeneratedMessage {
    GeneratedMessage {
        emoji: emoji.map(str::to_owned),
        title: title.to_owned(),
        message: message.to_owned(),
    }
}

#[test]
fn seed003_valid_json_takes_the_fast_path() {
    let r = GeneratedMessage::from_llm(
        r#"{"emoji": "✨", "title": "Add parallel analysis", "message": "Implements it."}"#,
    );
    assert_eq!(
        r.value,
        Some(msg(Some("✨"), "Add parallel analysis", "Implements it."))
    );
    assert!(r.warnings.is_empty());
    assert!(!r.recovered);
}

#[test]
fn seed003_extracts_json_from_markdown() {
    let reply = "\nHere's the result:\n```json\n{\"title\": \"Test\", \"message\": \"Body\"}\n```\nThis enables large changesets to be analyzed efficiently.";
    let r = GeneratedMessage::from_llm(reply);
    assert_eq!(r.value, Some(msg(None, "Test", "Body")));
    // Taking the answer out of the fence changes nothing the model wrote.
    assert!(r.warnings.is_empty());
    assert!(!r.recovered);
}

#[test]
fn seed003_extracts_json_by_brace_matching() {
    let reply = "I've analyzed the changes. {\"title\": \"Fix {braces} in strings\", \"message\": \"ok\"} Done.";
    let r = GeneratedMessage::from_llm(reply);
    assert_eq!(r.value, Some(msg(None, "Fix {braces} in strings", "ok")));
}

#[test]
fn seed003_sanitizes_literal_newlines() {
    let reply = "{\"title\": \"Fix authentication bug\", \"message\": \"The OAuth flow was broken\nbecause of invalid state handling\"}";
    let r = GeneratedMessage::from_llm(reply);
    assert_eq!(
        r.value,
        Some(msg(
            None,
            "Fix authentication bug",
            "The OAuth flow was broken\nbecause of invalid state handling"
        ))
    );
    assert_eq!(kinds(&r), [(WarningKind::Sanitized, "/message")]);
}

#[test]
fn seed003_recovers_missing_required_field() {
    let r = GeneratedMessage::from_llm(r#"{"title": "Test"}"#);
    assert_eq!(r.value, Some(msg(None, "Test", "")));
    assert!(r.recovered);
    assert_eq!(kinds(&r), [(WarningKind::MissingField, "/message")]);
    assert!(r.warnings[0].message.contains("missing field"));
}

#[test]
fn seed003_recovers_type_mismatches() {
    let r = GeneratedMessage::from_llm(r#"{"title": 404, "message": "Not found"}"#);
    assert_eq!(r.value, Some(msg(None, "404", "Not found")));
    assert_eq!(kinds(&r), [(WarningKind::Coerced, "/title")]);
    assert_eq!(r.warnings[0].message, "wrote 404 as the string \"404\"");
}

#[test]
fn seed003_replaces_null_with_default() {
    let r = GeneratedMessage::from_llm(r#"{"emoji": null, "title": null, "message": "m"}"#);
    assert_eq!(r.value, Some(msg(None, "", "m")));
    assert_eq!(kinds(&r), [(WarningKind::NullReplaced, "/title")]);
}

#[test]
fn seed003_required_fields_only_as_last_resort() {
    // The optional field cannot be made a string (an object would have to be stringified is
    // the cheapest reading) — so take an optional field that truly cannot fit: a list of
    // objects for an Option<u8>.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
    struct WithCount {
        title: String,
        count: Option<u8>,
    }
    let r = WithCount::from_llm(r#"{"title": "t", "count": "lots"}"#);
    assert_eq!(
        r.value,
        Some(WithCount {
            title: "t".into(),
            count: None
        })
    );
    assert_eq!(kinds(&r), [(WarningKind::RequiredOnly, "/count")]);
}

#[test]
fn seed003_markdown_wrapper_takes_plain_text() {
    let reply = "## Summary\n\nAdds parallel analysis.\n\n## Test Plan\n\n- [ ] Large changesets";
    let r = MarkdownPullRequest::from_llm(reply);
    assert_eq!(
        r.value,
        Some(MarkdownPullRequest {
            content: reply.to_owned()
        })
    );
    assert_eq!(kinds(&r), [(WarningKind::Reshaped, "")]);
    // A JSON reply for the same type still works.
    let r = MarkdownPullRequest::from_llm(r###"{"content": "## Summary"}"###);
    assert_eq!(r.value.unwrap().content, "## Summary");
}

#[test]
fn seed003_nothing_usable_is_an_error_not_defaults() {
    for (reply, found) in [
        ("", "empty input"),
        ("   \n", "only whitespace"),
        (
            "I'm sorry, but I can't help with that.",
            "text with no JSON in it: \"I'm sorry, but I can't help with that.\"",
        ),
        (
            "<think>I should answer {\"title\": \"x\"}",
            "only a reasoning block",
        ),
    ] {
        let r = GeneratedMessage::from_llm(reply);
        assert_eq!(r.value, None, "{reply:?}");
        let e = r.error.unwrap();
        assert_eq!(e.kind(), ErrorKind::NoJson, "{reply:?}");
        assert_eq!(
            e.expected(),
            "JSON for an object with fields `title`, `message`"
        );
        assert_eq!(e.found(), found);
    }
    // Braces in prose are not a commit message either.
    let r = GeneratedMessage::from_llm("Use {curly} braces and {} for that.");
    let e = r.error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Mismatch);
    assert_eq!(e.found(), "an empty object");
    let r = GeneratedMessage::from_llm("Here: {\"unrelated\": 1}");
    let e = r.error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Mismatch);
    assert_eq!(
        e.to_string(),
        "expected an object with fields `title`, `message`, found an object with none of them (keys \"unrelated\")"
    );
}

#[test]
fn seed003_example_before_the_answer_loses() {
    let reply = "The format is {\"title\": \"<title>\", \"message\": \"<body>\"}.\n\nAnswer: {\"title\": \"Real\", \"message\": \"Real body\"}";
    let r = GeneratedMessage::from_llm(reply);
    assert_eq!(r.value, Some(msg(None, "Real", "Real body")));
    // Choosing between two JSON values is a decision, and it is reported.
    assert_eq!(kinds(&r), [(WarningKind::Extracted, "")]);
    assert_eq!(
        r.warnings[0].message,
        "chose the JSON in the text over 1 other JSON value in the reply"
    );
}

#[test]
fn seed003_echoed_schema_loses_to_the_answer() {
    let schema = serde_json::to_string(GeneratedMessage::schema()).unwrap();
    let reply = format!("Schema: {schema}\nMy answer: {{\"title\": \"T\", \"message\": \"M\"}}");
    let r = GeneratedMessage::from_llm(&reply);
    assert_eq!(r.value, Some(msg(None, "T", "M")));
}

// ---------------------------------------------------------------- seed 000

/// Seed 000's TestResult: the status decides which fields exist (an internally tagged enum).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "status", rename_all = "lowercase")]
enum TestResult {
    Pass {
        id: Option<String>,
    },
    Fail {
        id: Option<String>,
        expectation: Option<String>,
        observed: Option<String>,
        location: Option<String>,
        resolution: Option<String>,
    },
    Error {
        id: Option<String>,
        error: Option<String>,
    },
    Invalid {
        id: Option<String>,
    },
    Skip {
        id: Option<String>,
    },
}

fn pass(id: &str) -> TestResult {
    TestResult::Pass {
        id: Some(id.to_owned()),
    }
}

#[test]
fn seed000_raw_json_array() {
    let r = Vec::<TestResult>::from_llm(r#"[{"id":"a","status":"pass"}]"#);
    assert_eq!(r.value, Some(vec![pass("a")]));
    assert!(!r.recovered);
}

#[test]
fn seed000_raw_object_is_wrapped_in_an_array() {
    let r = Vec::<TestResult>::from_llm(r#"{"id":"a","status":"pass"}"#);
    assert_eq!(r.value, Some(vec![pass("a")]));
    assert_eq!(kinds(&r), [(WarningKind::Reshaped, "")]);
    assert_eq!(
        r.warnings[0].message,
        "wrapped an object with keys \"id\", \"status\" in a one-element array"
    );
}

#[test]
fn seed000_fenced_json() {
    let r = Vec::<TestResult>::from_llm("```json\n[{\"id\":\"a\",\"status\":\"pass\"}]\n```");
    assert_eq!(r.value, Some(vec![pass("a")]));
}

#[test]
fn seed000_bracket_matched_array_and_object() {
    let r = Vec::<TestResult>::from_llm(
        "Here are results: [{\"id\":\"a\",\"status\":\"pass\"}, {\"id\":\"b\",\"status\":\"skip\"}] Hope that helps!",
    );
    assert_eq!(
        r.value,
        Some(vec![
            pass("a"),
            TestResult::Skip {
                id: Some("b".into())
            }
        ])
    );
    let r = TestResult::from_llm("Here is the result: {\"id\":\"a\",\"status\":\"pass\"} Cheers");
    assert_eq!(r.value, Some(pass("a")));
}

#[test]
fn seed000_per_variant_fields() {
    let r = TestResult::from_llm(
        r#"{"status": "fail", "id": "t1", "expectation": "2", "observed": "3", "location": "a.rs:4", "resolution": "fix"}"#,
    );
    assert_eq!(
        r.value,
        Some(TestResult::Fail {
            id: Some("t1".into()),
            expectation: Some("2".into()),
            observed: Some("3".into()),
            location: Some("a.rs:4".into()),
            resolution: Some("fix".into()),
        })
    );
}

#[test]
fn seed000_status_in_other_words() {
    let r = TestResult::from_llm(r#"{"status": "SKIPPED", "id": "x"}"#);
    assert_eq!(
        r.value,
        Some(TestResult::Skip {
            id: Some("x".into())
        })
    );
    assert_eq!(kinds(&r), [(WarningKind::EnumMatched, "/status")]);
}

#[test]
fn seed000_unknown_status_is_an_error_with_its_path() {
    // The seed turned unknown statuses into an "error" result; llmout says what was wrong.
    let r = Vec::<TestResult>::from_llm(
        r#"[{"id": "a", "status": "pass"}, {"id": "b", "status": "exploded"}]"#,
    );
    let e = r.error.unwrap();
    assert_eq!(e.path(), "/1/status");
    assert_eq!(e.kind(), ErrorKind::Mismatch);
}

#[test]
fn seed000_non_string_values_are_coerced_not_dropped() {
    // The seed silently dropped non-string values; llmout converts them and says so.
    let r = TestResult::from_llm(r#"{"status": "fail", "id": 7, "observed": 3.5}"#);
    assert_eq!(
        r.value,
        Some(TestResult::Fail {
            id: Some("7".into()),
            expectation: None,
            observed: Some("3.5".into()),
            location: None,
            resolution: None,
        })
    );
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Coerced, "/id"),
            (WarningKind::Coerced, "/observed")
        ]
    );
}

#[test]
fn seed000_unparseable_is_an_error() {
    let r = Vec::<TestResult>::from_llm("Could not run the tests.");
    assert_eq!(r.error.unwrap().kind(), ErrorKind::NoJson);
}

// ---------------------------------------------------------------- seed 001 (JSON cases)

/// Seed 001's canonical envelope.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct LlmToolCallResponse {
    content: Option<String>,
    tool_calls: Option<Vec<McpToolCall>>,
    needs_more_work: Option<bool>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct McpToolCall {
    name: String,
    arguments: serde_json::Map<String, serde_json::Value>,
}

fn call(name: &str, args: serde_json::Value) -> McpToolCall {
    McpToolCall {
        name: name.to_owned(),
        arguments: args.as_object().cloned().unwrap_or_default(),
    }
}

#[test]
fn seed001_clean_envelope() {
    let r = LlmToolCallResponse::from_llm(
        r#"{"toolCalls": [{"name": "read_file", "arguments": {"path": "x.txt"}}], "needsMoreWork": true}"#,
    );
    let v = r.value.unwrap();
    assert_eq!(
        v.tool_calls,
        Some(vec![call(
            "read_file",
            serde_json::json!({"path": "x.txt"})
        )])
    );
    assert_eq!(v.needs_more_work, Some(true));
    assert!(r.warnings.is_empty());
}

#[test]
fn seed001_content_only() {
    let r =
        LlmToolCallResponse::from_llm(r#"{"content": "The answer is 42", "needsMoreWork": false}"#);
    let v = r.value.unwrap();
    assert_eq!(v.content.as_deref(), Some("The answer is 42"));
    assert_eq!(v.needs_more_work, Some(false));
    assert_eq!(v.tool_calls, None);
}

#[test]
fn seed001_markdown_wrapped_json() {
    for reply in [
        "Here is the result:\n```json\n{\"toolCalls\": [{\"name\": \"test\", \"arguments\": {}}], \"needsMoreWork\": true}\n```",
        "I'll search for that information.\n\n```json\n{\"toolCalls\": [{\"name\": \"test\", \"arguments\": {}}], \"needsMoreWork\": true}\n```",
    ] {
        let r = LlmToolCallResponse::from_llm(reply);
        assert_eq!(r.value.unwrap().tool_calls, Some(vec![call("test", serde_json::json!({}))]));
    }
}

#[test]
fn seed001_mixed_text_with_embedded_json() {
    let r = LlmToolCallResponse::from_llm(
        "I will help you with that.\n\n{\"toolCalls\": [{\"name\": \"search\", \"arguments\": {\"q\": \"test\"}}], \"needsMoreWork\": true}",
    );
    assert_eq!(
        r.value.unwrap().tool_calls,
        Some(vec![call("search", serde_json::json!({"q": "test"}))])
    );
}

#[test]
fn seed001_keys_in_another_convention() {
    let r = LlmToolCallResponse::from_llm(
        r#"{"tool_calls": [{"name": "x", "arguments": {}}], "needs_more_work": "yes"}"#,
    );
    let v = r.value.as_ref().unwrap();
    assert_eq!(v.tool_calls, Some(vec![call("x", serde_json::json!({}))]));
    assert_eq!(v.needs_more_work, Some(true));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::KeyRenamed, "/toolCalls"),
            (WarningKind::KeyRenamed, "/needsMoreWork"),
            (WarningKind::Coerced, "/needsMoreWork"),
        ]
    );
}

// ---------------------------------------------------------------- no JSON at all

#[test]
fn key_value_lines_when_the_model_ignores_the_json_request() {
    let reply = "Here is the commit:\n\n**Title:** Fix login\n**Message:** Compare tokens in constant time.\n**Emoji:** 🔒\n";
    let r = GeneratedMessage::from_llm(reply);
    assert_eq!(
        r.value,
        Some(msg(
            Some("🔒"),
            "Fix login",
            "Compare tokens in constant time."
        ))
    );
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Reshaped, ""),
            (WarningKind::KeyRenamed, "/title"),
            (WarningKind::KeyRenamed, "/message"),
            (WarningKind::KeyRenamed, "/emoji"),
        ]
    );
}

#[test]
fn feedback_for_a_retry() {
    let r = GeneratedMessage::from_llm(r#"{"title": null, "mesage": "x"}"#);
    // To the model, in its terms: what is wrong with each field, not what llmout did.
    assert_eq!(
        r.feedback().unwrap(),
        "Your reply could not be used:\n\
         - The field `mesage` is not a field of the answer.\n\
         - The field `title` is null.\n\
         - The field `message` is missing.\n\
         Reply again with only the corrected JSON."
    );
    // With the schema, what each field must be.
    assert_eq!(
        llmout::retry::feedback(&r, GeneratedMessage::compiled_schema()).unwrap(),
        "Your reply could not be used:\n\
         - The field `mesage` is not a field of the answer.\n\
         - The field `title` is null; it must be a string.\n\
         - The field `message` is missing; it must be a string.\n\
         Reply again with only the corrected JSON."
    );
}
