//! Integers too large for 64 bits: a `serde_json::Value` holds them as the nearest `f64`,
//! which can lose digits. Every path that builds a value says so with a `number_rounded`
//! warning at the integer's pointer, and ranks it as no change; the JSON text `repair_json`
//! writes keeps the digits.

use llmout::large::{from_llm_with_compiled, recover_json, Large};
use llmout::schema::Schema;
use llmout::{LlmOutput, Options, ValidationResult, Warning};
use serde_json::{json, Value};

/// Each warning as `kind@path`.
fn said(warnings: &[Warning]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| format!("{}@{}", w.kind.name(), w.path))
        .collect()
}

/// The value and warnings of a result read item by item, or whole.
fn large_result(large: Large<'_>) -> (Value, Vec<String>) {
    let r: ValidationResult<Value> = match large {
        Large::Whole(_) => panic!("read whole, not item by item"),
        Large::Items(items) | Large::Members(items) => items.to_result(),
    };
    assert!(r.error.is_none(), "{:?}", r.error);
    (r.value.unwrap(), said(&r.warnings))
}

// 123456789012345678901 is 1.2345678901234568e20 as an `f64`: digits lost.
const LOST: f64 = 123_456_789_012_345_680_000.0;

#[test]
fn valid_json_says_which_integers_lost_digits() {
    // 10^20 is an `f64` exactly; u64::MAX and i64::MIN are integers of 64 bits; 1e300 was
    // written as a float.
    let reply = r#"{"id": 123456789012345678901, "n": 100000000000000000000,
        "m": -9223372036854775809, "u": 18446744073709551615, "i": -9223372036854775808,
        "e": 1e300}"#;
    let r = llmout::repair_text(reply, &Options::default()).unwrap();
    assert_eq!(
        said(&r.warnings),
        ["number_rounded@/id", "number_rounded@/m"]
    );
    assert_eq!(
        r.warnings[0].message,
        "an integer too large for 64 bits, held as the nearest floating-point number: \
         some of its digits are lost"
    );
    assert_eq!(r.value["id"], LOST);
    assert_eq!(r.value["n"], 1e20);
    assert_eq!(r.value["m"], -9_223_372_036_854_775_808.0);
    assert_eq!(r.value["u"], u64::MAX);
    assert_eq!(r.value["i"], i64::MIN);
    assert_eq!(r.value["e"], 1e300);
    // The text keeps every digit, and nothing was changed.
    let text = llmout::repair_json(reply, &Options::default()).unwrap();
    assert_eq!(
        text.json,
        r#"{"id":123456789012345678901,"n":100000000000000000000,"m":-9223372036854775809,"u":18446744073709551615,"i":-9223372036854775808,"e":1e300}"#
    );
    assert_eq!(text.changes, 0);
}

#[test]
fn repaired_json_says_it_beside_the_fixes() {
    let options = Options::default();
    let r = llmout::repair_text("Here: {id: 123456789012345678901,}", &options).unwrap();
    // In the order they were met: the key, the integer, the trailing comma.
    assert_eq!(
        said(&r.warnings),
        ["repaired@", "number_rounded@/id", "repaired@"]
    );
    let text = llmout::repair_json("Here: {id: 123456789012345678901,}", &options).unwrap();
    assert_eq!(text.json, r#"{"id":123456789012345678901}"#);
    assert_eq!(text.changes, 2);
    // The first of several top-level values is `/0` of their array, the integer too.
    let r = llmout::repair_text("123456789012345678901 5", &options).unwrap();
    assert_eq!(r.value, json!([LOST, 5]));
    assert_eq!(said(&r.warnings), ["number_rounded@/0", "repaired@"]);
    // A document escaped as a whole: its integers' pointers are the decoded value's.
    let schema = json!({"type": "object"});
    let r = llmout::from_llm_with_schema(
        r#""{\"a\": [7, 123456789012345678901]}""#,
        &schema,
        &options,
    );
    assert_eq!(r.value, Some(json!({"a": [7, LOST]})));
    assert_eq!(said(&r.warnings), ["repaired@", "number_rounded@/a/1"]);
}

#[test]
fn a_rounded_integer_is_no_change_when_candidates_are_ranked() {
    // Two candidates, neither needing a fix: the last wins either way, in the value and in
    // the text alike.
    let options = Options::default();
    for (reply, id) in [
        (r#"A: {"id": 123456789012345678901} B: {"id": 2}"#, "2"),
        (
            r#"A: {"id": 2} B: {"id": 123456789012345678901}"#,
            "123456789012345678901",
        ),
    ] {
        let text = llmout::repair_json(reply, &options).unwrap();
        assert_eq!(text.json, format!("{{\"id\":{id}}}"), "{reply}");
        let r = llmout::repair_text(reply, &options).unwrap();
        let value: Value = serde_json::from_str(&text.json).unwrap();
        assert_eq!(r.value, value, "{reply}");
    }
}

#[test]
fn item_by_item_says_what_the_whole_value_says() {
    let options = Options::default();
    let rows = json!({"type": "array", "items": {"type": "object"}});
    let map = json!({"type": "object", "additionalProperties": {"type": "object"}});
    for (reply, schema, warnings) in [
        (
            r#"[{"id": 1}, {"id": 123456789012345678901}]"#,
            &rows,
            &["number_rounded@/1/id"][..],
        ),
        (
            r#"[{id: 1}, {"id": 123456789012345678901}]"#,
            &rows,
            &["repaired@/0", "number_rounded@/1/id"],
        ),
        (
            r#"{"rows": [{"id": -123456789012345678901}]}"#,
            &rows,
            &["number_rounded@/0/id", "reshaped@"],
        ),
        (
            r#"{"a": {"id": 5}, "b": {"id": 123456789012345678901}}"#,
            &map,
            &["number_rounded@/b/id"],
        ),
        // Said in the order they were met, fixes and integers alike, item by item as whole.
        (
            r#"{a: {"id": 123456789012345678901}, b: {'id': 5}}"#,
            &map,
            &["repaired@", "number_rounded@/a/id", "repaired@/b"],
        ),
    ] {
        let compiled = Schema::compile(schema).unwrap();
        let whole = llmout::from_llm_with_compiled(reply, &compiled, &options);
        assert_eq!(said(&whole.warnings), warnings, "{reply}");
        let (value, said_large) = large_result(from_llm_with_compiled(reply, &compiled, &options));
        assert_eq!(Some(value), whole.value, "{reply}");
        assert_eq!(said_large, warnings, "{reply}");
    }
    // JSON as it stands, recovered item by item: the same.
    let compiled = Schema::compile(&rows).unwrap();
    let json = r#"[{"id": 123456789012345678901}]"#;
    let whole = llmout::recover_with_schema(serde_json::from_str(json).unwrap(), &rows, &options);
    assert_eq!(whole.value, Some(json!([{"id": LOST}])));
    let Large::Whole(r) = recover_json(json, &compiled, &options) else {
        panic!("an array of one item with an integer held rounded is recovered whole")
    };
    assert_eq!(r.value, whole.value);
    assert_eq!(said(&r.warnings), ["number_rounded@/0/id"]);
}

/// Where the schema asks for a string, an integer held rounded is its digits as the reply
/// writes them (as an object or array is its text), and nothing was rounded: only the
/// coercion is said.
#[test]
fn a_string_schema_gets_the_digits_the_reply_wrote() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
    }});
    let kept = "the schema asks for a string: kept an integer as the reply writes it";
    // The reply, the value, what is said, and where the digits were kept.
    for (reply, value, warnings, digits) in [
        (
            r#"{"id": 123456789012345678901}"#,
            json!({"id": "123456789012345678901"}),
            &["coerced@/id"][..],
            &["/id"][..],
        ),
        // Fixes elsewhere, a key in another case, a wrapper taken off, a sign JSON lacks.
        (
            r#"{ID: -123456789012345678901,}"#,
            json!({"id": "-123456789012345678901"}),
            &["repaired@", "repaired@", "key_renamed@/id", "coerced@/id"],
            &["/id"],
        ),
        (
            r#"{"data": {"id": +123456789012345678901}}"#,
            json!({"id": "+123456789012345678901"}),
            &["reshaped@", "coerced@/id"],
            &["/id"],
        ),
        // Items, beside a float written as one (its text is the float's).
        (
            r#"{"tags": [99999999999999999999999, 1e21]}"#,
            json!({"tags": ["99999999999999999999999", "1e+21"]}),
            &["coerced@/tags/0", "coerced@/tags/1"],
            &["/tags/0"],
        ),
        // A key given twice: the last value's digits, and the key still said.
        (
            r#"{"id": 123456789012345678901, "id": 1234567890123456789012}"#,
            json!({"id": "1234567890123456789012"}),
            &["repaired@/id", "coerced@/id"],
            &["/id"],
        ),
        // Digits grouped by separators are not the number as written: the float's text,
        // and all said.
        (
            r#"{"id": 123_456_789_012_345_678_901}"#,
            json!({"id": "1.2345678901234568e+20"}),
            &["repaired@/id", "number_rounded@/id", "coerced@/id"],
            &[],
        ),
    ] {
        let r = llmout::from_llm_with_schema(reply, &schema, &Options::default());
        assert_eq!(r.value, Some(value), "{reply}");
        assert_eq!(said(&r.warnings), warnings, "{reply}");
        let kept_at: Vec<&str> = (r.warnings.iter())
            .filter(|w| w.message == kept)
            .map(|w| w.path.as_str())
            .collect();
        assert_eq!(kept_at, digits, "{reply}");
    }
    // Typed, from valid JSON (the fast path leaves for the lenient parser) or in prose.
    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    struct Account {
        id: String,
        n: u32,
    }
    for reply in [
        r#"{"id": 123456789012345678901, "n": 3}"#,
        r#"Here: {"id": 123456789012345678901, "n": 3}"#,
    ] {
        let r = Account::from_llm(reply);
        let account = Account {
            id: "123456789012345678901".into(),
            n: 3,
        };
        assert_eq!(r.value, Some(account), "{reply}");
        assert_eq!(said(&r.warnings), ["coerced@/id"], "{reply}");
    }
    // A string the schema constrains is checked as the float's text, which stays (left: the
    // check would need the digits before recovery has them).
    let pattern =
        json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}});
    let r = llmout::from_llm_with_schema(
        r#"{"id": 123456789012345678901}"#,
        &pattern,
        &Options::default(),
    );
    assert_eq!(r.value, None);
    assert_eq!(r.error.map(|e| e.path().to_owned()), Some("/id".to_owned()));
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
struct Row {
    id: f64,
    rest: Value,
}

#[test]
fn a_typed_value_says_it_whether_or_not_the_reply_needed_a_fix() {
    for (reply, fixes) in [
        (
            r#"{"id": 123456789012345678901, "rest": [-123456789012345678901]}"#,
            0,
        ),
        (
            r#"{id: 123456789012345678901, "rest": [-123456789012345678901]}"#,
            1,
        ),
    ] {
        let r = Row::from_llm(reply);
        assert_eq!(
            r.value,
            Some(Row {
                id: LOST,
                rest: json!([-LOST])
            })
        );
        let mut warnings = vec!["repaired@"; fixes];
        warnings.extend(["number_rounded@/id", "number_rounded@/rest/0"]);
        assert_eq!(said(&r.warnings), warnings, "{reply}");
    }
    // Within 64 bits, or written as a float: nothing to say.
    let r = Row::from_llm(r#"{"id": 1.2345678901234568e20, "rest": [18446744073709551615]}"#);
    assert_eq!(r.value.map(|v| v.id), Some(LOST));
    assert_eq!(r.warnings, []);
}

/// Read item by item, an item that keeps part of itself as the reply writes it (an integer
/// held rounded, an object or array, where a string is wanted) is what the whole value
/// gives: the reply's own text there, the fixes inside it unsaid, the others said (the
/// parser's first, as ever). Nothing is read whole.
#[test]
fn item_by_item_keeps_what_the_reply_writes_as_the_whole_value_does() {
    let options = Options::default();
    let records = json!({"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "string"},
        "meta": {"type": "string"},
    }}});
    let wrapped = json!({"type": "object", "properties": {"rows": records.clone()}});
    let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    for (reply, schema, value, warnings) in [
        // Digits, beside a fix before the item and one inside another member.
        (
            r#"[{"id": 1}, {id: 123456789012345678901, "meta": "m"}]"#,
            &records,
            json!([{"id": "1"}, {"id": "123456789012345678901", "meta": "m"}]),
            &["repaired@/1", "coerced@/0/id", "coerced@/1/id"][..],
        ),
        // An object as its text: the fixes inside it go (single quotes, a trailing comma),
        // the one outside it stays.
        (
            r#"[{"id": "a", "meta": {'k': [1, 2,],}}, {"id": "b", meta: [true, 1]}]"#,
            &records,
            json!([
                {"id": "a", "meta": "{'k': [1, 2,],}"},
                {"id": "b", "meta": "[true, 1]"},
            ]),
            &["repaired@/1", "coerced@/0/meta", "coerced@/1/meta"],
        ),
        // An item that is itself such an integer, between fixes (its record comes with it).
        (
            r#"["a", 98765432109876543210987, b]"#,
            &strings,
            json!(["a", "98765432109876543210987", "b"]),
            &["repaired@/2", "coerced@/1"],
        ),
        (
            r#"["a" "b" 98765432109876543210987]"#,
            &strings,
            json!(["a", "b", "98765432109876543210987"]),
            &["repaired@", "coerced@/2"],
        ),
        // The items of a member, a key in another case.
        (
            r#"{"Rows": [{"ID": 98765432109876543210987}]}"#,
            &wrapped,
            json!({"rows": [{"id": "98765432109876543210987"}]}),
            &[
                "key_renamed@/rows",
                "key_renamed@/rows/0/id",
                "coerced@/rows/0/id",
            ],
        ),
        // An object's members, each its own item.
        (
            r#"{"a": 123456789012345678901, "b": {x: 1}}"#,
            &map,
            json!({"a": "123456789012345678901", "b": "{x: 1}"}),
            &["coerced@/a", "coerced@/b"],
        ),
    ] {
        let compiled = Schema::compile(schema).unwrap();
        let whole = llmout::from_llm_with_compiled(reply, &compiled, &options);
        assert_eq!(whole.value, Some(value), "{reply}");
        assert_eq!(said(&whole.warnings), warnings, "{reply}");
        let (value, said_large) = large_result(from_llm_with_compiled(reply, &compiled, &options));
        assert_eq!(Some(value), whole.value, "{reply}");
        assert_eq!(said_large, warnings, "{reply}");
    }
}

/// Recovery alone (`recover_json`, for JSON text in hand) gives an object wanted as a string
/// as JSON text, as `recover_with_schema` does: item by item, the same.
#[test]
fn recovery_alone_item_by_item_writes_an_object_as_json_text() {
    let options = Options::default();
    let schema = json!({"type": "array", "items": {"type": "object", "properties": {
        "meta": {"type": "string"},
    }}});
    let json = r#"[{"meta": {"k": [1, 2]}}, {"meta": "m"}]"#;
    let whole = llmout::recover_with_schema(serde_json::from_str(json).unwrap(), &schema, &options);
    assert_eq!(
        whole.value,
        Some(json!([{"meta": r#"{"k":[1,2]}"#}, {"meta": "m"}]))
    );
    let compiled = Schema::compile(&schema).unwrap();
    let (value, warnings) = large_result(recover_json(json, &compiled, &options));
    assert_eq!(Some(value), whole.value);
    assert_eq!(warnings, said(&whole.warnings));
    assert_eq!(warnings, ["coerced@/0/meta"]);
}
