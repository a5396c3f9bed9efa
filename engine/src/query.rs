//! Query objects and sync objects.

use tessera_components::gl::GLenum;

use crate::context::Context;
use crate::get::Value;
use crate::share::Shared;

impl Context {
    /// Query state for `glGet*` (`TIMESTAMP`).
    pub(crate) fn query_state_value(&self, _sh: &Shared, _pname: GLenum) -> Option<Value> {
        None
    }
}
