//! Sanitization of strings inside JSON text.
