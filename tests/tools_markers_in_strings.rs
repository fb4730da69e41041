//! A call whose string argument quotes its own family's markers (a model explaining the format,
//! a file that holds it): in the families whose calls are JSON (or pythonic calls) between an
//! opener and a closer, a marker inside a quoted string is that string's text. The call ends
//! at the closer after its value, and the stream reads it the same way.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

/// A family: its opener and closer, and how it writes one call of `echo` whose `text`
/// argument is the JSON string `quoted` (with its quotes).
struct Family {
    name: &'static str,
    open: &'static str,
    close: &'static str,
    write: fn(&str) -> String,
}

fn families() -> Vec<Family> {
    vec![
        Family {
            name: "Hermes",
            open: "<tool_call>",
            close: "</tool_call>",
            write: |q| format!(r#"{{"name": "echo", "arguments": {{"text": {q}}}}}"#),
        },
        Family {
            name: "LongCat",
            open: "<longcat_tool_call>",
            close: "</longcat_tool_call>",
            write: |q| format!(r#"{{"name": "echo", "arguments": {{"text": {q}}}}}"#),
        },
        Family {
            name: "Cohere",
            open: "<|START_ACTION|>",
            close: "<|END_ACTION|>",
            write: |q| {
                format!(
                    r#"[{{"tool_call_id": "0", "tool_name": "echo", "parameters": {{"text": {q}}}}}]"#
                )
            },
        },
        Family {
            name: "function_calls",
            open: "<function_calls>",
            close: "</function_calls>",
            write: |q| format!(r#"[{{"name": "echo", "arguments": {{"text": {q}}}}}]"#),
        },
        Family {
            name: "Jamba",
            open: "<tool_calls>",
            close: "</tool_calls>",
            write: |q| format!(r#"[{{"name": "echo", "arguments": {{"text": {q}}}}}]"#),
        },
        Family {
            name: "LFM2",
            open: "<|tool_call_start|>",
            close: "<|tool_call_end|>",
            write: |q| format!(r#"[{{"name": "echo", "arguments": {{"text": {q}}}}}]"#),
        },
        Family {
            name: "Apertus",
            open: "<|tools_prefix|>",
            close: "<|tools_suffix|>",
            write: |q| format!(r#"[{{"echo": {{"text": {q}}}}}]"#),
        },
        Family {
            name: "InternLM",
            open: "<|action_start|><|plugin|>",
            close: "<|action_end|>",
            write: |q| format!(r#"{{"name": "echo", "parameters": {{"text": {q}}}}}"#),
        },
        Family {
            name: "Llama 4",
            open: "<|python_start|>",
            close: "<|python_end|>",
            write: |q| format!("[echo(text={q})]"),
        },
    ]
}

/// The call of `echo` with `text`, as the family writes it, and the call `parse` must give.
fn check(fam: &Family, text: &str, before: &str, after: &str) {
    let quoted = serde_json::to_string(text).unwrap();
    let reply = format!(
        "{before}{}{}{}{after}",
        fam.open,
        (fam.write)(&quoted),
        fam.close
    );
    let r = parse(&reply);
    let id = (fam.name == "Cohere").then_some("0");
    assert_eq!(
        r.tool_calls,
        [call(id, "echo", json!({ "text": text }))],
        "{}: {reply:?}",
        fam.name
    );
    assert_eq!(r.warnings, [], "{}: {reply:?}", fam.name);
    assert_eq!(
        r.content.as_deref().unwrap_or_default(),
        format!("{before}{after}").trim(),
        "{}: {reply:?}",
        fam.name
    );
    streams_like_parse(&reply);
}

#[test]
fn a_closer_in_a_string_is_text() {
    for fam in families() {
        check(&fam, &format!("end the call with {}", fam.close), "", "");
        check(
            &fam,
            &format!("{} goes last, then nothing", fam.close),
            "Quoting it.\n\n",
            "\n\nDone.",
        );
    }
}

#[test]
fn an_opener_in_a_string_is_text() {
    for fam in families() {
        check(
            &fam,
            &format!("calls start with {} and end with {}", fam.open, fam.close),
            "Explaining the format.\n\n",
            "",
        );
    }
}

/// Where the JSON does not close before the closer, the closer ends the call as before: a
/// brace left open was forgotten (closed with a warning), and a string left open was cut off.
#[test]
fn a_closer_outside_the_strings_still_ends_the_call() {
    let r = parse(
        "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1}</tool_call>\n\
         <tool_call>{\"name\": \"b\", \"arguments\": {\"y\": \"}\"}}</tool_call>",
    );
    assert_eq!(
        r.tool_calls,
        [
            call(None, "a", json!({"x": 1})),
            call(None, "b", json!({"y": "}"}))
        ]
    );
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].path, "/tool_calls/0");

    let cut = "<tool_call>{\"name\": \"a\", \"arguments\": {\"q\": \"abc}}</tool_call>";
    let r = parse(cut);
    assert_eq!(r.tool_calls, []);
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
}

/// A reply that is a JSON call or a pythonic list, whose strings quote other families'
/// markers: the markers are the strings' text, and the reply is read as what it opens with.
/// (The earliest marker decided the family before: `[TOOL_CALLS]` inside the string, and the
/// call was lost.) Prose quotes nothing: a marker after an unclosed quote in prose, or after
/// the value the reply opens with, still opens its calls.
#[test]
fn markers_in_the_strings_of_a_reply_that_opens_with_json_are_text() {
    for (reply, name, text) in [
        (
            "[echo(text=\"Use [TOOL_CALLS] and <tool_call> in text\")]",
            "echo",
            "Use [TOOL_CALLS] and <tool_call> in text",
        ),
        (
            "[echo(text='a <|python_tag|> token')]",
            "echo",
            "a <|python_tag|> token",
        ),
        (
            "{\"name\": \"write\", \"arguments\": {\"text\": \"wrap calls in <tool_call> tags\"}}",
            "write",
            "wrap calls in <tool_call> tags",
        ),
    ] {
        let r = parse(reply);
        assert_eq!(
            r.tool_calls,
            [call(None, name, json!({ "text": text }))],
            "{reply}"
        );
        assert_eq!(r.content, None, "{reply}");
        streams_like_parse(reply);
    }
    for reply in [
        "{\"note\": \"x\"} then <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>",
        "Prose (with \"a quote <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>",
    ] {
        let r = parse(reply);
        assert_eq!(r.tool_calls, [call(None, "a", json!({}))], "{reply}");
        streams_like_parse(reply);
    }
}
