//! The lenient parser on a document that is one top-level array, handing over each item as
//! soon as it is read, with the fixes made up to it, instead of building the whole value:
//! memory follows the largest item, not the document (see [`each_item`]).
//!
//! The parser is the same one [`parse`](super::parse) runs, over the same input with the same
//! options, so the items are exactly the items of [`parse`]'s value, and the fixes exactly its
//! [`Repairs`](super::Repairs), in the same order with the same paths.
//!
//! The parser builds its sink and log itself (`Sink::new`, `Log::new`), so what it reads
//! reaches the caller through the parsing thread's outbox: [`each_item`] runs the parser on a
//! thread of its own, whose sink and log put items and fixes in a bounded channel the
//! caller's thread reads.

use std::cell::RefCell;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use serde_json::Value;

use super::log::{write_segment, Log, Seg, ROOT};
use super::sink::{Int, KeySink, Sink, ValueSink};
use super::{parser, RepairError, RepairKind, RepairOptions};

/// One fix: its kind and the JSON pointer of the value being built (as [`Repair`](super::Repair)
/// gives them).
pub(crate) type Fix = (RepairKind, String);

/// What the parsing thread hands over, in input order.
pub(crate) enum Event {
    /// A parse of the input begins. The parser reads a document a second time when a guess
    /// about a missing quote led nowhere: what the earlier attempt handed over is void.
    Attempt,
    /// An item of the top-level array, complete, and the fixes made since the last event
    /// (those before the item, at the array's level, and the item's own).
    Item { fixes: Vec<Fix>, value: Value },
    /// The parse is over: the fixes made since the last item, and whether the document was
    /// one top-level array whose items were all handed over (`Ok(Some(depth))`, the deepest
    /// nesting in it, the array's own level counted), something else (`Ok(None)`: read it
    /// with [`parse`](super::parse)), or no JSON (`Err`).
    End {
        fixes: Vec<Fix>,
        result: Result<Option<usize>, RepairError>,
    },
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

/// Events go over in batches of this many items (one wake-up of the other thread each), and
/// at most `QUEUE` batches wait: memory is that many items, whatever the document.
const BATCH: usize = 256;
const QUEUE: usize = 4;

/// Runs the lenient parser over `input` on a thread of its own and calls `each` with what it
/// reads, in order, until [`Event::End`] (or until `each` returns false: the parse then goes
/// on to its end, handing over nothing more). Linear in the input, as the parser is.
pub(crate) fn each_item(
    input: &str,
    options: &RepairOptions,
    want: Want,
    mut each: impl FnMut(Event) -> bool,
) {
    let (send, receive) = sync_channel(QUEUE);
    std::thread::scope(|scope| {
        scope.spawn(|| parse_into(input, options, want, send));
        drain(receive, &mut each);
    });
}

fn drain(receive: Receiver<Vec<Event>>, each: &mut impl FnMut(Event) -> bool) {
    for batch in receive.iter() {
        for event in batch {
            let end = matches!(event, Event::End { .. });
            if !each(event) || end {
                // Dropping the receiver tells the parsing thread to send nothing more.
                return;
            }
        }
    }
}

/// The parsing thread: the parser, with the sink and log below sending through `send`.
fn parse_into(input: &str, options: &RepairOptions, want: Want, send: SyncSender<Vec<Event>>) {
    OUTBOX.with(|o| {
        *o.borrow_mut() = Some(Outbox {
            send,
            batch: Vec::new(),
            fixes: Vec::new(),
            want,
            open: true,
        })
    });
    let result = if want.values {
        parser::run::<ItemSink<ValueSink>, ItemLog>(input, options).map(|(sink, _, _)| sink.array())
    } else {
        parser::run::<ItemSink<KeySink>, ItemLog>(input, options).map(|(sink, _, _)| sink.array())
    };
    OUTBOX.with(|o| {
        if let Some(mut outbox) = o.borrow_mut().take() {
            let fixes = std::mem::take(&mut outbox.fixes);
            outbox.send(Event::End { fixes, result });
            outbox.flush();
        }
    });
}

thread_local! {
    /// The parsing thread's way out (see the module docs).
    static OUTBOX: RefCell<Option<Outbox>> = const { RefCell::new(None) };
}

struct Outbox {
    send: SyncSender<Vec<Event>>,
    /// Events not sent yet.
    batch: Vec<Event>,
    /// Fixes since the last event.
    fixes: Vec<Fix>,
    want: Want,
    /// False once the caller stopped listening.
    open: bool,
}

impl Outbox {
    fn send(&mut self, event: Event) {
        if self.open {
            self.batch.push(event);
            if self.batch.len() >= BATCH {
                self.flush();
            }
        }
    }

    fn flush(&mut self) {
        let batch = std::mem::take(&mut self.batch);
        if self.open && !batch.is_empty() && self.send.send(batch).is_err() {
            self.open = false;
        }
    }
}

fn with_outbox(f: impl FnOnce(&mut Outbox)) {
    OUTBOX.with(|o| {
        if let Some(outbox) = o.borrow_mut().as_mut() {
            f(outbox)
        }
    })
}

/// What the top-level value turned out to be so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    None,
    Array,
    /// Anything else: several values, an object, a scalar, a tuple of one item.
    Other,
}

/// Builds each item of a top-level array with a sink of its own and sends it when it is
/// complete; anything but a top-level array is only noted (`Root::Other`).
struct ItemSink<S> {
    root: Root,
    /// Containers open, the top-level array included.
    depth: usize,
    /// The most containers open at once.
    deepest: usize,
    /// The item being built (`depth` is 2 or more while it is a container).
    item: Option<S>,
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
    /// The sink of the item an event belongs to, starting one for an event at the array's
    /// level; `None` when the event is not inside a top-level array.
    fn item(&mut self) -> Option<&mut S> {
        if self.root != Root::Array || self.depth == 0 {
            self.root = Root::Other;
            return None;
        }
        Some(self.item.get_or_insert_with(|| S::new(0)))
    }

    /// A scalar: an item by itself at the array's level.
    fn scalar(&mut self, put: impl FnOnce(&mut S)) {
        if let Some(sink) = self.item() {
            put(sink);
            self.complete();
        }
    }

    /// Sends the item once it is complete (nothing of it is open any more).
    fn complete(&mut self) {
        if self.depth == 1 {
            if let Some(item) = self.item.take() {
                let value = item.value();
                with_outbox(|o| {
                    let fixes = std::mem::take(&mut o.fixes);
                    o.send(Event::Item { fixes, value });
                });
            }
        }
    }

    /// What the document was: `Some(deepest)` for one top-level array.
    fn array(&self) -> Option<usize> {
        (self.root == Root::Array && self.depth == 0).then_some(self.deepest)
    }

    /// A container opens.
    fn open(&mut self, begin: impl FnOnce(&mut S)) {
        if let Some(sink) = self.item() {
            begin(sink);
            self.depth += 1;
            self.deepest = self.deepest.max(self.depth);
        }
    }

    /// A container closes: the top-level array, or one inside an item.
    fn close(&mut self, end: impl FnOnce(&mut S)) {
        match self.depth {
            0 => self.root = Root::Other,
            1 => self.depth = 0,
            _ => {
                if let Some(sink) = self.item.as_mut() {
                    end(sink);
                }
                self.depth -= 1;
                self.complete();
            }
        }
    }

    /// An event that only happens inside an object, so inside an item.
    fn inside(&mut self, f: impl FnOnce(&mut S)) {
        match self.item.as_mut() {
            Some(sink) if self.depth >= 2 => f(sink),
            _ => self.root = Root::Other,
        }
    }
}

impl<'a, S: Item> Sink<'a> for ItemSink<S> {
    fn new(_: usize) -> Self {
        with_outbox(|o| {
            o.fixes.clear();
            o.send(Event::Attempt);
        });
        ItemSink {
            root: Root::None,
            depth: 0,
            deepest: 0,
            item: None,
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
        self.open(|s| s.begin_object());
    }
    fn key(&mut self, key: &str, safe: bool) {
        self.inside(|s| s.key(key, safe));
    }
    fn end_member(&mut self) -> bool {
        let mut duplicate = false;
        self.inside(|s| duplicate = s.end_member());
        duplicate
    }
    fn abandon_member(&mut self) {
        self.inside(|s| s.abandon_member());
    }
    fn end_object(&mut self) {
        self.close(|s| s.end_object());
    }
    fn begin_array(&mut self) {
        if self.depth == 0 && self.root == Root::None {
            self.root = Root::Array;
            self.depth = 1;
            self.deepest = 1;
            return;
        }
        self.open(|s| s.begin_array());
    }
    fn end_array(&mut self) {
        self.close(|s| s.end_array());
    }
    fn root_to_array(&mut self) {
        self.root = Root::Other;
    }
    fn object_to_array(&mut self) {
        self.inside(|s| s.object_to_array());
    }
    fn end_array_as_item(&mut self) {
        // The array at the top level closing as its one item: not an array after all.
        if self.depth <= 1 {
            self.root = Root::Other;
            return;
        }
        self.close(|s| s.end_array_as_item());
    }
    fn reopen_array(&mut self) {
        self.inside(|s| s.reopen_array());
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }
    fn close_reopened(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.inside(|s| s.close_reopened());
    }
    fn root_string(&self) -> Option<&str> {
        None
    }
    fn unwrap_root<L: Log>(&mut self, _: &RepairOptions) -> Option<(L, usize)> {
        None
    }
}

/// Puts each fix, with its path, in the outbox. Paths are built as [`Repairs`](super::Repairs)
/// builds them, but only the current item's are kept: a node whose parent is the document is
/// the first of a new item's, and the parser has let go of every node before it. Node numbers
/// are never reused (the parser compares them to merge a run of one fix).
#[derive(Default)]
struct ItemLog {
    /// The number of the first node kept.
    base: usize,
    /// Where each kept node's pointer is in `paths`.
    spans: Vec<(usize, usize)>,
    paths: Vec<u8>,
}

impl ItemLog {
    fn pointer(&self, node: usize) -> &str {
        if node == ROOT {
            return "";
        }
        node.checked_sub(self.base)
            .and_then(|i| self.spans.get(i))
            .and_then(|&(start, end)| self.paths.get(start..end))
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }
}

impl Log for ItemLog {
    fn new() -> Self {
        ItemLog::default()
    }
    fn node(&mut self, parent: usize, seg: Seg, src: &str) -> usize {
        if parent == ROOT {
            self.base += self.spans.len();
            self.spans.clear();
            self.paths.clear();
        }
        let start = self.paths.len();
        let parent = parent
            .checked_sub(self.base)
            .and_then(|i| self.spans.get(i).copied());
        if let Some((from, to)) = parent {
            self.paths.extend_from_within(from..to);
        }
        write_segment(&mut self.paths, src, seg);
        self.spans.push((start, self.paths.len()));
        self.base + self.spans.len() - 1
    }
    fn push(&mut self, kind: RepairKind, _: usize, node: usize) {
        with_outbox(|o| {
            let path = if o.want.paths {
                self.pointer(node).to_owned()
            } else {
                String::new()
            };
            o.fixes.push((kind, path));
        });
    }
    fn prefix_first(&mut self, _: usize) {
        // Several top-level values: the sink has said the document is no array of items.
    }
    fn append(&mut self, _: Self) {
        // Only a double-encoded document's, which `ItemSink` never unwraps.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What [`each_item`] hands over for `input`, written out: each attempt's items and fixes,
    /// then how it ended.
    fn events(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        let fixes = |f: Vec<Fix>| {
            f.into_iter()
                .map(|(k, p)| format!("{k:?}@{p}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        each_item(input, &RepairOptions::default(), Want::ALL, |e| {
            out.push(match e {
                Event::Attempt => "attempt".to_owned(),
                Event::Item { fixes: f, value } => format!("{value} [{}]", fixes(f)),
                Event::End { fixes: f, result } => format!("end {result:?} [{}]", fixes(f)),
            });
            true
        });
        out
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
                "end Ok(Some(2)) [TrailingComma@]",
            ]
        );
        assert_eq!(events("[]"), ["attempt", "end Ok(Some(1)) []"]);
        assert_eq!(
            events("[[[1]], {\"a\": [{\"b\": 2}]}]"),
            [
                "attempt",
                "[[1]] []",
                "{\"a\":[{\"b\":2}]} []",
                "end Ok(Some(4)) []"
            ]
        );
    }

    #[test]
    fn anything_but_one_top_level_array_is_said() {
        for input in ["{\"a\": 1}", "1", "'x'", "[1] [2]", "[1] {\"a\": 1}", "(1)"] {
            let e = events(input);
            assert_eq!(
                e.last().map(|e| e.starts_with("end Ok(None)")),
                Some(true),
                "{input}: {e:?}"
            );
        }
        let e = events("no json");
        assert!(e[1].starts_with("end Err("), "{e:?}");
    }

    #[test]
    fn each_item_is_the_item_parse_gives() {
        let input = "[{id: 1, tags: ['a',], \"id\": 2}, \"s\\u00e9\", 1.50, None, {a: {b: [True]}}";
        let parsed = super::super::parse(input, &RepairOptions::default()).unwrap();
        let mut items = Vec::new();
        let mut fixes = Vec::new();
        each_item(input, &RepairOptions::default(), Want::ALL, |e| {
            match e {
                Event::Item { fixes: f, value } => {
                    fixes.extend(f);
                    items.push(value);
                }
                Event::End { fixes: f, .. } => fixes.extend(f),
                Event::Attempt => {}
            }
            true
        });
        assert_eq!(Value::Array(items), parsed.value);
        let expected: Vec<Fix> = parsed
            .repairs
            .iter()
            .map(|r| (r.kind, r.path.to_owned()))
            .collect();
        assert_eq!(fixes, expected);
        assert_eq!(parsed.value[0], json!({"id": 2, "tags": ["a"]}));
    }

    /// A guess about a missing quote that led nowhere: the parser reads the input again,
    /// and what the first reading handed over is void.
    #[test]
    fn a_second_reading_starts_afresh() {
        for input in ["[1 ']1a['1\"\"", "[',{],x\"\",1]", "[1\"\"\",]\n]:{]"] {
            let parsed = super::super::parse(input, &RepairOptions::default()).unwrap();
            let (mut attempts, mut items) = (0, Vec::new());
            each_item(input, &RepairOptions::default(), Want::ALL, |e| {
                match e {
                    Event::Attempt => {
                        attempts += 1;
                        items.clear();
                    }
                    Event::Item { value, .. } => items.push(value),
                    Event::End { .. } => {}
                }
                true
            });
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
            each_item(input, &RepairOptions::default(), want, |e| {
                match e {
                    Event::Item { fixes, value } => out.push((fixes, value)),
                    Event::End { fixes, .. } => out.push((fixes, Value::Bool(true))),
                    Event::Attempt => {}
                }
                true
            });
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
        assert!(all[0].0.iter().any(|(k, _)| *k == RepairKind::DuplicateKey));
        assert!(all[0].0.iter().any(|(k, _)| *k == RepairKind::NonFinite));
        let counted = read(Want {
            paths: false,
            values: true,
        });
        let kinds = |r: &[(Vec<Fix>, Value)]| -> Vec<RepairKind> {
            r.iter().flat_map(|(f, _)| f.iter().map(|x| x.0)).collect()
        };
        assert_eq!(kinds(&counted), kinds(&all));
        assert!(counted
            .iter()
            .all(|(f, _)| f.iter().all(|x| x.1.is_empty())));
    }

    #[test]
    fn the_caller_may_stop_listening() {
        let input = format!("[{}0]", "1, ".repeat(10_000));
        let mut seen = 0;
        each_item(&input, &RepairOptions::default(), Want::ALL, |e| {
            seen += usize::from(matches!(e, Event::Item { .. }));
            seen < 5
        });
        assert_eq!(seen, 5);
    }
}
