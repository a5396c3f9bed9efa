//! Shader objects: source, compilation, info logs.
