//! Stage 4 of the pipeline (execute): every selected handler at once, results
//! back in declaration order.
//!
//! Why declaration order: the aggregator joins reasons and contexts in the
//! order hooks are declared, so the answer is the same every run whichever
//! hook finishes first (DESIGN.md §5).

use std::path::PathBuf;
use std::time::Duration;

use crate::config::{Handler, HandlerKind};
use crate::protocol::{Event, Exit, Outcome, Skip};

pub mod command;
pub mod wasm;

/// What running one handler produced, for the aggregator, `fire` and the audit log.
#[derive(Debug, Clone)]
pub struct Report {
    /// The handler's label (see [`crate::config::Handler::label`]).
    pub label: String,
    /// `command` or `wasm` (or the unsupported type).
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
    /// Fuel a wasm guest used.
    pub fuel_used: Option<u64>,
    /// The sha256 (hex) of the component bytes a wasm handler compiled and
    /// ran: what the trust gate decides on after the run.
    pub component_sha256: Option<String>,
}

impl Report {
    /// An empty report for `handler` (its outcome: an answer with no opinion),
    /// for an executor to fill in.
    pub fn new(handler: &Handler, kind: &str) -> Report {
        Report {
            label: handler.label.clone(),
            kind: kind.to_string(),
            outcome: Outcome::Answered(crate::protocol::Answer::none()),
            duration: Duration::ZERO,
            exit: None,
            stdout: String::new(),
            stderr: String::new(),
            notes: Vec::new(),
            fuel_used: None,
            component_sha256: None,
        }
    }

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
#[derive(Debug, Clone, Default)]
pub struct ExecContext {
    /// The project root: `CLAUDE_PROJECT_DIR` for commands, and where a hook
    /// runs when the event's `cwd` does not exist.
    pub project_root: Option<PathBuf>,
    /// Keep and show more detail (`--verbose`).
    pub verbose: bool,
    /// The wasm host to run wasm handlers in (a long-lived process keeps one
    /// warm across events); `None` uses the process-wide [`wasm::WasmHost::global`].
    pub wasm: Option<wasm::WasmHost>,
}

impl ExecContext {
    /// A context for a project rooted at `project_root`.
    pub fn new(project_root: Option<PathBuf>) -> ExecContext {
        ExecContext {
            project_root,
            ..ExecContext::default()
        }
    }
}

/// Run every handler at once; the reports come back in the order of `handlers`.
pub async fn execute_all(handlers: &[&Handler], event: &Event, ctx: &ExecContext) -> Vec<Report> {
    let runs = handlers.iter().map(|handler| execute(handler, event, ctx));
    futures_util::future::join_all(runs).await
}

/// Run one handler.
pub async fn execute(handler: &Handler, event: &Event, ctx: &ExecContext) -> Report {
    match &handler.kind {
        HandlerKind::Command(spec) => command::run(spec, handler, event, ctx).await,
        HandlerKind::Wasm(spec) => {
            let host = ctx
                .wasm
                .as_ref()
                .unwrap_or_else(|| wasm::WasmHost::global());
            host.run(handler, spec, event, ctx).await
        }
        HandlerKind::Unsupported { kind } => {
            let skip = Skip::Unsupported { kind: kind.clone() };
            Report::skipped(handler, kind, skip)
        }
    }
}
