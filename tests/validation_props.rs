//! Property: a value generated to meet a schema's constraints passes untouched, and the same
//! value with one constraint broken fails with exactly that keyword at exactly that path.

use llmout::{from_llm_with_schema, ErrorKind, Options};
use proptest::prelude::*;
use proptest::string::string_regex;
use serde_json::{json, Map, Value};

/// One constrained field: its schema, a value that meets it, the same value with its keyword
/// broken, and the keyword.
#[derive(Debug, Clone)]
struct Leaf {
    schema: Value,
    valid: Value,
    broken: Value,
    keyword: &'static str,
}

fn text(regex: &str) -> impl Strategy<Value = String> {
    string_regex(regex).expect("a valid generator regex")
}

fn leaf(keyword: &'static str, schema: Value, valid: Value, broken: Value) -> Leaf {
    Leaf {
        schema,
        valid,
        broken,
        keyword,
    }
}

fn string_leaves() -> impl Strategy<Value = Leaf> {
    prop_oneof![
        (1u64..6).prop_flat_map(|n| text(&format!("[a-zé日]{{{n},{}}}", n + 4)).prop_map(
            move |s| {
                let short: String = s.chars().take(n as usize - 1).collect();
                leaf(
                    "minLength",
                    json!({"type": "string", "minLength": n}),
                    json!(s),
                    json!(short),
                )
            }
        )),
        (0u64..6).prop_flat_map(|n| text(&format!("[a-zé日]{{0,{n}}}")).prop_map(move |s| {
            let long = format!("{s}{}", "x".repeat(n as usize + 1 - s.chars().count()));
            leaf(
                "maxLength",
                json!({"type": "string", "maxLength": n}),
                json!(s),
                json!(long),
            )
        })),
        text("[a-z]{1,8}").prop_map(|s| leaf(
            "pattern",
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!(s),
            json!(format!("{s}A"))
        )),
        text("[0-9]{3}-[0-9]{4}").prop_map(|s| leaf(
            "pattern",
            json!({"type": "string", "pattern": "^\\d{3}-\\d{4}$"}),
            json!(s),
            json!(s[..7].to_owned())
        )),
        (text("[a-z]{0,3}[0-9][a-z]{0,3}"), text("[a-z]{1,5}")).prop_map(|(s, t)| leaf(
            "pattern",
            json!({"type": "string", "pattern": "[0-9]"}),
            json!(s),
            json!(t)
        )),
        (text("[a-z]{1,6}"), text("[a-z]{1,6}")).prop_map(|(l, d)| leaf(
            "format",
            json!({"type": "string", "format": "email"}),
            json!(format!("{l}@{d}.com")),
            json!(format!("{l} at {d}.com"))
        )),
        text("[a-z]{1,8}").prop_map(|h| leaf(
            "format",
            json!({"type": "string", "format": "uri"}),
            json!(format!("https://{h}.org/p?q=1")),
            json!(format!("{h}.org/p"))
        )),
        (1000u32..3000, 1u32..13, 1u32..29).prop_map(|(y, m, d)| leaf(
            "format",
            json!({"type": "string", "format": "date"}),
            json!(format!("{y}-{m:02}-{d:02}")),
            json!(format!("{y}-{m:02}-32"))
        )),
        (1000u32..3000, 0u32..24, 0u32..60).prop_map(|(y, h, m)| leaf(
            "format",
            json!({"type": "string", "format": "date-time"}),
            json!(format!("{y}-01-15T{h:02}:{m:02}:00Z")),
            json!(format!("{y}-01-15 {h:02}:{m:02}:00Z"))
        )),
        text("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").prop_map(|u| leaf(
            "format",
            json!({"type": "string", "format": "uuid"}),
            json!(u),
            json!(u.replace('-', ""))
        )),
        (0u32..256, 0u32..256, 256u32..1000).prop_map(|(a, b, bad)| leaf(
            "format",
            json!({"type": "string", "format": "ipv4"}),
            json!(format!("{a}.{b}.0.1")),
            json!(format!("{bad}.{b}.0.1"))
        )),
        text("[0-9a-f]{1,4}").prop_map(|h| leaf(
            "format",
            json!({"type": "string", "format": "ipv6"}),
            json!(format!("::{h}")),
            json!(format!("1::{h}::2"))
        )),
        text("[a-z]{1,8}").prop_map(|s| leaf(
            "not",
            json!({"type": "string", "not": {"const": "forbidden"}}),
            json!(s),
            json!("forbidden")
        )),
    ]
}

fn number_leaves() -> impl Strategy<Value = Leaf> {
    prop_oneof![
        (-50i64..50, 0i64..100, 1i64..100).prop_map(|(m, up, down)| leaf(
            "minimum",
            json!({"type": "integer", "minimum": m}),
            json!(m + up),
            json!(m - down)
        )),
        (-50i64..50, 0i64..100, 1i64..100).prop_map(|(m, down, up)| leaf(
            "maximum",
            json!({"type": "number", "maximum": m}),
            json!(m - down),
            json!(m + up)
        )),
        (-50i64..50, 1i64..100, 0i64..100).prop_map(|(m, up, down)| leaf(
            "exclusiveMinimum",
            json!({"type": "number", "exclusiveMinimum": m}),
            json!(m as f64 + up as f64 / 4.0),
            json!(m - down)
        )),
        (-50i64..50, 1i64..100, 0i64..100).prop_map(|(m, down, up)| leaf(
            "exclusiveMaximum",
            json!({"type": "number", "exclusiveMaximum": m}),
            json!(m as f64 - down as f64 / 4.0),
            json!(m + up)
        )),
        (2i64..10, -20i64..20).prop_map(|(k, i)| leaf(
            "multipleOf",
            json!({"type": "integer", "multipleOf": k}),
            json!(k * i),
            json!(k * i + 1)
        )),
    ]
}

/// Distinct strings.
fn distinct(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!(format!("s{i}"))).collect()
}

/// An object of `n` integer properties.
fn props(n: usize) -> Value {
    Value::Object((0..n).map(|i| (format!("k{i}"), json!(i))).collect())
}

fn container_leaves() -> impl Strategy<Value = Leaf> {
    let array = |extra: Value| {
        let mut s = json!({"type": "array", "items": {"type": "string"}});
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        s
    };
    let object = |extra: Value| {
        let mut s = json!({"type": "object", "additionalProperties": {"type": "integer"}});
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        s
    };
    prop_oneof![
        (1usize..4, 0usize..3).prop_map(move |(n, more)| leaf(
            "minItems",
            array(json!({"minItems": n})),
            Value::Array(distinct(n + more)),
            Value::Array(distinct(n - 1))
        )),
        (0usize..4, 0usize..4).prop_map(move |(n, fewer)| leaf(
            "maxItems",
            array(json!({"maxItems": n})),
            Value::Array(distinct(n.saturating_sub(fewer))),
            Value::Array(distinct(n + 1))
        )),
        (1usize..5, any::<prop::sample::Index>()).prop_map(move |(n, at)| {
            let mut broken = distinct(n);
            broken.push(broken[at.index(n)].clone());
            leaf(
                "uniqueItems",
                array(json!({"uniqueItems": true})),
                Value::Array(distinct(n)),
                Value::Array(broken),
            )
        }),
        (1usize..4, 0usize..3).prop_map(move |(n, more)| leaf(
            "minProperties",
            object(json!({"minProperties": n})),
            props(n + more),
            props(n - 1)
        )),
        (0usize..3, 0usize..3).prop_map(move |(n, fewer)| leaf(
            "maxProperties",
            object(json!({"maxProperties": n})),
            props(n.saturating_sub(fewer)),
            props(n + 1)
        )),
        prop::sample::select(vec![json!({"a": 1, "b": 2}), json!({"b": 2}), json!({})]).prop_map(
            |valid| leaf(
                "dependentRequired",
                json!({
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                    "dependentRequired": {"a": ["b"]}
                }),
                valid,
                json!({"a": 1})
            )
        ),
    ]
}

fn any_leaf() -> impl Strategy<Value = Leaf> {
    prop_oneof![string_leaves(), number_leaves(), container_leaves()]
}

/// A field of the root object: a leaf, or an array of 1-3 objects of leaves.
#[derive(Debug, Clone)]
enum Field {
    Leaf(Leaf),
    Group(Vec<Leaf>, usize),
}

/// The schema, the valid value, and every place a constraint can be broken: its path, the
/// keyword, and the value with it broken there.
fn build(fields: &[Field]) -> (Value, Value, Vec<(String, &'static str, Value)>) {
    let object = |names: Vec<(String, Value)>| {
        let required: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
        json!({
            "type": "object",
            "properties": Value::Object(names.into_iter().collect()),
            "required": required,
            "additionalProperties": false
        })
    };
    let mut root_props = Vec::new();
    let mut valid = Map::new();
    let mut places: Vec<(String, &'static str, Vec<String>, Value)> = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let name = format!("r{i}");
        match field {
            Field::Leaf(l) => {
                root_props.push((name.clone(), l.schema.clone()));
                valid.insert(name.clone(), l.valid.clone());
                places.push((format!("/{name}"), l.keyword, vec![name], l.broken.clone()));
            }
            Field::Group(leaves, n) => {
                let inner: Vec<(String, Value)> = leaves
                    .iter()
                    .enumerate()
                    .map(|(j, l)| (format!("n{j}"), l.schema.clone()))
                    .collect();
                root_props.push((
                    name.clone(),
                    json!({"type": "array", "items": object(inner)}),
                ));
                let item: Map<String, Value> = leaves
                    .iter()
                    .enumerate()
                    .map(|(j, l)| (format!("n{j}"), l.valid.clone()))
                    .collect();
                valid.insert(name.clone(), Value::Array(vec![Value::Object(item); *n]));
                for k in 0..*n {
                    for (j, l) in leaves.iter().enumerate() {
                        places.push((
                            format!("/{name}/{k}/n{j}"),
                            l.keyword,
                            vec![name.clone(), k.to_string(), format!("n{j}")],
                            l.broken.clone(),
                        ));
                    }
                }
            }
        }
    }
    let valid = Value::Object(valid);
    let places = places
        .into_iter()
        .map(|(path, keyword, steps, broken)| {
            let mut v = valid.clone();
            let mut at = &mut v;
            for s in &steps {
                at = match at {
                    Value::Object(m) => m.get_mut(s).unwrap(),
                    Value::Array(a) => &mut a[s.parse::<usize>().unwrap()],
                    _ => unreachable!(),
                };
            }
            *at = broken;
            (path, keyword, v)
        })
        .collect();
    (object(root_props), valid, places)
}

fn fields() -> impl Strategy<Value = Vec<Field>> {
    let field = prop_oneof![
        3 => any_leaf().prop_map(Field::Leaf),
        1 => (prop::collection::vec(any_leaf(), 1..4), 1usize..4)
            .prop_map(|(leaves, n)| Field::Group(leaves, n)),
    ];
    prop::collection::vec(field, 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn one_broken_constraint_is_reported_exactly(fields in fields(), pick in any::<prop::sample::Index>()) {
        let (schema, valid, places) = build(&fields);
        let options = Options::default();
        let r = from_llm_with_schema(&valid.to_string(), &schema, &options);
        prop_assert_eq!(r.error, None);
        prop_assert_eq!(r.value.as_ref(), Some(&valid));
        prop_assert!(r.warnings.is_empty(), "{:?}", r.warnings);

        let (path, keyword, broken) = &places[pick.index(places.len())];
        let r = from_llm_with_schema(&broken.to_string(), &schema, &options);
        prop_assert_eq!(r.value, None, "{}", broken);
        let e = r.error.unwrap();
        prop_assert_eq!(e.kind(), ErrorKind::Invalid, "{}", e);
        let found: Vec<(&str, &str)> = e.violations().iter().map(|v| (v.path(), v.keyword())).collect();
        prop_assert_eq!(found, vec![(path.as_str(), *keyword)], "{}", broken);
    }
}
