//! Keeping the compile cache bounded: what `agenthooks cache` lists and
//! cleans, and the sweep a compile runs after it stores an entry.
//!
//! Three rules, applied by [`sweep`]:
//!
//! 1. A baseline-tier (Winch) entry is deleted once the optimized
//!    (Cranelift) entry of the same component digest is in place: nothing
//!    loads it any more (`mod.rs` prefers the best tier's entry).
//! 2. Past the size budget ([`budget_bytes`]: `AGENTHOOKS_CACHE_MAX_MIB`,
//!    512 MiB by default), the entries used least recently are deleted until
//!    the cache fits. "Used" is the entry's access time (the kernel sets it
//!    when a process maps or reads the entry; on `relatime` mounts about once
//!    a day, which is fine for telling weeks-old entries from today's), or
//!    its write time when that is later.
//! 3. Leftovers: index records whose entry is gone, failed-compile records
//!    older than [`FAILED_KEPT`], lock files nobody holds and temporaries of
//!    a crashed writer, older than [`STALE_AFTER`].
//!
//! Why this is safe against processes loading entries at the same time:
//! entries are never changed in place, only unlinked. On Unix a process that
//! opened or mapped an entry keeps its bytes after the unlink; one that has
//! not opened it yet misses and compiles again (a cost, never a wrong
//! load). On Windows a mapped entry cannot be deleted, and the error just
//! skips it. Entries used or written within [`GRACE`], and those whose
//! compile lock a worker holds, are never evicted by the budget. Every scan
//! is bounded ([`MAX_SCAN`] names a directory).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use wasmtime::Engine;

use super::{cache, engine, Tier};

/// The environment variable that sets the cache's size budget, in MiB.
pub const BUDGET_ENV: &str = "AGENTHOOKS_CACHE_MAX_MIB";

/// The size budget when [`BUDGET_ENV`] is not set.
pub const DEFAULT_BUDGET_MIB: u64 = 512;

/// Entries used or written this recently are never evicted by the budget.
pub const GRACE: Duration = Duration::from_secs(10 * 60);

/// Lock files nobody holds and temporaries are collected past this age.
pub const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// Failed-compile records are collected past this age (the next event that
/// meets the same component compiles it again and records it again).
pub const FAILED_KEPT: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// The most names read from one directory of the cache.
pub const MAX_SCAN: usize = 10_000;

/// The size budget in bytes: [`BUDGET_ENV`] when it is a whole number of
/// MiB, else [`DEFAULT_BUDGET_MIB`]; with the one line saying why the
/// variable was not used, if it was set and not understood.
pub fn budget_bytes() -> (u64, Option<String>) {
    budget_from(std::env::var(BUDGET_ENV).ok().as_deref())
}

fn budget_from(value: Option<&str>) -> (u64, Option<String>) {
    let default = DEFAULT_BUDGET_MIB << 20;
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => (default, None),
        Some(v) => match v.parse::<u64>() {
            Ok(mib) if mib <= u64::MAX >> 20 => (mib << 20, None),
            _ => (
                default,
                Some(format!(
                    "{BUDGET_ENV}={} is not a whole number of MiB; using {DEFAULT_BUDGET_MIB} MiB",
                    v.chars().take(40).collect::<String>()
                )),
            ),
        },
    }
}

/// Which compiler an entry's engine is, as far as this build can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryTier {
    /// Cranelift, this build's engine: what events load.
    Optimized,
    /// Winch, this build's engine: loaded until the optimized entry is there.
    Baseline,
    /// Another wasmtime version, target or engine configuration.
    Other,
}

impl EntryTier {
    /// The word `agenthooks cache` shows.
    pub fn word(self) -> &'static str {
        match self {
            EntryTier::Optimized => "optimized",
            EntryTier::Baseline => "baseline",
            EntryTier::Other => "other",
        }
    }
}

/// One compiled component in the cache.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The entry file.
    pub path: PathBuf,
    /// The sha256 (hex) of the component it was compiled from.
    pub digest: String,
    /// Which compiler's.
    pub tier: EntryTier,
    /// Its size in bytes.
    pub size: u64,
    /// When it was last used (see the module's doc).
    pub last_use: SystemTime,
    /// The component files the index records it for (may be none).
    pub components: Vec<PathBuf>,
}

/// The compatibility hashes of this build's two engines (default options).
struct Compats {
    optimized: Option<String>,
    baseline: Option<String>,
}

impl Compats {
    fn new() -> Compats {
        let of = |tier| {
            engine::new_engine(&Default::default(), tier)
                .ok()
                .map(|e: Engine| cache::compat_hex(&e))
        };
        Compats {
            optimized: of(Tier::Optimized),
            baseline: engine::baseline_supported()
                .then(|| of(Tier::Baseline))
                .flatten(),
        }
    }

    fn tier(&self, compat: &str) -> EntryTier {
        if self.optimized.as_deref() == Some(compat) {
            EntryTier::Optimized
        } else if self.baseline.as_deref() == Some(compat) {
            EntryTier::Baseline
        } else {
            EntryTier::Other
        }
    }
}

/// `<64 hex>-<16 hex>.cwasm`: the digest and the compatibility hash.
fn parse_name(name: &str) -> Option<(&str, &str)> {
    let stem = name.strip_suffix(".cwasm")?;
    let (digest, compat) = stem.split_once('-')?;
    let hex = |s: &str, len| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex(digest, 64) && hex(compat, 16)).then_some((digest, compat))
}

/// Up to [`MAX_SCAN`] entries of `dir` (regular files only).
fn names(dir: &Path) -> Vec<(String, fs::Metadata)> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    read.take(MAX_SCAN)
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = fs::symlink_metadata(e.path()).ok()?;
            meta.is_file().then_some((name, meta))
        })
        .collect()
}

fn last_use(meta: &fs::Metadata) -> SystemTime {
    let written = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
    meta.accessed().map_or(written, |a| a.max(written))
}

fn age(now: SystemTime, then: SystemTime) -> Duration {
    now.duration_since(then).unwrap_or_default()
}

/// Every entry of the cache at `dir`, most recently used first, each with
/// the components the index records it for.
pub fn entries(dir: &Path) -> Vec<Entry> {
    let compats = Compats::new();
    let mut by_entry = std::collections::HashMap::<String, Vec<PathBuf>>::new();
    for (name, _) in names(&dir.join("index")) {
        if let Some((entry, component)) = super::index::read_record(&dir.join("index").join(name)) {
            by_entry.entry(entry).or_default().push(component);
        }
    }
    let mut out: Vec<Entry> = names(dir)
        .into_iter()
        .filter_map(|(name, meta)| {
            let (digest, compat) = parse_name(&name)?;
            let mut components = by_entry.remove(&name).unwrap_or_default();
            components.sort();
            Some(Entry {
                path: dir.join(&name),
                digest: digest.to_string(),
                tier: compats.tier(compat),
                size: meta.len(),
                last_use: last_use(&meta),
                components,
            })
        })
        .collect();
    out.sort_by(|a, b| b.last_use.cmp(&a.last_use).then(a.path.cmp(&b.path)));
    out
}

/// What a sweep or a clean removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Swept {
    /// Baseline entries whose optimized entry is in place.
    pub superseded: usize,
    /// Entries evicted for the budget.
    pub evicted: usize,
    /// Bytes of entries removed.
    pub freed: u64,
    /// Index and failure records, lock files and temporaries removed.
    pub leftovers: usize,
}

/// Apply the three rules of the module's doc to the cache at `dir`, with a
/// budget of `budget` bytes, as of `now`. Best effort: what cannot be
/// removed stays for the next sweep.
pub fn sweep(dir: &Path, budget: u64, now: SystemTime) -> Swept {
    let mut swept = Swept::default();
    let mut entries = entries(dir);
    // 1. Baseline entries whose optimized entry is in place.
    let optimized: std::collections::HashSet<String> = entries
        .iter()
        .filter(|e| e.tier == EntryTier::Optimized)
        .map(|e| e.digest.clone())
        .collect();
    entries.retain(|e| {
        if e.tier == EntryTier::Baseline
            && optimized.contains(&e.digest)
            && fs::remove_file(&e.path).is_ok()
        {
            swept.superseded += 1;
            swept.freed += e.size;
            return false;
        }
        true
    });
    // 2. The budget, least recently used first.
    let mut total: u64 = entries.iter().map(|e| e.size).sum();
    for e in entries.iter().rev() {
        if total <= budget {
            break;
        }
        if age(now, e.last_use) < GRACE || compiling(dir, &e.path) {
            continue;
        }
        if fs::remove_file(&e.path).is_ok() {
            swept.evicted += 1;
            swept.freed += e.size;
            total -= e.size;
        }
    }
    // 3. Leftovers.
    swept.leftovers += collect(&dir.join("index"), |path, _| {
        super::index::read_record(path)
            .is_none_or(|(entry, _)| fs::symlink_metadata(dir.join(entry)).is_err())
    });
    swept.leftovers += collect(&dir.join("failed"), |_, meta| {
        age(now, meta.modified().unwrap_or(now)) > FAILED_KEPT
    });
    swept.leftovers += collect(&dir.join("locks"), |path, meta| {
        age(now, meta.modified().unwrap_or(now)) > STALE_AFTER && super::locks::lock_free(path)
    });
    swept.leftovers += collect(dir, |path, meta| {
        is_temporary(path) && age(now, meta.modified().unwrap_or(now)) > STALE_AFTER
    });
    swept
}

/// Whether a worker holds the compile lock of the entry at `entry` (it is
/// writing or replacing it).
fn compiling(dir: &Path, entry: &Path) -> bool {
    let Some(stem) = entry.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    let lock = dir.join("locks").join(format!("{stem}.lock"));
    lock.exists() && !super::locks::lock_free(&lock)
}

/// A temporary entry of `cache::write_entry` (the atomic writer's
/// `.<entry>.<random>.agenthooks.tmp`, or an earlier version's
/// `.tmp-<pid>-<nanos>.cwasm`).
fn is_temporary(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        n.ends_with(crate::atomic::TEMP_SUFFIX) || (n.starts_with(".tmp-") && n.ends_with(".cwasm"))
    })
}

/// Remove the files of `dir` for which `stale` says so; how many.
fn collect(dir: &Path, stale: impl Fn(&Path, &fs::Metadata) -> bool) -> usize {
    names(dir)
        .into_iter()
        .filter(|(name, meta)| {
            let path = dir.join(name);
            stale(&path, meta) && fs::remove_file(&path).is_ok()
        })
        .count()
}

/// Empty the compile cache at `dir`: every entry, index and failure record,
/// temporary, and every lock file nobody holds. Pulled `oci://` components
/// and other data beside it stay.
pub fn clean(dir: &Path) -> Swept {
    let mut swept = Swept::default();
    for e in entries(dir) {
        if fs::remove_file(&e.path).is_ok() {
            swept.evicted += 1;
            swept.freed += e.size;
        }
    }
    swept.leftovers += collect(&dir.join("index"), |_, _| true);
    swept.leftovers += collect(&dir.join("failed"), |_, _| true);
    swept.leftovers += collect(&dir.join("locks"), |path, _| super::locks::lock_free(path));
    swept.leftovers += collect(dir, |path, _| is_temporary(path));
    swept
}

/// The sweep after a compile stored an entry: with the budget from the
/// environment. Best effort and quiet (it runs in background workers).
pub(crate) fn after_store(dir: &Path) {
    let (budget, _) = budget_bytes();
    let _ = sweep(dir, budget, SystemTime::now());
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs::FileTimes;

    fn put(dir: &Path, digest: char, compat: &str, size: usize, used_ago: Duration) -> PathBuf {
        let path = dir.join(format!(
            "{}-{compat}.cwasm",
            std::iter::repeat_n(digest, 64).collect::<String>()
        ));
        fs::write(&path, vec![0u8; size]).unwrap();
        let when = SystemTime::now() - used_ago;
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_times(FileTimes::new().set_accessed(when).set_modified(when))
            .unwrap();
        path
    }

    const DAY: Duration = Duration::from_secs(24 * 60 * 60);

    #[test]
    fn the_budget_evicts_the_least_recently_used_first() {
        let tmp = tempfile::tempdir().unwrap();
        let other = "0123456789abcdef";
        let old = put(tmp.path(), 'a', other, 4000, 3 * DAY);
        let mid = put(tmp.path(), 'b', other, 4000, 2 * DAY);
        let new = put(tmp.path(), 'c', other, 4000, DAY);
        let fresh = put(tmp.path(), 'd', other, 4000, Duration::from_secs(5));
        let swept = sweep(tmp.path(), 9000, SystemTime::now());
        assert_eq!(swept.evicted, 2, "{swept:?}");
        assert_eq!(swept.freed, 8000);
        assert!(!old.exists() && !mid.exists());
        assert!(new.exists() && fresh.exists());
        // Under a budget nothing fits, an entry used just now still stays.
        let swept = sweep(tmp.path(), 0, SystemTime::now());
        assert_eq!(swept.evicted, 1);
        assert!(!new.exists() && fresh.exists());
    }

    #[test]
    fn a_baseline_entry_goes_once_its_optimized_entry_is_there() {
        if !engine::baseline_supported() {
            return;
        }
        let compats = Compats::new();
        let (Some(best), Some(base)) = (compats.optimized, compats.baseline) else {
            panic!("no engines");
        };
        let tmp = tempfile::tempdir().unwrap();
        let replaced = put(tmp.path(), 'a', &base, 10, Duration::ZERO);
        let optimized = put(tmp.path(), 'a', &best, 10, Duration::ZERO);
        let alone = put(tmp.path(), 'b', &base, 10, Duration::ZERO);
        let swept = sweep(tmp.path(), u64::MAX, SystemTime::now());
        assert_eq!(swept.superseded, 1);
        assert!(!replaced.exists());
        assert!(optimized.exists() && alone.exists());
        let tiers: Vec<_> = entries(tmp.path()).iter().map(|e| e.tier).collect();
        assert!(tiers.contains(&EntryTier::Optimized) && tiers.contains(&EntryTier::Baseline));
    }

    #[test]
    fn leftovers_are_collected_and_clean_empties_the_cache() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for sub in ["index", "failed", "locks", "oci"] {
            fs::create_dir(dir.join(sub)).unwrap();
        }
        let old = SystemTime::now() - 30 * DAY;
        let aged = |path: &Path| {
            fs::write(path, "x").unwrap();
            let file = fs::File::options().write(true).open(path).unwrap();
            file.set_times(FileTimes::new().set_accessed(old).set_modified(old))
                .unwrap();
        };
        aged(&dir.join("failed/old.txt"));
        fs::write(dir.join("failed/new.txt"), "limit x").unwrap();
        aged(&dir.join("locks/old.lock"));
        fs::write(dir.join("locks/new.lock"), "").unwrap();
        aged(&dir.join(".tmp-1-2.cwasm"));
        aged(&dir.join(".e.cwasm.Ab12Cd.agenthooks.tmp"));
        // A write under way (young) is not a leftover.
        fs::write(dir.join(".f.cwasm.Xy34Zw.agenthooks.tmp"), "x").unwrap();
        fs::write(dir.join("index/dangling.idx"), "ahidx1 x\n/p").unwrap();
        fs::write(dir.join("oci/blob"), "pulled").unwrap();
        let swept = sweep(dir, u64::MAX, SystemTime::now());
        assert_eq!(swept.leftovers, 5, "{swept:?}");
        assert!(dir.join("failed/new.txt").exists() && dir.join("locks/new.lock").exists());
        put(dir, 'e', "0123456789abcdef", 100, Duration::ZERO);
        let swept = clean(dir);
        assert_eq!((swept.evicted, swept.freed, swept.leftovers), (1, 100, 3));
        assert!(entries(dir).is_empty());
        assert!(dir.join("oci/blob").exists(), "pulled components stay");
    }

    #[test]
    fn the_budget_comes_from_the_environment_value() {
        assert_eq!(budget_from(None), (512 << 20, None));
        assert_eq!(budget_from(Some(" 64 ")), (64 << 20, None));
        let (bytes, why) = budget_from(Some("lots"));
        assert_eq!(bytes, 512 << 20);
        assert!(why.unwrap().contains("AGENTHOOKS_CACHE_MAX_MIB=lots"));
    }
}
