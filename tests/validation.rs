//! Validation beyond types (issue 21): every constraint a schema states is checked on the
//! recovered value, violations are errors listing all of them, and nothing is changed to fit.

use llmout::{from_llm_with_schema, ErrorKind, LlmOutput, Options, ValidationResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

fn parse(reply: &str, schema: &Value) -> ValidationResult<Value> {
    from_llm_with_schema(reply, schema, &Options::default())
}

/// The violations of a failed result: (path, keyword, message).
fn violations<T>(r: &ValidationResult<T>) -> Vec<(String, String, String)> {
    let e = r.error.as_ref().expect("an error");
    assert_eq!(e.kind(), ErrorKind::Invalid, "{e}");
    e.violations()
        .iter()
        .map(|v| {
            (
                v.path().to_owned(),
                v.keyword().to_owned(),
                v.message().to_owned(),
            )
        })
        .collect()
}

fn one(path: &str, keyword: &str, message: &str) -> Vec<(String, String, String)> {
    vec![(path.to_owned(), keyword.to_owned(), message.to_owned())]
}

#[test]
fn a_string_that_breaks_its_pattern_is_an_error() {
    let schema = json!({"type": "string", "pattern": "^a+$"});
    let r = parse("\"bbb\"", &schema);
    assert_eq!(r.value, None);
    assert_eq!(
        r.error.as_ref().unwrap().to_string(),
        "expected a string matching the pattern ^a+$ (pattern), found \"bbb\""
    );
    assert_eq!(
        violations(&r),
        one(
            "",
            "pattern",
            "The value is \"bbb\", which does not match the pattern ^a+$"
        )
    );
    assert_eq!(parse("\"aaa\"", &schema).value, Some(json!("aaa")));
    // Plain text taken as the string is checked too.
    assert_eq!(
        parse("bbb", &schema).error.unwrap().kind(),
        ErrorKind::Invalid
    );
    assert_eq!(parse("aa", &schema).value, Some(json!("aa")));
}

#[test]
fn a_pattern_is_searched_for_unless_anchored() {
    let schema = json!({"type": "string", "pattern": "[0-9]"});
    assert_eq!(parse("\"ab3c\"", &schema).value, Some(json!("ab3c")));
    assert_eq!(
        violations(&parse("\"abc\"", &schema)),
        one(
            "",
            "pattern",
            "The value is \"abc\", which does not match the pattern [0-9]"
        )
    );
}

/// A `pattern` in a `$defs` item reached through `anyOf` is checked where the item is used.
#[test]
fn a_pattern_behind_a_ref_in_a_union_is_checked() {
    let schema = json!({
        "$defs": {"Item": {
            "type": "object",
            "properties": {"name": {"type": "string", "pattern": "^example$"}},
            "required": ["name"]
        }},
        "type": "object",
        "properties": {"value": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Item"}}, {"type": "null"}]}},
        "required": ["value"]
    });
    let ok = parse("{\"value\": [{\"name\": \"example\"}],}", &schema);
    assert_eq!(ok.value, Some(json!({"value": [{"name": "example"}]})));
    let r = parse(
        "{\"value\": [{\"name\": \"example\"}, {\"name\": \"invalid\"}]}",
        &schema,
    );
    assert_eq!(
        violations(&r),
        one(
            "/value/1/name",
            "pattern",
            "`value/1/name` is \"invalid\", which does not match the pattern ^example$"
        )
    );
}

/// A union takes the branch whose pattern the value meets.
#[test]
fn a_union_chooses_the_branch_the_value_meets() {
    let schema = json!({"anyOf": [
        {"type": "string", "pattern": "^a"},
        {"type": "string", "pattern": "^b"}
    ]});
    assert_eq!(parse("\"bcd\"", &schema).value, Some(json!("bcd")));
    assert_eq!(
        violations(&parse("\"cde\"", &schema)),
        one(
            "",
            "pattern",
            "The value is \"cde\", which does not match the pattern ^a"
        )
    );
    // A pattern beside `anyOf` applies to every branch.
    let schema = json!({"pattern": "^[0-9]+$", "anyOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(parse("\"123\"", &schema).value, Some(json!("123")));
    assert_eq!(parse("45", &schema).value, Some(json!(45)));
    assert_eq!(
        violations(&parse("\"none\"", &schema)),
        one(
            "",
            "pattern",
            "The value is \"none\", which does not match the pattern ^[0-9]+$"
        )
    );
    // "12a" breaks the pattern as a string, and reads as the integer 12 (a coercion with a
    // warning), which the pattern does not constrain: the branch that fits wins.
    let r = parse("\"12a\"", &schema);
    assert_eq!(r.value, Some(json!(12)));
    assert_eq!(r.warnings[0].message, "read \"12a\" as the integer 12");
}

/// A value coerced to a string is checked as the string it became.
#[test]
fn coerced_and_filled_in_strings_are_checked() {
    let schema = json!({
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[0-9]{3}$"}},
        "required": ["code"]
    });
    let r = parse("{\"code\": 404}", &schema);
    assert_eq!(r.value, Some(json!({"code": "404"})));
    assert_eq!(
        violations(&parse("{\"code\": 4040}", &schema)),
        one(
            "/code",
            "pattern",
            "`code` is \"4040\", which does not match the pattern ^[0-9]{3}$"
        )
    );
    // A missing field is not made up to fit: its empty value breaks the pattern.
    assert_eq!(
        violations(&parse("{\"other\": 1, \"Code\": null}", &schema)),
        one(
            "/code",
            "pattern",
            "`code` is \"\", which does not match the pattern ^[0-9]{3}$"
        )
    );
}

#[test]
fn pattern_properties_recover_matching_keys() {
    let schema = json!({"type": "object", "patternProperties": {"^x": {"type": "integer"}, "1$": {"type": "integer"}}});
    let r = parse("{\"x1\": \"2\"}", &schema);
    assert_eq!(r.value, Some(json!({"x1": 2})));
    let what: Vec<(&str, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind.name(), w.path.as_str()))
        .collect();
    assert_eq!(what, [("coerced", "/x1")]);
    // Keys that match no pattern are additional properties: kept unless forbidden.
    assert_eq!(
        parse("{\"x1\": 1, \"y\": \"z\"}", &schema).value,
        Some(json!({"x1": 1, "y": "z"}))
    );
    let closed = json!({
        "type": "object",
        "properties": {"userId": {"type": "string"}},
        "patternProperties": {"^user_": {"type": "integer"}},
        "additionalProperties": false
    });
    let r = parse(
        "{\"userId\": \"a\", \"user_id\": \"7\", \"other\": 1}",
        &closed,
    );
    // `user_id` matches the pattern: kept as written, not renamed to `userId`.
    assert_eq!(r.value, Some(json!({"userId": "a", "user_id": 7})));
    let what: Vec<(&str, &str)> = r
        .warnings
        .iter()
        .map(|w| (w.kind.name(), w.path.as_str()))
        .collect();
    assert_eq!(
        what,
        [("unknown_key_dropped", "/other"), ("coerced", "/user_id")]
    );
    let r = parse("{\"userId\": \"a\", \"user_x\": \"seven\"}", &closed);
    assert_eq!(
        r.error.unwrap().to_string(),
        "at /user_x: expected an integer, found \"seven\""
    );
}

#[test]
fn pattern_properties_values_are_checked() {
    let schema = json!({"type": "object", "patternProperties": {"^id_": {"type": "string", "pattern": "^[a-f0-9]+$"}}});
    assert_eq!(
        parse("{\"id_a\": \"beef\"}", &schema).value,
        Some(json!({"id_a": "beef"}))
    );
    assert_eq!(
        violations(&parse("{\"id_a\": \"beef\", \"id_b\": \"pork\"}", &schema)),
        one(
            "/id_b",
            "pattern",
            "`id_b` is \"pork\", which does not match the pattern ^[a-f0-9]+$"
        )
    );
}

/// A pattern llmout cannot run is an error in the schema, at its pointer; never a panic, and
/// never a pattern skipped.
#[test]
fn a_pattern_that_cannot_run_is_a_schema_error() {
    for (schema, path) in [
        (
            json!({"properties": {"a": {"type": "string", "pattern": "^(?!x)"}}}),
            "/properties/a/pattern",
        ),
        (
            json!({"patternProperties": {"(a)\\1": {}}}),
            "/patternProperties/(a)\\1",
        ),
        (
            json!({"$defs": {"T": {"pattern": "["}}, "$ref": "#/$defs/T"}),
            "/$defs/T/pattern",
        ),
    ] {
        let e = llmout::schema::validate(&schema).unwrap_err();
        assert_eq!((e.kind(), e.path()), (ErrorKind::InvalidSchema, path));
        let r = parse("{}", &schema);
        assert_eq!(r.error.unwrap(), e);
    }
    assert_eq!(
        llmout::schema::validate(&json!({"pattern": "a(?<=b)"}))
            .unwrap_err()
            .to_string(),
        "at /pattern: expected a regular expression llmout can run (ECMA-262 without \
         look-around or backreferences), found \"a(?<=b)\" (look-around ((?<=...)), which the \
         regex engine llmout uses does not support)"
    );
    assert_eq!(
        llmout::schema::validate(&json!({"pattern": 5}))
            .unwrap_err()
            .to_string(),
        "at /pattern: expected a regular expression (a string), found 5"
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Release {
    #[schemars(regex(pattern = r"^v\d+\.\d+\.\d+$"))]
    version: String,
    #[schemars(regex(pattern = r"^[a-z-]+$"))]
    tags: Option<String>,
}

#[test]
fn derived_types_check_their_patterns() {
    // Valid JSON too: a type with constraints does not take the unchecked fast path.
    let r = Release::from_llm(r#"{"version": "1.2", "tags": "stable"}"#);
    assert_eq!(
        violations(&r),
        one(
            "/version",
            "pattern",
            "`version` is \"1.2\", which does not match the pattern ^v\\d+\\.\\d+\\.\\d+$"
        )
    );
    let r = Release::from_llm(r#"{"version": "v1.2.3", "tags": "Stable Release"}"#);
    assert_eq!(
        violations(&r),
        one(
            "/tags",
            "pattern",
            "`tags` is \"Stable Release\", which does not match the pattern ^[a-z-]+$"
        )
    );
    let r = Release::from_llm(r#"{"version": "v1.2.3", "tags": null}"#);
    assert_eq!(
        r.value,
        Some(Release {
            version: "v1.2.3".into(),
            tags: None
        })
    );
    assert!(!r.recovered);
    let r = Release::from_llm("Here: {version: 'v10.0.1', tags: 'lts'}");
    assert_eq!(r.value.unwrap().tags.as_deref(), Some("lts"));
}

#[derive(Debug, Deserialize, JsonSchema, LlmOutput)]
struct Unrunnable {
    #[schemars(regex(pattern = r"^(?!admin)"))]
    #[allow(dead_code)]
    user: String,
}

/// A type whose attribute holds a pattern llmout cannot run: every reply is that error.
#[test]
fn a_derived_pattern_that_cannot_run_is_every_replys_error() {
    let r = Unrunnable::from_llm(r#"{"user": "ada"}"#);
    let e = r.error.unwrap();
    assert_eq!(
        (e.kind(), e.path()),
        (ErrorKind::InvalidSchema, "/properties/user/pattern")
    );
}
