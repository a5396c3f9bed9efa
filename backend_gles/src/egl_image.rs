//! Textures shared between sessions of one process as native `EGLImage`s
//! (`ExportEglImage`, `ImportEglImage`, `DestroyEglImage`).
//!
//! Every share group of the engine has its own session, so its own native context: an
//! unshared context cannot name another's textures. An export makes an `EGLImage` of the
//! exporting context's native texture (`eglCreateImageKHR`, `EGL_GL_TEXTURE_2D_KHR`) after
//! `glFinish`, and keeps it in this process-wide table under a token; an import makes a new
//! native texture of the importing context a sibling of it (`glEGLImageTargetTexture2DOES`).
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

/// `EGL_GL_TEXTURE_2D_KHR`.
const EGL_GL_TEXTURE_2D: u32 = 0x30B1;
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
        let attribs = [EGL_GL_TEXTURE_LEVEL, 0, EGL_NONE];
        // SAFETY: display and context are the backend's own live ones, current on this
        // thread; the client buffer of EGL_GL_TEXTURE_2D_KHR is a texture name cast to a
        // pointer, as the extension specifies; the attribute list is EGL_NONE-terminated.
        let image = unsafe {
            (self.create)(
                self.display,
                self.context,
                EGL_GL_TEXTURE_2D,
                texture as usize as *mut c_void,
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
        let image = with_table(|t| {
            t.get(&token)
                .filter(|e| e.display == self.display as usize)
                .map(|e| e.image)
        });
        let Some(image) = image else {
            return false;
        };
        // SAFETY: the context is current with the new texture bound to TEXTURE_2D; `image`
        // is a live image of this context's display (the table holds it until
        // `DestroyEglImage`, and siblings keep the storage after that).
        unsafe { (self.target_texture)(0x0DE1, image as *mut c_void) };
        true
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
