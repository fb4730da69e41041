//! The workspace's root package: it owns `examples/`, `tests/` and `benches/`, and compiles
//! the README's examples as doctests so the README cannot drift from the code.
#![doc = include_str!("../README.md")]
