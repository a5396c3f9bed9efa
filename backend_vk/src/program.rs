//! Programs: SPIR-V from the record, reflected, patched for GL conventions, turned into
//! shader modules, and given the descriptor set layout of the binding contract.
//!
//! ## Binding contract (`ProgramDesc`)
//! Set 0: binding 0 is the default uniform block (std140, filled by `SetUniforms`; a
//! dynamic uniform buffer fed from the frame's arena, or a pushed uniform buffer with push
//! descriptors), bindings `1..=S` the combined image-samplers of sampler slots `0..S` (an
//! array takes the binding of its first slot and one descriptor per element), bindings
//! `S+1..=S+B` the uniform blocks, bindings `S+B+1..=S+B+K` the shader storage blocks. Only
//! bindings the code declares get a descriptor. The set layout is shared by every program of
//! the same shape (its bindings are visible to every graphics stage and to compute).
//!
//! ## Compute programs
//! A program whose one stage is compute gets its compute pipeline when it is created (it
//! depends on nothing else: the work group size is in the code), so dispatches never make
//! one; its descriptors follow the same contract.
//!
//! ## Patches
//! Without `VK_EXT_depth_clip_control` the last stage before rasterization maps GL's clip-
//! space depth to Vulkan's (see `spirv.rs`). The point-size variant of that stage is made
//! the first time the program draws points without `PROGRAM_POINT_SIZE`, and kept. A
//! fragment stage that reads `gl_PointCoord` takes `POINT_SPRITE_COORD_ORIGIN` from a
//! specialization constant (`spirv/point_coord.rs`), which each pipeline sets from its
//! raster state.

use ash::vk;
use tessera_wire::dispatch::{ProgramPipe, R};
use tessera_wire::format::ShaderStage;
use tessera_wire::handle::ProgramHandle;
use tessera_wire::record::ProgramDesc;
use tessera_wire::{Event, SessionError, Stage};

use crate::device::{VkPipe, backend_bug, count};
use crate::frame::Garbage;
use crate::pipeline::{LayoutBinding, PipelineKey};
use crate::spirv::{self, NumClass, Patch, ResourceKind};

/// One shader stage of a program.
pub(crate) struct StageModule {
    pub stage: vk::ShaderStageFlags,
    pub module: vk::ShaderModule,
    /// The last stage before rasterization (patched for point size when needed).
    pub last_pre_raster: bool,
    /// The (depth-patched) words of the last pre-rasterization stage and of the vertex
    /// stage.
    words: Vec<u32>,
    /// The point-size variant of `module`, made on first use.
    pub point_variant: Option<vk::ShaderModule>,
    /// Variants of the vertex stage reading `FIXED` attributes (`spirv/fixed_attrib.rs`),
    /// made on first use: per (location, components) list and point-size patch, the
    /// module, or `None` where the rewrite does not apply.
    pub fixed_variants: Vec<(FixedKey, Option<vk::ShaderModule>)>,
    /// A fragment stage whose `gl_PointCoord` follows the specialization constant
    /// `spirv::POINT_ORIGIN_SPEC_ID` (`spirv/point_coord.rs`).
    pub point_origin: bool,
}

/// The `FIXED` attributes a vertex stage variant reads, as (location, components), and
/// whether it writes the point size.
pub(crate) type FixedKey = (Vec<(u32, u8)>, bool);

/// How one binding of set 0 is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DescSlot {
    /// The default uniform block (binding 0).
    Default,
    /// Sampler slots `first..first + count` at `binding`.
    Sampler {
        binding: u32,
        first: usize,
        count: u32,
        kind: ResourceKind,
    },
    /// Image slots `first..first + count` at `binding` (storage images).
    Image {
        binding: u32,
        first: usize,
        count: u32,
        kind: ResourceKind,
    },
    /// Uniform block slots `first..first + count` at `binding`.
    Block {
        binding: u32,
        first: usize,
        count: u32,
        size: u32,
    },
    /// Shader storage block slots `first..first + count` at `binding`.
    Storage {
        binding: u32,
        first: usize,
        count: u32,
    },
}

/// A linked program.
pub(crate) struct Program {
    /// Whether the driver accepted it; a refused program draws nothing.
    pub valid: bool,
    /// Its descriptors are pushed (else allocated from the frame's pools).
    pub push: bool,
    pub stages: Vec<StageModule>,
    pub inputs: [Option<NumClass>; 16],
    /// Components of the double vertex inputs by location (`Reflection::double_inputs`).
    pub double_inputs: [u8; 16],
    /// The attributes the vertex stage reads (bit `i`: `inputs[i]` is some).
    pub input_mask: u16,
    /// The attributes read as doubles (bit `i`: `double_inputs[i]` is nonzero).
    pub double_input_mask: u16,
    pub outputs: u8,
    pub flat_inputs: bool,
    /// The vertex stage reads `gl_DrawID` or `gl_BaseVertex` from the push constants
    /// (`spirv/draw_param.rs`): each draw pushes its values.
    pub draw_params: bool,
    pub default_block_size: u32,
    pub slots: Vec<DescSlot>,
    pub set_layout: vk::DescriptorSetLayout,
    pub pipeline_layout: vk::PipelineLayout,
    /// Keyed by what the client chose (CSOs, sample mask): a randomly seeded hash, so a
    /// client cannot pick keys that collide.
    pub pipelines: ahash::HashMap<PipelineKey, vk::Pipeline>,
    /// A compute program's pipeline (null for other programs).
    pub compute: vk::Pipeline,
}

impl Program {
    fn empty() -> Self {
        Self {
            valid: false,
            push: false,
            stages: Vec::new(),
            inputs: [None; 16],
            double_inputs: [0; 16],
            input_mask: 0,
            double_input_mask: 0,
            outputs: 0,
            draw_params: false,
            flat_inputs: false,
            default_block_size: 0,
            slots: Vec::new(),
            set_layout: vk::DescriptorSetLayout::null(),
            pipeline_layout: vk::PipelineLayout::null(),
            pipelines: ahash::HashMap::default(),
            compute: vk::Pipeline::null(),
        }
    }

    /// Destroys the program's modules and pipelines (the device is idle).
    pub fn destroy(self, raw: &ash::Device) {
        // SAFETY: called at teardown after the device went idle; each object once.
        unsafe {
            for (_, p) in self.pipelines {
                raw.destroy_pipeline(p, None);
            }
            if self.compute != vk::Pipeline::null() {
                raw.destroy_pipeline(self.compute, None);
            }
            for s in self.stages {
                raw.destroy_shader_module(s.module, None);
                if let Some(v) = s.point_variant {
                    raw.destroy_shader_module(v, None);
                }
                for v in s.fixed_variants.into_iter().filter_map(|v| v.1) {
                    raw.destroy_shader_module(v, None);
                }
            }
        }
    }
}

fn stage_flags(stage: ShaderStage) -> vk::ShaderStageFlags {
    match stage {
        ShaderStage::Vertex => vk::ShaderStageFlags::VERTEX,
        ShaderStage::Geometry => vk::ShaderStageFlags::GEOMETRY,
        ShaderStage::Fragment => vk::ShaderStageFlags::FRAGMENT,
        ShaderStage::Compute => vk::ShaderStageFlags::COMPUTE,
        ShaderStage::TessControl => vk::ShaderStageFlags::TESSELLATION_CONTROL,
        ShaderStage::TessEvaluation => vk::ShaderStageFlags::TESSELLATION_EVALUATION,
    }
}

impl ProgramPipe for VkPipe {
    /// `CreateProgram`.
    fn create_program(&mut self, handle: ProgramHandle, desc: &ProgramDesc, stage: Stage<'_>) -> R {
        const N: &str = "CreateProgram";
        self.programs.check_create(N, handle)?;
        let mut codes = Vec::new();
        for s in &desc.stages {
            let bytes = stage.get(s.spirv)?;
            let Some(words) = spirv::words(bytes) else {
                return Err(tessera_wire::backend::bad_value(
                    N,
                    "SPIR-V is not whole words",
                ));
            };
            codes.push((s.stage, words));
        }
        let program = match self.build_program(desc, codes) {
            Ok(p) => p,
            Err(log) => {
                self.events.push(Event::ProgramRejected { log });
                Program::empty()
            }
        };
        self.programs.insert(N, handle, program)
    }

    /// `DestroyProgram`: its modules and pipelines die when the GPU is done with them.
    fn destroy_program(&mut self, handle: ProgramHandle) -> R {
        let p = self.programs.remove("DestroyProgram", handle)?;
        for (_, pipe) in p.pipelines {
            self.defer(Garbage::Pipeline(pipe));
        }
        if p.compute != vk::Pipeline::null() {
            self.defer(Garbage::Pipeline(p.compute));
        }
        for s in p.stages {
            self.defer(Garbage::Module(s.module));
            if let Some(v) = s.point_variant {
                self.defer(Garbage::Module(v));
            }
            for v in s.fixed_variants.into_iter().filter_map(|v| v.1) {
                self.defer(Garbage::Module(v));
            }
        }
        self.rec.pipeline = vk::Pipeline::null();
        Ok(())
    }
}

impl VkPipe {
    /// A shader module of whole SPIR-V `words`.
    pub(crate) fn shader_module(&mut self, words: &[u32]) -> Result<vk::ShaderModule, String> {
        let info = vk::ShaderModuleCreateInfo::default().code(words);
        // SAFETY: `words` is a whole SPIR-V module (checked magic and instruction lengths in
        // spirv.rs); the validation layer, when on, checks the rest.
        let m = unsafe { self.raw.create_shader_module(&info, None) }
            .map_err(|e| format!("vkCreateShaderModule: {e}"))?;
        count(&self.stats.shader_modules);
        Ok(m)
    }

    fn build_program(
        &mut self,
        desc: &ProgramDesc,
        codes: Vec<(ShaderStage, Vec<u32>)>,
    ) -> Result<Program, String> {
        let mut p = Program::empty();
        p.default_block_size = desc.default_block_size;
        let last = codes
            .iter()
            .rposition(|(s, _)| *s != ShaderStage::Fragment)
            .ok_or("a program without a vertex stage")?;
        if codes.iter().any(|(s, _)| *s == ShaderStage::Geometry) && !self.core.geometry_shader {
            return Err("the device has no geometry shaders".to_owned());
        }
        let tessellation = codes
            .iter()
            .any(|(s, _)| matches!(s, ShaderStage::TessControl | ShaderStage::TessEvaluation));
        if tessellation && !self.core.tessellation_shader {
            return Err("the device has no tessellation shaders".to_owned());
        }
        let samplers = desc.samplers.len() as u32;
        let blocks = desc.uniform_blocks.len() as u32;
        let storage = desc.storage_blocks.len() as u32;
        let images = desc.images.len() as u32;
        let compute = codes.iter().any(|(s, _)| *s == ShaderStage::Compute);
        let mut bindings: Vec<LayoutBinding> = Vec::new();
        let mut modules = Vec::new();
        let mut codes = codes;
        for at in 1..codes.len() {
            let max = match codes[at].0 {
                ShaderStage::Geometry => self.limits.geometry_input_locations,
                ShaderStage::Fragment => self.limits.fragment_input_locations,
                // Per-vertex arrays between the tessellation stages are not packed.
                ShaderStage::Vertex
                | ShaderStage::Compute
                | ShaderStage::TessControl
                | ShaderStage::TessEvaluation => continue,
            };
            let (before, after) = codes.split_at_mut(at);
            let (producer, consumer) = (&mut before[at - 1].1, &mut after[0].1);
            if let Some((p, c)) = spirv::pack_scalar_arrays(producer, consumer, max)? {
                *producer = p;
                *consumer = c;
            }
        }
        if let [.., (_, producer), (ShaderStage::Fragment, fragment)] = &mut codes[..]
            && let Some((p, f)) = spirv::split_block_arrays(producer, fragment)?
        {
            *producer = p;
            *fragment = f;
        }
        let result = (|| -> Result<(), String> {
            for (i, (stage, words)) in codes.into_iter().enumerate() {
                let r = spirv::reflect(&words)?;
                match stage {
                    ShaderStage::Vertex => {
                        p.inputs = r.inputs;
                        p.double_inputs = r.double_inputs;
                        p.input_mask = (0..16)
                            .filter(|&i| r.inputs[i].is_some())
                            .fold(0, |m, i| m | 1 << i);
                        p.double_input_mask = (0..16)
                            .filter(|&i| r.double_inputs[i] > 0)
                            .fold(0, |m, i| m | 1 << i);
                    }
                    ShaderStage::Fragment => {
                        p.outputs = r.outputs;
                        p.flat_inputs = r.flat_inputs;
                    }
                    ShaderStage::Geometry
                    | ShaderStage::Compute
                    | ShaderStage::TessControl
                    | ShaderStage::TessEvaluation => {}
                }
                for res in &r.resources {
                    let b = res.binding;
                    let (ty, slot) = match res.kind {
                        ResourceKind::UniformBuffer if b == 0 => (
                            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                            DescSlot::Default,
                        ),
                        ResourceKind::Sampled { .. } | ResourceKind::TexelBuffer { .. }
                            if (1..=samplers).contains(&b) =>
                        {
                            let ty = if matches!(res.kind, ResourceKind::TexelBuffer { .. }) {
                                vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                            } else {
                                vk::DescriptorType::COMBINED_IMAGE_SAMPLER
                            };
                            (
                                ty,
                                DescSlot::Sampler {
                                    binding: b,
                                    first: (b - 1) as usize,
                                    count: res.count.min(samplers + 1 - b),
                                    kind: res.kind,
                                },
                            )
                        }
                        ResourceKind::UniformBuffer
                            if (samplers + 1..=samplers + blocks).contains(&b) =>
                        {
                            let first = (b - 1 - samplers) as usize;
                            (
                                vk::DescriptorType::UNIFORM_BUFFER,
                                DescSlot::Block {
                                    binding: b,
                                    first,
                                    count: res.count.min(samplers + blocks + 1 - b),
                                    size: desc.uniform_blocks.get(first).map_or(0, |s| s.size),
                                },
                            )
                        }
                        ResourceKind::StorageBuffer
                            if (samplers + blocks + 1..=samplers + blocks + storage)
                                .contains(&b) =>
                        {
                            let stores = match stage {
                                ShaderStage::Vertex
                                | ShaderStage::Geometry
                                | ShaderStage::TessControl
                                | ShaderStage::TessEvaluation => self.core.vertex_pipeline_stores,
                                ShaderStage::Fragment => self.core.fragment_stores,
                                ShaderStage::Compute => true,
                            };
                            if !stores {
                                return Err(format!(
                                    "the device has no storage buffers in the {stage:?} stage"
                                ));
                            }
                            let first = (b - 1 - samplers - blocks) as usize;
                            (
                                vk::DescriptorType::STORAGE_BUFFER,
                                DescSlot::Storage {
                                    binding: b,
                                    first,
                                    count: res.count.min(samplers + blocks + storage + 1 - b),
                                },
                            )
                        }
                        ResourceKind::StorageImage { .. }
                            if (samplers + blocks + storage + 1
                                ..=samplers + blocks + storage + images)
                                .contains(&b) =>
                        {
                            let stores = match stage {
                                ShaderStage::Fragment => self.core.fragment_stores,
                                ShaderStage::Compute => true,
                                _ => self.core.vertex_pipeline_stores,
                            };
                            if !stores {
                                return Err(format!(
                                    "the device has no storage images in the {stage:?} stage"
                                ));
                            }
                            let first = (b - 1 - samplers - blocks - storage) as usize;
                            let buffer = matches!(
                                res.kind,
                                ResourceKind::StorageImage {
                                    dim: spirv::Dim::Buffer,
                                    ..
                                }
                            );
                            (
                                if buffer {
                                    vk::DescriptorType::STORAGE_TEXEL_BUFFER
                                } else {
                                    vk::DescriptorType::STORAGE_IMAGE
                                },
                                DescSlot::Image {
                                    binding: b,
                                    first,
                                    count: res
                                        .count
                                        .min(samplers + blocks + storage + images + 1 - b),
                                    kind: res.kind,
                                },
                            )
                        }
                        _ if b > samplers + blocks + storage + images => continue,
                        other => {
                            return Err(format!(
                                "binding {b} holds {other:?}, which the binding contract puts elsewhere"
                            ));
                        }
                    };
                    let n = match slot {
                        DescSlot::Default => 1,
                        DescSlot::Sampler { count, .. }
                        | DescSlot::Image { count, .. }
                        | DescSlot::Block { count, .. }
                        | DescSlot::Storage { count, .. } => count,
                    };
                    match bindings.iter().position(|x| x.0 == b) {
                        Some(at) if bindings[at].1 != ty => {
                            return Err(format!("binding {b} has two descriptor types"));
                        }
                        Some(at) => {
                            bindings[at].2 = bindings[at].2.max(n);
                            bindings[at].3 |= stage_flags(stage);
                        }
                        None => {
                            bindings.push((b, ty, n, stage_flags(stage)));
                            p.slots.push(slot);
                        }
                    }
                }
                // Double inputs are fetched as 32-bit words (spirv/double_attrib.rs).
                let words = if stage == ShaderStage::Vertex
                    && let Some(w) = spirv::apply_double_attribs(&words)?
                {
                    w
                } else {
                    words
                };
                // gl_DrawID and gl_BaseVertex as GL counts them (spirv/draw_param.rs).
                let words = if stage == ShaderStage::Vertex
                    && self.tiers.draw_parameters
                    && let Some(w) = spirv::apply_draw_params(&words)?
                {
                    p.draw_params = true;
                    w
                } else {
                    words
                };
                // gl_InstanceID counts from 0 under a base instance (spirv/instance_id.rs).
                let words = if stage == ShaderStage::Vertex
                    && self.tiers.draw_parameters
                    && let Some(w) = spirv::apply_instance_id(&words)?
                {
                    w
                } else {
                    words
                };
                // Group votes of one invocation without subgroup votes (spirv/vote.rs).
                let words = if !self.tiers.subgroup_vote
                    && let Some(w) = spirv::single_invocation_votes(&words)
                {
                    w
                } else {
                    words
                };
                let mut point_origin = false;
                let words = if stage == ShaderStage::Fragment
                    && let Some(w) = spirv::apply_point_origin(&words)?
                {
                    point_origin = true;
                    w
                } else {
                    words
                };
                let words = if i == last && !compute && !self.tiers.depth_clip_control {
                    spirv::patch(
                        &words,
                        Patch {
                            depth: true,
                            point_size: false,
                        },
                    )?
                } else {
                    words
                };
                let module = self.shader_module(&words)?;
                modules.push(StageModule {
                    stage: stage_flags(stage),
                    module,
                    last_pre_raster: i == last && !compute,
                    words: if i == last && !compute || stage == ShaderStage::Vertex {
                        words
                    } else {
                        Vec::new()
                    },
                    point_variant: None,
                    fixed_variants: Vec::new(),
                    point_origin,
                });
            }
            Ok(())
        })();
        if let Err(e) = result {
            for m in modules {
                self.defer(Garbage::Module(m.module));
            }
            return Err(e);
        }
        bindings.sort_by_key(|b| b.0);
        // Push descriptors when the device has them and the set fits one push (the default
        // block is then a plain uniform buffer: push layouts take no dynamic buffers).
        let total: u32 = bindings.iter().map(|b| b.2).sum();
        p.push = self.tiers.push_descriptors && total <= self.limits.max_push_descriptors;
        if p.push {
            for b in &mut bindings {
                if b.1 == vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC {
                    b.1 = vk::DescriptorType::UNIFORM_BUFFER;
                }
            }
        }
        let (set, layout) = self
            .set_layout(bindings, p.push)
            .map_err(|e| format!("descriptor set layout: {e}"))?;
        p.stages = modules;
        p.set_layout = set;
        p.pipeline_layout = layout;
        if compute {
            match self.compute_pipeline(&p) {
                Ok(pipeline) => p.compute = pipeline,
                Err(e) => {
                    for m in p.stages.drain(..) {
                        self.defer(Garbage::Module(m.module));
                    }
                    return Err(e);
                }
            }
        }
        p.valid = true;
        Ok(p)
    }

    /// The variant of a program's vertex stage that reads the `FIXED` attributes of `key`
    /// (and writes the point size where `key` says so and the stage is the last before
    /// rasterization), made on first use; `None` where the rewrite does not apply.
    pub fn fixed_variant(
        &mut self,
        handle: ProgramHandle,
        key: &FixedKey,
    ) -> Result<Option<vk::ShaderModule>, SessionError> {
        let p = self.programs.get("Draw", handle)?;
        let Some(i) = p
            .stages
            .iter()
            .position(|s| s.stage == vk::ShaderStageFlags::VERTEX)
        else {
            return Ok(None);
        };
        if let Some(v) = p.stages[i].fixed_variants.iter().find(|v| v.0 == *key) {
            return Ok(v.1);
        }
        let s = &p.stages[i];
        let rewritten = spirv::apply_fixed_attribs(&s.words, &key.0)
            .map_err(|e| SessionError::Backend(format!("fixed attributes: {e}")))?;
        let words = match rewritten {
            Some(w) if key.1 && s.last_pre_raster => Some(
                spirv::patch(
                    &w,
                    Patch {
                        depth: false,
                        point_size: true,
                    },
                )
                .map_err(|e| SessionError::Backend(format!("point-size patch: {e}")))?,
            ),
            w => w,
        };
        let module = match words {
            Some(w) => Some(self.shader_module(&w).map_err(SessionError::Backend)?),
            None => None,
        };
        match self.programs.get_mut("Draw", handle) {
            Ok(p) => p.stages[i].fixed_variants.push((key.clone(), module)),
            Err(_) => backend_bug("the program vanished while rewriting it"),
        }
        Ok(module)
    }

    /// Makes the point-size variant of a program's last pre-rasterization stage.
    pub fn ensure_point_variant(&mut self, handle: ProgramHandle) -> Result<(), SessionError> {
        let p = self.programs.get("Draw", handle)?;
        let Some(i) = p.stages.iter().position(|s| s.last_pre_raster) else {
            return Ok(());
        };
        if p.stages[i].point_variant.is_some() {
            return Ok(());
        }
        let patched = spirv::patch(
            &p.stages[i].words,
            Patch {
                depth: false,
                point_size: true,
            },
        )
        .map_err(|e| SessionError::Backend(format!("point-size patch: {e}")))?;
        let module = self
            .shader_module(&patched)
            .map_err(SessionError::Backend)?;
        match self.programs.get_mut("Draw", handle) {
            Ok(p) => p.stages[i].point_variant = Some(module),
            Err(_) => backend_bug("the program vanished while patching it"),
        }
        Ok(())
    }
}
