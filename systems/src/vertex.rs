//! Vertex input: the layout CSO of the bound vertex array, its buffers and offsets, the index
//! buffer, and the generic values of disabled attributes.
//!
//! GL 4.3 splits a vertex array into attribute formats and buffer binding points that
//! several attributes may share (`ARB_vertex_attrib_binding`). The wire keeps one binding
//! per attribute: attribute `i` reads slot `i`, with its binding point's buffer, stride and
//! divisor and the binding's offset plus its own relative offset. Both backends then fetch
//! exactly what GL fetches, and a program that rebinds one buffer for several attributes
//! emits one `SetVertexBuffer` per attribute that reads it.

use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use tessera_components::gl::*;
use tessera_components::object::{VertexArray, VertexAttribGl, VertexBindingGl};
use tessera_components::state::GlState;
use tessera_wire::format::{AttribType, VertexFormat};
use tessera_wire::record::Record;
use tessera_wire::state::{MAX_VERTEX_ATTRIBS, VertexAttrib, VertexLayout};

use crate::conv::map_attrib_type;
use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;

/// Bytes one element of an attribute occupies when tightly packed.
pub fn packed_size(a: &VertexAttribGl) -> u32 {
    let components = if a.size == BGRA as i32 {
        4
    } else {
        a.size.clamp(1, 4) as u32
    };
    match map_attrib_type(a.ty) {
        Some(AttribType::I8 | AttribType::U8) => components,
        Some(AttribType::I16 | AttribType::U16 | AttribType::F16) => 2 * components,
        Some(AttribType::F64) => 8 * components,
        Some(
            AttribType::I2_10_10_10Rev | AttribType::U2_10_10_10Rev | AttribType::U10f11f11fRev,
        ) => 4,
        _ => 4 * components,
    }
}

/// The wire form of one attribute, which reads `binding`.
pub fn vertex_attrib(a: &VertexAttribGl, binding: &VertexBindingGl) -> VertexAttrib {
    if !a.enabled {
        return VertexAttrib::default();
    }
    let bgra = a.size == BGRA as i32;
    VertexAttrib {
        format: VertexFormat {
            ty: map_attrib_type(a.ty).unwrap_or(AttribType::F32),
            components: if bgra { 4 } else { a.size as u8 },
            normalized: a.normalized,
            integer: a.integer || a.long,
            bgra,
        },
        stride: binding.stride,
        divisor: binding.divisor,
    }
}

/// The canonical layout CSO key of a vertex array.
pub fn vertex_layout(vao: &VertexArray) -> VertexLayout {
    let mut layout = VertexLayout::default();
    for (out, a) in layout.attribs.iter_mut().zip(&vao.attribs) {
        *out = vertex_attrib(a, &vao.bindings[usize::from(a.binding)]);
    }
    layout
}

/// Emits `BindVertexLayout` for the bound vertex array (creating the CSO on a miss; the
/// array remembers its CSO until its layout changes).
pub fn emit_vertex_layout(
    vao_entity: Option<Entity>,
    world: &mut World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(vao_entity) = vao_entity else { return };
    let Emitter {
        enc, alloc, csos, ..
    } = dev;
    let cache = &mut csos.vertex_layout;
    // Fast path: the array remembers the CSO of its current layout (a shared lookup; the
    // mutable one is only needed to fill the cache).
    let cached = match world.get::<VertexArray>(vao_entity) {
        None => return,
        Some(vao) => match vao.layout_cso {
            Some((generation, cso))
                if generation == vao.layout_generation && cache.is_live(cso) =>
            {
                Some(cso)
            }
            _ => None,
        },
    };
    let cso = match cached {
        Some(cso) => {
            cache.count_hit();
            cso
        }
        None => {
            let Some(mut vao) = world.get_mut::<VertexArray>(vao_entity) else {
                return;
            };
            let key = vertex_layout(&vao);
            let cso = cache.get_or_create(
                &key,
                alloc,
                enc,
                |cso, layout| Record::CreateVertexLayout {
                    cso,
                    layout: Box::new(*layout),
                },
                |cso| Record::DestroyVertexLayout { cso },
            );
            vao.layout_cso = Some((vao.layout_generation, cso));
            cso
        }
    };
    if shadow.vertex_layout != Some(cso) {
        cache.rebind(shadow.vertex_layout, Some(cso));
        shadow.vertex_layout = Some(cso);
        enc.push(Record::BindVertexLayout { cso });
    }
}

/// Emits `SetVertexBuffer` for every enabled attribute whose buffer or offset the backend
/// does not have.
pub fn emit_vertex_buffers(
    vao: Option<&VertexArray>,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(vao) = vao else { return };
    for (slot, a) in vao.attribs.iter().enumerate().take(MAX_VERTEX_ATTRIBS) {
        if !a.enabled {
            continue;
        }
        let b = &vao.bindings[usize::from(a.binding)];
        let value = (b.buffer_handle, b.offset + u64::from(a.relative_offset));
        if changed(&mut shadow.vertex_buffers[slot], value) {
            dev.push(Record::SetVertexBuffer {
                slot: slot as u8,
                buffer: value.0,
                offset: value.1,
            });
        }
    }
}

/// Emits `SetIndexBuffer` if the bound vertex array's element buffer differs.
pub fn emit_index_buffer(vao: Option<&VertexArray>, dev: &mut Emitter, shadow: &mut EmittedState) {
    let buffer = vao.and_then(|v| v.element_buffer_handle);
    if changed(&mut shadow.index_buffer, buffer) {
        dev.push(Record::SetIndexBuffer { buffer });
    }
}

/// Emits `SetGenericAttrib` for attributes the program reads (`attribute_mask`) from their
/// generic value (the array is disabled) when the backend's value differs.
///
/// A `dvec3` or `dvec4` input (a bit of `wide_mask`) has the last two doubles of its value
/// at index `16 + location` too, always sent with the first half (the shadow tracks the
/// first sixteen only; generic values of double vectors are rare).
pub fn emit_generic_attribs(
    st: &GlState,
    vao: Option<&VertexArray>,
    attribute_mask: u16,
    wide_mask: u16,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let mut mask = attribute_mask;
    while mask != 0 {
        let index = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        debug_assert!(index < MAX_VERTEX_ATTRIBS);
        if vao.is_some_and(|v| v.attribs[index].enabled) {
            continue;
        }
        let value = st.generic_attribs[index].bits;
        let wide = wide_mask & (1 << index) != 0;
        if changed(&mut shadow.generic_attribs[index], value) || wide {
            dev.push(Record::SetGenericAttrib {
                index: index as u8,
                value,
            });
        }
        if wide {
            dev.push(Record::SetGenericAttrib {
                index: (MAX_VERTEX_ATTRIBS + index) as u8,
                value: st.generic_attribs[index].wide,
            });
        }
    }
}
