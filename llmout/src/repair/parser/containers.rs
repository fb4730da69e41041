//! Objects and arrays, and what models write in their place: Python tuples (`(1, 2)`) and
//! sets (`{'a', 'b'}`), `key: value` pairs inside an array, an object left unclosed before
//! the next item, words between members.
//!
//! An object's members and an array's items are read by two loops, [`Parser::members`] and
//! [`Parser::items`]; each look-alike is one of them entered another way (a set is an object
//! that turns into an array at its first member, a tuple an array closed by `)`, pairs in an
//! array an object opened by its first key).

use super::strings::{Quote, KEY_LOOK};
use super::{is_key_byte, is_ws, Ctx, Parser, Result, Text};
use crate::repair::log::{Log, Seg};
use crate::repair::sink::Sink;
use crate::repair::RepairKind;

/// How an object's member ended.
enum Member {
    /// Read, or dropped (no value).
    Done,
    /// A word that is no member was skipped.
    Stray,
    /// The first member was a lone value followed by a comma or the closer: the object is a
    /// set, and this value its first item (`None`: a number, not read yet).
    SetItem(Option<Text>),
}

impl<'a, S: Sink<'a>, L: Log> Parser<'a, S, L> {
    // ----- objects --------------------------------------------------------------------------

    /// An object at the cursor; `ctx` is where it sits (an item of an array may be left
    /// unclosed before the next one).
    pub(super) fn object(&mut self, ctx: Ctx) -> Result<()> {
        self.enter()?;
        let start = self.pos;
        self.pos += 1;
        self.open_objects += 1;
        self.sink.begin_object();
        let set = self.members(ctx, false)?;
        self.open_objects -= 1;
        if let Some(first) = set {
            self.repair(RepairKind::Set, self.pos);
            self.sink.object_to_array();
            let read = match first {
                Some(text) => {
                    self.emit_string(text);
                    1
                }
                None => 0,
            };
            self.open_arrays += 1;
            self.items(b'}', read)?;
            self.open_arrays -= 1;
            self.sink.end_array();
        } else {
            self.sink.end_object();
        }
        self.depth -= 1;
        self.span(start);
        Ok(())
    }

    /// Records where the container that began at `start` and ends at the cursor is, for a
    /// log or a sink that keeps it.
    #[inline(always)]
    fn span(&mut self, start: usize) {
        if S::ENDS {
            self.sink.ended(start, self.pos);
        }
        if L::SPANS {
            let node = self.path.node(&mut self.log, self.src);
            self.log.span(node, start, self.pos);
        }
    }

    /// The members of the open object, up to its closer (consumed). `implicit`: the object
    /// was opened by a `key:` inside an array, and ends at that array's `]` (not consumed).
    /// Returns the first item when the object turns out to be a set.
    fn members(&mut self, ctx: Ctx, implicit: bool) -> Result<Option<Option<Text>>> {
        let mut after_member = implicit;
        let mut pending_comma = None;
        let mut empty = !implicit;
        let mut hoisted = 0usize;
        // Nothing but a gap was read since the object's `{`.
        let mut fresh = !implicit;
        // An array is joinable only to a member of this object.
        self.joinable = None;
        loop {
            self.within_budget()?;
            self.skip_ws();
            let at_open = std::mem::take(&mut fresh);
            let Some(c) = self.peek() else {
                self.truncate();
                return Ok(None);
            };
            match c {
                b'}' => {
                    if let Some(at) = pending_comma {
                        self.repair(RepairKind::TrailingComma, at);
                    }
                    self.pos += 1;
                    if hoisted > 0 {
                        // The closer of an object whose members were read as this one's.
                        hoisted -= 1;
                        pending_comma = None;
                        continue;
                    }
                    if self.depth == 1 && !implicit && self.members_follow() {
                        // `{"a": 1}, "b": 2}`: the brace closed the object too early.
                        self.repair(RepairKind::ExtraCloser, self.pos - 1);
                        continue;
                    }
                    return Ok(None);
                }
                // Pairs in an array end with it.
                b']' if implicit => return Ok(None),
                b']' if self.open_arrays > 0 => {
                    self.repair(RepairKind::MismatchedCloser, self.pos);
                    // `[{"a": 1], {"b": 2}]`: another object follows, as the array's next
                    // item: the `]` stood for this object's `}`.
                    if ctx == Ctx::Item && self.object_item_after(self.pos + 1) {
                        self.pos += 1;
                    }
                    return Ok(None);
                }
                b']' | b')' => {
                    self.repair(RepairKind::ExtraCloser, self.pos);
                    self.pos += 1;
                }
                b',' => {
                    if after_member {
                        pending_comma = Some(self.pos);
                        after_member = false;
                    } else {
                        self.repair(RepairKind::ExtraComma, self.pos);
                    }
                    self.pos += 1;
                }
                b':' => {
                    // `{:}`: a colon with no key before it.
                    self.repair(RepairKind::StrayText, self.pos);
                    self.pos += 1;
                }
                // (A `{` right after the object's own is a doubled brace, below: `[{{"a": 1}}]`.)
                b'{' | b'['
                    if (ctx == Ctx::Item || implicit) && !(at_open && self.doubled_brace()) =>
                {
                    // `[{"a": 1, {"a": 2}]`: the object was left unclosed before the next item.
                    self.repair(RepairKind::MissingCloser, self.pos);
                    self.separated = pending_comma.is_some();
                    return Ok(None);
                }
                // (Not a third brace in a row: `{{{` is no template.)
                b'{' if !(empty && hoisted > 0) => {
                    // An object where a key should be: `{{"a": 1}}` (a template's doubled
                    // braces), `{"a": 1, {"b": 2}}`. Its members are read as this object's,
                    // and its closer is passed over.
                    self.repair(RepairKind::StrayText, self.pos);
                    self.pos += 1;
                    hoisted += 1;
                }
                b'[' if self.joinable.is_some() => {
                    // `{"a": [1], [2]}`: more items for the array just written.
                    self.join_array()?;
                    pending_comma = None;
                    after_member = true;
                }
                b'{' | b'[' => return Err(self.error("expected a key")),
                _ => {
                    if let Some(n) = self.ellipsis_len() {
                        self.repair(RepairKind::Ellipsis, self.pos);
                        self.pos += n;
                    } else {
                        if after_member && !std::mem::take(&mut self.separated) {
                            self.repair(RepairKind::MissingComma, self.pos);
                        }
                        self.separated = false;
                        match self.member(empty)? {
                            Member::SetItem(first) => return Ok(Some(first)),
                            Member::Stray => continue,
                            Member::Done => empty = false,
                        }
                    }
                    pending_comma = None;
                    after_member = true;
                }
            }
        }
    }

    /// At a `{` right after an object's own `{`: whether it doubles that brace, as templates
    /// write them (`{{"a": 1}}`), being followed by a key or a closer. `[{{]` and `[{{` are
    /// two objects left open, not a doubled brace with nothing in it.
    fn doubled_brace(&self) -> bool {
        if self.b[self.pos] != b'{' {
            return false;
        }
        let (i, _) = self.skip_gap(self.pos + 1);
        self.b
            .get(i)
            .is_some_and(|&c| c == b'}' || is_key_byte(c) || Quote::at(self.b, i).is_some())
    }

    /// At `at`, after an object's first member, a lone value: whether the object is
    /// a set, its next member being another lone value (`{'a', 'b'}`) or its closer.
    fn set_follows_at(&self, at: usize) -> bool {
        match self.b.get(at) {
            Some(b'}') => return true,
            Some(b',') => {}
            _ => return false,
        }
        let (i, _) = self.skip_gap(at + 1);
        match self.b.get(i) {
            // Cut off after the first value: a key whose value never came, not a set.
            None => false,
            Some(b'}') => true,
            Some(b'-' | b'0'..=b'9') => true,
            Some(_) => Quote::at(self.b, i).is_some() && !self.key_follows(i),
        }
    }

    /// Whether what follows a top-level object's closer is more of its members: a comma,
    /// then a quoted key and a colon.
    fn members_follow(&self) -> bool {
        let (i, _) = self.skip_gap(self.pos);
        if self.b.get(i) != Some(&b',') {
            return false;
        }
        let (j, _) = self.skip_gap(i + 1);
        let Some((q, len)) = Quote::at(self.b, j) else {
            return false;
        };
        if self.key_follows(j) {
            return j < self.b.len();
        }
        // `"key" "value"`: a key whose colon is missing.
        let limit = (j + len + KEY_LOOK).min(self.b.len());
        (j + len..limit)
            .find(|&k| q.closes_at(self.b, k).is_some())
            .is_some_and(|k| Quote::at(self.b, self.skip_gap(k + 1).0).is_some())
    }

    /// One `key: value` member. A key with no value is kept with `null`, a bare word that is no
    /// key skipped, both recorded. `first`: no member was read yet (a lone value then makes
    /// the object a set).
    fn member(&mut self, first: bool) -> Result<Member> {
        self.joinable = None;
        let key_start = self.pos;
        let quote = Quote::at(self.b, self.pos);
        let quoted = quote.is_some();
        if let Some((key, seg)) = self.plain_key(quote) {
            return self.member_value(key, seg, key_start);
        }
        let mut bare = None;
        if !quoted && self.b[key_start] >= 0x20 {
            let end = self.bare_end();
            bare = Some(end);
            let (next, _) = self.skip_gap(end);
            if first && is_number(&self.b[key_start..end]) && self.set_follows_at(next) {
                return Ok(Member::SetItem(None));
            }
            if matches!(self.b.get(next), Some(b',' | b'}' | b']')) && end > key_start {
                // `{"a": 1, JUNK }`: a word with neither colon nor value is no key.
                self.repair(RepairKind::StrayText, key_start);
                self.pos = next;
                return Ok(Member::Done);
            }
            if Quote::at(self.b, next).is_some() && next < self.b.len() && self.key_follows(next) {
                // `{"a": 1, COMMENT "b": 2}`: a word between members.
                self.repair(RepairKind::StrayText, key_start);
                self.pos = next;
                return Ok(Member::Stray);
            }
        }
        let Some((key, seg)) = self.key(quote, bare)? else {
            return Ok(Member::Done);
        };
        self.skip_ws();
        match self.peek() {
            None => {
                self.truncate();
                return Ok(Member::Done);
            }
            Some(b':') => self.pos += 1,
            Some(b',' | b'}') if first && quoted && self.set_follows_at(self.pos) => {
                return Ok(Member::SetItem(Some(key)));
            }
            Some(b',' | b'}' | b']') => {
                self.null_member(key, seg, key_start);
                return Ok(Member::Done);
            }
            Some(b'"') if !quoted && self.b.get(self.pos + 1) == Some(&b':') => {
                // `{b": 1}`: the key's opening quote is missing.
                self.repair(RepairKind::MissingQuote, self.pos);
                self.pos += 2;
            }
            Some(_) => self.repair(RepairKind::MissingColon, self.pos),
        }
        self.member_value(key, seg, key_start)
    }

    /// The common key, read with its colon at once: a word (letters, digits, `_`) or a plain
    /// quoted key (see [`plain_key_end`](Self::plain_key_end)), followed right by `:`, as in
    /// `{id: 1}` and `{"id": 1}`. `quote`: the quote at the cursor. The cursor moves past the
    /// colon. `None` for any other key, which [`key`](Self::key) reads (to the same text and
    /// fixes, for these).
    #[inline(always)]
    fn plain_key(&mut self, quote: Option<(Quote, usize)>) -> Option<(Text, Seg)> {
        let at = self.pos;
        let (start, end) = match quote {
            Some((q, len)) => {
                let end = self.plain_key_end(q, at + len)?;
                if q != Quote::Double {
                    self.repair(RepairKind::QuoteStyle, at);
                }
                self.pos = end + len + 1;
                (at + len, end)
            }
            None => {
                let end = at + self.b[at..].iter().take_while(|&&c| is_key_byte(c)).count();
                if end == at || self.b.get(end) != Some(&b':') {
                    return None;
                }
                self.repair(RepairKind::UnquotedKey, at);
                self.pos = end + 1;
                (at, end)
            }
        };
        let text = Text::Input {
            start,
            end,
            safe: true,
        };
        Some((text, Seg::Key { start, end }))
    }

    /// The rest of a member whose key (from `key_start`) and colon were read: its value.
    fn member_value(&mut self, key: Text, seg: Seg, key_start: usize) -> Result<Member> {
        self.skip_ws();
        match self.peek() {
            None => {
                self.truncate();
                return Ok(Member::Done);
            }
            Some(b',' | b'}' | b']') => {
                self.null_member(key, seg, key_start);
                return Ok(Member::Done);
            }
            Some(_) => {}
        }
        self.emit_key(key);
        self.path.push(seg);
        let array = self.peek() == Some(b'[');
        let complete = self.value(Ctx::Member)?;
        // A member of an object inside the value may have left its own array joinable.
        self.joinable = None;
        if !complete {
            self.sink.abandon_member();
        } else if self.sink.end_member() {
            // (At the key's pointer: which key lost a value.)
            self.repair(RepairKind::DuplicateKey, key_start);
        } else if array {
            self.joinable = Some((seg, self.last_items));
        }
        self.path.pop();
        self.stray_quote();
        Ok(Member::Done)
    }

    /// A key the model gave no value (`{"a": , "b": 1}`): kept, with `null`, the JSON for a
    /// value that is not there.
    fn null_member(&mut self, key: Text, seg: Seg, key_start: usize) {
        self.emit_key(key);
        self.path.push(seg);
        self.repair(RepairKind::MissingValue, key_start);
        self.sink.null();
        if self.sink.end_member() {
            self.repair(RepairKind::DuplicateKey, key_start);
        }
        self.path.pop();
    }

    /// An array written where a key should be, right after a member whose value is an array
    /// (`{"a": [1], [2]}`): its items join that array.
    fn join_array(&mut self) -> Result<()> {
        let Some((seg, items)) = self.joinable.take() else {
            return Ok(());
        };
        self.enter()?;
        self.repair(RepairKind::SplitArray, self.pos);
        self.pos += 1;
        self.sink.reopen_array();
        self.path.push(seg);
        self.open_arrays += 1;
        // The `], [` between them separated the items.
        self.separated = true;
        let (items, _) = self.items(b']', items)?;
        self.separated = false;
        self.open_arrays -= 1;
        self.path.pop();
        self.depth -= 1;
        self.sink.close_reopened();
        self.joinable = Some((seg, items));
        Ok(())
    }

    /// Hands a key's text to the sink.
    fn emit_key(&mut self, key: Text) {
        match key {
            Text::Input { start, end, safe } => self.sink.input_key(&self.src[start..end], safe),
            // (A key is never streamed: `string` streams values only.)
            Text::Scratch | Text::Streamed => self.sink.key(&self.scratch, false),
        }
    }

    /// A quote right after a value and before a separator (`abcdef",` or `12",`): the end of
    /// a string whose opening quote is missing. Skipped, and recorded.
    #[inline(always)]
    fn stray_quote(&mut self) {
        if self.peek() == Some(b'"') {
            self.stray_quote_at_cursor();
        }
    }

    #[inline(never)]
    fn stray_quote_at_cursor(&mut self) {
        let (i, _) = self.skip_gap(self.pos + 1);
        if self
            .b
            .get(i)
            .is_none_or(|&c| matches!(c, b',' | b'}' | b']'))
        {
            self.repair(RepairKind::StrayText, self.pos);
            self.pos += 1;
        }
    }

    /// A key, quoted (`quote`, the quote at the cursor) or bare (ending at `bare`, when
    /// known). `None` when the input ended inside it (the key is dropped).
    fn key(
        &mut self,
        quote: Option<(Quote, usize)>,
        bare: Option<usize>,
    ) -> Result<Option<(Text, Seg)>> {
        if let Some((q, len)) = quote {
            if q != Quote::Double {
                self.repair(RepairKind::QuoteStyle, self.pos);
            }
            let start = self.pos + len;
            let (key, complete, end) = self.string(q, len, Ctx::Key);
            if !complete {
                return Ok(None);
            }
            return Ok(Some((key, Seg::Key { start, end })));
        }
        let start = self.pos;
        self.pos = bare.unwrap_or_else(|| self.bare_end());
        let safe = !self.b[start..self.pos]
            .iter()
            .any(|&c| c == b'\\' || c < 0x20);
        if self.pos >= self.b.len() {
            self.truncate();
            return Ok(None);
        }
        // A bare key ends before a `:` or a separator nearly always; only one that ran up to
        // whitespace (ASCII or not) has any to trim.
        let raw = &self.src[start..self.pos];
        let end = if raw
            .as_bytes()
            .last()
            .is_some_and(|&c| c <= b' ' || c >= 0x80)
        {
            start + raw.trim_end().len()
        } else {
            self.pos
        };
        self.repair(RepairKind::UnquotedKey, start);
        let text = Text::Input { start, end, safe };
        Ok(Some((text, Seg::Key { start, end })))
    }

    /// Where a bare key starting at the cursor ends: at a `:`, a separator, a bracket, a
    /// `"`, another quote after a space (`{a 'b'}`), or the end of the line.
    fn bare_end(&self) -> usize {
        let b = self.b;
        let mut i = self.pos;
        // A word is the common key: none of its bytes can end it.
        i += b
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| is_key_byte(c))
            .count();
        while let Some(&c) = b.get(i) {
            if matches!(
                c,
                b':' | b',' | b'{' | b'}' | b'[' | b']' | b'"' | b'\n' | b'\r'
            ) || (i > self.pos && is_ws(b[i - 1]) && Quote::at(b, i).is_some())
            {
                break;
            }
            i += 1;
        }
        i
    }

    // ----- arrays ---------------------------------------------------------------------------

    pub(super) fn array(&mut self) -> Result<()> {
        self.enter()?;
        let start = self.pos;
        self.pos += 1;
        self.open_arrays += 1;
        self.sink.begin_array();
        let (items, _) = self.items(b']', 0)?;
        self.last_items = items;
        self.open_arrays -= 1;
        self.depth -= 1;
        self.sink.end_array();
        self.span(start);
        Ok(())
    }

    /// A Python tuple, `(1, 2)`, read as an array; a value in parentheses with no comma,
    /// `(1)`, is that value.
    pub(super) fn tuple(&mut self) -> Result<()> {
        self.enter()?;
        self.repair(RepairKind::Tuple, self.pos);
        self.pos += 1;
        self.open_arrays += 1;
        self.open_tuples += 1;
        self.sink.begin_array();
        let (items, comma) = self.items(b')', 0)?;
        self.open_tuples -= 1;
        self.open_arrays -= 1;
        self.depth -= 1;
        if items == 1 && !comma {
            self.sink.end_array_as_item();
        } else {
            self.sink.end_array();
        }
        Ok(())
    }

    /// Whether a tuple opens at the cursor (a `(`): what follows it starts a JSON value or
    /// closes it, as in `(1, 2)` or `()`, not words, as in `(see below)`. An empty `()` with
    /// more text after it (`() => void`) starts an unquoted value instead.
    pub(super) fn tuple_starts(&self) -> bool {
        let i = self.skip_blank(self.pos + 1);
        match self.b.get(i) {
            Some(b')') => {
                let mut j = i + 1;
                while self.b.get(j).is_some_and(|&c| c == b' ' || c == b'\t') {
                    j += 1;
                }
                matches!(
                    self.b.get(j),
                    None | Some(b',' | b'}' | b']' | b')' | b'\n' | b'\r')
                ) || self.comment_at(j)
            }
            Some(b'(') => true,
            Some(_) => self.value_starts_at(i),
            None => false,
        }
    }

    /// The items of the open array (or tuple, or set) up to `closer` (consumed), `items` of
    /// them already read. Returns how many items it holds and whether a comma was seen.
    fn items(&mut self, closer: u8, mut items: usize) -> Result<(usize, bool)> {
        let mut after_item = items > 0;
        let mut pending_comma = None;
        let mut comma = false;
        loop {
            self.within_budget()?;
            self.skip_ws();
            let Some(c) = self.peek() else {
                self.truncate();
                break;
            };
            if c == closer {
                if let Some(at) = pending_comma {
                    // `(1,)` is a one-item tuple in Python, not a trailing comma.
                    if closer != b')' {
                        self.repair(RepairKind::TrailingComma, at);
                    }
                }
                self.pos += 1;
                break;
            }
            match c {
                b']' | b')' | b'}' => {
                    let outer = match c {
                        b'}' => self.open_objects > 0,
                        b')' => self.open_tuples > usize::from(closer == b')'),
                        _ => self.open_arrays > 1,
                    };
                    if outer {
                        self.repair(RepairKind::MismatchedCloser, self.pos);
                        break;
                    }
                    if c != b'}' {
                        // `[1, 2)`: the closer of the wrong kind is this one's.
                        self.repair(RepairKind::MismatchedCloser, self.pos);
                        self.pos += 1;
                        break;
                    }
                    self.repair(RepairKind::ExtraCloser, self.pos);
                    self.pos += 1;
                }
                b',' => {
                    comma = true;
                    if after_item {
                        pending_comma = Some(self.pos);
                        after_item = false;
                    } else {
                        self.repair(RepairKind::ExtraComma, self.pos);
                    }
                    self.pos += 1;
                }
                b':' => {
                    self.repair(RepairKind::StrayText, self.pos);
                    self.pos += 1;
                }
                _ => {
                    if let Some(n) = self.ellipsis_len() {
                        self.repair(RepairKind::Ellipsis, self.pos);
                        self.pos += n;
                    } else {
                        let start = self.pos;
                        if after_item && !std::mem::take(&mut self.separated) {
                            if closer == b']'
                                && self.array_may_close(items, start, self.path.in_member())
                                && self.member_key_after_items()
                            {
                                self.repair(RepairKind::MissingCloser, start);
                                break;
                            }
                            self.repair(RepairKind::MissingComma, start);
                        }
                        self.separated = false;
                        self.path.push(Seg::Index(items));
                        let item = self.item(closer == b']')?;
                        self.path.pop();
                        match item {
                            Item::Read => items += 1,
                            Item::None => {}
                            Item::ClosesArray => {
                                self.repair(RepairKind::MissingCloser, start);
                                self.separated = pending_comma.is_some();
                                break;
                            }
                        }
                        self.stray_quote();
                    }
                    pending_comma = None;
                    after_item = true;
                }
            }
        }
        Ok((items, comma))
    }

    /// Whether a key at `at`, after `items` items of an array, may close the array: the
    /// array is a member's value, and the item before is no object (whose next item may be
    /// an object with its braces left out: `[{"a": 1}, "a": 2}]`).
    /// (`{"ids": [1, 2, "count": 2}`: the key is the next of the object around the array.)
    /// (`in_member`: whether the array is a member's value.)
    fn array_may_close(&self, items: usize, at: usize, in_member: bool) -> bool {
        let b = self.b;
        let before = b[..at]
            .iter()
            .rposition(|&c| !(is_ws(c) || c == b','))
            .map(|k| b[k]);
        items > 0 && in_member && before != Some(b'}')
    }

    /// Whether, at the cursor in an array that is a member's value, a quoted key starts
    /// whose member ends with a `}` before any `]`: the key is the next of the object around
    /// the array, which was left unclosed (`{"ids": [1, 2, "count": 2}`), not the first of
    /// an object in the array whose braces were left out (`["a": 1]`). The look runs from
    /// the key to the first closer outside strings and the brackets it opens, at most
    /// [`KEY_LOOK`] bytes past the key, and is charged to the look budget; once that is
    /// spent, or where no closer comes within the look, the key stays the array's.
    fn member_key_after_items(&mut self) -> bool {
        let b = self.b;
        let Some((q, len)) = Quote::at(b, self.pos) else {
            return false;
        };
        if !matches!(q, Quote::Double | Quote::Single) {
            return false;
        }
        let quote = b[self.pos];
        let limit = (self.pos + len + KEY_LOOK).min(b.len());
        let Some(close) = (self.pos + len..limit).find(|&k| b[k] == quote || b[k] == b'\n') else {
            return false;
        };
        let (colon, _) = self.skip_gap(close + 1);
        b[close] == quote && b.get(colon) == Some(&b':') && self.brace_ends_member(colon)
    }

    /// Whether the member whose colon is at `colon` ends with a `}` before any `]` (see
    /// [`member_key_after_items`](Self::member_key_after_items)).
    fn brace_ends_member(&mut self, colon: usize) -> bool {
        let b = self.b;
        if self.look_spent() {
            return false;
        }
        let limit = (colon + KEY_LOOK).min(b.len());
        let (mut depth, mut in_string, mut k) = (0usize, false, colon + 1);
        let found = loop {
            let Some(&c) = b.get(k).filter(|_| k < limit) else {
                break None;
            };
            match c {
                b'\\' if in_string => k += 1,
                b'"' => in_string = !in_string,
                b'{' | b'[' if !in_string => depth += 1,
                b'}' | b']' if !in_string && depth > 0 => depth -= 1,
                b'}' | b']' if !in_string => break Some(c),
                _ => {}
            }
            k += 1;
        };
        self.charge(k - colon);
        found == Some(b'}')
    }

    /// Whether, after a `]` at `i - 1` that closed an object in an array, a `,` and another
    /// object follow.
    fn object_item_after(&self, i: usize) -> bool {
        let (i, _) = self.skip_gap(i);
        if self.b.get(i) != Some(&b',') {
            return false;
        }
        let (j, _) = self.skip_gap(i + 1);
        self.b.get(j) == Some(&b'{')
    }

    /// One item of an array. A quoted string followed by `:` is the first key of an object
    /// the model left out the braces of (`["a": 1]`), or, in an array closed by `]`
    /// (`bracketed`) that may close there ([`array_may_close`](Self::array_may_close)) and
    /// where its member ends with a `}`, the next key of the object around the array: then
    /// nothing is read, and the cursor is left at the key.
    fn item(&mut self, bracketed: bool) -> Result<Item> {
        if self.plain_string(Ctx::Item) {
            return Ok(Item::Read);
        }
        let Some((q, len)) = Quote::at(self.b, self.pos) else {
            return Ok(if self.value(Ctx::Item)? {
                Item::Read
            } else {
                Item::None
            });
        };
        let key_start = self.pos;
        let fixes = self.count;
        if q != Quote::Double {
            self.repair(RepairKind::QuoteStyle, self.pos);
        }
        let start = self.pos + len;
        let (text, complete, end) = self.string(q, len, Ctx::Item);
        if !complete && self.src[start..end].trim().is_empty() {
            // Cut off before its first character: no item yet.
            return Ok(Item::None);
        }
        let (after, _) = self.skip_gap(self.pos);
        if !complete || self.b.get(after) != Some(&b':') {
            self.string_value(text, Ctx::Item);
            return Ok(Item::Read);
        }
        // (A key read with no fix is read again as the object's with none.)
        if bracketed && q == Quote::Double && self.count == fixes {
            // The path ends with this item's index, and what is before it is the array's.
            let (items, in_member) = self.path.item_of_member();
            if self.array_may_close(items, key_start, in_member) && self.brace_ends_member(after) {
                self.pos = key_start;
                return Ok(Item::ClosesArray);
            }
        }
        self.enter()?;
        self.repair(RepairKind::KeyValueInArray, key_start);
        self.skip_ws();
        self.pos += 1;
        self.open_objects += 1;
        self.sink.begin_object();
        self.skip_ws();
        let seg = Seg::Key { start, end };
        if self.peek().is_none() {
            self.truncate();
        } else if matches!(self.peek(), Some(b',' | b']' | b'}')) {
            self.null_member(text, seg, key_start);
        } else {
            self.emit_key(text);
            self.path.push(seg);
            let complete = self.value(Ctx::Member)?;
            self.path.pop();
            if complete {
                self.sink.end_member();
            } else {
                self.sink.abandon_member();
            }
            self.stray_quote();
        }
        self.members(Ctx::Item, true)?;
        self.open_objects -= 1;
        self.depth -= 1;
        self.sink.end_object();
        Ok(Item::Read)
    }
}

/// What [`Parser::item`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    /// An item.
    Read,
    /// Nothing: the input ended before the item began.
    None,
    /// Nothing: a key of the object around the array follows, which closes it.
    ClosesArray,
}

/// Whether `text` (a bare key, as written) is a number.
fn is_number(text: &[u8]) -> bool {
    let t = text.trim_ascii();
    let t = t.strip_prefix(b"-").unwrap_or(t);
    !t.is_empty() && t.iter().all(|&c| c.is_ascii_digit() || c == b'.')
}
