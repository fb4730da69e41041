//! The lenient parser on a document that is one top-level array, or an object one of whose
//! members is an array, handing over each item of that array as soon as it is read, with the
//! fixes made up to it, instead of building the whole value: memory follows the largest item
//! (and the rest of the object), not the document (see [`each_item`]). An object's members
//! are items the same way, each with its key: the top-level object's, or a member's object's
//! (records keyed by id).
//!
//! The parser is the same one [`parse`](super::parse) runs, over the same input with the same
//! options, so the items are exactly the items of [`parse`](super::parse)'s value, and the fixes exactly its
//! [`Repairs`](super::Repairs), in the same order with the same paths.
//!
//! The parser builds its sink and log itself (`Sink::new`, `Log::new`), so what it reads
//! reaches the caller through the parsing thread's outbox: [`each_item`] runs the parser on a
//! thread of its own, whose sink and log put items and fixes in a bounded channel the
//! caller's thread reads (or, for a short input, on the caller's thread, the events kept
//! until the parse ends).

use std::cell::RefCell;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;

use serde_json::Value;

use super::log::{write_segment, Counter, Log, Seg, ROOT};
use super::sink::{Int, KeySet, KeySink, Sink, ValueSink};
use super::{parser, RepairError, RepairKind, RepairOptions};
use crate::recover::text::fold;

/// One fix: its kind and the JSON pointer of the value being built (as [`Repair`](super::Repair)
/// gives them); or, with no kind, an integer the item holds rounded (as
/// [`Rounded`](super::log::Rounded) gives it), which is no fix. Where [`Want::paths`] is
/// false, a fix's pointer is empty, but a `Truncated` fix's and an integer's.
pub(crate) type Fix = (Option<RepairKind>, String);

/// What the parsing thread hands over, in input order.
pub(crate) enum Event {
    /// A parse of the input begins. The parser reads a document a second time when a guess
    /// about a missing quote led nowhere: what the earlier attempt handed over is void.
    Attempt,
    /// The items that follow are those of the array at `path` in the top-level object (its
    /// member `path[0]`, or that member's member `path[1]`, and so on), which just opened
    /// (the fixes made so far go with the next item, or the end); or, with `entries`, the
    /// members of the object there, each handed over with its key ([`Place::Entries`]).
    Member { path: Vec<String>, entries: bool },
    /// An item of the array, complete, and the fixes made since the last item (those before
    /// the item, at the array's level or around it, and the item's own); for
    /// [`Members::Entries`] or [`Place::Entries`], a member of the object, with its key.
    /// `span`: where in the input the item was read, for an item that is a container or an
    /// integer held rounded written as it stands (`None` for any other, and for the values
    /// of [`Members::Values`]), so that what recovery keeps of it as text can be the reply's
    /// own (`pipeline::keep_written`).
    Item {
        fixes: Vec<Fix>,
        value: Value,
        key: Option<String>,
        span: Option<std::ops::Range<usize>>,
    },
    /// The parse is over: the fixes made since the last item, and whether the document was
    /// one top-level array, or an object around one, whose items were all handed over
    /// (`Ok(Some(_))`), something else or read in an attempt a whole parse may not make
    /// (`Ok(None)`: read it with [`parse`](super::parse); see `Outbox::lost`), or no JSON
    /// (`Err`).
    End {
        fixes: Vec<Fix>,
        result: Result<Option<Found>, RepairError>,
        /// The document held several top-level values, which the parser collects into an
        /// array: read with [`Members::Values`], they are its items.
        several: bool,
    },
}

/// A document read item by item.
#[derive(Debug)]
pub(crate) struct Found {
    /// The deepest nesting in it, the top-level container counted.
    pub(crate) depth: usize,
    /// For an object around the items: the object with an empty array (or, for
    /// [`Place::Entries`], an empty object) in their place (`null` where values are not
    /// wanted), and the path of keys of each member whose items were handed over, in the
    /// order they came (see [`largest_arrays`]: one, or several arrays).
    pub(crate) around: Option<(Value, Vec<Vec<String>>)>,
    /// Whether the items were an object's members, each with its key: the top-level
    /// object's ([`Members::Entries`]) or, `around` it, the object at the path's
    /// ([`Place::Entries`]).
    pub(crate) entries: bool,
}

/// The members of an object (the top-level one, or one inside it on the way to the array)
/// whose array may be read item by item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Members {
    /// None: an object is read whole.
    #[default]
    None,
    /// Those with these keys: each the array itself, an object whose members are the items,
    /// or an object whose members lead to them ([`Place`]).
    Named(Vec<(String, Place)>),
    /// Those with these names as recovery matches a key to a property's name (or alias): the
    /// name as written, else the only one equal to the key ignoring case and separators
    /// (`Records`, `RECORDS` for `records`; `row_list` for `rowList`). The schema's names
    /// ([`members`](crate::recover::items::members)); where recovery renames no key so, the
    /// object around the items is read whole after all.
    Loose(Vec<(String, Place)>),
    /// Any key whose value is an array (the schema is `{}`, which asks nothing of any
    /// member): of the top-level object's members, the first. [`largest_arrays`] looks
    /// deeper, at objects as well, and names the members that lead to the containers chosen.
    Any,
    /// The top-level object's own members are the items, each handed over with its key (an
    /// object of records keyed by id, against `{}`; see [`largest_or_members`]).
    Entries,
    /// The document's top-level values are the items, as the array the parser collects
    /// several of them into (`{...}\n{...}`, JSON Lines): each handed over as an array's
    /// item, once the second begins. A document of one value is not read so.
    Values,
}

/// Where a member of [`Members::Named`] leads to the items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// The member's value is the array.
    Items,
    /// The member's value is an object whose members are the items, each handed over with
    /// its key (a map of records keyed by id, `{"users": {"u1": {...}, ...}}`).
    Entries,
    /// The member's value is an object, whose members these are.
    Within(Arc<Members>),
    /// The member's value is kept as it is (the schema asks nothing of it, or it is an
    /// object that keeps any member): it may be the array, an object whose members are the
    /// items, or hold either deeper, as against [`Members::Any`]. Only [`largest_arrays`]
    /// follows it, and names the members that lead to the container it chooses;
    /// [`each_item`] reads such a member whole.
    Kept,
}

impl Members {
    /// Where the member `key` leads, among named members: `None` where no name is the key
    /// (or, for [`Members::Loose`], where none is as written and more than one is loosely).
    fn place(&self, key: &str) -> Option<&Place> {
        let (named, loose) = match self {
            Members::Named(named) => (named, false),
            Members::Loose(named) => (named, true),
            Members::None | Members::Any | Members::Entries | Members::Values => return None,
        };
        if let Some((_, place)) = named.iter().find(|(k, _)| k == key) {
            return Some(place);
        }
        if !loose {
            return None;
        }
        let folded = fold(key);
        if folded.is_empty() {
            return None;
        }
        let mut places = named.iter().filter(|(k, _)| fold(k) == folded);
        let (_, place) = places.next()?;
        places.all(|(_, p)| p == place).then_some(place)
    }

    /// Whether the value of the member `key` may be the array read item by item.
    fn hold(&self, key: &str) -> bool {
        matches!(self, Members::Any) || self.place(key) == Some(&Place::Items)
    }

    /// Whether the value of the member `key` may be the object whose members are read one
    /// by one ([`Place::Entries`]).
    fn hold_entries(&self, key: &str) -> bool {
        self.place(key) == Some(&Place::Entries)
    }

    /// Whether more than one array may be read item by item: an object around two of them
    /// holds a choice (see [`largest_arrays`]).
    pub(crate) fn choose(&self) -> bool {
        fn leaves(m: &Members, most: usize) -> usize {
            match m {
                Members::None | Members::Entries | Members::Values => 0,
                Members::Any => most,
                Members::Named(named) | Members::Loose(named) => {
                    named.iter().fold(0, |n, (_, place)| {
                        if n >= most {
                            return n;
                        }
                        n + match place {
                            Place::Items | Place::Entries => 1,
                            Place::Within(inner) => leaves(inner, most - n),
                            Place::Kept => most - n,
                        }
                    })
                }
            }
        }
        leaves(self, 2) >= 2
    }

    /// Whether the value of the member `key` is kept as it is ([`Place::Kept`]).
    fn kept(&self, key: &str) -> bool {
        self.place(key) == Some(&Place::Kept)
    }

    /// The members of the object that is the value of the member `key`, when they may hold
    /// the array.
    fn within(&self, key: &str) -> Option<Arc<Members>> {
        match self.place(key)? {
            Place::Within(inner) => Some(Arc::clone(inner)),
            _ => None,
        }
    }
}

/// What a caller of [`each_item`] reads, so that the rest is not built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Want {
    /// Each fix's path (else an empty one: for callers that count fixes).
    pub(crate) paths: bool,
    /// Each item's value (else `null`: for callers that want the fixes alone).
    pub(crate) values: bool,
}

impl Want {
    /// Everything.
    #[cfg(test)]
    pub(crate) const ALL: Want = Want {
        paths: true,
        values: true,
    };
}

/// Events go over in batches of this many items (one wake-up of the other thread each), or
/// fewer where they weigh [`WEIGHT`] (their values' parts and fixes), and at most `QUEUE`
/// batches wait: memory is that many small items, or that weight, whatever the document.
const BATCH: usize = 256;
const QUEUE: usize = 4;

/// The most parts (values, keys and fixes) the items of one batch hold, unless one item
/// holds more: 256 records of a few dozen parts each are a batch, and so is one array of a
/// thousand records (an array of arrays, read item by item, held 966 MB for 100 MB of
/// them when a batch was 256 such items).
const WEIGHT: usize = 1 << 15;

/// Runs the lenient parser over `input` on a thread of its own and calls `each` with what it
/// reads, in order, until [`Event::End`] (or until `each` returns false: the parse then goes
/// on to its end, handing over nothing more). Linear in the input, as the parser is.
///
/// The items are those of the top-level array or, when the document is an object, of the
/// first of its members whose key `members` holds and whose value is an array (written
/// as one: the parser may make an array of other things), or the members of the first
/// whose key it holds as [`Place::Entries`] and whose value is an object, or of the first
/// such member of an object that is the value of a member `members` holds as leading to one
/// ([`Place`]), and so on down. The objects' other members are built whole. Where a key on the way is given
/// again, the value is whatever the last one is: that document is not read item by item
/// (`Ok(None)`).
///
/// An input shorter than [`ON_THIS_THREAD`] is parsed on the caller's thread instead, its
/// events kept and handed over after the parse: the same events, without a thread.
pub(crate) fn each_item(
    input: &str,
    options: &RepairOptions,
    want: Want,
    members: &Members,
    each: impl FnMut(Event) -> bool,
) {
    let here = input.len() < ON_THIS_THREAD;
    each_item_on(input, options, want, members, here, each)
}

/// [`each_item`], the parser on the caller's thread (`here`) or on one of its own.
fn each_item_on(
    input: &str,
    options: &RepairOptions,
    want: Want,
    members: &Members,
    here: bool,
    mut each: impl FnMut(Event) -> bool,
) {
    if here {
        let kept = parse_into(
            input,
            options,
            want,
            members.clone(),
            Outlet::Kept(Vec::new()),
        );
        drain(kept, &mut each);
        return;
    }
    let (send, receive) = sync_channel(QUEUE);
    std::thread::scope(|scope| {
        scope.spawn(|| parse_into(input, options, want, members.clone(), Outlet::Sent(send)));
        drain(receive, &mut each);
    });
}

/// Inputs shorter than this (64 KiB) are parsed on the caller's thread, their events held
/// until the parse ends: at most a few MB of items. Starting a thread costs tens of
/// microseconds, more than parsing a short input, and a reply of 40 000 small fenced
/// values, each a candidate read this way, spent 40 times as long starting threads as the
/// whole pipeline took.
const ON_THIS_THREAD: usize = 1 << 16;

fn drain(batches: impl IntoIterator<Item = Vec<Event>>, each: &mut impl FnMut(Event) -> bool) {
    for batch in batches {
        for event in batch {
            let end = matches!(event, Event::End { .. });
            if !each(event) || end {
                // Dropping the receiver tells the parsing thread to send nothing more.
                return;
            }
        }
    }
}

/// Where the parser's events go: to the caller's thread, or kept until the parse ends.
enum Outlet {
    Sent(SyncSender<Vec<Event>>),
    Kept(Vec<Vec<Event>>),
}

/// The parser, with the sink and log below handing their events to `outlet`; the events
/// kept, if that is where they went.
fn parse_into(
    input: &str,
    options: &RepairOptions,
    want: Want,
    members: Members,
    outlet: Outlet,
) -> Vec<Vec<Event>> {
    OUTBOX.with(|o| {
        *o.borrow_mut() = Some(Outbox {
            outlet,
            batch: Vec::new(),
            fixes: Vec::new(),
            want,
            members,
            open: true,
            lost: false,
            lost_before: false,
            several: false,
            other: false,
            weight: 0,
        })
    });
    let result = if want.values {
        parser::run::<ItemSink<ValueSink>, ItemLog>(input, options)
            .map(|(mut sink, _, _)| sink.found())
    } else {
        parser::run::<ItemSink<KeySink>, ItemLog>(input, options)
            .map(|(mut sink, _, _)| sink.found())
    };
    OUTBOX.with(|o| {
        if let Some(mut outbox) = o.borrow_mut().take() {
            let fixes = std::mem::take(&mut outbox.fixes);
            let result = match result {
                Ok(Some(_)) if outbox.lost_before => Ok(None),
                result => result,
            };
            let several = outbox.several;
            outbox.send(Event::End {
                fixes,
                result,
                several,
            });
            outbox.flush();
            if let Outlet::Kept(kept) = outbox.outlet {
                return kept;
            }
        }
        Vec::new()
    })
}

thread_local! {
    /// The parsing thread's way out (see the module docs).
    static OUTBOX: RefCell<Option<Outbox>> = const { RefCell::new(None) };
}

struct Outbox {
    outlet: Outlet,
    /// Events not sent yet.
    batch: Vec<Event>,
    /// Fixes since the last event.
    fixes: Vec<Fix>,
    want: Want,
    /// The members whose array may be read item by item.
    members: Members,
    /// False once the caller stopped listening.
    open: bool,
    /// The attempt being read, and an earlier one, had keys after `Root::Other`. The parser
    /// reads a document again where a guess led nowhere, and what its sink hands back (a
    /// key given twice, a fix that counts toward the fix budget) is part of what it goes by:
    /// once the sink stopped handing it back, the parser may make an attempt a whole parse
    /// does not, and that attempt is not read item by item (found by the fuzzer: a whole
    /// parse ran over the fix budget in its first attempt, where the reader's went on).
    lost: bool,
    lost_before: bool,
    /// The attempt being read met a second top-level value ([`Event::End`]'s `several`).
    several: bool,
    /// The attempt being read is not read item by item (`Root::Other`): its fixes are not
    /// kept.
    other: bool,
    /// What the items in `batch` hold ([`WEIGHT`]).
    weight: usize,
}

impl Outbox {
    fn send(&mut self, event: Event) {
        self.send_weighed(event, 0);
    }

    /// Sends `event`, which holds `weight` parts. A full batch goes before the event joins
    /// the next one: the last event sent is still in the batch, where the item's span joins
    /// it ([`ItemSink::ended`]).
    fn send_weighed(&mut self, event: Event, weight: usize) {
        if self.open {
            if self.batch.len() >= BATCH || self.weight >= WEIGHT {
                self.flush();
            }
            self.batch.push(event);
            self.weight += weight;
        }
    }

    fn flush(&mut self) {
        self.weight = 0;
        let batch = std::mem::take(&mut self.batch);
        if !self.open || batch.is_empty() {
            return;
        }
        match &mut self.outlet {
            Outlet::Sent(send) => self.open = send.send(batch).is_ok(),
            Outlet::Kept(kept) => kept.push(batch),
        }
    }
}

fn with_outbox<T>(f: impl FnOnce(&mut Outbox) -> T) -> Option<T> {
    OUTBOX.with(|o| o.borrow_mut().as_mut().map(f))
}

/// What the top-level value turned out to be so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    None,
    /// An array: its items are handed over.
    Array,
    /// An object (when members may hold the items): built whole but for the member whose
    /// array's items are handed over.
    Object,
    /// An object whose members are the items ([`Members::Entries`]): each handed over with
    /// its key when it ends.
    Entries,
    /// Anything else: several values, a scalar, a tuple of one item, an object when no member
    /// may hold the items, an object of entries with a key given twice.
    Other,
}

/// Builds each item of the array read item by item (the top-level array, or the array of a
/// member of the top-level object, or of an object inside it) with a sink of its own and
/// sends it when it is complete. The object around such a member is built whole, with an
/// empty array in the member's place (the "shell"); anything else is only noted
/// (`Root::Other`).
struct ItemSink<S> {
    root: Root,
    /// Containers open, the top-level one included.
    depth: usize,
    /// The most containers open at once.
    deepest: usize,
    /// The depth of the array whose items are handed over while it is open (1: the
    /// document's; 2: a member's of the top-level object; 3: a member's of an object
    /// that is a member's of the top-level object...), else 0.
    items_at: usize,
    /// The item being built (`depth` is above `items_at` while it is a container).
    item: Option<S>,
    /// The top-level object, built whole but for the items (`Root::Object`), by the sink
    /// that builds the items.
    shell: Option<S>,
    /// The top-level object's members that may hold the items.
    members: Arc<Members>,
    /// The shell's objects open on the way to the items, outermost (the top-level object)
    /// first: `way[i]` is the object at depth `i + 1`.
    way: Vec<Level>,
    /// The keys of each member whose items were handed over, in order, once it opened.
    holes: Vec<Vec<String>>,
    /// Whether the items are an object's members (`Root::Entries`, or a hole that is an
    /// object, [`Place::Entries`]).
    entries: bool,
    /// For `entries`: the key of the member being read, its value once complete, and
    /// every key handed over (a key given twice would replace an earlier member's value in
    /// place, which reading member by member cannot do).
    entry: Option<String>,
    done: Option<Value>,
    /// Where `done` was read ([`Sink::ended`]).
    done_span: Option<std::ops::Range<usize>>,
    seen: KeySet,
    /// A key came after `Root::Other` (see `Outbox::lost`).
    keyed_after_other: bool,
    /// With [`Members::Values`]: the first top-level value and its fixes, held until a
    /// second begins (its fixes' paths then move under `/0`), and whether one has.
    first: Option<(Value, Vec<Fix>)>,
    several: bool,
    /// The values and openings of the item being built (its weight, see [`WEIGHT`]).
    parts: usize,
}

/// An object of the shell on the way to the items.
struct Level {
    /// Its members that may hold them.
    members: Arc<Members>,
    /// The key of the member being read.
    key: Option<String>,
    /// The member being read, or the last one ended, holds the items (is their array, or an
    /// object on the way to it): more items may join it (`reopen_array`).
    in_hole: bool,
}

/// What builds an item: a [`ValueSink`], or a [`KeySink`] where only the fixes are wanted (it
/// keeps the open objects' keys, to find a key given twice as the value sink does).
trait Item: for<'x> Sink<'x> {
    fn value(self) -> Value;
}

impl Item for ValueSink {
    fn value(self) -> Value {
        self.finish()
    }
}

impl Item for KeySink {
    fn value(self) -> Value {
        Value::Null
    }
}

impl<S: Item> ItemSink<S> {
    /// The document is not read item by item (`Root::Other`). From here on the sink hands the
    /// parser nothing back, not even a key given twice, where a whole parse's sink does (see
    /// `Outbox::lost`, noted at the first key after this).
    fn other(&mut self) {
        self.root = Root::Other;
        // Nothing more is handed over, so no fix is wanted either: the document is read
        // another way, and a list of its fixes would grow with it (10 MB of JSON Lines, read
        // to the end so, held 67 MB of them).
        with_outbox(|o| {
            o.other = true;
            o.fixes = Vec::new();
        });
    }

    /// Whether an event at the current depth belongs to an item.
    fn in_items(&self) -> bool {
        self.items_at > 0 && self.depth >= self.items_at
    }

    /// The sink a value or an opening goes to: an item's (one starts at the array's level),
    /// the shell's, or none (the document is not read item by item: `Root::Other` is set).
    fn target(&mut self) -> Option<&mut S> {
        if self.in_items() {
            self.parts += 1;
            return Some(self.item.get_or_insert_with(|| S::new(0)));
        }
        self.inner()
    }

    /// The sink an event that only happens inside a container goes to: the open item's, the
    /// shell's, or none.
    fn inner(&mut self) -> Option<&mut S> {
        let item = self.items_at > 0 && self.depth > self.items_at;
        let shell = self.items_at == 0 && self.root == Root::Object && self.depth >= 1;
        let some = (item && self.item.is_some()) || (!item && shell && self.shell.is_some());
        if !some {
            self.other();
            return None;
        }
        if item {
            self.item.as_mut()
        } else {
            self.shell.as_mut()
        }
    }

    /// A scalar: an item by itself at the array's level.
    fn scalar(&mut self, put: impl FnOnce(&mut S)) {
        if let Some(sink) = self.target() {
            put(sink);
            self.complete();
        }
    }

    /// Sends the item once it is complete (nothing of it is open any more); a member's value
    /// waits for the member's end, since the parser may still abandon it.
    #[inline(never)]
    fn complete(&mut self) {
        if self.items_at > 0 && self.depth == self.items_at {
            if let Some(item) = self.item.take() {
                let value = item.value();
                if self.entries {
                    self.done = Some(value);
                    self.done_span = None;
                    return;
                }
                let parts = std::mem::take(&mut self.parts);
                with_outbox(|o| {
                    let fixes = std::mem::take(&mut o.fixes);
                    if o.members == Members::Values && !self.several {
                        // The first top-level value: an item once a second one begins.
                        self.first = Some((value, fixes));
                        return;
                    }
                    let weight = parts + fixes.len();
                    let item = Event::Item {
                        fixes,
                        value,
                        key: None,
                        span: None,
                    };
                    o.send_weighed(item, weight);
                });
            }
        }
    }

    /// Whether events happen at the level of the members of an object of entries.
    fn at_entries(&self) -> bool {
        self.entries && self.items_at > 0 && self.depth == self.items_at
    }

    /// What the document was, once read: one top-level array, or an object one of whose
    /// members' array was read item by item.
    fn found(&mut self) -> Option<Found> {
        if self.depth != 0 {
            return None;
        }
        let around = match self.root {
            // One top-level value read as the first of several: not what it is.
            Root::Array if self.first.is_some() => return None,
            Root::Array | Root::Entries => None,
            Root::Object if !self.holes.is_empty() => {
                Some((self.shell.take()?.value(), std::mem::take(&mut self.holes)))
            }
            Root::Object => return None,
            Root::None | Root::Other => return None,
        };
        Some(Found {
            depth: self.deepest,
            around,
            entries: self.entries,
        })
    }

    fn deeper(&mut self) {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    /// A container opens.
    fn open(&mut self, begin: impl FnOnce(&mut S)) {
        if let Some(sink) = self.target() {
            begin(sink);
            self.deeper();
        }
    }

    /// A container closes: the array of the items, one inside an item, or one of the shell.
    fn close(&mut self, end: impl FnOnce(&mut S)) {
        if self.items_at > 0 && self.depth == self.items_at {
            self.items_at = 0;
            self.depth -= 1;
            return;
        }
        if let Some(sink) = self.inner() {
            end(sink);
            self.depth -= 1;
            self.complete();
        }
    }

    /// An event that only happens inside an object (or, for `end_member` and
    /// `abandon_member`, at the shell's top level, where the member's key is followed).
    fn inside<T: Default>(&mut self, f: impl FnOnce(&mut S) -> T) -> T {
        self.inner().map(f).unwrap_or_default()
    }

    /// The member being read at the innermost level of the way opens the container of the
    /// items (its empty counterpart is in the shell): the items inside it are handed over.
    fn open_hole(&mut self) {
        let path: Vec<String> = self.way.iter().filter_map(|l| l.key.clone()).collect();
        if self.holes.contains(&path) {
            // A key on the way given again, and its items with it: the last value counts,
            // which reading item by item cannot follow.
            self.other();
        }
        for level in &mut self.way {
            level.in_hole = true;
        }
        let entries = self.entries;
        with_outbox(|o| {
            o.send(Event::Member {
                path: path.clone(),
                entries,
            })
        });
        self.holes.push(path);
        self.items_at = self.depth + 1;
        self.deeper();
    }

    /// The innermost open object of the shell on the way to the items, when it is where
    /// events happen (no container is open inside it).
    fn level(&mut self) -> Option<&mut Level> {
        if self.root == Root::Object && self.items_at == 0 && self.depth == self.way.len() {
            self.way.last_mut()
        } else {
            None
        }
    }
}

impl<'a, S: Item> Sink<'a> for ItemSink<S> {
    // Every item is a value (built here or, where only the fixes are wanted, by another
    // reading), which holds a float as an `f64`.
    const ROUNDS: bool = true;
    fn new(_: usize) -> Self {
        let members = with_outbox(|o| {
            o.fixes.clear();
            o.lost_before |= std::mem::take(&mut o.lost);
            o.several = false;
            o.other = false;
            o.send(Event::Attempt);
            o.members.clone()
        });
        // The top-level values as the items of an array the document is inside.
        let values = members == Some(Members::Values);
        ItemSink {
            root: if values { Root::Array } else { Root::None },
            depth: usize::from(values),
            deepest: usize::from(values),
            items_at: usize::from(values),
            item: None,
            shell: None,
            members: Arc::new(members.unwrap_or_default()),
            way: Vec::new(),
            holes: Vec::new(),
            entries: false,
            entry: None,
            done: None,
            done_span: None,
            seen: KeySet::default(),
            keyed_after_other: false,
            first: None,
            several: false,
            parts: 0,
        }
    }
    fn null(&mut self) {
        self.scalar(|s| s.null());
    }
    fn bool(&mut self, v: bool) {
        self.scalar(|s| s.bool(v));
    }
    fn int(&mut self, n: Int, text: &str) {
        self.scalar(|s| s.int(n, text));
    }
    fn float(&mut self, text: &str) -> bool {
        let mut finite = super::sink::finite_number(text).is_some();
        self.scalar(|s| finite = s.float(text));
        finite
    }
    fn string(&mut self, s: &str, safe: bool) {
        self.scalar(|sink| sink.string(s, safe));
    }
    fn begin_object(&mut self) {
        if self.depth == 0 && self.root == Root::None && *self.members == Members::Entries {
            self.root = Root::Entries;
            self.entries = true;
            self.items_at = 1;
            self.deeper();
            return;
        }
        if self.depth == 0 && self.root == Root::None && *self.members != Members::None {
            let mut shell = S::new(0);
            shell.begin_object();
            self.shell = Some(shell);
            self.root = Root::Object;
            self.way.push(Level {
                members: Arc::clone(&self.members),
                key: None,
                in_hole: false,
            });
            self.deeper();
            return;
        }
        // After the first hole, only arrays open others (see [`largest_arrays`]); against any
        // value, the first array is the one.
        let (first, any) = (self.holes.is_empty(), *self.members == Members::Any);
        let (within, entries) = match self.level() {
            Some(level) if first || !any => match level.key.as_deref() {
                Some(k) => (level.members.within(k), level.members.hold_entries(k)),
                None => (None, false),
            },
            _ => (None, false),
        };
        if entries && first {
            // The member whose members are handed over: an empty object in its place.
            if let Some(shell) = self.shell.as_mut() {
                shell.begin_object();
                shell.end_object();
            }
            self.entries = true;
            self.open_hole();
            return;
        }
        self.open(|s| s.begin_object());
        if let Some(members) = within {
            // An object on the way to the items: its members are followed.
            self.way.push(Level {
                members,
                key: None,
                in_hole: false,
            });
        }
    }
    fn key(&mut self, key: &str, safe: bool) {
        if self.root == Root::Other && !self.keyed_after_other {
            // A key given twice from here on goes unsaid.
            self.keyed_after_other = true;
            with_outbox(|o| o.lost = true);
        }
        if self.at_entries() {
            self.entry = Some(key.to_owned());
            return;
        }
        if let Some(level) = self.level() {
            level.in_hole = false;
            level.key = Some(key.to_owned());
        }
        self.inside(|s| s.key(key, safe));
    }
    fn end_member(&mut self) -> bool {
        if self.at_entries() {
            let (Some(key), Some(value)) = (self.entry.take(), self.done.take()) else {
                self.other();
                return false;
            };
            if !self.seen.insert(&key) {
                // As the value sink says it: the parser records the repeated key.
                self.other();
                return true;
            }
            let parts = std::mem::take(&mut self.parts);
            let span = self.done_span.take();
            with_outbox(|o| {
                let fixes = std::mem::take(&mut o.fixes);
                let weight = parts + fixes.len();
                let item = Event::Item {
                    fixes,
                    value,
                    key: Some(key),
                    span,
                };
                o.send_weighed(item, weight);
            });
            return false;
        }
        let at = self.level().map(|l| (l.in_hole, l.key.clone()));
        let duplicate = self.inside(|s| s.end_member());
        // A key on the way to items given again replaces them: not read item by item.
        if let Some((false, Some(key))) = at {
            let level = self.way.len() - 1;
            if duplicate && self.holes.iter().any(|h| h.get(level) == Some(&key)) {
                self.other();
            }
        }
        duplicate
    }
    fn abandon_member(&mut self) {
        if self.at_entries() {
            // A member cut off: the object holds no such member.
            (self.entry, self.done, self.item) = (None, None, None);
            self.done_span = None;
            return;
        }
        if self.level().is_some_and(|l| l.in_hole) {
            self.other();
        }
        self.inside(|s| s.abandon_member());
    }
    fn end_object(&mut self) {
        if self.level().is_some() {
            self.way.pop();
        }
        self.close(|s| s.end_object());
    }
    fn begin_array(&mut self) {
        if self.depth == 0 && self.root == Root::None {
            self.root = Root::Array;
            self.items_at = 1;
            self.deeper();
            return;
        }
        let opens = (self.holes.is_empty() || *self.members != Members::Any) && !self.entries;
        let held = match self.level() {
            Some(level) if opens => level.key.clone().filter(|k| level.members.hold(k)),
            _ => None,
        };
        if held.is_some() {
            // The member whose items are handed over: an empty array in its place.
            if let Some(shell) = self.shell.as_mut() {
                shell.begin_array();
                shell.end_array();
            }
            self.open_hole();
            return;
        }
        self.open(|s| s.begin_array());
    }
    fn end_array(&mut self) {
        self.close(|s| s.end_array());
    }
    fn root_to_array(&mut self) {
        let Some((value, mut fixes)) = self.first.take() else {
            with_outbox(|o| o.several = true);
            self.other();
            return;
        };
        self.several = true;
        with_outbox(|o| {
            // The fixes since the first value, but the last (the parser's note of the
            // several values, made just now), are the first value's too: the parser moves
            // them all under `/0`, as `Log::prefix_first` does, but those about the document
            // itself.
            let mut since = std::mem::take(&mut o.fixes);
            let note = since.pop();
            fixes.append(&mut since);
            for (kind, path) in &mut fixes {
                let whole = path.is_empty()
                    && matches!(kind, Some(RepairKind::Wrapper | RepairKind::ExtraCloser));
                let made = o.want.paths || matches!(kind, None | Some(RepairKind::Truncated));
                if !whole && made {
                    path.insert_str(0, "/0");
                }
            }
            let weight = fixes.len();
            let item = Event::Item {
                fixes,
                value,
                key: None,
                span: None,
            };
            o.send_weighed(item, weight);
            o.fixes.extend(note);
        });
    }
    fn object_to_array(&mut self) {
        if self.level().is_some() {
            self.other();
        }
        self.inside(|s| s.object_to_array());
    }
    fn end_array_as_item(&mut self) {
        // The array of the items closing as its one item: not an array after all.
        if self.depth <= self.items_at.max(1) {
            self.other();
            return;
        }
        self.close(|s| s.end_array_as_item());
    }
    fn reopen_array(&mut self) {
        let innermost = self.holes.last().is_some_and(|h| h.len() == self.way.len());
        if let Some(level) = self.level() {
            if level.in_hole {
                if !innermost || self.entries {
                    // An object on the way, or the object of the items, taking items: not
                    // what was read so far.
                    self.other();
                    return;
                }
                // More items for the member's array: handed over as they come.
                self.items_at = self.depth + 1;
                self.deeper();
                return;
            }
        }
        self.inside(|s| s.reopen_array());
        self.deeper();
    }
    fn close_reopened(&mut self) {
        let hole_level = self.way.len();
        if self.root == Root::Object
            && self.items_at == hole_level + 1
            && self.depth == self.items_at
            && self.way.last().is_some_and(|l| l.in_hole)
        {
            self.items_at = 0;
            self.depth = hole_level;
            return;
        }
        self.depth = self.depth.saturating_sub(1);
        self.inside(|s| s.close_reopened());
    }
    fn root_string(&self) -> Option<&str> {
        None
    }
    const ENDS: bool = true;
    /// An item ended at the array's level (a container closed, or an integer held rounded):
    /// it was just sent ([`complete`](Self::complete), the last event in the batch), or,
    /// for a member of an object of entries, waits for the member's end.
    fn ended(&mut self, start: usize, end: usize) {
        if self.items_at == 0 || self.depth != self.items_at {
            return;
        }
        if self.entries {
            if self.done.is_some() {
                self.done_span = Some(start..end);
            }
            return;
        }
        if *self.members == Members::Values {
            // Several top-level values, whose containers a whole reading does not place
            // (`container_spans`): they go without, as they do there.
            return;
        }
        with_outbox(|o| {
            if let Some(Event::Item { span: s @ None, .. }) = o.batch.last_mut() {
                *s = Some(start..end);
            }
        });
    }
    fn unwrap_root<L: Log>(&mut self, _: &RepairOptions) -> Option<(L, usize)> {
        None
    }
}

/// The best container alone, as [`largest_arrays`] measures it (a chain of
/// [`Place::Within`] ending in [`Place::Items`] or [`Place::Entries`], or [`Members::None`]):
/// what the tests check against a walk of the value.
#[cfg(test)]
pub(crate) fn largest_array(
    input: &str,
    options: &RepairOptions,
    members: &Members,
    levels: usize,
) -> Members {
    let Some(largest) = measure(input, options, members, levels) else {
        return Members::None;
    };
    match largest.best.filter(|_| largest.object) {
        Some(best) => chain(&best.keys, best.entries),
        None => Members::None,
    }
}

/// Against `{}`, how `input`'s top-level object is read item by item, whichever holds less
/// at once: through the members that lead to the containers that [`largest_arrays`] with
/// [`Members::Any`] chooses, which holds everything outside them; or its own members as
/// the items ([`Members::Entries`]), which holds its largest member (an object of records
/// keyed by id, whose arrays are the records' small ones). [`Members::Any`] when the
/// document is no object.
pub(crate) fn largest_or_members(input: &str, options: &RepairOptions, levels: usize) -> Members {
    let Some(largest) = measure(input, options, &Members::Any, levels) else {
        return Members::Any;
    };
    if !largest.object {
        return Members::Any;
    }
    // Through the containers chosen, what is outside them is held, and one item of each.
    let chosen: usize = largest.chosen().iter().map(|c| c.score).sum();
    if largest.best.is_some() && chosen >= largest.total - largest.largest_member {
        largest.read()
    } else {
        Members::Entries
    }
}

/// How many arrays of one object are read item by item at most ([`largest_arrays`]): each
/// is one more reading of the document where its items are wanted apart from the others'.
pub(crate) const HOLES: usize = 4;

/// The share of the document an array beside the largest must hold to be read item by item
/// too ([`largest_arrays`]): a sixteenth (held whole, a value is many times its text).
const SHARE: usize = 16;

/// Where `input`'s top-level object is best read item by item, of the containers `members`
/// allows: the members that lead to them ([`Place::Within`] ending in [`Place::Items`] or
/// [`Place::Entries`]), or [`Members::None`] when the document is no object or holds no
/// such container. Reading the document item by item holds what is outside those
/// containers, and one item of each at a time.
///
/// The first container chosen is the one for which that is least, its size less its largest
/// item's (the records, not the tags in a `meta` object before them), where [`each_item`]
/// alone would take the first. Where it is an array, so is each other array `members`
/// allows that holds at least a sixteenth of the document, the largest [`HOLES`] in all: a
/// document of two large arrays (`{"nodes": [...], "edges": [...]}`) is read item by item
/// through both. Where it is an object whose members are the items, that one alone.
///
/// Against [`Members::Any`], the arrays of the top-level object's members, of its members'
/// objects, and so on to `levels` objects deep, and those objects themselves, whose members
/// are then the items. A container's size is what the parser hands the sink inside it (a
/// value, a key, an opening or closing each), which follows its length in bytes. One more
/// parse, with nothing built: linear, as [`each_item`] is.
pub(crate) fn largest_arrays(
    input: &str,
    options: &RepairOptions,
    members: &Members,
    levels: usize,
) -> Members {
    match measure(input, options, members, levels) {
        Some(largest) if largest.object => largest.read(),
        _ => Members::None,
    }
}

/// The containers `members` allows in `input`, measured (see [`largest_arrays`]).
fn measure(
    input: &str,
    options: &RepairOptions,
    members: &Members,
    levels: usize,
) -> Option<Largest> {
    FOLLOW.with(|f| *f.borrow_mut() = Some((Arc::new(members.clone()), levels)));
    let found = parser::run::<Largest, Counter>(input, options);
    FOLLOW.with(|f| *f.borrow_mut() = None);
    found.ok().map(|(largest, _, _)| largest)
}

/// The members that lead through each of `paths`' keys to the array at its end, the paths
/// that share a first key through one object.
fn chains(paths: &[&[Key]]) -> Members {
    let mut named: Vec<(String, Vec<&[Key]>)> = Vec::new();
    for path in paths {
        let Some((first, rest)) = path.split_first() else {
            continue;
        };
        match named.iter_mut().find(|(k, _)| **k == **first) {
            Some((_, inner)) => inner.push(rest),
            None => named.push((first.to_string(), vec![rest])),
        }
    }
    if named.is_empty() {
        return Members::None;
    }
    Members::Named(
        named
            .into_iter()
            .map(|(key, rest)| {
                let place = if rest.iter().any(|r| r.is_empty()) {
                    Place::Items
                } else {
                    Place::Within(Arc::new(chains(&rest)))
                };
                (key, place)
            })
            .collect(),
    )
}

/// The members that lead through `path`'s keys to the container at its end: an array, or
/// with `entries` an object whose members are the items.
fn chain(path: &[Key], entries: bool) -> Members {
    let last = if entries {
        Place::Entries
    } else {
        Place::Items
    };
    path.iter().rev().fold(Members::None, |inner, key| {
        let place = match inner {
            Members::None => last.clone(),
            inner => Place::Within(Arc::new(inner)),
        };
        Members::Named(vec![(key.to_string(), place)])
    })
}

/// A key on the way to a container [`Largest`] measures, shared by every container below
/// it: a path is a few pointers, however long its keys (a megabyte key above many objects
/// was copied into each one's path, quadratic in the reply).
type Key = Arc<str>;

thread_local! {
    /// The members [`Largest`] follows, and how many objects deep, for [`largest_arrays`].
    static FOLLOW: RefCell<Option<(Arc<Members>, usize)>> = const { RefCell::new(None) };
}

/// Follows the top-level object's members (and their objects') that `members` allows, and
/// measures each container among them (see [`largest_arrays`]).
struct Largest {
    /// Containers open.
    depth: usize,
    /// The objects open on the way, outermost first (`way[i]` is at depth `i + 1`): the
    /// members each allows (`None` against any value: every key), and the key being read.
    way: Vec<(Option<Arc<Members>>, Option<Key>)>,
    levels: usize,
    /// The containers being measured, outermost first: against any value, an object on the
    /// way is measured and followed at once.
    open: Vec<Measure>,
    /// The last array measured, which more items may join (`reopen_array`).
    last: Option<Measure>,
    /// The best container so far (the first of equals).
    best: Option<Best>,
    /// The largest arrays so far, largest first, at most [`HOLES`] (see [`largest_arrays`]).
    arrays: Vec<Best>,
    /// Whether the document is still one top-level object.
    object: bool,
    /// Whether a top-level value began.
    rooted: bool,
    /// Everything handed over inside the top-level value, counted as a container's size is.
    total: usize,
    /// `total` where the top-level object's member being read began, and the largest member
    /// so far.
    member_from: usize,
    largest_member: usize,
}

/// A container being measured.
struct Measure {
    /// The keys that lead to it.
    keys: Vec<Key>,
    /// The depth of its items (one more than its own).
    at: usize,
    /// What was handed over inside it: `n` before `Largest::total` was `from`, and all
    /// since (every measure open counts everything handed over, so it is a difference, not
    /// a count kept in each).
    n: usize,
    from: usize,
    /// `n` at its last event at the items' depth (an item's beginning or end, a key, a
    /// member's end), and the most handed over between two such events: its largest item.
    mark: usize,
    largest: usize,
    /// Whether it is an object whose members are the items.
    entries: bool,
    /// Whether the way goes on inside it (an object against any value): else nothing in it
    /// is followed.
    followed: bool,
}

/// The container chosen so far: its size less its largest item's, its keys, and whether
/// it is an object whose members are the items.
struct Best {
    score: usize,
    keys: Vec<Key>,
    entries: bool,
}

/// What the innermost object on the way allows for the value of the member being read.
enum Allowed {
    /// The array of the items.
    Array,
    /// The object whose members are the items.
    Entries,
    /// An object on the way, with its members.
    Within(Arc<Members>),
    /// Anything: an array is measured; an object is measured and followed (any value).
    Any,
}

impl Largest {
    /// The containers read item by item (see [`largest_arrays`]): the best, and beside an
    /// array the other arrays that hold a share of the document.
    fn chosen(&self) -> Vec<&Best> {
        match &self.best {
            None => Vec::new(),
            Some(best) if best.entries => vec![best],
            Some(best) => self
                .arrays
                .iter()
                .filter(|a| a.keys == best.keys || a.score.saturating_mul(SHARE) >= self.total)
                .collect(),
        }
    }

    /// The members that lead to the containers read item by item.
    fn read(&self) -> Members {
        match self.chosen()[..] {
            [] => Members::None,
            [one] => chain(&one.keys, one.entries),
            ref several => {
                let paths: Vec<&[Key]> = several.iter().map(|a| a.keys.as_slice()).collect();
                chains(&paths)
            }
        }
    }

    /// One thing handed over: counted in the containers being measured (see
    /// [`Measure::n`]); true when it falls inside one that is not followed (nothing else is
    /// followed there).
    fn count(&mut self) -> bool {
        self.total += usize::from(self.depth > 0);
        self.inside()
    }

    /// Whether events happen inside a container measured and not followed.
    fn inside(&self) -> bool {
        self.open.last().is_some_and(|m| !m.followed)
    }

    /// An event at the current depth: where it is a measured container's items' depth, an
    /// item (or member) begins or ends there. (The containers open are nested, their items'
    /// depths rising: past one just opened, whose items are deeper, the first at this depth
    /// or above is the only one that can be.)
    fn level(&mut self) {
        let (depth, total) = (self.depth, self.total);
        for m in self.open.iter_mut().rev() {
            if m.at > depth {
                continue;
            }
            if m.at == depth {
                let n = m.n + (total - m.from);
                m.largest = m.largest.max(n - m.mark);
                m.mark = n;
            }
            break;
        }
    }

    /// A value that is no container: counted, and at the top level, a document that is no
    /// object.
    fn scalar(&mut self) {
        if !self.count() && self.depth == 0 {
            self.object = false;
        }
        self.level();
    }

    /// A top-level value begins: the document is an object only if it is the first.
    fn root(&mut self, object: bool) {
        self.object &= object && !self.rooted;
        self.rooted = true;
    }

    /// Whether events happen in the innermost object on the way.
    fn on_the_way(&self) -> bool {
        self.object && !self.inside() && self.depth == self.way.len() && self.depth > 0
    }

    /// What the innermost object on the way allows for the value of the member being read.
    fn allowed(&self) -> Option<Allowed> {
        if !self.on_the_way() {
            return None;
        }
        let (members, key) = self.way.last()?;
        let key = key.as_deref()?;
        match members.as_deref() {
            None => Some(Allowed::Any),
            Some(m) if m.kept(key) => Some(Allowed::Any),
            Some(m) if m.hold(key) => Some(Allowed::Array),
            Some(m) if m.hold_entries(key) => Some(Allowed::Entries),
            Some(m) => m.within(key).map(Allowed::Within),
        }
    }

    fn keys(&self) -> Vec<Key> {
        self.way.iter().filter_map(|(_, k)| k.clone()).collect()
    }

    /// A container begins to be measured.
    fn measure(&mut self, entries: bool, followed: bool) {
        self.open.push(Measure {
            keys: self.keys(),
            at: self.depth + 1,
            n: 0,
            from: self.total,
            mark: 0,
            largest: 0,
            entries,
            followed,
        });
    }

    /// A container closes (the depth is still its items'): when it was measured, it is done
    /// (its closing is counted in the containers around it, not in it).
    fn closed(&mut self) {
        if self.open.last().is_none_or(|m| m.at != self.depth) {
            return;
        }
        let Some(mut m) = self.open.pop() else {
            return;
        };
        m.n += self.total - m.from;
        m.from = self.total;
        let score = m.n - m.largest;
        if self.best.as_ref().is_none_or(|b| score > b.score) {
            self.best = Some(Best {
                score,
                keys: m.keys.clone(),
                entries: m.entries,
            });
        }
        let full =
            self.arrays.len() == HOLES && self.arrays.last().is_some_and(|a| a.score >= score);
        if !m.entries && !full {
            // Among the largest arrays (an array reopened replaces what it was, with a score
            // as large at least; a tie goes to the first).
            self.arrays.retain(|a| a.keys != m.keys);
            let at = self.arrays.partition_point(|a| a.score >= score);
            if at < HOLES {
                self.arrays.insert(
                    at,
                    Best {
                        score,
                        keys: m.keys.clone(),
                        entries: false,
                    },
                );
                self.arrays.truncate(HOLES);
            }
        }
        if !m.entries {
            self.last = Some(m);
        }
    }
}

impl Sink<'_> for Largest {
    // (It builds no value: nothing is held rounded.)
    const ROUNDS: bool = false;
    fn new(_: usize) -> Self {
        let (members, levels) = FOLLOW
            .with(|f| f.borrow().clone())
            .unwrap_or((Arc::new(Members::None), 0));
        let any = *members == Members::Any;
        Largest {
            depth: 0,
            way: vec![(if any { None } else { Some(members) }, None)],
            levels,
            open: Vec::new(),
            last: None,
            best: None,
            arrays: Vec::new(),
            object: true,
            rooted: false,
            total: 0,
            member_from: 0,
            largest_member: 0,
        }
    }
    fn null(&mut self) {
        self.scalar();
    }
    fn bool(&mut self, _: bool) {
        self.scalar();
    }
    fn int(&mut self, _: Int, _: &str) {
        self.scalar();
    }
    fn float(&mut self, text: &str) -> bool {
        self.scalar();
        super::sink::finite_number(text).is_some()
    }
    fn string(&mut self, _: &str, _: bool) {
        self.scalar();
    }
    fn begin_object(&mut self) {
        if !self.count() {
            if self.depth == 0 {
                self.root(true);
            } else {
                match self.allowed() {
                    Some(Allowed::Within(inner)) if self.way.len() < self.levels => {
                        self.way.push((Some(inner), None));
                    }
                    Some(Allowed::Entries) => self.measure(true, false),
                    Some(Allowed::Any) => {
                        // Against any value, every object on the way is measured, and
                        // followed to `levels` deep.
                        let followed = self.way.len() < self.levels;
                        self.measure(true, followed);
                        if followed {
                            self.way.push((None, None));
                        }
                    }
                    _ => {}
                }
            }
        }
        self.level();
        self.depth += 1;
    }
    fn key(&mut self, key: &str, _: bool) {
        if self.depth == 1 {
            self.member_from = self.total;
        }
        if !self.count() && self.on_the_way() {
            if let Some((_, k)) = self.way.last_mut() {
                *k = Some(Key::from(key));
            }
        }
        self.level();
    }
    fn end_member(&mut self) -> bool {
        self.count();
        if self.depth == 1 {
            let size = self.total - self.member_from;
            self.largest_member = self.largest_member.max(size);
        }
        self.level();
        false
    }
    fn abandon_member(&mut self) {
        self.count();
        self.level();
    }
    fn end_object(&mut self) {
        self.closed();
        if !self.count() && self.on_the_way() && self.depth > 1 {
            self.way.pop();
        }
        self.depth = self.depth.saturating_sub(1);
        self.level();
    }
    fn begin_array(&mut self) {
        if !self.count() {
            if self.depth == 0 {
                self.root(false);
            } else if let Some(Allowed::Array | Allowed::Any) = self.allowed() {
                self.measure(false, false);
            }
        }
        self.level();
        self.depth += 1;
    }
    fn end_array(&mut self) {
        self.closed();
        self.count();
        self.depth = self.depth.saturating_sub(1);
        self.level();
    }
    fn root_to_array(&mut self) {
        self.object = false;
    }
    fn object_to_array(&mut self) {
        if !self.count() && self.on_the_way() {
            self.object = false;
        }
    }
    fn end_array_as_item(&mut self) {
        self.end_array();
    }
    fn reopen_array(&mut self) {
        if !self.count() && self.on_the_way() {
            // More items for the array just measured, when it was this member's.
            let keys = self.keys();
            if let Some(m) = self.last.take().filter(|m| m.keys == keys) {
                self.open.push(Measure {
                    at: self.depth + 1,
                    from: self.total,
                    ..m
                });
            }
        }
        self.level();
        self.depth += 1;
    }
    fn close_reopened(&mut self) {
        self.end_array();
    }
    fn root_string(&self) -> Option<&str> {
        None
    }
    fn unwrap_root<L: Log>(&mut self, _: &RepairOptions) -> Option<(L, usize)> {
        None
    }
}

/// Puts each fix, with its path, in the outbox. Paths are built as [`Repairs`](super::Repairs)
/// builds them, but only for the nodes of the path being read: a new node's parent is the
/// last node still on the parser's path, and the parser has let go of every node made after
/// it (see `log::Path`), so memory follows the document's nesting, not its size. Node numbers
/// are never reused (the parser compares them to merge a run of one fix).
#[derive(Default)]
struct ItemLog {
    /// The nodes kept, oldest first: number, and where the pointer is in `paths`.
    chain: Vec<(usize, usize, usize)>,
    paths: Vec<u8>,
    /// The next node's number.
    next: usize,
}

impl ItemLog {
    /// Where `node` is in `chain` (numbers rise along it).
    fn find(&self, node: usize) -> Option<usize> {
        self.chain.binary_search_by_key(&node, |c| c.0).ok()
    }

    fn pointer(&self, node: usize) -> &str {
        if node == ROOT {
            return "";
        }
        self.find(node)
            .and_then(|i| self.chain.get(i))
            .and_then(|&(_, start, end)| self.paths.get(start..end))
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }
}

impl Log for ItemLog {
    fn new() -> Self {
        ItemLog::default()
    }
    type Node = usize;
    fn node(&mut self, parent: usize, seg: Seg, src: &str) -> usize {
        let kept = if parent == ROOT {
            None
        } else {
            self.find(parent)
        };
        let (keep, from) = match kept.and_then(|i| Some((i, *self.chain.get(i)?))) {
            Some((i, (_, start, end))) => (i + 1, Some((start, end))),
            None => (0, None),
        };
        self.chain.truncate(keep);
        self.paths.truncate(from.map_or(0, |(_, end)| end));
        let start = self.paths.len();
        if let Some((from, to)) = from {
            self.paths.extend_from_within(from..to);
        }
        write_segment(&mut self.paths, src, seg);
        let node = self.next;
        self.next += 1;
        self.chain.push((node, start, self.paths.len()));
        node
    }
    #[inline(never)]
    fn push(&mut self, kind: RepairKind, _: usize, node: usize) {
        with_outbox(|o| {
            if o.other {
                return;
            }
            // (Where the reply was cut off is wanted by every reading: see `large::cut_in`.)
            let path = if o.want.paths || kind == RepairKind::Truncated {
                self.pointer(node).to_owned()
            } else {
                String::new()
            };
            o.fixes.push((Some(kind), path));
        });
    }
    #[inline(never)]
    fn rounded(&mut self, _: usize, node: usize) {
        with_outbox(|o| {
            if o.other {
                return;
            }
            // (Always with its path, which is rare: where an item keeps the integer as the
            // reply writes it, its record goes, found so without every fix's path: see
            // `large::item_written`.)
            o.fixes.push((None, self.pointer(node).to_owned()));
        });
    }
    fn prefix_first(&mut self, _: usize, _: usize) {
        // Several top-level values: the sink has said the document is no array of items.
    }
    fn append(&mut self, _: Self) {
        // Only a double-encoded document's, which `ItemSink` never unwraps.
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use serde_json::json;

    /// What [`each_item`] hands over for `input`, written out: each attempt's items and fixes,
    /// then how it ended.
    fn events(input: &str) -> Vec<String> {
        events_in(input, &Members::None)
    }

    /// [`events`], reading the items of a member named `rows` of a top-level object.
    fn member_events(input: &str) -> Vec<String> {
        events_in(
            input,
            &Members::Named(vec![("rows".to_owned(), Place::Items)]),
        )
    }

    /// The members of an object whose member `rows` holds the items.
    fn member_rows() -> Members {
        Members::Named(vec![("rows".to_owned(), Place::Items)])
    }

    /// [`events`], reading the items of the member `rows` of the top-level object's member
    /// `data` (an object).
    fn nested_events(input: &str) -> Vec<String> {
        let within = Place::Within(Arc::new(member_rows()));
        events_in(input, &Members::Named(vec![("data".to_owned(), within)]))
    }

    /// What [`each_item`] hands over for `input`, gathered: every fix, the items, and the
    /// object around them.
    fn read_around(input: &str, members: &Members) -> (Vec<Fix>, Vec<Value>, Value) {
        let (mut fixes, mut items, mut object) = (Vec::new(), Vec::new(), Value::Null);
        each_item(input, &RepairOptions::default(), Want::ALL, members, |e| {
            match e {
                Event::Item {
                    fixes: f, value, ..
                } => {
                    fixes.extend(f);
                    items.push(value);
                }
                Event::End {
                    fixes: f, result, ..
                } => {
                    fixes.extend(f);
                    object = result.unwrap().unwrap().around.unwrap().0;
                }
                Event::Attempt | Event::Member { .. } => {}
            }
            true
        });
        (fixes, items, object)
    }

    /// The fixes [`parse`] makes in `input`, as [`each_item`] hands them over.
    fn parser_fixes(input: &str) -> Vec<Fix> {
        let parsed = parse(input, &RepairOptions::default()).unwrap();
        parsed
            .repairs
            .iter()
            .map(|r| (Some(r.kind), r.path.to_owned()))
            .collect()
    }

    /// What [`each_item`] hands over for `input`, as text, the same on the caller's thread
    /// and on one of its own.
    fn events_in(input: &str, members: &Members) -> Vec<String> {
        let here = events_on(input, members, true);
        assert_eq!(here, events_on(input, members, false), "{input}");
        here
    }

    /// The text of each item's span, as [`each_item`] hands it over, on either thread.
    fn spans(input: &str, members: &Members) -> Vec<Option<String>> {
        let on = |here| {
            let mut out = Vec::new();
            let options = RepairOptions::default();
            each_item_on(input, &options, Want::ALL, members, here, |e| {
                if let Event::Item { span, .. } = e {
                    out.push(span.map(|s| input[s].to_owned()));
                }
                true
            });
            out
        };
        let here = on(true);
        assert_eq!(here, on(false), "{input}");
        here
    }

    #[test]
    fn an_item_that_is_a_container_or_an_integer_held_rounded_has_its_span() {
        let text = |s: &str| Some(s.to_owned());
        // Containers and an integer beyond 64 bits, as the reply writes them, fixes and
        // all; no span for a string, a small number, or digits grouped by separators.
        assert_eq!(
            spans(
                "[{a: 1,}, 123456789012345678901, 'x', 7, [1 2], 123_456_789_012_345_678_901]",
                &Members::None
            ),
            [
                text("{a: 1,}"),
                text("123456789012345678901"),
                None,
                None,
                text("[1 2]"),
                None
            ]
        );
        // A member's items; an object's members, each its own.
        assert_eq!(
            spans(r#"{"n": {"x": 1}, "rows": [{"id": 2}]}"#, &member_rows()),
            [text(r#"{"id": 2}"#)]
        );
        assert_eq!(
            spans(r#"{"a": {"id": 1}, "b": 2, "c": [3]}"#, &Members::Entries),
            [text(r#"{"id": 1}"#), None, text("[3]")]
        );
        // Several top-level values go without (a whole reading does not place them).
        assert_eq!(
            spans("{\"id\": 1}\n{\"id\": 2}", &Members::Values),
            [None, None]
        );
        // Past a full batch, the span still joins its item.
        let many = format!("[{}{{}}]", "{}, ".repeat(BATCH * 2));
        let all = spans(&many, &Members::None);
        assert_eq!(all.len(), BATCH * 2 + 1);
        assert!(all.iter().all(|s| s.as_deref() == Some("{}")));
    }

    fn events_on(input: &str, members: &Members, here: bool) -> Vec<String> {
        let mut out = Vec::new();
        let fixes = |f: Vec<Fix>| {
            f.into_iter()
                .map(|(k, p)| match k {
                    Some(k) => format!("{k:?}@{p}"),
                    None => format!("Rounded@{p}"),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let options = RepairOptions::default();
        each_item_on(input, &options, Want::ALL, members, here, |e| {
            out.push(match e {
                Event::Attempt => "attempt".to_owned(),
                Event::Item {
                    fixes: f,
                    value,
                    key: None,
                    ..
                } => format!("{value} [{}]", fixes(f)),
                Event::Item {
                    fixes: f,
                    value,
                    key: Some(key),
                    ..
                } => format!("{key:?}: {value} [{}]", fixes(f)),
                Event::Member {
                    path,
                    entries: false,
                } => format!("member {}", path.join("/")),
                Event::Member {
                    path,
                    entries: true,
                } => format!("members of {}", path.join("/")),
                Event::End {
                    fixes: f, result, ..
                } => {
                    let result = match result {
                        Ok(Some(Found {
                            depth,
                            around: None,
                            entries: false,
                        })) => depth.to_string(),
                        Ok(Some(Found {
                            depth,
                            around: None,
                            entries: true,
                        })) => format!("{depth} entries"),
                        Ok(Some(Found {
                            depth,
                            around: Some((shell, paths)),
                            ..
                        })) => {
                            let paths: Vec<String> = paths.iter().map(|p| p.join("/")).collect();
                            format!("{depth} {shell} {}", paths.join(" "))
                        }
                        Ok(None) => "none".to_owned(),
                        Err(e) => format!("{e:?}"),
                    };
                    format!("end {result} [{}]", fixes(f))
                }
            });
            true
        });
        out
    }

    #[test]
    fn members_come_one_by_one_with_their_keys() {
        let entries = |input: &str| events_in(input, &Members::Entries);
        assert_eq!(
            entries("{a: 1, \"b\": [1, 2,], c: {d: 'x'}}"),
            [
                "attempt",
                "\"a\": 1 [UnquotedKey@]",
                "\"b\": [1,2] [TrailingComma@/b]",
                "\"c\": {\"d\":\"x\"} [UnquotedKey@ UnquotedKey@/c QuoteStyle@/c/d]",
                "end 2 entries []",
            ]
        );
        assert_eq!(entries("{}"), ["attempt", "end 1 entries []"]);
        // A member cut off inside its value keeps what was read of it, as the parser does.
        assert_eq!(
            entries("{a: 1, b: {c: "),
            [
                "attempt",
                "\"a\": 1 [UnquotedKey@]",
                "\"b\": {} [UnquotedKey@/b Truncated@/b]",
                "end 2 entries []",
            ]
        );
        // A key given again, a set, an array joining a member's, several values: the
        // document is no object of members read one by one, and no fix is kept from there on.
        assert_eq!(
            entries("{a: 1, a: 2}"),
            ["attempt", "\"a\": 1 [UnquotedKey@]", "end none []"]
        );
        for input in ["{'a', 'b'}", "{a: [1], [2]}", "{a: 1} {b: 2}"] {
            assert_eq!(
                entries(input).last().map(|e| &e[..8]),
                Some("end none"),
                "{input}"
            );
        }
        // An array is read as ever.
        assert_eq!(entries("[1, 2]"), ["attempt", "1 []", "2 []", "end 1 []"]);
    }

    #[test]
    fn an_integer_held_rounded_comes_with_its_item_as_no_fix() {
        // 2^64 + 1 loses its last digit as an `f64`; 2^64 itself and 10^20 are exact.
        assert_eq!(
            events_in(
                "[{id: 18446744073709551617}, 18446744073709551616, [100000000000000000000]]",
                &Members::None
            ),
            [
                "attempt",
                "{\"id\":1.8446744073709552e+19} [UnquotedKey@/0 Rounded@/0/id]",
                "1.8446744073709552e+19 []",
                "[1e+20] []",
                "end 2 []",
            ]
        );
    }

    #[test]
    fn any_value_is_read_through_whichever_holds_less_at_once() {
        let mode = |input: &str| largest_or_members(input, &RepairOptions::default(), 4);
        let long = (1..=20)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        // The array holds more than the rest of the object: its items, the rest held.
        assert_eq!(
            mode(&format!("{{n: 1, rows: [{long}]}}")),
            Members::Named(vec![("rows".to_owned(), Place::Items)])
        );
        // Records keyed by id, each with a small array: the members, one at a time.
        assert_eq!(
            mode("{r1: {tags: [1, 2]}, r2: {tags: [3]}, r3: {tags: []}}"),
            Members::Entries
        );
        assert_eq!(mode("{a: 1, b: 'x'}"), Members::Entries);
        // No object: as before.
        assert_eq!(mode(&format!("[{long}]")), Members::Any);
        assert_eq!(mode("1"), Members::Any);
    }

    #[test]
    fn items_come_one_by_one_with_their_fixes() {
        assert_eq!(
            events("// c\n[{a: 1}, 'x' 2, [3,], (4), ]"),
            [
                "attempt",
                "{\"a\":1} [Comment@ UnquotedKey@/0]",
                "\"x\" [QuoteStyle@/1]",
                "2 [MissingComma@]",
                "[3] [TrailingComma@/3]",
                "4 [Tuple@/4]",
                "end 2 [TrailingComma@]",
            ]
        );
        assert_eq!(events("[]"), ["attempt", "end 1 []"]);
        assert_eq!(
            events("[[[1]], {\"a\": [{\"b\": 2}]}]"),
            ["attempt", "[[1]] []", "{\"a\":[{\"b\":2}]} []", "end 4 []"]
        );
    }

    #[test]
    fn a_member_of_the_top_level_object_comes_item_by_item() {
        assert_eq!(
            member_events("{a: [1,], rows: [{b: 'x'}, 2,], c: {d: 3,}}"),
            [
                "attempt",
                "member rows",
                "{\"b\":\"x\"} [UnquotedKey@ TrailingComma@/a UnquotedKey@ UnquotedKey@/rows/0 QuoteStyle@/rows/0/b]",
                "2 []",
                "end 3 {\"a\":[1],\"rows\":[],\"c\":{\"d\":3}} rows [TrailingComma@/rows UnquotedKey@ UnquotedKey@/c TrailingComma@/c]",
            ]
        );
        // Items joining the array after it closed are its items too.
        assert_eq!(
            member_events("{rows: [1], [2], n: 3}")[2..5],
            [
                "1 [UnquotedKey@]",
                "2 [SplitArray@]",
                "end 2 {\"rows\":[],\"n\":3} rows [UnquotedKey@]"
            ]
        );
        // The key given again: the last value counts, so no items were the member's.
        for input in [
            "{rows: [1], rows: [2]}",
            "{rows: [1]} {rows: [2]}",
            "{rows: (1)}",
            "{a: 1}",
            "{{a: 1}",
        ] {
            assert_whole(input, &member_events(input));
        }
        // Not the first array of that key: the first one, which may be written before.
        let e = member_events("{rows: 1, rows: [5]}");
        assert_eq!(
            e[2..],
            [
                "5 [UnquotedKey@]",
                "end 2 {\"rows\":[]} rows [DuplicateKey@/rows]"
            ]
        );
        // The fixes are the parser's, in order, with its paths; the object is its value with
        // the items taken out.
        for input in [
            "{a: [1,], rows: [{b: 'x'}, 2,], c: {d: 3,}}",
            "{rows: [1], [2,], n: 3,}",
            "{rows: [{a: [{b: 1,}]}]} // x",
        ] {
            let (fixes, items, mut object) = read_around(input, &member_rows());
            assert_eq!(fixes, parser_fixes(input), "{input}");
            object["rows"] = Value::Array(items);
            assert_eq!(
                object,
                parse(input, &RepairOptions::default()).unwrap().value,
                "{input}"
            );
        }
        // No member named: an object is only noted, not built.
        let mut ended = false;
        each_item(
            "{rows: [1]}",
            &RepairOptions::default(),
            Want::ALL,
            &Members::None,
            |e| {
                ended |= matches!(
                    e,
                    Event::End {
                        result: Ok(None),
                        ..
                    }
                );
                !matches!(e, Event::Item { .. } | Event::Member { .. })
            },
        );
        assert!(ended);
    }

    #[test]
    fn the_items_of_several_members_come_one_member_after_another() {
        let named = Members::Named(vec![
            ("rows".to_owned(), Place::Items),
            (
                "g".to_owned(),
                Place::Within(Arc::new(Members::Named(vec![(
                    "edges".to_owned(),
                    Place::Items,
                )]))),
            ),
        ]);
        assert_eq!(
            events_in("{rows: [1, 2,], n: 'x', g: {edges: [[1, 2]], m: 1}}", &named),
            [
                "attempt",
                "member rows",
                "1 [UnquotedKey@]",
                "2 []",
                "member g/edges",
                // (`m`'s unquoted key is one fix with `edges`': the parser's run of one.)
                "[1,2] [TrailingComma@/rows UnquotedKey@ QuoteStyle@/n UnquotedKey@ UnquotedKey@/g]",
                "end 4 {\"rows\":[],\"n\":\"x\",\"g\":{\"edges\":[],\"m\":1}} rows g/edges []",
            ]
        );
        // The fixes are the parser's; the object is its value with both arrays' items out.
        let input = "{rows: [1, 2,], n: 'x', g: {edges: [[1, 2]], m: 1}}";
        let (fixes, items, mut object) = read_around(input, &named);
        assert_eq!(fixes, parser_fixes(input));
        object["rows"] = json!(items[..2]);
        object["g"]["edges"] = json!(items[2..]);
        assert_eq!(
            object,
            parse(input, &RepairOptions::default()).unwrap().value
        );
        // In the reply's order, whatever the members' order.
        let e = events_in("{g: {edges: [3]}, rows: [4]}", &named);
        assert_eq!(e[1], "member g/edges");
        assert_eq!(e[3], "member rows");
        // A key given again, on the way or the items' own: the last value counts.
        for input in [
            "{rows: [1], g: {edges: [2]}, rows: [3]}",
            "{g: {edges: [2]}, rows: [1], g: {edges: [3]}}",
            "{g: {edges: [2]}, g: 1}",
            "{rows: [1], rows: 2}",
        ] {
            assert_whole(input, &events_in(input, &named));
        }
        // Against any value, the first array alone (a wrapper's: see `largest_arrays` for
        // the ones a document is read through).
        assert_eq!(
            events_in("{a: [1], b: [2]}", &Members::Any)
                .last()
                .map(String::as_str),
            Some("end 2 {\"a\":[],\"b\":[2]} a []")
        );
    }

    #[test]
    fn the_arrays_that_hold_a_share_of_the_document_are_all_read() {
        let read = |input: &str, members: &Members| {
            let mut paths = Vec::new();
            fn walk(m: &Members, keys: &mut Vec<String>, out: &mut Vec<String>) {
                if let Members::Named(named) = m {
                    for (k, place) in named {
                        keys.push(k.clone());
                        match place {
                            Place::Items => out.push(keys.join("/")),
                            Place::Entries => out.push(format!("{}{{}}", keys.join("/"))),
                            Place::Within(inner) => walk(inner, keys, out),
                            Place::Kept => out.push(format!("{}*", keys.join("/"))),
                        }
                        keys.pop();
                    }
                }
            }
            let found = largest_arrays(input, &RepairOptions::default(), members, 4);
            walk(&found, &mut Vec::new(), &mut paths);
            paths
        };
        let list = |n: usize| (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        // Two large arrays, a level apart, and a small one held with the object (under a
        // sixteenth: `tags` holds 1 of 100 things handed over).
        let doc = format!(
            "{{tags: ['a'], nodes: [{}], g: {{n: 1, edges: [{}]}}}}",
            list(40),
            list(50)
        );
        assert_eq!(read(&doc, &Members::Any), ["g/edges", "nodes"]);
        // At most `HOLES`, the largest.
        let doc = format!(
            "{{a: [{}], b: [{}], c: [{}], d: [{}], e: [{}]}}",
            list(10),
            list(14),
            list(12),
            list(13),
            list(11)
        );
        assert_eq!(HOLES, 4);
        assert_eq!(read(&doc, &Members::Any), ["b", "d", "c", "e"]);
        // Where an object's members are the items, that object alone.
        let map = Members::Named(vec![
            ("a".to_owned(), Place::Items),
            ("m".to_owned(), Place::Entries),
        ]);
        let doc = format!("{{a: [{}], m: {{x: 1, y: 2, z: [{}]}}}}", list(8), list(20));
        assert_eq!(read(&doc, &map), ["m{}"]);
    }

    #[test]
    fn a_member_of_an_object_inside_the_top_level_one_comes_item_by_item() {
        assert_eq!(
            nested_events("{n: 1, data: {m: [2,], rows: [{b: 'x'}, 3,], k: 4}, z: 5}"),
            [
                "attempt",
                "member data/rows",
                "{\"b\":\"x\"} [UnquotedKey@ UnquotedKey@/data TrailingComma@/data/m UnquotedKey@/data UnquotedKey@/data/rows/0 QuoteStyle@/data/rows/0/b]",
                "3 []",
                "end 4 {\"n\":1,\"data\":{\"m\":[2],\"rows\":[],\"k\":4},\"z\":5} data/rows [TrailingComma@/data/rows UnquotedKey@/data UnquotedKey@]",
            ]
        );
        // The object on the way given again before it held the items: the last one counts.
        assert_eq!(
            nested_events("{data: {k: 1}, data: {rows: [7]}}")[2..],
            [
                "7 [UnquotedKey@ UnquotedKey@/data UnquotedKey@ UnquotedKey@/data]",
                "end 3 {\"data\":{\"rows\":[]}} data/rows [DuplicateKey@/data]"
            ]
        );
        // Items joining the array after it closed.
        assert_eq!(
            nested_events("{data: {rows: [1], [2]}}")[3..],
            [
                "2 [SplitArray@/data]",
                "end 3 {\"data\":{\"rows\":[]}} data/rows []"
            ]
        );
        // The fixes are the parser's, in order, with its paths; the object is its value with
        // the items taken out.
        let members = Members::Named(vec![(
            "data".to_owned(),
            Place::Within(Arc::new(member_rows())),
        )]);
        for input in [
            "{n: 1, data: {m: [2,], rows: [{b: 'x'}, 3,], k: 4}, z: 5}",
            "{data: {k: 1}, data: {rows: [7]}}",
            "{data: {rows: [1], [2,], n: 3,}, m: 4,} // x",
        ] {
            let (fixes, items, mut object) = read_around(input, &members);
            assert_eq!(fixes, parser_fixes(input), "{input}");
            object["data"]["rows"] = Value::Array(items);
            assert_eq!(
                object,
                parse(input, &RepairOptions::default()).unwrap().value,
                "{input}"
            );
        }
        // A key on the way, or the items' own, given again after them; an array where the
        // object on the way should be; the items' member in an object not on the way.
        for input in [
            "{data: {rows: [1]}, data: 2}",
            "{data: {rows: [1], rows: 2}}",
            "{data: [{rows: [1]}]}",
            "{other: {rows: [1]}}",
            "{data: {other: {rows: [1]}}}",
        ] {
            assert_whole(input, &nested_events(input));
        }
    }

    /// The reading of `input` ended saying it is no document read item by item.
    fn assert_whole(input: &str, events: &[String]) {
        assert_eq!(
            events.last().map(|e| e.starts_with("end none")),
            Some(true),
            "{input}: {events:?}"
        );
    }

    /// The keys [`largest_array`] leads through, in order (the last written `key{}` where
    /// its object's members are the items).
    fn largest(input: &str, members: &Members, levels: usize) -> Vec<String> {
        let mut path = Vec::new();
        let mut at = largest_array(input, &RepairOptions::default(), members, levels);
        while let Members::Named(mut named) = at {
            assert_eq!(named.len(), 1, "{input}");
            let (key, place) = named.remove(0);
            path.push(key);
            at = match place {
                Place::Items => Members::None,
                Place::Entries => {
                    let key = path.pop().unwrap_or_default();
                    path.push(format!("{key}{{}}"));
                    Members::None
                }
                Place::Within(inner) => Members::clone(&inner),
                Place::Kept => panic!("a chain names the container: {input}"),
            };
        }
        path
    }

    #[test]
    fn a_long_key_on_the_way_is_not_copied_into_each_path() {
        // Each object below a key was measured with its own copy of the keys leading to it:
        // four megabytes of key above 400 000 objects was 1.6 TB copied (minutes).
        let key = "k".repeat(4 << 20);
        let mut input = format!("{{\"{key}\": {{");
        for i in 0..400_000 {
            input.push_str(&format!("\"m{i}\": {{\"a\": [1, 2]}}, "));
        }
        input.push_str("\"last\": {\"a\": [1, 2, 3]}}}");
        assert_eq!(largest(&input, &Members::Any, 3), [format!("{key}{{}}")]);
        assert_eq!(largest(&input, &Members::Any, 1), [format!("{key}{{}}")]);
    }

    #[test]
    fn the_largest_array_the_members_allow_is_found() {
        let input =
            "{a: [1], b: {c: [1, 2, 3], e: {f: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}}, d: [{}]}";
        // Against any value: to as many objects deep as allowed.
        assert_eq!(largest(input, &Members::Any, 3), ["b", "e", "f"]);
        // `f` out of reach, `b`'s members one at a time hold the least at once: `e` (13
        // things handed over), against all but `c`'s 3 items for `c`.
        assert_eq!(largest(input, &Members::Any, 2), ["b{}"]);
        assert_eq!(largest(input, &Members::Any, 1), ["b{}"]);
        // An item is weighed by what is handed over inside it and its closing: `[{}]` holds
        // 2, and one item of 1; `[1]` holds 1, and one item of 1.
        assert_eq!(largest("{a: [1], d: [{}]}", &Members::Any, 1), ["d"]);
        // An object of many small members, not the small arrays inside them.
        assert_eq!(
            largest(
                "{meta: [1, 2], users: {u1: {t: [1, 2]}, u2: {t: [3]}, u3: {t: []}}}",
                &Members::Any,
                4
            ),
            ["users{}"]
        );
        // Only what the members allow.
        let named = |keys: &[&str]| {
            Members::Named(keys.iter().map(|k| (k.to_string(), Place::Items)).collect())
        };
        assert_eq!(largest(input, &named(&["a"]), 3), ["a"]);
        let within = Members::Named(vec![
            ("a".to_owned(), Place::Items),
            ("b".to_owned(), Place::Within(Arc::new(named(&["c"])))),
        ]);
        assert_eq!(largest(input, &within, 3), ["b", "c"]);
        // Items joining an array after it closed are its own; a tie goes to the first.
        assert_eq!(
            largest("{a: [1], [2, 3], b: [1, 2]}", &Members::Any, 1),
            ["a"]
        );
        assert_eq!(largest("{a: [1, 2], b: [3, 4]}", &Members::Any, 1), ["a"]);
        // A choice to make only where two arrays may be read.
        assert!(!Members::None.choose());
        assert!(!named(&["a"]).choose());
        let chain = Members::Named(vec![(
            "b".to_owned(),
            Place::Within(Arc::new(named(&["c"]))),
        )]);
        assert!(!chain.choose());
        assert!(within.choose());
        assert!(named(&["a", "d"]).choose());
        assert!(Members::Any.choose());
        // Where the members allow a map's members, and measured against an array.
        let map = Members::Named(vec![
            ("a".to_owned(), Place::Items),
            ("m".to_owned(), Place::Entries),
        ]);
        assert!(map.choose());
        // (A member is three things handed over: its key, its value, its end.)
        assert_eq!(
            largest("{a: [1, 2, 3, 4, 5, 6, 7], m: {x: 1, y: 2}}", &map, 3),
            ["a"]
        );
        assert_eq!(largest("{a: [1], m: {x: 1, y: 2}}", &map, 3), ["m{}"]);
        // No object, several values, or no container: none.
        for input in [
            "[1, 2]",
            "{a: [1]} {b: [1, 2]}",
            "{a: [1]} 2",
            "{a: 1}",
            "'x'",
        ] {
            assert_eq!(
                largest_array(input, &RepairOptions::default(), &Members::Any, 3),
                Members::None,
                "{input}"
            );
        }
    }

    /// What the parser hands a sink inside `v`: one call for a scalar, an opening and a
    /// closing for a container, and a key and a member's end for each member.
    fn handed(v: &Value) -> usize {
        match v {
            Value::Array(items) => 2 + items.iter().map(handed).sum::<usize>(),
            Value::Object(members) => 2 + members.values().map(|v| 2 + handed(v)).sum::<usize>(),
            _ => 1,
        }
    }

    /// What is handed over inside a container, less its largest item's share: an item is
    /// weighed by what is handed over from the event before it (its beginning, or a key) to
    /// its end, which is 1 for a scalar and all but its opening for a container.
    fn score(v: &Value) -> usize {
        let weight = |v: &Value| match v {
            Value::Array(_) | Value::Object(_) => handed(v) - 1,
            _ => 1,
        };
        let largest = match v {
            Value::Array(items) => items.iter().map(weight).max(),
            Value::Object(members) => members.values().map(weight).max(),
            _ => None,
        };
        handed(v) - 2 - largest.unwrap_or(0)
    }

    /// Every container reached through objects only, to `levels` objects deep, in the order
    /// they close: its keys (the last written `key{}` for an object, whose members are then
    /// the items) and its [`score`].
    fn containers(
        v: &Value,
        levels: usize,
        keys: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, usize)>,
    ) {
        let Value::Object(members) = v else { return };
        for (k, v) in members {
            keys.push(k.clone());
            match v {
                Value::Array(_) => out.push((keys.clone(), score(v))),
                Value::Object(_) => {
                    if levels > 1 {
                        containers(v, levels - 1, keys, out);
                    }
                    let mut at = keys.clone();
                    if let Some(last) = at.last_mut() {
                        last.push_str("{}");
                    }
                    out.push((at, score(v)));
                }
                _ => {}
            }
            keys.pop();
        }
    }

    /// An object, with objects nested in it to a few levels, holding arrays of a few values
    /// (often as many as another's), with distinct keys.
    fn document() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(json!(1)),
            Just(json!("s")),
            Just(json!(null)),
            proptest::collection::vec(
                prop_oneof![
                    4 => Just(json!(2)),
                    1 => Just(json!({"k": [3]})),
                    1 => Just(json!({"k": 1, "l": 1, "m": 1})),
                ],
                0..12
            )
            .prop_map(Value::Array),
        ];
        let object = |inner| {
            proptest::collection::btree_map("[a-e]", inner, 1..5)
                .prop_map(|m| Value::Object(m.into_iter().collect()))
        };
        object(leaf.prop_recursive(3, 30, 4, object).boxed())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// [`largest_array`] finds the container a walk of the value says is best (the
        /// first of equals), to as many objects deep as it is allowed.
        #[test]
        fn the_largest_array_is_the_one_the_value_says(doc in document(), levels in 1usize..5) {
            let text = doc.to_string();
            let mut found = Vec::new();
            containers(&doc, levels, &mut Vec::new(), &mut found);
            let best = found
                .iter()
                .fold(None::<&(Vec<String>, usize)>, |best, a| match best {
                    Some(b) if b.1 >= a.1 => Some(b),
                    _ => Some(a),
                })
                .map(|(keys, _)| keys.clone())
                .unwrap_or_default();
            proptest::prop_assert_eq!(largest(&text, &Members::Any, levels), best, "{}", text);
        }
    }

    #[test]
    fn anything_but_one_top_level_array_is_said() {
        for input in ["{\"a\": 1}", "1", "'x'", "[1] [2]", "[1] {\"a\": 1}", "(1)"] {
            let e = events(input);
            assert_eq!(
                e.last().map(|e| e.starts_with("end none")),
                Some(true),
                "{input}: {e:?}"
            );
        }
        let e = events("no json");
        assert!(e[1].starts_with("end RepairError"), "{e:?}");
    }

    #[test]
    fn each_item_is_the_item_parse_gives() {
        let input = "[{id: 1, tags: ['a',], \"id\": 2}, \"s\\u00e9\", 1.50, None, {a: {b: [True]}}";
        let parsed = parse(input, &RepairOptions::default()).unwrap();
        let mut items = Vec::new();
        let mut fixes = Vec::new();
        each_item(
            input,
            &RepairOptions::default(),
            Want::ALL,
            &Members::None,
            |e| {
                match e {
                    Event::Item {
                        fixes: f, value, ..
                    } => {
                        fixes.extend(f);
                        items.push(value);
                    }
                    Event::End { fixes: f, .. } => fixes.extend(f),
                    Event::Attempt | Event::Member { .. } => {}
                }
                true
            },
        );
        assert_eq!(Value::Array(items), parsed.value);
        assert_eq!(fixes, parser_fixes(input));
        assert_eq!(parsed.value[0], json!({"id": 2, "tags": ["a"]}));
    }

    #[test]
    fn several_top_level_values_come_as_the_items_of_their_array() {
        for input in [
            "// c\n{a: 1} // d\n{'b': [2,]}\n3",
            "{\"a\": 1},\n{\"b\": 2},",
            "{a: 1}\n{b: 'x",
            "1 2 'three'",
            "{a: [1, 2]}\n[3, 4]\n{}",
            "{a: 1}}\n{b: 2}",
        ] {
            let parsed = parse(input, &RepairOptions::default()).unwrap();
            let (mut items, mut fixes, mut found) = (Vec::new(), Vec::new(), None);
            each_item(
                input,
                &RepairOptions::default(),
                Want::ALL,
                &Members::Values,
                |e| {
                    match e {
                        Event::Item {
                            fixes: f, value, ..
                        } => {
                            fixes.extend(f);
                            items.push(value);
                        }
                        Event::End {
                            fixes: f,
                            result,
                            several,
                        } => {
                            fixes.extend(f);
                            found = Some((result.unwrap().is_some(), several));
                        }
                        Event::Attempt | Event::Member { .. } => {}
                    }
                    true
                },
            );
            assert_eq!(Value::Array(items), parsed.value, "{input}");
            assert_eq!(fixes, parser_fixes(input), "{input}");
            // (`several` says what a reading through other members found.)
            assert_eq!(found, Some((true, false)), "{input}");
        }
        // One value is not several: read another way. Read through other members, several
        // are said to be there.
        assert_eq!(
            events_in("{a: 1}", &Members::Values),
            ["attempt", "end none []"]
        );
        let mut several = false;
        each_item(
            "{a: 1} {b: 2}",
            &RepairOptions::default(),
            Want::ALL,
            &Members::Any,
            |e| {
                several |= matches!(e, Event::End { several: true, .. });
                true
            },
        );
        assert!(several);
    }

    /// A guess about a missing quote that led nowhere: the parser reads the input again,
    /// and what the first reading handed over is void.
    #[test]
    fn a_second_reading_starts_afresh() {
        for input in ["[1 ']1a['1\"\"", "[',{],x\"\",1]", "[1\"\"\",]\n]:{]"] {
            let parsed = parse(input, &RepairOptions::default()).unwrap();
            let (mut attempts, mut items) = (0, Vec::new());
            each_item(
                input,
                &RepairOptions::default(),
                Want::ALL,
                &Members::None,
                |e| {
                    match e {
                        Event::Attempt => {
                            attempts += 1;
                            items.clear();
                        }
                        Event::Item { value, .. } => items.push(value),
                        Event::End { .. } | Event::Member { .. } => {}
                    }
                    true
                },
            );
            assert_eq!(
                (attempts, Value::Array(items)),
                (2, parsed.value),
                "{input}"
            );
        }
    }

    /// Without values, the fixes are the same: a key given twice and a number out of range
    /// are found without the value.
    #[test]
    fn fixes_alone_are_the_same_fixes() {
        let input = "[{a: 1, \"a\": 2, b: 1e999, c: {d: [1,], d: 'x'}}, 'y' NaN, {e: .5}]";
        let read = |want: Want| {
            let mut out = Vec::new();
            each_item(
                input,
                &RepairOptions::default(),
                want,
                &Members::None,
                |e| {
                    match e {
                        Event::Item { fixes, value, .. } => out.push((fixes, value)),
                        Event::End { fixes, .. } => out.push((fixes, Value::Bool(true))),
                        Event::Attempt | Event::Member { .. } => {}
                    }
                    true
                },
            );
            out
        };
        let all = read(Want::ALL);
        let fixes_only = read(Want {
            paths: true,
            values: false,
        });
        assert_eq!((all.len(), fixes_only.len()), (5, 5));
        for ((a, v), (b, w)) in all.iter().zip(&fixes_only) {
            assert_eq!(a, b);
            assert_eq!(w, if v.is_boolean() { v } else { &Value::Null });
        }
        assert!(all[0]
            .0
            .iter()
            .any(|(k, _)| *k == Some(RepairKind::DuplicateKey)));
        assert!(all[0]
            .0
            .iter()
            .any(|(k, _)| *k == Some(RepairKind::NonFinite)));
        let counted = read(Want {
            paths: false,
            values: true,
        });
        let kinds = |r: &[(Vec<Fix>, Value)]| -> Vec<RepairKind> {
            r.iter()
                .flat_map(|(f, _)| f.iter().filter_map(|x| x.0))
                .collect()
        };
        assert_eq!(kinds(&counted), kinds(&all));
        assert!(counted
            .iter()
            .all(|(f, _)| f.iter().all(|x| x.1.is_empty())));
    }

    #[test]
    fn the_caller_may_stop_listening() {
        // 30 KB, read on the caller's thread; 300 KB, on a thread of its own.
        for n in [10_000, 100_000] {
            let input = format!("[{}0]", "1, ".repeat(n));
            let mut seen = 0;
            each_item(
                &input,
                &RepairOptions::default(),
                Want::ALL,
                &Members::None,
                |e| {
                    seen += usize::from(matches!(e, Event::Item { .. }));
                    seen < 5
                },
            );
            assert_eq!(seen, 5);
        }
    }

    /// A long input with fixes, items and a second reading: the same events either way.
    #[test]
    fn a_long_input_reads_the_same_on_either_thread() {
        let item = "{id: 1, 'tags': ['a',], \"id\": 2, note: \"x\"}, ";
        let input = format!(
            "// rows\n[{}1.50, None]",
            item.repeat(ON_THIS_THREAD / item.len() + 1)
        );
        assert!(input.len() > ON_THIS_THREAD);
        let read = events(&input);
        // "attempt", the items, the end.
        assert_eq!(read.len(), ON_THIS_THREAD / item.len() + 5);
        assert_eq!(read[1], "{\"id\":2,\"tags\":[\"a\"],\"note\":\"x\"} [Comment@ UnquotedKey@/0 QuoteStyle@/0 QuoteStyle@/0/tags/0 TrailingComma@/0/tags DuplicateKey@/0/id UnquotedKey@/0]");
    }
}
