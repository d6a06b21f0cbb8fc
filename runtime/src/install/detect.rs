//! Where things are: the project root, the user's config homes, which agents a
//! project uses and which have our entries installed.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use super::json;
use super::targets::{self, Kind};
use super::InstallError;
use crate::agents::{Agent, AGENTS};
use crate::config::Scope;

/// The directories user-level configs live under, read from the environment
/// once so that everything below is testable with paths passed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    /// `$HOME`.
    pub home: PathBuf,
    /// `$CODEX_HOME` (default `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// `$COPILOT_HOME` (default `~/.copilot`).
    pub copilot_home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (default `~/.config`).
    pub xdg_config_home: Option<PathBuf>,
}

fn var(name: &str) -> Option<PathBuf> {
    env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Env {
    /// The environment of this process.
    ///
    /// # Errors
    /// [`InstallError::NoHome`] when `HOME` is not set.
    pub fn from_process() -> Result<Env, InstallError> {
        let home =
            var(if cfg!(windows) { "USERPROFILE" } else { "HOME" }).ok_or(InstallError::NoHome)?;
        Ok(Env {
            home,
            codex_home: var("CODEX_HOME"),
            copilot_home: var("COPILOT_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
        })
    }

    /// An environment with only a home directory.
    pub fn with_home(home: impl Into<PathBuf>) -> Env {
        Env {
            home: home.into(),
            codex_home: None,
            copilot_home: None,
            xdg_config_home: None,
        }
    }

    pub(crate) fn codex_home(&self) -> PathBuf {
        self.codex_home
            .clone()
            .unwrap_or_else(|| self.home.join(".codex"))
    }

    pub(crate) fn copilot_home(&self) -> PathBuf {
        self.copilot_home
            .clone()
            .unwrap_or_else(|| self.home.join(".copilot"))
    }

    pub(crate) fn xdg_config_home(&self) -> PathBuf {
        self.xdg_config_home
            .clone()
            .unwrap_or_else(|| self.home.join(".config"))
    }
}

/// The project root for `cwd`: `$CLAUDE_PROJECT_DIR`, else the nearest
/// ancestor holding `.agents/` or `.git`, else `cwd` itself.
pub fn project_root(cwd: &Path) -> PathBuf {
    crate::config::project_root(Some(cwd)).unwrap_or_else(|| cwd.to_path_buf())
}

/// The agents whose config folders exist in the project (or, for user scope,
/// under the home directory), in [`AGENTS`] order.
pub fn detected(scope: Scope, project_root: &Path, env: &Env) -> Vec<&'static dyn Agent> {
    AGENTS
        .iter()
        .copied()
        .filter(|agent| {
            let Some(t) = targets::target(agent.id()) else {
                return false;
            };
            match scope {
                Scope::Project => t.detect.iter().any(|p| project_root.join(p).exists()),
                Scope::User => (t.detect_user)(env).iter().any(|p| p.exists()),
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
        .filter(|agent| {
            let Some(t) = targets::target(agent.id()) else {
                return false;
            };
            let path = t.path(scope, project_root, env);
            match &t.kind {
                Kind::Json(j) => fs::read(&path)
                    .ok()
                    .and_then(|bytes| json::parse(&path, &bytes, j.jsonc).ok())
                    .is_some_and(|doc| json::has_ours(&doc.root, j.shape, agent.id())),
                Kind::Scripts => fs::read_dir(&path).is_ok_and(|entries| {
                    entries
                        .flatten()
                        .any(|e| file_is_ours(&e.path(), agent.id()))
                }),
                Kind::Plugin => file_is_ours(&path, agent.id()),
            }
        })
        .collect()
}

/// The setting in the agent's config at this scope that switches all its
/// hooks off, if one does: the file and the JSON pointer.
pub fn switched_off(
    agent: &dyn Agent,
    scope: Scope,
    project_root: &Path,
    env: &Env,
) -> Option<(PathBuf, &'static str)> {
    let t = targets::target(agent.id())?;
    let Kind::Json(j) = &t.kind else {
        return None;
    };
    let path = t.path(scope, project_root, env);
    let bytes = fs::read(&path).ok()?;
    let doc = json::parse(&path, &bytes, j.jsonc).ok()?;
    let root = serde_json::Value::Object(doc.root);
    j.off
        .iter()
        .find(|(pointer, off)| {
            root.pointer(pointer).and_then(serde_json::Value::as_bool) == Some(*off)
        })
        .map(|(pointer, _)| (path, *pointer))
}

/// Whether a script or plugin file is one agenthooks wrote for `agent`.
pub(crate) fn file_is_ours(path: &Path, agent: &str) -> bool {
    fs::read(path).is_ok_and(|bytes| {
        String::from_utf8_lossy(&bytes)
            .lines()
            .any(|l| json::is_ours(l, agent))
    })
}
