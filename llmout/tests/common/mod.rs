//! What the CLI test files share: running the binary and files for its arguments.
#![allow(dead_code)] // each test file uses part of this module

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `llmout` with `args` and `stdin`.
pub fn llmout(args: &[&str], stdin: &[u8]) -> Output {
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

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// A file holding `contents`, in a directory of this test binary's own.
pub fn file(name: &str, contents: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// A file holding `schema`.
pub fn schema_file(name: &str, schema: &serde_json::Value) -> PathBuf {
    file(name, &schema.to_string())
}

/// `llmout` with `args` on `reply` after 1 MiB of white space (which changes nothing in
/// what is read): replies of 1 MiB and more are read item by item (`llmout::large`).
pub fn llmout_large(args: &[&str], reply: &[u8]) -> Output {
    let pad = " ".repeat(1 << 20);
    llmout(args, &[pad.as_bytes(), reply].concat())
}

/// Replies of 1 MiB and more are read item by item (`llmout::large`), shorter ones whole:
/// `reply` made large ([`llmout_large`]) prints what `reply` alone prints, and exits the
/// same way.
pub fn assert_same_when_large(args: &[&str], reply: &[u8]) {
    let short = llmout(args, reply);
    let long = llmout_large(args, reply);
    assert_eq!(
        (long.status.code(), stdout(&long), stderr(&long)),
        (short.status.code(), stdout(&short), stderr(&short)),
        "{}",
        String::from_utf8_lossy(reply)
    );
}
