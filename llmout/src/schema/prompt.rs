//! Compact prompt rendering of a schema.
