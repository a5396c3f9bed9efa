//! `GL_KHR_no_error` contexts (GL 4.6).
//!
//! A context created with `EGL_CONTEXT_OPENGL_NO_ERROR_KHR`, `GLX_CONTEXT_OPENGL_NO_ERROR_ARB`
//! or [`Config::no_error`](crate::config::Config::no_error) promises that the program makes no
//! call that raises an error; in return GL may skip its error checks, and the results of a
//! call that would have raised one are undefined, short of ending the program. Tessera's
//! switch is one field, `Local::no_error`, read in two places:
//!
//! - **Errors.** [`Local::set_error`](crate::context::Local::set_error) keeps no error but
//!   `OUT_OF_MEMORY` (and makes no debug message of the others), so `glGetError` answers
//!   `NO_ERROR` but for `OUT_OF_MEMORY`, as Mesa's `_mesa_GetError` does in such a context
//!   (KHR_no_error's issue 3). A call that fails a check that still runs does nothing.
//! - **Checks that decide only a GL error** ([`Local::checks_errors`]): a draw's check that
//!   no enabled attribute's or index buffer is mapped (the records carry the client's copy
//!   of a mapped buffer either way) and its check that the primitives reach transform
//!   feedback in the kind it captures; `glUniform*`'s check that the call's scalar kind and
//!   shape are the uniform's and that a count above one names an array (a write is clamped
//!   to the values given and the uniform's size whatever the shape; only a `glUniform*d`
//!   call on a 32-bit uniform, or a 32-bit one on a double, is still refused, since its
//!   bytes would not be the width the copy takes).
//!
//! Everything else still runs, because skipping it could make the engine or a backend
//! unsafe: names and handles are looked up (an unknown or deleted name is an index into the
//! engine's own tables), enums are mapped (they index binding and state tables), counts
//! and sizes are checked before they become lengths, offsets or record fields, and a draw
//! still checks what the backends rely on (a complete framebuffer, a valid program pipeline,
//! one sampler type per unit, a vertex array, an element buffer for indexed draws, a
//! primitive kind the geometry or tessellation stages take). The C ABI keeps its no-panic
//! rule and the server still validates every record it receives. Most of a valid call's
//! checks are a compare or two, and a draw's state checks are cached until the state they
//! read changes, so what the switch removes from a steady draw is small (the README's
//! "Benchmarks" gives `scripts/bench-callgrind --no-error`'s figures).

use crate::context::{Context, Local};

impl Local {
    /// Whether the checks that only decide a GL error run: `false` in a no-error context.
    #[inline(always)]
    pub(crate) fn checks_errors(&self) -> bool {
        !self.no_error
    }
}

impl Context {
    /// Whether this is a `GL_KHR_no_error` context.
    pub fn no_error(&self) -> bool {
        self.local.no_error
    }
}
