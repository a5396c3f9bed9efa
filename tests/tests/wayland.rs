//! EGL windows on Wayland (`EGL_PLATFORM_WAYLAND_KHR`), seen from the compositor:
//! `tests/window/wayland_scene.c` makes a fullscreen xdg-shell toplevel on a private Weston
//! (headless backend, pixman renderer), shows the animated, frame-numbered scene of scene.h
//! through a `wl_egl_window` and an EGL window surface, and after each frame waits while the
//! test takes the compositor's screenshot (`weston-screenshooter`) and crops it to the
//! surface, which the shell centres on the output: what a user would see.
//!
//! The oracle is the same program on the native driver (Mesa's llvmpipe): on Tessera's
//! drop-in (`crate::dropin::dropin_dir`), on the GLES and the Vulkan backend (validation
//! on), every frame must equal the native one pixel for pixel, and the sizes
//! `eglQuerySurface` reports must be the native ones, also when `wl_egl_window_resize`
//! changes the window between frames. A `wl_egl_window` destroyed under its surface makes
//! the next `eglSwapBuffers` fail with `EGL_BAD_NATIVE_WINDOW` (or `EGL_BAD_SURFACE`), as
//! on Mesa, and the program cleans up and exits normally.
//!
//! `tessera-demo --window` opens its own xdg-shell toplevel on the same compositor when only
//! `WAYLAND_DISPLAY` is set and shows its scene through the window surface Rust hosts use
//! (`tessera_capi::host::WindowSurface` on the toplevel's `wl_surface`), and the screenshot
//! shows its scene.
//!
//! The program is compiled with the system gcc (`pkg-config` for wayland-client and
//! wayland-egl; xdg-shell's code from `wayland-scanner` and wayland-protocols) into
//! `<target>/<profile>/window/`. Debian: weston libwayland-dev wayland-protocols.

mod native;
mod weston;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::dropin::{dropin_dir, profile_dir, root};
use crate::window::Frame;
use weston::Weston;

/// The output's size: larger than any window of the tests, which the shell centres on it.
const OUTPUT: (usize, usize) = (320, 240);

/// The default frames and window size of the program (scene.h).
const FRAMES: usize = 6;
const SIZE: (usize, usize) = (160, 120);
/// The size `--resize` gives the window before frame 3: (W + W/4) x (H - H/5).
const RESIZED: (usize, usize) = (200, 96);

/// How long one program may run.
const RUN_LIMIT: Duration = Duration::from_secs(90);

const VK_LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// `EGL_BAD_NATIVE_WINDOW`, `EGL_BAD_SURFACE`.
const BAD_NATIVE_WINDOW: &str = "0x300b";
const BAD_SURFACE: &str = "0x300d";

/// Compiles the program (once per test process; skipped when the installed one is newer
/// than its sources) into `<target>/<profile>/window/`. Returns its path.
fn program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let sources = root().join("tests/window");
        let dir = profile_dir().join("window");
        std::fs::create_dir_all(&dir).expect("create the window programs' directory");
        let program = dir.join("tessera-window-wayland");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let newest_source = ["wayland_scene.c", "scene.h"]
            .iter()
            .map(|s| modified(&sources.join(s)).expect("the wayland program's sources"))
            .max();
        if modified(&program) >= newest_source {
            return program;
        }
        let output = |cmd: &mut Command, what: &str| {
            let out = cmd.output().unwrap_or_else(|e| panic!("{what} runs: {e}"));
            assert!(
                out.status.success(),
                "{what} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let protocols = output(
            Command::new("pkg-config").args(["--variable=pkgdatadir", "wayland-protocols"]),
            "pkg-config wayland-protocols (Debian: pkg-config wayland-protocols)",
        );
        let xml = Path::new(protocols.trim()).join("stable/xdg-shell/xdg-shell.xml");
        // Generated into a directory of this process, then the program renamed into place:
        // parallel test processes never run a half-written program.
        let scratch = dir.join(format!(".wayland-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).expect("create the scratch directory");
        for (kind, file) in [
            ("client-header", "xdg-shell-client-protocol.h"),
            ("private-code", "xdg-shell-protocol.c"),
        ] {
            output(
                Command::new("wayland-scanner")
                    .arg(kind)
                    .arg(&xml)
                    .arg(scratch.join(file)),
                "wayland-scanner (Debian: libwayland-bin)",
            );
        }
        let flags = output(
            Command::new("pkg-config").args([
                "--cflags",
                "--libs",
                "wayland-client",
                "wayland-egl",
            ]),
            "pkg-config wayland-client wayland-egl (Debian: libwayland-dev)",
        );
        let built = scratch.join("tessera-window-wayland");
        output(
            Command::new("gcc")
                .args(["-O1", "-Wall", "-Wextra", "-Werror"])
                .arg("-I")
                .arg(&scratch)
                .arg(sources.join("wayland_scene.c"))
                .arg(scratch.join("xdg-shell-protocol.c"))
                .arg("-o")
                .arg(&built)
                .args(flags.split_whitespace())
                .arg("-ldl"),
            "gcc wayland_scene.c (Debian: gcc libegl-dev libx11-dev)",
        );
        std::fs::rename(&built, &program).expect("install the wayland program");
        let _ = std::fs::remove_dir_all(&scratch);
        program
    })
}

/// What one run of the program printed, and the frames the compositor showed.
struct Run {
    /// `native`, `gles`, `vulkan`, with the options.
    label: String,
    /// Its stdout lines.
    lines: Vec<String>,
    stderr: String,
    /// Frame n cropped from the screenshot taken after it was shown.
    frames: Vec<Frame>,
    /// The `size <w> <h>` lines.
    sizes: Vec<(usize, usize)>,
    /// Why the run failed (exit status, timeout, malformed output, a screenshot).
    failure: Option<String>,
}

impl Run {
    /// The rest of the first line starting with `key `.
    fn value(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
    }

    /// The output, for messages.
    fn summary(&self) -> String {
        format!(
            "{}\n-- stdout:\n{}\n-- stderr:\n{}",
            self.label,
            self.lines.join("\n"),
            self.stderr.trim_end()
        )
    }
}

/// The program, killed and reaped on drop (a test that panics leaves nothing running).
struct Program {
    child: Child,
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One test's compositor.
struct Session {
    weston: Weston,
}

impl Session {
    fn new() -> Self {
        program();
        Self {
            weston: Weston::start(OUTPUT.0, OUTPUT.1),
        }
    }

    /// The program with `args` on this compositor.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(program());
        cmd.args(["--api", "egl"]).args(args);
        self.client(cmd)
    }

    /// `cmd` on this compositor, its environment clear of Tessera's variables and of other
    /// window systems'.
    fn client(&self, mut cmd: Command) -> Command {
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("TESSERA_") {
                cmd.env_remove(name);
            }
        }
        // llvmpipe for the native driver and for the GLES backend's own EGL alike.
        cmd.env_remove("LD_LIBRARY_PATH")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .env_remove("EGL_PLATFORM")
            .env_remove("RUST_BACKTRACE")
            .env("WAYLAND_DISPLAY", self.weston.socket())
            .env("XDG_RUNTIME_DIR", self.weston.runtime())
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("GALLIUM_DRIVER", "llvmpipe");
        cmd
    }

    /// `tessera-demo` with `args` on this compositor, on `backend` (validation on).
    fn demo(&self, args: &[&str], backend: &str) -> Command {
        let mut cmd = self.client(Command::new(env!("CARGO_BIN_EXE_tessera-demo")));
        cmd.args(args)
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1")
            .env(
                "VK_ICD_FILENAMES",
                std::env::var_os("VK_ICD_FILENAMES").unwrap_or_else(|| VK_LAVAPIPE.into()),
            );
        cmd
    }

    /// Runs the program on the native driver; panics unless it succeeds without loading
    /// Tessera.
    fn native(&self, args: &[&str]) -> Run {
        let run = self.run(
            format!("native {}", args.join(" ")).trim_end().to_owned(),
            self.command(args),
        );
        if let Some(failure) = &run.failure {
            panic!(
                "the native run failed: {failure}\n{}\n-- Weston:\n{}",
                run.summary(),
                self.weston.log()
            );
        }
        let renderer = run.value("renderer").unwrap_or_default();
        assert!(
            !renderer.contains("Tessera"),
            "the native run must not load the drop-in:\n{}",
            run.summary()
        );
        run
    }

    /// Runs the program on Tessera with `backend`.
    fn tessera(&self, args: &[&str], backend: &str) -> Run {
        self.tessera_with_env(args, backend, &[])
    }

    /// Runs the program on Tessera with `backend` and the variables `env`.
    fn tessera_with_env(&self, args: &[&str], backend: &str, env: &[(&str, &str)]) -> Run {
        let mut cmd = self.command(args);
        cmd.envs(env.iter().copied());
        let settings: Vec<String> = env
            .iter()
            .filter(|(name, _)| *name != "TESSERA_LOG")
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let backend_label = if settings.is_empty() {
            backend.to_owned()
        } else {
            format!("{backend} ({})", settings.join(" "))
        };
        cmd.env("LD_LIBRARY_PATH", dropin_dir())
            .env("TESSERA_BACKEND", backend)
            .env("TESSERA_VK_VALIDATION", "1")
            .env(
                "VK_ICD_FILENAMES",
                std::env::var_os("VK_ICD_FILENAMES").unwrap_or_else(|| VK_LAVAPIPE.into()),
            );
        let mut run = self.run(
            format!("{backend_label} {}", args.join(" "))
                .trim_end()
                .to_owned(),
            cmd,
        );
        if run.failure.is_none() {
            let renderer = run.value("renderer").unwrap_or_default();
            if !renderer.starts_with(&format!("Tessera ({backend} backend")) {
                run.failure = Some(format!("not Tessera's {backend} backend: {renderer:?}"));
            } else if run.stderr.contains("tessera: backend:") {
                // Backend events (a validation message, a native error) are logged.
                run.failure = Some("backend events were logged".to_owned());
            }
        }
        run
    }

    /// Runs `cmd` with `--step` (up to [`RUN_LIMIT`]): after each `shown <n> <w>x<h>` line
    /// takes the screenshot, crops it to the surface and lets the program go on.
    fn run(&self, label: String, mut cmd: Command) -> Run {
        let child = cmd
            .arg("--step")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the wayland program runs");
        let mut program = Program { child };
        let mut stdin = program.child.stdin.take().expect("piped");
        let lines = read_lines(program.child.stdout.take().expect("piped"));
        let mut stderr_pipe = program.child.stderr.take().expect("piped");
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr_pipe.read_to_string(&mut s);
            s
        });
        let deadline = Instant::now() + RUN_LIMIT;
        let mut run = Run {
            label,
            lines: Vec::new(),
            stderr: String::new(),
            frames: Vec::new(),
            sizes: Vec::new(),
            failure: None,
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match lines.recv_timeout(left) {
                Ok(line) => line,
                // The program closed its stdout: it is exiting.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    run.failure = Some(format!("still running after {RUN_LIMIT:?}"));
                    break;
                }
            };
            if let Err(e) = self.line(&mut run, &line, &mut stdin) {
                run.failure.get_or_insert(e);
            }
            run.lines.push(line);
        }
        drop(stdin);
        let status = loop {
            match program
                .child
                .try_wait()
                .expect("waiting for the wayland program")
            {
                Some(status) => break Some(status),
                None if Instant::now() > deadline => break None,
                None => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        drop(program);
        run.stderr = stderr.join().expect("stderr");
        match status {
            None => {
                run.failure
                    .get_or_insert(format!("still running after {RUN_LIMIT:?}"));
            }
            Some(s) if !s.success() => {
                run.failure.get_or_insert(s.to_string());
            }
            Some(_) => {}
        }
        run
    }

    /// Handles one line of the program: a size, or a shown frame (screenshot, then the
    /// line that lets the program go on).
    fn line(&self, run: &mut Run, line: &str, stdin: &mut ChildStdin) -> Result<(), String> {
        let malformed = || format!("a malformed line: {line}");
        if let Some(size) = line.strip_prefix("size ") {
            let (w, h) = size.split_once(' ').ok_or_else(malformed)?;
            run.sizes.push((
                w.parse().map_err(|_| malformed())?,
                h.parse().map_err(|_| malformed())?,
            ));
        } else if let Some(shown) = line.strip_prefix("shown ") {
            let (n, size) = shown.split_once(' ').ok_or_else(malformed)?;
            let (w, h) = size.split_once('x').ok_or_else(malformed)?;
            let (n, w, h): (usize, usize, usize) = (
                n.parse().map_err(|_| malformed())?,
                w.parse().map_err(|_| malformed())?,
                h.parse().map_err(|_| malformed())?,
            );
            let frame = self
                .weston
                .screenshot()
                .and_then(|shot| crop(&shot, n, w, h));
            // The program goes on (to its end) whatever the screenshot was.
            stdin
                .write_all(b"\n")
                .and_then(|()| stdin.flush())
                .map_err(|e| format!("the program's stdin: {e}"))?;
            run.frames.push(frame?);
        }
        Ok(())
    }
}

/// Forwards `stdout`'s lines (the channel closes with it).
fn read_lines(stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Frame `n`: the `w` x `h` surface, centred on the output as the shell shows a
/// fullscreen surface smaller than its output.
fn crop(shot: &weston::Screenshot, n: usize, w: usize, h: usize) -> Result<Frame, String> {
    if w > shot.width || h > shot.height {
        return Err(format!(
            "frame {n}: a {w}x{h} surface on a {}x{} screenshot",
            shot.width, shot.height
        ));
    }
    let (x0, y0) = ((shot.width - w) / 2, (shot.height - h) / 2);
    let pixels = (y0..y0 + h)
        .flat_map(|y| shot.pixels[y * shot.width + x0..][..w].iter().copied())
        .collect();
    Ok(Frame {
        n,
        width: w,
        height: h,
        pixels,
    })
}

/// Checks that a native run showed `FRAMES` frames that are not blanks, at `sizes`: each
/// shows its number and the colours of the clear, the triangle and the squares, and each
/// has another clear colour than the one before; `eglQuerySurface` said `sizes` too.
fn assert_native_frames(run: &Run, sizes: &[(usize, usize)]) {
    assert_eq!(run.frames.len(), FRAMES, "{}", run.summary());
    for (i, frame) in run.frames.iter().enumerate() {
        assert_eq!(frame.n, i, "{}", run.summary());
        assert_eq!(
            frame.number(),
            Some(i),
            "frame {i}: the squares do not show its number (is the surface where the crop \
             is?):\n{}",
            run.summary()
        );
        // Frame 0 has no white square.
        let colours = frame.colours();
        assert!(
            colours >= if i == 0 { 3 } else { 4 },
            "frame {i}: only {colours} colours:\n{}",
            run.summary()
        );
        if i > 0 {
            let before = &run.frames[i - 1];
            assert_ne!(
                before.at(before.width / 2, 0),
                frame.at(frame.width / 2, 0),
                "frames {} and {i} have the same clear colour:\n{}",
                i - 1,
                run.summary()
            );
        }
    }
    let shown: Vec<(usize, usize)> = run.frames.iter().map(|f| (f.width, f.height)).collect();
    assert_eq!(shown, sizes, "the surface sizes:\n{}", run.summary());
    assert_eq!(
        run.sizes,
        sizes,
        "eglQuerySurface's sizes:\n{}",
        run.summary()
    );
}

/// Compares a Tessera run with the native one: it succeeded, and showed the same frames
/// and reported the same sizes. The first difference, readably.
fn compare(native: &Run, tessera: &Run) -> Result<(), String> {
    let label = &tessera.label;
    if let Some(failure) = &tessera.failure {
        return Err(format!("{label}: {failure}\n{}", tessera.summary()));
    }
    if tessera.frames.len() != native.frames.len() {
        return Err(format!(
            "{label}: {} frames, the native run {}\n{}",
            tessera.frames.len(),
            native.frames.len(),
            tessera.summary()
        ));
    }
    for (want, have) in native.frames.iter().zip(&tessera.frames) {
        let n = want.n;
        if (have.n, have.width, have.height) != (want.n, want.width, want.height) {
            return Err(format!(
                "{label}: frame {} of {}x{}, the native run's frame {n} of {}x{}",
                have.n, have.width, have.height, want.width, want.height
            ));
        }
        if let Some(d) = want.difference(have, "surface's top left on screen") {
            return Err(format!("{label}: frame {n}: {d}"));
        }
    }
    if tessera.sizes != native.sizes {
        return Err(format!(
            "{label}: eglQuerySurface reports {:?}, the native driver {:?}",
            tessera.sizes, native.sizes
        ));
    }
    Ok(())
}

/// Runs `args` natively (checked against `sizes`) and on each of `backends`; panics with
/// every difference.
fn shows_the_native_frames(args: &[&str], backends: &[&str], sizes: &[(usize, usize)]) {
    let session = Session::new();
    let native = session.native(args);
    assert_native_frames(&native, sizes);
    let failures: Vec<String> = backends
        .iter()
        .filter_map(|backend| compare(&native, &session.tessera(args, backend)).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of the runs differ from the native driver's:\n\n{}\n-- Weston:\n{}",
        failures.len(),
        failures.join("\n\n"),
        session.weston.log()
    );
}

#[test]
fn a_wayland_window_on_gles_shows_the_native_frames() {
    shows_the_native_frames(&[], &["gles"], &[SIZE; FRAMES]);
}

#[test]
fn a_wayland_window_on_vulkan_shows_the_native_frames() {
    shows_the_native_frames(&[], &["vulkan"], &[SIZE; FRAMES]);
}

#[test]
fn a_wl_egl_window_resized_between_frames_reports_its_new_size_and_shows_the_native_frames() {
    // Frames 0-2 at the first size, 3-5 at the one wl_egl_window_resize gave: on screen and
    // as eglQuerySurface reports the surface.
    let sizes: Vec<(usize, usize)> = (0..FRAMES)
        .map(|n| if n < 3 { SIZE } else { RESIZED })
        .collect();
    shows_the_native_frames(&["--resize"], &["gles", "vulkan"], &sizes);
}

#[test]
fn wayland_windows_with_swap_interval_0_and_1_show_the_native_frames() {
    shows_the_native_frames(&["--interval", "0"], &["vulkan"], &[SIZE; FRAMES]);
    shows_the_native_frames(&["--interval", "1"], &["gles"], &[SIZE; FRAMES]);
}

/// Whether a `--destroy` run's swap on the destroyed window failed as EGL says
/// (`EGL_BAD_NATIVE_WINDOW` or `EGL_BAD_SURFACE`) and the program then cleaned up.
fn destroyed_swap_failed_and_cleaned_up(run: &Run) -> Result<(), String> {
    if let Some(failure) = &run.failure {
        return Err(format!("{}: {failure}\n{}", run.label, run.summary()));
    }
    match run.value("destroyed swap") {
        Some(BAD_NATIVE_WINDOW | BAD_SURFACE) => {}
        other => {
            return Err(format!(
                "{}: eglSwapBuffers on the destroyed window said {other:?}, not \
                 EGL_BAD_NATIVE_WINDOW or EGL_BAD_SURFACE\n{}",
                run.label,
                run.summary()
            ));
        }
    }
    if run.lines.last().map(String::as_str) != Some("done") {
        return Err(format!(
            "{}: did not clean up\n{}",
            run.label,
            run.summary()
        ));
    }
    Ok(())
}

#[test]
fn a_wl_egl_window_destroyed_under_its_surface_fails_the_swap_and_nothing_crashes() {
    // eglGetDisplay on the wl_display (the platform guessed) and eglCreateWindowSurface;
    // frame 0 is shown, then the window is destroyed and frame 1's swap fails.
    let args = ["--get-display", "--destroy", "--frames", "2"];
    let session = Session::new();
    let native = session.native(&args);
    let expected = destroyed_swap_failed_and_cleaned_up;
    expected(&native).unwrap_or_else(|e| panic!("the native run: {e}"));
    let failures: Vec<String> = ["gles", "vulkan"]
        .iter()
        .filter_map(|backend| {
            let run = session.tessera(&args, backend);
            expected(&run).and_then(|()| compare(&native, &run)).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_wl_egl_window_asked_to_shrink_to_nothing_keeps_showing_the_native_frames() {
    // Before frame 2 the window is asked to be 0 x 0 for one swap, then its size again.
    // libwayland-egl ignores a resize to no size (as X11 refuses a 0 x 0 window), so the
    // window keeps its size: the swap succeeds and the surface reports what the native
    // driver's does, and every frame is the native one.
    let session = Session::new();
    let native = session.native(&["--zero"]);
    assert_native_frames(&native, &[SIZE; FRAMES]);
    for backend in ["gles", "vulkan"] {
        let run = session.tessera(&["--zero"], backend);
        if let Err(e) = compare(&native, &run) {
            panic!("{e}\n-- Weston:\n{}", session.weston.log());
        }
        for key in ["zero swap", "zero size"] {
            assert_eq!(run.value(key), native.value(key), "{}", run.summary());
        }
        assert_eq!(run.value("zero swap"), Some("ok"), "{}", run.summary());
    }
}

/// The demo scene's clear colour (0.1, 0.1, 0.15) as RGBA8 shows it, give or take a step of
/// rounding in each channel.
fn demo_background(pixel: u32) -> bool {
    let channel = |shift: u32| (pixel >> shift & 0xff) as i32;
    [(16, 26), (8, 26), (0, 38)]
        .iter()
        .all(|&(shift, want)| (channel(shift) - want).abs() <= 1)
}

/// How long the output may take to show the demo's window, or to stop showing it.
const DEMO_SHOWN_LIMIT: Duration = Duration::from_secs(30);

/// Takes screenshots until `done` holds for the number of pixels of the demo's clear
/// colour on the output (or for [`DEMO_SHOWN_LIMIT`]). Returns that number.
fn demo_pixels_until(weston: &Weston, done: impl Fn(usize) -> bool) -> Result<usize, String> {
    let deadline = Instant::now() + DEMO_SHOWN_LIMIT;
    loop {
        let shot = weston.screenshot()?;
        let n = shot.pixels.iter().filter(|&&p| demo_background(p)).count();
        if done(n) || Instant::now() > deadline {
            return Ok(n);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_demo_shows_the_scene_in_a_wayland_window() {
    // `tessera-demo --window` with only WAYLAND_DISPLAY: an xdg-shell toplevel through a
    // Rust host's WindowSurface (a wl_egl_window on its wl_surface), on both backends. Three frames and a clean exit; then, left running,
    // its surface is somewhere on the output (the shell places it), and the screenshot
    // shows the scene's clear colour, which the output had none of before.
    let session = Session::new();
    let (w, h) = (96, 64);
    let size = format!("{w}x{h}");
    // A tenth of the window: the clear colour around the scene's quads.
    let enough = w * h / 10;
    for backend in ["gles", "vulkan"] {
        let out = session
            .demo(&["--window", "--frames", "3", "--size", &size], backend)
            .output()
            .expect("tessera-demo runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success()
                && stdout.contains("Wayland window")
                && stdout.contains("frames       3 in"),
            "{backend}: {}\n{stdout}\n{}\n-- Weston:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr),
            session.weston.log()
        );

        // No demo window on the output (the last one is gone).
        let before = demo_pixels_until(&session.weston, |n| n < enough)
            .unwrap_or_else(|e| panic!("{e}\n-- Weston:\n{}", session.weston.log()));
        assert!(
            before < enough,
            "{backend}: the output shows {before} pixels of the demo's clear colour before \
             the demo runs"
        );
        let child = session
            .demo(&["--window", "--size", &size], backend)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tessera-demo runs");
        let mut demo = Program { child };
        let lines = read_lines(demo.child.stdout.take().expect("piped"));
        let shown = match lines.recv_timeout(DEMO_SHOWN_LIMIT) {
            Ok(line) if line.contains("Wayland window") => {
                demo_pixels_until(&session.weston, |n| n >= enough)
            }
            other => Err(format!("no window: {other:?}")),
        };
        let running = matches!(demo.child.try_wait(), Ok(None));
        let _ = demo.child.kill();
        let _ = demo.child.wait();
        let mut stderr = String::new();
        if let Some(mut pipe) = demo.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        assert!(
            running && shown.as_ref().is_ok_and(|&n| n >= enough),
            "{backend}: {} (a {w}x{h} window; at least {enough} pixels of its clear colour \
             expected){}\n-- stderr:\n{stderr}\n-- Weston:\n{}",
            match &shown {
                Ok(n) => format!("the output shows {n} pixels of the demo's clear colour"),
                Err(e) => e.clone(),
            },
            if running { "" } else { "; the demo exited" },
            session.weston.log()
        );
    }
}
