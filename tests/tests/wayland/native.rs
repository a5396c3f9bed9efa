//! The GLES backend presenting Wayland windows itself (`TESSERA_GLES_PRESENT=native`), in
//! process over `inproc` and `thread`: its EGL display on the program's `wl_display`, its
//! own `wl_egl_window` on the program's `wl_surface` and an EGL window surface over it.
//! Every frame must equal the native driver's, and the log must say the backend presented
//! them (a native EGL window surface of a Wayland surface, and the engine's decision for
//! the backend, never the client's read-back). By default (`auto`) llvmpipe leaves windows
//! to the client path, which the log must say too.
//!
//! The program waits for a `wl_display_roundtrip` on its own default queue after every
//! frame: were the driver's Wayland platform, which dispatches its own queues on the
//! program's display from the render thread, to take the program's events, that round
//! trip would never end and the run would fail.

use super::{FRAMES, RESIZED, Run, SIZE, Session, assert_native_frames, compare};

const LOG: (&str, &str) = ("TESSERA_LOG", "info");
const NATIVE: (&str, &str) = ("TESSERA_GLES_PRESENT", "native");
const THREAD: (&str, &str) = ("TESSERA_TRANSPORT", "thread");

/// In process: `inproc` (the default) and `thread`.
const IN_PROCESS: [&[(&str, &str)]; 2] = [&[LOG, NATIVE], &[LOG, NATIVE, THREAD]];

/// How many lines of the run's log contain `words`.
fn count(run: &Run, words: &str) -> usize {
    run.stderr.lines().filter(|l| l.contains(words)).count()
}

/// The backend presented the frames: a native EGL window surface of a Wayland surface,
/// the engine's decision for the backend, none for the client.
fn presented_by_backend(run: &Run) -> Result<(), String> {
    let surfaces = count(run, "through a native EGL window surface");
    let wayland = count(run, "presenting to Wayland surface");
    let by_backend = count(run, "the backend presents the frames");
    let by_client = count(run, "frames are read back and shown by the client");
    if surfaces > 0 && wayland == surfaces && by_backend > 0 && by_client == 0 {
        Ok(())
    } else {
        Err(format!(
            "{}: the backend must present the frames: {surfaces} native window surfaces \
             ({wayland} of Wayland surfaces), {by_backend} decisions for the backend, \
             {by_client} for the client\n{}",
            run.label,
            run.summary()
        ))
    }
}

/// The client showed the frames: no native window surface, no decision for the backend.
fn presented_by_client(run: &Run) -> Result<(), String> {
    let surfaces = count(run, "through a native EGL window surface");
    let by_backend = count(run, "the backend presents the frames");
    let by_client = count(run, "frames are read back and shown by the client");
    if surfaces == 0 && by_backend == 0 && by_client > 0 {
        Ok(())
    } else {
        Err(format!(
            "{}: the client must show the frames: {surfaces} native window surfaces, \
             {by_backend} decisions for the backend, {by_client} for the client\n{}",
            run.label,
            run.summary()
        ))
    }
}

/// Runs `args` natively (checked against `sizes`), then on the GLES backend with each of
/// `envs`, checking the frames and who presented them with `presenter`; panics with every
/// failure.
fn runs_show_the_native_frames(
    session: &Session,
    args: &[&str],
    sizes: &[(usize, usize)],
    envs: &[&[(&str, &str)]],
    presenter: fn(&Run) -> Result<(), String>,
) {
    let native = session.native(args);
    assert_native_frames(&native, sizes);
    let failures: Vec<String> = envs
        .iter()
        .filter_map(|env| {
            let run = session.tessera_with_env(args, "gles", env);
            compare(&native, &run).and_then(|()| presenter(&run)).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of the runs failed:\n\n{}\n-- Weston:\n{}",
        failures.len(),
        failures.join("\n\n"),
        session.weston.log()
    );
}

#[test]
fn in_process_the_gles_backend_presents_wayland_windows_itself() {
    let session = Session::new();
    runs_show_the_native_frames(
        &session,
        &[],
        &[SIZE; FRAMES],
        &IN_PROCESS,
        presented_by_backend,
    );
    // Swap interval 0 in process (over `thread` a swap at interval 0 does not wait for
    // the render thread, so the screenshot could show the frame before).
    runs_show_the_native_frames(
        &session,
        &["--interval", "0"],
        &[SIZE; FRAMES],
        &[&[LOG, NATIVE]],
        presented_by_backend,
    );
    // `auto` on llvmpipe: the client path, the faster there.
    runs_show_the_native_frames(
        &session,
        &[],
        &[SIZE; FRAMES],
        &[&[LOG]],
        presented_by_client,
    );
}

#[test]
fn the_gles_backend_presenting_a_wayland_window_follows_wl_egl_window_resize() {
    // Its own wl_egl_window is resized to the program's at each present.
    let sizes: Vec<(usize, usize)> = (0..FRAMES)
        .map(|n| if n < 3 { SIZE } else { RESIZED })
        .collect();
    let session = Session::new();
    runs_show_the_native_frames(
        &session,
        &["--resize"],
        &sizes,
        &IN_PROCESS,
        presented_by_backend,
    );
}

#[test]
fn a_wl_egl_window_destroyed_under_the_gles_backends_window_surface_fails_the_swap() {
    // Frame 0 is presented by the backend; then the program destroys its wl_egl_window:
    // Tessera's destroy callback has the backend destroy its window surface and
    // wl_egl_window on the program's thread before wl_egl_window_destroy returns (the
    // program destroys its wl_surface afterwards), and frame 1's swap fails with
    // EGL_BAD_NATIVE_WINDOW (or EGL_BAD_SURFACE), as on Mesa. The program cleans up and
    // exits normally.
    let args = ["--get-display", "--destroy", "--frames", "2"];
    let session = Session::new();
    let native = session.native(&args);
    let expected = super::destroyed_swap_failed_and_cleaned_up;
    expected(&native).unwrap_or_else(|e| panic!("the native run: {e}"));
    let failures: Vec<String> = IN_PROCESS
        .iter()
        .filter_map(|env| {
            let run = session.tessera_with_env(&args, "gles", env);
            let torn_down = || {
                if count(&run, "the program destroyed a wl_egl_window") == 1 {
                    Ok(())
                } else {
                    Err(format!(
                        "{}: the backend did not tear its window surface down when the \
                         program destroyed its wl_egl_window\n{}",
                        run.label,
                        run.summary()
                    ))
                }
            };
            let backend_presented = || {
                if count(&run, "presenting to Wayland surface") == 1 {
                    Ok(())
                } else {
                    Err(format!(
                        "{}: the backend did not present frame 0\n{}",
                        run.label,
                        run.summary()
                    ))
                }
            };
            expected(&run)
                .and_then(|()| compare(&native, &run))
                .and_then(|()| backend_presented())
                .and_then(|()| torn_down())
                .err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{}\n-- Weston:\n{}",
        failures.join("\n\n"),
        session.weston.log()
    );
}
