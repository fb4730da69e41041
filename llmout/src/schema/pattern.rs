//! JSON Schema regular expressions, run with the `regex` crate: see [`Pattern`].

use std::fmt;

/// A compiled JSON Schema regular expression (`pattern`, a key of `patternProperties`): its
/// ECMA-262 source, and the `regex` crate's program that runs it.
///
/// JSON Schema patterns are ECMA-262 (JavaScript) regular expressions, matched anywhere in the
/// string unless anchored. [`Pattern::new`] translates one into `regex`'s syntax with
/// ECMA-262's meaning where the two differ, and refuses, with the reason, what `regex` cannot
/// run; a schema holding such a pattern is an [`InvalidSchema`](crate::ErrorKind::InvalidSchema)
/// error at the pattern's JSON pointer (from [`validate`](crate::schema::validate) and
/// [`Schema::compile`](crate::schema::Schema::compile)), never a panic and never a pattern ignored.
///
/// | ECMA-262 | here |
/// |---|---|
/// | `\d`, `\w`, `\b` | ASCII, as in ECMA-262: `[0-9]`, `[0-9A-Za-z_]`, an ASCII word boundary |
/// | `\s` | ECMA-262's white space and line terminators (tab, space, U+00A0, U+FEFF, U+2028, Unicode spaces, ...) |
/// | `.` | any character but a line terminator (`\n`, `\r`, U+2028, U+2029) |
/// | `\uXXXX` (surrogate pairs too), `\u{X…}`, `\xXX`, `\cX`, `\0`, `\t` `\n` `\v` `\f` `\r`, `[\b]` | the character |
/// | `\` before any other punctuation, `{` that starts no quantifier | the character itself |
/// | `[^]` / `[]` | any character / nothing |
/// | `\p{L}`, `\p{Lu}`, `\p{Letter}`, `\p{Script=Greek}`, `\p{Greek}`, `\p{Emoji}` | Unicode properties |
/// | `(?<name>…)`, `(?:…)`, lazy quantifiers | as written |
/// | `regex` syntax that is no ECMA-262 (`(?i)`, `\A`) | `(?i)` as `regex` reads it; `\A` is the letter, as in ECMA-262 |
/// | **refused**: look-around `(?=` `(?!` `(?<=` `(?<!`, backreferences `\1` `\k<name>`, unknown properties | an invalid-schema error saying which |
///
/// Matching takes time linear in the string for a given pattern (`regex` has no
/// backtracking), and a pattern whose compiled form would exceed 1 MiB is refused.
///
/// ```
/// use llmout::advanced::schema::Pattern;
/// let p = Pattern::new(r"^\d{3}-\d{4}$").unwrap();
/// assert!(p.is_match("555-1234"));
/// assert!(!p.is_match("555-12345"));
/// assert!(!p.is_match("٥٥٥-١٢٣٤")); // Arabic-Indic digits are not `\d` in ECMA-262
/// assert_eq!(
///     Pattern::new("^(?!admin)").unwrap_err(),
///     "look-around ((?!...)), which the regex engine llmout uses does not support"
/// );
/// ```
#[derive(Clone)]
pub struct Pattern {
    source: std::sync::Arc<str>,
    regex: regex::Regex,
}

/// The compiled program may take this much memory; more is refused (see the module docs).
const SIZE_LIMIT: usize = 1 << 20;

/// ECMA-262's white space and line terminators (`\s`), as the inside of a class.
const SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
/// ECMA-262's `\w`, as the inside of a class.
const WORD: &str = "0-9A-Za-z_";
/// ECMA-262's `\d`, as the inside of a class.
const DIGIT: &str = "0-9";

impl Pattern {
    /// Compiles an ECMA-262 pattern; the error says, in words, what `regex` cannot run.
    ///
    /// ```
    /// use llmout::advanced::schema::Pattern;
    /// assert!(Pattern::new("^[A-Z]+$").unwrap().is_match("ABC"));
    /// assert_eq!(Pattern::new(r"(a)\1").unwrap_err(),
    ///     "a backreference (\\1), which the regex engine llmout uses does not support");
    /// ```
    pub fn new(source: &str) -> Result<Pattern, String> {
        let translated = translate(source)?;
        let regex = regex::RegexBuilder::new(&translated)
            .size_limit(SIZE_LIMIT)
            .build()
            .map_err(|e| {
                let why = e.to_string();
                let last = why.lines().last().unwrap_or_default().trim();
                let last = last.strip_prefix("error: ").unwrap_or(last);
                format!("a pattern the regex engine llmout uses cannot run ({last})")
            })?;
        Ok(Pattern {
            source: source.into(),
            regex,
        })
    }

    /// The pattern as the schema wrote it.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches anywhere in `text` (JSON Schema patterns are not anchored).
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

/// Why a construct is refused.
fn unsupported(what: &str) -> String {
    format!("{what}, which the regex engine llmout uses does not support")
}

/// An ECMA-262 pattern in `regex`'s syntax, with ECMA-262's meaning.
fn translate(source: &str) -> Result<String, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len() + 8);
    let mut i = 0;
    // Inside `[...]`: the position after the `[` (and `^`), to spot a leading `]`.
    let mut class: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match (c, class) {
            ('\\', _) => {
                let Some(&e) = chars.get(i) else {
                    return Err("a pattern that ends in a lone backslash".to_owned());
                };
                i += 1;
                i = escape(&chars, i, e, class.is_some(), &mut out)?;
            }
            ('[', None) => {
                let negated = chars.get(i) == Some(&'^');
                let start = i + usize::from(negated);
                if chars.get(start) == Some(&']') {
                    // `[]` matches nothing and `[^]` anything.
                    out.push_str(if negated {
                        r"[\x{0}-\x{10FFFF}]"
                    } else {
                        r"[^\x{0}-\x{10FFFF}]"
                    });
                    i = start + 1;
                } else {
                    out.push('[');
                    if negated {
                        out.push('^');
                    }
                    i = start;
                    class = Some(start);
                }
            }
            (']', Some(_)) => {
                out.push(']');
                class = None;
            }
            // Literal in an ECMA-262 class; nested classes or set operators in `regex`'s.
            ('[' | '&' | '~', Some(_)) => {
                out.push('\\');
                out.push(c);
            }
            ('-', Some(_)) if out.ends_with('-') => out.push_str(r"\-"),
            ('.', None) => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            ('(', None) if chars.get(i) == Some(&'?') => {
                let rest: String = chars[i..].iter().take(3).collect();
                let look = ["?=", "?!", "?<=", "?<!"]
                    .into_iter()
                    .find(|l| rest.starts_with(l));
                if let Some(look) = look {
                    return Err(unsupported(&format!("look-around (({look}...))")));
                }
                out.push('(');
            }
            ('{', None) => match quantifier(&chars, i) {
                Some(end) => {
                    out.extend(&chars[i - 1..end]);
                    i = end;
                }
                None => out.push_str(r"\{"),
            },
            ('}', None) => out.push_str(r"\}"),
            _ => out.push(c),
        }
    }
    if class.is_some() {
        return Err("a pattern with a character class that is not closed".to_owned());
    }
    Ok(out)
}

/// The end (past `}`) of a quantifier `{n}`, `{n,}` or `{n,m}` whose `{` is at `open - 1`.
fn quantifier(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open;
    let digits = |i: &mut usize| {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return None;
    }
    if chars.get(i) == Some(&',') {
        i += 1;
        digits(&mut i);
    }
    (chars.get(i) == Some(&'}')).then_some(i + 1)
}

/// Writes the escape `\e` (whose letter is at `at - 1`), reading what follows it; returns the
/// position after it.
fn escape(
    chars: &[char],
    mut at: usize,
    e: char,
    in_class: bool,
    out: &mut String,
) -> Result<usize, String> {
    let class = |inside: &str, negated: bool| match (in_class, negated) {
        (true, false) => inside.to_owned(),
        (_, true) => format!("[^{inside}]"),
        (false, false) => format!("[{inside}]"),
    };
    match e {
        'd' => out.push_str(&class(DIGIT, false)),
        'D' => out.push_str(&class(DIGIT, true)),
        'w' => out.push_str(&class(WORD, false)),
        'W' => out.push_str(&class(WORD, true)),
        's' => out.push_str(&class(SPACE, false)),
        'S' => out.push_str(&class(SPACE, true)),
        'b' if in_class => literal(out, '\u{8}'),
        'b' => out.push_str(r"(?-u:\b)"),
        'B' => out.push_str(r"(?-u:\B)"),
        't' => literal(out, '\t'),
        'n' => literal(out, '\n'),
        'v' => literal(out, '\u{B}'),
        'f' => literal(out, '\u{C}'),
        'r' => literal(out, '\r'),
        '0' if !chars.get(at).is_some_and(char::is_ascii_digit) => literal(out, '\0'),
        '1'..='9' | '0' => {
            let digits: String = std::iter::once(e)
                .chain(chars[at..].iter().copied().take_while(char::is_ascii_digit))
                .collect();
            return Err(unsupported(&format!("a backreference (\\{digits})")));
        }
        'k' if chars.get(at) == Some(&'<') => {
            return Err(unsupported("a named backreference (\\k<name>)"));
        }
        'c' if chars.get(at).is_some_and(char::is_ascii_alphabetic) => {
            literal(out, char::from(chars[at] as u8 % 32));
            at += 1;
        }
        'x' => match hex(chars, at, 2) {
            Some(code) => {
                literal(out, char::from_u32(code).unwrap_or('\u{FFFD}'));
                at += 2;
            }
            None => literal(out, 'x'),
        },
        'u' => {
            let (code, end) = unicode_escape(chars, at)?;
            at = end;
            match char::from_u32(code) {
                Some(ch) => literal(out, ch),
                None => {
                    return Err(unsupported(&format!(
                        "a lone surrogate (\\u{code:04X}) that is no character"
                    )))
                }
            }
        }
        'p' | 'P' => {
            if chars.get(at) != Some(&'{') {
                return Err("a \\p or \\P without a {property}".to_owned());
            }
            let Some(close) = chars[at..].iter().position(|&c| c == '}') else {
                return Err("a \\p{...} that is not closed".to_owned());
            };
            let name: String = chars[at + 1..at + close].iter().collect();
            if !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
            {
                return Err(format!("a property name that is no name (\\p{{{name}}})"));
            }
            // Only a check that it exists: ECMA-262's property names are `regex`'s too.
            if regex::Regex::new(&format!("\\p{{{name}}}")).is_err() {
                return Err(format!("an unknown Unicode property (\\{e}{{{name}}})"));
            }
            out.push('\\');
            out.push(e);
            out.push('{');
            out.push_str(&name);
            out.push('}');
            at += close + 1;
        }
        // ECMA-262 (Annex B) reads any other escaped character as itself.
        other => literal(out, other),
    }
    Ok(at)
}

/// The code point of `\uXXXX` (a surrogate pair `\uD83D\uDE00` as one) or `\u{X…}`, whose
/// `u` is at `at - 1`, and the position after it.
fn unicode_escape(chars: &[char], at: usize) -> Result<(u32, usize), String> {
    if chars.get(at) == Some(&'{') {
        let digits = chars[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        let end = at + 1 + digits;
        let code = hex(chars, at + 1, digits).filter(|c| *c <= 0x10FFFF);
        match code {
            Some(code) if (1..=6).contains(&digits) && chars.get(end) == Some(&'}') => {
                return Ok((code, end + 1))
            }
            _ => return Err("a \\u{...} escape that is not a code point".to_owned()),
        }
    }
    let Some(high) = hex(chars, at, 4) else {
        // Annex B: `\u` not followed by four hex digits is the letter u.
        return Ok((u32::from('u'), at));
    };
    let low = hex(chars, at + 6, 4).filter(|l| (0xDC00..0xE000).contains(l));
    if let (true, Some(low)) = (
        (0xD800..0xDC00).contains(&high) && chars.get(at + 4..at + 6) == Some(&['\\', 'u'][..]),
        low,
    ) {
        return Ok((0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), at + 10));
    }
    Ok((high, at + 4))
}

/// `n` hex digits at `at`, as a number.
fn hex(chars: &[char], at: usize, n: usize) -> Option<u32> {
    let digits = chars.get(at..at + n)?;
    digits
        .iter()
        .try_fold(0u32, |acc, c| Some(acc * 16 + c.to_digit(16)?))
}

/// `c` as a literal in `regex`'s syntax (in or out of a class).
fn literal(out: &mut String, c: char) {
    use std::fmt::Write;
    if c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && !c.is_control()) {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", u32::from(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .is_match(text)
    }

    #[test]
    fn ecma_classes_are_ascii() {
        assert!(m(r"^\d+$", "0123456789"));
        assert!(!m(r"^\d$", "٣"));
        assert!(m(r"^\w+$", "a_Z9"));
        assert!(!m(r"^\w$", "é"));
        assert!(m(r"^\W$", "é"));
        assert!(m(r"^\D$", "x"));
        assert!(m(r"^[\d\-]+$", "12-3"));
        assert!(m(r"^[^\d]$", "x"));
        assert!(!m(r"^[^\d]$", "1"));
        assert!(m(r"^[\W]$", "!"));
        assert!(m(r"\bcat\b", "a cat."));
        assert!(!m(r"\bcat\b", "concat"));
        assert!(m(r"\Bcat", "concat"));
    }

    #[test]
    fn ecma_space_and_dot() {
        for space in ["\t", "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{3000}", "\u{B}"] {
            assert!(m(r"^\s$", space), "{space:?}");
            assert!(!m(r"^\S$", space), "{space:?}");
        }
        assert!(!m(r"^\s$", "\u{200B}"));
        assert!(m("^.$", "é"));
        for end in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            assert!(!m("^.$", end), "{end:?}");
        }
        assert!(m("^[^]$", "\n"));
        assert!(!m("[]", "anything"));
        assert!(m("^[.]$", "."));
        assert!(!m("^[.]$", "x"));
    }

    #[test]
    fn escapes_and_literals() {
        assert!(m(r"^\u0041\x42\u{43}$", "ABC"));
        assert!(m(r"^\uD83D\uDE00$", "😀"));
        assert!(m(r"^a\/b\-c\:d$", "a/b-c:d"));
        assert!(m(r"^\cJ$", "\n"));
        assert!(m(r"^\0$", "\0"));
        assert!(m(r"^[\b]$", "\u{8}"));
        assert!(m(r"^a{$", "a{"));
        assert!(m(r"^{foo}$", "{foo}"));
        assert!(m(r"^a{2}$", "aa"));
        assert!(m(r"^a{2,}$", "aaa"));
        assert!(m(r"^a{1,2}$", "aa"));
        assert!(m(r"^a{,2}$", "a{,2}"));
        assert!(m(r"^[[]$", "["));
        assert!(m(r"^[a&&b]+$", "a&b"));
        assert!(m(r"^[+--]$", ","));
        assert!(m(r"^(?<year>\d{4})$", "2024"));
        assert!(m(r"^\p{Lu}\p{L}*$", "Émile"));
        assert!(m(r"^\p{Script=Greek}+$", "αβγ"));
        assert!(m(r"^\p{Greek}+$", "αβγ"));
        assert!(m(r"^\P{L}$", "1"));
        assert!(m("^\\u$", "u"));
        assert!(m(r"^\p{Emoji}$", "😀"));
        assert!(m(r"^\A$", "A"));
        // Not ECMA-262, read as `regex` reads it.
        assert!(m("(?i)^abc$", "ABC"));
    }

    #[test]
    fn unanchored_by_default() {
        assert!(m("b", "abc"));
        assert!(!m("^b", "abc"));
    }

    #[test]
    fn what_is_refused_says_why() {
        let cases = [
            (
                "a(?=b)",
                "look-around ((?=...)), which the regex engine llmout uses does not support",
            ),
            (
                "(?<!a)b",
                "look-around ((?<!...)), which the regex engine llmout uses does not support",
            ),
            (
                r"(a)\1",
                r"a backreference (\1), which the regex engine llmout uses does not support",
            ),
            (
                r"(?<x>a)\k<x>",
                r"a named backreference (\k<name>), which the regex engine llmout uses does not support",
            ),
            ("a\\", "a pattern that ends in a lone backslash"),
            ("[a", "a pattern with a character class that is not closed"),
            (r"\p{Nonsense}", r"an unknown Unicode property (\p{Nonsense})"),
            (r"\p{", r"a \p{...} that is not closed"),
            (r"\p{a b}", r"a property name that is no name (\p{a b})"),
            (r"\u{110000}", "a \\u{...} escape that is not a code point"),
            (r"\u{}", "a \\u{...} escape that is not a code point"),
            (r"\u{41", "a \\u{...} escape that is not a code point"),
            (
                r"\uD800",
                r"a lone surrogate (\uD800) that is no character, which the regex engine llmout uses does not support",
            ),
            (
                "(a",
                "a pattern the regex engine llmout uses cannot run (unclosed group)",
            ),
            (
                "*a",
                "a pattern the regex engine llmout uses cannot run (repetition operator missing expression)",
            ),
        ];
        for (pattern, why) in cases {
            assert_eq!(Pattern::new(pattern).unwrap_err(), why, "{pattern}");
        }
        // A program too large to build is refused, not built.
        assert!(Pattern::new("(((a{100}){100}){100})").is_err());
    }
}
