//! Several GLES sessions at once on one `tessera-server`: each draws the benchmark's
//! `statechange` scene over its own `shm` session, all at the same time, for two rounds, and
//! every image must equal native llvmpipe's. The GLES backends of one server process share
//! one driver screen, which llvmpipe cannot drive from several threads at once (see
//! `backend_gles/src/egl.rs`); before the backends serialised their calls on llvmpipe such a
//! server died in the driver. With 6 sessions it did so only in some runs: this is the short
//! form, `scripts/soak-server` (16 sessions, rounds, a client killed mid-frame) the long one.

use std::sync::{Arc, Barrier};

use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::NativeGl;
use tessera_tests::scenes::{BENCH_SIZE, Bench, BenchScene};

use crate::transport::Server;

const SESSIONS: usize = 6;
const ROUNDS: usize = 2;
const DRAWS: u32 = 300;
const FRAMES: u32 = 4;

/// The scene's image checksum after `FRAMES` frames.
fn checksum<G: tessera_tests::gl::Gl + ?Sized>(gl: &mut G) -> u64 {
    let mut bench = Bench::setup(gl, BenchScene::StateChange);
    for _ in 0..FRAMES {
        bench.frame(gl, DRAWS);
    }
    bench.checksum(gl)
}

#[test]
fn gles_sessions_at_once_each_draw_native_s_image() {
    tessera_tests::ensure_runtime_dir();
    let native = checksum(&mut NativeGl::new(BENCH_SIZE, BENCH_SIZE).expect("native llvmpipe"));
    let server = Server::start();
    for round in 0..ROUNDS {
        let start = Arc::new(Barrier::new(SESSIONS));
        let sessions: Vec<_> = (0..SESSIONS)
            .map(|_| {
                let (socket, start) = (server.socket.clone(), start.clone());
                std::thread::spawn(move || {
                    let config = Config {
                        transport: TransportKind::Shm(Some(socket)),
                        backend: BackendKind::Gles,
                        surface: Some(SurfaceConfig::new(BENCH_SIZE as u32, BENCH_SIZE as u32)),
                        ..Config::default()
                    };
                    let mut ctx = Context::new(&config).expect("a GLES session");
                    start.wait();
                    let sum = checksum(&mut ctx);
                    (sum, ctx.is_lost())
                })
            })
            .collect();
        for (i, session) in sessions.into_iter().enumerate() {
            let (sum, lost) = session.join().expect("the session's thread");
            assert!(
                !lost,
                "round {round}: session {i} was lost; the server logged:\n{}",
                server.log().join("\n")
            );
            assert_eq!(sum, native, "round {round}: session {i}'s image");
        }
    }
}
