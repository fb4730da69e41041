//! Tool calls: the text formats models emit, normalised into one envelope.
//!
//! [`parse`] finds the format by its markers (the earliest marker in the reply decides; no
//! parser is tried blindly), reads every call, and returns a [`ToolCallResponse`]: the text
//! outside the calls as `content`, the calls, and `needs_more_work`. Calls inside reasoning
//! blocks (`<think>…</think>`) are not calls. A reply with no call is content, never an error.
//!
//! | family | markers | body |
//! |---|---|---|
//! | JSON (no marker) | a JSON envelope `{"content", "tool_calls"/"toolCalls", "needs_more_work"/"needsMoreWork"}`, a single `{"name", "arguments"}` object, OpenAI-shaped `{"tool_calls": [{"id", "function": {"name", "arguments": "<json>"}}]}`, or an array of calls; whole, fenced or in prose | JSON |
//! | `<function_calls>` (also `antml:`-prefixed) | `<function_calls>…</function_calls>` | a JSON array of calls, or `<invoke>` elements |
//! | Anthropic | `<invoke name="…"><parameter name="…">…</parameter></invoke>` (wrapper and `antml:` prefix optional) | one text value per parameter |
//! | Hermes / Qwen | `<tool_call>…</tool_call>` (closer optional) | a JSON call; or GLM-4.5 `name<arg_key>k</arg_key><arg_value>v</arg_value>`; or Qwen3-Coder `<function=…>` |
//! | Qwen3-Coder | `<function=name><parameter=p>value</parameter></function>` (closers optional) | one text value per parameter |
//! | Mistral | `[TOOL_CALLS]` | a JSON array; or `name{json}`, `name[ARGS]{json}`, `name[CALL_ID]id[ARGS]{json}` |
//! | Llama 3.1 | `<\|python_tag\|>` | JSON calls with `parameters`, separated by `;` |
//! | DeepSeek V3 / V3.1 | `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>` | V3: `function<｜tool▁sep｜>name` and a fenced JSON; V3.1: `name<｜tool▁sep｜>{json}` |
//! | Kimi K2 | `<\|tool_call_begin\|>…<\|tool_call_end\|>` (in a section) | `functions.name:0<\|tool_call_argument_begin\|>{json}`, or a JSON call |
//! | Granite | `<\|tool_call\|>` | a JSON array of calls |
//! | Jamba / MiniMax | `<tool_calls>…</tool_calls>` | a JSON array, or one JSON call per line |
//! | Phi-4 | `functools[…]` | a JSON array of calls |
//! | InternLM | `<\|action_start\|><\|plugin\|>…<\|action_end\|>` | a JSON call with `parameters` |
//! | gpt-oss harmony | `<\|channel\|>` messages | `final` (and `commentary` without recipient) is content, `analysis` is reasoning, a message `to=functions.name` is a call (`<\|call\|>` optional at the end) |
//! | Gemma | `<\|tool_call>call:name{…}<tool_call\|>` | arguments with `<\|"\|>` as the quote token |
//! | pythonic (Llama 3.2/4) | the whole reply `[f(a=1), g()]`, or `<\|python_start\|>…<\|python_end\|>` | calls with Python-literal keyword arguments |
//! | UI-TARS | `Thought: …` then `Action: click(start_box='(1,2)')` lines | pythonic calls; the thought is content |
//!
//! Rules: arguments given as a JSON string are decoded once; a text parameter value becomes
//! JSON when it parses as JSON, a string otherwise; a call whose JSON was cut off is not a
//! call (the text stays content, with a warning); `needs_more_work` is the envelope's flag when
//! it has one, else `true` when there are calls, else `None`.
//!
//! ```
//! let r = llmout::tools::parse(
//!     "Let me look.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.rs\"}}\n</tool_call>",
//! );
//! assert_eq!(r.content.as_deref(), Some("Let me look."));
//! assert_eq!(r.tool_calls[0].name, "read_file");
//! assert_eq!(r.tool_calls[0].arguments["path"], "a.rs");
//! assert_eq!(r.needs_more_work, Some(true));
//! ```
//!
//! With tool definitions, [`parse_with_tools`] reports unknown tool names and recovers each
//! call's arguments against its tool's schema.
//!
//! **Streaming.** [`Stream`] reads the calls while the reply arrives: each call's name as
//! soon as it is written, its arguments as they come, and `finish` is [`parse`] on the whole
//! text (see the [`stream`] module).
//!
//! **Typed tools.** An externally tagged enum deriving `LlmOutput` (`enum Tool { ReadFile {
//! path: String }, Stop }`) is a tool list: [`definitions`] gives the [`ToolDef`]s to send,
//! and [`ToolCall::to_typed`] turns a call into a `Tool` with recovery and warnings.
//!
//! Pythonic calls (`[get_weather(city='Paris'), now()]`, Llama 3.2 and 4) are read when they
//! are the whole reply, inside `<|python_start|>…<|python_end|>`, or after UI-TARS `Action:`
//! (where `Thought:` is content); argument values are Python literals (`True`, `None`,
//! `'single quotes'`, lists, dicts).

pub mod stream;

pub use stream::{CallInProgress, Stream, MAX_HEAD};

use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::extract;
use crate::repair::{self, RepairKind, RepairOptions};
use crate::{Warning, WarningKind};

/// One tool call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The call's id, when the format gives one.
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The arguments, always an object.
    pub arguments: Map<String, Value>,
}

/// A tool definition: its name and the JSON schema of its arguments (`parameters`; also read
/// from `input_schema` or `schema`, so OpenAI and Anthropic tool lists deserialize as they are).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// What it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON schema of its arguments.
    #[serde(default = "any_object", alias = "input_schema", alias = "schema")]
    pub parameters: Value,
}

fn any_object() -> Value {
    serde_json::json!({"type": "object"})
}

/// A reply as text and tool calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCallResponse {
    /// The text outside the calls, trimmed; `None` when there is none.
    pub content: Option<String>,
    /// The calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// The envelope's flag when it has one; else `Some(true)` when there are calls.
    pub needs_more_work: Option<bool>,
    /// What was repaired or left out on the way.
    #[serde(skip)]
    pub warnings: Vec<Warning>,
    /// Arguments that could not be recovered against their tool's schema
    /// ([`parse_with_tools`] only); the call keeps the arguments as given.
    #[serde(skip)]
    pub errors: Vec<crate::Error>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    FunctionCalls,
    Invoke,
    ToolCallTag,
    QwenCoder,
    Mistral,
    PythonTag,
    DeepSeek,
    Kimi,
    Granite,
    ToolCallsTag,
    Phi4,
    InternLm,
    Harmony,
    Gemma,
    PythonStart,
    UiTars,
}

const MARKERS: [(&str, Family); 20] = [
    ("<function_calls>", Family::FunctionCalls),
    (
        concat!("<", "antml", ":function_calls>"),
        Family::FunctionCalls,
    ),
    ("<invoke name=", Family::Invoke),
    (concat!("<", "antml", ":invoke name="), Family::Invoke),
    ("<tool_call>", Family::ToolCallTag),
    ("<function=", Family::QwenCoder),
    ("[TOOL_CALLS]", Family::Mistral),
    ("<|python_tag|>", Family::PythonTag),
    ("<｜tool▁calls▁begin｜>", Family::DeepSeek),
    ("<｜tool▁call▁begin｜>", Family::DeepSeek),
    ("<|tool_calls_section_begin|>", Family::Kimi),
    ("<|tool_call_begin|>", Family::Kimi),
    ("<|tool_call|>", Family::Granite),
    ("<tool_calls>", Family::ToolCallsTag),
    ("functools[", Family::Phi4),
    ("<|action_start|><|plugin|>", Family::InternLm),
    ("<|channel|>", Family::Harmony),
    ("<|tool_call>", Family::Gemma),
    ("<|python_start|>", Family::PythonStart),
    ("Action:", Family::UiTars),
];

/// What a family's reader found: calls, the byte ranges of the text they took, warnings.
#[derive(Default)]
struct Found {
    calls: Vec<ToolCall>,
    taken: Vec<Range<usize>>,
    warnings: Vec<Warning>,
    needs_more_work: Option<bool>,
    /// Content given by an envelope, replacing the text outside the calls.
    content: Option<Option<String>>,
}

/// Reads every tool call in a reply; see the [module docs](self).
pub fn parse(text: &str) -> ToolCallResponse {
    let visible: String = extract::visible_segments(text)
        .into_iter()
        .filter_map(|r| text.get(r))
        .collect();
    let t = visible.as_str();
    let family = MARKERS
        .iter()
        .filter_map(|(m, f)| t.find(m).map(|at| (at, *f)))
        .min_by_key(|(at, _)| *at)
        .map(|(_, f)| f);
    let mut found = Found::default();
    match family {
        Some(Family::FunctionCalls) => function_calls(t, &mut found),
        Some(Family::Invoke) => {
            let range = 0..t.len();
            invokes(t, range, &mut found);
        }
        Some(Family::ToolCallTag) => tool_call_tags(t, &mut found),
        Some(Family::QwenCoder) => qwen_functions(t, 0..t.len(), &mut found),
        Some(Family::Mistral) => mistral(t, &mut found),
        Some(Family::PythonTag) => after_marker_json(t, "<|python_tag|>", None, &mut found),
        Some(Family::DeepSeek) => deepseek(t, &mut found),
        Some(Family::Kimi) => kimi(t, &mut found),
        Some(Family::Granite) => after_marker_json(t, "<|tool_call|>", None, &mut found),
        Some(Family::ToolCallsTag) => {
            after_marker_json(t, "<tool_calls>", Some("</tool_calls>"), &mut found)
        }
        Some(Family::Phi4) => phi4(t, &mut found),
        Some(Family::InternLm) => after_marker_json(
            t,
            "<|action_start|><|plugin|>",
            Some("<|action_end|>"),
            &mut found,
        ),
        Some(Family::Harmony) => harmony(t, &mut found),
        Some(Family::Gemma) => gemma(t, &mut found),
        Some(Family::PythonStart) => python_start(t, &mut found),
        Some(Family::UiTars) => ui_tars(t, &mut found),
        None => {
            if !pythonic_reply(t, &mut found) {
                json_family(t, &mut found)
            }
        }
    }
    let content = match found.content.take() {
        Some(c) => c,
        None => outside(t, &found.taken),
    };
    let needs_more_work = found
        .needs_more_work
        .or((!found.calls.is_empty()).then_some(true));
    ToolCallResponse {
        content,
        tool_calls: found.calls,
        needs_more_work,
        warnings: found.warnings,
        errors: Vec::new(),
    }
}

/// [`parse`], then each call checked against the tool definitions: an unknown tool name is a
/// [`WarningKind::UnknownTool`] warning (the call is kept, for the caller to answer), and the
/// arguments of a known tool are recovered against its schema by the same engine as
/// [`from_llm`](crate::LlmOutput::from_llm), each change a warning under
/// `/tool_calls/N/arguments`. Arguments that cannot be recovered are an entry in `errors`.
///
/// ```
/// use llmout::tools::{parse_with_tools, ToolDef};
/// let tools: Vec<ToolDef> = serde_json::from_value(serde_json::json!([{
///     "name": "read_file",
///     "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "integer"}}, "required": ["path"]}
/// }])).unwrap();
/// let r = parse_with_tools(r#"<tool_call>{"name": "read_file", "arguments": {"Path": "a.rs", "line": "3"}}</tool_call>"#, &tools);
/// assert_eq!(r.tool_calls[0].arguments, serde_json::json!({"path": "a.rs", "line": 3}).as_object().unwrap().clone());
/// let paths: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
/// assert_eq!(paths, ["/tool_calls/0/arguments/path", "/tool_calls/0/arguments/line"]);
/// ```
pub fn parse_with_tools(text: &str, tools: &[ToolDef]) -> ToolCallResponse {
    let mut r = parse(text);
    let options = crate::Options::default();
    for (i, call) in r.tool_calls.iter_mut().enumerate() {
        let base = format!("/tool_calls/{i}");
        let Some(def) = tools.iter().find(|d| d.name == call.name) else {
            r.warnings.push(Warning::new(
                WarningKind::UnknownTool,
                format!("{base}/name"),
                format!("no tool is named \"{}\"", call.name),
            ));
            continue;
        };
        let given = Value::Object(std::mem::take(&mut call.arguments));
        let recovered = crate::recover_with_schema(given.clone(), &def.parameters, &options);
        match (recovered.value, recovered.error) {
            (Some(Value::Object(args)), None) => {
                call.arguments = args;
                for mut w in recovered.warnings {
                    w.path = format!("{base}/arguments{}", w.path);
                    r.warnings.push(w);
                }
            }
            (_, error) => {
                if let Value::Object(args) = given {
                    call.arguments = args;
                }
                if let Some(e) = error {
                    r.errors.push(e.at_prefix(&format!("{base}/arguments")));
                }
            }
        }
    }
    r
}

/// The text outside `taken`, trimmed; `None` when empty. Section markers left around are
/// dropped too.
fn outside(t: &str, taken: &[Range<usize>]) -> Option<String> {
    let mut ranges = taken.to_vec();
    ranges.sort_by_key(|r| r.start);
    let mut out = String::new();
    let mut at = 0;
    for r in ranges {
        if r.start > at {
            out.push_str(t.get(at..r.start).unwrap_or_default());
        }
        at = at.max(r.end);
    }
    out.push_str(t.get(at..).unwrap_or_default());
    for marker in [
        "<|tool_calls_section_begin|>",
        "<|tool_calls_section_end|>",
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁calls▁end｜>",
        "<|python_tag|>",
    ] {
        if out.contains(marker) {
            out = out.replace(marker, "");
        }
    }
    let trimmed = out.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// The byte ranges of `open … close` elements in `t[within]`; a missing closer runs to the
/// next opener or the end.
fn elements(
    t: &str,
    within: Range<usize>,
    open: &str,
    close: &str,
) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut at = within.start;
    while let Some(i) = t.get(at..within.end).and_then(|s| s.find(open)) {
        let start = at + i;
        let body_start = start + open.len();
        let rest = t.get(body_start..within.end).unwrap_or_default();
        let next_open = rest.find(open).map_or(rest.len(), |j| j);
        // The closer is looked for only before the next opener: every byte is read a bounded
        // number of times, however many elements lack their closer.
        let (body_end, end) = match rest.get(..next_open).and_then(|r| r.find(close)) {
            Some(j) => (body_start + j, body_start + j + close.len()),
            None => (body_start + next_open, body_start + next_open),
        };
        out.push((start..end, body_start..body_end));
        if end <= at {
            break;
        }
        at = end;
    }
    out
}

/// A parameter's text as a value: JSON when it is JSON, else the string.
fn param_value(text: &str) -> Value {
    let t = text.strip_prefix('\n').unwrap_or(text);
    let t = t.strip_suffix('\n').unwrap_or(t);
    if let Ok(v) = serde_json::from_str::<Value>(t.trim()) {
        return v;
    }
    // A Python literal (`True`, `None`, `['a', 'b']`, `{'k': 1}`): what the lenient parser
    // reads with nothing but quote-style and literal fixes.
    let python = |k: RepairKind| matches!(k, RepairKind::QuoteStyle | RepairKind::Literal);
    match repair::parse(t.trim(), &RepairOptions::default()) {
        Ok(p)
            if p.repairs.iter().all(|r| python(r.kind)) && !matches!(p.value, Value::String(_)) =>
        {
            p.value
        }
        _ => Value::String(t.to_owned()),
    }
}

/// Parses `text` as JSON leniently; `None` (and a warning) when it was cut off or is no JSON.
fn lenient(text: &str, found: &mut Found, what: &str) -> Option<Value> {
    match repair::parse(text.trim(), &RepairOptions::default()) {
        Ok(p) if p.repairs.iter().any(|r| r.kind == RepairKind::Truncated) => {
            found.warnings.push(Warning::new(
                WarningKind::ItemDropped,
                format!("/tool_calls/{}", found.calls.len()),
                format!("{what} was cut off; its text is kept as content"),
            ));
            None
        }
        Ok(p) => {
            let base = format!("/tool_calls/{}", found.calls.len());
            for r in &p.repairs {
                found.warnings.push(Warning::new(
                    WarningKind::Repaired(r.kind),
                    format!("{base}{}", r.path),
                    r.kind.description(),
                ));
            }
            Some(p.value)
        }
        Err(_) => None,
    }
}

/// Arguments as an object: decoded once when given as a JSON string.
fn arguments(v: Option<&Value>) -> Map<String, Value> {
    match v {
        Some(Value::Object(m)) => m.clone(),
        Some(Value::String(s)) => match repair::parse(s, &RepairOptions::default()) {
            Ok(p) => match p.value {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            Err(_) => Map::new(),
        },
        _ => Map::new(),
    }
}

/// A call from JSON: `{"name", "arguments"|"parameters"|"args"|"input"}` or OpenAI's
/// `{"id", "type": "function", "function": {"name", "arguments"}}`.
fn call_from_json(v: &Value) -> Option<ToolCall> {
    let o = v.as_object()?;
    let id = o.get("id").and_then(Value::as_str).map(str::to_owned);
    if let Some(Value::Object(f)) = o.get("function") {
        let name = f.get("name")?.as_str()?.to_owned();
        return Some(ToolCall {
            id,
            name,
            arguments: arguments(f.get("arguments")),
        });
    }
    let name = o
        .get("name")
        .or_else(|| o.get("tool"))?
        .as_str()?
        .to_owned();
    let args = ["arguments", "parameters", "args", "input"]
        .iter()
        .find_map(|k| o.get(*k));
    Some(ToolCall {
        id,
        name,
        arguments: arguments(args),
    })
}

/// Calls from a JSON value that is a call or an array of calls.
fn calls_from_json(v: &Value, found: &mut Found) -> bool {
    match v {
        Value::Array(items) => {
            let calls: Option<Vec<ToolCall>> = items.iter().map(call_from_json).collect();
            match calls {
                Some(calls) if !calls.is_empty() => {
                    found.calls.extend(calls);
                    true
                }
                _ => false,
            }
        }
        v => match call_from_json(v) {
            Some(c) => {
                found.calls.push(c);
                true
            }
            None => false,
        },
    }
}

fn function_calls(t: &str, found: &mut Found) {
    for (open, close) in [
        ("<function_calls>", "</function_calls>"),
        (
            concat!("<", "antml", ":function_calls>"),
            concat!("</", "antml", ":function_calls>"),
        ),
    ] {
        for (whole, body) in elements(t, 0..t.len(), open, close) {
            let inner = t.get(body.clone()).unwrap_or_default();
            if inner.contains("invoke name=") {
                invokes(t, body, found);
                found.taken.push(whole);
            } else if let Some(v) = lenient(inner, found, "a <function_calls> block") {
                if calls_from_json(&v, found) {
                    found.taken.push(whole);
                }
            }
        }
    }
}

fn invokes(t: &str, within: Range<usize>, found: &mut Found) {
    let plain = (
        "<invoke name=",
        "</invoke>",
        "<parameter name=",
        "</parameter>",
    );
    let prefixed = (NS_INVOKE, NS_INVOKE_CLOSE, NS_PARAM, NS_PARAM_CLOSE);
    for (open, close, param_open, param_close) in [plain, prefixed] {
        for (whole, body) in elements(t, within.clone(), open, close) {
            // An `<invoke>` whose closer never came, running to the end of the text, was cut
            // off: its last parameter may be half written, so it is not a call.
            if whole.end == body.end && body.end == t.len() {
                found.warnings.push(Warning::new(
                    WarningKind::ItemDropped,
                    format!("/tool_calls/{}", found.calls.len()),
                    "an <invoke> was cut off; its text is kept as content",
                ));
                continue;
            }
            // `"name">` then the parameters.
            let head = t.get(body.clone()).unwrap_or_default();
            let Some((name, after)) = quoted_attr(head) else {
                continue;
            };
            let params_start = body.start + after;
            let mut args = Map::new();
            for (_, pbody) in elements(t, params_start..body.end, param_open, param_close) {
                let ptext = t.get(pbody).unwrap_or_default();
                if let Some((pname, pafter)) = quoted_attr(ptext) {
                    args.insert(pname, param_value(ptext.get(pafter..).unwrap_or_default()));
                }
            }
            found.calls.push(ToolCall {
                id: None,
                name,
                arguments: args,
            });
            found.taken.push(whole);
        }
    }
}

const NS_INVOKE: &str = concat!("<", "antml", ":invoke name=");
const NS_INVOKE_CLOSE: &str = concat!("</", "antml", ":invoke>");
const NS_PARAM: &str = concat!("<", "antml", ":parameter name=");
const NS_PARAM_CLOSE: &str = concat!("</", "antml", ":parameter>");

/// `"value">rest` (or `'value'>`): the value and the offset after `>`.
fn quoted_attr(s: &str) -> Option<(String, usize)> {
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let end = s[1..].find(q)? + 1;
    let name = s[1..end].to_owned();
    let gt = s[end..].find('>')? + end;
    Some((name, gt + 1))
}

fn tool_call_tags(t: &str, found: &mut Found) {
    for (whole, body) in elements(t, 0..t.len(), "<tool_call>", "</tool_call>") {
        let inner = t.get(body.clone()).unwrap_or_default();
        let trimmed = inner.trim_start();
        if trimmed.starts_with('{') {
            if let Some(v) = lenient(inner, found, "a <tool_call> call") {
                if calls_from_json(&v, found) {
                    found.taken.push(whole);
                }
            }
        } else if trimmed.starts_with("<function=") {
            qwen_functions(t, body, found);
            found.taken.push(whole);
        } else if let Some(k) = inner.find("<arg_key>") {
            // GLM-4.5: the name, then key/value pairs.
            let name = inner[..k].trim().to_owned();
            let mut args = Map::new();
            let keys = elements(t, body.clone(), "<arg_key>", "</arg_key>");
            let values = elements(t, body.clone(), "<arg_value>", "</arg_value>");
            for ((_, kb), (_, vb)) in keys.into_iter().zip(values) {
                let key = t.get(kb).unwrap_or_default().trim().to_owned();
                args.insert(key, param_value(t.get(vb).unwrap_or_default()));
            }
            if !name.is_empty() {
                found.calls.push(ToolCall {
                    id: None,
                    name,
                    arguments: args,
                });
                found.taken.push(whole);
            }
        }
    }
}

fn qwen_functions(t: &str, within: Range<usize>, found: &mut Found) {
    for (whole, body) in elements(t, within, "<function=", "</function>") {
        let head = t.get(body.clone()).unwrap_or_default();
        let Some(gt) = head.find('>') else { continue };
        let name = head[..gt].trim().to_owned();
        let mut args = Map::new();
        for (_, pbody) in elements(
            t,
            body.start + gt + 1..body.end,
            "<parameter=",
            "</parameter>",
        ) {
            let ptext = t.get(pbody).unwrap_or_default();
            let Some(pgt) = ptext.find('>') else { continue };
            args.insert(
                ptext[..pgt].trim().to_owned(),
                param_value(&ptext[pgt + 1..]),
            );
        }
        found.calls.push(ToolCall {
            id: None,
            name,
            arguments: args,
        });
        found.taken.push(whole);
    }
}

/// The end of the JSON value starting at `s[0]` (`{` or `[`), string-aware; `None` when it
/// does not close.
fn json_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn mistral(t: &str, found: &mut Found) {
    const M: &str = "[TOOL_CALLS]";
    let mut at = 0;
    while let Some(i) = t.get(at..).and_then(|s| s.find(M)) {
        let start = at + i;
        let mut pos = start + M.len();
        let rest = t.get(pos..).unwrap_or_default();
        let skipped = rest.len() - rest.trim_start().len();
        pos += skipped;
        let rest = rest.trim_start();
        if rest.starts_with('[') {
            // Older generations: a JSON array of calls.
            let end = json_end(rest).unwrap_or(rest.len());
            if let Some(v) = lenient(&rest[..end], found, "a [TOOL_CALLS] array") {
                calls_from_json(&v, found);
            }
            found.taken.push(start..pos + end);
            at = pos + end;
            continue;
        }
        // Newer: name, optional [CALL_ID]id, optional [ARGS], then a JSON object.
        let Some(brace) = rest.find('{') else {
            found.taken.push(start..t.len());
            break;
        };
        let (name, id) = mistral_head(&rest[..brace]);
        let body = &rest[brace..];
        let end = json_end(body).unwrap_or(body.len());
        if let Some(v) = lenient(&body[..end], found, "a [TOOL_CALLS] call") {
            if !name.is_empty() {
                found.calls.push(ToolCall {
                    id,
                    name,
                    arguments: arguments(Some(&v)),
                });
            }
        }
        let stop = pos + brace + end;
        found.taken.push(start..stop);
        at = stop;
    }
}

/// A Mistral call's head, `name`, `name[ARGS]` or `name[CALL_ID]id[ARGS]`: the name and id.
fn mistral_head(head: &str) -> (String, Option<String>) {
    let (name_part, id) = match head.find("[CALL_ID]") {
        Some(c) => (
            &head[..c],
            Some(head[c + 9..].replace("[ARGS]", "").trim().to_owned()),
        ),
        None => (head, None),
    };
    (name_part.replace("[ARGS]", "").trim().to_owned(), id)
}

/// JSON calls after `marker` (up to `close` when given), several separated by `;`, commas or
/// newlines, or one array.
fn after_marker_json(t: &str, marker: &str, close: Option<&str>, found: &mut Found) {
    let mut at = 0;
    while let Some(i) = t.get(at..).and_then(|s| s.find(marker)) {
        let start = at + i;
        let body_start = start + marker.len();
        let rest = t.get(body_start..).unwrap_or_default();
        let (body_len, end) = match close.and_then(|c| rest.find(c).map(|j| (j, j + c.len()))) {
            Some((j, e)) => (j, body_start + e),
            None => (rest.len(), t.len()),
        };
        let body = &rest[..body_len];
        let mut pos = 0;
        while let Some(j) = body[pos..].find(['{', '[']) {
            let from = pos + j;
            let Some(len) = json_end(&body[from..]) else {
                lenient(&body[from..], found, "a call");
                break;
            };
            if let Some(v) = lenient(&body[from..from + len], found, "a call") {
                calls_from_json(&v, found);
            }
            pos = from + len;
        }
        found.taken.push(start..end);
        at = end.max(start + 1);
    }
}

fn phi4(t: &str, found: &mut Found) {
    after_marker_json(t, "functools", None, found);
}

fn deepseek(t: &str, found: &mut Found) {
    const SEP: &str = "<｜tool▁sep｜>";
    for (whole, body) in elements(
        t,
        0..t.len(),
        "<｜tool▁call▁begin｜>",
        "<｜tool▁call▁end｜>",
    ) {
        let inner = t.get(body).unwrap_or_default();
        let Some(s) = inner.find(SEP) else { continue };
        let left = inner[..s].trim();
        let right = &inner[s + SEP.len()..];
        let (name, json_text) = if left == "function" {
            // V3: the name up to the line end, then a fenced JSON.
            let (name, rest) = right.split_once('\n').unwrap_or((right, ""));
            let rest = rest
                .trim()
                .trim_start_matches("```json")
                .trim_start_matches("```");
            (
                name.trim().to_owned(),
                rest.trim_end().trim_end_matches("```").to_owned(),
            )
        } else {
            (left.to_owned(), right.to_owned())
        };
        if let Some(v) = lenient(&json_text, found, "a DeepSeek call") {
            found.calls.push(ToolCall {
                id: None,
                name,
                arguments: arguments(Some(&v)),
            });
        }
        found.taken.push(whole);
    }
    for marker in ["<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"] {
        let mut at = 0;
        while let Some(i) = t.get(at..).and_then(|s| s.find(marker)) {
            found.taken.push(at + i..at + i + marker.len());
            at += i + marker.len();
        }
    }
}

fn kimi(t: &str, found: &mut Found) {
    const ARG: &str = "<|tool_call_argument_begin|>";
    for (whole, body) in elements(t, 0..t.len(), "<|tool_call_begin|>", "<|tool_call_end|>") {
        let inner = t.get(body).unwrap_or_default();
        match inner.find(ARG) {
            Some(a) => {
                let id = inner[..a].trim().to_owned();
                let name = kimi_name(&id);
                if let Some(v) = lenient(&inner[a + ARG.len()..], found, "a Kimi call") {
                    found.calls.push(ToolCall {
                        id: Some(id.clone()),
                        name,
                        arguments: arguments(Some(&v)),
                    });
                }
            }
            None => {
                if let Some(v) = lenient(inner, found, "a call") {
                    calls_from_json(&v, found);
                }
            }
        }
        found.taken.push(whole);
    }
}

/// The tool name in a Kimi call id, `functions.name:0`.
fn kimi_name(id: &str) -> String {
    id.strip_prefix("functions.")
        .unwrap_or(id)
        .rsplit_once(':')
        .map_or(id, |(n, _)| n)
        .to_owned()
}

/// No marker: a JSON envelope, call, OpenAI-shaped object or array of calls, whole, fenced or
/// in prose. The first candidate span that is one wins.
fn json_family(t: &str, found: &mut Found) {
    for c in extract::candidates(t) {
        let Ok(p) = repair::parse(c.text, &RepairOptions::default()) else {
            continue;
        };
        if p.repairs.iter().any(|r| r.kind == RepairKind::Truncated) {
            if looks_like_calls(&p.value) {
                found.warnings.push(Warning::new(
                    WarningKind::ItemDropped,
                    "/tool_calls",
                    "tool calls were cut off; the text is kept as content",
                ));
                return;
            }
            continue;
        }
        if envelope(&p.value, found) || calls_from_json(&p.value, found) {
            if found.content.is_none() {
                found.taken.push(c.range.clone());
            }
            return;
        }
    }
}

fn looks_like_calls(v: &Value) -> bool {
    let o = match v {
        Value::Object(o) => o,
        Value::Array(a) => return a.first().is_some_and(looks_like_calls),
        _ => return false,
    };
    ["tool_calls", "toolCalls", "name", "function"]
        .iter()
        .any(|k| o.contains_key(*k))
}

/// The seed's envelope (either spelling), or OpenAI's message shape.
fn envelope(v: &Value, found: &mut Found) -> bool {
    let Some(o) = v.as_object() else { return false };
    let calls = o.get("tool_calls").or_else(|| o.get("toolCalls"));
    let flag = o.get("needs_more_work").or_else(|| o.get("needsMoreWork"));
    let content = o.get("content");
    if calls.is_none() && !(content.is_some() && flag.is_some()) {
        return false;
    }
    if let Some(Value::Array(items)) = calls {
        for item in items {
            if let Some(c) = call_from_json(item) {
                found.calls.push(c);
            }
        }
    }
    found.needs_more_work = flag.and_then(Value::as_bool);
    // The envelope's own content, when it has some; else the text around it.
    if let Some(Value::String(s)) = content {
        if !s.trim().is_empty() {
            found.content = Some(Some(s.trim().to_owned()));
        }
    }
    true
}

/// gpt-oss harmony: messages `<|channel|>NAME … <|message|>BODY` ended by `<|end|>`,
/// `<|call|>`, `<|return|>`, the next `<|start|>`, or the end of the text.
fn harmony(t: &str, found: &mut Found) {
    const MSG: &str = "<|message|>";
    const ENDS: [&str; 4] = ["<|end|>", "<|call|>", "<|return|>", "<|start|>"];
    let mut content = String::new();
    let mut at = 0;
    while let Some(i) = t.get(at..).and_then(|s| s.find(MSG)) {
        let header = t.get(at..at + i).unwrap_or_default();
        let body_start = at + i + MSG.len();
        // End markers are looked for only before the next message: linear in the text.
        let all = t.get(body_start..).unwrap_or_default();
        let rest = &all[..all.find(MSG).unwrap_or(all.len())];
        let (body_len, end) = ENDS
            .iter()
            .filter_map(|e| {
                rest.find(e)
                    .map(|j| (j, if *e == "<|start|>" { j } else { j + e.len() }))
            })
            .min()
            .unwrap_or((rest.len(), rest.len()));
        let body = &rest[..body_len];
        match harmony_header(header.rsplit("<|channel|>").next().unwrap_or("")) {
            (true, _) => {}
            (false, Some(name)) => {
                if let Some(v) = lenient(body, found, "a harmony call") {
                    found.calls.push(ToolCall {
                        id: None,
                        name,
                        arguments: arguments(Some(&v)),
                    });
                }
            }
            _ => {
                if !content.is_empty() {
                    content.push('\n');
                }
                content.push_str(body.trim());
            }
        }
        at = body_start + end;
    }
    let trimmed = content.trim();
    found.content = Some((!trimmed.is_empty()).then(|| trimmed.to_owned()));
}

/// A harmony message header after `<|channel|>` (`commentary to=functions.name …`): whether
/// it is reasoning (`analysis`), and the tool it calls, if any.
fn harmony_header(header: &str) -> (bool, Option<String>) {
    let analysis = header.split_whitespace().next() == Some("analysis");
    let recipient = header
        .split_whitespace()
        .find_map(|w| w.strip_prefix("to="))
        .map(|r| r.split("<|").next().unwrap_or(r));
    let name = recipient.map(|to| to.strip_prefix("functions.").unwrap_or(to).to_owned());
    (analysis, name)
}

/// Gemma: `<|tool_call>call:name{args}<tool_call|>`, strings quoted with `<|"|>`.
fn gemma(t: &str, found: &mut Found) {
    for (whole, body) in elements(t, 0..t.len(), "<|tool_call>", "<tool_call|>") {
        let inner = t.get(body).unwrap_or_default().trim();
        let inner = inner.strip_prefix("call:").unwrap_or(inner);
        let Some(brace) = inner.find('{') else {
            continue;
        };
        let name = inner[..brace].trim().to_owned();
        let args = inner[brace..].replace("<|\"|>", "\"");
        if let Some(v) = lenient(&args, found, "a Gemma call") {
            if !name.is_empty() {
                found.calls.push(ToolCall {
                    id: None,
                    name,
                    arguments: arguments(Some(&v)),
                });
            }
        }
        found.taken.push(whole);
    }
}

/// Pythonic calls `f(a=1, b='x'), g()` (optionally in `[...]`): `None` unless all of `text`
/// is calls. Values are Python literals, read by the lenient JSON parser (which knows single
/// quotes and `True`/`False`/`None`).
fn pythonic(text: &str) -> Option<Vec<ToolCall>> {
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        s = inner.trim();
    }
    let b = s.as_bytes();
    let mut calls = Vec::new();
    let mut i = 0;
    while i < b.len() {
        // name: identifier (dots allowed), then `(`.
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
            i += 1;
        }
        let name = s.get(start..i)?.to_owned();
        if name.is_empty() || b.get(i) != Some(&b'(') || name.as_bytes()[0].is_ascii_digit() {
            return None;
        }
        i += 1;
        let mut arguments = Map::new();
        loop {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match b.get(i)? {
                b')' => {
                    i += 1;
                    break;
                }
                b',' => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let key_start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let key = s.get(key_start..i)?.to_owned();
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if key.is_empty() || b.get(i) != Some(&b'=') {
                return None;
            }
            i += 1;
            // The value runs to the `,` or `)` at depth 0, outside quotes.
            let value_start = i;
            let (mut depth, mut quote, mut esc) = (0usize, None::<u8>, false);
            while i < b.len() {
                let c = b[i];
                match quote {
                    Some(q) => {
                        if esc {
                            esc = false;
                        } else if c == b'\\' {
                            esc = true;
                        } else if c == q {
                            quote = None;
                        }
                    }
                    None => match c {
                        b'"' | b'\'' => quote = Some(c),
                        b'[' | b'{' | b'(' => depth += 1,
                        b']' | b'}' => depth = depth.saturating_sub(1),
                        b')' if depth > 0 => depth -= 1,
                        b',' | b')' if depth == 0 => break,
                        _ => {}
                    },
                }
                i += 1;
            }
            let value_text = s.get(value_start..i)?.trim();
            let value = match repair::parse(value_text, &RepairOptions::default()) {
                Ok(p) if !p.repairs.iter().any(|r| r.kind == RepairKind::Truncated) => p.value,
                _ => Value::String(value_text.to_owned()),
            };
            arguments.insert(key, value);
        }
        calls.push(ToolCall {
            id: None,
            name,
            arguments,
        });
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
        {
            i += 1;
        }
    }
    (!calls.is_empty()).then_some(calls)
}

/// A reply that is nothing but pythonic calls.
fn pythonic_reply(t: &str, found: &mut Found) -> bool {
    match pythonic(t) {
        Some(calls) => {
            found.calls.extend(calls);
            found.taken.push(0..t.len());
            true
        }
        None => false,
    }
}

fn python_start(t: &str, found: &mut Found) {
    for (whole, body) in elements(t, 0..t.len(), "<|python_start|>", "<|python_end|>") {
        if let Some(calls) = pythonic(t.get(body).unwrap_or_default()) {
            found.calls.extend(calls);
            found.taken.push(whole);
        }
    }
}

/// UI-TARS: `Action:` lines hold pythonic calls (one per line or several); everything else
/// (the `Thought:`) is content.
fn ui_tars(t: &str, found: &mut Found) {
    let mut at = 0;
    while let Some(i) = t.get(at..).and_then(|s| s.find("Action:")) {
        let start = at + i;
        let body_start = start + "Action:".len();
        let rest = t.get(body_start..).unwrap_or_default();
        // The action runs to the end of its line, or to the next `Action:`.
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let end = body_start + line_end;
        if let Some(calls) = pythonic(&rest[..line_end]) {
            found.calls.extend(calls);
            found.taken.push(start..end);
        }
        at = end.max(start + 1);
    }
    if found.calls.is_empty() {
        // `Action:` is also an English word: with no action in it, the reply is read as if
        // it had no marker.
        found.taken.clear();
        if !pythonic_reply(t, found) {
            json_family(t, found);
        }
        return;
    }
    if let Some(content) = outside(t, &found.taken) {
        let content = content
            .strip_prefix("Thought:")
            .unwrap_or(&content)
            .trim()
            .to_owned();
        found.content = Some((!content.is_empty()).then_some(content));
    }
}

/// The tool definitions of an externally tagged enum deriving `LlmOutput`: one per variant,
/// named as serde names it, with its doc comment as the description and the variant's fields
/// as the parameters (`$defs` carried along when referenced). A unit variant is a tool with no
/// parameters. A type that is not such an enum gives no definitions.
///
/// ```
/// # use llmout::LlmOutput;
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// enum Tool {
///     /// Read a file.
///     ReadFile { path: String },
///     Stop,
/// }
/// let defs = llmout::tools::definitions::<Tool>();
/// let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
/// assert_eq!(names, ["Stop", "ReadFile"]);
/// assert_eq!(defs[1].description.as_deref(), Some("Read a file."));
/// assert_eq!(defs[1].parameters["required"], serde_json::json!(["path"]));
/// ```
pub fn definitions<T: crate::LlmOutput>() -> Vec<ToolDef> {
    let schema = T::schema();
    let defs = schema.get("$defs").cloned();
    let Some(Value::Array(branches)) = schema.get("oneOf").or_else(|| schema.get("anyOf")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for b in branches {
        let description = b
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(Value::Array(units)) = b.get("enum") {
            for u in units.iter().filter_map(Value::as_str) {
                out.push(ToolDef {
                    name: u.to_owned(),
                    description: description.clone(),
                    parameters: serde_json::json!({"type": "object", "properties": {}}),
                });
            }
            continue;
        }
        let Some(Value::Object(props)) = b.get("properties") else {
            continue;
        };
        let Some((name, params)) = props.iter().next() else {
            continue;
        };
        let mut parameters = params.clone();
        if let (Some(d), Value::Object(p)) = (&defs, &mut parameters) {
            if params.to_string().contains("\"$ref\"") {
                p.insert("$defs".into(), d.clone());
            }
        }
        out.push(ToolDef {
            name: name.clone(),
            description,
            parameters,
        });
    }
    out
}

impl ToolCall {
    /// This call as a value of a tool enum (see [`definitions`]), through the same recovery
    /// as [`from_llm`](crate::LlmOutput::from_llm): a miscased name or argument, a number as a
    /// string, are recovered with warnings (paths under the variant, `/ReadFile/path`).
    ///
    /// ```
    /// # use llmout::LlmOutput;
    /// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
    /// enum Tool {
    ///     ReadFile { path: String, line: u32 },
    ///     Stop,
    /// }
    /// let r = llmout::tools::parse(r#"<tool_call>{"name": "ReadFile", "arguments": {"path": "a.rs", "line": "3"}}</tool_call><tool_call>{"name": "Stop"}</tool_call>"#);
    /// let first = r.tool_calls[0].to_typed::<Tool>();
    /// assert_eq!(first.value, Some(Tool::ReadFile { path: "a.rs".into(), line: 3 }));
    /// assert_eq!(first.warnings[0].path, "/ReadFile/line");
    /// assert_eq!(r.tool_calls[1].to_typed::<Tool>().value, Some(Tool::Stop));
    /// ```
    pub fn to_typed<T: crate::LlmOutput>(&self) -> crate::ValidationResult<T> {
        let mut tagged = Map::new();
        tagged.insert(self.name.clone(), Value::Object(self.arguments.clone()));
        let as_struct = T::from_llm(&Value::Object(tagged).to_string());
        if as_struct.value.is_some() || !self.arguments.is_empty() {
            return as_struct;
        }
        // A unit variant is written as its name alone.
        let as_unit = T::from_llm(&Value::String(self.name.clone()).to_string());
        if as_unit.value.is_some() {
            as_unit
        } else {
            as_struct
        }
    }
}

/// A whole reply's tool calls as values of a tool enum: [`parse`], then
/// [`ToolCall::to_typed`] on each call, in order.
///
/// ```
/// # use llmout::LlmOutput;
/// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// enum Tool { Open { path: String }, Close }
/// let (r, tools) = llmout::tools::parse_typed::<Tool>("[TOOL_CALLS]Open{\"path\": \"a\"}[TOOL_CALLS]Close{}");
/// assert_eq!(r.tool_calls.len(), 2);
/// let values: Vec<_> = tools.into_iter().map(|t| t.value).collect();
/// assert_eq!(values, [Some(Tool::Open { path: "a".into() }), Some(Tool::Close)]);
/// ```
pub fn parse_typed<T: crate::LlmOutput>(
    text: &str,
) -> (ToolCallResponse, Vec<crate::ValidationResult<T>>) {
    let r = parse(text);
    let typed = r.tool_calls.iter().map(ToolCall::to_typed).collect();
    (r, typed)
}
