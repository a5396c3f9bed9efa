//! GL–Vulkan interop (`GL_EXT_memory_object`, `GL_EXT_memory_object_fd`): memory objects and
//! textures whose storage is memory a Vulkan program exported as an opaque descriptor
//! (`engine::memory_object`, which decides every error; the Vulkan backend in process only).

use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};

use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glCreateMemoryObjectsEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateMemoryObjectsEXT(n: GLsizei, memory_objects: *mut GLuint) {
    // SAFETY: GL contract: `memory_objects` holds `n` names.
    let out = unsafe { ptr::slice_mut(memory_objects, ptr::len(n)) };
    gl_call("glCreateMemoryObjectsEXT", (), |c| {
        c.create_memory_objects(n, out)
    });
}

/// `glDeleteMemoryObjectsEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glDeleteMemoryObjectsEXT(n: GLsizei, memory_objects: *const GLuint) {
    // SAFETY: GL contract: `memory_objects` holds `n` names.
    let names = unsafe { ptr::slice(memory_objects, ptr::len(n)) };
    gl_call("glDeleteMemoryObjectsEXT", (), |c| {
        c.delete_memory_objects(n, names)
    });
}

/// `glIsMemoryObjectEXT`.
#[unsafe(no_mangle)]
pub extern "C" fn glIsMemoryObjectEXT(memory_object: GLuint) -> GLboolean {
    gl_call("glIsMemoryObjectEXT", 0, |c| {
        GLboolean::from(c.is_memory_object(memory_object))
    })
}

/// `glMemoryObjectParameterivEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glMemoryObjectParameterivEXT(
    memory_object: GLuint,
    pname: GLenum,
    params: *const GLint,
) {
    // SAFETY: GL contract: every parameter is one integer.
    let params = unsafe { ptr::slice(params, 1) };
    gl_call("glMemoryObjectParameterivEXT", (), |c| {
        c.memory_object_parameteriv(memory_object, pname, params)
    });
}

/// `glGetMemoryObjectParameterivEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetMemoryObjectParameterivEXT(
    memory_object: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every parameter is one integer.
    let params = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetMemoryObjectParameterivEXT", (), |c| {
        c.get_memory_object_parameteriv(memory_object, pname, params)
    });
}

/// `glImportMemoryFdEXT`: a successful import owns `fd`; on an error (or without a
/// context) it stays the application's, open. A negative descriptor is none: nothing is
/// imported and no error is recorded.
#[unsafe(no_mangle)]
pub extern "C" fn glImportMemoryFdEXT(
    memory: GLuint,
    size: GLuint64,
    handle_type: GLenum,
    fd: GLint,
) {
    if fd < 0 {
        return;
    }
    // SAFETY: GL contract: `fd` is an open descriptor the application hands over; it is
    // given back unclosed (`into_raw_fd`) whenever the import does not take it.
    let mut owned = Some(unsafe { OwnedFd::from_raw_fd(fd) });
    gl_call("glImportMemoryFdEXT", (), |c| {
        if let Some(fd) = owned.take() {
            owned = c.import_memory_fd(memory, size, handle_type, fd);
        }
    });
    if let Some(fd) = owned {
        let _ = fd.into_raw_fd();
    }
}

/// `glTexStorageMem2DEXT`.
#[unsafe(no_mangle)]
pub extern "C" fn glTexStorageMem2DEXT(
    target: GLenum,
    levels: GLsizei,
    internal_format: GLenum,
    width: GLsizei,
    height: GLsizei,
    memory: GLuint,
    offset: GLuint64,
) {
    gl_call("glTexStorageMem2DEXT", (), |c| {
        c.tex_storage_mem_2d(
            target,
            levels,
            internal_format,
            width,
            height,
            memory,
            offset,
        )
    });
}

/// `glTextureStorageMem2DEXT`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorageMem2DEXT(
    texture: GLuint,
    levels: GLsizei,
    internal_format: GLenum,
    width: GLsizei,
    height: GLsizei,
    memory: GLuint,
    offset: GLuint64,
) {
    gl_call("glTextureStorageMem2DEXT", (), |c| {
        c.texture_storage_mem_2d(
            texture,
            levels,
            internal_format,
            width,
            height,
            memory,
            offset,
        )
    });
}

/// `glGetUnsignedBytevEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUnsignedBytevEXT(pname: GLenum, data: *mut GLubyte) {
    // SAFETY: GL contract: `data` holds the value, at most `UUID_SIZE_EXT` bytes.
    let out = unsafe { ptr::slice_mut(data, 16) };
    gl_call("glGetUnsignedBytevEXT", (), |c| {
        c.get_unsigned_bytev(pname, out)
    });
}

/// `glGetUnsignedBytei_vEXT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetUnsignedBytei_vEXT(
    target: GLenum,
    index: GLuint,
    data: *mut GLubyte,
) {
    // SAFETY: GL contract: `data` holds the value, `UUID_SIZE_EXT` bytes.
    let out = unsafe { ptr::slice_mut(data, 16) };
    gl_call("glGetUnsignedBytei_vEXT", (), |c| {
        c.get_unsigned_bytei_v(target, index, out)
    });
}
