//! Multi-draws: `MultiDraw` and `MultiDrawIndexed`, the draws of one `glMultiDrawArrays` or
//! `glMultiDrawElements(BaseVertex)` call.
//!
//! Where the driver has `GL_EXT_multi_draw_arrays` the call is one `glMultiDrawArraysEXT`,
//! `glMultiDrawElementsEXT` or (with base vertices) `glMultiDrawElementsBaseVertexEXT` after
//! one reconcile, as the program made it. `gl_DrawID` does not matter here: the backend does
//! not advertise draw parameters (GLSL ES has none). A call that a direct draw would draw
//! through a workaround (a topology GLES lacks, transform feedback, vertex streams observed,
//! the first-vertex convention rewritten, a restart index below the type's maximum, base
//! vertices the driver cannot take), or one with a draw whose indices lie outside the index
//! buffer, is drawn one draw at a time as direct draws.

use std::ffi::c_void;

use tessera_wire::SessionError;
use tessera_wire::dispatch::{DirectDraw, DrawPipe, MultiDrawArgs, R};
use tessera_wire::record::MULTI_DRAW_SIZE;

use crate::command::{GlesContext, dirty};
use crate::conv;
use crate::device::{GlesPipe, MultiDrawFns};
use crate::shadow::Cap;

/// The per-draw arrays of one driver call, kept between calls so that a multi-draw
/// allocates only when it is longer than any before.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    /// First vertices (arrays) or unused.
    first: Vec<i32>,
    count: Vec<i32>,
    /// Index offsets into the bound index buffer (elements), passed as the driver's
    /// pointers.
    indices: Vec<usize>,
    base_vertex: Vec<i32>,
}

impl GlesPipe {
    /// `MultiDraw` and `MultiDrawIndexed` (module docs).
    pub(crate) fn draw_multi(&mut self, ctx: &mut GlesContext, draw: MultiDrawArgs<'_>) -> R {
        if ctx.discarding {
            return Ok(());
        }
        let fns = self.extra.multi_draw;
        match fns {
            Some(fns) if self.draws_at_once(ctx, &draw)? => self.draw_at_once(ctx, &draw, fns),
            _ => self.draw_one_by_one(ctx, draw),
        }
    }

    /// Whether the call can be one driver call: nothing a direct draw would work around.
    fn draws_at_once(
        &mut self,
        ctx: &mut GlesContext,
        draw: &MultiDrawArgs<'_>,
    ) -> Result<bool, SessionError> {
        let Some(mode) = conv::map_topology(draw.topology, &self.features) else {
            return Ok(false);
        };
        if ctx.xfb.is_some() || self.observed_streams(ctx).is_some() {
            return Ok(false);
        }
        if !ctx.raster.flatshade_last && self.first_vertex_list_needed(ctx, mode) {
            return Ok(false);
        }
        let Some(ty) = draw.index_type else {
            return Ok(true);
        };
        let Some(ib) = ctx.desired.index_buffer else {
            return Ok(false);
        };
        let (enabled, index) = ctx.desired.restart(ty);
        if enabled && index < conv::max_index(ty) {
            return Ok(false);
        }
        let size = u64::from(ty.size());
        let based = self
            .extra
            .multi_draw
            .is_some_and(|f| f.elements_base_vertex.is_some());
        let fits = |d: DirectDraw| match d {
            DirectDraw::Elements(e) => {
                (e.base_vertex == 0 || based)
                    && i32::try_from(e.count).is_ok()
                    && self
                        .buffers
                        .get_range("MultiDrawIndexed", ib, e.offset, u64::from(e.count) * size)
                        .is_ok()
            }
            DirectDraw::Arrays(_) => false,
        };
        Ok(draw.draws().all(fits))
    }

    /// Draws the call with one driver call.
    fn draw_at_once(
        &mut self,
        ctx: &mut GlesContext,
        draw: &MultiDrawArgs<'_>,
        fns: MultiDrawFns,
    ) -> R {
        const N: &str = "MultiDraw";
        let Some(mode) = conv::map_topology(draw.topology, &self.features) else {
            return Ok(());
        };
        if !self.prepare(N, ctx, dirty::ALL)? {
            return Ok(());
        }
        let mut lists = std::mem::take(&mut self.multi_draw_lists);
        lists.first.clear();
        lists.count.clear();
        lists.indices.clear();
        lists.base_vertex.clear();
        let mut based = false;
        let n = draw.len();
        if draw.index_type.is_none() {
            // Each draw: first vertex and vertex count, `u32` little-endian.
            for d in draw.bytes.chunks_exact(MULTI_DRAW_SIZE) {
                let word = |k: usize| u32::from_le_bytes([d[k], d[k + 1], d[k + 2], d[k + 3]]);
                let (first, count) = (word(0), word(4));
                let (Ok(first), Ok(count)) = (i32::try_from(first), i32::try_from(count)) else {
                    self.multi_draw_lists = lists;
                    return Err(tessera_wire::backend::bad_value(
                        N,
                        format!("draw of {count} vertices from {first}"),
                    ));
                };
                lists.first.push(first);
                lists.count.push(count);
            }
        } else {
            for d in draw.draws() {
                if let DirectDraw::Elements(e) = d {
                    lists.count.push(e.count as i32);
                    lists.indices.push(e.offset as usize);
                    lists.base_vertex.push(e.base_vertex);
                    based |= e.base_vertex != 0;
                }
            }
        }
        let n = n as i32;
        match draw.index_type {
            // SAFETY: context current; state reconciled (program linked and current, VAO
            // bound with buffer-backed attributes); mode from conv::map_topology; `n`
            // non-negative counts and firsts.
            None => unsafe { (fns.arrays)(mode, lists.first.as_ptr(), lists.count.as_ptr(), n) },
            Some(ty) => {
                let (enabled, index) = ctx.desired.restart(ty);
                self.shadow.enable(
                    &self.gl,
                    Cap::PrimitiveRestart,
                    enabled && index <= conv::max_index(ty),
                );
                let gl_ty = conv::map_index_type(ty);
                match fns.elements_base_vertex.filter(|_| based) {
                    // SAFETY: as above, with every draw's indices inside the bound index
                    // buffer (`draws_at_once`), named by their offsets into it (`usize`
                    // has the layout of a pointer).
                    Some(f) => unsafe {
                        f(
                            mode,
                            lists.count.as_ptr(),
                            gl_ty,
                            lists.indices.as_ptr().cast::<*const c_void>(),
                            n,
                            lists.base_vertex.as_ptr(),
                        )
                    },
                    // SAFETY: as above; no draw has a base vertex (`draws_at_once`).
                    None => unsafe {
                        let indices = lists.indices.as_ptr().cast::<*const c_void>();
                        (fns.elements)(mode, lists.count.as_ptr(), gl_ty, indices, n)
                    },
                }
            }
        }
        self.multi_draw_lists = lists;
        Ok(())
    }

    /// Draws the call's draws one at a time as direct draws.
    #[cold]
    #[inline(never)]
    fn draw_one_by_one(&mut self, ctx: &mut GlesContext, draw: MultiDrawArgs<'_>) -> R {
        for d in draw.draws() {
            match d {
                DirectDraw::Arrays(args) => self.draw(ctx, args)?,
                DirectDraw::Elements(args) => self.draw_indexed(ctx, args)?,
            }
        }
        Ok(())
    }
}
