//! What the tool-call test files share: building expected calls, and checking that
//! `tools::Stream` fed a reply in many chunkings agrees with `tools::parse` on it.
#![allow(dead_code)]

pub mod chunks;
pub mod table;

use llmout::tools::{parse, Stream, ToolCall};
use serde_json::Value;

/// A call with these fields (`args` must be a JSON object).
pub fn call(id: Option<&str>, name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: id.map(str::to_owned),
        name: name.to_owned(),
        arguments: args.as_object().expect("an object").clone(),
    }
}

/// Feeds `reply` to a stream in chunks of 1, 2, 3, 7 and 64 characters: after every chunk
/// the calls seen so far are the first calls `parse` finds, each call being written shows
/// the name `parse` gives it, and once all the text is in, the stream has every call and
/// `finish` is `parse`.
pub fn streams_like_parse(reply: &str) {
    streams_like(reply, true);
}

/// [`streams_like_parse`] for a reply where a call that the live view follows turns out to be
/// no call (its name is shown while it is written, but it never joins the calls): the calls
/// seen live are always the first calls `parse` finds, and at the end all of them.
pub fn streams_to_parse_calls(reply: &str) {
    streams_like(reply, false);
}

fn streams_like(reply: &str, names: bool) {
    let expected = parse(reply);
    for size in [1, 2, 3, 7, 64] {
        let mut s = Stream::new();
        let chars: Vec<char> = reply.chars().collect();
        for chunk in chars.chunks(size) {
            s.push(&chunk.iter().collect::<String>());
            let live = s.calls();
            assert!(
                live.len() <= expected.tool_calls.len()
                    && live[..] == expected.tool_calls[..live.len()],
                "{reply:?} in chunks of {size}: live {live:?}"
            );
            if let (true, Some(current), Some(next)) =
                (names, s.current(), expected.tool_calls.get(live.len()))
            {
                if let Some(name) = current.name {
                    assert_eq!(name, next.name, "{reply:?} in chunks of {size}");
                }
            }
        }
        assert_eq!(
            s.calls(),
            &expected.tool_calls[..],
            "{reply:?} in chunks of {size}"
        );
        assert_eq!(s.finish(), expected);
    }
}
