//! Queries and fences (`QueryPipe`).
//!
//! GLES counts fewer things than GL: `SAMPLES_PASSED` becomes `ANY_SAMPLES_PASSED` (results
//! 0 or 1, reported once), time queries need `EXT_disjoint_timer_query`, and a kind the
//! driver cannot count at all reads 0 (reported once). Results are only asked for when a
//! `QueryResult` record wants them, so waiting on the GPU happens only there and in
//! `WaitFence`.
//!
//! A `TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query active across captured draws is split
//! around each of them: the backend counts every captured draw with a query of its own
//! (`xfb.rs`: GLES has no `glDrawTransformFeedback`), and GLES has one query of a target
//! active at a time. So the program's query ends before the draw and a fresh native query
//! takes over after it; its result is the sum of its parts, the draw's query among them
//! (shared with the capture, deleted when neither needs it).

use std::sync::Arc;

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{QueryPipe, R};
use tessera_wire::format::QueryKind;
use tessera_wire::handle::{FenceHandle, QueryHandle};

use crate::conv;
use crate::device::{GlesPipe, Missing};

/// Where a query is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueryPhase {
    Fresh,
    Active,
    Ended,
}

/// A query object.
pub(crate) struct Query {
    pub name: glow::Query,
    pub kind: QueryKind,
    /// Native target (`None`: the driver cannot count this kind; results are 0).
    pub target: Option<u32>,
    pub phase: QueryPhase,
    /// Earlier native queries whose results add to `name`'s (see the module's essay).
    pub parts: Vec<Arc<glow::Query>>,
    /// The vertex stream it counts, when active or ended (`streams.rs`: above 0, `name` is
    /// never begun and the parts are the count).
    pub stream: u8,
}

impl GlesPipe {
    /// Forgets `handle` as an active query the draws split or count into.
    fn forget_active(&mut self, handle: QueryHandle) {
        for slot in [&mut self.xfb_written_query, &mut self.generated_query]
            .into_iter()
            .chain(self.stream_queries.iter_mut().flatten())
        {
            if *slot == Some(handle) {
                *slot = None;
            }
        }
    }
}

/// Deletes the native queries of `parts` that nothing else shares.
pub(crate) fn release_parts(gl: &glow::Context, parts: Vec<Arc<glow::Query>>) {
    for p in parts {
        if let Ok(q) = Arc::try_unwrap(p) {
            // SAFETY: context current; an ended query that no one else names any more.
            unsafe { gl.delete_query(q) };
        }
    }
}

/// A fence.
pub(crate) struct Fence {
    pub sync: glow::Fence,
}

impl QueryPipe for GlesPipe {
    /// `CreateQuery`.
    fn create_query(&mut self, handle: QueryHandle, kind: QueryKind) -> R {
        const N: &str = "CreateQuery";
        // SAFETY: context current; glGenQueries has no preconditions.
        let name = unsafe { self.gl.create_query() }.map_err(|e| Self::native_error(N, e))?;
        let target = match conv::map_query_kind(kind, &self.features) {
            Some((target, stand_in)) => {
                if stand_in {
                    self.report(
                        Missing::SamplesPassed,
                        "GLES has no SAMPLES_PASSED: ANY_SAMPLES_PASSED (0 or 1) instead",
                    );
                }
                Some(target)
            }
            None => {
                self.report(
                    Missing::Query,
                    &format!("the driver cannot count {kind:?} queries: they read 0"),
                );
                None
            }
        };
        self.queries.insert(
            N,
            handle,
            Query {
                name,
                kind,
                target,
                phase: QueryPhase::Fresh,
                parts: Vec::new(),
                stream: 0,
            },
        )
    }

    /// `BeginQuery`.
    fn begin_query(&mut self, handle: QueryHandle) -> R {
        let q = self.queries.get_mut("BeginQuery", handle)?;
        release_parts(&self.gl, std::mem::take(&mut q.parts));
        if let Some(target) = q.target
            && q.kind != QueryKind::Timestamp
        {
            // SAFETY: context current; a live query of this target (the engine allows one
            // active query per target, as GL does).
            unsafe { self.gl.begin_query(target, q.name) };
        }
        q.phase = QueryPhase::Active;
        q.stream = 0;
        match q.kind {
            QueryKind::TransformFeedbackPrimitivesWritten => self.xfb_written_query = Some(handle),
            QueryKind::PrimitivesGenerated => self.generated_query = Some(handle),
            _ => {}
        }
        Ok(())
    }

    /// `BeginQueryIndexed` of vertex streams 1 to 3: no native query is begun; the
    /// stream's passes count into it (`streams.rs`).
    fn begin_query_indexed(&mut self, handle: QueryHandle, index: u32) -> R {
        const N: &str = "BeginQueryIndexed";
        let kind = match self.queries.get(N, handle)?.kind {
            QueryKind::PrimitivesGenerated => crate::streams::GENERATED,
            QueryKind::TransformFeedbackPrimitivesWritten => crate::streams::WRITTEN,
            k => {
                return Err(SessionError::BadValue {
                    record: N,
                    what: format!("a {k:?} query has no vertex streams"),
                });
            }
        };
        let s = index as usize;
        if s == 0 || s >= crate::streams::STREAMS {
            return Err(SessionError::BadValue {
                record: N,
                what: format!("vertex stream {index} is not one of streams 1 to 3"),
            });
        }
        let q = self.queries.get_mut(N, handle)?;
        release_parts(&self.gl, std::mem::take(&mut q.parts));
        q.phase = QueryPhase::Active;
        q.stream = index as u8;
        self.stream_queries[s - 1][kind] = Some(handle);
        Ok(())
    }

    /// `EndQuery`.
    fn end_query(&mut self, handle: QueryHandle) -> R {
        let q = self.queries.get_mut("EndQuery", handle)?;
        if let (Some(target), QueryPhase::Active) = (q.target, q.phase)
            && q.kind != QueryKind::Timestamp
            && q.stream == 0
        {
            // SAFETY: context current; the query of this target is active.
            unsafe { self.gl.end_query(target) };
        }
        q.phase = QueryPhase::Ended;
        self.forget_active(handle);
        Ok(())
    }

    /// `QueryTimestamp`.
    fn query_timestamp(&mut self, handle: QueryHandle) -> R {
        let q = self.queries.get_mut("QueryTimestamp", handle)?;
        if q.target.is_some() {
            // SAFETY: context current; glQueryCounterEXT exists (timer_query checked when the
            // target was chosen) and takes a live query and TIMESTAMP.
            unsafe { self.gl.query_counter(q.name, glow::TIMESTAMP) };
        }
        q.phase = QueryPhase::Ended;
        Ok(())
    }

    /// `QueryResult`: waits for the result.
    fn query_result(&mut self, handle: QueryHandle) -> Result<u64, SessionError> {
        let q = self.queries.get("QueryResult", handle)?;
        if q.phase != QueryPhase::Ended || q.target.is_none() {
            return Ok(0);
        }
        // SAFETY: context current; the query has ended, so its result exists; the 64-bit
        // getter exists when the timer extension does (the only 64-bit kinds).
        let v = unsafe {
            if matches!(q.kind, QueryKind::TimeElapsed | QueryKind::Timestamp) {
                self.gl.get_query_parameter_u64(q.name, glow::QUERY_RESULT)
            } else {
                let part =
                    |name| u64::from(self.gl.get_query_parameter_u32(name, glow::QUERY_RESULT));
                // A stream above 0's query has only its passes' parts (`streams.rs`).
                let own = if q.stream == 0 { part(q.name) } else { 0 };
                own + q.parts.iter().map(|p| part(**p)).sum::<u64>()
            }
        };
        Ok(v)
    }

    /// `DestroyQuery`.
    fn destroy_query(&mut self, handle: QueryHandle) -> R {
        let q = self.queries.remove("DestroyQuery", handle)?;
        if let (Some(target), QueryPhase::Active) = (q.target, q.phase)
            && q.kind != QueryKind::Timestamp
            && q.stream == 0
        {
            // SAFETY: context current; ending the active query before deleting it.
            unsafe { self.gl.end_query(target) };
        }
        self.forget_active(handle);
        release_parts(&self.gl, q.parts);
        // SAFETY: context current; a live query, deleted once.
        unsafe { self.gl.delete_query(q.name) };
        Ok(())
    }

    /// `InsertFence`.
    fn insert_fence(&mut self, handle: FenceHandle) -> R {
        const N: &str = "InsertFence";
        // SAFETY: context current; SYNC_GPU_COMMANDS_COMPLETE with flags 0 is the only valid
        // combination, and it is this one.
        let sync = unsafe { self.gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) }
            .map_err(|e| Self::native_error(N, e))?;
        self.fences.insert(N, handle, Fence { sync })
    }

    /// `WaitFence`: whether the fence signalled within `timeout_ns`.
    fn wait_fence(&mut self, handle: FenceHandle, timeout_ns: u64) -> Result<bool, SessionError> {
        let sync = self.fences.get("WaitFence", handle)?.sync;
        // glClientWaitSync's timeout is 64-bit in GL but glow passes 31 bits: wait in steps.
        let mut left = timeout_ns;
        loop {
            let step = left.min(i32::MAX as u64);
            // SAFETY: context current; a live sync; FLUSH_COMMANDS so that the fence is
            // submitted before waiting on it.
            let r = unsafe {
                self.gl
                    .client_wait_sync(sync, glow::SYNC_FLUSH_COMMANDS_BIT, step as i32)
            };
            match r {
                glow::ALREADY_SIGNALED | glow::CONDITION_SATISFIED => return Ok(true),
                glow::TIMEOUT_EXPIRED if left > step => left -= step,
                glow::TIMEOUT_EXPIRED => return Ok(false),
                _ => {
                    return Err(SessionError::Backend(format!(
                        "glClientWaitSync failed ({r:#x})"
                    )));
                }
            }
        }
    }

    /// `DestroyFence`.
    fn destroy_fence(&mut self, handle: FenceHandle) -> R {
        let f = self.fences.remove("DestroyFence", handle)?;
        // SAFETY: context current; a live sync, deleted once.
        unsafe { self.gl.delete_sync(f.sync) };
        Ok(())
    }
}
