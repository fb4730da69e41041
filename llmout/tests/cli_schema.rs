//! `llmout schema`: dialects and the prompt rendering through the CLI.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_llmout"))
        .args(args)
        .output()
        .expect("runs")
}

fn file(name: &str, schema: &serde_json::Value) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, schema.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn openai_strict_rewrites_the_schema() {
    let f = file(
        "point.json",
        &serde_json::json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x"]}),
    );
    let o = run(&["schema", "--dialect", "openai-strict", &f]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"},\"y\":{\"type\":[\"integer\",\"null\"]}},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}\n"
    );
}

#[test]
fn what_a_dialect_cannot_express_exits_1_with_the_path() {
    let f = file(
        "map.json",
        &serde_json::json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}}),
    );
    let o = run(&["schema", "--dialect", "openai-strict", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("at /properties/m: expected an object with named properties"),
        "{err}"
    );
}

#[test]
fn prompt_rendering_and_usage_errors() {
    let f = file("enum.json", &serde_json::json!({"enum": ["a", "b"]}));
    let o = run(&["schema", "--prompt", &f]);
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stdout).as_ref()),
        (Some(0), "\"a\" | \"b\"\n")
    );
    assert_eq!(
        run(&["schema", "--dialect", "openai", &f]).status.code(),
        Some(2)
    );
    assert_eq!(run(&["schema", &f]).status.code(), Some(2));
    assert_eq!(
        run(&["schema", "--dialect", "gemini", "/nonexistent.json"])
            .status
            .code(),
        Some(2)
    );
}
