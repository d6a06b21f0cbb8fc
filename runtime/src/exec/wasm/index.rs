//! An index of the compile cache: which entry holds the compiled form of the
//! component at a path, so a later process loads it without reading and
//! hashing the component or re-hashing the entry (2.8 MB of SHA-256 for the
//! dangerous-command guard: most of a cached run's time, measured).
//!
//! A record is kept per (component path, engine compatibility hash) in
//! `<cache>/index/`. It holds the component file's identity when its bytes
//! were read and hashed — device, inode, size, mtime and ctime — and the same
//! for the cache entry when its digest was verified (or it was written). A
//! lookup `stat`s both files and uses the entry only when both identities
//! match exactly; any mismatch (or no record) falls back to the full path:
//! read, hash, verify, and write a new record.
//!
//! Why the identity is enough: every change to a file's bytes through the
//! file system sets its ctime to the current time, and no system call sets
//! ctime to anything else, so a file with the recorded ctime has the recorded
//! bytes. One gap remains: a change within the file system's timestamp
//! granularity of the read would keep the ctime. So, as git does for its
//! index ("racy git"), a component changed less than [`SETTLE`] before it was
//! read is not recorded; the next run after that reads and records it.
//!
//! Trust is not involved: the trust gate (`config::trust`) fingerprints
//! component bytes itself. The index only decides which compiled artifact
//! runs for a path, and it runs the artifact of the bytes that are there.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};
use wasmtime::Engine;

/// How long before a read a component must have last changed for the read
/// to be recorded: well above any file system's timestamp granularity
/// (FAT's is 2 s).
pub(crate) const SETTLE: Duration = Duration::from_secs(3);

/// First word of a record: a future layout is a miss, not a misread.
const VERSION: &str = "ahidx1";

/// A file's identity: device, inode, size, mtime and ctime (seconds, nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Identity {
    /// The identity in `meta`; `None` where the platform gives no inode and ctime.
    #[cfg(unix)]
    pub(crate) fn of(meta: &fs::Metadata) -> Option<Identity> {
        use std::os::unix::fs::MetadataExt;
        Some(Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    /// No index without inodes and ctimes: every run takes the full path.
    #[cfg(not(unix))]
    pub(crate) fn of(_meta: &fs::Metadata) -> Option<Identity> {
        None
    }

    /// Whether the file last changed at least [`SETTLE`] before `now`.
    fn settled(&self, now: SystemTime) -> bool {
        let newest = self.mtime.max(self.ctime);
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Ok(secs) = i64::try_from(now.saturating_sub(SETTLE).as_secs()) else {
            return false;
        };
        newest.0 < secs
    }

    fn words(&self) -> [String; 7] {
        [
            self.dev.to_string(),
            self.ino.to_string(),
            self.size.to_string(),
            self.mtime.0.to_string(),
            self.mtime.1.to_string(),
            self.ctime.0.to_string(),
            self.ctime.1.to_string(),
        ]
    }

    fn parse(words: &mut std::str::SplitWhitespace<'_>) -> Option<Identity> {
        let mut next = || words.next()?.parse::<i64>().ok();
        let dev = u64::try_from(next()?).ok()?;
        let ino = u64::try_from(next()?).ok()?;
        let size = u64::try_from(next()?).ok()?;
        Some(Identity {
            dev,
            ino,
            size,
            mtime: (next()?, next()?),
            ctime: (next()?, next()?),
        })
    }
}

/// The engine's compatibility hash as hex: records of another wasmtime
/// version or `Config` never match (they would name entries it cannot load).
fn compat(engine: &Engine) -> String {
    super::cache::compat_hex(engine)
}

/// Where the record of `component` lives.
fn record_path(dir: &Path, component: &Path, compat: &str) -> PathBuf {
    let mut key = Sha256::new();
    key.update(component.as_os_str().as_encoded_bytes());
    key.update([0]);
    key.update(compat.as_bytes());
    dir.join("index")
        .join(format!("{}.idx", super::cache::hex(&key.finalize()[..16])))
}

/// The cache entry recorded for `component` (whose metadata is `meta`), if the
/// record matches both files exactly.
pub(crate) fn lookup(
    engine: &Engine,
    cache_dir: &Path,
    component: &Path,
    meta: &fs::Metadata,
) -> Option<PathBuf> {
    let current = Identity::of(meta)?;
    let compat = compat(engine);
    let text = fs::read_to_string(record_path(cache_dir, component, &compat)).ok()?;
    let (fields, recorded_path) = text.split_once('\n')?;
    if recorded_path.as_bytes() != component.as_os_str().as_encoded_bytes() {
        return None; // a collision of the record's name: not ours
    }
    let mut words = fields.split_whitespace();
    if words.next()? != VERSION || words.next()? != compat {
        return None;
    }
    if Identity::parse(&mut words)? != current {
        return None;
    }
    let entry_name = words.next()?;
    let entry_identity = Identity::parse(&mut words)?;
    if entry_name.contains(['/', '\\']) || !entry_name.ends_with(".cwasm") {
        return None;
    }
    let entry = cache_dir.join(entry_name);
    let entry_meta = fs::symlink_metadata(&entry).ok()?;
    (entry_meta.is_file() && Identity::of(&entry_meta)? == entry_identity).then_some(entry)
}

/// Record that `entry` (verified or written just now) holds the compiled form
/// of the bytes `component` had when its metadata `meta` was taken, unless the
/// component changed too recently to be sure ([`SETTLE`]). Best effort: a
/// record that cannot be written only costs the next run the full path.
pub(crate) fn record(
    engine: &Engine,
    cache_dir: &Path,
    component: &Path,
    meta: &fs::Metadata,
    entry: &Path,
) {
    let _ = try_record(engine, cache_dir, component, meta, entry, SystemTime::now());
}

fn try_record(
    engine: &Engine,
    cache_dir: &Path,
    component: &Path,
    meta: &fs::Metadata,
    entry: &Path,
    now: SystemTime,
) -> Option<()> {
    let identity = Identity::of(meta)?;
    if !identity.settled(now) {
        return None;
    }
    let entry_identity = Identity::of(&fs::symlink_metadata(entry).ok()?)?;
    let entry_name = entry.file_name()?.to_str()?;
    let compat = compat(engine);
    let path = record_path(cache_dir, component, &compat);
    let text = format!(
        "{VERSION} {compat} {} {entry_name} {}\n{}",
        identity.words().join(" "),
        entry_identity.words().join(" "),
        component.to_str()?,
    );
    let dir = path.parent()?;
    super::cache::ensure_private_dir(dir).ok()?;
    // A temporary file in the same directory, renamed: readers see a whole record or none.
    let mut file = tempfile::NamedTempFile::new_in(dir).ok()?;
    file.write_all(text.as_bytes()).ok()?;
    file.persist(&path).ok()?;
    Some(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::exec::wasm::EngineOptions;

    fn engine() -> Engine {
        super::super::engine::new_engine(&EngineOptions::default()).unwrap()
    }

    fn long_ago() -> SystemTime {
        // Files made by the test are "settled" as seen from a minute later.
        SystemTime::now() + Duration::from_secs(60)
    }

    #[test]
    fn a_record_matches_until_either_file_changes() {
        let engine = engine();
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("cache");
        fs::create_dir(&cache).unwrap();
        let component = tmp.path().join("hook.wasm");
        fs::write(&component, b"component v1").unwrap();
        let entry = cache.join("abc-def.cwasm");
        fs::write(&entry, b"artifact").unwrap();
        let meta = fs::metadata(&component).unwrap();

        assert_eq!(lookup(&engine, &cache, &component, &meta), None);
        try_record(&engine, &cache, &component, &meta, &entry, long_ago()).unwrap();
        assert_eq!(
            lookup(&engine, &cache, &component, &meta),
            Some(entry.clone())
        );
        // Another path with the same bytes has no record.
        let other = tmp.path().join("other.wasm");
        fs::copy(&component, &other).unwrap();
        let other_meta = fs::metadata(&other).unwrap();
        assert_eq!(lookup(&engine, &cache, &other, &other_meta), None);

        // The component rewritten in place, same size: a new ctime, a miss.
        std::thread::sleep(Duration::from_millis(20));
        fs::write(&component, b"component v2").unwrap();
        let changed = fs::metadata(&component).unwrap();
        assert_eq!(changed.len(), meta.len());
        assert_eq!(lookup(&engine, &cache, &component, &changed), None);

        // The entry replaced: a miss, even for the recorded component identity.
        try_record(&engine, &cache, &component, &changed, &entry, long_ago()).unwrap();
        assert!(lookup(&engine, &cache, &component, &changed).is_some());
        let tmp_entry = cache.join("new.cwasm");
        fs::write(&tmp_entry, b"artifacT").unwrap();
        fs::rename(&tmp_entry, &entry).unwrap();
        assert_eq!(lookup(&engine, &cache, &component, &changed), None);
    }

    #[test]
    fn a_component_changed_just_now_is_not_recorded() {
        let engine = engine();
        let tmp = tempfile::tempdir().unwrap();
        let component = tmp.path().join("hook.wasm");
        fs::write(&component, b"fresh").unwrap();
        let entry = tmp.path().join("e.cwasm");
        fs::write(&entry, b"artifact").unwrap();
        let meta = fs::metadata(&component).unwrap();
        let now = SystemTime::now();
        assert_eq!(
            try_record(&engine, tmp.path(), &component, &meta, &entry, now),
            None
        );
        assert_eq!(lookup(&engine, tmp.path(), &component, &meta), None);
    }

    #[test]
    fn damaged_records_are_misses() {
        let engine = engine();
        let tmp = tempfile::tempdir().unwrap();
        let component = tmp.path().join("hook.wasm");
        fs::write(&component, b"c").unwrap();
        let entry = tmp.path().join("e.cwasm");
        fs::write(&entry, b"a").unwrap();
        let meta = fs::metadata(&component).unwrap();
        try_record(&engine, tmp.path(), &component, &meta, &entry, long_ago()).unwrap();
        let record = record_path(tmp.path(), &component, &compat(&engine));
        let good = fs::read_to_string(&record).unwrap();
        for bad in [
            String::new(),
            good.replacen(VERSION, "ahidx0", 1),
            good.replacen("e.cwasm", "../e.cwasm", 1),
            good.replace('\n', " "),
            good.split_whitespace()
                .take(5)
                .collect::<Vec<_>>()
                .join(" "),
        ] {
            fs::write(&record, &bad).unwrap();
            assert_eq!(
                lookup(&engine, tmp.path(), &component, &meta),
                None,
                "{bad}"
            );
        }
    }
}
