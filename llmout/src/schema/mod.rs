//! Schemas: the compiled view recovery runs against ([`Schema`]), the check every schema
//! passes first ([`validate`]), prompt rendering ([`prompt`]) and provider dialects
//! ([`dialect`]). The compiled schema's nodes are in [`advanced::schema`](crate::advanced::schema).

pub(crate) mod compiled;
pub mod dialect;
mod format;
pub(crate) mod pattern;
pub mod prompt;
mod valid;

pub use compiled::Schema;
pub(crate) use compiled::*;
pub use format::Format;
pub(crate) use pattern::Pattern;
pub use valid::validate;
