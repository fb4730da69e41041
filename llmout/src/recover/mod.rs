//! Schema-aligned recovery: make a parsed value fit the schema, recording every change.
//!
//! [`recover`] walks the value and the compiled [`Schema`] together. Where they disagree it
//! applies the rules below, each adding a [`Warning`] with the JSON pointer of the change and a
//! cost (used to choose between candidate replies: the cheapest one wins):
//!
//! | rule | example | warning | cost |
//! |---|---|---|---|
//! | key by alias, case or separators | `Summary`, `user_id` for `userId` | `KeyRenamed` | 1 |
//! | unknown key dropped (kept when extras are allowed) | `{"extra": 1}` | `UnknownKeyDropped` | 1 |
//! | missing required field: default, `null` if nullable, else the empty value | `""`, `0`, `false`, `[]`, `{}` | `MissingField` | 5 |
//! | `null` for a non-nullable field: the same | `"title": null` | `NullReplaced` | 3 |
//! | number <-> string, bool from words, integral float to integer | `"12,500"`, `"yes"`, `4.0` | `Coerced` | 1 |
//! | structure as text | `{"a":1}` for a string field | `Coerced` | 3 |
//! | a JSON document inside a string | `"[1, 2]"` for an array | `Coerced` | 1 |
//! | enum value or tag loosely | `"needs review"`, `"SKIPPED"` | `EnumMatched` | 1 |
//! | one value to a one-element array, and back | `"x"` for `["x"]` | `Reshaped` | 2 |
//! | a wrapper around the expected value | `{"results": [...]}`, `{"Commit": {...}}` | `Reshaped` | 2 |
//! | an optional field that cannot be recovered is dropped | `"emoji": [1]` | `RequiredOnly` | 4 |
//! | an array item that cannot be recovered is dropped, only with `drop_invalid_items` | `[1, "x"]` | `ItemDropped` | 4 |
//!
//! Unions (`anyOf`/`oneOf`, serde enums) are recovered against every branch; the cheapest wins
//! (the first on a tie). Two enum values matching equally is [`ErrorKind::Ambiguous`], never a
//! guess. An object none of whose keys is a property is not that object (an echoed schema, an
//! example of something else, `{}`): that is an error, never a value made of defaults.
//!
//! Under [`Policy::Strict`] every rule is an error instead ([`ErrorKind::Forbidden`]), and so is
//! a missing field marked `x-no-invent` (the derive's `#[llmout(no_invent)]`) under any policy.
//! Under [`Policy::NoInvent`] only filling in is: a required field missing (or `null`) is an
//! error unless the schema gives a `default`. [`Options::keep_unknown_keys`] keeps the keys a
//! schema does not list (unless it says `additionalProperties: false`).
//!
//! Recursion follows the value, so it is bounded by the parser's depth limit; the walk is
//! linear in the size of the value times the number of union branches along each path.
//!
//! ```
//! use llmout::{recover::recover, schema::Schema, Options};
//! use serde_json::json;
//! let schema = Schema::compile(&json!({
//!     "type": "object",
//!     "properties": {"title": {"type": "string"}, "count": {"type": "integer"}},
//!     "required": ["title", "count"]
//! })).unwrap();
//! let r = recover(json!({"Title": "Hi", "count": "12,500"}), &schema, &Options::default()).unwrap();
//! assert_eq!(r.value, json!({"title": "Hi", "count": 12500}));
//! let paths: Vec<&str> = r.warnings.iter().map(|w| w.path.as_str()).collect();
//! assert_eq!(paths, ["/title", "/count"]);
//! ```

mod coerce;
mod enums;
mod keys;
pub(crate) mod text;

use serde_json::{Map, Number, Value};

use crate::schema::{Additional, Array, Kind, NodeId, Object, Property, Schema};
use crate::{excerpt, Error, ErrorKind, Options, Policy, Warning, WarningKind};
use coerce::Reason;
use enums::{EnumIndex, Match};
use keys::{KeyIndex, KeyMatch};

/// A value recovered against a schema, the changes made, and their total cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// The value, now matching the schema.
    pub value: Value,
    /// Every change, in the order it was made.
    pub warnings: Vec<Warning>,
    /// The sum of the changes' costs (0 when nothing changed).
    pub cost: u32,
}

/// Recovers `value` against `schema`'s root.
pub fn recover(value: Value, schema: &Schema, options: &Options) -> Result<Recovered, Error> {
    let mut walker = Walker {
        schema,
        strict: options.get_policy() == Policy::Strict,
        invent: options.get_policy() != Policy::NoInvent,
        keep_unknown: options.get_keep_unknown_keys(),
        drop_items: options.get_drop_invalid_items(),
        max_depth: options.get_max_depth(),
        warnings: Vec::new(),
        cost: 0,
        path: String::new(),
        keys: KeyIndex::new(),
        enums: EnumIndex::new(),
    };
    let value = walker.value(value, schema.root(), 0)?;
    Ok(Recovered {
        value,
        warnings: walker.warnings,
        cost: walker.cost,
    })
}

struct Walker<'s> {
    schema: &'s Schema,
    strict: bool,
    /// A missing value may be filled in (false under `Policy::NoInvent`).
    invent: bool,
    /// Keys the schema does not list are kept unless it forbids them.
    keep_unknown: bool,
    /// An array item that cannot be recovered may be dropped (with a warning).
    drop_items: bool,
    max_depth: usize,
    warnings: Vec<Warning>,
    cost: u32,
    /// JSON pointer of the value being recovered.
    path: String,
    /// Objects' folded property names, by schema node.
    keys: KeyIndex,
    /// Enums' folded and stemmed spellings, by schema node.
    enums: EnumIndex,
}

impl Walker<'_> {
    /// Records a change, or refuses it under the strict policy.
    fn change(&mut self, kind: WarningKind, cost: u32, message: String) -> Result<(), Error> {
        if self.strict {
            return Err(Error::new(
                ErrorKind::Forbidden,
                self.path.clone(),
                "a value that needs no recovery (strict policy)",
                format!("one that needs this: {message}"),
            ));
        }
        self.cost += cost;
        self.warnings
            .push(Warning::new(kind, self.path.clone(), message));
        Ok(())
    }

    fn mismatch(&self, id: NodeId, found: &Value) -> Error {
        Error::new(
            ErrorKind::Mismatch,
            self.path.clone(),
            self.schema.describe(id),
            describe_value(found),
        )
    }

    fn value(&mut self, v: Value, id: NodeId, depth: usize) -> Result<Value, Error> {
        if depth > self.max_depth {
            return Err(Error::new(
                ErrorKind::DepthLimit,
                self.path.clone(),
                format!("nesting at most {} deep", self.max_depth),
                "deeper nesting",
            ));
        }
        let rid = self.schema.resolve(id);
        let kind = &self.schema.node(rid).kind;
        if v.is_null() {
            return if self.schema.is_nullable(id) {
                Ok(Value::Null)
            } else {
                self.invent(id, WarningKind::NullReplaced, 3, "null")
            };
        }
        match kind {
            Kind::Any => Ok(v),
            Kind::Never | Kind::Null | Kind::Ref(_) => Err(self.mismatch(id, &v)),
            Kind::Boolean => self.boolean(v, id),
            Kind::Integer { minimum, maximum } => self.integer(v, id, *minimum, *maximum),
            Kind::Number => self.number(v, id),
            Kind::String => self.string(v, id),
            Kind::Enum(e) => {
                let v = self.unwrap_single(v)?;
                match self.enums.lookup(rid, e, &v) {
                    Match::Exact => Ok(v),
                    Match::Loose { value, how } => {
                        self.change(
                            WarningKind::EnumMatched,
                            1,
                            format!("matched {} to {value} {how}", describe_value(&v)),
                        )?;
                        Ok(value)
                    }
                    Match::Ambiguous(values) => Err(Error::new(
                        ErrorKind::Ambiguous,
                        self.path.clone(),
                        self.schema.describe(id),
                        format!(
                            "{}, which matches {} equally",
                            describe_value(&v),
                            values
                                .iter()
                                .map(Value::to_string)
                                .collect::<Vec<_>>()
                                .join(" and ")
                        ),
                    )),
                    Match::None => Err(self.mismatch(id, &v)),
                }
            }
            Kind::Array(a) => self.array(v, id, a, depth),
            Kind::Object(o) => self.object(v, id, o, depth),
            Kind::Union(branches) => self.union(v, id, branches, depth),
        }
    }

    /// A one-element array where a single value is expected: its element.
    fn unwrap_single(&mut self, v: Value) -> Result<Value, Error> {
        match v {
            Value::Array(mut items) if items.len() == 1 && !items[0].is_array() => {
                self.change(
                    WarningKind::Reshaped,
                    2,
                    "took the only element of a one-element array".to_owned(),
                )?;
                Ok(items.pop().unwrap_or(Value::Null))
            }
            v => Ok(v),
        }
    }

    /// A JSON document inside a string, where an object or array is expected.
    fn decode_string(&mut self, v: Value) -> Result<Value, Error> {
        let Value::String(s) = &v else { return Ok(v) };
        let t = s.trim();
        if !(t.starts_with('{') || t.starts_with('[')) {
            return Ok(v);
        }
        match crate::repair::parse(t, &crate::repair::RepairOptions::default()) {
            Ok(parsed) if parsed.value.is_object() || parsed.value.is_array() => {
                self.change(
                    WarningKind::Coerced,
                    1,
                    "decoded a JSON document given as a string".to_owned(),
                )?;
                Ok(parsed.value)
            }
            _ => Ok(v),
        }
    }

    fn boolean(&mut self, v: Value, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        let b = match &v {
            Value::Bool(_) => return Ok(v),
            Value::Number(n) if n.as_f64() == Some(1.0) => true,
            Value::Number(n) if n.as_f64() == Some(0.0) => false,
            Value::String(s) => match coerce::bool_from_text(s) {
                Ok(b) => b,
                Err(Reason::Ambiguous(why)) => return Err(self.ambiguous(id, why)),
                Err(Reason::NoMatch) => return Err(self.mismatch(id, &v)),
            },
            _ => return Err(self.mismatch(id, &v)),
        };
        self.change(
            WarningKind::Coerced,
            1,
            format!("read {} as the boolean {b}", describe_value(&v)),
        )?;
        Ok(Value::Bool(b))
    }

    fn number_of(&mut self, v: &Value, id: NodeId) -> Result<Option<Number>, Error> {
        match v {
            Value::Number(n) => Ok(Some(n.clone())),
            Value::String(s) => match coerce::number_from_text(s) {
                Ok(n) => Ok(Some(n)),
                Err(Reason::Ambiguous(why)) => Err(self.ambiguous(id, why)),
                Err(Reason::NoMatch) => Ok(None),
            },
            _ => Ok(None),
        }
    }

    fn number(&mut self, v: Value, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        if v.is_number() {
            return Ok(v);
        }
        let Some(n) = self.number_of(&v, id)? else {
            return Err(self.mismatch(id, &v));
        };
        self.change(
            WarningKind::Coerced,
            1,
            format!("read {} as the number {n}", describe_value(&v)),
        )?;
        Ok(Value::Number(n))
    }

    fn integer(
        &mut self,
        v: Value,
        id: NodeId,
        minimum: Option<f64>,
        maximum: Option<f64>,
    ) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        let Some(n) = self.number_of(&v, id)? else {
            return Err(self.mismatch(id, &v));
        };
        let Some(i) = coerce::integer_from(&n) else {
            return Err(self.mismatch(id, &v));
        };
        let f = i.as_f64().unwrap_or(0.0);
        if minimum.is_some_and(|m| f < m) || maximum.is_some_and(|m| f > m) {
            return Err(Error::new(
                ErrorKind::Mismatch,
                self.path.clone(),
                format!(
                    "an integer in {}..={}",
                    minimum.map_or("".into(), |m| m.to_string()),
                    maximum.map_or("".into(), |m| m.to_string())
                ),
                describe_value(&v),
            ));
        }
        if v != Value::Number(i.clone()) {
            self.change(
                WarningKind::Coerced,
                1,
                format!("read {} as the integer {i}", describe_value(&v)),
            )?;
        }
        Ok(Value::Number(i))
    }

    fn string(&mut self, v: Value, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        match &v {
            Value::String(_) => Ok(v),
            Value::Number(_) | Value::Bool(_) => {
                let text = coerce::scalar_text(&v).unwrap_or_default();
                self.change(
                    WarningKind::Coerced,
                    1,
                    format!("wrote {} as the string \"{text}\"", describe_value(&v)),
                )?;
                Ok(Value::String(text))
            }
            Value::Object(_) | Value::Array(_) => {
                self.change(
                    WarningKind::Coerced,
                    3,
                    format!("wrote {} as JSON text in a string", describe_value(&v)),
                )?;
                Ok(Value::String(v.to_string()))
            }
            Value::Null => Err(self.mismatch(id, &v)),
        }
    }

    fn array(&mut self, v: Value, id: NodeId, a: &Array, depth: usize) -> Result<Value, Error> {
        let v = self.decode_string(v)?;
        let items = match v {
            Value::Array(items) => items,
            Value::Object(map) if map.len() == 1 && map.values().all(Value::is_array) => {
                let (key, inner) = map.into_iter().next().unwrap_or_default();
                self.change(
                    WarningKind::Reshaped,
                    2,
                    format!("took the array out of the wrapper object {{\"{key}\": [...]}}"),
                )?;
                match inner {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                }
            }
            other => {
                self.change(
                    WarningKind::Reshaped,
                    2,
                    format!("wrapped {} in a one-element array", describe_value(&other)),
                )?;
                vec![other]
            }
        };
        let tuple_len = if a.items.is_none() && !a.prefix.is_empty() {
            Some(a.prefix.len())
        } else {
            None
        };
        let mut out = Vec::with_capacity(items.len());
        let base = self.path.len();
        for (i, item) in items.into_iter().enumerate() {
            let schema = match (a.prefix.get(i), a.items) {
                (Some(p), _) => *p,
                (None, Some(items)) => items,
                (None, None) if tuple_len.is_some() => {
                    {
                        use std::fmt::Write;
                        let _ = write!(self.path, "/{i}");
                    }
                    let r = self.change(
                        WarningKind::ItemDropped,
                        2,
                        format!("dropped {} past the end of a tuple", describe_value(&item)),
                    );
                    self.path.truncate(base);
                    r?;
                    continue;
                }
                (None, None) => {
                    out.push(item);
                    continue;
                }
            };
            {
                use std::fmt::Write;
                let _ = write!(self.path, "/{i}");
            }
            let saved = (self.warnings.len(), self.cost);
            let r = match self.value(item, schema, depth + 1) {
                Err(e) if self.drop_items && e.kind() != ErrorKind::DepthLimit => {
                    self.warnings.truncate(saved.0);
                    self.cost = saved.1;
                    self.change(
                        WarningKind::ItemDropped,
                        4,
                        format!("dropped the item: {e}"),
                    )
                    .map(|()| None)
                }
                r => r.map(Some),
            };
            self.path.truncate(base);
            if let Some(v) = r? {
                out.push(v);
            }
        }
        if let Some(len) = tuple_len {
            if out.len() < len {
                return Err(Error::new(
                    ErrorKind::Mismatch,
                    self.path.clone(),
                    self.schema.describe(id),
                    format!("an array of {} items, not {len}", out.len()),
                ));
            }
        }
        Ok(Value::Array(out))
    }

    fn object(&mut self, v: Value, id: NodeId, o: &Object, depth: usize) -> Result<Value, Error> {
        let v = self.decode_string(v)?;
        let v = match v {
            Value::Array(mut items) if items.len() == 1 && items[0].is_object() => {
                self.change(
                    WarningKind::Reshaped,
                    2,
                    "took the only object out of a one-element array".to_owned(),
                )?;
                items.pop().unwrap_or_default()
            }
            v => v,
        };
        let Value::Object(mut map) = v else {
            return Err(self.mismatch(id, &v));
        };
        let oid = self.schema.resolve(id);

        // {"TypeName": {...}} or {"result": {...}} around the expected object.
        if map.len() == 1 && !o.properties.is_empty() {
            let key = map.keys().next().cloned().unwrap_or_default();
            let inner_is_object = map.get(&key).is_some_and(Value::is_object);
            if inner_is_object && self.keys.lookup(oid, o, &key) == KeyMatch::Unknown {
                self.change(
                    WarningKind::Reshaped,
                    2,
                    format!("took the object out of the wrapper {{\"{key}\": {{...}}}}"),
                )?;
                map = match map.remove(&key) {
                    Some(Value::Object(inner)) => inner,
                    _ => Map::new(),
                };
            }
        }

        // Every key a property by its exact name and every required property present: recover
        // the values in place, without rebuilding (and rehashing) the map. The common case.
        let base = self.path.len();
        let all_exact = map
            .keys()
            .all(|k| o.properties.iter().any(|p| p.name == *k));
        if all_exact
            && o.properties
                .iter()
                .all(|p| !p.required || map.contains_key(&p.name))
        {
            let mut dropped = Vec::new();
            for (key, slot) in map.iter_mut() {
                let Some(p) = o.properties.iter().find(|p| p.name == *key) else {
                    continue;
                };
                let given = std::mem::take(slot);
                match self.at_key(base, key, |w| w.property(p, Some(given), depth))? {
                    Some(v) => *slot = v,
                    None => dropped.push(key.clone()),
                }
            }
            for key in dropped {
                map.shift_remove(&key);
            }
            return Ok(Value::Object(map));
        }

        let mut slots: Vec<Option<Value>> = vec![None; o.properties.len()];
        // The key strings of exact matches, reused for the output map.
        let mut names: Vec<Option<String>> = vec![None; o.properties.len()];
        let mut exact: Vec<bool> = vec![false; o.properties.len()];
        let mut extras: Vec<(String, Value)> = Vec::new();
        let mut any_known = false;
        // Described only if no key turns out to be known (the error below).
        let found_keys = if o.properties.is_empty()
            || o.additional == Additional::Allow
            || map
                .keys()
                .any(|k| o.properties.iter().any(|p| &p.name == k))
        {
            String::new()
        } else {
            describe_keys(&map)
        };
        for (key, value) in map {
            let m = self.keys.lookup(oid, o, &key);
            match m {
                KeyMatch::Exact(i) => {
                    any_known = true;
                    if slots[i].is_some() {
                        self.at_key(base, &o.properties[i].name, |w| {
                            w.change(
                                WarningKind::UnknownKeyDropped,
                                1,
                                format!(
                                    "dropped a value given under another spelling of \"{key}\""
                                ),
                            )
                        })?;
                    }
                    slots[i] = Some(value);
                    exact[i] = true;
                    names[i] = Some(key);
                }
                KeyMatch::Alias(i) | KeyMatch::Loose(i) => {
                    any_known = true;
                    let name = o.properties[i].name.clone();
                    if exact[i] || slots[i].is_some() {
                        self.at_key(base, &key, |w| {
                            w.change(
                                WarningKind::UnknownKeyDropped,
                                1,
                                format!("dropped \"{key}\": \"{name}\" is given already"),
                            )
                        })?;
                    } else {
                        let how = if matches!(m, KeyMatch::Alias(_)) {
                            "an alias"
                        } else {
                            "the same name in another case or spelling"
                        };
                        self.at_key(base, &name, |w| {
                            w.change(
                                WarningKind::KeyRenamed,
                                1,
                                format!("renamed key \"{key}\" to \"{name}\" ({how})"),
                            )
                        })?;
                        slots[i] = Some(value);
                    }
                }
                KeyMatch::Ambiguous(hits) => {
                    let names: Vec<String> = hits
                        .iter()
                        .map(|i| format!("\"{}\"", o.properties[*i].name))
                        .collect();
                    return Err(Error::new(
                        ErrorKind::Ambiguous,
                        crate::pointer_push(&self.path, &key),
                        format!("a key naming one property of {}", names.join(", ")),
                        format!("\"{key}\", which matches them equally"),
                    ));
                }
                KeyMatch::Unknown => match o.additional {
                    Additional::Allow => extras.push((key, value)),
                    Additional::Unspecified if self.strict => extras.push((key, value)),
                    Additional::Unspecified if self.keep_unknown => extras.push((key, value)),
                    Additional::Schema(s) => {
                        let r = self.at_key(base, &key, |w| w.value(value, s, depth + 1))?;
                        extras.push((key, r));
                    }
                    Additional::Unspecified | Additional::Deny => {
                        self.at_key(base, &key, |w| {
                            w.change(
                                WarningKind::UnknownKeyDropped,
                                1,
                                format!("dropped unknown key \"{key}\""),
                            )
                        })?;
                    }
                },
            }
        }
        let extras_allowed = o.additional == Additional::Allow
            || (self.keep_unknown && o.additional == Additional::Unspecified);
        if !any_known && !o.properties.is_empty() && !extras_allowed {
            return Err(Error::new(
                ErrorKind::Mismatch,
                self.path.clone(),
                self.schema.describe(id),
                found_keys,
            ));
        }

        let mut out = Map::with_capacity(o.properties.len() + extras.len());
        for ((p, slot), name) in o.properties.iter().zip(slots).zip(names) {
            let r = self.at_key(base, &p.name, |w| w.property(p, slot, depth));
            if let Some(v) = r? {
                out.insert(name.unwrap_or_else(|| p.name.clone()), v);
            }
        }
        out.extend(extras);
        Ok(Value::Object(out))
    }

    /// Runs `f` with the path extended by `key`.
    fn at_key<T>(
        &mut self,
        base: usize,
        key: &str,
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.path.truncate(base);
        self.path.push('/');
        if key.bytes().any(|c| c == b'~' || c == b'/') {
            self.path
                .push_str(&key.replace('~', "~0").replace('/', "~1"));
        } else {
            self.path.push_str(key);
        }
        let r = f(self);
        self.path.truncate(base);
        r
    }

    /// One property: recover it if given, fill it in if required and missing.
    fn property(
        &mut self,
        p: &Property,
        slot: Option<Value>,
        depth: usize,
    ) -> Result<Option<Value>, Error> {
        match slot {
            Some(Value::Null) if !self.schema.is_nullable(p.schema) => {
                if p.no_invent {
                    return Err(self.no_invent(p, "null"));
                }
                if !p.required {
                    self.change(
                        WarningKind::NullReplaced,
                        1,
                        "dropped null for an optional field that is not nullable".to_owned(),
                    )?;
                    return Ok(None);
                }
                if !self.may_fill(p) {
                    return Err(self.not_given(p, "null"));
                }
                self.invent(p.schema, WarningKind::NullReplaced, 3, "null")
                    .map(Some)
            }
            Some(v) => {
                let saved = (self.warnings.len(), self.cost);
                match self.value(v, p.schema, depth + 1) {
                    Ok(v) => Ok(Some(v)),
                    // Last resort, field by field: an optional field that cannot be recovered
                    // is dropped (never silently), so the required ones can still be kept.
                    Err(e) if !p.required && !self.strict && e.kind() != ErrorKind::DepthLimit => {
                        self.warnings.truncate(saved.0);
                        self.cost = saved.1;
                        self.change(
                            WarningKind::RequiredOnly,
                            4,
                            format!("dropped optional field \"{}\": {e}", p.name),
                        )?;
                        Ok(None)
                    }
                    Err(e) => Err(e),
                }
            }
            None if p.required => {
                if p.no_invent {
                    return Err(self.no_invent(p, "nothing"));
                }
                if !self.may_fill(p) {
                    return Err(self.not_given(p, "nothing"));
                }
                self.invent(p.schema, WarningKind::MissingField, 5, "nothing")
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    /// Whether a missing required field may be filled in: always, except under
    /// `Policy::NoInvent`, where only the schema's own `default` may.
    fn may_fill(&self, p: &Property) -> bool {
        self.invent || self.schema.default_of(p.schema).is_some()
    }

    /// A required field the model did not give, under `Policy::NoInvent`.
    fn not_given(&self, p: &Property, found: &str) -> Error {
        Error::new(
            ErrorKind::Forbidden,
            self.path.clone(),
            format!(
                "{} for \"{}\" (required; never filled in)",
                self.schema.describe(p.schema),
                p.name
            ),
            found,
        )
    }

    fn no_invent(&self, p: &Property, found: &str) -> Error {
        Error::new(
            ErrorKind::Forbidden,
            self.path.clone(),
            format!(
                "{} for \"{}\" (marked no_invent: never filled in)",
                self.schema.describe(p.schema),
                p.name
            ),
            found,
        )
    }

    /// A value for a field that is missing (or `null` and not nullable): the schema default,
    /// else `null` if nullable, else the type's empty value.
    fn invent(
        &mut self,
        id: NodeId,
        kind: WarningKind,
        cost: u32,
        found: &str,
    ) -> Result<Value, Error> {
        let (value, how) = if let Some(d) = self.schema.default_of(id) {
            (d.clone(), "the schema default")
        } else if self.schema.is_nullable(id) {
            (Value::Null, "null")
        } else if let Some(v) = self.empty_value(id, 0) {
            (v, "the empty value")
        } else {
            return Err(Error::new(
                ErrorKind::Mismatch,
                self.path.clone(),
                self.schema.describe(id),
                found,
            ));
        };
        let what = if found == "null" {
            "null"
        } else {
            "missing field"
        };
        self.change(kind, cost, format!("{what} filled with {how} {value}"))?;
        Ok(value)
    }

    /// `""`, `0`, `false`, `[]`, or an object of its required fields' empty values; `None` when
    /// the type has no empty value (an enum with several values, `never`).
    fn empty_value(&self, id: NodeId, depth: usize) -> Option<Value> {
        if depth > 16 {
            return None;
        }
        let rid = self.schema.resolve(id);
        if let Some(d) = self.schema.default_of(id) {
            return Some(d.clone());
        }
        Some(match &self.schema.node(rid).kind {
            Kind::Any | Kind::Null => Value::Null,
            Kind::Never => return None,
            Kind::Boolean => Value::Bool(false),
            Kind::Integer { minimum, .. } => match minimum {
                Some(m) if *m > 0.0 => Value::from(m.ceil() as i64),
                _ => Value::from(0),
            },
            Kind::Number => Value::from(0),
            Kind::String => Value::String(String::new()),
            Kind::Enum(e) if e.values.len() == 1 => e.values[0].clone(),
            Kind::Enum(_) => return None,
            Kind::Array(_) => Value::Array(Vec::new()),
            Kind::Object(o) => {
                let mut map = Map::new();
                for p in o.properties.iter().filter(|p| p.required) {
                    if p.no_invent {
                        return None;
                    }
                    let v = if self.schema.is_nullable(p.schema) {
                        Value::Null
                    } else {
                        self.empty_value(p.schema, depth + 1)?
                    };
                    map.insert(p.name.clone(), v);
                }
                Value::Object(map)
            }
            Kind::Union(branches) => {
                return branches
                    .iter()
                    .find_map(|b| self.empty_value(*b, depth + 1))
            }
            Kind::Ref(_) => Value::Null,
        })
    }

    /// Every branch; the cheapest recovery wins (the first on a tie).
    fn union(
        &mut self,
        v: Value,
        id: NodeId,
        branches: &[NodeId],
        depth: usize,
    ) -> Result<Value, Error> {
        let mut best: Option<(u32, Value, Vec<Warning>)> = None;
        let mut first_error: Option<Error> = None;
        let saved_len = self.warnings.len();
        let saved_cost = self.cost;
        // A tagged enum's value names its branch by a constant property (serde's tag): that
        // branch alone is tried, so a valid value costs one branch and no copy.
        if let Some(tagged) = self.tagged_branch(&v, branches) {
            return self.value(v, tagged, depth + 1);
        }
        for b in branches {
            match self.value(v.clone(), *b, depth + 1) {
                Ok(value) => {
                    let cost = self.cost - saved_cost;
                    let warnings = self.warnings.split_off(saved_len);
                    self.cost = saved_cost;
                    if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                        let done = cost == 0;
                        best = Some((cost, value, warnings));
                        if done {
                            break;
                        }
                    }
                }
                Err(e) => {
                    self.warnings.truncate(saved_len);
                    self.cost = saved_cost;
                    // Keep the error that got deepest into the value: it says most.
                    if first_error
                        .as_ref()
                        .is_none_or(|f| e.path().len() > f.path().len())
                    {
                        first_error = Some(e);
                    }
                }
            }
        }
        match best {
            Some((cost, value, warnings)) => {
                self.cost += cost;
                self.warnings.extend(warnings);
                Ok(value)
            }
            None => Err(first_error.unwrap_or_else(|| self.mismatch(id, &v))),
        }
    }

    /// The branch whose constant property (a serde tag) the value has exactly, if one does.
    fn tagged_branch(&self, v: &Value, branches: &[NodeId]) -> Option<NodeId> {
        let Value::Object(map) = v else { return None };
        branches.iter().copied().find(|&b| {
            let Kind::Object(o) = &self.schema.node(self.schema.resolve(b)).kind else {
                return false;
            };
            o.properties.iter().any(|p| {
                let Kind::Enum(e) = &self.schema.node(self.schema.resolve(p.schema)).kind else {
                    return false;
                };
                e.values.len() == 1 && map.get(&p.name) == Some(&e.values[0])
            })
        })
    }

    fn ambiguous(&self, id: NodeId, why: String) -> Error {
        Error::new(
            ErrorKind::Ambiguous,
            self.path.clone(),
            self.schema.describe(id),
            why,
        )
    }
}

/// A short description of a value for messages: `"\"abc\""`, `12`, `an object with keys a, b`.
pub(crate) fn describe_value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => excerpt(s, 40),
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(o) if o.is_empty() => "an empty object".to_owned(),
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().take(6).map(|k| format!("\"{k}\"")).collect();
            let more = if o.len() > 6 { ", …" } else { "" };
            format!("an object with keys {}{more}", keys.join(", "))
        }
    }
}

fn describe_keys(map: &Map<String, Value>) -> String {
    if map.is_empty() {
        return "an empty object".to_owned();
    }
    let keys: Vec<String> = map.keys().take(6).map(|k| format!("\"{k}\"")).collect();
    let more = if map.len() > 6 { ", …" } else { "" };
    format!(
        "an object with none of them (keys {}{more})",
        keys.join(", ")
    )
}

#[cfg(test)]
mod tests;
