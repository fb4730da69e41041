//! Tool definitions from a typed tool enum, in each provider's request shape, checked against
//! the rules each provider documents; and calls to and from the OpenAI `tool_calls` shape.

use llmout::schema::dialect::Dialect;
use llmout::tools::{
    definitions, definitions_for, parse, tools_for, OpenAiToolCall, ToolCall, ToolDef,
};
use llmout::{ErrorKind, LlmOutput};
use serde_json::{json, Map, Value};

/// The tools of a coding agent.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
#[allow(dead_code)]
enum Tool {
    /// Read part of a file.
    ReadFile {
        path: String,
        /// First line, 1-based.
        start: Option<u32>,
        end: Option<u32>,
    },
    /// Stop and hand back to the user.
    Finish,
    /// Search the code base.
    #[serde(rename = "search_code")]
    SearchCode(Query),
    Undo,
    /// Run a shell command.
    RunCommand {
        command: Vec<String>,
        mode: Mode,
        env: Option<Vec<EnvVar>>,
    },
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Query {
    pattern: String,
    /// Only in files whose path matches.
    glob: Option<String>,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
enum Mode {
    Foreground,
    Background,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct EnvVar {
    name: String,
    value: String,
}

#[test]
fn definitions_keep_the_declared_order_and_every_unit_variant() {
    let defs = definitions::<Tool>();
    let names: Vec<(&str, Option<&str>)> = defs
        .iter()
        .map(|d| (d.name.as_str(), d.description.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("ReadFile", Some("Read part of a file.")),
            ("Finish", Some("Stop and hand back to the user.")),
            ("search_code", Some("Search the code base.")),
            ("Undo", None),
            ("RunCommand", Some("Run a shell command.")),
        ]
    );
    assert_eq!(
        defs[1].parameters,
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(defs[2].parameters["required"], json!(["pattern"]));
}

/// The keywords of the schema `v` and of every schema inside it (under `properties`, `items`,
/// `anyOf`, `oneOf`, `allOf`, `$defs`, `additionalProperties`); property names are not keywords.
fn keywords(v: &Value, out: &mut Vec<String>) {
    let Value::Object(o) = v else { return };
    for (k, child) in o {
        out.push(k.clone());
        match (k.as_str(), child) {
            ("properties" | "$defs", Value::Object(m)) => m.values().for_each(|c| keywords(c, out)),
            ("items" | "additionalProperties", c) => keywords(c, out),
            ("anyOf" | "oneOf" | "allOf", Value::Array(a)) => {
                a.iter().for_each(|c| keywords(c, out))
            }
            _ => {}
        }
    }
}

/// OpenAI strict mode: every object lists all its properties as required and forbids others.
fn strict_objects(v: &Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Object(props)) = o.get("properties") {
                assert_eq!(o.get("additionalProperties"), Some(&json!(false)), "{v}");
                let mut required: Vec<&str> = o["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                let mut listed: Vec<&str> = props.keys().map(String::as_str).collect();
                required.sort_unstable();
                listed.sort_unstable();
                assert_eq!(required, listed, "{v}");
                props.values().for_each(strict_objects);
            }
            o.iter()
                .filter(|(k, _)| *k != "properties")
                .for_each(|(_, c)| strict_objects(c));
        }
        Value::Array(a) => a.iter().for_each(strict_objects),
        _ => {}
    }
}

fn name_ok(name: &str, extra: &[char], first_letter: bool) -> bool {
    let first = name.chars().next();
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || extra.contains(&c))
        && (!first_letter || first.is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
}

#[test]
fn openai_strict_function_tools() {
    let tools = definitions_for::<Tool>(Dialect::OpenAiStrict).unwrap();
    assert_eq!(tools.len(), 5);
    for tool in &tools {
        // {"type": "function", "function": {"name", "description"?, "parameters", "strict": true}}
        assert_eq!(tool["type"], "function");
        let f = tool["function"].as_object().unwrap();
        let mut fields: Vec<&str> = f.keys().map(String::as_str).collect();
        fields.sort_unstable();
        assert!(
            fields == ["description", "name", "parameters", "strict"]
                || fields == ["name", "parameters", "strict"],
            "{fields:?}"
        );
        assert!(name_ok(f["name"].as_str().unwrap(), &[], false));
        assert_eq!(f["strict"], true);
        let params = &f["parameters"];
        assert_eq!(params["type"], "object");
        strict_objects(params);
        let mut all = Vec::new();
        keywords(params, &mut all);
        for banned in [
            "oneOf",
            "allOf",
            "not",
            "minLength",
            "maxLength",
            "uniqueItems",
            "$schema",
            "x-aliases",
            "default",
        ] {
            assert!(!all.iter().any(|k| k == banned), "{banned} in {params}");
        }
    }
    // Optional arguments are required and nullable.
    let read = &tools[0]["function"]["parameters"];
    assert_eq!(read["required"], json!(["path", "start", "end"]));
    assert_eq!(
        read["properties"]["start"]["type"],
        json!(["integer", "null"])
    );
}

#[test]
fn anthropic_tools() {
    let tools = definitions_for::<Tool>(Dialect::Anthropic).unwrap();
    assert_eq!(tools.len(), 5);
    for tool in &tools {
        let o = tool.as_object().unwrap();
        assert!(o
            .keys()
            .all(|k| ["name", "description", "input_schema"].contains(&k.as_str())));
        assert!(name_ok(o["name"].as_str().unwrap(), &[], false));
        assert_eq!(o["input_schema"]["type"], "object");
    }
    assert_eq!(
        tools[2]["input_schema"]["properties"]["glob"]["description"],
        "Only in files whose path matches."
    );
}

#[test]
fn gemini_function_declarations() {
    let tools = definitions_for::<Tool>(Dialect::Gemini).unwrap();
    assert_eq!(tools.len(), 1);
    let decls = tools[0]["functionDeclarations"].as_array().unwrap();
    assert_eq!(decls.len(), 5);
    let allowed = [
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "properties",
        "required",
        "anyOf",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "default",
        "propertyOrdering",
    ];
    // A tool without arguments has no `parameters`: Gemini refuses an OBJECT without
    // properties.
    assert_eq!(
        decls[1],
        json!({"name": "Finish", "description": "Stop and hand back to the user."})
    );
    assert!(decls[3].get("parameters").is_none());
    for d in decls.iter().filter(|d| d.get("parameters").is_some()) {
        assert!(name_ok(d["name"].as_str().unwrap(), &['.', ':'], true));
        let params = &d["parameters"];
        assert_eq!(params["type"], "object");
        let mut all = Vec::new();
        keywords(params, &mut all);
        for k in &all {
            assert!(allowed.contains(&k.as_str()), "{k} in {params}");
        }
    }
    // References inlined, optional values nullable.
    let run = &decls[4]["parameters"];
    assert_eq!(run["properties"]["env"]["nullable"], true);
    assert_eq!(
        run["properties"]["env"]["items"]["properties"]["name"]["type"],
        "string"
    );
    let json_schema = definitions_for::<Tool>(Dialect::GeminiJson).unwrap();
    assert_eq!(
        json_schema[0]["functionDeclarations"][0]["parametersJsonSchema"]["type"],
        "object"
    );
}

#[test]
fn what_a_provider_cannot_take_is_an_error_naming_where() {
    let defs: Vec<ToolDef> = serde_json::from_value(json!([
        {"name": "ok", "parameters": {"type": "object", "properties": {}}},
        {"name": "tag", "parameters": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": true}}}}
    ]))
    .unwrap();
    let e = tools_for(&defs, Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidSchema);
    assert_eq!(
        e.path(),
        "/1/function/parameters/properties/labels/additionalProperties"
    );
    // The same error in gemini, and a tool without arguments is no error there.
    let e = tools_for(&defs, Dialect::Gemini).unwrap_err();
    assert_eq!(
        e.path(),
        "/0/functionDeclarations/1/parameters/properties/labels/additionalProperties"
    );
    // A map of strings is written as {"key", "value"} pairs, and a call that follows that
    // schema has its map back.
    let defs: Vec<ToolDef> = serde_json::from_value(json!([
        {"name": "tag", "parameters": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["labels"]}}
    ]))
    .unwrap();
    let openai = tools_for(&defs, Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        openai[0]["function"]["parameters"]["properties"]["labels"]["items"]["required"],
        json!(["key", "value"])
    );
    let r = llmout::tools::parse_with_tools(
        "<tool_call>{\"name\": \"tag\", \"arguments\": {\"labels\": [{\"key\": \"env\", \"value\": \"prod\"}]}}</tool_call>",
        &defs,
    );
    assert_eq!(r.tool_calls[0].arguments["labels"], json!({"env": "prod"}));
    let defs: Vec<ToolDef> =
        serde_json::from_value(json!([{"name": "get weather", "parameters": {"type": "object"}}]))
            .unwrap();
    let e = tools_for(&defs, Dialect::Anthropic).unwrap_err();
    assert_eq!(e.path(), "/0/name");
    let defs: Vec<ToolDef> =
        serde_json::from_value(json!([{"name": "9lives", "parameters": {"type": "object"}}]))
            .unwrap();
    assert!(tools_for(&defs, Dialect::OpenAiStrict).is_ok());
    assert_eq!(
        tools_for(&defs, Dialect::Gemini).unwrap_err().path(),
        "/0/functionDeclarations/0/name"
    );
}

#[test]
fn calls_to_and_from_the_openai_tool_calls_shape() {
    let r = parse("<tool_call>{\"name\": \"ReadFile\", \"arguments\": {\"path\": \"src/lib.rs\", \"start\": 1}}</tool_call>\n<|python_tag|>");
    let api = serde_json::to_value(r.openai_tool_calls()).unwrap();
    assert_eq!(
        api,
        json!([{
            "id": "call_0",
            "type": "function",
            "function": {"name": "ReadFile", "arguments": "{\"path\":\"src/lib.rs\",\"start\":1}"}
        }])
    );
    // From an API response: arguments decoded once, leniently; the id kept.
    let message: Value = json!({
        "role": "assistant",
        "tool_calls": [
            {"id": "call_abc", "type": "function", "function": {"name": "Finish", "arguments": "{}"}},
            {"id": "call_def", "type": "function", "function": {"name": "search_code", "arguments": "{'pattern': 'fn main', glob: null,}"}}
        ]
    });
    let calls: Vec<OpenAiToolCall> = serde_json::from_value(message["tool_calls"].clone()).unwrap();
    let calls: Vec<ToolCall> = calls.into_iter().map(ToolCall::from).collect();
    let mut args = Map::new();
    args.insert("pattern".into(), json!("fn main"));
    args.insert("glob".into(), Value::Null);
    assert_eq!(
        calls,
        [
            ToolCall {
                id: Some("call_abc".into()),
                name: "Finish".into(),
                arguments: Map::new()
            },
            ToolCall {
                id: Some("call_def".into()),
                name: "search_code".into(),
                arguments: args
            },
        ]
    );
    // And typed, through the same recovery as `from_llm`.
    assert_eq!(
        calls[1].to_typed::<Tool>().value,
        Some(Tool::SearchCode(Query {
            pattern: "fn main".into(),
            glob: None
        }))
    );
    // Back to the API shape: the same call.
    assert_eq!(calls[0].to_openai(0).id, "call_abc");
}
