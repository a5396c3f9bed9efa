//! State queries (`glGet*v`, `glGetString(i)`, `glGetPointerv`) and the vector forms of
//! `glPointParameter`.
//!
//! `glGet*v` ask the engine for the state value once and write as many values as it has,
//! converted as GL 3.3 §2.2.1 says (the same conversions the engine's typed queries use).
//! Strings are interned: `glGetString` returns pointers that stay valid for the life of the
//! process, NUL-terminated, the same pointer for the same string.

use std::ffi::{CStr, CString};
use std::sync::{Mutex, PoisonError};

use tessera_engine::get::Value;
use tessera_engine::gl::{COLOR_WRITEMASK, DEPTH_RANGE, SCISSOR_BOX, VIEWPORT};

use super::types::*;
use crate::current::{gl_call, raised};
use crate::events;
use crate::ptr;

/// `glGetGraphicsResetStatus` (GL 4.5, KHR_robustness): whether the current context was
/// lost — its server died, or a call panicked — as `GL_UNKNOWN_CONTEXT_RESET`, else
/// `GL_NO_ERROR`. Answered on a lost context too.
#[unsafe(no_mangle)]
pub extern "C" fn glGetGraphicsResetStatus() -> GLenum {
    crate::current::reset_status()
}

/// `glGetGraphicsResetStatusARB` (ARB_robustness): [`glGetGraphicsResetStatus`].
#[unsafe(no_mangle)]
pub extern "C" fn glGetGraphicsResetStatusARB() -> GLenum {
    crate::current::reset_status()
}

/// `glClearColorIiEXT` (EXT_texture_integer): the clear colour of integer buffers, as
/// signed integers.
#[unsafe(no_mangle)]
pub extern "C" fn glClearColorIiEXT(red: GLint, green: GLint, blue: GLint, alpha: GLint) {
    gl_call("glClearColorIiEXT", (), |c| {
        c.clear_color_i(red, green, blue, alpha)
    })
}

/// `glClearColorIuiEXT` (EXT_texture_integer): the clear colour of integer buffers, as
/// unsigned integers.
#[unsafe(no_mangle)]
pub extern "C" fn glClearColorIuiEXT(red: GLuint, green: GLuint, blue: GLuint, alpha: GLuint) {
    gl_call("glClearColorIuiEXT", (), |c| {
        c.clear_color_ui(red, green, blue, alpha)
    })
}

/// `glBlendFunci` (GL 4.0): one draw buffer's blend factors.
#[unsafe(no_mangle)]
pub extern "C" fn glBlendFunci(buf: GLuint, sfactor: GLenum, dfactor: GLenum) {
    gl_call("glBlendFunci", (), |c| c.blend_funci(buf, sfactor, dfactor))
}

/// `glBlendFuncSeparatei` (GL 4.0): one draw buffer's RGB and alpha blend factors.
#[unsafe(no_mangle)]
pub extern "C" fn glBlendFuncSeparatei(
    buf: GLuint,
    src_rgb: GLenum,
    dst_rgb: GLenum,
    src_alpha: GLenum,
    dst_alpha: GLenum,
) {
    gl_call("glBlendFuncSeparatei", (), |c| {
        c.blend_func_separatei(buf, src_rgb, dst_rgb, src_alpha, dst_alpha)
    })
}

/// `glBlendEquationi` (GL 4.0): one draw buffer's blend equation.
#[unsafe(no_mangle)]
pub extern "C" fn glBlendEquationi(buf: GLuint, mode: GLenum) {
    gl_call("glBlendEquationi", (), |c| c.blend_equationi(buf, mode))
}

/// `glBlendEquationSeparatei` (GL 4.0): one draw buffer's RGB and alpha blend equations.
#[unsafe(no_mangle)]
pub extern "C" fn glBlendEquationSeparatei(buf: GLuint, mode_rgb: GLenum, mode_alpha: GLenum) {
    gl_call("glBlendEquationSeparatei", (), |c| {
        c.blend_equation_separatei(buf, mode_rgb, mode_alpha)
    })
}

/// `glBlendFunciARB` (ARB_draw_buffers_blend): [`glBlendFunci`].
#[unsafe(no_mangle)]
pub extern "C" fn glBlendFunciARB(buf: GLuint, sfactor: GLenum, dfactor: GLenum) {
    gl_call("glBlendFunciARB", (), |c| {
        c.blend_funci(buf, sfactor, dfactor)
    })
}

/// `glBlendFuncSeparateiARB` (ARB_draw_buffers_blend): [`glBlendFuncSeparatei`].
#[unsafe(no_mangle)]
pub extern "C" fn glBlendFuncSeparateiARB(
    buf: GLuint,
    src_rgb: GLenum,
    dst_rgb: GLenum,
    src_alpha: GLenum,
    dst_alpha: GLenum,
) {
    gl_call("glBlendFuncSeparateiARB", (), |c| {
        c.blend_func_separatei(buf, src_rgb, dst_rgb, src_alpha, dst_alpha)
    })
}

/// `glBlendEquationiARB` (ARB_draw_buffers_blend): [`glBlendEquationi`].
#[unsafe(no_mangle)]
pub extern "C" fn glBlendEquationiARB(buf: GLuint, mode: GLenum) {
    gl_call("glBlendEquationiARB", (), |c| c.blend_equationi(buf, mode))
}

/// `glBlendEquationSeparateiARB` (ARB_draw_buffers_blend): [`glBlendEquationSeparatei`].
#[unsafe(no_mangle)]
pub extern "C" fn glBlendEquationSeparateiARB(buf: GLuint, mode_rgb: GLenum, mode_alpha: GLenum) {
    gl_call("glBlendEquationSeparateiARB", (), |c| {
        c.blend_equation_separatei(buf, mode_rgb, mode_alpha)
    })
}

/// `glMinSampleShading` (GL 4.0): the fraction of samples shaded on their own.
#[unsafe(no_mangle)]
pub extern "C" fn glMinSampleShading(value: GLfloat) {
    gl_call("glMinSampleShading", (), |c| c.min_sample_shading(value))
}

/// `glMinSampleShadingARB` (ARB_sample_shading): [`glMinSampleShading`].
#[unsafe(no_mangle)]
pub extern "C" fn glMinSampleShadingARB(value: GLfloat) {
    gl_call("glMinSampleShadingARB", (), |c| c.min_sample_shading(value))
}

/// `glPolygonOffsetClamp` (GL 4.6, `ARB_polygon_offset_clamp`): the polygon offset with a
/// clamp of its magnitude.
#[unsafe(no_mangle)]
pub extern "C" fn glPolygonOffsetClamp(factor: GLfloat, units: GLfloat, clamp: GLfloat) {
    gl_call("glPolygonOffsetClamp", (), |c| {
        c.polygon_offset_clamp(factor, units, clamp)
    })
}

/// `glPolygonOffsetClampEXT` (`EXT_polygon_offset_clamp`): [`glPolygonOffsetClamp`].
#[unsafe(no_mangle)]
pub extern "C" fn glPolygonOffsetClampEXT(factor: GLfloat, units: GLfloat, clamp: GLfloat) {
    gl_call("glPolygonOffsetClampEXT", (), |c| {
        c.polygon_offset_clamp(factor, units, clamp)
    })
}

/// `glProvokingVertexEXT` (EXT_provoking_vertex): `glProvokingVertex`.
#[unsafe(no_mangle)]
pub extern "C" fn glProvokingVertexEXT(mode: GLenum) {
    gl_call("glProvokingVertexEXT", (), |c| c.provoking_vertex(mode))
}

/// `glFlush`; then the backend's events go to the log.
#[unsafe(no_mangle)]
pub extern "C" fn glFlush() {
    gl_call("glFlush", (), |c| {
        c.flush();
        events::drain(c);
    });
}

/// `glFinish`; then the backend's events go to the log.
#[unsafe(no_mangle)]
pub extern "C" fn glFinish() {
    gl_call("glFinish", (), |c| {
        c.finish();
        events::drain(c);
    });
}

/// Every string `glGetString(i)` returned so far (a few dozen at most: fixed strings, one
/// renderer per backend and device, the extension names).
static STRINGS: Mutex<Vec<&'static CStr>> = Mutex::new(Vec::new());

/// A process-lifetime NUL-terminated copy of `s` (the same pointer for equal strings).
fn intern(s: &str) -> *const GLubyte {
    let mut strings = STRINGS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(c) = strings.iter().find(|c| c.to_bytes() == s.as_bytes()) {
        return c.as_ptr().cast();
    }
    // GL strings never contain NUL; should one ever, it is cut there.
    let owned = CString::new(s.split('\0').next().unwrap_or_default()).unwrap_or_default();
    let leaked: &'static CStr = Box::leak(owned.into_boxed_c_str());
    strings.push(leaked);
    leaked.as_ptr().cast()
}

/// `glGetString`.
#[unsafe(no_mangle)]
pub extern "C" fn glGetString(name: GLenum) -> *const GLubyte {
    gl_call("glGetString", std::ptr::null(), |c| {
        c.get_string(name).map_or(std::ptr::null(), |s| intern(&s))
    })
}

/// `glGetStringi`.
#[unsafe(no_mangle)]
pub extern "C" fn glGetStringi(name: GLenum, index: GLuint) -> *const GLubyte {
    gl_call("glGetStringi", std::ptr::null(), |c| {
        c.get_stringi(name, index)
            .map_or(std::ptr::null(), |s| intern(&s))
    })
}

/// Writes the values of a state variable.
///
/// # Safety
/// A non-null `data` has room for `value.len` values.
unsafe fn write_values<T>(value: &Value, data: *mut T, convert: impl Fn(&Value, usize) -> T) {
    // SAFETY: forwarded contract.
    let out = unsafe { ptr::slice_mut(data, value.len) };
    for (i, o) in out.iter_mut().enumerate() {
        *o = convert(value, i);
    }
}

fn to_int(v: &Value, i: usize) -> GLint {
    v.as_i64(i).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as GLint
}

/// Defines a `glGet*v` that writes the state value's values converted by `$convert`.
macro_rules! getters {
    ($($name:ident($t:ty) => $convert:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(pname: GLenum, data: *mut $t) {
            gl_call(stringify!($name), (), |c| {
                if let Some(v) = c.get_value(pname) {
                    // SAFETY: GL contract: `data` has room for the values of `pname`.
                    unsafe { write_values(&v, data, $convert) };
                }
            });
        }
    )*};
}

getters! {
    glGetIntegerv(GLint) => to_int;
    glGetInteger64v(GLint64) => |v: &Value, i| v.as_i64(i);
    glGetFloatv(GLfloat) => |v: &Value, i| v.as_f64(i) as GLfloat;
    glGetDoublev(GLdouble) => |v: &Value, i| v.as_f64(i);
    glGetBooleanv(GLboolean) => |v: &Value, i| GLboolean::from(v.as_bool(i));
}

/// Values an indexed query writes: four for a colour write mask, a viewport or a scissor
/// box, two for a depth range, else one.
pub(super) fn indexed_values(target: GLenum) -> usize {
    match target {
        COLOR_WRITEMASK | VIEWPORT | SCISSOR_BOX => 4,
        DEPTH_RANGE => 2,
        _ => 1,
    }
}

/// `glGetIntegeri_v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetIntegeri_v(target: GLenum, index: GLuint, data: *mut GLint) {
    // SAFETY: GL contract: `data` has room for the values of `target`.
    let out = unsafe { ptr::slice_mut(data, indexed_values(target)) };
    gl_call("glGetIntegeri_v", (), |c| {
        c.get_integeri_v(target, index, out)
    });
}

/// `glGetInteger64i_v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetInteger64i_v(target: GLenum, index: GLuint, data: *mut GLint64) {
    // SAFETY: GL contract: `data` has room for the values of `target`.
    let out = unsafe { ptr::slice_mut(data, indexed_values(target)) };
    gl_call("glGetInteger64i_v", (), |c| {
        c.get_integer64i_v(target, index, out)
    });
}

/// `glGetBooleani_v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetBooleani_v(target: GLenum, index: GLuint, data: *mut GLboolean) {
    // SAFETY: GL contract: `data` has room for the values of `target`.
    let out = unsafe { ptr::slice_mut(data, indexed_values(target)) };
    gl_call("glGetBooleani_v", (), |c| {
        c.get_booleani_v(target, index, out)
    });
}

/// `glGetPointerv`: the debug callback and its user pointer (`KHR_debug`); any other
/// `pname` is `INVALID_ENUM`, nothing written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetPointerv(pname: GLenum, params: *mut *mut std::ffi::c_void) {
    let p = gl_call("glGetPointerv", None, |c| {
        let (p, failed) = raised(c, |c| c.get_pointerv(pname));
        (!failed).then_some(p)
    });
    if let Some(p) = p {
        // SAFETY: GL contract: `params` has room for one pointer.
        // The pointers were the application's, exposed when it gave them.
        unsafe { ptr::write(params, std::ptr::with_exposed_provenance_mut(p)) };
    }
}

/// `glPointParameterfv`: every point parameter of GL 3.3 is one value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glPointParameterfv(pname: GLenum, params: *const GLfloat) {
    // SAFETY: GL contract: `params` holds the parameter's value.
    let Some(&v) = (unsafe { ptr::slice(params, 1) }).first() else {
        return;
    };
    gl_call("glPointParameterfv", (), |c| c.point_parameterf(pname, v));
}

/// `glPointParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glPointParameteriv(pname: GLenum, params: *const GLint) {
    // SAFETY: GL contract: `params` holds the parameter's value.
    let Some(&v) = (unsafe { ptr::slice(params, 1) }).first() else {
        return;
    };
    gl_call("glPointParameteriv", (), |c| c.point_parameteri(pname, v));
}
