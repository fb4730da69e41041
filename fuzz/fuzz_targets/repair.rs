//! The lenient parser on any bytes: never panics, never overflows the stack, and what it
//! returns is consistent (offsets inside the input; valid JSON unchanged, and no repairs but
//! a record of each duplicate key, which serde_json drops silently).
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmout::repair::{parse, RepairKind, RepairOptions};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let options = RepairOptions::default();
    match parse(&text, &options) {
        Ok(parsed) => {
            assert!(parsed.repairs.iter().all(|r| r.offset <= text.len()));
            if let Ok(strict) = serde_json::from_str::<serde_json::Value>(&text) {
                assert_eq!(parsed.value, strict);
                assert!(
                    parsed.repairs.iter().all(|r| r.kind == RepairKind::DuplicateKey),
                    "{:?}",
                    parsed.repairs
                );
            }
        }
        Err(e) => assert!(e.offset <= text.len()),
    }
});
