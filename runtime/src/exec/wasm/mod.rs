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

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Engine, Store, UpdateDeadline};

use crate::config::{Handler, Scope, WasmSpec};
use crate::exec::{ExecContext, Report};
use crate::protocol::{Event, Failure, Outcome};

mod bindings;
mod cache;
mod classify;
mod engine;
mod index;
mod limiter;
mod sandbox;

pub use cache::{CacheDir, CacheStatus};
pub use engine::EngineOptions;
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
/// across events; a changed component file is noticed (size or mtime) and reloaded.
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
            .finish_non_exhaustive()
    }
}

struct Inner {
    cache: CacheDir,
    options: EngineOptions,
    runtime: OnceLock<Result<Runtime, String>>,
    prepared: Mutex<HashMap<PathBuf, Arc<Prepared>>>,
    /// With pooling: one permit per instance slot, so more events at once
    /// than the pool holds wait for a slot instead of failing.
    slots: Option<tokio::sync::Semaphore>,
}

/// The engine and a linker holding WASI and the `host` interface.
struct Runtime {
    engine: Engine,
    linker: Linker<HostState>,
}

/// A component ready to instantiate, and what loading it took.
struct Prepared {
    stamp: Stamp,
    pre: HookPre<HostState>,
    compiled: Compiled,
}

/// Size and mtime: enough to notice a rebuilt component without reading it.
type Stamp = (u64, Option<SystemTime>);

/// What loading one component took (for `agenthooks compile` and `--verbose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compiled {
    /// Cache hit, compiled and stored, or compiled in memory.
    pub status: CacheStatus,
    /// Time to read, hash, compile or deserialize, and link it.
    pub duration: Duration,
    /// Size of the compiled artifact in bytes.
    pub artifact_len: usize,
}

/// Notes for the report: `note` always, `detail` only with `--verbose`.
pub(crate) struct Notes {
    verbose: bool,
    list: Vec<String>,
}

impl Notes {
    fn new(verbose: bool) -> Notes {
        Notes {
            verbose,
            list: Vec::new(),
        }
    }

    /// A note the user should always see.
    pub(crate) fn note(&mut self, text: String) {
        self.list.push(text);
    }

    /// A note shown only with `--verbose`.
    pub(crate) fn detail(&mut self, text: String) {
        if self.verbose {
            self.list.push(text);
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
                prepared: Mutex::new(HashMap::new()),
                slots: options
                    .pooling
                    .then(|| tokio::sync::Semaphore::new(engine::POOL_INSTANCES)),
                options,
            }),
        }
    }

    /// The process's host, caching in [`CacheDir::from_env`]. The CLI uses
    /// this one, so every wasm handler of a run shares one engine.
    pub fn global() -> &'static WasmHost {
        static HOST: OnceLock<WasmHost> = OnceLock::new();
        HOST.get_or_init(|| WasmHost::new(CacheDir::from_env()))
    }

    /// Run `handler` (whose kind is `spec`) on `event` and report what it came to.
    ///
    /// Never fails and never outlives `handler.timeout` + [`GRACE`] once the
    /// component is loaded (compiling a component on a cache miss is not
    /// counted). Log lines and cache details go to `notes` with `ctx.verbose`.
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
        let base = match handler.scope {
            Scope::Project => handler
                .project_root
                .clone()
                .or_else(|| ctx.project_root.clone()),
            Scope::User => std::env::var_os("HOME").map(PathBuf::from),
        };
        let component = match &base {
            Some(base) if spec.component.is_relative() => base.join(&spec.component),
            _ => spec.component.clone(),
        };
        let sandbox =
            Sandbox::from_spec(spec, handler.timeout, base.as_deref()).sharing(ctx.event_memory());
        let mut notes = Notes::new(ctx.verbose);
        report.outcome = match self.prepare_async(component, &mut notes).await {
            Ok(prepared) => {
                // Held until the call's store (and instance) is dropped. The
                // semaphore is never closed, so acquiring cannot fail.
                let _slot = match &self.inner.slots {
                    Some(slots) => slots.acquire().await.ok(),
                    None => None,
                };
                self.call(&prepared.pre, &sandbox, event, &mut report, &mut notes)
                    .await
            }
            Err(failure) => Outcome::Failed(failure),
        };
        report.notes.extend(notes.list);
        report.duration = start.elapsed();
        report
    }

    /// Load, compile (or fetch from the cache) and link the component at
    /// `path` now, so a later [`WasmHost::run`] starts warm. Blocks: call it
    /// outside async code (or in `spawn_blocking`).
    ///
    /// Returns what loading took, and notes (cache trouble, withheld grants).
    ///
    /// # Errors
    /// The [`Failure`] a run of this component would report: not found, not a
    /// component, wrong world, or an internal error building the engine.
    pub fn compile(&self, path: &Path) -> (Result<Compiled, Failure>, Vec<String>) {
        let mut notes = Notes::new(true);
        let result = self
            .inner
            .prepare(path, &mut notes, /*fresh*/ true)
            .map(|p| p.compiled);
        (result, notes.list)
    }

    async fn prepare_async(
        &self,
        path: PathBuf,
        notes: &mut Notes,
    ) -> Result<Arc<Prepared>, Failure> {
        // Warm: a stat and a map lookup, no thread hop.
        if let Some(prepared) = self.inner.warm(&path) {
            return Ok(prepared);
        }
        let inner = self.inner.clone();
        let verbose = notes.verbose;
        // Compiling takes 0.1 s (more in debug builds): keep it off the
        // executor, where command hooks' timers run.
        let job = tokio::task::spawn_blocking(move || {
            let mut notes = Notes::new(verbose);
            let result = inner.prepare(&path, &mut notes, /*fresh*/ false);
            (result, notes.list)
        });
        match job.await {
            Ok((result, list)) => {
                notes.list.extend(list);
                result
            }
            Err(e) => Err(Failure::Internal {
                why: format!("loading the component failed: {e}"),
            }),
        }
    }

    async fn call(
        &self,
        pre: &HookPre<HostState>,
        sandbox: &Sandbox,
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
        if let Err(e) = store.set_fuel(sandbox.fuel) {
            return Outcome::Failed(Failure::Internal {
                why: format!("cannot set fuel: {e}"),
            });
        }
        let deadline = Instant::now() + sandbox.timeout;
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
        let result = tokio::time::timeout(sandbox.timeout + GRACE, call).await;

        let out = stdout.contents();
        let err = stderr.contents();
        let output_full = out.len() > OUTPUT_LIMIT || err.len() > OUTPUT_LIMIT;
        report.stdout = lossy(&out);
        report.stderr = lossy(&err);
        store.data_mut().log.drain_into(notes);
        let fuel_left = store.get_fuel().ok();
        let cx = classify::CallContext {
            fuel: sandbox.fuel,
            memory_mib: sandbox.memory_mib,
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
            _ => fuel_left.map(|left| sandbox.fuel.saturating_sub(left)),
        };
        outcome
    }
}

impl Inner {
    fn runtime(&self) -> Result<&Runtime, Failure> {
        let runtime = self.runtime.get_or_init(|| {
            let build = || -> wasmtime::Result<Runtime> {
                let engine = engine::new_engine(&self.options)?;
                let mut linker = Linker::new(&engine);
                wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
                Hook::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |s| s)?;
                Ok(Runtime { engine, linker })
            };
            build().map_err(|e| format!("{e:#}"))
        });
        runtime.as_ref().map_err(|why| Failure::Internal {
            why: format!("cannot start wasmtime: {why}"),
        })
    }

    /// The prepared component at `path`: from memory when the file is
    /// unchanged (unless `fresh`), else read, compiled or loaded from the
    /// cache, and linked.
    /// The prepared component at `path` if it is loaded and the file unchanged.
    fn warm(&self, path: &Path) -> Option<Arc<Prepared>> {
        let meta = std::fs::metadata(path).ok()?;
        let stamp = (meta.len(), meta.modified().ok());
        self.lock().get(path).filter(|p| p.stamp == stamp).cloned()
    }

    fn prepare(
        &self,
        path: &Path,
        notes: &mut Notes,
        fresh: bool,
    ) -> Result<Arc<Prepared>, Failure> {
        let start = Instant::now();
        let shown = path.display().to_string();
        let meta = match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => {
                return Err(Failure::NotAComponent {
                    path: shown,
                    why: "not a file".into(),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Failure::ComponentNotFound { path: shown })
            }
            Err(e) => {
                return Err(Failure::Internal {
                    why: format!("cannot read `{shown}`: {e}"),
                })
            }
        };
        let stamp = (meta.len(), meta.modified().ok());
        if !fresh {
            if let Some(p) = self.lock().get(path).filter(|p| p.stamp == stamp) {
                return Ok(p.clone());
            }
        }
        let runtime = self.runtime()?;
        // The index knows the entry compiled from this very file: no reading
        // or hashing of the component (`index.rs` says why that is safe).
        let indexed = self.cache.path().and_then(|dir| {
            let entry = index::lookup(&runtime.engine, dir, path, &meta)?;
            cache::load_recorded(&runtime.engine, &entry)
        });
        let loaded = match indexed {
            Some(loaded) => loaded,
            None => {
                let bytes = std::fs::read(path).map_err(|e| Failure::Internal {
                    why: format!("cannot read `{shown}`: {e}"),
                })?;
                if Engine::detect_precompiled(&bytes).is_some() {
                    // Deserializing runs native code: never from a file a user handed us.
                    return Err(Failure::NotAComponent {
                        path: shown,
                        why: "a precompiled artifact is not accepted; give the `.wasm` component"
                            .into(),
                    });
                }
                let loaded = cache::load(&runtime.engine, &self.cache, &bytes, notes)
                    .map_err(|e| classify::compile_failure(&shown, &e))?;
                if let (Some(dir), Some(entry)) = (self.cache.path(), &loaded.entry) {
                    index::record(&runtime.engine, dir, path, &meta, entry);
                }
                loaded
            }
        };
        let pre = runtime
            .linker
            .instantiate_pre(&loaded.component)
            .and_then(HookPre::new)
            .map_err(|e| classify::link_failure(&shown, &e))?;
        let compiled = Compiled {
            status: loaded.status,
            duration: start.elapsed(),
            artifact_len: loaded.artifact_len,
        };
        if !fresh {
            // `compile` prints its own line; a run says it only with --verbose.
            notes.detail(format!(
                "`{shown}`: {} in {:.1} ms",
                match compiled.status {
                    CacheStatus::Hit => "loaded from the compile cache",
                    CacheStatus::Compiled => "compiled and cached",
                    CacheStatus::CompiledUncached => "compiled",
                },
                compiled.duration.as_secs_f64() * 1e3
            ));
        }
        let prepared = Arc::new(Prepared {
            stamp,
            pre,
            compiled,
        });
        self.lock().insert(path.to_path_buf(), prepared.clone());
        Ok(prepared)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Prepared>>> {
        // A panic while holding the lock leaves the map consistent (inserts are atomic).
        self.prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(OUTPUT_LIMIT)]).into_owned()
}
