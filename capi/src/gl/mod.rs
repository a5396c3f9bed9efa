//! The OpenGL 3.3 core entry points.
//!
//! `generated.rs` (from `glcorearb.h`, by `capi/tools/gen_gl.py`) has the table of all 345
//! functions of GL 1.0-3.3 and the entry points whose arguments are all scalars; the
//! modules here have the entry points with pointers, grouped by domain. Each forwards to
//! the engine method of the same name through [`gl_call`](crate::current::gl_call).
//!
//! Every other GL function of the Khronos registry (compatibility, 4.x, extensions) has a
//! stub in `stubs.rs` (generated too): `eglGetProcAddress` returns it, and calling it
//! records `GL_INVALID_OPERATION` (see [`unimplemented`]).
//!
//! ## Safety
//! Every `unsafe extern "C" fn` here has the same contract, the GL specification's: each
//! pointer argument is null where the function allows it, or valid for the reads or writes
//! the specification of the function defines for the given arguments and GL state (for
//! example `n` names for `glGenBuffers`, the pixels the unpack state describes for
//! `glTexImage2D`, the values `pname` has for `glGetIntegerv`). The pointer is not used
//! after the call returns, except the one `glMapBuffer*` returns, which GL itself defines.

#![allow(non_snake_case, reason = "exported under the GL names")]
#![allow(
    clippy::missing_safety_doc,
    reason = "one contract for every entry point, documented on this module"
)]

mod buffer;
mod clear_buffer;
mod clear_texture;
mod compute;
pub mod debug;
mod direct_state;
mod es2_compat;
mod fp64;
mod framebuffer;
mod framebuffer_defaults;
pub mod generated;
mod internalformat;
mod invalidate;
mod memory_object;
mod multi_bind;
mod named_framebuffer;
mod pipeline;
mod program;
mod program_interface;
mod query;
mod robustness;
mod semaphore;
mod state;
pub mod stubs;
mod subroutine;
mod tessellation;
mod tex_storage;
mod texture;
mod texture_buffer;
mod transform_feedback;
pub mod types;
pub mod unimplemented;
mod vertex;
mod viewport;

use std::ffi::c_void;

use types::{
    GLbitfield, GLboolean, GLchar, GLdouble, GLenum, GLfloat, GLint, GLint64, GLintptr, GLsizei,
    GLsizeiptr, GLuint,
};

pub use buffer::*;
pub use clear_buffer::*;
pub use clear_texture::*;
pub use compute::*;
pub use debug::*;
pub use direct_state::*;
pub use es2_compat::*;
pub use fp64::*;
pub use framebuffer::*;
pub use framebuffer_defaults::*;
pub use generated::*;
pub use internalformat::*;
pub use invalidate::*;
pub use memory_object::*;
pub use multi_bind::*;
pub use named_framebuffer::*;
pub use pipeline::*;
pub use program::*;
pub use program_interface::*;
pub use query::*;
pub use robustness::*;
pub use semaphore::*;
pub use state::*;
pub use subroutine::*;
pub use tessellation::*;
pub use tex_storage::*;
pub use texture::*;
pub use texture_buffer::*;
pub use transform_feedback::*;
pub use vertex::*;
pub use viewport::*;

/// The functions beyond OpenGL 3.3 that Tessera carries out (written by hand; the generated
/// table holds 1.0-3.3), sorted by name: `KHR_robustness`'s reset status and
/// bounds-checked getters ([`robustness`]), `KHR_debug`'s functions ([`debug`]), GL 4.3's
/// compute and storage-block functions ([`compute`]), program interface queries
/// ([`program_interface`]), program binaries (GL 4.1, `program`), program pipelines and
/// separable programs (GL 4.1, `pipeline`),
/// immutable texture storage and image copies ([`tex_storage`]), indirect draws and base
/// instances (GL 4.0-4.3, `vertex`), vertex attribute binding points (GL 4.3, `vertex`),
/// per-draw-buffer blend functions (GL 4.0 and `ARB_draw_buffers_blend`'s names, `state`),
/// `glMinSampleShading` (GL 4.0 and `ARB_sample_shading`'s name, `state`), double-precision
/// uniforms and vertex attributes (GL 4.0 and 4.1, [`fp64`]),
/// `ARB_ES2_compatibility`'s functions (GL 4.1, [`es2_compat`]), buffer clears (GL 4.3,
/// [`clear_buffer`]), invalidation (GL 4.3, [`invalidate`]), buffer texture ranges (GL 4.3,
/// [`texture_buffer`]),
/// shader subroutines (GL 4.0, [`subroutine`]), viewport arrays (GL 4.1, [`viewport`]),
/// `glClipControl` (GL 4.5, [`viewport`]), `glPolygonOffsetClamp` (GL 4.6, `state`),
/// multi-bind (GL 4.4, [`multi_bind`]), texture clears (GL 4.4, [`clear_texture`]),
/// framebuffers without attachments (GL 4.3, [`framebuffer_defaults`]), internal-format
/// queries (GL 4.2 and 4.3, [`internalformat`]),
/// transform feedback objects and the indexed queries (GL 4.0 and 4.2,
/// [`transform_feedback`]),
/// immutable buffer storage (GL 4.4, [`buffer`]) and the buffer functions of direct state
/// access (GL 4.5, [`buffer`], [`clear_buffer`]),
/// and the EXT names
/// of core functions that the advertised EXT extensions bring (`GL_EXT_texture_integer`,
/// `GL_EXT_texture_array`, `GL_EXT_provoking_vertex`; `engine::get::EXTENSION_NAMES`). `eglGetProcAddress` looks here after
/// [`GL_FUNCTIONS`] and before the stubs of [`unimplemented`].
pub static BEYOND_3_3: [(&str, Proc); 359] = [
    (
        "glActiveShaderProgram",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glActiveShaderProgram;
            F as *const c_void
        }),
    ),
    (
        "glBeginConditionalRenderNV",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) = glBeginConditionalRenderNV;
            F as *const c_void
        }),
    ),
    (
        "glBeginQueryIndexed",
        Proc({
            const F: extern "C" fn(GLenum, GLuint, GLuint) = glBeginQueryIndexed;
            F as *const c_void
        }),
    ),
    (
        "glBindBuffersBase",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, GLsizei, *const GLuint) =
                glBindBuffersBase;
            F as *const c_void
        }),
    ),
    (
        "glBindBuffersRange",
        Proc({
            const F: unsafe extern "C" fn(
                GLenum,
                GLuint,
                GLsizei,
                *const GLuint,
                *const GLintptr,
                *const GLsizeiptr,
            ) = glBindBuffersRange;
            F as *const c_void
        }),
    ),
    (
        "glBindImageTexture",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLint, GLboolean, GLint, GLenum, GLenum) =
                glBindImageTexture;
            F as *const c_void
        }),
    ),
    (
        "glBindImageTextures",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLuint) = glBindImageTextures;
            F as *const c_void
        }),
    ),
    (
        "glBindProgramPipeline",
        Proc({
            const F: extern "C" fn(GLuint) = glBindProgramPipeline;
            F as *const c_void
        }),
    ),
    (
        "glBindSamplers",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLuint) = glBindSamplers;
            F as *const c_void
        }),
    ),
    (
        "glBindTextureUnit",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glBindTextureUnit;
            F as *const c_void
        }),
    ),
    (
        "glBindTextures",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLuint) = glBindTextures;
            F as *const c_void
        }),
    ),
    (
        "glBindTransformFeedback",
        Proc({
            const F: extern "C" fn(GLenum, GLuint) = glBindTransformFeedback;
            F as *const c_void
        }),
    ),
    (
        "glBindVertexBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLintptr, GLsizei) = glBindVertexBuffer;
            F as *const c_void
        }),
    ),
    (
        "glBindVertexBuffers",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLsizei,
                *const GLuint,
                *const GLintptr,
                *const GLsizei,
            ) = glBindVertexBuffers;
            F as *const c_void
        }),
    ),
    (
        "glBlendEquationSeparatei",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum) = glBlendEquationSeparatei;
            F as *const c_void
        }),
    ),
    (
        "glBlendEquationSeparateiARB",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum) = glBlendEquationSeparateiARB;
            F as *const c_void
        }),
    ),
    (
        "glBlendEquationi",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) = glBlendEquationi;
            F as *const c_void
        }),
    ),
    (
        "glBlendEquationiARB",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) = glBlendEquationiARB;
            F as *const c_void
        }),
    ),
    (
        "glBlendFuncSeparatei",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum, GLenum, GLenum) = glBlendFuncSeparatei;
            F as *const c_void
        }),
    ),
    (
        "glBlendFuncSeparateiARB",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum, GLenum, GLenum) =
                glBlendFuncSeparateiARB;
            F as *const c_void
        }),
    ),
    (
        "glBlendFunci",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum) = glBlendFunci;
            F as *const c_void
        }),
    ),
    (
        "glBlendFunciARB",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum) = glBlendFunciARB;
            F as *const c_void
        }),
    ),
    (
        "glBlitNamedFramebuffer",
        Proc({
            const F: extern "C" fn(
                GLuint,
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLbitfield,
                GLenum,
            ) = glBlitNamedFramebuffer;
            F as *const c_void
        }),
    ),
    (
        "glBufferStorage",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizeiptr, *const c_void, GLbitfield) =
                glBufferStorage;
            F as *const c_void
        }),
    ),
    (
        "glCheckNamedFramebufferStatus",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) -> GLenum = glCheckNamedFramebufferStatus;
            F as *const c_void
        }),
    ),
    (
        "glClearBufferData",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, GLenum, GLenum, *const c_void) =
                glClearBufferData;
            F as *const c_void
        }),
    ),
    (
        "glClearBufferSubData",
        Proc({
            const F: unsafe extern "C" fn(
                GLenum,
                GLenum,
                GLintptr,
                GLsizeiptr,
                GLenum,
                GLenum,
                *const c_void,
            ) = glClearBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glClearColorIiEXT",
        Proc({
            const F: extern "C" fn(GLint, GLint, GLint, GLint) = glClearColorIiEXT;
            F as *const c_void
        }),
    ),
    (
        "glClearColorIuiEXT",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint, GLuint) = glClearColorIuiEXT;
            F as *const c_void
        }),
    ),
    (
        "glClearDepthf",
        Proc({
            const F: extern "C" fn(GLfloat) = glClearDepthf;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedBufferData",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLenum, GLenum, *const c_void) =
                glClearNamedBufferData;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedBufferSubData",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLenum,
                GLintptr,
                GLsizeiptr,
                GLenum,
                GLenum,
                *const c_void,
            ) = glClearNamedBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedFramebufferfi",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLint, GLfloat, GLint) =
                glClearNamedFramebufferfi;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedFramebufferfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLint, *const GLfloat) =
                glClearNamedFramebufferfv;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedFramebufferiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLint, *const GLint) =
                glClearNamedFramebufferiv;
            F as *const c_void
        }),
    ),
    (
        "glClearNamedFramebufferuiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLint, *const GLuint) =
                glClearNamedFramebufferuiv;
            F as *const c_void
        }),
    ),
    (
        "glClearTexImage",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLenum, GLenum, *const c_void) =
                glClearTexImage;
            F as *const c_void
        }),
    ),
    (
        "glClearTexSubImage",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                *const c_void,
            ) = glClearTexSubImage;
            F as *const c_void
        }),
    ),
    (
        "glClipControl",
        Proc({
            const F: extern "C" fn(GLenum, GLenum) = glClipControl;
            F as *const c_void
        }),
    ),
    (
        "glCompressedTextureSubImage1D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLsizei,
                GLenum,
                GLsizei,
                *const c_void,
            ) = glCompressedTextureSubImage1D;
            F as *const c_void
        }),
    ),
    (
        "glCompressedTextureSubImage2D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLenum,
                GLsizei,
                *const c_void,
            ) = glCompressedTextureSubImage2D;
            F as *const c_void
        }),
    ),
    (
        "glCompressedTextureSubImage3D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLsizei,
                *const c_void,
            ) = glCompressedTextureSubImage3D;
            F as *const c_void
        }),
    ),
    (
        "glCopyImageSubData",
        Proc({
            const F: extern "C" fn(
                GLuint,
                GLenum,
                GLint,
                GLint,
                GLint,
                GLint,
                GLuint,
                GLenum,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
            ) = glCopyImageSubData;
            F as *const c_void
        }),
    ),
    (
        "glCopyNamedBufferSubData",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLintptr, GLintptr, GLsizeiptr) =
                glCopyNamedBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glCopyTextureSubImage1D",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint, GLint, GLsizei) =
                glCopyTextureSubImage1D;
            F as *const c_void
        }),
    ),
    (
        "glCopyTextureSubImage2D",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint, GLint, GLint, GLsizei, GLsizei) =
                glCopyTextureSubImage2D;
            F as *const c_void
        }),
    ),
    (
        "glCopyTextureSubImage3D",
        Proc({
            const F: extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
            ) = glCopyTextureSubImage3D;
            F as *const c_void
        }),
    ),
    (
        "glCreateBuffers",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateBuffers;
            F as *const c_void
        }),
    ),
    (
        "glCreateFramebuffers",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateFramebuffers;
            F as *const c_void
        }),
    ),
    (
        "glCreateMemoryObjectsEXT",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateMemoryObjectsEXT;
            F as *const c_void
        }),
    ),
    (
        "glCreateProgramPipelines",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateProgramPipelines;
            F as *const c_void
        }),
    ),
    (
        "glCreateQueries",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, *mut GLuint) = glCreateQueries;
            F as *const c_void
        }),
    ),
    (
        "glCreateRenderbuffers",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateRenderbuffers;
            F as *const c_void
        }),
    ),
    (
        "glCreateSamplers",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateSamplers;
            F as *const c_void
        }),
    ),
    (
        "glCreateShaderProgramv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, *const *const GLchar) -> GLuint =
                glCreateShaderProgramv;
            F as *const c_void
        }),
    ),
    (
        "glCreateTextures",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, *mut GLuint) = glCreateTextures;
            F as *const c_void
        }),
    ),
    (
        "glCreateTransformFeedbacks",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateTransformFeedbacks;
            F as *const c_void
        }),
    ),
    (
        "glCreateVertexArrays",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glCreateVertexArrays;
            F as *const c_void
        }),
    ),
    (
        "glDebugMessageCallback",
        Proc({
            const F: extern "C" fn(GlDebugProc, *const c_void) = glDebugMessageCallback;
            F as *const c_void
        }),
    ),
    (
        "glDebugMessageControl",
        Proc({
            const F: unsafe extern "C" fn(
                GLenum,
                GLenum,
                GLenum,
                GLsizei,
                *const GLuint,
                GLboolean,
            ) = glDebugMessageControl;
            F as *const c_void
        }),
    ),
    (
        "glDebugMessageInsert",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const GLchar) =
                glDebugMessageInsert;
            F as *const c_void
        }),
    ),
    (
        "glDeleteMemoryObjectsEXT",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *const GLuint) = glDeleteMemoryObjectsEXT;
            F as *const c_void
        }),
    ),
    (
        "glDeleteProgramPipelines",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *const GLuint) = glDeleteProgramPipelines;
            F as *const c_void
        }),
    ),
    (
        "glDeleteSemaphoresEXT",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *const GLuint) = glDeleteSemaphoresEXT;
            F as *const c_void
        }),
    ),
    (
        "glDeleteTransformFeedbacks",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *const GLuint) = glDeleteTransformFeedbacks;
            F as *const c_void
        }),
    ),
    (
        "glDepthRangeArrayv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLdouble) = glDepthRangeArrayv;
            F as *const c_void
        }),
    ),
    (
        "glDepthRangeIndexed",
        Proc({
            const F: extern "C" fn(GLuint, GLdouble, GLdouble) = glDepthRangeIndexed;
            F as *const c_void
        }),
    ),
    (
        "glDepthRangef",
        Proc({
            const F: extern "C" fn(GLfloat, GLfloat) = glDepthRangef;
            F as *const c_void
        }),
    ),
    (
        "glDisableVertexArrayAttrib",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glDisableVertexArrayAttrib;
            F as *const c_void
        }),
    ),
    (
        "glDispatchCompute",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint) = glDispatchCompute;
            F as *const c_void
        }),
    ),
    (
        "glDispatchComputeIndirect",
        Proc({
            const F: extern "C" fn(GLintptr) = glDispatchComputeIndirect;
            F as *const c_void
        }),
    ),
    (
        "glDrawArraysIndirect",
        Proc({
            const F: extern "C" fn(GLenum, *const c_void) = glDrawArraysIndirect;
            F as *const c_void
        }),
    ),
    (
        "glDrawArraysInstancedBaseInstance",
        Proc({
            const F: extern "C" fn(GLenum, GLint, GLsizei, GLsizei, GLuint) =
                glDrawArraysInstancedBaseInstance;
            F as *const c_void
        }),
    ),
    (
        "glDrawElementsIndirect",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, *const c_void) = glDrawElementsIndirect;
            F as *const c_void
        }),
    ),
    (
        "glDrawElementsInstancedBaseInstance",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, GLenum, *const c_void, GLsizei, GLuint) =
                glDrawElementsInstancedBaseInstance;
            F as *const c_void
        }),
    ),
    (
        "glDrawElementsInstancedBaseVertexBaseInstance",
        Proc({
            const F: unsafe extern "C" fn(
                GLenum,
                GLsizei,
                GLenum,
                *const c_void,
                GLsizei,
                GLint,
                GLuint,
            ) = glDrawElementsInstancedBaseVertexBaseInstance;
            F as *const c_void
        }),
    ),
    (
        "glDrawTransformFeedback",
        Proc({
            const F: extern "C" fn(GLenum, GLuint) = glDrawTransformFeedback;
            F as *const c_void
        }),
    ),
    (
        "glDrawTransformFeedbackInstanced",
        Proc({
            const F: extern "C" fn(GLenum, GLuint, GLsizei) = glDrawTransformFeedbackInstanced;
            F as *const c_void
        }),
    ),
    (
        "glDrawTransformFeedbackStream",
        Proc({
            const F: extern "C" fn(GLenum, GLuint, GLuint) = glDrawTransformFeedbackStream;
            F as *const c_void
        }),
    ),
    (
        "glDrawTransformFeedbackStreamInstanced",
        Proc({
            const F: extern "C" fn(GLenum, GLuint, GLuint, GLsizei) =
                glDrawTransformFeedbackStreamInstanced;
            F as *const c_void
        }),
    ),
    (
        "glEGLImageTargetRenderbufferStorageOES",
        Proc({
            const F: extern "C" fn(GLenum, *mut c_void) =
                crate::egl::glEGLImageTargetRenderbufferStorageOES;
            F as *const c_void
        }),
    ),
    (
        "glEGLImageTargetTexture2DOES",
        Proc({
            const F: extern "C" fn(GLenum, *mut c_void) = crate::egl::glEGLImageTargetTexture2DOES;
            F as *const c_void
        }),
    ),
    (
        "glEnableVertexArrayAttrib",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glEnableVertexArrayAttrib;
            F as *const c_void
        }),
    ),
    (
        "glEndConditionalRenderNV",
        Proc({
            const F: extern "C" fn() = glEndConditionalRenderNV;
            F as *const c_void
        }),
    ),
    (
        "glEndQueryIndexed",
        Proc({
            const F: extern "C" fn(GLenum, GLuint) = glEndQueryIndexed;
            F as *const c_void
        }),
    ),
    (
        "glFlushMappedNamedBufferRange",
        Proc({
            const F: extern "C" fn(GLuint, GLintptr, GLsizeiptr) = glFlushMappedNamedBufferRange;
            F as *const c_void
        }),
    ),
    (
        "glFramebufferParameteri",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, GLint) = glFramebufferParameteri;
            F as *const c_void
        }),
    ),
    (
        "glFramebufferTextureLayerEXT",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, GLuint, GLint, GLint) =
                glFramebufferTextureLayerEXT;
            F as *const c_void
        }),
    ),
    (
        "glGenProgramPipelines",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glGenProgramPipelines;
            F as *const c_void
        }),
    ),
    (
        "glGenSemaphoresEXT",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glGenSemaphoresEXT;
            F as *const c_void
        }),
    ),
    (
        "glGenTransformFeedbacks",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *mut GLuint) = glGenTransformFeedbacks;
            F as *const c_void
        }),
    ),
    (
        "glGenerateTextureMipmap",
        Proc({
            const F: extern "C" fn(GLuint) = glGenerateTextureMipmap;
            F as *const c_void
        }),
    ),
    (
        "glGetActiveAtomicCounterBufferiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLuint, GLenum, *mut GLint) =
                glGetActiveAtomicCounterBufferiv;
            F as *const c_void
        }),
    ),
    (
        "glGetActiveSubroutineName",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLenum,
                GLuint,
                GLsizei,
                *mut GLsizei,
                *mut GLchar,
            ) = glGetActiveSubroutineName;
            F as *const c_void
        }),
    ),
    (
        "glGetActiveSubroutineUniformName",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLenum,
                GLuint,
                GLsizei,
                *mut GLsizei,
                *mut GLchar,
            ) = glGetActiveSubroutineUniformName;
            F as *const c_void
        }),
    ),
    (
        "glGetActiveSubroutineUniformiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLuint, GLenum, *mut GLint) =
                glGetActiveSubroutineUniformiv;
            F as *const c_void
        }),
    ),
    (
        "glGetCompressedTextureImage",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut c_void) =
                glGetCompressedTextureImage;
            F as *const c_void
        }),
    ),
    (
        "glGetCompressedTextureSubImage",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLsizei,
                *mut c_void,
            ) = glGetCompressedTextureSubImage;
            F as *const c_void
        }),
    ),
    (
        "glGetDebugMessageLog",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLsizei,
                *mut GLenum,
                *mut GLenum,
                *mut GLuint,
                *mut GLenum,
                *mut GLsizei,
                *mut GLchar,
            ) -> GLuint = glGetDebugMessageLog;
            F as *const c_void
        }),
    ),
    (
        "glGetDoublei_v",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, *mut GLdouble) = glGetDoublei_v;
            F as *const c_void
        }),
    ),
    (
        "glGetFloati_v",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, *mut GLfloat) = glGetFloati_v;
            F as *const c_void
        }),
    ),
    (
        "glGetFramebufferParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *mut GLint) = glGetFramebufferParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetGraphicsResetStatus",
        Proc({
            const F: extern "C" fn() -> GLenum = glGetGraphicsResetStatus;
            F as *const c_void
        }),
    ),
    (
        "glGetGraphicsResetStatusARB",
        Proc({
            const F: extern "C" fn() -> GLenum = glGetGraphicsResetStatusARB;
            F as *const c_void
        }),
    ),
    (
        "glGetInternalformati64v",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, GLenum, GLsizei, *mut i64) =
                glGetInternalformati64v;
            F as *const c_void
        }),
    ),
    (
        "glGetInternalformativ",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, GLenum, GLsizei, *mut GLint) =
                glGetInternalformativ;
            F as *const c_void
        }),
    ),
    (
        "glGetMemoryObjectParameterivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) =
                glGetMemoryObjectParameterivEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedBufferParameteri64v",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint64) =
                glGetNamedBufferParameteri64v;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedBufferParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetNamedBufferParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedBufferPointerv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut *mut c_void) =
                glGetNamedBufferPointerv;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedBufferSubData",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLintptr, GLsizeiptr, *mut c_void) =
                glGetNamedBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedFramebufferAttachmentParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLenum, *mut GLint) =
                glGetNamedFramebufferAttachmentParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedFramebufferParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) =
                glGetNamedFramebufferParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetNamedRenderbufferParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) =
                glGetNamedRenderbufferParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetObjectLabel",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, GLsizei, *mut GLsizei, *mut GLchar) =
                glGetObjectLabel;
            F as *const c_void
        }),
    ),
    (
        "glGetObjectPtrLabel",
        Proc({
            const F: unsafe extern "C" fn(*const c_void, GLsizei, *mut GLsizei, *mut GLchar) =
                glGetObjectPtrLabel;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramBinary",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *mut GLsizei, *mut GLenum, *mut c_void) =
                glGetProgramBinary;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramInterfaceiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLenum, *mut GLint) =
                glGetProgramInterfaceiv;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramPipelineInfoLog",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *mut GLsizei, *mut GLchar) =
                glGetProgramPipelineInfoLog;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramPipelineiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetProgramPipelineiv;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramResourceIndex",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLchar) -> GLuint =
                glGetProgramResourceIndex;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramResourceLocation",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLchar) -> GLint =
                glGetProgramResourceLocation;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramResourceLocationIndex",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLchar) -> GLint =
                glGetProgramResourceLocationIndex;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramResourceName",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLenum,
                GLuint,
                GLsizei,
                *mut GLsizei,
                *mut GLchar,
            ) = glGetProgramResourceName;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramResourceiv",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLenum,
                GLuint,
                GLsizei,
                *const GLenum,
                GLsizei,
                *mut GLsizei,
                *mut GLint,
            ) = glGetProgramResourceiv;
            F as *const c_void
        }),
    ),
    (
        "glGetProgramStageiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLenum, *mut GLint) = glGetProgramStageiv;
            F as *const c_void
        }),
    ),
    (
        "glGetQueryBufferObjecti64v",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLenum, GLintptr) = glGetQueryBufferObjecti64v;
            F as *const c_void
        }),
    ),
    (
        "glGetQueryBufferObjectiv",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLenum, GLintptr) = glGetQueryBufferObjectiv;
            F as *const c_void
        }),
    ),
    (
        "glGetQueryBufferObjectui64v",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLenum, GLintptr) = glGetQueryBufferObjectui64v;
            F as *const c_void
        }),
    ),
    (
        "glGetQueryBufferObjectuiv",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLenum, GLintptr) = glGetQueryBufferObjectuiv;
            F as *const c_void
        }),
    ),
    (
        "glGetQueryIndexediv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, GLenum, *mut GLint) = glGetQueryIndexediv;
            F as *const c_void
        }),
    ),
    (
        "glGetSemaphoreParameterui64vEXT",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut u64) =
                glGetSemaphoreParameterui64vEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetShaderPrecisionFormat",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *mut GLint, *mut GLint) =
                glGetShaderPrecisionFormat;
            F as *const c_void
        }),
    ),
    (
        "glGetSubroutineIndex",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLchar) -> GLuint =
                glGetSubroutineIndex;
            F as *const c_void
        }),
    ),
    (
        "glGetSubroutineUniformLocation",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLchar) -> GLint =
                glGetSubroutineUniformLocation;
            F as *const c_void
        }),
    ),
    (
        "glGetTexParameterIivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *mut GLint) = glGetTexParameterIivEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetTexParameterIuivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *mut GLuint) = glGetTexParameterIuivEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureImage",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLenum, GLenum, GLsizei, *mut c_void) =
                glGetTextureImage;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureLevelParameterfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLenum, *mut GLfloat) =
                glGetTextureLevelParameterfv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureLevelParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLenum, *mut GLint) =
                glGetTextureLevelParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureParameterIiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetTextureParameterIiv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureParameterIuiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLuint) = glGetTextureParameterIuiv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureParameterfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLfloat) = glGetTextureParameterfv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetTextureParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glGetTextureSubImage",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                GLsizei,
                *mut c_void,
            ) = glGetTextureSubImage;
            F as *const c_void
        }),
    ),
    (
        "glGetTransformFeedbacki64_v",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLuint, *mut GLint64) =
                glGetTransformFeedbacki64_v;
            F as *const c_void
        }),
    ),
    (
        "glGetTransformFeedbacki_v",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, GLuint, *mut GLint) =
                glGetTransformFeedbacki_v;
            F as *const c_void
        }),
    ),
    (
        "glGetTransformFeedbackiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetTransformFeedbackiv;
            F as *const c_void
        }),
    ),
    (
        "glGetUniformSubroutineuiv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLint, *mut GLuint) = glGetUniformSubroutineuiv;
            F as *const c_void
        }),
    ),
    (
        "glGetUniformdv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, *mut GLdouble) = glGetUniformdv;
            F as *const c_void
        }),
    ),
    (
        "glGetUnsignedBytei_vEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, *mut u8) = glGetUnsignedBytei_vEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetUnsignedBytevEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, *mut u8) = glGetUnsignedBytevEXT;
            F as *const c_void
        }),
    ),
    (
        "glGetVertexArrayIndexed64iv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLuint, GLenum, *mut GLint64) =
                glGetVertexArrayIndexed64iv;
            F as *const c_void
        }),
    ),
    (
        "glGetVertexArrayIndexediv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLuint, GLenum, *mut GLint) =
                glGetVertexArrayIndexediv;
            F as *const c_void
        }),
    ),
    (
        "glGetVertexArrayiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLint) = glGetVertexArrayiv;
            F as *const c_void
        }),
    ),
    (
        "glGetVertexAttribLdv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *mut GLdouble) = glGetVertexAttribLdv;
            F as *const c_void
        }),
    ),
    (
        "glGetnCompressedTexImage",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLint, GLsizei, *mut c_void) =
                glGetnCompressedTexImage;
            F as *const c_void
        }),
    ),
    (
        "glGetnCompressedTexImageARB",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLint, GLsizei, *mut c_void) =
                glGetnCompressedTexImageARB;
            F as *const c_void
        }),
    ),
    (
        "glGetnTexImage",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLint, GLenum, GLenum, GLsizei, *mut c_void) =
                glGetnTexImage;
            F as *const c_void
        }),
    ),
    (
        "glGetnTexImageARB",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLint, GLenum, GLenum, GLsizei, *mut c_void) =
                glGetnTexImageARB;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformdv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLdouble) = glGetnUniformdv;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformdvARB",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLdouble) =
                glGetnUniformdvARB;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLfloat) = glGetnUniformfv;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformfvARB",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLfloat) =
                glGetnUniformfvARB;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLint) = glGetnUniformiv;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformivARB",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLint) = glGetnUniformivARB;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformuiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLuint) = glGetnUniformuiv;
            F as *const c_void
        }),
    ),
    (
        "glGetnUniformuivARB",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *mut GLuint) =
                glGetnUniformuivARB;
            F as *const c_void
        }),
    ),
    (
        "glImportMemoryFdEXT",
        Proc({
            const F: extern "C" fn(GLuint, u64, GLenum, GLint) = glImportMemoryFdEXT;
            F as *const c_void
        }),
    ),
    (
        "glImportSemaphoreFdEXT",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLint) = glImportSemaphoreFdEXT;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateBufferData",
        Proc({
            const F: extern "C" fn(GLuint) = glInvalidateBufferData;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateBufferSubData",
        Proc({
            const F: extern "C" fn(GLuint, GLintptr, GLsizeiptr) = glInvalidateBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateFramebuffer",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, *const GLenum) = glInvalidateFramebuffer;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateNamedFramebufferData",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLenum) =
                glInvalidateNamedFramebufferData;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateNamedFramebufferSubData",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLsizei,
                *const GLenum,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
            ) = glInvalidateNamedFramebufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateSubFramebuffer",
        Proc({
            const F: unsafe extern "C" fn(
                GLenum,
                GLsizei,
                *const GLenum,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
            ) = glInvalidateSubFramebuffer;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateTexImage",
        Proc({
            const F: extern "C" fn(GLuint, GLint) = glInvalidateTexImage;
            F as *const c_void
        }),
    ),
    (
        "glInvalidateTexSubImage",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei) =
                glInvalidateTexSubImage;
            F as *const c_void
        }),
    ),
    (
        "glIsMemoryObjectEXT",
        Proc({
            const F: extern "C" fn(GLuint) -> GLboolean = glIsMemoryObjectEXT;
            F as *const c_void
        }),
    ),
    (
        "glIsProgramPipeline",
        Proc({
            const F: extern "C" fn(GLuint) -> GLboolean = glIsProgramPipeline;
            F as *const c_void
        }),
    ),
    (
        "glIsSemaphoreEXT",
        Proc({
            const F: extern "C" fn(GLuint) -> GLboolean = glIsSemaphoreEXT;
            F as *const c_void
        }),
    ),
    (
        "glIsTransformFeedback",
        Proc({
            const F: extern "C" fn(GLuint) -> GLboolean = glIsTransformFeedback;
            F as *const c_void
        }),
    ),
    (
        "glMapNamedBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) -> *mut c_void = glMapNamedBuffer;
            F as *const c_void
        }),
    ),
    (
        "glMapNamedBufferRange",
        Proc({
            const F: extern "C" fn(GLuint, GLintptr, GLsizeiptr, GLbitfield) -> *mut c_void =
                glMapNamedBufferRange;
            F as *const c_void
        }),
    ),
    (
        "glMemoryBarrier",
        Proc({
            const F: extern "C" fn(GLbitfield) = glMemoryBarrier;
            F as *const c_void
        }),
    ),
    (
        "glMemoryBarrierByRegion",
        Proc({
            const F: extern "C" fn(GLbitfield) = glMemoryBarrierByRegion;
            F as *const c_void
        }),
    ),
    (
        "glMemoryObjectParameterivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLint) =
                glMemoryObjectParameterivEXT;
            F as *const c_void
        }),
    ),
    (
        "glMinSampleShading",
        Proc({
            const F: extern "C" fn(GLfloat) = glMinSampleShading;
            F as *const c_void
        }),
    ),
    (
        "glMinSampleShadingARB",
        Proc({
            const F: extern "C" fn(GLfloat) = glMinSampleShadingARB;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawArraysIndirect",
        Proc({
            const F: extern "C" fn(GLenum, *const c_void, GLsizei, GLsizei) =
                glMultiDrawArraysIndirect;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawArraysIndirectCount",
        Proc({
            const F: extern "C" fn(GLenum, *const c_void, GLintptr, GLsizei, GLsizei) =
                glMultiDrawArraysIndirectCount;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawArraysIndirectCountARB",
        Proc({
            const F: extern "C" fn(GLenum, *const c_void, GLintptr, GLsizei, GLsizei) =
                glMultiDrawArraysIndirectCountARB;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawElementsIndirect",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, *const c_void, GLsizei, GLsizei) =
                glMultiDrawElementsIndirect;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawElementsIndirectCount",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, *const c_void, GLintptr, GLsizei, GLsizei) =
                glMultiDrawElementsIndirectCount;
            F as *const c_void
        }),
    ),
    (
        "glMultiDrawElementsIndirectCountARB",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, *const c_void, GLintptr, GLsizei, GLsizei) =
                glMultiDrawElementsIndirectCountARB;
            F as *const c_void
        }),
    ),
    (
        "glNamedBufferData",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizeiptr, *const c_void, GLenum) =
                glNamedBufferData;
            F as *const c_void
        }),
    ),
    (
        "glNamedBufferStorage",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizeiptr, *const c_void, GLbitfield) =
                glNamedBufferStorage;
            F as *const c_void
        }),
    ),
    (
        "glNamedBufferSubData",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLintptr, GLsizeiptr, *const c_void) =
                glNamedBufferSubData;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferDrawBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) = glNamedFramebufferDrawBuffer;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferDrawBuffers",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLenum) =
                glNamedFramebufferDrawBuffers;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferParameteri",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLint) = glNamedFramebufferParameteri;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferReadBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum) = glNamedFramebufferReadBuffer;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferRenderbuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLenum, GLuint) = glNamedFramebufferRenderbuffer;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferTexture",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLuint, GLint) = glNamedFramebufferTexture;
            F as *const c_void
        }),
    ),
    (
        "glNamedFramebufferTextureLayer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLuint, GLint, GLint) =
                glNamedFramebufferTextureLayer;
            F as *const c_void
        }),
    ),
    (
        "glNamedRenderbufferStorage",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLsizei, GLsizei) = glNamedRenderbufferStorage;
            F as *const c_void
        }),
    ),
    (
        "glNamedRenderbufferStorageMultisample",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei) =
                glNamedRenderbufferStorageMultisample;
            F as *const c_void
        }),
    ),
    (
        "glObjectLabel",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, GLsizei, *const GLchar) = glObjectLabel;
            F as *const c_void
        }),
    ),
    (
        "glObjectPtrLabel",
        Proc({
            const F: unsafe extern "C" fn(*const c_void, GLsizei, *const GLchar) = glObjectPtrLabel;
            F as *const c_void
        }),
    ),
    (
        "glPatchParameterfv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, *const GLfloat) = glPatchParameterfv;
            F as *const c_void
        }),
    ),
    (
        "glPatchParameteri",
        Proc({
            const F: extern "C" fn(GLenum, GLint) = glPatchParameteri;
            F as *const c_void
        }),
    ),
    (
        "glPauseTransformFeedback",
        Proc({
            const F: extern "C" fn() = glPauseTransformFeedback;
            F as *const c_void
        }),
    ),
    (
        "glPolygonOffsetClamp",
        Proc({
            const F: extern "C" fn(GLfloat, GLfloat, GLfloat) = glPolygonOffsetClamp;
            F as *const c_void
        }),
    ),
    (
        "glPolygonOffsetClampEXT",
        Proc({
            const F: extern "C" fn(GLfloat, GLfloat, GLfloat) = glPolygonOffsetClampEXT;
            F as *const c_void
        }),
    ),
    (
        "glPopDebugGroup",
        Proc({
            const F: extern "C" fn() = glPopDebugGroup;
            F as *const c_void
        }),
    ),
    (
        "glProgramBinary",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const c_void, GLsizei) = glProgramBinary;
            F as *const c_void
        }),
    ),
    (
        "glProgramParameteri",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLint) = glProgramParameteri;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1d",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLdouble) = glProgramUniform1d;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLdouble) =
                glProgramUniform1dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1f",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLfloat) = glProgramUniform1f;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLfloat) =
                glProgramUniform1fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1i",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint) = glProgramUniform1i;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1iv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLint) =
                glProgramUniform1iv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1ui",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLuint) = glProgramUniform1ui;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform1uiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLuint) =
                glProgramUniform1uiv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2d",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLdouble, GLdouble) = glProgramUniform2d;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLdouble) =
                glProgramUniform2dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2f",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLfloat, GLfloat) = glProgramUniform2f;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLfloat) =
                glProgramUniform2fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2i",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint) = glProgramUniform2i;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2iv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLint) =
                glProgramUniform2iv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2ui",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLuint, GLuint) = glProgramUniform2ui;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform2uiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLuint) =
                glProgramUniform2uiv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3d",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLdouble, GLdouble, GLdouble) =
                glProgramUniform3d;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLdouble) =
                glProgramUniform3dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3f",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLfloat, GLfloat, GLfloat) = glProgramUniform3f;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLfloat) =
                glProgramUniform3fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3i",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint, GLint) = glProgramUniform3i;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3iv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLint) =
                glProgramUniform3iv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3ui",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLuint, GLuint, GLuint) = glProgramUniform3ui;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform3uiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLuint) =
                glProgramUniform3uiv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4d",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLdouble, GLdouble, GLdouble, GLdouble) =
                glProgramUniform4d;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLdouble) =
                glProgramUniform4dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4f",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLfloat, GLfloat, GLfloat, GLfloat) =
                glProgramUniform4f;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLfloat) =
                glProgramUniform4fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4i",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLint, GLint, GLint) = glProgramUniform4i;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4iv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLint) =
                glProgramUniform4iv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4ui",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLuint, GLuint, GLuint, GLuint) =
                glProgramUniform4ui;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniform4uiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, *const GLuint) =
                glProgramUniform4uiv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix2dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix2fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2x3dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix2x3dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2x3fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix2x3fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2x4dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix2x4dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix2x4fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix2x4fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix3dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix3fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3x2dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix3x2dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3x2fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix3x2fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3x4dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix3x4dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix3x4fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix3x4fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix4dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix4fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4x2dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix4x2dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4x2fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix4x2fv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4x3dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLdouble) =
                glProgramUniformMatrix4x3dv;
            F as *const c_void
        }),
    ),
    (
        "glProgramUniformMatrix4x3fv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLint, GLsizei, GLboolean, *const GLfloat) =
                glProgramUniformMatrix4x3fv;
            F as *const c_void
        }),
    ),
    (
        "glProvokingVertexEXT",
        Proc({
            const F: extern "C" fn(GLenum) = glProvokingVertexEXT;
            F as *const c_void
        }),
    ),
    (
        "glPushDebugGroup",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLuint, GLsizei, *const GLchar) =
                glPushDebugGroup;
            F as *const c_void
        }),
    ),
    (
        "glReadnPixels",
        Proc({
            const F: unsafe extern "C" fn(
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                GLsizei,
                *mut c_void,
            ) = glReadnPixels;
            F as *const c_void
        }),
    ),
    (
        "glReadnPixelsARB",
        Proc({
            const F: unsafe extern "C" fn(
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                GLsizei,
                *mut c_void,
            ) = glReadnPixelsARB;
            F as *const c_void
        }),
    ),
    (
        "glReleaseShaderCompiler",
        Proc({
            const F: extern "C" fn() = glReleaseShaderCompiler;
            F as *const c_void
        }),
    ),
    (
        "glResumeTransformFeedback",
        Proc({
            const F: extern "C" fn() = glResumeTransformFeedback;
            F as *const c_void
        }),
    ),
    (
        "glScissorArrayv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLint) = glScissorArrayv;
            F as *const c_void
        }),
    ),
    (
        "glScissorIndexed",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLint, GLsizei, GLsizei) = glScissorIndexed;
            F as *const c_void
        }),
    ),
    (
        "glScissorIndexedv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLint) = glScissorIndexedv;
            F as *const c_void
        }),
    ),
    (
        "glSemaphoreParameterui64vEXT",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const u64) =
                glSemaphoreParameterui64vEXT;
            F as *const c_void
        }),
    ),
    (
        "glShaderBinary",
        Proc({
            const F: unsafe extern "C" fn(GLsizei, *const GLuint, GLenum, *const c_void, GLsizei) =
                glShaderBinary;
            F as *const c_void
        }),
    ),
    (
        "glShaderStorageBlockBinding",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint) = glShaderStorageBlockBinding;
            F as *const c_void
        }),
    ),
    (
        "glSignalSemaphoreEXT",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLuint,
                *const GLuint,
                GLuint,
                *const GLuint,
                *const GLenum,
            ) = glSignalSemaphoreEXT;
            F as *const c_void
        }),
    ),
    (
        "glSpecializeShader",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                *const GLchar,
                GLuint,
                *const GLuint,
                *const GLuint,
            ) = glSpecializeShader;
            F as *const c_void
        }),
    ),
    (
        "glSpecializeShaderARB",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                *const GLchar,
                GLuint,
                *const GLuint,
                *const GLuint,
            ) = glSpecializeShaderARB;
            F as *const c_void
        }),
    ),
    (
        "glTexBufferRange",
        Proc({
            const F: extern "C" fn(GLenum, GLenum, GLuint, GLintptr, GLsizeiptr) = glTexBufferRange;
            F as *const c_void
        }),
    ),
    (
        "glTexParameterIivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *const GLint) = glTexParameterIivEXT;
            F as *const c_void
        }),
    ),
    (
        "glTexParameterIuivEXT",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLenum, *const GLuint) = glTexParameterIuivEXT;
            F as *const c_void
        }),
    ),
    (
        "glTexStorage1D",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei) = glTexStorage1D;
            F as *const c_void
        }),
    ),
    (
        "glTexStorage2D",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei) = glTexStorage2D;
            F as *const c_void
        }),
    ),
    (
        "glTexStorage2DMultisample",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLboolean) =
                glTexStorage2DMultisample;
            F as *const c_void
        }),
    ),
    (
        "glTexStorage3D",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei) =
                glTexStorage3D;
            F as *const c_void
        }),
    ),
    (
        "glTexStorage3DMultisample",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei, GLboolean) =
                glTexStorage3DMultisample;
            F as *const c_void
        }),
    ),
    (
        "glTexStorageMem2DEXT",
        Proc({
            const F: extern "C" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLuint, u64) =
                glTexStorageMem2DEXT;
            F as *const c_void
        }),
    ),
    (
        "glTextureBarrier",
        Proc({
            const F: extern "C" fn() = glTextureBarrier;
            F as *const c_void
        }),
    ),
    (
        "glTextureBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLuint) = glTextureBuffer;
            F as *const c_void
        }),
    ),
    (
        "glTextureBufferRange",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLuint, GLintptr, GLsizeiptr) =
                glTextureBufferRange;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameterIiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLint) = glTextureParameterIiv;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameterIuiv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLuint) = glTextureParameterIuiv;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameterf",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLfloat) = glTextureParameterf;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameterfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLfloat) = glTextureParameterfv;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameteri",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLint) = glTextureParameteri;
            F as *const c_void
        }),
    ),
    (
        "glTextureParameteriv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLenum, *const GLint) = glTextureParameteriv;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorage1D",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei) = glTextureStorage1D;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorage2D",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei) = glTextureStorage2D;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorage2DMultisample",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLboolean) =
                glTextureStorage2DMultisample;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorage3D",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLsizei) =
                glTextureStorage3D;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorage3DMultisample",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLsizei, GLboolean) =
                glTextureStorage3DMultisample;
            F as *const c_void
        }),
    ),
    (
        "glTextureStorageMem2DEXT",
        Proc({
            const F: extern "C" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLuint, u64) =
                glTextureStorageMem2DEXT;
            F as *const c_void
        }),
    ),
    (
        "glTextureSubImage1D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLsizei,
                GLenum,
                GLenum,
                *const c_void,
            ) = glTextureSubImage1D;
            F as *const c_void
        }),
    ),
    (
        "glTextureSubImage2D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                *const c_void,
            ) = glTextureSubImage2D;
            F as *const c_void
        }),
    ),
    (
        "glTextureSubImage3D",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                *const c_void,
            ) = glTextureSubImage3D;
            F as *const c_void
        }),
    ),
    (
        "glTextureView",
        Proc({
            const F: extern "C" fn(GLuint, GLenum, GLuint, GLenum, GLuint, GLuint, GLuint, GLuint) =
                glTextureView;
            F as *const c_void
        }),
    ),
    (
        "glTransformFeedbackBufferBase",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint) = glTransformFeedbackBufferBase;
            F as *const c_void
        }),
    ),
    (
        "glTransformFeedbackBufferRange",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint, GLintptr, GLsizeiptr) =
                glTransformFeedbackBufferRange;
            F as *const c_void
        }),
    ),
    (
        "glUniform1d",
        Proc({
            const F: extern "C" fn(GLint, GLdouble) = glUniform1d;
            F as *const c_void
        }),
    ),
    (
        "glUniform1dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, *const GLdouble) = glUniform1dv;
            F as *const c_void
        }),
    ),
    (
        "glUniform2d",
        Proc({
            const F: extern "C" fn(GLint, GLdouble, GLdouble) = glUniform2d;
            F as *const c_void
        }),
    ),
    (
        "glUniform2dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, *const GLdouble) = glUniform2dv;
            F as *const c_void
        }),
    ),
    (
        "glUniform3d",
        Proc({
            const F: extern "C" fn(GLint, GLdouble, GLdouble, GLdouble) = glUniform3d;
            F as *const c_void
        }),
    ),
    (
        "glUniform3dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, *const GLdouble) = glUniform3dv;
            F as *const c_void
        }),
    ),
    (
        "glUniform4d",
        Proc({
            const F: extern "C" fn(GLint, GLdouble, GLdouble, GLdouble, GLdouble) = glUniform4d;
            F as *const c_void
        }),
    ),
    (
        "glUniform4dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, *const GLdouble) = glUniform4dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix2dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix2dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix2x3dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix2x3dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix2x4dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix2x4dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix3dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix3dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix3x2dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix3x2dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix3x4dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix3x4dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix4dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix4dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix4x2dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix4x2dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformMatrix4x3dv",
        Proc({
            const F: unsafe extern "C" fn(GLint, GLsizei, GLboolean, *const GLdouble) =
                glUniformMatrix4x3dv;
            F as *const c_void
        }),
    ),
    (
        "glUniformSubroutinesuiv",
        Proc({
            const F: unsafe extern "C" fn(GLenum, GLsizei, *const GLuint) = glUniformSubroutinesuiv;
            F as *const c_void
        }),
    ),
    (
        "glUnmapNamedBuffer",
        Proc({
            const F: extern "C" fn(GLuint) -> GLboolean = glUnmapNamedBuffer;
            F as *const c_void
        }),
    ),
    (
        "glUseProgramStages",
        Proc({
            const F: extern "C" fn(GLuint, GLbitfield, GLuint) = glUseProgramStages;
            F as *const c_void
        }),
    ),
    (
        "glValidateProgramPipeline",
        Proc({
            const F: extern "C" fn(GLuint) = glValidateProgramPipeline;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayAttribBinding",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint) = glVertexArrayAttribBinding;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayAttribFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLint, GLenum, GLboolean, GLuint) =
                glVertexArrayAttribFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayAttribIFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLint, GLenum, GLuint) =
                glVertexArrayAttribIFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayAttribLFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLint, GLenum, GLuint) =
                glVertexArrayAttribLFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayBindingDivisor",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint) = glVertexArrayBindingDivisor;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayElementBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glVertexArrayElementBuffer;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayVertexBuffer",
        Proc({
            const F: extern "C" fn(GLuint, GLuint, GLuint, GLintptr, GLsizei) =
                glVertexArrayVertexBuffer;
            F as *const c_void
        }),
    ),
    (
        "glVertexArrayVertexBuffers",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLuint,
                GLsizei,
                *const GLuint,
                *const GLintptr,
                *const GLsizei,
            ) = glVertexArrayVertexBuffers;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribBinding",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glVertexAttribBinding;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLenum, GLboolean, GLuint) = glVertexAttribFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribIFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLenum, GLuint) = glVertexAttribIFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL1d",
        Proc({
            const F: extern "C" fn(GLuint, GLdouble) = glVertexAttribL1d;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL1dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLdouble) = glVertexAttribL1dv;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL2d",
        Proc({
            const F: extern "C" fn(GLuint, GLdouble, GLdouble) = glVertexAttribL2d;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL2dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLdouble) = glVertexAttribL2dv;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL3d",
        Proc({
            const F: extern "C" fn(GLuint, GLdouble, GLdouble, GLdouble) = glVertexAttribL3d;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL3dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLdouble) = glVertexAttribL3dv;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL4d",
        Proc({
            const F: extern "C" fn(GLuint, GLdouble, GLdouble, GLdouble, GLdouble) =
                glVertexAttribL4d;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribL4dv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLdouble) = glVertexAttribL4dv;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribLFormat",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLenum, GLuint) = glVertexAttribLFormat;
            F as *const c_void
        }),
    ),
    (
        "glVertexAttribLPointer",
        Proc({
            const F: extern "C" fn(GLuint, GLint, GLenum, GLsizei, *const c_void) =
                glVertexAttribLPointer;
            F as *const c_void
        }),
    ),
    (
        "glVertexBindingDivisor",
        Proc({
            const F: extern "C" fn(GLuint, GLuint) = glVertexBindingDivisor;
            F as *const c_void
        }),
    ),
    (
        "glViewportArrayv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, GLsizei, *const GLfloat) = glViewportArrayv;
            F as *const c_void
        }),
    ),
    (
        "glViewportIndexedf",
        Proc({
            const F: extern "C" fn(GLuint, GLfloat, GLfloat, GLfloat, GLfloat) = glViewportIndexedf;
            F as *const c_void
        }),
    ),
    (
        "glViewportIndexedfv",
        Proc({
            const F: unsafe extern "C" fn(GLuint, *const GLfloat) = glViewportIndexedfv;
            F as *const c_void
        }),
    ),
    (
        "glWaitSemaphoreEXT",
        Proc({
            const F: unsafe extern "C" fn(
                GLuint,
                GLuint,
                *const GLuint,
                GLuint,
                *const GLuint,
                *const GLenum,
            ) = glWaitSemaphoreEXT;
            F as *const c_void
        }),
    ),
];

/// The address of an exported function, as `eglGetProcAddress` returns it.
#[derive(Clone, Copy, Debug)]
pub struct Proc(pub *const c_void);

// SAFETY: a `Proc` is the address of a function of this library: immutable code, valid for
// as long as the library is loaded, meaningful on every thread. Sharing it shares nothing
// mutable.
unsafe impl Sync for Proc {}

#[cfg(test)]
mod tests {
    use super::GL_FUNCTIONS;

    /// `(name, (major, minor))` of every function of `GL_VERSION_1_0` .. `GL_VERSION_3_3`
    /// in the system's `glcorearb.h`.
    fn header_functions() -> Vec<(String, (u8, u8))> {
        let header = std::fs::read_to_string("/usr/include/GL/glcorearb.h")
            .expect("/usr/include/GL/glcorearb.h (Debian: libgl-dev)");
        let mut out = Vec::new();
        let mut version = None;
        for line in header.lines() {
            if let Some(v) = line.strip_prefix("#ifndef GL_VERSION_") {
                let mut parts = v.split('_').map(|p| p.parse::<u8>().unwrap_or(99));
                version = match (parts.next(), parts.next()) {
                    (Some(major), Some(minor)) if (major, minor) <= (3, 3) => Some((major, minor)),
                    _ => None,
                };
            } else if line.starts_with("#endif /* GL_VERSION_") {
                version = None;
            } else if let Some(v) = version
                && line.starts_with("GLAPI ")
                && let Some(name) = line
                    .split("APIENTRY ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
            {
                out.push((name.to_owned(), v));
            }
        }
        out
    }

    #[test]
    fn table_covers_every_gl_1_0_to_3_3_function_of_glcorearb() {
        let header = header_functions();
        assert_eq!(header.len(), 345);
        for (name, version) in &header {
            let entry = GL_FUNCTIONS.iter().find(|e| e.0 == name);
            assert_eq!(
                entry.map(|e| e.1),
                Some(*version),
                "{name} (GL {}.{}) is missing from the table or has another version",
                version.0,
                version.1
            );
        }
        assert_eq!(
            GL_FUNCTIONS.len(),
            header.len(),
            "the table has functions the header has not"
        );
        assert!(GL_FUNCTIONS.iter().all(|e| !e.2.0.is_null()));
    }
}
