//! Where the server runs sessions (`--isolation process|pool|threads`), what a worker's death
//! ends, and the session caps.
//!
//! A driver fault is stood in for by the server's debug hook `TESSERA_DEBUG_CRASH=ID:K`: the
//! process serving session `ID` raises SIGSEGV once it applied `K` batches of that session.
//! Sessions are numbered in the order the server accepts them, and each context below is
//! created (its handshake done) before the next, so the numbers are known. Frames are
//! compared pixel for pixel with the native driver's; every wait is bounded, and only what
//! happened is asserted, never how long it took.

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_tests::differential::{read_back, tessera};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, triangle_vao};

use crate::transport::Server;

pub(crate) const W: i32 = 32;
pub(crate) const H: i32 = 32;

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos * 1.5 - 0.5, 0.0, 1.0); }";
const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }";

/// Frames whose pixels differ (the clear and the triangle's colour follow the frame number).
pub(crate) const DISTINCT_FRAMES: usize = 4;

/// The scene's objects in one context.
pub(crate) struct Scene {
    program: GLuint,
    vao: GLuint,
    color: GLint,
}

pub(crate) fn setup(gl: &mut dyn Gl) -> Scene {
    let program = link_program(gl, VS, FS);
    let vao = triangle_vao(gl, 0.0);
    let color = gl.get_uniform_location(program, "color");
    Scene {
        program,
        vao,
        color,
    }
}

/// Draws frame `n` and reads it back.
pub(crate) fn frame(gl: &mut dyn Gl, scene: &Scene, n: usize) -> Vec<u8> {
    let k = (n % DISTINCT_FRAMES) as f32;
    gl.viewport(0, 0, W, H);
    gl.clear_color(0.25 * k, 0.5, 1.0 - 0.25 * k, 1.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.use_program(scene.program);
    gl.uniform4fv(scene.color, &[1.0, 0.2 * k, 0.0, 1.0]);
    gl.bind_vertex_array(scene.vao);
    gl.draw_arrays(TRIANGLES, 0, 3);
    read_back(gl, W, H)
}

/// The native driver's frames: the oracle.
pub(crate) fn native_frames() -> Vec<Vec<u8>> {
    let mut native = NativeGl::new(W, H).expect("native desktop GL through the system EGL");
    let scene = setup(&mut native);
    let frames = (0..DISTINCT_FRAMES)
        .map(|n| frame(&mut native, &scene, n))
        .collect();
    assert_eq!(native.get_error(), NO_ERROR);
    frames
}

/// A GLES-backend session through `kind`, with the scene set up.
fn session(kind: &TransportKind) -> (Context, Scene) {
    let mut ctx = tessera(kind.clone(), W, H);
    let scene = setup(&mut ctx);
    (ctx, scene)
}

fn transports(server: &Server) -> Vec<(&'static str, TransportKind)> {
    server
        .kinds()
        .into_iter()
        .filter(|(name, _)| *name != "fork")
        .collect()
}

#[test]
fn every_isolation_mode_renders_the_native_pixels() {
    let expected = native_frames();
    for mode in ["process", "pool", "threads"] {
        let server = Server::start_with(&["--isolation", mode]);
        for (name, kind) in transports(&server) {
            let (mut ctx, scene) = session(&kind);
            for (n, want) in expected.iter().enumerate() {
                assert!(
                    frame(&mut ctx, &scene, n) == *want,
                    "{mode} over {name}: frame {n} differs from the native driver's"
                );
            }
            assert_eq!(ctx.get_error(), NO_ERROR, "{mode} over {name}");
            assert_eq!(
                ctx.get_graphics_reset_status(),
                NO_ERROR,
                "{mode} over {name}"
            );
        }
    }
}

/// The threads named `llvmpipe-N` (llvmpipe's rasterizer threads, a set per context) of
/// process `pid` and its descendants.
fn rasterizer_threads(pid: u32) -> usize {
    let mut count = 0;
    let mut pending = vec![pid];
    while let Some(p) = pending.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            count += usize::from(comm.starts_with("llvmpipe-"));
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            pending.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<u32>().ok()),
            );
        }
    }
    count
}

/// A process that serves several sessions on threads (the server in `threads` mode, a
/// `pool` worker) has the driver rasterize on each session's own thread
/// (`LP_NUM_THREADS=0`), unless its environment says otherwise; a worker of one session keeps
/// the driver's rasterizer threads.
#[test]
fn processes_that_share_sessions_rasterize_on_the_session_threads() {
    let expected = native_frames();
    // What the server inherits decides the unset cases; the override is explicit.
    let inherited = std::env::var_os("LP_NUM_THREADS").is_some();
    let several_cpus = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    for (mode, args, env, driver_threads) in [
        (
            "threads",
            &["--isolation", "threads"][..],
            &[][..],
            Some(false),
        ),
        ("pool", &["--isolation", "pool"][..], &[][..], Some(false)),
        (
            "process",
            &["--isolation", "process"][..],
            &[][..],
            several_cpus.then_some(true),
        ),
        (
            "threads with LP_NUM_THREADS=1",
            &["--isolation", "threads"][..],
            &[("LP_NUM_THREADS", "1")][..],
            Some(true),
        ),
    ] {
        let server = Server::start_with_env(args, env);
        let (mut ctx, scene) = session(&TransportKind::Shm(Some(server.socket.clone())));
        assert!(
            frame(&mut ctx, &scene, 0) == expected[0],
            "{mode}: the frame differs from the native driver's"
        );
        let threads = rasterizer_threads(server.pid());
        if let Some(want) = driver_threads.filter(|_| env.len() == 1 || !inherited) {
            assert_eq!(
                threads > 0,
                want,
                "{mode}: {threads} llvmpipe rasterizer threads with a session live"
            );
        }
    }
}

/// Renders frames on every live session, round by round, until `victims` are all lost
/// (bounded); the round each was lost in. Every frame drawn before the loss is checked.
fn render_until_lost(
    sessions: &mut [(u64, Context, Scene)],
    victims: &[u64],
    expected: &[Vec<u8>],
    what: &str,
) -> Vec<(u64, usize)> {
    let mut lost = Vec::new();
    for round in 0..200 {
        for (id, ctx, scene) in sessions.iter_mut() {
            if lost.iter().any(|(l, _)| l == id) {
                continue;
            }
            let pixels = frame(ctx, scene, round);
            if ctx.is_lost() {
                assert!(
                    victims.contains(id),
                    "{what}: session {id} was lost, but its worker was not the one that died"
                );
                lost.push((*id, round));
                continue;
            }
            assert!(
                pixels == expected[round % DISTINCT_FRAMES],
                "{what}: session {id}, frame {round} differs from the native driver's"
            );
        }
        if victims.iter().all(|v| lost.iter().any(|(l, _)| l == v)) {
            return lost;
        }
    }
    panic!("{what}: sessions {victims:?} were not all lost in 200 frames (lost: {lost:?})");
}

#[test]
fn a_crashed_worker_ends_exactly_its_sessions_and_the_server_goes_on() {
    let expected = native_frames();
    // Sessions 1 (shm), 2 (unix) and 3 (tcp); session 2's process crashes. `process`: only
    // session 2 dies with it. `pool` of two: sessions 1 and 2 share a worker, 3 has its own.
    for (mode, args, victims, survivors) in [
        (
            "process",
            &["--isolation", "process"][..],
            &[2u64][..],
            &[1u64, 3][..],
        ),
        (
            "pool",
            &["--isolation", "pool", "--sessions-per-worker", "2"][..],
            &[1, 2][..],
            &[3][..],
        ),
    ] {
        let server = Server::start_with_env(args, &[("TESSERA_DEBUG_CRASH", "2:40")]);
        let mut sessions: Vec<(u64, Context, Scene)> = transports(&server)
            .iter()
            .enumerate()
            .map(|(i, (_, kind))| {
                let (ctx, scene) = session(kind);
                (i as u64 + 1, ctx, scene)
            })
            .collect();
        let lost = render_until_lost(&mut sessions, victims, &expected, mode);
        // Whoever saw the loss first saw it in the frame it was drawing; every other session
        // of that worker at its next frame at the latest.
        let first = lost.iter().map(|(_, round)| *round).min().unwrap();
        for (id, round) in &lost {
            assert!(
                *round <= first + 1,
                "{mode}: session {id} was lost in frame {round}, the worker died in frame {first}"
            );
        }
        for (id, ctx, _) in &mut sessions {
            let status = ctx.get_graphics_reset_status();
            if victims.contains(id) {
                assert_eq!(
                    status, UNKNOWN_CONTEXT_RESET,
                    "{mode}: session {id} reports a reset"
                );
            } else {
                assert_eq!(status, NO_ERROR, "{mode}: session {id} was spared");
            }
        }
        // The server reaped the worker and logged which sessions ended with it, and why.
        let ids = victims
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let died = server.wait_log(
            &[
                "killed by signal 11 (SIGSEGV)",
                &format!("ended with it: {ids}"),
            ],
            Duration::from_secs(10),
        );
        assert!(
            died.is_some(),
            "{mode}: the worker's death logged: {:#?}",
            server.log()
        );
        for id in victims {
            assert!(
                server
                    .wait_log(
                        &[&format!("session {id} ("), "ended: its worker", "SIGSEGV"],
                        Duration::from_secs(1)
                    )
                    .is_some(),
                "{mode}: session {id}'s end logged"
            );
        }

        // The survivors go on rendering the native pixels, and a new session is served.
        sessions.retain(|(id, _, _)| survivors.contains(id));
        let (fresh, scene) = session(&TransportKind::Shm(Some(server.socket.clone())));
        sessions.push((4, fresh, scene));
        for round in 0..8 {
            for (id, ctx, scene) in &mut sessions {
                assert!(
                    frame(ctx, scene, round) == expected[round % DISTINCT_FRAMES],
                    "{mode}: session {id}, frame {round} after the crash"
                );
            }
        }
        for (id, ctx, _) in &mut sessions {
            assert_eq!(ctx.get_error(), NO_ERROR, "{mode}: session {id}");
            assert_eq!(
                ctx.get_graphics_reset_status(),
                NO_ERROR,
                "{mode}: session {id}"
            );
        }
    }
}

/// A capturing null-backend context through `kind`, or the reason it was refused.
fn try_session(kind: &TransportKind) -> Result<Context, String> {
    let config = Config {
        transport: kind.clone(),
        surface: Some(SurfaceConfig::new(8, 8)),
        capture: true,
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    Context::new(&config).map_err(|e| e.to_string())
}

/// Retries `kind` until a session is served (bounded): a session that ended is counted off
/// once its worker reported it, an instant after its client saw it end.
fn served_eventually(kind: &TransportKind, what: &str) -> Context {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match try_session(kind) {
            Ok(ctx) => return ctx,
            Err(e) if Instant::now() < deadline && e.contains("session limit") => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

#[test]
fn session_caps_refuse_with_their_reason() {
    for mode in ["process", "pool", "threads"] {
        let server = Server::start_with(&[
            "--isolation",
            mode,
            "--max-sessions",
            "3",
            "--max-sessions-per-user",
            "2",
        ]);
        // This process's user: it made the server's directory.
        let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&server.dir).unwrap());
        let shm = TransportKind::Shm(Some(server.socket.clone()));
        let unix = TransportKind::Unix(server.socket.clone());
        let tcp = server.tcp_kind(Some(server.secret.clone()));

        let a = try_session(&shm).expect("the user's first session");
        let _b = try_session(&unix).expect("the user's second session");
        let refused = try_session(&shm).map(drop).unwrap_err();
        let per_user = format!(
            "session limit reached for uid {uid}: 2 sessions already (the limit, \
             --max-sessions-per-user 2)"
        );
        assert!(refused.contains(&per_user), "{mode}: {refused}");

        // TCP peers count as one user of their own: one more fits the total.
        let _c = try_session(&tcp).expect("a remote session");
        let refused = try_session(&tcp).map(drop).unwrap_err();
        let total = "session limit reached: 3 sessions already (the limit, --max-sessions 3)";
        assert!(refused.contains(total), "{mode}: {refused}");
        for reason in [&per_user[..], total] {
            assert!(
                server
                    .wait_log(&["refused", reason], Duration::from_secs(5))
                    .is_some(),
                "{mode}: the refusal logged with its reason"
            );
        }

        // Once a session ends its place is free again; then TCP's own cap holds.
        drop(a);
        let _d = served_eventually(&tcp, mode);
        let refused = try_session(&tcp).map(drop).unwrap_err();
        assert!(
            refused.contains("session limit reached"),
            "{mode}: {refused}"
        );
        // The unix session's end frees a place, but the remote peers' cap still holds.
        drop(_b);
        let deadline = Instant::now() + Duration::from_secs(10);
        let refused = loop {
            match try_session(&tcp) {
                Err(e) if e.contains("--max-sessions 3") && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                other => break other.map(drop).unwrap_err(),
            }
        };
        assert!(
            refused.contains(
                "session limit reached for remote (TCP) peers: 2 sessions already (the limit, \
                 --max-sessions-per-user 2)"
            ),
            "{mode}: {refused}"
        );
    }
}

/// Whether a line of the server's stderr is one whole log record: a line that names the
/// server names it once, at its start. The server and its workers share one stderr; a
/// record written in pieces by one process while another writes its own reads as two
/// records spliced into one line, one of them seemingly lost.
fn whole(line: &str) -> bool {
    !line.contains("tessera-server[")
        || (line.starts_with("tessera-server[") && line.matches("tessera-server[").count() == 1)
}

/// A `tessera-bench` client of `server` drawing far more frames than it will live to draw.
fn endless_client(server: &Server) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tessera-bench"))
        .args(["--worker", "tessera:gles:shm", "--unix"])
        .arg(&server.socket)
        .args([
            "--scene",
            "statechange",
            "--draws",
            "50",
            "--frames",
            "100000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("a tessera-bench client")
}

/// A client that dies at any point of its session ends that session, in every mode: right
/// after connecting (not a byte sent), in the middle of its first frame header, and
/// mid-frame with its backend made (four clients killed at once, whose workers log their
/// ends at the same moment). Each end is logged on a line of its own — whole — with the
/// backend's census, and the server goes on serving.
#[test]
fn a_dead_client_ends_its_session_wherever_it_was() {
    tessera_tests::ensure_runtime_dir();
    const KILLED: usize = 4;
    for mode in ["process", "pool", "threads"] {
        let server = Server::start_with(&["--isolation", mode]);
        // Session 1: connected, then gone. Session 2: gone within its Hello's header.
        drop(UnixStream::connect(&server.socket).unwrap());
        assert!(
            server
                .wait_log(
                    &["session 1 (", "refused: the peer hung up"],
                    Duration::from_secs(20)
                )
                .is_some(),
            "{mode}: a client gone right after connecting ends its session: {:#?}",
            server.log()
        );
        let mut partial = UnixStream::connect(&server.socket).unwrap();
        partial.write_all(&[1, 0, 0]).unwrap();
        drop(partial);
        assert!(
            server
                .wait_log(&["session 2 (", "refused: "], Duration::from_secs(20))
                .is_some(),
            "{mode}: a client gone mid-handshake ends its session: {:#?}",
            server.log()
        );

        // Mid-frame: every client's backend is made and it draws; all are killed at once.
        let mut clients: Vec<Child> = (0..KILLED).map(|_| endless_client(&server)).collect();
        for c in &clients {
            let began = server.wait_log(
                &[&format!("(pid {} ", c.id()), "backend over"],
                Duration::from_secs(60),
            );
            assert!(began.is_some(), "{mode}: client {} began", c.id());
        }
        for c in &mut clients {
            c.kill().unwrap();
        }
        for c in &mut clients {
            c.wait().unwrap();
            let ended = server.wait_log(
                &[&format!("(pid {} ", c.id()), "ended: the client hung up"],
                Duration::from_secs(30),
            );
            let ended = ended.unwrap_or_else(|| {
                panic!(
                    "{mode}: the session of killed client {} never ended: {:#?}",
                    c.id(),
                    server.log()
                )
            });
            assert!(
                ended.ends_with("; 0 native objects left"),
                "{mode}: {ended}"
            );
        }
        let log = server.log();
        for line in &log {
            assert!(whole(line), "{mode}: a spliced log line: {line}");
        }
        for c in &clients {
            let ends = log
                .iter()
                .filter(|l| l.contains(&format!("(pid {} ", c.id())) && l.contains("ended:"))
                .count();
            assert_eq!(
                ends,
                1,
                "{mode}: client {}'s end logged once: {log:#?}",
                c.id()
            );
        }

        // The server goes on: a new session draws the native pixels.
        let expected = native_frames();
        let (mut ctx, scene) = session(&TransportKind::Shm(Some(server.socket.clone())));
        assert!(
            frame(&mut ctx, &scene, 1) == expected[1],
            "{mode}: a new session"
        );
    }
}
