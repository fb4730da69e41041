//! Properties of the lenient parser (issue 3):
//! 1. any valid JSON comes back exactly as serde_json parses it, with no repairs;
//! 2. no input of any bytes panics (and errors carry an offset inside the input);
//! 3. every prefix of a valid document repairs to a value (truncation anywhere);
//! 4. the text output (`to_string`) and the borrowed output (`parse_borrowed`) always mean
//!    the value `parse` builds, with the same repairs or the same error; long strings too,
//!    which the text output is handed in parts while they are decoded.

mod strategies;

use llmout::repair::{parse, parse_borrowed, to_string, RepairKind, RepairOptions};
use proptest::prelude::*;
use serde_json::Value;

fn text() -> impl Strategy<Value = String> {
    // Quotes of every kind, escapes, structure, comments and non-ASCII inside strings.
    proptest::string::string_regex(
        "[a-zA-Z0-9 {}\\[\\]\"'`:,#/*\\\\\\n\\t\u{0}\u{1f}é“”‘’😀.-]{0,16}",
    )
    .unwrap()
}

fn json() -> impl Strategy<Value = Value> {
    strategies::json(text().boxed(), text().boxed(), 6, 64, 6)
}

fn document() -> impl Strategy<Value = Value> {
    json().prop_filter("container root", |v| v.is_object() || v.is_array())
}

/// Bytes that look like the JSON models write, so that random inputs reach deep states.
fn jsonish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            proptest::sample::select(vec![
                "{", "}", "[", "]", ",", ":", "\"", "'", "`", "\\", "\\u", "\\ud83d", "/*", "*/",
                "//", "#", "\n", " ", "true", "tru", "None", "NaN", "-", "+", ".", "...", "…", "1",
                "0", "e", "12abc", "“", "”", "\"\"\"", "cb(", ")", ";", "key", "é",
            ])
            .prop_map(str::to_owned),
            any::<char>().prop_map(String::from),
        ],
        0..64,
    )
    .prop_map(|parts| parts.concat())
}

fn check_total(input: &str) {
    let text = to_string(input, &RepairOptions::default());
    let node = parse_borrowed(input, &RepairOptions::default());
    match parse(input, &RepairOptions::default()) {
        Ok(parsed) => {
            for r in &parsed.repairs {
                assert!(r.offset <= input.len(), "{r:?} for {input:?}");
            }
            let text = text.unwrap_or_else(|e| panic!("{input:?}: value but {e}"));
            let reread: Value = serde_json::from_str(&text.json)
                .unwrap_or_else(|e| panic!("{input:?} wrote {:?}: {e}", text.json));
            assert_eq!(reread, parsed.value, "{input:?} wrote {:?}", text.json);
            assert_eq!(text.repairs, parsed.repairs, "{input:?}");
            let node = node.unwrap_or_else(|e| panic!("{input:?}: value but {e}"));
            assert_eq!(node.repairs, parsed.repairs, "{input:?}");
            assert_eq!(node.value.into_value(), parsed.value, "{input:?}");
        }
        Err(e) => {
            assert!(e.offset <= input.len(), "{e:?} for {input:?}");
            assert_eq!(node.map(|_| ()), Err(e.clone()), "{input:?}");
            assert_eq!(text, Err(e), "{input:?}");
        }
    }
}

/// Objects whose keys come from a small set, so that keys repeat, objects grow past the size
/// where repeated keys are looked up by hash, and repeats sit at every depth.
fn repeated_keys() -> impl Strategy<Value = String> {
    let key = proptest::sample::select(vec![
        "a", "b", "c", "d", "e", "f", "g", "h", "A", "a\\u0062",
    ]);
    let leaf = prop_oneof![
        Just("1".to_owned()),
        Just("'x'".to_owned()),
        Just("[1,]".to_owned()),
        Just("\"s\"".to_owned()),
    ];
    leaf.prop_recursive(4, 200, 40, move |inner| {
        proptest::collection::vec((key.clone(), inner), 0..40).prop_map(|members| {
            let body: Vec<String> = members
                .into_iter()
                .map(|(k, v)| format!("\"{k}\": {v}"))
                .collect();
            format!("{{{}}}", body.join(", "))
        })
    })
}

/// A reply holding a string value longer than the parser hands over in parts (64 KiB):
/// escapes good and bad, quotes, line breaks and blanks repeated in its body, then an end
/// that a trim may take (blanks longer than a part among them), in a place where it is a
/// value or where it turns out not to be (a key, a part of a `+`, cut off).
fn long_string() -> impl Strategy<Value = String> {
    let piece = proptest::sample::select(vec![
        "\\u12",
        "\\u0041",
        "\\ud83d\\ude00",
        "\\ud83d",
        "\\n",
        "\\\\",
        "\\x",
        "\\'",
        "\\\"",
        "\"",
        "'",
        " ",
        "  ",
        "\n",
        "\t",
        "\u{1}",
        "word",
        "é",
        "😀",
        ",",
        ":",
        "}",
        "]",
    ]);
    let tail = proptest::sample::select(vec![
        String::new(),
        "   ".to_owned(),
        "\n    ".to_owned(),
        "\\n\\t ".to_owned(),
        "\n\"\n  ".to_owned(),
        " ".repeat(70_000),
        "\\n".repeat(30_000),
    ]);
    let place = proptest::sample::select(vec![
        "{\"a\": \"BODY\"}",
        "[\"BODY\", 1]",
        "[\"BODY\": 1]",
        "{\"a\": \"BODY\" + 'x'}",
        "{\"a\": 'BODY'}",
        "{\"a\": \"BODY",
        "[\"BODY",
        "{\"a\": \"BODY\n  \"b\": 1}",
        "\"BODY\"",
        "{\"a\": \"\"\"BODY\"\"\"}",
        "{\"BODY\": 1}",
    ]);
    (proptest::collection::vec(piece, 1..12), tail, place).prop_map(|(pieces, tail, place)| {
        let unit = pieces.concat();
        let body = unit.repeat(70_000 / unit.len() + 1) + &tail;
        place.replace("BODY", &body)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_json_is_unchanged(v in json()) {
        for text in [serde_json::to_string(&v).unwrap(), serde_json::to_string_pretty(&v).unwrap()] {
            let parsed = parse(&text, &RepairOptions::default()).unwrap();
            prop_assert_eq!(&parsed.value, &v);
            prop_assert!(parsed.repairs.is_empty(), "{:?} for {}", parsed.repairs, text);
            let node = parse_borrowed(&text, &RepairOptions::default()).unwrap();
            prop_assert!(node.repairs.is_empty());
            // `&Node` deserializes, through `deserialize_any`, to the same `Value`.
            let via_serde = <Value as serde::Deserialize>::deserialize(&node.value).unwrap();
            prop_assert_eq!(&via_serde, &v);
            prop_assert_eq!(node.value.into_value(), v.clone());
            // Numbers are copied as written, so the text output is serde_json's own.
            let written = to_string(&text, &RepairOptions::default()).unwrap();
            prop_assert_eq!(written.json, serde_json::to_string(&v).unwrap());
            prop_assert!(written.repairs.is_empty());
        }
    }

    #[test]
    fn repeated_keys_mean_the_same_in_text(s in repeated_keys()) {
        check_total(&s);
    }

    #[test]
    fn any_string_is_total(s in any::<String>()) {
        check_total(&s);
    }

    #[test]
    fn any_jsonish_text_is_total(s in jsonish()) {
        check_total(&s);
    }

    #[test]
    fn long_strings_mean_the_same_in_text(s in long_string()) {
        check_total(&s);
    }

    #[test]
    fn every_prefix_of_a_document_repairs(v in document()) {
        let text = serde_json::to_string(&v).unwrap();
        let mut ends: Vec<usize> = (1..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        // Long documents: every prefix would be quadratic in the test, so sample them.
        if ends.len() > 400 {
            let step = ends.len() / 400 + 1;
            ends = ends.into_iter().step_by(step).collect();
        }
        for end in ends {
            let prefix = &text[..end];
            // A lone opening quote holds no JSON value yet.
            if prefix.trim_start() == "\"" {
                continue;
            }
            let parsed = parse(prefix, &RepairOptions::default());
            prop_assert!(parsed.is_ok(), "{:?}: {:?}", prefix, parsed);
            let parsed = parsed.unwrap();
            let truncated = parsed.repairs.iter().any(|r| r.kind == RepairKind::Truncated);
            // A prefix that stops inside a string right after a closer or comma (`{"a": "b}`)
            // reads as a string whose closing quote is missing: also a fix, also honest.
            let missing = parsed.repairs.iter().any(|r| r.kind == RepairKind::MissingQuote);
            prop_assert_eq!(
                truncated || (missing && prefix.trim_end().ends_with(['}', ']', ',', ':'])),
                end < text.len(),
                "{:?}: {:?}",
                prefix,
                parsed.repairs
            );
        }
    }
}
