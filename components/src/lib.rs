//! # tessera-components
//!
//! Pure data: the GL constants ([`gl`]), the components GL objects are made of ([`object`]),
//! name tables ([`names`]), the per-context state in GL's terms ([`state`]) and the dirty bits
//! that say which of it the backend has not seen yet ([`dirty`]).
//!
//! Nothing here has behaviour beyond constructors and lookups: validation lives in the engine,
//! record emission in `systems`. Components hold GL's view of an object (what `glGet*` reads
//! back, with the specification's initial values) and the wire handle the backend knows it by.
//!
//! ## Fixed-capacity lists
//! State bounded by a GL limit lives in arrays indexed by slot (the indexed uniform buffer
//! bindings, a vertex array's attributes, a framebuffer's draw buffers); where the engine and
//! systems build a variable-length list under such a limit they use `arrayvec`.
//!
//! The lists of a [`object::LinkedProgram`] (sampler units and targets, uniform blocks,
//! attributes) stay `Vec`s: linking enforces no bound on them, so an `ArrayVec` at the GL
//! limit could overflow. Measured with the GLSL front end's `link`: a fragment shader using
//! `sampler2D s[64]` links with 64 sampler slots (`MAX_TEXTURE_UNITS` is 48), one with 40
//! uniform blocks links with 40 (`MAX_UNIFORM_BUFFER_BINDINGS` is 36), and a vertex shader
//! with 16 `vec4` inputs that reads `gl_VertexID` and `gl_InstanceID` has 18 active
//! attributes (`MAX_VERTEX_ATTRIBS` is 16). The systems bind sampler slots and blocks up to
//! each limit and ignore the rest.

pub mod dirty;
pub mod gl;
pub mod names;
pub mod object;
pub mod state;

pub use dirty::Dirty;
