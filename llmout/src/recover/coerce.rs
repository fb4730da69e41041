//! Scalar coercions: numbers, integers and booleans from the text models write.
//!
//! Each function returns the coerced value, or why it could not (`Err(Reason)`), never a guess:
//! `"12,500"` is 12500, `"€9.99"` is 9.99, `"about 3 days"` is 3, `"0xFF"` is 255, but `"1,5"`
//! (a decimal comma or a thousands separator?), `"3 or 4"`, a bound (`"at least 3"`) and a sign
//! in words (`"minus 3"`) are refused.

use serde_json::{Number, Value};

/// Why a coercion was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reason {
    /// Nothing of the wanted type in it.
    NoMatch,
    /// More than one reading: the words say which.
    Ambiguous(String),
}

/// What a number is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// Any number: `a/b` is the fraction (`1/5` is 0.2).
    Number,
    /// An integer: `a/b` is as likely a score on a scale (`5/5`, `8/10`), refused.
    Integer,
}

/// Reads a number from text: surrounding spaces, a currency symbol (after a minus sign too:
/// `-$45`), thousands separators (`,`, `_`, a space or a narrow space, in groups of three),
/// a trailing `%`, or the single number in a short phrase (at most six words). A minus sign
/// may be the typographic one (`−5`, `–5`); a magnitude after the number multiplies it where
/// it is a word (`2 million`, `3bn`) or a letter after an amount of money (`$1.2M`, `€50k`),
/// and is refused where a letter could as well be a unit (`2B`, `5K`). A fraction `a/b` is
/// its quotient for a number; for an integer it is refused as ambiguous (a fraction, or a
/// score on a scale: `5/5`). So is a number in parentheses, which accounts write for a
/// negative amount (`($45.00)`).
pub(crate) fn number_from_text(s: &str, want: Want) -> Result<Number, Reason> {
    let t = s.trim();
    let minus = t.starts_with(MINUS_SIGNS);
    let ascii;
    let t = if minus {
        // (Each of those is three bytes in UTF-8.)
        ascii = format!("-{}", &t[3..]);
        ascii.as_str()
    } else {
        t
    };
    if let Some(n) = plain_number(t) {
        return Ok(n);
    }
    if let Some((a, b)) = plain(t).split_once('/') {
        if let (Some(a), Some(b)) = (parse_grouped(a.trim()), parse_grouped(b.trim())) {
            return match want {
                Want::Number => fraction(&a, &b).ok_or(Reason::NoMatch),
                Want::Integer => Err(Reason::Ambiguous(format!(
                    "{}: a fraction, or {a} on a scale of {b}",
                    crate::excerpt(s, 40)
                ))),
            };
        }
    }
    if let Some(rest) = t.strip_prefix(['-', '+']) {
        if rest.starts_with(char::is_whitespace) && plain_number(rest.trim_start()).is_some() {
            // `- 5`: a sign apart from its number, or a list's bullet.
            return Err(Reason::Ambiguous(format!(
                "a sign or a bullet in {}",
                crate::excerpt(s, 40)
            )));
        }
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        if plain_number(inner.trim()).is_some() {
            return Err(Reason::Ambiguous(format!(
                "{}: a number, or a negative amount as accounts write it",
                crate::excerpt(s, 40)
            )));
        }
    }
    let numbers = numbers_in(t);
    let word_count = t.split_whitespace().count();
    match numbers.as_slice() {
        [] => Err(Reason::NoMatch),
        [one] if word_count <= 6 => {
            let n = plain_number(one).ok_or(Reason::NoMatch)?;
            let at = one.as_ptr() as usize - t.as_ptr() as usize;
            if let Some(words) = bound_or_sign(&t[..at]) {
                return Err(Reason::Ambiguous(format!(
                    "{}: {words} the number",
                    crate::excerpt(s, 40)
                )));
            }
            let after = &t[at + one.len()..];
            match magnitude(after, t.contains(['$', '€', '£', '¥', '₹'])) {
                Magnitude::None => Ok(n),
                Magnitude::Times(zeros) => scaled(&n, zeros).ok_or(Reason::NoMatch),
                Magnitude::Unclear(letter) => Err(Reason::Ambiguous(format!(
                    "\"{letter}\" after the number in {}: a magnitude or a unit",
                    crate::excerpt(s, 40)
                ))),
            }
        }
        [_] => Err(Reason::NoMatch),
        _ => Err(Reason::Ambiguous(format!(
            "{} numbers in {}",
            numbers.len(),
            crate::excerpt(t, 40)
        ))),
    }
}

/// What the words or signs `before` a number in a phrase (its text before the number) say
/// that the number alone would not: that it is a bound (`at least 3`, `< 5`, `up to 10`), not
/// the value, or that its sign is written as a word (`minus 3`). `None` where they say
/// nothing of the kind (`about 3`, `~3`: the value, approximately).
fn bound_or_sign(before: &str) -> Option<&'static str> {
    let before = before.trim_end().to_lowercase();
    if before.ends_with(['<', '>', '≤', '≥', '=']) {
        return Some("a bound before");
    }
    let words: Vec<&str> = before
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [.., "minus" | "negative"] => Some("a sign written as a word before"),
        [.., "up", "to"]
        | [.., "least" | "most" | "than" | "under" | "over" | "below" | "above"]
        | [.., "min" | "max" | "minimum" | "maximum" | "within"] => Some("a bound before"),
        _ => None,
    }
}

/// Minus signs other than `-`: the minus sign, the en dash and the figure dash, which
/// typesetting puts before negative numbers.
const MINUS_SIGNS: [char; 3] = ['\u{2212}', '\u{2013}', '\u{2012}'];

/// What a word or letter right after a number says of its size.
enum Magnitude<'a> {
    None,
    /// Times ten to this power.
    Times(usize),
    /// A letter that is a magnitude with money (`$5K`), and may be a unit without (`5K`).
    Unclear(&'a str),
}

/// The magnitude `after` (the text after a number) starts with: a word (`million`, `bn`), or,
/// with `money`, a letter (`k`, `K`, `M`, `B`, `T`). Letters that go on (`kg`, `MB`) are a
/// unit, and a lowercase `m` is a metre or a minute as often as a million.
fn magnitude(after: &str, money: bool) -> Magnitude<'_> {
    let letters = after.len()
        - after
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    let attached = &after[..letters];
    let word = if attached.is_empty() {
        let rest = after.trim_start();
        let len = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        &rest[..len]
    } else {
        attached
    };
    let times = match word.to_ascii_lowercase().as_str() {
        "thousand" => 3,
        "million" | "mn" => 6,
        "billion" | "bn" => 9,
        "trillion" | "tn" => 12,
        _ => match attached {
            "k" | "K" => 3,
            "M" => 6,
            "B" => 9,
            "T" => 12,
            _ => return Magnitude::None,
        },
    };
    if !money && matches!(attached, "k" | "K" | "M" | "B" | "T") {
        return Magnitude::Unclear(attached);
    }
    Magnitude::Times(times)
}

/// `n` times ten to the power `zeros`, exactly: its decimal point moved (`1.2` and 6 is
/// 1200000, where `1.2 * 1e6` in floating point need not be).
fn scaled(n: &Number, zeros: usize) -> Option<Number> {
    let text = n.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, text.as_str()),
    };
    if body.contains(['e', 'E']) {
        return None;
    }
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let mut digits = format!("{int}{frac}");
    let point = int.len() + zeros;
    if digits.len() < point {
        digits.extend(std::iter::repeat_n('0', point - digits.len()));
    }
    let (whole, rest) = digits.split_at(point);
    let whole = whole.trim_start_matches('0');
    let mut out = String::from(if neg { "-" } else { "" });
    out.push_str(if whole.is_empty() { "0" } else { whole });
    if !rest.is_empty() {
        out.push('.');
        out.push_str(rest);
    }
    serde_json::from_str::<Number>(&out).ok().map(normalize)
}

/// Currency signs a number may stand after (or before, or between a minus sign and it).
const CURRENCY: [char; 5] = ['$', '€', '£', '¥', '₹'];

/// `t` without a currency sign before or after it, nor a `%` after it.
fn plain(t: &str) -> &str {
    t.trim_start_matches(CURRENCY)
        .trim_end_matches(['%'])
        .trim_end_matches(CURRENCY)
        .trim()
}

/// `a / b`, where it is a finite number (`x/0` is none).
fn fraction(a: &Number, b: &Number) -> Option<Number> {
    let (a, b) = (a.as_f64()?, b.as_f64()?);
    if b == 0.0 {
        return None;
    }
    Number::from_f64(a / b).map(normalize)
}

/// A number that is all of `t` apart from a currency sign, a sign, separators and `%`.
fn plain_number(t: &str) -> Option<Number> {
    // A minus sign before the currency sign is the amount's (`-$45.00`).
    let (minus, t) = match t.strip_prefix('-') {
        Some(rest) if rest.starts_with(CURRENCY) => (true, rest),
        _ => (false, t),
    };
    let t = plain(t);
    if t.is_empty() || (minus && t.starts_with(['-', '+'])) {
        return None;
    }
    let signed;
    let t = if minus {
        signed = format!("-{t}");
        signed.as_str()
    } else {
        t
    };
    let (negative, digits) = t.strip_prefix('-').map_or((false, t), |d| (true, d));
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        // A hexadecimal integer, as JSON5 and most languages write it (`0xFF`).
        let n = u64::from_str_radix(hex, 16).ok()?;
        return Some(match negative {
            false => Number::from(n),
            true => Number::from(0i64.checked_sub_unsigned(n)?),
        });
    }
    if t.contains(['e', 'E']) {
        // A number in JSON's own exponent notation (`1e3`, `2.5E-4`).
        return serde_json::from_str::<Number>(t.strip_prefix('+').unwrap_or(t))
            .ok()
            .map(normalize);
    }
    parse_grouped(t)
}

/// Parses `-12,500.5`-like text: digits with separators only in groups of three.
fn parse_grouped(t: &str) -> Option<Number> {
    let t = t.strip_prefix('+').unwrap_or(t);
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (int_part, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let groups: Vec<&str> = int_part
        .split([',', '_', ' ', '\u{202f}', '\u{a0}'])
        .collect();
    let grouped_ok = groups.len() == 1
        || (!groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3));
    if !grouped_ok
        || groups
            .iter()
            .any(|g| !g.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let digits: String = groups.concat();
    if let Some(f) = frac {
        if !f.bytes().all(|b| b.is_ascii_digit()) || (digits.is_empty() && f.is_empty()) {
            return None;
        }
    } else if digits.is_empty() {
        return None;
    }
    let mut text = String::with_capacity(digits.len() + 2);
    if neg {
        text.push('-');
    }
    text.push_str(if digits.is_empty() { "0" } else { &digits });
    if let Some(f) = frac.filter(|f| !f.is_empty()) {
        text.push('.');
        text.push_str(f);
    }
    let n: Number = serde_json::from_str(&text).ok()?;
    Some(normalize(n))
}

/// Integral floats become integers (`4.0` -> `4`), so later integer checks see them.
fn normalize(n: Number) -> Number {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15 => Number::from(f as i64),
        _ => n,
    }
}

/// Numeric tokens in a phrase: a digit run with `.`/`,` inside, optionally signed.
fn numbers_in(t: &str) -> Vec<&str> {
    let bytes = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let mut start = i;
            // A currency sign before it, and a minus sign before that (`-$45`).
            let sign = t[..start]
                .strip_suffix(CURRENCY)
                .filter(|before| before.ends_with('-'))
                .map_or(start, str::len);
            // A minus sign, not a hyphen: `-3` or `is -3`, but not `A-17`.
            if sign > 0
                && bytes[sign - 1] == b'-'
                && (sign == 1 || !bytes[sign - 2].is_ascii_alphanumeric())
            {
                start = sign - 1;
            }
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_ascii_digit()
                    || ((bytes[j] == b'.' || bytes[j] == b',')
                        && bytes.get(j + 1).is_some_and(u8::is_ascii_digit)))
            {
                j += 1;
            }
            // `0x1F`: a hexadecimal number, its letters with it (`0xZZ` is a word).
            if &t[i..j] == "0" && matches!(bytes.get(j), Some(b'x' | b'X')) {
                let hex = bytes[j + 1..].iter().take_while(|b| b.is_ascii_hexdigit());
                let n = hex.count();
                if n == 0 {
                    i = j;
                    continue;
                }
                j += 1 + n;
            }
            out.push(&t[start..j]);
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Reads an integer: an integral number, or text holding one (`"4.0"`, `"1,024"`).
pub(crate) fn integer_from(n: &Number) -> Option<Number> {
    if n.is_i64() || n.is_u64() {
        return Some(n.clone());
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.0e15).then(|| Number::from(f as i64))
}

/// Reads a boolean from text: true/false, yes/no, y/n, on/off, 1/0 in any case, or the one
/// such word in a short phrase ("Yes, it is"). Both polarities in one phrase is ambiguous.
pub(crate) fn bool_from_text(s: &str) -> Result<bool, Reason> {
    let t = crate::recover::text::strip_decoration(s).to_ascii_lowercase();
    if let Some(b) = bool_word(&t) {
        return Ok(b);
    }
    let words = crate::recover::text::words(&t);
    // In prose only `true` and `false` count (`no`, `on`, `1` are ordinary words there). A
    // negated word (`not true`, `isn't yes`) says nothing certain, in a short phrase too;
    // and after another word, `t` is the end of a contraction (`isn't`), a negation.
    let prose = words.len() > 8;
    let mut found = Vec::new();
    for (k, w) in words.iter().enumerate() {
        if k > 0 && (w == "t" || super::text::is_negation(&words[k - 1])) {
            continue;
        }
        // A letter alone is a yes or a no only as the whole reply: in a phrase it is an
        // abbreviation's (`N/A`, `y-axis`). And `no` before a word for knowing says the
        // answer is not known (`no idea`), not that it is no.
        if w.len() == 1 && w.bytes().all(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        if w == "no"
            && words
                .get(k + 1)
                .is_some_and(|n| UNKNOWING.contains(&n.as_str()))
        {
            continue;
        }
        match bool_word(w) {
            Some(b) if !prose || matches!(w.as_str(), "true" | "false") => found.push(b),
            _ => {}
        }
    }
    match (found.contains(&true), found.contains(&false)) {
        (true, false) => Ok(true),
        (false, true) => Ok(false),
        (true, true) => Err(Reason::Ambiguous(format!(
            "both a yes and a no in {}",
            crate::excerpt(s, 40)
        ))),
        (false, false) => Err(Reason::NoMatch),
    }
}

/// Words for knowing: after `no`, the answer is not known (`no idea`, `no data`).
const UNKNOWING: [&str; 10] = [
    "idea",
    "clue",
    "data",
    "information",
    "info",
    "answer",
    "opinion",
    "comment",
    "preference",
    "knowledge",
];

fn bool_word(w: &str) -> Option<bool> {
    match w {
        "true" | "yes" | "y" | "on" | "1" | "t" => Some(true),
        "false" | "no" | "n" | "off" | "0" | "f" => Some(false),
        _ => None,
    }
}

/// The JSON text of a scalar as a string value (`12` -> `"12"`, `true` -> `"true"`).
pub(crate) fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Result<String, Reason> {
        number_from_text(s, Want::Number).map(|n| n.to_string())
    }

    #[test]
    fn fractions() {
        let int = |s: &str| number_from_text(s, Want::Integer).map(|n| n.to_string());
        assert_eq!(num("3/4"), Ok("0.75".into()));
        assert_eq!(num("1/5"), Ok("0.2".into()));
        assert_eq!(num("4.5/5"), Ok("0.9".into()));
        assert_eq!(num("1/0"), Err(Reason::NoMatch));
        // For an integer, a score on a scale as likely as a fraction.
        for text in ["5/5", "8/10", "10/2"] {
            assert!(matches!(int(text), Err(Reason::Ambiguous(_))), "{text}");
        }
        assert_eq!(int("12"), Ok("12".into()));
    }

    #[test]
    fn numbers() {
        assert_eq!(num("12,500"), Ok("12500".into()));
        assert_eq!(num(" 8 "), Ok("8".into()));
        assert_eq!(num("€9.99"), Ok("9.99".into()));
        assert_eq!(num("$1,234,567.5"), Ok("1234567.5".into()));
        assert_eq!(num("4.0"), Ok("4".into()));
        assert_eq!(num("-3"), Ok("-3".into()));
        assert_eq!(num("+7"), Ok("7".into()));
        assert_eq!(num(".5"), Ok("0.5".into()));
        assert_eq!(num("50%"), Ok("50".into()));
        assert_eq!(num("12 500"), Ok("12500".into()));
        assert_eq!(num("about 42 items"), Ok("42".into()));
        assert_eq!(num("approximately 3.5 hours"), Ok("3.5".into()));
        assert_eq!(num("5kg"), Ok("5".into()));
        assert_eq!(num("is -3 today"), Ok("-3".into()));
        assert_eq!(num("A-17"), Ok("17".into()));
        // Typographic minus signs.
        assert_eq!(num("\u{2212}5"), Ok("-5".into()));
        assert_eq!(num("\u{2013}2.5"), Ok("-2.5".into()));
        // Magnitudes as words, or as letters after money.
        assert_eq!(num("$1.2M"), Ok("1200000".into()));
        assert_eq!(num("€3bn"), Ok("3000000000".into()));
        assert_eq!(num("$50K"), Ok("50000".into()));
        assert_eq!(num("1.1 million"), Ok("1100000".into()));
        assert_eq!(num("about 2 thousand"), Ok("2000".into()));
        assert_eq!(num("0.0015 billion"), Ok("1500000".into()));
        // A unit is no magnitude.
        assert_eq!(num("10MB"), Ok("10".into()));
        assert_eq!(num("3 km"), Ok("3".into()));
        assert_eq!(num("1e3"), Ok("1000".into()));
        assert_eq!(num("2.5E-4"), Ok("0.00025".into()));
        // A minus sign before the currency sign is the amount's.
        assert_eq!(num("-$45.00"), Ok("-45".into()));
        assert_eq!(num("-£9.99"), Ok("-9.99".into()));
        assert_eq!(num("\u{2212}$45"), Ok("-45".into()));
        assert_eq!(num("$-45"), Ok("-45".into()));
        assert_eq!(num("a refund of -$12.50"), Ok("-12.5".into()));
        assert_eq!(num("-45 USD"), Ok("-45".into()));
        // Hexadecimal, alone or in a phrase; the value, approximately.
        assert_eq!(num("0xFF"), Ok("255".into()));
        assert_eq!(num("0x0f"), Ok("15".into()));
        assert_eq!(num("-0X10"), Ok("-16".into()));
        assert_eq!(num("mask 0x1F"), Ok("31".into()));
        assert_eq!(num("~3"), Ok("3".into()));
        assert_eq!(num("set to 5"), Ok("5".into()));
    }

    #[test]
    fn numbers_refused() {
        assert_eq!(num("twelve"), Err(Reason::NoMatch));
        assert_eq!(num(""), Err(Reason::NoMatch));
        // An amount in parentheses.
        for text in ["($45.00)", "(45)"] {
            assert!(matches!(num(text), Err(Reason::Ambiguous(_))), "{text}");
        }
        assert!(matches!(num("3 or 4"), Err(Reason::Ambiguous(_))));
        // A letter that is a magnitude or a unit; a sign or a bullet.
        for text in ["1.5k", "2B", "5K", "- 5"] {
            assert!(matches!(num(text), Err(Reason::Ambiguous(_))), "{text}");
        }
        // A bound is not the value; a sign in words is not dropped.
        for text in [
            "<5",
            "> 2",
            "<= 10",
            "at least 3",
            "no more than 4",
            "fewer than 10 items",
            "up to 8 hours",
            "under $5",
            "max 12",
            "minus 3",
            "Negative 7",
        ] {
            assert!(matches!(num(text), Err(Reason::Ambiguous(_))), "{text}");
        }
        // Hexadecimal digits that are no number.
        assert_eq!(num("0xZZ"), Err(Reason::NoMatch));
        // A decimal comma or a thousands separator: refused, not guessed.
        assert_eq!(num("1,5"), Err(Reason::NoMatch));
        assert_eq!(num("12,50,0"), Err(Reason::NoMatch));
        assert_eq!(
            num("this is a rather long sentence with the number 7 in it"),
            Err(Reason::NoMatch)
        );
    }

    #[test]
    fn negated_booleans_say_nothing() {
        for text in [
            "not true",
            "It is not true.",
            "not yes",
            "not false",
            "isn't true",
        ] {
            assert_eq!(bool_from_text(text), Err(Reason::NoMatch), "{text}");
        }
        // `no` is a no of its own: the word it negates is left out.
        assert_eq!(bool_from_text("no true"), Ok(false));
        assert_eq!(bool_from_text("No, it is not true"), Ok(false));
        assert_eq!(bool_from_text("Yes, not false"), Ok(true));
        assert_eq!(bool_from_text("t"), Ok(true));
        assert_eq!(bool_from_text("Yes, it is"), Ok(true));
        assert!(matches!(
            bool_from_text("false, it is true"),
            Err(Reason::Ambiguous(_))
        ));
    }

    #[test]
    fn integers() {
        assert_eq!(
            integer_from(&Number::from_f64(4.0).unwrap()),
            Some(Number::from(4))
        );
        assert_eq!(integer_from(&Number::from_f64(4.5).unwrap()), None);
        assert_eq!(
            integer_from(&Number::from(u64::MAX)),
            Some(Number::from(u64::MAX))
        );
    }

    #[test]
    fn booleans() {
        for (s, b) in [
            ("true", true),
            ("YES", true),
            ("n", false),
            ("Off", false),
            ("**True**", true),
        ] {
            assert_eq!(bool_from_text(s), Ok(b), "{s}");
        }
        assert_eq!(bool_from_text("Yes, it is valid."), Ok(true));
        // Not known, or not applicable: no answer.
        for text in ["N/A", "n/a", "No idea", "no data yet", "Y-axis only"] {
            assert_eq!(bool_from_text(text), Err(Reason::NoMatch), "{text}");
        }
        assert_eq!(bool_from_text("No, no idea why it would"), Ok(false));
        assert_eq!(bool_from_text("No."), Ok(false));
        assert!(matches!(
            bool_from_text("true or false"),
            Err(Reason::Ambiguous(_))
        ));
        assert_eq!(bool_from_text("maybe"), Err(Reason::NoMatch));
    }
}
