//! Tests: handles.
