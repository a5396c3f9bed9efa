//! # tessera-cache
//!
//! The one persistent cache store of Tessera: what the shader front end, the GLES backend
//! and the Vulkan backend compute from content alone (GLSL to SPIR-V and reflection, SPIR-V
//! to GLSL ES, native program binaries, the Vulkan pipeline cache) is kept on disk, so the
//! second run of a program compiles nothing.
//!
//! - **Where**: `$TESSERA_CACHE_DIR`, else `$XDG_CACHE_HOME/tessera`, else
//!   `~/.cache/tessera` ([`Settings::from_env`]); an embedder's `Config` may name another
//!   directory ([`configure`]). `TESSERA_CACHE=off` turns the store off.
//! - **Entries** are files named by the SHA-256 of their kind, the build of the code that
//!   made them, and their key (a digest of everything the result depends on). Each begins
//!   with a header (magic, format version, build digest, key digest, payload length,
//!   payload SHA-256) that is checked at every load: an entry that is truncated, altered or
//!   not an entry at all is removed and reported as a miss, so its user computes the result
//!   again and writes it anew. Nothing read from the store is trusted before that check.
//! - **Writes are atomic**: a temporary file in the same directory, renamed over the entry,
//!   so a process never reads half an entry another one is writing, and concurrent
//!   processes may share the directory.
//! - **Size cap** (default [`DEFAULT_CAP`], `TESSERA_CACHE_SIZE`): a hit refreshes the
//!   entry's modification time; a write that takes the directory past the cap removes the
//!   least recently used files until it is below 90% of it. Each process counts what it
//!   wrote since it last looked, so the directory may pass the cap by what other processes
//!   wrote until one of them writes again.
//! - **Permissions**: the directory is made `0700`; one that is group- or world-writable,
//!   owned by another user, or not writable is not used: the store is off for the process,
//!   with one warning, and everything is computed as without a cache.
#![expect(
    unsafe_code,
    reason = "geteuid, to check that the cache directory is the user's own; dladdr, to name the build"
)]

pub mod sha256;

pub use sha256::Sha256;

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, SystemTime};

/// The size cap when none is configured: 256 MiB.
pub const DEFAULT_CAP: u64 = 256 << 20;

const MAGIC: [u8; 8] = *b"TSRCACHE";
/// The entry format; an entry of another format is rejected like a corrupt one.
const FORMAT: u32 = 1;
/// magic, format, reserved, build digest, key digest, payload length, payload digest.
const HEADER: usize = 8 + 4 + 4 + 32 + 32 + 8 + 32;
const TEMP_PREFIX: &str = ".tmp-";

/// What a family of entries is: its name (the first part of the file names) and the version
/// of what computes it besides Tessera's own build ([`build_id`]): a library's version, a
/// driver's identity.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// A short name: `glsl`, `essl`, `vkpipe`, ...
    pub name: &'static str,
    /// The version of what computes the entries, besides Tessera's build.
    pub build: &'static str,
}

/// How the process-wide store is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The directory (`None`: no store).
    pub dir: Option<PathBuf>,
    /// The size cap in bytes.
    pub cap: u64,
}

impl Settings {
    /// What the environment asks for: `TESSERA_CACHE=off` (or `0`, `false`, `no`) turns the
    /// store off; `TESSERA_CACHE_DIR` names the directory, else `$XDG_CACHE_HOME/tessera`,
    /// else `$HOME/.cache/tessera`; `TESSERA_CACHE_SIZE` is the cap in bytes, or with a
    /// `K`, `M` or `G` suffix.
    pub fn from_env() -> Self {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        let off = std::env::var("TESSERA_CACHE").is_ok_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "off" | "0" | "false" | "no" | "disabled"
            )
        });
        let dir = if off {
            None
        } else if let Some(d) = var("TESSERA_CACHE_DIR") {
            Some(PathBuf::from(d))
        } else if let Some(d) = var("XDG_CACHE_HOME") {
            Some(Path::new(&d).join("tessera"))
        } else {
            var("HOME").map(|h| Path::new(&h).join(".cache").join("tessera"))
        };
        let cap = match std::env::var("TESSERA_CACHE_SIZE") {
            Ok(v) => parse_size(&v).unwrap_or_else(|| {
                log::warn!("TESSERA_CACHE_SIZE={v:?} is not a size; using {DEFAULT_CAP}");
                DEFAULT_CAP
            }),
            Err(_) => DEFAULT_CAP,
        };
        Self { dir, cap }
    }
}

/// Parses `123`, `64K`, `256M`, `1G` (powers of 1024).
pub fn parse_size(v: &str) -> Option<u64> {
    let v = v.trim();
    let (digits, shift) = match v.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&v[..v.len() - 1], 10),
        b'M' => (&v[..v.len() - 1], 20),
        b'G' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// Work the store's users did, or were spared, counted process-wide ([`note`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A glslang compile or link (the shader front end).
    FrontEnd,
    /// A SPIR-V to GLSL ES translation (the GLES backend's SPIRV-Cross).
    Translation,
    /// A native program binary loaded and linked (GLES).
    BinaryLoaded,
    /// A stored native program binary the driver refused (another driver build): the
    /// program was compiled again.
    BinaryRefused,
    /// A Vulkan pipeline the driver reported found in the pipeline cache (creation
    /// feedback).
    PipelineHit,
    /// A Vulkan pipeline the driver reported not found there.
    PipelineMiss,
}

static WORK: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// Counts one piece of work ([`Counters`]).
pub fn note(work: Work) {
    WORK[work as usize].fetch_add(1, Ordering::Relaxed);
}

/// Process-wide counts of what the store did (all stores of the process together) and of
/// the work its users did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Loads that found a valid entry.
    pub hits: u64,
    /// Loads that found none.
    pub misses: u64,
    /// Entries found invalid (corrupt, truncated, of another format), removed and counted
    /// as misses too.
    pub rejected: u64,
    /// Entries written.
    pub writes: u64,
    /// Files removed to keep the directory under its cap.
    pub evicted: u64,
    /// glslang compiles and links ([`Work::FrontEnd`]).
    pub front_end: u64,
    /// SPIR-V to GLSL ES translations ([`Work::Translation`]).
    pub translations: u64,
    /// Native program binaries loaded ([`Work::BinaryLoaded`]).
    pub binaries_loaded: u64,
    /// Native program binaries the driver refused ([`Work::BinaryRefused`]).
    pub binaries_refused: u64,
    /// Vulkan pipelines found in the pipeline cache ([`Work::PipelineHit`]).
    pub pipeline_hits: u64,
    /// Vulkan pipelines not found there ([`Work::PipelineMiss`]).
    pub pipeline_misses: u64,
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static REJECTED: AtomicU64 = AtomicU64::new(0);
static WRITES: AtomicU64 = AtomicU64::new(0);
static EVICTED: AtomicU64 = AtomicU64::new(0);
static TEMPS: AtomicU64 = AtomicU64::new(0);

/// What the stores of this process did so far.
pub fn counters() -> Counters {
    Counters {
        hits: HITS.load(Ordering::Relaxed),
        misses: MISSES.load(Ordering::Relaxed),
        rejected: REJECTED.load(Ordering::Relaxed),
        writes: WRITES.load(Ordering::Relaxed),
        evicted: EVICTED.load(Ordering::Relaxed),
        front_end: WORK[Work::FrontEnd as usize].load(Ordering::Relaxed),
        translations: WORK[Work::Translation as usize].load(Ordering::Relaxed),
        binaries_loaded: WORK[Work::BinaryLoaded as usize].load(Ordering::Relaxed),
        binaries_refused: WORK[Work::BinaryRefused as usize].load(Ordering::Relaxed),
        pipeline_hits: WORK[Work::PipelineHit as usize].load(Ordering::Relaxed),
        pipeline_misses: WORK[Work::PipelineMiss as usize].load(Ordering::Relaxed),
    }
}

/// A cache directory, checked and ready.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    cap: u64,
    /// Bytes in the directory when last counted, plus what this process wrote since.
    bytes: Mutex<u64>,
}

impl Store {
    /// Opens (creating, mode `0700`) a cache directory. `Err` says why it cannot be used:
    /// it cannot be created, is not a directory, is group- or world-writable, is owned by
    /// another user, or cannot be written.
    pub fn open(dir: &Path, cap: u64) -> Result<Self, String> {
        let shown = dir.display();
        if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(format!("{shown} is not a directory"));
        }
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("{shown} cannot be created: {e}"))?;
        let meta = fs::metadata(dir).map_err(|e| format!("{shown}: {e}"))?;
        if !meta.is_dir() {
            return Err(format!("{shown} is not a directory"));
        }
        // SAFETY: geteuid has no preconditions and cannot fail.
        let euid = unsafe { libc::geteuid() };
        if meta.uid() != euid {
            return Err(format!(
                "{shown} is owned by user {}, not by this user ({euid})",
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "{shown} is writable by others (mode {:o})",
                meta.mode() & 0o7777
            ));
        }
        let probe = dir.join(format!("{TEMP_PREFIX}probe-{}", std::process::id()));
        fs::File::create(&probe).map_err(|e| format!("{shown} is not writable: {e}"))?;
        let _ = fs::remove_file(&probe);
        let store = Self {
            dir: dir.to_owned(),
            cap,
            bytes: Mutex::new(0),
        };
        *store.bytes.lock().unwrap_or_else(|e| e.into_inner()) =
            store.files().iter().map(|f| f.1).sum();
        Ok(store)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size cap in bytes.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// The path of `kind`'s entry for `key`.
    pub fn entry_path(&self, kind: &Kind, key: &[u8; 32]) -> PathBuf {
        let mut h = Sha256::default();
        h.part(kind.name.as_bytes());
        h.part(&build_digest(kind));
        h.part(key);
        self.dir
            .join(format!("{}-{}", kind.name, hex(&h.finish()[..16])))
    }

    /// The payload stored for `key`, if a valid entry holds it. An invalid entry is removed.
    pub fn get(&self, kind: &Kind, key: &[u8; 32]) -> Option<Vec<u8>> {
        let path = self.entry_path(kind, key);
        let bytes = match fs::File::open(&path) {
            Ok(mut f) => {
                // Refresh the entry's age for the LRU order; a failure costs only that.
                let _ = f.set_modified(SystemTime::now());
                let mut bytes = Vec::new();
                match Read::by_ref(&mut f)
                    .take(self.cap.saturating_add(HEADER as u64))
                    .read_to_end(&mut bytes)
                {
                    Ok(_) => bytes,
                    Err(_) => return self.reject(&path),
                }
            }
            Err(_) => {
                MISSES.fetch_add(1, Ordering::Relaxed);
                return None;
            }
        };
        match verify(&bytes, kind, key) {
            Some(payload) => {
                HITS.fetch_add(1, Ordering::Relaxed);
                Some(payload.to_vec())
            }
            None => self.reject(&path),
        }
    }

    fn reject(&self, path: &Path) -> Option<Vec<u8>> {
        log::debug!("cache entry {} is invalid: removed", path.display());
        let _ = fs::remove_file(path);
        REJECTED.fetch_add(1, Ordering::Relaxed);
        MISSES.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Stores `payload` for `key` (a payload larger than half the cap is not stored). A
    /// failure to write is not an error: the result is computed again next time.
    pub fn put(&self, kind: &Kind, key: &[u8; 32], payload: &[u8]) {
        if payload.len() as u64 > self.cap / 2 {
            return;
        }
        let path = self.entry_path(kind, key);
        let mut bytes = Vec::with_capacity(HEADER + payload.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&build_digest(kind));
        bytes.extend_from_slice(key);
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&sha256::digest(payload));
        bytes.extend_from_slice(payload);
        let temp = self.dir.join(format!(
            "{TEMP_PREFIX}{}-{}",
            std::process::id(),
            TEMPS.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create(&temp)
            .and_then(|mut f| f.write_all(&bytes))
            .and_then(|()| fs::rename(&temp, &path));
        if let Err(e) = written {
            log::debug!("cache entry {} not written: {e}", path.display());
            let _ = fs::remove_file(&temp);
            return;
        }
        WRITES.fetch_add(1, Ordering::Relaxed);
        let over = {
            let mut total = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
            *total += bytes.len() as u64;
            *total > self.cap
        };
        if over {
            self.evict();
        }
    }

    /// The directory's files (entries, garbage, other processes' temporary files older than
    /// a minute): path, size, modification time.
    fn files(&self) -> Vec<(PathBuf, u64, SystemTime)> {
        let Ok(dir) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let now = SystemTime::now();
        dir.filter_map(|e| {
            let e = e.ok()?;
            let meta = e.metadata().ok()?;
            if !meta.is_file() {
                return None;
            }
            let modified = meta.modified().ok()?;
            let young = now
                .duration_since(modified)
                .is_ok_and(|age| age < Duration::from_secs(60));
            if young && e.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
                return None;
            }
            Some((e.path(), meta.len(), modified))
        })
        .collect()
    }

    /// Removes the least recently used files until the directory is below 90% of the cap.
    fn evict(&self) {
        let mut files = self.files();
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        let target = self.cap / 10 * 9;
        files.sort_by_key(|f| f.2);
        for (path, len, _) in files {
            if total <= target {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                EVICTED.fetch_add(1, Ordering::Relaxed);
            }
            total = total.saturating_sub(len);
        }
        *self.bytes.lock().unwrap_or_else(|e| e.into_inner()) = total;
    }
}

/// The payload of an entry's bytes, if they are a valid entry of `kind` for `key`.
fn verify<'a>(bytes: &'a [u8], kind: &Kind, key: &[u8; 32]) -> Option<&'a [u8]> {
    let header = bytes.get(..HEADER)?;
    let payload = &bytes[HEADER..];
    let ok = header[..8] == MAGIC
        && header[8..12] == FORMAT.to_le_bytes()
        && header[16..48] == build_digest(kind)
        && header[48..80] == key[..]
        && header[80..88] == (payload.len() as u64).to_le_bytes()
        && header[88..120] == sha256::digest(payload);
    ok.then_some(payload)
}

/// The digest of Tessera's build and the kind's own version.
fn build_digest(kind: &Kind) -> [u8; 32] {
    key(&[build_id().as_bytes(), kind.build.as_bytes()])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A key: the digest of its parts (each length-prefixed).
pub fn key(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::default();
    for p in parts {
        h.part(p);
    }
    h.finish()
}

/// The process-wide store: `None` until first used, then the result of opening what
/// [`Settings::from_env`] or the last [`configure`] named.
static GLOBAL: RwLock<Option<Option<Arc<Store>>>> = RwLock::new(None);

/// Sets up the process-wide store (an embedder's configuration; replaces the environment's
/// and any earlier one). A directory that cannot be used turns the store off, with one
/// warning.
pub fn configure(settings: &Settings) {
    let store = open_logged(settings);
    *GLOBAL.write().unwrap_or_else(|e| e.into_inner()) = Some(store);
}

fn open_logged(settings: &Settings) -> Option<Arc<Store>> {
    let dir = settings.dir.as_ref()?;
    match Store::open(dir, settings.cap) {
        Ok(s) => Some(Arc::new(s)),
        Err(reason) => {
            log::warn!("persistent cache off: {reason}");
            None
        }
    }
}

/// The process-wide store, opened from the environment at first use unless [`configure`]d;
/// `None` when it is off.
pub fn global() -> Option<Arc<Store>> {
    if let Some(s) = GLOBAL.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return s.clone();
    }
    let mut slot = GLOBAL.write().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert_with(|| open_logged(&Settings::from_env()))
        .clone()
}

/// Loads from the process-wide store (`None` when it is off or has no valid entry).
pub fn load(kind: &Kind, key: &[u8; 32]) -> Option<Vec<u8>> {
    global()?.get(kind, key)
}

/// Stores into the process-wide store (nothing when it is off).
pub fn store(kind: &Kind, key: &[u8; 32], payload: &[u8]) {
    if let Some(s) = global() {
        s.put(kind, key, payload);
    }
}

/// The build of Tessera running: the path, size and modification time of the executable
/// or shared library this code was loaded from (so any rebuild is another build), with the
/// crate version. Every entry's header carries it: entries of another build are misses.
pub fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let path = loaded_from().or_else(|| std::env::current_exe().ok());
        let meta = path.as_ref().and_then(|p| fs::metadata(p).ok());
        let modified = meta
            .as_ref()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .unwrap_or_default();
        format!(
            "tessera {} {} {} {}.{:09}",
            env!("CARGO_PKG_VERSION"),
            path.as_deref().unwrap_or(Path::new("?")).display(),
            meta.map_or(0, |m| m.len()),
            modified.as_secs(),
            modified.subsec_nanos()
        )
    })
}

/// The file this code was loaded from, if the dynamic loader names an existing one.
fn loaded_from() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: `Dl_info` is plain data, all zeros is a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let this: fn() -> &'static str = build_id;
    let addr = this as *const libc::c_void;
    // SAFETY: `addr` is an address in this object; `info` is a valid out-pointer.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr set a NUL-terminated string that lives as long as the object.
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes()));
    (path.is_absolute() && path.is_file()).then_some(path)
}

#[cfg(test)]
mod tests;
