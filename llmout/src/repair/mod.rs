//! Lenient JSON: parses the JSON models actually write, in one linear pass, recording every fix.
//!
//! (Placeholder: the full parser lands with issue 3. This module's public API is fixed.)

use serde_json::Value;
use std::fmt;

/// Options for the lenient parser.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RepairOptions {
    /// Nesting limit; deeper input is an error (default 128).
    pub max_depth: usize,
}

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            max_depth: crate::options::DEFAULT_MAX_DEPTH,
        }
    }
}

/// What kind of syntax mistake was fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RepairKind {
    /// A comma after the last member or item was removed.
    TrailingComma,
    /// A comment was removed.
    Comment,
    /// The input ended early; open strings and containers were closed.
    Truncated,
}

impl RepairKind {
    /// A short sentence describing the fix.
    pub fn description(self) -> &'static str {
        match self {
            RepairKind::TrailingComma => "removed a trailing comma",
            RepairKind::Comment => "removed a comment",
            RepairKind::Truncated => "closed what the truncated input left open",
        }
    }
}

/// One fix the lenient parser made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// What was fixed.
    pub kind: RepairKind,
    /// Byte offset in the input where the fix was made.
    pub offset: usize,
    /// JSON pointer of the value being built when the fix was made.
    pub path: String,
}

/// The value the lenient parser produced and the fixes it made.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The parsed value.
    pub value: Value,
    /// Every fix, in input order.
    pub repairs: Vec<Repair>,
}

/// Why the lenient parser gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairError {
    /// Nesting went deeper than the limit.
    pub depth_exceeded: bool,
    /// Byte offset where parsing stopped.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for RepairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for RepairError {}

/// Parses `input` leniently.
pub fn parse(input: &str, options: &RepairOptions) -> Result<Parsed, RepairError> {
    let _ = options;
    serde_json::from_str(input)
        .map(|value| Parsed {
            value,
            repairs: Vec::new(),
        })
        .map_err(|e| RepairError {
            depth_exceeded: false,
            offset: 0,
            message: e.to_string(),
        })
}
