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
//! index ("racy git"), a component changed less than
//! [`SETTLE`](crate::fsread::SETTLE) before it was read is not recorded; the
//! next run after that reads and records it. The rule is [`FileStamp`]'s, the
//! same the warm component map and the config reload use.
//!
//! Trust: an index hit reads no component, yet the trust gate still learns
//! which bytes run: the entry's trailer names the digest of the component it
//! was compiled from (`cache.rs`), which must match its key.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};
use wasmtime::Engine;

use crate::atomic;
use crate::fsread::FileStamp;

/// First word of a record: a future layout is a miss, not a misread.
const VERSION: &str = "ahidx1";

/// A file's identity, as the one "has this file changed?" rule ([`FileStamp`])
/// has it; `None` where the platform gives no inode and ctime (no index there).
pub(crate) fn identity(meta: &fs::Metadata) -> Option<FileStamp> {
    FileStamp::exact().then(|| FileStamp::of(meta))
}

/// The identity under which a component read at `now` is recorded, or
/// `None` when it is not (no identity here, or changed too recently).
pub(crate) fn indexable(meta: &fs::Metadata, now: SystemTime) -> Option<FileStamp> {
    identity(meta).filter(|stamp| stamp.settled(now))
}

fn words(stamp: &FileStamp) -> [String; 7] {
    [
        stamp.dev.to_string(),
        stamp.ino.to_string(),
        stamp.size.to_string(),
        stamp.mtime.0.to_string(),
        stamp.mtime.1.to_string(),
        stamp.ctime.0.to_string(),
        stamp.ctime.1.to_string(),
    ]
}

fn parse(words: &mut std::str::SplitWhitespace<'_>) -> Option<FileStamp> {
    let mut next = || words.next()?.parse::<i64>().ok();
    let dev = u64::try_from(next()?).ok()?;
    let ino = u64::try_from(next()?).ok()?;
    let size = u64::try_from(next()?).ok()?;
    Some(FileStamp {
        dev,
        ino,
        size,
        mtime: (next()?, next()?),
        ctime: (next()?, next()?),
    })
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
    let current = identity(meta)?;
    let compat = compat(engine);
    let record = record_path(cache_dir, component, &compat);
    let text =
        crate::fsread::read_bounded_string(&record, crate::fsread::caps::CACHE_RECORD).ok()?;
    let (fields, recorded_path) = text.split_once('\n')?;
    if recorded_path.as_bytes() != component.as_os_str().as_encoded_bytes() {
        return None; // a collision of the record's name: not ours
    }
    let mut words = fields.split_whitespace();
    if words.next()? != VERSION || words.next()? != compat {
        return None;
    }
    if parse(&mut words)? != current {
        return None;
    }
    let entry_name = words.next()?;
    let entry_identity = parse(&mut words)?;
    if entry_name.contains(['/', '\\']) || !entry_name.ends_with(".cwasm") {
        return None;
    }
    let entry = cache_dir.join(entry_name);
    let entry_meta = fs::symlink_metadata(&entry).ok()?;
    (entry_meta.is_file() && identity(&entry_meta)? == entry_identity).then_some(entry)
}

/// The entry name and the component path a record names, if it is one
/// (for `agenthooks cache` and the sweep, `gc.rs`).
pub(crate) fn read_record(record: &Path) -> Option<(String, PathBuf)> {
    let text =
        crate::fsread::read_bounded_string(record, crate::fsread::caps::CACHE_RECORD).ok()?;
    let (fields, component) = text.split_once('\n')?;
    let mut words = fields.split_whitespace();
    if words.next()? != VERSION {
        return None;
    }
    let entry = words.nth(8)?;
    (entry.ends_with(".cwasm") && !entry.contains(['/', '\\']))
        .then(|| (entry.to_string(), PathBuf::from(component)))
}

/// Record that `entry` (verified or written just now) holds the compiled form
/// of the bytes `component` had when its metadata `meta` was taken, unless the
/// component changed too recently to be sure ([`FileStamp::settled`]). Best effort: a
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
    let stamp = indexable(meta, now)?;
    let entry_identity = identity(&fs::symlink_metadata(entry).ok()?)?;
    let entry_name = entry.file_name()?.to_str()?;
    let compat = compat(engine);
    let path = record_path(cache_dir, component, &compat);
    let text = format!(
        "{VERSION} {compat} {} {entry_name} {}\n{}",
        words(&stamp).join(" "),
        words(&entry_identity).join(" "),
        component.to_str()?,
    );
    let dir = path.parent()?;
    super::cache::ensure_private_dir(dir).ok()?;
    // Readers see a whole record or none.
    atomic::write_with(&path, atomic::Options::CACHE, |file| {
        file.write_all(text.as_bytes())
    })
    .ok()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::exec::wasm::EngineOptions;
    use std::time::Duration;

    fn engine() -> Engine {
        super::super::engine::new_engine(&EngineOptions::default(), super::super::Tier::Optimized)
            .unwrap()
    }

    fn long_ago() -> SystemTime {
        // Files made by the test are "settled" as seen from a minute later.
        SystemTime::now() + Duration::from_secs(60)
    }

    /// A component of `bytes` (`hook.wasm`) and a compiled entry
    /// (`e.cwasm`) in `dir`, and the component's metadata.
    fn component_and_entry(dir: &Path, bytes: &[u8]) -> (PathBuf, PathBuf, fs::Metadata) {
        let component = dir.join("hook.wasm");
        fs::write(&component, bytes).unwrap();
        let entry = dir.join("e.cwasm");
        fs::write(&entry, b"artifact").unwrap();
        let meta = fs::metadata(&component).unwrap();
        (component, entry, meta)
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
        let record = record_path(&cache, &component, &compat(&engine));
        assert_eq!(
            read_record(&record),
            Some(("abc-def.cwasm".to_string(), component.clone()))
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
        let (component, entry, meta) = component_and_entry(tmp.path(), b"fresh");
        let now = SystemTime::now();
        // `run` reads the same rule to skip waiting for a record that the
        // compile worker cannot have written.
        assert_eq!(indexable(&meta, now), None);
        assert_eq!(
            try_record(&engine, tmp.path(), &component, &meta, &entry, now),
            None
        );
        assert_eq!(lookup(&engine, tmp.path(), &component, &meta), None);
        let later = now + crate::fsread::SETTLE * 2;
        if identity(&meta).is_some() {
            assert!(indexable(&meta, later).is_some());
            assert_eq!(
                try_record(&engine, tmp.path(), &component, &meta, &entry, later),
                Some(())
            );
        }
    }

    #[test]
    fn damaged_records_are_misses() {
        let engine = engine();
        let tmp = tempfile::tempdir().unwrap();
        let (component, entry, meta) = component_and_entry(tmp.path(), b"c");
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

    #[cfg(unix)]
    #[test]
    fn a_record_that_is_a_fifo_is_a_miss_not_a_hang() {
        let engine = engine();
        let tmp = tempfile::tempdir().unwrap();
        let component = tmp.path().join("hook.wasm");
        fs::write(&component, b"c").unwrap();
        let meta = fs::metadata(&component).unwrap();
        let record = record_path(tmp.path(), &component, &compat(&engine));
        fs::create_dir_all(record.parent().unwrap()).unwrap();
        crate::fsread::make_fifo(&record);
        let (tx, rx) = std::sync::mpsc::channel();
        let dir = tmp.path().to_path_buf();
        std::thread::spawn(move || {
            let _ = tx.send(lookup(&engine, &dir, &component, &meta));
        });
        // A plain read would wait for a writer forever: fail instead of hanging.
        let found = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a FIFO record hung");
        assert_eq!(found, None);
    }
}
