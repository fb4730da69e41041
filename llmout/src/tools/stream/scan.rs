//! Looking for markers in text that is still arriving: bounded windows, the earliest of
//! several markers, and how much of the end may still be the start of one.

use crate::tools::family::scan_for;
use crate::tools::MAX_HEAD;

/// The text from `from` on, but at most one byte more than [`MAX_HEAD`]: where a call's name
/// or a parameter's name is looked for, so that a head that never ends costs a bounded scan
/// per chunk, not the rest of the text.
pub(crate) fn window(v: &str, from: usize) -> &str {
    let from = from.min(v.len());
    let mut end = (from + MAX_HEAD + 1).min(v.len());
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    v.get(from..end).unwrap_or_default()
}

/// The earliest of `markers` in `v` from `from`: its offset and length.
pub(crate) fn find_any(v: &str, from: usize, markers: &[&str]) -> Option<(usize, usize)> {
    scan_for(v, from, markers.iter().copied()).map(|(at, i)| (at, markers[i].len()))
}

/// Where text that may still be the start of `marker` begins at the end of `v` (`v.len()` if
/// none may be).
pub(crate) fn hold_back(v: &str, marker: &str) -> usize {
    let b = v.as_bytes();
    let m = marker.as_bytes();
    for keep in (1..m.len().min(b.len() + 1)).rev() {
        if b[b.len() - keep..] == m[..keep] {
            let mut at = b.len() - keep;
            while !v.is_char_boundary(at) {
                at -= 1;
            }
            return at;
        }
    }
    v.len()
}

/// The earliest place at the end of `v` where one of `markers` may be starting.
pub(crate) fn hold_back_any(v: &str, markers: &[&str]) -> usize {
    markers
        .iter()
        .map(|m| hold_back(v, m))
        .min()
        .unwrap_or(v.len())
}
