//! Planning and applying one `agenthooks import`: the lines it prints and the
//! new bytes of `.agents/hooks.json`. Planning writes nothing, so
//! `--dry-run` is the same code; [`apply`] then writes under the file's lock.

use std::path::{Path, PathBuf};

use super::merge::{merge, Merged};
use super::{native_files, show, NativeFile};
use crate::agents::{Agent, NativeHook};
use crate::atomic::{self, Lock};
use crate::config::Scope;
use crate::fsread::{caps, read_bounded, ReadError};
use crate::install::{Env, InstallError, JsonDoc};
use crate::protocol::one_line;

/// What to import.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The agents whose native files are read.
    pub agents: &'a [&'static dyn Agent],
    /// The project's files (into `<root>/.agents/hooks.json`) or the
    /// user's (into `~/.agents/hooks.json`).
    pub scope: Scope,
    /// The project root.
    pub root: &'a Path,
    /// Where the user's files are.
    pub env: &'a Env,
}

impl Request<'_> {
    /// The `.agents/hooks.json` the hooks go into.
    pub fn hooks_file(&self) -> PathBuf {
        match self.scope {
            Scope::User | Scope::Managed => self.env.home.join(".agents/hooks.json"),
            Scope::Project => self.root.join(".agents/hooks.json"),
        }
    }

    fn show(&self, path: &Path) -> String {
        show(path, self.root, &self.env.home)
    }
}

/// One planned import.
#[derive(Clone)]
pub struct Plan {
    /// One line per hook imported, per hook already there, per hook not
    /// imported and per thing a hook could not carry, in file order.
    pub lines: Vec<String>,
    /// Files that could not be read, one line each.
    pub errors: Vec<String>,
    /// The `.agents/hooks.json` written.
    pub hooks_file: PathBuf,
    /// Its bytes now (`None`: it does not exist).
    pub before: Option<Vec<u8>>,
    /// Its bytes after.
    pub after: Option<Vec<u8>>,
    /// Command hooks added (project ones wait for `agenthooks trust`).
    pub added: usize,
    /// Per native file read, the hooks `.agents/hooks.json` now runs (added
    /// or already there): what `--move` takes out of it.
    pub moved: Vec<(NativeFile, Vec<NativeHook>)>,
}

/// Plans the import. Writes nothing.
///
/// # Errors
/// When `.agents/hooks.json` cannot be read or parsed, or its `hooks` is
/// not Claude's shape.
pub fn plan(req: &Request<'_>) -> Result<Plan, InstallError> {
    let hooks_file = req.hooks_file();
    let before = match read_bounded(&hooks_file, caps::HOOKS_JSON) {
        Ok(b) => Some(b),
        Err(ReadError::NotFound { .. }) => None,
        Err(e) => return Err(e.into()),
    };
    // `.agents/hooks.json` is strict JSON; what import adds is edited into
    // its text, every other byte kept.
    let mut doc = JsonDoc::parse(&hooks_file, before.as_deref(), false)?;
    let project = (req.scope == Scope::Project).then_some(req.root);
    let mut plan = Plan {
        lines: Vec::new(),
        errors: Vec::new(),
        hooks_file: hooks_file.clone(),
        before: before.clone(),
        after: before.clone(),
        added: 0,
        moved: Vec::new(),
    };
    for agent in req.agents {
        let (files, errors) = native_files(*agent, req.scope, req.root, req.env);
        plan.errors.extend(errors);
        for file in files {
            let mut moved = Vec::new();
            for hook in &file.hooks {
                let at = format!(
                    "{}: {} {} `{}`",
                    agent.id(),
                    req.show(&file.path),
                    one_line(&hook.native_event),
                    one_line(&shorten(hook.command.as_deref().unwrap_or("")))
                );
                let imported = match &hook.import {
                    Ok(i) => i,
                    Err(why) => {
                        plan.lines.push(format!("{at}: not imported: {why}"));
                        continue;
                    }
                };
                let merged = merge(&mut doc.root, imported, project).map_err(|why| {
                    InstallError::Conflict {
                        path: hooks_file.clone(),
                        why,
                    }
                })?;
                let on = imported
                    .matcher
                    .as_deref()
                    .map(|m| format!(" on `{}`", one_line(m)))
                    .unwrap_or_default();
                let event = imported.event.as_str();
                match merged {
                    Merged::Added => {
                        plan.added += 1;
                        plan.lines.push(format!("{at}: imported as {event}{on}"));
                    }
                    Merged::AlreadyThere => plan.lines.push(format!(
                        "{at}: already in {} as {event}{on}",
                        req.show(&hooks_file)
                    )),
                }
                for what in &imported.dropped {
                    plan.lines
                        .push(format!("{at}: not carried: {}", one_line(what)));
                }
                moved.push(hook.clone());
            }
            if !moved.is_empty() {
                plan.moved.push((file, moved));
            }
        }
    }
    if doc.changed() {
        // A file import creates is marked as agenthooks' own, for Antigravity
        // ([`crate::config::edit::SCHEMA`]).
        if before.as_deref().is_none_or(|b| b.trim_ascii().is_empty()) {
            let mut root = serde_json::Map::new();
            root.insert("$schema".into(), crate::config::edit::SCHEMA.into());
            root.append(&mut doc.root);
            doc.root = root;
        }
        plan.after = Some(doc.render()?);
    }
    Ok(plan)
}

/// A command cut to a readable length for a line.
pub(crate) fn shorten(command: &str) -> String {
    const MAX: usize = 80;
    if command.chars().count() <= MAX {
        return command.to_string();
    }
    let cut: String = command.chars().take(MAX).collect();
    format!("{cut}…")
}

/// Plans and writes the import while holding the lock of
/// `.agents/hooks.json`, atomically (a crash leaves the old file whole).
///
/// # Errors
/// As [`plan`]; also when the lock stays held, or the write fails (the file
/// then keeps its old bytes).
pub fn apply(req: &Request<'_>) -> Result<Plan, InstallError> {
    let path = req.hooks_file();
    let target = atomic::resolve(&path).map_err(|e| InstallError::io(&path, e))?;
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let created = !dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    let lock = Lock::acquire(&target, atomic::LOCK_WAIT)
        .map_err(|e| InstallError::io(&atomic::lock_path(&target), e))?;
    let planned = plan(req);
    let result = planned.and_then(|p| {
        if p.after != p.before {
            if let Some(bytes) = &p.after {
                atomic::write(&target, bytes, false).map_err(|e| InstallError::write(&path, e))?;
            }
        }
        Ok(p)
    });
    drop(lock);
    if created && !matches!(&result, Ok(p) if p.after != p.before) {
        let _ = std::fs::remove_dir(dir);
    }
    result
}
