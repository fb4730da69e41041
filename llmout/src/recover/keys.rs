//! Matching an object's keys to the schema's properties.
//!
//! Exact name first, then an `x-aliases` entry, then the same letters and digits ignoring
//! case, separators and spaces (`Summary` ~ `summary`, `user_id` ~ `userId`,
//! `" created at "` ~ `created_at`). A key that folds to two different properties is
//! ambiguous.
//!
//! A lookup takes time in the key's length, not in the object's size: an object of more
//! than [`SCAN`] names is looked up in a hash of them, and folded names always are.

use std::collections::{HashMap, HashSet};

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

/// Objects with at most this many properties and aliases are looked up by comparing the key
/// with each name, which is faster than hashing it for the few names most objects have.
const SCAN: usize = 16;

/// Names of objects' properties and aliases, per schema node: hashed as written for an
/// object of more than [`SCAN`] names the first time one of its keys is looked up, and
/// folded the first time a key of the object does not match exactly (valid replies never
/// pay for folding); reused for every other object of the same schema in the reply.
#[derive(Default)]
pub(crate) struct KeyIndex {
    written: HashMap<NodeId, Written>,
    folded: HashMap<NodeId, HashMap<String, Vec<usize>>>,
}

/// An object's names as written: each property's index by its name (the first of a name),
/// each alias's property by the alias.
struct Written {
    properties: HashMap<Box<str>, usize>,
    aliases: HashMap<Box<str>, usize>,
}

impl Written {
    fn new(object: &Object) -> Self {
        let mut properties = HashMap::with_capacity(object.properties.len());
        for (i, p) in object.properties.iter().enumerate() {
            properties.entry(p.name.as_str().into()).or_insert(i);
        }
        let mut aliases = HashMap::with_capacity(object.aliases.len());
        for (a, i) in &object.aliases {
            aliases.entry(a.as_str().into()).or_insert(*i);
        }
        Written {
            properties,
            aliases,
        }
    }
}

/// The properties each folded name of `object` stands for: its properties' folded names
/// (in the properties' order), then its aliases', each property once a name.
fn folded_names(object: &Object) -> HashMap<String, Vec<usize>> {
    let folds: Vec<String> = object.properties.iter().map(|p| fold(&p.name)).collect();
    let mut names: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, f) in folds.iter().enumerate() {
        names.entry(f.clone()).or_default().push(i);
    }
    // An alias that folds as its property's name does, or as an earlier alias of the same
    // property, adds nothing.
    let mut seen: HashSet<(String, usize)> = HashSet::new();
    for (a, i) in &object.aliases {
        let f = fold(a);
        if folds.get(*i) == Some(&f) || !seen.insert((f.clone(), *i)) {
            continue;
        }
        names.entry(f).or_default().push(*i);
    }
    names.retain(|f, _| !f.is_empty());
    names
}

impl KeyIndex {
    pub(crate) fn new() -> Self {
        KeyIndex::default()
    }

    /// Matches `key` to a property of `object`, the object schema at node `id`.
    pub(crate) fn lookup(&mut self, id: NodeId, object: &Object, key: &str) -> KeyMatch {
        if let Some(m) = self.written(id, object, key) {
            return m;
        }
        let folded = self
            .folded
            .entry(id)
            .or_insert_with(|| folded_names(object));
        folded_match(folded, key)
    }

    /// [`lookup`](Self::lookup) with nothing kept for a next key: for the few keys on the
    /// way to items read one by one (`items::recovered_path`).
    pub(crate) fn lookup_once(object: &Object, key: &str) -> KeyMatch {
        if let Some(i) = object.properties.iter().position(|p| p.name == key) {
            return KeyMatch::Exact(i);
        }
        if let Some((_, i)) = object.aliases.iter().find(|(a, _)| a == key) {
            return KeyMatch::Alias(*i);
        }
        folded_match(&folded_names(object), key)
    }

    /// `key` as a property's name or an alias, exactly.
    fn written(&mut self, id: NodeId, object: &Object, key: &str) -> Option<KeyMatch> {
        if let Some(i) = self.exact(id, object, key) {
            return Some(KeyMatch::Exact(i));
        }
        let alias = if small(object) {
            object
                .aliases
                .iter()
                .find(|(a, _)| a == key)
                .map(|(_, i)| i)
        } else {
            self.names(id, object).aliases.get(key)
        };
        alias.map(|i| KeyMatch::Alias(*i))
    }

    /// The index of the property of `object` (the object schema at node `id`) named `key`,
    /// exactly (the first of that name).
    pub(crate) fn exact(&mut self, id: NodeId, object: &Object, key: &str) -> Option<usize> {
        if small(object) {
            object.properties.iter().position(|p| p.name == key)
        } else {
            self.names(id, object).properties.get(key).copied()
        }
    }

    fn names(&mut self, id: NodeId, object: &Object) -> &Written {
        self.written
            .entry(id)
            .or_insert_with(|| Written::new(object))
    }
}

/// `key` matched to an object's folded names ([`folded_names`]).
fn folded_match(folded: &HashMap<String, Vec<usize>>, key: &str) -> KeyMatch {
    let f = fold(key);
    if f.is_empty() {
        return KeyMatch::Unknown;
    }
    match folded.get(&f).map(Vec::as_slice) {
        None | Some([]) => KeyMatch::Unknown,
        Some([one]) => KeyMatch::Loose(*one),
        Some(hits) => KeyMatch::Ambiguous(hits.to_vec()),
    }
}

/// Whether `object`'s names are few enough to compare a key with each ([`SCAN`]).
fn small(object: &Object) -> bool {
    object.properties.len() + object.aliases.len() <= SCAN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Kind, Schema};
    use serde_json::{json, Value};

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
    /// An object of more names than `SCAN` is looked up through its hashed names: the
    /// same answers, in the same order, as comparing with each.
    #[test]
    fn a_wide_object_matches_as_a_narrow_one() {
        let mut properties = serde_json::Map::new();
        for i in 0..40 {
            properties.insert(format!("field_{i}"), json!({}));
        }
        properties.insert("userId".into(), json!({}));
        properties.insert("user_id".into(), json!({}));
        let (id, o) = object(json!({
            "properties": properties,
            "x-aliases": {"uid": "userId", "FIELD_3": "field_3", "f7": "field_7", "F_7": "field_7"}
        }));
        assert!(!small(&o));
        let mut ix = KeyIndex::new();
        assert_eq!(ix.lookup(id, &o, "field_39"), KeyMatch::Exact(39));
        assert_eq!(ix.lookup(id, &o, "user_id"), KeyMatch::Exact(41));
        assert_eq!(ix.lookup(id, &o, "uid"), KeyMatch::Alias(40));
        assert_eq!(ix.exact(id, &o, "uid"), None);
        assert_eq!(ix.lookup(id, &o, "Field12"), KeyMatch::Loose(12));
        // An alias that folds as its property's name adds nothing; two aliases of one
        // property that fold alike, one.
        assert_eq!(ix.lookup(id, &o, "field 3"), KeyMatch::Loose(3));
        assert_eq!(ix.lookup(id, &o, "F7"), KeyMatch::Loose(7));
        assert_eq!(
            ix.lookup(id, &o, "USERID"),
            KeyMatch::Ambiguous(vec![40, 41])
        );
        assert_eq!(ix.lookup(id, &o, "field_40"), KeyMatch::Unknown);
        assert_eq!(ix.lookup(id, &o, "__"), KeyMatch::Unknown);
    }
    /// What a lookup answered before objects were hashed: each name compared in turn.
    fn compared(object: &Object, key: &str) -> KeyMatch {
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
        let names = object
            .properties
            .iter()
            .enumerate()
            .map(|(i, p)| (&p.name, i));
        let mut hits: Vec<usize> = Vec::new();
        for (name, i) in names.chain(object.aliases.iter().map(|(a, i)| (a, *i))) {
            if fold(name) == f && !hits.contains(&i) {
                hits.push(i);
            }
        }
        match hits[..] {
            [] => KeyMatch::Unknown,
            [one] => KeyMatch::Loose(one),
            _ => KeyMatch::Ambiguous(hits),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Names of a few letters that often fold alike (`a_B`, `Ab`, `ab`), narrow and
        /// wide objects: a lookup answers as comparing each name does.
        #[test]
        fn a_lookup_answers_as_comparing_each_name(
            names in proptest::collection::vec("[aAbB_ ]{1,3}", 0..40),
            aliases in proptest::collection::vec(("[aAbB_ ]{1,3}", 0usize..40), 0..12),
            keys in proptest::collection::vec("[aAbB_ ]{0,3}", 1..20),
        ) {
            let properties: serde_json::Map<String, Value> =
                names.iter().map(|n| (n.clone(), json!({}))).collect();
            let aliases: serde_json::Map<String, Value> = aliases
                .iter()
                .filter_map(|(a, i)| names.get(*i).map(|n| (a.clone(), json!(n))))
                .collect();
            let (id, o) = object(json!({"properties": properties, "x-aliases": aliases}));
            let mut ix = KeyIndex::new();
            for key in keys.iter().chain(&names) {
                proptest::prop_assert_eq!(ix.lookup(id, &o, key), compared(&o, key), "{:?}", key);
            }
        }
    }
}
