//! Tests: framebuffer.
