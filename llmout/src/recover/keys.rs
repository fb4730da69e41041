//! Matching an object's keys to the schema's properties.
//!
//! Exact name first, then an `x-aliases` entry, then the same letters and digits ignoring
//! case, separators and spaces (`Summary` ~ `summary`, `user_id` ~ `userId`,
//! `" created at "` ~ `created_at`). A key that folds to two different properties is
//! ambiguous.

use std::collections::HashMap;

use super::text::fold;
use crate::schema::{NodeId, Object};

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

/// Folded names of objects' properties and aliases, per schema node, computed the first time
/// a key of that object does not match exactly (valid replies never pay for folding), and
/// reused for every other object of the same schema in the reply.
#[derive(Default)]
pub(crate) struct KeyIndex {
    folded: HashMap<NodeId, Vec<(String, usize)>>,
}

impl KeyIndex {
    pub(crate) fn new() -> Self {
        KeyIndex::default()
    }

    /// Matches `key` to a property of `object`, the object schema at node `id`.
    pub(crate) fn lookup(&mut self, id: NodeId, object: &Object, key: &str) -> KeyMatch {
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
        let folded = self.folded.entry(id).or_insert_with(|| {
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

    fn object(schema: serde_json::Value) -> (NodeId, Object) {
        let s = Schema::compile(&schema).unwrap();
        let id = s.resolve(s.root());
        match &s.node(id).kind {
            Kind::Object(o) => (id, o.clone()),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn lookups() {
        let (id, o) = object(json!({
            "properties": {"userId": {}, "created_at": {}, "summary": {}},
            "x-aliases": {"uid": "userId"}
        }));
        let mut ix = KeyIndex::new();
        assert_eq!(ix.lookup(id, &o, "userId"), KeyMatch::Exact(0));
        assert_eq!(ix.lookup(id, &o, "uid"), KeyMatch::Alias(0));
        assert_eq!(ix.lookup(id, &o, "UID"), KeyMatch::Loose(0));
        assert_eq!(ix.lookup(id, &o, "user_id"), KeyMatch::Loose(0));
        assert_eq!(ix.lookup(id, &o, "createdAt"), KeyMatch::Loose(1));
        assert_eq!(ix.lookup(id, &o, " Summary "), KeyMatch::Loose(2));
        assert_eq!(ix.lookup(id, &o, "other"), KeyMatch::Unknown);
        assert_eq!(ix.lookup(id, &o, "--"), KeyMatch::Unknown);
    }

    #[test]
    fn ambiguous() {
        let (id, o) = object(json!({"properties": {"user_id": {}, "userId": {}}}));
        let mut ix = KeyIndex::new();
        assert_eq!(ix.lookup(id, &o, "user_id"), KeyMatch::Exact(0));
        assert_eq!(ix.lookup(id, &o, "UserID"), KeyMatch::Ambiguous(vec![0, 1]));
    }
}
