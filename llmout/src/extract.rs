//! Extraction: text -> ranked candidate spans.
