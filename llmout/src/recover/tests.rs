use super::*;
use serde_json::json;

fn schema(v: Value) -> Schema {
    Schema::compile(&v).unwrap()
}

fn run(v: Value, s: &Schema) -> Recovered {
    recover(v, s, &Options::default()).unwrap()
}

fn err(v: Value, s: &Schema) -> Error {
    recover(v, s, &Options::default()).unwrap_err()
}

fn summary(r: &Recovered) -> Vec<(WarningKind, &str)> {
    r.warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect()
}

fn commit() -> Schema {
    schema(json!({
        "type": "object",
        "properties": {
            "emoji": {"type": ["string", "null"]},
            "title": {"type": "string"},
            "message": {"type": "string"}
        },
        "required": ["title", "message"]
    }))
}

#[test]
fn valid_value_is_untouched() {
    let r = run(json!({"title": "a", "message": "b"}), &commit());
    assert_eq!(r.value, json!({"title": "a", "message": "b"}));
    assert!(r.warnings.is_empty());
    assert_eq!(r.cost, 0);
}

#[test]
fn missing_required_field_gets_empty_value() {
    let r = run(json!({"title": "Test"}), &commit());
    assert_eq!(r.value, json!({"title": "Test", "message": ""}));
    assert_eq!(summary(&r), [(WarningKind::MissingField, "/message")]);
    assert_eq!(
        r.warnings[0].message,
        "missing field filled with the empty value \"\""
    );
}

#[test]
fn null_for_non_nullable_and_nullable() {
    let r = run(
        json!({"title": null, "message": "m", "emoji": null}),
        &commit(),
    );
    assert_eq!(r.value, json!({"emoji": null, "title": "", "message": "m"}));
    assert_eq!(summary(&r), [(WarningKind::NullReplaced, "/title")]);
}

#[test]
fn type_mismatch_number_to_string() {
    let r = run(json!({"title": 42, "message": true}), &commit());
    assert_eq!(r.value, json!({"title": "42", "message": "true"}));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::Coerced, "/title"),
            (WarningKind::Coerced, "/message")
        ]
    );
}

#[test]
fn keys_case_and_aliases() {
    let s = schema(json!({
        "type": "object",
        "properties": {"userId": {"type": "integer"}, "createdAt": {"type": "string"}},
        "required": ["userId", "createdAt"],
        "x-aliases": {"uid": "userId"}
    }));
    let r = run(json!({"uid": "7", "created_at": "now", "junk": 1}), &s);
    assert_eq!(r.value, json!({"userId": 7, "createdAt": "now"}));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::KeyRenamed, "/userId"),
            (WarningKind::KeyRenamed, "/createdAt"),
            (WarningKind::UnknownKeyDropped, "/junk"),
            (WarningKind::Coerced, "/userId"),
        ]
    );
}

/// An object of many properties, every one required and aliased, and a reply giving each
/// by its name, its alias or miscased: each key is matched by hashing, not compared with
/// every name (20 000 keys by 20 000 names took seconds in release, compiling the schema
/// as long again).
#[test]
fn the_keys_of_a_wide_object_are_matched_one_by_one() {
    const N: usize = 20_000;
    let mut properties = serde_json::Map::new();
    let mut aliases = serde_json::Map::new();
    for i in 0..N {
        properties.insert(format!("field_{i}"), json!({"type": "integer"}));
        aliases.insert(format!("alias{i}"), json!(format!("field_{i}")));
    }
    let required: Vec<String> = (0..N).map(|i| format!("field_{i}")).collect();
    let s = schema(json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "x-aliases": aliases,
    }));
    let mut reply = serde_json::Map::new();
    for i in 0..N {
        let key = match i % 3 {
            0 => format!("field_{i}"),
            1 => format!("alias{i}"),
            _ => format!("Field{i}"),
        };
        reply.insert(key, json!(i));
    }
    reply.insert("extra".into(), json!(true));
    let r = run(Value::Object(reply), &s);
    let expected: serde_json::Map<String, Value> =
        (0..N).map(|i| (format!("field_{i}"), json!(i))).collect();
    assert_eq!(r.value, Value::Object(expected));
    let renamed = r
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::KeyRenamed)
        .count();
    assert_eq!(renamed, N - N.div_ceil(3));
    assert_eq!(r.warnings.len(), renamed + 1);
    assert_eq!(r.warnings[renamed].path, "/extra");
}

/// Filling in each missing field of a wide object asks whether the schema has checks: a
/// flag kept when compiling, where each fill walked every node (20 000 fields filled, each
/// over 20 000 nodes).
#[test]
fn the_missing_fields_of_a_wide_object_are_filled_one_by_one() {
    const N: usize = 20_000;
    let properties: serde_json::Map<String, Value> = (0..N)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let required: Vec<String> = (0..N).map(|i| format!("p{i}")).collect();
    let s = schema(json!({"type": "object", "properties": properties, "required": required}));
    let r = run(json!({"p0": 7}), &s);
    let mut expected: serde_json::Map<String, Value> =
        (0..N).map(|i| (format!("p{i}"), json!(0))).collect();
    expected["p0"] = json!(7);
    assert_eq!(r.value, Value::Object(expected));
    assert_eq!(r.warnings.len(), N - 1);
    assert_eq!(r.warnings[0].kind, WarningKind::MissingField);
    assert_eq!(r.warnings[0].path, "/p1");
    assert_eq!(
        r.warnings[0].message,
        "missing field filled with the empty value 0"
    );
}

#[test]
fn exact_key_wins_over_loose_duplicate() {
    let r = run(
        json!({"Title": "loose", "title": "exact", "message": "m"}),
        &commit(),
    );
    assert_eq!(r.value["title"], "exact");
    assert_eq!(r.warnings.len(), 2);
}

#[test]
fn additional_properties_kept_when_allowed() {
    let s = schema(json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "integer"}
    }));
    let r = run(json!({"a": 1, "b": "2"}), &s);
    assert_eq!(r.value, json!({"a": 1, "b": 2}));
    assert_eq!(summary(&r), [(WarningKind::Coerced, "/b")]);
}

#[test]
fn object_with_no_known_key_is_an_error() {
    let e = err(json!({"type": "object", "properties": {}}), &commit());
    assert_eq!(e.kind(), ErrorKind::Mismatch);
    assert_eq!(
        e.to_string(),
        "expected an object with fields `title`, `message`, found an object with none of them (keys \"type\", \"properties\")"
    );
    assert_eq!(err(json!({}), &commit()).found(), "an empty object");
}

#[test]
fn wrappers_are_removed() {
    let r = run(
        json!({"CommitMessage": {"title": "t", "message": "m"}}),
        &commit(),
    );
    assert_eq!(r.value, json!({"title": "t", "message": "m"}));
    assert_eq!(summary(&r), [(WarningKind::Reshaped, "")]);

    let list = schema(json!({"type": "array", "items": {"type": "integer"}}));
    let r = run(json!({"results": [1, "2"]}), &list);
    assert_eq!(r.value, json!([1, 2]));
    assert_eq!(
        summary(&r),
        [(WarningKind::Reshaped, ""), (WarningKind::Coerced, "/1")]
    );
}

/// A wrapper is taken off only where what it holds breaks no more of the object's own
/// constraints than the wrapper as given: `dependentRequired` too, checked on each reading
/// (as the pipeline recovers: a schema at run time keeps unknown keys).
#[test]
fn a_wrapper_stays_where_taking_it_off_breaks_the_object() {
    let s = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "dependentRequired": {"a": ["name"]}
    });
    let options = Options::default();
    let r = crate::recover_with_schema(json!({"k": {"a": 1}}), &s, &options);
    assert_eq!(r.value, Some(json!({"k": {"a": 1}})));
    assert!(r.warnings.is_empty());
    // What it holds fits: taken off.
    let r = crate::recover_with_schema(json!({"k": {"a": 1, "name": "n"}}), &s, &options);
    assert_eq!(r.value, Some(json!({"a": 1, "name": "n"})));
    let said: Vec<_> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(said, [(WarningKind::Reshaped, "")]);
}

/// A wrapper of an array may hold scalars besides it (a count, a cursor): they are left out,
/// each named. Two arrays, an object beside it, or a key the items know, and it is no wrapper.
#[test]
fn an_array_comes_out_of_a_wrapper_with_its_count_beside_it() {
    let rows = schema(json!({"type": "array", "items": {"type": "object",
        "properties": {"id": {"type": "integer"}, "tags": {"type": "array"}},
        "required": ["id"]}}));
    let r = run(
        json!({"total": 1, "rows": [{"id": 4}], "cursor": null}),
        &rows,
    );
    assert_eq!(r.value, json!([{"id": 4}]));
    let said: Vec<String> = r.warnings.iter().map(|w| w.message.to_string()).collect();
    assert_eq!(
        said,
        [
            "took the array out of the wrapper object {\"rows\": [...]}, leaving out its other \
          members \"total\", \"cursor\""
        ]
    );
    assert_eq!(r.remap("/rows/0/id"), "/0/id");
    for not_one in [
        json!({"rows": [{"id": 4}], "more": [{"id": 5}]}),
        json!({"rows": [{"id": 4}], "meta": {"total": 1}}),
    ] {
        assert!(
            recover(not_one.clone(), &rows, &Options::default()).is_err(),
            "{not_one}"
        );
    }
    // An item with an array field: wrapped as the one item, not unwrapped.
    let r = run(json!({"id": 4, "tags": ["a"]}), &rows);
    assert_eq!(r.value, json!([{"id": 4, "tags": ["a"]}]));
}

/// A wrapper inside a wrapper is taken off too, each one said; so what comes out is no wrapper
/// itself, and recovering it again changes nothing (found by the fuzzer: with unknown keys
/// kept, one `{"k": {}}` left inside came off on the second recovery, and the value then broke
/// a `not` the first had checked).
#[test]
fn wrappers_inside_wrappers_are_all_taken_off() {
    let r = run(
        json!({"response": {"data": {"title": "t", "message": "m"}}}),
        &commit(),
    );
    assert_eq!(r.value, json!({"title": "t", "message": "m"}));
    assert_eq!(
        summary(&r),
        [(WarningKind::Reshaped, ""), (WarningKind::Reshaped, "")]
    );
    assert_eq!(r.remap("/response/data/title"), "/title");

    let s = schema(json!({
        "type": "object",
        "properties": {"items": {"type": "object"}},
        "not": {"type": "object", "required": ["k"]}
    }));
    let keep = Options::default().keep_unknown_keys(true);
    let r = recover(json!({"w": {"k": {"j": {}}}}), &s, &keep).unwrap();
    assert_eq!(r.value, json!({}));
    assert_eq!(r.warnings.len(), 3);
    let again = recover(r.value.clone(), &s, &keep).unwrap();
    assert_eq!((again.value, again.warnings.len()), (json!({}), 0));
    // Not a wrapper: a known key, or a key holding no object.
    let r = recover(json!({"items": {"k": {}}}), &s, &keep).unwrap();
    assert_eq!(
        (r.value, r.warnings.len()),
        (json!({"items": {"k": {}}}), 0)
    );
    let r = recover(json!({"k": 1}), &s, &keep).unwrap_err();
    assert_eq!(r.to_string(), "expected a value that does not fit the schema under `not` (not), found an object with key \"k\"");
}

/// A one-key wrapper is taken off when what it holds recovers as the object with no
/// constraint broken. When that would break one, the wrapper as given is weighed too and kept
/// when it does better: here, as a key the schema keeps. Either way, recovering the result
/// again changes nothing.
#[test]
fn a_wrapper_comes_off_when_what_it_holds_fits() {
    let s = schema(json!({
        "type": "object",
        "properties": {"host": {"type": "string", "format": "ipv4"}, "port": {"type": "integer"}}
    }));
    let keep = Options::default().keep_unknown_keys(true);
    let r = recover(json!({"server": {"host": "10.0.0.1"}}), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"host": "10.0.0.1"}));
    assert_eq!(summary(&r), [(WarningKind::Reshaped, "")]);
    assert_eq!(
        r.warnings[0].message,
        "took the object out of the wrapper {\"server\": {...}}"
    );

    // `2` read as the text "2" is no IPv4 address; the key kept as data breaks nothing.
    let r = recover(json!({"server": {"host": 2}}), &s, &keep).unwrap();
    assert_eq!(
        (&r.value, r.warnings.len(), r.cost),
        (&json!({"server": {"host": 2}}), 0, 0)
    );
    let again = recover(r.value.clone(), &s, &keep).unwrap();
    assert_eq!((again.value, again.warnings.len()), (r.value, 0));

    // Where unknown keys are dropped the wrapper as given is no such object (none of its keys
    // is a property), and the inner reading's broken constraint is the error.
    let e = recover(json!({"server": {"host": 2}}), &s, &Options::default()).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Invalid, "/host"));

    // Of wrappers inside wrappers, each comes off while what it holds fits, and the last one
    // stays: its contents break the object.
    let mut v = json!({"host": 2});
    for i in 0..40 {
        v = json!({format!("w{i}"): v});
    }
    let r = recover(v, &s, &keep).unwrap();
    assert_eq!(r.value, json!({"w0": {"host": 2}}));
    assert_eq!(r.warnings.len(), 39);

    // The strict policy refuses taking it off: a wrapper valid as given is kept, and one
    // that is not gets the refusal.
    let strict = keep.policy(Policy::Strict);
    let r = recover(json!({"server": {"host": "10.0.0.1"}}), &s, &strict).unwrap();
    assert_eq!(
        (r.value, r.warnings.len()),
        (json!({"server": {"host": "10.0.0.1"}}), 0)
    );
    let strict = Options::default().policy(Policy::Strict);
    let e = recover(json!({"server": {"host": "10.0.0.1"}}), &s, &strict).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Forbidden, ""));
}

/// What comes out of a wrapper may be the only field's value given alone; it is made that
/// field's value then too, as it would be given directly, and recovering the result again
/// changes nothing (found by the fuzzer).
#[test]
fn what_a_wrapper_held_may_be_the_only_field() {
    let s = schema(json!({
        "type": "object",
        "properties": {"only": {"type": "object", "properties": {"a": {"type": "integer"}}}}
    }));
    let keep = Options::default().keep_unknown_keys(true);
    let r = recover(json!({"w": {"a": 1}}), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"only": {"a": 1}}));
    assert_eq!(
        summary(&r),
        [(WarningKind::Reshaped, ""), (WarningKind::Reshaped, "")]
    );
    assert_eq!(r.remap("/w/a"), "/only/a");
    let again = recover(r.value.clone(), &s, &keep).unwrap();
    assert_eq!(
        (again.value, again.warnings.len()),
        (json!({"only": {"a": 1}}), 0)
    );
    // The same from a one-element array, and from a JSON document in a string.
    let r = recover(json!([{"a": 2}]), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"only": {"a": 2}}));
    let r = recover(json!("{\"a\": 3}"), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"only": {"a": 3}}));
}

/// A value shaped like the only field's value is moved into that field when it recovers
/// there with no constraint broken. When it would break one there, the value as given is
/// weighed too and kept when it does better: here, as an object of keys the schema keeps.
/// Either way, recovering the result again changes nothing.
#[test]
fn the_only_field_takes_a_value_that_fits_it() {
    let s = schema(json!({
        "type": "object",
        "properties": {"profile": {
            "type": "object",
            "properties": {"handle": {"type": "string", "minLength": 3}, "bio": {"type": "string"}}
        }}
    }));
    let keep = Options::default().keep_unknown_keys(true);
    let r = recover(json!({"handle": "ada"}), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"profile": {"handle": "ada"}}));
    assert_eq!(summary(&r), [(WarningKind::Reshaped, "")]);
    assert_eq!(
        r.warnings[0].message,
        "made an object with key \"handle\" the value of the only field `profile`"
    );
    let again = recover(r.value.clone(), &s, &keep).unwrap();
    assert_eq!((again.value, again.warnings.len()), (r.value, 0));

    // Too short a handle for the field; the object as given keeps it as an extra key.
    let r = recover(json!({"handle": "a", "bio": 7}), &s, &keep).unwrap();
    assert_eq!(r.value, json!({"handle": "a", "bio": 7}));
    assert_eq!((r.warnings.len(), r.cost), (0, 0));
    let again = recover(r.value.clone(), &s, &keep).unwrap();
    assert_eq!((again.value, again.warnings.len()), (r.value, 0));

    // Without extra keys the object as given fits nothing, and the field's reading is the
    // one reported: its broken constraint, at the field's path.
    let e = recover(json!({"handle": "a"}), &s, &Options::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Invalid);
    assert_eq!(
        e.to_string(),
        "at /profile/handle: expected at least 3 characters (minLength), found 1 character"
    );

    // The strict policy refuses the move: a value valid as given is that value, and one
    // that is not gets the refusal.
    let strict = keep.clone().policy(Policy::Strict);
    let r = recover(json!({"handle": "ada"}), &s, &strict).unwrap();
    assert_eq!((r.value, r.warnings.len()), (json!({"handle": "ada"}), 0));
    let strict = Options::default().policy(Policy::Strict);
    let e = recover(json!({"handle": "ada"}), &s, &strict).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert_eq!(e.path(), "");
}

/// Each level of this reply is shaped like the only field's value (`more` is a key of `box`,
/// not of the object) and breaks a constraint there (`box` wants two keys), so both readings
/// are weighed at every level, and each of them recovers the level below: 3^depth walks
/// without the memo. Every level is kept as given, as an extra key the schema takes.
#[test]
fn the_only_field_is_weighed_once_per_value() {
    let s = schema(json!({
        "$defs": {"N": {
            "type": "object",
            "properties": {"box": {
                "type": "object",
                "properties": {"more": {"$ref": "#/$defs/N"}},
                "minProperties": 2
            }},
            "additionalProperties": {"$ref": "#/$defs/N"}
        }},
        "$ref": "#/$defs/N"
    }));
    let mut v = json!({});
    for _ in 0..40 {
        v = json!({"more": v});
    }
    let r = recover(v.clone(), &s, &Options::default()).unwrap();
    assert_eq!((&r.value, r.warnings.len(), r.cost), (&v, 0, 0));
}

#[test]
fn single_value_and_array() {
    let s = schema(json!({
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}, "n": {"type": "integer"}},
        "required": ["tags", "n"]
    }));
    let r = run(json!({"tags": "x", "n": [3]}), &s);
    assert_eq!(r.value, json!({"tags": ["x"], "n": 3}));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::Reshaped, "/tags"),
            (WarningKind::Reshaped, "/n")
        ]
    );
}

#[test]
fn json_in_a_string() {
    let s = schema(json!({"type": "array", "items": {"type": "integer"}}));
    let r = run(json!("[1, 2]"), &s);
    assert_eq!(r.value, json!([1, 2]));
    assert_eq!(summary(&r), [(WarningKind::Coerced, "")]);
}

#[test]
fn integers() {
    let s = schema(json!({"type": "integer", "minimum": 0}));
    assert_eq!(run(json!(4.0), &s).value, json!(4));
    assert_eq!(run(json!("4.0"), &s).value, json!(4));
    assert_eq!(run(json!(" 8 "), &s).value, json!(8));
    assert_eq!(
        err(json!(4.5), &s).to_string(),
        "expected an integer, found 4.5"
    );
    // Out of range is a violation of `minimum`, not a mismatch of type.
    let e = err(json!(-1), &s);
    assert_eq!(e.kind(), ErrorKind::Invalid);
    assert_eq!(e.to_string(), "expected at least 0 (minimum), found -1");
    assert_eq!(
        e.violations()[0].message(),
        "The value is -1; the minimum is 0"
    );
    assert_eq!(err(json!("3 or 4"), &s).kind(), ErrorKind::Ambiguous);
}

#[test]
fn booleans() {
    let s = schema(json!({"type": "boolean"}));
    assert_eq!(run(json!("yes"), &s).value, json!(true));
    assert_eq!(run(json!(0), &s).value, json!(false));
    assert_eq!(err(json!("true or false"), &s).kind(), ErrorKind::Ambiguous);
    assert_eq!(err(json!(2), &s).to_string(), "expected a boolean, found 2");
}

#[test]
fn enums() {
    let s = schema(json!({"type": "string", "enum": ["pass", "fail", "skip"]}));
    let r = run(json!("SKIPPED"), &s);
    assert_eq!(r.value, json!("skip"));
    assert_eq!(
        r.warnings[0].message,
        "matched \"SKIPPED\" to \"skip\" by word stem"
    );
    assert_eq!(err(json!("pass or fail"), &s).kind(), ErrorKind::Ambiguous);
    assert_eq!(
        err(json!("maybe"), &s).to_string(),
        "expected one of \"pass\", \"fail\", \"skip\", found \"maybe\""
    );
    // A number in a value is no word to stem: `v10` is neither `v100` nor `v200`, and
    // `K2499` is `k2499`, not `k249`.
    let s = schema(json!({"enum": ["v100", "v200"]}));
    assert_eq!(
        err(json!("v10"), &s).to_string(),
        "expected one of \"v100\", \"v200\", found \"v10\""
    );
    let tagged = |kind: &str| json!({"type": "object", "properties": {"kind": {"const": kind}, "n": {"type": "integer"}}, "required": ["kind", "n"]});
    let s = schema(json!({"anyOf": [tagged("k249"), tagged("k2499")]}));
    let r = run(json!({"kind": "K2499", "n": 1}), &s);
    assert_eq!(r.value, json!({"kind": "k2499", "n": 1}));
    assert_eq!(
        r.warnings[0].message,
        "matched \"K2499\" to \"k2499\" ignoring case and separators"
    );
}

#[test]
fn internally_tagged_union() {
    let s = schema(json!({
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "Circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "Square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
        ]
    }));
    let r = run(json!({"kind": "square", "side": "2"}), &s);
    assert_eq!(r.value, json!({"kind": "Square", "side": 2}));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::EnumMatched, "/kind"),
            (WarningKind::Coerced, "/side")
        ]
    );
    let e = err(json!({"kind": "Triangle"}), &s);
    assert_eq!(e.path(), "/kind");
}

/// A constant every branch fixes alike (a version field) names no branch: the branches are
/// weighed. (The first branch with it was taken alone, and `{"v": 1, "a": ""}` failed
/// against two branches the second of which it fits.)
#[test]
fn a_constant_the_branches_share_is_no_tag() {
    let s = schema(json!({
        "anyOf": [
            {"type": "object", "properties": {"v": {"const": 1}, "a": {"type": "string"}, "b": {"type": "string"}}, "required": ["v", "a", "b"]},
            {"type": "object", "properties": {"v": {"const": 1}, "a": {"type": "string"}}, "required": ["v", "a"]},
            {"type": "object", "properties": {"v": {"const": 2}, "c": {"type": "integer"}}, "required": ["v", "c"]}
        ]
    }));
    let r = run(json!({"v": 1, "a": ""}), &s);
    assert_eq!((r.value, r.cost), (json!({"v": 1, "a": ""}), 0));
    assert_eq!(run(json!({"v": 1, "a": "", "b": "x"}), &s).cost, 0);
    // A constant one branch alone has still names it.
    let r = run(json!({"v": 2, "c": "3"}), &s);
    assert_eq!(r.value, json!({"v": 2, "c": 3}));
    assert_eq!(summary(&r), [(WarningKind::Coerced, "/c")]);
}

#[test]
fn externally_tagged_union_takes_the_variant_its_key_names() {
    let variant = |name: &str, content: Value| {
        json!({"type": "object", "properties": {name: content}, "required": [name],
               "additionalProperties": false})
    };
    // `Wrap`'s only field is an object with a `Move` field: `{"Move": ...}` could be
    // taken as its value, given alone.
    let s = schema(json!({"oneOf": [
        {"type": "string", "enum": ["Stop"]},
        variant("Move", json!({"type": "integer"})),
        variant("Wrap", json!({"type": "object", "properties": {"Move": {"type": "string"}}})),
    ]}));
    let r = run(json!({"Move": "3"}), &s);
    assert_eq!(r.value, json!({"Move": 3}));
    assert_eq!(summary(&r), [(WarningKind::Coerced, "/Move")]);
    // The key names `Move`, whose content does not fit: its error, not `Wrap` around it.
    let e = err(json!({"Move": "x"}), &s);
    assert_eq!((e.kind(), e.path()), (ErrorKind::Mismatch, "/Move"));
    // A key that names no variant as written: every branch is weighed, and `Wrap` takes
    // the value as its field's.
    let r = run(json!({"move": "x"}), &s);
    assert_eq!(r.value, json!({"Wrap": {"Move": "x"}}));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::Reshaped, ""),
            (WarningKind::KeyRenamed, "/Wrap/Move")
        ]
    );
    assert_eq!(run(json!("stop"), &s).value, json!("Stop"));
}

#[test]
fn union_prefers_the_exact_branch() {
    let s = schema(json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}));
    let r = run(json!("12"), &s);
    assert_eq!(r.value, json!("12"));
    assert!(r.warnings.is_empty());
}

#[test]
fn optional_field_that_cannot_be_recovered_is_dropped() {
    let s = schema(json!({
        "type": "object",
        "properties": {"title": {"type": "string"}, "count": {"type": "integer"}},
        "required": ["title"]
    }));
    let r = run(json!({"title": "t", "count": "many"}), &s);
    assert_eq!(r.value, json!({"title": "t"}));
    assert_eq!(summary(&r), [(WarningKind::RequiredOnly, "/count")]);
    assert_eq!(
        r.warnings[0].message,
        "dropped optional field \"count\": at /count: expected an integer, found \"many\""
    );
}

#[test]
fn array_items_fail_with_their_index() {
    let s = schema(json!({"type": "array", "items": {"type": "integer"}}));
    let e = err(json!([1, 2, "x"]), &s);
    assert_eq!(e.to_string(), "at /2: expected an integer, found \"x\"");
}

#[test]
fn no_invent_and_strict() {
    let s = schema(json!({
        "type": "object",
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        "required": ["id", "name"],
        "x-no-invent": ["id"]
    }));
    let e = err(json!({"name": "x"}), &s);
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert_eq!(
        e.to_string(),
        "at /id: expected an integer for \"id\" (marked no_invent: never filled in), found nothing"
    );
    assert_eq!(
        err(json!({"name": "x", "id": null}), &s).kind(),
        ErrorKind::Forbidden
    );
    // Other fields may still be invented.
    assert_eq!(
        run(json!({"id": 1}), &s).value,
        json!({"id": 1, "name": ""})
    );

    let strict = Options::strict();
    let e = recover(json!({"id": "1", "name": "x"}), &s, &strict).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert_eq!(e.path(), "/id");
    // A key the schema does not list: dropping it is a change, which strict refuses; kept
    // where the caller keeps such keys (as the runtime-schema entry points do).
    let extra = json!({"id": 1, "name": "x", "extra": true});
    let e = recover(extra.clone(), &s, &strict).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Forbidden, "/extra"));
    let ok = recover(extra.clone(), &s, &strict.clone().keep_unknown_keys(true)).unwrap();
    assert_eq!(ok.value, extra);
}

#[test]
fn defaults_and_nested_empty_objects() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "level": {"type": "integer", "default": 3},
            "inner": {"$ref": "#/$defs/Inner"}
        },
        "required": ["level", "inner"],
        "$defs": {"Inner": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}}, "required": ["a", "b"]}}
    }));
    let r = run(json!({"level": null}), &s);
    assert_eq!(r.value, json!({"level": 3, "inner": {"a": "", "b": null}}));
}

#[test]
fn enum_without_empty_value_cannot_be_invented() {
    let s = schema(json!({
        "type": "object",
        "properties": {"status": {"enum": ["a", "b"]}, "x": {"type": "string"}},
        "required": ["status", "x"]
    }));
    let e = err(json!({"x": "1"}), &s);
    assert_eq!(
        e.to_string(),
        "at /status: expected one of \"a\", \"b\", found nothing"
    );
}

#[test]
fn depth_limit() {
    let s = schema(json!({"type": "array", "items": {"$ref": "#"}}));
    let mut v = json!([]);
    for _ in 0..40 {
        v = json!([v]);
    }
    let e = recover(v, &s, &Options::default().max_depth(10)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DepthLimit);
    assert_eq!(
        e.to_string(),
        format!(
            "at {}: expected nesting at most 10 deep, found deeper nesting",
            "/0".repeat(11)
        )
    );
}

/// The issue's schema: two array branches whose items are the union again, and an integer.
/// Trying both array branches at every level doubled the work per level, and a scalar was
/// wrapped in arrays until the depth limit (3^128 evaluations for the reply `1`).
fn twin_arrays() -> Schema {
    schema(json!({
        "$defs": {"T": {"anyOf": [
            {"type": "array", "items": {"$ref": "#/$defs/T"}},
            {"type": "array", "items": {"$ref": "#/$defs/T"}, "description": "o"},
            {"type": "integer"}
        ]}},
        "$ref": "#/$defs/T"
    }))
}

fn nested(depth: usize, inner: Value) -> Value {
    let mut v = inner;
    for _ in 0..depth {
        v = json!([v]);
    }
    v
}

#[test]
fn a_scalar_is_wrapped_once_not_until_the_depth_limit() {
    let s = twin_arrays();
    let r = run(json!(1), &s);
    assert_eq!((r.value, r.cost), (json!(1), 0));
    assert!(r.warnings.is_empty());
    // Nothing fits "x": the error says so, not that the reply nests too deep, and where the
    // reply has it (not at the `/0` of the array the union's branch wrapped it in).
    let e = err(json!("x"), &s);
    assert_eq!(
        e.to_string(),
        "expected an array of an array or an array or an integer, found \"x\""
    );
    // A schema with one array branch wraps once too.
    let one = schema(json!({
        "$defs": {"T": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/T"}}, {"type": "boolean"}]}},
        "$ref": "#/$defs/T"
    }));
    assert_eq!(err(json!("x"), &one).kind(), ErrorKind::Mismatch);
    let r = run(json!(true), &one);
    assert_eq!((r.value, r.cost), (json!(true), 0));
}

#[test]
fn nested_unions_are_decided_once_per_value() {
    // 90 levels: 2^90 branch evaluations without the memo.
    let s = twin_arrays();
    let r = run(nested(90, json!(7)), &s);
    assert_eq!((r.value, r.cost), (nested(90, json!(7)), 0));
    // A value that costs something at the bottom: every level's first branch costs the
    // same as its second, so both are weighed at every level.
    let r = run(nested(90, json!("7")), &s);
    assert_eq!(r.value, nested(90, json!(7)));
    assert_eq!(r.cost, 1);
    assert_eq!(
        summary(&r),
        [(WarningKind::Coerced, "/0".repeat(90).as_str())]
    );
}

/// A union of a number, an array of itself and an object around itself: `N` in `$defs`.
fn n_defs() -> Value {
    json!({"N": {"anyOf": [
        {"type": "integer"},
        {"type": "array", "items": {"$ref": "#/$defs/N"}},
        {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}, "required": ["c"]}
    ]}})
}

/// [`n_defs`]'s union as the root.
fn number_array_or_object() -> Schema {
    schema(json!({"$defs": n_defs(), "$ref": "#/$defs/N"}))
}

/// The error for recursion past the frames the default options allow, at `path`.
fn too_many_frames(path: &str, found: &str) -> String {
    format!(
        "at {path}: expected at most 192 levels of the reply's nesting and the schema's unions \
         together, found {found}"
    )
}

/// `leaf` in `depth` objects, each with the one key `key`.
fn chain(depth: usize, key: &str, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..depth {
        v = json!({ key: v });
    }
    v
}

/// A union of a number, an array of itself and an object around itself: each object is also
/// weighed wrapped in a one-element array, one level deeper than itself. That weighing is
/// the same as its own, and is shared: weighed again at each depth, each level weighed its
/// whole subtree again (an array of 400 items 40 deep took 2.8 s, and 2.5 MB of them over
/// a minute).
#[test]
fn a_value_is_weighed_once_at_whatever_depth_it_is_met() {
    let s = number_array_or_object();
    let chain = |key: &str, leaf: Value| chain(40, key, leaf);
    let items = 400;
    let r = run(Value::Array(vec![chain("C", json!("1")); items]), &s);
    assert_eq!(r.value, Value::Array(vec![chain("c", json!(1)); items]));
    // Per item, the 40 keys renamed, then the leaf read as a number.
    assert_eq!(r.warnings.len(), items * 41);
    let leaf = format!("/399{}", "/c".repeat(40));
    assert_eq!(
        summary(&r).last(),
        Some(&(WarningKind::Coerced, leaf.as_str()))
    );
    assert_eq!(
        r.warnings[1].message,
        "renamed key \"C\" to \"c\" (the same name in another case or spelling)"
    );
    // The limits still hold where the value is met deeper: 95 levels fit, 97 do not.
    let deep = |n: usize| {
        let mut v = json!(1);
        for _ in 0..n {
            v = json!({ "c": v });
        }
        v
    };
    assert_eq!(run(json!([deep(94)]), &s).value, json!([deep(94)]));
    let e = err(json!([deep(97)]), &s);
    assert_eq!(e.kind(), ErrorKind::DepthLimit);
    // The error is where the reply has it: the `/0`s of the arrays a branch wrapped values
    // in (which reached deeper in the recursion, not in the reply) are no part of it.
    assert_eq!(e.path(), format!("/0{}", "/c".repeat(95)));
    let e = err(json!({"c": {"c": "x"}}), &s);
    assert_eq!(e.to_string(), "at /c/c: expected an integer, found \"x\"");
}

/// Near the limits too: 300 items of 90 objects, each key in another case. A weighing that
/// met a limit was reused only where it was made, and the wrap of each object, weighed
/// first, went a level and two frames deeper at every step: the weighings met the limits
/// from 48 levels on, and each value was weighed again at every depth it was met at (this
/// reply took two minutes, 0.3 s now in a release build).
#[test]
fn a_choice_near_the_limits_is_made_once() {
    let s = number_array_or_object();
    let items = 300;
    let r = run(Value::Array(vec![chain(90, "C", json!("1")); items]), &s);
    assert_eq!(r.value, Value::Array(vec![chain(90, "c", json!(1)); items]));
    assert_eq!(r.warnings.len(), items * 91);
    let leaf = format!("/299{}", "/c".repeat(90));
    assert_eq!(
        summary(&r).last(),
        Some(&(WarningKind::Coerced, leaf.as_str()))
    );
}

/// A limit met anywhere, while a union weighs a branch or not, is the recovery's error.
/// Before, it failed only the branch being weighed, so a reply a level past the limit came
/// back reshaped to fit under it: its outer objects read as wrappers of the arrays in them,
/// and taken off.
#[test]
fn a_limit_met_while_weighing_is_the_error() {
    let s = number_array_or_object();
    // Each level an object and an array: two levels of the reply, and a union's frame each.
    let nest = |n: usize| {
        let mut v = json!(1);
        for _ in 0..n {
            v = json!({"c": [v, 2]});
        }
        v
    };
    let r = run(nest(47), &s);
    assert_eq!((r.value, r.cost), (nest(47), 0));
    let e = err(nest(48), &s);
    assert_eq!(
        e.to_string(),
        too_many_frames(&"/c/0".repeat(48), "more, at a reply depth of 96")
    );
}

/// A check that walks the value against another schema (`not`, a second pattern's) meets
/// the limits as recovery does, and that is the recovery's error too: before, the check
/// took a limit met as "does not fit", so a value past the limits passed `not` unchecked.
/// The error is at the value's path, and says which check met the limit.
#[test]
fn a_limit_met_checking_not_is_the_error() {
    let s = schema(json!({
        "$defs": n_defs(),
        "type": "array",
        "items": {"$ref": "#/$defs/N"},
        "not": {"$ref": "#/$defs/N"}
    }));
    // The array fits `N`, so it breaks `not`.
    let e = err(json!([chain(93, "c", json!(1))]), &s);
    assert_eq!(e.kind(), ErrorKind::Invalid);
    assert_eq!(e.violations()[0].keyword(), "not");
    // A level deeper, checking `not` goes past the limit: it walks the array through `N`'s
    // union and array branch, two frames more than recovering the items took.
    let e = err(json!([chain(94, "c", json!(1))]), &s);
    assert_eq!(
        e.to_string(),
        too_many_frames(
            &format!("/0{}", "/c".repeat(94)),
            "more, checking the value against another schema"
        )
    );
}

/// A branch that can take the value only by wrapping it in a one-element array costs at
/// least the wrap: a union weighs it after the branches that take the value as it is, and
/// not at all where one of those costs less. The choice is the one that weighing every
/// branch in order makes: the cheapest, the first written of equals.
#[test]
fn a_wrapping_branch_is_weighed_last_and_chosen_as_in_order() {
    let ints = json!({"type": "array", "items": {"type": "integer"}});
    let only = json!({
        "type": "object",
        "properties": {"only": {"type": "integer"}},
        "required": ["only"]
    });
    // Both cost 2 (a reshape): the first written wins, whichever it is.
    let r = run(json!(5), &schema(json!({"anyOf": [ints, only]})));
    assert_eq!((r.value, r.cost), (json!([5]), 2));
    assert_eq!(r.warnings[0].message, "wrapped 5 in a one-element array");
    let r = run(json!(5), &schema(json!({"anyOf": [only, ints]})));
    assert_eq!((r.value, r.cost), (json!({"only": 5}), 2));
    assert_eq!(
        r.warnings[0].message,
        "made 5 the value of the only field `only`"
    );
    // Read as the number it writes (1), the string is not wrapped.
    let r = run(
        json!("5"),
        &schema(json!({"anyOf": [ints, {"type": "integer"}]})),
    );
    assert_eq!((r.value, r.cost), (json!(5), 1));
    // Nothing else takes it: wrapped.
    let r = run(
        json!(5),
        &schema(json!({"anyOf": [ints, {"type": "boolean"}]})),
    );
    assert_eq!((r.value, r.cost), (json!([5]), 2));
    // Nothing takes it at all: the error that got deepest, the first written of equals.
    let a = json!({"type": "string", "enum": ["a"]});
    let e = err(json!(true), &schema(json!({"anyOf": [ints, a]})));
    assert_eq!(e.to_string(), "expected an integer, found true");
    let e = err(json!(true), &schema(json!({"anyOf": [a, ints]})));
    assert_eq!(e.to_string(), "expected the value \"a\", found true");
}

/// An untagged enum of a node with children and the same node with one field more: a reply
/// whose nodes all carry the extra field costs 1 (a dropped key) against the first variant at
/// every level, so both variants were recovered at every level: 2^depth.
#[test]
fn recursive_untagged_variants_are_polynomial() {
    let s = schema(json!({
        "$defs": {"Tree": {"anyOf": [
            {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
            }, "required": ["name", "children"]},
            {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                "extra": {"type": "integer"}
            }, "required": ["name", "children", "extra"]}
        ]}},
        "$ref": "#/$defs/Tree"
    }));
    let mut v = json!({"name": 5, "children": [], "extra": 1});
    let mut expected = json!({"name": "5", "children": [], "extra": 1});
    for i in 0..60 {
        v = json!({"name": format!("n{i}"), "children": [v, {"name": "x", "children": []}], "extra": i});
        expected = json!({"name": format!("n{i}"), "children": [expected, {"name": "x", "children": []}], "extra": i});
    }
    let r = run(v, &s);
    assert_eq!(r.value, expected);
    let path = format!("{}/name", "/children/0".repeat(60));
    assert_eq!(summary(&r), [(WarningKind::Coerced, path.as_str())]);
}

/// The depth errors say which limit was met: the reply's nesting, or the recursion that the
/// schema's unions add to it (a union at every level of the reply takes a frame each).
#[test]
fn the_depth_error_is_true() {
    let plain = schema(json!({"type": "array", "items": {"$ref": "#"}}));
    assert_eq!(
        run(nested(128, json!([])), &plain).value,
        nested(128, json!([]))
    );
    let e = err(nested(129, json!([])), &plain);
    assert_eq!(
        e.to_string(),
        format!(
            "at {}: expected nesting at most 128 deep, found deeper nesting",
            "/0".repeat(129)
        )
    );
    let s = twin_arrays();
    assert_eq!(run(nested(95, json!(1)), &s).value, nested(95, json!(1)));
    let e = err(nested(97, json!(1)), &s);
    assert_eq!(
        e.to_string(),
        too_many_frames(&"/0".repeat(96), "more, at a reply depth of 96")
    );
}

/// Folded key names and enum spellings are kept per schema node for the whole reply: each
/// object and enum is matched against its own, however many values share or differ.
#[test]
fn spellings_are_kept_per_schema_node() {
    let s = schema(json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "door": {"enum": ["Open", "Closed"]},
                "shop": {"enum": ["Opened", "Shut"]},
                "inner": {
                    "type": "object",
                    "properties": {"userId": {"type": "integer"}},
                    "required": ["userId"]
                },
                "user_name": {"type": "string"}
            },
            "required": ["door", "shop", "inner", "user_name"]
        }
    }));
    let r = run(
        json!([
            {"door": "OPEN", "shop": "opened", "inner": {"USER_ID": 1}, "UserName": "a"},
            {"door": "closed", "shop": "SHUT", "inner": {"user id": 2}, "user-name": "b"},
            {"door": "opening", "shop": "opening", "inner": {"userid": 3}, "USERNAME": "c"}
        ]),
        &s,
    );
    assert_eq!(
        r.value,
        json!([
            {"door": "Open", "shop": "Opened", "inner": {"userId": 1}, "user_name": "a"},
            {"door": "Closed", "shop": "Shut", "inner": {"userId": 2}, "user_name": "b"},
            {"door": "Open", "shop": "Opened", "inner": {"userId": 3}, "user_name": "c"}
        ])
    );
    let enums = r
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::EnumMatched)
        .map(|w| w.path.as_str())
        .collect::<Vec<_>>();
    assert_eq!(
        enums,
        ["/0/door", "/0/shop", "/1/door", "/1/shop", "/2/door", "/2/shop"]
    );
}

/// The deepest recursion the default options allow fits a test thread's 2 MiB stack,
/// unoptimised: a reply with an object and two union layers at every level, to the limit of
/// 128 + 64 frames; and a reply 128 deep with an object at every level.
#[test]
fn the_deepest_recursion_fits_the_stack() {
    let tree = schema(json!({
        "$defs": {"T": {"anyOf": [
            {"type": "object", "properties": {"c": {"$ref": "#/$defs/U"}}, "required": ["c"]},
            {"type": "object", "properties": {"c": {"$ref": "#/$defs/U"}, "d": {"type": "integer"}}, "required": ["c", "d"]},
            {"type": "integer"}
        ]}, "U": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "boolean"}]}},
        "$ref": "#/$defs/U"
    }));
    let deep = |n: usize| {
        let mut v = json!(1);
        for _ in 0..n {
            v = json!({"c": v, "d": "2"});
        }
        v
    };
    let r = run(deep(63), &tree);
    assert_eq!(r.cost, 63);
    let e = err(deep(64), &tree);
    assert_eq!(e.kind(), ErrorKind::DepthLimit);
    assert_eq!(e.path(), "/c".repeat(64));
    let plain = schema(json!({"type": "object", "properties": {"c": {"$ref": "#"}}}));
    let mut v = json!({});
    for _ in 0..128 {
        v = json!({"c": v, "d": 1});
    }
    assert_eq!(run(v, &plain).cost, 128);
}

/// A tuple's empty value has its items (found by the fuzzer: `[]` was filled in for `null`,
/// and did not fit the tuple).
#[test]
fn a_tuple_is_filled_with_its_items() {
    let s = schema(
        json!({"type": "array", "prefixItems": [{"type": ["string", "null"]}, {"type": "boolean"}]}),
    );
    let r = run(json!(null), &s);
    assert_eq!(r.value, json!([null, false]));
    assert_eq!(summary(&r), [(WarningKind::NullReplaced, "")]);
}

/// A single key the schema takes as an extra is data, not a wrapper around the object (found
/// by the fuzzer: recovering a recovered value again unwrapped it).
#[test]
fn an_allowed_extra_key_is_not_a_wrapper() {
    let s = schema(json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "object"}
    }));
    let r = run(json!({"9": {"b": 1}}), &s);
    assert_eq!((r.value, r.cost), (json!({"9": {"b": 1}}), 0));
    let closed = schema(json!({"type": "object", "properties": {"a": {"type": "integer"}}}));
    let r = run(json!({"Wrapper": {"a": 1}}), &closed);
    assert_eq!(r.value, json!({"a": 1}));
}

/// A JSON document inside a string is decoded, but not one inside that (found by the fuzzer:
/// each decoding is a new value the memoised choices cannot share, and documents nested in
/// strings under unions took seconds for a kilobyte).
#[test]
fn a_document_in_a_string_is_decoded_once_not_within_itself() {
    let s =
        schema(json!({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}));
    let r = run(json!("[[1, 2], [3]]"), &s);
    assert_eq!(r.value, json!([[1, 2], [3]]));
    assert_eq!(summary(&r), [(WarningKind::Coerced, "")]);
    // The string inside is not decoded again: it is wrapped and read as a number instead.
    let r = run(json!("[\"[1]\"]"), &s);
    assert_eq!(r.value, json!([[1]]));
    assert_eq!(
        summary(&r),
        [
            (WarningKind::Coerced, ""),
            (WarningKind::Reshaped, "/0"),
            (WarningKind::Coerced, "/0/0")
        ]
    );
}

#[test]
fn a_long_key_above_many_changes_is_too_large_to_record() {
    // Each change names its value by its whole pointer: two mebibytes of key above 100 000
    // coerced items would have been 200 GB of warnings for a 3 MB reply.
    let key = "k".repeat(2 << 20);
    let ints = schema(json!({
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "integer"}}
    }));
    let strings: Vec<Value> = (0..100_000).map(|i| json!(i.to_string())).collect();
    let e = err(json!({ key.clone(): strings.clone() }), &ints);
    assert_eq!((e.kind(), e.path()), (ErrorKind::TooLarge, ""));
    let seen = text_len(&json!({ key.clone(): strings.clone() }));
    assert_eq!(
        e.to_string(),
        format!(
            "expected at most {} bytes of JSON pointers, beyond 8 per level of nesting, in the \
             changes and violations recorded (a mebibyte and 16 per byte of the reply), found \
             more: a long key above many of them",
            (1 << 20) + 16 * seen
        )
    );
    // The violations of constraints are recorded alike.
    let bounded = schema(json!({
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "integer", "minimum": -1}}
    }));
    let below: Vec<Value> = (0..100_000).map(|_| json!(-2)).collect();
    assert_eq!(
        err(json!({ key.clone(): below.clone() }), &bounded).kind(),
        ErrorKind::TooLarge
    );
    // A few long pointers are within it, and many short ones.
    let r = run(json!({ key.clone(): strings[..10].to_vec() }), &ints);
    assert_eq!(r.warnings.len(), 10);
    assert_eq!(r.warnings[9].path, format!("/{key}/9"));
    let r = run(json!({ "k": strings }), &ints);
    assert_eq!(r.warnings.len(), 100_000);
    let e = err(json!({ "k": below }), &bounded);
    assert_eq!(
        (e.kind(), e.violations().len()),
        (ErrorKind::Invalid, 100_000)
    );
}

#[test]
fn text_len_is_about_the_length_of_compact_json_text() {
    // `{"ab":["x",{"c":null}],"d":""}`, 30 bytes: each string and key as written (a key with
    // its colon and comma), an array's brackets and a comma for each item, 8 for a scalar.
    let v = json!({"ab": ["x", {"c": null}], "d": ""});
    let object = |keys: &[&str]| 2 + keys.iter().map(|k| k.len() + 4).sum::<usize>();
    assert_eq!(
        text_len(&v),
        object(&["ab", "d"]) + (2 + 2) + 3 + object(&["c"]) + 8 + 2
    );
    assert_eq!(text_len(&v), 37);
}

#[test]
fn objects_of_one_property_that_take_other_keys_are_no_tagged_enum() {
    // Found by the fuzzer: a union of objects of one property each, which take keys they
    // do not list, is not serde's externally tagged enum. A value with both branches' keys
    // is recovered by weighing (the first on a tie), and recovering that value again
    // gives it back: the keys name no variant.
    let s = schema(json!({"anyOf": [
        {"type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"]},
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    ]}));
    let keep = Options::default().keep_unknown_keys(true);
    let value = json!({"items": ["x"], "a": "y"});
    let r = recover(value.clone(), &s, &keep).unwrap();
    assert_eq!(r.value, value);
    assert_eq!(recover(r.value, &s, &keep).unwrap().value, value);
    // With `additionalProperties: false` on each, as serde's variants have: two variants
    // named, ambiguous.
    let tagged = schema(json!({"oneOf": [
        {"type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"],
            "additionalProperties": false},
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
            "additionalProperties": false}
    ]}));
    let e = recover(value, &tagged, &keep).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Ambiguous, ""));
}
