//! `tools::parse` on realistic replies of each marker family: several calls, text before and
//! after, arguments with braces, quotes and newlines, truncation, reasoning blocks.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::{parse, ToolCall};
use proptest::prelude::*;
use serde_json::json;

#[test]
fn hermes_qwen_several_calls_closer_optional() {
    let r = parse(
        "I'll check both files.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"src/{lib}.rs\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"grep\", \"arguments\": \"{\\\"pattern\\\": \\\"fn \\\\\\\"main\\\\\\\"\\\"}\"}",
    );
    assert_eq!(r.content.as_deref(), Some("I'll check both files."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "read_file", json!({"path": "src/{lib}.rs"})),
            call(None, "grep", json!({"pattern": "fn \"main\""})),
        ]
    );
}

#[test]
fn calls_inside_reasoning_are_not_calls() {
    let r = parse("<think>maybe <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call>? no.</think>Nothing to do.");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("Nothing to do."));
}

#[test]
fn glm_arg_key_value() {
    let r = parse("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>");
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "get_weather",
            json!({"city": "Paris", "days": 3})
        )]
    );
}

#[test]
fn qwen3_coder_functions_with_missing_closers() {
    let r = parse("<tool_call>\n<function=write_file>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\ndef f():\n    return {\"a\": 1}\n</parameter>\n</function>\n</tool_call>");
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "write_file",
            json!({"path": "a.py", "content": "def f():\n    return {\"a\": 1}"})
        )]
    );
    // A parameter's closer left out, the next parameter or the call's closer ending it.
    let reply = "<function=ls>\n<parameter=dir>\n/tmp\n<parameter=all>\ntrue\n</function>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "ls", json!({"dir": "/tmp", "all": true}))]
    );
    streams_like_parse(reply);
    // No closer at all before the end of the reply: cut off (its value may be half written),
    // not a call; its text is content, as in the stream.
    let cut = "Listing.\n<function=ls>\n<parameter=dir>\n/tmp\n";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut.trim()));
    assert_eq!(r.warnings[0].path, "/tool_calls/0");
    streams_like_parse(cut);
}

#[test]
fn a_function_element_holding_json_has_those_arguments() {
    // Llama 3.1's custom tool call: the arguments as one JSON object inside the element,
    // repaired as any call's JSON is, and the same as it streams in.
    let reply =
        "Checking.\n<function=get_weather>\n{\"city\": \"Paris\", \"days\": 3,}\n</function>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Checking."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "get_weather",
            json!({"city": "Paris", "days": 3})
        )]
    );
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].path, "/tool_calls/0/arguments");
    streams_like_parse(reply);
    let bare = "<function=ping>{}</function><function=get_time>{\"tz\": \"UTC\"}</function>";
    assert_eq!(
        parse(bare).tool_calls,
        [
            call(None, "ping", json!({})),
            call(None, "get_time", json!({"tz": "UTC"}))
        ]
    );
    streams_like_parse(bare);
}

#[test]
fn anthropic_invoke_without_wrapper_and_namespaced() {
    let r = parse("Checking.\n<invoke name=\"search\">\n<parameter name=\"q\">rust \"serde\" {derive}</parameter>\n</invoke>");
    assert_eq!(r.content.as_deref(), Some("Checking."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "search",
            json!({"q": "rust \"serde\" {derive}"})
        )]
    );
    let ns = [
        "<",
        "antml:function_calls><",
        "antml:invoke name=\"ls\"><",
        "antml:parameter name=\"dir\">/tmp</",
        "antml:parameter></",
        "antml:invoke></",
        "antml:function_calls>",
    ]
    .concat();
    assert_eq!(
        parse(&ns).tool_calls,
        [call(None, "ls", json!({"dir": "/tmp"}))]
    );
}

#[test]
fn mistral_generations() {
    let old = parse("[TOOL_CALLS] [{\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2}}, {\"name\": \"sub\", \"arguments\": {\"a\": 3, \"b\": 1}}]");
    assert_eq!(old.tool_calls.len(), 2);
    let v11 = parse("Sure.[TOOL_CALLS]add{\"a\": 1, \"b\": 2}[TOOL_CALLS]sub{\"a\": 3}");
    assert_eq!(v11.content.as_deref(), Some("Sure."));
    assert_eq!(
        v11.tool_calls,
        [
            call(None, "add", json!({"a": 1, "b": 2})),
            call(None, "sub", json!({"a": 3}))
        ]
    );
    let args = parse("[TOOL_CALLS]get_time[ARGS]{\"tz\": \"UTC\"}");
    assert_eq!(
        args.tool_calls,
        [call(None, "get_time", json!({"tz": "UTC"}))]
    );
    let id = parse("[TOOL_CALLS]get_time[CALL_ID]a1b2c3d4e[ARGS]{\"tz\": \"UTC\"}");
    assert_eq!(
        id.tool_calls,
        [call(Some("a1b2c3d4e"), "get_time", json!({"tz": "UTC"}))]
    );
}

#[test]
fn llama_python_tag_json() {
    let r = parse("<|python_tag|>{\"name\": \"search\", \"parameters\": {\"query\": \"a; b\"}}; {\"name\": \"time\", \"parameters\": {}}");
    assert_eq!(
        r.tool_calls,
        [
            call(None, "search", json!({"query": "a; b"})),
            call(None, "time", json!({}))
        ]
    );
    assert_eq!(r.content, None);
}

#[test]
fn deepseek_v3_and_v31() {
    let v3 = parse("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Oslo\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    assert_eq!(
        v3.tool_calls,
        [call(None, "get_weather", json!({"city": "Oslo"}))]
    );
    assert_eq!(v3.content, None);
    let v31 = parse("Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Oslo\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    assert_eq!(v31.content.as_deref(), Some("Let me check."));
    assert_eq!(v31.tool_calls.len(), 2);
}

#[test]
fn kimi_k2_ids() {
    let r = parse("<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>{\"city\": \"Rome\"}<|tool_call_end|><|tool_calls_section_end|>");
    assert_eq!(
        r.tool_calls,
        [
            call(
                Some("functions.get_weather:0"),
                "get_weather",
                json!({"city": "Paris"})
            ),
            call(
                Some("functions.get_weather:1"),
                "get_weather",
                json!({"city": "Rome"})
            ),
        ]
    );
}

#[test]
fn granite_jamba_minimax_phi4_internlm() {
    let granite = parse("<|tool_call|>[{\"name\": \"a\", \"arguments\": {}}]");
    assert_eq!(granite.tool_calls, [call(None, "a", json!({}))]);
    let jamba = parse("<tool_calls>[{\"name\": \"a\", \"arguments\": {\"x\": 1}}]</tool_calls>");
    assert_eq!(jamba.tool_calls, [call(None, "a", json!({"x": 1}))]);
    let minimax = parse("Two lookups.\n<tool_calls>\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arguments\": {\"y\": \"}\"}}\n</tool_calls>");
    assert_eq!(minimax.content.as_deref(), Some("Two lookups."));
    assert_eq!(
        minimax.tool_calls,
        [
            call(None, "a", json!({})),
            call(None, "b", json!({"y": "}"}))
        ]
    );
    let phi = parse("functools[{\"name\": \"a\", \"arguments\": {}}]");
    assert_eq!(phi.tool_calls, [call(None, "a", json!({}))]);
    let intern = parse("Searching.<|action_start|><|plugin|>\n{\"name\": \"search\", \"parameters\": {\"q\": \"x\"}}<|action_end|>");
    assert_eq!(intern.content.as_deref(), Some("Searching."));
    assert_eq!(intern.tool_calls, [call(None, "search", json!({"q": "x"}))]);
}

#[test]
fn openai_shaped_objects_leaked_into_content() {
    let r = parse(
        r#"{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": [1, 2]}"}}]}"#,
    );
    assert_eq!(
        r.tool_calls,
        [call(Some("call_1"), "f", json!({"x": [1, 2]}))]
    );
    assert_eq!(r.content, None);
}

#[test]
fn truncated_calls_are_not_calls() {
    let r = parse("<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \"half");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(
        r.content.as_deref(),
        Some("<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \"half")
    );
}

proptest! {
    #[test]
    fn parse_never_panics(s in any::<String>()) {
        let _ = parse(&s);
    }

    #[test]
    fn parse_never_panics_on_marker_soup(parts in proptest::collection::vec(proptest::sample::select(vec![
        "<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>",
        "<invoke name=\"", "\">", "<parameter name=\"", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]",
        "<|python_tag|>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<|tool_call_begin|>",
        "<|tool_call_argument_begin|>", "<tool_calls>", "functools[", "{", "}", "[", "]", "\"",
        "name", ":", ",", "\n", "<think>", "</think>", "<arg_key>", "<arg_value>", "é",
    ]), 0..40)) {
        let _ = parse(&parts.concat());
    }
}

#[test]
fn many_unclosed_elements_are_read_in_one_pass() {
    // 20 000 openers without closers: each element ends at the next opener.
    let reply = "<tool_call>{\"name\": \"a\", \"arguments\": {}}\n".repeat(20_000);
    let r = parse(&reply);
    assert_eq!(r.tool_calls.len(), 20_000);
    assert_eq!(r.content, None);
}

#[test]
fn tool_definitions_report_unknown_names_and_unrecoverable_arguments() {
    use llmout::tools::{parse_with_tools, ToolDef};
    use llmout::WarningKind;
    let defs: Vec<ToolDef> = serde_json::from_value(json!([
        {"name": "add", "parameters": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}
    ]))
    .unwrap();
    let r = parse_with_tools(
        "<tool_call>{\"name\": \"add\", \"arguments\": {\"a\": \"1\", \"b\": 2}}</tool_call>\n<tool_call>{\"name\": \"mul\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"add\", \"arguments\": {\"a\": [1, 2], \"b\": 2}}</tool_call>",
        &defs,
    );
    assert_eq!(r.tool_calls[0], call(None, "add", json!({"a": 1, "b": 2})));
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [
            (WarningKind::Coerced, "/tool_calls/0/arguments/a"),
            (WarningKind::UnknownTool, "/tool_calls/1/name")
        ]
    );
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].path(), "/tool_calls/2/arguments/a");
    assert_eq!(
        r.tool_calls[2],
        call(None, "add", json!({"a": [1, 2], "b": 2}))
    );
}

#[test]
fn gpt_oss_harmony_channels() {
    let r = parse("<|channel|>analysis<|message|>User wants weather; call {tool}.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>");
    assert_eq!(
        r.tool_calls,
        [call(None, "get_weather", json!({"city": "Paris"}))]
    );
    assert_eq!(r.content, None);
    let r = parse("<|start|>assistant<|channel|>analysis<|message|>easy<|end|><|start|>assistant<|channel|>final<|message|>It is 12°C in Paris.<|return|>");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("It is 12°C in Paris."));
    // `<|call|>` missing at the very end.
    let r =
        parse("<|channel|>commentary to=functions.ls <|constrain|>json<|message|>{\"dir\": \"/\"}");
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/"}))]);
}

#[test]
fn gemma_quote_tokens() {
    let r = parse("I'll check.<|tool_call>call:get_weather{location:<|\"|>Paris, \"FR\"<|\"|>,days:3}<tool_call|>");
    assert_eq!(r.content.as_deref(), Some("I'll check."));
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "get_weather");
    assert_eq!(r.tool_calls[0].arguments["days"], 3);
    assert_eq!(r.tool_calls[0].arguments["location"], "Paris, \"FR\"");
}

#[test]
fn pythonic_calls_llama_3_2_and_4() {
    let r =
        parse("[get_weather(city='San Francisco', metric=True, days=[1, 2]), get_time(tz=None)]");
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "San Francisco", "metric": true, "days": [1, 2]})
            ),
            call(None, "get_time", json!({"tz": null})),
        ]
    );
    assert_eq!(r.content, None);
    let r = parse("<|python_start|>search(query=\"a, (b)\", opts={'k': 'v'})<|python_end|>");
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "search",
            json!({"query": "a, (b)", "opts": {"k": "v"}})
        )]
    );
    // Prose that merely mentions a call is content.
    let r = parse("You could call print(x=1) yourself.");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn ui_tars_thought_and_actions() {
    let r = parse("Thought: The search box is at the top; I'll click it and type.\nAction: click(start_box='(120,45)')\nAction: type(content='llmout rust')");
    assert_eq!(
        r.content.as_deref(),
        Some("The search box is at the top; I'll click it and type.")
    );
    assert_eq!(
        r.tool_calls,
        [
            call(None, "click", json!({"start_box": "(120,45)"})),
            call(None, "type", json!({"content": "llmout rust"})),
        ]
    );
}

#[test]
fn the_word_action_is_not_a_format() {
    let r = parse("Action: I will read the file.\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}");
    assert_eq!(
        r.tool_calls,
        [call(None, "read_file", json!({"path": "a"}))]
    );
    assert_eq!(r.content.as_deref(), Some("Action: I will read the file."));
    let r = parse("Action: none needed.");
    assert_eq!(
        (r.content.as_deref(), r.tool_calls.len()),
        (Some("Action: none needed."), 0)
    );
    // `Action:` in prose before another family's call: that family reads the reply, and the
    // stream decides the same way once the word after `Action:` has come.
    let reply = "Action: I will list the directory.\n<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"dir\": \"/tmp\"}}\n</tool_call>";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/tmp"}))]);
    assert_eq!(
        r.content.as_deref(),
        Some("Action: I will list the directory.")
    );
    let mut s = llmout::tools::Stream::new();
    for c in reply.chars() {
        s.push(&c.to_string());
        assert!(s.calls().len() <= 1);
    }
    assert_eq!(s.calls(), &r.tool_calls[..]);
    assert_eq!(s.finish(), r);
}

#[test]
fn typed_tool_enums() {
    use llmout::LlmOutput;

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    enum Tool {
        /// Read a file.
        ReadFile {
            path: String,
            line: Option<u32>,
        },
        /// Say something.
        Echo(Msg),
        Stop,
    }

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Msg {
        text: String,
    }

    let defs = llmout::tools::definitions::<Tool>();
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["ReadFile", "Echo", "Stop"]);
    // A variant holding another type has that type's schema as its parameters.
    assert_eq!(defs[1].parameters["required"], json!(["text"]));
    assert_eq!(defs[1].parameters.get("$defs"), None);

    let r = parse("<tool_call>{\"name\": \"read_file\", \"arguments\": {\"Path\": \"a.rs\", \"line\": \"7\"}}</tool_call>\n<tool_call>{\"name\": \"Echo\", \"arguments\": {\"text\": \"hi\"}}</tool_call>\n<tool_call>{\"name\": \"Stop\"}</tool_call>");
    let typed: Vec<Option<Tool>> = r
        .tool_calls
        .iter()
        .map(|c| c.to_typed::<Tool>().value)
        .collect();
    assert_eq!(
        typed,
        [
            Some(Tool::ReadFile {
                path: "a.rs".into(),
                line: Some(7)
            }),
            Some(Tool::Echo(Msg { text: "hi".into() })),
            Some(Tool::Stop),
        ]
    );
    let unknown = ToolCall {
        id: None,
        name: "Fly".into(),
        arguments: serde_json::Map::new(),
    };
    assert!(unknown.to_typed::<Tool>().error.is_some());
}

#[test]
fn parameter_values_read_as_json_or_python_literals() {
    let r = parse("<invoke name=\"f\"><parameter name=\"a\">True</parameter><parameter name=\"b\">['x', 'y']</parameter><parameter name=\"c\">{'k': None}</parameter><parameter name=\"d\">It's True</parameter><parameter name=\"e\">[1, 2]</parameter></invoke>");
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "f",
            json!({"a": true, "b": ["x", "y"], "c": {"k": null}, "d": "It's True", "e": [1, 2]})
        )]
    );
}
