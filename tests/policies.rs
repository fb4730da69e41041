//! The three policies side by side, what `Policy::NoInvent` reinterprets and what it refuses,
//! keys a runtime schema does not list, and enum values named after a negation.

use llmout::{from_llm_with_schema, ErrorKind, LlmOutput, Options, Policy, ValidationResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

fn warnings<T>(r: &ValidationResult<T>) -> Vec<String> {
    r.warnings.iter().map(ToString::to_string).collect()
}

fn error<T>(r: ValidationResult<T>) -> (ErrorKind, String) {
    let e = r.error.expect("an error");
    (e.kind(), e.to_string())
}

fn no_invent() -> Options {
    Options::default().policy(Policy::NoInvent)
}

fn ticket() -> Value {
    json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "count": {"type": "integer"},
            "status": {"enum": ["open", "closed"]}
        },
        "required": ["title", "count", "status"]
    })
}

// ------------------------------------------------------------- side by side

#[test]
fn a_reply_that_only_needs_reinterpreting_under_each_policy() {
    let reply = r#"{"Title": "Fix login", "count": "3", "status": "CLOSED"}"#;
    let expected = json!({"title": "Fix login", "count": 3, "status": "closed"});
    let changes = [
        "/title: renamed key \"Title\" to \"title\" (the same name in another case or spelling)",
        "/count: read \"3\" as the integer 3",
        "/status: matched \"CLOSED\" to \"closed\" ignoring case and separators",
    ];
    for policy in [Policy::Lenient, Policy::NoInvent] {
        let r = from_llm_with_schema(reply, &ticket(), &Options::default().policy(policy));
        assert_eq!(r.value, Some(expected.clone()), "{policy:?}");
        assert_eq!(warnings(&r), changes, "{policy:?}");
    }
    let r = from_llm_with_schema(reply, &ticket(), &Options::strict());
    assert_eq!(
        error(r),
        (
            ErrorKind::Forbidden,
            "at /title: expected a value that needs no recovery (strict policy), found one that \
             needs this: renamed key \"Title\" to \"title\" (the same name in another case or \
             spelling)"
                .to_owned()
        )
    );
}

#[test]
fn a_reply_with_a_field_missing_under_each_policy() {
    let reply = r#"{"title": "Fix login", "status": "open"}"#;
    let r = from_llm_with_schema(reply, &ticket(), &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"title": "Fix login", "count": 0, "status": "open"}))
    );
    assert_eq!(
        warnings(&r),
        ["/count: missing field filled with the empty value 0"]
    );
    let r = from_llm_with_schema(reply, &ticket(), &no_invent());
    assert_eq!(
        error(r),
        (
            ErrorKind::Forbidden,
            "at /count: expected an integer for \"count\" (required; never filled in), found \
             nothing"
                .to_owned()
        )
    );
    let r = from_llm_with_schema(reply, &ticket(), &Options::strict());
    assert_eq!(error(r).0, ErrorKind::Forbidden);
}

// ------------------------------------------------- NoInvent: what it reinterprets

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct Review {
    #[serde(alias = "headline")]
    title: String,
    score: u8,
    approved: bool,
    tags: Vec<String>,
    verdict: Verdict,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum Verdict {
    Approved,
    NeedsReview,
    Rejected,
}

fn review() -> Review {
    Review {
        title: "Fix".into(),
        score: 4,
        approved: true,
        tags: vec!["auth".into()],
        verdict: Verdict::NeedsReview,
    }
}

#[test]
fn no_invent_applies_every_rule_that_reinterprets_what_the_model_wrote() {
    for (reply, changes) in [
        // keys: an alias, another case
        (
            r#"{"headline": "Fix", "Score": 4, "approved": true, "tags": ["auth"], "verdict": "NeedsReview"}"#,
            &[
                "/title: renamed key \"headline\" to \"title\" (an alias)",
                "/score: renamed key \"Score\" to \"score\" (the same name in another case or spelling)",
            ][..],
        ),
        // coercions: a number in words, a boolean in words, an integral float
        (
            r#"{"title": "Fix", "score": "4.0", "approved": "yes", "tags": ["auth"], "verdict": "NeedsReview"}"#,
            &[
                "/score: read \"4.0\" as the integer 4",
                "/approved: read \"yes\" as the boolean true",
            ],
        ),
        // an enum value in other words
        (
            r#"{"title": "Fix", "score": 4, "approved": true, "tags": ["auth"], "verdict": "needs review"}"#,
            &["/verdict: matched \"needs review\" to \"NeedsReview\" ignoring case and separators"],
        ),
        // shapes: one value for an array, a wrapper around the object
        (
            r#"{"Review": {"title": "Fix", "score": 4, "approved": true, "tags": "auth", "verdict": "NeedsReview"}}"#,
            &[
                "(root): took the object out of the wrapper {\"Review\": {...}}",
                "/tags: wrapped \"auth\" in a one-element array",
            ],
        ),
        // a JSON document inside a string
        (
            r#"{"title": "Fix", "score": 4, "approved": true, "tags": "[\"auth\"]", "verdict": "NeedsReview"}"#,
            &["/tags: decoded a JSON document given as a string"],
        ),
        // one escaped once more, as a model copies JSON it was given inside a string; and
        // one that needed fixes, said with it
        (
            r#"{"title": "Fix", "score": 4, "approved": true, "tags": "[\\\"auth\\\"]", "verdict": "NeedsReview"}"#,
            &["/tags: decoded a JSON document given as a string, which needed fixes: took off a level of escaping"],
        ),
        (
            r#"{"title": "Fix", "score": 4, "approved": true, "tags": "['auth',]", "verdict": "NeedsReview"}"#,
            &["/tags: decoded a JSON document given as a string, which needed fixes: read a string in non-JSON quotes; removed a trailing comma"],
        ),
    ] {
        let r = Review::from_llm_with(reply, &no_invent());
        assert_eq!(r.value, Some(review()), "{reply}");
        assert_eq!(warnings(&r), changes, "{reply}");
    }
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Summary {
    summary: String,
    keywords: Option<Vec<String>>,
}

#[test]
fn plain_text_read_as_the_one_string_field_is_not_invented() {
    // The model wrote the text; nothing is filled in (`keywords` stays absent, as written).
    let r = Summary::from_llm_with("The login check is now constant-time.", &no_invent());
    assert_eq!(
        r.value,
        Some(Summary {
            summary: "The login check is now constant-time.".into(),
            keywords: None
        })
    );
    assert_eq!(
        warnings(&r),
        ["(root): the reply is plain text, not JSON; read the text as the value"]
    );
    // `Key: value` lines are read as an object too, and what they lack is still not made up.
    let r = from_llm_with_schema("Title: Fix login\nStatus: open", &ticket(), &no_invent());
    assert_eq!(
        error(r).1,
        "expected JSON for an object with fields `title`, `count`, `status`, found text with no \
         JSON in it: \"Title: Fix login\\nStatus: open\""
    );
    let r = from_llm_with_schema(
        "Title: Fix login\nCount: 2\nStatus: open",
        &ticket(),
        &no_invent(),
    );
    assert_eq!(
        r.value,
        Some(json!({"title": "Fix login", "count": 2, "status": "open"}))
    );
}

// ---------------------------------------------------- NoInvent: what it refuses

#[test]
fn no_invent_refuses_every_filled_in_value_naming_where() {
    let schema = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "scores": {"type": "array", "items": {"type": "integer"}},
            "totals": {"type": "object", "additionalProperties": {"type": "number"}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": false}
        },
        "required": ["title", "scores", "totals", "pair"]
    });
    let full = json!({"title": "a", "scores": [1], "totals": {"net": 2}, "pair": ["x", true]});
    let with = |pointer: &str, v: Value| {
        let mut reply = full.clone();
        *reply.pointer_mut(pointer).unwrap() = v;
        reply.to_string()
    };
    let mut without_title = full.clone();
    without_title.as_object_mut().unwrap().remove("title");
    for (reply, message) in [
        (
            without_title.to_string(),
            "at /title: expected a string for \"title\" (required; never filled in), found nothing",
        ),
        (
            with("/title", Value::Null),
            "at /title: expected a string for \"title\" (required; never filled in), found null",
        ),
        (
            with("/scores/0", Value::Null),
            "at /scores/0: expected an integer (never filled in), found null",
        ),
        (
            with("/totals/net", Value::Null),
            "at /totals/net: expected a number (never filled in), found null",
        ),
        (
            with("/pair/1", Value::Null),
            "at /pair/1: expected a boolean (never filled in), found null",
        ),
    ] {
        let r = from_llm_with_schema(&reply, &schema, &no_invent());
        assert_eq!(
            error(r),
            (ErrorKind::Forbidden, message.to_owned()),
            "{reply}"
        );
        // The lenient default fills each of them in, and says so.
        let r = from_llm_with_schema(&reply, &schema, &Options::default());
        assert!(r.value.is_some(), "{reply}");
        assert_eq!(r.warnings.len(), 1, "{reply}");
    }
    let r = llmout::recover_with_schema(Value::Null, &json!({"type": "integer"}), &no_invent());
    assert_eq!(
        error(r).1,
        "expected an integer (never filled in), found null"
    );
    // An optional field holding such a null is left out, as the last resort does under every
    // policy: nothing is made up for it.
    let optional = json!({"type": "object", "properties": {"scores": {"type": "array", "items": {"type": "integer"}}}});
    let r = from_llm_with_schema(r#"{"scores": [1, null]}"#, &optional, &no_invent());
    assert_eq!(r.value, Some(json!({})));
    assert_eq!(
        warnings(&r),
        ["/scores: dropped optional field \"scores\": at /scores/1: expected an integer (never filled in), found null"]
    );
}

#[test]
fn no_invent_takes_the_schema_default_and_leaves_optional_fields_out() {
    let schema = json!({
        "type": "object",
        "properties": {
            "unit": {"type": "string", "default": "celsius"},
            "note": {"type": "string"}
        },
        "required": ["unit"]
    });
    let r = from_llm_with_schema("{\"note\": null}", &schema, &no_invent());
    assert_eq!(r.value, Some(json!({"unit": "celsius"})));
    assert_eq!(
        warnings(&r),
        [
            "/unit: missing field filled with the schema default \"celsius\"",
            "/note: dropped null for an optional field that is not nullable",
        ]
    );
}

// ------------------------------------------------------------- unknown keys

#[test]
fn a_runtime_schema_keeps_keys_it_does_not_list_unless_it_forbids_them() {
    let open =
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    let reply = r#"{"City": "Oslo", "days": 3, "units": {"t": "C"}}"#;
    let r = from_llm_with_schema(reply, &open, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"city": "Oslo", "days": 3, "units": {"t": "C"}}))
    );
    assert_eq!(
        warnings(&r),
        ["/city: renamed key \"City\" to \"city\" (the same name in another case or spelling)"]
    );
    // Valid JSON with an extra key is taken as it is: nothing changed.
    let r = from_llm_with_schema(r#"{"city": "Oslo", "days": 3}"#, &open, &Options::default());
    assert_eq!(r.value, Some(json!({"city": "Oslo", "days": 3})));
    assert!(!r.recovered);
    // Every policy keeps them.
    for o in [no_invent(), Options::strict()] {
        let r = from_llm_with_schema(r#"{"city": "Oslo", "days": 3}"#, &open, &o);
        assert_eq!(r.value, Some(json!({"city": "Oslo", "days": 3})));
    }
    // `recover_with_schema` too.
    let r = llmout::recover_with_schema(
        json!({"city": "Oslo", "days": 3}),
        &open,
        &Options::default(),
    );
    assert_eq!(r.value, Some(json!({"city": "Oslo", "days": 3})));

    let closed = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false});
    let r = from_llm_with_schema(reply, &closed, &Options::default());
    assert_eq!(r.value, Some(json!({"city": "Oslo"})));
    assert_eq!(
        warnings(&r),
        [
            "/city: renamed key \"City\" to \"city\" (the same name in another case or spelling)",
            "/days: dropped unknown key \"days\"",
            "/units: dropped unknown key \"units\"",
        ]
    );
    // Asked for, a runtime schema drops them too.
    let r = from_llm_with_schema(reply, &open, &Options::default().keep_unknown_keys(false));
    assert_eq!(r.value, Some(json!({"city": "Oslo"})));
    assert_eq!(r.warnings.len(), 3);
}

#[test]
fn an_object_of_unlisted_keys_only_is_not_made_into_defaults() {
    for additional in [json!(null), json!(true)] {
        let mut schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
        if !additional.is_null() {
            schema["additionalProperties"] = additional;
        }
        // Lenient would fill `city` with "": an example or an echoed schema is not the answer.
        let r = from_llm_with_schema(r#"{"town": "Oslo"}"#, &schema, &Options::default());
        assert_eq!(
            error(r),
            (
                ErrorKind::Mismatch,
                "expected an object with fields `city`, found an object with none of them (keys \"town\")"
                    .to_owned()
            )
        );
        // Under NoInvent the field is named.
        let r = from_llm_with_schema(r#"{"town": "Oslo"}"#, &schema, &no_invent());
        assert_eq!(
            error(r).1,
            "at /city: expected a string for \"city\" (required; never filled in), found nothing"
        );
    }
    // With nothing required, such an object is a value of the schema.
    let optional = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let r = from_llm_with_schema(r#"{"town": "Oslo"}"#, &optional, &Options::default());
    assert_eq!(r.value, Some(json!({"town": "Oslo"})));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct City {
    city: String,
}

#[test]
fn a_derived_type_still_drops_them_with_a_warning() {
    // serde would ignore `days` without a word: dropping it is said.
    let r = City::from_llm(r#"{"city": "Oslo", "days": 3}"#);
    assert_eq!(
        r.value,
        Some(City {
            city: "Oslo".into()
        })
    );
    assert_eq!(warnings(&r), ["/days: dropped unknown key \"days\""]);
}

// ------------------------------------------------------------- negation

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum Decision {
    Approved,
    Rejected,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum State {
    Active,
    Inactive,
}

#[test]
fn a_value_named_after_a_negation_is_not_matched() {
    assert_eq!(
        error(Decision::from_llm("not approved")),
        (
            ErrorKind::Mismatch,
            "expected one of \"Approved\", \"Rejected\", found \"not approved\"".to_owned()
        )
    );
    assert_eq!(
        error(State::from_llm("The account is not active.")),
        (
            ErrorKind::Mismatch,
            "expected one of \"Active\", \"Inactive\", found \"The account is not active.\""
                .to_owned()
        )
    );
    assert_eq!(
        error(Decision::from_llm(r#"{"decision": "It isn't approved"}"#)).0,
        ErrorKind::Mismatch
    );
    // A value named plainly beside a negated one is that value.
    let r = Decision::from_llm("Rejected, not approved.");
    assert_eq!(r.value, Some(Decision::Rejected));
}

/// What a missing field is filled with is said as what it is: the empty value of its type,
/// the least value an integer with a positive minimum allows, the one value a `const`
/// allows.
#[test]
fn a_filled_in_value_is_said_as_what_it_is() {
    let schema = json!({
        "type": "object",
        "properties": {
            "note": {"type": "string"},
            "rating": {"type": "integer", "minimum": 1, "maximum": 5},
            "kind": {"const": "rect"}
        },
        "required": ["note", "rating", "kind"]
    });
    let r = from_llm_with_schema(r#"{"rating": 4}"#, &schema, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"note": "", "rating": 4, "kind": "rect"}))
    );
    assert_eq!(
        warnings(&r),
        [
            "/note: missing field filled with the empty value \"\"",
            "/kind: missing field filled with the one value its schema allows, \"rect\"",
        ]
    );
    let r = from_llm_with_schema(r#"{"note": "ok"}"#, &schema, &Options::default());
    assert_eq!(
        r.value,
        Some(json!({"note": "ok", "rating": 1, "kind": "rect"}))
    );
    assert_eq!(
        warnings(&r)[0],
        "/rating: missing field filled with the least value its schema allows, 1"
    );
}

#[test]
fn a_key_the_type_does_not_take_is_dropped_with_a_warning_and_refused_under_strict() {
    // serde would ignore it without a word: the default says it dropped it, strict (which
    // takes only what needs no change) refuses the reply, naming the key.
    let reply = r#"{"title": "Fix", "score": 4, "approved": true, "tags": ["auth"],
        "verdict": "NeedsReview", "reviewer": "ann"}"#;
    let r = Review::from_llm(reply);
    assert_eq!(r.value, Some(review()));
    assert_eq!(
        warnings(&r),
        ["/reviewer: dropped unknown key \"reviewer\""]
    );
    assert_eq!(
        error(Review::from_llm_with(reply, &Options::strict())),
        (
            ErrorKind::Forbidden,
            "at /reviewer: expected a value that needs no recovery (strict policy), found one \
             that needs this: dropped unknown key \"reviewer\""
                .to_owned()
        )
    );
    // Against a schema given at run time the key is the reply's JSON, kept as it stands.
    let schema = json!({"type": "object", "properties": {"title": {"type": "string"}}});
    let r = from_llm_with_schema(r#"{"title": "Fix", "n": 1}"#, &schema, &Options::strict());
    assert_eq!(r.value, Some(json!({"title": "Fix", "n": 1})));
    assert!(r.warnings.is_empty());
}
