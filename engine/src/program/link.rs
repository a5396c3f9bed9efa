//! `glLinkProgram`: the front end links on the client, then the executable goes to the
//! backend as one `CreateProgram`.
//!
//! The group's lock is released while glslang works (1-4 ms), so other contexts are not
//! held up by a link; the result is applied only if the program still exists.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{
    ActiveAtomicBuffer, ActiveAtomicCounter, ActiveBufferVariable, ActiveStorageBlock,
    ActiveUniform, ActiveUniformBlock, ActiveVariable, CapturedVarying, GeometryInfo, Life,
    LinkedProgram, Program, Shader, StageSubroutines, SubroutineFunction, SubroutineUniform,
    TessGenInfo,
};
use tessera_components::state::TextureTarget;
use tessera_shader::gltype::SamplerTarget;
use tessera_shader::{LinkRequest, Stage};
use tessera_wire::format::{ShaderStage, TextureKind};
use tessera_wire::handle::ProgramHandle;
use tessera_wire::record::{
    BlockSlot, ImageSlot, ProgramDesc, Record, SamplerSlot, StageCode, StorageSlot, XfbOutput,
    XfbSource,
};

use super::binary::{LinkResult, RetrievableHint};
use crate::context::Context;
use crate::shader::front_end_stage;
use crate::share::Shared;
use crate::transform_feedback::RequestedVaryings;

/// The binding-table target of a sampler's target.
pub(crate) fn texture_target(t: SamplerTarget) -> TextureTarget {
    match t {
        SamplerTarget::D1 => TextureTarget::D1,
        SamplerTarget::D2 => TextureTarget::D2,
        SamplerTarget::D3 => TextureTarget::D3,
        SamplerTarget::Cube => TextureTarget::Cube,
        SamplerTarget::Rectangle => TextureTarget::Rectangle,
        SamplerTarget::D1Array => TextureTarget::D1Array,
        SamplerTarget::D2Array => TextureTarget::D2Array,
        SamplerTarget::Buffer => TextureTarget::Buffer,
        SamplerTarget::D2Multisample => TextureTarget::D2Multisample,
        SamplerTarget::D2MultisampleArray => TextureTarget::D2MultisampleArray,
        SamplerTarget::CubeArray => TextureTarget::CubeArray,
    }
}

/// The wire's texture kind of a sampler's target.
fn texture_kind(t: SamplerTarget) -> TextureKind {
    match t {
        SamplerTarget::D1 => TextureKind::D1,
        SamplerTarget::D2 => TextureKind::D2,
        SamplerTarget::D3 => TextureKind::D3,
        SamplerTarget::Cube => TextureKind::Cube,
        SamplerTarget::Rectangle => TextureKind::Rectangle,
        SamplerTarget::D1Array => TextureKind::D1Array,
        SamplerTarget::D2Array => TextureKind::D2Array,
        SamplerTarget::Buffer => TextureKind::Buffer,
        SamplerTarget::D2Multisample => TextureKind::D2Multisample,
        SamplerTarget::D2MultisampleArray => TextureKind::D2MultisampleArray,
        SamplerTarget::CubeArray => TextureKind::CubeArray,
    }
}

fn wire_stage(s: Stage) -> ShaderStage {
    match s {
        Stage::Vertex => ShaderStage::Vertex,
        Stage::Geometry => ShaderStage::Geometry,
        Stage::Fragment => ShaderStage::Fragment,
        Stage::Compute => ShaderStage::Compute,
        Stage::TessControl => ShaderStage::TessControl,
        Stage::TessEvaluation => ShaderStage::TessEvaluation,
    }
}

/// The program's reflection in the components' terms, with the default block's initial
/// contents (uniform initializers, and the hidden point-size slot at its end).
pub(crate) fn linked_program(p: &tessera_shader::Program) -> LinkedProgram {
    let variable = |v: &tessera_shader::Variable| ActiveVariable {
        name: v.name.clone(),
        ty: v.ty,
        size: v.size,
        location: v.location,
        index: v.index,
        component: v.component,
    };
    LinkedProgram {
        uniforms: p
            .uniforms
            .iter()
            .map(|u| ActiveUniform {
                name: u.name.clone(),
                ty: u.ty,
                size: u.size,
                block_index: u.block,
                offset: u.offset,
                array_stride: u.array_stride,
                matrix_stride: u.matrix_stride,
                row_major: u.row_major,
                location: u.location,
                sampler_binding: u.sampler_slot,
                stages: u.stages,
            })
            // GL lists atomic counters among the active uniforms, after the others here.
            .chain(p.atomic_counters.iter().map(|c| ActiveUniform {
                name: c.name.clone(),
                ty: UNSIGNED_INT_ATOMIC_COUNTER,
                size: c.size,
                block_index: -1,
                offset: c.offset,
                array_stride: c.array_stride,
                matrix_stride: 0,
                row_major: false,
                location: -1,
                sampler_binding: -1,
                stages: c.stages,
            }))
            .collect(),
        locations: p.locations.clone(),
        blocks: p
            .blocks
            .iter()
            .map(|b| ActiveUniformBlock {
                name: b.name.clone(),
                data_size: b.data_size as i32,
                binding: b.binding,
                uniforms: b.uniforms.clone(),
                stages: b.stages,
            })
            .collect(),
        attributes: p.attributes.iter().map(variable).collect(),
        outputs: p.outputs.iter().map(variable).collect(),
        default_block: p.default_block.clone(),
        depth_range_offset: p.depth_range_offset,
        num_samples_offset: p.num_samples_offset,
        sampler_units: p.samplers.iter().map(|s| s.unit).collect(),
        sampler_targets: p
            .samplers
            .iter()
            .map(|s| texture_target(s.target))
            .collect(),
        image_units: p.images.iter().map(|i| i.unit).collect(),
        image_targets: p.images.iter().map(|i| texture_target(i.target)).collect(),
        attribute_mask: p.attribute_mask,
        wide_attribute_mask: wide_attribute_mask(&p.attributes),
        stages: p
            .stages
            .iter()
            .fold(0, |bits, (s, _)| bits | 1 << wire_stage(*s) as u8),
        geometry: p.geometry.map(|g| GeometryInfo {
            vertices_out: g.vertices_out,
            input_type: g.input,
            output_type: g.output,
            invocations: g.invocations,
        }),
        tess_control_vertices: p.tess_control_vertices,
        tess_gen: p.tess_gen.map(|t| TessGenInfo {
            mode: t.mode,
            spacing: t.spacing,
            vertex_order: t.vertex_order,
            point_mode: t.point_mode,
        }),
        xfb: captured_varyings(&p.xfb),
        xfb_strides: p.xfb.strides,
        xfb_streams: p.xfb.streams,
        storage_blocks: p
            .storage_blocks
            .iter()
            .map(|b| ActiveStorageBlock {
                name: b.name.clone(),
                binding: b.binding,
                stages: b.stages,
                element: b.element,
                data_size: b.data_size as i32,
                variables: b.variables.clone(),
            })
            .collect(),
        buffer_variables: p
            .buffer_variables
            .iter()
            .map(|v| ActiveBufferVariable {
                name: v.name.clone(),
                ty: v.ty,
                size: v.size,
                block_index: v.block as i32,
                offset: v.offset,
                array_stride: v.array_stride,
                matrix_stride: v.matrix_stride,
                row_major: v.row_major,
                top_level_size: v.top_level_size,
                top_level_stride: v.top_level_stride,
                stages: v.stages,
            })
            .collect(),
        atomic_counters: p
            .atomic_counters
            .iter()
            .map(|c| ActiveAtomicCounter {
                name: c.name.clone(),
                size: c.size,
                offset: c.offset,
                array_stride: c.array_stride,
                buffer: c.buffer,
                stages: c.stages,
            })
            .collect(),
        atomic_buffers: p
            .atomic_buffers
            .iter()
            .map(|b| ActiveAtomicBuffer {
                binding: b.binding,
                data_size: b.data_size as i32,
                counters: b.counters.clone(),
                stages: b.stages,
            })
            .collect(),
        local_size: p.local_size,
        subroutines: p
            .subroutines
            .iter()
            .map(|s| StageSubroutines {
                stage: wire_stage(s.stage),
                functions: s
                    .functions
                    .iter()
                    .map(|f| SubroutineFunction {
                        name: f.name.clone(),
                        index: f.index,
                        types: f.types.clone(),
                    })
                    .collect(),
                uniforms: s
                    .uniforms
                    .iter()
                    .map(|u| SubroutineUniform {
                        name: if u.array {
                            format!("{}[0]", u.name)
                        } else {
                            u.name.clone()
                        },
                        ty: u.ty,
                        size: u.size,
                        location: u.location,
                        offset: u.offset,
                        stride: u.stride,
                    })
                    .collect(),
                locations: s.locations,
            })
            .collect(),
    }
}

/// The reflection of what a program captures, with each varying's
/// `TRANSFORM_FEEDBACK_BUFFER_INDEX` counted as Mesa counts it.
fn captured_varyings(x: &tessera_shader::Xfb) -> Vec<CapturedVarying> {
    let mut index = 0;
    let mut previous = None;
    // The buffer Mesa files each varying under: a `gl_NextBuffer` under the buffer of the
    // last varying before it, which need not be the one it ends.
    let mut filed = 0;
    x.varyings
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let separator = v.source == tessera_shader::XfbSource::Skip(0);
            if !separator {
                filed = v.buffer;
            }
            let buffer_index = if x.declared {
                // One more at each change of buffer.
                if previous.is_some_and(|b| b != v.buffer) {
                    index += 1;
                }
                previous = Some(v.buffer);
                index
            } else if x.separate {
                i as i32
            } else if separator {
                // A separator counts in the buffer it ends.
                v.buffer as i32 - 1
            } else {
                v.buffer as i32
            };
            CapturedVarying {
                name: v.name.clone(),
                ty: v.ty,
                size: v.size,
                // Layout names have no offset of their own in Mesa's answer.
                offset: if v.ty == 0 { 0 } else { v.offset as i32 },
                buffer: filed,
                buffer_index,
            }
        })
        .collect()
}

/// The wire's form of a captured varying.
fn xfb_output(source: tessera_shader::XfbSource, buffer: u32) -> XfbOutput {
    use tessera_shader::XfbSource as S;
    XfbOutput {
        source: match source {
            S::Location(l) => XfbSource::Location(l),
            S::Position => XfbSource::Position,
            S::PointSize => XfbSource::PointSize,
            S::ClipDistance => XfbSource::ClipDistance,
            S::Layer => XfbSource::Layer,
            S::ViewportIndex => XfbSource::ViewportIndex,
            S::PrimitiveId => XfbSource::PrimitiveId,
            S::Skip(n) => XfbSource::Skip(n as u8),
        },
        buffer: buffer as u8,
    }
}

/// What a link needs from the program and its shaders, copied out under the lock.
#[derive(Clone, Debug)]
pub(crate) struct LinkInput {
    pub(crate) shaders: Vec<(Stage, String)>,
    pub(crate) attrib_bindings: Vec<(String, u32)>,
    pub(crate) frag_data_bindings: Vec<(String, u32, u32)>,
    pub(crate) xfb: Option<RequestedVaryings>,
}

impl Context {
    /// `glLinkProgram`.
    pub fn link_program(&mut self, program: GLuint) {
        let (e, input) = {
            let sh = self.group.lock();
            let e = match Self::program_entity(&sh, program) {
                Ok(e) => e,
                Err(err) => {
                    drop(sh);
                    return self.error(err);
                }
            };
            // GL 3.3 §2.17: the program transform feedback captures from is not relinked.
            if self.local.st.transform_feedback_mode.is_some() && self.local.st.program == Some(e) {
                drop(sh);
                return self.error(INVALID_OPERATION);
            }
            (e, Self::link_input(&sh, e))
        };
        let separable = {
            let sh = self.group.lock();
            sh.world
                .get::<super::pipeline::Separable>(e)
                .is_some_and(|s| s.pending)
        };
        // A program whose evaluation stage has no control stage is linked again with the
        // default control stage at its draws, from the same input (crate::tessellation).
        let kept = input.as_ref().ok().cloned();
        let result = input.and_then(|input| {
            if separable {
                super::pipeline::check_per_vertex(&input.shaders)?;
            }
            let shaders: Vec<(Stage, &str)> = input
                .shaders
                .iter()
                .map(|(s, t)| (*s, t.as_str()))
                .collect();
            tessera_shader::link(&LinkRequest {
                shaders: &shaders,
                attrib_bindings: &input.attrib_bindings,
                frag_data_bindings: &input.frag_data_bindings,
                limits: crate::program::front_end_limits(&self.local.limits),
                xfb_varyings: input.xfb.as_ref().map_or(&[], |x| &x.names[..]),
                xfb_separate: input
                    .xfb
                    .as_ref()
                    .is_some_and(|x| x.mode == SEPARATE_ATTRIBS),
                separable,
            })
        });
        // GL 4.3 §7.6.2 (shader storage blocks): a program using more blocks than the
        // limits allow fails to link. A block that several stages use counts once per
        // stage against MAX_COMBINED_SHADER_STORAGE_BLOCKS, as in Mesa.
        let max_blocks = self.local.limits.max_storage_blocks as usize;
        let result = result.and_then(|p| {
            let references: usize = p
                .storage_blocks
                .iter()
                .map(|b| b.stages.count_ones() as usize)
                .sum();
            if p.storage_blocks.len() > max_blocks {
                Err(format!(
                    "error: too many shader storage blocks ({}/{max_blocks})\n",
                    p.storage_blocks.len()
                ))
            } else if references > max_blocks {
                Err(format!(
                    "error: too many combined shader storage blocks ({references}/{max_blocks})\n"
                ))
            } else if p.storage_blocks.len() + p.atomic_buffers.len() > max_blocks {
                // The atomic counter buffers take storage slots after the blocks'.
                Err(format!(
                    "error: too many atomic counter buffers ({}/{})\n",
                    p.atomic_buffers.len(),
                    max_blocks - p.storage_blocks.len()
                ))
            } else if !self.local.limits.fp64 && p.stages.iter().any(|(_, w)| uses_doubles(w)) {
                // The backend has no doubles (a GLES driver, unless the embedder lets it
                // narrow them to floats): the program cannot run.
                Err(
                    "error: double-precision types need GL_ARB_gpu_shader_fp64, which this \
                     backend does not have\n"
                        .into(),
                )
            } else if self.local.limits.fp64_narrowed && narrowing_cannot_carry(&p) {
                // The backend narrows doubles to floats: it converts the default block's,
                // never the bytes of an application's buffer.
                Err(
                    "error: doubles in a uniform or storage block or captured by transform \
                     feedback are not narrowed to floats by this backend \
                     (TESSERA_GLES_FP64=narrow)\n"
                        .into(),
                )
            } else if !self.local.limits.vertex_attrib_64bit
                && p.attributes.iter().any(|a| {
                    tessera_shader::gltype::info(a.ty)
                        .is_some_and(|t| t.base == tessera_shader::gltype::Base::Double)
                })
            {
                // The backend fetches no 64-bit vertex formats (lavapipe has none).
                Err("error: double-precision vertex inputs need \
                     GL_ARB_vertex_attrib_64bit, which this backend does not have\n"
                    .into())
            } else if let Some(b) = p
                .atomic_buffers
                .iter()
                .find(|b| b.binding as i32 >= crate::limits::ACB_BINDINGS)
            {
                Err(format!(
                    "error: atomic counter buffer binding {} is past the last binding point\n",
                    b.binding
                ))
            } else {
                Ok(p)
            }
        });
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        if sh.world.get::<Program>(e).is_none() {
            return;
        }
        match result {
            Ok(linked) => {
                crate::tessellation::keep_link_input(&mut sh, e, &linked, kept, separable);
                self.apply_link(&mut sh, e, linked);
                if self.local.st.program == Some(e) {
                    Self::reset_subroutines(&mut self.local, &mut sh, e, u8::MAX, true);
                    self.touch_program();
                }
            }
            Err(log) => Self::fail_link(&mut sh, e, log),
        }
        sh.flush_if_full();
    }

    /// The attached shaders' compiled sources and the binding requests; `Err` is the log of
    /// a link that fails before compiling (an attached shader that did not compile).
    fn link_input(sh: &Shared, e: Entity) -> Result<LinkInput, String> {
        let p = sh.world.get::<Program>(e).ok_or_else(String::new)?;
        let mut shaders = Vec::new();
        let mut spirv_stages = Vec::new();
        for s in &p.attached {
            let Some(shader) = sh.world.get::<Shader>(*s) else {
                continue;
            };
            if !shader.compiled {
                return Err("error: linking with uncompiled/unspecialized shader".into());
            }
            // ARB_gl_spirv: a specialized module links as the GLSL the front end wrote for
            // it (crate::gl_spirv), or fails with the reason it could not.
            let spirv = sh.world.get::<crate::gl_spirv::SpirvShader>(*s);
            if let Some(refused) = spirv.and_then(|m| m.refused.as_ref()) {
                return Err(refused.clone());
            }
            if spirv.is_some() {
                spirv_stages.push(shader.stage);
            }
            match &shader.compiled_source {
                Some(src) => shaders.push((front_end_stage(shader.stage), src.clone())),
                None => return Err("error: linking with uncompiled/unspecialized shader".into()),
            }
        }
        // ARB_gl_spirv: SPIR-V and GLSL shaders do not link together, and a SPIR-V
        // program has one shader per stage (Mesa's rules and words).
        if !spirv_stages.is_empty() && spirv_stages.len() != shaders.len() {
            return Err(
                "error: not all attached shaders have the same SPIR_V_BINARY_ARB state".into(),
            );
        }
        if let Some(twice) = spirv_stages
            .iter()
            .enumerate()
            .find(|(i, s)| spirv_stages[..*i].contains(s))
        {
            return Err(format!(
                "error: there is more than one SPIR-V shader of the {:?} stage\n",
                twice.1
            ));
        }
        Ok(LinkInput {
            shaders,
            attrib_bindings: p.attrib_bindings.clone(),
            frag_data_bindings: p.frag_data_bindings.clone(),
            xfb: sh.world.get::<RequestedVaryings>(e).cloned(),
        })
    }

    /// Installs a successful link (or a loaded program binary's): a new wire program
    /// replaces the previous one, and the link result is kept for `glGetProgramBinary`.
    pub(crate) fn apply_link(
        &mut self,
        sh: &mut Shared,
        e: Entity,
        linked: tessera_shader::Program,
    ) {
        self.install_link(sh, e, &linked);
        let mut entity = sh.world.entity_mut(e);
        if let Some(mut hint) = entity.get_mut::<RetrievableHint>() {
            hint.current = hint.pending;
        }
        entity.insert(LinkResult(Box::new(linked)));
        if let Some(mut separable) = entity.get_mut::<super::pipeline::Separable>() {
            separable.linked = separable.pending;
        }
    }

    /// Emits the link's `CreateProgram` (destroying the previous wire program) and makes
    /// its reflection the program's.
    fn install_link(&mut self, sh: &mut Shared, e: Entity, linked: &tessera_shader::Program) {
        // A separable program without a vertex (or compute) stage draws only in a program
        // pipeline, as part of a stage set: no backend program of its own.
        let alone = !sh
            .world
            .get::<super::pipeline::Separable>(e)
            .is_some_and(|s| s.pending)
            || linked
                .stages
                .iter()
                .any(|(s, _)| matches!(s, Stage::Vertex | Stage::Compute));
        // Nor does a program whose evaluation stage has no control stage: its draws link it
        // again with the default control stage (crate::tessellation).
        let alone = alone && !crate::tessellation::needs_default_control(linked);
        let handle = alone.then(|| Self::create_wire_program(sh, linked));
        let Some(mut p) = sh.world.get_mut::<Program>(e) else {
            return;
        };
        let old = std::mem::replace(&mut p.handle, handle);
        p.linked = true;
        p.validated = false;
        p.info_log = linked.log.clone();
        p.linked_state = Some(linked_program(linked));
        p.generation = p.generation.wrapping_add(1);
        p.uniforms_generation = p.uniforms_generation.wrapping_add(1);
        if let Some(old) = old {
            // Contexts that still bind the old program rebind before their next verb; the
            // backend only has to tolerate the dangling binding until then.
            sh.dev.push(Record::DestroyProgram { program: old });
            sh.dev.alloc.free(old);
        }
    }

    /// Emits the `CreateProgram` of a link result (a program's, or a program pipeline's
    /// stage set) and returns its new handle.
    pub(crate) fn create_wire_program(
        sh: &mut Shared,
        linked: &tessera_shader::Program,
    ) -> ProgramHandle {
        let handle: ProgramHandle = sh.dev.alloc.mint();
        let stages = linked
            .stages
            .iter()
            .map(|(stage, words)| StageCode {
                stage: wire_stage(*stage),
                // SPIR-V words in native order: a consumer tells the order by the magic
                // number, and Tessera's targets are all little-endian anyway.
                spirv: sh.dev.enc.stage_with(words.len() * 4, |bytes| {
                    bytes.copy_from_slice(bytemuck::cast_slice(words));
                }),
            })
            .collect();
        let desc = ProgramDesc {
            stages,
            default_block_size: linked.default_block_size,
            samplers: linked
                .samplers
                .iter()
                .map(|s| SamplerSlot {
                    kind: texture_kind(s.target),
                    element: s.element,
                })
                .collect(),
            uniform_blocks: linked
                .blocks
                .iter()
                .map(|b| BlockSlot {
                    size: b.data_size,
                    element: b.element,
                })
                .collect(),
            // The atomic counter buffers' storage blocks follow the program's own.
            storage_blocks: linked
                .storage_blocks
                .iter()
                .map(|b| StorageSlot { element: b.element })
                .chain(
                    linked
                        .atomic_buffers
                        .iter()
                        .map(|_| StorageSlot { element: 0 }),
                )
                .collect(),
            images: linked
                .images
                .iter()
                .map(|i| ImageSlot {
                    kind: texture_kind(i.target),
                    element: i.element,
                })
                .collect(),
            local_size: linked.local_size.unwrap_or([0; 3]),
            xfb: linked
                .xfb
                .outputs()
                .into_iter()
                .map(|(source, buffer)| xfb_output(source, buffer))
                .collect(),
        };
        sh.dev.push(Record::CreateProgram {
            program: handle,
            desc: Box::new(desc),
        });
        handle
    }

    /// Records a failed link (or load of a program binary). A program current in some
    /// context keeps its executable for rendering; any other loses it. Either way there is
    /// no binary to get until the next successful link.
    pub(crate) fn fail_link(sh: &mut Shared, e: Entity, log: String) {
        let in_use = sh.world.get::<Life>(e).is_some_and(|l| l.refs.get() > 0);
        if let Ok(mut entity) = sh.world.get_entity_mut(e) {
            entity.remove::<LinkResult>();
        }
        let Some(mut p) = sh.world.get_mut::<Program>(e) else {
            return;
        };
        p.linked = false;
        p.validated = false;
        p.info_log = if log.is_empty() {
            "error: linking failed\n".into()
        } else {
            log
        };
        if in_use {
            return;
        }
        p.linked_state = None;
        if let Some(old) = p.handle.take() {
            sh.dev.push(Record::DestroyProgram { program: old });
            sh.dev.alloc.free(old);
        }
    }
}

/// The locations of the `dvec3` and `dvec4` attributes (each column of a `dmat*x3` or
/// `dmat*x4`, each element of an array of them), bit per location: their generic values
/// have a second half, the last two doubles.
fn wide_attribute_mask(attributes: &[tessera_shader::Variable]) -> u16 {
    let mut mask = 0u16;
    for a in attributes.iter().filter(|a| a.location >= 0) {
        let Some(info) = tessera_shader::gltype::info(a.ty) else {
            continue;
        };
        if info.base != tessera_shader::gltype::Base::Double || info.rows < 3 {
            continue;
        }
        for i in 0..a.size.max(1) as u32 * u32::from(info.columns) {
            let location = a.location as u32 + i;
            if location < 16 {
                mask |= 1 << location;
            }
        }
    }
    mask
}

/// Whether a stage's SPIR-V declares the `Float64` capability (its shader uses doubles).
fn uses_doubles(words: &[u32]) -> bool {
    const OP_CAPABILITY: u32 = 17;
    const FLOAT64: u32 = 10;
    let mut at = 5;
    while let Some(&first) = words.get(at) {
        let (len, op) = ((first >> 16) as usize, first & 0xffff);
        if op == OP_CAPABILITY && words.get(at + 1) == Some(&FLOAT64) {
            return true;
        }
        // Capabilities come first: the module's other instructions need not be read.
        if op != OP_CAPABILITY || len == 0 {
            return false;
        }
        at += len;
    }
    false
}

/// Whether a program keeps doubles where narrowing them to floats cannot reach: members of
/// uniform or storage blocks (their bytes are a buffer's) and transform feedback outputs.
fn narrowing_cannot_carry(p: &tessera_shader::Program) -> bool {
    let double = |ty: u32| {
        tessera_shader::gltype::info(ty)
            .is_some_and(|t| t.base == tessera_shader::gltype::Base::Double)
    };
    p.uniforms.iter().any(|u| u.block >= 0 && double(u.ty))
        || p.buffer_variables.iter().any(|v| double(v.ty))
        || p.xfb.varyings.iter().any(|v| double(v.ty))
}
