//! What the tool-call test files share: building expected calls, and checking that
//! `tools::Stream` fed a reply in many chunkings agrees with `tools::parse` on it.
#![allow(dead_code)]

pub mod chunks;
pub mod table;

use llmout::tools::{parse, parse_compact, Stream, ToolCall, ToolCallResponse};
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
    compact_like_parse(reply, &expected);
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

/// `tools::parse_compact` (what the CLI reads replies with: calls kept as their JSON) gives
/// what `parse` gives: the content, each call (read back, and written as `serde_json` writes
/// it), `needs_more_work` and the warnings.
pub fn compact_like_parse(reply: &str, expected: &ToolCallResponse) {
    let compact = parse_compact(reply);
    assert_eq!(compact.content, expected.content, "{reply:?}");
    assert_eq!(compact.len(), expected.tool_calls.len(), "{reply:?}");
    for (i, call) in expected.tool_calls.iter().enumerate() {
        assert_eq!(compact.call(i).as_ref(), Some(call), "{reply:?}");
        let mut written = Vec::new();
        compact.write_call(i, &mut written).unwrap();
        assert_eq!(written, serde_json::to_vec(call).unwrap(), "{reply:?}");
        let arguments = compact.parts(i).map(|p| p.arguments.to_owned());
        assert_eq!(arguments, serde_json::to_string(&call.arguments).ok());
    }
    assert_eq!(
        compact.needs_more_work, expected.needs_more_work,
        "{reply:?}"
    );
    assert_eq!(compact.warnings, expected.warnings, "{reply:?}");
}
