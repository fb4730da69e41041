//! The parser's own value type: [`Node`], a JSON value that borrows its strings and keys from
//! the input wherever it can, and the sink that builds it.
//!
//! A `serde_json::Value` costs an allocation per string, per key and per container, and a hash
//! per key (with `preserve_order`); on a document of many small records that is most of the
//! time a repair takes. A [`Node`] borrows every string and key that needed no decoding and
//! keeps an object's members in one vector, so it is built with an allocation per container
//! and per decoded string. It is deserialized straight into a user's type (`&Node` is a
//! [`serde::Deserializer`]), or turned into a `Value` when one is wanted.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, IntoDeserializer, Unexpected, Visitor};
use serde_json::{Map, Number, Value};

use super::log::Log;
use super::parser::inner_document;
use super::sink::{filter_bit, finite_number, Int, Sink, ValueSink, SCAN_MEMBERS};
use super::RepairOptions;

/// A JSON value whose strings and keys borrow from the text it was parsed from, when they
/// needed no decoding (see [`parse_borrowed`](super::parse_borrowed)).
///
/// An object's members are kept in input order, each key once (a repeated key keeps its last
/// value at its first position, as in [`parse`](super::parse)). `&Node` implements
/// [`serde::Deserializer`], so a type deserializes from it as from a `&serde_json::Value`,
/// with the same error messages.
///
/// ```
/// use llmout::repair::{parse_borrowed, Node, RepairOptions};
/// use std::borrow::Cow;
/// let input = "{name: 'Ada', note: 'tab\\there'}";
/// let parsed = parse_borrowed(input, &RepairOptions::default()).unwrap();
/// let Node::Object(members) = &parsed.value else { panic!() };
/// assert!(matches!(members[0].1, Node::String(Cow::Borrowed("Ada")))); // a slice of the input
/// assert!(matches!(members[1].1, Node::String(Cow::Owned(_)))); // decoded
/// assert_eq!(parsed.value.into_value(), serde_json::json!({"name": "Ada", "note": "tab\there"}));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string: borrowed from the input unless it had to be decoded.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object's members, in order, each key once.
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl Node<'_> {
    /// The same value as a `serde_json::Value` (what [`parse`](super::parse) returns for the
    /// same input).
    ///
    /// ```
    /// use llmout::repair::{parse, parse_borrowed, RepairOptions};
    /// let input = "[{a: 1, b: [True, None, .5]}, 'x']";
    /// let options = RepairOptions::default();
    /// let node = parse_borrowed(input, &options).unwrap().value;
    /// assert_eq!(node.into_value(), parse(input, &options).unwrap().value);
    /// ```
    pub fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => Value::Number(n),
            Node::String(s) => Value::String(s.into_owned()),
            Node::Array(items) => Value::Array(items.into_iter().map(Node::into_value).collect()),
            Node::Object(members) => {
                let mut map = Map::with_capacity(members.len());
                for (k, v) in members {
                    map.insert(k.into_owned(), v.into_value());
                }
                Value::Object(map)
            }
        }
    }

    /// The same value owning all its strings, free of the input's lifetime.
    ///
    /// ```
    /// use llmout::repair::{parse_borrowed, Node, RepairOptions};
    /// let owned: Node<'static> = {
    ///     let input = String::from("['a', 'b']");
    ///     parse_borrowed(&input, &RepairOptions::default()).unwrap().value.into_owned()
    /// };
    /// assert_eq!(owned.into_value(), serde_json::json!(["a", "b"]));
    /// ```
    pub fn into_owned(self) -> Node<'static> {
        match self {
            Node::Null => Node::Null,
            Node::Bool(b) => Node::Bool(b),
            Node::Number(n) => Node::Number(n),
            Node::String(s) => Node::String(Cow::Owned(s.into_owned())),
            Node::Array(items) => Node::Array(items.into_iter().map(Node::into_owned).collect()),
            Node::Object(members) => Node::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// An owned node holding `value` (the members of its objects keep their order).
    fn from_value(value: Value) -> Node<'static> {
        match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(b),
            Value::Number(n) => Node::Number(n),
            Value::String(s) => Node::String(Cow::Owned(s)),
            Value::Array(items) => Node::Array(items.into_iter().map(Node::from_value).collect()),
            Value::Object(map) => Node::Object(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Node::from_value(v)))
                    .collect(),
            ),
        }
    }

    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Node::Null => Unexpected::Unit,
            Node::Bool(b) => Unexpected::Bool(*b),
            Node::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => Unexpected::Unsigned(u),
                (_, Some(i), _) => Unexpected::Signed(i),
                (_, _, Some(f)) => Unexpected::Float(f),
                _ => Unexpected::Other("number"),
            },
            Node::String(s) => Unexpected::Str(s),
            Node::Array(_) => Unexpected::Seq,
            Node::Object(_) => Unexpected::Map,
        }
    }
}

// ----- the sink -----------------------------------------------------------------------------

/// Builds a [`Node`], as [`ValueSink`] builds a `Value`: members and
/// items of open containers wait on shared stacks and each container is built once, at its
/// size, when it closes; a repeated key is found by a filtered scan, or through an index once
/// an object has more than [`SCAN_MEMBERS`] members.
pub(super) struct NodeSink<'a> {
    root: Option<Node<'a>>,
    stack: Vec<Frame<'a>>,
    keys: Vec<Cow<'a, str>>,
    members: Vec<(Cow<'a, str>, Node<'a>)>,
    items: Vec<Node<'a>>,
    duplicate: bool,
}

enum Frame<'a> {
    /// An object whose members are `members[start..]`; `seen` filters key fingerprints, and
    /// `index` (from [`SCAN_MEMBERS`] members on) maps each key to its member.
    Object {
        start: usize,
        seen: u64,
        index: Option<HashMap<Cow<'a, str>, usize>>,
    },
    /// An array whose items are `items[start..]`.
    Array { start: usize },
}

impl<'a> NodeSink<'a> {
    /// The finished value.
    pub(super) fn finish(self) -> Node<'a> {
        self.root.unwrap_or(Node::Null)
    }

    fn put(&mut self, v: Node<'a>) {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Array { .. }) => self.items.push(v),
            Some(Frame::Object { start, seen, index }) => {
                let key = self.keys.pop().unwrap_or_default();
                let start = *start;
                let earlier = match index.as_ref() {
                    Some(index) => index.get(&key).copied(),
                    None => {
                        let bit = filter_bit(key.as_bytes());
                        let found = match *seen & bit {
                            0 => None,
                            _ => self.members[start..].iter().position(|m| m.0 == key),
                        };
                        *seen |= bit;
                        found
                    }
                };
                self.duplicate = earlier.is_some();
                if let Some(i) = earlier {
                    // As `Map::insert`: the last value, at the first position.
                    self.members[start + i].1 = v;
                    return;
                }
                if let Some(index) = index.as_mut() {
                    index.insert(key.clone(), self.members.len() - start);
                }
                self.members.push((key, v));
                if index.is_none() && self.members.len() - start > SCAN_MEMBERS {
                    let keys = self.members[start..].iter().enumerate();
                    *index = Some(keys.map(|(i, m)| (m.0.clone(), i)).collect());
                }
            }
        }
    }
}

impl<'a> Sink<'a> for NodeSink<'a> {
    fn new(_: usize) -> Self {
        NodeSink {
            root: None,
            stack: Vec::new(),
            keys: Vec::new(),
            members: Vec::new(),
            items: Vec::new(),
            duplicate: false,
        }
    }
    fn null(&mut self) {
        self.put(Node::Null)
    }
    fn bool(&mut self, v: bool) {
        self.put(Node::Bool(v))
    }
    fn int(&mut self, n: Int, _: &str) {
        self.put(Node::Number(n.into()))
    }
    fn float(&mut self, text: &str) -> bool {
        let n = finite_number(text);
        let finite = n.is_some();
        self.put(n.map_or(Node::Null, Node::Number));
        finite
    }
    fn string(&mut self, s: &str, _: bool) {
        self.put(Node::String(Cow::Owned(s.to_owned())))
    }
    fn input_string(&mut self, s: &'a str, _: bool) {
        self.put(Node::String(Cow::Borrowed(s)))
    }
    fn begin_object(&mut self) {
        self.stack.push(Frame::Object {
            start: self.members.len(),
            seen: 0,
            index: None,
        })
    }
    fn key(&mut self, key: &str, _: bool) {
        self.keys.push(Cow::Owned(key.to_owned()))
    }
    fn input_key(&mut self, key: &'a str, _: bool) {
        self.keys.push(Cow::Borrowed(key))
    }
    fn end_member(&mut self) -> bool {
        std::mem::take(&mut self.duplicate)
    }
    fn abandon_member(&mut self) {
        self.keys.pop();
    }
    fn end_object(&mut self) {
        if let Some(Frame::Object { start, .. }) = self.stack.pop() {
            let members = self.members.split_off(start);
            self.put(Node::Object(members))
        }
    }
    fn begin_array(&mut self) {
        self.stack.push(Frame::Array {
            start: self.items.len(),
        })
    }
    fn end_array(&mut self) {
        if let Some(Frame::Array { start }) = self.stack.pop() {
            let items = self.items.split_off(start);
            self.put(Node::Array(items))
        }
    }
    fn root_to_array(&mut self) {
        let first = self.root.take().unwrap_or(Node::Null);
        self.stack.push(Frame::Array {
            start: self.items.len(),
        });
        self.items.push(first);
    }
    fn object_to_array(&mut self) {
        if let Some(top @ Frame::Object { .. }) = self.stack.last_mut() {
            *top = Frame::Array {
                start: self.items.len(),
            };
        }
    }
    fn end_array_as_item(&mut self) {
        if let Some(Frame::Array { .. }) = self.stack.pop() {
            let item = self.items.pop().unwrap_or(Node::Null);
            self.put(item)
        }
    }
    fn reopen_array(&mut self) {
        let last = match self.stack.last_mut() {
            Some(Frame::Object { index, .. }) => {
                let last = self.members.pop();
                if let (Some(index), Some((key, _))) = (index.as_mut(), &last) {
                    index.remove(key);
                }
                last
            }
            _ => None,
        };
        let (key, items) = match last {
            Some((key, Node::Array(items))) => (key, items),
            Some((key, other)) => (key, vec![other]),
            None => (Cow::Borrowed(""), Vec::new()),
        };
        self.keys.push(key);
        self.stack.push(Frame::Array {
            start: self.items.len(),
        });
        self.items.extend(items);
    }
    fn close_reopened(&mut self) {
        self.end_array();
    }
    fn root_string(&self) -> Option<&str> {
        match &self.root {
            Some(Node::String(s)) => Some(s),
            _ => None,
        }
    }
    fn unwrap_root<L: Log>(&mut self, options: &RepairOptions) -> Option<(L, usize)> {
        // The inner document borrows from this sink's string, not from the input: it is
        // parsed into a `Value` and kept owned.
        let (inner, log, count) = inner_document::<ValueSink, L>(self.root_string()?, options)?;
        self.root = Some(Node::from_value(inner.finish()));
        Some((log, count))
    }
}

// ----- serde --------------------------------------------------------------------------------

type Error = serde_json::Error;

impl<'de> IntoDeserializer<'de, Error> for &'de Node<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// An array's items, handed out one at a time (`serde_json`'s messages when some are left).
struct Items<'de>(std::slice::Iter<'de, Node<'de>>);

impl<'de> de::SeqAccess<'de> for Items<'de> {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(v)).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// An object's members: keys as borrowed strings, then values.
struct Members<'de> {
    iter: std::slice::Iter<'de, (Cow<'de, str>, Node<'de>)>,
    value: Option<&'de Node<'de>>,
}

fn members<'de>(members: &'de [(Cow<'de, str>, Node<'de>)]) -> Members<'de> {
    Members {
        iter: members.iter(),
        value: None,
    }
}

impl<'de> de::MapAccess<'de> for Members<'de> {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.iter.next() else {
            return Ok(None);
        };
        self.value = Some(v);
        seed.deserialize(BorrowedStrDeserializer::new(k)).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value is missing")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// Deserializes as `&serde_json::Value` does: strings are borrowed, `null` is `None` for an
/// `Option`, an enum is a string (unit variant) or an object of one member.
///
/// ```
/// use llmout::repair::{parse_borrowed, RepairOptions};
/// use serde::Deserialize;
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Answer<'a> { city: &'a str, population: u32, note: Option<String> }
/// let parsed = parse_borrowed("{city: 'Lyon', population: 522250, note: None,}", &RepairOptions::default()).unwrap();
/// let answer = Answer::deserialize(&parsed.value).unwrap();
/// assert_eq!(answer, Answer { city: "Lyon", population: 522250, note: None });
/// ```
impl<'de> de::Deserializer<'de> for &'de Node<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Null => visitor.visit_unit(),
            Node::Bool(b) => visitor.visit_bool(*b),
            Node::Number(n) => de::Deserializer::deserialize_any(n, visitor),
            Node::String(s) => visitor.visit_borrowed_str(s),
            Node::Array(items) => {
                let mut seq = Items(items.iter());
                let v = visitor.visit_seq(&mut seq)?;
                match seq.0.len() {
                    0 => Ok(v),
                    _ => Err(de::Error::invalid_length(
                        items.len(),
                        &"fewer elements in array",
                    )),
                }
            }
            Node::Object(m) => {
                let mut map = members(m);
                let v = visitor.visit_map(&mut map)?;
                match map.iter.len() {
                    0 => Ok(v),
                    _ => Err(de::Error::invalid_length(m.len(), &"fewer elements in map")),
                }
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Node::String(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            Node::Object(m) if m.len() == 1 => {
                visitor.visit_enum(MapAccessDeserializer::new(members(m)))
            }
            Node::Object(_) => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"string or map",
            )),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fmt::Debug;

    use serde::Deserialize;

    use super::*;
    use crate::repair::{parse, parse_borrowed};

    /// `T` from the `Node` and from the `Value` of the same input: the same result, or the
    /// same error message.
    fn same<T: for<'de> Deserialize<'de> + Debug + PartialEq>(input: &str) -> Result<T, String> {
        let options = RepairOptions::default();
        let node = parse_borrowed(input, &options).unwrap().value;
        let value = parse(input, &options).unwrap().value;
        let from_node = T::deserialize(&node).map_err(|e| e.to_string());
        let from_value = T::deserialize(&value).map_err(|e| e.to_string());
        assert_eq!(from_node, from_value, "{input:?}");
        from_node
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Record {
        id: u8,
        name: String,
        tags: Vec<String>,
        note: Option<String>,
        #[serde(default)]
        score: f32,
        shape: Shape,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        Circle(f64),
        Segment(i32, i32),
        Rect { w: u32, h: u32 },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Event {
        Click { x: i64 },
        Key { code: char },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Number(i64),
        Words(Vec<String>),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: bool,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Meters(f64);

    #[derive(Debug, PartialEq, Deserialize)]
    struct Unit;

    #[test]
    fn structs_and_enums_deserialize_as_from_a_value() {
        let r = same::<Record>("{id: 7, name: 'a', tags: ['x',], note: None, shape: 'dot'}");
        assert_eq!(
            r.map(|r| (r.id, r.score, r.shape)),
            Ok((7, 0.0, Shape::Dot))
        );
        for (shape, want) in [
            ("{circle: 1.5}", Shape::Circle(1.5)),
            ("{segment: [1, -2]}", Shape::Segment(1, -2)),
            ("{rect: {w: 2, h: 3}}", Shape::Rect { w: 2, h: 3 }),
            ("{dot: null}", Shape::Dot),
        ] {
            assert_eq!(same::<Shape>(shape), Ok(want), "{shape}");
        }
        assert_eq!(
            same::<Vec<Event>>("[{kind: 'key', code: 'q'}, {x: -3, kind: 'click'}]"),
            Ok(vec![Event::Key { code: 'q' }, Event::Click { x: -3 }])
        );
        assert_eq!(
            same::<Loose>("[a, b]").map(|l| l == Loose::Words(vec!["a".into(), "b".into()])),
            Ok(true)
        );
        assert_eq!(same::<Loose>("-4"), Ok(Loose::Number(-4)));
        assert_eq!(same::<Meters>("2.5"), Ok(Meters(2.5)));
        assert_eq!(same::<Unit>("null"), Ok(Unit));
        assert_eq!(same::<(u8, String)>("[1, 'x']"), Ok((1, "x".to_owned())));
        assert_eq!(
            same::<BTreeMap<String, u32>>("{b: 2, a: 1, b: 3}"),
            Ok(BTreeMap::from([("a".to_owned(), 1), ("b".to_owned(), 3)]))
        );
        assert_eq!(same::<Option<bool>>("None"), Ok(None));
        assert!(same::<u128>("340282366920938463463374607431768211455").is_err());
    }

    #[test]
    fn mismatches_are_the_errors_a_value_gives() {
        for input in [
            "{id: 300, name: 'a', tags: [], shape: 'dot'}",
            "{id: 1, name: 2, tags: [], shape: 'dot'}",
            "{id: 1, tags: [], shape: 'dot'}",
            "{id: 1, name: 'a', tags: [], shape: 'oval'}",
            "{id: 1, name: 'a', tags: [], shape: {rect: {w: 1}}}",
            "{id: 1, name: 'a', tags: [], shape: {dot: null, circle: 1}}",
            "{id: 1, name: 'a', tags: [], shape: 3}",
            "{id: 1, name: 'a', tags: [], shape: {circle: 'big'}}",
            "[1, 'a', [], null, 0.5, 'dot', 'extra']",
        ] {
            assert!(same::<Record>(input).is_err(), "{input}");
        }
        assert_eq!(
            same::<Strict>("{a: true, b: 1}"),
            Err("unknown field `b`, expected `a`".to_owned())
        );
        assert!(same::<Event>("{kind: 'drag'}").is_err());
        assert!(same::<Loose>("{a: 1}").is_err());
        assert!(same::<Unit>("1").is_err());
        assert!(same::<(u8, u8)>("[1, 2, 3]").is_err());
        assert!(same::<char>("'ab'").is_err());
        assert!(same::<u8>("-1").is_err());
        assert!(same::<i8>("1.5").is_err());
    }

    #[test]
    fn strings_and_keys_borrow_unless_decoded() {
        let input = r#"{plain: "text", "esc\"aped": 'it\'s', n: [x y]}"#;
        let node = parse_borrowed(input, &RepairOptions::default())
            .unwrap()
            .value;
        let Node::Object(m) = &node else {
            panic!("{node:?}")
        };
        let borrowed = |c: &Cow<'_, str>| matches!(c, Cow::Borrowed(_));
        let keys: Vec<bool> = m.iter().map(|(k, _)| borrowed(k)).collect();
        assert_eq!(keys, [true, false, true]);
        assert!(matches!(&m[0].1, Node::String(s) if borrowed(s)));
        assert!(matches!(&m[1].1, Node::String(s) if !borrowed(s) && s == "it's"));
        let Node::Array(items) = &m[2].1 else {
            panic!("{node:?}")
        };
        assert!(matches!(&items[0], Node::String(s) if borrowed(s) && s == "x y"));
        #[derive(Deserialize)]
        struct Plain<'a> {
            plain: &'a str,
        }
        let plain = Plain::deserialize(&node).unwrap();
        assert_eq!(plain.plain.as_ptr(), input[9..].as_ptr());
    }

    #[test]
    fn repeated_keys_keep_the_last_value_at_the_first_position() {
        // Past the scan limit, repeats are found through the index.
        let keys: Vec<String> = (0..40).map(|i| format!("k{}: {i}", i % 25)).collect();
        let input = format!("{{{}}}", keys.join(", "));
        let node = parse_borrowed(&input, &RepairOptions::default()).unwrap();
        let Node::Object(m) = &node.value else {
            panic!()
        };
        assert_eq!(m.len(), 25);
        assert_eq!(m[3], (Cow::Borrowed("k3"), Node::Number(28.into())));
        assert_eq!(m[24], (Cow::Borrowed("k24"), Node::Number(24.into())));
        assert_eq!(
            node.value.into_value(),
            parse(&input, &RepairOptions::default()).unwrap().value
        );
    }

    #[test]
    fn a_double_encoded_document_is_owned() {
        let options = RepairOptions::default().unwrap_double_encoded(true);
        let parsed = parse_borrowed(r#""{\"a\": [1, 2,]}""#, &options).unwrap();
        assert_eq!(
            parsed.value,
            Node::Object(vec![(
                Cow::Borrowed("a"),
                Node::Array(vec![Node::Number(1.into()), Node::Number(2.into())])
            )])
        );
        assert_eq!(parsed.repairs.len(), 2);
    }
}
