//! Tool arguments against their tool's schema (`parse_with_tools`): nothing is invented for a
//! tool to run on, and keys the schema does not list are kept unless it forbids them.

mod common;

use common::call;
use llmout::tools::{parse_with_tools, ToolDef};
use llmout::{ErrorKind, WarningKind};
use serde_json::json;

/// Each warning of `r`: its kind, path and message.
fn said(r: &llmout::tools::ToolCallResponse) -> Vec<(WarningKind, &str, &str)> {
    (r.warnings.iter())
        .map(|w| (w.kind, w.path.as_str(), &*w.message))
        .collect()
}

fn tools() -> Vec<ToolDef> {
    serde_json::from_value(json!([
        {
            "name": "get_weather",
            "description": "Current weather for a place.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
                    "days": {"type": "integer"}
                },
                "required": ["location", "unit"]
            }
        },
        {
            "name": "send_email",
            "input_schema": {
                "type": "object",
                "properties": {
                    "to": {"type": "string"},
                    "body": {"type": "string"},
                    "meta": {
                        "type": "object",
                        "properties": {"priority": {"type": "integer"}},
                        "required": ["priority"]
                    }
                },
                "required": ["to", "body", "meta"],
                "additionalProperties": false
            }
        }
    ]))
    .unwrap()
}

#[test]
fn a_missing_required_argument_is_an_error_on_that_call_never_an_empty_value() {
    let r = parse_with_tools(
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"days\": \"2\"}}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"Location\": \"Oslo\"}}</tool_call>",
        &tools(),
    );
    // The first call is kept as the model wrote it, with its error; nothing filled in.
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_weather", json!({"days": "2"})),
            call(
                None,
                "get_weather",
                json!({"location": "Oslo", "unit": "celsius"})
            ),
        ]
    );
    let e = r.call_error(0).unwrap();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert_eq!(e.path(), "/tool_calls/0/arguments/location");
    assert_eq!(
        e.to_string(),
        "at /tool_calls/0/arguments/location: expected a string for \"location\" (required; never filled in), found nothing"
    );
    // The second: renamed, and the missing `unit` given the schema's own default.
    assert!(r.call_error(1).is_none());
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [
            (WarningKind::KeyRenamed, "/tool_calls/1/arguments/location"),
            (WarningKind::MissingField, "/tool_calls/1/arguments/unit"),
        ]
    );
}

#[test]
fn null_for_a_required_argument_and_a_missing_nested_one_are_errors() {
    let r = parse_with_tools(
        "[{\"name\": \"send_email\", \"arguments\": {\"to\": null, \"body\": \"Hi\", \"meta\": {\"priority\": 1}}}, {\"name\": \"send_email\", \"arguments\": {\"to\": \"a@b.c\", \"body\": \"Hi\", \"meta\": {}}}]",
        &tools(),
    );
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(
        r.call_error(0).unwrap().path(),
        "/tool_calls/0/arguments/to"
    );
    assert_eq!(r.call_error(0).unwrap().found(), "null");
    assert_eq!(
        r.call_error(1).unwrap().path(),
        "/tool_calls/1/arguments/meta/priority"
    );
    assert_eq!(
        r.tool_calls[1].arguments,
        *json!({"to": "a@b.c", "body": "Hi", "meta": {}})
            .as_object()
            .unwrap()
    );
}

#[test]
fn keys_the_schema_does_not_list_are_kept_unless_it_forbids_them() {
    let r = parse_with_tools(
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Oslo\", \"unit\": \"celsius\", \"lang\": \"nb\"}}</tool_call><tool_call>{\"name\": \"send_email\", \"arguments\": {\"to\": \"a@b.c\", \"body\": \"Hi\", \"cc\": \"d@e.f\", \"meta\": {\"priority\": 1}}}</tool_call>",
        &tools(),
    );
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"location": "Oslo", "unit": "celsius", "lang": "nb"})
            ),
            call(
                None,
                "send_email",
                json!({"to": "a@b.c", "body": "Hi", "meta": {"priority": 1}})
            ),
        ]
    );
    assert!(r.errors.is_empty());
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [(WarningKind::UnknownKeyDropped, "/tool_calls/1/arguments/cc")]
    );
}

#[test]
fn an_unknown_tool_is_kept_with_a_warning_and_its_arguments_untouched() {
    let r = parse_with_tools(
        "<tool_call>{\"name\": \"get_wether\", \"arguments\": {\"location\": \"Oslo\"}}</tool_call>",
        &tools(),
    );
    assert_eq!(
        r.tool_calls,
        [call(None, "get_wether", json!({"location": "Oslo"}))]
    );
    assert_eq!(r.warnings[0].kind, WarningKind::UnknownTool);
    assert!(r.errors.is_empty());
}

/// A parameter written as text keeps the form it was written in where JSON would not keep
/// it (`1.10` is a version as likely as a number): a string schema takes it as written, and
/// a number schema reads it, with a warning. A number JSON writes back the same is a number.
#[test]
fn a_parameters_text_keeps_its_form() {
    let install: Vec<ToolDef> = serde_json::from_value(json!([{
        "name": "install",
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string"},
                "version": {"type": "string"},
                "retries": {"type": "integer"},
                "timeout": {"type": "number"}
            }
        }
    }]))
    .unwrap();
    let reply = "<tool_call>\n<function=install>\n<parameter=package>\nnumpy\n</parameter>\n<parameter=version>\n1.10\n</parameter>\n<parameter=retries>\n3\n</parameter>\n<parameter=timeout>\n1e2\n</parameter>\n</function>\n</tool_call>";
    let plain = llmout::tools::parse(reply);
    assert_eq!(
        plain.tool_calls,
        [call(
            None,
            "install",
            json!({"package": "numpy", "version": "1.10", "retries": 3, "timeout": "1e2"})
        )]
    );
    assert_eq!(plain.warnings, []);
    let r = parse_with_tools(reply, &install);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "install",
            json!({"package": "numpy", "version": "1.10", "retries": 3, "timeout": 100})
        )]
    );
    assert_eq!(
        said(&r),
        [(
            WarningKind::Coerced,
            "/tool_calls/0/arguments/timeout",
            "read \"1e2\" as the number 100"
        )]
    );
}

/// A parameter whose text is JSON escaped once more (`[{\"id\": \"1\"}]`, as a model writes
/// JSON it read inside a string) stays that text where no schema asks for more; against an
/// array of objects it is unescaped and read, and the warning says so. Before, the quotes
/// after a bracket were skipped as text and the items came out empty.
#[test]
fn a_parameter_of_escaped_json_is_unescaped_for_its_schema() {
    let todo: Vec<ToolDef> = serde_json::from_value(json!([{
        "name": "todo_write",
        "parameters": {
            "type": "object",
            "properties": {"todos": {"type": "array", "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "task": {"type": "string"}},
                "required": ["id", "task"]
            }}},
            "required": ["todos"]
        }
    }]))
    .unwrap();
    let escaped = r#"[{\"id\": \"1\", \"task\": \"Check C:\\\\tmp\"}, {\"id\": \"2\", \"task\": \"Report\"}]"#;
    let reply = format!(
        "<tool_call>todo_write<arg_key>todos</arg_key><arg_value>{escaped}</arg_value></tool_call>"
    );
    assert_eq!(
        llmout::tools::parse(&reply).tool_calls,
        [call(None, "todo_write", json!({ "todos": escaped }))]
    );
    let r = parse_with_tools(&reply, &todo);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "todo_write",
            json!({"todos": [{"id": "1", "task": "Check C:\\tmp"}, {"id": "2", "task": "Report"}]})
        )]
    );
    assert_eq!(
        said(&r),
        [(
            WarningKind::Coerced,
            "/tool_calls/0/arguments/todos",
            "decoded a JSON document given as a string, which needed fixes: took off a level of escaping"
        )]
    );
}

/// An integer too large for 64 bits in JSON arguments is held as the nearest `f64`: where
/// that loses digits, a warning says so at the argument, whether the call needed a fix or
/// not, its arguments an object or a JSON string, read whole or streamed. Where an argument
/// is a parameter's text or a Python literal, the text stays as written instead, as a number
/// whose form JSON does not keep does.
#[test]
fn an_integer_held_rounded_in_arguments_is_said() {
    let lost = 123_456_789_012_345_680_000.0;
    let rounded = |path: &'static str| {
        (
            WarningKind::NumberRounded,
            path,
            "an integer too large for 64 bits, held as the nearest floating-point number: \
             some of its digits are lost",
        )
    };
    for (reply, fixes) in [
        (
            r#"<tool_call>{"name": "f", "arguments": {"id": 123456789012345678901}}</tool_call>"#,
            0,
        ),
        (
            r#"<tool_call>{"name": "f", "arguments": {id: 123456789012345678901}}</tool_call>"#,
            1,
        ),
        (
            r#"{"tool_calls": [{"name": "f", "arguments": "{\"id\": 123456789012345678901}"}]}"#,
            0,
        ),
        (
            r#"[{"name": "f", "arguments": {"id": 123456789012345678901}}]"#,
            0,
        ),
    ] {
        let r = llmout::tools::parse(reply);
        assert_eq!(
            r.tool_calls,
            [call(None, "f", json!({"id": lost}))],
            "{reply}"
        );
        let said = said(&r);
        assert_eq!(said.len(), fixes + 1, "{reply}");
        assert_eq!(
            said[fixes],
            rounded("/tool_calls/0/arguments/id"),
            "{reply}"
        );
        let mut s = llmout::tools::Stream::new();
        for chunk in reply.as_bytes().chunks(7) {
            s.push(std::str::from_utf8(chunk).unwrap());
        }
        assert_eq!(s.finish(), r, "{reply}");
    }
    for reply in [
        "[f(id=123456789012345678901, n=2)]",
        "<tool_call>\n<function=f>\n<parameter=id>\n123456789012345678901\n</parameter>\n<parameter=n>\n2\n</parameter>\n</function>\n</tool_call>",
    ] {
        let r = llmout::tools::parse(reply);
        let id = json!({"id": "123456789012345678901", "n": 2});
        assert_eq!(r.tool_calls, [call(None, "f", id)], "{reply}");
        assert_eq!(r.warnings, [], "{reply}");
    }
}
