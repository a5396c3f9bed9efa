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

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-256 of the concatenation of `parts`.
pub(crate) fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let total: u64 = parts.iter().map(|p| p.len() as u64).sum();
    let mut block = [0u8; 64];
    let mut fill = 0usize;
    let feed = |bytes: &[u8], h: &mut [u32; 8], block: &mut [u8; 64], fill: &mut usize| {
        for &b in bytes {
            block[*fill] = b;
            *fill += 1;
            if *fill == 64 {
                compress(h, block);
                *fill = 0;
            }
        }
    };
    for p in parts {
        feed(p, &mut h, &mut block, &mut fill);
    }
    feed(&[0x80], &mut h, &mut block, &mut fill);
    while fill != 56 {
        feed(&[0], &mut h, &mut block, &mut fill);
    }
    feed(&(total * 8).to_be_bytes(), &mut h, &mut block, &mut fill);
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

fn compress(h: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 64];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([
            block[i * 4],
            block[i * 4 + 1],
            block[i * 4 + 2],
            block[i * 4 + 3],
        ]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16]
            .wrapping_add(s0)
            .wrapping_add(w[i - 7])
            .wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(K[i])
            .wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *x = x.wrapping_add(y);
    }
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
