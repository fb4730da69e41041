//! `tools::parse` on any bytes: never panics; content, when there is some, is trimmed and not
//! empty; and the same text always gives the same response. `tools::Stream` on the same text
//! in chunks (their size from the first byte): never panics, and `finish` is `parse`.
//! `parse_with_tools` against two tools: never panics, keeps every call, and each error is
//! on a call; `ToolSet::check_unchanged` says what `check_call` does. `parse_compact` (calls
//! kept as their JSON, or held as values) gives what `parse` gives, its parts too. Run with
//! `-dict=tools.dict` to give the fuzzer every family's markers.
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

    let compact = llmout::tools::parse_compact(&text);
    assert_eq!(compact.content, r.content);
    assert_eq!(compact.len(), r.tool_calls.len());
    for (i, call) in r.tool_calls.iter().enumerate() {
        assert_eq!(compact.call(i).as_ref(), Some(call));
        let mut written = Vec::new();
        compact.write_call(i, &mut written).unwrap();
        assert_eq!(written, serde_json::to_vec(call).unwrap());
        let arguments = compact.parts(i).map(|p| p.arguments.to_owned());
        assert_eq!(arguments, serde_json::to_string(&call.arguments).ok());
        if let Some(held) = compact.held_call(i) {
            assert_eq!(held, call);
        }
    }
    assert_eq!(compact.needs_more_work, r.needs_more_work);
    assert_eq!(compact.warnings, r.warnings);

    let mut s = llmout::tools::Stream::new();
    let chars: Vec<char> = text.chars().collect();
    for chunk in chars.chunks(size) {
        s.push(&chunk.iter().collect::<String>());
        if let Some(c) = s.current() {
            let _ = (c.name, c.arguments(), c.state(""));
        }
    }
    assert_eq!(s.finish(), r);

    let tools: Vec<llmout::tools::ToolDef> = serde_json::from_value(serde_json::json!([
        {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "integer"}, "p": {"type": "string"}}, "required": ["a"]}},
        {"name": "g", "parameters": {"type": "object", "properties": {"q": {"type": "array", "items": {"type": "string"}}}, "additionalProperties": false}}
    ]))
    .unwrap();
    let typed = llmout::tools::parse_with_tools(&text, &tools);
    assert_eq!(typed.tool_calls.len(), r.tool_calls.len());
    for e in &typed.errors {
        assert!(e.path().starts_with("/tool_calls/"), "{e}");
    }
    let set = llmout::tools::ToolSet::new(&tools[..]);
    for (i, call) in r.tool_calls.iter().enumerate() {
        let (mut changed, mut warnings) = (call.clone(), Vec::new());
        let error = set.check_call(i, &mut changed, &mut warnings);
        let mut unchanged_warnings = Vec::new();
        let (recovered, unchanged_error) = set.check_unchanged(i, call, &mut unchanged_warnings);
        assert_eq!(recovered.as_ref().unwrap_or(&call.arguments), &changed.arguments);
        assert_eq!(unchanged_warnings, warnings);
        assert_eq!(unchanged_error.map(|e| e.to_string()), error.map(|e| e.to_string()));
    }
});
