//! Compact JSON text (what `llmout::repair_json` writes) rewritten as Python's
//! `json.dumps(json.loads(text), ensure_ascii=...)` writes it, in one pass and without building
//! a tree: `", "` and `": "` between items, integers with their digits (`-0` as `0`), floats
//! as Python's `repr` (`1.5`, `1e-05`, `1e+16`, `Infinity`), and with `ensure_ascii` every
//! character past `~` as `\uXXXX` (UTF-16, a surrogate pair past U+FFFF).

use std::fmt::Write;

/// See the module docs. `compact` must be compact JSON, strings escaped as `serde_json`
/// escapes them (what `llmout::repair_json` returns).
pub fn reformat(compact: &str, ensure_ascii: bool) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() + compact.len() / 8);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                let end = string_end(bytes, i);
                let s = &compact[i..end];
                if ensure_ascii {
                    escape_non_ascii(s, &mut out);
                } else {
                    out.push_str(s);
                }
                i = end;
            }
            b',' => {
                out.push_str(", ");
                i += 1;
            }
            b':' => {
                out.push_str(": ");
                i += 1;
            }
            b'{' | b'}' | b'[' | b']' => {
                out.push(char::from(b));
                i += 1;
            }
            _ => {
                let end = bytes[i..]
                    .iter()
                    .position(|c| b",:{}[]\"".contains(c))
                    .map_or(bytes.len(), |p| i + p);
                scalar(&compact[i..end], &mut out);
                i = end;
            }
        }
    }
    out
}

/// The index just past the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(p) = bytes[i..].iter().position(|&c| c == b'"' || c == b'\\') {
        let at = i + p;
        if bytes[at] == b'"' {
            return at + 1;
        }
        i = at + 2;
        if i >= bytes.len() {
            break;
        }
    }
    bytes.len()
}

/// A string token with every character past `~` written as `\uXXXX`.
fn escape_non_ascii(s: &str, out: &mut String) {
    if s.bytes().all(|b| b < 0x7f) {
        out.push_str(s);
        return;
    }
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

/// A number or literal as Python writes it.
fn scalar(token: &str, out: &mut String) {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // An integer: Python keeps every digit; `int("-0")` is `0`.
        out.push_str(if token == "-0" { "0" } else { token });
        return;
    }
    match token.parse::<f64>() {
        Ok(f) if token.bytes().any(|b| b.is_ascii_digit()) => python_float(f, out),
        // `true`, `false`, `null`.
        _ => out.push_str(token),
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
