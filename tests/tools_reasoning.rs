//! Reasoning written with a family's own markers is never calls and never content: MiniMax M3
//! `<mm:think>`, LongCat `<longcat_think>`, Apertus `<|inner_prefix|>`, Gemma 4
//! `<|channel>thought…<channel|>` (Seed-OSS, Cohere and Hy3 are in their families' files).
//! A call quoted in the reasoning is not a call; a closer with no opener (the opener was in
//! the prompt) means all before it was reasoning. Each reply also streamed in many chunkings.

mod common;

use common::{call, streams_like_parse};
use llmout::tools::{parse, Stream};
use serde_json::json;

const NS: &str = "]<]minimax[>[";

#[test]
fn minimax_m3_reasoning() {
    let quoted = format!("{NS}<tool_call>{NS}<invoke name=\"rm\">{NS}<path>/{NS}</path>{NS}</invoke>{NS}</tool_call>");
    let real = format!("{NS}<tool_call>{NS}<invoke name=\"ls\">{NS}<dir>/tmp{NS}</dir>{NS}</invoke>{NS}</tool_call>");
    let reply =
        format!("<mm:think>I could call {quoted} but that is wrong.</mm:think>Listing it.\n{real}");
    let r = parse(&reply);
    assert_eq!(r.content.as_deref(), Some("Listing it."));
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/tmp"}))]);
    streams_like_parse(&reply);
    // The opener in the prompt: the reply starts inside the reasoning. The live view cannot
    // know that until the closer comes; then it starts again, and ends with `parse`'s calls.
    let reply = format!("Maybe {quoted}.</mm:think>{real}");
    let r = parse(&reply);
    assert_eq!(r.content, None);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({"dir": "/tmp"}))]);
    let mut s = Stream::new();
    for c in reply.chars() {
        s.push(&c.to_string());
    }
    assert_eq!(s.calls(), &r.tool_calls[..]);
    assert_eq!(s.finish(), r);
}

#[test]
fn longcat_reasoning() {
    let reply = "<longcat_think>\nShould I <longcat_tool_call>{\"name\": \"rm\", \"arguments\": {\"path\": \"/\"}}</longcat_tool_call>? No.\n</longcat_think>\nOpening it.<longcat_tool_call>{\"name\": \"open\", \"arguments\": {\"path\": \"a \\\"b\\\".txt\"}}</longcat_tool_call>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Opening it."));
    assert_eq!(
        r.tool_calls,
        [call(None, "open", json!({"path": "a \"b\".txt"}))]
    );
    streams_like_parse(reply);
}

#[test]
fn apertus_reasoning() {
    let reply = "<|inner_prefix|>I might use <|tools_prefix|>[{\"delete_all\": {}}]<|tools_suffix|> here.<|inner_suffix|>Both at once.<|tools_prefix|>[{\"get_weather\": {\"city\": \"Bern\"}}, {\"get_time\": {\"tz\": \"Europe/Zurich\"}}]<|tools_suffix|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Both at once."));
    assert_eq!(
        r.tool_calls,
        [
            call(None, "get_weather", json!({"city": "Bern"})),
            call(None, "get_time", json!({"tz": "Europe/Zurich"})),
        ]
    );
    streams_like_parse(reply);
}

#[test]
fn gemma4_reasoning() {
    let reply = "<|channel>thought\nThe user wants a listing. <|tool_call>call:rm{path:<|\"|>/<|\"|>}<tool_call|> would be wrong.<channel|>Listing.<|tool_call>call:ls{dir:<|\"|>/tmp<|\"|>,all:true}<tool_call|>";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Listing."));
    assert_eq!(
        r.tool_calls,
        [call(None, "ls", json!({"dir": "/tmp", "all": true}))]
    );
    streams_like_parse(reply);
    // Reasoning never closed: nothing after its opener is a call or content.
    let reply = "Let me think.<|channel>thought\n<|tool_call>call:rm{}<tool_call|>";
    let r = parse(reply);
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.content.as_deref(), Some("Let me think."));
    streams_like_parse(reply);
}

#[test]
fn a_reasoning_tag_in_a_json_argument_is_text() {
    // A call's argument that mentions a reasoning tag: the tag is the string's text. (It hid
    // the rest of the reply, or, opener and closer both in the string, left out what stood
    // between them without a word.)
    for content in [
        "Use <think> tags to reason",
        "a <think>b</think> c",
        "ends with </think>",
        "<seed:think>x</seed:think>",
    ] {
        let args = json!({"path": "notes.md", "content": content});
        let reply = format!(
            "<think>I will write the notes.</think>Writing.\n<tool_call>{}</tool_call>",
            json!({"name": "write", "arguments": args})
        );
        let r = parse(&reply);
        assert_eq!(r.content.as_deref(), Some("Writing."), "{reply}");
        assert_eq!(r.tool_calls, [call(None, "write", args)], "{reply}");
        assert!(r.warnings.is_empty(), "{reply}: {:?}", r.warnings);
        streams_like_parse(&reply);
    }
    // In a pythonic call's arguments too, in either quote.
    for reply in [
        "[write(path='a.md', content='Use <think> tags')]",
        "<|python_tag|>write(path=\"a.md\", content=\"a <think>b</think> c\")",
    ] {
        let r = parse(reply);
        let content = if reply.starts_with('[') {
            "Use <think> tags"
        } else {
            "a <think>b</think> c"
        };
        assert_eq!(
            r.tool_calls,
            [call(
                None,
                "write",
                json!({"path": "a.md", "content": content})
            )],
            "{reply}"
        );
        streams_like_parse(reply);
    }
    // Outside the call's JSON the tags are reasoning as ever, quoted or not.
    let reply = "I can't \"stop\" (not yet.</think><tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call>";
    let r = parse(reply);
    assert_eq!(r.content, None);
    assert_eq!(r.tool_calls, [call(None, "ls", json!({}))]);
    streams_like_parse(reply);
}

#[test]
fn a_reasoning_tag_in_a_parameter_value_is_text() {
    // A parameter element's text is the value, reasoning tags and all: an opener alone hid
    // the rest of the reply, a closer alone everything before it, and a pair what stood
    // between them, without a word.
    let ns = concat!("antml", ":");
    for value in [
        "a <think>b</think> c",
        "Use <think> tags",
        "ends with </think>",
    ] {
        for reply in [
            format!("<tool_call>\n<function=write>\n<parameter=content>\n{value}\n</parameter>\n</function>\n</tool_call>"),
            format!("<function_calls>\n<invoke name=\"write\">\n<parameter name=\"content\">{value}</parameter>\n</invoke>\n</function_calls>"),
            format!("<{ns}function_calls>\n<{ns}invoke name=\"write\">\n<{ns}parameter name=\"content\">{value}</{ns}parameter>\n</{ns}invoke>\n</{ns}function_calls>"),
            format!("<tool_call>write\n<arg_key>content</arg_key>\n<arg_value>{value}</arg_value>\n</tool_call>"),
            format!("<tool_calls:opensource>\n<tool_call:opensource>write<tool_sep:opensource>\n<arg_key:opensource>content</arg_key:opensource>\n<arg_value:opensource>{value}</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>"),
            format!("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write\">\n<｜DSML｜parameter name=\"content\" string=\"true\">{value}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
            format!("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"write\"><steptml:parameter name=\"content\">{value}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"),
            format!("<function name=\"write\"><param name=\"content\">{value}</param></function>"),
            format!("{NS}<tool_call>\n{NS}<invoke name=\"write\">\n{NS}<content>{value}{NS}</content>\n{NS}</invoke>\n{NS}</tool_call>"),
            format!("{NS}<tool_call>{NS}  <invoke name=\"write\">{NS}<content>{value}{NS}</content>{NS}</invoke>{NS}</tool_call>"),
        ] {
            let reply = format!("<think>Write it.</think>Writing.\n{reply}");
            let r = parse(&reply);
            assert_eq!(r.content.as_deref(), Some("Writing."), "{reply}");
            assert_eq!(
                r.tool_calls,
                [call(None, "write", json!({"content": value}))],
                "{reply}"
            );
            assert!(r.warnings.is_empty(), "{reply}: {:?}", r.warnings);
            streams_like_parse(&reply);
        }
    }
    // In MiniMax M3, where arguments are elements named after them, the same holds of an
    // object's member; an `<invoke` without the namespace token before it is no call.
    let reply = format!("{NS}<tool_call>{NS}<invoke name=\"edit\">{NS}<change>{NS}<old>x</think>{NS}</old>{NS}<new><think>y{NS}</new>{NS}</change>{NS}</invoke>{NS}</tool_call>");
    let r = parse(&reply);
    assert_eq!(r.content, None);
    assert_eq!(
        r.tool_calls,
        [call(
            None,
            "edit",
            json!({"change": {"old": "x</think>", "new": "<think>y"}})
        )]
    );
    streams_like_parse(&reply);
    let reply = "Say <invoke name=\"a\"> <think>hidden</think>shown";
    assert_eq!(
        parse(reply).content.as_deref(),
        Some("Say <invoke name=\"a\"> shown")
    );
    streams_like_parse(reply);
    // Reasoning after the parameter's closer is reasoning again.
    let reply = "<function_calls>\n<invoke name=\"a\">\n<parameter name=\"p\">1</parameter>\n</invoke>\n</function_calls><think>done?</think>Done.";
    let r = parse(reply);
    assert_eq!(r.content.as_deref(), Some("Done."));
    assert_eq!(r.tool_calls, [call(None, "a", json!({"p": 1}))]);
    streams_like_parse(reply);
}
