//! Sampler objects (GL 3.3 §3.8.2): sampling parameters bound to a texture unit, which
//! replace the sampling parameters of whatever texture that unit samples.
//!
//! `gen_samplers` creates the objects at once (GL says so: `is_sampler` is true before any
//! bind). A sampler has no wire object: at a draw its parameters become a content-addressed
//! sampler CSO (`tessera_systems::texture`), so two samplers with equal parameters share
//! one. A unit's binding holds a reference; deleting a sampler unbinds it from every unit of
//! this context, and bindings in other contexts keep it alive.
//!
//! Parameter rules are the texture's sampling-parameter rules
//! ([`set_sampling`](crate::texture::params::set_sampling)), without the texture-only
//! parameters (levels, swizzle) and without target restrictions.

use bevy_ecs::entity::Entity;
use tessera_components::Dirty;
use tessera_components::gl::*;
use tessera_components::object::{Life, Sampler};
use tessera_systems::lifecycle;
use tessera_wire::state::MAX_TEXTURE_UNITS;

use crate::context::{Context, GlResult};
use crate::share::Shared;
use crate::texture::params::{ParamArg, ParamValue, sampling_value, set_sampling};

impl Context {
    /// `glGenSamplers`: reserves names and creates their sampler objects.
    pub fn gen_samplers(&mut self, n: GLsizei, samplers: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(samplers.len());
        let mut sh = self.group.lock();
        if sh.names.samplers.generate(&mut samplers[..n]).is_err() {
            return self.local.set_error(OUT_OF_MEMORY);
        }
        for &name in &samplers[..n] {
            let e = sh.world.spawn((Life::named(name), Sampler::new())).id();
            sh.names.samplers.bind_object(name, e);
        }
    }

    /// Generates one sampler.
    pub fn gen_sampler(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_samplers(1, &mut name);
        name[0]
    }

    /// `glIsSampler`.
    pub fn is_sampler(&mut self, sampler: GLuint) -> GLboolean {
        let sh = self.group.lock();
        sh.names.samplers.get(sampler).is_some() as GLboolean
    }

    /// `glDeleteSamplers`: unbinds each sampler from every unit of this context, then drops
    /// its name. Names that are not samplers are ignored.
    pub fn delete_samplers(&mut self, n: GLsizei, samplers: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let n = (n as usize).min(samplers.len());
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &name in &samplers[..n] {
            let Some(e) = sh.names.samplers.get(name) else {
                continue;
            };
            for unit in 0..MAX_TEXTURE_UNITS {
                if self.local.st.samplers[unit] == Some(e) {
                    self.set_sampler_binding(&mut sh, unit, None);
                }
            }
            sh.names.samplers.free(name);
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// `glBindSampler`: `INVALID_VALUE` for a unit beyond
    /// `MAX_COMBINED_TEXTURE_IMAGE_UNITS`, `INVALID_OPERATION` for a name that is not a
    /// sampler.
    pub fn bind_sampler(&mut self, unit: GLuint, sampler: GLuint) {
        if unit as usize >= MAX_TEXTURE_UNITS {
            return self.error(INVALID_VALUE);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = if sampler == 0 {
            None
        } else {
            match sh.names.samplers.get(sampler) {
                Some(e) => Some(e),
                None => return self.error(INVALID_OPERATION),
            }
        };
        self.set_sampler_binding(&mut sh, unit as usize, e);
    }

    fn set_sampler_binding(&mut self, sh: &mut Shared, unit: usize, e: Option<Entity>) {
        let slot = &mut self.local.st.samplers[unit];
        if *slot == e {
            return;
        }
        let old = std::mem::replace(slot, e);
        let Shared { world, dev, .. } = sh;
        lifecycle::replace(world, dev, old, e);
        self.local.dirty_units |= 1 << unit;
        self.local.touch(Dirty::TEXTURES);
    }

    /// The sampler object of a name (`INVALID_OPERATION` if it is none).
    fn sampler_object(&self, sh: &Shared, sampler: GLuint) -> GlResult<Entity> {
        sh.names.samplers.get(sampler).ok_or(INVALID_OPERATION)
    }

    fn sampler_parameter(
        &mut self,
        sampler: GLuint,
        pname: GLenum,
        arg: ParamArg<'_>,
        vector: bool,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let e = match self.sampler_object(&sh, sampler) {
            Ok(e) => e,
            Err(err) => return self.error(err),
        };
        let limits = self.local.limits;
        let result = match sh.world.get_mut::<Sampler>(e) {
            Some(mut s) => {
                let s = s.as_mut();
                let r = set_sampling(&mut s.params, pname, arg, vector, &limits);
                if r == Ok(true) {
                    s.generation = s.generation.wrapping_add(1);
                }
                r
            }
            None => Ok(false),
        };
        match result {
            Ok(true) => {
                let mut units = 0u64;
                for (unit, bound) in self.local.st.samplers.iter().enumerate() {
                    if *bound == Some(e) {
                        units |= 1 << unit;
                    }
                }
                if units != 0 {
                    self.local.dirty_units |= units;
                    self.local.touch(Dirty::TEXTURES);
                }
            }
            Ok(false) => {}
            Err(err) => self.error(err),
        }
    }

    /// `glSamplerParameteri`.
    pub fn sampler_parameteri(&mut self, sampler: GLuint, pname: GLenum, param: GLint) {
        self.sampler_parameter(sampler, pname, ParamArg::Int(&[param]), false);
    }

    /// `glSamplerParameterf`.
    pub fn sampler_parameterf(&mut self, sampler: GLuint, pname: GLenum, param: GLfloat) {
        self.sampler_parameter(sampler, pname, ParamArg::Float(&[param]), false);
    }

    /// `glSamplerParameteriv`.
    pub fn sampler_parameteriv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLint]) {
        self.sampler_parameter(sampler, pname, ParamArg::Int(params), true);
    }

    /// `glSamplerParameterfv`.
    pub fn sampler_parameterfv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLfloat]) {
        self.sampler_parameter(sampler, pname, ParamArg::Float(params), true);
    }

    /// `glSamplerParameterIiv`.
    pub fn sampler_parameter_iiv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLint]) {
        self.sampler_parameter(sampler, pname, ParamArg::PureInt(params), true);
    }

    /// `glSamplerParameterIuiv`.
    pub fn sampler_parameter_iuiv(&mut self, sampler: GLuint, pname: GLenum, params: &[GLuint]) {
        self.sampler_parameter(sampler, pname, ParamArg::PureUint(params), true);
    }

    fn sampler_value(&mut self, sampler: GLuint, pname: GLenum) -> Option<ParamValue> {
        let anisotropic = self.local.limits.anisotropic;
        let result = {
            let sh = self.group.lock();
            self.sampler_object(&sh, sampler).and_then(|e| {
                sh.world
                    .get::<Sampler>(e)
                    .and_then(|s| sampling_value(&s.params, pname))
                    .filter(|_| anisotropic || pname != TEXTURE_MAX_ANISOTROPY)
                    .ok_or(INVALID_ENUM)
            })
        };
        match result {
            Ok(v) => Some(v),
            Err(err) => {
                self.error(err);
                None
            }
        }
    }

    /// `glGetSamplerParameteriv`.
    pub fn get_sampler_parameteriv(
        &mut self,
        sampler: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if let Some(v) = self.sampler_value(sampler, pname) {
            v.write(params, ParamValue::int);
        }
    }

    /// `glGetSamplerParameterfv`.
    pub fn get_sampler_parameterfv(
        &mut self,
        sampler: GLuint,
        pname: GLenum,
        params: &mut [GLfloat],
    ) {
        if let Some(v) = self.sampler_value(sampler, pname) {
            v.write(params, ParamValue::float);
        }
    }

    /// `glGetSamplerParameterIiv`.
    pub fn get_sampler_parameter_iiv(
        &mut self,
        sampler: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        if let Some(v) = self.sampler_value(sampler, pname) {
            v.write(params, ParamValue::pure_int);
        }
    }

    /// `glGetSamplerParameterIuiv`.
    pub fn get_sampler_parameter_iuiv(
        &mut self,
        sampler: GLuint,
        pname: GLenum,
        params: &mut [GLuint],
    ) {
        if let Some(v) = self.sampler_value(sampler, pname) {
            v.write(params, ParamValue::pure_uint);
        }
    }
}
