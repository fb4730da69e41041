//! Schemas: the compiled view recovery runs against, prompt rendering, and provider dialects.

mod compiled;
pub mod dialect;
pub mod prompt;
mod valid;

pub use compiled::*;
pub use valid::validate;
