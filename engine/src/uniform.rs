//! Uniform values and uniform block bindings of programs.
