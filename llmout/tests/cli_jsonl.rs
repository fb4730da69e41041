//! `--jsonl` (DESIGN.md section 7): each input line a JSON string holding one reply, one
//! result per line, in order; a reply that fails is `{"error": {"kind", "message"}}` on its
//! line.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{file, llmout, stderr, stdout};

/// The input lines: each reply as a JSON string.
fn lines(replies: &[&str]) -> Vec<u8> {
    let mut out = String::new();
    for r in replies {
        out.push_str(&serde_json::to_string(r).unwrap());
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn repair_answers_each_line_in_order() {
    let input = lines(&[
        "Sure:\n```json\n{a: 1,}\n```",
        "no json here",
        "<think>nothing yet</think>",
        "[1, 2",
    ]);
    let o = llmout(&["repair", "--jsonl"], &input);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
    assert_eq!(
        stdout(&o),
        "{\"a\":1}\n\
         \"no json here\"\n\
         {\"error\":{\"kind\":\"no_json\",\"message\":\"expected a JSON value, found only a reasoning block\"}}\n\
         [1,2]\n"
    );
}

#[test]
fn a_line_that_is_no_json_string_is_an_error_on_its_line() {
    // Not a string, an empty line, a string that does not end, invalid UTF-8; then a good
    // line (with CRLF), and a last line with no line break.
    let input = b"{\"a\": 1}\n\n\"open\n\"\xff\"\n\"[3]\"\r\n\"[4]\"".to_vec();
    let o = llmout(&["repair", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"error\":{\"kind\":\"invalid_line\",\"message\":\"line 1 is not a JSON string holding a reply: invalid type: map, expected a string at line 1 column 0\"}}\n\
         {\"error\":{\"kind\":\"invalid_line\",\"message\":\"line 2 is not a JSON string holding a reply: EOF while parsing a value at line 1 column 0\"}}\n\
         {\"error\":{\"kind\":\"invalid_line\",\"message\":\"line 3 is not a JSON string holding a reply: EOF while parsing a string at line 1 column 5\"}}\n\
         {\"error\":{\"kind\":\"invalid_line\",\"message\":\"line 4 is not a JSON string holding a reply: invalid unicode code point at line 1 column 2\"}}\n\
         [3]\n\
         [4]\n"
    );
}

#[test]
fn empty_input_prints_nothing() {
    let o = llmout(&["repair", "--jsonl"], b"");
    assert_eq!(
        (o.status.code(), stdout(&o), stderr(&o)),
        (Some(0), String::new(), String::new())
    );
}

#[test]
fn parse_answers_each_reply_against_the_schema() {
    let schema = file(
        "status.json",
        r#"{"type": "object", "properties": {"status": {"enum": ["pass", "fail"]}, "n": {"type": "integer"}}, "required": ["status", "n"]}"#,
    );
    let input = lines(&[
        "{\"status\": \"pass\", \"n\": 1}",
        "Result: {Status: 'PASSED', n: '2'}",
        "{\"status\": \"maybe\", \"n\": 3}",
    ]);
    let o = llmout(
        &["parse", "--schema", schema.to_str().unwrap(), "--jsonl"],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"value\":{\"status\":\"pass\",\"n\":1},\"warnings\":[],\"recovered\":false}\n\
         {\"value\":{\"status\":\"pass\",\"n\":2},\"warnings\":[\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/status\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"repaired\",\"path\":\"\",\"message\":\"quoted an unquoted key\"},\
         {\"kind\":\"repaired\",\"path\":\"/n\",\"message\":\"read a string in non-JSON quotes\"},\
         {\"kind\":\"key_renamed\",\"path\":\"/status\",\"message\":\"renamed key \\\"Status\\\" to \\\"status\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"enum_matched\",\"path\":\"/status\",\"message\":\"matched \\\"PASSED\\\" to \\\"pass\\\" by word stem\"},\
         {\"kind\":\"coerced\",\"path\":\"/n\",\"message\":\"read \\\"2\\\" as the integer 2\"}],\"recovered\":true}\n\
         {\"error\":{\"kind\":\"mismatch\",\"path\":\"/status\",\"message\":\"at /status: expected one of \\\"pass\\\", \\\"fail\\\", found \\\"maybe\\\"\"}}\n"
    );
    // The same replies one by one print the same (an error on stdout too, with exit 1).
    for (i, reply) in [
        "{\"status\": \"pass\", \"n\": 1}",
        "Result: {Status: 'PASSED', n: '2'}",
        "{\"status\": \"maybe\", \"n\": 3}",
    ]
    .iter()
    .enumerate()
    {
        let one = llmout(
            &["parse", "--schema", schema.to_str().unwrap()],
            reply.as_bytes(),
        );
        assert_eq!(
            stdout(&one),
            stdout(&o).split_inclusive('\n').nth(i).unwrap()
        );
    }
}

#[test]
fn a_bad_schema_is_a_usage_error_before_any_line() {
    let schema = file("bad.json", r#"{"type": 3}"#);
    let o = llmout(
        &["parse", "--jsonl", "--schema", schema.to_str().unwrap()],
        &lines(&["1"]),
    );
    assert_eq!((o.status.code(), stdout(&o)), (Some(2), String::new()));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn tools_answers_each_reply() {
    let input = lines(&[
        "Looking.\n<tool_call>{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}</tool_call>",
        "Just text.",
    ]);
    let o = llmout(&["tools", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"content\":\"Looking.\",\"tool_calls\":[{\"id\":null,\"name\":\"ls\",\"arguments\":{\"dir\":\"/\"}}],\"needs_more_work\":true,\"warnings\":[]}\n\
         {\"content\":\"Just text.\",\"tool_calls\":[],\"needs_more_work\":null,\"warnings\":[]}\n"
    );
    let defs = file(
        "tools.json",
        r#"[{"name": "ls", "parameters": {"type": "object", "properties": {"dir": {"type": "string"}, "all": {"type": "boolean"}}, "required": ["dir"]}}]"#,
    );
    let input = lines(&[
        "<tool_call>{\"name\": \"ls\", \"arguments\": {\"Dir\": \"/\", \"all\": \"yes\"}}</tool_call>",
        "<tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call>",
    ]);
    let o = llmout(
        &["tools", "--tools", defs.to_str().unwrap(), "--jsonl"],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"content\":null,\"tool_calls\":[{\"id\":null,\"name\":\"ls\",\"arguments\":{\"dir\":\"/\",\"all\":true}}],\"needs_more_work\":true,\"warnings\":[\
         {\"kind\":\"key_renamed\",\"path\":\"/tool_calls/0/arguments/dir\",\"message\":\"renamed key \\\"Dir\\\" to \\\"dir\\\" (the same name in another case or spelling)\"},\
         {\"kind\":\"coerced\",\"path\":\"/tool_calls/0/arguments/all\",\"message\":\"read \\\"yes\\\" as the boolean true\"}]}\n\
         {\"content\":null,\"tool_calls\":[{\"id\":null,\"name\":\"ls\",\"arguments\":{},\"error\":{\"kind\":\"forbidden\",\"path\":\"/tool_calls/0/arguments/dir\",\"message\":\"at /tool_calls/0/arguments/dir: expected a string for \\\"dir\\\" (required; never filled in), found nothing\"}}],\"needs_more_work\":true,\"warnings\":[]}\n"
    );
}

#[test]
fn lines_come_from_a_file_too() {
    let path = file("replies.jsonl", "\"{a: 1}\"\n\"[2,]\"\n");
    let o = llmout(&["repair", "--jsonl", path.to_str().unwrap()], b"ignored");
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "{\"a\":1}\n[2]\n".to_owned())
    );
}

#[test]
fn pretty_and_jsonl_do_not_go_together() {
    let o = llmout(&["--pretty", "repair", "--jsonl"], &lines(&["[1]"]));
    assert_eq!((o.status.code(), stdout(&o)), (Some(2), String::new()));
    assert_eq!(
        stderr(&o),
        "llmout: --pretty cannot be used with --jsonl: each result is one line\n"
    );
}

/// Many lines: each is answered on its own, whatever came before it.
#[test]
fn many_lines_each_answered_alone() {
    let replies: Vec<String> = (0..2000)
        .map(|i| format!("{{id: {i}, 'ok': True,}}"))
        .collect();
    let refs: Vec<&str> = replies.iter().map(String::as_str).collect();
    let o = llmout(&["repair", "--jsonl"], &lines(&refs));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected: String = (0..2000)
        .map(|i| format!("{{\"id\":{i},\"ok\":true}}\n"))
        .collect();
    assert_eq!(stdout(&o), expected);
}

/// The replies are answered by several threads at once (`--threads`, every core by default),
/// and written in input order whatever the number of threads: a slow reply (a long one) does
/// not let the ones after it overtake it.
#[test]
fn threads_answer_in_input_order() {
    let mut replies: Vec<String> = Vec::new();
    let mut expected = String::new();
    for i in 0..3000 {
        if i % 700 == 350 {
            // About 1 MB: a batch of its own, answered while later batches are.
            let n = 200_000;
            replies.push(format!("[{}{i}]", "1, ".repeat(n)));
            expected.push_str(&format!("[{}{i}]\n", "1,".repeat(n)));
        } else {
            replies.push(format!("Reply {i}: {{n: {i}, 'ok': True,}}"));
            expected.push_str(&format!("{{\"n\":{i},\"ok\":true}}\n"));
        }
    }
    let refs: Vec<&str> = replies.iter().map(String::as_str).collect();
    let input = lines(&refs);
    for threads in ["1", "2", "5"] {
        let o = llmout(&["--threads", threads, "repair", "--jsonl"], &input);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o) == expected, "{threads} threads: not in order");
    }
    let o = llmout(&["--threads", "0", "repair", "--jsonl"], &input);
    assert_eq!((o.status.code(), stdout(&o)), (Some(2), String::new()));
}

/// A huge line is answered in its slot like any other, whether it holds a reply or is no
/// JSON string.
#[test]
fn a_huge_line_is_answered_in_its_slot() {
    let mut input = lines(&["[1,]"]);
    input.extend_from_slice(
        &serde_json::to_vec(&format!("{{\"a\": \"{}\"", "x".repeat(3 << 20))).unwrap(),
    );
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b'[', 3 << 20));
    input.push(b'\n');
    input.extend_from_slice(&lines(&["{b: 2}"]));
    let o = llmout(&["--threads", "2", "repair", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "[1]\n\
             {{\"a\":\"{}\"}}\n\
             {{\"error\":{{\"kind\":\"invalid_line\",\"message\":\"line 3 is not a JSON string holding a reply: invalid type: sequence, expected a string at line 1 column 0\"}}}}\n\
             {{\"b\":2}}\n",
            "x".repeat(3 << 20)
        )
    );
}

/// A reader that stops early: the threads stop, and llmout exits quietly.
#[test]
fn a_closed_stdout_stops_every_thread_quietly() {
    let replies: Vec<String> = (0..200_000).map(|i| format!("{{n: {i}}}")).collect();
    let refs: Vec<&str> = replies.iter().map(String::as_str).collect();
    let input = lines(&refs);
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmout"))
        .args(["--threads", "2", "repair", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut first = [0u8; 8];
    let mut out = child.stdout.take().unwrap();
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(&first, b"{\"n\":0}\n");
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
}
