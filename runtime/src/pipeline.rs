//! The pipeline: decode → load → select → execute → aggregate → encode.
//!
//! [`dispatch`] is the middle of it, the part every caller shares: given a
//! decoded [`Event`] and a loaded [`Config`], select the handlers, hold back
//! the ones trust does not allow, run the rest at once and fold their
//! outcomes into one [`Answer`]. Decoding and encoding belong to the caller:
//! the `run` command does them with an agent adapter; an agent embedding the
//! library already has the canonical event and wants the canonical answer.
//!
//! # Examples
//!
//! ```no_run
//! use agenthooks::{config, exec::ExecContext, pipeline, protocol::Event};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let event = Event::new(
//!     serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo",
//!                        "tool_name": "Bash", "tool_input": {"command": "git push"}}),
//!     None,
//!     "my-agent",
//! )?;
//! let root = config::project_root(event.cwd().as_deref());
//! let config = config::load(&config::LoadOptions { home: None, project_root: root.clone() });
//! let done = pipeline::dispatch(&event, &config, &ExecContext::new(root)).await;
//! println!("{}", serde_json::to_string(&done.answer)?);
//! # Ok(()) }
//! ```

use crate::agents::deadline;
use crate::aggregate::{aggregate, Verdict};
use crate::config::{trust, Config, Handler};
use crate::exec::{execute_all, ExecContext, Report};
use crate::protocol::{Answer, Event};
use crate::select::select;

/// What one event came to.
#[derive(Debug, Clone, Default)]
pub struct Dispatched {
    /// The aggregated answer, in Claude Code's shape (empty when nothing ran).
    pub answer: Answer,
    /// One report per selected handler, in declaration order (skipped ones included).
    pub reports: Vec<Report>,
    /// One line each, for stderr: failures, skips, conflicts, truncated output.
    pub notes: Vec<String>,
}

/// Select, gate, execute and aggregate the handlers of `config` for `event`.
///
/// The per-event budgets are `config`'s (the user file's), whatever `ctx` says.
pub async fn dispatch(event: &Event, config: &Config, ctx: &ExecContext) -> Dispatched {
    let selected = select(&config.handlers, event);
    let ctx = ExecContext {
        budgets: config.budgets,
        ..ctx.clone()
    };
    dispatch_selected(event, &selected, &ctx).await
}

/// [`dispatch`] for handlers already selected: callers that must know whether
/// anything matched before paying for an async runtime (the `run` command)
/// select first and call this.
pub async fn dispatch_selected(
    event: &Event,
    selected: &[&Handler],
    ctx: &ExecContext,
) -> Dispatched {
    if selected.is_empty() {
        return Dispatched::default();
    }
    let mut gate = trust::gate(selected);
    // A fail-closed hook must answer before the agent gives up on `run` and allows.
    if let Some(deadline) = deadline::deadline(event.harness(), event.name()) {
        gate.clamp(deadline::budget(deadline), event.harness(), deadline);
    }
    let reports = execute_all(&gate.runnable(), event, ctx).await;
    let reports = gate.merge(reports);
    let verdicts: Vec<Verdict<'_>> = gate
        .handlers
        .iter()
        .zip(&reports)
        .map(|(gated, report)| Verdict {
            label: &report.label,
            on_error: gated.handler.on_error,
            outcome: &report.outcome,
        })
        .collect();
    let aggregated = aggregate(event.name(), &verdicts);
    let mut notes = gate.notes.clone();
    notes.extend(aggregated.notes);
    for report in &reports {
        let label = &report.label;
        notes.extend(
            report
                .notes
                .iter()
                .map(|note| format!("hook {label}: {note}")),
        );
    }
    Dispatched {
        answer: aggregated.answer,
        reports,
        notes,
    }
}
