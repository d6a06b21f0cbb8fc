//! The audit log: one JSON line per event, for the record of what hooks decided.
//!
//! After stage 6 of the pipeline (encode), once the answer is known. Opt-in:
//! `"audit": {"path": ..., "maxBytes": ...}` in the user's
//! `~/.agents/hooks.json`, or `AGENTHOOKS_AUDIT=<path>` in the environment
//! (which wins). A project cannot turn it on: a cloned repository must not
//! make the runtime write where it likes.
//!
//! Each line holds the time (RFC 3339, UTC), the agent, the event, the tool,
//! the project, every selected handler (kind, label, outcome, decision,
//! duration, fuel, note) and the final decision. A line is appended with one
//! `write` on a file opened `O_APPEND`, so concurrent agents do not interleave
//! lines; past `maxBytes` (10 MiB by default) the file is renamed to
//! `<path>.1` (replacing the previous one) and a new one is started.
//!
//! Why it never fails the answer: an audit log that blocks or errors would let
//! a full disk or a bad path turn every tool call into a failure. The file is
//! opened non-blocking (a FIFO at the path cannot hang `run`), only a regular
//! file is written, and any error becomes one note on stderr; `run`'s answer
//! and exit code stay the same.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::exec::Report;
use crate::protocol::{Answer, Event, Outcome};

/// The environment variable that turns the audit log on (its value is the path).
pub const ENV: &str = "AGENTHOOKS_AUDIT";

/// The size past which the log is rotated, when the config gives none.
pub const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// Where audit lines go and how large the file may grow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLog {
    path: PathBuf,
    max_bytes: u64,
}

impl AuditLog {
    /// A log at `path`, rotated past `max_bytes` ([`DEFAULT_MAX_BYTES`] when `None`).
    pub fn new(path: impl Into<PathBuf>, max_bytes: Option<u64>) -> AuditLog {
        AuditLog {
            path: path.into(),
            max_bytes: max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
        }
    }

    /// The log to write for this run: `AGENTHOOKS_AUDIT` if set and not empty,
    /// else the user config's `audit` (path and optional `maxBytes`), else none.
    pub fn resolve(config: Option<(&Path, Option<u64>)>) -> Option<AuditLog> {
        AuditLog::resolve_with(std::env::var_os(ENV), config)
    }

    /// [`AuditLog::resolve`] with the environment variable's value given.
    pub fn resolve_with(
        env: Option<std::ffi::OsString>,
        config: Option<(&Path, Option<u64>)>,
    ) -> Option<AuditLog> {
        if let Some(path) = env.filter(|p| !p.is_empty()) {
            let max = config.and_then(|(_, max)| max);
            return Some(AuditLog::new(PathBuf::from(path), max));
        }
        config.map(|(path, max)| AuditLog::new(path, max))
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The rotated file: `<path>.1`.
    pub fn rotated_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".1");
        PathBuf::from(name)
    }

    /// Append one record. Never fails and never blocks: an error comes back
    /// as a one-line note, like the pipeline's own notes (unprefixed).
    pub fn write(&self, record: &Record) -> Option<String> {
        let mut line = match serde_json::to_vec(record) {
            Ok(line) => line,
            Err(e) => return Some(self.note(&e.to_string())),
        };
        line.push(b'\n');
        match self.append(&line) {
            Ok(()) => None,
            Err(e) => Some(self.note(&e.to_string())),
        }
    }

    fn note(&self, why: &str) -> String {
        format!(
            "cannot write the audit log `{}` ({why}); the answer is not affected",
            self.path.display()
        )
    }

    fn append(&self, line: &[u8]) -> io::Result<()> {
        if let Ok(meta) = std::fs::metadata(&self.path) {
            // Rotate before the line that would pass the cap. Two agents may
            // rotate at once; the worst case is one rotated file replaced early.
            if meta.is_file() && meta.len() > 0 && meta.len() + line.len() as u64 > self.max_bytes {
                std::fs::rename(&self.path, self.rotated_path())?;
            }
        }
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // Non-blocking so that a FIFO at the path cannot hang `run`; the
            // log records tool inputs, so only the user may read it.
            options.custom_flags(libc::O_NONBLOCK).mode(0o600);
        }
        let mut file = options.open(&self.path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::other("not a regular file"));
        }
        // One write call: with O_APPEND the line lands whole at the end even
        // when several agents write at once.
        let written = file.write(line)?;
        if written != line.len() {
            return Err(io::Error::other(format!(
                "only {written} of {} bytes written",
                line.len()
            )));
        }
        Ok(())
    }
}

/// One audit line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// When the event was answered (RFC 3339, UTC, milliseconds).
    pub time: String,
    /// The agent id (`claude`, `codex`, ...).
    pub agent: String,
    /// The canonical event name.
    pub event: String,
    /// The canonical tool name, for tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The project root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// Every selected handler, in declaration order.
    pub handlers: Vec<HandlerRecord>,
    /// The final decision: `stop`, `deny`, `block`, `defer`, `ask` or `allow`.
    pub decision: String,
    /// The reason given with the final decision, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What one handler did, in an audit line.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandlerRecord {
    /// `command`, `wasm`, or the unsupported type.
    pub kind: String,
    /// The handler's label.
    pub label: String,
    /// `answered`, `failed` or `skipped`.
    pub outcome: &'static str,
    /// What it answered: `stop`, `deny`, `block`, `defer`, `ask`, `allow` or
    /// `none` (no opinion); absent when it failed or was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// Wall-clock time in milliseconds.
    pub duration_ms: u64,
    /// Fuel a wasm guest used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel_used: Option<u64>,
    /// The failure, the reason it was skipped, and its other notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The decision an answer expresses, strongest first.
fn decision_of(answer: &Answer) -> Option<&'static str> {
    if answer.stops() {
        return Some("stop");
    }
    if let Some(permission) = answer.permission() {
        return Some(permission.as_str());
    }
    if answer.blocks() {
        return Some("block");
    }
    None
}

impl Record {
    /// The record of one answered event.
    pub fn new(
        event: &Event,
        project_root: Option<&Path>,
        reports: &[Report],
        answer: &Answer,
    ) -> Record {
        let handlers = reports.iter().map(HandlerRecord::from_report).collect();
        let reason = answer
            .stop_reason
            .clone()
            .filter(|_| answer.stops())
            .or_else(|| answer.permission_reason().map(str::to_string))
            .or_else(|| answer.reason.clone());
        Record {
            time: rfc3339(SystemTime::now()),
            agent: event.harness().to_string(),
            event: event.name().as_str().to_string(),
            tool: event.tool_name().map(str::to_string),
            project: project_root.map(|p| p.display().to_string()),
            handlers,
            decision: decision_of(answer).unwrap_or("allow").to_string(),
            reason,
        }
    }
}

impl HandlerRecord {
    /// What `report` says, for the log.
    pub fn from_report(report: &Report) -> HandlerRecord {
        let mut notes = Vec::new();
        let (outcome, decision) = match &report.outcome {
            Outcome::Answered(answer) => ("answered", Some(decision_of(answer).unwrap_or("none"))),
            Outcome::Failed(failure) => {
                notes.push(failure.to_string());
                ("failed", None)
            }
            Outcome::Skipped(skip) => {
                notes.push(skip.to_string());
                ("skipped", None)
            }
        };
        notes.extend(report.notes.iter().cloned());
        HandlerRecord {
            kind: report.kind.clone(),
            label: report.label.clone(),
            outcome,
            decision,
            duration_ms: u64::try_from(report.duration.as_millis()).unwrap_or(u64::MAX),
            fuel_used: report.fuel_used,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        }
    }
}

/// `time` as RFC 3339 in UTC with milliseconds: `2026-11-29T11:53:30.123Z`.
pub fn rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`, for non-negative days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Failure, Skip};
    use serde_json::{json, Value};

    fn report(kind: &str, label: &str, outcome: Outcome) -> Report {
        Report {
            label: label.into(),
            kind: kind.into(),
            outcome,
            duration: Duration::from_millis(12),
            exit: None,
            stdout: String::new(),
            stderr: String::new(),
            notes: Vec::new(),
            details: Vec::new(),
            fuel_used: None,
            component_sha256: None,
        }
    }

    fn event() -> Event {
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "tool_input": {"command": "ls"}});
        Event::new(input, None, "gemini").unwrap()
    }

    fn deny(reason: &str) -> Answer {
        serde_json::from_value(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}}))
        .unwrap()
    }

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_250); // leap day 2000
        assert_eq!(rfc3339(t), "2000-02-29T00:00:00.250Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_953_599);
        assert_eq!(rfc3339(t), "2026-11-29T11:59:59.000Z");
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_800); // 2100 is not a leap year
        assert_eq!(rfc3339(t), "2100-01-01T00:00:00.000Z");
    }

    #[test]
    fn record_lists_each_handler_and_the_final_decision() {
        let reports = [
            report("command", "command `ok`", Outcome::Answered(Answer::none())),
            report("command", "command `no`", Outcome::Answered(deny("nope"))),
            report(
                "wasm",
                "wasm `g.wasm`",
                Outcome::Failed(Failure::OutOfFuel { fuel: 5 }),
            ),
            report("command", "command `x`", Outcome::Skipped(Skip::Untrusted)),
        ];
        let record = Record::new(&event(), Some(Path::new("/p")), &reports, &deny("nope"));
        let v = serde_json::to_value(&record).unwrap();
        assert_eq!(v["agent"], "gemini");
        assert_eq!(v["event"], "PreToolUse");
        assert_eq!(v["tool"], "Bash");
        assert_eq!(v["project"], "/p");
        assert_eq!(v["decision"], "deny");
        assert_eq!(v["reason"], "nope");
        let h = &v["handlers"];
        assert_eq!(h[0]["outcome"], "answered");
        assert_eq!(h[0]["decision"], "none");
        assert_eq!(h[1]["decision"], "deny");
        assert_eq!(h[1]["durationMs"], 12);
        assert_eq!(h[2]["outcome"], "failed");
        assert_eq!(h[2].get("decision"), None);
        assert!(h[2]["note"].as_str().unwrap().contains("out of fuel"));
        assert_eq!(h[3]["outcome"], "skipped");
        assert!(h[3]["note"].as_str().unwrap().contains("agenthooks trust"));
        assert!(v["time"].as_str().unwrap().ends_with('Z'));
    }

    #[test]
    fn an_empty_answer_is_recorded_as_allow() {
        let record = Record::new(&event(), None, &[], &Answer::none());
        let v = serde_json::to_value(&record).unwrap();
        assert_eq!(v["decision"], "allow");
        assert_eq!(v.get("project"), None);
        assert_eq!(v.get("reason"), None);
    }

    #[test]
    fn lines_are_appended_whole() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path().join("audit.jsonl"), None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        assert_eq!(log.write(&record), None);
        assert_eq!(log.write(&record), None);
        let text = std::fs::read_to_string(log.path()).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn the_log_rotates_past_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let record = Record::new(&event(), None, &[], &Answer::none());
        let one = serde_json::to_vec(&record).unwrap().len() as u64 + 1;
        let log = AuditLog::new(dir.path().join("a.log"), Some(one * 2));
        for _ in 0..3 {
            assert_eq!(log.write(&record), None);
        }
        let count = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
        assert_eq!(count(log.path()), 1);
        assert_eq!(count(&log.rotated_path()), 2);
        assert!(log.rotated_path().ends_with("a.log.1"));
    }

    #[test]
    fn an_unwritable_path_is_a_note_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path().join("missing-dir/audit.jsonl"), None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        let note = log.write(&record).expect("a note");
        assert!(note.contains("cannot write the audit log"), "{note}");
        assert!(!note.contains('\n'));
        // A directory at the path is not written either.
        let log = AuditLog::new(dir.path(), None);
        assert!(log.write(&record).is_some());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_path_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let log = AuditLog::new(&path, None);
        let record = Record::new(&event(), None, &[], &Answer::none());
        assert!(log.write(&record).is_some());
    }

    #[test]
    fn the_environment_wins_over_the_config() {
        let env = Some("/tmp/from-env.jsonl".into());
        let log = AuditLog::resolve_with(env, Some((Path::new("/cfg.jsonl"), Some(5)))).unwrap();
        assert_eq!(log, AuditLog::new("/tmp/from-env.jsonl", Some(5)));
        let log = AuditLog::resolve_with(Some("".into()), Some((Path::new("/c"), None))).unwrap();
        assert_eq!(log, AuditLog::new("/c", None));
        assert_eq!(AuditLog::resolve_with(None, None), None);
        let env = Some("/e".into());
        assert_eq!(
            AuditLog::resolve_with(env, None),
            Some(AuditLog::new("/e", None))
        );
    }
}
