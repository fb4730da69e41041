//! The retry loop, sync and async, with scripted models: what is sent back, what is kept,
//! when it stops.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use llmout::retry::{retry_async, Attempt, CallFailed, Retried};
use llmout::{retry, ErrorKind, LlmOutput, Options, Policy, WarningKind};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, PartialEq, Deserialize, JsonSchema, LlmOutput)]
struct Review {
    title: String,
    score: u8,
    issues: Vec<Issue>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Issue {
    line: u32,
}

fn no_invent() -> Options {
    Options::default().policy(Policy::NoInvent)
}

/// A model that replays `replies` and records the attempts it was shown.
fn scripted<'s>(
    replies: &'static [&'static str],
    seen: &'s mut Vec<Vec<Attempt>>,
) -> impl FnMut(&[Attempt]) -> Result<String, std::io::Error> + 's {
    move |attempts| {
        seen.push(attempts.to_vec());
        match replies.get(attempts.len()) {
            Some(r) => Ok((*r).to_owned()),
            None => Err(std::io::Error::other("the script ran out")),
        }
    }
}

const MISSING_SCORE: &str = r#"{"title": "Fix", "issues": []}"#;
const GOOD: &str = r#"{"title": "Fix", "score": "4", "issues": [{"line": 3}]}"#;

#[test]
fn a_failed_reply_is_answered_with_feedback_and_the_next_is_used() {
    let mut seen = Vec::new();
    let r: Retried<Review> =
        retry(3, &no_invent(), scripted(&[MISSING_SCORE, GOOD], &mut seen)).unwrap();
    assert_eq!(
        r.value,
        Some(Review {
            title: "Fix".into(),
            score: 4,
            issues: vec![Issue { line: 3 }]
        })
    );
    // The model was called twice: first with nothing, then with the failed attempt.
    assert_eq!(seen.len(), 2);
    assert!(seen[0].is_empty());
    assert_eq!(seen[1], r.attempts[..1]);

    let first = &r.attempts[0];
    assert_eq!(first.reply, MISSING_SCORE);
    assert_eq!(
        first.error.as_ref().unwrap().to_string(),
        "at /score: expected an integer for \"score\" (required; never filled in), found nothing"
    );
    assert_eq!(
        first.feedback.as_deref(),
        Some(
            "Your reply could not be used:\n\
             - The field `score` is missing; it must be an integer.\n\
             Reply again with only the corrected JSON."
        )
    );
    let second = &r.attempts[1];
    assert_eq!(second.reply, GOOD);
    assert_eq!(second.error, None);
    assert_eq!(second.feedback, None);
    let kinds: Vec<(WarningKind, &str)> = second
        .warnings
        .iter()
        .map(|w| (w.kind, w.path.as_str()))
        .collect();
    assert_eq!(kinds, [(WarningKind::Coerced, "/score")]);
    assert_eq!(r.error(), None);
}

#[test]
fn it_stops_after_the_attempts_allowed() {
    let mut seen = Vec::new();
    let bad = r#"{"title": "Fix", "score": 4, "issues": [{"line": "three"}]}"#;
    let replies: &'static [&'static str] = Box::leak(Box::new([bad, bad, bad, GOOD]));
    let r: Retried<Review> = retry(3, &no_invent(), scripted(replies, &mut seen)).unwrap();
    assert_eq!(r.value, None);
    assert_eq!(r.attempts.len(), 3);
    assert_eq!(seen.len(), 3);
    // Every failed attempt carries the message about it, the last one too (for the log).
    for a in &r.attempts {
        assert_eq!(
            a.feedback.as_deref(),
            Some(
                "Your reply could not be used:\n\
                 - The field `issues[0].line` must be an integer, not \"three\".\n\
                 Reply again with only the corrected JSON."
            )
        );
    }
    assert_eq!(r.error().unwrap().path(), "/issues/0/line");
    assert_eq!(r.into_result().unwrap_err().kind(), ErrorKind::Mismatch);

    // At least one attempt is made, whatever the number asked for.
    let mut seen = Vec::new();
    let r: Retried<Review> = retry(0, &no_invent(), scripted(&[GOOD], &mut seen)).unwrap();
    assert_eq!((r.attempts.len(), r.value.is_some()), (1, true));
}

#[test]
fn the_policy_decides_what_is_a_failure() {
    // Lenient fills the missing score in (with a warning): no second call.
    let mut seen = Vec::new();
    let r: Retried<Review> = retry(
        3,
        &Options::default(),
        scripted(&[MISSING_SCORE, GOOD], &mut seen),
    )
    .unwrap();
    assert_eq!(r.attempts.len(), 1);
    assert_eq!(r.value.unwrap().score, 0);
}

#[test]
fn the_models_own_error_ends_the_loop_with_the_attempts_so_far() {
    let mut seen = Vec::new();
    let e: CallFailed<std::io::Error> =
        retry::<Review, _>(3, &no_invent(), scripted(&[MISSING_SCORE], &mut seen)).unwrap_err();
    assert_eq!(e.attempts.len(), 1);
    assert_eq!(e.attempts[0].reply, MISSING_SCORE);
    assert_eq!(
        e.to_string(),
        "calling the model failed after 1 attempt(s): the script ran out"
    );
}

/// A future that is pending once before it is ready: the loop must not assume anything of the
/// runtime but the `Future` contract.
struct Later<T>(Option<T>, bool);

impl<T: Unpin> Future for Later<T> {
    type Output = T;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if !self.1 {
            self.1 = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Poll::Ready(self.0.take().expect("polled after ready"))
    }
}

/// The smallest executor: poll until ready.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[test]
fn the_async_form_does_the_same_on_any_executor() {
    let replies = [MISSING_SCORE, GOOD];
    let mut polls = 0;
    let r = block_on(retry_async::<Review, std::io::Error, _>(
        3,
        &no_invent(),
        |attempts| {
            polls += 1;
            Later(Some(Ok(replies[attempts.len()].to_owned())), false)
        },
    ))
    .unwrap();
    assert_eq!(polls, 2);
    assert_eq!(r.value.unwrap().score, 4);
    assert_eq!(
        r.attempts[0].feedback.as_deref(),
        Some(
            "Your reply could not be used:\n\
             - The field `score` is missing; it must be an integer.\n\
             Reply again with only the corrected JSON."
        )
    );
    let e = block_on(retry_async::<Review, &str, _>(2, &no_invent(), |_| {
        Later(Some(Err("offline")), false)
    }))
    .unwrap_err();
    assert_eq!((e.error, e.attempts.len()), ("offline", 0));
}
