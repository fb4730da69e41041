//! The `tools` module docs list every family with its markers and an example reply: each
//! example must give the calls listed here, the same in `parse`, `parse_with_tools` and
//! `tools::Stream` (the CLI is checked in `llmout/tests/cli_tools.rs`), so the table cannot
//! drift from what the library reads; and each family's marker followed by no call leaves
//! every word of the reply as content.

mod common;

use common::streams_like_parse;
use common::table::{code_spans, rows, Row};
use llmout::tools::{parse, parse_with_tools, ToolDef};
use serde_json::{json, Value};

fn table() -> Vec<Row> {
    rows(include_str!("../llmout/src/tools/mod.rs"))
}

/// The first example reply of a row.
fn example(row: &Row) -> String {
    code_spans(&row.examples)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{}: no example", row.family))
}

/// What each row's example gives: the calls as `[id, name, arguments]`, in table order.
fn expected() -> Vec<(&'static str, Value)> {
    let ls = json!([null, "ls", {}]);
    let ls_root = json!([null, "ls", {"dir": "/"}]);
    vec![
        (
            "JSON (no marker)",
            json!([[null, "ls", {"dir": "/"}], [null, "pwd", {}]]),
        ),
        (
            "pythonic (Llama 3.2 / 4, no marker)",
            json!([[null, "get_weather", {"city": "Paris", "days": [1, 2]}], [null, "now", {}]]),
        ),
        (
            "`<function_calls>` (also `antml:`-prefixed; OLMo 3)",
            json!([ls]),
        ),
        ("Anthropic", json!([[null, "search", {"q": "rust"}]])),
        ("Hermes / Qwen / xLAM / Granite 4 / GLM", json!([ls])),
        ("Qwen3-Coder", json!([[null, "ls", {"dir": "/tmp"}]])),
        ("Mistral", json!([["a1b2c3d4e", "get_time", {"tz": "UTC"}]])),
        ("Llama 3.1-3.3", json!([ls, [null, "pwd", {}]])),
        ("Llama 4", json!([[null, "search", {"q": "rust"}]])),
        ("DeepSeek V3 / V3.1", json!([ls_root])),
        ("DeepSeek V3.2 / V4 (DSML)", json!([ls_root])),
        ("Kimi K2", json!([["functions.ls:0", "ls", {"dir": "/"}]])),
        ("Granite", json!([ls])),
        ("Granite 20B FC, `<function-call>`", json!([ls])),
        ("Jamba / MiniMax-Text / Hunyuan A13B / HY v3", json!([ls])),
        ("Hy3 (released tokenizers)", json!([ls_root])),
        ("Phi-4", json!([ls])),
        ("InternLM", json!([ls])),
        ("gpt-oss harmony", json!([ls_root])),
        ("Gemma", json!([[null, "ls", {"dir": "/tmp", "all": true}]])),
        ("FunctionGemma", json!([[null, "ls", {"dir": "/tmp"}]])),
        (
            "UI-TARS, Command R",
            json!([[null, "click", {"start_box": "(10,20)"}]]),
        ),
        ("MiniMax M2", json!([ls_root])),
        ("MiniMax M3", json!([ls_root])),
        ("Step-3", json!([ls_root])),
        ("MiniCPM", json!([ls_root])),
        ("Seed-OSS", json!([ls_root])),
        ("LongCat", json!([ls])),
        ("Cohere Command", json!([["0", "ls", {}]])),
        ("Apertus", json!([ls_root])),
        ("GigaChat 3", json!([ls])),
        ("LFM2", json!([ls_root])),
    ]
}

/// A response's calls as `[id, name, arguments]`.
fn calls(r: &llmout::tools::ToolCallResponse) -> Value {
    r.tool_calls
        .iter()
        .map(|c| json!([c.id, c.name, c.arguments]))
        .collect()
}

#[test]
fn every_example_in_the_table_gives_its_calls() {
    let rows = table();
    let expected = expected();
    let families: Vec<&str> = rows.iter().map(|r| r.family.as_str()).collect();
    let listed: Vec<&str> = expected.iter().map(|(f, _)| *f).collect();
    assert_eq!(families, listed);
    for (row, (_, want)) in rows.iter().zip(&expected) {
        let example = example(row);
        assert_eq!(
            calls(&parse(&example)),
            *want,
            "{}: {example:?}",
            row.family
        );
    }
}

/// `parse_with_tools`, given a definition for every tool the example calls, reads the same
/// calls with no warning and no error; the stream, in many chunkings, agrees with `parse`.
#[test]
fn every_example_reads_alike_with_definitions_and_streamed() {
    for row in table() {
        let example = example(&row);
        let r = parse(&example);
        let defs: Vec<ToolDef> = r
            .tool_calls
            .iter()
            .map(|c| ToolDef {
                name: c.name.clone(),
                description: None,
                parameters: json!({"type": "object"}),
            })
            .collect();
        let typed = parse_with_tools(&example, &defs);
        assert_eq!(typed.tool_calls, r.tool_calls, "{}", row.family);
        assert_eq!(typed.content, r.content, "{}", row.family);
        assert_eq!(typed.warnings, r.warnings, "{}", row.family);
        assert!(
            typed.errors.is_empty(),
            "{}: {:?}",
            row.family,
            typed.errors
        );
        streams_like_parse(&example);
    }
}

/// Each family's first marker (up to its `…`), then words that are no call: no call, and
/// every word stays content, before and after the marker.
#[test]
fn a_marker_followed_by_no_call_leaves_the_words_as_content() {
    for row in table().iter().filter(|r| !r.markers.starts_with("none")) {
        let marker = code_spans(&row.markers).into_iter().next().unwrap();
        let opener = marker.split('…').next().unwrap();
        let reply = format!("Before. {opener}I am not sure which tool fits. After.");
        let r = parse(&reply);
        assert_eq!(r.tool_calls, [], "{}: {reply:?}", row.family);
        let content = r.content.unwrap_or_default();
        for words in ["Before.", "I am not sure which tool fits. After."] {
            assert!(
                content.contains(words),
                "{}: {reply:?} gives {content:?}",
                row.family
            );
        }
        streams_like_parse(&reply);
    }
}
