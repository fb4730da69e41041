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

/// The issue's example: every violation of the value, reported together, in plain words.
#[test]
fn all_violations_are_reported_together() {
    let schema = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 5},
            "tags": {"type": "array", "maxItems": 1},
            "code": {"type": "string", "pattern": "^[A-Z]+$"}
        }
    });
    let r = parse(
        r#"{"title": "much too long", "tags": ["a", "b"], "code": "abc"}"#,
        &schema,
    );
    assert_eq!(
        violations(&r),
        [
            (
                "/title",
                "maxLength",
                "`title` has 13 characters; at most 5 are allowed"
            ),
            (
                "/tags",
                "maxItems",
                "`tags` has 2 items; at most 1 is allowed"
            ),
            (
                "/code",
                "pattern",
                "`code` is \"abc\", which does not match the pattern ^[A-Z]+$"
            ),
        ]
        .map(|(p, k, m)| (p.to_owned(), k.to_owned(), m.to_owned()))
    );
    let e = r.error.as_ref().unwrap();
    assert_eq!(
        e.to_string(),
        "at /title: expected at most 5 characters (maxLength), found 13 characters (and 2 more violations)"
    );
    assert_eq!(
        (e.violations()[1].expected(), e.violations()[1].found()),
        ("at most 1 item", "2 items")
    );
    assert_eq!(
        r.feedback().unwrap(),
        "Your reply could not be used:\n\
         - `title` has 13 characters; at most 5 are allowed.\n\
         - `tags` has 2 items; at most 1 is allowed.\n\
         - `code` is \"abc\", which does not match the pattern ^[A-Z]+$.\n\
         Reply again with only the corrected JSON."
    );
}

/// One case per keyword: a schema, a reply that meets it, one that breaks it, and the exact
/// violation (path, keyword, expected, found, message).
#[test]
fn each_keyword_on_a_runtime_schema() {
    struct Case {
        schema: Value,
        ok: &'static str,
        bad: &'static str,
        expected: &'static str,
        found: &'static str,
        message: &'static str,
    }
    let field = |keyword_schema: Value| json!({"type": "object", "properties": {"f": keyword_schema}, "required": ["f"]});
    let cases = [
        Case {
            schema: field(json!({"type": "string", "minLength": 3})),
            ok: r#"{"f": "abc"}"#,
            bad: r#"{"f": "ab"}"#,
            expected: "at least 3 characters",
            found: "2 characters",
            message: "`f` has 2 characters; at least 3 are required",
        },
        Case {
            // Characters, not bytes: "héé" is 3 characters in 5 bytes.
            schema: field(json!({"type": "string", "maxLength": 3})),
            ok: r#"{"f": "héé"}"#,
            bad: r#"{"f": "héél"}"#,
            expected: "at most 3 characters",
            found: "4 characters",
            message: "`f` has 4 characters; at most 3 are allowed",
        },
        Case {
            schema: field(json!({"type": "string", "format": "email"})),
            ok: r#"{"f": "ada@example.com"}"#,
            bad: r#"{"f": "ada at example"}"#,
            expected: "an email address (format email)",
            found: "\"ada at example\"",
            message: "`f` is \"ada at example\", which is not an email address",
        },
        Case {
            schema: field(json!({"type": "string", "format": "uri"})),
            ok: r#"{"f": "https://example.com/a?b=c"}"#,
            bad: r#"{"f": "example.com"}"#,
            expected: "an absolute URI (format uri)",
            found: "\"example.com\"",
            message: "`f` is \"example.com\", which is not an absolute URI",
        },
        Case {
            schema: field(json!({"type": "string", "format": "date"})),
            ok: r#"{"f": "2024-02-29"}"#,
            bad: r#"{"f": "2023-02-29"}"#,
            expected: "a date (YYYY-MM-DD) (format date)",
            found: "\"2023-02-29\"",
            message: "`f` is \"2023-02-29\", which is not a date (YYYY-MM-DD)",
        },
        Case {
            schema: field(json!({"type": "string", "format": "date-time"})),
            ok: r#"{"f": "2024-05-01T12:00:00Z"}"#,
            bad: r#"{"f": "2024-05-01 12:00"}"#,
            expected: "a date and time (RFC 3339, YYYY-MM-DDTHH:MM:SSZ) (format date-time)",
            found: "\"2024-05-01 12:00\"",
            message: "`f` is \"2024-05-01 12:00\", which is not a date and time (RFC 3339, YYYY-MM-DDTHH:MM:SSZ)",
        },
        Case {
            schema: field(json!({"type": "string", "format": "uuid"})),
            ok: r#"{"f": "123e4567-e89b-12d3-a456-426614174000"}"#,
            bad: r#"{"f": "123e4567"}"#,
            expected: "a UUID (format uuid)",
            found: "\"123e4567\"",
            message: "`f` is \"123e4567\", which is not a UUID",
        },
        Case {
            schema: field(json!({"type": "string", "format": "ipv4"})),
            ok: r#"{"f": "10.0.0.1"}"#,
            bad: r#"{"f": "10.0.0.256"}"#,
            expected: "an IPv4 address (format ipv4)",
            found: "\"10.0.0.256\"",
            message: "`f` is \"10.0.0.256\", which is not an IPv4 address",
        },
        Case {
            schema: field(json!({"type": "string", "format": "ipv6"})),
            ok: r#"{"f": "::1"}"#,
            bad: r#"{"f": "1::2::3"}"#,
            expected: "an IPv6 address (format ipv6)",
            found: "\"1::2::3\"",
            message: "`f` is \"1::2::3\", which is not an IPv6 address",
        },
        Case {
            schema: field(json!({"type": "number", "minimum": 0.5})),
            ok: r#"{"f": 0.5}"#,
            bad: r#"{"f": 0.25}"#,
            expected: "at least 0.5",
            found: "0.25",
            message: "`f` is 0.25; the minimum is 0.5",
        },
        Case {
            schema: field(json!({"type": "integer", "maximum": 10})),
            ok: r#"{"f": 10}"#,
            bad: r#"{"f": 11}"#,
            expected: "at most 10",
            found: "11",
            message: "`f` is 11; the maximum is 10",
        },
        Case {
            schema: field(json!({"type": "number", "exclusiveMinimum": 0})),
            ok: r#"{"f": 0.001}"#,
            bad: r#"{"f": 0}"#,
            expected: "more than 0",
            found: "0",
            message: "`f` is 0; it must be more than 0",
        },
        Case {
            schema: field(json!({"type": "number", "exclusiveMaximum": 1})),
            ok: r#"{"f": 0.999}"#,
            bad: r#"{"f": 1.0}"#,
            expected: "less than 1",
            found: "1.0",
            message: "`f` is 1.0; it must be less than 1",
        },
        Case {
            schema: field(json!({"type": "number", "multipleOf": 0.01})),
            ok: r#"{"f": 19.99}"#,
            bad: r#"{"f": 19.999}"#,
            expected: "a multiple of 0.01",
            found: "19.999",
            message: "`f` is 19.999; it must be a multiple of 0.01",
        },
        Case {
            schema: field(json!({"type": "array", "minItems": 1})),
            ok: r#"{"f": [1]}"#,
            bad: r#"{"f": []}"#,
            expected: "at least 1 item",
            found: "0 items",
            message: "`f` has 0 items; at least 1 is required",
        },
        Case {
            schema: field(json!({"type": "array", "maxItems": 2})),
            ok: r#"{"f": [1, 2]}"#,
            bad: r#"{"f": [1, 2, 3]}"#,
            expected: "at most 2 items",
            found: "3 items",
            message: "`f` has 3 items; at most 2 are allowed",
        },
        Case {
            schema: field(json!({"type": "array", "uniqueItems": true})),
            ok: r#"{"f": ["a", "b", 1, "1"]}"#,
            bad: r#"{"f": ["a", "b", "a"]}"#,
            expected: "items that are all different",
            found: "\"a\" at 0 and 2",
            message: "`f` has \"a\" twice (items 0 and 2); its items must all be different",
        },
        Case {
            schema: field(json!({"type": "object", "minProperties": 1})),
            ok: r#"{"f": {"a": 1}}"#,
            bad: r#"{"f": {}}"#,
            expected: "at least 1 property",
            found: "0 properties",
            message: "`f` has 0 properties; at least 1 is required",
        },
        Case {
            schema: field(json!({"type": "object", "maxProperties": 1})),
            ok: r#"{"f": {"a": 1}}"#,
            bad: r#"{"f": {"a": 1, "b": 2}}"#,
            expected: "at most 1 property",
            found: "2 properties",
            message: "`f` has 2 properties; at most 1 is allowed",
        },
        Case {
            schema: field(json!({
                "type": "object",
                "properties": {"card": {"type": "string"}, "billing": {"type": "string"}},
                "dependentRequired": {"card": ["billing"]}
            })),
            ok: r#"{"f": {"card": "4242", "billing": "Main St"}}"#,
            bad: r#"{"f": {"card": "4242"}}"#,
            expected: "`billing`, as `card` is given",
            found: "`card` without `billing`",
            message: "`f` has `card` but not `billing`, which `card` requires",
        },
        Case {
            schema: field(json!({"type": "string", "not": {"enum": ["admin", "root"]}})),
            ok: r#"{"f": "ada"}"#,
            bad: r#"{"f": "root"}"#,
            expected: "a value that does not fit the schema under `not`",
            found: "\"root\"",
            message: "`f` is \"root\", which fits a schema it must not fit (`not`)",
        },
    ];
    for c in cases {
        let ok = parse(c.ok, &c.schema);
        assert!(ok.is_ok(), "{}: {:?}", c.schema, ok.error);
        assert!(!ok.recovered, "{}", c.schema);
        let r = parse(c.bad, &c.schema);
        let e = r
            .error
            .as_ref()
            .unwrap_or_else(|| panic!("{}: {:?}", c.schema, r.value));
        assert_eq!(e.kind(), ErrorKind::Invalid, "{}: {e}", c.schema);
        let v = &e.violations()[0];
        assert_eq!(e.violations().len(), 1, "{}", c.schema);
        assert_eq!(
            (v.path(), v.expected(), v.found(), v.message()),
            ("/f", c.expected, c.found, c.message),
            "{}",
            c.schema
        );
        assert_eq!(
            e.to_string(),
            format!(
                "at /f: expected {} ({}), found {}",
                c.expected,
                v.keyword(),
                c.found
            )
        );
    }
}

/// `required` where the schema does not say it is an object, `not` around it: mutually
/// exclusive fields.
#[test]
fn not_with_required_forbids_a_combination() {
    let schema = json!({
        "type": "object",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
        "not": {"required": ["email", "phone"]}
    });
    assert!(parse(r#"{"email": "a@b.c"}"#, &schema).is_ok());
    assert_eq!(
        violations(&parse(r#"{"email": "a@b.c", "phone": "123"}"#, &schema)),
        one(
            "",
            "not",
            "The value is an object with keys \"email\", \"phone\", which fits a schema it must not fit (`not`)"
        )
    );
    // `required` alone asks an object for its keys, and nothing of other values.
    let schema = json!({"required": ["id"]});
    assert!(parse("\"text\"", &schema).is_ok());
    assert_eq!(
        violations(&parse(r#"{"name": "x"}"#, &schema)),
        one("", "required", "The value has no `id`, which is required")
    );
}

/// Draft 4's boolean exclusive bounds, and draft 7's `dependencies` with a list.
#[test]
fn older_drafts_spellings() {
    let schema = json!({"type": "number", "minimum": 0, "exclusiveMinimum": true});
    assert_eq!(
        violations(&parse("0", &schema)),
        one(
            "",
            "exclusiveMinimum",
            "The value is 0; it must be more than 0"
        )
    );
    assert!(parse("0.5", &schema).is_ok());
    let schema = json!({"type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}});
    assert_eq!(
        violations(&parse(r#"{"a": 1}"#, &schema)),
        one(
            "",
            "dependentRequired",
            "The value has `a` but not `b`, which `a` requires"
        )
    );
}

/// Nothing is truncated, clamped or rewritten to fit: the value is refused as it is.
#[test]
fn nothing_is_changed_to_fit() {
    let schema = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 5},
            "n": {"type": "integer", "maximum": 10},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 1, "uniqueItems": true}
        }
    });
    for reply in [
        r#"{"title": "toolong"}"#,
        r#"{"n": 11}"#,
        r#"{"n": "11"}"#,
        r#"{"tags": ["a", "b"]}"#,
        r#"{"tags": ["a", "a"]}"#,
    ] {
        let r = parse(reply, &schema);
        assert_eq!(r.value, None, "{reply}");
        assert_eq!(r.error.unwrap().kind(), ErrorKind::Invalid, "{reply}");
    }
    // An optional field that breaks a constraint is not dropped to make the rest pass.
    let r = parse(r#"{"title": "ok", "n": 99}"#, &schema);
    assert_eq!(
        violations(&r),
        one("/n", "maximum", "`n` is 99; the maximum is 10")
    );
    // Items equal only once recovered ("1" read as 1) are duplicates too.
    let schema = json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true});
    assert_eq!(
        violations(&parse(r#"[1, "1"]"#, &schema)),
        one(
            "",
            "uniqueItems",
            "The value has 1 twice (items 0 and 1); its items must all be different"
        )
    );
}

/// A reply with an example that breaks the constraints and an answer that meets them: the
/// answer is chosen, whichever comes first.
#[test]
fn the_candidate_that_meets_the_constraints_wins() {
    let schema = json!({
        "type": "object",
        "properties": {"title": {"type": "string", "maxLength": 10}},
        "required": ["title"]
    });
    for reply in [
        "For example {\"title\": \"an example that is long\"}; my answer: {\"title\": \"Fix login\"}",
        "My answer: {\"title\": \"Fix login\"} (not {\"title\": \"an example that is long\"})",
    ] {
        assert_eq!(
            parse(reply, &schema).value,
            Some(json!({"title": "Fix login"})),
            "{reply}"
        );
    }
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Signup {
    #[schemars(length(min = 1, max = 20))]
    name: String,
    #[schemars(email)]
    email: String,
    #[schemars(url)]
    homepage: Option<String>,
    #[schemars(range(min = 13, max = 120))]
    age: u8,
    #[schemars(range(min = 0.0, max = 1.0))]
    score: f64,
    #[schemars(length(max = 2), inner(length(min = 2)))]
    tags: Vec<String>,
    #[schemars(ip)]
    ip: String,
    #[schemars(contains(pattern = "@"))]
    handle: String,
}

/// Every schemars validation attribute, on a derived type: what meets them deserializes, what
/// breaks them is every violation, in the feedback in plain words.
#[test]
fn derived_types_check_schemars_attributes() {
    let good = r#"{"name": "Ada", "email": "ada@example.com", "homepage": "https://ada.dev",
        "age": 36, "score": 0.9, "tags": ["math", "engines"], "ip": "::1", "handle": "@ada"}"#;
    let r = Signup::from_llm(good);
    assert_eq!(
        r.value,
        Some(Signup {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            homepage: Some("https://ada.dev".into()),
            age: 36,
            score: 0.9,
            tags: vec!["math".into(), "engines".into()],
            ip: "::1".into(),
            handle: "@ada".into(),
        })
    );
    assert!(!r.recovered);
    let bad = r#"{"name": "Augusta Ada King, Countess of Lovelace", "email": "ada",
        "homepage": "ada.dev", "age": 12, "score": 1.5, "tags": ["x", "math", "engines"],
        "ip": "localhost", "handle": "ada"}"#;
    let r = Signup::from_llm(bad);
    assert_eq!(
        r.feedback().unwrap(),
        "Your reply could not be used:\n\
         - `name` has 38 characters; at most 20 are allowed.\n\
         - `email` is \"ada\", which is not an email address.\n\
         - `homepage` is \"ada.dev\", which is not an absolute URI.\n\
         - `age` is 12; the minimum is 13.\n\
         - `score` is 1.5; the maximum is 1.0.\n\
         - `tags/0` has 1 character; at least 2 are required.\n\
         - `tags` has 3 items; at most 2 are allowed.\n\
         - `ip` is \"localhost\", which is not an IP address.\n\
         - `handle` is \"ada\", which does not match the pattern @.\n\
         Reply again with only the corrected JSON."
    );
    let keywords: Vec<String> = violations(&r).into_iter().map(|v| v.1).collect();
    assert_eq!(
        keywords,
        [
            "maxLength",
            "format",
            "format",
            "minimum",
            "maximum",
            "minLength",
            "maxItems",
            "format",
            "pattern"
        ]
    );
    // A missing optional field breaks nothing; `null` for it neither.
    let r = Signup::from_llm(&good.replace(r#""homepage": "https://ada.dev","#, ""));
    assert!(r.is_ok(), "{:?}", r.error);
}

/// A union weighs its branches without copying the value: the constraints that count items
/// and keys are still weighed, so the branch the value meets wins.
#[test]
fn unions_weigh_the_constraints_of_containers() {
    let objects = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "maxProperties": 1},
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    ]});
    // The first branch fits with no change but has one key too many; the second needs `b`
    // written as a string.
    assert_eq!(
        parse(r#"{"a": 1, "b": 2}"#, &objects).value,
        Some(json!({"a": 1, "b": "2"}))
    );
    assert_eq!(parse(r#"{"a": 1}"#, &objects).value, Some(json!({"a": 1})));
    let arrays = json!({"anyOf": [
        {"type": "array", "items": {"type": "integer"}, "maxItems": 1},
        {"type": "array", "items": {"type": "string"}}
    ]});
    assert_eq!(parse("[1, 2]", &arrays).value, Some(json!(["1", "2"])));
    assert_eq!(parse("[1]", &arrays).value, Some(json!([1])));
    let unique = json!({"anyOf": [
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
        {"type": "array", "items": {"type": "string"}}
    ]});
    assert_eq!(parse("[1, 1]", &unique).value, Some(json!(["1", "1"])));
    assert_eq!(parse("[1, 2]", &unique).value, Some(json!([1, 2])));
    // The same inside a JSON document given as a string.
    let nested = json!({"type": "object", "properties": {"list": arrays}, "required": ["list"]});
    assert_eq!(
        parse(r#"{"list": "[1, 2]"}"#, &nested).value,
        Some(json!({"list": ["1", "2"]}))
    );
    // When every branch breaks something, the one broken least is reported.
    let both = json!({"anyOf": [
        {"type": "string", "minLength": 5, "pattern": "^[0-9]+$"},
        {"type": "string", "maxLength": 2}
    ]});
    assert_eq!(
        violations(&parse("\"abc\"", &both)),
        one(
            "",
            "maxLength",
            "The value has 3 characters; at most 2 are allowed"
        )
    );
}

/// A key matching two patterns, or a property's name matching one, must fit each schema.
#[test]
fn overlapping_pattern_properties_must_all_fit() {
    let schema = json!({
        "type": "object",
        "properties": {"x_id": {"type": "string"}},
        "patternProperties": {"^x": {"type": "string"}, "_id$": {"type": "string", "minLength": 3}}
    });
    assert!(parse(r#"{"x_id": "abc", "x_key": "v"}"#, &schema).is_ok());
    assert_eq!(
        violations(&parse(r#"{"x_id": "ab"}"#, &schema)),
        one(
            "/x_id",
            "patternProperties",
            "`x_id` is \"ab\", which does not fit the schema of the pattern _id$, which its name matches"
        )
    );
    assert_eq!(
        violations(&parse(r#"{"x_id": "abc", "x2_id": "z"}"#, &schema)),
        one(
            "/x2_id",
            "patternProperties",
            "`x2_id` is \"z\", which does not fit the schema of the pattern _id$, which its name matches"
        )
    );
}

/// A value filled in is checked like any other, wherever its constraints are: in the branch
/// of a union it was made for, or in a required field of an object made whole. (Found by the
/// `schema_recover` fuzz target: `None` for a union of an email and numbers gave `""`.)
#[test]
fn filled_in_values_meet_the_constraints_of_what_they_were_made_for() {
    let schema = json!({"oneOf": [
        {"type": "string", "format": "email"},
        {"type": "array", "items": {"type": "number"}},
        {"type": "number"}
    ]});
    assert_eq!(
        violations(&parse("None ", &schema)),
        one(
            "",
            "format",
            "The value is \"\", which is not an email address"
        )
    );
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "address": {
                "type": "object",
                "properties": {"street": {"type": "string", "minLength": 1}},
                "required": ["street"]
            }
        },
        "required": ["name", "address"]
    });
    let r = parse(r#"{"name": "Ada"}"#, &schema);
    assert_eq!(
        violations(&r),
        one(
            "/address/street",
            "minLength",
            "`address/street` has 0 characters; at least 1 is required"
        )
    );
}
