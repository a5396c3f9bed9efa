//! Query objects and sync objects. A `GLsync` is the engine's sync value (a non-zero
//! number) as a pointer, never dereferenced.

use tessera_engine::query::QueryValueType;

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

/// `glCreateQueries` (GL 4.5).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateQueries(target: GLenum, n: GLsizei, ids: *mut GLuint) {
    // SAFETY: GL contract: `ids` has room for `n` names.
    let out = unsafe { ptr::slice_mut(ids, ptr::len(n)) };
    gl_call("glCreateQueries", (), |c| c.create_queries(target, n, out));
}

/// `glGetQueryiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetQueryiv(target: GLenum, pname: GLenum, params: *mut GLint) {
    // SAFETY: GL contract: every query parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetQueryiv", (), |c| c.get_queryiv(target, pname, out));
}

/// Defines the `glGetQueryObject*v` getters: with a buffer bound to `QUERY_BUFFER`,
/// `params` is an offset into it and never dereferenced.
macro_rules! query_object_getters {
    ($($name:ident($t:ty, $ty:ident) => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(id: GLuint, pname: GLenum, params: *mut $t) {
            gl_call(stringify!($name), (), |c| {
                if c.query_buffer_bound() {
                    let offset = params as isize;
                    c.get_query_object_buffer(id, None, pname, QueryValueType::$ty, offset);
                } else {
                    // SAFETY: GL contract: every query parameter is one value.
                    let out = unsafe { ptr::slice_mut(params, 1) };
                    c.$method(id, pname, out);
                }
            });
        }
    )*};
}

query_object_getters! {
    glGetQueryObjectiv(GLint, Int) => get_query_objectiv;
    glGetQueryObjectuiv(GLuint, UnsignedInt) => get_query_objectuiv;
    glGetQueryObjecti64v(GLint64, Int64) => get_query_objecti64v;
    glGetQueryObjectui64v(GLuint64, UnsignedInt64) => get_query_objectui64v;
}

/// Defines the `glGetQueryBufferObject*v` getters (GL 4.5): the value goes into `buffer`.
macro_rules! query_buffer_getters {
    ($($name:ident => $ty:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(id: GLuint, buffer: GLuint, pname: GLenum, offset: GLintptr) {
            gl_call(stringify!($name), (), |c| {
                c.get_query_object_buffer(id, Some(buffer), pname, QueryValueType::$ty, offset)
            });
        }
    )*};
}

query_buffer_getters! {
    glGetQueryBufferObjectiv => Int;
    glGetQueryBufferObjectuiv => UnsignedInt;
    glGetQueryBufferObjecti64v => Int64;
    glGetQueryBufferObjectui64v => UnsignedInt64;
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

/// `glBeginConditionalRenderNV` (`NV_conditional_render`): `glBeginConditionalRender`.
#[unsafe(no_mangle)]
pub extern "C" fn glBeginConditionalRenderNV(id: GLuint, mode: GLenum) {
    gl_call("glBeginConditionalRenderNV", (), |c| {
        c.begin_conditional_render(id, mode)
    })
}

/// `glEndConditionalRenderNV` (`NV_conditional_render`): `glEndConditionalRender`.
#[unsafe(no_mangle)]
pub extern "C" fn glEndConditionalRenderNV() {
    gl_call("glEndConditionalRenderNV", (), |c| {
        c.end_conditional_render()
    })
}
