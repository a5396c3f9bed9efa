//! Queries and fences.
//!
//! A query object owns a small query pool: one occlusion query, one transform feedback
//! stream query (`TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN`, with `VK_EXT_transform_feedback`),
//! one primitives-generated query (with `VK_EXT_primitives_generated_query`), or two
//! timestamps for elapsed time. The two primitive kinds count the vertex stream they were
//! begun for (`BeginQueryIndexed`: `vkCmdBeginQueryIndexedEXT`, and the matching end). GL
//! queries may span anything; a Vulkan query begun outside a render pass
//! may span several, so beginning and ending end the open pass first (it reopens with `LOAD`
//! at the next draw). Kinds the device cannot count answer 0 and are reported once.
//!
//! A pipeline statistic (GL 4.6's `ARB_pipeline_statistics_query`) is a
//! `PIPELINE_STATISTICS` pool of one query counting the one Vulkan statistic of the same
//! meaning ([`pipeline_statistic`]), with `pipelineStatisticsQuery`.
//!
//! An overflow query (GL 4.6's `ARB_transform_feedback_overflow_query`) is made of
//! transform feedback stream queries, which count the primitives a stream wrote and those
//! it needed: one of the stream it was begun for (`TRANSFORM_FEEDBACK_STREAM_OVERFLOW`), or
//! one per vertex stream, query `s` counting stream `s` (`TRANSFORM_FEEDBACK_OVERFLOW`); it
//! answers 1 when a stream needed more than it wrote.
//!
//! A fence is the serial of the submission it follows: `InsertFence` submits, `WaitFence`
//! waits for that submission's `VkFence` with the record's timeout.

use ash::vk;
use tessera_wire::SessionError;
use tessera_wire::dispatch::{QueryPipe, R};
use tessera_wire::format::QueryKind;
use tessera_wire::handle::{FenceHandle, QueryHandle};

use crate::device::{Missing, VkPipe, vk_error};
use crate::frame::Garbage;

/// A query object.
pub(crate) struct Query {
    pub kind: QueryKind,
    /// `None`: the device cannot count this kind.
    pub pool: Option<vk::QueryPool>,
    active: bool,
    /// The vertex stream it counts while active.
    index: u32,
    /// Submission that ended it (0: never ended).
    pub ended: u64,
}

impl Query {
    pub fn destroy(self, raw: &ash::Device) {
        if let Some(p) = self.pool {
            // SAFETY: teardown after the device went idle.
            unsafe { raw.destroy_query_pool(p, None) };
        }
    }
}

/// The Vulkan statistic a pipeline statistics query counts (`None` for the other kinds).
/// GL's names and Vulkan's differ only for clipping (`CLIPPING_INPUT_PRIMITIVES` is the
/// clipper's invocations, `CLIPPING_OUTPUT_PRIMITIVES` the primitives it outputs) and for
/// the geometry stage's `GEOMETRY_SHADER_PRIMITIVES_EMITTED`.
pub(crate) fn pipeline_statistic(kind: QueryKind) -> Option<vk::QueryPipelineStatisticFlags> {
    use vk::QueryPipelineStatisticFlags as S;
    Some(match kind {
        QueryKind::VerticesSubmitted => S::INPUT_ASSEMBLY_VERTICES,
        QueryKind::PrimitivesSubmitted => S::INPUT_ASSEMBLY_PRIMITIVES,
        QueryKind::VertexShaderInvocations => S::VERTEX_SHADER_INVOCATIONS,
        QueryKind::TessControlShaderPatches => S::TESSELLATION_CONTROL_SHADER_PATCHES,
        QueryKind::TessEvaluationShaderInvocations => S::TESSELLATION_EVALUATION_SHADER_INVOCATIONS,
        QueryKind::GeometryShaderInvocations => S::GEOMETRY_SHADER_INVOCATIONS,
        QueryKind::GeometryShaderPrimitivesEmitted => S::GEOMETRY_SHADER_PRIMITIVES,
        QueryKind::FragmentShaderInvocations => S::FRAGMENT_SHADER_INVOCATIONS,
        QueryKind::ComputeShaderInvocations => S::COMPUTE_SHADER_INVOCATIONS,
        QueryKind::ClippingInputPrimitives => S::CLIPPING_INVOCATIONS,
        QueryKind::ClippingOutputPrimitives => S::CLIPPING_PRIMITIVES,
        _ => return None,
    })
}

/// A fence: the submission it waits for.
pub(crate) struct Fence {
    serial: u64,
}

impl VkPipe {
    /// Records the end of an active query of `kind` in `pool`, of vertex stream `index`
    /// (elapsed time: its second timestamp).
    fn end_query_command(
        &self,
        cmd: vk::CommandBuffer,
        kind: QueryKind,
        pool: vk::QueryPool,
        index: u32,
    ) {
        // SAFETY: recording outside a render pass; the query was begun outside one in this
        // session (BeginQuery or BeginQueryIndexed, with this index) and not yet ended.
        unsafe {
            match (kind, self.gpu.xfb.as_ref()) {
                (QueryKind::TimeElapsed, _) => self.raw.cmd_write_timestamp(
                    cmd,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    pool,
                    1,
                ),
                (QueryKind::TransformFeedbackOverflow, Some(fns)) => {
                    for s in 0..self.queries_of(kind) {
                        (fns.fp().cmd_end_query_indexed_ext)(cmd, pool, s, s);
                    }
                }
                (_, Some(fns)) if index > 0 => {
                    (fns.fp().cmd_end_query_indexed_ext)(cmd, pool, 0, index)
                }
                _ => self.raw.cmd_end_query(cmd, pool, 0),
            }
        }
    }
}

impl VkPipe {
    /// The queries a pool of `kind` holds: elapsed time's two timestamps, one stream query
    /// per vertex stream for any stream's overflow, else one.
    fn queries_of(&self, kind: QueryKind) -> u32 {
        match kind {
            QueryKind::TimeElapsed => 2,
            QueryKind::TransformFeedbackOverflow => self.tiers.vertex_streams,
            _ => 1,
        }
    }
}

impl QueryPipe for VkPipe {
    /// `CreateQuery`.
    fn create_query(&mut self, handle: QueryHandle, kind: QueryKind) -> R {
        const N: &str = "CreateQuery";
        self.queries.check_create(N, handle)?;
        let statistic = pipeline_statistic(kind).filter(|_| self.core.pipeline_statistics_query);
        let (ty, n) = match kind {
            _ if statistic.is_some() => (Some(vk::QueryType::PIPELINE_STATISTICS), 1),
            QueryKind::SamplesPassed | QueryKind::AnySamplesPassed => {
                (Some(vk::QueryType::OCCLUSION), 1)
            }
            QueryKind::TimeElapsed if self.limits.timestamps => (Some(vk::QueryType::TIMESTAMP), 2),
            QueryKind::Timestamp if self.limits.timestamps => (Some(vk::QueryType::TIMESTAMP), 1),
            QueryKind::TransformFeedbackPrimitivesWritten if self.tiers.transform_feedback => {
                (Some(vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT), 1)
            }
            QueryKind::PrimitivesGenerated if self.tiers.primitives_generated => {
                (Some(vk::QueryType::PRIMITIVES_GENERATED_EXT), 1)
            }
            QueryKind::TransformFeedbackStreamOverflow | QueryKind::TransformFeedbackOverflow
                if self.tiers.transform_feedback =>
            {
                (
                    Some(vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT),
                    self.queries_of(kind),
                )
            }
            _ => (None, 0),
        };
        let pool = match ty {
            Some(ty) => {
                let info = vk::QueryPoolCreateInfo::default()
                    .query_type(ty)
                    .query_count(n)
                    .pipeline_statistics(statistic.unwrap_or_default());
                // SAFETY: a valid create info (1-2 queries of a type the device has; a
                // pipeline statistics pool with one statistic, pipelineStatisticsQuery
                // enabled).
                Some(
                    unsafe { self.raw.create_query_pool(&info, None) }
                        .map_err(|e| vk_error("vkCreateQueryPool", e))?,
                )
            }
            None => {
                self.report(
                    Missing::Query,
                    "primitive and transform-feedback counts without their extensions (timers without timestamps, pipeline statistics without pipelineStatisticsQuery) are not counted: they read 0",
                );
                None
            }
        };
        self.queries.insert(
            N,
            handle,
            Query {
                kind,
                pool,
                active: false,
                index: 0,
                ended: 0,
            },
        )
    }

    /// `BeginQuery`.
    fn begin_query(&mut self, handle: QueryHandle) -> R {
        self.begin_query_indexed(handle, 0)
    }

    /// `BeginQueryIndexed`.
    fn begin_query_indexed(&mut self, handle: QueryHandle, index: u32) -> R {
        const N: &str = "BeginQuery";
        let q = self.queries.get(N, handle)?;
        let (kind, pool) = (q.kind, q.pool);
        let streamed = matches!(
            kind,
            QueryKind::TransformFeedbackPrimitivesWritten
                | QueryKind::PrimitivesGenerated
                | QueryKind::TransformFeedbackStreamOverflow
        );
        if index >= self.tiers.vertex_streams || (index > 0 && !streamed) {
            return Err(SessionError::BadValue {
                record: "BeginQueryIndexed",
                what: format!("vertex stream {index} of a {kind:?} query"),
            });
        }
        if let Some(pool) = pool {
            self.transfer_begin();
            let cmd = self.rec.cmd;
            let precise = kind == QueryKind::SamplesPassed && self.core.occlusion_query_precise;
            let flags = if precise {
                vk::QueryControlFlags::PRECISE
            } else {
                vk::QueryControlFlags::empty()
            };
            // SAFETY: recording outside a render pass; a live pool of 1 or 2 queries, reset
            // before use as Vulkan requires; flags only with the enabled feature; a stream
            // past 0 only for the stream and primitives-generated kinds, below
            // maxTransformFeedbackStreams, with geometryStreams (and
            // primitivesGeneratedQueryWithNonZeroStreams) enabled (tiers.vertex_streams).
            unsafe {
                self.raw
                    .cmd_reset_query_pool(cmd, pool, 0, self.queries_of(kind));
                match (kind, self.gpu.xfb.as_ref()) {
                    // Query `s` counts stream `s`.
                    (QueryKind::TransformFeedbackOverflow, Some(fns)) => {
                        for s in 0..self.queries_of(kind) {
                            (fns.fp().cmd_begin_query_indexed_ext)(cmd, pool, s, flags, s);
                        }
                    }
                    (QueryKind::TimeElapsed, _) => self.raw.cmd_write_timestamp(
                        cmd,
                        vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                        pool,
                        0,
                    ),
                    (_, Some(fns)) if index > 0 => {
                        (fns.fp().cmd_begin_query_indexed_ext)(cmd, pool, 0, flags, index)
                    }
                    _ => self.raw.cmd_begin_query(cmd, pool, 0, flags),
                }
            }
        }
        let q = self.queries.get_mut(N, handle)?;
        if !q.active && q.pool.is_some() {
            self.rec.active_queries += 1;
        }
        q.active = true;
        q.index = index;
        q.ended = 0;
        Ok(())
    }

    /// `EndQuery`.
    fn end_query(&mut self, handle: QueryHandle) -> R {
        const N: &str = "EndQuery";
        let q = self.queries.get(N, handle)?;
        let (kind, pool, active, index) = (q.kind, q.pool, q.active, q.index);
        if let (Some(pool), true) = (pool, active) {
            self.transfer_begin();
            let cmd = self.rec.cmd;
            self.end_query_command(cmd, kind, pool, index);
        }
        let serial = self.serial();
        if active && pool.is_some() {
            self.rec.active_queries = self.rec.active_queries.saturating_sub(1);
        }
        let q = self.queries.get_mut(N, handle)?;
        q.active = false;
        q.ended = serial;
        Ok(())
    }

    /// `QueryTimestamp`.
    fn query_timestamp(&mut self, handle: QueryHandle) -> R {
        const N: &str = "QueryTimestamp";
        let pool = self.queries.get(N, handle)?.pool;
        if let Some(pool) = pool {
            self.transfer_begin();
            let cmd = self.rec.cmd;
            // SAFETY: recording outside a render pass; a live timestamp pool, reset first.
            unsafe {
                self.raw.cmd_reset_query_pool(cmd, pool, 0, 1);
                self.raw
                    .cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
            }
        }
        let serial = self.serial();
        self.queries.get_mut(N, handle)?.ended = serial;
        Ok(())
    }

    /// `QueryResult`: waits for the query's submission, then reads it.
    fn query_result(&mut self, handle: QueryHandle) -> Result<u64, SessionError> {
        const N: &str = "QueryResult";
        let q = self.queries.get(N, handle)?;
        let (kind, pool, ended) = (q.kind, q.pool, q.ended);
        let Some(pool) = pool else {
            return Ok(0);
        };
        if ended == 0 {
            return Ok(0);
        }
        self.wait_serial(ended)?;
        let mut data = [0u64; 2];
        // A transform feedback stream query answers two values (primitives written, then
        // those that would have been); elapsed time is two queries of one value.
        let streams = matches!(
            kind,
            QueryKind::TransformFeedbackPrimitivesWritten
                | QueryKind::TransformFeedbackStreamOverflow
                | QueryKind::TransformFeedbackOverflow
        );
        let mut pairs = [[0u64; 2]; 4];
        let result = if streams {
            let n = self.queries_of(kind) as usize;
            debug_assert!(n <= pairs.len());
            // SAFETY: a live pool of `n` stream queries, ended in a submission that
            // retired; one element of two 64-bit values each.
            let r = unsafe {
                self.raw.get_query_pool_results(
                    pool,
                    0,
                    &mut pairs[..n],
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            };
            data = pairs[0];
            r
        } else {
            let n = if kind == QueryKind::TimeElapsed { 2 } else { 1 };
            // SAFETY: a live pool whose `n` queries were ended (or written) in a submission
            // that retired; one 64-bit value each.
            unsafe {
                self.raw.get_query_pool_results(
                    pool,
                    0,
                    &mut data[..n],
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
        };
        result.map_err(|e| vk_error("vkGetQueryPoolResults", e))?;
        let period = f64::from(self.limits.timestamp_period);
        Ok(match kind {
            QueryKind::AnySamplesPassed => u64::from(data[0] > 0),
            QueryKind::SamplesPassed => data[0],
            QueryKind::TimeElapsed => (data[1].saturating_sub(data[0]) as f64 * period) as u64,
            QueryKind::Timestamp => (data[0] as f64 * period) as u64,
            // Some stream needed more primitives than it wrote.
            QueryKind::TransformFeedbackStreamOverflow | QueryKind::TransformFeedbackOverflow => {
                u64::from(pairs.iter().any(|[written, needed]| needed > written))
            }
            _ => data[0],
        })
    }

    /// `DestroyQuery`.
    fn destroy_query(&mut self, handle: QueryHandle) -> R {
        let q = self.queries.remove("DestroyQuery", handle)?;
        if q.active
            && let Some(pool) = q.pool
            && q.kind != QueryKind::TimeElapsed
        {
            // A query destroyed while active ends here (GL ends it implicitly).
            self.transfer_begin();
            self.end_query_command(self.rec.cmd, q.kind, pool, q.index);
        }
        if q.active && q.pool.is_some() {
            self.rec.active_queries = self.rec.active_queries.saturating_sub(1);
        }
        if let Some(p) = q.pool {
            self.defer(Garbage::QueryPool(p));
        }
        Ok(())
    }

    /// `InsertFence`: the work so far is submitted; the fence is that submission.
    fn insert_fence(&mut self, handle: FenceHandle) -> R {
        const N: &str = "InsertFence";
        self.fences.check_create(N, handle)?;
        let serial = self.submit()?;
        self.fences.insert(N, handle, Fence { serial })
    }

    /// `WaitFence`.
    fn wait_fence(&mut self, handle: FenceHandle, timeout_ns: u64) -> Result<bool, SessionError> {
        let serial = self.fences.get("WaitFence", handle)?.serial;
        self.serial_done(serial, timeout_ns)
    }

    /// `DestroyFence`.
    fn destroy_fence(&mut self, handle: FenceHandle) -> R {
        self.fences.remove("DestroyFence", handle)?;
        Ok(())
    }
}
