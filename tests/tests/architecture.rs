//! Tests: architecture.
