use serde_json::{json, Value};

use super::RepairKind::{self, *};
use super::{
    count, parse, parse_borrowed, to_string, to_string_counted, to_value_text, RepairOptions,
};

/// The value and the (kind, path) of each repair. Every test that goes through here also
/// checks that the text output means the same value with the same repairs.
fn fix(input: &str) -> (Value, Vec<(RepairKind, String)>) {
    let parsed = parse(input, &RepairOptions::default())
        .unwrap_or_else(|e| panic!("{input:?} did not parse: {e}"));
    same_as_text(input, &RepairOptions::default());
    let repairs = parsed
        .repairs
        .into_iter()
        .map(|r| (r.kind, r.path.to_owned()))
        .collect();
    (parsed.value, repairs)
}

fn kinds(input: &str) -> Vec<RepairKind> {
    fix(input).1.into_iter().map(|(k, _)| k).collect()
}

fn value(input: &str) -> Value {
    fix(input).0
}

fn err(input: &str) -> String {
    match parse(input, &RepairOptions::default()) {
        Ok(p) => panic!("{input:?} parsed as {}", p.value),
        Err(e) => {
            assert_eq!(to_string(input, &RepairOptions::default()), Err(e.clone()));
            let borrowed = parse_borrowed(input, &RepairOptions::default());
            assert_eq!(borrowed.map(|_| ()), Err(e.clone()));
            let counted = to_string_counted(input, &RepairOptions::default());
            assert_eq!(counted.map(|_| ()), Err(e.clone()));
            let counter = count(input, &RepairOptions::default());
            assert_eq!(counter.map(|_| ()), Err(e.clone()));
            e.message
        }
    }
}

/// `to_string` writes JSON that `serde_json` reads as exactly the value `parse` builds, and
/// `parse_borrowed` builds a `Node` that is that value, both with the same repairs.
fn same_as_text(input: &str, options: &RepairOptions) {
    let parsed = parse(input, options).unwrap();
    let node = parse_borrowed(input, options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(node.repairs, parsed.repairs, "{input:?}");
    assert_eq!(node.value.into_value(), parsed.value, "{input:?}");
    let text = to_string(input, options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    let reread: Value = serde_json::from_str(&text.json)
        .unwrap_or_else(|e| panic!("{input:?} wrote {:?}: {e}", text.json));
    assert_eq!(reread, parsed.value, "{input:?} wrote {:?}", text.json);
    // The same fixes; the text keeps every integer's digits, so it rounds none.
    assert!(text.repairs.iter().eq(parsed.repairs.iter()), "{input:?}");
    assert_eq!(text.repairs.rounded().len(), 0, "{input:?}");
    // The value's own text: what serde_json writes for the value, byte for byte.
    let as_value = to_value_text(input, options).unwrap();
    assert_eq!(
        as_value.json,
        serde_json::to_string(&parsed.value).unwrap(),
        "{input:?}"
    );
    assert_eq!(as_value.repairs, parsed.repairs, "{input:?}");
    // The counting variants write the same text and count the same fixes.
    let duplicates = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == DuplicateKey)
        .count();
    let counted = to_string_counted(input, options).unwrap();
    assert_eq!(counted.json, text.json, "{input:?}");
    assert_eq!(
        (counted.fixes, counted.duplicate_keys),
        (parsed.repairs.len(), duplicates),
        "{input:?}"
    );
    let counter = count(input, options).unwrap();
    assert_eq!(
        (counter.fixes, counter.duplicate_keys),
        (counted.fixes, counted.duplicate_keys),
        "{input:?}"
    );
    // Written as it is made where no fix edits what came before: the same text.
    if let Some(how) = super::streamed::streamable(input, options).unwrap() {
        assert_eq!(how.fixes, counted.fixes, "{input:?}");
        let mut out = Vec::new();
        super::streamed::write_streamed(input, options, how, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text.json, "{input:?}");
    }
}

fn rp(kind: RepairKind, path: &str) -> (RepairKind, String) {
    (kind, path.to_owned())
}

#[test]
fn valid_json_is_unchanged() {
    for text in [
        r#"{"a": [1, -2, 3.5, -0.0, 1e3, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}}"#,
        "[]",
        "{}",
        "\"x\"",
        " 12 ",
        "-0",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "[1E400]",
    ] {
        let expected: Result<Value, _> = serde_json::from_str(text);
        if let Ok(expected) = expected {
            assert_eq!(fix(text), (expected, vec![]), "{text}");
        }
    }
}

#[test]
fn valid_json_with_a_duplicate_key_is_serde_json_value_plus_a_record() {
    // Found by the fuzzer: serde_json keeps the last value at the first key's place, silently.
    let text = r#"{"a": [{"k": 1, "k": 2}], "b": 3, "a": []}"#;
    let expected: Value = serde_json::from_str(text).unwrap();
    assert_eq!(expected, json!({"a": [], "b": 3}));
    assert_eq!(
        fix(text),
        (
            expected,
            vec![rp(DuplicateKey, "/a/0/k"), rp(DuplicateKey, "/a")]
        )
    );
}

#[test]
fn a_key_repeated_many_times_keeps_its_first_place_and_last_value() {
    // The text sink keeps one entry for a repeated key's last value, however often it comes
    // back; the text must still be what the value is, in small objects (found by a scan)
    // and large ones (found by an index).
    let small = r#"{"a": 1, "a": 2, "b": 3, "a": 4, "a": 5, "b": 6, "a": [7]}"#;
    assert_eq!(value(small), json!({"a": [7], "b": 6}));
    assert_eq!(
        to_string(small, &RepairOptions::default()).unwrap().json,
        r#"{"a":[7],"b":6}"#
    );
    same_as_text(small, &RepairOptions::default());
    let mut large = String::from("{");
    for i in 0..40 {
        large.push_str(&format!(r#""k{}": {i}, "r": {i}, "#, i % 20));
    }
    large.push_str(r#""r": "end"}"#);
    let expected: Value = serde_json::from_str(&large).unwrap();
    assert_eq!(expected["r"], json!("end"));
    assert_eq!(expected["k3"], json!(23));
    assert_eq!(value(&large), expected);
    same_as_text(&large, &RepairOptions::default());
}

#[test]
fn noise_past_the_fix_budget_stops_where_the_budget_ran_out() {
    // `"` repeated: a missing comma, a missing colon and a repeated key every few bytes.
    let noise = format!("{{\"a\": {}", "\"".repeat(4_000));
    let e = parse(&noise, &RepairOptions::default()).unwrap_err();
    assert_eq!(
        e.message,
        "more fixes than any JSON document needs (over one per 4 bytes)"
    );
    // Not at the end: the budget of 64 + 4 006 / 4 fixes ran out at byte 2 580, and what
    // follows is not read.
    assert_eq!((e.offset, noise.len()), (2_580, 4_006));
    assert_eq!(
        to_string_counted(&noise, &RepairOptions::default()).unwrap_err(),
        e
    );
}

#[test]
fn a_long_key_above_many_fixes_is_over_the_pointer_budget() {
    // Each fix names its value by its whole pointer, and the record keeps each value's: two
    // mebibytes of key above 100 000 fixed items would have made 200 GB of pointers from a
    // 3 MB reply.
    let key = "k".repeat(2 << 20);
    let items: Vec<String> = (0..100_000).map(|i| format!("{{'a': {i}}}")).collect();
    let reply = format!("{{\"{key}\": [{}]}}", items.join(", "));
    let e = parse(&reply, &RepairOptions::default()).unwrap_err();
    let budget = (1 << 20) + 16 * reply.len();
    assert_eq!(
        e.message,
        format!(
            "the fixes' JSON pointers would hold over {budget} bytes beyond 8 per key (a \
             mebibyte and 16 per byte of the reply): a long key above many fixes"
        )
    );
    // Each fix's pointer is `/`, the key, `/i/a`: the key and its `/` beyond 8 bytes count
    // (`a` and the index are within their 8), and the budget runs out at item 27's key.
    let pointer = |_: usize| key.len() + 1 - 8;
    let over = (0..).find(|&n| (0..=n).map(pointer).sum::<usize>() > budget);
    assert_eq!(over, Some(27));
    // The parse stops at that item's closing brace, where the object's loop looks at the
    // budget.
    assert_eq!(e.offset, reply.find("{'a': 27}").map(|at| at + 8).unwrap());
    // Where only the count of fixes is kept, the same: every output of the parser fails
    // alike.
    assert_eq!(
        to_string_counted(&reply, &RepairOptions::default()).unwrap_err(),
        e
    );
    assert_eq!(to_string(&reply, &RepairOptions::default()).unwrap_err(), e);
    // A short key above as many fixes is well within it.
    let short = reply.replacen(&key, "k", 1);
    assert_eq!(
        parse(&short, &RepairOptions::default())
            .unwrap()
            .repairs
            .len(),
        100_000
    );
}

#[test]
fn integers_held_rounded_are_charged_their_pointers_while_the_budget_lasts() {
    // Under a 600 KB key, integers too large for 64 bits: each one a value holds rounded
    // names its pointer, as a fix does, while the pointer budget lasts (a mebibyte and 16
    // per byte of the reply); past it, the top level, at its exact offset. Never an error:
    // the text, which keeps their digits, would not fail there.
    let key = "k".repeat(600_000);
    let big = "123456789012345678901";
    let o = RepairOptions::default();
    let reply = format!("{{\"{key}\": [{}]}}", vec![big; 40].join(", "));
    let budget = (1 << 20) + 16 * reply.len();
    let within = (1..)
        .take_while(|&n| n * (key.len() + 1 - 8) <= budget)
        .count();
    assert_eq!(within, 17);
    let parsed = parse(&reply, &o).unwrap();
    let rounded: Vec<(usize, String)> = (parsed.repairs.rounded())
        .map(|r| (r.offset, r.path.to_owned()))
        .collect();
    let first = key.len() + 6;
    let expected: Vec<(usize, String)> = (0..40)
        .map(|i| {
            let path = if i < within {
                format!("/{key}/{i}")
            } else {
                String::new()
            };
            (first + i * (big.len() + 2), path)
        })
        .collect();
    // (Compared without printing: the pointers are 600 KB each.)
    assert!(rounded == expected);
    assert_eq!(parsed.repairs.len(), 0);
    // The text: the same, its spaces left out.
    assert_eq!(to_string(&reply, &o).unwrap().json.len(), reply.len() - 40);
    assert!(parse_borrowed(&reply, &o).unwrap().repairs == parsed.repairs);
}

#[test]
fn every_output_of_the_parser_meets_the_pointer_budget_alike() {
    // A key of 200 bytes at each of 127 levels, each in single quotes (a fix): the fixes'
    // pointers grow with the depth, 1.6 MB of them for a 26 KB reply. The counting output
    // keeps no pointer, but fails where the others do (the fuzzer found it reading on).
    let key = "k".repeat(200);
    let reply = format!("{}1{}", format!("{{'{key}': ").repeat(127), "}".repeat(127));
    let options = RepairOptions::default();
    let e = parse(&reply, &options).unwrap_err();
    assert!(
        e.message
            .starts_with("the fixes' JSON pointers would hold over"),
        "{e}"
    );
    assert_eq!(to_string_counted(&reply, &options).unwrap_err(), e);
    assert_eq!(to_string(&reply, &options).unwrap_err(), e);
    assert_eq!(parse_borrowed(&reply, &options).unwrap_err(), e);
    // Forty levels are within it.
    let reply = format!("{}1{}", format!("{{'{key}': ").repeat(40), "}".repeat(40));
    assert_eq!(parse(&reply, &options).unwrap().repairs.len(), 40);
    assert_eq!(to_string_counted(&reply, &options).unwrap().fixes, 40);
}

#[test]
fn quoted_keys_read_alike_whether_plain_or_not() {
    // A key in `"` or `'` with a plain body and a `:` right after it is read without the
    // string machinery; every other key goes through it. Both give the same text and fixes.
    let cases = [
        (r#"{"a ": 1}"#, json!({"a ": 1}), vec![]),
        (r#"{"a" : 1}"#, json!({"a": 1}), vec![]),
        (r#"{"a\"b": 1}"#, json!({"a\"b": 1}), vec![]),
        (r#"{"": 1}"#, json!({"": 1}), vec![]),
        (
            "{'a': 1, 'b c':2}",
            json!({"a": 1, "b c": 2}),
            vec![rp(QuoteStyle, "")],
        ),
        (
            "{'it's': 1}",
            json!({"it's": 1}),
            vec![rp(QuoteStyle, ""), rp(UnescapedQuote, "")],
        ),
        (r#"{"x":{"y":[2]}}"#, json!({"x": {"y": [2]}}), vec![]),
    ];
    for (text, value, repairs) in cases {
        assert_eq!(fix(text), (value, repairs), "{text}");
        same_as_text(text, &RepairOptions::default());
    }
}

#[test]
fn bare_keys_read_alike_whether_a_plain_word_or_not() {
    // A bare key of letters, digits and `_` with a `:` right after it is read at once; every
    // other bare key goes through the general reading. Both give the same text and fixes, at
    // the key's own offset.
    let cases = [
        ("{id: 1}", json!({"id": 1})),
        ("{id : 1}", json!({"id": 1})),
        ("{id\t:1}", json!({"id": 1})),
        ("{my-id: 1}", json!({"my-id": 1})),
        ("{a.b: 1}", json!({"a.b": 1})),
        ("{$id: 1}", json!({"$id": 1})),
        ("{été: 1}", json!({"été": 1})),
        ("{x_2:[1]}", json!({"x_2": [1]})),
        ("{k:}", json!({"k": null})),
    ];
    for (text, value) in cases {
        let parsed = parse(text, &RepairOptions::default()).unwrap();
        let first = parsed.repairs.get(0).unwrap();
        assert_eq!(
            (first.kind, first.offset, first.path),
            (UnquotedKey, 1, ""),
            "{text}"
        );
        assert_eq!(parsed.value, value, "{text}");
        same_as_text(text, &RepairOptions::default());
    }
    // Cut off in the key or before the value: the member is dropped, either way.
    assert_eq!(fix("{id"), (json!({}), vec![rp(Truncated, "")]));
    assert_eq!(
        fix("{id:"),
        (json!({}), vec![rp(UnquotedKey, ""), rp(Truncated, "")])
    );
    assert_eq!(fix("{\"id\":"), (json!({}), vec![rp(Truncated, "")]));
}

#[test]
fn plain_strings_read_at_once_keep_their_text_and_fixes() {
    // A value or item in `"` or `'` with a plain body and a `,`, `]` or `}` right after it
    // that plainly ends it is read at once; every other string goes through the general
    // reading. Each case below is read one way or the other, to the same result.
    let cases = [
        (r#"["a", "b"]"#, json!(["a", "b"]), vec![]),
        (
            "['a','b']",
            json!(["a", "b"]),
            vec![rp(QuoteStyle, "/0"), rp(QuoteStyle, "/1")],
        ),
        (
            r#"{"k": 'v', "n": "x"}"#,
            json!({"k": "v", "n": "x"}),
            vec![rp(QuoteStyle, "/k")],
        ),
        // Followed by a `:`: the first key of an object in an array.
        (
            r#"["a": 1]"#,
            json!([{"a": 1}]),
            vec![rp(KeyValueInArray, "/0")],
        ),
        // Followed by a space, a `+`, or a closer the text opened a bracket for.
        (r#"["a" ]"#, json!(["a"]), vec![]),
        (r#"["a"+"b"]"#, json!(["ab"]), vec![rp(Concatenation, "/0")]),
        (r#"{"k": "f(x"}"#, json!({"k": "f(x"}), vec![]),
        // A comma that no key follows, in a member: the quote is text.
        (
            r#"{"k": "a", b c"}"#,
            json!({"k": "a\", b c"}),
            vec![rp(UnescapedQuote, "/k")],
        ),
        // An empty body, a quote or an escape in it.
        (
            r#"["", "it's", "a\"b"]"#,
            json!(["", "it's", "a\"b"]),
            vec![],
        ),
    ];
    for (text, value, repairs) in cases {
        assert_eq!(fix(text), (value, repairs), "{text}");
    }
}

#[test]
fn negative_zero_and_big_integers_match_serde_json() {
    for text in [
        "-0",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551616",
    ] {
        let expected: Value = serde_json::from_str(text).unwrap();
        let got = value(text);
        assert_eq!(got, expected);
        assert_eq!(got.is_f64(), expected.is_f64(), "{text}");
    }
}

#[test]
fn commas() {
    assert_eq!(fix("[1, 2,]"), (json!([1, 2]), vec![rp(TrailingComma, "")]));
    assert_eq!(
        fix(r#"{"a": {"b": 1,},}"#),
        (
            json!({"a": {"b": 1}}),
            vec![rp(TrailingComma, "/a"), rp(TrailingComma, "")]
        )
    );
    assert_eq!(fix("[, 1]"), (json!([1]), vec![rp(ExtraComma, "")]));
    assert_eq!(fix("[1,, 2]"), (json!([1, 2]), vec![rp(ExtraComma, "")]));
    // Repeated fixes of one kind at one path are one record.
    assert_eq!(
        fix("[1,,,,,, 2,,, 3]"),
        (json!([1, 2, 3]), vec![rp(ExtraComma, "")])
    );
    assert_eq!(
        fix(r#"{, "a": 1}"#),
        (json!({"a": 1}), vec![rp(ExtraComma, "")])
    );
    // The same kind at the root, inside, and at the root again: three records.
    assert_eq!(
        fix("[,,[,,1],, 2]"),
        (
            json!([[1], 2]),
            vec![rp(ExtraComma, ""), rp(ExtraComma, "/0"), rp(ExtraComma, "")]
        )
    );
    assert_eq!(fix("[1 2]"), (json!([1, 2]), vec![rp(MissingComma, "")]));
    assert_eq!(
        fix(r#"["a" "b"]"#),
        (json!(["a", "b"]), vec![rp(MissingComma, "")])
    );
    assert_eq!(
        fix("{\"a\": 1\n\"b\": 2}"),
        (json!({"a": 1, "b": 2}), vec![rp(MissingComma, "")])
    );
    assert_eq!(
        fix("{\"a\": \"x\"\n \"b\": \"y\"}"),
        (json!({"a": "x", "b": "y"}), vec![rp(MissingComma, "")])
    );
    assert_eq!(
        fix("[{\"a\": 1} {\"a\": 2}]"),
        (json!([{"a": 1}, {"a": 2}]), vec![rp(MissingComma, "")])
    );
}

#[test]
fn colons_and_missing_values() {
    assert_eq!(
        fix(r#"{"a" 1}"#),
        (json!({"a": 1}), vec![rp(MissingColon, "")])
    );
    assert_eq!(
        fix(r#"{"a": , "b": 1}"#),
        (json!({"a": null, "b": 1}), vec![rp(MissingValue, "/a")])
    );
    assert_eq!(
        fix(r#"{"a", "b": 1}"#),
        (json!({"a": null, "b": 1}), vec![rp(MissingValue, "/a")])
    );
    // A bare word with neither colon nor value is no key.
    assert_eq!(
        fix(r#"{"a": 1, junk}"#),
        (json!({"a": 1}), vec![rp(StrayText, "")])
    );
    assert_eq!(
        fix(r#"{"a": 1, "a": 2}"#),
        (json!({"a": 2}), vec![rp(DuplicateKey, "/a")])
    );
}

#[test]
fn comments() {
    let text = "{\n  // the name\n  \"a\": 1, /* inline */ \"b\": [2 # two\n  ]\n}";
    assert_eq!(
        fix(text),
        (
            json!({"a": 1, "b": [2]}),
            // The two comments of the root, one after the other, are one record.
            vec![rp(Comment, ""), rp(Comment, "/b")]
        )
    );
    // Inside strings they are text; `#` glued to a word is a value, not a comment.
    assert_eq!(
        fix(r##"{"u": "http://x.y/*z*/", "c": "# no"}"##),
        (json!({"u": "http://x.y/*z*/", "c": "# no"}), vec![])
    );
    assert_eq!(
        fix(r#"{"color": #fff}"#),
        (json!({"color": "#fff"}), vec![rp(UnquotedValue, "/color")])
    );
    assert_eq!(kinds("[1 /* never closed"), [Comment, Truncated]);
}

#[test]
fn a_reasoning_block_between_tokens_is_left_out() {
    // Wherever a token may follow: after a colon, before a key, after a string value (whose
    // end is decided by what follows the block), between items, before a colon.
    assert_eq!(
        fix("{\"a\": <think>x</think> 1, <thinking>y\n</thinking> \"b\": [2, <reasoning>z</reasoning> 3]}"),
        (
            json!({"a": 1, "b": [2, 3]}),
            vec![rp(StrayText, ""), rp(StrayText, "/b")]
        )
    );
    assert_eq!(
        fix("{\"a\": \"x\" <think>so \"b\" is next</think>, \"b\" <Think a=\"1\">]</Think>: 2}"),
        (json!({"a": "x", "b": 2}), vec![rp(StrayText, "")])
    );
    // Brackets and quotes in the block are its text.
    assert_eq!(value("[1, <think>] or {\"a\": [</think> 2]"), json!([1, 2]));
    // A block never closed runs to the end: the reply was cut off in it.
    assert_eq!(
        fix("[1, <think>then 2"),
        (json!([1]), vec![rp(StrayText, ""), rp(Truncated, "")])
    );
    // Inside a string it is text; another tag is no block.
    assert_eq!(fix("[\"<think>\", 1]"), (json!(["<think>", 1]), vec![]));
    assert_eq!(
        fix("{\"a\": <b>x</b>}"),
        (json!({"a": "<b>x</b>"}), vec![rp(UnquotedValue, "/a")])
    );
}

#[test]
fn quote_styles() {
    assert_eq!(
        fix("{'a': 'b'}"),
        (
            json!({"a": "b"}),
            vec![rp(QuoteStyle, ""), rp(QuoteStyle, "/a")]
        )
    );
    assert_eq!(
        fix("{“a”: “b c”}"),
        (
            json!({"a": "b c"}),
            vec![rp(QuoteStyle, ""), rp(QuoteStyle, "/a")]
        )
    );
    assert_eq!(value("[‘x’, `y`]"), json!(["x", "y"]));
    assert_eq!(
        fix("{\"doc\": \"\"\"line \"one\"\nline two\"\"\"}"),
        (
            json!({"doc": "line \"one\"\nline two"}),
            vec![rp(QuoteStyle, "/doc"), rp(ControlCharacter, "/doc")]
        )
    );
    assert_eq!(value("['''a''']"), json!(["a"]));
    // An apostrophe inside a single-quoted string does not end it.
    assert_eq!(
        fix("{'q': 'It's fine', 'n': 1}"),
        (
            json!({"q": "It's fine", "n": 1}),
            vec![
                rp(QuoteStyle, ""),
                rp(QuoteStyle, "/q"),
                rp(UnescapedQuote, "/q"),
                rp(QuoteStyle, "")
            ]
        )
    );
    assert_eq!(value(r"['It\'s']"), json!(["It's"]));
}

#[test]
fn unquoted_keys_and_values() {
    assert_eq!(
        fix("{name: Ada Lovelace, born: 1815}"),
        (
            json!({"name": "Ada Lovelace", "born": 1815}),
            vec![
                rp(UnquotedKey, ""),
                rp(UnquotedValue, "/name"),
                rp(UnquotedKey, "")
            ]
        )
    );
    assert_eq!(
        value(r#"{"colors": red, green, "n": 1}"#),
        json!({"colors": "red, green", "n": 1})
    );
    assert_eq!(value("{first name: x}"), json!({"first name": "x"}));
    assert_eq!(value("[yes, no]"), json!(["yes", "no"]));
    assert_eq!(
        value("{\"a\": hello\n\"b\": 2}"),
        json!({"a": "hello", "b": 2})
    );
    assert_eq!(value("{$id: 1, _x: 2}"), json!({"$id": 1, "_x": 2}));
}

#[test]
fn literals() {
    assert_eq!(
        fix("{'a': True, 'b': False, 'c': None, 'd': undefined}"),
        (
            json!({"a": true, "b": false, "c": null, "d": null}),
            vec![
                rp(QuoteStyle, ""),
                rp(Literal, "/a"),
                rp(QuoteStyle, ""),
                rp(Literal, "/b"),
                rp(QuoteStyle, ""),
                rp(Literal, "/c"),
                rp(QuoteStyle, ""),
                rp(Literal, "/d"),
            ]
        )
    );
    assert_eq!(
        fix("[NaN, Infinity, -Infinity, 1e999]"),
        (
            json!([null, null, null, null]),
            vec![
                rp(NonFinite, "/0"),
                rp(NonFinite, "/1"),
                rp(NonFinite, "/2"),
                rp(NonFinite, "/3")
            ]
        )
    );
    assert_eq!(fix("None"), (Value::Null, vec![rp(Literal, "")]));
    // A literal at the start of a longer word is a word.
    assert_eq!(value("{\"a\": trueish}"), json!({"a": "trueish"}));
}

#[test]
fn numbers() {
    assert_eq!(fix("[+1]"), (json!([1]), vec![rp(NumberFormat, "/0")]));
    assert_eq!(fix("[.5]"), (json!([0.5]), vec![rp(NumberFormat, "/0")]));
    assert_eq!(fix("[-.5]"), (json!([-0.5]), vec![rp(NumberFormat, "/0")]));
    assert_eq!(fix("[5.]"), (json!([5.0]), vec![rp(NumberFormat, "/0")]));
    // Leading zeros make a code, not a number: kept as written.
    assert_eq!(
        fix("[007]"),
        (json!(["007"]), vec![rp(UnquotedValue, "/0")])
    );
    assert_eq!(
        value("{\"zip\": 02134, \"v\": -05}"),
        json!({"zip": "02134", "v": "-05"})
    );
    // Digit separators, an exponent with no digits.
    assert_eq!(
        fix("[82_461_110, -1_0.2_5]"),
        (
            json!([82461110, -10.25]),
            vec![rp(NumberFormat, "/0"), rp(NumberFormat, "/1")]
        )
    );
    assert_eq!(value("[1_a]"), json!(["1_a"]));
    // Thousands separators in a member's value, where a `,` and digits cannot start a key.
    assert_eq!(
        fix("{\"price\": -1,250,000.75,\n \"n\": 3,141}"),
        (
            json!({"price": -1250000.75, "n": 3141}),
            vec![rp(NumberFormat, "/price"), rp(NumberFormat, "/n")]
        )
    );
    // In an array they are separate numbers; groups that are not three digits, or a `:`
    // after them (a numeric key), are no separators.
    assert_eq!(fix("[1,250]"), (json!([1, 250]), vec![]));
    assert_eq!(value("{\"a\": 1,25}"), json!({"a": 1}));
    assert_eq!(value("{\"a\": 1,2500}"), json!({"a": 1}));
    assert_eq!(value("{\"a\": 1,250: 2}"), json!({"a": 1, "250": 2}));
    assert_eq!(value("{\"a\": 0,250}"), json!({"a": 0}));
    assert_eq!(fix("[2e+]"), (json!([2]), vec![rp(NumberFormat, "/0")]));
    assert_eq!(value("{\"k\": 1e }"), json!({"k": 1}));
    assert_eq!(
        fix(r#"{"id": 12abc}"#),
        (json!({"id": "12abc"}), vec![rp(UnquotedValue, "/id")])
    );
    assert_eq!(value("{\"d\": 2024-01-05}"), json!({"d": "2024-01-05"}));
    assert_eq!(value("{\"t\": 12:30}"), json!({"t": "12:30"}));
    assert_eq!(
        value("{\"q\": 5 apples, \"n\": 1}"),
        json!({"q": "5 apples", "n": 1})
    );
    assert_eq!(value("{\"q\": 5 n: 1}"), json!({"q": 5, "n": 1}));
    assert_eq!(value("[-]"), json!(["-"]));
}

#[test]
fn plain_integers_read_at_once_keep_their_value_and_text() {
    // Up to 19 digits before a `,`, `]` or `}` are read at once; longer ones, and any other
    // integer, by the general reading. The value is serde_json's either way.
    assert_eq!(
        fix("[0,7, 10,9999999999999999999]"),
        (json!([0, 7, 10, 9_999_999_999_999_999_999u64]), vec![])
    );
    assert_eq!(
        to_string("[0,7,9999999999999999999]", &RepairOptions::default())
            .unwrap()
            .json,
        "[0,7,9999999999999999999]"
    );
    assert_eq!(
        value("[18446744073709551615, 18446744073709551616]"),
        json!([u64::MAX, 18_446_744_073_709_551_616.0])
    );
    assert_eq!(fix(r#"{"a":0,"b":12}"#), (json!({"a": 0, "b": 12}), vec![]));
    // A comma and a digit after a member's number may be a thousands group: not read at once.
    assert_eq!(
        fix(r#"{"a": 12,345}"#),
        (json!({"a": 12345}), vec![rp(NumberFormat, "/a")])
    );
    assert_eq!(fix("[12,345]"), (json!([12, 345]), vec![]));
    assert_eq!(fix("[00]"), (json!(["00"]), vec![rp(UnquotedValue, "/0")]));
}

#[test]
fn escapes() {
    assert_eq!(
        fix(r#"{"a": "it\'s"}"#),
        (json!({"a": "it's"}), vec![rp(InvalidEscape, "/a")])
    );
    assert_eq!(
        fix(r#"{"path": "C:\xyz\Users"}"#),
        (
            json!({"path": "C:\\xyz\\Users"}),
            vec![rp(InvalidEscape, "/path")]
        )
    );
    assert_eq!(value(r#"["\u00e9\ud83d\ude00"]"#), json!(["é😀"]));
    assert_eq!(
        fix(r#"["\ud83d x"]"#),
        (json!(["\u{FFFD} x"]), vec![rp(InvalidEscape, "/0")])
    );
    assert_eq!(
        fix(r#"["\ude00"]"#),
        (json!(["\u{FFFD}"]), vec![rp(InvalidEscape, "/0")])
    );
    assert_eq!(
        fix(r#"["\uZZ"]"#),
        (json!(["\\uZZ"]), vec![rp(InvalidEscape, "/0")])
    );
    assert_eq!(
        fix("[\"a\tb\nc\"]"),
        (json!(["a\tb\nc"]), vec![rp(ControlCharacter, "/0")])
    );
}

#[test]
fn unescaped_inner_quotes() {
    assert_eq!(
        fix(r#"{"q": "She said "no" twice", "ok": true}"#),
        (
            json!({"q": "She said \"no\" twice", "ok": true}),
            vec![rp(UnescapedQuote, "/q")]
        )
    );
    assert_eq!(
        value(r#"{"q": "He wrote: "hello", and left", "n": 1}"#),
        json!({"q": "He wrote: \"hello\", and left", "n": 1})
    );
    assert_eq!(
        value(r#"{"q": "a "quoted" end"}"#),
        json!({"q": "a \"quoted\" end"})
    );
    assert_eq!(
        value(r#"["say "hi" now", "x"]"#),
        json!(["say \"hi\" now", "x"])
    );
}

#[test]
fn truncation() {
    let cases = [
        (r#"{"a": "hel"#, json!({"a": "hel"}), "/a"),
        (r#"{"a": 1, "b"#, json!({"a": 1}), ""),
        (r#"{"a": 1, "b":"#, json!({"a": 1}), ""),
        (r#"{"a": 1, "b": "#, json!({"a": 1}), ""),
        (r#"{"a": tru"#, json!({"a": true}), "/a"),
        (r#"{"a": nul"#, json!({"a": null}), "/a"),
        (r#"{"a": f"#, json!({"a": false}), "/a"),
        // Cut off in a number: its last digits may be what was cut, said at the number.
        (r#"{"a": 12"#, json!({"a": 12}), "/a"),
        (r#"{"a": 1."#, json!({"a": 1.0}), "/a"),
        (r#"[1, 2.5"#, json!([1, 2.5]), "/1"),
        // A number then a space is whole: the cut is the object's.
        (r#"{"a": 12 "#, json!({"a": 12}), ""),
        (r#"{"a": 1e"#, json!({"a": 1}), "/a"),
        (r#"{"a": -"#, json!({}), "/a"),
        (
            r#"{"a": [1, {"b": [2"#,
            json!({"a": [1, {"b": [2]}]}),
            "/a/1/b/0",
        ),
        // A backslash cut off from what it escaped is dropped with it.
        (r#"["x", "y\"#, json!(["x", "y"]), "/1"),
        // Cut off before its first character: no item yet.
        (r#"["\u00"#, json!([""]), "/0"),
        (r#"["x", ""#, json!(["x"]), "/1"),
        ("{", json!({}), ""),
        ("[", json!([]), ""),
        (r#"{"a": {"#, json!({"a": {}}), "/a"),
    ];
    for (text, expected, path) in cases {
        let (v, repairs) = fix(text);
        assert_eq!(v, expected, "{text}");
        let trunc: Vec<_> = repairs.iter().filter(|(k, _)| *k == Truncated).collect();
        assert_eq!(trunc, [&rp(Truncated, path)], "{text}");
    }
    // A number alone is the whole reply, not one cut off.
    assert_eq!(fix("12"), (json!(12), vec![]));
    // `1.` is a repaired number as well as a truncated one.
    assert_eq!(kinds(r#"{"a": 1."#), [NumberFormat, Truncated]);
}

#[test]
fn closers() {
    assert_eq!(
        fix(r#"[{"a": 1}]]"#),
        (json!([{"a": 1}]), vec![rp(ExtraCloser, "")])
    );
    assert_eq!(
        fix(r#"{"a": [1, 2}"#),
        (json!({"a": [1, 2]}), vec![rp(MismatchedCloser, "/a")])
    );
    assert_eq!(
        fix(r#"[{"a": 1]"#),
        (json!([{"a": 1}]), vec![rp(MismatchedCloser, "/0")])
    );
    assert_eq!(
        fix(r#"{"a": 1}}"#),
        (json!({"a": 1}), vec![rp(ExtraCloser, "")])
    );
    assert_eq!(fix("[1]}"), (json!([1]), vec![rp(ExtraCloser, "")]));
    assert_eq!(
        fix("{\"a\": 1]}"),
        (json!({"a": 1}), vec![rp(ExtraCloser, "")])
    );
    // A `]` after an object in an array, and then another object: the `]` was the
    // object's closer, written wrong, and the array goes on.
    assert_eq!(
        fix(r#"[{"x": 1], {"x": 2}]"#),
        (
            json!([{"x": 1}, {"x": 2}]),
            vec![rp(MismatchedCloser, "/0")]
        )
    );
}

#[test]
fn an_array_left_open_before_its_objects_next_key() {
    // Items, then a key whose member ends with the object's `}`: the array's `]` is missing.
    assert_eq!(
        fix(r#"{"ids": [4, 5, "total": 2}"#),
        (
            json!({"ids": [4, 5], "total": 2}),
            vec![rp(MissingCloser, "/ids")]
        )
    );
    assert_eq!(
        fix(r#"{"tags": ["a", "b" "more": {"n": [1]}, "z": 0}"#),
        (
            json!({"tags": ["a", "b"], "more": {"n": [1]}, "z": 0}),
            vec![rp(MissingCloser, "/tags"), rp(MissingComma, "")]
        )
    );
    // Where the array's own `]` comes first, the key starts an object in it; so after an
    // object item (its braces left out of the next), and in an array no object holds.
    assert_eq!(
        fix(r#"{"ids": [4, "total": 2]}"#),
        (
            json!({"ids": [4, {"total": 2}]}),
            vec![rp(KeyValueInArray, "/ids/1")]
        )
    );
    assert_eq!(
        value(r#"{"p": [{"n": "a"}, "n": "b"}]}"#),
        json!({"p": [{"n": "a"}, {"n": "b"}]})
    );
    assert_eq!(value(r#"[4, "total": 2}"#), json!([4, {"total": 2}]));
    // A member cut off, or longer than the look, leaves the key the array's.
    assert_eq!(
        value(r#"{"ids": [4, "total": 2"#),
        json!({"ids": [4, {"total": 2}]})
    );
    let long = format!(r#"{{"ids": [4, "t": "{}"}}"#, "x".repeat(300));
    assert!(value(&long)["ids"].as_array().is_some_and(|a| a.len() == 2));
}

#[test]
fn ellipses() {
    assert_eq!(fix("[1, 2, ...]"), (json!([1, 2]), vec![rp(Ellipsis, "")]));
    assert_eq!(fix("[1, …, 9]"), (json!([1, 9]), vec![rp(Ellipsis, "")]));
    assert_eq!(
        fix(r#"{"a": 1, ...}"#),
        (json!({"a": 1}), vec![rp(Ellipsis, "")])
    );
}

#[test]
fn several_top_level_values() {
    assert_eq!(
        fix("{\"a\": 1}\n{\"a\": 2,}\n"),
        (
            json!([{"a": 1}, {"a": 2}]),
            vec![rp(MultipleValues, ""), rp(TrailingComma, "/1")]
        )
    );
    assert_eq!(
        fix("{\"a\": 1,}{\"a\": 2}"),
        (
            json!([{"a": 1}, {"a": 2}]),
            vec![rp(TrailingComma, "/0"), rp(MultipleValues, "")]
        )
    );
    assert_eq!(value("[1], [2]"), json!([[1], [2]]));
}

#[test]
fn jsonp_wrappers() {
    assert_eq!(
        fix("callback({\"a\": 1});"),
        (json!({"a": 1}), vec![rp(Wrapper, "")])
    );
    assert_eq!(value("window.cb ( [1, 2] )"), json!([1, 2]));
}

#[test]
fn double_encoded_only_when_asked() {
    let text = r#""{\"a\": [1, 2,]}""#;
    assert_eq!(fix(text), (json!("{\"a\": [1, 2,]}"), vec![]));
    let parsed = parse(text, &RepairOptions::default().unwrap_double_encoded(true)).unwrap();
    same_as_text(text, &RepairOptions::default().unwrap_double_encoded(true));
    assert_eq!(parsed.value, json!({"a": [1, 2]}));
    let fixes: Vec<_> = parsed.repairs.iter().map(|r| (r.kind, r.path)).collect();
    assert_eq!(fixes, [(DoubleEncoded, ""), (TrailingComma, "/a")]);
    // The outer string's own fix (its quotes) comes first, at the root.
    let parsed = parse(
        r#"'{a: {"b": [1,]}}'"#,
        &RepairOptions::default().unwrap_double_encoded(true),
    )
    .unwrap();
    let fixes: Vec<_> = parsed.repairs.iter().map(|r| (r.kind, r.path)).collect();
    assert_eq!(
        fixes,
        [
            (QuoteStyle, ""),
            (DoubleEncoded, ""),
            (UnquotedKey, ""),
            (TrailingComma, "/a/b")
        ]
    );
}

#[test]
fn offsets_point_at_the_fix() {
    let parsed = parse("[1,]", &RepairOptions::default()).unwrap();
    assert_eq!(parsed.repairs.get(0).unwrap().offset, 2);
    let parsed = parse("{'a': 1", &RepairOptions::default()).unwrap();
    assert_eq!(
        parsed.repairs.iter().map(|r| r.offset).collect::<Vec<_>>(),
        [1, 7]
    );
}

#[test]
fn pointer_paths_escape_keys() {
    assert_eq!(
        fix(r#"{"a/b": {"c~d": [1,]}}"#).1,
        [rp(TrailingComma, "/a~1b/c~0d")]
    );
    assert_eq!(fix(r#"{"\u0041": [1,]}"#).1, [rp(TrailingComma, "/A")]);
}

#[test]
fn not_json_is_an_error() {
    assert_eq!(err(""), "no JSON value");
    assert_eq!(err("   "), "no JSON value");
    assert_eq!(err("Hello there"), "no JSON value");
    assert_eq!(
        err("{\"a\": 1} and some prose"),
        "unexpected text after the JSON value"
    );
    assert_eq!(err("{\"a\": 1, [2]}"), "expected a key");
}

#[test]
fn depth_limit() {
    let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
    let e = parse(&deep, &RepairOptions::default()).unwrap_err();
    assert!(e.depth_exceeded);
    let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert!(parse(&ok, &RepairOptions::default()).is_ok());
    let e = parse("[[[1]]]", &RepairOptions::default().max_depth(2)).unwrap_err();
    assert_eq!((e.depth_exceeded, e.offset), (true, 2));
}

#[test]
fn depth_cap_holds_in_a_small_stack() {
    // The cap, not the option, bounds recursion: a huge max_depth still cannot overflow.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let o = RepairOptions::default().max_depth(usize::MAX);
            // 512 levels: an array and an object per step.
            let text = "[{\"a\": ".repeat(256) + &"}]".repeat(256);
            let ok = parse(&text, &o).is_ok();
            let deep = "[".repeat(100_000);
            let e = parse(&deep, &o).unwrap_err();
            (ok, e.depth_exceeded)
        })
        .unwrap();
    assert_eq!(handle.join().unwrap(), (true, true));
}

/// The exact text `to_string` writes.
fn text(input: &str) -> String {
    to_string(input, &RepairOptions::default())
        .unwrap_or_else(|e| panic!("{input:?}: {e}"))
        .json
}

#[test]
fn text_output_is_compact_json() {
    assert_eq!(
        text("// x\n{name: 'Ada', \"q\": \"She said \"no\"\", tags: ['a',], ok: True, n: None,}"),
        r#"{"name":"Ada","q":"She said \"no\"","tags":["a"],"ok":true,"n":null}"#
    );
    assert_eq!(text("  [1, 2]  "), "[1,2]");
    assert_eq!(text("\"a\\u0062\\n\""), r#""ab\n""#);
    assert_eq!(text("[\"tab\there\"]"), r#"["tab\there"]"#);
    // Quotes kept inside other quotes are escaped (found by the text property).
    assert_eq!(
        text(r#"{"""a"b""": 'c"d', `e"f`: 1}"#),
        r#"{"a\"b":"c\"d","e\"f":1}"#
    );
}

#[test]
fn text_output_keeps_valid_numbers_as_written() {
    assert_eq!(
        text("[1.50, 1E5, -0, 123456789012345678901234567890, 1e999, 2.]"),
        "[1.50,1E5,-0,123456789012345678901234567890,null,2.0]"
    );
    assert_eq!(
        text("[+1, .5, -.5, 007, 1_000]"),
        "[1,0.5,-0.5,\"007\",1000]"
    );
    assert_eq!(text("{n: 5 apples}"), r#"{"n":"5 apples"}"#);
}

#[test]
fn text_output_resolves_repeated_keys_like_the_value() {
    // The last value, at the first key's position; in nested objects too.
    assert_eq!(
        text(r#"{"a": 1, "b": {"x": 1, "y": 2, "x": 3}, "a": [2], "c": 0}"#),
        r#"{"a":[2],"b":{"x":3,"y":2},"c":0}"#
    );
    // Keys compare by their decoded text.
    assert_eq!(text(r#"{"ab": 1, "a\u0062": 2}"#), r#"{"ab":2}"#);
    // Past 16 members repeated keys are found through a map.
    let members: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 20)).collect();
    let expected: Vec<String> = (0..20).map(|i| format!("\"k{i}\":{}", i + 20)).collect();
    assert_eq!(
        text(&format!("{{{}}}", members.join(", "))),
        format!("{{{}}}", expected.join(","))
    );
}

#[test]
fn a_large_object_resolves_repeated_keys_from_its_text() {
    // Past 16 members an object keeps no record of its members: a repeated key is found in
    // its index, and the object is rewritten from its text when it closes. Values holding
    // brackets, commas, colons and quotes in strings must be read again whole.
    let head: String = (0..18).map(|i| format!("\"m{i}\": {i}, ")).collect();
    let head_out: String = (0..18).map(|i| format!("\"m{i}\":{i},")).collect();
    let input = format!(
        r#"{{{head}"a\"b": {{"x": ["}}, ]", {{"y": "a\"b:"}}]}}, "n": [1, "]"], "m3": null, "a\"b": -2.5e3, "n": [[]], "z": "end"}}"#
    );
    assert_eq!(
        text(&input),
        format!(r#"{{{head_out}"a\"b":-2.5e3,"n":[[]],"z":"end"}}"#)
            .replace(r#""m3":3"#, r#""m3":null"#)
    );
    same_as_text(&input, &RepairOptions::default());
    // A member cut off at the end is dropped, and one keyed by an array joins the last
    // member's array, in a large object as in a small one.
    for tail in [r#""m0": 9, "cut": "#, r#""arr": [1], [2], "m0": [3]"#] {
        let input = format!("{{{head}{tail}");
        same_as_text(&input, &RepairOptions::default());
    }
    assert_eq!(
        text(&format!(r#"{{{head}"arr": [1], [2], "m0": [3]}}"#)),
        format!(r#"{{{head_out}"arr":[1,2]}}"#).replace(r#""m0":0"#, r#""m0":[3]"#)
    );
}

#[test]
fn text_output_drops_a_key_without_value_and_closes_truncation() {
    assert_eq!(text(r#"{"a": 1, "b": -"#), r#"{"a":1}"#);
    assert_eq!(text(r#"{"a": 1, "b": "#), r#"{"a":1}"#);
    assert_eq!(text(r#"[{"a": "tw"#), r#"[{"a":"tw"}]"#);
    assert_eq!(text(r#"{"a": 1}{"a": 2}"#), r#"[{"a":1},{"a":2}]"#);
    assert_eq!(text(r#"cb({"a": 1});"#), r#"{"a":1}"#);
}

#[test]
fn text_output_unwraps_double_encoding_when_asked() {
    let o = RepairOptions::default().unwrap_double_encoded(true);
    let t = to_string(r#""{\"a\": [1, 2,]}""#, &o).unwrap();
    assert_eq!(t.json, r#"{"a":[1,2]}"#);
    let kinds: Vec<_> = t.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [DoubleEncoded, TrailingComma]);
}

#[test]
fn a_run_of_one_fix_in_one_value_is_recorded_once() {
    assert_eq!(fix("[1,,,,2]").1, [rp(ExtraComma, "")]);
    assert_eq!(fix("[1 2 3]").1, [rp(MissingComma, "")]);
    // The same kind again after a fix elsewhere is recorded again.
    assert_eq!(
        fix("[1 True 3]").1,
        [
            rp(MissingComma, ""),
            rp(Literal, "/1"),
            rp(MissingComma, "")
        ]
    );
    // A key given twice is two values with one path: each one's fix is recorded.
    assert_eq!(
        fix(r#"{"a": 'x', "a": 'y'}"#),
        (
            json!({"a": "y"}),
            vec![
                rp(QuoteStyle, "/a"),
                rp(QuoteStyle, "/a"),
                rp(DuplicateKey, "/a")
            ]
        )
    );
}

#[test]
fn fixes_inside_the_first_of_several_values_are_under_zero() {
    assert_eq!(
        fix(r#"{"b": {"a": 1]}, 'c': [1,]}]{"d": 2}"#),
        (
            json!([{"b": {"a": 1}, "c": [1]}, {"d": 2}]),
            vec![
                rp(ExtraCloser, "/0/b"),
                rp(QuoteStyle, "/0"),
                rp(TrailingComma, "/0/c"),
                rp(ExtraCloser, ""),
                rp(MultipleValues, ""),
            ]
        )
    );
}

#[test]
fn a_comment_after_a_comma_does_not_hide_the_next_key() {
    assert_eq!(
        fix("{\"note\": \"x\", // why\n\"n\": 1}"),
        (json!({"note": "x", "n": 1}), vec![rp(Comment, "")])
    );
    assert_eq!(
        value("{\"a\": \"b\",/* inline */\"c\": \"d\"}"),
        json!({"a": "b", "c": "d"})
    );
    assert_eq!(
        value("[\"one\", /* two */ \"three\"]"),
        json!(["one", "three"])
    );
}

#[test]
fn a_missing_closing_quote_ends_the_string_where_the_next_token_begins() {
    // The quote that should have closed `fine` opens the next key instead.
    assert_eq!(
        fix(r#"{"mood": "fine, "score": 7}"#),
        (
            json!({"mood": "fine", "score": 7}),
            vec![rp(MissingQuote, "/mood")]
        )
    );
    // A comma inside the text stays; the one before the next key ends it.
    assert_eq!(
        value(r#"{"tags": "red, blue, "n": 2}"#),
        json!({"tags": "red, blue", "n": 2})
    );
    // No closing quote before the closer at the very end.
    assert_eq!(
        fix(r#"{"city": "Oslo}"#),
        (json!({"city": "Oslo"}), vec![rp(MissingQuote, "/city")])
    );
    assert_eq!(value("[\"left, right]"), json!(["left", "right"]));
    assert_eq!(value("[\n\"up,\n\"down\"\n]"), json!(["up", "down"]));
    // After `:` a quote cannot close the text before it: the string ended at its stop.
    assert_eq!(
        value(r#"{"a": "one, b: "two"}"#),
        json!({"a": "one", "b": "two"})
    );
    // A key whose closing quote is missing ends at its colon.
    assert_eq!(value(r#"{"name:"Ada"}"#), json!({"name": "Ada"}));
    // A line that opens an object with a key, after a string left open at the end of the
    // line before: the next item began there, and the object before it was left open too.
    assert_eq!(
        fix("[\n {\"k\": 1, \"s\": \"ab\n {\"k\": 2, \"s\": \"cd\"}\n]"),
        (
            json!([{"k": 1, "s": "ab"}, {"k": 2, "s": "cd"}]),
            vec![
                rp(MissingQuote, "/0/s"),
                rp(MissingCloser, "/0"),
                rp(MissingComma, "")
            ]
        )
    );
    // Inside an object, its members are the open object's (as `{"a": 1, {"b": 2}}`'s are).
    assert_eq!(
        value("{\"o\": {\"s\": \"ab\n {\"k\": 2}}}"),
        json!({"o": {"s": "ab", "k": 2}})
    );
    // A brace the text opened holds the line: it is text.
    assert_eq!(
        value("{\"code\": \"if x {\n {\"k\": 1}\n}\"}"),
        json!({"code": "if x {\n {\"k\": 1}\n}"})
    );
}

#[test]
fn quotes_inside_text_stay_text() {
    // `", and` is followed by words, not by the next item: kept in mind, and passed over
    // when a better end comes.
    assert_eq!(
        value(r#"["he said "go", then "stop"", "next"]"#),
        json!(["he said \"go\", then \"stop\"", "next"])
    );
    // A closer after a quote belongs to the text while the text holds its opener.
    assert_eq!(
        value(r#"{"size": "(5'11") tall", "ok": 1}"#),
        json!({"size": "(5'11\") tall", "ok": 1})
    );
    assert_eq!(
        value(r#""a list [1, 2"] here""#),
        json!("a list [1, 2\"] here")
    );
    // A truncated reply keeps what it had, but for whitespace at the very end.
    assert_eq!(value("{\"a\": \"b c\n"), json!({"a": "b c"}));
    // A `)` after a quote closes the text's `(`: JSON has no container it could close.
    assert_eq!(
        fix(r#"{"call": "f("x") }", "n": 1}"#),
        (
            json!({"call": "f(\"x\") }", "n": 1}),
            vec![rp(UnescapedQuote, "/call")]
        )
    );
    // A colon after a member's quote followed by words, then a quote that ends the member,
    // is text (`"code "E1": bad input"`).
    assert_eq!(
        fix(r#"{"err": "code "E1": bad input", "n": 1}"#),
        (
            json!({"err": "code \"E1\": bad input", "n": 1}),
            vec![rp(UnescapedQuote, "/err")]
        )
    );
    // So is a colon followed by a value and then a word, or by a value and a quote that
    // ends the member: a pair quoted in the text, not a key.
    assert_eq!(
        fix(r#"{"tip": "raise "retries": 3 when it flakes", "n": 1}"#),
        (
            json!({"tip": "raise \"retries\": 3 when it flakes", "n": 1}),
            vec![rp(UnescapedQuote, "/tip")]
        )
    );
    assert_eq!(
        value(r#"{"tip": "avoid "mode": "fast" in tests", "n": 1}"#),
        json!({"tip": "avoid \"mode\": \"fast\" in tests", "n": 1})
    );
    assert_eq!(
        value(r#"{"tip": "try "cache": false"}"#),
        json!({"tip": "try \"cache\": false"})
    );
    assert_eq!(
        value(r#"{"tip": "from "a": 1 to "a": 2", "n": 1}"#),
        json!({"tip": "from \"a\": 1 to \"a\": 2", "n": 1})
    );
    // A value the object goes on after is still a member's.
    assert_eq!(
        value(r#"{"a": "x", "b": 1, "c": 2}"#),
        json!({"a": "x", "b": 1, "c": 2})
    );
    assert_eq!(value(r#"{"a": "x, b": 1, "c": 2}"#)["c"], json!(2));
    // After a member's quote, a comma and an object: the object around it was left
    // unclosed before the next item, as with a number there.
    assert_eq!(
        fix(r#"[{"k": "a", {"k": "b"}]"#),
        (
            json!([{"k": "a"}, {"k": "b"}]),
            vec![rp(MissingCloser, "/0")]
        )
    );
}

#[test]
fn code_blocks_as_values() {
    let reply = "{\"lang\": \"ts\", \"code\": ```typescript\n    let x = {a: [1]};\n    f(x)\n```}";
    assert_eq!(
        value(reply),
        json!({"lang": "ts", "code": "let x = {a: [1]};\nf(x)"})
    );
    assert_eq!(
        value("{\"q\": \"\"\"\n  \"quoted\"\n\"\"\"}"),
        json!({"q": "\"quoted\""})
    );
    // Lines of only spaces are left empty, as a dedent leaves them.
    assert_eq!(
        value("{\"c\": ```\nf()\n  \ng()\n```}"),
        json!({"c": "f()\n\ng()"})
    );
    // Backslashes in a code block are code.
    assert_eq!(
        value("{\"c\": ```\nprint(\"a\\n\")\n```}"),
        json!({"c": "print(\"a\\n\")"})
    );
}

#[test]
fn a_line_break_before_a_closing_quote_on_its_own_line_is_layout() {
    assert_eq!(
        fix("{\"a\": \"\n  text\n  \", \"b\": 1}"),
        (
            json!({"a": "\n  text", "b": 1}),
            vec![rp(ControlCharacter, "/a"), rp(StrayText, "/a")]
        )
    );
    // Said where it is dropped; a raw line break that is only layout is not said kept.
    assert_eq!(
        fix("{\"a\": \"one \"two\"\n\", \"b\": 1}"),
        (
            json!({"a": "one \"two\"", "b": 1}),
            vec![rp(UnescapedQuote, "/a"), rp(StrayText, "/a")]
        )
    );
    // In a key too; an escaped line break is text.
    assert_eq!(value("{\"k\n\": 1}"), json!({"k": 1}));
    assert_eq!(
        value("{\"a\": \"x\\n\", \"b\": 'y'}"),
        json!({"a": "x\n", "b": "y"})
    );
}

#[test]
fn look_alikes_of_containers() {
    // Python tuples and sets; a value in parentheses is that value.
    assert_eq!(
        fix("(1, 'x')"),
        (json!([1, "x"]), vec![rp(Tuple, ""), rp(QuoteStyle, "/1")])
    );
    assert_eq!(
        value("{\"at\": (3, (4, 5)), \"one\": (7,), \"none\": ()}"),
        json!({"at": [3, [4, 5]], "one": [7], "none": []})
    );
    assert_eq!(value("[(\"x\")]"), json!(["x"]));
    assert_eq!(
        value("{\"note\": (see below)}"),
        json!({"note": "(see below)"})
    );
    // `()` with more text after it is the start of that text (an arrow function's type).
    assert_eq!(
        fix("{\"onClick\": () => void, \"n\": ()}"),
        (
            json!({"onClick": "() => void", "n": []}),
            vec![rp(UnquotedValue, "/onClick"), rp(Tuple, "/n")]
        )
    );
    assert_eq!(
        fix("{'red', 'blue'}"),
        (
            json!(["red", "blue"]),
            vec![rp(QuoteStyle, ""), rp(Set, ""), rp(QuoteStyle, "/1")]
        )
    );
    assert_eq!(value("{1, 2,}"), json!([1, 2]));
    // A lone key before real members is a key with no value, not a set.
    assert_eq!(value("{\"a\", \"b\": 1}"), json!({"a": null, "b": 1}));
    // `key: value` inside an array is an object the braces were left off.
    assert_eq!(
        fix("[\"k\": 1, \"m\": 2]"),
        (json!([{"k": 1, "m": 2}]), vec![rp(KeyValueInArray, "/0")])
    );
    assert_eq!(value("[\"k\": \"v\"}, 3]"), json!([{"k": "v"}, 3]));
}

#[test]
fn braces_missing_doubled_or_early() {
    // An object left unclosed before the next item of its array.
    assert_eq!(
        fix("[{\"n\": 1, {\"n\": 2}]"),
        (json!([{"n": 1}, {"n": 2}]), vec![rp(MissingCloser, "/0")])
    );
    assert_eq!(value("[{\"n\": 1 {\"n\": 2}]"), json!([{"n": 1}, {"n": 2}]));
    // Two braces with neither a key nor a closer after them are two objects left open.
    assert_eq!(value("[{{]"), json!([{}, {}]));
    assert_eq!(value("[{{"), json!([{}, {}]));
    // Template-style doubled braces, at the top and for each item of an array.
    assert_eq!(
        fix("{{\"a\": 1}}"),
        (json!({"a": 1}), vec![rp(StrayText, "")])
    );
    assert_eq!(
        fix("[{{\"x\": 1}}, {{\"x\": 2}}, {{}}]"),
        (
            json!([{"x": 1}, {"x": 2}, {}]),
            vec![
                rp(StrayText, "/0"),
                rp(StrayText, "/1"),
                rp(StrayText, "/2")
            ]
        )
    );
    assert_eq!(
        value("{\"rows\": [ { /* one */ {\"x\": 1} } ]}"),
        json!({"rows": [{"x": 1}]})
    );
    // One doubled opener, single closers: each object is still its own item.
    assert_eq!(
        fix("[{{\"x\": 1}, {\"x\": 2}]"),
        (
            json!([{"x": 1}, {"x": 2}]),
            vec![rp(StrayText, "/0"), rp(MissingCloser, "/0")]
        )
    );
    // A top-level object closed before its last members.
    assert_eq!(
        fix("{\"a\": 1}, \"b\": 2}"),
        (json!({"a": 1, "b": 2}), vec![rp(ExtraCloser, "")])
    );
    // A lone colon.
    assert_eq!(value("{:}"), json!({}));
}

#[test]
fn words_and_quotes_out_of_place() {
    // A word between members is skipped; a word before a value is its key.
    assert_eq!(
        fix("{\"a\": true, NOTE \"b\": 1}"),
        (json!({"a": true, "b": 1}), vec![rp(StrayText, "")])
    );
    assert_eq!(value("{a 'b'}"), json!({"a": "b"}));
    // Quotes missing at the start of a key or value.
    assert_eq!(
        value("{\"a\": \"x\", b\": \"y\"}"),
        json!({"a": "x", "b": "y"})
    );
    assert_eq!(
        value("{\"w\": word\", \"n\": 12\"}"),
        json!({"w": "word", "n": 12})
    );
    assert_eq!(value("[x\", \"y\"]"), json!(["x", "y"]));
    // Strings joined with `+`.
    assert_eq!(
        fix("{\"s\": \"ab\" + 'cd' /* more */ + \"e\"}"),
        (
            json!({"s": "abcde"}),
            vec![rp(Concatenation, "/s"), rp(QuoteStyle, "/s")]
        )
    );
}

#[test]
fn wrappers_and_odd_spaces() {
    // MongoDB shell values: the value inside.
    assert_eq!(
        fix("{\"_id\": ObjectId(\"5f1\"), \"n\": NumberLong(2)}"),
        (
            json!({"_id": "5f1", "n": 2}),
            vec![rp(Wrapper, "/_id"), rp(Wrapper, "/n")]
        )
    );
    // Words before parentheses that hold no value are text.
    assert_eq!(
        value("{\"f\": call(me, maybe)}"),
        json!({"f": "call(me, maybe)"})
    );
    // No-break and zero-width spaces between tokens are whitespace.
    assert_eq!(
        value("{\"a\":\u{a0}1,\u{200b}\"b\":\u{3000}2}"),
        json!({"a": 1, "b": 2})
    );
}

#[test]
fn regular_expressions_line_continuations_and_comments_after_numbers() {
    assert_eq!(
        fix("{\"re\": /^a+\\/b$/i, \"n\": 2/* two */,}"),
        (
            json!({"re": "/^a+\\/b$/i", "n": 2}),
            vec![
                rp(UnquotedValue, "/re"),
                rp(Comment, ""),
                rp(TrailingComma, "")
            ]
        )
    );
    assert_eq!(value("[/a b/, /c/]"), json!(["/a b/", "/c/"]));
    // A slash with no closing one on its line is text; so is a path, which goes on after its
    // second slash (it is not a regex followed by more values).
    assert_eq!(value("{\"route\": /\n}"), json!({"route": "/"}));
    assert_eq!(
        value("{route: /post/[id]\n, n: 1}"),
        json!({"route": "/post/[id]", "n": 1})
    );
    assert_eq!(value("{\"path\": /usr/bin}"), json!({"path": "/usr/bin"}));
    // A backslash before a line break continues the line, the break being the text.
    assert_eq!(value("[\"one \\\ntwo\"]"), json!(["one \ntwo"]));
    assert_eq!(value("[\"one \\\r\ntwo\"]"), json!(["one \r\ntwo"]));
}

#[test]
fn a_guess_that_leads_nowhere_is_read_again_without_it() {
    // At the end, `}` looks like where the key's closing quote went missing; what follows
    // cannot follow an object, so the key is read as cut off instead.
    assert_eq!(fix("{\":a}:"), (json!({}), vec![rp(Truncated, "")]));
    // The same guess where it fits.
    assert_eq!(
        fix("{\"key:value}"),
        (
            json!({"key": "value"}),
            vec![rp(MissingQuote, ""), rp(UnquotedValue, "/key")]
        )
    );
}

#[test]
fn doubled_quotes_and_words_after_a_string() {
    assert_eq!(
        value("{\"\"name\"\": \"\"Ada\"\", 'n': ''x''}"),
        json!({"name": "Ada", "n": "x"})
    );
    // A closed string, then a word of its own: the word is the next item, or a stray.
    assert_eq!(
        value("[\"one\" two\", \"three\"]"),
        json!(["one", "two", "three"])
    );
    assert_eq!(value("{\"a\": \"x\" JUNK }"), json!({"a": "x"}));
    // But a quote inside a sentence keeps it whole.
    assert_eq!(
        value("{\"a\": \"the \"best\" one\"}"),
        json!({"a": "the \"best\" one"})
    );
}

#[test]
fn empty_values_beside_the_document_add_nothing() {
    assert_eq!(
        fix("{\"a\": 1}, []"),
        (json!({"a": 1}), vec![rp(EmptyValue, "")])
    );
    assert_eq!(value("[]{\"a\": 1}"), json!({"a": 1}));
    assert_eq!(value("[]{}"), json!([]));
    // Empty values of the document's own kind, each a record of a list, are kept.
    assert_eq!(value("{}\n{}\n"), json!([{}, {}]));
    assert_eq!(value("{\"a\": 1}\n{\"a\": 2}"), json!([{"a": 1}, {"a": 2}]));
}

#[test]
fn a_hash_comment_on_one_line_ends_before_the_closers() {
    assert_eq!(
        value("{\"a\": {\"b\": 1 # note }, \"c\": 2}"),
        json!({"a": {"b": 1}, "c": 2})
    );
    assert_eq!(value("{\"a\": 1 // the rest }"), json!({"a": 1}));
}

#[test]
fn an_array_where_a_key_should_be_joins_the_array_before_it() {
    assert_eq!(
        fix("{\"a\": [1], [2, 'x'], \"b\": 3}"),
        (
            json!({"a": [1, 2, "x"], "b": 3}),
            vec![rp(SplitArray, ""), rp(QuoteStyle, "/a/2")]
        )
    );
    assert_eq!(value("{\"a\": [], [[1]], [2]}"), json!({"a": [[1], 2]}));
    // Not after an array: still no key.
    assert_eq!(err("{\"a\": 1, [2]}"), "expected a key");
    // Nor after an object whose last member held an array: that array closed with its
    // object, and the member before the `[` is `a`, an object.
    assert_eq!(err("{\"a\": {\"b\": [1]}, [2]}"), "expected a key");
    assert_eq!(err("{\"a\": {\"b\": [1}, [2]}"), "expected a key");
    assert_eq!(
        value("{\"a\": {\"b\": [1], [2]}}"),
        json!({"a": {"b": [1, 2]}})
    );
    // Nor in an object that has no member yet: the array before it belongs to another.
    assert_eq!(value("[{\"a\": [1]}, {[2]}]"), json!([{"a": [1]}, {}, [2]]));
}

#[test]
fn strings_cut_off_after_a_colon_or_before_closers() {
    // Total on a text that ends with a colon inside a string.
    assert_eq!(value("\"Note:"), json!("Note:"));
    assert_eq!(value("{\"say\": \"Note:"), json!({"say": "Note:"}));
    // A string still open when the input ends with closers ends before them.
    assert_eq!(
        fix("{\"q\": \"a} \"b\" c}"),
        (
            json!({"q": "a} \"b\" c"}),
            vec![rp(UnescapedQuote, "/q"), rp(MissingQuote, "/q")]
        )
    );
    // Nothing but an opening quote is no value.
    assert_eq!(err("\""), "no JSON value");
    assert_eq!(err("  \"  "), "no JSON value");
}

#[test]
fn an_object_where_a_key_should_be_gives_its_members() {
    assert_eq!(
        fix("{\"a\": 1, {\"b\": 2}, \"c\": 3}"),
        (json!({"a": 1, "b": 2, "c": 3}), vec![rp(StrayText, "")])
    );
    // Three braces in a row are no template.
    assert_eq!(err("{{{\"a\": 1}}}"), "expected a key");
}

/// Objects past the 16 members the text sink scans, with keys that repeat (some escaped),
/// values that hold brackets, commas and quotes in strings, and the reply cut anywhere: the
/// text means what the value sink builds, with the same fixes.
mod large_objects {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::same_as_text;
    use crate::repair::RepairOptions;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<i32>().prop_map(Value::from),
            "[a\\]\\[{},:\"\\\\ ]{0,4}".prop_map(Value::from),
        ];
        leaf.prop_recursive(2, 12, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec(("[ab\"]", inner), 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn text_means_the_value(
            members in proptest::collection::vec(("[a-k\"\\\\]{1,2}", value()), 10..60),
            cut in any::<proptest::sample::Index>(),
            whole in any::<bool>(),
        ) {
            let body: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("{}: {v}", Value::from(k.as_str())))
                .collect();
            let mut input = format!("{{{}}}", body.join(", "));
            if !whole {
                // Past the `{`: an empty reply holds no JSON value.
                let mut at = 1 + cut.index(input.len() - 1);
                while !input.is_char_boundary(at) {
                    at -= 1;
                }
                input.truncate(at);
            }
            same_as_text(&input, &RepairOptions::default());
        }
    }
}

#[test]
fn a_key_set_knows_each_key_once_whatever_its_escapes() {
    let mut set = super::sink::KeySet::default();
    let keys = [
        "a", "ab", "a\"b", "a\\", "a\\\"", "\u{1}", "é", "", "a\"", "b",
    ];
    for key in keys {
        assert!(set.insert(key), "{key:?} is new");
    }
    for key in keys {
        assert!(!set.insert(key), "{key:?} is known");
    }
    // Many keys: the table grows, and hashes are computed again from the text.
    for i in 0..10_000 {
        assert!(set.insert(&format!("k{i}\"")));
    }
    assert!((0..10_000).all(|i| !set.insert(&format!("k{i}\""))));
    assert!(!set.insert("a\"b"));
    assert!(set.insert("k10000\""));
}

#[test]
fn the_value_text_spells_numbers_as_serde_json_writes_the_value() {
    // `to_string` keeps valid numbers as written; `to_value_text` writes the number each
    // becomes, as `serde_json` writes the value `parse` builds.
    let input = "[1.50, 1E3, -0, -0.0, 1e400, 18446744073709551616, .5, 2e-7, 12]";
    let o = RepairOptions::default();
    assert_eq!(
        to_string(input, &o).unwrap().json,
        "[1.50,1E3,-0,-0.0,null,18446744073709551616,0.5,2e-7,12]"
    );
    let as_value = to_value_text(input, &o).unwrap();
    assert_eq!(
        as_value.json,
        "[1.5,1000.0,-0.0,-0.0,null,1.8446744073709552e+19,0.5,2e-7,12]"
    );
    assert_eq!(
        as_value.json,
        serde_json::to_string(&parse(input, &o).unwrap().value).unwrap()
    );
    same_as_text(input, &o);
}
