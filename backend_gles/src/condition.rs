//! Conditional rendering (`BeginConditionalRender`, `EndConditionalRender`).
//!
//! ES has no conditional rendering, so the backend decides it: the begin record reads the
//! query's result (`GL_QUERY_RESULT`, which waits for the driver as GL's `*_WAIT` modes do
//! and its `*_NO_WAIT` modes allow), and until the end record every verb the condition
//! governs — draws of every kind, clears, blits and dispatches — returns at once when the
//! condition failed ([`GlesContext::discarding`]). A condition that passed costs nothing
//! after the wait. A query never ended (made by `glCreateQueries` and never begun) leaves
//! rendering unconditional, as on Mesa, which has no result to decide by then.

use tessera_wire::dispatch::{QueryPipe, R};
use tessera_wire::handle::QueryHandle;

use crate::command::GlesContext;
use crate::device::GlesPipe;
use crate::query::QueryPhase;

impl GlesPipe {
    /// `BeginConditionalRender`.
    pub(crate) fn begin_condition(
        &mut self,
        ctx: &mut GlesContext,
        query: QueryHandle,
        inverted: bool,
    ) -> R {
        // A query never ended has no result to decide by: rendering stays unconditional,
        // as on Mesa (whose condition is then no query at all).
        if self.queries.get("BeginConditionalRender", query)?.phase != QueryPhase::Ended {
            ctx.discarding = false;
            return Ok(());
        }
        let passed = self.query_result(query)? != 0;
        ctx.discarding = passed == inverted;
        Ok(())
    }
}
