//! What the loader's tests share: a home and a project directory with
//! their `hooks.json` files, and accessors for what was loaded.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;
use tempfile::TempDir;

use crate::config::{load_with_managed, Config, Handler, HandlerKind, LoadOptions, WasmSpec};

/// A home directory and a project directory, each with an optional hooks.json.
pub(super) struct Dirs {
    home: TempDir,
    project: TempDir,
}

impl Dirs {
    pub(super) fn new() -> Dirs {
        Dirs {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
        }
    }

    /// New directories, the user's hooks.json holding `text`.
    pub(super) fn with_user(text: &str) -> Dirs {
        let dirs = Dirs::new();
        dirs.write_user(text);
        dirs
    }

    pub(super) fn home(&self) -> &Path {
        self.home.path()
    }

    pub(super) fn project(&self) -> &Path {
        self.project.path()
    }

    pub(super) fn user_file(&self) -> PathBuf {
        self.home().join(".agents/hooks.json")
    }

    pub(super) fn project_file(&self) -> PathBuf {
        self.project().join(".agents/hooks.json")
    }

    pub(super) fn write_user(&self, text: &str) {
        write(self.home(), text);
    }

    pub(super) fn write_project(&self, text: &str) {
        write(self.project(), text);
    }

    pub(super) fn load(&self) -> Config {
        self.load_managed(None)
    }

    /// With the managed file `managed` (the machine's own is never read).
    pub(super) fn load_managed(&self, managed: Option<&Path>) -> Config {
        let opts = LoadOptions {
            home: Some(self.home().to_path_buf()),
            project_root: Some(self.project().to_path_buf()),
        };
        load_with_managed(&opts, managed)
    }
}

pub(super) fn write(dir: &Path, text: &str) {
    fs::create_dir_all(dir.join(".agents")).unwrap();
    fs::write(dir.join(".agents/hooks.json"), text).unwrap();
}

pub(super) fn command_of(h: &Handler) -> &str {
    match &h.kind {
        HandlerKind::Command(c) => &c.command,
        other => panic!("not a command: {other:?}"),
    }
}

pub(super) fn wasm_of(h: &Handler) -> &WasmSpec {
    match &h.kind {
        HandlerKind::Wasm(w) => w,
        other => panic!("not wasm: {other:?}"),
    }
}

pub(super) fn commands(config: &Config) -> Vec<&str> {
    config.handlers.iter().map(command_of).collect()
}

/// Asserts that line `i` of `lines` (a config's warnings or errors) holds `part`.
#[track_caller]
pub(super) fn assert_line(lines: &[String], i: usize, part: &str) {
    assert!(
        lines.get(i).is_some_and(|line| line.contains(part)),
        "line {i} does not hold {part:?}: {lines:?}"
    );
}

pub(super) fn one_handler(handler: serde_json::Value) -> String {
    json!({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}).to_string()
}

/// A managed file with `text`, beside the two scopes of `d`.
pub(super) fn managed(d: &Dirs, text: &str) -> PathBuf {
    let file = d.home().join("etc-agenthooks/hooks.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, text).unwrap();
    file
}

/// What a loaded config shows: each broken file's line and each warning's.
pub(super) trait Lines {
    /// The broken files, one line each.
    fn error_lines(&self) -> Vec<String>;
    /// The warnings, one line each.
    fn warning_lines(&self) -> Vec<String>;
}

impl Lines for Config {
    fn error_lines(&self) -> Vec<String> {
        self.broken.iter().map(ToString::to_string).collect()
    }

    fn warning_lines(&self) -> Vec<String> {
        self.warnings.iter().map(ToString::to_string).collect()
    }
}

/// Fails unless one of `config`'s warnings contains `part`, showing them all.
pub(super) fn assert_warned(config: &Config, part: &str) {
    let lines = config.warning_lines();
    assert!(
        lines.iter().any(|w| w.contains(part)),
        "{part:?} not in {lines:?}"
    );
}
