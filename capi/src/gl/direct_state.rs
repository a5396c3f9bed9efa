//! GL 4.5's direct state access (`ARB_direct_state_access`) for textures, vertex arrays,
//! framebuffers, renderbuffers, samplers and transform feedback objects:
//! the entry points of `engine::direct_state` (the buffer functions are elsewhere). The
//! framebuffer verbs and parameters are in `named_framebuffer`.

use std::ffi::c_void;

use super::texture::{destination, source};
use super::types::*;
use crate::current::gl_call;
use crate::ptr;

/// `glCreateTextures`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateTextures(target: GLenum, n: GLsizei, textures: *mut GLuint) {
    // SAFETY: GL contract: `textures` holds `n` names.
    let out = unsafe { ptr::slice_mut(textures, ptr::len(n)) };
    gl_call("glCreateTextures", (), |c| {
        c.create_textures(target, n, out)
    });
}

/// `glBindTextureUnit`.
#[unsafe(no_mangle)]
pub extern "C" fn glBindTextureUnit(unit: GLuint, texture: GLuint) {
    gl_call("glBindTextureUnit", (), |c| {
        c.bind_texture_unit(unit, texture)
    });
}

/// `glTextureParameteri`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureParameteri(texture: GLuint, pname: GLenum, param: GLint) {
    gl_call("glTextureParameteri", (), |c| {
        c.texture_parameteri(texture, pname, param)
    });
}

/// `glTextureParameterf`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureParameterf(texture: GLuint, pname: GLenum, param: GLfloat) {
    gl_call("glTextureParameterf", (), |c| {
        c.texture_parameterf(texture, pname, param)
    });
}

/// `glGetTextureLevelParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTextureLevelParameteriv(
    texture: GLuint,
    level: GLint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every level parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetTextureLevelParameteriv", (), |c| {
        c.get_texture_level_parameteriv(texture, level, pname, out)
    });
}

/// `glGetTextureLevelParameterfv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTextureLevelParameterfv(
    texture: GLuint,
    level: GLint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    // SAFETY: GL contract: every level parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetTextureLevelParameterfv", (), |c| {
        c.get_texture_level_parameterfv(texture, level, pname, out)
    });
}

/// `glTextureStorage1D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorage1D(
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
) {
    gl_call("glTextureStorage1D", (), |c| {
        c.texture_storage_1d(texture, levels, internalformat, width)
    });
}

/// `glTextureStorage2D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorage2D(
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glTextureStorage2D", (), |c| {
        c.texture_storage_2d(texture, levels, internalformat, width, height)
    });
}

/// `glTextureStorage3D`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorage3D(
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    gl_call("glTextureStorage3D", (), |c| {
        c.texture_storage_3d(texture, levels, internalformat, width, height, depth)
    });
}

/// `glTextureStorage2DMultisample`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorage2DMultisample(
    texture: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    gl_call("glTextureStorage2DMultisample", (), |c| {
        c.texture_storage_2d_multisample(
            texture,
            samples,
            internalformat,
            width,
            height,
            fixedsamplelocations,
        )
    });
}

/// `glTextureStorage3DMultisample`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureStorage3DMultisample(
    texture: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    gl_call("glTextureStorage3DMultisample", (), |c| {
        c.texture_storage_3d_multisample(
            texture,
            samples,
            internalformat,
            width,
            height,
            depth,
            fixedsamplelocations,
        )
    });
}

/// `glTextureSubImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTextureSubImage1D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTextureSubImage1D", (), |c| {
        let len = c.unpack_len(1, format, ty, [width, 1, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.texture_sub_image_1d(texture, level, xoffset, width, format, ty, px)
    });
}

/// `glTextureSubImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTextureSubImage2D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTextureSubImage2D", (), |c| {
        let len = c.unpack_len(2, format, ty, [width, height, 1]);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        c.texture_sub_image_2d(
            texture, level, xoffset, yoffset, width, height, format, ty, px,
        )
    });
}

/// `glTextureSubImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glTextureSubImage3D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    ty: GLenum,
    pixels: *const c_void,
) {
    gl_call("glTextureSubImage3D", (), |c| {
        let size = [width, height, depth];
        let len = c.unpack_len(3, format, ty, size);
        // SAFETY: GL contract: client pixels cover what the unpack state reads.
        let px = unsafe { source(c, pixels, len) };
        let offset = [xoffset, yoffset, zoffset];
        c.texture_sub_image_3d(texture, level, offset, size, format, ty, px)
    });
}

/// `glCompressedTextureSubImage1D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTextureSubImage1D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTextureSubImage1D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_texture_sub_image_1d(texture, level, xoffset, width, format, image_size, px)
    });
}

/// `glCompressedTextureSubImage2D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTextureSubImage2D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTextureSubImage2D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        c.compressed_texture_sub_image_2d(
            texture, level, xoffset, yoffset, width, height, format, image_size, px,
        )
    });
}

/// `glCompressedTextureSubImage3D`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCompressedTextureSubImage3D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    gl_call("glCompressedTextureSubImage3D", (), |c| {
        // SAFETY: GL contract: client data holds `image_size` bytes.
        let px = unsafe { source(c, data, ptr::len(image_size)) };
        let (offset, size) = ([xoffset, yoffset, zoffset], [width, height, depth]);
        c.compressed_texture_sub_image_3d(texture, level, offset, size, format, image_size, px)
    });
}

/// `glCopyTextureSubImage1D`.
#[unsafe(no_mangle)]
pub extern "C" fn glCopyTextureSubImage1D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
) {
    gl_call("glCopyTextureSubImage1D", (), |c| {
        c.copy_texture_sub_image_1d(texture, level, xoffset, x, y, width)
    });
}

/// `glCopyTextureSubImage2D`.
#[unsafe(no_mangle)]
pub extern "C" fn glCopyTextureSubImage2D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glCopyTextureSubImage2D", (), |c| {
        c.copy_texture_sub_image_2d(texture, level, xoffset, yoffset, x, y, width, height)
    });
}

/// `glCopyTextureSubImage3D`.
#[unsafe(no_mangle)]
pub extern "C" fn glCopyTextureSubImage3D(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glCopyTextureSubImage3D", (), |c| {
        c.copy_texture_sub_image_3d(
            texture, level, xoffset, yoffset, zoffset, x, y, width, height,
        )
    });
}

/// `glGetTextureImage`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTextureImage(
    texture: GLuint,
    level: GLint,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetTextureImage", (), |c| {
        // SAFETY: GL contract: client memory holds `buf_size` bytes.
        let px = unsafe { destination(c, pixels, ptr::len(buf_size)) };
        c.get_texture_image(texture, level, format, ty, buf_size, px)
    });
}

/// `glGenerateTextureMipmap`.
#[unsafe(no_mangle)]
pub extern "C" fn glGenerateTextureMipmap(texture: GLuint) {
    gl_call("glGenerateTextureMipmap", (), |c| {
        c.generate_texture_mipmap(texture)
    });
}

/// `glTextureBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureBuffer(texture: GLuint, internalformat: GLenum, buffer: GLuint) {
    gl_call("glTextureBuffer", (), |c| {
        c.texture_buffer(texture, internalformat, buffer)
    });
}

/// `glTextureBufferRange`.
#[unsafe(no_mangle)]
pub extern "C" fn glTextureBufferRange(
    texture: GLuint,
    internalformat: GLenum,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    gl_call("glTextureBufferRange", (), |c| {
        c.texture_buffer_range(texture, internalformat, buffer, offset, size)
    });
}

/// `glCreateVertexArrays`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateVertexArrays(n: GLsizei, arrays: *mut GLuint) {
    // SAFETY: GL contract: `arrays` holds `n` names.
    let out = unsafe { ptr::slice_mut(arrays, ptr::len(n)) };
    gl_call("glCreateVertexArrays", (), |c| {
        c.create_vertex_arrays(n, out)
    });
}

/// `glVertexArrayElementBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayElementBuffer(vaobj: GLuint, buffer: GLuint) {
    gl_call("glVertexArrayElementBuffer", (), |c| {
        c.vertex_array_element_buffer(vaobj, buffer)
    });
}

/// `glVertexArrayVertexBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayVertexBuffer(
    vaobj: GLuint,
    bindingindex: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    stride: GLsizei,
) {
    gl_call("glVertexArrayVertexBuffer", (), |c| {
        c.vertex_array_vertex_buffer(vaobj, bindingindex, buffer, offset, stride)
    });
}

/// `glVertexArrayAttribFormat`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayAttribFormat(
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    normalized: GLboolean,
    relativeoffset: GLuint,
) {
    gl_call("glVertexArrayAttribFormat", (), |c| {
        c.vertex_array_attrib_format(vaobj, attribindex, size, ty, normalized, relativeoffset)
    });
}

/// `glVertexArrayAttribIFormat`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayAttribIFormat(
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    relativeoffset: GLuint,
) {
    gl_call("glVertexArrayAttribIFormat", (), |c| {
        c.vertex_array_attrib_i_format(vaobj, attribindex, size, ty, relativeoffset)
    });
}

/// `glVertexArrayAttribLFormat`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayAttribLFormat(
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    ty: GLenum,
    relativeoffset: GLuint,
) {
    gl_call("glVertexArrayAttribLFormat", (), |c| {
        c.vertex_array_attrib_l_format(vaobj, attribindex, size, ty, relativeoffset)
    });
}

/// `glVertexArrayAttribBinding`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayAttribBinding(
    vaobj: GLuint,
    attribindex: GLuint,
    bindingindex: GLuint,
) {
    gl_call("glVertexArrayAttribBinding", (), |c| {
        c.vertex_array_attrib_binding(vaobj, attribindex, bindingindex)
    });
}

/// `glVertexArrayBindingDivisor`.
#[unsafe(no_mangle)]
pub extern "C" fn glVertexArrayBindingDivisor(
    vaobj: GLuint,
    bindingindex: GLuint,
    divisor: GLuint,
) {
    gl_call("glVertexArrayBindingDivisor", (), |c| {
        c.vertex_array_binding_divisor(vaobj, bindingindex, divisor)
    });
}

/// `glEnableVertexArrayAttrib`.
#[unsafe(no_mangle)]
pub extern "C" fn glEnableVertexArrayAttrib(vaobj: GLuint, index: GLuint) {
    gl_call("glEnableVertexArrayAttrib", (), |c| {
        c.enable_vertex_array_attrib(vaobj, index)
    });
}

/// `glDisableVertexArrayAttrib`.
#[unsafe(no_mangle)]
pub extern "C" fn glDisableVertexArrayAttrib(vaobj: GLuint, index: GLuint) {
    gl_call("glDisableVertexArrayAttrib", (), |c| {
        c.disable_vertex_array_attrib(vaobj, index)
    });
}

/// `glGetVertexArrayiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexArrayiv(vaobj: GLuint, pname: GLenum, param: *mut GLint) {
    // SAFETY: GL contract: the one pname is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetVertexArrayiv", (), |c| {
        c.get_vertex_arrayiv(vaobj, pname, out)
    });
}

/// `glGetVertexArrayIndexediv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexArrayIndexediv(
    vaobj: GLuint,
    index: GLuint,
    pname: GLenum,
    param: *mut GLint,
) {
    // SAFETY: GL contract: every pname is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetVertexArrayIndexediv", (), |c| {
        c.get_vertex_array_indexediv(vaobj, index, pname, out)
    });
}

/// `glGetVertexArrayIndexed64iv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetVertexArrayIndexed64iv(
    vaobj: GLuint,
    index: GLuint,
    pname: GLenum,
    param: *mut GLint64,
) {
    // SAFETY: GL contract: the one pname is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetVertexArrayIndexed64iv", (), |c| {
        c.get_vertex_array_indexed64iv(vaobj, index, pname, out)
    });
}

/// `glCreateFramebuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateFramebuffers(n: GLsizei, framebuffers: *mut GLuint) {
    // SAFETY: GL contract: `framebuffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(framebuffers, ptr::len(n)) };
    gl_call("glCreateFramebuffers", (), |c| {
        c.create_framebuffers(n, out)
    });
}

/// `glNamedFramebufferTexture`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferTexture(
    framebuffer: GLuint,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
) {
    gl_call("glNamedFramebufferTexture", (), |c| {
        c.named_framebuffer_texture(framebuffer, attachment, texture, level)
    });
}

/// `glNamedFramebufferTextureLayer`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferTextureLayer(
    framebuffer: GLuint,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
    layer: GLint,
) {
    gl_call("glNamedFramebufferTextureLayer", (), |c| {
        c.named_framebuffer_texture_layer(framebuffer, attachment, texture, level, layer)
    });
}

/// `glNamedFramebufferRenderbuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferRenderbuffer(
    framebuffer: GLuint,
    attachment: GLenum,
    renderbuffertarget: GLenum,
    renderbuffer: GLuint,
) {
    gl_call("glNamedFramebufferRenderbuffer", (), |c| {
        c.named_framebuffer_renderbuffer(framebuffer, attachment, renderbuffertarget, renderbuffer)
    });
}

/// `glCheckNamedFramebufferStatus`.
#[unsafe(no_mangle)]
pub extern "C" fn glCheckNamedFramebufferStatus(framebuffer: GLuint, target: GLenum) -> GLenum {
    gl_call("glCheckNamedFramebufferStatus", 0, |c| {
        c.check_named_framebuffer_status(framebuffer, target)
    })
}

/// `glGetNamedFramebufferAttachmentParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedFramebufferAttachmentParameteriv(
    framebuffer: GLuint,
    attachment: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every attachment parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetNamedFramebufferAttachmentParameteriv", (), |c| {
        c.get_named_framebuffer_attachment_parameteriv(framebuffer, attachment, pname, out)
    });
}

/// `glNamedFramebufferDrawBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferDrawBuffer(framebuffer: GLuint, buf: GLenum) {
    gl_call("glNamedFramebufferDrawBuffer", (), |c| {
        c.named_framebuffer_draw_buffer(framebuffer, buf)
    });
}

/// `glNamedFramebufferDrawBuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glNamedFramebufferDrawBuffers(
    framebuffer: GLuint,
    n: GLsizei,
    bufs: *const GLenum,
) {
    // SAFETY: GL contract: `bufs` holds `n` values.
    let bufs = unsafe { ptr::slice(bufs, ptr::len(n)) };
    gl_call("glNamedFramebufferDrawBuffers", (), |c| {
        c.named_framebuffer_draw_buffers(framebuffer, n, bufs)
    });
}

/// `glNamedFramebufferReadBuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedFramebufferReadBuffer(framebuffer: GLuint, src: GLenum) {
    gl_call("glNamedFramebufferReadBuffer", (), |c| {
        c.named_framebuffer_read_buffer(framebuffer, src)
    });
}

/// `glCreateRenderbuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateRenderbuffers(n: GLsizei, renderbuffers: *mut GLuint) {
    // SAFETY: GL contract: `renderbuffers` holds `n` names.
    let out = unsafe { ptr::slice_mut(renderbuffers, ptr::len(n)) };
    gl_call("glCreateRenderbuffers", (), |c| {
        c.create_renderbuffers(n, out)
    });
}

/// `glNamedRenderbufferStorage`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedRenderbufferStorage(
    renderbuffer: GLuint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glNamedRenderbufferStorage", (), |c| {
        c.named_renderbuffer_storage(renderbuffer, internalformat, width, height)
    });
}

/// `glNamedRenderbufferStorageMultisample`.
#[unsafe(no_mangle)]
pub extern "C" fn glNamedRenderbufferStorageMultisample(
    renderbuffer: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    gl_call("glNamedRenderbufferStorageMultisample", (), |c| {
        c.named_renderbuffer_storage_multisample(
            renderbuffer,
            samples,
            internalformat,
            width,
            height,
        )
    });
}

/// `glGetNamedRenderbufferParameteriv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetNamedRenderbufferParameteriv(
    renderbuffer: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: GL contract: every renderbuffer parameter is one value.
    let out = unsafe { ptr::slice_mut(params, 1) };
    gl_call("glGetNamedRenderbufferParameteriv", (), |c| {
        c.get_named_renderbuffer_parameteriv(renderbuffer, pname, out)
    });
}

/// `glCreateSamplers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateSamplers(n: GLsizei, samplers: *mut GLuint) {
    // SAFETY: GL contract: `samplers` holds `n` names.
    let out = unsafe { ptr::slice_mut(samplers, ptr::len(n)) };
    gl_call("glCreateSamplers", (), |c| c.create_samplers(n, out));
}

/// `glVertexArrayVertexBuffers`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glVertexArrayVertexBuffers(
    vaobj: GLuint,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    strides: *const GLsizei,
) {
    // SAFETY: GL contract: `buffers` is null or holds `count` names, and then `offsets`
    // and `strides` hold `count` values each.
    let (buffers, offsets, strides) = unsafe {
        if buffers.is_null() {
            (None, &[][..], &[][..])
        } else {
            (
                Some(ptr::slice(buffers, ptr::len(count))),
                ptr::slice(offsets, ptr::len(count)),
                ptr::slice(strides, ptr::len(count)),
            )
        }
    };
    gl_call("glVertexArrayVertexBuffers", (), |c| {
        c.vertex_array_vertex_buffers(vaobj, first, count, buffers, offsets, strides)
    });
}

/// `glCreateTransformFeedbacks`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glCreateTransformFeedbacks(n: GLsizei, ids: *mut GLuint) {
    // SAFETY: GL contract: `ids` holds `n` names.
    let out = unsafe { ptr::slice_mut(ids, ptr::len(n)) };
    gl_call("glCreateTransformFeedbacks", (), |c| {
        c.create_transform_feedbacks(n, out)
    });
}

/// `glGetCompressedTextureImage`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetCompressedTextureImage(
    texture: GLuint,
    level: GLint,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetCompressedTextureImage", (), |c| {
        // SAFETY: GL contract: client memory holds `buf_size` bytes.
        let px = unsafe { destination(c, pixels, ptr::len(buf_size)) };
        c.get_compressed_texture_image(texture, level, buf_size, px)
    });
}

/// `glTransformFeedbackBufferBase`.
#[unsafe(no_mangle)]
pub extern "C" fn glTransformFeedbackBufferBase(xfb: GLuint, index: GLuint, buffer: GLuint) {
    gl_call("glTransformFeedbackBufferBase", (), |c| {
        c.transform_feedback_buffer_base(xfb, index, buffer)
    });
}

/// `glTransformFeedbackBufferRange`.
#[unsafe(no_mangle)]
pub extern "C" fn glTransformFeedbackBufferRange(
    xfb: GLuint,
    index: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    gl_call("glTransformFeedbackBufferRange", (), |c| {
        c.transform_feedback_buffer_range(xfb, index, buffer, offset, size)
    });
}

/// `glGetTransformFeedbackiv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTransformFeedbackiv(xfb: GLuint, pname: GLenum, param: *mut GLint) {
    // SAFETY: GL contract: every transform feedback parameter is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetTransformFeedbackiv", (), |c| {
        c.get_transform_feedbackiv(xfb, pname, out)
    });
}

/// `glGetTransformFeedbacki_v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTransformFeedbacki_v(
    xfb: GLuint,
    pname: GLenum,
    index: GLuint,
    param: *mut GLint,
) {
    // SAFETY: GL contract: every transform feedback parameter is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetTransformFeedbacki_v", (), |c| {
        c.get_transform_feedbacki_v(xfb, pname, index, out)
    });
}

/// `glGetTransformFeedbacki64_v`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTransformFeedbacki64_v(
    xfb: GLuint,
    pname: GLenum,
    index: GLuint,
    param: *mut GLint64,
) {
    // SAFETY: GL contract: every transform feedback parameter is one value.
    let out = unsafe { ptr::slice_mut(param, 1) };
    gl_call("glGetTransformFeedbacki64_v", (), |c| {
        c.get_transform_feedbacki64_v(xfb, pname, index, out)
    });
}

/// `glGetTextureSubImage` (GL 4.5, `ARB_get_texture_sub_image`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetTextureSubImage(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    ty: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetTextureSubImage", (), |c| {
        // SAFETY: GL contract: client memory holds `buf_size` bytes.
        let px = unsafe { destination(c, pixels, ptr::len(buf_size)) };
        c.get_texture_sub_image(
            texture,
            level,
            [xoffset, yoffset, zoffset],
            [width, height, depth],
            format,
            ty,
            buf_size,
            px,
        )
    });
}

/// `glGetCompressedTextureSubImage` (GL 4.5, `ARB_get_texture_sub_image`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glGetCompressedTextureSubImage(
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    gl_call("glGetCompressedTextureSubImage", (), |c| {
        // SAFETY: GL contract: client memory holds `buf_size` bytes.
        let px = unsafe { destination(c, pixels, ptr::len(buf_size)) };
        c.get_compressed_texture_sub_image(
            texture,
            level,
            [xoffset, yoffset, zoffset],
            [width, height, depth],
            buf_size,
            px,
        )
    });
}
