//! Tests: render_state.
