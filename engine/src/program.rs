//! Shader and program objects, uniforms.

use tessera_components::gl::GLenum;

use crate::context::Context;
use crate::get::Value;
use crate::share::Shared;

impl Context {
    /// Program state for `glGet*`.
    pub(crate) fn program_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}
