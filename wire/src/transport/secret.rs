//! The shared secret of TCP sessions, and the challenge that proves it.
//!
//! A TCP server reads its secret from a file that must be a regular file of mode 0600 (a
//! secret others can read is no secret; the server refuses to start with one). A client
//! proves it knows the same secret without sending it: the server sends a random nonce, the
//! client answers `HMAC-SHA256(secret, "tessera client" | client nonce | server nonce |
//! fingerprint)`, and the server answers in its Welcome with the same MAC over `"tessera
//! server"`, so the client knows it reached a server that holds the secret too. Both nonces
//! are fresh per connection, so a recorded proof is worthless later. MACs are compared in
//! constant time.
//!
//! SHA-256 is implemented here (FIPS 180-4, checked against its test vectors and RFC 4231's
//! HMAC vectors) to keep `tessera-wire` free of a cryptography dependency tree for one hash.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A shared secret (the bytes of its file, trailing whitespace removed).
#[derive(Clone)]
pub struct Secret(Vec<u8>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// The side of the handshake a proof is from: each side MACs its own label, so one side's
/// proof cannot be replayed as the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Client,
    Server,
}

/// Why a secret file was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum LoadSecretError {
    /// It could not be read.
    #[error("secret file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// Others may read or write it.
    #[error("secret file {path} has mode {mode:o}; it must be 600 (readable by its owner only)")]
    Mode {
        /// The file.
        path: String,
        /// Its permission bits.
        mode: u32,
    },
    /// It is empty.
    #[error("secret file {path} is empty")]
    Empty {
        /// The file.
        path: String,
    },
}

impl Secret {
    /// Reads a secret file, which must be a regular file of mode 0600.
    pub fn load(path: &Path) -> Result<Self, LoadSecretError> {
        let name = path.display().to_string();
        let io_err = |source| LoadSecretError::Io {
            path: name.clone(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io_err)?;
        let mode = meta.permissions().mode() & 0o777;
        if !meta.is_file() || mode != 0o600 {
            return Err(LoadSecretError::Mode { path: name, mode });
        }
        let mut bytes = std::fs::read(path).map_err(io_err)?;
        while bytes.last().is_some_and(|b| b.is_ascii_whitespace()) {
            bytes.pop();
        }
        if bytes.is_empty() {
            return Err(LoadSecretError::Empty { path: name });
        }
        Ok(Self(bytes))
    }

    /// A secret from bytes (tests, embedders that keep it elsewhere).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self(bytes.to_vec())
    }

    /// The secret's bytes (what a server hands to its worker processes).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The proof of `side` for a pair of nonces (the client's, then the server's).
    pub(crate) fn proof(
        &self,
        side: Side,
        client: &[u8; 16],
        server: &[u8; 16],
        fingerprint: u64,
    ) -> [u8; 32] {
        let label: &[u8] = match side {
            Side::Client => b"tessera client",
            Side::Server => b"tessera server",
        };
        hmac_sha256(
            &self.0,
            &[label, client, server, &fingerprint.to_le_bytes()],
        )
    }
}

/// Compares two MACs in time independent of where they differ.
pub(crate) fn same_mac(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// SHA-256 of the concatenation of `parts` (the cache crate's digest: one implementation
/// serves the store's keys and the handshake's proofs).
pub(crate) fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = tessera_cache::Sha256::default();
    for p in parts {
        h.update(p);
    }
    h.finish()
}

/// HMAC-SHA256 (RFC 2104) of the concatenation of `parts` under `key`.
pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&sha256(&[key]));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
    let mut inner_parts: Vec<&[u8]> = vec![&ipad];
    inner_parts.extend_from_slice(parts);
    let inner = sha256(&inner_parts);
    sha256(&[&opad, &inner])
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn sha256_matches_fips_180_vectors() {
        assert_eq!(
            hex(&sha256(&[b"abc"])),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(&[b""])),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(&[
                b"abcdbcdecdefdefgefghfghighijhijkijkl",
                b"jklmklmnlmnomnopnopq"
            ])),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn hmac_matches_rfc_4231_vectors() {
        // Test case 1.
        assert_eq!(
            hex(&hmac_sha256(&[0x0b; 20], &[b"Hi There"])),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        // Test case 2.
        assert_eq!(
            hex(&hmac_sha256(
                b"Jefe",
                &[b"what do ya want ", b"for nothing?"]
            )),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block.
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                &[b"Test Using Larger Than Block-Size Key - Hash Key First"]
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn proofs_differ_by_role_and_nonce() {
        let s = Secret::from_bytes(b"hunter2");
        let (c, v) = ([1u8; 16], [2u8; 16]);
        assert_ne!(
            s.proof(Side::Client, &c, &v, 1),
            s.proof(Side::Server, &c, &v, 1)
        );
        assert_ne!(
            s.proof(Side::Client, &c, &v, 1),
            s.proof(Side::Client, &v, &c, 1)
        );
        assert!(same_mac(
            &s.proof(Side::Client, &c, &v, 1),
            &s.proof(Side::Client, &c, &v, 1)
        ));
        assert!(!same_mac(
            &s.proof(Side::Client, &c, &v, 1),
            &Secret::from_bytes(b"x").proof(Side::Client, &c, &v, 1)
        ));
    }
}
