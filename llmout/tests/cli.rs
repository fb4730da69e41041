//! The CLI contract (DESIGN.md section 7): stdout JSON on success, exit 1 with one stderr line
//! for input that cannot be recovered, exit 2 for usage errors, never a crash on any bytes.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{assert_same_when_large, llmout, llmout_large, schema_file, stderr, stdout};

#[test]
fn repair_prints_one_line_of_json() {
    let o = llmout(&["repair"], b"Here:\n```json\n{\"a\": \"x\ny\"}\n```\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"a\":\"x\\ny\"}\n");
}

#[test]
fn repair_keeps_key_order() {
    let o = llmout(&["repair"], b"{\"b\": 1, \"a\": 2}");
    assert_eq!(stdout(&o), "{\"b\":1,\"a\":2}\n");
}

#[test]
fn repair_without_json_exits_1_with_one_line() {
    let o = llmout(&["repair"], b"<think>no answer yet</think>");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "llmout: expected a JSON value, found only a reasoning block\n"
    );
}

#[test]
fn repair_reads_plain_text_as_a_string() {
    let o = llmout(&["repair"], b"no json here");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "\"no json here\"\n");
}

#[test]
fn parse_against_a_schema() {
    let schema = schema_file(
        "status.json",
        &serde_json::json!({
            "type": "object",
            "properties": {"status": {"enum": ["pass", "fail"]}, "count": {"type": "integer"}},
            "required": ["status", "count"]
        }),
    );
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"Result: {\"Status\": \"PASSED\", \"count\": \"3\"}",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        out,
        serde_json::json!({
            "value": {"status": "pass", "count": 3},
            "warnings": [
                {"kind": "key_renamed", "path": "/status", "message": "renamed key \"Status\" to \"status\" (the same name in another case or spelling)"},
                {"kind": "enum_matched", "path": "/status", "message": "matched \"PASSED\" to \"pass\" by word stem"},
                {"kind": "coerced", "path": "/count", "message": "read \"3\" as the integer 3"}
            ],
            "recovered": true
        })
    );
    assert_eq!(stdout(&o).lines().count(), 1);
}

#[test]
fn parse_valid_reply_is_not_recovered() {
    let schema = schema_file("n.json", &serde_json::json!({"type": "integer"}));
    let o = llmout(&["parse", "--schema", schema.to_str().unwrap()], b"42");
    assert_eq!(
        stdout(&o),
        "{\"value\":42,\"warnings\":[],\"recovered\":false}\n"
    );
}

#[test]
fn parse_unrecoverable_exits_1() {
    let schema = schema_file("n2.json", &serde_json::json!({"type": "integer"}));
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"\"many\"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "llmout: expected an integer, found \"many\"\n");
}

#[test]
fn usage_errors_exit_2() {
    let o = llmout(&["frobnicate"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = llmout(&["parse"], b"{}");
    assert_eq!(o.status.code(), Some(2));
    let o = llmout(&["parse", "--schema", "/nonexistent/schema.json"], b"{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("llmout: cannot read /nonexistent/schema.json: "));
    let bad = schema_file("bad.json", &serde_json::json!({"type": "strnig"}));
    let o = llmout(&["parse", "--schema", bad.to_str().unwrap()], b"{}");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1);
}

#[test]
fn any_bytes_on_stdin_never_crash() {
    let schema = schema_file("any.json", &serde_json::json!({"type": "object"}));
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        vec![0xff, 0xfe, 0x00, 0x80],
        b"\x00{\"a\": \"\x00\"}".to_vec(),
        b"{".repeat(1_000_000),
        b"[".repeat(100_000),
        (0..=255u8).cycle().take(100_000).collect(),
    ];
    for input in inputs {
        for args in [
            vec!["repair"],
            vec!["parse", "--schema", schema.to_str().unwrap()],
        ] {
            let o = llmout(&args, &input);
            let code = o.status.code();
            assert!(
                code == Some(0) || code == Some(1),
                "{args:?}: {code:?} {}",
                stderr(&o)
            );
            if code == Some(1) {
                assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
            }
        }
    }
}

/// A reader that stops early closes the pipe: llmout exits quietly, not with a panic.
#[test]
fn a_closed_stdout_is_not_a_crash() {
    // A value written whole, and one written from its parts as they are made.
    for (reply, opens) in [
        (format!("[{}1]", "1, ".repeat(2_000_000)), b'['),
        (
            format!("{{\"a\": \"{}\"}}", "\u{1}".repeat(2_000_000)),
            b'{',
        ),
    ] {
        closed_early(reply, opens);
    }
}

fn closed_early(reply: String, opens: u8) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmout"))
        .arg("repair")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(reply.as_bytes());
    });
    let mut first = [0u8; 1];
    let mut out = child.stdout.take().unwrap();
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(first, [opens]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
}

/// A large reply valid once sanitized whose JSON is six times as long (`\u0001` for each raw
/// U+0001) is written as it is made: the same text, and the same changes, as the library's.
#[test]
fn repair_writes_a_large_string_of_control_characters_as_it_is_made() {
    let reply = format!(
        "{{\"log\": \"{}\\q\", \"n\": 1}}",
        "\u{1}\u{1f}\t".repeat(400_000)
    );
    let o = llmout(&["repair"], reply.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected = format!(
        "{{\"log\":\"{}\\\\q\",\"n\":1}}\n",
        "\\u0001\\u001f\\t".repeat(400_000)
    );
    assert!(stdout(&o) == expected, "{} bytes", o.stdout.len());
    let r = llmout::repair_json(&reply, &llmout::Options::default()).unwrap();
    assert_eq!((r.json + "\n", r.changes), (expected, 1));
}

/// Invalid UTF-8 is replaced with U+FFFD and said: where, and how often.
#[test]
fn invalid_utf8_is_a_warning() {
    let reply = b"{\"a\": \"x\xff\xfey\", \"b\": \"\xc3\"}";
    let schema = schema_file("ab.json", &serde_json::json!({"type": "object"}));
    let o = llmout(&["parse", "--schema", schema.to_str().unwrap()], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        out,
        serde_json::json!({
            "value": {"a": "x\u{fffd}\u{fffd}y", "b": "\u{fffd}"},
            "warnings": [{
                "kind": "invalid_utf8",
                "path": "",
                "message": "replaced 3 invalid UTF-8 sequences in the input with U+FFFD, the first at byte 8"
            }],
            "recovered": true
        })
    );
    let o = llmout(&["tools"], b"hello \xff");
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        out["warnings"],
        serde_json::json!([{
            "kind": "invalid_utf8",
            "path": "",
            "message": "replaced the invalid UTF-8 at byte 6 of the input with U+FFFD"
        }])
    );
    assert_eq!(out["content"], "hello \u{fffd}");
    // `repair` prints only the value on stdout; the warning goes to stderr.
    let o = llmout(&["repair"], b"[\"\xff\"]");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "[\"\u{fffd}\"]\n");
    assert_eq!(
        stderr(&o),
        "llmout: warning: replaced the invalid UTF-8 at byte 2 of the input with U+FFFD\n"
    );
}

/// A one-level reply against a recursive schema that fits nowhere says so, not that it nests
/// too deep.
#[test]
fn the_error_for_a_shallow_reply_is_true() {
    let schema = schema_file(
        "twin.json",
        &serde_json::json!({
            "$defs": {"T": {"anyOf": [
                {"type": "array", "items": {"$ref": "#/$defs/T"}},
                {"type": "array", "items": {"$ref": "#/$defs/T"}, "description": "o"},
                {"type": "integer"}
            ]}},
            "$ref": "#/$defs/T"
        }),
    );
    let o = llmout(&["parse", "--schema", schema.to_str().unwrap()], b"\"x\"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: expected an array of an array or an array or an integer, found \"x\"\n"
    );
    let o = llmout(&["parse", "--schema", schema.to_str().unwrap()], b"1");
    assert_eq!(
        stdout(&o),
        "{\"value\":1,\"warnings\":[],\"recovered\":false}\n"
    );
}

#[test]
fn the_reply_may_come_from_a_file_or_dash_for_stdin() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let reply = dir.join("reply.txt");
    std::fs::write(&reply, "{name: 'Ada',}").unwrap();
    let o = llmout(&["repair", reply.to_str().unwrap()], b"ignored");
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "{\"name\":\"Ada\"}\n".to_owned())
    );
    let o = llmout(&["repair", "-"], b"[1,");
    assert_eq!(stdout(&o), "[1]\n");
    let schema = schema_file("any.json", &serde_json::json!({}));
    let o = llmout(
        &[
            "parse",
            "--schema",
            schema.to_str().unwrap(),
            reply.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["value"], serde_json::json!({"name": "Ada"}));
    let o = llmout(&["tools", reply.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A file that cannot be read is a usage error.
    let o = llmout(&["repair", dir.join("missing.txt").to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("llmout: cannot read "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn pretty_indents_repair_parse_and_tools() {
    // repair: the same text serde_json's pretty printer writes, numbers as written.
    let reply = b"```json\n{a: [1, 2.50, {}], 'b': \"x\\\"y\", c: {d: [], e: None,}}\n```";
    let o = llmout(&["repair", "--pretty"], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\n  \"a\": [\n    1,\n    2.50,\n    {}\n  ],\n  \"b\": \"x\\\"y\",\n  \"c\": {\n    \"d\": [],\n    \"e\": null\n  }\n}\n"
    );
    let compact = stdout(&llmout(&["repair"], reply));
    let value: serde_json::Value = serde_json::from_str(&compact).unwrap();
    assert_eq!(
        stdout(&o).replace("2.50", "2.5"),
        serde_json::to_string_pretty(&value).unwrap() + "\n"
    );
    // A scalar and an empty container are one line either way.
    assert_eq!(stdout(&llmout(&["repair", "--pretty"], b"[]")), "[]\n");
    assert_eq!(
        stdout(&llmout(&["repair", "--pretty"], b"'a:b'")),
        "\"a:b\"\n"
    );

    let schema = schema_file(
        "pretty.json",
        &serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
    );
    let o = llmout(
        &["parse", "--pretty", "--schema", schema.to_str().unwrap()],
        b"{\"n\": 1}",
    );
    assert_eq!(
        stdout(&o),
        "{\n  \"value\": {\n    \"n\": 1\n  },\n  \"warnings\": [],\n  \"recovered\": false\n}\n"
    );
    // --pretty may come before the command too.
    let o = llmout(
        &["--pretty", "tools"],
        b"<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>",
    );
    assert_eq!(
        stdout(&o),
        "{\n  \"content\": null,\n  \"tool_calls\": [\n    {\n      \"id\": null,\n      \"name\": \"f\",\n      \"arguments\": {}\n    }\n  ],\n  \"needs_more_work\": true,\n  \"warnings\": []\n}\n"
    );
}

#[test]
fn parse_keeps_keys_the_schema_does_not_list() {
    let schema = schema_file(
        "open.json",
        &serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    );
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"{\"city\": \"Oslo\", \"days\": 3}",
    );
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"city\":\"Oslo\",\"days\":3},\"warnings\":[],\"recovered\":false}\n"
    );
    let closed = schema_file(
        "closed.json",
        &serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}),
    );
    let o = llmout(
        &["parse", "--schema", closed.to_str().unwrap()],
        b"{\"city\": \"Oslo\", \"days\": 3}",
    );
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"city\":\"Oslo\"},\"warnings\":[{\"kind\":\"unknown_key_dropped\",\"path\":\"/days\",\"message\":\"dropped unknown key \\\"days\\\"\"}],\"recovered\":true}\n"
    );
}

#[test]
fn parse_takes_a_policy() {
    let schema = schema_file(
        "policy.json",
        &serde_json::json!({
            "type": "object",
            "properties": {"title": {"type": "string"}, "count": {"type": "integer"}},
            "required": ["title", "count"]
        }),
    );
    let path = schema.to_str().unwrap();
    let missing = b"{\"Title\": \"Fix\"}";
    let o = llmout(&["parse", "--schema", path], missing);
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"title\":\"Fix\",\"count\":0},\"warnings\":[{\"kind\":\"key_renamed\",\"path\":\"/title\",\"message\":\"renamed key \\\"Title\\\" to \\\"title\\\" (the same name in another case or spelling)\"},{\"kind\":\"missing_field\",\"path\":\"/count\",\"message\":\"missing field filled with the empty value 0\"}],\"recovered\":true}\n"
    );
    let o = llmout(
        &["parse", "--policy", "no-invent", "--schema", path],
        missing,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: at /count: expected an integer for \"count\" (required; never filled in), found nothing\n"
    );
    let o = llmout(
        &["parse", "--policy", "no-invent", "--schema", path],
        b"{\"Title\": \"Fix\", \"count\": \"2\"}",
    );
    assert_eq!(o.status.code(), Some(0));
    let o = llmout(
        &["parse", "--policy", "strict", "--schema", path],
        b"{\"Title\": \"Fix\", \"count\": 2}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o)
        .starts_with("llmout: at /title: expected a value that needs no recovery (strict policy)"));
    let o = llmout(&["parse", "--policy", "loose", "--schema", path], b"{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown policy \"loose\": expected lenient, no-invent or strict"),
        "{}",
        stderr(&o)
    );
}

/// A reply that is one array, against an array schema, is written item by item
/// (`llmout::large`): the same bytes as the whole pipeline's result, compact or indented, with
/// the note about invalid UTF-8 first.
#[test]
fn parse_writes_an_array_item_by_item() {
    let schema = schema_file(
        "items.json",
        &serde_json::json!({
            "type": "array",
            "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        }),
    );
    let path = schema.to_str().unwrap();
    let o = llmout(
        &["parse", "--schema", path],
        b"// two\n[{n: 1}, {\"N\": \"2\"},]",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":[{\"n\":1},{\"n\":2}],\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"removed a comment\"},\
         {\"kind\":\"repaired\",\"path\":\"/0\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/1/n\",\"message\":\"read \\\"2\\\" as the integer 2\"}],\"recovered\":true}\n"
    );
    let o = llmout(&["parse", "--schema", path], b"[]");
    assert_eq!(
        stdout(&o),
        "{\"value\":[],\"warnings\":[],\"recovered\":false}\n"
    );
    let o = llmout(
        &["parse", "--pretty", "--schema", path],
        b"[{\"n\": 1}, {\"n\": 2}]",
    );
    assert_eq!(
        stdout(&o),
        "{\n  \"value\": [\n    {\n      \"n\": 1\n    },\n    {\n      \"n\": 2\n    }\n  ],\n  \"warnings\": [],\n  \"recovered\": false\n}\n"
    );
    let o = llmout(
        &["parse", "--schema", path],
        b"[{\"n\": 1, \"s\": \"\xff\"}]",
    );
    assert_eq!(
        stdout(&o),
        "{\"value\":[{\"n\":1,\"s\":\"\u{fffd}\"}],\"warnings\":[{\"kind\":\"invalid_utf8\",\"path\":\"\",\"message\":\"replaced the invalid UTF-8 at byte 16 of the input with U+FFFD\"}],\"recovered\":true}\n"
    );
    // An item that cannot be recovered is the error, as for any reply.
    let o = llmout(
        &["parse", "--schema", path],
        b"[{\"n\": 1}, {\"n\": \"x\"}]",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: at /1/n: expected an integer, found \"x\"\n"
    );
    assert_eq!(
        stdout(&o),
        "{\"error\":{\"kind\":\"mismatch\",\"path\":\"/1/n\",\"message\":\"at /1/n: expected an integer, found \\\"x\\\"\"}}\n"
    );
    // Replies of 1 MiB and more are read item by item, shorter ones whole: each reply above
    // prints the same either way.
    let cases: [(&[&str], &[u8]); 5] = [
        (
            &["parse", "--schema", path],
            b"// two\n[{n: 1}, {\"N\": \"2\"},]",
        ),
        (&["parse", "--schema", path], b"[]"),
        (
            &["parse", "--pretty", "--schema", path],
            b"[{\"n\": 1}, {\"n\": 2}]",
        ),
        (
            &["parse", "--schema", path],
            b"[{\"n\": 1}, {\"n\": \"x\"}]",
        ),
        (
            &["parse", "--schema", path],
            b"[{n: 1, s: 'a'}, {n: 2, s: 'b'}]",
        ),
    ];
    for (args, reply) in cases {
        assert_same_when_large(args, reply);
    }
}

/// A reply that is an object around an array, against an object schema whose property is an
/// array of items, is written item by item too: the object's members in order around the
/// items, the same bytes as the whole pipeline's result.
#[test]
fn parse_writes_an_array_with_bounds_item_by_item() {
    let schema = serde_json::json!({"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3});
    let path = schema_file("bounded-array.json", &schema);
    let path = path.to_str().unwrap();
    let o = llmout(&["parse", "--schema", path], b"[1, '2',]");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\"value\":[1,2],\"warnings\":[{\"kind\":\"repaired\",\"path\":\"/1\",\"message\":\"read a string in non-JSON quotes\"},{\"kind\":\"repaired\",\"path\":\"\",\"message\":\"removed a trailing comma\"},{\"kind\":\"coerced\",\"path\":\"/1\",\"message\":\"read \\\"2\\\" as the integer 2\"}],\"recovered\":true}\n"
    );
    // Too many items: the error, as for any reply (the reply is then read whole).
    let o = llmout(&["parse", "--schema", path], b"[1, 2, 3, 4]");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: expected at most 3 items (maxItems), found 4 items\n"
    );
    // A member's array with bounds, in the object around it.
    let around = serde_json::json!({
        "type": "object",
        "properties": {"rows": schema, "total": {"type": "integer"}},
        "required": ["rows", "total"]
    });
    let member = schema_file("bounded-member.json", &around);
    let member = member.to_str().unwrap();
    let o = llmout(&["parse", "--schema", member], b"{rows: [1, 2], total: 2}");
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"rows\":[1,2],\"total\":2},\"warnings\":[{\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"}],\"recovered\":true}\n"
    );
    // Replies of 1 MiB and more are counted item by item, shorter ones read whole.
    let cases: [(&str, &[u8]); 12] = [
        (path, b"[1, '2',]"),
        (path, b"[1, 2, 3]"),
        (path, b"[1]"),
        (path, b"[1, 2, 3, 4]"),
        (path, b"[1, 'x']"),
        (path, b"[]"),
        (member, b"{rows: [1, '2'], total: 2}"),
        (member, b"{total: '3', rows: [1, 2, 3]}"),
        (member, b"{rows: [1], total: 1}"),
        (member, b"{rows: [1, 2, 3, 4], total: 4}"),
        (member, b"{rows: [1, 'x'], total: 2}"),
        (member, b"{rows: [], total: 'x'}"),
    ];
    for (schema, reply) in cases {
        assert_same_when_large(&["parse", "--schema", schema], reply);
    }
}

#[test]
fn parse_writes_an_object_around_an_array_item_by_item() {
    let schema = schema_file(
        "object-items.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "total": {"type": "integer"},
                "results": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
                },
                "note": {"type": "string"}
            },
            "required": ["total", "results"]
        }),
    );
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{\"results\": [{n: 1}, {\"N\": \"2\"},], 'total': 2, Note: \"ok\"}";
    let o = llmout(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"total\":2,\"results\":[{\"n\":1},{\"n\":2}],\"note\":\"ok\"},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"/results/0\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/results\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/note\",\"message\":\"renamed key \\\"Note\\\" to \\\"note\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/results/1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/results/1/n\",\"message\":\"read \\\"2\\\" as the integer 2\"}],\"recovered\":true}\n"
    );
    let cases: [(&[&str], &[u8]); 8] = [
        (&["parse", "--schema", path], reply),
        (&["parse", "--pretty", "--schema", path], reply),
        (
            &["parse", "--schema", path],
            b"{\"total\": 0, \"results\": []}",
        ),
        // Members missing (filled in) or extra (kept), and an item that cannot be recovered.
        (
            &["parse", "--schema", path],
            b"{results: [{n: 1}], extra: [1,]}",
        ),
        (
            &["parse", "--schema", path],
            b"{total: 1, results: [{n: 'x'}]}",
        ),
        (
            &["parse", "--schema", path],
            b"{total: 'x', results: [{n: 1}]}",
        ),
        // Truncated; items joining the array after it closed.
        (
            &["parse", "--schema", path],
            b"{total: 2, results: [{n: 1}, {n: 2",
        ),
        (
            &["parse", "--schema", path],
            b"{total: 2, results: [{n: 1}], {n: 2}], note: 'x'}",
        ),
    ];
    for (args, reply) in cases {
        assert_same_when_large(args, reply);
    }
}

/// Where an item cannot be recovered in an optional member, the member is dropped with a
/// warning naming the item's error, as reading the reply whole drops it: read item by item,
/// the object is written without it.
#[test]
fn parse_drops_an_optional_member_an_item_fails_in_item_by_item() {
    let schema = schema_file(
        "optional-items.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "total": {"type": "integer"},
                "results": {"type": "array", "items": {"type": "integer"}}
            },
            "required": ["total"]
        }),
    );
    let path = schema.to_str().unwrap();
    let reply = b"{total: 3, results: [1, 2, 'three']}";
    let o = llmout_large(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"total\":3},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/results/2\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"required_only\",\"path\":\"/results\",\"message\":\"dropped optional field \\\"results\\\": at /results/2: expected an integer, found \\\"three\\\"\"}],\"recovered\":true}\n"
    );
    assert_same_when_large(&["parse", "--schema", path], reply);
    // Under the strict policy nothing is dropped: the item's error.
    assert_same_when_large(&["parse", "--policy", "strict", "--schema", path], reply);
}

/// An object of two large arrays (a graph's nodes and edges) is written item by item through
/// both, each in its place: the same bytes as read whole.
#[test]
fn parse_writes_two_large_arrays_item_by_item() {
    let schema = schema_file(
        "two-arrays.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "users": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
                },
                "name": {"type": "string"},
                "edges": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}
            },
            "required": ["edges"]
        }),
    );
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{users: [{n: 1}, {N: '2'}], Name: 'g', edges: [[1, 2], [2, '3'],]}";
    let o = llmout_large(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"users\":[{\"n\":1},{\"n\":2}],\"name\":\"g\",\"edges\":[[1,2],[2,3]]},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/0\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/1\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/1/n\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/name\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/edges/1/1\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"/edges\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/name\",\"message\":\"renamed key \\\"Name\\\" to \\\"name\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/users/1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/users/1/n\",\"message\":\"read \\\"2\\\" as the integer 2\"},\
         {\"kind\":\"coerced\",\"path\":\"/edges/1/1\",\"message\":\"read \\\"3\\\" as the integer 3\"}],\"recovered\":true}\n"
    );
    let cases: [&[u8]; 7] = [
        reply,
        // The edges first (with a key renamed, recovery walks the schema's order, users
        // first), an item that drops the users, one that fails.
        b"{edges: [[1, 2], [2, 3]], users: [{n: 1}, {n: 2}], name: 'g'}",
        b"{edges: [[1, 2], [2, '3']], users: [{n: 1}, {N: 2}], Name: 'g'}",
        b"{users: [{n: 1}, {n: 'x'}], edges: [[1, 2], [2, 3]]}",
        b"{users: [{n: 1}, {n: 2}], edges: [[1, 2], [2, 'x']]}",
        // Empty, and truncated in the second array.
        b"{\"users\": [], \"edges\": []}",
        b"{users: [{n: 1}, {n: 2}], edges: [[1, 2], [2, 3",
    ];
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
    }
    // Against any value too.
    let any = schema_file("any-two.json", &serde_json::json!({}));
    let any = any.to_str().unwrap();
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", any], reply);
    }
}

/// A wrapper object around the array (`{"results": [...]}`), against the array schema, is
/// written item by item as the array alone, the wrapper taken off with a warning; objects
/// given one by one in prose are the array's items. Each prints the same bytes whole.
#[test]
fn parse_takes_the_array_out_of_a_wrapper_and_collects_objects_given_one_by_one() {
    let schema = schema_file(
        "wrapped-items.json",
        &serde_json::json!({
            "type": "array",
            "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        }),
    );
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{results: [{n: 1}, {\"N\": \"2\"},]}";
    let o = llmout(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":[{\"n\":1},{\"n\":2}],\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/0\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"reshaped\",\"path\":\"\",\"message\":\"took the array out of the wrapper object {\\\"results\\\": [...]}\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/1/n\",\"message\":\"read \\\"2\\\" as the integer 2\"}],\"recovered\":true}\n"
    );
    let prose: &[u8] = b"The first: {\"n\": 1}\nThe second: {n: 2}\nDone.";
    let o = llmout(&["parse", "--schema", path], prose);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":[{\"n\":1},{\"n\":2}],\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"collected the 2 JSON objects given one by one in the reply into an array\"},\
         {\"kind\":\"repaired\",\"path\":\"/1\",\"message\":\"quoted an unquoted key\"}],\"recovered\":true}\n"
    );
    let cases: [&[u8]; 6] = [
        reply,
        prose,
        b"{\"results\": []}",
        // Other members beside the array, or a key that is a field of the items: whole.
        b"{results: [{n: 1}], total: 1}",
        b"{n: [1]}",
        // Truncated.
        b"{results: [{n: 1}, {n: 2",
    ];
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
    }
}

/// Against `{}`, an object around an array is written item by item as well: the largest array
/// of a member, whatever its key and however deep, with the same bytes as the whole
/// pipeline's.
#[test]
fn parse_against_any_schema_writes_an_object_around_an_array_item_by_item() {
    let schema = schema_file("any.json", &serde_json::json!({}));
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{total: '2', rows: [1, {a: 2,},], meta: [3]}";
    let o = llmout(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"total\":\"2\",\"rows\":[1,{\"a\":2}],\"meta\":[3]},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/total\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/rows/1\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/rows/1\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"repaired\",\"path\":\"/rows\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"}],\"recovered\":true}\n"
    );
    let cases: [&[u8]; 8] = [
        reply,
        b"{\"records\": []}",
        // No member is an array, or the array's member is given again: whole.
        b"{a: 1, b: 'x'}",
        b"{rows: [1], rows: [2]}",
        // Truncated; items joining the array after it closed.
        b"{rows: [{n: 1}, {n: 2",
        b"{rows: [{n: 1}], {n: 2}], note: 'x'}",
        // A larger array after a small one, and deeper.
        b"{tags: ['a'], rows: [1, 2, 3], n: 1}",
        b"{tags: ['a'], page: {n: 1, rows: [1, 2, 3]}, z: {}}",
    ];
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
    }
    // An object of records keyed by id: its members are written one by one.
    let keyed: &[u8] = b"{r1: {n: 1, tags: ['x']}, 'r2': {n: 2,}, r3: [1, 2], r4: 'z'}";
    let o = llmout(&["parse", "--schema", path], keyed);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"r1\":{\"n\":1,\"tags\":[\"x\"]},\"r2\":{\"n\":2},\"r3\":[1,2],\"r4\":\"z\"},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r1\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r1/tags/0\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"/r2\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r2\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r4\",\"message\":\"read a string in non-JSON quotes\"}],\"recovered\":true}\n"
    );
    let keyed_cases: [&[u8]; 6] = [
        keyed,
        b"{}",
        // A member cut off; a key given again (whole); a fence around it; pretty.
        b"{r1: {n: 1}, r2: {n: 2, tags: ['a'",
        b"{r1: 1, r2: 2, r1: 3}",
        b"Here:\n```json\n{\"r1\": {\"n\": 1}, \"r2\": {\"n\": 2}}\n```",
        b"{\"r1\": {\"n\": \"a\\tb\"}, \"r2\": null}",
    ];
    for reply in keyed_cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
        assert_same_when_large(&["parse", "--pretty", "--schema", path], reply);
    }
    // Against a map schema, each member's value is recovered under its key.
    let map = schema_file(
        "map.json",
        &serde_json::json!({
            "type": "object",
            "additionalProperties": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        }),
    );
    let map = map.to_str().unwrap();
    let o = llmout(&["parse", "--schema", map], b"{r1: {N: '1'}, r2: {n: 2}}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"r1\":{\"n\":1},\"r2\":{\"n\":2}},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r1\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r1/n\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/r2\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/r1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/r1/n\",\"message\":\"read \\\"1\\\" as the integer 1\"}],\"recovered\":true}\n"
    );
    let map_cases: [&[u8]; 5] = [
        b"{r1: {N: '1'}, r2: {n: 2}}",
        b"{}",
        b"{r1: {n: 1}, r2: {n: 'x'}}",
        b"{r1: {n: 1}, r2: {n: 2",
        b"{\"r1\": {\"n\": 1}, \"r2\": {\"N\": \"a\tb\"}}",
    ];
    for reply in map_cases {
        assert_same_when_large(&["parse", "--schema", map], reply);
    }
}

/// A map of records as a member of an object (`{"total": 2, "users": {"u1": {...}}}`), against
/// an object schema whose property is a map or against `{}`, is written member by member in
/// its place, with the same bytes as the whole pipeline's.
#[test]
fn parse_writes_a_map_in_an_object_member_by_member() {
    let record = serde_json::json!({
        "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]
    });
    let schema = schema_file(
        "object-with-map.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "total": {"type": "integer"},
                "users": {"type": "object", "additionalProperties": record}
            },
            "required": ["total", "users"]
        }),
    );
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{users: {u1: {N: '1'}, 'u2': {n: 2,}}, Total: '2'}";
    let o = llmout(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"total\":2,\"users\":{\"u1\":{\"n\":1},\"u2\":{\"n\":2}}},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/u1\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/u1/n\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"/users\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/u2\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/users/u2\",\"message\":\"removed a trailing comma\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/total\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/total\",\"message\":\"renamed key \\\"Total\\\" to \\\"total\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/total\",\"message\":\"read \\\"2\\\" as the integer 2\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/users/u1/n\",\"message\":\"renamed key \\\"N\\\" to \\\"n\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/users/u1/n\",\"message\":\"read \\\"1\\\" as the integer 1\"}],\"recovered\":true}\n"
    );
    let any = schema_file("any-for-map.json", &serde_json::json!({}));
    let any = any.to_str().unwrap();
    let cases: [&[u8]; 7] = [
        reply,
        b"{\"total\": 0, \"users\": {}}",
        b"{\"total\": 1, \"users\": {\"u1\": {\"n\": \"a\tb\"}}}",
        // Cut off in a member; a member's key given twice (whole); a fence around it.
        b"{total: 2, users: {u1: {n: 1}, u2: {n: 2",
        b"{total: 2, users: {u1: {n: 1}, u1: {n: 2}}}",
        b"Here:\n```json\n{\"total\": 1, \"users\": {\"u1\": {\"n\": 1}}}\n```",
        // Beside a small array, deeper.
        b"{tags: ['a'], page: {total: 2, users: {u1: {n: 1, t: [1]}, u2: {n: 2}, u3: {n: 3}}}}",
    ];
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
        assert_same_when_large(&["parse", "--schema", any], reply);
        assert_same_when_large(&["parse", "--pretty", "--schema", any], reply);
    }
}

/// `parse --schema` checks `pattern`: a reply that breaks it exits 1 saying so; a pattern the
/// CLI cannot run is a usage error naming where it is.
#[test]
fn parse_checks_patterns() {
    let schema = schema_file(
        "pattern.json",
        &serde_json::json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$"}}, "required": ["code"]}),
    );
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"{\"code\": \"abc\"}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: at /code: expected a string matching the pattern ^[A-Z]+$ (pattern), found \"abc\"\n"
    );
    let detail: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(detail["error"]["violations"][0]["keyword"], "pattern");
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"{\"code\": \"ABC\"}",
    );
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"code\":\"ABC\"},\"warnings\":[],\"recovered\":false}\n"
    );
    let bad = schema_file(
        "bad-pattern.json",
        &serde_json::json!({"properties": {"code": {"pattern": "(?=A)"}}}),
    );
    let o = llmout(&["parse", "--schema", bad.to_str().unwrap()], b"{}");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "llmout: {}: at /properties/code/pattern: expected a regular expression llmout can \
             run (ECMA-262 without look-around or backreferences), found \"(?=A)\" (look-around \
             ((?=...)), which the regex engine llmout uses does not support)\n",
            bad.display()
        )
    );
}

/// A reply that breaks several constraints: the first on stderr with how many more, all of
/// them on stdout as `{"error": {"kind", "path", "message", "violations"}}`.
#[test]
fn parse_reports_every_violation_as_json() {
    let schema = schema_file(
        "limits.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "title": {"type": "string", "maxLength": 5},
                "tags": {"type": "array", "maxItems": 1}
            }
        }),
    );
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap()],
        b"{\"title\": \"much too long\", \"tags\": [\"a\", \"b\"]}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llmout: at /title: expected at most 5 characters (maxLength), found 13 characters (and 1 more violation)\n"
    );
    assert_eq!(stdout(&o).lines().count(), 1);
    let detail: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        detail,
        serde_json::json!({"error": {
            "kind": "invalid",
            "path": "/title",
            "message": "at /title: expected at most 5 characters (maxLength), found 13 characters (and 1 more violation)",
            "violations": [
                {"path": "/title", "keyword": "maxLength", "expected": "at most 5 characters",
                 "found": "13 characters", "message": "`title` has 13 characters; at most 5 are allowed"},
                {"path": "/tags", "keyword": "maxItems", "expected": "at most 1 item",
                 "found": "2 items", "message": "`tags` has 2 items; at most 1 is allowed"}
            ]
        }})
    );
    // Other failures print their error the same way, without `violations`.
    let o = llmout(&["parse", "--schema", schema.to_str().unwrap()], b"[1, 2]");
    assert_eq!(o.status.code(), Some(1));
    let detail: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(detail["error"]["kind"], "mismatch");
    assert_eq!(detail["error"].get("violations"), None);
}

/// `parse` writes an object around an array two objects deep (the schema leads there) item by
/// item when the reply is large, with the same bytes as the whole pipeline's.
#[test]
fn parse_writes_an_array_deeper_in_the_object_item_by_item() {
    let schema = schema_file(
        "nested.json",
        &serde_json::json!({
            "type": "object",
            "properties": {
                "page": {"type": "integer"},
                "result": {
                    "type": "object",
                    "properties": {
                        "rows": {"type": "array", "items": {"type": "integer"}},
                        "more": {"type": "boolean"}
                    },
                    "required": ["rows"]
                }
            },
            "required": ["result"]
        }),
    );
    let path = schema.to_str().unwrap();
    let reply: &[u8] = b"{page: 1, result: {rows: [1, '2',], more: False}, note: 'x'}";
    let o = llmout(&["parse", "--schema", path], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        out["value"],
        serde_json::json!({"page": 1, "result": {"rows": [1, 2], "more": false}, "note": "x"})
    );
    let cases: [&[u8]; 7] = [
        reply,
        b"{\"result\": {\"rows\": []}}",
        // Members after the items at both levels, renamed; the objects unclosed.
        b"{Result: {Rows: [1], More: 'true'}, Page: '2'}",
        b"{page: 1, result: {rows: [1, 2",
        // The object on the way given again: the last one.
        b"{result: {rows: [1]}, result: {rows: [2]}}",
        b"{result: {more: true}, result: {rows: [2]}}",
        // An item that fails: exit 1, as whole.
        b"{result: {rows: [1, 'x']}}",
    ];
    for reply in cases {
        assert_same_when_large(&["parse", "--schema", path], reply);
    }
}

#[test]
fn a_long_key_above_many_changes_is_an_error_not_gigabytes_of_warnings() {
    // Two mebibytes of key above 100 000 items (read item by item: the reply is over 1 MiB):
    // every warning's pointer holds the key, 200 GB of output before.
    let key = "k".repeat(2 << 20);
    let strings: Vec<String> = (0..100_000).map(|i| format!("\"{i}\"")).collect();
    let reply = format!("{{\"{key}\": [{}]}}", strings.join(", "));
    let ints = serde_json::json!({"type": "array", "items": {"type": "integer"}});
    for schema in [
        serde_json::json!({"type": "object", "additionalProperties": ints}),
        serde_json::json!({"type": "object", "properties": {key.clone(): ints}}),
    ] {
        let schema = schema_file("long_key.json", &schema);
        let o = llmout(
            &["parse", "--schema", schema.to_str().unwrap()],
            reply.as_bytes(),
        );
        assert_eq!(o.status.code(), Some(1));
        let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(out["error"]["kind"], "too_large");
        let message = out["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("expected at most ")
                && message.ends_with(
                    " bytes of JSON pointers, beyond 8 per level of nesting, in the changes \
                     and violations recorded (a mebibyte and 16 per byte of the reply), found \
                     more: a long key above many of them"
                ),
            "{message}"
        );
    }
    // The parser's fixes alike: single-quoted keys.
    let items: Vec<String> = (0..100_000).map(|i| format!("{{'a': {i}}}")).collect();
    let reply = format!("{{\"{key}\": [{}]}}", items.join(", "));
    let any = schema_file("long_key_any.json", &serde_json::json!({}));
    let o = llmout(
        &["parse", "--schema", any.to_str().unwrap()],
        reply.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["error"]["kind"], "syntax");
    let budget = (1 << 20) + 16 * reply.len();
    let message = out["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with(&format!(
            "(the fixes' JSON pointers would hold over {budget} bytes beyond 8 per key (a \
             mebibyte and 16 per byte of the reply): a long key above many fixes at byte {})",
            reply.find("{'a': 27}").unwrap() + 8
        )),
        "{message}"
    );
}
