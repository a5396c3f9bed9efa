//! Query objects: occlusion, primitive, transform feedback and timer queries.
//!
//! Query names are per context (`Local::queries`); a generated name becomes an object — an
//! entity with [`Life`] and [`Query`], a wire [`QueryHandle`] and one `CreateQuery` record —
//! at its first `begin_query` or `query_counter`, which also fixes its target for good. The
//! active query of each target (and each vertex stream of the primitive queries) lives in
//! `GlState::active_queries`, indexed by [`query_slot_at`].
//!
//! `BeginQuery`, `EndQuery` and `QueryTimestamp` are recorded at the call, in order with the
//! draws they bracket. Results live on the backend: the first read of a result (or of its
//! availability) asks for it with a `QueryResult` record and waits for the reply — the one
//! round trip a query costs — and the result is kept on the object until the query is
//! begun again. The wire has no non-blocking poll, so `QUERY_RESULT_AVAILABLE` of a pending
//! query waits for the result too and then reports `TRUE`; GL allows this, since a result
//! becomes available in finite time and the answer is never wrong.
//!
//! With a buffer bound to `QUERY_BUFFER` (GL 4.4), `glGetQueryObject*` takes its pointer
//! as an offset into that buffer and reads nothing back: a `QueryResultToBuffer` record
//! has the backend write the result (or its availability) there, in order with the records
//! around it, so a draw or copy recorded later sees it without the client waiting. The
//! client copy of those bytes becomes stale.
//!
//! `glGetInteger64v(TIMESTAMP)` uses a short-lived query object of its own (create, record a
//! timestamp, read it, destroy), so it needs no record kind of its own.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::names::NameEntry;
use tessera_components::object::{Buffer, Life, Query};
use tessera_components::state::{BufferTarget, QUERY_TARGETS};
use tessera_systems::conv::map_query_target;
use tessera_systems::lifecycle;
use tessera_wire::Reply;
use tessera_wire::format::QueryKind;
use tessera_wire::handle::QueryHandle;
use tessera_wire::record::{QueryWrite, Record};

use crate::context::{Context, GlResult};
use crate::get::Value;
use crate::share::Shared;

/// The `active_queries` slot of a `begin_query` target's query of vertex stream `index`
/// (checked against `MAX_VERTEX_STREAMS` by the caller; only the primitive queries and
/// `TRANSFORM_FEEDBACK_STREAM_OVERFLOW` have streams past 0), `None` for anything else (including `TIMESTAMP`, which has no active
/// query).
pub(crate) fn query_slot_at(target: GLenum, index: GLuint) -> Option<usize> {
    let slot = match (target, index) {
        (SAMPLES_PASSED, 0) => 0,
        (ANY_SAMPLES_PASSED, 0) => 1,
        (PRIMITIVES_GENERATED, 0) => 2,
        (TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 0) => 3,
        (TIME_ELAPSED, 0) => 4,
        (ANY_SAMPLES_PASSED_CONSERVATIVE, 0) => 5,
        (PRIMITIVES_GENERATED, 1..=3) => 5 + index as usize,
        (TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1..=3) => 8 + index as usize,
        (GEOMETRY_SHADER_INVOCATIONS, 0) => 22,
        (TRANSFORM_FEEDBACK_OVERFLOW, 0) => 23,
        (TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0..=3) => 24 + index as usize,
        (VERTICES_SUBMITTED..=CLIPPING_OUTPUT_PRIMITIVES, 0) => {
            12 + (target - VERTICES_SUBMITTED) as usize
        }
        _ => return None,
    };
    debug_assert!(slot < QUERY_TARGETS);
    Some(slot)
}

/// Whether `target` is one of `GL_ARB_pipeline_statistics_query`'s eleven (GL 4.6): ten
/// enums from `VERTICES_SUBMITTED` to `CLIPPING_OUTPUT_PRIMITIVES`, and
/// `GEOMETRY_SHADER_INVOCATIONS`, GL 4.0's program parameter.
fn is_pipeline_statistic(target: GLenum) -> bool {
    (VERTICES_SUBMITTED..=CLIPPING_OUTPUT_PRIMITIVES).contains(&target)
        || target == GEOMETRY_SHADER_INVOCATIONS
}

/// The type a `glGetQueryObject*` call writes its value as (`INT`, `UNSIGNED_INT`,
/// `INT64_ARB`, `UNSIGNED_INT64_ARB` in Mesa).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryValueType {
    /// `glGetQueryObjectiv`, `glGetQueryBufferObjectiv`.
    Int,
    /// `glGetQueryObjectuiv`, `glGetQueryBufferObjectuiv`.
    UnsignedInt,
    /// `glGetQueryObjecti64v`, `glGetQueryBufferObjecti64v`.
    Int64,
    /// `glGetQueryObjectui64v`, `glGetQueryBufferObjectui64v`.
    UnsignedInt64,
}

/// `QUERY_COUNTER_BITS` of a target. Results are 64-bit counters on every backend;
/// `ANY_SAMPLES_PASSED` and its conservative form are booleans (1 bit, as Mesa reports).
fn counter_bits(target: GLenum) -> i64 {
    if matches!(
        target,
        ANY_SAMPLES_PASSED
            | ANY_SAMPLES_PASSED_CONSERVATIVE
            | TRANSFORM_FEEDBACK_OVERFLOW
            | TRANSFORM_FEEDBACK_STREAM_OVERFLOW
    ) {
        1
    } else {
        64
    }
}

impl Context {
    /// Whether the context takes `target`: the pipeline statistics and the overflow
    /// queries only where the backend counts them (`GL_ARB_pipeline_statistics_query`,
    /// `GL_ARB_transform_feedback_overflow_query` advertised); Mesa raises `INVALID_ENUM`
    /// for them elsewhere, as for any unknown target.
    fn query_target_enabled(&self, target: GLenum) -> bool {
        match target {
            TRANSFORM_FEEDBACK_OVERFLOW | TRANSFORM_FEEDBACK_STREAM_OVERFLOW => {
                self.local.limits.transform_feedback_overflow
            }
            _ => !is_pipeline_statistic(target) || self.local.limits.pipeline_statistics,
        }
    }

    /// `glGenQueries`.
    pub fn gen_queries(&mut self, n: GLsizei, ids: &mut [GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        if self.local.queries.generate(&mut ids[..n as usize]).is_err() {
            self.error(OUT_OF_MEMORY);
        }
    }

    /// Generates one query name.
    pub fn gen_query(&mut self) -> GLuint {
        let mut name = [0];
        self.gen_queries(1, &mut name);
        name[0]
    }

    /// `glIsQuery`: true once the name was begun (or given a timestamp) at least once.
    pub fn is_query(&mut self, id: GLuint) -> GLboolean {
        self.local.queries.get(id).is_some() as GLboolean
    }

    /// `glDeleteQueries`: an active query is ended first.
    pub fn delete_queries(&mut self, n: GLsizei, ids: &[GLuint]) {
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let mut sh = self.group.lock_for(self.local.id);
        for &id in &ids[..n as usize] {
            let Some(e) = self.local.queries.free(id) else {
                continue;
            };
            if let Some(slot) = self
                .local
                .st
                .active_queries
                .iter()
                .position(|a| *a == Some(e))
            {
                self.local.st.active_queries[slot] = None;
                if let Some(mut q) = sh.world.get_mut::<Query>(e) {
                    q.active = false;
                    let query = q.handle;
                    sh.dev.push(Record::EndQuery { query });
                }
            }
            let Shared { world, dev, .. } = &mut *sh;
            lifecycle::unname(world, dev, e);
        }
    }

    /// The query object of `id` for `target` (`kind` on the wire), created on first use.
    /// `INVALID_OPERATION` for 0, a name never generated, a query of another target or an
    /// active query.
    fn query_object(
        &mut self,
        sh: &mut Shared,
        id: GLuint,
        target: GLenum,
        kind: QueryKind,
    ) -> GlResult<(Entity, QueryHandle)> {
        match self.local.queries.entry(id) {
            NameEntry::Free => Err(INVALID_OPERATION),
            NameEntry::Object(e) => {
                let q = sh.world.get::<Query>(e).ok_or(INVALID_OPERATION)?;
                if q.target != target || q.active {
                    return Err(INVALID_OPERATION);
                }
                Ok((e, q.handle))
            }
            NameEntry::Reserved => Ok(self.spawn_query(sh, id, target, kind, None)),
        }
    }

    /// Makes reserved name `id` a query object of `target` (`kind` on the wire) with a
    /// `CreateQuery` record; `result` is what it reads before it is first begun.
    fn spawn_query(
        &mut self,
        sh: &mut Shared,
        id: GLuint,
        target: GLenum,
        kind: QueryKind,
        result: Option<u64>,
    ) -> (Entity, QueryHandle) {
        let query = sh.dev.alloc.mint();
        sh.dev.push(Record::CreateQuery { query, kind });
        let e = sh
            .world
            .spawn((
                Life::named(id),
                Query {
                    handle: query,
                    target,
                    active: false,
                    result,
                    pending: false,
                },
            ))
            .id();
        self.local.queries.bind_object(id, e);
        (e, query)
    }

    /// `glCreateQueries` (GL 4.5): names whose objects exist at once, with `target` fixed,
    /// as if begun and ended with nothing counted (their results read 0). The target is
    /// checked before `n`, as Mesa does.
    pub fn create_queries(&mut self, target: GLenum, n: GLsizei, ids: &mut [GLuint]) {
        let Some(kind) = map_query_target(target).filter(|_| self.query_target_enabled(target))
        else {
            return self.error(INVALID_ENUM);
        };
        if n < 0 {
            return self.error(INVALID_VALUE);
        }
        let ids = &mut ids[..n as usize];
        if self.local.queries.generate(ids).is_err() {
            return self.error(OUT_OF_MEMORY);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        for &id in ids.iter() {
            self.spawn_query(&mut sh, id, target, kind, Some(0));
        }
    }

    /// `glBeginQuery`.
    pub fn begin_query(&mut self, target: GLenum, id: GLuint) {
        self.begin_query_at(target, 0, id);
    }

    /// `glBeginQuery` of vertex stream `index` (`glBeginQueryIndexed` checked the index):
    /// a query object may count another stream each time it is begun, as in Mesa.
    pub(crate) fn begin_query_at(&mut self, target: GLenum, index: GLuint, id: GLuint) {
        let (Some(slot), Some(kind), true) = (
            query_slot_at(target, index),
            map_query_target(target),
            self.query_target_enabled(target),
        ) else {
            return self.error(INVALID_ENUM);
        };
        let active = &self.local.st.active_queries;
        // GL 3.3 §2.14: SAMPLES_PASSED and ANY_SAMPLES_PASSED exclude each other, and GL
        // 4.3's ANY_SAMPLES_PASSED_CONSERVATIVE both (Mesa's one occlusion binding).
        let busy = match slot {
            0 | 1 | 5 => active[0].is_some() || active[1].is_some() || active[5].is_some(),
            _ => active[slot].is_some(),
        };
        if id == 0 || busy {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (e, query) = match self.query_object(&mut sh, id, target, kind) {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        if let Some(mut q) = sh.world.get_mut::<Query>(e) {
            q.active = true;
            q.result = None;
            q.pending = false;
        }
        sh.dev.push(if index == 0 {
            Record::BeginQuery { query }
        } else {
            Record::BeginQueryIndexed { query, index }
        });
        self.local.st.active_queries[slot] = Some(e);
    }

    /// `glEndQuery`.
    pub fn end_query(&mut self, target: GLenum) {
        self.end_query_at(target, 0);
    }

    /// `glEndQuery` of vertex stream `index` (`glEndQueryIndexed` checked the index).
    pub(crate) fn end_query_at(&mut self, target: GLenum, index: GLuint) {
        let Some(slot) = query_slot_at(target, index).filter(|_| self.query_target_enabled(target))
        else {
            return self.error(INVALID_ENUM);
        };
        let Some(e) = self.local.st.active_queries[slot].take() else {
            return self.error(INVALID_OPERATION);
        };
        let mut sh = self.group.lock_for(self.local.id);
        if let Some(mut q) = sh.world.get_mut::<Query>(e) {
            q.active = false;
            q.pending = true;
            let query = q.handle;
            sh.dev.push(Record::EndQuery { query });
        }
    }

    /// `glQueryCounter` (`target` must be `TIMESTAMP`).
    ///
    /// A name never generated is `INVALID_OPERATION`, as for `begin_query` (ARB_timer_query;
    /// Mesa creates the object instead).
    pub fn query_counter(&mut self, id: GLuint, target: GLenum) {
        if target != TIMESTAMP {
            return self.error(INVALID_ENUM);
        }
        if id == 0 {
            return self.error(INVALID_OPERATION);
        }
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let (e, query) = match self.query_object(&mut sh, id, TIMESTAMP, QueryKind::Timestamp) {
            Ok(v) => v,
            Err(err) => return self.error(err),
        };
        if let Some(mut q) = sh.world.get_mut::<Query>(e) {
            q.result = None;
            q.pending = true;
        }
        sh.dev.push(Record::QueryTimestamp { query });
    }

    /// `glGetQueryiv` (`CURRENT_QUERY`, `QUERY_COUNTER_BITS`). `TIMESTAMP` has no active
    /// query: its `CURRENT_QUERY` is 0.
    pub fn get_queryiv(&mut self, target: GLenum, pname: GLenum, params: &mut [GLint]) {
        self.get_queryiv_at(target, 0, pname, params);
    }

    /// `glGetQueryiv` of vertex stream `index` (`glGetQueryIndexediv` checked the index).
    pub(crate) fn get_queryiv_at(
        &mut self,
        target: GLenum,
        index: GLuint,
        pname: GLenum,
        params: &mut [GLint],
    ) {
        let slot = query_slot_at(target, index).filter(|_| self.query_target_enabled(target));
        if slot.is_none() && target != TIMESTAMP {
            return self.error(INVALID_ENUM);
        }
        let value = match pname {
            CURRENT_QUERY => {
                let active = slot.and_then(|s| self.local.st.active_queries[s]);
                let sh = self.group.lock();
                crate::get::name_of(&sh, active)
            }
            QUERY_COUNTER_BITS => counter_bits(target),
            _ => return self.error(INVALID_ENUM),
        };
        params[0] = value as GLint;
    }

    /// The value of `pname` of query `id` for `glGetQueryObject*` into client memory
    /// (`QUERY_RESULT`, `QUERY_RESULT_NO_WAIT`, `QUERY_RESULT_AVAILABLE`, `QUERY_TARGET`),
    /// waiting for the backend if the result is not known yet (so `QUERY_RESULT_NO_WAIT`
    /// always finds it available); `None` after raising the error.
    fn query_object_value(&mut self, id: GLuint, pname: GLenum) -> Option<u64> {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let Some((e, q)) = self
            .local
            .queries
            .get(id)
            .and_then(|e| sh.world.get::<Query>(e).map(|q| (e, q.clone())))
            .filter(|(_, q)| !q.active)
        else {
            drop(sh);
            self.error(INVALID_OPERATION);
            return None;
        };
        match pname {
            QUERY_RESULT | QUERY_RESULT_NO_WAIT | QUERY_RESULT_AVAILABLE => {}
            QUERY_TARGET => return Some(u64::from(q.target)),
            _ => {
                drop(sh);
                self.error(INVALID_ENUM);
                return None;
            }
        }
        let result = match q.result {
            Some(r) => r,
            None => {
                let reply = sh.dev.enc.mint_reply();
                sh.dev.push(Record::QueryResult {
                    query: q.handle,
                    reply,
                });
                // A lost session never answers: report 0, as GL does for a lost context.
                let r = match sh.wait(reply) {
                    Some(Reply::Query(r)) => r,
                    _ => 0,
                };
                if let Some(mut q) = sh.world.get_mut::<Query>(e) {
                    q.result = Some(r);
                    q.pending = false;
                }
                r
            }
        };
        Some(if pname == QUERY_RESULT_AVAILABLE {
            1
        } else {
            result
        })
    }

    /// `glGetQueryObjectiv` (results beyond `i32::MAX` clamp, as in Mesa).
    pub fn get_query_objectiv(&mut self, id: GLuint, pname: GLenum, params: &mut [GLint]) {
        if let Some(v) = self.query_object_value(id, pname)
            && let Some(p) = params.first_mut()
        {
            *p = v.min(i32::MAX as u64) as GLint;
        }
    }

    /// `glGetQueryObjectuiv`.
    pub fn get_query_objectuiv(&mut self, id: GLuint, pname: GLenum, params: &mut [GLuint]) {
        if let Some(v) = self.query_object_value(id, pname)
            && let Some(p) = params.first_mut()
        {
            *p = v.min(u64::from(u32::MAX)) as GLuint;
        }
    }

    /// `glGetQueryObjecti64v`.
    pub fn get_query_objecti64v(&mut self, id: GLuint, pname: GLenum, params: &mut [GLint64]) {
        if let Some(v) = self.query_object_value(id, pname)
            && let Some(p) = params.first_mut()
        {
            *p = v.min(i64::MAX as u64) as GLint64;
        }
    }

    /// `glGetQueryObjectui64v`.
    pub fn get_query_objectui64v(&mut self, id: GLuint, pname: GLenum, params: &mut [GLuint64]) {
        if let Some(v) = self.query_object_value(id, pname)
            && let Some(p) = params.first_mut()
        {
            *p = v;
        }
    }

    /// Whether a buffer is bound to `QUERY_BUFFER`: `glGetQueryObject*`'s pointer is then
    /// an offset into it ([`Context::get_query_object_buffer`]).
    pub fn query_buffer_bound(&self) -> bool {
        self.local.st.buffer(BufferTarget::Query).is_some()
    }

    /// `glGetQueryObject*` with a buffer bound to `QUERY_BUFFER` (`buffer` `None`), or
    /// `glGetQueryBufferObject*v` (GL 4.5; `Some(name)`, `INVALID_OPERATION` unless it
    /// names a buffer object, checked first): the value of `pname` as `ty` goes into the
    /// buffer at `offset` (results past the type's range clamp to it, as in Mesa).
    ///
    /// Errors in Mesa's order (`get_query_object`): the query (`INVALID_OPERATION` for a
    /// name that is not a query object, or an active one), then the range (past the end
    /// `INVALID_OPERATION`, then a negative offset `INVALID_VALUE`), then `pname`
    /// (`INVALID_ENUM`). The result and its availability are a `QueryResultToBuffer`
    /// record, the backend's to fill in order with the draws around it; the target is
    /// known here and written as data. Either way the client copy of the range learns it.
    pub fn get_query_object_buffer(
        &mut self,
        id: GLuint,
        buffer: Option<GLuint>,
        pname: GLenum,
        ty: QueryValueType,
        offset: isize,
    ) {
        let group = self.group.clone();
        let mut sh = group.lock_for(self.local.id);
        let b = match buffer {
            None => self.local.st.buffer(BufferTarget::Query),
            Some(name) => sh.names.buffers.get(name),
        };
        let Some(b) = b.filter(|b| sh.world.get::<Buffer>(*b).is_some()) else {
            drop(sh);
            return self.error(INVALID_OPERATION);
        };
        let Some(q) = self
            .local
            .queries
            .get(id)
            .and_then(|e| sh.world.get::<Query>(e).cloned())
            .filter(|q| !q.active)
        else {
            drop(sh);
            return self.error(INVALID_OPERATION);
        };
        let (width, max) = match ty {
            QueryValueType::Int => (4u8, i32::MAX as u64),
            QueryValueType::UnsignedInt => (4, u64::from(u32::MAX)),
            QueryValueType::Int64 => (8, i64::MAX as u64),
            QueryValueType::UnsignedInt64 => (8, u64::MAX),
        };
        let (handle, size) = {
            let buf = sh.world.get::<Buffer>(b).expect("checked above");
            (buf.handle, buf.size)
        };
        if (size as i128) < offset as i128 + i128::from(width) {
            drop(sh);
            return self.error(INVALID_OPERATION);
        }
        if offset < 0 {
            drop(sh);
            return self.error(INVALID_VALUE);
        }
        let at = offset as u64;
        match pname {
            QUERY_RESULT | QUERY_RESULT_NO_WAIT | QUERY_RESULT_AVAILABLE => {
                sh.dev.push(Record::QueryResultToBuffer {
                    query: q.handle,
                    buffer: handle,
                    write: Box::new(QueryWrite {
                        offset: at,
                        available: pname == QUERY_RESULT_AVAILABLE,
                        width,
                        max,
                    }),
                });
                crate::buffer::shadow_stale(&mut sh, b, at, u64::from(width));
            }
            QUERY_TARGET => {
                let bytes = u64::from(q.target).to_le_bytes();
                let data = &bytes[..usize::from(width)];
                let span = sh.dev.enc.stage(data);
                sh.dev.push(Record::WriteBuffer {
                    buffer: handle,
                    offset: at,
                    data: span,
                });
                crate::buffer::shadow_write(&mut sh, b, at, data);
            }
            _ => {
                drop(sh);
                return self.error(INVALID_ENUM);
            }
        }
        sh.flush_if_full();
    }

    /// Query state for `glGet*`: `TIMESTAMP`, the backend's clock now (a round trip through
    /// a query object that lives only for this call).
    pub(crate) fn query_state_value(&self, sh: &mut Shared, pname: GLenum) -> Option<Value> {
        if pname != TIMESTAMP {
            return None;
        }
        let query: QueryHandle = sh.dev.alloc.mint();
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::CreateQuery {
            query,
            kind: QueryKind::Timestamp,
        });
        sh.dev.push(Record::QueryTimestamp { query });
        sh.dev.push(Record::QueryResult { query, reply });
        sh.dev.push(Record::DestroyQuery { query });
        sh.dev.alloc.free(query);
        let time = match sh.wait(reply) {
            Some(Reply::Query(t)) => t.min(i64::MAX as u64) as i64,
            _ => 0,
        };
        Some(Value::int(time))
    }
}
