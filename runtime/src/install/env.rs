//! The environment install reads once: the user's home and config
//! directories, the system root, the platform. Below every other part of
//! install, so that each of them takes an [`Env`] and is testable with
//! paths passed in.

use std::collections::BTreeMap;
use std::env;
use std::path::{Path, PathBuf};

use super::InstallError;
use crate::agents::{SystemFile, UserDir, UserPath, AGENTS};

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
