//! The per-type schema cache behind [`LlmOutput::schema`](crate::LlmOutput::schema).
//!
//! A `static` inside a generic function is shared by every instantiation, so the cache is a
//! map from `TypeId` to a leaked entry: each type's schema is generated and compiled once per
//! process, and later calls cost one read-lock and a hash look-up.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use schemars::generate::SchemaSettings;
use serde_json::Value;

use crate::__private::{Annotations, Edit};
use crate::schema::Schema;
use crate::LlmOutput;

/// A derived type's schema, as JSON and compiled.
pub(crate) struct Entry {
    pub(crate) json: Value,
    pub(crate) compiled: Schema,
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

    let compiled = Schema::compile(&json).unwrap_or_else(|e| {
        // schemars only emits schemas llmout understands; an unknown construct degrades to
        // "accept anything" for that node rather than failing every call.
        debug_assert!(
            false,
            "schemars emitted a schema llmout cannot compile: {e}"
        );
        Schema::any()
    });
    Entry { json, compiled }
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
                    items.push(Value::from(*property));
                }
            }
        }
        Edit::VariantAlias { value, alias } => {
            if let Value::Object(obj) = schema {
                insert_map(obj, "x-aliases", alias, Value::from(*value));
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

/// The object schema holding a struct's properties, or the one holding an enum variant's
/// fields (externally, internally or adjacently tagged, as schemars lays them out).
fn object_schema_of<'a>(
    schema: &'a mut Value,
    variant: Option<&str>,
) -> Option<&'a mut serde_json::Map<String, Value>> {
    let Some(variant) = variant else {
        return schema.as_object_mut();
    };
    let branches = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).map(|_| *k))?;
    let list = schema.get_mut(branches)?.as_array_mut()?;
    for branch in list {
        let Some(props) = branch.get("properties").and_then(Value::as_object) else {
            continue;
        };
        // Externally tagged: {"properties": {"Variant": {...fields...}}, "required": ["Variant"]}
        if props.len() == 1 && props.contains_key(variant) {
            return branch
                .get_mut("properties")?
                .get_mut(variant)?
                .as_object_mut();
        }
        // Internally / adjacently tagged: a property whose `const` is the variant name.
        let tag_of = |p: &Value| p.get("const").and_then(Value::as_str) == Some(variant);
        if let Some(tag_key) = props
            .iter()
            .find(|(_, p)| tag_of(p))
            .map(|(k, _)| k.clone())
        {
            let content = props
                .iter()
                .find(|(k, p)| **k != tag_key && p.get("properties").is_some())
                .map(|(k, _)| k.clone());
            return match content {
                Some(c) if props.len() == 2 => branch
                    .get_mut("properties")?
                    .get_mut(c.as_str())?
                    .as_object_mut(),
                _ => branch.as_object_mut(),
            };
        }
    }
    None
}
