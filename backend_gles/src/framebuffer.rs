//! Framebuffers (`FramebufferPipe`): renderbuffers, surfaces (the default framebuffers, as
//! offscreen FBOs), framebuffer objects, and the verbs that read from them (`ReadPixels`,
//! `CopyTexture`).
//!
//! ## Draw buffers
//! GLES requires draw buffer `i` to be `COLOR_ATTACHMENTi` (or `NONE`); GL lets any draw
//! buffer write any attachment. So the native attachment points of an FBO hold a
//! permutation of its wire attachments: native point `i` holds the attachment draw buffer
//! `i` writes, and an attachment only read from goes to a point no draw buffer uses. What is
//! natively attached where is kept per FBO as [`AttachKey`]s (wire identities, never native
//! names, which GL recycles), so an attachment is re-attached only when it changes. A point
//! left holding an image that no wire attachment names any more (the layer an earlier read
//! used, since replaced) is detached at the next sync: natively it still counts for
//! completeness, and one single layer beside a layered attachment (`glFramebufferTexture`,
//! ES 3.2) makes the framebuffer `INCOMPLETE_LAYER_TARGETS`, so a layered clear or draw
//! would do nothing.
//!
//! ## Reading
//! `ReadPixels` reads in the one layout GLES guarantees for the image's class (RGBA/
//! UNSIGNED_BYTE for normalized colour, RGBA_INTEGER for integers, FLOAT for floats, the
//! `NV_read_*` layouts for depth and stencil) and converts on the CPU. Multisampled sources
//! are resolved into a scratch framebuffer first.
//!
//! ## sRGB
//! Desktop GL converts writes, blending, clears and blits into an sRGB-encoded image only
//! while `FRAMEBUFFER_SRGB` is enabled; ES converts always, unless the driver has
//! `GL_EXT_sRGB_write_control`, whose `FRAMEBUFFER_SRGB_EXT` (enabled in a new ES context)
//! is then set from the raster state at every verb (`command.rs`). Without the extension
//! the switch cannot be turned off: a default framebuffer's sRGB colour image is made
//! `RGBA8` instead, so it stores values as they are (desktop GL's initial state) and a
//! program that enables `FRAMEBUFFER_SRGB` gets no conversion there; framebuffer objects
//! with sRGB attachments keep converting whatever the switch says. Mesa has the extension.

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{Bytes, FramebufferPipe, ImageRef, R, RenderbufferStorage};
use tessera_wire::format::{Format, PixelLayout};
use tessera_wire::handle::{
    FramebufferHandle, Handle, RawHandle, RenderbufferHandle, SurfaceHandle, TextureHandle,
};
use tessera_wire::record::{DRAW_BUFFER_NONE, FramebufferRef, ReadImage, ReadSource, TextureCopy};
use tessera_wire::state::{
    Attachment, FramebufferState, MAX_DRAW_BUFFERS, Rect, Region, SurfaceDesc,
};

use crate::command::{GlesContext, dirty};
use crate::conv;
use crate::device::{GlesPipe, Missing};
use crate::shadow::Cap;

/// A renderbuffer.
pub(crate) struct Renderbuffer {
    pub name: glow::Renderbuffer,
    pub format: Option<Format>,
    pub samples: u8,
}

/// What is attached at one native attachment point, by wire identity (handles are never
/// reused with the same generation, so a stale key can never equal a wanted one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum AttachKey {
    #[default]
    None,
    Texture {
        handle: RawHandle,
        native_gen: u32,
        level: u8,
        layer: u32,
    },
    Renderbuffer(RawHandle),
}

/// A framebuffer object: the wire attachments, and what is natively attached where.
pub(crate) struct Framebuffer {
    pub name: glow::Framebuffer,
    pub state: FramebufferState,
    /// Native colour attachment `i` (a permutation of `state.colors`: GLES requires draw
    /// buffer `i` to be `COLOR_ATTACHMENTi`).
    pub native_colors: [AttachKey; MAX_DRAW_BUFFERS],
    /// Native depth and stencil attachments.
    pub native_depth_stencil: [AttachKey; 2],
    /// The FBO's native `glDrawBuffers` state.
    pub draw_buffers: [u32; MAX_DRAW_BUFFERS],
    /// The FBO's native `glReadBuffer` state.
    pub read_buffer: u32,
}

/// A surface: the images of a default framebuffer, as an offscreen FBO.
pub(crate) struct Surface {
    pub fbo: glow::Framebuffer,
    pub color: Option<glow::Renderbuffer>,
    pub depth_stencil: Option<glow::Renderbuffer>,
    pub desc: SurfaceDesc,
    /// Native draw buffer 0 (`COLOR_ATTACHMENT0` or `NONE`).
    pub draw_buffer: u32,
}

/// A read source bound to `READ_FRAMEBUFFER`, with what is read.
pub(crate) struct ReadInfo {
    /// Format of the read image (colour) or of the depth/stencil attachment.
    format: Option<Format>,
    samples: u8,
}

impl GlesPipe {
    fn renderbuffer_storage(
        &self,
        name: glow::Renderbuffer,
        internal: u32,
        width: u32,
        height: u32,
        samples: u8,
    ) {
        let (w, h) = (
            width.min(self.caps.max_renderbuffer_size) as i32,
            height.min(self.caps.max_renderbuffer_size) as i32,
        );
        let samples = u32::from(samples).min(self.caps.max_samples) as i32;
        // SAFETY: context current; `name` is a live renderbuffer; the format is one
        // conv::map_renderbuffer_format chose as renderable; sizes and samples are clamped
        // to the native maxima.
        unsafe {
            self.gl.bind_renderbuffer(glow::RENDERBUFFER, Some(name));
            if samples > 0 {
                self.gl.renderbuffer_storage_multisample(
                    glow::RENDERBUFFER,
                    samples,
                    internal,
                    w,
                    h,
                );
            } else {
                self.gl
                    .renderbuffer_storage(glow::RENDERBUFFER, internal, w, h);
            }
        }
    }

    /// The key of a wire attachment (its texture's native generation included).
    pub fn attach_key(&self, a: &Attachment) -> AttachKey {
        match *a {
            Attachment::None => AttachKey::None,
            Attachment::Texture {
                texture,
                level,
                layer,
            } => match self.textures.get("", texture) {
                Ok(t) => AttachKey::Texture {
                    handle: texture.raw(),
                    native_gen: t.native_gen,
                    level,
                    layer,
                },
                Err(_) => AttachKey::None,
            },
            Attachment::Renderbuffer(rb) => {
                if self.renderbuffers.live(rb).is_some() {
                    AttachKey::Renderbuffer(rb.raw())
                } else {
                    AttachKey::None
                }
            }
        }
    }

    /// Attaches `a` at `point` of the framebuffer bound to `target`.
    pub fn attach(&mut self, target: u32, point: u32, a: &Attachment) {
        match *a {
            Attachment::None => {
                // SAFETY: context current; a framebuffer is bound to `target` (callers bind
                // first); detaching takes no object.
                unsafe {
                    self.gl
                        .framebuffer_renderbuffer(target, point, glow::RENDERBUFFER, None)
                };
            }
            Attachment::Renderbuffer(rb) => {
                let name = self.renderbuffers.get("", rb).ok().map(|r| r.name);
                // SAFETY: context current; a framebuffer is bound to `target`; `name` is a
                // live renderbuffer (or None: detaches).
                unsafe {
                    self.gl
                        .framebuffer_renderbuffer(target, point, glow::RENDERBUFFER, name)
                };
            }
            Attachment::Texture {
                texture,
                level,
                layer,
            } => {
                let Ok(t) = self.textures.get("", texture) else {
                    // SAFETY: as for Attachment::None.
                    unsafe {
                        self.gl
                            .framebuffer_renderbuffer(target, point, glow::RENDERBUFFER, None)
                    };
                    return;
                };
                let (name, tex_target) = (t.name, t.target);
                let level = i32::from(level);
                if layer == tessera_wire::state::LAYERED && tex_target != glow::TEXTURE_2D {
                    if self.features.geometry {
                        // SAFETY: context current; glFramebufferTexture exists (ES 3.2 or
                        // the geometry extension, resolved under its suffixed name); a
                        // live texture.
                        unsafe {
                            self.gl
                                .framebuffer_texture(target, point, Some(name), level)
                        };
                        return;
                    }
                    self.report(Missing::LayeredAttachment, "layered framebuffer attachments need ES 3.2 or *_geometry_shader; layer 0 is attached instead");
                }
                let layer = if layer == tessera_wire::state::LAYERED {
                    0
                } else {
                    layer
                };
                // SAFETY: context current; a framebuffer is bound to `target`; `name` is a
                // live texture of `tex_target`; cube faces and layers come from the engine's
                // validated attachment (an out-of-range one makes the FBO incomplete, which
                // GL reports at draw time, never undefined behaviour).
                unsafe {
                    match tex_target {
                        glow::TEXTURE_2D | glow::TEXTURE_2D_MULTISAMPLE => self
                            .gl
                            .framebuffer_texture_2d(target, point, tex_target, Some(name), level),
                        glow::TEXTURE_CUBE_MAP => self.gl.framebuffer_texture_2d(
                            target,
                            point,
                            glow::TEXTURE_CUBE_MAP_POSITIVE_X + layer.min(5),
                            Some(name),
                            level,
                        ),
                        _ => self.gl.framebuffer_texture_layer(
                            target,
                            point,
                            Some(name),
                            level,
                            layer as i32,
                        ),
                    }
                }
            }
        }
    }

    /// The format and sample count of an attachment.
    pub(crate) fn attachment_format(&self, a: &Attachment) -> (Option<Format>, u8) {
        match *a {
            Attachment::None => (None, 0),
            Attachment::Texture {
                texture,
                level,
                layer,
            } => match self.textures.get("", texture) {
                Ok(t) => {
                    let face = if t.kind == tessera_wire::format::TextureKind::Cube {
                        layer.min(5) as u8
                    } else {
                        0
                    };
                    match t.image(level, face) {
                        Some(i) => (Some(i.format), i.samples),
                        None => (None, 0),
                    }
                }
                Err(_) => (None, 0),
            },
            Attachment::Renderbuffer(rb) => match self.renderbuffers.get("", rb) {
                Ok(r) => (r.format, r.samples),
                Err(_) => (None, 0),
            },
        }
    }

    /// Attaches what `wanted` names at the native colour points it names (None: keep), and
    /// the depth/stencil attachments, on the FBO bound to `target`.
    fn sync_attachments(
        &mut self,
        record: &'static str,
        handle: FramebufferHandle,
        target: u32,
        wanted: &[Option<Attachment>; MAX_DRAW_BUFFERS],
    ) -> Result<(), SessionError> {
        let fb = self.framebuffers.get(record, handle)?;
        let (state, mut native, mut ds) = (fb.state, fb.native_colors, fb.native_depth_stencil);
        let current = state.colors.map(|a| self.attach_key(&a));
        for (i, want) in wanted.iter().enumerate() {
            match want {
                Some(a) => {
                    let key = self.attach_key(a);
                    if native[i] != key {
                        self.attach(target, conv::color_attachment(i), a);
                        native[i] = key;
                    }
                }
                // A point left holding what no wire attachment names any more (an earlier
                // read of another layer, or an attachment since replaced) still counts for
                // completeness natively: a single layer next to a layered attachment makes
                // the framebuffer incomplete (INCOMPLETE_LAYER_TARGETS), so it goes.
                None if native[i] != AttachKey::None && !current.contains(&native[i]) => {
                    self.attach(target, conv::color_attachment(i), &Attachment::None);
                    native[i] = AttachKey::None;
                }
                None => {}
            }
        }
        let (kd, ks) = (
            self.attach_key(&state.depth),
            self.attach_key(&state.stencil),
        );
        if kd == ks && kd != AttachKey::None {
            if ds != [kd, ks] {
                self.attach(target, glow::DEPTH_STENCIL_ATTACHMENT, &state.depth);
                ds = [kd, ks];
            }
        } else {
            if ds[0] != kd {
                self.attach(target, glow::DEPTH_ATTACHMENT, &state.depth);
                ds[0] = kd;
            }
            if ds[1] != ks {
                self.attach(target, glow::STENCIL_ATTACHMENT, &state.stencil);
                ds[1] = ks;
            }
        }
        let fb = self.framebuffers.get_mut(record, handle)?;
        fb.native_colors = native;
        fb.native_depth_stencil = ds;
        Ok(())
    }

    /// Binds the context's framebuffer for drawing, with its draw buffers. `false`: there is
    /// nothing to draw into (no framebuffer).
    pub(crate) fn sync_draw_framebuffer(
        &mut self,
        record: &'static str,
        ctx: &GlesContext,
    ) -> Result<bool, SessionError> {
        match ctx.desired.framebuffer {
            FramebufferRef::None => {
                self.shadow.bind_draw_framebuffer(&self.gl, None);
                Ok(false)
            }
            FramebufferRef::Surface(h) => {
                // A binding left dangling by a destroy is tolerated: the verb draws nowhere.
                let Ok(s) = self.surfaces.get(record, h) else {
                    return Ok(false);
                };
                let (fbo, current) = (s.fbo, s.draw_buffer);
                let want = if ctx.desired.draw_buffers[0] == DRAW_BUFFER_NONE {
                    glow::NONE
                } else {
                    glow::COLOR_ATTACHMENT0
                };
                self.shadow.bind_draw_framebuffer(&self.gl, Some(fbo));
                if current != want {
                    // SAFETY: context current; the surface's FBO is bound to DRAW_FRAMEBUFFER;
                    // one buffer, COLOR_ATTACHMENT0 or NONE, as ES requires for buffer 0.
                    unsafe { self.gl.draw_buffers(&[want]) };
                    self.surfaces.get_mut(record, h)?.draw_buffer = want;
                }
                Ok(true)
            }
            FramebufferRef::Object(h) => {
                let Ok(fb) = self.framebuffers.get(record, h) else {
                    return Ok(false);
                };
                let (name, state, current) = (fb.name, fb.state, fb.draw_buffers);
                self.shadow.bind_draw_framebuffer(&self.gl, Some(name));
                let mut wanted = [None; MAX_DRAW_BUFFERS];
                let mut buffers = [glow::NONE; MAX_DRAW_BUFFERS];
                let count = self.limits.draw_buffers;
                for (i, &b) in ctx.desired.draw_buffers.iter().enumerate() {
                    if b != DRAW_BUFFER_NONE && usize::from(b) < MAX_DRAW_BUFFERS {
                        if i >= count {
                            self.report(Missing::DrawBufferCount, "more draw buffers than the native MAX_DRAW_BUFFERS: the extra ones are dropped");
                            continue;
                        }
                        wanted[i] = Some(state.colors[usize::from(b)]);
                        buffers[i] = conv::color_attachment(i);
                    }
                }
                self.sync_attachments(record, h, glow::DRAW_FRAMEBUFFER, &wanted)?;
                if current != buffers {
                    let n = buffers
                        .iter()
                        .rposition(|b| *b != glow::NONE)
                        .map_or(1, |p| p + 1);
                    // SAFETY: context current; the FBO is bound to DRAW_FRAMEBUFFER; entry
                    // `i` is COLOR_ATTACHMENTi or NONE (ES's rule), `n` <= MAX_DRAW_BUFFERS.
                    unsafe { self.gl.draw_buffers(&buffers[..n]) };
                    self.framebuffers.get_mut(record, h)?.draw_buffers = buffers;
                }
                Ok(true)
            }
        }
    }

    /// Binds a read source to `READ_FRAMEBUFFER` with the right read buffer. `None`: there is
    /// no such framebuffer.
    pub(crate) fn bind_read_source(
        &mut self,
        record: &'static str,
        src: &ReadSource,
    ) -> Result<Option<ReadInfo>, SessionError> {
        self.disturbed |= dirty::FRAMEBUFFER;
        match src.framebuffer {
            FramebufferRef::None => Ok(None),
            FramebufferRef::Surface(h) => {
                let s = self.surfaces.get(record, h)?;
                let format = match src.image {
                    ReadImage::Color(_) => s.desc.color,
                    _ => s.desc.depth_stencil,
                };
                let info = ReadInfo {
                    format,
                    samples: s.desc.samples,
                };
                let fbo = s.fbo;
                self.shadow.bind_read_framebuffer(&self.gl, Some(fbo));
                Ok(Some(info))
            }
            FramebufferRef::Object(h) => {
                let fb = self.framebuffers.get(record, h)?;
                let (name, state, native, draw) =
                    (fb.name, fb.state, fb.native_colors, fb.draw_buffers);
                self.shadow.bind_read_framebuffer(&self.gl, Some(name));
                let mut wanted = [None; MAX_DRAW_BUFFERS];
                let mut slot = None;
                let attachment = match src.image {
                    ReadImage::Color(j) => {
                        let j = usize::from(j).min(MAX_DRAW_BUFFERS - 1);
                        let a = state.colors[j];
                        let key = self.attach_key(&a);
                        let k = native
                            .iter()
                            .position(|n| *n == key && key != AttachKey::None)
                            .unwrap_or_else(|| {
                                // A native point no draw buffer uses, preferring the wire index.
                                if draw[j] == glow::NONE {
                                    j
                                } else {
                                    (0..MAX_DRAW_BUFFERS)
                                        .find(|&k| draw[k] == glow::NONE)
                                        .unwrap_or(j)
                                }
                            });
                        wanted[k] = Some(a);
                        slot = Some(k);
                        a
                    }
                    ReadImage::Depth | ReadImage::DepthStencil => state.depth,
                    ReadImage::Stencil => state.stencil,
                };
                self.sync_attachments(record, h, glow::READ_FRAMEBUFFER, &wanted)?;
                if let Some(k) = slot {
                    let want = conv::color_attachment(k);
                    if self.framebuffers.get(record, h)?.read_buffer != want {
                        // SAFETY: context current; the FBO is bound to READ_FRAMEBUFFER and
                        // `want` is one of its colour attachment points.
                        unsafe { self.gl.read_buffer(want) };
                        self.framebuffers.get_mut(record, h)?.read_buffer = want;
                    }
                }
                let (format, samples) = self.attachment_format(&attachment);
                Ok(Some(ReadInfo { format, samples }))
            }
        }
    }

    /// For a colour blit from a multisampled source whose format is natively stored wider
    /// than a single-sampled texture of it (`RGB8` multisampled images are `RGBA8`, see
    /// `conv::map_renderbuffer_format`): resolves the source rectangle first, into the
    /// scratch framebuffer now bound to READ_FRAMEBUFFER, and returns the renderbuffer to
    /// delete after the blit. ES resolves only between identical formats (GL's rule too, but
    /// for GL the two are the same format), and the blit from the resolved image converts.
    pub(crate) fn resolve_blit_source(
        &mut self,
        info: &ReadInfo,
        image: ReadImage,
        s: Region,
    ) -> Result<Option<glow::Renderbuffer>, SessionError> {
        let Some(format) = info.format else {
            return Ok(None);
        };
        let widened = conv::map_renderbuffer_format(format, &self.features)
            != conv::map_format(format, &self.features).internal;
        if info.samples == 0 || !widened || !matches!(image, ReadImage::Color(_)) {
            return Ok(None);
        }
        let (x, y) = (s.x0.min(s.x1).max(0), s.y0.min(s.y1).max(0));
        let rect = Rect {
            x,
            y,
            width: s.x0.max(s.x1) - x,
            height: s.y0.max(s.y1) - y,
        };
        self.resolve_read(info, image, rect).map(Some)
    }

    /// Resolves a multisampled read source into a single-sampled image on the scratch
    /// framebuffer (now bound to READ_FRAMEBUFFER), returning the renderbuffer to delete.
    fn resolve_read(
        &mut self,
        info: &ReadInfo,
        image: ReadImage,
        rect: Rect,
    ) -> Result<glow::Renderbuffer, SessionError> {
        let format = info.format.unwrap_or(Format::Rgba8);
        let internal = conv::map_renderbuffer_format(format, &self.features);
        let scratch = self.scratch_framebuffer()?;
        // SAFETY: context current; glGenRenderbuffers has no preconditions.
        let rb = unsafe { self.gl.create_renderbuffer() }.map_err(SessionError::Backend)?;
        // The resolve covers the read rectangle at the same place (ES resolves do not scale).
        let (w, h) = ((rect.x + rect.width).max(1), (rect.y + rect.height).max(1));
        let (point, bit) = match image {
            ReadImage::Color(_) => (glow::COLOR_ATTACHMENT0, glow::COLOR_BUFFER_BIT),
            ReadImage::Depth => (glow::DEPTH_ATTACHMENT, glow::DEPTH_BUFFER_BIT),
            ReadImage::Stencil => (glow::STENCIL_ATTACHMENT, glow::STENCIL_BUFFER_BIT),
            ReadImage::DepthStencil => (
                glow::DEPTH_STENCIL_ATTACHMENT,
                glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT,
            ),
        };
        self.shadow.bind_draw_framebuffer(&self.gl, Some(scratch));
        // A resolve copies the whole rectangle: the program's scissor box and rasterizer
        // discard (which ES applies to blits) must not cut it.
        self.shadow.enable(&self.gl, Cap::ScissorTest, false);
        self.shadow.enable(&self.gl, Cap::RasterizerDiscard, false);
        self.disturbed |= dirty::SCISSOR | dirty::RASTER;
        // SAFETY: context current; the scratch FBO is bound to DRAW_FRAMEBUFFER and gets a
        // fresh single-sampled renderbuffer of the source's format; the multisampled source
        // is bound to READ_FRAMEBUFFER with the right read buffer; same-size regions, as
        // ES requires for a resolve.
        unsafe {
            self.gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
            self.gl
                .renderbuffer_storage(glow::RENDERBUFFER, internal, w, h);
            self.gl.framebuffer_renderbuffer(
                glow::DRAW_FRAMEBUFFER,
                point,
                glow::RENDERBUFFER,
                Some(rb),
            );
            if point == glow::COLOR_ATTACHMENT0 {
                self.gl.draw_buffers(&[glow::COLOR_ATTACHMENT0]);
            }
            self.gl
                .blit_framebuffer(0, 0, w, h, 0, 0, w, h, bit, glow::NEAREST);
            self.gl.framebuffer_renderbuffer(
                glow::DRAW_FRAMEBUFFER,
                point,
                glow::RENDERBUFFER,
                None,
            );
        }
        self.shadow.bind_read_framebuffer(&self.gl, Some(scratch));
        // SAFETY: context current; the scratch FBO is bound to READ_FRAMEBUFFER; attach the
        // resolved renderbuffer at the read point (colour reads use COLOR_ATTACHMENT0, the
        // scratch FBO's default read buffer).
        unsafe {
            self.gl.framebuffer_renderbuffer(
                glow::READ_FRAMEBUFFER,
                point,
                glow::RENDERBUFFER,
                Some(rb),
            )
        };
        self.disturbed |= dirty::FRAMEBUFFER;
        Ok(rb)
    }
}

impl FramebufferPipe for GlesPipe {
    /// `CreateSurface`: an FBO with a colour and a depth/stencil renderbuffer.
    fn create_surface(&mut self, handle: SurfaceHandle, desc: SurfaceDesc) -> R {
        const N: &str = "CreateSurface";
        let e = |e| Self::native_error(N, e);
        // SAFETY: context current; glGen* have no preconditions.
        let fbo = unsafe { self.gl.create_framebuffer() }.map_err(e)?;
        let mut color = None;
        let mut depth_stencil = None;
        if let Some(format) = desc.color {
            // SAFETY: as above.
            let rb = unsafe { self.gl.create_renderbuffer() }.map_err(e)?;
            let internal = if format.info().srgb && !self.features.srgb_write_control {
                // Writes would convert whatever FRAMEBUFFER_SRGB says (module docs).
                glow::RGBA8
            } else {
                conv::map_renderbuffer_format(format, &self.features)
            };
            self.renderbuffer_storage(rb, internal, desc.width, desc.height, desc.samples);
            color = Some(rb);
        }
        if let Some(format) = desc.depth_stencil {
            // SAFETY: as above.
            let rb = unsafe { self.gl.create_renderbuffer() }.map_err(e)?;
            let internal = conv::map_renderbuffer_format(format, &self.features);
            self.renderbuffer_storage(rb, internal, desc.width, desc.height, desc.samples);
            depth_stencil = Some((rb, format));
        }
        self.shadow.bind_draw_framebuffer(&self.gl, Some(fbo));
        self.disturbed |= dirty::FRAMEBUFFER;
        // SAFETY: context current; `fbo` is bound to DRAW_FRAMEBUFFER; the renderbuffers are
        // live and have storage.
        unsafe {
            if let Some(rb) = color {
                self.gl.framebuffer_renderbuffer(
                    glow::DRAW_FRAMEBUFFER,
                    glow::COLOR_ATTACHMENT0,
                    glow::RENDERBUFFER,
                    Some(rb),
                );
            }
            if let Some((rb, format)) = depth_stencil {
                let point = match (format.has_depth(), format.has_stencil()) {
                    (true, true) => glow::DEPTH_STENCIL_ATTACHMENT,
                    (true, false) => glow::DEPTH_ATTACHMENT,
                    _ => glow::STENCIL_ATTACHMENT,
                };
                self.gl.framebuffer_renderbuffer(
                    glow::DRAW_FRAMEBUFFER,
                    point,
                    glow::RENDERBUFFER,
                    Some(rb),
                );
            }
        }
        let surface = Surface {
            fbo,
            color,
            depth_stencil: depth_stencil.map(|d| d.0),
            desc,
            draw_buffer: glow::COLOR_ATTACHMENT0,
        };
        self.surfaces.insert(N, handle, surface)
    }

    /// `DestroySurface`.
    fn destroy_surface(&mut self, handle: SurfaceHandle) -> R {
        let s = self.surfaces.remove("DestroySurface", handle)?;
        self.shadow.delete_framebuffer(&self.gl, s.fbo);
        for rb in [s.color, s.depth_stencil].into_iter().flatten() {
            // SAFETY: context current; the surface's own renderbuffers, each deleted once.
            unsafe { self.gl.delete_renderbuffer(rb) };
        }
        Ok(())
    }

    /// `CreateFramebuffer`.
    fn create_framebuffer(&mut self, handle: FramebufferHandle) -> R {
        const N: &str = "CreateFramebuffer";
        // SAFETY: context current; glGenFramebuffers has no preconditions.
        let name = unsafe { self.gl.create_framebuffer() }.map_err(|e| Self::native_error(N, e))?;
        let mut draw_buffers = [glow::NONE; MAX_DRAW_BUFFERS];
        draw_buffers[0] = glow::COLOR_ATTACHMENT0;
        self.framebuffers.insert(
            N,
            handle,
            Framebuffer {
                name,
                state: FramebufferState::default(),
                native_colors: [AttachKey::None; MAX_DRAW_BUFFERS],
                native_depth_stencil: [AttachKey::None; 2],
                draw_buffers,
                read_buffer: glow::COLOR_ATTACHMENT0,
            },
        )
    }

    /// `SetFramebufferState`: stores the attachments (the dispatcher checked them); they are
    /// attached natively when the framebuffer is next used.
    fn set_framebuffer_state(&mut self, handle: FramebufferHandle, state: FramebufferState) -> R {
        const N: &str = "SetFramebufferState";
        let fb = self.framebuffers.get_mut(N, handle)?;
        let (name, old) = (fb.name, std::mem::replace(&mut fb.state, state).defaults);
        self.disturbed |= dirty::FRAMEBUFFER;
        let d = state.defaults;
        if d != old {
            // ES 3.1's default size of a framebuffer without attachments; ES has
            // FRAMEBUFFER_DEFAULT_LAYERS only with geometry shaders (ES 3.2).
            let Some(f) = self.extra.framebuffer_parameteri else {
                self.report(
                    Missing::FramebufferDefaults,
                    "framebuffers without attachments need ES 3.1's glFramebufferParameteri",
                );
                return Ok(());
            };
            self.shadow.bind_draw_framebuffer(&self.gl, Some(name));
            let mut values = vec![
                (glow::FRAMEBUFFER_DEFAULT_WIDTH, d.width),
                (glow::FRAMEBUFFER_DEFAULT_HEIGHT, d.height),
                (glow::FRAMEBUFFER_DEFAULT_SAMPLES, u32::from(d.samples)),
            ];
            if self.features.minor >= 2 {
                values.push((glow::FRAMEBUFFER_DEFAULT_LAYERS, d.layers));
            }
            let max = self.caps.max_renderbuffer_size;
            for (pname, v) in values {
                // SAFETY: context current; the FBO is bound to DRAW_FRAMEBUFFER; sizes within
                // the driver's renderbuffer size (MAX_FRAMEBUFFER_* is at least that), the
                // samples a count the driver reported.
                unsafe { f(glow::DRAW_FRAMEBUFFER, pname, v.min(max) as i32) };
            }
        }
        Ok(())
    }

    /// `DestroyFramebuffer`.
    fn destroy_framebuffer(&mut self, handle: FramebufferHandle) -> R {
        let fb = self.framebuffers.remove("DestroyFramebuffer", handle)?;
        self.shadow.delete_framebuffer(&self.gl, fb.name);
        Ok(())
    }

    /// `CreateRenderbuffer`.
    fn create_renderbuffer(&mut self, handle: RenderbufferHandle) -> R {
        const N: &str = "CreateRenderbuffer";
        // SAFETY: context current; glGenRenderbuffers has no preconditions.
        let name =
            unsafe { self.gl.create_renderbuffer() }.map_err(|e| Self::native_error(N, e))?;
        self.renderbuffers.insert(
            N,
            handle,
            Renderbuffer {
                name,
                format: None,
                samples: 0,
            },
        )
    }

    /// `DefineRenderbuffer`.
    fn define_renderbuffer(&mut self, handle: RenderbufferHandle, s: RenderbufferStorage) -> R {
        let (format, width, height, samples) = (s.format, s.width, s.height, s.samples);
        let internal = conv::map_renderbuffer_format(format, &self.features);
        let rb = self.renderbuffers.get_mut("DefineRenderbuffer", handle)?;
        rb.format = Some(format);
        rb.samples = samples;
        let name = rb.name;
        self.renderbuffer_storage(name, internal, width, height, samples);
        Ok(())
    }

    /// `DestroyRenderbuffer`.
    fn destroy_renderbuffer(&mut self, handle: RenderbufferHandle) -> R {
        let rb = self.renderbuffers.remove("DestroyRenderbuffer", handle)?;
        // SAFETY: context current; a live renderbuffer, deleted once.
        unsafe { self.gl.delete_renderbuffer(rb.name) };
        Ok(())
    }

    /// `ReadPixels`: reads in the layout GLES can give, then converts on the CPU.
    fn read_pixels(&mut self, src: ReadSource, rect: Rect, layout: PixelLayout) -> Bytes {
        const N: &str = "ReadPixels";
        use tessera_wire::format::{PixelFormat, PixelType};
        let (w, h) = (rect.width.max(0) as usize, rect.height.max(0) as usize);
        let count = w * h;
        let size = crate::device::readback_size(count, layout)
            .ok_or_else(|| bad_value(N, format!("a {w}x{h} read-back is too large")))?;
        if count == 0 {
            return Ok(Vec::new());
        }
        let Some(info) = self.bind_read_source(N, &src)? else {
            return Ok(vec![0; size]);
        };
        let native = match src.image {
            ReadImage::Color(_) => info.format.map_or(
                PixelLayout {
                    format: PixelFormat::Rgba,
                    ty: PixelType::U8,
                },
                |f| conv::map_read_layout(f, &self.features),
            ),
            ReadImage::Depth if self.features.read_depth => {
                conv::map_depth_read_layout(info.format, false)
            }
            ReadImage::Stencil if self.features.read_stencil => PixelLayout {
                format: PixelFormat::StencilIndex,
                ty: PixelType::U8,
            },
            ReadImage::DepthStencil if self.features.read_depth_stencil => {
                conv::map_depth_read_layout(info.format, true)
            }
            _ => {
                self.report(Missing::ReadDepthStencil, "reading depth or stencil needs NV_read_depth/_stencil/_depth_stencil: zeros instead");
                return Ok(vec![0; size]);
            }
        };
        let resolved = if info.samples > 0 {
            Some(self.resolve_read(&info, src.image, rect)?)
        } else {
            None
        };
        let raw_size = crate::device::readback_size(count, native)
            .ok_or_else(|| bad_value(N, format!("a {w}x{h} read-back is too large")))?;
        let mut raw = vec![0u8; raw_size];
        // SAFETY: context current; the source is bound to READ_FRAMEBUFFER with its read
        // buffer; (format, type) is the combination ES guarantees for the image's class (or
        // the NV_read_* one, checked); PACK_ALIGNMENT is 1, no pack buffer is bound, and
        // `raw` holds exactly w*h pixels of that layout.
        unsafe {
            self.gl.read_pixels(
                rect.x,
                rect.y,
                rect.width,
                rect.height,
                conv::map_pixel_format(native.format),
                conv::map_pixel_type(native.ty),
                glow::PixelPackData::Slice(Some(&mut raw)),
            );
        }
        if let Some(rb) = resolved {
            // SAFETY: context current; the temporary renderbuffer, deleted once (GL detaches
            // it from the bound scratch framebuffer).
            unsafe { self.gl.delete_renderbuffer(rb) };
        }
        crate::pixel::convert_owned(native, layout, raw, count)
            .ok_or_else(|| bad_value(N, "read-back conversion failed"))
    }

    /// `CopyTexture`: copies a framebuffer rectangle into one image.
    fn copy_texture(&mut self, texture: TextureHandle, at: ImageRef, region: TextureCopy) -> R {
        const N: &str = "CopyTexture";
        use tessera_wire::format::TextureKind;
        let (ImageRef { level, face }, TextureCopy { src, origin, rect }) = (at, region);
        let t = self.textures.get(N, texture)?;
        let (name, target, kind) = (t.name, t.target, t.kind);
        if self.bind_read_source(N, &src)?.is_none() || rect.width <= 0 || rect.height <= 0 {
            return Ok(());
        }
        let unit = self.scratch_unit();
        self.shadow.bind_texture(&self.gl, unit, target, Some(name));
        self.disturbed |= dirty::TEXTURES;
        let level = i32::from(level);
        let [x, y, z] = origin.map(|v| v as i32);
        let gl = &self.gl;
        // SAFETY: context current; the texture is bound to its target on the active unit;
        // the read framebuffer is bound with its read buffer; a region outside the image
        // or an incompatible format is a GL error, not UB.
        unsafe {
            // One copy into `image_target` at (dx, dy) (and layer or slice `z` of a layered
            // target) from the rectangle (sx, sy, w, h) of the read framebuffer.
            let copy = |image_target,
                        z: Option<i32>,
                        [dx, dy]: [i32; 2],
                        [sx, sy, w, h]: [i32; 4]| {
                match z {
                    Some(z) => {
                        gl.copy_tex_sub_image_3d(image_target, level, dx, dy, z, sx, sy, w, h)
                    }
                    None => gl.copy_tex_sub_image_2d(image_target, level, dx, dy, sx, sy, w, h),
                }
            };
            let (sx, sy, w, h) = (rect.x, rect.y, rect.width, rect.height);
            match kind {
                TextureKind::D1 => copy(target, None, [x, 0], [sx, sy, w, 1]),
                TextureKind::D1Array => {
                    for row in 0..h {
                        copy(target, Some(y + row), [x, 0], [sx, sy + row, w, 1]);
                    }
                }
                TextureKind::Cube => {
                    let face_target = glow::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face);
                    copy(face_target, None, [x, y], [sx, sy, w, h]);
                }
                _ if conv::is_layered(target) => {
                    copy(target, Some(z), [x, y], [sx, sy, w, h]);
                }
                _ if target == glow::TEXTURE_2D => copy(target, None, [x, y], [sx, sy, w, h]),
                _ => {}
            }
        }
        Ok(())
    }
}
