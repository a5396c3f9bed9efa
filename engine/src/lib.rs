//! # tessera-engine
//!
//! The GL state engine: [`Context`] (one per GL context) and [`ShareGroup`] (the objects
//! contexts share), with a Rust API that mirrors the OpenGL 3.3 core entry points one to one
//! (`glBindBuffer` is [`Context::bind_buffer`]). Raw `GLenum`/`GLint` values are accepted
//! wherever GL accepts arbitrary values, so an invalid value raises the error the
//! specification names; `get_error` returns it.
//!
//! ## How a call flows
//! - **Setters** of context state compare, store and set one dirty bit (`render_state`).
//! - **Object calls** take the share group's lock, update the object's components in the
//!   group's `World`, and emit object records (creates, uploads, destroys) at once.
//! - **Verbs** (`draw`, `clear`, `dispatch_compute`, `flush`, read-backs) run the validation
//!   systems of `tessera-systems` over the dirty groups, append the verb record, and hand the
//!   batch to the transport at flush points ([`compute`] has the path of a dispatch).
//!
//! ## Backends
//! [`Config::backend`] names the backend (`TESSERA_BACKEND` as the fallback): `null`,
//! `gles`, `vulkan`, or `auto`, which takes a hardware Vulkan device, else a hardware GLES
//! driver, else the faster software driver — on a machine with only software drivers the
//! GLES backend on llvmpipe, which beat Vulkan on lavapipe in seven of the benchmark's eight
//! scenes — and logs (info) which it took and why ([`auto`]). `tessera-server` resolves a
//! client's `auto` by the same rule.
//!
//! ## Debug output
//! [`debug`] carries out `KHR_debug`: each error an entry point raises passes through one
//! function (`context::Local::set_error`), which also makes it a debug message; backend
//! events become messages when they are taken ([`Context::take_events`]). Filters, groups
//! and the log are per context, labels are a component of the labelled object.
//!
//! ## Invariants
//! - Every GL error is decided here, at the entry point, before any state changes; backends
//!   never decide one and `get_error` needs no round trip.
//! - Nothing here blocks in a steady-state frame: only read-backs, query results, fence waits
//!   and `finish` wait for the backend.

pub mod auto;
pub mod buffer;
pub mod clear_buffer;
pub mod client;
pub mod compute;
pub mod conditional_render;
pub mod config;
pub mod context;
pub mod debug;
mod direct_state;
pub mod draw;
pub mod draw_indirect;
pub mod egl;
pub mod es2_compat;
pub mod export;
pub mod export_fence;
pub mod framebuffer;
pub mod get;
pub mod gl_spirv;
pub mod image;
pub mod internalformat;
pub mod invalidate;
pub mod limits;
pub mod memory_object;
pub mod multi_bind;
pub mod no_error;
pub mod pixel;
pub mod present;
pub mod profiling;
pub mod program;
pub mod query;
pub mod render_state;
pub mod renderbuffer;
pub mod robustness;
pub mod sampler;
pub mod semaphore;
pub mod shader;
pub mod share;
pub mod sync;
pub mod tessellation;
pub mod texture;
pub mod transform_feedback;
pub mod uniform;
pub mod uniform_fp64;
pub mod version;
pub mod vertex_array;

pub use config::{BackendKind, Config, SurfaceConfig};
pub use context::{Context, CreateContextError, Surface};
pub use share::ShareGroup;
pub use tessera_components::gl;
pub use tessera_wire as wire;
