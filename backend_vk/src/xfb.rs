//! Transform feedback through `VK_EXT_transform_feedback`.
//!
//! The program's last pre-rasterization stage already says what it captures (the front end
//! decorated its outputs with `XfbBuffer`, `XfbStride` and `Offset`), so pipelines need
//! nothing of their own. Vulkan captures only inside a render pass and forbids binding a
//! pipeline while capturing, while GL captures across passes and program-state changes; so
//! capture is begun and ended around each draw of the context that began it, and a small
//! counter buffer carries the byte offsets from one draw's end to the next draw's begin
//! (the first draw begins with no counters: at the start of each range). Every captured
//! draw leaves memory to synchronize, so the next transfer or pass boundary puts the
//! backend's global barrier before anything reads the buffers.
//!
//! The counters written by one draw's end are read by the next draw's begin, which
//! `VK_EXT_transform_feedback` orders only with a barrier from the `TRANSFORM_FEEDBACK`
//! stage (`TRANSFORM_FEEDBACK_COUNTER_WRITE`) to `DRAW_INDIRECT`
//! (`TRANSFORM_FEEDBACK_COUNTER_READ`). Inside a render pass a barrier needs a subpass
//! self-dependency, and one from a later stage to an earlier one is not allowed; so the
//! render pass ends after each captured draw, and the next begins after the backend's
//! global barrier (every write to every read). Captured draws thus cost a pass each; clears
//! pending on the pass run at its end as usual. A device without the extension captures
//! nothing and reports it once.
//!
//! A capture belongs to its transform feedback object ([`XfbObject`]), which the context
//! names while it captures unpaused. Pausing only stops the begin and end around draws: the
//! counters keep the offsets, and resuming begins from them. After the end they hold the
//! bytes each binding received, so `DrawTransformFeedback` is
//! `vkCmdDrawIndirectByteCountEXT` on the counter and stride of the binding the engine names
//! (the first buffer of the vertex stream drawn; the global barrier before the next pass
//! orders the counter write before that read). Vertex streams past 0 need nothing more
//! here: the front end decorates each captured output with its `Stream`, and only stream 0
//! is rasterized (the pipelines' default rasterization stream).

use ash::vk;
use tessera_wire::dispatch::{R, TransformFeedbackPipe};
use tessera_wire::format::Topology;
use tessera_wire::handle::TransformFeedbackHandle;
use tessera_wire::record::{MAX_XFB_BUFFERS, XfbBinding, XfbPrimitive};

use crate::command::VkContext;
use crate::device::{Missing, VkPipe, vk_error};
use crate::frame::Garbage;
use crate::memory::{self, Owned};

/// A transform feedback object: its last capture, if it was ever begun.
#[derive(Default)]
pub(crate) struct XfbObject {
    capture: Option<Capture>,
}

/// A capture, begun (and perhaps ended: its counters then hold what it wrote).
pub(crate) struct Capture {
    buffers: [XfbBinding; MAX_XFB_BUFFERS],
    /// The write offsets after the last captured draw, one `u32` per buffer.
    counters: Option<Owned>,
    /// Whether a draw was captured (the counters hold offsets).
    started: bool,
}

impl VkPipe {
    /// The bound capture ranges, as `vkCmdBindTransformFeedbackBuffersEXT` takes them: the
    /// bindings from 0 to the last the program writes (the engine binds exactly those).
    /// `gl_NextBuffer` may leave a binding between them unwritten, which gets the first
    /// range too (lavapipe faults on a gap); nothing is written there.
    fn xfb_ranges(&self, c: &Capture) -> (Vec<vk::Buffer>, Vec<u64>, Vec<u64>) {
        let bound: Vec<Option<(vk::Buffer, u64, u64)>> = c
            .buffers
            .iter()
            .map(|b| {
                let buf = b.buffer.and_then(|h| self.buffers.get("Draw", h).ok())?;
                (b.size > 0).then_some((buf.owned.buffer, b.offset, b.size))
            })
            .collect();
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        let Some(first) = bound.iter().flatten().next().copied() else {
            return out;
        };
        let n = bound.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
        for b in &bound[..n] {
            let (buffer, offset, size) = b.unwrap_or(first);
            out.0.push(buffer);
            out.1.push(offset);
            out.2.push(size);
        }
        out
    }

    /// The bindings a capture's begin and end name counters for: up to the last bound one.
    fn xfb_counted(c: &Capture) -> usize {
        c.buffers
            .iter()
            .rposition(|b| b.buffer.is_some() && b.size > 0)
            .map_or(0, |i| i + 1)
    }

    /// Before a draw of `ctx`, inside its pass with its pipeline bound: binds the capture
    /// buffers and begins capturing. Returns whether it did.
    pub(crate) fn xfb_before_draw(&mut self, ctx: &mut VkContext) -> bool {
        let Some(c) = ctx
            .xfb
            .and_then(|h| self.xfbs.live(h))
            .and_then(|o| o.capture.as_ref())
        else {
            return false;
        };
        let Some(fns) = self.gpu.xfb.as_ref() else {
            return false;
        };
        let (buffers, offsets, sizes) = self.xfb_ranges(c);
        let Some(counters) = c.counters.as_ref().filter(|_| !buffers.is_empty()) else {
            return false;
        };
        let n = buffers.len();
        let counter_buffers = vec![counters.buffer; n];
        let counter_offsets: Vec<u64> = (0..n as u64).map(|i| 4 * i).collect();
        // SAFETY: recording inside a render pass, with the pipeline of a program whose last
        // pre-rasterization stage declares `Xfb`; capture is not active (every begin is
        // ended after its draw); the buffers are live objects created with
        // TRANSFORM_FEEDBACK_BUFFER usage, each range inside its buffer (the engine clamps
        // ranges to the storage) and 4-byte aligned; the counter buffer has
        // TRANSFORM_FEEDBACK_COUNTER_BUFFER usage and one u32 per buffer. Before the first
        // draw no counters are passed: capture starts at each range's start.
        unsafe {
            let fp = fns.fp();
            (fp.cmd_bind_transform_feedback_buffers_ext)(
                self.rec.cmd,
                0,
                n as u32,
                buffers.as_ptr(),
                offsets.as_ptr(),
                sizes.as_ptr(),
            );
            if c.started {
                (fp.cmd_begin_transform_feedback_ext)(
                    self.rec.cmd,
                    0,
                    n as u32,
                    counter_buffers.as_ptr(),
                    counter_offsets.as_ptr(),
                );
            } else {
                (fp.cmd_begin_transform_feedback_ext)(
                    self.rec.cmd,
                    0,
                    0,
                    std::ptr::null(),
                    std::ptr::null(),
                );
            }
        }
        true
    }

    /// After a captured draw: ends capturing, saving the offsets in the counters.
    pub(crate) fn xfb_after_draw(&mut self, ctx: &mut VkContext) {
        let c = ctx
            .xfb
            .and_then(|h| self.xfbs.get_mut("Draw", h).ok())
            .and_then(|o| o.capture.as_mut());
        let (Some(c), Some(fns)) = (c, self.gpu.xfb.as_ref()) else {
            return;
        };
        let Some(counters) = c.counters.as_ref() else {
            return;
        };
        let n = Self::xfb_counted(c);
        let counter_buffers = vec![counters.buffer; n];
        let counter_offsets: Vec<u64> = (0..n as u64).map(|i| 4 * i).collect();
        // SAFETY: capture is active (begun by xfb_before_draw in this pass, for the same
        // bindings); the counter buffer holds one u32 per binding.
        unsafe {
            (fns.fp().cmd_end_transform_feedback_ext)(
                self.rec.cmd,
                0,
                n as u32,
                counter_buffers.as_ptr(),
                counter_offsets.as_ptr(),
            )
        };
        c.started = true;
        self.rec.dirty_mem = true;
        // The next begin reads the counters this end wrote. That needs a barrier from
        // TRANSFORM_FEEDBACK/COUNTER_WRITE to DRAW_INDIRECT/COUNTER_READ, which a render
        // pass cannot hold (a subpass self-dependency must not go from a later stage to an
        // earlier one): so the pass ends here, and the next draw's pass begins after the
        // backend's global barrier.
        if let Err(e) = self.end_pass() {
            log::error!("tessera-backend-vk: ending a render pass after a capture failed: {e}");
        }
    }

    /// Drops an object's capture: its counter buffer goes once the frame retires.
    fn xfb_drop_capture(&mut self, capture: Option<Capture>) {
        if let Some(counters) = capture.and_then(|c| c.counters) {
            self.defer(Garbage::Buffer(counters));
        }
    }
}

impl TransformFeedbackPipe for VkPipe {
    fn create_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R {
        self.xfbs
            .insert("CreateTransformFeedback", xfb, XfbObject::default())
    }

    fn destroy_transform_feedback(&mut self, xfb: TransformFeedbackHandle) -> R {
        let o = self.xfbs.remove("DestroyTransformFeedback", xfb)?;
        self.xfb_drop_capture(o.capture);
        Ok(())
    }

    fn begin_transform_feedback(
        &mut self,
        ctx: &mut VkContext,
        xfb: TransformFeedbackHandle,
        _primitive: XfbPrimitive,
        buffers: [XfbBinding; MAX_XFB_BUFFERS],
    ) -> R {
        const N: &str = "BeginTransformFeedback";
        let old = self.xfbs.get_mut(N, xfb)?.capture.take();
        self.xfb_drop_capture(old);
        let counters = if self.tiers.transform_feedback {
            let usage = vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT
                | vk::BufferUsageFlags::INDIRECT_BUFFER;
            Some(
                memory::device_buffer(&self.alloc, 4 * MAX_XFB_BUFFERS as u64, usage)
                    .map_err(|e| vk_error("vkCreateBuffer", e))?,
            )
        } else {
            self.report(
                Missing::TransformFeedback,
                "VK_EXT_transform_feedback is missing: transform feedback captures nothing",
            );
            None
        };
        self.xfbs.get_mut(N, xfb)?.capture = Some(Capture {
            buffers,
            counters,
            started: false,
        });
        ctx.xfb = Some(xfb);
        Ok(())
    }

    fn pause_transform_feedback(&mut self, ctx: &mut VkContext, _: TransformFeedbackHandle) -> R {
        ctx.xfb = None;
        Ok(())
    }

    fn resume_transform_feedback(
        &mut self,
        ctx: &mut VkContext,
        xfb: TransformFeedbackHandle,
    ) -> R {
        ctx.xfb = Some(xfb);
        Ok(())
    }

    fn end_transform_feedback(&mut self, ctx: &mut VkContext, xfb: TransformFeedbackHandle) -> R {
        if ctx.xfb == Some(xfb) {
            ctx.xfb = None;
        }
        Ok(())
    }

    fn draw_transform_feedback(
        &mut self,
        ctx: &mut VkContext,
        topology: Topology,
        xfb: TransformFeedbackHandle,
        instances: u32,
        binding: u8,
    ) -> R {
        if !self.condition_allows(ctx)? {
            return Ok(());
        }
        let source = self
            .xfbs
            .get("DrawTransformFeedback", xfb)?
            .capture
            .as_ref()
            .filter(|c| c.started)
            .and_then(|c| {
                let b = c
                    .buffers
                    .get(usize::from(binding))
                    .filter(|b| b.buffer.is_some())?;
                Some((c.counters.as_ref()?.buffer, b.stride))
            });
        // Nothing captured (or no extension): no vertices to draw.
        let (Some((counters, stride)), Some(fns)) = (source, self.gpu.xfb.as_ref()) else {
            return Ok(());
        };
        if instances == 0 || stride == 0 {
            return Ok(());
        }
        let fns = fns.clone();
        self.draw_with(ctx, topology, instances, |pipe| {
            // SAFETY: recording inside the pass with everything bound by the draw's
            // preparation; the counter buffer has INDIRECT_BUFFER usage and holds the
            // binding's byte count at 4 * binding, written by the capture's last end
            // (ordered before this pass by the global barrier); the stride is the binding's
            // nonzero XfbStride, within maxTransformFeedbackBufferDataStride (GL's limits
            // are lower).
            unsafe {
                (fns.fp().cmd_draw_indirect_byte_count_ext)(
                    pipe.rec.cmd,
                    instances,
                    0,
                    counters,
                    4 * u64::from(binding),
                    0,
                    stride,
                )
            };
        })
    }
}
