//! EGL images of GL textures (`EGL_KHR_image_base`, `EGL_KHR_gl_texture_2D_image`, EGL 1.5
//! `eglCreateImage`) and their use as a texture's image (`GL_OES_EGL_image`'s
//! `glEGLImageTargetTexture2DOES`), between contexts that share nothing.
//!
//! Every share group has its own backend session, so a context of another group cannot
//! point at the texture's storage through the engine. The image is made by the backend of
//! the texture's group (`Record::ExportEglImage`): the GLES backend makes a native
//! `EGLImage` of its native texture and keeps it in a process-wide table under a token,
//! which comes back as the reply. A context that takes the image
//! (`Record::ImportEglImage`) makes its texture's level 0 the image's format and size in
//! its own state and has its backend bind the native image to a new native texture: both
//! contexts then read and write the same memory, as EGL promises (synchronising writes is
//! the application's, with `glFinish` or a fence, as with any EGL image).
//!
//! ## Where it works
//! The GLES backend, on a driver with `EGL_KHR_gl_texture_2D_image` and `GL_OES_EGL_image`
//! (llvmpipe has both), on the in-process transports (`inproc`, `thread`): the token names
//! an image of this process. Through `shm`, `fork`, `unix:` and `tcp://`, and on the Vulkan
//! and null backends, the extensions are not offered and `eglCreateImage` of a texture is
//! `EGL_BAD_ACCESS` (caps: `egl_images`).
//!
//! ## Errors (decided here)
//! Texture name 0, a name that is no texture, a texture that is not 2D, or one whose
//! level 0 is undefined: `EGL_BAD_PARAMETER` (as Mesa, whose texture then has no storage).
//! Level 0 compressed, depth or stencil, a view, or a level other than 0 (only level 0 is
//! offered): `EGL_BAD_MATCH`. A texture that is already the source
//! of a live image: `EGL_BAD_ACCESS`. In GL: a target other than `TEXTURE_2D` is
//! `INVALID_ENUM`, a handle that is no live image `INVALID_VALUE`, an immutable texture or a
//! context whose backend cannot take images `INVALID_OPERATION`.

use std::sync::Arc;

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Image, MAX_LEVELS, Texture};
use tessera_components::state::TextureTarget;
use tessera_wire::Reply;
use tessera_wire::handle::TextureHandle;
use tessera_wire::record::Record;

use super::EglError;
use super::display::TAG_IMAGE;
use crate::context::Context;
use crate::share::{ShareGroup, Shared};
use crate::texture::ImageTarget;
use crate::texture::block_bytes;

/// An `EGLImage` made of level 0 of a 2D texture: the backend's token for it, the group it
/// was made in, and the image's format and size (what a context that takes it defines).
pub struct EglImage {
    group: Arc<ShareGroup>,
    texture: TextureHandle,
    token: u64,
    image: Image,
}

impl std::fmt::Debug for EglImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EglImage")
            .field("token", &self.token)
            .field("width", &self.image.width)
            .field("height", &self.image.height)
            .finish()
    }
}

impl EglImage {
    /// Whether this image was made of `texture` of `group` (a second image of one texture
    /// is `EGL_BAD_ACCESS`).
    pub(crate) fn made_of(&self, group: &Arc<ShareGroup>, texture: TextureHandle) -> bool {
        Arc::ptr_eq(&self.group, group) && self.texture == texture
    }

    /// Width and height of the image.
    pub fn size(&self) -> [i32; 2] {
        [self.image.width, self.image.height]
    }
}

impl Drop for EglImage {
    /// The backend's image goes with the last holder (textures made of it keep the memory).
    fn drop(&mut self) {
        let mut sh = self.group.lock();
        if sh.lost.is_none() {
            sh.dev.push(Record::DestroyEglImage { token: self.token });
        }
    }
}

/// Whether `sh`'s session can make and take images: alive, in process, a backend with them.
fn can_share(sh: &Shared) -> bool {
    sh.lost.is_none() && !sh.transport.kind().is_remote() && sh.caps.egl_images
}

/// Whether a context of `group` offers the extensions (`EGL_KHR_gl_texture_2D_image`,
/// `GL_OES_EGL_image`).
pub fn offered(group: &ShareGroup) -> bool {
    can_share(&group.lock())
}

/// The image of level `level` of `texture` of `group`, with the checks of the module's
/// errors; `is_source` says whether a live image was already made of a texture handle.
pub(crate) fn create(
    group: &Arc<ShareGroup>,
    texture: GLuint,
    level: i32,
    is_source: impl Fn(TextureHandle) -> bool,
) -> Result<EglImage, EglError> {
    let mut sh = group.lock();
    if !can_share(&sh) {
        return Err(EglError::BadAccess);
    }
    let entity = match sh.names.textures.entry(texture) {
        NameEntry::Object(e) if texture != 0 => e,
        _ => return Err(EglError::BadParameter),
    };
    let t = sh
        .world
        .get::<Texture>(entity)
        .ok_or(EglError::BadParameter)?;
    if t.target != Some(TextureTarget::D2) {
        return Err(EglError::BadParameter);
    }
    let image = t.images[0][0];
    let format = image
        .format
        .filter(|_| image.is_defined())
        .ok_or(EglError::BadParameter)?;
    if level != 0 || t.view_of.is_some() {
        return Err(EglError::BadMatch);
    }
    let info = format.info();
    if info.depth_bits != 0 || info.stencil_bits != 0 || block_bytes(format).is_some() {
        return Err(EglError::BadMatch);
    }
    let handle = t.handle;
    if is_source(handle) {
        return Err(EglError::BadAccess);
    }
    let reply = sh.dev.enc.mint_reply();
    sh.dev.push(Record::ExportEglImage {
        texture: handle,
        reply,
    });
    match sh.wait(reply) {
        Some(Reply::EglImage(token)) if token != 0 => Ok(EglImage {
            group: group.clone(),
            texture: handle,
            token,
            image,
        }),
        Some(Reply::EglImage(_)) => Err(EglError::BadMatch),
        _ => Err(EglError::ContextLost),
    }
}

impl Context {
    /// An `EGLImage` of level 0 of the 2D texture `texture` of this context's share group
    /// (`eglCreateImage` with `EGL_GL_TEXTURE_2D`; the module docs: where it works, the
    /// errors). Only one live image per texture: a host keeps the one it made.
    pub fn create_egl_image(&mut self, texture: GLuint) -> Result<EglImage, EglError> {
        create(&self.group, texture, 0, |_| false)
    }

    /// Whether this context offers `GL_OES_EGL_image` (and its display the EGL image
    /// extensions): the GLES backend on the in-process transports.
    pub fn offers_egl_images(&self) -> bool {
        offered(&self.group)
    }

    /// `glEGLImageTargetTexture2DOES`: the texture bound to `target` (`TEXTURE_2D`) on the
    /// active unit gets the image as its level 0 (its other levels are undefined after), and
    /// shares its memory with the image's texture (errors: the module docs).
    pub fn egl_image_target_texture_2d(&mut self, target: GLenum, image: Option<&EglImage>) {
        if let Err(e) = self.take_egl_image(target, image) {
            self.error(e);
        }
    }

    fn take_egl_image(
        &mut self,
        target: GLenum,
        image: Option<&EglImage>,
    ) -> crate::context::GlResult {
        if target != TEXTURE_2D {
            return Err(INVALID_ENUM);
        }
        let image = image.ok_or(INVALID_VALUE)?;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if !can_share(&sh) {
            return Err(INVALID_OPERATION);
        }
        let e = self.target_texture(&mut sh, TextureTarget::D2);
        {
            let mut t = sh.world.get_mut::<Texture>(e).ok_or(INVALID_OPERATION)?;
            if t.immutable_levels > 0 {
                return Err(INVALID_OPERATION);
            }
            for level in 1..MAX_LEVELS {
                t.images[0][level] = Image::default();
            }
        }
        let it = ImageTarget {
            target: TextureTarget::D2,
            face: 0,
            proxy: false,
        };
        let (_, handle) = self
            .define_image(&mut sh, it, 0, image.image)
            .ok_or(INVALID_OPERATION)?;
        sh.dev.push(Record::ImportEglImage {
            texture: handle,
            token: image.token,
        });
        Ok(())
    }
}

/// An image as the EGL registry keeps it.
pub(crate) struct ImageEntry {
    /// The display it was made on.
    pub display: usize,
    /// The image (shared with calls that take it without the registry's lock).
    pub image: Arc<EglImage>,
}

/// `EGL_GL_TEXTURE_2D_KHR`.
const GL_TEXTURE_2D_TARGET: i32 = 0x30B1;
/// `EGL_GL_TEXTURE_LEVEL_KHR`.
const GL_TEXTURE_LEVEL: i32 = 0x30BC;
/// `EGL_IMAGE_PRESERVED_KHR` (accepted; a texture's image is always preserved).
const IMAGE_PRESERVED: i32 = 0x30D2;

impl super::Registry {
    /// `eglCreateImage` / `eglCreateImageKHR` of a texture of context `ctx` of `dpy`:
    /// `EGL_GL_TEXTURE_2D` only (another target `BAD_PARAMETER`), attributes
    /// `EGL_GL_TEXTURE_LEVEL` and `EGL_IMAGE_PRESERVED` (another `BAD_PARAMETER`), a context
    /// of the display (`BAD_CONTEXT`); the texture's checks are the module's.
    pub fn create_image(
        &mut self,
        dpy: usize,
        ctx: usize,
        target: i32,
        buffer: usize,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        self.initialized(dpy)?;
        let group = self
            .contexts
            .get(&ctx)
            .filter(|c| c.display == dpy)
            .map(|c| c.group.clone())
            .ok_or(EglError::BadContext)?;
        if target != GL_TEXTURE_2D_TARGET {
            return Err(EglError::BadParameter);
        }
        let mut level = 0;
        for &(name, value) in list {
            match name {
                GL_TEXTURE_LEVEL => level = value,
                IMAGE_PRESERVED => {}
                _ => return Err(EglError::BadParameter),
            }
        }
        let texture = GLuint::try_from(buffer).map_err(|_| EglError::BadParameter)?;
        let images = &self.images;
        let image = create(&group, texture, level, |handle| {
            images.values().any(|i| i.image.made_of(&group, handle))
        })?;
        let handle = self.mint(TAG_IMAGE);
        self.images.insert(
            handle,
            ImageEntry {
                display: dpy,
                image: Arc::new(image),
            },
        );
        Ok(handle)
    }

    /// `eglDestroyImage`: a handle that is no live image of `dpy` is `BAD_PARAMETER`.
    /// Textures that took it keep its memory.
    pub fn destroy_image(&mut self, dpy: usize, image: usize) -> Result<(), EglError> {
        self.initialized(dpy)?;
        match self.images.get(&image) {
            Some(i) if i.display == dpy => {
                self.images.remove(&image);
                Ok(())
            }
            _ => Err(EglError::BadParameter),
        }
    }

    /// The live image of a handle (`glEGLImageTargetTexture2DOES`), or `None`.
    pub fn image(&self, image: usize) -> Option<Arc<EglImage>> {
        self.images.get(&image).map(|i| i.image.clone())
    }
}
