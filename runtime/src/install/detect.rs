//! Where things are: the project root, the user's config homes, which agents a
//! project uses and which have our entries installed.

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use super::json;
use super::targets;
use super::InstallError;
use crate::agents::{Agent, Registration, SystemFile, UserDir, UserPath, AGENTS};
use crate::config::Scope;
use crate::fsread::{self, caps};

/// The directories user-level configs live under, read from the environment
/// once so that everything below is testable with paths passed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    /// The home directory (`crate::dirs::home`).
    pub home: PathBuf,
    /// The user-directory variables the agents name ([`UserDir::Var`]), and
    /// the variables naming their system files ([`SystemFile::var`]), that
    /// are set and not empty, with their values.
    vars: BTreeMap<&'static str, PathBuf>,
    /// [`SYSTEM_ROOT_ENV`]: the directory the agents' system-wide files are
    /// placed under instead of `/` (tests, image builds).
    system_root: Option<PathBuf>,
    /// agenthooks' state directory (`crate::dirs::state`), where the
    /// backups of the files install changes are kept; `None`: no backups.
    pub state: Option<PathBuf>,
}

/// The variable that moves every agent's system-wide file (`install
/// --system`) under a directory: `/etc/claude-code/managed-settings.json`
/// becomes `$AGENTHOOKS_SYSTEM_ROOT/etc/claude-code/managed-settings.json`
/// (`%ProgramData%` becomes `$AGENTHOOKS_SYSTEM_ROOT\ProgramData`). For
/// tests and for building a machine image; the agents themselves read the
/// real paths.
pub const SYSTEM_ROOT_ENV: &str = "AGENTHOOKS_SYSTEM_ROOT";

/// The platform, for picking an agent's system-wide file ([`SystemFile`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and the other Unix systems but macOS.
    Unix,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

impl Os {
    /// The platform this binary was built for.
    pub const CURRENT: Os = if cfg!(windows) {
        Os::Windows
    } else if cfg!(target_os = "macos") {
        Os::MacOs
    } else {
        Os::Unix
    };

    /// How install names it in a refusal.
    pub fn name(self) -> &'static str {
        match self {
            Os::Unix => "Linux",
            Os::MacOs => "macOS",
            Os::Windows => "Windows",
        }
    }
}

fn var(name: &str) -> Option<PathBuf> {
    env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Every variable an agent's install spec names for a user directory or
/// its system file.
fn dir_vars() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().flat_map(|a| {
        let spec = a.install_spec();
        std::iter::once(spec.user)
            .chain(spec.detect_user.iter().copied())
            .filter_map(|p| match p.dir {
                UserDir::Var { var, .. } => Some(var),
                UserDir::Home => None,
            })
            .chain(spec.system.var)
    })
}

impl Env {
    /// The environment of this process.
    ///
    /// # Errors
    /// [`InstallError::NoHome`] when there is no home directory.
    pub fn from_process() -> Result<Env, InstallError> {
        let home = crate::dirs::home().ok_or(InstallError::NoHome)?;
        let vars = dir_vars().filter_map(|v| Some((v, var(v)?))).collect();
        Ok(Env {
            home,
            vars,
            system_root: var(SYSTEM_ROOT_ENV),
            state: crate::dirs::state(),
        })
    }

    /// An environment with only a home directory (and the state directory
    /// at its default place under it, `~/.local/state/agenthooks`).
    pub fn with_home(home: impl Into<PathBuf>) -> Env {
        let home = home.into();
        Env {
            state: Some(home.join(".local/state/agenthooks")),
            home,
            vars: BTreeMap::new(),
            system_root: None,
        }
    }

    /// The same with the agents' system files under `root` ([`SYSTEM_ROOT_ENV`]).
    #[must_use]
    pub fn with_system_root(mut self, root: impl Into<PathBuf>) -> Env {
        self.system_root = Some(root.into());
        self
    }

    /// The agent's system-wide hooks file on `os`; `None` where the agent
    /// documents none. The agent's own variable wins when set (it is what
    /// the agent reads), then [`SYSTEM_ROOT_ENV`] re-roots the platform's path.
    pub fn system_path(&self, file: &SystemFile, os: Os) -> Option<PathBuf> {
        let path = match os {
            Os::Unix => file.unix,
            Os::MacOs => file.macos,
            Os::Windows => file.windows,
        };
        if path.is_empty() {
            return None;
        }
        // A relative value would depend on the working directory: ignored.
        if let Some(set) = file.var.and_then(|v| self.vars.get(v)) {
            if set.is_absolute() {
                return Some(set.clone());
            }
        }
        Some(match (os, &self.system_root) {
            (Os::Windows, Some(root)) => root.join("ProgramData").join(path),
            (Os::Windows, None) => crate::dirs::program_data().join(path),
            (_, Some(root)) => root.join(path.trim_start_matches('/')),
            (_, None) => PathBuf::from(path),
        })
    }

    /// The directory the system files are under: [`SYSTEM_ROOT_ENV`], else
    /// the root of the file system (where pruning empty directories stops).
    pub(crate) fn system_base(&self, file: &Path) -> PathBuf {
        match &self.system_root {
            Some(root) => root.clone(),
            None => file
                .ancestors()
                .last()
                .map_or_else(PathBuf::new, Path::to_path_buf),
        }
    }

    /// The same with the user-directory variable `name` set to `value`.
    #[must_use]
    pub fn with_var(mut self, name: &'static str, value: impl Into<PathBuf>) -> Env {
        self.vars.insert(name, value.into());
        self
    }

    /// A user directory, its default when its variable is unset.
    pub fn user_dir(&self, dir: UserDir) -> PathBuf {
        match dir {
            UserDir::Home => self.home.clone(),
            UserDir::Var { var, default } => self
                .vars
                .get(var)
                .cloned()
                .unwrap_or_else(|| self.home.join(default)),
        }
    }

    /// A path under a user directory.
    pub fn user_path(&self, path: UserPath) -> PathBuf {
        let dir = self.user_dir(path.dir);
        if path.path.is_empty() {
            dir
        } else {
            dir.join(path.path)
        }
    }
}

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
