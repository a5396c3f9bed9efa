//! Clears: folded into render-pass load ops, recorded with `vkCmdClearAttachments`, or
//! drawn.
//!
//! GL clears honour the colour and stencil write masks; Vulkan's clear commands write whole
//! texels. A clear whose masks are all full takes the cheap paths: a whole-attachment clear
//! of a target whose pass has not begun becomes that attachment's `CLEAR` load op (ANGLE's
//! deferred clears), any other one `vkCmdClearAttachments` in the pass. A clear through a
//! partial mask is *drawn*: a full-screen triangle of a built-in program writes the colour
//! from a push constant through the masks, the depth at the clear depth (test ALWAYS), and
//! the stencil value by REPLACE through the stencil write mask. Its pipelines are cached
//! like the programs' (by pass compatibility and masks), so steady frames create none.
//! Its fragment stage has one output per draw buffer, of the attachment's numeric class; an
//! integer attachment cleared through a partial mask is drawn on its own, its value's words
//! pushed as the colour's bits.

use std::collections::HashMap;

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{ClearArgs, R};
use tessera_wire::record::{ClearValue, clear_mask};
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::command::{Pending, VkContext, same_target};
use crate::device::{VkPipe, backend_bug};
use crate::framebuffer::Target;
use crate::pipeline::{PipelineStates, shader_stage};
use crate::spirv::NumClass;

/// The built-in clear program's vertex stage (glslangValidator -V of):
/// ```glsl
/// #version 450
/// layout(push_constant) uniform P { vec4 color; float depth; } p;
/// void main() {
///     vec2 pos = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2) * 2.0 - 1.0;
///     gl_Position = vec4(pos, p.depth, 1.0);
/// }
/// ```
#[rustfmt::skip]
const CLEAR_VS: &[u32] = &[
    0x07230203, 0x00010000, 0x0008000b, 0x00000030, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0007000f, 0x00000000, 0x00000004, 0x6e69616d, 0x00000000, 0x0000000c, 0x00000022, 0x00030003,
    0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000, 0x00030005, 0x00000009,
    0x00736f70, 0x00060005, 0x0000000c, 0x565f6c67, 0x65747265, 0x646e4978, 0x00007865, 0x00060005,
    0x00000020, 0x505f6c67, 0x65567265, 0x78657472, 0x00000000, 0x00060006, 0x00000020, 0x00000000,
    0x505f6c67, 0x7469736f, 0x006e6f69, 0x00070006, 0x00000020, 0x00000001, 0x505f6c67, 0x746e696f,
    0x657a6953, 0x00000000, 0x00070006, 0x00000020, 0x00000002, 0x435f6c67, 0x4470696c, 0x61747369,
    0x0065636e, 0x00070006, 0x00000020, 0x00000003, 0x435f6c67, 0x446c6c75, 0x61747369, 0x0065636e,
    0x00030005, 0x00000022, 0x00000000, 0x00030005, 0x00000025, 0x00000050, 0x00050006, 0x00000025,
    0x00000000, 0x6f6c6f63, 0x00000072, 0x00050006, 0x00000025, 0x00000001, 0x74706564, 0x00000068,
    0x00030005, 0x00000027, 0x00000070, 0x00040047, 0x0000000c, 0x0000000b, 0x0000002a, 0x00050048,
    0x00000020, 0x00000000, 0x0000000b, 0x00000000, 0x00050048, 0x00000020, 0x00000001, 0x0000000b,
    0x00000001, 0x00050048, 0x00000020, 0x00000002, 0x0000000b, 0x00000003, 0x00050048, 0x00000020,
    0x00000003, 0x0000000b, 0x00000004, 0x00030047, 0x00000020, 0x00000002, 0x00050048, 0x00000025,
    0x00000000, 0x00000023, 0x00000000, 0x00050048, 0x00000025, 0x00000001, 0x00000023, 0x00000010,
    0x00030047, 0x00000025, 0x00000002, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002,
    0x00030016, 0x00000006, 0x00000020, 0x00040017, 0x00000007, 0x00000006, 0x00000002, 0x00040020,
    0x00000008, 0x00000007, 0x00000007, 0x00040015, 0x0000000a, 0x00000020, 0x00000001, 0x00040020,
    0x0000000b, 0x00000001, 0x0000000a, 0x0004003b, 0x0000000b, 0x0000000c, 0x00000001, 0x0004002b,
    0x0000000a, 0x0000000e, 0x00000001, 0x0004002b, 0x0000000a, 0x00000010, 0x00000002, 0x0004002b,
    0x00000006, 0x00000017, 0x40000000, 0x0004002b, 0x00000006, 0x00000019, 0x3f800000, 0x00040017,
    0x0000001c, 0x00000006, 0x00000004, 0x00040015, 0x0000001d, 0x00000020, 0x00000000, 0x0004002b,
    0x0000001d, 0x0000001e, 0x00000001, 0x0004001c, 0x0000001f, 0x00000006, 0x0000001e, 0x0006001e,
    0x00000020, 0x0000001c, 0x00000006, 0x0000001f, 0x0000001f, 0x00040020, 0x00000021, 0x00000003,
    0x00000020, 0x0004003b, 0x00000021, 0x00000022, 0x00000003, 0x0004002b, 0x0000000a, 0x00000023,
    0x00000000, 0x0004001e, 0x00000025, 0x0000001c, 0x00000006, 0x00040020, 0x00000026, 0x00000009,
    0x00000025, 0x0004003b, 0x00000026, 0x00000027, 0x00000009, 0x00040020, 0x00000028, 0x00000009,
    0x00000006, 0x00040020, 0x0000002e, 0x00000003, 0x0000001c, 0x00050036, 0x00000002, 0x00000004,
    0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x0004003b, 0x00000008, 0x00000009, 0x00000007,
    0x0004003d, 0x0000000a, 0x0000000d, 0x0000000c, 0x000500c4, 0x0000000a, 0x0000000f, 0x0000000d,
    0x0000000e, 0x000500c7, 0x0000000a, 0x00000011, 0x0000000f, 0x00000010, 0x0004006f, 0x00000006,
    0x00000012, 0x00000011, 0x0004003d, 0x0000000a, 0x00000013, 0x0000000c, 0x000500c7, 0x0000000a,
    0x00000014, 0x00000013, 0x00000010, 0x0004006f, 0x00000006, 0x00000015, 0x00000014, 0x00050050,
    0x00000007, 0x00000016, 0x00000012, 0x00000015, 0x0005008e, 0x00000007, 0x00000018, 0x00000016,
    0x00000017, 0x00050050, 0x00000007, 0x0000001a, 0x00000019, 0x00000019, 0x00050083, 0x00000007,
    0x0000001b, 0x00000018, 0x0000001a, 0x0003003e, 0x00000009, 0x0000001b, 0x0004003d, 0x00000007,
    0x00000024, 0x00000009, 0x00050041, 0x00000028, 0x00000029, 0x00000027, 0x0000000e, 0x0004003d,
    0x00000006, 0x0000002a, 0x00000029, 0x00050051, 0x00000006, 0x0000002b, 0x00000024, 0x00000000,
    0x00050051, 0x00000006, 0x0000002c, 0x00000024, 0x00000001, 0x00070050, 0x0000001c, 0x0000002d,
    0x0000002b, 0x0000002c, 0x0000002a, 0x00000019, 0x00050041, 0x0000002e, 0x0000002f, 0x00000022,
    0x00000023, 0x0003003e, 0x0000002f, 0x0000002d, 0x000100fd, 0x00010038,
];

/// What selects one clear pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClearKey {
    /// Render pass compatibility id.
    pass: u32,
    /// Colour write mask per draw buffer (4 bits each).
    masks: u32,
    depth: bool,
    /// Stencil write mask (0: stencil untouched).
    stencil: u8,
}

/// The clear program's objects, made on first use.
#[derive(Default)]
pub(crate) struct ClearCache {
    vertex: Option<vk::ShaderModule>,
    /// Fragment stages by their outputs' numeric classes.
    fragments: HashMap<Vec<NumClass>, vk::ShaderModule>,
    layout: Option<vk::PipelineLayout>,
    pipelines: HashMap<ClearKey, vk::Pipeline>,
}

/// The colour clears that write something under `write_mask` (four bits per draw buffer):
/// (draw buffer, value, attachment index, the draw buffer's write bits).
fn written_colors<'a>(
    colors: &'a [Option<ClearValue>; MAX_DRAW_BUFFERS],
    target: &'a Target,
    write_mask: u32,
) -> impl Iterator<Item = (usize, &'a ClearValue, u8, u32)> + 'a {
    colors.iter().enumerate().filter_map(move |(i, c)| {
        let write = (write_mask >> (4 * i)) & 0xf;
        match (c, target.slot[i]) {
            (Some(c), Some(at)) if write != 0 => Some((i, c, at, write)),
            _ => None,
        }
    })
}

impl ClearCache {
    /// Destroys everything (the device is idle).
    pub fn destroy(&mut self, raw: &ash::Device) {
        // SAFETY: teardown after the device went idle; each object once.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                raw.destroy_pipeline(p, None);
            }
            if let Some(l) = self.layout.take() {
                raw.destroy_pipeline_layout(l, None);
            }
            for m in self
                .vertex
                .take()
                .into_iter()
                .chain(self.fragments.drain().map(|(_, m)| m))
            {
                raw.destroy_shader_module(m, None);
            }
        }
    }
}

/// Push constants of the clear program: colour, then depth.
const CLEAR_PUSH: u32 = 20;

impl VkPipe {
    /// The scissored part of a target (the whole target without the scissor test).
    pub(crate) fn scissor_rect(
        &self,
        ctx: &VkContext,
        extent: vk::Extent2D,
        index: usize,
    ) -> Option<vk::Rect2D> {
        let raster = self.interned.raster.value(ctx.raster);
        let (w, h) = (extent.width as i32, extent.height as i32);
        let (x0, y0, x1, y1) = if raster.scissor & (1 << index) != 0 {
            let s = ctx.desired.scissors[index];
            (
                s.x.max(0),
                s.y.max(0),
                s.x.saturating_add(s.width).min(w),
                s.y.saturating_add(s.height).min(h),
            )
        } else {
            (0, 0, w, h)
        };
        (x1 > x0 && y1 > y0).then_some(vk::Rect2D {
            offset: vk::Offset2D { x: x0, y: y0 },
            extent: vk::Extent2D {
                width: (x1 - x0) as u32,
                height: (y1 - y0) as u32,
            },
        })
    }

    /// `Clear`: the draw buffers, depth and stencil its mask names.
    pub fn clear_framebuffer(&mut self, ctx: &mut VkContext, clear: ClearArgs) -> R {
        let ClearArgs {
            mask,
            color,
            depth,
            stencil,
        } = clear;
        let mut values = [None; MAX_DRAW_BUFFERS];
        for (i, v) in values.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                *v = Some(ClearValue::Float(color));
            }
        }
        let d = (mask & clear_mask::DEPTH != 0).then_some(depth);
        let s = (mask & clear_mask::STENCIL != 0).then_some(stencil);
        self.clear_values(ctx, values, d, s)
    }

    /// `ClearBuffer`: one draw buffer, or depth and stencil.
    pub fn clear_draw_buffer(&mut self, ctx: &mut VkContext, index: u8, value: ClearValue) -> R {
        let mut values = [None; MAX_DRAW_BUFFERS];
        let (mut d, mut s) = (None, None);
        match value {
            ClearValue::Depth(v) => d = Some(v),
            ClearValue::Stencil(v) => s = Some(v),
            ClearValue::DepthStencil(dv, sv) => (d, s) = (Some(dv), Some(sv)),
            v => {
                if let Some(slot) = values.get_mut(usize::from(index)) {
                    *slot = Some(v);
                }
            }
        }
        self.clear_values(ctx, values, d, s)
    }

    fn clear_values(
        &mut self,
        ctx: &mut VkContext,
        colors: [Option<ClearValue>; MAX_DRAW_BUFFERS],
        depth: Option<f32>,
        stencil: Option<u8>,
    ) -> Result<(), SessionError> {
        let Some(target) = self.ctx_target(ctx)? else {
            return Ok(());
        };
        let blend = *self.interned.blend.value(ctx.blend);
        let ds = *self.interned.depth_stencil.value(ctx.depth_stencil);
        // Clears are scissored by rectangle 0 alone (GL 4.1 §17.4.3).
        let Some(rect) = self.scissor_rect(ctx, target.extent, 0) else {
            return Ok(());
        };
        let full = rect.offset.x == 0 && rect.offset.y == 0 && rect.extent == target.extent;
        let mut values: Vec<Option<vk::ClearValue>> = vec![None; target.images.len()];
        let mut masked = false;
        for (i, c, at, write) in written_colors(&colors, &target, blend.color_write_mask) {
            masked |= write != 0xf;
            let class = target.class[i];
            let value = match (*c, class) {
                (ClearValue::Float(v), NumClass::Int) => vk::ClearColorValue {
                    int32: v.map(|x| x as i32),
                },
                (ClearValue::Float(v), NumClass::Uint) => vk::ClearColorValue {
                    uint32: v.map(|x| x as u32),
                },
                (ClearValue::Float(v), _) => vk::ClearColorValue { float32: v },
                (ClearValue::Int(v), _) => vk::ClearColorValue { int32: v },
                (ClearValue::Uint(v), _) => vk::ClearColorValue { uint32: v },
                _ => continue,
            };
            values[usize::from(at)] = Some(vk::ClearValue { color: value });
        }
        let (mut clear_d, mut clear_s) = (false, false);
        if let Some((at, has_d, has_s)) = target.depth_stencil {
            let d = depth.filter(|_| has_d && ds.depth_write);
            let s = stencil.filter(|_| has_s && ds.front.write_mask != 0);
            masked |= s.is_some() && ds.front.write_mask != 0xff;
            if d.is_some() || s.is_some() {
                clear_d = d.is_some();
                clear_s = s.is_some();
                values[usize::from(at)] = Some(vk::ClearValue {
                    depth_stencil: vk::ClearDepthStencilValue {
                        depth: d.unwrap_or(0.0).clamp(0.0, 1.0),
                        stencil: u32::from(s.unwrap_or(0)),
                    },
                });
            }
        }
        if masked {
            return self.draw_clear(
                ctx, &target, rect, &colors, &values, depth, clear_d, clear_s, stencil,
            );
        }
        if values.iter().all(Option::is_none) {
            return Ok(());
        }
        self.rec.work = true;
        // Load ops are not predicated: a clear under a condition is always recorded.
        if full && !self.pass_is(ctx) && !self.conditions.active() {
            // Fold into the load ops of the target's next pass.
            let same = self.rec.pending.as_ref().is_some_and(|p| {
                same_target(
                    &p.target,
                    target.fb,
                    &target.draw_buffers,
                    target.epoch,
                    target.srgb,
                )
            });
            if !same {
                self.end_pass()?;
                self.rec.pending = Some(Pending {
                    target: target.clone(),
                    values: vec![None; target.images.len()],
                    depth: false,
                    stencil: false,
                });
            }
            let Some(p) = self.rec.pending.as_mut() else {
                backend_bug("pending clears were just set");
            };
            for (i, v) in values.iter().enumerate() {
                if let Some(v) = v {
                    p.values[i] = Some(*v);
                }
            }
            if let Some((at, _, _)) = target.depth_stencil
                && (clear_d || clear_s)
            {
                // Depth and stencil values live in one clear value: merge with earlier ones.
                let prev = p.values[usize::from(at)];
                let (pd, ps) = (p.depth, p.stencil);
                let mut merged = values[usize::from(at)].map(|v| {
                    // SAFETY: a union read; depth-stencil attachments only ever hold the
                    // `depth_stencil` member here.
                    unsafe { v.depth_stencil }
                });
                if let (Some(m), Some(prev)) = (merged.as_mut(), prev) {
                    // SAFETY: as above.
                    let prev = unsafe { prev.depth_stencil };
                    if !clear_d && pd {
                        m.depth = prev.depth;
                    }
                    if !clear_s && ps {
                        m.stencil = prev.stencil;
                    }
                }
                p.values[usize::from(at)] = merged.map(|m| vk::ClearValue { depth_stencil: m });
                p.depth |= clear_d;
                p.stencil |= clear_s;
            }
            return Ok(());
        }
        self.begin_pass(&target)?;
        let mut attachments = Vec::new();
        for (i, c) in colors.iter().enumerate() {
            if c.is_none() {
                continue;
            }
            if let Some(at) = target.slot[i]
                && let Some(v) = values[usize::from(at)]
            {
                attachments.push(vk::ClearAttachment {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    color_attachment: i as u32,
                    clear_value: v,
                });
            }
        }
        if let Some((at, _, _)) = target.depth_stencil
            && let Some(v) = values[usize::from(at)]
        {
            let mut aspect = vk::ImageAspectFlags::empty();
            if clear_d {
                aspect |= vk::ImageAspectFlags::DEPTH;
            }
            if clear_s {
                aspect |= vk::ImageAspectFlags::STENCIL;
            }
            attachments.push(vk::ClearAttachment {
                aspect_mask: aspect,
                color_attachment: 0,
                clear_value: v,
            });
        }
        let rects = [vk::ClearRect {
            rect,
            base_array_layer: 0,
            layer_count: target.layers,
        }];
        // SAFETY: recording inside the target's pass; each colour attachment index is a
        // subpass colour attachment with an image; aspects present in the depth-stencil
        // attachment; the rectangle lies inside the render area.
        unsafe {
            self.raw
                .cmd_clear_attachments(self.rec.cmd, &attachments, &rects)
        };
        Ok(())
    }

    /// The clear pipeline of a key, created on a miss; `classes` are the numeric classes of
    /// the pass's colour attachments (the pass compatibility id fixes them).
    fn clear_pipeline(
        &mut self,
        key: ClearKey,
        classes: &[NumClass],
    ) -> Result<(vk::Pipeline, vk::PipelineLayout), SessionError> {
        if let (Some(&p), Some(layout)) = (self.clears.pipelines.get(&key), self.clears.layout) {
            return Ok((p, layout));
        }
        let pass_key = *self.pipes.compat.value(key.pass);
        let n = pass_key.color_count();
        let classes = &classes[..n.min(classes.len())];
        // Whole SPIR-V modules (compiled by glslangValidator, or built by
        // spirv::clear_fragment).
        if self.clears.vertex.is_none() {
            let m = self.shader_module(CLEAR_VS);
            self.clears.vertex = Some(m.map_err(SessionError::Backend)?);
        }
        if !self.clears.fragments.contains_key(classes) {
            let m = self.shader_module(&crate::spirv::clear_fragment(classes));
            let m = m.map_err(SessionError::Backend)?;
            self.clears.fragments.insert(classes.to_vec(), m);
        }
        if self.clears.layout.is_none() {
            let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
            self.clears.layout = Some(self.pipeline_layout(&[], stages, CLEAR_PUSH)?);
        }
        let (Some(vs), Some(&fs), Some(layout)) = (
            self.clears.vertex,
            self.clears.fragments.get(classes),
            self.clears.layout,
        ) else {
            backend_bug("the clear program was just made");
        };
        let pass = self.render_pass(&pass_key)?;
        let stages = [
            shader_stage(vk::ShaderStageFlags::VERTEX, vs),
            shader_stage(vk::ShaderStageFlags::FRAGMENT, fs),
        ];
        let sample_mask = [u32::MAX];
        let stencil_face = vk::StencilOpState {
            fail_op: vk::StencilOp::REPLACE,
            pass_op: vk::StencilOp::REPLACE,
            depth_fail_op: vk::StencilOp::REPLACE,
            compare_op: vk::CompareOp::ALWAYS,
            compare_mask: 0xff,
            write_mask: u32::from(key.stencil),
            reference: 0,
        };
        let has_ds = pass_key.depth_stencil != vk::Format::UNDEFINED;
        let mut attachments = [vk::PipelineColorBlendAttachmentState::default(); MAX_DRAW_BUFFERS];
        for (i, a) in attachments.iter_mut().enumerate().take(n) {
            *a = vk::PipelineColorBlendAttachmentState::default().color_write_mask(
                vk::ColorComponentFlags::from_raw((key.masks >> (4 * i)) & 0xf),
            );
        }
        // A full-screen triangle list, no vertex input.
        let states = PipelineStates {
            stages: &stages,
            vertex_input: vk::PipelineVertexInputStateCreateInfo::default(),
            input_assembly: vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST),
            viewport: vk::PipelineViewportStateCreateInfo::default()
                .viewport_count(1)
                .scissor_count(1),
            rasterization: vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .line_width(1.0),
            multisample: vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(pass_key.samples)
                .sample_mask(&sample_mask),
            depth_stencil: vk::PipelineDepthStencilStateCreateInfo::default()
                .depth_test_enable(key.depth && has_ds)
                .depth_write_enable(key.depth && has_ds)
                .depth_compare_op(vk::CompareOp::ALWAYS)
                .stencil_test_enable(key.stencil != 0 && has_ds)
                .front(stencil_face)
                .back(stencil_face)
                .max_depth_bounds(1.0),
            color_blend: vk::PipelineColorBlendStateCreateInfo::default()
                .attachments(&attachments[..n]),
            tessellation: None,
        };
        let dynamic_states = [
            vk::DynamicState::VIEWPORT,
            vk::DynamicState::SCISSOR,
            vk::DynamicState::STENCIL_REFERENCE,
        ];
        // The modules, layout and render pass are live.
        let pipeline = self.create_pipeline(&states, &dynamic_states, layout, pass)?;
        self.clears.pipelines.insert(key, pipeline);
        Ok((pipeline, layout))
    }

    /// Draws a clear through the write masks: the float attachments' colour, depth and
    /// stencil in one draw; each integer attachment under a partial mask in a draw of its
    /// own (its value's words as the colour's bits); integer attachments under a full mask
    /// with `vkCmdClearAttachments`.
    #[expect(
        clippy::too_many_arguments,
        reason = "the clear's parts, decided by the caller"
    )]
    fn draw_clear(
        &mut self,
        ctx: &VkContext,
        target: &Target,
        rect: vk::Rect2D,
        colors: &[Option<ClearValue>; MAX_DRAW_BUFFERS],
        values: &[Option<vk::ClearValue>],
        depth: Option<f32>,
        clear_d: bool,
        clear_s: bool,
        stencil: Option<u8>,
    ) -> Result<(), SessionError> {
        let blend = *self.interned.blend.value(ctx.blend);
        let ds = *self.interned.depth_stencil.value(ctx.depth_stencil);
        self.begin_pass(target)?;
        let cmd = self.rec.cmd;
        let mut masks = 0u32;
        let mut color = [0u32; 4];
        let mut integer = Vec::new();
        let mut masked_integer = Vec::new();
        for (i, c, at, write) in written_colors(colors, target, blend.color_write_mask) {
            match (target.class[i], c) {
                (NumClass::Float, ClearValue::Float(v)) => {
                    masks |= write << (4 * i);
                    color = v.map(f32::to_bits);
                }
                _ => {
                    let Some(v) = values[usize::from(at)] else {
                        continue;
                    };
                    if write == 0xf {
                        integer.push(vk::ClearAttachment {
                            aspect_mask: vk::ImageAspectFlags::COLOR,
                            color_attachment: i as u32,
                            clear_value: v,
                        });
                    } else {
                        // SAFETY: a union read of plain words; the value was made for an
                        // integer attachment (`int32` or `uint32`, the same bits).
                        let words = unsafe { v.color.uint32 };
                        masked_integer.push((write << (4 * i), words));
                    }
                }
            }
        }
        let rects = [vk::ClearRect {
            rect,
            base_array_layer: 0,
            layer_count: target.layers,
        }];
        if !integer.is_empty() {
            // SAFETY: recording inside the target's pass; colour attachments with images;
            // the rectangle inside the render area.
            unsafe { self.raw.cmd_clear_attachments(cmd, &integer, &rects) };
        }
        let reference = u32::from(stencil.unwrap_or(0));
        for (masks, words) in masked_integer {
            let key = ClearKey {
                pass: target.pass_id,
                masks,
                depth: false,
                stencil: 0,
            };
            self.clear_draw(target, rect, key, words, 0.0, reference)?;
        }
        let key = ClearKey {
            pass: target.pass_id,
            masks,
            depth: clear_d,
            stencil: if clear_s { ds.front.write_mask } else { 0 },
        };
        if key.masks == 0 && !key.depth && key.stencil == 0 {
            return Ok(());
        }
        let depth = depth.unwrap_or(0.0).clamp(0.0, 1.0);
        self.clear_draw(target, rect, key, color, depth, reference)
    }

    /// One draw of the clear program: `color`'s words (a float colour's bits, or an integer
    /// value's) through the key's masks, at `depth`, with the stencil reference.
    fn clear_draw(
        &mut self,
        target: &Target,
        rect: vk::Rect2D,
        key: ClearKey,
        color: [u32; 4],
        depth: f32,
        reference: u32,
    ) -> Result<(), SessionError> {
        let cmd = self.rec.cmd;
        let (pipeline, layout) = self.clear_pipeline(key, &target.class)?;
        let mut push = [0u8; CLEAR_PUSH as usize];
        for (i, v) in color.iter().enumerate() {
            push[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
        push[16..20].copy_from_slice(&depth.to_le_bytes());
        let viewport = vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: target.extent.width as f32,
            height: target.extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        // SAFETY: recording inside the target's pass; the pipeline was made for a pass
        // compatible with it; the push-constant range covers 20 bytes for both stages;
        // three vertices with no vertex input.
        unsafe {
            self.raw
                .cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            self.raw.cmd_set_viewport(cmd, 0, &[viewport]);
            self.raw.cmd_set_scissor(cmd, 0, &[rect]);
            self.raw.cmd_set_stencil_reference(
                cmd,
                vk::StencilFaceFlags::FRONT_AND_BACK,
                reference,
            );
            self.raw.cmd_push_constants(
                cmd,
                layout,
                vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                0,
                &push,
            );
            self.raw.cmd_draw(cmd, 3, 1, 0, 0);
        }
        self.rec.forget_after_clear(pipeline);
        Ok(())
    }
}
