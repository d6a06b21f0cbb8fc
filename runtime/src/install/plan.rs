//! Planning (read, compute new bytes) and applying (write) one agent's install
//! or uninstall. Planning never writes, so `--dry-run` runs the same code.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::backups::Slot;
use super::change::{read_opt, Action, FileChange, Request, Status};
use super::coverage::Coverage;
use super::detect::file_is_ours;
use super::json;
use super::launcher::{command_line, entry_lines};
use super::targets;
use super::text;
use super::wiring;
use super::InstallError;
use crate::agents::{JsonSpec, PluginSpec, Registration, ScriptSpec};
use crate::atomic::{self, Lock};
use crate::config::Scope;
use crate::fsread::{caps, open_bounded, ReadError};

/// Per event, the distinct `statusMessage`s of `handlers`, in declaration
/// order, joined with `; ` and kept to one bounded line.
pub fn status_messages(
    handlers: &[crate::config::Handler],
) -> std::collections::BTreeMap<crate::protocol::EventName, String> {
    let mut by_event: std::collections::BTreeMap<_, Vec<String>> = Default::default();
    for h in handlers {
        let Some(message) = h.status_message.as_deref().map(crate::protocol::one_line) else {
            continue;
        };
        let messages = by_event.entry(h.event).or_default();
        if !message.is_empty() && !messages.contains(&message) {
            messages.push(message);
        }
    }
    by_event
        .into_iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(event, m)| (event, crate::protocol::one_line(&m.join("; "))))
        .collect()
}

/// Refuses project scope for an agent with no project file of its own
/// ([`crate::agents::USER_ONLY`]): without this its "project file" would be
/// the project directory itself.
fn user_only(req: &Request<'_>) -> Result<(), InstallError> {
    if req.scope == Scope::Project && req.agent.install_spec().project == crate::agents::USER_ONLY {
        return Err(InstallError::UserOnly {
            agent: req.agent.display_name(),
            id: req.agent.id(),
        });
    }
    Ok(())
}

/// The agent's native file at the request's scope.
fn target_path(req: &Request<'_>) -> Result<PathBuf, InstallError> {
    let spec = req.agent.install_spec();
    targets::path(spec, req.scope, req.project_root, req.env).ok_or(InstallError::NoManagedScope {
        agent: req.agent.display_name(),
        id: req.agent.id(),
        os: super::Os::CURRENT.name(),
    })
}

/// Plans one agent's install or uninstall: the files it would touch, with
/// their bytes before and after. Writes nothing.
///
/// # Errors
/// When a file cannot be read or parsed, or is in the way; nothing of this
/// agent should be written then.
pub fn plan(req: &Request<'_>) -> Result<Vec<FileChange>, InstallError> {
    plan_with(req, &|_| Ok(()))
}

/// What an install or uninstall also changes in the agent's JSON file, in
/// the same write, before our entries are synced: `import --move` takes the
/// hooks it moved out of it, `uninstall` puts them back (or the whole text
/// from before the move, [`json::Doc::parse`]d in place of the file's).
pub type Edit<'a> = &'a dyn Fn(&mut json::Doc) -> Result<(), InstallError>;

/// [`plan`], with `edit` applied to the agent's JSON file (its parsed root)
/// before our entries are synced, so both changes are one write.
///
/// # Errors
/// As [`plan`].
pub fn plan_with(req: &Request<'_>, edit: Edit<'_>) -> Result<Vec<FileChange>, InstallError> {
    let spec = req.agent.install_spec();
    user_only(req)?;
    let path = target_path(req)?;
    let stop = match req.scope {
        Scope::Project => req.project_root.to_path_buf(),
        Scope::User => req.env.home.clone(),
        Scope::Managed => req.env.system_base(&path),
    };
    match &spec.registration {
        Registration::Json(j) => plan_json(req, j, path, &stop, edit).map(|c| vec![c]),
        Registration::Scripts(s) => plan_scripts(req, s, &path, &stop),
        Registration::Plugin(p) => plan_plugin(req, p, path, &stop).map(|c| vec![c]),
        Registration::Toml(t) => {
            let wanted = text::entries(req, t.handler, Some(t.timeout_range), false);
            let id = req.agent.id();
            let edit = |text: &str, w: &[text::Entry]| super::toml::edit(text, t, id, w);
            text::plan(req, path, &stop, &wanted, &edit).map(|c| vec![c])
        }
        Registration::Yaml(y) => {
            let wanted = text::entries(req, y.handler, None, y.argv);
            let id = req.agent.id();
            let edit = |text: &str, w: &[text::Entry]| super::yaml::edit(text, y, id, w);
            text::plan(req, path, &stop, &wanted, &edit).map(|c| vec![c])
        }
    }
}

fn plan_json(
    req: &Request<'_>,
    t: &JsonSpec,
    path: PathBuf,
    stop: &Path,
    edit: Edit<'_>,
) -> Result<FileChange, InstallError> {
    let id = req.agent.id();
    let before = read_opt(&path, caps::HOOKS_JSON)?;
    let mut doc = json::Doc::parse(&path, before.as_deref(), t.jsonc)?;
    edit(&mut doc)?;
    let extras = targets::root_keys(t);
    let (mut change, original) = FileChange::starting(req.env, &path, &before, stop)?;
    match req.action {
        Action::Install => {
            let wanted = wanted_entries(req, t);
            if wanted.is_empty() {
                return Ok(change);
            }
            // A file that holds entries of ours already is one install
            // created or backed up before: its backup, if any, is the user's.
            let had_ours = json::has_ours(&doc.root, t.shape, id);
            if before.is_none() {
                for (k, v) in &extras {
                    doc.root.insert((*k).to_string(), v.clone());
                }
            }
            json::sync(&path, &mut doc.root, t.shape, id, &wanted)?;
            for (k, v) in extras {
                doc.root.entry(k.to_string()).or_insert(v);
            }
            let after = doc.render()?;
            if before.as_ref() == Some(&after) {
                return Ok(change);
            }
            change.after = Some(after);
            if before.is_some() && !had_ours && original.is_none() {
                change.backup = change.backups.as_ref().map(Slot::original);
            }
        }
        Action::Uninstall => {
            json::sync(&path, &mut doc.root, t.shape, id, &[])?;
            if before.is_none() && doc.root.is_empty() {
                return Ok(change);
            }
            // Unchanged unless an entry of ours went, or the edit (a move
            // undone) changed the file or put another text in its place.
            let text = doc.render()?;
            if !doc.changed() && before.as_ref() == Some(&text) {
                return Ok(change);
            }
            let (backup, backup_bytes) = original.unzip();
            let backup_root = backup
                .as_deref()
                .zip(backup_bytes.as_deref())
                .and_then(|(at, b)| json::parse(at, b, t.jsonc).ok())
                .map(|d| d.root);
            if let Some(b) = &backup_root {
                keep_empty_containers(&mut doc.root, b);
            }
            drop_added_root_keys(&mut doc.root, &extras, backup_root.as_ref());
            if let (Some(bytes), Some(b)) = (backup_bytes, &backup_root) {
                // The file as install found it, unless the user wrote a
                // comment since: then the edited text, which keeps it.
                if *b == doc.root {
                    change.after = Some(if doc.comments_kept_by(&bytes) {
                        bytes
                    } else {
                        doc.render()?
                    });
                    change.drop_backup = backup;
                    return Ok(change);
                }
            }
            change.after = if doc.root.is_empty() && backup_root.is_none() {
                None
            } else {
                Some(doc.render()?)
            };
        }
    }
    Ok(change)
}

/// The entries install wants in `t`'s file: per event the hooks use, one
/// per binary and native matcher ([`Coverage::entries`]), under the
/// agent's own event name.
fn wanted_entries(req: &Request<'_>, t: &JsonSpec) -> Vec<(String, Value)> {
    wiring::rows(req.agent.table(), req.used)
        .into_iter()
        .flat_map(|row| {
            let timeout = targets::native_timeout(req.agent, row.canonical);
            let status = req.status_messages.get(&row.canonical).map(String::as_str);
            Coverage::entries(req.coverage, req.agent, row, req.scope)
                .into_iter()
                .map(move |wired| {
                    let (command, powershell) =
                        entry_lines(req.binary, req.agent, row.native, req.scope, &wired);
                    let matcher = wired.matcher.as_deref();
                    let entry = targets::entry(t, &command, &powershell, timeout, status, matcher);
                    (row.native.to_string(), entry)
                })
        })
        .collect()
}

/// Root keys install adds (Copilot's and Cursor's `version`) go again when
/// they were ours: the backup (the file as install found it) lacks them, or
/// there is no backup and nothing else is left (install created the file).
/// Without a backup a key next to the user's own hooks may be the user's,
/// so it stays.
fn drop_added_root_keys(
    root: &mut Map<String, Value>,
    extras: &[(&str, Value)],
    backup_root: Option<&Map<String, Value>>,
) {
    for (k, v) in extras {
        let ours = match backup_root {
            Some(b) => !b.contains_key(*k),
            None => !root.contains_key("hooks"),
        };
        if ours && root.get(*k) == Some(v) {
            root.shift_remove(*k);
        }
    }
}

/// Puts back the empty `hooks` object and empty event arrays the file had
/// before install (`backup`) that became empty again by taking our entries
/// out: install filled them, so [`json::sync`] cannot tell them from
/// containers it created.
fn keep_empty_containers(root: &mut Map<String, Value>, backup: &Map<String, Value>) {
    let Some(Value::Object(had)) = backup.get("hooks") else {
        return;
    };
    let empty = |items: &Value| items.as_array().is_some_and(Vec::is_empty);
    // A `hooks` that held hooks then (which went since, as `import --move`
    // takes them) is not one the user left empty.
    if !had.is_empty() && !had.values().any(empty) {
        return;
    }
    let hooks = root
        .entry("hooks".to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return;
    };
    for (event, items) in had {
        if empty(items) && !hooks.contains_key(event) {
            hooks.insert(event.clone(), Value::Array(Vec::new()));
        }
    }
}

fn plan_scripts(
    req: &Request<'_>,
    spec: &ScriptSpec,
    dir: &Path,
    stop: &Path,
) -> Result<Vec<FileChange>, InstallError> {
    let id = req.agent.id();
    let wanted: Vec<(&str, String)> = match req.action {
        Action::Install => wiring::rows(req.agent.table(), req.used)
            .into_iter()
            .map(|row| {
                let command = command_line(&req.program(), req.agent, row.native);
                (row.native, (spec.text)(&command, id))
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
                why: format!(
                    "{} runs one script per event and this one is the user's own; move what it does into `.agents/hooks.json` (or delete it), then install again",
                    req.agent.display_name()
                ),
            });
        }
        if ours && !wanted.iter().any(|(event, _)| *event == name) {
            let before = read_opt(&path, caps::SCRIPT)?;
            let mut change = FileChange::unchanged(path, before, stop);
            change.after = None;
            changes.push(change);
        }
    }
    for (event, script) in wanted {
        let path = dir.join(event);
        let before = read_opt(&path, caps::SCRIPT)?;
        let mut change = FileChange::unchanged(path, before, stop);
        change.after = Some(script.into_bytes());
        change.executable = true;
        changes.push(change);
    }
    Ok(changes)
}

fn plan_plugin(
    req: &Request<'_>,
    spec: &PluginSpec,
    path: PathBuf,
    stop: &Path,
) -> Result<FileChange, InstallError> {
    let id = req.agent.id();
    let before = read_opt(&path, caps::SCRIPT)?;
    if before.is_some() && !file_is_ours(&path, id) {
        return Err(InstallError::Conflict {
            path,
            why: "this plugin file was not written by agenthooks".to_string(),
        });
    }
    let mut change = FileChange::unchanged(path, before, stop);
    change.after = match req.action {
        Action::Install => {
            let events = wiring::rows(req.agent.table(), req.used);
            Some((spec.text)(&req.program(), &events).into_bytes())
        }
        Action::Uninstall => None,
    };
    Ok(change)
}

/// Plans and applies one agent's change while holding the lock of the file
/// it changes (`Lock`), so that no other install or uninstall reads the
/// file between this one's read and its write: what `install` and
/// `uninstall` run (a dry run calls [`plan`] alone and locks nothing).
///
/// A symlinked native file is locked and written at its target. Directories
/// created for the file (or for its lock) are removed again when nothing was
/// written.
///
/// # Errors
/// As [`plan`] and [`apply`]; also when the lock stays held by another
/// process for `atomic::LOCK_WAIT`.
pub fn change(req: &Request<'_>) -> Result<Vec<FileChange>, InstallError> {
    change_with(req, &|_| Ok(()))
}

/// [`change`], with `edit` applied as [`plan_with`] does, under the same lock
/// and in the same write.
///
/// # Errors
/// As [`change`].
pub fn change_with(req: &Request<'_>, edit: Edit<'_>) -> Result<Vec<FileChange>, InstallError> {
    let spec = req.agent.install_spec();
    user_only(req)?;
    let path = target_path(req)?;
    let target = atomic::resolve(&path).map_err(|e| InstallError::io(&path, e))?;
    if !matches!(spec.registration, Registration::Scripts(_)) {
        // A FIFO or a device (a link to `/dev/zero`) is refused before a lock
        // file is made next to it.
        match open_bounded(&path, u64::MAX) {
            Ok(_) | Err(ReadError::NotFound { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return plan_with(req, edit).and_then(|c| apply(&c).map(|()| c));
    };
    let mut attempts = 0;
    loop {
        let created = if req.action == Action::Install {
            create_dirs(dir)?
        } else if dir.is_dir() {
            Vec::new()
        } else {
            // Nothing to uninstall where the directory does not exist.
            return plan_with(req, edit);
        };
        let lock = match Lock::acquire(&target, atomic::LOCK_WAIT) {
            Ok(lock) => lock,
            // Another uninstall removed the (empty) directory meanwhile.
            Err(e) if e.kind() == io::ErrorKind::NotFound && attempts < 3 => {
                attempts += 1;
                continue;
            }
            Err(e) => return Err(InstallError::io(&atomic::lock_path(&target), e)),
        };
        let result = plan_with(req, edit).and_then(|c| apply_changes(&c, false).map(|()| c));
        if let (Ok(changes), Scope::Managed) = (&result, req.scope) {
            for c in changes.iter().filter(|c| c.status() == Status::Created) {
                atomic::not_writable_by_others(&c.path)
                    .map_err(|e| InstallError::io(&c.path, e))?;
            }
        }
        // Unlocked first: the lock file is in the directories pruned below.
        drop(lock);
        match &result {
            Ok(changes) if changes.iter().any(|c| c.status() != Status::Unchanged) => {
                for c in changes.iter().filter(|c| c.after.is_none()) {
                    prune_empty_dirs(&c.path, &c.stop);
                }
            }
            _ => {
                for d in created.iter().rev() {
                    // Fails (and is left) when something else is in it now.
                    let _ = fs::remove_dir(d);
                }
            }
        }
        return result;
    }
}

/// Creates `dir` and its missing parents; returns the ones it created,
/// outermost first.
fn create_dirs(dir: &Path) -> Result<Vec<PathBuf>, InstallError> {
    let mut missing = Vec::new();
    let mut d = Some(dir);
    while let Some(p) = d {
        if p.as_os_str().is_empty() || p.exists() {
            break;
        }
        missing.push(p.to_path_buf());
        d = p.parent();
    }
    missing.reverse();
    fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    Ok(missing)
}

/// Writes planned changes: backups first (into the file's folder under the
/// state directory, see [`super::backups`]), then the file, each atomically
/// (see `crate::atomic::write`); a symlinked file is written at its target,
/// so the link stays a link. Deletions also remove the directories they leave empty.
///
/// # Errors
/// The first write that fails. That file keeps its old bytes (and an
/// original backup made for it in this call is removed again); changes to
/// other files before it stay applied.
pub fn apply(changes: &[FileChange]) -> Result<(), InstallError> {
    apply_changes(changes, true)
}

/// [`apply`], removing the directories a deletion leaves empty when `prune`.
fn apply_changes(changes: &[FileChange], prune: bool) -> Result<(), InstallError> {
    for change in changes {
        if change.status() == Status::Unchanged {
            continue;
        }
        let new_backup = keep_backups(change)?;
        match &change.after {
            Some(bytes) => {
                let written = atomic::resolve(&change.path)
                    .and_then(|target| {
                        if let Some(parent) = target.parent() {
                            fs::create_dir_all(parent)?;
                        }
                        atomic::write(&target, bytes, change.executable)
                    })
                    .map_err(|e| InstallError::write(&change.path, e));
                if let Err(e) = written {
                    if let Some(backup) = new_backup {
                        let _ = atomic::remove(&backup);
                    }
                    if let Some(slot) = &change.backups {
                        slot.remove_if_unused();
                    }
                    return Err(e);
                }
            }
            None => {
                atomic::remove(&change.path).map_err(|e| InstallError::io(&change.path, e))?;
                if prune {
                    prune_empty_dirs(&change.path, &change.stop);
                }
            }
        }
        // The file is as agenthooks found it (or gone, when install had
        // created it): its backups have nothing left to give back.
        if change.drop_backup.is_some() || change.after.is_none() {
            if let Some(backup) = &change.drop_backup {
                atomic::remove(backup).map_err(|e| InstallError::io(backup, e))?;
            }
            if let Some(slot) = &change.backups {
                slot.remove().map_err(|e| InstallError::io(slot.dir(), e))?;
            }
        }
    }
    Ok(())
}

/// Before a file is written: its original (the first time) or else the
/// bytes this write replaces, kept in its folder of backups. Returns the
/// original when this call wrote it.
fn keep_backups(change: &FileChange) -> Result<Option<PathBuf>, InstallError> {
    let (Some(slot), Some(before)) = (&change.backups, &change.before) else {
        return Ok(None);
    };
    if change.backup.is_some() {
        let at = slot.original();
        return match slot.keep_original(before) {
            Ok(true) => Ok(Some(at)),
            Ok(false) => Ok(None),
            Err(e) => Err(InstallError::write(&at, e)),
        };
    }
    if change.drop_backup.is_none() && change.after.is_some() {
        slot.keep_previous(before)
            .map_err(|e| InstallError::write(slot.dir(), e))?;
    }
    Ok(None)
}

/// Removes the empty directories above a deleted file, stopping at `stop`
/// (never removed), at agenthooks' own `.agents/` (the hooks config's
/// home, even when empty: Goose's plugin lives below it) and at the first
/// directory that is not empty.
fn prune_empty_dirs(file: &Path, stop: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == stop || !d.starts_with(stop) || d == stop.join(".agents") {
            break;
        }
        // Fails (and stops) when the directory is not empty.
        if fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::{Env, Used};

    #[test]
    fn a_script_agent_s_refusal_names_that_agent() {
        use crate::agents::{cline, ClaudeLike, Dialect, Info, InstallSpec, UserPath};
        // Another agent registered by scripts, as Cline is.
        static INSTALL: InstallSpec = InstallSpec::new(
            Registration::Scripts(ScriptSpec {
                text: |command, _| format!("#!/bin/sh\n{command}\n"),
            }),
            ".other/hooks",
            UserPath::home(".other/hooks"),
        );
        static OTHER: ClaudeLike = ClaudeLike::new(
            Info::new("other", "Other Agent", &cline::TABLE, &INSTALL),
            Dialect::Claude,
        );
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path().join(".other/hooks");
        fs::create_dir_all(&hooks).unwrap();
        fs::write(hooks.join("PreToolUse"), "#!/bin/sh\necho '{}'\n").unwrap();
        let env = Env::with_home(dir.path().join("home"));
        let req = Request {
            agent: &OTHER,
            action: Action::Install,
            scope: Scope::Project,
            project_root: dir.path(),
            env: &env,
            binary: Path::new("agenthooks"),
            coverage: None,
            status_messages: &Default::default(),
            used: &Used::Unknown,
        };
        match plan(&req) {
            Err(InstallError::Conflict { why, .. }) => {
                assert!(
                    why.starts_with("Other Agent runs one script per event"),
                    "{why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
