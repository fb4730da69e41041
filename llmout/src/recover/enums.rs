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
//!    not negated (`"not approved"`, `"isn't really a bug"`, `"doesn't look like spam"` name
//!    nothing; a negation reaches over articles, adverbs and linking verbs, not across a
//!    comma or a stop, so `"No, a bug."` names a bug); of several named, the one written in the
//!    schema's own spelling when the others only match ignoring case, where that spelling
//!    has a capital letter, a digit or a sign (`"TWO is one of them"` -> `"TWO"`). A
//!    spelling in lowercase letters is how prose writes any word, so it is no sign of which
//!    was meant: `"Negative (some positive notes)"` against `positive` and `negative` is
//!    ambiguous.
//!
//! Two different values matching at the same step is [`Match::Ambiguous`].

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::text::{clauses, fold, negated_at, stem, strip_decoration, words};
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
/// reused for every other value of the same enum in the reply; each step of the module docs
/// looks its candidates up in a hash of them. An enum of more than [`SCAN`] values and aliases
/// has them hashed as written too. A lookup takes time in the text's length and the
/// candidates found, not in the enum's size.
#[derive(Default)]
pub(crate) struct EnumIndex {
    spellings: HashMap<NodeId, Spellings>,
    written: HashMap<NodeId, Written>,
    /// The last text looked up loosely, with what was made of it: a union's branches look
    /// one value up against each of their tags in turn.
    last: Option<Text>,
}

/// Enums with at most this many values and aliases are matched exactly by comparing with
/// each, which is faster than hashing for the few values most enums have.
const SCAN: usize = 16;

/// An enum's values and aliases as written: its strings and integers hashed (how many values
/// each integer is), the position of every other value (compared in turn), each alias's
/// target by the alias (the first).
struct Written {
    strings: HashSet<String>,
    integers: HashMap<i128, usize>,
    others: Vec<usize>,
    aliases: HashMap<String, usize>,
}

impl Written {
    fn new(e: &Enum) -> Self {
        let mut w = Written {
            strings: HashSet::new(),
            integers: HashMap::new(),
            others: Vec::new(),
            aliases: HashMap::new(),
        };
        for (i, v) in e.values.iter().enumerate() {
            match (v, integer(v)) {
                (Value::String(s), _) => drop(w.strings.insert(s.clone())),
                (_, Some(n)) => *w.integers.entry(n).or_default() += 1,
                _ => w.others.push(i),
            }
        }
        for (i, (a, _)) in e.aliases.iter().enumerate() {
            w.aliases.entry(a.clone()).or_insert(i);
        }
        w
    }

    fn contains(&self, e: &Enum, v: &Value) -> bool {
        match (v, integer(v)) {
            (Value::String(s), _) => self.strings.contains(s),
            (_, Some(n)) => self.integers.contains_key(&n),
            _ => self.others.iter().any(|&i| e.values[i] == *v),
        }
    }

    /// How many of the values that are no strings equal `v`.
    fn others_equal(&self, e: &Enum, v: &Value) -> usize {
        match integer(v) {
            Some(n) => self.integers.get(&n).copied().unwrap_or(0),
            None => self.others.iter().filter(|&&i| e.values[i] == *v).count(),
        }
    }
}

/// An integer's value, where `v` is one (not a float): two such values are equal exactly
/// when these are.
fn integer(v: &Value) -> Option<i128> {
    let Value::Number(n) = v else { return None };
    n.as_u64()
        .map(i128::from)
        .or_else(|| n.as_i64().map(i128::from))
}

/// One spelling of a value: as written, folded, and as word stems; the value, and its JSON
/// text (which tells the values apart).
struct Spelling {
    name: String,
    folded: String,
    stems: Vec<String>,
    value: Value,
    key: String,
}

impl Spelling {
    fn new(name: &str, value: Value) -> Self {
        Spelling {
            name: name.to_owned(),
            folded: fold(name),
            stems: stems(name),
            key: value.to_string(),
            value,
        }
    }
}

/// An enum's spellings, and by each folded name, sequence of stems and first stem, the
/// spellings that have it (their positions, ascending).
struct Spellings {
    list: Vec<Spelling>,
    folded: HashMap<String, Vec<usize>>,
    stems: HashMap<Vec<String>, Vec<usize>>,
    first_stem: HashMap<String, Vec<usize>>,
}

impl Spellings {
    fn new(e: &Enum) -> Self {
        let values = e
            .values
            .iter()
            .filter_map(|v| v.as_str().map(|s| Spelling::new(s, v.clone())));
        let aliases = e.aliases.iter().map(|(a, v)| Spelling::new(a, v.clone()));
        let list: Vec<Spelling> = values.chain(aliases).collect();
        let mut folded: HashMap<String, Vec<usize>> = HashMap::new();
        let mut stems: HashMap<Vec<String>, Vec<usize>> = HashMap::new();
        let mut first_stem: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, s) in list.iter().enumerate() {
            folded.entry(s.folded.clone()).or_default().push(i);
            stems.entry(s.stems.clone()).or_default().push(i);
            if let Some(first) = s.stems.first() {
                first_stem.entry(first.clone()).or_default().push(i);
            }
        }
        Spellings {
            list,
            folded,
            stems,
            first_stem,
        }
    }

    /// The distinct values (by their JSON text) of the spellings at `at`, in that order.
    fn values(&self, at: impl IntoIterator<Item = usize>) -> Vec<Value> {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut hits: Vec<Value> = Vec::new();
        for i in at {
            let s = &self.list[i];
            if seen.insert(&s.key) {
                hits.push(s.value.clone());
            }
        }
        hits
    }

    /// The distinct values of the spellings with this folded name.
    fn folded(&self, folded: &str) -> Vec<Value> {
        self.values(self.folded.get(folded).into_iter().flatten().copied())
    }
}

/// A text looked up loosely, with what each step makes of it, made when a step first
/// needs it.
struct Text {
    text: String,
    /// Decoration stripped, folded and stemmed (steps 2 and 3).
    core: Option<(String, Vec<String>)>,
    /// The first line folded, where the text has more than one (step 4).
    first_line: Option<Option<String>>,
    /// The text's words and their stems (step 5).
    sentence: Option<Sentence>,
}

/// A text's words, where its clauses break ([`clauses`]) and the words' stems (step 5).
struct Sentence {
    words: Vec<String>,
    breaks: Vec<bool>,
    stems: Vec<String>,
}

impl Text {
    fn new(text: &str) -> Self {
        Text {
            text: text.to_owned(),
            core: None,
            first_line: None,
            sentence: None,
        }
    }

    fn core(&mut self) -> &(String, Vec<String>) {
        let text = &self.text;
        self.core.get_or_insert_with(|| {
            let core = strip_decoration(text);
            (fold(core), stems(core))
        })
    }

    fn first_line(&mut self) -> Option<&str> {
        let text = &self.text;
        self.first_line
            .get_or_insert_with(|| {
                let (first, _) = text.trim_start().split_once('\n')?;
                Some(fold(strip_decoration(first)))
            })
            .as_deref()
    }

    fn sentence(&mut self) -> &Sentence {
        let text = &self.text;
        self.sentence.get_or_insert_with(|| {
            let (words, breaks) = clauses(text);
            let stems = words.iter().map(|w| stem(w)).collect();
            Sentence {
                words,
                breaks,
                stems,
            }
        })
    }
}

fn stems(s: &str) -> Vec<String> {
    words(s).iter().map(|w| stem(w)).collect()
}

impl EnumIndex {
    pub(crate) fn new() -> Self {
        EnumIndex::default()
    }

    /// The values and aliases of `e`, the enum at `id`, hashed as written ([`Written`]), for
    /// an enum of more than [`SCAN`] of them; `None` for a smaller one, compared in turn.
    fn written(&mut self, id: NodeId, e: &Enum) -> Option<&Written> {
        if e.values.len() + e.aliases.len() <= SCAN {
            return None;
        }
        Some(self.written.entry(id).or_insert_with(|| Written::new(e)))
    }

    /// Matches `v` against `e`, the enum schema at node `id`.
    pub(crate) fn lookup(&mut self, id: NodeId, e: &Enum, v: &Value) -> Match {
        let exact = match self.written(id, e) {
            Some(w) => w.contains(e, v),
            None => e.values.contains(v),
        };
        if exact {
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
        let (others, strings) = match self.written(id, e) {
            Some(w) => (
                !w.others.is_empty() || !w.integers.is_empty(),
                !w.strings.is_empty(),
            ),
            None => (
                e.values.iter().any(|x| !x.is_string()),
                e.values.iter().any(Value::is_string),
            ),
        };
        if others {
            let reparsed: Option<Value> = serde_json::from_str(text.trim()).ok();
            let one = match (self.written(id, e), reparsed) {
                (_, None) => None,
                (Some(w), Some(r)) => (!r.is_string() && w.others_equal(e, &r) == 1).then_some(r),
                (None, Some(r)) => {
                    let mut typed = e.values.iter().filter(|x| !x.is_string() && **x == r);
                    match (typed.next(), typed.next()) {
                        (Some(one), None) => Some(one.clone()),
                        _ => None,
                    }
                }
            };
            if let Some(value) = one {
                return Match::Loose {
                    value,
                    how: "as the same value of another JSON type",
                };
            }
        }
        if !strings {
            return Match::None;
        }
        let alias = match self.written(id, e) {
            Some(w) => w.aliases.get(text).map(|&i| &e.aliases[i]),
            None => e.aliases.iter().find(|(a, _)| a == text),
        };
        if let Some((_, target)) = alias {
            return Match::Loose {
                value: target.clone(),
                how: "by alias",
            };
        }
        let spellings = self
            .spellings
            .entry(id)
            .or_insert_with(|| Spellings::new(e));
        let last = match &mut self.last {
            Some(last) if last.text == text => last,
            last => last.insert(Text::new(text)),
        };
        loose(last, spellings)
    }
}

/// Steps 2 to 5 of the module docs: `text` against the enum's spellings.
fn loose(text: &mut Text, spellings: &Spellings) -> Match {
    // Step 2: folded equality, against values and aliases.
    let (folded, core_stems) = text.core();
    if !folded.is_empty() {
        if let Some(m) = decide(spellings.folded(folded), "ignoring case and separators") {
            return m;
        }
    }

    // Step 3: the same sequence of word stems.
    if !core_stems.is_empty() {
        let at = spellings.stems.get(core_stems).into_iter().flatten();
        if let Some(m) = decide(spellings.values(at.copied()), "by word stem") {
            return m;
        }
    }

    // Step 4: the first line of a longer text.
    if let Some(folded) = text.first_line().filter(|f| !f.is_empty()) {
        if let Some(m) = decide(spellings.folded(folded), "on the reply's first line") {
            return m;
        }
    }

    // Step 5: named inside a short sentence, as consecutive whole words (or their stems), and
    // not right after a negation.
    let whole = text.text.clone();
    let sentence = text.sentence();
    if sentence.words.len() <= 40 {
        // The spellings whose stems stand at some word `k`, not after a negation.
        let mut named: Vec<usize> = Vec::new();
        for (k, first) in sentence.stems.iter().enumerate() {
            let negated = negated_at(&sentence.words, &sentence.breaks, k);
            for &i in spellings.first_stem.get(first).into_iter().flatten() {
                let stems = &spellings.list[i].stems;
                if !negated && sentence.stems[k..].starts_with(stems) {
                    named.push(i);
                }
            }
        }
        named.sort_unstable();
        named.dedup();
        let hits = spellings.values(named.iter().copied());
        if hits.len() > 1 {
            let exact: Vec<usize> = named
                .iter()
                .copied()
                .filter(|&i| names_exactly(&whole, &spellings.list[i].name))
                .collect();
            if let [one] = spellings.values(exact.iter().copied()).as_slice() {
                if exact.iter().any(|&i| distinct(&spellings.list[i].name)) {
                    return Match::Loose {
                        value: one.clone(),
                        how: "named in a sentence in its own spelling",
                    };
                }
            }
        }
        if let Some(m) = decide(hits, "named in a sentence") {
            return m;
        }
    }
    Match::None
}

/// Whether a spelling has a capital letter, a digit or a sign: one that prose does not
/// write by chance, as it writes lowercase words. Only such a spelling, written as it is,
/// tells one value named in a sentence from others named in another case.
fn distinct(name: &str) -> bool {
    name.chars()
        .any(|c| !c.is_lowercase() && !c.is_whitespace())
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
        // A base form ending in a silent `e`.
        let s = e(&["pending", "completed", "closed", "archived"]);
        for (text, value) in [
            ("complete", "completed"),
            ("Close", "closed"),
            ("archive", "archived"),
        ] {
            assert_eq!(loose(match_enum(&json!(text), &s)), json!(value), "{text}");
        }
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
        // After a negation and a word that carries it on, too.
        let s = e(&["active", "inactive", "pending"]);
        for text in ["no longer active", "Not yet active.", "never been active"] {
            assert_eq!(match_enum(&json!(text), &s), Match::None, "{text}");
        }
        assert_eq!(
            loose(match_enum(&json!("Pending: not yet active"), &s)),
            json!("pending")
        );
        // `non-` too: not the value named after it.
        let s = e(&["positive", "negative", "neutral"]);
        for text in ["non-negative", "Non Positive", "non negative"] {
            assert_eq!(match_enum(&json!(text), &s), Match::None, "{text}");
        }
        // Across an article, an adverb or a verb that carries the negation on.
        let s = e(&["defect", "enhancement", "question"]);
        for text in [
            "not a defect",
            "It isn't a defect.",
            "Not really a defect",
            "Reported without a defect",
            "doesn't look like a defect",
            "hardly a defect",
            "not to be a defect",
        ] {
            assert_eq!(match_enum(&json!(text), &s), Match::None, "{text}");
        }
        // A negation does not reach across a clause mark, nor over a word that carries
        // nothing.
        for text in ["No, a defect.", "No - a defect", "No idea, a defect"] {
            assert_eq!(
                loose(match_enum(&json!(text), &s)),
                json!("defect"),
                "{text}"
            );
        }
        assert_eq!(
            loose(match_enum(&json!("Not an enhancement: a defect"), &s)),
            json!("defect")
        );
        assert_eq!(
            loose(match_enum(&json!("not reproducible, so a defect"), &s)),
            json!("defect")
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
        // A spelling in lowercase is how prose writes the word anyway: no sign of which
        // value the model meant (the capitalised one is as often the headline).
        let s = e(&["positive", "negative", "mixed"]);
        for text in [
            "Negative (some positive notes)",
            "Positive, though some negative aspects",
            "Mostly Positive, slightly negative",
        ] {
            assert_eq!(
                match_enum(&json!(text), &s),
                Match::Ambiguous(vec![json!("positive"), json!("negative")]),
                "{text}"
            );
        }
        // A spelling with a capital letter (or a digit, or a sign) still decides, in a
        // sentence's first word too.
        let s = e(&["Positive", "Negative"]);
        assert_eq!(
            loose(match_enum(
                &json!("Positive overall; negative on price"),
                &s
            )),
            json!("Positive")
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
    /// What a lookup answered before enums were hashed: each spelling compared in turn.
    fn compared(e: &Enum, v: &Value) -> Match {
        if e.values.contains(v) {
            return Match::Exact;
        }
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(_) | Value::Bool(_) => v.to_string(),
            _ => return Match::None,
        };
        let text = text.as_str();
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
        let values = e.values.iter().filter_map(|v| v.as_str().map(|s| (s, v)));
        let list: Vec<Spelling> = values
            .chain(e.aliases.iter().map(|(a, v)| (a.as_str(), v)))
            .map(|(s, v)| Spelling::new(s, v.clone()))
            .collect();
        let candidates = |test: &dyn Fn(&Spelling) -> bool| {
            let mut hits: Vec<Value> = Vec::new();
            for s in &list {
                if test(s) && !hits.contains(&s.value) {
                    hits.push(s.value.clone());
                }
            }
            hits
        };
        let core = strip_decoration(text);
        let folded = fold(core);
        if !folded.is_empty() {
            if let Some(m) = decide(
                candidates(&|s| s.folded == folded),
                "ignoring case and separators",
            ) {
                return m;
            }
        }
        let core_stems = stems(core);
        if !core_stems.is_empty() {
            if let Some(m) = decide(candidates(&|s| s.stems == core_stems), "by word stem") {
                return m;
            }
        }
        if let Some((first, _)) = text.trim_start().split_once('\n') {
            let folded = fold(strip_decoration(first));
            if !folded.is_empty() {
                if let Some(m) = decide(
                    candidates(&|s| s.folded == folded),
                    "on the reply's first line",
                ) {
                    return m;
                }
            }
        }
        let (sentence, breaks) = clauses(text);
        if sentence.len() <= 40 {
            let sentence_stems: Vec<String> = sentence.iter().map(|w| stem(w)).collect();
            let named = |s: &Spelling| {
                !s.stems.is_empty()
                    && sentence_stems
                        .windows(s.stems.len())
                        .enumerate()
                        .any(|(k, window)| {
                            window == s.stems.as_slice() && !negated_at(&sentence, &breaks, k)
                        })
            };
            let hits = candidates(&named);
            if hits.len() > 1 {
                let exact = candidates(&|s| named(s) && names_exactly(text, &s.name));
                let distinctly =
                    candidates(&|s| named(s) && names_exactly(text, &s.name) && distinct(&s.name));
                if let ([one], [_]) = (exact.as_slice(), distinctly.as_slice()) {
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

    /// Words from a few that fold and stem alike, with a negation among them.
    fn spelling() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        proptest::collection::vec(
            "(pass|Pass|passed|PASS|fail|not|skip|skipped|in_progress|InProgress|a|B|1|2|true)",
            1..4,
        )
        .prop_map(|w| w.join(" "))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Small enums and enums past `SCAN`, with aliases and repeated values: a lookup
        /// answers as comparing each spelling does, and a second lookup of one text (its
        /// words kept) as the first.
        #[test]
        fn a_lookup_answers_as_comparing_each_spelling(
            values in proptest::collection::vec(spelling(), 1..30),
            numbers in proptest::collection::vec(0i64..4, 0..4),
            flag in proptest::bool::ANY,
            aliases in proptest::collection::vec((spelling(), 0usize..30), 0..6),
            texts in proptest::collection::vec(spelling(), 1..8),
        ) {
            use proptest::prelude::*;
            let mut e = Enum {
                values: values.iter().map(|v| json!(v)).collect(),
                aliases: Vec::new(),
            };
            e.values.extend(numbers.iter().map(|n| json!(n)));
            if flag {
                e.values.push(json!(true));
            }
            for (a, i) in aliases {
                if let Some(v) = values.get(i) {
                    e.aliases.push((a, json!(v)));
                }
            }
            let any = crate::schema::Schema::compile(&json!({})).unwrap();
            let mut ix = EnumIndex::new();
            let asked = texts.iter().map(|t| json!(t)).chain(numbers.iter().map(|n| json!(n)));
            for v in asked.chain([json!(7), json!(true), json!("1"), json!(" 2 "), json!(2.0)]) {
                let first = ix.lookup(any.root(), &e, &v);
                prop_assert_eq!(&first, &compared(&e, &v), "{}", v);
                prop_assert_eq!(ix.lookup(any.root(), &e, &v), first, "{}", v);
            }
        }
    }
}
