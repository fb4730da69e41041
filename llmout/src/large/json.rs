//! The value of a reply read item by item, written as compact JSON text as it is read
//! ([`Items::write_json`]): what the CLI prints, and what a typed reply is deserialized from
//! (`T::from_llm` on a large reply), with no tree of the whole value in between.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::{Map, Value};

use super::Items;

impl Items<'_> {
    /// Writes the value to `w` as compact JSON, the same bytes as
    /// `serde_json::to_writer(w, &self.to_result().value.unwrap())`, without holding it: the
    /// object around the items (if any), each item written as it is read and recovered (the
    /// items of several members in one reading of the reply where they come in its order),
    /// or the members of the object whose members are the items ([`Large::Members`]) one by
    /// one. Memory is a few items and the object around them; `w` is written to in many
    /// small pieces, so give it a buffer ([`io::BufWriter`]) where a write is a system call.
    ///
    /// [`Large::Members`]: super::Large::Members
    ///
    /// ```
    /// use llmout::large::{from_llm_with_compiled, Large};
    /// use llmout::schema::Schema;
    /// use serde_json::json;
    /// let schema = Schema::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"rows": {"type": "array", "items": {"type": "integer"}}}
    /// })).unwrap();
    /// let reply = "```json\n{rows: [1, '2', 3,], page: 1}\n```";
    /// let Large::Items(items) = from_llm_with_compiled(reply, &schema, &Default::default()) else {
    ///     panic!("an object around an array of items")
    /// };
    /// let mut text = Vec::new();
    /// items.write_json(&mut text).unwrap();
    /// assert_eq!(text, br#"{"rows":[1,2,3],"page":1}"#);
    /// assert_eq!(serde_json::to_vec(&items.to_result().value.unwrap()).unwrap(), text);
    /// ```
    pub fn write_json<W: Write>(&self, mut w: W) -> io::Result<()> {
        let w = &mut w;
        let members = self.plan.entries;
        let mut array = |w: &mut W, hole: usize| -> io::Result<()> {
            if members {
                w.write_all(b"{")?;
                let mut first = true;
                self.for_each_member(|k, v| {
                    if !std::mem::take(&mut first) {
                        w.write_all(b",")?;
                    }
                    serde_json::to_writer(&mut *w, &k)?;
                    w.write_all(b":")?;
                    serde_json::to_writer(&mut *w, &v).map_err(io::Error::from)
                })?;
                return w.write_all(b"}");
            }
            w.write_all(b"[")?;
            let mut first = true;
            self.for_each_item_in(hole, |v| element(&mut *w, &mut first, &v))?;
            w.write_all(b"]")
        };
        let Some((object, _)) = self.around() else {
            return array(w, 0);
        };
        let paths: Vec<(usize, &[String])> = self.paths().into_iter().enumerate().collect();
        if members {
            // (One member: its object's members, written as they are read.)
            return around(w, object, &paths, &mut array);
        }
        // The object written first, each items' place noted: where the places come in the
        // order of the members (as the reply gives them), one reading of the reply writes the
        // items of each in turn; else one reading for each member.
        let mut shell = Vec::new();
        let mut places = Vec::new();
        around(&mut shell, object, &paths, &mut |s: &mut Vec<u8>, n| {
            places.push((s.len(), n));
            Ok(())
        })?;
        if places.windows(2).all(|p| p[0].1 < p[1].1) {
            self.in_turn(w, &shell, &places)
        } else {
            around(w, object, &paths, &mut array)
        }
    }

    /// `shell`, the object around the items written with nothing in their `places` (each its
    /// offset in `shell` and the number of its member, in order), with the items of each
    /// member written in its place as one reading of the reply hands them over.
    fn in_turn<W: Write>(
        &self,
        w: &mut W,
        shell: &[u8],
        places: &[(usize, usize)],
    ) -> io::Result<()> {
        let Some(&(start, _)) = places.first() else {
            // Every member dropped: no items.
            return w.write_all(shell);
        };
        w.write_all(&shell[..start])?;
        w.write_all(b"[")?;
        let (mut at, mut first) = (0, true);
        // Ends the array at `places[at]`, and writes the object up to the next one's.
        let next = |w: &mut W, at: &mut usize, first: &mut bool| -> io::Result<()> {
            w.write_all(b"]")?;
            w.write_all(&shell[places[*at].0..places[*at + 1].0])?;
            w.write_all(b"[")?;
            (*at, *first) = (*at + 1, true);
            Ok(())
        };
        self.for_each_placed_item(|member, v| {
            while places[at].1 < member && at + 1 < places.len() {
                next(&mut *w, &mut at, &mut first)?;
            }
            element(&mut *w, &mut first, &v)
        })?;
        while at + 1 < places.len() {
            next(&mut *w, &mut at, &mut first)?;
        }
        w.write_all(b"]")?;
        w.write_all(&shell[places[at].0..])
    }
}

/// The object around the items, its members in order, the items of each member at one of
/// `paths` (a member's, or a member's member's...; with its number) written by `items`
/// (their array, or the object of which they are the members).
fn around<W: Write>(
    w: &mut W,
    object: &Map<String, Value>,
    paths: &[(usize, &[String])],
    items: &mut impl FnMut(&mut W, usize) -> io::Result<()>,
) -> io::Result<()> {
    w.write_all(b"{")?;
    for (i, (k, v)) in object.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        serde_json::to_writer(&mut *w, k)?;
        w.write_all(b":")?;
        // (A map's keys are unique: each member's items are written once.)
        let mut inner = Vec::new();
        let mut here = None;
        for &(n, path) in paths {
            match path.split_first() {
                Some((key, [])) if key == k => here = Some(n),
                Some((key, rest)) if key == k => inner.push((n, rest)),
                _ => {}
            }
        }
        match (here, v) {
            (Some(n), _) => items(w, n)?,
            (None, Value::Object(inner_object)) if !inner.is_empty() => {
                around(w, inner_object, &inner, items)?
            }
            _ => serde_json::to_writer(&mut *w, v)?,
        }
    }
    w.write_all(b"}")
}

/// One element of a JSON array being written by hand: a comma before all but the first
/// (`first` says whether none was written yet).
fn element<W: Write>(w: &mut W, first: &mut bool, element: &impl Serialize) -> io::Result<()> {
    if !std::mem::take(first) {
        w.write_all(b",")?;
    }
    serde_json::to_writer(w, element).map_err(io::Error::from)
}
