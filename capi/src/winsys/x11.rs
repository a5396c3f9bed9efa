//! X11 windows through the program's own connection.

use std::ffi::{c_char, c_int, c_void};
use std::sync::{Arc, OnceLock};

use tessera_engine::egl::window::{Frame, NativeWindow, Visual, WindowError, WindowSystem};
use tessera_engine::wire::backend::{NativeDisplay, NativeTarget};
use x11rb::connection::{Connection, RequestConnection};
use x11rb::errors::ReplyError;
use x11rb::protocol::xproto::{ConnectionExt, CreateGCAux, ImageFormat, VisualClass};
use x11rb::xcb_ffi::XCBConnection;

/// The few Xlib functions needed besides XCB, loaded at run time.
pub(crate) struct Xlib {
    /// `XGetXCBConnection` (libX11-xcb).
    get_xcb_connection: unsafe extern "C" fn(*mut c_void) -> *mut c_void,
    /// `XDefaultScreen`.
    default_screen: unsafe extern "C" fn(*mut c_void) -> c_int,
    /// `XOpenDisplay`.
    pub open_display: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    /// `XGetVisualInfo`.
    pub get_visual_info: unsafe extern "C" fn(
        *mut c_void,
        std::ffi::c_long,
        *mut XVisualInfo,
        *mut c_int,
    ) -> *mut XVisualInfo,
    /// `XQueryExtension`.
    pub query_extension: unsafe extern "C" fn(
        *mut c_void,
        *const c_char,
        *mut c_int,
        *mut c_int,
        *mut c_int,
    ) -> c_int,
    /// `XSetErrorHandler`.
    pub set_error_handler: unsafe extern "C" fn(Option<ErrorHandler>) -> Option<ErrorHandler>,
    /// `XNextRequest`.
    pub next_request: unsafe extern "C" fn(*mut c_void) -> std::ffi::c_ulong,

    _x11: libloading::Library,
    _x11_xcb: libloading::Library,
}

impl Xlib {
    /// Xlib, loaded once (`None`: the libraries are not installed).
    pub(crate) fn get() -> Option<&'static Xlib> {
        static XLIB: OnceLock<Option<Xlib>> = OnceLock::new();
        XLIB.get_or_init(|| match Self::load() {
            Ok(x) => Some(x),
            Err(e) => {
                log::error!("tessera: cannot load Xlib: {e}");
                None
            }
        })
        .as_ref()
    }

    fn load() -> Result<Self, libloading::Error> {
        // SAFETY: loading system libraries whose initializers are benign; the symbols are
        // read with their C signatures.
        unsafe {
            let x11 = libloading::Library::new("libX11.so.6")?;
            let x11_xcb = libloading::Library::new("libX11-xcb.so.1")?;
            Ok(Self {
                get_xcb_connection: *x11_xcb.get(b"XGetXCBConnection\0")?,
                default_screen: *x11.get(b"XDefaultScreen\0")?,
                open_display: *x11.get(b"XOpenDisplay\0")?,
                get_visual_info: *x11.get(b"XGetVisualInfo\0")?,
                query_extension: *x11.get(b"XQueryExtension\0")?,
                set_error_handler: *x11.get(b"XSetErrorHandler\0")?,
                next_request: *x11.get(b"XNextRequest\0")?,
                _x11: x11,
                _x11_xcb: x11_xcb,
            })
        }
    }
}

/// Xlib's `XVisualInfo`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XVisualInfo {
    /// `Visual*`.
    pub visual: *mut c_void,
    /// `VisualID`.
    pub visualid: std::ffi::c_ulong,
    /// Screen number.
    pub screen: c_int,
    /// Depth.
    pub depth: c_int,
    /// Class (`TrueColor` = 4).
    pub class: c_int,
    /// Channel masks.
    pub red_mask: std::ffi::c_ulong,
    /// See `red_mask`.
    pub green_mask: std::ffi::c_ulong,
    /// See `red_mask`.
    pub blue_mask: std::ffi::c_ulong,
    /// Colormap entries.
    pub colormap_size: c_int,
    /// Significant bits per channel.
    pub bits_per_rgb: c_int,
}

/// Xlib's `XErrorEvent`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XErrorEvent {
    /// `type` (0: an error).
    pub kind: c_int,
    /// The display.
    pub display: *mut c_void,
    /// The resource in error.
    pub resource: std::ffi::c_ulong,
    /// The request's serial number.
    pub serial: std::ffi::c_ulong,
    /// The error code.
    pub error_code: u8,
    /// The major opcode of the request.
    pub request_code: u8,
    /// Its minor opcode.
    pub minor_code: u8,
}

/// An Xlib error handler (`XErrorHandler`).
pub type ErrorHandler = unsafe extern "C" fn(*mut c_void, *mut XErrorEvent) -> c_int;

/// Why an X display could not be used.
pub(crate) fn failed(why: impl std::fmt::Display) -> WindowError {
    WindowError::Failed(why.to_string())
}

/// An X display: the program's connection (never closed here) and its screen.
pub struct X11 {
    conn: Arc<XCBConnection>,
    visual: Visual,
    /// The screen the display's windows are on.
    screen: u32,
}

impl X11 {
    /// Xlib's default screen of `display`.
    ///
    /// # Safety
    /// `display` is a live Xlib display.
    pub(crate) unsafe fn default_screen(display: *mut c_void) -> usize {
        let Some(x) = Xlib::get() else {
            return 0;
        };
        // SAFETY: the caller's contract.
        let screen = unsafe { (x.default_screen)(display) };
        screen.max(0) as usize
    }

    /// The display of an Xlib `Display*` (null: the default display, opened here and kept
    /// for the life of the process, as EGL displays are).
    ///
    /// # Safety
    /// `display` is null or a live Xlib display that outlives every use of the result.
    pub unsafe fn from_xlib(display: *mut c_void) -> Result<Self, WindowError> {
        let xlib = Xlib::get().ok_or_else(|| failed("libX11 / libX11-xcb are not installed"))?;
        let display = if display.is_null() {
            // SAFETY: XOpenDisplay takes a null name (the DISPLAY variable's).
            unsafe { (xlib.open_display)(std::ptr::null()) }
        } else {
            display
        };
        if display.is_null() {
            return Err(failed("cannot open the default X display"));
        }
        // SAFETY: a live display (the caller's contract, or just opened).
        let (raw, screen) = unsafe {
            (
                (xlib.get_xcb_connection)(display),
                (xlib.default_screen)(display),
            )
        };
        // SAFETY: the display's connection lives as long as the display.
        unsafe { Self::from_xcb(raw, screen.max(0) as usize) }
    }

    /// The display of an `xcb_connection_t*` and screen number.
    ///
    /// # Safety
    /// `conn` is a live XCB connection that outlives every use of the result.
    pub unsafe fn from_xcb(conn: *mut c_void, screen: usize) -> Result<Self, WindowError> {
        if conn.is_null() {
            return Err(failed("no XCB connection"));
        }
        // SAFETY: the caller's contract; the connection is not ours to close.
        let conn =
            unsafe { XCBConnection::from_raw_xcb_connection(conn, false) }.map_err(failed)?;
        let setup = conn.setup();
        let screen = if screen < setup.roots.len() {
            screen
        } else {
            0
        };
        let s = setup
            .roots
            .get(screen)
            .ok_or_else(|| failed("the X server has no screen"))?;
        let visual = Visual {
            id: s.root_visual as i32,
            class: i32::from(u8::from(VisualClass::TRUE_COLOR)),
            depth: s.root_depth,
        };
        Ok(Self {
            conn: Arc::new(conn),
            visual,
            screen: screen as u32,
        })
    }
}

impl WindowSystem for X11 {
    fn name(&self) -> &'static str {
        "x11"
    }

    fn visual(&self) -> Visual {
        self.visual
    }

    fn native_display(&self) -> Option<NativeDisplay> {
        // SAFETY: the connection is the program's (its display's), which EGL and GLX
        // require to stay open while the display's contexts exist; a backend made with it
        // lives as long as its share group, whose contexts those are.
        Some(unsafe { NativeDisplay::xcb(self.conn.get_raw_xcb_connection(), self.screen) })
    }

    fn open_window(&self, native: usize) -> Result<Box<dyn NativeWindow>, WindowError> {
        let window = u32::try_from(native).map_err(|_| WindowError::Gone)?;
        let mut w = X11Window {
            conn: self.conn.clone(),
            window,
            gc: 0,
            depth: 0,
            rows: Vec::new(),
            shm: Vec::new(),
            shm_tried: false,
            next: 0,
            interval: 1,
        };
        w.size()?;
        let gc = self.conn.generate_id().map_err(failed)?;
        self.conn
            .create_gc(gc, window, &CreateGCAux::new().graphics_exposures(0))
            .map_err(failed)?
            .check()
            .map_err(gone_or_failed)?;
        w.gc = gc;
        Ok(Box::new(w))
    }
}

/// An X error about the window is the window being gone; anything else is a failure.
fn gone_or_failed(e: ReplyError) -> WindowError {
    match e {
        ReplyError::X11Error(_) => WindowError::Gone,
        other => failed(other),
    }
}

/// A System V shared memory segment the X server reads frames from (MIT-SHM).
struct ShmSegment {
    /// The X server's name for it.
    seg: u32,
    /// Its mapping here.
    addr: *mut u8,
    len: usize,
    /// The sequence number of a request sent after the last put from this segment: once
    /// its reply is in, the server has read the segment and it may be written again.
    fence: Option<u64>,
}

// SAFETY: the mapping is owned by the segment (no other reference to it exists here), and
// a window is used by one thread at a time.
unsafe impl Send for ShmSegment {}

impl ShmSegment {
    /// Android's C library (bionic) has no System V IPC: frames go in requests.
    #[cfg(target_os = "android")]
    fn new(_conn: &XCBConnection, _len: usize) -> Option<Self> {
        None
    }

    /// A segment of `len` bytes attached to the server read-only, or `None` where MIT-SHM
    /// cannot be used (a server on another machine, no extension, no SysV IPC).
    #[cfg(not(target_os = "android"))]
    fn new(conn: &XCBConnection, len: usize) -> Option<Self> {
        use x11rb::protocol::shm::ConnectionExt as _;
        conn.shm_query_version().ok()?.reply().ok()?;
        // SAFETY: plain System V calls; the id and address are checked before use.
        let (id, addr) = unsafe {
            let id = libc::shmget(libc::IPC_PRIVATE, len, libc::IPC_CREAT | 0o600);
            if id < 0 {
                return None;
            }
            let addr = libc::shmat(id, std::ptr::null(), 0);
            if addr as isize == -1 {
                libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
                return None;
            }
            (id, addr.cast::<u8>())
        };
        let seg = conn.generate_id().ok();
        let attached = seg.is_some_and(|seg| {
            conn.shm_attach(seg, id as u32, true)
                .ok()
                .and_then(|c| c.check().ok())
                .is_some()
        });
        // SAFETY: `id` is the segment just made; once attached (or not), its name is not
        // needed: it goes when the server and this process have detached.
        unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
        if !attached {
            // SAFETY: `addr` is this segment's mapping.
            unsafe { libc::shmdt(addr.cast()) };
            return None;
        }
        Some(Self {
            seg: seg?,
            addr,
            len,
            fence: None,
        })
    }

    /// Waits until the server has read the segment's last frame.
    fn wait(&mut self, conn: &XCBConnection) {
        if let Some(seq) = self.fence.take() {
            let _ = conn.wait_for_reply_or_raw_error(seq);
        }
    }

    fn release(&mut self, conn: &XCBConnection) {
        use x11rb::protocol::shm::ConnectionExt as _;
        self.wait(conn);
        let _ = conn.shm_detach(self.seg);
        let _ = conn.flush();
        // SAFETY: `addr` is this segment's mapping, no longer read by the server.
        #[cfg(not(target_os = "android"))]
        unsafe {
            libc::shmdt(self.addr.cast())
        };
    }
}

/// One X window frames are put into.
struct X11Window {
    conn: Arc<XCBConnection>,
    window: u32,
    gc: u32,
    depth: u8,
    /// The frame flipped to the X server's top-down row order, for `PutImage` (kept between
    /// frames).
    rows: Vec<u8>,
    /// Two MIT-SHM segments used in turn (empty: MIT-SHM is not available, or not tried).
    shm: Vec<ShmSegment>,
    /// Whether MIT-SHM was tried (it is tried once per window size).
    shm_tried: bool,
    next: usize,
    interval: i32,
}

impl X11Window {
    /// Puts the frame through a shared segment; `false` if MIT-SHM cannot be used.
    fn present_shm(&mut self, frame: &Frame<'_>) -> Result<bool, WindowError> {
        use x11rb::protocol::shm::ConnectionExt as _;
        let (w, h) = (frame.width, frame.height);
        let stride = w as usize * 4;
        let len = stride * h as usize;
        if self.shm.first().is_some_and(|s| s.len < len) {
            for mut s in self.shm.drain(..) {
                s.release(&self.conn);
            }
            self.shm_tried = false;
        }
        if !self.shm_tried {
            self.shm_tried = true;
            let room = len.max(1).next_multiple_of(4096);
            self.shm = (0..2)
                .map_while(|_| ShmSegment::new(&self.conn, room))
                .collect();
            if self.shm.len() < 2 {
                for mut s in self.shm.drain(..) {
                    s.release(&self.conn);
                }
            }
        }
        if self.shm.is_empty() {
            return Ok(false);
        }
        self.next = (self.next + 1) % self.shm.len();
        let seg = &mut self.shm[self.next];
        seg.wait(&self.conn);
        // SAFETY: the mapping holds `seg.len >= len` bytes, and the server no longer reads
        // it (waited above).
        let dst = unsafe { std::slice::from_raw_parts_mut(seg.addr, len) };
        for (y, row) in dst.chunks_exact_mut(stride).enumerate() {
            row.copy_from_slice(frame.row_from_top(y as u32));
        }
        let seg_id = seg.seg;
        self.conn
            .shm_put_image(
                self.window,
                self.gc,
                w as u16,
                h as u16,
                0,
                0,
                w as u16,
                h as u16,
                0,
                0,
                self.depth,
                u8::from(ImageFormat::Z_PIXMAP),
                false,
                seg_id,
                0,
            )
            .map_err(failed)?;
        // A cheap request after the put: its reply means the server has read the segment.
        // The cookie is not dropped (which would discard the reply): `wait` takes it.
        let fence = self.conn.get_input_focus().map_err(failed)?;
        self.shm[self.next].fence = Some(fence.sequence_number());
        std::mem::forget(fence);
        self.conn.flush().map_err(failed)?;
        Ok(true)
    }
}

impl NativeWindow for X11Window {
    fn size(&mut self) -> Result<(u32, u32), WindowError> {
        let g = self
            .conn
            .get_geometry(self.window)
            .map_err(failed)?
            .reply()
            .map_err(gone_or_failed)?;
        self.depth = g.depth;
        Ok((u32::from(g.width), u32::from(g.height)))
    }

    fn present(&mut self, frame: &Frame<'_>) -> Result<(), WindowError> {
        if self.present_shm(frame)? {
            return Ok(());
        }
        let (w, h) = (frame.width, frame.height);
        let stride = w as usize * 4;
        self.rows.clear();
        self.rows.reserve(stride * h as usize);
        for y in 0..h {
            self.rows.extend_from_slice(frame.row_from_top(y));
        }
        // PutImage in bands that fit the server's maximum request length.
        let max = self
            .conn
            .maximum_request_bytes()
            .saturating_sub(64)
            .max(stride);
        let band = (max / stride).clamp(1, h as usize);
        for (i, chunk) in self.rows.chunks(band * stride).enumerate() {
            let rows = (chunk.len() / stride) as u16;
            // The reply is discarded; an error (the window went away) is read with it and
            // dropped here, and the next size check reports the window gone.
            self.conn
                .put_image(
                    ImageFormat::Z_PIXMAP,
                    self.window,
                    self.gc,
                    w as u16,
                    rows,
                    0,
                    (i * band) as i16,
                    0,
                    self.depth,
                    chunk,
                )
                .map_err(failed)?;
        }
        self.conn.flush().map_err(failed)?;
        Ok(())
    }

    fn set_swap_interval(&mut self, interval: i32) -> i32 {
        self.interval = interval.clamp(0, 1);
        self.interval
    }

    fn native_target(&mut self) -> Option<NativeTarget> {
        let visual = self
            .conn
            .get_window_attributes(self.window)
            .ok()?
            .reply()
            .ok()?
            .visual;
        // SAFETY: the connection is the program's (its display's), which EGL and GLX require
        // to stay open while the display's surfaces and contexts exist; a backend holds the
        // target no longer than the surface it was attached to, or its session, which end
        // when they are destroyed.
        Some(unsafe { NativeTarget::xcb(self.conn.get_raw_xcb_connection(), self.window, visual) })
    }
}

impl Drop for X11Window {
    fn drop(&mut self) {
        for mut s in self.shm.drain(..) {
            s.release(&self.conn);
        }
        if self.gc != 0 {
            let _ = self.conn.free_gc(self.gc);
            let _ = self.conn.flush();
        }
    }
}
