//! [`Options`]: how far `from_llm` may go to recover a value.

use std::borrow::Cow;

/// How much recovery is allowed. The three policies side by side:
///
/// | | [`Lenient`](Policy::Lenient) (default) | [`NoInvent`](Policy::NoInvent) | [`Strict`](Policy::Strict) |
/// |---|---|---|---|
/// | extraction, sanitization, syntax repair | yes | yes | yes |
/// | keys by alias, case, separators | renamed | renamed | error |
/// | coercions (`"3"` -> 3, `"yes"` -> true) | done | done | error |
/// | enum values in other words | matched | matched | error |
/// | shapes (wrappers, one-element arrays, plain text for a string) | reshaped | reshaped | error |
/// | a required field missing, or `null` where it may not be | filled (default, `null`, empty value) | error naming the field (a schema `default` is taken) | error |
/// | a `null` array item or map value that may not be `null` | filled with the empty value | error naming it | error |
///
/// Every change made is a [`Warning`](crate::Warning); a field marked `no_invent` is never
/// filled in under any policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Policy {
    /// Extract, sanitize, repair syntax, and apply every schema-aligned recovery rule
    /// (each recorded as a warning). The default.
    #[default]
    Lenient,
    /// Extract, sanitize and repair syntax, but turn every schema-aligned recovery rule
    /// (missing fields, coercions, renamed keys, ...) into an error.
    Strict,
    /// Apply every rule that only reinterprets what the model wrote (keys, coercions, enums,
    /// shapes), but never fill in a value it did not write: a required field that is missing
    /// or `null` (and not nullable), and a `null` array item or map value, is an error
    /// ([`ErrorKind::Forbidden`](crate::ErrorKind::Forbidden)) naming the field by its path.
    /// What tool arguments are recovered with
    /// ([`tools::parse_with_tools`](crate::tools::parse_with_tools)).
    ///
    /// Two things are not inventing. A schema `default` is taken: the schema's author said what
    /// a missing value means (serde's `#[serde(default)]` does the same). And a reply of plain
    /// text read as the value, where the type is a string or has one required string field
    /// (seed 003's "markdown wrapper"), is the model's own text reinterpreted, like a value
    /// taken out of a wrapper: nothing is filled in, and the type's other fields stay as the
    /// reply left them (absent, so optional or an error).
    ///
    /// ```
    /// use llmout::{Options, Policy};
    /// let schema = serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///     "required": ["city", "days"]
    /// });
    /// let o = Options::default().policy(Policy::NoInvent);
    /// let r = llmout::from_llm_with_schema("{\"City\": \"Oslo\", \"days\": \"3\"}", &schema, &o);
    /// assert_eq!(r.value, Some(serde_json::json!({"city": "Oslo", "days": 3}))); // reinterpreted
    /// let r = llmout::from_llm_with_schema("{\"city\": \"Oslo\"}", &schema, &o);
    /// assert!(r.value.is_none()); // `days` would have been invented
    /// assert!(llmout::from_llm_with_schema("{\"city\": \"Oslo\"}", &schema, &Options::default()).value.is_some());
    /// ```
    NoInvent,
}

impl Policy {
    /// Every policy, from the most lenient.
    pub const ALL: [Policy; 3] = [Policy::Lenient, Policy::NoInvent, Policy::Strict];

    /// The CLI name (`llmout parse --policy NAME`).
    ///
    /// ```
    /// use llmout::Policy;
    /// assert_eq!(Policy::NoInvent.name(), "no-invent");
    /// assert_eq!("strict".parse::<Policy>(), Ok(Policy::Strict));
    /// assert!("loose".parse::<Policy>().is_err());
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Policy::Lenient => "lenient",
            Policy::NoInvent => "no-invent",
            Policy::Strict => "strict",
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown policy {s:?}: expected lenient, no-invent or strict"))
    }
}

/// Options for one call of the pipeline.
///
/// ```
/// use llmout::{Options, Policy};
/// let o = Options::default().policy(Policy::Strict).max_depth(64);
/// assert_eq!(o.get_policy(), Policy::Strict);
/// assert_eq!(o.get_max_depth(), 64);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    policy: Policy,
    max_depth: usize,
    drop_invalid_items: bool,
    /// `None`: decided by the entry point (kept for runtime schemas, dropped for derived types).
    keep_unknown_keys: Option<bool>,
}

/// The default nesting limit, the same as serde_json's.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for Options {
    fn default() -> Self {
        Options {
            policy: Policy::Lenient,
            max_depth: DEFAULT_MAX_DEPTH,
            drop_invalid_items: false,
            keep_unknown_keys: None,
        }
    }
}

impl Options {
    /// The default options: lenient policy, depth limit 128.
    pub fn new() -> Self {
        Self::default()
    }

    /// Options with the [`Policy::Strict`] policy.
    pub fn strict() -> Self {
        Self::default().policy(Policy::Strict)
    }

    /// Sets the recovery policy.
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets the nesting limit (at least 1). Deeper input is an error, never a stack overflow.
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth.max(1);
        self
    }

    /// Lets recovery drop an array item that cannot be recovered (with an `ItemDropped`
    /// warning naming its index) instead of failing the whole reply. Off by default: an item is
    /// never dropped unless asked for. Ignored under [`Policy::Strict`].
    ///
    /// ```
    /// use llmout::{LlmOutput, Options};
    /// let r = Vec::<u8>::from_llm_with("[1, \"two\", 3]", &Options::default().drop_invalid_items(true));
    /// assert_eq!(r.value, Some(vec![1, 3]));
    /// assert_eq!(r.warnings[0].path, "/1");
    /// assert!(Vec::<u8>::from_llm("[1, \"two\", 3]").value.is_none());
    /// ```
    pub fn drop_invalid_items(mut self, drop: bool) -> Self {
        self.drop_invalid_items = drop;
        self
    }

    /// Whether keys that an object's schema does not list are kept (where the schema does not
    /// say `additionalProperties: false`, which JSON Schema needs to forbid them) or dropped
    /// with an `UnknownKeyDropped` warning.
    ///
    /// Unset, each entry point decides: a schema given at run time
    /// ([`from_llm_with_schema`](crate::from_llm_with_schema), `llmout parse --schema`) and
    /// tool arguments keep them, since the schema allows them and the value is JSON that carries
    /// them; [`from_llm`](crate::LlmOutput::from_llm) drops them, since serde would ignore them
    /// without a word (unless the type takes them, with `#[serde(flatten)]` into a map).
    ///
    /// ```
    /// use llmout::Options;
    /// use serde_json::json;
    /// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// let reply = "{\"city\": \"Oslo\", \"days\": 3}";
    /// let r = llmout::from_llm_with_schema(reply, &schema, &Options::default());
    /// assert_eq!(r.value, Some(json!({"city": "Oslo", "days": 3})));
    /// let o = Options::default().keep_unknown_keys(false);
    /// let r = llmout::from_llm_with_schema(reply, &schema, &o);
    /// assert_eq!(r.value, Some(json!({"city": "Oslo"})));
    /// assert_eq!(r.warnings[0].to_string(), "/days: dropped unknown key \"days\"");
    /// ```
    pub fn keep_unknown_keys(mut self, keep: bool) -> Self {
        self.keep_unknown_keys = Some(keep);
        self
    }

    /// Whether keys the schema does not list are kept: `None` when not set, so that each entry
    /// point decides (see [`keep_unknown_keys`](Options::keep_unknown_keys)).
    pub fn get_keep_unknown_keys(&self) -> Option<bool> {
        self.keep_unknown_keys
    }

    /// These options for a schema given at run time: keys it does not list are kept unless
    /// [`keep_unknown_keys`](Options::keep_unknown_keys) says otherwise.
    pub(crate) fn for_runtime_schema(&self) -> Cow<'_, Options> {
        match self.keep_unknown_keys {
            Some(_) => Cow::Borrowed(self),
            None => Cow::Owned(self.clone().keep_unknown_keys(true)),
        }
    }

    /// Whether invalid array items may be dropped.
    pub fn get_drop_invalid_items(&self) -> bool {
        self.drop_invalid_items
    }

    /// The recovery policy.
    pub fn get_policy(&self) -> Policy {
        self.policy
    }

    /// The nesting limit.
    pub fn get_max_depth(&self) -> usize {
        self.max_depth
    }
}
