//! Sync objects (fences).
//!
//! A sync object is an entity of the share group's world with [`Life`] and [`Sync`]; the
//! value `fence_sync` returns (GL's `GLsync`) is its name in `SharedNames::syncs`, never an
//! address, so a stale or forged value is simply "not a sync" (`INVALID_VALUE`). The fence
//! itself is a wire [`FenceHandle`] inserted with `InsertFence` after the records before it.
//!
//! Whether a fence signalled is known only to the backend: `client_wait_sync` (and a
//! `SYNC_STATUS` query of an unsignalled sync, with a zero timeout) asks with a `WaitFence`
//! record and waits for the reply. Once a fence is known to be signalled the answer is kept
//! on the object and later waits cost nothing. `wait_sync` needs no record: the backend
//! applies records in order, so everything after the call already waits for the fence.

use bevy_ecs::entity::Entity;
use tessera_components::gl::*;
use tessera_components::object::{Life, Sync};
use tessera_systems::lifecycle;
use tessera_wire::Reply;
use tessera_wire::handle::FenceHandle;
use tessera_wire::record::Record;

use crate::context::Context;
use crate::share::Shared;

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
        sh.dev.push(Record::InsertFence { fence });
        let e = sh
            .world
            .spawn((
                Life::named(name[0]),
                Sync {
                    handle: fence,
                    status: UNSIGNALED,
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

    /// Asks the backend whether a fence signalled, waiting up to `timeout_ns`; records a
    /// signal on the object. `None` if the session is lost.
    fn poll_fence(sh: &mut Shared, e: Entity, fence: FenceHandle, timeout_ns: u64) -> Option<bool> {
        let reply = sh.dev.enc.mint_reply();
        sh.dev.push(Record::WaitFence {
            fence,
            timeout_ns,
            reply,
        });
        let signalled = match sh.wait(reply)? {
            Reply::Fence(s) => s,
            _ => return None,
        };
        if signalled && let Some(mut s) = sh.world.get_mut::<Sync>(e) {
            s.status = SIGNALED;
        }
        Some(signalled)
    }

    /// `glClientWaitSync`: `ALREADY_SIGNALED`, `CONDITION_SATISFIED`, `TIMEOUT_EXPIRED`, or
    /// `WAIT_FAILED` (after an error, or when the session with the backend is lost).
    ///
    /// Every wait flushes, so `SYNC_FLUSH_COMMANDS_BIT` needs no extra work. A zero timeout
    /// only tests the state, so a fence found signalled then was `ALREADY_SIGNALED`.
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
        match Self::poll_fence(&mut sh, e, s.handle, timeout) {
            Some(true) if timeout == 0 => ALREADY_SIGNALED,
            Some(true) => CONDITION_SATISFIED,
            Some(false) => TIMEOUT_EXPIRED,
            None => WAIT_FAILED,
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
            SYNC_STATUS => match Self::poll_fence(&mut sh, e, s.handle, 0) {
                Some(true) => SIGNALED,
                _ => UNSIGNALED,
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
