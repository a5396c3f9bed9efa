//! Tests: program.
