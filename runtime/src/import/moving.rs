//! `import --move`: once `.agents/hooks.json` runs the imported hooks, they
//! leave the agent's own files, and agenthooks' entry goes in, so each hook
//! runs once.
//!
//! What each file held before is recorded under agenthooks' state
//! directory ([`super::undo`]), so `uninstall` can put it back.
//!
//! Each file is one locked, atomic write that keeps every other byte: the
//! agent's install target through install's own planning
//! ([`crate::install::change_with`]: the hooks taken out and our entries
//! synced in the same write), any other native file (Claude Code's
//! `settings.local.json`, a Copilot hooks file of the user's) on its own.

use std::collections::BTreeMap;
use std::path::Path;

use super::edit::edit_native;
pub use super::edit::Changed;
use super::take_out::take_out;
use super::NativeFile;
use crate::agents::{Agent, NativeHook, Registration};
use crate::config::Scope;
use crate::install::{self, Action, Env, InstallError, JsonDoc};
use crate::protocol::EventName;

/// Where and how the entries are written (what `install` would write).
#[derive(Clone, Copy)]
pub struct Wiring<'a> {
    /// The project's files or the user's.
    pub scope: Scope,
    /// The project root.
    pub root: &'a Path,
    /// Where the user's files are.
    pub env: &'a Env,
    /// What the entries call (see [`install::command_line`]).
    pub binary: &'a Path,
    /// What the hooks select ([`crate::install::Request::coverage`]).
    pub coverage: Option<&'a crate::install::Coverage>,
    /// The status messages of the hooks, per event (see
    /// [`install::status_messages`]).
    pub status_messages: &'a BTreeMap<EventName, String>,
    /// The events the hooks use, which the entries are for (see
    /// [`install::Used`]).
    pub used: &'a install::Used,
}

/// Takes `moved` (per native file of `agent`, the hooks `.agents/hooks.json`
/// now runs) out of the agent's files and installs agenthooks' entry;
/// with `dry_run`, only plans it.
///
/// # Errors
/// The first file that cannot be read, parsed or written; the files before
/// it stay changed (each one whole), the others untouched.
pub fn move_out(
    agent: &'static dyn Agent,
    moved: &[(NativeFile, Vec<NativeHook>)],
    wiring: &Wiring<'_>,
    dry_run: bool,
) -> Result<Vec<Changed>, InstallError> {
    // Taking entries out is a JSON edit; a TOML file is read by
    // import but not edited here.
    if !matches!(agent.install_spec().registration, Registration::Json(_)) {
        if let Some((file, _)) = moved.first() {
            return Err(InstallError::Unchangeable {
                path: file.path.clone(),
                what: format!(
                    "`import --move` takes hooks out of JSON files only; {}'s were imported into .agents/hooks.json, take them out of this file by hand so they run once",
                    agent.display_name()
                ),
            });
        }
    }
    let target = install::native_file(agent, wiring.scope, wiring.root, wiring.env);
    let mut changed = Vec::new();
    let mut in_target: Vec<NativeHook> = Vec::new();
    let mut target_file = None;
    for (file, hooks) in moved {
        if Some(&file.path) == target.as_ref() {
            in_target.extend(hooks.iter().cloned());
            target_file = Some(file);
        } else {
            let c = out_of(agent, &file.path, hooks, dry_run)?;
            if !dry_run {
                remember(wiring.env, file, hooks, &c)?;
            }
            changed.push(c);
        }
    }
    let req = install::Request {
        agent,
        action: Action::Install,
        scope: wiring.scope,
        project_root: wiring.root,
        env: wiring.env,
        binary: wiring.binary,
        coverage: wiring.coverage,
        status_messages: wiring.status_messages,
        used: wiring.used,
    };
    let edit = |doc: &mut JsonDoc| {
        take_out(agent, &mut doc.root, &in_target);
        Ok(())
    };
    let installed = if dry_run {
        install::plan_with(&req, &edit)?
    } else {
        install::change_with(&req, &edit)?
    };
    for c in installed {
        let c = Changed {
            path: c.path,
            before: c.before,
            after: c.after,
        };
        if let (Some(file), false) = (target_file, dry_run) {
            if c.path == file.path {
                remember(wiring.env, file, &in_target, &c)?;
            }
        }
        changed.push(c);
    }
    Ok(changed)
}

/// Records what the move took out of `file` (see [`super::undo`]), when
/// it changed the file.
fn remember(
    env: &Env,
    file: &NativeFile,
    hooks: &[NativeHook],
    c: &Changed,
) -> Result<(), InstallError> {
    match (&c.before, &c.after) {
        (Some(before), Some(after)) if before != after => {
            super::undo::remember(env, file, hooks, before, after)
        }
        _ => Ok(()),
    }
}

/// The command hooks of `config` at `scope` that run what `moved` (per
/// native file, the hooks a move took out of it) ran: the same event and
/// the same [`super::normalise`]d command. What an interactive `import
/// --move` offers to trust: the user's agent ran them already.
pub fn handlers_moved<'a>(
    moved: &[(NativeFile, Vec<NativeHook>)],
    config: &'a crate::config::Config,
    scope: Scope,
    root: &Path,
) -> Vec<&'a crate::config::Handler> {
    let project = config.project_root.as_deref().or(Some(root));
    let wanted: Vec<(EventName, String)> = moved
        .iter()
        .flat_map(|(_, hooks)| {
            hooks.iter().filter_map(move |h| {
                let imported = h.import.as_ref().ok()?;
                let command = imported.handler.get("command")?.as_str()?;
                Some((imported.event, super::normalise(None, command, project)))
            })
        })
        .collect();
    config
        .handlers
        .iter()
        .filter(|h| h.scope == scope)
        .filter(|h| {
            super::twice::command_of(h).is_some_and(|c| {
                let c = super::normalise(None, c, project);
                wanted.iter().any(|(e, w)| *e == h.event && *w == c)
            })
        })
        .collect()
}

/// Takes `hooks` out of the native file at `path` (not the install target),
/// under its lock unless `dry_run`.
fn out_of(
    agent: &dyn Agent,
    path: &Path,
    hooks: &[NativeHook],
    dry_run: bool,
) -> Result<Changed, InstallError> {
    let edit = |doc: &mut JsonDoc| {
        take_out(agent, &mut doc.root, hooks);
        Ok(())
    };
    edit_native(agent, path, dry_run, false, edit).map(|(changed, _)| changed)
}
