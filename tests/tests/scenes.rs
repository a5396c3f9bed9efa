//! Differential scenes: each draws with the GL API on the native driver and on Tessera (GLES
//! backend, `inproc` and `thread`), asserts exact pixels at chosen coordinates, and compares
//! the whole image with the native driver's.

mod framebuffers;
mod geometry;
mod layered;
mod readback;
mod state;
mod targets;
mod textures;
mod uniforms;
