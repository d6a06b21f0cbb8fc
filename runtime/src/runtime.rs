//! Library mode: an agent written in Rust embeds the pipeline and dispatches
//! its events in process, with no process per event.
//!
//! A [`Runtime`] loads the configuration once and keeps it, the wasmtime
//! engine, the compiled components and their `InstancePre`s warm across
//! events (the [`WasmHost`] does the last three). Before each event it checks
//! the two `hooks.json` files (one `stat` each) and reloads them when either
//! changed; the wasm host does the same for each component it runs. Events
//! are dispatched concurrently: [`Runtime::dispatch`] takes `&self`, and a
//! `Runtime` is cheap to clone and share between tasks.
//!
//! It is the same data path as `agenthooks run`: [`pipeline::dispatch`]
//! (select, trust, execute, aggregate), the audit log, and the agent
//! adapters for [`Runtime::dispatch_native`]; only the process around it is
//! gone. The pooling instance allocator is on by default here (about 10 µs
//! less per wasm instantiation), never in the CLI (it costs a one-shot
//! process about 0.4 ms; docs/wasm-host.md §3.4).
//!
//! # Examples
//!
//! ```no_run
//! use agenthooks::{Event, Runtime, RuntimeOptions};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let runtime = Runtime::new(RuntimeOptions::default());
//! let event = Event::new(
//!     serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo",
//!                        "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
//!     None,
//!     "my-agent",
//! )?;
//! let done = runtime.dispatch(event).await;
//! println!("{}", serde_json::to_string(&done.answer)?);
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde_json::Value;

use crate::agents::deadline::{self, EventDeadline};
use crate::agents::{Agent, DecodeError, Native};
use crate::config::{self, Config, LoadOptions};
use crate::exec::wasm::{CacheDir, EngineOptions, WasmHost};
use crate::exec::{ExecContext, Executors};
use crate::fsread::FileStamp;
use crate::head::{Entry, Head};
use crate::pipeline::{self, Dispatched, Tail};
use crate::protocol::Event;

/// How a [`Runtime`] is set up. The default matches `agenthooks run`: the home directory,
/// the project root found from each event's `cwd`, the user's compile cache.
/// Build it from [`RuntimeOptions::default`] with the `with_*` methods, so
/// that an option added later is not a breaking change:
///
/// ```
/// use agenthooks::RuntimeOptions;
///
/// let options = RuntimeOptions::default()
///     .with_project_root("/repo")
///     .with_verbose(true);
/// assert!(options.verbose);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RuntimeOptions {
    /// The home directory holding `.agents/hooks.json`; `None` is the
    /// user's (`$HOME`, `%USERPROFILE%` on Windows).
    pub home: Option<PathBuf>,
    /// The project root for every event; `None` finds it from each event's
    /// `cwd` (or `CLAUDE_PROJECT_DIR`), as `run` does.
    pub project_root: Option<PathBuf>,
    /// Where compiled components are cached; `None` is the user's cache
    /// directory ([`CacheDir::from_env`]).
    pub cache: Option<CacheDir>,
    /// Use wasmtime's pooling instance allocator (faster instantiation,
    /// memory reserved up front). Default on.
    pub pooling: bool,
    /// Keep per-hook detail in the notes, as `run --verbose`.
    pub verbose: bool,
}

impl RuntimeOptions {
    /// Read the user's `.agents/hooks.json` under `home` instead of `$HOME`.
    pub fn with_home(mut self, home: impl Into<PathBuf>) -> RuntimeOptions {
        self.home = Some(home.into());
        self
    }

    /// Take `root` as the project root of every event.
    pub fn with_project_root(mut self, root: impl Into<PathBuf>) -> RuntimeOptions {
        self.project_root = Some(root.into());
        self
    }

    /// Cache compiled components in `cache`.
    pub fn with_cache(mut self, cache: CacheDir) -> RuntimeOptions {
        self.cache = Some(cache);
        self
    }

    /// Use wasmtime's pooling instance allocator, or not.
    pub fn with_pooling(mut self, pooling: bool) -> RuntimeOptions {
        self.pooling = pooling;
        self
    }

    /// Keep per-hook detail in the notes, as `run --verbose`, or not.
    pub fn with_verbose(mut self, verbose: bool) -> RuntimeOptions {
        self.verbose = verbose;
        self
    }
}

impl Default for RuntimeOptions {
    fn default() -> RuntimeOptions {
        RuntimeOptions {
            home: None,
            project_root: None,
            cache: None,
            pooling: true,
            verbose: false,
        }
    }
}

/// The pipeline kept warm in process. Cheap to clone; clones share everything.
#[derive(Clone, Debug)]
pub struct Runtime {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    home: Option<PathBuf>,
    project_root: Option<PathBuf>,
    verbose: bool,
    wasm: WasmHost,
    /// The loaded configuration of each project root seen.
    configs: Mutex<HashMap<Option<PathBuf>, Arc<Loaded>>>,
}

/// One project's configuration and the files it was read from.
#[derive(Debug)]
struct Loaded {
    config: Config,
    /// The user file and the project file, and what each was when read.
    files: Vec<(PathBuf, Option<FileStamp>)>,
    /// Some file had changed too recently to trust its stamp.
    recheck: bool,
}

impl Runtime {
    /// A runtime with `options`. Reads nothing yet: the configuration is
    /// loaded by the first event of each project, the engine is built by the
    /// first wasm hook.
    pub fn new(options: RuntimeOptions) -> Runtime {
        let home = options
            .home
            .filter(|h| !h.as_os_str().is_empty())
            .or_else(crate::dirs::home);
        let cache = options.cache.unwrap_or_else(CacheDir::from_env);
        let engine = EngineOptions {
            pooling: options.pooling,
            ..EngineOptions::default()
        };
        Runtime {
            inner: Arc::new(Inner {
                home,
                project_root: options.project_root,
                verbose: options.verbose,
                wasm: WasmHost::with_options(cache, engine),
                configs: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The wasm host this runtime runs components in (to compile ahead of
    /// time with [`WasmHost::compile`]).
    pub fn wasm_host(&self) -> &WasmHost {
        &self.inner.wasm
    }

    /// The configuration `event` is dispatched against, reloaded first if a
    /// `hooks.json` changed (its load errors and warnings are in it).
    pub fn config(&self, event: &Event) -> Arc<Config> {
        let root = self.root_for(event);
        Arc::new(self.loaded(&root).config.clone())
    }

    /// Select, gate, execute and aggregate the hooks for `event`: the answer
    /// `agenthooks run` would give, in Claude Code's shape, with one report
    /// per selected hook and the notes `run` would print (config trouble
    /// first). Writes the audit log when it is on, as `run` does.
    ///
    /// No agent's deadline applies: the embedding program sets its own
    /// limits (an event whose `harness` names an agent is not clamped to
    /// that agent's deadline; [`Runtime::dispatch_native`] is, as `run` is).
    pub async fn dispatch(&self, event: Event) -> Dispatched {
        self.dispatch_with(event, None).await
    }

    /// [`Runtime::dispatch`] with the deadline of the agent `event` came from.
    async fn dispatch_with(&self, event: Event, deadline: Option<EventDeadline>) -> Dispatched {
        let root = self.root_for(&event);
        let loaded = self.loaded_off_executor(&root).await;
        let config = &loaded.config;
        let ctx = ExecContext {
            project_root: root.clone(),
            verbose: self.inner.verbose,
            wasm: Some(crate::exec::WasmSlot::new(self.inner.wasm.clone())),
            agent_deadline: deadline,
            ..ExecContext::carrying(Executors::all())
        };
        let done = pipeline::dispatch(&event, config, &ctx).await;
        let verbose = self.inner.verbose;
        let tail = Tail {
            config,
            root: root.as_deref(),
            verbose,
            audit: true,
        };
        if tail.audit_log().is_none() {
            return pipeline::finish(&event, &tail, done);
        }
        // Writing the audit record is blocking I/O: off the executor.
        let loaded = loaded.clone();
        let root = root.clone();
        pipeline::blocking(move || {
            let tail = Tail {
                config: &loaded.config,
                root: root.as_deref(),
                verbose,
                audit: true,
            };
            pipeline::finish(&event, &tail, done)
        })
        .await
    }

    /// [`Runtime::dispatch`] for an agent's native input: decode it with
    /// `agent`'s adapter (`event` names the event for agents whose payload
    /// does not), dispatch, and encode the answer. The result is what `run
    /// --agent <id>` would write: stdout, stderr lines (the agent's own,
    /// then each note prefixed `agenthooks: `) and the exit code.
    ///
    /// The event passes through the same head as `run`'s: the agent's
    /// entries that step aside, stale wiring at a session's start, hooks the
    /// agent's own files already run, and what is said once per session. A
    /// session's arrival (warming the compile cache, the held-back message)
    /// is the `agenthooks` binary's: an embedder compiles ahead with
    /// [`Runtime::wasm_host`] and shows its own status.
    ///
    /// # Errors
    /// When the adapter cannot read `input` (where `run` allows with a note).
    pub async fn dispatch_native(
        &self,
        agent: &dyn Agent,
        input: Value,
        event: Option<&str>,
    ) -> Result<Native, DecodeError> {
        let decoded = deadline::decode(agent, input, event)?;
        // The head reads the agent's own files; an adapter not among the
        // built-in agents has none, and goes straight to the pipeline.
        let Some(known) = crate::agents::find(agent.id()) else {
            let event = decoded.event;
            let done = self
                .dispatch_with(event.clone(), Some(decoded.deadline))
                .await;
            return Ok(agent.encode(&event, &done.answer).with_notes(done.notes));
        };
        let entry = Entry {
            agent: known,
            system: false,
            user: false,
            embedded: true,
            tools: None,
            verbose: self.inner.verbose,
        };
        let fixed_root = self.inner.project_root.clone();
        // The policies read small files (the agents' own): off the executor.
        let (head, aside) = pipeline::blocking(move || {
            let mut head =
                Head::decoded(entry, decoded.event, decoded.deadline).with_root(fixed_root);
            let aside = head.step_aside();
            (head, aside)
        })
        .await;
        if let Some(why) = aside {
            return Ok(head.aside(why).native);
        }
        let root = head.root().map(std::path::Path::to_path_buf);
        let loaded = self.loaded_off_executor(&root).await;
        let kept = loaded.clone();
        let mut head = pipeline::blocking(move || {
            let mut head = head;
            head.drift(&kept.config);
            head
        })
        .await;
        let config = &loaded.config;
        let selected = head.select(config);
        let ctx = ExecContext {
            wasm: Some(crate::exec::WasmSlot::new(self.inner.wasm.clone())),
            ..head.context(config, Executors::all(), false)
        };
        let done = if selected.is_empty() && !config.fails_closed() {
            Dispatched::default()
        } else {
            pipeline::dispatch_selected(head.event(), config, &selected, &ctx).await
        };
        drop(selected);
        // The audit record and the once-per-session record: blocking I/O.
        let answered = pipeline::blocking(move || {
            let loaded = loaded;
            head.answer(&loaded.config, done, true, None)
        })
        .await;
        Ok(answered.native)
    }

    /// [`Runtime::loaded`] for async callers: the kept configuration on
    /// the caller's thread (a `stat` per file), a reload (blocking I/O, the
    /// files read and parsed) off the executor.
    async fn loaded_off_executor(&self, root: &Option<PathBuf>) -> Arc<Loaded> {
        match self.fresh(root) {
            Some(loaded) => loaded,
            None => {
                let this = self.clone();
                let key = root.clone();
                pipeline::blocking(move || this.reload(&key)).await
            }
        }
    }

    fn root_for(&self, event: &Event) -> Option<PathBuf> {
        match &self.inner.project_root {
            Some(root) => Some(root.clone()),
            None => config::project_root(event.cwd().as_deref()),
        }
    }

    /// The configuration of `root`, read again when a file changed.
    fn loaded(&self, root: &Option<PathBuf>) -> Arc<Loaded> {
        self.fresh(root).unwrap_or_else(|| self.reload(root))
    }

    /// The kept configuration of `root` if neither file changed since it was
    /// read (one `stat` each: the fast path, kept on the caller's thread).
    fn fresh(&self, root: &Option<PathBuf>) -> Option<Arc<Loaded>> {
        let loaded = self.lock().get(root)?.clone();
        let unchanged = !loaded.recheck
            && loaded
                .files
                .iter()
                .all(|(path, stamp)| FileStamp::of_path(path) == *stamp);
        unchanged.then_some(loaded)
    }

    /// Read the configuration of `root` and keep it.
    fn reload(&self, root: &Option<PathBuf>) -> Arc<Loaded> {
        // Read outside the lock: another task may load the same root at the
        // same time; both results are current, the last one is kept.
        let loaded = Arc::new(self.load(root));
        self.lock().insert(root.clone(), loaded.clone());
        loaded
    }

    fn load(&self, root: &Option<PathBuf>) -> Loaded {
        let mut paths = Vec::new();
        if let Some(home) = &self.inner.home {
            paths.push(crate::dirs::hooks_file(home));
        }
        if let Some(root) = root {
            paths.push(crate::dirs::hooks_file(root));
        }
        // Stamps first: a change while reading shows as a different stamp next time.
        let files: Vec<(PathBuf, Option<FileStamp>)> = paths
            .into_iter()
            .map(|p| {
                let stamp = FileStamp::of_path(&p);
                (p, stamp)
            })
            .collect();
        let config = config::load(&LoadOptions {
            home: self.inner.home.clone(),
            project_root: root.clone(),
        });
        let now = SystemTime::now();
        let recheck = files
            .iter()
            .any(|(_, stamp)| stamp.is_some_and(|s| !s.settled(now)));
        Loaded {
            config,
            files,
            recheck,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Option<PathBuf>, Arc<Loaded>>> {
        // Inserts replace whole entries, so a panic elsewhere cannot leave the map inconsistent.
        self.inner
            .configs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_config_is_read_off_the_executor() {
        let (tmp, home, project, event) = pipeline::home_project_and_event();
        // Big enough that parsing it cannot finish before the executor
        // first polls the blocking task.
        let mut text = String::from(r#"{"hooks": {"Stop": []}}"#);
        text.push_str(&" ".repeat(1 << 20));
        std::fs::write(home.join(".agents/hooks.json"), text).unwrap();
        let runtime = Runtime::new(RuntimeOptions {
            home: Some(home),
            project_root: Some(project.clone()),
            cache: Some(CacheDir::at(tmp.path().join("cache"))),
            pooling: false,
            verbose: false,
        });
        let (done, yielded) = pipeline::yields(runtime.dispatch(event));
        assert!(yielded, "the config was read on the executor");
        assert!(done.notes.is_empty(), "{:?}", done.notes);
    }
}
