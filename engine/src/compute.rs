//! Compute dispatches, memory barriers and shader storage blocks (GL 4.3 compute shaders,
//! `ARB_compute_shader`, `ARB_shader_storage_buffer_object`).
//!
//! ## The path of a dispatch
//! `glDispatchCompute` checks what GL 4.3 §19 names (a current program with a compute
//! stage, counts within `MAX_COMPUTE_WORK_GROUP_COUNT`; the indirect form also its offset
//! and the `DISPATCH_INDIRECT_BUFFER`), runs the systems of [`Dirty::DISPATCH`] (the
//! program, its uniforms, uniform and storage buffers and textures: no framebuffer or
//! render state) and emits `Dispatch` or `DispatchIndirect`. A dispatch of no work groups
//! does nothing, as GL says. The client copies of the storage buffer ranges the program
//! binds are marked stale at every dispatch (and at every draw of a program with storage
//! blocks), so a later read or map asks the backend.
//!
//! `glMemoryBarrier` emits `MemoryBarrier` with GL's bits; the backends order the shader
//! writes before the accesses the bits name (the Vulkan backend also puts the barriers a
//! dispatch needs before a later draw or copy reads what it wrote, whatever the program
//! asked: GL drivers order those, and Vulkan would let them race).
//!
//! Storage blocks are reflected at link ([`tessera_shader::StorageBlock`]) with their
//! binding points; `glShaderStorageBlockBinding` changes one, and the bound ranges reach
//! the backend as `BindStorageBuffer` per block, as uniform blocks do.

use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{Buffer, Program};
use tessera_components::state::BufferTarget;
use tessera_wire::record::Record;

use crate::context::Context;
use crate::limits;
use crate::share::Shared;

/// The bits `glMemoryBarrier` takes (GL 4.5 §7.13.2), `ALL_BARRIER_BITS` aside.
const BARRIER_BITS: GLbitfield = VERTEX_ATTRIB_ARRAY_BARRIER_BIT
    | ELEMENT_ARRAY_BARRIER_BIT
    | UNIFORM_BARRIER_BIT
    | TEXTURE_FETCH_BARRIER_BIT
    | SHADER_IMAGE_ACCESS_BARRIER_BIT
    | COMMAND_BARRIER_BIT
    | PIXEL_BUFFER_BARRIER_BIT
    | TEXTURE_UPDATE_BARRIER_BIT
    | BUFFER_UPDATE_BARRIER_BIT
    | FRAMEBUFFER_BARRIER_BIT
    | TRANSFORM_FEEDBACK_BARRIER_BIT
    | ATOMIC_COUNTER_BARRIER_BIT
    | SHADER_STORAGE_BARRIER_BIT
    | CLIENT_MAPPED_BUFFER_BARRIER_BIT
    | QUERY_BUFFER_BARRIER_BIT;

/// The bits `glMemoryBarrierByRegion` takes (GL 4.5 §7.13.2): those about fragment
/// shader reads and writes.
const REGION_BARRIER_BITS: GLbitfield = ATOMIC_COUNTER_BARRIER_BIT
    | FRAMEBUFFER_BARRIER_BIT
    | SHADER_IMAGE_ACCESS_BARRIER_BIT
    | SHADER_STORAGE_BARRIER_BIT
    | TEXTURE_FETCH_BARRIER_BIT
    | UNIFORM_BARRIER_BIT;

/// Bytes `glDispatchComputeIndirect` reads: three `uint` counts.
const INDIRECT_SIZE: u64 = 12;

/// Marks the client copies of the storage buffer ranges the current program (or the
/// bound pipeline's stages) binds stale: its shaders may write them.
pub(crate) fn storage_ranges_stale(ctx_st: &tessera_components::state::GlState, sh: &mut Shared) {
    let Some(p) = ctx_st.executable() else { return };
    let bindings: Vec<(bool, u32)> = match sh
        .world
        .get::<Program>(p)
        .and_then(|p| p.linked_state.as_ref())
    {
        Some(l) => l
            .storage_blocks
            .iter()
            .map(|b| (false, b.binding))
            .chain(l.atomic_buffers.iter().map(|b| (true, b.binding)))
            .collect(),
        None => return,
    };
    for (atomic, binding) in bindings {
        let points = if atomic {
            &ctx_st.atomic_counter_buffers[..]
        } else {
            &ctx_st.storage_buffers[..]
        };
        let Some(b) = points.get(binding as usize) else {
            continue;
        };
        let Some(e) = b.buffer else { continue };
        let total = sh
            .world
            .get::<Buffer>(e)
            .map_or(0, |b| b.size.max(0) as u64);
        let offset = (b.offset.max(0) as u64).min(total);
        let len = if b.size > 0 {
            (b.size as u64).min(total - offset)
        } else {
            total - offset
        };
        crate::buffer::shadow_stale(sh, e, offset, len);
    }
}

impl Context {
    /// `INVALID_OPERATION` unless the current program has a compute stage.
    fn check_compute_program(&self, sh: &Shared) -> Result<(), GLenum> {
        self.local
            .st
            .program
            .and_then(|p| sh.world.get::<Program>(p))
            .and_then(|p| p.linked_state.as_ref())
            .and_then(|l| l.local_size)
            .map(drop)
            .ok_or(INVALID_OPERATION)
    }

    /// Runs the dispatch systems and marks what the program may write.
    fn prepare_dispatch(&mut self, sh: &mut Shared) {
        sh.dev.use_context(self.local.id);
        self.local.validate(sh, Dirty::DISPATCH);
        storage_ranges_stale(&self.local.st, sh);
    }

    /// `glDispatchCompute`.
    pub fn dispatch_compute(&mut self, x: GLuint, y: GLuint, z: GLuint) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if let Err(err) = self.check_compute_program(&sh) {
            drop(sh);
            return self.error(err);
        }
        let groups = [x, y, z];
        let max = self.local.limits.max_compute_work_group_count;
        if groups.iter().zip(max).any(|(&n, m)| n > m.max(0) as u32) {
            drop(sh);
            return self.error(INVALID_VALUE);
        }
        if groups.contains(&0) {
            return;
        }
        self.prepare_dispatch(&mut sh);
        sh.dev.push(Record::Dispatch { groups });
        sh.flush_if_full();
    }

    /// `glDispatchComputeIndirect`: the counts are read from the
    /// `DISPATCH_INDIRECT_BUFFER` at byte `indirect`.
    pub fn dispatch_compute_indirect(&mut self, indirect: GLintptr) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        // Mesa's order: the program, the offset, then the buffer.
        let checked = self.check_compute_program(&sh).and_then(|()| {
            if indirect < 0 || indirect % 4 != 0 {
                return Err(INVALID_VALUE);
            }
            let e = self
                .local
                .st
                .buffer(BufferTarget::DispatchIndirect)
                .ok_or(INVALID_OPERATION)?;
            let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
            let size = b.size.max(0) as u64;
            if b.mapped_exclusively() || (indirect as u64).saturating_add(INDIRECT_SIZE) > size {
                return Err(INVALID_OPERATION);
            }
            Ok(b.handle)
        });
        let buffer = match checked {
            Ok(h) => h,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        self.prepare_dispatch(&mut sh);
        sh.dev.push(Record::DispatchIndirect {
            buffer,
            offset: indirect as u64,
        });
        sh.flush_if_full();
    }

    /// `glMemoryBarrier`.
    pub fn memory_barrier(&mut self, barriers: GLbitfield) {
        if barriers != ALL_BARRIER_BITS && barriers & !BARRIER_BITS != 0 {
            return self.error(INVALID_VALUE);
        }
        self.push_barrier(barriers);
    }

    /// `glMemoryBarrierByRegion`: as [`Context::memory_barrier`] for the bits it takes (a
    /// barrier over the whole framebuffer is a barrier over every region).
    pub fn memory_barrier_by_region(&mut self, barriers: GLbitfield) {
        if barriers != ALL_BARRIER_BITS && barriers & !REGION_BARRIER_BITS != 0 {
            return self.error(INVALID_VALUE);
        }
        self.push_barrier(barriers & REGION_BARRIER_BITS);
    }

    fn push_barrier(&mut self, barriers: GLbitfield) {
        if barriers == 0 {
            return;
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        sh.dev.use_context(self.local.id);
        sh.dev.push(Record::MemoryBarrier { barriers });
        sh.flush_if_full();
    }

    /// `COMPUTE_WORK_GROUP_SIZE` of a program (`glGetProgramiv`): `INVALID_OPERATION`
    /// unless its last link succeeded with a compute shader.
    pub(crate) fn compute_work_group_size(&mut self, program: GLuint) -> Result<[u32; 3], GLenum> {
        self.with_reflection(program, |l| {
            l.ok_or(INVALID_OPERATION)?
                .local_size
                .ok_or(INVALID_OPERATION)
        })
    }

    /// `glShaderStorageBlockBinding`: the block reads the buffer range of binding point
    /// `binding`.
    pub fn shader_storage_block_binding(
        &mut self,
        program: GLuint,
        index: GLuint,
        binding: GLuint,
    ) {
        let mut sh = self.group.lock();
        let result = Self::program_entity(&sh, program).and_then(|e| {
            let mut p = sh.world.get_mut::<Program>(e).ok_or(INVALID_VALUE)?;
            let linked = p.linked;
            let block = p
                .linked_state
                .as_mut()
                .filter(|_| linked)
                .and_then(|l| l.storage_blocks.get_mut(index as usize))
                .ok_or(INVALID_VALUE)?;
            if binding >= limits::SSBO_BINDINGS as GLuint {
                return Err(INVALID_VALUE);
            }
            if block.binding != binding {
                block.binding = binding;
                p.generation = p.generation.wrapping_add(1);
            }
            Ok(e)
        });
        drop(sh);
        match result {
            Ok(e) => {
                if self.local.st.program == Some(e) {
                    self.local.touch(Dirty::STORAGE_BUFFERS);
                }
            }
            Err(err) => self.error(err),
        }
    }
}
