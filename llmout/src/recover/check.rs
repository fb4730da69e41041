//! The schema's constraints ([`Check`]s: `maxLength`, `pattern`, `format`, `minimum`,
//! `maxItems`, `uniqueItems`, `dependentRequired`, `not`, ...) checked on the values recovery
//! produces.
//!
//! A value that breaks one is not changed to fit (that would invent a value): the break is a
//! [`Violation`], recorded like a warning (not while a union only weighs its branches) and
//! costing [`VIOLATION_COST`], so that a union prefers a branch the value meets and, among
//! branches it breaks, the one it breaks least. Recovery with violations left is an
//! [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) error listing all of them.
//!
//! While a union weighs its branches it does not copy borrowed values (see `Walker::keep`), so
//! an array or object produced then has the right items and keys but not their values. Checks
//! that count (`maxItems`, `minProperties`, `dependentRequired`, ...) are made on it; checks of
//! whole values (`uniqueItems`, `not`) on the value as given when recovery changed nothing in
//! it, and otherwise only on the branch chosen, when it is recovered for real.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::io;

use serde_json::{Map, Number, Value};

use super::{describe_value, holds_document, push_key, Walker};
use crate::schema::{Check, Kind, NodeId};
use crate::{Error, Options, Policy, Violation};

/// Whether `check` bounds how many items an array has.
fn is_count(check: &Check) -> bool {
    matches!(check, Check::MinItems(_) | Check::MaxItems(_))
}

/// The cost of one violation: more than the changes of any realistic reply add up to, so that
/// a value that fits a union's branch after many changes beats one that breaks another.
pub(super) const VIOLATION_COST: u64 = 1 << 20;

impl Walker<'_> {
    /// An array or object recovered against `id` (whose node `rid` is one), then checked: on
    /// what was produced, or while a union weighs a borrowed value, on its shape, and on the
    /// value as given when nothing in it changed (see the module docs).
    #[inline(never)]
    pub(super) fn checked_container(
        &mut self,
        v: Cow<'_, Value>,
        id: NodeId,
        rid: NodeId,
        depth: usize,
        wrapped: bool,
    ) -> Result<Value, Error> {
        let before = self.cost;
        let given = match &v {
            Cow::Borrowed(given) => Some(*given),
            Cow::Owned(_) => None,
        };
        let sketch = self.dry > 0 && given.is_some();
        let value = match &self.schema.node(rid).kind {
            // (Checked inside: the shape is gone once weighed.)
            _ if sketch && holds_document(&v) => {
                return self.weigh_document(&v, id, rid, depth, wrapped)
            }
            Kind::Array(a) => self.array(v, id, a, depth, wrapped)?,
            Kind::Object(o) => self.object(v, id, o, depth)?,
            _ => return Err(self.mismatch(id, &v)),
        };
        let whole = match (sketch, self.cost == before) {
            (false, _) => Some(&value),
            (true, true) => given,
            (true, false) => None,
        };
        self.check_shape(id, &value, whole);
        Ok(value)
    }

    /// Checks `v`, the value produced at the current path for node `id` and known whole,
    /// against `id`'s checks that apply to its type.
    pub(super) fn check_value(&mut self, id: NodeId, v: &Value) {
        self.check_shape(id, v, Some(v));
    }

    /// Checks the string produced at the current path for node `id`.
    pub(super) fn check_str(&mut self, id: NodeId, s: &str) {
        let schema = self.schema;
        let mut not = false;
        for check in schema.checks(id) {
            not |= matches!(check, Check::Not(_));
            self.string_check(check, s);
        }
        if not {
            self.check_not(id, &Value::from(s));
        }
    }

    /// Checks what was produced at the current path for node `id`: `shape` has the produced
    /// value's type, items and keys (not always their values, see the module docs), `whole`
    /// is the value itself when it is known.
    pub(super) fn check_shape(&mut self, id: NodeId, shape: &Value, whole: Option<&Value>) {
        let schema = self.schema;
        let mut not = false;
        for check in schema.checks(id) {
            not |= matches!(check, Check::Not(_));
            match shape {
                Value::String(s) => self.string_check(check, s),
                Value::Number(n) => self.number_check(check, n),
                Value::Array(_) if is_count(check) && self.at_hole() => {}
                Value::Array(items) => self.array_check(check, items, whole),
                Value::Object(map) => self.object_check(check, map),
                Value::Null | Value::Bool(_) => {}
            }
        }
        let Some(whole) = whole else { return };
        if not {
            self.check_not(id, whole);
        }
        if let (Value::Object(map), Kind::Object(o)) =
            (whole, &schema.node(schema.resolve(id)).kind)
        {
            if !o.pattern_properties.is_empty() {
                self.check_pattern_overlaps(o, map);
            }
        }
    }

    /// A key that matches several `patternProperties` patterns, or a property's name that
    /// matches one, was recovered against one schema: its value must fit the others too.
    fn check_pattern_overlaps(&mut self, o: &crate::schema::Object, map: &Map<String, Value>) {
        let base = self.path.len();
        // (Hashed where comparing each key with each name would take long.)
        let names: Option<HashSet<&str>> = (map.len().saturating_mul(o.properties.len()) > 1024)
            .then(|| o.properties.iter().map(|p| p.name.as_str()).collect());
        for (key, value) in map {
            let declared = match &names {
                Some(names) => names.contains(key.as_str()),
                None => o.properties.iter().any(|p| p.name == *key),
            };
            let matching = o.pattern_properties.iter().filter(|(p, _)| p.is_match(key));
            // (An undeclared key was recovered against the first pattern it matches.)
            for (pattern, s) in matching.skip(usize::from(!declared)) {
                if self.fits(value, *s) {
                    continue;
                }
                push_key(&mut self.path, key);
                self.violate(|name| {
                    (
                        "patternProperties",
                        format!("a value that fits the schema of the pattern {}", pattern.as_str()),
                        describe_value(value),
                        format!(
                            "{name} is {}, which does not fit the schema of the pattern {}, which its name matches",
                            describe_value(value),
                            pattern.as_str()
                        ),
                    )
                });
                self.path.truncate(base);
            }
        }
    }

    fn string_check(&mut self, check: &Check, s: &str) {
        let length = || s.chars().count() as u64;
        match check {
            Check::MinLength(min) => self.count("minLength", "character", length(), *min, true),
            Check::MaxLength(max) => self.count("maxLength", "character", length(), *max, false),
            Check::Pattern(p) if !p.is_match(s) => self.violate(|name| {
                (
                    "pattern",
                    format!("a string matching the pattern {}", p.as_str()),
                    quoted(s),
                    format!(
                        "{name} is {}, which does not match the pattern {}",
                        quoted(s),
                        p.as_str()
                    ),
                )
            }),
            Check::Format(f) if !f.accepts(s) => self.violate(|name| {
                (
                    "format",
                    format!("{} (format {})", f.describe(), f.name()),
                    quoted(s),
                    format!("{name} is {}, which is not {}", quoted(s), f.describe()),
                )
            }),
            _ => {}
        }
    }

    fn number_check(&mut self, check: &Check, n: &Number) {
        let (keyword, bound, broken) = match check {
            Check::Minimum(b) => ("minimum", b, cmp(n, b).is_lt()),
            Check::Maximum(b) => ("maximum", b, cmp(n, b).is_gt()),
            Check::ExclusiveMinimum(b) => ("exclusiveMinimum", b, cmp(n, b).is_le()),
            Check::ExclusiveMaximum(b) => ("exclusiveMaximum", b, cmp(n, b).is_ge()),
            Check::MultipleOf(m) => ("multipleOf", m, !multiple_of(n, m)),
            _ => return,
        };
        if !broken {
            return;
        }
        self.violate(|name| {
            let (expected, rule) = match keyword {
                "minimum" => (
                    format!("at least {bound}"),
                    format!("the minimum is {bound}"),
                ),
                "maximum" => (
                    format!("at most {bound}"),
                    format!("the maximum is {bound}"),
                ),
                "exclusiveMinimum" => (
                    format!("more than {bound}"),
                    format!("it must be more than {bound}"),
                ),
                "exclusiveMaximum" => (
                    format!("less than {bound}"),
                    format!("it must be less than {bound}"),
                ),
                _ => (
                    format!("a multiple of {bound}"),
                    format!("it must be a multiple of {bound}"),
                ),
            };
            (
                keyword,
                expected,
                n.to_string(),
                format!("{name} is {n}; {rule}"),
            )
        });
    }

    fn array_check(&mut self, check: &Check, items: &[Value], whole: Option<&Value>) {
        match check {
            Check::UniqueItems => {
                let Some(Value::Array(items)) = whole else {
                    return;
                };
                if let Some((first, second)) = duplicate(items) {
                    self.not_unique(describe_value(&items[first]), first, second);
                }
            }
            _ => self.count_check(check, items.len() as u64),
        }
    }

    /// `uniqueItems` broken: the item described as `item` is at `first` and again at
    /// `second` (the first two equal items).
    pub(super) fn not_unique(&mut self, item: String, first: usize, second: usize) {
        self.violate(|name| {
            (
                "uniqueItems",
                "items that are all different".to_owned(),
                format!("{item} at {first} and {second}"),
                format!(
                    "{name} has {item} twice (items {first} and {second}); its items must all be different"
                ),
            )
        });
    }

    /// `minItems` and `maxItems` on an array of `n` items (its items read one by one, see
    /// `items::Items::finish`, or all here).
    pub(super) fn count_check(&mut self, check: &Check, n: u64) {
        match check {
            Check::MinItems(min) => self.count("minItems", "item", n, *min, true),
            Check::MaxItems(max) => self.count("maxItems", "item", n, *max, false),
            _ => {}
        }
    }

    fn object_check(&mut self, check: &Check, map: &Map<String, Value>) {
        let n = map.len() as u64;
        match check {
            Check::MinProperties(min) => self.count("minProperties", "property", n, *min, true),
            Check::MaxProperties(max) => self.count("maxProperties", "property", n, *max, false),
            Check::DependentRequired(key, needs) if map.contains_key(key) => {
                for need in needs.iter().filter(|k| !map.contains_key(*k)) {
                    self.violate(|name| {
                        (
                            "dependentRequired",
                            format!("`{need}`, as `{key}` is given"),
                            format!("`{key}` without `{need}`"),
                            format!("{name} has `{key}` but not `{need}`, which `{key}` requires"),
                        )
                    });
                }
            }
            Check::Required(names) => {
                for missing in names.iter().filter(|k| !map.contains_key(*k)) {
                    self.violate(|name| {
                        (
                            "required",
                            format!("a property `{missing}`"),
                            "none".to_owned(),
                            format!("{name} has no `{missing}`, which is required"),
                        )
                    });
                }
            }
            _ => {}
        }
    }

    /// `n` characters, items or properties (`noun`) against a bound: at least `bound` when
    /// `min`, else at most.
    fn count(&mut self, keyword: &'static str, noun: &str, n: u64, bound: u64, min: bool) {
        if (min && n >= bound) || (!min && n <= bound) {
            return;
        }
        let (side, rule) = if min {
            ("at least", "required")
        } else {
            ("at most", "allowed")
        };
        self.violate(|name| {
            (
                keyword,
                format!("{side} {}", plural(bound, noun)),
                plural(n, noun),
                format!(
                    "{name} has {}; {side} {bound} {}",
                    plural(n, noun),
                    are(bound, rule)
                ),
            )
        });
    }

    /// `not`: the value must not fit the schema.
    fn check_not(&mut self, id: NodeId, v: &Value) {
        let schema = self.schema;
        for check in schema.checks(id) {
            if let Check::Not(not) = check {
                if self.fits(v, *not) {
                    self.violate(|name| {
                        (
                            "not",
                            "a value that does not fit the schema under `not`".to_owned(),
                            describe_value(v),
                            format!(
                                "{name} is {}, which fits a schema it must not fit (`not`)",
                                describe_value(v)
                            ),
                        )
                    });
                }
            }
        }
    }

    /// Whether `v` fits `id` as it is: recovered under the strict policy (no change allowed)
    /// with no violation. A walk of its own, as deep as this one may still go; a limit it
    /// meets ends this walk too (see `Walker::overflow`).
    pub(super) fn fits(&mut self, v: &Value, id: NodeId) -> bool {
        let options = Options::default()
            .policy(Policy::Strict)
            .max_depth(self.max_depth);
        let mut w = Walker::new(self.schema, &options);
        (w.frames, w.max_frames) = (self.frames, self.max_frames);
        w.path.clone_from(&self.path);
        w.checking = true;
        w.seen = self.seen;
        let fits = w.value(Cow::Borrowed(v), id, 0).is_ok() && w.violations.is_empty();
        if self.overflow.is_none() {
            self.overflow = w.overflow;
        }
        fits
    }

    /// Records a violation at the current path: `describe` gives the keyword, what it asks
    /// for, what was found, and the message, from the value's name in plain words (called
    /// only when the violation is kept). Counted in every case.
    fn violate(&mut self, describe: impl FnOnce(&str) -> (&'static str, String, String, String)) {
        self.cost += VIOLATION_COST;
        if self.dry == 0 {
            let (keyword, expected, found, message) = describe(&name(&self.path));
            self.charge(self.path.len());
            self.violations.push(Violation::new(
                self.path.clone(),
                keyword,
                expected,
                found,
                capitalised(message),
            ));
        }
    }
}

/// The value at `path`, named for a message: `` `title` ``, `` `items/0/name` ``, or "the
/// value" for the whole reply.
fn name(path: &str) -> String {
    match path.strip_prefix('/') {
        Some(rest) => format!("`{rest}`"),
        None => "the value".to_owned(),
    }
}

/// `message` with its first letter in upper case ("the value ..." opens a sentence).
fn capitalised(message: String) -> String {
    match message.strip_prefix("the value") {
        Some(rest) => format!("The value{rest}"),
        None => message,
    }
}

/// A string as JSON, its first 40 characters and `…` when longer.
fn quoted(s: &str) -> String {
    let mut chars = s.char_indices();
    match chars.nth(40) {
        None => Value::from(s).to_string(),
        Some((cut, _)) => {
            let mut q = Value::from(&s[..cut]).to_string();
            q.insert(q.len() - 1, '…');
            q
        }
    }
}

/// "1 item", "2 items"; "1 property", "0 properties".
fn plural(n: u64, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("{n} {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// "is allowed" after one, "are allowed" after any other number.
fn are(n: u64, what: &str) -> String {
    if n == 1 {
        format!("is {what}")
    } else {
        format!("are {what}")
    }
}

/// The indices of the first two equal items (as JSON values), if any. Linear: each item is
/// written once in a canonical form (keys sorted, numbers by value) and looked up.
fn duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen: HashMap<Vec<u8>, usize> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if let Some(first) = seen.insert(canonical_text(item), i) {
            return Some((first, i));
        }
    }
    None
}

/// A digest of `v`'s canonical text: equal JSON values have equal digests (for `uniqueItems`
/// checked item by item, see `items::Items::repeat_of`, where the two items of equal
/// digests are then compared as text). The text is hashed as it is written, never held.
pub(super) fn digest(v: &Value) -> u64 {
    use std::hash::Hasher;
    /// The bytes written, hashed.
    struct Digest(std::collections::hash_map::DefaultHasher);
    impl io::Write for Digest {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut d = Digest(Default::default());
    canonical(v, &mut d, 0);
    d.0.finish()
}

/// `v` written canonically ([`canonical`]): equal JSON values, and only they, give equal
/// text.
pub(super) fn canonical_text(v: &Value) -> Vec<u8> {
    let mut text = Vec::new();
    canonical(v, &mut text, 0);
    text
}

/// `v` written so that equal JSON values are equal text: object keys sorted, numbers equal in
/// value written alike (`1`, `1.0` and `1e0` as `1`). Below the parser's nesting cap a value
/// is written as itself, which no other is (a `Value` built by hand may nest deeper than any
/// reply, and this recursion must end).
fn canonical(v: &Value, out: &mut impl io::Write, depth: usize) {
    // (Writing to a `Vec` or a hasher does not fail.)
    let _ = write_canonical(v, out, depth);
}

fn write_canonical(v: &Value, out: &mut impl io::Write, depth: usize) -> io::Result<()> {
    if depth > crate::repair::MAX_DEPTH_CAP {
        return write!(out, "#{:p}", v);
    }
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => write!(out, "{i}"),
            (_, Some(u), _) => write!(out, "{u}"),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e18 => write!(out, "{}", f as i64),
            _ => write!(out, "{n}"),
        },
        Value::Array(items) => {
            out.write_all(b"[")?;
            for item in items {
                write_canonical(item, out, depth + 1)?;
                out.write_all(b",")?;
            }
            out.write_all(b"]")
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.write_all(b"{")?;
            for k in keys {
                serde_json::to_writer(&mut *out, k).map_err(io::Error::other)?;
                out.write_all(b":")?;
                write_canonical(&map[k], out, depth + 1)?;
                out.write_all(b",")?;
            }
            out.write_all(b"}")
        }
        other => serde_json::to_writer(out, other).map_err(io::Error::other),
    }
}

/// Compares two JSON numbers exactly (integers as integers, an integer and a float by value).
fn cmp(a: &Number, b: &Number) -> Ordering {
    match (int(a), int(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => cmp_int_float(x, b.as_f64().unwrap_or(0.0)),
        (None, Some(y)) => cmp_int_float(y, a.as_f64().unwrap_or(0.0)).reverse(),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// A JSON integer as an `i128`.
fn int(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// `i` against `f`, exactly.
fn cmp_int_float(i: i128, f: f64) -> Ordering {
    const LIMIT: f64 = 1.7e38; // below i128::MAX
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f >= LIMIT {
        return Ordering::Less;
    }
    if f <= -LIMIT {
        return Ordering::Greater;
    }
    let whole = f.trunc();
    match i.cmp(&(whole as i128)) {
        Ordering::Equal => 0.0.partial_cmp(&(f - whole)).unwrap_or(Ordering::Equal),
        other => other,
    }
}

/// Whether `n` is an integer multiple of `m` (> 0), exactly in decimal: `0.3` is a multiple of
/// `0.1`, which floating point division gets wrong. Numbers too long to scale exactly fall
/// back to floating point.
fn multiple_of(n: &Number, m: &Number) -> bool {
    if let (Some(a), Some(b)) = (decimal(n), decimal(m)) {
        let exp = a.1.min(b.1);
        let scale = |(digits, e): (i128, i32)| {
            10i128
                .checked_pow(u32::try_from(e - exp).ok()?)
                .and_then(|p| digits.checked_mul(p))
        };
        if let (Some(x), Some(y)) = (scale(a), scale(b)) {
            return y != 0 && x % y == 0;
        }
    }
    let (x, y) = (n.as_f64().unwrap_or(0.0), m.as_f64().unwrap_or(1.0));
    let q = x / y;
    q.is_finite() && q.fract() == 0.0
}

/// A number as `digits × 10^exp`, from its shortest decimal text (`1.5e-3` is (15, -4)).
fn decimal(n: &Number) -> Option<(i128, i32)> {
    let text = n.to_string();
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text.as_str(), 0),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: i128 = format!("{whole}{frac}").parse().ok()?;
    let frac_len = i32::try_from(frac.len()).ok()?;
    Some((digits, exp.checked_sub(frac_len)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            other => panic!("{other}"),
        }
    }

    #[test]
    fn numbers_compare_exactly() {
        let big = num(json!(u64::MAX));
        let less = num(json!(u64::MAX - 1));
        assert_eq!(cmp(&less, &big), Ordering::Less);
        assert_eq!(cmp(&num(json!(2)), &num(json!(2.0))), Ordering::Equal);
        assert_eq!(cmp(&num(json!(2)), &num(json!(2.5))), Ordering::Less);
        assert_eq!(cmp(&num(json!(-3)), &num(json!(-2.5))), Ordering::Less);
        assert_eq!(cmp(&num(json!(3)), &num(json!(-2.5))), Ordering::Greater);
        assert_eq!(cmp(&num(json!(1.5)), &num(json!(1.25))), Ordering::Greater);
        // 2^53 + 1 is no f64; compared as an integer it is more than 2^53.
        let above = num(json!(9_007_199_254_740_993_i64));
        assert_eq!(
            cmp(&above, &num(json!(9_007_199_254_740_992.0))),
            Ordering::Greater
        );
        assert_eq!(cmp(&num(json!(1)), &num(json!(1e300))), Ordering::Less);
    }

    #[test]
    fn multiples_in_decimal() {
        let yes = [
            (json!(0.3), json!(0.1)),
            (json!(10), json!(5)),
            (json!(7.5), json!(2.5)),
            (json!(1e3), json!(10)),
            (json!(0), json!(0.7)),
            (json!(-9), json!(3)),
            (json!(0.0075), json!(0.0001)),
        ];
        for (n, m) in yes {
            assert!(multiple_of(&num(n.clone()), &num(m.clone())), "{n} of {m}");
        }
        let no = [
            (json!(7), json!(5)),
            (json!(0.35), json!(0.1)),
            (json!(1), json!(0.3)),
            (json!(1e-7), json!(1e-6)),
        ];
        for (n, m) in no {
            assert!(!multiple_of(&num(n.clone()), &num(m.clone())), "{n} of {m}");
        }
        // Too long to scale: floating point.
        assert!(multiple_of(&num(json!(1e40)), &num(json!(1e-5))));
        assert!(!multiple_of(&num(json!(1e300)), &num(json!(1e-300))));
    }

    #[test]
    fn duplicates_by_json_equality() {
        assert_eq!(duplicate(&[json!(1), json!(2), json!(1.0)]), Some((0, 2)));
        assert_eq!(
            duplicate(&[json!({"a": 1, "b": [2]}), json!({"b": [2.0], "a": 1})]),
            Some((0, 1))
        );
        assert_eq!(
            duplicate(&[json!("1"), json!(1), json!(true), json!(null)]),
            None
        );
        assert_eq!(duplicate(&[json!([1, 2]), json!([2, 1])]), None);
        assert_eq!(duplicate(&[]), None);
        // Nested past the cap, two equal values are taken as different, and the walk ends.
        let mut deep = json!(1);
        for _ in 0..600 {
            deep = json!([deep]);
        }
        assert_eq!(duplicate(&[deep.clone(), deep.clone()]), None);
        let shallow = json!([[[1]]]);
        assert_eq!(duplicate(&[shallow.clone(), shallow]), Some((0, 1)));
        // (Dropped one level at a time: `Value`'s own drop recurses.)
        while let Value::Array(mut a) = deep {
            deep = a.pop().unwrap_or_default();
        }
    }

    #[test]
    fn words() {
        assert_eq!(plural(1, "item"), "1 item");
        assert_eq!(plural(0, "property"), "0 properties");
        assert_eq!(plural(2, "character"), "2 characters");
        assert_eq!(are(1, "allowed"), "is allowed");
        assert_eq!(quoted(&"é".repeat(41)), format!("\"{}…\"", "é".repeat(40)));
        assert_eq!(name(""), "the value");
        assert_eq!(name("/a/0"), "`a/0`");
    }
}
