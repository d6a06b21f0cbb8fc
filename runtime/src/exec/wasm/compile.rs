//! Compiling a cold component: here and now (`compile`, the blocking thread
//! of library mode, one per component however many events wait), and
//! reading back what a worker process stored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use super::cache::{self, ComponentDigest};
use super::probe::Cold;
use super::state::{Inflight, Inner, Prepared, TierEngine};
use super::{classify, gc, index, Notes, Tier};
use crate::protocol::Failure;

/// How often `run` looks whether its compile worker is done.
pub(super) const WORKER_POLL: Duration = Duration::from_millis(10);

/// How long after a worker stored an entry `run` waits for its index record.
const INDEX_GRACE: Duration = Duration::from_millis(200);

impl Inner {
    /// The in-process compile of `digest`, and whether it is new (the
    /// caller starts it).
    pub(super) fn flight(&self, digest: ComponentDigest) -> (Arc<Inflight>, bool) {
        let mut map = lock(&self.inflight);
        match map.get(&digest) {
            Some(flight) => (flight.clone(), false),
            None => {
                let flight = Arc::new(Inflight {
                    started: Instant::now(),
                    done: OnceLock::new(),
                });
                map.insert(digest, flight.clone());
                (flight, true)
            }
        }
    }

    /// On a blocking thread: compile `cold` with the baseline compiler first
    /// when `lower` (its result, if it compiled, answers `flight`'s waiters),
    /// then with the best one, which replaces it for `path`. Compiled,
    /// stored and linked whether or not an event still waits: the next one
    /// finds it warm (even with no cache). Its notes (cache trouble) would
    /// reach no one after the deadline; the next event sees the same trouble.
    pub(super) fn compile_tiers(
        self: Arc<Self>,
        path: PathBuf,
        cold: Cold,
        flight: Arc<Inflight>,
        lower: bool,
    ) {
        let digest = cold.digest;
        tokio::task::spawn_blocking(move || {
            let mut notes = Notes::new(false);
            let best = self.options.tiers.best();
            if lower {
                let tier = self.options.tiers.first();
                // A component Winch cannot compile goes on to Cranelift.
                if let Ok(prepared) =
                    self.compile_cold(&path, &cold, tier, flight.started, &mut notes)
                {
                    let _ = flight.done.set(Ok(prepared));
                }
            }
            let prepared = self.compile_cold(&path, &cold, best, flight.started, &mut notes);
            let stored = prepared.is_ok();
            let _ = flight.done.set(prepared);
            lock(&self.inflight).remove(&digest);
            // The baseline entry is of no use now; keep the cache in its budget.
            if let (true, Some(dir)) = (stored, self.cache.path()) {
                gc::after_store(dir);
            }
        });
    }

    /// Compile a cold component here and now with `tier`'s compiler, store
    /// it, and link it.
    pub(super) fn compile_cold(
        &self,
        path: &Path,
        cold: &Cold,
        tier: Tier,
        start: Instant,
        notes: &mut Notes,
    ) -> Result<Arc<Prepared>, Failure> {
        let shown = path.display().to_string();
        let runtime = self.runtime_of(tier)?;
        let loaded = self.compile_bytes(runtime, &cold.bytes, &cold.digest, &shown, notes)?;
        if let (Some(dir), Some(entry)) = (self.cache.path(), &loaded.entry) {
            index::record(&runtime.engine, dir, path, &cold.meta, entry);
        }
        self.link(path, cold.meta.clone(), loaded, runtime, start, notes)
    }

    /// Compile `bytes` with `runtime`'s compiler (and store them in the
    /// cache); a compile error of the best tier is remembered by digest, so
    /// the next event fails at once (a baseline one only means Cranelift).
    fn compile_bytes(
        &self,
        runtime: &TierEngine,
        bytes: &[u8],
        digest: &ComponentDigest,
        shown: &str,
        notes: &mut Notes,
    ) -> Result<cache::Loaded, Failure> {
        cache::load(&runtime.engine, &self.cache, bytes, digest, notes).map_err(|e| {
            let failure = classify::compile_failure(shown, &e);
            if let (Some(dir), Failure::NotAComponent { why, .. }, true) = (
                self.cache.path(),
                &failure,
                runtime.tier == self.options.tiers.best(),
            ) {
                let remembered = cache::Remembered::Invalid(why.clone());
                cache::remember_failure(dir, &runtime.engine, digest, &remembered);
            }
            failure
        })
    }

    /// After a worker ended (or stored a tier): its remembered failure, the
    /// best entry it stored or else its baseline one (linked), or `None`
    /// when it stored nothing.
    pub(super) fn after_worker(
        &self,
        path: &Path,
        cold: &Cold,
        start: Instant,
    ) -> Result<Option<Arc<Prepared>>, Failure> {
        let runtime = self.runtime()?;
        let Some(dir) = self.cache.path() else {
            return Ok(None);
        };
        self.remembered(runtime, &cold.digest, path)?;
        let mut notes = Notes::new(false);
        let tiers: Vec<&TierEngine> = std::iter::once(runtime).chain(self.lower()).collect();
        // The worker records its entry in the index just after storing it:
        // mapped from there, it is not read and hashed again (tens of MB for
        // a Python component, hundreds of milliseconds), as any later event
        // loads it (`index.rs` says why that is safe). Worth a short wait,
        // unless the worker cannot have recorded it: no index here, or a
        // component changed too recently (what the worker saw was newer still).
        let grace = if index::indexable(&cold.meta, SystemTime::now()).is_some() {
            Instant::now() + INDEX_GRACE
        } else {
            Instant::now()
        };
        let found = loop {
            let indexed = tiers.iter().find_map(|&tier| {
                let loaded = self.indexed(tier, path, &cold.meta)?;
                (loaded.digest == cold.digest).then_some((loaded, tier))
            });
            if indexed.is_some() {
                break indexed;
            }
            let stored = tiers
                .iter()
                .any(|t| cache::entry_path(dir, &t.engine, &cold.digest).exists());
            if !stored || Instant::now() >= grace {
                break Self::cached_in(tiers, dir, path, &cold.meta, &cold.digest, &mut notes);
            }
            std::thread::sleep(WORKER_POLL);
        };
        found
            .map(|(loaded, tier)| {
                self.link(path, cold.meta.clone(), loaded, tier, start, &mut notes)
            })
            .transpose()
    }
}

pub(super) fn lock<K, V>(map: &Mutex<HashMap<K, V>>) -> std::sync::MutexGuard<'_, HashMap<K, V>> {
    // Inserts and removals are whole: a panic elsewhere leaves the map consistent.
    map.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::super::probe::tests::{empty_component, hook_file, host};
    use super::super::probe::{Probe, Probing};
    use super::super::Tiers;
    use super::*;

    #[test]
    fn one_compile_per_component_however_many_ask() {
        let host = host(None, Tiers::Optimized);
        let inner = host.inner();
        let digest = cache::digest_of(b"component");
        let (first, new) = inner.flight(digest);
        assert!(new);
        let (second, again) = inner.flight(digest);
        assert!(!again);
        assert!(Arc::ptr_eq(&first, &second));
        let (_, other) = inner.flight(cache::digest_of(b"another"));
        assert!(other);
        // Once done and removed, the next ask starts a new compile.
        lock(&inner.inflight).remove(&digest);
        assert!(inner.flight(digest).1);
    }

    #[test]
    fn a_compile_stores_its_entry_though_the_component_does_not_link() {
        let (dir, path) = hook_file(&empty_component());
        let cache_dir = dir.path().join("cache");
        let host = host(Some(&cache_dir), Tiers::Optimized);
        let inner = host.inner();
        let mut notes = Notes::new(true);
        let Ok(Probe::Cold(cold)) = inner.probe(&path, &mut notes, Probing::Run) else {
            panic!("not cold");
        };
        let best = inner.options.tiers.best();
        let failed = inner.compile_cold(&path, &cold, best, Instant::now(), &mut notes);
        assert!(failed.is_err(), "a component with no hook export linked");
        let entry = cache::entry_path(&cache_dir, &inner.runtime().unwrap().engine, &cold.digest);
        assert!(entry.is_file(), "no entry at {}", entry.display());
        // What a worker would have left: read back, linked, failing alike.
        let again = inner.after_worker(&path, &cold, Instant::now());
        assert_eq!(
            again.err().map(|f| f.kind()),
            failed.err().map(|f| f.kind())
        );
    }

    #[test]
    fn after_a_worker_that_stored_nothing_the_component_is_still_cold() {
        let (dir, path) = hook_file(&empty_component());
        let host = host(Some(&dir.path().join("cache")), Tiers::Optimized);
        let inner = host.inner();
        let Ok(Probe::Cold(cold)) = inner.probe(&path, &mut Notes::new(false), Probing::Run) else {
            panic!("not cold");
        };
        assert!(matches!(
            inner.after_worker(&path, &cold, Instant::now()),
            Ok(None)
        ));
    }
}
