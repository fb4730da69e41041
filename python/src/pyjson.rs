//! Compact JSON text (what `llmout::repair_json` writes) rewritten as Python's
//! `json.dumps(json.loads(text), ensure_ascii=...)` writes it, in one pass and without building
//! a tree: `", "` and `": "` between items, integers with their digits (`-0` as `0`), floats
//! as Python's `repr` (`1.5`, `1e-05`, `1e+16`, `Infinity`), and with `ensure_ascii` every
//! character past `~` as `\uXXXX` (UTF-16, a surrogate pair past U+FFFF).

use std::fmt::Write;

/// See the module docs. `compact` must be compact JSON, strings escaped as `serde_json`
/// escapes them (what `llmout::repair_json` returns). What needs no change (brackets,
/// literals, integers, strings without non-ASCII) is copied in runs, not byte by byte.
pub fn reformat(compact: &str, ensure_ascii: bool) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() + compact.len() / 8);
    // `compact[run..i]` is copied as it is when something else must be written.
    let (mut run, mut i) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                let (end, ascii) = string_end(bytes, i);
                if ensure_ascii && !ascii {
                    out.push_str(&compact[run..i]);
                    escape_non_ascii(&compact[i..end], &mut out);
                    run = end;
                }
                i = end;
            }
            b',' | b':' => {
                out.push_str(&compact[run..i]);
                out.push_str(if b == b',' { ", " } else { ": " });
                i += 1;
                run = i;
            }
            b'-' | b'0'..=b'9' => {
                let end = bytes[i..]
                    .iter()
                    .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .map_or(bytes.len(), |p| i + p);
                let number = &compact[i..end];
                let integer = !number.contains(['.', 'e', 'E']);
                if !integer || number == "-0" {
                    out.push_str(&compact[run..i]);
                    python_number(number, &mut out);
                    run = end;
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    out.push_str(&compact[run..]);
    out
}

/// The index just past the string that opens at `start`, and whether it is all ASCII below
/// DEL (what `ensure_ascii` leaves as it is).
fn string_end(bytes: &[u8], start: usize) -> (usize, bool) {
    let mut i = start + 1;
    while let Some(p) = memchr::memchr2(b'"', b'\\', &bytes[i..]) {
        let at = i + p;
        if bytes[at] == b'"' {
            let ascii = bytes[start..at].iter().all(|&c| c < 0x7f);
            return (at + 1, ascii);
        }
        i = (at + 2).min(bytes.len());
    }
    (bytes.len(), bytes[start..].iter().all(|&c| c < 0x7f))
}

/// A string token with every character past `~` written as `\uXXXX`.
fn escape_non_ascii(s: &str, out: &mut String) {
    for c in s.chars() {
        if (c as u32) < 0x7f {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
}

/// A JSON number that is not a plain integer as Python writes it: `-0` as `0`, a float as
/// its `repr`.
fn python_number(number: &str, out: &mut String) {
    match number.parse::<f64>() {
        Ok(_) if number == "-0" => out.push('0'),
        Ok(f) => python_float(f, out),
        Err(_) => out.push_str(number),
    }
}

/// `f` as Python's `float.__repr__` (and so `json.dumps`) writes it: the shortest digits that
/// read back as `f` (Rust's `{:e}` finds the same), in fixed notation when the decimal
/// exponent is from -4 to 15, else as `1.5e+16`.
fn python_float(f: f64, out: &mut String) {
    if f.is_nan() {
        out.push_str("NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` writes an integer exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits = mantissa.replace('.', "");
    out.push_str(sign);
    if !(-4..16).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp < 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
        out.push_str(&digits);
    } else {
        let whole = exp as usize + 1;
        if digits.len() <= whole {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', whole - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..whole]);
            out.push('.');
            out.push_str(&digits[whole..]);
        }
    }
}
