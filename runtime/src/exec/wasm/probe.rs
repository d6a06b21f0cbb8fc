//! Looking for a component ready to run without compiling it: in this
//! process's memory, in the index (no reading of the file), in the compile
//! cache (by the file's digest); else it is cold, read and hashed for the
//! compiler. Every layer answers with one [`Found`], and [`Inner::probe`]
//! turns that into its one result, [`Probe`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use super::bindings::HookPre;
use super::cache::{self, ComponentDigest};
use super::state::{Compiled, Inner, Prepared, TierEngine, Warm};
use super::{classify, index, read_open_component, stubs, Notes};
use crate::component::read_failure;
use crate::fsread::{self, FileStamp};
use crate::protocol::Failure;

/// What a quick look at a component found: ready to run, or to be compiled.
pub(super) enum Probe {
    Ready(Arc<Prepared>),
    Cold(Box<Cold>),
}

/// What a probe may answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Probing {
    /// An event: anything that runs, a baseline tier included.
    Run,
    /// Warming the cache: ready only in the best tier.
    Warm,
    /// `compile`: read the cache afresh (not memory), the best tier only.
    Compile,
}

/// What one layer of the probe found ready.
enum Found<'a> {
    /// Prepared in this process already.
    Kept(Arc<Prepared>),
    /// A compiled entry (from the index or the cache), to link with its tier's engine.
    Entry(cache::Loaded, &'a TierEngine),
}

/// A component the cache does not hold, read and hashed.
pub(super) struct Cold {
    pub(super) bytes: Vec<u8>,
    pub(super) digest: ComponentDigest,
    pub(super) meta: std::fs::Metadata,
}

impl Inner {
    /// The prepared component at `path` if it is loaded and the file
    /// unchanged since (by [`FileStamp`], and settled when it was read), and
    /// no better tier of it is waiting in the cache.
    pub(super) fn warm(&self, path: &Path) -> Option<Arc<Prepared>> {
        let stamp = FileStamp::of_path(path)?;
        self.lock()
            .get(path)
            .filter(|w| w.settled && w.stamp == stamp && !w.prepared.superseded())
            .map(|w| w.prepared.clone())
    }

    /// Look at the component at `path` without compiling it: ready from
    /// memory (as `probing` allows), the index or the cache; a failure
    /// (unreadable, too large, not a component, a compile remembered as
    /// failed); or cold.
    pub(super) fn probe(
        &self,
        path: &Path,
        notes: &mut Notes,
        probing: Probing,
    ) -> Result<Probe, Failure> {
        let start = Instant::now();
        let (mut file, meta) =
            fsread::open_bounded(path, fsread::caps::COMPONENT).map_err(|e| read_failure(&e))?;
        let runtime = self.runtime()?;
        let found = match self.find_unread(runtime, path, &meta, probing)? {
            Some(found) => found,
            None => {
                let bytes = read_open_component(path, &mut file, &meta)?;
                let digest = cache::digest_of(&bytes);
                match self.find_by_digest(runtime, path, &meta, &digest, probing, notes)? {
                    Some(found) => found,
                    None => {
                        return Ok(Probe::Cold(Box::new(Cold {
                            bytes,
                            digest,
                            meta,
                        })))
                    }
                }
            }
        };
        let prepared = match found {
            Found::Kept(prepared) => prepared,
            Found::Entry(loaded, tier) => self.link(path, meta, loaded, tier, start, notes)?,
        };
        Ok(Probe::Ready(prepared))
    }

    /// The layers that need no reading of the file: memory (by the file's
    /// stamp), the best tier's index, then the baseline tier's index.
    fn find_unread<'a>(
        &'a self,
        runtime: &'a TierEngine,
        path: &Path,
        meta: &std::fs::Metadata,
        probing: Probing,
    ) -> Result<Option<Found<'a>>, Failure> {
        if probing != Probing::Compile {
            let stamp = FileStamp::of(meta);
            let kept = self
                .lock()
                .get(path)
                .filter(|w| w.settled && w.stamp == stamp)
                .map(|w| w.prepared.clone());
            if let Some(prepared) = kept.filter(|p| self.runnable(p, probing)) {
                return Ok(Some(Found::Kept(prepared)));
            }
        }
        if let Some(loaded) = self.indexed(runtime, path, meta) {
            return Ok(Some(Found::Entry(loaded, runtime)));
        }
        // A baseline entry is good until the best tier's is there (or its
        // compile failed: then the component fails as any other would).
        let Some((lower, loaded)) = self
            .lower_for(probing)
            .and_then(|lower| Some((lower, self.indexed(lower, path, meta)?)))
        else {
            return Ok(None);
        };
        self.remembered(runtime, &loaded.digest, path)?;
        let best_missing = self
            .best_entry(&loaded.digest)
            .is_some_and(|best| !best.exists());
        Ok(best_missing.then_some(Found::Entry(loaded, lower)))
    }

    /// The layers that need the file's digest: the same bytes in memory (a
    /// file changed too recently for its stamp to prove it, or touched), a
    /// compile remembered as failed, then the cache, best tier first.
    fn find_by_digest<'a>(
        &'a self,
        runtime: &'a TierEngine,
        path: &Path,
        meta: &std::fs::Metadata,
        digest: &ComponentDigest,
        probing: Probing,
        notes: &mut Notes,
    ) -> Result<Option<Found<'a>>, Failure> {
        if probing != Probing::Compile {
            let same = self.lock().get(path).map(|w| w.prepared.clone());
            if let Some(prepared) =
                same.filter(|p| p.digest == *digest && self.runnable(p, probing))
            {
                self.keep(path, meta, prepared.clone());
                return Ok(Some(Found::Kept(prepared)));
            }
        }
        if self.cache.path().is_none() {
            return Ok(None);
        }
        self.remembered(runtime, digest, path)?;
        let Some(dir) = cache::usable(&self.cache, notes) else {
            return Ok(None);
        };
        // The baseline engine is built only when the best tier's entry is not there.
        let tiers = std::iter::once(runtime)
            .chain(std::iter::once_with(|| self.lower_for(probing)).flatten());
        let cached = Self::cached_in(tiers, dir, path, meta, digest, notes);
        Ok(cached.map(|(loaded, tier)| Found::Entry(loaded, tier)))
    }

    /// The cache's entry of `digest` from the first of `tiers` that has one,
    /// recorded in the index for `path` so the next look needs no hashing.
    pub(super) fn cached_in<'a>(
        tiers: impl IntoIterator<Item = &'a TierEngine>,
        dir: &Path,
        path: &Path,
        meta: &std::fs::Metadata,
        digest: &ComponentDigest,
        notes: &mut Notes,
    ) -> Option<(cache::Loaded, &'a TierEngine)> {
        tiers.into_iter().find_map(|tier| {
            let loaded = cache::cached(&tier.engine, dir, digest, notes)?;
            if let Some(entry) = &loaded.entry {
                index::record(&tier.engine, dir, path, meta, entry);
            }
            Some((loaded, tier))
        })
    }

    /// The entry the index records for this very file, compiled by `tier`:
    /// no reading or hashing of the component (`index.rs` says why that is safe).
    pub(super) fn indexed(
        &self,
        tier: &TierEngine,
        path: &Path,
        meta: &std::fs::Metadata,
    ) -> Option<cache::Loaded> {
        let dir = self.cache.path()?;
        let entry = index::lookup(&tier.engine, dir, path, meta)?;
        cache::load_recorded(&tier.engine, &entry)
    }

    /// The baseline engine, for a probe that may answer with it (an event's);
    /// built only when the probe gets to need it: a component whose best-tier
    /// entry is indexed (every warm `run`) never builds it, its linker and
    /// its epoch thread.
    fn lower_for(&self, probing: Probing) -> Option<&TierEngine> {
        match probing {
            Probing::Run => self.lower(),
            Probing::Warm | Probing::Compile => None,
        }
    }

    /// Whether a component prepared earlier may answer this probe: no
    /// better tier of it waits in the cache, and a baseline one only for a
    /// probe that takes the baseline tier.
    fn runnable(&self, prepared: &Prepared, probing: Probing) -> bool {
        !prepared.superseded() && (prepared.upgrade.is_none() || self.lower_for(probing).is_some())
    }

    /// The failure remembered for a compile of `digest` by the best tier.
    pub(super) fn remembered(
        &self,
        runtime: &TierEngine,
        digest: &ComponentDigest,
        path: &Path,
    ) -> Result<(), Failure> {
        let Some(dir) = self.cache.path() else {
            return Ok(());
        };
        match cache::remembered_failure(dir, &runtime.engine, digest) {
            Some(failed) => Err(failed.failure(&path.display().to_string())),
            None => Ok(()),
        }
    }

    /// Link a loaded component and keep it warm for `path`.
    pub(super) fn link(
        &self,
        path: &Path,
        meta: std::fs::Metadata,
        loaded: cache::Loaded,
        runtime: &TierEngine,
        start: Instant,
        notes: &mut Notes,
    ) -> Result<Arc<Prepared>, Failure> {
        let shown = &path.display().to_string();
        let (pre, stubbed) =
            stubs::instance_pre(&runtime.linker, &runtime.engine, &loaded.component, shown)?;
        if let Some(note) = stubbed {
            notes.note(note);
        }
        let pre = HookPre::new(pre).map_err(|e| classify::link_failure(shown, &e))?;
        let compiled = Compiled {
            status: loaded.status,
            duration: start.elapsed(),
            artifact_len: loaded.artifact_len,
            tier: runtime.tier,
        };
        let upgrade = if runtime.tier == self.options.tiers.best() {
            None
        } else {
            self.best_entry(&loaded.digest)
        };
        let prepared = Arc::new(Prepared {
            pre,
            compiled,
            digest: loaded.digest,
            upgrade,
        });
        // `compile` prints its own line; a run says it only with --verbose.
        notes.detail(prepared.describe(shown));
        self.keep(path, &meta, prepared.clone());
        Ok(prepared)
    }

    /// Keep `prepared` warm for `path`, stamped with the file as it was read
    /// (`meta`), so a change since is seen.
    pub(super) fn keep(&self, path: &Path, meta: &std::fs::Metadata, prepared: Arc<Prepared>) {
        let stamp = FileStamp::of(meta);
        let warm = Warm {
            stamp,
            settled: stamp.settled(SystemTime::now()),
            prepared,
        };
        self.lock().insert(path.to_path_buf(), warm);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Warm>> {
        // A panic while holding the lock leaves the map consistent (inserts are atomic).
        self.prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{engine, CacheDir, EngineOptions, Tiers, WasmHost};
    use super::*;

    /// A valid component with no imports or exports: it compiles, but does
    /// not link as a hook.
    pub(crate) fn empty_component() -> Vec<u8> {
        wasm_encoder::Component::new().finish()
    }

    /// The component header followed by bytes no compiler accepts.
    pub(crate) fn broken_component() -> Vec<u8> {
        let mut bytes = empty_component();
        bytes.extend_from_slice(&[0xff; 16]);
        bytes
    }

    /// A temporary directory holding `hook.wasm` with `bytes`, and its path.
    pub(crate) fn hook_file(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hook.wasm");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    pub(crate) fn host(cache: Option<&Path>, tiers: Tiers) -> WasmHost {
        let options = EngineOptions {
            tiers,
            ..EngineOptions::default()
        };
        let cache = cache.map_or_else(CacheDir::none, CacheDir::at);
        WasmHost::with_options(cache, options)
    }

    fn probe(host: &WasmHost, path: &Path, probing: Probing) -> Result<Probe, Failure> {
        host.inner().probe(path, &mut Notes::new(true), probing)
    }

    #[test]
    fn a_component_nothing_holds_is_cold_read_and_hashed() {
        let (dir, path) = hook_file(&empty_component());
        let host = host(Some(&dir.path().join("cache")), Tiers::Optimized);
        match probe(&host, &path, Probing::Run) {
            Ok(Probe::Cold(cold)) => {
                assert_eq!(cold.bytes, empty_component());
                assert_eq!(cold.digest, cache::digest_of(&empty_component()));
            }
            Ok(Probe::Ready(_)) => panic!("ready without a compile"),
            Err(failure) => panic!("{failure}"),
        }
    }

    #[test]
    fn what_is_no_component_fails_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let host = host(None, Tiers::Optimized);
        let missing = dir.path().join("missing.wasm");
        assert!(matches!(
            probe(&host, &missing, Probing::Run),
            Err(Failure::ComponentNotFound { .. })
        ));
        let module = dir.path().join("module.wasm");
        std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
        match probe(&host, &module, Probing::Run) {
            Err(Failure::NotAComponent { why, .. }) => assert!(why.contains("core wasm module")),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("a core module probed as a component"),
        }
    }

    #[test]
    fn a_compile_remembered_as_failed_fails_at_the_next_probe() {
        let (dir, path) = hook_file(&broken_component());
        let host = host(Some(&dir.path().join("cache")), Tiers::Optimized);
        let Ok(Probe::Cold(cold)) = probe(&host, &path, Probing::Run) else {
            panic!("not cold");
        };
        let inner = host.inner();
        let best = inner.options.tiers.best();
        let mut notes = Notes::new(true);
        let Err(Failure::NotAComponent { why, .. }) =
            inner.compile_cold(&path, &cold, best, Instant::now(), &mut notes)
        else {
            panic!("the broken component compiled");
        };
        // Each kind of probe now fails at once, with the same reason.
        for probing in [Probing::Run, Probing::Warm, Probing::Compile] {
            match probe(&host, &path, probing) {
                Err(Failure::NotAComponent { why: again, .. }) => assert_eq!(again, why),
                Err(other) => panic!("{probing:?}: {other}"),
                Ok(_) => panic!("{probing:?}: the failure was not remembered"),
            }
        }
        // Without a cache there is nowhere to remember it: cold again.
        let uncached = self::host(None, Tiers::Optimized);
        assert!(matches!(
            probe(&uncached, &path, Probing::Run),
            Ok(Probe::Cold(_))
        ));
    }

    #[test]
    fn only_an_events_probe_builds_the_baseline_engine() {
        let (dir, path) = hook_file(&empty_component());
        let host = host(Some(&dir.path().join("cache")), Tiers::Both);
        for probing in [Probing::Warm, Probing::Compile] {
            assert!(matches!(probe(&host, &path, probing), Ok(Probe::Cold(_))));
        }
        assert!(host.inner().baseline.get().is_none());
        // An event may run the baseline tier: it looks in its cache too.
        assert!(matches!(
            probe(&host, &path, Probing::Run),
            Ok(Probe::Cold(_))
        ));
        assert_eq!(
            host.inner().baseline.get().is_some(),
            engine::baseline_supported()
        );
    }
}
