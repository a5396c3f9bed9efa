//! The named calls `direct_state_only` makes, on Tessera (the engine's entry points) and on
//! the native driver (its entry points through their C signatures).

#![expect(
    unsafe_code,
    reason = "the native driver's direct-state-access entry points, called through their C \
              signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_tests::gl::{Gl, NativeGl};

/// The named calls these scenes make, beyond [`Gl`].
pub(super) trait Named: Gl {
    fn named_renderbuffer_storage_multisample(
        &mut self,
        rb: GLuint,
        samples: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    );
    fn create_program_pipeline(&mut self) -> GLuint;
    fn get_integeri(&mut self, target: GLenum, index: GLuint) -> GLint;
    fn create(&mut self, kind: &str, target: GLenum) -> GLuint;
    fn gen_transform_feedback(&mut self) -> GLuint;
    fn named_buffer_storage(
        &mut self,
        buffer: GLuint,
        size: usize,
        data: Option<&[u8]>,
        flags: GLbitfield,
    );
    fn named_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, data: &[u8]);
    fn vertex_array_vertex_buffer(
        &mut self,
        vao: GLuint,
        binding: GLuint,
        buffer: GLuint,
        offset: isize,
        stride: GLsizei,
    );
    fn vertex_array_attrib_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    );
    fn vertex_array_attrib_i_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    );
    fn vertex_array_attrib_binding(&mut self, vao: GLuint, attrib: GLuint, binding: GLuint);
    fn vertex_array_binding_divisor(&mut self, vao: GLuint, binding: GLuint, divisor: GLuint);
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint);
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint);
    fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    );
    fn texture_sub_image_2d(&mut self, texture: GLuint, level: GLint, rect: [i32; 4], data: &[u8]);
    fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [i32; 3],
        size: [i32; 3],
        data: &[u8],
    );
    fn compressed_texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        rect: [i32; 4],
        format: GLenum,
        data: &[u8],
    );
    fn compressed_texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        offset: [i32; 3],
        size: [i32; 3],
        format: GLenum,
        data: &[u8],
    );
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint);
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint);
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8>;
    fn get_compressed_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        buf_size: usize,
    ) -> Vec<u8>;
    fn named_renderbuffer_storage(&mut self, rb: GLuint, format: GLenum, w: i32, h: i32);
    fn named_framebuffer_texture(&mut self, fb: GLuint, attachment: GLenum, texture: GLuint);
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint);
    fn named_framebuffer_draw_buffer(&mut self, fb: GLuint, buf: GLenum);
    fn check_named_framebuffer_status(&mut self, fb: GLuint) -> GLenum;
    fn clear_named_framebufferfv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [f32; 4],
    );
    fn clear_named_framebufferiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [i32; 4],
    );
    fn clear_named_framebufferuiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [u32; 4],
    );
    fn clear_named_framebufferfi(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        depth: f32,
        stencil: GLint,
    );
    fn blit_named_framebuffer(
        &mut self,
        read: GLuint,
        draw: GLuint,
        src: [i32; 4],
        dst: [i32; 4],
        mask: GLbitfield,
        filter: GLenum,
    );
    fn invalidate_named_framebuffer_data(&mut self, fb: GLuint, attachments: &[GLenum]);
    fn invalidate_named_framebuffer_sub_data(
        &mut self,
        fb: GLuint,
        count: GLsizei,
        attachments: &[GLenum],
        rect: [i32; 4],
    );
    fn named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum, param: GLint);
    fn get_named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum) -> GLint;
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint);
    fn transform_feedback_buffer_base(&mut self, xfb: GLuint, index: GLuint, buffer: GLuint);
    fn transform_feedback_buffer_range(
        &mut self,
        xfb: GLuint,
        index: GLuint,
        buffer: GLuint,
        offset: isize,
        size: isize,
    );
    fn get_transform_feedbacki(&mut self, xfb: GLuint, pname: GLenum) -> GLint;
    fn get_transform_feedbacki_v(&mut self, xfb: GLuint, pname: GLenum, index: GLuint) -> GLint;
    fn get_transform_feedbacki64_v(&mut self, xfb: GLuint, pname: GLenum, index: GLuint)
    -> GLint64;
}

impl Named for Context {
    fn named_renderbuffer_storage_multisample(
        &mut self,
        rb: GLuint,
        samples: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    ) {
        Context::named_renderbuffer_storage_multisample(self, rb, samples, format, w, h)
    }
    fn create_program_pipeline(&mut self) -> GLuint {
        let mut n = [0];
        self.create_program_pipelines(1, &mut n);
        n[0]
    }
    fn get_integeri(&mut self, target: GLenum, index: GLuint) -> GLint {
        let mut v = [-7];
        self.get_integeri_v(target, index, &mut v);
        v[0]
    }
    fn create(&mut self, kind: &str, target: GLenum) -> GLuint {
        let mut n = [0];
        match kind {
            "buffer" => self.create_buffers(1, &mut n),
            "texture" => self.create_textures(target, 1, &mut n),
            "sampler" => self.create_samplers(1, &mut n),
            "framebuffer" => self.create_framebuffers(1, &mut n),
            "renderbuffer" => self.create_renderbuffers(1, &mut n),
            "vertex array" => self.create_vertex_arrays(1, &mut n),
            _ => self.create_transform_feedbacks(1, &mut n),
        }
        n[0]
    }
    fn gen_transform_feedback(&mut self) -> GLuint {
        let mut n = [0];
        self.gen_transform_feedbacks(1, &mut n);
        n[0]
    }
    fn named_buffer_storage(
        &mut self,
        buffer: GLuint,
        size: usize,
        data: Option<&[u8]>,
        flags: GLbitfield,
    ) {
        Context::named_buffer_storage(self, buffer, size as isize, data, flags)
    }
    fn named_buffer_sub_data(&mut self, buffer: GLuint, offset: isize, data: &[u8]) {
        Context::named_buffer_sub_data(self, buffer, offset, data.len() as isize, data)
    }
    fn vertex_array_vertex_buffer(
        &mut self,
        vao: GLuint,
        binding: GLuint,
        buffer: GLuint,
        offset: isize,
        stride: GLsizei,
    ) {
        Context::vertex_array_vertex_buffer(self, vao, binding, buffer, offset, stride)
    }
    fn vertex_array_attrib_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        Context::vertex_array_attrib_format(self, vao, attrib, size, ty, FALSE as GLboolean, offset)
    }
    fn vertex_array_attrib_i_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        Context::vertex_array_attrib_i_format(self, vao, attrib, size, ty, offset)
    }
    fn vertex_array_attrib_binding(&mut self, vao: GLuint, attrib: GLuint, binding: GLuint) {
        Context::vertex_array_attrib_binding(self, vao, attrib, binding)
    }
    fn vertex_array_binding_divisor(&mut self, vao: GLuint, binding: GLuint, divisor: GLuint) {
        Context::vertex_array_binding_divisor(self, vao, binding, divisor)
    }
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint) {
        Context::enable_vertex_array_attrib(self, vao, attrib)
    }
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint) {
        Context::vertex_array_element_buffer(self, vao, buffer)
    }
    fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    ) {
        Context::texture_storage_2d(self, texture, levels, format, w, h)
    }
    fn texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        data: &[u8],
    ) {
        let px = Pixels::Bytes(data);
        Context::texture_sub_image_2d(self, texture, level, x, y, w, h, RGBA, UNSIGNED_BYTE, px)
    }
    fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [i32; 3],
        size: [i32; 3],
        data: &[u8],
    ) {
        let px = Pixels::Bytes(data);
        Context::texture_sub_image_3d(self, texture, level, offset, size, RGBA, UNSIGNED_BYTE, px)
    }
    fn compressed_texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        [x, y, w, h]: [i32; 4],
        format: GLenum,
        data: &[u8],
    ) {
        let px = Pixels::Bytes(data);
        Context::compressed_texture_sub_image_2d(
            self,
            texture,
            0,
            x,
            y,
            w,
            h,
            format,
            data.len() as i32,
            px,
        )
    }
    fn compressed_texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        offset: [i32; 3],
        size: [i32; 3],
        format: GLenum,
        data: &[u8],
    ) {
        let px = Pixels::Bytes(data);
        Context::compressed_texture_sub_image_3d(
            self,
            texture,
            0,
            offset,
            size,
            format,
            data.len() as i32,
            px,
        )
    }
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint) {
        Context::texture_parameteri(self, texture, pname, param)
    }
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint) {
        Context::bind_texture_unit(self, unit, texture)
    }
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8> {
        let mut out = vec![0xAB; buf_size];
        let px = PixelsMut::Bytes(&mut out);
        Context::get_texture_image(
            self,
            texture,
            level,
            RGBA,
            UNSIGNED_BYTE,
            buf_size as i32,
            px,
        );
        out
    }
    fn get_compressed_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        buf_size: usize,
    ) -> Vec<u8> {
        let mut out = vec![0xAB; buf_size];
        let px = PixelsMut::Bytes(&mut out);
        Context::get_compressed_texture_image(self, texture, level, buf_size as i32, px);
        out
    }
    fn named_renderbuffer_storage(&mut self, rb: GLuint, format: GLenum, w: i32, h: i32) {
        Context::named_renderbuffer_storage(self, rb, format, w, h)
    }
    fn named_framebuffer_texture(&mut self, fb: GLuint, attachment: GLenum, texture: GLuint) {
        Context::named_framebuffer_texture(self, fb, attachment, texture, 0)
    }
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint) {
        Context::named_framebuffer_renderbuffer(self, fb, attachment, RENDERBUFFER, rb)
    }
    fn named_framebuffer_draw_buffer(&mut self, fb: GLuint, buf: GLenum) {
        Context::named_framebuffer_draw_buffer(self, fb, buf)
    }
    fn check_named_framebuffer_status(&mut self, fb: GLuint) -> GLenum {
        Context::check_named_framebuffer_status(self, fb, DRAW_FRAMEBUFFER)
    }
    fn clear_named_framebufferfv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [f32; 4],
    ) {
        Context::clear_named_framebufferfv(self, fb, buffer, drawbuffer, &value)
    }
    fn clear_named_framebufferiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [i32; 4],
    ) {
        Context::clear_named_framebufferiv(self, fb, buffer, drawbuffer, &value)
    }
    fn clear_named_framebufferuiv(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: [u32; 4],
    ) {
        Context::clear_named_framebufferuiv(self, fb, buffer, drawbuffer, &value)
    }
    fn clear_named_framebufferfi(
        &mut self,
        fb: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        depth: f32,
        stencil: GLint,
    ) {
        Context::clear_named_framebufferfi(self, fb, buffer, drawbuffer, depth, stencil)
    }
    fn blit_named_framebuffer(
        &mut self,
        read: GLuint,
        draw: GLuint,
        src: [i32; 4],
        dst: [i32; 4],
        mask: GLbitfield,
        filter: GLenum,
    ) {
        Context::blit_named_framebuffer(self, read, draw, src, dst, mask, filter)
    }
    fn invalidate_named_framebuffer_data(&mut self, fb: GLuint, attachments: &[GLenum]) {
        Context::invalidate_named_framebuffer_data(self, fb, attachments.len() as i32, attachments)
    }
    fn invalidate_named_framebuffer_sub_data(
        &mut self,
        fb: GLuint,
        count: GLsizei,
        attachments: &[GLenum],
        [x, y, w, h]: [i32; 4],
    ) {
        Context::invalidate_named_framebuffer_sub_data(self, fb, count, attachments, x, y, w, h)
    }
    fn named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum, param: GLint) {
        Context::named_framebuffer_parameteri(self, fb, pname, param)
    }
    fn get_named_framebuffer_parameteri(&mut self, fb: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_named_framebuffer_parameteriv(self, fb, pname, &mut v);
        v[0]
    }
    fn program_uniform1i(&mut self, program: GLuint, location: GLint, v: GLint) {
        Context::program_uniform1i(self, program, location, v)
    }
    fn transform_feedback_buffer_base(&mut self, xfb: GLuint, index: GLuint, buffer: GLuint) {
        Context::transform_feedback_buffer_base(self, xfb, index, buffer)
    }
    fn transform_feedback_buffer_range(
        &mut self,
        xfb: GLuint,
        index: GLuint,
        buffer: GLuint,
        offset: isize,
        size: isize,
    ) {
        Context::transform_feedback_buffer_range(self, xfb, index, buffer, offset, size)
    }
    fn get_transform_feedbacki(&mut self, xfb: GLuint, pname: GLenum) -> GLint {
        let mut v = [-7];
        Context::get_transform_feedbackiv(self, xfb, pname, &mut v);
        v[0]
    }
    fn get_transform_feedbacki_v(&mut self, xfb: GLuint, pname: GLenum, index: GLuint) -> GLint {
        let mut v = [-7];
        Context::get_transform_feedbacki_v(self, xfb, pname, index, &mut v);
        v[0]
    }
    fn get_transform_feedbacki64_v(
        &mut self,
        xfb: GLuint,
        pname: GLenum,
        index: GLuint,
    ) -> GLint64 {
        let mut v = [-7];
        Context::get_transform_feedbacki64_v(self, xfb, pname, index, &mut v);
        v[0]
    }
}

/// The native entry point `name` as the C signature `F`.
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

impl Named for NativeGl {
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
    fn vertex_array_vertex_buffer(
        &mut self,
        vao: GLuint,
        binding: GLuint,
        buffer: GLuint,
        offset: isize,
        stride: GLsizei,
    ) {
        call!(
            self,
            "glVertexArrayVertexBuffer",
            fn(GLuint, GLuint, GLuint, isize, GLsizei),
            vao,
            binding,
            buffer,
            offset,
            stride
        )
    }
    fn vertex_array_attrib_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        call!(
            self,
            "glVertexArrayAttribFormat",
            fn(GLuint, GLuint, GLint, GLenum, GLboolean, GLuint),
            vao,
            attrib,
            size,
            ty,
            FALSE as GLboolean,
            offset
        )
    }
    fn vertex_array_attrib_i_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        call!(
            self,
            "glVertexArrayAttribIFormat",
            fn(GLuint, GLuint, GLint, GLenum, GLuint),
            vao,
            attrib,
            size,
            ty,
            offset
        )
    }
    fn vertex_array_attrib_binding(&mut self, vao: GLuint, attrib: GLuint, binding: GLuint) {
        call!(
            self,
            "glVertexArrayAttribBinding",
            fn(GLuint, GLuint, GLuint),
            vao,
            attrib,
            binding
        )
    }
    fn vertex_array_binding_divisor(&mut self, vao: GLuint, binding: GLuint, divisor: GLuint) {
        call!(
            self,
            "glVertexArrayBindingDivisor",
            fn(GLuint, GLuint, GLuint),
            vao,
            binding,
            divisor
        )
    }
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint) {
        call!(
            self,
            "glEnableVertexArrayAttrib",
            fn(GLuint, GLuint),
            vao,
            attrib
        )
    }
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint) {
        call!(
            self,
            "glVertexArrayElementBuffer",
            fn(GLuint, GLuint),
            vao,
            buffer
        )
    }
    fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    ) {
        call!(
            self,
            "glTextureStorage2D",
            fn(GLuint, GLsizei, GLenum, GLsizei, GLsizei),
            texture,
            levels,
            format,
            w,
            h
        )
    }
    fn texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        data: &[u8],
    ) {
        call!(
            self,
            "glTextureSubImage2D",
            fn(GLuint, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *const c_void),
            texture,
            level,
            x,
            y,
            w,
            h,
            RGBA,
            UNSIGNED_BYTE,
            data.as_ptr().cast()
        )
    }
    fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, z]: [i32; 3],
        [w, h, d]: [i32; 3],
        data: &[u8],
    ) {
        call!(
            self,
            "glTextureSubImage3D",
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
                GLenum,
                *const c_void,
            ),
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
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint) {
        call!(
            self,
            "glTextureParameteri",
            fn(GLuint, GLenum, GLint),
            texture,
            pname,
            param
        )
    }
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint) {
        call!(self, "glBindTextureUnit", fn(GLuint, GLuint), unit, texture)
    }
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8> {
        let mut out = vec![0xAB; buf_size];
        call!(
            self,
            "glGetTextureImage",
            fn(GLuint, GLint, GLenum, GLenum, GLsizei, *mut c_void),
            texture,
            level,
            RGBA,
            UNSIGNED_BYTE,
            buf_size as i32,
            out.as_mut_ptr().cast()
        );
        out
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
    fn named_framebuffer_texture(&mut self, fb: GLuint, attachment: GLenum, texture: GLuint) {
        call!(
            self,
            "glNamedFramebufferTexture",
            fn(GLuint, GLenum, GLuint, GLint),
            fb,
            attachment,
            texture,
            0
        )
    }
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint) {
        call!(
            self,
            "glNamedFramebufferRenderbuffer",
            fn(GLuint, GLenum, GLenum, GLuint),
            fb,
            attachment,
            RENDERBUFFER,
            rb
        )
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
    fn check_named_framebuffer_status(&mut self, fb: GLuint) -> GLenum {
        call!(
            self,
            "glCheckNamedFramebufferStatus",
            fn(GLuint, GLenum) -> GLenum,
            fb,
            DRAW_FRAMEBUFFER
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
