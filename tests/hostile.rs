//! Hostile input through `from_llm` and `repair_text`: a clear error or a correct value, never
//! a panic or a stack overflow. (That the time is linear is shown by the benches, not here.)

use llmout::repair::RepairKind;
use llmout::{ErrorKind, LlmOutput, Options, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Node {
    name: String,
    children: Vec<Node>,
}

fn error_kind(reply: &str) -> ErrorKind {
    let r = Node::from_llm(reply);
    assert_eq!(r.value, None, "{:.80}", reply);
    r.error.expect("an error when there is no value").kind()
}

#[test]
fn empty_and_whitespace() {
    assert_eq!(error_kind(""), ErrorKind::NoJson);
    assert_eq!(error_kind(" \n\t\r "), ErrorKind::NoJson);
}

#[test]
fn binary_bytes() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(64 * 1024).collect();
    let text = String::from_utf8_lossy(&bytes);
    let r = Node::from_llm(&text);
    assert!(r.value.is_none());
    let nul = "\0\0{\0\"name\0\": \0}\0";
    assert!(Node::from_llm(nul).value.is_none());
}

#[test]
fn a_megabyte_of_open_braces() {
    let reply = "{".repeat(1 << 20);
    let kind = error_kind(&reply);
    assert!(
        matches!(kind, ErrorKind::DepthLimit | ErrorKind::Syntax),
        "{kind:?}"
    );
}

#[test]
fn a_hundred_thousand_nested_brackets() {
    let reply = "[".repeat(100_000);
    let kind = error_kind(&reply);
    assert!(
        matches!(kind, ErrorKind::DepthLimit | ErrorKind::Syntax),
        "{kind:?}"
    );
    let closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(error_kind(&closed), ErrorKind::DepthLimit);
    assert!(llmout::repair_text(&closed, &Options::default()).is_err());
}

#[test]
fn deep_but_allowed_nesting_recovers() {
    // 40 levels of the recursive type: well inside the limit of 128.
    let mut reply = String::from("{\"name\": \"leaf\", \"children\": []}");
    for i in 0..40 {
        reply = format!("{{\"Name\": \"n{i}\", \"children\": [{reply}]}}");
    }
    let r = Node::from_llm(&reply);
    let mut node = r.value.expect("recovered");
    let mut depth = 0;
    while let Some(child) = node.children.pop() {
        node = child;
        depth += 1;
    }
    assert_eq!((depth, node.name.as_str()), (40, "leaf"));
    assert_eq!(r.warnings.len(), 40); // one renamed key per level
}

#[test]
fn depth_limit_is_configurable() {
    let mut reply = String::from("{\"name\": \"leaf\", \"children\": []}");
    for _ in 0..10 {
        reply = format!("{{\"name\": \"n\", \"children\": [{reply}],}}");
    }
    let r = Node::from_llm_with(&reply, &Options::default().max_depth(8));
    assert_eq!(r.error.unwrap().kind(), ErrorKind::DepthLimit);
}

#[test]
fn huge_string_value() {
    let big = "x".repeat(4 << 20);
    let reply = format!("Here: {{\"name\": \"{big}\", \"children\": []}}");
    let r = Node::from_llm(&reply);
    assert_eq!(r.value.map(|n| n.name.len()), Some(4 << 20));
}

#[test]
fn many_small_candidates() {
    let reply = "{} ".repeat(100_000) + "{\"name\": \"real\", \"children\": []}";
    let r = Node::from_llm(&reply);
    assert_eq!(r.value.map(|n| n.name), Some("real".to_owned()));
}

#[test]
fn a_megabyte_of_commas_is_one_warning() {
    let reply = format!(
        "{{\"name\": \"x\", \"children\": [{}]}}",
        ",".repeat(1 << 20)
    );
    let r = Node::from_llm(&reply);
    assert_eq!(
        r.value.map(|n| (n.name, n.children.len())),
        Some(("x".into(), 0))
    );
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [(WarningKind::Repaired(RepairKind::ExtraComma), "/children")]
    );
}

#[test]
fn a_string_left_open_over_many_blank_and_comment_lines() {
    // Where a member's string with no closing quote could end is weighed at its line
    // breaks; a run of blank lines (or of `#` lines, comments to the parser) is one gap,
    // weighed once. Read again at each break, 200 000 of them took minutes.
    for (line, escaped) in [("\n", "\\n"), ("\n# h", "\\n# h")] {
        let reply = format!("{{\"name\": \"x{}\" and \"y}}", line.repeat(200_000));
        let r = llmout::repair_json(&reply, &Options::default()).expect("repaired");
        assert_eq!(
            r.json,
            format!(r#"{{"name":"x{}\" and \"y"}}"#, escaped.repeat(200_000))
        );
    }
}

#[test]
fn a_megabyte_of_quotes_backslashes_and_alternating_quotes() {
    // A megabyte of quotes needs a fix every few bytes: noise, not a million warnings. The
    // parser refuses it.
    let quotes = format!(
        "{{\"name\": \"{}\", \"children\": []}}",
        "\"".repeat(1 << 20)
    );
    assert_eq!(error_kind(&quotes), ErrorKind::Syntax);
    let e = llmout::repair::parse(&quotes, &Default::default()).unwrap_err();
    assert_eq!(
        e.message,
        "more fixes than any JSON document needs (over one per 4 bytes)"
    );
    // Backslashes in pairs are escaped backslashes: valid JSON, no warning.
    let backslashes = format!(
        "{{\"name\": \"{}\", \"children\": []}}",
        "\\".repeat(1 << 20)
    );
    let r = Node::from_llm(&backslashes);
    assert_eq!(r.value.map(|n| n.name.len()), Some(1 << 19));
    assert!(r.warnings.is_empty());
    // Alternating quotes read as one string cut off at the end (no quote in it can end it):
    // a string is no `Node`.
    let alternating = "\"'".repeat(1 << 19);
    assert_eq!(error_kind(&alternating), ErrorKind::Mismatch);
}

#[test]
fn lone_surrogates_and_nul_bytes() {
    let r = Node::from_llm(r#"{"name": "a\ud800b", "children": []}"#);
    assert_eq!(r.value.map(|n| n.name), Some("a\u{FFFD}b".to_owned()));
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [(WarningKind::Repaired(RepairKind::InvalidEscape), "/name")]
    );

    let r = Node::from_llm("{\"name\": \"a\0b\", \"children\": []}");
    assert_eq!(r.value.map(|n| n.name), Some("a\0b".to_owned()));
    let what: Vec<(WarningKind, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(what, [(WarningKind::Sanitized, "/name")]);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Listing {
    records: Vec<Entry>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Entry {
    id: u32,
    name: String,
    meta: String,
}

/// Many records, each with its keys in another case and the parser's fixes, and an object
/// where the schema asks for a string: each warning is followed through the moves that
/// touch it, each object kept as written is found by its pointer, and the parser's fixes
/// inside it go in one pass. (Each was done against every move, container or warning: 20
/// 000 such records took seconds, 150 000 minutes.)
#[test]
fn many_renamed_keys_and_objects_kept_as_written() {
    let n = 10_000;
    let mut reply = String::from("{Records: [");
    for i in 0..n {
        reply.push_str(&format!(
            "{{ID: '{i}', 'Name': 'n{i}', Meta: {{a: {i},}}}}, "
        ));
    }
    reply.push_str("]}");
    let r = Listing::from_llm(&reply);
    let said = |k: usize| -> Vec<(WarningKind, String)> {
        let at = format!("/records/{k}");
        let under = format!("{at}/");
        r.warnings
            .iter()
            .filter(|w| w.path == at || w.path.starts_with(&under))
            .map(|w| (w.kind, w.path.replace(&at, "")))
            .collect()
    };
    let expected: Vec<(WarningKind, String)> = [
        (WarningKind::Repaired(RepairKind::UnquotedKey), ""),
        (WarningKind::Repaired(RepairKind::QuoteStyle), "/id"),
        (WarningKind::Repaired(RepairKind::QuoteStyle), ""),
        (WarningKind::Repaired(RepairKind::QuoteStyle), "/name"),
        (WarningKind::Repaired(RepairKind::UnquotedKey), ""),
        (WarningKind::KeyRenamed, "/id"),
        (WarningKind::KeyRenamed, "/name"),
        (WarningKind::KeyRenamed, "/meta"),
        (WarningKind::Coerced, "/id"),
        (WarningKind::Coerced, "/meta"),
    ]
    .into_iter()
    .map(|(kind, path)| (kind, path.to_owned()))
    .collect();
    for k in [0, n / 2, n - 1] {
        assert_eq!(said(k), expected, "record {k}");
    }
    // And the object's own: its unquoted key, the trailing comma, `Records` renamed.
    assert_eq!(r.warnings.len(), 10 * n + 3);
    let records = r.value.expect("the records").records;
    assert_eq!(records.len(), n);
    assert_eq!(
        records[n - 1],
        Entry {
            id: 9_999,
            name: "n9999".to_owned(),
            meta: "{a: 9999,}".to_owned(),
        }
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Ticket {
    title: String,
    state: State,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
enum State {
    Open,
    Closed,
}

/// A hundred wrapper objects around the value, each of whose keys is no field: the chain
/// is weighed (each wrapper taken off, or kept as the object with its key as data) in one
/// scope. Each wrapper's weighings were made again for every wrapper above it, the enum's
/// long text looked up each time: with a text of 20 000 words this took seconds; the fuzzer
/// found it on 3 KB of noise.
#[test]
fn a_chain_of_wrappers_is_weighed_once() {
    let depth = 100;
    let mut reply = String::new();
    for i in 0..depth {
        reply.push_str(&format!("{{\"w{i}\": "));
    }
    let state = format!("Open\n{}", "é ".repeat(20_000));
    reply.push_str(&serde_json::json!({"title": "x", "state": state}).to_string());
    reply.push_str(&"}".repeat(depth));
    let r = Ticket::from_llm(&reply);
    assert_eq!(
        r.value,
        Some(Ticket {
            title: "x".to_owned(),
            state: State::Open
        })
    );
    let what: Vec<WarningKind> = r.warnings.iter().map(|w| w.kind).collect();
    let mut expected = vec![WarningKind::Reshaped; depth];
    expected.push(WarningKind::EnumMatched);
    assert_eq!(what, expected);
}
