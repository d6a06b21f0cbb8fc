//! The event's side of loading: look (off the executor), then wait for a
//! worker process or an in-process compile, never past the handler's
//! deadline; a component still compiling then fails with
//! [`Failure::StillCompiling`] and the compile goes on to fill the cache.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use super::cache::{self, ComponentDigest};
use super::compile::WORKER_POLL;
use super::probe::{Cold, Probe, Probing};
use super::state::{CompileIn, Prepared};
use super::{worker, Notes, WasmHost};
use crate::protocol::Failure;

/// How often an event looks whether the in-process compile it waits on is done.
const INFLIGHT_POLL: Duration = Duration::from_millis(5);

impl WasmHost {
    /// Start a detached worker compiling the component at `path` (whose
    /// bytes hash to `digest`) unless one holds its lock; the lock it holds
    /// while it compiles (free again once it is done), if one started.
    pub(super) fn spawn_worker(&self, path: &Path, digest: &ComponentDigest) -> Option<PathBuf> {
        let CompileIn::Worker(exe) = &self.inner.compile_in else {
            return None;
        };
        let (Some(dir), Ok(runtime)) = (self.inner.cache.path(), self.inner.runtime()) else {
            return None;
        };
        let lock = cache::lock_path(dir, &runtime.engine, digest);
        matches!(
            worker::start(exe, &lock, path, digest, self.inner.lower().is_some()),
            worker::Started::Spawned(_)
        )
        .then_some(lock)
    }

    /// The component at `path`, prepared; with `pinned` (an `oci://`
    /// reference and its digest), refused unless its bytes are that digest,
    /// checked before a cold component is compiled.
    pub(super) async fn prepare_async(
        &self,
        path: PathBuf,
        pinned: Option<&(String, String)>,
        deadline: tokio::time::Instant,
        notes: &mut Notes,
    ) -> Result<Arc<Prepared>, Failure> {
        let check = |digest: &ComponentDigest| match pinned {
            Some((reference, want)) if format!("sha256:{}", cache::hex(digest)) != *want => {
                Err(Failure::OciNotPulled {
                    reference: reference.clone(),
                    why: format!(
                        "in the cache is not the pinned {want} (it hashes to sha256:{})",
                        cache::hex(digest)
                    ),
                })
            }
            _ => Ok(()),
        };
        let prepared = self
            .prepare_unchecked(path, &check, deadline, notes)
            .await?;
        check(&prepared.digest)?;
        Ok(prepared)
    }

    async fn prepare_unchecked(
        &self,
        path: PathBuf,
        check: &(dyn Fn(&ComponentDigest) -> Result<(), Failure> + Sync),
        deadline: tokio::time::Instant,
        notes: &mut Notes,
    ) -> Result<Arc<Prepared>, Failure> {
        // Warm: a stat and a map lookup, no thread hop.
        if let Some(prepared) = self.inner.warm(&path) {
            return Ok(prepared);
        }
        let start = Instant::now();
        let inner = self.inner.clone();
        let verbose = notes.verbose;
        // Reading and hashing a large component takes a while: keep it off
        // the executor, where command hooks' timers run.
        let probe_path = path.clone();
        let probe = blocking(deadline, start, move || {
            let mut notes = Notes::new(verbose);
            let probe = inner.probe(&probe_path, &mut notes, Probing::Run);
            (probe, notes)
        });
        let cold = match probe.await? {
            (Ok(Probe::Ready(prepared)), list) => {
                notes.absorb(list);
                self.upgrade(&path, &prepared);
                return Ok(prepared);
            }
            (Ok(Probe::Cold(cold)), list) => {
                notes.absorb(list);
                check(&cold.digest)?;
                *cold
            }
            (Err(failure), list) => {
                notes.absorb(list);
                return Err(failure);
            }
        };
        let cold = match &self.inner.compile_in {
            CompileIn::Worker(exe) => match self.wait_for_worker(exe, &path, cold, deadline).await?
            {
                Ok(prepared) => {
                    // Loaded on another thread, whose notes went nowhere.
                    notes.detail(prepared.describe(&path.display().to_string()));
                    return Ok(prepared);
                }
                Err(cold) => cold,
            },
            CompileIn::Process => cold,
        };
        let prepared = self
            .compile_in_process(path.clone(), cold, deadline)
            .await?;
        notes.detail(prepared.describe(&path.display().to_string()));
        Ok(prepared)
    }

    /// A component that runs in the baseline tier goes on to the best one:
    /// make sure a compile is under way (a worker whose lock is free, or an
    /// in-process compile), unless its entry is there already.
    fn upgrade(&self, path: &Path, prepared: &Prepared) {
        if prepared.upgrade.is_none() || prepared.superseded() {
            return;
        }
        match &self.inner.compile_in {
            CompileIn::Worker(_) => {
                // A busy lock means a worker is at it already.
                self.spawn_worker(path, &prepared.digest);
            }
            CompileIn::Process => {
                // Reading and hashing the component again: off the executor.
                let inner = self.inner.clone();
                let path = path.to_path_buf();
                tokio::task::spawn_blocking(move || {
                    let mut notes = Notes::new(false);
                    if let Ok(Probe::Cold(cold)) = inner.probe(&path, &mut notes, Probing::Warm) {
                        let (flight, first) = inner.flight(cold.digest);
                        if first {
                            inner.compile_tiers(path, *cold, flight, false);
                        }
                    }
                });
            }
        }
    }

    /// Compile in a detached worker and wait for it until `deadline`: the
    /// prepared component when it stored a tier in time, or the cold
    /// component back when no worker could store it (the caller compiles in
    /// process).
    async fn wait_for_worker(
        &self,
        exe: &Path,
        path: &Path,
        cold: Cold,
        deadline: tokio::time::Instant,
    ) -> Result<Result<Arc<Prepared>, Cold>, Failure> {
        let runtime = self.inner.runtime()?;
        let Some(dir) = self.inner.cache.path().map(Path::to_path_buf) else {
            return Ok(Err(cold));
        };
        let lock = cache::lock_path(&dir, &runtime.engine, &cold.digest);
        // The worker stores the baseline tier first: the event runs it as
        // soon as it is there, while the worker goes on to Cranelift.
        let lower = self.inner.lower();
        let entries: Vec<PathBuf> = std::iter::once(runtime)
            .chain(lower)
            .map(|r| cache::entry_path(&dir, &r.engine, &cold.digest))
            .collect();
        let since = SystemTime::now();
        let (mut child, since) =
            match worker::start(exe, &lock, path, &cold.digest, lower.is_some()) {
                worker::Started::Spawned(child) => (Some(child), since),
                worker::Started::Busy(since) => (None, since),
                worker::Started::Unavailable => return Ok(Err(cold)),
            };
        let still = || Failure::StillCompiling {
            secs: whole_secs(since.elapsed().unwrap_or_default()),
        };
        loop {
            let finished = entries.iter().any(|e| e.exists())
                || match &mut child {
                    Some(child) => child.try_wait().ok().flatten().is_some(),
                    // Another process's worker: done when its lock is free
                    // (it failed, or stored nothing).
                    None => worker::lock_free(&lock),
                };
            if finished {
                break;
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(still());
            }
            tokio::time::sleep(WORKER_POLL).await;
        }
        let inner = self.inner.clone();
        let path = path.to_path_buf();
        let start = Instant::now();
        let job = blocking(deadline, start, move || {
            let done = inner.after_worker(&path, &cold, start);
            (done, cold)
        });
        match job.await? {
            (Ok(Some(prepared)), _) => Ok(Ok(prepared)),
            (Ok(None), cold) => Ok(Err(cold)),
            (Err(failure), _) => Err(failure),
        }
    }

    /// Compile on a blocking thread (one per component however many events
    /// ask) and wait for it until `deadline`; the compile goes on after it.
    /// With two tiers the event gets the baseline one, and the thread goes
    /// on to the best one, which replaces it.
    async fn compile_in_process(
        &self,
        path: PathBuf,
        cold: Cold,
        deadline: tokio::time::Instant,
    ) -> Result<Arc<Prepared>, Failure> {
        let (flight, first) = self.inner.flight(cold.digest);
        if first {
            let lower = self.inner.lower().is_some();
            self.inner
                .clone()
                .compile_tiers(path, cold, flight.clone(), lower);
        }
        loop {
            if let Some(done) = flight.done.get() {
                return done.clone();
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(Failure::StillCompiling {
                    secs: whole_secs(flight.started.elapsed()),
                });
            }
            tokio::time::sleep(INFLIGHT_POLL).await;
        }
    }
}

/// Run `job` on a blocking thread and wait for it until `deadline`; past it,
/// the job goes on and the handler is still compiling (loading, really).
async fn blocking<T: Send + 'static>(
    deadline: tokio::time::Instant,
    start: Instant,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Failure> {
    match tokio::time::timeout_at(deadline, tokio::task::spawn_blocking(job)).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(e)) => Err(Failure::Internal {
            why: format!("loading the component failed: {e}"),
        }),
        Err(_elapsed) => Err(Failure::StillCompiling {
            secs: whole_secs(start.elapsed()),
        }),
    }
}

/// Seconds, rounded: a compile that has run 0.9 s has run "1 s so far".
fn whole_secs(d: Duration) -> u64 {
    d.as_secs_f64().round() as u64
}

#[cfg(test)]
mod tests {
    use super::super::probe::tests::{empty_component, hook_file, host};
    use super::super::Tiers;
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn seconds_are_rounded() {
        assert_eq!(whole_secs(Duration::from_millis(400)), 0);
        assert_eq!(whole_secs(Duration::from_millis(900)), 1);
        assert_eq!(whole_secs(Duration::from_millis(2600)), 3);
    }

    #[test]
    fn a_job_past_the_deadline_is_still_compiling_and_goes_on() {
        let rt = runtime();
        let (tx, rx) = std::sync::mpsc::channel();
        let start = Instant::now();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(50);
        let waited = rt.block_on(blocking(deadline, start, move || {
            std::thread::sleep(Duration::from_millis(300));
            let _ = tx.send(());
        }));
        assert!(
            matches!(waited, Err(Failure::StillCompiling { .. })),
            "{waited:?}"
        );
        // The job itself was not cancelled.
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the job never finished");
        let done = rt.block_on(blocking(
            tokio::time::Instant::now() + Duration::from_secs(60),
            Instant::now(),
            || 7,
        ));
        assert_eq!(done.ok(), Some(7));
    }

    #[test]
    fn a_pinned_digest_is_checked_before_anything_compiles() {
        let (dir, path) = hook_file(&empty_component());
        let cache_dir = dir.path().join("cache");
        let host = host(Some(&cache_dir), Tiers::Optimized);
        let pinned = (
            "oci://example.com/hook:1".to_string(),
            "sha256:00".to_string(),
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let mut notes = Notes::new(true);
        let prepared =
            runtime().block_on(host.prepare_async(path, Some(&pinned), deadline, &mut notes));
        match prepared {
            Err(Failure::OciNotPulled { reference, why }) => {
                assert_eq!(reference, pinned.0);
                assert!(why.contains("is not the pinned sha256:00"), "{why}");
            }
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("an unpinned component was prepared"),
        }
        let digest = cache::digest_of(&empty_component());
        let engine = &host.inner().runtime().unwrap().engine;
        assert!(!cache::entry_path(&cache_dir, engine, &digest).exists());
    }
}
