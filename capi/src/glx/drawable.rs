//! GLX drawables: X windows (a `GLXWindow` is the window's own ID), pbuffers (IDs above
//! X's resource range), swaps, size queries and swap intervals.

use std::ffi::c_int;

use tessera_engine::egl::display::config_handle;
use tessera_engine::egl::tokens as egl;
use tessera_engine::egl::{EglError, Registry, registry};

use super::config::{GlxConfig, glx_attribs, glx_config};
use super::context::current_binding;
use super::tokens::*;
use super::{
    BAD_ALLOC, BAD_MATCH, BAD_VALUE, Drawable, ERR_BAD_DRAWABLE, ERR_BAD_FBCONFIG, GlxError,
    GlxHandle, XDisplay, Xid, engine_display, glx, request, send_error,
};
use crate::current::thread_call;

/// The engine surface of drawable `xid` on engine display `d`, created now for `config` if
/// the drawable has none yet (an X window made current without `glXCreateWindow`): a
/// single-buffered config's window is front-buffered.
pub(crate) fn surface_for(
    reg: &mut Registry,
    d: usize,
    xid: Xid,
    config: &'static GlxConfig,
) -> Result<usize, GlxError> {
    let known = glx()
        .as_ref()
        .and_then(|g| g.drawables.get(&(d, xid)).copied());
    if let Some(k) = known
        && k.surface != 0
        && reg.check_surface(d, k.surface).is_ok()
    {
        return Ok(k.surface);
    }
    if known.is_some_and(|k| k.pbuffer) {
        return Err(ERR_BAD_DRAWABLE);
    }
    forget_gone_windows(reg, d);
    let surface = reg
        .create_window_surface(d, config_handle(config.config), xid as usize, &[])
        .map_err(|e| match e {
            EglError::BadAlloc => BAD_ALLOC,
            EglError::BadMatch => BAD_MATCH,
            _ => ERR_BAD_DRAWABLE,
        })?;
    if !config.double {
        reg.set_front_buffered(d, surface)
            .map_err(|_| ERR_BAD_DRAWABLE)?;
    }
    if let Some(g) = glx().as_mut() {
        g.drawables.insert(
            (d, xid),
            Drawable {
                surface,
                pbuffer: false,
                interval: 1,
                config_id: config.id,
                front: !config.double,
            },
        );
    }
    Ok(surface)
}

/// Window drawables GLX keeps before it forgets those whose X window is gone.
const KEPT_WINDOWS: usize = 32;

/// A program that makes windows current without `glXCreateWindow` never says when they go:
/// past [`KEPT_WINDOWS`] window drawables on a display, those whose X window no longer
/// exists (the size query says so) and that no context has current are forgotten and their
/// surfaces destroyed, so GLX's memory follows the windows alive, not every window ever used.
fn forget_gone_windows(reg: &mut Registry, d: usize) {
    let candidates: Vec<(Xid, usize)> = match glx().as_ref() {
        Some(g) => {
            let windows: Vec<(Xid, usize)> = g
                .drawables
                .iter()
                .filter(|((dd, _), k)| *dd == d && !k.pbuffer)
                .map(|((_, xid), k)| (*xid, k.surface))
                .collect();
            if windows.len() < KEPT_WINDOWS {
                return;
            }
            windows
        }
        None => return,
    };
    for (xid, surface) in candidates {
        if reg.query_surface(d, surface, egl::WIDTH) == Err(EglError::BadNativeWindow) {
            let _ = reg.destroy_surface(d, surface);
            if let Some(g) = glx().as_mut() {
                g.drawables.remove(&(d, xid));
            }
        }
    }
}

/// `glXCreateWindow`: the `GLXWindow` is the window's own ID; its surface is made now.
///
/// # Safety
/// `dpy` is a live display; `attrib_list` is null or `None`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXCreateWindow(
    dpy: XDisplay,
    config: GlxHandle,
    win: Xid,
    attrib_list: *const c_int,
) -> Xid {
    let _ = attrib_list;
    let Some(config) = glx_config(config) else {
        send_error(dpy, ERR_BAD_FBCONFIG, 0, request::CREATE_WINDOW);
        return 0;
    };
    let made = {
        let mut reg = registry();
        match engine_display(&mut reg, dpy) {
            Some(d) => surface_for(&mut reg, d, win, config),
            None => Err(BAD_MATCH),
        }
    };
    match made {
        Ok(_) => win,
        Err(e) => {
            // A window that does not exist is BadWindow.
            let e = if e == ERR_BAD_DRAWABLE {
                GlxError::Core(3)
            } else {
                e
            };
            send_error(dpy, e, win, request::CREATE_WINDOW);
            0
        }
    }
}

/// Destroys a drawable's surface (now, or when its context releases it).
fn destroy(dpy: XDisplay, xid: Xid, pbuffer: bool) {
    let mut reg = registry();
    let Some(d) = engine_display(&mut reg, dpy) else {
        return;
    };
    let removed = glx().as_mut().and_then(|g| g.drawables.remove(&(d, xid)));
    match removed {
        Some(k) if k.pbuffer == pbuffer => {
            let _ = reg.destroy_surface(d, k.surface);
        }
        Some(k) => {
            if let Some(g) = glx().as_mut() {
                g.drawables.insert((d, xid), k);
            }
            drop(reg);
            send_error(dpy, ERR_BAD_DRAWABLE, xid, 32);
        }
        None if pbuffer => {
            drop(reg);
            send_error(dpy, GlxError::Glx(10), xid, 28);
        }
        None => {}
    }
}

/// `glXDestroyWindow`.
#[unsafe(no_mangle)]
pub extern "C" fn glXDestroyWindow(dpy: XDisplay, win: Xid) {
    destroy(dpy, win, false);
}

/// `glXCreatePbuffer`.
///
/// # Safety
/// `dpy` is a live display; `attrib_list` is null or `None`-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXCreatePbuffer(
    dpy: XDisplay,
    config: GlxHandle,
    attrib_list: *const c_int,
) -> Xid {
    let Some(config) = glx_config(config) else {
        send_error(dpy, ERR_BAD_FBCONFIG, 0, request::CREATE_PBUFFER);
        return 0;
    };
    // SAFETY: the caller's contract.
    let list = unsafe { glx_attribs(attrib_list) };
    let mut egl_list = Vec::new();
    for (a, v) in list {
        egl_list.push(match a {
            GLX_PBUFFER_WIDTH => (egl::WIDTH, v),
            GLX_PBUFFER_HEIGHT => (egl::HEIGHT, v),
            GLX_LARGEST_PBUFFER => (egl::LARGEST_PBUFFER, i32::from(v != 0)),
            GLX_PRESERVED_CONTENTS => continue,
            _ => {
                send_error(dpy, BAD_VALUE, 0, request::CREATE_PBUFFER);
                return 0;
            }
        });
    }
    let made = {
        let mut reg = registry();
        engine_display(&mut reg, dpy)
            .ok_or(BAD_MATCH)
            .and_then(|d| {
                reg.create_pbuffer(d, config_handle(config.config), &egl_list)
                    .map(|s| (d, s))
                    .map_err(|e| match e {
                        EglError::BadAlloc => BAD_ALLOC,
                        _ => BAD_VALUE,
                    })
            })
    };
    match made {
        Ok((d, surface)) => {
            let mut g = glx();
            let g = g.as_mut().expect("initialized by glx()");
            let id = g.next_pbuffer;
            g.next_pbuffer += 1;
            g.drawables.insert(
                (d, id),
                Drawable {
                    surface,
                    pbuffer: true,
                    interval: 0,
                    config_id: config.id,
                    front: false,
                },
            );
            id
        }
        Err(e) => {
            send_error(dpy, e, 0, request::CREATE_PBUFFER);
            0
        }
    }
}

/// `glXDestroyPbuffer`.
#[unsafe(no_mangle)]
pub extern "C" fn glXDestroyPbuffer(dpy: XDisplay, pbuf: Xid) {
    destroy(dpy, pbuf, true);
}

/// `glXCreatePixmap`: no config renders to pixmaps (`GLX_PIXMAP_BIT` is never set), so
/// `BadMatch`.
#[unsafe(no_mangle)]
pub extern "C" fn glXCreatePixmap(
    dpy: XDisplay,
    config: GlxHandle,
    pixmap: Xid,
    attrib_list: *const c_int,
) -> Xid {
    let _ = (config, attrib_list);
    send_error(dpy, BAD_MATCH, pixmap, 22);
    0
}

/// `glXDestroyPixmap`: there are no GLX pixmaps (`GLXBadPixmap`).
#[unsafe(no_mangle)]
pub extern "C" fn glXDestroyPixmap(dpy: XDisplay, pixmap: Xid) {
    send_error(dpy, GlxError::Glx(3), pixmap, 23);
}

/// `glXCreateGLXPixmap`: likewise `BadMatch`.
#[unsafe(no_mangle)]
pub extern "C" fn glXCreateGLXPixmap(
    dpy: XDisplay,
    vis: *const crate::winsys::x11::XVisualInfo,
    pixmap: Xid,
) -> Xid {
    let _ = vis;
    send_error(dpy, BAD_MATCH, pixmap, 13);
    0
}

/// `glXDestroyGLXPixmap`: likewise `GLXBadPixmap`.
#[unsafe(no_mangle)]
pub extern "C" fn glXDestroyGLXPixmap(dpy: XDisplay, pixmap: Xid) {
    send_error(dpy, GlxError::Glx(3), pixmap, 15);
}

/// The engine display and surface of a drawable GLX knows, if any.
fn known(dpy: XDisplay, xid: Xid) -> Option<(usize, Drawable)> {
    let mut reg = registry();
    let d = engine_display(&mut reg, dpy)?;
    drop(reg);
    glx()
        .as_ref()
        .and_then(|g| g.drawables.get(&(d, xid)).copied())
        .map(|k| (d, k))
}

/// `glXSwapBuffers`: shows the frame of the current context's window; on a drawable that is
/// not current to this thread, only flushes (GLX 1.4 §3.3.10). On a single-buffered window
/// there is nothing to swap, only the implicit `glFlush`, which shows what is drawn there (as
/// on Mesa).
#[unsafe(no_mangle)]
pub extern "C" fn glXSwapBuffers(dpy: XDisplay, drawable: Xid) {
    let current = current_binding();
    let Some((d, k)) = known(dpy, drawable) else {
        send_error(dpy, ERR_BAD_DRAWABLE, drawable, request::SWAP_BUFFERS);
        return;
    };
    if k.front {
        crate::current::gl_call("glXSwapBuffers", (), |c| c.flush());
        return;
    }
    if current.is_some_and(|(_, draw, _)| draw == drawable) {
        let result = thread_call("glXSwapBuffers", Ok(()), |t| t.swap_buffers(d, k.surface));
        if let Err(e) = result {
            log::debug!("tessera: glXSwapBuffers: {e}");
            send_error(dpy, ERR_BAD_DRAWABLE, drawable, request::SWAP_BUFFERS);
        }
        crate::current::gl_call("glXSwapBuffers", (), crate::events::drain);
    } else {
        crate::current::gl_call("glXSwapBuffers", (), |c| c.flush());
    }
}

/// `glXQueryDrawable`: a window's size is the window's now.
///
/// # Safety
/// `value` is valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXQueryDrawable(
    dpy: XDisplay,
    draw: Xid,
    attribute: c_int,
    value: *mut std::ffi::c_uint,
) {
    let Some((d, k)) = known(dpy, draw) else {
        send_error(dpy, ERR_BAD_DRAWABLE, draw, request::QUERY_DRAWABLE);
        return;
    };
    let reg = registry();
    let q = |a| reg.query_surface(d, k.surface, a).unwrap_or(0);
    let v = match attribute {
        GLX_WIDTH => q(egl::WIDTH),
        GLX_HEIGHT => q(egl::HEIGHT),
        GLX_FBCONFIG_ID => k.config_id,
        GLX_PRESERVED_CONTENTS => 1,
        GLX_LARGEST_PBUFFER => q(egl::LARGEST_PBUFFER),
        GLX_SWAP_INTERVAL_EXT => k.interval,
        GLX_MAX_SWAP_INTERVAL_EXT => 1,
        GLX_EVENT_MASK => 0,
        _ => {
            drop(reg);
            send_error(dpy, BAD_VALUE, draw, request::QUERY_DRAWABLE);
            return;
        }
    };
    // SAFETY: the caller's contract.
    unsafe { crate::ptr::write(value, v as std::ffi::c_uint) };
}

/// Sets the swap interval of the current context's drawable.
fn set_interval(dpy: XDisplay, drawable: Xid, interval: i32) -> bool {
    let Some((_, draw, _)) = current_binding() else {
        return false;
    };
    let drawable = if drawable == 0 { draw } else { drawable };
    let Some((d, _)) = known(dpy, drawable) else {
        return false;
    };
    if drawable == draw {
        thread_call("glXSwapInterval", (), |t| {
            let reg = registry();
            let _ = t.swap_interval(&reg, d, interval);
        });
    }
    if let Some(k) = glx()
        .as_mut()
        .and_then(|g| g.drawables.get_mut(&(d, drawable)))
    {
        k.interval = interval.clamp(0, 1);
    }
    true
}

/// `glXSwapIntervalEXT`: intervals above 1 are clamped to 1 (`GLX_MAX_SWAP_INTERVAL_EXT`).
#[unsafe(no_mangle)]
pub extern "C" fn glXSwapIntervalEXT(dpy: XDisplay, drawable: Xid, interval: c_int) {
    if interval < 0 {
        send_error(dpy, BAD_VALUE, drawable, 0);
        return;
    }
    if !set_interval(dpy, drawable, interval) {
        send_error(dpy, ERR_BAD_DRAWABLE, drawable, 0);
    }
}

/// `glXSwapIntervalMESA`: 0 on success, `GLX_BAD_CONTEXT` without a current context,
/// `GLX_BAD_VALUE` for a negative interval.
#[unsafe(no_mangle)]
pub extern "C" fn glXSwapIntervalMESA(interval: std::ffi::c_uint) -> c_int {
    let Ok(interval) = i32::try_from(interval) else {
        return GLX_BAD_VALUE;
    };
    let Some((dpy, draw, _)) = current_binding() else {
        return GLX_BAD_CONTEXT;
    };
    if set_interval(dpy, draw, interval) {
        0
    } else {
        GLX_BAD_CONTEXT
    }
}

/// `glXGetSwapIntervalMESA`.
#[unsafe(no_mangle)]
pub extern "C" fn glXGetSwapIntervalMESA() -> c_int {
    current_binding()
        .and_then(|(dpy, draw, _)| known(dpy, draw))
        .map_or(0, |(_, k)| k.interval)
}

/// `glXSwapIntervalSGI`: intervals of 0 or less are `GLX_BAD_VALUE`.
#[unsafe(no_mangle)]
pub extern "C" fn glXSwapIntervalSGI(interval: c_int) -> c_int {
    if interval <= 0 {
        return GLX_BAD_VALUE;
    }
    let Some((dpy, draw, _)) = current_binding() else {
        return GLX_BAD_CONTEXT;
    };
    if set_interval(dpy, draw, interval) {
        0
    } else {
        GLX_BAD_CONTEXT
    }
}

/// `glXSelectEvent`: no GLX events are ever generated, so the mask is only checked.
#[unsafe(no_mangle)]
pub extern "C" fn glXSelectEvent(dpy: XDisplay, draw: Xid, event_mask: std::ffi::c_ulong) {
    let _ = event_mask;
    if known(dpy, draw).is_none() {
        send_error(dpy, ERR_BAD_DRAWABLE, draw, 25);
    }
}

/// `glXGetSelectedEvent`: always no events.
///
/// # Safety
/// `event_mask` is valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn glXGetSelectedEvent(
    dpy: XDisplay,
    draw: Xid,
    event_mask: *mut std::ffi::c_ulong,
) {
    let _ = (dpy, draw);
    // SAFETY: the caller's contract.
    unsafe { crate::ptr::write(event_mask, 0) };
}

/// `glXUseXFont`: display lists do not exist in a core profile; nothing is made.
#[unsafe(no_mangle)]
pub extern "C" fn glXUseXFont(font: Xid, first: c_int, count: c_int, list_base: c_int) {
    let _ = (font, first, count, list_base);
}
