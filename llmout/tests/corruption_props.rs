//! Realistic corruptions of valid objects (issue #20): a dropped or added comma, a key in
//! single quotes, a comment, an inner quote left unescaped, a cut at any byte. Where the
//! corruption loses nothing the repaired value is the original; otherwise it differs only
//! where a warning says so.

use llmout::repair::{parse, RepairKind, RepairOptions};
use llmout::{repair_text, Options};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// A value as the tokens it is written with, so corruptions land on real structure.
#[derive(Debug, Clone)]
enum Token {
    Open(char),
    Close(char),
    Comma,
    Colon,
    Key(String),
    Str(String),
    Raw(String),
}

fn tokens(v: &Value, out: &mut Vec<Token>) {
    match v {
        Value::Object(map) => {
            out.push(Token::Open('{'));
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(Token::Comma);
                }
                out.push(Token::Key(k.clone()));
                out.push(Token::Colon);
                tokens(v, out);
            }
            out.push(Token::Close('}'));
        }
        Value::Array(items) => {
            out.push(Token::Open('['));
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(Token::Comma);
                }
                tokens(v, out);
            }
            out.push(Token::Close(']'));
        }
        Value::String(s) => out.push(Token::Str(s.clone())),
        other => out.push(Token::Raw(other.to_string())),
    }
}

/// How one token is written: as JSON, or with one corruption.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Style {
    Json,
    SingleQuoted,
    Unescaped,
}

fn render(tokens: &[Token], style: impl Fn(usize) -> Style, pretty: bool) -> String {
    let mut out = String::new();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Open(c) => out.push(*c),
            Token::Close(c) => out.push(*c),
            Token::Comma => out.push_str(if pretty { ",\n  " } else { "," }),
            Token::Colon => out.push_str(": "),
            Token::Key(k) if style(i) == Style::SingleQuoted => {
                out.push('\'');
                out.push_str(k);
                out.push('\'');
            }
            Token::Str(s) if style(i) == Style::Unescaped => {
                out.push('"');
                out.push_str(&s.replace('\\', "\\\\").replace('\n', "\\n"));
                out.push('"');
            }
            Token::Key(s) | Token::Str(s) => out.push_str(&Value::String(s.clone()).to_string()),
            Token::Raw(r) => out.push_str(r),
        }
    }
    out
}

fn key() -> impl Strategy<Value = String> {
    proptest::sample::select(vec![
        "id", "name", "title", "summary", "tags", "score", "ok", "items", "note", "owner",
        "status", "data",
    ])
    .prop_map(str::to_owned)
}

/// Text as models write it, sometimes with quotes, commas and brackets inside. (Not a quote
/// right before a comma, nor `key:` words: with its quotes unescaped, `"a", key: 5` inside a
/// string is a member separator and the next member written out, and no reading can tell the
/// two apart.)
fn words() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(vec![
            "ship", "it", "the", "fix", "said", "\"go\"", "now", "a,", "b.", "{x}", "[1]", "é",
            "done", "\"ok\"", "5",
        ]),
        1..6,
    )
    .prop_map(|w| w.join(" "))
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        words().prop_map(Value::String),
        (-1000i64..1000).prop_map(Value::from),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        (0u32..1000).prop_map(|n| Value::from(f64::from(n) / 8.0)),
    ]
}

fn record() -> impl Strategy<Value = Value> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 1..4).prop_map(Value::Array),
                proptest::collection::vec((key(), inner), 1..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
            ]
        })
        .prop_filter("an object", Value::is_object)
}

/// Positions of the tokens that satisfy `f`.
fn where_(tokens: &[Token], f: impl Fn(&Token) -> bool) -> Vec<usize> {
    (0..tokens.len()).filter(|&i| f(&tokens[i])).collect()
}

/// Repairs `text` both ways a user would, and checks they agree.
fn repaired(text: &str) -> (Value, Vec<(RepairKind, String)>) {
    let p = parse(text, &RepairOptions::default()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let r = repair_text(text, &Options::default()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(r.value, p.value, "{text:?}");
    let fixes = p
        .repairs
        .iter()
        .map(|r| (r.kind, r.path.to_owned()))
        .collect();
    (p.value, fixes)
}

/// JSON pointers where `got` and `want` differ (the highest such point on each path).
fn differences(got: &Value, want: &Value, path: &str, out: &mut Vec<String>) {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            for k in g.keys().chain(w.keys()) {
                let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (g.get(k), w.get(k)) {
                    (Some(a), Some(b)) => differences(a, b, &p, out),
                    _ => out.push(p),
                }
            }
        }
        (Value::Array(g), Value::Array(w)) => {
            for i in 0..g.len().max(w.len()) {
                match (g.get(i), w.get(i)) {
                    (Some(a), Some(b)) => differences(a, b, &format!("{path}/{i}"), out),
                    _ => out.push(format!("{path}/{i}")),
                }
            }
        }
        (a, b) if a != b => out.push(path.to_owned()),
        _ => {}
    }
}

/// Whether every leaf of `got` is in `want` at the same place, strings and numbers as
/// prefixes of theirs: what a cut at some byte can leave.
fn cut_of(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => g
            .iter()
            .all(|(k, v)| w.get(k).is_some_and(|wv| cut_of(v, wv))),
        (Value::Array(g), Value::Array(w)) => {
            g.len() <= w.len() && g.iter().zip(w).all(|(a, b)| cut_of(a, b))
        }
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Number(a), Value::Number(b)) => {
            // `42.` reads as 42.0: the digits written so far.
            let a = a.to_string();
            b.to_string().starts_with(a.trim_end_matches(".0"))
        }
        // `tru` is completed to `true`, `n` to `null`.
        (a, b) => a == b,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn corruptions_that_lose_nothing_repair_to_the_original(
        v in record(),
        pick in any::<prop::sample::Index>(),
        pretty in any::<bool>(),
        kind in 0..4usize,
    ) {
        let mut t = Vec::new();
        tokens(&v, &mut t);
        let text = match kind {
            // A dropped comma.
            0 => {
                let commas = where_(&t, |t| matches!(t, Token::Comma));
                if commas.is_empty() { return Ok(()); }
                let at = commas[pick.index(commas.len())];
                // `[0,0]` without its comma is `[00]`: that loses the boundary itself.
                if matches!((&t[at - 1], &t[at + 1]), (Token::Raw(_), Token::Raw(_))) {
                    return Ok(());
                }
                t.remove(at);
                render(&t, |_| Style::Json, pretty)
            }
            // A trailing comma before a closer.
            1 => {
                let closers = where_(&t, |t| matches!(t, Token::Close(_)));
                let at = closers[pick.index(closers.len())];
                if matches!(t[at - 1], Token::Open(_)) { return Ok(()); }
                t.insert(at, Token::Comma);
                render(&t, |_| Style::Json, pretty)
            }
            // A key in single quotes.
            2 => {
                let keys = where_(&t, |t| matches!(t, Token::Key(_)));
                let at = keys[pick.index(keys.len())];
                render(&t, |i| if i == at { Style::SingleQuoted } else { Style::Json }, pretty)
            }
            // A comment after a comma or an opener.
            _ => {
                let spots = where_(&t, |t| matches!(t, Token::Comma | Token::Open(_)));
                let at = spots[pick.index(spots.len())];
                let comment = if pretty { " // a note, with \"quotes\"\n " } else { " /* a note */ " };
                t.insert(at + 1, Token::Raw(comment.to_owned()));
                render(&t, |_| Style::Json, pretty)
            }
        };
        let (got, _) = repaired(&text);
        prop_assert_eq!(got, v, "{}", text);
    }

    #[test]
    fn an_unescaped_inner_quote_changes_only_what_a_warning_names(
        v in record(),
        pick in any::<prop::sample::Index>(),
        pretty in any::<bool>(),
    ) {
        let mut t = Vec::new();
        tokens(&v, &mut t);
        // A member's value: in an array, a quote and a comma inside an item (`["a", b"]`) are
        // the item separator itself, and no reading can tell them apart.
        let quoted: Vec<usize> = where_(&t, |t| matches!(t, Token::Str(s) if s.contains('"')))
            .into_iter()
            .filter(|&i| matches!(t[i - 1], Token::Colon))
            .collect();
        if quoted.is_empty() { return Ok(()); }
        let at = quoted[pick.index(quoted.len())];
        let text = render(&t, |i| if i == at { Style::Unescaped } else { Style::Json }, pretty);
        let (got, fixes) = repaired(&text);
        let mut diffs = Vec::new();
        differences(&got, &v, "", &mut diffs);
        for d in diffs {
            prop_assert!(
                fixes.iter().any(|(_, p)| d == *p || d.starts_with(&format!("{p}/"))),
                "{} differs with no warning there: {:?}\n{}\n{}", d, fixes, text, got
            );
        }
    }

    #[test]
    fn a_cut_at_any_byte_keeps_a_prefix_of_the_original(
        v in record(),
        at in any::<prop::sample::Index>(),
        pretty in any::<bool>(),
    ) {
        let mut t = Vec::new();
        tokens(&v, &mut t);
        let text = render(&t, |_| Style::Json, pretty);
        let mut end = at.index(text.len());
        while !text.is_char_boundary(end) { end -= 1; }
        let cut = &text[..end];
        if cut.trim().is_empty() || cut.trim() == "{" { return Ok(()); }
        let (got, fixes) = repaired(cut);
        prop_assert!(cut_of(&got, &v), "{} is not a cut of the original\n{}", got, cut);
        prop_assert!(
            fixes.iter().any(|(k, _)| matches!(k, RepairKind::Truncated | RepairKind::MissingQuote)),
            "no word of the cut: {:?}\n{}", fixes, cut
        );
    }
}
