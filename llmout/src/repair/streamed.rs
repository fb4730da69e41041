//! The lenient parser's JSON text written as it is made, for a large input whose text, held
//! whole, would be much larger than the input (a string of raw control characters is
//! `\u0001` for each, six bytes for one; of raw line breaks, `\n`, two).
//!
//! The text sink ([`Text`](super::sink::Text)) holds its output because a few fixes change
//! what it wrote before: a key given twice rewrites its object, a value becomes the first
//! item of an array (several top-level values, a Python set), a parenthesized value loses
//! its brackets, an array is opened again, a document is unwrapped, a member is taken back.
//! [`streamable`] first parses the input counting, with nothing written, and notes whether
//! any of those happened; where none did, [`write_streamed`] parses it again in the same
//! mode and writes each piece as it comes, to the caller's thread in chunks of 64 KiB: the
//! same text, byte for byte, in memory about the input and a few chunks.

use std::io::Write;
use std::sync::mpsc::{sync_channel, SyncSender};

use super::log::{Counter, Log};
use super::parser;
use super::sink::{escape_body, is_finite, write_string, Int, KeySink, Sink};
use super::{RepairError, RepairOptions};

/// What [`write_streamed`] needs to know of a parse [`streamable`] made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Streamable {
    /// The fixes, counted as [`super::to_string_counted`] counts them.
    pub(crate) fixes: usize,
    /// Whether the parse that counted was the careful one ([`parser::run`]'s second).
    careful: bool,
}

/// The input's fixes and how it was parsed, where its text can be written as it is made:
/// `Ok(None)` where a fix would change what was written before (see the module docs).
pub(crate) fn streamable(
    input: &str,
    options: &RepairOptions,
) -> Result<Option<Streamable>, RepairError> {
    let (sink, counter, _, careful) = parser::run_noting_mode::<KeySink, Counter>(input, options)?;
    let fits = !sink.edited() && counter.duplicate_keys == 0;
    Ok(fits.then_some(Streamable {
        fixes: counter.fixes,
        careful,
    }))
}

/// Writes the text [`super::to_string`] writes for `input` (which [`streamable`] took, as
/// `how`) to `out`, as it is made. The parser runs on a thread of its own, handing each chunk
/// over; an error is the writer's.
pub(crate) fn write_streamed(
    input: &str,
    options: &RepairOptions,
    how: Streamable,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let (send, receive) = sync_channel::<String>(QUEUE);
    std::thread::scope(|scope| {
        let parser = scope.spawn(move || {
            OUTLET.with(|o| *o.borrow_mut() = Some(send));
            let parsed = parser::run_in_mode::<Streamed, Counter>(input, options, how.careful);
            let ok = match parsed {
                Ok((mut sink, _, _)) => {
                    sink.flush();
                    !sink.broken
                }
                Err(_) => false,
            };
            OUTLET.with(|o| o.borrow_mut().take());
            ok
        });
        let mut written = Ok(());
        for chunk in receive {
            written = out.write_all(chunk.as_bytes());
            if written.is_err() {
                // Dropping the receiver tells the parsing thread to send nothing more.
                break;
            }
        }
        let ok = parser.join().unwrap_or(false);
        written?;
        if ok {
            Ok(())
        } else {
            // (Never: the parse that counted made no fix that edits, in the same mode.)
            Err(std::io::Error::other(
                "the JSON could not be written as it is made",
            ))
        }
    })
}

/// How many chunks wait for the writer at most.
const QUEUE: usize = 4;

/// The size of a chunk handed over.
const CHUNK: usize = 1 << 16;

/// The most of a string escaped at once (its escapes are at most six times it).
const PIECE: usize = CHUNK / 8;

thread_local! {
    /// Where the parsing thread's [`Streamed`] sink hands its chunks.
    static OUTLET: std::cell::RefCell<Option<SyncSender<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Writes what [`super::sink::Text`] writes, event for event, handing it over in chunks; it
/// keeps no record of what it wrote, so the events that would change that text (which
/// [`streamable`] found none of) only mark it broken.
struct Streamed {
    buf: String,
    /// Each open container: whether it is an object, and its items or members so far.
    frames: Vec<(bool, usize)>,
    outlet: Option<SyncSender<String>>,
    broken: bool,
}

impl Streamed {
    /// Hands the chunk over once it is full (`flush` hands over what there is).
    #[inline]
    fn written(&mut self) {
        if self.buf.len() >= CHUNK {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let chunk = std::mem::replace(&mut self.buf, String::with_capacity(2 * CHUNK));
        if let Some(outlet) = &self.outlet {
            if outlet.send(chunk).is_err() {
                // The writer failed: nothing more is sent.
                self.outlet = None;
            }
        }
    }

    /// A separator before an array's item (or a member, see `key`).
    fn separate(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if f.1 > 0 {
                self.buf.push(',');
            }
            f.1 += 1;
        }
    }

    fn before_value(&mut self) {
        if self.frames.last().is_some_and(|f| !f.0) {
            self.separate();
        }
    }

    fn open(&mut self, object: bool) {
        self.before_value();
        self.frames.push((object, 0));
        self.buf.push(if object { '{' } else { '[' });
    }

    fn scalar(&mut self, text: &str) {
        self.before_value();
        self.buf.push_str(text);
        self.written();
    }
}

impl<'a> Sink<'a> for Streamed {
    // (Text keeps a number's digits.)
    const ROUNDS: bool = false;
    fn new(_: usize) -> Self {
        Streamed {
            buf: String::with_capacity(2 * CHUNK),
            frames: Vec::new(),
            outlet: OUTLET.with(|o| o.borrow().clone()),
            broken: false,
        }
    }
    fn null(&mut self) {
        self.scalar("null");
    }
    fn bool(&mut self, v: bool) {
        self.scalar(if v { "true" } else { "false" });
    }
    fn int(&mut self, _: Int, text: &str) {
        self.scalar(text);
    }
    fn float(&mut self, text: &str) -> bool {
        let finite = is_finite(text);
        self.scalar(if finite { text } else { "null" });
        finite
    }
    fn string(&mut self, s: &str, safe: bool) {
        self.before_value();
        if s.len() <= PIECE {
            write_string(&mut self.buf, s, safe);
            self.written();
        } else {
            // (As `write_string` writes it, a piece at a time.)
            self.buf.push('"');
            self.string_part(s);
            self.buf.push('"');
        }
    }
    // A top-level string comes whole, as the text sink takes it (to unwrap a document it
    // may hold: which `streamable` found it does not).
    fn begin_string(&mut self) -> bool {
        if self.frames.is_empty() {
            return false;
        }
        self.before_value();
        self.buf.push('"');
        true
    }
    fn string_part(&mut self, mut part: &str) {
        // A part may be a whole long string of the input, and six times it escaped: it is
        // escaped a piece at a time.
        while part.len() > PIECE {
            let mut end = PIECE;
            while !part.is_char_boundary(end) {
                end -= 1;
            }
            escape_body(&mut self.buf, &part[..end]);
            self.written();
            part = &part[end..];
        }
        escape_body(&mut self.buf, part);
        self.written();
    }
    fn end_string(&mut self) {
        self.buf.push('"');
    }
    fn begin_object(&mut self) {
        self.open(true);
    }
    fn key(&mut self, key: &str, safe: bool) {
        self.separate();
        write_string(&mut self.buf, key, safe);
        self.buf.push(':');
        self.written();
    }
    fn end_member(&mut self) -> bool {
        // (No key is given twice: `streamable` counted none.)
        false
    }
    fn abandon_member(&mut self) {
        self.broken = true;
    }
    fn end_object(&mut self) {
        self.frames.pop();
        self.buf.push('}');
        self.written();
    }
    fn begin_array(&mut self) {
        self.open(false);
    }
    fn end_array(&mut self) {
        self.frames.pop();
        self.buf.push(']');
        self.written();
    }
    fn root_to_array(&mut self) {
        self.broken = true;
    }
    fn object_to_array(&mut self) {
        self.broken = true;
    }
    fn end_array_as_item(&mut self) {
        self.broken = true;
    }
    fn reopen_array(&mut self) {
        self.broken = true;
    }
    fn close_reopened(&mut self) {
        self.broken = true;
    }
    fn root_string(&self) -> Option<&str> {
        None
    }
    fn unwrap_root<L: Log>(&mut self, _: &RepairOptions) -> Option<(L, usize)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::to_string_counted;

    /// What is written as it is made for `input`, checked against the text sink's: `None`
    /// where `streamable` leaves it to the text sink.
    fn streamed(input: &str) -> Option<String> {
        let options = RepairOptions::default();
        let held = to_string_counted(input, &options);
        let how = match streamable(input, &options) {
            Ok(how) => how?,
            Err(e) => {
                assert_eq!(held.err(), Some(e), "{input:?}");
                return None;
            }
        };
        let held = held.unwrap();
        assert_eq!(how.fixes, held.fixes, "{input:?}");
        let mut out = Vec::new();
        write_streamed(input, &options, how, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out, held.json, "{input:?}");
        Some(out)
    }

    #[test]
    fn a_text_no_fix_edits_is_written_as_the_text_sink_writes_it() {
        // Long strings, escaped a piece at a time: raw control characters, line breaks,
        // characters of two to four bytes across the pieces' ends, closed or cut off.
        let long = |unit: &str| unit.repeat(3 * PIECE / unit.len() + 7);
        let inputs = [
            format!("{{\"a\": \"{}\"}}", long("\u{1}")),
            format!("{{\"a\": \"x{}", long("\n")),
            format!("{{\"a\": \"x{}\" and \"y}}", long("\n")),
            format!("[\"{}\", '{}']", long("é\t"), long("😀\u{1f}")),
            format!("{{a: [{}], b: '{}'}}", long("1, "), long("€")),
            format!("\"{}\"", long("\u{2}")),
        ];
        for (i, input) in inputs.iter().enumerate() {
            let out = streamed(input).unwrap_or_else(|| panic!("input {i} is not streamed"));
            // (Each but the string left open, whose line breaks are its layout: `{"a":"x"}`.)
            assert_eq!(out.len() > 3 * PIECE, i != 1, "input {i}");
        }
        // Messy as a model writes it, and nothing at all to fix.
        for input in [
            "{name: 'Ada', tags: ['x',], n: .5, ok: True} // done",
            "[1, 2, {\"a\": null}]",
            "{\"a\": \"cut",
        ] {
            assert!(streamed(input).is_some(), "{input}");
        }
        // A chunk is handed over every 64 KiB, in order.
        let many = format!("[{}]", long("{\"k\": \"v\"}, ").repeat(20));
        assert!(streamed(&many).is_some_and(|out| out.len() > 4 * CHUNK));
    }

    #[test]
    fn a_fix_that_edits_what_was_written_leaves_it_to_the_text_sink() {
        for input in [
            r#"{"a": 1, "a": 2}"#,
            "{\"a\": 1} {\"b\": 2}",
            "{'a', 'b'}",
            "[(1)]",
            r#"{"a": [1], [2]}"#,
        ] {
            assert_eq!(streamed(input), None, "{input}");
        }
        // A document escaped as a whole, unwrapped.
        let options = RepairOptions::default().unwrap_double_encoded(true);
        let escaped = r#""{\"a\": 1}""#;
        assert_eq!(streamable(escaped, &options), Ok(None));
        assert!(streamable(escaped, &RepairOptions::default())
            .unwrap()
            .is_some());
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Any text made of the pieces a model's broken JSON is made of: where it is
        /// written as it is made, the same text as the text sink's, the same fixes.
        #[test]
        fn any_text_streamed_is_the_text_sinks(pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                "{", "}", "[", "]", "(", ")", "\"a\"", "'b'", "c", ":", ",", " ", "1", "-2.5e3",
                "123456789012345678901", "True", "None", "\n", "\u{1}", "\"x\ny", "//c\n",
                "/*d*/", "\\q", "\"", "é", "<think>t</think>", "```json\n", "+",
            ]),
            0..40,
        )) {
            let input: String = pieces.concat();
            streamed(&input);
        }
    }

    #[test]
    fn a_writer_that_fails_ends_the_writing_with_its_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let input = format!("{{\"a\": \"{}\"}}", "\u{1}".repeat(CHUNK * 8));
        let options = RepairOptions::default();
        let how = streamable(&input, &options).unwrap().unwrap();
        let e = write_streamed(&input, &options, how, &mut Full).unwrap_err();
        assert_eq!(e.to_string(), "full");
    }
}
