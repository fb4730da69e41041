//! `llmout tools` through the CLI.

use std::process::Command;

mod common;

fn tools(stdin: &[u8]) -> (Option<i32>, String) {
    tools_with(&[], stdin)
}

/// Through the shared runner, which writes stdin from a thread and ignores a pipe the CLI
/// closed: an argument error exits before the input is read.
fn tools_with(args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    let out = common::llmout(&[&["tools"], args].concat(), stdin);
    (out.status.code(), common::stdout(&out))
}

#[test]
fn prints_the_envelope() {
    let (code, out) =
        tools(b"Reading.\n<tool_call>{\"name\": \"read\", \"arguments\": {\"p\": 1}}</tool_call>");
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "{\"content\":\"Reading.\",\"tool_calls\":[{\"id\":null,\"name\":\"read\",\"arguments\":{\"p\":1}}],\"needs_more_work\":true,\"warnings\":[]}\n"
    );
}

#[test]
fn plain_text_and_any_bytes() {
    let (code, out) = tools(b"just text");
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "{\"content\":\"just text\",\"tool_calls\":[],\"needs_more_work\":null,\"warnings\":[]}\n"
        )
    );
    let (code, _) = tools(&[0xff, 0xfe, b'<', b't', 0x00, 0x80]);
    assert_eq!(code, Some(0));
}

#[test]
fn tool_definitions_recover_arguments() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let defs = dir.join("tools.json");
    std::fs::write(
        &defs,
        r#"[{"name": "read", "input_schema": {"type": "object", "properties": {"line": {"type": "integer"}}, "required": ["line"]}}]"#,
    )
    .unwrap();
    let defs = defs.to_string_lossy().into_owned();
    let (code, out) = tools_with(
        &["--tools", &defs],
        b"<tool_call>{\"name\": \"read\", \"arguments\": {\"Line\": \"7\"}}</tool_call>",
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "{\"content\":null,\"tool_calls\":[{\"id\":null,\"name\":\"read\",\"arguments\":{\"line\":7}}],\"needs_more_work\":true,\"warnings\":[{\"kind\":\"key_renamed\",\"path\":\"/tool_calls/0/arguments/line\",\"message\":\"renamed key \\\"Line\\\" to \\\"line\\\" (the same name in another case or spelling)\"},{\"kind\":\"coerced\",\"path\":\"/tool_calls/0/arguments/line\",\"message\":\"read \\\"7\\\" as the integer 7\"}]}\n"
    );
    // The same tool as OpenAI's chat completions write it, wrapped in `function`.
    let wrapped = dir.join("wrapped-tools.json");
    std::fs::write(
        &wrapped,
        serde_json::json!([{"type": "function", "function": {
            "name": "read", "parameters": {"type": "object", "properties": {"line": {"type": "integer"}}}
        }}])
        .to_string(),
    )
    .unwrap();
    let wrapped = wrapped.to_string_lossy().into_owned();
    let (code, same) = tools_with(
        &["--tools", &wrapped],
        b"<tool_call>{\"name\": \"read\", \"arguments\": {\"Line\": \"7\"}}</tool_call>",
    );
    assert_eq!((code, same), (Some(0), out));
    let (code, _) = tools_with(&["--tools", "/nonexistent.json"], b"x");
    assert_eq!(code, Some(2));
    // A definition whose parameters are not a schema: exit 2, naming the keyword.
    let bad = dir.join("bad-tools.json");
    std::fs::write(&bad, r#"[{"name": "read", "parameters": {"type": "object", "properties": {"line": {"enum": []}}}}]"#).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_llmout"))
        .args(["tools", "--tools", &bad.to_string_lossy()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "llmout: {}: at /0/parameters/properties/line/enum: expected a non-empty array of values, found []\n",
            bad.display()
        )
    );
}

#[test]
fn a_call_missing_a_required_argument_carries_its_error_and_warnings_name_what_changed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-tools-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let defs = dir.join("tools.json");
    std::fs::write(
        &defs,
        r#"[{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}]"#,
    )
    .unwrap();
    let defs = defs.to_string_lossy().into_owned();
    let (code, out) = tools_with(
        &["--tools", &defs],
        b"<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>\n<tool_call>{\"name\": \"book_flight\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Be",
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["tool_calls"],
        serde_json::json!([
            {
                "id": null,
                "name": "get_weather",
                "arguments": {"city": "Oslo"},
                "error": {
                    "kind": "forbidden",
                    "path": "/tool_calls/0/arguments/location",
                    "message": "at /tool_calls/0/arguments/location: expected a string for \"location\" (required; never filled in), found nothing"
                }
            },
            {"id": null, "name": "book_flight", "arguments": {}}
        ])
    );
    let kinds: Vec<(&str, &str)> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["kind"].as_str().unwrap(), w["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("item_dropped", "/tool_calls/2"),
            ("unknown_tool", "/tool_calls/1/name")
        ]
    );
    assert_eq!(
        v["content"],
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Be"
    );
}

#[test]
fn the_families_of_issue_17_through_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-tools-families-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let defs = dir.join("tools.json");
    std::fs::write(
        &defs,
        r#"[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "zip": {"type": "string"}}, "required": ["city"]}}]"#,
    )
    .unwrap();
    let defs = defs.to_string_lossy().into_owned();
    // Hy3's suffixed tokens, its reasoning left out; the arguments typed with the schema.
    let (code, out) = tools_with(
        &["--tools", &defs],
        "<think:opensource>Two cities.</think:opensource>Checking.<tool_calls:opensource><tool_call:opensource>get_weather<tool_sep:opensource><arg_key:opensource>city</arg_key:opensource><arg_value:opensource>Shenzhen</arg_value:opensource><arg_key:opensource>days</arg_key:opensource><arg_value:opensource>\"2\"</arg_value:opensource><arg_key:opensource>zip</arg_key:opensource><arg_value:opensource>518000</arg_value:opensource></tool_call:opensource></tool_calls:opensource>".as_bytes(),
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["content"], "Checking.");
    assert_eq!(
        v["tool_calls"],
        serde_json::json!([{"id": null, "name": "get_weather", "arguments": {"city": "Shenzhen", "days": 2, "zip": "518000"}}])
    );
    let paths: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "/tool_calls/0/arguments/days",
            "/tool_calls/0/arguments/zip"
        ]
    );
    // MiniMax M3 with newlines after its namespace tokens, the second call cut off.
    let ns = "]<]minimax[>[";
    let reply = format!(
        "{ns}\n<tool_call>\n{ns}\n<invoke name=\"get_weather\">{ns}\n<city>Oslo{ns}\n</city>{ns}\n</invoke>\n{ns}\n<invoke name=\"get_weather\">{ns}\n<city>Ber"
    );
    let (code, out) = tools(reply.as_bytes());
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["tool_calls"],
        serde_json::json!([{"id": null, "name": "get_weather", "arguments": {"city": "Oslo"}}])
    );
    assert_eq!(
        v["content"],
        format!("{ns}\n<invoke name=\"get_weather\">{ns}\n<city>Ber")
    );
    assert_eq!(v["warnings"][0]["kind"], "item_dropped");
    assert_eq!(v["warnings"][0]["path"], "/tool_calls/1");
}

/// Arguments that break their tool's constraints: the call's error lists every violation.
#[test]
fn a_call_whose_arguments_break_constraints_lists_the_violations() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-tools-violations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let defs = dir.join("tools.json");
    std::fs::write(
        &defs,
        r#"[{"name": "forecast", "parameters": {"type": "object", "properties": {"city": {"type": "string", "minLength": 2}, "days": {"type": "integer", "maximum": 7}}, "required": ["city", "days"]}}]"#,
    )
    .unwrap();
    let defs = defs.to_string_lossy().into_owned();
    let (code, out) = tools_with(
        &["--tools", &defs],
        b"<tool_call>{\"name\": \"forecast\", \"arguments\": {\"city\": \"O\", \"days\": 10}}</tool_call>",
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["tool_calls"][0]["error"],
        serde_json::json!({
            "kind": "invalid",
            "path": "/tool_calls/0/arguments/city",
            "message": "at /tool_calls/0/arguments/city: expected at least 2 characters (minLength), found 1 character (and 1 more violation)",
            "violations": [
                {"path": "/tool_calls/0/arguments/city", "keyword": "minLength",
                 "expected": "at least 2 characters", "found": "1 character",
                 "message": "`city` has 1 character; at least 2 are required"},
                {"path": "/tool_calls/0/arguments/days", "keyword": "maximum",
                 "expected": "at most 7", "found": "10",
                 "message": "`days` is 10; the maximum is 7"}
            ]
        })
    );
}

#[path = "../../tests/common/table.rs"]
#[allow(dead_code)]
mod table;

/// Every example reply of the `tools` module docs' family table prints, through the CLI, the
/// envelope `tools::parse` gives it, with `parse`'s warnings.
#[test]
fn every_family_of_the_docs_table_through_the_cli() {
    let rows = table::rows(include_str!("../src/tools/mod.rs"));
    assert!(rows.len() >= 32, "{} rows", rows.len());
    for row in rows {
        let example = table::code_spans(&row.examples).remove(0);
        let r = llmout::tools::parse(&example);
        let (code, out) = tools(example.as_bytes());
        assert_eq!(code, Some(0), "{}", row.family);
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let warnings = v.as_object_mut().unwrap().remove("warnings").unwrap();
        assert_eq!(v, serde_json::to_value(&r).unwrap(), "{}", row.family);
        let paths: Vec<&str> = warnings
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["path"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(paths, want, "{}", row.family);
        assert!(!r.tool_calls.is_empty(), "{}", row.family);
    }
}

/// The envelope `llmout tools --tools` prints for `reply`, as [`llmout::tools::parse_with_tools`]
/// gives it: each call with its error, every warning.
fn checked_envelope(reply: &str, defs: &[llmout::tools::ToolDef]) -> String {
    use serde_json::json;
    let r = llmout::tools::parse_with_tools(reply, defs);
    let calls: Vec<serde_json::Value> = (r.tool_calls.iter().enumerate())
        .map(|(i, c)| {
            let mut call = json!({"id": c.id, "name": c.name, "arguments": c.arguments});
            if let Some(e) = r.call_error(i) {
                call["error"] = json!({"kind": e.kind().name(), "path": e.path(), "message": e.to_string()});
                if !e.violations().is_empty() {
                    let violations: Vec<serde_json::Value> = (e.violations().iter())
                        .map(|v| json!({"path": v.path(), "keyword": v.keyword(), "expected": v.expected(), "found": v.found(), "message": v.message()}))
                        .collect();
                    call["error"]["violations"] = json!(violations);
                }
            }
            call
        })
        .collect();
    let warnings: Vec<serde_json::Value> = (r.warnings.iter())
        .map(|w| json!({"kind": w.kind.name(), "path": w.path, "message": w.message}))
        .collect();
    let envelope = json!({"content": r.content, "tool_calls": calls, "needs_more_work": r.needs_more_work, "warnings": warnings});
    format!("{envelope}\n")
}

/// Calls whose arguments are a megabyte or more are checked from their text, item by item
/// where their shape allows: the output is what checking them as maps gives, byte for byte,
/// whatever the way (items, members, whole, an error, an unknown tool, no object).
#[test]
fn large_arguments_are_checked_as_small_ones_are() {
    let row = |i: usize| match i % 1000 {
        // A row to recover (its id a string), and one to keep as it is.
        7 => format!(r#"{{"id": "{i}", "name": "row {i}", "Tags": ["a"]}}"#),
        _ => format!(r#"{{"id": {i}, "name": "row {i}", "tags": ["a", "b"], "extra": null}}"#),
    };
    let rows = |bad: Option<usize>| {
        let rows: Vec<String> = (0..30_000)
            .map(|i| match bad {
                Some(b) if b == i => r#"{"id": "one", "name": "x"}"#.to_owned(),
                _ => row(i),
            })
            .collect();
        format!("[{}]", rows.join(", "))
    };
    let record = r#"{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["id", "name"]}"#;
    let defs_text = format!(
        r#"[
            {{"name": "load", "parameters": {{"type": "object", "properties": {{"rows": {{"type": "array", "items": {record}}}, "total": {{"type": "integer"}}}}, "required": ["rows"]}}}},
            {{"name": "keyed", "parameters": {{"type": "object", "properties": {{"users": {{"type": "object", "additionalProperties": {record}}}}}}}}},
            {{"name": "whole", "parameters": {{"type": "object", "properties": {{"rows": {{"type": "array", "items": {record}}}}}, "minProperties": 1}}}},
            {{"name": "bare", "parameters": {{"type": "array", "items": {record}}}}}
        ]"#
    );
    let defs: Vec<llmout::tools::ToolDef> = serde_json::from_str(&defs_text).unwrap();
    let path = common::file("large-tools.json", &defs_text);
    let keyed = {
        let users: Vec<String> = (0..30_000)
            .map(|i| format!(r#""u{i}": {}"#, row(i)))
            .collect();
        format!("{{{}}}", users.join(", "))
    };
    let call = |name: &str, arguments: String| {
        format!(
            r#"<tool_call>{{"name": "{name}", "arguments": {arguments}, "id": "c"}}</tool_call>"#
        )
    };
    let replies = [
        // Items, beside a small call, another member renamed.
        format!(
            "Loading.\n{}\n{}",
            call("load", r#"{"rows": [], "Total": "2"}"#.to_owned()),
            call(
                "load",
                format!(r#"{{"Total": "3", "rows": {}}}"#, rows(None))
            )
        ),
        // A row that cannot be recovered: the call's error, its arguments as given.
        call("load", format!(r#"{{"rows": {}}}"#, rows(Some(12_345)))),
        // A required member missing: the error, found whole.
        call("load", format!(r#"{{"lines": {}}}"#, rows(None))),
        // Members one by one; a tool with no definition; a schema read whole; arguments
        // that recover to an array (a wrapper taken off), kept as given.
        call("keyed", format!(r#"{{"users": {keyed}}}"#)),
        call("unknown", format!(r#"{{"rows": {}}}"#, rows(None))),
        call("whole", format!(r#"{{"rows": {}}}"#, rows(None))),
        call("bare", format!(r#"{{"rows": {}}}"#, rows(None))),
    ];
    for reply in replies {
        assert!(reply.len() > 1 << 20);
        let (code, out) = tools_with(&["--tools", &path.to_string_lossy()], reply.as_bytes());
        assert_eq!(code, Some(0));
        assert!(out == checked_envelope(&reply, &defs), "{}", &reply[..200]);
    }
}
