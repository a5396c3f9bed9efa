//! EGL fence syncs (`EGL_KHR_fence_sync`, EGL 1.5 `EGL_SYNC_FENCE`, `EGL_KHR_wait_sync`),
//! built on the fences of GL sync objects (`crate::sync`).
//!
//! An EGL fence is a wire fence inserted into the share group of the context current when
//! it was created, after that context's records, with the next sequence number of the
//! group's session; it is never a GL sync object (no `GLsync` name of the group names it).
//! Its status is the session's completion watermark, as for `glClientWaitSync`: one atomic
//! load once it signalled, and a wait holds the group's lock only while it looks.
//!
//! `eglWaitSync` in a context of the fence's own share group records nothing (the backend
//! applies the group's records in order, so everything after the call already follows the
//! fence). In a context of another share group — another session, possibly another device
//! or process — the calling thread waits for the fence on the CPU before it returns: the
//! later commands of the waiting context are recorded only after the fence signalled,
//! which is what a server-side wait promises, at the price of the application thread's
//! time.
//!
//! `EGL_ANDROID_native_fence_sync` needs a backend that exports a fence as a `sync_file`;
//! neither backend does, so it is not offered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tessera_wire::handle::FenceHandle;
use tessera_wire::record::Record;

use super::EglError;
use super::tokens::*;
use crate::context::Context;
use crate::share::ShareGroup;
use crate::sync::{Look, look_at, wait_pending};

/// The fence of an EGL fence sync.
pub struct EglFence {
    /// The share group whose session the fence is in.
    group: Arc<ShareGroup>,
    /// The wire fence.
    handle: FenceHandle,
    /// Its sequence number in the group's session.
    seq: u64,
    /// Known to have signalled (later looks cost nothing).
    signalled: AtomicBool,
}

/// How an `eglClientWaitSync` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientWait {
    /// `EGL_CONDITION_SATISFIED`: the fence signalled (before or during the wait).
    Satisfied,
    /// `EGL_TIMEOUT_EXPIRED`.
    Expired,
    /// The session with the backend is lost: the wait fails (`EGL_FALSE`).
    Lost,
}

impl EglFence {
    /// Inserts a fence after the records `gl` emitted so far.
    pub fn insert(gl: &mut Context) -> Self {
        let group = gl.group.clone();
        let mut sh = group.lock_for(gl.local.id);
        let handle: FenceHandle = sh.dev.alloc.mint();
        sh.last_fence += 1;
        let seq = sh.last_fence;
        sh.dev.push(Record::InsertFence { fence: handle, seq });
        drop(sh);
        Self {
            group,
            handle,
            seq,
            signalled: AtomicBool::new(false),
        }
    }

    /// Whether the fence is in `gl`'s share group.
    pub fn in_group_of(&self, gl: &Context) -> bool {
        Arc::ptr_eq(&self.group, &gl.group)
    }

    /// One look at the fence (`EGL_SYNC_STATUS`): whether it signalled.
    pub fn signalled(&self) -> bool {
        if self.signalled.load(Ordering::Acquire) {
            return true;
        }
        let mut sh = self.group.lock();
        let look = look_at(&mut sh, self.handle, self.seq, 0, |_| true);
        drop(sh);
        self.record(look) == Look::Signalled
    }

    /// `eglClientWaitSync`: waits up to `timeout_ns` (`u64::MAX`: `EGL_FOREVER`) for the
    /// fence, without holding the share group's lock between looks. Every look hands the
    /// group's records to the backend, so `EGL_SYNC_FLUSH_COMMANDS_BIT` needs nothing more.
    pub fn client_wait(&self, timeout_ns: u64) -> ClientWait {
        if self.signalled.load(Ordering::Acquire) {
            return ClientWait::Satisfied;
        }
        let mut sh = self.group.lock();
        let look = match look_at(&mut sh, self.handle, self.seq, 0, |_| true) {
            Look::Pending if timeout_ns > 0 => {
                wait_pending(&self.group, None, sh, self.seq, timeout_ns, |sh, ns| {
                    look_at(sh, self.handle, self.seq, ns, |_| true)
                })
            }
            look => look,
        };
        match self.record(look) {
            Look::Signalled => ClientWait::Satisfied,
            Look::Pending => ClientWait::Expired,
            Look::Lost => ClientWait::Lost,
        }
    }

    /// `eglGetSyncAttrib`: the type, the status (one look at the fence) and the condition.
    pub fn attrib(&self, attribute: i32) -> Result<i32, EglError> {
        match attribute {
            SYNC_TYPE => Ok(SYNC_FENCE),
            SYNC_STATUS if self.signalled() => Ok(SIGNALED),
            SYNC_STATUS => Ok(UNSIGNALED),
            SYNC_CONDITION => Ok(SYNC_PRIOR_COMMANDS_COMPLETE),
            _ => Err(EglError::BadAttribute),
        }
    }

    /// Keeps a signal on the fence.
    fn record(&self, look: Look) -> Look {
        if look == Look::Signalled {
            self.signalled.store(true, Ordering::Release);
        }
        look
    }
}

impl Drop for EglFence {
    /// The wire fence goes with the last holder of the sync (a thread still waiting on it
    /// holds it too).
    fn drop(&mut self) {
        let mut sh = self.group.lock();
        sh.dev.push(Record::DestroyFence { fence: self.handle });
        sh.dev.alloc.free(self.handle);
    }
}

impl std::fmt::Debug for EglFence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EglFence")
            .field("seq", &self.seq)
            .field("signalled", &self.signalled.load(Ordering::Relaxed))
            .finish()
    }
}
