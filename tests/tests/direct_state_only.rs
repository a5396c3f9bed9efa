//! A program that reaches every object by name (GL 4.5's direct state access), against the
//! native driver on both backends (Vulkan with the validation layer on, which must report
//! nothing): buffers, textures (a cube map's faces written and read as layers), a sampler,
//! a framebuffer with a renderbuffer and the vertex array are made and filled with
//! `glCreate*` and the named calls; no `glBind*` is called but what drawing needs
//! (`glBindVertexArray`, `glUseProgram`, `glBindTextureUnit`, `glBindSampler` and
//! `glBindFramebuffer` of the draw target). The frames are cleared and blitted by name.
//! Then the transcripts of the named framebuffer verbs and parameters, transform feedback
//! objects' buffers and compressed images: every error and value exactly the native one.

#![expect(
    unsafe_code,
    reason = "the native driver's direct-state-access entry points, called through their C \
              signatures"
)]

use std::ffi::c_void;

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};

/// The named calls these scenes make, beyond [`Gl`].
trait Named: Gl {
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

/// Two quads side by side (instance 0 and 1): the left samples the 2D texture, the right
/// the cube map along a direction through the face the instance tag names.
const VS: &str = "#version 330
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in int face;
out vec2 v_uv;
flat out int v_face;
flat out int v_side;
void main() {
    v_uv = uv;
    v_face = face;
    v_side = gl_InstanceID;
    gl_Position = vec4(position + vec2(float(gl_InstanceID), 0.0), 0.5 - 0.25 * float(gl_InstanceID), 1.0);
}
";

const FS: &str = "#version 330
uniform sampler2D tex;
uniform samplerCube cube;
in vec2 v_uv;
flat in int v_face;
flat in int v_side;
out vec4 frag;
void main() {
    vec2 c = v_uv * 1.8 - 0.9;
    vec3 dirs[6] = vec3[6](vec3(1.0, -c.y, -c.x), vec3(-1.0, -c.y, c.x), vec3(c.x, 1.0, c.y),
                           vec3(c.x, -1.0, -c.y), vec3(c.x, -c.y, 1.0), vec3(-c.x, -c.y, -1.0));
    frag = v_side == 0 ? texture(tex, v_uv) : texture(cube, dirs[v_face]);
}
";

fn program(gl: &mut dyn Named) -> GLuint {
    let p = gl.create_program();
    for (kind, src) in [(VERTEX_SHADER, VS), (FRAGMENT_SHADER, FS)] {
        let s = gl.create_shader(kind);
        gl.shader_source(s, src);
        gl.compile_shader(s);
        assert_eq!(
            gl.get_shaderi(s, COMPILE_STATUS),
            TRUE as i32,
            "{}",
            gl.shader_info_log(s)
        );
        gl.attach_shader(p, s);
    }
    gl.link_program(p);
    assert_eq!(
        gl.get_programi(p, LINK_STATUS),
        TRUE as i32,
        "{}",
        gl.program_info_log(p)
    );
    p
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `n` RGBA texels drawn from `seed`.
fn texels(n: i32, seed: u8) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let i = i as u8;
            [
                i.wrapping_mul(37).wrapping_add(seed),
                255 - i.wrapping_mul(11),
                seed,
                255,
            ]
        })
        .collect()
}

/// A buffer made and filled by name.
fn buffer(gl: &mut dyn Named, data: &[u8], flags: GLbitfield) -> GLuint {
    let b = gl.create("buffer", 0);
    gl.named_buffer_storage(b, data.len(), Some(data), flags);
    b
}

const SIZE: i32 = 32;

/// The default framebuffer's pixels.
fn pixels(gl: &mut dyn Named) -> Vec<u8> {
    let mut out = vec![0u8; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut out);
    out
}

/// The scene: two frames into a framebuffer made by name, each blitted by name into half of
/// the default framebuffer; the default framebuffer's pixels after each,
/// then the colour texture and the cube map read back by name.
fn scene(gl: &mut dyn Named) -> Vec<Vec<u8>> {
    let p = program(gl);
    let tex_loc = gl.get_uniform_location(p, "tex");
    let cube_loc = gl.get_uniform_location(p, "cube");
    gl.program_uniform1i(p, tex_loc, 0);
    gl.program_uniform1i(p, cube_loc, 1);
    let vertices = buffer(
        gl,
        &floats(&[
            -1.0, -1.0, 0.0, 0.0, 0.0, -1.0, 1.0, 0.0, -1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0,
        ]),
        0,
    );
    let faces = buffer(gl, &[0, 0, 0, 0, 4, 0, 0, 0], DYNAMIC_STORAGE_BIT);
    let indices = buffer(gl, &[0, 1, 2, 2, 1, 3], 0);
    let vao = gl.create("vertex array", 0);
    gl.vertex_array_vertex_buffer(vao, 0, vertices, 0, 16);
    gl.vertex_array_vertex_buffer(vao, 3, faces, 0, 4);
    gl.vertex_array_binding_divisor(vao, 3, 1);
    gl.vertex_array_attrib_format(vao, 0, 2, FLOAT, 0);
    gl.vertex_array_attrib_format(vao, 1, 2, FLOAT, 8);
    gl.vertex_array_attrib_i_format(vao, 2, 1, INT, 0);
    gl.vertex_array_attrib_binding(vao, 1, 0);
    gl.vertex_array_attrib_binding(vao, 2, 3);
    for a in 0..3 {
        gl.enable_vertex_array_attrib(vao, a);
    }
    gl.vertex_array_element_buffer(vao, indices);
    // The 2D texture, sampled through a sampler object (nearest, clamped).
    let tex = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(tex, 1, RGBA8, 4, 4);
    gl.texture_sub_image_2d(tex, 0, [0, 0, 4, 4], &texels(16, 9));
    let sampler = gl.create("sampler", 0);
    gl.sampler_parameteri(sampler, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_MAG_FILTER, NEAREST as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_WRAP_S, CLAMP_TO_EDGE as GLint);
    gl.sampler_parameteri(sampler, TEXTURE_WRAP_T, CLAMP_TO_EDGE as GLint);
    // The cube map: its six faces written as the six layers of one call.
    let cube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(cube, 1, RGBA8, 2, 2);
    gl.texture_sub_image_3d(cube, 0, [0, 0, 0], [2, 2, 6], &texels(24, 50));
    gl.texture_parameteri(cube, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.texture_parameteri(cube, TEXTURE_MAG_FILTER, NEAREST as GLint);
    // The framebuffer: a colour texture and a depth-stencil renderbuffer.
    let color = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(color, 1, RGBA8, SIZE, SIZE);
    let depth = gl.create("renderbuffer", 0);
    gl.named_renderbuffer_storage(depth, DEPTH24_STENCIL8, SIZE, SIZE);
    let fb = gl.create("framebuffer", 0);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, color);
    gl.named_framebuffer_renderbuffer(fb, DEPTH_STENCIL_ATTACHMENT, depth);
    gl.named_framebuffer_draw_buffer(fb, COLOR_ATTACHMENT0);
    assert_eq!(gl.check_named_framebuffer_status(fb), FRAMEBUFFER_COMPLETE);
    // Drawing state: what a draw needs bound.
    gl.use_program(p);
    gl.bind_vertex_array(vao);
    gl.bind_texture_unit(0, tex);
    gl.bind_texture_unit(1, cube);
    gl.bind_sampler(0, sampler);
    gl.enable(DEPTH_TEST);
    gl.viewport(0, 0, SIZE, SIZE);
    let mut out = Vec::new();
    let frame = |gl: &mut dyn Named, out: &mut Vec<Vec<u8>>, half: i32| {
        gl.clear_named_framebufferfv(fb, COLOR, 0, [0.1, 0.2, 0.3, 1.0]);
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 0.6, 0);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, fb);
        gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 2);
        gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
        gl.clear_color(0.9, 0.5, 0.1, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        let (x0, x1) = (half * SIZE / 2, (half + 1) * SIZE / 2);
        gl.blit_named_framebuffer(
            fb,
            0,
            [0, 0, SIZE, SIZE],
            [x0, 0, x1, SIZE],
            COLOR_BUFFER_BIT,
            NEAREST,
        );
        out.push(pixels(gl));
        assert_eq!(gl.get_error(), NO_ERROR);
    };
    frame(gl, &mut out, 0);
    // Named changes: cube face 3 rewritten as layer 3, the right quad's face tag, the depth
    // the frame is cleared to (the right quad, nearer, now fails the test).
    gl.texture_sub_image_3d(cube, 0, [0, 0, 3], [2, 2, 1], &texels(4, 200));
    gl.named_buffer_sub_data(faces, 4, &[3, 0, 0, 0]);
    frame(gl, &mut out, 1);
    gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 0.3, 0);
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, fb);
    gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_BYTE, 0, 2);
    gl.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
    out.push(gl.get_texture_image(color, 0, (SIZE * SIZE * 4) as usize));
    out.push(gl.get_texture_image(cube, 0, 2 * 2 * 4 * 6));
    assert_eq!(gl.get_error(), NO_ERROR);
    out
}

/// Errors and answers of the named framebuffer verbs and parameters.
fn framebuffer_transcript(gl: &mut dyn Named) -> Vec<i64> {
    let mut t = Vec::new();
    let color = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(color, 1, RGBA8, 8, 8);
    let depth = gl.create("renderbuffer", 0);
    gl.named_renderbuffer_storage(depth, DEPTH24_STENCIL8, 8, 8);
    let fb = gl.create("framebuffer", 0);
    gl.named_framebuffer_texture(fb, COLOR_ATTACHMENT0, color);
    gl.named_framebuffer_renderbuffer(fb, DEPTH_STENCIL_ATTACHMENT, depth);
    let empty = gl.create("framebuffer", 0);
    let generated = gl.gen_framebuffer();
    let step = |gl: &mut dyn Named, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn Named)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    // Clears: names, buffers, draw buffer indices, an incomplete framebuffer.
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(999, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, COLOR, 0, [0.25, 0.5, 0.75, 1.0])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, COLOR, 9, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, STENCIL, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, DEPTH, 1, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(fb, DEPTH, 0, [0.5; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferiv(fb, STENCIL, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferiv(fb, DEPTH, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferuiv(fb, STENCIL, 0, [3; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, COLOR, 0, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 1, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(fb, DEPTH_STENCIL, 0, 1.0, 7)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(empty, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfi(empty, DEPTH, 0, 1.0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(generated, COLOR, 0, [1.0; 4])
    });
    step(gl, &mut t, &|gl| {
        gl.clear_named_framebufferfv(0, COLOR, 0, [0.0, 1.0, 0.0, 1.0])
    });
    // The bindings are as they were.
    for pname in [DRAW_FRAMEBUFFER_BINDING, READ_FRAMEBUFFER_BINDING] {
        let mut v = [-1];
        gl.get_integerv(pname, &mut v);
        t.push(i64::from(v[0]));
    }
    // What the clears wrote into the colour attachment. (Native llvmpipe's named clear of
    // framebuffer 0 leaves its pbuffer as it was, so the default framebuffer's pixels are
    // not compared.)
    t.extend(
        gl.get_texture_image(color, 0, 8 * 8 * 4)
            .iter()
            .step_by(37)
            .map(|b| i64::from(*b)),
    );
    // Blits: names (read first), masks, filters, an incomplete side.
    let whole = [0, 0, 8, 8];
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(999, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 999, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(999, 998, whole, whole, 0x7, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(generated + 50, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, 0x7, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, COLOR_BUFFER_BIT, 0x1234)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, whole, DEPTH_BUFFER_BIT, LINEAR)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(empty, 0, whole, whole, COLOR_BUFFER_BIT, NEAREST)
    });
    step(gl, &mut t, &|gl| {
        gl.blit_named_framebuffer(fb, 0, whole, [8, 8, 24, 24], COLOR_BUFFER_BIT, LINEAR)
    });
    let mut px = [0u8; 4];
    gl.read_pixels(12, 12, 1, 1, RGBA, UNSIGNED_BYTE, &mut px);
    t.extend(px.iter().map(|b| i64::from(*b)));
    // Invalidation: names, attachments of each kind of framebuffer, counts and sizes.
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(999, &[COLOR_ATTACHMENT0])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR_ATTACHMENT0, DEPTH_STENCIL_ATTACHMENT])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(fb, &[COLOR_ATTACHMENT0 + 9])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(0, &[COLOR, DEPTH, STENCIL])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_data(0, &[COLOR_ATTACHMENT0])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, 1, &[COLOR_ATTACHMENT0], [0, 0, 4, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, -1, &[COLOR_ATTACHMENT0], [0, 0, 4, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(fb, 1, &[COLOR_ATTACHMENT0], [0, 0, -1, 4])
    });
    step(gl, &mut t, &|gl| {
        gl.invalidate_named_framebuffer_sub_data(
            generated + 50,
            1,
            &[COLOR_ATTACHMENT0],
            [0, 0, 4, 4],
        )
    });
    // Parameters: names, pnames, the default framebuffer, values, then the queries.
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(999, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_HEIGHT, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, SAMPLES, 1)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(empty, FRAMEBUFFER_DEFAULT_LAYERS, -1)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(0, FRAMEBUFFER_DEFAULT_WIDTH, 16)
    });
    step(gl, &mut t, &|gl| {
        gl.named_framebuffer_parameteri(0, 0x1234, 16)
    });
    for (f, pname) in [
        (empty, FRAMEBUFFER_DEFAULT_WIDTH),
        (empty, FRAMEBUFFER_DEFAULT_HEIGHT),
        (empty, FRAMEBUFFER_DEFAULT_SAMPLES),
        (fb, FRAMEBUFFER_DEFAULT_WIDTH),
        (0, SAMPLES),
        (0, SAMPLE_BUFFERS),
        (0, FRAMEBUFFER_DEFAULT_WIDTH),
        (999, FRAMEBUFFER_DEFAULT_WIDTH),
        (fb, 0x1234),
    ] {
        t.push(i64::from(gl.get_named_framebuffer_parameteri(f, pname)));
        t.push(i64::from(gl.get_error()));
    }
    t.push(i64::from(gl.check_named_framebuffer_status(empty)));
    t.push(i64::from(gl.get_error()));
    // GL 4.5's errors of the named forms where the bound ones keep older ones: too many
    // samples for a renderbuffer, sampler state of a multisample texture.
    let rb = gl.create("renderbuffer", 0);
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, 64, RGBA8, 8, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, -1, RGBA8, 8, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.named_renderbuffer_storage_multisample(rb, 64, 0x1234, 8, 8)
    });
    let ms = gl.create("texture", TEXTURE_2D_MULTISAMPLE);
    for pname in [
        TEXTURE_MIN_FILTER,
        TEXTURE_WRAP_S,
        TEXTURE_COMPARE_MODE,
        TEXTURE_BASE_LEVEL,
    ] {
        step(gl, &mut t, &|gl| {
            gl.texture_parameteri(ms, pname, NEAREST as GLint)
        });
    }
    // Objects made by name take labels: a program pipeline, a transform feedback object.
    let pipeline = gl.create_program_pipeline();
    let xfb = gl.create("transform feedback", 0);
    for (identifier, name) in [(PROGRAM_PIPELINE, pipeline), (TRANSFORM_FEEDBACK, xfb)] {
        gl.object_label(identifier, name, Some("named"));
        t.push(i64::from(gl.get_error()));
        t.push(gl.get_object_label(identifier, name).len() as i64);
        t.push(i64::from(gl.get_error()));
    }
    t
}

/// Errors and answers of transform feedback objects' buffers by name.
fn transform_feedback_transcript(gl: &mut dyn Named) -> Vec<i64> {
    let mut t = Vec::new();
    let b = buffer(gl, &[0; 64], 0);
    let other = buffer(gl, &[0; 16], 0);
    let x = gl.create("transform feedback", 0);
    let generated = gl.gen_transform_feedback();
    let step = |gl: &mut dyn Named, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn Named)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(x, 0, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 1, b, 16, 32)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 2, b, 48, 32)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 3, other, 8, 4)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(999, 0, b)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(x, 0, 999)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(999, 0, 999)
    });
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(x, 4, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 4, b, 3, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 2, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 0, 6)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, -4, 8)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, b, 0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(x, 0, 0, 0, 0)
    });
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_base(generated, 2, other)
    });
    step(gl, &mut t, &|gl| gl.transform_feedback_buffer_base(0, 1, b));
    step(gl, &mut t, &|gl| {
        gl.transform_feedback_buffer_range(0, 2, other, 4, 8)
    });
    for xfb in [x, generated, 0] {
        for i in 0..4 {
            t.push(i64::from(gl.get_transform_feedbacki_v(
                xfb,
                TRANSFORM_FEEDBACK_BUFFER_BINDING,
                i,
            )));
            t.push(gl.get_transform_feedbacki64_v(xfb, TRANSFORM_FEEDBACK_BUFFER_START, i));
            t.push(gl.get_transform_feedbacki64_v(xfb, TRANSFORM_FEEDBACK_BUFFER_SIZE, i));
        }
        t.push(i64::from(
            gl.get_transform_feedbacki(xfb, TRANSFORM_FEEDBACK_ACTIVE),
        ));
        t.push(i64::from(
            gl.get_transform_feedbacki(xfb, TRANSFORM_FEEDBACK_PAUSED),
        ));
        t.push(i64::from(gl.get_error()));
    }
    // The bound (default) object's bindings as glGet sees them; the generic binding stays.
    t.push(i64::from(
        gl.get_integeri(TRANSFORM_FEEDBACK_BUFFER_BINDING, 1),
    ));
    let mut v = [-1];
    gl.get_integerv(TRANSFORM_FEEDBACK_BUFFER_BINDING, &mut v);
    t.push(i64::from(v[0]));
    for (xfb, pname, index) in [
        (999, TRANSFORM_FEEDBACK_BUFFER_BINDING, 0),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 4),
        (x, TRANSFORM_FEEDBACK_ACTIVE, 0),
    ] {
        t.push(i64::from(gl.get_transform_feedbacki_v(xfb, pname, index)));
        t.push(i64::from(gl.get_error()));
    }
    for (xfb, pname, index) in [
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 0),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING, 1),
        (x, TRANSFORM_FEEDBACK_BUFFER_START, 4),
        (999, TRANSFORM_FEEDBACK_BUFFER_SIZE, 0),
    ] {
        t.push(gl.get_transform_feedbacki64_v(xfb, pname, index));
        t.push(i64::from(gl.get_error()));
    }
    for (xfb, pname) in [
        (999, TRANSFORM_FEEDBACK_ACTIVE),
        (x, TRANSFORM_FEEDBACK_BUFFER_BINDING),
    ] {
        t.push(i64::from(gl.get_transform_feedbacki(xfb, pname)));
        t.push(i64::from(gl.get_error()));
    }
    t
}

/// Errors and bytes of compressed images and cube maps read and written by name.
fn image_transcript(gl: &mut dyn Named) -> Vec<i64> {
    let mut t = Vec::new();
    let blocks: Vec<u8> = (0..48u8)
        .map(|i| i.wrapping_mul(53).wrapping_add(7))
        .collect();
    let step = |gl: &mut dyn Named, t: &mut Vec<i64>, f: &dyn Fn(&mut dyn Named)| {
        f(gl);
        t.push(i64::from(gl.get_error()));
    };
    // An 8x8 RGTC1 image: four 8-byte blocks.
    let rgtc = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(rgtc, 1, COMPRESSED_RED_RGTC1, 8, 8);
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_2d(rgtc, [0, 0, 8, 8], COMPRESSED_RED_RGTC1, &blocks[..32])
    });
    t.extend(
        gl.get_compressed_texture_image(rgtc, 0, 32)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    t.extend(
        gl.get_compressed_texture_image(rgtc, 0, 31)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(rgtc, -1, 32);
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(999, 0, 32);
    t.push(i64::from(gl.get_error()));
    let plain = gl.create("texture", TEXTURE_2D);
    gl.texture_storage_2d(plain, 1, RGBA8, 2, 2);
    gl.get_compressed_texture_image(plain, 0, 64);
    t.push(i64::from(gl.get_error()));
    // A compressed cube map: six 4x4 faces of one block each, written as layers.
    let ccube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(ccube, 1, COMPRESSED_RED_RGTC1, 4, 4);
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_3d(
            ccube,
            [0, 0, 0],
            [4, 4, 6],
            COMPRESSED_RED_RGTC1,
            &blocks,
        )
    });
    step(gl, &mut t, &|gl| {
        gl.compressed_texture_sub_image_3d(
            ccube,
            [0, 0, 2],
            [4, 4, 1],
            COMPRESSED_RED_RGTC1,
            &blocks[40..],
        )
    });
    t.extend(
        gl.get_compressed_texture_image(ccube, 0, 48)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_compressed_texture_image(ccube, 0, 47);
    t.push(i64::from(gl.get_error()));
    // An RGBA8 cube map: faces written as layers, read back whole; the checks.
    let cube = gl.create("texture", TEXTURE_CUBE_MAP);
    gl.texture_storage_2d(cube, 2, RGBA8, 2, 2);
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, 0], [2, 2, 6], &texels(24, 1))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [1, 0, 4], [1, 2, 2], &texels(4, 99))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 1, [0, 0, 5], [1, 1, 1], &texels(1, 33))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, 5], [2, 2, 2], &texels(8, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [0, 0, -1], [2, 2, 1], &texels(4, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 0, [1, 1, 0], [2, 2, 1], &texels(4, 7))
    });
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(cube, 2, [0, 0, 0], [1, 1, 1], &texels(1, 7))
    });
    t.extend(
        gl.get_texture_image(cube, 0, 96)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    t.extend(
        gl.get_texture_image(cube, 1, 24)
            .iter()
            .map(|b| i64::from(*b)),
    );
    t.push(i64::from(gl.get_error()));
    gl.get_texture_image(cube, 0, 95);
    t.push(i64::from(gl.get_error()));
    gl.get_texture_image(cube, -1, 96);
    t.push(i64::from(gl.get_error()));
    // A cube map without images: the faces are not cube complete.
    let bare = gl.create("texture", TEXTURE_CUBE_MAP);
    step(gl, &mut t, &|gl| {
        gl.texture_sub_image_3d(bare, 0, [0, 0, 0], [1, 1, 1], &texels(1, 7))
    });
    gl.get_texture_image(bare, 0, 96);
    t.push(i64::from(gl.get_error()));
    t
}

/// Where two debug renderings first differ, with some context.
fn first_difference(got: &str, expected: &str) -> String {
    let at = got
        .bytes()
        .zip(expected.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(expected.len()));
    let from = at.saturating_sub(80);
    let end = |s: &str| (at + 80).min(s.len());
    format!(
        "at byte {at}: got ..{}.., expected ..{}..",
        &got[from..end(got)],
        &expected[from..end(expected)]
    )
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Named) -> T) {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            assert!(
                got == expected,
                "{} {}: {}",
                backend.name(),
                transport.name(),
                first_difference(&format!("{got:?}"), &format!("{expected:?}"))
            );
            ctx.finish();
            assert!(!ctx.is_lost(), "{}: the session ended", backend.name());
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}

#[test]
fn a_program_that_names_every_object_draws_as_the_native_driver_draws() {
    compare(|gl| {
        let got = scene(gl);
        assert_ne!(got[0], got[1], "the second frame changed nothing");
        got
    });
}

#[test]
fn named_framebuffer_verbs_and_parameters_match_the_native_driver() {
    compare(framebuffer_transcript);
}

#[test]
fn transform_feedback_buffers_by_name_match_the_native_driver() {
    compare(transform_feedback_transcript);
}

#[test]
fn compressed_and_cube_images_by_name_match_the_native_driver() {
    compare(image_transcript);
}
