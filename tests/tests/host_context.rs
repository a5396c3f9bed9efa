//! Tessera rendering in a host's own GL share group (`GlesBackend::with_host_context`).
//!
//! The test is the host: it makes its own OpenGL ES context on llvmpipe through the system
//! EGL, lends its display and context to the GLES backend, draws a scene through GL, takes
//! the texture with `Context::hand_over_gl_texture` (waited for by Tessera) and
//! `Context::hand_over_gl_texture_signalled` (a native fence the host waits on), drops
//! Tessera's context, and reads both textures in its own context through a framebuffer. The
//! pixels must equal native llvmpipe's for the same scene.
#![expect(
    unsafe_code,
    reason = "the host calls its own driver's sync entry points"
)]

use std::ffi::c_void;

use tessera_backend_gles::{GlesBackend, HostEgl};
use tessera_engine::export::ExportError;
use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_engine::{BackendKind, Config, Context, SurfaceConfig};
use tessera_tests::differential::assert_no_backend_events;
use tessera_tests::gl::{Gl, NativeGl, SceneGl};
use tessera_tests::vk_host::{H, W, native_pixels, scene};

/// `GL_TIMEOUT_IGNORED`.
const TIMEOUT_IGNORED: u64 = u64::MAX;

fn context_on(host: &NativeGl, transport: TransportKind) -> Context {
    let (display, context) = host.egl_handles();
    let backend = GlesBackend::with_host_context(HostEgl { display, context })
        .expect("a GLES backend sharing the host's context");
    let config = Config {
        backend: BackendKind::Gles,
        transport,
        surface: Some(SurfaceConfig::new(W as u32, H as u32)),
        ..Config::default()
    };
    Context::with_backend(&config, Box::new(backend))
}

/// The host's own read of a texture of its share group: level 0 through a framebuffer.
fn read_texture(host: &mut NativeGl, texture: GLuint) -> Vec<u8> {
    let fbo = host.gen_framebuffer();
    host.bind_framebuffer(FRAMEBUFFER, fbo);
    host.framebuffer_texture_2d(FRAMEBUFFER, COLOR_ATTACHMENT0, TEXTURE_2D, texture, 0);
    assert_eq!(
        host.check_framebuffer_status(FRAMEBUFFER),
        FRAMEBUFFER_COMPLETE
    );
    let mut out = vec![0u8; (W * H * 4) as usize];
    host.pixel_storei(PACK_ALIGNMENT, 4);
    host.read_pixels(0, 0, W, H, RGBA, UNSIGNED_BYTE, &mut out);
    host.bind_framebuffer(FRAMEBUFFER, 0);
    type DeleteFramebuffers = unsafe extern "system" fn(GLsizei, *const GLuint);
    let delete: DeleteFramebuffers = host.entry_point("glDeleteFramebuffers").unwrap();
    // SAFETY: the host's context is current; one name from a live local.
    unsafe { delete(1, &fbo) };
    out
}

fn differing(a: &[u8], b: &[u8]) -> usize {
    a.chunks(4).zip(b.chunks(4)).filter(|(a, b)| a != b).count()
}

/// Tessera draws in the host's share group; the host reads the handed-over textures (one
/// waited for by Tessera, one behind a fence the host waits on) with native's exact pixels,
/// after Tessera's context is gone.
#[test]
fn host_reads_the_handed_over_textures() {
    tessera_tests::ensure_runtime_dir();
    let expected = native_pixels();
    for transport in [TransportKind::Inproc, TransportKind::Thread] {
        let mut host = NativeGl::new_es(W, H).expect("the host's ES 3.2 context (llvmpipe)");
        // HostEgl's contract: the host's context is not current while Tessera's backend
        // uses this thread (inproc applies here; making the backend also does).
        host.set_current(false).unwrap();
        let mut ctx = context_on(&host, transport.clone());
        let tex = scene(&mut ctx);
        assert_eq!(ctx.get_error(), NO_ERROR);
        let waited = ctx.hand_over_gl_texture(tex).expect("a hand-over");
        let fenced = ctx
            .hand_over_gl_texture_signalled(tex)
            .expect("a hand-over with a fence");
        for t in [&waited, &fenced] {
            assert_eq!(t.extent, [W as u32, H as u32]);
            assert_eq!(t.internal_format, RGBA8);
            assert_ne!(t.texture, 0);
        }
        assert_ne!(waited.texture, fenced.texture);
        assert_eq!(waited.sync, 0);
        assert_ne!(fenced.sync, 0);
        // Vulkan's hand-over is refused here, without losing the context.
        assert_eq!(
            ctx.hand_over_texture(tex).unwrap_err(),
            ExportError::Unsupported {
                backend: "gles".to_owned()
            }
        );
        assert_no_backend_events(&mut ctx, "host context");
        // The textures are the host's: they outlive Tessera's context.
        drop(ctx);
        host.set_current(true).unwrap();
        type WaitSync = unsafe extern "system" fn(*const c_void, GLbitfield, u64);
        type DeleteSync = unsafe extern "system" fn(*const c_void);
        type IsSync = unsafe extern "system" fn(*const c_void) -> u8;
        let wait_sync: WaitSync = host.entry_point("glWaitSync").unwrap();
        let delete_sync: DeleteSync = host.entry_point("glDeleteSync").unwrap();
        let is_sync: IsSync = host.entry_point("glIsSync").unwrap();
        type IsTexture = unsafe extern "system" fn(GLuint) -> u8;
        let is_texture: IsTexture = host.entry_point("glIsTexture").unwrap();
        // SAFETY: the host's context is current; any name is valid input.
        let is_texture = |name| unsafe { is_texture(name) } == 1;
        let sync = fenced.sync as usize as *const c_void;
        // SAFETY: the host's context is current; the sync is a live sync object of its
        // share group (the hand-over's), waited on and deleted once.
        unsafe {
            assert_eq!(is_sync(sync), 1, "{transport:?}: the fence is the host's");
            wait_sync(sync, 0, TIMEOUT_IGNORED);
            delete_sync(sync);
        }
        // Nothing else of Tessera's stays in the host's share group.
        type IsObject = unsafe extern "system" fn(GLuint) -> u8;
        for query in ["glIsTexture", "glIsBuffer", "glIsProgram", "glIsShader"] {
            let is: IsObject = host.entry_point(query).unwrap();
            let left: Vec<GLuint> = (1..256)
                .filter(|&n| n != waited.texture && n != fenced.texture)
                // SAFETY: the host's context is current; any name is valid input.
                .filter(|&n| unsafe { is(n) } != 0)
                .collect();
            assert!(left.is_empty(), "{transport:?}: {query} left {left:?}");
        }
        for (what, t) in [("waited", &waited), ("fenced", &fenced)] {
            assert!(is_texture(t.texture), "{transport:?}: the host's texture");
            let pixels = read_texture(&mut host, t.texture);
            assert_eq!(host.get_error(), NO_ERROR);
            let n = differing(&pixels, &expected);
            assert_eq!(
                n, 0,
                "{transport:?} ({what}): {n} pixels differ from native"
            );
        }
        host.delete_textures(&[waited.texture, fenced.texture]);
        assert!(!is_texture(waited.texture));
        assert_eq!(host.get_error(), NO_ERROR);
    }
}

/// A GLES backend of its own (no host's context) hands nothing over to a host.
#[test]
fn gl_hand_over_needs_a_host_context() {
    let mut own = tessera_tests::differential::tessera_on(
        tessera_tests::differential::Backend::Gles,
        TransportKind::Inproc,
        W,
        H,
    );
    let tex = scene(&mut own);
    assert_eq!(
        own.hand_over_gl_texture(tex).unwrap_err(),
        ExportError::Unsupported {
            backend: "gles".to_owned()
        }
    );
    assert_eq!(own.get_error(), NO_ERROR);
}
