//! Where the files are: the project root and the managed file.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// The variable naming the project root, in commands and paths.
pub(super) const PROJECT_DIR_VAR: &str = "CLAUDE_PROJECT_DIR";

/// The project root: `$CLAUDE_PROJECT_DIR` if set and not empty, else the
/// nearest ancestor of `cwd` (itself included) that holds `.agents/` or
/// `.git`. With no `cwd`, the process's working directory is used.
pub fn project_root(cwd: Option<&Path>) -> Option<PathBuf> {
    let fallback;
    let cwd = match cwd {
        Some(cwd) => Some(cwd),
        None => {
            fallback = env::current_dir().ok();
            fallback.as_deref()
        }
    };
    project_root_from(env::var_os(PROJECT_DIR_VAR), cwd)
}

/// [`project_root`] with the environment passed in (testable without touching it).
pub(super) fn project_root_from(var: Option<OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = var.filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    cwd?.ancestors()
        .find(|dir| dir.join(".agents").is_dir() || dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The variable naming the managed file, for tests and packaging. It applies
/// only where no managed file is installed at the platform's path, so a user
/// cannot point an installed policy away.
pub const MANAGED_ENV: &str = "AGENTHOOKS_MANAGED_CONFIG";

/// The platform's managed file: `/etc/agenthooks/hooks.json` (Linux and other
/// Unix), `/Library/Application Support/agenthooks/hooks.json` (macOS),
/// `%ProgramData%\agenthooks\hooks.json` (Windows).
pub(super) fn platform_managed_file() -> PathBuf {
    if cfg!(windows) {
        crate::dirs::program_data()
            .join("agenthooks")
            .join("hooks.json")
    } else if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/agenthooks/hooks.json")
    } else {
        PathBuf::from("/etc/agenthooks/hooks.json")
    }
}

/// The managed file to read: the platform's when anything is installed
/// there, else [`MANAGED_ENV`] when set, else the platform's path (which
/// then does not exist: no managed scope).
pub fn managed_file() -> PathBuf {
    managed_file_from(env::var_os(MANAGED_ENV), platform_managed_file())
}

pub(super) fn managed_file_from(var: Option<OsString>, platform: PathBuf) -> PathBuf {
    // Anything at the platform's path, even a broken link, is the policy.
    if fs::symlink_metadata(&platform).is_ok() {
        return platform;
    }
    var.filter(|v| !v.is_empty())
        .map_or(platform, PathBuf::from)
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
