//! The lenient parser on any bytes: never panics, never overflows the stack, and what it
//! returns is consistent (offsets inside the input; valid JSON unchanged, and no repairs but
//! a record of each duplicate key, which serde_json drops silently). The text output
//! (`to_string`) means exactly the value, with the same repairs, or fails the same way; so
//! does the counted text (`to_string_counted`: the same text, as many fixes), and so does the
//! borrowed output (`parse_borrowed`, also deserialized back into a `Value`); and
//! through the pipeline, `repair_json` agrees with `repair_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmout::repair::{
    parse, parse_borrowed, to_string, to_string_counted, RepairKind, RepairOptions,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let options = RepairOptions::default();
    let written = to_string(&text, &options);
    let counted = to_string_counted(&text, &options);
    let borrowed = parse_borrowed(&text, &options);
    match parse(&text, &options) {
        Ok(parsed) => {
            assert!(parsed.repairs.iter().all(|r| r.offset <= text.len()));
            let written = written.expect("the text output fails where the value does not");
            // The parser allows nesting serde_json's default limit refuses.
            let mut de = serde_json::Deserializer::from_str(&written.json);
            de.disable_recursion_limit();
            let reread: serde_json::Value =
                serde::Deserialize::deserialize(&mut de).expect("the text output is JSON");
            assert_eq!(reread, parsed.value, "{:?}", written.json);
            // The same fixes; the text keeps every integer's digits, so it rounds none.
            assert!(written.repairs.iter().eq(parsed.repairs.iter()));
            assert_eq!(written.repairs.rounded().len(), 0);
            let counted = counted.expect("the counted text fails where the value does not");
            assert_eq!(counted.json, written.json);
            assert_eq!(counted.fixes, parsed.repairs.len());
            let borrowed = borrowed.expect("the borrowed output fails where the value does not");
            assert_eq!(borrowed.repairs, parsed.repairs);
            let via_serde: serde_json::Value =
                serde::Deserialize::deserialize(&borrowed.value).expect("a Node deserializes");
            assert_eq!(via_serde, parsed.value);
            assert_eq!(borrowed.value.into_value(), parsed.value);
            if let Ok(strict) = serde_json::from_str::<serde_json::Value>(&text) {
                assert_eq!(parsed.value, strict);
                assert!(
                    parsed
                        .repairs
                        .iter()
                        .all(|r| r.kind == RepairKind::DuplicateKey),
                    "{:?}",
                    parsed.repairs
                );
            }
        }
        Err(e) => {
            assert!(e.offset <= text.len());
            assert_eq!(borrowed.map(|_| ()), Err(e.clone()));
            assert_eq!(counted.map(|_| ()), Err(e.clone()));
            assert_eq!(written, Err(e));
        }
    }
    let options = llmout::Options::default();
    match (
        llmout::repair_text(&text, &options),
        llmout::repair_json(&text, &options),
    ) {
        (Ok(value), Ok(json)) => {
            let mut de = serde_json::Deserializer::from_str(&json.json);
            de.disable_recursion_limit();
            let reread: serde_json::Value = serde::Deserialize::deserialize(&mut de).unwrap();
            assert_eq!(reread, value.value);
            // (An integer the value holds rounded is no change: the text keeps its digits.)
            let rounded = llmout::WarningKind::NumberRounded;
            let said = value.warnings.iter().filter(|w| w.kind != rounded).count();
            assert_eq!(json.changes, said);
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("repair_text {a:?} but repair_json {b:?}"),
    }
});
