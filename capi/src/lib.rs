//! # tessera-capi
//!
//! Tessera as a drop-in `libEGL.so.1` / `libOpenGL.so.0` / `libGL.so.1`: the EGL 1.5 entry
//! points, GLX 1.4 (`glx`), and every OpenGL 3.3 core entry point, with their exact C signatures, so an
//! unmodified program linked against the system libraries runs on Tessera when this library
//! is found first (`LD_LIBRARY_PATH`; `scripts/dropin` installs these names and the
//! unversioned `libEGL.so` / `libOpenGL.so` / `libGL.so` that programs loading GL at run
//! time open).
//!
//! Linked as a Rust library it also serves hosts without EGL: [`host::WindowSurface`] makes a
//! host's `raw-window-handle` window the default framebuffer of an engine context, presented
//! through the same window systems ([`winsys`]).
//!
//! ## How a call flows
//! - **EGL** entry points (`egl/`) read their pointer arguments, take the EGL registry's lock
//!   and call [`tessera_engine::egl`], which decides every error; the error becomes the
//!   calling thread's `eglGetError` value ([`error`]: the one place EGL errors are mapped).
//! - **GL** entry points (`gl/`) reach the context current to the calling thread through a
//!   thread-local ([`current`]): no lock, no lookup. With no current context a call does
//!   nothing and returns 0 or null, as drivers do. Pointers become the engine's slices and
//!   offsets: how long a slice is comes from GL state the engine reports (pixel store,
//!   bound pack/unpack buffers, texture level sizes, a query's value count).
//! - **No panic crosses the ABI**: each entry point runs under `catch_unwind`; a panic is
//!   logged; in a GL call it marks the current context lost (`GL_UNKNOWN_CONTEXT_RESET`;
//!   its later calls return at once), in an EGL call it becomes `EGL_BAD_ALLOC`.
//!
//! ## The backend
//! `TESSERA_BACKEND` (default `auto`: a hardware Vulkan device, else a hardware GLES driver,
//! else the faster software driver, which is the native GLES driver on llvmpipe; see
//! `tessera_engine::auto`) and `TESSERA_TRANSPORT` (default `inproc`) choose where records
//! go. The GLES backend opens the driver's own libglvnd vendor library (or, without
//! libglvnd, the system EGL by full path), so a process that loaded this library, as the
//! drop-in or as libglvnd's vendor (`glvnd`), never gets it back as "the native EGL".
//!
//! ## Safety
//! Pointer arguments are the caller's responsibility, as the GL and EGL specifications make
//! them: a pointer a call reads or writes must be valid for the number of elements the
//! specification says the call accesses (which this crate computes from the arguments and
//! the GL state exactly as a driver does). Entry points with pointer arguments are
//! `unsafe extern "C" fn`s that say so once; every `unsafe` block names the precondition it
//! relies on.

#![expect(
    unsafe_code,
    reason = "a C ABI: exported symbols and the raw pointers of the GL and EGL signatures"
)]

pub mod current;
pub mod egl;
pub mod error;
pub mod events;
pub mod gl;
pub mod glvnd;
pub mod glx;
pub mod host;
mod logging;
pub(crate) mod ptr;
pub mod winsys;
