//! Compile-time diagnostics of `#[derive(LlmOutput)]`, pinned with trybuild: one `.rs` +
//! `.stderr` pair per diagnostic in `tests/ui/`, and well-formed inputs in `tests/ui-pass/`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
