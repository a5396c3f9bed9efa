//! Two contexts of one share group on two threads: a thread blocked in `glClientWaitSync`
//! on one context does not hold up the other, which draws and reads back 100 frames while
//! the first waits (on the null, GLES and Vulkan backends, in process and on a render
//! thread).
//!
//! The fence is held unsignalled by a gate around the backend: it keeps back the
//! watermark the backend reports until the drawing thread opens it. Had the waiter held
//! the share group's lock, the drawing thread could not read back a single frame before
//! the wait's 30 s timeout, and the waiter would return `TIMEOUT_EXPIRED` before the
//! drawing thread saw it still waiting: the outcome is decided by order, never by a
//! measured time.
//!
//! And a panic injected into a verb of one context loses only that context, while the
//! other thread's context of the group goes on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tessera_engine::context::TestPanic;
use tessera_engine::gl::*;
use tessera_engine::pixel::PixelsMut;
use tessera_engine::{Config, Context, SurfaceConfig};
use tessera_wire::TransportKind;
use tessera_wire::backend::{Backend, BatchView, Caps, Event, Outbox, SessionError};

/// What the test and the gate share.
#[derive(Default)]
struct Gate {
    open: AtomicBool,
}

/// A backend whose fence watermark stays where it is while the gate is closed.
struct Gated {
    inner: Box<dyn Backend>,
    gate: Arc<Gate>,
    /// The watermark kept back.
    held: u64,
}

impl Gated {
    /// Keeps back every watermark report while the gate is closed, and hands over the
    /// newest one kept once it is open.
    fn filter(&mut self, out: &mut Outbox) {
        let open = self.gate.open.load(Ordering::SeqCst);
        out.events.retain(|e| match *e {
            Event::FencesCompleted { seq } if !open => {
                self.held = self.held.max(seq);
                false
            }
            _ => true,
        });
        if open && self.held > 0 {
            out.events.push(Event::FencesCompleted {
                seq: std::mem::take(&mut self.held),
            });
        }
    }
}

impl Backend for Gated {
    fn caps(&self) -> Caps {
        self.inner.caps()
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        let result = self.inner.apply(batch, out);
        self.filter(out);
        result
    }

    fn release_thread(&mut self) {
        self.inner.release_thread();
    }

    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        let open = self.gate.open.load(Ordering::SeqCst);
        let pending = self.inner.poll_fences(timeout_ns, out)?;
        self.filter(out);
        if !open && !pending {
            // What a native wait for a fence that does not signal would cost.
            std::thread::sleep(std::time::Duration::from_nanos(timeout_ns.min(1_000_000)));
        }
        Ok(pending || (!open && self.held > 0))
    }
}

/// The backend of `kind`, or `None` where the driver is missing.
fn backend(kind: &str) -> Option<Box<dyn Backend>> {
    match kind {
        "null" => Some(Box::new(tessera_wire::null::NullBackend::new(false).0)),
        "gles" => {
            let b: Box<dyn Backend> = Box::new(tessera_backend_gles::GlesBackend::new().ok()?);
            Some(b)
        }
        "vulkan" => {
            let b: Box<dyn Backend> = Box::new(tessera_backend_vk::VulkanBackend::new().ok()?);
            Some(b)
        }
        _ => unreachable!(),
    }
}

/// Clears to `rgb` and reads the 4x4 surface back.
fn frame(c: &mut Context, rgb: [u8; 3]) -> Vec<u8> {
    let [r, g, b] = rgb.map(|v| f32::from(v) / 255.0);
    c.clear_color(r, g, b, 1.0);
    c.clear(COLOR_BUFFER_BIT);
    let mut pixels = vec![0u8; 4 * 4 * 4];
    c.read_pixels(
        0,
        0,
        4,
        4,
        RGBA,
        UNSIGNED_BYTE,
        PixelsMut::Bytes(&mut pixels),
    );
    assert_eq!(c.get_error(), NO_ERROR);
    pixels
}

fn a_wait_does_not_block_a_draw(kind: &str, transport: TransportKind, delete: bool) {
    let Some(inner) = backend(kind) else {
        eprintln!("no {kind} driver: skipped");
        return;
    };
    let gate = Arc::new(Gate::default());
    let config = Config {
        transport: transport.clone(),
        surface: Some(SurfaceConfig::new(4, 4)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    let gated = Gated {
        inner,
        gate: gate.clone(),
        held: 0,
    };
    let mut waiter = Context::with_backend(&config, Box::new(gated));
    let mut drawer = Context::new_shared(&waiter, &config);
    let first = frame(&mut waiter, [10, 20, 30]);
    if kind != "null" {
        assert_eq!(first[..4], [10, 20, 30, 255]);
    }
    let sync = waiter.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_eq!(
        waiter.client_wait_sync(sync, SYNC_FLUSH_COMMANDS_BIT, 0),
        TIMEOUT_EXPIRED,
        "{kind}/{transport:?}: the gate keeps the fence unsignalled"
    );

    let waited = Arc::new(AtomicBool::new(false));
    let waiting = {
        let waited = waited.clone();
        std::thread::spawn(move || {
            let r = waiter.client_wait_sync(sync, SYNC_FLUSH_COMMANDS_BIT, 30_000_000_000);
            waited.store(true, Ordering::SeqCst);
            let mut status = [-1];
            waiter.get_synciv(sync, SYNC_STATUS, &mut status);
            let error = waiter.get_error();
            (r, status[0], error, waiter)
        })
    };
    // The waiter is in its wait once it is past its first look.
    while drawer.fence_waiters() == 0 {
        std::thread::yield_now();
    }
    for i in 0..100u8 {
        let rgb = [i, 255 - i, i / 2];
        let pixels = frame(&mut drawer, rgb);
        // The null backend draws nothing and reads zeros.
        let want = if kind == "null" {
            [0; 4]
        } else {
            [rgb[0], rgb[1], rgb[2], 255]
        };
        for px in pixels.chunks(4) {
            assert_eq!(px, want, "{kind}/{transport:?} frame {i}");
        }
    }
    assert_eq!(
        drawer.fence_waiters(),
        1,
        "{kind}/{transport:?}: still waiting"
    );
    assert!(
        !waited.load(Ordering::SeqCst),
        "{kind}/{transport:?}: 100 frames were drawn while the other thread waited"
    );
    if delete {
        // Deleting a sync another thread waits on ends that wait as GL specifies: when the
        // fence signals.
        drawer.delete_sync(sync);
        assert_eq!(drawer.get_error(), NO_ERROR);
    }
    gate.open.store(true, Ordering::SeqCst);
    let (result, status, error, waiter) = waiting.join().unwrap();
    assert_eq!(result, CONDITION_SATISFIED, "{kind}/{transport:?}");
    if delete {
        assert_eq!(
            (status, error),
            (-1, INVALID_VALUE),
            "{kind}/{transport:?}: deleted"
        );
    } else {
        assert_eq!(
            (status, error),
            (SIGNALED as GLint, NO_ERROR),
            "{kind}/{transport:?}"
        );
    }
    assert!(!waiter.is_lost() && !drawer.is_lost());
    drop(drawer);
    drop(waiter);
}

#[test]
fn a_wait_does_not_block_a_draw_null_inproc() {
    a_wait_does_not_block_a_draw("null", TransportKind::Inproc, false);
}

#[test]
fn a_wait_does_not_block_a_draw_null_thread() {
    a_wait_does_not_block_a_draw("null", TransportKind::Thread, false);
}

#[test]
fn a_wait_does_not_block_a_draw_gles_inproc() {
    a_wait_does_not_block_a_draw("gles", TransportKind::Inproc, false);
}

#[test]
fn a_wait_does_not_block_a_draw_gles_thread() {
    a_wait_does_not_block_a_draw("gles", TransportKind::Thread, false);
}

#[test]
fn a_wait_does_not_block_a_draw_vulkan_inproc() {
    a_wait_does_not_block_a_draw("vulkan", TransportKind::Inproc, false);
}

#[test]
fn a_wait_does_not_block_a_draw_vulkan_thread() {
    a_wait_does_not_block_a_draw("vulkan", TransportKind::Thread, false);
}

#[test]
fn deleting_the_sync_during_a_wait_ends_it_when_the_fence_signals_null_inproc() {
    a_wait_does_not_block_a_draw("null", TransportKind::Inproc, true);
}

#[test]
fn deleting_the_sync_during_a_wait_ends_it_when_the_fence_signals_gles_thread() {
    a_wait_does_not_block_a_draw("gles", TransportKind::Thread, true);
}

/// A panic injected into a verb of one context (caught as the C ABI catches it) loses that
/// context only: another context of the group, on another thread, goes on drawing and
/// waiting on fences. Injected under the group's lock instead, it loses the whole group
/// (the shared state may be half-updated: `Context::mark_lost`).
fn a_panic_loses_only_its_context(kind: &str, transport: TransportKind, at: TestPanic) {
    let Some(backend) = backend(kind) else {
        eprintln!("no {kind} driver: skipped");
        return;
    };
    let config = Config {
        transport: transport.clone(),
        surface: Some(SurfaceConfig::new(4, 4)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    let mut victim = Context::with_backend(&config, backend);
    let drawer = Context::new_shared(&victim, &config);
    let drawing = std::thread::spawn(move || {
        let mut drawer = drawer;
        let mut frames = 0;
        for i in 0..50u8 {
            if drawer.is_dead() {
                break;
            }
            frame(&mut drawer, [i, i, i]);
            frames += 1;
        }
        let sync = drawer.fence_sync(SYNC_GPU_COMMANDS_COMPLETE, 0);
        let waited = drawer.client_wait_sync(sync, SYNC_FLUSH_COMMANDS_BIT, 10_000_000_000);
        (frames, waited, drawer)
    });
    victim.arm_test_panic(at);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| victim.flush()));
    let payload = panicked.expect_err("the armed verb panics");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(victim.mark_lost(&format!("glFlush panicked: {message}")));
    assert!(victim.is_dead());
    assert_eq!(victim.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET);
    let (frames, waited, mut drawer) = drawing.join().unwrap();
    if at == TestPanic::BeforeLock {
        assert_eq!(frames, 50, "{kind}/{transport:?}");
        assert!(
            waited == ALREADY_SIGNALED || waited == CONDITION_SATISFIED,
            "{kind}/{transport:?}: {waited:#x}"
        );
        assert!(!drawer.is_dead());
        assert_eq!(drawer.get_graphics_reset_status(), NO_ERROR);
        assert_eq!(drawer.get_error(), NO_ERROR);
        // The sibling still draws the exact pixels after the panic.
        let want = if kind == "null" {
            [0; 4]
        } else {
            [7, 8, 9, 255]
        };
        assert_eq!(frame(&mut drawer, [7, 8, 9])[..4], want);
    } else {
        assert!(drawer.is_dead(), "{kind}/{transport:?}: the group is lost");
        assert_eq!(drawer.get_graphics_reset_status(), UNKNOWN_CONTEXT_RESET);
    }
}

#[test]
fn a_panic_before_the_lock_loses_only_its_context_null_inproc() {
    a_panic_loses_only_its_context("null", TransportKind::Inproc, TestPanic::BeforeLock);
}

#[test]
fn a_panic_before_the_lock_loses_only_its_context_gles_inproc() {
    a_panic_loses_only_its_context("gles", TransportKind::Inproc, TestPanic::BeforeLock);
}

#[test]
fn a_panic_before_the_lock_loses_only_its_context_vulkan_thread() {
    a_panic_loses_only_its_context("vulkan", TransportKind::Thread, TestPanic::BeforeLock);
}

#[test]
fn a_panic_under_the_lock_loses_the_group_null_inproc() {
    a_panic_loses_only_its_context("null", TransportKind::Inproc, TestPanic::UnderLock);
}

/// A backend whose next batch, once armed, waits for the gate (at most 30 s, so a broken
/// build fails instead of hanging).
struct Stalling {
    inner: Box<dyn Backend>,
    gate: Arc<Stall>,
}

#[derive(Default)]
struct Stall {
    armed: AtomicBool,
    stalled: AtomicBool,
    /// Set when the stalled batch goes on.
    released: AtomicBool,
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
}

impl Backend for Stalling {
    fn caps(&self) -> Caps {
        self.inner.caps()
    }

    fn apply(&mut self, batch: BatchView<'_>, out: &mut Outbox) -> Result<(), SessionError> {
        if self.gate.armed.swap(false, Ordering::SeqCst) {
            self.gate.stalled.store(true, Ordering::SeqCst);
            let open = self.gate.open.lock().unwrap();
            let _ = self
                .gate
                .opened
                .wait_timeout_while(open, std::time::Duration::from_secs(30), |open| !*open)
                .unwrap();
            self.gate.released.store(true, Ordering::SeqCst);
        }
        self.inner.apply(batch, out)
    }

    fn poll_fences(&mut self, timeout_ns: u64, out: &mut Outbox) -> Result<bool, SessionError> {
        self.inner.poll_fences(timeout_ns, out)
    }
}

/// `glFinish` on one context waits for the render thread without the share group's lock:
/// while the render thread is held in the finished batch, a second context of the group on
/// another thread makes 100 rounds of buffer objects (each takes the group's lock).
fn finish_does_not_block_the_group(kind: &str) {
    let Some(inner) = backend(kind) else {
        eprintln!("no {kind} driver: skipped");
        return;
    };
    let gate = Arc::new(Stall::default());
    let config = Config {
        transport: TransportKind::Thread,
        surface: Some(SurfaceConfig::new(4, 4)),
        backend: tessera_engine::BackendKind::Null,
        ..Config::default()
    };
    let stalling = Stalling {
        inner,
        gate: gate.clone(),
    };
    let mut finisher = Context::with_backend(&config, Box::new(stalling));
    let mut other = Context::new_shared(&finisher, &config);
    finisher.finish();
    gate.armed.store(true, Ordering::SeqCst);
    let finished = Arc::new(AtomicBool::new(false));
    let finishing = {
        let finished = finished.clone();
        std::thread::spawn(move || {
            finisher.clear(COLOR_BUFFER_BIT);
            finisher.finish();
            finished.store(true, Ordering::SeqCst);
            finisher
        })
    };
    while !gate.stalled.load(Ordering::SeqCst) {
        std::thread::yield_now();
    }
    for i in 0..100u8 {
        let b = other.gen_buffer();
        other.bind_buffer(ARRAY_BUFFER, b);
        other.buffer_data(ARRAY_BUFFER, 4, Some(&[i; 4]), STATIC_DRAW);
        assert_eq!(other.is_buffer(b), TRUE as GLboolean);
        other.delete_buffers(1, &[b]);
        assert_eq!(other.get_error(), NO_ERROR);
    }
    assert!(
        !gate.released.load(Ordering::SeqCst) && !finished.load(Ordering::SeqCst),
        "{kind}: 100 rounds while the other thread was in glFinish"
    );
    *gate.open.lock().unwrap() = true;
    gate.opened.notify_all();
    let mut finisher = finishing.join().unwrap();
    assert!(finished.load(Ordering::SeqCst));
    assert!(!finisher.is_lost() && !other.is_lost());
    let want = if kind == "null" {
        [0; 4]
    } else {
        [5, 6, 7, 255]
    };
    assert_eq!(frame(&mut finisher, [5, 6, 7])[..4], want);
    assert_eq!(frame(&mut other, [5, 6, 7])[..4], want);
}

#[test]
fn finish_does_not_block_the_group_null_thread() {
    finish_does_not_block_the_group("null");
}

#[test]
fn finish_does_not_block_the_group_gles_thread() {
    finish_does_not_block_the_group("gles");
}

#[test]
fn finish_does_not_block_the_group_vulkan_thread() {
    finish_does_not_block_the_group("vulkan");
}
