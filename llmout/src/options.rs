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
}

/// The default nesting limit, the same as serde_json's.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for Options {
    fn default() -> Self {
        Options {
            policy: Policy::Lenient,
            max_depth: DEFAULT_MAX_DEPTH,
            drop_invalid_items: false,
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
