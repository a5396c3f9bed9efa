//! Tests: sampler.
