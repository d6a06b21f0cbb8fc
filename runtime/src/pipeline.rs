//! The pipeline: decode → load → select → gate → execute → aggregate → encode.
//!
//! [`dispatch`] is the middle of it, the part every caller shares: given a
//! decoded [`Event`] and a loaded [`Config`], select the handlers, hold back
//! the ones trust does not allow, run the rest at once and fold their
//! outcomes into one [`Answer`]. Decoding and encoding belong to the caller:
//! the `run` command does them with an agent adapter; an agent embedding the
//! library already has the canonical event and wants the canonical answer.
//!
//! The module is private: an embedder reaches it through
//! [`crate::Runtime::dispatch`] (an example in `runtime.rs`).

use std::future::Future;
use std::path::Path;

use anyhow::Context as _;

use crate::aggregate::{aggregate, refusal, Verdict};
use crate::audit::AuditLog;
use crate::config::{Config, Handler, OnError};
use crate::exec::{execute_all, ExecContext, Report};
use crate::protocol::{Answer, Event, Failure, Note, NoteKind, Outcome, Source};
use crate::select::select;
use crate::trust;

/// What one event came to.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Dispatched {
    /// The aggregated answer, in Claude Code's shape (empty when nothing ran).
    pub answer: Answer,
    /// One report per selected handler, in declaration order (skipped ones included).
    pub reports: Vec<Report>,
    /// One each, for stderr, in the order printed: config trouble, `--verbose`
    /// lines, trust, failures, skips, conflicts, each hook's own notes, audit.
    pub notes: Vec<Note>,
    /// The hooks that failed and were allowed by their failure policy: what
    /// the event head says once per session in the agent's window.
    pub(crate) failed_open: Vec<FailedOpen>,
}

/// A hook that failed at this event and was allowed by its failure policy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FailedOpen {
    /// The hook's label.
    pub label: String,
    /// How it failed.
    pub failure: Failure,
}

/// The hooks among `reports` that failed and were allowed: `allowed` says,
/// in the same order, whether each one's `onError` allows.
pub(crate) fn failed_open(
    reports: &[Report],
    allowed: impl IntoIterator<Item = bool>,
) -> Vec<FailedOpen> {
    reports
        .iter()
        .zip(allowed)
        .filter_map(|(report, allowed)| match (&report.outcome, allowed) {
            (Outcome::Failed(failure), true) => Some(FailedOpen {
                label: report.label.clone(),
                failure: failure.clone(),
            }),
            _ => None,
        })
        .collect()
}

impl Dispatched {
    /// The notes as `run` prints them on stderr, one line each.
    pub fn note_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.notes.iter().map(Note::line)
    }
}

/// How the end of the pipeline goes for one caller ([`finish`]).
pub(crate) struct Tail<'a> {
    /// The configuration the event was dispatched with.
    pub config: &'a Config,
    /// The project root, for the audit record.
    pub root: Option<&'a Path>,
    /// Add each hook's summary and details to the notes (`run --verbose`).
    pub verbose: bool,
    /// Write the audit record (`run` and the library do; `fire`'s made-up
    /// events do not).
    pub audit: bool,
}

impl Tail<'_> {
    /// The audit log to write, when this caller writes one and it is on.
    pub fn audit_log(&self) -> Option<AuditLog> {
        AuditLog::resolve(self.config.audit.as_ref()).filter(|_| self.audit)
    }
}

/// The end of the pipeline, the same for `run`, `fire` and the library: the
/// configuration's notes first, then (verbose) each hook's summary and
/// details, then what the dispatch noted; then the audit record, written
/// once, its own trouble the last note. Writing the record is blocking I/O:
/// an async caller runs this on the blocking pool when [`Tail::audit_log`]
/// says a record will be written.
pub(crate) fn finish(event: &Event, tail: &Tail<'_>, done: Dispatched) -> Dispatched {
    let config = tail.config;
    let mut notes: Vec<Note> = config
        .broken
        .iter()
        .map(|b| Note::new(Source::Config, NoteKind::ConfigError, b.to_string()))
        .chain(
            config
                .warnings
                .iter()
                .map(|w| Note::new(Source::Config, NoteKind::ConfigWarning, w.to_string())),
        )
        .collect();
    if tail.verbose {
        notes.extend(done.reports.iter().flat_map(Report::verbose_notes));
    }
    notes.extend(done.notes);
    if let Some(log) = tail.audit_log() {
        let record = log.record(event, tail.root, &done.reports, &done.answer, config);
        notes.extend(
            log.write(&record)
                .map(|why| Note::new(Source::Audit, NoteKind::Audit, why)),
        );
    }
    Dispatched { notes, ..done }
}

/// Run `work` to its end on a one-thread async runtime of its own.
///
/// # Errors
/// When the runtime cannot start.
pub(crate) fn block_on<T>(work: impl Future<Output = T>) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    let out = runtime.block_on(work);
    // A wasm guest stuck in host file I/O (a FIFO) leaves a blocking
    // thread behind after its timeout; dropping the runtime would wait for it.
    runtime.shutdown_background();
    Ok(out)
}

/// Select, gate, execute and aggregate the handlers of `config` for `event`.
///
/// The per-event budgets are `config`'s (the user file's), whatever `ctx` says.
pub async fn dispatch(event: &Event, config: &Config, ctx: &ExecContext) -> Dispatched {
    let selected = select(&config.handlers, event);
    let ctx = ExecContext {
        budgets: config.budgets,
        llm: config.llm.clone(),
        ..ctx.clone()
    };
    dispatch_selected(event, config, &selected, &ctx).await
}

/// [`dispatch`] for handlers already selected from `config`: callers that
/// must know whether anything matched before paying for an async runtime
/// (the `run` command) select first and call this (when nothing matched,
/// only if [`Config::fails_closed`]).
pub async fn dispatch_selected(
    event: &Event,
    config: &Config,
    selected: &[&Handler],
    ctx: &ExecContext,
) -> Dispatched {
    let policy = config.on_config_error;
    let policy_source = match config.managed.as_ref().filter(|m| m.sets_on_config_error) {
        Some(m) => format!("the managed policy `{}` fails closed", m.file.display()),
        None => "`onConfigError: deny` in ~/.agents/hooks.json".to_string(),
    };
    // Under `onConfigError: deny`, each broken file refuses in its own name.
    let refused_by_config: Vec<(String, Outcome)> = if policy == OnError::Deny {
        config
            .broken
            .iter()
            .filter(|_| event.name().can_veto())
            .map(|b| {
                let label = format!("`{}`", b.file.display());
                let problem = format!("{label} cannot be used: {}; fix the file", b.why);
                (label, config_refusal(event, &problem, &policy_source))
            })
            .collect()
    } else {
        Vec::new()
    };
    if selected.is_empty() && refused_by_config.is_empty() {
        return Dispatched::default();
    }
    let mut gate = if trust::gate_reads_files(selected) {
        let owned: Vec<Handler> = selected.iter().map(|&h| h.clone()).collect();
        blocking(move || trust::gate(&owned.iter().collect::<Vec<_>>())).await
    } else {
        trust::gate(selected)
    };
    // A fail-closed hook must answer before the agent gives up on `run` and allows.
    if let Some(deadline) = ctx.agent_deadline {
        gate.clamp(deadline.budget(), deadline.agent, deadline.wait);
    }
    let reports = execute_all(&gate.runnable(), event, ctx).await;
    let reports = if gate.merge_reads_files(&reports) {
        let (merged, back) = blocking(move || (gate.merge(reports), gate)).await;
        gate = back;
        merged
    } else {
        gate.merge(reports)
    };
    // Under `onConfigError: deny`, a configured component that is missing
    // refuses like a broken file (the hook it stands for never ran).
    let missing: Vec<Option<Outcome>> = reports
        .iter()
        .map(|report| match &report.outcome {
            Outcome::Failed(failure @ Failure::ComponentNotFound { .. })
                if policy == OnError::Deny && event.name().can_veto() =>
            {
                let problem = format!("hook {}: {failure}", report.label);
                Some(config_refusal(event, &problem, &policy_source))
            }
            _ => None,
        })
        .collect();
    let mut verdicts: Vec<Verdict<'_>> = refused_by_config
        .iter()
        .map(|(label, outcome)| Verdict {
            label,
            on_error: OnError::Allow,
            outcome,
        })
        .collect();
    verdicts.extend(gate.handlers.iter().zip(&reports).zip(&missing).map(
        |((gated, report), missing)| Verdict {
            label: &report.label,
            on_error: gated.handler.on_error,
            outcome: missing.as_ref().unwrap_or(&report.outcome),
        },
    ));
    let aggregated = aggregate(event.name(), &verdicts);
    let allowed = gate
        .handlers
        .iter()
        .zip(&missing)
        .map(|(gated, missing)| missing.is_none() && gated.handler.on_error == OnError::Allow);
    let failed_open = failed_open(&reports, allowed);
    let trust_notes = gate
        .notes
        .iter()
        .map(|n| Note::new(Source::Trust, NoteKind::Trust, n.to_string()));
    let own_notes = reports.iter().flat_map(Report::own_notes);
    let notes = trust_notes
        .chain(aggregated.notes)
        .chain(own_notes)
        .collect();
    Dispatched {
        answer: aggregated.answer,
        reports,
        notes,
        failed_open,
    }
}

/// What a configuration problem comes to under `onConfigError: deny`: a
/// refusal whose reason says what is wrong, what to do, and why it refuses.
fn config_refusal(event: &Event, problem: &str, policy_source: &str) -> Outcome {
    let reason = format!("{problem}; agenthooks refuses until then ({policy_source})");
    Outcome::Answered(refusal(event.name(), reason))
}

/// Runs `work`, blocking file I/O such as hashing scripts and components for
/// trust, on tokio's blocking pool, so that in library mode a [`Runtime`]
/// shared on a multi-threaded executor does not stall other tasks while a
/// large file is read. A panic in `work` goes on unwinding here.
///
/// [`Runtime`]: crate::runtime::Runtime
pub(crate) async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => value,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // Only when the runtime shuts down, which drops this future too.
        Err(e) => panic!("blocking work was cancelled: {e}"),
    }
}

/// A temporary directory holding `home/.agents` and `project/.agents`, and
/// `Bash ls` in the project before the tool: what the off-the-executor tests
/// start from.
#[cfg(test)]
pub(crate) fn home_project_and_event() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    Event,
) {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    std::fs::create_dir_all(home.join(".agents")).unwrap();
    std::fs::create_dir_all(project.join(".agents")).unwrap();
    let event = Event::new(
        serde_json::json!({"hook_event_name": "PreToolUse", "cwd": project,
                           "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        None,
        "test",
    )
    .unwrap();
    (tmp, home, project, event)
}

/// Runs `work` on a one-thread executor next to a task that only records
/// that it ran, and says whether it did: it can only if `work` yielded, as
/// awaiting [`blocking`] work does and reading a file inline does not.
#[cfg(test)]
pub(crate) fn yields<T>(work: impl std::future::Future<Output = T>) -> (T, bool) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ran = Arc::new(AtomicBool::new(false));
    let flag = ran.clone();
    runtime.block_on(async move {
        tokio::spawn(async move { flag.store(true, Ordering::SeqCst) });
        let out = work.await;
        (out, ran.load(Ordering::SeqCst))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::deadline::EventDeadline;
    use crate::config::{self, LoadOptions};
    use crate::protocol::{Outcome, Skip};
    use std::time::Duration;

    /// The user's hooks.json holding one command hook on `event` (a user
    /// hook runs without trust).
    fn user_hook(home: &Path, project: &Path, event: &str, command: &str) -> Config {
        let text = serde_json::json!({"hooks": {event: [{"hooks": [
            {"type": "command", "command": command, "timeout": 30}]}]}});
        std::fs::write(home.join(".agents/hooks.json"), text.to_string()).unwrap();
        config::load(&LoadOptions {
            home: Some(home.to_path_buf()),
            project_root: Some(project.to_path_buf()),
        })
    }

    #[cfg(unix)]
    #[test]
    fn handlers_are_kept_under_the_deadline_that_came_with_the_event() {
        let (_tmp, home, project, event) = home_project_and_event();
        let config = user_hook(&home, &project, "PreToolUse", "sleep 5");
        let selected = select(&config.handlers, &event);
        let ctx = ExecContext {
            agent_deadline: Some(EventDeadline {
                agent: "some-agent",
                wait: Duration::from_secs(2),
            }),
            ..ExecContext::new(Some(project.clone()))
        };
        let (done, _) = yields(dispatch_selected(&event, &config, &selected, &ctx));
        let report = &done.reports[0];
        assert!(
            matches!(report.outcome, Outcome::Failed(Failure::Timeout { .. })),
            "{:?}",
            report.outcome
        );
        assert!(
            report.notes.iter().any(|n| {
                n
                == "timeout lowered from 30s to 1.6s to answer within some-agent's 2s hook deadline"
            }),
            "{:?}",
            report.notes
        );
    }

    /// An event's `harness` is only a name: an embedder may write any
    /// agent's id there without that agent waiting on the answer.
    #[cfg(unix)]
    #[test]
    fn the_harness_string_alone_sets_no_deadline() {
        let (_tmp, home, project, _) = home_project_and_event();
        // Codex gives SessionEnd hooks 1 s; this one takes longer.
        let event = Event::new(
            serde_json::json!({"hook_event_name": "SessionEnd", "cwd": project}),
            None,
            "codex",
        )
        .unwrap();
        let config = user_hook(&home, &project, "SessionEnd", "sleep 1.5");
        let selected = select(&config.handlers, &event);
        let ctx = ExecContext::new(Some(project.clone()));
        let (done, _) = yields(dispatch_selected(&event, &config, &selected, &ctx));
        assert!(
            !matches!(done.reports[0].outcome, Outcome::Failed(_)),
            "{:?}",
            done.reports[0].outcome
        );
    }

    #[test]
    fn a_project_script_is_hashed_for_trust_off_the_executor() {
        let (_tmp, home, project, event) = home_project_and_event();
        // Big enough that hashing it cannot finish before the executor
        // first polls the blocking task.
        std::fs::write(project.join("big.sh"), vec![b'#'; 1 << 20]).unwrap();
        std::fs::write(
            project.join(".agents/hooks.json"),
            r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "sh ./big.sh"}]}]}}"#,
        )
        .unwrap();
        let config = config::load(&LoadOptions {
            home: Some(home),
            project_root: Some(project.clone()),
        });
        let selected = select(&config.handlers, &event);
        assert!(trust::gate_reads_files(&selected));
        let ctx = ExecContext::new(Some(project.clone()));
        let (done, yielded) = yields(dispatch_selected(&event, &config, &selected, &ctx));
        assert!(yielded, "the gate hashed the script on the executor");
        assert!(matches!(
            done.reports[0].outcome,
            Outcome::Skipped(Skip::Untrusted)
        ));
    }
}
