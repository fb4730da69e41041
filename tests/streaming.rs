//! Streaming (issue 7): random chunkings of replies.
//! * `finish()` equals `T::from_llm` on the whole text, value and warnings;
//! * after every chunk, what the partial reports `Complete` equals the final value there, and a
//!   string in progress is a prefix of its final text: nothing half-written is ever complete;
//! * once all of a valid document has arrived, the partial is exactly that document.

use llmout::stream::{FieldState, Partial, Stream};
use llmout::LlmOutput;
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Number, Value};

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Review {
    summary: String,
    score: u32,
    tags: Vec<String>,
}

const REPLIES: &[&str] = &[
    "{\"summary\": \"ok\", \"score\": 7, \"tags\": [\"a\"]}",
    "<think>draft {\"summary\": \"no\"}</think>\nHere:\n```json\n{\"Summary\": \"Fine \\u00e9\\ud83d\\ude00\", \"score\": \"8\", \"tags\": \"x\",}\n```\nBye",
    "reasoning first</think>{'summary': 'single', 'score': 3, 'tags': [], // note\n}",
    "Example: {\"summary\": \"example\", \"score\": 0, \"tags\": []}. Answer: {\"summary\": \"real\", \"score\": 9, \"tags\": [\"x\", \"y\"]}",
    "{summary: unquoted keys stall the live view, score: 2, tags: []}",
    "{\"summary\": \"cut off mid-str",
    "Sorry, I can't help with that.",
    "{\"summary\": \"mid\", <think>now the {score}: 5?</think> \"score\": 5, \"tags\": [\"a\", <think>]</think> \"b\"]}",
    "<Thinking>{\"summary\": \"draft\", \"score\": 1, \"tags\": []}</thinking> {\"summary\": \"real\", \"score\": 2, \"tags\": [<reasoning x=\"1\">]</reasoning>]}",
];

fn chunks(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|c| c % (text.len() + 1))
        .filter(|&c| text.is_char_boundary(c))
        .collect();
    at.push(0);
    at.push(text.len());
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| text[w[0]..w[1]].to_owned()).collect()
}

/// Every pointer in `v`.
fn pointers(v: &Value, base: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(x, llmout::pointer_push(&base, k), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{base}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(base);
}

fn check_partial(p: &Partial, last: &Value) -> Result<(), TestCaseError> {
    let Some(v) = p.value() else { return Ok(()) };
    let mut ptrs = Vec::new();
    pointers(v, String::new(), &mut ptrs);
    for ptr in ptrs {
        let got = p.get(&ptr).unwrap();
        match p.state(&ptr) {
            FieldState::Complete => prop_assert_eq!(Some(got), last.pointer(&ptr), "at {}", ptr),
            FieldState::InProgress => {
                if let (Value::String(s), Some(Value::String(f))) = (got, last.pointer(&ptr)) {
                    prop_assert!(
                        f.starts_with(s.as_str()),
                        "{:?} is not a prefix of {:?}",
                        s,
                        f
                    );
                }
            }
            FieldState::NotStarted => prop_assert!(false, "{} is present but NotStarted", ptr),
        }
    }
    Ok(())
}

fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-z {}\\[\\]\"'\\\\:,\\n/*é😀\u{1}]{0,12}").unwrap()
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(|f| Value::Number(Number::from_f64(f).unwrap())),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((text(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn finish_equals_from_llm(i in 0..REPLIES.len(), cuts in proptest::collection::vec(any::<usize>(), 0..12)) {
        let reply = REPLIES[i];
        let mut s = Stream::<Review>::new();
        for c in chunks(reply, &cuts) {
            s.push(&c);
        }
        prop_assert_eq!(s.text(), reply);
        let streamed = s.finish();
        let whole = Review::from_llm(reply);
        prop_assert_eq!(streamed.value, whole.value);
        prop_assert_eq!(streamed.warnings, whole.warnings);
        prop_assert_eq!(streamed.recovered, whole.recovered);
        prop_assert_eq!(streamed.error.map(|e| e.to_string()), whole.error.map(|e| e.to_string()));
    }

    #[test]
    fn nothing_half_written_is_complete(
        v in json().prop_filter("container", |v| v.is_object() || v.is_array()),
        pretty in any::<bool>(),
        wrap in 0..3usize,
        cuts in proptest::collection::vec(any::<usize>(), 0..24),
    ) {
        let body = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
        let reply = match wrap {
            0 => body,
            1 => format!("Sure:\n```json\n{body}\n```\nDone."),
            _ => format!("<think>plan: {{not json}}</think>\n{body}"),
        };
        let mut s = Stream::<Value>::new();
        for c in chunks(&reply, &cuts) {
            let p = s.push(&c).clone();
            check_partial(&p, &v)?;
        }
        prop_assert!(s.partial().is_complete());
        prop_assert_eq!(s.partial().value(), Some(&v));
        prop_assert_eq!(s.partial().state(""), FieldState::Complete);
    }

    #[test]
    fn any_text_in_any_chunks_is_total(text in any::<String>(), cuts in proptest::collection::vec(any::<usize>(), 0..8)) {
        let mut s = Stream::<Value>::new();
        for c in chunks(&text, &cuts) {
            let p = s.push(&c);
            let _ = p.state("/a/0");
        }
        let _ = s.finish();
    }
}

#[test]
fn think_blocks_and_prose_braces_are_skipped() {
    let mut s = Stream::<Review>::new();
    s.push("<think>I could answer {\"summary\": \"wrong\"}");
    assert_eq!(s.partial().value(), None);
    s.push("</think>Here is {an example} and the answer: {\"summ");
    assert_eq!(s.partial().value(), Some(&serde_json::json!({})));
    assert_eq!(s.partial().state(""), FieldState::InProgress);
    s.push("ary\": \"Good\", \"tags\": [\"x\"");
    assert_eq!(
        s.partial().get("/summary"),
        Some(&serde_json::json!("Good"))
    );
    assert_eq!(
        s.partial().complete_as::<String>("/tags/0"),
        Some("x".to_owned())
    );
    assert_eq!(s.partial().state("/tags"), FieldState::InProgress);
    assert_eq!(s.partial().state("/score"), FieldState::NotStarted);
}

/// The review the tests below write, one way or another.
fn short_review() -> Review {
    Review {
        summary: "s".into(),
        score: 4,
        tags: vec![],
    }
}

#[test]
fn a_think_block_between_tokens_is_skipped() {
    let mut s = Stream::<Review>::new();
    s.push("{\"summary\": \"s\", <thi");
    s.push("nk>is it {\"score\": 4}? </th");
    assert_eq!(
        s.partial().value(),
        Some(&serde_json::json!({"summary": "s"}))
    );
    s.push("ink> \"score\": 4, \"tags\": []}");
    assert!(!s.partial().stalled());
    assert!(s.partial().is_complete());
    let r = s.finish();
    assert_eq!(r.value, Some(short_review()));
    let kinds: Vec<_> = r.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [llmout::WarningKind::Repaired(llmout::RepairKind::StrayText)]
    );
}

#[test]
fn every_reasoning_tag_is_skipped_as_the_whole_text_skips_it() {
    // `<thinking>` and `<reasoning>`, in any case and with attributes, as extraction reads
    // them: a draft in one is never the live value.
    let mut s = Stream::<Review>::new();
    for chunk in [
        "<Thinking>a draft: {\"summary\": \"dra",
        "ft\"}</thinking",
        ">{\"summary\": \"s\", <reason",
        "ing step=\"2\">{\"score\": 0}</REASONING> \"score\": 4, \"tags\": []}",
    ] {
        s.push(chunk);
        if let Some(v) = s.partial().value() {
            assert_ne!(v.get("summary"), Some(&serde_json::json!("draft")));
        }
    }
    assert_eq!(
        s.partial().value(),
        Some(&serde_json::json!({"summary": "s", "score": 4, "tags": []}))
    );
    assert!(s.partial().is_complete());
    assert_eq!(s.finish().value, Some(short_review()));
}

#[test]
fn unquoted_keys_stall_the_view_but_finish_repairs() {
    let mut s = Stream::<Review>::new();
    s.push("{\"summary\": \"s\", score: 4, tags: []}");
    assert!(s.partial().stalled());
    assert_eq!(s.partial().get("/summary"), Some(&serde_json::json!("s")));
    let r = s.finish();
    assert_eq!(r.value, Some(short_review()));
}

#[test]
fn escapes_split_across_chunks() {
    let mut s = Stream::<Value>::new();
    for c in ["[\"a\\", "u00", "e9\\ud83d", "\\ude00\\", "n\"]"] {
        s.push(c);
    }
    assert_eq!(s.partial().value(), Some(&serde_json::json!(["aé😀\n"])));
}

#[test]
fn a_long_key_above_many_values_streams_in_linear_time() {
    // Each value stored, and each chunk of a string, looked the open containers up by key:
    // a key's length for every value. Four megabytes of key above 800 000 numbers in 16-byte
    // chunks took about a minute; the open containers are now found by position.
    let key = "k".repeat(4 << 20);
    let numbers: Vec<String> = (0..800_000).map(|i| i.to_string()).collect();
    let reply = format!("{{\"{key}\": [[{}]], \"b\": \"end\"}}", numbers.join(","));
    let mut s = Stream::<Value>::new();
    for chunk in reply.as_bytes().chunks(16) {
        s.push(std::str::from_utf8(chunk).unwrap());
    }
    let expected: Vec<Value> = (0..800_000).map(|i| Value::from(i as u64)).collect();
    let mut object = Map::new();
    object.insert(key.clone(), Value::Array(vec![Value::Array(expected)]));
    object.insert("b".to_owned(), Value::from("end"));
    assert_eq!(s.partial().value(), Some(&Value::Object(object.clone())));
    assert_eq!(s.finish().value, Some(Value::Object(object)));
    // A long string under it, a byte at a time.
    let reply = format!("{{\"{key}\": \"{}\"}}", "x".repeat(400_000));
    let mut s = Stream::<Value>::new();
    for c in reply.chars() {
        s.push(c.encode_utf8(&mut [0; 4]));
    }
    assert_eq!(
        s.partial().get(&format!("/{key}")),
        Some(&Value::from("x".repeat(400_000)))
    );
}

#[test]
fn a_key_given_again_is_written_where_it_now_is() {
    // The open container and the string being written are the last value in theirs: a key
    // given again is taken out and stored last.
    let mut s = Stream::<Value>::new();
    for c in "{\"a\": 1, \"b\": {\"x\": 1}, \"a\": {\"c\": [2, \"te".chars() {
        s.push(c.encode_utf8(&mut [0; 4]));
    }
    let p = s.partial();
    assert_eq!(
        p.value(),
        Some(&serde_json::json!({"b": {"x": 1}, "a": {"c": [2, "te"]}}))
    );
    assert_eq!(p.state("/a/c/1"), FieldState::InProgress);
    assert_eq!(p.state("/b/x"), FieldState::Complete);
    s.push("xt\"]}, \"b\": \"y\"}");
    assert_eq!(
        s.partial().value(),
        Some(&serde_json::json!({"a": {"c": [2, "text"]}, "b": "y"}))
    );
}
