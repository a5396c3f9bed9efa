//! Texture bindings: which texture and sampler CSO each sampler slot of the bound program
//! reads, texture completeness, and texture views.
//!
//! GL binds textures to *units* and lets the program's sampler uniforms name units; records
//! bind per *sampler slot* of the program (a Vulkan descriptor, a GLES sampler uniform fixed
//! at program creation). The mapping is resolved here, at verb time, through the program's
//! `sampler_units`.
//!
//! Completeness (GL 3.3 §3.8.14) is decided here too, with the sampling parameters that
//! apply (a bound sampler object's, else the texture's own): an incomplete texture is bound
//! as `None`, which samples (0, 0, 0, 1). The view a backend gets (`SetTextureView`) covers
//! the base level up to the last level that continues the mipmap chain consistently, so a
//! backend never has to look at an undefined level.

use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{
    Image, MAX_LEVELS, Sampler, SamplerParams, Texture, TextureBindingCache,
};
use tessera_components::state::{GlState, TextureTarget};
use tessera_wire::format::{CompareFunc, Filter, FormatClass, MipFilter, Wrap};
use tessera_wire::record::Record;
use tessera_wire::state::{MAX_TEXTURE_UNITS, SamplerState, TextureView};

use crate::conv::{map_compare_func, map_mag_filter, map_min_filter, map_swizzle, map_wrap};
use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;

/// The sampler CSO key of a set of sampling parameters.
pub fn sampler_state(p: &SamplerParams) -> SamplerState {
    let (min_filter, mip_filter) =
        map_min_filter(p.min_filter).unwrap_or((Filter::Nearest, MipFilter::Linear));
    let wrap = |w: GLenum| map_wrap(w).unwrap_or(Wrap::Repeat);
    SamplerState {
        mag_filter: map_mag_filter(p.mag_filter).unwrap_or(Filter::Linear),
        min_filter,
        mip_filter,
        wrap: [wrap(p.wrap[0]), wrap(p.wrap[1]), wrap(p.wrap[2])],
        compare: (p.compare_mode == COMPARE_REF_TO_TEXTURE)
            .then(|| map_compare_func(p.compare_func).unwrap_or(CompareFunc::LessEqual)),
        min_lod: p.min_lod,
        max_lod: p.max_lod,
        lod_bias: p.lod_bias,
        max_anisotropy: p.max_anisotropy,
        border_color: p.border_color,
        border_is_integer: p.border_kind != FLOAT,
    }
}

/// Whether an image exists with every dimension positive.
fn has_texels(image: &Image) -> bool {
    image.is_defined()
        && image.format.is_some()
        && image.width > 0
        && image.height > 0
        && image.depth > 0
}

/// `floor(log2(n))` for `n >= 1`.
fn log2(n: i32) -> i32 {
    31 - (n.max(1) as u32).leading_zeros() as i32
}

/// The dimensions level `base + k` must have in the mipmap chain of a `target` texture whose
/// base level is `base` (GL 3.3 §3.8.11): sizes halve, array layers do not.
pub fn chain_size(target: TextureTarget, base: &Image, k: i32) -> (i32, i32, i32) {
    let half = |n: i32| (n >> k.min(31)).max(1);
    match target {
        TextureTarget::D1 => (half(base.width), 1, 1),
        TextureTarget::D1Array => (half(base.width), base.height, 1),
        TextureTarget::D2Array | TextureTarget::CubeArray => {
            (half(base.width), half(base.height), base.depth)
        }
        TextureTarget::D3 => (half(base.width), half(base.height), half(base.depth)),
        _ => (half(base.width), half(base.height), 1),
    }
}

/// `p` of GL 3.3 §3.8.11: how many levels above the base the chain of a base image has.
pub fn chain_length(target: TextureTarget, base: &Image) -> i32 {
    let largest = match target {
        TextureTarget::D1 | TextureTarget::D1Array => base.width,
        TextureTarget::D3 => base.width.max(base.height).max(base.depth),
        _ => base.width.max(base.height),
    };
    log2(largest)
}

/// The last level `q` of the chain from the texture's base level, capped by
/// `TEXTURE_MAX_LEVEL` and by the levels a texture can have.
fn chain_top(t: &Texture, target: TextureTarget, base: usize) -> usize {
    let top = base as i64 + i64::from(chain_length(target, &t.images[0][base]));
    top.min(i64::from(t.level_range().1))
        .min(MAX_LEVELS as i64 - 1)
        .max(0) as usize
}

/// Whether level `level` of every face continues the chain from `base`.
fn continues_chain(t: &Texture, target: TextureTarget, base: usize, level: usize) -> bool {
    let faces = if target == TextureTarget::Cube { 6 } else { 1 };
    (0..faces).all(|face| {
        let b = &t.images[face][base];
        let img = &t.images[face][level];
        let (w, h, d) = chain_size(target, b, (level - base) as i32);
        img.is_defined()
            && img.internal_format == b.internal_format
            && (img.width, img.height, img.depth) == (w, h, d)
    })
}

/// Whether a texture is complete for sampling with `params` (GL 3.3 §3.8.14). An incomplete
/// texture samples as (0, 0, 0, 1); the engine binds nothing for it.
///
/// - Buffer textures are complete once they have a buffer.
/// - Multisample textures need a level-0 image with positive dimensions; filters do not
///   apply to them.
/// - Otherwise the base level needs positive dimensions; a cube map must be cube complete
///   (six base images of one internal format and one positive, square size); an integer
///   format needs `NEAREST` magnification and `NEAREST` or `NEAREST_MIPMAP_NEAREST`
///   minification; and a minification filter that uses mipmaps needs the texture to be
///   mipmap complete (base level at most the max level, and every level of the chain up to
///   `q` of the same internal format and of the halved size, on every face).
///
/// Depth formats have no filter rule in GL 3.3 (sampling them with a shadow sampler and
/// `TEXTURE_COMPARE_MODE = NONE` is undefined, not incomplete). Rectangle textures have one
/// level, so a mipmap filter (possible through a sampler object) reads just that level, as
/// Mesa does.
pub fn is_complete(t: &Texture, params: &SamplerParams) -> bool {
    let Some(target) = t.target else { return false };
    match target {
        TextureTarget::Buffer => return t.buffer.is_some(),
        TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray => {
            return has_texels(&t.images[0][0]);
        }
        _ => {}
    }
    let (base_level, max_level) = t.level_range();
    let base = if target == TextureTarget::Rectangle {
        0
    } else {
        base_level
    };
    let Some(base) = usize::try_from(base).ok().filter(|b| *b < MAX_LEVELS) else {
        return false;
    };
    let b = &t.images[0][base];
    if !has_texels(b) {
        return false;
    }
    if target == TextureTarget::Cube {
        let cube_complete = t.images.iter().all(|face| {
            let img = &face[base];
            has_texels(img)
                && img.internal_format == b.internal_format
                && img.width == img.height
                && (img.width, img.height) == (b.width, b.height)
        });
        if !cube_complete {
            return false;
        }
    }
    // A depth-stencil image sampled for its stencil, and a stencil-only one, read unsigned
    // integers (GL 4.3 §8.17, GL 4.4's ARB_texture_stencil8, as Mesa).
    let integer = b.format.is_some_and(|f| {
        matches!(
            f.info().class,
            FormatClass::Int | FormatClass::Uint | FormatClass::Stencil
        )
    }) || samples_stencil(t, b);
    if integer
        && (params.mag_filter != NEAREST
            || !matches!(params.min_filter, NEAREST | NEAREST_MIPMAP_NEAREST))
    {
        return false;
    }
    let mipmapped = !matches!(params.min_filter, NEAREST | LINEAR);
    if !mipmapped || target == TextureTarget::Rectangle {
        return true;
    }
    if base_level > max_level {
        return false;
    }
    let top = chain_top(t, target, base);
    (base + 1..=top).all(|level| continues_chain(t, target, base, level))
}

/// Whether `t`, whose base image is `base`, samples the stencil of a depth-stencil image
/// (`DEPTH_STENCIL_TEXTURE_MODE` = `STENCIL_INDEX`; the mode means nothing to other
/// formats).
fn samples_stencil(t: &Texture, base: &Image) -> bool {
    t.stencil_sampling
        && base.format.is_some_and(|f| {
            let i = f.info();
            i.depth_bits > 0 && i.stencil_bits > 0
        })
}

/// The view of a texture: its base level, the last level continuing the mipmap chain from
/// it (at most `TEXTURE_MAX_LEVEL`), the swizzle, and whether it samples stencil.
pub fn texture_view(t: &Texture) -> TextureView {
    let swz = |i: usize| map_swizzle(t.swizzle[i]).unwrap_or(TextureView::default().swizzle[i]);
    let target = t.target.unwrap_or(TextureTarget::D2);
    let base_level = t.level_range().0;
    let base = match target {
        TextureTarget::Rectangle
        | TextureTarget::D2Multisample
        | TextureTarget::D2MultisampleArray
        | TextureTarget::Buffer => 0,
        _ => base_level.clamp(0, MAX_LEVELS as i32 - 1) as usize,
    };
    let mut last = base;
    if has_texels(&t.images[0][base]) && base == base_level.max(0) as usize {
        let top = chain_top(t, target, base);
        while last < top && continues_chain(t, target, base, last + 1) {
            last += 1;
        }
    }
    TextureView {
        base_level: base as u32,
        max_level: last as u32,
        swizzle: [swz(0), swz(1), swz(2), swz(3)],
        stencil: samples_stencil(t, &t.images[0][base]),
    }
}

/// The texture handle and sampler CSO a sampler slot reading `target` of `unit` gets:
/// `(None, None)` when nothing complete is bound there. Sends the texture's view first if
/// the backend has an older one.
fn slot_binding(
    st: &GlState,
    unit: usize,
    target: TextureTarget,
    world: &mut World,
    dev: &mut Emitter,
) -> (
    Option<tessera_wire::handle::TextureHandle>,
    Option<tessera_wire::handle::SamplerHandle>,
) {
    let Some(entity) = st.textures[unit][target as usize] else {
        return (None, None);
    };
    let sampler = st.samplers[unit]
        .and_then(|s| world.get::<Sampler>(s).map(|x| (s, x.generation, x.params)));
    let sampler_key = sampler.map(|(e, generation, _)| (e, generation));
    // Fast path: the texture was bound for sampling before and nothing it depends on changed.
    {
        let Some(texture) = world.get::<Texture>(entity) else {
            return (None, None);
        };
        if let Some(c) = texture.binding_cache
            && c.images == texture.images_generation
            && c.params == texture.params_generation
            && c.sampler == sampler_key
            && c.cso.is_none_or(|h| dev.csos.sampler.is_live(h))
        {
            if !c.complete {
                return (None, None);
            }
            dev.csos.sampler.count_hit();
            return (Some(texture.handle), c.cso);
        }
    }
    let Some(mut texture) = world.get_mut::<Texture>(entity) else {
        return (None, None);
    };
    let params = sampler.map_or(texture.sampler, |(_, _, p)| p);
    let mut cache = TextureBindingCache {
        images: texture.images_generation,
        params: texture.params_generation,
        sampler: sampler_key,
        complete: false,
        cso: None,
    };
    if !is_complete(&texture, &params) {
        texture.binding_cache = Some(cache);
        return (None, None);
    }
    if texture.target != Some(TextureTarget::Buffer) {
        let view = texture_view(&texture);
        if texture.view_synced != Some(view) {
            texture.view_synced = Some(view);
            dev.push(Record::SetTextureView {
                texture: texture.handle,
                view,
            });
        }
    }
    let key = sampler_state(&params);
    let Emitter {
        enc, alloc, csos, ..
    } = &mut *dev;
    let cso = csos.sampler.get_or_create(
        &key,
        alloc,
        enc,
        |cso, state| Record::CreateSamplerState {
            cso,
            state: Box::new(*state),
        },
        |cso| Record::DestroySamplerState { cso },
    );
    cache.complete = true;
    cache.cso = Some(cso);
    texture.binding_cache = Some(cache);
    (Some(texture.handle), Some(cso))
}

/// Emits `BindTexture` for the program's sampler slots, given as (unit, target) pairs, whose
/// unit is in `units` (a bit per texture unit), and `SetTextureView` for bound textures whose
/// view changed.
pub fn emit_textures(
    st: &GlState,
    slots: &[(u32, TextureTarget)],
    units: u64,
    world: &mut World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    for (slot, &(unit, target)) in slots.iter().enumerate() {
        let unit = unit as usize;
        if unit >= MAX_TEXTURE_UNITS || units & (1 << unit) == 0 || slot >= MAX_TEXTURE_UNITS {
            continue;
        }
        let binding = slot_binding(st, unit, target, world, dev);
        let old = shadow.textures[slot];
        if changed(&mut shadow.textures[slot], binding) {
            dev.csos.sampler.rebind(old.and_then(|b| b.1), binding.1);
            dev.push(Record::BindTexture {
                slot: slot as u8,
                texture: binding.0,
                sampler: binding.1,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_wire::format::Format;
    use tessera_wire::handle::{Handle, RawHandle, TextureHandle};

    fn image(w: i32, h: i32, d: i32, internal_format: GLenum, format: Format) -> Image {
        Image {
            width: w,
            height: h,
            depth: d,
            internal_format,
            format: Some(format),
            ..Image::default()
        }
    }

    fn texture(target: TextureTarget) -> Texture {
        let handle = TextureHandle::from_raw(RawHandle {
            slot: 0,
            generation: 1,
        });
        Texture::new(handle, Some(target))
    }

    fn params(min: GLenum, mag: GLenum) -> SamplerParams {
        SamplerParams {
            min_filter: min,
            mag_filter: mag,
            ..SamplerParams::initial(None)
        }
    }

    #[test]
    fn a_full_chain_is_mipmap_complete_and_a_gap_is_not() {
        let mut t = texture(TextureTarget::D2);
        for (level, (w, h)) in [(8, 4), (4, 2), (2, 1), (1, 1)].into_iter().enumerate() {
            t.images[0][level] = image(w, h, 1, RGBA8, Format::Rgba8);
        }
        let mip = params(LINEAR_MIPMAP_LINEAR, LINEAR);
        assert!(is_complete(&t, &mip));
        assert_eq!(texture_view(&t).max_level, 3);
        t.images[0][2] = image(2, 2, 1, RGBA8, Format::Rgba8);
        assert!(!is_complete(&t, &mip));
        assert!(is_complete(&t, &params(LINEAR, LINEAR)));
        assert_eq!(texture_view(&t).max_level, 1);
        // MAX_LEVEL 1 makes the wrong level 2 insignificant.
        t.max_level = 1;
        assert!(is_complete(&t, &mip));
        // Base above max: not mipmap complete, still base complete.
        t.base_level = 2;
        assert!(!is_complete(&t, &mip));
        assert!(is_complete(&t, &params(NEAREST, NEAREST)));
    }

    #[test]
    fn array_layers_do_not_halve() {
        let mut t = texture(TextureTarget::D1Array);
        t.images[0][0] = image(4, 3, 1, RGBA8, Format::Rgba8);
        t.images[0][1] = image(2, 3, 1, RGBA8, Format::Rgba8);
        t.images[0][2] = image(1, 3, 1, RGBA8, Format::Rgba8);
        assert!(is_complete(&t, &params(NEAREST_MIPMAP_NEAREST, NEAREST)));
        t.images[0][2] = image(1, 1, 1, RGBA8, Format::Rgba8);
        assert!(!is_complete(&t, &params(NEAREST_MIPMAP_NEAREST, NEAREST)));
    }

    #[test]
    fn integer_textures_need_nearest_filters() {
        let mut t = texture(TextureTarget::D2);
        t.images[0][0] = image(1, 1, 1, RGBA8UI, Format::Rgba8ui);
        assert!(!is_complete(&t, &params(NEAREST, LINEAR)));
        assert!(!is_complete(&t, &params(NEAREST_MIPMAP_LINEAR, NEAREST)));
        assert!(is_complete(&t, &params(NEAREST_MIPMAP_NEAREST, NEAREST)));
        assert!(is_complete(&t, &params(NEAREST, NEAREST)));
    }

    #[test]
    fn cube_maps_must_be_cube_complete_even_without_mipmaps() {
        let mut t = texture(TextureTarget::Cube);
        for face in 0..5 {
            t.images[face][0] = image(4, 4, 1, RGBA8, Format::Rgba8);
        }
        let linear = params(LINEAR, LINEAR);
        assert!(!is_complete(&t, &linear));
        t.images[5][0] = image(2, 2, 1, RGBA8, Format::Rgba8);
        assert!(!is_complete(&t, &linear));
        t.images[5][0] = image(4, 4, 1, RGBA, Format::Rgba8);
        assert!(!is_complete(&t, &linear));
        t.images[5][0] = image(4, 4, 1, RGBA8, Format::Rgba8);
        assert!(is_complete(&t, &linear));
    }
}
