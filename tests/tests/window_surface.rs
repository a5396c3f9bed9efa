//! Window surfaces for Rust hosts (`tessera_capi::host::WindowSurface`): the host opens the
//! window itself (here with x11rb on a private Xvfb, as winit would) and hands Tessera its
//! `raw-window-handle`; the main job's scene is drawn into it and swapped, and after every
//! swap the *window* is read back from the X server (`GetImage`): what a user would see.
//! It must be exactly the frame the context drew, and that frame native llvmpipe's (within
//! [`TOLERANCE`]), frame by frame; on the read-back path (GLES in process, Vulkan over
//! `thread`) and with the GLES backend presenting itself on the window's connection
//! (`host::native_display`). The frame callback must report every frame once, in order,
//! never more than `MAX_FRAMES_IN_FLIGHT` behind.
//!
//! Debian: xvfb.

use std::num::NonZeroU32;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use tessera_backend_gles::{GlesBackend, GlesOptions, PresentChoice};
use tessera_capi::host::raw_window_handle::{
    AndroidDisplayHandle, AndroidNdkWindowHandle, RawDisplayHandle, RawWindowHandle,
    XcbDisplayHandle, XcbWindowHandle,
};
use tessera_capi::host::{
    FrameDone, MAX_FRAMES_IN_FLIGHT, SurfaceError, WindowSurface, native_display,
};
use tessera_engine::egl::window::WindowError;
use tessera_engine::gl::{BGRA, NO_ERROR, UNSIGNED_BYTE};
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::Demo;
use tessera_wire::TransportKind;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, CreateWindowAux, ImageFormat, WindowClass};
use x11rb::xcb_ffi::XCBConnection;

use crate::window::Xvfb;

/// The window's size: odd, so a row pitch or flip error shows.
const W: u16 = 97;
const H: u16 = 71;
/// Frames drawn: the scene moves, so each differs from the last.
const FRAMES: u64 = 5;
/// How far a channel of Tessera's frame may be from native llvmpipe's, and in how many
/// pixels: the GLES backend runs the scene on an OpenGL ES context of llvmpipe, which rounds
/// some blended, filtered texels one step apart from the desktop context native draws with
/// (measured: up to 187 of the 6,887 pixels, by 1; on Vulkan, lavapipe: at most 1 pixel).
/// What the window shows must equal what the context drew exactly.
const TOLERANCE: u8 = 1;
const MAX_OFF_PERCENT: usize = 5;

/// A connection to `xvfb`.
fn connect(xvfb: &Xvfb) -> (XCBConnection, usize) {
    let name = std::ffi::CString::new(xvfb.display()).unwrap();
    XCBConnection::connect(Some(&name)).expect("Xvfb accepts us")
}

/// A mapped `W` x `H` window on the server's first screen.
fn open_window(conn: &XCBConnection, screen: usize) -> u32 {
    let root = conn.setup().roots[screen].root;
    let window = conn.generate_id().unwrap();
    conn.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        window,
        root,
        0,
        0,
        W,
        H,
        0,
        WindowClass::INPUT_OUTPUT,
        x11rb::COPY_FROM_PARENT,
        &CreateWindowAux::new(),
    )
    .unwrap()
    .check()
    .unwrap();
    conn.map_window(window).unwrap().check().unwrap();
    window
}

/// The window's pixels as the X server holds them, as B, G, R bytes, bottom row first
/// (GL's order, to compare with `glReadPixels`).
fn window_pixels(conn: &XCBConnection, window: u32) -> Vec<[u8; 3]> {
    let image = conn
        .get_image(ImageFormat::Z_PIXMAP, window, 0, 0, W, H, !0)
        .unwrap()
        .reply()
        .unwrap();
    assert_eq!(image.depth, 24, "Xvfb's screen is 24-bit");
    let stride = image.data.len() / usize::from(H);
    (0..usize::from(H))
        .rev()
        .flat_map(|y| {
            let row = &image.data[y * stride..];
            (0..usize::from(W)).map(move |x| [row[x * 4], row[x * 4 + 1], row[x * 4 + 2]])
        })
        .collect()
}

/// The context's default framebuffer as `glReadPixels` gives it: B, G, R, A, bottom row
/// first.
fn tessera_frame(ctx: &mut Context) -> Vec<u8> {
    let mut bgra = vec![0u8; usize::from(W) * usize::from(H) * 4];
    ctx.read_pixels(
        0,
        0,
        i32::from(W),
        i32::from(H),
        BGRA,
        UNSIGNED_BYTE,
        tessera_engine::pixel::PixelsMut::Bytes(&mut bgra),
    );
    bgra
}

/// B, G, R of each B, G, R, A pixel.
fn bgr(bgra: &[u8]) -> Vec<[u8; 3]> {
    bgra.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect()
}

/// Native llvmpipe's frames of the scene, B, G, R, bottom row first.
fn native_frames() -> Vec<Vec<[u8; 3]>> {
    let (w, h) = (i32::from(W), i32::from(H));
    let mut gl = NativeGl::new(w, h).expect("native llvmpipe through EGL");
    let mut demo = Demo::setup(&mut gl, w, h);
    (0..FRAMES)
        .map(|_| {
            demo.frame(&mut gl);
            let mut bgra = vec![0u8; usize::from(W) * usize::from(H) * 4];
            gl.read_pixels(0, 0, w, h, BGRA, UNSIGNED_BYTE, &mut bgra);
            bgr(&bgra)
        })
        .collect()
}

/// Draws the scene on `backend` over `transport` into an X window through its XCB handle,
/// comparing every frame the window shows with native's, and the frames the callback
/// reported.
#[expect(
    unsafe_code,
    reason = "WindowSurface::new trusts the handles it is given"
)]
fn scene_in_window(
    label: &str,
    context: impl FnOnce(RawDisplayHandle) -> Context,
    native: &[Vec<[u8; 3]>],
) {
    let xvfb = Xvfb::start();
    let (conn, screen) = connect(&xvfb);
    let window = open_window(&conn, screen);
    let display = RawDisplayHandle::Xcb(XcbDisplayHandle::new(
        NonNull::new(conn.get_raw_xcb_connection()),
        screen as i32,
    ));
    let mut ctx = context(display);
    let handle = RawWindowHandle::Xcb(XcbWindowHandle::new(NonZeroU32::new(window).unwrap()));
    // SAFETY: the connection and the window outlive the surface (released below) and the
    // context (dropped before them).
    let mut surface = unsafe { WindowSurface::new(&mut ctx, display, handle, (1, 1)) }
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(surface.size(), (u32::from(W), u32::from(H)), "{label}");
    let reported = Arc::new(Mutex::new(Vec::new()));
    let sink = reported.clone();
    surface.set_frame_callback(move |frame: FrameDone| sink.lock().unwrap().push(frame.number));
    let mut demo = Demo::setup(&mut ctx, i32::from(W), i32::from(H));
    for (i, expected) in native.iter().enumerate() {
        demo.frame(&mut ctx);
        let drawn = bgr(&tessera_frame(&mut ctx));
        surface
            .swap_buffers(&mut ctx)
            .unwrap_or_else(|e| panic!("{label}: swap {i}: {e}"));
        let shown = window_pixels(&conn, window);
        // The window shows exactly the frame drawn: presentation adds nothing.
        if let Some(at) = (0..shown.len()).find(|&p| shown[p] != drawn[p]) {
            let (x, y) = (at % usize::from(W), at / usize::from(W));
            panic!(
                "{label}: frame {i}: the window shows {:?} at ({x}, {y}) from the bottom, \
                 the context drew {:?}",
                shown[at], drawn[at]
            );
        }
        // And that frame is native's, within the stated tolerance.
        let off: Vec<usize> = (0..shown.len())
            .filter(|&p| shown[p] != expected[p])
            .collect();
        for &p in &off {
            let worst = (0..3).map(|c| shown[p][c].abs_diff(expected[p][c])).max();
            assert!(
                worst <= Some(TOLERANCE),
                "{label}: frame {i}: pixel {p} is {:?}, native drew {:?}",
                shown[p],
                expected[p]
            );
        }
        assert!(
            off.len() * 100 <= shown.len() * MAX_OFF_PERCENT,
            "{label}: frame {i}: {} of {} pixels differ from native",
            off.len(),
            shown.len()
        );
        // The host's thread runs at most MAX_FRAMES_IN_FLIGHT frames ahead of the device.
        assert!(
            reported.lock().unwrap().len() + MAX_FRAMES_IN_FLIGHT > i,
            "{label}: frame {i}: {:?} reported",
            reported.lock().unwrap()
        );
    }
    surface.wait_frames(&mut ctx);
    assert_eq!(
        *reported.lock().unwrap(),
        (0..FRAMES).collect::<Vec<_>>(),
        "{label}: the frame callback reports every frame once, in order"
    );
    assert_eq!(ctx.get_error(), NO_ERROR, "{label}");
    surface.release(&mut ctx);
    drop(ctx);
    drop(conn);
    drop(xvfb);
}

#[test]
fn the_scene_in_an_x11_window_equals_native_on_both_backends() {
    tessera_tests::ensure_runtime_dir();
    let native = native_frames();
    // The scene moves: no two consecutive native frames are alike, so a window that kept
    // showing one frame could not pass.
    assert!(native.windows(2).all(|f| f[0] != f[1]));
    scene_in_window(
        "gles inproc",
        |_| tessera_on(Backend::Gles, TransportKind::Inproc, 1, 1),
        &native,
    );
    scene_in_window(
        "vulkan thread",
        |_| tessera_on(Backend::Vulkan, TransportKind::Thread, 1, 1),
        &native,
    );
}

#[test]
#[expect(unsafe_code, reason = "native_display trusts the handle it is given")]
fn the_gles_backend_presents_into_the_window_itself_on_the_window_s_connection() {
    // A context made with the window's connection as its native display: the GLES backend
    // makes its EGL display on it and presents each frame through a native window surface
    // (forced: on llvmpipe `auto` keeps the read-back path, which is faster there).
    tessera_tests::ensure_runtime_dir();
    let native = native_frames();
    scene_in_window(
        "gles inproc, presented by the backend",
        |display| {
            // SAFETY: the test's connection outlives the context.
            let on = unsafe { native_display(display) };
            assert!(on.is_some(), "an X display has a native connection");
            let options = GlesOptions {
                native_display: on,
                present: Some(PresentChoice::Native),
                ..GlesOptions::default()
            };
            let backend = GlesBackend::with_options(&options).expect("GLES (llvmpipe)");
            let config = Config {
                backend: BackendKind::Gles,
                native_display: on,
                surface: Some(SurfaceConfig::new(1, 1)),
                ..Config::default()
            };
            Context::with_backend(&config, Box::new(backend))
        },
        &native,
    );
}

#[test]
#[expect(
    unsafe_code,
    reason = "WindowSurface::new trusts the handles it is given"
)]
fn android_and_mixed_platform_handles_are_refused() {
    let mut ctx = tessera_tests::surfaceless();
    let android_window = RawWindowHandle::AndroidNdk(AndroidNdkWindowHandle::new(
        NonNull::<u8>::dangling().cast(),
    ));
    let android = RawDisplayHandle::Android(AndroidDisplayHandle::new());
    // SAFETY: refused before either handle is used.
    let e = unsafe { WindowSurface::new(&mut ctx, android, android_window, (8, 8)) }.unwrap_err();
    assert!(matches!(e, SurfaceError::Unsupported(_)), "{e}");
    assert!(
        e.to_string().contains("not supported on this platform yet"),
        "{e}"
    );
    // An X window on a display of another platform.
    let x_window = RawWindowHandle::Xcb(XcbWindowHandle::new(NonZeroU32::new(7).unwrap()));
    // SAFETY: as above.
    let e = unsafe { WindowSurface::new(&mut ctx, android, x_window, (8, 8)) }.unwrap_err();
    assert!(matches!(e, SurfaceError::Unsupported(_)), "{e}");
}

#[test]
#[expect(
    unsafe_code,
    reason = "WindowSurface::new trusts the handles it is given"
)]
fn a_missing_window_and_a_context_of_another_share_group_are_refused() {
    let xvfb = Xvfb::start();
    let (conn, screen) = connect(&xvfb);
    let mut ctx = tessera_tests::surfaceless();
    let display = RawDisplayHandle::Xcb(XcbDisplayHandle::new(
        NonNull::new(conn.get_raw_xcb_connection()),
        screen as i32,
    ));
    // An ID the server never gave out.
    let missing = conn.generate_id().unwrap();
    let handle = RawWindowHandle::Xcb(XcbWindowHandle::new(NonZeroU32::new(missing).unwrap()));
    // SAFETY: the connection outlives the call; the window is refused.
    let e = unsafe { WindowSurface::new(&mut ctx, display, handle, (8, 8)) }.unwrap_err();
    assert!(matches!(e, SurfaceError::Window(WindowError::Gone)), "{e}");
    // A real window binds to contexts of its surface's share group only.
    let window = open_window(&conn, screen);
    let handle = RawWindowHandle::Xcb(XcbWindowHandle::new(NonZeroU32::new(window).unwrap()));
    // SAFETY: the connection and the window outlive the surface, released below.
    let surface = unsafe { WindowSurface::new(&mut ctx, display, handle, (8, 8)) }.unwrap();
    let mut shared = Context::new_shared(&ctx, &Config::default());
    assert!(surface.bind(&mut shared).is_ok());
    let mut other = tessera_tests::surfaceless();
    assert!(matches!(
        surface.bind(&mut other),
        Err(SurfaceError::OtherShareGroup)
    ));
    surface.release(&mut ctx);
}
