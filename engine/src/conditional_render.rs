//! Conditional rendering (`glBeginConditionalRender` / `glEndConditionalRender`, GL 3.3
//! §2.16): which occlusion query decides whether rendering commands take effect.
//!
//! The state and every error are exact. What is missing is the effect: no backend has a
//! conditional-render record yet, so rendering between begin and end is unconditional.
//! For the `*_NO_WAIT` modes GL allows exactly that ("the GL may choose to unconditionally
//! execute the subsequent rendering commands"); for the `*_WAIT` modes it is a deviation,
//! reported once in the log when such a mode is begun.

use std::sync::atomic::{AtomicBool, Ordering};

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::Query;

use crate::context::Context;

/// Whether the unconditional-rendering warning was logged (once per process).
static WARNED: AtomicBool = AtomicBool::new(false);

impl Context {
    /// `glBeginConditionalRender`. Errors in Mesa's order: already active
    /// (`INVALID_OPERATION`), a name that was never generated (`INVALID_VALUE`), an invalid
    /// mode (`INVALID_ENUM`), a query that is not an occlusion query or never begun, or is
    /// active (`INVALID_OPERATION`).
    pub fn begin_conditional_render(&mut self, id: GLuint, mode: GLenum) {
        if self.local.conditional_render.is_some() {
            return self.error(INVALID_OPERATION);
        }
        let entry = self.local.queries.entry(id);
        if id == 0 || matches!(entry, NameEntry::Free) {
            return self.error(INVALID_VALUE);
        }
        if !matches!(
            mode,
            QUERY_WAIT | QUERY_NO_WAIT | QUERY_BY_REGION_WAIT | QUERY_BY_REGION_NO_WAIT
        ) {
            return self.error(INVALID_ENUM);
        }
        let NameEntry::Object(e) = entry else {
            // Generated but never begun: it has no target yet.
            return self.error(INVALID_OPERATION);
        };
        let usable = {
            let sh = self.group.lock();
            sh.world.get::<Query>(e).is_some_and(|q| {
                matches!(
                    q.target,
                    SAMPLES_PASSED | ANY_SAMPLES_PASSED | ANY_SAMPLES_PASSED_CONSERVATIVE
                ) && !q.active
            })
        };
        if !usable {
            return self.error(INVALID_OPERATION);
        }
        if matches!(mode, QUERY_WAIT | QUERY_BY_REGION_WAIT)
            && !WARNED.swap(true, Ordering::Relaxed)
        {
            log::warn!(
                "tessera: conditional rendering is not implemented by the backends: \
                 rendering between glBeginConditionalRender and glEndConditionalRender is \
                 unconditional"
            );
        }
        self.local.conditional_render = Some((e, mode));
    }

    /// `glEndConditionalRender`: `INVALID_OPERATION` when none is active.
    pub fn end_conditional_render(&mut self) {
        if self.local.conditional_render.take().is_none() {
            self.error(INVALID_OPERATION);
        }
    }
}
