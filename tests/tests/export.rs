//! Frames out to a host as exported Vulkan memory (`Context::export_texture`).
//!
//! Tessera's Vulkan backend (validation on) draws a scene into a texture and exports it as an
//! opaque memory descriptor; a second process (`tessera-vk-import`) with its own instance and
//! device (validation on) receives the description and the descriptor over a Unix socket
//! (`SCM_RIGHTS`), imports it, acquires it from `VK_QUEUE_FAMILY_EXTERNAL`, copies it into a
//! host-visible buffer and sends the texels back. They must equal what native llvmpipe draws
//! for the same GL calls. The export returns only after the producer waited for its fence,
//! and only then is the message sent: that is the synchronisation.
//!
//! The same export runs with the backend in `tessera-server` (`shm`, `unix:`, `fork`): the
//! server sends the descriptor to this process over the session's socket (`SCM_RIGHTS`),
//! which then hands it on to the importer exactly as in process. Over `tcp://` the export is
//! refused; a server that dies during an export ends the session with `Lost`; and the
//! process's open descriptors are counted before and after, so none is left behind.
#![expect(
    unsafe_code,
    reason = "hands one end of a socket pair to the child process"
)]

use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::process::Command;

use tessera_engine::export::{ExportError, ExportedImage};
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::{Backend, assert_no_backend_events, tessera_on};
use tessera_tests::gl::Gl;
use tessera_tests::vk_host::{
    H, W, info_to_bytes, native_pixels, read_frame, scene, send_fd, write_frame,
};

use crate::transport::Server;

/// Starts the importer with one end of a socket pair; returns the other end once it has
/// created its device.
fn importer() -> (std::process::Child, UnixStream) {
    let (ours, theirs) = UnixStream::pair().expect("a socket pair");
    // SAFETY: clears close-on-exec of a descriptor this test owns, so the child inherits it.
    let cleared = unsafe { libc::fcntl(theirs.as_raw_fd(), libc::F_SETFD, 0) };
    assert_eq!(cleared, 0, "fcntl(F_SETFD)");
    let child = Command::new(env!("CARGO_BIN_EXE_tessera-vk-import"))
        .arg(theirs.as_raw_fd().to_string())
        .spawn()
        .expect("the importer binary");
    drop(theirs);
    let mut ready = [0u8; 1];
    (&ours)
        .read_exact(&mut ready)
        .expect("the importer created its device");
    (child, ours)
}

/// Hands `exported` to a new importer process (which created its device before) and returns
/// the texels it read, RGBA.
fn import_elsewhere(exported: ExportedImage, label: &str) -> Vec<u8> {
    let (mut child, mut stream) = importer();
    // The export returned after the producer's fence: the frame is complete.
    send_fd(&stream, &info_to_bytes(&exported.info), &exported.fd).expect("sending the export");
    let bgra = exported.info.vk_format == 44; // VK_FORMAT_B8G8R8A8_UNORM
    drop(exported);
    let answer = read_frame(&mut stream).expect("the importer's answer");
    let _ = write_frame(&mut stream, &[]);
    let status = child.wait().expect("the importer exits");
    let (code, body) = answer.split_first().expect("a status byte");
    assert_eq!(
        *code,
        0,
        "{label}: the importer failed: {}",
        String::from_utf8_lossy(body)
    );
    assert!(status.success(), "{label}: importer exit {status}");
    let mut body = body.to_vec();
    if bgra {
        body.chunks_mut(4).for_each(|p| p.swap(0, 2));
    }
    body
}

/// The default framebuffer's frame, exported with `export_surface`, reads back in another
/// process as native's (the scene blitted from its texture to the default framebuffer).
#[test]
fn exported_surface_reads_back_in_another_process() {
    tessera_tests::ensure_lavapipe();
    let expected = native_pixels();
    let mut ctx = tessera_on(Backend::Vulkan, TransportKind::Inproc, W, H);
    scene(&mut ctx);
    ctx.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
    ctx.blit_framebuffer(0, 0, W, H, 0, 0, W, H, COLOR_BUFFER_BIT, NEAREST);
    assert_eq!(ctx.get_error(), NO_ERROR);
    let exported = ctx.export_surface().expect("an export of the surface");
    assert_eq!(exported.info.extent, [W as u32, H as u32]);
    let body = import_elsewhere(exported, "surface");
    let differing = body
        .chunks(4)
        .zip(expected.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing, 0,
        "surface: {differing} pixels differ from native"
    );
    assert_no_backend_events(&mut ctx, "export surface");
    let mut surfaceless = tessera_on(Backend::Vulkan, TransportKind::Inproc, W, H);
    surfaceless.bind_surface(None);
    assert_eq!(
        surfaceless.export_surface().unwrap_err(),
        ExportError::NoSurface
    );
}

/// Tessera draws and exports; the other process imports and reads exactly native's pixels.
#[test]
fn exported_texture_reads_back_in_another_process() {
    tessera_tests::ensure_lavapipe();
    let expected = native_pixels();
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut ctx = tessera_on(Backend::Vulkan, transport.clone(), W, H);
        let tex = scene(&mut ctx);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let exported = ctx.export_texture(tex).expect("an export");
        assert_eq!(exported.info.extent, [W as u32, H as u32]);
        assert_eq!(exported.info.tiling, 1, "VK_IMAGE_TILING_LINEAR");
        // lavapipe exports no dma-buf: the descriptor is opaque.
        assert_eq!(exported.info.handle_type, 1, "OPAQUE_FD");
        assert_eq!(exported.info.drm_fourcc, 0);
        assert_eq!(exported.info.layout, 1, "VK_IMAGE_LAYOUT_GENERAL");
        assert_eq!(exported.info.vk_format, 37, "VK_FORMAT_R8G8B8A8_UNORM");
        assert!(exported.info.row_pitch >= u64::from(exported.info.extent[0]) * 4);
        let body = import_elsewhere(exported, &format!("{transport:?}"));
        let body = body.as_slice();
        let differing = body
            .chunks(4)
            .zip(expected.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differing, 0,
            "{transport:?}: imported pixels differ from native at {differing} pixels"
        );
        assert_eq!(body, expected.as_slice());
        assert_no_backend_events(&mut ctx, "export");
    }
}

/// What cannot be exported is an error of the call, never a GL error.
#[test]
fn export_errors() {
    tessera_tests::ensure_lavapipe();
    let mut vk = tessera_on(Backend::Vulkan, TransportKind::Inproc, W, H);
    assert_eq!(
        vk.export_texture(4242).unwrap_err(),
        ExportError::NotATexture(4242)
    );
    let empty = vk.gen_texture();
    vk.bind_texture(TEXTURE_2D, empty);
    assert!(matches!(
        vk.export_texture(empty),
        Err(ExportError::NotExportable { .. })
    ));
    let depth = vk.gen_texture();
    vk.bind_texture(TEXTURE_2D, depth);
    Gl::tex_image_2d(
        &mut vk,
        TEXTURE_2D,
        0,
        DEPTH_COMPONENT24 as i32,
        4,
        4,
        0,
        DEPTH_COMPONENT,
        UNSIGNED_INT,
        None,
    );
    assert!(matches!(
        vk.export_texture(depth),
        Err(ExportError::NotExportable { .. })
    ));
    let cube = vk.gen_texture();
    vk.bind_texture(TEXTURE_CUBE_MAP, cube);
    assert!(matches!(
        vk.export_texture(cube),
        Err(ExportError::NotExportable { .. })
    ));
    assert_eq!(vk.get_error(), NO_ERROR);
    assert_no_backend_events(&mut vk, "export errors");

    let mut gles = tessera_on(Backend::Gles, TransportKind::Inproc, W, H);
    let tex = scene(&mut gles);
    assert_eq!(
        gles.export_texture(tex).unwrap_err(),
        ExportError::Unsupported {
            backend: "gles".to_owned()
        }
    );
    assert_eq!(gles.get_error(), NO_ERROR);
}

/// The descriptors this process has open.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .count()
}

/// A context on the Vulkan backend of a `tessera-server` reached through `transport`.
fn served(transport: TransportKind) -> Context {
    tessera_tests::ensure_lavapipe();
    let config = Config {
        backend: BackendKind::Vulkan,
        transport,
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    Context::new(&config).expect("a session with the server")
}

/// The imported texels equal native's exactly.
fn assert_native(body: &[u8], expected: &[u8], label: &str) {
    let differing = body
        .chunks(4)
        .zip(expected.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing, 0,
        "{label}: {differing} pixels differ from native"
    );
    assert_eq!(body, expected, "{label}");
}

/// The backend runs in `tessera-server`; its export reaches this process through the
/// session's socket and reads back in a third process as native's pixels, for a texture
/// (`shm`, `unix:`, `fork`) and a surface (`fork`). Nothing stays open afterwards.
#[test]
fn export_from_the_server_reads_back_in_another_process() {
    tessera_tests::ensure_lavapipe();
    let expected = native_pixels();
    let server = Server::start_with_env(&[], &[("TESSERA_VK_VALIDATION", "1")]);
    for (label, transport) in [
        ("shm", TransportKind::Shm(Some(server.socket.clone()))),
        ("unix", TransportKind::Unix(server.socket.clone())),
        ("fork", TransportKind::Fork),
    ] {
        let before = open_fds();
        let mut ctx = served(transport);
        let tex = scene(&mut ctx);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let exported = ctx
            .export_texture(tex)
            .expect("an export through the server");
        assert_eq!(exported.info.extent, [W as u32, H as u32], "{label}");
        assert_eq!(exported.info.handle_type, 1, "{label}: OPAQUE_FD");
        assert_eq!(exported.info.vk_format, 37, "{label}: R8G8B8A8_UNORM");
        let body = import_elsewhere(exported, label);
        assert_native(&body, &expected, label);
        if label == "fork" {
            ctx.bind_framebuffer(DRAW_FRAMEBUFFER, 0);
            ctx.blit_framebuffer(0, 0, W, H, 0, 0, W, H, COLOR_BUFFER_BIT, NEAREST);
            let surface = ctx
                .export_surface()
                .expect("the surface through the server");
            let body = import_elsewhere(surface, "fork surface");
            assert_native(&body, &expected, "fork surface");
        }
        assert_eq!(ctx.get_error(), NO_ERROR);
        assert_no_backend_events(&mut ctx, label);
        drop(ctx);
        assert_eq!(open_fds(), before, "{label}: descriptors left open");
    }
}

/// `tcp://` cannot carry a descriptor: the export is refused before anything is sent, and
/// the session goes on.
#[test]
fn export_over_tcp_is_refused() {
    let server = Server::start();
    let mut ctx = served(server.tcp_kind(Some(server.secret.clone())));
    let tex = scene(&mut ctx);
    assert_eq!(ctx.export_texture(tex).unwrap_err(), ExportError::OverTcp);
    assert_eq!(ctx.export_surface().unwrap_err(), ExportError::OverTcp);
    ctx.finish();
    assert_eq!(ctx.get_error(), NO_ERROR);
    assert_eq!(
        ctx.get_graphics_reset_status(),
        NO_ERROR,
        "the session is alive"
    );
    assert_no_backend_events(&mut ctx, "tcp");
}

/// A server process that dies during an export (after its backend made the descriptor,
/// before it was sent) ends the session: the call returns `Lost` instead of waiting, the
/// context reports a reset, and nothing stays open.
#[test]
fn a_server_dying_during_an_export_ends_the_session() {
    // How many batches the scene and the export take (the same calls on a healthy server):
    // the export is the last.
    let batches = {
        let server = Server::start();
        let mut ctx = served(TransportKind::Shm(Some(server.socket.clone())));
        let tex = scene(&mut ctx);
        ctx.export_texture(tex).expect("an export");
        ctx.transport_stats().batches
    };
    let crash = format!("1:{batches}");
    let server = Server::start_with_env(
        &["--isolation", "process"],
        &[("TESSERA_DEBUG_CRASH", crash.as_str())],
    );
    let before = open_fds();
    let mut ctx = served(TransportKind::Shm(Some(server.socket.clone())));
    let tex = scene(&mut ctx);
    assert_eq!(ctx.export_texture(tex).unwrap_err(), ExportError::Lost);
    assert_eq!(ctx.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET);
    assert_eq!(ctx.export_texture(tex).unwrap_err(), ExportError::Lost);
    drop(ctx);
    assert_eq!(open_fds(), before, "descriptors left open");
}
