//! A typed value from a reply read item by item: `T::from_llm` on a large reply deserializes
//! `T` from the value's JSON text as [`Items::write_json`] writes it, on a thread of its own,
//! so that neither the value as a tree nor its whole text is ever held, only `T`; or, where
//! the reply's JSON needed no change, straight from that JSON.

use std::io::{self, Read, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use serde::de::DeserializeOwned;

use super::{Items, Source};

impl<'a> Items<'a> {
    /// The text of the chosen candidate where it is JSON as it stands and nothing was
    /// changed: the value is then what `serde_json` reads from that text.
    fn as_written(&self) -> Option<&'a str> {
        let valid = match &self.plan.source {
            Source::Valid => true,
            Source::Sanitized(fixes) => fixes.is_empty(),
            Source::Repaired | Source::Collected(_) => false,
        };
        (valid && self.warning_count() == 0).then_some(self.plan.text)
    }
}

/// The text is handed over in pieces of this many bytes, at most [`QUEUE`] of them waiting.
const PIECE: usize = 1 << 16;
const QUEUE: usize = 4;

/// `T` deserialized from the value of `items` (`serde_json`'s reading of its JSON text, as
/// `serde_json::from_str::<T>` reads it: to the end, nothing after it), written on a thread
/// of its own while this one reads it. An error is serde's: the text is the value's, so an
/// error is `T` refusing it (or nesting deeper than `serde_json` reads, 128 levels).
pub(crate) fn deserialize<T: DeserializeOwned>(items: &Items<'_>) -> Result<T, serde_json::Error> {
    // JSON as written that recovery kept as it is: its text is the value's.
    if let Some(text) = items.as_written() {
        // (serde refuses a field given twice, where the value keeps the last: then the
        // value's own text is read below.)
        if let Ok(value) = serde_json::from_str::<T>(text) {
            return Ok(value);
        }
    }
    let (send, receive) = sync_channel(QUEUE);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut w = io::BufWriter::with_capacity(PIECE, Sent(send));
            // An error here is the reader gone (it stopped at an error of its own): nothing
            // more to write.
            let _ = items.write_json(&mut w).and_then(|()| w.flush());
        });
        let mut de = serde_json::Deserializer::from_reader(Pieces {
            from: receive,
            piece: Vec::new(),
            at: 0,
        });
        let value = T::deserialize(&mut de).and_then(|v| de.end().map(|()| v));
        // Dropping the reader ends the writer at its next piece, if it is not done.
        drop(de);
        value
    })
}

/// The writing end: each piece the buffer in front of it fills, sent.
struct Sent(SyncSender<Vec<u8>>);

impl Write for Sent {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The reading end: the pieces in turn, then the end of the text once the writer is done.
struct Pieces {
    from: Receiver<Vec<u8>>,
    piece: Vec<u8>,
    at: usize,
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.piece.len() {
            match self.from.recv() {
                Ok(piece) => (self.piece, self.at) = (piece, 0),
                // The writer is done (or stopped): the end of the text.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.piece.len() - self.at);
        buf[..n].copy_from_slice(&self.piece[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::deserialize;
    use crate::large::{from_llm_with_compiled, Large};
    use crate::schema::Schema;
    use crate::Options;

    /// `T` read from the chosen JSON straight where nothing was changed, and from the
    /// value's text as it is written otherwise: the same as deserializing the value whole.
    #[test]
    fn json_as_written_is_read_straight_and_any_other_from_the_value_s_text() {
        let schema = Schema::compile(&json!({"type": "array", "items": {"type": "integer"}}))
            .expect("a schema");
        let options = Options::default().keep_unknown_keys(false);
        for (reply, straight) in [
            ("[1, 2, 3]", true),
            ("The numbers:\n```json\n[1, 2, 3]\n```", true),
            ("[1, '2', 3,]", false),
        ] {
            let Large::Items(items) = from_llm_with_compiled(reply, &schema, &options) else {
                panic!("read item by item: {reply}")
            };
            assert_eq!(items.as_written().is_some(), straight, "{reply}");
            let whole: Value = items.to_result().value.expect("a value");
            assert_eq!(deserialize::<Vec<i64>>(&items).ok(), Some(vec![1, 2, 3]));
            assert_eq!(whole, json!([1, 2, 3]));
        }
    }
}
