//! The built-in scene (the main job's: a render-to-texture pass and 24 textured, blended,
//! depth-tested quads) in a winit window, through Tessera's window surface for Rust hosts
//! (`tessera_capi::host::WindowSurface`): the host owns the window and the event loop, and
//! hands Tessera the window's `raw-window-handle`.
//!
//! Run: `cargo run -p tessera-tests --example winit` (X11 when `DISPLAY` is set, else
//! Wayland). The backend and transport come from `TESSERA_BACKEND` and `TESSERA_TRANSPORT`.
//! `TESSERA_EXAMPLE_FRAMES=N` exits after N frames; closing the window exits too. At exit it
//! prints how many frames it drew and how many the frame callback reported.

#![expect(
    unsafe_code,
    reason = "WindowSurface::new trusts the window handles winit gives it"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tessera_capi::host::WindowSurface;
use tessera_engine::{Config, Context};
use tessera_tests::scenes::Demo;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use winit::window::{Window, WindowId};

/// What the example shows, once the window exists.
struct Shown {
    // Declared first: the surface goes before the window it presents into.
    surface: WindowSurface,
    demo: Demo,
    window: Window,
}

struct App {
    ctx: Context,
    shown: Option<Shown>,
    /// Frames to draw before exiting (`TESSERA_EXAMPLE_FRAMES`), if given.
    limit: Option<u64>,
    drawn: u64,
    /// Frames the frame callback reported.
    reported: Arc<AtomicU64>,
    error: Option<String>,
}

impl App {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Shown, Box<dyn std::error::Error>> {
        let attributes = Window::default_attributes()
            .with_title("Tessera: built-in scene")
            .with_inner_size(PhysicalSize::new(256u32, 256u32));
        let window = event_loop.create_window(attributes)?;
        let size = window.inner_size();
        let (display, handle) = (
            window.display_handle()?.as_raw(),
            window.window_handle()?.as_raw(),
        );
        // SAFETY: the window (and winit's connection to the display) outlive the surface:
        // `Shown` drops the surface first, and `exiting` releases it before that.
        let mut surface = unsafe {
            WindowSurface::new(&mut self.ctx, display, handle, (size.width, size.height))
        }?;
        let reported = self.reported.clone();
        surface.set_frame_callback(move |_frame| {
            reported.fetch_add(1, Ordering::Relaxed);
        });
        let demo = Demo::setup(&mut self.ctx, size.width as i32, size.height as i32);
        Ok(Shown {
            surface,
            demo,
            window,
        })
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.shown.is_some() {
            return;
        }
        match self.open(event_loop) {
            Ok(shown) => {
                shown.window.request_redraw();
                self.shown = Some(shown);
            }
            Err(e) => {
                self.error = Some(format!("cannot show the window: {e}"));
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(shown) = self.shown.as_mut() else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                shown.surface.resize(size.width, size.height);
                shown.demo.set_size(size.width as i32, size.height as i32);
            }
            WindowEvent::RedrawRequested => {
                shown.demo.frame(&mut self.ctx);
                if let Err(e) = shown.surface.swap_buffers(&mut self.ctx) {
                    self.error = Some(format!("the window is gone: {e}"));
                    event_loop.exit();
                    return;
                }
                self.drawn += 1;
                if self.limit.is_some_and(|n| self.drawn >= n) {
                    event_loop.exit();
                } else {
                    shown.window.request_redraw();
                }
            }
            _ => {}
        }
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        if let Some(mut shown) = self.shown.take() {
            shown.surface.wait_frames(&mut self.ctx);
            shown.surface.release(&mut self.ctx);
        }
    }
}

fn main() {
    let limit = std::env::var("TESSERA_EXAMPLE_FRAMES")
        .ok()
        .map(|v| v.parse().expect("TESSERA_EXAMPLE_FRAMES is a number"));
    let config = Config {
        surface: None,
        ..Config::from_env()
    };
    let ctx = Context::new(&config).unwrap_or_else(|e| {
        eprintln!("winit example: {e}");
        std::process::exit(1);
    });
    let event_loop = EventLoop::new().unwrap_or_else(|e| {
        eprintln!("winit example: no display: {e}");
        std::process::exit(1);
    });
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        ctx,
        shown: None,
        limit,
        drawn: 0,
        reported: Arc::new(AtomicU64::new(0)),
        error: None,
    };
    if let Err(e) = event_loop.run_app(&mut app) {
        eprintln!("winit example: {e}");
        std::process::exit(1);
    }
    let reported = app.reported.load(Ordering::Relaxed);
    println!(
        "frames {} reported {reported} backend {}",
        app.drawn,
        app.ctx.backend_name()
    );
    let error = app.ctx.get_error();
    if let Some(e) = app.error {
        eprintln!("winit example: {e}");
        std::process::exit(1);
    }
    if error != 0 {
        eprintln!("winit example: GL error {error:#06x}");
        std::process::exit(1);
    }
}
