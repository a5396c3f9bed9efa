//! `glXGetProcAddress(ARB)`: every GLX and GL function by name (GL through the same tables
//! as `eglGetProcAddress`, stubs included).

use std::ffi::{c_char, c_void};

use super::*;
use crate::gl::Proc;

/// One GLX function's entry.
macro_rules! glx_entries {
    ($($name:ident),* $(,)?) => {
        /// Every exported GLX function, sorted by name.
        pub static GLX_FUNCTIONS: &[(&str, Proc)] = &[
            $((stringify!($name), Proc($name as *const c_void)),)*
        ];
    };
}

glx_entries![
    glXChooseFBConfig,
    glXChooseVisual,
    glXCopyContext,
    glXCreateContext,
    glXCreateContextAttribsARB,
    glXCreateGLXPixmap,
    glXCreateNewContext,
    glXCreatePbuffer,
    glXCreatePixmap,
    glXCreateWindow,
    glXDestroyContext,
    glXDestroyGLXPixmap,
    glXDestroyPbuffer,
    glXDestroyPixmap,
    glXDestroyWindow,
    glXGetClientString,
    glXGetConfig,
    glXGetCurrentContext,
    glXGetCurrentDisplay,
    glXGetCurrentDrawable,
    glXGetCurrentReadDrawable,
    glXGetFBConfigAttrib,
    glXGetFBConfigs,
    glXGetProcAddress,
    glXGetProcAddressARB,
    glXGetSelectedEvent,
    glXGetSwapIntervalMESA,
    glXGetVisualFromFBConfig,
    glXIsDirect,
    glXMakeContextCurrent,
    glXMakeCurrent,
    glXQueryContext,
    glXQueryDrawable,
    glXQueryExtension,
    glXQueryExtensionsString,
    glXQueryServerString,
    glXQueryVersion,
    glXSelectEvent,
    glXSwapBuffers,
    glXSwapIntervalEXT,
    glXSwapIntervalMESA,
    glXSwapIntervalSGI,
    glXUseXFont,
    glXWaitGL,
    glXWaitX,
];

/// A GLX function by name.
pub fn lookup(name: &str) -> Option<*const c_void> {
    GLX_FUNCTIONS
        .binary_search_by(|e| e.0.cmp(name))
        .ok()
        .map(|i| GLX_FUNCTIONS[i].1.0)
}

/// `glXGetProcAddressARB`.
///
/// # Safety
/// `name` is null or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetProcAddressARB(name: *const u8) -> *const c_void {
    if name.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the caller's contract.
    unsafe { crate::egl::eglGetProcAddress(name.cast::<c_char>()) }
}

/// `glXGetProcAddress`.
///
/// # Safety
/// `name` is null or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetProcAddress(name: *const u8) -> *const c_void {
    // SAFETY: the caller's contract.
    unsafe { glXGetProcAddressARB(name) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glx_table_is_sorted_and_reached_through_get_proc_address() {
        assert!(GLX_FUNCTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, f) in GLX_FUNCTIONS {
            let c = std::ffi::CString::new(*name).unwrap();
            // SAFETY: a NUL-terminated name.
            let p = unsafe { glXGetProcAddressARB(c.as_ptr().cast()) };
            assert_eq!(p, f.0, "{name}");
        }
    }
}
