//! `tools::Stream` on realistic replies of every family, fed in many chunkings: `finish` is
//! `parse`; the calls seen live are the calls `parse` finds, in order, each appearing once and
//! never changing; a call's name is shown before the call ends; every argument the live view
//! reports complete already has its final value.

mod common;

use common::chunks::chunks;
use llmout::stream::FieldState;
use llmout::tools::{parse, Stream, ToolCall};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Replies of every family, each with the name of its first call (the live view must show it
/// before that call ends).
const REPLIES: &[(&str, &str)] = &[
    // Hermes / Qwen JSON calls, closer optional.
    (
        "I'll check both files.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"src/{lib}.rs\", \"lines\": [1, 20]}}\n</tool_call>\n<tool_call>\n{\"name\": \"grep\", \"arguments\": {\"pattern\": \"fn \\\"main\\\"\", \"flags\": {\"i\": true}}}",
        "read_file",
    ),
    (
        "<think>Which file? <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call></think>Reading it.\n<tool_call>{\"name\": \"cat\", \"arguments\": {\"path\": \"a b.txt\"}}</tool_call>",
        "cat",
    ),
    // GLM-4.5 keys and values.
    (
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        "get_weather",
    ),
    // Qwen3-Coder, inside and outside <tool_call>.
    (
        "<tool_call>\n<function=write_file>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\ndef f():\n    return {\"a\": 1}\n</parameter>\n</function>\n</tool_call>",
        "write_file",
    ),
    (
        "Listing.\n<function=ls>\n<parameter=dir>\n/tmp\n</parameter>\n</function>\n<function=pwd>\n</function>",
        "ls",
    ),
    // Anthropic invoke, with and without the wrapper.
    (
        "Checking.\n<invoke name=\"search\">\n<parameter name=\"q\">rust \"serde\" {derive}</parameter>\n<parameter name=\"limit\">5</parameter>\n</invoke>\nDone.",
        "search",
    ),
    (
        "<function_calls>\n<invoke name=\"get_time\">\n<parameter name=\"tz\">UTC</parameter>\n</invoke>\n<invoke name=\"get_date\">\n</invoke>\n</function_calls>",
        "get_time",
    ),
    (
        "<function_calls>[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {\"name\": \"b\", \"arguments\": {\"y\": \"}]\"}}]</function_calls>",
        "a",
    ),
    // Mistral: array, name{json}, [ARGS], [CALL_ID].
    (
        "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"get_time\", \"arguments\": {}}]",
        "get_weather",
    ),
    (
        "On it.[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"units\": \"metric\"}[TOOL_CALLS]get_time[ARGS]{\"tz\": \"CET\"}",
        "get_weather",
    ),
    (
        "[TOOL_CALLS]search[CALL_ID]abc123XYZ[ARGS]{\"q\": \"llm json {repair}\"}",
        "search",
    ),
    // Llama 3.1 python_tag.
    (
        "<|python_tag|>{\"name\": \"calc\", \"parameters\": {\"expr\": \"1+2\"}}; {\"name\": \"now\", \"parameters\": {}}",
        "calc",
    ),
    // DeepSeek V3 and V3.1.
    (
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "get_weather",
    ),
    (
        "Sure.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{\"q\": \"rust\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>open<｜tool▁sep｜>{\"url\": \"https://a.b/{c}\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "search",
    ),
    // Kimi K2.
    (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
        "get_weather",
    ),
    // Granite, Jamba/MiniMax, Phi-4, InternLM.
    (
        "<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]",
        "get_weather",
    ),
    (
        "<tool_calls>\n{\"name\": \"a\", \"arguments\": {\"n\": 1}}\n{\"name\": \"b\", \"arguments\": {\"n\": 2}}\n</tool_calls>",
        "a",
    ),
    (
        "functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]",
        "get_weather",
    ),
    (
        "Let me search.<|action_start|><|plugin|>{\"name\": \"search\", \"parameters\": {\"q\": \"x\"}}<|action_end|>",
        "search",
    ),
    // gpt-oss harmony.
    (
        "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
        "get_weather",
    ),
    // Gemma.
    (
        "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>",
        "get_weather",
    ),
    // Pythonic: whole reply, python_start, UI-TARS.
    (
        "[get_weather(city='Paris', days=3), now()]",
        "get_weather",
    ),
    (
        "<|python_start|>[search(q=\"rust (lang)\", n=[1, 2])]<|python_end|>",
        "search",
    ),
    (
        "Thought: The button is at the top.\nAction: click(start_box='(10,20)')",
        "click",
    ),
    // No marker: JSON envelope, OpenAI shape, bare call, array; fenced and in prose.
    (
        "{\"content\": \"Reading.\", \"tool_calls\": [{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}, {\"name\": \"ls\", \"arguments\": {}}], \"needs_more_work\": true}",
        "read",
    ),
    (
        "```json\n{\"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Paris\\\"}\"}}]}\n```",
        "get_weather",
    ),
    (
        "Here you go: {\"name\": \"search\", \"arguments\": {\"q\": \"a \\\"quoted\\\" {thing}\"}}",
        "search",
    ),
    (
        "[{\"name\": \"a\", \"arguments\": {\"k\": [1, {\"x\": null}]}}, {\"name\": \"b\", \"arguments\": {}}]",
        "a",
    ),
    // Llama 3 JSON calls after prose, separated by `;`.
    (
        "Both now. {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}; {\"name\": \"get_time\", \"parameters\": {}}",
        "get_weather",
    ),
    // Llama 3.3 pythonic after the tag; LFM2; OLMo 3.
    (
        "<|python_tag|>[get_weather(city=\"San Francisco\"), get_time(tz='PST')]<|eom_id|>",
        "get_weather",
    ),
    (
        "<|tool_call_start|>[get_weather(city=\"Paris\", metric=true)]<|tool_call_end|>Checking.",
        "get_weather",
    ),
    (
        "<function_calls>\nget_weather(city=\"Boston\")\nget_time(tz=\"EST\")\n</function_calls>",
        "get_weather",
    ),
    // DeepSeek V3.2 DSML, MiniMax M2 and M3, Step-3, MiniCPM, Seed-OSS.
    (
        "Checking.\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Hangzhou</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        "get_weather",
    ),
    (
        "<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.rs</parameter>\n</invoke>\n<invoke name=\"ls\">\n</invoke>\n</minimax:tool_call>",
        "read_file",
    ),
    (
        "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
        "get_weather",
    ),
    (
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"search\"><steptml:parameter name=\"q\">rust</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
        "search",
    ),
    (
        "<function name=\"calc\"><param name=\"expr\">1 + 2</param></function>",
        "calc",
    ),
    (
        "<seed:think>Maybe <seed:tool_call><function=rm></function></seed:tool_call>.</seed:think><seed:tool_call>\n<function=read_file>\n<parameter=path>\na.yaml\n</parameter>\n</function>\n</seed:tool_call>",
        "read_file",
    ),
    // HY v3, GLM without arguments after a call with them.
    (
        "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>\n</tool_calls>",
        "get_weather",
    ),
    (
        "<tool_call>list_events<arg_key>day</arg_key><arg_value>today</arg_value></tool_call><tool_call>get_time</tool_call>",
        "list_events",
    ),
    // LongCat, Granite-20B-FC, Cohere, Apertus, GigaChat, Kimi's other ids.
    (
        "<longcat_tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"a\"}}\n</longcat_tool_call><longcat_tool_call>\n{\"name\": \"open\", \"arguments\": {}}\n</longcat_tool_call>",
        "search",
    ),
    (
        "<function_call> {\"name\": \"get_stock\", \"arguments\": {\"t\": \"IBM\"}} <function_call> {\"name\": \"get_news\", \"arguments\": {}}",
        "get_stock",
    ),
    (
        "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"web_search\", \"parameters\": {\"query\": \"rust\"}}]<|END_ACTION|>",
        "web_search",
    ),
    (
        "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Bern\"}}, {\"get_time\": {}}]<|tools_suffix|>",
        "get_weather",
    ),
    (
        "Checking.<|message_sep|>function call<|role_sep|>\n{\"name\": \"get_rate\", \"arguments\": {\"to\": \"EUR\"}}",
        "get_rate",
    ),
    (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions_get_weather_0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>",
        "get_weather",
    ),
    // FunctionGemma, Gemma's `key=value`, harmony's recipient in the role header.
    (
        "<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>",
        "get_weather",
    ),
    (
        "<|tool_call>call:find{origin='LHR', n=2}<tool_call|>",
        "find",
    ),
    (
        "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Oslo\"}<|call|>",
        "get_weather",
    ),
];

/// Feeds `reply` in chunks of the given sizes (cycled) and checks every property; returns the
/// stream's finished result's calls.
fn stream_in(reply: &str, sizes: &[usize], first: &str) {
    let final_calls = parse(reply).tool_calls;
    let mut s = Stream::new();
    let mut seen_name_before_end = false;
    let (mut at, mut k) = (0, 0);
    while at < reply.len() {
        let mut end = (at + sizes[k % sizes.len()].max(1)).min(reply.len());
        while !reply.is_char_boundary(end) {
            end += 1;
        }
        s.push(&reply[at..end]);
        at = end;
        k += 1;
        // The calls seen so far are the first final calls, as they will be.
        let live = s.calls();
        assert!(
            live.len() <= final_calls.len() && live[..] == final_calls[..live.len()],
            "{reply:?} at {at}: live {live:?}, final {final_calls:?}"
        );
        if let Some(current) = s.current() {
            let index = live.len();
            if current.name == Some(first) && index == 0 {
                seen_name_before_end = true;
            }
            if let (Some(name), Some(fin)) = (current.name, final_calls.get(index)) {
                assert_eq!(name, fin.name, "{reply:?} at {at}");
            }
            check_arguments(reply, at, &current, final_calls.get(index));
        }
    }
    assert_eq!(s.calls(), &final_calls[..], "{reply:?} in chunks {sizes:?}");
    // With small chunks there is a moment when the first name is written and its call is
    // not complete yet: the live view must show the name then.
    if sizes.iter().all(|&n| n <= 3) {
        assert!(
            seen_name_before_end,
            "{reply:?}: {first} shown only at the end"
        );
    }
    assert_eq!(s.finish(), parse(reply));
}

/// Every top-level argument the live view calls complete has its final value.
fn check_arguments(
    reply: &str,
    at: usize,
    current: &llmout::tools::CallInProgress<'_>,
    fin: Option<&ToolCall>,
) {
    let (Some(Value::Object(args)), Some(fin)) = (current.arguments(), fin) else {
        return;
    };
    for (key, value) in args {
        let pointer = format!("/{key}");
        if current.state(&pointer) == FieldState::Complete {
            assert_eq!(
                Some(value),
                fin.arguments.get(key),
                "{reply:?} at {at}: {key}"
            );
        }
    }
}

#[test]
fn every_family_streams_to_the_calls_parse_finds() {
    for (reply, first) in REPLIES {
        assert!(!parse(reply).tool_calls.is_empty(), "{reply:?} has no call");
        for sizes in [
            &[1][..],
            &[2],
            &[3],
            &[5, 1, 8],
            &[7],
            &[13, 2],
            &[64],
            &[100_000],
        ] {
            stream_in(reply, sizes, first);
        }
    }
}

#[test]
fn a_name_and_arguments_as_they_arrive() {
    let mut s = Stream::new();
    s.push("I'll write it.\n<invoke name=\"write_file\">\n<parameter name=\"path\">src/main.rs</parameter>\n<parameter name=\"content\">fn main() {\n    println!(\"hi");
    let c = s.current().unwrap();
    assert_eq!(c.name, Some("write_file"));
    assert_eq!(
        c.arguments(),
        Some(&json!({"path": "src/main.rs", "content": "fn main() {\n    println!(\"hi"}))
    );
    assert_eq!(c.state("/path"), FieldState::Complete);
    assert_eq!(c.state("/content"), FieldState::InProgress);
    assert_eq!(c.state("/mode"), FieldState::NotStarted);
    // A closer split across chunks is not shown as text.
    s.push("\");\n}</para");
    assert_eq!(
        s.current().unwrap().arguments().unwrap()["content"],
        "fn main() {\n    println!(\"hi\");\n}"
    );
    s.push("meter>\n</invoke>");
    assert!(s.current().is_none());
    assert_eq!(
        s.calls()[0].arguments["content"],
        "fn main() {\n    println!(\"hi\");\n}"
    );
}

#[test]
fn json_arguments_stream_with_states() {
    let mut s = Stream::new();
    s.push("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Par");
    let c = s.current().unwrap();
    assert_eq!(c.name, Some("get_weather"));
    assert_eq!(c.arguments(), Some(&json!({"city": "Par"})));
    assert_eq!(c.state("/city"), FieldState::InProgress);
    s.push("is\", \"days\": 1");
    let c = s.current().unwrap();
    assert_eq!(c.complete_as::<String>("/city").as_deref(), Some("Paris"));
    assert_eq!(c.state("/days"), FieldState::InProgress); // 1 may become 10
    assert_eq!(c.complete_as::<u32>("/days"), None);
    s.push("0}");
    assert_eq!(s.calls()[0].arguments["days"], 10);
}

#[test]
fn a_json_call_shows_its_name_once_written() {
    let mut s = Stream::new();
    s.push("<tool_call>{\"name\": \"read_fi");
    assert_eq!(s.current().unwrap().name, None);
    s.push("le\", \"arguments\": {\"path\": \"a");
    let c = s.current().unwrap();
    assert_eq!(c.name, Some("read_file"));
    assert_eq!(c.arguments(), Some(&json!({"path": "a"})));
}

#[test]
fn json_the_live_view_does_not_follow_is_read_when_the_call_ends() {
    let reply = "<tool_call>{name: 'search', arguments: {q: 'x'}}</tool_call>";
    let mut s = Stream::new();
    s.push(&reply[..30]);
    assert!(s.stalled());
    assert!(s.calls().is_empty());
    s.push(&reply[30..]);
    assert_eq!(s.calls(), &parse(reply).tool_calls[..]);
    assert_eq!(s.calls()[0].arguments["q"], "x");
}

#[test]
fn reasoning_and_a_dangling_closer() {
    let mut s = Stream::new();
    s.push("maybe <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call>");
    assert_eq!(s.calls().len(), 1);
    // The closer says all of it was reasoning.
    s.push("</think>Nothing to do.");
    assert!(s.calls().is_empty());
    assert!(s.finish().tool_calls.is_empty());
}

#[test]
fn a_truncated_reply_has_a_current_call_and_no_final_one() {
    let reply = "<invoke name=\"ls\">\n<parameter name=\"dir\">/tm";
    let mut s = Stream::new();
    s.push(reply);
    assert_eq!(s.current().unwrap().name, Some("ls"));
    assert!(s.calls().is_empty());
    assert!(s.finish().tool_calls.is_empty());
}

#[test]
fn hostile_inputs_in_small_chunks_finish_as_parse() {
    const N: usize = 1 << 14;
    let cases = [
        "<invoke name=\"x\"".repeat(N / 16),
        format!(
            "<invoke name=\"f\">{}",
            "<parameter name=\"p\"".repeat(N / 22)
        ),
        "<tool_call>".repeat(N / 11),
        format!("<|python_tag|>{}", " ".repeat(N)),
        format!("[f({}", "(".repeat(N)),
        "[TOOL_CALLS]f[ARGS]{\"a\": 1}".repeat(N / 24),
        format!("<think>{}", "<".repeat(N)),
        "<".repeat(N),
        format!(
            "{{\"name\": \"f\", \"arguments\": {{\"a\": \"{}\"}}}}",
            "x".repeat(N)
        ),
        format!("<|channel|>commentary to=functions.f {}", "x".repeat(N)),
        format!("<｜tool▁call▁begin｜>{}", "y".repeat(N)),
        "<｜DSML｜invoke name=\"x\"".repeat(N / 24),
        "<minimax:tool_call><invoke name=\"f\"></invoke></minimax:tool_call>".repeat(N / 62),
        "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>".repeat(N / 60),
        "<seed:think>".repeat(N / 12),
        "<seed:tool_call><function=f><parameter=p>".repeat(N / 41),
        "<longcat_tool_call>".repeat(N / 19),
        "<function_call>".repeat(N / 15),
        "<start_function_call>call:f{a:<escape>".repeat(N / 38),
        format!("<|tool_call>call:f{{a:{}", "[".repeat(N)),
        "<|tools_prefix|>[{\"f\": {}}]".repeat(N / 27),
        "<|START_ACTION|>[".repeat(N / 17),
        "<|tool_call_start|>[f(".repeat(N / 22),
        format!("<tool_calls>{}", "<tool_call>f<tool_sep>".repeat(N / 21)),
        format!(
            "Go. {}",
            "{\"name\": \"a\", \"parameters\": {}}; ".repeat(N / 34)
        ),
        format!("[{}", "f(a=1), ".repeat(N / 8)),
        "<|start|>assistant to=functions.f".repeat(N / 32),
        "<|END_THINKING|>x".repeat(N / 17),
        format!(
            "<tool_calls:opensource>{}",
            "<tool_call:opensource>f<tool_sep:opensource>".repeat(N / 44)
        ),
        format!("<tool_call:opensource>{}", "x".repeat(N)),
        format!("<tool_call:{}", "y".repeat(N)),
        "<think:opensource>".repeat(N / 18),
        format!("]<]minimax[>[<{}", "z".repeat(N)),
        format!(
            "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">{}",
            "]<]minimax[>[ \n".repeat(N / 16)
        ),
        "<mm:think>".repeat(N / 10),
        "Action: ```json\n[".repeat(N / 18),
    ];
    for text in cases {
        let mut s = Stream::new();
        for chunk in chunks(&text, 7) {
            s.push(chunk);
            let _ = s.current().map(|c| c.arguments());
        }
        assert_eq!(s.text(), text);
        let calls = s.calls().to_vec();
        let r = s.finish();
        assert_eq!(r, parse(&text), "{}", &text[..40.min(text.len())]);
        // What the live view completed is what parse found.
        assert!(calls.len() <= r.tool_calls.len() && calls[..] == r.tool_calls[..calls.len()]);
    }
    // The repeated Mistral calls are all read live.
    let text = "[TOOL_CALLS]f[ARGS]{\"a\": 1}".repeat(100);
    let mut s = Stream::new();
    for chunk in chunks(&text, 3) {
        s.push(chunk);
    }
    assert_eq!(s.calls().len(), 100);
}

/// A reply with no marker whose prose holds words in brackets before its calls (`see [1]`,
/// `[x]`): the live view, which cannot follow such a value, goes on past its brackets to the
/// calls, as `parse` tries the reply's spans in turn. It stalled there, and showed the calls
/// only at `finish`.
#[test]
fn words_in_brackets_before_the_calls_are_passed_by() {
    for reply in [
        "Models mark calls with [x] before them.\n{\"name\": \"lookup\", \"arguments\": {\"id\": 7}}",
        "See [docs] and [a, b] then {\"name\": \"lookup\", \"arguments\": {\"id\": 7}}; {\"name\": \"x\", \"arguments\": {}}",
    ] {
        assert!(!parse(reply).tool_calls.is_empty(), "{reply}");
        common::streams_like_parse(reply);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_chunkings(i in 0..REPLIES.len(), sizes in proptest::collection::vec(1usize..12, 1..8)) {
        let (reply, first) = REPLIES[i];
        stream_in(reply, &sizes, first);
    }

    /// Replies with no marker made of prose lines and fences (of calls, of code, of calls
    /// then text, of JSON that is no call, left open, a call cut off at the end), in any
    /// chunks: the live calls are the first calls `parse` finds and, at the end, all of them.
    #[test]
    fn calls_in_fences_stream_as_parse_reads_them(
        blocks in proptest::collection::vec(
            (
                proptest::sample::select(vec!["Sure.\n", "text ``` inline\n", "\n"]),
                proptest::sample::select(vec![
                    ("```json\n", "```\n"), ("```\n", "```"), ("~~~\n", "~~~\n"),
                    ("  ```\n", "  ```\n"), ("```python\n", "```\n"),
                ]),
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        "{\"name\": \"a\", \"arguments\": {\"k\": \"v\"}}\n",
                        "{\"name\": \"b\", \"arguments\": {}}; {\"name\": \"a\", \"arguments\": {}}\n",
                        "[{\"name\": \"c\", \"arguments\": {}}, {\"name\": \"d\", \"arguments\": {}}],\n",
                        "{\"note\": \"```\"}\n", "x = {1: 2}\n", "\n", "as asked\n",
                    ]),
                    0..3,
                ),
            ),
            0..6,
        ),
        cut in proptest::sample::select(vec![
            "",
            "```json\n{\"name\": \"e\", \"arguments\": {\"q\": \"cut",
            "```json\n{\"name\": \"e\", \"arguments\": {}}\n",
        ]),
        size in 1usize..9,
    ) {
        let mut reply = String::new();
        for (prose, (open, close), body) in &blocks {
            reply.push_str(prose);
            reply.push_str(open);
            reply.extend(body.iter().copied());
            reply.push_str(close);
        }
        reply.push_str(cut);
        let expected = parse(&reply).tool_calls;
        let mut s = Stream::new();
        for chunk in chunks(&reply, size) {
            s.push(chunk);
            let live = s.calls();
            prop_assert!(
                live.len() <= expected.len() && live[..] == expected[..live.len()],
                "{:?}: live {:?}, parse {:?}", reply, live, expected
            );
        }
        prop_assert_eq!(s.calls(), &expected[..], "{:?}", reply);
    }

    #[test]
    fn any_text_in_any_chunks_never_panics_and_finishes_as_parse(
        parts in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(vec![
                    "<tool_call>", "</tool_call>", "{", "}", "[", "]", "\"", "'", ":", ",", "name",
                    "\"name\": \"f\"", "\"arguments\": ", "<invoke name=\"f\">", "</invoke>",
                    "<parameter name=\"p\">", "</parameter>", "[TOOL_CALLS]", "[ARGS]", "f(", ")",
                    "<|python_tag|>", "<think>", "</think>", "<function=f>", "<parameter=p>",
                    "<|channel|>", "to=functions.f", "<|message|>", "<|call|>", "Action:", "\n",
                    "<|tool_call>", "call:f{", "<tool_call|>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>",
                    "<tool_calls:opensource>", "<tool_call:opensource>", "<tool_sep:opensource>",
                    "</tool_call:opensource>", "<arg_key:opensource>", "</think:opensource>",
                    "]<]minimax[>[", " ", "<invoke name=\"f\">", "```json\n", "<mm:think>",
                ]).prop_map(str::to_owned),
                any::<char>().prop_map(String::from),
            ],
            0..40,
        ),
        size in 1usize..9,
    ) {
        let reply = parts.concat();
        let mut s = Stream::new();
        let chars: Vec<char> = reply.chars().collect();
        for chunk in chars.chunks(size) {
            s.push(&chunk.iter().collect::<String>());
            let _ = s.current().map(|c| (c.arguments(), c.state("")));
        }
        prop_assert_eq!(s.finish(), parse(&reply));
    }
}

/// A call the text mentions (after "for example", or quoted in a sentence) is never shown as
/// a call, in any chunking, and the call after it is.
#[test]
fn a_mentioned_call_is_not_shown() {
    let reply = "For example:\n{\"name\": \"rm\", \"arguments\": {\"path\": \"/\"}}\nInstead, I run `{\"name\": \"ls\", \"arguments\": {}}` now.\nDone:\n{\"name\": \"pwd\", \"arguments\": {}}";
    let fin = parse(reply);
    assert_eq!(
        fin.tool_calls
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["pwd"]
    );
    for size in [1, 2, 5, 17, reply.len()] {
        let mut s = Stream::new();
        let mut at = 0;
        while at < reply.len() {
            let end = (at + size).min(reply.len());
            s.push(&reply[at..end]);
            at = end;
            assert!(s.calls().iter().all(|c| c.name == "pwd"), "{size} at {at}");
            assert!(s
                .current()
                .is_none_or(|c| c.name != Some("rm") && c.name != Some("ls")));
        }
        assert_eq!(s.calls(), &fin.tool_calls[..], "{size}");
    }
}
