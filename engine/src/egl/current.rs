//! One thread's EGL state: the bound API and the current context, and every call that reads
//! or changes it (`eglMakeCurrent`, `eglCreateContext`, `eglSwapBuffers`, `eglWait*`, …).

use std::thread::ThreadId;

use super::EglError;
use super::context::ContextAttribs;
use super::display::{ContextEntry, Registry};
use super::sync::{ClientWait, EglFence};
use super::tokens::*;
use super::window::WindowError;
use crate::config::Config as EngineConfig;
use crate::context::Context;

/// The context current to a thread, moved out of the registry for as long as it is.
struct Current {
    /// The GL context.
    gl: Box<Context>,
    /// Its handle.
    context: usize,
    /// Its display.
    display: usize,
    /// Draw surface (0: none).
    draw: usize,
    /// Read surface (0: none).
    read: usize,
}

/// One thread's EGL state. Dropping it (the thread exits) releases its current context.
pub struct Thread {
    /// `eglQueryAPI`: `EGL_NONE` until `eglBindAPI(EGL_OPENGL_API)`, since OpenGL ES (the
    /// initial API EGL names) is not supported.
    api: i32,
    current: Option<Current>,
}

impl Default for Thread {
    fn default() -> Self {
        Self::new()
    }
}

fn this_thread() -> ThreadId {
    std::thread::current().id()
}

impl Thread {
    /// A thread that has made no EGL call yet.
    pub const fn new() -> Self {
        Self {
            api: NONE,
            current: None,
        }
    }

    /// The current GL context, if any (what every GL entry point works on).
    #[inline]
    pub fn gl(&mut self) -> Option<&mut Context> {
        self.current.as_mut().map(|c| &mut *c.gl)
    }

    /// `eglBindAPI`: only desktop OpenGL is supported.
    pub fn bind_api(&mut self, api: i32) -> Result<(), EglError> {
        if api != OPENGL_API {
            return Err(EglError::BadParameter);
        }
        self.api = api;
        Ok(())
    }

    /// `eglQueryAPI`.
    pub fn query_api(&self) -> i32 {
        self.api
    }

    /// `eglCreateContext`. `config` is 0 for `EGL_NO_CONFIG_KHR`, `share` 0 for
    /// `EGL_NO_CONTEXT`. The backend and transport come from the environment
    /// (`TESSERA_BACKEND`, `TESSERA_TRANSPORT`).
    pub fn create_context(
        &self,
        reg: &mut Registry,
        dpy: usize,
        config: usize,
        share: usize,
        list: &[(i32, i32)],
    ) -> Result<usize, EglError> {
        reg.initialized(dpy)?;
        let config = match config {
            0 => None,
            c => Some(reg.config(dpy, c)?),
        };
        let share = match share {
            0 => None,
            // A context of another display is EGL_BAD_MATCH; no context at all is
            // EGL_BAD_CONTEXT.
            s => match reg.contexts.get(&s).filter(|c| !c.destroyed) {
                Some(c) if c.display != dpy => return Err(EglError::BadMatch),
                _ => {
                    let c = reg.context(dpy, s)?;
                    Some((c.group.clone(), c.no_error))
                }
            },
        };
        if self.api != OPENGL_API {
            return Err(EglError::BadMatch);
        }
        let attribs = ContextAttribs::parse(list)?;
        // EGL_KHR_create_context_no_error: a share context of the other setting.
        if share.as_ref().is_some_and(|s| s.1 != attribs.no_error) {
            return Err(EglError::BadMatch);
        }
        let group = share.map(|s| s.0);
        // A window platform's display: an in-process backend may present its windows.
        let native_display = reg
            .display(dpy)?
            .windows
            .as_ref()
            .and_then(|w| w.native_display());
        let engine_config = EngineConfig {
            surface: None,
            native_display,
            no_error: attribs.no_error,
            ..EngineConfig::from_env()
        };
        let mut gl = match &group {
            Some(g) => Context::new_in_group(g, &engine_config),
            None => Context::new(&engine_config).map_err(|e| {
                log::error!("tessera: eglCreateContext: {e}");
                EglError::BadAlloc
            })?,
        };
        // A 4.x request needs a backend that carries the version out (or the configured
        // version): only the created context knows.
        if gl.gl_version() < attribs.version() {
            log::info!(
                "tessera: eglCreateContext: OpenGL {}.{} asked for, the context has {}.{}",
                attribs.major,
                attribs.minor,
                gl.gl_version().major,
                gl.gl_version().minor
            );
            return Err(EglError::BadMatch);
        }
        // So does a robust-access request: the backend's buffer reads must stay inside
        // their buffers.
        if attribs.robust_access() && !gl.robust_buffer_access() {
            log::info!("tessera: eglCreateContext: robust access asked for, the backend has none");
            return Err(EglError::BadMatch);
        }
        gl.set_context_flags(attribs.gl_context_flags());
        gl.set_reset_strategy(attribs.gl_reset_strategy());
        let major_version = gl.gl_version().major;
        let handle = reg.mint_context();
        reg.contexts.insert(
            handle,
            ContextEntry {
                display: dpy,
                config,
                group: gl.share_group().clone(),
                gl: Some(Box::new(gl)),
                thread: None,
                draw: 0,
                read: 0,
                destroyed: false,
                major_version,
                no_error: attribs.no_error,
            },
        );
        Ok(handle)
    }

    /// `eglDestroyContext`: destroyed now, or when the thread it is current to releases it.
    pub fn destroy_context(
        &self,
        reg: &mut Registry,
        dpy: usize,
        ctx: usize,
    ) -> Result<(), EglError> {
        reg.context(dpy, ctx)?;
        reg.destroy_context_entry(ctx);
        Ok(())
    }

    /// `eglQueryContext`.
    pub fn query_context(
        &self,
        reg: &Registry,
        dpy: usize,
        ctx: usize,
        attribute: i32,
    ) -> Result<i32, EglError> {
        let c = reg.context(dpy, ctx)?;
        Ok(match attribute {
            CONFIG_ID => c.config.map_or(0, |c| c.id),
            CONTEXT_CLIENT_TYPE => OPENGL_API,
            // The version the context implements (EGL_CONTEXT_MAJOR_VERSION is this token).
            CONTEXT_CLIENT_VERSION => i32::from(c.major_version),
            RENDER_BUFFER => {
                if c.draw != 0 {
                    BACK_BUFFER
                } else {
                    NONE
                }
            }
            _ => return Err(EglError::BadAttribute),
        })
    }

    /// `eglMakeCurrent` (all handles 0 for none).
    pub fn make_current(
        &mut self,
        reg: &mut Registry,
        dpy: usize,
        draw: usize,
        read: usize,
        ctx: usize,
    ) -> Result<(), EglError> {
        reg.display(dpy)?;
        if ctx == 0 && draw == 0 && read == 0 {
            self.release(reg);
            return Ok(());
        }
        reg.initialized(dpy)?;
        let entry = if ctx != 0 {
            Some(reg.context(dpy, ctx)?)
        } else {
            None
        };
        for s in [draw, read] {
            if s != 0 {
                reg.surface(dpy, s)?;
            }
        }
        let Some(entry) = entry else {
            // Surfaces without a context.
            return Err(EglError::BadMatch);
        };
        if (draw == 0) != (read == 0) {
            return Err(EglError::BadMatch);
        }
        let me = this_thread();
        if entry.thread.is_some_and(|t| t != me) {
            return Err(EglError::BadAccess);
        }
        for s in [draw, read] {
            let bound = reg.surfaces.get(&s).and_then(|e| e.bound);
            if let Some(other) = bound.filter(|&o| o != ctx)
                && reg.contexts.get(&other).and_then(|c| c.thread) != Some(me)
            {
                return Err(EglError::BadAccess);
            }
        }
        let config_of = |s: usize| reg.surfaces.get(&s).map(|e| e.config.id);
        match entry.config {
            Some(c) => {
                if [draw, read]
                    .iter()
                    .any(|&s| s != 0 && config_of(s) != Some(c.id))
                {
                    return Err(EglError::BadMatch);
                }
            }
            // EGL_KHR_no_config_context: draw and read must still agree.
            None => {
                if draw != 0 && config_of(draw) != config_of(read) {
                    return Err(EglError::BadMatch);
                }
            }
        }
        // Every check passed: from here on, nothing fails.
        let same = self.current.as_ref().is_some_and(|c| c.context == ctx);
        let mut current = if same {
            let mut cur = self.current.take().expect("checked above");
            Self::unbind_surfaces(reg, &mut cur);
            cur
        } else {
            self.release(reg);
            let e = reg.contexts.get_mut(&ctx).expect("checked above");
            e.thread = Some(me);
            Current {
                gl: e
                    .gl
                    .take()
                    .expect("a context no thread has current keeps its GL context"),
                context: ctx,
                display: dpy,
                draw: 0,
                read: 0,
            }
        };
        if draw != 0 {
            let s = reg.surfaces.get_mut(&draw).expect("checked above");
            s.bound = Some(ctx);
            s.bind(&mut current.gl);
        } else {
            current.gl.bind_window(None);
        }
        if read != 0 {
            if let Some(s) = reg.surfaces.get_mut(&read) {
                s.bound = Some(ctx);
            }
            if read != draw {
                log::warn!(
                    "tessera: eglMakeCurrent with a read surface other than the draw surface: \
                     reads of the default framebuffer come from the draw surface"
                );
            }
        }
        current.draw = draw;
        current.read = read;
        if let Some(e) = reg.contexts.get_mut(&ctx) {
            e.draw = draw;
            e.read = read;
        }
        self.current = Some(current);
        Ok(())
    }

    /// Unbinds a current context's surfaces, destroying those destroyed while bound.
    fn unbind_surfaces(reg: &mut Registry, cur: &mut Current) {
        cur.gl.bind_window(None);
        for s in [cur.draw, cur.read] {
            if s == 0 {
                continue;
            }
            let destroyed = match reg.surfaces.get_mut(&s) {
                Some(e) => {
                    e.bound = None;
                    e.destroyed
                }
                None => false,
            };
            if destroyed && let Some(e) = reg.surfaces.remove(&s) {
                e.destroy_wire_surfaces();
            }
        }
        cur.draw = 0;
        cur.read = 0;
    }

    /// Releases the current context (flushing it, as `eglMakeCurrent` does), destroying it
    /// and its surfaces if they were destroyed while current.
    pub fn release(&mut self, reg: &mut Registry) {
        let Some(mut cur) = self.current.take() else {
            return;
        };
        cur.gl.flush();
        // A backend applied in this thread may hold thread-bound state (a native context);
        // the context may next be made current on another thread.
        cur.gl.release_thread();
        Self::unbind_surfaces(reg, &mut cur);
        let destroyed = match reg.contexts.get_mut(&cur.context) {
            Some(e) if !e.destroyed => {
                e.thread = None;
                e.draw = 0;
                e.read = 0;
                e.gl = Some(cur.gl);
                return;
            }
            Some(_) => true,
            None => false,
        };
        if destroyed {
            reg.contexts.remove(&cur.context);
        }
        // The context was destroyed while current: it goes now.
        drop(cur.gl);
    }

    /// `eglReleaseThread`: releases the current context and returns the thread to its
    /// initial state.
    pub fn release_thread(&mut self, reg: &mut Registry) {
        self.release(reg);
        self.api = NONE;
    }

    /// `eglGetCurrentContext` (0 if none, or if it was destroyed while current).
    pub fn current_context(&self, reg: &Registry) -> usize {
        self.current
            .as_ref()
            .filter(|c| reg.contexts.get(&c.context).is_some_and(|e| !e.destroyed))
            .map_or(0, |c| c.context)
    }

    /// `eglGetCurrentDisplay`.
    pub fn current_display(&self) -> usize {
        self.current.as_ref().map_or(0, |c| c.display)
    }

    /// `eglGetCurrentSurface`.
    pub fn current_surface(&self, reg: &Registry, readdraw: i32) -> Result<usize, EglError> {
        let Some(c) = &self.current else {
            return Ok(0);
        };
        let s = match readdraw {
            DRAW => c.draw,
            READ => c.read,
            _ => return Err(EglError::BadParameter),
        };
        Ok(if reg.surfaces.get(&s).is_some_and(|e| !e.destroyed) {
            s
        } else {
            0
        })
    }

    /// `eglSwapBuffers`: the surface must be the current context's draw surface. Takes the
    /// registry's lock only to check the handles: the read-back and the window system's
    /// work run without it, so other threads' EGL calls never wait for a frame.
    pub fn swap_buffers(&mut self, dpy: usize, surface: usize) -> Result<(), EglError> {
        self.swap_buffers_with_damage(dpy, surface, None)
    }

    /// `eglSwapBuffersWithDamageKHR`: as [`swap_buffers`](Self::swap_buffers), showing only
    /// the damaged rows where a frame is already shown (see `Context::swap_window_with_damage`).
    pub fn swap_buffers_with_damage(
        &mut self,
        dpy: usize,
        surface: usize,
        damage: Option<&[[i32; 4]]>,
    ) -> Result<(), EglError> {
        {
            let reg = super::display::registry();
            reg.surface(dpy, surface)?;
        }
        match &mut self.current {
            Some(c) if c.draw == surface => {
                c.gl.swap_window_with_damage(damage).map_err(|e| match e {
                    WindowError::Gone => EglError::BadNativeWindow,
                    WindowError::Failed(why) => {
                        log::error!("tessera: eglSwapBuffers: {why}");
                        EglError::BadSurface
                    }
                })
            }
            _ => Err(EglError::BadSurface),
        }
    }

    /// `eglSwapInterval`: sets the interval of the current draw surface's window (a
    /// pbuffer has none, so there it only checks that a context of `dpy` with a draw
    /// surface is current).
    pub fn swap_interval(
        &mut self,
        reg: &Registry,
        dpy: usize,
        interval: i32,
    ) -> Result<(), EglError> {
        reg.initialized(dpy)?;
        let Some(c) = self.current.as_mut().filter(|c| c.display == dpy) else {
            return Err(EglError::BadContext);
        };
        if c.draw == 0 {
            return Err(EglError::BadSurface);
        }
        c.gl.set_swap_interval(interval);
        Ok(())
    }

    /// Whether the current context's draw surface was destroyed while current
    /// (`EGL_BAD_CURRENT_SURFACE` for the wait calls).
    fn check_current_surface(&self, reg: &Registry) -> Result<(), EglError> {
        match &self.current {
            Some(c) if c.draw != 0 && reg.surfaces.get(&c.draw).is_none_or(|e| e.destroyed) => {
                Err(EglError::BadCurrentSurface)
            }
            _ => Ok(()),
        }
    }

    /// `eglWaitClient` / `eglWaitGL`: finishes the current context.
    pub fn wait_client(&mut self, reg: &Registry) -> Result<(), EglError> {
        self.check_current_surface(reg)?;
        if let Some(c) = &mut self.current {
            c.gl.finish();
        }
        Ok(())
    }

    /// `eglWaitNative`: there is no native rendering to wait for.
    pub fn wait_native(&self, reg: &Registry, engine: i32) -> Result<(), EglError> {
        if self.current.is_none() {
            return Ok(());
        }
        self.check_current_surface(reg)?;
        if engine != CORE_NATIVE_ENGINE {
            return Err(EglError::BadParameter);
        }
        Ok(())
    }

    /// `eglCreateSync(EGL_SYNC_FENCE)` / `eglCreateSyncKHR`: a fence after the current
    /// context's commands so far (`crate::egl::sync`). Errors in Mesa's order: a fence
    /// needs a current context of `dpy` (`BAD_MATCH`), then a known type (`bad_type`:
    /// `BAD_PARAMETER` for EGL 1.5's entry point, `BAD_ATTRIBUTE` for the KHR one), then
    /// no attributes (a fence takes none: `BAD_ATTRIBUTE`).
    pub fn create_sync(
        &mut self,
        reg: &mut Registry,
        dpy: usize,
        ty: i32,
        list: &[(i32, i32)],
        bad_type: EglError,
    ) -> Result<usize, EglError> {
        reg.initialized(dpy)?;
        match &self.current {
            None if ty == SYNC_FENCE => return Err(EglError::BadMatch),
            Some(c) if c.display != dpy => return Err(EglError::BadMatch),
            _ => {}
        }
        if ty != SYNC_FENCE {
            return Err(bad_type);
        }
        if !list.is_empty() {
            return Err(EglError::BadAttribute);
        }
        let Some(c) = self.current.as_mut() else {
            return Err(EglError::BadMatch);
        };
        let fence = EglFence::insert(&mut c.gl);
        Ok(reg.add_sync(dpy, fence))
    }

    /// `eglClientWaitSync`: `EGL_CONDITION_SATISFIED` or `EGL_TIMEOUT_EXPIRED`
    /// (`timeout_ns` `EGL_FOREVER` waits for good); a lost session fails the wait
    /// (`EGL_CONTEXT_LOST`). Flags are not checked, as in Mesa; every wait flushes.
    pub fn client_wait_sync(fence: &EglFence, timeout_ns: u64) -> Result<i32, EglError> {
        match fence.client_wait(timeout_ns) {
            ClientWait::Satisfied => Ok(CONDITION_SATISFIED),
            ClientWait::Expired => Ok(TIMEOUT_EXPIRED),
            ClientWait::Lost => Err(EglError::ContextLost),
        }
    }

    /// `eglWaitSync` / `eglWaitSyncKHR` on a sync of `dpy` (already checked): needs a
    /// current context of `dpy` (`BAD_MATCH`) and no flags (`BAD_PARAMETER`). In the
    /// fence's own share group there is nothing to do; in another one the thread waits for
    /// the fence before later commands are recorded (see `crate::egl::sync`).
    pub fn wait_sync(&self, dpy: usize, fence: &EglFence, flags: i32) -> Result<(), EglError> {
        let Some(c) = self.current.as_ref().filter(|c| c.display == dpy) else {
            return Err(EglError::BadMatch);
        };
        if flags != 0 {
            return Err(EglError::BadParameter);
        }
        if fence.in_group_of(&c.gl) {
            return Ok(());
        }
        match fence.client_wait(u64::MAX) {
            ClientWait::Lost => Err(EglError::ContextLost),
            _ => Ok(()),
        }
    }
}

impl Drop for Thread {
    fn drop(&mut self) {
        if self.current.is_some() {
            let mut reg = super::display::registry();
            self.release(&mut reg);
        }
    }
}
