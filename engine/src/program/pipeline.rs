//! Program pipeline objects and separable programs (GL 4.1's `ARB_separate_shader_objects`).
//!
//! A pipeline is a per-context object (GL 4.1 §7.4: pipelines are not shared) of the share
//! group's world, named in the context's own table, with one program per stage
//! (`glUseProgramStages`) and the program `glUniform*` writes to while no program is
//! current (`ACTIVE_PROGRAM`). It holds a reference on each program it names, as a context
//! holds its current program. A program is separable when `PROGRAM_SEPARABLE` was set at its
//! last link; only separable programs enter a pipeline.
//!
//! GL 4.1 §7.3: a program made current with `glUseProgram` is used for every stage, so a
//! bound pipeline draws only while no program is current. Each draw then resolves it
//! ([`Local::resolve_pipeline`]), which is a comparison of a small key in steady frames:
//! the pipeline is validated as Mesa validates it (a failure is the draw's
//! `INVALID_OPERATION` and the pipeline's info log), and its stages become one program,
//! the context's `stage_set`, which the systems emit like any current program: the one
//! program of a pipeline whose stages all come from it, else a *stage set*, a program the
//! engine makes of the stages of several ([`StageSets`]). A stage set keeps each stage's
//! SPIR-V from its own link (`tessera_shader::stage_set` moves its bindings and its default
//! block into the set's layout) and gets one `CreateProgram`, so neither backend knows
//! pipelines: both see a program. Its default block is the programs' default blocks one
//! after the other, copied again (with their sampler units and block bindings) whenever a
//! program's uniforms change. Stage sets are shared by the group, keyed by their programs'
//! wire programs, so switching a pipeline's stages back and forth creates nothing after the
//! first time; a set is destroyed once one of its programs is relinked or gone.

use std::collections::HashMap;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, Program};
use tessera_shader::Stage;
use tessera_shader::stage_set::{self, Part};
use tessera_systems::lifecycle;
use tessera_wire::handle::ProgramHandle;
use tessera_wire::record::Record;

use super::binary::LinkResult;
use super::link::linked_program;
use crate::context::{Context, GlResult, Local};
use crate::shader::write_string;
use crate::share::Shared;

/// Pipeline stages, in Mesa's order (which validation walks): vertex, tessellation
/// control, tessellation evaluation, geometry, fragment, compute.
const STAGES: usize = 6;

/// Per stage: its `glUseProgramStages` bit, its `glGetProgramPipelineiv` name, and its bit
/// in `LinkedProgram::stages` (the wire's stage numbers).
const STAGE_INFO: [(GLenum, GLenum, u8); STAGES] = [
    (VERTEX_SHADER_BIT, VERTEX_SHADER, 0),
    (TESS_CONTROL_SHADER_BIT, TESS_CONTROL_SHADER, 4),
    (TESS_EVALUATION_SHADER_BIT, TESS_EVALUATION_SHADER, 5),
    (GEOMETRY_SHADER_BIT, GEOMETRY_SHADER, 1),
    (FRAGMENT_SHADER_BIT, FRAGMENT_SHADER, 2),
    (COMPUTE_SHADER_BIT, COMPUTE_SHADER, 3),
];

/// The program of `stage` in pipeline `pe`.
pub(crate) fn stage_program(
    sh: &Shared,
    pe: Entity,
    stage: tessera_wire::format::ShaderStage,
) -> Option<Entity> {
    let slot = STAGE_INFO
        .iter()
        .position(|(_, _, bit)| *bit == stage as u8)?;
    sh.world.get::<ProgramPipeline>(pe)?.stages[slot]
}

/// `PROGRAM_SEPARABLE` of a program: the value `glProgramParameteri` set (what
/// `glGetProgramiv` reports), and the value of its last successful link (what pipelines
/// check).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Separable {
    /// The value set.
    pub pending: bool,
    /// The value at the last successful link.
    pub linked: bool,
}

/// A stage's program as a resolution saw it: the program, its wire program, and its link
/// and uniform generations.
type StageKey = (Entity, Option<ProgramHandle>, u32, u32);

/// What a pipeline's last resolution found: the key it was made for, and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Resolved {
    /// Per stage: the program and what it was then.
    key: [Option<StageKey>; STAGES],
    /// `INVALID_OPERATION` if the pipeline cannot draw, else `NO_ERROR`.
    error: GLenum,
    /// The program the stages resolve to.
    set: Option<Entity>,
}

/// A program pipeline object.
#[derive(Component, Clone, Debug)]
pub(crate) struct ProgramPipeline {
    /// Its name in its context.
    name: GLuint,
    /// The program of each stage (`VERTEX_SHADER`, ... of `glGetProgramPipelineiv`).
    stages: [Option<Entity>; STAGES],
    /// `ACTIVE_PROGRAM`.
    active: Option<Entity>,
    /// Whether a pipeline call other than `glGenProgramPipelines`, `glIsProgramPipeline`
    /// and `glGetProgramPipelineInfoLog` named it: only then is it a pipeline to
    /// `glIsProgramPipeline` (as in Mesa).
    ever_bound: bool,
    /// `VALIDATE_STATUS`: the outcome of the last `glValidateProgramPipeline`.
    validated: bool,
    /// The info log of the last validation (by `glValidateProgramPipeline` or a draw).
    info_log: String,
    /// The last resolution (see [`Local::resolve_pipeline`]).
    resolved: Option<Resolved>,
}

/// What a stage set was made of.
#[derive(Component, Clone, Debug)]
struct StageSetParts {
    /// Its programs, in pipeline order.
    parts: Vec<Entity>,
    /// Where each one's default block starts in the set's.
    offsets: Vec<u32>,
    /// The generations (link and block bindings, uniforms) of each it was last filled from.
    generations: Vec<(u32, u32)>,
}

/// The group's stage sets, by their programs (in pipeline order) and the generation of each
/// (which a link or a change of block bindings bumps).
#[derive(Resource, Default)]
pub(crate) struct StageSets {
    sets: HashMap<Vec<(Entity, u32)>, Entity>,
}

/// The wire stage bits of a program's last link (0 if it has none).
fn linked_stages(sh: &Shared, e: Entity) -> u8 {
    sh.world
        .get::<Program>(e)
        .and_then(|p| p.linked_state.as_ref())
        .map_or(0, |l| l.stages)
}

/// The pipeline slots a program's stages fill (bit per slot of [`STAGE_INFO`]).
fn slot_mask(wire_stages: u8) -> u32 {
    STAGE_INFO
        .iter()
        .enumerate()
        .filter(|(_, (_, _, bit))| wire_stages & (1 << bit) != 0)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The program's name (0 if it has none).
fn program_name(sh: &Shared, e: Entity) -> GLuint {
    sh.world
        .get::<tessera_components::object::Life>(e)
        .map_or(0, |l| l.name)
}

/// Validates a pipeline's stages as Mesa's `_mesa_validate_program_pipeline` does, in its
/// order: `Err` holds the info log (empty where Mesa writes none).
fn validate(sh: &Shared, stages: &[Option<Entity>; STAGES]) -> Result<(), String> {
    // GL 4.1 §2.11.11: a program active for some but not all of the stages it was linked
    // with.
    for p in stages.iter().flatten() {
        let mask = slot_mask(linked_stages(sh, *p));
        let all = (0..STAGES)
            .filter(|i| mask & (1 << i) != 0)
            .all(|i| stages[i] == Some(*p));
        if !all {
            return Err(format!(
                "Program {} is not active for all shaders that was linked",
                program_name(sh, *p)
            ));
        }
    }
    // A program active for two stages with another program's stage between them.
    let mut previous = 0;
    for (i, p) in stages.iter().enumerate() {
        let Some(p) = p else { continue };
        let mask = slot_mask(linked_stages(sh, *p));
        if mask == previous {
            continue;
        }
        if previous != 0 && previous >> (i + 1) != 0 {
            return Err(
                "Program is active for multiple shader stages with an intervening \
                        stage provided by another program"
                    .into(),
            );
        }
        previous = mask;
    }
    // Tessellation or geometry without a vertex stage.
    if stages[0].is_none() && (stages[1].is_some() || stages[2].is_some() || stages[3].is_some()) {
        return Err("Program lacks a vertex shader".into());
    }
    // A program relinked without PROGRAM_SEPARABLE since it entered the pipeline.
    for p in stages.iter().flatten() {
        let separable = sh.world.get::<Separable>(*p).is_some_and(|s| s.linked);
        if !separable {
            return Err(format!(
                "Program {} was relinked without PROGRAM_SEPARABLE state",
                program_name(sh, *p)
            ));
        }
    }
    // An empty pipeline draws nothing, and that is an error.
    if stages.iter().all(Option::is_none) {
        return Err(String::new());
    }
    // Two active samplers of different targets that read one texture unit, in any of the
    // programs (GL 4.1 §2.11.11).
    let mut units: Vec<(u32, tessera_components::state::TextureTarget)> = Vec::new();
    let mut seen: Vec<Entity> = Vec::new();
    for p in stages.iter().flatten() {
        if seen.contains(p) {
            continue;
        }
        seen.push(*p);
        let Some(l) = sh
            .world
            .get::<Program>(*p)
            .and_then(|p| p.linked_state.as_ref())
        else {
            continue;
        };
        for (&unit, &target) in l.sampler_units.iter().zip(&l.sampler_targets) {
            match units.iter().find(|(u, _)| *u == unit) {
                Some((_, t)) if *t != target => {
                    return Err(format!(
                        "Program {}: Texture unit {unit} is accessed with 2 different types",
                        program_name(sh, *p)
                    ));
                }
                Some(_) => {}
                None => units.push((unit, target)),
            }
        }
    }
    Ok(())
}

/// Mesa's rule for separable programs of GLSL 1.50 and later (its
/// `validate_interstage_inout_blocks`, which checks the stages a program links together): a
/// stage before rasterization linked with a later stage, that writes the built-in outputs
/// (`gl_Position`, `gl_PointSize`, `gl_ClipDistance`), must redeclare their block, `out
/// gl_PerVertex`, else the link fails with Mesa's words. `shaders` are the attached
/// shaders' sources.
pub(crate) fn check_per_vertex(shaders: &[(Stage, String)]) -> Result<(), String> {
    let version = shaders
        .iter()
        .filter_map(|(s, t)| tessera_shader::version::check_stage(*s, t).ok())
        .max()
        .unwrap_or(110);
    if version < 150 {
        return Ok(());
    }
    let has = |stage: Stage| shaders.iter().any(|(s, _)| *s == stage);
    let tess = has(Stage::TessControl) || has(Stage::TessEvaluation);
    for (stage, later) in [
        (
            Stage::Vertex,
            tess || has(Stage::Geometry) || has(Stage::Fragment),
        ),
        (Stage::TessControl, has(Stage::TessEvaluation)),
        (
            Stage::TessEvaluation,
            has(Stage::Geometry) || has(Stage::Fragment),
        ),
        (Stage::Geometry, has(Stage::Fragment)),
    ] {
        let texts: Vec<&str> = shaders
            .iter()
            .filter(|(s, _)| *s == stage)
            .map(|(_, t)| t.as_str())
            .collect();
        let writes = texts.iter().any(|t| {
            ["gl_Position", "gl_PointSize", "gl_ClipDistance"]
                .iter()
                .any(|b| t.contains(b))
        });
        let redeclares = texts.iter().any(|t| {
            t.split("out")
                .skip(1)
                .any(|rest| rest.trim_start().starts_with("gl_PerVertex"))
        });
        if later && writes && !redeclares {
            return Err(
                "error: missing output builtin block gl_PerVertex redeclaration in \
                 separable shader program\n"
                    .into(),
            );
        }
    }
    Ok(())
}

impl Local {
    /// The pipeline object of a name, if the name was generated (0 names none).
    fn pipeline_entity(&self, name: GLuint) -> Option<Entity> {
        if name == 0 {
            return None;
        }
        self.pipelines.get(name)
    }

    /// Resolves the bound pipeline for a draw while no program is current: sets
    /// `stage_set` to the program its stages make and `pipeline_error` to the error a draw
    /// raises. Steady frames compare one key.
    pub(crate) fn resolve_pipeline(&mut self, sh: &mut Shared) {
        let pipeline = self.st.pipeline.filter(|_| self.st.program.is_none());
        let Some(pe) = pipeline else {
            self.set_pipeline_outcome(NO_ERROR, self.st.stage_set);
            return;
        };
        let Some(pipe) = sh.world.get::<ProgramPipeline>(pe) else {
            return;
        };
        let stages = pipe.stages;
        let key = stages.map(|s| {
            s.map(|e| {
                let p = sh.world.get::<Program>(e);
                (
                    e,
                    p.and_then(|p| p.handle),
                    p.map_or(0, |p| p.generation),
                    p.map_or(0, |p| p.uniforms_generation),
                )
            })
        });
        if let Some(r) = pipe.resolved.as_ref().filter(|r| r.key == key) {
            let (error, set) = (r.error, r.set);
            self.set_pipeline_outcome(error, set);
            return;
        }
        let (error, set, log) = match validate(sh, &stages) {
            Err(log) => (INVALID_OPERATION, None, log),
            Ok(()) => {
                let mut parts: Vec<Entity> = Vec::new();
                for e in stages.iter().flatten() {
                    if !parts.contains(e) {
                        parts.push(*e);
                    }
                }
                let set = match parts.as_slice() {
                    [one] => Some(*one),
                    _ => stage_set(sh, &parts),
                };
                let error = if set.is_some() {
                    NO_ERROR
                } else {
                    INVALID_OPERATION
                };
                // Stages that cannot draw without a vertex stage (a fragment program alone)
                // draw nothing, as no program does.
                let set = set.filter(|e| {
                    sh.world
                        .get::<Program>(*e)
                        .is_some_and(|p| p.handle.is_some())
                });
                (error, set, String::new())
            }
        };
        if let Some(mut pipe) = sh.world.get_mut::<ProgramPipeline>(pe) {
            pipe.info_log = log;
            pipe.resolved = Some(Resolved { key, error, set });
        }
        self.set_pipeline_outcome(error, set);
        // The programs' uniforms, sampler units or block bindings may have changed.
        self.touch(super::PROGRAM_GROUPS | Dirty::DRAW_CHECK);
        self.dirty_units = u64::MAX;
    }

    /// Installs a resolution's outcome, marking what depends on it.
    fn set_pipeline_outcome(&mut self, error: GLenum, set: Option<Entity>) {
        if self.pipeline_error != error {
            self.pipeline_error = error;
            self.touch(Dirty::DRAW_CHECK);
        }
        let set = set.filter(|_| self.st.program.is_none() && self.st.pipeline.is_some());
        if self.st.stage_set != set {
            self.st.stage_set = set;
            if self.st.program.is_none() {
                self.touch(super::PROGRAM_GROUPS | Dirty::DRAW_CHECK);
                self.dirty_units = u64::MAX;
            }
        }
    }
}

/// The stage set of several programs (in pipeline order), made or found, and filled with
/// their current uniforms; `None` if one has no link result to take stages from.
fn stage_set(sh: &mut Shared, parts: &[Entity]) -> Option<Entity> {
    let handles: Vec<(Entity, u32)> = parts
        .iter()
        .map(|e| sh.world.get::<Program>(*e).map(|p| (*e, p.generation)))
        .collect::<Option<_>>()?;
    sh.world.get_resource_or_insert_with(StageSets::default);
    let found = sh.world.resource::<StageSets>().sets.get(&handles).copied();
    let set = match found {
        Some(set) => set,
        None => {
            sweep_stage_sets(sh);
            let set = make_stage_set(sh, parts)?;
            sh.world
                .resource_mut::<StageSets>()
                .sets
                .insert(handles, set);
            set
        }
    };
    fill_stage_set(sh, set);
    Some(set)
}

/// Destroys the stage sets whose programs were relinked (or changed block bindings) or are
/// gone.
fn sweep_stage_sets(sh: &mut Shared) {
    let sets: Vec<(Vec<(Entity, u32)>, Entity)> = sh
        .world
        .resource::<StageSets>()
        .sets
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    for (key, set) in sets {
        let live = key.iter().all(|(e, generation)| {
            sh.world
                .get::<Program>(*e)
                .is_some_and(|p| p.linked_state.is_some() && p.generation == *generation)
        });
        if live {
            continue;
        }
        sh.world.resource_mut::<StageSets>().sets.remove(&key);
        if let Some(handle) = sh.world.get::<Program>(set).and_then(|p| p.handle) {
            sh.dev.push(Record::DestroyProgram { program: handle });
            sh.dev.alloc.free(handle);
        }
        sh.world.despawn(set);
    }
}

/// Makes a stage set: one program of the stages of `parts`, with its `CreateProgram`.
fn make_stage_set(sh: &mut Shared, parts: &[Entity]) -> Option<Entity> {
    let programs: Vec<tessera_shader::Program> = parts
        .iter()
        .map(|e| sh.world.get::<LinkResult>(*e).map(|l| (*l.0).clone()))
        .collect::<Option<_>>()?;
    // The default blocks: the fragment stage's program first, then the others in pipeline
    // order, so the block ends with the hidden point-size slot of the program whose stage
    // sizes points (the engine writes the slot at the block's end).
    let fragment = programs
        .iter()
        .position(|p| p.stages.iter().any(|(s, _)| *s == Stage::Fragment));
    let mut order: Vec<usize> = fragment.into_iter().collect();
    order.extend((0..programs.len()).filter(|i| Some(*i) != fragment));
    let mut offsets = vec![0; programs.len()];
    let mut size = 0u32;
    for &i in &order {
        offsets[i] = size;
        size += programs[i].default_block_size.div_ceil(16) * 16;
    }
    let stage_parts: Vec<Part<'_>> = programs
        .iter()
        .zip(&offsets)
        .map(|(p, &default_offset)| Part {
            stages: &p.stages,
            samplers: p.samplers.len() as u32,
            blocks: p.blocks.len() as u32,
            storage_blocks: p.storage_blocks.len() as u32,
            atomic_buffers: p.atomic_buffers.len() as u32,
            images: p.images.len() as u32,
            default_offset,
        })
        .collect();
    let stages = stage_set::combine(&stage_parts).ok()?;
    let with = |s: Stage| {
        programs
            .iter()
            .find(|p| p.stages.iter().any(|(t, _)| *t == s))
    };
    // Transform feedback captures from the last stage before rasterization.
    let last = programs
        .iter()
        .rev()
        .find(|p| p.stages.iter().any(|(s, _)| *s != Stage::Fragment));
    let depth_range_offset = programs
        .iter()
        .zip(&offsets)
        .find_map(|(p, o)| p.depth_range_offset.map(|d| d + o));
    let num_samples_offset = programs
        .iter()
        .zip(&offsets)
        .find_map(|(p, o)| p.num_samples_offset.map(|d| d + o));
    let combined = tessera_shader::Program {
        uniforms: Vec::new(),
        locations: Vec::new(),
        blocks: programs.iter().flat_map(|p| p.blocks.clone()).collect(),
        attributes: with(Stage::Vertex).map_or(Vec::new(), |p| p.attributes.clone()),
        attribute_mask: with(Stage::Vertex).map_or(0, |p| p.attribute_mask),
        outputs: with(Stage::Fragment).map_or(Vec::new(), |p| p.outputs.clone()),
        default_block_size: size,
        default_block: vec![0; size as usize],
        depth_range_offset,
        num_samples_offset,
        samplers: programs.iter().flat_map(|p| p.samplers.clone()).collect(),
        images: programs.iter().flat_map(|p| p.images.clone()).collect(),
        storage_blocks: programs
            .iter()
            .flat_map(|p| p.storage_blocks.clone())
            .collect(),
        buffer_variables: Vec::new(),
        atomic_counters: Vec::new(),
        // The storage slots after every program's storage blocks, bound from the
        // programs' atomic counter binding points (`stage_set::combine` numbers them so).
        atomic_buffers: programs
            .iter()
            .flat_map(|p| p.atomic_buffers.clone())
            .collect(),
        local_size: None,
        stages,
        geometry: with(Stage::Geometry).and_then(|p| p.geometry),
        tess_control_vertices: with(Stage::TessControl).and_then(|p| p.tess_control_vertices),
        tess_gen: with(Stage::TessEvaluation).and_then(|p| p.tess_gen),
        xfb: last.map(|p| p.xfb.clone()).unwrap_or_default(),
        // Each program keeps its own subroutines (their selectors are in its default
        // block, copied into the stage set's).
        subroutines: Vec::new(),
        log: String::new(),
    };
    let handle = Context::create_wire_program(sh, &combined);
    let linked = linked_program(&combined);
    let set = sh
        .world
        .spawn((
            Program {
                handle: Some(handle),
                attached: Vec::new(),
                linked: true,
                validated: false,
                info_log: String::new(),
                delete_pending: false,
                attrib_bindings: Vec::new(),
                frag_data_bindings: Vec::new(),
                linked_state: Some(linked),
                generation: 0,
                uniforms_generation: 0,
            },
            StageSetParts {
                parts: parts.to_vec(),
                offsets,
                generations: Vec::new(),
            },
        ))
        .id();
    Some(set)
}

/// Copies the programs' current default blocks, sampler units and block bindings into
/// their stage set, if any changed since the last time.
fn fill_stage_set(sh: &mut Shared, set: Entity) {
    let Some(info) = sh.world.get::<StageSetParts>(set).cloned() else {
        return;
    };
    let generations: Vec<(u32, u32)> = info
        .parts
        .iter()
        .map(|e| {
            sh.world
                .get::<Program>(*e)
                .map_or((0, 0), |p| (p.generation, p.uniforms_generation))
        })
        .collect();
    if generations == info.generations {
        return;
    }
    let sources: Vec<LinkedProgram> = info
        .parts
        .iter()
        .filter_map(|e| {
            sh.world
                .get::<Program>(*e)
                .and_then(|p| p.linked_state.clone())
        })
        .collect();
    if sources.len() != info.parts.len() {
        return;
    }
    let Some(mut p) = sh.world.get_mut::<Program>(set) else {
        return;
    };
    if let Some(l) = p.linked_state.as_mut() {
        for (src, &offset) in sources.iter().zip(&info.offsets) {
            let at = offset as usize;
            if let Some(dst) = l.default_block.get_mut(at..at + src.default_block.len()) {
                dst.copy_from_slice(&src.default_block);
            }
        }
        l.sampler_units = sources
            .iter()
            .flat_map(|s| s.sampler_units.iter().copied())
            .collect();
        l.image_units = sources
            .iter()
            .flat_map(|s| s.image_units.iter().copied())
            .collect();
        for (dst, src) in l
            .blocks
            .iter_mut()
            .zip(sources.iter().flat_map(|s| &s.blocks))
        {
            dst.binding = src.binding;
        }
        for (dst, src) in l
            .storage_blocks
            .iter_mut()
            .zip(sources.iter().flat_map(|s| &s.storage_blocks))
        {
            dst.binding = src.binding;
        }
    }
    p.uniforms_generation = p.uniforms_generation.wrapping_add(1);
    p.generation = p.generation.wrapping_add(1);
    if let Some(mut parts) = sh.world.get_mut::<StageSetParts>(set) {
        parts.generations = generations;
    }
}

impl Context {
    /// The pipeline object of a name: `INVALID_OPERATION` unless it was generated.
    fn pipeline_or(&self, name: GLuint, error: GLenum) -> GlResult<Entity> {
        self.local.pipeline_entity(name).ok_or(error)
    }

    /// The stage bits of the stages the context has, as Mesa counts them: tessellation
    /// and compute where the context advertises them (a 3.3 context has them only as
    /// extensions).
    fn valid_stage_bits(&self) -> GLbitfield {
        let mut bits = VERTEX_SHADER_BIT | FRAGMENT_SHADER_BIT | GEOMETRY_SHADER_BIT;
        if self.advertises("GL_ARB_tessellation_shader") {
            bits |= TESS_CONTROL_SHADER_BIT | TESS_EVALUATION_SHADER_BIT;
        }
        if self.advertises("GL_ARB_compute_shader") {
            bits |= COMPUTE_SHADER_BIT;
        }
        bits
    }

    /// Makes `n` pipeline objects; `ever_bound` as `glCreateProgramPipelines` has it.
    fn make_pipelines(&mut self, n: GLsizei, pipelines: &mut [GLuint], ever_bound: bool) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let names = &mut pipelines[..n as usize];
        if self.local.pipelines.generate(names).is_err() {
            return self.error(OUT_OF_MEMORY);
        }
        let mut sh = self.group.lock();
        for &name in names.iter() {
            let e = sh
                .world
                .spawn(ProgramPipeline {
                    name,
                    stages: [None; STAGES],
                    active: None,
                    ever_bound,
                    validated: false,
                    info_log: String::new(),
                    resolved: None,
                })
                .id();
            self.local.pipelines.bind_object(name, e);
        }
    }

    /// `glGenProgramPipelines`.
    pub fn gen_program_pipelines(&mut self, n: GLsizei, pipelines: &mut [GLuint]) {
        self.make_pipelines(n, pipelines, false);
    }

    /// `glCreateProgramPipelines` (GL 4.5): names that are pipelines at once.
    pub fn create_program_pipelines(&mut self, n: GLsizei, pipelines: &mut [GLuint]) {
        self.make_pipelines(n, pipelines, true);
    }

    /// One new pipeline name (`glGenProgramPipelines` of one).
    pub fn gen_program_pipeline(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_program_pipelines(1, &mut name);
        name[0]
    }

    /// `glDeleteProgramPipelines`: unknown names are ignored; a bound pipeline is unbound.
    pub fn delete_program_pipelines(&mut self, n: GLsizei, pipelines: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &pipelines[..n as usize] {
            let Some(e) = self.local.pipeline_entity(name) else {
                continue;
            };
            if self.local.st.pipeline == Some(e) {
                self.local.st.pipeline = None;
                self.local.resolve_pipeline(&mut sh);
            }
            self.local.pipelines.free(name);
            Self::drop_pipeline(&mut sh, e);
        }
        Self::free_released_names(&mut sh);
    }

    /// Releases what a pipeline holds and despawns it.
    fn drop_pipeline(sh: &mut Shared, e: Entity) {
        let Some(pipe) = sh.world.get::<ProgramPipeline>(e).cloned() else {
            return;
        };
        let Shared { world, dev, .. } = &mut *sh;
        for p in pipe.stages.iter().flatten().chain(pipe.active.iter()) {
            lifecycle::release(world, dev, *p);
        }
        sh.world.despawn(e);
    }

    /// Drops the context's pipelines (the context is going away).
    pub(crate) fn drop_pipelines(&mut self, sh: &mut Shared) {
        self.local.st.pipeline = None;
        self.local.st.stage_set = None;
        for e in self.local.pipelines.drain_objects() {
            Self::drop_pipeline(sh, e);
        }
    }

    /// `glIsProgramPipeline`: a generated name is a pipeline once a pipeline call used it.
    pub fn is_program_pipeline(&mut self, pipeline: GLuint) -> GLboolean {
        let Some(e) = self.local.pipeline_entity(pipeline) else {
            return 0;
        };
        let sh = self.group.lock();
        sh.world
            .get::<ProgramPipeline>(e)
            .is_some_and(|p| p.ever_bound) as GLboolean
    }

    /// Marks a pipeline as used by a pipeline call.
    fn mark_bound(sh: &mut Shared, e: Entity) {
        if let Some(mut p) = sh.world.get_mut::<ProgramPipeline>(e) {
            p.ever_bound = true;
        }
    }

    /// `glBindProgramPipeline`: 0 unbinds; the pipeline draws while no program is current.
    pub fn bind_program_pipeline(&mut self, pipeline: GLuint) {
        let group = self.group.clone();
        let mut sh = group.lock();
        let current = self
            .local
            .st
            .pipeline
            .and_then(|e| sh.world.get::<ProgramPipeline>(e))
            .map_or(0, |p| p.name);
        if current == pipeline {
            return;
        }
        // GL 4.1 §2.17.2: not while transform feedback is active and not paused.
        if self.local.st.transform_feedback_mode.is_some() && !self.local.xfb.paused {
            drop(sh);
            return self.error(INVALID_OPERATION);
        }
        let new = if pipeline == 0 {
            None
        } else {
            match self.pipeline_or(pipeline, INVALID_OPERATION) {
                Ok(e) => Some(e),
                Err(err) => {
                    drop(sh);
                    return self.error(err);
                }
            }
        };
        if let Some(e) = new {
            Self::mark_bound(&mut sh, e);
        }
        self.local.st.pipeline = new;
        if new.is_none() {
            self.local.st.stage_set = None;
        }
        if self.local.st.program.is_none() {
            self.touch_program();
        }
    }

    /// `glUseProgramStages`: the stages of `stages` take `program`'s (none where it has
    /// none; 0 clears them).
    pub fn use_program_stages(&mut self, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let result = (|| {
            let pe = self.pipeline_or(pipeline, INVALID_OPERATION)?;
            Self::mark_bound(&mut sh, pe);
            let valid = self.valid_stage_bits();
            if stages != ALL_SHADER_BITS && stages & !valid != 0 {
                return Err(INVALID_VALUE);
            }
            if self.local.st.pipeline == Some(pe)
                && self.local.st.transform_feedback_mode.is_some()
                && !self.local.xfb.paused
            {
                return Err(INVALID_OPERATION);
            }
            let program = if program == 0 {
                None
            } else {
                let e = Self::program_entity(&sh, program)?;
                if !sh.world.get::<Program>(e).is_some_and(|p| p.linked) {
                    return Err(INVALID_OPERATION);
                }
                if !sh.world.get::<Separable>(e).is_some_and(|s| s.pending) {
                    return Err(INVALID_OPERATION);
                }
                Some(e)
            };
            let has = program.map_or(0, |e| slot_mask(linked_stages(&sh, e)));
            let mut pipe = sh
                .world
                .get::<ProgramPipeline>(pe)
                .cloned()
                .ok_or(INVALID_OPERATION)?;
            let mut released = Vec::new();
            for (i, (bit, _, _)) in STAGE_INFO.iter().enumerate() {
                if stages & bit == 0 {
                    continue;
                }
                let new = program.filter(|_| has & (1 << i) != 0);
                if pipe.stages[i] == new {
                    continue;
                }
                if let Some(new) = new {
                    lifecycle::retain(&mut sh.world, new);
                }
                released.extend(std::mem::replace(&mut pipe.stages[i], new));
            }
            pipe.validated = false;
            sh.world.entity_mut(pe).insert(pipe);
            let Shared { world, dev, .. } = &mut *sh;
            for e in released {
                lifecycle::release(world, dev, e);
            }
            // Like glUseProgram, the stages' subroutine selections go back to their
            // defaults (Mesa's _mesa_use_program).
            if let Some(e) = program {
                let bits = STAGE_INFO
                    .iter()
                    .filter(|(bit, _, _)| stages & bit != 0)
                    .fold(0u8, |b, (_, _, s)| b | 1 << s);
                Self::reset_subroutines(&mut self.local, &mut sh, e, bits, true);
            }
            Ok(())
        })();
        Self::free_released_names(&mut sh);
        drop(sh);
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// `glActiveShaderProgram`: the program `glUniform*` writes to while the pipeline is
    /// bound and no program is current.
    pub fn active_shader_program(&mut self, pipeline: GLuint, program: GLuint) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let result = (|| {
            let program = match program {
                0 => None,
                p => Some(Self::program_entity(&sh, p)?),
            };
            let pe = self.pipeline_or(pipeline, INVALID_OPERATION)?;
            Self::mark_bound(&mut sh, pe);
            if let Some(e) = program
                && !sh.world.get::<Program>(e).is_some_and(|p| p.linked)
            {
                return Err(INVALID_OPERATION);
            }
            let old = sh
                .world
                .get_mut::<ProgramPipeline>(pe)
                .map(|mut p| std::mem::replace(&mut p.active, program))
                .ok_or(INVALID_OPERATION)?;
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::replace(world, dev, old, program);
            Ok(())
        })();
        Self::free_released_names(&mut sh);
        drop(sh);
        if let Err(err) = result {
            self.error(err);
        }
    }

    /// The program `glUniform*` writes to while no program is current: the bound
    /// pipeline's active program.
    pub(crate) fn pipeline_active_program(sh: &Shared, local: &Local) -> Option<Entity> {
        local
            .st
            .pipeline
            .and_then(|e| sh.world.get::<ProgramPipeline>(e))
            .and_then(|p| p.active)
    }

    /// `glValidateProgramPipeline`: `VALIDATE_STATUS` and the info log.
    pub fn validate_program_pipeline(&mut self, pipeline: GLuint) {
        let pe = match self.pipeline_or(pipeline, INVALID_OPERATION) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let mut sh = self.group.lock();
        let Some(stages) = sh.world.get::<ProgramPipeline>(pe).map(|p| p.stages) else {
            return;
        };
        let outcome = validate(&sh, &stages);
        if let Some(mut p) = sh.world.get_mut::<ProgramPipeline>(pe) {
            p.validated = outcome.is_ok();
            p.info_log = outcome.err().unwrap_or_default();
        }
    }

    /// `glGetProgramPipelineiv`.
    pub fn get_program_pipelineiv(
        &mut self,
        pipeline: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let pe = match self.pipeline_or(pipeline, INVALID_OPERATION) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let valid = self.valid_stage_bits();
        let mut sh = self.group.lock();
        Self::mark_bound(&mut sh, pe);
        let Some(pipe) = sh.world.get::<ProgramPipeline>(pe) else {
            return;
        };
        let value = match pname {
            ACTIVE_PROGRAM => Some(pipe.active.map_or(0, |e| program_name(&sh, e))),
            INFO_LOG_LENGTH => Some(crate::shader::gl_length(&pipe.info_log) as GLuint),
            VALIDATE_STATUS => Some(GLuint::from(pipe.validated)),
            _ => STAGE_INFO
                .iter()
                .position(|s| s.1 == pname && s.0 & valid != 0)
                .map(|i| pipe.stages[i].map_or(0, |e| program_name(&sh, e))),
        };
        drop(sh);
        match (value, params.first_mut()) {
            (Some(v), Some(p)) => *p = v as GLint,
            (Some(_), None) => {}
            (None, _) => self.error(INVALID_ENUM),
        }
    }

    /// One value of `glGetProgramPipelineiv` (0 after an error).
    pub fn get_program_pipelinei(&mut self, pipeline: GLuint, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_program_pipelineiv(pipeline, pname, &mut v);
        v[0]
    }

    /// `glGetProgramPipelineInfoLog`.
    pub fn get_program_pipeline_info_log(
        &mut self,
        pipeline: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        info_log: &mut [u8],
    ) {
        let pe = match self.pipeline_or(pipeline, INVALID_VALUE) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let sh = self.group.lock();
        let log = sh
            .world
            .get::<ProgramPipeline>(pe)
            .map(|p| p.info_log.clone())
            .unwrap_or_default();
        drop(sh);
        write_string(&log, buf_size, length, info_log);
    }

    /// The whole info log of a pipeline (`glGetProgramPipelineInfoLog` into a `String`).
    pub fn program_pipeline_info_log(&mut self, pipeline: GLuint) -> String {
        let mut length = 0;
        let mut buf = vec![0u8; 4096];
        self.get_program_pipeline_info_log(pipeline, 4096, Some(&mut length), &mut buf);
        buf.truncate(length.max(0) as usize);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// `PROGRAM_PIPELINE_BINDING`.
    pub(crate) fn pipeline_binding(&self, sh: &Shared) -> GLint {
        self.local
            .st
            .pipeline
            .and_then(|e| sh.world.get::<ProgramPipeline>(e))
            .map_or(0, |p| p.name as GLint)
    }

    /// `glProgramParameteri(PROGRAM_SEPARABLE)`: in effect from the next link.
    pub(crate) fn set_separable(sh: &mut Shared, e: Entity, value: bool) {
        let linked = sh
            .world
            .get::<Separable>(e)
            .copied()
            .unwrap_or_default()
            .linked;
        sh.world.entity_mut(e).insert(Separable {
            pending: value,
            linked,
        });
    }

    /// `glGetProgramiv(PROGRAM_SEPARABLE)`: the value set, or 0 while the program is not
    /// linked (as Mesa answers).
    pub(crate) fn separable(sh: &Shared, e: Entity) -> GLint {
        let linked = sh.world.get::<Program>(e).is_some_and(|p| p.linked);
        GLint::from(linked && sh.world.get::<Separable>(e).is_some_and(|s| s.pending))
    }

    /// `glCreateShaderProgramv`: a separable program linked from one shader of `kind`
    /// compiled from `strings` (0 and `INVALID_ENUM` for a kind that is no stage), with
    /// the shader's compile log after the link's in its info log. As in Mesa, a negative
    /// `count` is `INVALID_VALUE` after the shader was made.
    pub fn create_shader_program_v(
        &mut self,
        kind: GLenum,
        count: GLsizei,
        strings: &[&str],
    ) -> GLuint {
        let shader = self.create_shader(kind);
        if count < 0 {
            self.error(INVALID_VALUE);
            return 0;
        }
        if shader == 0 {
            return 0;
        }
        self.shader_source(shader, count, strings);
        self.compile_shader(shader);
        let program = self.create_program();
        if program != 0 {
            {
                let mut sh = self.group.lock();
                if let Ok(e) = Self::program_entity(&sh, program) {
                    Self::set_separable(&mut sh, e, true);
                }
            }
            if self.get_shaderi(shader, COMPILE_STATUS) != 0 {
                self.attach_shader(program, shader);
                self.link_program(program);
                self.detach_shader(program, shader);
            }
            let log = self.shader_info_log(shader);
            let mut sh = self.group.lock();
            if let Ok(e) = Self::program_entity(&sh, program)
                && let Some(mut p) = sh.world.get_mut::<Program>(e)
            {
                p.info_log.push_str(&log);
            }
        }
        self.delete_shader(shader);
        program
    }
}
