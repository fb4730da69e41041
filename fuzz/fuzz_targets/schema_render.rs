//! `schema::prompt::render` and `schema::dialect::to_dialect` on generated schemas: never
//! panic, never blow up (the gemini size check comes before inlining). A schema `validate`
//! refuses is refused by every one of them with the same error; what a dialect writes is a
//! schema `validate` accepts, and `to_dialect_json` writes `to_dialect`'s value as text (or
//! fails with its error).
#![no_main]

mod common;

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use llmout::schema::dialect::{to_dialect, to_dialect_json, Dialect};
use llmout::schema::{prompt, validate};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(schema) = common::schema(&mut u) else {
        return;
    };
    let valid = validate(&schema);
    let rendered = prompt::render(&schema);
    match &valid {
        Err(e) => assert_eq!(rendered.as_ref().unwrap_err(), e),
        Ok(()) => assert!(rendered.is_ok()),
    }
    for d in Dialect::ALL {
        let out = to_dialect(&schema, d);
        assert_eq!(
            to_dialect_json(&schema, d),
            out.as_ref().map(ToString::to_string).map_err(Clone::clone),
            "{d}: {schema}"
        );
        match (&valid, out) {
            (Err(e), out) => assert_eq!(&out.unwrap_err(), e, "{d}"),
            (Ok(()), Ok(out)) => assert!(validate(&out).is_ok(), "{d}: {schema} -> {out}"),
            (Ok(()), Err(_)) => {}
        }
    }
});
