//! [`Options`]: how far `from_llm` may go to recover a value.

/// How much recovery is allowed.
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
    /// (or `null` and not nullable) is an error unless the schema gives it a `default`. What
    /// tool arguments are recovered with ([`tools::parse_with_tools`](crate::tools::parse_with_tools)).
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
    keep_unknown_keys: bool,
}

/// The default nesting limit, the same as serde_json's.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for Options {
    fn default() -> Self {
        Options {
            policy: Policy::Lenient,
            max_depth: DEFAULT_MAX_DEPTH,
            drop_invalid_items: false,
            keep_unknown_keys: false,
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

    /// Keeps keys that an object's schema does not list, unless the schema says
    /// `additionalProperties: false` (JSON Schema allows them otherwise). Off by default:
    /// `from_llm` drops them with a warning, because serde would ignore them; tool arguments
    /// keep them.
    ///
    /// ```
    /// use llmout::Options;
    /// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// let o = Options::default().keep_unknown_keys(true);
    /// let r = llmout::from_llm_with_schema("{\"city\": \"Oslo\", \"days\": 3}", &schema, &o);
    /// assert_eq!(r.value, Some(serde_json::json!({"city": "Oslo", "days": 3})));
    /// ```
    pub fn keep_unknown_keys(mut self, keep: bool) -> Self {
        self.keep_unknown_keys = keep;
        self
    }

    /// Whether keys the schema does not list are kept.
    pub fn get_keep_unknown_keys(&self) -> bool {
        self.keep_unknown_keys
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
