//! Framebuffer objects and the default framebuffer: bindings, attachments, completeness,
//! draw and read buffers, and the verbs that clear, blit or read them.
//!
//! Framebuffer objects are container objects, so their names are per context, but their
//! entities live in the share group's `World` next to the textures and renderbuffers they
//! attach. Each attachment holds a counted reference to its image's object
//! (`lifecycle::replace`), so a texture deleted while attached to an unbound framebuffer
//! lives on until the framebuffer lets it go. The draw and read bindings themselves hold no
//! reference: only this context can name the framebuffer, and deleting it unbinds it.
//!
//! Attaching bumps the framebuffer's `generation`; the backend gets the attachments
//! (`SetFramebufferState`) at the next verb that uses the framebuffer, only when its
//! `synced` generation is older, so several attach calls cost one record. Draw buffers
//! travel separately (`SetDrawBuffers`) because they change more often than attachments.
//!
//! The default framebuffer is the context's [`Surface`](crate::Surface): one colour image
//! (GL's `BACK_LEFT`, the buffer of a single-buffered pbuffer, so `FRONT` names nothing) and
//! an optional packed depth-stencil image. A surfaceless context's default framebuffer is
//! `FRAMEBUFFER_UNDEFINED`.
//!
//! Every verb here decides its GL errors before emitting anything; completeness is
//! computed on demand ([`status`]), never assumed from a cache that an image change could
//! have made stale.

mod attach;
mod blit;
mod buffers;
mod clear;
mod defaults;
mod read;
pub(crate) mod status;

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{
    AttachmentGl, DEPTH_ATTACHMENT_INDEX, Framebuffer, Life, STENCIL_ATTACHMENT_INDEX,
};
use tessera_systems::framebuffer::sync_object;
use tessera_systems::lifecycle;
use tessera_wire::format::Format;
use tessera_wire::record::{FramebufferRef, ReadImage, ReadSource, Record};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::context::{Context, Local};
use crate::get::Value;
use crate::share::Shared;

pub(crate) use attach::{TexCall, WhichFramebuffer};
pub(crate) use read::implementation_read_format;

/// Which bindings a framebuffer `target` names: (draw, read). `None` for an invalid target.
pub(crate) fn framebuffer_target(target: GLenum) -> Option<(bool, bool)> {
    match target {
        FRAMEBUFFER => Some((true, true)),
        DRAW_FRAMEBUFFER => Some((true, false)),
        READ_FRAMEBUFFER => Some((false, true)),
        _ => None,
    }
}

impl Local {
    /// The framebuffer bound to a target (`None`: the default framebuffer), or
    /// `INVALID_ENUM` for an invalid target. `FRAMEBUFFER` means the draw binding.
    pub(crate) fn bound_framebuffer(&self, target: GLenum) -> Result<Option<Entity>, GLenum> {
        match framebuffer_target(target) {
            Some((true, _)) => Ok(self.st.draw_framebuffer),
            Some((false, _)) => Ok(self.st.read_framebuffer),
            None => Err(INVALID_ENUM),
        }
    }

    /// `check_framebuffer_status` of a binding (`None`: the default framebuffer).
    pub(crate) fn framebuffer_status(&self, sh: &Shared, fb: Option<Entity>) -> GLenum {
        match fb {
            None if self.surface.is_some() => FRAMEBUFFER_COMPLETE,
            None => FRAMEBUFFER_UNDEFINED,
            Some(e) => sh
                .world
                .get::<Framebuffer>(e)
                .map_or(FRAMEBUFFER_UNDEFINED, |f| {
                    status::object_status(&sh.world, f)
                }),
        }
    }

    /// `check_framebuffer_status` of the bound draw framebuffer.
    pub(crate) fn draw_framebuffer_status(&self, sh: &Shared) -> GLenum {
        self.framebuffer_status(sh, self.st.draw_framebuffer)
    }

    /// `SAMPLES` of a complete framebuffer (0: single-sampled): a framebuffer without
    /// attachments has the samples its `FRAMEBUFFER_DEFAULT_SAMPLES` gets, rounded as an
    /// image's are (`framebuffer::defaults`).
    pub(crate) fn framebuffer_samples(&self, sh: &Shared, fb: Option<Entity>) -> i32 {
        match fb {
            None => self.surface.map_or(0, |s| i32::from(s.desc.samples)),
            Some(e) => sh.world.get::<Framebuffer>(e).map_or(0, |f| {
                status::object_samples(&sh.world, f).unwrap_or(f.defaults.allocated_samples as i32)
            }),
        }
    }

    /// What read verbs (`read_pixels`, `copy_tex_(sub_)image`, `blit_framebuffer`'s source)
    /// read for colour: the `READ_BUFFER` image of the bound read framebuffer, and its
    /// format. The read framebuffer's attachments are sent to the backend first if it has an
    /// older version of them. Errors: `INVALID_FRAMEBUFFER_OPERATION` if the read framebuffer
    /// is incomplete, `INVALID_OPERATION` if its read buffer is `NONE` or names an
    /// attachment point without an image (GL 4.1 §4.3.1; such a framebuffer is complete).
    pub(crate) fn read_source(&self, sh: &mut Shared) -> Result<(ReadSource, Format), GLenum> {
        self.read_image(sh, ReadImage::Color(0))
    }

    /// Like [`read_source`](Self::read_source) for any image: `ReadImage::Color(_)` reads
    /// the read buffer (whatever index is given), `Depth`, `Stencil` and `DepthStencil` the
    /// depth and stencil images. A missing image is `INVALID_OPERATION`.
    pub(crate) fn read_image(
        &self,
        sh: &mut Shared,
        which: ReadImage,
    ) -> Result<(ReadSource, Format), GLenum> {
        let fb = self.st.read_framebuffer;
        if self.framebuffer_status(sh, fb) != FRAMEBUFFER_COMPLETE {
            return Err(INVALID_FRAMEBUFFER_OPERATION);
        }
        let Some(e) = fb else {
            // Complete, so the surface exists.
            let surface = self.surface.ok_or(INVALID_FRAMEBUFFER_OPERATION)?;
            let format = match which {
                ReadImage::Color(_) if self.st.default_read_buffer == NONE => None,
                ReadImage::Color(_) => surface.desc.color,
                ReadImage::Depth => surface.desc.depth_stencil.filter(|f| f.has_depth()),
                ReadImage::Stencil => surface.desc.depth_stencil.filter(|f| f.has_stencil()),
                ReadImage::DepthStencil => surface
                    .desc
                    .depth_stencil
                    .filter(|f| f.has_depth() && f.has_stencil()),
            };
            let image = match which {
                ReadImage::Color(_) => ReadImage::Color(0),
                other => other,
            };
            let source = ReadSource {
                framebuffer: FramebufferRef::Surface(surface.handle),
                image,
            };
            return format.map(|f| (source, f)).ok_or(INVALID_OPERATION);
        };
        let (image, index) = {
            let f = sh.world.get::<Framebuffer>(e).ok_or(INVALID_OPERATION)?;
            match which {
                ReadImage::Color(_) => {
                    let i = f.read_buffer.wrapping_sub(COLOR_ATTACHMENT0) as usize;
                    if f.read_buffer == NONE || i >= MAX_DRAW_BUFFERS {
                        return Err(INVALID_OPERATION);
                    }
                    (ReadImage::Color(i as u8), i)
                }
                ReadImage::Stencil => (ReadImage::Stencil, STENCIL_ATTACHMENT_INDEX),
                other => (other, DEPTH_ATTACHMENT_INDEX),
            }
        };
        let format = {
            let f = sh.world.get::<Framebuffer>(e).ok_or(INVALID_OPERATION)?;
            status::attached_image(&sh.world, &f.attachments[index]).and_then(|i| i.format)
        };
        let format = match image {
            ReadImage::Depth => format.filter(|f| f.has_depth()),
            ReadImage::Stencil => format.filter(|f| f.has_stencil()),
            ReadImage::DepthStencil => format.filter(|f| f.has_depth() && f.has_stencil()),
            ReadImage::Color(_) => format,
        }
        .ok_or(INVALID_OPERATION)?;
        let Shared { world, dev, .. } = sh;
        let framebuffer = sync_object(e, world, dev);
        Ok((ReadSource { framebuffer, image }, format))
    }

    /// Detaches a texture or renderbuffer that is being deleted from the attachment points of
    /// the framebuffers bound to this context (GL 3.3 §4.4.2.3: attachments of unbound
    /// framebuffers keep their reference).
    pub(crate) fn detach_from_bound_framebuffers(&mut self, sh: &mut Shared, entity: Entity) {
        let draw = self.st.draw_framebuffer;
        let read = self.st.read_framebuffer.filter(|r| Some(*r) != draw);
        for fb in [draw, read].into_iter().flatten() {
            let Shared { world, dev, .. } = &mut *sh;
            let mut released = 0;
            if let Some(mut f) = world.get_mut::<Framebuffer>(fb) {
                for a in f.attachments.iter_mut() {
                    if attachment_entity(a) == Some(entity) {
                        *a = AttachmentGl::None;
                        released += 1;
                    }
                }
                if released > 0 {
                    f.generation = f.generation.wrapping_add(1);
                }
            }
            for _ in 0..released {
                lifecycle::release(world, dev, entity);
            }
            if released > 0 && Some(fb) == draw {
                self.dirty |= Dirty::FRAMEBUFFER | Dirty::DRAW_CHECK;
            }
        }
    }

    /// Tells the framebuffer domain that the image of a texture or renderbuffer changed
    /// (storage re-specified): if it is attached to the bound draw framebuffer, the cached
    /// draw-time completeness check is stale.
    pub(crate) fn attachment_image_changed(&mut self, sh: &Shared, entity: Entity) {
        let attached = self
            .st
            .draw_framebuffer
            .and_then(|fb| sh.world.get::<Framebuffer>(fb))
            .is_some_and(|f| {
                f.attachments
                    .iter()
                    .any(|a| attachment_entity(a) == Some(entity))
            });
        if attached {
            self.dirty |= Dirty::DRAW_CHECK;
        }
    }

    /// Gives the reserved name `name` its framebuffer object and wire object (at its first
    /// bind, or at `glCreateFramebuffers`).
    pub(crate) fn create_framebuffer(&mut self, sh: &mut Shared, name: GLuint) -> Entity {
        let handle = sh.dev.alloc.mint();
        sh.dev.push(Record::CreateFramebuffer {
            framebuffer: handle,
        });
        let object = Framebuffer {
            bound_once: true,
            ..Framebuffer::new(handle)
        };
        let e = sh.world.spawn((Life::named(name), object)).id();
        self.framebuffers.bind_object(name, e);
        e
    }

    /// Points the draw and/or read binding at `fb`, creating the object of a name bound for
    /// the first time.
    fn bind_framebuffer(&mut self, sh: &mut Shared, draw: bool, read: bool, name: GLuint) {
        let fb = if name == 0 {
            None
        } else {
            match self.framebuffers.entry(name) {
                NameEntry::Object(e) => Some(e),
                NameEntry::Free => return self.set_error(INVALID_OPERATION),
                NameEntry::Reserved => Some(self.create_framebuffer(sh, name)),
            }
        };
        if draw {
            if self.st.draw_framebuffer != fb {
                self.st.draw_framebuffer = fb;
                self.dirty |= Dirty::FRAMEBUFFER | Dirty::DRAW_BUFFERS;
            }
            // Rebinding is when GL makes another context's changes to attached images
            // visible (appendix D.3), so the completeness check reruns even for the same
            // framebuffer.
            self.dirty |= Dirty::DRAW_CHECK;
        }
        if read {
            self.st.read_framebuffer = fb;
        }
    }
}

/// Whether a colour format stores floating-point channels (as opposed to normalized
/// fixed-point ones).
pub(crate) fn has_float_channels(f: Format) -> bool {
    matches!(
        f,
        Format::R16f
            | Format::Rg16f
            | Format::Rgb16f
            | Format::Rgba16f
            | Format::R32f
            | Format::Rg32f
            | Format::Rgb32f
            | Format::Rgba32f
            | Format::R11fG11fB10f
            | Format::Rgb9E5
    )
}

/// `RGBA_INTEGER_MODE_EXT` (EXT_texture_integer; not in `glcorearb.h`).
pub const RGBA_INTEGER_MODE_EXT: GLenum = 0x8D9E;

/// The object an attachment refers to.
pub(crate) fn attachment_entity(a: &AttachmentGl) -> Option<Entity> {
    match *a {
        AttachmentGl::None => None,
        AttachmentGl::Texture { texture, .. } => Some(texture),
        AttachmentGl::Renderbuffer(rb) => Some(rb),
    }
}

impl Context {
    /// `glGenFramebuffers`.
    pub fn gen_framebuffers(&mut self, n: GLsizei, framebuffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(framebuffers.len());
        if self
            .local
            .framebuffers
            .generate(&mut framebuffers[..n])
            .is_err()
        {
            self.error(OUT_OF_MEMORY);
        }
    }

    /// Generates one framebuffer name.
    pub fn gen_framebuffer(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_framebuffers(1, &mut name);
        name[0]
    }

    /// `glIsFramebuffer`: true once the name was bound (which creates the object).
    pub fn is_framebuffer(&mut self, framebuffer: GLuint) -> GLboolean {
        self.local.framebuffers.get(framebuffer).is_some() as GLboolean
    }

    /// `glBindFramebuffer`.
    pub fn bind_framebuffer(&mut self, target: GLenum, framebuffer: GLuint) {
        let Some((draw, read)) = framebuffer_target(target) else {
            return self.error(INVALID_ENUM);
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        self.local
            .bind_framebuffer(&mut sh, draw, read, framebuffer);
    }

    /// `glDeleteFramebuffers`: a bound framebuffer reverts to the default framebuffer first.
    pub fn delete_framebuffers(&mut self, n: GLsizei, framebuffers: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(framebuffers.len());
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &framebuffers[..n] {
            if name == 0 {
                continue;
            }
            let Some(e) = self.local.framebuffers.free(name) else {
                continue;
            };
            if self.local.st.draw_framebuffer == Some(e) {
                self.local.bind_framebuffer(&mut sh, true, false, 0);
            }
            if self.local.st.read_framebuffer == Some(e) {
                self.local.bind_framebuffer(&mut sh, false, true, 0);
            }
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// `glCheckFramebufferStatus`: 0 (with `INVALID_ENUM`) for an invalid target.
    pub fn check_framebuffer_status(&mut self, target: GLenum) -> GLenum {
        let fb = match self.local.bound_framebuffer(target) {
            Ok(fb) => fb,
            Err(e) => {
                self.error(e);
                return 0;
            }
        };
        let sh = self.group.lock();
        self.local.framebuffer_status(&sh, fb)
    }

    /// Framebuffer state for `glGet*` (`DRAW_BUFFERi`, `READ_BUFFER`, sample counts, the
    /// implementation's preferred read format).
    pub(crate) fn framebuffer_state_value(&self, sh: &Shared, pname: GLenum) -> Option<Value> {
        let l = &self.local;
        let st = &l.st;
        let e = |v: GLenum| Some(Value::int(i64::from(v)));
        let draw_buffer = |i: usize| match st
            .draw_framebuffer
            .and_then(|fb| sh.world.get::<Framebuffer>(fb))
        {
            Some(f) => f.draw_buffers[i],
            None if i == 0 => st.default_draw_buffer,
            None => NONE,
        };
        match pname {
            DRAW_BUFFER => e(draw_buffer(0)),
            p if (DRAW_BUFFER0..DRAW_BUFFER0 + MAX_DRAW_BUFFERS as GLenum).contains(&p) => {
                e(draw_buffer((p - DRAW_BUFFER0) as usize))
            }
            READ_BUFFER => e(
                match st
                    .read_framebuffer
                    .and_then(|fb| sh.world.get::<Framebuffer>(fb))
                {
                    Some(f) => f.read_buffer,
                    None => st.default_read_buffer,
                },
            ),
            // EXT_texture_integer's; Mesa answers it in core contexts too.
            RGBA_INTEGER_MODE_EXT => Some(Value::boolean(l.integer_mode(sh))),
            SAMPLE_BUFFERS | SAMPLES => {
                let fb = st.draw_framebuffer;
                let samples = if l.framebuffer_status(sh, fb) == FRAMEBUFFER_COMPLETE {
                    l.framebuffer_samples(sh, fb)
                } else {
                    0
                };
                Some(Value::int(i64::from(if pname == SAMPLES {
                    samples
                } else {
                    i32::from(samples > 0)
                })))
            }
            IMPLEMENTATION_COLOR_READ_FORMAT | IMPLEMENTATION_COLOR_READ_TYPE => {
                // Without a colour read buffer the query raises INVALID_OPERATION
                // (`framebuffer_query_error`) before it gets here.
                let (format, ty) = l
                    .read_color_format(sh)
                    .map_or((0, 0), implementation_read_format);
                e(if pname == IMPLEMENTATION_COLOR_READ_FORMAT {
                    format
                } else {
                    ty
                })
            }
            _ => None,
        }
    }
}

impl Context {
    /// The error a framebuffer query raises in the current state, if any: GL 4.1+ (and
    /// Mesa in its 3.3 contexts) make `IMPLEMENTATION_COLOR_READ_FORMAT` and `_TYPE`
    /// `INVALID_OPERATION` when the read framebuffer is incomplete or its read buffer is
    /// `NONE` or has no image, as the read verbs are.
    pub(crate) fn framebuffer_query_error(&self, sh: &Shared, pname: GLenum) -> Option<GLenum> {
        match pname {
            IMPLEMENTATION_COLOR_READ_FORMAT | IMPLEMENTATION_COLOR_READ_TYPE
                if self.local.read_color_format(sh).is_none() =>
            {
                Some(INVALID_OPERATION)
            }
            _ => None,
        }
    }
}

impl Local {
    /// The format of the read buffer of a complete read framebuffer, without syncing
    /// anything (for queries).
    fn read_color_format(&self, sh: &Shared) -> Option<Format> {
        self.read_color_format_of(sh, self.st.read_framebuffer)
    }

    /// The format of the read buffer of framebuffer `fb` (`None`: the default one) if it is
    /// complete and its read buffer has an image.
    pub(crate) fn read_color_format_of(&self, sh: &Shared, fb: Option<Entity>) -> Option<Format> {
        if self.framebuffer_status(sh, fb) != FRAMEBUFFER_COMPLETE {
            return None;
        }
        match fb {
            None => self
                .surface
                .filter(|_| self.st.default_read_buffer != NONE)
                .and_then(|s| s.desc.color),
            Some(e) => {
                let f = sh.world.get::<Framebuffer>(e)?;
                let i = f.read_buffer.checked_sub(COLOR_ATTACHMENT0)? as usize;
                if i >= MAX_DRAW_BUFFERS {
                    return None;
                }
                status::attached_image(&sh.world, &f.attachments[i]).and_then(|i| i.format)
            }
        }
    }
}

/// The standard sample positions of 2, 4, 8 and 16 samples (Vulkan's standard locations,
/// which D3D, llvmpipe and the GLES drivers the backends run on use), in pixel units from
/// the pixel's corner.
fn standard_sample_position(samples: i32, index: usize) -> [f32; 2] {
    const TWO: [[f32; 2]; 2] = [[0.75, 0.75], [0.25, 0.25]];
    const FOUR: [[f32; 2]; 4] = [
        [0.375, 0.125],
        [0.875, 0.375],
        [0.125, 0.625],
        [0.625, 0.875],
    ];
    const EIGHT: [[f32; 2]; 8] = [
        [0.5625, 0.3125],
        [0.4375, 0.6875],
        [0.8125, 0.5625],
        [0.3125, 0.1875],
        [0.1875, 0.8125],
        [0.0625, 0.4375],
        [0.6875, 0.9375],
        [0.9375, 0.0625],
    ];
    const SIXTEEN: [[f32; 2]; 16] = [
        [0.5625, 0.5625],
        [0.4375, 0.3125],
        [0.3125, 0.625],
        [0.75, 0.4375],
        [0.1875, 0.375],
        [0.625, 0.8125],
        [0.8125, 0.6875],
        [0.6875, 0.1875],
        [0.375, 0.875],
        [0.5, 0.0625],
        [0.25, 0.125],
        [0.125, 0.75],
        [0.0, 0.5],
        [0.9375, 0.25],
        [0.875, 0.9375],
        [0.0625, 0.0],
    ];
    let table: &[[f32; 2]] = match samples {
        2 => &TWO,
        3 | 4 => &FOUR,
        5..=8 => &EIGHT,
        _ => &SIXTEEN,
    };
    table.get(index).copied().unwrap_or([0.5, 0.5])
}

impl Context {
    /// `glGetMultisamplefv(SAMPLE_POSITION, index)`: the position of sample `index` of the
    /// draw framebuffer. `INVALID_ENUM` for another `pname`, `INVALID_VALUE` for an index
    /// that is not below the framebuffer's `SAMPLES` (so every index of a single-sampled
    /// framebuffer, as in Mesa).
    pub fn get_multisamplefv(&mut self, pname: GLenum, index: GLuint, val: &mut [GLfloat]) {
        if pname != SAMPLE_POSITION {
            return self.error(INVALID_ENUM);
        }
        let samples = {
            let sh = self.group.lock();
            let fb = self.local.st.draw_framebuffer;
            if self.local.framebuffer_status(&sh, fb) == FRAMEBUFFER_COMPLETE {
                self.local.framebuffer_samples(&sh, fb)
            } else {
                0
            }
        };
        if i64::from(index) >= i64::from(samples) {
            return self.error(INVALID_VALUE);
        }
        let p = standard_sample_position(samples, index as usize);
        for (o, v) in val.iter_mut().zip(p) {
            *o = v;
        }
    }
}
