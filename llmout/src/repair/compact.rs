//! Valid JSON written as [`to_string`](super::to_string) writes it, without the parser: for a
//! large reply that is valid once sanitized, its sanitized copy written over itself
//! ([`compact_in_place`]: the copy becomes the output, where writing the output beside it
//! would hold a third text as large as the reply), or, where that copy would be over half
//! as long again as the reply, the sanitized text written a part at a time as it is made
//! ([`Compactor`], from [`crate::sanitize`]'s reader).

use super::sink::ESCAPE;

/// The longest escape [`Compactor`] reads at once: a surrogate pair, `\ud83d\ude00`.
const LONGEST_ESCAPE: usize = 12;

/// Writes valid JSON that the lenient parser reads with no fix (no key given twice, no
/// number out of range) as [`to_string`](super::to_string) writes it: no white space between
/// tokens, and each string's escapes written as `serde_json` writes them (`\u0041` and `\/`
/// decoded, `\u000a` written `\n`). The text comes in parts ([`Compactor::part`]) cut
/// anywhere; what the parts make is the same as the text whole makes. A `\u` escape that is
/// half a character (a lone surrogate) is U+FFFD, as the parser reads it (with a fix, so a
/// text the parser reads with none has no such escape).
#[derive(Debug, Default)]
pub(crate) struct Compactor {
    in_str: bool,
    /// The part being written over itself, after what the last one left: an escape at its
    /// end that the next part's bytes may finish.
    scratch: Vec<u8>,
}

impl Compactor {
    /// Writes what `part`, the text's next bytes, makes to `out`; an escape at its end that
    /// may go on in the next part is kept for it.
    pub(crate) fn part(&mut self, part: &[u8], out: &mut Vec<u8>) {
        self.scratch.extend_from_slice(part);
        let (read, written) = compact(&mut self.scratch, &mut self.in_str, false);
        out.extend_from_slice(&self.scratch[..written]);
        self.scratch.drain(..read);
    }

    /// Writes what the text's last bytes make.
    pub(crate) fn finish(mut self, out: &mut Vec<u8>) {
        let (_, written) = compact(&mut self.scratch, &mut self.in_str, true);
        out.extend_from_slice(&self.scratch[..written]);
    }
}

/// The text `json` makes ([`Compactor`]), written over `json` itself: for a large sanitized
/// copy, which is then the output rather than a third text beside the reply and the copy.
pub(crate) fn compact_in_place(json: String) -> String {
    let mut b = json.into_bytes();
    let (_, written) = compact(&mut b, &mut false, true);
    b.truncate(written);
    // Whole characters were copied or written: the text is UTF-8 still.
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The text `json` makes, whole, a part at a time (see [`Compactor`]).
#[cfg(test)]
pub(crate) fn compact_whole(json: &str) -> String {
    let mut out = Vec::with_capacity(json.len());
    let mut c = Compactor::default();
    c.part(json.as_bytes(), &mut out);
    c.finish(&mut out);
    String::from_utf8(out).unwrap()
}

/// [`Compactor`]'s work, over `b` itself, starting inside a string where `in_str` says so:
/// the bytes read and the bytes written at the start of `b` (never more: no token grows).
/// All of `b` is read at the text's `end`; else the reading stops before an escape that the
/// bytes after `b` may go on.
fn compact(b: &mut [u8], in_string: &mut bool, end: bool) -> (usize, usize) {
    let (mut r, mut w) = (0, 0);
    let mut in_str = *in_string;
    while r < b.len() {
        let c = b[r];
        if !in_str {
            r += 1;
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => continue,
                b'"' => in_str = true,
                _ => {}
            }
            b[w] = c;
            w += 1;
            continue;
        }
        if c != b'\\' {
            in_str = c != b'"';
            b[w] = c;
            (r, w) = (r + 1, w + 1);
            continue;
        }
        if !end && b.len() - r < LONGEST_ESCAPE {
            break;
        }
        let decoded = match b.get(r + 1) {
            Some(b'u') => unicode_escape(&b[r..]),
            Some(b'/') => Some(('/', 2)),
            _ => None,
        };
        match decoded {
            Some((ch, len)) => {
                r += len;
                w += write_char(&mut b[w..r], ch);
            }
            None => {
                // `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`: written as they are.
                let n = 2.min(b.len() - r);
                b.copy_within(r..r + n, w);
                (r, w) = (r + n, w + n);
            }
        }
    }
    *in_string = in_str;
    (r, w)
}

/// The character a `\u` escape at the start of `b` writes, and the escape's length (12 for
/// a surrogate pair, U+FFFD for half of one); `None` without four hex digits, which valid
/// JSON always has (the escape is then copied as it is).
fn unicode_escape(b: &[u8]) -> Option<(char, usize)> {
    let hi = hex4(b.get(2..6)?)?;
    if !(0xD800..0xE000).contains(&hi) {
        return char::from_u32(hi).map(|c| (c, 6));
    }
    let lo = b
        .get(6..12)
        .filter(|e| e.starts_with(b"\\u"))
        .and_then(|e| hex4(&e[2..]))
        .filter(|lo| hi < 0xDC00 && (0xDC00..0xE000).contains(lo));
    Some(match lo {
        Some(lo) => (
            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?,
            12,
        ),
        None => ('\u{FFFD}', 6),
    })
}

/// Writes `ch` into `to` (the escape it was read from, at least as long) as `serde_json`
/// writes it in a string: how many bytes it took.
fn write_char(to: &mut [u8], ch: char) -> usize {
    if !ch.is_ascii() {
        return ch.encode_utf8(to).len();
    }
    let c = ch as u8;
    match ESCAPE[usize::from(c)] {
        0 => {
            to[0] = c;
            1
        }
        b'u' => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            to[..6].copy_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(c >> 4)],
                HEX[usize::from(c & 0xf)],
            ]);
            6
        }
        e => {
            to[0] = b'\\';
            to[1] = e;
            2
        }
    }
}

fn hex4(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{to_string_counted, RepairOptions};
    use proptest::prelude::*;

    fn written(json: &str) -> String {
        to_string_counted(json, &RepairOptions::default())
            .unwrap()
            .json
    }

    #[test]
    fn as_to_string_writes_it() {
        for json in [
            r#" { "a" : [ 1 , -2.50e+3 , true , null ] ,
                "b\u0041" : "\u0041\/\n\u000a\u0008\b\u001F\"\\ \ud83d\ude00 é\u00e9 \u2028" } "#,
            "[]",
            "\"\"",
            "\t\"\\u0000\"\r\n",
            "0",
        ] {
            assert_eq!(compact_whole(json), written(json));
        }
    }

    /// A large text in parts of 64 KiB, escapes and characters falling across their ends
    /// wherever the padding puts them: what the text makes whole.
    #[test]
    fn a_large_text_in_parts() {
        for pad in 0..13 {
            let item = format!(
                "{{ \"a{}\" : \"\\u0041\\/ \\ud83d\\ude00 é\\u000a\" }}",
                "x".repeat(pad)
            );
            let json = format!("[{}1]", format!("{item},\n ").repeat(20_000));
            assert!(json.len() > 10 << 16);
            let mut out = Vec::new();
            let mut c = Compactor::default();
            for part in json.as_bytes().chunks(1 << 16) {
                c.part(part, &mut out);
            }
            c.finish(&mut out);
            let whole = written(&json);
            assert!(out == whole.as_bytes(), "pad {pad}");
            assert!(compact_in_place(json) == whole, "pad {pad}");
        }
    }

    #[test]
    fn a_lone_surrogate_is_what_the_parser_reads() {
        for json in [r#""\ud800""#, r#""\ud800\u0041""#, r#""\udc00 ""#] {
            assert_eq!(compact_whole(json), written(json));
        }
    }

    proptest! {
        // Any JSON `serde_json` writes, pretty, with escapes spelled as `\u` escapes: the
        // text `to_string` writes.
        #[test]
        fn any_valid_json(
            v in proptest::collection::vec(
                (any::<String>(), any::<String>(), any::<i32>(), any::<bool>()),
                0..5,
            ),
            spell in any::<bool>(),
        ) {
            let object: serde_json::Map<String, serde_json::Value> = v
                .into_iter()
                .enumerate()
                .map(|(i, (k, s, n, t))| {
                    (format!("{i}{k}"), serde_json::json!([s, n, t, {"x": null}]))
                })
                .collect();
            let mut json = serde_json::to_string_pretty(&object).unwrap();
            if spell {
                json = json
                    .chars()
                    .map(|c| if c.is_ascii_alphabetic() || u32::from(c) > 0x7f {
                        c.encode_utf16(&mut [0; 2])
                            .iter()
                            .map(|u| format!("\\u{u:04X}"))
                            .collect()
                    } else {
                        c.to_string()
                    })
                    .collect();
                // Letters outside strings (`true`, `null`) must stay letters.
                json = json
                    .replace("\\u0074\\u0072\\u0075\\u0065", "true")
                    .replace("\\u0066\\u0061\\u006C\\u0073\\u0065", "false")
                    .replace("\\u006E\\u0075\\u006C\\u006C", "null");
            }
            prop_assume!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
            prop_assert_eq!(compact_whole(&json), written(&json));
            prop_assert_eq!(compact_in_place(json.clone()), written(&json));
        }

        #[test]
        fn any_text_is_written_without_a_panic(text in "[ \"\\\\u/dDcC80a-fA-F\n{}\\[\\],:é]{0,40}") {
            let out = compact_whole(&text);
            prop_assert!(out.len() <= text.len());
            prop_assert_eq!(compact_in_place(text), out);
        }

        /// Parts cut anywhere, even inside an escape or a character, make what the text makes
        /// whole.
        #[test]
        fn parts_make_what_the_whole_makes(
            text in "[ \"\\\\u/dDcC80a-fA-F\n{}\\[\\],:é]{0,60}",
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(text.len() + 1)).collect();
            cuts.sort_unstable();
            let mut out = Vec::new();
            let mut c = Compactor::default();
            let mut from = 0;
            for cut in cuts {
                c.part(&text.as_bytes()[from..cut], &mut out);
                from = cut;
            }
            c.part(&text.as_bytes()[from..], &mut out);
            c.finish(&mut out);
            prop_assert_eq!(String::from_utf8(out).unwrap(), compact_in_place(text));
        }
    }
}
