//! Query objects and sync objects. A `GLsync` is the engine's sync value (a non-zero
//! number) as a pointer, never dereferenced.

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGenQueries`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenQueries(n: GLsizei, ids: *mut GLuint) {
    // SAFETY: GL contract: `ids` holds `n` names.
    let out = unsafe { ptr::slice_mut(ids, ptr::len(n)) };
    gl_call("glGenQueries", (), |c| c.gen_queries(n, out));
}

/// `glDeleteQueries`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteQueries(n: GLsizei, ids: *const GLuint) {
    // SAFETY: GL contract: `ids` holds `n` names.
    let names = unsafe { ptr::slice(ids, ptr::len(n)) };
    gl_call("glDeleteQueries", (), |c| c.delete_queries(n, names));
}

/// Defines query getters of one value.
macro_rules! query_getters {
    ($($name:ident($obj:ident: $ot:ty, $t:ty) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($obj: $ot, pname: GLenum, params: *mut $t) {
            // SAFETY: GL contract: every query parameter is one value.
            let out = unsafe { ptr::slice_mut(params, 1) };
            gl_call(stringify!($name), (), |c| c.$method($obj, pname, out));
        }
    )*};
}

query_getters! {
    glGetQueryiv(target: GLenum, GLint) => get_queryiv;
    glGetQueryObjectiv(id: GLuint, GLint) => get_query_objectiv;
    glGetQueryObjectuiv(id: GLuint, GLuint) => get_query_objectuiv;
    glGetQueryObjecti64v(id: GLuint, GLint64) => get_query_objecti64v;
    glGetQueryObjectui64v(id: GLuint, GLuint64) => get_query_objectui64v;
}

/// The engine's value of a `GLsync`.
fn sync_id(sync: GLsync) -> u64 {
    sync as usize as u64
}

/// `glFenceSync`.
#[unsafe(no_mangle)]
pub extern "C" fn glFenceSync(condition: GLenum, flags: GLbitfield) -> GLsync {
    let id = gl_call("glFenceSync", 0, |c| c.fence_sync(condition, flags));
    std::ptr::without_provenance_mut(id as usize)
}

/// `glIsSync`.
#[unsafe(no_mangle)]
pub extern "C" fn glIsSync(sync: GLsync) -> GLboolean {
    gl_call("glIsSync", 0, |c| c.is_sync(sync_id(sync)))
}

/// `glDeleteSync`.
#[unsafe(no_mangle)]
pub extern "C" fn glDeleteSync(sync: GLsync) {
    gl_call("glDeleteSync", (), |c| c.delete_sync(sync_id(sync)));
}

/// `glClientWaitSync`.
#[unsafe(no_mangle)]
pub extern "C" fn glClientWaitSync(sync: GLsync, flags: GLbitfield, timeout: GLuint64) -> GLenum {
    gl_call("glClientWaitSync", 0, |c| {
        let status = c.client_wait_sync(sync_id(sync), flags, timeout);
        crate::events::drain(c);
        status
    })
}

/// `glWaitSync`.
#[unsafe(no_mangle)]
pub extern "C" fn glWaitSync(sync: GLsync, flags: GLbitfield, timeout: GLuint64) {
    gl_call("glWaitSync", (), |c| {
        c.wait_sync(sync_id(sync), flags, timeout)
    });
}

/// `glGetSynciv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetSynciv(
    sync: GLsync,
    pname: GLenum,
    buf_size: GLsizei,
    length: *mut GLsizei,
    values: *mut GLint,
) {
    // SAFETY: GL contract: `values` has room for `buf_size` values.
    let out = unsafe { ptr::slice_mut(values, ptr::len(buf_size)) };
    let written = gl_call("glGetSynciv", None, |c| {
        Some(c.get_synciv(sync_id(sync), pname, out))
    });
    if let Some(n) = written {
        // SAFETY: GL contract: a non-null `length` has room for one value.
        unsafe { ptr::write(length, n) };
    }
}
