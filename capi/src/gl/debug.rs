//! `KHR_debug` (GL 4.3): debug messages, groups and object labels. The engine
//! (`tessera_engine::debug`) decides every error and keeps the state; here C pointers become
//! slices and strings, and the application's callback becomes a closure the engine calls on
//! the thread of the GL call, inside the call's panic guard. GL leaves calls made from the
//! callback undefined; here a GL or EGL call from it finds the thread's state busy and
//! returns its default at once (no deadlock, no re-entry into the engine). The GL registry
//! names no KHR-suffixed aliases of these functions for desktop GL (those are GLES's), so
//! there are none here.

use std::ffi::c_void;

use tessera_engine::debug::{DebugCallback, DebugMessage};

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `GLDEBUGPROC`.
pub type GlDebugProc = Option<
    unsafe extern "C" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const GLchar, *const c_void),
>;

/// Copies `text` into `out` as GL copies strings out: as much as fits before a NUL
/// terminator (nothing for an empty `out`). Returns the bytes copied, without the NUL.
fn copy_text(text: &str, out: &mut [u8]) -> usize {
    let Some(room) = out.len().checked_sub(1) else {
        return 0;
    };
    let n = text.len().min(room);
    out[..n].copy_from_slice(&text.as_bytes()[..n]);
    out[n] = 0;
    n
}

/// `glDebugMessageCallback`.
#[unsafe(no_mangle)]
pub extern "C" fn glDebugMessageCallback(callback: GlDebugProc, user_param: *const c_void) {
    let function = callback.map_or(0, |f| f as usize);
    let user = user_param.expose_provenance();
    let deliver = callback.map(|f| DebugCallback {
        deliver: Box::new(move |m: &DebugMessage| {
            let mut text = Vec::with_capacity(m.text.len() + 1);
            text.extend_from_slice(m.text.as_bytes());
            text.push(0);
            // SAFETY: `f` is the application's GLDEBUGPROC, called as KHR_debug defines:
            // `text` is NUL-terminated and lives until the call returns, `length` is its
            // length without the NUL, and `user` is the pointer the application gave.
            unsafe {
                f(
                    m.source,
                    m.ty,
                    m.id,
                    m.severity,
                    m.text.len() as GLsizei,
                    text.as_ptr().cast(),
                    std::ptr::with_exposed_provenance(user),
                );
            }
        }),
    });
    gl_call("glDebugMessageCallback", (), |c| {
        c.debug_message_callback(deliver, (function, user))
    });
}

/// `glDebugMessageControl`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDebugMessageControl(
    source: GLenum,
    ty: GLenum,
    severity: GLenum,
    count: GLsizei,
    ids: *const GLuint,
    enabled: GLboolean,
) {
    // SAFETY: GL contract: `ids` holds `count` ids.
    let ids = unsafe { ptr::slice(ids, ptr::len(count)) };
    gl_call("glDebugMessageControl", (), |c| {
        c.debug_message_control(source, ty, severity, count, ids, enabled != 0)
    });
}

/// `glDebugMessageInsert`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDebugMessageInsert(
    source: GLenum,
    ty: GLenum,
    id: GLuint,
    severity: GLenum,
    length: GLsizei,
    buf: *const GLchar,
) {
    // SAFETY: GL contract: `buf` holds `length` bytes, or is NUL-terminated if negative.
    let text = unsafe { ptr::string_n(buf, length) };
    gl_call("glDebugMessageInsert", (), |c| {
        c.debug_message_insert(source, ty, id, severity, &text)
    });
}

/// `glGetDebugMessageLog`: the arrays that are not null get one entry per message taken.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetDebugMessageLog(
    count: GLuint,
    buf_size: GLsizei,
    sources: *mut GLenum,
    types: *mut GLenum,
    ids: *mut GLuint,
    severities: *mut GLenum,
    lengths: *mut GLsizei,
    message_log: *mut GLchar,
) -> GLuint {
    let text_room = (!message_log.is_null()).then_some(buf_size);
    let messages = gl_call("glGetDebugMessageLog", Vec::new(), |c| {
        c.get_debug_message_log(count, text_room)
    });
    let n = messages.len();
    // SAFETY: GL contract: each non-null array has room for `count` entries (`n <= count`),
    // and `message_log` for `buf_size` bytes (the engine took only messages that fit).
    let (sources, types, ids, severities, lengths, text) = unsafe {
        (
            ptr::slice_mut(sources, n),
            ptr::slice_mut(types, n),
            ptr::slice_mut(ids, n),
            ptr::slice_mut(severities, n),
            ptr::slice_mut(lengths, n),
            ptr::slice_mut(message_log.cast::<u8>(), ptr::len(buf_size)),
        )
    };
    let mut at = 0;
    for (i, m) in messages.iter().enumerate() {
        for (array, value) in [
            (&mut *sources, m.source),
            (&mut *types, m.ty),
            (&mut *ids, m.id),
            (&mut *severities, m.severity),
        ] {
            if let Some(slot) = array.get_mut(i) {
                *slot = value;
            }
        }
        if let Some(slot) = lengths.get_mut(i) {
            *slot = m.text.len() as GLsizei + 1;
        }
        if let Some(room) = text.get_mut(at..) {
            at += copy_text(&m.text, room) + 1;
        }
    }
    n as GLuint
}

/// `glPushDebugGroup`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glPushDebugGroup(
    source: GLenum,
    id: GLuint,
    length: GLsizei,
    message: *const GLchar,
) {
    // SAFETY: GL contract: `message` holds `length` bytes, or is NUL-terminated if negative.
    let text = unsafe { ptr::string_n(message, length) };
    gl_call("glPushDebugGroup", (), |c| {
        c.push_debug_group(source, id, &text)
    });
}

/// `glPopDebugGroup`.
#[unsafe(no_mangle)]
pub extern "C" fn glPopDebugGroup() {
    gl_call("glPopDebugGroup", (), |c| c.pop_debug_group());
}

/// A label argument: `None` (remove the label) for a null pointer.
///
/// # Safety
/// A non-null `label` holds `length` bytes, or is NUL-terminated if `length` is negative.
unsafe fn label_in<'a>(length: GLsizei, label: *const GLchar) -> Option<std::borrow::Cow<'a, str>> {
    // SAFETY: forwarded contract.
    (!label.is_null()).then(|| unsafe { ptr::string_n(label, length) })
}

/// Writes a label out as `glGetObjectLabel` does: what fits of it into `label`, and into
/// `length` the bytes written (the label's whole length, as native Mesa, when `label` is
/// null or `buf_size` is 0).
///
/// # Safety
/// A non-null `label` has room for `buf_size` bytes; a non-null `length` for one value.
unsafe fn label_out(text: &str, buf_size: GLsizei, length: *mut GLsizei, label: *mut GLchar) {
    let written = if label.is_null() || buf_size == 0 {
        text.len()
    } else {
        // SAFETY: forwarded contract.
        copy_text(text, unsafe {
            ptr::slice_mut(label.cast::<u8>(), ptr::len(buf_size))
        })
    };
    // SAFETY: forwarded contract.
    unsafe { ptr::write(length, written as GLsizei) };
}

/// `glObjectLabel`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glObjectLabel(
    identifier: GLenum,
    name: GLuint,
    length: GLsizei,
    label: *const GLchar,
) {
    // SAFETY: GL contract, as `label_in` requires.
    let label = unsafe { label_in(length, label) };
    gl_call("glObjectLabel", (), |c| {
        c.object_label(identifier, name, label.as_deref())
    });
}

/// `glGetObjectLabel`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetObjectLabel(
    identifier: GLenum,
    name: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    label: *mut GLchar,
) {
    let text = gl_call("glGetObjectLabel", None, |c| {
        c.get_object_label(identifier, name, buf_size)
    });
    if let Some(text) = text {
        // SAFETY: GL contract: `label` has room for `buf_size` bytes, `length` for one.
        unsafe { label_out(&text, buf_size, length, label) };
    }
}

/// `glObjectPtrLabel`: `ptr` is a `GLsync`, the only kind of object named by a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glObjectPtrLabel(
    ptr: *const c_void,
    length: GLsizei,
    label: *const GLchar,
) {
    // SAFETY: GL contract, as `label_in` requires.
    let label = unsafe { label_in(length, label) };
    gl_call("glObjectPtrLabel", (), |c| {
        c.object_ptr_label(ptr as usize as u64, label.as_deref())
    });
}

/// `glGetObjectPtrLabel`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetObjectPtrLabel(
    ptr: *const c_void,
    buf_size: GLsizei,
    length: *mut GLsizei,
    label: *mut GLchar,
) {
    let text = gl_call("glGetObjectPtrLabel", None, |c| {
        c.get_object_ptr_label(ptr as usize as u64, buf_size)
    });
    if let Some(text) = text {
        // SAFETY: GL contract: `label` has room for `buf_size` bytes, `length` for one.
        unsafe { label_out(&text, buf_size, length, label) };
    }
}
