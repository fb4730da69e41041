//! Where a family's reader puts the calls it finds: kept as [`ToolCall`]s (what
//! [`parse`](super::parse) returns), or each written as compact JSON the moment it is found
//! ([`parse_compact`](super::parse_compact)), so that a reply of a million calls is held as
//! its calls' text, not as a million maps.

use serde_json::{Map, Value};

use super::ToolCall;

/// The calls found so far, in order. Readers use it as a `Vec`: `push`, `extend`, `len`,
/// `truncate` (to take back calls a later reading replaces).
#[derive(Debug)]
pub(crate) enum Calls {
    Kept(Vec<ToolCall>),
    /// Each call's name, its arguments as compact JSON and its id, one after another in
    /// `text`; `entries[i]` says where call `i`'s parts end.
    Written {
        text: String,
        entries: Vec<Entry>,
    },
}

/// Where a written call's parts end in the text (its name starts where the call before it
/// ends).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    name_end: usize,
    arguments_end: usize,
    end: usize,
    /// Whether the call has an id (the text after its arguments).
    id: bool,
}

impl Default for Calls {
    fn default() -> Self {
        Calls::Kept(Vec::new())
    }
}

impl Calls {
    /// Calls written as they come.
    pub(crate) fn written() -> Self {
        Calls::Written {
            text: String::new(),
            entries: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, call: ToolCall) {
        match self {
            Calls::Kept(calls) => calls.push(call),
            Calls::Written { text, entries } => {
                text.push_str(&call.name);
                let name_end = text.len();
                // Written straight into the text: a call's arguments are not held twice.
                if serde_json::to_writer(Append(text), &call.arguments).is_err() {
                    // (Not reached: `serde_json` writes whole UTF-8 pieces, see `Append`.)
                    text.truncate(name_end);
                    if let Ok(arguments) = serde_json::to_string(&call.arguments) {
                        text.push_str(&arguments);
                    }
                }
                let arguments_end = text.len();
                text.push_str(call.id.as_deref().unwrap_or_default());
                entries.push(Entry {
                    name_end,
                    arguments_end,
                    end: text.len(),
                    id: call.id.is_some(),
                });
            }
        }
    }

    pub(crate) fn extend(&mut self, calls: impl IntoIterator<Item = ToolCall>) {
        for call in calls {
            self.push(call);
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Calls::Kept(calls) => calls.len(),
            Calls::Written { entries, .. } => entries.len(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the first `n` calls.
    pub(crate) fn truncate(&mut self, n: usize) {
        match self {
            Calls::Kept(calls) => calls.truncate(n),
            Calls::Written { text, entries } => {
                entries.truncate(n);
                text.truncate(entries.last().map_or(0, |e| e.end));
            }
        }
    }

    /// Call `i`'s parts as written: its name, its arguments' JSON, its id.
    fn parts(&self, i: usize) -> Option<(&str, &str, Option<&str>)> {
        let Calls::Written { text, entries } = self else {
            return None;
        };
        let e = entries.get(i)?;
        let start = i.checked_sub(1).map_or(0, |j| entries[j].end);
        Some((
            text.get(start..e.name_end)?,
            text.get(e.name_end..e.arguments_end)?,
            e.id.then(|| text.get(e.arguments_end..e.end)).flatten(),
        ))
    }

    /// Writes call `i` as `serde_json` writes a [`ToolCall`] (compact).
    pub(crate) fn write(&self, i: usize, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Calls::Kept(calls) => match calls.get(i) {
                Some(call) => serde_json::to_writer(w, call).map_err(Into::into),
                None => Ok(()),
            },
            Calls::Written { .. } => {
                let Some((name, arguments, id)) = self.parts(i) else {
                    return Ok(());
                };
                w.write_all(b"{\"id\":")?;
                serde_json::to_writer(&mut *w, &id)?;
                w.write_all(b",\"name\":")?;
                serde_json::to_writer(&mut *w, name)?;
                w.write_all(b",\"arguments\":")?;
                w.write_all(arguments.as_bytes())?;
                w.write_all(b"}")
            }
        }
    }

    /// Call `i`, read back from its JSON when written.
    pub(crate) fn get(&self, i: usize) -> Option<ToolCall> {
        match self {
            Calls::Kept(calls) => calls.get(i).cloned(),
            Calls::Written { .. } => {
                let (name, arguments, id) = self.parts(i)?;
                Some(ToolCall {
                    id: id.map(str::to_owned),
                    name: name.to_owned(),
                    arguments: serde_json::from_str::<Map<String, Value>>(arguments).ok()?,
                })
            }
        }
    }

    /// The calls as [`ToolCall`]s.
    pub(crate) fn into_vec(self) -> Vec<ToolCall> {
        match self {
            Calls::Kept(calls) => calls,
            Calls::Written { .. } => (0..self.len()).filter_map(|i| self.get(i)).collect(),
        }
    }
}

/// `serde_json`'s output appended to a `String`. Each piece it writes is whole UTF-8: it cuts
/// a string only before the ASCII characters it escapes. A piece that is not would be an
/// error, never a panic.
struct Append<'a>(&'a mut String);

impl std::io::Write for Append<'_> {
    fn write(&mut self, piece: &[u8]) -> std::io::Result<usize> {
        let piece = std::str::from_utf8(piece)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        self.0.push_str(piece);
        Ok(piece.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Extend<ToolCall> for Calls {
    fn extend<I: IntoIterator<Item = ToolCall>>(&mut self, calls: I) {
        Calls::extend(self, calls);
    }
}

impl IntoIterator for Calls {
    type Item = ToolCall;
    type IntoIter = std::vec::IntoIter<ToolCall>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(name: &str, args: Value) -> ToolCall {
        ToolCall {
            id: (name == "b").then(|| "id-\"1\"".to_owned()),
            name: name.to_owned(),
            arguments: args.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn written_calls_read_back_as_kept_ones() {
        let calls = [
            call("a", json!({"x": 1, "s": "q\"\n", "f": 1.5e-7, "n": null})),
            call(
                "n\"a\tme",
                json!({"k": [1.0, -0.0, 12345678901234567890u64]}),
            ),
            call("b", json!({})),
            call("c", json!({"z": [1, {"y": true}], "a": "é"})),
            // Escapes beside characters of two to four bytes, in keys and values.
            call(
                "d",
                json!({"\u{1F600}\"k\n": "\u{1F600}\t\u{e9}\\\u{2028}\u{1}x"}),
            ),
        ];
        let mut kept = Calls::default();
        let mut written = Calls::written();
        for c in &calls {
            kept.push(c.clone());
            written.push(c.clone());
        }
        assert_eq!((kept.len(), written.len()), (5, 5));
        let json = |calls: &Calls, i| {
            let mut out = Vec::new();
            calls.write(i, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        for (i, c) in calls.iter().enumerate() {
            assert_eq!(json(&written, i), serde_json::to_string(c).unwrap());
            assert_eq!(json(&kept, i), serde_json::to_string(c).unwrap());
            assert_eq!(written.get(i).as_ref(), Some(c));
        }
        written.truncate(1);
        kept.truncate(1);
        written.extend([calls[2].clone()]);
        kept.extend([calls[2].clone()]);
        assert_eq!(json(&written, 1), serde_json::to_string(&calls[2]).unwrap());
        assert_eq!(written.into_vec(), kept.into_vec());
        assert!(Calls::written().is_empty());
    }
}
