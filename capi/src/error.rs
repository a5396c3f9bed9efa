//! The one place EGL errors get their codes: every [`EglError`] the engine returns becomes
//! the `EGL_*` value `eglGetError` reports. (GL errors need no mapping: the engine keeps
//! GL's own codes; the only GL error decided here is a caught panic, reported as
//! `GL_INVALID_OPERATION` by [`gl_call`](crate::current::gl_call).)

use tessera_engine::egl::EglError;
use tessera_engine::egl::tokens::*;

/// The `EGL_*` code of an error.
pub fn egl_code(error: EglError) -> i32 {
    match error {
        EglError::NotInitialized => NOT_INITIALIZED,
        EglError::BadAccess => BAD_ACCESS,
        EglError::BadAlloc => BAD_ALLOC,
        EglError::BadAttribute => BAD_ATTRIBUTE,
        EglError::BadConfig => BAD_CONFIG,
        EglError::BadContext => BAD_CONTEXT,
        EglError::BadCurrentSurface => BAD_CURRENT_SURFACE,
        EglError::BadDisplay => BAD_DISPLAY,
        EglError::BadMatch => BAD_MATCH,
        EglError::BadNativePixmap => BAD_NATIVE_PIXMAP,
        EglError::BadNativeWindow => BAD_NATIVE_WINDOW,
        EglError::BadParameter => BAD_PARAMETER,
        EglError::BadSurface => BAD_SURFACE,
        EglError::ContextLost => CONTEXT_LOST,
    }
}
