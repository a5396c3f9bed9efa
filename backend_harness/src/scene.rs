//! The scene: a record stream in front of one backend, its replies and events, and the
//! checks every read-back makes.

use tessera_wire::format::{Format, PixelFormat, PixelLayout, PixelType};
use tessera_wire::handle::{Handle, ObjectKind, RawHandle, SurfaceHandle, TextureHandle};
use tessera_wire::record::{
    FramebufferRef, PixelDestination, ReadImage, ReadRegion, ReadSource, TextureRead,
};
use tessera_wire::state::{Rect, SurfaceDesc};
use tessera_wire::{
    Backend, Encoder, Event, Record, Reply, ReplyId, SessionLost, Span, Transport, TransportKind,
};

/// Width and height of every scene's surface.
pub const SIZE: i32 = 64;

/// Tightly packed RGBA8, the layout most scenes upload and read.
pub const RGBA8: PixelLayout = PixelLayout {
    format: PixelFormat::Rgba,
    ty: PixelType::U8,
};

/// Opaque red, as RGBA8.
pub const RED: [u8; 4] = [255, 0, 0, 255];
/// Opaque green, as RGBA8.
pub const GREEN: [u8; 4] = [0, 255, 0, 255];
/// Opaque blue, as RGBA8.
pub const BLUE: [u8; 4] = [0, 0, 255, 255];
/// Opaque black, as RGBA8: what the scenes clear to before drawing.
pub const BLACK: [u8; 4] = [0, 0, 0, 255];
/// Opaque white, as RGBA8.
pub const WHITE: [u8; 4] = [255, 255, 255, 255];

/// One pixel a scene expects: (x, y) and its exact RGBA8 value.
pub type Probe = (i32, i32, [u8; 4]);

/// How a backend's test suite makes a scene on a transport: what a shared scene that needs
/// more than one session, on more than one transport, is given.
pub type New<'a> = &'a dyn Fn(TransportKind) -> Scene;

/// A record stream in front of one backend, applied through a transport.
///
/// Handles are minted here (generation 1, slots counted per kind), records are pushed into
/// [`Scene::enc`] and reach the backend on the next [`Scene::submit`] (every read-back
/// submits). Events the transport reports are kept until [`Scene::events`] takes them, so a
/// read-back can check that no native error happened before it.
pub struct Scene {
    /// The encoder records are pushed into.
    pub enc: Encoder,
    /// The session with the backend.
    pub transport: Box<dyn Transport>,
    /// The 64 x 64 RGBA8 + D24S8 surface the scene was made with.
    pub surface: SurfaceHandle,
    /// Says which backend variant this is in assertion messages ("inproc", "floor", ...).
    pub label: String,
    log: Vec<Event>,
    next: [u32; ObjectKind::COUNT],
    /// The backend's own test that nothing went wrong natively, beyond the events (the
    /// Vulkan suite counts validation messages through its probe).
    check: Option<Box<dyn Fn()>>,
}

impl Scene {
    /// Context 0 with a 64 x 64 RGBA8 + D24S8 surface bound, viewport, scissor rectangle and
    /// draw buffer set, in front of `backend` through a transport of `kind`.
    pub fn new(kind: &TransportKind, backend: Box<dyn Backend>) -> Self {
        let mut s = Scene {
            enc: Encoder::new(),
            transport: tessera_wire::transport::connect(kind, backend),
            surface: SurfaceHandle {
                slot: 0,
                generation: 0,
            },
            label: kind.name().to_owned(),
            log: Vec::new(),
            next: [0; ObjectKind::COUNT],
            check: None,
        };
        s.surface = s.h();
        s.push(Record::CreateContext { context: 0 });
        s.push(Record::CreateSurface {
            surface: s.surface,
            desc: surface_desc(0),
        });
        s.bind_surface();
        s.draw_buffers(&[0]);
        s
    }

    /// The same scene, named `label` in assertion messages.
    pub fn labelled(mut self, label: &str) -> Self {
        self.label = label.to_owned();
        self
    }

    /// The same scene, with `check` run wherever the scene asserts that the backend was quiet
    /// (after each read-back and at [`Scene::finish`]).
    pub fn with_check(mut self, check: impl Fn() + 'static) -> Self {
        self.check = Some(Box::new(check));
        self
    }

    /// A fresh handle of kind `H`.
    pub fn h<H: Handle>(&mut self) -> H {
        let k = H::KIND.index();
        self.next[k] += 1;
        H::from_raw(RawHandle {
            slot: self.next[k],
            generation: 1,
        })
    }

    /// Appends a record to the batch being built.
    pub fn push(&mut self, r: Record) {
        self.enc.push(r);
    }

    /// Copies bytes into the batch's stage area.
    pub fn stage(&mut self, bytes: &[u8]) -> Span {
        self.enc.stage(bytes)
    }

    /// Hands the batch to the backend.
    pub fn submit(&mut self) -> Result<(), SessionLost> {
        self.transport.submit(&mut self.enc)
    }

    /// Pushes the record `ask` makes for a fresh reply, submits, and waits for the answer.
    pub fn ask(&mut self, ask: impl FnOnce(ReplyId) -> Record) -> Reply {
        let reply = self.enc.mint_reply();
        self.push(ask(reply));
        self.submit().expect("session alive");
        self.transport.wait_reply(reply).expect("reply")
    }

    /// Every event so far (including those read-backs looked at), taken.
    pub fn events(&mut self) -> Vec<Event> {
        let mut e = std::mem::take(&mut self.log);
        self.transport.take_events(&mut e);
        e
    }

    /// Asserts that the backend reported no native error so far (GL errors under the GLES
    /// backend's debug checks, validation messages under Vulkan's layer), and runs the
    /// suite's own check.
    #[track_caller]
    pub fn assert_quiet(&mut self) {
        self.transport.take_events(&mut self.log);
        let native: Vec<_> = self
            .log
            .iter()
            .filter(|e| matches!(e, Event::NativeError { .. }))
            .collect();
        assert!(
            native.is_empty(),
            "native errors ({}): {native:#?}",
            self.label
        );
        if let Some(check) = &self.check {
            check();
        }
    }

    /// Waits for everything submitted so far to be done, then [`Scene::assert_quiet`].
    #[track_caller]
    pub fn finish(&mut self) {
        let done = self.ask(|reply| Record::Finish { reply });
        assert_eq!(done, Reply::Done);
        self.assert_quiet();
    }

    /// Reads `rect` of one image of a framebuffer in `layout`: the reply as it came.
    pub fn read(&mut self, src: ReadSource, rect: Rect, layout: PixelLayout) -> Reply {
        self.ask(|reply| Record::ReadPixels {
            src,
            layout,
            region: Box::new(ReadRegion {
                rect,
                dst: PixelDestination::Reply(reply),
            }),
        })
    }

    /// Reads `rect` of a framebuffer's colour 0 in `layout`, checking the backend was quiet.
    #[track_caller]
    pub fn read_as(
        &mut self,
        framebuffer: FramebufferRef,
        rect: Rect,
        layout: PixelLayout,
    ) -> Vec<u8> {
        let src = ReadSource {
            framebuffer,
            image: ReadImage::Color(0),
        };
        let bytes = match self.read(src, rect, layout) {
            Reply::Bytes(b) => b,
            other => panic!("ReadPixels answered {other:?}"),
        };
        self.assert_quiet();
        bytes
    }

    /// The RGBA8 pixel at (x, y) of a framebuffer's colour 0.
    #[track_caller]
    pub fn pixel_of(&mut self, framebuffer: FramebufferRef, x: i32, y: i32) -> [u8; 4] {
        let b = self.read_as(framebuffer, rect(x, y, 1, 1), RGBA8);
        [b[0], b[1], b[2], b[3]]
    }

    /// Asserts the RGBA8 pixel of each probe in a framebuffer's colour 0: all are read
    /// first, then every one that differs is named.
    #[track_caller]
    pub fn expect_pixels_of(&mut self, framebuffer: FramebufferRef, probes: &[Probe]) {
        let mut wrong = Vec::new();
        for &(x, y, want) in probes {
            let got = self.pixel_of(framebuffer, x, y);
            if got != want {
                wrong.push(format!("({x}, {y}) is {got:?}, not {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}: {}", self.label, wrong.join("; "));
    }

    /// [`Scene::expect_pixels_of`] the scene's surface.
    #[track_caller]
    pub fn expect_pixels(&mut self, probes: &[Probe]) {
        self.expect_pixels_of(FramebufferRef::Surface(self.surface), probes);
    }

    /// Asserts that the backend reported no event at all so far.
    #[track_caller]
    pub fn assert_no_events(&mut self) {
        let events = self.events();
        assert!(events.is_empty(), "{}: {events:?}", self.label);
    }

    /// Asserts that some event so far is one `wanted` accepts (all of them are taken).
    #[track_caller]
    pub fn expect_event(&mut self, wanted: impl Fn(&Event) -> bool) {
        let events = self.events();
        let found = events.iter().any(wanted);
        assert!(found, "{}: no such event in {events:?}", self.label);
    }

    /// The RGBA8 pixel at (x, y) of the scene's surface.
    #[track_caller]
    pub fn pixel(&mut self, x: i32, y: i32) -> [u8; 4] {
        self.pixel_of(FramebufferRef::Surface(self.surface), x, y)
    }

    /// Level 0 (face 0) of a texture, `size` texels read in `layout`: the reply as it came.
    pub fn read_texture(
        &mut self,
        texture: TextureHandle,
        layout: PixelLayout,
        size: [u32; 3],
    ) -> Reply {
        self.ask(|reply| Record::ReadTexture {
            texture,
            level: 0,
            face: 0,
            layout,
            read: Box::new(TextureRead {
                size,
                dst: PixelDestination::Reply(reply),
            }),
        })
    }
}

/// A rectangle at (x, y).
pub fn rect(x: i32, y: i32, width: i32, height: i32) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

/// A 64 x 64 RGBA8 + D24S8 surface of `samples` samples (0: single-sampled).
pub fn surface_desc(samples: u8) -> SurfaceDesc {
    SurfaceDesc {
        width: SIZE as u32,
        height: SIZE as u32,
        color: Some(Format::Rgba8),
        depth_stencil: Some(Format::Depth24Stencil8),
        samples,
    }
}
