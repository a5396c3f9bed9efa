//! Exports with a `sync_file` fence ([`Context::export_texture_fenced`],
//! [`Context::export_surface_fenced`]): the backend does not wait for the copy on the CPU
//! but hands the host a fence that signals when it completed.
//!
//! Where the backend's caps have `sync_fd_export` (the Vulkan backend on a device with
//! `VK_KHR_external_semaphore_fd` that exports binary semaphores as `SYNC_FD`), in process,
//! the copy's submission signals a semaphore exported as a `sync_file`
//! (`vkGetSemaphoreFdKHR`); the call returns right after the submission, and the host waits
//! on the fence (`poll(2)` for `POLLIN`, or an import as a Vulkan semaphore, an EGL native
//! fence or a KMS in-fence) before reading the memory. Elsewhere — lavapipe, as in CI,
//! exports no `SYNC_FD`, so this path is not exercised there — the export is the plain one:
//! the backend waited for the copy and the fence is `None`, meaning the memory is complete
//! already. Exports through `shm`, `fork` and `unix:` never carry a fence.

use std::os::fd::OwnedFd;

use crate::context::Context;
use crate::export::{ExportError, ExportedImage};
use crate::share::Shared;

/// An export and, where the backend made one, the `sync_file` fence that signals when the
/// copy into the exported memory completed (module docs).
#[derive(Debug)]
pub struct FencedExport {
    /// The exported memory and its description.
    pub image: ExportedImage,
    /// The fence to wait on before reading the memory; `None`: the memory is complete.
    pub fence: Option<OwnedFd>,
}

impl Context {
    /// [`Context::export_texture`] with a `sync_file` fence where the backend can make one
    /// instead of waiting for the copy (module docs). Raises no GL error.
    pub fn export_texture_fenced(
        &mut self,
        texture: tessera_components::gl::GLuint,
    ) -> Result<FencedExport, ExportError> {
        self.local.export_fences = true;
        let image = self.export_texture(texture);
        self.fenced(image)
    }

    /// [`Context::export_surface`] with a `sync_file` fence where the backend can make one
    /// (module docs). Raises no GL error.
    pub fn export_surface_fenced(&mut self) -> Result<FencedExport, ExportError> {
        self.local.export_fences = true;
        let image = self.export_surface();
        self.fenced(image)
    }

    /// The export's result with the fence the backend left, if any.
    fn fenced(
        &mut self,
        image: Result<ExportedImage, ExportError>,
    ) -> Result<FencedExport, ExportError> {
        self.local.export_fences = false;
        let token = std::mem::take(&mut self.local.export_fence);
        let fence = (token != 0)
            .then(|| tessera_wire::backend::take_handed_fd(token))
            .flatten();
        image.map(|image| FencedExport { image, fence })
    }

    /// The fence token of an export record: a new one where a fenced export was asked for
    /// and the backend can make a fence in this process, else 0 (the backend waits).
    pub(crate) fn export_fence_token(&mut self, sh: &Shared) -> u64 {
        if self.local.export_fences && sh.caps.sync_fd_export && !sh.transport.kind().is_remote() {
            self.local.export_fence = tessera_wire::backend::reserve_fd_token();
            self.local.export_fence
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::export::ExportError;
    use crate::{BackendKind, Config, Context};

    /// The null backend exports nothing: the fenced export is refused as the plain one is.
    #[test]
    fn refused_where_export_is() {
        let mut ctx = Context::new(&Config {
            backend: BackendKind::Null,
            ..Config::default()
        })
        .expect("a null context");
        let mut tex = [0];
        ctx.gen_textures(1, &mut tex);
        assert!(matches!(
            ctx.export_texture_fenced(tex[0]),
            Err(ExportError::Unsupported { .. })
        ));
        assert_eq!(ctx.local.export_fence, 0);
        assert!(!ctx.local.export_fences);
    }
}
