//! Warnings: every change llmout makes to a reply is recorded as one.

use std::borrow::Cow;
use std::fmt;

use crate::repair::RepairKind;

/// What kind of change a [`Warning`] records.
///
/// Each variant corresponds to one stage of the pipeline (see the crate docs): extraction,
/// sanitization, syntax repair, or schema-aligned recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// Text around the JSON (prose, a markdown fence, tags, a reasoning block) was ignored.
    Extracted,
    /// Raw control characters or invalid escapes inside strings were escaped.
    Sanitized,
    /// The lenient parser fixed a syntax mistake.
    Repaired(RepairKind),
    /// A key was matched to a property by alias, case or separator, and renamed.
    KeyRenamed,
    /// A key the schema does not know was dropped.
    UnknownKeyDropped,
    /// A missing field was filled in (schema default, `null` for an optional field, or the
    /// type's empty value).
    MissingField,
    /// A `null` was replaced for a field that is not nullable.
    NullReplaced,
    /// A value was converted to the type the schema expects (number from string, ...).
    Coerced,
    /// An enum value or tag was matched loosely (case, separators, inflection).
    EnumMatched,
    /// A wrapper around the expected value was removed, or a value was wrapped into an array.
    Reshaped,
    /// An array item that could not be recovered was dropped (only when the policy allows it).
    ItemDropped,
    /// Only the required fields were kept, as a last resort.
    RequiredOnly,
    /// A tool call names a tool that is not among the definitions given.
    UnknownTool,
    /// An integer too large for 64 bits is held as the nearest floating-point number, which
    /// loses some of its digits: a `serde_json::Value` holds no larger integer. (JSON text,
    /// as `repair` writes it, keeps the digits; so does a string the schema asks for, where
    /// nothing constrains it: the digits as the reply writes them, and no such warning.)
    NumberRounded,
}

impl WarningKind {
    /// A short, stable, snake_case name for the kind (used by the CLI and in logs).
    ///
    /// ```
    /// assert_eq!(llmout::WarningKind::MissingField.name(), "missing_field");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::Extracted => "extracted",
            WarningKind::Sanitized => "sanitized",
            WarningKind::Repaired(_) => "repaired",
            WarningKind::KeyRenamed => "key_renamed",
            WarningKind::UnknownKeyDropped => "unknown_key_dropped",
            WarningKind::MissingField => "missing_field",
            WarningKind::NullReplaced => "null_replaced",
            WarningKind::Coerced => "coerced",
            WarningKind::EnumMatched => "enum_matched",
            WarningKind::Reshaped => "reshaped",
            WarningKind::ItemDropped => "item_dropped",
            WarningKind::RequiredOnly => "required_only",
            WarningKind::UnknownTool => "unknown_tool",
            WarningKind::NumberRounded => "number_rounded",
        }
    }
}

/// One change llmout made to a reply, with where it made it.
///
/// `path` is a JSON pointer (RFC 6901) into the final value: `""` is the root,
/// `"/items/0/name"` the `name` of the first item.
///
/// ```
/// use llmout::{Warning, WarningKind};
/// let w = Warning::new(WarningKind::MissingField, "/title", "missing required field filled with \"\"");
/// assert_eq!(w.to_string(), "/title: missing required field filled with \"\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What kind of change this is.
    pub kind: WarningKind,
    /// JSON pointer to the value that was changed (`""` for the whole value).
    pub path: String,
    /// A human-readable sentence saying what was changed (borrowed when it is a fixed
    /// sentence, as every syntax repair's is, so a reply with many fixes allocates less).
    pub message: Cow<'static, str>,
}

/// How many bytes of JSON pointers the changes recorded for one reply may hold beyond
/// [`POINTER_PER_LEVEL`] bytes for each level of their values' nesting: a mebibyte, and 16
/// per byte of the reply. Each change names its value by its whole pointer, so a long key
/// above many changes (a megabyte key over a hundred thousand fixed items) would make far
/// more pointer text than reply, quadratic in it; a reply that needs more is refused. What
/// short keys make is free, and bounded by the depth limit: a change at every level of a
/// reply nested 90 deep has pointers 20 times its length. (The lenient parser counts each
/// key on the way, with its `/`, beyond [`POINTER_PER_LEVEL`] bytes, and indices as free,
/// whether it keeps the pointers or only counts the fixes: every output of the parser fails
/// alike.)
pub(crate) fn pointer_budget(reply_len: usize) -> usize {
    (1 << 20) + reply_len.saturating_mul(16)
}

/// The bytes of a pointer not charged to [`pointer_budget`], per level of nesting: a `/` and
/// a key of up to 7 bytes, or an index.
pub(crate) const POINTER_PER_LEVEL: usize = 8;

/// What a pointer of `len` bytes to a value `depth` levels deep costs of [`pointer_budget`].
pub(crate) fn pointer_charge(len: usize, depth: usize) -> usize {
    len.saturating_sub(depth.saturating_mul(POINTER_PER_LEVEL))
}

/// The lenient parser's error message when the pointers of its fixes would hold more than
/// `budget` bytes.
pub(crate) fn over_pointer_budget(budget: usize) -> String {
    format!(
        "the fixes' JSON pointers would hold over {budget} bytes beyond 8 per key (a \
         mebibyte and 16 per byte of the reply): a long key above many fixes"
    )
}

impl Warning {
    /// Makes a warning.
    pub fn new(
        kind: WarningKind,
        path: impl Into<String>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Warning {
            kind,
            path: path.into(),
            message: message.into(),
        }
    }

    /// The [`WarningKind::NumberRounded`] warning for the integer at `path`.
    pub(crate) fn rounded(path: impl Into<String>) -> Self {
        Warning::new(
            WarningKind::NumberRounded,
            path,
            "an integer too large for 64 bits, held as the nearest floating-point number: \
             some of its digits are lost",
        )
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Appends `segment` to a JSON pointer, escaping `~` and `/` as RFC 6901 requires.
///
/// ```
/// assert_eq!(llmout::pointer_push("/a", "b/c"), "/a/b~1c");
/// assert_eq!(llmout::pointer_push("", "x~y"), "/x~0y");
/// ```
pub fn pointer_push(base: &str, segment: &str) -> String {
    let mut out = String::with_capacity(base.len() + segment.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}
