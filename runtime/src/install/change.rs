//! What an install plans, apart from how it plans it: the request, one
//! file's change, and reading a native file and the original kept of it.
//! Every file format's planner (`plan.rs` for JSON, scripts and plugins;
//! `text.rs`, `toml.rs`, `yaml.rs`) builds on these, so they sit below all
//! of them.

use std::path::{Path, PathBuf};

use super::backups::Slot;
use super::coverage::Coverage;
use super::wiring::Used;
use super::Env;
use super::InstallError;
use crate::agents::Agent;
use crate::config::Scope;
use crate::fsread::{caps, read_bounded, ReadError};

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Write our entries (and update stale ones).
    Install,
    /// Remove our entries.
    Uninstall,
}

/// What to plan.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The agent.
    pub agent: &'static dyn Agent,
    /// Install or uninstall.
    pub action: Action,
    /// The project's files or the user's.
    pub scope: Scope,
    /// The project root (used for project scope).
    pub project_root: &'a Path,
    /// Where user-level files live.
    pub env: &'a Env,
    /// The `agenthooks` the entries call: the bare name `agenthooks` (found
    /// on `PATH` wherever the agent runs; for files a team commits) or an
    /// absolute path (see [`command_line`](super::command_line)); an entry that needs the engine
    /// calls `agenthooks-engine` beside it ([`super::program`]).
    pub binary: &'a Path,
    /// What the hooks of every scope select ([`Coverage::of`]): the native
    /// matchers and binaries of the entries; `None`: not known (a file did
    /// not load, or a system-wide entry), every entry a catch-all.
    pub coverage: Option<&'a Coverage>,
    /// Per event, the `statusMessage`s of its `.agents/hooks.json` hooks,
    /// joined ([`status_messages`](super::status_messages)), for an agent that shows one.
    pub status_messages: &'a std::collections::BTreeMap<crate::protocol::EventName, String>,
    /// The events the hooks use ([`Used::of`]): install registers those
    /// (and the session start, [`super::rows`]); uninstall ignores it.
    pub used: &'a Used,
}

impl Request<'_> {
    /// What every entry of a file calls where entries are not split by
    /// binary (scripts, plugins, TOML and YAML files).
    pub(crate) fn program(&self) -> PathBuf {
        super::launcher::program(
            self.binary,
            Coverage::binary_for_all(self.coverage, self.scope),
        )
    }
}

/// What happens to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Nothing to do: the bytes stay as they are.
    Unchanged,
    /// The file is new.
    Created,
    /// The file is rewritten.
    Updated,
    /// The file is deleted.
    Removed,
    /// The file gets its backup's bytes back (and the backup is removed).
    Restored,
}

impl Status {
    /// The word printed for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Created => "created",
            Status::Updated => "updated",
            Status::Removed => "removed",
            Status::Restored => "restored",
        }
    }

    /// The words printed for it by a dry run, which changes nothing.
    pub fn planned(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Created => "would create",
            Status::Updated => "would update",
            Status::Removed => "would remove",
            Status::Restored => "would restore",
        }
    }
}

/// One file's planned change.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its bytes now (`None`: it does not exist).
    pub before: Option<Vec<u8>>,
    /// Its bytes after (`None`: deleted).
    pub after: Option<Vec<u8>>,
    /// Make it executable (scripts).
    pub executable: bool,
    /// Where this file's backups are kept (see [`super::backups`]); `None`:
    /// it gets none (a file agenthooks writes whole, or no state directory).
    pub backups: Option<Slot>,
    /// Keep `before` here first as the file's original (the slot's
    /// `original`), unless one is kept already.
    pub backup: Option<PathBuf>,
    /// The file gets its original bytes back from this backup: it and every
    /// other backup of the file go afterwards.
    pub drop_backup: Option<PathBuf>,
    /// Empty directories left by a deletion are removed up to (not including) this one.
    pub(super) stop: PathBuf,
}

impl FileChange {
    /// No change yet to the file at `path` (now `before`), with its backup
    /// slot, and the original kept before of it ([`original_of`]): where
    /// a planner of an edit starts.
    pub(super) fn starting(
        env: &Env,
        path: &Path,
        before: &Option<Vec<u8>>,
        stop: &Path,
    ) -> Result<(FileChange, Option<Kept>), InstallError> {
        let slot = slot_of(env, path);
        let original = original_of(slot.as_ref(), path)?;
        let mut change = FileChange::unchanged(path.to_path_buf(), before.clone(), stop);
        change.backups = slot;
        Ok((change, original))
    }

    pub(super) fn unchanged(path: PathBuf, before: Option<Vec<u8>>, stop: &Path) -> FileChange {
        FileChange {
            path,
            after: before.clone(),
            before,
            executable: false,
            backups: None,
            backup: None,
            drop_backup: None,
            stop: stop.to_path_buf(),
        }
    }

    /// What happens to the file.
    pub fn status(&self) -> Status {
        match (&self.before, &self.after) {
            (b, a) if b == a => Status::Unchanged,
            (None, Some(_)) => Status::Created,
            (Some(_), None) => Status::Removed,
            _ if self.drop_backup.is_some() => Status::Restored,
            _ => Status::Updated,
        }
    }

    /// A unified diff of the change, `label` naming the file in its header.
    pub fn diff(&self, label: &str) -> String {
        unified_diff(label, self.before.as_deref(), self.after.as_deref())
    }
}

/// A unified diff from `before` to `after` (`None`: no file), `label`
/// naming the file in its header: what every `--dry-run` prints.
pub fn unified_diff(label: &str, before: Option<&[u8]>, after: Option<&[u8]>) -> String {
    let text = |b: Option<&[u8]>| {
        b.map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    };
    let (old, new) = (text(before), text(after));
    let a = if before.is_some() {
        format!("a/{label}")
    } else {
        "/dev/null".to_string()
    };
    let b = if after.is_some() {
        format!("b/{label}")
    } else {
        "/dev/null".to_string()
    };
    similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string()
}

/// The bytes of a native file the repository (or the user) controls, read
/// bounded ([`crate::fsread`]: a FIFO or `/dev/zero` in its place never
/// hangs install); `None` when it does not exist.
pub(super) fn read_opt(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, InstallError> {
    match read_bounded(path, cap) {
        Ok(b) => Ok(Some(b)),
        Err(ReadError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// `<file>.agenthooks.bak`: where versions before the state directory kept
/// a file's original. Still read (and removed with the other backups when
/// the original is given back), never written.
pub(crate) fn legacy_backup(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".agenthooks.bak");
    path.with_file_name(name)
}

/// The backups of the native file `path` ([`Env::state`]; none without).
pub(crate) fn slot_of(env: &Env, path: &Path) -> Option<Slot> {
    env.state.as_deref().map(|state| Slot::of(state, path))
}

/// A file's original as kept before: where it is and its bytes.
pub(super) type Kept = (PathBuf, Vec<u8>);

/// The file's original as kept before (its slot's, else a legacy
/// `.agenthooks.bak` beside it).
fn original_of(slot: Option<&Slot>, path: &Path) -> Result<Option<Kept>, InstallError> {
    let legacy = legacy_backup(path);
    for at in slot.map(Slot::original).into_iter().chain([legacy]) {
        if let Some(bytes) = read_opt(&at, caps::HOOKS_JSON)? {
            return Ok(Some((at, bytes)));
        }
    }
    Ok(None)
}
