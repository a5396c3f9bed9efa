//! Conditional rendering (`glBeginConditionalRender` / `glEndConditionalRender`, GL 3.3
//! §2.16, GL 4.5 §10.10) and GL 4.5's inverted modes (`ARB_conditional_render_inverted`).
//!
//! The engine keeps the state and decides every error; the effect belongs to the backend,
//! which alone knows the query's result. `glBeginConditionalRender` emits one
//! `BeginConditionalRender` record naming the query and whether the mode is inverted, in
//! order with the draws around it, and `glEndConditionalRender` an `EndConditionalRender`.
//! The records in between that the condition governs are the ones Mesa's llvmpipe skips:
//! draws of every kind, `glClear`, `glClearBuffer*`, `glBlitFramebuffer` and compute
//! dispatches (llvmpipe's `launch_grid` checks the render condition too).
//!
//! Every mode waits for the result: the `*_NO_WAIT` modes allow the GL to render
//! unconditionally while the result is pending, never to discard, so waiting gives the
//! answer a program would get from a GPU that already had the result. The `BY_REGION`
//! modes are their whole-framebuffer forms (GL allows it). How each backend carries it out
//! (a predicate on Vulkan, a read of the result on GLES) is in `wire::record`'s
//! `BeginConditionalRender` and the backends' `condition.rs`.

use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::Query;
use tessera_wire::record::Record;

use crate::context::Context;

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
        let inverted = match mode {
            QUERY_WAIT | QUERY_NO_WAIT | QUERY_BY_REGION_WAIT | QUERY_BY_REGION_NO_WAIT => false,
            QUERY_WAIT_INVERTED
            | QUERY_NO_WAIT_INVERTED
            | QUERY_BY_REGION_WAIT_INVERTED
            | QUERY_BY_REGION_NO_WAIT_INVERTED => true,
            _ => return self.error(INVALID_ENUM),
        };
        let NameEntry::Object(e) = entry else {
            // Generated but never begun: it has no target yet.
            return self.error(INVALID_OPERATION);
        };
        let mut sh = self.group.lock_for(self.local.id);
        let query = sh.world.get::<Query>(e).and_then(|q| {
            let occlusion = matches!(
                q.target,
                SAMPLES_PASSED | ANY_SAMPLES_PASSED | ANY_SAMPLES_PASSED_CONSERVATIVE
            );
            (occlusion && !q.active).then_some(q.handle)
        });
        let Some(query) = query else {
            drop(sh);
            return self.error(INVALID_OPERATION);
        };
        sh.dev
            .push(Record::BeginConditionalRender { query, inverted });
        drop(sh);
        self.local.conditional_render = Some((e, mode));
    }

    /// `glEndConditionalRender`: `INVALID_OPERATION` when none is active.
    pub fn end_conditional_render(&mut self) {
        if self.local.conditional_render.take().is_none() {
            return self.error(INVALID_OPERATION);
        }
        self.group
            .lock_for(self.local.id)
            .dev
            .push(Record::EndConditionalRender);
    }
}
