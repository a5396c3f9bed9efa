//! GLSL front end (glslang).
