//! Renderbuffer objects: names, the binding, storage and parameter queries.
//!
//! Renderbuffers are shared objects (names in the share group). The binding holds a
//! counted reference, as do framebuffer attachments, so a deleted renderbuffer lives until
//! the last unbound framebuffer lets it go. Storage is (re)defined with one
//! `DefineRenderbuffer` record at the call; its contents are undefined until rendered.
//!
//! Sample counts are rounded up to what every backend offers: 0 stays single-sampled, any
//! other count becomes the next power of two, at least 4 (Vulkan guarantees 1 and 4, GL
//! requires 4; llvmpipe allocates 4 for every count from 1 to 4 too).

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Life, Renderbuffer};
use tessera_systems::conv::map_sized_format;
use tessera_systems::lifecycle;
use tessera_wire::format::{Format, FormatClass};
use tessera_wire::record::Record;

use crate::context::{Context, GlResult};
use crate::share::Shared;

/// The storage format of a renderbuffer internal format: a sized format that is colour-,
/// depth- or stencil-renderable (GL 3.3 §4.4.2.1), or one of the base formats GL 3.3
/// calls renderable, sized as Mesa sizes them. `None` is `INVALID_ENUM`.
pub(crate) fn renderbuffer_format(internal: GLenum) -> Option<Format> {
    let base = match internal {
        RED => Some(Format::R8),
        RG => Some(Format::Rg8),
        RGB => Some(Format::Rgb8),
        RGBA => Some(Format::Rgba8),
        DEPTH_COMPONENT => Some(Format::Depth24),
        DEPTH_STENCIL => Some(Format::Depth24Stencil8),
        STENCIL_INDEX => Some(Format::Stencil8),
        _ => None,
    };
    base.or_else(|| {
        map_sized_format(internal).filter(|f| {
            let info = f.info();
            !info.compressed
                && (info.color_renderable || info.depth_bits > 0 || info.stencil_bits > 0)
        })
    })
}

/// The renderbuffer a storage call defines.
#[derive(Clone, Copy, Debug)]
pub(crate) enum StorageOf {
    /// The bound one (`None`: `INVALID_OPERATION` after the target's check); GL 3.3's
    /// errors (more samples than `MAX_SAMPLES` is `INVALID_VALUE`).
    Bound(Option<bevy_ecs::entity::Entity>),
    /// One a GL 4.5 named call names; GL 4.5's errors (too many samples is
    /// `INVALID_OPERATION`, as Mesa raises it for both forms).
    Named(bevy_ecs::entity::Entity),
}

impl Context {
    /// `glGenRenderbuffers`.
    pub fn gen_renderbuffers(&mut self, n: GLsizei, renderbuffers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(renderbuffers.len());
        let mut sh = self.group.lock();
        if sh
            .names
            .renderbuffers
            .generate(&mut renderbuffers[..n])
            .is_err()
        {
            self.local.set_error(OUT_OF_MEMORY);
        }
    }

    /// Generates one renderbuffer name.
    pub fn gen_renderbuffer(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_renderbuffers(1, &mut name);
        name[0]
    }

    /// `glIsRenderbuffer`: true once the name was bound (which creates the object).
    pub fn is_renderbuffer(&mut self, renderbuffer: GLuint) -> GLboolean {
        let sh = self.group.lock();
        sh.names.renderbuffers.get(renderbuffer).is_some() as GLboolean
    }

    /// `glBindRenderbuffer`.
    pub fn bind_renderbuffer(&mut self, target: GLenum, renderbuffer: GLuint) {
        if target != RENDERBUFFER {
            return self.error(INVALID_ENUM);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let new = if renderbuffer == 0 {
            None
        } else {
            match sh.names.renderbuffers.entry(renderbuffer) {
                NameEntry::Object(e) => Some(e),
                NameEntry::Free => return self.error(INVALID_OPERATION),
                NameEntry::Reserved => Some(create_renderbuffer(&mut sh, renderbuffer)),
            }
        };
        let old = std::mem::replace(&mut self.local.st.renderbuffer, new);
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::replace(world, dev, old, new);
    }

    /// `glDeleteRenderbuffers`: unbinds it from this context and detaches it from the
    /// framebuffers bound here; other attachments keep it alive.
    pub fn delete_renderbuffers(&mut self, n: GLsizei, renderbuffers: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(renderbuffers.len());
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &renderbuffers[..n] {
            if name == 0 {
                continue;
            }
            let Some(e) = sh.names.renderbuffers.get(name) else {
                sh.names.renderbuffers.free(name);
                continue;
            };
            if self.local.st.renderbuffer == Some(e) {
                self.local.st.renderbuffer = None;
                let Shared { world, dev, .. } = &mut *sh;
                lifecycle::release(world, dev, e);
            }
            self.local.detach_from_bound_framebuffers(&mut sh, e);
            sh.names.renderbuffers.free(name);
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// `glRenderbufferStorage`.
    pub fn renderbuffer_storage(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        self.renderbuffer_storage_multisample(target, 0, internalformat, width, height);
    }

    /// `glRenderbufferStorageMultisample`.
    pub fn renderbuffer_storage_multisample(
        &mut self,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        let bound = StorageOf::Bound(self.local.st.renderbuffer);
        self.renderbuffer_storage_of(bound, target, samples, internalformat, width, height);
    }

    /// Storage for `rb` (the bound renderbuffer, or the one a named call names).
    pub(crate) fn renderbuffer_storage_of(
        &mut self,
        rb: StorageOf,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let checked = self.check_storage(rb, target, samples, internalformat, width, height);
        let (e, format) = match checked {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        let samples = self.local.limits.allocated_samples(samples) as u32;
        let Some(mut rb) = sh.world.get_mut::<Renderbuffer>(e) else {
            return;
        };
        rb.internal_format = internalformat;
        rb.format = Some(format);
        rb.width = width;
        rb.height = height;
        rb.samples = samples as i32;
        rb.generation = rb.generation.wrapping_add(1);
        let renderbuffer = rb.handle;
        sh.dev.push(Record::DefineRenderbuffer {
            renderbuffer,
            format,
            width: width as u32,
            height: height as u32,
            samples: samples.min(u32::from(u8::MAX)) as u8,
        });
        self.local.attachment_image_changed(&sh, e);
        sh.flush_if_full();
    }

    /// The errors of renderbuffer storage, in Mesa's order: target, binding, format, sizes.
    /// Returns the bound renderbuffer and the storage format.
    fn check_storage(
        &self,
        rb: StorageOf,
        target: GLenum,
        samples: GLsizei,
        internalformat: GLenum,
        width: GLsizei,
        height: GLsizei,
    ) -> GlResult<(bevy_ecs::entity::Entity, Format)> {
        if target != RENDERBUFFER {
            return Err(INVALID_ENUM);
        }
        let (e, too_many_samples) = match rb {
            StorageOf::Bound(rb) => (rb.ok_or(INVALID_OPERATION)?, INVALID_VALUE),
            StorageOf::Named(rb) => (rb, INVALID_OPERATION),
        };
        let format = renderbuffer_format(internalformat).ok_or(INVALID_ENUM)?;
        let l = &self.local.limits;
        let max = l.max_renderbuffer_size;
        if !(0..=max).contains(&width) || !(0..=max).contains(&height) {
            return Err(INVALID_VALUE);
        }
        // GL 3.3 §4.4.2.1: more samples than MAX_SAMPLES is INVALID_VALUE (Mesa 22, on 4.5
        // rules, raises INVALID_OPERATION, which the GL 4.5 named form raises too).
        if samples < 0 {
            return Err(INVALID_VALUE);
        }
        if samples > l.max_samples {
            return Err(too_many_samples);
        }
        // MAX_INTEGER_SAMPLES equals MAX_SAMPLES here, but the rule is GL's.
        let integer = matches!(format.info().class, FormatClass::Int | FormatClass::Uint);
        if integer && samples > l.max_samples {
            return Err(INVALID_OPERATION);
        }
        Ok((e, format))
    }

    /// `glGetRenderbufferParameteriv`.
    pub fn get_renderbuffer_parameteriv(
        &mut self,
        target: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let bound = self.local.st.renderbuffer;
        self.renderbuffer_parameter_of(bound, target, pname, params);
    }

    /// `glGetRenderbufferParameteriv` of `rb` (the bound renderbuffer, or the one a named
    /// call names).
    pub(crate) fn renderbuffer_parameter_of(
        &mut self,
        rb: Option<bevy_ecs::entity::Entity>,
        target: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let result = {
            let sh = self.group.lock();
            self.renderbuffer_parameter(&sh, rb, target, pname)
        };
        match result {
            Ok(v) => {
                if let Some(p) = params.first_mut() {
                    *p = v;
                }
            }
            Err(e) => self.error(e),
        }
    }

    fn renderbuffer_parameter(
        &self,
        sh: &Shared,
        rb: Option<bevy_ecs::entity::Entity>,
        target: GLenum,
        pname: GLenum,
    ) -> GlResult<GLint> {
        if target != RENDERBUFFER {
            return Err(INVALID_ENUM);
        }
        let e = rb.ok_or(INVALID_OPERATION)?;
        let rb = sh.world.get::<Renderbuffer>(e).ok_or(INVALID_OPERATION)?;
        let info = rb.format.map(Format::info);
        let bits = |f: fn(&tessera_wire::format::FormatInfo) -> u8| {
            Ok(info.as_ref().map_or(0, |i| GLint::from(f(i))))
        };
        match pname {
            RENDERBUFFER_WIDTH => Ok(rb.width),
            RENDERBUFFER_HEIGHT => Ok(rb.height),
            RENDERBUFFER_INTERNAL_FORMAT => Ok(rb.internal_format as GLint),
            RENDERBUFFER_SAMPLES => Ok(rb.samples),
            RENDERBUFFER_RED_SIZE => bits(|i| i.rgba_bits[0]),
            RENDERBUFFER_GREEN_SIZE => bits(|i| i.rgba_bits[1]),
            RENDERBUFFER_BLUE_SIZE => bits(|i| i.rgba_bits[2]),
            RENDERBUFFER_ALPHA_SIZE => bits(|i| i.rgba_bits[3]),
            RENDERBUFFER_DEPTH_SIZE => bits(|i| i.depth_bits),
            RENDERBUFFER_STENCIL_SIZE => bits(|i| i.stencil_bits),
            _ => Err(INVALID_ENUM),
        }
    }
}

/// Gives the reserved name `name` its renderbuffer object and wire object (at its first
/// bind, or at `glCreateRenderbuffers`).
pub(crate) fn create_renderbuffer(sh: &mut Shared, name: GLuint) -> bevy_ecs::entity::Entity {
    let handle = sh.dev.alloc.mint();
    sh.dev.push(Record::CreateRenderbuffer {
        renderbuffer: handle,
    });
    let e = sh
        .world
        .spawn((Life::named(name), Renderbuffer::new(handle)))
        .id();
    sh.names.renderbuffers.bind_object(name, e);
    e
}
