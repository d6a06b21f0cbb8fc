//! Tracing: one OpenTelemetry span per event, one child span per hook run,
//! exported over OTLP/HTTP after the answer, never before it.
//!
//! The flow, for `run`:
//!
//! 1. **start** ([`start`]): after the configuration is loaded, when export
//!    is on ([`settings::enabled`]: a few variable reads otherwise), the
//!    event gets a span whose parent is the agent's `TRACEPARENT` (a
//!    malformed one is ignored: a fresh trace starts, per W3C).
//! 2. **hooks**: `exec` gives each hook a child span and hands it on as the
//!    hook's parent (a command's `TRACEPARENT`, an http `traceparent`
//!    header, a wasm hook's input `traceparent`).
//! 3. **spans** ([`spans`]): once answered, the event's and the hooks'
//!    spans, named as in [`attr`]; and at most one note per session when
//!    the last export failed ([`trouble`]).
//! 4. **after the answer** ([`after_answer`]): the spans are appended to
//!    the on-disk spool and the flusher (the engine's hidden `__otel-flush`,
//!    in a process group of its own) is started unless one is at work. It
//!    posts them within a short timeout ([`settings::MAX_TIMEOUT`]); `run`
//!    has exited by then.
//!
//! Why not the OpenTelemetry SDK's processors: the simple one exports when
//! a span ends (before the answer), the batch one on a background thread
//! that a process exiting in milliseconds kills with its spans. The wire
//! types are the official ones (`opentelemetry-proto`).

// The export (the engine's `__otel-flush`, and `audit export`): the wire
// types and the HTTP client stay out of the small front, which only spools.
#[cfg(feature = "engine")]
pub mod flush;
#[cfg(feature = "engine")]
pub mod logs;
#[cfg(feature = "engine")]
pub mod otlp;
pub mod settings;
pub mod spool;

use std::path::Path;
use std::time::SystemTime;

use crate::audit::{self, AuditLog, HandlerRecord};
use crate::config::Config;
use crate::exec::Report;
use crate::protocol::{Answer, Event, Note, NoteKind};
use crate::trace::TraceContext;
use spool::{nanos, Attr, LastError, SpanRecord, Spool};

/// The hidden command that exports the spool (the engine's).
pub const FLUSH_COMMAND: &str = "__otel-flush";

/// The attribute names: the OpenTelemetry GenAI conventions where they
/// apply, `agenthooks.*` for the rest (docs/audit-and-tracing.md, Tracing).
pub mod attr {
    /// The tool the event is about (tool events).
    pub const TOOL_NAME: &str = "gen_ai.tool.name";
    /// The agent's id of the tool call.
    pub const TOOL_CALL_ID: &str = "gen_ai.tool.call.id";
    /// The agent's session.
    pub const CONVERSATION_ID: &str = "gen_ai.conversation.id";
    /// The canonical event name (`PreToolUse`, ...).
    pub const EVENT: &str = "agenthooks.event";
    /// The agent the event came from (`claude`, `codex`, ...).
    pub const AGENT: &str = "agenthooks.agent";
    /// The final decision (`deny`, `allow`, ..., `none`).
    pub const DECISION: &str = "agenthooks.decision";
    /// How many hooks were selected.
    pub const HOOKS: &str = "agenthooks.hooks";
    /// The audit log's last record hash, when an audit log is on (the anchor).
    pub const AUDIT_LAST_HASH: &str = "agenthooks.audit.last_hash";
    /// A hook's kind (`command`, `http`, `wasm`, ...).
    pub const HOOK_KIND: &str = "agenthooks.hook.kind";
    /// A hook's label.
    pub const HOOK_LABEL: &str = "agenthooks.hook.label";
    /// The scope that declared it (`managed`, `user`, `project`).
    pub const HOOK_SCOPE: &str = "agenthooks.hook.scope";
    /// `answered`, `failed` or `skipped`.
    pub const HOOK_OUTCOME: &str = "agenthooks.hook.outcome";
    /// What it answered (`deny`, ..., `none`); absent when it failed.
    pub const HOOK_DECISION: &str = "agenthooks.hook.decision";
    /// The kind of failure or skip (`timeout`, `out-of-fuel`, ...).
    pub const HOOK_FAILURE_KIND: &str = "agenthooks.hook.failure.kind";
    /// Its duration in milliseconds (as the audit log rounds it).
    pub const HOOK_DURATION_MS: &str = "agenthooks.hook.duration_ms";
    /// Fuel a wasm guest used.
    pub const HOOK_FUEL: &str = "agenthooks.hook.fuel";
}

/// One event's place in its trace, while it is answered.
#[derive(Debug, Clone)]
pub struct EventTrace {
    /// The agent's span (`TRACEPARENT`), when valid.
    parent: Option<TraceContext>,
    /// The event's own span.
    pub span: TraceContext,
    started: SystemTime,
}

/// The event's trace when export is on for `config`; `started` is when the
/// event came in. `None` (and nothing done) when it is off.
pub fn start(config: &Config, started: SystemTime) -> Option<EventTrace> {
    if !settings::enabled(config) {
        return None;
    }
    let parent = TraceContext::from_env();
    let span = parent
        .as_ref()
        .map_or_else(TraceContext::fresh, TraceContext::child);
    Some(EventTrace {
        parent,
        span,
        started,
    })
}

/// The answered event's spans: its own, then one per hook that ran.
/// `audit_log`: the log written for the event, whose last hash anchors it.
pub fn spans(
    trace: &EventTrace,
    event: &Event,
    reports: &[Report],
    answer: &Answer,
    audit_log: Option<&AuditLog>,
) -> Vec<SpanRecord> {
    // The agent's trace is not sampled: the context was handed on as it
    // came (flags 00), and nothing is recorded (OpenTelemetry's parent-based
    // sampling).
    if trace.span.flags & 1 == 0 {
        return Vec::new();
    }
    let trace_hex = crate::encoding::hex(&trace.span.trace_id);
    let event_hex = crate::encoding::hex(&trace.span.span_id);
    let mut attrs = vec![
        (attr::EVENT.into(), Attr::Str(event.name().as_str().into())),
        (attr::AGENT.into(), Attr::Str(event.harness().into())),
    ];
    let text =
        |key: &str, value: Option<&str>| value.map(|v| (key.to_string(), Attr::Str(v.into())));
    attrs.extend(text(
        attr::TOOL_NAME,
        event.tool_name().filter(|_| event.name().is_tool_event()),
    ));
    attrs.extend(text(attr::TOOL_CALL_ID, event.str_field("tool_use_id")));
    attrs.extend(text(attr::CONVERSATION_ID, event.session_id()));
    let decision = audit::decision_of(answer).unwrap_or("none");
    attrs.push((attr::DECISION.into(), Attr::Str(decision.into())));
    attrs.push((attr::HOOKS.into(), Attr::Int(reports.len() as i64)));
    if let Some(hash) = audit_log.and_then(|log| log.last_hash().ok().flatten()) {
        attrs.push((attr::AUDIT_LAST_HASH.into(), Attr::Str(hash)));
    }
    let mut out = vec![SpanRecord {
        trace: trace_hex.clone(),
        span: event_hex.clone(),
        parent: trace
            .parent
            .as_ref()
            .map(|p| crate::encoding::hex(&p.span_id)),
        state: trace.span.state.clone(),
        name: format!("agenthooks {}", event.name().as_str()),
        start: nanos(trace.started),
        end: nanos(SystemTime::now()),
        error: None,
        attrs,
    }];
    out.extend(reports.iter().filter_map(|report| {
        let span = report.span?;
        Some(hook_span(report, &trace_hex, &event_hex, span, trace))
    }));
    out
}

/// One hook's span, from its report (the audit log's reading of it).
fn hook_span(
    report: &Report,
    trace_hex: &str,
    event_hex: &str,
    span: crate::exec::HookSpan,
    trace: &EventTrace,
) -> SpanRecord {
    let record = HandlerRecord::from_report(report);
    let mut attrs = vec![
        (attr::HOOK_KIND.into(), Attr::Str(record.kind.clone())),
        (attr::HOOK_LABEL.into(), Attr::Str(record.label.clone())),
        (
            attr::HOOK_SCOPE.into(),
            Attr::Str(report.scope.as_str().into()),
        ),
        (attr::HOOK_OUTCOME.into(), Attr::Str(record.outcome.into())),
    ];
    attrs.extend(
        record
            .decision
            .map(|d| (attr::HOOK_DECISION.into(), Attr::Str(d.into()))),
    );
    attrs.extend(
        record
            .failure
            .map(|f| (attr::HOOK_FAILURE_KIND.into(), Attr::Str(f.into()))),
    );
    attrs.push((
        attr::HOOK_DURATION_MS.into(),
        Attr::Int(record.duration_ms as i64),
    ));
    attrs.extend(record.fuel_used.map(|fuel| {
        (
            attr::HOOK_FUEL.into(),
            Attr::Int(i64::try_from(fuel).unwrap_or(i64::MAX)),
        )
    }));
    let start = nanos(span.started);
    SpanRecord {
        trace: trace_hex.to_string(),
        span: crate::encoding::hex(&span.id),
        parent: Some(event_hex.to_string()),
        state: trace.span.state.clone(),
        name: format!("hook {}", record.kind),
        start,
        end: start.saturating_add(u64::try_from(report.duration.as_nanos()).unwrap_or(u64::MAX)),
        error: record
            .failure
            .filter(|_| record.outcome == "failed")
            .map(str::to_string),
        attrs,
    }
}

/// One note, once per session, when the last export failed (with the
/// count of spans dropped since, if any): said at a later event, since the
/// one whose export failed had answered already. The once-per-session
/// claims are kept beside the spool.
pub fn trouble(event: &Event, spool: &Spool) -> Option<Note> {
    let LastError { endpoint, why } = spool.last_error()?;
    let markers = spool.dir().join("said");
    let cause = format!("telemetry {endpoint}");
    match crate::exec::once::claim_said(event, Some(&markers), &cause) {
        crate::exec::once::Claim::Already => return None,
        crate::exec::once::Claim::First | crate::exec::once::Claim::Unknown(_) => {}
    }
    let dropped = spool.dropped();
    let lost = if dropped >= spool::DROPPED_CAP {
        format!("; at least {dropped} spans dropped past the spool's cap")
    } else if dropped > 0 {
        format!("; {dropped} spans dropped past the spool's cap")
    } else {
        String::new()
    };
    Some(Note::runtime(
        NoteKind::Telemetry,
        format!(
            "telemetry: spans cannot be exported ({why}){lost}; they wait in `{}` (at most {} KiB). Said once per session; the agent's answers are not affected",
            spool.spans_path().display(),
            spool::CAP >> 10
        ),
    ))
}

/// After the answer: spool `spans` and start the flusher `flusher` (the
/// engine) unless one is at work. Never fails: the answer is out.
pub fn after_answer(spans: &[SpanRecord], flusher: &Path) {
    let Some(spool) = Spool::open() else {
        return;
    };
    if spool.append(spans).is_err() || spool.flusher_running() {
        return;
    }
    let mut cmd = std::process::Command::new(flusher);
    cmd.arg(FLUSH_COMMAND)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // Its own group: the agent ending `run`'s group does not end the
    // export, and nothing of it holds the agent's pipes.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    // Not waited for: `run` exits now and the flusher is re-parented. One
    // that cannot start (no engine beside the front) is said like a failed
    // export, at a later event.
    if let Err(e) = cmd.spawn() {
        spool.set_last_error(Some(&LastError {
            endpoint: flusher.display().to_string(),
            why: format!(
                "the exporter `{}` cannot be started: {e}",
                flusher.display()
            ),
        }));
    }
}

#[cfg(test)]
mod tests;
