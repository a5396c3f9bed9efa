//! Tests: query.
