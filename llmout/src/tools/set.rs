//! [`ToolSet`]: tool definitions made ready to check many calls against.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{ToolCall, ToolDef};
use crate::schema::Schema;
use crate::{Error, Warning};

/// Tool definitions ready to check calls against ([`check_call`](Self::check_call)): a
/// call's tool is found by hashing its name, and each tool's `parameters` are compiled once,
/// the first time a call to it is checked.
///
/// [`check_call`](super::check_call) and [`parse_with_tools`](super::parse_with_tools) take
/// a slice of definitions and compile a tool's schema for each call. A caller that checks
/// many calls, or the calls of many replies, keeps one `ToolSet` (it is `Send` and `Sync`:
/// threads can share it). It borrows the definitions or owns them.
///
/// ```
/// use llmout::tools::{parse, ToolDef, ToolSet};
/// let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([{
///     "name": "ls", "parameters": {"type": "object", "properties": {"all": {"type": "boolean"}}}
/// }])).unwrap();
/// let tools = ToolSet::new(defs);
/// for reply in [
///     "<tool_call>{\"name\": \"ls\", \"arguments\": {\"all\": \"yes\"}}</tool_call>",
///     "<tool_call>{\"name\": \"ls\", \"arguments\": {\"All\": false}}</tool_call>",
/// ] {
///     let mut r = parse(reply);
///     let mut warnings = Vec::new();
///     assert!(tools.check_call(0, &mut r.tool_calls[0], &mut warnings).is_none());
///     assert_eq!(warnings.len(), 1);
/// }
/// assert_eq!(tools.get("ls").unwrap().name, "ls");
/// assert!(tools.get("rm").is_none());
/// ```
pub struct ToolSet<'t> {
    defs: Cow<'t, [ToolDef]>,
    /// Each name's first definition.
    by_name: HashMap<String, usize>,
    /// Each definition's parameters, compiled on first use.
    compiled: Vec<OnceLock<Result<Schema, Error>>>,
}

impl<'t> ToolSet<'t> {
    /// The definitions, borrowed (`&[ToolDef]`) or owned (`Vec<ToolDef>`). Where two share a
    /// name, the first is the one calls are checked against, as in
    /// [`check_call`](super::check_call).
    pub fn new(defs: impl Into<Cow<'t, [ToolDef]>>) -> Self {
        let defs = defs.into();
        let mut by_name = HashMap::with_capacity(defs.len());
        for (i, d) in defs.iter().enumerate() {
            by_name.entry(d.name.clone()).or_insert(i);
        }
        let compiled = defs.iter().map(|_| OnceLock::new()).collect();
        ToolSet {
            defs,
            by_name,
            compiled,
        }
    }

    /// The definitions, in their order.
    pub fn defs(&self) -> &[ToolDef] {
        &self.defs
    }

    /// The definition of the tool named `name`, exactly.
    pub fn get(&self, name: &str) -> Option<&ToolDef> {
        self.by_name.get(name).map(|&i| &self.defs[i])
    }

    /// The parameters of the tool named `name`, compiled (once), or why they could not be:
    /// `None` where no tool has that name.
    pub fn schema(&self, name: &str) -> Option<Result<&Schema, &Error>> {
        let i = *self.by_name.get(name)?;
        let compiled = self.compiled[i].get_or_init(|| Schema::compile(&self.defs[i].parameters));
        Some(compiled.as_ref())
    }

    /// [`parse_with_tools`](super::parse_with_tools) of `text` against these definitions:
    /// the calls in the reply, each checked ([`check_call`](Self::check_call)).
    ///
    /// ```
    /// use llmout::tools::{ToolDef, ToolSet};
    /// let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([{
    ///     "name": "ls", "parameters": {"type": "object", "properties": {"all": {"type": "boolean"}}}
    /// }])).unwrap();
    /// let tools = ToolSet::new(&defs[..]);
    /// let r = tools.parse("<tool_call>{\"name\": \"ls\", \"arguments\": {\"all\": \"yes\"}}</tool_call>");
    /// assert_eq!(r.tool_calls[0].arguments["all"], true);
    /// assert_eq!(r.warnings[0].path, "/tool_calls/0/arguments/all");
    /// ```
    pub fn parse(&self, text: &str) -> super::ToolCallResponse {
        let mut r = super::parse(text);
        for (i, call) in r.tool_calls.iter_mut().enumerate() {
            if let Some(e) = self.check_call(i, call, &mut r.warnings) {
                r.errors.push(e);
            }
        }
        r
    }

    /// [`check_call`](super::check_call), with the tool's schema compiled once for every
    /// call: the same warnings, error and arguments.
    pub fn check_call(
        &self,
        index: usize,
        call: &mut ToolCall,
        warnings: &mut Vec<Warning>,
    ) -> Option<Error> {
        super::check_with(index, call, self.schema(&call.name), warnings)
    }

    /// [`check_call`](Self::check_call) of a call that is not changed (one a
    /// [`CompactResponse`](super::CompactResponse) holds, [`held_call`]): the arguments
    /// `check_call` would leave in it where it recovers them, else `None` (they stay as
    /// given: no such tool, or an error), and the error. The same warnings.
    ///
    /// [`held_call`]: super::CompactResponse::held_call
    ///
    /// ```
    /// use llmout::tools::{parse_compact, ToolDef, ToolSet};
    /// let defs: Vec<ToolDef> = serde_json::from_value(serde_json::json!([{
    ///     "name": "log", "parameters": {"type": "object", "properties": {"line": {"type": "string"}, "level": {"type": "integer"}}}
    /// }])).unwrap();
    /// let tools = ToolSet::new(defs);
    /// let raw = "\u{1}".repeat(100_000);
    /// let r = parse_compact(&format!("<tool_call>{{\"name\": \"log\", \"arguments\": {{\"line\": \"{raw}\", \"level\": \"2\"}}}}</tool_call>"));
    /// let mut warnings = Vec::new();
    /// let (arguments, error) = tools.check_unchanged(0, r.held_call(0).unwrap(), &mut warnings);
    /// assert!(error.is_none());
    /// assert_eq!(arguments.unwrap()["level"], 2);
    /// assert_eq!(warnings[0].path, "/tool_calls/0/arguments/level");
    /// ```
    pub fn check_unchanged(
        &self,
        index: usize,
        call: &ToolCall,
        warnings: &mut Vec<Warning>,
    ) -> (Option<Map<String, Value>>, Option<Error>) {
        super::check_borrowed(index, call, self.schema(&call.name), warnings)
    }
}

impl std::fmt::Debug for ToolSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSet").field("defs", &self.defs).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(v: &serde_json::Value) -> ToolCall {
        ToolCall {
            id: None,
            name: v["name"].as_str().unwrap().to_owned(),
            arguments: v["arguments"].as_object().unwrap().clone(),
        }
    }

    fn defs() -> Vec<ToolDef> {
        serde_json::from_value(json!([
            {"name": "read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "integer"}}, "required": ["path"]}},
            {"name": "bad", "parameters": {"type": 3}},
            {"name": "read", "parameters": {"type": "object"}}
        ]))
        .unwrap()
    }

    /// Every call checked through a set is checked as `check_call` checks it: renamed and
    /// coerced arguments, a missing required one, a tool whose schema is no schema, a tool
    /// of no definition; the first of two definitions of one name.
    #[test]
    fn a_set_checks_each_call_as_check_call_does() {
        let defs = defs();
        let set = ToolSet::new(&defs[..]);
        let calls = [
            json!({"name": "read", "arguments": {"Path": "a.rs", "line": "3"}}),
            json!({"name": "read", "arguments": {"line": 3}}),
            json!({"name": "bad", "arguments": {"x": 1}}),
            json!({"name": "write", "arguments": {"x": 1}}),
        ];
        for (i, given) in calls.iter().enumerate() {
            let mut a = call(given);
            let mut b = a.clone();
            let (mut wa, mut wb) = (Vec::new(), Vec::new());
            let ea = super::super::check_call(i, &mut a, &defs, &mut wa);
            let eb = set.check_call(i, &mut b, &mut wb);
            assert_eq!(a, b, "{given}");
            assert_eq!(wa, wb, "{given}");
            assert_eq!(
                ea.map(|e| e.to_string()),
                eb.map(|e| e.to_string()),
                "{given}"
            );
        }
        let mut first = call(&calls[0]);
        let mut warnings = Vec::new();
        assert!(set.check_call(0, &mut first, &mut warnings).is_none());
        assert_eq!(
            first.arguments,
            *json!({"path": "a.rs", "line": 3}).as_object().unwrap()
        );
        let mut missing = call(&calls[1]);
        let e = set.check_call(1, &mut missing, &mut warnings).unwrap();
        assert_eq!(e.path(), "/tool_calls/1/arguments/path");
        assert_eq!(missing.arguments, *json!({"line": 3}).as_object().unwrap());
        let mut bad = call(&calls[2]);
        let e = set.check_call(2, &mut bad, &mut warnings).unwrap();
        assert_eq!(e.kind(), crate::ErrorKind::InvalidSchema);
        warnings.clear();
        let mut unknown = call(&calls[3]);
        assert!(set.check_call(3, &mut unknown, &mut warnings).is_none());
        assert_eq!(warnings[0].path, "/tool_calls/3/name");
        assert_eq!(warnings[0].message, "no tool is named \"write\"");
        assert!(set.schema("bad").unwrap().is_err());
        assert!(set.schema("write").is_none());
        assert_eq!(
            set.get("read").unwrap().parameters["required"],
            json!(["path"])
        );
        fn shared<T: Send + Sync>(_: &T) {}
        shared(&ToolSet::new(defs.clone()));
    }
}
