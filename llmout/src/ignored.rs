//! Notices whether serde ignored anything while deserializing: the fast path's check.
//!
//! A derived `Deserialize` skips a key it does not know by deserializing its value as
//! `IgnoredAny`, which calls `deserialize_ignored_any`. [`deserialize`] wraps the deserializer
//! (and every deserializer, visitor, seed and access it hands on) so that such a call sets a
//! flag, and forwards everything else untouched. Unlike the `serde_ignored` crate it keeps no
//! path, so it allocates nothing and, once inlined, costs next to nothing: a reply in which a
//! key would be dropped silently (`tool_calls` for a camelCase `toolCalls: Option<_>`) leaves
//! the fast path and goes through recovery, which names what it does with the key.
//!
//! What serde buffers itself (internally tagged and untagged enums, `flatten`) is replayed
//! from serde's own buffer and cannot be watched, as with `serde_ignored`: a variant skips a
//! key it does not know out of sight. So an object read into that buffer (through
//! `deserialize_any`) is noticed, as below.
//!
//! It also notices whether an object was read by a visitor that takes any key (a map, a
//! `Value`, serde's own buffer; asked for by `deserialize_map` or `deserialize_any`). Such a
//! visitor keeps a key given twice with its last value and says nothing, where a derived
//! struct's refuses it; and what serde buffers a variant reads unseen. The fast path then
//! reads the text's keys against the schema (`recover::keys_fit`).
//!
//! And it notices a float beyond the 64-bit integers, which may be an integer held rounded
//! (`serde_json` hands both over alike): the fast path leaves it to recovery, whose lenient
//! parser sees how the number was written and says where digits were lost.

use std::cell::Cell;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// What [`deserialize`] noticed on the way.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Noticed {
    /// A value was ignored.
    pub(crate) ignored: bool,
    /// An object was read by a visitor that takes any key: a map, which keeps a repeated
    /// key's last value, a `Value`, or serde's own buffer of an internally tagged or
    /// untagged enum, which a variant then reads skipping keys it does not know, unseen.
    pub(crate) open_object: bool,
    /// A float beyond the 64-bit integers was read (above `u64::MAX`, or at or below
    /// `i64::MIN`): it may be an integer held rounded, digits lost, which `serde_json`
    /// hands over no differently. Recovery reads how it was written, and says so.
    pub(crate) rounded: bool,
}

/// Deserializes a `T` from `de`, and says what it noticed on the way.
pub(crate) fn deserialize<'de, T, D>(de: D) -> Result<(T, Noticed), D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let noticed = Cell::new(Noticed::default());
    let value = T::deserialize(Watch {
        inner: de,
        noticed: &noticed,
        any_key: false,
    })?;
    Ok((value, noticed.get()))
}

/// A deserializer, visitor, seed or access, watched.
struct Watch<'a, X> {
    inner: X,
    noticed: &'a Cell<Noticed>,
    /// (A visitor's) asked for by `deserialize_map` or `deserialize_any`.
    any_key: bool,
}

impl<'a, X> Watch<'a, X> {
    fn wrap<Y>(&self, inner: Y) -> Watch<'a, Y> {
        Watch {
            inner,
            noticed: self.noticed,
            any_key: false,
        }
    }

    fn notice(&self, what: impl FnOnce(&mut Noticed)) {
        let mut noticed = self.noticed.get();
        what(&mut noticed);
        self.noticed.set(noticed);
    }
}

/// Forwards `deserialize_*` methods, watching the visitor.
macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            let visitor = self.wrap(visitor);
            self.inner.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Watch<'_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let visitor = Watch {
            any_key: true,
            ..self.wrap(visitor)
        };
        self.inner.deserialize_any(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let visitor = Watch {
            any_key: true,
            ..self.wrap(visitor)
        };
        self.inner.deserialize_map(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.notice(|n| n.ignored = true);
        self.inner.deserialize_ignored_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Forwards `visit_*` methods that carry a plain value.
macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Watch<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        if !(-9_223_372_036_854_775_808.0 < v && v < 18_446_744_073_709_551_616.0) {
            self.notice(|n| n.rounded = true);
        }
        self.inner.visit_f64(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let de = self.wrap(de);
        self.inner.visit_some(de)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let de = self.wrap(de);
        self.inner.visit_newtype_struct(de)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let seq = self.wrap(seq);
        self.inner.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        if self.any_key {
            self.notice(|n| n.open_object = true);
        }
        let map = self.wrap(map);
        self.inner.visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let data = self.wrap(data);
        self.inner.visit_enum(data)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Watch<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        let de = self.wrap(de);
        self.inner.deserialize(de)
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let seed = self.wrap(seed);
        self.inner.next_element_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let seed = self.wrap(seed);
        self.inner.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let seed = self.wrap(seed);
        self.inner.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'a, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Watch<'a, A> {
    type Error = A::Error;
    type Variant = Watch<'a, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let seed = self.wrap(seed);
        let (value, variant) = self.inner.variant_seed(seed)?;
        Ok((
            value,
            Watch {
                inner: variant,
                noticed: self.noticed,
                any_key: false,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        let seed = self.wrap(seed);
        self.inner.newtype_variant_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let visitor = self.wrap(visitor);
        self.inner.tuple_variant(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = self.wrap(visitor);
        self.inner.struct_variant(fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    /// The value and whether anything was ignored, for `text` as a `T`.
    fn watch<T: for<'de> Deserialize<'de>>(text: &str) -> (T, super::Noticed) {
        let mut de = serde_json::Deserializer::from_str(text);
        let out = super::deserialize(&mut de).unwrap();
        de.end().unwrap();
        out
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Inner {
        a: u32,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Wrapper(Inner);

    #[derive(Debug, PartialEq, Deserialize)]
    enum Shape {
        Unit,
        New(Inner),
        Tuple(Inner, u32),
        Struct { inner: Inner },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Outer {
        list: Vec<Inner>,
        maybe: Option<Inner>,
        wrapped: Wrapper,
        shapes: Vec<Shape>,
        map: BTreeMap<String, Inner>,
    }

    const VALID: &str = r#"{"list": [{"a": 1}], "maybe": {"a": 2}, "wrapped": {"a": 3},
        "shapes": ["Unit", {"New": {"a": 4}}, {"Tuple": [{"a": 5}, 6]}, {"Struct": {"inner": {"a": 7}}}],
        "map": {"any key": {"a": 8}}}"#;

    #[test]
    fn nothing_ignored_in_valid_input() {
        let (value, noticed) = watch::<Outer>(VALID);
        assert!(!noticed.ignored);
        assert_eq!(
            value.shapes[3],
            Shape::Struct {
                inner: Inner { a: 7 }
            }
        );
        assert_eq!(value.map["any key"], Inner { a: 8 });
    }

    #[test]
    fn an_unknown_key_anywhere_is_noticed() {
        // Each place a value can sit, with an extra key "x" there.
        for (from, to) in [
            (r#""list": [{"a": 1}]"#, r#""list": [{"a": 1, "x": 0}]"#),
            (r#""maybe": {"a": 2}"#, r#""maybe": {"a": 2, "x": 0}"#),
            (r#""wrapped": {"a": 3}"#, r#""wrapped": {"x": [], "a": 3}"#),
            (r#"{"New": {"a": 4}}"#, r#"{"New": {"a": 4, "x": {}}}"#),
            (
                r#"{"Tuple": [{"a": 5}, 6]}"#,
                r#"{"Tuple": [{"a": 5, "x": 1}, 6]}"#,
            ),
            (r#"{"inner": {"a": 7}}"#, r#"{"inner": {"a": 7}, "x": 1}"#),
            (
                r#"{"any key": {"a": 8}}"#,
                r#"{"any key": {"a": 8, "x": null}}"#,
            ),
            (r#""list""#, r#""x": 1, "list""#),
        ] {
            let text = VALID.replacen(from, to, 1);
            assert_ne!(text, VALID, "{from}");
            let (_, noticed) = watch::<Outer>(&text);
            assert!(noticed.ignored, "{to}");
        }
    }

    #[test]
    fn an_object_read_by_a_visitor_of_any_key_is_noticed() {
        // `Outer` holds a map: its object is read by the map's visitor.
        assert!(watch::<Outer>(VALID).1.open_object);
        let shapes = r#"[{"Struct": {"inner": {"a": 7}}}, {"New": {"a": 4}}, "Unit"]"#;
        assert_eq!(watch::<Vec<Shape>>(shapes).1, super::Noticed::default());
        assert!(
            watch::<Vec<serde_json::Value>>(r#"[1, {"a": 2}]"#)
                .1
                .open_object
        );
        // An empty map, an array of values, are objects no visitor read.
        assert!(!watch::<Vec<serde_json::Value>>("[1, [2]]").1.open_object);
        assert!(watch::<BTreeMap<String, u8>>("{}").1.open_object);
    }

    #[test]
    fn a_float_beyond_the_64_bit_integers_is_noticed() {
        let rounded = |text: &str| watch::<Vec<f64>>(text).1.rounded;
        // An integer above `u64::MAX` (or below `i64::MIN`) comes as a float, as does one
        // written with an exponent; those within 64 bits come as integers.
        assert!(rounded("[18446744073709551616]"));
        assert!(rounded("[-9223372036854775809]"));
        assert!(rounded("[1, 2e19]"));
        assert!(!rounded(
            "[18446744073709551615, -9223372036854775808, 1.5e19, 0.5]"
        ));
        // Through serde's own buffer (an untagged enum) and into a `Value` too; not where
        // it is read as `u128`.
        #[derive(Deserialize)]
        #[serde(untagged)]
        #[allow(dead_code)]
        enum Either {
            Text(String),
            Number(f64),
        }
        assert!(
            watch::<Vec<Either>>(r#"["a", 123456789012345678901]"#)
                .1
                .rounded
        );
        assert!(
            !watch::<Vec<Either>>(r#"["a", 12345678901234567890]"#)
                .1
                .rounded
        );
        assert!(
            watch::<Vec<serde_json::Value>>("[123456789012345678901]")
                .1
                .rounded
        );
        assert!(!watch::<Vec<u128>>("[123456789012345678901]").1.rounded);
    }
}
