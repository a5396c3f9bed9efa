//! Who may talk to a server over its unix socket.
//!
//! The socket file is created mode 0660, so the file system already keeps out everyone but
//! the server's user and group. The server checks again on every connection with the
//! credentials the kernel recorded at `connect` (`SO_PEERCRED`), which a peer cannot forge:
//! it admits root, its own user, and members of its group (the peer's effective group, or one
//! of its supplementary groups as `/proc/<pid>/status` lists them). Everyone else is refused
//! with a logged reason — the check matters when the file's mode was widened, or the socket
//! was inherited by a process that should not have it.
//!
//! [`admit`] is a pure function of the peer's credentials and the server's identity, so the
//! policy is tested with synthetic peers as well as real ones.

pub use super::sys::PeerCred;

/// The identity a server admits peers against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerIdentity {
    /// The server's effective user id.
    pub uid: u32,
    /// The server's effective group id.
    pub gid: u32,
}

impl ServerIdentity {
    /// This process's identity.
    pub fn current() -> Self {
        let (uid, gid) = super::sys::own_ids();
        Self { uid, gid }
    }
}

/// Why a peer was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "peer pid {pid} uid {uid} gid {gid} is neither root, the server's user {server_uid}, nor a \
     member of its group {server_gid}"
)]
pub struct PeerRefused {
    /// The peer's process.
    pub pid: i32,
    /// The peer's user.
    pub uid: u32,
    /// The peer's group.
    pub gid: u32,
    /// The server's user.
    pub server_uid: u32,
    /// The server's group.
    pub server_gid: u32,
}

/// Admits `peer` if it is root, the server's user, or a member of the server's group;
/// `groups` are the peer's supplementary groups.
pub fn admit(peer: PeerCred, groups: &[u32], server: ServerIdentity) -> Result<(), PeerRefused> {
    if peer.uid == 0
        || peer.uid == server.uid
        || peer.gid == server.gid
        || groups.contains(&server.gid)
    {
        return Ok(());
    }
    Err(PeerRefused {
        pid: peer.pid,
        uid: peer.uid,
        gid: peer.gid,
        server_uid: server.uid,
        server_gid: server.gid,
    })
}

/// The supplementary groups of process `pid` (empty if it is gone or unreadable: then only
/// its user and effective group count).
pub fn supplementary_groups(pid: i32) -> Vec<u32> {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return Vec::new();
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("Groups:"))
        .map(|g| {
            g.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const SERVER: ServerIdentity = ServerIdentity {
        uid: 1000,
        gid: 100,
    };

    fn peer(uid: u32, gid: u32) -> PeerCred {
        PeerCred { pid: 42, uid, gid }
    }

    #[test]
    fn root_the_owner_and_group_members_are_admitted() {
        assert!(admit(peer(0, 0), &[], SERVER).is_ok());
        assert!(admit(peer(1000, 5), &[], SERVER).is_ok());
        assert!(admit(peer(1001, 100), &[], SERVER).is_ok());
        assert!(admit(peer(1001, 5), &[7, 100], SERVER).is_ok());
    }

    #[test]
    fn strangers_are_refused_with_their_credentials() {
        let refused = admit(peer(1001, 5), &[7], SERVER).unwrap_err();
        assert_eq!((refused.uid, refused.gid, refused.pid), (1001, 5, 42));
        assert!(refused.to_string().contains("uid 1001"));
    }

    #[test]
    fn a_vanished_process_has_no_supplementary_groups() {
        assert!(supplementary_groups(-1).is_empty());
    }
}
