//! Internal-format queries: `glGetInternalformativ` and `glGetInternalformati64v`, GL 4.2's
//! `ARB_internalformat_query` (`NUM_SAMPLE_COUNTS`, `SAMPLES`) and GL 4.3's
//! `ARB_internalformat_query2` (every other pname, for every texture target, buffer
//! textures and renderbuffers).
//!
//! The answers follow Mesa's `formatquery.c` step by step, so that they are the ones native
//! Mesa gives: a pname first gets the extension's "unsupported" answer (0, `NONE` or
//! `FALSE`); it is replaced only when the target is one the context has, the internal
//! format is one the engine accepts for the target, and (for the pnames that describe a
//! resource) the pair makes a resource. Where Mesa asks its driver (the gallium state
//! tracker), the answer is the one the state tracker gives for every format it can
//! allocate (`FULL_SUPPORT`, or the format itself for `INTERNALFORMAT_PREFERRED`); the
//! formats themselves are the engine's own: what `glTexImage*`, `glTexBuffer` and
//! `glRenderbufferStorage` accept, in the storage format the engine gives them
//! ([`facts`]). The sample counts are the ones the engine gives images
//! (`Limits::allocated_samples`): every count of two or more samples the backend has
//! ([`Limits::sample_counts`]) up to `MAX_SAMPLES`, largest first.
//!
//! Errors are Mesa's: a target or pname outside the extension's lists is `INVALID_ENUM`
//! (`CLEAR_TEXTURE` too, as native llvmpipe answers it), a negative
//! `bufSize` `INVALID_VALUE`. At most `bufSize` values are written, none past them, and
//! `MAX_COMBINED_DIMENSIONS`, a 64-bit value, is written as two 32-bit halves by the 32-bit
//! query, as Mesa does.
//!
//! [`Limits::sample_counts`]: crate::limits::Limits::sample_counts

mod facts;

use tessera_components::gl::*;

use crate::context::Context;
use crate::renderbuffer::renderbuffer_format;
use crate::texture::buffer_texture_format;

/// The most values one query answers (Mesa's buffer).
const MAX_VALUES: usize = 16;

/// Whether `pname` is one of the extensions' (Mesa's `_legal_parameters`).
fn legal_pname(pname: GLenum) -> bool {
    matches!(
        pname,
        SAMPLES
            | NUM_SAMPLE_COUNTS
            | INTERNALFORMAT_SUPPORTED
            | INTERNALFORMAT_PREFERRED
            | INTERNALFORMAT_RED_SIZE
            | INTERNALFORMAT_GREEN_SIZE
            | INTERNALFORMAT_BLUE_SIZE
            | INTERNALFORMAT_ALPHA_SIZE
            | INTERNALFORMAT_DEPTH_SIZE
            | INTERNALFORMAT_STENCIL_SIZE
            | INTERNALFORMAT_SHARED_SIZE
            | INTERNALFORMAT_RED_TYPE
            | INTERNALFORMAT_GREEN_TYPE
            | INTERNALFORMAT_BLUE_TYPE
            | INTERNALFORMAT_ALPHA_TYPE
            | INTERNALFORMAT_DEPTH_TYPE
            | INTERNALFORMAT_STENCIL_TYPE
            | MAX_WIDTH
            | MAX_HEIGHT
            | MAX_DEPTH
            | MAX_LAYERS
            | MAX_COMBINED_DIMENSIONS
            | COLOR_COMPONENTS
            | DEPTH_COMPONENTS
            | STENCIL_COMPONENTS
            | COLOR_RENDERABLE
            | DEPTH_RENDERABLE
            | STENCIL_RENDERABLE
            | FRAMEBUFFER_RENDERABLE
            | FRAMEBUFFER_RENDERABLE_LAYERED
            | FRAMEBUFFER_BLEND
            | READ_PIXELS
            | READ_PIXELS_FORMAT
            | READ_PIXELS_TYPE
            | TEXTURE_IMAGE_FORMAT
            | TEXTURE_IMAGE_TYPE
            | GET_TEXTURE_IMAGE_FORMAT
            | GET_TEXTURE_IMAGE_TYPE
            | MIPMAP
            | MANUAL_GENERATE_MIPMAP
            | AUTO_GENERATE_MIPMAP
            | COLOR_ENCODING
            | SRGB_READ
            | SRGB_WRITE
            | FILTER
            | VERTEX_TEXTURE
            | TESS_CONTROL_TEXTURE
            | TESS_EVALUATION_TEXTURE
            | GEOMETRY_TEXTURE
            | FRAGMENT_TEXTURE
            | COMPUTE_TEXTURE
            | TEXTURE_SHADOW
            | TEXTURE_GATHER
            | TEXTURE_GATHER_SHADOW
            | SHADER_IMAGE_LOAD
            | SHADER_IMAGE_STORE
            | SHADER_IMAGE_ATOMIC
            | IMAGE_TEXEL_SIZE
            | IMAGE_COMPATIBILITY_CLASS
            | IMAGE_PIXEL_FORMAT
            | IMAGE_PIXEL_TYPE
            | IMAGE_FORMAT_COMPATIBILITY_TYPE
            | SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST
            | SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST
            | SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE
            | SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE
            | TEXTURE_COMPRESSED
            | TEXTURE_COMPRESSED_BLOCK_WIDTH
            | TEXTURE_COMPRESSED_BLOCK_HEIGHT
            | TEXTURE_COMPRESSED_BLOCK_SIZE
            | CLEAR_BUFFER
            | TEXTURE_VIEW
            | VIEW_COMPATIBILITY_CLASS
    )
}

/// The extension's "unsupported" answer (Mesa's `_set_default_response`): `None` for
/// `SAMPLES`, whose answer is a list with no entries.
fn unsupported(pname: GLenum) -> Option<GLint> {
    match pname {
        SAMPLES => None,
        INTERNALFORMAT_SUPPORTED
        | COLOR_COMPONENTS
        | DEPTH_COMPONENTS
        | STENCIL_COMPONENTS
        | COLOR_RENDERABLE
        | DEPTH_RENDERABLE
        | STENCIL_RENDERABLE
        | MIPMAP
        | TEXTURE_COMPRESSED => Some(FALSE as GLint),
        _ => Some(0),
    }
}

/// Dimensions of a target's images (a buffer texture's one, a renderbuffer's two).
fn dimensions(target: GLenum) -> i32 {
    match target {
        TEXTURE_1D | TEXTURE_BUFFER => 1,
        TEXTURE_3D | TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP_ARRAY | TEXTURE_2D_MULTISAMPLE_ARRAY => 3,
        _ => 2,
    }
}

/// The limit a `MAX_WIDTH`, `MAX_HEIGHT` or `MAX_DEPTH` answer is (Mesa's
/// `_equivalent_size_pname`), whatever the format.
fn size_limit(l: &crate::limits::Limits, target: GLenum, pname: GLenum) -> i32 {
    match target {
        TEXTURE_1D | TEXTURE_2D | TEXTURE_2D_MULTISAMPLE => l.max_texture_size,
        TEXTURE_3D => l.max_3d_texture_size,
        TEXTURE_CUBE_MAP => l.max_cube_size,
        TEXTURE_RECTANGLE => l.max_rectangle_size,
        RENDERBUFFER => l.max_renderbuffer_size,
        TEXTURE_1D_ARRAY if pname == MAX_HEIGHT => l.max_array_layers,
        TEXTURE_2D_ARRAY | TEXTURE_2D_MULTISAMPLE_ARRAY | TEXTURE_CUBE_MAP_ARRAY
            if pname == MAX_DEPTH =>
        {
            l.max_array_layers
        }
        TEXTURE_1D_ARRAY | TEXTURE_2D_ARRAY | TEXTURE_2D_MULTISAMPLE_ARRAY => l.max_texture_size,
        TEXTURE_CUBE_MAP_ARRAY => l.max_cube_size,
        TEXTURE_BUFFER => l.max_texture_buffer_size,
        _ => 0,
    }
}

impl Context {
    /// The sample counts a renderable format gets, largest first.
    fn sample_counts(&self) -> Vec<GLint> {
        let l = &self.local.limits;
        (1..31)
            .rev()
            .map(|k| 1i32 << k)
            .filter(|&n| n <= l.max_samples && l.sample_counts & n as u32 != 0)
            .collect()
    }

    /// `glGetInternalformativ`.
    pub fn get_internalformativ(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
        params: &mut [GLint],
    ) {
        if !matches!(
            target,
            TEXTURE_1D
                | TEXTURE_1D_ARRAY
                | TEXTURE_2D
                | TEXTURE_2D_ARRAY
                | TEXTURE_3D
                | TEXTURE_CUBE_MAP
                | TEXTURE_CUBE_MAP_ARRAY
                | TEXTURE_RECTANGLE
                | TEXTURE_BUFFER
                | RENDERBUFFER
                | TEXTURE_2D_MULTISAMPLE
                | TEXTURE_2D_MULTISAMPLE_ARRAY
        ) || !legal_pname(pname)
        {
            return self.error(INVALID_ENUM);
        }
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let mut values = [0; MAX_VALUES];
        let n = self.answer(target, internalformat, pname, &mut values);
        for (out, v) in params.iter_mut().zip(&values[..n]).take(buf_size as usize) {
            *out = *v;
        }
    }

    /// `glGetInternalformati64v`: the 32-bit query's answer, widened
    /// (`MAX_COMBINED_DIMENSIONS` whole).
    pub fn get_internalformati64v(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
        params: &mut [i64],
    ) {
        let mut values = [0; MAX_VALUES];
        // Mesa asks the 32-bit query for two values of MAX_COMBINED_DIMENSIONS and joins them
        // (whatever bufSize, 0 aside), so a bufSize of 1 still gets the 64-bit value.
        let call = if pname == MAX_COMBINED_DIMENSIONS && buf_size > 0 {
            2
        } else {
            buf_size
        };
        let len = call.clamp(0, MAX_VALUES as GLsizei) as usize;
        let mut written = [-1; MAX_VALUES];
        self.get_internalformativ(target, internalformat, pname, call, &mut written[..len]);
        values[..len].copy_from_slice(&written[..len]);
        if pname == MAX_COMBINED_DIMENSIONS && len >= 2 {
            if let Some(out) = params.first_mut() {
                *out = (i64::from(values[1]) << 32) | i64::from(values[0] as u32);
            }
            return;
        }
        // Values the query left alone stay -1: no answer is negative.
        for (out, &v) in params.iter_mut().zip(&values[..len]) {
            if v < 0 {
                break;
            }
            *out = i64::from(v);
        }
    }

    /// Whether the context has textures (or renderbuffers) of `target` (Mesa's
    /// `_is_target_supported`).
    fn query_target_supported(&self, target: GLenum) -> bool {
        target != TEXTURE_CUBE_MAP_ARRAY || self.local.limits.cube_map_arrays
    }

    /// Whether the engine takes `internal` for `target` at all (Mesa's
    /// `_is_internalformat_supported`): what `glRenderbufferStorage`, `glTexBuffer` or the
    /// `glTexImage*` family accept.
    fn query_format_supported(&self, target: GLenum, internal: GLenum) -> bool {
        match target {
            RENDERBUFFER => renderbuffer_format(internal).is_some(),
            TEXTURE_BUFFER => {
                buffer_texture_format(internal, self.local.limits.texture_buffer_rgb32).is_some()
            }
            _ => self.texture_format_supported(internal),
        }
    }

    /// Whether a texture may have the internal format (BPTC where the backend has it).
    fn texture_format_supported(&self, internal: GLenum) -> bool {
        crate::texture::internal_format(internal, self.local.limits.texture_stencil8).is_some()
            && (self.local.limits.bptc
                || !matches!(
                    internal,
                    COMPRESSED_RGBA_BPTC_UNORM
                        | COMPRESSED_SRGB_ALPHA_BPTC_UNORM
                        | COMPRESSED_RGB_BPTC_SIGNED_FLOAT
                        | COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT
                ))
    }

    /// Whether `target` and `internal` make a resource (Mesa's `_is_resource_supported`);
    /// the pnames that do not describe a resource skip this.
    fn query_resource_supported(&self, target: GLenum, internal: GLenum, pname: GLenum) -> bool {
        if matches!(
            pname,
            INTERNALFORMAT_SUPPORTED
                | INTERNALFORMAT_PREFERRED
                | COLOR_COMPONENTS
                | DEPTH_COMPONENTS
                | STENCIL_COMPONENTS
                | COLOR_RENDERABLE
                | DEPTH_RENDERABLE
                | STENCIL_RENDERABLE
        ) {
            return true;
        }
        match target {
            TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY => renderable(internal),
            TEXTURE_BUFFER | RENDERBUFFER => true,
            _ => {
                // Depth and stencil images have no third dimension (the sized stencil-only
                // formats included: Mesa checks the base format here).
                let depth_stencil = facts::is_depth(internal)
                    || facts::is_stencil(internal)
                    || facts::is_depth_stencil(internal)
                    || matches!(
                        internal,
                        STENCIL_INDEX1 | STENCIL_INDEX4 | STENCIL_INDEX8 | STENCIL_INDEX16
                    );
                if depth_stencil && target == TEXTURE_3D {
                    return false;
                }
                !facts::is_compressed(internal) || facts::compressed_target(internal, target)
            }
        }
    }

    /// The answer of a valid query into `out`; how many values it has.
    fn answer(
        &mut self,
        target: GLenum,
        internal: GLenum,
        pname: GLenum,
        out: &mut [GLint; MAX_VALUES],
    ) -> usize {
        let Some(default) = unsupported(pname) else {
            // SAMPLES: the counts, or no entries.
            if self.query_target_supported(target)
                && self.query_format_supported(target, internal)
                && self.query_resource_supported(target, internal, pname)
                && multisample_target(target)
                && renderable(internal)
            {
                let counts = self.sample_counts();
                let n = counts.len().min(MAX_VALUES);
                out[..n].copy_from_slice(&counts[..n]);
                return n;
            }
            return 0;
        };
        out[0] = default;
        let one = if pname == MAX_COMBINED_DIMENSIONS {
            2
        } else {
            1
        };
        if !self.query_target_supported(target)
            || !self.query_format_supported(target, internal)
            || !self.query_resource_supported(target, internal, pname)
        {
            return one;
        }
        if let Some(v) = self.value(target, internal, pname) {
            if pname == MAX_COMBINED_DIMENSIONS {
                out[0] = v as i32;
                out[1] = (v >> 32) as i32;
            } else {
                out[0] = v as GLint;
            }
        }
        one
    }

    /// The answer of a supported resource; `None` keeps the unsupported answer.
    fn value(&mut self, target: GLenum, internal: GLenum, pname: GLenum) -> Option<i64> {
        let full = Some(i64::from(FULL_SUPPORT));
        let l = &self.local.limits;
        let images = l.image_load_store;
        let yes = |b: bool| b.then_some(i64::from(TRUE));
        match pname {
            NUM_SAMPLE_COUNTS => {
                if !multisample_target(target) || !renderable(internal) {
                    return None;
                }
                Some(self.sample_counts().len() as i64)
            }
            INTERNALFORMAT_SUPPORTED => yes(true),
            INTERNALFORMAT_PREFERRED => preferred(internal).then_some(i64::from(internal)),
            INTERNALFORMAT_SHARED_SIZE => {
                (facts::storage(internal)? == tessera_wire::format::Format::Rgb9E5).then_some(5)
            }
            INTERNALFORMAT_RED_SIZE
            | INTERNALFORMAT_GREEN_SIZE
            | INTERNALFORMAT_BLUE_SIZE
            | INTERNALFORMAT_ALPHA_SIZE
            | INTERNALFORMAT_DEPTH_SIZE
            | INTERNALFORMAT_STENCIL_SIZE => {
                let base = facts::base_format(internal)?;
                let f = facts::storage(internal)?;
                facts::base_has_channel(base, pname)
                    .then(|| i64::from(facts::channel_bits(f, pname)))
            }
            INTERNALFORMAT_RED_TYPE
            | INTERNALFORMAT_GREEN_TYPE
            | INTERNALFORMAT_BLUE_TYPE
            | INTERNALFORMAT_ALPHA_TYPE
            | INTERNALFORMAT_DEPTH_TYPE
            | INTERNALFORMAT_STENCIL_TYPE => {
                let base = facts::base_format(internal)?;
                let f = facts::storage(internal)?;
                facts::base_has_channel(base, pname).then(|| i64::from(facts::data_type(f)))
            }
            MAX_WIDTH | MAX_HEIGHT | MAX_DEPTH => {
                let min = match pname {
                    MAX_WIDTH => 1,
                    MAX_HEIGHT => 2,
                    _ => 3,
                };
                (dimensions(target) >= min).then(|| i64::from(size_limit(l, target, pname)))
            }
            MAX_LAYERS => matches!(
                target,
                TEXTURE_1D_ARRAY
                    | TEXTURE_2D_ARRAY
                    | TEXTURE_CUBE_MAP_ARRAY
                    | TEXTURE_2D_MULTISAMPLE_ARRAY
            )
            .then(|| i64::from(l.max_array_layers)),
            MAX_COMBINED_DIMENSIONS => {
                let mut combined = 1i64;
                for p in [MAX_WIDTH, MAX_HEIGHT, MAX_DEPTH] {
                    let v = self.value(target, internal, p).unwrap_or(0);
                    if v != 0 {
                        combined *= v;
                    }
                }
                if multisample_target(target) && target != RENDERBUFFER {
                    let mut samples = [0; MAX_VALUES];
                    if self.answer(target, internal, SAMPLES, &mut samples) > 0 {
                        combined *= i64::from(samples[0]);
                    }
                }
                if matches!(target, TEXTURE_CUBE_MAP | TEXTURE_CUBE_MAP_ARRAY) {
                    combined *= 6;
                }
                Some(combined)
            }
            COLOR_COMPONENTS => yes(facts::is_color(internal)),
            DEPTH_COMPONENTS => yes(facts::is_depth(internal) || facts::is_depth_stencil(internal)),
            STENCIL_COMPONENTS => {
                yes(facts::is_stencil(internal) || facts::is_depth_stencil(internal))
            }
            COLOR_RENDERABLE => yes(renderable(internal) && facts::is_color(internal)),
            DEPTH_RENDERABLE => yes(renderable(internal)
                && matches!(
                    facts::base_format(internal),
                    Some(DEPTH_COMPONENT | DEPTH_STENCIL)
                )),
            STENCIL_RENDERABLE => yes(renderable(internal)
                && matches!(
                    facts::base_format(internal),
                    Some(STENCIL_INDEX | DEPTH_STENCIL)
                )),
            FRAMEBUFFER_RENDERABLE_LAYERED
                if matches!(
                    target,
                    TEXTURE_3D
                        | TEXTURE_1D_ARRAY
                        | TEXTURE_2D_ARRAY
                        | TEXTURE_CUBE_MAP_ARRAY
                        | TEXTURE_2D_MULTISAMPLE_ARRAY
                        | TEXTURE_CUBE_MAP
                ) =>
            {
                // Mesa answers for the targets that have no layers, and not for those that
                // have them.
                None
            }
            FRAMEBUFFER_RENDERABLE | FRAMEBUFFER_RENDERABLE_LAYERED | FRAMEBUFFER_BLEND => {
                (target != TEXTURE_BUFFER && renderable(internal)).then_some(full?)
            }
            // Native Mesa gives the unsupported answer for every format and target.
            READ_PIXELS => None,
            READ_PIXELS_FORMAT => match facts::base_format(internal)? {
                b @ (STENCIL_INDEX | DEPTH_COMPONENT | DEPTH_STENCIL | RED | RGB | RGBA) => {
                    Some(i64::from(b))
                }
                _ => None,
            },
            READ_PIXELS_TYPE | TEXTURE_IMAGE_TYPE | GET_TEXTURE_IMAGE_TYPE => {
                facts::base_format(internal)?;
                Some(i64::from(match facts::integer(internal) {
                    Some(false) => UNSIGNED_BYTE,
                    Some(true) => BYTE,
                    None => FLOAT,
                }))
            }
            TEXTURE_IMAGE_FORMAT | GET_TEXTURE_IMAGE_FORMAT | IMAGE_PIXEL_FORMAT => {
                if pname == IMAGE_PIXEL_FORMAT
                    && (!images
                        || target == RENDERBUFFER
                        || !crate::image::is_image_format(internal))
                {
                    return None;
                }
                let base = facts::base_format(internal)?;
                Some(i64::from(if facts::integer(internal).is_some() {
                    facts::integer_format(base)
                } else {
                    base
                }))
            }
            MIPMAP | MANUAL_GENERATE_MIPMAP => {
                let target_ok = matches!(
                    target,
                    TEXTURE_1D
                        | TEXTURE_2D
                        | TEXTURE_3D
                        | TEXTURE_CUBE_MAP
                        | TEXTURE_1D_ARRAY
                        | TEXTURE_2D_ARRAY
                        | TEXTURE_CUBE_MAP_ARRAY
                );
                let format_ok = facts::integer(internal).is_none()
                    && !facts::is_depth_stencil(internal)
                    && !facts::is_stencil(internal);
                if !target_ok || !format_ok {
                    return None;
                }
                if pname == MIPMAP { yes(true) } else { full }
            }
            // Core profiles of 3.2 and later have no automatic mipmap generation.
            AUTO_GENERATE_MIPMAP => None,
            COLOR_ENCODING => facts::is_color(internal).then(|| {
                i64::from(if facts::is_srgb(internal) {
                    SRGB
                } else {
                    LINEAR
                })
            }),
            SRGB_READ => facts::is_srgb(internal).then_some(full?),
            SRGB_WRITE => facts::is_color(internal).then_some(full?),
            FILTER => (!multisample_target(target) || target == RENDERBUFFER)
                .then_some(())
                .filter(|()| facts::integer(internal).is_none() && target != TEXTURE_BUFFER)
                .and(full),
            VERTEX_TEXTURE
            | TESS_CONTROL_TEXTURE
            | TESS_EVALUATION_TEXTURE
            | GEOMETRY_TEXTURE
            | FRAGMENT_TEXTURE
            | COMPUTE_TEXTURE => {
                let stage = match pname {
                    TESS_CONTROL_TEXTURE | TESS_EVALUATION_TEXTURE => l.has_tessellation(),
                    COMPUTE_TEXTURE => l.has_compute(),
                    _ => true,
                };
                (target != RENDERBUFFER && stage).then_some(full?)
            }
            TEXTURE_SHADOW | TEXTURE_GATHER | TEXTURE_GATHER_SHADOW => {
                if pname != TEXTURE_SHADOW && l.gather.is_none() {
                    return None;
                }
                if pname != TEXTURE_GATHER
                    && !facts::is_depth(internal)
                    && !facts::is_depth_stencil(internal)
                {
                    return None;
                }
                match target {
                    TEXTURE_2D
                    | TEXTURE_2D_ARRAY
                    | TEXTURE_CUBE_MAP
                    | TEXTURE_CUBE_MAP_ARRAY
                    | TEXTURE_RECTANGLE => full,
                    TEXTURE_1D | TEXTURE_1D_ARRAY if pname == TEXTURE_SHADOW => full,
                    _ => None,
                }
            }
            SHADER_IMAGE_LOAD | SHADER_IMAGE_STORE => {
                (images && target != RENDERBUFFER && crate::image::is_image_format(internal))
                    .then_some(full?)
            }
            SHADER_IMAGE_ATOMIC => images.then_some(full?),
            IMAGE_TEXEL_SIZE => {
                (images && target != RENDERBUFFER && crate::image::is_image_format(internal))
                    .then(|| i64::from(facts::texel_bits(internal)))
            }
            IMAGE_COMPATIBILITY_CLASS => {
                (images && target != RENDERBUFFER).then(|| i64::from(facts::image_class(internal)))
            }
            IMAGE_PIXEL_TYPE => {
                let ty = facts::image_pixel_type(internal);
                (images && target != RENDERBUFFER && ty != NONE).then_some(i64::from(ty))
            }
            IMAGE_FORMAT_COMPATIBILITY_TYPE => (images
                && !matches!(target, TEXTURE_BUFFER | RENDERBUFFER))
            .then_some(i64::from(IMAGE_FORMAT_COMPATIBILITY_BY_SIZE)),
            SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST
            | SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST
            | SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE
            | SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE => {
                if target == RENDERBUFFER {
                    return None;
                }
                let depth = matches!(
                    pname,
                    SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST | SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE
                );
                let ok = facts::is_depth_stencil(internal)
                    || (depth && facts::is_depth(internal))
                    || (!depth && facts::is_stencil(internal));
                ok.then_some(full?)
            }
            TEXTURE_COMPRESSED => yes(facts::is_compressed(internal)),
            TEXTURE_COMPRESSED_BLOCK_WIDTH
            | TEXTURE_COMPRESSED_BLOCK_HEIGHT
            | TEXTURE_COMPRESSED_BLOCK_SIZE => {
                if !facts::is_compressed(internal) {
                    return None;
                }
                let f = facts::storage(internal)?;
                let bytes = crate::texture::block_bytes(f)? as i64;
                // Mesa divides the block's bytes by its height for the width and by its
                // width for the height (4 x 4 blocks here).
                Some(if pname == TEXTURE_COMPRESSED_BLOCK_SIZE {
                    bytes
                } else {
                    bytes / 4
                })
            }
            CLEAR_BUFFER => (target == TEXTURE_BUFFER).then_some(full?),
            TEXTURE_VIEW | VIEW_COMPATIBILITY_CLASS => {
                if !l.texture_views || matches!(target, TEXTURE_BUFFER | RENDERBUFFER) {
                    return None;
                }
                if pname == TEXTURE_VIEW {
                    return full;
                }
                let class = facts::view_class(internal);
                (class != NONE).then_some(i64::from(class))
            }
            _ => None,
        }
    }
}

/// Multisampled images: the two multisample texture targets and renderbuffers.
fn multisample_target(target: GLenum) -> bool {
    matches!(
        target,
        RENDERBUFFER | TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY
    )
}

/// Colour-, depth- or stencil-renderable (Mesa's `_is_renderable`): what a renderbuffer
/// takes.
fn renderable(internal: GLenum) -> bool {
    renderbuffer_format(internal).is_some()
}

/// The formats the state tracker prefers as they are: those it can render to.
fn preferred(internal: GLenum) -> bool {
    facts::storage(internal).is_some_and(|f| {
        let info = f.info();
        !info.compressed && (info.color_renderable || info.depth_bits > 0 || info.stencil_bits > 0)
    })
}
