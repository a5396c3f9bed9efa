//! GLX beyond drawing (`tests/window/glx_errors.c`): configs and visuals, the errors
//! `glXCreateContextAttribsARB` sends through Xlib's error handler, a debug context's flags
//! (`GLX_CONTEXT_DEBUG_BIT_ARB`), pbuffers, a window's size after a resize, swap intervals,
//! and a window destroyed under the current context (no crash, the context released
//! cleanly). Every line equals the native driver's on the same Xvfb,
//! except the two where Tessera differs by design, whose values are asserted.
//!
//! A single-buffered GLX window (`tests/window/glx_single.c`): drawn and shown by `glFlush`,
//! `glFinish`, `glXWaitGL` and the implicit flush of `glXSwapBuffers`, with `FRONT` as its
//! draw and read buffer; every line, the window's pixels after each included, equals the
//! native driver's on both backends, in process and over shared memory, and with the GLES
//! backend presenting the window itself.

use std::process::Command;

use super::{Frame, Session, Transport, Xvfb};
use crate::dropin::{dropin_dir, profile_dir, root};

/// Compiles the program into `<target>/<profile>/window/` (under a name of this process,
/// renamed into place).
fn program() -> std::path::PathBuf {
    let dir = profile_dir().join("window");
    std::fs::create_dir_all(&dir).expect("the window programs' directory");
    let program = dir.join("tessera-glx-errors");
    crate::dropin::compile_c(
        &root().join("tests/window/glx_errors.c"),
        &program,
        &["-lGL", "-lX11"],
    );
    program
}

/// Runs the program on the native driver (`backend` `None`) or on Tessera; its lines.
fn run(program: &std::path::Path, xvfb: &Xvfb, backend: Option<&str>) -> Vec<String> {
    let mut cmd = Command::new(program);
    cmd.env("DISPLAY", xvfb.display())
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("GALLIUM_DRIVER", "llvmpipe")
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("TESSERA_TRANSPORT");
    if let Some(backend) = backend {
        cmd.env("LD_LIBRARY_PATH", dropin_dir())
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1")
            .env(
                "VK_ICD_FILENAMES",
                "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
            );
    }
    let out = cmd.output().expect("the GLX program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && stdout.ends_with("done\n"),
        "{backend:?}: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.lines().map(str::to_owned).collect()
}

#[test]
fn glx_configs_errors_pbuffers_sizes_and_a_destroyed_window_behave_as_on_the_native_driver() {
    tessera_tests::ensure_runtime_dir();
    let xvfb = Xvfb::start();
    let program = program();
    let native = run(&program, &xvfb, None);
    // Where Tessera differs by design: it offers no compatibility profile (GLX_ARB_create_context:
    // a defined version the config cannot give is GLXBadFBConfig, error 9 from the GLX
    // base), it has GLX_EXT_swap_control on Xvfb, where Mesa has none, and a 4.6 core
    // request is granted where the backend reports 4.6 (Vulkan; native llvmpipe has 4.5).
    let differs = |line: &str| {
        line.starts_with("create 3.3 compatibility")
            || line.starts_with("interval")
            || line.starts_with("create 4.6 core")
    };
    for backend in ["gles", "vulkan"] {
        let tessera = run(&program, &xvfb, Some(backend));
        let same = |lines: &[String]| -> Vec<String> {
            lines.iter().filter(|l| !differs(l)).cloned().collect()
        };
        assert_eq!(same(&tessera), same(&native), "{backend}");
        assert!(tessera.contains(&"create 3.3 compatibility null glx 9".to_owned()));
        assert!(tessera.contains(&"interval 0".to_owned()));
        // The errors the specification names, as native sends them.
        assert!(tessera.contains(&"create 2.5 null core 8".to_owned()));
        assert!(native.contains(&"create 4.6 core null glx 9".to_owned()));
        let v46 = if backend == "vulkan" {
            "create 4.6 core context none"
        } else {
            "create 4.6 core null glx 9"
        };
        assert!(tessera.contains(&v46.to_owned()), "{backend}");
        assert!(tessera.contains(&"resized 80x40".to_owned()));
        // GLX_CONTEXT_DEBUG_BIT_ARB: CONTEXT_FLAG_DEBUG_BIT, and KHR_debug's output on.
        assert!(tessera.contains(&"debug context context flags 0x2 output 1 none".to_owned()));
        assert!(tessera.contains(&"plain context flags 0x0 output 0".to_owned()));
    }
}

/// Compiles `tests/window/glx_single.c` into `<target>/<profile>/window/`.
fn single_buffered_program() -> std::path::PathBuf {
    let dir = profile_dir().join("window");
    std::fs::create_dir_all(&dir).expect("the window programs' directory");
    let program = dir.join("tessera-glx-single");
    crate::dropin::compile_c(
        &root().join("tests/window/glx_single.c"),
        &program,
        &["-lGL", "-lX11"],
    );
    program
}

#[test]
fn a_single_buffered_glx_window_shows_what_is_drawn_at_each_flush_as_on_the_native_driver() {
    let session = Session::new();
    let program = single_buffered_program();
    let native = session.run_program(&program, None);
    // The native frames are what the program drew: no blanks.
    let frames: Vec<Frame> = native
        .iter()
        .filter(|l| l.starts_with("frame "))
        .map(|l| Frame::parse(l).expect("a frame line"))
        .collect();
    assert_eq!(frames.len(), 4, "{native:?}");
    assert_eq!(frames[0].at(0, 0), 0xff0000);
    assert_eq!(frames[0].at(32, 24), 0x0000ff);
    assert_eq!(frames[1].colours(), 2);
    assert_eq!(frames[2].pixels, vec![0x0000ff; 64 * 48]);
    assert_eq!(frames[3].pixels, vec![0xffffff; 64 * 48]);
    assert!(native.contains(&"doublebuffer 0".to_owned()));
    assert!(native.contains(&"buffers draw 0x404 read 0x404".to_owned()));
    // The GLES backend presenting the window itself in process, as on hardware drivers.
    let presents = [("TESSERA_GLES_PRESENT", "native")];
    let runs = [
        ("gles", Transport::Inproc, &[][..]),
        ("gles", Transport::Inproc, &presents[..]),
        ("gles", Transport::Shm, &[][..]),
        ("vulkan", Transport::Inproc, &[][..]),
        ("vulkan", Transport::Shm, &[][..]),
    ];
    for (backend, transport, env) in runs {
        let lines = session.run_program_env(&program, Some((backend, transport)), env);
        for (have, want) in lines.iter().zip(&native) {
            if want.starts_with("frame ") {
                let (want, have) = (Frame::parse(want), Frame::parse(have));
                let (Ok(want), Ok(have)) = (want, have) else {
                    panic!("{backend}/{transport:?} {env:?}: a frame line is malformed");
                };
                if let Some(d) = want.difference(&have, "top left") {
                    panic!("{backend}/{transport:?} {env:?}: frame {}: {d}", want.n);
                }
            } else {
                assert_eq!(have, want, "{backend}/{transport:?} {env:?}");
            }
        }
        assert_eq!(
            lines.len(),
            native.len(),
            "{backend}/{transport:?}: {lines:?}"
        );
    }
}
