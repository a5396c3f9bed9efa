//! EGL images of GL textures and renderbuffers (EGL 1.5 `eglCreateImage`,
//! `EGL_KHR_image_base`, `EGL_KHR_gl_texture_2D_image`, `EGL_KHR_gl_renderbuffer_image`) and
//! `GL_OES_EGL_image`'s `glEGLImageTargetTexture2DOES` and
//! `glEGLImageTargetRenderbufferStorageOES`, which give a texture or renderbuffer of any
//! context of the process the image: the engine decides every error
//! (`tessera_engine::egl::image`), these shells read the arguments.

use tessera_engine::egl::registry;

use super::{EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, egl_call, handle, id};
use crate::current::gl_call;
use crate::gl::types::GLenum;
use crate::ptr;

/// A duplicate of a descriptor an application named in `EGL_DMA_BUF_PLANE*_FD_EXT`, which
/// the image keeps (the application may close its own); `None` if it is not open.
fn dup(fd: i32) -> Option<std::os::fd::OwnedFd> {
    if fd < 0 {
        return None;
    }
    // SAFETY: a descriptor the application hands EGL as open for the call; it is only
    // borrowed for the duplicate (F_DUPFD_CLOEXEC, which fails on a closed one), never closed.
    unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }
        .try_clone_to_owned()
        .ok()
}

/// `eglCreateImage`: an image of texture or renderbuffer `buffer` of context `ctx`
/// (`EGL_GL_TEXTURE_2D`, `EGL_GL_RENDERBUFFER`), or of a dma-buf (`EGL_LINUX_DMA_BUF_EXT`,
/// where the display offers it).
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateImage(
    dpy: Handle,
    ctx: Handle,
    target: EGLenum,
    buffer: Handle,
    attrib_list: *const EGLAttrib,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs_wide(attrib_list) };
    egl_call("eglCreateImage", std::ptr::null_mut(), |_, reg| {
        reg.create_image_with_fds(id(dpy), id(ctx), target as i32, id(buffer), &list, &dup)
            .map(handle)
    })
}

/// `eglCreateImageKHR` (`EGL_KHR_image_base`): as [`eglCreateImage`] with `EGLint`
/// attributes.
///
/// # Safety
/// `attrib_list` is null or `EGL_NONE`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglCreateImageKHR(
    dpy: Handle,
    ctx: Handle,
    target: EGLenum,
    buffer: Handle,
    attrib_list: *const EGLint,
) -> Handle {
    // SAFETY: the caller's contract.
    let list = unsafe { ptr::attribs(attrib_list) };
    egl_call("eglCreateImageKHR", std::ptr::null_mut(), |_, reg| {
        reg.create_image_with_fds(id(dpy), id(ctx), target as i32, id(buffer), &list, &dup)
            .map(handle)
    })
}

/// `eglDestroyImage`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroyImage(dpy: Handle, image: Handle) -> EGLBoolean {
    egl_call("eglDestroyImage", 0, |_, reg| {
        reg.destroy_image(id(dpy), id(image)).map(|()| 1)
    })
}

/// `eglDestroyImageKHR`.
#[unsafe(no_mangle)]
pub extern "C" fn eglDestroyImageKHR(dpy: Handle, image: Handle) -> EGLBoolean {
    egl_call("eglDestroyImageKHR", 0, |_, reg| {
        reg.destroy_image(id(dpy), id(image)).map(|()| 1)
    })
}

/// `glEGLImageTargetTexture2DOES` (`GL_OES_EGL_image`): the texture bound to `target` takes
/// the image as its level 0.
#[unsafe(no_mangle)]
pub extern "C" fn glEGLImageTargetTexture2DOES(target: GLenum, image: Handle) {
    let image = registry().image(id(image));
    gl_call("glEGLImageTargetTexture2DOES", (), |c| {
        c.egl_image_target_texture_2d(target, image.as_deref())
    });
}

/// `glEGLImageTargetRenderbufferStorageOES` (`GL_OES_EGL_image`): the renderbuffer bound to
/// `target` takes the image as its storage.
#[unsafe(no_mangle)]
pub extern "C" fn glEGLImageTargetRenderbufferStorageOES(target: GLenum, image: Handle) {
    let image = registry().image(id(image));
    gl_call("glEGLImageTargetRenderbufferStorageOES", (), |c| {
        c.egl_image_target_renderbuffer_storage(target, image.as_deref())
    });
}

/// `eglExportDMABUFImageQueryMESA` (`EGL_MESA_image_dma_buf_export`): the DRM format, the
/// number of planes and each plane's modifier of the image's dma-buf (the engine decides
/// every error: `Registry::export_dma_buf`).
///
/// # Safety
/// Each pointer is null or valid for writing (`modifiers` for every plane).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglExportDMABUFImageQueryMESA(
    dpy: Handle,
    image: Handle,
    fourcc: *mut EGLint,
    num_planes: *mut EGLint,
    modifiers: *mut u64,
) -> EGLBoolean {
    egl_call("eglExportDMABUFImageQueryMESA", 0, |_, reg| {
        let buf = reg.export_dma_buf(id(dpy), id(image))?;
        // SAFETY: the caller's contract; the descriptors are closed when `buf` drops.
        unsafe {
            if !fourcc.is_null() {
                *fourcc = buf.fourcc;
            }
            if !num_planes.is_null() {
                *num_planes = buf.planes.len() as EGLint;
            }
            if !modifiers.is_null() {
                for i in 0..buf.planes.len() {
                    *modifiers.add(i) = buf.modifier;
                }
            }
        }
        Ok(1)
    })
}

/// `eglExportDMABUFImageMESA`: the image's dma-buf, one descriptor (the caller's to close;
/// -1 for a plane in the first plane's buffer), stride and offset per plane.
///
/// # Safety
/// Each pointer is null or valid for writing one value per plane.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglExportDMABUFImageMESA(
    dpy: Handle,
    image: Handle,
    fds: *mut i32,
    strides: *mut EGLint,
    offsets: *mut EGLint,
) -> EGLBoolean {
    use std::os::fd::IntoRawFd;
    egl_call("eglExportDMABUFImageMESA", 0, |_, reg| {
        let buf = reg.export_dma_buf(id(dpy), id(image))?;
        for (i, plane) in buf.planes.into_iter().enumerate() {
            // SAFETY: the caller's contract.
            unsafe {
                if !fds.is_null() {
                    *fds.add(i) = plane.fd.map_or(-1, IntoRawFd::into_raw_fd);
                }
                if !strides.is_null() {
                    *strides.add(i) = plane.stride;
                }
                if !offsets.is_null() {
                    *offsets.add(i) = plane.offset;
                }
            }
        }
        Ok(1)
    })
}

/// `eglQueryDmaBufFormatsEXT` (`EGL_EXT_image_dma_buf_import_modifiers`): the DRM formats
/// the display imports (`Registry::dma_buf_formats`).
///
/// # Safety
/// `formats` is null or valid for `max_formats` values; `num_formats` is null or valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQueryDmaBufFormatsEXT(
    dpy: Handle,
    max_formats: EGLint,
    formats: *mut EGLint,
    num_formats: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglQueryDmaBufFormatsEXT", 0, |_, reg| {
        let list = reg.dma_buf_formats(id(dpy), max_formats, !formats.is_null())?;
        let n = if max_formats == 0 {
            list.len()
        } else {
            list.len().min(max_formats as usize)
        };
        // SAFETY: the caller's contract; at most `max_formats` values are written.
        unsafe {
            if max_formats > 0 {
                std::ptr::copy_nonoverlapping(list.as_ptr(), formats, n);
            }
            if !num_formats.is_null() {
                *num_formats = n as EGLint;
            }
        }
        Ok(1)
    })
}

/// `eglQueryDmaBufModifiersEXT`: the modifiers of a format the display imports, and whether
/// each is external only (`Registry::dma_buf_modifiers`).
///
/// # Safety
/// `modifiers` and `external_only` are null or valid for `max_modifiers` values;
/// `num_modifiers` is null or valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eglQueryDmaBufModifiersEXT(
    dpy: Handle,
    format: EGLint,
    max_modifiers: EGLint,
    modifiers: *mut u64,
    external_only: *mut EGLBoolean,
    num_modifiers: *mut EGLint,
) -> EGLBoolean {
    egl_call("eglQueryDmaBufModifiersEXT", 0, |_, reg| {
        let list = reg.dma_buf_modifiers(id(dpy), format, max_modifiers, !modifiers.is_null())?;
        let n = if max_modifiers == 0 {
            list.len()
        } else {
            list.len().min(max_modifiers as usize)
        };
        // SAFETY: the caller's contract; at most `max_modifiers` values are written.
        unsafe {
            if max_modifiers > 0 {
                for (i, &(modifier, external)) in list.iter().take(n).enumerate() {
                    *modifiers.add(i) = modifier;
                    if !external_only.is_null() {
                        *external_only.add(i) = EGLBoolean::from(external);
                    }
                }
            }
            if !num_modifiers.is_null() {
                *num_modifiers = n as EGLint;
            }
        }
        Ok(1)
    })
}
