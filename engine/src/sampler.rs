//! Sampler objects.
