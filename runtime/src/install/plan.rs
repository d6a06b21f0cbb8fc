//! Planning (read, compute new bytes) and applying (write) one agent's install
//! or uninstall. Planning never writes, so `--dry-run` runs the same code.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::detect::{file_is_ours, Env};
use super::json::{self, Layout};
use super::targets;
use super::InstallError;
use crate::agents::{Agent, JsonSpec, Registration};
use crate::config::Scope;

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
    /// The absolute path of the `agenthooks` binary the entries call.
    pub binary: &'a Path,
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
    /// Copy `before` here first, unless that file exists already.
    pub backup: Option<PathBuf>,
    /// Delete this backup afterwards (its bytes were put back).
    pub drop_backup: Option<PathBuf>,
    /// Empty directories left by a deletion are removed up to (not including) this one.
    stop: PathBuf,
}

impl FileChange {
    fn unchanged(path: PathBuf, before: Option<Vec<u8>>, stop: &Path) -> FileChange {
        FileChange {
            path,
            after: before.clone(),
            before,
            executable: false,
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
        let text = |b: &Option<Vec<u8>>| {
            b.as_deref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default()
        };
        let (old, new) = (text(&self.before), text(&self.after));
        let a = if self.before.is_some() {
            format!("a/{label}")
        } else {
            "/dev/null".to_string()
        };
        let b = if self.after.is_some() {
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
}

/// The command line an entry runs: the binary (shell-quoted when it needs to
/// be), `run --agent <agent> --event <event>`.
pub fn command_line(binary: &Path, agent: &str, event: &str) -> String {
    format!(
        "{} run --agent {agent} --event {event}",
        shell_quote(&binary.to_string_lossy())
    )
}

fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn read_opt(path: &Path) -> Result<Option<Vec<u8>>, InstallError> {
    match fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InstallError::io(path, e)),
    }
}

/// `<file>.agenthooks.bak`.
pub(crate) fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".agenthooks.bak");
    path.with_file_name(name)
}

/// Plans one agent's install or uninstall: the files it would touch, with
/// their bytes before and after. Writes nothing.
///
/// # Errors
/// When a file cannot be read or parsed, or is in the way; nothing of this
/// agent should be written then.
pub fn plan(req: &Request<'_>) -> Result<Vec<FileChange>, InstallError> {
    let spec = req.agent.install_spec();
    let path = targets::path(spec, req.scope, req.project_root, req.env);
    let stop = match req.scope {
        Scope::Project => req.project_root.to_path_buf(),
        Scope::User => req.env.home.clone(),
    };
    match &spec.registration {
        Registration::Json(j) => plan_json(req, j, path, &stop).map(|c| vec![c]),
        Registration::Scripts => plan_scripts(req, &path, &stop),
        Registration::Plugin => plan_plugin(req, path, &stop).map(|c| vec![c]),
    }
}

fn plan_json(
    req: &Request<'_>,
    t: &JsonSpec,
    path: PathBuf,
    stop: &Path,
) -> Result<FileChange, InstallError> {
    let id = req.agent.id();
    let before = read_opt(&path)?;
    let (mut root, layout) = match &before {
        Some(bytes) => {
            let doc = json::parse(&path, bytes, t.jsonc)?;
            (doc.root, doc.layout)
        }
        None => (Map::new(), Layout::fresh()),
    };
    let original = root.clone();
    let extras = targets::root_keys(t);
    let backup = backup_of(&path);
    let mut change = FileChange::unchanged(path.clone(), before.clone(), stop);
    match req.action {
        Action::Install => {
            let wanted: Vec<(String, Value)> = req
                .agent
                .table()
                .installed()
                .map(|row| {
                    let command = command_line(req.binary, id, row.native);
                    let timeout = targets::native_timeout(id, row.canonical);
                    (row.native.to_string(), targets::entry(t, &command, timeout))
                })
                .collect();
            if wanted.is_empty() {
                return Ok(change);
            }
            if before.is_none() {
                for (k, v) in &extras {
                    root.insert((*k).to_string(), v.clone());
                }
            }
            json::sync(&path, &mut root, t.shape, id, &wanted)?;
            for (k, v) in extras {
                root.entry(k.to_string()).or_insert(v);
            }
            if before.is_some() && root == original {
                return Ok(change);
            }
            change.after = Some(layout.render(&Value::Object(root)).into_bytes());
            if before.is_some() && !backup.exists() {
                change.backup = Some(backup);
            }
        }
        Action::Uninstall => {
            if before.is_none() {
                return Ok(change);
            }
            json::sync(&path, &mut root, t.shape, id, &[])?;
            if root == original {
                return Ok(change);
            }
            let backup_bytes = read_opt(&backup)?;
            let backup_root = backup_bytes
                .as_deref()
                .and_then(|b| json::parse(&backup, b, t.jsonc).ok())
                .map(|d| d.root);
            if !root.contains_key("hooks") {
                // Root keys install adds (Copilot's `version`) go again when
                // they were ours: no backup (install created the file), or a
                // backup without them.
                for (k, v) in &extras {
                    let ours = backup_root.as_ref().is_none_or(|b| !b.contains_key(*k));
                    if ours && root.get(*k) == Some(v) {
                        root.shift_remove(*k);
                    }
                }
            }
            if let (Some(bytes), Some(b)) = (backup_bytes, &backup_root) {
                if *b == root {
                    change.after = Some(bytes);
                    change.drop_backup = Some(backup);
                    return Ok(change);
                }
            }
            change.after = if root.is_empty() && backup_root.is_none() {
                None
            } else {
                Some(layout.render(&Value::Object(root)).into_bytes())
            };
        }
    }
    Ok(change)
}

/// Cline's hook file for one event: a shell script that hands over to `run`.
fn cline_script(command: &str, agent: &str) -> String {
    format!(
        "#!/bin/sh\n# Written by `agenthooks install {agent}`; `agenthooks uninstall {agent}` removes it.\nexec {command}\n"
    )
}

fn plan_scripts(
    req: &Request<'_>,
    dir: &Path,
    stop: &Path,
) -> Result<Vec<FileChange>, InstallError> {
    let id = req.agent.id();
    let wanted: Vec<(&str, String)> = match req.action {
        Action::Install => req
            .agent
            .table()
            .installed()
            .map(|row| {
                let command = command_line(req.binary, id, row.native);
                (row.native, cline_script(&command, id))
            })
            .collect(),
        Action::Uninstall => Vec::new(),
    };
    let mut changes = Vec::new();
    let mut existing: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(InstallError::io(dir, e)),
    };
    existing.sort();
    for path in existing {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let stem = name.split('.').next().unwrap_or_default();
        let ours = file_is_ours(&path, id);
        let claimed = wanted
            .iter()
            .any(|(event, _)| event.eq_ignore_ascii_case(stem));
        if !ours && claimed && !name.ends_with(".agenthooks.bak") {
            return Err(InstallError::Conflict {
                path,
                why: "Cline runs one script per event and this one is the user's own; move what it does into `.agents/hooks.json` (or delete it), then install again".to_string(),
            });
        }
        if ours && !wanted.iter().any(|(event, _)| *event == name) {
            let before = read_opt(&path)?;
            let mut change = FileChange::unchanged(path, before, stop);
            change.after = None;
            changes.push(change);
        }
    }
    for (event, script) in wanted {
        let path = dir.join(event);
        let before = read_opt(&path)?;
        let mut change = FileChange::unchanged(path, before, stop);
        change.after = Some(script.into_bytes());
        change.executable = true;
        changes.push(change);
    }
    Ok(changes)
}

fn plan_plugin(req: &Request<'_>, path: PathBuf, stop: &Path) -> Result<FileChange, InstallError> {
    let id = req.agent.id();
    let before = read_opt(&path)?;
    if before.is_some() && !file_is_ours(&path, id) {
        return Err(InstallError::Conflict {
            path,
            why: "this plugin file was not written by agenthooks".to_string(),
        });
    }
    let mut change = FileChange::unchanged(path, before, stop);
    change.after = match req.action {
        Action::Install => {
            Some(super::opencode::plugin(req.binary, req.agent.table()).into_bytes())
        }
        Action::Uninstall => None,
    };
    Ok(change)
}

/// Writes planned changes: backup first, then the file; deletions also remove
/// the directories they leave empty.
///
/// # Errors
/// The first write that fails (changes before it stay applied).
pub fn apply(changes: &[FileChange]) -> Result<(), InstallError> {
    for change in changes {
        if change.status() == Status::Unchanged {
            continue;
        }
        if let (Some(backup), Some(before)) = (&change.backup, &change.before) {
            if !backup.exists() {
                fs::write(backup, before).map_err(|e| InstallError::io(backup, e))?;
            }
        }
        match &change.after {
            Some(bytes) => {
                if let Some(parent) = change.path.parent() {
                    fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
                }
                fs::write(&change.path, bytes).map_err(|e| InstallError::io(&change.path, e))?;
                if change.executable {
                    make_executable(&change.path)?;
                }
            }
            None => {
                match fs::remove_file(&change.path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(InstallError::io(&change.path, e)),
                }
                prune_empty_dirs(&change.path, &change.stop);
            }
        }
        if let Some(backup) = &change.drop_backup {
            fs::remove_file(backup).map_err(|e| InstallError::io(backup, e))?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), InstallError> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(|e| InstallError::io(path, e))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> Result<(), InstallError> {
    Ok(())
}

/// Removes the empty directories above a deleted file, stopping at `stop`
/// (never removed) and at the first directory that is not empty.
fn prune_empty_dirs(file: &Path, stop: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == stop || !d.starts_with(stop) {
            break;
        }
        // Fails (and stops) when the directory is not empty.
        if fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}
