//! Schemas: the compiled view recovery runs against, prompt rendering, and provider dialects.

mod compiled;
pub mod dialect;
mod format;
mod pattern;
pub mod prompt;
mod valid;

pub use compiled::*;
pub use format::Format;
pub use pattern::Pattern;
pub use valid::validate;
