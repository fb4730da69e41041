//! The schema's constraints ([`Check`]s: `pattern`, ...) checked on the values recovery
//! produces.
//!
//! A value that breaks one is not changed to fit (that would invent a value): the break is a
//! [`Violation`], recorded like a warning (not while a union only weighs its branches) and
//! costing [`VIOLATION_COST`], so that a union prefers a branch the value fits and, among
//! branches it breaks, the one it breaks least. Recovery with violations left is an
//! [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) error listing all of them.

use serde_json::Value;

use super::Walker;
use crate::schema::{Check, NodeId};
use crate::Violation;

/// The cost of one violation: more than the changes of any realistic reply add up to, so that
/// a value that fits a union's branch after many changes beats one that breaks another.
pub(super) const VIOLATION_COST: u64 = 1 << 20;

impl Walker<'_> {
    /// Checks `v`, the value produced at the current path for node `id` (as it is, or the value
    /// as given when that is what is kept), against `id`'s checks that apply to its type.
    pub(super) fn check_value(&mut self, id: NodeId, v: &Value) {
        if let Value::String(s) = v {
            self.check_str(id, s);
        }
    }

    /// Checks the string produced at the current path for node `id`.
    pub(super) fn check_str(&mut self, id: NodeId, s: &str) {
        let schema = self.schema;
        for check in schema.checks(id) {
            match check {
                Check::Pattern(p) if !p.is_match(s) => self.violate(|name| {
                    (
                        "pattern",
                        format!("a string matching the pattern {}", p.as_str()),
                        quoted(s),
                        format!(
                            "{name} is {}, which does not match the pattern {}",
                            quoted(s),
                            p.as_str()
                        ),
                    )
                }),
                _ => {}
            }
        }
    }

    /// Records a violation at the current path: `describe` gives the keyword, what it asks
    /// for, what was found, and the message, from the value's name in plain words (called
    /// only when the violation is kept). Counted in every case.
    fn violate(&mut self, describe: impl FnOnce(&str) -> (&'static str, String, String, String)) {
        self.cost += VIOLATION_COST;
        if self.dry == 0 {
            let (keyword, expected, found, message) = describe(&name(&self.path));
            self.violations.push(Violation::new(
                self.path.clone(),
                keyword,
                expected,
                found,
                capitalised(message),
            ));
        }
    }
}

/// The value at `path`, named for a message: `` `title` ``, `` `items/0/name` ``, or "the
/// value" for the whole reply.
fn name(path: &str) -> String {
    match path.strip_prefix('/') {
        Some(rest) => format!("`{rest}`"),
        None => "the value".to_owned(),
    }
}

/// A string as JSON, its first 40 characters and `…` when longer.
fn quoted(s: &str) -> String {
    let mut chars = s.char_indices();
    match chars.nth(40) {
        None => Value::from(s).to_string(),
        Some((cut, _)) => {
            let mut q = Value::from(&s[..cut]).to_string();
            q.insert(q.len() - 1, '…');
            q
        }
    }
}

/// `message` with its first letter in upper case ("the value ..." opens a sentence).
fn capitalised(message: String) -> String {
    match message.strip_prefix("the value") {
        Some(rest) => format!("The value{rest}"),
        None => message,
    }
}
