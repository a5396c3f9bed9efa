//! Tests: vertex_array.
