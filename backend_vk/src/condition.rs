//! Conditional rendering (`BeginConditionalRender`, `EndConditionalRender`).
//!
//! With `VK_EXT_conditional_rendering` the device decides. The begin record copies the
//! query's result into the context's *predicate* — 4 bytes of one small host-visible buffer,
//! a slot per context that has used conditional rendering — with
//! `vkCmdCopyQueryPoolResults` (waiting for the result on the device, outside a render
//! pass; a query the device cannot count is filled with 0), and the verbs the condition
//! governs run inside `vkCmdBeginConditionalRenderingEXT` on that predicate (`INVERTED` for
//! GL's inverted modes): draws of every kind, clears (`vkCmdClearAttachments` and drawn
//! clears) and dispatches. The command buffer's conditional rendering is begun outside a
//! render pass at the first governed verb ([`VkPipe::condition_allows`]), so it spans
//! passes, and ended when a verb of another context or of no condition comes, at the next
//! begin record, and around each submission (a command buffer must not end with it
//! active; the next one begins it again, so a verb that submits halfway stays predicated).
//! A clear under a predicate never becomes a load op, which Vulkan does not predicate.
//!
//! Blits (`vkCmdBlitImage`, `vkCmdResolveImage`) are not predicated by Vulkan: a blit reads
//! the predicate on the host after waiting for the submission that wrote it (a wait GL's
//! `*_WAIT` modes ask for and its `*_NO_WAIT` modes allow), and the verdict then stands for
//! the rest of the condition. A device without the extension, a query kind other than the
//! occlusion ones, or a context past the buffer's slots read the query's result on the host
//! at the begin record instead, and skip the governed verbs of a failed condition.
//!
//! A query never ended (made by `glCreateQueries` and never begun) leaves rendering
//! unconditional, as on Mesa, which has no result to decide by then.
//!
//! A `SAMPLES_PASSED` count is copied as 32 bits, which Vulkan lets saturate or wrap: a
//! count of 2^32 samples or more could read as none on a device that wraps.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{QueryPipe, R};
use tessera_wire::format::QueryKind;
use tessera_wire::handle::QueryHandle;

use crate::command::VkContext;
use crate::device::{VkPipe, vk_error};
use crate::memory::{self, Owned};

/// Predicate slots of the buffer (4 bytes each): contexts using conditional rendering at
/// once. A context past them reads its results on the host.
const SLOTS: u32 = 256;

/// A context's active conditional rendering.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Condition {
    /// GL's inverted modes: the governed verbs take effect when the result is 0.
    pub inverted: bool,
    /// Known on the host: whether the governed verbs take effect. `None`: the device
    /// decides from the predicate in `slot`.
    pub verdict: Option<bool>,
    /// The context's predicate slot.
    pub slot: u32,
    /// The submission that wrote the predicate.
    pub written: u64,
}

/// What the command buffer's conditional rendering reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Active {
    /// The context whose condition it is.
    ctx: u64,
    slot: u32,
    inverted: bool,
}

/// The predicate buffer, its free slots, and what the command buffer has begun.
#[derive(Default)]
pub(crate) struct Predicates {
    /// Created at the first begin record on a device with the extension.
    buffer: Option<Owned>,
    /// Slots given back by destroyed contexts.
    free: Vec<u32>,
    /// Slots never handed out start here.
    next: u32,
    /// The conditional rendering active in the command buffer being recorded.
    active: Option<Active>,
}

impl Predicates {
    /// Gives a destroyed context's slot back.
    pub fn release(&mut self, slot: Option<u32>) {
        if let Some(s) = slot {
            self.free.push(s);
        }
    }

    /// Frees the buffer (the device is idle).
    pub fn destroy(&mut self, alloc: &vk_mem::Allocator) {
        if let Some(b) = self.buffer.take() {
            memory::free_buffer(alloc, b);
        }
    }

    /// Whether a predicate is active in the command buffer.
    pub fn active(&self) -> bool {
        self.active.is_some()
    }
}

impl VkPipe {
    /// `BeginConditionalRender`.
    pub(crate) fn begin_condition(
        &mut self,
        ctx: &mut VkContext,
        query: QueryHandle,
        inverted: bool,
    ) -> R {
        const N: &str = "BeginConditionalRender";
        let q = self.queries.get(N, query)?;
        let occlusion = matches!(
            q.kind,
            QueryKind::SamplesPassed | QueryKind::AnySamplesPassed
        );
        let (pool, ended) = (q.pool, q.ended);
        // The slot is about to be written: whatever reads a predicate ends first.
        self.end_pass()?;
        self.predicate_end();
        if ended == 0 {
            // Never ended: no result to decide by, so rendering stays unconditional, as on
            // Mesa (whose condition is then no query at all).
            ctx.condition = Some(Condition {
                inverted,
                verdict: Some(true),
                slot: 0,
                written: 0,
            });
            return Ok(());
        }
        let slot = match self.gpu.conditional.is_some() && occlusion {
            true => self.predicate_slot(ctx)?,
            false => None,
        };
        let Some(slot) = slot else {
            let passed = self.query_result(query)? != 0;
            ctx.condition = Some(Condition {
                inverted,
                verdict: Some(passed != inverted),
                slot: 0,
                written: 0,
            });
            return Ok(());
        };
        self.sync();
        let Some(buffer) = self.conditions.buffer.as_ref().map(|b| b.buffer) else {
            return Ok(());
        };
        let (raw, cmd) = (&self.raw, self.rec.cmd);
        let offset = 4 * u64::from(slot);
        // SAFETY: recording outside a render pass (ended above); the predicate buffer has
        // TRANSFER_DST usage and holds SLOTS * 4 bytes, `offset` a multiple of 4 inside it;
        // the pool is live, of one occlusion query that was ended (so it was reset and
        // begun before, in this or an earlier submission) and is not active now.
        unsafe {
            // Earlier conditional rendering may still read the slot (write after read).
            raw.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::CONDITIONAL_RENDERING_EXT,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[],
            );
            match pool {
                Some(pool) => raw.cmd_copy_query_pool_results(
                    cmd,
                    pool,
                    0,
                    1,
                    buffer,
                    offset,
                    4,
                    vk::QueryResultFlags::WAIT,
                ),
                _ => raw.cmd_fill_buffer(cmd, buffer, offset, 4, 0),
            }
            let written = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(
                    vk::AccessFlags::CONDITIONAL_RENDERING_READ_EXT | vk::AccessFlags::HOST_READ,
                );
            raw.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::CONDITIONAL_RENDERING_EXT | vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[written],
                &[],
                &[],
            );
        }
        self.rec.work = true;
        ctx.condition = Some(Condition {
            inverted,
            verdict: None,
            slot,
            written: self.serial(),
        });
        Ok(())
    }

    /// `EndConditionalRender`.
    pub(crate) fn end_condition(&mut self, ctx: &mut VkContext) -> R {
        ctx.condition = None;
        Ok(())
    }

    /// The context's predicate slot, made at its first use (and the buffer at the first
    /// of all); `None` past the last slot.
    fn predicate_slot(&mut self, ctx: &mut VkContext) -> Result<Option<u32>, SessionError> {
        if let Some(s) = ctx.predicate_slot {
            return Ok(Some(s));
        }
        if self.conditions.buffer.is_none() {
            let usage = vk::BufferUsageFlags::CONDITIONAL_RENDERING_EXT
                | vk::BufferUsageFlags::TRANSFER_DST;
            let b = memory::host_buffer(&self.alloc, 4 * u64::from(SLOTS), usage, true)
                .map_err(|e| vk_error("vmaCreateBuffer", e))?;
            self.conditions.buffer = Some(b);
        }
        let p = &mut self.conditions;
        let slot = p.free.pop().or_else(|| {
            (p.next < SLOTS).then(|| {
                p.next += 1;
                p.next - 1
            })
        });
        ctx.predicate_slot = slot;
        Ok(slot)
    }

    /// Before a draw, clear or dispatch of `ctx`: whether it takes effect (`false`: a
    /// condition known to have failed) and, when the device decides, the command buffer's
    /// conditional rendering switched to the context's predicate (or ended, without one).
    #[inline]
    pub(crate) fn condition_allows(&mut self, ctx: &VkContext) -> Result<bool, SessionError> {
        let want = match ctx.condition {
            None => None,
            Some(Condition {
                verdict: Some(v), ..
            }) => {
                if !v {
                    return Ok(false);
                }
                None
            }
            Some(c) => Some(Active {
                ctx: ctx.id,
                slot: c.slot,
                inverted: c.inverted,
            }),
        };
        if self.conditions.active != want {
            self.end_pass()?;
            self.predicate_end();
            if let Some(a) = want {
                self.predicate_begin(a);
            }
        }
        Ok(true)
    }

    /// Before a blit of `ctx`, which Vulkan does not predicate: whether it takes effect,
    /// reading the predicate on the host once its submission has retired.
    pub(crate) fn condition_verdict(&mut self, ctx: &mut VkContext) -> Result<bool, SessionError> {
        let Some(c) = ctx.condition else {
            return Ok(true);
        };
        if let Some(v) = c.verdict {
            return Ok(v);
        }
        self.wait_serial(c.written)?;
        let Some(b) = self.conditions.buffer.as_ref() else {
            return Ok(true);
        };
        let mut word = [0u8; 4];
        // SAFETY: the buffer is mapped, coherent and holds SLOTS * 4 bytes (slot below
        // SLOTS); the submission that wrote the slot retired and made the write visible to
        // the host (barrier to HOST_READ), and nothing pending writes it.
        unsafe {
            std::ptr::copy_nonoverlapping(b.ptr.add(4 * c.slot as usize), word.as_mut_ptr(), 4)
        };
        let passed = u32::from_le_bytes(word) != 0;
        let verdict = passed != c.inverted;
        ctx.condition = Some(Condition {
            verdict: Some(verdict),
            ..c
        });
        Ok(verdict)
    }

    /// Ends the command buffer's conditional rendering, if any (outside a render pass).
    pub(crate) fn predicate_end(&mut self) -> Option<Active> {
        let a = self.conditions.active.take()?;
        if let Some(fns) = &self.gpu.conditional {
            // SAFETY: recording outside a render pass (callers end it first); conditional
            // rendering is active, begun outside a render pass (predicate_begin).
            unsafe { (fns.fp().cmd_end_conditional_rendering_ext)(self.rec.cmd) };
        }
        Some(a)
    }

    /// Begins the command buffer's conditional rendering on a predicate (outside a render
    /// pass, none active).
    pub(crate) fn predicate_begin(&mut self, a: Active) {
        let (Some(fns), Some(b)) = (&self.gpu.conditional, &self.conditions.buffer) else {
            return;
        };
        let flags = if a.inverted {
            vk::ConditionalRenderingFlagsEXT::INVERTED
        } else {
            vk::ConditionalRenderingFlagsEXT::empty()
        };
        let info = vk::ConditionalRenderingBeginInfoEXT::default()
            .buffer(b.buffer)
            .offset(4 * u64::from(a.slot))
            .flags(flags);
        // SAFETY: recording outside a render pass with no conditional rendering active;
        // the buffer has CONDITIONAL_RENDERING_EXT usage, the offset is a multiple of 4 and
        // 4 bytes fit after it; the conditionalRendering feature is enabled.
        unsafe { (fns.fp().cmd_begin_conditional_rendering_ext)(self.rec.cmd, &info) };
        self.conditions.active = Some(a);
        self.rec.work = true;
    }
}
