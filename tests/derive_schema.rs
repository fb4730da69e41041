//! What `#[derive(LlmOutput)]` adds to the schemars schema: `x-aliases` and `x-no-invent`,
//! each on the object (or enum, or tag) schema it belongs to.
#![allow(dead_code)]

use llmout::LlmOutput;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

const SCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "camelCase")]
struct User {
    #[serde(alias = "uid")]
    #[llmout(alias = "user_id", no_invent)]
    user_id: u32,
    display_name: Option<String>,
}

#[test]
fn struct_aliases_and_no_invent_use_serialized_names() {
    assert_eq!(
        *User::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "User",
            "type": "object",
            "properties": {
                "userId": {"type": "integer", "format": "uint32", "minimum": 0},
                "displayName": {"type": ["string", "null"]}
            },
            "required": ["userId"],
            "x-aliases": {"uid": "userId", "user_id": "userId"},
            "x-no-invent": ["userId"]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Order {
    id: u32,
    lines: Vec<Option<Line>>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Line {
    #[llmout(alias = "qty", no_invent)]
    quantity: u32,
}

#[test]
fn nested_annotations_land_in_their_definition() {
    assert_eq!(
        *Order::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Order",
            "type": "object",
            "properties": {
                "id": {"type": "integer", "format": "uint32", "minimum": 0},
                "lines": {
                    "type": "array",
                    "items": {"anyOf": [{"$ref": "#/$defs/Line"}, {"type": "null"}]}
                }
            },
            "required": ["id", "lines"],
            "$defs": {
                "Line": {
                    "type": "object",
                    "properties": {
                        "quantity": {"type": "integer", "format": "uint32", "minimum": 0}
                    },
                    "required": ["quantity"],
                    "x-aliases": {"qty": "quantity"},
                    "x-no-invent": ["quantity"]
                }
            }
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Node {
    #[llmout(alias = "kids")]
    children: Vec<Node>,
    #[llmout(no_invent)]
    value: i32,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Forest {
    trees: Vec<Node>,
}

#[test]
fn recursive_types_are_annotated_once() {
    assert_eq!(
        *Node::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Node",
            "type": "object",
            "properties": {
                "children": {"type": "array", "items": {"$ref": "#"}},
                "value": {"type": "integer", "format": "int32"}
            },
            "required": ["children", "value"],
            "x-aliases": {"kids": "children"},
            "x-no-invent": ["value"]
        })
    );
    // Nested, the recursive type is a definition and refers to itself.
    let forest = Forest::schema();
    assert_eq!(
        forest["properties"]["trees"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        forest["$defs"]["Node"],
        json!({
            "type": "object",
            "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "value": {"type": "integer", "format": "int32"}
            },
            "required": ["children", "value"],
            "x-aliases": {"kids": "children"},
            "x-no-invent": ["value"]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(rename_all = "snake_case")]
enum Status {
    #[serde(alias = "todo")]
    Open,
    #[llmout(alias = "done", alias = "finished")]
    Closed,
    #[serde(skip)]
    Internal,
}

#[test]
fn unit_enum_variant_aliases() {
    assert_eq!(
        *Status::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Status",
            "type": "string",
            "enum": ["open", "closed"],
            "x-aliases": {"todo": "open", "done": "closed", "finished": "closed"}
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
enum External {
    A,
    #[llmout(alias = "bee")]
    B {
        #[llmout(alias = "ex")]
        x: i32,
    },
    C(i32),
}

#[test]
fn externally_tagged_struct_variant() {
    assert_eq!(
        *External::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "External",
            "oneOf": [
                {"type": "string", "enum": ["A"]},
                {
                    "type": "object",
                    "properties": {
                        "B": {
                            "type": "object",
                            "properties": {"x": {"type": "integer", "format": "int32"}},
                            "required": ["x"],
                            "x-aliases": {"ex": "x"}
                        }
                    },
                    "required": ["B"],
                    "additionalProperties": false,
                    // The variant name is this object's key: its alias is a key alias.
                    "x-aliases": {"bee": "B"}
                },
                {
                    "type": "object",
                    "properties": {"C": {"type": "integer", "format": "int32"}},
                    "required": ["C"],
                    "additionalProperties": false
                }
            ]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type")]
enum Internal {
    #[llmout(alias = "a")]
    A,
    B {
        #[llmout(alias = "ex", no_invent)]
        x: i32,
    },
}

#[test]
fn internally_tagged_struct_variant() {
    assert_eq!(
        *Internal::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Internal",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "const": "A", "x-aliases": {"a": "A"}}
                    },
                    "required": ["type"]
                },
                {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "const": "B"},
                        "x": {"type": "integer", "format": "int32"}
                    },
                    "required": ["type", "x"],
                    "x-aliases": {"ex": "x"},
                    "x-no-invent": ["x"]
                }
            ]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A,
    #[serde(alias = "bee")]
    B {
        #[serde(alias = "ex")]
        x: i32,
    },
}

#[test]
fn adjacently_tagged_struct_variant() {
    assert_eq!(
        *Adjacent::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Adjacent",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"t": {"type": "string", "const": "A"}},
                    "required": ["t"]
                },
                {
                    "type": "object",
                    "properties": {
                        "t": {"type": "string", "const": "B", "x-aliases": {"bee": "B"}},
                        "c": {
                            "type": "object",
                            "properties": {"x": {"type": "integer", "format": "int32"}},
                            "required": ["x"],
                            "x-aliases": {"ex": "x"}
                        }
                    },
                    "required": ["t", "c"]
                }
            ]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(untagged)]
enum Untagged {
    P {
        #[llmout(alias = "ex")]
        x: i32,
    },
    #[serde(skip)]
    Hidden {
        z: i32,
    },
    Q {
        #[llmout(alias = "why")]
        y: i32,
    },
    N(f64),
}

#[test]
fn untagged_struct_variants_are_found_by_position() {
    assert_eq!(
        *Untagged::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Untagged",
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"x": {"type": "integer", "format": "int32"}},
                    "required": ["x"],
                    "x-aliases": {"ex": "x"}
                },
                {
                    "type": "object",
                    "properties": {"y": {"type": "integer", "format": "int32"}},
                    "required": ["y"],
                    "x-aliases": {"why": "y"}
                },
                {"type": "number", "format": "double"}
            ]
        })
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "kind")]
enum Mixed {
    Plain {
        #[llmout(alias = "v")]
        value: i32,
    },
    #[serde(untagged)]
    Other {
        #[llmout(alias = "t")]
        text: String,
    },
}

#[test]
fn untagged_variant_of_a_tagged_enum() {
    let schema = Mixed::schema();
    assert_eq!(schema["anyOf"][0]["x-aliases"], json!({"v": "value"}));
    assert_eq!(schema["anyOf"][1]["x-aliases"], json!({"t": "text"}));
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Flat {
    a: i32,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(tag = "type")]
enum FlatEnum {
    Item {
        id: u32,
        #[serde(flatten)]
        meta: Meta,
    },
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Meta {
    #[llmout(alias = "created", no_invent)]
    created_at: String,
}

#[test]
fn flattened_fields_are_annotated_on_the_parent() {
    assert_eq!(
        *Flat::schema(),
        json!({
            "$schema": SCHEMA,
            "title": "Flat",
            "type": "object",
            "properties": {
                "a": {"type": "integer", "format": "int32"},
                "created_at": {"type": "string"}
            },
            "required": ["a", "created_at"],
            "x-aliases": {"created": "created_at"},
            "x-no-invent": ["created_at"]
        })
    );
    let branch = &FlatEnum::schema()["oneOf"][0];
    assert_eq!(branch["x-aliases"], json!({"created": "created_at"}));
    assert_eq!(branch["x-no-invent"], json!(["created_at"]));
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Page<T> {
    items: Vec<T>,
    #[llmout(alias = "cursor")]
    next: Option<u32>,
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
struct Catalogue {
    page: Page<Line>,
}

#[test]
fn generic_types_annotate_their_own_fields() {
    let schema = Page::<u8>::schema();
    assert_eq!(schema["x-aliases"], json!({"cursor": "next"}));
    // A generic argument named at the use site is probed there.
    let catalogue = Catalogue::schema();
    assert_eq!(
        catalogue["$defs"]["Page"]["x-aliases"],
        json!({"cursor": "next"})
    );
    assert_eq!(
        catalogue["$defs"]["Line"]["x-aliases"],
        json!({"qty": "quantity"})
    );
}

#[derive(Deserialize, JsonSchema, LlmOutput)]
#[serde(transparent)]
struct Wrapper(Line);

#[test]
fn transparent_struct_carries_its_field_annotations() {
    let schema = Wrapper::schema();
    assert_eq!(schema["x-aliases"], json!({"qty": "quantity"}));
    assert_eq!(schema["x-no-invent"], json!(["quantity"]));
}

#[test]
fn types_without_llmout_facts_get_plain_schemars_output() {
    #[derive(Deserialize, JsonSchema, LlmOutput)]
    struct Plain {
        name: String,
    }
    let mut generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    let plain = generator.root_schema_for::<Plain>().to_value();
    assert_eq!(*Plain::schema(), plain);
}
