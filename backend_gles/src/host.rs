//! Rendering for a host's own EGL context: the backend's context joins the share group of a
//! context the host made ([`HostEgl`]), and hands textures to the host as native textures of
//! that group (`HandOverTexture` with `gl_texture`).
//!
//! The hand-over copies level 0 of the texture into a new native texture with immutable
//! storage of the same format and extent (`glCopyImageSubData`), made with the driver's
//! own entry points rather than the backend's counted table: the name is the host's from
//! the reply on, so the backend's census never counts it and its teardown never deletes it.
//! The new texture is unbound from the backend's context before the reply, so a host that
//! deletes it frees the name for good.

use std::ffi::c_void;

use glow::HasContext;
use tessera_wire::backend::bad_value;
use tessera_wire::handle::TextureHandle;
use tessera_wire::{HostTexture, SessionError};

use crate::command::dirty;
use crate::conv;
use crate::device::GlesPipe;

/// A host's EGL display and one of its contexts, which the GLES backend's own context
/// shares objects with ([`GlesBackend::with_host_context`](crate::GlesBackend::with_host_context)):
/// the backend renders with its own context on the host's display, in the host's share
/// group, and hands textures over as native texture names the host's context can use
/// (`tessera_engine::Context::hand_over_gl_texture`).
///
/// # The contract
/// - **Display and context**: `display` is an initialised `EGLDisplay` of the native EGL
///   the backend loads (the driver's libglvnd vendor, or the system `libEGL.so.1`; a host
///   linked against libglvnd's `libEGL.so.1` hands over the vendor's handles, which is what
///   libglvnd gives it). `context` is an OpenGL ES 3.x context of that display
///   (`EGL_OPENGL_ES_API`), which the backend's ES 3.2 (else 3.1, 3.0) context is created
///   to share with (`share_context` of `eglCreateContext`). The display needs
///   `EGL_KHR_surfaceless_context` and the GL `glCopyImageSubData` (OpenGL ES 3.2): a
///   backend on an older context is made but hands nothing over (its caps say so, and the
///   engine returns `ExportError::Unsupported`). The backend never terminates the display
///   and never destroys the host's context; the host keeps both alive longer than the
///   backend.
/// - **Threads**: EGL makes a context current on one thread at a time. The backend makes
///   its own context current on the thread that applies its records: with the `inproc`
///   transport the host's own thread, during each call into Tessera that reaches the
///   backend; with `thread` Tessera's render thread. So on `inproc` the host's context must
///   not be current on its thread while it calls Tessera (release it with
///   `eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)` first and
///   make it current again after); on `thread` the two contexts are current on two threads
///   at once, which EGL allows. `with_host_context` itself makes the backend's context
///   current on the calling thread while it starts and then releases it, so a host whose
///   context was current there makes it current again afterwards.
/// - **Synchronisation**: `hand_over_gl_texture` returns once the copy (and every GL
///   command before it) completed (`glFinish` in the backend's context); the host binds
///   the texture and reads it. `hand_over_gl_texture_signalled` returns once the copy is
///   flushed, with a `GLsync` of the share group ([`tessera_wire::HostTexture::sync`]) that
///   the copy signals: the host calls `glWaitSync` (or `glClientWaitSync`) on it in its
///   own context before it uses the texture, then `glDeleteSync`.
/// - **The texture**: a `GL_TEXTURE_2D` with one level of immutable storage
///   (`glTexStorage2D`) in the format the driver stores the texture in (`internal_format`;
///   the GL format itself, except where the backend stores a stand-in for a format GLES
///   lacks), default sampling parameters (set a filter without mipmaps before sampling it).
///   Rows are GL's, row 0 the bottom of the image, as on the GL side; an sRGB texture's copy
///   is an sRGB texture (values as stored, sampling decodes them).
/// - **Ownership and reuse**: each hand-over makes a new texture the backend keeps no
///   reference to (it is bound nowhere in the backend's context); later GL commands never
///   write it. The host deletes it (`glDeleteTextures`) whenever it likes, before or after
///   the backend is gone. The backend's own objects are deleted when it is dropped, so
///   nothing of Tessera's stays in the host's share group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostEgl {
    /// The host's `EGLDisplay`.
    pub display: *mut c_void,
    /// The host's `EGLContext` to share with.
    pub context: *mut c_void,
}

impl GlesPipe {
    /// `HandOverTexture` with `gl_texture`: level 0 of `handle` copied into a new native
    /// texture of the share group, after `glFinish`, or (`signal`) with a fence after it.
    pub(crate) fn copy_for_host(
        &mut self,
        handle: TextureHandle,
        signal: bool,
    ) -> Result<HostTexture, SessionError> {
        const N: &str = "HandOverTexture";
        if !self.caps.host_textures {
            return Err(bad_value(N, "this backend shares no host's GL context"));
        }
        let t = self.textures.get(N, handle)?;
        if t.target != glow::TEXTURE_2D {
            return Err(bad_value(N, "not a 2D texture"));
        }
        let image = t
            .image(0, 0)
            .ok_or_else(|| bad_value(N, "level 0 has no image"))?;
        let (src, view) = (t.name, t.view);
        let internal = conv::map_format(image.format, &self.features).internal;
        let [w, h] = [image.size[0].max(1), image.size[1].max(1)];
        let unit = self.scratch_unit();
        // SAFETY: context current (the backend's invariant); glGenTextures has no
        // preconditions. Made outside the counted table: the name is the host's.
        let copy = unsafe { HasContext::create_texture(&*self.gl) }
            .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
        self.shadow
            .bind_texture(&self.gl, unit, glow::TEXTURE_2D, Some(copy));
        self.disturbed |= dirty::TEXTURES;
        // SAFETY: context current; the new texture is bound to TEXTURE_2D on the active
        // unit; `internal` is the sized format the source's level 0 has natively.
        unsafe {
            self.gl
                .tex_storage_2d(glow::TEXTURE_2D, 1, internal, w as i32, h as i32)
        };
        // The driver copies only from a complete texture: the source's level range is
        // narrowed to level 0 with a filter that needs no other level, and put back after
        // (sampling takes its filters from sampler objects).
        self.shadow
            .bind_texture(&self.gl, unit, glow::TEXTURE_2D, Some(src));
        // SAFETY: context current; both names are live 2D textures (the source from the
        // table, the copy just made) whose level 0 has this size and format; the source is
        // bound to TEXTURE_2D, which takes level-range and filter parameters.
        unsafe {
            let gl = &self.gl;
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MIN_FILTER,
                glow::NEAREST as i32,
            );
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_BASE_LEVEL, 0);
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, 0);
            gl.copy_image_sub_data(
                src,
                glow::TEXTURE_2D,
                0,
                0,
                0,
                0,
                copy,
                glow::TEXTURE_2D,
                0,
                0,
                0,
                0,
                w as i32,
                h as i32,
                1,
            );
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MIN_FILTER,
                glow::NEAREST_MIPMAP_LINEAR as i32,
            );
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_BASE_LEVEL,
                view.base_level as i32,
            );
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MAX_LEVEL,
                view.max_level.min(i32::MAX as u32) as i32,
            );
        }
        // Bound nowhere from here: a name the host deletes is free for reuse at once.
        self.shadow
            .bind_texture(&self.gl, unit, glow::TEXTURE_2D, None);
        let sync = if signal {
            // SAFETY: context current; a fence with the only condition and flags ES has.
            // Made outside the counted table: the sync is the host's.
            let fence =
                unsafe { HasContext::fence_sync(&*self.gl, glow::SYNC_GPU_COMMANDS_COMPLETE, 0) }
                    .map_err(|e| SessionError::Backend(format!("{N}: {e}")))?;
            // SAFETY: context current; glFlush has no preconditions. The fence must reach
            // the driver before another context waits on it.
            unsafe { self.gl.flush() };
            fence.0 as usize as u64
        } else {
            // SAFETY: context current; glFinish has no preconditions.
            unsafe { self.gl.finish() };
            0
        };
        Ok(HostTexture {
            texture: copy.0.get(),
            internal_format: internal,
            extent: [w, h],
            sync,
        })
    }
}
