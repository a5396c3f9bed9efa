//! Frames out to a host without read-back: a texture's image as Vulkan device memory the host
//! imports ([`Context::export_texture`]).
//!
//! An emulator or compositor that embeds Tessera wants the guest's frames as images it can
//! sample, not as pixels copied to the CPU by `glReadPixels` every frame. On the Vulkan
//! backend, in the program's own process (the `inproc` and `thread` transports), level 0 of
//! a 2D texture is copied on the device into new memory allocated exportable, and handed over
//! as an opaque file descriptor (`VK_KHR_external_memory_fd`) with everything an importer
//! needs to make the same image of it ([`ExportedImage`]). [`Context::export_surface`] does
//! the same with the colour image of the context's default framebuffer.
//!
//! ```
//! use tessera_engine::gl::*;
//! use tessera_engine::{BackendKind, Config, Context};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = Config {
//!     backend: BackendKind::Vulkan,
//!     ..Config::default()
//! };
//! let mut ctx = Context::new(&config)?;
//! let mut texture = [0];
//! ctx.create_textures(TEXTURE_2D, 1, &mut texture);
//! ctx.texture_storage_2d(texture[0], 1, RGBA8, 640, 480);
//! // The frame: here one colour, usually draws into a framebuffer with the texture attached.
//! ctx.clear_tex_image(texture[0], 0, RGBA, UNSIGNED_BYTE, Some(&[255, 128, 0, 255]));
//! let image = ctx.export_texture(texture[0])?;
//! assert_eq!(image.info.extent, [640, 480]);
//! assert!(image.info.row_pitch >= 640 * 4);
//! // `image.fd` and the description go to the importer (in another process: over a Unix
//! // socket with `SCM_RIGHTS`), which owns the memory from then on.
//! # Ok(())
//! # }
//! ```
//!
//! ## The contract
//! - **Synchronisation**: `export_texture` returns once the copy — and every GL command
//!   issued before the call — completed on the device: the backend waited for its fence
//!   (`vkWaitForFences`). The return is the signal; the host needs no semaphore and must not
//!   sleep.
//! - **Compatibility**: the importer's physical device must report the same
//!   [`driver_uuid`](ExportedImageInfo::driver_uuid) and [`device_uuid`](ExportedImageInfo::device_uuid)
//!   (`VkPhysicalDeviceIDProperties`), as the specification requires of opaque handles.
//! - **The image**: the importer creates a 2D image with exactly [`vk_format`](ExportedImageInfo::vk_format),
//!   the extent, one level and layer, one sample, [`tiling`](ExportedImageInfo::tiling)
//!   (`LINEAR`), [`usage`](ExportedImageInfo::usage), exclusive sharing and
//!   `VkExternalMemoryImageCreateInfo` naming `OPAQUE_FD`; allocates
//!   [`allocation_size`](ExportedImageInfo::allocation_size) bytes as a dedicated allocation of that
//!   image (`VkMemoryDedicatedAllocateInfo`) with `VkImportMemoryFdInfoKHR`, a memory type of
//!   its image's requirements; and binds it at offset 0. The import takes over the
//!   descriptor (pass `fd.into_raw_fd()`).
//! - **Layout and ownership**: the image was released to `VK_QUEUE_FAMILY_EXTERNAL` in
//!   `GENERAL` layout ([`layout`](ExportedImageInfo::layout)); the importer's first barrier
//!   acquires it from `VK_QUEUE_FAMILY_EXTERNAL` into its queue family, old layout `GENERAL`.
//! - **Orientation and colour**: rows are GL's, row 0 the bottom of the image; values are
//!   stored as the texture stores them (an sRGB texture's format is an sRGB `VkFormat`).
//! - **Reuse**: each export is a new allocation that Tessera keeps no reference to; the host
//!   may keep it as long as it likes, and later GL commands never write it.
//!
//! ## On the host's own device
//! A host that lent the Vulkan backend its device ([`HostDevice`],
//! `tessera_backend_vk::VulkanBackend::with_host_device`, then [`Context::with_backend`])
//! takes textures with [`Context::hand_over_texture`] instead: a [`HostImage`], a new
//! `VkImage` of its own device in `SHADER_READ_ONLY_OPTIMAL`, which it samples in its own
//! command buffers. [`HostDevice`]'s documentation has that contract (queue lock, layout,
//! ownership, orientation, sRGB, lifetime). [`Context::hand_over_texture_signalled`] hands
//! the image over with a semaphore the host waits on in its own submission, instead of
//! Tessera waiting for the copy on the CPU.
//!
//! ## In the host's own GL share group
//! A host with its own EGL context that made the GLES backend on its display, sharing with
//! that context ([`HostEgl`], `tessera_backend_gles::GlesBackend::with_host_context`, then
//! [`Context::with_backend`]), takes textures with [`Context::hand_over_gl_texture`]: a
//! [`HostTexture`], a new native texture name of its share group holding a copy of level 0,
//! once the copy completed; [`Context::hand_over_gl_texture_signalled`] returns right after
//! the copy with a native `GLsync` the host waits on in its context instead. [`HostEgl`]'s
//! documentation has that contract (versions, threads, synchronisation, orientation, sRGB,
//! ownership).
//!
//! ## Where it works
//! The Vulkan backend on a device with `VK_KHR_external_memory_fd`, through `inproc`,
//! `thread`, `shm`, `fork` and `unix:`. Through the last three the backend runs in
//! `tessera-server`: the server sends the descriptor over the session's unix socket with
//! `SCM_RIGHTS` and closes its copy, and the call returns the same [`ExportedImage`], its
//! descriptor one of this process, once the server's backend waited for its fence. A
//! `tcp://` connection cannot carry a descriptor (the server may be on another machine):
//! the call returns [`ExportError::OverTcp`]. Hand-over to a host's device
//! ([`Context::hand_over_texture`]) and to a host's GL share group
//! ([`Context::hand_over_gl_texture`]) work in process only ([`ExportError::NotInProcess`]).
//! The GLES and null backends return [`ExportError::Unsupported`] for the descriptor export. dma-buf export with a DRM format modifier and a `sync_file`
//! fence in these calls are not built; [`crate::export_fence`] returns such a fence where
//! the device exports one (not exercised in CI: the software drivers have neither).

use std::os::fd::OwnedFd;

use tessera_components::gl::GLuint;
use tessera_components::names::NameEntry;
use tessera_components::object::Texture;
use tessera_components::state::TextureTarget;
use tessera_wire::record::Record;
use tessera_wire::{ExportedMemory, Reply, TransportKind};

use crate::context::Context;
use crate::share::Shared;
use crate::texture::block_bytes;

/// A host's Vulkan device lent to the backend (not on Android, whose builds have no Vulkan
/// backend).
#[cfg(not(target_os = "android"))]
pub use tessera_backend_vk::HostDevice;

/// A copy of a texture as an image of the device a host lent the backend
/// ([`Context::hand_over_texture`]): raw handles of the host's device, which the host owns
/// and destroys (`vkDestroyImage`, `vkFreeMemory`). The backend's reply as it is.
pub use tessera_wire::HostImage;

/// A host's EGL display and the context the GLES backend's context shares objects with.
pub use tessera_backend_gles::HostEgl;

/// A copy of a texture as a native texture of a host's GL share group
/// ([`Context::hand_over_gl_texture`]): a texture name (and a `GLsync`, when asked for) the
/// host owns and deletes. The backend's reply as it is.
pub use tessera_wire::HostTexture;

/// A texture's image in exported Vulkan memory (module docs: what an importer does with it).
#[derive(Debug)]
pub struct ExportedImage {
    /// The memory, a file descriptor of [`info.handle_type`](ExportedImageInfo::handle_type).
    pub fd: OwnedFd,
    /// What an importer needs to make the same image of it.
    pub info: ExportedImageInfo,
}

/// What an importer needs of an [`ExportedImage`] apart from its descriptor: format, extent,
/// tiling, usage, layout, allocation, rows and the exporting device's UUIDs (the backend's
/// reply as it is; a host sends it to another process with the descriptor).
pub use tessera_wire::ExportedImageInfo;

impl ExportedImage {
    fn from_reply(m: &ExportedMemory) -> Self {
        Self {
            fd: m.take_fd(),
            info: m.info,
        }
    }
}

/// Why a texture could not be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// A hand-over to a host's device or GL share group, but the context's records go to
    /// another process (`shm`, `fork`, `unix:`, `tcp://`), where the host's device is not.
    #[error("hand-over works only on the in-process transports (inproc, thread)")]
    NotInProcess,
    /// An export, but the context's records go over `tcp://`, which cannot carry a file
    /// descriptor (the server may be on another machine); `shm`, `fork` and `unix:` can.
    #[error(
        "export needs a transport that passes file descriptors \
         (inproc, thread, shm, fork, unix:), not tcp://"
    )]
    OverTcp,
    /// The backend cannot hand the texture out this way: export needs the Vulkan backend on
    /// a device with `VK_KHR_external_memory_fd`, hand-over the Vulkan backend on a host's
    /// device, GL hand-over the GLES backend sharing a host's context.
    #[error("the {backend} backend cannot hand textures out this way")]
    Unsupported {
        /// The backend's name.
        backend: String,
    },
    /// The name is no texture object.
    #[error("texture {0} is not a texture object")]
    NotATexture(GLuint),
    /// The texture is not a 2D texture with a defined, uncompressed, single-sampled colour
    /// level 0, or is a texture view.
    #[error("texture {texture} cannot be exported: {why}")]
    NotExportable {
        /// The name.
        texture: GLuint,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The context has no surface, or one that is multisampled or has no colour image.
    #[error("the context has no single-sampled colour surface")]
    NoSurface,
    /// The context is lost (the backend ended the session).
    #[error("the context is lost")]
    Lost,
}

impl Context {
    /// Exports level 0 of the 2D texture `texture` as Vulkan memory a host imports, once
    /// every GL command issued before completed on the device (module docs: the contract).
    /// Raises no GL error: what is wrong is the returned [`ExportError`].
    pub fn export_texture(&mut self, texture: GLuint) -> Result<ExportedImage, ExportError> {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let handle = exportable(&mut sh, texture, Export::Descriptor)?;
        let reply = sh.dev.enc.mint_reply();
        let fence_token = self.export_fence_token(&sh);
        sh.dev.push(Record::ExportTexture {
            texture: handle,
            reply,
            fence_token,
        });
        match sh.wait(reply) {
            Some(Reply::Exported(m)) => Ok(ExportedImage::from_reply(&m)),
            _ => Err(ExportError::Lost),
        }
    }

    /// Exports the colour image of the context's default framebuffer (its surface) as
    /// [`Context::export_texture`] exports a texture, once every GL command issued before
    /// completed: after a frame's last draw (before or after `swap_buffers`), the frame.
    /// Raises no GL error.
    pub fn export_surface(&mut self) -> Result<ExportedImage, ExportError> {
        let surface = self.local.surface;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        check_backend(&mut sh, Export::Descriptor)?;
        let surface = surface.ok_or(ExportError::NoSurface)?;
        if surface.desc.samples != 0 || surface.desc.color.is_none() {
            return Err(ExportError::NoSurface);
        }
        let reply = sh.dev.enc.mint_reply();
        let fence_token = self.export_fence_token(&sh);
        sh.dev.push(Record::ExportSurface {
            surface: surface.handle,
            reply,
            fence_token,
        });
        match sh.wait(reply) {
            Some(Reply::Exported(m)) => Ok(ExportedImage::from_reply(&m)),
            _ => Err(ExportError::Lost),
        }
    }

    /// Hands a copy of level 0 of the 2D texture `texture` to the host that lent the Vulkan
    /// backend its device, as a new image of that device, once every GL command issued
    /// before completed on the device ([`HostDevice`]: the contract). Raises no GL error.
    pub fn hand_over_texture(&mut self, texture: GLuint) -> Result<HostImage, ExportError> {
        match self.hand_over(texture, false, Export::HostImage)? {
            Reply::HostImage(h) => Ok(h),
            _ => Err(ExportError::Lost),
        }
    }

    /// [`Context::hand_over_texture`] without waiting on the CPU: returns once the copy is
    /// submitted, with [`HostImage::semaphore`], a new binary `VkSemaphore` of the host's
    /// device that the copy's submission signals; the host waits on it in its own
    /// submission and then destroys it ([`HostDevice`]: the contract). Raises no GL error.
    pub fn hand_over_texture_signalled(
        &mut self,
        texture: GLuint,
    ) -> Result<HostImage, ExportError> {
        match self.hand_over(texture, true, Export::HostImage)? {
            Reply::HostImage(h) => Ok(h),
            _ => Err(ExportError::Lost),
        }
    }

    /// Hands a copy of level 0 of the 2D texture `texture` to the host whose EGL context
    /// the GLES backend's context shares with, as a new native texture of that share group,
    /// once every GL command issued before completed ([`HostEgl`]: the contract). Raises no
    /// GL error.
    pub fn hand_over_gl_texture(&mut self, texture: GLuint) -> Result<HostTexture, ExportError> {
        match self.hand_over(texture, false, Export::HostTexture)? {
            Reply::HostTexture(t) => Ok(t),
            _ => Err(ExportError::Lost),
        }
    }

    /// [`Context::hand_over_gl_texture`] without waiting: returns once the copy is flushed
    /// to the driver, with [`HostTexture::sync`], a native `GLsync` the copy signals; the
    /// host waits on it in its own context (`glWaitSync`) and deletes it ([`HostEgl`]: the
    /// contract). Raises no GL error.
    pub fn hand_over_gl_texture_signalled(
        &mut self,
        texture: GLuint,
    ) -> Result<HostTexture, ExportError> {
        match self.hand_over(texture, true, Export::HostTexture)? {
            Reply::HostTexture(t) => Ok(t),
            _ => Err(ExportError::Lost),
        }
    }

    /// A hand-over (`HandOverTexture`), waited for by the backend or signalling, and the
    /// backend's reply.
    fn hand_over(
        &mut self,
        texture: GLuint,
        signal: bool,
        how: Export,
    ) -> Result<Reply, ExportError> {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let handle = exportable(&mut sh, texture, how)?;
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::HandOverTexture {
            texture: handle,
            reply,
            signal,
            gl_texture: matches!(how, Export::HostTexture),
        });
        sh.wait(reply).ok_or(ExportError::Lost)
    }
}

/// How a texture leaves: as a descriptor, or as an image of a host's device.
#[derive(Clone, Copy)]
enum Export {
    /// `ExportTexture`/`ExportSurface`: a descriptor, which a unix socket carries too.
    Descriptor,
    /// `HandOverTexture`: handles of the host's device, in its process only.
    HostImage,
    /// `HandOverTexture` with `gl_texture`: a name in the host's share group, in its
    /// process only.
    HostTexture,
}

/// The checks of any export: a live session, a transport that can bring the result here, a
/// backend that can make it.
fn check_backend(sh: &mut Shared, how: Export) -> Result<(), ExportError> {
    if sh.lost.is_some() {
        return Err(ExportError::Lost);
    }
    let kind = sh.transport.kind();
    let can = match how {
        Export::Descriptor if matches!(kind, TransportKind::Tcp { .. }) => {
            return Err(ExportError::OverTcp);
        }
        Export::Descriptor => sh.caps.memory_export,
        Export::HostImage | Export::HostTexture if kind.is_remote() => {
            return Err(ExportError::NotInProcess);
        }
        Export::HostImage => sh.caps.host_images,
        Export::HostTexture => sh.caps.host_textures,
    };
    if !can {
        return Err(ExportError::Unsupported {
            backend: sh.caps.backend.clone(),
        });
    }
    Ok(())
}

/// The checks of an export or hand-over of `texture` (what the backend needs from the
/// texture, the transport and the backend's caps), and the texture's handle.
fn exportable(
    sh: &mut Shared,
    texture: GLuint,
    how: Export,
) -> Result<tessera_wire::handle::TextureHandle, ExportError> {
    check_backend(sh, how)?;
    let entity = match sh.names.textures.entry(texture) {
        NameEntry::Object(e) => e,
        _ => return Err(ExportError::NotATexture(texture)),
    };
    let t = sh
        .world
        .get::<Texture>(entity)
        .ok_or(ExportError::NotATexture(texture))?;
    let not = |why| ExportError::NotExportable { texture, why };
    if t.target != Some(TextureTarget::D2) {
        return Err(not("not a 2D texture"));
    }
    if t.view_of.is_some() {
        return Err(not("a texture view"));
    }
    let image = t.images[0][0];
    let format = image
        .format
        .filter(|_| image.is_defined())
        .ok_or(not("level 0 has no image"))?;
    let info = format.info();
    if info.depth_bits != 0 || info.stencil_bits != 0 || block_bytes(format).is_some() {
        return Err(not("not an uncompressed colour image"));
    }
    Ok(t.handle)
}
