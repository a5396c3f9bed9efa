//! Share groups: the objects, names, encoder and transport that contexts share.
//!
//! Buffers, textures, samplers, renderbuffers, shaders, programs and syncs live in the group's
//! `World` and are visible to every context of the group; container objects (vertex arrays,
//! framebuffers, queries) are entities of the same world whose names are per context. All of
//! it sits behind one mutex, taken once per entry point that touches objects or emits records;
//! setters of plain context state never take it.
//!
//! ## Waiting without the lock
//! Two contexts of a group on two threads take turns at this lock, so nothing may sleep
//! holding it for long. Fence status is read from the session's completion watermark
//! ([`Shared::fences`], `tessera_wire::fence`): an atomic the transport publishes into,
//! read without the lock and without a round trip. `glClientWaitSync` with a timeout holds
//! the lock only for one look at a time (at most `sync::WAIT_SLICE`, during which an
//! in-process backend may wait natively) and sleeps on the watermark between looks with
//! no lock held; the other contexts of the group draw meanwhile. `glFinish` waits without
//! the lock where the transport hands out a reply waiter (`thread`: the render thread's
//! reply queue); `inproc` has its replies at once. What still waits under the lock:
//! replies to read-backs and query results ([`Shared::wait`]), whose callers go on using
//! the shared state they looked up before the wait, and every reply over a process
//! transport, whose replies are read from its socket by the transport itself.
//!
//! ## Panics
//! A panic inside a GL call loses that call's context (`Context::mark_lost`). Whether the
//! rest of the group goes on depends on where it struck: outside this lock, every shared
//! update is whole (each happens under the lock), so only the context is lost and its
//! siblings go on, on any thread; under the lock, the world, names, encoder and CSO caches
//! may be half-updated and nothing records which, so the group's session is latched lost
//! and every context of it is dead. Setters of plain context state, error checks that need
//! no object, and fence waits between their looks run outside the lock.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bevy_ecs::world::World;
use tessera_components::names::NameTable;
use tessera_systems::Emitter;
use tessera_wire::fence::FenceMark;
use tessera_wire::{Caps, Event, Reply, ReplyId, SessionLost, Transport};

/// Names of the objects a share group shares.
#[derive(Debug, Default)]
pub struct SharedNames {
    /// Buffer names.
    pub buffers: NameTable,
    /// Texture names.
    pub textures: NameTable,
    /// Sampler names.
    pub samplers: NameTable,
    /// Renderbuffer names.
    pub renderbuffers: NameTable,
    /// Shader and program names (one namespace, as GL specifies).
    pub shader_programs: NameTable,
    /// Sync objects by the value `fence_sync` returned.
    pub syncs: NameTable,
}

/// What the contexts of a group share, behind the group's lock.
pub struct Shared {
    /// The objects.
    pub world: World,
    /// Their names.
    pub names: SharedNames,
    /// Encoder, handle allocators and CSO caches.
    pub dev: Emitter,
    /// The session with the backend.
    pub transport: Box<dyn Transport>,
    /// The session's fence completion watermark (the transport's; read without the lock).
    pub fences: Arc<FenceMark>,
    /// The sequence of the last fence inserted (`Record::InsertFence`).
    pub last_fence: u64,
    /// What the backend reported at connect time.
    pub caps: Caps,
    /// Set once the session is over; every later flush or wait returns at once.
    pub lost: Option<SessionLost>,
    /// Events the backend reported, not yet taken.
    pub events: Vec<Event>,
    /// The backend reported that the driver refused an object (out of memory, a program it
    /// would not take) since the last `glGetError` of the group that looked: that call
    /// reports `GL_OUT_OF_MEMORY` (see [`Shared::take_transport_events`]).
    pub out_of_memory: bool,
    /// Buffers currently mapped in the group, persistently or not
    /// ([`Shared::exclusive_maps`]).
    pub mapped_buffers: u32,
    /// Buffers of the group mapped persistently: at each batch their changed pages are sent
    /// ahead of it, and after fence waits their read mappings learn what the GPU wrote
    /// (`buffer::send_persistent_writes`).
    pub persistent_maps: Vec<bevy_ecs::entity::Entity>,
    /// The null backend's counters, when that is the backend.
    pub probe: Option<tessera_wire::null::NullProbe>,
    /// Memory objects (`GL_EXT_memory_object`), which the group's contexts share.
    pub memory_objects: crate::memory_object::MemoryObjects,
    /// Semaphore objects (`GL_EXT_semaphore`), which the group's contexts share.
    pub semaphores: crate::semaphore::Semaphores,
}

/// Backend events a share group keeps until they are taken.
pub const MAX_PENDING_EVENTS: usize = 1024;

impl Shared {
    /// Buffers of the group mapped without `MAP_PERSISTENT_BIT`, which draws may not read
    /// from: draws look for them only while there are any.
    #[inline]
    pub fn exclusive_maps(&self) -> usize {
        (self.mapped_buffers as usize).saturating_sub(self.persistent_maps.len())
    }

    /// Hands the records emitted so far to the transport. A lost session is latched: records
    /// are discarded and nothing blocks.
    pub fn flush(&mut self) {
        if self.dev.enc.is_empty() {
            return;
        }
        if !self.persistent_maps.is_empty() {
            crate::buffer::send_persistent_writes(self);
        }
        self.submit();
    }

    /// Hands the encoder's batch to the transport as it is (see [`Shared::flush`]).
    pub(crate) fn submit(&mut self) {
        puffin::profile_scope!("submit_batch");
        self.dev.enc.seal();
        self.dev.counters.records += self.dev.enc.records().len() as u64;
        self.dev.counters.stage_bytes += self.dev.enc.stage_len() as u64;
        let result = self.transport.submit(&mut self.dev.enc);
        self.take_transport_events();
        if let Err(lost) = result
            && self.lost.is_none()
        {
            log::error!("tessera: {lost}");
            self.lost = Some(lost);
        }
    }

    /// Flushes, then waits for reply `id`. `None` if the session is lost.
    pub fn wait(&mut self, id: ReplyId) -> Option<Reply> {
        self.flush();
        if self.lost.is_some() {
            return None;
        }
        puffin::profile_scope!("wait_reply");
        let result = self.transport.wait_reply(id);
        self.take_transport_events();
        match result {
            Ok(reply) => Some(reply),
            Err(lost) => {
                log::error!("tessera: {lost}");
                self.lost = Some(lost);
                None
            }
        }
    }

    /// Moves the transport's new events into `events`, which keeps at most
    /// [`MAX_PENDING_EVENTS`] (the oldest beyond it are dropped, counted in one warning), so a
    /// program that never takes them cannot grow it without bound. Each is logged at debug
    /// level as it arrives; the C ABI takes them at its flush points and logs their words
    /// (`capi::events`), a Rust embedder takes them with `Context::take_events`.
    ///
    /// What ends or damages the session becomes what GL says: a refused object
    /// ([`Event::OutOfMemory`], [`Event::ProgramRejected`]) sets [`Shared::out_of_memory`],
    /// which the next `glGetError` of a context of the group reports as `GL_OUT_OF_MEMORY`
    /// (records carry no reply, so the refusal is known at the group's next sync point: a
    /// read-back, a query result, a fence wait, `glFinish`, a swap or a flush); a lost device
    /// ([`Event::DeviceLost`]) or an ended session ([`Event::SessionEnded`]) latches
    /// [`Shared::lost`], which every context of the group reports from
    /// `glGetGraphicsResetStatus`. The C ABI logs each event's words once, with its cause
    /// (`capi::events`); the engine logs them at debug level only.
    pub(crate) fn take_transport_events(&mut self) {
        let start = self.events.len();
        self.transport.take_events(&mut self.events);
        for event in &self.events[start..] {
            log::debug!("tessera: backend: {event:?}");
            match event {
                Event::OutOfMemory { .. } | Event::ProgramRejected { .. } => {
                    self.out_of_memory = true;
                }
                Event::DeviceLost { reason } | Event::SessionEnded { reason }
                    if self.lost.is_none() =>
                {
                    self.lost = Some(SessionLost {
                        reason: reason.clone(),
                    });
                }
                _ => {}
            }
        }
        let excess = self.events.len().saturating_sub(MAX_PENDING_EVENTS);
        if excess > 0 {
            self.events.drain(..excess);
            log::warn!(
                "tessera: backend: {excess} older events dropped (more than {MAX_PENDING_EVENTS} \
                 pending; take them with Context::take_events)"
            );
        }
    }

    /// Flushes if the batch grew past its soft limits (called after verbs and uploads).
    #[inline]
    pub fn flush_if_full(&mut self) {
        if self.dev.enc.is_full() {
            self.flush();
        }
    }
}

/// A share group.
pub struct ShareGroup {
    shared: Mutex<Shared>,
    next_context: std::sync::atomic::AtomicU32,
    /// Threads in a fence wait of the group that released its lock (`sync.rs`).
    pub(crate) fence_waiters: std::sync::atomic::AtomicU32,
}

impl ShareGroup {
    pub(crate) fn new(shared: Shared) -> Self {
        Self {
            shared: Mutex::new(shared),
            next_context: std::sync::atomic::AtomicU32::new(1),
            fence_waiters: std::sync::atomic::AtomicU32::new(0),
        }
    }

    /// Takes the group's lock.
    #[inline]
    pub fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a call panicked while holding the group's lock: the shared state may be
    /// half-updated, and the whole group is lost (see `Context::mark_lost`).
    #[inline]
    pub fn is_poisoned(&self) -> bool {
        self.shared.is_poisoned()
    }

    /// How many threads are in a `glClientWaitSync` of this group past their first look at
    /// the fence (waiting without the group's lock).
    pub fn fence_waiters(&self) -> u32 {
        self.fence_waiters.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Takes the group's lock with `context`'s records next in the encoder.
    #[inline]
    pub(crate) fn lock_for(&self, context: u32) -> MutexGuard<'_, Shared> {
        let mut shared = self.lock();
        shared.dev.use_context(context);
        shared
    }

    /// Destroys a surface made with [`Context::create_surface`](crate::Context::create_surface)
    /// in this group, and hands the destroy to the backend at once (the surface may be the
    /// last thing the group's contexts did).
    pub fn destroy_surface(&self, surface: crate::Surface) {
        let mut sh = self.lock();
        // A backend presenting the surface into a window lets the window go first, in the
        // program's thread, while the program's window-system connection is surely open (a
        // render thread would otherwise reach it only after the destroy was applied).
        if sh.transport.window_attached(surface.handle) {
            sh.flush();
            sh.transport.attach_window(surface.handle, None, 0);
        }
        sh.dev.push(tessera_wire::record::Record::DestroySurface {
            surface: surface.handle,
        });
        sh.dev.alloc.free(surface.handle);
        sh.flush();
    }

    pub(crate) fn mint_context_id(&self) -> u32 {
        self.next_context
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}
