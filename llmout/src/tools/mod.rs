//! Tool calls: the text formats models emit, normalised into one envelope.
//!
//! [`parse`] finds the format by its markers (the earliest marker in the reply decides; no
//! parser is tried blindly; where the reply opens with JSON or a pythonic list, a marker in
//! one of its strings is the string's text), reads every call, and returns a [`ToolCallResponse`]: the text
//! outside the calls as `content`, the calls, and `needs_more_work`. Calls inside reasoning
//! blocks (`<think>…</think>`) are not calls. A reply with no call is content, never an error.
//!
//! | family | markers | example reply |
//! |---|---|---|
//! | JSON (no marker) | none: a JSON envelope `{"content", "tool_calls"/"toolCalls", "needs_more_work"/"needsMoreWork"}`, a `{"name", "arguments"}` call, OpenAI-shaped `{"tool_calls": [{"id", "function": {"name", "arguments": "<json>"}}]}`, or an array of calls; whole, fenced or in prose; more calls may follow the first after `;` (Llama 3), and in each later markdown fence that starts with calls | `Checking. {"name": "ls", "parameters": {"dir": "/"}}; {"name": "pwd", "parameters": {}}` |
//! | pythonic (Llama 3.2 / 4, no marker) | none: a list of calls heading the reply (`]` optional), or a reply that is nothing but calls | `[get_weather(city='Paris', days=[1, 2]), now()]` |
//! | `<function_calls>` (also `antml:`-prefixed; OLMo 3) | `<function_calls>…</function_calls>` | `<function_calls>[{"name": "ls", "arguments": {}}]</function_calls>`; OLMo 3: `<function_calls>\nls(dir="/")\n</function_calls>` |
//! | Anthropic | `<invoke name="…">` (wrapper and `antml:` prefix optional) | `<invoke name="search"><parameter name="q">rust</parameter></invoke>` |
//! | Hermes / Qwen / xLAM / Granite 4 / GLM | `<tool_call>…</tool_call>` (closer optional; where a call follows: in prose it is text) | `<tool_call>{"name": "ls", "arguments": {}}</tool_call>`; a JSON array of calls; pythonic calls; GLM `<tool_call>get_time<arg_key>tz</arg_key><arg_value>UTC</arg_value></tool_call>`, with no arguments `<tool_call>get_time</tool_call>` |
//! | Qwen3-Coder | `<function=name>` (a parameter's closer optional, the call's when the next call or `</tool_call>` ends it; a JSON object in place of the parameters is the arguments, as Llama 3.1 writes a custom tool's call) | `<function=ls><parameter=dir>/tmp</parameter></function>`, `<function=ls>{"dir": "/tmp"}</function>` |
//! | Mistral | `[TOOL_CALLS]` (where a call follows: JSON, or a name and `{`, `[ARGS]` or `[CALL_ID]`; in prose it is text) | `[TOOL_CALLS]get_time[CALL_ID]a1b2c3d4e[ARGS]{"tz": "UTC"}`; older: `[TOOL_CALLS][{"name": "ls", "arguments": {}}]` |
//! | Llama 3.1-3.3 | `<\|python_tag\|>` | `<\|python_tag\|>{"name": "ls", "parameters": {}}; {"name": "pwd", "parameters": {}}`; 3.3: `<\|python_tag\|>[get_weather(city="SF")]<\|eom_id\|>` |
//! | Llama 4 | `<\|python_start\|>…<\|python_end\|>` | `<\|python_start\|>[search(q="rust")]<\|python_end\|>` |
//! | DeepSeek V3 / V3.1 | `<｜tool▁calls▁begin｜>`, `<｜tool▁call▁begin｜>` | V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ls<｜tool▁sep｜>{"dir": "/"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`; V3: `function<｜tool▁sep｜>ls` then a fenced JSON |
//! | DeepSeek V3.2 / V4 (DSML) | `<｜DSML｜function_calls>`, `<｜DSML｜tool_calls>`, `<｜DSML｜invoke name=` | `<｜DSML｜tool_calls><｜DSML｜invoke name="ls"><｜DSML｜parameter name="dir" string="true">/</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>` (`string="false"`: JSON) |
//! | Kimi K2 | `<\|tool_calls_section_begin\|>`, `<\|tool_call_begin\|>` | `<\|tool_call_begin\|>functions.ls:0<\|tool_call_argument_begin\|>{"dir": "/"}<\|tool_call_end\|>` (id also `functions_ls_0`) |
//! | Granite | `<\|tool_call\|>` | `<\|tool_call\|>[{"name": "ls", "arguments": {}}]` |
//! | Granite 20B FC, `<function-call>` | `<function_call>`, `<function-call>` (closers optional) | `<function_call> {"name": "ls", "arguments": {}} <function_call> {…}`; `<function-call>move_camera</function-call>` |
//! | Jamba / MiniMax-Text / Hunyuan A13B / HY v3 | `<tool_calls>…</tool_calls>` | `<tool_calls>[{"name": "ls", "arguments": {}}]</tool_calls>` (Hunyuan inside `<answer>`); HY v3: `<tool_calls><tool_call>ls<tool_sep><arg_key>dir</arg_key><arg_value>/</arg_value></tool_call></tool_calls>` |
//! | Hy3 (released tokenizers) | `<tool_calls:…>`, `<tool_call:…>`: every token with the checkpoint's suffix | `<tool_calls:opensource><tool_call:opensource>ls<tool_sep:opensource><arg_key:opensource>dir</arg_key:opensource><arg_value:opensource>/</arg_value:opensource></tool_call:opensource></tool_calls:opensource>`; reasoning in `<think:opensource>` |
//! | Phi-4 | `functools[` | `functools[{"name": "ls", "arguments": {}}]` |
//! | InternLM | `<\|action_start\|><\|plugin\|>` | `<\|action_start\|><\|plugin\|>{"name": "ls", "parameters": {}}<\|action_end\|>` |
//! | gpt-oss harmony | `<\|channel\|>` messages | `<\|start\|>assistant to=functions.ls<\|channel\|>commentary json<\|message\|>{"dir": "/"}<\|call\|>` (recipient also after the channel); `final` and `commentary` without recipient are content, `analysis` is reasoning |
//! | Gemma | `<\|tool_call>` (closer `<tool_call\|>` or `<turn\|>`) | `<\|tool_call>call:ls{dir:<\|"\|>/tmp<\|"\|>,all:true}<tool_call\|>`; also `{dir='/tmp'}`, `{dir=/tmp}`; Gemma 4's reasoning in `<\|channel>thought…<channel\|>` |
//! | FunctionGemma | `<start_function_call>` | `<start_function_call>call:ls{dir:<escape>/tmp<escape>}<end_function_call>` |
//! | UI-TARS, Command R | `Action:`, where a call starts after it (a name and `(`, or JSON, maybe fenced) | `Thought: The box is at the top.\nAction: click(start_box='(10,20)')`; the thought is content; Command R: ``Action: ```json [{"tool_name": "ls", "parameters": {}}] ``` `` |
//! | MiniMax M2 | `<minimax:tool_call>` | `<minimax:tool_call><invoke name="ls"><parameter name="dir">/</parameter></invoke></minimax:tool_call>` |
//! | MiniMax M3 | `]<]minimax[>[` before every tag (white space may follow it) | `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="ls">]<]minimax[>[<dir>/]<]minimax[>[</dir>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`; reasoning in `<mm:think>` |
//! | Step-3 | `<｜tool_calls_begin｜>`, `<｜tool_call_begin｜>`, `<steptml:invoke name=` | `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="ls"><steptml:parameter name="dir">/</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>` |
//! | MiniCPM | `<function name=` | `<function name="ls"><param name="dir">/</param></function>` (values may be `<![CDATA[…]]>`) |
//! | Seed-OSS | `<seed:tool_call>` | `<seed:tool_call><function=ls><parameter=dir>/</parameter></function></seed:tool_call>`; reasoning in `<seed:think>` |
//! | LongCat | `<longcat_tool_call>` | `<longcat_tool_call>{"name": "ls", "arguments": {}}</longcat_tool_call>`; reasoning in `<longcat_think>` |
//! | Cohere Command | `<\|START_ACTION\|>` | `<\|START_ACTION\|>[{"tool_call_id": "0", "tool_name": "ls", "parameters": {}}]<\|END_ACTION\|>`; reasoning in `<\|START_THINKING\|>` |
//! | Apertus | `<\|tools_prefix\|>` | `<\|tools_prefix\|>[{"ls": {"dir": "/"}}]<\|tools_suffix\|>`; reasoning in `<\|inner_prefix\|>…<\|inner_suffix\|>` |
//! | GigaChat 3 | `function call<\|role_sep\|>`, `<\|function_call\|>` | `Listing.<\|message_sep\|>function call<\|role_sep\|>\n{"name": "ls", "arguments": {}}` |
//! | LFM2 | `<\|tool_call_start\|>` | `<\|tool_call_start\|>[ls(dir="/")]<\|tool_call_end\|>` (or a JSON array) |
//!
//! Rules: arguments given as a JSON string are decoded once, each fix the text it holds
//! needed a warning at the call's arguments (`/tool_calls/0/arguments/city`), and a string
//! that holds no object (or arguments given as an array, a number, a boolean) leaves the
//! call with none and a warning saying so; the fixes a call's own JSON needed are warned of
//! at the call, whatever the family; a text parameter value becomes
//! JSON when it parses as JSON (a number only where JSON writes it back the same: `1.10`
//! and `1e5` stay the text, a version or a code as likely), a string otherwise; a JSON object
//! written in place of a call's parameter elements (DSML, MiniMax M2, Step-3, MiniCPM,
//! Seed-OSS) is its arguments; a call cut off (its JSON unfinished, a
//! string in it left open included, even where a brace inside that string could close the
//! object; its closer never written at the end of the reply) is not a call (but one whose
//! closer was written, its JSON whole but for a bracket left open, is a call, the bracket
//! closed with a warning), and no call is
//! made of a fragment, but the calls of a list written in full before the cut are calls (as
//! the stream shows them); text that is not a call is always content, whatever else fails (a
//! reply with no call is all content, as written: markers that marked no call included); `needs_more_work` is the envelope's flag when it has
//! one, else `true` when there are calls, else `None`. Reasoning (`<think>`, `<thinking>`, `<reasoning>`, and
//! the families' own: Seed-OSS `<seed:think>`, Cohere `<|START_THINKING|>`, MiniMax M3
//! `<mm:think>`, LongCat `<longcat_think>`, Apertus `<|inner_prefix|>`, Gemma 4
//! `<|channel>`, Hy3 `<think:opensource>`, harmony's `analysis`) is never calls and never
//! content; a closer with no opener (the opener was in the prompt) makes all before it
//! reasoning. Where a call is JSON (or pythonic calls) between an opener and a closer, the
//! family's own opener or closer written inside one of its strings (`{"text": "say
//! </tool_call>"}`) is that string's text: the call ends at the closer after its JSON (a
//! closer that comes before the JSON closes, outside its strings, still ends it). A tag
//! written inside a quoted string within brackets or parentheses (a JSON or
//! Python argument that mentions `<think>`) is that string's text, and so is one inside a
//! parameter element (`<parameter=content>`, `<arg_value>` and their kin) or anywhere in a
//! MiniMax M3 call, whose arguments are elements named after them.
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
//! `'single quotes'`, lists, dicts, tuples, sets, trailing commas), and a value that is no
//! literal JSON can hold (`b'z'`, a name, `1e999`, quotes that do not pair) is the text
//! written, as a parameter's text is.
//!
//! **Layout.** Each family is a module of its own (`hermes`, `deepseek`, `harmony`, …) that
//! implements one small trait: its markers, how it reads a whole reply, and how a call of it
//! is followed while it arrives. One registry lists them; the marker scan, [`parse`] and
//! [`Stream`] all walk it, so adding a family is a new module and a line in the registry.
//! What the families share lives beside them: `read` (elements, lenient JSON, JSON calls),
//! `params` (parameters written one at a time), `pythonic`, and the streaming engine in
//! [`stream`].

pub mod stream;

mod apertus;
mod args;
mod calls;
mod cohere;
mod deepseek;
mod dsml;
mod family;
mod fenced;
mod function_call;
mod function_calls;
mod function_gemma;
mod gemma;
mod gigachat;
mod glm;
mod granite;
mod harmony;
mod hermes;
mod hy_v3;
mod internlm;
mod invoke;
mod jamba;
mod json;
mod json_text;
mod json_values;
mod kimi;
mod kv;
mod lfm2;
mod llama;
mod longcat;
mod minicpm;
mod minimax;
mod minimax_m3;
mod mistral;
mod openai;
mod params;
mod phi4;
mod python_start;
mod pythonic;
mod qwen_coder;
mod read;
mod seed_oss;
mod set;
mod step3;
mod typed;
mod ui_tars;
mod xml_calls;

pub use openai::{OpenAiFunction, OpenAiToolCall};
pub use set::ToolSet;
pub use stream::{CallInProgress, Stream, MAX_HEAD};
pub use typed::{definitions, definitions_for, parse_typed, tools_for};

use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::schema::Schema;
use crate::{Warning, WarningKind};
use calls::Calls;
use family::Found;

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
/// from `input_schema` or `schema`). OpenAI's and Anthropic's tool lists deserialize as they
/// are: a definition may be wrapped as OpenAI's chat completions write it (`{"type":
/// "function", "function": {"name", "description", "parameters"}}`), or flat, as its
/// responses API and Anthropic's messages do.
///
/// ```
/// use llmout::tools::ToolDef;
/// let tools: Vec<ToolDef> = serde_json::from_value(serde_json::json!([
///     {"type": "function", "function": {"name": "ls", "parameters": {"type": "object"}}},
///     {"name": "cat", "description": "Print a file", "input_schema": {"type": "object"}},
/// ])).unwrap();
/// assert_eq!((tools[0].name.as_str(), tools[1].name.as_str()), ("ls", "cat"));
/// assert_eq!(tools[1].description.as_deref(), Some("Print a file"));
/// let err = serde_json::from_value::<ToolDef>(serde_json::json!({"type": "function"}));
/// assert!(err.unwrap_err().to_string().starts_with("missing field `name`"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WireToolDef")]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// What it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON schema of its arguments.
    pub parameters: Value,
}

/// A [`ToolDef`] as written: flat, or inside `function` (OpenAI's chat completions).
#[derive(Deserialize)]
struct WireToolDef {
    name: Option<String>,
    description: Option<String>,
    #[serde(alias = "input_schema", alias = "schema")]
    parameters: Option<Value>,
    function: Option<Box<WireToolDef>>,
}

impl TryFrom<WireToolDef> for ToolDef {
    type Error = String;

    fn try_from(mut w: WireToolDef) -> Result<Self, String> {
        if w.name.is_none() {
            if let Some(function) = w.function.take() {
                w = *function;
            }
        }
        let name = w.name.ok_or_else(|| {
            "missing field `name` (a tool definition names its tool, or holds it in \
             `function`, as OpenAI's chat completions write it)"
                .to_owned()
        })?;
        Ok(ToolDef {
            name,
            description: w.description,
            parameters: w.parameters.unwrap_or_else(any_object),
        })
    }
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
    /// ([`parse_with_tools`] only), each at a path under `/tool_calls/N/arguments`; the call
    /// keeps the arguments as given. See [`ToolCallResponse::call_error`].
    #[serde(skip)]
    pub errors: Vec<crate::Error>,
}

impl ToolCallResponse {
    /// Why call `index`'s arguments could not be recovered against its tool's schema, if they
    /// could not (a required argument missing, a value of the wrong type): the entry of
    /// `errors` under `/tool_calls/{index}`.
    ///
    /// ```
    /// let r = llmout::tools::parse("<tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call>");
    /// assert!(r.call_error(0).is_none()); // no definitions, nothing to check against
    /// ```
    pub fn call_error(&self, index: usize) -> Option<&crate::Error> {
        let base = format!("/tool_calls/{index}");
        self.errors.iter().find(|e| {
            e.path()
                .strip_prefix(&base)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }
}

/// Reads every tool call in a reply; see the [module docs](self).
///
/// Memory: a map of arguments per call, 5.2 times the input for 100 MB of calls;
/// [`parse_compact`] keeps each call as its JSON text (2.2 times).
pub fn parse(text: &str) -> ToolCallResponse {
    let read = read(text, Calls::default());
    ToolCallResponse {
        content: read.content,
        tool_calls: read.calls.into_vec(),
        needs_more_work: read.needs_more_work,
        warnings: read.warnings,
        errors: Vec::new(),
    }
}

/// What [`parse`] reads, with the calls where `calls` keeps them.
struct Read {
    content: Option<String>,
    calls: Calls,
    needs_more_work: Option<bool>,
    warnings: Vec<Warning>,
}

fn read(text: &str, calls: Calls) -> Read {
    // The reply without its reasoning, as the stream leaves it out (no copy of a large reply
    // with none).
    let visible = stream::visible(text);
    let t = visible.as_ref();
    let mut found = Found {
        calls,
        ..Found::default()
    };
    let family = match family::detect(t, 0, true, &mut family::Quoted::default()) {
        family::Detected::At(_, f) => Some(f),
        _ => None,
    };
    match family {
        Some(family) => family.read(t, &mut found),
        None => json::read(t, &mut found),
    }
    let strip = family.map_or(&[][..], |f| f.strip());
    let content = match found.content.take() {
        Some(c) => c,
        // No call: the reply is content as it was written, whatever was tried on it (the
        // family's markers too: they marked no call).
        None if found.calls.is_empty() => outside(t, &[], &[], &[]),
        None => outside(t, &found.taken, &found.kept, strip),
    };
    let needs_more_work = found
        .needs_more_work
        .or((!found.calls.is_empty()).then_some(true));
    Read {
        content,
        calls: found.calls,
        needs_more_work,
        warnings: found.warnings,
    }
}

/// [`parse`] for replies too large to hold as calls: each call is written as compact JSON the
/// moment it is read, and read back one at a time ([`CompactResponse::call`]), so a reply of
/// a million calls takes about its calls' text in memory, not a map per call. The content,
/// calls and warnings are [`parse`]'s.
///
/// No map of arguments is built where a family writes its calls or their arguments as JSON
/// (Hermes, Mistral, Llama, Kimi, DeepSeek, harmony, Phi-4, Apertus, replies with no
/// marker, ...): that JSON is repaired to text, the calls' parts are found in it, and the
/// arguments of one large call stay where they are in that text, never copied. Nor where a
/// family writes one argument at a time (`<parameter=…>`, `<invoke>`, `<arg_key>`,
/// pythonic calls, Gemma's keys and values, MiniMax-M3's elements, ...): each value is
/// written as JSON as it is read. Memory for 100 MB of calls: 2.2 times the input; for one
/// call of 115-120 MB (a file in a string, or an array of 2 million objects), 1.9-2.1
/// times in every family; 2.7 times for one call of 144 MB whose arguments are given as a
/// JSON string (OpenAI's `"arguments": "{...}"`), decoded and repaired apart. A call whose
/// JSON would be far longer than its value (a string of raw control characters: `\u0001`,
/// six bytes, for each) is held as its value instead ([`CompactResponse::held_call`]) and
/// its JSON written only as it is written out: 2.05 times for 100 MB of them (3.06 given as a
/// JSON string, decoded apart).
///
/// ```
/// let r = llmout::tools::parse_compact("Reading.\n<tool_call>{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}</tool_call>");
/// assert_eq!(r.content.as_deref(), Some("Reading."));
/// assert_eq!(r.len(), 1);
/// let mut json = Vec::new();
/// r.write_call(0, &mut json).unwrap();
/// assert_eq!(json, br#"{"id":null,"name":"ls","arguments":{"dir":"/"}}"#);
/// assert_eq!(r.call(0), Some(llmout::tools::parse("<tool_call>{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}</tool_call>").tool_calls[0].clone()));
/// ```
pub fn parse_compact(text: &str) -> CompactResponse {
    let read = read(text, Calls::written());
    CompactResponse {
        content: read.content,
        calls: read.calls,
        needs_more_work: read.needs_more_work,
        warnings: read.warnings,
    }
}

/// What [`parse_compact`] reads: [`ToolCallResponse`] with each call kept as its JSON.
#[derive(Debug)]
pub struct CompactResponse {
    /// The text outside the calls, trimmed; `None` when there is none.
    pub content: Option<String>,
    calls: Calls,
    /// The envelope's flag when it has one; else `Some(true)` when there are calls.
    pub needs_more_work: Option<bool>,
    /// What was repaired or left out on the way.
    pub warnings: Vec<Warning>,
}

impl CompactResponse {
    /// How many calls there are.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether there is no call.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Writes call `index` as compact JSON, `{"id", "name", "arguments"}`: what `serde_json`
    /// writes for the [`ToolCall`] (nothing when there is no such call).
    pub fn write_call(&self, index: usize, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.calls.write(index, w)
    }

    /// Call `index`.
    pub fn call(&self, index: usize) -> Option<ToolCall> {
        self.calls.get(index)
    }

    /// Call `index` as it is held: its id and name, and its arguments as compact JSON (what
    /// `serde_json` writes for [`ToolCall::arguments`]), none of it copied. For a call too
    /// large to read back as a map: its arguments can be checked from their text
    /// ([`check_arguments`]).
    ///
    /// A call held as its value ([`held_call`](Self::held_call)) has no such text: it is
    /// made the first time it is asked for here, and kept (up to six times the value).
    ///
    /// ```
    /// use llmout::tools::{parse_compact, CallParts};
    /// let r = parse_compact(r#"<tool_call>{"name": "ls", "arguments": {dir: '/'}, "id": "c1"}</tool_call>"#);
    /// assert_eq!(r.parts(0), Some(CallParts { id: Some("c1"), name: "ls", arguments: r#"{"dir":"/"}"# }));
    /// assert_eq!(r.parts(1), None);
    /// ```
    pub fn parts(&self, index: usize) -> Option<CallParts<'_>> {
        let (name, arguments, id) = self.calls.parts(index)?;
        Some(CallParts {
            id,
            name,
            arguments,
        })
    }

    /// Call `index` where it is held as its value rather than as its JSON text: a call whose
    /// strings hold so many control characters (or quotes and backslashes) that its JSON
    /// would be far longer than it, at least 64 KiB longer (a string of raw U+0001 is six
    /// bytes of JSON for each, `\u0001`). [`write_call`](Self::write_call) writes it as it
    /// makes its JSON, so that nothing that long is held; a caller checking or writing the
    /// call itself can take it here rather than from [`parts`](Self::parts). `None` for any
    /// other call.
    ///
    /// ```
    /// let raw = "\u{1}".repeat(100_000);
    /// let r = llmout::tools::parse_compact(&format!("<tool_call>{{\"name\": \"log\", \"arguments\": {{\"line\": \"{raw}\"}}}}</tool_call>"));
    /// let call = r.held_call(0).unwrap();
    /// assert_eq!(call.arguments["line"], raw.as_str());
    /// let mut json = Vec::new();
    /// r.write_call(0, &mut json).unwrap();
    /// assert_eq!(json.len(), r#"{"id":null,"name":"log","arguments":{"line":""}}"#.len() + 600_000);
    ///
    /// let r = llmout::tools::parse_compact(r#"<tool_call>{"name": "ls", "arguments": {}}</tool_call>"#);
    /// assert!(r.held_call(0).is_none());
    /// ```
    pub fn held_call(&self, index: usize) -> Option<&ToolCall> {
        self.calls.held(index)
    }
}

/// A call of a [`CompactResponse`], as it is held ([`CompactResponse::parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallParts<'a> {
    /// The call's id, if the model gave one.
    pub id: Option<&'a str>,
    /// The tool's name.
    pub name: &'a str,
    /// The arguments as compact JSON: an object.
    pub arguments: &'a str,
}

/// [`parse`], then each call checked against the tool definitions: an unknown tool name is a
/// [`WarningKind::UnknownTool`] warning (the call is kept, for the caller to answer), and the
/// arguments of a known tool are recovered against its schema by the same engine as
/// [`from_llm`](crate::LlmOutput::from_llm), each change a warning under
/// `/tool_calls/N/arguments`.
///
/// Nothing is invented for a tool to run on ([`Policy::NoInvent`](crate::Policy::NoInvent)):
/// a required argument the model did not give is an error on that call (the call is kept,
/// its arguments as given, and [`ToolCallResponse::call_error`] says what is missing), never
/// an empty value; only the schema's own `default` may fill it. Keys the schema does not list
/// are kept unless it says `additionalProperties: false` (then they are dropped, with a
/// warning).
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
///
/// // No path given: the call is kept, with an error, and no path is made up.
/// let r = parse_with_tools(r#"<tool_call>{"name": "read_file", "arguments": {"line": 3, "encoding": "utf-8"}}</tool_call>"#, &tools);
/// assert_eq!(r.tool_calls[0].arguments, serde_json::json!({"line": 3, "encoding": "utf-8"}).as_object().unwrap().clone());
/// assert_eq!(r.call_error(0).unwrap().path(), "/tool_calls/0/arguments/path");
/// ```
pub fn parse_with_tools(text: &str, tools: &[ToolDef]) -> ToolCallResponse {
    // (Each tool's schema compiled once, however many calls it has.)
    ToolSet::new(tools).parse(text)
}

/// [`parse_with_tools`]' check of call `index` against the definitions: its warnings are
/// added to `warnings`; the error, if its arguments could not be recovered, is returned (the
/// call keeps its arguments as given).
///
/// ```
/// use llmout::tools::{check_call, ToolDef};
/// let tools: Vec<ToolDef> = serde_json::from_value(serde_json::json!([{
///     "name": "ls", "parameters": {"type": "object", "properties": {"all": {"type": "boolean"}}}
/// }])).unwrap();
/// let r = llmout::tools::parse_compact("<tool_call>{\"name\": \"ls\", \"arguments\": {\"all\": \"yes\"}}</tool_call>");
/// let mut call = r.call(0).unwrap();
/// let mut warnings = Vec::new();
/// assert!(check_call(0, &mut call, &tools, &mut warnings).is_none());
/// assert_eq!(call.arguments["all"], true);
/// assert_eq!(warnings[0].path, "/tool_calls/0/arguments/all");
/// ```
pub fn check_call(
    index: usize,
    call: &mut ToolCall,
    tools: &[ToolDef],
    warnings: &mut Vec<Warning>,
) -> Option<crate::Error> {
    let def = tools.iter().find(|d| d.name == call.name);
    let schema = def.map(|d| Schema::compile(&d.parameters));
    check_with(index, call, schema.as_ref().map(Result::as_ref), warnings)
}

/// [`check_call`] of `call` against its tool's schema, compiled (or why it could not be):
/// `None` where no tool has the call's name.
fn check_with(
    index: usize,
    call: &mut ToolCall,
    schema: Option<Result<&Schema, &crate::Error>>,
    warnings: &mut Vec<Warning>,
) -> Option<crate::Error> {
    let (recovered, error) = check_borrowed(index, call, schema, warnings);
    if let Some(arguments) = recovered {
        call.arguments = arguments;
    }
    error
}

/// [`check_with`] of a call left as it is: the arguments recovered, or `None` where they
/// stay as given (no such tool, or an error), and the error.
fn check_borrowed(
    index: usize,
    call: &ToolCall,
    schema: Option<Result<&Schema, &crate::Error>>,
    warnings: &mut Vec<Warning>,
) -> (Option<Map<String, Value>>, Option<crate::Error>) {
    let base = format!("/tool_calls/{index}");
    let Some(schema) = schema else {
        warnings.push(Warning::new(
            WarningKind::UnknownTool,
            format!("{base}/name"),
            format!("no tool is named \"{}\"", call.name),
        ));
        return (None, None);
    };
    let recovered = match schema {
        Ok(schema) => crate::pipeline::recover_with_compiled(
            Value::Object(call.arguments.clone()),
            schema,
            &check_options(),
        ),
        Err(e) => crate::ValidationResult::err(e.clone(), Vec::new()),
    };
    match (recovered.value, recovered.error) {
        (Some(Value::Object(args)), None) => {
            for mut w in recovered.warnings {
                w.path = format!("{base}/arguments{}", w.path);
                warnings.push(w);
            }
            (Some(args), None)
        }
        (_, error) => (
            None,
            error.map(|e| e.at_prefix(&format!("{base}/arguments"))),
        ),
    }
}

/// What [`check_call`] recovers arguments with: nothing invented, keys the schema does not
/// list kept.
fn check_options() -> crate::Options {
    crate::Options::default()
        .policy(crate::Policy::NoInvent)
        .keep_unknown_keys(true)
}

/// [`check_call`]'s recovery of a call's arguments, from their JSON text (a
/// [`CompactResponse`]'s, [`CompactResponse::parts`]) against `parameters`, the tool's
/// schema compiled: for arguments too large to hold as a map, such as an array of a million
/// rows. It is [`large::recover_json`](crate::large::recover_json) with `check_call`'s
/// options: item by item where the arguments' shape allows, else whole; the value, warnings
/// and error are those `check_call` finds, but for their paths, which are the arguments'
/// own (no `/tool_calls/N/arguments` before them).
///
/// As in `check_call`, the call keeps its arguments as given where the result is an error
/// or no object.
///
/// ```
/// use llmout::large::Large;
/// use llmout::schema::Schema;
/// use llmout::tools::{check_arguments, parse_compact};
/// use serde_json::json;
/// let parameters = Schema::compile(&json!({
///     "type": "object",
///     "properties": {"rows": {"type": "array", "items": {"type": "integer"}}},
///     "required": ["rows"]
/// })).unwrap();
/// let r = parse_compact(r#"<tool_call>{"name": "load", "arguments": {"rows": [1, "2", 3]}}</tool_call>"#);
/// let Large::Items(items) = check_arguments(r.parts(0).unwrap().arguments, &parameters) else {
///     panic!("an object around an array of items")
/// };
/// let mut rows = Vec::new();
/// items.for_each_item(|v| -> Result<(), ()> { rows.push(v); Ok(()) }).unwrap();
/// assert_eq!(rows, [json!(1), json!(2), json!(3)]);
/// let mut paths = Vec::new();
/// items.for_each_warning(|w| -> Result<(), ()> { paths.push(w.path); Ok(()) }).unwrap();
/// assert_eq!(paths, ["/rows/1"]);
/// ```
pub fn check_arguments<'a>(
    arguments: &'a str,
    parameters: &'a crate::schema::Schema,
) -> crate::large::Large<'a> {
    crate::large::recover_json(arguments, parameters, &check_options())
}

/// The text outside `taken` (but for the `kept` ranges inside it: calls that were no calls),
/// trimmed; `None` when empty. The family's section markers (`strip`) left around are
/// dropped too.
pub(crate) fn outside(
    t: &str,
    taken: &[Range<usize>],
    kept: &[Range<usize>],
    strip: &[&str],
) -> Option<String> {
    let hidden = subtract(merged(taken), &merged(kept));
    let mut out = String::new();
    let mut at = 0;
    for r in hidden {
        out.push_str(t.get(at..r.start).unwrap_or_default());
        at = r.end;
    }
    out.push_str(t.get(at..).unwrap_or_default());
    for marker in strip {
        if out.contains(marker) {
            out = out.replace(marker, "");
        }
    }
    // Trimmed in place: the content of a large reply is not copied again.
    out.truncate(out.trim_end().len());
    let lead = out.len() - out.trim_start().len();
    out.drain(..lead);
    (!out.is_empty()).then_some(out)
}

/// `ranges` sorted, overlapping ones joined.
fn merged(ranges: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The parts of `ranges` outside `holes` (both sorted and disjoint), in order.
fn subtract(ranges: Vec<Range<usize>>, holes: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(ranges.len());
    let mut h = 0;
    for mut r in ranges {
        while h < holes.len() && holes[h].end <= r.start {
            h += 1;
        }
        let mut k = h;
        while k < holes.len() && holes[k].start < r.end {
            if holes[k].start > r.start {
                out.push(r.start..holes[k].start);
            }
            r.start = r.start.max(holes[k].end);
            k += 1;
        }
        if r.start < r.end {
            out.push(r);
        }
    }
    out
}
