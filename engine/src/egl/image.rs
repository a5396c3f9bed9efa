//! EGL images of GL textures and renderbuffers (`EGL_KHR_image_base`,
//! `EGL_KHR_gl_texture_2D_image`, `EGL_KHR_gl_renderbuffer_image`, EGL 1.5 `eglCreateImage`)
//! and their use as a texture's image or a renderbuffer's storage (`GL_OES_EGL_image`'s
//! `glEGLImageTargetTexture2DOES` and `glEGLImageTargetRenderbufferStorageOES`), between
//! contexts that share nothing.
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
//!
//! Renderbuffers (`Record::ExportEglRenderbufferImage`, `Record::ImportEglRenderbufferImage`)
//! follow the extensions' words where Mesa differs: a name that is no renderbuffer, one
//! without storage or a multisampled one is `EGL_BAD_PARAMETER` (Mesa: `EGL_BAD_ALLOC`), a
//! second image of one renderbuffer `EGL_BAD_ACCESS` (Mesa makes it), a depth or stencil
//! one `EGL_BAD_MATCH`; `glEGLImageTargetRenderbufferStorageOES` of no image is
//! `INVALID_VALUE` (Mesa: `INVALID_OPERATION`), with no renderbuffer bound
//! `INVALID_OPERATION`. An image of either kind can be taken as either.

use std::sync::Arc;

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Image, MAX_LEVELS, Renderbuffer, Texture};
use tessera_components::state::TextureTarget;
use tessera_wire::Reply;
use tessera_wire::handle::{RenderbufferHandle, TextureHandle};
use tessera_wire::record::Record;

use super::EglError;
use super::display::TAG_IMAGE;
use crate::context::Context;
use crate::share::{ShareGroup, Shared};
use crate::texture::ImageTarget;
use crate::texture::block_bytes;

/// What an image was made of: a texture's level 0 or a renderbuffer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// Level 0 of a 2D texture (`EGL_GL_TEXTURE_2D`).
    Texture(TextureHandle),
    /// A renderbuffer (`EGL_GL_RENDERBUFFER`).
    Renderbuffer(RenderbufferHandle),
    /// A dma-buf (`EGL_LINUX_DMA_BUF_EXT`).
    DmaBuf,
}

/// An `EGLImage` made of level 0 of a 2D texture or of a renderbuffer: the backend's token
/// for it, the group it was made in, and the image's format and size (what a context that
/// takes it defines).
pub struct EglImage {
    /// The group whose backend made it (`None`: a dma-buf's, made by no backend).
    group: Option<Arc<ShareGroup>>,
    source: Source,
    token: u64,
    image: Image,
    /// The dma-buf it is made of (`EGL_LINUX_DMA_BUF_EXT`; `super::dma_buf`).
    dma_buf: Option<super::dma_buf::DmaBufSource>,
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
    /// Whether this image was made of `source` of `group` (a second image of one texture
    /// or renderbuffer is `EGL_BAD_ACCESS`).
    pub(crate) fn made_of(&self, group: &Arc<ShareGroup>, source: Source) -> bool {
        self.group.as_ref().is_some_and(|g| Arc::ptr_eq(g, group)) && self.source == source
    }

    /// Width and height of the image.
    pub fn size(&self) -> [i32; 2] {
        [self.image.width, self.image.height]
    }
}

impl Drop for EglImage {
    /// The backend's image goes with the last holder (textures made of it keep the memory).
    fn drop(&mut self) {
        let Some(group) = &self.group else {
            return;
        };
        let mut sh = group.lock();
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
    is_source: impl Fn(Source) -> bool,
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
    if is_source(Source::Texture(handle)) {
        return Err(EglError::BadAccess);
    }
    let reply = sh.dev.enc.mint_reply();
    sh.dev.push(Record::ExportEglImage {
        texture: handle,
        reply,
    });
    finish(group, &mut sh, reply, Source::Texture(handle), image)
}

/// The image of `source` once the backend replied to its export.
fn finish(
    group: &Arc<ShareGroup>,
    sh: &mut Shared,
    reply: tessera_wire::ReplyId,
    source: Source,
    image: Image,
) -> Result<EglImage, EglError> {
    match sh.wait(reply) {
        Some(Reply::EglImage(token)) if token != 0 => Ok(EglImage {
            group: Some(group.clone()),
            source,
            token,
            image,
            dma_buf: None,
        }),
        Some(Reply::EglImage(_)) => Err(EglError::BadMatch),
        _ => Err(EglError::ContextLost),
    }
}

/// The image of renderbuffer `renderbuffer` of `group` (`EGL_KHR_gl_renderbuffer_image`):
/// name 0, a name that is no renderbuffer, one without storage or a multisampled one is
/// `EGL_BAD_PARAMETER` (as the extension names; Mesa raises `EGL_BAD_ALLOC` for some), a
/// depth or stencil one `EGL_BAD_MATCH` (only colour images are taken), one already the
/// source of a live image `EGL_BAD_ACCESS` (as `EGL_KHR_image_base` names).
pub(crate) fn create_of_renderbuffer(
    group: &Arc<ShareGroup>,
    renderbuffer: GLuint,
    is_source: impl Fn(Source) -> bool,
) -> Result<EglImage, EglError> {
    let mut sh = group.lock();
    if !can_share(&sh) {
        return Err(EglError::BadAccess);
    }
    let entity = match sh.names.renderbuffers.entry(renderbuffer) {
        NameEntry::Object(e) if renderbuffer != 0 => e,
        _ => return Err(EglError::BadParameter),
    };
    let rb = sh
        .world
        .get::<Renderbuffer>(entity)
        .ok_or(EglError::BadParameter)?;
    let format = rb
        .format
        .filter(|_| rb.width > 0 && rb.height > 0)
        .ok_or(EglError::BadParameter)?;
    if rb.samples != 0 {
        return Err(EglError::BadParameter);
    }
    let info = format.info();
    if info.depth_bits != 0 || info.stencil_bits != 0 {
        return Err(EglError::BadMatch);
    }
    let image = Image {
        width: rb.width,
        height: rb.height,
        depth: 1,
        internal_format: rb.internal_format,
        format: Some(format),
        ..Image::default()
    };
    let handle = rb.handle;
    if is_source(Source::Renderbuffer(handle)) {
        return Err(EglError::BadAccess);
    }
    let reply = sh.dev.enc.mint_reply();
    sh.dev.push(Record::ExportEglRenderbufferImage {
        renderbuffer: handle,
        reply,
    });
    finish(group, &mut sh, reply, Source::Renderbuffer(handle), image)
}

impl Context {
    /// An `EGLImage` of level 0 of the 2D texture `texture` of this context's share group
    /// (`eglCreateImage` with `EGL_GL_TEXTURE_2D`; the module docs: where it works, the
    /// errors). Only one live image per texture: a host keeps the one it made.
    pub fn create_egl_image(&mut self, texture: GLuint) -> Result<EglImage, EglError> {
        create(&self.group, texture, 0, |_| false)
    }

    /// An `EGLImage` of the single-sampled colour renderbuffer `renderbuffer` of this
    /// context's share group (`eglCreateImage` with `EGL_GL_RENDERBUFFER`; errors:
    /// `create_of_renderbuffer`'s). Only one live image per renderbuffer.
    pub fn create_egl_renderbuffer_image(
        &mut self,
        renderbuffer: GLuint,
    ) -> Result<EglImage, EglError> {
        create_of_renderbuffer(&self.group, renderbuffer, |_| false)
    }

    /// `glEGLImageTargetRenderbufferStorageOES`: the renderbuffer bound to `target`
    /// (`RENDERBUFFER`) gets the image as its storage, single-sampled, sharing its memory
    /// with the image's texture or renderbuffer. A target other than `RENDERBUFFER` is
    /// `INVALID_ENUM`, no live image `INVALID_VALUE` (as `GL_OES_EGL_image` names it; Mesa
    /// raises `INVALID_OPERATION`), no bound renderbuffer or a context whose backend cannot
    /// take images `INVALID_OPERATION`.
    pub fn egl_image_target_renderbuffer_storage(
        &mut self,
        target: GLenum,
        image: Option<&EglImage>,
    ) {
        if let Err(e) = self.take_egl_image_as_renderbuffer(target, image) {
            self.error(e);
        }
    }

    fn take_egl_image_as_renderbuffer(
        &mut self,
        target: GLenum,
        image: Option<&EglImage>,
    ) -> crate::context::GlResult {
        if target != RENDERBUFFER {
            return Err(INVALID_ENUM);
        }
        let image = image.ok_or(INVALID_VALUE)?;
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if !can_share(&sh) {
            return Err(INVALID_OPERATION);
        }
        let e = self.local.st.renderbuffer.ok_or(INVALID_OPERATION)?;
        if image.dma_buf.is_some() {
            // A dma-buf's image is taken by textures only (`super::dma_buf`).
            return Err(INVALID_OPERATION);
        }
        let format = image.image.format.ok_or(INVALID_OPERATION)?;
        let Some(mut rb) = sh.world.get_mut::<Renderbuffer>(e) else {
            return Err(INVALID_OPERATION);
        };
        rb.internal_format = image.image.internal_format;
        rb.format = Some(format);
        rb.width = image.image.width;
        rb.height = image.image.height;
        rb.samples = 0;
        rb.generation = rb.generation.wrapping_add(1);
        let renderbuffer = rb.handle;
        sh.dev.push(Record::DefineRenderbuffer {
            renderbuffer,
            format,
            width: image.image.width as u32,
            height: image.image.height as u32,
            samples: 0,
        });
        sh.dev.push(Record::ImportEglRenderbufferImage {
            renderbuffer,
            token: image.token,
        });
        self.local.attachment_image_changed(&sh, e);
        Ok(())
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
        let handed = match &image.dma_buf {
            Some(d) => Some(d.handed_over().ok_or(OUT_OF_MEMORY)?),
            None => None,
        };
        let (_, handle) = self
            .define_image(&mut sh, it, 0, image.image)
            .ok_or(INVALID_OPERATION)?;
        match handed {
            Some(image) => sh.dev.push(Record::ImportDmaBufTexture {
                texture: handle,
                image,
            }),
            None => sh.dev.push(Record::ImportEglImage {
                texture: handle,
                token: image.token,
            }),
        }
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
/// `EGL_GL_RENDERBUFFER_KHR`.
const GL_RENDERBUFFER_TARGET: i32 = 0x30B9;
/// `EGL_LINUX_DMA_BUF_EXT`.
const LINUX_DMA_BUF_TARGET: i32 = 0x3270;
/// `EGL_GL_TEXTURE_LEVEL_KHR`.
const GL_TEXTURE_LEVEL: i32 = 0x30BC;
/// `EGL_IMAGE_PRESERVED_KHR` (accepted; a texture's image is always preserved).
const IMAGE_PRESERVED: i32 = 0x30D2;

impl super::Registry {
    /// `eglCreateImage` / `eglCreateImageKHR` of a texture or renderbuffer of context `ctx`
    /// of `dpy`: `EGL_GL_TEXTURE_2D` or `EGL_GL_RENDERBUFFER` (another target
    /// `BAD_PARAMETER`), attributes `EGL_GL_TEXTURE_LEVEL` (of a texture) and
    /// `EGL_IMAGE_PRESERVED` (another `BAD_PARAMETER`), a context of the display
    /// (`BAD_CONTEXT`); the object's checks are the module's.
    pub fn create_image(
        &mut self,
        dpy: usize,
        ctx: usize,
        target: i32,
        buffer: usize,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        self.create_image_with_fds(dpy, ctx, target, buffer, list, &|_| None)
    }

    /// [`create_image`](Self::create_image), and `EGL_LINUX_DMA_BUF_EXT` where the display
    /// offers it (`super::dma_buf`: its errors), whose plane descriptors `dup` duplicates
    /// (`None`: not an open descriptor). Where the display does not offer it, that target is
    /// `BAD_PARAMETER` (`EGL_KHR_image_base`: a target it does not take).
    pub fn create_image_with_fds(
        &mut self,
        dpy: usize,
        ctx: usize,
        target: i32,
        buffer: usize,
        list: &[(i32, i32)],
        dup: &dyn Fn(i32) -> Option<std::os::fd::OwnedFd>,
    ) -> Result<usize, EglError> {
        self.initialized(dpy)?;
        if target == LINUX_DMA_BUF_TARGET {
            let offered = dma_buf_offered();
            if !offered.import || ctx != 0 || buffer != 0 {
                return Err(EglError::BadParameter);
            }
            let listed: Option<Vec<i32>> = offered
                .formats
                .as_ref()
                .map(|f| f.iter().map(|f| f.fourcc).collect());
            let source = super::dma_buf::parse(list, listed.as_deref(), dup)?;
            let image = EglImage {
                group: None,
                source: Source::DmaBuf,
                token: 0,
                image: Image {
                    width: source.import.size[0],
                    height: source.import.size[1],
                    depth: 1,
                    internal_format: source.format.1,
                    format: Some(source.format.0),
                    ..Image::default()
                },
                dma_buf: Some(source),
            };
            let handle = self.mint(TAG_IMAGE);
            self.images.insert(
                handle,
                ImageEntry {
                    display: dpy,
                    image: Arc::new(image),
                },
            );
            return Ok(handle);
        }
        let group = self
            .contexts
            .get(&ctx)
            .filter(|c| c.display == dpy)
            .map(|c| c.group.clone())
            .ok_or(EglError::BadContext)?;
        if target != GL_TEXTURE_2D_TARGET && target != GL_RENDERBUFFER_TARGET {
            return Err(EglError::BadParameter);
        }
        let mut level = 0;
        for &(name, value) in list {
            match name {
                GL_TEXTURE_LEVEL if target == GL_TEXTURE_2D_TARGET => level = value,
                IMAGE_PRESERVED => {}
                _ => return Err(EglError::BadParameter),
            }
        }
        let name = GLuint::try_from(buffer).map_err(|_| EglError::BadParameter)?;
        let images = &self.images;
        let is_source = |source| images.values().any(|i| i.image.made_of(&group, source));
        let image = if target == GL_RENDERBUFFER_TARGET {
            create_of_renderbuffer(&group, name, is_source)?
        } else {
            create(&group, name, level, is_source)?
        };
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

    /// `eglExportDMABUFImageMESA` (and its query, which closes the descriptors): the image
    /// as a dma-buf of the native display. A handle that is no live image of `dpy` is
    /// `BAD_PARAMETER`; on a display that does not offer `EGL_MESA_image_dma_buf_export`
    /// ([`dma_buf_offered`]), or where the driver refuses the image, `BAD_ACCESS`.
    pub fn export_dma_buf(&mut self, dpy: usize, image: usize) -> Result<DmaBuf, EglError> {
        self.initialized(dpy)?;
        let image = match self.images.get(&image) {
            Some(i) if i.display == dpy => i.image.clone(),
            _ => return Err(EglError::BadParameter),
        };
        let Some(group) = image.group.as_ref().filter(|_| dma_buf_offered().export) else {
            return Err(EglError::BadAccess);
        };
        let mut sh = group.lock();
        if !can_share(&sh) {
            return Err(EglError::BadAccess);
        }
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::ExportDmaBuf {
            token: image.token,
            reply,
        });
        match sh.wait(reply) {
            Some(Reply::DmaBuf(Some(p))) => Ok(DmaBuf {
                fourcc: p.fourcc,
                modifier: p.modifier,
                planes: p
                    .planes
                    .iter()
                    .map(|plane| DmaBufPlane {
                        fd: tessera_wire::backend::take_handed_fd(plane.fd_token),
                        stride: plane.stride,
                        offset: plane.offset,
                    })
                    .collect(),
            }),
            Some(Reply::DmaBuf(None)) => Err(EglError::BadAccess),
            _ => Err(EglError::ContextLost),
        }
    }

    /// `eglQueryDmaBufFormatsEXT`: the DRM formats the display imports, none on a display
    /// that does not offer `EGL_EXT_image_dma_buf_import_modifiers` ([`dma_buf_offered`]).
    /// A negative `max`, or a positive one without an array to fill (`has_array`), is
    /// `BAD_PARAMETER`.
    pub fn dma_buf_formats(
        &mut self,
        dpy: usize,
        max: i32,
        has_array: bool,
    ) -> Result<Vec<i32>, EglError> {
        self.initialized(dpy)?;
        if max < 0 || (max > 0 && !has_array) {
            return Err(EglError::BadParameter);
        }
        let offered = dma_buf_offered();
        Ok(offered
            .formats
            .iter()
            .flatten()
            .map(|f| f.fourcc)
            .filter(|&f| super::dma_buf::format_of_fourcc(f).is_some())
            .collect())
    }

    /// `eglQueryDmaBufModifiersEXT`: the modifiers of a format the display imports (none
    /// does on a display without `EGL_EXT_image_dma_buf_import_modifiers`): a format it
    /// does not import, a negative `max`, or a positive one without an array to fill, is
    /// `BAD_PARAMETER`.
    pub fn dma_buf_modifiers(
        &mut self,
        dpy: usize,
        format: i32,
        max: i32,
        has_array: bool,
    ) -> Result<Vec<(u64, bool)>, EglError> {
        let formats = self.dma_buf_formats(dpy, max, has_array)?;
        if !formats.contains(&format) {
            return Err(EglError::BadParameter);
        }
        let offered = dma_buf_offered();
        let listed = offered
            .formats
            .iter()
            .flatten()
            .find(|f| f.fourcc == format);
        Ok(listed.map(|f| f.modifiers.clone()).unwrap_or_default())
    }
}

/// An image's dma-buf (`eglExportDMABUFImageMESA`): its DRM format and modifier, and per
/// plane its descriptor (`None`: a plane in the first plane's buffer), stride and offset.
#[derive(Debug)]
pub struct DmaBuf {
    /// DRM fourcc.
    pub fourcc: i32,
    /// DRM format modifier of every plane.
    pub modifier: u64,
    /// The planes, at most 4.
    pub planes: Vec<DmaBufPlane>,
}

/// One plane of a [`DmaBuf`].
#[derive(Debug)]
pub struct DmaBufPlane {
    /// Its descriptor, the caller's to close.
    pub fd: Option<std::os::fd::OwnedFd>,
    /// Bytes per row.
    pub stride: i32,
    /// Bytes from the start of the buffer.
    pub offset: i32,
}

/// The dma-buf extensions a Tessera display offers: those of the native display the GLES
/// backend runs on ([`native_dma_buf`](tessera_backend_gles::discover::native_dma_buf)),
/// where the display offers images at all
/// ([`images_offered`](super::display::images_offered)). llvmpipe's display offers none, so
/// CI exercises only the refusals.
#[derive(Clone, Debug, Default)]
pub struct DmaBufOffered {
    /// `EGL_MESA_image_dma_buf_export`.
    pub export: bool,
    /// `EGL_EXT_image_dma_buf_import`.
    pub import: bool,
    /// `EGL_EXT_image_dma_buf_import_modifiers`, with the formats the native display lists.
    pub formats: Option<Vec<tessera_backend_gles::discover::DmaBufFormat>>,
    /// `EGL_KHR_gl_renderbuffer_image`, which the native display must have too.
    pub renderbuffer_images: bool,
}

/// What the display offers of the dma-buf extensions ([`DmaBufOffered`]).
pub fn dma_buf_offered() -> DmaBufOffered {
    if !super::display::images_offered() {
        return DmaBufOffered::default();
    }
    let native = tessera_backend_gles::discover::native_dma_buf();
    DmaBufOffered {
        export: native.export,
        import: native.import,
        formats: native.modifiers.clone().filter(|_| native.import),
        renderbuffer_images: native.renderbuffer_images,
    }
}
