//! `llmout tools` through the CLI.

use std::io::Write;
use std::process::{Command, Stdio};

fn tools(stdin: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmout"))
        .arg("tools")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn prints_the_envelope() {
    let (code, out) =
        tools(b"Reading.\n<tool_call>{\"name\": \"read\", \"arguments\": {\"p\": 1}}</tool_call>");
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "{\"content\":\"Reading.\",\"tool_calls\":[{\"id\":null,\"name\":\"read\",\"arguments\":{\"p\":1}}],\"needs_more_work\":true}\n"
    );
}

#[test]
fn plain_text_and_any_bytes() {
    let (code, out) = tools(b"just text");
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "{\"content\":\"just text\",\"tool_calls\":[],\"needs_more_work\":null}\n"
        )
    );
    let (code, _) = tools(&[0xff, 0xfe, b'<', b't', 0x00, 0x80]);
    assert_eq!(code, Some(0));
}
