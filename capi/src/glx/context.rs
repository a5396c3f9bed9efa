//! GLX contexts and the current context: engine contexts on the display's engine X11
//! display, made current through the engine's EGL `make_current` with the drawable's
//! surface.

use std::cell::Cell;
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tessera_engine::egl::tokens as egl;
use tessera_engine::egl::{EglError, Thread, registry};

use super::config::{GlxConfig, config_of_visual, glx_attribs, glx_config};
use super::drawable::surface_for;
use super::tokens::*;
use super::{
    BAD_MATCH, BAD_VALUE, ERR_BAD_CONTEXT, ERR_BAD_FBCONFIG, GlxError, GlxHandle, XBool, XDisplay,
    Xid, engine_display, request, send_error,
};
use crate::current::thread_call;
use crate::winsys::x11::XVisualInfo;

/// What is current to this thread, as GLX names it.
#[derive(Clone, Copy)]
struct Current {
    display: XDisplay,
    draw: Xid,
    read: Xid,
    context: usize,
}

thread_local! {
    static CURRENT: Cell<Current> = const {
        Cell::new(Current {
            display: std::ptr::null_mut(),
            draw: 0,
            read: 0,
            context: 0,
        })
    };
}

fn current() -> Current {
    CURRENT.with(Cell::get)
}

/// The current display, drawable and engine context, if a context is current.
pub(crate) fn current_binding() -> Option<(XDisplay, Xid, usize)> {
    let c = current();
    (c.context != 0).then_some((c.display, c.draw, c.context))
}

/// Whether a `(major, minor)` version exists in some OpenGL specification.
fn defined(major: i32, minor: i32) -> bool {
    match major {
        1 => (0..=5).contains(&minor),
        2 => (0..=1).contains(&minor),
        3 => (0..=3).contains(&minor),
        4 => (0..=6).contains(&minor),
        _ => false,
    }
}

/// Creates an engine context for `config` sharing with `share`, from GLX_ARB_create_context
/// attributes (`None` for the old calls: a 3.3 core context, the only kind Tessera makes).
fn create(
    dpy: XDisplay,
    config: &'static GlxConfig,
    share: GlxHandle,
    attribs: Option<&[(i32, i32)]>,
    minor_opcode: u16,
) -> GlxHandle {
    let mut list = vec![
        (egl::CONTEXT_MAJOR_VERSION, 3),
        (egl::CONTEXT_MINOR_VERSION, 3),
    ];
    let (mut major, mut minor) = (1, 0);
    let (mut flags, mut no_error) = (0, false);
    if let Some(attribs) = attribs {
        list.clear();
        for &(a, v) in attribs {
            let mapped = match a {
                GLX_CONTEXT_MAJOR_VERSION_ARB => {
                    major = v;
                    (egl::CONTEXT_MAJOR_VERSION, v)
                }
                GLX_CONTEXT_MINOR_VERSION_ARB => {
                    minor = v;
                    (egl::CONTEXT_MINOR_VERSION, v)
                }
                // The flag bits (debug 1, forward-compatible 2, robust 4) and the profile
                // bits are EGL's.
                GLX_CONTEXT_FLAGS_ARB => {
                    flags |= v;
                    (egl::CONTEXT_FLAGS_KHR, v)
                }
                // GLX_ARB_create_context_no_error: any non-zero value is true, as Mesa's
                // GLX takes it.
                GLX_CONTEXT_OPENGL_NO_ERROR_ARB => {
                    no_error = v != 0;
                    (egl::CONTEXT_OPENGL_NO_ERROR_KHR, v)
                }
                // GLX_ARB_create_context_profile: a mask that is not exactly one of the
                // profiles offered is GLXBadProfileARB (no ES profile is offered).
                GLX_CONTEXT_PROFILE_MASK_ARB => {
                    if v != 1 && v != 2 {
                        send_error(dpy, GlxError::Glx(13), 0, minor_opcode);
                        return std::ptr::null_mut();
                    }
                    (egl::CONTEXT_OPENGL_PROFILE_MASK, v)
                }
                GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB => (
                    egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                    match v {
                        GLX_NO_RESET_NOTIFICATION_ARB => egl::NO_RESET_NOTIFICATION,
                        GLX_LOSE_CONTEXT_ON_RESET_ARB => egl::LOSE_CONTEXT_ON_RESET,
                        _ => {
                            send_error(dpy, BAD_VALUE, 0, minor_opcode);
                            return std::ptr::null_mut();
                        }
                    },
                ),
                GLX_RENDER_TYPE if v == GLX_RGBA_TYPE => continue,
                // Colour-index contexts do not exist; no config can give one.
                GLX_RENDER_TYPE => {
                    send_error(dpy, BAD_MATCH, 0, minor_opcode);
                    return std::ptr::null_mut();
                }
                _ => {
                    send_error(dpy, BAD_VALUE, 0, minor_opcode);
                    return std::ptr::null_mut();
                }
            };
            list.push(mapped);
        }
    }
    // GLX_ARB_create_context_no_error: no error together with a debug or robust-access
    // context (flag bits 1 and 4), or sharing with a context of the other setting, is
    // BadMatch (Mesa's __DRI_CTX_ERROR_BAD_FLAG), not the GLXBadFBConfig of a refused
    // version.
    if no_error
        && flags & (egl::CONTEXT_OPENGL_DEBUG_BIT_KHR | egl::CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR)
            != 0
    {
        send_error(dpy, BAD_MATCH, 0, minor_opcode);
        return std::ptr::null_mut();
    }
    let mut share_mismatch = false;
    let created = thread_call("glXCreateContext", Err(EglError::BadAlloc), |t| {
        let mut reg = registry();
        let Some(d) = engine_display(&mut reg, dpy) else {
            return Err(EglError::BadDisplay);
        };
        if !share.is_null()
            && reg
                .context_no_error(d, share as usize)
                .is_ok_and(|n| n != no_error)
        {
            share_mismatch = true;
            return Err(EglError::BadMatch);
        }
        // GLX contexts are OpenGL contexts whatever EGL API the thread has bound.
        let api = t.query_api();
        t.bind_api(egl::OPENGL_API)?;
        let config = tessera_engine::egl::display::config_handle(config.config);
        let made = t.create_context(&mut reg, d, config, share as usize, &list);
        if api != egl::OPENGL_API {
            let _ = t.bind_api(api);
        }
        made
    });
    match created {
        Ok(h) => {
            if let Some(g) = super::glx().as_mut() {
                g.contexts.insert(h, config);
            }
            std::ptr::without_provenance_mut(h)
        }
        Err(e) => {
            // GLX_ARB_create_context: a version no specification defines is BadMatch; a
            // defined one (or profile) this implementation does not offer is
            // GLXBadFBConfig; an unknown share context is GLXBadContext.
            let error = match e {
                EglError::BadContext => ERR_BAD_CONTEXT,
                EglError::BadMatch if share_mismatch => BAD_MATCH,
                EglError::BadMatch if attribs.is_some() && !defined(major, minor) => BAD_MATCH,
                EglError::BadMatch => ERR_BAD_FBCONFIG,
                EglError::BadAttribute => BAD_VALUE,
                _ => GlxError::Core(11),
            };
            send_error(dpy, error, 0, minor_opcode);
            std::ptr::null_mut()
        }
    }
}

/// `glXCreateContext`: a 3.3 core context (the only kind Tessera makes) for the visual.
///
/// # Safety
/// `dpy` is a live display; `vis` is null or a valid `XVisualInfo`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXCreateContext(
    dpy: XDisplay,
    vis: *const XVisualInfo,
    share: GlxHandle,
    direct: XBool,
) -> GlxHandle {
    let _ = direct;
    if vis.is_null() {
        send_error(dpy, BAD_VALUE, 0, request::CREATE_CONTEXT);
        return std::ptr::null_mut();
    }
    create(
        dpy,
        config_of_visual(),
        share,
        None,
        request::CREATE_CONTEXT,
    )
}

/// `glXCreateNewContext`.
///
/// # Safety
/// `dpy` is a live display.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXCreateNewContext(
    dpy: XDisplay,
    config: GlxHandle,
    render_type: c_int,
    share: GlxHandle,
    direct: XBool,
) -> GlxHandle {
    let _ = direct;
    let Some(config) = glx_config(config) else {
        send_error(dpy, ERR_BAD_FBCONFIG, 0, request::CREATE_NEW_CONTEXT);
        return std::ptr::null_mut();
    };
    if render_type != GLX_RGBA_TYPE {
        send_error(dpy, BAD_MATCH, 0, request::CREATE_NEW_CONTEXT);
        return std::ptr::null_mut();
    }
    create(dpy, config, share, None, request::CREATE_NEW_CONTEXT)
}

/// `glXCreateContextAttribsARB`.
///
/// # Safety
/// `dpy` is a live display; `attrib_list` is null or `None`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXCreateContextAttribsARB(
    dpy: XDisplay,
    config: GlxHandle,
    share: GlxHandle,
    direct: XBool,
    attrib_list: *const c_int,
) -> GlxHandle {
    let _ = direct;
    let Some(config) = glx_config(config) else {
        send_error(
            dpy,
            ERR_BAD_FBCONFIG,
            0,
            request::CREATE_CONTEXT_ATTRIBS_ARB,
        );
        return std::ptr::null_mut();
    };
    // SAFETY: the caller's contract.
    let list = unsafe { glx_attribs(attrib_list) };
    create(
        dpy,
        config,
        share,
        Some(&list),
        request::CREATE_CONTEXT_ATTRIBS_ARB,
    )
}

/// `glXDestroyContext`: destroyed now, or when no longer current.
#[unsafe(no_mangle)]
pub extern "C" fn glXDestroyContext(dpy: XDisplay, ctx: GlxHandle) {
    let destroy = |t: &Thread| {
        let mut reg = registry();
        let d = engine_display(&mut reg, dpy)?;
        t.destroy_context(&mut reg, d, ctx as usize)
            .err()
            .map(|_| ERR_BAD_CONTEXT)
    };
    // Toolkits tear down in `atexit` handlers, which glibc runs after the thread-local
    // destructors: this thread's state is gone by then (its destructor released the current
    // context), so the context is destroyed with a fresh one.
    let failed =
        thread_call("glXDestroyContext", None, |t| Some(destroy(t))).unwrap_or_else(|| {
            catch_unwind(AssertUnwindSafe(|| destroy(&Thread::new()))).unwrap_or(Some(BAD_VALUE))
        });
    // A context destroyed while current to this thread lives on until it is released, and
    // destroying it again is no error (as in Mesa's GLX).
    let current = current();
    let still_current = !ctx.is_null() && current.context == ctx as usize && current.display == dpy;
    if failed.is_none()
        && !still_current
        && let Some(g) = super::glx().as_mut()
    {
        g.contexts.remove(&(ctx as usize));
    }
    if let Some(e) = failed.filter(|_| !still_current) {
        send_error(dpy, e, ctx as Xid, 4);
    }
}

/// The `GLXFBConfig` context `ctx` was made with (a visual's context: [`config_of_visual`]).
fn context_config(ctx: usize) -> &'static GlxConfig {
    super::glx()
        .as_ref()
        .and_then(|g| g.contexts.get(&ctx).copied())
        .unwrap_or_else(config_of_visual)
}

/// Makes `ctx` current on `draw` (reads from `read`, which must be `draw`), or releases
/// the current context (`ctx` null).
fn make_current(dpy: XDisplay, draw: Xid, read: Xid, ctx: GlxHandle, minor: u16) -> XBool {
    let ctx = ctx as usize;
    // Releasing succeeds when this thread's state is gone (in an `atexit` handler, after the
    // thread-local destructors, which released its current context).
    let unreachable = if ctx == 0 && draw == 0 && read == 0 {
        Ok(())
    } else {
        Err(BAD_MATCH)
    };
    let result = thread_call("glXMakeCurrent", unreachable, |t| {
        let mut reg = registry();
        // The binding this thread already has, with a context destroyed since (it lives on
        // while current, GLX 1.4 §3.3.7): nothing to do, as in Mesa's GLX.
        let c = current();
        if ctx != 0
            && (c.context, c.display, c.draw, c.read) == (ctx, dpy, draw, read)
            && t.current_context(&reg) == 0
            && t.current_display() != 0
        {
            return Ok(());
        }
        if ctx == 0 {
            if draw != 0 || read != 0 {
                return Err(BAD_MATCH);
            }
            t.release(&mut reg);
            return Ok(());
        }
        let d = engine_display(&mut reg, dpy).ok_or(BAD_MATCH)?;
        if draw == 0 || read == 0 {
            // GLX 1.4 §3.3.7: a context needs a drawable (no surfaceless GLX here).
            return Err(BAD_MATCH);
        }
        reg.context_config(d, ctx).map_err(|_| ERR_BAD_CONTEXT)?;
        let config = context_config(ctx);
        let draw_surface = surface_for(&mut reg, d, draw, config)?;
        let read_surface = if read == draw {
            draw_surface
        } else {
            surface_for(&mut reg, d, read, config)?
        };
        t.make_current(&mut reg, d, draw_surface, read_surface, ctx)
            .map_err(|e| match e {
                EglError::BadContext => ERR_BAD_CONTEXT,
                EglError::BadNativeWindow | EglError::BadSurface => super::ERR_BAD_DRAWABLE,
                _ => BAD_MATCH,
            })
    });
    match result {
        Ok(()) => {
            CURRENT.with(|c| {
                c.set(if ctx == 0 {
                    Current {
                        display: std::ptr::null_mut(),
                        draw: 0,
                        read: 0,
                        context: 0,
                    }
                } else {
                    Current {
                        display: dpy,
                        draw,
                        read,
                        context: ctx,
                    }
                });
            });
            1
        }
        Err(e) => {
            send_error(dpy, e, draw, minor);
            0
        }
    }
}

/// `glXMakeCurrent`.
#[unsafe(no_mangle)]
pub extern "C" fn glXMakeCurrent(dpy: XDisplay, drawable: Xid, ctx: GlxHandle) -> XBool {
    make_current(dpy, drawable, drawable, ctx, request::MAKE_CURRENT)
}

/// `glXMakeContextCurrent`.
#[unsafe(no_mangle)]
pub extern "C" fn glXMakeContextCurrent(
    dpy: XDisplay,
    draw: Xid,
    read: Xid,
    ctx: GlxHandle,
) -> XBool {
    make_current(dpy, draw, read, ctx, request::MAKE_CONTEXT_CURRENT)
}

/// `glXGetCurrentContext`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetCurrentContext() -> GlxHandle {
    std::ptr::without_provenance_mut(current().context)
}

/// `glXGetCurrentDrawable`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetCurrentDrawable() -> Xid {
    current().draw
}

/// `glXGetCurrentReadDrawable`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetCurrentReadDrawable() -> Xid {
    current().read
}

/// `glXGetCurrentDisplay`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetCurrentDisplay() -> XDisplay {
    current().display
}

/// `glXIsDirect`: every context renders directly.
#[unsafe(no_mangle)]
pub extern "C" fn glXIsDirect(dpy: XDisplay, ctx: GlxHandle) -> XBool {
    let _ = dpy;
    XBool::from(!ctx.is_null())
}

/// `glXQueryContext`.
///
/// # Safety
/// `value` is valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXQueryContext(
    dpy: XDisplay,
    ctx: GlxHandle,
    attribute: c_int,
    value: *mut c_int,
) -> c_int {
    let known = {
        let mut reg = registry();
        engine_display(&mut reg, dpy).and_then(|d| reg.context_config(d, ctx as usize).ok())
    };
    if known.is_none() {
        return GLX_BAD_CONTEXT;
    }
    let v = match attribute {
        GLX_FBCONFIG_ID => context_config(ctx as usize).id,
        GLX_RENDER_TYPE => GLX_RGBA_TYPE,
        // SAFETY: a live display.
        GLX_SCREEN => (unsafe { crate::winsys::x11::X11::default_screen(dpy) }) as c_int,
        _ => return GLX_BAD_ATTRIBUTE,
    };
    // SAFETY: the caller's contract.
    unsafe { crate::ptr::write(value, v) };
    0
}

/// `glXCopyContext`: no state is copied between contexts (`BadMatch`, as for contexts
/// that do not share an address space).
#[unsafe(no_mangle)]
pub extern "C" fn glXCopyContext(dpy: XDisplay, src: GlxHandle, dst: GlxHandle, mask: u64) {
    let _ = (src, dst, mask);
    send_error(dpy, BAD_MATCH, 0, 10);
}

/// `glXWaitGL`: finishes the current context.
#[unsafe(no_mangle)]
pub extern "C" fn glXWaitGL() {
    crate::current::gl_call("glXWaitGL", (), |c| c.finish());
}

/// `glXWaitX`: X rendering is the server's; there is nothing to wait for before GL
/// rendering, which only ever happens in Tessera's own images.
#[unsafe(no_mangle)]
pub extern "C" fn glXWaitX() {}
