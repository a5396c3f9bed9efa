//! The calling thread's EGL state and the guard every entry point runs under.
//!
//! The thread's [`Thread`] (bound API, current context) lives in a thread-local `RefCell`;
//! while a context is current its engine [`Context`] is owned by that thread-local, so a GL
//! call costs a thread-local access and a borrow flag. When the thread exits, the
//! thread-local's destructor releases the context back to the registry.
//!
//! [`gl_call`] and [`egl_call`] wrap every entry point in `catch_unwind`: unwinding into C is
//! undefined behaviour, so a panic (a bug of ours) is logged and reported to the application
//! instead. A panic in a GL call may leave the context half-updated, so it marks the current
//! context lost ([`Context::mark_lost`]; the whole share group if the panic poisoned the
//! group's lock): its later calls return their default at once and
//! `glGetGraphicsResetStatus` reports `GL_UNKNOWN_CONTEXT_RESET`, while other contexts go on.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

use tessera_engine::Context;
use tessera_engine::egl::{EglError, Registry, Thread, registry, tokens};
use tessera_engine::gl::NO_ERROR;

thread_local! {
    /// This thread's EGL state.
    static THREAD: RefCell<Thread> = const { RefCell::new(Thread::new()) };
    /// This thread's `eglGetError` value.
    static ERROR: Cell<i32> = const { Cell::new(tokens::SUCCESS) };
    /// A context a Rust host made current to this thread without EGL ([`make_hosted`]):
    /// GL calls reach it while no EGL context is current.
    static HOSTED: RefCell<Option<Box<Context>>> = const { RefCell::new(None) };
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Runs a GL entry point on the current context; `default` without one, on a lost one (see
/// [`guarded`]), or if the thread's state is unreachable (during thread exit, or re-entered).
#[inline]
pub fn gl_call<R>(name: &'static str, default: R, f: impl FnOnce(&mut Context) -> R) -> R {
    // The outer guard covers the thread-local access; `guarded` covers the call itself.
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD
            .try_with(|t| {
                t.try_borrow_mut().ok().and_then(|mut t| match t.gl() {
                    Some(c) => guarded(name, c, f),
                    None => hosted(name, f),
                })
            })
            .ok()
            .flatten()
    }));
    match result {
        Ok(Some(r)) => r,
        Ok(None) => default,
        Err(payload) => {
            let message = panic_message(&*payload);
            log::error!("tessera: {name} panicked: {message}");
            eprintln!("tessera: {name} panicked: {message}");
            default
        }
    }
}

/// Runs a GL entry point on the thread's hosted context ([`make_hosted`]), if any.
#[cold]
fn hosted<R>(name: &'static str, f: impl FnOnce(&mut Context) -> R) -> Option<R> {
    HOSTED
        .try_with(|h| {
            h.try_borrow_mut()
                .ok()
                .and_then(|mut h| h.as_deref_mut().and_then(|c| guarded(name, c, f)))
        })
        .ok()
        .flatten()
}

/// Makes an engine context the calling thread's *hosted* context, so that the GL entry points
/// of this library, called as Rust functions in the same process, work on it while no EGL
/// context is current (an EGL context made current later takes precedence). This is how a
/// Rust host hands a context it created with [`tessera_engine::Config`] to code that takes GL
/// function pointers (`glow`, `tessera-glow`) without going through EGL. Returns the context
/// it replaces; `Err(context)` back while a GL call on this thread is running (re-entered).
pub fn make_hosted(context: Box<Context>) -> Result<Option<Box<Context>>, Box<Context>> {
    let mut context = Some(context);
    let replaced = HOSTED.try_with(|h| {
        h.try_borrow_mut()
            .ok()
            .map(|mut h| std::mem::replace(&mut *h, context.take()))
    });
    match replaced {
        Ok(Some(previous)) => Ok(previous),
        // Not stored: the context is still here.
        _ => context.map_or(Ok(None), Err),
    }
}

/// Takes the calling thread's hosted context back ([`make_hosted`]); `None` if it has none
/// (or while a GL call on this thread is running).
pub fn take_hosted() -> Option<Box<Context>> {
    HOSTED
        .try_with(|h| h.try_borrow_mut().ok().and_then(|mut h| h.take()))
        .ok()
        .flatten()
}

/// Runs `f` on the calling thread's hosted context ([`make_hosted`]); `None` without one
/// (or from inside a GL call).
pub fn with_hosted<R>(f: impl FnOnce(&mut Context) -> R) -> Option<R> {
    HOSTED
        .try_with(|h| {
            h.try_borrow_mut()
                .ok()
                .and_then(|mut h| h.as_deref_mut().map(f))
        })
        .ok()
        .flatten()
}

/// `glGetGraphicsResetStatus`: the current context's reset status, answered on a lost
/// context too (that is what the call is for), so it bypasses [`guarded`]'s lost-context
/// check; `NO_ERROR` (0) without a current context.
pub fn reset_status() -> u32 {
    catch_unwind(AssertUnwindSafe(|| {
        THREAD
            .try_with(|t| {
                t.try_borrow_mut()
                    .ok()
                    .and_then(|mut t| t.gl().map(|c| c.get_graphics_reset_status()))
            })
            .ok()
            .flatten()
            .or_else(|| with_hosted(|c| c.get_graphics_reset_status()))
    }))
    .ok()
    .flatten()
    .unwrap_or(0)
}

/// Runs `f` on context `c` unless `c` is lost (`None` then, at the cost of two plain loads);
/// a panic in `f` marks `c` lost (logged once) and gives `None`.
#[inline]
pub(crate) fn guarded<R>(
    name: &'static str,
    c: &mut Context,
    f: impl FnOnce(&mut Context) -> R,
) -> Option<R> {
    if c.is_dead() {
        return None;
    }
    c.enter(name);
    match catch_unwind(AssertUnwindSafe(|| f(&mut *c))) {
        Ok(r) => Some(r),
        Err(payload) => {
            gl_panicked(name, c, &*payload);
            None
        }
    }
}

/// Reports a panic in a GL entry point: marks the context lost, with one log line.
#[cold]
fn gl_panicked(name: &str, c: &mut Context, payload: &(dyn Any + Send)) {
    let message = panic_message(payload);
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if c.mark_lost(&format!("{name} panicked: {message}")) {
            log::error!("tessera: {name} panicked: {message}; the context is lost");
            eprintln!("tessera: {name} panicked (the context is lost): {message}");
        }
    }));
}

/// Runs an EGL entry point with the registry locked and this thread's state borrowed, and
/// records its outcome as the thread's error: `EGL_SUCCESS`, the error's code, or
/// `EGL_BAD_ALLOC` after a panic (logged). Returns `default` on any failure.
pub fn egl_call<R>(
    name: &'static str,
    default: R,
    f: impl FnOnce(&mut Thread, &mut Registry) -> Result<R, EglError>,
) -> R {
    egl_call_unlocked(name, default, |t| f(t, &mut registry()))
}

/// [`egl_call`] for the calls that take the registry's lock themselves, only for as long
/// as they need it (`eglSwapBuffers`: never across a read-back or a window system call).
pub fn egl_call_unlocked<R>(
    name: &'static str,
    default: R,
    f: impl FnOnce(&mut Thread) -> Result<R, EglError>,
) -> R {
    crate::logging::init();
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD.try_with(|t| {
            match t.try_borrow_mut() {
                Ok(mut t) => f(&mut t),
                // Only an EGL call from inside an EGL call gets here, which cannot happen.
                Err(_) => Err(EglError::BadAccess),
            }
        })
    }));
    match result {
        Ok(Ok(Ok(r))) => {
            set_error(tokens::SUCCESS);
            r
        }
        Ok(Ok(Err(e))) => {
            set_error(crate::error::egl_code(e));
            default
        }
        // The thread is exiting: its state is gone.
        Ok(Err(_)) => {
            set_error(tokens::BAD_ALLOC);
            default
        }
        Err(payload) => {
            let message = panic_message(&*payload);
            log::error!("tessera: {name} panicked: {message}");
            eprintln!("tessera: {name} panicked (reported as EGL_BAD_ALLOC): {message}");
            set_error(tokens::BAD_ALLOC);
            default
        }
    }
}

/// Runs a GLX entry point with this thread's EGL state borrowed (GLX contexts are the
/// engine's EGL contexts; GLX reports its errors through Xlib, never `eglGetError`).
/// Returns `default` after a panic (logged) or when the thread's state is unreachable.
pub(crate) fn thread_call<R>(
    name: &'static str,
    default: R,
    f: impl FnOnce(&mut Thread) -> R,
) -> R {
    crate::logging::init();
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD.try_with(|t| t.try_borrow_mut().ok().map(|mut t| f(&mut t)))
    }));
    match result {
        Ok(Ok(Some(r))) => r,
        Ok(_) => default,
        Err(payload) => {
            let message = panic_message(&*payload);
            log::error!("tessera: {name} panicked: {message}");
            eprintln!("tessera: {name} panicked: {message}");
            default
        }
    }
}

/// Sets the calling thread's EGL error.
pub fn set_error(code: i32) {
    let _ = ERROR.try_with(|e| e.set(code));
}

/// `eglGetError`: returns and clears the calling thread's EGL error.
pub fn take_error() -> i32 {
    ERROR
        .try_with(|e| e.replace(tokens::SUCCESS))
        .unwrap_or(tokens::SUCCESS)
}

/// Runs `f` on a context and says whether it raised an error, keeping GL's rule that the
/// first unread error is the one reported. For queries that return a value GL must not
/// write when the call fails.
pub fn raised<R>(c: &mut Context, f: impl FnOnce(&mut Context) -> R) -> (R, bool) {
    let before = c.get_error();
    let r = f(c);
    let after = c.get_error();
    for e in [before, after] {
        if e != NO_ERROR {
            c.restore_error(e);
        }
    }
    (r, after != NO_ERROR)
}

#[cfg(test)]
mod tests {
    //! A panic in one context's call loses that context (its share group too when the panic
    //! poisoned the group's lock), while contexts of other share groups finish their frames.

    use tessera_engine::context::TestPanic;
    use tessera_engine::gl::{COLOR_BUFFER_BIT, RGBA, UNKNOWN_CONTEXT_RESET, UNSIGNED_BYTE};
    use tessera_engine::pixel::PixelsMut;
    use tessera_engine::{BackendKind, Config, SurfaceConfig};

    use super::*;

    /// A GLES context with a 4x4 surface, in a new share group; `None` without a driver.
    fn context() -> Option<Context> {
        let config = Config {
            backend: BackendKind::Gles,
            surface: Some(SurfaceConfig::new(4, 4)),
            ..Config::default()
        };
        Context::new(&config).ok()
    }

    /// One frame through the guard: clear to `rgb`, read the surface back. `None` if the
    /// context is lost.
    fn frame(c: &mut Context, rgb: [u8; 3]) -> Option<Vec<u8>> {
        let [r, g, b] = rgb.map(|v| f32::from(v) / 255.0);
        guarded("glClearColor", c, |c| c.clear_color(r, g, b, 1.0))?;
        guarded("glClear", c, |c| c.clear(COLOR_BUFFER_BIT))?;
        let mut pixels = vec![0u8; 4 * 4 * 4];
        guarded("glReadPixels", c, |c| {
            c.read_pixels(
                0,
                0,
                4,
                4,
                RGBA,
                UNSIGNED_BYTE,
                PixelsMut::Bytes(&mut pixels),
            );
        })?;
        assert_eq!(guarded("glGetError", c, Context::get_error), Some(NO_ERROR));
        Some(pixels)
    }

    fn assert_frames(c: &mut Context, rgb: [u8; 3]) {
        for _ in 0..3 {
            let pixels = frame(c, rgb).expect("a live context renders");
            for px in pixels.chunks(4) {
                assert_eq!(px, [rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }

    fn assert_lost(c: &mut Context) {
        assert!(c.is_dead() && c.is_lost());
        assert_eq!(c.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET);
        // Later calls return at once, without running (so without panicking again).
        assert_eq!(frame(c, [1, 2, 3]), None);
        assert_eq!(guarded("glFlush", c, Context::flush), None);
        assert_eq!(guarded("glGetError", c, Context::get_error), None);
    }

    #[test]
    fn a_panic_outside_the_lock_loses_only_its_context() {
        let (Some(mut a), Some(mut b)) = (context(), context()) else {
            eprintln!("no GLES driver: skipped");
            return;
        };
        let mut sibling = Context::new_shared(
            &a,
            &Config {
                surface: Some(SurfaceConfig::new(4, 4)),
                backend: BackendKind::Null,
                ..Config::default()
            },
        );
        assert_frames(&mut a, [255, 0, 0]);
        a.arm_test_panic(TestPanic::BeforeLock);
        assert_eq!(guarded("glFlush", &mut a, Context::flush), None);
        assert_lost(&mut a);
        // Its share group's shared state is whole: the sibling and the other group go on.
        assert!(!sibling.is_dead());
        assert_eq!(sibling.get_graphics_reset_status(), NO_ERROR);
        assert_frames(&mut sibling, [0, 0, 255]);
        assert_eq!(b.get_graphics_reset_status(), NO_ERROR);
        assert_frames(&mut b, [0, 255, 0]);
    }

    #[test]
    fn a_panic_under_the_share_group_lock_loses_the_group_and_no_other() {
        let (Some(mut a), Some(mut b)) = (context(), context()) else {
            eprintln!("no GLES driver: skipped");
            return;
        };
        let mut sibling = Context::new_shared(
            &a,
            &Config {
                surface: Some(SurfaceConfig::new(4, 4)),
                backend: BackendKind::Null,
                ..Config::default()
            },
        );
        assert_frames(&mut a, [255, 0, 0]);
        assert_frames(&mut b, [0, 255, 0]);
        a.arm_test_panic(TestPanic::UnderLock);
        assert_eq!(guarded("glFlush", &mut a, Context::flush), None);
        assert_lost(&mut a);
        // The group's shared state may be half-updated: the sibling is lost with it.
        assert_lost(&mut sibling);
        // The other share group finishes its frames.
        assert_eq!(b.get_graphics_reset_status(), NO_ERROR);
        assert_frames(&mut b, [0, 255, 0]);
        drop(a);
        drop(sibling);
        assert_frames(&mut b, [255, 255, 0]);
    }
}
