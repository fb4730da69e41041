//! Tool calls in the shape of the OpenAI chat API's `tool_calls` field, so that calls read
//! from text can be handed to code written for the API's own field, and calls from the API
//! read as [`ToolCall`]s.

use serde::{Deserialize, Serialize};

use super::read::arguments;
use super::{ToolCall, ToolCallResponse};

/// One entry of an OpenAI chat message's `tool_calls`:
/// `{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}`.
///
/// ```
/// use llmout::tools::OpenAiToolCall;
/// let api: OpenAiToolCall = serde_json::from_str(
///     r#"{"id": "call_7", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}}"#,
/// ).unwrap();
/// let call = llmout::tools::ToolCall::from(api.clone());
/// assert_eq!(call.arguments["tz"], "UTC");
/// assert_eq!(call.to_openai(0), api); // and back
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAiToolCall {
    /// The call's id.
    pub id: String,
    /// Always `"function"`.
    #[serde(rename = "type", default = "function")]
    pub kind: String,
    /// The tool and its arguments.
    pub function: OpenAiFunction,
}

/// The `function` of an [`OpenAiToolCall`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAiFunction {
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON text (an object).
    #[serde(default)]
    pub arguments: String,
}

fn function() -> String {
    "function".to_owned()
}

impl ToolCall {
    /// This call in the OpenAI `tool_calls` shape, its arguments as compact JSON text. A call
    /// read from a format without ids gets `call_{index}` (its index in the reply), so that a
    /// tool's result can name the call it answers.
    ///
    /// ```
    /// let r = llmout::tools::parse("[TOOL_CALLS]get_time[ARGS]{\"tz\": \"UTC\"}");
    /// let api = r.tool_calls[0].to_openai(0);
    /// assert_eq!(
    ///     serde_json::to_value(&api).unwrap(),
    ///     serde_json::json!({"id": "call_0", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\":\"UTC\"}"}})
    /// );
    /// ```
    pub fn to_openai(&self, index: usize) -> OpenAiToolCall {
        OpenAiToolCall {
            id: self.id.clone().unwrap_or_else(|| format!("call_{index}")),
            kind: function(),
            function: OpenAiFunction {
                name: self.name.clone(),
                arguments: serde_json::Value::Object(self.arguments.clone()).to_string(),
            },
        }
    }
}

/// A call from the API: its arguments text read as JSON (leniently, as a model may have
/// written it), an object; anything else gives no arguments.
impl From<OpenAiToolCall> for ToolCall {
    fn from(call: OpenAiToolCall) -> Self {
        let text = serde_json::Value::String(call.function.arguments);
        ToolCall {
            id: (!call.id.is_empty()).then_some(call.id),
            name: call.function.name,
            arguments: arguments(Some(text)).0,
        }
    }
}

impl ToolCallResponse {
    /// The calls in the OpenAI `tool_calls` shape, in order (see [`ToolCall::to_openai`]).
    ///
    /// ```
    /// let r = llmout::tools::parse("<tool_call>{\"name\": \"ls\", \"arguments\": {\"dir\": \"/\"}}</tool_call>");
    /// let api = serde_json::to_value(r.openai_tool_calls()).unwrap();
    /// assert_eq!(api[0]["function"]["arguments"], "{\"dir\":\"/\"}");
    /// ```
    pub fn openai_tool_calls(&self) -> Vec<OpenAiToolCall> {
        self.tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| c.to_openai(i))
            .collect()
    }
}
