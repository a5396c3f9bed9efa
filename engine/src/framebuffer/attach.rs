//! Attaching images to framebuffer objects, and the attachment queries.
//!
//! Every attach entry point checks, in order: the target (`INVALID_ENUM`), that a
//! framebuffer object is bound to it (`INVALID_OPERATION`), the attachment point, then the
//! object and its level or layer. Attaching object 0 detaches without looking at the other
//! arguments, as Mesa does. `DEPTH_STENCIL_ATTACHMENT` sets both points, each holding its own
//! reference.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{
    AttachmentGl, DEPTH_ATTACHMENT_INDEX, Framebuffer, Life, MAX_LEVELS, STENCIL_ATTACHMENT_INDEX,
    Texture,
};
use tessera_components::state::TextureTarget;
use tessera_systems::lifecycle;
use tessera_wire::format::{Format, FormatClass};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use super::status::{attached_image, face_index};
use super::{attachment_entity, has_float_channels};
use crate::context::{Context, GlResult, Local};
use crate::share::Shared;

/// `GL_INDEX`: Mesa's `FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE` of a stencil-only image (GL
/// lists no value for stencil indices; the oracle's answer is kept).
const INDEX: GLenum = 0x8222;

/// An attachment point argument of a framebuffer object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Point {
    /// `COLOR_ATTACHMENTi`.
    Color(usize),
    /// `DEPTH_ATTACHMENT`.
    Depth,
    /// `STENCIL_ATTACHMENT`.
    Stencil,
    /// `DEPTH_STENCIL_ATTACHMENT`: both.
    DepthStencil,
}

impl Point {
    /// Parses an attachment of a framebuffer object: `COLOR_ATTACHMENTm` with `m` at or past
    /// `MAX_COLOR_ATTACHMENTS` is `INVALID_OPERATION` (GL 4.5 §9.2.7, what Mesa raises),
    /// anything else unknown `INVALID_ENUM`.
    pub(crate) fn parse(attachment: GLenum) -> GlResult<Point> {
        match attachment {
            DEPTH_ATTACHMENT => Ok(Point::Depth),
            STENCIL_ATTACHMENT => Ok(Point::Stencil),
            DEPTH_STENCIL_ATTACHMENT => Ok(Point::DepthStencil),
            a if (COLOR_ATTACHMENT0..=COLOR_ATTACHMENT15).contains(&a) => {
                let i = (a - COLOR_ATTACHMENT0) as usize;
                if i < MAX_DRAW_BUFFERS {
                    Ok(Point::Color(i))
                } else {
                    Err(INVALID_OPERATION)
                }
            }
            _ => Err(INVALID_ENUM),
        }
    }

    /// Indices into [`Framebuffer::attachments`].
    fn indices(self) -> &'static [usize] {
        const COLORS: [usize; MAX_DRAW_BUFFERS] = [0, 1, 2, 3, 4, 5, 6, 7];
        match self {
            Point::Color(i) => &COLORS[i..=i],
            Point::Depth => &[DEPTH_ATTACHMENT_INDEX],
            Point::Stencil => &[STENCIL_ATTACHMENT_INDEX],
            Point::DepthStencil => &[DEPTH_ATTACHMENT_INDEX, STENCIL_ATTACHMENT_INDEX],
        }
    }
}

/// Which `glFramebufferTexture*` is being called, with its extra arguments.
#[derive(Clone, Copy)]
pub(crate) enum TexCall {
    /// `glFramebufferTexture1D(textarget)`.
    D1(GLenum),
    /// `glFramebufferTexture2D(textarget)`.
    D2(GLenum),
    /// `glFramebufferTexture3D(textarget, zoffset)`.
    D3(GLenum, GLint),
    /// `glFramebufferTextureLayer(layer)`.
    Layer(GLint),
    /// `glFramebufferTexture`: layered for targets with layers.
    Any,
}

/// The texture target a `textarget` names, and its cube face enum (0 if none). `None` for
/// an enum that is no texture target at all.
fn textarget(textarget: GLenum) -> Option<(TextureTarget, GLenum)> {
    if (TEXTURE_CUBE_MAP_POSITIVE_X..=TEXTURE_CUBE_MAP_NEGATIVE_Z).contains(&textarget) {
        return Some((TextureTarget::Cube, textarget));
    }
    TextureTarget::from_gl(textarget).map(|t| (t, 0))
}

/// Whether a texture of this target is attached layered by `glFramebufferTexture`.
fn has_layers(target: TextureTarget) -> bool {
    matches!(
        target,
        TextureTarget::D3
            | TextureTarget::Cube
            | TextureTarget::D1Array
            | TextureTarget::D2Array
            | TextureTarget::D2MultisampleArray
            | TextureTarget::CubeArray
    )
}

/// The framebuffer a call works on: the one bound to a target (`glFramebuffer*`), or the one
/// a `glNamedFramebuffer*` call names (GL 4.5's direct state access; `None`: the default
/// framebuffer, which the named queries take as name 0). Each bound form and its named form
/// share one body; only finding the framebuffer differs.
#[derive(Clone, Copy)]
pub(crate) enum WhichFramebuffer {
    /// The framebuffer bound to this target (`INVALID_ENUM` for an invalid one).
    Bound(GLenum),
    /// A framebuffer found by name.
    Named(Option<Entity>),
}

impl Local {
    /// The framebuffer `r` names (`None`: the default framebuffer).
    pub(crate) fn framebuffer_of(&self, r: WhichFramebuffer) -> GlResult<Option<Entity>> {
        match r {
            WhichFramebuffer::Bound(target) => self.bound_framebuffer(target),
            WhichFramebuffer::Named(fb) => Ok(fb),
        }
    }
}

impl Context {
    /// The framebuffer object an attach call changes: `INVALID_ENUM` for a bad target,
    /// `INVALID_OPERATION` for the default framebuffer.
    fn attach_target(&self, r: WhichFramebuffer) -> GlResult<Entity> {
        self.local.framebuffer_of(r)?.ok_or(INVALID_OPERATION)
    }

    /// Points attachment `point` of `fb` at `new`, moving the references, and marks what the
    /// change makes stale.
    fn attach(&mut self, sh: &mut Shared, fb: Entity, point: Point, new: AttachmentGl) {
        let Shared { world, dev, .. } = sh;
        for &index in point.indices() {
            let old = {
                let Some(mut f) = world.get_mut::<Framebuffer>(fb) else {
                    return;
                };
                let old = std::mem::replace(&mut f.attachments[index], new);
                if old == new {
                    continue;
                }
                f.generation = f.generation.wrapping_add(1);
                old
            };
            lifecycle::replace(world, dev, attachment_entity(&old), attachment_entity(&new));
            if self.local.st.draw_framebuffer == Some(fb) {
                self.local.dirty |= Dirty::FRAMEBUFFER | Dirty::DRAW_CHECK;
            }
        }
    }

    /// The largest level a texture of `target` may attach (levels of rectangle, buffer and
    /// multisample textures: 0 only).
    fn max_attach_level(&self, target: TextureTarget) -> i32 {
        let l = &self.local.limits;
        let size = match target {
            TextureTarget::D3 => l.max_3d_texture_size,
            TextureTarget::Cube | TextureTarget::CubeArray => l.max_cube_size,
            TextureTarget::Rectangle
            | TextureTarget::Buffer
            | TextureTarget::D2Multisample
            | TextureTarget::D2MultisampleArray => return 0,
            _ => l.max_texture_size,
        };
        let log2 = 31 - size.max(1).leading_zeros() as i32;
        log2.min(MAX_LEVELS as i32 - 1)
    }

    /// `glFramebufferTexture` (GL 3.2): layered for 3D, cube map and array textures.
    pub fn framebuffer_texture(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_texture_common(r, attachment, texture, level, TexCall::Any);
    }

    /// `glFramebufferTexture1D`.
    pub fn framebuffer_texture_1d(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        textarget: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        let call = TexCall::D1(textarget);
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_texture_common(r, attachment, texture, level, call);
    }

    /// `glFramebufferTexture2D` (2D, rectangle, cube map face or 2D multisample).
    pub fn framebuffer_texture_2d(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        textarget: GLenum,
        texture: GLuint,
        level: GLint,
    ) {
        let call = TexCall::D2(textarget);
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_texture_common(r, attachment, texture, level, call);
    }

    /// `glFramebufferTexture3D`.
    pub fn framebuffer_texture_3d(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        textarget: GLenum,
        texture: GLuint,
        level: GLint,
        zoffset: GLint,
    ) {
        let call = TexCall::D3(textarget, zoffset);
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_texture_common(r, attachment, texture, level, call);
    }

    /// `glFramebufferTextureLayer`: one layer of a 3D, 1D/2D array or 2D multisample array
    /// texture (GL 3.3 accepts no cube maps here; 4.5 later added them).
    pub fn framebuffer_texture_layer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        layer: GLint,
    ) {
        let call = TexCall::Layer(layer);
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_texture_common(r, attachment, texture, level, call);
    }

    pub(crate) fn framebuffer_texture_common(
        &mut self,
        r: WhichFramebuffer,
        attachment: GLenum,
        texture: GLuint,
        level: GLint,
        call: TexCall,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let result = self
            .attach_target(r)
            .and_then(|fb| Ok((fb, Point::parse(attachment)?)))
            .and_then(|(fb, point)| {
                let new = if texture == 0 {
                    AttachmentGl::None
                } else {
                    self.texture_attachment(&sh, texture, level, call)?
                };
                Ok((fb, point, new))
            });
        match result {
            Ok((fb, point, new)) => self.attach(&mut sh, fb, point, new),
            Err(e) => self.error(e),
        }
    }

    /// Validates a non-zero texture for an attach call and builds the attachment.
    fn texture_attachment(
        &self,
        sh: &Shared,
        texture: GLuint,
        level: GLint,
        call: TexCall,
    ) -> GlResult<AttachmentGl> {
        // The target the call names, if it names one: an enum that is no texture target is
        // INVALID_ENUM, a target the call does not take INVALID_OPERATION.
        let named = match call {
            TexCall::D1(t) | TexCall::D2(t) | TexCall::D3(t, _) => {
                let (kind, face) = textarget(t).ok_or(INVALID_ENUM)?;
                let accepted = match call {
                    TexCall::D1(_) => kind == TextureTarget::D1,
                    TexCall::D3(..) => kind == TextureTarget::D3,
                    _ => {
                        matches!(
                            kind,
                            TextureTarget::D2
                                | TextureTarget::Rectangle
                                | TextureTarget::D2Multisample
                        ) || face != 0
                    }
                };
                if !accepted {
                    return Err(INVALID_OPERATION);
                }
                Some((kind, face))
            }
            TexCall::Layer(_) | TexCall::Any => None,
        };
        // A name that was never bound names no texture yet.
        let missing = if matches!(call, TexCall::Any) {
            INVALID_VALUE
        } else {
            INVALID_OPERATION
        };
        let entity = sh.names.textures.get(texture).ok_or(missing)?;
        let kind = sh
            .world
            .get::<Texture>(entity)
            .and_then(|t| t.target)
            .ok_or(missing)?;
        let mut cube_face = 0;
        match (call, named) {
            (_, Some((named, face))) => {
                if named != kind {
                    return Err(INVALID_OPERATION);
                }
                cube_face = face;
            }
            (TexCall::Layer(_), _) => {
                let layerable = matches!(
                    kind,
                    TextureTarget::D3
                        | TextureTarget::D1Array
                        | TextureTarget::D2Array
                        | TextureTarget::D2MultisampleArray
                        | TextureTarget::CubeArray
                );
                if !layerable {
                    return Err(INVALID_OPERATION);
                }
            }
            _ => {
                if kind == TextureTarget::Buffer {
                    return Err(INVALID_OPERATION);
                }
            }
        }
        // GL 4.5 §9.2.8: an immutable texture attaches only the levels it has (Mesa checks
        // this for every attach call).
        let immutable_levels = sh
            .world
            .get::<Texture>(entity)
            .map_or(0, |t| t.immutable_levels);
        if level < 0
            || level > self.max_attach_level(kind)
            || (immutable_levels > 0 && level >= immutable_levels)
        {
            return Err(INVALID_VALUE);
        }
        let layer = match call {
            TexCall::Layer(layer) | TexCall::D3(_, layer) => {
                let limit = if kind == TextureTarget::D3 {
                    self.local.limits.max_3d_texture_size
                } else {
                    self.local.limits.max_array_layers
                };
                if !(0..limit).contains(&layer) {
                    return Err(INVALID_VALUE);
                }
                layer
            }
            _ => 0,
        };
        Ok(AttachmentGl::Texture {
            texture: entity,
            level,
            layer,
            cube_face,
            layered: matches!(call, TexCall::Any) && has_layers(kind),
        })
    }

    /// `glFramebufferRenderbuffer`.
    pub fn framebuffer_renderbuffer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        renderbuffertarget: GLenum,
        renderbuffer: GLuint,
    ) {
        let r = WhichFramebuffer::Bound(target);
        self.framebuffer_renderbuffer_of(r, attachment, renderbuffertarget, renderbuffer);
    }

    /// `glFramebufferRenderbuffer` on the framebuffer `r` names.
    pub(crate) fn framebuffer_renderbuffer_of(
        &mut self,
        r: WhichFramebuffer,
        attachment: GLenum,
        renderbuffertarget: GLenum,
        renderbuffer: GLuint,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let result = self
            .attach_target(r)
            .and_then(|fb| Ok((fb, Point::parse(attachment)?)))
            .and_then(|(fb, point)| {
                if renderbuffertarget != RENDERBUFFER {
                    return Err(INVALID_ENUM);
                }
                if renderbuffer == 0 {
                    return Ok((fb, point, AttachmentGl::None));
                }
                let rb = sh
                    .names
                    .renderbuffers
                    .get(renderbuffer)
                    .ok_or(INVALID_OPERATION)?;
                Ok((fb, point, AttachmentGl::Renderbuffer(rb)))
            });
        match result {
            Ok((fb, point, new)) => self.attach(&mut sh, fb, point, new),
            Err(e) => self.error(e),
        }
    }

    /// `glGetFramebufferAttachmentParameteriv`.
    pub fn get_framebuffer_attachment_parameteriv(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let r = WhichFramebuffer::Bound(target);
        self.attachment_parameter_of(r, attachment, pname, params);
    }

    /// `glGetFramebufferAttachmentParameteriv` of the framebuffer `r` names.
    pub(crate) fn attachment_parameter_of(
        &mut self,
        r: WhichFramebuffer,
        attachment: GLenum,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let result = {
            let sh = self.group.lock();
            self.attachment_parameter(&sh, r, attachment, pname)
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

    fn attachment_parameter(
        &self,
        sh: &Shared,
        r: WhichFramebuffer,
        attachment: GLenum,
        pname: GLenum,
    ) -> GlResult<GLint> {
        let fb = self.local.framebuffer_of(r)?;
        let d = match fb {
            None => self.describe_default(attachment)?,
            Some(e) => describe_object(sh, e, attachment)?,
        };
        let valid = matches!(
            pname,
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
                | FRAMEBUFFER_ATTACHMENT_OBJECT_NAME
                | FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL
                | FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE
                | FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER
                | FRAMEBUFFER_ATTACHMENT_LAYERED
                | FRAMEBUFFER_ATTACHMENT_RED_SIZE
                | FRAMEBUFFER_ATTACHMENT_GREEN_SIZE
                | FRAMEBUFFER_ATTACHMENT_BLUE_SIZE
                | FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE
                | FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE
                | FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE
                | FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE
                | FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING
        );
        if !valid {
            return Err(INVALID_ENUM);
        }
        if d.object_type == NONE {
            // GL 3.3 §6.1.13: only the type and name of an empty point may be asked for.
            return match pname {
                FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => Ok(NONE as GLint),
                FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => Ok(0),
                _ => Err(INVALID_OPERATION),
            };
        }
        let info = d.format.map(Format::info);
        let bits = |f: fn(&tessera_wire::format::FormatInfo) -> u8| {
            Ok(info.as_ref().map_or(0, |i| GLint::from(f(i))))
        };
        match pname {
            FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => Ok(d.object_type as GLint),
            FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => Ok(d.name as GLint),
            FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL
            | FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE
            | FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER
            | FRAMEBUFFER_ATTACHMENT_LAYERED => {
                let t = d.texture.ok_or(INVALID_ENUM)?;
                Ok(match pname {
                    FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL => t.level,
                    FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE => t.cube_face as GLint,
                    FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER => t.layer,
                    _ => GLint::from(t.layered),
                })
            }
            FRAMEBUFFER_ATTACHMENT_RED_SIZE => bits(|i| i.rgba_bits[0]),
            FRAMEBUFFER_ATTACHMENT_GREEN_SIZE => bits(|i| i.rgba_bits[1]),
            FRAMEBUFFER_ATTACHMENT_BLUE_SIZE => bits(|i| i.rgba_bits[2]),
            FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE => bits(|i| i.rgba_bits[3]),
            FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE => bits(|i| i.depth_bits),
            FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE => bits(|i| i.stencil_bits),
            FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE => {
                if d.both_depth_stencil {
                    // Depth and stencil may differ in type: GL refuses to pick one.
                    return Err(INVALID_OPERATION);
                }
                Ok(d.format.map_or(NONE, component_type) as GLint)
            }
            _ => Ok(if info.is_some_and(|i| i.srgb) {
                SRGB
            } else {
                LINEAR
            } as GLint),
        }
    }

    /// Describes an attachment of the default framebuffer: its one colour buffer answers to
    /// `BACK_LEFT` (and `BACK`, `LEFT`), depth and stencil to `DEPTH` and `STENCIL`; the
    /// other buffer names are valid but name nothing.
    fn describe_default(&self, attachment: GLenum) -> GlResult<Described> {
        let surface = self.local.surface;
        let ds = surface.and_then(|s| s.desc.depth_stencil);
        let format = match attachment {
            BACK_LEFT | BACK | LEFT => surface.and_then(|s| s.desc.color),
            FRONT_LEFT | FRONT_RIGHT | BACK_RIGHT | FRONT | RIGHT => None,
            DEPTH => ds.filter(|f| f.has_depth()),
            STENCIL => ds.filter(|f| f.has_stencil()),
            _ => return Err(INVALID_ENUM),
        };
        Ok(Described {
            object_type: if format.is_some() {
                FRAMEBUFFER_DEFAULT
            } else {
                NONE
            },
            name: 0,
            format,
            texture: None,
            both_depth_stencil: false,
        })
    }
}

/// The texture-specific answers of an attachment.
#[derive(Clone, Copy)]
struct TextureInfo {
    level: GLint,
    cube_face: GLenum,
    layer: GLint,
    layered: bool,
}

/// What an attachment query reads.
struct Described {
    object_type: GLenum,
    name: u32,
    format: Option<Format>,
    texture: Option<TextureInfo>,
    both_depth_stencil: bool,
}

/// Describes an attachment point of a framebuffer object.
fn describe_object(sh: &Shared, fb: Entity, attachment: GLenum) -> GlResult<Described> {
    let f = sh.world.get::<Framebuffer>(fb).ok_or(INVALID_OPERATION)?;
    let point = Point::parse(attachment)?;
    let a = f.attachments[point.indices()[0]];
    if point == Point::DepthStencil && a != f.attachments[STENCIL_ATTACHMENT_INDEX] {
        return Err(INVALID_OPERATION);
    }
    let name = attachment_entity(&a)
        .and_then(|e| sh.world.get::<Life>(e))
        .map_or(0, |l| l.name);
    let format = attached_image(&sh.world, &a).and_then(|i| i.format);
    let (object_type, texture) = match a {
        AttachmentGl::None => (NONE, None),
        AttachmentGl::Renderbuffer(_) => (RENDERBUFFER, None),
        AttachmentGl::Texture {
            texture,
            level,
            layer,
            cube_face,
            layered,
        } => {
            let cube = sh
                .world
                .get::<Texture>(texture)
                .is_some_and(|t| t.target == Some(TextureTarget::Cube));
            let info = TextureInfo {
                level,
                cube_face: if cube {
                    TEXTURE_CUBE_MAP_POSITIVE_X + face_index(cube_face) as GLenum
                } else {
                    0
                },
                layer,
                layered,
            };
            (TEXTURE, Some(info))
        }
    };
    Ok(Described {
        object_type,
        name,
        format,
        texture,
        both_depth_stencil: point == Point::DepthStencil,
    })
}

/// `FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE` of a format.
fn component_type(f: Format) -> GLenum {
    let info = f.info();
    match info.class {
        FormatClass::Int => INT,
        FormatClass::Uint => UNSIGNED_INT,
        FormatClass::Stencil => INDEX,
        FormatClass::Depth | FormatClass::DepthStencil => {
            if matches!(f, Format::Depth32f | Format::Depth32fStencil8) {
                FLOAT
            } else {
                UNSIGNED_NORMALIZED
            }
        }
        FormatClass::Float => {
            if has_float_channels(f) {
                FLOAT
            } else if info.snorm {
                SIGNED_NORMALIZED
            } else {
                UNSIGNED_NORMALIZED
            }
        }
    }
}
