//! Tests: texture.
