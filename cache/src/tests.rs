use super::*;
use std::os::unix::fs::PermissionsExt;

/// A way to damage an entry's bytes, named.
type Damage<'a> = (&'a str, &'a dyn Fn(&mut Vec<u8>));

const KIND: Kind = Kind {
    name: "test",
    build: "build-1",
};

/// A fresh directory path (not created) under the system's temporary directory.
fn fresh_dir(tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tessera-cache-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn payload(i: u32, len: usize) -> Vec<u8> {
    (0..len).map(|j| (i as usize * 31 + j) as u8).collect()
}

#[test]
fn an_entry_reads_back_only_for_its_kind_build_and_key() {
    let dir = fresh_dir("roundtrip");
    let store = Store::open(&dir, DEFAULT_CAP).unwrap();
    let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let k = key(&[b"source", b"options"]);
    assert_eq!(store.get(&KIND, &k), None);
    store.put(&KIND, &k, b"result");
    assert_eq!(store.get(&KIND, &k).as_deref(), Some(&b"result"[..]));
    // Parts are length-prefixed: another split of the same bytes is another key.
    assert_eq!(store.get(&KIND, &key(&[b"sourceo", b"ptions"])), None);
    let other_build = Kind {
        build: "build-2",
        ..KIND
    };
    assert_eq!(store.get(&other_build, &k), None);
    // An empty payload is a result too.
    let e = key(&[b"empty"]);
    store.put(&KIND, &e, b"");
    assert_eq!(store.get(&KIND, &e), Some(Vec::new()));
    fs::remove_dir_all(&dir).unwrap();
}

/// Truncated, altered, foreign and empty files where an entry should be are rejected
/// (removed, a miss) and the entry is written anew; garbage under other names is harmless.
#[test]
fn invalid_entries_are_rejected_and_rebuilt() {
    let dir = fresh_dir("corrupt");
    let store = Store::open(&dir, DEFAULT_CAP).unwrap();
    for i in 0..20 {
        fs::write(
            dir.join(format!("garbage-{i}")),
            payload(i, 100 * i as usize),
        )
        .unwrap();
    }
    let good = payload(7, 1000);
    let damage: [Damage<'_>; 7] = [
        ("truncated in the payload", &|b| b.truncate(b.len() - 1)),
        ("truncated in the header", &|b| b.truncate(HEADER - 3)),
        ("empty", &|b| b.clear()),
        ("a payload byte flipped", &|b| *b.last_mut().unwrap() ^= 1),
        ("another format", &|b| b[8] = 9),
        ("a longer payload", &|b| b.push(0)),
        ("not an entry", &|b| *b = payload(3, 5000)),
    ];
    for (i, (what, damage)) in damage.iter().enumerate() {
        let k = key(&[&(i as u32).to_le_bytes()]);
        store.put(&KIND, &k, &good);
        let path = store.entry_path(&KIND, &k);
        let mut bytes = fs::read(&path).unwrap();
        damage(&mut bytes);
        fs::write(&path, &bytes).unwrap();
        let before = counters().rejected;
        assert_eq!(store.get(&KIND, &k), None, "{what}");
        assert_eq!(counters().rejected, before + 1, "{what}");
        assert!(!path.exists(), "{what}: the invalid entry is removed");
        store.put(&KIND, &k, &good);
        assert_eq!(store.get(&KIND, &k).as_deref(), Some(&good[..]), "{what}");
    }
    // A key stored in a file of another key's name is refused.
    let (a, b) = (key(&[b"a"]), key(&[b"b"]));
    store.put(&KIND, &a, b"for a");
    fs::rename(store.entry_path(&KIND, &a), store.entry_path(&KIND, &b)).unwrap();
    assert_eq!(store.get(&KIND, &b), None);
    fs::remove_dir_all(&dir).unwrap();
}

/// Writes past the cap remove the least recently used files (a hit counts as a use), and
/// leave the directory below it.
#[test]
fn writes_past_the_cap_evict_the_least_recently_used() {
    let dir = fresh_dir("evict");
    let cap = 64 << 10;
    let store = Store::open(&dir, cap).unwrap();
    let keys: Vec<_> = (0u32..24).map(|i| key(&[&i.to_le_bytes()])).collect();
    let old = SystemTime::now() - Duration::from_secs(3600);
    for (i, k) in keys.iter().enumerate() {
        store.put(&KIND, k, &payload(i as u32, 4000));
        // Distinct ages, oldest first, whatever the file system's time resolution.
        let f = fs::File::options()
            .write(true)
            .open(store.entry_path(&KIND, k))
            .unwrap();
        f.set_modified(old + Duration::from_secs(i as u64)).unwrap();
        if i == 12 {
            // Entry 0, the oldest, is used: it becomes the most recent.
            assert!(store.get(&KIND, &keys[0]).is_some());
        }
    }
    let total: u64 = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(total <= cap, "{total} bytes in the directory, cap {cap}");
    let present: Vec<bool> = keys
        .iter()
        .map(|k| store.entry_path(&KIND, k).exists())
        .collect();
    assert!(present[0], "the entry used since is kept");
    assert!(!present[1], "the least recently used entry is evicted");
    assert!(present[23], "the newest entry is kept");
    // Evicted entries are misses, and kept ones hits.
    assert_eq!(store.get(&KIND, &keys[1]), None);
    assert_eq!(store.get(&KIND, &keys[23]), Some(payload(23, 4000)));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_others_can_write_or_that_is_not_one_is_refused() {
    for mode in [0o777, 0o770, 0o702] {
        let dir = fresh_dir("mode");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(mode)).unwrap();
        let err = Store::open(&dir, DEFAULT_CAP).unwrap_err();
        assert!(err.contains("writable by others"), "{mode:o}: {err}");
        fs::remove_dir_all(&dir).unwrap();
    }
    let file = fresh_dir("file");
    fs::write(&file, b"x").unwrap();
    let err = Store::open(&file, DEFAULT_CAP).unwrap_err();
    assert!(err.contains("not a directory"), "{err}");
    let err = Store::open(&file.join("below"), DEFAULT_CAP).unwrap_err();
    assert!(err.contains("cannot be created"), "{err}");
    fs::remove_file(&file).unwrap();

    let dir = fresh_dir("owner");
    fs::create_dir(&dir).unwrap();
    // SAFETY: no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // Root may write anywhere: only another owner makes the directory not its own.
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
        let err = Store::open(&dir, DEFAULT_CAP).unwrap_err();
        assert!(err.contains("is owned by user 65534"), "{err}");
    } else {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
        let err = Store::open(&dir, DEFAULT_CAP).unwrap_err();
        assert!(err.contains("not writable"), "{err}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The process-wide store is off for a directory it may not use: loads miss and stores do
/// nothing, and it is on again for one it may.
#[test]
fn the_process_store_is_off_for_a_refused_directory() {
    let bad = fresh_dir("global-bad");
    fs::create_dir(&bad).unwrap();
    fs::set_permissions(&bad, fs::Permissions::from_mode(0o777)).unwrap();
    configure(&Settings {
        dir: Some(bad.clone()),
        cap: DEFAULT_CAP,
    });
    assert!(global().is_none());
    let k = key(&[b"k"]);
    store(&KIND, &k, b"v");
    assert_eq!(load(&KIND, &k), None);
    assert_eq!(fs::read_dir(&bad).unwrap().count(), 0, "nothing is written");
    let good = fresh_dir("global-good");
    configure(&Settings {
        dir: Some(good.clone()),
        cap: DEFAULT_CAP,
    });
    store(&KIND, &k, b"v");
    assert_eq!(load(&KIND, &k).as_deref(), Some(&b"v"[..]));
    configure(&Settings {
        dir: None,
        cap: DEFAULT_CAP,
    });
    assert_eq!(load(&KIND, &k), None);
    fs::remove_dir_all(&bad).unwrap();
    fs::remove_dir_all(&good).unwrap();
}

/// Stores of one directory writing and reading the same keys at once: every load is a miss
/// or the whole payload, never a part of one.
#[test]
fn concurrent_writers_never_expose_partial_entries() {
    let dir = fresh_dir("concurrent");
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let store = Store::open(&dir, DEFAULT_CAP).unwrap();
                let mut hits = 0;
                for round in 0..200u32 {
                    let i = (round + t * 7) % 16;
                    let k = key(&[&i.to_le_bytes()]);
                    match store.get(&KIND, &k) {
                        Some(p) => {
                            assert_eq!(p, payload(i, 20_000 + i as usize));
                            hits += 1;
                        }
                        None => store.put(&KIND, &k, &payload(i, 20_000 + i as usize)),
                    }
                }
                hits
            })
        })
        .collect();
    let hits: u32 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(hits > 0);
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.len(),
        16,
        "one file per key, no temporary left: {names:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sizes_and_environment() {
    assert_eq!(parse_size("123"), Some(123));
    assert_eq!(parse_size("64K"), Some(64 << 10));
    assert_eq!(parse_size("256m"), Some(256 << 20));
    assert_eq!(parse_size(" 1G "), Some(1 << 30));
    assert_eq!(parse_size("lots"), None);
    assert_eq!(parse_size(""), None);
}

/// The build names the file this code runs from, so a rebuilt binary never reads entries
/// of the one before.
#[test]
fn the_build_names_the_running_binary() {
    let exe = std::env::current_exe().unwrap();
    let id = build_id();
    assert!(id.contains(&*exe.to_string_lossy()), "{id}");
    let len = fs::metadata(&exe).unwrap().len();
    assert!(id.contains(&format!(" {len} ")), "{id}");
}
