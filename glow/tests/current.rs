//! What `tessera_glow::Current` promises besides drawing (`egui.rs` draws): one context per
//! thread, calls from another thread reach nothing, and glow's functions that Tessera lacks
//! are GL errors rather than panics.

#![expect(unsafe_code, reason = "glow's calls are unsafe")]

use egui_glow::glow::{self, HasContext as _};
use tessera_engine::wire::TransportKind;
use tessera_tests::differential::{Backend, tessera_on};

/// A second context on a thread that has one is refused and handed back; once the first is
/// released, the thread takes one again.
#[test]
fn one_current_context_per_thread() {
    let first = tessera_glow::Current::new(tessera_on(Backend::Gles, TransportKind::Inproc, 4, 4))
        .expect("the thread had none");
    let second = tessera_on(Backend::Gles, TransportKind::Inproc, 4, 4);
    let refused = tessera_glow::Current::new(second).expect_err("the thread has one");
    let context = first.into_context().expect("the first context comes back");
    let again = tessera_glow::Current::new(*refused.0).expect("the thread has none now");
    drop(again);
    drop(context);
}

/// A glow context's calls reach the Tessera context only on the thread it is current on: on
/// another they do nothing and return 0.
#[test]
fn other_threads_reach_nothing() {
    let mut current =
        tessera_glow::Current::new(tessera_on(Backend::Gles, TransportKind::Inproc, 4, 4))
            .expect("the thread had none");
    let gl = current.glow();
    // SAFETY: the context is current on this thread.
    unsafe { gl.enable(glow::BLEND) };
    let gl = std::sync::Arc::new(gl);
    let elsewhere = std::sync::Arc::clone(&gl);
    let (enabled, error) = std::thread::spawn(move || {
        // SAFETY: no context is current on this thread: each call does nothing.
        unsafe {
            elsewhere.disable(glow::BLEND);
            (elsewhere.is_enabled(glow::BLEND), elsewhere.get_error())
        }
    })
    .join()
    .expect("the other thread");
    assert_eq!((enabled, error), (false, glow::NO_ERROR));
    // SAFETY: the context is current on this thread.
    assert!(unsafe { gl.is_enabled(glow::BLEND) });
    assert_eq!(
        current.with_context(|c| c.is_enabled(glow::BLEND) != 0),
        Some(true)
    );
}

/// glow's methods over functions Tessera does not have (a registry function with a stub, an
/// OpenGL ES extension function outside the desktop headers) record `GL_INVALID_OPERATION`,
/// as a driver without the feature does, and the context goes on working.
#[test]
fn missing_functions_are_gl_errors() {
    let current =
        tessera_glow::Current::new(tessera_on(Backend::Gles, TransportKind::Inproc, 4, 4))
            .expect("the thread had none");
    let gl = current.glow();
    // SAFETY: the context is current on this thread; the calls only record errors.
    unsafe {
        assert_eq!(gl.get_error(), glow::NO_ERROR);
        gl.max_shader_compiler_threads(2);
        assert_eq!(gl.get_error(), glow::INVALID_OPERATION);
        gl.framebuffer_texture_2d_multisample(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            None,
            0,
            4,
        );
        assert_eq!(gl.get_error(), glow::INVALID_OPERATION);
        gl.enable(glow::DEPTH_TEST);
        assert!(gl.is_enabled(glow::DEPTH_TEST));
        assert_eq!(gl.get_error(), glow::NO_ERROR);
    }
}
