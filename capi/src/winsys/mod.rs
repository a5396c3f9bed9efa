//! Window systems: what the engine's window surfaces present into (see
//! `tessera_engine::egl::window`). Each platform's libraries are loaded at run time, never
//! linked, so the drop-in loads in processes without them (a headless server) and a program
//! that never opens a window pays nothing.
//!
//! - [`x11`]: the program's own X connection (an Xlib `Display*` through `libX11-xcb`, or an
//!   `xcb_connection_t*`), spoken to through `x11rb` over `libxcb`: frames go out with
//!   `PutImage`, sizes come from `GetGeometry`. Every request is checked and its error is
//!   read here, so a window destroyed under a surface is an EGL error, never a message to the
//!   program's Xlib error handler (whose default exits the process).
//! - [`wayland`]: the program's own `wl_display` through `libwayland-client`, on an event
//!   queue of Tessera's own: frames go out in `wl_shm` buffers attached to the surface of the
//!   program's `wl_egl_window`, whose size is read from it at every ask.

pub mod wayland;
pub mod x11;
