//! Texture bindings: which texture and sampler CSO each sampler slot of the bound program
//! reads, texture completeness, and texture views.
//!
//! GL binds textures to *units* and lets the program's sampler uniforms name units; records
//! bind per *sampler slot* of the program (a Vulkan descriptor, a GLES sampler uniform fixed
//! at program creation). The mapping is resolved here, at verb time, through the program's
//! `sampler_units`.

use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{Sampler, SamplerParams, Texture};
use tessera_components::state::{ContextState, TextureTarget};
use tessera_wire::format::{CompareFunc, Filter, FormatClass, MipFilter, Wrap};
use tessera_wire::record::Record;
use tessera_wire::state::{MAX_TEXTURE_UNITS, SamplerState, TextureView};

use crate::conv::{map_compare_func, map_mag_filter, map_min_filter, map_swizzle, map_wrap};
use crate::device::Device;
use crate::shadow::{Shadow, changed};

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

/// Whether a texture is complete for sampling with `params` (GL 3.3 §3.8.14). An incomplete
/// texture samples as (0, 0, 0, 1); the engine binds nothing for it.
pub fn is_complete(t: &Texture, params: &SamplerParams) -> bool {
    let Some(target) = t.target else { return false };
    if target == TextureTarget::Buffer {
        return t.buffer.is_some();
    }
    let base = t.base_level;
    if base < 0 || base as usize >= t.images[0].len() || base > t.max_level {
        return false;
    }
    let faces = if target == TextureTarget::Cube { 6 } else { 1 };
    let base_image = t.images[0][base as usize];
    if base_image.internal_format == 0 || base_image.width <= 0 {
        return false;
    }
    let Some(format) = base_image.format else {
        return false;
    };
    if matches!(
        target,
        TextureTarget::D2Multisample | TextureTarget::D2MultisampleArray
    ) {
        return true;
    }
    // Integer textures cannot be filtered.
    let class = format.info().class;
    if matches!(class, FormatClass::Int | FormatClass::Uint) {
        let (min, mip) =
            map_min_filter(params.min_filter).unwrap_or((Filter::Nearest, MipFilter::None));
        if min == Filter::Linear || mip == MipFilter::Linear || params.mag_filter == LINEAR {
            return false;
        }
    }
    if target == TextureTarget::Cube {
        for face in 1..faces {
            let img = t.images[face][base as usize];
            if img.internal_format != base_image.internal_format
                || img.width != base_image.width
                || img.height != base_image.height
                || img.width != img.height
            {
                return false;
            }
        }
    }
    let mipmapped = !matches!(params.min_filter, NEAREST | LINEAR);
    if !mipmapped || target == TextureTarget::Rectangle {
        return true;
    }
    let layered = matches!(target, TextureTarget::D1Array | TextureTarget::D2Array);
    let (mut w, mut h, mut d) = (base_image.width, base_image.height, base_image.depth);
    let top = t.max_level.min(t.images[0].len() as i32 - 1);
    for level in base + 1..=top {
        if w == 1 && h == 1 && (d == 1 || layered) {
            break;
        }
        w = (w / 2).max(1);
        if target != TextureTarget::D1 && target != TextureTarget::D1Array {
            h = (h / 2).max(1);
        }
        if target == TextureTarget::D3 {
            d = (d / 2).max(1);
        }
        for face in 0..faces {
            let img = t.images[face][level as usize];
            if img.internal_format != base_image.internal_format
                || img.width != w
                || img.height != h
                || img.depth != d
            {
                return false;
            }
        }
    }
    true
}

/// The view of a texture: level range and swizzle.
pub fn texture_view(t: &Texture) -> TextureView {
    let swz = |i: usize| map_swizzle(t.swizzle[i]).unwrap_or(TextureView::default().swizzle[i]);
    TextureView {
        base_level: t.base_level.max(0) as u32,
        max_level: t.max_level.max(0) as u32,
        swizzle: [swz(0), swz(1), swz(2), swz(3)],
    }
}

/// Emits `BindTexture` for the program's sampler slots, given as (unit, target) pairs, whose
/// unit is in `units` (a bit per texture unit), and `SetTextureView` for bound textures whose
/// view changed.
pub fn emit_textures(
    st: &ContextState,
    slots: &[(u32, TextureTarget)],
    units: u64,
    world: &mut World,
    dev: &mut Device,
    shadow: &mut Shadow,
) {
    for (slot, &(unit, target)) in slots.iter().enumerate() {
        let unit = unit as usize;
        if unit >= MAX_TEXTURE_UNITS || units & (1 << unit) == 0 || slot >= MAX_TEXTURE_UNITS {
            continue;
        }
        let binding = match st.textures[unit][target as usize] {
            None => (None, None),
            Some(entity) => {
                let sampler_params = st.samplers[unit]
                    .and_then(|s| world.get::<Sampler>(s))
                    .map(|s| s.params);
                match world.get_mut::<Texture>(entity) {
                    None => (None, None),
                    Some(mut texture) => {
                        let params = sampler_params.unwrap_or(texture.sampler);
                        if !is_complete(&texture, &params) {
                            (None, None)
                        } else {
                            if texture.view_synced != Some(texture.params_generation) {
                                texture.view_synced = Some(texture.params_generation);
                                dev.push(Record::SetTextureView {
                                    texture: texture.handle,
                                    view: texture_view(&texture),
                                });
                            }
                            let key = sampler_state(&params);
                            let Device {
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
                            (Some(texture.handle), Some(cso))
                        }
                    }
                }
            }
        };
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
