//! Families marked by special tokens: Kimi K2 (both id spellings), gpt-oss harmony (the
//! recipient in the role header, and after the channel), Llama 3.x `<|python_tag|>` (JSON and
//! pythonic). Several replies each, each also streamed in many chunkings.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

#[test]
fn kimi_ids_in_both_spellings() {
    let reply = "Let me look both up.<|tool_calls_section_begin|><|tool_call_begin|>functions_get_weather_0<|tool_call_argument_begin|>{\"city\": \"Hangzhou\"}<|tool_call_end|><|tool_call_begin|>functions.get_air_quality:1<|tool_call_argument_begin|>{\"city\": \"Hangzhou\", \"pollutants\": [\"pm2.5\", \"o3\"]}<|tool_call_end|><|tool_calls_section_end|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Let me look both up."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                Some("functions_get_weather_0"),
                "get_weather",
                json!({"city": "Hangzhou"})
            ),
            call(
                Some("functions.get_air_quality:1"),
                "get_air_quality",
                json!({"city": "Hangzhou", "pollutants": ["pm2.5", "o3"]})
            ),
        ]
    );
    streams_like_parse(reply);
    // A tool whose own name ends in a number keeps it: only the index is dropped.
    let r = parse("<|tool_calls_section_begin|><|tool_call_begin|>functions_step_2_3<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>");
    assert_eq!(r.tool_calls[0].name, "step_2");
    // An id with no index still loses its `functions.` (it kept it, `functions.get_time`).
    let reply = "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(Some("functions.get_time"), "get_time", json!({}))]
    );
    streams_like_parse(reply);
}

#[test]
fn harmony_recipient_in_the_role_header() {
    let reply = "<|start|>assistant<|channel|>analysis<|message|>The user wants Oslo's weather; call the tool.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"location\": \"Oslo\", \"opts\": {\"units\": \"metric\"}}<|call|>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "get_weather",
            json!({"location": "Oslo", "opts": {"units": "metric"}})
        )]
    );
    assert_eq!(r.content, None);
    streams_like_parse(reply);
    // Two calls in the two header forms, a preamble, then a final answer.
    let reply = "<|start|>assistant<|channel|>commentary<|message|>Checking \"both\" sources.<|end|><|start|>assistant to=functions.search<|channel|>commentary json<|message|>{\"q\": \"rust 2024 edition\"}<|call|><|start|>assistant<|channel|>commentary to=functions.fetch <|constrain|>json<|message|>{\"url\": \"https://blog.rust-lang.org\"}<|call|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Checking \"both\" sources."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "search", json!({"q": "rust 2024 edition"})),
            call(None, "fetch", json!({"url": "https://blog.rust-lang.org"})),
        ]
    );
    streams_like_parse(reply);
    // Cut off inside the arguments: content, not a call.
    let cut = "<|start|>assistant to=functions.search<|channel|>commentary json<|message|>{\"q\": \"rust 20";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("{\"q\": \"rust 20"));
    assert_eq!(r.warnings.len(), 1);
    // A call written in the analysis channel is reasoning.
    let r = parse("<|start|>assistant<|channel|>analysis<|message|>Maybe to=functions.rm {\"path\": \"/\"}? No.<|end|><|start|>assistant<|channel|>final<|message|>Nothing to delete.<|return|>");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("Nothing to delete."));
}

#[test]
fn llama_python_tag_json_and_pythonic() {
    // Llama 3.3 writes its calls pythonic after the tag.
    let reply = "<|python_tag|>[get_weather(city=\"San Francisco\", unit=\"fahrenheit\"), get_time(tz='America/Los_Angeles', opts={'24h': True})]<|eom_id|>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "San Francisco", "unit": "fahrenheit"})
            ),
            call(
                None,
                "get_time",
                json!({"tz": "America/Los_Angeles", "opts": {"24h": true}})
            ),
        ]
    );
    assert_eq!(r.content, None);
    streams_like_parse(reply);
    // One call without the list, then prose that is content.
    let reply = "<|python_tag|>brave_search(query=\"llama 3.3 \\\"tool use\\\"\")\nI'll summarise what I find.";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "brave_search",
            json!({"query": "llama 3.3 \"tool use\""})
        )]
    );
    assert_eq!(r.content.as_deref(), Some("I'll summarise what I find."));
    streams_like_parse(reply);
    // JSON calls separated by `;`, as Llama 3.1 writes them.
    let reply = "<|python_tag|>{\"name\": \"lookup\", \"parameters\": {\"id\": 42}}; {\"name\": \"lookup\", \"parameters\": {\"id\": 43}}";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "lookup", json!({"id": 42})),
            call(None, "lookup", json!({"id": 43})),
        ]
    );
    streams_like_parse(reply);
    // Cut off inside a pythonic call: no call, the text kept as written, its marker too
    // (it marked no call), as every family keeps a call cut off.
    let cut = "<|python_tag|>get_weather(city=\"San Fra";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
}

#[test]
fn function_gemma() {
    let reply = "I'll check that.<start_function_call>call:get_weather{location:<escape>Paris, \"FR\"<escape>,days:3}<end_function_call><start_function_call>call:get_time{}<end_function_call>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("I'll check that."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"location": "Paris, \"FR\"", "days": 3})
            ),
            call(None, "get_time", json!({})),
        ]
    );
    streams_like_parse(reply);
    let cut = "<start_function_call>call:get_weather{location:<escape>Par";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn gemma_arguments_in_other_spellings() {
    // `key='value'`, `key=value` and `key: "value"`, and a nested object.
    let reply = "Looking that up.<|tool_call>call:find_flights{origin='LHR', destination=JFK, passengers=2, prefs: {\"seat\": \"aisle\", \"meals\": [\"veg\"]}}<tool_call|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Looking that up."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "find_flights",
            json!({"origin": "LHR", "destination": "JFK", "passengers": 2, "prefs": {"seat": "aisle", "meals": ["veg"]}})
        )]
    );
    streams_like_parse(reply);
    // Gemma 4 ending a call with `<turn|>`; the quote token holding braces and quotes.
    let reply = "<|tool_call>call:run_code{code:<|\"|>print(\"{}\".format(1)){<|\"|>,timeout:30}<turn|>Running it.";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "run_code",
            json!({"code": "print(\"{}\".format(1)){", "timeout": 30})
        )]
    );
    assert_eq!(r.content.as_deref(), Some("Running it."));
    streams_like_parse(reply);
    let cut = "<|tool_call>call:find_flights{origin='LH";
    assert!(parse(cut).tool_calls.is_empty());
}

/// Where a family's markers mark no call that can be read (a section with a name and no
/// call inside, a call begun and cut off, a call that is no JSON), the reply is content as it
/// was written, the markers too: text that is no call is content, every byte of it.
#[test]
fn markers_that_mark_no_call_stay_in_the_content() {
    for reply in [
        "Let me look that up.<｜tool▁calls▁begin｜>get_weather",
        "<｜tool▁calls▁begin｜>foo<｜tool▁sep｜>{\"x\":1}<｜tool▁calls▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>notfunction<｜tool▁sep｜>test\n```json\n{\"x\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "Help. <|tool_calls_section_begin|>no call here<|tool_calls_section_end|>",
        "On it. <|python_tag|> then nothing",
    ] {
        let r = parse(reply);
        assert_eq!(r.tool_calls, [], "{reply}");
        assert_eq!(r.content.as_deref(), Some(reply), "{reply}");
        streams_like_parse(reply);
    }
    // With a call read, the section's markers go with it.
    let reply = "Hi <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ls<｜tool▁sep｜>{\"d\": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜> bye";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"d": 1}))]);
    assert_eq!(r.content.as_deref(), Some("Hi  bye"));
    streams_like_parse(reply);
}

/// A harmony call ended by its `<|call|>` with no JSON in it is a call with no arguments:
/// none written (a tool that takes none), or text that is no JSON, which is said. Ended by
/// the next message instead, it is no call, as before.
#[test]
fn harmony_calls_with_no_json_before_their_end() {
    let msg = |to: &str, body: &str| {
        format!("<|start|>assistant<|channel|>commentary to=functions.{to} <|constrain|>json<|message|>{body}<|call|>")
    };
    let reply = [
        msg("locate", "{\"city\": \"Tokyo\"}"),
        msg("refresh", ""),
        msg("lookup", "the user's city"),
        msg("ping", "{}"),
    ]
    .concat();
    let r = parse(&reply);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "locate", json!({"city": "Tokyo"})),
            call(None, "refresh", json!({})),
            call(None, "lookup", json!({})),
            call(None, "ping", json!({})),
        ]
    );
    let said: Vec<(&str, &str)> = (r.warnings.iter())
        .map(|w| (w.path.as_str(), &*w.message))
        .collect();
    assert_eq!(
        said,
        [(
            "/tool_calls/2/arguments",
            "the arguments were given as text that is no JSON (\"the user's city\"): the call has none"
        )]
    );
    assert_eq!(r.content, None);
    streams_like_parse(&reply);

    // No `<|call|>` before the next message: not a call.
    let reply = "<|start|>assistant<|channel|>commentary to=functions.lookup<|message|>the city<|start|>assistant<|channel|>final<|message|>Done.";
    let r = parse(reply);
    assert_eq!(r.tool_calls, []);
    streams_like_parse(reply);
}
