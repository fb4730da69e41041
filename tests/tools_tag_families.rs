//! Families whose calls sit between `<tool_call>` / `<tool_calls>`-like tags: xLAM and
//! Granite 4 JSON arrays, GLM calls with no arguments, Tencent HY v3 (its tokens bare or
//! suffixed) and Hunyuan A13B.
//! Several replies each, each also streamed in many chunkings.

mod common;

use common::{call, streams_like_parse, streams_to_parse_calls};
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
fn tencent_hy3_with_suffixed_tokens() {
    // The released Hy3 tokenizers append `:opensource` to every special token, reasoning
    // included; a call quoted in the reasoning is not a call.
    let reply = "<think:opensource>The user wants both. I could write <tool_calls:opensource><tool_call:opensource>rm<tool_sep:opensource></tool_call:opensource></tool_calls:opensource> but no.</think:opensource>Looking up both.\n<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Shenzhen \"Futian\"</arg_value:opensource>\n<arg_key:opensource>filters</arg_key:opensource>\n<arg_value:opensource>{\"days\": [1, 2], \"note\": \"a \\\"b\\\"\"}</arg_value:opensource>\n</tool_call:opensource>\n<tool_call:opensource>get_current_date<tool_sep:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Looking up both."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Shenzhen \"Futian\"", "filters": {"days": [1, 2], "note": "a \"b\""}})
            ),
            call(None, "get_current_date", json!({})),
        ]
    );
    assert_eq!(r.needs_more_work, Some(true));
    streams_like_parse(reply);

    // Low and high effort: the opener of the reasoning is in the prompt, the reply starts
    // inside it. Another checkpoint's suffix, and the first key right after the name.
    let reply = "The user asks for the time in Tokyo.</think:6124c78e>\n<tool_calls:6124c78e><tool_call:6124c78e>get_time<arg_key:6124c78e>tz</arg_key:6124c78e><arg_value:6124c78e>Asia/Tokyo</arg_value:6124c78e></tool_call:6124c78e></tool_calls:6124c78e>";
    let r = parse(reply);
    assert_eq!(r.content, None);
    assert_eq!(
        r.tool_calls,
        [call(None, "get_time", json!({"tz": "Asia/Tokyo"}))]
    );
    streams_like_parse(reply);

    // Cut off in the second call: the first is read, the rest stays content, said.
    let reply = "Sure.<tool_calls:opensource><tool_call:opensource>search<tool_sep:opensource><arg_key:opensource>q</arg_key:opensource><arg_value:opensource>rust</arg_value:opensource></tool_call:opensource><tool_call:opensource>open<tool_sep:opensource><arg_key:opensource>url</arg_key:opensource><arg_value:opensource>https://ex";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "search", json!({"q": "rust"}))]);
    assert_eq!(
        r.content.as_deref(),
        Some("Sure.<tool_call:opensource>open<tool_sep:opensource><arg_key:opensource>url</arg_key:opensource><arg_value:opensource>https://ex")
    );
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].path, "/tool_calls/1");
    streams_like_parse(reply);

    // Inside a wrapper that is read, a call that is no call (a key with no value) stays
    // content.
    let broken = "<tool_call:opensource>a<tool_sep:opensource><arg_key:opensource>x</arg_key:opensource></tool_call:opensource>";
    let reply = format!("<tool_calls:opensource>{broken}\n<tool_call:opensource>b<tool_sep:opensource></tool_call:opensource></tool_calls:opensource>");
    let r = parse(&reply);
    assert_eq!(r.tool_calls, [call(None, "b", json!({}))]);
    assert_eq!(r.content.as_deref(), Some(broken));
    streams_to_parse_calls(&reply);

    // A call whose arguments are not key and value pairs is no call; nor is a tag whose
    // suffix has a space in it.
    for reply in [
        "<tool_calls:opensource><tool_call:opensource>get_time<tool_sep:opensource><arg_key:opensource>tz</arg_key:opensource></tool_call:opensource></tool_calls:opensource>",
        "<tool_calls: opensource><tool_call: opensource>get_time<tool_sep: opensource></tool_call: opensource></tool_calls: opensource>",
    ] {
        let r = parse(reply);
        assert!(r.tool_calls.is_empty(), "{reply}");
        assert_eq!(r.content.as_deref(), Some(reply));
        streams_like_parse(reply);
    }
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

#[test]
fn longcat() {
    let reply = "I'll search and then open the top result.\n<longcat_tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"\\\"longcat\\\" flash release\", \"top_k\": 3}}\n</longcat_tool_call><longcat_tool_call>\n{\"name\": \"open_page\", \"arguments\": {\"url\": \"https://example.com/{id}\", \"headers\": {\"Accept\": \"text/html\"}}}\n</longcat_tool_call>";
    let r = parse(reply);
    assert_eq!(
        r.content.as_deref(),
        Some("I'll search and then open the top result.")
    );
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "web_search",
                json!({"query": "\"longcat\" flash release", "top_k": 3})
            ),
            call(
                None,
                "open_page",
                json!({"url": "https://example.com/{id}", "headers": {"Accept": "text/html"}})
            ),
        ]
    );
    streams_like_parse(reply);
    let cut = "<longcat_tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"long";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn granite_20b_function_call_and_the_function_call_wrapper() {
    // granite-20b-functioncalling: one marker per call, no closer, parallel calls.
    let reply = "<function_call> {\"name\": \"get_stock_price\", \"arguments\": {\"ticker\": \"IBM\", \"range\": {\"from\": \"2024-01-01\"}}} <function_call> {\"name\": \"get_news\", \"arguments\": {\"topic\": \"IBM \\\"Q3\\\" earnings\"}}";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_stock_price",
                json!({"ticker": "IBM", "range": {"from": "2024-01-01"}})
            ),
            call(None, "get_news", json!({"topic": "IBM \"Q3\" earnings"})),
        ]
    );
    assert_eq!(r.content, None);
    streams_like_parse(reply);
    // The wrapper some models invent, with a JSON call or a tool's name alone.
    let reply = "Moving the camera first.\n<function-call>move_camera</function-call>\n<function-call>{\"name\": \"fly_to\", \"arguments\": {\"place\": \"Tokyo\"}}</function-call>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Moving the camera first."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "move_camera", json!({})),
            call(None, "fly_to", json!({"place": "Tokyo"})),
        ]
    );
    streams_like_parse(reply);
    let cut = "<function_call> {\"name\": \"get_news\", \"arguments\": {\"topic\": \"IB";
    assert!(parse(cut).tool_calls.is_empty());
}

#[test]
fn cohere_command() {
    let reply = "<|START_THINKING|>I will search for both, then compare. Maybe <|START_ACTION|>[]<|END_ACTION|> is not needed.<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"web_search\", \"parameters\": {\"query\": \"tallest \\\"penguin\\\" species\"}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"web_search\", \"parameters\": {\"query\": \"penguin heights\", \"filters\": {\"site\": [\"wikipedia.org\"]}}}\n]<|END_ACTION|>";
    let r = parse(reply);
    assert_eq!(r.content, None);
    assert_eq!(
        r.tool_calls,
        [
            call(
                Some("0"),
                "web_search",
                json!({"query": "tallest \"penguin\" species"})
            ),
            call(
                Some("1"),
                "web_search",
                json!({"query": "penguin heights", "filters": {"site": ["wikipedia.org"]}})
            ),
        ]
    );
    streams_like_parse(reply);
    // Command R's older form: `Action:` then a fenced JSON list; the marker and the fence
    // are not content, the plan is. Live as well.
    let reply = "Plan: I will search for the height, then for the \"largest\" colony.\nAction: ```json\n[\n    {\"tool_name\": \"internet_search\", \"parameters\": {\"query\": \"emperor penguin height\", \"filters\": {\"lang\": [\"en\"]}}},\n    {\"tool_name\": \"internet_search\", \"parameters\": {\"query\": \"largest \\\"penguin\\\" colony\"}}\n]\n```";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "internet_search",
                json!({"query": "emperor penguin height", "filters": {"lang": ["en"]}})
            ),
            call(
                None,
                "internet_search",
                json!({"query": "largest \"penguin\" colony"})
            ),
        ]
    );
    assert_eq!(
        r.content.as_deref(),
        Some("Plan: I will search for the height, then for the \"largest\" colony.")
    );
    streams_like_parse(reply);
    // Cut off inside the list: no call, the text kept.
    let cut = "Action: ```json\n[\n    {\"tool_name\": \"internet_search\", \"parameters\": {\"query\": \"emp";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
    let cut = "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"web_search\", \"parameters\": {\"qu";
    assert!(parse(cut).tool_calls.is_empty());
}

#[test]
fn apertus() {
    let reply = "Sure, both at once.<|tools_prefix|>[{\"get_weather\": {\"city\": \"Bern\", \"units\": \"metric\"}}, {\"get_events\": {\"city\": \"Bern\", \"tags\": [\"music\", \"\\\"open air\\\"\"]}}]<|tools_suffix|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Sure, both at once."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Bern", "units": "metric"})
            ),
            call(
                None,
                "get_events",
                json!({"city": "Bern", "tags": ["music", "\"open air\""]})
            ),
        ]
    );
    streams_like_parse(reply);
    let cut = "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Be";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn gigachat3() {
    let reply = "Checking the rate now.<|message_sep|>function call<|role_sep|>\n{\"name\": \"get_exchange_rate\", \"arguments\": {\"from\": \"RUB\", \"to\": \"EUR\", \"options\": {\"date\": \"today\"}}}";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Checking the rate now."));
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "get_exchange_rate",
            json!({"from": "RUB", "to": "EUR", "options": {"date": "today"}})
        )]
    );
    streams_like_parse(reply);
    let reply =
        "<|function_call|>{\"name\": \"search\", \"arguments\": {\"q\": \"\\\"GigaChat\\\" 3\"}}";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(None, "search", json!({"q": "\"GigaChat\" 3"}))]
    );
    streams_like_parse(reply);
    let cut = "function call<|role_sep|>\n{\"name\": \"search\", \"arguments\": {\"q\": \"Gig";
    assert!(parse(cut).tool_calls.is_empty());
}

#[test]
fn lfm2() {
    let reply = "<|tool_call_start|>[get_weather(city=\"Paris\", metric=true, extra={\"fields\": [\"wind\"]}), get_time(tz=null)]<|tool_call_end|>Checking both now.";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Checking both now."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Paris", "metric": true, "extra": {"fields": ["wind"]}})
            ),
            call(None, "get_time", json!({"tz": null})),
        ]
    );
    streams_like_parse(reply);
    // The JSON form.
    let reply = "<|tool_call_start|>[{\"name\": \"calculator\", \"arguments\": {\"expression\": \"5 * (7 + 1)\"}}]<|tool_call_end|>";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "calculator",
            json!({"expression": "5 * (7 + 1)"})
        )]
    );
    streams_like_parse(reply);
    let cut = "<|tool_call_start|>[get_weather(city=\"Par";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn olmo3_pythonic_lines_in_function_calls() {
    let reply = "<function_calls>\nget_weather(city=\"Boston\", detailed=true)\nsearch_web(query='boston \"marathon\" route', limit=5, opts={\"safe\": false})\n</function_calls>";
    let r = parse(reply);
    assert_eq!(r.content, None);
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Boston", "detailed": true})
            ),
            call(
                None,
                "search_web",
                json!({"query": "boston \"marathon\" route", "limit": 5, "opts": {"safe": false}})
            ),
        ]
    );
    streams_like_parse(reply);
    let cut = "<function_calls>\nget_weather(city=\"Bos";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}
