//! Typed tools: an externally tagged enum deriving `LlmOutput` is a tool list. Its
//! definitions are sent to the model; each call read back becomes a value of the enum, with the
//! same recovery as `from_llm`.

use serde_json::{Map, Value};

use super::{parse, ToolCall, ToolCallResponse, ToolDef};
use crate::schema::dialect::{to_dialect, Dialect};
use crate::{Error, ErrorKind};

/// The tool definitions of an externally tagged enum deriving `LlmOutput`: one per variant, in
/// the order the enum declares them, named as serde names them, with the variant's doc comment
/// as the description and its fields as the parameters (a variant holding another type has
/// that type's schema, `$defs` carried along when referenced). A unit variant is a tool with no
/// parameters, whether or not it has a doc comment. A type that is not such an enum gives no
/// definitions. [`definitions_for`] gives them in a provider's request shape.
///
/// ```
/// # use llmout::LlmOutput;
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// enum Tool {
///     /// Read a file.
///     ReadFile { path: String },
///     /// Stop working.
///     Stop,
///     Pause,
/// }
/// let defs = llmout::tools::definitions::<Tool>();
/// let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
/// assert_eq!(names, ["ReadFile", "Stop", "Pause"]);
/// assert_eq!(defs[0].description.as_deref(), Some("Read a file."));
/// assert_eq!(defs[0].parameters["required"], serde_json::json!(["path"]));
/// assert_eq!(defs[1].description.as_deref(), Some("Stop working."));
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
        // Unit variants: an `enum` of their names, or a `const` when documented.
        let units: Vec<&str> = match (b.get("enum"), b.get("const")) {
            (Some(Value::Array(units)), _) => units.iter().filter_map(Value::as_str).collect(),
            (_, Some(Value::String(unit))) => vec![unit.as_str()],
            _ => Vec::new(),
        };
        if !units.is_empty() {
            for u in units {
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
        out.push(ToolDef {
            name: name.clone(),
            description,
            parameters: with_defs(params, defs.as_ref()),
        });
    }
    // schemars writes the undocumented unit variants first; serde knows the declared order.
    let order = variant_order::<T>();
    out.sort_by_key(|d| {
        order
            .iter()
            .position(|v| *v == d.name)
            .unwrap_or(order.len())
    });
    out
}

/// A variant's schema as a tool's parameters: a bare reference to one of `defs` is replaced by
/// what it names (a provider wants an object at the root), and `$defs` comes along when the
/// schema refers to any.
fn with_defs(params: &Value, defs: Option<&Value>) -> Value {
    let mut parameters = params.clone();
    let target = params
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("$ref"))
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"));
    if let (Some(name), Some(d)) = (target, defs) {
        if let Some(def) = d.get(name) {
            parameters = def.clone();
        }
    }
    if let (Some(d), Value::Object(p)) = (defs, &mut parameters) {
        if p.values().any(|v| v.to_string().contains("\"$ref\"")) {
            p.insert("$defs".into(), d.clone());
        }
    }
    parameters
}

/// The variant names of `T` in the order it declares them, as serde names them: what its
/// derived `Deserialize` hands to `deserialize_enum`. Empty for a type that is not an
/// externally tagged enum.
fn variant_order<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::{Deserializer, Visitor};

    /// Carries the variant names out of `deserialize_enum`, as the error that stops it.
    #[derive(Debug)]
    struct Variants(&'static [&'static str]);

    impl std::fmt::Display for Variants {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("variant names")
        }
    }

    impl std::error::Error for Variants {}

    impl serde::de::Error for Variants {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Variants(&[])
        }
    }

    struct Probe;

    impl<'de> Deserializer<'de> for Probe {
        type Error = Variants;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Variants> {
            Err(Variants(&[]))
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Variants> {
            Err(Variants(variants))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
            identifier ignored_any
        }
    }

    match T::deserialize(Probe) {
        Err(Variants(v)) => v,
        Ok(_) => &[],
    }
}

/// The tool definitions of `T` (see [`definitions`]) in the request shape of a provider, the
/// value of its `tools` field, each tool's parameters rewritten for the provider as
/// [`to_dialect`] rewrites a schema:
///
/// | dialect | each tool |
/// |---|---|
/// | `OpenAiStrict` | `{"type": "function", "function": {"name", "description", "parameters", "strict": true}}`, the parameters in strict mode's subset |
/// | `Anthropic` | `{"name", "description", "input_schema"}` |
/// | `Gemini` | one `{"functionDeclarations": [{"name", "description", "parameters"}]}`, the parameters in the OpenAPI subset; a tool without arguments (parameters an object with no properties) has no `parameters`, as Gemini refuses an `OBJECT` without properties and takes a declaration without them |
/// | `GeminiJson` | one `{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}` |
///
/// A schema the provider cannot express, or a name its rules do not allow (OpenAI and
/// Anthropic: letters, digits, `_` and `-`, at most 64; Gemini: the same plus `.` and `:`,
/// starting with a letter or `_`), is an [`InvalidSchema`](crate::ErrorKind::InvalidSchema)
/// error naming where.
///
/// ```
/// # use llmout::LlmOutput;
/// use llmout::schema::dialect::Dialect;
/// #[derive(serde::Deserialize, schemars::JsonSchema, LlmOutput)]
/// enum Tool {
///     /// Read a file.
///     ReadFile { path: String, line: Option<u32> },
/// }
/// let tools = llmout::tools::definitions_for::<Tool>(Dialect::OpenAiStrict).unwrap();
/// assert_eq!(tools[0]["function"]["name"], "ReadFile");
/// assert_eq!(tools[0]["function"]["strict"], true);
/// assert_eq!(tools[0]["function"]["parameters"]["required"], serde_json::json!(["path", "line"]));
/// let tools = llmout::tools::definitions_for::<Tool>(Dialect::Anthropic).unwrap();
/// assert_eq!(tools[0]["input_schema"]["properties"]["path"]["type"], "string");
/// ```
pub fn definitions_for<T: crate::LlmOutput>(dialect: Dialect) -> Result<Vec<Value>, Error> {
    tools_for(&definitions::<T>(), dialect)
}

/// Tool definitions (from [`definitions`], or read from a file) in the request shape of a
/// provider: see [`definitions_for`].
///
/// ```
/// use llmout::schema::dialect::Dialect;
/// use llmout::tools::{tools_for, ToolDef};
/// let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([
///     {"name": "get_time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}
/// ])).unwrap();
/// let gemini = tools_for(&defs, Dialect::Gemini).unwrap();
/// assert_eq!(gemini[0]["functionDeclarations"][0]["name"], "get_time");
/// ```
pub fn tools_for(defs: &[ToolDef], dialect: Dialect) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    let mut declarations = Vec::new();
    for (i, def) in defs.iter().enumerate() {
        let (base, key) = match dialect {
            Dialect::OpenAiStrict => (format!("/{i}/function"), "parameters"),
            Dialect::Anthropic => (format!("/{i}"), "input_schema"),
            Dialect::Gemini => (format!("/0/functionDeclarations/{i}"), "parameters"),
            Dialect::GeminiJson => (
                format!("/0/functionDeclarations/{i}"),
                "parametersJsonSchema",
            ),
        };
        check_name(&def.name, dialect, &base)?;
        let parameters = if dialect == Dialect::Gemini && no_arguments(&def.parameters) {
            None
        } else {
            let p = to_dialect(&def.parameters, dialect)
                .map_err(|e| e.at_prefix(&format!("{base}/{key}")))?;
            Some(p)
        };
        let mut tool = Map::new();
        tool.insert("name".into(), Value::String(def.name.clone()));
        if let Some(d) = &def.description {
            tool.insert("description".into(), Value::String(d.clone()));
        }
        if let Some(parameters) = parameters {
            tool.insert(key.into(), parameters);
        }
        match dialect {
            Dialect::OpenAiStrict => {
                tool.insert("strict".into(), Value::Bool(true));
                out.push(serde_json::json!({"type": "function", "function": tool}));
            }
            Dialect::Anthropic => out.push(Value::Object(tool)),
            Dialect::Gemini | Dialect::GeminiJson => declarations.push(Value::Object(tool)),
        }
    }
    if !declarations.is_empty() {
        out.push(serde_json::json!({"functionDeclarations": declarations}));
    }
    Ok(out)
}

/// Whether a tool's parameters take no arguments: an object schema (`"type": "object"`, or
/// no `type`) with no properties and nothing else beside them but annotations and
/// `additionalProperties: false`, as derived for a unit variant.
fn no_arguments(parameters: &Value) -> bool {
    let Value::Object(m) = parameters else {
        return false;
    };
    m.iter().all(|(k, v)| match k.as_str() {
        "type" => v == "object",
        "properties" => v.as_object().is_some_and(Map::is_empty),
        "additionalProperties" => v == &Value::Bool(false),
        "required" => v.as_array().is_some_and(Vec::is_empty),
        "title" | "description" | "$schema" => true,
        k => k.starts_with("x-"),
    })
}

/// A tool's name against the provider's rules.
fn check_name(name: &str, dialect: Dialect, base: &str) -> Result<(), Error> {
    let gemini = matches!(dialect, Dialect::Gemini | Dialect::GeminiJson);
    let allowed = |c: char| {
        c.is_ascii_alphanumeric() || c == '_' || c == '-' || (gemini && (c == '.' || c == ':'))
    };
    let starts = name
        .chars()
        .next()
        .is_some_and(|c| !gemini || c.is_ascii_alphabetic() || c == '_');
    if starts && name.len() <= 64 && name.chars().all(allowed) {
        return Ok(());
    }
    let rule = if gemini {
        "a name of at most 64 letters, digits, `_`, `-`, `.` or `:`, starting with a letter or `_`"
    } else {
        "a name of 1 to 64 letters, digits, `_` or `-`"
    };
    Err(Error::new(
        ErrorKind::InvalidSchema,
        format!("{base}/name"),
        format!("{rule} ({dialect})"),
        format!("{name:?}"),
    ))
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
