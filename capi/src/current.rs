//! The calling thread's EGL state and the guard every entry point runs under.
//!
//! The thread's [`Thread`] (bound API, current context) lives in a thread-local `RefCell`;
//! while a context is current its engine [`Context`] is owned by that thread-local, so a GL
//! call costs a thread-local access and a borrow flag. When the thread exits, the
//! thread-local's destructor releases the context back to the registry.
//!
//! [`gl_call`] and [`egl_call`] wrap every entry point in `catch_unwind`: unwinding into C is
//! undefined behaviour, so a panic (a bug of ours) is logged and reported to the application
//! as an error instead.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};

use tessera_engine::Context;
use tessera_engine::egl::{EglError, Registry, Thread, registry, tokens};
use tessera_engine::gl::{INVALID_OPERATION, NO_ERROR};

thread_local! {
    /// This thread's EGL state.
    static THREAD: RefCell<Thread> = const { RefCell::new(Thread::new()) };
    /// This thread's `eglGetError` value.
    static ERROR: Cell<i32> = const { Cell::new(tokens::SUCCESS) };
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Runs a GL entry point on the current context; `default` without one (or if the thread's
/// state is unreachable: during thread exit, or re-entered).
#[inline]
pub fn gl_call<R>(name: &'static str, default: R, f: impl FnOnce(&mut Context) -> R) -> R {
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD
            .try_with(|t| t.try_borrow_mut().ok().and_then(|mut t| t.gl().map(f)))
            .ok()
            .flatten()
    }));
    match result {
        Ok(Some(r)) => r,
        Ok(None) => default,
        Err(payload) => {
            gl_panicked(name, &*payload);
            default
        }
    }
}

/// Reports a panic in a GL entry point: a log line, and `INVALID_OPERATION` on the current
/// context so the application sees the call failed.
#[cold]
fn gl_panicked(name: &str, payload: &(dyn Any + Send)) {
    let message = panic_message(payload);
    log::error!("tessera: {name} panicked: {message}");
    eprintln!("tessera: {name} panicked (reported as GL_INVALID_OPERATION): {message}");
    let _ = catch_unwind(|| {
        let _ = THREAD.try_with(|t| {
            if let Ok(mut t) = t.try_borrow_mut()
                && let Some(c) = t.gl()
            {
                c.set_error(INVALID_OPERATION);
            }
        });
    });
}

/// Runs an EGL entry point with the registry locked and this thread's state borrowed, and
/// records its outcome as the thread's error: `EGL_SUCCESS`, the error's code, or
/// `EGL_BAD_ALLOC` after a panic (logged). Returns `default` on any failure.
pub fn egl_call<R>(
    name: &'static str,
    default: R,
    f: impl FnOnce(&mut Thread, &mut Registry) -> Result<R, EglError>,
) -> R {
    crate::logging::init();
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD.try_with(|t| {
            let mut reg = registry();
            match t.try_borrow_mut() {
                Ok(mut t) => f(&mut t, &mut reg),
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
            c.set_error(e);
        }
    }
    (r, after != NO_ERROR)
}
