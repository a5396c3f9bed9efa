//! The replies a client transport has received and not yet handed out, shared by every
//! transport's `wait_reply`.
//!
//! Replies arrive in request order. A waiter takes its own reply out; replies older than it
//! that nobody took yet are kept, up to [`KEPT`] of them, because a caller may still come for
//! one (a presented frame's read-back is waited for one swap later, after other waits), and
//! dropped beyond that, oldest first, so a caller that went away cannot grow the queue.

use std::collections::VecDeque;

use crate::ReplyId;
use crate::backend::Reply;

/// How many replies older than the one being taken may wait for their callers.
pub(crate) const KEPT: usize = 8;

/// Takes reply `id` out of `replies` if it arrived, keeping at most [`KEPT`] older ones.
pub(crate) fn take(replies: &mut VecDeque<(ReplyId, Reply)>, id: ReplyId) -> Option<Reply> {
    let at = replies.iter().position(|(got, _)| *got == id)?;
    let reply = replies.remove(at).map(|(_, r)| r);
    // `at` replies were older than `id`: keep the newest KEPT of them.
    for _ in 0..at.saturating_sub(KEPT) {
        replies.pop_front();
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(ids: std::ops::Range<u32>) -> VecDeque<(ReplyId, Reply)> {
        ids.map(|i| (ReplyId(i), Reply::Done)).collect()
    }

    #[test]
    fn an_older_reply_stays_for_its_caller_and_the_queue_stays_bounded() {
        let mut q = queue(0..3);
        assert!(take(&mut q, ReplyId(1)).is_some());
        assert!(
            take(&mut q, ReplyId(0)).is_some(),
            "taken after a newer one"
        );
        assert!(take(&mut q, ReplyId(9)).is_none());
        let mut q = queue(0..20);
        assert!(take(&mut q, ReplyId(19)).is_some());
        assert_eq!(q.len(), KEPT);
        assert_eq!(q.front().map(|r| r.0), Some(ReplyId(19 - KEPT as u32)));
    }
}
