//! What agenthooks says in the agent's own window, once per session per
//! cause, when a guard is not guarding: a `hooks.json` that does not load
//! (its hooks did not run), and a hook that failed and so allowed (no
//! model, a timeout, a crash, output it could not read). The decision is
//! the one the protocol gives (allowed, unless the hook's own `onError`
//! says deny); what changes is that the user is told, where they look.
//!
//! Said through the agent's `systemMessage` at events where the agent shows
//! one; elsewhere the stderr note each failure has already is all there
//! is, and the next session's start counts what failed open.
//!
//! A small record per project, under agenthooks' state directory, keeps the counts
//! of the current and the previous session (bounded: a few hooks, a few
//! kilobytes), so a new session starts with "3 hooks failed open in the
//! last session". Which causes were said this session are `once`-style
//! markers ([`once::claim_said`]): two events racing say it once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agents::Agent;
use crate::config::Config;
use crate::exec::once::{self, Claim};
use crate::pipeline::FailedOpen;
use crate::protocol::{one_line, Answer, Event, EventName, Failure, Note, NoteKind};

/// The most hooks one session's record counts (the rest are in `others`).
const MAX_HOOKS: usize = 16;

/// The largest record file read.
const MAX_RECORD: u64 = 16 << 10;

/// The longest line said for one cause.
const MAX_LINE: usize = 400;

/// Where something is said: one event of one agent, in one project.
pub(crate) struct Place<'a> {
    /// The agent the event came from.
    pub agent: &'a dyn Agent,
    /// The event.
    pub event: &'a Event,
    /// The project root (`None`: outside any project).
    pub root: Option<&'a Path>,
    /// The record's directory (`None`: `said/` in the state directory).
    pub dir: Option<&'a Path>,
}

/// Say what must be said once per session at `place`: broken `hooks.json`
/// files, the hooks of `failed` that failed open, and at a session's start
/// what failed open in the last one. Adds to `answer` through the agent's
/// [`Channel`] at this event (only then is a cause claimed as said), and
/// returns the lines said.
pub(crate) fn once_per_session(
    place: &Place<'_>,
    config: &Config,
    failed: &[FailedOpen],
    answer: &mut Answer,
    notes: &mut Vec<Note>,
) -> Vec<String> {
    let Place {
        agent, event, root, ..
    } = *place;
    let dir = record_dir(place.dir);
    if !failed.is_empty() {
        if let Some(problem) = dir
            .as_deref()
            .and_then(|d| count(d, root, event, failed).err())
        {
            notes.push(Note::runtime(NoteKind::Internal, problem));
        }
    }
    let Some(channel) = Channel::at(agent, event) else {
        return Vec::new();
    };
    let mut said = Vec::new();
    if event.name() == EventName::SessionStart {
        if let Some(line) = dir.as_deref().and_then(|d| last_session(d, root, event)) {
            said.push(line);
        }
    }
    let causes = config
        .broken
        .iter()
        .map(|b| {
            (
                format!("broken {}", b.file.display()),
                crate::protocol::prefixed!(
                    "`{}` does not load ({}); its hooks did not run. Fix the file (`agenthooks check` shows what is wrong)",
                    b.file.display(),
                    b.why
                ),
            )
        })
        .chain(failed.iter().map(|f| {
            (
                format!("failed {} {}", f.label, f.failure.kind()),
                failed_line(event, f),
            )
        }));
    for (cause, line) in causes {
        let markers = dir.as_deref().map(|d| d.join("markers"));
        match once::claim_said(event, markers.as_deref(), &cause) {
            Claim::Already => continue,
            Claim::First | Claim::Unknown(_) => said.push(cap(&line)),
        }
    }
    if said.is_empty() {
        return said;
    }
    channel.say(answer, event, &said.join("\n"));
    said
}

/// Where the user is told, at one event of one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Channel {
    /// The agent shows the answer's `systemMessage` to the user.
    SystemMessage,
    /// At a session's start, an agent that shows no message to the user
    /// but gives context to its model (Copilot CLI, Cursor): the model is
    /// asked to tell the user, as the user's only way to learn of it there.
    Context,
}

impl Channel {
    /// The channel at `event` of `agent`, if it has one.
    pub(crate) fn at(agent: &dyn Agent, event: &Event) -> Option<Channel> {
        let caps = agent
            .table()
            .installed()
            .filter(|r| r.canonical == event.name())
            .map(|r| r.caps)
            .reduce(|a, b| if a.system_message { a } else { b })?;
        if caps.system_message {
            Some(Channel::SystemMessage)
        } else if caps.context && event.name() == EventName::SessionStart {
            Some(Channel::Context)
        } else {
            None
        }
    }

    /// Add `message` to `answer` (the answer to `event`), after what the
    /// hooks said.
    pub(crate) fn say(self, answer: &mut Answer, event: &Event, message: &str) {
        match self {
            Channel::SystemMessage => {
                answer.system_message = Some(match answer.system_message.take() {
                    Some(own) => format!("{own}\n{message}"),
                    None => message.to_string(),
                });
            }
            Channel::Context => {
                let told =
                    format!("Tell the user this, word for word, before anything else:\n{message}");
                let specific = answer.specific_mut();
                specific
                    .hook_event_name
                    .get_or_insert_with(|| event.name().as_str().to_string());
                specific.additional_context = Some(match specific.additional_context.take() {
                    Some(own) => format!("{own}\n{told}"),
                    None => told,
                });
            }
        }
    }
}

/// The line for a hook that failed open at `event`.
fn failed_line(event: &Event, f: &FailedOpen) -> String {
    let allowed = match event.tool_name() {
        Some(tool) if event.name().is_tool_event() => format!("allowed `{}`", one_line(tool)),
        _ => format!("let {} go on", event.name()),
    };
    let what = match &f.failure {
        Failure::ModelRequest { .. } | Failure::ModelStatus { .. } => {
            format!("could not get an answer from its model ({})", f.failure)
        }
        failure => format!("failed ({failure})"),
    };
    crate::protocol::prefixed!(
        "hook {} on {} {what} and {allowed}; set `\"onError\": \"deny\"` on it to fail closed",
        f.label,
        event.name()
    )
}

/// `line` on one line, at most [`MAX_LINE`] characters.
fn cap(line: &str) -> String {
    let line = one_line(line);
    if line.chars().count() <= MAX_LINE {
        return line;
    }
    let mut cut: String = line.chars().take(MAX_LINE - 1).collect();
    cut.push('…');
    cut
}

/// The record's directory: `dir`, or `said/` in agenthooks' state
/// directory (it is about this machine's sessions, and belongs in no cache
/// a user clears to free space).
fn record_dir(dir: Option<&Path>) -> Option<PathBuf> {
    match dir {
        Some(dir) => Some(dir.to_path_buf()),
        None => crate::dirs::state().map(|c| c.join("said")),
    }
}

/// What failed open in one session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Session {
    /// The SHA-256 of the session id.
    session: String,
    /// Failures per hook label (at most [`MAX_HOOKS`] labels).
    hooks: BTreeMap<String, u64>,
    /// Failures of hooks past [`MAX_HOOKS`].
    #[serde(default)]
    others: u64,
    /// Each counted hook's last failure, as its note said it (capped).
    #[serde(default)]
    last: BTreeMap<String, String>,
    /// Said at a later session's start already.
    #[serde(default)]
    reported: bool,
}

impl Session {
    fn total(&self) -> u64 {
        self.hooks.values().sum::<u64>() + self.others
    }
}

/// A project's record: the current session and the one before.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Record {
    #[serde(default)]
    current: Option<Session>,
    #[serde(default)]
    previous: Option<Session>,
}

/// The record file of the project at `root` (one for events outside any project).
fn record_file(dir: &Path, root: Option<&Path>) -> PathBuf {
    let key = root.map_or_else(String::new, |r| r.to_string_lossy().into_owned());
    let name = crate::encoding::sha256_hex(key.as_bytes());
    dir.join(format!("{}.json", &name[..32]))
}

fn session_key(event: &Event) -> Option<String> {
    let session = event.session_id().filter(|s| !s.is_empty())?;
    Some(crate::encoding::sha256_hex(session.as_bytes()))
}

fn read_record(file: &Path) -> Record {
    crate::fsread::read_bounded(file, MAX_RECORD)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn write_record(file: &Path, record: &Record) -> Result<(), String> {
    let bytes = serde_json::to_vec(record).map_err(|e| e.to_string())?;
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            format!(
                "could not keep the count of failed hooks in `{}`: {e}",
                parent.display()
            )
        })?;
    }
    crate::atomic::write(file, &bytes, false).map_err(|e| {
        format!(
            "could not keep the count of failed hooks in `{}`: {e}",
            file.display()
        )
    })
}

/// Count `failed` in this session's record.
fn count(
    dir: &Path,
    root: Option<&Path>,
    event: &Event,
    failed: &[FailedOpen],
) -> Result<(), String> {
    let Some(session) = session_key(event) else {
        return Ok(());
    };
    let file = record_file(dir, root);
    let mut record = read_record(&file);
    let current = match record.current.take() {
        Some(current) if current.session == session => current,
        other => {
            record.previous = other.filter(|s| s.total() > 0).or(record.previous.take());
            Session {
                session,
                ..Session::default()
            }
        }
    };
    let mut current = current;
    for f in failed {
        if let Some(n) = current.hooks.get_mut(&f.label) {
            *n += 1;
        } else if current.hooks.len() < MAX_HOOKS {
            current.hooks.insert(f.label.clone(), 1);
        } else {
            current.others += 1;
            continue;
        }
        let failure: String = one_line(&f.failure.to_string()).chars().take(200).collect();
        current.last.insert(f.label.clone(), failure);
    }
    record.current = Some(current);
    write_record(&file, &record)
}

/// At a session's start: the line counting what failed open in the last
/// session of this project, once (the record then marks it reported).
fn last_session(dir: &Path, root: Option<&Path>, event: &Event) -> Option<String> {
    let session = session_key(event)?;
    let file = record_file(dir, root);
    let mut record = read_record(&file);
    let last = match &record.current {
        Some(current) if current.session != session => record.current.as_mut(),
        _ => record.previous.as_mut(),
    }?;
    if last.reported || last.total() == 0 {
        return None;
    }
    last.reported = true;
    let total = last.total();
    let mut hooks: Vec<(&String, &u64)> = last.hooks.iter().collect();
    hooks.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let named: Vec<String> = hooks
        .iter()
        .take(3)
        .map(|(label, n)| format!("{label} ×{n}"))
        .collect();
    let more = if hooks.len() > 3 || last.others > 0 {
        ", …"
    } else {
        ""
    };
    let line = crate::protocol::prefixed!(
        "{total} hook {} failed open in the last session ({}{more}); `agenthooks status` shows each hook's failure policy",
        if total == 1 { "run" } else { "runs" },
        named.join(", ")
    );
    let _ = write_record(&file, &record);
    Some(cap(&line))
}

/// The hooks of the project at `root` that failed open in its current or
/// last session (`status`'s "failed recently"): per hook label, how many
/// times and its last failure. `dir`: the record's directory (`None`: the
/// state directory's).
pub(crate) fn recent_failures(
    root: Option<&Path>,
    dir: Option<&Path>,
) -> BTreeMap<String, (u64, String)> {
    let Some(dir) = record_dir(dir) else {
        return BTreeMap::new();
    };
    let record = read_record(&record_file(&dir, root));
    let mut out: BTreeMap<String, (u64, String)> = BTreeMap::new();
    for session in [record.previous, record.current].into_iter().flatten() {
        for (label, n) in session.hooks {
            let last = session.last.get(&label).cloned().unwrap_or_default();
            let entry = out.entry(label).or_insert((0, String::new()));
            entry.0 += n;
            if !last.is_empty() {
                entry.1 = last;
            }
        }
    }
    out
}
