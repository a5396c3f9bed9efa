//! Tests: transport.
