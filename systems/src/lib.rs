//! # tessera-systems
//!
//! Verb-time validation: the systems that turn dirty context state into pipe records.
//!
//! - [`validate::run`] is the driver a verb calls: it runs, in dependency order, the system of
//!   each dirty group the verb needs, each emitting only what differs from the backend's
//!   state as recorded in the context's [`EmittedState`].
//! - [`cso`] holds the content-addressed CSO caches; [`alloc`] mints wire handles;
//!   [`lifecycle`] counts references and emits the one `Destroy*` of an object.
//! - [`conv`] maps GL enums to wire values; a `None` there is how the engine recognises an
//!   enum GL does not accept.
//!
//! ## Invariants
//! - Systems run only at verbs and only for dirty groups; setters never call into this crate.
//! - A system never decides a GL error (the engine did, before the verb reached here) and
//!   never reads an object that is not bound (the binding tables say what is).
//! - No allocation on the steady-state path: a clean verb touches nothing here.

pub mod alloc;
pub mod conv;
pub mod cso;
pub mod emitted;
pub mod emitter;
pub mod framebuffer;
pub mod image;
pub mod lifecycle;
pub mod program;
pub mod render_state;
pub mod texture;
pub mod validate;
pub mod vertex;

pub use emitted::EmittedState;
pub use emitter::Emitter;
