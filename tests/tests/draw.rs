//! Tests: draw.
