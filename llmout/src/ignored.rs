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
//! from serde's own buffer and cannot be watched, as with `serde_ignored`; recovery covers
//! those when the fast path does not apply.

use std::cell::Cell;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// Deserializes a `T` from `de`, and says whether any value was ignored on the way.
pub(crate) fn deserialize<'de, T, D>(de: D) -> Result<(T, bool), D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let ignored = Cell::new(false);
    let value = T::deserialize(Watch {
        inner: de,
        ignored: &ignored,
    })?;
    Ok((value, ignored.get()))
}

/// A deserializer, visitor, seed or access, watched.
struct Watch<'a, X> {
    inner: X,
    ignored: &'a Cell<bool>,
}

impl<'a, X> Watch<'a, X> {
    fn wrap<Y>(&self, inner: Y) -> Watch<'a, Y> {
        Watch {
            inner,
            ignored: self.ignored,
        }
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
        deserialize_any();
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
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.ignored.set(true);
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
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
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
                ignored: self.ignored,
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
    fn watch<T: for<'de> Deserialize<'de>>(text: &str) -> (T, bool) {
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
        let (value, ignored) = watch::<Outer>(VALID);
        assert!(!ignored);
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
            let (_, ignored) = watch::<Outer>(&text);
            assert!(ignored, "{to}");
        }
    }
}
