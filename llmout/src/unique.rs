//! Valid JSON read as `serde_json` reads it, except that an object giving a key twice is
//! refused: the fast paths' reading.
//!
//! `serde_json` keeps a repeated key's last value and drops the first without a word, as
//! JavaScript does. A reply is valid JSON with a key given twice when the model changed its
//! mind or lost its place (`{"status": "open", ..., "status": "closed"}`); keeping the last
//! value is the reading, but losing the first must be said. So the fast paths read valid
//! JSON through [`value_from_str`], which fails on a repeated key, and such a reply goes the
//! lenient parser's way, which keeps the same value and records a
//! [`DuplicateKey`](crate::repair::RepairKind::DuplicateKey) fix at the key's pointer.
//!
//! An integer too large for 64 bits is held as the nearest `f64`, and may lose digits there,
//! which must be said too: `serde_json` hands such an integer over as a float, no different
//! from one written with an exponent, so [`value_from_str`] refuses every float beyond the
//! 64-bit integers ([`ROUNDED`]), and the lenient parser, which sees how the number is
//! written, reads it (the same value) and records the integers whose digits are lost
//! ([`Repairs::rounded`](crate::repair::Repairs::rounded)).
//!
//! [`value_from_str`] builds the value exactly as `Value`'s own `Deserialize` does (the same
//! calls, the same allocations: a repeated key is found by the insertion `serde_json` makes
//! anyway), so the fast path costs what `serde_json` costs. A text read some other way
//! (straight into a user's type) has its keys read again ([`crate::recover::keys_fit`],
//! with [`repeats`] here), no value built.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// What a repeated key's error says (it never reaches a caller: the lenient parser reads
/// the text then).
const REPEATED: &str = "a key given twice";

/// What a float beyond the 64-bit integers' range says (it never reaches a caller either).
const ROUNDED: &str = "a number that may be an integer held rounded";

/// `text` as a [`Value`], as `serde_json::from_str` reads it; an error where an object gives
/// a key twice, or a number is a float beyond the 64-bit integers (which may be an integer
/// held rounded).
pub(crate) fn value_from_str(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str::<Unique>(text).map(|u| u.0)
}

/// [`value_from_str`] on what `reader` gives.
pub(crate) fn value_from_reader<R: std::io::Read>(reader: R) -> serde_json::Result<Value> {
    serde_json::from_reader::<_, Unique>(reader).map(|u| u.0)
}

/// A [`Value`] read with repeated keys refused.
struct Unique(Value);

impl<'de> de::Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(UniqueVisitor).map(Unique)
    }
}

/// `Value`'s visitor, with [`REPEATED`] where an insertion replaces a member.
struct UniqueVisitor;

impl<'de> DeserializeSeed<'de> for UniqueVisitor {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        // (Every integer above `u64::MAX` or below `i64::MIN` comes as such a float: one
        // just below `i64::MIN` as -2^63 itself.)
        if v <= -9_223_372_036_854_775_808.0 || v >= 18_446_744_073_709_551_616.0 {
            return Err(E::custom(ROUNDED));
        }
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(UniqueVisitor)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(UniqueVisitor)?;
            if members.insert(key, value).is_some() {
                return Err(de::Error::custom(REPEATED));
            }
        }
        Ok(Value::Object(members))
    }
}

/// Whether what `reader` gives is JSON that [`value_from_reader`] reads, found with no value
/// built: the same calls to `serde_json` (so the same numbers, escapes and nesting refused),
/// with each object's keys remembered by a hash of each, not the keys. A float beyond the
/// 64-bit integers is taken: the check is for callers that keep the text, whose digits stay
/// as written. A hash that two keys
/// share reads as a key given twice: an error where [`value_from_reader`] reads a value, never
/// the other way round (for a caller that then reads the text another way, only a cost).
pub(crate) fn check_reader<R: std::io::Read>(reader: R) -> serde_json::Result<()> {
    check(serde_json::Deserializer::from_reader(reader))
}

/// [`check_reader`] on a text: whether [`value_from_str`] reads it.
pub(crate) fn check_str(text: &str) -> serde_json::Result<()> {
    check(serde_json::Deserializer::from_str(text))
}

fn check<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
) -> serde_json::Result<()> {
    let hashes = std::hash::RandomState::new();
    let keys = std::cell::RefCell::new(Vec::new());
    Check {
        hashes: &hashes,
        keys: &keys,
    }
    .deserialize(&mut de)?;
    de.end()
}

/// [`UniqueVisitor`] with nothing built: each object's keys' hashes, made with the same keys,
/// on one stack for every object open (an object's own above its parent's, gone when it
/// closes), so that an object costs no allocation of its own.
#[derive(Clone, Copy)]
struct Check<'h> {
    hashes: &'h std::hash::RandomState,
    keys: &'h std::cell::RefCell<Vec<u64>>,
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let start = self.keys.borrow().len();
        // Past `PAIRWISE` members, a set of them (a list compared with each key would be
        // quadratic in the object's size).
        let mut many: Option<std::collections::HashSet<u64>> = None;
        let mut repeated = false;
        while let Some(hash) = map.next_key_seed(KeyHash(self.hashes))? {
            map.next_value_seed(self)?;
            let mut keys = self.keys.borrow_mut();
            repeated = match &mut many {
                Some(set) => !set.insert(hash),
                None if keys.len() - start < PAIRWISE => {
                    let seen = keys[start..].contains(&hash);
                    keys.push(hash);
                    seen
                }
                None => {
                    let mut set: std::collections::HashSet<u64> = keys.drain(start..).collect();
                    let seen = !set.insert(hash);
                    many = Some(set);
                    seen
                }
            };
            if repeated {
                break;
            }
        }
        self.keys.borrow_mut().truncate(start);
        if repeated {
            return Err(de::Error::custom(REPEATED));
        }
        Ok(())
    }
}

/// A key read as its hash (no copy made of it).
struct KeyHash<'h>(&'h std::hash::RandomState);

impl<'de> DeserializeSeed<'de> for KeyHash<'_> {
    type Value = u64;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<u64, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyHash<'_> {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E>(self, key: &str) -> Result<u64, E> {
        use std::hash::BuildHasher;
        Ok(self.0.hash_one(key))
    }
}

/// Objects with at most this many members are checked by comparing their keys pairwise;
/// larger ones by sorting.
const PAIRWISE: usize = 16;

/// Whether an object's `keys` hold one twice (they may be reordered).
pub(crate) fn repeats(keys: &mut [Cow<'_, str>]) -> bool {
    if keys.len() < 2 {
        return false;
    }
    if keys.len() <= PAIRWISE {
        return (1..keys.len()).any(|i| keys[..i].contains(&keys[i]));
    }
    keys.sort_unstable();
    keys.windows(2).any(|w| w[0] == w[1])
}

/// An object's key, borrowed from the text where it needs no decoding.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        de.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// The check refuses exactly what reading the value refuses: a key given twice at any
    /// depth (spelled alike or by escapes), numbers out of range, lone surrogates, 128 levels
    /// of nesting (`serde_json` reads 127), text after the value; and takes the rest. Only
    /// the value refuses a float beyond the 64-bit integers (which may be an integer held
    /// rounded), where the text keeps the digits.
    #[test]
    fn the_check_refuses_what_reading_the_value_refuses() {
        let deep = format!("{}1{}", "[".repeat(128), "]".repeat(128));
        let shallow = format!("{}1{}", "[".repeat(127), "]".repeat(127));
        for (text, as_text) in [
            ("[-9223372036854775809, 18446744073709551616, 1e300]", false),
            ("[-9223372036854775808, 18446744073709551615, 1e19]", true),
        ] {
            assert_eq!(value_from_str(text).is_ok(), as_text, "{text:?}");
            assert!(check_reader(text.as_bytes()).is_ok(), "{text:?}");
            assert!(check_str(text).is_ok(), "{text:?}");
        }
        for (text, valid) in [
            (r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3, "b": 4}]}"#, true),
            (r#"{"a": 1, "a": 2}"#, false),
            (r#"[{"x": {"k": 1, "k": 2}}]"#, false),
            (r#"{"A": 1, "\u0041": 2}"#, false),
            (r#"{"a": 1e400}"#, false),
            (r#"{"a": 1.5e19, "b": -0, "c": 1234567890123456789}"#, true),
            (r#"["\ud800"]"#, false),
            (r#"["\ud83d\ude00", "\u0000"]"#, true),
            (deep.as_str(), false),
            (shallow.as_str(), true),
            ("{} x", false),
            (" null \\n", false),
            (" null \n", true),
            ("", false),
        ] {
            assert_eq!(value_from_str(text).is_ok(), valid, "{text:?}");
            assert_eq!(check_reader(text.as_bytes()).is_ok(), valid, "{text:?}");
            assert_eq!(check_str(text).is_ok(), valid, "{text:?}");
        }
    }

    /// Whether the typed fast path's key check finds a key given twice (a schema that takes
    /// any key: nothing else to find).
    fn has_repeated_key(text: &str) -> bool {
        let any = crate::schema::Schema::compile(&json!({})).unwrap();
        !crate::recover::keys_fit(text, &any, true)
    }

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"[{"k": [1, {"x": null, "y": 0, "x": null}]}]"#,
            r#"{"a\u0062": 1, "ab": 2}"#,
        ] {
            assert!(value_from_str(text).is_err(), "{text}");
            assert!(has_repeated_key(text), "{text}");
        }
    }

    #[test]
    fn keys_given_once_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 3.5, "s\n", true, null, {}], "b": {"a": 1}, "": 0}"#;
        assert!(!has_repeated_key(text));
        assert_eq!(
            value_from_str(text).unwrap(),
            json!({"a": [1, -2, 3.5, "s\n", true, null, {}], "b": {"a": 1}, "": 0})
        );
        // A number out of range is an error to both.
        assert!(value_from_str("[1e400]").is_err());
        assert!(serde_json::from_str::<Value>("[1e400]").is_err());
    }

    #[test]
    fn many_members_are_checked_by_sorting() {
        let members = |last: usize| {
            let inner: Vec<String> = (0..40)
                .chain([last])
                .map(|i| format!("\"k{i}\": {i}"))
                .collect();
            format!("{{{}}}", inner.join(", "))
        };
        assert!(has_repeated_key(&members(7)));
        assert!(!has_repeated_key(&members(40)));
        assert!(value_from_str(&members(7)).is_err());
    }

    /// A JSON text whose objects are written member by member, so that keys can repeat, and
    /// whether some object's keys do.
    fn text() -> impl Strategy<Value = (String, bool)> {
        let leaf = prop_oneof![
            any::<i16>().prop_map(|n| (n.to_string(), false)),
            "[a\"\\\\é]{0,3}".prop_map(|s| (Value::from(s).to_string(), false)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(|items| {
                    let repeated = items.iter().any(|(_, r)| *r);
                    let texts: Vec<_> = items.into_iter().map(|(t, _)| t).collect();
                    (format!("[{}]", texts.join(",")), repeated)
                }),
                proptest::collection::vec(("[ab\\\\]{0,2}", inner), 0..4).prop_map(|members| {
                    let keys: Vec<&String> = members.iter().map(|(k, _)| k).collect();
                    let here = (1..keys.len()).any(|i| keys[..i].contains(&keys[i]));
                    let repeated = here || members.iter().any(|(_, (_, r))| *r);
                    let texts: Vec<_> = members
                        .iter()
                        .map(|(k, (t, _))| format!("{}:{t}", Value::from(k.as_str())))
                        .collect();
                    (format!("{{{}}}", texts.join(",")), repeated)
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn a_repeated_key_is_found_and_nothing_else_differs((text, repeated) in text()) {
            prop_assert_eq!(has_repeated_key(&text), repeated);
            match value_from_str(&text) {
                Ok(v) => {
                    prop_assert!(!repeated);
                    prop_assert_eq!(v, serde_json::from_str::<Value>(&text).unwrap());
                }
                Err(_) => prop_assert!(repeated),
            }
        }

        /// What the check takes, the lenient parser reads with no fix and writes as the
        /// compactor writes it: `repair_json` writes such JSON without the parser. Keys from
        /// a few (so some are given twice, spelled alike or by escapes), numbers in and out
        /// of range, escapes, lone surrogates, white space, nesting.
        #[test]
        fn what_the_check_takes_the_parser_reads_with_no_fix(text in json_text()) {
            if check_str(&text).is_ok() {
                let options = crate::pipeline::valid_json_options();
                let parsed = crate::repair::to_string_counted(&text, &options).unwrap();
                prop_assert_eq!(parsed.fixes, 0, "{}", text);
                prop_assert_eq!(
                    crate::repair::compact::compact_in_place(text.clone()),
                    parsed.json
                );
            }
        }
    }

    /// JSON texts, mostly valid (see `what_the_check_takes_the_parser_reads_with_no_fix`).
    fn json_text() -> impl Strategy<Value = String> {
        let gap = proptest::sample::select(vec!["", "", " ", "\n  ", "\t"]);
        let leaf = proptest::sample::select(vec![
            "0",
            "-0",
            "1.50",
            "-2.5e+3",
            "1e999",
            "-1e400",
            "123456789012345678901234567890",
            "true",
            "null",
            "\"\"",
            "\"x\\/y\"",
            "\"\\u0041\\n\"",
            "\"\\ud83d\\ude00\"",
            "\"\\ud800\"",
            "\"é\\u00e9\"",
        ])
        .prop_map(str::to_owned);
        leaf.prop_recursive(4, 32, 4, move |inner| {
            let key = proptest::sample::select(vec!["\"a\"", "\"b\"", "\"\\u0061\"", "\"c\""]);
            prop_oneof![
                (proptest::collection::vec(inner.clone(), 0..4), gap.clone())
                    .prop_map(|(items, g)| format!("[{g}{}{g}]", items.join(&format!(",{g}")))),
                (proptest::collection::vec((key, inner), 0..4), gap.clone()).prop_map(
                    |(members, g)| {
                        let members: Vec<String> = members
                            .iter()
                            .map(|(k, v)| format!("{k}{g}:{g}{v}"))
                            .collect();
                        format!("{{{g}{}{g}}}", members.join(&format!("{g},")))
                    }
                ),
            ]
        })
    }
}
