//! Pipelines, render passes and layouts: everything Vulkan bakes, cached so that steady-state
//! frames create nothing.
//!
//! ## Keys
//! A graphics pipeline is keyed by [`PipelineKey`]: the interned ids of the bound blend,
//! depth-stencil, raster and vertex-layout CSOs, the render pass *compatibility* id (colour
//! formats per draw buffer, depth-stencil format, sample count, which attachments blend),
//! the native topology, primitive restart, whether the point-size variant of the program is
//! used, and the sample mask. The raster CSO also decides the specialization constant of a
//! fragment stage that reads `gl_PointCoord` (`spirv/point_coord.rs`). Everything Vulkan 1.1 can set dynamically (viewport, scissor,
//! line width, depth bias, blend constants, stencil reference) stays out of the key. Each
//! program owns its pipelines (a per-program hash map, as Zink does), so destroying a
//! program destroys its pipelines and no global map holds stale entries. All pipelines are
//! created through one `VkPipelineCache`.
//!
//! The pipeline cache persists in Tessera's cache store ([`tessera_cache`]): its data is
//! loaded when the device is made and saved every 64 pipelines and when it is destroyed,
//! keyed by the driver's `pipelineCacheUUID`, vendor, device and driver version (the driver
//! checks the data's own header too, and ignores data it did not write). Pipeline creation
//! feedback (Vulkan 1.3) reports whether each pipeline came from that cache; the store
//! counts both outcomes.
//!
//! Render passes are cached by format, sample count and load ops; a pipeline is created
//! against the all-`LOAD` pass of its compatibility class, and is compatible with the
//! clearing variants.
//!
//! Descriptor set layouts are cached by their binding list, so programs of the same shape
//! share one; pipeline layouts by set layout. Each creation bumps a counter of [`VkStats`].
//!
//! [`VkStats`]: crate::VkStats

use std::collections::HashMap;

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::format::{AttribType, PolygonMode};
use tessera_wire::handle::ProgramHandle;
use tessera_wire::state::MAX_DRAW_BUFFERS;

use crate::conv;
use crate::device::{Interner, Missing, VkPipe, backend_bug, count, created, vk_error};
use crate::spirv::NumClass;

/// Size of the push-constant range every pipeline layout has (the point size).
pub(crate) const PUSH_CONSTANT_SIZE: u32 = 16;

/// The unsigned 32-bit format of `words` components (1 to 4), which double vertex inputs
/// are fetched with.
fn uint_words(words: u32) -> vk::Format {
    match words {
        1 => vk::Format::R32_UINT,
        2 => vk::Format::R32G32_UINT,
        3 => vk::Format::R32G32B32_UINT,
        _ => vk::Format::R32G32B32A32_UINT,
    }
}

/// Binding of the generic-attribute vertex buffer (stride 0): after the 16 attribute slots.
pub(crate) const GENERIC_BINDING: u32 = 16;

/// The Vulkan location (and generic-value index) of the last two doubles of the `dvec3` or
/// `dvec4` vertex input at GL location `i` is `WIDE + i`: GL gives such an input one
/// location, SPIR-V two (spirv/double_attrib.rs).
pub(crate) const WIDE: u32 = 16;

/// The states of a graphics pipeline its maker decides (the rest: [`VkPipe::create_pipeline`]).
pub(crate) struct PipelineStates<'a> {
    pub stages: &'a [vk::PipelineShaderStageCreateInfo<'a>],
    pub vertex_input: vk::PipelineVertexInputStateCreateInfo<'a>,
    pub input_assembly: vk::PipelineInputAssemblyStateCreateInfo<'a>,
    pub viewport: vk::PipelineViewportStateCreateInfo<'a>,
    pub rasterization: vk::PipelineRasterizationStateCreateInfo<'a>,
    pub multisample: vk::PipelineMultisampleStateCreateInfo<'a>,
    pub depth_stencil: vk::PipelineDepthStencilStateCreateInfo<'a>,
    pub color_blend: vk::PipelineColorBlendStateCreateInfo<'a>,
    /// The tessellation state of a pipeline with tessellation stages.
    pub tessellation: Option<&'a vk::PipelineTessellationStateCreateInfo<'a>>,
}

/// The stage `stage` of a pipeline: `module`'s `main`.
pub(crate) fn shader_stage(
    stage: vk::ShaderStageFlags,
    module: vk::ShaderModule,
) -> vk::PipelineShaderStageCreateInfo<'static> {
    vk::PipelineShaderStageCreateInfo::default()
        .stage(stage)
        .module(module)
        .name(c"main")
}

/// Formats, samples and load operations of a render pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PassKey {
    /// Colour format per draw buffer (`UNDEFINED`: no attachment).
    pub colors: [vk::Format; MAX_DRAW_BUFFERS],
    /// Depth-stencil format (`UNDEFINED`: none).
    pub depth_stencil: vk::Format,
    /// Samples per pixel.
    pub samples: vk::SampleCountFlags,
    /// Draw buffers whose format can blend.
    pub blendable: u8,
    /// Draw buffers cleared at load (bit `i`), depth (bit 8) and stencil (bit 9).
    pub clears: u16,
}

impl PassKey {
    /// Colour attachments of the subpass (up to the last used draw buffer).
    pub fn color_count(&self) -> usize {
        self.colors
            .iter()
            .rposition(|f| *f != vk::Format::UNDEFINED)
            .map_or(0, |p| p + 1)
    }
}

/// What selects one pipeline of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pub blend: u32,
    pub depth_stencil: u32,
    pub raster: u32,
    pub layout: u32,
    pub pass: u32,
    pub topology: i32,
    pub restart: bool,
    pub point_size: bool,
    pub sample_mask: u32,
    /// Control points of a `PATCH_LIST` draw's patches (0 for other topologies).
    pub patch_vertices: u8,
    /// The pass's attachments in the feedback-loop layout (`PassKey`'s bits: draw buffer
    /// `i`'s bit `i`, the depth-stencil image's bit 8), for the pipeline's feedback-loop
    /// flags (`image.rs`); 0 unless the device has `VK_EXT_attachment_feedback_loop_layout`.
    pub feedback: u16,
}

/// Counts a pipeline creation's feedback in the persistent cache's counters: found in the
/// pipeline cache, or not (nothing when the driver left the feedback invalid).
pub(crate) fn note_feedback(flags: vk::PipelineCreationFeedbackFlags) {
    if flags.contains(vk::PipelineCreationFeedbackFlags::VALID) {
        tessera_cache::note(
            if flags.contains(vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT) {
                tessera_cache::Work::PipelineHit
            } else {
                tessera_cache::Work::PipelineMiss
            },
        );
    }
}

/// One binding of a descriptor set layout: number, type, count and the stages that use it
/// (a binding counts against the per-stage limits of the stages it names only:
/// lavapipe's 32 storage images per stage, which all stages of a program may have).
pub(crate) type LayoutBinding = (u32, vk::DescriptorType, u32, vk::ShaderStageFlags);

/// The caches.
pub(crate) struct Caches {
    pub cache: vk::PipelineCache,
    /// The persistent cache's key of the pipeline cache's data (the driver's identity).
    persistent_key: [u8; 32],
    /// Pipeline creation feedback is there to ask for (Vulkan 1.3).
    feedback: bool,
    /// Pipelines created since the pipeline cache was last saved.
    unsaved: std::cell::Cell<u32>,
    /// Render passes by key and feedback mask ([`VkPipe::render_pass_with`]).
    passes: HashMap<(PassKey, u16), vk::RenderPass>,
    pub compat: Interner<PassKey>,
    set_layouts: HashMap<(Vec<LayoutBinding>, bool), (vk::DescriptorSetLayout, vk::PipelineLayout)>,
}

/// Pipelines created between two saves of the pipeline cache ([`Caches::created`]).
const SAVE_EVERY: u32 = 64;

/// The persistent cache's pipeline cache data, one entry per driver.
const PIPELINE_CACHE_ENTRIES: tessera_cache::Kind = tessera_cache::Kind {
    name: "vk-pipeline-cache",
    build: "1",
};

impl Caches {
    /// The caches of a device of `props`, whose Vulkan version is `api_version`; the
    /// pipeline cache starts with what the persistent cache holds for its driver.
    pub fn new(
        raw: &ash::Device,
        props: &vk::PhysicalDeviceProperties,
        api_version: u32,
    ) -> Result<Self, crate::CreateBackendError> {
        let persistent_key = tessera_cache::key(&[
            &props.pipeline_cache_uuid,
            &props.vendor_id.to_le_bytes(),
            &props.device_id.to_le_bytes(),
            &props.driver_version.to_le_bytes(),
        ]);
        let initial = tessera_cache::load(&PIPELINE_CACHE_ENTRIES, &persistent_key);
        let create = |data: &[u8]| {
            // SAFETY: a live device; the initial data is a slice alive for the call, which
            // the driver validates (it ignores data of another device or driver).
            unsafe {
                raw.create_pipeline_cache(
                    &vk::PipelineCacheCreateInfo::default().initial_data(data),
                    None,
                )
            }
        };
        let cache = match initial.as_deref().map(create) {
            Some(Ok(cache)) => Ok(cache),
            // Refused data (the driver may fail rather than ignore it): an empty cache.
            _ => create(&[]),
        }
        .map_err(|e| crate::CreateBackendError::Vulkan {
            call: "vkCreatePipelineCache",
            result: e,
        })?;
        Ok(Self {
            cache,
            persistent_key,
            feedback: api_version >= vk::API_VERSION_1_3,
            unsaved: std::cell::Cell::new(0),
            passes: HashMap::new(),
            compat: Interner::default(),
            set_layouts: HashMap::new(),
        })
    }

    /// Whether pipeline creations ask for creation feedback.
    pub fn feedback(&self) -> bool {
        self.feedback
    }

    /// Counts a pipeline created, and saves the pipeline cache every
    /// [`SAVE_EVERY`] pipelines, so a process that never destroys its device (one that
    /// exits or crashes with it) leaves most of what it compiled.
    pub fn created(&self, raw: &ash::Device) {
        self.unsaved.set(self.unsaved.get() + 1);
        if self.unsaved.get() >= SAVE_EVERY {
            self.save(raw);
        }
    }

    /// Stores the pipeline cache's data in the persistent cache.
    fn save(&self, raw: &ash::Device) {
        self.unsaved.set(0);
        // SAFETY: a live pipeline cache of this device; the driver synchronizes its own
        // access to it (no pipeline is being created with it on this thread).
        if let Ok(data) = unsafe { raw.get_pipeline_cache_data(self.cache) }
            && !data.is_empty()
        {
            tessera_cache::store(&PIPELINE_CACHE_ENTRIES, &self.persistent_key, &data);
        }
    }

    pub fn destroy(&mut self, raw: &ash::Device) {
        self.save(raw);
        // SAFETY: the device is idle (VkPipe::drop waited); each object destroyed once.
        unsafe {
            for (_, p) in self.passes.drain() {
                raw.destroy_render_pass(p, None);
            }
            for (_, (s, l)) in self.set_layouts.drain() {
                raw.destroy_pipeline_layout(l, None);
                raw.destroy_descriptor_set_layout(s, None);
            }
            raw.destroy_pipeline_cache(self.cache, None);
        }
    }
}

impl VkPipe {
    /// The render pass of a key, created on first use.
    pub fn render_pass(&mut self, key: &PassKey) -> Result<vk::RenderPass, SessionError> {
        self.render_pass_with(key, 0)
    }

    /// [`VkPipe::render_pass`] with the attachments of `feedback` (draw buffer `i`'s bit
    /// `i`, the depth-stencil image's bit 8), which a draw of the pass samples too, in the
    /// feedback layout (`image.rs`) instead of their attachment layouts. Layouts are no
    /// part of a pass's compatibility class: its pipelines do not change.
    pub fn render_pass_with(
        &mut self,
        key: &PassKey,
        feedback: u16,
    ) -> Result<vk::RenderPass, SessionError> {
        if let Some(&p) = self.pipes.passes.get(&(*key, feedback)) {
            return Ok(p);
        }
        let mut attachments = Vec::new();
        let mut refs = [vk::AttachmentReference {
            attachment: vk::ATTACHMENT_UNUSED,
            layout: vk::ImageLayout::UNDEFINED,
        }; MAX_DRAW_BUFFERS];
        let load = |clear: bool| {
            if clear {
                vk::AttachmentLoadOp::CLEAR
            } else {
                vk::AttachmentLoadOp::LOAD
            }
        };
        let feedback_layout = self.feedback_layout;
        let layout_of = |bit: u16, attachment: vk::ImageLayout| {
            if feedback & bit != 0 {
                feedback_layout
            } else {
                attachment
            }
        };
        for (i, &f) in key.colors.iter().enumerate() {
            if f == vk::Format::UNDEFINED {
                continue;
            }
            let layout = layout_of(1 << i, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL);
            refs[i] = vk::AttachmentReference {
                attachment: attachments.len() as u32,
                layout,
            };
            attachments.push(
                vk::AttachmentDescription::default()
                    .format(f)
                    .samples(key.samples)
                    .load_op(load(key.clears & (1 << i) != 0))
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                    .initial_layout(layout)
                    .final_layout(layout),
            );
        }
        let ds_ref = (key.depth_stencil != vk::Format::UNDEFINED).then(|| {
            let layout = layout_of(1 << 8, vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
            let r = vk::AttachmentReference {
                attachment: attachments.len() as u32,
                layout,
            };
            attachments.push(
                vk::AttachmentDescription::default()
                    .format(key.depth_stencil)
                    .samples(key.samples)
                    .load_op(load(key.clears & (1 << 8) != 0))
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .stencil_load_op(load(key.clears & (1 << 9) != 0))
                    .stencil_store_op(vk::AttachmentStoreOp::STORE)
                    .initial_layout(layout)
                    .final_layout(layout),
            );
            r
        });
        let color_refs = &refs[..key.color_count()];
        let mut subpass = vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(color_refs);
        if let Some(r) = ds_ref.as_ref() {
            subpass = subpass.depth_stencil_attachment(r);
        }
        let subpasses = [subpass];
        let info = vk::RenderPassCreateInfo::default()
            .attachments(&attachments)
            .subpasses(&subpasses);
        // SAFETY: a valid create info: attachments referenced by index, layouts allowed for
        // their usage, formats the target's images have.
        let pass = unsafe { self.raw.create_render_pass(&info, None) };
        let pass = created("vkCreateRenderPass", &self.stats.render_passes, pass)?;
        self.pipes.passes.insert((*key, feedback), pass);
        Ok(pass)
    }

    /// A pipeline layout of `sets` with one push-constant range of `size` bytes for
    /// `stages`.
    pub fn pipeline_layout(
        &self,
        sets: &[vk::DescriptorSetLayout],
        stages: vk::ShaderStageFlags,
        size: u32,
    ) -> Result<vk::PipelineLayout, SessionError> {
        let ranges = [vk::PushConstantRange {
            stage_flags: stages,
            offset: 0,
            size,
        }];
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(sets)
            .push_constant_ranges(&ranges);
        // SAFETY: live set layouts (callers'); a push-constant range within the 128-byte
        // minimum (callers pass PUSH_CONSTANT_SIZE or the clear block).
        let layout = unsafe { self.raw.create_pipeline_layout(&info, None) };
        created(
            "vkCreatePipelineLayout",
            &self.stats.pipeline_layouts,
            layout,
        )
    }

    /// A graphics pipeline in subpass 0 of `pass`, with `dynamic` states.
    pub fn create_pipeline(
        &self,
        states: &PipelineStates<'_>,
        dynamic: &[vk::DynamicState],
        layout: vk::PipelineLayout,
        pass: vk::RenderPass,
    ) -> Result<vk::Pipeline, SessionError> {
        self.create_pipeline_with(
            states,
            dynamic,
            layout,
            pass,
            vk::PipelineCreateFlags::empty(),
        )
    }

    /// [`VkPipe::create_pipeline`] with creation flags (a feedback loop's, `image.rs`).
    pub fn create_pipeline_with(
        &self,
        states: &PipelineStates<'_>,
        dynamic: &[vk::DynamicState],
        layout: vk::PipelineLayout,
        pass: vk::RenderPass,
        flags: vk::PipelineCreateFlags,
    ) -> Result<vk::Pipeline, SessionError> {
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(dynamic);
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .flags(flags)
            .stages(states.stages)
            .vertex_input_state(&states.vertex_input)
            .input_assembly_state(&states.input_assembly)
            .viewport_state(&states.viewport)
            .rasterization_state(&states.rasterization)
            .multisample_state(&states.multisample)
            .depth_stencil_state(&states.depth_stencil)
            .color_blend_state(&states.color_blend)
            .dynamic_state(&dynamic)
            .layout(layout)
            .render_pass(pass)
            .subpass(0);
        if let Some(t) = states.tessellation {
            info = info.tessellation_state(t);
        }
        let mut feedback = vk::PipelineCreationFeedback::default();
        let mut feedback_info = vk::PipelineCreationFeedbackCreateInfo::default()
            .pipeline_creation_feedback(&mut feedback);
        if self.pipes.feedback {
            info = info.push_next(&mut feedback_info);
        }
        // SAFETY: every pointer in `info` refers to `states` or locals alive for the call;
        // callers pass live modules, layout and render pass, and set only features that are
        // enabled (checked where each state is made); creation feedback is chained only on
        // Vulkan 1.3, which has it.
        let created = unsafe {
            self.raw
                .create_graphics_pipelines(self.pipes.cache, &[info], None)
        };
        let pipeline = match created {
            Ok(p) => p[0],
            Err((_, e)) => return Err(vk_error("vkCreateGraphicsPipelines", e)),
        };
        if self.pipes.feedback {
            note_feedback(feedback.flags);
        }
        self.pipes.created(&self.raw);
        count(&self.stats.pipelines);
        Ok(pipeline)
    }

    /// The descriptor set layout (for pushing, or not) and pipeline layout of a binding
    /// list.
    pub fn set_layout(
        &mut self,
        bindings: Vec<LayoutBinding>,
        push: bool,
    ) -> Result<(vk::DescriptorSetLayout, vk::PipelineLayout), SessionError> {
        let key = (bindings, push);
        if let Some(&l) = self.pipes.set_layouts.get(&key) {
            return Ok(l);
        }
        let bindings = &key.0;
        let raw: Vec<vk::DescriptorSetLayoutBinding> = bindings
            .iter()
            .map(|&(binding, ty, n, stages)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(ty)
                    .descriptor_count(n)
                    .stage_flags(stages)
            })
            .collect();
        let flags = if push {
            vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR
        } else {
            vk::DescriptorSetLayoutCreateFlags::empty()
        };
        let info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(flags)
            .bindings(&raw);
        // SAFETY: a valid create info (distinct bindings; no dynamic buffers in push
        // layouts: the default block is a plain uniform buffer then).
        let set = unsafe { self.raw.create_descriptor_set_layout(&info, None) };
        let set = created(
            "vkCreateDescriptorSetLayout",
            &self.stats.descriptor_set_layouts,
            set,
        )?;
        let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::GEOMETRY;
        let layout = self.pipeline_layout(&[set], stages, PUSH_CONSTANT_SIZE)?;
        self.pipes.set_layouts.insert(key, (set, layout));
        Ok((set, layout))
    }

    /// The pipeline of `key` for a program, created on a miss.
    pub fn pipeline(
        &mut self,
        handle: ProgramHandle,
        key: &PipelineKey,
    ) -> Result<vk::Pipeline, SessionError> {
        let program = self.programs.get("Draw", handle)?;
        if let Some(&p) = program.pipelines.get(key) {
            return Ok(p);
        }
        let pass_key = *self.pipes.compat.value(key.pass);
        let pass = self.render_pass(&pass_key)?;
        if key.point_size {
            self.ensure_point_variant(handle)?;
        }
        let blend = *self.interned.blend.value(key.blend);
        let ds = *self.interned.depth_stencil.value(key.depth_stencil);
        let raster = *self.interned.raster.value(key.raster);
        let layout = *self.interned.layout.value(key.layout);
        // The FIXED attributes the vertex stage reads go through a variant of it that
        // converts them (`spirv/fixed_attrib.rs`); without one they read the generic value.
        let fixed: Vec<(u32, u8)> = (self.programs.get("Draw", handle)?.inputs.iter())
            .enumerate()
            .filter(|&(i, class)| {
                let f = layout.attribs[i].format;
                class.is_some() && f.ty == AttribType::Fixed && f.components > 0
            })
            .map(|(i, _)| (i as u32, layout.attribs[i].format.components))
            .collect();
        let fixed_variant = if fixed.is_empty() {
            None
        } else {
            self.fixed_variant(handle, &(fixed, key.point_size))?
        };
        let program = self.programs.get("Draw", handle)?;

        // Stages; a fragment stage reading `gl_PointCoord` is specialized for the sprite
        // origin (a VkBool32).
        let origin_entry = [vk::SpecializationMapEntry {
            constant_id: crate::spirv::POINT_ORIGIN_SPEC_ID,
            offset: 0,
            size: 4,
        }];
        let origin_data = vk::Bool32::from(raster.point_origin_lower_left).to_ne_bytes();
        let origin = vk::SpecializationInfo::default()
            .map_entries(&origin_entry)
            .data(&origin_data);
        let mut stages = Vec::new();
        for s in &program.stages {
            let module = if let Some(v) =
                fixed_variant.filter(|_| s.stage == vk::ShaderStageFlags::VERTEX)
            {
                v
            } else if key.point_size && s.last_pre_raster {
                s.point_variant.unwrap_or(s.module)
            } else {
                s.module
            };
            let stage = shader_stage(s.stage, module);
            stages.push(if s.point_origin {
                stage.specialization_info(&origin)
            } else {
                stage
            });
        }

        // Vertex input: attribute `i` reads binding `i`; consumed but disabled attributes
        // read the generic values of binding 16 (stride 0).
        let mut vbindings = Vec::new();
        let mut vattribs = Vec::new();
        let mut generic = false;
        let mut unsupported_format = false;
        let mut divisor = false;
        let mut divisors = Vec::new();
        for (i, class) in program.inputs.iter().enumerate() {
            let Some(class) = class else { continue };
            let a = layout.attribs[i];
            let converted = a.format.ty != AttribType::Fixed || fixed_variant.is_some();
            // A double input fetches only doubles read as doubles (`glVertexAttribLPointer`),
            // and those reach no other input: Vulkan matches 64-bit formats with 64-bit
            // inputs. Any other pairing reads the generic value.
            let doubles = program.double_inputs[i];
            let f64_format = a.format.ty == AttribType::F64;
            let long = f64_format && a.format.integer;
            let matched = (doubles > 0) == long && (long || !f64_format);
            let format = (a.format.components > 0 && converted && matched)
                .then(|| conv::map_vertex_format(a.format))
                .flatten();
            match format {
                Some(f) => {
                    if a.divisor > 1 && self.tiers.vertex_divisor {
                        divisors.push(vk::VertexInputBindingDivisorDescriptionKHR {
                            binding: i as u32,
                            divisor: a.divisor,
                        });
                    } else {
                        divisor |= a.divisor > 1;
                    }
                    vbindings.push(vk::VertexInputBindingDescription {
                        binding: i as u32,
                        stride: a.stride,
                        input_rate: if a.divisor > 0 {
                            vk::VertexInputRate::INSTANCE
                        } else {
                            vk::VertexInputRate::VERTEX
                        },
                    });
                    if doubles > 0 {
                        // Doubles arrive as 32-bit words (spirv/double_attrib.rs): up to two
                        // doubles at the location, the rest at location 16 + i, from the
                        // same array, or from the generic value where the array has no more.
                        let words = 2 * u32::from(a.format.components);
                        vattribs.push(vk::VertexInputAttributeDescription {
                            location: i as u32,
                            binding: i as u32,
                            format: uint_words(words.min(4)),
                            offset: 0,
                        });
                        if doubles > 2 {
                            let (binding, format, offset) = if words > 4 {
                                (i as u32, uint_words(words - 4), 16)
                            } else {
                                generic = true;
                                (GENERIC_BINDING, uint_words(4), 16 * (WIDE + i as u32))
                            };
                            vattribs.push(vk::VertexInputAttributeDescription {
                                location: WIDE + i as u32,
                                binding,
                                format,
                                offset,
                            });
                        }
                    } else {
                        vattribs.push(vk::VertexInputAttributeDescription {
                            location: i as u32,
                            binding: i as u32,
                            format: f,
                            offset: 0,
                        });
                    }
                }
                None => {
                    unsupported_format |= a.format.components > 0;
                    generic = true;
                    // A double input's words are its location's 16 bytes and, for a `dvec3`
                    // or `dvec4`, those of location 16 + i (the engine puts the last two
                    // doubles there).
                    let wide = (doubles > 2).then_some(WIDE + i as u32);
                    for l in std::iter::once(i as u32).chain(wide) {
                        vattribs.push(vk::VertexInputAttributeDescription {
                            location: l,
                            binding: GENERIC_BINDING,
                            format: match (doubles, class) {
                                (1.., _) | (0, NumClass::Uint) => vk::Format::R32G32B32A32_UINT,
                                (0, NumClass::Float) => vk::Format::R32G32B32A32_SFLOAT,
                                (0, NumClass::Int) => vk::Format::R32G32B32A32_SINT,
                            },
                            offset: 16 * l,
                        });
                    }
                }
            }
        }
        if generic {
            vbindings.push(vk::VertexInputBindingDescription {
                binding: GENERIC_BINDING,
                stride: 0,
                input_rate: vk::VertexInputRate::VERTEX,
            });
        }
        let mut divisor_info = vk::PipelineVertexInputDivisorStateCreateInfoKHR::default()
            .vertex_binding_divisors(&divisors);
        let mut vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vbindings)
            .vertex_attribute_descriptions(&vattribs);
        if !divisors.is_empty() {
            vertex_input = vertex_input.push_next(&mut divisor_info);
        }
        let topology = vk::PrimitiveTopology::from_raw(key.topology);
        let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(topology)
            .primitive_restart_enable(key.restart);

        // GL's [-1, 1] clip-space depth, unless glClipControl chose [0, 1] (Vulkan's own;
        // only advertised with the extension).
        let mut clip_control = vk::PipelineViewportDepthClipControlCreateInfoEXT::default()
            .negative_one_to_one(!raster.clip_zero_to_one);
        // Every pipeline has all the viewports the device gives GL (dynamic, so a pipeline
        // serves any of their values).
        let mut viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewport_count(self.limits.viewports)
            .scissor_count(self.limits.viewports);
        if self.tiers.depth_clip_control {
            viewport = viewport.push_next(&mut clip_control);
        }

        let polygon = if raster.polygon_mode != PolygonMode::Fill && !self.core.fill_mode_non_solid
        {
            PolygonMode::Fill
        } else {
            raster.polygon_mode
        };
        let offset_bit = match polygon {
            PolygonMode::Fill => 1,
            PolygonMode::Line => 2,
            PolygonMode::Point => 4,
        };
        let mut provoking = vk::PipelineRasterizationProvokingVertexStateCreateInfoEXT::default()
            .provoking_vertex_mode(vk::ProvokingVertexModeEXT::LAST_VERTEX);
        let mut rasterization = vk::PipelineRasterizationStateCreateInfo::default()
            .depth_clamp_enable(raster.depth_clamp && self.core.depth_clamp)
            .rasterizer_discard_enable(raster.rasterizer_discard)
            .polygon_mode(conv::map_polygon_mode(polygon))
            .cull_mode(conv::map_cull_mode(raster.cull))
            // The upper-left clip origin flips the viewport's y (command.rs), which flips
            // the winding in framebuffer space: the front face flips with it (Mesa's
            // `front_ccw ^= 1`), so facing follows clip space under both origins.
            .front_face(conv::map_front_face(
                raster.front_ccw != raster.clip_upper_left,
            ))
            .depth_bias_enable(raster.offset_enable & offset_bit != 0)
            .line_width(1.0);
        if raster.flatshade_last && self.tiers.provoking_vertex {
            rasterization = rasterization.push_next(&mut provoking);
        }
        let sample_mask = [key.sample_mask];
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(pass_key.samples)
            .sample_mask(&sample_mask)
            .alpha_to_coverage_enable(
                blend.alpha_to_coverage && pass_key.samples != vk::SampleCountFlags::TYPE_1,
            )
            .alpha_to_one_enable(blend.alpha_to_one && self.core.alpha_to_one)
            .sample_shading_enable(raster.sample_shading && self.core.sample_rate_shading)
            .min_sample_shading(f32::from_bits(raster.min_sample_shading));

        let has_depth = pass_key.depth_stencil != vk::Format::UNDEFINED;
        let face = |f: &tessera_wire::state::StencilFace| vk::StencilOpState {
            fail_op: conv::map_stencil_op(f.fail),
            pass_op: conv::map_stencil_op(f.pass),
            depth_fail_op: conv::map_stencil_op(f.depth_fail),
            compare_op: conv::map_compare_func(f.func),
            compare_mask: u32::from(f.read_mask),
            write_mask: u32::from(f.write_mask),
            reference: 0,
        };
        let depth_stencil = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(ds.depth_test && has_depth)
            .depth_write_enable(ds.depth_test && ds.depth_write && has_depth)
            .depth_compare_op(conv::map_compare_func(ds.depth_func))
            .stencil_test_enable(ds.stencil_test && has_depth)
            .front(face(&ds.front))
            .back(face(&ds.back))
            .min_depth_bounds(0.0)
            .max_depth_bounds(1.0);

        let n = pass_key.color_count();
        let mut attachments = [vk::PipelineColorBlendAttachmentState::default(); MAX_DRAW_BUFFERS];
        let factor = |f: tessera_wire::format::BlendFactor| {
            if f.is_dual_source() && !self.core.dual_src_blend {
                None
            } else {
                Some(conv::map_blend_factor(f))
            }
        };
        // Without independentBlend every attachment takes draw buffer 0's state.
        let same = !self.core.independent_blend;
        let mut dual_missing = false;
        for (i, att) in attachments.iter_mut().enumerate().take(n) {
            let j = if same { 0 } else { i };
            let f = &blend.funcs[j];
            let factors = [
                factor(f.src_rgb),
                factor(f.dst_rgb),
                factor(f.src_alpha),
                factor(f.dst_alpha),
            ];
            dual_missing |= factors.iter().any(Option::is_none);
            let writes = program.outputs & (1 << i) != 0;
            let mask = if writes && pass_key.colors[i] != vk::Format::UNDEFINED {
                vk::ColorComponentFlags::from_raw((blend.color_write_mask >> (4 * j)) & 0xf)
            } else {
                vk::ColorComponentFlags::empty()
            };
            *att = vk::PipelineColorBlendAttachmentState::default()
                .blend_enable(
                    blend.enable_mask & (1 << j) != 0 && pass_key.blendable & (1 << i) != 0,
                )
                .src_color_blend_factor(factors[0].unwrap_or(vk::BlendFactor::ONE))
                .dst_color_blend_factor(factors[1].unwrap_or(vk::BlendFactor::ZERO))
                .color_blend_op(conv::map_blend_op(f.op_rgb))
                .src_alpha_blend_factor(factors[2].unwrap_or(vk::BlendFactor::ONE))
                .dst_alpha_blend_factor(factors[3].unwrap_or(vk::BlendFactor::ZERO))
                .alpha_blend_op(conv::map_blend_op(f.op_alpha))
                .color_write_mask(mask);
        }
        let logic = blend.logic_op.filter(|_| self.core.logic_op);
        let color_blend = vk::PipelineColorBlendStateCreateInfo::default()
            .logic_op_enable(logic.is_some())
            .logic_op(logic.map_or(vk::LogicOp::COPY, conv::map_logic_op))
            .attachments(&attachments[..n]);
        let dynamic_states = [
            vk::DynamicState::VIEWPORT,
            vk::DynamicState::SCISSOR,
            vk::DynamicState::LINE_WIDTH,
            vk::DynamicState::DEPTH_BIAS,
            vk::DynamicState::BLEND_CONSTANTS,
            vk::DynamicState::STENCIL_REFERENCE,
        ];
        // GL's tessellation domain has its origin at the lower left, which decides the
        // orientation of the generated triangles (TESS_GEN_VERTEX_ORDER); Vulkan's is upper
        // left unless the pipeline says otherwise (Vulkan 1.1, which the backend requires).
        let mut domain_origin = vk::PipelineTessellationDomainOriginStateCreateInfo::default()
            .domain_origin(vk::TessellationDomainOrigin::LOWER_LEFT);
        let tessellation = vk::PipelineTessellationStateCreateInfo::default()
            .patch_control_points(u32::from(key.patch_vertices))
            .push_next(&mut domain_origin);
        let states = PipelineStates {
            stages: &stages,
            vertex_input,
            input_assembly,
            viewport,
            rasterization,
            multisample,
            depth_stencil,
            color_blend,
            tessellation: (key.patch_vertices > 0).then_some(&tessellation),
        };
        // Modules and layout belong to the live program; the render pass is cached; features
        // used (polygon modes, depth clamp, logic op, dual-source factors, alpha-to-one,
        // depth clip control, provoking vertex) were checked against what is enabled.
        let pipeline = self.create_pipeline_with(
            &states,
            &dynamic_states,
            program.pipeline_layout,
            pass,
            feedback_flags(key.feedback),
        )?;
        let flat_inputs = program.flat_inputs;
        if raster.polygon_mode != polygon {
            self.report(
                Missing::PolygonMode,
                "no fillModeNonSolid: polygons are filled",
            );
        }
        if blend.logic_op.is_some() && logic.is_none() {
            self.report(
                Missing::LogicOp,
                "no logicOp feature: logic operations ignored",
            );
        }
        if dual_missing {
            self.report(
                Missing::DualSource,
                "no dualSrcBlend feature: ONE/ZERO instead",
            );
        }
        if raster.depth_clamp && !self.core.depth_clamp {
            self.report(
                Missing::DepthClamp,
                "no depthClamp feature: depth is clipped",
            );
        }
        if blend.alpha_to_one && !self.core.alpha_to_one {
            self.report(Missing::AlphaToOne, "no alphaToOne feature: ignored");
        }
        if unsupported_format {
            self.report(
                Missing::AttribFormat,
                "a vertex attribute format Vulkan lacks (32-bit integers read as floats, FIXED into a vertex stage the conversion does not rewrite): such attributes read the generic value",
            );
        }
        if divisor {
            self.report(
                Missing::Divisor,
                "instance divisors above 1 need VK_EXT_vertex_attribute_divisor: divisor 1 instead",
            );
        }
        if same && blend.enable_mask != 0 && blend.enable_mask != 0xff && blend.enable_mask != 1 {
            self.report(
                Missing::IndependentBlend,
                "no independentBlend feature: draw buffer 0's blend state applies to all",
            );
        }
        if raster.line_smooth || raster.polygon_smooth {
            self.report(
                Missing::Smooth,
                "line and polygon smoothing are not emulated",
            );
        }
        if raster.flatshade_last && !self.tiers.provoking_vertex && flat_inputs {
            self.report(
                Missing::ProvokingVertex,
                "no VK_EXT_provoking_vertex: flat-shaded values come from the first vertex",
            );
        }
        match self.programs.get_mut("Draw", handle) {
            Ok(p) => {
                p.pipelines.insert(*key, pipeline);
            }
            Err(_) => backend_bug("the program vanished while its pipeline was created"),
        }
        Ok(pipeline)
    }
}

/// The pipeline flags of a pass whose attachments `feedback` names are in the feedback-loop
/// layout (`PipelineKey::feedback`).
fn feedback_flags(feedback: u16) -> vk::PipelineCreateFlags {
    let mut flags = vk::PipelineCreateFlags::empty();
    if feedback & 0xff != 0 {
        flags |= vk::PipelineCreateFlags::COLOR_ATTACHMENT_FEEDBACK_LOOP_EXT;
    }
    if feedback & 1 << 8 != 0 {
        flags |= vk::PipelineCreateFlags::DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_EXT;
    }
    flags
}
