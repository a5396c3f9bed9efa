//! Shader subroutines (GL 4.0 §2.14.8, `ARB_shader_subroutine`): each linked stage's
//! subroutine functions and uniforms (the front end's reflection, `LinkedProgram::
//! subroutines`), the context's selection for each subroutine uniform location of each stage,
//! and the queries.
//!
//! A selection is context state that `glUseProgram` (and a relink of the current program,
//! and `glUseProgramStages`) resets to its default: for each uniform, the position among the
//! stage's functions of the first one compatible with it, as Mesa has it (a position, not an
//! index: Mesa's quirk, which the selector then compares with indices). The front end
//! lowered each subroutine uniform to a `uint` selector in the default block
//! (`tessera_shader`'s `subroutine.rs`), so a selection is written into the program's
//! default block as `glUniform*` writes a value, and travels with it (`SetUniforms`): a
//! change of selection makes no new backend pipeline, and a program pipeline's stage set
//! copies it from the program as it copies uniforms. As in Mesa, the defaults
//! `glUseProgram` sets reach the selectors only when the next draw binds another program
//! than the last draw did (see [`Context::reset_subroutines`]), and the program's selectors
//! hold the last selection made by any context that uses it.
//!
//! Errors are Mesa's, where Mesa differs from the specification: a shader type that is no
//! stage is `INVALID_OPERATION`, as is an unknown `glGetActiveSubroutineUniformiv` pname;
//! `glUniformSubroutinesuiv` stores each location's index as it checks it, so a call that
//! fails on a later location keeps the earlier ones (for the queries; the selectors change
//! only when a call succeeds), and skips an index no function has; the names of
//! `glGetActiveSubroutineName` and `COMPATIBLE_SUBROUTINES` are positions among the
//! stage's functions, while `glGetSubroutineIndex` returns indices.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{LinkedProgram, Program, StageSubroutines};
use tessera_wire::format::ShaderStage;

use crate::context::{Context, GlResult, Local};
use crate::shader::{gl_length, write_string};
use crate::share::Shared;

/// `INVALID_INDEX`, what `glGetSubroutineIndex` returns for no function.
const INVALID_INDEX: GLuint = 0xFFFF_FFFF;

/// `MAX_SUBROUTINES`: functions a stage may have (Mesa's).
pub(crate) const MAX_SUBROUTINES: i32 = 256;

/// `MAX_SUBROUTINE_UNIFORM_LOCATIONS` (Mesa's).
pub(crate) const MAX_SUBROUTINE_UNIFORM_LOCATIONS: i32 = 1024;

/// The stage a shader type names.
pub(crate) fn stage_of(shadertype: GLenum) -> Option<ShaderStage> {
    Some(match shadertype {
        VERTEX_SHADER => ShaderStage::Vertex,
        TESS_CONTROL_SHADER => ShaderStage::TessControl,
        TESS_EVALUATION_SHADER => ShaderStage::TessEvaluation,
        GEOMETRY_SHADER => ShaderStage::Geometry,
        FRAGMENT_SHADER => ShaderStage::Fragment,
        COMPUTE_SHADER => ShaderStage::Compute,
        _ => return None,
    })
}

/// The subroutines of `stage` of a linked program (`None` when the stage has none).
pub(crate) fn of_stage(l: &LinkedProgram, stage: ShaderStage) -> Option<&StageSubroutines> {
    l.subroutines.iter().find(|s| s.stage == stage)
}

/// Whether a linked program has `stage`.
fn has_stage(l: &LinkedProgram, stage: ShaderStage) -> bool {
    l.stages & 1 << stage as u8 != 0
}

/// The highest function index of a stage (0 without functions): a selection above it is
/// `INVALID_VALUE`.
fn max_index(s: &StageSubroutines) -> u32 {
    s.functions.iter().map(|f| f.index).max().unwrap_or(0)
}

/// The location a subroutine uniform name names in `s`: `u`, `u[0]`, or `u[i]` of an array
/// with `i` below its size.
pub(crate) fn location_of(s: &StageSubroutines, name: &str) -> Option<u32> {
    s.uniforms.iter().find_map(|u| {
        let base = u.name.strip_suffix("[0]").unwrap_or(&u.name);
        if name == u.name || name == base || name.strip_suffix("[0]") == Some(base) {
            return Some(u.location);
        }
        let inside = name
            .strip_prefix(base)?
            .strip_prefix('[')?
            .strip_suffix(']')?;
        if inside.starts_with('+') || u.name == base {
            return None;
        }
        let e: u32 = inside.parse().ok()?;
        (e < u.size).then_some(u.location + e)
    })
}

/// Writes `selections` (one per location) into the selectors of `s` in `block`.
fn write_selectors(block: &mut [u8], s: &StageSubroutines, selections: &[u32]) {
    for u in &s.uniforms {
        let Some(offset) = u.offset else { continue };
        for e in 0..u.size {
            let at = (offset + e * u.stride) as usize;
            let value = selections
                .get((u.location + e) as usize)
                .copied()
                .unwrap_or(0);
            if let Some(bytes) = block.get_mut(at..at + 4) {
                bytes.copy_from_slice(&value.to_le_bytes());
            }
        }
    }
}

impl Context {
    /// The program whose `stage` the subroutine calls of the current context act on: the
    /// current program's, else the bound pipeline's program of that stage.
    fn stage_program(&self, sh: &Shared, stage: ShaderStage) -> Option<Entity> {
        let linked_with = |e: Entity| {
            sh.world
                .get::<Program>(e)
                .and_then(|p| p.linked_state.as_ref())
                .is_some_and(|l| has_stage(l, stage))
        };
        match self.local.st.program {
            Some(e) => linked_with(e).then_some(e),
            None => self
                .local
                .st
                .pipeline
                .and_then(|pe| super::pipeline::stage_program(sh, pe, stage))
                .filter(|&e| linked_with(e)),
        }
    }

    /// Resets the context's selections of `stages` of program `e` to their defaults (GL 4.0
    /// §2.14.8: `glUseProgram` loses them; so do a relink of the current program and
    /// `glUseProgramStages`), and with `write` puts them into its selectors. Mesa writes
    /// them when a draw binds another program than the last draw did, so `glUseProgram`
    /// writes them only when the program the backend has bound is another one: a program
    /// made current again before any draw keeps calling the functions selected before.
    pub(crate) fn reset_subroutines(
        local: &mut Local,
        sh: &mut Shared,
        e: Entity,
        stages: u8,
        write: bool,
    ) {
        let Some(mut p) = sh.world.get_mut::<Program>(e) else {
            return;
        };
        let p = &mut *p;
        let Some(l) = p.linked_state.as_mut() else {
            return;
        };
        if l.subroutines.is_empty() {
            return;
        }
        for s in &l.subroutines {
            if stages & 1 << s.stage as u8 == 0 {
                continue;
            }
            let defaults = s.defaults();
            if write {
                write_selectors(&mut l.default_block, s, &defaults);
            }
            local.subroutines[s.stage as usize] = defaults;
        }
        if write {
            p.uniforms_generation = p.uniforms_generation.wrapping_add(1);
            local.touch(Dirty::UNIFORMS);
        }
    }

    /// Runs `f` on the subroutines of `stage` of a program that has it linked (`None`: the
    /// stage has no subroutines); `INVALID_OPERATION` for a shader type that names no stage
    /// or a program without that stage linked, as in Mesa.
    fn with_stage<R>(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        f: impl FnOnce(Option<&StageSubroutines>) -> GlResult<R>,
    ) -> GlResult<R> {
        self.with_reflection(program, |l| {
            let stage = stage_of(shadertype).ok_or(INVALID_OPERATION)?;
            let l = l.filter(|l| has_stage(l, stage)).ok_or(INVALID_OPERATION)?;
            f(of_stage(l, stage))
        })
    }

    /// `glGetSubroutineUniformLocation`: -1 for a name that is no subroutine uniform of
    /// the stage.
    pub fn get_subroutine_uniform_location(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        name: &str,
    ) -> GLint {
        let result = self.with_stage(program, shadertype, |s| {
            Ok(s.and_then(|s| location_of(s, name))
                .map_or(-1, |l| l as GLint))
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            -1
        })
    }

    /// `glGetSubroutineIndex`: the index of the stage's function `name`, `INVALID_INDEX`
    /// if there is none.
    pub fn get_subroutine_index(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        name: &str,
    ) -> GLuint {
        let result = self.with_stage(program, shadertype, |s| {
            Ok(s.and_then(|s| s.functions.iter().find(|f| f.name == name))
                .map_or(INVALID_INDEX, |f| f.index))
        });
        result.unwrap_or_else(|err| {
            self.error(err);
            INVALID_INDEX
        })
    }

    /// `glGetActiveSubroutineUniformiv`.
    pub fn get_active_subroutine_uniformiv(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        pname: GLenum,
        values: &mut [GLint],
    ) {
        let result = self.with_stage(program, shadertype, |s| {
            let s = s.ok_or(INVALID_VALUE)?;
            let u = s.uniforms.get(index as usize).ok_or(INVALID_VALUE)?;
            Ok(match pname {
                NUM_COMPATIBLE_SUBROUTINES => vec![s.compatible(u).len() as GLint],
                COMPATIBLE_SUBROUTINES => s.compatible(u).iter().map(|&i| i as GLint).collect(),
                UNIFORM_SIZE => vec![u.size as GLint],
                UNIFORM_NAME_LENGTH => vec![gl_length(&u.name)],
                _ => return Err(INVALID_OPERATION),
            })
        });
        match result {
            Ok(v) => {
                for (out, v) in values.iter_mut().zip(v) {
                    *out = v;
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// `glGetActiveSubroutineUniformName`.
    pub fn get_active_subroutine_uniform_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        out: &mut [u8],
    ) {
        let result = self.with_stage(program, shadertype, |s| {
            let u = s
                .and_then(|s| s.uniforms.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            if buf_size < 0 {
                return Err(INVALID_VALUE);
            }
            Ok(u.name.clone())
        });
        match result {
            Ok(n) => write_string(&n, buf_size, length, out),
            Err(err) => self.error(err),
        }
    }

    /// `glGetActiveSubroutineName`: the name of the stage's function at position `index`.
    pub fn get_active_subroutine_name(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        index: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        out: &mut [u8],
    ) {
        let result = self.with_stage(program, shadertype, |s| {
            let f = s
                .and_then(|s| s.functions.get(index as usize))
                .ok_or(INVALID_VALUE)?;
            if buf_size < 0 {
                return Err(INVALID_VALUE);
            }
            Ok(f.name.clone())
        });
        match result {
            Ok(n) => write_string(&n, buf_size, length, out),
            Err(err) => self.error(err),
        }
    }

    /// `glGetProgramStageiv`: 0 for a stage the program does not have linked (and then
    /// `INVALID_OPERATION` for `ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`, as in Mesa).
    pub fn get_program_stageiv(
        &mut self,
        program: GLuint,
        shadertype: GLenum,
        pname: GLenum,
        values: &mut [GLint],
    ) {
        let result = self.with_reflection(program, |l| {
            let stage = stage_of(shadertype).ok_or(INVALID_OPERATION)?;
            let Some(l) = l.filter(|l| has_stage(l, stage)) else {
                if let Some(v) = values.first_mut() {
                    *v = 0;
                }
                return if pname == ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS {
                    Err(INVALID_OPERATION)
                } else {
                    Ok(None)
                };
            };
            let s = of_stage(l, stage);
            let longest = |names: &mut dyn Iterator<Item = &String>| {
                names.map(|n| gl_length(n)).max().unwrap_or(0)
            };
            Ok(Some(match pname {
                ACTIVE_SUBROUTINES => s.map_or(0, |s| s.functions.len() as GLint),
                ACTIVE_SUBROUTINE_UNIFORMS => s.map_or(0, |s| s.uniforms.len() as GLint),
                ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS => s.map_or(0, |s| s.locations as GLint),
                ACTIVE_SUBROUTINE_MAX_LENGTH => {
                    s.map_or(0, |s| longest(&mut s.functions.iter().map(|f| &f.name)))
                }
                ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH => {
                    s.map_or(0, |s| longest(&mut s.uniforms.iter().map(|u| &u.name)))
                }
                _ => {
                    // Mesa writes -1 for a pname it does not take.
                    if let Some(v) = values.first_mut() {
                        *v = -1;
                    }
                    return Err(INVALID_ENUM);
                }
            }))
        });
        match result {
            Ok(Some(v)) => {
                if let Some(out) = values.first_mut() {
                    *out = v;
                }
            }
            Ok(None) => {}
            Err(err) => self.error(err),
        }
    }

    /// `glUniformSubroutinesuiv`: selects a function for every subroutine uniform location
    /// of the stage of the program in use (`count` must be the stage's
    /// `ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`).
    pub fn uniform_subroutinesuiv(
        &mut self,
        shadertype: GLenum,
        count: GLsizei,
        indices: &[GLuint],
    ) {
        let Some(stage) = stage_of(shadertype) else {
            return self.error(INVALID_OPERATION);
        };
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let Some(e) = self.stage_program(&sh, stage) else {
            drop(sh);
            return self.error(INVALID_OPERATION);
        };
        let Some(s) = sh
            .world
            .get::<Program>(e)
            .and_then(|p| p.linked_state.as_ref())
            .and_then(|l| of_stage(l, stage))
            .cloned()
        else {
            drop(sh);
            // No subroutine uniform: only a count of 0 would do, which GL refuses too.
            return self.error(INVALID_VALUE);
        };
        if count < 0 || count as u32 != s.locations || indices.len() < count as usize {
            drop(sh);
            return self.error(INVALID_VALUE);
        }
        let mut selections = self.local.subroutines[stage as usize].clone();
        selections.resize(s.locations as usize, 0);
        let max = max_index(&s);
        let mut uniforms: Vec<_> = s.uniforms.iter().collect();
        uniforms.sort_by_key(|u| u.location);
        let mut failed = None;
        'check: for u in uniforms {
            for e in 0..u.size {
                let at = (u.location + e) as usize;
                // (A location past the stage's count comes only from a damaged binary.)
                let (Some(&wanted), true) = (indices.get(at), at < selections.len()) else {
                    continue;
                };
                if wanted > max {
                    failed = Some(INVALID_VALUE);
                    break 'check;
                }
                let Some(f) = s.functions.iter().find(|f| f.index == wanted) else {
                    continue;
                };
                if !f.types.contains(&u.ty) {
                    failed = Some(INVALID_OPERATION);
                    break 'check;
                }
                selections[at] = wanted;
            }
        }
        self.local.subroutines[stage as usize] = selections.clone();
        if let Some(err) = failed {
            drop(sh);
            return self.error(err);
        }
        if let Some(mut p) = sh.world.get_mut::<Program>(e) {
            let p = &mut *p;
            if let Some(l) = p.linked_state.as_mut() {
                write_selectors(&mut l.default_block, &s, &selections);
                p.uniforms_generation = p.uniforms_generation.wrapping_add(1);
            }
        }
        drop(sh);
        self.local.touch(Dirty::UNIFORMS);
    }

    /// `glGetUniformSubroutineuiv`: the function selected at `location` of the stage of
    /// the program in use.
    pub fn get_uniform_subroutineuiv(
        &mut self,
        shadertype: GLenum,
        location: GLint,
        params: &mut [GLuint],
    ) {
        let result = (|| {
            let stage = stage_of(shadertype).ok_or(INVALID_OPERATION)?;
            let sh = self.group.lock();
            let e = self.stage_program(&sh, stage).ok_or(INVALID_OPERATION)?;
            let locations = sh
                .world
                .get::<Program>(e)
                .and_then(|p| p.linked_state.as_ref())
                .and_then(|l| of_stage(l, stage))
                .map_or(0, |s| s.locations);
            if location < 0 || location as u32 >= locations {
                return Err(INVALID_VALUE);
            }
            Ok(self.local.subroutines[stage as usize]
                .get(location as usize)
                .copied()
                .unwrap_or(0))
        })();
        match result {
            Ok(v) => {
                if let Some(out) = params.first_mut() {
                    *out = v;
                }
            }
            Err(err) => self.error(err),
        }
    }
}
