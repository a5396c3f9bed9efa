//! Transform feedback objects, pause and resume, draws of what a capture wrote and the
//! indexed queries (GL 4.0's `ARB_transform_feedback2` and `ARB_transform_feedback3`, 4.2's
//! `ARB_transform_feedback_instanced`): the entry points beyond 3.3 that the engine carries
//! out (`engine::transform_feedback`).

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glGenTransformFeedbacks`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGenTransformFeedbacks(n: GLsizei, ids: *mut GLuint) {
    // SAFETY: GL contract: `ids` holds `n` names.
    let out = unsafe { ptr::slice_mut(ids, ptr::len(n)) };
    gl_call("glGenTransformFeedbacks", (), |c| {
        c.gen_transform_feedbacks(n, out)
    });
}

/// `glDeleteTransformFeedbacks`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteTransformFeedbacks(n: GLsizei, ids: *const GLuint) {
    // SAFETY: GL contract: `ids` holds `n` names.
    let names = unsafe { ptr::slice(ids, ptr::len(n)) };
    gl_call("glDeleteTransformFeedbacks", (), |c| {
        c.delete_transform_feedbacks(n, names)
    });
}

/// `glBindTransformFeedback`.
#[unsafe(no_mangle)]
pub extern "C" fn glBindTransformFeedback(target: GLenum, id: GLuint) {
    gl_call("glBindTransformFeedback", (), |c| {
        c.bind_transform_feedback(target, id)
    });
}

/// `glIsTransformFeedback`.
#[unsafe(no_mangle)]
pub extern "C" fn glIsTransformFeedback(id: GLuint) -> GLboolean {
    gl_call("glIsTransformFeedback", 0, |c| c.is_transform_feedback(id))
}

/// `glPauseTransformFeedback`.
#[unsafe(no_mangle)]
pub extern "C" fn glPauseTransformFeedback() {
    gl_call("glPauseTransformFeedback", (), |c| {
        c.pause_transform_feedback()
    });
}

/// `glResumeTransformFeedback`.
#[unsafe(no_mangle)]
pub extern "C" fn glResumeTransformFeedback() {
    gl_call("glResumeTransformFeedback", (), |c| {
        c.resume_transform_feedback()
    });
}

/// `glDrawTransformFeedback`.
#[unsafe(no_mangle)]
pub extern "C" fn glDrawTransformFeedback(mode: GLenum, id: GLuint) {
    gl_call("glDrawTransformFeedback", (), |c| {
        c.draw_transform_feedback(mode, id)
    });
}

/// `glDrawTransformFeedbackInstanced`.
#[unsafe(no_mangle)]
pub extern "C" fn glDrawTransformFeedbackInstanced(mode: GLenum, id: GLuint, instances: GLsizei) {
    gl_call("glDrawTransformFeedbackInstanced", (), |c| {
        c.draw_transform_feedback_instanced(mode, id, instances)
    });
}

/// `glDrawTransformFeedbackStream`.
#[unsafe(no_mangle)]
pub extern "C" fn glDrawTransformFeedbackStream(mode: GLenum, id: GLuint, stream: GLuint) {
    gl_call("glDrawTransformFeedbackStream", (), |c| {
        c.draw_transform_feedback_stream(mode, id, stream)
    });
}

/// `glDrawTransformFeedbackStreamInstanced`.
#[unsafe(no_mangle)]
pub extern "C" fn glDrawTransformFeedbackStreamInstanced(
    mode: GLenum,
    id: GLuint,
    stream: GLuint,
    instances: GLsizei,
) {
    gl_call("glDrawTransformFeedbackStreamInstanced", (), |c| {
        c.draw_transform_feedback_stream_instanced(mode, id, stream, instances)
    });
}

/// `glBeginQueryIndexed`.
#[unsafe(no_mangle)]
pub extern "C" fn glBeginQueryIndexed(target: GLenum, index: GLuint, id: GLuint) {
    gl_call("glBeginQueryIndexed", (), |c| {
        c.begin_query_indexed(target, index, id)
    });
}

/// `glEndQueryIndexed`.
#[unsafe(no_mangle)]
pub extern "C" fn glEndQueryIndexed(target: GLenum, index: GLuint) {
    gl_call("glEndQueryIndexed", (), |c| {
        c.end_query_indexed(target, index)
    });
}

/// `glGetQueryIndexediv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetQueryIndexediv(
    target: GLenum,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every query parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetQueryIndexediv", (), |c| {
        c.get_query_indexediv(target, index, pname, out)
    });
}
