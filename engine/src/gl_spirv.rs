//! SPIR-V shaders (GL 4.6's `ARB_gl_spirv` and `ARB_spirv_extensions`): `glShaderBinary`
//! with `SHADER_BINARY_FORMAT_SPIR_V`, `glSpecializeShader`, `SPIR_V_BINARY` and the
//! SPIR-V extension list.
//!
//! A shader given a SPIR-V module keeps it in a [`SpirvShader`] component beside its
//! `Shader`; its source is gone and its `COMPILE_STATUS` false until `glSpecializeShader`
//! names an entry point and the constants' values. Specializing checks what Mesa checks
//! (the module parses, the entry point exists for the shader's stage, every constant index
//! is a `SpecId` of the module), and on success makes the shader compiled, with the
//! module written back as GLSL by the front end (`tessera_shader::gl_spirv`) as its compiled
//! source: from there a link treats it as any compiled shader. A module the front end
//! cannot take (one that does not validate) fails the link with the reason in the log, as
//! a native driver fails it when it compiles the module at link. `glShaderSource` breaks the
//! association, and a program whose shaders are not all SPIR-V or all GLSL fails to link.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::Shader;
use tessera_shader::gl_spirv::{SpecializeError, check_specialization, to_glsl};

use crate::context::{Context, GlResult};
use crate::shader::front_end_stage;

/// A shader's SPIR-V module (`SPIR_V_BINARY` is true while it has one).
#[derive(Component, Clone, Debug)]
pub struct SpirvShader {
    /// The module's words as `glShaderBinary` gave them.
    pub words: std::sync::Arc<[u32]>,
    /// After a successful `glSpecializeShader`: the reason the front end cannot take the
    /// specialized module, which a link reports (`None` when it could).
    pub refused: Option<String>,
}

impl Context {
    /// The SPIR-V extensions a module may use here (`SPIR_V_EXTENSIONS`): those whose
    /// GLSL forms the front end and this backend carry out.
    pub(crate) fn spirv_extension_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        let draw_parameters = self.local.limits.draw_parameters;
        [("SPV_KHR_shader_draw_parameters", draw_parameters)]
            .into_iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| name)
    }

    /// `glShaderBinary(SHADER_BINARY_FORMAT_SPIR_V)` after the names' checks: every shader
    /// takes the module, loses its source and is no longer compiled (Mesa's
    /// `_mesa_spirv_shader_binary`). As in native llvmpipe, the module is not looked at
    /// here: a null binary is an empty module and a length that is not a whole number of
    /// words loses its last bytes, which `glSpecializeShader` then finds malformed.
    pub(crate) fn spirv_shader_binary(&mut self, shaders: &[Entity], binary: Option<&[u8]>) {
        if shaders.is_empty() {
            return;
        }
        let words: std::sync::Arc<[u32]> = binary
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let mut sh = self.group.lock();
        for &e in shaders {
            // A shader another context deleted since the names were checked is skipped.
            if sh.world.get::<Shader>(e).is_none() {
                continue;
            }
            let mut entity = sh.world.entity_mut(e);
            entity.insert(SpirvShader {
                words: words.clone(),
                refused: None,
            });
            if let Some(mut s) = entity.get_mut::<Shader>() {
                s.compiled = false;
                s.source.clear();
                s.compiled_source = None;
            }
        }
    }

    /// `glSpecializeShader`: `INVALID_VALUE`/`INVALID_OPERATION` for a bad name, then
    /// `INVALID_OPERATION` for a shader without a module or already specialized, then the
    /// module's checks (`INVALID_VALUE`, nothing changes); on success the shader is
    /// compiled.
    pub fn specialize_shader(
        &mut self,
        shader: GLuint,
        entry: &[u8],
        indices: &[GLuint],
        values: &[GLuint],
    ) {
        if let Err(err) = self.try_specialize(shader, entry, indices, values) {
            self.error(err);
        }
    }

    fn try_specialize(
        &mut self,
        shader: GLuint,
        entry: &[u8],
        indices: &[GLuint],
        values: &[GLuint],
    ) -> GlResult<()> {
        let (e, stage, words) = {
            let sh = self.group.lock();
            let e = Self::shader_entity(&sh, shader)?;
            let spirv = sh.world.get::<SpirvShader>(e).ok_or(INVALID_OPERATION)?;
            let s = sh.world.get::<Shader>(e).ok_or(INVALID_OPERATION)?;
            if s.compiled {
                return Err(INVALID_OPERATION);
            }
            (e, front_end_stage(s.stage), spirv.words.clone())
        };
        check_specialization(&words, stage, entry, indices).map_err(|err| match err {
            SpecializeError::Malformed
            | SpecializeError::EntryPointNotFound
            | SpecializeError::UnknownSpecIndex(_) => INVALID_VALUE,
        })?;
        // The group's lock is not held while the module is translated and compiled.
        let entry = String::from_utf8_lossy(entry);
        let glsl = to_glsl(&words, stage, &entry, indices, values).and_then(|glsl| {
            let compiled = tessera_shader::compile(
                stage,
                &glsl,
                &crate::program::front_end_limits(&self.local.limits),
            );
            if compiled.ok {
                Ok(glsl)
            } else {
                Err(compiled.log)
            }
        });
        let mut sh = self.group.lock();
        if let Some(mut spirv) = sh.world.get_mut::<SpirvShader>(e) {
            spirv.refused = glsl.as_ref().err().cloned();
        }
        if let Some(mut s) = sh.world.get_mut::<Shader>(e) {
            s.compiled = true;
            s.compiled_source = glsl.ok();
        }
        Ok(())
    }
}
