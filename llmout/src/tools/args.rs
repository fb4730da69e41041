//! A call's arguments as its parameters come, one at a time (`<parameter=p>v</parameter>`
//! and its kin): a map, for [`parse`](super::parse); or, where calls are written as they
//! come ([`parse_compact`](super::parse_compact)), the JSON text that map is written as,
//! each value written as it is read and never made a value. A parameter of 100 MB is then
//! held once, as its JSON.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::calls::{holds_string, holds_value, may_hold, smaller_as_value, Append, Calls};
use super::family::Named;
use super::read::{param_text, param_value, ParamText};
use super::ToolCall;
use crate::repair::{self, RepairKind, RepairOptions};

/// The arguments read so far.
pub(crate) enum Args {
    Map(Map<String, Value>),
    Text(Written),
}

/// Members written as `serde_json` writes a map of them.
pub(crate) struct Written {
    /// `{` and the members so far, comma-separated.
    json: String,
    /// Each name's key and value in `json`, in the order the names first came; a name given
    /// again points to its last value.
    members: Vec<(Range<usize>, Range<usize>)>,
    /// Each name's place in `members`, by its key's JSON, once there are more than
    /// [`SCAN`] (fewer are compared in turn).
    places: Option<HashMap<String, usize>>,
    /// Whether a name came again: `json` then holds values no longer the map's.
    again: bool,
}

impl Args {
    /// No arguments yet, kept as `calls` keep them.
    pub(crate) fn new(calls: &Calls) -> Args {
        if calls.is_written() {
            // Room for a few small parameters at once (no growing a byte at a time).
            let mut json = String::with_capacity(256);
            json.push('{');
            Args::Text(Written {
                json,
                members: Vec::new(),
                places: None,
                again: false,
            })
        } else {
            Args::Map(Map::new())
        }
    }

    /// The parameter `name` written as `text`: its value as [`param_value`] reads it.
    pub(crate) fn insert(&mut self, name: String, text: &str) {
        match self {
            Args::Map(m) => {
                m.insert(name, param_value(text));
            }
            Args::Text(_) => match param_text(text) {
                ParamText::Value(v) => self.put(name, v, may_hold(text.len())),
                ParamText::Text(s) => self.insert_string(name, s),
                ParamText::Json(value) => self.written(name, |json| put_json(json, value)),
            },
        }
    }

    /// The argument `name` written as a JSON or Python literal (`text`), read leniently
    /// ([`literal_value`]; where the arguments are written, a large text is repaired to its
    /// JSON, never made a value). Nothing is put, and `name` comes back, when the literal was
    /// cut off.
    pub(crate) fn insert_literal(&mut self, name: String, text: &str) -> Result<(), String> {
        self.insert_read(name, text, Reading::Lenient)
    }

    /// The pythonic argument `name=text`: a Python literal, read with nothing changed but
    /// what Python writes otherwise than JSON ([`python_syntax`]); anything else (a
    /// bytes literal, a name, quotes that do not pair, a bracket too many, a number JSON
    /// cannot hold, a value cut off) is the text the model wrote, as a parameter's text is:
    /// nothing is guessed from it.
    pub(crate) fn insert_python(&mut self, name: String, text: &str) {
        if let Err(name) = self.insert_read(name, text, Reading::Python) {
            self.insert_string(name, text);
        }
    }

    fn insert_read(&mut self, name: String, text: &str, reading: Reading) -> Result<(), String> {
        match self {
            Args::Map(m) => match literal_value(text, reading) {
                Some(v) => {
                    m.insert(name, v);
                    Ok(())
                }
                None => Err(name),
            },
            // (A text whose JSON could be far longer than its value is made one, to be held.)
            Args::Text(_) if text.len() < LARGE_LITERAL || smaller_as_value(text) => {
                match literal_value(text, reading) {
                    Some(v) => {
                        self.put(name, v, may_hold(text.len()));
                        Ok(())
                    }
                    None => Err(name),
                }
            }
            Args::Text(w) => match repair::to_value_text(text, &RepairOptions::default()) {
                Ok(p) if reading.takes(&p.repairs) => {
                    w.member(&name, |json| put_json(json, p.json));
                    Ok(())
                }
                _ => Err(name),
            },
        }
    }

    /// The argument `name` whose value is `v`, already made.
    pub(crate) fn insert_value(&mut self, name: String, v: Value) {
        self.put(name, v, true);
    }

    /// [`insert_value`](Self::insert_value), where the value is weighed ([`holds_value`])
    /// only if `weigh` (it was read from a text long enough to be held, `calls::may_hold`).
    fn put(&mut self, name: String, v: Value, weigh: bool) {
        match self {
            Args::Text(_) if !(weigh && holds_value(&v)) => {
                // (`serde_json` writes whole UTF-8 pieces into `Append`: no error.)
                self.written(name, |json| drop(serde_json::to_writer(Append(json), &v)));
            }
            _ => self.insert_in_map(name, v),
        }
    }

    /// The parameter `name` whose value is the string `s`, as it stands.
    pub(crate) fn insert_string(&mut self, name: String, s: &str) {
        match self {
            Args::Text(_) if !holds_string(s) => self.written(name, |json| string(json, s)),
            _ => self.insert_in_map(name, Value::String(s.to_owned())),
        }
    }

    /// The member `name`, its value written by `value`, where the arguments are written
    /// (else nothing: callers see they are).
    fn written(&mut self, name: String, value: impl FnOnce(&mut String)) {
        if let Args::Text(w) = self {
            w.member(&name, value);
        }
    }

    /// The argument `name` whose value is `v`, in the arguments as a map, read back from
    /// their JSON if they were written: a call given a value whose JSON would be far longer
    /// than it ([`holds_value`]) is held as a value (`Calls::push` holds it), so the
    /// arguments before it are made values too.
    fn insert_in_map(&mut self, name: String, v: Value) {
        if let Args::Text(w) = self {
            match w.to_map() {
                Some(map) => *self = Args::Map(map),
                // (A member `serde_json` does not read back, nested past its limit: the
                // arguments stay text, this value written too, nothing lost.)
                None => {
                    // (`serde_json` writes whole UTF-8 pieces into `Append`: no error.)
                    return self
                        .written(name, |json| drop(serde_json::to_writer(Append(json), &v)));
                }
            }
        }
        if let Args::Map(m) = self {
            m.insert(name, v);
        }
    }

    /// The call `named` with these arguments, put in `calls`.
    pub(crate) fn push(self, calls: &mut Calls, named: Named) {
        match self {
            Args::Map(arguments) => calls.push(ToolCall {
                id: named.id,
                name: named.name,
                arguments,
            }),
            Args::Text(w) => calls.push_arguments(named.id, named.name, w.finish()),
        }
    }
}

impl Written {
    /// The member `name`, its value written by `value`.
    fn member(&mut self, name: &str, value: impl FnOnce(&mut String)) {
        if self.json.len() > 1 {
            self.json.push(',');
        }
        let key_start = self.json.len();
        string(&mut self.json, name);
        let key = key_start..self.json.len();
        self.json.push(':');
        let value_start = self.json.len();
        value(&mut self.json);
        let value_range = value_start..self.json.len();
        let json = &self.json;
        let key_json = json.get(key.clone()).unwrap_or_default();
        let place = match &self.places {
            Some(places) => places.get(key_json).copied(),
            None => self
                .members
                .iter()
                .position(|(k, _)| json.get(k.clone()) == Some(key_json)),
        };
        match place {
            // A name given again: the last value at the first place, as in a map.
            Some(i) => {
                self.members[i].1 = value_range;
                self.again = true;
            }
            None => {
                if let Some(places) = &mut self.places {
                    places.insert(key_json.to_owned(), self.members.len());
                }
                self.members.push((key, value_range));
                if self.places.is_none() && self.members.len() > SCAN {
                    let json = &self.json;
                    let places = self.members.iter().enumerate();
                    let places = places
                        .map(|(i, (k, _))| (json.get(k.clone()).unwrap_or_default().to_owned(), i));
                    self.places = Some(places.collect());
                }
            }
        }
    }

    /// The members read back as a map, each on its own (the text `serde_json` wrote for
    /// their values): `None` where one does not read back (nested past `serde_json`'s
    /// limit).
    fn to_map(&self) -> Option<Map<String, Value>> {
        let mut map = Map::new();
        for (key, value) in &self.members {
            let key = serde_json::from_str(self.json.get(key.clone())?).ok()?;
            map.insert(
                key,
                serde_json::from_str(self.json.get(value.clone())?).ok()?,
            );
        }
        Some(map)
    }

    /// The arguments' JSON. When a name came again, the members are written anew (rare:
    /// nothing large is given twice).
    fn finish(mut self) -> String {
        if !self.again {
            self.json.push('}');
            return self.json;
        }
        let mut out = String::from("{");
        for (i, (key, value)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(self.json.get(key.clone()).unwrap_or_default());
            out.push(':');
            out.push_str(self.json.get(value.clone()).unwrap_or_default());
        }
        out.push('}');
        out
    }
}

/// `value`'s JSON text after `json`. The larger text is kept and the smaller copied into it
/// (at its start, so nothing written moves): a large value is never copied.
fn put_json(json: &mut String, mut value: String) {
    if value.len() > json.len() {
        value.insert_str(0, json);
        *json = value;
    } else {
        json.push_str(&value);
    }
}

/// How a literal is read.
#[derive(Clone, Copy)]
enum Reading {
    /// With any fix but the close of what was cut off.
    Lenient,
    /// As Python writes it: only its quotes and literals read as JSON's.
    Python,
}

impl Reading {
    /// Whether a reading that made `repairs` is taken.
    fn takes(self, repairs: &repair::Repairs) -> bool {
        // An integer too large for 64 bits that the value would hold rounded: the text
        // stays as written instead, as a number whose form JSON does not keep does
        // (`read::param_value`).
        repairs.rounded().len() == 0
            && match self {
                Reading::Lenient => !truncated(repairs),
                Reading::Python => python_syntax(repairs),
            }
    }
}

/// Whether every fix the parser made is Python's own syntax read as JSON: its quotes and
/// literals (`'a'`, `True`, `None`), a trailing comma, a tuple or a set read as an array.
fn python_syntax(repairs: &repair::Repairs) -> bool {
    repairs.iter().all(|r| {
        matches!(
            r.kind,
            RepairKind::QuoteStyle
                | RepairKind::Literal
                | RepairKind::TrailingComma
                | RepairKind::Tuple
                | RepairKind::Set
        )
    })
}

/// A JSON or Python literal, read leniently (the parser knows single quotes and
/// `True`/`False`/`None`); `None` when `reading` does not take what the parser did (it was
/// cut off, or for a Python literal, any fix Python's own syntax does not explain).
fn literal_value(text: &str, reading: Reading) -> Option<Value> {
    let p = repair::parse(text, &RepairOptions::default()).ok()?;
    reading.takes(&p.repairs).then_some(p.value)
}

/// Whether the parser had to close what was cut off.
fn truncated(repairs: &repair::Repairs) -> bool {
    repairs.iter().any(|r| r.kind == RepairKind::Truncated)
}

/// How long a literal's text must be to be repaired to its JSON text rather than made a
/// value and written (as `read::LARGE_PARAM` is for parameters; small under the fuzzer,
/// whose inputs must reach both).
const LARGE_LITERAL: usize = if cfg!(fuzzing) { 16 } else { 64 * 1024 };

/// How many members are compared in turn for a name given again, before they are indexed.
const SCAN: usize = 16;

/// `s` as a JSON string, as `serde_json` writes it.
fn string(json: &mut String, s: &str) {
    // (`serde_json` writes whole UTF-8 pieces into `Append`: no error.)
    let _ = serde_json::to_writer(Append(json), s);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family::Found;
    use super::super::read::{param_text, param_value, ParamText};
    use super::*;

    /// `param_text` is `param_value`'s value as `serde_json` writes it, small (the value) or
    /// large (its text, the value never made).
    #[test]
    fn a_parameter_as_text_is_its_value_as_serde_json_writes_it() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let texts = [
            "-0",
            " -0.0 ",
            "1e400",
            "1e-400",
            "5e-324",
            "0.1",
            "123456789012345678901234567890",
            "18446744073709551616",
            r#""\ud800""#,
            r#""\ud83d\ude00""#,
            r#"{"a": 1, "a": [2]}"#,
            "\n[1, 2]\n",
            "\n\nplain\n\n",
            "True",
            "None",
            "['a', {'k': (1)}]",
            "{'k': 1}",
            "'str'",
            "[1,]",
            "NaN",
            "undefined",
            "plain text, \"quoted\" \\ é",
            "",
            "  ",
            &deep(127),
            &deep(128),
            &deep(129),
        ];
        let padded: Vec<String> = texts
            .iter()
            .map(|t| format!("{t}{}", " ".repeat(70_000)))
            .collect();
        for text in texts
            .iter()
            .copied()
            .chain(padded.iter().map(String::as_str))
        {
            let written = match param_text(text) {
                ParamText::Value(v) => serde_json::to_string(&v).unwrap(),
                ParamText::Json(json) => json,
                ParamText::Text(s) => serde_json::to_string(s).unwrap(),
            };
            assert_eq!(
                written,
                serde_json::to_string(&param_value(text)).unwrap(),
                "{text:?}"
            );
        }
    }

    /// The arguments `Args` gives for these parameters, kept and written.
    fn both(params: &[(&str, &str)], strings: &[(&str, &str)]) -> (Value, Value) {
        let mut kept = Found::default();
        let mut written = Found {
            calls: Calls::written(),
            ..Found::default()
        };
        for found in [&mut kept, &mut written] {
            let mut args = Args::new(&found.calls);
            for (name, text) in params {
                args.insert((*name).to_owned(), text);
            }
            for (name, s) in strings {
                args.insert_string((*name).to_owned(), s);
            }
            args.push(&mut found.calls, Named::new("f", None));
        }
        let json = |found: Found| {
            let mut out = Vec::new();
            found.calls.write(0, &mut out).unwrap();
            serde_json::from_slice::<Value>(&out).unwrap()["arguments"].take()
        };
        (json(kept), json(written))
    }

    #[test]
    fn parameters_written_as_they_come_are_the_map_of_them() {
        let large = format!("[{}1]", "1, ".repeat(40_000));
        let (kept, written) = both(
            &[("a", "1.50"), ("b", &large), ("a", "'x'"), ("c", "True")],
            &[("b", "text"), ("d", "<y>")],
        );
        assert_eq!(kept, written);
        // A name given again: its last value, at its first place.
        assert_eq!(
            written,
            json!({"a": "'x'", "b": "text", "c": true, "d": "<y>"})
        );
        let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b", "c", "d"]);
        // A large value after small ones: the text around it is copied into it.
        let (kept, written) = both(&[("s", "\"x\""), ("rows", &large), ("t", "2")], &[]);
        assert_eq!(kept, written);
        assert_eq!(written["rows"].as_array().map(Vec::len), Some(40_001));
        assert_eq!((&written["s"], &written["t"]), (&json!("x"), &json!(2)));
        // Past the members compared in turn, names given again are found by the index.
        let names: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
        let mut params: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "1")).collect();
        params.extend([("p3", "2"), ("p18", "[3]"), ("p0", "{}")]);
        let (kept, written) = both(&params, &[]);
        assert_eq!(kept, written);
        let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
        assert_eq!(keys, names.iter().collect::<Vec<_>>());
        assert_eq!(
            (
                &written["p0"],
                &written["p3"],
                &written["p18"],
                &written["p19"]
            ),
            (&json!({}), &json!(2), &json!([3]), &json!(1))
        );
        // A value whose JSON would be six times it: the arguments become a map (the call is
        // held as its value), those before it read back, a name given again after it too.
        let raw = "\u{1}".repeat(70_000);
        let (kept, written) = both(
            &[
                ("a", "1.50"),
                ("b", "[1, {\"c\": true}]"),
                ("r", &raw),
                ("a", "2"),
            ],
            &[("s", &raw)],
        );
        assert!(kept == written, "the map and the text differ");
        let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b", "r", "s"]);
        assert_eq!(
            (&written["a"], &written["b"]),
            (&json!(2), &json!([1, {"c": true}]))
        );
        assert!(written["r"] == json!(raw) && written["s"] == json!(raw));
        // A member `serde_json` reads back only on its own (127 deep: the arguments around
        // it are one more, past its limit), then such a value: held, both in its map. One it
        // does not read back at all (128 deep): the arguments stay text, nothing lost.
        for (depth, is_held) in [(127, true), (128, false)] {
            let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let mut kept = Calls::default();
            let mut written = Calls::written();
            for calls in [&mut kept, &mut written] {
                let mut args = Args::new(calls);
                args.insert("d".to_owned(), &deep);
                args.insert("r".to_owned(), &raw);
                args.push(calls, Named::new("f", None));
            }
            assert_eq!(written.held(0).is_some(), is_held, "{depth}");
            if let Some(held) = written.held(0) {
                assert_eq!(held.arguments.len(), 2);
                assert!(
                    Some(held) == kept.get(0).as_ref(),
                    "the map and the held call differ"
                );
            }
            let bytes = |calls: &Calls| {
                let mut out = Vec::new();
                calls.write(0, &mut out).unwrap();
                out
            };
            assert!(
                bytes(&written) == bytes(&kept),
                "{depth}: written otherwise"
            );
        }
    }
}
