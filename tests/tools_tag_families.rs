//! Families whose calls sit between `<tool_call>` / `<tool_calls>`-like tags: xLAM and
//! Granite 4 JSON arrays, GLM calls with no arguments, Tencent HY v3 and Hunyuan A13B.
//! Several replies each, each also streamed in many chunkings.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::parse;
use serde_json::json;

#[test]
fn xlam_and_granite4_arrays_inside_tool_call() {
    let reply = "<tool_call>[{\"name\": \"search_flights\", \"arguments\": {\"from\": \"LHR\", \"to\": \"JFK\", \"date\": \"2025-03-14\"}}, {\"name\": \"search_hotels\", \"arguments\": {\"city\": \"New York\", \"filters\": {\"stars\": [4, 5], \"note\": \"near \\\"Central Park\\\"\"}}}]</tool_call>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "search_flights",
                json!({"from": "LHR", "to": "JFK", "date": "2025-03-14"})
            ),
            call(
                None,
                "search_hotels",
                json!({"city": "New York", "filters": {"stars": [4, 5], "note": "near \"Central Park\""}})
            ),
        ]
    );
    assert_eq!(r.content, None);
    streams_like_parse(reply);
    // Granite 4 writes one call per element, text around.
    let reply = "I'll convert it first.\n<tool_call>\n{\"name\": \"convert\", \"arguments\": {\"amount\": 120, \"from\": \"EUR\", \"to\": \"USD\"}}\n</tool_call>\nThen I'll report back.";
    let r = parse(reply);
    assert_eq!(
        r.content.as_deref(),
        Some("I'll convert it first.\n\nThen I'll report back.")
    );
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "convert",
            json!({"amount": 120, "from": "EUR", "to": "USD"})
        )]
    );
    streams_like_parse(reply);
    // xLAM after its reasoning, a fenced array: the JSON family reads it.
    let reply = "<think>The user needs the time in two zones.</think>\n```json\n[{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"Europe/Paris\"}}]\n```";
    let r = parse(reply);
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(r.tool_calls[1].arguments["tz"], "Europe/Paris");
    // Cut off inside the array: no call, the text kept.
    let cut = "<tool_call>[{\"name\": \"search_flights\", \"arguments\": {\"from\": \"LH";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn glm_calls_with_no_arguments() {
    let reply = "Let me check the clock and the calendar.\n<tool_call>get_current_time</tool_call>\n<tool_call>list_events<arg_key>day</arg_key><arg_value>today</arg_value><arg_key>limit</arg_key><arg_value>5</arg_value></tool_call>";
    let r = parse(reply);
    assert_eq!(
        r.content.as_deref(),
        Some("Let me check the clock and the calendar.")
    );
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_current_time", json!({})),
            call(None, "list_events", json!({"day": "today", "limit": 5})),
        ]
    );
    streams_like_parse(reply);
    // A name whose closer never came may be a name cut off: no call.
    let cut = "<tool_call>get_current_ti";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
    // Prose inside the tags is not a tool name.
    let r = parse("<tool_call>I am not sure which tool fits.</tool_call>");
    assert!(r.tool_calls.is_empty());
    assert_eq!(
        r.content.as_deref(),
        Some("<tool_call>I am not sure which tool fits.</tool_call>")
    );
}

#[test]
fn tencent_hy_v3() {
    let reply = "Looking up both.\n<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Shenzhen</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n<tool_call>search_news<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>typhoon \"Wipha\" update</arg_value>\n<arg_key>filters</arg_key>\n<arg_value>{\"lang\": [\"en\", \"zh\"]}</arg_value>\n</tool_call>\n</tool_calls>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Looking up both."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_weather", json!({"city": "Shenzhen", "days": 2})),
            call(
                None,
                "search_news",
                json!({"query": "typhoon \"Wipha\" update", "filters": {"lang": ["en", "zh"]}})
            ),
        ]
    );
    streams_like_parse(reply);
    // With no arguments, and cut off in the second call.
    let reply = "<tool_calls>\n<tool_call>get_time<tool_sep>\n</tool_call>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Shen";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "get_time", json!({}))]);
    assert!(r.content.unwrap().ends_with("<arg_value>Shen"));
    streams_like_parse(reply);
}

#[test]
fn hunyuan_a13b() {
    let reply = "<think>\nThe user asked for two cities.\n</think>\n<answer>\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Beijing\"}}, {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Shanghai\", \"extra\": {\"units\": \"metric\"}}}]</tool_calls>\n</answer>";
    let r = parse(reply);
    assert_eq!(r.content, None);
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_weather", json!({"city": "Beijing"})),
            call(
                None,
                "get_weather",
                json!({"city": "Shanghai", "extra": {"units": "metric"}})
            ),
        ]
    );
    streams_like_parse(reply);
    // A call quoted in the reasoning is not a call; the answer's text is content.
    let reply = "<think>\nI could use <tool_calls>[{\"name\": \"get_weather\", \"arguments\": {}}]</tool_calls> but the user gave no city.\n</think>\n<answer>\n助手：Which city do you mean?\n</answer>";
    let r = parse(reply);
    assert!(r.tool_calls.is_empty());
    assert_eq!(
        r.content.as_deref(),
        Some("<answer>\n助手：Which city do you mean?\n</answer>")
    );
}
