//! Schema-aligned recovery.
