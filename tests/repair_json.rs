//! `repair_json` is `repair_text` written as text: the same candidate, the same value, as many
//! changes as `repair_text` has warnings (but for integers its value holds rounded, whose
//! digits the text keeps), the same error.

use llmout::repair::RepairKind;
use llmout::{repair_json, repair_text, ErrorKind, Options, WarningKind};
use proptest::prelude::*;
use serde_json::Value;

/// Checks that both functions agree on `raw`, and returns the JSON text.
fn agree(raw: &str) -> Result<String, String> {
    let options = Options::default();
    let text = repair_json(raw, &options);
    match repair_text(raw, &options) {
        Ok(r) => {
            let text = text.unwrap_or_else(|e| panic!("{raw:?}: value {} but {e}", r.value));
            let mut de = serde_json::Deserializer::from_str(&text.json);
            de.disable_recursion_limit();
            let reread: Value = serde::Deserialize::deserialize(&mut de)
                .unwrap_or_else(|e| panic!("{raw:?} wrote {:?}: {e}", text.json));
            assert_eq!(reread, r.value, "{raw:?} wrote {:?}", text.json);
            // (An integer the value holds rounded is no change: the text keeps its digits.)
            let said = (r.warnings.iter())
                .filter(|w| w.kind != WarningKind::NumberRounded)
                .count();
            assert_eq!(text.changes, said, "{raw:?}: {:?}", r.warnings);
            Ok(text.json)
        }
        Err(e) => {
            let other = text.map(|t| t.json);
            assert_eq!(other, Err(e.clone()), "{raw:?}");
            Err(e.to_string())
        }
    }
}

#[test]
fn a_messy_reply_in_a_fence() {
    let raw = "Sure! Here it is:\n```json\n{name: 'Ada', tags: ['x',], \"n\": 1.50} // done\n```";
    assert_eq!(
        agree(raw),
        Ok(r#"{"name":"Ada","tags":["x"],"n":1.50}"#.to_owned())
    );
    let r = repair_json(raw, &Options::default()).unwrap();
    // Two unquoted keys, two single-quoted strings, the trailing comma, the comment.
    assert_eq!(r.changes, 6);
}

#[test]
fn several_fences_are_written_as_text_each() {
    // Collected into an array, each block as one block alone is written: `1.50` keeps its
    // form, and an integer beyond 64 bits its digits (the value holds it rounded, and says
    // so; that is no change to the text).
    let raw =
        "First:\n```json\n{id: 123456789012345678901, n: 1.50}\n```\nThen:\n```json\n[2,]\n```";
    assert_eq!(
        agree(raw),
        Ok(r#"[{"id":123456789012345678901,"n":1.50},[2]]"#.to_owned())
    );
    let said: Vec<_> = (repair_text(raw, &Options::default()).unwrap().warnings)
        .into_iter()
        .map(|w| (w.kind, w.path))
        .collect();
    let fix = WarningKind::Repaired(RepairKind::UnquotedKey);
    assert_eq!(
        said,
        [
            (
                WarningKind::Repaired(RepairKind::MultipleValues),
                String::new()
            ),
            (fix, "/0".to_owned()),
            (WarningKind::NumberRounded, "/0/id".to_owned()),
            (
                WarningKind::Repaired(RepairKind::TrailingComma),
                "/1".to_owned()
            ),
        ]
    );
    assert_eq!(repair_json(raw, &Options::default()).unwrap().changes, 3);
}

#[test]
fn valid_json_is_compacted_with_no_change() {
    let r = repair_json(
        "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": null}\n}\n",
        &Options::default(),
    );
    assert_eq!(
        r.unwrap(),
        llmout::RepairedJson {
            json: r#"{"a":[1,2],"b":{"c":null}}"#.to_owned(),
            changes: 0
        }
    );
}

#[test]
fn valid_json_with_a_key_given_twice_keeps_the_last_value_and_says_so() {
    // serde_json drops the first value without a word; that is a change.
    let raw = "{\n  \"a\": [1, 2],\n  \"a\": {\"b\": null}\n}\n";
    let r = repair_json(raw, &Options::default()).unwrap();
    assert_eq!(
        r,
        llmout::RepairedJson {
            json: r#"{"a":{"b":null}}"#.to_owned(),
            changes: 1
        }
    );
    agree(raw).unwrap();
    let text = repair_text(raw, &Options::default()).unwrap();
    let said: Vec<_> = text
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str(), w.message.as_ref()))
        .collect();
    assert_eq!(
        said,
        [(
            WarningKind::Repaired(RepairKind::DuplicateKey),
            "/a",
            "a key given twice kept its last value"
        )]
    );
}

#[test]
fn the_answer_is_chosen_over_an_example_and_that_is_a_change() {
    let raw = "For example {\"a\": 0}. My answer:\n```json\n{\"a\": 1, \"b\": [2, 3]}\n```";
    assert_eq!(agree(raw), Ok(r#"{"a":1,"b":[2,3]}"#.to_owned()));
    assert_eq!(repair_json(raw, &Options::default()).unwrap().changes, 1);
}

#[test]
fn raw_control_characters_and_bad_escapes_are_sanitized() {
    let raw = "{\"path\": \"C:\\xyz\", \"text\": \"line 1\nline 2\"}";
    assert_eq!(
        agree(raw),
        Ok(r#"{"path":"C:\\xyz","text":"line 1\nline 2"}"#.to_owned())
    );
}

#[test]
fn numbers_out_of_range_are_null_in_both() {
    assert_eq!(agree("[1e999, 2]"), Ok("[null,2]".to_owned()));
}

#[test]
fn truncation_reasoning_and_errors() {
    assert_eq!(
        agree("<think>maybe {\"a\": 0}</think>\n{\"a\": [1, \"tw"),
        Ok(r#"{"a":[1,"tw"]}"#.to_owned())
    );
    // Text with no JSON in it is read as text (see `text_with_no_json_is_read_as_text`).
    assert_eq!(agree("no JSON here"), Ok(r#""no JSON here""#.to_owned()));
    assert!(agree(&"[".repeat(200)).is_err());
    assert!(agree("").is_err());
}

/// Replies made of prose, fences, reasoning blocks and pieces of (broken) JSON.
fn reply() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        proptest::sample::select(vec![
            "Sure! ",
            "Here:\n",
            "```json\n",
            "```\n",
            "\n```",
            "<think>",
            "</think>",
            "<answer>",
            "</answer>",
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "'",
            "a",
            "\"a\"",
            "\"b\"",
            "1",
            "1.50",
            "1e999",
            "-0",
            "True",
            "None",
            "null",
            "// c\n",
            "# c\n",
            "/*",
            "*/",
            " ",
            "\n",
            "\\",
            "\\u00e9",
            "\\x",
            "\t",
            "…",
            "\"She said \"hi\"\"",
        ])
        .prop_map(str::to_owned),
        any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..48).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn repair_json_agrees_with_repair_text(raw in reply()) {
        let _ = agree(&raw);
    }

    #[test]
    fn repair_json_agrees_on_any_string(raw in any::<String>()) {
        let _ = agree(&raw);
    }
}

#[test]
fn a_reply_that_is_only_a_fence_is_what_the_fence_holds() {
    for raw in [
        "```json\n{\"a\":\"b\"}\n```",
        "```JSON\n{\"a\":\"b\"}\n```",
        "```json {\"a\":\"b\"} ```",
        "````\n{\"a\":\"b\"}\n```",
        "```\n{\"a\":\"b\"}",
        " ```json\n// the answer\n{\"a\":\"b\"}\n```\n",
    ] {
        let r = repair_json(raw, &Options::default()).unwrap();
        assert_eq!(r.json, r#"{"a":"b"}"#, "{raw:?}");
    }
    // A fence marker inside a string is text.
    assert_eq!(
        agree("```json\n{\"md\": \"use ```rust blocks\"}\n```"),
        Ok(r#"{"md":"use ```rust blocks"}"#.to_owned())
    );
}

/// A warning's kind, path and message.
type Said = (WarningKind, String, String);

/// What `repair_text` gives for `raw`: the value and its warnings, or the error's text.
fn read(raw: &str) -> Result<(Value, Vec<Said>), String> {
    let r = repair_text(raw, &Options::default()).map_err(|e| e.to_string())?;
    let warnings = r.warnings.into_iter();
    let warnings = warnings.map(|w| (w.kind, w.path, w.message.into_owned()));
    Ok((r.value, warnings.collect()))
}

#[test]
fn a_reply_that_is_only_a_fence_reads_as_its_body_bare() {
    // Raw control characters and line breaks, invalid escapes: the sanitizer's fixes, one a
    // run, as in the bare document (the fence markers are no part of the JSON). And one the
    // lenient parser reads.
    let bodies = [
        "{\"a\": \"x\u{1}\u{1}y\", \"b\": \"line\nbreak\tand \\q\"}",
        "[\"one\ttab\"]",
        "{a: 'x', b: [1, 2,], c: True} // done",
    ];
    for body in bodies {
        for fence in [
            format!("```json\n{body}\n```"),
            format!("  ```\n{body}\n````\n"),
            format!("~~~json\n{body}\n~~~"),
            format!("```json\n{body}"),
        ] {
            assert_eq!(read(&fence), read(body), "{fence:?}");
            assert_eq!(agree(&fence), agree(body), "{fence:?}");
        }
    }
    // A document cut off at the token limit inside its fence.
    for body in bodies.iter().chain(&["{\"a\": [1, 2, {\"b\": \"cut\u{1}"]) {
        let cut = &body[..body.len() - 1];
        assert_eq!(read(&format!("```json\n{cut}")), read(cut), "{cut:?}");
    }
    let (_, warnings) = read("```json\n{\"a\": \"x\u{1}\u{1}y\"}\n```").unwrap();
    assert_eq!(
        warnings,
        [(
            WarningKind::Sanitized,
            "/a".to_owned(),
            "escaped a raw control character or an invalid escape in a string".to_owned()
        )]
    );
    // A fence with prose after its closing line, or a second word on its opening line, is
    // no fence alone: the reply is read as it stands, and the fence's body as a candidate.
    assert_eq!(
        agree("```json\n{\"a\": 1}\n```\nDone."),
        Ok(r#"{"a":1}"#.to_owned())
    );
}

#[test]
fn a_document_escaped_as_a_whole_is_unescaped() {
    let raw = r#"{\"title\": \"Say \\\"hi\\\"\", \"n\": 2}"#;
    assert_eq!(agree(raw), Ok(r#"{"title":"Say \"hi\"","n":2}"#.to_owned()));
    let r = repair_text(raw, &Options::default()).unwrap();
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(
        agree(r#"\"plain words\""#),
        Ok(r#""plain words""#.to_owned())
    );
    // An array of objects, and arrays within arrays: the quote after every opening bracket.
    assert_eq!(
        agree(r#"[{\"id\": \"1\", \"path\": \"C:\\\\tmp\"}, {\"id\": \"2\"}]"#),
        Ok(r#"[{"id":"1","path":"C:\\tmp"},{"id":"2"}]"#.to_owned())
    );
    assert_eq!(
        agree(r#"[ [{\"a\": [\"b\"]}] ]"#),
        Ok(r#"[[{"a":["b"]}]]"#.to_owned())
    );
    // Pretty-printed before it was escaped: its line breaks and indents are escapes too.
    assert_eq!(
        agree(r#"{\n  \"city\": \"Oslo\",\n\t\"tags\": [\n    \"cold\"\n  ]\n}"#),
        Ok(r#"{"city":"Oslo","tags":["cold"]}"#.to_owned())
    );
    // In prose: the value ends where its brackets close, its strings being read at the
    // level of escaping they have (an escaped quote of that level, `\\\"`, is inside).
    let prose = r#"The record:
{\n  \"note\": \"a \\\"b\\\" {c\",\n  \"n\": 1\n}
That is all."#;
    assert_eq!(
        agree(prose),
        Ok(r#"{"note":"a \"b\" {c","n":1}"#.to_owned())
    );
    let r = repair_text(prose, &Options::default()).unwrap();
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert_eq!(
        agree(r#"Saved {\"k\": \"v\"} to disk."#),
        Ok(r#"{"k":"v"}"#.to_owned())
    );
}

#[test]
fn text_with_no_json_is_read_as_text() {
    assert_eq!(agree("just words"), Ok(r#""just words""#.to_owned()));
    assert_eq!(agree("v1.2.3"), Ok(r#""v1.2.3""#.to_owned()));
    // A list of single tokens, by commas or by lines, is an array; numbers stay numbers.
    assert_eq!(agree("red,green"), Ok(r#"["red","green"]"#.to_owned()));
    assert_eq!(agree("x\ny\nz"), Ok(r#"["x","y","z"]"#.to_owned()));
    assert_eq!(agree("3, x, true"), Ok(r#"[3,"x",true]"#.to_owned()));
    // Prose with commas is one string.
    assert_eq!(
        agree("Yes, I can, gladly."),
        Ok(r#""Yes, I can, gladly.""#.to_owned())
    );
    // Top-level JSON scalars separated by commas or lines are read by the parser.
    assert_eq!(agree("1,2,3,"), Ok("[1,2,3]".to_owned()));
    assert_eq!(agree("4 ,"), Ok("4".to_owned()));
    // Nothing visible is still an error.
    assert!(agree("  ").is_err());
    assert!(agree("<think>only thoughts</think>").is_err());
    // A fence's info string is no content: an empty fence, or one cut off after its
    // opening line, holds nothing, and is an error rather than the string "json".
    let empty = |raw: &str| {
        assert!(agree(raw).is_err());
        repair_text(raw, &Options::default()).map_err(|e| e.kind())
    };
    assert_eq!(empty("```json\n```").err(), Some(ErrorKind::NoJson));
    assert_eq!(empty("```json\n").err(), Some(ErrorKind::NoJson));
    // Fence markers are markup: the reply's text is what is around them. Three backticks
    // closed on the same line are inline code, whose text is content.
    assert_eq!(
        agree("Here it is:\n```json"),
        Ok(r#""Here it is:""#.to_owned())
    );
    assert_eq!(
        agree("```json\n```\nSorry, no data."),
        Ok(r#""Sorry, no data.""#.to_owned())
    );
    assert_eq!(agree("```no data```"), Ok(r#""no data""#.to_owned()));
}

#[test]
fn several_fenced_answers_are_all_kept() {
    let raw = "First:\n```json\n{\"a\": 1}\n```\nand then:\n  ```json\n  [2, 3,]\n  ```\n";
    assert_eq!(agree(raw), Ok(r#"[{"a":1},[2,3]]"#.to_owned()));
    let r = repair_text(raw, &Options::default()).unwrap();
    let paths: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
    // The collection, then the trailing comma of the second block, under its index.
    assert_eq!(paths, ["", "/1"]);
    // Fences opened and closed within a line of prose.
    assert_eq!(
        agree("see ```json {\"k\": true} ``` or ```json [null] ``` here"),
        Ok(r#"[{"k":true},[null]]"#.to_owned())
    );
    // One fence is just the answer.
    assert_eq!(
        agree("x ```json {\"k\": 1} ``` y"),
        Ok(r#"{"k":1}"#.to_owned())
    );
}

#[test]
fn a_value_taken_from_inside_json_that_failed_says_what_was_left_out() {
    // The object is never closed, and an array where its second key should be cannot be
    // read: the array inside it is what is left, and the warning says so.
    let raw = "{\"a\": 1, [\"b\", 2]: 3, \"c\": \"tail";
    assert_eq!(agree(raw), Ok(r#"["b",2]"#.to_owned()));
    let r = repair_text(raw, &Options::default()).unwrap();
    let messages: Vec<&str> = r.warnings.iter().map(|w| w.message.as_ref()).collect();
    assert_eq!(
        messages,
        [
            "the JSON at bytes 0..32 could not be read as a whole: took the value at bytes 9..17 \
          inside it and left out the other 24 bytes"
        ]
    );
}

/// A value followed by a line of prose is the answer and prose after it, as prose before it
/// would be: nothing was left out. Where what follows holds more JSON, it is said.
#[test]
fn prose_after_the_value_is_no_json_left_out() {
    for raw in [
        "{\"answer\": \"a\", \"confidence\": 1}\nHope this helps!",
        "[1, 2]\n\nLet me know if you need more, e.g. a third one.",
    ] {
        let r = repair_text(raw, &Options::default()).unwrap();
        assert_eq!(r.warnings, [], "{raw}");
        assert!(agree(raw).is_ok(), "{raw}");
    }
    let raw = "{\"a\": 1} and then \"b\": 2}";
    let r = repair_text(raw, &Options::default()).unwrap();
    assert_eq!(r.value, serde_json::json!({"a": 1}));
    assert_eq!(
        r.warnings[0].message,
        "the JSON at bytes 0..25 could not be read as a whole: took the value at bytes 0..8 \
         inside it and left out the other 17 bytes"
    );
}

/// A reply of more bracketed spans than extraction keeps (the 16 longest): both say that the
/// reply held more than was read, even where none of those read was another value (found
/// by the `repair` fuzz target, whose input this is).
#[test]
fn more_spans_than_are_read_is_one_change_in_both() {
    let raw = "2\t{\u{0}{}}\t{}2\t{\u{0}}{}{}{}}\t{}2\t{\u{0}}{}{}{}\t{}2\t{}\t{}2\t{\u{0}}{}\t\t{}}}2{{}\t{";
    assert!(agree(raw).is_ok());
    let r = repair_text(raw, &Options::default()).unwrap();
    assert_eq!(
        r.warnings[0].message,
        "chose the JSON in the whole reply: the reply holds more bracketed spans than the 16 \
         longest of a text that are read, which may be JSON too"
    );
    let prose = format!("{}{{\"k\": 1}}", "see {x} and ".repeat(20));
    assert_eq!(agree(&prose).as_deref(), Ok("{\"k\":1}"));
}
