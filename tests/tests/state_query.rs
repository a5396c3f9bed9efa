//! Tests: state_query.
