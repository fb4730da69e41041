//! Replies cut off at the model's token limit: the items written whole are kept, the one the
//! reply ended in is kept where it needs nothing made up and otherwise dropped with a
//! warning that says so, and no item is ever taken alone for the array around it.

use std::collections::BTreeMap;

use llmout::{ErrorKind, LlmOutput, RepairKind, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Task {
    id: u32,
    title: String,
    owner: Owner,
    labels: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Owner {
    login: String,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Board {
    name: String,
    tasks: Vec<Task>,
}

fn task(id: u32, title: &str, login: &str, labels: &[&str]) -> Task {
    Task {
        id,
        title: title.to_owned(),
        owner: Owner {
            login: login.to_owned(),
        },
        labels: labels.iter().map(|l| (*l).to_owned()).collect(),
    }
}

/// The two tasks every reply below starts with, as JSON.
const TWO: &str = r#"{"id": 1, "title": "Write the parser", "owner": {"login": "ana"}, "labels": ["core"]},
  {"id": 2, "title": "Fuzz it", "owner": {"login": "bo"}, "labels": []}"#;

fn two() -> Vec<Task> {
    vec![
        task(1, "Write the parser", "ana", &["core"]),
        task(2, "Fuzz it", "bo", &[]),
    ]
}

fn kinds<T>(r: &llmout::ValidationResult<T>) -> Vec<(WarningKind, &str)> {
    r.warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect()
}

#[test]
fn the_item_the_reply_ended_in_is_dropped_where_it_would_need_values_made_up() {
    // Cut inside the third task's owner: `owner` would be an object with no `login`.
    let reply =
        format!("```json\n[\n  {TWO},\n  {{\"id\": 3, \"title\": \"Ship\", \"owner\": {{\"lo");
    let r = <Vec<Task>>::from_llm(&reply);
    assert_eq!(r.value, Some(two()));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Repaired(RepairKind::Truncated), "/2/owner"),
            (WarningKind::ItemDropped, "/2"),
        ]
    );
    assert_eq!(
        r.warnings[1].message,
        "dropped item 2, which the reply was cut off in: at /2/owner: expected an object with \
         fields `login`, found an empty object"
    );

    // Cut before the third task's `labels`: nothing is filled in for it either.
    let reply = format!(
        "[{TWO}, {{\"id\": 3, \"title\": \"Ship\", \"owner\": {{\"login\": \"cy\"}}, \"lab"
    );
    let r = <Vec<Task>>::from_llm(&reply);
    assert_eq!(r.value, Some(two()));
    assert_eq!(kinds(&r)[1], (WarningKind::ItemDropped, "/2"));
}

#[test]
fn the_item_the_reply_ended_in_is_kept_where_nothing_is_missing() {
    // Cut in the third task's last label: a string cut short is the model's text as far as
    // it went, and the parser's warning says where.
    let reply = format!("[{TWO}, {{\"id\": 3, \"title\": \"Ship\", \"owner\": {{\"login\": \"cy\"}}, \"labels\": [\"rel");
    let r = <Vec<Task>>::from_llm(&reply);
    let mut tasks = two();
    tasks.push(task(3, "Ship", "cy", &["rel"]));
    assert_eq!(r.value, Some(tasks));
    assert_eq!(
        kinds(&r),
        [(WarningKind::Repaired(RepairKind::Truncated), "/2/labels/0")]
    );
}

#[test]
fn an_array_cut_off_is_never_replaced_by_one_of_its_items() {
    // Every task's keys are in another case, so each costs the same to recover: the array
    // costs more than any one task alone. Still, the array is the answer.
    let mut reply = String::from("Here are the tasks:\n[");
    for id in 1..=5 {
        reply.push_str(&format!(
            "{{\"ID\": {id}, \"Title\": \"t{id}\", \"Owner\": {{\"Login\": \"u{id}\"}}, \"Labels\": []}}, "
        ));
    }
    reply.push_str("{\"ID\": 6, \"Ti");
    let r = <Vec<Task>>::from_llm(&reply);
    let tasks: Vec<Task> = (1..=5)
        .map(|id| task(id, &format!("t{id}"), &format!("u{id}"), &[]))
        .collect();
    assert_eq!(r.value, Some(tasks));
    assert_eq!(kinds(&r).last(), Some(&(WarningKind::ItemDropped, "/5")));
    assert!(
        !r.warnings.iter().any(|w| w.kind == WarningKind::Extracted),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_reply_cut_after_a_whole_item_that_is_wrong_is_an_error() {
    // The reply ended between items: the last item is whole, and its error is the reply's,
    // as it would be had the array been closed.
    let reply = format!("[{TWO}, {{\"id\": \"three\", \"title\": \"Ship\", \"owner\": {{\"login\": \"cy\"}}, \"labels\": []}}, ");
    let r = <Vec<Task>>::from_llm(&reply);
    let e = r.error.expect("an error");
    assert_eq!((e.kind(), e.path()), (ErrorKind::Mismatch, "/2/id"));
    assert_eq!(r.value, None);
}

#[test]
fn the_records_in_an_object_and_a_map_lose_only_the_one_cut_off() {
    let reply = format!("{{\"name\": \"Q3\", \"tasks\": [{TWO}, {{\"id\": 3, \"ti");
    let r = Board::from_llm(&reply);
    assert_eq!(
        r.value,
        Some(Board {
            name: "Q3".to_owned(),
            tasks: two(),
        })
    );
    assert_eq!(kinds(&r)[1], (WarningKind::ItemDropped, "/tasks/2"));

    // Tasks keyed by name: the member the reply ended in goes.
    let reply = "{\"parser\": {\"id\": 1, \"title\": \"Write the parser\", \"owner\": {\"login\": \"ana\"}, \
                 \"labels\": [\"core\"]}, \"fuzz\": {\"id\": 2, \"title\": \"Fuzz";
    let r = <BTreeMap<String, Task>>::from_llm(reply);
    let expected: BTreeMap<String, Task> = [(
        "parser".to_owned(),
        task(1, "Write the parser", "ana", &["core"]),
    )]
    .into();
    assert_eq!(r.value, Some(expected));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Repaired(RepairKind::Truncated), "/fuzz/title"),
            (WarningKind::ItemDropped, "/fuzz"),
        ]
    );
}

#[test]
fn an_object_cut_off_alone_is_filled_in_as_before() {
    // No array to drop an item from: the one object is recovered as any reply is, its
    // missing fields filled in with a warning each.
    let r =
        Task::from_llm("{\"id\": 7, \"title\": \"Ship\", \"owner\": {\"login\": \"cy\"}, \"lab");
    assert_eq!(r.value, Some(task(7, "Ship", "cy", &[])));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Repaired(RepairKind::Truncated), ""),
            (WarningKind::MissingField, "/labels"),
        ]
    );
}

#[test]
fn the_item_cut_off_is_found_by_its_place_not_by_being_last() {
    // The reply ended in an opening quote: the parser drops that empty, cut string, so the
    // last item left is a whole one; being wrong, it is the error, not an item to drop.
    let r = <Vec<i64>>::from_llm("[1, \"x\", \"");
    let e = r.error.expect("an error");
    assert_eq!((e.kind(), e.path()), (ErrorKind::Mismatch, "/1"));
    // Where the string cut short holds text, it is the item cut off, and goes.
    let r = <Vec<i64>>::from_llm("[1, 2, \"thr");
    assert_eq!(r.value, Some(vec![1, 2]));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Repaired(RepairKind::Truncated), "/2"),
            (WarningKind::ItemDropped, "/2"),
        ]
    );
}

#[test]
fn records_in_a_wrapper_object_lose_only_the_one_cut_off() {
    // The array asked for comes in a wrapper, `{"tasks": [...`: the wrapper is taken off,
    // and the task the reply ended in is dropped as it is in a bare array (nothing made up
    // for its missing `title`, `owner` and `labels`).
    let reply = format!("{{\"tasks\": [{TWO}, {{\"id\": 3, \"ti");
    let r = <Vec<Task>>::from_llm(&reply);
    assert_eq!(r.value, Some(two()));
    assert_eq!(
        kinds(&r),
        [
            (WarningKind::Repaired(RepairKind::Truncated), "/2"),
            (WarningKind::Reshaped, ""),
            (WarningKind::ItemDropped, "/2"),
        ]
    );
    assert_eq!(
        r.warnings[2].message,
        "dropped item 2, which the reply was cut off in: at /2/title: expected a string for \
         \"title\" (required; never filled in), found nothing"
    );
}

#[test]
fn an_object_cut_off_after_prose_keeps_its_records_together() {
    // Prose, then an object of records cut off: the records inside it are its parts, not
    // objects given one by one. Each task's keys are in another case, so each costs the
    // same to recover, and any one alone would cost less than the array.
    let mut reply = String::from("Sure, here they are: {\"tasks\": [");
    for id in 1..=3 {
        reply.push_str(&format!(
            "{{\"ID\": {id}, \"Title\": \"t{id}\", \"Owner\": {{\"Login\": \"u{id}\"}}, \"Labels\": []}}, "
        ));
    }
    reply.push_str("{\"ID\": 4, \"Ti");
    let tasks: Vec<Task> = (1..=3)
        .map(|id| task(id, &format!("t{id}"), &format!("u{id}"), &[]))
        .collect();
    let r = <Vec<Task>>::from_llm(&reply);
    assert_eq!(r.value, Some(tasks));
    let said: Vec<WarningKind> = r.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        said[..2],
        [
            WarningKind::Repaired(RepairKind::Truncated),
            WarningKind::Reshaped
        ]
    );
    assert_eq!(said.last(), Some(&WarningKind::ItemDropped));
    // Nothing says the records were given one by one, or chosen over others.
    assert!(
        !r.warnings
            .iter()
            .any(|w| w.message.contains("one by one") || w.kind == WarningKind::Extracted),
        "{:?}",
        r.warnings
    );
}

/// Counts, as a word-frequency reply holds them.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Counts {
    total: u32,
    words: BTreeMap<String, u32>,
}

#[test]
fn a_reply_cut_off_in_a_number_says_so_at_the_number() {
    // `12` may have been `123`: kept, as the digits written, and the cut said where it is.
    let cut = WarningKind::Repaired(RepairKind::Truncated);
    for (text, path) in [
        (r#"{"words": {"the": 4}, "total": 12"#, "/total"),
        (r#"{"total": 9, "words": {"the": 4, "cat": 3"#, "/words/cat"),
    ] {
        let r = Counts::from_llm(text);
        let said: Vec<_> = r
            .warnings
            .iter()
            .map(|w| (w.kind, w.path.as_str(), w.message.as_ref()))
            .collect();
        assert_eq!(
            said,
            [(
                cut,
                path,
                "the input was cut off here; closed what it left open"
            )],
            "{text}"
        );
        assert!(r.value.is_some(), "{text}");
    }
}
