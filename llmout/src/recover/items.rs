//! Recovery of an array one item at a time: what [`recover`](super::recover) does to each
//! item of an array of items (the top-level one, against a schema whose root is
//! `{"type": "array", "items": …}` or `{}`, or the array of a member of the top-level object,
//! or of an object inside it, against such a property of an object schema), for a caller
//! that reads the items one by one and does not hold the array (see [`crate::large`]). The
//! object around such a member is recovered with an empty array in the member's place
//! ([`around`]), a wrapper object around the top-level array as recovery takes it off
//! ([`unwrap`]), and the items' warnings go where [`recover`](super::recover) would have made
//! them. The members of a top-level object against `{}` or a map schema are recovered the same
//! way, one by one under their keys ([`Items::entries`]).

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::keys::{KeyIndex, KeyMatch};
use super::{check, describe_value, push_index, push_key, Question, Recovered, Walker};
use crate::repair::items::{Members, Place, HOLES};
use crate::schema::{Additional, Array, Check, Kind, NodeId, Object, Schema};
use crate::{Error, Options, Violation};

/// Recovers the items of an array in order, each as [`recover`](super::recover) recovers it
/// inside the whole value: the same value, warnings (paths from the root, `/0/…` or
/// `/key/0/…`), moves and cost.
pub(crate) struct Items<'s> {
    walker: Walker<'s>,
    items: NodeId,
    next: usize,
    /// The length of the array's own pointer (`""` or `/key`) at the start of the walker's.
    base: usize,
    /// The reply depth of an item.
    depth: usize,
    /// The array whose checks of the whole (`minItems`, `maxItems`, `uniqueItems`: see
    /// [`bounded_items`]) are made once its items are read ([`finish`](Self::finish)); `None`
    /// for a map's members and any value's items, of which nothing is asked.
    array: Option<NodeId>,
    /// With `uniqueItems`, a digest of each item recovered so far.
    seen: Option<HashSet<u64>>,
    /// The first item whose digest an earlier one has.
    repeat: Option<Repeat>,
    /// The array is a branch of a union ([`array_branch`]), which takes an array of two
    /// items or more ([`short_for_union`](Self::short_for_union)).
    in_union: bool,
}

/// The schema each item of an array against `id` is recovered against, where recovering
/// such an array is recovering each item where it is: an array whose every item has one
/// schema and of which nothing else is asked (no tuple, no length bounds, no check of the
/// whole array such as `uniqueItems`), or any value (`{}`, which keeps an array as it is, as
/// it keeps each item).
fn items_of(schema: &Schema, id: NodeId) -> Option<NodeId> {
    if schema.checks(id).next().is_some() {
        return None;
    }
    let node = schema.resolve(id);
    match &schema.node(node).kind {
        Kind::Array(
            a @ Array {
                min_items: None,
                max_items: None,
                ..
            },
        ) => every_item(schema, a),
        Kind::Any => Some(node),
        _ => None,
    }
}

/// The schema of every item of the array `a`: its `items`, or any value where it says
/// nothing of them (`{"type": "array"}`, whose items recovery keeps as they are, as it keeps
/// any value); `None` for a tuple.
fn every_item(schema: &Schema, a: &Array) -> Option<NodeId> {
    match a.items {
        _ if !a.prefix.is_empty() => None,
        Some(items) => Some(items),
        None => Some(schema.root_any()),
    }
}

/// The schema of each item of an array against `id`, and whether the array asks for items
/// that are all different: as [`items_of`], and also where the array's only checks are
/// `minItems`, `maxItems` and `uniqueItems`. Recovering such an array is recovering each
/// item where it is, then counting them and comparing them ([`Items::finish`]), as
/// recovering it whole checks the array after its items. The object around a member's array
/// is recovered with an empty array in the items' place, whose count is then not checked
/// (`Walker::at_hole`). Not for a wrapper's array, which recovery takes out of the object.
fn bounded_items(schema: &Schema, id: NodeId) -> Option<(NodeId, bool)> {
    if let Some(items) = items_of(schema, id) {
        return Some((items, false));
    }
    let mut unique = false;
    for check in schema.checks(id) {
        match check {
            Check::MinItems(_) | Check::MaxItems(_) => {}
            Check::UniqueItems => unique = true,
            _ => return None,
        }
    }
    match &schema.node(schema.resolve(id)).kind {
        Kind::Array(a) => every_item(schema, a).map(|items| (items, unique)),
        _ => None,
    }
}

/// The branch of a union at `id` (`anyOf`, `oneOf`, an untagged serde enum such as
/// `OneOrMany<T> { One(T), Many(Vec<T>) }`) that an array of two or more items can only take:
/// the union's only array branch, its items recovered where they are ([`bounded_items`]),
/// beside branches that no such array fits whatever its items (an object with properties,
/// a number, a boolean, `null`: recovery takes a one-element array's item for these, and
/// nothing out of a longer one). Recovering such an array against the union is then
/// recovering it against that branch, item by item. Not where another branch could take it:
/// a string (an array written as text), an enum, any value, another array, a union, a map
/// (an array of `{"key", "value"}` objects); nor where something is asked of the union as a
/// whole.
fn array_branch(schema: &Schema, id: NodeId) -> Option<NodeId> {
    if schema.is_constrained_at(id) {
        return None;
    }
    let Kind::Union(branches) = &schema.node(schema.resolve(id)).kind else {
        return None;
    };
    let mut array = None;
    for &b in branches {
        match &schema.node(schema.resolve(b)).kind {
            Kind::Array(_) if array.is_none() => array = Some(b),
            Kind::Object(o)
                if !(o.properties.is_empty() && matches!(o.additional, Additional::Schema(_))) => {}
            Kind::Integer { .. } | Kind::Number | Kind::Boolean | Kind::Null | Kind::Never => {}
            _ => return None,
        }
    }
    array.filter(|&b| bounded_items(schema, b).is_some())
}

/// An array read item by item: the schema of its items, the array's own (whose checks of
/// the whole are made at the end), whether its items must all be different, and whether it
/// is a union's branch.
#[derive(Clone, Copy)]
struct ArrayOf {
    items: NodeId,
    array: NodeId,
    unique: bool,
    in_union: bool,
}

/// The array at `id` read item by item: [`bounded_items`], or the [`array_branch`] of a
/// union, which needs two items or more (a shorter array may be another branch's: it is
/// evaluated whole, see [`Items::short_for_union`]).
fn array_of(schema: &Schema, id: NodeId) -> Option<ArrayOf> {
    if let Some((items, unique)) = bounded_items(schema, id) {
        return Some(ArrayOf {
            items,
            array: id,
            unique,
            in_union: false,
        });
    }
    let array = array_branch(schema, id)?;
    let (items, unique) = bounded_items(schema, array)?;
    Some(ArrayOf {
        items,
        array,
        unique,
        in_union: true,
    })
}

/// Whether the root of `schema` is any value, of which nothing is asked (`{}`): an object
/// is then kept as it is, as is every member's array and each of its items.
fn any_root(schema: &Schema) -> bool {
    any_at(schema, schema.root())
}

/// Whether `id` is any value, of which nothing is asked (`{}`).
fn any_at(schema: &Schema, id: NodeId) -> bool {
    !schema.is_constrained_at(id) && matches!(schema.node(schema.resolve(id)).kind, Kind::Any)
}

/// Whether a value at `id` is kept as it is, whatever it holds: any value ([`any_at`]), or
/// an object of any members, when it is one ([`open_object`]). Everything in it is any
/// value: reading it item by item follows it as the whole of `{}` is followed
/// ([`Place::Kept`]).
fn kept_at(schema: &Schema, id: NodeId) -> bool {
    any_at(schema, id) || open_object(schema, id)
}

/// Whether the root of `schema` keeps a JSON object as it is, members and all: any value
/// (`{}`, see [`any_root`]), or an object that takes any member as written and asks nothing
/// else ([`open_object`]: `{"type": "object"}`). Against either, the top-level object's
/// members (and their arrays, their objects' members, ...) are read as any value's.
pub(crate) fn kept_root(schema: &Schema) -> bool {
    any_root(schema) || open_object(schema, schema.root())
}

/// Whether `id` is an object of which nothing is asked and that takes any member as written:
/// no properties, aliases or patterns, no check of the whole object, and other members kept
/// (`"additionalProperties"` absent, `true`, or `{}`). Recovering an object against it keeps
/// every member as it is, as recovering it against any value does; an array, a string that
/// holds an object, ... are another matter (not read item by item: see [`Items::new`]).
fn open_object(schema: &Schema, id: NodeId) -> bool {
    let Some(o) = object_at(schema, id) else {
        return false;
    };
    let kept = match o.additional {
        Additional::Allow => true,
        Additional::Schema(values) => any_at(schema, values),
        Additional::Unspecified | Additional::Deny => false,
    };
    kept && o.properties.is_empty() && o.aliases.is_empty() && o.pattern_properties.is_empty()
}

/// Whether the root of `schema` is an array of items (not any value): an object around the
/// array, `{"results": [...]}`, is then recovered by taking the array out of it, when the
/// object has that one member and its key is no field of the items (see
/// `Walker::array_items`). Its items are read as the member's ([`Items::member`]), and the
/// object around them recovered with [`unwrap`].
pub(crate) fn wrapper_root(schema: &Schema) -> bool {
    !any_root(schema) && items_of(schema, schema.root()).is_some()
}

/// The schema of every value where `schema`'s root is a map (`{"type": "object",
/// "additionalProperties": {...}}`, no properties, no patterns, nothing asked of the whole
/// object): recovering such an object is recovering each member's value, in order, under its
/// key (`Walker::members`, which keeps the keys as they are). Its members are then read one
/// by one ([`Items::entries`]).
fn map_root(schema: &Schema) -> Option<NodeId> {
    map_at(schema, schema.root())
}

/// The schema of every value of a map at `id` (see [`map_root`]).
fn map_at(schema: &Schema, id: NodeId) -> Option<NodeId> {
    let o = object_at(schema, id)?;
    match o.additional {
        Additional::Schema(values)
            if o.properties.is_empty()
                && o.aliases.is_empty()
                && o.pattern_properties.is_empty() =>
        {
            Some(values)
        }
        _ => None,
    }
}

/// `id`, when it is an object of which nothing is asked but its properties (no check of the
/// whole object, no `patternProperties`).
fn object_at(schema: &Schema, id: NodeId) -> Option<&Object> {
    if schema.is_constrained_at(id) {
        return None;
    }
    match &schema.node(schema.resolve(id)).kind {
        Kind::Object(o) => Some(o),
        _ => None,
    }
}

/// How many objects deep the array read item by item may be: the top-level object's member
/// (1), its member's member (2), and so on. (A GraphQL reply's nodes are often five:
/// `data`, `viewer`, `organization`, `repositories`, `nodes`.)
pub(crate) const LEVELS: usize = 16;

/// How many levels [`members`] follows whatever its budget: deeper, a level is followed only
/// where all of it fits in the budget (see [`members`]).
const FIRST_LEVELS: usize = 4;

/// The most members [`members`] follows, in all: a schema whose objects refer to each other
/// would make `LEVELS` levels of every property of every object. Each schema node's members
/// are found once for each number of levels left, and count once however many properties
/// lead there.
const MEMBERS_FOLLOWED: usize = 256;

/// The members of a top-level object whose arrays can be recovered item by item
/// ([`Items::member`]): the properties of `schema`'s root object that are arrays of items or
/// maps ([`map_at`], whose members are then the items), or objects with such properties (to
/// [`FIRST_LEVELS`] deep, the first [`MEMBERS_FOLLOWED`] found in the schema's order, and
/// deeper, to [`LEVELS`], while every member of a level fits in that budget); any member
/// when the root is any value (`{}`) or an array of items (a wrapper's); the object's own
/// members when the root is a map ([`map_root`]); none otherwise. The properties are named
/// as recovery matches keys ([`Members::Loose`]): each by its name and its aliases, a key in
/// another case or spelling matching too ([`recovered_path`] is what recovery renames it to).
///
/// The walk goes deepest first, so a schema whose objects lead back to each other would
/// spend the budget on its deepest levels, and follow fewer of the first ones, the more
/// levels it had. So each level past [`FIRST_LEVELS`] is walked again from the top, and
/// kept only where the whole walk fits in the budget.
///
/// Linear in the schema's size for each level: the members below a node are found once for
/// each number of levels left ([`Follow`]), and an object's property names are grouped by
/// hashing, not compared pairwise.
pub(crate) fn members(schema: &Schema) -> Members {
    schema.item_members(|| find_members(schema)).clone()
}

/// [`members`], found.
fn find_members(schema: &Schema) -> Members {
    if kept_root(schema) || wrapper_root(schema) {
        return Members::Any;
    }
    if map_root(schema).is_some() {
        return Members::Entries;
    }
    let walk = |levels| {
        let mut follow = Follow {
            schema,
            budget: MEMBERS_FOLLOWED,
            ran_out: false,
            found: HashMap::new(),
        };
        let members = follow.members_at(schema.root(), levels);
        (members, follow.ran_out)
    };
    let (mut members, mut ran_out) = walk(FIRST_LEVELS);
    for levels in FIRST_LEVELS + 1..=LEVELS {
        if ran_out {
            break;
        }
        let deeper;
        (deeper, ran_out) = walk(levels);
        if !ran_out {
            members = deeper;
        }
    }
    members
}

/// The walk of [`members`]: what it found below each node, shared by every property that
/// leads there ([`Place::Within`]), and what is left of [`MEMBERS_FOLLOWED`].
struct Follow<'s> {
    schema: &'s Schema,
    budget: usize,
    /// A member was left out for want of budget.
    ran_out: bool,
    /// By the node a property's schema resolves to and the levels left: its members, `None`
    /// where none leads to items.
    found: HashMap<(NodeId, usize), Option<Arc<Members>>>,
}

impl Follow<'_> {
    fn members_at(&mut self, id: NodeId, levels: usize) -> Members {
        let schema = self.schema;
        let Some((objects, _)) = objects_at(schema, id) else {
            return Members::None;
        };
        // Each name once, in the order first met, with the schema the objects give it (as
        // `key_schema` folds them; `None` where two branches give it schemas apart).
        let mut names: Vec<&str> = Vec::new();
        let mut given: HashMap<&str, Option<NodeId>> = HashMap::new();
        for p in objects.iter().flat_map(|o| &o.properties) {
            match given.entry(&p.name) {
                Entry::Vacant(e) => {
                    names.push(&p.name);
                    e.insert(Some(p.schema));
                }
                Entry::Occupied(mut e) => {
                    let at = e.get_mut();
                    *at = at.and_then(|at| same_key(schema, at, p.schema));
                }
            }
        }
        let mut named: Vec<(String, Place)> = Vec::new();
        for name in names {
            if self.budget == 0 {
                self.ran_out = true;
                break;
            }
            let Some(at) = given[name] else {
                continue;
            };
            let place = if kept_at(schema, at) {
                Place::Kept
            } else if array_of(schema, at).is_some() {
                Place::Items
            } else if map_at(schema, at).is_some() {
                Place::Entries
            } else if levels > 1 {
                match self.within(at, levels - 1) {
                    Some(inner) => Place::Within(inner),
                    None => continue,
                }
            } else {
                continue;
            };
            self.budget = self.budget.saturating_sub(1);
            named.push((name.to_owned(), place));
        }
        if named.is_empty() {
            return Members::None;
        }
        // An alias leads where its property does (recovery renames the key to the name).
        let mut aliases = Vec::new();
        for o in &objects {
            for (alias, i) in &o.aliases {
                let Some(p) = o.properties.get(*i) else {
                    continue;
                };
                if let Some((_, place)) = named.iter().find(|(name, _)| *name == p.name) {
                    if !named.iter().any(|(name, _)| name == alias) {
                        aliases.push((alias.clone(), place.clone()));
                    }
                }
            }
        }
        named.extend(aliases);
        Members::Loose(named)
    }

    /// The members below a property whose schema is `id`, `levels` deep: found once for the
    /// node `id` resolves to. (Nothing is followed into a node with constraints, which
    /// covers every node a `$ref` chain passes; past that, the members depend on the node
    /// resolved to alone.)
    fn within(&mut self, id: NodeId, levels: usize) -> Option<Arc<Members>> {
        if self.schema.is_constrained_at(id) {
            return None;
        }
        let key = (self.schema.resolve(id), levels);
        if let Some(found) = self.found.get(&key) {
            return found.clone();
        }
        let found = match self.members_at(key.0, levels) {
            Members::None => None,
            inner => Some(Arc::new(inner)),
        };
        self.found.insert(key, found.clone());
        found
    }
}

/// The objects a value at `id` is recovered against as an object, and whether they are a
/// union's branches: `id`'s object ([`object_at`]); or the branches of a union at `id` of
/// which nothing is asked as a whole, when it is a serde enum:
/// - internally tagged, each branch such an object with a constant property (`{"type":
///   "records", "records": [...]}`): recovery takes the branch whose constant the value
///   holds, from the value's other members alone (`Walker::tagged_branch`);
/// - externally tagged (serde's default), each branch such an object with one property, or
///   unit variants' names (`{"Records": {"rows": [...]}}`): recovery takes the branch whose
///   property is the value's only key ([`external_branch`](super::external_branch));
/// - untagged ([`untagged`]), or tagged where the value names no branch as written:
///   recovery takes the only branch that fits the value with an empty array in the items'
///   place, where every other fails without meeting that place; or the cheapest of those
///   that fit, where each meets the items' place once, against the items' schema
///   (`Walker::branch_apart_from_the_items`).
///
/// Where none of these decides, recovery weighs the branches, items included, which reading
/// item by item does not follow (`Hole::weighed`).
fn objects_at(schema: &Schema, id: NodeId) -> Option<(Vec<&Object>, bool)> {
    if let Some(o) = object_at(schema, id) {
        return Some((vec![o], false));
    }
    if schema.is_constrained_at(id) {
        return None;
    }
    let Kind::Union(branches) = &schema.node(schema.resolve(id)).kind else {
        return None;
    };
    let tagged = |o: &Object| {
        o.properties.iter().any(|p| {
            matches!(&schema.node(schema.resolve(p.schema)).kind, Kind::Enum(e) if e.values.len() == 1)
        })
    };
    let internal = branches
        .iter()
        .map(|&b| object_at(schema, b).filter(|o| tagged(o)))
        .collect::<Option<Vec<_>>>();
    if internal.is_some() {
        return internal.map(|objects| (objects, true));
    }
    let mut external = Vec::new();
    for &b in branches {
        match &schema.node(schema.resolve(b)).kind {
            Kind::Enum(e) if e.values.iter().all(Value::is_string) => {}
            _ => match object_at(schema, b).filter(|o| o.properties.len() == 1) {
                Some(o) => external.push(o),
                None => return untagged(schema, branches),
            },
        }
    }
    (!external.is_empty()).then_some((external, true))
}

/// The object branches of an untagged union at `id` (serde's `#[serde(untagged)]`), beside
/// which every branch is a scalar's (a string, a number, a boolean, `null`, an `enum`):
/// recovery takes the branch that fits the value with an empty array in the items' place
/// whatever the items, where one does (`Walker::branch_apart_from_the_items`).
fn untagged<'s>(schema: &'s Schema, branches: &[NodeId]) -> Option<(Vec<&'s Object>, bool)> {
    let mut objects = Vec::new();
    for &b in branches {
        match object_at(schema, b) {
            Some(o) => objects.push(o),
            None if !holds_items(schema, b) => {}
            None => return None,
        }
    }
    (!objects.is_empty()).then_some((objects, true))
}

/// The schema of the property `key` of the objects at `id` ([`objects_at`]), and whether
/// they are a union's branches ([`key_schema`]).
fn property_at(schema: &Schema, id: NodeId, key: &str) -> Option<(NodeId, bool)> {
    let (objects, union) = objects_at(schema, id)?;
    key_schema(schema, &objects, key).map(|at| (at, union))
}

/// The schema `objects` (a union's branches, or one object) give the property `key`, for
/// reading items below it: `None` where none has it.
/// - Where they give it one schema, that one: the same node, or the same schema written in
///   each branch ([`Schema::same`]: two variants that each declare `records: Vec<Record>`).
/// - Where they give it different schemas, the one that can hold items (any but a scalar's,
///   [`holds_items`]) when only one can: the others give the key a scalar (an adjacently
///   tagged enum's content, `{"t": "Page", "c": {"rows": [...]}}` beside
///   `{"t": "Error", "c": "..."}`). Recovery
///   takes the branch from the tag; where the tag names another, the object around the
///   items never reaches them (`Around::mark`), and the reply is evaluated whole.
/// - Where two schemas can hold items, `None`: the items' schema would depend on the
///   branch, which the tag may name after them, and a branch the tag names may walk to the
///   items with a schema of its own.
fn key_schema(schema: &Schema, objects: &[&Object], key: &str) -> Option<NodeId> {
    let mut given = objects
        .iter()
        .flat_map(|o| &o.properties)
        .filter(|p| p.name == key)
        .map(|p| p.schema);
    let first = given.next()?;
    given.try_fold(first, |at, next| same_key(schema, at, next))
}

/// The schema two objects give one key, `at` and `next` in that order, for [`key_schema`]:
/// `None` where both can hold items and are not the same schema.
fn same_key(schema: &Schema, at: NodeId, next: NodeId) -> Option<NodeId> {
    if schema.same(at, next) || !holds_items(schema, next) {
        Some(at)
    } else if !holds_items(schema, at) {
        Some(next)
    } else {
        None
    }
}

/// Whether recovering a value against `id` may walk into it, to the items' member: true for
/// every schema but a scalar's (a string, a number, a boolean, `null`, an `enum`, nothing
/// at all). Deliberately wide: an object with constraints, which [`objects_at`] does not
/// follow, is still walked by recovery, and a branch whose schema for the key is walked
/// must give the items the schema they are read against ([`key_schema`]).
fn holds_items(schema: &Schema, id: NodeId) -> bool {
    !matches!(
        schema.node(schema.resolve(id)).kind,
        Kind::String
            | Kind::Number
            | Kind::Integer { .. }
            | Kind::Boolean
            | Kind::Null
            | Kind::Enum(_)
            | Kind::Never
    )
}

/// The keys recovery gives the members on `path`, the reply's keys from the top-level
/// object down (see [`members`], which follows them as [`Members::Loose`]): each key that
/// is a property's name as written stays; one that is an alias of one property, or its
/// name in another case or spelling, becomes that name (as `Walker::match_keys` renames
/// it); inside a value kept as it is, every key stays. `None` where a key names no
/// property, or more than one, of the objects there (or two branches give it two names).
///
/// What recovery does is checked after it (`large::Tally::around`): it may keep a key as
/// written that matches a pattern, or drop one whose name is given as written too.
pub(crate) fn recovered_path(schema: &Schema, path: &[String]) -> Option<Vec<String>> {
    let mut id = schema.root();
    let mut names = Vec::with_capacity(path.len());
    for key in path {
        if kept_at(schema, id) {
            id = schema.root_any();
            names.push(key.clone());
            continue;
        }
        let (objects, _) = objects_at(schema, id)?;
        let name = property_name(&objects, key)?;
        id = property_at(schema, id, name)?.0;
        names.push(name.to_owned());
    }
    Some(names)
}

/// The property of `objects` (one object, or a union's branches) that `key` names, as
/// recovery matches keys ([`KeyIndex::lookup_once`]): where a branch has it as written,
/// that one.
fn property_name<'o>(objects: &[&'o Object], key: &str) -> Option<&'o str> {
    let written = objects.iter().flat_map(|o| &o.properties);
    if let Some(p) = written.into_iter().find(|p| p.name == key) {
        return Some(&p.name);
    }
    let mut name: Option<&str> = None;
    for o in objects {
        match KeyIndex::lookup_once(o, key) {
            KeyMatch::Exact(i) | KeyMatch::Alias(i) | KeyMatch::Loose(i) => {
                let n = o.properties[i].name.as_str();
                if name.is_some_and(|m| m != n) {
                    return None;
                }
                name = Some(n);
            }
            KeyMatch::Ambiguous(_) => return None,
            KeyMatch::Unknown => {}
        }
    }
    name
}

/// The schema of the array (or map) at `path` in the top-level object (see [`members`]),
/// and how many unions are on the way (each a frame more, as `Walker::union` recovers its
/// branch).
fn array_at(schema: &Schema, path: &[String]) -> Option<(NodeId, usize)> {
    if path.is_empty() {
        return None;
    }
    let mut id = schema.root();
    let mut unions = 0;
    for key in path {
        if kept_at(schema, id) {
            // Every member of a value kept as it is is any value.
            id = schema.root_any();
            continue;
        }
        let (at, union) = property_at(schema, id, key)?;
        unions += usize::from(union);
        id = at;
    }
    Some((id, unions))
}

impl<'s> Items<'s> {
    /// The items of a top-level array: `None` unless `schema`'s root is an array of items,
    /// bounded or not (see [`bounded_items`]), or a union whose only branch an array of two
    /// or more items can take is such an array ([`array_of`]): the items are that branch's,
    /// counted, and an array of fewer items (which a branch that takes a one-element array's
    /// item may win) is evaluated whole ([`short_for_union`](Self::short_for_union)).
    pub(crate) fn new(schema: &'s Schema, options: &Options) -> Option<Self> {
        let a = array_of(schema, schema.root())?;
        // With a union, its frame and the branch's, as `Walker::union` recovers the branch.
        let frames = 1 + usize::from(a.in_union);
        Some(Items::at_root(schema, options, a.items, frames).of(a))
    }

    /// The items of the top-level value, each against `items`, with the `frames` of the
    /// values around them (the top-level value's own, as `Walker::value` counts it at the
    /// root, and a union's branch's).
    fn at_root(schema: &'s Schema, options: &Options, items: NodeId, frames: usize) -> Self {
        let mut walker = Walker::new(schema, options);
        walker.frames = frames;
        Items {
            walker,
            items,
            next: 0,
            base: 0,
            depth: 1,
            array: None,
            seen: None,
            repeat: None,
            in_union: false,
        }
    }

    /// The same items, read again once what their array asks is known to be met: no digest
    /// of each item is kept for [`finish`](Self::finish).
    pub(crate) fn checked(self) -> Self {
        Items { seen: None, ..self }
    }

    /// The same items, as those of the array `a`.
    fn of(self, a: ArrayOf) -> Self {
        Items {
            array: Some(a.array),
            seen: a.unique.then(HashSet::new),
            in_union: a.in_union,
            ..self
        }
    }

    /// Whether the items are a union's branch ([`array_branch`]) and fewer than two have
    /// been read: another branch may take such an array (a one-element array's item), so
    /// an item that cannot be recovered, or a constraint broken, is not the union's error
    /// yet. From two items on, the array is the branch's alone: every other branch fails at
    /// the array itself, and the union's error is the one that got deepest into the value
    /// (`Walker::choose`), the branch's, as reading the items one by one meets it.
    pub(crate) fn short_for_union(&self) -> bool {
        self.in_union && self.next < 2
    }

    /// Counts an item read after one that could not be recovered, without recovering it:
    /// whether the array is short for a union ([`short_for_union`](Self::short_for_union))
    /// depends on all its items.
    pub(crate) fn pass(&mut self) {
        self.next += 1;
    }

    /// The index of the next item.
    pub(crate) fn index(&self) -> usize {
        self.next
    }

    /// The members of the top-level object, as items: `None` unless `schema`'s root is any
    /// value (`{}`) or a map ([`map_root`]). Each is recovered with
    /// [`next_member`](Self::next_member).
    pub(crate) fn entries(schema: &'s Schema, options: &Options) -> Option<Self> {
        let items = if kept_root(schema) {
            // Every member of an object kept as it is is any value.
            schema.root_any()
        } else {
            map_root(schema)?
        };
        Some(Items::at_root(schema, options, items, 1))
    }

    /// The items of the array at `path` in the top-level object (its member `path[0]`, or
    /// that member's member `path[1]`, ...), or with `entries` the members of the map there,
    /// each recovered with [`next_member`](Self::next_member): `None` unless [`members`]
    /// leads there.
    pub(crate) fn member(
        schema: &'s Schema,
        options: &Options,
        path: &[String],
        entries: bool,
    ) -> Option<Self> {
        if path.len() == 1 && wrapper_root(schema) && !entries {
            // The array of a wrapper object, taken out of it: its items are the top-level
            // array's, where recovery puts them.
            return Items::new(schema, options);
        }
        // The keys as recovery renames them: the schema's names, and the items' path.
        let path = recovered_path(schema, path)?;
        let (items, array, unions) = if kept_root(schema) {
            // Every member of an object kept as it is is any value, and so is each item of
            // its array.
            (schema.root_any(), None, 0)
        } else {
            let (at, unions) = array_at(schema, &path)?;
            if entries {
                // A map's values; any value in a value kept as it is (an object of any
                // members is a map of any values).
                let values = if kept_at(schema, at) {
                    schema.root_any()
                } else {
                    map_at(schema, at)?
                };
                (values, None, unions)
            } else {
                let a = array_of(schema, at)?;
                (a.items, Some(a), unions)
            }
        };
        let in_union = array.is_some_and(|a| a.in_union);
        let mut walker = Walker::new(schema, options);
        // The objects' frames and the array's (and a union's, around the array, and each
        // tagged union's on the way).
        let depth = path.len() + 1;
        walker.frames = depth + usize::from(in_union) + unions;
        for key in &path {
            push_key(&mut walker.path, key);
        }
        // The keys on the way are the reply's too: its pointers may hold as much again.
        walker.sees(walker.path.len());
        let items = Items {
            base: walker.path.len(),
            walker,
            items,
            next: 0,
            depth,
            array: None,
            seen: None,
            repeat: None,
            in_union: false,
        };
        Some(match array {
            Some(a) => items.of(a),
            None => items,
        })
    }

    /// Whether an item that cannot be recovered is dropped ([`Options::drop_invalid_items`]):
    /// the items after it move, which recovering them one by one does not follow.
    pub(crate) fn drops_items(&self) -> bool {
        self.walker.drop_items
    }

    /// Ends the items: checks their array as a whole, at its path, after the items' own
    /// violations, as recovering it whole does: their number against `minItems` and
    /// `maxItems`. False where that cannot be told item by item: with `uniqueItems`, two
    /// items with the same digest, which the reply evaluated whole compares.
    pub(crate) fn finish(&mut self) -> bool {
        let duplicate = match &self.repeat {
            None => None,
            Some(Repeat {
                first: Some((first, item)),
                second,
                ..
            }) => Some((*first, *second, item.clone())),
            // (Not told equal to an earlier item: its digest's is another value.)
            Some(_) => return false,
        };
        let Some(array) = self.array else {
            return true;
        };
        let w = &mut self.walker;
        w.path.truncate(self.base);
        for check in w.schema.checks(array) {
            match (check, &duplicate) {
                (Check::UniqueItems, Some((first, second, item))) => {
                    w.not_unique(item.clone(), *first, *second);
                }
                _ => w.count_check(check, self.next as u64),
            }
        }
        true
    }

    /// Whether two items have the same digest and the earlier is yet to be found: the items
    /// are then read again from the start, each passed to [`repeat_of`](Self::repeat_of).
    pub(crate) fn seeks_repeat(&self) -> bool {
        self.repeat.as_ref().is_some_and(|r| r.first.is_none())
    }

    /// The next item of the array read again (`again`, made as these items were, see
    /// [`checked`](Self::checked)): recovered, and, where its digest is the repeated one,
    /// compared with the later item. Whether to read on: until that item is found (equal,
    /// noted for [`finish`](Self::finish); or another value, which `finish` leaves to the
    /// reply evaluated whole).
    pub(crate) fn repeat_of(&mut self, again: &mut Items<'_>, item: Value) -> bool {
        let Some(repeat) = self.repeat.as_mut() else {
            return false;
        };
        let index = again.next;
        if index >= repeat.second {
            return false;
        }
        let Ok(Item { r, .. }) = again.next(item, None) else {
            return false;
        };
        if check::digest(&r.value) != repeat.digest {
            return true;
        }
        if check::canonical_text(&r.value) == repeat.canonical {
            repeat.first = Some((index, describe_value(&r.value)));
        }
        false
    }

    /// The path, as recovery's paths have it, of the item (or member) [`next`](Self::next)
    /// (or [`next_member`](Self::next_member)) last recovered: `/3`, or `/records/3` for a
    /// member's items.
    pub(crate) fn item_path(&self) -> &str {
        &self.walker.path
    }

    /// The constraints the items recovered so far break, in order.
    pub(crate) fn violations(&self) -> &[Violation] {
        &self.walker.violations
    }

    /// Recovers the next item. The constraints it breaks are kept for
    /// [`violations`](Self::violations).
    ///
    /// `cut`: where the reply was cut off in this item (the parser's `Truncated` fix came with
    /// it), the path of the value cut below the item, one segment a level: the item is then
    /// recovered with nothing filled in, as recovering the value whole does, and where it
    /// cannot be, dropped ([`Item::kept`] false), as recovering the value whole drops it.
    pub(crate) fn next(&mut self, item: Value, cut: Option<Vec<String>>) -> Result<Item, Error> {
        self.walker.path.truncate(self.base);
        let index = self.next;
        push_index(&mut self.walker.path, index);
        self.recover(item, cut, Some(index))
    }

    /// Recovers the value of the next member of the object whose members are the items
    /// (the top-level one, [`entries`](Self::entries), or a map's, [`member`](Self::member)),
    /// under `key`.
    pub(crate) fn next_member(
        &mut self,
        key: &str,
        value: Value,
        cut: Option<Vec<String>>,
    ) -> Result<Item, Error> {
        self.walker.path.truncate(self.base);
        push_key(&mut self.walker.path, key);
        self.recover(value, cut, None)
    }

    /// Recovers `item` at the walker's path: an array's item at `index`, or (`None`) a map's
    /// member.
    fn recover(
        &mut self,
        item: Value,
        cut: Option<Vec<String>>,
        index: Option<usize>,
    ) -> Result<Item, Error> {
        let w = &mut self.walker;
        let saved = w.saved();
        self.next += 1;
        w.wrapped = false;
        w.sees(super::text_len(&item));
        let was_cut = cut.is_some();
        let invent = w.invent;
        w.invent = invent && cut.is_none();
        w.cut_from(cut);
        let r = w.value(Cow::Owned(item), self.items, self.depth);
        w.invent = invent;
        let r = match w.ended(r) {
            // The item the reply was cut off in, which cannot be recovered without filling in
            // what the model did not write: dropped, as the array (or map) recovered whole
            // drops it. It is the last item: the reply ends in it.
            Err(e) if was_cut && !e.kind().is_limit() => {
                self.next -= 1;
                match index {
                    Some(i) => w.drop_item(saved, i, e, true),
                    None => w.drop_cut_member(saved, e).map(|()| None),
                }
            }
            r => r.map(Some),
        };
        let cost = u32::try_from(std::mem::take(&mut w.cost)).unwrap_or(u32::MAX);
        let warnings = std::mem::take(&mut w.warnings);
        let moves = std::mem::take(&mut w.moves);
        let as_text = std::mem::take(&mut w.as_text);
        let Some(value) = r? else {
            return Ok(Item {
                r: Recovered {
                    value: Value::Null,
                    warnings,
                    cost,
                    moves,
                    as_text,
                    index: Default::default(),
                },
                kept: false,
            });
        };
        if let Some(seen) = &mut self.seen {
            let digest = check::digest(&value);
            if !seen.insert(digest) && self.repeat.is_none() {
                self.repeat = Some(Repeat {
                    digest,
                    second: self.next - 1,
                    canonical: check::canonical_text(&value),
                    first: None,
                });
            }
        }
        Ok(Item {
            r: Recovered {
                value,
                warnings,
                cost,
                moves,
                as_text,
                index: Default::default(),
            },
            kept: true,
        })
    }
}

/// An item (or map member) recovered by [`Items::next`] (or [`Items::next_member`]).
pub(crate) struct Item {
    /// The item recovered, and what that took; where it was dropped, its value is `null`
    /// and its one warning says it was dropped.
    pub(crate) r: Recovered,
    /// False for the item the reply was cut off in, dropped: it could not be recovered
    /// without filling in what the model did not write.
    pub(crate) kept: bool,
}

/// The first item of an array read item by item (with `uniqueItems`) whose digest an earlier
/// item has: its digest, its index, its recovered value written canonically, and, once the
/// items are read again ([`Items::repeat_of`]), the earlier item it equals, described.
struct Repeat {
    digest: u64,
    second: usize,
    canonical: Vec<u8>,
    first: Option<(usize, String)>,
}

/// A member whose items are recovered one by one: its pointer, the reply depth of the
/// object it is in, its array's schema, where its recovery began once it has, whether a
/// union around it was decided by weighing its branches, items included
/// (`Walker::weighs_the_hole`), and the error of an item that could not be recovered, which
/// its recovery then comes to ([`around`]).
pub(super) struct Hole {
    path: String,
    depth: usize,
    /// The schema its items' array is read against ([`array_at`]), where one is known.
    array: Option<NodeId>,
    at: Option<Mark>,
    weighed: bool,
    fails: Option<Error>,
}

/// A hole's share of `Walker::clean_visits`: a lane of 16 bits each, for as many holes as
/// are read item by item in one object ([`HOLES`]); `0` for any other, whose visits are
/// then never clean.
fn lane(index: usize) -> u64 {
    const { assert!(HOLES * 16 <= 64, "a lane of 16 bits per hole in a u64") };
    if index < HOLES {
        1 << (16 * index)
    } else {
        0
    }
}

/// Where the recovery of the object around the items reached the items' member.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    /// The object's warnings made before it (the items' go after them).
    pub(crate) warnings: usize,
    /// The constraints found broken before it.
    pub(crate) violations: usize,
    /// How many items' members recovery reached before it.
    pub(crate) order: usize,
}

impl Walker<'_> {
    /// A union at the current path weighs its branches (no tag named one): where its value
    /// holds an items' member, the branch it takes may depend on the items, which the object
    /// around them with an empty array in their place does not show ([`Around::followed`]).
    /// (A union that is the member itself is the [`array_branch`] case, decided for arrays
    /// of two items or more.)
    #[inline(never)]
    pub(super) fn weighs_the_hole(&mut self) {
        let path = &self.path;
        for hole in &mut self.holes {
            let within = hole
                .path
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
            hole.weighed |= within;
        }
    }

    /// The branch a union at the current path takes whatever the items in its value, where
    /// it holds an items' member (an untagged enum of objects, `{"records": [...]}` beside
    /// `{"error": "..."}`), weighing its branches with an empty array in the items' place.
    /// Every branch that fails must fail without meeting that place: it fails as well with
    /// the items there (recovery met nothing of them). Then, of the branches that fit:
    /// - one alone: recovering the value with its items takes it, the only one that fits;
    /// - more: each must meet each items' place within the value once, at its path, against
    ///   the schema the items are read against, and no other place that may be one
    ///   ([`visits_a_hole`](Self::visits_a_hole)). The items then add the same cost to every
    ///   branch that fits, and the cheapest of them with the empty array (the first of
    ///   equals) is the cheapest with the items.
    ///
    /// Where an item could not be recovered, a branch that meets its place so (once, at its
    /// path, against the items' schema) comes there to the item's error in the weighing, as
    /// it does with the items ([`mark_hole`](Self::mark_hole)). Every branch must then fail
    /// without meeting the place or meet it so, whether it fits (an optional member dropped
    /// for the error) or fails. Of those that fit, the cheapest is taken; where none does,
    /// the one whose error got deepest (the first of equals), which is the union's error as
    /// `choose` keeps it.
    ///
    /// `None` otherwise (the union weighs its branches,
    /// [`weighs_the_hole`](Self::weighs_the_hole)), or where no items' member is in the
    /// value.
    #[inline(never)]
    pub(super) fn branch_apart_from_the_items(
        &mut self,
        v: &Value,
        rid: NodeId,
        branches: &[NodeId],
        depth: usize,
        wrapped: bool,
    ) -> Option<usize> {
        let path = &self.path;
        let within = |h: &Hole| {
            h.path
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        };
        if !self.holes.iter().any(within) {
            return None;
        }
        let failing = self.holes.iter().any(|h| within(h) && h.fails.is_some());
        // Each hole within met once, cleanly.
        let (mut holes, mut lanes) = (0, 0u64);
        for (i, _) in self.holes.iter().enumerate().filter(|(_, h)| within(h)) {
            holes += 1;
            lanes = lanes.wrapping_add(lane(i));
        }
        // Once per (union, value) in a scope, as `choose` weighs; no branch is `NONE`.
        const NONE: usize = usize::MAX;
        let question = Question::Apart { wrapped };
        let only = self.memoised(v, rid, depth, question, |w| {
            let (warnings, cost) = (w.warnings.len(), w.cost);
            let mut best: Option<(usize, u64)> = None;
            // The error that got deepest (the first of equals), as `choose` keeps it.
            let mut deepest: Option<(usize, usize)> = None;
            let (mut fit, mut clean) = (0, true);
            for (i, &b) in branches.iter().enumerate() {
                let (visits, cleans) = (w.hole_visits, w.clean_visits);
                w.wrapped = wrapped;
                let r = w.value(Cow::Borrowed(v), b, depth);
                let branch_cost = w.cost - cost;
                w.cost = cost;
                w.warnings.truncate(warnings);
                let met = w.hole_visits - visits;
                let exact = met == holes && w.clean_visits.wrapping_sub(cleans) == lanes;
                match r {
                    Ok(_) => {
                        fit += 1;
                        clean &= exact;
                        if best.is_none_or(|(_, c)| branch_cost < c) {
                            best = Some((i, branch_cost));
                        }
                    }
                    // Failed whatever the items, or on the item that fails, met where it is.
                    Err(e) if met == 0 || (failing && exact) => {
                        if deepest.is_none_or(|(_, len)| e.path().len() > len) {
                            deepest = Some((i, e.path().len()));
                        }
                    }
                    Err(_) => return Ok(NONE),
                }
            }
            match (best, deepest) {
                (Some((i, _)), _) if (fit == 1 && !failing) || clean => Ok(i),
                // Every branch fails: the union's error is the deepest of theirs.
                (None, Some((i, _))) if failing => Ok(i),
                _ => Ok(NONE),
            }
        });
        match only {
            Ok((b, _)) if b != NONE => Some(b),
            _ => None,
        }
    }

    /// Counts `v`, recovered against `id`, as met at an items' place (see
    /// [`branch_apart_from_the_items`](Self::branch_apart_from_the_items)) where it is at a
    /// hole's path, or is an empty array or object wherever it is: a member moved under
    /// another key (renamed, or a wrapper taken off) is met at another path. Counting more
    /// than the holes only sends more unions to be weighed, items included. A visit at a
    /// hole's path against the schema its items are read against is clean too, in that
    /// hole's lane ([`lane`]): there the items' recovery is what reading them one by one
    /// makes of them.
    #[inline(never)]
    pub(super) fn visits_a_hole(&mut self, v: &Value, id: NodeId) {
        let empty = match v {
            Value::Array(items) => items.is_empty(),
            Value::Object(members) => members.is_empty(),
            _ => false,
        };
        let at = self.holes.iter().position(|h| h.path == self.path);
        if empty || at.is_some() {
            self.hole_visits += 1;
        }
        if let Some(i) = at {
            let hole = &self.holes[i];
            if hole.array.is_some_and(|array| self.schema.same(array, id)) {
                self.clean_visits = self.clean_visits.wrapping_add(lane(i));
            }
        }
    }

    /// Whether the value at the current path is the empty array in an items' place, in the
    /// object around them ([`around`]): its count is not the items', so `minItems` and
    /// `maxItems` are not checked on it ([`Items::finish`] counts the items).
    #[inline]
    pub(super) fn at_hole(&self) -> bool {
        self.dry == 0
            && self
                .holes
                .iter()
                .any(|h| h.at.is_some() && h.path == self.path)
    }

    /// Whether the value at the current path, `depth` and against `id`, is at an items'
    /// place and `id` is that place's array schema (the same node, or the same schema
    /// written again): a map's member there holds the items only then.
    pub(super) fn holds_the_items(&self, depth: usize, id: NodeId) -> bool {
        self.holes.iter().any(|h| {
            depth == h.depth
                && h.path == self.path
                && h.array.is_some_and(|array| self.schema.same(array, id))
        })
    }

    /// `property` on a property of an object at reply depth `depth`, of schema `id`: notes
    /// where an items' member's recovery begins. True where it is such a member and an item
    /// could not be recovered: its recovery then comes to the item's error
    /// ([`failed_hole`](Self::failed_hole)). In a weighing, nothing is noted, and the answer
    /// is true only where `id` is the schema the items were read against: there they fail
    /// as they would in the value (under another schema, the empty array is weighed, and
    /// the visit is not clean, [`visits_a_hole`](Self::visits_a_hole)).
    #[inline(never)]
    pub(super) fn mark_hole(&mut self, depth: usize, id: NodeId) -> bool {
        let (warnings, violations) = (self.warnings.len(), self.violations.len());
        if self.dry > 0 {
            return self.holes.iter().any(|h| {
                depth == h.depth
                    && h.path == self.path
                    && h.fails.is_some()
                    && h.array.is_some_and(|array| self.schema.same(array, id))
            });
        }
        let order = self.holes.iter().filter(|h| h.at.is_some()).count();
        let path = &self.path;
        let Some(hole) = self
            .holes
            .iter_mut()
            .find(|h| depth == h.depth && h.at.is_none() && h.path == *path)
        else {
            return false;
        };
        // The property is the items'.
        hole.at = Some(Mark {
            warnings,
            violations,
            order,
        });
        hole.fails.is_some()
    }

    /// A value kept as it is at the current path (any value's, or a member an object keeps
    /// as written): each items' place in it whose items are read as any values (its array
    /// schema, [`array_at`], is kept as it is: [`kept_at`]) is reached here, with nothing
    /// said in it, and no item can fail there. In a weighing, nothing is noted.
    #[inline(never)]
    pub(super) fn keeps_holes(&mut self) {
        if self.dry > 0 {
            return;
        }
        let (warnings, violations) = (self.warnings.len(), self.violations.len());
        let reached = self.holes.iter().filter(|h| h.at.is_some()).count();
        let (path, schema) = (&self.path, self.schema);
        let within = |h: &Hole| {
            h.path
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let kept = self
            .holes
            .iter_mut()
            .filter(|h| h.at.is_none() && within(h) && h.array.is_some_and(|a| kept_at(schema, a)));
        for (order, hole) in (reached..).zip(kept) {
            hole.at = Some(Mark {
                warnings,
                violations,
                order,
            });
        }
    }

    /// The recovery of an items' member where an item could not be recovered (see
    /// [`mark_hole`](Self::mark_hole)): the item's error, in the place of the empty array's
    /// recovery (a copy: a weighing meets it, and the value's recovery after it), the visit
    /// counted as `value` counts it, at the hole's path, clean.
    #[cold]
    #[inline(never)]
    pub(super) fn failed_hole(
        &mut self,
        empty: Cow<'_, Value>,
        id: NodeId,
        depth: usize,
    ) -> Result<Value, Error> {
        let path = &self.path;
        let at = self.holes.iter().position(|h| h.path == *path);
        match at.and_then(|i| Some((i, self.holes[i].fails.clone()?))) {
            Some((i, e)) => {
                self.hole_visits += 1;
                self.clean_visits = self.clean_visits.wrapping_add(lane(i));
                Err(e)
            }
            None => self.value(empty, id, depth),
        }
    }
}

/// The object around the items, recovered: what [`recover`](super::recover) gives with an
/// empty array in each items' member, without ruling on the constraints, and where it
/// reached those members.
pub(crate) struct Around {
    /// The object recovered, or the error that stopped its recovery.
    pub(crate) result: Result<Recovered, Error>,
    /// The constraints it breaks, in order.
    pub(crate) violations: Vec<Violation>,
    /// For each items' member, in the order given: where recovery reached it, `None` when
    /// recovery stopped before it (or never met it).
    pub(crate) marks: Vec<Option<Mark>>,
    /// False where a union around an items' member chose its branch by weighing them:
    /// recovering the object with its items may choose another (see [`objects_at`]).
    pub(crate) followed: bool,
}

/// Recovers `shell`, the top-level object with an empty array at each path of `holes`,
/// against `schema` (whose root is an object or any value, see [`members`]).
///
/// With an error beside a path, the error of an item there that could not be recovered, that
/// member comes to the error, as recovering its array whole does: the error of the object,
/// or (where that member or one on the way to it is optional) the optional one dropped with
/// a warning that names the error, and the rest of the object recovered as ever.
pub(crate) fn around(
    shell: Value,
    schema: &Schema,
    options: &Options,
    holes: Vec<(&[String], Option<Error>)>,
    cut: Option<Vec<String>>,
) -> Around {
    let mut walker = Walker::new(schema, options);
    walker.sees(super::text_len(&shell));
    // Where the reply was cut off (in a member after the items, where it matters).
    walker.cut_from(cut);
    walker.holes = holes
        .into_iter()
        .map(|(path, fails)| Hole {
            path: super::pointer_of(path),
            depth: path.len().saturating_sub(1),
            array: array_at(schema, path).map(|(id, _)| id),
            at: None,
            weighed: false,
            fails,
        })
        .collect();
    let r = walker.value(Cow::Owned(shell), schema.root(), 0);
    let r = walker.ended(r);
    let holes = std::mem::take(&mut walker.holes);
    let followed = holes.iter().all(|h| !h.weighed);
    let marks = holes.iter().map(|h| h.at).collect();
    let violations = std::mem::take(&mut walker.violations);
    Around {
        result: r.map(|value| Recovered {
            value,
            warnings: walker.warnings,
            cost: u32::try_from(walker.cost).unwrap_or(u32::MAX),
            moves: walker.moves,
            as_text: walker.as_text,
            index: Default::default(),
        }),
        violations,
        marks,
        followed,
    }
}

/// Recovers `shell`, an object whose one member `key` is an empty array, against `schema`
/// (whose root is an array of items, see [`wrapper_root`]): what recovering the object with
/// its items gives before the items, when recovery takes the array out of it (an empty
/// array, with the move from `/key` to the root); `None` when it does not (the key is a
/// field of the items, and the object becomes one) or fails.
pub(crate) fn unwrap(
    shell: Value,
    schema: &Schema,
    options: &Options,
    key: &str,
) -> Option<Around> {
    let mut walker = Walker::new(schema, options);
    walker.sees(super::text_len(&shell));
    let value = walker.value(Cow::Owned(shell), schema.root(), 0);
    let value = walker.ended(value).ok()?;
    let mut pointer = String::new();
    push_key(&mut pointer, key);
    let unwrapped = value == Value::Array(Vec::new())
        && walker.as_text.is_empty()
        && walker.moves.len() == 1
        && walker.moves[0] == (pointer, String::new());
    unwrapped.then(|| Around {
        followed: true,
        marks: vec![Some(Mark {
            warnings: walker.warnings.len(),
            violations: walker.violations.len(),
            order: 0,
        })],
        violations: std::mem::take(&mut walker.violations),
        result: Ok(Recovered {
            value,
            warnings: walker.warnings,
            cost: u32::try_from(walker.cost).unwrap_or(u32::MAX),
            moves: walker.moves,
            as_text: walker.as_text,
            index: Default::default(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Items of a `uniqueItems` array, `values` recovered in turn.
    fn read<'s>(schema: &'s Schema, values: &[Value]) -> Items<'s> {
        let mut items = Items::new(schema, &Options::default()).unwrap();
        for v in values {
            items.next(v.clone(), None).unwrap();
        }
        items
    }

    #[test]
    fn a_repeated_digest_is_told_by_comparing_the_two_items() {
        let schema =
            Schema::compile(&json!({"type": "array", "items": {}, "uniqueItems": true})).unwrap();
        let values = [
            json!({"b": 1, "a": [2]}),
            json!(3),
            json!({"a": [2.0], "b": 1}),
        ];
        let mut items = read(&schema, &values);
        assert!(items.seeks_repeat());
        let mut again = Items::new(&schema, &Options::default()).unwrap().checked();
        assert!(!items.repeat_of(&mut again, values[0].clone()));
        assert!(items.finish());
        let broken: Vec<&str> = items.violations().iter().map(|v| v.found()).collect();
        // (Described as the earlier item is written, keys in its order.)
        assert_eq!(broken, ["an object with keys \"b\", \"a\" at 0 and 2"]);

        // Another value with the repeated digest (a collision, made here by hand): not
        // equal, and left to the reply evaluated whole.
        let mut items = read(&schema, &values);
        let mut again = Items::new(&schema, &Options::default()).unwrap().checked();
        let other = json!({"a": [2], "b": 2});
        if let Some(r) = items.repeat.as_mut() {
            r.digest = check::digest(&other);
        }
        assert!(!items.repeat_of(&mut again, other));
        assert!(!items.finish());
        assert!(items.violations().is_empty());
    }
}
