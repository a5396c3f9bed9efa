//! EGL images of GL textures (EGL 1.5 `eglCreateImage`, `EGL_KHR_image_base`,
//! `EGL_KHR_gl_texture_2D_image`) and `GL_OES_EGL_image`'s `glEGLImageTargetTexture2DOES`,
//! which gives a texture of any context of the process the image: the engine decides every
//! error (`tessera_engine::egl::image`), these shells read the arguments.

use tessera_engine::egl::registry;

use super::{EGLAttrib, EGLBoolean, EGLenum, EGLint, Handle, egl_call, handle, id};
use crate::current::gl_call;
use crate::gl::types::GLenum;
use crate::ptr;

/// `eglCreateImage`: an image of texture `buffer` of context `ctx` (`EGL_GL_TEXTURE_2D`).
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
        reg.create_image(id(dpy), id(ctx), target as i32, id(buffer), &list)
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
        reg.create_image(id(dpy), id(ctx), target as i32, id(buffer), &list)
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
