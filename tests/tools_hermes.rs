//! `<tool_call>` families: Hermes/Qwen JSON, GLM-4.5 `arg_key`, Qwen3-Coder `<function=…>`.

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
