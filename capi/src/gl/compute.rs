//! Compute dispatches, memory barriers and shader storage blocks (GL 4.3's compute shaders
//! and storage buffers, `ARB_compute_shader` and `ARB_shader_storage_buffer_object`), and
//! image units (GL 4.2's `ARB_shader_image_load_store`), and the texture barrier (GL 4.5's
//! `ARB_texture_barrier`): the entry points beyond 3.3 that the engine carries out
//! (`engine::compute`, `engine::image`, `engine::render_state`).

use super::types::*;
use crate::current::gl_call;

/// `glDispatchCompute`.
#[unsafe(no_mangle)]
pub extern "C" fn glDispatchCompute(
    num_groups_x: GLuint,
    num_groups_y: GLuint,
    num_groups_z: GLuint,
) {
    gl_call("glDispatchCompute", (), |c| {
        c.dispatch_compute(num_groups_x, num_groups_y, num_groups_z)
    });
}

/// `glDispatchComputeIndirect`.
#[unsafe(no_mangle)]
pub extern "C" fn glDispatchComputeIndirect(indirect: GLintptr) {
    gl_call("glDispatchComputeIndirect", (), |c| {
        c.dispatch_compute_indirect(indirect)
    });
}

/// `glMemoryBarrier`.
#[unsafe(no_mangle)]
pub extern "C" fn glMemoryBarrier(barriers: GLbitfield) {
    gl_call("glMemoryBarrier", (), |c| c.memory_barrier(barriers));
}

/// `glTextureBarrier` (GL 4.5's `ARB_texture_barrier`).
#[unsafe(no_mangle)]
pub extern "C" fn glTextureBarrier() {
    gl_call("glTextureBarrier", (), |c| c.texture_barrier());
}

/// `glBindImageTexture` (GL 4.2's `ARB_shader_image_load_store`).
#[unsafe(no_mangle)]
pub extern "C" fn glBindImageTexture(
    unit: GLuint,
    texture: GLuint,
    level: GLint,
    layered: GLboolean,
    layer: GLint,
    access: GLenum,
    format: GLenum,
) {
    gl_call("glBindImageTexture", (), |c| {
        c.bind_image_texture(unit, texture, level, layered, layer, access, format)
    });
}

/// `glMemoryBarrierByRegion`.
#[unsafe(no_mangle)]
pub extern "C" fn glMemoryBarrierByRegion(barriers: GLbitfield) {
    gl_call("glMemoryBarrierByRegion", (), |c| {
        c.memory_barrier_by_region(barriers)
    });
}

/// `glShaderStorageBlockBinding`.
#[unsafe(no_mangle)]
pub extern "C" fn glShaderStorageBlockBinding(
    program: GLuint,
    storage_block_index: GLuint,
    storage_block_binding: GLuint,
) {
    gl_call("glShaderStorageBlockBinding", (), |c| {
        c.shader_storage_block_binding(program, storage_block_index, storage_block_binding)
    });
}
