//! [`WasmHost`], the public face of the wasm handler: what it owns, and
//! `run`, `compile`, `ready` and `start_worker`, each a few calls into the
//! other parts of the host.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use super::probe::{Probe, Probing};
use super::state::{CompileIn, Inner};
use super::{cache, engine};
use super::{CacheDir, Compiled, EngineOptions, Notes, Sandbox};
use crate::config::{Handler, WasmSpec};
use crate::exec::{ExecContext, Report};
use crate::protocol::{Event, Failure, Outcome};

/// Runs wasm hooks: one engine, one compile cache, pre-linked components.
///
/// Cheap to create and to clone (clones share everything); the engine is
/// built by the first call that needs it. A long-lived process keeps one
/// `WasmHost` so the engine, compiled components and `InstancePre`s stay warm
/// across events; a changed component file is noticed ([`FileStamp`](crate::fsread::FileStamp)) and reloaded.
#[derive(Clone)]
pub struct WasmHost {
    pub(super) inner: Arc<Inner>,
}

impl std::fmt::Debug for WasmHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmHost")
            .field("cache", &self.inner.cache)
            .field("options", &self.inner.options)
            .field("engine_built", &self.inner.runtime.get().is_some())
            .field("baseline_built", &self.inner.baseline.get().is_some())
            .finish_non_exhaustive()
    }
}

impl WasmHost {
    /// A host that caches compiled components in `cache`. Builds no engine yet.
    pub fn new(cache: CacheDir) -> WasmHost {
        WasmHost::with_options(cache, EngineOptions::default())
    }

    /// A host with engine options (e.g. pooling, for a long-lived process).
    pub fn with_options(cache: CacheDir, options: EngineOptions) -> WasmHost {
        WasmHost {
            inner: Arc::new(Inner {
                cache,
                runtime: OnceLock::new(),
                baseline: OnceLock::new(),
                prepared: Mutex::new(HashMap::new()),
                slots: options
                    .pooling
                    .then(|| tokio::sync::Semaphore::new(engine::POOL_INSTANCES)),
                options,
                compile_in: CompileIn::Process,
                inflight: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The process's host, caching in [`CacheDir::from_env`]. The CLI uses
    /// this one, so every wasm handler of a run shares one engine.
    ///
    /// It compiles a component the cache does not hold in a detached worker
    /// process (this executable's hidden `__compile-worker`), so a one-shot
    /// `run` never waits on a compile past its handler's timeout.
    pub fn global() -> &'static WasmHost {
        static HOST: OnceLock<WasmHost> = OnceLock::new();
        HOST.get_or_init(|| {
            let mut host = WasmHost::new(CacheDir::from_env());
            if let (Ok(exe), Some(inner)) =
                (crate::dirs::front_exe(), Arc::get_mut(&mut host.inner))
            {
                inner.compile_in = CompileIn::Worker(exe);
            }
            host
        })
    }

    /// Run `handler` (whose kind is `spec`) on `event` and report what it came to.
    ///
    /// Never fails and never outlives `handler.timeout` + [`GRACE`](super::GRACE), compiling
    /// included: a component still compiling at the timeout fails with
    /// [`Failure::StillCompiling`] and goes on compiling into the cache. Log
    /// lines and cache details go to `notes` with `ctx.verbose`.
    ///
    /// A guest abandoned in blocking host I/O (a FIFO in a granted directory)
    /// leaves a tokio blocking thread behind: shut the runtime down with
    /// `shutdown_background` or `shutdown_timeout`, not by dropping it.
    ///
    /// # Panics
    /// Outside a tokio runtime with timers enabled (`enable_time`).
    pub async fn run(
        &self,
        handler: &Handler,
        spec: &WasmSpec,
        event: &Event,
        ctx: &ExecContext,
    ) -> Report {
        // The pipeline measures every kind around its run (`exec::run_kind`);
        // this is also the embedders' entry, called directly, so it keeps
        // its own clock for them.
        let start = Instant::now();
        let mut report = Report::new(handler, "wasm");
        // The loader made the component and grant paths absolute (against
        // the project root or the home directory it was given).
        let component = spec.component.clone();
        let sandbox = Sandbox::from_spec(spec, handler.timeout).sharing(ctx.event_memory());
        let deadline = tokio::time::Instant::from_std(crate::exec::deadline_after(handler.timeout));
        let mut notes = Notes::new(ctx.verbose);
        // An `oci://` component runs only as the digest it is pinned to.
        let pinned = match spec.oci.as_ref().map(|oci| (oci, &oci.pin)) {
            None => None,
            Some((oci, Err(why))) => {
                report.outcome = Outcome::Failed(Failure::OciNotPulled {
                    reference: oci.reference.to_string(),
                    why: why.to_string(),
                });
                report.duration = start.elapsed();
                return report;
            }
            Some((oci, Ok(digest))) => Some((oci.reference.to_string(), digest.clone())),
        };
        let prepared = self
            .prepare_async(component, pinned.as_ref(), deadline, &mut notes)
            .await;
        report.outcome = match prepared {
            Ok(prepared) => {
                report.component_sha256 = Some(cache::hex(&prepared.digest));
                // Held until the call's store (and instance) is dropped. The
                // semaphore is never closed, so acquiring cannot fail.
                let _slot = match &self.inner.slots {
                    Some(slots) => slots.acquire().await.ok(),
                    None => None,
                };
                // What loading took comes out of the handler's time.
                let left = deadline
                    .into_std()
                    .saturating_duration_since(Instant::now());
                self.call(
                    &prepared.pre,
                    &sandbox,
                    left,
                    event,
                    &mut report,
                    &mut notes,
                )
                .await
            }
            Err(failure) => Outcome::Failed(failure),
        };
        report.notes.extend(notes.list);
        report.details.extend(notes.details);
        report.duration = start.elapsed();
        report
    }

    /// Load, compile (or fetch from the cache) and link the component at
    /// `path` now, in this process, so a later [`WasmHost::run`] starts warm.
    /// Blocks: call it outside async code (or in `spawn_blocking`).
    ///
    /// Returns what loading took, and notes (cache trouble, withheld grants).
    ///
    /// # Errors
    /// The [`Failure`] a run of this component would report: not found, not a
    /// component, wrong world, or an internal error building the engine.
    pub fn compile(&self, path: &Path) -> (Result<Compiled, Failure>, Vec<String>) {
        let mut notes = Notes::new(true);
        let start = Instant::now();
        let best = self.inner.options.tiers.best();
        let result = match self.inner.probe(path, &mut notes, Probing::Compile) {
            Ok(Probe::Ready(prepared)) => Ok(prepared.compiled),
            Ok(Probe::Cold(cold)) => self
                .inner
                .compile_cold(path, &cold, best, start, &mut notes)
                .map(|p| p.compiled),
            Err(failure) => Err(failure),
        };
        (result, notes.into_all())
    }

    /// Whether the component at `path` would start from the compile cache
    /// at an event now (any tier), without compiling it: `Ok(false)` when
    /// the first event would compile it (`agenthooks compile` warms it), the
    /// [`Failure`] an event would report when it cannot run at all. For
    /// `agenthooks status`: the same look an event takes, so the two agree.
    ///
    /// # Errors
    /// Not found, too large, not a component, a compile remembered as failed.
    pub fn ready(&self, path: &Path) -> Result<bool, Failure> {
        let mut notes = Notes::new(false);
        match self.inner.probe(path, &mut notes, Probing::Run)? {
            Probe::Ready(_) => Ok(true),
            Probe::Cold(_) => Ok(false),
        }
    }

    /// Start a detached compile worker for the component at `path` unless
    /// the cache holds its best tier (or it fails at once, or a worker is at
    /// it already). The lock the worker holds until it is done, if one was
    /// started. For `trust` and `install`, which warm the cache ahead of the
    /// first event.
    pub fn start_worker(&self, path: &Path) -> Option<PathBuf> {
        if !matches!(self.inner.compile_in, CompileIn::Worker(_)) {
            return None;
        }
        let mut notes = Notes::new(false);
        let Ok(Probe::Cold(cold)) = self.inner.probe(path, &mut notes, Probing::Warm) else {
            return None;
        };
        self.spawn_worker(path, &cold.digest)
    }
}

#[cfg(test)]
impl WasmHost {
    /// The shared state, for the other parts' tests.
    pub(super) fn inner(&self) -> &Inner {
        &self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::super::probe::tests::{empty_component, hook_file};
    use super::*;

    fn host() -> WasmHost {
        WasmHost::new(CacheDir::none())
    }

    #[test]
    fn a_host_builds_no_engine_until_a_component_needs_one() {
        let host = host();
        let shown = format!("{host:?}");
        assert!(shown.contains("engine_built: false"), "{shown}");
        assert!(shown.contains("baseline_built: false"), "{shown}");
        // A missing component fails before any engine is built.
        let missing = Path::new("/no/such/dir/hook.wasm");
        assert!(matches!(
            host.ready(missing),
            Err(Failure::ComponentNotFound { .. })
        ));
        assert!(format!("{host:?}").contains("engine_built: false"));
    }

    #[test]
    fn compile_reports_what_a_run_would_fail_with() {
        let (_dir, path) = hook_file(b"not wasm at all");
        let (result, _notes) = host().compile(&path);
        assert!(
            matches!(result, Err(Failure::NotAComponent { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn a_library_host_starts_no_worker() {
        let (dir, path) = hook_file(&empty_component());
        let host = WasmHost::new(CacheDir::at(dir.path().join("cache")));
        assert_eq!(host.start_worker(&path), None);
        // Nothing compiled it: an event would still find it cold.
        assert_eq!(host.ready(&path), Ok(false));
    }
}
