//! Text fed in pieces, as a stream receives it (shared by the tests and `benches/tools.rs`).

/// `text` in pieces of about `n` bytes, cut at character boundaries.
pub fn chunks(text: &str, n: usize) -> impl Iterator<Item = &str> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let mut end = (at + n).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let piece = &text[at..end];
        at = end;
        Some(piece)
    })
}
