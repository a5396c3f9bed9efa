//! Texture parameters (`tex_parameter*`, `get_tex_parameter*`), image queries
//! (`get_tex_level_parameter*`), and the sampling-parameter rules that sampler objects share
//! ([`set_sampling`], [`sampling_value`]).
//!
//! Values convert as Mesa converts them: enums and levels given as floats round to the
//! nearest integer; a border colour given as integers (`tex_parameteriv`) maps `c` to
//! `(2c + 1) / (2^32 - 1)` (GL 3.3 table 2.10), while `tex_parameter_i(u)iv` keep the raw
//! integers, which `get_tex_parameter_i(u)iv` return as they are.

use tessera_components::gl::*;
use tessera_components::object::{Buffer, Image, SamplerParams, Texture};
use tessera_components::state::TextureTarget;
use tessera_systems::conv::{
    map_compare_func, map_mag_filter, map_min_filter, map_sized_format, map_swizzle, map_wrap,
};
use tessera_wire::format::{Format, FormatClass};
use tessera_wire::handle::{Handle, RawHandle, TextureHandle};

use super::{default_texture_if_any, image_target, max_levels};
use crate::context::{Context, GlResult};
use crate::framebuffer::has_float_channels;
use crate::get::{Value, name_of};
use crate::limits::Limits;
use crate::share::Shared;

/// A parameter value as one of the typed entry points passes it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ParamArg<'a> {
    /// `*i`, `*iv`: integers (a border colour is normalized).
    Int(&'a [GLint]),
    /// `*f`, `*fv`.
    Float(&'a [GLfloat]),
    /// `*Iiv`: integers (a border colour stays integer).
    PureInt(&'a [GLint]),
    /// `*Iuiv`.
    PureUint(&'a [GLuint]),
}

impl ParamArg<'_> {
    fn len(&self) -> usize {
        match self {
            ParamArg::Int(v) | ParamArg::PureInt(v) => v.len(),
            ParamArg::Float(v) => v.len(),
            ParamArg::PureUint(v) => v.len(),
        }
    }

    /// Value `i` as an integer: floats round to the nearest.
    fn int(&self, i: usize) -> i64 {
        match self {
            ParamArg::Int(v) | ParamArg::PureInt(v) => i64::from(v[i]),
            ParamArg::Float(v) => v[i].round() as i64,
            ParamArg::PureUint(v) => i64::from(v[i]),
        }
    }

    /// Value `i` as an enum (a value no enum has for negative or huge integers).
    fn enumeration(&self, i: usize) -> GLenum {
        u32::try_from(self.int(i)).unwrap_or(u32::MAX)
    }

    /// Value `i` as a float.
    fn float(&self, i: usize) -> f32 {
        match self {
            ParamArg::Int(v) | ParamArg::PureInt(v) => v[i] as f32,
            ParamArg::Float(v) => v[i],
            ParamArg::PureUint(v) => v[i] as f32,
        }
    }

    /// The four words of a border colour and how they were given.
    fn border(&self) -> ([u32; 4], GLenum) {
        let mut words = [0u32; 4];
        for (i, w) in words.iter_mut().enumerate() {
            *w = match self {
                ParamArg::Float(v) => v[i].to_bits(),
                // GL 3.3 table 2.10: a signed integer c is (2c + 1) / (2^32 - 1).
                ParamArg::Int(v) => {
                    { ((2.0 * f64::from(v[i]) + 1.0) / 4_294_967_295.0) as f32 }.to_bits()
                }
                ParamArg::PureInt(v) => v[i] as u32,
                ParamArg::PureUint(v) => v[i],
            };
        }
        let kind = match self {
            ParamArg::Int(_) | ParamArg::Float(_) => FLOAT,
            ParamArg::PureInt(_) => INT,
            ParamArg::PureUint(_) => UNSIGNED_INT,
        };
        (words, kind)
    }
}

/// A parameter value as the getters convert it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a short-lived return value; boxing would allocate on every query"
)]
pub(crate) enum ParamValue {
    /// An ordinary state value.
    Plain(Value),
    /// `TEXTURE_BORDER_COLOR`: four raw words (float bits, or integers when set with
    /// `*Iiv`/`*Iuiv`).
    Border([u32; 4]),
}

impl ParamValue {
    /// How many values.
    fn len(&self) -> usize {
        match self {
            ParamValue::Plain(v) => v.len,
            ParamValue::Border(_) => 4,
        }
    }

    /// Value `i` for `*fv`: floats, the border's words read as floats.
    pub(crate) fn float(&self, i: usize) -> f32 {
        match self {
            ParamValue::Plain(v) => v.as_f64(i) as f32,
            ParamValue::Border(w) => f32::from_bits(w[i]),
        }
    }

    /// Value `i` for `*iv`: floats rounded, the border colour mapped linearly to the
    /// integer range.
    pub(crate) fn int(&self, i: usize) -> GLint {
        let v = match self {
            ParamValue::Plain(v) => v.as_i64(i),
            ParamValue::Border(w) => {
                Value::norms(&w.map(|b| f64::from(f32::from_bits(b)))).as_i64(i)
            }
        };
        v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as GLint
    }

    /// Value `i` for `*Iiv`: the border's raw words.
    pub(crate) fn pure_int(&self, i: usize) -> GLint {
        match self {
            ParamValue::Plain(v) => {
                v.as_i64(i).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as GLint
            }
            ParamValue::Border(w) => w[i] as i32,
        }
    }

    /// Value `i` for `*Iuiv`: the border's raw words; negative values wrap.
    pub(crate) fn pure_uint(&self, i: usize) -> GLuint {
        match self {
            ParamValue::Plain(v) => v.as_i64(i) as u32,
            ParamValue::Border(w) => w[i],
        }
    }

    /// Writes the values into `out` (as many as fit).
    pub(crate) fn write<T>(&self, out: &mut [T], convert: impl Fn(&Self, usize) -> T) {
        for (i, o) in out.iter_mut().enumerate().take(self.len()) {
            *o = convert(self, i);
        }
    }
}

/// Whether `pname` is one of the sampling parameters textures and samplers share.
pub(crate) fn is_sampling_pname(pname: GLenum) -> bool {
    matches!(
        pname,
        TEXTURE_MIN_FILTER
            | TEXTURE_MAG_FILTER
            | TEXTURE_WRAP_S
            | TEXTURE_WRAP_T
            | TEXTURE_WRAP_R
            | TEXTURE_MIN_LOD
            | TEXTURE_MAX_LOD
            | TEXTURE_LOD_BIAS
            | TEXTURE_COMPARE_MODE
            | TEXTURE_COMPARE_FUNC
            | TEXTURE_BORDER_COLOR
            | TEXTURE_MAX_ANISOTROPY
    )
}

/// Stores `new` in `field`; whether it changed.
fn store<T: PartialEq>(field: &mut T, new: T) -> bool {
    if *field == new {
        return false;
    }
    *field = new;
    true
}

/// Stores a float, compared by bits (so that -0.0 and NaN payloads count as changes).
fn store_f32(field: &mut f32, new: f32) -> bool {
    if field.to_bits() == new.to_bits() {
        return false;
    }
    *field = new;
    true
}

/// Sets one sampling parameter (GL 3.3 §3.8.7, table 3.16); returns whether it changed.
/// `INVALID_ENUM` for a pname that is not one, an enum value it does not take, or a border
/// colour through a scalar call (`vector` false), `MIRROR_CLAMP_TO_EDGE` or
/// `TEXTURE_MAX_ANISOTROPY` where the backend lacks it; `INVALID_VALUE` for an anisotropy
/// below 1 (larger values are clamped to the limit, as Mesa does) and for a slice too short for
/// the parameter (a guard of the Rust API).
pub(crate) fn set_sampling(
    p: &mut SamplerParams,
    pname: GLenum,
    arg: ParamArg<'_>,
    vector: bool,
    limits: &Limits,
) -> GlResult<bool> {
    if !is_sampling_pname(pname) {
        return Err(INVALID_ENUM);
    }
    let needed = if pname == TEXTURE_BORDER_COLOR { 4 } else { 1 };
    if pname == TEXTURE_BORDER_COLOR && !vector {
        return Err(INVALID_ENUM);
    }
    if arg.len() < needed {
        return Err(INVALID_VALUE);
    }
    Ok(match pname {
        TEXTURE_MIN_FILTER => {
            let v = arg.enumeration(0);
            map_min_filter(v).ok_or(INVALID_ENUM)?;
            store(&mut p.min_filter, v)
        }
        TEXTURE_MAG_FILTER => {
            let v = arg.enumeration(0);
            map_mag_filter(v).ok_or(INVALID_ENUM)?;
            store(&mut p.mag_filter, v)
        }
        TEXTURE_WRAP_S | TEXTURE_WRAP_T | TEXTURE_WRAP_R => {
            let v = arg.enumeration(0);
            map_wrap(v).ok_or(INVALID_ENUM)?;
            // GL 4.4's mode, or GL_ARB_texture_mirror_clamp_to_edge's: only where the
            // backend samples with it (Mesa's `validate_texture_wrap_mode`).
            if v == MIRROR_CLAMP_TO_EDGE && !limits.mirror_clamp_to_edge {
                return Err(INVALID_ENUM);
            }
            let i = match pname {
                TEXTURE_WRAP_S => 0,
                TEXTURE_WRAP_T => 1,
                _ => 2,
            };
            store(&mut p.wrap[i], v)
        }
        TEXTURE_MIN_LOD => store_f32(&mut p.min_lod, arg.float(0)),
        TEXTURE_MAX_LOD => store_f32(&mut p.max_lod, arg.float(0)),
        TEXTURE_LOD_BIAS => store_f32(&mut p.lod_bias, arg.float(0)),
        TEXTURE_COMPARE_MODE => {
            let v = arg.enumeration(0);
            if !matches!(v, NONE | COMPARE_REF_TO_TEXTURE) {
                return Err(INVALID_ENUM);
            }
            store(&mut p.compare_mode, v)
        }
        TEXTURE_COMPARE_FUNC => {
            let v = arg.enumeration(0);
            map_compare_func(v).ok_or(INVALID_ENUM)?;
            store(&mut p.compare_func, v)
        }
        TEXTURE_MAX_ANISOTROPY => {
            // Mesa's order: the pname needs the extension, an unchanged value is no change
            // (not even an error), then values below 1 are refused and larger ones clamped to
            // the limit, a NaN to the limit too (Mesa's MIN2 takes the second operand when the
            // comparison is false).
            if !limits.anisotropic {
                return Err(INVALID_ENUM);
            }
            let v = arg.float(0);
            if v == p.max_anisotropy {
                return Ok(false);
            }
            if v < 1.0 {
                return Err(INVALID_VALUE);
            }
            let clamped = if v < limits.max_anisotropy {
                v
            } else {
                limits.max_anisotropy
            };
            store_f32(&mut p.max_anisotropy, clamped)
        }
        _ => {
            let (words, kind) = arg.border();
            let a = store(&mut p.border_color, words);
            let b = store(&mut p.border_kind, kind);
            a || b
        }
    })
}

/// The value of a sampling parameter, `None` for other pnames.
pub(crate) fn sampling_value(p: &SamplerParams, pname: GLenum) -> Option<ParamValue> {
    let e = |v: GLenum| Some(ParamValue::Plain(Value::int(i64::from(v))));
    let f = |v: f32| Some(ParamValue::Plain(Value::float(f64::from(v))));
    match pname {
        TEXTURE_MIN_FILTER => e(p.min_filter),
        TEXTURE_MAG_FILTER => e(p.mag_filter),
        TEXTURE_WRAP_S => e(p.wrap[0]),
        TEXTURE_WRAP_T => e(p.wrap[1]),
        TEXTURE_WRAP_R => e(p.wrap[2]),
        TEXTURE_MIN_LOD => f(p.min_lod),
        TEXTURE_MAX_LOD => f(p.max_lod),
        TEXTURE_LOD_BIAS => f(p.lod_bias),
        TEXTURE_COMPARE_MODE => e(p.compare_mode),
        TEXTURE_COMPARE_FUNC => e(p.compare_func),
        TEXTURE_MAX_ANISOTROPY => f(p.max_anisotropy),
        TEXTURE_BORDER_COLOR => Some(ParamValue::Border(p.border_color)),
        _ => None,
    }
}

/// The texture target `tex_parameter*`/`get_tex_parameter*` accept (every binding target but
/// `TEXTURE_BUFFER`, whose textures have no parameters).
fn parameter_target(target: GLenum) -> GlResult<TextureTarget> {
    TextureTarget::from_gl(target)
        .filter(|t| *t != TextureTarget::Buffer)
        .ok_or(INVALID_ENUM)
}

fn is_multisample(t: TextureTarget) -> bool {
    matches!(
        t,
        TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray
    )
}

/// Sets one texture parameter of `tex` (a texture of `target`); returns whether it changed.
/// Beyond [`set_sampling`]: `TEXTURE_BASE_LEVEL` and `TEXTURE_MAX_LEVEL` must not be
/// negative (`INVALID_VALUE`), and are clamped to the levels of an immutable texture as they
/// are set (as Mesa does: the base to `levels - 1`, the max to `[base, levels - 1]`); the
/// base level of a rectangle or multisample texture must
/// be 0 (`INVALID_OPERATION`); multisample textures take no sampling parameters
/// (`INVALID_ENUM`); rectangle textures take only `NEAREST`/`LINEAR` minification and
/// `CLAMP_TO_EDGE`/`CLAMP_TO_BORDER` wrapping (`INVALID_ENUM`).
fn set_texture_param(
    tex: &mut Texture,
    target: TextureTarget,
    pname: GLenum,
    arg: ParamArg<'_>,
    vector: bool,
    limits: &Limits,
) -> GlResult<bool> {
    if arg.len() == 0 {
        return Err(INVALID_VALUE);
    }
    match pname {
        TEXTURE_BASE_LEVEL => {
            let v = arg.int(0);
            if v < 0 {
                return Err(INVALID_VALUE);
            }
            if v != 0 && (target == TextureTarget::Rectangle || is_multisample(target)) {
                return Err(INVALID_OPERATION);
            }
            let mut v = v.min(i64::from(i32::MAX)) as i32;
            if tex.immutable_levels > 0 {
                v = v.min(tex.immutable_levels - 1);
            }
            Ok(store(&mut tex.base_level, v))
        }
        TEXTURE_MAX_LEVEL => {
            let v = arg.int(0);
            if v < 0 {
                return Err(INVALID_VALUE);
            }
            let mut v = v.min(i64::from(i32::MAX)) as i32;
            if tex.immutable_levels > 0 {
                v = v.clamp(tex.base_level, tex.immutable_levels - 1);
            }
            Ok(store(&mut tex.max_level, v))
        }
        TEXTURE_SWIZZLE_R | TEXTURE_SWIZZLE_G | TEXTURE_SWIZZLE_B | TEXTURE_SWIZZLE_A => {
            let v = arg.enumeration(0);
            map_swizzle(v).ok_or(INVALID_ENUM)?;
            Ok(store(
                &mut tex.swizzle[(pname - TEXTURE_SWIZZLE_R) as usize],
                v,
            ))
        }
        // A texture's parameter, not a sampler's (GL 4.3 table 23.15), on every target that
        // takes parameters, multisample ones too (as Mesa).
        DEPTH_STENCIL_TEXTURE_MODE if limits.stencil_texturing => {
            let stencil = match arg.enumeration(0) {
                STENCIL_INDEX => true,
                DEPTH_COMPONENT => false,
                _ => return Err(INVALID_ENUM),
            };
            Ok(store(&mut tex.stencil_sampling, stencil))
        }
        TEXTURE_SWIZZLE_RGBA => {
            if !vector {
                return Err(INVALID_ENUM);
            }
            if arg.len() < 4 {
                return Err(INVALID_VALUE);
            }
            let v = [0, 1, 2, 3].map(|i| arg.enumeration(i));
            if v.iter().any(|s| map_swizzle(*s).is_none()) {
                return Err(INVALID_ENUM);
            }
            Ok(store(&mut tex.swizzle, v))
        }
        _ if is_sampling_pname(pname) => {
            if is_multisample(target) {
                return Err(INVALID_ENUM);
            }
            if target == TextureTarget::Rectangle {
                let v = arg.enumeration(0);
                let bad = match pname {
                    TEXTURE_MIN_FILTER => !matches!(v, NEAREST | LINEAR),
                    TEXTURE_WRAP_S | TEXTURE_WRAP_T | TEXTURE_WRAP_R => {
                        !matches!(v, CLAMP_TO_EDGE | CLAMP_TO_BORDER)
                    }
                    _ => false,
                };
                if bad {
                    return Err(INVALID_ENUM);
                }
            }
            set_sampling(&mut tex.sampler, pname, arg, vector, limits)
        }
        _ => Err(INVALID_ENUM),
    }
}

/// The value of a texture parameter, `None` for a pname textures do not have.
fn texture_value(tex: &Texture, pname: GLenum, limits: &Limits) -> Option<ParamValue> {
    let i = |v: i64| Some(ParamValue::Plain(Value::int(v)));
    match pname {
        TEXTURE_MAX_ANISOTROPY if !limits.anisotropic => None,
        DEPTH_STENCIL_TEXTURE_MODE if limits.stencil_texturing => {
            i(i64::from(if tex.stencil_sampling {
                STENCIL_INDEX
            } else {
                DEPTH_COMPONENT
            }))
        }
        TEXTURE_BASE_LEVEL => i(i64::from(tex.base_level)),
        TEXTURE_MAX_LEVEL => i(i64::from(tex.max_level)),
        TEXTURE_IMMUTABLE_FORMAT => i(i64::from(tex.immutable_levels > 0)),
        TEXTURE_IMMUTABLE_LEVELS => i(i64::from(tex.immutable_levels)),
        // Image units take formats of the texture's size (crate::image).
        IMAGE_FORMAT_COMPATIBILITY_TYPE => i(i64::from(IMAGE_FORMAT_COMPATIBILITY_BY_SIZE)),
        TEXTURE_VIEW_MIN_LEVEL => i(i64::from(tex.view_range.min_level)),
        TEXTURE_VIEW_NUM_LEVELS => i(i64::from(tex.view_range.num_levels)),
        TEXTURE_VIEW_MIN_LAYER => i(i64::from(tex.view_range.min_layer)),
        TEXTURE_VIEW_NUM_LAYERS => i(i64::from(tex.view_range.num_layers)),
        TEXTURE_SWIZZLE_R | TEXTURE_SWIZZLE_G | TEXTURE_SWIZZLE_B | TEXTURE_SWIZZLE_A => {
            i(i64::from(tex.swizzle[(pname - TEXTURE_SWIZZLE_R) as usize]))
        }
        TEXTURE_SWIZZLE_RGBA => Some(ParamValue::Plain(Value::ints(&tex.swizzle.map(i64::from)))),
        _ => sampling_value(&tex.sampler, pname),
    }
}

/// The `_TYPE` of a channel with `bits` bits of `format`.
fn channel_type(format: Format, bits: u8) -> GLenum {
    let info = format.info();
    if bits == 0 {
        return NONE;
    }
    match info.class {
        FormatClass::Int => INT,
        FormatClass::Uint => UNSIGNED_INT,
        _ if has_float_channels(format) => FLOAT,
        _ if matches!(format, Format::BptcRgbSfloat | Format::BptcRgbUfloat) => FLOAT,
        _ if info.snorm => SIGNED_NORMALIZED,
        _ => UNSIGNED_NORMALIZED,
    }
}

/// What `get_tex_level_parameter` reports for an image of a buffer texture: its texel count,
/// format, and buffer range.
struct BufferImage {
    image: Image,
    buffer: i64,
    offset: i64,
    size: i64,
}

impl Context {
    /// The texture a query on `t` reads (the active unit's, or the default texture), if it
    /// exists; queries never create one.
    fn query_texture(&self, sh: &Shared, t: TextureTarget) -> Option<bevy_ecs::entity::Entity> {
        self.local
            .bound_texture(t)
            .or_else(|| default_texture_if_any(sh, t))
    }

    /// `glTexParameteri`.
    pub fn tex_parameteri(&mut self, target: GLenum, pname: GLenum, param: GLint) {
        self.tex_parameter(target, pname, ParamArg::Int(&[param]), false);
    }

    /// `glTexParameterf`.
    pub fn tex_parameterf(&mut self, target: GLenum, pname: GLenum, param: GLfloat) {
        self.tex_parameter(target, pname, ParamArg::Float(&[param]), false);
    }

    /// `glTexParameteriv`.
    pub fn tex_parameteriv(&mut self, target: GLenum, pname: GLenum, params: &[GLint]) {
        self.tex_parameter(target, pname, ParamArg::Int(params), true);
    }

    /// `glTexParameterfv`.
    pub fn tex_parameterfv(&mut self, target: GLenum, pname: GLenum, params: &[GLfloat]) {
        self.tex_parameter(target, pname, ParamArg::Float(params), true);
    }

    /// `glTexParameterIiv`.
    pub fn tex_parameter_iiv(&mut self, target: GLenum, pname: GLenum, params: &[GLint]) {
        self.tex_parameter(target, pname, ParamArg::PureInt(params), true);
    }

    /// `glTexParameterIuiv`.
    pub fn tex_parameter_iuiv(&mut self, target: GLenum, pname: GLenum, params: &[GLuint]) {
        self.tex_parameter(target, pname, ParamArg::PureUint(params), true);
    }

    fn tex_parameter(&mut self, target: GLenum, pname: GLenum, arg: ParamArg<'_>, vector: bool) {
        let t = match parameter_target(target) {
            Ok(t) => t,
            Err(err) => return self.error(err),
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = self.target_texture(&mut sh, t);
        let limits = self.local.limits;
        let result = match sh.world.get_mut::<Texture>(e) {
            Some(mut tex) => {
                let tex = tex.as_mut();
                let r = set_texture_param(tex, t, pname, arg, vector, &limits);
                if r == Ok(true) {
                    tex.params_generation = tex.params_generation.wrapping_add(1);
                }
                r
            }
            None => Ok(false),
        };
        match result {
            Ok(true) => self.touch_texture(e, t),
            Ok(false) => {}
            Err(err) => self.error(err),
        }
    }

    fn tex_parameter_value(&mut self, target: GLenum, pname: GLenum) -> Option<ParamValue> {
        let t = match parameter_target(target) {
            Ok(t) => t,
            Err(err) => {
                self.error(err);
                return None;
            }
        };
        let value = {
            let sh = self.group.lock();
            let initial;
            let tex = match self
                .query_texture(&sh, t)
                .and_then(|e| sh.world.get::<Texture>(e))
            {
                Some(tex) => tex,
                None => {
                    let nothing = TextureHandle::from_raw(RawHandle {
                        slot: 0,
                        generation: 0,
                    });
                    initial = Texture::new(nothing, Some(t));
                    &initial
                }
            };
            texture_value(tex, pname, &self.local.limits)
        };
        if value.is_none() {
            self.error(INVALID_ENUM);
        }
        value
    }

    /// `glGetTexParameterfv`.
    pub fn get_tex_parameterfv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLfloat]) {
        if let Some(v) = self.tex_parameter_value(target, pname) {
            v.write(params, ParamValue::float);
        }
    }

    /// `glGetTexParameteriv`.
    pub fn get_tex_parameteriv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLint]) {
        if let Some(v) = self.tex_parameter_value(target, pname) {
            v.write(params, ParamValue::int);
        }
    }

    /// `glGetTexParameterIiv`.
    pub fn get_tex_parameter_iiv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLint]) {
        if let Some(v) = self.tex_parameter_value(target, pname) {
            v.write(params, ParamValue::pure_int);
        }
    }

    /// `glGetTexParameterIuiv`.
    pub fn get_tex_parameter_iuiv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLuint]) {
        if let Some(v) = self.tex_parameter_value(target, pname) {
            v.write(params, ParamValue::pure_uint);
        }
    }

    /// The image a level query reads, and for buffer textures their buffer.
    fn query_image(
        &self,
        sh: &mut Shared,
        target: GLenum,
        level: GLint,
    ) -> GlResult<(Image, Option<BufferImage>)> {
        let it = image_target(target).ok_or(INVALID_ENUM)?;
        if level < 0 || level >= max_levels(&self.local.limits, it.target) {
            return Err(INVALID_VALUE);
        }
        let level = level as usize;
        if it.proxy {
            return Ok((self.proxy_images(sh)[it.target as usize][level], None));
        }
        let tex = self
            .query_texture(sh, it.target)
            .and_then(|e| sh.world.get::<Texture>(e));
        if it.target != TextureTarget::Buffer {
            let image = tex.map(|t| t.images[it.face][level]).unwrap_or_default();
            return Ok((image, None));
        }
        let internal_format = tex.map_or(R8, |t| t.buffer_format);
        let Some(range) = tex.and_then(|t| t.buffer) else {
            let image = Image {
                internal_format,
                ..Image::default()
            };
            return Ok((image, None));
        };
        let format = map_sized_format(internal_format);
        // A range of glTexBufferRange, or the whole buffer (size -1).
        let size = if range.size >= 0 {
            range.size
        } else {
            sh.world.get::<Buffer>(range.buffer).map_or(0, |b| b.size)
        };
        let texel = format.map_or(1, |f| {
            let i = f.info();
            i.rgba_bits.iter().map(|b| i64::from(*b)).sum::<i64>() / 8
        });
        let texels =
            (size / texel.max(1)).min(i64::from(self.local.limits.max_texture_buffer_size));
        let image = Image {
            width: texels as i32,
            height: 1,
            depth: 1,
            internal_format,
            format,
            ..Image::default()
        };
        let b = BufferImage {
            image,
            buffer: name_of(sh, Some(range.buffer)),
            offset: range.offset,
            size,
        };
        Ok((image, Some(b)))
    }

    fn level_value(&mut self, target: GLenum, level: GLint, pname: GLenum) -> Option<Value> {
        let result = {
            let group = self.group.clone();
            let mut sh = group.lock_for(self.local.id);
            self.query_image(&mut sh, target, level)
                .and_then(|(image, buffer)| level_parameter(&image, buffer.as_ref(), pname))
        };
        match result {
            Ok(v) => Some(v),
            Err(err) => {
                self.error(err);
                None
            }
        }
    }

    /// `glGetTexLevelParameteriv`.
    pub fn get_tex_level_parameteriv(
        &mut self,
        target: GLenum,
        level: GLint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if let Some(v) = self.level_value(target, level, pname)
            && let Some(o) = params.first_mut()
        {
            *o = v.as_i64(0).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as GLint;
        }
    }

    /// `glGetTexLevelParameterfv`.
    pub fn get_tex_level_parameterfv(
        &mut self,
        target: GLenum,
        level: GLint,
        pname: GLenum,
        params: &mut [GLfloat],
    ) {
        if let Some(v) = self.level_value(target, level, pname)
            && let Some(o) = params.first_mut()
        {
            *o = v.as_f64(0) as GLfloat;
        }
    }
}

/// One `get_tex_level_parameter` value of an image (GL 3.3 §6.1.3, table 6.19). An image
/// that was never specified reports zero sizes, `RGBA` (`R8` for buffer textures) and
/// `NONE` types; `TEXTURE_COMPRESSED_IMAGE_SIZE` of an image that is not compressed is
/// `INVALID_OPERATION`.
fn level_parameter(image: &Image, buffer: Option<&BufferImage>, pname: GLenum) -> GlResult<Value> {
    let image = buffer.map_or(*image, |b| b.image);
    let format = image
        .format
        .filter(|_| image.is_defined() || buffer.is_some());
    let info = format.map(|f| f.info());
    let bits = |i: usize| info.map_or(0, |x| i64::from(x.rgba_bits[i]));
    let ty = |i: usize| format.map_or(NONE, |f| channel_type(f, f.info().rgba_bits[i]));
    let int = |v: i64| Ok(Value::int(v));
    let e = |v: GLenum| Ok(Value::int(i64::from(v)));
    match pname {
        TEXTURE_WIDTH => int(i64::from(image.width)),
        TEXTURE_HEIGHT => int(i64::from(image.height)),
        TEXTURE_DEPTH => int(i64::from(image.depth)),
        TEXTURE_INTERNAL_FORMAT => e(if image.is_defined() {
            image.internal_format
        } else {
            RGBA
        }),
        TEXTURE_RED_SIZE => int(bits(0)),
        TEXTURE_GREEN_SIZE => int(bits(1)),
        TEXTURE_BLUE_SIZE => int(bits(2)),
        TEXTURE_ALPHA_SIZE => int(bits(3)),
        TEXTURE_DEPTH_SIZE => int(info.map_or(0, |x| i64::from(x.depth_bits))),
        TEXTURE_STENCIL_SIZE => int(info.map_or(0, |x| i64::from(x.stencil_bits))),
        TEXTURE_SHARED_SIZE => int(if format == Some(Format::Rgb9E5) { 5 } else { 0 }),
        TEXTURE_RED_TYPE => e(ty(0)),
        TEXTURE_GREEN_TYPE => e(ty(1)),
        TEXTURE_BLUE_TYPE => e(ty(2)),
        TEXTURE_ALPHA_TYPE => e(ty(3)),
        TEXTURE_DEPTH_TYPE => e(match format {
            Some(Format::Depth32f | Format::Depth32fStencil8) => FLOAT,
            Some(f) if f.has_depth() => UNSIGNED_NORMALIZED,
            _ => NONE,
        }),
        TEXTURE_COMPRESSED => int(i64::from(info.is_some_and(|x| x.compressed))),
        TEXTURE_COMPRESSED_IMAGE_SIZE => {
            if info.is_some_and(|x| x.compressed) {
                int(i64::from(image.compressed_size))
            } else {
                Err(INVALID_OPERATION)
            }
        }
        TEXTURE_SAMPLES => int(i64::from(image.samples)),
        TEXTURE_FIXED_SAMPLE_LOCATIONS => int(i64::from(image.fixed_sample_locations)),
        TEXTURE_BUFFER_DATA_STORE_BINDING => int(buffer.map_or(0, |b| b.buffer)),
        TEXTURE_BUFFER_OFFSET => int(buffer.map_or(0, |b| b.offset)),
        TEXTURE_BUFFER_SIZE => int(buffer.map_or(0, |b| b.size)),
        _ => Err(INVALID_ENUM),
    }
}
