//! Steady state: once a bench scene's objects exist and its first frames ran, its frames block
//! on nothing and create nothing — no blocking wait, no CSO created by the frontend, no native
//! program, shader or pipeline created by the backend — on every backend (null, GLES,
//! Vulkan) and on the in-process and shared-memory transports. Each backend's creation
//! counter is checked to be live first: the scene's setup and first frames moved it.

use tessera_engine::wire::null::NullBackend;
use tessera_engine::wire::{Backend, BackendCounters, TransportKind};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::measure::{Counted, CountersProbe};
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene};

use crate::transport::Server;

const DRAWS: u32 = 200;
const WARMUP_FRAMES: u32 = 2;
const FRAMES: u32 = 4;

/// Where a context's backend counters come from.
enum Counters {
    /// A backend in this process, wrapped by [`Counted`].
    Local(CountersProbe),
    /// A server's probe reply.
    Remote,
}

impl Counters {
    fn read(&self, ctx: &Context) -> BackendCounters {
        match self {
            Counters::Local(probe) => probe.get(),
            Counters::Remote => {
                ctx.server_probe()
                    .expect("the server answers the probe")
                    .backend
            }
        }
        .expect("the backend counts its native creations")
    }
}

/// What a backend creates natively, so setup must have moved its counter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Native {
    /// Nothing (null).
    Nothing,
    /// Programs and shaders (GLES).
    Programs,
    /// Pipelines (Vulkan).
    Pipelines,
}

fn config(transport: TransportKind) -> Config {
    Config {
        transport,
        surface: Some(SurfaceConfig::new(BENCH_SIZE as u32, BENCH_SIZE as u32)),
        backend: BackendKind::Null,
        ..Config::default()
    }
}

/// A context whose backend runs in this process, with its counters.
fn local(backend: Box<dyn Backend>, transport: TransportKind) -> (Context, Counters) {
    let (counted, probe) = Counted::new(backend);
    (
        Context::with_backend(&config(transport), Box::new(counted)),
        Counters::Local(probe),
    )
}

fn gles() -> Box<dyn Backend> {
    Box::new(tessera_backend_gles::GlesBackend::new().expect("the GLES backend on this machine"))
}

/// Runs `scene` on `ctx`: setup, warm-up, then the steady frames, asserting they waited for
/// nothing and created nothing. `native` says what setup must have created.
fn assert_steady(
    name: &str,
    ctx: &mut Context,
    counters: &Counters,
    scene: BenchScene,
    native: Native,
) {
    let case = format!("{} on {name}", scene.name());
    let mut bench = Bench::setup(ctx, scene);
    for _ in 0..WARMUP_FRAMES {
        bench.frame(ctx, DRAWS);
    }
    ctx.finish();
    let setup = counters.read(ctx);
    let programs = if scene == BenchScene::ProgramChange {
        8
    } else {
        1
    };
    match native {
        Native::Programs => assert!(
            setup.programs_linked >= programs && setup.shaders_compiled >= 2 * programs,
            "{case}: the backend's counter missed the setup's links: {setup:?}"
        ),
        Native::Pipelines => assert!(
            setup.pipelines_created >= programs,
            "{case}: the backend's counter missed the first frames' pipelines: {setup:?}"
        ),
        Native::Nothing => {
            assert_eq!(
                setup,
                BackendCounters::default(),
                "{case}: a backend without native objects"
            )
        }
    }
    // The probe (server transports) blocks once: read the transport's counters after it.
    let (t0, cso0, draws0) = (ctx.transport_stats(), ctx.cso_stats(), ctx.stats().draws);
    for _ in 0..FRAMES {
        bench.frame(ctx, DRAWS);
    }
    let (t1, cso1, draws1) = (ctx.transport_stats(), ctx.cso_stats(), ctx.stats().draws);
    ctx.finish();
    let end = counters.read(ctx);
    assert!(!ctx.is_lost(), "{case}: the session was lost");
    assert_eq!(
        ctx.get_error(),
        tessera_engine::gl::NO_ERROR,
        "{case}: a GL error"
    );
    assert_eq!(
        draws1 - draws0,
        u64::from(DRAWS * FRAMES),
        "{case}: every draw reached the backend"
    );
    assert!(
        t1.records - t0.records >= u64::from(DRAWS * FRAMES),
        "{case}: the frames were submitted"
    );
    assert_eq!(
        t1.blocking_waits - t0.blocking_waits,
        0,
        "{case}: steady frames blocked"
    );
    assert_eq!(
        cso1.misses - cso0.misses,
        0,
        "{case}: steady frames created CSOs"
    );
    assert_eq!(
        end, setup,
        "{case}: steady frames created native programs, shaders or pipelines"
    );
}

const SCENES: [BenchScene; 3] = [
    BenchScene::Static,
    BenchScene::StateChange,
    BenchScene::ProgramChange,
];

#[test]
fn steady_frames_wait_for_nothing_and_create_nothing_on_the_null_backend() {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        for scene in SCENES {
            let (mut ctx, counters) = local(Box::new(NullBackend::new(false).0), transport.clone());
            assert_steady(
                &format!("null {}", transport.name()),
                &mut ctx,
                &counters,
                scene,
                Native::Nothing,
            );
        }
    }
    let server = Server::start();
    for scene in SCENES {
        let config = Config {
            backend: BackendKind::Null,
            ..config(TransportKind::Shm(Some(server.socket.clone())))
        };
        let mut ctx = Context::new(&config).expect("the server's null backend");
        assert_steady(
            "null shm",
            &mut ctx,
            &Counters::Remote,
            scene,
            Native::Nothing,
        );
    }
}

#[test]
fn steady_frames_wait_for_nothing_and_link_nothing_on_the_gles_backend() {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        for scene in SCENES {
            let (mut ctx, counters) = local(gles(), transport.clone());
            assert_steady(
                &format!("gles {}", transport.name()),
                &mut ctx,
                &counters,
                scene,
                Native::Programs,
            );
        }
    }
    let server = Server::start();
    for scene in SCENES {
        let config = Config {
            backend: BackendKind::Gles,
            ..config(TransportKind::Shm(Some(server.socket.clone())))
        };
        let mut ctx = Context::new(&config).expect("the server's GLES backend");
        assert_steady(
            "gles shm",
            &mut ctx,
            &Counters::Remote,
            scene,
            Native::Programs,
        );
    }
}

#[test]
fn steady_frames_wait_for_nothing_and_create_no_pipelines_on_the_vulkan_backend() {
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        for scene in SCENES {
            let vk = tessera_backend_vk::VulkanBackend::new()
                .expect("the Vulkan backend (lavapipe) on this machine");
            let stats = vk.probe();
            let counters = Counters::Local(CountersProbe::from_fn(move || {
                let s = stats.stats();
                Some(BackendCounters {
                    shaders_compiled: s.shader_modules,
                    programs_linked: 0,
                    pipelines_created: s.pipelines,
                    ..BackendCounters::default()
                })
            }));
            let mut ctx = Context::with_backend(&config(transport.clone()), Box::new(vk));
            assert_steady(
                &format!("vulkan {}", transport.name()),
                &mut ctx,
                &counters,
                scene,
                Native::Pipelines,
            );
        }
    }
}

#[test]
fn the_gles_counter_counts_each_native_link_once() {
    // A relink of identical code is served from the backend's program cache: the counter
    // moves for the first program only, so a steady-state zero above means something.
    let (mut ctx, counters) = local(gles(), TransportKind::Inproc);
    let p = tessera_tests::programs::color_program(&mut ctx);
    ctx.finish();
    let first = counters.read(&ctx);
    assert_eq!((first.programs_linked, first.shaders_compiled), (1, 2));
    let q = tessera_tests::programs::color_program(&mut ctx);
    ctx.finish();
    assert_eq!(
        counters.read(&ctx),
        first,
        "the same code again links nothing"
    );
    let r = tessera_tests::programs::textured_program(&mut ctx);
    ctx.finish();
    let third = counters.read(&ctx);
    assert_eq!((third.programs_linked, third.shaders_compiled), (2, 4));
    assert!(p != q && q != r, "three GL programs");
}

#[test]
fn a_wait_on_a_counted_gles_backend_sees_its_fence_signal_without_another_batch() {
    // The bench's in-process GLES contexts run behind `Counted`: a client's fence wait must
    // reach the backend's own look at its fences. Heavy work keeps the fence pending when
    // its batch has been applied, so only those looks can end the wait before its timeout.
    use tessera_engine::gl::{
        ALREADY_SIGNALED, CONDITION_SATISFIED, SYNC_FLUSH_COMMANDS_BIT, SYNC_GPU_COMMANDS_COMPLETE,
    };
    let (mut ctx, _) = local(gles(), TransportKind::Inproc);
    let mut bench = Bench::setup(&mut ctx, BenchScene::ShaderHeavy);
    bench.frame(&mut ctx, 5_000);
    let sync = ctx.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    ctx.flush();
    let waited = ctx.client_wait_sync(sync, SYNC_FLUSH_COMMANDS_BIT, 10_000_000_000);
    assert!(
        waited == CONDITION_SATISFIED || waited == ALREADY_SIGNALED,
        "the wait ended with {waited:#x}"
    );
    ctx.delete_sync(sync);
    assert!(!ctx.is_lost());
}
