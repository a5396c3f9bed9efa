//! [`NamedGl`] on the native driver: each call through its C entry point.

use std::ffi::c_void;

use tessera_engine::gl::*;

use super::NamedGl;
use crate::gl::NativeGl;

/// A native entry point by name (panics if the driver lacks it: the tests need all of them).
fn native<F: Copy>(gl: &NativeGl, name: &str) -> F {
    gl.entry_point::<F>(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Calls native entry point `$name` of C signature `fn($ty, ..) -> $ret` with `$arg`s.
macro_rules! call {
    ($gl:expr, $name:literal, fn($($ty:ty),* $(,)?) $(-> $ret:ty)?, $($arg:expr),* $(,)?) => {{
        let f: unsafe extern "system" fn($($ty),*) $(-> $ret)? = native($gl, $name);
        // SAFETY: the native context is current on this thread; every pointer passed names
        // live memory holding what the call reads or with room for what it writes.
        unsafe { f($($arg),*) }
    }};
}

// Every native call below runs with the native context current on this thread; its pointers
// name live memory holding what the call reads or with room for what it writes.
impl NamedGl for NativeGl {
    fn create_texture(&mut self, target: GLenum) -> GLuint {
        let f: unsafe extern "system" fn(GLenum, GLsizei, *mut GLuint) =
            native(self, "glCreateTextures");
        let mut name = 0;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(target, 1, &mut name) };
        name
    }
    fn create_vertex_array(&mut self) -> GLuint {
        let f: unsafe extern "system" fn(GLsizei, *mut GLuint) =
            native(self, "glCreateVertexArrays");
        let mut name = 0;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(1, &mut name) };
        name
    }
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLuint) = native(self, "glBindTextureUnit");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(unit, texture) };
    }
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint) {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLint) =
            native(self, "glTextureParameteri");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, pname, param) };
    }
    fn texture_parameterfv(&mut self, texture: GLuint, pname: GLenum, params: &[GLfloat; 4]) {
        let f: unsafe extern "system" fn(GLuint, GLenum, *const GLfloat) =
            native(self, "glTextureParameterfv");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, pname, params.as_ptr()) };
    }
    fn get_texture_parameteri(&mut self, texture: GLuint, pname: GLenum) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLenum, *mut GLint) =
            native(self, "glGetTextureParameteriv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn get_texture_level_parameteri(
        &mut self,
        texture: GLuint,
        level: GLint,
        pname: GLenum,
    ) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLint, GLenum, *mut GLint) =
            native(self, "glGetTextureLevelParameteriv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, level, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei) =
            native(self, "glTextureStorage2D");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, levels, format, w, h) };
    }
    fn texture_storage_3d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLsizei) =
            native(self, "glTextureStorage3D");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, levels, format, w, h, d) };
    }
    fn texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        data: &[u8],
    ) {
        let f: unsafe extern "system" fn(
            GLuint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLenum,
            GLenum,
            *const c_void,
        ) = native(self, "glTextureSubImage2D");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe {
            f(
                texture,
                level,
                x,
                y,
                w,
                h,
                RGBA,
                UNSIGNED_BYTE,
                data.as_ptr().cast(),
            )
        };
    }
    fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        data: &[u8],
    ) {
        let f: unsafe extern "system" fn(
            GLuint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
            GLsizei,
            GLenum,
            GLenum,
            *const c_void,
        ) = native(self, "glTextureSubImage3D");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe {
            f(
                texture,
                level,
                x,
                y,
                z,
                w,
                h,
                d,
                RGBA,
                UNSIGNED_BYTE,
                data.as_ptr().cast(),
            )
        };
    }
    fn copy_texture_sub_image_2d(&mut self, texture: GLuint, level: GLint, [x, y, w, h]: [i32; 4]) {
        let f: unsafe extern "system" fn(
            GLuint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLint,
            GLsizei,
            GLsizei,
        ) = native(self, "glCopyTextureSubImage2D");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, level, x, y, 0, 0, w, h) };
    }
    fn generate_texture_mipmap(&mut self, texture: GLuint) {
        let f: unsafe extern "system" fn(GLuint) = native(self, "glGenerateTextureMipmap");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture) };
    }
    fn texture_storage_2d_multisample(
        &mut self,
        texture: GLuint,
        samples: GLsizei,
        w: i32,
        h: i32,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei, GLboolean) =
            native(self, "glTextureStorage2DMultisample");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, samples, RGBA8, w, h, TRUE as GLboolean) };
    }
    fn texture_buffer(&mut self, texture: GLuint, buffer: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLuint) = native(self, "glTextureBuffer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(texture, RGBA8, buffer) };
    }
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLuint) =
            native(self, "glVertexArrayElementBuffer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, buffer) };
    }
    fn vertex_array_vertex_buffer(
        &mut self,
        vao: GLuint,
        binding: GLuint,
        buffer: GLuint,
        offset: isize,
        stride: GLsizei,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLuint, GLintptr, GLsizei) =
            native(self, "glVertexArrayVertexBuffer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, binding, buffer, offset, stride) };
    }
    fn vertex_array_attrib_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: bool,
        offset: GLuint,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLint, GLenum, GLboolean, GLuint) =
            native(self, "glVertexArrayAttribFormat");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, attrib, size, ty, normalized as GLboolean, offset) };
    }
    fn vertex_array_attrib_i_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLint, GLenum, GLuint) =
            native(self, "glVertexArrayAttribIFormat");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, attrib, size, ty, offset) };
    }
    fn vertex_array_attrib_binding(&mut self, vao: GLuint, attrib: GLuint, binding: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLuint) =
            native(self, "glVertexArrayAttribBinding");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, attrib, binding) };
    }
    fn vertex_array_binding_divisor(&mut self, vao: GLuint, binding: GLuint, divisor: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLuint) =
            native(self, "glVertexArrayBindingDivisor");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, binding, divisor) };
    }
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint, on: bool) {
        let name = if on {
            "glEnableVertexArrayAttrib"
        } else {
            "glDisableVertexArrayAttrib"
        };
        let f: unsafe extern "system" fn(GLuint, GLuint) = native(self, name);
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, attrib) };
    }
    fn get_vertex_array(&mut self, vao: GLuint, pname: GLenum) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLenum, *mut GLint) =
            native(self, "glGetVertexArrayiv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn get_vertex_array_indexed(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut GLint) =
            native(self, "glGetVertexArrayIndexediv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, index, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn get_vertex_array_indexed64(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint64 {
        let f: unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut GLint64) =
            native(self, "glGetVertexArrayIndexed64iv");
        let mut v = [i64::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(vao, index, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8> {
        let f: unsafe extern "system" fn(GLuint, GLint, GLenum, GLenum, GLsizei, *mut c_void) =
            native(self, "glGetTextureImage");
        let mut out = vec![0xA5; buf_size + 16];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe {
            f(
                texture,
                level,
                RGBA,
                UNSIGNED_BYTE,
                buf_size as GLsizei,
                out.as_mut_ptr().cast(),
            )
        };
        out
    }
    fn vertex_array_vertex_buffers(
        &mut self,
        vao: GLuint,
        first: GLuint,
        buffers: &[GLuint],
        offsets: &[isize],
        strides: &[GLsizei],
    ) {
        let f: unsafe extern "system" fn(
            GLuint,
            GLuint,
            GLsizei,
            *const GLuint,
            *const GLintptr,
            *const GLsizei,
        ) = native(self, "glVertexArrayVertexBuffers");
        let n = buffers.len() as GLsizei;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe {
            f(
                vao,
                first,
                n,
                buffers.as_ptr(),
                offsets.as_ptr(),
                strides.as_ptr(),
            )
        };
    }
    fn create_transform_feedbacks_n(&mut self, n: GLsizei) -> GLuint {
        let f: unsafe extern "system" fn(GLsizei, *mut GLuint) =
            native(self, "glCreateTransformFeedbacks");
        let mut name = [0; 2];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(n, name.as_mut_ptr()) };
        name[0]
    }
    fn create_framebuffer(&mut self) -> GLuint {
        let f: unsafe extern "system" fn(GLsizei, *mut GLuint) =
            native(self, "glCreateFramebuffers");
        let mut name = 0;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(1, &mut name) };
        name
    }
    fn create_renderbuffer(&mut self) -> GLuint {
        let f: unsafe extern "system" fn(GLsizei, *mut GLuint) =
            native(self, "glCreateRenderbuffers");
        let mut name = 0;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(1, &mut name) };
        name
    }
    fn create_sampler(&mut self) -> GLuint {
        let f: unsafe extern "system" fn(GLsizei, *mut GLuint) = native(self, "glCreateSamplers");
        let mut name = 0;
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(1, &mut name) };
        name
    }
    fn named_framebuffer_texture(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLuint, GLint) =
            native(self, "glNamedFramebufferTexture");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, attachment, texture, level) };
    }
    fn named_framebuffer_texture_layer(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        layer: GLint,
    ) {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLuint, GLint, GLint) =
            native(self, "glNamedFramebufferTextureLayer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, attachment, texture, level, layer) };
    }
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint) {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLenum, GLuint) =
            native(self, "glNamedFramebufferRenderbuffer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, attachment, RENDERBUFFER, rb) };
    }
    fn check_named_framebuffer_status(&mut self, fb: GLuint, target: GLenum) -> GLenum {
        let f: unsafe extern "system" fn(GLuint, GLenum) -> GLenum =
            native(self, "glCheckNamedFramebufferStatus");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, target) }
    }
    fn get_named_framebuffer_attachment(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        pname: GLenum,
    ) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLenum, GLenum, *mut GLint) =
            native(self, "glGetNamedFramebufferAttachmentParameteriv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, attachment, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn named_framebuffer_draw_buffers(&mut self, fb: GLuint, bufs: &[GLenum]) {
        let f: unsafe extern "system" fn(GLuint, GLsizei, *const GLenum) =
            native(self, "glNamedFramebufferDrawBuffers");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, bufs.len() as GLsizei, bufs.as_ptr()) };
    }
    fn named_framebuffer_read_buffer(&mut self, fb: GLuint, src: GLenum) {
        let f: unsafe extern "system" fn(GLuint, GLenum) =
            native(self, "glNamedFramebufferReadBuffer");
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(fb, src) };
    }
    fn named_renderbuffer_storage(&mut self, rb: GLuint, format: GLenum, w: i32, h: i32) {
        call!(
            self,
            "glNamedRenderbufferStorage",
            fn(GLuint, GLenum, GLsizei, GLsizei),
            rb,
            format,
            w,
            h
        )
    }
    fn get_named_renderbuffer(&mut self, rb: GLuint, pname: GLenum) -> GLint {
        let f: unsafe extern "system" fn(GLuint, GLenum, *mut GLint) =
            native(self, "glGetNamedRenderbufferParameteriv");
        let mut v = [i32::MIN; 4];
        // SAFETY: the native context is current; the pointers cover what the call touches.
        unsafe { f(rb, pname, v.as_mut_ptr()) };
        v[0]
    }
    fn named_renderbuffer_storage_multisample(
        &mut self,
        rb: GLuint,
        samples: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    ) {
        call!(
            self,
            "glNamedRenderbufferStorageMultisample",
            fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei),
            rb,
            samples,
            format,
            w,
            h
        )
    }
    fn create_program_pipeline(&mut self) -> GLuint {
        let mut n = 0;
        call!(
            self,
            "glCreateProgramPipelines",
            fn(GLsizei, *mut GLuint),
            1,
            &mut n
        );
        n
    }
    fn get_integeri(&mut self, target: GLenum, index: GLuint) -> GLint {
        self.get_integer_index(target, index)
    }
    fn create(&mut self, kind: &str, target: GLenum) -> GLuint {
        let mut n = 0;
        let p: *mut GLuint = &mut n;
        match kind {
            "buffer" => call!(self, "glCreateBuffers", fn(GLsizei, *mut GLuint), 1, p),
            "texture" => call!(
                self,
                "glCreateTextures",
                fn(GLenum, GLsizei, *mut GLuint),
                target,
                1,
                p
            ),
            "sampler" => call!(self, "glCreateSamplers", fn(GLsizei, *mut GLuint), 1, p),
            "framebuffer" => call!(self, "glCreateFramebuffers", fn(GLsizei, *mut GLuint), 1, p),
            "renderbuffer" => call!(
                self,
                "glCreateRenderbuffers",
                fn(GLsizei, *mut GLuint),
                1,
                p
            ),
            "vertex array" => call!(self, "glCreateVertexArrays", fn(GLsizei, *mut GLuint), 1, p),
            _ => call!(
                self,
                "glCreateTransformFeedbacks",
                fn(GLsizei, *mut GLuint),
                1,
                p
            ),
        }
        n
    }
    fn gen_transform_feedback(&mut self) -> GLuint {
        let mut n = 0;
        call!(
            self,
            "glGenTransformFeedbacks",
            fn(GLsizei, *mut GLuint),
            1,
            &mut n
        );
        n
    }
    fn named_buffer_storage(
        &mut self,
        buffer: GLuint,
        size: usize,
        data: Option<&[u8]>,
        flags: GLbitfield,
    ) {
        let p = data.map_or(std::ptr::null(), |d| d.as_ptr().cast());
        call!(
            self,
            "glNamedBufferStorage",
            fn(GLuint, isize, *const c_void, GLbitfield),
            buffer,
            size as isize,
            p,
            flags
        )
    }
    fn named_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, data: &[u8]) {
        call!(
            self,
            "glNamedBufferSubData",
            fn(GLuint, isize, isize, *const c_void),
            buffer,
            offset,
            data.len() as isize,
            data.as_ptr().cast()
        )
    }
    fn compressed_texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        data: &[u8],
    ) {
        call!(
            self,
            "glCompressedTextureSubImage2D",
            fn(GLuint, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLsizei, *const c_void),
            texture,
            0,
            x,
            y,
            w,
            h,
            format,
            data.len() as i32,
            data.as_ptr().cast()
        )
    }
    fn compressed_texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        format: GLenum,
        data: &[u8],
    ) {
        call!(
            self,
            "glCompressedTextureSubImage3D",
            fn(
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLsizei,
                GLenum,
                GLsizei,
                *const c_void,
            ),
            texture,
            0,
            x,
            y,
            z,
            w,
            h,
            d,
            format,
            data.len() as i32,
            data.as_ptr().cast()
        )
    }
    fn get_compressed_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xAB; buf_size];
        call!(
            self,
            "glGetCompressedTextureImage",
            fn(GLuint, GLint, GLsizei, *mut c_void),
            texture,
            level,
            buf_size as i32,
            out.as_mut_ptr().cast()
        );
        out
    }
    fn named_framebuffer_draw_buffer(&mut self, fb: GLuint, buf: GLenum) {
        call!(
            self,
            "glNamedFramebufferDrawBuffer",
            fn(GLuint, GLenum),
            fb,
            buf
        )
    }
    fn clear_named_framebufferfv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [f32; 4],
    ) {
        call!(
            self,
            "glClearNamedFramebufferfv",
            fn(GLuint, GLenum, GLint, *const f32),
            fb,
            buffer,
            drawbuffer,
            value.as_ptr()
        )
    }
    fn clear_named_framebufferiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [i32; 4],
    ) {
        call!(
            self,
            "glClearNamedFramebufferiv",
            fn(GLuint, GLenum, GLint, *const i32),
            fb,
            buffer,
            drawbuffer,
            value.as_ptr()
        )
    }
    fn clear_named_framebufferuiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [u32; 4],
    ) {
        call!(
            self,
            "glClearNamedFramebufferuiv",
            fn(GLuint, GLenum, GLint, *const u32),
            fb,
            buffer,
            drawbuffer,
            value.as_ptr()
        )
    }
    fn clear_named_framebufferfi(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        depth: f32,
        stencil: GLint,
    ) {
        call!(
            self,
            "glClearNamedFramebufferfi",
            fn(GLuint, GLenum, GLint, f32, GLint),
            fb,
            buffer,
            drawbuffer,
            depth,
            stencil
        )
    }
    fn blit_named_framebuffer(
        &mut self,
        read: GLuint,
        draw: GLuint,
        [a, b, c, d]: [i32; 4],
        [e, f, g, h]: [i32; 4],
        mask: GLbitfield,
        filter: GLenum,
    ) {
        call!(
            self,
            "glBlitNamedFramebuffer",
            fn(
                GLuint,
                GLuint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLint,
                GLbitfield,
                GLenum,
            ),
            read,
            draw,
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            mask,
            filter
        )
    }
    fn invalidate_named_framebuffer_data(&mut self, fb: GLuint, attachments: &[GLenum]) {
        call!(
            self,
            "glInvalidateNamedFramebufferData",
            fn(GLuint, GLsizei, *const GLenum),
            fb,
            attachments.len() as i32,
            attachments.as_ptr()
        )
    }
    fn invalidate_named_framebuffer_sub_data(
        &mut self,
        fb: GLuint,
        count: GLsizei,
        attachments: &[GLenum],
        [x, y, w, h]: [i32; 4],
    ) {
        call!(
            self,
            "glInvalidateNamedFramebufferSubData",
            fn(GLuint, GLsizei, *const GLenum, GLint, GLint, GLsizei, GLsizei),
            fb,
            count,
            attachments.as_ptr(),
            x,
            y,
            w,
            h
        )
    }
    fn named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum, param: GLint) {
        call!(
            self,
            "glNamedFramebufferParameteri",
            fn(GLuint, GLenum, GLint),
            fb,
            pname,
            param
        )
    }
    fn get_named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7; 4];
        call!(
            self,
            "glGetNamedFramebufferParameteriv",
            fn(GLuint, GLenum, *mut GLint),
            fb,
            pname,
            v.as_mut_ptr()
        );
        v[0]
    }
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint) {
        call!(
            self,
            "glProgramUniform1i",
            fn(GLuint, GLint, GLint),
            program,
            location,
            v
        )
    }
    fn transform_feedback_buffer_base(&mut self, xfb: GLuint, index: GLuint, buffer: GLuint) {
        call!(
            self,
            "glTransformFeedbackBufferBase",
            fn(GLuint, GLuint, GLuint),
            xfb,
            index,
            buffer
        )
    }
    fn transform_feedback_buffer_range(
        &mut self,
        xfb: GLuint,
        index: GLuint,
        buffer: GLuint,
        offset: isize,
        size: isize,
    ) {
        call!(
            self,
            "glTransformFeedbackBufferRange",
            fn(GLuint, GLuint, GLuint, isize, isize),
            xfb,
            index,
            buffer,
            offset,
            size
        )
    }
    fn get_transform_feedbacki(&mut self, xfb: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7; 4];
        call!(
            self,
            "glGetTransformFeedbackiv",
            fn(GLuint, GLenum, *mut GLint),
            xfb,
            pname,
            v.as_mut_ptr()
        );
        v[0]
    }
    fn get_transform_feedbacki_v(&mut self, xfb: GLuint, pname: GLenum, index: GLuint) -> GLint {
        let mut v = [-7; 4];
        call!(
            self,
            "glGetTransformFeedbacki_v",
            fn(GLuint, GLenum, GLuint, *mut GLint),
            xfb,
            pname,
            index,
            v.as_mut_ptr()
        );
        v[0]
    }
    fn get_transform_feedbacki64_v(
        &mut self,
        xfb: GLuint,
        pname: GLenum,
        index: GLuint,
    ) -> GLint64 {
        let mut v = [-7; 4];
        call!(
            self,
            "glGetTransformFeedbacki64_v",
            fn(GLuint, GLenum, GLuint, *mut GLint64),
            xfb,
            pname,
            index,
            v.as_mut_ptr()
        );
        v[0]
    }
}
