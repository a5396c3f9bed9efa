//! Framebuffers, renderbuffers and samplers by name: `glCreateFramebuffers`,
//! `glNamedFramebuffer*`, `glCheckNamedFramebufferStatus`,
//! `glGetNamedFramebufferAttachmentParameteriv`, `glCreateRenderbuffers`,
//! `glNamedRenderbufferStorage*`, `glGetNamedRenderbufferParameteriv` and
//! `glCreateSamplers`, each the body of its bound form on the named object
//! (`framebuffer::WhichFramebuffer`, the renderbuffer calls' `*_of`).

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;

use crate::context::{Context, GlResult};
use crate::framebuffer::{TexCall, WhichFramebuffer, framebuffer_target};
use crate::renderbuffer::create_renderbuffer;

impl Context {
    /// The framebuffer object `framebuffer` names (`INVALID_OPERATION` for a name that is
    /// none: zero, never generated, or generated and never bound or created).
    fn framebuffer_by_name(&self, framebuffer: GLuint) -> GlResult<Entity> {
        self.local
            .framebuffers
            .get(framebuffer)
            .ok_or(INVALID_OPERATION)
    }

    /// The framebuffer a named call that takes the default framebuffer as 0 names.
    fn framebuffer_or_default(&self, framebuffer: GLuint) -> GlResult<Option<Entity>> {
        match framebuffer {
            0 => Ok(None),
            name => self.framebuffer_by_name(name).map(Some),
        }
    }

    /// `glCreateFramebuffers`: names that are framebuffer objects at once.
    pub fn create_framebuffers(&mut self, n: GLsizei, framebuffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let len = (n as usize).min(framebuffers.len());
        let out = &mut framebuffers[..len];
        if self.local.framebuffers.generate(out).is_err() {
            return self.error(OUT_OF_MEMORY);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in out.iter() {
            self.local.create_framebuffer(&mut sh, name);
        }
    }

    /// `glNamedFramebufferTexture`.
    pub fn named_framebuffer_texture(
        &mut self,
        framebuffer: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        match self.framebuffer_by_name(framebuffer) {
            Ok(fb) => {
                let r = WhichFramebuffer::Named(Some(fb));
                self.framebuffer_texture_common(r, attachment, texture, level, TexCall::Any);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glNamedFramebufferTextureLayer`.
    pub fn named_framebuffer_texture_layer(
        &mut self,
        framebuffer: GLuint,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        layer: GLint,
    ) {
        match self.framebuffer_by_name(framebuffer) {
            Ok(fb) => {
                let r = WhichFramebuffer::Named(Some(fb));
                let call = TexCall::Layer(layer);
                self.framebuffer_texture_common(r, attachment, texture, level, call);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glNamedFramebufferRenderbuffer`.
    pub fn named_framebuffer_renderbuffer(
        &mut self,
        framebuffer: GLuint,
        attachment: GLenum,
        renderbuffertarget: GLenum,
        renderbuffer: GLuint,
    ) {
        match self.framebuffer_by_name(framebuffer) {
            Ok(fb) => {
                let r = WhichFramebuffer::Named(Some(fb));
                self.framebuffer_renderbuffer_of(r, attachment, renderbuffertarget, renderbuffer);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glCheckNamedFramebufferStatus`: the name first, then the target (which only says
    /// which default framebuffer 0 means); 0 after an error.
    pub fn check_named_framebuffer_status(
        &mut self,
        framebuffer: GLuint,
        target: GLenum,
    ) -> GLenum {
        let fb = match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => fb,
            Err(err) => {
                self.error(err);
                return 0;
            }
        };
        if framebuffer_target(target).is_none() {
            self.error(INVALID_ENUM);
            return 0;
        }
        let sh = self.group.lock();
        self.local.framebuffer_status(&sh, fb)
    }

    /// `glGetNamedFramebufferAttachmentParameteriv` (0: the default framebuffer).
    pub fn get_named_framebuffer_attachment_parameteriv(
        &mut self,
        framebuffer: GLuint,
        attachment: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => {
                let r = WhichFramebuffer::Named(fb);
                self.attachment_parameter_of(r, attachment, pname, params);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glNamedFramebufferDrawBuffer` (0: the default framebuffer).
    pub fn named_framebuffer_draw_buffer(&mut self, framebuffer: GLuint, buf: GLenum) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => self.draw_buffer_of(fb, buf),
            Err(err) => self.error(err),
        }
    }

    /// `glNamedFramebufferDrawBuffers` (0: the default framebuffer).
    pub fn named_framebuffer_draw_buffers(
        &mut self,
        framebuffer: GLuint,
        n: GLsizei,
        bufs: &[GLenum],
    ) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => self.draw_buffers_of(fb, n, bufs),
            Err(err) => self.error(err),
        }
    }

    /// `glNamedFramebufferReadBuffer` (0: the default framebuffer).
    pub fn named_framebuffer_read_buffer(&mut self, framebuffer: GLuint, src: GLenum) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => self.read_buffer_of(fb, src),
            Err(err) => self.error(err),
        }
    }

    /// `glCreateRenderbuffers`: names that are renderbuffer objects at once.
    pub fn create_renderbuffers(&mut self, n: GLsizei, renderbuffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let len = (n as usize).min(renderbuffers.len());
        let out = &mut renderbuffers[..len];
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if sh.names.renderbuffers.generate(out).is_err() {
            return self.local.set_error(OUT_OF_MEMORY);
        }
        for &name in out.iter() {
            create_renderbuffer(&mut sh, name);
        }
    }

    /// The renderbuffer object `renderbuffer` names (`INVALID_OPERATION` for none).
    fn renderbuffer_by_name(&self, renderbuffer: GLuint) -> GlResult<Entity> {
        let sh = self.group.lock();
        sh.names
            .renderbuffers
            .get(renderbuffer)
            .ok_or(INVALID_OPERATION)
    }

    /// `glNamedRenderbufferStorage`.
    pub fn named_renderbuffer_storage(
        &mut self,
        renderbuffer: GLuint,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.named_renderbuffer_storage_multisample(renderbuffer, 0, internalformat, width, height);
    }

    /// `glNamedRenderbufferStorageMultisample`.
    pub fn named_renderbuffer_storage_multisample(
        &mut self,
        renderbuffer: GLuint,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        match self.renderbuffer_by_name(renderbuffer) {
            Ok(rb) => {
                let (f, w, h) = (internalformat, width, height);
                self.renderbuffer_storage_of(Some(rb), RENDERBUFFER, samples, f, w, h);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetNamedRenderbufferParameteriv`.
    pub fn get_named_renderbuffer_parameteriv(
        &mut self,
        renderbuffer: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        match self.renderbuffer_by_name(renderbuffer) {
            Ok(rb) => self.renderbuffer_parameter_of(Some(rb), RENDERBUFFER, pname, params),
            Err(err) => self.error(err),
        }
    }

    /// `glCreateSamplers`: as `glGenSamplers`, which makes the objects already.
    pub fn create_samplers(&mut self, n: GLsizei, samplers: &mut [GLuint]) {
        self.gen_samplers(n, samplers);
    }
}
