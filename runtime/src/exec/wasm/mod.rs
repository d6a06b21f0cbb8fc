//! WebAssembly component hooks in a wasmtime sandbox.
//!
//! A [`WasmHost`] owns one engine (built on first use, so a process where no
//! wasm handler matched never touches wasmtime), the compile cache, and each
//! component's pre-linked instance. Every event gets a fresh store and
//! instance with the handler's [`Sandbox`]: fuel, a wall-clock deadline, a
//! memory limit, no files, environment or network unless granted, and bounded
//! output. A trapped instance is dropped with its store and never called again.
//!
//! Each way a guest can fail is a distinct [`Failure`]; `classify.rs` is the
//! only place that looks inside wasmtime's errors. The handler's `onError`
//! is applied later, by the aggregator.
//!
//! Why async: fuel and epochs stop running wasm code, but not a guest blocked
//! inside a host call (a WASI sleep, a file read). The call is a future under
//! an outer [`tokio::time::timeout`], so [`WasmHost::run`] returns within the
//! timeout plus [`GRACE`] whatever the guest does (wasmtime-48.md §4.3).
//!
//! One deadline per handler, compile included: a component the cache does
//! not hold is compiled off the event's path — by a detached worker process
//! in the CLI (`worker.rs`), on a blocking thread in library mode — and the
//! event waits for it only until the handler's timeout, then fails with
//! [`Failure::StillCompiling`] while the compile goes on to fill the cache.
//!
//! Two tiers (`engine.rs`): a cold component is compiled first with the
//! baseline compiler (Winch, about 20× faster to compile), which answers the
//! first events, and then with Cranelift, whose entry replaces it for good.
//! A component Winch cannot compile goes straight to Cranelift.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Engine, Store, UpdateDeadline};

use crate::component::read_failure;
pub(crate) use crate::component::read_open_component;
use crate::config::{Handler, WasmSpec};
use crate::exec::{ExecContext, Report};
use crate::fsread::{self, FileStamp};
use crate::protocol::{Event, Failure, Outcome};

mod bindings;
mod cache;
mod classify;
mod engine;
pub mod gc;
mod index;
mod limiter;
mod sandbox;
mod stubs;
pub mod worker;

pub use cache::{CacheDir, CacheStatus, ComponentDigest};
pub use engine::{EngineOptions, Tier, Tiers};
pub use sandbox::{Sandbox, LOG_LIMIT, OUTPUT_LIMIT};

use bindings::{Hook, HookPre};
use sandbox::HostState;

/// How long past its timeout a guest blocked in a host call may take before
/// the call is abandoned. A guest running wasm stops at the timeout itself.
pub const GRACE: Duration = Duration::from_millis(200);

/// Runs wasm hooks: one engine, one compile cache, pre-linked components.
///
/// Cheap to create and to clone (clones share everything); the engine is
/// built by the first call that needs it. A long-lived process keeps one
/// `WasmHost` so the engine, compiled components and `InstancePre`s stay warm
/// across events; a changed component file is noticed ([`FileStamp`]) and reloaded.
#[derive(Clone)]
pub struct WasmHost {
    inner: Arc<Inner>,
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

struct Inner {
    cache: CacheDir,
    options: EngineOptions,
    /// The engine of the tier the cache keeps ([`Tiers::best`]).
    runtime: OnceLock<Result<Runtime, String>>,
    /// The baseline engine, when it comes first ([`Tiers::first`]); built
    /// only for a component that is cold or on its way to the best tier.
    baseline: OnceLock<Result<Runtime, String>>,
    prepared: Mutex<HashMap<PathBuf, Warm>>,
    /// With pooling: one permit per instance slot, so more events at once
    /// than the pool holds wait for a slot instead of failing.
    slots: Option<tokio::sync::Semaphore>,
    /// Where a cold component is compiled.
    compile_in: CompileIn,
    /// In-process compiles under way, by component digest: one compile per
    /// component however many events wait for it.
    inflight: Mutex<HashMap<ComponentDigest, Arc<Inflight>>>,
}

/// Where a component the cache does not hold is compiled.
#[derive(Debug, Clone)]
enum CompileIn {
    /// A detached `agenthooks` worker process (the CLI: the process ends
    /// with the event, the worker goes on to fill the cache).
    Worker(PathBuf),
    /// A blocking thread of this process (library mode: the process lives on).
    Process,
}

/// One in-process compile, shared by every event waiting for it.
struct Inflight {
    started: Instant,
    done: OnceLock<Result<Arc<Prepared>, Failure>>,
}

/// What a quick look at a component found: ready to run, or to be compiled.
enum Probe {
    Ready(Arc<Prepared>),
    Cold(Box<Cold>),
}

/// What a probe may answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probing {
    /// An event: anything that runs, a baseline tier included.
    Run,
    /// Warming the cache: ready only in the best tier.
    Warm,
    /// `compile`: read the cache afresh (not memory), the best tier only.
    Compile,
}

/// A component the cache does not hold, read and hashed.
struct Cold {
    bytes: Vec<u8>,
    digest: ComponentDigest,
    meta: std::fs::Metadata,
}

/// The engine of one tier and a linker holding WASI and the `host` interface.
struct Runtime {
    engine: Engine,
    linker: Linker<HostState>,
    tier: Tier,
}

/// A prepared component kept for its path, and the file as it was read.
struct Warm {
    /// Reused without reading the file only while equal and settled
    /// ([`FileStamp`]); else the file is hashed again, and reused if the
    /// bytes are the same.
    stamp: FileStamp,
    settled: bool,
    prepared: Arc<Prepared>,
}

/// A component ready to instantiate, and what loading it took.
struct Prepared {
    pre: HookPre<HostState>,
    compiled: Compiled,
    /// The sha256 of the bytes compiled: what runs, and what trust is decided on.
    digest: ComponentDigest,
    /// Where the best tier's entry of a lower tier's component will be: once
    /// it is there, the next event loads it instead.
    upgrade: Option<PathBuf>,
}

impl Prepared {
    /// How it was loaded, for `--verbose`.
    fn describe(&self, shown: &str) -> String {
        let c = &self.compiled;
        format!(
            "`{shown}`: {} in {:.1} ms{}",
            match c.status {
                CacheStatus::Hit => "loaded from the compile cache",
                CacheStatus::Compiled => "compiled and cached",
                CacheStatus::CompiledUncached => "compiled",
            },
            c.duration.as_secs_f64() * 1e3,
            match (c.tier, &self.upgrade) {
                (Tier::Baseline, Some(_)) => " (baseline tier, Winch; Cranelift replaces it)",
                (Tier::Baseline, None) => " (baseline tier, Winch)",
                (Tier::Optimized, _) => "",
            }
        )
    }

    /// Whether a better compiled form is waiting in the cache.
    fn superseded(&self) -> bool {
        self.upgrade.as_deref().is_some_and(Path::exists)
    }
}

/// What loading one component took (for `agenthooks compile` and `--verbose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compiled {
    /// Cache hit, compiled and stored, or compiled in memory.
    pub status: CacheStatus,
    /// Time to read, hash, compile or deserialize, and link it.
    pub duration: Duration,
    /// Size of the compiled artifact in bytes.
    pub artifact_len: usize,
    /// The compiler of the code that runs.
    pub tier: Tier,
}

/// Notes for the report: `note` always, `detail` only with `--verbose`.
pub(crate) struct Notes {
    verbose: bool,
    list: Vec<String>,
    details: Vec<String>,
}

impl Notes {
    fn new(verbose: bool) -> Notes {
        Notes {
            verbose,
            list: Vec::new(),
            details: Vec::new(),
        }
    }

    /// A note the user should always see.
    pub(crate) fn note(&mut self, text: String) {
        self.list.push(text);
    }

    /// Take in the notes and details gathered elsewhere (another thread).
    fn absorb(&mut self, other: Notes) {
        self.list.extend(other.list);
        self.details.extend(other.details);
    }

    /// A note shown only with `--verbose`.
    pub(crate) fn detail(&mut self, text: String) {
        if self.verbose {
            self.details.push(text);
        }
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
            if let (Ok(exe), Some(inner)) = (std::env::current_exe(), Arc::get_mut(&mut host.inner))
            {
                inner.compile_in = CompileIn::Worker(exe);
            }
            host
        })
    }

    /// Run `handler` (whose kind is `spec`) on `event` and report what it came to.
    ///
    /// Never fails and never outlives `handler.timeout` + [`GRACE`], compiling
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
        let start = Instant::now();
        let mut report = Report::new(handler, "wasm");
        // The loader made the component and grant paths absolute (against
        // the project root or the home directory it was given).
        let component = spec.component.clone();
        let sandbox = Sandbox::from_spec(spec, handler.timeout).sharing(ctx.event_memory());
        // A timeout too large for the clock is no deadline at all (a year).
        let deadline = start
            .checked_add(handler.timeout)
            .unwrap_or_else(|| start + Duration::from_secs(365 * 86_400));
        let deadline = tokio::time::Instant::from_std(deadline);
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
            Ok(Probe::Ready(p)) => Ok(p.compiled),
            Ok(Probe::Cold(cold)) => self
                .inner
                .compile_cold(path, &cold, best, start, &mut notes)
                .map(|p| p.compiled),
            Err(failure) => Err(failure),
        };
        notes.list.extend(notes.details);
        (result, notes.list)
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

    /// Start a detached worker compiling the component at `path` (whose
    /// bytes hash to `digest`) unless one holds its lock; the lock it holds
    /// while it compiles (free again once it is done), if one started.
    fn spawn_worker(&self, path: &Path, digest: &ComponentDigest) -> Option<PathBuf> {
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
    async fn prepare_async(
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

    /// Call the guest with `left` of the handler's time (its timeout less
    /// what loading took).
    async fn call(
        &self,
        pre: &HookPre<HostState>,
        sandbox: &Sandbox,
        left: Duration,
        event: &Event,
        report: &mut Report,
        notes: &mut Notes,
    ) -> Outcome {
        let mut list = Vec::new();
        let state = sandbox.build(&mut list);
        list.into_iter().for_each(|n| notes.note(n));
        let stdout = state.stdout.clone();
        let stderr = state.stderr.clone();
        let mut store = Store::new(pre.engine(), state);
        store.limiter(|s| &mut s.limiter);
        if let Err(e) = store.set_fuel(sandbox.limits.fuel) {
            return Outcome::Failed(Failure::Internal {
                why: format!("cannot set fuel: {e}"),
            });
        }
        let deadline = Instant::now() + left;
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(move |_| {
            // Yielding each tick lets the outer timeout and other hooks run.
            Ok(if Instant::now() >= deadline {
                UpdateDeadline::Interrupt
            } else {
                UpdateDeadline::Yield(1)
            })
        });
        let input = bindings::wit_event(event);
        let call = async {
            let hook: Hook = pre.instantiate_async(&mut store).await?;
            hook.call_handle(&mut store, &input).await
        };
        let result = tokio::time::timeout(left + GRACE, call).await;

        let out = stdout.contents();
        let err = stderr.contents();
        let output_full = out.len() > OUTPUT_LIMIT || err.len() > OUTPUT_LIMIT;
        report.stdout = lossy(&out);
        report.stderr = lossy(&err);
        store.data_mut().log.drain_into(notes);
        let fuel_left = store.get_fuel().ok();
        let cx = classify::CallContext {
            limits: sandbox.limits,
            timeout: sandbox.timeout,
            output_full,
            stderr: report.stderr.clone(),
        };
        let outcome = match result {
            Err(_elapsed) => Outcome::Failed(Failure::Timeout {
                after: sandbox.timeout,
            }),
            Ok(Err(e)) => Outcome::Failed(classify::call_failure(&e, &cx)),
            Ok(Ok(Err(message))) => Outcome::Failed(Failure::GuestError { message }),
            Ok(Ok(Ok(_))) if output_full => Outcome::Failed(Failure::OutputLimit {
                limit: OUTPUT_LIMIT,
            }),
            Ok(Ok(Ok(answer))) => match bindings::to_answer(event.name(), answer, notes) {
                Ok(answer) => Outcome::Answered(answer),
                Err(failure) => Outcome::Failed(failure),
            },
        };
        // After an interrupt the fuel counter is not written back (wasmtime-48.md
        // §5.2), so a timed-out call reports none.
        report.fuel_used = match &outcome {
            Outcome::Failed(Failure::Timeout { .. }) => None,
            _ => fuel_left.map(|left| sandbox.limits.fuel.saturating_sub(left)),
        };
        outcome
    }
}

impl Inner {
    /// The runtime of the tier the cache keeps.
    fn runtime(&self) -> Result<&Runtime, Failure> {
        self.runtime_of(self.options.tiers.best())
    }

    /// The runtime of `tier` (built on first use).
    fn runtime_of(&self, tier: Tier) -> Result<&Runtime, Failure> {
        let cell = if tier == self.options.tiers.best() {
            &self.runtime
        } else {
            &self.baseline
        };
        let runtime = cell.get_or_init(|| {
            let build = || -> wasmtime::Result<Runtime> {
                let engine = engine::new_engine(&self.options, tier)?;
                let mut linker = Linker::new(&engine);
                wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
                Hook::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |s| s)?;
                Ok(Runtime {
                    engine,
                    linker,
                    tier,
                })
            };
            build().map_err(|e| format!("{e:#}"))
        });
        runtime.as_ref().map_err(|why| Failure::Internal {
            why: format!("cannot start wasmtime: {why}"),
        })
    }

    /// The baseline runtime when a cold component is compiled by it first
    /// (on x86_64, unless the options say otherwise); `None` when it cannot
    /// be built either, so Cranelift alone stays.
    fn lower(&self) -> Option<&Runtime> {
        let tiers = self.options.tiers;
        (tiers.first() != tiers.best())
            .then(|| self.runtime_of(tiers.first()).ok())
            .flatten()
    }

    /// The in-process compile of `digest`, and whether it is new (the
    /// caller starts it).
    fn flight(&self, digest: ComponentDigest) -> (Arc<Inflight>, bool) {
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
    fn compile_tiers(
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

    /// Where the best tier's entry of the component with `digest` will be.
    fn best_entry(&self, digest: &ComponentDigest) -> Option<PathBuf> {
        let dir = self.cache.path()?;
        Some(cache::entry_path(dir, &self.runtime().ok()?.engine, digest))
    }

    /// The prepared component at `path` if it is loaded and the file
    /// unchanged since (by [`FileStamp`], and settled when it was read), and
    /// no better tier of it is waiting in the cache.
    fn warm(&self, path: &Path) -> Option<Arc<Prepared>> {
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
    fn probe(&self, path: &Path, notes: &mut Notes, probing: Probing) -> Result<Probe, Failure> {
        let start = Instant::now();
        let shown = path.display().to_string();
        let (mut file, meta) =
            fsread::open_bounded(path, fsread::caps::COMPONENT).map_err(|e| read_failure(&e))?;
        let stamp = FileStamp::of(&meta);
        // Built only when this probe gets to need it: a component whose
        // best-tier entry is indexed (every warm `run`) never builds the
        // baseline engine, its linker and its epoch thread.
        let lower = || match probing {
            Probing::Run => self.lower(),
            Probing::Warm | Probing::Compile => None,
        };
        if probing != Probing::Compile {
            if let Some(w) = self.lock().get(path).filter(|w| {
                w.settled
                    && w.stamp == stamp
                    && !w.prepared.superseded()
                    && (w.prepared.upgrade.is_none() || lower().is_some())
            }) {
                return Ok(Probe::Ready(w.prepared.clone()));
            }
        }
        let runtime = self.runtime()?;
        // The index knows the entry compiled from this very file: no reading
        // or hashing of the component (`index.rs` says why that is safe).
        let indexed = |runtime: &Runtime| {
            let dir = self.cache.path()?;
            let entry = index::lookup(&runtime.engine, dir, path, &meta)?;
            cache::load_recorded(&runtime.engine, &entry)
        };
        if let Some(loaded) = indexed(runtime) {
            return self
                .link(path, meta, loaded, runtime, start, notes)
                .map(Probe::Ready);
        }
        // A baseline entry is good until the best tier's is there (or its
        // compile failed: then the component fails as any other would).
        if let Some((lower, loaded)) = lower().and_then(|l| Some((l, indexed(l)?))) {
            if let Some(dir) = self.cache.path() {
                if let Some(failed) =
                    cache::remembered_failure(dir, &runtime.engine, &loaded.digest)
                {
                    return Err(failed.failure(&shown));
                }
            }
            if self
                .best_entry(&loaded.digest)
                .is_some_and(|best| !best.exists())
            {
                return self
                    .link(path, meta, loaded, lower, start, notes)
                    .map(Probe::Ready);
            }
        }
        let bytes = read_open_component(path, &mut file, &meta)?;
        let digest = cache::digest_of(&bytes);
        if probing != Probing::Compile {
            // Loaded already, but the file changed too recently for its stamp
            // to prove it (or was touched): the same bytes need no loading.
            let same = self.lock().get(path).map(|w| w.prepared.clone());
            if let Some(prepared) = same.filter(|p| {
                p.digest == digest && !p.superseded() && (p.upgrade.is_none() || lower().is_some())
            }) {
                self.keep(path, &meta, prepared.clone());
                return Ok(Probe::Ready(prepared));
            }
        }
        if let Some(dir) = self.cache.path() {
            if let Some(failed) = cache::remembered_failure(dir, &runtime.engine, &digest) {
                return Err(failed.failure(&shown));
            }
            let Some(dir) = cache::usable(&self.cache, notes) else {
                return Ok(Probe::Cold(Box::new(Cold {
                    bytes,
                    digest,
                    meta,
                })));
            };
            for runtime in std::iter::once(runtime).chain(std::iter::once_with(lower).flatten()) {
                if let Some(loaded) = cache::cached(&runtime.engine, dir, &digest, notes) {
                    if let Some(entry) = &loaded.entry {
                        index::record(&runtime.engine, dir, path, &meta, entry);
                    }
                    return self
                        .link(path, meta, loaded, runtime, start, notes)
                        .map(Probe::Ready);
                }
            }
        }
        Ok(Probe::Cold(Box::new(Cold {
            bytes,
            digest,
            meta,
        })))
    }

    /// Compile a cold component here and now with `tier`'s compiler, store
    /// it, and link it.
    fn compile_cold(
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
        runtime: &Runtime,
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
    fn after_worker(
        &self,
        path: &Path,
        cold: &Cold,
        start: Instant,
    ) -> Result<Option<Arc<Prepared>>, Failure> {
        let shown = path.display().to_string();
        let runtime = self.runtime()?;
        let Some(dir) = self.cache.path() else {
            return Ok(None);
        };
        if let Some(failed) = cache::remembered_failure(dir, &runtime.engine, &cold.digest) {
            return Err(failed.failure(&shown));
        }
        let mut notes = Notes::new(false);
        let runtimes: Vec<&Runtime> = std::iter::once(runtime).chain(self.lower()).collect();
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
        loop {
            for &runtime in &runtimes {
                if let Some(loaded) = index::lookup(&runtime.engine, dir, path, &cold.meta)
                    .and_then(|entry| cache::load_recorded(&runtime.engine, &entry))
                    .filter(|loaded| loaded.digest == cold.digest)
                {
                    return self
                        .link(path, cold.meta.clone(), loaded, runtime, start, &mut notes)
                        .map(Some);
                }
            }
            let stored = runtimes
                .iter()
                .any(|r| cache::entry_path(dir, &r.engine, &cold.digest).exists());
            if !stored || Instant::now() >= grace {
                break;
            }
            std::thread::sleep(WORKER_POLL);
        }
        for runtime in runtimes {
            if let Some(loaded) = cache::cached(&runtime.engine, dir, &cold.digest, &mut notes) {
                if let Some(entry) = &loaded.entry {
                    index::record(&runtime.engine, dir, path, &cold.meta, entry);
                }
                return self
                    .link(path, cold.meta.clone(), loaded, runtime, start, &mut notes)
                    .map(Some);
            }
        }
        Ok(None)
    }

    /// Link a loaded component and keep it warm for `path`.
    fn link(
        &self,
        path: &Path,
        meta: std::fs::Metadata,
        loaded: cache::Loaded,
        runtime: &Runtime,
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
    fn keep(&self, path: &Path, meta: &std::fs::Metadata, prepared: Arc<Prepared>) {
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

/// How often `run` looks whether its compile worker is done.
const WORKER_POLL: Duration = Duration::from_millis(10);

/// How long after a worker stored an entry `run` waits for its index record.
const INDEX_GRACE: Duration = Duration::from_millis(200);

/// How often an event looks whether the in-process compile it waits on is done.
const INFLIGHT_POLL: Duration = Duration::from_millis(5);

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

fn lock<K, V>(map: &Mutex<HashMap<K, V>>) -> std::sync::MutexGuard<'_, HashMap<K, V>> {
    // Inserts and removals are whole: a panic elsewhere leaves the map consistent.
    map.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(OUTPUT_LIMIT)]).into_owned()
}
