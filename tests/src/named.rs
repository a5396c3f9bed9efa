//! GL 4.5's direct-state-access calls the integration tests make, on Tessera (the engine's
//! entry points) and on the native driver (its entry points through their C signatures): one
//! trait, [`NamedGl`], so every differential test of named calls runs the same scene on both.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::pixel::{Pixels, PixelsMut};

use crate::gl::Gl;

mod native;

/// The named calls the direct-state-access tests make, beyond [`Gl`].
#[expect(missing_docs, reason = "each method is the GL function of its name")]
pub trait NamedGl: Gl {
    fn create_texture(&mut self, target: GLenum) -> GLuint;
    fn create_vertex_array(&mut self) -> GLuint;
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint);
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint);
    fn texture_parameterfv(&mut self, texture: GLuint, pname: GLenum, params: &[GLfloat; 4]);
    fn get_texture_parameteri(&mut self, texture: GLuint, pname: GLenum) -> GLint;
    fn get_texture_level_parameteri(
        &mut self,
        texture: GLuint,
        level: GLint,
        pname: GLenum,
    ) -> GLint;
    fn texture_storage_2d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        w: i32,
        h: i32,
    );
    fn texture_storage_3d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        size: [i32; 3],
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
    fn copy_texture_sub_image_2d(&mut self, texture: GLuint, level: GLint, rect: [i32; 4]);
    fn generate_texture_mipmap(&mut self, texture: GLuint);
    fn texture_storage_2d_multisample(&mut self, texture: GLuint, samples: GLsizei, w: i32, h: i32);
    fn texture_buffer(&mut self, texture: GLuint, buffer: GLuint);
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint);
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
        normalized: bool,
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
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint, on: bool);
    fn get_vertex_array(&mut self, vao: GLuint, pname: GLenum) -> GLint;
    fn get_vertex_array_indexed(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint;
    fn get_vertex_array_indexed64(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint64;
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8>;
    fn vertex_array_vertex_buffers(
        &mut self,
        vao: GLuint,
        first: GLuint,
        buffers: &[GLuint],
        offsets: &[isize],
        strides: &[GLsizei],
    );
    fn create_transform_feedbacks_n(&mut self, n: GLsizei) -> GLuint;
    fn create_framebuffer(&mut self) -> GLuint;
    fn create_renderbuffer(&mut self) -> GLuint;
    fn create_sampler(&mut self) -> GLuint;
    fn named_framebuffer_texture(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
    );
    fn named_framebuffer_texture_layer(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        layer: GLint,
    );
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint);
    fn check_named_framebuffer_status(&mut self, fb: GLuint, target: GLenum) -> GLenum;
    fn get_named_framebuffer_attachment(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        pname: GLenum,
    ) -> GLint;
    fn named_framebuffer_draw_buffers(&mut self, fb: GLuint, bufs: &[GLenum]);
    fn named_framebuffer_read_buffer(&mut self, fb: GLuint, src: GLenum);
    fn named_renderbuffer_storage(&mut self, rb: GLuint, format: GLenum, w: i32, h: i32);
    fn get_named_renderbuffer(&mut self, rb: GLuint, pname: GLenum) -> GLint;
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
    fn get_compressed_texture_image(
        &mut self,
        texture: GLuint,
        level: GLint,
        buf_size: usize,
    ) -> Vec<u8>;
    fn named_framebuffer_draw_buffer(&mut self, fb: GLuint, buf: GLenum);
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

impl NamedGl for Context {
    fn create_texture(&mut self, target: GLenum) -> GLuint {
        let mut name = [0];
        self.create_textures(target, 1, &mut name);
        name[0]
    }
    fn create_vertex_array(&mut self) -> GLuint {
        let mut name = [0];
        self.create_vertex_arrays(1, &mut name);
        name[0]
    }
    fn bind_texture_unit(&mut self, unit: GLuint, texture: GLuint) {
        Context::bind_texture_unit(self, unit, texture);
    }
    fn texture_parameteri(&mut self, texture: GLuint, pname: GLenum, param: GLint) {
        Context::texture_parameteri(self, texture, pname, param);
    }
    fn texture_parameterfv(&mut self, texture: GLuint, pname: GLenum, params: &[GLfloat; 4]) {
        Context::texture_parameterfv(self, texture, pname, params);
    }
    fn get_texture_parameteri(&mut self, texture: GLuint, pname: GLenum) -> GLint {
        let mut v = [i32::MIN; 4];
        self.get_texture_parameteriv(texture, pname, &mut v);
        v[0]
    }
    fn get_texture_level_parameteri(
        &mut self,
        texture: GLuint,
        level: GLint,
        pname: GLenum,
    ) -> GLint {
        let mut v = [i32::MIN];
        self.get_texture_level_parameteriv(texture, level, pname, &mut v);
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
        Context::texture_storage_2d(self, texture, levels, format, w, h);
    }
    fn texture_storage_3d(
        &mut self,
        texture: GLuint,
        levels: GLsizei,
        format: GLenum,
        [w, h, d]: [i32; 3],
    ) {
        Context::texture_storage_3d(self, texture, levels, format, w, h, d);
    }
    fn texture_sub_image_2d(
        &mut self,
        texture: GLuint,
        level: GLint,
        [x, y, w, h]: [i32; 4],
        data: &[u8],
    ) {
        Context::texture_sub_image_2d(
            self,
            texture,
            level,
            x,
            y,
            w,
            h,
            RGBA,
            UNSIGNED_BYTE,
            Pixels::Bytes(data),
        );
    }
    fn texture_sub_image_3d(
        &mut self,
        texture: GLuint,
        level: GLint,
        offset: [i32; 3],
        size: [i32; 3],
        data: &[u8],
    ) {
        Context::texture_sub_image_3d(
            self,
            texture,
            level,
            offset,
            size,
            RGBA,
            UNSIGNED_BYTE,
            Pixels::Bytes(data),
        );
    }
    fn copy_texture_sub_image_2d(&mut self, texture: GLuint, level: GLint, [x, y, w, h]: [i32; 4]) {
        Context::copy_texture_sub_image_2d(self, texture, level, x, y, 0, 0, w, h);
    }
    fn generate_texture_mipmap(&mut self, texture: GLuint) {
        Context::generate_texture_mipmap(self, texture);
    }
    fn texture_storage_2d_multisample(
        &mut self,
        texture: GLuint,
        samples: GLsizei,
        w: i32,
        h: i32,
    ) {
        Context::texture_storage_2d_multisample(
            self,
            texture,
            samples,
            RGBA8,
            w,
            h,
            TRUE as GLboolean,
        );
    }
    fn texture_buffer(&mut self, texture: GLuint, buffer: GLuint) {
        Context::texture_buffer(self, texture, RGBA8, buffer);
    }
    fn vertex_array_element_buffer(&mut self, vao: GLuint, buffer: GLuint) {
        Context::vertex_array_element_buffer(self, vao, buffer);
    }
    fn vertex_array_vertex_buffer(
        &mut self,
        vao: GLuint,
        binding: GLuint,
        buffer: GLuint,
        offset: isize,
        stride: GLsizei,
    ) {
        Context::vertex_array_vertex_buffer(self, vao, binding, buffer, offset, stride);
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
        Context::vertex_array_attrib_format(
            self,
            vao,
            attrib,
            size,
            ty,
            normalized as GLboolean,
            offset,
        );
    }
    fn vertex_array_attrib_i_format(
        &mut self,
        vao: GLuint,
        attrib: GLuint,
        size: GLint,
        ty: GLenum,
        offset: GLuint,
    ) {
        Context::vertex_array_attrib_i_format(self, vao, attrib, size, ty, offset);
    }
    fn vertex_array_attrib_binding(&mut self, vao: GLuint, attrib: GLuint, binding: GLuint) {
        Context::vertex_array_attrib_binding(self, vao, attrib, binding);
    }
    fn vertex_array_binding_divisor(&mut self, vao: GLuint, binding: GLuint, divisor: GLuint) {
        Context::vertex_array_binding_divisor(self, vao, binding, divisor);
    }
    fn enable_vertex_array_attrib(&mut self, vao: GLuint, attrib: GLuint, on: bool) {
        if on {
            Context::enable_vertex_array_attrib(self, vao, attrib);
        } else {
            Context::disable_vertex_array_attrib(self, vao, attrib);
        }
    }
    fn get_vertex_array(&mut self, vao: GLuint, pname: GLenum) -> GLint {
        let mut v = [i32::MIN];
        self.get_vertex_arrayiv(vao, pname, &mut v);
        v[0]
    }
    fn get_vertex_array_indexed(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint {
        let mut v = [i32::MIN];
        self.get_vertex_array_indexediv(vao, index, pname, &mut v);
        v[0]
    }
    fn get_vertex_array_indexed64(&mut self, vao: GLuint, index: GLuint, pname: GLenum) -> GLint64 {
        let mut v = [i64::MIN];
        self.get_vertex_array_indexed64iv(vao, index, pname, &mut v);
        v[0]
    }
    fn get_texture_image(&mut self, texture: GLuint, level: GLint, buf_size: usize) -> Vec<u8> {
        let mut out = vec![0xA5; buf_size + 16];
        let px = PixelsMut::Bytes(&mut out[..buf_size]);
        Context::get_texture_image(
            self,
            texture,
            level,
            RGBA,
            UNSIGNED_BYTE,
            buf_size as GLsizei,
            px,
        );
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
        let n = buffers.len() as GLsizei;
        Context::vertex_array_vertex_buffers(self, vao, first, n, Some(buffers), offsets, strides);
    }
    fn create_transform_feedbacks_n(&mut self, n: GLsizei) -> GLuint {
        let mut name = [0; 2];
        self.create_transform_feedbacks(n, &mut name);
        name[0]
    }
    fn create_framebuffer(&mut self) -> GLuint {
        let mut name = [0];
        self.create_framebuffers(1, &mut name);
        name[0]
    }
    fn create_renderbuffer(&mut self) -> GLuint {
        let mut name = [0];
        self.create_renderbuffers(1, &mut name);
        name[0]
    }
    fn create_sampler(&mut self) -> GLuint {
        let mut name = [0];
        self.create_samplers(1, &mut name);
        name[0]
    }
    fn named_framebuffer_texture(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        Context::named_framebuffer_texture(self, fb, attachment, texture, level);
    }
    fn named_framebuffer_texture_layer(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        layer: GLint,
    ) {
        Context::named_framebuffer_texture_layer(self, fb, attachment, texture, level, layer);
    }
    fn named_framebuffer_renderbuffer(&mut self, fb: GLuint, attachment: GLenum, rb: GLuint) {
        Context::named_framebuffer_renderbuffer(self, fb, attachment, RENDERBUFFER, rb);
    }
    fn check_named_framebuffer_status(&mut self, fb: GLuint, target: GLenum) -> GLenum {
        Context::check_named_framebuffer_status(self, fb, target)
    }
    fn get_named_framebuffer_attachment(
        &mut self,
        fb: GLuint,
        attachment: GLenum,
        pname: GLenum,
    ) -> GLint {
        let mut v = [i32::MIN];
        self.get_named_framebuffer_attachment_parameteriv(fb, attachment, pname, &mut v);
        v[0]
    }
    fn named_framebuffer_draw_buffers(&mut self, fb: GLuint, bufs: &[GLenum]) {
        Context::named_framebuffer_draw_buffers(self, fb, bufs.len() as GLsizei, bufs);
    }
    fn named_framebuffer_read_buffer(&mut self, fb: GLuint, src: GLenum) {
        Context::named_framebuffer_read_buffer(self, fb, src);
    }
    fn named_renderbuffer_storage(&mut self, rb: GLuint, format: GLenum, w: i32, h: i32) {
        Context::named_renderbuffer_storage(self, rb, format, w, h)
    }
    fn get_named_renderbuffer(&mut self, rb: GLuint, pname: GLenum) -> GLint {
        let mut v = [i32::MIN];
        self.get_named_renderbuffer_parameteriv(rb, pname, &mut v);
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
    fn named_framebuffer_draw_buffer(&mut self, fb: GLuint, buf: GLenum) {
        Context::named_framebuffer_draw_buffer(self, fb, buf)
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
