//! Schema-aligned recovery: make a parsed value fit the schema, recording every change.
//!
//! [`recover`] walks the value and the compiled [`Schema`] together. Where they disagree it
//! applies the rules below, each adding a [`Warning`] with the JSON pointer of the change and a
//! cost (used to choose between candidate replies: the cheapest one wins):
//!
//! | rule | example | warning | cost |
//! |---|---|---|---|
//! | key by alias, case or separators | `Summary`, `user_id` for `userId` | `KeyRenamed` | 1 |
//! | unknown key dropped (kept where the schema allows it, see below) | `{"extra": 1}` | `UnknownKeyDropped` | 1 |
//! | missing required field: default, `null` if nullable, else the empty value | `""`, `0`, `false`, `[]`, `{}` | `MissingField` | 5 |
//! | `null` for a non-nullable field: the same | `"title": null` | `NullReplaced` | 3 |
//! | number <-> string, bool from words, integral float to integer | `"12,500"`, `"yes"`, `4.0` | `Coerced` | 1 |
//! | structure as text (the reply's own text, when [`from_llm`](crate::LlmOutput::from_llm) has it) | `{a: 1}` for a string field | `Coerced` | 3 |
//! | a JSON document inside a string | `"[1, 2]"` for an array | `Coerced` | 1 |
//! | enum value or tag loosely | `"needs review"`, `"SKIPPED"` | `EnumMatched` | 1 |
//! | one value to a one-element array, and back | `"x"` for `["x"]` | `Reshaped` | 2 |
//! | the value of an object's only field, given alone (when it fits the field with no constraint broken, or fits the object as given no better) | `42` for `{"count": 42}`, `{"name": "f"}` for `{"selected": {"name": "f"}}` | `Reshaped` | 2 |
//! | a wrapper around the expected value (not when its key is a field of the items); around an array, one array beside scalars only, which are left out and named (not when any key is a field of the items); around an object, each of nested wrappers, when what it holds fits the object with no constraint broken or the wrapper as given fits no better | `{"results": [...]}`, `{"rows": [...], "total": 2}`, `{"Commit": {...}}`, `{"response": {"data": {...}}}` | `Reshaped` | 2 each; 2 and one a scalar left out (at most 8 more) |
//! | a map written as `{"key", "value"}` objects (how the OpenAI and Gemini dialects ask for one) | `[{"key": "a", "value": 1}]` | `Reshaped` | 1 |
//! | an optional field that cannot be recovered is dropped | `"emoji": [1]` | `RequiredOnly` | 4 |
//! | an array item that cannot be recovered is dropped, only with `drop_invalid_items` | `[1, "x"]` | `ItemDropped` | 4 |
//! | the array item (or map member) a reply cut off ended in, where it cannot be recovered without filling anything in | `[{"id": 1}, {"i` | `ItemDropped` | 1 |
//!
//! Warnings name where the change ends up in the final value: after a dropped item, the
//! items that follow are one place earlier, and their paths say so.
//!
//! The schema's constraints beyond shape (`pattern`, ...: the nodes' [`Check`](crate::schema::Check)s)
//! are checked on the value recovery produces, filled-in values included; nothing is changed to
//! meet them. Each break is a [`Violation`] costing far more than any change (so a union takes a
//! branch the value meets), and a value left with violations is one
//! [`ErrorKind::Invalid`] error listing them all. A key that matches a `patternProperties`
//! pattern is valid as written: recovered against that schema, never renamed or dropped.
//!
//! Unions (`anyOf`/`oneOf`, serde enums) are recovered against every branch; the cheapest wins
//! (the first on a tie). A value that names its branch as serde's tagged enums do is that
//! branch's alone: by a tag's value as written (`{"type": "Square", ...}`, an internally or
//! adjacently tagged enum), or by an externally tagged variant's key as written
//! (`{"Move": {...}}`, where every branch is an object with one property or unit variants'
//! names). A value naming two branches that way (a tag given as an array of two tags, the
//! keys of two variants) is [`ErrorKind::Ambiguous`]: weighed, each branch would take its
//! own and drop the other. Two enum values matching equally is [`ErrorKind::Ambiguous`], never a
//! guess. An object none of whose keys is a property is not that object (an echoed schema, an
//! example of something else, `{}`): that is an error, never a value made of defaults.
//!
//! Under [`Policy::Strict`] every rule is an error instead ([`ErrorKind::Forbidden`]), and so is
//! a missing field marked `x-no-invent` (the derive's `#[llmout(no_invent)]`) under any policy.
//! Under [`Policy::NoInvent`] only filling in is: a required field missing (or `null`), and a
//! `null` array item or map value, is an error unless the schema gives a `default`.
//!
//! A key the schema does not list is kept when the schema takes it (`additionalProperties`
//! `true` or a schema), and dropped when it says `additionalProperties: false`. Where it says
//! nothing, [`Options::keep_unknown_keys`] decides: set by the runtime-schema entry points
//! ([`from_llm_with_schema`](crate::from_llm_with_schema), tool arguments), which keep such
//! keys as JSON Schema allows; unset for derived types, whose serde would ignore them, so
//! they are dropped with a warning (under [`Policy::Strict`], a change like any other: an
//! error naming the key).
//!
//! A union weighs each branch without keeping its warnings or copying the value, then recovers
//! the cheapest for real. Its choice for a value is memoised (by union node and value) while
//! the value is held, so nested unions are decided once per value, not once per branch
//! above them: recursive untagged enums, whose branches all recover the same children, were
//! exponential in the reply's depth and are now polynomial (the work is the reply's size times
//! the schema's nodes, plus one pass per union layer that owns its value). A choice holds
//! wherever its value is met again (a value wrapped in a one-element array is weighed one
//! level deeper than itself). A branch that can take the value only by wrapping it in a
//! one-element array costs at least that change, so it is weighed after the others, and not
//! at all where one of them costs less: the choice is the one weighing every branch in order
//! makes. The two readings of
//! a value shaped like an object's only field (that field's value, or the object itself), and
//! of a one-key wrapper around an object (what it holds, or the wrapper with its key as data),
//! are weighed and memoised the same way. A value wrapped in a one-element array is not wrapped
//! again, so a recursive array schema cannot wrap a scalar forever.
//!
//! Recursion follows the value: the reply may nest [`Options::max_depth`] deep (at most the
//! parser's cap, 512), and the unions met along it may add 64 levels in all; either limit is a
//! [`ErrorKind::DepthLimit`] error that says which. A limit met while a union weighs a branch,
//! or while a check walks the value against another schema (`not`, a second pattern's), is
//! the recovery's error too, not that branch's failure or the check's: a reply past the
//! limits is not reshaped until some reading fits under them. Schemas whose references loop without
//! consuming a level of the value are rejected when compiled.
//!
//! Each change, move and violation names its value by its whole JSON pointer, so a long key
//! above many changes would record far more than the reply holds. The pointers recorded may
//! hold a mebibyte and 16 bytes per byte of the value, beyond 8 bytes per level of nesting
//! (what short keys make, which the depth limit bounds); past that, recovery is an
//! [`ErrorKind::TooLarge`] error.
//!
//! ```
//! use llmout::{advanced::recover::recover, schema::Schema, Options};
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

mod check;
mod coerce;
mod enums;
pub(crate) mod items;
mod keys;
mod known;
mod moves;
pub(crate) use known::keys_fit;
pub(crate) mod text;

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use crate::schema::{Additional, Array, Kind, NodeId, Object, Property, Schema};
use crate::{excerpt, Error, ErrorKind, Options, Policy, Violation, Warning, WarningKind};
use coerce::{Reason, Want};
use enums::{EnumIndex, Match};
pub(crate) use keys::KeyIndex;
use keys::KeyMatch;
pub(crate) use moves::prefixes as pointer_prefixes;

/// A value recovered against a schema, the changes made, and their total cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// The value, now matching the schema.
    pub value: Value,
    /// Every change, in the order it was made.
    pub warnings: Vec<Warning>,
    /// The sum of the changes' costs (0 when nothing changed).
    pub cost: u32,
    /// Where the recovery moved parts of the value (a key renamed, a value wrapped in an
    /// array or taken out of a wrapper), in the order it did: `(from, to)` JSON pointers, so
    /// that what was said about the value before (the parser's fixes) points at the final
    /// value (see [`Recovered::remap`]).
    pub(crate) moves: Vec<(String, String)>,
    /// Where an object or array was written as JSON text because the schema asks for a
    /// string, or an integer beyond 64 bits (which the value may hold rounded) as its
    /// float's text: the pointer (in the final value) and the index of the warning that
    /// says so, so that the caller, which has the reply, can put the text as written there
    /// instead.
    pub(crate) as_text: Vec<(String, usize)>,
    /// `moves` by their pointers, built the first time a path is followed through many
    /// (`moves` is not changed after).
    pub(crate) index: moves::MoveIndex,
}

impl Recovered {
    /// Where a part of the value that was at `path` before recovery is now.
    ///
    /// ```
    /// use llmout::{advanced::recover::recover, schema::Schema, Options};
    /// use serde_json::json;
    /// let schema = Schema::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"items": {"type": "array", "items": {"type": "object"}}},
    ///     "required": ["items"]
    /// })).unwrap();
    /// let r = recover(json!({"Items": {"note": "x"}}), &schema, &Options::default()).unwrap();
    /// assert_eq!(r.remap("/Items/note"), "/items/0/note");
    /// ```
    pub fn remap(&self, path: &str) -> String {
        moves::follow(&self.moves, &self.index, path, false)
    }

    /// Where the part of the value now at `path` was before recovery: [`remap`](Self::remap)
    /// undone.
    pub(crate) fn unmap(&self, path: &str) -> String {
        moves::follow(&self.moves, &self.index, path, true)
    }
}

/// Whether `object`, one of several objects given one by one where the schema's root is an
/// array, can be one of its items: it has a member, and where the items are objects with
/// properties, a key that names one of them (as recovery matches keys: exactly, by alias, or
/// ignoring case and separators). Braces in prose (`fill in {name}`) read as an object with
/// no such key. `keys` is kept from one object to the next, so that an object schema's
/// names are hashed once.
pub(crate) fn item_like(schema: &Schema, object: &Map<String, Value>, keys: &mut KeyIndex) -> bool {
    if object.is_empty() {
        return false;
    }
    let root = schema.resolve(schema.root());
    let items = match &schema.node(root).kind {
        Kind::Array(a) => a.items.map(|i| schema.resolve(i)),
        _ => None,
    };
    let Some(items) = items else {
        return true;
    };
    match &schema.node(items).kind {
        Kind::Object(o) if !o.properties.is_empty() => object.keys().any(|k| {
            matches!(
                keys.lookup(items, o, k),
                KeyMatch::Exact(_) | KeyMatch::Alias(_) | KeyMatch::Loose(_)
            )
        }),
        _ => true,
    }
}

/// Recovers `value` against `schema`'s root.
pub fn recover(value: Value, schema: &Schema, options: &Options) -> Result<Recovered, Error> {
    recover_cut(value, schema, options, None)
}

/// [`recover`] of a value the lenient parser read from a reply that was cut off (its
/// `Truncated` fix): `cut` is that fix's path, one segment a level. The array item (or map
/// member) the reply was cut off in is recovered with nothing filled in, and dropped with a
/// warning where it cannot be: what the model did not finish is neither made up nor allowed
/// to sink the items it did.
pub(crate) fn recover_cut(
    value: Value,
    schema: &Schema,
    options: &Options,
    cut: Option<Vec<String>>,
) -> Result<Recovered, Error> {
    let mut walker = Walker::new(schema, options);
    walker.sees(text_len(&value));
    walker.cut_from(cut);
    let value = walker.value(Cow::Owned(value), schema.root(), 0);
    let value = walker.ended(value)?;
    if !walker.violations.is_empty() {
        return Err(Error::invalid(walker.violations));
    }
    Ok(Recovered {
        value,
        warnings: walker.warnings,
        cost: u32::try_from(walker.cost).unwrap_or(u32::MAX),
        moves: walker.moves,
        as_text: walker.as_text,
        index: Default::default(),
    })
}

/// Whether `value` fits `schema` as it is: no change and no violation. The same walk as
/// [`recover`], copying nothing (as a union weighs a branch): what a valid reply costs to
/// check.
pub(crate) fn fits_as_is(value: &Value, schema: &Schema, options: &Options) -> bool {
    let mut walker = Walker::new(schema, options);
    walker.dry = 1;
    let r = walker.value(Cow::Borrowed(value), schema.root(), 0);
    walker.ended(r).is_ok() && walker.cost == 0
}

/// Union layers the recursion may add to the reply's nesting (see `Walker::frames`): a reply
/// at the depth limit, against a schema with a union at every level, stops at 128 + 64
/// frames, which fits a 2 MiB stack unoptimised.
const UNION_FRAMES: usize = 64;

/// What wrapping a value in a one-element array costs (`Walker::array_items`): the least any
/// array schema costs a value that is not an array (`wrappable`), which lets a union weigh such
/// a branch last, or not at all (`Walker::choose`).
const WRAP_COST: u32 = 2;

/// A union's choice for one value: which branch (and its cost), or why none fits (the error's
/// path kept relative to the union's, so it can be reused where the same value sits under
/// another spelling of a key). The recursion depth at which a choice is made is not part of
/// its key: the outcome depends on it only through the limits, and meeting one ends the
/// recovery (`Walker::overflow`), so a choice holds wherever its value is met again.
#[derive(Clone)]
struct Choice {
    /// (The error boxed: a scope holds a choice for every value a union weighs, and an
    /// `Error` inline made each entry about 170 bytes.)
    outcome: Result<(usize, u64), Box<(Error, usize)>>,
    /// How many values the weighing met at a hole's path (`Walker::hole_visits`), and
    /// which of them cleanly (`Walker::clean_visits`), counted again when the choice is
    /// reused.
    hole_visits: usize,
    clean_visits: u64,
}

/// What a memoised weighing depends on: the schema node, the value (by address: it is borrowed
/// for as long as the entry lives), and the question asked; and the reply depth where an
/// items' place (`Walker::holes`) is looked for at one, else 0.
type ChoiceKey = (NodeId, usize, usize, Question);

/// What a memoised weighing answers (see `Walker::memoised`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Question {
    /// Which branch of a union the value takes, or how a document in a string fits an array
    /// or object schema; `wrapped`, whether the value was just wrapped in an array.
    Fit { wrapped: bool },
    /// How the value recovers as the value of the object's only field, given alone.
    AsOnlyField,
    /// How the same value recovers as the object itself.
    AsGiven,
    /// How the value inside a one-key wrapper recovers as the object (the wrapper taken off).
    Unwrapped,
    /// How the wrapper recovers as the object, its key read as data (the wrapper kept).
    Kept,
    /// Which branch of a union the value takes whatever the items in it (see
    /// `Walker::branch_apart_from_the_items`).
    Apart { wrapped: bool },
}

/// How a memoised weighing went: 0, the value recovers with no constraint broken; 1, with
/// some broken; 2, it does not recover.
fn rank(r: &Result<(usize, u64), Error>) -> u8 {
    match r {
        Ok((_, cost)) if *cost < check::VIOLATION_COST => 0,
        Ok(_) => 1,
        Err(_) => 2,
    }
}

/// Whether `v` is a float with no fraction beyond the 64-bit integers: what an integer the
/// parser held rounded becomes (`Repairs::rounded`).
fn maybe_rounded(v: &Value) -> bool {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    match v {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .is_some_and(|x| x.fract() == 0.0 && !(-LIMIT..2.0 * LIMIT).contains(&x)),
        _ => false,
    }
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
    /// The reply's nesting allowed (the option, at most the parser's cap).
    max_depth: usize,
    /// The recursion allowed: the reply's nesting plus the unions met along it.
    max_frames: usize,
    warnings: Vec<Warning>,
    /// The changes' costs, and the violations' (see `check`).
    cost: u64,
    /// The constraints the value breaks (kept like `warnings`: not while a union weighs).
    violations: Vec<Violation>,
    /// Where parts of the value moved (see [`Recovered::moves`]).
    moves: Vec<(String, String)>,
    /// Containers and large integers written as text (see [`Recovered::as_text`]).
    as_text: Vec<(String, usize)>,
    /// JSON pointer of the value being recovered.
    path: String,
    /// Objects' folded property names, by schema node.
    keys: KeyIndex,
    /// Enums' folded and stemmed spellings, by schema node.
    enums: EnumIndex,
    /// Above 0 while a union tries its branches: only the cost and the outcome count, so
    /// warnings are not kept and values not copied (see `Walker::keep`).
    dry: u32,
    /// `value` calls on the stack: the reply's depth plus the union layers along the way.
    frames: usize,
    /// Above 0 while recovering a document decoded from a string (see `decode_string`).
    in_document: u32,
    /// The first limit met (the reply's depth or the frames), while weighing or not: the
    /// recovery's error. Every later `value` call fails with it at once, so the walk
    /// unwinds, and the entry points return it whatever the walk gave (`Walker::ended`).
    /// (Whether a weighing meets a limit depends on where it is made, which would keep a
    /// choice from being reused elsewhere: near the limits a value was weighed again at
    /// each depth it was met at, up to a hundred times.)
    overflow: Option<Error>,
    /// A walk of its own inside a check of the value against another schema
    /// (`check::fits`): its depths are the value's, not the reply's, and its errors say so.
    checking: bool,
    /// The value passed to the next `value` call was just wrapped in a one-element array: it is
    /// not wrapped again (a recursive schema would wrap it forever).
    wrapped: bool,
    /// Unions' choices, memoised. A scope is opened by a union over a value it owns, whose
    /// descendants the branches borrow: their addresses stay put until the scope closes.
    /// Each (union, value) pair is decided once per scope, so recovery is polynomial in the
    /// reply where trying every branch of nested unions afresh was exponential.
    scopes: Vec<HashMap<ChoiceKey, Choice>>,
    /// The members of the top-level object whose items are recovered elsewhere, one by one
    /// (see `items::around`).
    holes: Vec<items::Hole>,
    /// How many values recovery has met, dry or not, that may be an items' place (see
    /// `Walker::visits_a_hole`).
    hole_visits: usize,
    /// Of those, the visits at a hole's path against its items' schema, a lane of bits per
    /// hole (`items::lane`), added with wrapping: only differences are read.
    clean_visits: u64,
    /// The bytes of the pointers recorded (warnings, moves, violations, containers written
    /// as text), and about the length as JSON text of the values handed to the walk: the
    /// pointers may hold [`pointer_budget`](crate::warning::pointer_budget) of that (see
    /// `Walker::charge`).
    pointers: usize,
    seen: usize,
    /// Where the reply was cut off (it was truncated): the path of the value the parser
    /// found cut (a string, or the innermost container left open), as the parser's value
    /// has it, one segment a level.
    cut_path: Vec<String>,
    /// Where the value being recovered is on the way to that value: how many of its
    /// segments lead to it (`None` where the cut is not in it). A container sets `next_cut`
    /// for its item or member that the next segment names (see `cut_below`), and `value`
    /// takes it.
    cut: Option<u32>,
    next_cut: Option<u32>,
}

/// What the walker had recorded at a point (see `Walker::saved`).
#[derive(Clone, Copy)]
struct Saved {
    warnings: usize,
    violations: usize,
    moves: usize,
    as_text: usize,
    cost: u64,
    pointers: usize,
}

/// The items of an array, owned or borrowed.
enum Items<'v> {
    Owned(std::vec::IntoIter<Value>),
    Borrowed(std::slice::Iter<'v, Value>),
}

impl<'v> Items<'v> {
    fn of(items: Cow<'v, [Value]>) -> Self {
        match items {
            Cow::Owned(v) => Items::Owned(v.into_iter()),
            Cow::Borrowed(v) => Items::Borrowed(v.iter()),
        }
    }

    fn len(&self) -> usize {
        match self {
            Items::Owned(i) => i.len(),
            Items::Borrowed(i) => i.len(),
        }
    }
}

impl<'v> Iterator for Items<'v> {
    type Item = Cow<'v, Value>;

    fn next(&mut self) -> Option<Cow<'v, Value>> {
        match self {
            Items::Owned(i) => i.next().map(Cow::Owned),
            Items::Borrowed(i) => i.next().map(Cow::Borrowed),
        }
    }
}

/// What `match_keys` found: a value (or none) per property, the key it was given under when
/// that was the property's exact name, and the extra keys.
struct Matched<'v> {
    slots: Vec<Option<Cow<'v, Value>>>,
    names: Vec<Option<String>>,
    extras: Vec<(String, Extra<'v>)>,
    /// Where the member the reply was cut off in went, if it was given.
    cut_at: Option<CutAt>,
}

/// Where the member the reply was cut off in went: a property's slot, or the extras (by
/// index).
#[derive(Clone, Copy, PartialEq)]
enum CutAt {
    Slot(usize),
    Extra(usize),
}

/// A key that is not a property: kept as it is, or recovered against `additionalProperties`.
enum Extra<'v> {
    Kept(Value),
    Recover(Cow<'v, Value>, NodeId),
}

/// The members of an object, owned or borrowed (keys copied).
enum Members<'v> {
    Owned(serde_json::map::IntoIter),
    Borrowed(serde_json::map::Iter<'v>),
}

impl<'v> Iterator for Members<'v> {
    type Item = (String, Cow<'v, Value>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Members::Owned(i) => i.next().map(|(k, v)| (k, Cow::Owned(v))),
            Members::Borrowed(i) => i.next().map(|(k, v)| (k.clone(), Cow::Borrowed(v))),
        }
    }
}

impl<'s> Walker<'s> {
    /// A walker for `schema` under `options`, at the root.
    fn new(schema: &'s Schema, options: &Options) -> Self {
        // Recursion follows the value; the parser allows at most this much nesting.
        let max_depth = options.get_max_depth().min(crate::repair::MAX_DEPTH_CAP);
        Walker {
            schema,
            strict: options.get_policy() == Policy::Strict,
            invent: options.get_policy() != Policy::NoInvent,
            keep_unknown: options.get_keep_unknown_keys().unwrap_or(false),
            drop_items: options.get_drop_invalid_items(),
            max_depth,
            max_frames: max_depth + UNION_FRAMES,
            warnings: Vec::new(),
            cost: 0,
            violations: Vec::new(),
            path: String::new(),
            keys: KeyIndex::new(),
            enums: EnumIndex::new(),
            dry: 0,
            frames: 0,
            in_document: 0,
            overflow: None,
            checking: false,
            wrapped: false,
            scopes: Vec::new(),
            moves: Vec::new(),
            as_text: Vec::new(),
            holes: Vec::new(),
            hole_visits: 0,
            clean_visits: 0,
            pointers: 0,
            seen: 0,
            cut_path: Vec::new(),
            cut: None,
            next_cut: None,
        }
    }
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
        self.cost += u64::from(cost);
        if self.dry == 0 {
            self.charge(self.path.len());
            self.warnings
                .push(Warning::new(kind, self.path.clone(), message));
        }
        Ok(())
    }

    /// Counts a value of about `len` bytes as JSON text handed to the walk: what the
    /// pointers recorded may be measured against.
    fn sees(&mut self, len: usize) {
        self.seen = self.seen.saturating_add(len);
    }

    /// Charges a pointer of `len` bytes recorded at the current depth. Each record names its
    /// value by its whole pointer, so a long key above many changes would make far more
    /// pointer text than reply (a megabyte key over a hundred thousand items coerced: a
    /// hundred gigabytes). Past [`pointer_budget`](crate::warning::pointer_budget) of what the
    /// walk was handed, the walk ends with an [`ErrorKind::TooLarge`] error (as a limit does,
    /// see `overflow`). (The frames are the reply's depth and the unions on the way: a bound
    /// on the depth that is never below it.)
    fn charge(&mut self, len: usize) {
        self.pointers += crate::warning::pointer_charge(len, self.frames);
        let budget = crate::warning::pointer_budget(self.seen);
        if self.pointers > budget && self.overflow.is_none() {
            self.overflow = Some(Error::new(
                ErrorKind::TooLarge,
                "",
                format!(
                    "at most {budget} bytes of JSON pointers, beyond 8 per level of nesting, \
                     in the changes and violations recorded (a mebibyte and 16 per byte of \
                     the reply)"
                ),
                "more: a long key above many of them",
            ));
        }
    }

    /// The part of the value under the key or index `from` (of the value at the current path)
    /// is now at `to` under it, or (`None`) is the value itself: recorded for
    /// [`Recovered::remap`] (not while a union only weighs its branches).
    fn moved(&mut self, from: &str, to: Option<&str>) {
        if self.dry == 0 {
            let from_path = crate::pointer_push(&self.path, from);
            let to_path = to.map_or_else(
                || self.path.clone(),
                |to| crate::pointer_push(&self.path, to),
            );
            self.charge(from_path.len());
            self.charge(to_path.len());
            self.moves.push((from_path, to_path));
        }
    }

    /// The value at the current path is now under the key or index `into` of it.
    fn moved_into(&mut self, into: &str) {
        if self.dry == 0 {
            let to = crate::pointer_push(&self.path, into);
            self.charge(self.path.len());
            self.charge(to.len());
            self.moves.push((self.path.clone(), to));
        }
    }

    /// What `restore` returns to: the warnings, violations and cost so far.
    fn saved(&self) -> Saved {
        Saved {
            warnings: self.warnings.len(),
            violations: self.violations.len(),
            moves: self.moves.len(),
            as_text: self.as_text.len(),
            cost: self.cost,
            pointers: self.pointers,
        }
    }

    /// Undoes what was recorded since `saved` (a value dropped after all).
    fn restore(&mut self, saved: Saved) {
        self.warnings.truncate(saved.warnings);
        self.violations.truncate(saved.violations);
        self.moves.truncate(saved.moves);
        self.as_text.truncate(saved.as_text);
        self.cost = saved.cost;
        self.pointers = saved.pointers;
    }

    /// `v`, produced for `id`, after checking it against `id`'s constraints.
    fn checked(&mut self, id: NodeId, v: Value) -> Value {
        if self.schema.is_constrained_at(id) {
            self.check_value(id, &v);
        }
        v
    }

    /// A value taken as it is: moved when owned, copied when borrowed, and not copied at all
    /// while a union only weighs its branches.
    fn keep(&self, v: Cow<'_, Value>) -> Value {
        match v {
            Cow::Owned(v) => v,
            Cow::Borrowed(_) if self.dry > 0 => Value::Null,
            Cow::Borrowed(v) => v.clone(),
        }
    }

    fn mismatch(&self, id: NodeId, found: &Value) -> Error {
        Error::new(
            ErrorKind::Mismatch,
            self.path.clone(),
            self.schema.describe(id),
            describe_value(found),
        )
    }

    /// Recovers `v` (at reply depth `depth`) against `id`.
    fn value(&mut self, v: Cow<'_, Value>, id: NodeId, depth: usize) -> Result<Value, Error> {
        let wrapped = std::mem::take(&mut self.wrapped);
        let cut = self.next_cut.take();
        if let Some(e) = &self.overflow {
            return Err(e.clone());
        }
        if depth > self.max_depth || self.frames >= self.max_frames {
            let e = self.too_deep(depth);
            self.overflow = Some(e.clone());
            return Err(e);
        }
        self.frames += 1;
        if !self.holes.is_empty() {
            self.visits_a_hole(&v, id);
        }
        let in_document = self.in_document;
        let outer = std::mem::replace(&mut self.cut, cut);
        let r = self.fit(v, id, depth, wrapped);
        self.cut = outer;
        self.in_document = in_document;
        self.frames -= 1;
        r
    }

    /// Where the cut is in the item or member `key` (an index, written out) of the value
    /// being recovered: `next_cut` for it. (Only for the value's own items or members, not
    /// a wrapper's, nor those of a document in a string.)
    fn cut_below(&self, key: impl FnOnce() -> String) -> Option<u32> {
        self.cut_at(self.cut, key)
    }

    /// [`cut_below`](Self::cut_below) for a cut `d` segments down (a wrapper's items are one
    /// further down than the value).
    fn cut_at(&self, d: Option<u32>, key: impl FnOnce() -> String) -> Option<u32> {
        let d = d?;
        let segment = self.cut_path.get(usize::try_from(d).ok()?)?;
        (*segment == key()).then_some(d + 1)
    }

    /// The reply was cut off at `cut` (a path, one segment a level), in the value about to
    /// be recovered.
    pub(crate) fn cut_from(&mut self, cut: Option<Vec<String>>) {
        self.next_cut = cut.as_ref().map(|_| 0);
        self.cut_path = cut.unwrap_or_default();
    }

    /// What a walk from the top gave, unless a limit was met on the way, weighing or not:
    /// then the error of the first met (see `overflow`).
    fn ended<T>(&self, r: Result<T, Error>) -> Result<T, Error> {
        match &self.overflow {
            Some(e) => Err(e.clone()),
            None => r,
        }
    }

    /// The depth error: the reply nests deeper than the limit, or (which the schema's unions
    /// make possible within that limit) the recursion would.
    #[cold]
    #[inline(never)]
    fn too_deep(&self, depth: usize) -> Error {
        if depth > self.max_depth {
            return Error::new(
                ErrorKind::DepthLimit,
                self.path.clone(),
                format!("nesting at most {} deep", self.max_depth),
                "deeper nesting",
            );
        }
        Error::new(
            ErrorKind::DepthLimit,
            self.path.clone(),
            format!(
                "at most {} levels of the reply's nesting and the schema's unions together",
                self.max_frames
            ),
            if self.checking {
                "more, checking the value against another schema".to_owned()
            } else {
                format!("more, at a reply depth of {depth}")
            },
        )
    }

    // The functions on the recursion's path (`value`, `fit`, `union`, `choose`, `array`,
    // `object`, `members`, `property`) keep their frames small: what formats messages is in
    // functions of its own, so that the deepest reply fits a 2 MiB stack unoptimised.
    fn fit(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        depth: usize,
        wrapped: bool,
    ) -> Result<Value, Error> {
        let rid = self.schema.resolve(id);
        let kind = &self.schema.node(rid).kind;
        if v.is_null() {
            return if self.schema.is_nullable(id) {
                Ok(Value::Null)
            } else if !self.invent && self.schema.default_of(id).is_none() {
                Err(self.null_not_replaced(id))
            } else {
                self.invent(id, WarningKind::NullReplaced, 3, "null", depth)
            };
        }
        match kind {
            Kind::Any => {
                if self.schema.is_constrained_at(id) {
                    self.check_value(id, &v);
                }
                if !self.holes.is_empty() {
                    self.keeps_holes();
                }
                Ok(self.keep(v))
            }
            Kind::Never | Kind::Null | Kind::Ref(_) => Err(self.mismatch(id, &v)),
            Kind::Boolean => self.boolean(v, id),
            Kind::Integer { .. } => self.integer(v, id),
            Kind::Number => self.number(v, id),
            Kind::String => self.string(v, id),
            Kind::Enum(e) => self.enum_value(v, id, rid, e),
            Kind::Array(_) | Kind::Object(_) if self.schema.is_constrained_at(id) => {
                self.checked_container(v, id, rid, depth, wrapped)
            }
            Kind::Array(_) | Kind::Object(_)
                if self.dry > 0 && matches!(v, Cow::Borrowed(_)) && holds_document(&v) =>
            {
                self.weigh_document(&v, id, rid, depth, wrapped)
            }
            Kind::Array(a) => self.array(v, id, a, depth, wrapped),
            Kind::Object(o) => self.object(v, id, o, depth),
            Kind::Union(branches) => self.union(v, id, rid, branches, depth, wrapped),
        }
    }

    /// A string holding a JSON document, weighed against an array or object schema while a
    /// union chooses: decoded and recovered once per (schema node, string) in a scope, like a
    /// union's choice. (Each decoding makes a new value, which the choices inside it cannot
    /// share with the next; decoding it again for every branch above multiplied the work.)
    #[inline(never)]
    fn weigh_document(
        &mut self,
        v: &Value,
        id: NodeId,
        rid: NodeId,
        depth: usize,
        wrapped: bool,
    ) -> Result<Value, Error> {
        let kind = &self.schema.node(rid).kind;
        let weigh = |w: &mut Self| -> Result<usize, Error> {
            let shape = match kind {
                Kind::Array(a) => w.array(Cow::Borrowed(v), id, a, depth, wrapped)?,
                Kind::Object(o) => w.object(Cow::Borrowed(v), id, o, depth)?,
                _ => return Err(w.mismatch(id, v)),
            };
            if w.schema.is_constrained_at(id) {
                w.check_shape(id, &shape, None);
            }
            Ok(0)
        };
        self.memoised(v, rid, depth, Question::Fit { wrapped }, weigh)
            .map(|(_, cost)| {
                self.cost += cost;
                Value::Null
            })
    }

    #[inline(never)]
    fn enum_value(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        rid: NodeId,
        e: &crate::schema::Enum,
    ) -> Result<Value, Error> {
        {
            {
                let v = self.unwrap_single(v)?;
                let v = self.only_enum_item(v, e)?;
                match self.enums.lookup(rid, e, &v) {
                    Match::Exact => {
                        if self.schema.is_constrained_at(id) {
                            self.check_value(id, &v);
                        }
                        Ok(self.keep(v))
                    }
                    Match::Loose { value, how } => {
                        self.change(
                            WarningKind::EnumMatched,
                            1,
                            format!("matched {} to {value} {how}", describe_value(&v)),
                        )?;
                        if self.schema.is_constrained_at(id) {
                            self.check_value(id, &value);
                        }
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
        }
    }

    /// An array where one value of an enum is expected, of which exactly one item is such a
    /// value (`["TWO", "THREE"]` for `ONE | TWO`): that item.
    fn only_enum_item<'v>(
        &mut self,
        v: Cow<'v, Value>,
        e: &crate::schema::Enum,
    ) -> Result<Cow<'v, Value>, Error> {
        let Some(items) = v.as_array() else {
            return Ok(v);
        };
        let mut members = items.iter().filter(|i| e.values.contains(i));
        let (Some(one), None) = (members.next(), members.next()) else {
            return Ok(v);
        };
        let at = items.iter().position(|i| i == one).unwrap_or_default();
        let one = one.clone();
        self.change(
            WarningKind::Reshaped,
            2,
            format!("took {one}, the only item of the array that is one of the values"),
        )?;
        self.moved(&at.to_string(), None);
        Ok(Cow::Owned(one))
    }

    /// A one-element array where a single value is expected: its element. So is the scalar
    /// in an object with one key (`{"status": 1}` for `1`).
    fn unwrap_single<'v>(&mut self, v: Cow<'v, Value>) -> Result<Cow<'v, Value>, Error> {
        let single = |v: &Value| {
            v.as_array()
                .is_some_and(|i| i.len() == 1 && !i[0].is_array())
        };
        let wrapper = v
            .as_object()
            .filter(|m| m.len() == 1 && m.values().all(|x| !x.is_object() && !x.is_array()));
        if let Some(key) = wrapper.and_then(|m| m.keys().next().cloned()) {
            self.change(
                WarningKind::Reshaped,
                2,
                format!("took the value out of the wrapper {{\"{key}\": ...}}"),
            )?;
            self.moved(&key, None);
            return Ok(only_member(v));
        }
        if !single(&v) {
            return Ok(v);
        }
        self.change(
            WarningKind::Reshaped,
            2,
            "took the only element of a one-element array".to_owned(),
        )?;
        self.moved("0", None);
        Ok(only_item(v))
    }

    /// Whether `v` has the shape of the value of `o`'s only property, given without the object:
    /// a number or boolean of the property's type (`1214` for `{"count": 1214}`), or an object
    /// with none of the outer object's keys and some of the property's (`{"name": "f"}` for
    /// `{"selected": {"name": "f"}}`, the property an object or a union of objects). Whether it
    /// is taken as that value is weighed next (`takes_as_only_field`).
    fn looks_like_only_field(&mut self, v: &Value, id: NodeId, o: &Object) -> bool {
        let [only] = o.properties.as_slice() else {
            return false;
        };
        let kind = &self.schema.node(self.schema.resolve(only.schema)).kind;
        match (kind, v) {
            (Kind::Integer { .. }, Value::Number(n)) => {
                n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            (Kind::Number, Value::Number(_)) => true,
            (Kind::Boolean, Value::Bool(_)) => true,
            (Kind::Object(_) | Kind::Union(_), Value::Object(map)) => {
                self.holds_only_fields(map, id, o)
            }
            _ => false,
        }
    }

    /// Whether `map` has the shape of the value of `o`'s only property when that property is
    /// an object or a union of objects: some keys, none of them the outer object's, and some
    /// of them the property's.
    fn holds_only_fields(&mut self, map: &Map<String, Value>, id: NodeId, o: &Object) -> bool {
        let [only] = o.properties.as_slice() else {
            return false;
        };
        let schema = self.schema;
        let inner = schema.resolve(only.schema);
        if map.is_empty() || !matches!(schema.node(inner).kind, Kind::Object(_) | Kind::Union(_)) {
            return false;
        }
        let outer = schema.resolve(id);
        map.keys()
            .all(|k| matches!(self.keys.lookup(outer, o, k), KeyMatch::Unknown))
            && self.has_keys_of(inner, map)
    }

    /// Whether `v`, shaped like the value of `o`'s only property (`looks_like_only_field`), is
    /// taken as that value. Both readings are weighed (memoised, like a union's branches): as
    /// the field's value, and as the object itself. The field's value is taken when it recovers
    /// with no constraint broken, and otherwise when the object as given does no better
    /// (recovers with violations where the field's value errs, or errs too). So a value that is
    /// valid as given, such as an object of keys the schema keeps, stays as it is when moving
    /// it into the field would break that field (found by the fuzzer: recovering such a value
    /// again moved it, and the result broke a constraint). The outer object's own constraints
    /// are checked afterwards, on the reading taken.
    fn takes_as_only_field(&mut self, v: &Value, id: NodeId, o: &Object, depth: usize) -> bool {
        let [only] = o.properties.as_slice() else {
            return false;
        };
        let rid = self.schema.resolve(id);
        let as_field = if self.strict {
            // The move is a change, which the strict policy refuses: the value is the object
            // as given, unless that fails too (then the refusal is the error).
            2
        } else {
            rank(&self.memoised(v, rid, depth, Question::AsOnlyField, |w| {
                let base = w.path.len();
                push_key(&mut w.path, &only.name);
                let r = w.value(Cow::Borrowed(v), only.schema, depth + 1);
                w.path.truncate(base);
                r.map(|_| 0)
            }))
        };
        if as_field == 0 {
            return true;
        }
        let as_given = self.memoised(v, rid, depth, Question::AsGiven, |w| {
            w.object_given(Cow::Borrowed(v), id, o, depth, true)
                .map(|_| 0)
        });
        as_field <= rank(&as_given)
    }

    /// `v` made the value of `only`, the object's only property: `{"only": v}`, recovered.
    fn wrap_in_only_field(
        &mut self,
        v: &Value,
        only: &Property,
        depth: usize,
    ) -> Result<Value, Error> {
        self.change(
            WarningKind::Reshaped,
            2,
            format!(
                "made {} the value of the only field `{}`",
                describe_value(v),
                only.name
            ),
        )?;
        self.moved_into(&only.name);
        let base = self.path.len();
        push_key(&mut self.path, &only.name);
        let r = self.property(only, Some(Cow::Borrowed(v)), depth, None);
        self.path.truncate(base);
        let mut map = Map::new();
        if let Some(value) = r? {
            map.insert(only.name.clone(), value);
        }
        Ok(Value::Object(map))
    }

    /// Whether some key of `map` is a property of the object schema `node`, or of one of its
    /// branches when it is a union of objects.
    fn has_keys_of(&mut self, node: NodeId, map: &Map<String, Value>) -> bool {
        let schema = self.schema;
        let objects: Vec<NodeId> = match &schema.node(node).kind {
            Kind::Object(_) => vec![node],
            Kind::Union(branches) => branches.iter().map(|&b| schema.resolve(b)).collect(),
            _ => return false,
        };
        objects.into_iter().any(|id| {
            let Kind::Object(o) = &schema.node(id).kind else {
                return false;
            };
            map.keys()
                .any(|k| !matches!(self.keys.lookup(id, o, k), KeyMatch::Unknown))
        })
    }

    /// A JSON document inside a string, where an object or array is expected: decoded when
    /// it is what is expected (`wanted`); a string holding something else stays a string.
    /// Not inside a document that was itself decoded from a string: each decoding makes a new
    /// value, which the memoised choices above cannot share, so documents decoded within
    /// documents multiplied the work with each level (and JSON encoded twice inside JSON
    /// is not what models write).
    fn decode_string<'v>(
        &mut self,
        v: Cow<'v, Value>,
        wanted: fn(&Value) -> bool,
    ) -> Result<Cow<'v, Value>, Error> {
        let Value::String(s) = &*v else { return Ok(v) };
        let t = s.trim();
        if !(t.starts_with('{') || t.starts_with('[')) || self.in_document > 0 {
            return Ok(v);
        }
        // A document escaped once more (`[{\"id\": 1}]`, as a model writes JSON it was given
        // inside a string) is unescaped first, as the pipeline does with a whole reply.
        let unescaped = crate::sanitize::escaped_document(t);
        let text = unescaped.as_deref().unwrap_or(t);
        match crate::repair::parse(text, &crate::repair::RepairOptions::default()) {
            Ok(parsed) if wanted(&parsed.value) => {
                // What reading it changed is said with it: a text skipped is data left out.
                let mut said: Vec<&str> = Vec::new();
                if unescaped.is_some() {
                    said.push("took off a level of escaping");
                }
                for r in parsed.repairs.iter() {
                    if !said.contains(&r.kind.description()) {
                        said.push(r.kind.description());
                    }
                }
                let message = if said.is_empty() {
                    "decoded a JSON document given as a string".to_owned()
                } else {
                    format!(
                        "decoded a JSON document given as a string, which needed fixes: {}",
                        said.join("; ")
                    )
                };
                let cost = u32::try_from(said.len()).unwrap_or(u32::MAX);
                self.change(WarningKind::Coerced, cost.saturating_add(1), message)?;
                Ok(Cow::Owned(parsed.value))
            }
            _ => Ok(v),
        }
    }

    fn boolean(&mut self, v: Cow<'_, Value>, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        let b = match &*v {
            Value::Bool(_) => {
                if self.schema.is_constrained_at(id) {
                    self.check_value(id, &v);
                }
                return Ok(self.keep(v));
            }
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
        Ok(self.checked(id, Value::Bool(b)))
    }

    fn number_of(&mut self, v: &Value, id: NodeId, want: Want) -> Result<Option<Number>, Error> {
        match v {
            Value::Number(n) => Ok(Some(n.clone())),
            Value::String(s) => match coerce::number_from_text(s, want) {
                Ok(n) => Ok(Some(n)),
                Err(Reason::Ambiguous(why)) => Err(self.ambiguous(id, why)),
                Err(Reason::NoMatch) => Ok(None),
            },
            _ => Ok(None),
        }
    }

    fn number(&mut self, v: Cow<'_, Value>, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        if v.is_number() {
            if self.schema.is_constrained_at(id) {
                self.check_value(id, &v);
            }
            return Ok(self.keep(v));
        }
        let Some(n) = self.number_of(&v, id, Want::Number)? else {
            return Err(self.mismatch(id, &v));
        };
        self.change(
            WarningKind::Coerced,
            1,
            format!("read {} as the number {n}", describe_value(&v)),
        )?;
        Ok(self.checked(id, Value::Number(n)))
    }

    fn integer(&mut self, v: Cow<'_, Value>, id: NodeId) -> Result<Value, Error> {
        let v = self.unwrap_single(v)?;
        let Some(n) = self.number_of(&v, id, Want::Integer)? else {
            return Err(self.mismatch(id, &v));
        };
        let Some(i) = coerce::integer_from(&n) else {
            return Err(self.mismatch(id, &v));
        };
        if *v != Value::Number(i.clone()) {
            self.change(
                WarningKind::Coerced,
                1,
                format!("read {} as the integer {i}", describe_value(&v)),
            )?;
        }
        Ok(self.checked(id, Value::Number(i)))
    }

    fn string(&mut self, v: Cow<'_, Value>, id: NodeId) -> Result<Value, Error> {
        // A one-key wrapper object is kept as JSON text here (it may be the text wanted).
        let v = if v.is_array() {
            self.unwrap_single(v)?
        } else {
            v
        };
        let constrained = self.schema.is_constrained_at(id);
        match &*v {
            Value::String(s) => {
                if constrained {
                    self.check_str(id, s);
                }
                Ok(self.keep(v))
            }
            Value::Number(_) | Value::Bool(_) => {
                let text = coerce::scalar_text(&v).unwrap_or_default();
                self.change(
                    WarningKind::Coerced,
                    1,
                    format!("wrote {} as the string \"{text}\"", describe_value(&v)),
                )?;
                if constrained {
                    self.check_str(id, &text);
                } else if self.dry == 0 && maybe_rounded(&v) {
                    // An integer the value may hold rounded: its digits as the reply writes
                    // them, where the pipeline finds it did (see `as_text`).
                    self.charge(self.path.len());
                    self.as_text
                        .push((self.path.clone(), self.warnings.len() - 1));
                }
                Ok(Value::String(text))
            }
            Value::Object(_) | Value::Array(_) => {
                self.change(
                    WarningKind::Coerced,
                    3,
                    format!("wrote {} as JSON text in a string", describe_value(&v)),
                )?;
                if self.dry > 0 && !constrained {
                    return Ok(Value::Null);
                }
                let text = v.to_string();
                if constrained {
                    self.check_str(id, &text);
                } else if self.dry == 0 {
                    // (A constrained string is checked as this text: it stays.)
                    self.charge(self.path.len());
                    self.as_text
                        .push((self.path.clone(), self.warnings.len() - 1));
                }
                Ok(Value::String(text))
            }
            Value::Null => Err(self.mismatch(id, &v)),
        }
    }

    fn array(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        a: &Array,
        depth: usize,
        wrapped: bool,
    ) -> Result<Value, Error> {
        // Where the reply was cut off among the items: those of the array as given, or of a
        // wrapper object around it (`{"records": [...`, its key one segment further down);
        // not of a document in a string, nor of a value wrapped in an array.
        let own = v.is_array();
        let (items, wrapping, wrapper) = self.array_items(v, id, a.items, wrapped)?;
        let cut = match wrapper {
            Some(key) => self.cut_below(|| key),
            None if own => self.cut,
            None => None,
        };
        let tuple_len = if a.items.is_none() && !a.prefix.is_empty() {
            Some(a.prefix.len())
        } else {
            None
        };
        let mut out = Vec::with_capacity(items.len());
        let base = self.path.len();
        for (i, item) in items.enumerate() {
            let schema = match (a.prefix.get(i), a.items) {
                (Some(p), _) => *p,
                (None, Some(items)) => items,
                (None, None) if tuple_len.is_some() => {
                    self.past_tuple(base, i, &item)?;
                    continue;
                }
                (None, None) => {
                    out.push(self.keep(item));
                    continue;
                }
            };
            // Paths name the item where it ends up: after a dropped item, one place earlier.
            let at = out.len();
            if at != i {
                self.moved(&i.to_string(), Some(&at.to_string()));
            }
            let saved = self.saved();
            push_index(&mut self.path, at);
            self.wrapped = wrapping;
            // The item the reply was cut off in is recovered with nothing filled in: what
            // the model did not finish is not made up. Where it cannot be, it is dropped.
            let cut = self.cut_at(cut, || i.to_string());
            self.next_cut = cut;
            let invent = self.invent;
            self.invent = invent && cut.is_none();
            let mut r = self.value(item, schema, depth + 1);
            self.invent = invent;
            if wrapping {
                // An error inside a value wrapped in an array is where the reply has it.
                r = r.map_err(|e| e.unwrapped_at(base));
                self.overflow = self.overflow.take().map(|e| e.unwrapped_at(base));
            }
            let r = match r {
                Err(e) if (cut.is_some() || self.drop_items) && !e.kind().is_limit() => {
                    self.drop_item(saved, i, e, cut.is_some())
                }
                r => r.map(Some),
            };
            self.path.truncate(base);
            if let Some(v) = r? {
                out.push(v);
            }
        }
        match tuple_len {
            Some(len) if out.len() < len => Err(self.short_tuple(id, out.len(), len)),
            _ => Ok(Value::Array(out)),
        }
    }

    /// The items to recover against an array schema: the array's, the array inside a
    /// `{"results": [...]}` wrapper (whose key is given; the wrapper may hold scalars
    /// besides, `{"results": [...], "count": 2}`, which are left out and named), or the
    /// value wrapped in a one-element array (unless it was just wrapped: a recursive schema
    /// would wrap it forever). The flag says it was.
    #[inline(never)]
    fn array_items<'v>(
        &mut self,
        v: Cow<'v, Value>,
        id: NodeId,
        item: Option<NodeId>,
        wrapped: bool,
    ) -> Result<(Items<'v>, bool, Option<String>), Error> {
        let was_string = v.is_string();
        let v = self.decode_string(v, Value::is_array)?;
        // (`value` restores the count when this array is done.)
        self.in_document += u32::from(was_string && !v.is_string());
        // One array, and nothing else but scalars (a count, a page token, a status).
        let wrapper = match &*v {
            Value::Object(map) => {
                let mut arrays = map.iter().filter(|(_, x)| x.is_array());
                match (arrays.next(), arrays.next()) {
                    (Some((key, _)), None) if map.values().all(|x| !x.is_object()) => {
                        Some((key.clone(), map))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        // `{"tags": [...]}` is no wrapper when the items are objects with a `tags` field: it
        // is one item (and so with any of its keys a field of the items).
        let schema = self.schema;
        let wrapper = wrapper.filter(|(_, map)| {
            let Some(item) = item.map(|i| schema.resolve(i)) else {
                return true;
            };
            match &schema.node(item).kind {
                Kind::Object(o) => map
                    .keys()
                    .all(|key| matches!(self.keys.lookup(item, o, key), KeyMatch::Unknown)),
                _ => true,
            }
        });
        if let Some((key, map)) = wrapper {
            let others: Vec<String> = map
                .keys()
                .filter(|k| **k != key)
                .map(|k| format!("{k:?}"))
                .collect();
            let message = if others.is_empty() {
                format!("took the array out of the wrapper object {{\"{key}\": [...]}}")
            } else {
                format!(
                    "took the array out of the wrapper object {{\"{key}\": [...]}}, leaving \
                     out its other members {}",
                    others.join(", ")
                )
            };
            let cost = 2 + u32::try_from(others.len()).unwrap_or(u32::MAX).min(8);
            self.change(WarningKind::Reshaped, cost, message)?;
            self.moved(&key, None);
            return Ok((Items::of(array_in(v)), false, Some(key)));
        }
        if v.is_array() {
            return Ok((Items::of(array_in(v)), false, None));
        }
        if wrapped {
            return Err(self.mismatch(id, &v));
        }
        self.change(
            WarningKind::Reshaped,
            WRAP_COST,
            format!("wrapped {} in a one-element array", describe_value(&v)),
        )?;
        self.moved_into("0");
        let items = match v {
            Cow::Owned(v) => Items::Owned(vec![v].into_iter()),
            Cow::Borrowed(v) => Items::Borrowed(std::slice::from_ref(v).iter()),
        };
        Ok((items, true, None))
    }

    #[inline(never)]
    fn past_tuple(&mut self, base: usize, i: usize, item: &Value) -> Result<(), Error> {
        push_index(&mut self.path, i);
        let r = self.change(
            WarningKind::ItemDropped,
            2,
            format!("dropped {} past the end of a tuple", describe_value(item)),
        );
        self.path.truncate(base);
        r
    }

    /// An item that cannot be recovered, dropped, its changes undone: with
    /// `drop_invalid_items`, or (`cut`) the item the reply was cut off in, which cannot be
    /// recovered without filling in what the model did not write.
    #[inline(never)]
    fn drop_item(
        &mut self,
        saved: Saved,
        i: usize,
        e: Error,
        cut: bool,
    ) -> Result<Option<Value>, Error> {
        self.restore(saved);
        let (cost, message) = if cut {
            (
                1,
                format!("dropped item {i}, which the reply was cut off in: {e}"),
            )
        } else {
            (4, format!("dropped item {i} of the reply's array: {e}"))
        };
        self.change(WarningKind::ItemDropped, cost, message)
            .map(|()| None)
    }

    #[cold]
    #[inline(never)]
    fn short_tuple(&self, id: NodeId, found: usize, len: usize) -> Error {
        Error::new(
            ErrorKind::Mismatch,
            self.path.clone(),
            self.schema.describe(id),
            format!("an array of {found} items, not {len}"),
        )
    }

    fn object(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        o: &Object,
        depth: usize,
    ) -> Result<Value, Error> {
        if self.looks_like_only_field(&v, id, o) {
            return self.maybe_only_field(v, id, o, depth);
        }
        self.object_given(v, id, o, depth, true)
    }

    /// Whether the schema takes keys other than its properties (`additionalProperties`,
    /// `patternProperties`): a one-key object is then no wrapper, its key being data.
    fn extras_allowed(&self, o: &Object) -> bool {
        matches!(o.additional, Additional::Allow | Additional::Schema(_))
            || !o.pattern_properties.is_empty()
    }

    /// `object` for a value shaped like the value of the object's only property: taken as
    /// that value or as the object itself (`takes_as_only_field`). The weighings are memoised
    /// by the value's address, so a value this call owns opens a scope of its own and is lent
    /// to what follows: every address under it stays put until the scope closes.
    #[inline(never)]
    fn maybe_only_field(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        o: &Object,
        depth: usize,
    ) -> Result<Value, Error> {
        self.scoped(matches!(v, Cow::Owned(_)), |w| {
            match o.properties.as_slice() {
                [only] if w.takes_as_only_field(&v, id, o, depth) => {
                    w.wrap_in_only_field(&v, only, depth)
                }
                _ => w.object_given(Cow::Borrowed(&*v), id, o, depth, true),
            }
        })
    }

    /// `object` for the value as given, taken as the object itself; `unwrap`, whether a
    /// wrapper around it may be taken off (`object_map`).
    fn object_given(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        o: &Object,
        depth: usize,
        unwrap: bool,
    ) -> Result<Value, Error> {
        let (map, reshaped) = self.object_map(v, id, o, depth, unwrap)?;
        // The member the cut is in, by its key as given (not in a wrapper's object or a
        // string's, where it may be a level further down).
        let cut = self.cut.filter(|_| !reshaped).and_then(|d| {
            let key = self.cut_path.get(usize::try_from(d).ok()?)?;
            Some((key.clone(), d + 1))
        });
        if reshaped && self.holds_only_fields(&map, id, o) {
            // What came out of a string, an array or a wrapper may be the only field's value
            // given alone: the rule is weighed on it too, so that what recovery gives is a
            // value it would leave as it is (found by the fuzzer: `{"w": {"a": 1}}` for
            // `{"only": {"a": ...}}` came out as `{"a": 1}`, which recovering again wrapped).
            if let Some(r) = self.reshaped_only_field(&map, id, o, depth) {
                return r;
            }
        }
        // Every key a property by its exact name and every required property present: the
        // common case, walked in the map's order (in place when the map is owned).
        let oid = self.schema.resolve(id);
        let all_exact = map.keys().all(|k| self.keys.exact(oid, o, k).is_some());
        if all_exact
            && o.properties
                .iter()
                .all(|p| !p.required || map.contains_key(&p.name))
        {
            return match map {
                Cow::Owned(map) => self.exact_owned(map, oid, o, depth, cut),
                Cow::Borrowed(map) => {
                    let keys = self.schema.is_constrained_at(id);
                    self.exact_borrowed(map, oid, o, depth, keys, cut)
                }
            };
        }
        self.members(map, id, o, depth, cut)
    }

    /// What came out of a reshape (`object_map`), shaped like the only field's value, made that
    /// value when it is taken as it (`takes_as_only_field`); `None` when it is not. (Weighed
    /// on a copy in a scope of its own; the copy is also what is recovered, as the wrapped
    /// value was before.)
    #[inline(never)]
    fn reshaped_only_field(
        &mut self,
        map: &Map<String, Value>,
        id: NodeId,
        o: &Object,
        depth: usize,
    ) -> Option<Result<Value, Error>> {
        let [only] = o.properties.as_slice() else {
            return None;
        };
        let probe = Value::Object(map.clone());
        self.scoped(true, |w| {
            w.takes_as_only_field(&probe, id, o, depth)
                .then(|| w.wrap_in_only_field(&probe, only, depth))
        })
    }

    /// The map to recover against an object schema: the value's, after a JSON document in a
    /// string is decoded, an object is taken out of a one-element array, or (when `unwrap`)
    /// out of a `{"TypeName": {...}}` wrapper; and whether any of these was done.
    #[inline(never)]
    fn object_map<'v>(
        &mut self,
        v: Cow<'v, Value>,
        id: NodeId,
        o: &Object,
        depth: usize,
        unwrap: bool,
    ) -> Result<(Cow<'v, Map<String, Value>>, bool), Error> {
        let was_string = v.is_string();
        let mut v = self.decode_string(v, Value::is_object)?;
        let decoded = was_string && !v.is_string();
        // (`value` restores the count when this object is done.)
        self.in_document += u32::from(decoded);
        let mut reshaped = decoded;
        if o.properties.is_empty() && matches!(o.additional, Additional::Schema(_)) {
            if let Some(map) = self.pairs_to_map(&v)? {
                return Ok((Cow::Owned(map), true));
            }
        }
        if v.as_array()
            .is_some_and(|items| items.len() == 1 && items[0].is_object())
        {
            self.change(
                WarningKind::Reshaped,
                2,
                "took the only object out of a one-element array".to_owned(),
            )?;
            self.moved("0", None);
            v = only_item(v);
            reshaped = true;
        }
        let oid = self.schema.resolve(id);

        // {"TypeName": {...}} or {"result": {...}} around the expected object; not when the
        // schema takes other keys (`additionalProperties`), where the key is data, nor when
        // the wrapper recovers better as it is (`takes_off_wrapper`). Wrappers inside
        // wrappers are all taken off (`{"response": {"data": {...}}}`): what comes out is
        // then no wrapper itself, so recovering it again leaves it as it is.
        //
        // The weighings are memoised by the values' addresses: the chain is weighed on `v`
        // as it is, in one scope (of its own where `v` is owned), and the wrappers are
        // taken off the value after. Weighed as each came off, in a scope for each, every
        // weighing under a wrapper was made again for each wrapper above it (found by the
        // fuzzer: 3 KB of nested wrappers took seconds, 1 MB under 120 of them 27 s).
        let mut taken = 0;
        let may_wrap = unwrap
            && !o.properties.is_empty()
            && !self.extras_allowed(o)
            && v.as_object().is_some_and(|m| m.len() == 1);
        if may_wrap {
            let chain = &*v;
            self.scoped(matches!(v, Cow::Owned(_)), |w| {
                let mut at = chain;
                while let Some((key, inner)) = at
                    .as_object()
                    .filter(|m| m.len() == 1)
                    .and_then(|m| m.iter().next())
                {
                    if !inner.is_object() || w.keys.lookup(oid, o, key) != KeyMatch::Unknown {
                        break;
                    }
                    if !w.takes_off_wrapper(at, id, o, depth) {
                        break;
                    }
                    w.change(
                        WarningKind::Reshaped,
                        2,
                        format!("took the object out of the wrapper {{\"{key}\": {{...}}}}"),
                    )?;
                    w.moved(key, None);
                    at = inner;
                    taken += 1;
                }
                Ok::<(), Error>(())
            })?;
        }
        for _ in 0..taken {
            v = only_member(v);
            reshaped = true;
        }
        match v {
            Cow::Owned(Value::Object(map)) => Ok((Cow::Owned(map), reshaped)),
            Cow::Borrowed(Value::Object(map)) => Ok((Cow::Borrowed(map), reshaped)),
            v => Err(self.mismatch(id, &v)),
        }
    }

    /// Whether the one-key wrapper `v` around an object (`{"result": {...}}`, its key not a
    /// property) is taken off. Both readings are weighed and memoised, as for the only field
    /// (`takes_as_only_field`): the value inside as the object, and the wrapper as the object
    /// with its key read as data (kept or dropped as unknown keys are). The wrapper is taken
    /// off when what it holds recovers with no constraint broken, and otherwise when the
    /// wrapper as it is does no better. So an unknown key kept with an object value stays
    /// when taking it off would break a constraint (found by the fuzzer: recovering such a
    /// value again took it off, and the result broke the object's constraints). Called in a
    /// scope in which `v`'s address stays put (`object_map`'s).
    #[inline(never)]
    fn takes_off_wrapper(&mut self, v: &Value, id: NodeId, o: &Object, depth: usize) -> bool {
        let Some(inner) = v.as_object().and_then(|m| m.values().next()) else {
            return false;
        };
        let rid = self.schema.resolve(id);
        let unwrapped = if self.strict {
            // Taking it off is a change, which the strict policy refuses.
            2
        } else {
            rank(&self.memoised(inner, rid, depth, Question::Unwrapped, |w| {
                w.weigh_object(inner, id, o, depth, true)
            }))
        };
        unwrapped == 0
            || unwrapped
                <= rank(&self.memoised(v, rid, depth, Question::Kept, |w| {
                    w.weigh_object(v, id, o, depth, false)
                }))
    }

    /// A reading of `v` as the object `id` for [`takes_off_wrapper`](Self::takes_off_wrapper):
    /// with a wrapper in it taken off (`unwrap`) or not, and `id`'s own constraints checked on
    /// what comes out, as [`checked_container`](Self::checked_container) checks them (found
    /// by the fuzzer: `{"k": {"a": 1}}` against an object whose `dependentRequired` asks for
    /// `name` beside `a` was taken out of its wrapper, which broke it, where as given it
    /// broke nothing).
    fn weigh_object(
        &mut self,
        v: &Value,
        id: NodeId,
        o: &Object,
        depth: usize,
        unwrap: bool,
    ) -> Result<usize, Error> {
        let before = self.cost;
        let value = if unwrap {
            self.object(Cow::Borrowed(v), id, o, depth)?
        } else {
            self.object_given(Cow::Borrowed(v), id, o, depth, false)?
        };
        if self.schema.is_constrained_at(id) {
            // (While weighing, the value made is a sketch: the whole is `v` where nothing
            // changed.)
            let whole = if self.dry > 0 {
                (self.cost == before).then_some(v)
            } else {
                Some(&value)
            };
            self.check_shape(id, &value, whole);
        }
        Ok(0)
    }

    /// An array of `{"key": …, "value": …}` objects where a map is expected: the map. It is
    /// how the `openai-strict` and `gemini` dialects write a map, which they cannot express
    /// (see `schema::dialect`), so a reply that follows such a schema deserializes into the
    /// `HashMap` it stands for. Keys that are numbers or booleans are read as their text; a key
    /// given twice is ambiguous. `None` when `v` is not such an array.
    #[inline(never)]
    fn pairs_to_map(&mut self, v: &Value) -> Result<Option<Map<String, Value>>, Error> {
        let Some(items) = v.as_array() else {
            return Ok(None);
        };
        let pair = |item: &Value| -> Option<(String, Value)> {
            let m = item.as_object().filter(|m| m.len() == 2)?;
            let key = coerce::scalar_text(m.get("key")?)
                .or_else(|| m.get("key")?.as_str().map(str::to_owned))?;
            Some((key, m.get("value")?.clone()))
        };
        let mut map = Map::with_capacity(items.len());
        for item in items {
            let Some((key, value)) = pair(item) else {
                return Ok(None);
            };
            if map.contains_key(&key) {
                return Err(Error::new(
                    ErrorKind::Ambiguous,
                    self.path.clone(),
                    "a map, written as {\"key\", \"value\"} objects with different keys",
                    format!("the key {} given twice", excerpt(&key, 40)),
                ));
            }
            map.insert(key, value);
        }
        self.change(
            WarningKind::Reshaped,
            1,
            format!(
                "read an array of {} {{\"key\", \"value\"}} objects as a map",
                items.len()
            ),
        )?;
        Ok(Some(map))
    }

    /// `object`'s common case on an owned map: the values recovered in place, without
    /// rebuilding (and rehashing) the map.
    fn exact_owned(
        &mut self,
        mut map: Map<String, Value>,
        oid: NodeId,
        o: &Object,
        depth: usize,
        cut: Option<(String, u32)>,
    ) -> Result<Value, Error> {
        let base = self.path.len();
        let mut dropped = Vec::new();
        for (key, slot) in map.iter_mut() {
            let Some(p) = self.keys.exact(oid, o, key).map(|i| &o.properties[i]) else {
                continue;
            };
            let given = Cow::Owned(std::mem::take(slot));
            push_key(&mut self.path, key);
            let cut = cut.as_ref().filter(|(k, _)| k == key).map(|&(_, d)| d);
            let r = self.property(p, Some(given), depth, cut);
            self.path.truncate(base);
            match r? {
                Some(v) => *slot = v,
                None => dropped.push(key.clone()),
            }
        }
        if !dropped.is_empty() {
            // (One pass: removing each from an ordered map would shift the rest each time.)
            let dropped: HashSet<String> = dropped.into_iter().collect();
            map.retain(|key, _| !dropped.contains(key));
        }
        Ok(Value::Object(map))
    }

    /// `object` in general: keys matched to properties (`match_keys`), then the extra
    /// values that have a schema recovered, then each property, given or missing.
    fn members<'v>(
        &mut self,
        map: Cow<'v, Map<String, Value>>,
        id: NodeId,
        o: &Object,
        depth: usize,
        cut: Option<(String, u32)>,
    ) -> Result<Value, Error> {
        let Matched {
            slots,
            names,
            extras,
            cut_at,
        } = self.match_keys(map, id, o, cut.as_ref().map(|(k, _)| k.as_str()))?;
        let cut = cut.map(|(_, d)| d);
        let base = self.path.len();
        let mut kept = Vec::with_capacity(extras.len());
        for (j, (key, extra)) in extras.into_iter().enumerate() {
            let v = match extra {
                Extra::Kept(v) => v,
                // A map's member at an items' place, whose values the items' schema is,
                // is met there as a property is (where an item fails, it fails there).
                Extra::Recover(v, s) => {
                    let cut = cut.filter(|_| cut_at == Some(CutAt::Extra(j)));
                    let r = self.at_key(base, &key, |w| {
                        if !w.holes.is_empty()
                            && w.holds_the_items(depth, s)
                            && w.mark_hole(depth, s)
                        {
                            w.failed_hole(v, s, depth + 1).map(Some)
                        } else {
                            w.map_value(v, s, depth, cut)
                        }
                    })?;
                    match r {
                        Some(v) => v,
                        None => continue,
                    }
                }
            };
            kept.push((key, v));
        }
        // (As many members as were given: an object of few keys against a schema of many
        // properties is no larger than its keys.)
        let given = slots.iter().filter(|s| s.is_some()).count();
        let mut out = Map::with_capacity(given + kept.len());
        for (i, ((p, slot), name)) in o.properties.iter().zip(slots).zip(names).enumerate() {
            push_key(&mut self.path, &p.name);
            let r = self.property(
                p,
                slot,
                depth,
                cut.filter(|_| cut_at == Some(CutAt::Slot(i))),
            );
            self.path.truncate(base);
            if let Some(v) = r? {
                out.insert(name.unwrap_or_else(|| p.name.clone()), v);
            }
        }
        out.extend(kept);
        Ok(Value::Object(out))
    }

    /// Each key of `map` matched to a property (exactly, by alias, loosely) or kept, recovered
    /// later, or dropped as an extra; an object none of whose keys is a property is an error.
    #[inline(never)]
    fn match_keys<'v>(
        &mut self,
        map: Cow<'v, Map<String, Value>>,
        id: NodeId,
        o: &Object,
        cut_key: Option<&str>,
    ) -> Result<Matched<'v>, Error> {
        let oid = self.schema.resolve(id);
        let base = self.path.len();
        let mut slots: Vec<Option<Cow<'v, Value>>> = vec![None; o.properties.len()];
        // The key strings of exact matches, reused for the output map.
        let mut names: Vec<Option<String>> = vec![None; o.properties.len()];
        let mut exact: Vec<bool> = vec![false; o.properties.len()];
        let mut extras: Vec<(String, Extra<'v>)> = Vec::new();
        let mut any_known = false;
        // An object of extras only is one when the schema takes extras, unless its required
        // fields would all be filled in: a value made of defaults is never a recovery.
        let takes_extras = matches!(o.additional, Additional::Allow | Additional::Schema(_))
            || (self.keep_unknown && o.additional == Additional::Unspecified);
        let extras_only_ok =
            takes_extras && !(self.invent && o.properties.iter().any(|p| p.required));
        // Described only if no key turns out to be known (the error below).
        let found_keys = if o.properties.is_empty()
            || extras_only_ok
            || map.keys().any(|k| self.keys.exact(oid, o, k).is_some())
        {
            String::new()
        } else {
            describe_keys(&map)
        };
        let members = match map {
            Cow::Owned(map) => Members::Owned(map.into_iter()),
            Cow::Borrowed(map) => Members::Borrowed(map.iter()),
        };
        // (A map's keys, with no properties or aliases to match, need no looking up.)
        let no_names = o.properties.is_empty() && o.aliases.is_empty();
        // Where the member the reply was cut off in goes, set as it is placed.
        let mut cut_at = None;
        for (key, value) in members {
            let cut_here = cut_key == Some(key.as_str());
            let m = if no_names {
                KeyMatch::Unknown
            } else {
                self.keys.lookup(oid, o, &key)
            };
            // A key that matches a pattern is valid as written: not renamed or dropped.
            if !matches!(m, KeyMatch::Exact(_)) {
                if let Some(s) = pattern_property(o, &key) {
                    any_known = true;
                    cut_at = cut_at.or(cut_here.then_some(CutAt::Extra(extras.len())));
                    extras.push((key, Extra::Recover(value, s)));
                    continue;
                }
            }
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
                    cut_at = cut_at.or(cut_here.then_some(CutAt::Slot(i)));
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
                        self.moved(&key, Some(&name));
                        slots[i] = Some(value);
                        cut_at = cut_at.or(cut_here.then_some(CutAt::Slot(i)));
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
                    Additional::Allow => {
                        self.kept_member(base, &key);
                        extras.push((key, Extra::Kept(self.keep(value))));
                    }
                    Additional::Unspecified if self.keep_unknown => {
                        self.kept_member(base, &key);
                        extras.push((key, Extra::Kept(self.keep(value))));
                    }
                    Additional::Schema(s) => {
                        cut_at = cut_at.or(cut_here.then_some(CutAt::Extra(extras.len())));
                        extras.push((key, Extra::Recover(value, s)));
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
        if !any_known && !o.properties.is_empty() && !extras_only_ok {
            return Err(Error::new(
                ErrorKind::Mismatch,
                self.path.clone(),
                self.schema.describe(id),
                found_keys,
            ));
        }

        Ok(Matched {
            slots,
            names,
            extras,
            cut_at,
        })
    }

    /// A member kept as written under `key`, in the object at `base`: where items are read
    /// one by one, their places in it are reached ([`keeps_holes`](Self::keeps_holes)).
    fn kept_member(&mut self, base: usize, key: &str) {
        if !self.holes.is_empty() {
            self.path.truncate(base);
            push_key(&mut self.path, key);
            self.keeps_holes();
            self.path.truncate(base);
        }
    }

    /// Runs `f` with the path extended by `key`.
    fn at_key<T>(
        &mut self,
        base: usize,
        key: &str,
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.path.truncate(base);
        push_key(&mut self.path, key);
        let r = f(self);
        self.path.truncate(base);
        r
    }

    /// A map's value (an extra member recovered against `additionalProperties`). Where the
    /// reply was cut off in it, it is recovered with nothing filled in, and where it cannot
    /// be, the member is dropped (`None`), as an array's item is.
    fn map_value(
        &mut self,
        v: Cow<'_, Value>,
        s: NodeId,
        depth: usize,
        cut: Option<u32>,
    ) -> Result<Option<Value>, Error> {
        let saved = self.saved();
        self.next_cut = cut;
        let invent = self.invent;
        self.invent = invent && cut.is_none();
        let r = self.value(v, s, depth + 1);
        self.invent = invent;
        match r {
            Err(e) if cut.is_some() && !e.kind().is_limit() => {
                self.drop_cut_member(saved, e).map(|()| None)
            }
            r => r.map(Some),
        }
    }

    /// A map's member the reply was cut off in, which cannot be recovered without filling in
    /// what the model did not write: dropped, its changes undone, as an array's item is.
    #[inline(never)]
    fn drop_cut_member(&mut self, saved: Saved, e: Error) -> Result<(), Error> {
        self.restore(saved);
        self.change(
            WarningKind::ItemDropped,
            1,
            format!("dropped the member the reply was cut off in: {e}"),
        )
    }

    /// One property: recover it if given, fill it in if required and missing.
    fn property(
        &mut self,
        p: &Property,
        slot: Option<Cow<'_, Value>>,
        depth: usize,
        cut: Option<u32>,
    ) -> Result<Option<Value>, Error> {
        let failed = !self.holes.is_empty() && self.mark_hole(depth, p.schema);
        match slot {
            Some(v) if v.is_null() && !self.schema.is_nullable(p.schema) => {
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
                self.invent(p.schema, WarningKind::NullReplaced, 3, "null", depth + 1)
                    .map(Some)
            }
            Some(v) => {
                let saved = self.saved();
                let r = if failed {
                    self.failed_hole(v, p.schema, depth + 1)
                } else {
                    self.next_cut = cut;
                    self.value(v, p.schema, depth + 1)
                };
                match r {
                    Ok(v) => Ok(Some(v)),
                    // Last resort, field by field: an optional field that cannot be recovered
                    // is dropped (never silently), so the required ones can still be kept.
                    Err(e) if !p.required && !self.strict && !e.kind().is_limit() => {
                        self.restore(saved);
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
                self.invent(p.schema, WarningKind::MissingField, 5, "nothing", depth + 1)
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

    /// A `null` where a value that is not nullable is expected (an array item, a map's value,
    /// the root), under `Policy::NoInvent`: the path names it.
    #[cold]
    #[inline(never)]
    fn null_not_replaced(&self, id: NodeId) -> Error {
        Error::new(
            ErrorKind::Forbidden,
            self.path.clone(),
            format!("{} (never filled in)", self.schema.describe(id)),
            "null",
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
        depth: usize,
    ) -> Result<Value, Error> {
        let (value, how) = if let Some(d) = self.schema.default_of(id) {
            (d.clone(), "the schema default")
        } else if self.schema.is_nullable(id) {
            (Value::Null, "null")
        } else if let Some(v) = self.empty_value(id, 0) {
            (v, self.empty_kind(id))
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
        // What is filled in must meet the constraints too: nothing is made up to fit them.
        if self.schema.default_of(id).is_none()
            && !self.schema.is_nullable(id)
            && !value.is_null()
            && self.schema.has_checks()
        {
            self.check_invented(&value, id, depth);
        } else if self.schema.is_constrained_at(id) {
            self.check_value(id, &value);
        }
        Ok(value)
    }

    /// Checks an empty value made for `id` as any value is checked, by walking it (it has the
    /// shape, so the walk changes nothing; what it would change, in a `default` inside it, is
    /// not kept: the value is filled in as made).
    #[inline(never)]
    fn check_invented(&mut self, value: &Value, id: NodeId, depth: usize) {
        let saved = self.saved();
        let moves = self.moves.len();
        match self.value(Cow::Owned(value.clone()), id, depth) {
            Ok(_) => self.warnings.truncate(saved.warnings),
            Err(_) => {
                self.restore(saved);
                if self.schema.is_constrained_at(id) {
                    self.check_value(id, value);
                }
            }
        }
        self.moves.truncate(moves);
    }

    /// What [`empty_value`](Self::empty_value) of `id` is, said in a warning: the least value
    /// an integer with a positive `minimum` allows, the one value an enum or `const` allows,
    /// else the type's empty value.
    fn empty_kind(&self, id: NodeId) -> &'static str {
        match &self.schema.node(self.schema.resolve(id)).kind {
            Kind::Integer {
                minimum: Some(m), ..
            } if *m > 0.0 => "the least value its schema allows,",
            Kind::Enum(_) => "the one value its schema allows,",
            _ => "the empty value",
        }
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
            // A tuple's empty value has its items: the empty value of each.
            Kind::Array(a) => Value::Array(
                a.prefix
                    .iter()
                    .map(|p| {
                        if self.schema.is_nullable(*p) {
                            Some(Value::Null)
                        } else {
                            self.empty_value(*p, depth + 1)
                        }
                    })
                    .collect::<Option<_>>()?,
            ),
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

    /// The common case of `object` on a borrowed map (every key a property by its exact name,
    /// every required property present): the same walk in the map's order, into a new map.
    /// While a union weighs, the map is left empty, or, with `keys` (for the checks that count
    /// them), has the keys with `null`s.
    fn exact_borrowed(
        &mut self,
        map: &Map<String, Value>,
        oid: NodeId,
        o: &Object,
        depth: usize,
        keys: bool,
        cut: Option<(String, u32)>,
    ) -> Result<Value, Error> {
        let base = self.path.len();
        let mut out = Map::new();
        for (key, given) in map {
            let Some(p) = self.keys.exact(oid, o, key).map(|i| &o.properties[i]) else {
                continue;
            };
            let given = Cow::Borrowed(given);
            let cut = cut.as_ref().filter(|(k, _)| k == key).map(|&(_, d)| d);
            let v = self.at_key(base, key, |w| w.property(p, Some(given), depth, cut))?;
            match v {
                Some(v) if self.dry == 0 => drop(out.insert(key.clone(), v)),
                Some(_) if keys => drop(out.insert(key.clone(), Value::Null)),
                _ => {}
            }
        }
        Ok(Value::Object(out))
    }

    /// Every branch is weighed (see `choose`); the cheapest wins (the first on a tie), and only
    /// it is recovered for real. A value that names its branch (`tagged_branch`) is that
    /// branch's, unweighed.
    fn union(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        rid: NodeId,
        branches: &[NodeId],
        depth: usize,
        wrapped: bool,
    ) -> Result<Value, Error> {
        // A value that names two branches as serde's tagged enums name one is no choice to
        // weigh: the model's words name both.
        if let Some(why) = self.names_several(&v, branches) {
            return Err(self.ambiguous(id, why));
        }
        // A tagged enum's value names its branch by a constant property (serde's tag): that
        // branch alone is tried, so a valid value costs one branch and no copy.
        if let Some(tagged) = self.tagged_branch(&v, branches) {
            self.wrapped = wrapped;
            self.next_cut = self.cut;
            return self.value(v, tagged, depth);
        }
        if !self.holes.is_empty() {
            let owned = matches!(v, Cow::Owned(_));
            let only = self.scoped(owned, |w| {
                w.branch_apart_from_the_items(&v, rid, branches, depth, wrapped)
            });
            if let Some(b) = only {
                self.wrapped = wrapped;
                self.next_cut = self.cut;
                let r = self.value(v, branches[b], depth);
                return r.map_err(|e| self.at_the_tag(e, branches));
            }
            self.weighs_the_hole();
        }
        // The branches borrow the value (see `scoped`).
        self.scoped(matches!(v, Cow::Owned(_)), |w| {
            match w.choose(&v, id, rid, branches, depth, wrapped) {
                Ok((_, cost)) if w.dry > 0 => {
                    w.cost += cost;
                    Ok(Value::Null)
                }
                Ok((b, _)) => {
                    w.wrapped = wrapped;
                    w.next_cut = w.cut;
                    w.value(Cow::Borrowed(&*v), branches[b], depth)
                }
                Err(e) => Err(w.at_the_tag(e, branches)),
            }
        })
    }

    /// A union's error where no branch took the value: where it is at a serde tag (a
    /// property every object branch fixes to a string of its own), it names every tag, not
    /// only the one the branch nearest the value fixes (`{"type": "scroll"}` expects one of
    /// `"search"`, `"click"`, `"finish"`, not `"search"`).
    fn at_the_tag(&self, e: Error, branches: &[NodeId]) -> Error {
        if e.kind() != ErrorKind::Mismatch {
            return e;
        }
        let Some(name) = e
            .path()
            .strip_prefix(self.path.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|rest| !rest.contains('/'))
        else {
            return e;
        };
        let name = name.replace("~1", "/").replace("~0", "~");
        let mut tags = Vec::new();
        for &b in branches {
            let Kind::Object(o) = &self.schema.node(self.schema.resolve(b)).kind else {
                continue;
            };
            match tag_of(self.schema, o, &name) {
                Some(t) => tags.push(describe_value(t)),
                None => return e,
            }
        }
        if tags.len() < 2 {
            return e;
        }
        Error::new(
            e.kind(),
            e.path(),
            format!("one of {} for \"{name}\"", tags.join(", ")),
            e.found(),
        )
    }

    /// Runs `f` in a scope of memoised choices of its own when the value it weighs is
    /// `owned` by the caller (or no scope is open). Choices are keyed by the weighed values'
    /// addresses: a value the caller owns, and everything under it, stays put only until the
    /// caller returns, so its choices must not outlive the call.
    #[inline]
    fn scoped<R>(&mut self, owned: bool, f: impl FnOnce(&mut Self) -> R) -> R {
        let owner = owned || self.scopes.is_empty();
        if owner {
            self.scopes.push(HashMap::new());
        }
        let r = f(self);
        if owner {
            self.scopes.pop();
        }
        r
    }

    /// Which branch of a union fits `v` best, and at what cost: each branch recovered without
    /// keeping anything, once per (union, value) in a scope.
    fn choose(
        &mut self,
        v: &Value,
        id: NodeId,
        rid: NodeId,
        branches: &[NodeId],
        depth: usize,
        wrapped: bool,
    ) -> Result<(usize, u64), Error> {
        self.memoised(v, rid, depth, Question::Fit { wrapped }, |w| {
            let saved_len = w.warnings.len();
            let saved_cost = w.cost;
            // The cheapest branch, the first of those; else the error that got deepest into
            // the value (it says most), the first of those.
            let mut best: Option<(usize, u64)> = None;
            let mut deepest: Option<(usize, Error)> = None;
            // A branch that would wrap the value in a one-element array costs at least the
            // wrap: it is weighed after the others, and not at all where one of them costs
            // less (or as little, coming first). The outcome is the same as weighing every
            // branch in order. (Weighed first, the wrap of a recursive union's own array
            // went down the whole reply a level and two frames deeper at each step, and met
            // the limits that the value itself was far from.) The items' places count what
            // recovery meets, so there every branch is weighed, in order.
            let defer = !wrapped && w.holes.is_empty() && wrappable(v);
            for later in [false, true] {
                for (i, b) in branches.iter().enumerate() {
                    if defer && w.is_array(*b) != later {
                        continue;
                    }
                    if later && best.is_some_and(|(j, c)| (c, j) < (WRAP_COST.into(), i)) {
                        continue;
                    }
                    w.wrapped = wrapped;
                    w.next_cut = w.cut;
                    let r = w.value(Cow::Borrowed(v), *b, depth);
                    let cost = w.cost - saved_cost;
                    w.cost = saved_cost;
                    w.warnings.truncate(saved_len);
                    match r {
                        Ok(_) => {
                            if best.is_none_or(|(j, c)| (cost, i) < (c, j)) {
                                best = Some((i, cost));
                                if cost == 0 {
                                    break;
                                }
                            }
                        }
                        Err(e) => {
                            if deepest.as_ref().is_none_or(|(j, f)| {
                                (e.path().len(), Reverse(i)) > (f.path().len(), Reverse(*j))
                            }) {
                                deepest = Some((i, e));
                            }
                        }
                    }
                }
                if !defer {
                    break;
                }
            }
            let (i, cost) =
                best.ok_or_else(|| deepest.map_or_else(|| w.mismatch(id, v), |(_, e)| e))?;
            // `memoised` reads the cost from the walker.
            w.cost += cost;
            Ok(i)
        })
    }

    /// `weigh(self)` on `v` without keeping anything (cost and outcome only), once per
    /// (schema node, value, reply depth, question) in the current scope: the outcome as (what
    /// `weigh` returned, a branch's index for a union, and the cost it added).
    fn memoised(
        &mut self,
        v: &Value,
        rid: NodeId,
        depth: usize,
        question: Question,
        weigh: impl FnOnce(&mut Self) -> Result<usize, Error>,
    ) -> Result<(usize, u64), Error> {
        let at = if self.holes.is_empty() { 0 } else { depth };
        let key = (rid, v as *const Value as usize, at, question);
        let base = self.path.len();
        if let Some(choice) = self.scopes.last().and_then(|s| s.get(&key)) {
            self.hole_visits += choice.hole_visits;
            self.clean_visits = self.clean_visits.wrapping_add(choice.clean_visits);
            return match &choice.outcome {
                Ok(outcome) => Ok(*outcome),
                Err(error) => {
                    let (e, at) = &**error;
                    let suffix = e.path().get(*at..).unwrap_or_default();
                    Err(Error::new(
                        e.kind(),
                        format!("{}{suffix}", self.path),
                        e.expected(),
                        e.found(),
                    ))
                }
            };
        }
        let saved_len = self.warnings.len();
        let saved_cost = self.cost;
        let (hole_visits, clean_visits) = (self.hole_visits, self.clean_visits);
        self.dry += 1;
        let r = weigh(self);
        self.dry -= 1;
        let cost = self.cost - saved_cost;
        self.cost = saved_cost;
        self.warnings.truncate(saved_len);
        let outcome = r.map(|n| (n, cost));
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(
                key,
                Choice {
                    outcome: outcome.clone().map_err(|e| Box::new((e, base))),
                    hole_visits: self.hole_visits - hole_visits,
                    clean_visits: self.clean_visits.wrapping_sub(clean_visits),
                },
            );
        }
        outcome
    }

    /// Whether the schema at `id` is an array schema.
    fn is_array(&self, id: NodeId) -> bool {
        matches!(
            self.schema.node(self.schema.resolve(id)).kind,
            Kind::Array(_)
        )
    }

    /// The branch whose constant property (a serde tag) the value has exactly, if one alone
    /// does; else the branch an externally tagged value names by its key
    /// ([`external_branch`]). A constant that several branches share and the value has (a
    /// field every variant fixes alike) names none of them: they are weighed.
    fn tagged_branch(&self, v: &Value, branches: &[NodeId]) -> Option<NodeId> {
        let Value::Object(map) = v else { return None };
        let mut named = branches.iter().copied().filter(|&b| {
            let Kind::Object(o) = &self.schema.node(self.schema.resolve(b)).kind else {
                return false;
            };
            o.properties.iter().any(|p| {
                let Kind::Enum(e) = &self.schema.node(self.schema.resolve(p.schema)).kind else {
                    return false;
                };
                e.values.len() == 1 && map.get(&p.name) == Some(&e.values[0])
            })
        });
        match (named.next(), named.next()) {
            (Some(b), None) => Some(b),
            (Some(_), Some(_)) => None,
            (None, _) => external_branch(self.schema, map, branches),
        }
    }

    /// Why `v` names several of the branches, as serde's tagged enums name one: a tag
    /// given as an array of two branches' tags (`{"type": ["click", "search"]}`), or an
    /// externally tagged value with the keys of two variants (`{"say": "x", "move": {...}}`,
    /// by name or alias, a unit variant's name as a key too). Weighed, each branch would
    /// take its own and drop the other.
    fn names_several(&self, v: &Value, branches: &[NodeId]) -> Option<String> {
        let Value::Object(map) = v else { return None };
        let mut objects = Vec::with_capacity(branches.len());
        for &b in branches {
            match &self.schema.node(self.schema.resolve(b)).kind {
                Kind::Object(o) => objects.push(o),
                Kind::Enum(_) => {}
                _ => return None,
            }
        }
        // A tag: a property every object branch fixes to a string of its own.
        for (name, given) in map {
            let Value::Array(items) = given else { continue };
            let tags: Option<Vec<&Value>> = objects
                .iter()
                .map(|o| tag_of(self.schema, o, name))
                .collect();
            let Some(tags) = tags.filter(|t| t.len() >= 2) else {
                continue;
            };
            let named: Vec<&&Value> = tags.iter().filter(|t| items.contains(t)).collect();
            if named.len() >= 2 {
                return Some(format!(
                    "\"{name}\" naming {} of them: {}",
                    named.len(),
                    describe_value(given)
                ));
            }
        }
        // Externally tagged: every branch an object of one property and no other key
        // (`additionalProperties: false`, as serde's variants are), or unit variants. (An
        // object of one property that takes other keys holds another branch's key as a
        // key of its own: no naming.)
        if branches.len() < 2
            || objects
                .iter()
                .any(|o| o.properties.len() != 1 || o.additional != Additional::Deny)
        {
            return None;
        }
        // The branch each key names, by its index.
        let variant = |key: &str| {
            branches
                .iter()
                .position(|&b| match &self.schema.node(self.schema.resolve(b)).kind {
                    Kind::Object(o) => {
                        o.properties[0].name == key || o.aliases.iter().any(|(a, _)| a == key)
                    }
                    Kind::Enum(e) => e.values.iter().any(|v| v.as_str() == Some(key)),
                    _ => false,
                })
        };
        let mut seen = Vec::new();
        let mut keys = Vec::new();
        for key in map.keys() {
            if let Some(b) = variant(key) {
                if !seen.contains(&b) {
                    seen.push(b);
                    keys.push(format!("\"{key}\""));
                }
            }
        }
        (keys.len() >= 2).then(|| {
            format!(
                "an object with the keys of {} variants: {}",
                keys.len(),
                keys.join(", ")
            )
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

/// The string the object schema `o` fixes its property `name` to (a serde tag's value), if
/// it does.
pub(crate) fn tag_of<'s>(schema: &'s Schema, o: &Object, name: &str) -> Option<&'s Value> {
    let p = o.properties.iter().find(|p| p.name == name)?;
    match &schema.node(schema.resolve(p.schema)).kind {
        Kind::Enum(e) if e.values.len() == 1 && e.values[0].is_string() => Some(&e.values[0]),
        _ => None,
    }
}

/// The branch an externally tagged enum's value names by its only key, serde's default
/// representation (`{"Records": {...}}`): where every branch is an object with one property
/// (a variant with content) or an enum of strings (unit variants' names), the one object
/// branch whose property is `map`'s only key, by its name or an alias. That branch alone is
/// recovered, as serde reads the variant the key names, and its content then decides
/// nothing about the branch: the value's other branches could take it only by reshaping
/// it (an object branch whose only field holds an object with that key), and reading a
/// large reply item by item needs the branch decided without the items (see
/// [`crate::large`]). A key that names no branch exactly (`{"records": ...}`) is weighed
/// against them all.
fn external_branch(
    schema: &Schema,
    map: &Map<String, Value>,
    branches: &[NodeId],
) -> Option<NodeId> {
    let mut keys = map.keys();
    let (Some(key), None) = (keys.next(), keys.next()) else {
        return None;
    };
    let mut named = None;
    for &b in branches {
        match &schema.node(schema.resolve(b)).kind {
            Kind::Object(o) if o.properties.len() == 1 => {
                let names = o.properties[0].name == *key || o.aliases.iter().any(|(a, _)| a == key);
                if names && named.replace(b).is_some() {
                    return None;
                }
            }
            Kind::Enum(e) if e.values.iter().all(Value::is_string) => {}
            _ => return None,
        }
    }
    named
}

/// The schema of the first `patternProperties` pattern `key` matches.
fn pattern_property(o: &Object, key: &str) -> Option<NodeId> {
    o.pattern_properties
        .iter()
        .find(|(p, _)| p.is_match(key))
        .map(|(_, s)| *s)
}

/// A string that starts like a JSON document (`{` or `[`), which an object or array schema
/// decodes.
/// Whether an array schema can take `v` only by wrapping it in a one-element array (or not at
/// all): `v` is no array, no string (which may hold one), no `null` (taken before the schema's
/// kind is looked at) and no one-key wrapper around an array (`Walker::array_items`).
fn wrappable(v: &Value) -> bool {
    match v {
        Value::Null | Value::Array(_) | Value::String(_) => false,
        Value::Object(map) => !(map.len() == 1 && map.values().all(Value::is_array)),
        Value::Bool(_) | Value::Number(_) => true,
    }
}

fn holds_document(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.trim_start().starts_with(['{', '[']))
}

/// About the length of `v` as JSON text, without writing it: each string and key's bytes
/// and quotes, 8 for each other scalar, the brackets and separators.
pub(crate) fn text_len(v: &Value) -> usize {
    let mut len = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let here = match v {
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len()
            }
            Value::Object(members) => {
                stack.extend(members.values());
                members.keys().map(|k| k.len() + 4).sum::<usize>() + 2
            }
            _ => 8,
        };
        len = len.saturating_add(here);
    }
    len
}

/// Appends `/key` to a JSON pointer, escaped.
#[inline(never)]
pub(crate) fn push_key(path: &mut String, key: &str) {
    path.push('/');
    if key.bytes().any(|c| c == b'~' || c == b'/') {
        path.push_str(&key.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(key);
    }
}

/// The segments of a JSON pointer, unescaped (`["a", "b/c"]` for `/a/b~1c`; none for `""`).
pub(crate) fn segments(pointer: &str) -> Vec<String> {
    let unescape = |s: &str| s.replace("~1", "/").replace("~0", "~");
    pointer.split('/').skip(1).map(unescape).collect()
}

/// The JSON pointer of the member reached through `keys` (`/a/b` for `["a", "b"]`).
pub(crate) fn pointer_of(keys: &[String]) -> String {
    let mut pointer = String::new();
    for key in keys {
        push_key(&mut pointer, key);
    }
    pointer
}

/// Appends `/i` to a JSON pointer.
fn push_index(path: &mut String, i: usize) {
    use std::fmt::Write;
    let _ = write!(path, "/{i}");
}

/// The value of a one-key object.
fn only_member(v: Cow<'_, Value>) -> Cow<'_, Value> {
    match v {
        Cow::Owned(Value::Object(map)) => Cow::Owned(map.into_iter().next().unwrap_or_default().1),
        Cow::Borrowed(Value::Object(map)) => map
            .values()
            .next()
            .map_or(Cow::Owned(Value::Null), Cow::Borrowed),
        v => v,
    }
}

/// The element of a one-element array.
fn only_item(v: Cow<'_, Value>) -> Cow<'_, Value> {
    match v {
        Cow::Owned(Value::Array(mut items)) => Cow::Owned(items.pop().unwrap_or_default()),
        Cow::Borrowed(Value::Array(items)) => {
            items.first().map_or(Cow::Owned(Value::Null), Cow::Borrowed)
        }
        v => v,
    }
}

/// The items of an array, or of the one array inside a wrapper object.
fn array_in(v: Cow<'_, Value>) -> Cow<'_, [Value]> {
    match v {
        Cow::Owned(Value::Array(items)) => Cow::Owned(items),
        Cow::Borrowed(Value::Array(items)) => Cow::Borrowed(items),
        Cow::Owned(Value::Object(map)) => match map.into_iter().find(|(_, x)| x.is_array()) {
            Some((_, Value::Array(items))) => Cow::Owned(items),
            _ => Cow::Owned(Vec::new()),
        },
        Cow::Borrowed(Value::Object(map)) => match map.values().find(|x| x.is_array()) {
            Some(Value::Array(items)) => Cow::Borrowed(items),
            _ => Cow::Owned(Vec::new()),
        },
        _ => Cow::Owned(Vec::new()),
    }
}

/// A short description of a value for messages: `"\"abc\""`, `12`, `an object with keys a, b`.
pub(crate) fn describe_value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => excerpt(s, 40),
        Value::Array(a) if a.len() == 1 => "an array of 1 item".to_owned(),
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(o) if o.is_empty() => "an empty object".to_owned(),
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().take(6).map(|k| format!("\"{k}\"")).collect();
            let more = if o.len() > 6 { ", …" } else { "" };
            let noun = if o.len() == 1 { "key" } else { "keys" };
            format!("an object with {noun} {}{more}", keys.join(", "))
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
