//! Text normalisation shared by key and enum matching.

/// Lower-cases, folds common accents, and keeps only ASCII letters and digits (plus any other
/// alphanumeric character, lower-cased): `"Needs Review"`, `"needs_review"` and `"NEEDS-REVIEW"`
/// all become `"needsreview"`.
pub(crate) fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = unaccent(c);
        if c == 'ß' || c == 'ẞ' {
            out.push_str("ss");
        } else if c.is_alphanumeric() {
            push_lower(&mut out, c);
        }
    }
    out
}

/// Pushes `c` lower-cased, skipping Unicode case mapping for ASCII (nearly every key and enum
/// value a model writes).
fn push_lower(out: &mut String, c: char) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else {
        out.extend(c.to_lowercase());
    }
}

/// Words of `s`: runs of alphanumerics, also split at lower->upper case changes
/// (`"NeedsReview"` -> `["needs", "review"]`), lower-cased and accent-folded.
pub(crate) fn words(s: &str) -> Vec<String> {
    clauses(s).0
}

/// [`words`] and, for each word, whether a clause mark (`,` `;` `:` `.` `!` `?` a bracket,
/// a dash standing alone, or a line break) stands between it and the word before: the
/// places a negation does not reach across (`"No, a bug"` names a bug).
pub(crate) fn clauses(s: &str) -> (Vec<String>, Vec<bool>) {
    let mut out: Vec<String> = Vec::new();
    let mut breaks: Vec<bool> = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    let mut broken = false;
    let mut push = |word: &mut String, broken: &mut bool| {
        out.push(std::mem::take(word));
        breaks.push(std::mem::take(broken));
    };
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let c = unaccent(c);
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !current.is_empty() {
                push(&mut current, &mut broken);
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            push_lower(&mut current, c);
        } else {
            prev_lower = false;
            if !current.is_empty() {
                push(&mut current, &mut broken);
            }
            let dash =
                matches!(c, '-' | '–' | '—') && chars.peek().is_none_or(|n| n.is_whitespace());
            if dash
                || matches!(
                    c,
                    ',' | ';' | ':' | '.' | '!' | '?' | '(' | ')' | '[' | ']' | '\n'
                )
            {
                broken = true;
            }
        }
    }
    if !current.is_empty() {
        push(&mut current, &mut broken);
    }
    (out, breaks)
}

/// Whether a word (as [`words`] splits them) negates what follows it: `not`, `no`,
/// `never`, `without`, `nor`, `hardly`, the `non` of `non-negative`, and the `t` of `isn't`,
/// `don't`, `can't`.
pub(crate) fn is_negation(word: &str) -> bool {
    matches!(
        word,
        "not" | "no" | "non" | "never" | "without" | "nor" | "neither" | "hardly" | "barely" | "t"
    )
}

/// Words that carry a negation on to the word after them: articles, adverbs and the verbs of
/// `isn't really a bug`, `doesn't look like spam`, `not to be approved`, `no longer active`.
fn carries(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "the"
            | "any"
            | "longer"
            | "yet"
            | "currently"
            | "really"
            | "actually"
            | "exactly"
            | "necessarily"
            | "likely"
            | "very"
            | "fully"
            | "quite"
            | "entirely"
            | "completely"
            | "always"
            | "ever"
            | "been"
            | "be"
            | "being"
            | "to"
            | "so"
            | "too"
            | "look"
            | "looks"
            | "seem"
            | "seems"
            | "like"
    )
}

/// How many carrying words a negation reaches across.
const CARRY: usize = 3;

/// Whether the word at `k` of `words` is negated: after a negation, with at most [`CARRY`]
/// words that carry it on between (`not approved`, `not yet approved`, `isn't really a bug`,
/// `doesn't look like spam`), and no clause mark ([`clauses`]'s `breaks`) from the negation
/// to the word.
pub(crate) fn negated_at(words: &[String], breaks: &[bool], k: usize) -> bool {
    let mut j = k;
    while j > 0 && !breaks[j] && k - j <= CARRY {
        j -= 1;
        if is_negation(&words[j]) {
            return true;
        }
        if !carries(&words[j]) {
            return false;
        }
    }
    false
}

/// A crude English stem: drops `ing`, `ed`, `es`, `s`, a silent final `e` and a doubled
/// final consonant, so `skipped`, `skipping`, `skips` and `skip` agree, and `complete`,
/// `completed` and `completing`. Only used after exact and folded matching failed, and only
/// to compare two words.
pub(crate) fn stem(word: &str) -> String {
    let mut w = word.to_owned();
    for suffix in ["ing", "ed", "es", "s"] {
        if w.len() > suffix.len() + 2 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    if w.len() >= 3 && w.ends_with('e') {
        w.pop();
    }
    // A doubled consonant (`skipp`), not a doubled digit (`v100` is no `v10`).
    let b = w.as_bytes();
    if let [.., x, y] = b {
        if b.len() >= 3 && x == y && y.is_ascii_alphabetic() && !b"aeiou".contains(y) {
            w.pop();
        }
    }
    w
}

/// Strips markdown emphasis, code ticks, quotes and a list bullet around a short value:
/// `"**Pass**"`, `"- pass"`, `"1. pass"`, `` "`pass`" `` -> `"pass"`.
pub(crate) fn strip_decoration(s: &str) -> &str {
    let mut t = s.trim();
    for bullet in ["- ", "* ", "+ ", "• "] {
        if let Some(rest) = t.strip_prefix(bullet) {
            t = rest.trim_start();
        }
    }
    if let Some(dot) = t.find(". ") {
        if dot > 0 && dot <= 3 && t[..dot].bytes().all(|b| b.is_ascii_digit()) {
            t = t[dot + 2..].trim_start();
        }
    }
    let decor: &[char] = &['*', '_', '`', '"', '\'', '“', '”', '‘', '’'];
    t.trim_start_matches(|c: char| decor.contains(&c) || c.is_whitespace())
        .trim_end_matches(|c: char| decor.contains(&c) || c.is_whitespace() || c == '.' || c == '!')
}

fn unaccent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'A',
        'ç' => 'c',
        'Ç' => 'C',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'È' | 'É' | 'Ê' | 'Ë' => 'E',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'Ì' | 'Í' | 'Î' | 'Ï' => 'I',
        'ñ' => 'n',
        'Ñ' => 'N',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => 'O',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'Ù' | 'Ú' | 'Û' | 'Ü' => 'U',
        'ý' | 'ÿ' => 'y',
        'Ý' => 'Y',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold("Needs Review"), "needsreview");
        assert_eq!(fold("needs_review"), "needsreview");
        assert_eq!(fold("Café-Crème"), "cafecreme");
        assert_eq!(fold("Straße"), fold("STRASSE"));
        assert_eq!(fold("ÉTAT_Über 2"), "etatuber2");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("ΣΟΦΊΑ"), "σοφία");
    }

    #[test]
    fn splitting_words() {
        assert_eq!(words("NeedsReview"), ["needs", "review"]);
        assert_eq!(words("user_id"), ["user", "id"]);
        assert_eq!(
            words("The status is: PASS."),
            ["the", "status", "is", "pass"]
        );
        assert_eq!(words("HTTPServer2"), ["httpserver2"]);
    }

    #[test]
    fn stems() {
        for w in ["skip", "skipped", "skipping", "skips"] {
            assert_eq!(stem(w), "skip", "{w}");
        }
        assert_eq!(stem("pass"), "pas");
        assert_eq!(stem("passed"), "pas");
        assert_eq!(stem("fail"), "fail");
        assert_eq!(stem("failed"), "fail");
        // Digits are no consonants.
        for w in ["complete", "completed", "completes", "completing"] {
            assert_eq!(stem(w), "complet", "{w}");
        }
        assert_eq!(stem("closed"), stem("close"));
        assert_eq!(stem("approve"), stem("approved"));
        assert_eq!(stem("v100"), "v100");
        assert_eq!(stem("k2499"), "k2499");
        assert_eq!(stem("v100s"), "v100");
    }

    #[test]
    fn decoration() {
        assert_eq!(strip_decoration("**Pass**"), "Pass");
        assert_eq!(strip_decoration("- pass"), "pass");
        assert_eq!(strip_decoration("2. `skip`"), "skip");
        assert_eq!(strip_decoration("“fail”."), "fail");
    }
}
