//! Where things are: the project root, the user's config homes, which agents a
//! project uses and which have our entries installed.

use std::fs;
use std::path::{Path, PathBuf};

use super::json;
use super::targets;
use super::{Env, Os};
use crate::agents::{Agent, Registration, AGENTS};
use crate::config::Scope;
use crate::fsread::{self, caps};

/// The project root for `cwd`: `$CLAUDE_PROJECT_DIR`, else the nearest
/// ancestor holding `.agents/` or `.git`, else `cwd` itself.
pub fn project_root(cwd: &Path) -> PathBuf {
    crate::config::project_root(Some(cwd)).unwrap_or_else(|| cwd.to_path_buf())
}

/// The agents whose config folders exist in the project (or, for user scope,
/// under the home directory; for the managed scope, the folder of their
/// system-wide file), in [`AGENTS`] order.
pub fn detected(scope: Scope, project_root: &Path, env: &Env) -> Vec<&'static dyn Agent> {
    AGENTS
        .iter()
        .copied()
        .filter(|agent| {
            let spec = agent.install_spec();
            match scope {
                Scope::Project => spec.detect.iter().any(|p| project_root.join(p).exists()),
                Scope::User => spec.detect_user.iter().any(|p| env.user_path(*p).exists()),
                // The agent's system folder (`/etc/claude-code`) exists.
                Scope::Managed => env
                    .system_path(&spec.system, Os::CURRENT)
                    .is_some_and(|f| f.parent().is_some_and(Path::is_dir)),
            }
        })
        .collect()
}

/// The agents that have entries of ours in their native config at this
/// scope, in [`AGENTS`] order. Unreadable files count as not installed.
pub fn installed(scope: Scope, project_root: &Path, env: &Env) -> Vec<&'static dyn Agent> {
    AGENTS
        .iter()
        .copied()
        .filter(|agent| is_installed(*agent, scope, project_root, env))
        .collect()
}

/// Whether `agent` has entries of ours in its native config at this scope.
/// Reads that one file (or directory); an unreadable one counts as not
/// installed.
pub fn is_installed(agent: &dyn Agent, scope: Scope, project_root: &Path, env: &Env) -> bool {
    let spec = agent.install_spec();
    let Some(path) = targets::path(spec, scope, project_root, env) else {
        return false;
    };
    match &spec.registration {
        // A project's native config may be a FIFO or `/dev/zero`: bounded reads.
        Registration::Json(j) => fsread::read_bounded(&path, caps::HOOKS_JSON)
            .ok()
            .and_then(|bytes| json::parse(&path, &bytes, j.jsonc).ok())
            .is_some_and(|doc| json::has_ours(&doc.root, j.shape, agent.id())),
        Registration::Scripts(_) => fs::read_dir(&path).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| file_is_ours(&e.path(), agent.id()))
        }),
        Registration::Plugin(_) | Registration::Toml(_) | Registration::Yaml(_) => {
            file_is_ours(&path, agent.id())
        }
    }
}

/// The native events `agent` has entries of ours for at this scope (the
/// `--event` of each launcher line install wrote, once each, in file
/// order): empty when it is not installed there. Reads what
/// [`is_installed`] reads, bounded; an unreadable file counts as empty.
pub fn installed_events(
    agent: &dyn Agent,
    scope: Scope,
    project_root: &Path,
    env: &Env,
) -> Vec<String> {
    let spec = agent.install_spec();
    let Some(path) = targets::path(spec, scope, project_root, env) else {
        return Vec::new();
    };
    let lines_of = |file: &Path| -> Vec<String> {
        fsread::read_bounded(file, caps::SCRIPT)
            .map(|bytes| {
                String::from_utf8_lossy(&bytes)
                    .lines()
                    .filter_map(|l| json::event_of(l, agent.id()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut events: Vec<String> = match &spec.registration {
        Registration::Json(j) => {
            return fsread::read_bounded(&path, caps::HOOKS_JSON)
                .ok()
                .and_then(|bytes| json::parse(&path, &bytes, j.jsonc).ok())
                .map(|doc| json::ours_events(&doc.root, j.shape, agent.id()))
                .unwrap_or_default()
        }
        Registration::Scripts(_) => {
            let mut files: Vec<PathBuf> = fs::read_dir(&path)
                .map(|entries| entries.flatten().map(|e| e.path()).take(256).collect())
                .unwrap_or_default();
            files.sort();
            files.iter().flat_map(|f| lines_of(f)).collect()
        }
        // Each entry of ours holds its launcher line, `--event` and all.
        Registration::Plugin(_) | Registration::Toml(_) | Registration::Yaml(_) => lines_of(&path),
    };
    let mut seen = Vec::new();
    events.retain(|e| {
        let first = !seen.contains(e);
        seen.push(e.clone());
        first
    });
    events
}

/// What `agent`'s entries of ours at this scope run, per native event, as
/// the agent runs it ([`Entry`]); empty when it is not installed there.
/// Reads what [`is_installed`] reads, bounded.
pub fn installed_entries(
    agent: &dyn Agent,
    scope: Scope,
    project_root: &Path,
    env: &Env,
) -> Vec<(String, Entry)> {
    let spec = agent.install_spec();
    let Some(path) = targets::path(spec, scope, project_root, env) else {
        return Vec::new();
    };
    match &spec.registration {
        Registration::Json(j) => fsread::read_bounded(&path, caps::HOOKS_JSON)
            .ok()
            .and_then(|bytes| json::parse(&path, &bytes, j.jsonc).ok())
            .map(|doc| json::ours_commands(&doc.root, j.shape, agent.id()))
            .unwrap_or_default()
            .into_iter()
            .map(|(event, command)| (event, Entry::Shell(command)))
            .collect(),
        Registration::Scripts(_) => {
            let mut files: Vec<PathBuf> = fs::read_dir(&path)
                .map(|entries| entries.flatten().map(|e| e.path()).take(256).collect())
                .unwrap_or_default();
            files.sort();
            files
                .into_iter()
                .filter_map(|file| {
                    let bytes = fsread::read_bounded(&file, caps::SCRIPT).ok()?;
                    let text = String::from_utf8_lossy(&bytes);
                    let event = text.lines().find_map(|l| json::event_of(l, agent.id()))?;
                    Some((event, Entry::Script(file)))
                })
                .collect()
        }
        Registration::Plugin(_) | Registration::Toml(_) | Registration::Yaml(_) => {
            installed_events(agent, scope, project_root, env)
                .into_iter()
                .map(|event| (event, Entry::Other(path.clone())))
                .collect()
        }
    }
}

/// How an agent runs one of its entries of ours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A command line, through the agent's shell.
    Shell(String),
    /// A script file, run as a program.
    Script(PathBuf),
    /// Inside a plugin or a TOML or YAML file (this one): run by the agent
    /// in its own way.
    Other(PathBuf),
}

/// Whether a script or plugin file is one agenthooks wrote for `agent`.
pub(crate) fn file_is_ours(path: &Path, agent: &str) -> bool {
    fsread::read_bounded(path, caps::SCRIPT).is_ok_and(|bytes| {
        String::from_utf8_lossy(&bytes)
            .lines()
            .any(|l| json::is_ours(l, agent))
    })
}
