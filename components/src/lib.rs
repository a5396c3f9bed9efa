//! # tessera-components
//!
//! Pure data: the GL constants ([`gl`]), the components GL objects are made of ([`object`]),
//! name tables ([`names`]), the per-context state in GL's terms ([`state`]) and the dirty bits
//! that say which of it the backend has not seen yet ([`dirty`]).
//!
//! Nothing here has behaviour beyond constructors and lookups: validation lives in the engine,
//! record emission in `systems`. Components hold GL's view of an object (what `glGet*` reads
//! back, with the specification's initial values) and the wire handle the backend knows it by.

pub mod dirty;
pub mod gl;
pub mod names;
pub mod object;
pub mod state;

pub use dirty::Dirty;
