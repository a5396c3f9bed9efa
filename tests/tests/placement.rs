//! Many devices behind one server, on a machine that does not exist: a synthetic topology
//! (`tessera-server --topology`) of four devices — two discrete, one integrated, one cpu,
//! with different memory budgets and speeds, each run on a real software driver (lavapipe
//! for `vulkan`, llvmpipe for `gles`) — and sixteen live sessions under each placement
//! policy. Where each session went is read from `tessera-server status` and asserted device
//! by device; every session draws the native driver's pixels on whatever device it got. A
//! pin names a device by index, UUID or name; a pin to a device that does not exist, or to
//! one whose memory budget is exhausted, is refused with a message naming the devices. A
//! lost device (`tessera-server lose N`, or a scripted `lost` event) ends exactly its
//! sessions, each with the context reset a dead server gives, and takes no new one.
//!
//! Sessions are numbered in the order the server accepts them, and each context below is
//! created (its handshake done) before the next, so session `k` is the `k`-th context.

use std::path::{Path, PathBuf};
use std::process::Command;

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};

use crate::isolation::{DISTINCT_FRAMES, H, Scene, W, frame, native_frames, setup};
use crate::transport::Server;

/// Four devices; a session is charged 64 MiB, so they take 8, 4, 4 and 2 sessions.
const TOPOLOGY: &str = r#"{"session_memory_mib": 64, "devices": [
    {"name": "discrete-a", "kind": "discrete", "budget_mib": 512, "speed": 4, "backend": "vulkan",
     "uuid": "d15c0000-0000-0000-0000-00000000000a"},
    {"name": "discrete-b", "kind": "discrete", "budget_mib": 256, "speed": 2, "backend": "gles",
     "uuid": "d15c0000-0000-0000-0000-00000000000b"},
    {"name": "integrated", "kind": "integrated", "budget_mib": 256, "speed": 1, "backend": "vulkan",
     "uuid": "16700000-0000-0000-0000-000000000001"},
    {"name": "cpu", "kind": "cpu", "budget_mib": 128, "speed": 0.5, "backend": "gles",
     "uuid": "c0000000-0000-0000-0000-000000000001"}]}"#;

/// The topology in a file of its own.
fn topology_file(tag: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "tessera-topology-{}-{tag}.json",
        std::process::id()
    ));
    std::fs::write(&path, TOPOLOGY).unwrap();
    path
}

/// A server on the four devices with `policy`, its sessions run as `isolation` says.
fn server(policy: &str, isolation: &str) -> Server {
    let topology = topology_file(policy);
    let server = Server::start_with(&[
        "--topology",
        topology.to_str().unwrap(),
        "--placement",
        policy,
        "--isolation",
        isolation,
    ]);
    let _ = std::fs::remove_file(topology);
    server
}

/// An `auto` session (the device decides the backend) pinned to `device`, or the reason it
/// was refused.
fn try_session(socket: &Path, device: Option<&str>) -> Result<Context, String> {
    let config = Config {
        backend: BackendKind::Auto,
        transport: TransportKind::Shm(Some(socket.to_owned())),
        device: device.map(str::to_owned),
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    Context::new(&config).map_err(|e| e.to_string())
}

/// What `tessera-server status` prints for the server on `socket`.
fn status(socket: &Path) -> String {
    let binary = tessera_engine::wire::transport::server_binary().expect("tessera-server");
    let out = Command::new(binary)
        .args(["status", "--unix", socket.to_str().unwrap()])
        .output()
        .expect("running tessera-server status");
    assert!(
        out.status.success(),
        "tessera-server status failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The device of each live session, in session order, from the status report.
fn placements(report: &str) -> Vec<usize> {
    let mut found: Vec<(u64, usize)> = report
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("session ")?;
            let (id, rest) = rest.split_once(": device ")?;
            let device = rest.split_whitespace().next()?;
            Some((id.parse().ok()?, device.parse().ok()?))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, d)| d).collect()
}

/// Sixteen sessions, created one after another with `pins`, each drawing the native
/// frames; returns them live, with where the status report says they run.
fn sixteen(
    server: &Server,
    pins: &[Option<&str>],
    expected: &[Vec<u8>],
) -> (Vec<Context>, Vec<usize>) {
    let mut live = Vec::new();
    for (k, pin) in pins.iter().enumerate() {
        let mut ctx = try_session(&server.socket, *pin)
            .unwrap_or_else(|e| panic!("session {}: {e}\n{}", k + 1, server.log().join("\n")));
        let scene: Scene = setup(&mut ctx);
        for (n, want) in expected.iter().enumerate().take(DISTINCT_FRAMES) {
            assert!(
                frame(&mut ctx, &scene, n) == *want,
                "session {}: frame {n} differs from the native driver's (on {})",
                k + 1,
                ctx.backend_name()
            );
        }
        assert_eq!(ctx.get_error(), NO_ERROR, "session {}", k + 1);
        live.push(ctx);
    }
    let report = status(&server.socket);
    (live, placements(&report))
}

#[test]
fn sixteen_sessions_go_where_each_policy_says_and_draw_native_pixels() {
    let expected = native_frames();
    let unpinned = [None; 16];
    // (policy, isolation, where sessions 1..=16 go)
    let cases: [(&str, &str, [usize; 16]); 5] = [
        (
            "pinned",
            "threads",
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
        ),
        (
            "round-robin",
            "pool",
            [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 0, 0],
        ),
        (
            // (sessions + 1 + memory / budget) / speed, the new session counted in.
            "least-loaded",
            "threads",
            [0, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0, 0, 1, 2, 3, 2],
        ),
        (
            "prefer-discrete",
            "process",
            [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 2, 2, 2],
        ),
        (
            // One client (this process): its sessions stay together while there is room.
            "affinity",
            "threads",
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
        ),
    ];
    for (policy, isolation, want) in cases {
        let server = server(policy, isolation);
        let (live, got) = sixteen(&server, &unpinned, &expected);
        assert_eq!(
            got, want,
            "{policy} ({isolation}): the device of each session"
        );
        // Every decision was logged with its reason and the policy.
        for session in 1..=16 {
            let needle = format!("session {session} (");
            assert!(
                server.log().iter().any(|l| l.contains(&needle)
                    && l.contains(&format!("placed on device {}: ", want[session - 1]))
                    && l.contains(&format!("(policy {policy})"))),
                "{policy}: session {session}'s placement logged"
            );
        }
        // Every policy filled the second discrete device: a pin to it is refused.
        let full = try_session(&server.socket, Some("discrete-b"))
            .map(drop)
            .unwrap_err();
        assert!(
            full.contains(
                "device 1: discrete-b (discrete, d15c0000-0000-0000-0000-00000000000b, 4 \
                 session(s), 256 of 256 MiB) takes no new session (its memory budget is \
                 exhausted"
            ),
            "{policy}: {full}"
        );
        drop(live);
    }
}

#[test]
fn pins_name_devices_by_index_uuid_or_name_and_a_missing_one_is_refused_naming_them() {
    let expected = native_frames();
    let server = server("least-loaded", "threads");
    let mut pins = vec![Some("d15c0000-0000-0000-0000-00000000000a"); 8];
    pins.extend([Some("discrete-b"); 4]);
    pins.extend([Some("2"), Some("INTEGRATED")]);
    pins.extend([Some("c0000000000000000000000000000001"), None]);
    let (live, got) = sixteen(&server, &pins, &expected);
    // The unpinned last one: the least loaded device with room, the integrated one.
    assert_eq!(got, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 2]);
    let missing = try_session(&server.socket, Some("titan"))
        .map(drop)
        .unwrap_err();
    assert!(
        missing.contains(
            "no device \"titan\" on this server (TESSERA_DEVICE); its devices: 0: discrete-a \
             (discrete, d15c0000-0000-0000-0000-00000000000a, 8 session(s), 512 of 512 MiB); \
             1: discrete-b (discrete, d15c0000-0000-0000-0000-00000000000b, 4 session(s), 256 \
             of 256 MiB); 2: integrated (integrated, 16700000-0000-0000-0000-000000000001, 3 \
             session(s), 192 of 256 MiB); 3: cpu (cpu, c0000000-0000-0000-0000-000000000001, 1 \
             session(s), 64 of 128 MiB)"
        ),
        "{missing}"
    );
    let report = status(&server.socket);
    for line in [
        "placement: least-loaded",
        "device 0: discrete-a [synthetic] kind discrete uuid d15c0000-0000-0000-0000-00000000000a backends vulkan speed 4 sessions 8 memory 512/512 MiB fps ",
        "device 3: cpu [synthetic] kind cpu uuid c0000000-0000-0000-0000-000000000001 backends gles speed 0.5 sessions 1 memory 64/128 MiB fps ",
    ] {
        assert!(
            report.lines().any(|l| l == line
                || (line.ends_with(" fps ") && l.starts_with(line) && l.ends_with(" synthetic"))),
            "status lacks {line:?}:\n{report}"
        );
    }
    // Sessions that end give their device's memory back.
    drop(live);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let report = status(&server.socket);
        if report.contains("sessions 0 memory 0/512 MiB") || std::time::Instant::now() > deadline {
            assert!(report.contains("sessions 0 memory 0/512 MiB"), "{report}");
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `tessera-server lose N` on the server at `socket`: what it answered.
fn lose(socket: &Path, device: usize) -> String {
    let binary = tessera_engine::wire::transport::server_binary().expect("tessera-server");
    let out = Command::new(binary)
        .args([
            "lose",
            &device.to_string(),
            "--unix",
            socket.to_str().unwrap(),
        ])
        .output()
        .expect("running tessera-server lose");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_lost_device_ends_exactly_its_sessions_and_new_ones_go_elsewhere() {
    let expected = native_frames();
    for isolation in ["threads", "process"] {
        let server = server("round-robin", isolation);
        // Sessions 1-4, one on each device (round robin); session 2 runs on device 1.
        let mut sessions: Vec<(Context, Scene)> = (0..4)
            .map(|_| {
                let mut ctx = try_session(&server.socket, None).unwrap();
                let scene = setup(&mut ctx);
                (ctx, scene)
            })
            .collect();
        assert_eq!(placements(&status(&server.socket)), [0, 1, 2, 3]);
        for (ctx, scene) in &mut sessions {
            assert!(
                frame(ctx, scene, 0) == expected[0],
                "{isolation}: before the loss"
            );
        }
        assert_eq!(lose(&server.socket, 1), "lost; sessions ended: [2]\n");
        // The lost device's session sees the end as a dead server's, in the frame it draws
        // next (a worker hears of the loss an instant after the server: at the latest the
        // frame after); the others go on drawing the native frames.
        let mut lost_in = None;
        for round in 1..=3 {
            for (k, (ctx, scene)) in sessions.iter_mut().enumerate() {
                if k == 1 && lost_in.is_some() {
                    continue;
                }
                let pixels = frame(ctx, scene, round);
                if k == 1 && ctx.is_lost() {
                    lost_in = Some(round);
                    continue;
                }
                assert!(!ctx.is_lost(), "{isolation}: session {} was lost", k + 1);
                assert!(
                    pixels == expected[round % DISTINCT_FRAMES],
                    "{isolation}: session {}, frame {round}",
                    k + 1
                );
            }
        }
        let lost_in = lost_in.expect("the lost device's session ended");
        assert!(lost_in <= 2, "{isolation}: lost in frame {lost_in}");
        for (k, (ctx, _)) in sessions.iter_mut().enumerate() {
            let want = if k == 1 {
                UNKNOWN_CONTEXT_RESET
            } else {
                NO_ERROR
            };
            assert_eq!(
                ctx.get_graphics_reset_status(),
                want,
                "{isolation}: session {}",
                k + 1
            );
        }
        assert!(
            server
                .wait_log(
                    &["session 2: ended: its device 1 was lost"],
                    std::time::Duration::from_secs(5)
                )
                .is_some(),
            "{isolation}: the loss logged"
        );
        // A pin to the lost device is refused; a new session goes elsewhere (round robin's
        // next device with room, device 0).
        let refused = try_session(&server.socket, Some("1"))
            .map(drop)
            .unwrap_err();
        assert!(
            refused.contains("takes no new session (it was lost"),
            "{isolation}: {refused}"
        );
        let mut ctx = try_session(&server.socket, None).unwrap();
        let scene = setup(&mut ctx);
        assert!(frame(&mut ctx, &scene, 0) == expected[0]);
        let report = status(&server.socket);
        let mut got = placements(&report);
        got.sort();
        assert_eq!(got, [0, 0, 2, 3], "{isolation}: {report}");
        assert!(
            report.contains("sessions 0 memory 0/256 MiB fps 0.0 synthetic lost"),
            "{report}"
        );
    }
}

#[test]
fn a_device_lost_by_its_script_takes_no_session() {
    let topology =
        std::env::temp_dir().join(format!("tessera-topology-{}-lost.json", std::process::id()));
    std::fs::write(
        &topology,
        TOPOLOGY.replace(
            r#""uuid": "d15c0000-0000-0000-0000-00000000000a"}"#,
            r#""uuid": "d15c0000-0000-0000-0000-00000000000a", "events": [{"at_s": 0, "lost": true}]}"#,
        ),
    )
    .unwrap();
    let server = Server::start_with(&[
        "--topology",
        topology.to_str().unwrap(),
        "--isolation",
        "threads",
    ]);
    let _ = std::fs::remove_file(&topology);
    let expected = native_frames();
    let mut ctx = try_session(&server.socket, None).unwrap();
    let scene = setup(&mut ctx);
    assert!(frame(&mut ctx, &scene, 0) == expected[0]);
    let report = status(&server.socket);
    // least-loaded (the default) would have chosen device 0; it was lost at start.
    assert!(report.contains("placement: least-loaded"), "{report}");
    assert!(
        report.contains("sessions 0 memory 0/512 MiB fps 0.0 synthetic lost"),
        "{report}"
    );
    assert_eq!(placements(&report), [1]);
}

/// The frames per second the status gives a session (`fps X`), if it lists it.
fn fps_of(report: &str, session: u64) -> Option<f64> {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("session {session}: ")))?;
    let (_, rest) = line.rsplit_once(" fps ")?;
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
fn status_shows_the_frames_per_second_of_a_drawing_session() {
    let expected = native_frames();
    for isolation in ["threads", "process"] {
        let server = server("least-loaded", isolation);
        let mut ctx = try_session(&server.socket, None).unwrap();
        let scene = setup(&mut ctx);
        // Draws (every frame checked) until the status reports frames per second for the
        // session, or gives up after a bounded number of frames: sessions report their
        // applied batches every half second while they draw.
        let mut shown = None;
        for n in 0..20_000 {
            assert!(frame(&mut ctx, &scene, n) == expected[n % DISTINCT_FRAMES]);
            if n % 50 == 49 {
                let report = status(&server.socket);
                let fps = fps_of(&report, 1).expect("session 1 in the status");
                if fps > 0.0 {
                    shown = Some(report);
                    break;
                }
            }
        }
        let report = shown.expect("the status showed the session's frames per second");
        // The session's device shows the same rate.
        let device = placements(&report)[0];
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("device {device}: ")))
            .unwrap();
        let device_fps: f64 = line
            .split(" fps ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        assert_eq!(
            format!("{device_fps:.1}"),
            format!("{:.1}", fps_of(&report, 1).unwrap()),
            "{isolation}: {report}"
        );
    }
}

#[test]
fn a_device_lost_after_its_scripted_frames_ends_exactly_its_sessions() {
    let expected = native_frames();
    for isolation in ["threads", "process"] {
        let topology = std::env::temp_dir().join(format!(
            "tessera-topology-{}-frames-{isolation}.json",
            std::process::id()
        ));
        std::fs::write(
            &topology,
            TOPOLOGY.replace(
                r#""uuid": "d15c0000-0000-0000-0000-00000000000b"}"#,
                r#""uuid": "d15c0000-0000-0000-0000-00000000000b", "events": [{"after_frames": 40, "lost": true}]}"#,
            ),
        )
        .unwrap();
        let server = Server::start_with(&[
            "--topology",
            topology.to_str().unwrap(),
            "--placement",
            "round-robin",
            "--isolation",
            isolation,
        ]);
        let _ = std::fs::remove_file(&topology);
        // Sessions 1-4, one per device: session 2 on device 1, which is lost once its
        // sessions applied 40 frames (reported every half second). A frame on the server
        // is a batch, and the session's setup sent batches too, so the loss may come before
        // the program's 40th frame, but never before the session sent 40 batches.
        let mut sessions: Vec<(Context, Scene)> = (0..4)
            .map(|_| {
                let mut ctx = try_session(&server.socket, None).unwrap();
                let scene = setup(&mut ctx);
                (ctx, scene)
            })
            .collect();
        let mut lost = false;
        for round in 0..20_000 {
            for (k, (ctx, scene)) in sessions.iter_mut().enumerate() {
                if k == 1 && lost {
                    continue;
                }
                let pixels = frame(ctx, scene, round);
                if ctx.is_lost() {
                    assert_eq!(k, 1, "{isolation}: only device 1's session is lost");
                    let sent = ctx.transport_stats().batches;
                    assert!(
                        sent >= 40,
                        "{isolation}: lost after {sent} batches (frame {round})"
                    );
                    lost = true;
                    continue;
                }
                assert!(
                    pixels == expected[round % DISTINCT_FRAMES],
                    "{isolation}: session {}, frame {round}",
                    k + 1
                );
            }
            if lost && round % 10 == 0 {
                break;
            }
        }
        assert!(lost, "{isolation}: device 1's session was never lost");
        for (k, (ctx, _)) in sessions.iter_mut().enumerate() {
            let want = if k == 1 {
                UNKNOWN_CONTEXT_RESET
            } else {
                NO_ERROR
            };
            assert_eq!(
                ctx.get_graphics_reset_status(),
                want,
                "{isolation}: session {}",
                k + 1
            );
        }
        assert!(
            server
                .wait_log(
                    &["device 1 (discrete-b): lost (scripted after 40 frames)"],
                    std::time::Duration::from_secs(5)
                )
                .is_some(),
            "{isolation}: the loss logged"
        );
    }
}

#[test]
fn this_machine_s_own_devices_run_the_sessions_pinned_to_them() {
    tessera_tests::ensure_lavapipe();
    let expected = native_frames();
    // No topology: the devices are the ones discovery finds (lavapipe's Vulkan device and
    // the native EGL's here).
    let server = Server::start_with(&["--placement", "pinned", "--isolation", "threads"]);
    let report = status(&server.socket);
    let devices: Vec<(usize, String, String)> = report
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("device ")?;
            let (index, rest) = rest.split_once(": ")?;
            let uuid = rest.split(" uuid ").nth(1)?.split_whitespace().next()?;
            let backends = rest.split(" backends ").nth(1)?.split(" speed ").next()?;
            Some((index.parse().ok()?, uuid.to_owned(), backends.to_owned()))
        })
        .collect();
    assert!(
        devices.iter().any(|(_, _, b)| b == "vulkan"),
        "discovery found lavapipe: {report}"
    );
    let mut live = Vec::new();
    // A device no backend drives by its identity (one of several EGL devices) lists none.
    for (index, uuid, backends) in devices.iter().filter(|(_, _, b)| !b.is_empty()) {
        let mut ctx = try_session(&server.socket, Some(uuid)).unwrap_or_else(|e| {
            panic!("a session pinned to device {index} ({backends}): {e}\n{report}")
        });
        assert_eq!(ctx.backend_name(), backends.split(',').next().unwrap());
        let scene = setup(&mut ctx);
        for (n, want) in expected.iter().enumerate() {
            assert!(
                frame(&mut ctx, &scene, n) == *want,
                "device {index} ({backends}): frame {n}"
            );
        }
        live.push((*index, ctx));
    }
    let placed = placements(&status(&server.socket));
    assert_eq!(
        placed,
        live.iter().map(|(index, _)| *index).collect::<Vec<_>>()
    );
}

/// `program` run as user 4321, group 4321, with the supplementary `groups`: its exit
/// status, stdout and stderr.
#[expect(
    unsafe_code,
    reason = "the child changes its user between fork and exec"
)]
fn run_as_other_user(
    program: &Path,
    args: &[&str],
    groups: &[u32],
    env: &[(&str, &str)],
) -> (bool, String, String) {
    use std::os::unix::process::CommandExt;
    let groups = groups.to_vec();
    let mut command = Command::new(program);
    command
        .args(args)
        .env_clear()
        .env("TESSERA_CACHE", "off")
        .envs(env.iter().copied());
    // SAFETY: the closure runs in the forked child before exec and only makes system calls
    // (no allocation: `groups` was copied before the fork).
    unsafe {
        command.pre_exec(move || {
            let check = |rc: i32| {
                if rc == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            };
            check(libc::setgroups(groups.len(), groups.as_ptr()))?;
            check(libc::setgid(4321))?;
            check(libc::setuid(4321))
        });
    }
    let out = command.output().expect("running a child as user 4321");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The unix socket admits members of the server's group by a supplementary group (as the
/// kernel recorded them at `connect`) and refuses others with their credentials, even with
/// the socket file's mode widened to everyone; under `--pin-allowed gid:4243` only members
/// of group 4243 (and root, and the server's user) may pin a device, the others are refused
/// when they pin and placed by the policy when they do not.
#[test]
#[expect(unsafe_code, reason = "reads this process's user and group")]
fn supplementary_groups_admit_and_only_allowed_clients_pin_a_device() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: changing to another user needs root");
        return;
    }
    // SAFETY: getegid has no preconditions.
    let server_gid = unsafe { libc::getegid() };
    let topology = topology_file("pin-allowed");
    let server = Server::start_with(&[
        "--topology",
        topology.to_str().unwrap(),
        "--placement",
        "round-robin",
        "--isolation",
        "threads",
        "--pin-allowed",
        "gid:4243",
    ]);
    let _ = std::fs::remove_file(topology);
    let socket = server.socket.to_str().unwrap().to_owned();
    std::fs::set_permissions(
        &server.socket,
        std::os::unix::fs::PermissionsExt::from_mode(0o666),
    )
    .unwrap();
    let tessera_server = tessera_engine::wire::transport::server_binary().expect("tessera-server");
    let status_as = |groups: &[u32]| {
        run_as_other_user(&tessera_server, &["status", "--unix", &socket], groups, &[])
    };

    let (ok, out, err) = status_as(&[4242, server_gid]);
    assert!(
        ok,
        "a member of the server's group by a supplementary group: {err}"
    );
    assert!(out.starts_with("sessions: 0 "), "{out}");
    let (ok, _, err) = status_as(&[4242]);
    assert!(!ok);
    assert!(
        err.contains(&format!(
            "uid 4321 gid 4321 is neither root, the server's user 0, nor a member of its group \
             {server_gid}"
        )),
        "{err}"
    );

    let demo = PathBuf::from(env!("CARGO_BIN_EXE_tessera-demo"));
    let transport = format!("shm:{socket}");
    let demo_as = |groups: &[u32], device: Option<&str>| {
        let mut env = vec![("TESSERA_TRANSPORT", transport.as_str())];
        env.extend(device.map(|d| ("TESSERA_DEVICE", d)));
        run_as_other_user(
            &demo,
            &["--frames", "1", "--size", "32x32", "--out", "/dev/null"],
            groups,
            &env,
        )
    };
    let (ok, _, err) = demo_as(&[server_gid], Some("discrete-b"));
    assert!(!ok);
    assert!(
        err.contains(
            "this client may not pin a device (TESSERA_DEVICE=\"discrete-b\"; the server allows \
             pins from: gid:4243); connect without a device to get the placement policy's choice"
        ),
        "{err}"
    );
    let (ok, out, err) = demo_as(&[server_gid, 4243], Some("discrete-b"));
    assert!(ok, "a member of group 4243 pins: {err}");
    // discrete-b is the topology's one discrete GLES device.
    assert!(out.contains("\n  backend      gles "), "{out}");
    let (ok, out, err) = demo_as(&[server_gid], None);
    assert!(ok, "no pin, the policy's choice: {err}");
    // Round robin gives it a Vulkan device (0 or 2: none of the refused pin's doing).
    assert!(out.contains("\n  backend      vulkan "), "{out}");
}

/// The memory `tessera-server status` says the live session on `device` holds (MiB), once
/// `enough` accepts it: the session finishes a frame between reads, since a session reports
/// its memory with its progress, at most every half second while it applies batches.
fn measured_memory(
    socket: &Path,
    ctx: &mut Context,
    device: usize,
    enough: impl Fn(f64) -> bool,
) -> f64 {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        ctx.finish();
        let report = status(socket);
        let memory = report.lines().find_map(|l| {
            let rest = l.strip_prefix("session ")?;
            if !rest.contains(&format!(": device {device} ")) {
                return None;
            }
            let (_, rest) = rest.split_once(" memory ")?;
            rest.strip_suffix(" charged 64 MiB")?
                .strip_suffix(" MiB")?
                .parse::<f64>()
                .ok()
        });
        match memory {
            Some(m) if enough(m) => return m,
            _ if std::time::Instant::now() > deadline => {
                panic!("no measured memory for device {device} accepted in time:\n{report}")
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(100)),
        }
    }
}

/// Each session's device memory as its backend measures it (Vulkan: its allocator's blocks;
/// GLES: its buffers' and textures' sizes) is in the status next to the session's charge: a
/// 32 MiB buffer adds at least that much to what the session held empty, on either backend
/// (an empty Vulkan session already holds its allocator's first block, which its arena
/// uses, so the buffer needs new memory).
#[test]
fn status_reports_what_each_session_holds_on_its_device() {
    const TWO: &str = r#"{"session_memory_mib": 64, "devices": [
        {"name": "vk", "kind": "discrete", "budget_mib": 1024, "speed": 1, "backend": "vulkan",
         "uuid": "d15c0000-0000-0000-0000-0000000000a1"},
        {"name": "gl", "kind": "discrete", "budget_mib": 1024, "speed": 1, "backend": "gles",
         "uuid": "d15c0000-0000-0000-0000-0000000000b1"}]}"#;
    let path = std::env::temp_dir().join(format!(
        "tessera-topology-{}-measured.json",
        std::process::id()
    ));
    std::fs::write(&path, TWO).unwrap();
    let server = Server::start_with(&[
        "--topology",
        path.to_str().unwrap(),
        "--isolation",
        "threads",
    ]);
    let _ = std::fs::remove_file(path);
    const BUFFER: f64 = 32.0;
    for (device, backend) in [(0, "vulkan"), (1, "gles")] {
        let mut ctx = try_session(&server.socket, Some(&device.to_string())).unwrap();
        assert_eq!(ctx.backend_name(), backend);
        let empty = measured_memory(&server.socket, &mut ctx, device, |_| true);
        let mut buffer = [0];
        ctx.create_buffers(1, &mut buffer);
        ctx.named_buffer_data(buffer[0], 32 << 20, None, STATIC_DRAW);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let held = measured_memory(&server.socket, &mut ctx, device, |m| m >= empty + BUFFER);
        eprintln!("{backend}: an empty session holds {empty} MiB, with a 32 MiB buffer {held} MiB");
        if backend == "gles" {
            // GLES counts texture images too: 2048x2048 RGBA8 over 12 levels is 16 MiB, 21.3
            // with its mipmaps (Vulkan's image may fit the buffer's block: no growth to
            // assert there).
            let mut texture = [0];
            ctx.create_textures(TEXTURE_2D, 1, &mut texture);
            ctx.texture_storage_2d(texture[0], 12, RGBA8, 2048, 2048);
            assert_eq!(ctx.get_error(), NO_ERROR);
            let mips = 16.0 * (1.0 + 1.0 / 3.0) - 1.0;
            let with_texture =
                measured_memory(&server.socket, &mut ctx, device, |m| m >= held + mips);
            eprintln!("gles: with a 2048x2048 RGBA8 mipmapped texture too {with_texture} MiB");
        }
    }
}
