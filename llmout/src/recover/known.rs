//! The typed fast path's check of a reply serde read partly out of sight: that every key is
//! one the schema lists where it stands, and none is given twice.
//!
//! serde reads an internally tagged or untagged enum (and a `Value`) from a buffer of its
//! own, where a variant skips a key it does not know without a word. Where the fast path
//! notices such a read, or an object a map read, which keeps a repeated key's last value
//! (`ignored::Noticed::open_object` is either), [`keys_fit`] reads the text once more,
//! keys only, beside the schema: an object's key must be one of its properties (exactly:
//! an alias or another case is recovery's to rename, with a warning), match a
//! `patternProperties` pattern, or be taken by `additionalProperties`. Through a union it follows the branch the value names:
//! the only branch of its kind (an `Option` of a struct), a serde tag given as the object's
//! first key, or an externally tagged variant's key. Where it cannot tell (a tag written
//! after other keys, an untagged enum of several objects) it says no, and the reply goes
//! through recovery, which decides and says what it did.
//!
//! No value is built. Of each object, the keys no property names (a map's, a `Value`'s) are
//! held, borrowed where they need no decoding, to find one given twice
//! ([`crate::unique::repeats`]); a struct's own fields given twice serde refuses itself.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::schema::{Additional, Kind, NodeId, Object, Schema};
use crate::unique::Key;

/// Whether `text`, valid JSON, gives only keys `schema` lists where they stand (or takes:
/// any key where `keep_unknown` and the schema says nothing) and no key twice in an object.
pub(crate) fn keys_fit(text: &str, schema: &Schema, keep_unknown: bool) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    let seed = Keys {
        schema,
        at: Some(schema.root()),
        keep_unknown,
    };
    seed.deserialize(&mut de).unwrap_or(false)
}

/// A value's keys checked against the schema node `at` (none: anything goes below).
#[derive(Clone, Copy)]
struct Keys<'s> {
    schema: &'s Schema,
    at: Option<NodeId>,
    keep_unknown: bool,
}

impl<'s> Keys<'s> {
    fn below(self, at: Option<NodeId>) -> Self {
        Keys { at, ..self }
    }

    fn kind(&self, id: NodeId) -> &'s Kind {
        &self.schema.node(self.schema.resolve(id)).kind
    }

    /// The schema of an array's item `i`.
    fn item(&self, i: usize) -> Option<NodeId> {
        match self.kind(self.at?) {
            Kind::Array(a) => a.prefix.get(i).copied().or(a.items),
            Kind::Union(branches) => {
                let mut arrays = branches
                    .iter()
                    .filter(|&&b| matches!(self.kind(b), Kind::Array(_)));
                match (arrays.next(), arrays.next()) {
                    (Some(&b), None) => self.below(Some(b)).item(i),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// How an object takes a member.
enum Member {
    /// As one of its properties, of this schema.
    Property(NodeId),
    /// By a pattern or `additionalProperties`, of this schema if any.
    Other(Option<NodeId>),
}

/// What an object's keys are checked against.
#[derive(Clone, Copy)]
enum Shape<'s> {
    /// Nothing: any key.
    Open,
    /// An object's properties.
    Object(&'s Object),
    /// A union of several object branches (and others), decided by the first key (a tag, or
    /// an externally tagged variant's name).
    Union(&'s [NodeId]),
    /// Nothing can tell.
    Unknown,
}

impl<'s> Keys<'s> {
    fn shape(&self) -> Shape<'s> {
        let Some(at) = self.at else {
            return Shape::Open;
        };
        match self.kind(at) {
            Kind::Object(o) => Shape::Object(o),
            Kind::Union(branches) => {
                let mut objects = 0;
                let mut last = None;
                for &b in branches {
                    match self.kind(b) {
                        Kind::Object(o) => {
                            objects += 1;
                            last = Some(o);
                        }
                        // (A union inside a union: not looked into.)
                        Kind::Union(_) | Kind::Any => return Shape::Unknown,
                        _ => {}
                    }
                }
                match (objects, last) {
                    (1, Some(o)) => Shape::Object(o),
                    (0, _) => Shape::Unknown,
                    _ => Shape::Union(branches),
                }
            }
            Kind::Any => Shape::Open,
            // (serde took an object where the schema has another kind: not looked into.)
            _ => Shape::Unknown,
        }
    }

    /// How `o` takes the member `key`: as a property (its schema), or otherwise (the schema
    /// of its pattern or of `additionalProperties`, if any); `None` where it does not.
    fn member(&self, o: &Object, key: &str) -> Option<Member> {
        if let Some(p) = o.properties.iter().find(|p| p.name == key) {
            return Some(Member::Property(p.schema));
        }
        if let Some((_, s)) = o.pattern_properties.iter().find(|(p, _)| p.is_match(key)) {
            return Some(Member::Other(Some(*s)));
        }
        match o.additional {
            Additional::Schema(s) => Some(Member::Other(Some(s))),
            Additional::Allow => Some(Member::Other(None)),
            Additional::Unspecified if self.keep_unknown => Some(Member::Other(None)),
            Additional::Unspecified | Additional::Deny => None,
        }
    }

    /// The object branch of `branches` an object whose first key is `key` names: by a tag
    /// every object branch fixes (its value read here), or as the only property of a branch
    /// (its value read and checked here).
    fn branch<'de, A: MapAccess<'de>>(
        &self,
        branches: &[NodeId],
        key: &str,
        map: &mut A,
    ) -> Result<Option<&'s Object>, A::Error> {
        let objects = || {
            branches.iter().filter_map(|&b| match self.kind(b) {
                Kind::Object(o) => Some(o),
                _ => None,
            })
        };
        // The tag each object branch fixes, if `key` is a tag.
        let fixed = |o: &Object| super::tag_of(self.schema, o, key);
        if objects().all(|o| fixed(o).is_some()) {
            let given: Value = map.next_value()?;
            let mut named = objects().filter(|o| fixed(o) == Some(&given));
            return Ok(match (named.next(), named.next()) {
                (Some(o), None) => Some(o),
                _ => None,
            });
        }
        let mut named =
            objects().filter(|o| o.properties.len() == 1 && o.properties[0].name == key);
        match (named.next(), named.next()) {
            (Some(o), None) => {
                let at = Some(o.properties[0].schema);
                Ok(map.next_value_seed(self.below(at))?.then_some(o))
            }
            _ => Ok(None),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Keys<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<bool, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Keys<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut i = 0;
        while let Some(fits) = seq.next_element_seed(self.below(self.item(i)))? {
            if !fits {
                // (The rest unread: serde_json's error at the array's end is a "no" too.)
                return Ok(false);
            }
            i += 1;
        }
        Ok(true)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        // The keys no property names, which a map or a `Value` keeps one of where given
        // twice. (A struct's own fields given twice serde refuses, from its buffer too.)
        let mut open: Vec<Cow<'de, str>> = Vec::new();
        let mut shape = self.shape();
        while let Some(Key(key)) = map.next_key()? {
            let at = match shape {
                Shape::Open => {
                    open.push(key);
                    None
                }
                Shape::Object(o) => match self.member(o, &key) {
                    Some(Member::Property(at)) => Some(at),
                    Some(Member::Other(at)) => {
                        open.push(key);
                        at
                    }
                    None => return Ok(false),
                },
                Shape::Unknown => return Ok(false),
                Shape::Union(branches) => {
                    // The first key decides; its value is read deciding.
                    let Some(o) = self.branch(branches, &key, &mut map)? else {
                        return Ok(false);
                    };
                    shape = Shape::Object(o);
                    continue;
                }
            };
            if !map.next_value_seed(self.below(at))? {
                return Ok(false);
            }
        }
        Ok(!crate::unique::repeats(&mut open))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::keys_fit;
    use crate::schema::Schema;

    #[test]
    fn keys_are_checked_where_they_stand_through_tags_options_and_maps() {
        let schema = Schema::compile(&json!({
            "type": "object",
            "properties": {
                "steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}},
                "note": {"anyOf": [{"$ref": "#/$defs/Note"}, {"type": "null"}]},
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                "extra": true
            },
            "$defs": {
                "Step": {"oneOf": [
                    {"type": "object", "properties": {"type": {"const": "search"},
                        "query": {"type": "string"}}},
                    {"type": "object", "properties": {"type": {"const": "finish"},
                        "answer": {"type": "string"}}}
                ]},
                "Note": {"type": "object", "properties": {"text": {"type": "string"}}}
            }
        }))
        .unwrap();
        let fit = |text: &str| keys_fit(text, &schema, false);
        assert!(fit(
            r#"{"steps": [{"type": "search", "query": "q"}, {"type": "finish", "answer": "a"}],
                "note": {"text": "t"}, "counts": {"any": 1, "key": 2}, "extra": {"x": [1]}}"#
        ));
        assert!(fit(r#"{"steps": [], "note": null}"#));
        for text in [
            // A key the variant the tag names does not have (the other variant's).
            r#"{"steps": [{"type": "finish", "answer": "a", "query": "q"}]}"#,
            // A key no property is; in the option's struct.
            r#"{"steps": [], "reasoning": "r"}"#,
            r#"{"note": {"text": "t", "by": "me"}}"#,
            // The tag after another key: not looked for.
            r#"{"steps": [{"answer": "a", "type": "finish"}]}"#,
            // A key given twice, in a map and in a value of any shape.
            r#"{"counts": {"a": 1, "a": 2}}"#,
            r#"{"extra": {"x": 1, "x": 1}}"#,
        ] {
            assert!(!fit(text), "{text}");
        }
        // Where unknown keys are kept, an unknown key is no loss.
        assert!(keys_fit(
            r#"{"steps": [], "reasoning": "r"}"#,
            &schema,
            true
        ));
    }

    #[test]
    fn an_externally_tagged_variant_is_followed_by_its_key() {
        let schema = Schema::compile(&json!({"oneOf": [
            {"type": "object", "properties": {"move": {"type": "object",
                "properties": {"dx": {"type": "integer"}}}}, "required": ["move"]},
            {"type": "object", "properties": {"say": {"type": "string"}}, "required": ["say"]},
            {"enum": ["wait"]}
        ]}))
        .unwrap();
        assert!(keys_fit(r#"{"move": {"dx": 1}}"#, &schema, false));
        assert!(keys_fit(r#""wait""#, &schema, false));
        assert!(!keys_fit(r#"{"move": {"dx": 1, "dz": 2}}"#, &schema, false));
        assert!(!keys_fit(
            r#"{"say": "x", "move": {"dx": 1}}"#,
            &schema,
            false
        ));
    }
}
