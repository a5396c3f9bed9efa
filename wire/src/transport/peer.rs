//! Who may talk to a server over its unix socket.
//!
//! The socket file is created mode 0660, so the file system already keeps out everyone but
//! the server's user and group. The server checks again on every connection with the
//! credentials the kernel recorded at `connect` (`SO_PEERCRED`), which a peer cannot forge:
//! it admits root, its own user, and members of its group (the peer's effective group, or one
//! of its supplementary groups as the kernel recorded them at `connect`, `SO_PEERGROUPS`, or
//! where that option is missing as `/proc/<pid>/status` lists them). The server's group is
//! its effective group, which is also the group of the socket file it creates. Everyone else
//! is refused with a logged reason — the check matters when the file's mode was widened, or
//! the socket was inherited by a process that should not have it.
//!
//! Which admitted clients may pin a device (`TESSERA_DEVICE`) is [`PinAllowed`]
//! (`tessera-server --pin-allowed`); the others are refused when they pin, and get the
//! placement policy's choice when they do not.
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

/// The supplementary groups of a unix socket's peer: `SO_PEERGROUPS`, or where the kernel
/// lacks it, [`supplementary_groups`] of its process.
pub fn peer_groups(sock: std::os::fd::BorrowedFd<'_>, pid: i32) -> Vec<u32> {
    super::sys::peer_groups(sock).unwrap_or_else(|_| supplementary_groups(pid))
}

/// Which clients may pin their session to a device (`TESSERA_DEVICE`, `Config`'s device).
///
/// Written as `any` (every admitted client: the default, as before pins were restricted),
/// `none`, `owner` (root and the server's user), or a comma-separated list of `uid:N` and
/// `gid:N` (a client whose user is N, or whose effective or supplementary groups include N;
/// root and the server's user always may). TCP peers have no credentials: they may pin only
/// under `any`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PinAllowed {
    /// Every admitted client.
    #[default]
    Any,
    /// No client.
    None,
    /// Root, the server's user, and the listed users and groups.
    Listed {
        /// Users who may pin.
        uids: Vec<u32>,
        /// Groups whose members may pin.
        gids: Vec<u32>,
    },
}

impl PinAllowed {
    /// Whether a unix peer with these credentials and supplementary groups may pin.
    pub fn allows(&self, peer: PeerCred, groups: &[u32], server: ServerIdentity) -> bool {
        match self {
            Self::Any => true,
            Self::None => false,
            Self::Listed { uids, gids } => {
                peer.uid == 0
                    || peer.uid == server.uid
                    || uids.contains(&peer.uid)
                    || gids.contains(&peer.gid)
                    || groups.iter().any(|g| gids.contains(g))
            }
        }
    }
}

impl std::fmt::Display for PinAllowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any"),
            Self::None => f.write_str("none"),
            Self::Listed { uids, gids } if uids.is_empty() && gids.is_empty() => {
                f.write_str("owner")
            }
            Self::Listed { uids, gids } => {
                let mut items: Vec<String> = uids.iter().map(|u| format!("uid:{u}")).collect();
                items.extend(gids.iter().map(|g| format!("gid:{g}")));
                f.write_str(&items.join(","))
            }
        }
    }
}

impl std::str::FromStr for PinAllowed {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "any" => return Ok(Self::Any),
            "none" => return Ok(Self::None),
            "owner" => {
                return Ok(Self::Listed {
                    uids: Vec::new(),
                    gids: Vec::new(),
                });
            }
            _ => {}
        }
        let (mut uids, mut gids) = (Vec::new(), Vec::new());
        for item in s.split(',') {
            let (group, id) = match item.split_once(':') {
                Some(("uid" | "user", id)) => (false, id),
                Some(("gid" | "group", id)) => (true, id),
                _ => {
                    return Err(format!(
                        "{item:?} is none of any, none, owner, uid:N, gid:N, user:NAME, group:NAME"
                    ));
                }
            };
            // A number is an id; anything else is a name the user database resolves now, so
            // a typo stops the server at start instead of refusing every pin later.
            let id = match id.parse() {
                Ok(n) => n,
                Err(_) => super::sys::id_of_name(id, group)
                    .map_err(|e| format!("{item:?}: looking the name up failed: {e}"))?
                    .ok_or_else(|| {
                        let kind = if group { "group" } else { "user" };
                        format!("{item:?}: no {kind} of that name")
                    })?,
            };
            if group { gids.push(id) } else { uids.push(id) }
        }
        Ok(Self::Listed { uids, gids })
    }
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
    fn pin_permission_follows_its_list() {
        let listed: PinAllowed = "uid:1005,gid:300".parse().unwrap();
        assert!(listed.allows(peer(1005, 5), &[], SERVER));
        assert!(listed.allows(peer(1001, 300), &[], SERVER));
        assert!(listed.allows(peer(1001, 5), &[7, 300], SERVER));
        assert!(listed.allows(peer(1000, 5), &[], SERVER));
        assert!(listed.allows(peer(0, 0), &[], SERVER));
        assert!(!listed.allows(peer(1001, 100), &[7], SERVER));

        // Names resolve through the user database: root and its group exist everywhere.
        let named: PinAllowed = "user:root,group:root,uid:7".parse().unwrap();
        assert_eq!(
            named,
            PinAllowed::Listed {
                uids: vec![0, 7],
                gids: vec![0]
            }
        );
        let unknown = "group:no-such-group-tessera"
            .parse::<PinAllowed>()
            .unwrap_err();
        assert!(unknown.contains("no group of that name"), "{unknown}");
        let owner: PinAllowed = "owner".parse().unwrap();
        assert!(!owner.allows(peer(1001, 100), &[100], SERVER));
        assert!(owner.allows(peer(1000, 100), &[], SERVER));
        assert!(!PinAllowed::None.allows(peer(0, 0), &[], SERVER));
        assert!(PinAllowed::Any.allows(peer(1001, 5), &[], SERVER));
        assert_eq!(listed.to_string(), "uid:1005,gid:300");
        assert_eq!(owner.to_string(), "owner");
        assert_eq!(
            "pid:3".parse::<PinAllowed>().unwrap_err(),
            "\"pid:3\" is none of any, none, owner, uid:N, gid:N, user:NAME, group:NAME"
        );
    }

    #[test]
    fn a_vanished_process_has_no_supplementary_groups() {
        assert!(supplementary_groups(-1).is_empty());
    }
}
