//! The verb-time driver: runs the systems of the dirty groups, in dependency order.
//!
//! Mesa's `st_validate_state` in Rust: `dirty & mask` selects the groups a verb needs; each
//! group's system turns the context's state into records (only what differs from what the
//! backend has, see [`EmittedState`]) and its bit is cleared. Nothing runs for a clean group, so a
//! steady-state draw costs one mask test here.

use arrayvec::ArrayVec;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use tessera_components::Dirty;
use tessera_components::object::{Program, VertexArray};
use tessera_components::state::{GlState, TextureTarget};
use tessera_wire::handle::SurfaceHandle;
use tessera_wire::state::MAX_TEXTURE_UNITS;

use crate::emitted::EmittedState;
use crate::emitter::Emitter;
use crate::{framebuffer, program, render_state as rs, texture, vertex};

/// What the systems read and write at a verb.
pub struct Validate<'a> {
    /// The context's GL state.
    pub st: &'a GlState,
    /// The surface behind the default framebuffer.
    pub surface: Option<SurfaceHandle>,
    /// The draw framebuffer's `SAMPLES`, at least 1 (what `gl_NumSamples` reads); only
    /// meaningful when [`Dirty::FRAMEBUFFER`] or [`Dirty::UNIFORMS`] is to be run.
    pub draw_samples: u32,
    /// The share group's objects.
    pub world: &'a mut World,
    /// The share group's encoder, handles and CSO caches.
    pub dev: &'a mut Emitter,
    /// What the backend has for this context.
    pub shadow: &'a mut EmittedState,
}

/// Runs the systems of `*dirty & mask`, clearing the bits they handled. `units` holds the
/// dirty texture units (bit per unit) for [`Dirty::TEXTURES`].
pub fn run(v: Validate<'_>, dirty: &mut Dirty, units: &mut u64, mask: Dirty) {
    let Validate {
        st,
        surface,
        draw_samples,
        world,
        dev,
        shadow,
    } = v;
    let mut todo = *dirty & mask;
    if todo.is_empty() {
        return;
    }
    // One scope per system that runs (never per setter): ~85 ns each when profiling is on,
    // one relaxed load when off.
    puffin::profile_scope!("validate");
    if todo.contains(Dirty::FRAMEBUFFER) {
        puffin::profile_scope!("emit_framebuffer");
        framebuffer::emit_framebuffer(st, surface, world, dev, shadow);
        // A program that reads gl_NumSamples has the sample count in its default block (see
        // program::emit_uniforms): a framebuffer of another count makes the backend's copy
        // stale, so the block goes with this verb (or the next one that sends uniforms).
        let reads_num_samples = st
            .executable()
            .and_then(|e| world.get::<Program>(e))
            .and_then(|p| p.linked_state.as_ref())
            .is_some_and(|l| l.num_samples_offset.is_some());
        if reads_num_samples && shadow.num_samples != draw_samples {
            shadow.uniforms = None;
            *dirty |= Dirty::UNIFORMS;
            todo |= Dirty::UNIFORMS & mask;
        }
    }
    if todo.contains(Dirty::DRAW_BUFFERS) {
        puffin::profile_scope!("emit_draw_buffers");
        framebuffer::emit_draw_buffers(st, world, dev, shadow);
    }
    if todo.contains(Dirty::VIEWPORT) {
        puffin::profile_scope!("emit_viewport");
        rs::emit_viewport(st, dev, shadow);
        // A program that reads gl_DepthRange has it in its default block (see
        // program::emit_uniforms): the backend's copy may be stale. The engine marks
        // Dirty::UNIFORMS with the depth range, so the block goes with this verb.
        let reads_depth_range = st
            .executable()
            .and_then(|e| world.get::<Program>(e))
            .and_then(|p| p.linked_state.as_ref())
            .is_some_and(|l| l.depth_range_offset.is_some());
        if reads_depth_range {
            shadow.uniforms = None;
        }
    }
    if todo.contains(Dirty::SCISSOR) {
        puffin::profile_scope!("emit_scissor");
        rs::emit_scissor(st, dev, shadow);
    }
    if todo.contains(Dirty::BLEND) {
        puffin::profile_scope!("emit_blend");
        rs::emit_blend(st, dev, shadow);
    }
    if todo.contains(Dirty::BLEND_COLOR) {
        puffin::profile_scope!("emit_blend_color");
        rs::emit_blend_color(st, dev, shadow);
    }
    if todo.contains(Dirty::DEPTH_STENCIL) {
        puffin::profile_scope!("emit_depth_stencil");
        rs::emit_depth_stencil(st, dev, shadow);
    }
    if todo.contains(Dirty::STENCIL_REF) {
        puffin::profile_scope!("emit_stencil_ref");
        rs::emit_stencil_ref(st, dev, shadow);
    }
    if todo.contains(Dirty::RASTER) {
        puffin::profile_scope!("emit_raster");
        rs::emit_raster(st, dev, shadow);
    }
    if todo.contains(Dirty::DEPTH_BIAS) {
        puffin::profile_scope!("emit_depth_bias");
        rs::emit_depth_bias(st, dev, shadow);
    }
    if todo.contains(Dirty::LINE_WIDTH) {
        puffin::profile_scope!("emit_line_width");
        rs::emit_line_width(st, dev, shadow);
    }
    if todo.contains(Dirty::POINT_SIZE) {
        puffin::profile_scope!("emit_point_size");
        rs::emit_point_size(st, dev, shadow);
        // The fixed point size also lives in the default block's hidden slot (see
        // program::emit_uniforms): the backend's copy is stale. The engine marks
        // Dirty::UNIFORMS with POINT_SIZE, so the block goes with this verb or the next.
        shadow.uniforms = None;
    }
    if todo.contains(Dirty::PATCH_VERTICES) {
        puffin::profile_scope!("emit_patch_vertices");
        rs::emit_patch_vertices(st, dev, shadow);
    }
    if todo.contains(Dirty::SAMPLE_MASK) {
        puffin::profile_scope!("emit_sample_mask");
        rs::emit_sample_mask(st, dev, shadow);
    }
    if todo.contains(Dirty::PRIMITIVE_RESTART) {
        puffin::profile_scope!("emit_primitive_restart");
        rs::emit_primitive_restart(st, dev, shadow);
    }
    let program_groups =
        Dirty::PROGRAM | Dirty::UNIFORMS | Dirty::UNIFORM_BUFFERS | Dirty::STORAGE_BUFFERS;
    if todo.intersects(program_groups) {
        let p = st.executable().and_then(|e| world.get::<Program>(e));
        if todo.contains(Dirty::PROGRAM) {
            puffin::profile_scope!("emit_program");
            program::emit_program(p, dev, shadow);
        }
        if todo.contains(Dirty::UNIFORMS) {
            puffin::profile_scope!("emit_uniforms");
            program::emit_uniforms(st, p, draw_samples, dev, shadow);
        }
        if todo.contains(Dirty::UNIFORM_BUFFERS) {
            puffin::profile_scope!("emit_uniform_buffers");
            program::emit_uniform_buffers(st, p, world, dev, shadow);
        }
        if todo.contains(Dirty::STORAGE_BUFFERS) {
            puffin::profile_scope!("emit_storage_buffers");
            program::emit_storage_buffers(st, p, world, dev, shadow);
        }
    }
    // Image units resolve through the program's image uniforms and the textures' levels,
    // so a change of any of these re-resolves them (unchanged slots emit nothing).
    if todo.intersects(Dirty::IMAGES | Dirty::PROGRAM | Dirty::TEXTURES)
        && mask.contains(Dirty::IMAGES)
    {
        puffin::profile_scope!("emit_images");
        let p = st.program.and_then(|e| world.get::<Program>(e));
        crate::image::emit_images(st, p, world, dev, shadow);
    }
    if todo.contains(Dirty::TEXTURES) {
        puffin::profile_scope!("emit_textures");
        emit_textures(st, *units, world, dev, shadow);
        *units = 0;
    }
    let vertex_groups =
        Dirty::VERTEX_LAYOUT | Dirty::VERTEX_BUFFERS | Dirty::INDEX_BUFFER | Dirty::GENERIC_ATTRIBS;
    if todo.intersects(vertex_groups) {
        if todo.contains(Dirty::VERTEX_LAYOUT) {
            puffin::profile_scope!("emit_vertex_layout");
            vertex::emit_vertex_layout(st.vertex_array, world, dev, shadow);
        }
        let vao = st
            .vertex_array
            .and_then(|e: Entity| world.get::<VertexArray>(e));
        if todo.contains(Dirty::VERTEX_BUFFERS) {
            puffin::profile_scope!("emit_vertex_buffers");
            vertex::emit_vertex_buffers(vao, dev, shadow);
        }
        if todo.contains(Dirty::INDEX_BUFFER) {
            puffin::profile_scope!("emit_index_buffer");
            vertex::emit_index_buffer(vao, dev, shadow);
        }
        if todo.contains(Dirty::GENERIC_ATTRIBS) {
            let (mask, wide) = st
                .executable()
                .and_then(|e| world.get::<Program>(e))
                .and_then(|p| p.linked_state.as_ref())
                .map_or((0, 0), |l| (l.attribute_mask, l.wide_attribute_mask));
            vertex::emit_generic_attribs(st, vao, mask, wide, dev, shadow);
        }
    }
    *dirty &= !(todo & !Dirty::DRAW_CHECK);
}

/// Copies the program's sampler slots (unit, target) to the stack so textures can be updated
/// while the program is not borrowed, then emits their bindings.
fn emit_textures(
    st: &GlState,
    units: u64,
    world: &mut World,
    dev: &mut Emitter,
    shadow: &mut EmittedState,
) {
    // A program may have more sampler slots than the backend has (linking does not refuse
    // them); slots past `MAX_TEXTURE_UNITS` are never bound, so `take` keeps the collect
    // within the capacity.
    let slots: ArrayVec<(u32, TextureTarget), MAX_TEXTURE_UNITS> = {
        let Some(linked) = st
            .executable()
            .and_then(|e| world.get::<Program>(e))
            .and_then(|p| p.linked_state.as_ref())
        else {
            return;
        };
        linked
            .sampler_units
            .iter()
            .copied()
            .zip(linked.sampler_targets.iter().copied())
            .take(MAX_TEXTURE_UNITS)
            .collect()
    };
    texture::emit_textures(st, &slots, units, world, dev, shadow);
}
