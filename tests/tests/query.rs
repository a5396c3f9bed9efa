//! Query objects and sync objects: errors (checked against Mesa llvmpipe), records, results
//! through the backend, and the round trips they cost.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_tests::{assert_error, assert_no_error, context, records};
use tessera_wire::format::QueryKind;
use tessera_wire::record::Record;

/// `CURRENT_QUERY` of a target.
fn current(ctx: &mut Context, target: GLenum) -> GLint {
    let mut v = [-1];
    ctx.get_queryiv(target, CURRENT_QUERY, &mut v);
    v[0]
}

/// Blocking waits of the context's transport so far.
fn waits(ctx: &Context) -> u64 {
    ctx.transport_stats().blocking_waits
}

#[test]
fn a_query_exists_from_its_first_begin() {
    let mut ctx = context();
    records(&mut ctx);
    let q = ctx.gen_query();
    assert_ne!(q, 0);
    assert_eq!(ctx.is_query(q), FALSE as GLboolean);
    assert_eq!(ctx.is_query(0), FALSE as GLboolean);
    assert!(records(&mut ctx).is_empty(), "gen creates nothing");
    ctx.begin_query(SAMPLES_PASSED, q);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_query(q), TRUE as GLboolean);
    assert_eq!(current(&mut ctx, SAMPLES_PASSED), q as GLint);
    let recs = records(&mut ctx);
    let [
        Record::CreateQuery {
            query: created,
            kind: QueryKind::SamplesPassed,
        },
        Record::BeginQuery { query: begun },
    ] = recs[..]
    else {
        panic!("unexpected records {recs:?}");
    };
    assert_eq!(created, begun);
    ctx.end_query(SAMPLES_PASSED);
    assert_no_error!(ctx);
    assert_eq!(current(&mut ctx, SAMPLES_PASSED), 0);
    assert_eq!(records(&mut ctx), [Record::EndQuery { query: created }]);
    // A second begin reuses the object: no second create.
    ctx.begin_query(SAMPLES_PASSED, q);
    ctx.end_query(SAMPLES_PASSED);
    assert_no_error!(ctx);
    assert_eq!(
        records(&mut ctx),
        [
            Record::BeginQuery { query: created },
            Record::EndQuery { query: created }
        ]
    );
}

#[test]
fn every_begin_target_has_its_own_slot_and_wire_kind() {
    let mut ctx = context();
    records(&mut ctx);
    let targets = [
        (SAMPLES_PASSED, QueryKind::SamplesPassed),
        (PRIMITIVES_GENERATED, QueryKind::PrimitivesGenerated),
        (
            TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
            QueryKind::TransformFeedbackPrimitivesWritten,
        ),
        (TIME_ELAPSED, QueryKind::TimeElapsed),
    ];
    let mut ids = [0; 4];
    ctx.gen_queries(4, &mut ids);
    for (&(target, _), &id) in targets.iter().zip(&ids) {
        ctx.begin_query(target, id);
        assert_error!(ctx, NO_ERROR, "begin {target:#x}");
    }
    for (&(target, _), &id) in targets.iter().zip(&ids) {
        assert_eq!(current(&mut ctx, target), id as GLint);
    }
    let kinds: Vec<QueryKind> = records(&mut ctx)
        .iter()
        .filter_map(|r| match r {
            Record::CreateQuery { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, targets.map(|t| t.1));
    for (target, _) in targets {
        ctx.end_query(target);
        assert_no_error!(ctx);
        assert_eq!(current(&mut ctx, target), 0);
    }
    // ANY_SAMPLES_PASSED on its own.
    let any = ctx.gen_query();
    ctx.begin_query(ANY_SAMPLES_PASSED, any);
    assert_no_error!(ctx);
    assert_eq!(current(&mut ctx, ANY_SAMPLES_PASSED), any as GLint);
    assert_eq!(current(&mut ctx, SAMPLES_PASSED), 0);
    ctx.end_query(ANY_SAMPLES_PASSED);
    assert_no_error!(ctx);
}

#[test]
fn begin_query_errors_change_nothing() {
    let mut ctx = context();
    let mut ids = [0; 3];
    ctx.gen_queries(3, &mut ids);
    let [a, b, c] = ids;
    records(&mut ctx);

    ctx.begin_query(0x1234, a);
    assert_error!(ctx, INVALID_ENUM, "bad target");
    ctx.begin_query(TIMESTAMP, a);
    assert_error!(ctx, INVALID_ENUM, "TIMESTAMP is not a begin target");
    ctx.begin_query(SAMPLES_PASSED, 0);
    assert_error!(ctx, INVALID_OPERATION, "id 0");
    ctx.begin_query(SAMPLES_PASSED, 999);
    assert_error!(ctx, INVALID_OPERATION, "a name never generated");
    assert_eq!(
        ctx.is_query(a),
        FALSE as GLboolean,
        "no object after errors"
    );
    assert!(records(&mut ctx).is_empty());

    ctx.begin_query(SAMPLES_PASSED, a);
    assert_no_error!(ctx);
    records(&mut ctx);
    ctx.begin_query(SAMPLES_PASSED, b);
    assert_error!(ctx, INVALID_OPERATION, "a query of that target is active");
    ctx.begin_query(ANY_SAMPLES_PASSED, b);
    assert_error!(
        ctx,
        INVALID_OPERATION,
        "occlusion targets exclude each other"
    );
    ctx.begin_query(TIME_ELAPSED, a);
    assert_error!(ctx, INVALID_OPERATION, "id active under another target");
    assert_eq!(current(&mut ctx, SAMPLES_PASSED), a as GLint);
    assert_eq!(current(&mut ctx, ANY_SAMPLES_PASSED), 0);
    assert_eq!(current(&mut ctx, TIME_ELAPSED), 0);
    assert_eq!(ctx.is_query(b), FALSE as GLboolean);
    ctx.end_query(SAMPLES_PASSED);
    assert_no_error!(ctx);

    ctx.begin_query(TIME_ELAPSED, a);
    assert_error!(ctx, INVALID_OPERATION, "id of another target");
    assert_eq!(current(&mut ctx, TIME_ELAPSED), 0);
    // ANY_SAMPLES_PASSED also blocks SAMPLES_PASSED.
    ctx.begin_query(ANY_SAMPLES_PASSED, c);
    assert_no_error!(ctx);
    ctx.begin_query(SAMPLES_PASSED, a);
    assert_error!(ctx, INVALID_OPERATION);
    assert_eq!(current(&mut ctx, SAMPLES_PASSED), 0);
    let recs = records(&mut ctx);
    assert_eq!(recs.len(), 3, "{recs:?}");
    assert!(matches!(recs[0], Record::EndQuery { .. }));
    assert!(matches!(
        recs[1],
        Record::CreateQuery {
            kind: QueryKind::AnySamplesPassed,
            ..
        }
    ));
}

#[test]
fn end_query_errors() {
    let mut ctx = context();
    ctx.end_query(SAMPLES_PASSED);
    assert_error!(ctx, INVALID_OPERATION, "nothing active");
    ctx.end_query(0x1234);
    assert_error!(ctx, INVALID_ENUM);
    ctx.end_query(TIMESTAMP);
    assert_error!(ctx, INVALID_ENUM);
    let q = ctx.gen_query();
    ctx.begin_query(PRIMITIVES_GENERATED, q);
    ctx.end_query(SAMPLES_PASSED);
    assert_error!(ctx, INVALID_OPERATION, "another target is active");
    assert_eq!(current(&mut ctx, PRIMITIVES_GENERATED), q as GLint);
    ctx.end_query(PRIMITIVES_GENERATED);
    ctx.end_query(PRIMITIVES_GENERATED);
    assert_error!(ctx, INVALID_OPERATION, "ended twice");
}

#[test]
fn deleting_an_active_query_ends_it() {
    let mut ctx = context();
    records(&mut ctx);
    let q = ctx.gen_query();
    ctx.begin_query(TIME_ELAPSED, q);
    let created = match records(&mut ctx)[..] {
        [Record::CreateQuery { query, .. }, Record::BeginQuery { .. }] => query,
        ref r => panic!("{r:?}"),
    };
    ctx.delete_queries(1, &[q]);
    assert_no_error!(ctx);
    assert_eq!(current(&mut ctx, TIME_ELAPSED), 0);
    assert_eq!(ctx.is_query(q), FALSE as GLboolean);
    assert_eq!(
        records(&mut ctx),
        [
            Record::EndQuery { query: created },
            Record::DestroyQuery { query: created }
        ]
    );
    ctx.end_query(TIME_ELAPSED);
    assert_error!(ctx, INVALID_OPERATION, "the delete ended it");
    ctx.begin_query(TIME_ELAPSED, q);
    assert_error!(ctx, INVALID_OPERATION, "a deleted name");
}

#[test]
fn gen_and_delete_validate_counts_and_ignore_unused_names() {
    let mut ctx = context();
    let mut ids = [0; 2];
    ctx.gen_queries(-1, &mut ids);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(ids, [0, 0]);
    ctx.delete_queries(-1, &ids);
    assert_error!(ctx, INVALID_VALUE);
    ctx.gen_queries(2, &mut ids);
    assert_eq!(ids, [1, 2]);
    records(&mut ctx);
    // Generated-only names, 0 and unknown names are silently ignored.
    ctx.delete_queries(4, &[ids[0], ids[1], 0, 777]);
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty());
    ctx.begin_query(SAMPLES_PASSED, ids[0]);
    assert_error!(ctx, INVALID_OPERATION, "deleted before use");
}

#[test]
fn query_counter_records_a_timestamp() {
    let mut ctx = context();
    let mut ids = [0; 3];
    ctx.gen_queries(3, &mut ids);
    let [t, s, active] = ids;
    records(&mut ctx);
    ctx.query_counter(t, SAMPLES_PASSED);
    assert_error!(ctx, INVALID_ENUM, "only TIMESTAMP");
    ctx.query_counter(0, TIMESTAMP);
    assert_error!(ctx, INVALID_OPERATION, "id 0");
    // 3.3 core: names must come from gen_queries (Mesa creates the object instead).
    ctx.query_counter(999, TIMESTAMP);
    assert_error!(ctx, INVALID_OPERATION, "never generated");
    assert!(records(&mut ctx).is_empty());

    ctx.query_counter(t, TIMESTAMP);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_query(t), TRUE as GLboolean);
    let recs = records(&mut ctx);
    let [
        Record::CreateQuery {
            query,
            kind: QueryKind::Timestamp,
        },
        Record::QueryTimestamp { query: stamped },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert_eq!(query, stamped);
    ctx.query_counter(t, TIMESTAMP);
    assert_no_error!(ctx);
    assert_eq!(records(&mut ctx), [Record::QueryTimestamp { query }]);

    ctx.begin_query(SAMPLES_PASSED, s);
    ctx.end_query(SAMPLES_PASSED);
    ctx.query_counter(s, TIMESTAMP);
    assert_error!(ctx, INVALID_OPERATION, "a query of another target");
    ctx.begin_query(TIME_ELAPSED, active);
    ctx.query_counter(active, TIMESTAMP);
    assert_error!(ctx, INVALID_OPERATION, "an active query");
    ctx.begin_query(TIME_ELAPSED, t);
    assert_error!(ctx, INVALID_OPERATION, "a timestamp query cannot be begun");
}

#[test]
fn get_queryiv_reports_current_queries_and_counter_bits() {
    let mut ctx = context();
    // QUERY_COUNTER_BITS as Mesa reports them (64-bit counters; ANY_SAMPLES_PASSED is 1 bit).
    for (target, bits) in [
        (SAMPLES_PASSED, 64),
        (ANY_SAMPLES_PASSED, 1),
        (PRIMITIVES_GENERATED, 64),
        (TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 64),
        (TIME_ELAPSED, 64),
        (TIMESTAMP, 64),
    ] {
        let mut v = [-1];
        ctx.get_queryiv(target, QUERY_COUNTER_BITS, &mut v);
        assert_no_error!(ctx);
        assert_eq!(v[0], bits, "{target:#x}");
        assert_eq!(current(&mut ctx, target), 0, "{target:#x}");
        assert_no_error!(ctx);
    }
    let mut v = [-1];
    ctx.get_queryiv(0x1234, CURRENT_QUERY, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_queryiv(SAMPLES_PASSED, 0x1234, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    ctx.get_queryiv(SAMPLES_PASSED, QUERY_RESULT, &mut v);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(v, [-1], "params untouched on error");
}

#[test]
fn query_object_errors() {
    let mut ctx = context();
    let mut ids = [0; 2];
    ctx.gen_queries(2, &mut ids);
    let [q, unused] = ids;
    let mut v = [-7];
    ctx.get_query_objectiv(unused, QUERY_RESULT, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "generated, never begun");
    ctx.get_query_objectiv(999, QUERY_RESULT, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "unknown name");
    ctx.get_query_objectiv(0, QUERY_RESULT_AVAILABLE, &mut v);
    assert_error!(ctx, INVALID_OPERATION, "name 0");
    ctx.begin_query(SAMPLES_PASSED, q);
    let mut u = [7u32];
    ctx.get_query_objectuiv(q, QUERY_RESULT, &mut u);
    assert_error!(ctx, INVALID_OPERATION, "an active query");
    let mut w = [7i64];
    ctx.get_query_objecti64v(q, QUERY_RESULT_AVAILABLE, &mut w);
    assert_error!(ctx, INVALID_OPERATION, "an active query");
    ctx.end_query(SAMPLES_PASSED);
    ctx.get_query_objectiv(q, 0x1234, &mut v);
    assert_error!(ctx, INVALID_ENUM, "bad pname");
    ctx.get_query_objectiv(q, CURRENT_QUERY, &mut v);
    assert_error!(
        ctx,
        INVALID_ENUM,
        "a target parameter is no object parameter"
    );
    assert_eq!((v, u, w), ([-7], [7], [7]), "nothing written on error");
}

#[test]
fn results_cost_one_round_trip_then_stay() {
    let mut ctx = context();
    records(&mut ctx);
    let q = ctx.gen_query();
    ctx.begin_query(ANY_SAMPLES_PASSED, q);
    ctx.end_query(ANY_SAMPLES_PASSED);
    let handle = match records(&mut ctx)[..] {
        [Record::CreateQuery { query, .. }, ..] => query,
        ref r => panic!("{r:?}"),
    };
    let before = waits(&ctx);
    let mut v = [-1];
    ctx.get_query_objectiv(q, QUERY_RESULT, &mut v);
    assert_no_error!(ctx);
    assert_eq!(v, [0], "the null backend counts nothing");
    assert_eq!(waits(&ctx), before + 1, "one round trip");
    let mut avail = [0u32];
    ctx.get_query_objectuiv(q, QUERY_RESULT_AVAILABLE, &mut avail);
    let mut r64 = [-1i64];
    ctx.get_query_objecti64v(q, QUERY_RESULT, &mut r64);
    let mut u64s = [u64::MAX];
    ctx.get_query_objectui64v(q, QUERY_RESULT, &mut u64s);
    assert_no_error!(ctx);
    assert_eq!((avail, r64, u64s), ([TRUE], [0], [0]));
    assert_eq!(waits(&ctx), before + 1, "the result is kept");
    let recs = records(&mut ctx);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert!(matches!(recs[0], Record::QueryResult { query, .. } if query == handle));

    // Beginning again forgets the result: availability waits for the new one.
    ctx.begin_query(ANY_SAMPLES_PASSED, q);
    ctx.end_query(ANY_SAMPLES_PASSED);
    let before = waits(&ctx);
    ctx.get_query_objectiv(q, QUERY_RESULT_AVAILABLE, &mut v);
    assert_no_error!(ctx);
    assert_eq!(v, [TRUE as GLint]);
    assert_eq!(waits(&ctx), before + 1);
}

#[test]
fn timestamp_state_reads_the_backend_clock() {
    let mut ctx = context();
    records(&mut ctx);
    let before = waits(&ctx);
    let mut t = [-1i64];
    ctx.get_integer64v(TIMESTAMP, &mut t);
    assert_no_error!(ctx);
    assert_eq!(t, [0], "the null backend's clock reads 0");
    assert_eq!(waits(&ctx), before + 1, "one round trip");
    let recs = records(&mut ctx);
    let [
        Record::CreateQuery {
            query,
            kind: QueryKind::Timestamp,
        },
        Record::QueryTimestamp { query: q1 },
        Record::QueryResult { query: q2, .. },
        Record::DestroyQuery { query: q3 },
    ] = recs[..]
    else {
        panic!("{recs:?}");
    };
    assert!([q1, q2, q3].iter().all(|q| *q == query));
    // The temporary query is gone: its slot is reused by the next read, at a new generation.
    ctx.get_integer64v(TIMESTAMP, &mut t);
    assert_no_error!(ctx);
    assert_eq!(records(&mut ctx).len(), 4);
}

#[test]
fn query_names_are_per_context() {
    let mut a = context();
    let q = a.gen_query();
    a.begin_query(SAMPLES_PASSED, q);
    assert_no_error!(a);
    let mut b = Context::new_shared(&a, &tessera_engine::Config::default());
    assert_eq!(b.is_query(q), FALSE as GLboolean);
    b.begin_query(SAMPLES_PASSED, q);
    assert_error!(b, INVALID_OPERATION, "not generated in this context");
    assert_eq!(current(&mut b, SAMPLES_PASSED), 0);
    a.end_query(SAMPLES_PASSED);
    assert_no_error!(a);
}

// ---------------------------------------------------------------------------------------
// Syncs

#[test]
fn fence_sync_inserts_a_fence() {
    let mut ctx = context();
    records(&mut ctx);
    assert_eq!(ctx.fence_sync(0x1234, 0), 0);
    assert_error!(ctx, INVALID_ENUM, "bad condition");
    assert_eq!(ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 1), 0);
    assert_error!(ctx, INVALID_VALUE, "flags must be 0");
    assert!(records(&mut ctx).is_empty());
    let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_no_error!(ctx);
    assert_ne!(s, 0);
    assert_eq!(ctx.is_sync(s), TRUE as GLboolean);
    let fence = match records(&mut ctx)[..] {
        [Record::InsertFence { fence, seq: 1 }] => fence,
        ref r => panic!("{r:?}"),
    };
    let t = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_ne!(t, s, "each fence is a new sync");
    assert!(
        matches!(records(&mut ctx)[..], [Record::InsertFence { seq: 2, .. }]),
        "each fence takes the next sequence number"
    );
    ctx.delete_sync(s);
    assert_no_error!(ctx);
    assert_eq!(ctx.is_sync(s), FALSE as GLboolean);
    assert_eq!(ctx.is_sync(t), TRUE as GLboolean);
    assert_eq!(records(&mut ctx), [Record::DestroyFence { fence }]);
}

#[test]
fn is_sync_and_delete_sync_errors() {
    let mut ctx = context();
    assert_eq!(ctx.is_sync(0), FALSE as GLboolean);
    assert_eq!(ctx.is_sync(12345), FALSE as GLboolean);
    assert_eq!(ctx.is_sync(u64::MAX), FALSE as GLboolean);
    assert_no_error!(ctx);
    ctx.delete_sync(0);
    assert_error!(ctx, NO_ERROR, "0 is silently ignored");
    ctx.delete_sync(12345);
    assert_error!(ctx, INVALID_VALUE, "not a sync");
    ctx.delete_sync(1 << 40);
    assert_error!(ctx, INVALID_VALUE, "not a sync");
    let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    ctx.delete_sync(s);
    assert_no_error!(ctx);
    ctx.delete_sync(s);
    assert_error!(ctx, INVALID_VALUE, "deleted twice");
}

#[test]
fn client_wait_sync_reads_the_watermark_without_a_round_trip() {
    let mut ctx = context();
    let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    records(&mut ctx);
    assert_eq!(ctx.client_wait_sync(s, 2, 0), WAIT_FAILED);
    assert_error!(ctx, INVALID_VALUE, "unknown flag");
    assert_eq!(ctx.client_wait_sync(999, 0, 0), WAIT_FAILED);
    assert_error!(ctx, INVALID_VALUE, "not a sync");
    assert!(records(&mut ctx).is_empty());

    // The batch that carried the fence reported it signalled (the null backend's fences
    // signal at once): found at the first look, so already signalled, with a timeout too.
    let before = waits(&ctx);
    assert_eq!(
        ctx.client_wait_sync(s, SYNC_FLUSH_COMMANDS_BIT, 1_000_000),
        ALREADY_SIGNALED
    );
    assert_no_error!(ctx);
    assert_eq!(waits(&ctx), before, "no round trip");
    assert!(records(&mut ctx).is_empty(), "no record");
    // (`records` waits for a `glFinish`.)
    let before = waits(&ctx);
    let t = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    // The fence is still in the encoder: the look hands it over (a flush, not a wait).
    assert_eq!(ctx.client_wait_sync(t, 0, 0), ALREADY_SIGNALED);
    assert_no_error!(ctx);
    assert_eq!(waits(&ctx), before, "no round trip");
    assert!(
        matches!(records(&mut ctx)[..], [Record::InsertFence { .. }]),
        "nothing but the fence"
    );
}

#[test]
fn a_server_reports_its_watermark_so_a_signalled_fence_costs_no_round_trip() {
    use tessera_engine::Config;
    use tessera_wire::TransportKind;
    // The loopback session: a server's data plane, on a thread of this process.
    for transport in [
        TransportKind::Unix("loopback".into()),
        TransportKind::Shm(None),
    ] {
        let config = Config {
            transport: transport.clone(),
            backend: tessera_engine::BackendKind::Null,
            ..Config::default()
        };
        let null = tessera_wire::null::NullBackend::new(false).0;
        let mut ctx = Context::with_backend(&config, Box::new(null));
        let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
        // The server reports the watermark after the batch that carried the fence, before
        // the reply to the `Finish` after it.
        ctx.finish();
        let before = waits(&ctx);
        let mut v = [-1];
        assert_eq!(ctx.get_synciv(s, SYNC_STATUS, &mut v), 1);
        assert_eq!(v, [SIGNALED as GLint], "{transport:?}");
        let t = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
        assert_eq!(ctx.client_wait_sync(s, 0, 0), ALREADY_SIGNALED);
        assert_eq!(
            waits(&ctx),
            before,
            "{transport:?}: answered from the watermark"
        );
        // A fence the watermark has not reached yet: the look hands it over, reads what the
        // server sent so far, and asks only if the report is not there yet (at most one
        // round trip; whether the report beat the look is up to the server thread).
        assert_eq!(
            ctx.client_wait_sync(t, SYNC_FLUSH_COMMANDS_BIT, 1_000_000_000),
            ALREADY_SIGNALED,
            "{transport:?}"
        );
        assert!(waits(&ctx) <= before + 1, "{transport:?}");
        assert_no_error!(ctx);
    }
}

#[test]
fn wait_sync_validates_and_records_nothing() {
    let mut ctx = context();
    let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    records(&mut ctx);
    ctx.wait_sync(s, 1, TIMEOUT_IGNORED);
    assert_error!(ctx, INVALID_VALUE, "flags");
    ctx.wait_sync(s, 0, 5);
    assert_error!(ctx, INVALID_VALUE, "timeout");
    ctx.wait_sync(12345, 0, TIMEOUT_IGNORED);
    assert_error!(ctx, INVALID_VALUE, "not a sync");
    ctx.wait_sync(s, 0, TIMEOUT_IGNORED);
    assert_no_error!(ctx);
    assert!(records(&mut ctx).is_empty());
}

#[test]
fn get_synciv_reports_the_fence() {
    let mut ctx = context();
    let s = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    for (pname, want) in [
        (OBJECT_TYPE, SYNC_FENCE),
        (SYNC_CONDITION, SYNC_GPU_COMMANDS_COMPLETE),
        (SYNC_FLAGS, 0),
    ] {
        let mut v = [-1; 2];
        assert_eq!(ctx.get_synciv(s, pname, &mut v), 1);
        assert_no_error!(ctx);
        assert_eq!(v, [want as GLint, -1], "{pname:#x}");
    }
    // SYNC_STATUS reads the watermark: no record, no round trip.
    records(&mut ctx);
    let before = waits(&ctx);
    let mut v = [-1];
    assert_eq!(ctx.get_synciv(s, SYNC_STATUS, &mut v), 1);
    assert_eq!(v, [SIGNALED as GLint]);
    assert_eq!(waits(&ctx), before);
    assert!(records(&mut ctx).is_empty());
    assert_eq!(ctx.get_synciv(s, SYNC_STATUS, &mut v), 1);
    assert!(records(&mut ctx).is_empty(), "known signalled");
    // bufSize 0 writes nothing and reports 0 (GL 3.3; Mesa reports a length of 1).
    assert_eq!(ctx.get_synciv(s, OBJECT_TYPE, &mut []), 0);
    assert_no_error!(ctx);
    let mut v = [-1];
    assert_eq!(ctx.get_synciv(s, 0x1234, &mut v), 0);
    assert_error!(ctx, INVALID_ENUM);
    assert_eq!(ctx.get_synciv(999, OBJECT_TYPE, &mut v), 0);
    assert_error!(ctx, INVALID_VALUE);
    assert_eq!(v, [-1]);
}

#[test]
fn syncs_are_shared_by_the_group() {
    let mut a = context();
    let mut b = Context::new_shared(&a, &tessera_engine::Config::default());
    let s = a.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_eq!(b.is_sync(s), TRUE as GLboolean);
    // The first look hands the fence over, and the null backend's fences signal at once.
    assert_eq!(b.client_wait_sync(s, 0, 10), ALREADY_SIGNALED);
    assert_eq!(a.client_wait_sync(s, 0, 10), ALREADY_SIGNALED);
    b.delete_sync(s);
    assert_no_error!(b);
    assert_eq!(a.is_sync(s), FALSE as GLboolean);
    assert_no_error!(a);
}

#[test]
fn errors_are_sticky_until_read() {
    let mut ctx = context();
    ctx.begin_query(0x1234, 1);
    ctx.end_query(SAMPLES_PASSED);
    ctx.delete_sync(42);
    assert_error!(ctx, INVALID_ENUM, "the first error is kept");
    assert_no_error!(ctx);
}
