//! Every family of the `tools` module docs, on the same realistic replies written in its own
//! syntax: two calls with text around them, arguments holding nested JSON and quotes, a call
//! quoted inside the family's reasoning (not a call), and the reply cut off inside the second
//! call (the first is still a call, the cut text stays content). Each reply is also streamed
//! in many chunkings and must agree with `parse` (see `common::streams_like_parse`).

mod common;

use common::{call, streams_like_parse};
use llmout::tools::{parse, ToolCall};
use serde_json::{json, Map, Value};

/// A call to write: a name and its arguments (an object).
struct Call {
    name: &'static str,
    args: Value,
}

fn a() -> Call {
    Call {
        name: "read_file",
        args: json!({"path": "src/\"quoted\" name.rs", "opts": {"lines": [1, 2], "mode": "r"}}),
    }
}

fn b() -> Call {
    Call {
        name: "search",
        args: json!({"query": "it's \"here\", {braces} [1]", "limit": 5}),
    }
}

/// The call quoted in the reasoning.
fn quoted() -> Call {
    Call {
        name: "delete_all",
        args: json!({"force": true}),
    }
}

fn args(c: &Call) -> &Map<String, Value> {
    c.args.as_object().unwrap()
}

/// The arguments as JSON text.
fn js(c: &Call) -> String {
    c.args.to_string()
}

/// A `{"name", "arguments"}` call.
fn json_call(c: &Call) -> String {
    json!({"name": c.name, "arguments": c.args}).to_string()
}

fn json_array(calls: &[Call]) -> String {
    format!(
        "[{}]",
        calls.iter().map(json_call).collect::<Vec<_>>().join(", ")
    )
}

/// A parameter's value as text: a string as it is, anything else as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// Pythonic: `name(k=v, …)`, values as JSON (which the Python-literal reader reads).
fn py(c: &Call) -> String {
    let kv: Vec<String> = args(c).iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{}({})", c.name, kv.join(", "))
}

fn py_list(calls: &[Call]) -> String {
    format!("[{}]", calls.iter().map(py).collect::<Vec<_>>().join(", "))
}

/// Each parameter written with `f(key, value text)`.
fn params(c: &Call, f: impl Fn(&str, &str) -> String) -> String {
    args(c).iter().map(|(k, v)| f(k, &text(v))).collect()
}

/// Anthropic's `<invoke>` elements (MiniMax M2 writes the same inside its own wrapper).
fn invokes(cs: &[Call]) -> String {
    cs.iter()
        .map(|c| {
            let ps = params(c, |k, v| {
                format!("<parameter name=\"{k}\">{v}</parameter>\n")
            });
            format!("<invoke name=\"{}\">\n{ps}</invoke>\n", c.name)
        })
        .collect()
}

/// GLM's keys and values (HY v3 writes them too, after `<tool_sep>`).
fn keys_and_values(c: &Call) -> String {
    params(c, |k, v| {
        format!("<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n")
    })
}

/// Gemma's braces: strings in the quote token, objects in braces, the rest as JSON.
fn braced(v: &Value, quote: &str) -> String {
    match v {
        Value::String(s) => format!("{quote}{s}{quote}"),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}:{}", braced(v, quote)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        v => v.to_string(),
    }
}

const NS: &str = "]<]minimax[>[";

/// MiniMax M3's elements: objects as children, arrays as `<item>`s.
fn m3(v: &Value) -> String {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{NS}<{k}>{}{NS}</{k}>\n", m3(v)))
            .collect(),
        Value::Array(items) => items
            .iter()
            .map(|v| format!("{NS}<item>{}{NS}</item>", m3(v)))
            .collect(),
        v => text(v),
    }
}

/// A family as a test writes it.
struct Family {
    name: &'static str,
    write: fn(&[Call]) -> String,
    /// Text around the calls.
    before: &'static str,
    after: &'static str,
    /// The content `parse` gives (the text around, as the family reads it).
    content: Option<&'static str>,
    /// Reasoning: opener and closer.
    think: (&'static str, &'static str),
    /// The ids `parse` gives the calls written, in order.
    ids: &'static [&'static str],
    /// Whether the first call is still read when the reply is cut off in the second.
    cut_keeps_first: bool,
}

const THINK: (&str, &str) = ("<think>", "</think>");

fn families() -> Vec<Family> {
    let f = |name,
             write: fn(&[Call]) -> String,
             before,
             after,
             content,
             think,
             ids: &'static [&'static str]| Family {
        name,
        write,
        before,
        after,
        content,
        think,
        ids,
        cut_keeps_first: true,
    };
    let around = Some("Checking both.\n\nDone.");
    let before_only = Some("Checking both.");
    let mut all = vec![
        f(
            "JSON calls after prose (Llama 3)",
            |cs| {
                cs.iter()
                    .map(|c| json!({"name": c.name, "parameters": c.args}).to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            },
            "Checking both. ",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "JSON envelope",
            |cs| {
                json!({"content": "Checking both.", "tool_calls": cs.iter().map(|c| json!({"name": c.name, "arguments": c.args})).collect::<Vec<_>>(), "needs_more_work": true}).to_string()
            },
            "",
            "",
            before_only,
            THINK,
            &[],
        ),
        f("pythonic list", py_list, "", "", None, THINK, &[]),
        f(
            "Anthropic <function_calls>",
            |cs| format!("<function_calls>\n{}</function_calls>", invokes(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "<function_calls> JSON",
            |cs| format!("<function_calls>{}</function_calls>", json_array(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "OLMo 3",
            |cs| {
                let lines: String = cs.iter().map(|c| format!("{}\n", py(c))).collect();
                format!("<function_calls>\n{lines}</function_calls>")
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Hermes",
            |cs| {
                cs.iter()
                    .map(|c| format!("<tool_call>\n{}\n</tool_call>\n", json_call(c)))
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "xLAM / Granite 4",
            |cs| format!("<tool_call>{}</tool_call>", json_array(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "GLM",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<tool_call>{}\n{}</tool_call>\n",
                            c.name,
                            keys_and_values(c)
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Qwen3-Coder",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<tool_call>\n<function={}>\n{}</function>\n</tool_call>\n",
                            c.name,
                            params(c, |k, v| format!("<parameter={k}>\n{v}\n</parameter>\n"))
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Mistral [ARGS]",
            |cs| {
                cs.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        format!("[TOOL_CALLS]{}[CALL_ID]c{i}x7Kp2Qa[ARGS]{}", c.name, js(c))
                    })
                    .collect()
            },
            "Checking both.",
            "",
            before_only,
            THINK,
            &["c0x7Kp2Qa", "c1x7Kp2Qa"],
        ),
        f(
            "Mistral array",
            |cs| format!("[TOOL_CALLS]{}", json_array(cs)),
            "Checking both.",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "Llama 3.1 <|python_tag|>",
            |cs| {
                let calls: Vec<String> = cs
                    .iter()
                    .map(|c| json!({"name": c.name, "parameters": c.args}).to_string())
                    .collect();
                format!("<|python_tag|>{}<|eom_id|>", calls.join("; "))
            },
            "Checking both.",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "Llama 3.3 <|python_tag|> pythonic",
            |cs| format!("<|python_tag|>{}<|eom_id|>", py_list(cs)),
            "Checking both.",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "Llama 4 <|python_start|>",
            |cs| format!("<|python_start|>{}<|python_end|>", py_list(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "DeepSeek V3.1",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "<｜tool▁call▁begin｜>{}<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
                            c.name,
                            js(c)
                        )
                    })
                    .collect();
                format!("<｜tool▁calls▁begin｜>{calls}<｜tool▁calls▁end｜>")
            },
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "DeepSeek V3",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{}\n```json\n{}\n```<｜tool▁call▁end｜>",
                            c.name,
                            js(c)
                        )
                    })
                    .collect();
                format!("<｜tool▁calls▁begin｜>{calls}<｜tool▁calls▁end｜>")
            },
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "DeepSeek V3.2 DSML",
            |cs| {
                format!(
                    "<｜DSML｜function_calls>\n{}</｜DSML｜function_calls>",
                    dsml(cs)
                )
            },
            "Checking both.\n\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "DeepSeek V4 DSML",
            |cs| format!("<｜DSML｜tool_calls>\n{}</｜DSML｜tool_calls>", dsml(cs)),
            "Checking both.\n\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Kimi K2",
            |cs| {
                let calls: String = cs
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        format!(
                            "<|tool_call_begin|>functions.{}:{i}<|tool_call_argument_begin|>{}<|tool_call_end|>",
                            c.name,
                            js(c)
                        )
                    })
                    .collect();
                format!("<|tool_calls_section_begin|>{calls}<|tool_calls_section_end|>")
            },
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &["functions.read_file:0", "functions.search:1"],
        ),
        f(
            "Granite <|tool_call|>",
            |cs| format!("<|tool_call|>{}", json_array(cs)),
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Granite 20B <function_call>",
            |cs| {
                cs.iter()
                    .map(|c| format!("<function_call> {} ", json_call(c)))
                    .collect()
            },
            "Checking both.\n",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "<function-call>",
            |cs| {
                cs.iter()
                    .map(|c| format!("<function-call>{}</function-call>\n", json_call(c)))
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Jamba <tool_calls>",
            |cs| format!("<tool_calls>{}</tool_calls>", json_array(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Hunyuan A13B",
            |cs| {
                format!(
                    "<answer>\n<tool_calls>{}</tool_calls>\n</answer>",
                    json_array(cs)
                )
            },
            "",
            "",
            None,
            THINK,
            &[],
        ),
        f(
            "HY v3",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "<tool_call>{}<tool_sep>\n{}</tool_call>\n",
                            c.name,
                            keys_and_values(c)
                        )
                    })
                    .collect();
                format!("<tool_calls>\n{calls}</tool_calls>")
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Hy3 suffixed tokens",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "<tool_call:opensource>{}<tool_sep:opensource>\n{}</tool_call:opensource>\n",
                            c.name,
                            params(c, |k, v| format!(
                                "<arg_key:opensource>{k}</arg_key:opensource>\n<arg_value:opensource>{v}</arg_value:opensource>\n"
                            ))
                        )
                    })
                    .collect();
                format!("<tool_calls:opensource>\n{calls}</tool_calls:opensource>")
            },
            "Checking both.\n",
            "\nDone.",
            around,
            ("<think:opensource>", "</think:opensource>"),
            &[],
        ),
        f(
            "Phi-4",
            |cs| format!("functools{}", json_array(cs)),
            "Checking both. ",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "InternLM",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<|action_start|><|plugin|>\n{}<|action_end|>\n",
                            json!({"name": c.name, "parameters": c.args})
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "gpt-oss harmony",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<|start|>assistant to=functions.{}<|channel|>commentary json<|message|>{}<|call|>",
                            c.name,
                            js(c)
                        )
                    })
                    .collect()
            },
            "<|channel|>commentary<|message|>Checking both.<|end|>",
            "",
            before_only,
            ("<|channel|>analysis<|message|>", "<|end|>"),
            &[],
        ),
        f(
            "Gemma",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<|tool_call>call:{}{}<tool_call|>",
                            c.name,
                            braced(&c.args, "<|\"|>")
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            ("<|channel>thought\n", "<channel|>"),
            &[],
        ),
        f(
            "FunctionGemma",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<start_function_call>call:{}{}<end_function_call>",
                            c.name,
                            braced(&c.args, "<escape>")
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "UI-TARS",
            |cs| cs.iter().map(|c| format!("Action: {}\n", py(c))).collect(),
            "Thought: Checking both.\n",
            "",
            before_only,
            THINK,
            &[],
        ),
        f(
            "Command R",
            |cs| {
                let calls: Vec<Value> = cs
                    .iter()
                    .map(|c| json!({"tool_name": c.name, "parameters": c.args}))
                    .collect();
                format!(
                    "Action: ```json\n{}\n```",
                    serde_json::to_string_pretty(&calls).unwrap()
                )
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "MiniMax M2",
            |cs| format!("<minimax:tool_call>\n{}</minimax:tool_call>", invokes(cs)),
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "MiniMax M3",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "{NS}<invoke name=\"{}\">\n{}{NS}</invoke>\n",
                            c.name,
                            m3(&c.args)
                        )
                    })
                    .collect();
                format!("{NS}<tool_call>\n{calls}{NS}</tool_call>")
            },
            "Checking both.\n",
            "\nDone.",
            around,
            ("<mm:think>", "</mm:think>"),
            &[],
        ),
        f(
            "Step-3",
            |cs| {
                let calls: String = cs
                    .iter()
                    .map(|c| {
                        format!(
                            "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"{}\">{}</steptml:invoke><｜tool_call_end｜>",
                            c.name,
                            params(c, |k, v| format!(
                                "<steptml:parameter name=\"{k}\">{v}</steptml:parameter>"
                            ))
                        )
                    })
                    .collect();
                format!("<｜tool_calls_begin｜>{calls}<｜tool_calls_end｜>")
            },
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "MiniCPM",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<function name=\"{}\">{}</function>\n",
                            c.name,
                            params(c, |k, v| format!("<param name=\"{k}\">{v}</param>"))
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "Seed-OSS",
            |cs| {
                cs.iter()
                    .map(|c| {
                        format!(
                            "<seed:tool_call>\n<function={}>\n{}</function>\n</seed:tool_call>\n",
                            c.name,
                            params(c, |k, v| format!("<parameter={k}>{v}</parameter>\n"))
                        )
                    })
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            ("<seed:think>", "</seed:think>"),
            &[],
        ),
        f(
            "LongCat",
            |cs| {
                cs.iter()
                    .map(|c| format!("<longcat_tool_call>{}</longcat_tool_call>\n", json_call(c)))
                    .collect()
            },
            "Checking both.\n",
            "\nDone.",
            around,
            ("<longcat_think>", "</longcat_think>"),
            &[],
        ),
        f(
            "Cohere Command A",
            |cs| {
                let calls: Vec<Value> = cs
                    .iter()
                    .enumerate()
                    .map(|(i, c)| json!({"tool_call_id": i.to_string(), "tool_name": c.name, "parameters": c.args}))
                    .collect();
                format!("<|START_ACTION|>{}<|END_ACTION|>", Value::Array(calls))
            },
            "Checking both.",
            "\nDone.",
            around,
            ("<|START_THINKING|>", "<|END_THINKING|>"),
            &["0", "1"],
        ),
        f(
            "Apertus",
            |cs| {
                let calls: Vec<Value> = cs.iter().map(|c| json!({c.name: c.args})).collect();
                format!("<|tools_prefix|>{}<|tools_suffix|>", Value::Array(calls))
            },
            "Checking both.",
            "\nDone.",
            around,
            ("<|inner_prefix|>", "<|inner_suffix|>"),
            &[],
        ),
        f(
            "LFM2 pythonic",
            |cs| format!("<|tool_call_start|>{}<|tool_call_end|>", py_list(cs)),
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
        f(
            "LFM2 JSON",
            |cs| format!("<|tool_call_start|>{}<|tool_call_end|>", json_array(cs)),
            "Checking both.",
            "\nDone.",
            around,
            THINK,
            &[],
        ),
    ];
    // Apertus's list is read at once: cut off, nothing of it is a call (the stream shows none
    // either).
    for fam in &mut all {
        if fam.name == "Apertus" {
            fam.cut_keeps_first = false;
        }
    }
    all
}

fn dsml(cs: &[Call]) -> String {
    cs.iter()
        .map(|c| {
            let ps = args(c)
                .iter()
                .map(|(k, v)| {
                    format!(
                        "<｜DSML｜parameter name=\"{k}\" string=\"{}\">{}</｜DSML｜parameter>\n",
                        v.is_string(),
                        text(v)
                    )
                })
                .collect::<String>();
            format!(
                "<｜DSML｜invoke name=\"{}\">\n{ps}</｜DSML｜invoke>\n",
                c.name
            )
        })
        .collect()
}

fn expected(fam: &Family, calls: &[Call]) -> Vec<ToolCall> {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| call(fam.ids.get(i).copied(), c.name, c.args.clone()))
        .collect()
}

/// The words of a content, white space between them folded: separators between calls are
/// text outside the calls too, and each family spaces its calls its own way.
fn words(content: Option<&str>) -> Option<String> {
    content.map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn reply(fam: &Family, calls: &[Call]) -> String {
    format!("{}{}{}", fam.before, (fam.write)(calls), fam.after)
}

/// Runs `check` on every family, and fails with the names of all those it fails on.
fn each(check: impl Fn(&Family) + std::panic::RefUnwindSafe) {
    let failed: Vec<&str> = families()
        .iter()
        .filter(|fam| std::panic::catch_unwind(|| check(fam)).is_err())
        .map(|fam| fam.name)
        .collect();
    assert!(failed.is_empty(), "failed: {failed:?}");
}

#[test]
fn two_calls_with_text_around() {
    each(|fam| {
        let reply = reply(fam, &[a(), b()]);
        let r = parse(&reply);
        assert_eq!(
            r.tool_calls,
            expected(fam, &[a(), b()]),
            "{}: {reply}",
            fam.name
        );
        assert_eq!(
            words(r.content.as_deref()),
            words(fam.content),
            "{}: {reply}",
            fam.name
        );
        assert!(r.warnings.is_empty(), "{}: {:?}", fam.name, r.warnings);
        streams_like_parse(&reply);
    });
}

#[test]
fn a_call_quoted_in_the_reasoning_is_not_a_call() {
    each(|fam| {
        let (open, close) = fam.think;
        let quoted = match fam.name {
            // Its special tokens would end the reasoning's message: the call is quoted as text.
            "gpt-oss harmony" => format!("delete_all {}", js(&quoted())),
            _ => (fam.write)(&[quoted()]),
        };
        let reply = format!(
            "{open}The user wants two things. I could write {quoted} but that would delete everything.{close}{}",
            reply(fam, &[a(), b()])
        );
        let r = parse(&reply);
        assert_eq!(
            r.tool_calls,
            expected(fam, &[a(), b()]),
            "{}: {reply}",
            fam.name
        );
        assert_eq!(
            words(r.content.as_deref()),
            words(fam.content),
            "{}: {reply}",
            fam.name
        );
        streams_like_parse(&reply);
    });
}

#[test]
fn cut_off_in_the_second_call() {
    each(|fam| {
        let whole = reply(fam, &[a(), b()]);
        // Cut inside the second call's last argument name.
        let at = whole.rfind("limit").unwrap() + 3;
        let cut = &whole[..at];
        let r = parse(cut);
        let want = if fam.cut_keeps_first {
            expected(fam, &[a()])
        } else {
            Vec::new()
        };
        assert_eq!(r.tool_calls, want, "{}: {cut}", fam.name);
        // The text cut off is kept.
        let content = r.content.unwrap_or_default();
        assert!(
            content.ends_with(&cut[cut.len() - 12..]),
            "{}: {content:?}",
            fam.name
        );
        streams_like_parse(cut);
    });
}

/// The reply cut off at every character (the model's token limit can fall anywhere): no call
/// is made of a fragment (the calls read are the first calls of the whole reply, exactly),
/// and no text is lost: the text before the calls stays content, and once the cut falls past
/// the second call's name (in harmony, its message) with that call not read, the cut-off
/// text ends the content.
#[test]
fn cut_off_at_every_character() {
    each(|fam| {
        let whole = reply(fam, &[a(), b()]);
        let all = expected(fam, &[a(), b()]);
        // Where the second call's text that is content when cut begins: its name, or in
        // harmony, whose content is the messages' bodies, its message (the role header cut
        // off is protocol, no text).
        let second = match fam.name {
            "gpt-oss harmony" => whole.rfind("<|message|>").unwrap() + "<|message|>".len(),
            _ => whole.rfind("search").unwrap() + "search".len(),
        };
        for (at, _) in whole.char_indices().skip(1) {
            let cut = &whole[..at];
            let r = parse(cut);
            assert!(
                r.tool_calls.len() <= all.len() && r.tool_calls[..] == all[..r.tool_calls.len()],
                "{}: {cut:?} gives {:?}",
                fam.name,
                r.tool_calls
            );
            let content = r.content.as_deref().unwrap_or_default();
            if fam.content.is_some() && !fam.before.is_empty() && at >= fam.before.len() {
                assert!(
                    content.contains("Checking both."),
                    "{}: {cut:?} gives {content:?}",
                    fam.name
                );
            }
            let tail: String = {
                let t = cut.trim_end();
                let from = t.char_indices().rev().nth(2).map_or(0, |(i, _)| i);
                let from = from.max(second).min(t.len());
                t[from..].to_owned()
            };
            if at > second && r.tool_calls.len() < all.len() {
                assert!(
                    content.ends_with(&tail),
                    "{}: {cut:?} gives {content:?}",
                    fam.name
                );
            }
        }
    });
}
