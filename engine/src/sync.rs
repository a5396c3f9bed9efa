//! Sync objects (fences).
//!
//! A sync object is an entity of the share group's world with [`Life`] and [`Sync`]; the
//! value `fence_sync` returns (GL's `GLsync`) is its name in `SharedNames::syncs`, never an
//! address, so a stale or forged value is simply "not a sync" (`INVALID_VALUE`). The fence
//! itself is a wire [`FenceHandle`] inserted with `InsertFence` after the records before it.
//!
//! Whether a fence signalled is known from the session's **completion watermark**
//! (`tessera_wire::fence`): every fence gets the next sequence number of the share group's
//! session (carried in `InsertFence`), the backend reports the highest sequence up to which
//! every fence signalled, and the transport publishes it in an atomic the engine reads. So
//! `SYNC_STATUS` and `glClientWaitSync` with a zero timeout cost one atomic load (after
//! handing pending records to the backend, which is not a round trip): no record, no
//! reply. Who moves the watermark: in process the backend looks after every batch it applies
//! and whenever a client looks (`inproc`: in the caller's thread; `thread`: the render
//! thread also while idle); a server reports it after every batch, and where it has not
//! reached the fence the engine still asks with a `WaitFence` record (a round trip).
//! Once a fence is known to be signalled the answer is kept on the object and later waits
//! cost nothing.
//!
//! **No lock is held while waiting.** `glClientWaitSync` with a timeout waits in slices of
//! at most [`WAIT_SLICE`]: under the share group's lock it hands records over and looks
//! once (in process the backend may wait natively for up to a slice; the GLES backend
//! does so in steps that hold no driver lock), then it releases the lock and sleeps on the
//! watermark, without any lock, until the watermark moves or the slice passes. Another
//! context of the group, on another thread, takes the lock meanwhile and draws: a long
//! wait never holds up the group (`tests/tests/sync_threads.rs`). A sync deleted during
//! the wait still ends it as GL specifies (the sequence number outlives the object).
//!
//! `wait_sync` needs no record: the backend applies records in order, so everything after
//! the call already waits for the fence.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Life, Sync};
use tessera_systems::lifecycle;
use tessera_wire::Reply;
use tessera_wire::handle::FenceHandle;
use tessera_wire::record::Record;

use crate::context::Context;
use crate::share::{ShareGroup, Shared};
use std::sync::MutexGuard;

/// The longest a fence wait holds the share group's lock at a time, and the longest it
/// sleeps without it before looking again.
pub const WAIT_SLICE: Duration = Duration::from_millis(1);

/// Counts a thread in a fence wait while it lives ([`ShareGroup::fence_waiters`]).
///
/// [`ShareGroup::fence_waiters`]: crate::share::ShareGroup::fence_waiters
struct Waiting<'a>(&'a AtomicU32);

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicU32) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Self(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What one look at a fence found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Look {
    /// The fence signalled.
    Signalled,
    /// Not yet (after a wait: the timeout expired).
    Pending,
    /// The session with the backend is lost.
    Lost,
}

/// One look at fence `fence` (sequence `seq`) under the group's lock: hands the records so
/// far to the backend and reads the watermark. Where the watermark moves only when asked
/// (a server), asks with a `WaitFence` record waiting up to `wait_ns`; `alive` says
/// whether the fence's object still exists (a deleted fence's `DestroyFence` lets the
/// watermark pass it, so the backend is only polled).
pub(crate) fn look_at(
    sh: &mut Shared,
    fence: FenceHandle,
    seq: u64,
    wait_ns: u64,
    alive: impl FnOnce(&Shared) -> bool,
) -> Look {
    let mut signalled = sh.fences.completed() >= seq;
    if !signalled {
        sh.flush();
        if sh.lost.is_some() {
            return Look::Lost;
        }
        // A server's report may have arrived unread: taking events reads it (without
        // blocking) into the watermark.
        sh.take_transport_events();
        signalled = sh.fences.completed() >= seq;
    }
    if !signalled {
        let alive = alive(sh);
        if sh.transport.poll_fences(wait_ns) || !alive {
            sh.take_transport_events();
            signalled = sh.fences.completed() >= seq;
        } else {
            let reply = sh.dev.enc.mint_reply();
            sh.dev.push(Record::WaitFence {
                fence,
                timeout_ns: wait_ns,
                reply,
            });
            signalled = match sh.wait(reply) {
                Some(Reply::Fence(s)) => s,
                _ => return Look::Lost,
            };
        }
        if !signalled && sh.lost.is_some() {
            return Look::Lost;
        }
    }
    if !signalled {
        return Look::Pending;
    }
    // What the GPU wrote before the fence is now visible through persistent mappings.
    if !sh.persistent_maps.is_empty() {
        crate::buffer::refresh_persistent_reads(sh);
    }
    Look::Signalled
}

/// Waits up to `timeout` nanoseconds (`u64::MAX`: about forever) for fence `seq` of
/// `group`, whose first look, under `sh`, found it pending. Holds the group's lock only
/// while it looks (`look`, at most [`WAIT_SLICE`] at a time) and sleeps on the watermark
/// without it, so the group's other contexts go on meanwhile. `context` is the context
/// whose records the lock is taken for (`None`: whichever was last). Returns
/// [`Look::Pending`] when the timeout expired.
pub(crate) fn wait_pending<'g>(
    group: &'g ShareGroup,
    context: Option<u32>,
    mut sh: MutexGuard<'g, Shared>,
    seq: u64,
    timeout: u64,
    mut look: impl FnMut(&mut Shared, u64) -> Look,
) -> Look {
    let deadline = Instant::now().checked_add(Duration::from_nanos(timeout));
    let mark = sh.fences.clone();
    let _waiting = Waiting::new(&group.fence_waiters);
    loop {
        let left = deadline.map_or(WAIT_SLICE, |d| d.saturating_duration_since(Instant::now()));
        if left.is_zero() {
            return Look::Pending;
        }
        let slice = left.min(WAIT_SLICE);
        // Sleep without the group's lock: other contexts of the group go on.
        let seen = mark.completed();
        drop(sh);
        if seen < seq {
            mark.wait_past(seen, slice);
        }
        sh = match context {
            Some(context) => group.lock_for(context),
            None => group.lock(),
        };
        match look(&mut sh, slice.as_nanos() as u64) {
            Look::Pending => {}
            end => return end,
        }
    }
}

impl Context {
    /// The sync object a `GLsync` value names.
    fn sync_object(sh: &Shared, sync: u64) -> Option<Entity> {
        let name = u32::try_from(sync).ok()?;
        sh.names.syncs.get(name)
    }

    /// `glFenceSync`: returns the new sync object's handle value (never 0), or 0 on error.
    pub fn fence_sync(&mut self, condition: GLenum, flags: GLbitfield) -> u64 {
        if condition != SYNC_GPU_COMMANDS_COMPLETE {
            self.error(INVALID_ENUM);
            return 0;
        }
        if flags != 0 {
            self.error(INVALID_VALUE);
            return 0;
        }
        let mut sh = self.group.lock_for(self.local.id);
        let mut name = [0];
        if sh.names.syncs.generate(&mut name).is_err() {
            self.local.set_error(OUT_OF_MEMORY);
            return 0;
        }
        let fence: FenceHandle = sh.dev.alloc.mint();
        sh.last_fence += 1;
        let seq = sh.last_fence;
        sh.dev.push(Record::InsertFence { fence, seq });
        let e = sh
            .world
            .spawn((
                Life::named(name[0]),
                Sync {
                    handle: fence,
                    status: UNSIGNALED,
                    seq,
                },
            ))
            .id();
        sh.names.syncs.bind_object(name[0], e);
        u64::from(name[0])
    }

    /// `glIsSync`.
    pub fn is_sync(&mut self, sync: u64) -> GLboolean {
        let sh = self.group.lock();
        Self::sync_object(&sh, sync).is_some() as GLboolean
    }

    /// `glDeleteSync`: 0 is silently ignored; anything else that is not a sync is
    /// `INVALID_VALUE`.
    pub fn delete_sync(&mut self, sync: u64) {
        if sync == 0 {
            return;
        }
        let mut sh = self.group.lock_for(self.local.id);
        let Some(e) = Self::sync_object(&sh, sync) else {
            drop(sh);
            return self.error(INVALID_VALUE);
        };
        sh.names.syncs.free(sync as u32);
        let Shared { world, dev, .. } = &mut *sh;
        lifecycle::unname(world, dev, e);
    }

    /// One look at the fence of sync object `e` (which may have been deleted meanwhile:
    /// `fence` and `seq` are what it had), under the group's lock (see [`look_at`]); records
    /// a signal on the object.
    fn look(sh: &mut Shared, e: Entity, fence: FenceHandle, seq: u64, wait_ns: u64) -> Look {
        let look = look_at(sh, fence, seq, wait_ns, |sh| {
            sh.world.get::<Sync>(e).is_some_and(|s| s.handle == fence)
        });
        if look == Look::Signalled
            && let Some(mut s) = sh.world.get_mut::<Sync>(e)
            && s.handle == fence
        {
            s.status = SIGNALED;
        }
        look
    }

    /// `glClientWaitSync`: `ALREADY_SIGNALED`, `CONDITION_SATISFIED`, `TIMEOUT_EXPIRED`, or
    /// `WAIT_FAILED` (after an error, or when the session with the backend is lost).
    ///
    /// Every wait flushes, so `SYNC_FLUSH_COMMANDS_BIT` needs no extra work. A fence found
    /// signalled at the first look was `ALREADY_SIGNALED`. A wait with a timeout holds the
    /// share group's lock only while it looks, at most [`WAIT_SLICE`] at a time (see the
    /// module's documentation).
    pub fn client_wait_sync(&mut self, sync: u64, flags: GLbitfield, timeout: GLuint64) -> GLenum {
        if flags & !SYNC_FLUSH_COMMANDS_BIT != 0 {
            self.error(INVALID_VALUE);
            return WAIT_FAILED;
        }
        let mut sh = self.group.lock_for(self.local.id);
        let Some((e, s)) = Self::sync_object(&sh, sync)
            .and_then(|e| sh.world.get::<Sync>(e).map(|s| (e, s.clone())))
        else {
            drop(sh);
            self.error(INVALID_VALUE);
            return WAIT_FAILED;
        };
        if s.status == SIGNALED {
            return ALREADY_SIGNALED;
        }
        match Self::look(&mut sh, e, s.handle, s.seq, 0) {
            Look::Signalled => return ALREADY_SIGNALED,
            Look::Lost => return WAIT_FAILED,
            Look::Pending if timeout == 0 => return TIMEOUT_EXPIRED,
            Look::Pending => {}
        }
        let group = self.group.clone();
        let end = wait_pending(&group, Some(self.local.id), sh, s.seq, timeout, |sh, ns| {
            Self::look(sh, e, s.handle, s.seq, ns)
        });
        match end {
            Look::Signalled => CONDITION_SATISFIED,
            Look::Lost => WAIT_FAILED,
            Look::Pending => TIMEOUT_EXPIRED,
        }
    }

    /// `glWaitSync`: `flags` must be 0 and `timeout` `TIMEOUT_IGNORED`. Records reach the
    /// backend in order, so later work already follows the fence: nothing to record.
    pub fn wait_sync(&mut self, sync: u64, flags: GLbitfield, timeout: GLuint64) {
        if flags != 0 || timeout != TIMEOUT_IGNORED {
            return self.error(INVALID_VALUE);
        }
        let sh = self.group.lock();
        if Self::sync_object(&sh, sync).is_none() {
            drop(sh);
            self.error(INVALID_VALUE);
        }
    }

    /// `glGetSynciv`: writes at most `values.len()` (GL's `bufSize`) values and returns how
    /// many it wrote (GL's `length`). With an empty `values` that is 0, as GL 3.3 specifies
    /// (Mesa reports 1).
    pub fn get_synciv(&mut self, sync: u64, pname: GLenum, values: &mut [GLint]) -> GLsizei {
        let mut sh = self.group.lock_for(self.local.id);
        let Some((e, s)) = Self::sync_object(&sh, sync)
            .and_then(|e| sh.world.get::<Sync>(e).map(|s| (e, s.clone())))
        else {
            drop(sh);
            self.error(INVALID_VALUE);
            return 0;
        };
        let value = match pname {
            OBJECT_TYPE => SYNC_FENCE,
            SYNC_CONDITION => SYNC_GPU_COMMANDS_COMPLETE,
            SYNC_FLAGS => 0,
            SYNC_STATUS if s.status == SIGNALED => SIGNALED,
            SYNC_STATUS => match Self::look(&mut sh, e, s.handle, s.seq, 0) {
                Look::Signalled => SIGNALED,
                Look::Pending | Look::Lost => UNSIGNALED,
            },
            _ => {
                drop(sh);
                self.error(INVALID_ENUM);
                return 0;
            }
        };
        match values.first_mut() {
            Some(v) => {
                *v = value as GLint;
                1
            }
            None => 0,
        }
    }
}
