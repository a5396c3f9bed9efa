//! The EGL 1.5 entry points (plus `EGL_EXT_platform_base`'s three and the four of
//! `EGL_EXT_device_base`, in `device.rs`), each a thin shell: read the pointer arguments,
//! run the engine's EGL call under [`egl_call`], write the results. Handles cross the ABI
//! as the engine's numbers cast to pointers.

#![allow(non_snake_case, reason = "exported under the EGL names")]

mod context;
mod device;
mod display;
mod image;
mod proc;
mod surface;
mod sync;

pub use context::*;
pub use device::*;
pub use display::*;
pub use image::*;
pub use proc::*;
pub use surface::*;
pub use sync::*;

use std::ffi::c_void;

#[allow(unused_imports, reason = "used by the submodules through `super::*`")]
pub(crate) use crate::current::{egl_call, egl_call_unlocked};

/// `EGLBoolean`.
pub type EGLBoolean = u32;
/// `EGLint`.
pub type EGLint = i32;
/// `EGLenum`.
pub type EGLenum = u32;
/// `EGLAttrib`.
pub type EGLAttrib = isize;
/// `EGLTime`.
pub type EGLTime = u64;
/// `EGLDisplay`, `EGLConfig`, `EGLContext`, `EGLSurface`, `EGLSync`, `EGLImage`,
/// `EGLClientBuffer` and the native display type: opaque pointers.
pub type Handle = *mut c_void;
/// `EGLNativeWindowType` / `EGLNativePixmapType` (`unsigned long` XIDs in Mesa's headers;
/// pointer-sized either way).
pub type NativeHandle = usize;

/// `EGL_TRUE` / `EGL_FALSE`.
pub(crate) fn boolean(ok: bool) -> EGLBoolean {
    u32::from(ok)
}

/// A handle as the engine's number.
pub(crate) fn id(h: Handle) -> usize {
    h as usize
}

/// The engine's number as a handle (never dereferenced by anyone: no provenance).
pub(crate) fn handle(id: usize) -> Handle {
    std::ptr::without_provenance_mut(id)
}
