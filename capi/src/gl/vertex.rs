//! Vertex arrays, generic vertex attributes and the draws that take pointers (index
//! offsets, which in the core profile are offsets into the element array buffer).

use std::ffi::c_void;

use tessera_engine::gl::CURRENT_VERTEX_ATTRIB;

use super::types::*;
use crate::current::{gl_call, raised};
use crate::ptr;
use tessera_engine::draw::ElementsCall;

/// Values `glGetVertexAttrib*v(pname)` writes: four for the current value, else one.
fn attrib_values(pname: GLenum) -> usize {
    if pname == CURRENT_VERTEX_ATTRIB { 4 } else { 1 }
}

/// `glGenVertexArrays`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenVertexArrays(n: GLsizei, arrays: *mut GLuint) {
    // SAFETY: GL contract: `arrays` holds `n` names.
    let out = unsafe { ptr::slice_mut(arrays, ptr::len(n)) };
    gl_call("glGenVertexArrays", (), |c| c.gen_vertex_arrays(n, out));
}

/// `glDeleteVertexArrays`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteVertexArrays(n: GLsizei, arrays: *const GLuint) {
    // SAFETY: GL contract: `arrays` holds `n` names.
    let names = unsafe { ptr::slice(arrays, ptr::len(n)) };
    gl_call("glDeleteVertexArrays", (), |c| {
        c.delete_vertex_arrays(n, names)
    });
}

/// `glVertexAttribPointer`: `pointer` is an offset into the bound array buffer.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribPointer(
    index: GLuint,
    size: GLint,
    ty: GLenum,
    normalized: GLboolean,
    stride: GLsizei,
    pointer: *const c_void,
) {
    gl_call("glVertexAttribPointer", (), |c| {
        c.vertex_attrib_pointer(index, size, ty, normalized, stride, pointer as usize)
    });
}

/// `glVertexAttribIPointer`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribIPointer(
    index: GLuint,
    size: GLint,
    ty: GLenum,
    stride: GLsizei,
    pointer: *const c_void,
) {
    gl_call("glVertexAttribIPointer", (), |c| {
        c.vertex_attrib_i_pointer(index, size, ty, stride, pointer as usize)
    });
}

/// `glGetVertexAttribPointerv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribPointerv(
    index: GLuint,
    pname: GLenum,
    pointer: *mut *mut c_void,
) {
    let offset = gl_call("glGetVertexAttribPointerv", None, |c| {
        let (offset, failed) = raised(c, |c| c.get_vertex_attrib_pointerv(index, pname));
        (!failed).then_some(offset)
    });
    if let Some(offset) = offset {
        // SAFETY: GL contract: `pointer` has room for one pointer.
        unsafe { ptr::write(pointer, std::ptr::without_provenance_mut(offset)) };
    }
}

/// `glGetVertexAttribiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribiv(index: GLuint, pname: GLenum, params: *mut GLint) {
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, attrib_values(pname)) };
    gl_call("glGetVertexAttribiv", (), |c| {
        c.get_vertex_attribiv(index, pname, out)
    });
}

/// `glGetVertexAttribfv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribfv(index: GLuint, pname: GLenum, params: *mut GLfloat) {
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, attrib_values(pname)) };
    gl_call("glGetVertexAttribfv", (), |c| {
        c.get_vertex_attribfv(index, pname, out)
    });
}

/// `glGetVertexAttribdv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribdv(index: GLuint, pname: GLenum, params: *mut GLdouble) {
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, attrib_values(pname)) };
    gl_call("glGetVertexAttribdv", (), |c| {
        c.get_vertex_attribdv(index, pname, out)
    });
}

/// `glGetVertexAttribIiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribIiv(index: GLuint, pname: GLenum, params: *mut GLint) {
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, attrib_values(pname)) };
    gl_call("glGetVertexAttribIiv", (), |c| {
        c.get_vertex_attrib_iiv(index, pname, out)
    });
}

/// `glGetVertexAttribIuiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexAttribIuiv(index: GLuint, pname: GLenum, params: *mut GLuint) {
    // SAFETY: GL contract: `params` has room for the values of `pname`.
    let out = unsafe { ptr::slice_mut(params, attrib_values(pname)) };
    gl_call("glGetVertexAttribIuiv", (), |c| {
        c.get_vertex_attrib_iuiv(index, pname, out)
    });
}

/// Reads `N` values from a `glVertexAttrib*v` vector, `None` for a null pointer (nothing
/// is set, as for any call GL leaves undefined).
///
/// # Safety
/// A non-null `v` holds `N` values.
unsafe fn vector<T: Copy, const N: usize>(v: *const T) -> Option<[T; N]> {
    // SAFETY: forwarded contract.
    let s = unsafe { ptr::slice(v, N) };
    s.try_into().ok()
}

/// Defines `glVertexAttrib{N}{t}v` entry points that read `N` values and call a scalar or
/// array form of the engine.
macro_rules! attrib_vectors {
    ($($name:ident($t:ty; $n:literal) => |$c:ident, $i:ident, $a:ident| $call:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(index: GLuint, v: *const $t) {
            // SAFETY: GL contract: `v` holds the vector's values.
            let Some($a) = (unsafe { vector::<$t, $n>(v) }) else {
                return;
            };
            gl_call(stringify!($name), (), |$c| {
                let $i = index;
                $call
            });
        }
    )*};
}

attrib_vectors! {
    glVertexAttrib1fv(GLfloat; 1) => |c, i, a| c.vertex_attrib_1f(i, a[0]);
    glVertexAttrib2fv(GLfloat; 2) => |c, i, a| c.vertex_attrib_2f(i, a[0], a[1]);
    glVertexAttrib3fv(GLfloat; 3) => |c, i, a| c.vertex_attrib_3f(i, a[0], a[1], a[2]);
    glVertexAttrib4fv(GLfloat; 4) => |c, i, a| c.vertex_attrib_4fv(i, &a);
    glVertexAttrib1dv(GLdouble; 1) => |c, i, a| c.vertex_attrib_1d(i, a[0]);
    glVertexAttrib2dv(GLdouble; 2) => |c, i, a| c.vertex_attrib_2d(i, a[0], a[1]);
    glVertexAttrib3dv(GLdouble; 3) => |c, i, a| c.vertex_attrib_3d(i, a[0], a[1], a[2]);
    glVertexAttrib4dv(GLdouble; 4) => |c, i, a| c.vertex_attrib_4d(i, a[0], a[1], a[2], a[3]);
    glVertexAttrib1sv(GLshort; 1) => |c, i, a| c.vertex_attrib_1s(i, a[0]);
    glVertexAttrib2sv(GLshort; 2) => |c, i, a| c.vertex_attrib_2s(i, a[0], a[1]);
    glVertexAttrib3sv(GLshort; 3) => |c, i, a| c.vertex_attrib_3s(i, a[0], a[1], a[2]);
    glVertexAttrib4sv(GLshort; 4) => |c, i, a| c.vertex_attrib_4s(i, a[0], a[1], a[2], a[3]);
    glVertexAttrib4bv(GLbyte; 4) => |c, i, a| c.vertex_attrib_4v(i, &a);
    glVertexAttrib4iv(GLint; 4) => |c, i, a| c.vertex_attrib_4v(i, &a);
    glVertexAttrib4ubv(GLubyte; 4) => |c, i, a| c.vertex_attrib_4v(i, &a);
    glVertexAttrib4usv(GLushort; 4) => |c, i, a| c.vertex_attrib_4v(i, &a);
    glVertexAttrib4uiv(GLuint; 4) => |c, i, a| c.vertex_attrib_4v(i, &a);
    glVertexAttrib4Nbv(GLbyte; 4) => |c, i, a| c.vertex_attrib_4n_signed(i, &a);
    glVertexAttrib4Nsv(GLshort; 4) => |c, i, a| c.vertex_attrib_4n_signed(i, &a);
    glVertexAttrib4Niv(GLint; 4) => |c, i, a| c.vertex_attrib_4n_signed(i, &a);
    glVertexAttrib4Nubv(GLubyte; 4) => |c, i, a| c.vertex_attrib_4n_unsigned(i, &a);
    glVertexAttrib4Nusv(GLushort; 4) => |c, i, a| c.vertex_attrib_4n_unsigned(i, &a);
    glVertexAttrib4Nuiv(GLuint; 4) => |c, i, a| c.vertex_attrib_4n_unsigned(i, &a);
    glVertexAttribI1iv(GLint; 1) => |c, i, a| c.vertex_attrib_i1i(i, a[0]);
    glVertexAttribI2iv(GLint; 2) => |c, i, a| c.vertex_attrib_i2i(i, a[0], a[1]);
    glVertexAttribI3iv(GLint; 3) => |c, i, a| c.vertex_attrib_i3i(i, a[0], a[1], a[2]);
    glVertexAttribI4iv(GLint; 4) => |c, i, a| c.vertex_attrib_i4i(i, a[0], a[1], a[2], a[3]);
    glVertexAttribI1uiv(GLuint; 1) => |c, i, a| c.vertex_attrib_i1ui(i, a[0]);
    glVertexAttribI2uiv(GLuint; 2) => |c, i, a| c.vertex_attrib_i2ui(i, a[0], a[1]);
    glVertexAttribI3uiv(GLuint; 3) => |c, i, a| c.vertex_attrib_i3ui(i, a[0], a[1], a[2]);
    glVertexAttribI4uiv(GLuint; 4) => |c, i, a| c.vertex_attrib_i4ui(i, a[0], a[1], a[2], a[3]);
    glVertexAttribI4bv(GLbyte; 4) => |c, i, a| c.vertex_attrib_i4v_signed(i, &a);
    glVertexAttribI4sv(GLshort; 4) => |c, i, a| c.vertex_attrib_i4v_signed(i, &a);
    glVertexAttribI4ubv(GLubyte; 4) => |c, i, a| c.vertex_attrib_i4v_unsigned(i, &a);
    glVertexAttribI4usv(GLushort; 4) => |c, i, a| c.vertex_attrib_i4v_unsigned(i, &a);
}

/// Defines `glVertexAttribP{N}uiv`, reading the one packed value.
macro_rules! attrib_packed {
    ($($name:ident => $method:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(index: GLuint, ty: GLenum, normalized: GLboolean, value: *const GLuint) {
            // SAFETY: GL contract: `value` holds one packed value.
            let Some([v]) = (unsafe { vector::<GLuint, 1>(value) }) else {
                return;
            };
            gl_call(stringify!($name), (), |c| c.$method(index, ty, normalized, v));
        }
    )*};
}

attrib_packed! {
    glVertexAttribP1uiv => vertex_attrib_p1ui;
    glVertexAttribP2uiv => vertex_attrib_p2ui;
    glVertexAttribP3uiv => vertex_attrib_p3ui;
    glVertexAttribP4uiv => vertex_attrib_p4ui;
}

/// The `len` bytes of the indices a draw with no element array buffer finds in client
/// memory at `indices`.
///
/// # Safety
/// A non-null `indices` is valid for reads of `len` bytes for `'a`.
unsafe fn client_indices<'a>(indices: *const c_void, len: usize) -> &'a [u8] {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(indices.cast::<u8>(), len) }
}

/// `glDrawElements`.
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElements(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
) {
    let call = ElementsCall {
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElements", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glDrawElementsInstanced`.
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElementsInstanced(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
) {
    let call = ElementsCall {
        instances: instancecount,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElementsInstanced", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glDrawElementsBaseVertex`.
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElementsBaseVertex(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    basevertex: GLint,
) {
    let call = ElementsCall {
        base_vertex: basevertex,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElementsBaseVertex", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glDrawElementsInstancedBaseVertex`.
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElementsInstancedBaseVertex(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    basevertex: GLint,
) {
    let call = ElementsCall {
        instances: instancecount,
        base_vertex: basevertex,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElementsInstancedBaseVertex", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glDrawRangeElements`.
///
/// # Safety
/// As for `glDrawElements`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawRangeElements(
    mode: GLenum,
    start: GLuint,
    end: GLuint,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
) {
    let call = ElementsCall {
        range: Some((start, end)),
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawRangeElements", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glDrawRangeElementsBaseVertex`.
///
/// # Safety
/// As for `glDrawElements`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawRangeElementsBaseVertex(
    mode: GLenum,
    start: GLuint,
    end: GLuint,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    basevertex: GLint,
) {
    let call = ElementsCall {
        range: Some((start, end)),
        base_vertex: basevertex,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawRangeElementsBaseVertex", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}
/// `glMultiDrawArrays`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glMultiDrawArrays(
    mode: GLenum,
    first: *const GLint,
    count: *const GLsizei,
    drawcount: GLsizei,
) {
    let n = ptr::len(drawcount);
    // SAFETY: GL contract: `first` and `count` hold `drawcount` values.
    let (first, count) = unsafe { (ptr::slice(first, n), ptr::slice(count, n)) };
    gl_call("glMultiDrawArrays", (), |c| {
        c.multi_draw_arrays(mode, first, count, drawcount)
    });
}

/// The index offsets or client-memory addresses of a `glMultiDrawElements*` call.
///
/// # Safety
/// A non-null `indices` holds `n` pointers.
unsafe fn offsets(indices: *const *const c_void, n: usize) -> Vec<usize> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(indices, n) }
        .iter()
        .map(|p| *p as usize)
        .collect()
}

/// `glMultiDrawElements`.
///
/// # Safety
/// `count` and `indices` hold `drawcount` values; with no element array buffer bound, each
/// non-null `indices[i]` points at `count[i]` indices of `ty`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glMultiDrawElements(
    mode: GLenum,
    count: *const GLsizei,
    ty: GLenum,
    indices: *const *const c_void,
    drawcount: GLsizei,
) {
    // SAFETY: forwarded contract.
    unsafe { glMultiDrawElementsBaseVertex(mode, count, ty, indices, drawcount, std::ptr::null()) }
}

/// `glMultiDrawElementsBaseVertex`.
///
/// # Safety
/// As for `glMultiDrawElements`, and a non-null `basevertex` holds `drawcount` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glMultiDrawElementsBaseVertex(
    mode: GLenum,
    count: *const GLsizei,
    ty: GLenum,
    indices: *const *const c_void,
    drawcount: GLsizei,
    basevertex: *const GLint,
) {
    let n = ptr::len(drawcount);
    // SAFETY: GL contract: `count`, `indices` and `basevertex` hold `drawcount` values.
    let (count, at, base) = unsafe {
        (
            ptr::slice(count, n),
            offsets(indices, n),
            (!basevertex.is_null()).then(|| ptr::slice(basevertex, n)),
        )
    };
    gl_call("glMultiDrawElementsBaseVertex", (), |c| {
        c.multi_draw_elements_from_pointers(mode, count, ty, &at, drawcount, base, &|i, len| {
            // SAFETY: this function's contract (read only with no element array buffer).
            unsafe { client_indices(at[i] as *const c_void, len) }
        })
    });
}

/// `glDrawArraysInstancedBaseInstance` (GL 4.2).
#[unsafe(no_mangle)]
pub extern "C" fn glDrawArraysInstancedBaseInstance(
    mode: GLenum,
    first: GLint,
    count: GLsizei,
    instancecount: GLsizei,
    baseinstance: GLuint,
) {
    gl_call("glDrawArraysInstancedBaseInstance", (), |c| {
        c.draw_arrays_instanced_base_instance(mode, first, count, instancecount, baseinstance)
    });
}

/// `glDrawElementsInstancedBaseInstance` (GL 4.2).
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElementsInstancedBaseInstance(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    baseinstance: GLuint,
) {
    let call = ElementsCall {
        instances: instancecount,
        base_instance: baseinstance,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElementsInstancedBaseInstance", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}

/// `glDrawElementsInstancedBaseVertexBaseInstance` (GL 4.2).
///
/// # Safety
/// With no element array buffer bound, a non-null `indices` points at `count` indices of
/// `ty` (client memory, which Mesa reads in core contexts too).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDrawElementsInstancedBaseVertexBaseInstance(
    mode: GLenum,
    count: GLsizei,
    ty: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    basevertex: GLint,
    baseinstance: GLuint,
) {
    let call = ElementsCall {
        instances: instancecount,
        base_vertex: basevertex,
        base_instance: baseinstance,
        ..ElementsCall::new(mode, count, ty, indices as usize)
    };
    gl_call("glDrawElementsInstancedBaseVertexBaseInstance", (), |c| {
        // SAFETY: this function's contract (read only with no element array buffer).
        c.draw_elements_from_pointer(call, &|len| unsafe { client_indices(indices, len) })
    });
}

/// `glDrawArraysIndirect` (GL 4.0): `indirect` is a byte offset into the
/// `DRAW_INDIRECT_BUFFER` (core GL has no client-memory commands).
#[unsafe(no_mangle)]
pub extern "C" fn glDrawArraysIndirect(mode: GLenum, indirect: *const c_void) {
    gl_call("glDrawArraysIndirect", (), |c| {
        c.draw_arrays_indirect(mode, indirect as usize)
    });
}

/// `glDrawElementsIndirect` (GL 4.0).
#[unsafe(no_mangle)]
pub extern "C" fn glDrawElementsIndirect(mode: GLenum, ty: GLenum, indirect: *const c_void) {
    gl_call("glDrawElementsIndirect", (), |c| {
        c.draw_elements_indirect(mode, ty, indirect as usize)
    });
}

/// `glMultiDrawArraysIndirect` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawArraysIndirect(
    mode: GLenum,
    indirect: *const c_void,
    drawcount: GLsizei,
    stride: GLsizei,
) {
    gl_call("glMultiDrawArraysIndirect", (), |c| {
        c.multi_draw_arrays_indirect(mode, indirect as usize, drawcount, stride)
    });
}

/// `glMultiDrawElementsIndirect` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawElementsIndirect(
    mode: GLenum,
    ty: GLenum,
    indirect: *const c_void,
    drawcount: GLsizei,
    stride: GLsizei,
) {
    gl_call("glMultiDrawElementsIndirect", (), |c| {
        c.multi_draw_elements_indirect(mode, ty, indirect as usize, drawcount, stride)
    });
}

/// `glMultiDrawArraysIndirectCount` (GL 4.6): at most `maxdrawcount` commands, as many as
/// the `GLsizei` at byte `drawcount` of the `PARAMETER_BUFFER` says.
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawArraysIndirectCount(
    mode: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    gl_call("glMultiDrawArraysIndirectCount", (), |c| {
        c.multi_draw_arrays_indirect_count(mode, indirect as usize, drawcount, maxdrawcount, stride)
    });
}

/// `glMultiDrawArraysIndirectCountARB` (`ARB_indirect_parameters`).
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawArraysIndirectCountARB(
    mode: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    glMultiDrawArraysIndirectCount(mode, indirect, drawcount, maxdrawcount, stride);
}

/// `glMultiDrawElementsIndirectCount` (GL 4.6).
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawElementsIndirectCount(
    mode: GLenum,
    ty: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    gl_call("glMultiDrawElementsIndirectCount", (), |c| {
        c.multi_draw_elements_indirect_count(
            mode,
            ty,
            indirect as usize,
            drawcount,
            maxdrawcount,
            stride,
        )
    });
}

/// `glMultiDrawElementsIndirectCountARB` (`ARB_indirect_parameters`).
#[unsafe(no_mangle)]
pub extern "C" fn glMultiDrawElementsIndirectCountARB(
    mode: GLenum,
    ty: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    glMultiDrawElementsIndirectCount(mode, ty, indirect, drawcount, maxdrawcount, stride);
}

/// `glBindVertexBuffer` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glBindVertexBuffer(
    bindingindex: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    stride: GLsizei,
) {
    gl_call("glBindVertexBuffer", (), |c| {
        c.bind_vertex_buffer(bindingindex, buffer, offset, stride)
    });
}

/// `glVertexAttribFormat` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribFormat(
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    normalized: GLboolean,
    relativeoffset: GLuint,
) {
    gl_call("glVertexAttribFormat", (), |c| {
        c.vertex_attrib_format(attribindex, size, ty, normalized, relativeoffset)
    });
}

/// `glVertexAttribIFormat` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribIFormat(
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    relativeoffset: GLuint,
) {
    gl_call("glVertexAttribIFormat", (), |c| {
        c.vertex_attrib_i_format(attribindex, size, ty, relativeoffset)
    });
}

/// `glVertexAttribBinding` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glVertexAttribBinding(attribindex: GLuint, bindingindex: GLuint) {
    gl_call("glVertexAttribBinding", (), |c| {
        c.vertex_attrib_binding(attribindex, bindingindex)
    });
}

/// `glVertexBindingDivisor` (GL 4.3).
#[unsafe(no_mangle)]
pub extern "C" fn glVertexBindingDivisor(bindingindex: GLuint, divisor: GLuint) {
    gl_call("glVertexBindingDivisor", (), |c| {
        c.vertex_binding_divisor(bindingindex, divisor)
    });
}
