//! `tools::parse` on any bytes: never panics; content, when there is some, is trimmed and not
//! empty; and the same text always gives the same response.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let r = llmout::tools::parse(&text);
    if let Some(c) = &r.content {
        assert!(!c.is_empty() && c.trim() == c, "{c:?}");
    }
    assert_eq!(r, llmout::tools::parse(&text));
});
