//! `tools::parse_with_tools` with generated tool definitions on any reply: never panics,
//! never hangs, answers the same twice; the calls are `tools::parse`'s (same names, in the
//! same order), and a known tool's arguments either fit its schema or are reported as an
//! error.
#![no_main]

mod common;

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use llmout::tools::ToolDef;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let mut defs = Vec::new();
    for name in ["read", "write_file", "get_time"] {
        let Ok(parameters) = common::schema(&mut u) else {
            return;
        };
        if llmout::schema::validate(&parameters).is_ok()
            && llmout::schema::Schema::compile(&parameters).is_ok()
        {
            defs.push(ToolDef {
                name: name.to_owned(),
                description: None,
                parameters,
            });
        }
    }
    let reply = String::from_utf8_lossy(u.take_rest());
    let r = llmout::tools::parse_with_tools(&reply, &defs);
    assert_eq!(r, llmout::tools::parse_with_tools(&reply, &defs));
    let plain = llmout::tools::parse(&reply);
    let names = |calls: &[llmout::tools::ToolCall]| {
        calls.iter().map(|c| c.name.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(&r.tool_calls), names(&plain.tool_calls));
    let options = llmout::Options::default();
    for (i, call) in r.tool_calls.iter().enumerate() {
        let Some(def) = defs.iter().find(|d| d.name == call.name) else {
            continue;
        };
        let fits = llmout::recover_with_schema(
            serde_json::Value::Object(call.arguments.clone()),
            &def.parameters,
            &options,
        );
        let reported = r
            .errors
            .iter()
            .any(|e| e.path().starts_with(&format!("/tool_calls/{i}")));
        assert!(
            fits.value.is_some() || reported,
            "{call:?} {:?}",
            fits.error
        );
    }
});
