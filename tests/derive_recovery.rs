//! The derive's annotations as the recovery pipeline sees them: aliases rename keys and
//! variant names, `no_invent` turns a missing field into an error.

use llmout::{ErrorKind, LlmOutput, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct User {
    #[llmout(alias = "uid")]
    user_id: u32,
    #[llmout(no_invent)]
    email: String,
    nickname: String,
}

#[test]
fn field_alias_renames_the_key() {
    let r = User::from_llm(r#"{"uid": 7, "email": "a@b.c", "nickname": "al"}"#);
    assert_eq!(
        r.value,
        Some(User {
            user_id: 7,
            email: "a@b.c".into(),
            nickname: "al".into()
        })
    );
    let kinds: Vec<_> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(kinds, [(WarningKind::KeyRenamed, "/userId")]);
}

#[test]
fn no_invent_field_is_never_filled_in() {
    let r = User::from_llm(r#"{"uid": 7, "nickname": "al"}"#);
    assert_eq!(r.value, None);
    let error = r.error.expect("a missing no_invent field is an error");
    assert_eq!(error.kind(), ErrorKind::Forbidden);
    assert_eq!(error.path(), "/email");
    // Without `no_invent`, a missing string is filled with "" and a warning.
    let r = User::from_llm(r#"{"uid": 7, "email": "a@b.c"}"#);
    assert_eq!(r.value.map(|u| u.nickname), Some(String::new()));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type")]
enum Shape {
    #[llmout(alias = "round")]
    Circle {
        #[llmout(alias = "r")]
        radius: f64,
    },
    Square {
        side: f64,
    },
}

#[test]
fn internally_tagged_variant_and_field_aliases() {
    let r = Shape::from_llm(r#"{"type": "round", "r": 2}"#);
    assert_eq!(r.value, Some(Shape::Circle { radius: 2.0 }));
    let kinds: Vec<_> = r
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert!(
        kinds.contains(&(WarningKind::KeyRenamed, "/radius")),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&(WarningKind::EnumMatched, "/type")),
        "{kinds:?}"
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
enum Command {
    Stop,
    #[llmout(alias = "go")]
    Move {
        #[llmout(alias = "dist")]
        distance: u32,
    },
}

#[test]
fn externally_tagged_variant_alias_is_a_key_alias() {
    let r = Command::from_llm(r#"{"go": {"dist": 3}}"#);
    assert_eq!(r.value, Some(Command::Move { distance: 3 }));
    assert!(r.recovered);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Post {
    title: String,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Meta {
    #[llmout(alias = "created")]
    created_at: String,
}

#[test]
fn flattened_alias_is_recovered_on_the_parent() {
    let r = Post::from_llm(r#"{"title": "Hi", "created": "today"}"#);
    assert_eq!(
        r.value,
        Some(Post {
            title: "Hi".into(),
            meta: Meta {
                created_at: "today".into()
            }
        })
    );
}

/// A map of counts, a struct, and a value of any shape, each with a key given twice.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Tally {
    label: String,
    counts: std::collections::BTreeMap<String, u32>,
    extra: serde_json::Value,
}

#[test]
fn a_key_given_twice_keeps_its_last_value_and_says_so_in_every_shape() {
    let said = |r: &llmout::ValidationResult<Tally>| -> Vec<(WarningKind, String)> {
        r.warnings
            .iter()
            .map(|w| (w.kind, w.path.clone()))
            .collect()
    };
    let twice = WarningKind::Repaired(llmout::repair::RepairKind::DuplicateKey);
    // Given once: the fast path, nothing said.
    let once = r#"{"label": "a", "counts": {"x": 1, "y": 2}, "extra": {"k": [1]}}"#;
    let r = Tally::from_llm(once);
    assert_eq!((r.recovered, said(&r)), (false, vec![]));
    // The struct's own field (serde's derive refuses it), the map's key and the value's key
    // (each of which serde keeps silently): the last value, and a warning at the key.
    for (text, path) in [
        (
            r#"{"label": "a", "counts": {"x": 1}, "extra": null, "label": "b"}"#,
            "/label",
        ),
        (
            r#"{"label": "b", "counts": {"x": 9, "x": 1}, "extra": null}"#,
            "/counts/x",
        ),
        (
            r#"{"label": "b", "counts": {"x": 1}, "extra": {"k": 0, "k": null}}"#,
            "/extra/k",
        ),
    ] {
        let r = Tally::from_llm(text);
        assert_eq!(said(&r), [(twice, path.to_owned())], "{text}");
        let value = r.value.unwrap();
        assert_eq!(value.label, "b", "{text}");
        assert_eq!(value.counts["x"], 1, "{text}");
    }
}

/// An agent's next step, tagged by `type`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Step {
    Search { query: String },
    Finish { answer: String },
}

/// Either outcome, told apart by its fields.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(untagged)]
enum Outcome {
    Failed { error: String, code: i32 },
    Done { result: String },
}

#[test]
fn a_key_a_tagged_or_untagged_variant_does_not_know_is_said_dropped() {
    // serde reads these enums from its own buffer, where a variant skips a key it does not
    // know out of the fast path's sight.
    let said = |w: &[llmout::Warning]| -> Vec<(WarningKind, String)> {
        w.iter().map(|w| (w.kind, w.path.clone())).collect()
    };
    let r = Step::from_llm(r#"{"type": "finish", "answer": "42", "reasoning": "done"}"#);
    assert_eq!(
        r.value,
        Some(Step::Finish {
            answer: "42".into()
        })
    );
    assert_eq!(
        said(&r.warnings),
        [(WarningKind::UnknownKeyDropped, "/reasoning".to_owned())]
    );
    let r = Vec::<Step>::from_llm(r#"[{"type": "search", "query": "q", "lang": "en"}]"#);
    assert_eq!(r.value, Some(vec![Step::Search { query: "q".into() }]));
    assert_eq!(
        said(&r.warnings),
        [(WarningKind::UnknownKeyDropped, "/0/lang".to_owned())]
    );
    let r = Outcome::from_llm(r#"{"result": "ok", "note": "extra"}"#);
    assert_eq!(
        r.value,
        Some(Outcome::Done {
            result: "ok".into()
        })
    );
    assert_eq!(
        said(&r.warnings),
        [(WarningKind::UnknownKeyDropped, "/note".to_owned())]
    );
    // What each variant knows: the fast path's value, nothing said.
    for text in [
        r#"{"type": "finish", "answer": "42"}"#,
        r#"{"answer": "42", "type": "finish"}"#,
    ] {
        let r = Step::from_llm(text);
        assert_eq!((r.value.is_some(), r.recovered), (true, false), "{text}");
    }
    let r = Outcome::from_llm(r#"{"error": "boom", "code": 3}"#);
    assert_eq!((r.value.is_some(), r.recovered), (true, false));
}

/// A command, externally tagged (serde's default).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "snake_case")]
enum Order {
    Move { dx: i32, dy: i32 },
    Say(String),
    Wait,
}

#[test]
fn a_reply_naming_two_variants_is_ambiguous_not_a_pick() {
    // Two variants' keys: which one to run is the model's call, and it made two.
    for (text, found) in [
        (
            r#"{"say": "x", "move": {"dx": 1, "dy": 2}}"#,
            r#"an object with the keys of 2 variants: "say", "move""#,
        ),
        (
            r#"{"say": "hi", "wait": null}"#,
            r#"an object with the keys of 2 variants: "say", "wait""#,
        ),
    ] {
        let e = Order::from_llm(text).error.expect(text);
        assert_eq!((e.kind(), e.path()), (ErrorKind::Ambiguous, ""), "{text}");
        assert!(e.to_string().ends_with(found), "{e}");
    }
    // One variant's key: that variant.
    let r = Order::from_llm(r#"{"move": {"dx": 1, "dy": 2}}"#);
    assert_eq!(r.value, Some(Order::Move { dx: 1, dy: 2 }));
    // A tag given as two variants' tags.
    let e = Step::from_llm(r#"{"type": ["search", "finish"], "query": "q"}"#)
        .error
        .unwrap();
    assert_eq!((e.kind(), e.path()), (ErrorKind::Ambiguous, ""));
    assert!(
        e.to_string()
            .ends_with(r#""type" naming 2 of them: an array of 2 items"#),
        "{e}"
    );
    // A tag in a one-item array is that tag (unwrapped, with its warning).
    let r = Step::from_llm(r#"{"type": ["search"], "query": "q"}"#);
    assert_eq!(r.value, Some(Step::Search { query: "q".into() }));
}

#[test]
fn a_tag_no_variant_has_is_an_error_naming_every_tag() {
    for text in [
        r#"{"type": "scroll", "query": "q"}"#,
        r#"{"type": "scroll"}"#,
    ] {
        let e = Step::from_llm(text).error.expect(text);
        assert_eq!(
            e.to_string(),
            r#"at /type: expected one of "search", "finish" for "type", found "scroll""#,
            "{text}"
        );
    }
}
