//! Typed tools: an externally tagged enum deriving `LlmOutput` is a tool list. Its
//! definitions are sent to the model; each call read back becomes a value of the enum, with the
//! same recovery as `from_llm`.

use serde_json::{Map, Value};

use super::{parse, ToolCall, ToolCallResponse, ToolDef};

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
