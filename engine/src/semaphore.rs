//! GL–Vulkan synchronisation: `GL_EXT_semaphore` and `GL_EXT_semaphore_fd`, semaphores a
//! Vulkan program exported that GL waits on and signals, so the two APIs hand images to
//! each other on the device instead of through `glFinish`.
//!
//! A semaphore object keeps the imported descriptor ([`Context::import_semaphore_fd`]
//! takes ownership). Each wait or signal sends the backend a duplicate (`WaitSemaphore`,
//! `SignalSemaphore`, through the process's descriptor table as memory objects do), which
//! the Vulkan backend imports into a semaphore of its own sharing the payload: a wait
//! submits the work recorded before and makes the next submission wait; a signal moves the
//! textures named to the layouts given and submits everything recorded, signalling the
//! semaphore (`tessera_backend_vk`'s `semaphore.rs`). Deleting a semaphore object closes
//! only its own descriptor.
//!
//! ## Where it works
//! The Vulkan backend on a device with `VK_KHR_external_semaphore_fd` that imports opaque
//! descriptors, through `inproc` or `thread`. Elsewhere (the GLES and null backends, `shm`,
//! `fork`, `unix:`, `tcp://`, and lavapipe, which has no such extension — so the backend's
//! side is not exercised in CI) the extensions are not advertised and every call records
//! `INVALID_OPERATION`. A capture's replay has no descriptor: its waits and signals do
//! nothing.
//!
//! ## Errors (decided here)
//! - `glGenSemaphoresEXT`, `glDeleteSemaphoresEXT`: `n < 0` is `INVALID_VALUE`. A generated
//!   name is a semaphore object at once (`glIsSemaphoreEXT` says so), with nothing
//!   imported.
//! - `glSemaphoreParameterui64vEXT`, `glGetSemaphoreParameterui64vEXT`: a pname other than
//!   `D3D12_FENCE_VALUE_EXT` is `INVALID_ENUM`; then a name that is no semaphore object is
//!   `INVALID_VALUE`; then, as no semaphore here is a D3D12 fence
//!   (`GL_EXT_semaphore_win32` is not built), `INVALID_OPERATION`.
//! - `glImportSemaphoreFdEXT`: a handle type other than `HANDLE_TYPE_OPAQUE_FD_EXT` is
//!   `INVALID_ENUM`; a name that is no semaphore object is `INVALID_VALUE`. On an error the
//!   descriptor is not taken. Importing again replaces the payload, as in Vulkan.
//! - `glWaitSemaphoreEXT`, `glSignalSemaphoreEXT`: a name that is no semaphore object is
//!   `INVALID_VALUE`; one with nothing imported is `INVALID_OPERATION`; a layout that is
//!   not `NONE` or one of the `LAYOUT_*_EXT` is `INVALID_ENUM`. Buffer and texture names
//!   that are no object are skipped (as Mesa does); buffers need no layout, the submission
//!   boundary orders their accesses.

use std::collections::HashMap;
use std::os::fd::OwnedFd;

use tessera_components::gl::*;
use tessera_components::object::Texture;
use tessera_wire::record::{Record, SemaphoreLayout, SemaphoreOp, SemaphoreTexture};

use crate::context::{Context, GlResult};

/// The semaphore objects of a share group, by name.
#[derive(Default)]
pub struct Semaphores {
    /// The last name handed out.
    last: GLuint,
    /// Each semaphore object's imported descriptor, once there is one.
    objects: HashMap<GLuint, Option<OwnedFd>>,
}

/// The layout a `LAYOUT_*_EXT` value (or `NONE`) names.
fn layout(gl: GLenum) -> Option<SemaphoreLayout> {
    use SemaphoreLayout as L;
    Some(match gl {
        NONE => L::Undefined,
        LAYOUT_GENERAL_EXT => L::General,
        LAYOUT_COLOR_ATTACHMENT_EXT => L::ColorAttachment,
        LAYOUT_DEPTH_STENCIL_ATTACHMENT_EXT => L::DepthStencilAttachment,
        LAYOUT_DEPTH_STENCIL_READ_ONLY_EXT => L::DepthStencilReadOnly,
        LAYOUT_SHADER_READ_ONLY_EXT => L::ShaderReadOnly,
        LAYOUT_TRANSFER_SRC_EXT => L::TransferSrc,
        LAYOUT_TRANSFER_DST_EXT => L::TransferDst,
        LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_EXT => L::DepthReadOnlyStencilAttachment,
        LAYOUT_DEPTH_ATTACHMENT_STENCIL_READ_ONLY_EXT => L::DepthAttachmentStencilReadOnly,
        _ => return None,
    })
}

impl Context {
    /// Whether the extensions are available to this context (module docs).
    fn semaphores_available(&self) -> GlResult {
        if self.local.limits.semaphores {
            Ok(())
        } else {
            Err(INVALID_OPERATION)
        }
    }

    /// `glGenSemaphoresEXT`: `n` new semaphore objects with nothing imported.
    pub fn gen_semaphores(&mut self, n: GLsizei, semaphores: &mut [GLuint]) {
        let r = self.semaphores_available().and_then(|()| {
            if n < 0 {
                return Err(INVALID_VALUE);
            }
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            let s = &mut sh.semaphores;
            for out in semaphores.iter_mut().take(n as usize) {
                s.last += 1;
                s.objects.insert(s.last, None);
                *out = s.last;
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glDeleteSemaphoresEXT`: closes each semaphore object's descriptor (waits and
    /// signals already sent keep their own); names that are no semaphore are ignored.
    pub fn delete_semaphores(&mut self, n: GLsizei, semaphores: &[GLuint]) {
        let r = self.semaphores_available().and_then(|()| {
            if n < 0 {
                return Err(INVALID_VALUE);
            }
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            for name in semaphores.iter().take(n as usize) {
                sh.semaphores.objects.remove(name);
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// `glIsSemaphoreEXT`.
    pub fn is_semaphore(&mut self, semaphore: GLuint) -> bool {
        if let Err(e) = self.semaphores_available() {
            self.error(e);
            return false;
        }
        let group = self.group.clone();
        let sh = group.lock_for(self.local.id);
        sh.semaphores.objects.contains_key(&semaphore)
    }

    /// The checks of both parameter calls (module docs): they always fail here.
    fn semaphore_parameter(&mut self, semaphore: GLuint, pname: GLenum) -> GlResult {
        self.semaphores_available()?;
        if pname != D3D12_FENCE_VALUE_EXT {
            return Err(INVALID_ENUM);
        }
        let group = self.group.clone();
        let sh = group.lock_for(self.local.id);
        if !sh.semaphores.objects.contains_key(&semaphore) {
            return Err(INVALID_VALUE);
        }
        // Not a D3D12 fence: GL_EXT_semaphore_win32 is not built.
        Err(INVALID_OPERATION)
    }

    /// `glSemaphoreParameterui64vEXT`: no parameter applies to an opaque-fd semaphore
    /// (module docs: errors).
    pub fn semaphore_parameterui64v(&mut self, semaphore: GLuint, pname: GLenum, _: &[u64]) {
        if let Err(e) = self.semaphore_parameter(semaphore, pname) {
            self.error(e);
        }
    }

    /// `glGetSemaphoreParameterui64vEXT`: as [`Context::semaphore_parameterui64v`]; `params`
    /// is left as it is.
    pub fn get_semaphore_parameterui64v(
        &mut self,
        semaphore: GLuint,
        pname: GLenum,
        _: &mut [u64],
    ) {
        if let Err(e) = self.semaphore_parameter(semaphore, pname) {
            self.error(e);
        }
    }

    /// `glImportSemaphoreFdEXT`: the semaphore object takes `fd`, an opaque Vulkan
    /// semaphore descriptor. On a GL error the descriptor is handed back (`Some`), not
    /// closed, as the EXT leaves it with the application then.
    pub fn import_semaphore_fd(
        &mut self,
        semaphore: GLuint,
        handle_type: GLenum,
        fd: OwnedFd,
    ) -> Option<OwnedFd> {
        let r = self.semaphores_available().and_then(|()| {
            if handle_type != HANDLE_TYPE_OPAQUE_FD_EXT {
                return Err(INVALID_ENUM);
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error(e);
            return Some(fd);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        match sh.semaphores.objects.get_mut(&semaphore) {
            Some(slot) => {
                *slot = Some(fd);
                None
            }
            None => {
                drop(sh);
                self.error(INVALID_VALUE);
                Some(fd)
            }
        }
    }

    /// `glWaitSemaphoreEXT`: the device's later GL work waits for the semaphore; the
    /// textures are in `src_layouts` (module docs).
    pub fn wait_semaphore(
        &mut self,
        semaphore: GLuint,
        buffers: &[GLuint],
        textures: &[GLuint],
        src_layouts: &[GLenum],
    ) {
        if let Err(e) = self.semaphore_op(semaphore, buffers, textures, src_layouts, true) {
            self.error(e);
        }
    }

    /// `glSignalSemaphoreEXT`: the textures moved to `dst_layouts`, then the semaphore
    /// signalled after every GL command before (module docs).
    pub fn signal_semaphore(
        &mut self,
        semaphore: GLuint,
        buffers: &[GLuint],
        textures: &[GLuint],
        dst_layouts: &[GLenum],
    ) {
        if let Err(e) = self.semaphore_op(semaphore, buffers, textures, dst_layouts, false) {
            self.error(e);
        }
    }

    /// A wait (`wait`) or a signal, checked and sent.
    fn semaphore_op(
        &mut self,
        semaphore: GLuint,
        _buffers: &[GLuint],
        textures: &[GLuint],
        layouts: &[GLenum],
        wait: bool,
    ) -> GlResult {
        self.semaphores_available()?;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let fd = sh
            .semaphores
            .objects
            .get(&semaphore)
            .ok_or(INVALID_VALUE)?
            .as_ref()
            .ok_or(INVALID_OPERATION)?;
        let mut named = Vec::with_capacity(textures.len());
        for (&t, &l) in textures.iter().zip(layouts) {
            let layout = layout(l).ok_or(INVALID_ENUM)?;
            named.push((t, layout));
        }
        // No descriptor left for the backend (the process's limit).
        let fd = fd.try_clone().map_err(|_| OUT_OF_MEMORY)?;
        let textures = named
            .into_iter()
            .filter_map(|(t, layout)| {
                let e = sh.names.textures.get(t)?;
                let texture = sh.world.get::<Texture>(e)?.handle;
                Some(SemaphoreTexture { texture, layout })
            })
            .collect();
        let op = Box::new(SemaphoreOp {
            fd_token: tessera_wire::backend::hand_over_fd(fd),
            textures,
        });
        sh.dev.push(if wait {
            Record::WaitSemaphore { op }
        } else {
            Record::SignalSemaphore { op }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::os::fd::OwnedFd;

    use tessera_components::gl::*;

    use crate::{BackendKind, Config, Context};

    /// A context on the null backend with the extensions on, as a backend that imports
    /// semaphores would have them: the errors are the engine's alone.
    fn context() -> Context {
        let config = Config {
            backend: BackendKind::Null,
            ..Config::default()
        };
        let mut ctx = Context::new(&config).expect("a null context");
        ctx.local.limits.semaphores = true;
        ctx
    }

    /// A descriptor to import (the engine never looks into it).
    fn some_fd() -> OwnedFd {
        OwnedFd::from(std::fs::File::open("/dev/null").expect("/dev/null"))
    }

    #[test]
    fn unavailable_everywhere_without_the_backend() {
        let mut ctx = Context::new(&Config {
            backend: BackendKind::Null,
            ..Config::default()
        })
        .expect("a null context");
        let mut names = [0];
        ctx.gen_semaphores(1, &mut names);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        assert!(!ctx.is_semaphore(1));
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        assert!(
            ctx.import_semaphore_fd(1, HANDLE_TYPE_OPAQUE_FD_EXT, some_fd())
                .is_some()
        );
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.wait_semaphore(1, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.signal_semaphore(1, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        let mut n = [0];
        ctx.get_integerv(NUM_EXTENSIONS, &mut n);
        let exts: Vec<String> = (0..n[0] as u32)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(!exts.iter().any(|e| e.starts_with("GL_EXT_semaphore")));
    }

    #[test]
    fn objects_parameters_and_import() {
        let mut ctx = context();
        let mut n = [0];
        ctx.get_integerv(NUM_EXTENSIONS, &mut n);
        let exts: Vec<String> = (0..n[0] as u32)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(exts.iter().any(|e| e == "GL_EXT_semaphore"));
        assert!(exts.iter().any(|e| e == "GL_EXT_semaphore_fd"));
        let mut names = [0; 2];
        ctx.gen_semaphores(-1, &mut names);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        ctx.gen_semaphores(2, &mut names);
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert_ne!(names[0], names[1]);
        assert!(ctx.is_semaphore(names[0]) && ctx.is_semaphore(names[1]));
        assert!(!ctx.is_semaphore(0) && !ctx.is_semaphore(99));
        assert_eq!(ctx.get_error(), NO_ERROR);

        let mut v = [7u64];
        ctx.semaphore_parameterui64v(names[0], TEXTURE_2D, &[1]);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
        ctx.semaphore_parameterui64v(99, D3D12_FENCE_VALUE_EXT, &[1]);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        ctx.semaphore_parameterui64v(names[0], D3D12_FENCE_VALUE_EXT, &[1]);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.get_semaphore_parameterui64v(names[0], D3D12_FENCE_VALUE_EXT, &mut v);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.get_semaphore_parameterui64v(names[0], NONE, &mut v);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
        assert_eq!(v, [7], "left as it was");

        let back = ctx.import_semaphore_fd(names[0], HANDLE_TYPE_OPAQUE_FD_EXT + 1, some_fd());
        assert!(back.is_some(), "refused: the descriptor stays the caller's");
        assert_eq!(ctx.get_error(), INVALID_ENUM);
        assert!(
            ctx.import_semaphore_fd(99, HANDLE_TYPE_OPAQUE_FD_EXT, some_fd())
                .is_some()
        );
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        assert!(
            ctx.import_semaphore_fd(names[0], HANDLE_TYPE_OPAQUE_FD_EXT, some_fd())
                .is_none()
        );
        assert_eq!(ctx.get_error(), NO_ERROR);

        ctx.delete_semaphores(-1, &names);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        ctx.delete_semaphores(2, &[names[0], 12345]);
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert!(!ctx.is_semaphore(names[0]) && ctx.is_semaphore(names[1]));
    }

    #[test]
    fn wait_and_signal() {
        let mut ctx = context();
        let mut names = [0; 2];
        ctx.gen_semaphores(2, &mut names);
        let [imported, empty] = names;
        assert!(
            ctx.import_semaphore_fd(imported, HANDLE_TYPE_OPAQUE_FD_EXT, some_fd())
                .is_none()
        );
        let mut tex = [0];
        ctx.gen_textures(1, &mut tex);
        ctx.bind_texture(TEXTURE_2D, tex[0]);
        let mut buf = [0];
        ctx.gen_buffers(1, &mut buf);
        assert_eq!(ctx.get_error(), NO_ERROR);

        ctx.wait_semaphore(99, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        ctx.signal_semaphore(99, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_VALUE);
        ctx.wait_semaphore(empty, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.signal_semaphore(empty, &[], &[], &[]);
        assert_eq!(ctx.get_error(), INVALID_OPERATION);
        ctx.wait_semaphore(imported, &[], &tex, &[TEXTURE_2D]);
        assert_eq!(ctx.get_error(), INVALID_ENUM);
        ctx.signal_semaphore(imported, &[], &tex, &[LAYOUT_GENERAL_EXT + 0x100]);
        assert_eq!(ctx.get_error(), INVALID_ENUM);

        ctx.wait_semaphore(imported, &buf, &tex, &[LAYOUT_SHADER_READ_ONLY_EXT]);
        assert_eq!(ctx.get_error(), NO_ERROR);
        ctx.signal_semaphore(
            imported,
            &[buf[0], 777],
            &[tex[0], 888],
            &[LAYOUT_COLOR_ATTACHMENT_EXT, NONE],
        );
        assert_eq!(ctx.get_error(), NO_ERROR, "names of no object are skipped");
        ctx.finish();
        assert!(!ctx.is_lost(), "the backend consumed both");
    }
}
