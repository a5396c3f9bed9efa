//! # tessera-glow
//!
//! Rust programs written against [`glow`] (egui's `egui_glow` painter, three-d, many tools) on
//! a Tessera context in process: the host creates an engine [`Context`] with the
//! [`Config`](tessera_engine::Config) it wants (backend, transport, surface), makes it
//! [`Current`] on its thread, and gets a [`glow::Context`] whose calls reach that context.
//! No EGL display, no `dlopen`, no drop-in library on the library path.
//!
//! ## Why a crate of its own, and why glow's own `Context`
//! `glow::HasContext` is sealed (only glow's own types implement it), and `egui_glow` and
//! most glow programs take the concrete [`glow::Context`], a table of GL function pointers
//! filled by [`glow::Context::from_loader_function`]. So the bridge is that table: each
//! pointer is the C ABI entry point of `tessera-capi` for that name, linked into the program
//! as a Rust library, which turns pointers into the engine's slices and calls the engine (the
//! one mapping from GL's C signatures onto the engine; its table has every GL function of the
//! Khronos registry: the ones Tessera lacks record `GL_INVALID_OPERATION` and return 0,
//! never panic; the OpenGL ES extension names glow also loads do the same). The context is found through `tessera_capi::current::make_hosted`, a
//! thread-local beside the EGL one. A separate crate keeps glow's version (the one
//! `egui_glow` pins, 0.17; the GLES backend uses glow 0.18 for itself) and the C ABI out of
//! hosts that use the engine's Rust API alone.
//!
//! ## Rules
//! - One [`Current`] per thread; the [`glow::Context`] it gives works on that thread only
//!   (a call from another thread finds no context there and does nothing, returning 0).
//! - Drop the [`glow::Context`] (and whatever holds it, such as `egui_glow::Painter`, after
//!   its `destroy`) before the [`Current`]: glow deletes its debug callback through GL.
//! - An EGL context made current on the same thread through `tessera-capi`'s `eglMakeCurrent`
//!   takes precedence while it is current.
//!
//! ## Example
//! ```
//! use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
//! use tessera_glow::glow::{self, HasContext as _};
//!
//! let config = Config {
//!     backend: BackendKind::Gles,
//!     surface: Some(SurfaceConfig::new(16, 16)),
//!     ..Config::default()
//! };
//! let context = Context::new(&config).expect("a GLES driver (Mesa llvmpipe)");
//! let current = tessera_glow::Current::new(context).expect("nothing current on this thread");
//! let gl = current.glow();
//! let mut pixel = [0u8; 4];
//! // SAFETY: the context is current on this thread and the slice holds one RGBA8 pixel.
//! unsafe {
//!     gl.clear_color(0.0, 1.0, 0.0, 1.0);
//!     gl.clear(glow::COLOR_BUFFER_BIT);
//!     gl.read_pixels(
//!         0,
//!         0,
//!         1,
//!         1,
//!         glow::RGBA,
//!         glow::UNSIGNED_BYTE,
//!         glow::PixelPackData::Slice(Some(&mut pixel)),
//!     );
//! }
//! assert_eq!(pixel, [0, 255, 0, 255]);
//! drop(gl);
//! let _context: Context = current.into_context().expect("still current");
//! ```

#![expect(
    unsafe_code,
    reason = "glow::Context::from_loader_function: glow calls the entry points it is given through raw pointers"
)]

use std::marker::PhantomData;

pub use glow;
use tessera_capi::current::{make_hosted, take_hosted, with_hosted};
use tessera_engine::Context;

/// An engine context current on the calling thread for GL function pointers (glow's):
/// created by [`Current::new`], released (and the context dropped) when this is dropped, or
/// given back by [`Current::into_context`]. Not `Send`: the context is current on this thread.
#[derive(Debug)]
pub struct Current {
    /// Keeps the value on the thread whose thread-local holds the context.
    _not_send: PhantomData<*const ()>,
}

impl Current {
    /// Makes `context` current on the calling thread. Gives the context back if this thread
    /// already has one current through this crate (another [`Current`] is alive).
    pub fn new(context: Context) -> Result<Self, AlreadyCurrent> {
        if with_hosted(|_| ()).is_some() {
            return Err(AlreadyCurrent(Box::new(context)));
        }
        make_hosted(Box::new(context)).map_err(AlreadyCurrent)?;
        Ok(Self {
            _not_send: PhantomData,
        })
    }

    /// A [`glow::Context`] over the current context: every GL function of glow's table is
    /// Tessera's entry point of that name. glow reads `GL_VERSION` and the extension list
    /// here, once. Make as many as needed; each works on this thread while `self` lives.
    pub fn glow(&self) -> glow::Context {
        // SAFETY: every non-null pointer `lookup` returns is a function of `tessera-capi`
        // declared with the exact C signature of the Khronos registry for its name (its
        // tables coerce each function to that signature), which is the signature glow calls
        // it with (`extern "C"` and `extern "system"` are one ABI on the targets Tessera
        // builds for); for the registry functions Tessera does not implement that is one of
        // capi's stubs, and for the OpenGL ES names glow also loads it is
        // `not_a_desktop_gl_function`: both read no argument (see there). The context is
        // current on this thread (`self` is alive and not `Send`), so glow's `GL_VERSION`
        // and extension queries reach it.
        unsafe {
            glow::Context::from_loader_function(|name| {
                tessera_capi::egl::lookup(name).unwrap_or(if name.starts_with("gl") {
                    const F: extern "C" fn() -> u64 = not_a_desktop_gl_function;
                    F as *const std::ffi::c_void
                } else {
                    std::ptr::null()
                })
            })
        }
    }

    /// Runs `f` on the engine context (its Rust API: `take_events`, `finish`, read-backs
    /// into slices). `None` only when called from inside a GL call, which cannot happen from
    /// safe code.
    pub fn with_context<R>(&mut self, f: impl FnOnce(&mut Context) -> R) -> Option<R> {
        with_hosted(f)
    }

    /// Releases the context from the thread and gives it back.
    pub fn into_context(self) -> Option<Context> {
        let context = take_hosted();
        std::mem::forget(self);
        context.map(|c| *c)
    }
}

/// What glow's table holds for the names it loads that no desktop GL header has (OpenGL ES
/// extension functions such as `glFramebufferTexture2DMultisampleEXT`, which glow calls
/// without a fallback): like `tessera-capi`'s stubs for the registry functions Tessera does not
/// implement, it records `GL_INVALID_OPERATION` in the current context and returns 0, so such
/// a call is an error the program can read instead of glow's "function not loaded" panic. It
/// reads none of the arguments the caller passes, which on the C ABIs Tessera builds for
/// (System V x86-64, AAPCS64) leaves nothing unbalanced: the caller reserves and releases its
/// argument registers and stack slots, and reads 0 from the return register whatever type it
/// declared.
extern "C" fn not_a_desktop_gl_function() -> u64 {
    tessera_capi::current::gl_call("an OpenGL ES function", (), |c| {
        c.set_error(tessera_engine::gl::INVALID_OPERATION);
    });
    0
}

/// The error of [`Current::new`]: the calling thread already has a context current through
/// this crate. Holds the context that was not made current.
pub struct AlreadyCurrent(pub Box<Context>);

impl std::fmt::Debug for AlreadyCurrent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AlreadyCurrent")
    }
}

impl std::fmt::Display for AlreadyCurrent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this thread already has a Tessera context current for glow")
    }
}

impl std::error::Error for AlreadyCurrent {}

impl Drop for Current {
    fn drop(&mut self) {
        drop(take_hosted());
    }
}
