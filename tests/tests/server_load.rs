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
fn checksum<G: tessera_tests::gl::SceneGl + ?Sized>(gl: &mut G) -> u64 {
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

/// The short form of `scripts/soak-server`'s soak, on both backends and in a worker mode
/// and the threads mode: rounds of a few `tessera-bench` clients (processes of their own),
/// one of them SIGKILLed once its session began; every survivor's image must equal native
/// llvmpipe's, every session must end with `0 native objects left` in the server's log
/// (the backends' census), and each process must say it holds none once its last session
/// ended. Memory is the long soak's to judge.
mod soak {
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use crate::transport::Server;

    const CLIENTS: usize = 3;
    const ROUNDS: usize = 2;
    const SCENE: [&str; 6] = ["--scene", "statechange", "--draws", "200", "--frames", "3"];

    fn bench() -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_tessera-bench"));
        c.args(["--worker"]);
        c
    }

    /// The image checksum a bench worker printed, if it finished.
    fn sum(out: &[u8]) -> Option<String> {
        let out = String::from_utf8_lossy(out);
        out.split_whitespace()
            .find_map(|w| w.strip_prefix("sum="))
            .map(str::to_owned)
    }

    fn client(server: &Server, backend: &str) -> Child {
        bench()
            .arg(format!("tessera:{backend}:shm"))
            .arg("--unix")
            .arg(&server.socket)
            .args(SCENE)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("a tessera-bench client")
    }

    /// Lines of the log from `from` on containing `needle`.
    fn count(server: &Server, from: usize, needle: &str) -> usize {
        server.log()[from..]
            .iter()
            .filter(|l| l.contains(needle))
            .count()
    }

    fn soak(backend: &str, isolation: &str) {
        tessera_tests::ensure_runtime_dir();
        let native = bench().arg("native").args(SCENE).output().unwrap();
        let native = sum(&native.stdout).expect("native llvmpipe's image");
        let server = Server::start_with(&["--isolation", isolation]);
        for round in 0..ROUNDS {
            let from = server.log().len();
            let mut clients: Vec<Child> = (0..CLIENTS).map(|_| client(&server, backend)).collect();
            let victim = round % CLIENTS;
            let pid = format!("(pid {} ", clients[victim].id());
            let began = server.wait_log(&[&pid, "backend over"], Duration::from_secs(60));
            assert!(began.is_some(), "the victim's session did not begin");
            clients[victim].kill().unwrap();
            for (i, c) in clients.into_iter().enumerate() {
                let out = c.wait_with_output().unwrap();
                if i != victim {
                    assert_eq!(
                        sum(&out.stdout).as_deref(),
                        Some(native.as_str()),
                        "{backend} {isolation} round {round}: client {i}'s image; the server logged:\n{}",
                        server.log()[from..].join("\n")
                    );
                }
            }
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                let began = count(&server, from, "backend over");
                let ended = count(&server, from, "native objects left");
                let idle = count(&server, from, "no session live in process");
                if ended >= began && idle > 0 {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "{backend} {isolation} round {round}: {ended} of {began} sessions ended; the server logged:\n{}",
                    server.log()[from..].join("\n")
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            let log = server.log();
            for line in &log[from..] {
                if line.contains("native objects left") {
                    assert!(line.contains("; 0 native objects left"), "{line}");
                }
                if line.contains("no session live in process") {
                    assert!(line.contains(": 0 native objects held"), "{line}");
                }
            }
        }
    }

    #[test]
    fn gles_sessions_in_workers_leave_no_native_objects() {
        soak("gles", "pool");
    }

    #[test]
    fn gles_sessions_on_threads_leave_no_native_objects() {
        soak("gles", "threads");
    }

    #[test]
    fn vulkan_sessions_in_workers_leave_no_native_objects() {
        soak("vulkan", "process");
    }

    #[test]
    fn vulkan_sessions_on_threads_leave_no_native_objects() {
        soak("vulkan", "threads");
    }
}
