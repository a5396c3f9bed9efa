//! Alternate-frame rendering: one session on two synthetic devices (`TESSERA_DEVICE=A+B`),
//! frame `N` on device `N mod 2`, every frame read back exactly as the same session draws it
//! on one device, in order — a plain scene, a feedback scene where each frame samples the
//! texture the previous frame rendered into, and a scene where each frame copies the
//! buffer the previous frame's copy wrote (the server carries both from one device to the
//! other), and a presenting session whose frames read back in their middle. `tessera-server status` shows the session on both devices; pins that
//! cannot give two devices are refused naming the devices. The server's CPU per frame and
//! the bytes carried are printed (measured, never asserted).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::gl::Gl;
use tessera_tests::scenes::{FEEDBACK_FS, FULL_TRIANGLE_VS, link_program};

use crate::isolation::{self, H, W};
use crate::transport::Server;

/// Two GLES devices and two Vulkan devices, each run on its software driver.
const TOPOLOGY: &str = r#"{"session_memory_mib": 64, "devices": [
    {"name": "gles-a", "kind": "discrete", "budget_mib": 512, "backend": "gles",
     "uuid": "afa00000-0000-0000-0000-00000000000a"},
    {"name": "gles-b", "kind": "discrete", "budget_mib": 512, "backend": "gles",
     "uuid": "afa00000-0000-0000-0000-00000000000b"},
    {"name": "vk-a", "kind": "discrete", "budget_mib": 512, "backend": "vulkan",
     "uuid": "afb00000-0000-0000-0000-00000000000a"},
    {"name": "vk-b", "kind": "integrated", "budget_mib": 512, "backend": "vulkan",
     "uuid": "afb00000-0000-0000-0000-00000000000b"}]}"#;

/// Frames of each scene.
const FRAMES: usize = 8;
/// Frames measured for the CPU figures.
const MEASURED: usize = 24;
/// Size of the feedback scene's render targets.
const FB: i32 = 64;

fn server() -> Server {
    let path: PathBuf =
        std::env::temp_dir().join(format!("tessera-topology-afr-{}.json", std::process::id()));
    std::fs::write(&path, TOPOLOGY).unwrap();
    let server = Server::start_with(&["--topology", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(path);
    server
}

/// An `auto` session (the devices decide the backend) pinned to `device`.
fn session(socket: &Path, device: &str) -> Result<Context, String> {
    let config = Config {
        backend: BackendKind::Auto,
        transport: TransportKind::Shm(Some(socket.to_owned())),
        device: Some(device.to_owned()),
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    Context::new(&config).map_err(|e| e.to_string())
}

fn status(socket: &Path) -> String {
    let binary = tessera_engine::wire::transport::server_binary().expect("tessera-server");
    let out = Command::new(binary)
        .args(["status", "--unix", socket.to_str().unwrap()])
        .output()
        .expect("running tessera-server status");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The feedback scene: two render targets, frame `n` draws into `n mod 2` sampling the other.
struct Feedback {
    program: GLuint,
    k: GLint,
    textures: [GLuint; 2],
    framebuffers: [GLuint; 2],
}

fn feedback_setup(gl: &mut dyn Gl) -> Feedback {
    let program = link_program(gl, FULL_TRIANGLE_VS, FEEDBACK_FS);
    let k = gl.get_uniform_location(program, "k");
    let previous = gl.get_uniform_location(program, "previous");
    gl.use_program(program);
    gl.uniform1i(previous, 0);
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let mut textures = [0; 2];
    let mut framebuffers = [0; 2];
    // A seed image uploaded into the first target: uploads go to both devices.
    let seed: Vec<u8> = (0..FB * FB * 4).map(|i| (i * 37 % 251) as u8).collect();
    for i in 0..2 {
        textures[i] = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, textures[i]);
        gl.tex_image_2d(
            TEXTURE_2D,
            0,
            RGBA8 as GLint,
            FB,
            FB,
            0,
            RGBA,
            UNSIGNED_BYTE,
            (i == 1).then_some(&seed[..]),
        );
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
        framebuffers[i] = gl.gen_framebuffer();
        gl.bind_framebuffer(FRAMEBUFFER, framebuffers[i]);
        gl.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, textures[i], 0);
        assert_eq!(
            gl.check_framebuffer_status(FRAMEBUFFER),
            FRAMEBUFFER_COMPLETE
        );
    }
    Feedback {
        program,
        k,
        textures,
        framebuffers,
    }
}

/// Draws feedback frame `n` into target `n mod 2`, sampling the other, and reads it back.
fn feedback_frame(gl: &mut dyn Gl, scene: &Feedback, n: usize) -> Vec<u8> {
    let (target, previous) = (n % 2, 1 - n % 2);
    gl.bind_framebuffer(FRAMEBUFFER, scene.framebuffers[target]);
    gl.viewport(0, 0, FB, FB);
    gl.use_program(scene.program);
    gl.uniform1f(scene.k, n as f32 * 0.01);
    gl.active_texture(TEXTURE0);
    gl.bind_texture(TEXTURE_2D, scene.textures[previous]);
    gl.draw_arrays(TRIANGLES, 0, 3);
    let mut pixels = vec![0u8; (FB * FB * 4) as usize];
    gl.pixel_storei(PACK_ALIGNMENT, 4);
    gl.read_pixels(0, 0, FB, FB, RGBA, UNSIGNED_BYTE, &mut pixels);
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    pixels
}

/// Bytes of each buffer of the buffer scene.
const BUFFER: usize = 4096;

/// The buffer scene: two buffers, frame `n` copies buffer `n mod 2` rotated by 4 bytes into
/// the other (GPU copies, which the server carries) and reads that one back.
fn buffer_setup(ctx: &mut Context) -> [GLuint; 2] {
    let seed: Vec<u8> = (0..BUFFER).map(|i| (i * 13 % 247) as u8).collect();
    let buffers = [ctx.gen_buffer(), ctx.gen_buffer()];
    for (i, b) in buffers.iter().enumerate() {
        ctx.bind_buffer(COPY_WRITE_BUFFER, *b);
        ctx.buffer_data(
            COPY_WRITE_BUFFER,
            BUFFER as GLsizeiptr,
            (i == 0).then_some(&seed[..]),
            DYNAMIC_COPY,
        );
    }
    buffers
}

fn buffer_frame(ctx: &mut Context, buffers: &[GLuint; 2], n: usize) -> Vec<u8> {
    let (src, dst) = (buffers[n % 2], buffers[1 - n % 2]);
    ctx.bind_buffer(COPY_READ_BUFFER, src);
    ctx.bind_buffer(COPY_WRITE_BUFFER, dst);
    let size = BUFFER as GLsizeiptr;
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 4, 0, size - 4);
    ctx.copy_buffer_sub_data(COPY_READ_BUFFER, COPY_WRITE_BUFFER, 0, size - 4, 4);
    let mut out = vec![0u8; BUFFER];
    ctx.get_buffer_sub_data(COPY_WRITE_BUFFER, 0, size, &mut out);
    out
}

/// The server's CPU time (user, system) in nanoseconds.
fn server_cpu(ctx: &Context) -> (u64, u64) {
    let probe = ctx.server_probe().expect("the server's probe");
    (probe.cpu_user_ns, probe.cpu_sys_ns)
}

/// What one session drew: its plain frames, its feedback frames, and the server's CPU per
/// plain and per feedback frame over [`MEASURED`] more frames of each.
type Drawn = (Vec<Vec<u8>>, Vec<Vec<u8>>, [Cpu; 2]);

/// The server's CPU per frame, user and system, in µs.
type Cpu = (f64, f64);

/// The server's CPU per frame while `frames` draws [`MEASURED`] frames.
fn measure(ctx: &mut Context, mut frames: impl FnMut(&mut Context, usize)) -> Cpu {
    let before = server_cpu(ctx);
    for n in FRAMES..FRAMES + MEASURED {
        frames(ctx, n);
    }
    let after = server_cpu(ctx);
    let per_frame = |a: u64, b: u64| (b - a) as f64 / 1e3 / MEASURED as f64;
    (per_frame(before.0, after.0), per_frame(before.1, after.1))
}

/// Frames of a session that presents: after one present (which makes it a presenting
/// session), each frame clears and draws, reads back in its middle, clears a corner and
/// reads back again, then presents. Both reads of a frame must come from the device that
/// drew it: the middle read does not end the frame.
fn presenting_frames(ctx: &mut Context) -> Vec<Vec<u8>> {
    let scene = isolation::setup(ctx);
    ctx.swap_buffers();
    (0..FRAMES)
        .map(|n| {
            let mut both = isolation::frame(ctx, &scene, n);
            ctx.enable(SCISSOR_TEST);
            ctx.scissor(0, 0, 8, 8);
            ctx.clear_color(0.0, 0.0, 0.0, 1.0);
            ctx.clear(COLOR_BUFFER_BIT);
            ctx.disable(SCISSOR_TEST);
            let end = tessera_tests::differential::read_back(ctx, W, H);
            assert!(end != both, "the corner's clear changed nothing");
            both.extend(end);
            ctx.swap_buffers();
            both
        })
        .collect()
}

/// What one session on `device` draws.
fn run(socket: &Path, device: &str) -> Drawn {
    let mut ctx = session(socket, device).unwrap_or_else(|e| panic!("{device}: {e}"));
    let scene = isolation::setup(&mut ctx);
    let plain: Vec<_> = (0..FRAMES)
        .map(|n| isolation::frame(&mut ctx, &scene, n))
        .collect();
    let plain_cpu = measure(&mut ctx, |ctx, n| {
        isolation::frame(ctx, &scene, n);
    });
    let scene = feedback_setup(&mut ctx);
    let feedback: Vec<_> = (0..FRAMES)
        .map(|n| feedback_frame(&mut ctx, &scene, n))
        .collect();
    let feedback_cpu = measure(&mut ctx, |ctx, n| {
        feedback_frame(ctx, &scene, n);
    });
    assert_eq!(ctx.get_error(), NO_ERROR, "{device}");
    (plain, feedback, [plain_cpu, feedback_cpu])
}

/// The server's `alternate-frame rendering ...` line, once the session ended.
fn afr_line(server: &Server, devices: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(line) = server
            .log()
            .into_iter()
            .find(|l| l.contains("alternate-frame rendering on") && l.contains(devices))
        {
            return line;
        }
        assert!(
            Instant::now() < deadline,
            "no alternate-frame line for {devices}:\n{}",
            server.log().join("\n")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn alternate_frames_on_two_devices_draw_exactly_what_one_device_draws() {
    let server = server();
    let native = isolation::native_frames();
    for (one, two, names) in [("0", "0+1", "gles-a"), ("2", "2+3", "vk-a")] {
        let (plain1, feedback1, [plain_cpu1, feedback_cpu1]) = run(&server.socket, one);
        // The session on two devices, live while the status is read.
        let mut ctx = session(&server.socket, two).unwrap_or_else(|e| panic!("{two}: {e}"));
        let report = status(&server.socket);
        let (first, second) = two.split_once('+').unwrap();
        assert!(
            report.lines().any(|l| l.starts_with("session ")
                && l.contains(&format!(": device {first} "))
                && l.ends_with(&format!("alternate-frame with device {second}"))),
            "{report}"
        );
        for device in [first, second] {
            assert!(
                report
                    .lines()
                    .any(|l| l.starts_with(&format!("device {device}: "))
                        && l.contains(" sessions 1 ")),
                "device {device} does not count the session:\n{report}"
            );
        }
        let scene = isolation::setup(&mut ctx);
        for n in 0..FRAMES {
            let frame = isolation::frame(&mut ctx, &scene, n);
            assert!(
                frame == plain1[n],
                "{two}: plain frame {n} differs from {one}'s"
            );
            assert!(
                frame == native[n % native.len()],
                "{two}: plain frame {n} differs from the native driver's"
            );
        }
        let plain_cpu2 = measure(&mut ctx, |ctx, n| {
            isolation::frame(ctx, &scene, n);
        });
        // Buffers written by the GPU are carried too: frame `n` holds the seed rotated by
        // `4 (n + 1)` bytes only if each frame started from the previous frame's copy.
        let buffers = buffer_setup(&mut ctx);
        let seed: Vec<u8> = (0..BUFFER).map(|i| (i * 13 % 247) as u8).collect();
        for n in 0..FRAMES {
            let mut want = seed.clone();
            want.rotate_left(4 * (n + 1) % BUFFER);
            assert!(
                buffer_frame(&mut ctx, &buffers, n) == want,
                "{two}: buffer frame {n} is not the previous frame's copy, rotated"
            );
        }
        let scene = feedback_setup(&mut ctx);
        for (n, want) in feedback1.iter().enumerate() {
            assert!(
                feedback_frame(&mut ctx, &scene, n) == *want,
                "{two}: feedback frame {n} differs from {one}'s"
            );
        }
        // The frames really differ: each depends on the one before it.
        assert!(feedback1.windows(2).all(|w| w[0] != w[1]));
        let feedback_cpu2 = measure(&mut ctx, |ctx, n| {
            feedback_frame(ctx, &scene, n);
        });
        // A presenting session's frames end at its presents only.
        let presented = presenting_frames(&mut ctx);
        let mut alone = session(&server.socket, one).unwrap_or_else(|e| panic!("{one}: {e}"));
        assert!(
            presented == presenting_frames(&mut alone),
            "{two}: a presenting session's frames differ from {one}'s"
        );
        drop(alone);
        assert_eq!(ctx.get_error(), NO_ERROR, "{two}");
        drop(ctx);
        let line = afr_line(&server, names);
        eprintln!(
            "{two}: server CPU per frame (µs user + system), plain {:.0} + {:.0} (on {one} \
             alone {:.0} + {:.0}), feedback {:.0} + {:.0} (on {one} alone {:.0} + {:.0}); {line}",
            plain_cpu2.0,
            plain_cpu2.1,
            plain_cpu1.0,
            plain_cpu1.1,
            feedback_cpu2.0,
            feedback_cpu2.1,
            feedback_cpu1.0,
            feedback_cpu1.1
        );
        // Only the feedback frames' targets and the buffer frames' copies were carried,
        // each whole (FB x FB RGBA8, BUFFER bytes); the plain scene draws into the surface
        // and clears it each frame, so nothing of it, nor the presenting frames. Every frame
        // of each scene ended a frame; of the presenting frames, each present (the first
        // one's too) and none of the read-backs in their middle.
        assert!(
            line.contains(&format!(": {} frames, ", 4 * FRAMES + 2 * MEASURED + 1)),
            "{line}"
        );
        let carried: u64 = line
            .split(" bytes carried")
            .next()
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no byte count in {line:?}"));
        assert_eq!(
            carried,
            (FB * FB * 4) as u64 * (FRAMES + MEASURED) as u64 + (BUFFER * FRAMES) as u64,
            "{line}"
        );
    }
}

#[test]
fn pins_that_cannot_give_two_devices_are_refused_naming_the_devices() {
    let server = server();
    for (pin, says) in [
        ("0+0", "needs two devices"),
        ("0+2", "cannot run the gles backend"),
        ("0+7", "no device \"7\""),
    ] {
        let err = session(&server.socket, pin)
            .err()
            .unwrap_or_else(|| panic!("{pin} was taken"));
        assert!(err.contains(says), "{pin}: {err}");
        assert!(
            err.contains("gles-a") && err.contains("vk-b"),
            "{pin}: {err}"
        );
    }
}
