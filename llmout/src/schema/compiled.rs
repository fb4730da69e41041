//! The compiled view of a JSON schema that recovery runs against.
//!
//! [`Schema::compile`] turns a JSON schema (as schemars emits it, or as a user writes it) into
//! an arena of [`Node`]s: `$ref`s resolved to node ids (so recursive types are fine),
//! `anyOf`/`oneOf` and type arrays turned into unions, `{"type": "null"}` branches folded into
//! a `nullable` flag, `const`/`enum` into [`Kind::Enum`], `allOf` of objects merged, and
//! llmout's vendor keywords read: `x-aliases` (alias -> property on an object, alias -> value
//! on an enum) and `x-no-invent` (properties recovery must never fill in).
//!
//! Keywords that constrain a value without changing its shape (`minLength`, `pattern`,
//! `format`, `minimum`, `multipleOf`, `maxItems`, `uniqueItems`, `maxProperties`,
//! `dependentRequired`, `not`, ...) become the node's [`Check`]s, which recovery checks on the value it produces (each applies to values of
//! its type only, as in JSON Schema). Checks written beside `anyOf`/`oneOf` or a type array
//! are carried down to each branch, so that a union weighs them when it chooses.
//!
//! ```
//! use llmout::{advanced::schema::Kind, schema::Schema};
//! let s = Schema::compile(&serde_json::json!({
//!     "type": "object",
//!     "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
//!     "required": ["tags"]
//! })).unwrap();
//! let Kind::Object(obj) = &s.node(s.root()).kind else { panic!() };
//! assert_eq!(obj.properties[0].name, "tags");
//! assert!(obj.properties[0].required);
//! ```

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::{Map, Number, Value};

use super::{Format, Pattern};
use crate::{Error, ErrorKind};

/// Index of a node in a [`Schema`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId(usize);

/// A compiled JSON schema: nodes in an arena, and the root.
#[derive(Debug, Clone)]
pub struct Schema {
    nodes: Vec<Node>,
    root: NodeId,
    /// Per node: it or a node it refers to has checks.
    constrained: Vec<bool>,
    /// Some node is constrained (kept: asked for each value filled in).
    any_constrained: bool,
    /// Some check is more than a fixed-size integer's range (see `is_constrained`).
    beyond_types: bool,
    /// Why a derived type's schema could not be compiled (see `Schema::unusable`).
    broken: Option<Box<Error>>,
    /// The members whose arrays a large reply is read item by item through, found once
    /// (`recover::items::members`: a walk of the schema for each level it follows).
    item_members: std::sync::OnceLock<crate::repair::items::Members>,
}

/// One schema node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What values the node accepts.
    pub kind: Kind,
    /// `null` is accepted too (a type array with `"null"`, or a `{"type": "null"}` branch).
    pub nullable: bool,
    /// The schema's `default`, if any.
    pub default: Option<Value>,
    /// The `$defs` name or `title`, used to recognise `{"TypeName": {...}}` wrappers.
    pub name: Option<String>,
    /// What the value must also meet: `pattern`, ... (see [`Check`]).
    pub checks: Vec<Check>,
}

/// A constraint on a value beyond its shape, checked on what recovery produces. Each applies
/// to values of one type and is met by values of the others, as in JSON Schema. A value that
/// breaks one is an [`ErrorKind::Invalid`] error listing every [`Violation`](crate::Violation)
/// (never a value truncated or changed to fit).
///
/// `const` and `enum` are no checks: they are [`Kind::Enum`], matched (loosely, with a
/// warning) by recovery, and a value that matches none is a mismatch.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Check {
    /// `minLength`: a string has at least this many characters (Unicode scalar values).
    MinLength(u64),
    /// `maxLength`: a string has at most this many characters.
    MaxLength(u64),
    /// `pattern`: a string matches the regular expression (anywhere, unless anchored).
    Pattern(Pattern),
    /// `format`: a string is of the format (see [`Format`] for what each accepts).
    Format(Format),
    /// `minimum`: a number is at least this.
    Minimum(Number),
    /// `maximum`: a number is at most this.
    Maximum(Number),
    /// `exclusiveMinimum` (or draft 4's `minimum` with `exclusiveMinimum: true`): a number
    /// is more than this.
    ExclusiveMinimum(Number),
    /// `exclusiveMaximum`: a number is less than this.
    ExclusiveMaximum(Number),
    /// `multipleOf`: a number divided by this is an integer (exactly, in decimal).
    MultipleOf(Number),
    /// `minItems`: an array has at least this many items.
    MinItems(u64),
    /// `maxItems`: an array has at most this many items.
    MaxItems(u64),
    /// `uniqueItems: true`: no two items of an array are equal (as JSON values: `1` and
    /// `1.0` are equal, the order of keys does not count).
    UniqueItems,
    /// `minProperties`: an object has at least this many properties.
    MinProperties(u64),
    /// `maxProperties`: an object has at most this many properties.
    MaxProperties(u64),
    /// `dependentRequired` (or draft 7's `dependencies` with a list): when an object has the
    /// property, it has each of the others too. (The names are shared: a union's checks are
    /// copied to each branch.)
    DependentRequired(String, Arc<[String]>),
    /// `required` on a schema that does not say it is an object (`{"required": ["a"]}`, as
    /// under `not` or `anyOf`): an object has these properties. (On an object schema,
    /// `required` is part of the shape: [`Property::required`].)
    Required(Arc<[String]>),
    /// `not`: the value does not fit this schema (fits: recovers with no change and no
    /// violation).
    Not(NodeId),
}

/// What a node accepts.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Anything (`true`, `{}`, or keywords llmout does not interpret).
    Any,
    /// Nothing (`false`).
    Never,
    /// Only `null`.
    Null,
    /// A boolean.
    Boolean,
    /// An integer, optionally bounded.
    Integer {
        /// `minimum`, if given.
        minimum: Option<f64>,
        /// `maximum`, if given.
        maximum: Option<f64>,
    },
    /// Any number.
    Number,
    /// A string.
    String,
    /// One of a fixed set of values (`enum`, `const`, or a union of those).
    Enum(Enum),
    /// An array.
    Array(Array),
    /// An object.
    Object(Object),
    /// Any one of several schemas (`anyOf`, `oneOf`, a type array).
    Union(Vec<NodeId>),
    /// The same as another node (a resolved `$ref`).
    Ref(NodeId),
}

/// The values of an enum and their aliases.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Enum {
    /// The accepted values.
    pub values: Vec<Value>,
    /// `x-aliases`: other spellings, each mapped to one of `values`.
    pub aliases: Vec<(String, Value)>,
}

/// An array schema.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Array {
    /// Schema of the items after `prefix` (`items`), if constrained.
    pub items: Option<NodeId>,
    /// Schemas of the leading items (`prefixItems`, tuples).
    pub prefix: Vec<NodeId>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
}

/// An object schema.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// Declared properties, in schema order.
    pub properties: Vec<Property>,
    /// What to do with keys that are not properties.
    pub additional: Additional,
    /// `x-aliases`: alias -> index into `properties`.
    pub aliases: Vec<(String, usize)>,
    /// `patternProperties`: keys that are no property and match a pattern are recovered
    /// against its schema (the first that matches), before `additional` is looked at.
    pub pattern_properties: Vec<(Pattern, NodeId)>,
}

/// One declared property.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// The property name.
    pub name: String,
    /// Its schema.
    pub schema: NodeId,
    /// Listed in `required`.
    pub required: bool,
    /// Listed in `x-no-invent`: recovery must never fill it in.
    pub no_invent: bool,
}

/// The treatment of keys an object schema does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Additional {
    /// `additionalProperties` absent on an object with declared properties: extra keys are not
    /// part of the type (serde would ignore them), so recovery drops them with a warning.
    #[default]
    Unspecified,
    /// `additionalProperties: true`: extra keys are kept.
    Allow,
    /// `additionalProperties: false`: extra keys are dropped (and are an error in strict mode).
    Deny,
    /// `additionalProperties: {schema}`: extra keys are kept, their values recovered.
    Schema(NodeId),
}

/// Schema nesting deeper than this is rejected (runtime schemas are user input too; compiling
/// recurses once per level, and real schemas nest a few levels, `$ref`s included).
const MAX_SCHEMA_DEPTH: usize = 100;

/// How many pairs of nodes [`Schema::same`] compares at most: a record type's schema is a few
/// dozen nodes, and the comparison is made where recovery meets a place of items that are
/// read one by one.
const SAME_PAIRS: usize = 256;

impl Schema {
    /// A schema that accepts anything.
    pub fn any() -> Schema {
        Schema {
            nodes: vec![Node::of(Kind::Any)],
            root: NodeId(0),
            constrained: vec![false],
            any_constrained: false,
            beyond_types: false,
            broken: None,
            item_members: std::sync::OnceLock::new(),
        }
        // (Node 0 is `Any` in every schema; see `root_any`.)
    }

    /// The stand-in for a derived type's schema that does not compile (a `pattern` attribute
    /// llmout cannot run): every reply is that error, never a value checked against less
    /// than the type states.
    pub(crate) fn unusable(error: Error) -> Schema {
        let mut s = Schema::any();
        s.constrained = vec![true];
        s.any_constrained = true;
        s.beyond_types = true;
        s.broken = Some(Box::new(error));
        s
    }

    /// What `init` gives for this schema, found the first time it is asked for
    /// (`recover::items::members`).
    pub(crate) fn item_members(
        &self,
        init: impl FnOnce() -> crate::repair::items::Members,
    ) -> &crate::repair::items::Members {
        self.item_members.get_or_init(init)
    }

    /// Why this schema could not be compiled, for a stand-in from [`Schema::unusable`].
    pub(crate) fn broken(&self) -> Option<&Error> {
        self.broken.as_deref()
    }

    /// Compiles a JSON schema. Fails with [`ErrorKind::InvalidSchema`] on anything
    /// [`validate`](super::validate) rejects (a `$ref` that does not resolve inside the
    /// document, references that loop without consuming input, keywords of the wrong type),
    /// or references nested deeper than 100.
    ///
    /// ```
    /// use llmout::schema::Schema;
    /// let err = Schema::compile(&serde_json::json!({"$ref": "#/$defs/Missing"})).unwrap_err();
    /// assert_eq!(err.to_string(), "at /$ref: expected a $ref that resolves inside the schema, found \"#/$defs/Missing\"");
    /// ```
    pub fn compile(schema: &Value) -> Result<Schema, Error> {
        let patterns = super::valid::check(schema)?;
        let mut c = Compiler {
            doc: schema,
            nodes: vec![Node::of(Kind::Any)],
            refs: HashMap::new(),
            patterns,
            beyond_types: false,
            merged: 0,
        };
        let root = c.node(schema, None, 0)?;
        let mut schema = Schema {
            nodes: c.nodes,
            root,
            constrained: Vec::new(),
            any_constrained: false,
            beyond_types: c.beyond_types,
            broken: None,
            item_members: std::sync::OnceLock::new(),
        };
        // (An object with `patternProperties` is checked for keys that match two patterns.)
        schema.constrained = (0..schema.nodes.len())
            .map(|i| {
                let id = NodeId(i);
                schema.checks(id).next().is_some()
                    || matches!(&schema.node(schema.resolve(id)).kind,
                        Kind::Object(o) if !o.pattern_properties.is_empty())
            })
            .collect();
        schema.any_constrained = schema.constrained.iter().any(|c| *c);
        Ok(schema)
    }

    /// Whether a value can have the schema's shape and still break one of its [`Check`]s (or
    /// a key match two `patternProperties`): then values must be walked to be checked, even
    /// when they need no recovery. Integer bounds that only restate a fixed-size integer's
    /// range, with its `format` (what schemars writes for `u8`, `u32`, `i16`, ...), do not
    /// count here: deserializing into that integer refuses what breaks them. (They are still
    /// checked when a value is walked.)
    ///
    /// ```
    /// use llmout::schema::Schema;
    /// use serde_json::json;
    /// let s = Schema::compile(&json!({"type": "string", "pattern": "^a"})).unwrap();
    /// assert!(s.is_constrained());
    /// assert!(!Schema::compile(&json!({"type": "string"})).unwrap().is_constrained());
    /// let u8_field = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255});
    /// assert!(!Schema::compile(&u8_field).unwrap().is_constrained());
    /// let percent = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100});
    /// assert!(Schema::compile(&percent).unwrap().is_constrained());
    /// ```
    pub fn is_constrained(&self) -> bool {
        self.beyond_types
    }

    /// Whether any node has checks (or `patternProperties`), integer ranges included.
    pub(crate) fn has_checks(&self) -> bool {
        self.any_constrained
    }

    /// Whether `id` or a node it refers to has checks.
    pub(crate) fn is_constrained_at(&self, id: NodeId) -> bool {
        self.constrained.get(id.0).copied().unwrap_or(false)
    }

    /// The checks of `id` and of the nodes it refers to, in that order.
    pub fn checks(&self, id: NodeId) -> impl Iterator<Item = &Check> {
        let mut next = Some(id);
        let mut hops = 0;
        std::iter::from_fn(move || {
            let id = next?;
            hops += 1;
            let node = self.node(id);
            next = match node.kind {
                Kind::Ref(to) if hops <= self.nodes.len() => Some(to),
                _ => None,
            };
            Some(node.checks.iter())
        })
        .flatten()
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// A node by id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// Follows `Ref`s (a bounded number of hops; a cycle of refs is treated as `Any`).
    pub fn resolve(&self, mut id: NodeId) -> NodeId {
        for _ in 0..self.nodes.len() + 1 {
            match self.node(id).kind {
                Kind::Ref(next) => id = next,
                _ => return id,
            }
        }
        self.root_any()
    }

    /// Node 0 of every compiled schema is `Any`: what a cycle made only of `$ref`s means, and
    /// the items of an array that says nothing of them.
    pub(crate) fn root_any(&self) -> NodeId {
        NodeId(0)
    }

    /// Whether `a` and `b` are the same schema written twice: the same node, or nodes equal
    /// in everything but the ids of their subschemas, which are the same in turn (a pair met
    /// again on the way is taken as the same, as a recursive type's are). Two variants of an
    /// enum that each declare `records: Vec<Record>` give the property two such nodes:
    /// recovery walks a value alike under either, warnings, costs and errors. Compares at
    /// most [`SAME_PAIRS`] pairs of nodes, and says `false` beyond.
    pub(crate) fn same(&self, a: NodeId, b: NodeId) -> bool {
        let mut taken = Vec::new();
        let mut budget = SAME_PAIRS;
        self.same_within(a, b, &mut taken, &mut budget)
    }

    fn same_within(
        &self,
        a: NodeId,
        b: NodeId,
        taken: &mut Vec<(NodeId, NodeId)>,
        budget: &mut usize,
    ) -> bool {
        if a == b || taken.contains(&(a, b)) {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        // Taken as the same while their subschemas are compared: any difference below makes
        // the whole answer `false`, so the assumption never outlives a wrong guess.
        taken.push((a, b));
        let (x, y) = (self.node(a), self.node(b));
        let mut same = |p: NodeId, q: NodeId| self.same_within(p, q, taken, budget);
        let checks = x.checks.len() == y.checks.len()
            && x.checks.iter().zip(&y.checks).all(|pair| match pair {
                (Check::Not(p), Check::Not(q)) => same(*p, *q),
                (p, q) => p == q,
            });
        if !(checks && x.nullable == y.nullable && x.default == y.default && x.name == y.name) {
            return false;
        }
        let all = |same: &mut dyn FnMut(NodeId, NodeId) -> bool, p: &[NodeId], q: &[NodeId]| {
            p.len() == q.len() && p.iter().zip(q).all(|(p, q)| same(*p, *q))
        };
        match (&x.kind, &y.kind) {
            (Kind::Ref(p), Kind::Ref(q)) => same(*p, *q),
            (Kind::Union(p), Kind::Union(q)) => all(&mut same, p, q),
            (Kind::Array(p), Kind::Array(q)) => {
                p.min_items == q.min_items
                    && p.max_items == q.max_items
                    && match (p.items, q.items) {
                        (Some(i), Some(j)) => same(i, j),
                        (i, j) => i.is_none() && j.is_none(),
                    }
                    && all(&mut same, &p.prefix, &q.prefix)
            }
            (Kind::Object(p), Kind::Object(q)) => {
                let additional = match (&p.additional, &q.additional) {
                    (Additional::Schema(i), Additional::Schema(j)) => same(*i, *j),
                    (i, j) => i == j && !matches!(i, Additional::Schema(_)),
                };
                additional
                    && p.aliases == q.aliases
                    && p.properties.len() == q.properties.len()
                    && p.properties.iter().zip(&q.properties).all(|(i, j)| {
                        i.name == j.name
                            && i.required == j.required
                            && i.no_invent == j.no_invent
                            && same(i.schema, j.schema)
                    })
                    && p.pattern_properties.len() == q.pattern_properties.len()
                    && p.pattern_properties
                        .iter()
                        .zip(&q.pattern_properties)
                        .all(|((i, s), (j, t))| i == j && same(*s, *t))
            }
            (Kind::Ref(_) | Kind::Union(_) | Kind::Array(_) | Kind::Object(_), _)
            | (_, Kind::Ref(_) | Kind::Union(_) | Kind::Array(_) | Kind::Object(_)) => false,
            (p, q) => p == q,
        }
    }

    /// Whether `null` is accepted at `id` (following refs).
    pub fn is_nullable(&self, id: NodeId) -> bool {
        let mut id = id;
        for _ in 0..self.nodes.len() + 1 {
            let n = self.node(id);
            if n.nullable || n.kind == Kind::Null || n.kind == Kind::Any {
                return true;
            }
            match n.kind {
                Kind::Ref(next) => id = next,
                _ => return false,
            }
        }
        false
    }

    /// The default of `id` or of the node it refers to.
    pub fn default_of(&self, id: NodeId) -> Option<&Value> {
        self.node(id)
            .default
            .as_ref()
            .or_else(|| self.node(self.resolve(id)).default.as_ref())
    }

    /// The `$defs` name or title of `id` or of the node it refers to.
    pub fn name_of(&self, id: NodeId) -> Option<&str> {
        self.node(id)
            .name
            .as_deref()
            .or_else(|| self.node(self.resolve(id)).name.as_deref())
    }

    /// A short description of what `id` accepts, for error messages: "a string",
    /// "an object with fields `title`, `message`", "one of \"pass\", \"fail\"".
    pub fn describe(&self, id: NodeId) -> String {
        self.describe_depth(id, 0)
    }

    fn describe_depth(&self, id: NodeId, depth: usize) -> String {
        let id = self.resolve(id);
        let node = self.node(id);
        let base = match &node.kind {
            Kind::Any => "any JSON value".to_owned(),
            Kind::Never => "nothing (the schema is `false`)".to_owned(),
            Kind::Null => "null".to_owned(),
            Kind::Boolean => "a boolean".to_owned(),
            Kind::Integer { .. } => "an integer".to_owned(),
            Kind::Number => "a number".to_owned(),
            Kind::String => "a string".to_owned(),
            Kind::Enum(e) => {
                let shown: Vec<String> = e.values.iter().take(8).map(Value::to_string).collect();
                let more = if e.values.len() > 8 { ", …" } else { "" };
                if e.values.len() == 1 {
                    format!("the value {}", shown[0])
                } else {
                    format!("one of {}{more}", shown.join(", "))
                }
            }
            Kind::Array(a) => match (a.items, depth) {
                (Some(items), 0..=1) => {
                    format!("an array of {}", self.describe_depth(items, depth + 1))
                }
                _ => "an array".to_owned(),
            },
            Kind::Object(o) => {
                let required: Vec<String> = o
                    .properties
                    .iter()
                    .filter(|p| p.required)
                    .take(8)
                    .map(|p| format!("`{}`", p.name))
                    .collect();
                if required.is_empty() {
                    "an object".to_owned()
                } else {
                    format!("an object with fields {}", required.join(", "))
                }
            }
            Kind::Union(branches) if depth < 2 => {
                let parts: Vec<String> = branches
                    .iter()
                    .take(4)
                    .map(|b| self.describe_depth(*b, depth + 1))
                    .collect();
                parts.join(" or ")
            }
            Kind::Union(_) => "one of several shapes".to_owned(),
            Kind::Ref(_) => "any JSON value".to_owned(),
        };
        if node.nullable && node.kind != Kind::Null {
            format!("{base} or null")
        } else {
            base
        }
    }
}

impl Node {
    fn of(kind: Kind) -> Node {
        Node {
            kind,
            nullable: false,
            default: None,
            name: None,
            checks: Vec::new(),
        }
    }
}

struct Compiler<'a> {
    doc: &'a Value,
    nodes: Vec<Node>,
    /// `$ref` strings already compiled, and their node.
    refs: HashMap<String, NodeId>,
    /// The schema's regular expressions, compiled once by `valid::check`, by source.
    patterns: HashMap<String, Pattern>,
    /// A check other than a fixed-size integer's own range was compiled.
    beyond_types: bool,
    /// Properties and checks copied by `allOf` merges so far (see [`MERGED`]).
    merged: usize,
}

/// The most properties and checks `allOf` merges may copy in one schema, with the checks of
/// a union copied to each of its branches (their names and patterns shared, not copied).
/// Each merge copies its parts, so a schema can ask for far more than it writes: `allOf` of
/// the same definition twice, twenty definitions deep, is a million properties from 1 KB; a
/// union of a thousand branches beside a `dependentRequired` of a thousand keys, a million
/// checks. A property counts one more for each 64 bytes of its name, so the names copied
/// hold at most 16 MiB however long they are. Beyond this the schema is refused.
pub(crate) const MERGED: usize = 1 << 18;

impl<'a> Compiler<'a> {
    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        NodeId(self.nodes.len() - 1)
    }

    fn node(
        &mut self,
        schema: &'a Value,
        name: Option<&str>,
        depth: usize,
    ) -> Result<NodeId, Error> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(invalid(
                "a schema nested at most 100 deep",
                "deeper nesting",
            ));
        }
        let obj = match schema {
            Value::Bool(true) => return Ok(self.push(Node::of(Kind::Any))),
            Value::Bool(false) => return Ok(self.push(Node::of(Kind::Never))),
            Value::Object(obj) => obj,
            other => {
                return Err(invalid(
                    "a schema (an object or a boolean)",
                    crate::excerpt(&other.to_string(), 40),
                ))
            }
        };
        let name = name
            .map(str::to_owned)
            .or_else(|| obj.get("title").and_then(Value::as_str).map(str::to_owned));
        let default = obj.get("default").cloned();
        let checks = self.checks(obj, depth)?;

        if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
            let target = self.reference(reference, depth)?;
            let id = self.push(Node {
                kind: Kind::Ref(target),
                nullable: false,
                default,
                name,
                checks,
            });
            return Ok(id);
        }

        let mut node = self.own_kind(obj, depth)?;
        node.default = default;
        node.name = name;
        node.checks = checks;
        if let (Kind::Any, Some(required)) = (&node.kind, obj.get("required")) {
            let names = names(Some(required));
            if !names.is_empty() {
                node.checks.push(Check::Required(names.into()));
            }
        }

        // anyOf / oneOf: a union, with null branches folded into `nullable`.
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = obj.get(key).and_then(Value::as_array) {
                let mut ids = Vec::new();
                let mut nullable = false;
                for b in branches {
                    if is_null_schema(b) {
                        nullable = true;
                    } else {
                        ids.push(self.node(b, None, depth + 1)?);
                    }
                }
                let union = self.union_of(ids);
                node = self.conjoin(node, union)?;
                node.nullable |= nullable;
            }
        }
        if let Some(parts) = obj.get("allOf").and_then(Value::as_array) {
            for p in parts {
                let id = self.node(p, None, depth + 1)?;
                let part = self.nodes[id.0].clone();
                node = self.conjoin(node, part)?;
            }
        }
        if ["anyOf", "oneOf", "allOf"]
            .iter()
            .any(|k| obj.contains_key(*k))
        {
            node = self.deduped(node)?;
        }
        // A union's checks go to each branch (a node of its own that refers to the branch),
        // so that weighing a branch weighs them.
        if let (Kind::Union(branches), false) = (&node.kind, node.checks.is_empty()) {
            let branches = branches.clone();
            let checks = std::mem::take(&mut node.checks);
            // (Copied once a branch: counted with what merges copy.)
            self.copied(checks.len().saturating_mul(branches.len()))?;
            let wrapped = branches
                .into_iter()
                .map(|b| {
                    let mut n = Node::of(Kind::Ref(b));
                    n.checks = checks.clone();
                    self.push(n)
                })
                .collect();
            node.kind = Kind::Union(wrapped);
        }
        Ok(self.push(node))
    }

    /// The checks stated by one schema object's own keywords.
    fn checks(&mut self, obj: &'a Map<String, Value>, depth: usize) -> Result<Vec<Check>, Error> {
        let mut checks = Vec::new();
        let count = |key: &str| {
            obj.get(key).and_then(|v| {
                v.as_u64().or_else(|| {
                    // (`5.0`: `validate` accepts integral floats.)
                    v.as_f64()
                        .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                        .map(|f| f.min(u64::MAX as f64) as u64)
                })
            })
        };
        let number = |key: &str| match obj.get(key) {
            Some(Value::Number(n)) => Some(n.clone()),
            _ => None,
        };
        let flag = |key: &str| obj.get(key) == Some(&Value::Bool(true));
        if let Some(n) = count("minLength") {
            checks.push(Check::MinLength(n));
        }
        if let Some(n) = count("maxLength") {
            checks.push(Check::MaxLength(n));
        }
        if let Some(source) = obj.get("pattern").and_then(Value::as_str) {
            checks.push(Check::Pattern(self.pattern(source)?));
        }
        if let Some(f) = obj
            .get("format")
            .and_then(Value::as_str)
            .and_then(Format::from_name)
        {
            checks.push(Check::Format(f));
        }
        // Draft 4 writes exclusive bounds as a flag on `minimum` / `maximum`.
        if let Some(n) = number("minimum") {
            checks.push(if flag("exclusiveMinimum") {
                Check::ExclusiveMinimum(n)
            } else {
                Check::Minimum(n)
            });
        }
        if let Some(n) = number("maximum") {
            checks.push(if flag("exclusiveMaximum") {
                Check::ExclusiveMaximum(n)
            } else {
                Check::Maximum(n)
            });
        }
        if let Some(n) = number("exclusiveMinimum") {
            checks.push(Check::ExclusiveMinimum(n));
        }
        if let Some(n) = number("exclusiveMaximum") {
            checks.push(Check::ExclusiveMaximum(n));
        }
        if let Some(n) = number("multipleOf").filter(|n| n.as_f64().is_some_and(|f| f > 0.0)) {
            checks.push(Check::MultipleOf(n));
        }
        if let Some(n) = count("minItems") {
            checks.push(Check::MinItems(n));
        }
        if let Some(n) = count("maxItems") {
            checks.push(Check::MaxItems(n));
        }
        if flag("uniqueItems") {
            checks.push(Check::UniqueItems);
        }
        if let Some(n) = count("minProperties") {
            checks.push(Check::MinProperties(n));
        }
        if let Some(n) = count("maxProperties") {
            checks.push(Check::MaxProperties(n));
        }
        for key in ["dependentRequired", "dependencies"] {
            let Some(map) = obj.get(key).and_then(Value::as_object) else {
                continue;
            };
            for (name, needs) in map {
                // (`dependencies` may hold a schema instead: `dependentSchemas`, not a list.)
                if needs.is_array() {
                    let needs = names(Some(needs)).into();
                    checks.push(Check::DependentRequired(name.clone(), needs));
                }
            }
        }
        if let Some(not) = obj.get("not") {
            checks.push(Check::Not(self.node(not, None, depth + 1)?));
        }
        let range = obj
            .get("format")
            .and_then(Value::as_str)
            .and_then(integer_range);
        self.beyond_types |= checks.iter().any(|c| match (c, range) {
            (Check::Minimum(n), Some((min, _))) => n.as_i128() != Some(min),
            (Check::Maximum(n), Some((_, max))) => n.as_i128() != Some(max),
            _ => true,
        });
        Ok(checks)
    }

    /// The compiled `source` (compiled by `valid::check` already; compiled here otherwise).
    fn pattern(&mut self, source: &str) -> Result<Pattern, Error> {
        if let Some(p) = self.patterns.get(source) {
            return Ok(p.clone());
        }
        let p = Pattern::new(source).map_err(|why| {
            invalid(
                super::valid::PATTERN_EXPECTED,
                format!(
                    "{} ({why})",
                    super::valid::json_excerpt(&Value::from(source))
                ),
            )
        })?;
        self.patterns.insert(source.to_owned(), p.clone());
        Ok(p)
    }

    /// The node described by `type`, `enum`, `const`, `properties`, `items`, ... of one schema
    /// object, ignoring its combinators.
    fn own_kind(&mut self, obj: &'a Map<String, Value>, depth: usize) -> Result<Node, Error> {
        if let Some(c) = obj.get("const") {
            return Ok(Node::of(Kind::Enum(Enum {
                values: vec![c.clone()],
                aliases: aliases_of_values(obj),
            })));
        }
        if let Some(values) = obj.get("enum").and_then(Value::as_array) {
            let mut node = Node::of(Kind::Enum(Enum {
                values: values.iter().filter(|v| !v.is_null()).cloned().collect(),
                aliases: aliases_of_values(obj),
            }));
            node.nullable = values.iter().any(Value::is_null);
            return Ok(node);
        }
        let types: Vec<&str> = match obj.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let nullable = types.contains(&"null");
        let mut kinds = Vec::new();
        for t in types.iter().filter(|t| **t != "null") {
            kinds.push(self.kind_of_type(t, obj, depth)?);
        }
        if types.is_empty() {
            // No `type`: infer from structural keywords, else anything.
            if obj.contains_key("properties")
                || obj.contains_key("additionalProperties")
                || obj.contains_key("patternProperties")
            {
                kinds.push(self.kind_of_type("object", obj, depth)?);
            } else if obj.contains_key("items") || obj.contains_key("prefixItems") {
                kinds.push(self.kind_of_type("array", obj, depth)?);
            }
        }
        let mut node = match kinds.len() {
            0 if nullable => Node::of(Kind::Null),
            0 => Node::of(Kind::Any),
            1 => Node::of(kinds.remove(0)),
            _ => {
                let ids = kinds.into_iter().map(|k| self.push(Node::of(k))).collect();
                Node::of(Kind::Union(ids))
            }
        };
        node.nullable = nullable && node.kind != Kind::Null;
        Ok(node)
    }

    fn kind_of_type(
        &mut self,
        t: &str,
        obj: &'a Map<String, Value>,
        depth: usize,
    ) -> Result<Kind, Error> {
        Ok(match t {
            "boolean" => Kind::Boolean,
            "integer" => Kind::Integer {
                minimum: obj.get("minimum").and_then(Value::as_f64),
                maximum: obj.get("maximum").and_then(Value::as_f64),
            },
            "number" => Kind::Number,
            "string" => Kind::String,
            "array" => {
                let mut array = Array {
                    min_items: obj.get("minItems").and_then(Value::as_u64),
                    max_items: obj.get("maxItems").and_then(Value::as_u64),
                    ..Array::default()
                };
                if let Some(prefix) = obj.get("prefixItems").and_then(Value::as_array) {
                    for p in prefix {
                        array.prefix.push(self.node(p, None, depth + 1)?);
                    }
                }
                match obj.get("items") {
                    // Draft 7 tuples: `items` as an array.
                    Some(Value::Array(prefix)) if array.prefix.is_empty() => {
                        for p in prefix {
                            array.prefix.push(self.node(p, None, depth + 1)?);
                        }
                    }
                    Some(items @ (Value::Object(_) | Value::Bool(_))) => {
                        array.items = Some(self.node(items, None, depth + 1)?);
                    }
                    _ => {}
                }
                Kind::Array(array)
            }
            "object" => Kind::Object(self.object(obj, depth)?),
            "null" => Kind::Null,
            other => return Err(invalid("a JSON schema type name", format!("\"{other}\""))),
        })
    }

    fn object(&mut self, obj: &'a Map<String, Value>, depth: usize) -> Result<Object, Error> {
        // (Sets: a schema may list many names, each looked up once a property.)
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let listed: HashSet<&str> = required.iter().copied().collect();
        let no_invent: HashSet<&str> = obj
            .get("x-no-invent")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut object = Object::default();
        // Each property's index by its name (the first of a name).
        let mut index: HashMap<&str, usize> = HashMap::new();
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            for (name, schema) in props {
                let id = self.node(schema, None, depth + 1)?;
                index.entry(name).or_insert(object.properties.len());
                object.properties.push(Property {
                    name: name.clone(),
                    schema: id,
                    required: listed.contains(name.as_str()),
                    no_invent: no_invent.contains(name.as_str()),
                });
            }
        }
        // Required names with no schema of their own accept anything.
        for r in &required {
            if let Entry::Vacant(e) = index.entry(r) {
                e.insert(object.properties.len());
                let id = self.push(Node::of(Kind::Any));
                object.properties.push(Property {
                    name: (*r).to_owned(),
                    schema: id,
                    required: true,
                    no_invent: no_invent.contains(r),
                });
            }
        }
        if let Some(patterns) = obj.get("patternProperties").and_then(Value::as_object) {
            self.beyond_types |= !patterns.is_empty();
            for (source, schema) in patterns {
                let pattern = self.pattern(source)?;
                let id = self.node(schema, None, depth + 1)?;
                object.pattern_properties.push((pattern, id));
            }
        }
        object.additional = match obj.get("additionalProperties") {
            None if object.properties.is_empty() => Additional::Allow,
            None => Additional::Unspecified,
            Some(Value::Bool(true)) => Additional::Allow,
            Some(Value::Bool(false)) => Additional::Deny,
            Some(s) => Additional::Schema(self.node(s, None, depth + 1)?),
        };
        if let Some(aliases) = obj.get("x-aliases").and_then(Value::as_object) {
            for (alias, target) in aliases {
                let Some(target) = target.as_str() else {
                    continue;
                };
                if let Some(&i) = index.get(target) {
                    object.aliases.push((alias.clone(), i));
                }
            }
        }
        Ok(object)
    }

    fn reference(&mut self, reference: &str, depth: usize) -> Result<NodeId, Error> {
        if let Some(id) = self.refs.get(reference) {
            return Ok(*id);
        }
        let target = super::valid::resolve(self.doc, reference).ok_or_else(|| {
            invalid(
                "a $ref that resolves inside the schema",
                format!("\"{reference}\""),
            )
        })?;
        let pointer = reference.strip_prefix('#').unwrap_or_default();
        // Reserve the node first so recursive references resolve to it.
        let placeholder = self.push(Node::of(Kind::Any));
        self.refs.insert(reference.to_owned(), placeholder);
        let name = pointer.rsplit('/').next().filter(|n| !n.is_empty());
        let compiled = self.node(target, name, depth + 1)?;
        self.nodes[placeholder.0] = Node {
            kind: Kind::Ref(compiled),
            nullable: false,
            default: None,
            name: name.map(str::to_owned),
            checks: Vec::new(),
        };
        Ok(placeholder)
    }

    /// A union of the given nodes; unions of enums are merged into one enum.
    fn union_of(&mut self, ids: Vec<NodeId>) -> Node {
        let all_enums = !ids.is_empty()
            && ids.iter().all(|id| {
                let n = &self.nodes[id.0];
                matches!(n.kind, Kind::Enum(_)) && !n.nullable
            });
        if all_enums {
            let mut merged = Enum::default();
            for id in &ids {
                if let Kind::Enum(e) = &self.nodes[id.0].kind {
                    merged.values.extend(e.values.iter().cloned());
                    merged.aliases.extend(e.aliases.iter().cloned());
                }
            }
            return Node::of(Kind::Enum(merged));
        }
        match ids.len() {
            0 => Node::of(Kind::Null),
            1 => Node::of(Kind::Ref(ids[0])),
            _ => Node::of(Kind::Union(ids)),
        }
    }

    /// Both `a` and `b` (an `allOf`, or own keywords beside a combinator): object schemas are
    /// merged, a property both declare taking both schemas (required where either requires
    /// it); otherwise the more specific side wins. Refuses a schema whose merges copy more
    /// than [`MERGED`] properties and checks.
    fn conjoin(&mut self, a: Node, b: Node) -> Result<Node, Error> {
        let mut copies = b.checks.len();
        if let Kind::Object(y) = &b.kind {
            // A property's name is copied with it: each counts one per 64 bytes too, so
            // long names copied many times meet the bound as many properties would.
            let names: usize = y.properties.iter().map(|p| p.name.len() / 64).sum();
            copies = copies
                .saturating_add(y.properties.len())
                .saturating_add(names);
        }
        self.copied(copies)?;
        let nullable = b.nullable && (a.nullable || a.kind == Kind::Any);
        let mut checks = a.checks;
        checks.extend(b.checks);
        let mut merged = match (a.kind, b.kind) {
            (Kind::Any, kind) | (kind, Kind::Any) => Node::of(kind),
            (Kind::Object(x), Kind::Object(y)) => Node::of(Kind::Object(Self::merge(x, y))),
            (Kind::Object(x), Kind::Ref(r)) | (Kind::Ref(r), Kind::Object(x)) => {
                let target = self.nodes[r.0].clone();
                let mut node = Node::of(Kind::Object(x));
                node.checks = checks;
                return self.conjoin(node, target);
            }
            (_, kind) => Node::of(kind),
        };
        merged.checks = checks;
        merged.nullable = nullable;
        merged.default = a.default.or(b.default);
        merged.name = a.name.or(b.name);
        Ok(merged)
    }

    /// Counts `n` more properties and checks copied (see [`MERGED`]).
    fn copied(&mut self, n: usize) -> Result<(), Error> {
        self.merged = self.merged.saturating_add(n);
        if self.merged > MERGED {
            return Err(invalid(
                &format!(
                    "allOf merges and union checks that copy at most {MERGED} properties and checks"
                ),
                "more",
            ));
        }
        Ok(())
    }

    /// The object schemas `x` and `y` merged (see [`conjoin`](Self::conjoin)): `x`'s
    /// properties, then `y`'s. A name both declare is made one property by
    /// [`deduped`](Self::deduped) once a schema's merges are done: one pass for all of them,
    /// not one over the properties so far for each part.
    fn merge(mut x: Object, y: Object) -> Object {
        let offset = x.properties.len();
        x.properties.extend(y.properties);
        x.aliases
            .extend(y.aliases.into_iter().map(|(a, i)| (a, i + offset)));
        x.pattern_properties.extend(y.pattern_properties);
        if x.additional == Additional::Unspecified || x.additional == Additional::Allow {
            x.additional = match y.additional {
                Additional::Allow if !x.properties.is_empty() => Additional::Unspecified,
                other => other,
            };
        }
        x
    }

    /// `node` with each name its merged parts declare more than once made one property, at
    /// the first's place: its schemas conjoined in order, required (or never to be filled
    /// in) where any of them says so.
    fn deduped(&mut self, mut node: Node) -> Result<Node, Error> {
        let Kind::Object(o) = &mut node.kind else {
            return Ok(node);
        };
        let properties = std::mem::take(&mut o.properties);
        let mut at: HashMap<String, usize> = HashMap::with_capacity(properties.len());
        // Where each property went, for the aliases.
        let mut moved = Vec::with_capacity(properties.len());
        let mut out: Vec<Property> = Vec::with_capacity(properties.len());
        for p in properties {
            let Some(&i) = at.get(&p.name) else {
                moved.push(out.len());
                at.insert(p.name.clone(), out.len());
                out.push(p);
                continue;
            };
            moved.push(i);
            let q = &mut out[i];
            q.required |= p.required;
            q.no_invent |= p.no_invent;
            if q.schema != p.schema {
                let both = self.conjoin(
                    self.nodes[q.schema.0].clone(),
                    self.nodes[p.schema.0].clone(),
                )?;
                let both = self.deduped(both)?;
                q.schema = self.push(both);
            }
        }
        o.properties = out;
        for (_, i) in &mut o.aliases {
            *i = moved[*i];
        }
        Ok(node)
    }
}

/// The range of the fixed-size integer a `format` names, as schemars writes them: what
/// deserializing into that integer enforces.
fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        "int128" => (i128::MIN, i128::MAX),
        "uint128" => (0, i128::MAX),
        _ => return None,
    })
}

/// The strings of a JSON array (property names).
fn names(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn aliases_of_values(obj: &Map<String, Value>) -> Vec<(String, Value)> {
    obj.get("x-aliases")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        && v.as_object().is_some_and(|o| o.len() <= 2)
}

fn invalid(expected: &str, found: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidSchema, "", expected, found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root_kind(s: &Schema) -> &Kind {
        &s.node(s.resolve(s.root())).kind
    }

    /// The schemas of property `key` in the root union's first two branches.
    fn two_properties(s: &Schema, key: &str) -> (NodeId, NodeId) {
        let Kind::Union(branches) = root_kind(s) else {
            panic!("a union")
        };
        let at = |b: NodeId| match &s.node(s.resolve(b)).kind {
            Kind::Object(o) => o.properties.iter().find(|p| p.name == key).unwrap().schema,
            _ => panic!("an object"),
        };
        (at(branches[0]), at(branches[1]))
    }

    #[test]
    fn the_same_schema_written_twice_is_the_same() {
        let page = |records: Value| json!({"type": "object", "properties": {"records": records}, "required": ["records"]});
        let records = json!({"type": "array", "items": {"$ref": "#/$defs/Node"}, "maxItems": 9});
        let node = json!({"type": "object", "properties": {
            "name": {"type": "string", "pattern": "^n"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
        }, "required": ["name"]});
        let schema = |second: Value| {
            json!({"$defs": {"Node": node, "Other": node},
                   "anyOf": [page(records.clone()), page(second)]})
        };
        let s = Schema::compile(&schema(records.clone())).unwrap();
        let (a, b) = two_properties(&s, "records");
        assert_ne!(a, b);
        assert!(s.same(a, b));
        assert!(s.same(a, a));
        // A definition written twice under two names is not the same: recovery takes a
        // wrapper named after it (`{"Node": {...}}`) off the one, not the other.
        let mut twice = records.clone();
        twice["items"] = json!({"$ref": "#/$defs/Other"});
        let s = Schema::compile(&schema(twice)).unwrap();
        let (a, b) = two_properties(&s, "records");
        assert!(!s.same(a, b));
        // A recursive schema written twice (arrays of arrays, each referring to itself): the
        // same, each pair taken as the same while it is compared.
        let nested = |at: usize| json!({"type": "array", "items": {"$ref": format!("#/anyOf/{at}/properties/records")}});
        let s = Schema::compile(&json!({"anyOf": [page(nested(0)), page(nested(1))]})).unwrap();
        let (a, b) = two_properties(&s, "records");
        assert_ne!(s.resolve(a), s.resolve(b));
        assert!(s.same(a, b));
        // Any difference, however deep: a bound, a union around the items, a reference
        // where the schema is written out, an item's property's pattern.
        let mut bound = records.clone();
        bound["maxItems"] = json!(8);
        let mut nullable = records.clone();
        nullable["items"] = json!({"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]});
        let mut pattern = node.clone();
        pattern["properties"]["name"]["pattern"] = json!("^m");
        let mut written = records.clone();
        written["items"] = node.clone();
        for second in [bound, nullable, written] {
            let s = Schema::compile(&schema(second.clone())).unwrap();
            let (a, b) = two_properties(&s, "records");
            assert!(!s.same(a, b), "{second}");
        }
        // Written out in both (no name), with or without an item's property's pattern.
        let inline = |node: &Value| json!({"type": "array", "items": node});
        let s = Schema::compile(&json!({"$defs": {"Node": node},
            "anyOf": [page(inline(&node)), page(inline(&node))]}))
        .unwrap();
        let (a, b) = two_properties(&s, "records");
        assert!(s.same(a, b));
        let s = Schema::compile(&json!({"$defs": {"Node": node},
            "anyOf": [page(inline(&node)), page(inline(&pattern))]}))
        .unwrap();
        let (a, b) = two_properties(&s, "records");
        assert!(!s.same(a, b));
        // More pairs than `SAME_PAIRS` to compare: not told the same.
        let wide: Map<String, Value> = (0..SAME_PAIRS)
            .map(|i| (format!("p{i}"), json!({"type": "integer"})))
            .collect();
        let wide = json!({"type": "object", "properties": wide});
        let s = Schema::compile(&json!({"anyOf": [page(wide.clone()), page(wide)]})).unwrap();
        let (a, b) = two_properties(&s, "records");
        assert!(!s.same(a, b));
    }

    #[test]
    fn option_of_struct_is_nullable_ref() {
        let s = Schema::compile(&json!({
            "anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}],
            "$defs": {"Inner": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}
        }))
        .unwrap();
        assert!(s.is_nullable(s.root()));
        let Kind::Object(o) = root_kind(&s) else {
            panic!("{:?}", root_kind(&s))
        };
        assert_eq!(o.properties[0].name, "a");
        assert_eq!(s.name_of(s.root()), Some("Inner"));
    }

    #[test]
    fn type_array_with_null() {
        let s = Schema::compile(&json!({"type": ["string", "null"]})).unwrap();
        assert_eq!(s.node(s.root()).kind, Kind::String);
        assert!(s.node(s.root()).nullable);
    }

    #[test]
    fn one_of_consts_is_one_enum() {
        let s = Schema::compile(&json!({
            "oneOf": [
                {"type": "string", "const": "pass", "description": "ok"},
                {"type": "string", "const": "fail"}
            ],
            "x-aliases": {"passed": "pass"}
        }))
        .unwrap();
        let Kind::Enum(e) = root_kind(&s) else {
            panic!()
        };
        assert_eq!(e.values, vec![json!("pass"), json!("fail")]);
        assert_eq!(s.describe(s.root()), "one of \"pass\", \"fail\"");
    }

    #[test]
    fn recursive_ref() {
        let s = Schema::compile(&json!({
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
            "required": ["children"]
        }))
        .unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        let Kind::Array(a) = &s.node(o.properties[0].schema).kind else {
            panic!()
        };
        let item = s.resolve(a.items.unwrap());
        assert!(matches!(s.node(item).kind, Kind::Object(_)));
    }

    #[test]
    fn aliases_and_no_invent() {
        let s = Schema::compile(&json!({
            "type": "object",
            "properties": {"userId": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["userId"],
            "x-aliases": {"uid": "userId"},
            "x-no-invent": ["userId"]
        }))
        .unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        assert_eq!(o.aliases, vec![("uid".to_owned(), 0)]);
        assert!(o.properties[0].no_invent && !o.properties[1].no_invent);
        assert_eq!(o.additional, Additional::Unspecified);
        assert_eq!(s.describe(s.root()), "an object with fields `userId`");
    }

    #[test]
    fn all_of_objects_merge() {
        let s = Schema::compile(&json!({
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "string"}}}
            ]
        }))
        .unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        let names: Vec<&str> = o.properties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
    }

    /// A property both parts of an `allOf` declare takes both schemas, once: the second
    /// part's bound is checked, a key in another case names one property, and `allOf` of
    /// the same definition twice, forty deep, stays two properties (each merge copied its
    /// parts: 2^40 before).
    #[test]
    fn all_of_parts_that_declare_one_property_merge_it() {
        let s = Schema::compile(&json!({
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "x-aliases": {"A1": "a"}},
                {"type": "object", "properties": {"a": {"minimum": 5}, "b": {}}, "required": ["a"], "x-aliases": {"B1": "b"}}
            ]
        }))
        .unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        let props: Vec<(&str, bool)> = o
            .properties
            .iter()
            .map(|p| (p.name.as_str(), p.required))
            .collect();
        assert_eq!(props, [("a", true), ("b", false)]);
        assert_eq!(o.aliases, [("A1".to_owned(), 0), ("B1".to_owned(), 1)]);
        let a = o.properties[0].schema;
        assert!(matches!(s.node(s.resolve(a)).kind, Kind::Integer { .. }));
        assert_eq!(
            s.checks(a).collect::<Vec<_>>(),
            [&Check::Minimum(serde_json::Number::from(5))]
        );

        let mut defs = serde_json::Map::new();
        defs.insert(
            "U0".into(),
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {}}}),
        );
        for i in 1..=40 {
            let r = format!("#/$defs/U{}", i - 1);
            defs.insert(
                format!("U{i}"),
                json!({"type": "object", "allOf": [{"$ref": r}, {"$ref": r}]}),
            );
        }
        let s = Schema::compile(&json!({"$ref": "#/$defs/U40", "$defs": defs})).unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        assert_eq!(o.properties.len(), 2);

        // Many parts are made one object in one pass once merged, not a pass over the
        // properties so far for each part: 20 000 parts, the first name declared again last.
        let mut parts: Vec<Value> = (0..20_000)
            .map(
                |i| json!({"type": "object", "properties": {format!("p{i}"): {"type": "integer"}}}),
            )
            .collect();
        parts.push(
            json!({"type": "object", "properties": {"p0": {"maximum": 9}}, "required": ["p0"]}),
        );
        let s = Schema::compile(&json!({"type": "object", "allOf": parts})).unwrap();
        let Kind::Object(o) = root_kind(&s) else {
            panic!()
        };
        assert_eq!(o.properties.len(), 20_000);
        assert_eq!(
            (o.properties[0].name.as_str(), o.properties[0].required),
            ("p0", true)
        );
        assert_eq!(o.properties[19_999].name, "p19999");
        assert_eq!(s.checks(o.properties[0].schema).count(), 1);
    }

    /// Merges that would copy more than `MERGED` properties refuse the schema: one
    /// definition of 500 properties merged into 600 objects.
    #[test]
    fn all_of_merges_are_bounded() {
        let wide: serde_json::Map<String, Value> = (0..500)
            .map(|i| (format!("f{i}"), json!({"type": "integer"})))
            .collect();
        let uses = |n: usize| -> serde_json::Map<String, Value> {
            (0..n)
                .map(|i| {
                    let use_ = json!({"type": "object", "allOf": [{"$ref": "#/$defs/D"}]});
                    (format!("p{i}"), use_)
                })
                .collect()
        };
        let schema = |n| {
            json!({
                "type": "object",
                "properties": uses(n),
                "$defs": {"D": {"type": "object", "properties": wide}}
            })
        };
        assert!(Schema::compile(&schema(500)).is_ok());
        assert_eq!(
            Schema::compile(&schema(600)).unwrap_err().to_string(),
            "expected allOf merges and union checks that copy at most 262144 properties and checks, found more"
        );
    }

    /// A union's checks go to each branch, the names they list shared; each copy counts
    /// toward `MERGED`: 600 branches beside 500 `dependentRequired` keys are refused.
    #[test]
    fn a_union_s_checks_are_shared_by_its_branches_and_bounded() {
        let branches = |n: usize| -> Vec<Value> {
            (0..n)
                .map(|i| json!({"type": "object", "properties": {format!("x{i}"): {}}}))
                .collect()
        };
        let names: Vec<String> = (0..1000).map(|i| format!("r{i}")).collect();
        let s = Schema::compile(&json!({
            "anyOf": branches(1000),
            "dependentRequired": {"zz": names}
        }))
        .unwrap();
        let Kind::Union(wrapped) = root_kind(&s) else {
            panic!()
        };
        let needs = |id: NodeId| match s.node(id).checks.as_slice() {
            [Check::DependentRequired(key, needs)] if key == "zz" => Arc::clone(needs),
            other => panic!("{other:?}"),
        };
        assert_eq!(wrapped.len(), 1000);
        assert_eq!(needs(wrapped[0]).len(), 1000);
        assert!(Arc::ptr_eq(&needs(wrapped[0]), &needs(wrapped[999])));

        let keys: serde_json::Map<String, Value> =
            (0..500).map(|i| (format!("k{i}"), json!(["a"]))).collect();
        let schema = |n| json!({"anyOf": branches(n), "dependentRequired": keys});
        assert!(Schema::compile(&schema(500)).is_ok());
        assert_eq!(
            Schema::compile(&schema(600)).unwrap_err().to_string(),
            "expected allOf merges and union checks that copy at most 262144 properties and \
             checks, found more"
        );
    }

    #[test]
    fn invalid_schemas() {
        assert_eq!(
            Schema::compile(&json!(5)).unwrap_err().to_string(),
            "expected a schema (an object or a boolean), found 5"
        );
        let cases = [
            (json!({"type": 3}), "/type"),
            (json!({"type": "strnig"}), "/type"),
            (json!({"type": []}), "/type"),
            (json!({"properties": "x"}), "/properties"),
            (json!({"properties": {"a": 1}}), "/properties/a"),
            (json!({"enum": []}), "/enum"),
            (json!({"anyOf": []}), "/anyOf"),
            (json!({"required": "a"}), "/required"),
            (json!({"items": [true, 2]}), "/items/1"),
            (json!({"minItems": -1}), "/minItems"),
            (json!({"$ref": 7}), "/$ref"),
            (json!({"$ref": "#/$defs/Missing"}), "/$ref"),
            // A -> B -> A with no input consumed between.
            (
                json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}),
                "/$defs/B/$ref",
            ),
            // A reference that is its own first `anyOf` branch.
            (
                json!({"$defs": {"T": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "integer"}]}}, "$ref": "#/$defs/T"}),
                "/$defs/T/anyOf/0/$ref",
            ),
            (json!({"allOf": [{"$ref": "#"}]}), "/allOf/0/$ref"),
            (json!({"not": {"$ref": "#"}}), "/not/$ref"),
        ];
        for (schema, path) in cases {
            let e = Schema::compile(&schema).unwrap_err();
            assert_eq!(
                (e.kind(), e.path()),
                (ErrorKind::InvalidSchema, path),
                "{schema}"
            );
        }
        assert_eq!(
            Schema::compile(
                &json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}})
            )
            .unwrap_err()
            .to_string(),
            "at /$defs/B/$ref: expected references that reach `properties` or `items` before \
             they loop, found the cycle #/$defs/A -> #/$defs/B -> #/$defs/A"
        );
        // Recursion through `items` or `properties` consumes a level of the value each round.
        for ok in [
            json!({"$defs": {"T": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/T"}}, {"type": "integer"}]}}, "$ref": "#/$defs/T"}),
            json!({"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}),
        ] {
            assert!(Schema::compile(&ok).is_ok(), "{ok}");
        }
        assert_eq!(
            Schema::compile(&json!({"type": "strnig"}))
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidSchema
        );
        let mut deep = json!(true);
        for _ in 0..150 {
            deep = json!({"items": deep});
        }
        assert_eq!(
            Schema::compile(&deep).unwrap_err().kind(),
            ErrorKind::InvalidSchema
        );
    }

    #[test]
    fn percent_encoded_refs() {
        let s = Schema::compile(&json!({
            "$ref": "#/$defs/A%20B",
            "$defs": {"A B": {"type": "string"}}
        }))
        .unwrap();
        assert_eq!(root_kind(&s), &Kind::String);
    }
}
