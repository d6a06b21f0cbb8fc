//! Stage 4 of the pipeline (execute): every selected handler at once, results
//! back in declaration order.
//!
//! Why declaration order: the aggregator joins reasons and contexts in the
//! order hooks are declared, so the answer is the same every run whichever
//! hook finishes first (docs/design.md §5).

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::agents::deadline::EventDeadline;
use crate::config::{Budgets, Handler, HandlerKind, LlmSettings, Scope};
use crate::protocol::{Event, Exit, Failure, Note, NoteKind, Outcome, Skip};

pub mod agent;
pub mod agent_tools;
pub mod command;
pub mod diagnose;
pub mod http;
pub mod llm;
// rmcp comes with the full build (it is a `wasm`-feature dependency).
#[cfg(feature = "engine")]
pub mod mcp;
pub mod once;
pub mod prompt;
pub mod supervise;
pub mod transcript;
#[cfg(feature = "engine")]
pub mod wasm;

/// How a selected handler stands with respect to trust: set by the trust
/// gate (`crate::trust::Gate`), carried on its [`Report`]. Defined here,
/// with the report, so that `exec` needs nothing from the gate above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Managed or user scope: trusted by definition.
    User,
    /// A project hook whose current definition the user trusted.
    Trusted,
    /// A project wasm hook asking for nothing beyond reading the project:
    /// it runs as declared; whether it is trusted is only looked up (hashing
    /// the component) if its answer says what only trust allows.
    Sandboxed,
    /// A project wasm hook that is not trusted: it runs with its grants narrowed.
    Narrowed,
    /// A project command hook that is not trusted: it does not run.
    Untrusted,
    /// A handler type the runtime does not run; trust does not apply.
    NotApplicable,
}

impl Standing {
    /// A stable kebab-case name, for machine readers (the audit log).
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::User => "by-scope",
            Standing::Trusted => "trusted",
            Standing::Sandboxed => "sandboxed",
            Standing::Narrowed => "narrowed",
            Standing::Untrusted => "untrusted",
            Standing::NotApplicable => "not-applicable",
        }
    }

    /// Whether the hook ran with its owner's trust: a managed or user hook,
    /// or a project hook the user trusted. A sandboxed project wasm hook ran
    /// with the sandbox's defaults, without its trust being looked up.
    pub fn trusted(self) -> bool {
        matches!(self, Standing::User | Standing::Trusted)
    }
}

/// What running one handler produced, for the aggregator, `fire` and the audit log.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Report {
    /// The handler's label (see [`crate::config::Handler::label`]).
    pub label: String,
    /// `command`, `wasm`, `http`, `prompt`, `agent` or `mcp_tool`.
    pub kind: String,
    /// What it came to.
    pub outcome: Outcome,
    /// Wall-clock time it took.
    pub duration: Duration,
    /// How a command ended, when it did.
    pub exit: Option<Exit>,
    /// Captured stdout (bounded; lossy UTF-8).
    pub stdout: String,
    /// Captured stderr (bounded; lossy UTF-8).
    pub stderr: String,
    /// Extra notes (output truncated, grants withheld, ...).
    pub notes: Vec<String>,
    /// Detail kept only with [`ExecContext::verbose`] (a guest's log lines,
    /// the compile cache): shown by `fire` and `run --verbose`, never among
    /// the notes `run` prints for an agent.
    pub details: Vec<String>,
    /// Fuel a wasm guest used.
    pub fuel_used: Option<u64>,
    /// The sha256 (hex) of the component bytes a wasm handler compiled and
    /// ran: what the trust gate decides on after the run.
    pub component_sha256: Option<String>,
    /// The scope that declared the handler.
    pub scope: Scope,
    /// The file that declared the handler.
    pub file: PathBuf,
    /// How the trust gate let it run (see [`Standing`]); `None` until the
    /// gate's [`merge`](crate::trust::Gate::merge) sets it.
    pub standing: Option<Standing>,
    #[doc(hidden)]
    /// What a prompt hook's model call came to (never its key).
    pub llm: Option<prompt::LlmCall>,
    #[doc(hidden)]
    /// The hook's own span, when the event is traced (telemetry on): its
    /// id, which the hook was given as its parent, and when it started.
    pub span: Option<HookSpan>,
}

/// A traced hook's span: the id it was handed as its parent (a command's
/// `TRACEPARENT`, an http `traceparent` header, a wasm input's
/// `traceparent`), and its start.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookSpan {
    /// The span id.
    pub id: [u8; 8],
    /// When the hook started.
    pub started: std::time::SystemTime,
}

impl Report {
    #[doc(hidden)]
    /// An empty report for `handler` (its outcome: an answer with no opinion),
    /// for an executor to fill in.
    pub fn new(handler: &Handler, kind: &str) -> Report {
        Report::of(&handler.label, kind, handler.scope, handler.file.clone())
    }

    /// An empty report for the handler labelled `label`, declared in `file`
    /// at `scope`.
    pub(crate) fn of(label: &str, kind: &str, scope: Scope, file: PathBuf) -> Report {
        Report {
            label: label.to_string(),
            kind: kind.to_string(),
            outcome: Outcome::Answered(crate::protocol::Answer::none()),
            duration: Duration::ZERO,
            exit: None,
            stdout: String::new(),
            stderr: String::new(),
            notes: Vec::new(),
            details: Vec::new(),
            fuel_used: None,
            component_sha256: None,
            scope,
            file,
            standing: None,
            llm: None,
            span: None,
        }
    }

    /// `answered`, `failed` or `skipped`.
    pub fn status(&self) -> &'static str {
        match &self.outcome {
            Outcome::Answered(_) => "answered",
            Outcome::Failed(_) => "failed",
            Outcome::Skipped(_) => "skipped",
        }
    }

    /// One line for `run --verbose`: ``hook command `x`: answered (exit 0, 12 ms)``.
    pub fn summary_line(&self) -> String {
        let mut detail = Vec::new();
        match &self.outcome {
            Outcome::Answered(answer) if !answer.is_empty() => {
                detail.push(serde_json::to_string(answer).unwrap_or_default());
            }
            Outcome::Answered(_) => detail.push("no opinion".to_string()),
            Outcome::Failed(failure) => detail.push(failure.to_string()),
            Outcome::Skipped(skip) => detail.push(skip.to_string()),
        }
        if let Some(exit) = self.exit {
            detail.push(exit.to_string());
        }
        detail.push(format!("{} ms", self.duration.as_millis()));
        format!(
            "hook {}: {} ({})",
            self.label,
            self.status(),
            detail.join(", ")
        )
    }

    /// What `run --verbose` adds for this hook: its [`Report::summary_line`],
    /// then its details (a guest's log lines, the compile cache), each naming
    /// the hook.
    pub fn verbose_notes(&self) -> impl Iterator<Item = Note> + '_ {
        let label = &self.label;
        std::iter::once(self.summary_line())
            .chain(
                self.details
                    .iter()
                    .map(move |detail| format!("hook {label}: {detail}")),
            )
            .map(move |line| Note::hook(label, NoteKind::Verbose, line))
    }

    /// The report with `failure` as its outcome.
    pub(crate) fn failed(mut self, failure: Failure) -> Report {
        self.outcome = Outcome::Failed(failure);
        self
    }

    /// This hook's own notes (output cut, grants withheld, ...), each naming it.
    pub fn own_notes(&self) -> impl Iterator<Item = Note> + '_ {
        let label = &self.label;
        self.notes
            .iter()
            .map(move |note| Note::hook(label, NoteKind::HookNote, format!("hook {label}: {note}")))
    }

    #[doc(hidden)]
    /// A report for a handler that was not run.
    pub fn skipped(handler: &Handler, kind: &str, skip: Skip) -> Report {
        let mut report = Report::new(handler, kind);
        report.outcome = Outcome::Skipped(skip);
        report
    }
}

/// What every executor may need beyond the handler and the event.
///
/// Executors add what they need here (an engine, a cache directory, ...);
/// every field has a default, so `ExecContext { project_root, ..Default::default() }`
/// keeps compiling when one is added.
#[derive(Debug, Clone)]
pub struct ExecContext {
    /// The project root: `CLAUDE_PROJECT_DIR` for commands, and where a hook
    /// runs when the event's `cwd` does not exist.
    pub project_root: Option<PathBuf>,
    /// Keep and show more detail (`--verbose`).
    pub verbose: bool,
    /// The wasm host to run wasm handlers in (a long-lived process keeps one
    /// warm across events); `None` uses the process-wide [`wasm::WasmHost::global`].
    #[cfg(feature = "engine")]
    pub wasm: Option<WasmSlot>,
    /// The per-event budgets (the user's `hooks.json` may set them).
    pub budgets: Budgets,
    /// The guest memory the wasm handlers of the event being run share:
    /// [`execute_all`] sets a fresh one for each event; `None` (a handler
    /// run on its own) gives that handler a budget of its own.
    pub event_memory: Option<EventMemory>,
    /// Where `once: true` handlers record that they ran ([`once`]); `None`
    /// uses `once/` in the compile cache's directory.
    pub once_dir: Option<PathBuf>,
    /// Where prompt hooks send events (the `llm` setting); `None`: Claude
    /// Code's environment.
    pub llm: Option<LlmSettings>,
    /// The model calls the event being run may make at once
    /// ([`Budgets::max_llm_calls`]); [`execute_all`] sets a fresh set per
    /// event, `None` (a handler run on its own) lets it call at once.
    pub llm_slots: Option<Arc<tokio::sync::Semaphore>>,
    /// How long the agent the event came from waits for the answer, decoded
    /// with the event ([`crate::agents::deadline::decode`]): each handler's
    /// timeout is kept under it, so a fail-closed hook answers in time.
    /// `None`: no agent waits (an embedding program sets its own limits).
    pub agent_deadline: Option<EventDeadline>,
    /// Where the Claude-shaped views of agents' transcripts are kept
    /// ([`transcript::for_hooks`]); `None`: `transcripts/` in the cache.
    pub transcript_dir: Option<PathBuf>,
    /// The handler kinds this process runs: every kind by default.
    #[doc(hidden)]
    pub executors: Executors,
    /// The trace the event is part of, when telemetry is on: the event's
    /// span, which [`execute`] makes each hook's span the child of.
    #[doc(hidden)]
    pub trace: Option<crate::trace::TraceContext>,
}

/// Command hooks only ([`Executors::command_only`]): the default must be
/// safe for the small front, where naming [`Executors::all`] would link
/// every executor back in. The engine and [`crate::Runtime`] ask for every
/// kind by name (`ExecContext::carrying(Executors::all())`).
impl Default for ExecContext {
    fn default() -> ExecContext {
        ExecContext::carrying(Executors::command_only())
    }
}

impl ExecContext {
    /// A context for a project rooted at `project_root`.
    pub fn new(project_root: Option<PathBuf>) -> ExecContext {
        ExecContext {
            project_root,
            ..ExecContext::default()
        }
    }

    /// The default context, running only the kinds `executors` carries.
    /// [`Default`] carries command hooks only: naming [`Executors::all`] would link every
    /// executor into the small `agenthooks` binary.
    #[doc(hidden)]
    pub fn carrying(executors: Executors) -> ExecContext {
        ExecContext {
            project_root: None,
            verbose: false,
            #[cfg(feature = "engine")]
            wasm: None,
            budgets: Budgets::default(),
            event_memory: None,
            once_dir: None,
            llm: None,
            llm_slots: None,
            agent_deadline: None,
            transcript_dir: None,
            executors,
            trace: None,
        }
    }

    /// The event memory budget a wasm handler run in this context charges.
    pub fn event_memory(&self) -> EventMemory {
        self.event_memory
            .clone()
            .unwrap_or_else(|| EventMemory::new(self.budgets.event_memory_mib))
    }
}

/// A [`wasm::WasmHost`] held behind `dyn Any`: a context that names the
/// host's type drops it through that type's code, which would link
/// wasmtime into the small `agenthooks` binary (it never runs a component).
#[cfg(feature = "engine")]
#[derive(Clone)]
pub struct WasmSlot(Arc<dyn std::any::Any + Send + Sync>);

#[cfg(feature = "engine")]
impl WasmSlot {
    /// The slot holding `host`.
    pub fn new(host: wasm::WasmHost) -> WasmSlot {
        WasmSlot(Arc::new(host))
    }

    /// The host held.
    pub fn host(&self) -> Option<&wasm::WasmHost> {
        self.0.downcast_ref()
    }
}

#[cfg(feature = "engine")]
impl std::fmt::Debug for WasmSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("WasmSlot").field(&self.host()).finish()
    }
}

/// Guest memory shared by the wasm handlers of one event: each store charges
/// its linear-memory growth here and is credited back when it is dropped, so
/// forty hooks of 64 MiB each cannot take 2.5 GiB between them.
///
/// Cheap to clone; clones share the count.
#[derive(Debug, Clone)]
pub struct EventMemory {
    // Read only by the wasm host's charges (below).
    #[cfg_attr(not(feature = "engine"), allow(dead_code))]
    limit: usize,
    limit_mib: u64,
    used: Arc<AtomicUsize>,
}

/// Two budgets are the same when they share one count.
impl PartialEq for EventMemory {
    fn eq(&self, other: &EventMemory) -> bool {
        Arc::ptr_eq(&self.used, &other.used)
    }
}

impl Eq for EventMemory {}

impl EventMemory {
    /// A budget of `limit_mib` MiB with nothing used yet.
    pub fn new(limit_mib: u64) -> EventMemory {
        let limit = usize::try_from(limit_mib)
            .ok()
            .and_then(|mib| mib.checked_mul(1 << 20))
            .unwrap_or(usize::MAX);
        EventMemory {
            limit,
            limit_mib,
            used: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The budget in MiB.
    pub fn limit_mib(&self) -> u64 {
        self.limit_mib
    }

    /// Bytes charged now.
    pub fn in_use(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    /// Take `bytes` from the budget; `false` (and nothing taken) when they do not fit.
    #[cfg_attr(not(feature = "engine"), allow(dead_code))]
    pub(crate) fn charge(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.limit)
            })
            .is_ok()
    }

    /// Give back `bytes` taken by [`EventMemory::charge`].
    #[cfg_attr(not(feature = "engine"), allow(dead_code))]
    pub(crate) fn credit(&self, bytes: usize) {
        let _ = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                Some(used.saturating_sub(bytes))
            });
    }
}

/// Run every handler of one event at once; the reports come back in the
/// order of `handlers`. The wasm handlers among them share one fresh
/// [`EventMemory`] of `ctx.budgets.event_memory_mib`. They get the event
/// with its transcript as Claude's ([`transcript::for_hooks`]).
pub async fn execute_all(handlers: &[&Handler], event: &Event, ctx: &ExecContext) -> Vec<Report> {
    let ctx = ExecContext {
        event_memory: Some(EventMemory::new(ctx.budgets.event_memory_mib)),
        llm_slots: Some(Arc::new(tokio::sync::Semaphore::new(
            ctx.budgets.max_llm_calls.max(1),
        ))),
        ..ctx.clone()
    };
    // Only now that hooks will run: the transcript view costs a read of the agent's file.
    let viewed = if handlers.is_empty() {
        None
    } else {
        transcript::for_hooks(event, ctx.transcript_dir.as_deref())
    };
    let event = viewed.as_ref().unwrap_or(event);
    let runs = handlers.iter().map(|handler| execute(handler, event, &ctx));
    futures_util::future::join_all(runs).await
}

/// Run one handler (or skip it, when it is `once` and already ran).
pub async fn execute(handler: &Handler, event: &Event, ctx: &ExecContext) -> Report {
    let mut once_note = None;
    if handler.once {
        let dir = once::marker_dir(ctx.once_dir.as_deref());
        match once::claim(handler, event, dir.as_deref()) {
            once::Claim::First => {}
            once::Claim::Already => {
                return Report::skipped(handler, handler.kind.name(), Skip::Once);
            }
            once::Claim::Unknown(note) => once_note = Some(note),
        }
    }
    let mut report = match &ctx.trace {
        None => run_kind(handler, event, ctx).await,
        Some(parent) => traced(handler, event, ctx, parent.child()).await,
    };
    report.notes.extend(once_note);
    report
}

/// Run one handler in a span of its own, the child of the event's: the
/// hook is handed that span as its parent so that it continues the trace
/// (a wasm hook finds it in its input, as `traceparent` and `tracestate`).
async fn traced(
    handler: &Handler,
    event: &Event,
    ctx: &ExecContext,
    span: crate::trace::TraceContext,
) -> Report {
    let started = std::time::SystemTime::now();
    let id = span.span_id;
    let with_trace;
    let event = if matches!(handler.kind, HandlerKind::Wasm(_)) {
        with_trace = with_trace_input(event, &span);
        &with_trace
    } else {
        event
    };
    let ctx = ExecContext {
        trace: Some(span),
        ..ctx.clone()
    };
    let mut report = run_kind(handler, event, &ctx).await;
    report.span = Some(HookSpan { id, started });
    report
}

/// `event` with `span`'s W3C context in its input (`traceparent`, and
/// `tracestate` when there is one): how a wasm hook, whose WIT record has
/// no field for it, is handed the trace.
fn with_trace_input(event: &Event, span: &crate::trace::TraceContext) -> Event {
    let mut own = event.clone();
    let input = own.input_mut();
    input.insert("traceparent".into(), span.traceparent().into());
    if let Some(state) = &span.state {
        input.insert("tracestate".into(), state.clone().into());
    }
    own
}

/// The future of one handler's run, boxed so that [`Executors`] can hold
/// the executors of the heavy kinds behind a function pointer.
type Run<'a> = Pin<Box<dyn Future<Output = Report> + Send + 'a>>;

/// Which handler kinds a process runs. Command hooks run everywhere; the
/// other kinds (http, wasm, prompt, agent, mcp_tool) need a TLS stack,
/// wasmtime, rmcp or a model client, which only the `agenthooks-engine`
/// binary and the library link: the small `agenthooks` binary carries
/// [`Executors::command_only`], asks [`Executors::runs_all`] before
/// running an event, and hands an event it cannot run to the engine.
///
/// One function pointer: nothing that only names
/// [`Executors::command_only`] reaches the heavy executors, so the
/// linker leaves them out of the small binary.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Executors {
    heavy: Option<for<'a> fn(&'a Handler, &'a Event, &'a ExecContext) -> Run<'a>>,
}

impl std::fmt::Debug for Executors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds = if self.heavy.is_some() {
            "all"
        } else {
            "command-only"
        };
        f.debug_tuple("Executors").field(&kinds).finish()
    }
}

impl Executors {
    /// Every kind this build runs.
    pub fn all() -> Executors {
        Executors {
            heavy: Some(run_heavy),
        }
    }

    /// Command hooks only.
    pub const fn command_only() -> Executors {
        Executors { heavy: None }
    }

    /// Whether handlers of `kind` run here. A kind no build runs
    /// (`Unsupported`) counts as run here: it is skipped the same way.
    pub fn runs(&self, kind: &HandlerKind) -> bool {
        self.heavy.is_some()
            || matches!(
                kind,
                HandlerKind::Command(_) | HandlerKind::Unsupported { .. }
            )
    }

    /// Whether every one of `handlers` runs here.
    pub fn runs_all(&self, handlers: &[&Handler]) -> bool {
        handlers.iter().all(|h| self.runs(&h.kind))
    }
}

/// A clock reading `timeout` from now: a hook's deadline. A timeout too
/// large to add to a clock reading is as good as none (a year).
pub(crate) fn deadline_after(timeout: Duration) -> std::time::Instant {
    let now = std::time::Instant::now();
    now.checked_add(timeout)
        .unwrap_or_else(|| now + Duration::from_secs(365 * 24 * 3600))
}

/// Run `handler` by its kind; how long it took is measured here, for every
/// kind, whichever way its run ended.
async fn run_kind(handler: &Handler, event: &Event, ctx: &ExecContext) -> Report {
    let started = std::time::Instant::now();
    let mut report = run_by_kind(handler, event, ctx).await;
    if !matches!(report.outcome, Outcome::Skipped(_)) {
        report.duration = started.elapsed();
    }
    report
}

async fn run_by_kind(handler: &Handler, event: &Event, ctx: &ExecContext) -> Report {
    match &handler.kind {
        HandlerKind::Command(spec) => command::run(spec, handler, event, ctx).await,
        HandlerKind::Unsupported { kind } => unsupported(handler, kind),
        _ => match ctx.executors.heavy {
            Some(heavy) => heavy(handler, event, ctx).await,
            // Callers ask `runs_all` first; a kind not carried is skipped
            // like one no build runs, never run half-way.
            None => unsupported(handler, handler.kind.name()),
        },
    }
}

fn unsupported(handler: &Handler, kind: &str) -> Report {
    let skip = Skip::Unsupported {
        kind: kind.to_string(),
    };
    Report::skipped(handler, kind, skip)
}

/// The executors of the kinds beyond command ([`Executors::all`]).
fn run_heavy<'a>(handler: &'a Handler, event: &'a Event, ctx: &'a ExecContext) -> Run<'a> {
    Box::pin(async move {
        match &handler.kind {
            #[cfg(feature = "engine")]
            HandlerKind::Wasm(spec) => {
                let host = ctx
                    .wasm
                    .as_ref()
                    .and_then(WasmSlot::host)
                    .unwrap_or_else(|| wasm::WasmHost::global());
                host.run(handler, spec, event, ctx).await
            }
            HandlerKind::Http(spec) => http::run(spec, handler, event, ctx).await,
            HandlerKind::Prompt(spec) => prompt::run(spec, handler, event, ctx).await,
            HandlerKind::Agent(spec) => agent::run(spec, handler, event, ctx).await,
            #[cfg(feature = "engine")]
            HandlerKind::McpTool(spec) => mcp::run(spec, handler, event, ctx).await,
            // Without wasmtime (the fuzz targets' build) components and
            // MCP tools cannot run; command, http and unknown kinds do not
            // come here.
            other => unsupported(handler, other.name()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{self, LoadOptions};

    /// The user's handlers of one PreToolUse group: a command, an http, a
    /// wasm and a prompt hook, in that order, and the event.
    fn handlers() -> (tempfile::TempDir, Vec<Handler>, Event) {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(home.join(".agents")).unwrap();
        let text = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "true"},
            {"type": "http", "url": "http://127.0.0.1:9/"},
            {"type": "wasm", "component": "/nonexistent.wasm"},
            {"type": "prompt", "prompt": "safe?"}]}]}});
        std::fs::write(home.join(".agents/hooks.json"), text.to_string()).unwrap();
        let config = config::load(&LoadOptions {
            home: Some(home),
            project_root: None,
        });
        let event = Event::new(
            serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"}),
            None,
            "test",
        )
        .unwrap();
        (tmp, config.handlers, event)
    }

    #[test]
    fn a_deadline_is_the_timeout_from_now_and_a_huge_one_a_year() {
        let before = std::time::Instant::now();
        let soon = deadline_after(Duration::from_secs(5));
        assert!(soon >= before + Duration::from_secs(5));
        assert!(soon <= std::time::Instant::now() + Duration::from_secs(5));
        let never = deadline_after(Duration::MAX);
        assert!(never > before + Duration::from_secs(364 * 24 * 3600));
    }

    #[test]
    fn the_small_table_runs_command_hooks_only() {
        let (_tmp, handlers, _) = handlers();
        let kinds: Vec<&str> = handlers.iter().map(|h| h.kind.name()).collect();
        assert_eq!(kinds, ["command", "http", "wasm", "prompt"]);
        let small = Executors::command_only();
        let runs: Vec<bool> = handlers.iter().map(|h| small.runs(&h.kind)).collect();
        assert_eq!(runs, [true, false, false, false]);
        let unknown = HandlerKind::Unsupported {
            kind: "future-kind".to_string(),
        };
        assert!(small.runs(&unknown));
        let refs: Vec<&Handler> = handlers.iter().collect();
        assert!(!small.runs_all(&refs));
        assert!(small.runs_all(&refs[..1]));
        assert!(!small.runs_all(&refs[..2]));
        assert!(Executors::all().runs_all(&refs));
        // The default is the front's: command hooks only.
        assert!(!ExecContext::default().executors.runs_all(&refs));
        assert!(ExecContext::default().executors.runs_all(&refs[..1]));
    }

    #[test]
    fn a_wasm_hook_finds_its_span_in_its_input() {
        let (_tmp, _, event) = handlers();
        let span = crate::trace::TraceContext::parse(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            Some("k=v"),
        )
        .unwrap();
        let traced = with_trace_input(&event, &span);
        assert_eq!(
            traced.input()["traceparent"],
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        );
        assert_eq!(traced.input()["tracestate"], "k=v");
        assert_eq!(traced.tool_name(), event.tool_name());
    }

    #[test]
    fn a_kind_not_carried_is_skipped_never_run() {
        let (_tmp, handlers, event) = handlers();
        let ctx = ExecContext::carrying(Executors::command_only());
        let report = crate::pipeline::block_on(execute(&handlers[3], &event, &ctx)).unwrap();
        assert!(
            matches!(&report.outcome, Outcome::Skipped(Skip::Unsupported { kind }) if kind == "prompt"),
            "{:?}",
            report.outcome
        );
    }
}
