//! Framebuffers, renderbuffers and samplers by name: `glCreateFramebuffers`,
//! `glNamedFramebuffer*`, `glCheckNamedFramebufferStatus`,
//! `glGetNamedFramebufferAttachmentParameteriv`, `glCreateRenderbuffers`,
//! `glNamedRenderbufferStorage*`, `glGetNamedRenderbufferParameteriv` and
//! `glCreateSamplers`, each the body of its bound form on the named object
//! (`framebuffer::WhichFramebuffer`, the renderbuffer calls' `*_of`).
//!
//! `glClearNamedFramebuffer*` and `glBlitNamedFramebuffer` run the bound forms' bodies with
//! the draw (and read) binding pointed at the named framebuffers for the call and pointed
//! back after it (`Context::with_framebuffers`): a clear and a blit are verbs whose bodies
//! validate and emit the bound framebuffers' state, so the named object is bound for the
//! verb's records as `glBindFramebuffer` would bind it, and the next verb binds back. The
//! names are found as Mesa finds them: a clear binds its name the way `glBindFramebuffer`
//! does (0 is the default framebuffer, a name `glGenFramebuffers` returned becomes its
//! object, any other is `INVALID_OPERATION`), a blit looks both up (0 the default
//! framebuffer, anything but an object `INVALID_OPERATION`).

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;

use crate::context::{Context, GlResult};
use crate::framebuffer::{TexCall, WhichFramebuffer, framebuffer_target};
use crate::renderbuffer::{StorageOf, create_renderbuffer};

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
                let rb = StorageOf::Named(rb);
                self.renderbuffer_storage_of(rb, RENDERBUFFER, samples, f, w, h);
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

    /// The framebuffer a named clear binds for its body: 0 the default framebuffer, a name
    /// `glGenFramebuffers` returned made an object (as `glBindFramebuffer` makes it), any
    /// other name `INVALID_OPERATION`.
    fn framebuffer_to_bind(&mut self, framebuffer: GLuint) -> GlResult<Option<Entity>> {
        if framebuffer == 0 {
            return Ok(None);
        }
        match self.local.framebuffers.entry(framebuffer) {
            NameEntry::Object(e) => Ok(Some(e)),
            NameEntry::Free => Err(INVALID_OPERATION),
            NameEntry::Reserved => {
                let group = self.group.clone();
                let mut sh = group.lock_for(self.local.id);
                Ok(Some(self.local.create_framebuffer(&mut sh, framebuffer)))
            }
        }
    }

    /// Points the draw and read bindings at `draw` and `read` (`None`: the default
    /// framebuffer), with the dirty bits `glBindFramebuffer` sets.
    fn point_framebuffers(&mut self, draw: Option<Entity>, read: Option<Entity>) {
        if self.local.st.draw_framebuffer != draw {
            self.local.st.draw_framebuffer = draw;
            self.local.dirty |= Dirty::FRAMEBUFFER | Dirty::DRAW_BUFFERS | Dirty::DRAW_CHECK;
        }
        self.local.st.read_framebuffer = read;
    }

    /// Runs `body` (a bound verb's) with the draw binding at `draw` and the read binding at
    /// `read`, then points them back at what was bound.
    fn with_framebuffers(
        &mut self,
        draw: Option<Entity>,
        read: Option<Entity>,
        body: impl FnOnce(&mut Self),
    ) {
        let (old_draw, old_read) = (
            self.local.st.draw_framebuffer,
            self.local.st.read_framebuffer,
        );
        self.point_framebuffers(draw, read);
        body(self);
        self.point_framebuffers(old_draw, old_read);
    }

    /// Runs a clear's body on the framebuffer `framebuffer` names (bound for the draw only).
    fn clear_named(&mut self, framebuffer: GLuint, body: impl FnOnce(&mut Self)) {
        match self.framebuffer_to_bind(framebuffer) {
            Ok(fb) => {
                let read = self.local.st.read_framebuffer;
                self.with_framebuffers(fb, read, body);
            }
            Err(err) => self.error(err),
        }
    }

    /// `glClearNamedFramebufferiv`.
    pub fn clear_named_framebufferiv(
        &mut self,
        framebuffer: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: &[GLint],
    ) {
        self.clear_named(framebuffer, |c| c.clear_bufferiv(buffer, drawbuffer, value));
    }

    /// `glClearNamedFramebufferuiv`.
    pub fn clear_named_framebufferuiv(
        &mut self,
        framebuffer: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: &[GLuint],
    ) {
        self.clear_named(framebuffer, |c| {
            c.clear_bufferuiv(buffer, drawbuffer, value)
        });
    }

    /// `glClearNamedFramebufferfv`.
    pub fn clear_named_framebufferfv(
        &mut self,
        framebuffer: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        value: &[GLfloat],
    ) {
        self.clear_named(framebuffer, |c| c.clear_bufferfv(buffer, drawbuffer, value));
    }

    /// `glClearNamedFramebufferfi`.
    pub fn clear_named_framebufferfi(
        &mut self,
        framebuffer: GLuint,
        buffer: GLenum,
        drawbuffer: GLint,
        depth: GLfloat,
        stencil: GLint,
    ) {
        self.clear_named(framebuffer, |c| {
            c.clear_bufferfi(buffer, drawbuffer, depth, stencil)
        });
    }

    /// `glBlitNamedFramebuffer`: the read framebuffer's name is checked first, then the
    /// draw framebuffer's (0: the default framebuffer).
    pub fn blit_named_framebuffer(
        &mut self,
        read_framebuffer: GLuint,
        draw_framebuffer: GLuint,
        src: [GLint; 4],
        dst: [GLint; 4],
        mask: GLbitfield,
        filter: GLenum,
    ) {
        let read = match self.framebuffer_or_default(read_framebuffer) {
            Ok(fb) => fb,
            Err(err) => return self.error(err),
        };
        let draw = match self.framebuffer_or_default(draw_framebuffer) {
            Ok(fb) => fb,
            Err(err) => return self.error(err),
        };
        self.with_framebuffers(draw, read, |c| {
            let ([sx0, sy0, sx1, sy1], [dx0, dy0, dx1, dy1]) = (src, dst);
            c.blit_framebuffer(sx0, sy0, sx1, sy1, dx0, dy0, dx1, dy1, mask, filter)
        });
    }

    /// `glInvalidateNamedFramebufferData` (0: the default framebuffer): the checks of
    /// `glInvalidateFramebuffer` (Tessera keeps invalidated contents: see `invalidate`).
    pub fn invalidate_named_framebuffer_data(
        &mut self,
        framebuffer: GLuint,
        count: GLsizei,
        attachments: &[GLenum],
    ) {
        self.invalidate_named_framebuffer_sub_data(framebuffer, count, attachments, 0, 0, 0, 0);
    }

    /// `glInvalidateNamedFramebufferSubData` (0: the default framebuffer).
    #[expect(clippy::too_many_arguments, reason = "GL's signature")]
    pub fn invalidate_named_framebuffer_sub_data(
        &mut self,
        framebuffer: GLuint,
        count: GLsizei,
        attachments: &[GLenum],
        _x: GLint,
        _y: GLint,
        width: GLsizei,
        height: GLsizei,
    ) {
        let checked = self.framebuffer_or_default(framebuffer).and_then(|fb| {
            let r = WhichFramebuffer::Named(fb);
            self.invalidate_framebuffer_checks(r, count, attachments, width, height)
        });
        if let Err(err) = checked {
            self.error(err);
        }
    }

    /// `glNamedFramebufferParameteri` (0: the default framebuffer, which takes none of the
    /// parameters: `INVALID_OPERATION` after the pname's check).
    pub fn named_framebuffer_parameteri(
        &mut self,
        framebuffer: GLuint,
        pname: GLenum,
        param: GLint,
    ) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => self.framebuffer_parameteri_of(fb, pname, param),
            Err(err) => self.error(err),
        }
    }

    /// `glGetNamedFramebufferParameteriv` (0: the default framebuffer).
    pub fn get_named_framebuffer_parameteriv(
        &mut self,
        framebuffer: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        match self.framebuffer_or_default(framebuffer) {
            Ok(fb) => self.get_framebuffer_parameteriv_of(fb, pname, params),
            Err(err) => self.error(err),
        }
    }
}
