//! GL 4.1's viewport arrays (`ARB_viewport_array`): indexed viewports, scissor rectangles
//! and depth ranges, and the float and double indexed queries (`tessera_engine`'s
//! `render_state` and `get`); GL 4.5's `glClipControl` (`ARB_clip_control`), the rest of
//! the viewport transform.

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// Elements a `gl*Arrayv(first, count, v)` of viewport state reads: `per` for each of
/// `count` entries, none when `first + count` passes `GL_MAX_VIEWPORTS` (the engine then
/// raises `INVALID_VALUE` without reading).
fn array_len(first: GLuint, count: GLsizei, per: usize) -> usize {
    let max = tessera_engine::wire::state::MAX_VIEWPORTS;
    if first.wrapping_add(count as GLuint) as usize > max {
        0
    } else {
        ptr::len(count) * per
    }
}

/// `glViewportArrayv` (GL 4.1): `count` rectangles from viewport `first` on.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glViewportArrayv(first: GLuint, count: GLsizei, v: *const GLfloat) {
    // SAFETY: GL contract: `v` holds four floats for each of `count` viewports.
    let v = unsafe { ptr::slice(v, array_len(first, count, 4)) };
    gl_call("glViewportArrayv", (), |c| {
        c.viewport_arrayv(first, count, v)
    });
}

/// `glViewportIndexedf` (GL 4.1): one viewport's rectangle.
#[unsafe(no_mangle)]
pub extern "C" fn glViewportIndexedf(
    index: GLuint,
    x: GLfloat,
    y: GLfloat,
    w: GLfloat,
    h: GLfloat,
) {
    gl_call("glViewportIndexedf", (), |c| {
        c.viewport_indexedf(index, x, y, w, h)
    });
}

/// `glViewportIndexedfv` (GL 4.1): one viewport's rectangle from four floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glViewportIndexedfv(index: GLuint, v: *const GLfloat) {
    // SAFETY: GL contract: `v` holds four floats.
    let v = unsafe { ptr::slice(v, 4) };
    gl_call("glViewportIndexedfv", (), |c| {
        if let [x, y, w, h] = *v {
            c.viewport_indexedf(index, x, y, w, h)
        }
    });
}

/// `glScissorArrayv` (GL 4.1): `count` rectangles from scissor `first` on.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glScissorArrayv(first: GLuint, count: GLsizei, v: *const GLint) {
    // SAFETY: GL contract: `v` holds four integers for each of `count` rectangles.
    let v = unsafe { ptr::slice(v, array_len(first, count, 4)) };
    gl_call("glScissorArrayv", (), |c| c.scissor_arrayv(first, count, v));
}

/// `glScissorIndexed` (GL 4.1): one scissor rectangle.
#[unsafe(no_mangle)]
pub extern "C" fn glScissorIndexed(
    index: GLuint,
    left: GLint,
    bottom: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glScissorIndexed", (), |c| {
        c.scissor_indexed(index, left, bottom, width, height)
    });
}

/// `glScissorIndexedv` (GL 4.1): one scissor rectangle from four integers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glScissorIndexedv(index: GLuint, v: *const GLint) {
    // SAFETY: GL contract: `v` holds four integers.
    let v = unsafe { ptr::slice(v, 4) };
    gl_call("glScissorIndexedv", (), |c| {
        if let [x, y, w, h] = *v {
            c.scissor_indexed(index, x, y, w, h)
        }
    });
}

/// `glDepthRangeArrayv` (GL 4.1): `count` near/far pairs from viewport `first` on.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDepthRangeArrayv(first: GLuint, count: GLsizei, v: *const GLdouble) {
    // SAFETY: GL contract: `v` holds two doubles for each of `count` viewports.
    let v = unsafe { ptr::slice(v, array_len(first, count, 2)) };
    gl_call("glDepthRangeArrayv", (), |c| {
        c.depth_range_arrayv(first, count, v)
    });
}

/// `glDepthRangeIndexed` (GL 4.1): one viewport's depth range.
#[unsafe(no_mangle)]
pub extern "C" fn glDepthRangeIndexed(index: GLuint, n: GLdouble, f: GLdouble) {
    gl_call("glDepthRangeIndexed", (), |c| {
        c.depth_range_indexed(index, n, f)
    });
}

/// `glGetFloati_v` (GL 4.1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetFloati_v(target: GLenum, index: GLuint, data: *mut GLfloat) {
    // SAFETY: GL contract: `data` has room for the values of `target`.
    let out = unsafe { ptr::slice_mut(data, super::state::indexed_values(target)) };
    gl_call("glGetFloati_v", (), |c| c.get_floati_v(target, index, out));
}

/// `glGetDoublei_v` (GL 4.1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetDoublei_v(target: GLenum, index: GLuint, data: *mut GLdouble) {
    // SAFETY: GL contract: `data` has room for the values of `target`.
    let out = unsafe { ptr::slice_mut(data, super::state::indexed_values(target)) };
    gl_call("glGetDoublei_v", (), |c| {
        c.get_doublei_v(target, index, out)
    });
}

/// `glClipControl` (GL 4.5): the clip origin and clip-space depth mode.
#[unsafe(no_mangle)]
pub extern "C" fn glClipControl(origin: GLenum, depth: GLenum) {
    gl_call("glClipControl", (), |c| c.clip_control(origin, depth));
}
