//! Where a user's files are: the one lookup of the home, data and cache
//! directories for the whole code base, and the one spelling of
//! `<dir>/.agents/hooks.json`.
//!
//! | what | Linux, macOS | Windows |
//! |---|---|---|
//! | [`home`] (user scope, agents' user configs) | `$HOME` | `%USERPROFILE%` |
//! | [`data`] (the trust store) | `$XDG_DATA_HOME/agenthooks`, else `~/.local/share/agenthooks` | `%LOCALAPPDATA%\agenthooks` |
//! | [`cache`] (compiled components) | `$XDG_CACHE_HOME/agenthooks`, else `~/.cache/agenthooks` | `%LOCALAPPDATA%\agenthooks\cache` |
//! | [`state`] (backups of agents' files, what `import --move` moved) | `$XDG_STATE_HOME/agenthooks`, else `~/.local/state/agenthooks` | `%LOCALAPPDATA%\agenthooks\state` |
//!
//! The lookup is [`etcetera`]'s: the XDG strategy on Linux and macOS (so the
//! `XDG_*` and `HOME` overrides that tests and users rely on keep working;
//! a relative `XDG_*` value is ignored, as the XDG spec says), and Windows'
//! known folders there (the variables first, then `SHGetKnownFolderPath`).
//! With `HOME` unset, the home directory is the account's (`getpwuid_r`).

use std::path::{Path, PathBuf};

use etcetera::BaseStrategy;

/// This program's folder under the data and cache directories.
const APP: &str = "agenthooks";

/// The user's home directory; `None` when there is none, or when it is not
/// an absolute path (an empty or relative `HOME` would make the user scope
/// depend on the working directory).
pub fn home() -> Option<PathBuf> {
    etcetera::home_dir().ok().filter(|h| h.is_absolute())
}

/// Where agenthooks keeps its own data (the trust store); `None` without a
/// home directory.
pub fn data() -> Option<PathBuf> {
    let strategy = strategy()?;
    // Windows: trust is per machine (it names canonical local paths), so it
    // belongs in the local, not the roaming, application data.
    let base = if cfg!(windows) {
        strategy.cache_dir()
    } else {
        strategy.data_dir()
    };
    Some(base.join(APP))
}

/// Where compiled components are cached; `None` without a home directory.
pub fn cache() -> Option<PathBuf> {
    let base = strategy()?.cache_dir().join(APP);
    // Windows has one local folder for data and cache: keep them apart.
    Some(if cfg!(windows) {
        base.join("cache")
    } else {
        base
    })
}

/// Where agenthooks keeps what it must remember about this machine's
/// files but that belongs in no repository (the backups of agents' files it
/// changed, the record of an `import --move`); `None` without a home
/// directory.
pub fn state() -> Option<PathBuf> {
    let strategy = strategy()?;
    // Windows (and any platform without an XDG state directory): beside the
    // cache, in the local application data, apart from it.
    Some(match strategy.state_dir() {
        Some(dir) => dir.join(APP),
        None => strategy.cache_dir().join(APP).join("state"),
    })
}

/// The platform's strategy, when the home directory is usable.
fn strategy() -> Option<impl BaseStrategy> {
    home()?;
    etcetera::choose_base_strategy().ok()
}

/// `%ProgramData%` (Windows' machine-wide application data, where the
/// managed policy and agents' system-wide files live), `C:\ProgramData` when
/// the variable is unset or empty.
pub fn program_data() -> PathBuf {
    std::env::var_os("ProgramData")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(r"C:\ProgramData"), PathBuf::from)
}

/// `<dir>/.agents/hooks.json`: the user scope's file under the home
/// directory, a project's under its root.
pub fn hooks_file(dir: &Path) -> PathBuf {
    dir.join(".agents").join("hooks.json")
}

/// The engine binary's name (without `.exe`): the whole CLI, beside the
/// small `agenthooks` that agents and users call.
pub const ENGINE_NAME: &str = "agenthooks-engine";

/// The path of "our binary" as users and agents call it: the `agenthooks`
/// front, also when this process is the engine it hands off to. What
/// install writes into agents' configs and what a hook's background helper
/// is started as, so that no user file ever names the engine. The engine
/// finds the front beside itself; without one there (an engine run on its
/// own), this process's path.
///
/// # Errors
/// When this process's path cannot be found.
pub fn front_exe() -> std::io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let engine = format!("{ENGINE_NAME}{}", std::env::consts::EXE_SUFFIX);
    if exe.file_name().is_some_and(|name| *name == *engine) {
        let front = exe.with_file_name(format!("{APP}{}", std::env::consts::EXE_SUFFIX));
        if front.is_file() {
            return Ok(front);
        }
    }
    Ok(exe)
}

/// The variable naming the engine binary to hand off to (tests).
#[cfg_attr(not(feature = "engine"), allow(dead_code))]
pub const ENGINE_VAR: &str = "AGENTHOOKS_ENGINE";

/// Where the engine is: [`ENGINE_VAR`] when set, else beside this binary
/// (this binary itself, when it is the engine).
#[cfg_attr(not(feature = "engine"), allow(dead_code))]
pub fn engine() -> PathBuf {
    if let Some(path) = std::env::var_os(ENGINE_VAR).filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let name = format!("{ENGINE_NAME}{}", std::env::consts::EXE_SUFFIX);
    match std::env::current_exe() {
        Ok(exe) => exe.with_file_name(name),
        Err(_) => PathBuf::from(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_file_is_under_dot_agents() {
        let file = hooks_file(Path::new("p"));
        let parts: Vec<_> = file.iter().map(|c| c.to_string_lossy()).collect();
        assert_eq!(parts, ["p", ".agents", "hooks.json"]);
    }

    #[test]
    fn data_and_cache_are_apart_and_absolute() {
        // Read-only use of the process environment: whatever it says, the
        // two directories differ and neither depends on the working directory.
        if let (Some(data), Some(cache)) = (data(), cache()) {
            assert!(data.is_absolute() && cache.is_absolute());
            assert_ne!(data, cache);
            assert!(data.ends_with(APP));
            if let Some(state) = state() {
                assert!(state.is_absolute());
                assert!(state != data && state != cache);
            }
        }
    }
}
