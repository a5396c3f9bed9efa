//! Indirect draws (`glDrawArraysIndirect`, `glDrawElementsIndirect`, GL 4.0; their
//! `glMultiDraw*Indirect` forms, GL 4.3): the commands stay in the buffer bound to
//! `DRAW_INDIRECT_BUFFER`, which the backend reads as the device holds it.
//!
//! The engine never reads the commands: a compute shader, transform feedback or a copy
//! may have written them on the device, and the client's copy of the bytes would then be
//! stale. It checks what GL checks without them, in Mesa's order: the draw count and stride
//! of a multi-draw (`INVALID_VALUE`), the index type and element buffer of an indexed draw,
//! a bound vertex array, the mode and the draw-time state every draw checks, then the
//! offset's alignment (`INVALID_VALUE`), a bound, unmapped indirect buffer holding every
//! command (`INVALID_OPERATION`). A command whose counts are zero draws nothing on the
//! backend; its base instance feeds instanced attributes and never `gl_InstanceID`.
//!
//! `glMultiDraw*IndirectCount` (GL 4.6, `ARB_indirect_parameters`) draw at most their
//! `maxdrawcount` commands, as many as the `GLsizei` at `drawcount` in the buffer bound to
//! `PARAMETER_BUFFER` says when the draw runs. They check what the multi-draws check, then
//! that offset (a multiple of 4, `INVALID_VALUE`) and that buffer (bound, unmapped, holding
//! the count: `INVALID_OPERATION`), as Mesa's `valid_draw_indirect_parameters`. The count
//! is never read here either: `SetDrawCount` names it before the draw record and is
//! cleared after it, and the backend reads it as the device holds it.

use tessera_components::gl::*;
use tessera_components::object::{Buffer, VertexArray};
use tessera_components::state::BufferTarget;
use tessera_systems::conv::{map_index_type, map_topology};
use tessera_wire::handle::BufferHandle;
use tessera_wire::record::Record;

use crate::context::{Context, Local};
use crate::share::Shared;

/// Bytes of a `DrawArraysIndirectCommand`.
const ARRAYS_COMMAND: u32 = 16;
/// Bytes of a `DrawElementsIndirectCommand`.
const ELEMENTS_COMMAND: u32 = 20;

impl Local {
    /// Checks an indirect draw and emits its record. `ty`: the index type of an indexed
    /// draw; `(draws, stride)`: the commands (a counted draw's maximum) and the bytes from
    /// one to the next, already the command size where GL read 0 as tightly packed;
    /// `count`: a counted draw's offset into the `PARAMETER_BUFFER`.
    fn draw_indirect(
        &mut self,
        sh: &mut Shared,
        mode: GLenum,
        ty: Option<GLenum>,
        indirect: usize,
        (draws, stride): (GLsizei, GLsizei),
        count: Option<isize>,
    ) -> Result<(), GLenum> {
        puffin::profile_scope!("draw_indirect");
        self.resolve_pipeline(sh);
        let command = if ty.is_some() {
            ELEMENTS_COMMAND
        } else {
            ARRAYS_COMMAND
        };
        let index_type = match ty {
            Some(ty) => {
                let t = map_index_type(ty).ok_or(INVALID_ENUM)?;
                let has_indices = self
                    .st
                    .vertex_array
                    .and_then(|v| sh.world.get::<VertexArray>(v))
                    .is_some_and(|v| v.element_buffer.is_some());
                if !has_indices {
                    return Err(INVALID_OPERATION);
                }
                Some(t)
            }
            None => None,
        };
        if self.st.vertex_array.is_none() {
            return Err(INVALID_OPERATION);
        }
        let topology = map_topology(mode).ok_or(INVALID_ENUM)?;
        let error = self.draw_state_error(sh);
        if error != NO_ERROR {
            return Err(error);
        }
        if !self.check_geometry_input(mode) {
            return Ok(());
        }
        if self.st.transform_feedback_mode.is_some()
            && !self.xfb.paused
            && !self.check_xfb_mode(sh, mode)
        {
            return Ok(());
        }
        if !indirect.is_multiple_of(4) {
            return Err(INVALID_VALUE);
        }
        let e = self
            .st
            .buffer(BufferTarget::DrawIndirect)
            .ok_or(INVALID_OPERATION)?;
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        if b.mapped_exclusively() {
            return Err(INVALID_OPERATION);
        }
        let draws = draws as u64;
        let end = match draws {
            0 => indirect as u64,
            n => (n - 1)
                .checked_mul(stride as u64)
                .and_then(|s| s.checked_add(u64::from(command)))
                .and_then(|s| s.checked_add(indirect as u64))
                .ok_or(INVALID_OPERATION)?,
        };
        if end > b.size.max(0) as u64 {
            return Err(INVALID_OPERATION);
        }
        let buffer = b.handle;
        let count = match count {
            Some(at) => Some(self.draw_count_source(sh, at)?),
            None => None,
        };
        if self.st.executable().is_none() || draws == 0 {
            // As a direct draw: no program draws nothing, and is no error in core GL.
            return Ok(());
        }
        self.prepare_draw(sh);
        if let Some((buffer, offset)) = count {
            sh.dev.push(Record::SetDrawCount {
                buffer: Some(buffer),
                offset,
            });
        }
        let (offset, draws, stride) = (indirect as u64, draws as u32, stride as u32);
        let record = match index_type {
            None => Record::DrawIndirect {
                topology,
                buffer,
                offset,
                draws,
                stride,
            },
            Some(index_type) => Record::DrawIndexedIndirect {
                topology,
                index_type,
                buffer,
                offset,
                draws,
                stride,
            },
        };
        self.push_draw(sh, record);
        if count.is_some() {
            sh.dev.push(Record::SetDrawCount {
                buffer: None,
                offset: 0,
            });
        }
        Ok(())
    }

    /// The buffer and offset a `glMultiDraw*IndirectCount` reads its count from, checked
    /// as Mesa's `valid_draw_indirect_parameters`: `drawcount` a multiple of 4
    /// (`INVALID_VALUE`); a buffer bound to `PARAMETER_BUFFER`, not mapped without
    /// persistence, holding the 4 bytes there (`INVALID_OPERATION`; a negative offset is
    /// out of bounds).
    fn draw_count_source(&self, sh: &Shared, at: isize) -> Result<(BufferHandle, u64), GLenum> {
        if at & 3 != 0 {
            return Err(INVALID_VALUE);
        }
        let e = self
            .st
            .buffer(BufferTarget::Parameter)
            .ok_or(INVALID_OPERATION)?;
        let b = sh.world.get::<Buffer>(e).ok_or(INVALID_OPERATION)?;
        if b.mapped_exclusively() {
            return Err(INVALID_OPERATION);
        }
        if at < 0 || (b.size.max(0) as u64) < at as u64 + 4 {
            return Err(INVALID_OPERATION);
        }
        Ok((b.handle, at as u64))
    }
}

impl Context {
    fn draw_indirect_entry(
        &mut self,
        mode: GLenum,
        ty: Option<GLenum>,
        indirect: usize,
        draws: GLsizei,
        stride: GLsizei,
        count: Option<isize>,
    ) {
        let mut sh = self.group.lock();
        let result = self
            .local
            .draw_indirect(&mut sh, mode, ty, indirect, (draws, stride), count);
        drop(sh);
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// The `INVALID_VALUE`s a multi-draw raises before anything else, and the stride GL
    /// reads for 0 (tightly packed).
    fn multi_draw_stride(
        &mut self,
        draws: GLsizei,
        stride: GLsizei,
        command: u32,
    ) -> Option<GLsizei> {
        if draws < 0 || stride % 4 != 0 {
            self.error(INVALID_VALUE);
            return None;
        }
        Some(if stride == 0 {
            command as GLsizei
        } else {
            stride
        })
    }

    /// `glDrawArraysIndirect` (`indirect`: byte offset into the `DRAW_INDIRECT_BUFFER`).
    pub fn draw_arrays_indirect(&mut self, mode: GLenum, indirect: usize) {
        self.draw_indirect_entry(mode, None, indirect, 1, ARRAYS_COMMAND as GLsizei, None);
    }

    /// `glDrawElementsIndirect`.
    pub fn draw_elements_indirect(&mut self, mode: GLenum, ty: GLenum, indirect: usize) {
        self.draw_indirect_entry(
            mode,
            Some(ty),
            indirect,
            1,
            ELEMENTS_COMMAND as GLsizei,
            None,
        );
    }

    /// `glMultiDrawArraysIndirect` (GL 4.3).
    pub fn multi_draw_arrays_indirect(
        &mut self,
        mode: GLenum,
        indirect: usize,
        draws: GLsizei,
        stride: GLsizei,
    ) {
        if let Some(stride) = self.multi_draw_stride(draws, stride, ARRAYS_COMMAND) {
            self.draw_indirect_entry(mode, None, indirect, draws, stride, None);
        }
    }

    /// `glMultiDrawElementsIndirect` (GL 4.3).
    pub fn multi_draw_elements_indirect(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        indirect: usize,
        draws: GLsizei,
        stride: GLsizei,
    ) {
        if let Some(stride) = self.multi_draw_stride(draws, stride, ELEMENTS_COMMAND) {
            self.draw_indirect_entry(mode, Some(ty), indirect, draws, stride, None);
        }
    }

    /// `glMultiDrawArraysIndirectCount` (GL 4.6; `drawcount`: byte offset of the count in
    /// the `PARAMETER_BUFFER`).
    pub fn multi_draw_arrays_indirect_count(
        &mut self,
        mode: GLenum,
        indirect: usize,
        drawcount: isize,
        maxdrawcount: GLsizei,
        stride: GLsizei,
    ) {
        if let Some(stride) = self.multi_draw_stride(maxdrawcount, stride, ARRAYS_COMMAND) {
            self.draw_indirect_entry(mode, None, indirect, maxdrawcount, stride, Some(drawcount));
        }
    }

    /// `glMultiDrawElementsIndirectCount` (GL 4.6).
    pub fn multi_draw_elements_indirect_count(
        &mut self,
        mode: GLenum,
        ty: GLenum,
        indirect: usize,
        drawcount: isize,
        maxdrawcount: GLsizei,
        stride: GLsizei,
    ) {
        if let Some(stride) = self.multi_draw_stride(maxdrawcount, stride, ELEMENTS_COMMAND) {
            self.draw_indirect_entry(
                mode,
                Some(ty),
                indirect,
                maxdrawcount,
                stride,
                Some(drawcount),
            );
        }
    }
}
