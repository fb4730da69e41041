//! `tools::parse_compact` writes each call from the reply's text (a JSON call laid out in its
//! repaired text, parameters written as they are read) where `parse` builds a map: the two
//! agree, byte for byte, on calls of every size, in the syntaxes that take each path. Large
//! arguments (past the 64 KiB at which a call keeps its own text, or a parameter is never
//! made a value, or a pythonic argument is repaired to its JSON text) are made by padding a
//! generated call with a long member. A member of raw control characters (which no JSON
//! writer writes: it is put in the reply's text after) makes a call whose JSON would be six
//! times its value, which `parse_compact` holds as its value.

mod common;
#[path = "../llmout/tests/strategies/mod.rs"]
mod strategies;

use common::compact_like_parse;
use llmout::tools::parse;
use proptest::prelude::*;
use serde_json::{Map, Value};

fn text() -> impl Strategy<Value = String> {
    // Escapes, quotes, non-ASCII, and the markers' own characters.
    proptest::string::string_regex("[a-zA-Z0-9 {}\\[\\]\"'<>=:,/\\\\\\n\\té😀.-]{0,12}").unwrap()
}

fn json() -> impl Strategy<Value = Value> {
    strategies::json(text().boxed(), "[a-z_]{1,6}".boxed(), 4, 32, 5)
}

/// A call's arguments: generated members, and maybe a long one (a string or an array of
/// small objects) that makes them large.
fn arguments() -> impl Strategy<Value = Map<String, Value>> {
    let members = proptest::collection::vec(("[a-z_]{1,8}", json()), 0..5);
    (members, 0..4u8).prop_map(|(members, pad)| {
        let mut args: Map<String, Value> = members.into_iter().collect();
        match pad {
            1 => {
                args.insert(
                    "content".into(),
                    Value::String("line \"x\"\n".repeat(9_000)),
                );
            }
            2 => {
                let rows = (0..4_000).map(|i| serde_json::json!({"id": i, "v": [1.5, "é"]}));
                args.insert("rows".into(), Value::Array(rows.collect()));
            }
            3 => {
                args.insert("raw".into(), Value::String(RAW.into()));
            }
            _ => {}
        }
        args
    })
}

/// A string put in the reply as a run of raw control characters (see [`raw`]).
const RAW: &str = "\u{1}RAW\u{1}";

/// `reply` with [`RAW`] as the reply writes it (escaped as JSON, escaped twice in a JSON
/// string, or as it is) replaced by raw control characters: about 70 KB more as JSON.
fn raw(reply: String) -> String {
    if !reply.contains("RAW") {
        return reply;
    }
    let run = format!(
        "{}tab\there{}\r\nend",
        "\u{1}".repeat(12_000),
        "\u{1f}".repeat(2_000)
    );
    reply
        .replace(r"\\u0001RAW\\u0001", &run)
        .replace(r"\u0001RAW\u0001", &run)
        .replace(RAW, &run)
}

/// The calls written in one of the syntaxes that each path reads.
fn reply() -> impl Strategy<Value = String> {
    let calls = proptest::collection::vec(("[a-z_]{1,10}", arguments()), 1..3);
    (calls, 0..13u8, any::<bool>()).prop_map(|(calls, syntax, spaced)| {
        let js = |v: &Value| {
            if spaced {
                serde_json::to_string_pretty(v).unwrap()
            } else {
                v.to_string()
            }
        };
        // A parameter's value as its text (a string, `as_text`) or as JSON.
        let param = |v: &Value, as_text: bool| match v {
            Value::String(s) if as_text => s.clone(),
            v => js(v),
        };
        let call = |(name, args): &(String, Map<String, Value>)| {
            serde_json::json!({"name": name, "arguments": args})
        };
        let mut out = String::from("Working on it.\n");
        match syntax {
            // One JSON array of calls in a Hermes element.
            0 => {
                let all: Vec<Value> = calls.iter().map(call).collect();
                out.push_str(&format!("<tool_call>{}</tool_call>", js(&Value::from(all))));
            }
            // A Hermes element a call.
            1 => {
                for c in &calls {
                    out.push_str(&format!("<tool_call>\n{}\n</tool_call>\n", js(&call(c))));
                }
            }
            // No marker: OpenAI's envelope, arguments as a JSON string.
            2 => {
                let items: Vec<Value> = calls
                    .iter()
                    .enumerate()
                    .map(|(i, (name, args))| {
                        serde_json::json!({"id": format!("c{i}"), "type": "function",
                            "function": {"name": name, "arguments": Value::Object(args.clone()).to_string()}})
                    })
                    .collect();
                out = js(&serde_json::json!({"content": "", "tool_calls": items}));
            }
            // Mistral's `[ARGS]`: the arguments alone.
            3 => {
                for (name, args) in &calls {
                    out.push_str(&format!("[TOOL_CALLS]{name}[ARGS]{}", js(&Value::Object(args.clone()))));
                }
            }
            // Qwen3-Coder's parameters, each value as JSON or, a string, as its text.
            4 | 5 => {
                for (name, args) in &calls {
                    out.push_str(&format!("<tool_call>\n<function={name}>\n"));
                    for (k, v) in args {
                        let text = param(v, syntax == 4);
                        out.push_str(&format!("<parameter={k}>\n{text}\n</parameter>\n"));
                    }
                    out.push_str("</function>\n</tool_call>\n");
                }
            }
            // Pythonic calls, in a list or one a line, their values Python literals.
            7 | 8 => {
                let all: Vec<String> = (calls.iter())
                    .map(|(name, args)| {
                        let args: Vec<String> = args.iter().map(|(k, v)| format!("{k}={}", python(v))).collect();
                        format!("{name}({})", args.join(", "))
                    })
                    .collect();
                out = if syntax == 7 { format!("[{}]", all.join(", ")) } else { all.join("\n") };
            }
            // Gemma's keys and values: strings in its quote token, the rest as JSON.
            9 => {
                for (name, args) in &calls {
                    let args: Vec<String> = (args.iter())
                        .map(|(k, v)| match v {
                            Value::String(s) => format!("{k}:<|\"|>{s}<|\"|>"),
                            v => format!("{k}:{}", js(v)),
                        })
                        .collect();
                    out.push_str(&format!("<|tool_call>call:{name}{{{}}}<tool_call|>", args.join(",")));
                }
            }
            // Hunyuan's key and value pairs, each value as JSON or, a string, as its text.
            10 => {
                out.push_str("<tool_calls:opensource>\n");
                for (name, args) in &calls {
                    out.push_str(&format!("<tool_call:opensource>{name}<tool_sep:opensource>\n"));
                    for (k, v) in args {
                        let text = param(v, spaced);
                        out.push_str(&format!("<arg_key:opensource>{k}</arg_key:opensource>\n<arg_value:opensource>{text}</arg_value:opensource>\n"));
                    }
                    out.push_str("</tool_call:opensource>\n");
                }
                out.push_str("</tool_calls:opensource>");
            }
            // Apertus: each call an object whose one key is the tool's name.
            11 => {
                let all: Vec<Value> = (calls.iter())
                    .map(|(name, args)| serde_json::json!({name.as_str(): args}))
                    .collect();
                out.push_str(&format!("<|tools_prefix|>{}<|tools_suffix|>", js(&Value::from(all))));
            }
            // MiniMax M3's elements, each argument's value as its text or as JSON.
            12 => {
                const NS: &str = "]<]minimax[>[";
                out.push_str(&format!("{NS}<tool_call>\n"));
                for (name, args) in &calls {
                    out.push_str(&format!("{NS}<invoke name=\"{name}\">\n"));
                    for (k, v) in args {
                        let text = param(v, spaced);
                        out.push_str(&format!("{NS}<{k}>{text}{NS}</{k}>\n"));
                    }
                    out.push_str(&format!("{NS}</invoke>\n"));
                }
                out.push_str(&format!("{NS}</tool_call>"));
            }
            // Llama's JSON after `<|python_tag|>`, calls separated by `;`.
            _ => {
                let all: Vec<String> = calls.iter().map(|c| js(&call(c))).collect();
                out.push_str(&format!("<|python_tag|>{}", all.join("; ")));
            }
        }
        raw(out)
    })
}

/// `v` as a Python literal: `True`, `None`, strings in single quotes.
fn python(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!(
            "'{}'",
            s.replace('\\', "\\\\")
                .replace('\'', "\\'")
                .replace('\n', "\\n")
        ),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(python).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => {
            let members: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", python(&Value::from(k.as_str())), python(v)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn compact_calls_are_the_calls_parse_builds(reply in reply()) {
        compact_like_parse(&reply, &parse(&reply));
    }
}
