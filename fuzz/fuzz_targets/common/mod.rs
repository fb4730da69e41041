#![allow(dead_code)] // each target uses a part
//! Schemas generated from fuzz input: objects, maps, objects of any members, arrays, scalars
//! with bounds, `enum`, `const`, unions (`anyOf`, `oneOf`, type arrays), `allOf`, `$ref`s
//! into `$defs` (recursive ones included, and sometimes loops that consume no input, which
//! must be rejected), and now and then a keyword of the wrong type or a constraint
//! (`pattern`, lengths, `format`, bounds, `multipleOf`, `uniqueItems`, counts of properties,
//! `dependentRequired`, `not`, `patternProperties`; patterns llmout cannot run among them).
//! Names come from a small vocabulary so that replies hit them.

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

const NAMES: [&str; 6] = ["a", "name", "Kind", "user_id", "items", "x"];
const WORDS: [&str; 6] = ["pass", "fail", "needs review", "SKIPPED", "1", ""];
const DEFS: usize = 3;
/// Patterns: ordinary, Unicode, unanchored, and ones the `regex` crate cannot run.
const PATTERNS: [&str; 8] = [
    "^[a-z]+$",
    "\\d",
    "^\\p{L}*$",
    "^(a|b)*$",
    "(?=a)",
    "(a)\\1",
    "[",
    "x{2,}",
];
const FORMATS: [&str; 8] = [
    "email",
    "uri",
    "date",
    "date-time",
    "uuid",
    "ipv4",
    "ipv6",
    "int32",
];

/// A schema document: a root and up to three definitions.
pub fn schema(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut defs = Map::new();
    let n = u.int_in_range(0..=DEFS)?;
    for i in 0..n {
        defs.insert(format!("D{i}"), node(u, 3, n)?);
    }
    let mut root = node(u, 3, n)?;
    if let (Value::Object(m), false) = (&mut root, defs.is_empty()) {
        m.insert("$defs".into(), Value::Object(defs));
    }
    Ok(root)
}

/// `schema` (from [`schema`]) as the items of an array under the key `items` of an object
/// schema, with up to two other properties before or after it (each maybe required), and
/// `schema`'s definitions moved to the new root: the shape `large` reads item by item
/// inside an object.
pub fn object_around(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    let items = |schema: Value| json!({"type": "array", "items": schema});
    property_of(u, schema, "items", items, &["a", "name", "Kind", "x"])
}

/// An object schema with two properties that are arrays of `schema`, `items` and `more`, and
/// a third that may be required: both arrays are read item by item by `large`.
pub fn two_around(u: &mut Unstructured<'_>, mut schema: Value) -> Result<Value> {
    let defs = schema.as_object_mut().and_then(|m| m.remove("$defs"));
    let n = defs.as_ref().and_then(Value::as_object).map_or(0, Map::len);
    let items = json!({"type": "array", "items": schema});
    let mut required = Vec::new();
    for key in ["items", "more", "x"] {
        if u.arbitrary()? {
            required.push(json!(key));
        }
    }
    let mut root = json!({
        "type": "object",
        "properties": {"items": items.clone(), "x": node(u, 1, n)?, "more": items},
        "required": required
    });
    if let Some(defs) = defs {
        root["$defs"] = defs;
    }
    Ok(root)
}

/// An object schema whose property `users` is a map of `schema` (`additionalProperties`),
/// with up to two others: its members are read one by one by `large`.
pub fn object_around_map(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    let map = |schema: Value| json!({"type": "object", "additionalProperties": schema});
    property_of(u, schema, "users", map, &["a", "name", "Users", "x"])
}

/// [`object_around`]'s object as the first branch of an internally tagged union (a constant
/// `type` in each branch), beside an object with another tag: where the reply's tag names the
/// branch, its items are read one by one.
pub fn tagged_around(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    union_around(u, schema, |mut first| {
        first["properties"]["type"] = json!({"const": "a"});
        let second = json!({"type": "object", "properties": {"type": {"const": "b"}, "x": {"type": "integer"}}});
        json!({"oneOf": [first, second]})
    })
}

/// [`object_around`] as the content of an externally tagged variant `A` (serde's default
/// representation, `{"A": {...}}`), beside a unit variant and another with content: the
/// reply's key names the branch.
pub fn external_around(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    let variant = |name: &str, content: Value| {
        json!({"type": "object", "properties": {name: content}, "required": [name],
               "additionalProperties": false})
    };
    union_around(u, schema, |content| {
        json!({"oneOf": [
            {"type": "string", "enum": ["C"]},
            variant("A", content),
            variant("B", json!({"type": "integer"}))
        ]})
    })
}

/// [`object_around`] as the content `c` of an adjacently tagged variant `a` (`{"t": "a",
/// "c": {...}}`), beside a variant whose content is a string: the reply's tag names the
/// branch.
pub fn adjacent_around(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    union_around(u, schema, |content| {
        json!({"oneOf": [
            {"type": "object", "properties": {"t": {"const": "a"}, "c": content}, "required": ["t", "c"]},
            {"type": "object", "properties": {"t": {"const": "b"}, "c": {"type": "string"}}, "required": ["t", "c"]}
        ]})
    })
}

/// [`object_around`]'s object as a branch of an untagged union (`anyOf` or `oneOf`), beside
/// one or two generated branches (objects among them, which may give `items` a schema of
/// their own), in any place: where it is the only branch that fits the object around the
/// items, whatever they are, its items are read one by one. Now and then one of the others
/// is the object written again with a property of its own (`y`, maybe required), which
/// gives the items the same schema: where both fit the object around the items, and meet
/// them alike, they are read one by one too.
pub fn untagged_around(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .map_or(0, Map::len);
    let mut others = vec![node(u, 2, defs)?];
    if u.arbitrary()? {
        others.push(node(u, 2, defs)?);
    }
    let twin = if u.arbitrary()? {
        Some((
            node(u, 1, defs)?,
            u.arbitrary::<bool>()?,
            u.int_in_range(0..=others.len())?,
        ))
    } else {
        None
    };
    let at = u.int_in_range(0..=others.len() + usize::from(twin.is_some()))?;
    let key = *u.choose(&["anyOf", "oneOf"])?;
    union_around(u, schema, |object| {
        if let Some((y, required, twin_at)) = twin {
            let mut again = object.clone();
            again["properties"]["y"] = y;
            if required {
                match again["required"].as_array_mut() {
                    Some(names) => names.push(json!("y")),
                    None => again["required"] = json!(["y"]),
                }
            }
            others.insert(twin_at, again);
        }
        others.insert(at, object);
        json!({key: others})
    })
}

/// [`object_around`] put in a union by `union`; its definitions move to the union's root.
fn union_around(
    u: &mut Unstructured<'_>,
    schema: Value,
    union: impl FnOnce(Value) -> Value,
) -> Result<Value> {
    let mut object = object_around(u, schema)?;
    let defs = object.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut root = union(object);
    if let Some(defs) = defs {
        root["$defs"] = defs;
    }
    Ok(root)
}

/// `schema` (from [`object_around`]) as the property `data` of another object schema, in the
/// same way: the items two objects deep, which `large` reads item by item too.
pub fn object_around_object(u: &mut Unstructured<'_>, schema: Value) -> Result<Value> {
    property_of(u, schema, "data", |schema| schema, &["n", "Data", "x"])
}

/// An object schema whose property `name` is `wrap(schema)`, with up to two others named from
/// `others`, each maybe required; `schema`'s definitions move to the new root.
fn property_of(
    u: &mut Unstructured<'_>,
    mut schema: Value,
    name: &'static str,
    wrap: impl Fn(Value) -> Value,
    others: &[&'static str],
) -> Result<Value> {
    let defs = schema.as_object_mut().and_then(|m| m.remove("$defs"));
    let n = defs.as_ref().and_then(Value::as_object).map_or(0, Map::len);
    let mut props = Map::new();
    let mut required = Vec::new();
    let count = u.int_in_range(0..=2)?;
    let at = u.int_in_range(0..=count)?;
    for i in 0..=count {
        let (key, node) = if i == at {
            (name, wrap(schema.clone()))
        } else {
            (*u.choose(others)?, node(u, 1, n)?)
        };
        props.insert(key.into(), node);
        if u.arbitrary()? {
            required.push(json!(key));
        }
    }
    let mut root = json!({"type": "object", "properties": props, "required": required});
    if let Some(defs) = defs {
        root["$defs"] = defs;
    }
    Ok(root)
}

fn word(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=3)? {
        0 => json!(u.int_in_range(-3..=3)?),
        1 => Value::Bool(u.arbitrary()?),
        _ => json!(*u.choose(&WORDS)?),
    })
}

/// An object schema of one to three properties named from [`NAMES`] (each maybe required),
/// now and then with fourteen to sixteen more (past the 16 names an object's keys are
/// matched by comparing with each), and maybe `additionalProperties` or `x-aliases`.
fn object(u: &mut Unstructured<'_>, depth: u32, defs: usize) -> Result<Value> {
    let mut props = Map::new();
    let mut required = Vec::new();
    for _ in 0..u.int_in_range(1..=3)? {
        let name = *u.choose(&NAMES)?;
        props.insert(name.into(), node(u, depth - 1, defs)?);
        if u.arbitrary()? {
            required.push(json!(name));
        }
    }
    if u.int_in_range(0..=5)? == 0 {
        for i in 0..u.int_in_range(14..=16)? {
            props.insert(format!("f{i}"), json!({"type": "string"}));
        }
    }
    let mut o = json!({"type": "object", "properties": props, "required": required});
    match u.int_in_range(0..=3)? {
        0 => o["additionalProperties"] = json!(false),
        1 => o["additionalProperties"] = node(u, depth - 1, defs)?,
        2 => o["x-aliases"] = json!({"id": "user_id", "nm": "name"}),
        _ => {}
    }
    Ok(o)
}

fn node(u: &mut Unstructured<'_>, depth: u32, defs: usize) -> Result<Value> {
    let last = if depth == 0 { 6 } else { 14 };
    let mut s = match u.int_in_range(0..=last)? {
        0 => json!({"type": "string"}),
        1 => {
            json!({"type": "integer", "minimum": u.int_in_range(-5..=0)?, "maximum": u.int_in_range(0..=100)?})
        }
        2 => json!({"type": "number"}),
        3 => json!({"type": "boolean"}),
        4 => {
            let k = u.int_in_range(1..=3)?;
            let mut values = (0..k).map(|_| word(u)).collect::<Result<Vec<Value>>>()?;
            // Now and then past the 16 values an enum is matched by comparing with each.
            if u.int_in_range(0..=5)? == 0 {
                values.extend((0..15).map(|i| json!(format!("v{i}"))));
            }
            json!({"enum": values})
        }
        5 => json!({"const": word(u)?}),
        6 if defs > 0 => json!({"$ref": format!("#/$defs/D{}", u.int_in_range(0..=defs - 1)?)}),
        6 => json!({"type": ["string", "null"]}),
        7 | 8 => object(u, depth, defs)?,
        // A map; or an object that keeps any member as written, as `{}` keeps it.
        9 => match u.int_in_range(0..=3)? {
            0 => json!({"type": "object"}),
            1 => json!({"type": "object", "additionalProperties": true}),
            _ => json!({"type": "object", "additionalProperties": node(u, depth - 1, defs)?}),
        },
        10 | 11 => json!({"type": "array", "items": node(u, depth - 1, defs)?}),
        12 => {
            // (`allOf` of one: llmout merges only objects, and several schemas of different
            // types have no value in common.)
            // Or of two objects, which are merged (a property both declare takes both
            // schemas).
            let key = *u.choose(&["anyOf", "oneOf", "allOf"])?;
            if key == "allOf" && u.arbitrary()? {
                json!({"allOf": [object(u, depth, defs)?, object(u, depth, defs)?]})
            } else {
                let k = if key == "allOf" {
                    1
                } else {
                    u.int_in_range(1..=3)?
                };
                let branches: Result<Vec<Value>> =
                    (0..k).map(|_| node(u, depth - 1, defs)).collect();
                json!({ key: branches? })
            }
        }
        13 => json!({"anyOf": [node(u, depth - 1, defs)?, {"type": "null"}]}),
        _ => {
            json!({"type": "array", "prefixItems": [node(u, depth - 1, defs)?, node(u, depth - 1, defs)?]})
        }
    };
    // Now and then a keyword of the wrong type, or a default.
    if let Value::Object(m) = &mut s {
        match u.int_in_range(0..=40)? {
            0 => {
                m.insert("type".into(), json!(3));
            }
            1 => {
                m.insert("enum".into(), json!([]));
            }
            2 => {
                m.insert("properties".into(), json!("x"));
            }
            3 => {
                m.insert("default".into(), word(u)?);
            }
            4 => {
                m.insert("description".into(), json!("A thing."));
            }
            5..=16 => {
                let (key, value) = constraint(u, depth, defs)?;
                m.insert(key.into(), value);
            }
            _ => {}
        }
    }
    Ok(s)
}

/// A constraint keyword and its value.
fn constraint(u: &mut Unstructured<'_>, depth: u32, defs: usize) -> Result<(&'static str, Value)> {
    let n = json!(u.int_in_range(0..=4)?);
    Ok(match u.int_in_range(0..=13)? {
        0 => ("pattern", json!(*u.choose(&PATTERNS)?)),
        1 => ("minLength", n),
        2 => ("maxLength", n),
        3 => ("format", json!(*u.choose(&FORMATS)?)),
        4 => ("minimum", json!(u.int_in_range(-3..=3)?)),
        5 => (
            "exclusiveMaximum",
            json!(f64::from(u.int_in_range(-30..=30)?) / 10.0),
        ),
        6 => ("multipleOf", json!(*u.choose(&[0.1, 0.5, 2.0, 3.0])?)),
        7 => ("uniqueItems", json!(true)),
        8 => ("minItems", n),
        9 => ("maxProperties", n),
        10 => (
            "dependentRequired",
            json!({"a": ["name"], "x": ["items", "a"]}),
        ),
        11 if depth > 0 => ("not", node(u, depth - 1, defs)?),
        11 => ("not", json!({"const": word(u)?})),
        12 if depth > 0 => (
            "patternProperties",
            json!({ *u.choose(&PATTERNS)?: node(u, depth - 1, defs)? }),
        ),
        _ => ("not", json!({"required": [*u.choose(&NAMES)?]})),
    })
}

/// Splits `text` at char boundaries into chunks whose sizes come from `sizes` (1 to 16 bytes).
pub fn chunks<'t>(text: &'t str, sizes: &[u8]) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while at < text.len() {
        let want = usize::from(sizes.get(i % sizes.len().max(1)).copied().unwrap_or(7) % 16) + 1;
        let mut end = (at + want).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
        i += 1;
    }
    out
}
