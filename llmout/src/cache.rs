//! The per-type schema cache behind [`LlmOutput::schema`].
//!
//! A `static` inside a generic function is shared by every instantiation, so the cache is a
//! map from `TypeId` to a leaked entry: each type's schema is generated and compiled once per
//! process, and later calls cost one read-lock and a hash look-up.

use std::any::TypeId;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use schemars::generate::SchemaSettings;
use serde_json::Value;

use crate::__private::{Annotations, Edit, Variant};
use crate::schema::Schema;
use crate::LlmOutput;

/// A derived type's schema, as JSON and compiled.
pub(crate) struct Entry {
    pub(crate) json: Value,
    pub(crate) compiled: Schema,
    pub(crate) prompt: String,
}

type Map = HashMap<TypeId, &'static Entry>;

static CACHE: OnceLock<RwLock<Map>> = OnceLock::new();

/// Returns the cached entry of `T`, building it on first use.
pub(crate) fn entry<T: LlmOutput>() -> &'static Entry {
    let cache = CACHE.get_or_init(|| RwLock::new(HashMap::new()));
    let id = TypeId::of::<T>();
    if let Some(e) = cache.read().unwrap_or_else(|p| p.into_inner()).get(&id) {
        return e;
    }
    let built = build::<T>();
    let mut map = cache.write().unwrap_or_else(|p| p.into_inner());
    // Another thread may have built it meanwhile: keep the first, so references stay unique.
    map.entry(id).or_insert_with(|| Box::leak(Box::new(built)))
}

/// Whether `T`'s compiled schema has constraints to check ([`Schema::is_constrained`]),
/// remembered per thread for the last few types asked about: the fast path asks on every
/// call, and the cache's lock and hash cost a few percent of parsing a small reply.
pub(crate) fn is_constrained<T: LlmOutput>() -> bool {
    thread_local! {
        static RECENT: Cell<[Option<(TypeId, bool)>; 4]> = const { Cell::new([None; 4]) };
    }
    let id = TypeId::of::<T>();
    RECENT.with(|cell| {
        let mut recent = cell.get();
        if let Some((_, c)) = recent.iter().flatten().find(|(t, _)| *t == id) {
            return *c;
        }
        let c = T::compiled_schema().is_constrained();
        recent.rotate_right(1);
        recent[0] = Some((id, c));
        cell.set(recent);
        c
    })
}

fn build<T: LlmOutput>() -> Entry {
    let mut generator = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    let mut json = generator.root_schema_for::<T>().to_value();

    let mut annotations = Annotations::default();
    T::__llmout_annotate(&mut annotations);
    let root = TypeId::of::<T>();
    for t in &annotations.types {
        if t.edits.is_empty() {
            continue;
        }
        let def_name = if t.type_id == root {
            None
        } else {
            let reference = (t.locate)(&mut generator).to_value();
            match reference
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
            {
                Some(name) => Some(name.to_owned()),
                // Inlined (`#[schemars(inline)]`) types have no definition of their own.
                None => continue,
            }
        };
        let target = match &def_name {
            None => Some(&mut json),
            Some(name) => json.get_mut("$defs").and_then(|d| d.get_mut(name.as_str())),
        };
        if let Some(target) = target {
            for edit in &t.edits {
                apply(target, edit);
            }
        }
    }

    // schemars emits schemas llmout understands, but a type's attributes may hold what llmout
    // cannot check (a `pattern` with look-around): then every reply is that error, rather
    // than a value checked against less than the type states.
    let compiled = Schema::compile(&json).unwrap_or_else(Schema::unusable);
    let prompt = crate::schema::prompt::render(&json).unwrap_or_else(|e| {
        // (The same error as compiling's, when that failed: said by every `from_llm`.)
        debug_assert!(
            compiled.broken().is_some(),
            "schemars emitted a schema llmout cannot render: {e}"
        );
        String::from("any")
    });
    Entry {
        json,
        compiled,
        prompt,
    }
}

/// Applies one derive-provided edit to a type's own schema, as vendor keywords
/// (`x-aliases`, `x-no-invent`) that runtime schemas can carry too.
fn apply(schema: &mut Value, edit: &Edit) {
    match edit {
        Edit::PropertyAlias {
            variant,
            property,
            alias,
        } => {
            if let Some(obj) = object_schema_of(schema, *variant) {
                insert_map(obj, "x-aliases", alias, Value::from(*property));
            }
        }
        Edit::NoInvent { variant, property } => {
            if let Some(obj) = object_schema_of(schema, *variant) {
                let list = obj
                    .entry("x-no-invent")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = list {
                    if !items.iter().any(|p| p.as_str() == Some(property)) {
                        items.push(Value::from(*property));
                    }
                }
            }
        }
        Edit::VariantAlias { variant, alias } => {
            if let Some((obj, name)) = variant_name_schema_of(schema, *variant) {
                insert_map(obj, "x-aliases", alias, Value::from(name));
            }
        }
    }
}

fn insert_map(obj: &mut serde_json::Map<String, Value>, key: &str, k: &str, v: Value) {
    let entry = obj
        .entry(key)
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Value::Object(map) = entry {
        map.insert(k.to_owned(), v);
    }
}

/// The `oneOf` / `anyOf` list schemars makes of an enum's variants.
fn branches(schema: &mut Value) -> Option<&mut Vec<Value>> {
    let key = ["oneOf", "anyOf"]
        .into_iter()
        .find(|k| schema.get(*k).is_some())?;
    schema.get_mut(key)?.as_array_mut()
}

/// Whether `schema` is `{"properties": {"<tag>": {"const": "<name>"}}}`.
fn has_tag(schema: &Value, tag: &str, name: &str) -> bool {
    schema
        .get("properties")
        .and_then(|p| p.get(tag))
        .and_then(|t| t.get("const"))
        .and_then(Value::as_str)
        == Some(name)
}

/// Whether `schema` is the object `{"<name>": ...}` of an externally tagged variant.
fn is_external(schema: &Value, name: &str) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.len() == 1 && p.contains_key(name))
}

/// The object schema holding a struct's properties, or the one holding an enum variant's
/// fields, as schemars lays out each of serde's enum representations.
fn object_schema_of(
    schema: &mut Value,
    variant: Option<Variant>,
) -> Option<&mut serde_json::Map<String, Value>> {
    let Some(variant) = variant else {
        return schema.as_object_mut();
    };
    let list = branches(schema)?;
    let branch = match variant {
        // {"Variant": {...fields}}
        Variant::External { name } => list
            .iter_mut()
            .find(|b| is_external(b, name))?
            .get_mut("properties")?
            .get_mut(name)?,
        // {"tag": "Variant", ...fields}
        Variant::Internal { tag, name } => list.iter_mut().find(|b| has_tag(b, tag, name))?,
        // {"tag": "Variant", "content": {...fields}}
        Variant::Adjacent { tag, content, name } => list
            .iter_mut()
            .find(|b| has_tag(b, tag, name))?
            .get_mut("properties")?
            .get_mut(content)?,
        Variant::Untagged { from_end } => {
            let index = list.len().checked_sub(from_end.checked_add(1)?)?;
            list.get_mut(index)?
        }
    };
    branch.as_object_mut()
}

/// The schema that holds an enum variant's name, and that name: where a variant alias goes.
/// A unit variant's name is a value of an `enum`; an externally tagged variant with content
/// is the key of its object (so the alias is a property alias there); a tagged variant's name
/// is the `const` of its tag property.
fn variant_name_schema_of(
    schema: &mut Value,
    variant: Variant,
) -> Option<(&mut serde_json::Map<String, Value>, &'static str)> {
    let names_value = |s: &Value, name: &str| {
        s.get("const").and_then(Value::as_str) == Some(name)
            || s.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().any(|v| v.as_str() == Some(name)))
    };
    match variant {
        Variant::External { name } => {
            if names_value(schema, name) {
                return Some((schema.as_object_mut()?, name));
            }
            let branch = branches(schema)?
                .iter_mut()
                .find(|b| names_value(b, name) || is_external(b, name))?;
            Some((branch.as_object_mut()?, name))
        }
        Variant::Internal { tag, name } | Variant::Adjacent { tag, name, .. } => {
            let tag_schema = branches(schema)?
                .iter_mut()
                .find(|b| has_tag(b, tag, name))?
                .get_mut("properties")?
                .get_mut(tag)?;
            Some((tag_schema.as_object_mut()?, name))
        }
        Variant::Untagged { .. } => None,
    }
}
