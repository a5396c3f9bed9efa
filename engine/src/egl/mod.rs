//! EGL-level objects: displays, configs, contexts, pbuffer surfaces, syncs, and the
//! per-thread current context, as a Rust API the C ABI (`tessera-capi`) forwards to.
//!
//! ## What lives here
//! - A process-wide [`Registry`] behind one mutex holds every EGL object. Handles are plain
//!   numbers (`usize`): displays and configs are the addresses of static anchors, contexts,
//!   surfaces and syncs are minted from a counter with a kind tag in the low bits, so a stale
//!   or foreign handle is found out by a lookup and never dereferenced.
//! - A [`Thread`] is one thread's EGL state (bound API, current context). The C ABI keeps it
//!   in a thread-local; while a context is current, its [`Context`](crate::Context) is *moved
//!   out of the registry into the thread*, so GL calls reach it without any lock, and no
//!   other thread can reach it at all (EGL's rule that a context is current to one thread at
//!   a time is then a matter of ownership: making it current elsewhere finds it missing and
//!   is `EGL_BAD_ACCESS`).
//! - Surfaces are EGL objects without a share group; the wire surface behind one is created
//!   lazily in the share group of each context it is made current with, and destroyed when
//!   the EGL surface is.
//!
//! ## Errors
//! Every failing call returns an [`EglError`]; the C ABI maps it to its `EGL_BAD_*` code in
//! one place and keeps the per-thread error. Checks follow the EGL 1.5 specification in the
//! order Mesa applies them (display, then objects, then matching rules).
//!
//! ## What it must never do
//! Hold the registry lock while calling into a context that might call back into EGL (none
//! does), or hand out a `Context` that another thread has current.

pub mod config;
pub mod context;
mod current;
pub mod display;
mod dma_buf;
pub mod image;
pub mod surface;
pub mod sync;
pub mod tokens;
pub mod window;

pub use config::{CONFIGS, Config, Criteria};
pub use context::ContextAttribs;
pub use current::Thread;
pub use display::{Platform, Registry, registry};
pub use image::EglImage;
pub use sync::{ClientWait, EglFence};

/// An EGL error, named as the specification names it. The C ABI maps each to its
/// `EGL_*` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EglError {
    /// `EGL_NOT_INITIALIZED`.
    #[error("the display is not initialized")]
    NotInitialized,
    /// `EGL_BAD_ACCESS`.
    #[error("the context or a surface is current to another thread")]
    BadAccess,
    /// `EGL_BAD_ALLOC`.
    #[error("resources could not be allocated")]
    BadAlloc,
    /// `EGL_BAD_ATTRIBUTE`.
    #[error("an attribute or its value is not recognised")]
    BadAttribute,
    /// `EGL_BAD_CONFIG`.
    #[error("not a config of this display")]
    BadConfig,
    /// `EGL_BAD_CONTEXT`.
    #[error("not a context of this display")]
    BadContext,
    /// `EGL_BAD_CURRENT_SURFACE`.
    #[error("the current surface is no longer valid")]
    BadCurrentSurface,
    /// `EGL_BAD_DISPLAY`.
    #[error("not an EGL display")]
    BadDisplay,
    /// `EGL_BAD_MATCH`.
    #[error("the arguments are inconsistent or not supported together")]
    BadMatch,
    /// `EGL_BAD_NATIVE_PIXMAP`.
    #[error("not a native pixmap (there are none on this platform)")]
    BadNativePixmap,
    /// `EGL_BAD_NATIVE_WINDOW`.
    #[error("not a native window (there are none on this platform)")]
    BadNativeWindow,
    /// `EGL_BAD_PARAMETER`.
    #[error("an argument is invalid")]
    BadParameter,
    /// `EGL_BAD_SURFACE`.
    #[error("not a surface of this display, or not usable for this call")]
    BadSurface,
    /// `EGL_CONTEXT_LOST`.
    #[error("the context was lost")]
    ContextLost,
}
