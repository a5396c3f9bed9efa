//! Tests: records.
