//! Texture objects: names, binding, images, parameters, mipmaps.

use tessera_components::gl::GLenum;

use crate::context::Context;
use crate::get::Value;
use crate::share::Shared;

impl Context {
    /// Texture state for `glGet*` (bindings are answered by `get`).
    pub(crate) fn texture_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}
