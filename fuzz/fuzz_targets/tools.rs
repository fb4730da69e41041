//! `tools::parse` on any bytes: never panics; content, when there is some, is trimmed and not
//! empty; and the same text always gives the same response. `tools::Stream` on the same text
//! in chunks (their size from the first byte): never panics, and `finish` is `parse`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let size = usize::from(data.first().copied().unwrap_or(1) % 16) + 1;
    let text = String::from_utf8_lossy(data.get(1..).unwrap_or_default());
    let r = llmout::tools::parse(&text);
    if let Some(c) = &r.content {
        assert!(!c.is_empty() && c.trim() == c, "{c:?}");
    }
    assert_eq!(r, llmout::tools::parse(&text));

    let mut s = llmout::tools::Stream::new();
    let chars: Vec<char> = text.chars().collect();
    for chunk in chars.chunks(size) {
        s.push(&chunk.iter().collect::<String>());
        if let Some(c) = s.current() {
            let _ = (c.name, c.arguments(), c.state(""));
        }
    }
    assert_eq!(s.finish(), r);
});
