//! Matching a value to one of an enum's values (or a `const` tag), loosely but never by guess.
//!
//! In order, the first step that finds anything decides:
//! 1. an exact `x-aliases` entry;
//! 2. the same letters and digits ignoring case, accents, separators and decoration
//!    (`"needs review"`, `"**NEEDS_REVIEW**"` -> `"NeedsReview"`);
//! 3. the same word stems (`"SKIPPED"` -> `"skip"`);
//! 4. the first line of a longer text, on its own, matching as in step 2 (`` "`k5`\n\nThe
//!    category k5 is…" `` -> the value aliased `k5`);
//! 5. exactly one value named as whole words in a sentence (`"The tests pass."` -> `"pass"`),
//!    not negated (`"not approved"` names nothing); of several named, the one written in the
//!    schema's own spelling when the others only match ignoring case.
//!
//! Two different values matching at the same step is [`Match::Ambiguous`].

use std::collections::HashMap;

use serde_json::Value;

use super::text::{fold, is_negation, stem, strip_decoration, words};
use crate::schema::{Enum, NodeId};

/// The outcome of matching.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Match {
    /// Equal to one of the values.
    Exact,
    /// Matched one value loosely; `how` says which step.
    Loose { value: Value, how: &'static str },
    /// Several values match equally well.
    Ambiguous(Vec<Value>),
    /// Nothing matches.
    None,
}

/// Enums' spellings (string values and aliases) folded and stemmed, per schema node, built the
/// first time a value of that enum does not match exactly (valid replies never pay for it), and
/// reused for every other value of the same enum in the reply.
#[derive(Default)]
pub(crate) struct EnumIndex {
    spellings: HashMap<NodeId, Vec<Spelling>>,
}

/// One spelling of a value: as written, folded, and as word stems.
struct Spelling {
    name: String,
    folded: String,
    stems: Vec<String>,
    value: Value,
}

impl Spelling {
    fn new(name: &str, value: Value) -> Self {
        Spelling {
            name: name.to_owned(),
            folded: fold(name),
            stems: stems(name),
            value,
        }
    }
}

/// The distinct values with a spelling that satisfies `test`.
fn candidates(spellings: &[Spelling], test: impl Fn(&Spelling) -> bool) -> Vec<Value> {
    let mut hits: Vec<Value> = Vec::new();
    for s in spellings {
        if test(s) && !hits.contains(&s.value) {
            hits.push(s.value.clone());
        }
    }
    hits
}

fn stems(s: &str) -> Vec<String> {
    words(s).iter().map(|w| stem(w)).collect()
}

impl EnumIndex {
    pub(crate) fn new() -> Self {
        EnumIndex::default()
    }

    /// Matches `v` against `e`, the enum schema at node `id`.
    pub(crate) fn lookup(&mut self, id: NodeId, e: &Enum, v: &Value) -> Match {
        if e.values.contains(v) {
            return Match::Exact;
        }
        let owned;
        let text: &str = match v {
            Value::String(s) => s,
            Value::Number(_) | Value::Bool(_) => {
                owned = v.to_string();
                &owned
            }
            _ => return Match::None,
        };
        // A number or bool written as a string, or the reverse.
        if e.values.iter().any(|x| !x.is_string()) {
            let reparsed: Option<Value> = serde_json::from_str(text.trim()).ok();
            let typed: Vec<&Value> = e
                .values
                .iter()
                .filter(|x| !x.is_string() && reparsed.as_ref() == Some(*x))
                .collect();
            if let [one] = typed.as_slice() {
                return Match::Loose {
                    value: (*one).clone(),
                    how: "as the same value of another JSON type",
                };
            }
        }
        if !e.values.iter().any(Value::is_string) {
            return Match::None;
        }
        if let Some((_, target)) = e.aliases.iter().find(|(a, _)| a == text) {
            return Match::Loose {
                value: target.clone(),
                how: "by alias",
            };
        }
        let spellings = self.spellings.entry(id).or_insert_with(|| {
            let values = e
                .values
                .iter()
                .filter_map(|v| v.as_str().map(|s| Spelling::new(s, v.clone())));
            let aliases = e.aliases.iter().map(|(a, v)| Spelling::new(a, v.clone()));
            values.chain(aliases).collect()
        });
        loose(text, spellings)
    }
}

/// Steps 2 to 4 of the module docs: `text` against the enum's spellings.
fn loose(text: &str, spellings: &[Spelling]) -> Match {
    let core = strip_decoration(text);

    // Step 2: folded equality, against values and aliases.
    let folded = fold(core);
    if !folded.is_empty() {
        let hits = candidates(spellings, |s| s.folded == folded);
        if let Some(m) = decide(hits, "ignoring case and separators") {
            return m;
        }
    }

    // Step 3: the same sequence of word stems.
    let core_stems = stems(core);
    if !core_stems.is_empty() {
        let hits = candidates(spellings, |s| s.stems == core_stems);
        if let Some(m) = decide(hits, "by word stem") {
            return m;
        }
    }

    // Step 4: the first line of a longer text.
    if let Some((first, _)) = text.trim_start().split_once('\n') {
        let folded = fold(strip_decoration(first));
        if !folded.is_empty() {
            let hits = candidates(spellings, |s| s.folded == folded);
            if let Some(m) = decide(hits, "on the reply's first line") {
                return m;
            }
        }
    }

    // Step 5: named inside a short sentence, as consecutive whole words (or their stems), and
    // not right after a negation.
    let sentence = words(text);
    if sentence.len() <= 40 {
        let sentence_stems: Vec<String> = sentence.iter().map(|w| stem(w)).collect();
        let named = |s: &Spelling| {
            !s.stems.is_empty()
                && sentence_stems
                    .windows(s.stems.len())
                    .enumerate()
                    .any(|(k, window)| {
                        window == s.stems.as_slice() && !(k > 0 && is_negation(&sentence[k - 1]))
                    })
        };
        let hits = candidates(spellings, named);
        if hits.len() > 1 {
            let exact = candidates(spellings, |s| named(s) && names_exactly(text, &s.name));
            if let [one] = exact.as_slice() {
                return Match::Loose {
                    value: one.clone(),
                    how: "named in a sentence in its own spelling",
                };
            }
        }
        if let Some(m) = decide(hits, "named in a sentence") {
            return m;
        }
    }
    Match::None
}

/// Whether `name` stands in `text` as written (case included), as a whole word.
fn names_exactly(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn decide(hits: Vec<Value>, how: &'static str) -> Option<Match> {
    match hits.len() {
        0 => None,
        1 => hits
            .into_iter()
            .next()
            .map(|value| Match::Loose { value, how }),
        _ => Some(Match::Ambiguous(hits)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn e(values: &[&str]) -> Enum {
        Enum {
            values: values.iter().map(|v| json!(v)).collect(),
            aliases: Vec::new(),
        }
    }

    /// Each case with a fresh index: the cache is tested in `recover::tests`.
    fn match_enum(v: &Value, e: &Enum) -> Match {
        let any = crate::schema::Schema::compile(&json!({})).unwrap();
        EnumIndex::new().lookup(any.root(), e, v)
    }

    fn loose(m: Match) -> Value {
        match m {
            Match::Loose { value, .. } => value,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn exact() {
        assert_eq!(
            match_enum(&json!("pass"), &e(&["pass", "fail"])),
            Match::Exact
        );
    }

    #[test]
    fn case_and_separators() {
        let s = e(&["NeedsReview", "Approved"]);
        assert_eq!(
            loose(match_enum(&json!("needs review"), &s)),
            json!("NeedsReview")
        );
        assert_eq!(
            loose(match_enum(&json!("NEEDS_REVIEW"), &s)),
            json!("NeedsReview")
        );
        assert_eq!(
            loose(match_enum(&json!("**approved**"), &s)),
            json!("Approved")
        );
        assert_eq!(
            loose(match_enum(&json!("- Approved"), &s)),
            json!("Approved")
        );
        assert_eq!(loose(match_enum(&json!("approvéd"), &s)), json!("Approved"));
    }

    #[test]
    fn inflection() {
        let s = e(&["pass", "fail", "error", "invalid", "skip"]);
        assert_eq!(loose(match_enum(&json!("SKIPPED"), &s)), json!("skip"));
        assert_eq!(loose(match_enum(&json!("passed"), &s)), json!("pass"));
        assert_eq!(loose(match_enum(&json!("Failing"), &s)), json!("fail"));
    }

    #[test]
    fn named_in_a_sentence() {
        let s = e(&["pass", "fail"]);
        assert_eq!(
            loose(match_enum(&json!("The tests pass."), &s)),
            json!("pass")
        );
        assert_eq!(
            match_enum(&json!("Some pass, some fail"), &s),
            Match::Ambiguous(vec![json!("pass"), json!("fail")])
        );
        assert_eq!(match_enum(&json!("unclear"), &s), Match::None);
    }

    #[test]
    fn negated_values_are_not_named() {
        let s = e(&["Approved", "Rejected"]);
        assert_eq!(match_enum(&json!("not approved"), &s), Match::None);
        assert_eq!(match_enum(&json!("It isn't approved."), &s), Match::None);
        assert_eq!(
            loose(match_enum(&json!("Rejected, not approved."), &s)),
            json!("Rejected")
        );
    }

    #[test]
    fn the_schema_spelling_wins_over_a_match_in_another_case() {
        let s = e(&["ONE", "TWO"]);
        assert_eq!(
            loose(match_enum(&json!("TWO is one of the answers"), &s)),
            json!("TWO")
        );
        // Both only in another case: nothing tells them apart.
        assert_eq!(
            match_enum(&json!("Two is one of the answers"), &s),
            Match::Ambiguous(vec![json!("ONE"), json!("TWO")])
        );
    }

    #[test]
    fn the_first_line_of_a_long_reply() {
        let mut s = e(&["SPAM", "HAM"]);
        s.aliases.push(("k5".into(), json!("SPAM")));
        let reply = "`k5`\n\nThis is k5 because it mentions ham and spam.";
        assert_eq!(loose(match_enum(&json!(reply), &s)), json!("SPAM"));
    }

    #[test]
    fn ambiguity_is_an_error() {
        let s = e(&["in_progress", "InProgress"]);
        assert_eq!(
            match_enum(&json!("in progress"), &s),
            Match::Ambiguous(vec![json!("in_progress"), json!("InProgress")])
        );
    }

    #[test]
    fn aliases() {
        let mut s = e(&["pass", "fail"]);
        s.aliases.push(("ok".into(), json!("pass")));
        assert_eq!(loose(match_enum(&json!("ok"), &s)), json!("pass"));
        assert_eq!(loose(match_enum(&json!("OK"), &s)), json!("pass"));
    }

    #[test]
    fn other_json_types() {
        let s = Enum {
            values: vec![json!(1), json!(2)],
            aliases: vec![],
        };
        assert_eq!(loose(match_enum(&json!("2"), &s)), json!(2));
        assert_eq!(loose(match_enum(&json!(1), &e(&["1", "2"]))), json!("1"));
        assert_eq!(match_enum(&json!({"a": 1}), &s), Match::None);
    }
}
