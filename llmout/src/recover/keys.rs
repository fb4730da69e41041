//! Matching an object's keys to the schema's properties.
//!
//! Exact name first, then an `x-aliases` entry, then the same letters and digits ignoring
//! case, separators and spaces (`Summary` ~ `summary`, `user_id` ~ `userId`,
//! `" created at "` ~ `created_at`). A key that folds to two different properties is
//! ambiguous.

use super::text::fold;
use crate::schema::Object;

/// How a key matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyMatch {
    /// The property's own name.
    Exact(usize),
    /// A declared alias.
    Alias(usize),
    /// Equal ignoring case and separators.
    Loose(usize),
    /// Folds to several properties.
    Ambiguous(Vec<usize>),
    /// No property.
    Unknown,
}

/// Folded names of an object's properties and aliases, computed on the first key that does
/// not match exactly (valid replies never pay for folding).
#[derive(Default)]
pub(crate) struct KeyIndex {
    folded: Option<Vec<(String, usize)>>,
}

impl KeyIndex {
    pub(crate) fn new() -> Self {
        KeyIndex::default()
    }

    pub(crate) fn lookup(&mut self, object: &Object, key: &str) -> KeyMatch {
        if let Some(i) = object.properties.iter().position(|p| p.name == key) {
            return KeyMatch::Exact(i);
        }
        if let Some((_, i)) = object.aliases.iter().find(|(a, _)| a == key) {
            return KeyMatch::Alias(*i);
        }
        let f = fold(key);
        if f.is_empty() {
            return KeyMatch::Unknown;
        }
        let folded = self.folded.get_or_insert_with(|| {
            let mut folded: Vec<(String, usize)> = object
                .properties
                .iter()
                .enumerate()
                .map(|(i, p)| (fold(&p.name), i))
                .collect();
            folded.extend(object.aliases.iter().map(|(a, i)| (fold(a), *i)));
            folded
        });
        let mut hits: Vec<usize> = Vec::new();
        for (name, i) in folded.iter() {
            if *name == f && !hits.contains(i) {
                hits.push(*i);
            }
        }
        match hits.len() {
            0 => KeyMatch::Unknown,
            1 => KeyMatch::Loose(hits[0]),
            _ => KeyMatch::Ambiguous(hits),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Kind, Schema};
    use serde_json::json;

    fn object(schema: serde_json::Value) -> Object {
        let s = Schema::compile(&schema).unwrap();
        match &s.node(s.resolve(s.root())).kind {
            Kind::Object(o) => o.clone(),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn lookups() {
        let o = object(json!({
            "properties": {"userId": {}, "created_at": {}, "summary": {}},
            "x-aliases": {"uid": "userId"}
        }));
        let mut ix = KeyIndex::new();
        assert_eq!(ix.lookup(&o, "userId"), KeyMatch::Exact(0));
        assert_eq!(ix.lookup(&o, "uid"), KeyMatch::Alias(0));
        assert_eq!(ix.lookup(&o, "UID"), KeyMatch::Loose(0));
        assert_eq!(ix.lookup(&o, "user_id"), KeyMatch::Loose(0));
        assert_eq!(ix.lookup(&o, "createdAt"), KeyMatch::Loose(1));
        assert_eq!(ix.lookup(&o, " Summary "), KeyMatch::Loose(2));
        assert_eq!(ix.lookup(&o, "other"), KeyMatch::Unknown);
        assert_eq!(ix.lookup(&o, "--"), KeyMatch::Unknown);
    }

    #[test]
    fn ambiguous() {
        let o = object(json!({"properties": {"user_id": {}, "userId": {}}}));
        let mut ix = KeyIndex::new();
        assert_eq!(ix.lookup(&o, "user_id"), KeyMatch::Exact(0));
        assert_eq!(ix.lookup(&o, "UserID"), KeyMatch::Ambiguous(vec![0, 1]));
    }
}
