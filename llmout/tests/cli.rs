//! The CLI contract (DESIGN.md section 7): stdout JSON on success, exit 1 with one stderr line
//! for input that cannot be recovered, exit 2 for usage errors, never a crash on any bytes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn llmout(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the llmout binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // Write from another thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("llmout exits");
    writer.join().expect("writer thread");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn schema_file(name: &str, schema: &serde_json::Value) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, schema.to_string()).unwrap();
    path
}

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
                "/status: renamed key \"Status\" to \"status\" (the same name in another case or spelling)",
                "/status: matched \"PASSED\" to \"pass\" by word stem",
                "/count: read \"3\" as the integer 3"
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
