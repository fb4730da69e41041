//! Families that write each call as an element with parameter elements inside: DeepSeek
//! V3.2 / V4 DSML, MiniMax M2, StepFun Step-3, MiniCPM, ByteDance Seed-OSS. Several replies
//! each: several calls, text around, JSON and quotes in values, a call cut off, a call
//! quoted inside reasoning; and each reply streamed in many chunkings.

mod common;

use common::{call, streams_like_parse, streams_to_parse_calls};
use llmout::tools::parse;
use serde_json::json;

#[test]
fn deepseek_v32_dsml() {
    let reply = "<think>Two cities, so two calls.</think>I'll fetch both forecasts.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_forecast\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Hangzhou</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"get_forecast\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Beijing</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("I'll fetch both forecasts."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_forecast", json!({"city": "Hangzhou", "days": 3})),
            call(None, "get_forecast", json!({"city": "Beijing", "days": 1})),
        ]
    );
    streams_like_parse(reply);
}

#[test]
fn deepseek_dsml_string_values_stay_text_and_json_values_are_json() {
    // `string="true"`: the text as written, even when it looks like JSON or a number.
    let reply = "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">007.json</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">{\"note\": \"say \\\"hi\\\"\"}</｜DSML｜parameter>\n<｜DSML｜parameter name=\"options\" string=\"false\">{\"mode\": 420, \"tags\": [\"a\", \"b\"]}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>\nWritten.";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "write_file",
            json!({
                "path": "007.json",
                "content": "{\"note\": \"say \\\"hi\\\"\"}",
                "options": {"mode": 420, "tags": ["a", "b"]}
            })
        )]
    );
    assert_eq!(r.content.as_deref(), Some("Written."));
    streams_like_parse(reply);
}

#[test]
fn deepseek_dsml_cut_off_and_quoted_in_reasoning() {
    // Cut off inside the second call: the first is a call, the second is not.
    let reply = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"ls\">\n<｜DSML｜parameter name=\"dir\" string=\"true\">/srv</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"rm\">\n<｜DSML｜parameter name=\"path\" string=\"true\">/srv/ol";
    let r = parse(reply);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/srv"}))]);
    assert_eq!(r.warnings.len(), 1);
    assert!(r.content.unwrap().ends_with("/srv/ol"));
    streams_like_parse(reply);
    // Written inside the reasoning: not a call.
    let reply = "<think>I could call <｜DSML｜invoke name=\"rm\"><｜DSML｜parameter name=\"path\" string=\"true\">/</｜DSML｜parameter></｜DSML｜invoke> but that is unsafe.</think>I won't delete anything.";
    let r = parse(reply);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("I won't delete anything."));
}

#[test]
fn minimax_m2() {
    let reply = "<think>\nThe user wants two files.\n</think>\n\nReading both files now.\n<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">src/main.rs</parameter>\n<parameter name=\"range\">[1, 80]</parameter>\n</invoke>\n<invoke name=\"read_file\">\n<parameter name=\"path\">docs/\"quoted\" name.md</parameter>\n</invoke>\n</minimax:tool_call>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Reading both files now."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "read_file",
                json!({"path": "src/main.rs", "range": [1, 80]})
            ),
            call(
                None,
                "read_file",
                json!({"path": "docs/\"quoted\" name.md"})
            ),
        ]
    );
    streams_like_parse(reply);
}

#[test]
fn minimax_m2_nested_json_and_a_cut_off_call() {
    let reply = "<minimax:tool_call>\n<invoke name=\"create_issue\">\n<parameter name=\"title\">Crash on {empty} input</parameter>\n<parameter name=\"labels\">{\"kind\": \"bug\", \"areas\": [\"parser\", \"cli\"]}</parameter>\n</invoke>\n<invoke name=\"notify\">\n<parameter name=\"channel\">#eng";
    let r = parse(reply);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "create_issue",
            json!({"title": "Crash on {empty} input", "labels": {"kind": "bug", "areas": ["parser", "cli"]}})
        )]
    );
    assert_eq!(r.warnings.len(), 1);
    assert!(r
        .content
        .unwrap()
        .contains("<parameter name=\"channel\">#eng"));
    streams_like_parse(reply);
}

#[test]
fn step3() {
    let reply = "Searching first.<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"web_search\"><steptml:parameter name=\"query\">\"rust\" async book</steptml:parameter><steptml:parameter name=\"top_k\">5</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"open_url\"><steptml:parameter name=\"url\">https://example.org/a?b=1&c=2</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Searching first."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "web_search",
                json!({"query": "\"rust\" async book", "top_k": 5})
            ),
            call(
                None,
                "open_url",
                json!({"url": "https://example.org/a?b=1&c=2"})
            ),
        ]
    );
    streams_like_parse(reply);
    let cut = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"web_search\"><steptml:parameter name=\"query\">half a qu";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
    streams_like_parse(cut);
}

#[test]
fn minicpm() {
    let reply = "Let me work that out.\n<function name=\"calculate\"><param name=\"expression\"><![CDATA[if a < b && c > \"d\" { 1 }]]></param><param name=\"precision\">4</param></function>\n<function name=\"current_time\"></function>\nBoth are on their way.";
    let r = parse(reply);
    assert_eq!(
        r.content.as_deref(),
        Some("Let me work that out.\n\n\nBoth are on their way.")
    );
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "calculate",
                json!({"expression": "if a < b && c > \"d\" { 1 }", "precision": 4})
            ),
            call(None, "current_time", json!({})),
        ]
    );
    streams_like_parse(reply);
    let cut = "<function name=\"calculate\"><param name=\"expression\">1 +";
    assert!(parse(cut).tool_calls.is_empty());
}

#[test]
fn seed_oss() {
    let reply = "<seed:think>Should I call <seed:tool_call><function=delete_all></function></seed:tool_call>? No, reading is enough.</seed:think>Reading the config.\n<seed:tool_call>\n<function=read_file>\n<parameter=path>\nconfig/app.yaml\n</parameter>\n<parameter=lines>\n[1, 40]\n</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=grep>\n<parameter=pattern>\n\"port\": \\d+\n</parameter>\n</function>\n</seed:tool_call>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Reading the config."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "read_file",
                json!({"path": "config/app.yaml", "lines": [1, 40]})
            ),
            call(None, "grep", json!({"pattern": "\"port\": \\d+"})),
        ]
    );
    streams_like_parse(reply);
    // Cut off mid-parameter: no call.
    let cut = "<seed:tool_call>\n<function=read_file>\n<parameter=path>\nconfig/ap";
    let r = parse(cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut));
}

#[test]
fn minimax_m3() {
    let ns = "]<]minimax[>[";
    let reply = format!(
        "Checking the forecast.\n{ns}<tool_call>\n{ns}<invoke name=\"get_weather\">\n{ns}<city>Paris \"centre\"{ns}</city>\n{ns}<days>3{ns}</days>\n{ns}<fields>{ns}<item>temp{ns}</item>{ns}<item>wind{ns}</item>{ns}</fields>\n{ns}<opts>{ns}<units>metric{ns}</units>{ns}</opts>\n{ns}</invoke>\n{ns}<invoke name=\"get_time\">\n{ns}</invoke>\n{ns}</tool_call>"
    );
    let r = parse(&reply);
    assert_eq!(r.content.as_deref(), Some("Checking the forecast."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "get_weather",
                json!({"city": "Paris \"centre\"", "days": 3, "fields": ["temp", "wind"], "opts": {"units": "metric"}})
            ),
            call(None, "get_time", json!({})),
        ]
    );
    streams_like_parse(&reply);
    // Cut off inside an argument: no call.
    let cut = format!("{ns}<tool_call>\n{ns}<invoke name=\"get_weather\">\n{ns}<city>Par");
    let r = parse(&cut);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some(cut.as_str()));
    streams_like_parse(&cut);
}

#[test]
fn minimax_m3_an_argument_given_twice_is_an_array() {
    // Read as a map and, where calls are written as they come, element by element: alike.
    let ns = "]<]minimax[>[";
    let reply = format!(
        "{ns}<tool_call>\n{ns}<invoke name=\"tag\">\n{ns}<label>a{ns}</label>\n{ns}<n>1{ns}</n>\n{ns}<label>{{\"b\": 2}}{ns}</label>\n{ns}</invoke>\n{ns}<invoke name=\"one\">\n{ns}<label>a{ns}</label>\n{ns}</invoke>\n{ns}</tool_call>"
    );
    assert_eq!(
        parse(&reply).tool_calls,
        [
            call(None, "tag", json!({"label": ["a", {"b": 2}], "n": 1})),
            call(None, "one", json!({"label": "a"})),
        ]
    );
    streams_like_parse(&reply);
}

#[test]
fn minimax_m3_white_space_between_the_token_and_its_tag() {
    // The serving projects drop white space between the namespace token and the tag it
    // prefixes; models write newlines and spaces there.
    let ns = "]<]minimax[>[";
    let reply = format!(
        "I will create it.\n{ns}\n<tool_call>\n{ns} <invoke name=\"create_order\">\n{ns}\n<user_id>42{ns}\n</user_id>\n{ns}\t<note>Leave it at the \"front\" desk.{ns} </note>\n{ns}\r\n<items>{ns} <item>{ns}<sku>book-001{ns}</sku>{ns}<qty>2{ns}</qty>{ns}</item>{ns}\n</items>\n{ns}\n</invoke>\n{ns} <invoke name=\"notify\">{ns}\n</invoke>\n{ns}\n</tool_call>\nDone."
    );
    let r = parse(&reply);
    assert_eq!(r.content.as_deref(), Some("I will create it.\n\nDone."));
    assert_eq!(
        r.tool_calls,
        [
            call(
                None,
                "create_order",
                json!({"user_id": 42, "note": "Leave it at the \"front\" desk.", "items": [{"sku": "book-001", "qty": 2}]})
            ),
            call(None, "notify", json!({})),
        ]
    );
    streams_like_parse(&reply);
    // A call that the next one begins before its closer is no call; the next one is.
    let reply = format!(
        "{ns}<tool_call>{ns} <invoke name=\"a\">{ns}<x>1{ns}</x>\n{ns} <invoke name=\"b\">{ns}<y>2{ns}</y>{ns} </invoke>{ns}</tool_call>"
    );
    let r = parse(&reply);
    assert_eq!(r.tool_calls, [call(None, "b", json!({"y": 2}))]);
    assert_eq!(
        r.content.as_deref(),
        Some(format!("{ns} <invoke name=\"a\">{ns}<x>1{ns}</x>").as_str())
    );
    assert_eq!(r.warnings[0].path, "/tool_calls/0");
    streams_to_parse_calls(&reply);
    // More white space than a gap may hold: the token is text, no call.
    let reply = format!(
        "{ns}{}<tool_call>{ns}<invoke name=\"a\">{ns}</invoke>",
        " ".repeat(70)
    );
    let r = parse(&reply);
    assert_eq!(r.tool_calls, [call(None, "a", json!({}))]);
    assert_eq!(
        r.content.as_deref(),
        Some(format!("{ns}{}<tool_call>", " ".repeat(70)).as_str())
    );
    streams_like_parse(&reply);
}

/// A JSON object written in place of the parameters is the call's arguments, in every family
/// that writes calls as elements; the fixes it needed are said at the call's arguments.
#[test]
fn a_json_object_in_place_of_the_parameters_is_the_arguments() {
    let calls = [
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n{ARGS}\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        "<minimax:tool_call>\n<invoke name=\"get_weather\">\n{ARGS}\n</invoke>\n</minimax:tool_call>",
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">{ARGS}</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
        "<seed:tool_call><function=get_weather>{ARGS}</function></seed:tool_call>",
    ];
    for form in calls {
        let reply = format!(
            "Checking.\n\n{}",
            form.replace("{ARGS}", r#"{"city": "Beijing", "days": [1, 2]}"#)
        );
        let r = parse(&reply);
        assert_eq!(r.content.as_deref(), Some("Checking."), "{reply}");
        assert_eq!(
            r.tool_calls,
            [call(
                None,
                "get_weather",
                json!({"city": "Beijing", "days": [1, 2]})
            )],
            "{reply}"
        );
        assert_eq!(r.warnings, [], "{reply}");
        streams_like_parse(&reply);

        let reply = form.replace("{ARGS}", "{city: 'Beijing',}");
        let r = parse(&reply);
        assert_eq!(
            r.tool_calls,
            [call(None, "get_weather", json!({"city": "Beijing"}))],
            "{reply}"
        );
        let said: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
        // The key quoted, the value's quotes, the trailing comma.
        let args = "/tool_calls/0/arguments";
        assert_eq!(
            said,
            [args, "/tool_calls/0/arguments/city", args],
            "{reply}"
        );
        streams_like_parse(&reply);
    }
}

/// A parameter's value keeps its own line breaks: only the ones that lay it out, one after
/// the opener and then one before the closer, are dropped. A value written right after its
/// opener keeps the line break it ends in (an edit tool's `old_string` must match exactly).
#[test]
fn a_parameter_keeps_the_line_break_it_ends_in() {
    let step3 = |value: &str| {
        format!("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"edit\"><steptml:parameter name=\"old\">{value}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>")
    };
    let seed = |value: &str| {
        format!("<seed:tool_call><function=edit><parameter=old>{value}</parameter></function></seed:tool_call>")
    };
    for write in [step3, seed] {
        for (written, value) in [
            ("return 1\n", "return 1\n"),
            (
                "    if x:\n        return 1\n",
                "    if x:\n        return 1\n",
            ),
            ("\nreturn 1\n", "return 1"),
            ("\nreturn 1\n\n", "return 1\n"),
            ("  two spaces each side  ", "  two spaces each side  "),
        ] {
            let reply = write(written);
            let r = parse(&reply);
            assert_eq!(
                r.tool_calls,
                [call(None, "edit", json!({ "old": value }))],
                "{reply:?}"
            );
            streams_like_parse(&reply);
        }
    }
}
