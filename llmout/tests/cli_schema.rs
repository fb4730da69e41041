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
fn a_map_is_written_as_key_value_pairs_for_openai() {
    let f = file(
        "pairs.json",
        &serde_json::json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["m"]}),
    );
    let o = run(&["--pretty", "schema", "--dialect", "openai-strict", &f]);
    assert_eq!(o.status.code(), Some(0));
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        out["properties"]["m"]["items"],
        serde_json::json!({
            "type": "object",
            "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
            "required": ["key", "value"],
            "additionalProperties": false
        })
    );
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("{\n  \"type\": \"object\","));
}

#[test]
fn what_a_dialect_cannot_express_exits_1_with_the_path() {
    let f = file(
        "map.json",
        &serde_json::json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": true}}}),
    );
    let o = run(&["schema", "--dialect", "openai-strict", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "at /properties/m/additionalProperties: expected a typed schema (openai-strict \
             cannot express \"any value\")"
        ),
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

/// A file that is not a schema is a usage error on every path, naming the bad keyword.
#[test]
fn schemas_that_are_not_schemas_exit_2_with_the_pointer() {
    let cases = [
        ("type3.json", serde_json::json!({"type": 3}), "at /type: expected a type name"),
        (
            "props.json",
            serde_json::json!({"properties": "x"}),
            "at /properties: expected an object of schemas, found \"x\"",
        ),
        (
            "enum.json",
            serde_json::json!({"enum": []}),
            "at /enum: expected a non-empty array of values, found []",
        ),
        (
            "cycle.json",
            serde_json::json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}),
            "at /$defs/B/$ref: expected references that reach `properties` or `items` before they loop",
        ),
    ];
    let reply = std::env::temp_dir().join(format!("cli-schema-reply-{}", std::process::id()));
    std::fs::write(&reply, "{\"a\": 1}").unwrap();
    for (name, schema, message) in cases {
        let f = file(name, &schema);
        for args in [
            vec!["schema", "--prompt", &f],
            vec!["schema", "--dialect", "gemini", &f],
            vec!["schema", "--dialect", "openai-strict", &f],
        ] {
            let o = run(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with(&format!("llmout: {f}: {message}")),
                "{args:?}: {err}"
            );
        }
        let o = Command::new(env!("CARGO_BIN_EXE_llmout"))
            .args(["parse", "--schema", &f])
            .stdin(std::fs::File::open(&reply).unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.starts_with(&format!("llmout: {f}: {message}")), "{err}");
    }
}

#[test]
fn a_root_ref_to_an_object_is_an_object_root() {
    let f = file(
        "rootref.json",
        &serde_json::json!({
            "$ref": "#/$defs/P",
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}
        }),
    );
    let o = run(&["schema", "--dialect", "openai-strict", &f]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}},\"required\":[\"x\"],\"additionalProperties\":false,\"$defs\":{\"P\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}},\"required\":[\"x\"],\"additionalProperties\":false}}}\n"
    );
}

/// 20 levels, each using the next definition twice: 1.1 KB that inlines to over 100 MB.
#[test]
fn gemini_refuses_a_schema_that_inlining_would_blow_up() {
    let mut defs = serde_json::Map::new();
    for i in 0..20 {
        let next = format!("#/$defs/L{}", i + 1);
        defs.insert(
            format!("L{i}"),
            serde_json::json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    defs.insert("L20".into(), serde_json::json!({"type": "string"}));
    let f = file(
        "doubling.json",
        &serde_json::json!({"$ref": "#/$defs/L0", "$defs": defs}),
    );
    let o = run(&["schema", "--dialect", "gemini", &f]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(o.stdout, b"");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "llmout: {f}: expected a schema of at most 1000000 bytes once its references are \
             inlined (gemini has no $ref; use gemini-json), found about 117440428 bytes (the \
             largest reference inlined: /$ref)\n"
        )
    );
}

/// A schema whose text is exactly `len` bytes: an object with a padded description.
fn schema_of_len(len: usize) -> serde_json::Value {
    let shell = serde_json::json!({"type": "integer", "description": ""}).to_string();
    serde_json::json!({"type": "integer", "description": "d".repeat(len - shell.len())})
}

#[test]
fn a_schema_file_over_16_mib_is_refused_before_it_is_read_whole() {
    let limit = 16 << 20;
    let at = file("at-limit.json", &schema_of_len(limit));
    assert_eq!(std::fs::metadata(&at).unwrap().len(), limit as u64);
    let o = run(&["schema", "--prompt", &at]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let over = file("over-limit.json", &schema_of_len(limit + 1));
    for args in [
        &["schema", "--prompt", &over][..],
        &["schema", "--dialect", "gemini", &over],
        &["parse", "--schema", &over, &at],
        &["tools", "--tools", &over, &at],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "llmout: {over} is over 16777216 bytes: a schema or tool definitions file is \
                 held whole, at up to 17 times its size in memory, and no provider takes one \
                 near this size\n"
            ),
            "{args:?}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
