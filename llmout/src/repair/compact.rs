//! Valid JSON rewritten over itself as [`to_string`](super::to_string) writes it: for a large
//! reply that is valid once sanitized, the sanitized copy becomes the output, where writing
//! the output beside it would hold a third text as large as the reply.

use super::sink::ESCAPE;

/// `json` as [`to_string`](super::to_string) writes it, when `json` is valid JSON that the
/// lenient parser reads with no fix (no key given twice, no number out of range): no white
/// space between tokens, and each string's escapes written as `serde_json` writes them
/// (`\u0041` and `\/` decoded, `\u000a` written `\n`). No token grows, so each is written
/// over itself. A `\u` escape that is half a character (a lone surrogate) is U+FFFD, as the
/// parser reads it, with a fix.
pub(crate) fn compact_in_place(json: String) -> String {
    let mut b = json.into_bytes();
    let (mut r, mut w) = (0, 0);
    let mut in_str = false;
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
    b.truncate(w);
    // Whole characters were copied or written: the text is UTF-8 still.
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
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
            assert_eq!(compact_in_place(json.to_owned()), written(json));
        }
    }

    #[test]
    fn a_lone_surrogate_is_what_the_parser_reads() {
        for json in [r#""\ud800""#, r#""\ud800\u0041""#, r#""\udc00 ""#] {
            assert_eq!(compact_in_place(json.to_owned()), written(json));
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
            prop_assert_eq!(compact_in_place(json.clone()), written(&json));
        }

        #[test]
        fn any_text_is_rewritten_without_a_panic(text in "[ \"\\\\u/dDcC80a-fA-F\n{}\\[\\],:é]{0,40}") {
            let out = compact_in_place(text.clone());
            prop_assert!(out.len() <= text.len());
        }
    }
}
