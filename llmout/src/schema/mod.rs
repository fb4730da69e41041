//! Schemas: the compiled view recovery runs against, prompt rendering, and provider dialects.

mod compiled;
pub mod dialect;
pub mod prompt;

pub use compiled::*;
