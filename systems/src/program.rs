//! The bound program, its default uniform block, and its uniform and shader storage buffer
//! bindings.

use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use bytemuck::{Pod, Zeroable};
use tessera_components::object::{Buffer, Program};
use tessera_components::state::{GlState, cap};
use tessera_wire::record::Record;
use tessera_wire::state::{MAX_STORAGE_BUFFER_BINDINGS, MAX_UNIFORM_BUFFER_BINDINGS};

use crate::emitted::{EmittedState, changed};
use crate::emitter::Emitter;

/// Emits `BindProgram` if the backend's program differs.
pub fn emit_program(program: Option<&Program>, dev: &mut Emitter, shadow: &mut EmittedState) {
    let handle = program.and_then(|p| p.handle);
    if changed(&mut shadow.program, handle) {
        dev.push(Record::BindProgram { program: handle });
    }
}

/// The hidden slot that ends a default block (see `tessera_shader::Program`): a `vec4`
/// whose first component is the fixed point size, the others unused (0).
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
struct HiddenSlot {
    point_size: f32,
    unused: [f32; 3],
}

/// Bytes of the hidden slot.
const HIDDEN_SLOT: usize = size_of::<HiddenSlot>();

/// The fixed point size the program's last pre-rasterization stage reads from the hidden
/// slot: `glPointSize`'s value while `PROGRAM_POINT_SIZE` is off; 0 (the shader's own size)
/// while it is on.
fn fixed_point_size(st: &GlState) -> f32 {
    if st.caps.has(cap::PROGRAM_POINT_SIZE) {
        0.0
    } else {
        st.point_size
    }
}

/// Emits `SetUniforms` with the program's default block if the backend has older values,
/// the fixed point size written into the block's hidden slot, and `draw_samples` (the draw
/// framebuffer's sample count) where the program reads `gl_NumSamples`.
///
/// The shadow keys the block by program and uniform generation; a change of the point
/// size or of `PROGRAM_POINT_SIZE`, or of the draw framebuffer's sample count for a
/// program that reads it, forgets it (see [`crate::validate::run`]).
pub fn emit_uniforms(
    st: &GlState,
    program: Option<&Program>,
    draw_samples: u32,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(p) = program else { return };
    let (Some(handle), Some(linked)) = (p.handle, p.linked_state.as_ref()) else {
        return;
    };
    let block = &linked.default_block;
    if block.len() < HIDDEN_SLOT {
        return;
    }
    if changed(&mut shadow.uniforms, (handle, p.uniforms_generation)) {
        let slot = HiddenSlot {
            point_size: fixed_point_size(st),
            unused: [0.0; 3],
        };
        let hidden = block.len() - HIDDEN_SLOT;
        // gl_DepthRange, where the program reads it: near, far, diff.
        let [near, far] = st.depth_ranges[0].map(|v| v as f32);
        let depth_range = linked
            .depth_range_offset
            .map(|at| at as usize)
            .filter(|&at| at + 12 <= hidden);
        let num_samples = linked
            .num_samples_offset
            .map(|at| at as usize)
            .filter(|&at| at + 4 <= hidden);
        if num_samples.is_some() {
            shadow.num_samples = draw_samples;
        }
        let data = dev.enc.stage_with(block.len(), |bytes| {
            debug_assert_eq!(bytes.len(), block.len());
            bytes[..hidden].copy_from_slice(&block[..hidden]);
            // Native byte order, which is the block's (std140, little-endian: the only
            // targets Tessera supports).
            bytes[hidden..hidden + HIDDEN_SLOT].copy_from_slice(bytemuck::bytes_of(&slot));
            if let Some(at) = depth_range {
                bytes[at..at + 12].copy_from_slice(bytemuck::cast_slice(&[near, far, far - near]));
            }
            if let Some(at) = num_samples {
                bytes[at..at + 4].copy_from_slice(&(draw_samples as i32).to_ne_bytes());
            }
        });
        dev.push(Record::SetUniforms { data });
    }
}

/// Emits `BindUniformBuffer` for each uniform block of the program whose binding point's
/// buffer range the backend does not have.
pub fn emit_uniform_buffers(
    st: &GlState,
    program: Option<&Program>,
    world: &World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(linked) = program.and_then(|p| p.linked_state.as_ref()) else {
        return;
    };
    for (slot, block) in linked
        .blocks
        .iter()
        .enumerate()
        .take(MAX_UNIFORM_BUFFER_BINDINGS)
    {
        let binding = st
            .uniform_buffers
            .get(block.binding as usize)
            .copied()
            .unwrap_or_default();
        let handle = binding
            .buffer
            .and_then(|e: Entity| world.get::<Buffer>(e))
            .map(|b| b.handle);
        let value = (handle, binding.offset as u64, binding.size as u64);
        if changed(&mut shadow.uniform_buffers[slot], value) {
            dev.push(Record::BindUniformBuffer {
                slot: slot as u8,
                buffer: value.0,
                offset: value.1,
                size: value.2,
            });
        }
    }
}

/// Emits `BindStorageBuffer` for each shader storage block and atomic counter buffer of the
/// program whose binding point's buffer range the backend does not have.
pub fn emit_storage_buffers(
    st: &GlState,
    program: Option<&Program>,
    world: &World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    let Some(linked) = program.and_then(|p| p.linked_state.as_ref()) else {
        return;
    };
    // The atomic counter buffers' slots follow the storage blocks' (their counters are
    // storage-buffer atomics), bound from the `ATOMIC_COUNTER_BUFFER` binding points.
    let ranges = linked
        .storage_blocks
        .iter()
        .map(|b| st.storage_buffers.get(b.binding as usize))
        .chain(
            linked
                .atomic_buffers
                .iter()
                .map(|b| st.atomic_counter_buffers.get(b.binding as usize)),
        );
    for (slot, range) in ranges.enumerate().take(MAX_STORAGE_BUFFER_BINDINGS) {
        let binding = range.copied().unwrap_or_default();
        let handle = binding
            .buffer
            .and_then(|e: Entity| world.get::<Buffer>(e))
            .map(|b| b.handle);
        let value = (handle, binding.offset as u64, binding.size as u64);
        if changed(&mut shadow.storage_buffers[slot], value) {
            dev.push(Record::BindStorageBuffer {
                slot: slot as u8,
                buffer: value.0,
                offset: value.1,
                size: value.2,
            });
        }
    }
}
