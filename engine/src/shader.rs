//! Shader objects: sources, compilation, and their queries.
//!
//! Shaders and programs share one namespace (`sh.names.shader_programs`): a name that is
//! neither is `INVALID_VALUE`, a program where a shader is expected (and the reverse)
//! `INVALID_OPERATION`. A shader has no wire object: its code reaches the backend inside the
//! programs it is linked into. Compiling runs the GLSL front end on the client
//! ([`tessera_shader::compile`]) so the status and log need no round trip; linking compiles
//! the source again as it was at the last successful compile.
//!
//! Deleting a shader attached to a program only marks it (`DELETE_STATUS`); it keeps its
//! name until the last program detaches it (or dies), as GL specifies.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Life, Program, Shader};
use tessera_shader::Stage;
use tessera_systems::lifecycle;
use tessera_wire::format::ShaderStage;

use crate::context::{Context, GlResult};
use crate::share::Shared;

/// The stage of a shader type enum.
fn stage_of(kind: GLenum) -> Option<ShaderStage> {
    match kind {
        VERTEX_SHADER => Some(ShaderStage::Vertex),
        GEOMETRY_SHADER => Some(ShaderStage::Geometry),
        FRAGMENT_SHADER => Some(ShaderStage::Fragment),
        COMPUTE_SHADER => Some(ShaderStage::Compute),
        TESS_CONTROL_SHADER => Some(ShaderStage::TessControl),
        TESS_EVALUATION_SHADER => Some(ShaderStage::TessEvaluation),
        _ => None,
    }
}

/// The front end's stage of a wire stage.
pub(crate) fn front_end_stage(stage: ShaderStage) -> Stage {
    match stage {
        ShaderStage::Vertex => Stage::Vertex,
        ShaderStage::Geometry => Stage::Geometry,
        ShaderStage::Fragment => Stage::Fragment,
        ShaderStage::Compute => Stage::Compute,
        ShaderStage::TessControl => Stage::TessControl,
        ShaderStage::TessEvaluation => Stage::TessEvaluation,
    }
}

/// Copies `s` into a GL string output: at most `buf_size - 1` bytes (and what `out` holds)
/// and a terminating NUL; `length` gets the bytes written without the NUL.
pub(crate) fn write_string(
    s: &str,
    buf_size: GLsizei,
    length: Option<&mut GLsizei>,
    out: &mut [u8],
) {
    let room = (buf_size.max(0) as usize).min(out.len());
    let n = s.len().min(room.saturating_sub(1));
    out[..n].copy_from_slice(&s.as_bytes()[..n]);
    if room > 0 {
        out[n] = 0;
    }
    if let Some(l) = length {
        *l = n as GLsizei;
    }
}

/// `INFO_LOG_LENGTH` / `SHADER_SOURCE_LENGTH` of a string: its length with the NUL, or 0
/// when empty.
pub(crate) fn gl_length(s: &str) -> GLint {
    if s.is_empty() {
        0
    } else {
        (s.len() + 1).min(GLint::MAX as usize) as GLint
    }
}

impl Context {
    /// The live shader or program a name refers to (`INVALID_VALUE` if none). An entity
    /// that died while its name was still listed counts as no object.
    pub(crate) fn shader_program_entity(sh: &Shared, name: GLuint) -> GlResult<Entity> {
        sh.names
            .shader_programs
            .get(name)
            .filter(|e| sh.world.get::<Life>(*e).is_some())
            .ok_or(INVALID_VALUE)
    }

    /// The shader a name refers to: `INVALID_VALUE` if the name is neither a shader nor a
    /// program, `INVALID_OPERATION` if it is a program.
    pub(crate) fn shader_entity(sh: &Shared, name: GLuint) -> GlResult<Entity> {
        let e = Self::shader_program_entity(sh, name)?;
        if sh.world.get::<Shader>(e).is_some() {
            Ok(e)
        } else {
            Err(INVALID_OPERATION)
        }
    }

    /// The program a name refers to: `INVALID_VALUE` if the name is neither a shader nor a
    /// program, `INVALID_OPERATION` if it is a shader.
    pub(crate) fn program_entity(sh: &Shared, name: GLuint) -> GlResult<Entity> {
        let e = Self::shader_program_entity(sh, name)?;
        if sh.world.get::<Program>(e).is_some() {
            Ok(e)
        } else {
            Err(INVALID_OPERATION)
        }
    }

    /// Frees the names of shaders and programs that died while their deletion was pending.
    pub(crate) fn free_released_names(sh: &mut Shared) {
        let Shared { dev, names, .. } = sh;
        for name in dev.released_names.drain(..) {
            names.shader_programs.free(name);
        }
    }

    /// `glCreateShader`: 0 and `INVALID_ENUM` for a type that is no shader stage (a
    /// compute or tessellation shader too where the backend has no such stage).
    pub fn create_shader(&mut self, kind: GLenum) -> GLuint {
        let limits = &self.local.limits;
        let Some(stage) = stage_of(kind).filter(|s| match s {
            ShaderStage::Compute => limits.has_compute(),
            ShaderStage::TessControl | ShaderStage::TessEvaluation => limits.has_tessellation(),
            _ => true,
        }) else {
            self.error(INVALID_ENUM);
            return 0;
        };
        let mut sh = self.group.lock();
        let e = sh
            .world
            .spawn(Shader {
                kind,
                stage,
                source: String::new(),
                compiled_source: None,
                compiled: false,
                info_log: String::new(),
                delete_pending: false,
            })
            .id();
        let Ok(name) = sh.names.shader_programs.create(e) else {
            sh.world.despawn(e);
            self.local.set_error(OUT_OF_MEMORY);
            return 0;
        };
        sh.world.entity_mut(e).insert(Life::named(name));
        name
    }

    /// `glDeleteShader`: 0 is ignored; a shader attached to a program is only marked.
    pub fn delete_shader(&mut self, shader: GLuint) {
        if shader == 0 {
            return;
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match Self::shader_entity(&sh, shader) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        if let Some(mut s) = sh.world.get_mut::<Shader>(e) {
            s.delete_pending = true;
        }
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::delete_pending(world, dev, e);
        Self::free_released_names(&mut sh);
    }

    /// `glIsShader`.
    pub fn is_shader(&mut self, shader: GLuint) -> GLboolean {
        let sh = self.group.lock();
        Self::shader_entity(&sh, shader).is_ok() as GLboolean
    }

    /// `glShaderSource`: the first `count` strings (all of `strings` if it has fewer),
    /// concatenated, replace the source. The C entry point turns its pointers and optional
    /// lengths into the slices.
    pub fn shader_source(&mut self, shader: GLuint, count: GLsizei, strings: &[&str]) {
        if count < 0 {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock();
        let e = match Self::shader_entity(&sh, shader) {
            Ok(e) => e,
            Err(err) => {
                drop(sh);
                return self.error(err);
            }
        };
        let used = &strings[..(count as usize).min(strings.len())];
        if let Some(mut s) = sh.world.get_mut::<Shader>(e) {
            s.source = used.concat();
        }
        // ARB_gl_spirv: a source breaks the shader's association with a SPIR-V module.
        sh.world
            .entity_mut(e)
            .remove::<crate::gl_spirv::SpirvShader>();
    }

    /// `glGetShaderSource`.
    pub fn get_shader_source(
        &mut self,
        shader: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        source: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        match self.shader_text(shader, |s| s.source.clone()) {
            Ok(text) => write_string(&text, buf_size, length, source),
            Err(err) => self.error(err),
        }
    }

    /// The whole source of a shader (`glGetShaderSource` into a `String`).
    pub fn shader_source_string(&mut self, shader: GLuint) -> String {
        self.shader_text(shader, |s| s.source.clone())
            .unwrap_or_else(|err| {
                self.error(err);
                String::new()
            })
    }

    /// `glGetShaderInfoLog`.
    pub fn get_shader_info_log(
        &mut self,
        shader: GLuint,
        buf_size: GLsizei,
        length: Option<&mut GLsizei>,
        info_log: &mut [u8],
    ) {
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        match self.shader_text(shader, |s| s.info_log.clone()) {
            Ok(text) => write_string(&text, buf_size, length, info_log),
            Err(err) => self.error(err),
        }
    }

    /// The whole info log of a shader (`glGetShaderInfoLog` into a `String`).
    pub fn shader_info_log(&mut self, shader: GLuint) -> String {
        self.shader_text(shader, |s| s.info_log.clone())
            .unwrap_or_else(|err| {
                self.error(err);
                String::new()
            })
    }

    fn shader_text(
        &mut self,
        shader: GLuint,
        f: impl FnOnce(&Shader) -> String,
    ) -> GlResult<String> {
        let sh = self.group.lock();
        let e = Self::shader_entity(&sh, shader)?;
        Ok(sh.world.get::<Shader>(e).map(f).unwrap_or_default())
    }

    /// `glCompileShader`: compiles on the client; status and log are ready on return.
    pub fn compile_shader(&mut self, shader: GLuint) {
        let (e, stage, source) = {
            let sh = self.group.lock();
            let e = match Self::shader_entity(&sh, shader) {
                Ok(e) => e,
                Err(err) => {
                    drop(sh);
                    return self.error(err);
                }
            };
            // ARB_gl_spirv: a shader holding a SPIR-V module is specialized, not compiled.
            if sh.world.get::<crate::gl_spirv::SpirvShader>(e).is_some() {
                drop(sh);
                return self.error(INVALID_OPERATION);
            }
            let Some(s) = sh.world.get::<Shader>(e) else {
                return;
            };
            (e, s.stage, s.source.clone())
        };
        // The group's lock is not held while glslang works: other contexts go on.
        let result = tessera_shader::compile(
            front_end_stage(stage),
            &source,
            &crate::program::front_end_limits(&self.local.limits),
        );
        let mut sh = self.group.lock();
        if let Some(mut s) = sh.world.get_mut::<Shader>(e) {
            s.compiled = result.ok;
            s.info_log = result.log;
            if result.ok {
                s.compiled_source = Some(source);
            }
        }
    }

    /// `glGetShaderiv`.
    pub fn get_shaderiv(&mut self, shader: GLuint, pname: GLenum, params: &mut [GLint]) {
        match self.shader_param(shader, pname) {
            Ok(v) => {
                if let Some(p) = params.first_mut() {
                    *p = v;
                }
            }
            Err(err) => self.error(err),
        }
    }

    /// One value of `glGetShaderiv` (0 after an error).
    pub fn get_shaderi(&mut self, shader: GLuint, pname: GLenum) -> GLint {
        let mut v = [0];
        self.get_shaderiv(shader, pname, &mut v);
        v[0]
    }

    fn shader_param(&mut self, shader: GLuint, pname: GLenum) -> GlResult<GLint> {
        if !matches!(
            pname,
            SHADER_TYPE
                | DELETE_STATUS
                | COMPILE_STATUS
                | INFO_LOG_LENGTH
                | SHADER_SOURCE_LENGTH
                | SPIR_V_BINARY
        ) {
            // GL checks the name first only when the pname is valid; Mesa raises
            // INVALID_ENUM for a bad pname on a valid shader and INVALID_VALUE otherwise.
            let sh = self.group.lock();
            Self::shader_entity(&sh, shader)?;
            return Err(INVALID_ENUM);
        }
        let sh = self.group.lock();
        let e = Self::shader_entity(&sh, shader)?;
        let s = sh.world.get::<Shader>(e).ok_or(INVALID_VALUE)?;
        Ok(match pname {
            SHADER_TYPE => s.kind as GLint,
            DELETE_STATUS => GLint::from(s.delete_pending),
            COMPILE_STATUS => GLint::from(s.compiled),
            INFO_LOG_LENGTH => gl_length(&s.info_log),
            SPIR_V_BINARY => GLint::from(sh.world.get::<crate::gl_spirv::SpirvShader>(e).is_some()),
            _ => gl_length(&s.source),
        })
    }
}
