//! Textures and renderbuffers shared between sessions of one process as native `EGLImage`s
//! (`ExportEglImage`, `ImportEglImage`, `ExportEglRenderbufferImage`,
//! `ImportEglRenderbufferImage`, `DestroyEglImage`).
//!
//! Every share group of the engine has its own session, so its own native context: an
//! unshared context cannot name another's textures. An export makes an `EGLImage` of the
//! exporting context's native texture (`eglCreateImageKHR`, `EGL_GL_TEXTURE_2D_KHR`) after
//! `glFinish`, and keeps it in this process-wide table under a token; an import makes a new
//! native texture of the importing context a sibling of it (`glEGLImageTargetTexture2DOES`).
//! Renderbuffers go the same way (`EGL_GL_RENDERBUFFER_KHR`), and an import redefines the
//! importing renderbuffer's storage in place (`glEGLImageTargetRenderbufferStorageOES`), so
//! framebuffers it is attached to keep it.
//! Both contexts are on the same native `EGLDisplay`: backends of one process open the
//! driver's default (or surfaceless) display, which EGL hands out once per native display.
//! An image of another display is refused (reported, the texture keeps its own storage).
//! Tokens mean nothing outside the process: the engine sends these records only on the
//! in-process transports.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// `eglCreateImageKHR`.
pub(crate) type CreateImageFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, u32, *mut c_void, *const i32) -> *mut c_void;
/// `eglDestroyImageKHR`.
pub(crate) type DestroyImageFn = unsafe extern "C" fn(*mut c_void, *mut c_void) -> u32;
/// `glEGLImageTargetTexture2DOES`.
pub(crate) type TargetTextureFn = unsafe extern "C" fn(u32, *mut c_void);
/// `glEGLImageTargetRenderbufferStorageOES`.
pub(crate) type TargetRenderbufferFn = unsafe extern "C" fn(u32, *mut c_void);

/// `eglExportDMABUFImageQueryMESA`.
pub(crate) type ExportQueryFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut i32, *mut i32, *mut u64) -> u32;
/// `eglExportDMABUFImageMESA`.
pub(crate) type ExportDmaBufFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut i32, *mut i32, *mut i32) -> u32;
/// `eglQueryDmaBufFormatsEXT`.
pub(crate) type QueryFormatsFn = unsafe extern "C" fn(*mut c_void, i32, *mut i32, *mut i32) -> u32;
/// `eglQueryDmaBufModifiersEXT`.
pub(crate) type QueryModifiersFn =
    unsafe extern "C" fn(*mut c_void, i32, i32, *mut u64, *mut u32, *mut i32) -> u32;

/// The dma-buf entry points of a native display, each where the display has its extension
/// (`EGL_MESA_image_dma_buf_export`, `EGL_EXT_image_dma_buf_import_modifiers`).
#[derive(Clone, Copy, Default)]
pub(crate) struct DmaBufEgl {
    /// `eglExportDMABUFImageQueryMESA` and `eglExportDMABUFImageMESA`.
    pub export: Option<(ExportQueryFn, ExportDmaBufFn)>,
    /// Whether the display has `EGL_EXT_image_dma_buf_import`.
    pub import: bool,
    /// `eglQueryDmaBufFormatsEXT` and `eglQueryDmaBufModifiersEXT`.
    pub modifiers: Option<(QueryFormatsFn, QueryModifiersFn)>,
}

/// What the process's native display offers of the dma-buf extensions, which a Tessera
/// display advertises exactly where the GLES backend runs on it ([`native_dma_buf`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DmaBufOffer {
    /// `EGL_MESA_image_dma_buf_export`.
    pub export: bool,
    /// `EGL_EXT_image_dma_buf_import`.
    pub import: bool,
    /// `EGL_EXT_image_dma_buf_import_modifiers`, with what it answered: every format the
    /// display imports.
    pub modifiers: Option<Vec<DmaBufFormat>>,
    /// `EGL_KHR_gl_renderbuffer_image`: asked of the same display, so that a Tessera
    /// display lists renderbuffer images only where the backend can make them.
    pub renderbuffer_images: bool,
}

/// A format a native display imports dma-bufs of (`eglQueryDmaBufFormatsEXT`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DmaBufFormat {
    /// DRM fourcc.
    pub fourcc: i32,
    /// Its modifiers (`eglQueryDmaBufModifiersEXT`), with whether each is external only.
    pub modifiers: Vec<(u64, bool)>,
}

impl DmaBufEgl {
    /// What these entry points offer, the formats and modifiers asked of `display` once.
    fn offer(&self, display: *mut c_void) -> DmaBufOffer {
        let modifiers = self.modifiers.map(|(formats, modifiers)| {
            let mut n = 0;
            // SAFETY: an initialised display of this EGL; a count query (max 0, no array).
            if unsafe { formats(display, 0, std::ptr::null_mut(), &mut n) } == 0 || n <= 0 {
                return Vec::new();
            }
            let mut list = vec![0; n as usize];
            // SAFETY: `list` has room for `n` formats.
            if unsafe { formats(display, n, list.as_mut_ptr(), &mut n) } == 0 {
                return Vec::new();
            }
            list.truncate(n.max(0) as usize);
            list.into_iter()
                .map(|format| {
                    let mut m = 0;
                    let null = std::ptr::null_mut();
                    // SAFETY: as above, a count query.
                    if unsafe { modifiers(display, format, 0, null, null.cast(), &mut m) } == 0
                        || m <= 0
                    {
                        return DmaBufFormat {
                            fourcc: format,
                            modifiers: Vec::new(),
                        };
                    }
                    let (mut mods, mut external) = (vec![0u64; m as usize], vec![0u32; m as usize]);
                    // SAFETY: both arrays have room for `m` entries.
                    let ok = unsafe {
                        modifiers(
                            display,
                            format,
                            m,
                            mods.as_mut_ptr(),
                            external.as_mut_ptr(),
                            &mut m,
                        )
                    };
                    let m = if ok == 0 { 0 } else { m.max(0) as usize };
                    let pairs = mods.into_iter().zip(external).take(m);
                    DmaBufFormat {
                        fourcc: format,
                        modifiers: pairs.map(|(m, e)| (m, e != 0)).collect(),
                    }
                })
                .collect()
        });
        DmaBufOffer {
            export: self.export.is_some(),
            import: self.import,
            modifiers,
            renderbuffer_images: false,
        }
    }
}

/// What the process's native display offers of the dma-buf extensions: a GLES backend's
/// display is asked once per process (a backend made and dropped for it), nothing where
/// no native EGL gives a context. llvmpipe's surfaceless display offers none of them.
pub fn native_dma_buf() -> &'static DmaBufOffer {
    static OFFER: std::sync::OnceLock<DmaBufOffer> = std::sync::OnceLock::new();
    OFFER.get_or_init(|| match crate::egl::Egl::new(None) {
        Ok(egl) => {
            let offer = DmaBufOffer {
                renderbuffer_images: egl.display_has("EGL_KHR_gl_renderbuffer_image"),
                ..egl.dma_buf_egl().offer(egl.display())
            };
            egl.release();
            offer
        }
        Err(_) => DmaBufOffer::default(),
    })
}

/// `EGL_GL_TEXTURE_2D_KHR`.
const EGL_GL_TEXTURE_2D: u32 = 0x30B1;
/// `EGL_GL_RENDERBUFFER_KHR`.
const EGL_GL_RENDERBUFFER: u32 = 0x30B9;
/// `EGL_GL_TEXTURE_LEVEL_KHR`.
const EGL_GL_TEXTURE_LEVEL: i32 = 0x30BC;
/// `EGL_NONE`.
const EGL_NONE: i32 = 0x3038;

/// What a backend needs to make and use images: its display and context, and the entry
/// points, all resolved when the backend was made (`None` there: the driver lacks
/// `EGL_KHR_gl_texture_2D_image` or `GL_OES_EGL_image`).
#[derive(Clone, Copy)]
pub(crate) struct ImageEgl {
    /// The backend's native display.
    pub display: *mut c_void,
    /// The backend's native context.
    pub context: *mut c_void,
    /// `eglCreateImageKHR`.
    pub create: CreateImageFn,
    /// `eglDestroyImageKHR`.
    pub destroy: DestroyImageFn,
    /// `glEGLImageTargetTexture2DOES`.
    pub target_texture: TargetTextureFn,
    /// `glEGLImageTargetRenderbufferStorageOES` where the display also has
    /// `EGL_KHR_gl_renderbuffer_image` (`None`: renderbuffers make no images).
    pub target_renderbuffer: Option<TargetRenderbufferFn>,
    /// The display's dma-buf entry points.
    pub dma_buf: DmaBufEgl,
}

/// One image of the table: its display, the image, and how to destroy it.
struct Entry {
    display: usize,
    image: usize,
    destroy: DestroyImageFn,
}

static IMAGES: Mutex<Option<HashMap<u64, Entry>>> = Mutex::new(None);
static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

fn with_table<T>(f: impl FnOnce(&mut HashMap<u64, Entry>) -> T) -> T {
    let mut guard = IMAGES.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(HashMap::new))
}

impl ImageEgl {
    /// An image of level 0 of the native 2D texture `texture` of the backend's context (which
    /// is current, its work finished), kept under a new token; 0 if the driver refused.
    pub(crate) fn export(&self, texture: u32) -> u64 {
        self.export_buffer(
            EGL_GL_TEXTURE_2D,
            texture,
            &[EGL_GL_TEXTURE_LEVEL, 0, EGL_NONE],
        )
    }

    /// An image of the native renderbuffer `renderbuffer` of the backend's context (current,
    /// its work finished), kept under a new token; 0 if the driver refused or has no
    /// `EGL_KHR_gl_renderbuffer_image`.
    pub(crate) fn export_renderbuffer(&self, renderbuffer: u32) -> u64 {
        if self.target_renderbuffer.is_none() {
            return 0;
        }
        self.export_buffer(EGL_GL_RENDERBUFFER, renderbuffer, &[EGL_NONE])
    }

    fn export_buffer(&self, target: u32, name: u32, attribs: &[i32]) -> u64 {
        // SAFETY: display and context are the backend's own live ones, current on this
        // thread; the client buffer of EGL_GL_TEXTURE_2D_KHR and EGL_GL_RENDERBUFFER_KHR is
        // an object name cast to a pointer, as the extensions specify; every caller's
        // attribute list is EGL_NONE-terminated.
        let image = unsafe {
            (self.create)(
                self.display,
                self.context,
                target,
                name as usize as *mut c_void,
                attribs.as_ptr(),
            )
        };
        if image.is_null() {
            return 0;
        }
        let token = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
        with_table(|t| {
            t.insert(
                token,
                Entry {
                    display: self.display as usize,
                    image: image as usize,
                    destroy: self.destroy,
                },
            )
        });
        token
    }

    /// Makes the native texture bound to `TEXTURE_2D` of the current context a sibling of
    /// the token's image; false if there is no such image or it is of another display.
    pub(crate) fn import(&self, token: u64) -> bool {
        let Some(image) = self.image_of(token) else {
            return false;
        };
        // SAFETY: the context is current with the new texture bound to TEXTURE_2D; `image`
        // is a live image of this context's display (the table holds it until
        // `DestroyEglImage`, and siblings keep the storage after that).
        unsafe { (self.target_texture)(0x0DE1, image as *mut c_void) };
        true
    }

    /// Makes the native renderbuffer bound to `RENDERBUFFER` of the current context a
    /// sibling of the token's image; false if there is no such image of this display or
    /// the driver has no `glEGLImageTargetRenderbufferStorageOES`.
    pub(crate) fn import_renderbuffer(&self, token: u64) -> bool {
        let (Some(target), Some(image)) = (self.target_renderbuffer, self.image_of(token)) else {
            return false;
        };
        // SAFETY: the context is current with the renderbuffer bound to RENDERBUFFER;
        // `image` is a live image of this context's display (held by the table).
        unsafe { target(0x8D41, image as *mut c_void) };
        true
    }

    /// The token's image as a dma-buf (`eglExportDMABUFImageMESA`), its descriptors left in
    /// the process's table for the engine; `None` where the display exports none or the
    /// driver refused this image.
    pub(crate) fn export_dma_buf(&self, token: u64) -> Option<tessera_wire::backend::DmaBufPlanes> {
        use std::os::fd::{FromRawFd, OwnedFd};
        let (query, export) = self.dma_buf.export?;
        let image = self.image_of(token)? as *mut c_void;
        let (mut fourcc, mut planes, mut modifiers) = (0, 0, [0u64; 4]);
        // SAFETY: a live image of this display (the table holds it); `modifiers` has room
        // for the 4 planes an image has at most.
        let ok = unsafe {
            query(
                self.display,
                image,
                &mut fourcc,
                &mut planes,
                modifiers.as_mut_ptr(),
            )
        };
        if ok == 0 || !(1..=4).contains(&planes) {
            return None;
        }
        let (mut fds, mut strides, mut offsets) = ([-1i32; 4], [0i32; 4], [0i32; 4]);
        // SAFETY: as above; each array has room for 4 planes.
        let ok = unsafe {
            export(
                self.display,
                image,
                fds.as_mut_ptr(),
                strides.as_mut_ptr(),
                offsets.as_mut_ptr(),
            )
        };
        // Descriptors the driver opened are owned here from now on, closed if unused.
        let owned: Vec<Option<OwnedFd>> = fds
            .iter()
            .map(|&fd| {
                // SAFETY: a descriptor eglExportDMABUFImageMESA opened for the caller (or -1).
                (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
            })
            .collect();
        if ok == 0 {
            return None;
        }
        let planes = owned
            .into_iter()
            .take(planes as usize)
            .enumerate()
            .map(|(i, fd)| {
                // A plane of the first one's buffer has no descriptor of its own.
                let fd_token = fd.map_or(0, tessera_wire::backend::hand_over_fd);
                tessera_wire::backend::DmaBufPlane {
                    fd_token,
                    stride: strides[i],
                    offset: offsets[i],
                }
            })
            .collect();
        Some(tessera_wire::backend::DmaBufPlanes {
            fourcc,
            modifier: modifiers[0],
            planes,
        })
    }

    /// Makes the native texture bound to `TEXTURE_2D` of the current context an image of a
    /// dma-buf (`eglCreateImageKHR` with `EGL_LINUX_DMA_BUF_EXT` on the backend's display,
    /// `glEGLImageTargetTexture2DOES`), then releases the image (the texture keeps the
    /// memory); the descriptors are taken from the process's table and closed here. False
    /// where the display imports no dma-bufs or the driver refused them.
    pub(crate) fn import_dma_buf(&self, image: &tessera_wire::record::DmaBufImport) -> bool {
        use std::os::fd::AsRawFd;
        /// `EGL_LINUX_DMA_BUF_EXT`.
        const LINUX_DMA_BUF: u32 = 0x3270;
        /// `EGL_PLANE{0..3}_{FD,OFFSET,PITCH,MODIFIER_LO,MODIFIER_HI}` by plane.
        const PLANES: [[i32; 5]; 4] = [
            [0x3272, 0x3273, 0x3274, 0x3443, 0x3444],
            [0x3275, 0x3276, 0x3277, 0x3445, 0x3446],
            [0x3278, 0x3279, 0x327A, 0x3447, 0x3448],
            [0x3440, 0x3441, 0x3442, 0x3449, 0x344A],
        ];
        let fds: Vec<_> = image
            .planes
            .iter()
            .map(|p| tessera_wire::backend::take_handed_fd(p.fd_token))
            .collect();
        if !self.dma_buf.import || fds.iter().any(Option::is_none) {
            return false;
        }
        let mut attribs = vec![
            0x3057, // EGL_WIDTH
            image.size[0],
            0x3056, // EGL_HEIGHT
            image.size[1],
            0x3271, // EGL_LINUX_DRM_FOURCC_EXT
            image.fourcc,
        ];
        for ((plane, fd), names) in image.planes.iter().zip(&fds).zip(PLANES) {
            let fd = fd.as_ref().map_or(-1, AsRawFd::as_raw_fd);
            attribs.extend([names[0], fd, names[1], plane.offset, names[2], plane.pitch]);
            if let Some(m) = plane.modifier {
                attribs.extend([names[3], m as u32 as i32, names[4], (m >> 32) as u32 as i32]);
            }
        }
        for &(name, value) in &image.hints {
            attribs.extend([name, value]);
        }
        attribs.push(EGL_NONE);
        // SAFETY: the backend's live display; EGL_LINUX_DMA_BUF_EXT takes no context and a
        // null client buffer; the descriptors are open (held in `fds`, which EGL duplicates
        // as it needs); the list is EGL_NONE-terminated.
        let native = unsafe {
            (self.create)(
                self.display,
                std::ptr::null_mut(),
                LINUX_DMA_BUF,
                std::ptr::null_mut(),
                attribs.as_ptr(),
            )
        };
        if native.is_null() {
            return false;
        }
        // SAFETY: the context is current with the texture bound to TEXTURE_2D; `native` is
        // a live image of its display, destroyed once after (the texture keeps the memory).
        unsafe {
            (self.target_texture)(0x0DE1, native);
            (self.destroy)(self.display, native);
        }
        true
    }

    /// The native image of a token, if it is of this backend's display.
    fn image_of(&self, token: u64) -> Option<usize> {
        with_table(|t| {
            t.get(&token)
                .filter(|e| e.display == self.display as usize)
                .map(|e| e.image)
        })
    }
}

/// Destroys the token's image (`DestroyEglImage`); textures made of it keep the storage.
pub(crate) fn destroy(token: u64) {
    if let Some(e) = with_table(|t| t.remove(&token)) {
        // SAFETY: an image made on this display by `export` and not destroyed before (it
        // was in the table); eglDestroyImageKHR needs no current context.
        unsafe { (e.destroy)(e.display as *mut c_void, e.image as *mut c_void) };
    }
}
