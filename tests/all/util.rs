//! Shared helpers: a temporary project with its own home directory, and ways
//! to run the real `agenthooks` binary in it.
//!
//! Every run gets `HOME` and the `XDG_*` directories inside the temporary
//! directory and no `CLAUDE_PROJECT_DIR` or `AGENTHOOKS_AUDIT`, so nothing of
//! the machine's own configuration leaks into a test.

#![allow(dead_code)] // Each area uses a different part of the toolbox.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{json, Value};
use tempfile::TempDir;

/// The `agenthooks` binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_agenthooks")
}

/// The repository's root (where `tests/` lives).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lives one level below the workspace root")
        .to_path_buf()
}

/// A recorded agent payload directory: `tests/fixtures/agents/<name>`.
pub fn fixtures(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures/agents").join(name)
}

/// A project (a directory with `.git/` and `.agents/`) and a home directory,
/// both inside one temporary directory removed on drop.
pub struct TempProject {
    dir: TempDir,
    /// The project root.
    pub root: PathBuf,
    /// The home directory (`HOME`).
    pub home: PathBuf,
}

/// The output of one run, with how long it took.
pub struct Ran {
    /// What the process wrote and how it exited.
    pub output: Output,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Ran {
    /// stdout as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    /// stderr as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// What the hooks decided: stdout as JSON without agenthooks' own
    /// once-per-session message (a `systemMessage` of `agenthooks: ` lines,
    /// said when a hook failed open or a file does not load); `null` when
    /// nothing else is left.
    pub fn decided(&self) -> Value {
        without_own_message(self.json())
    }

    /// The `systemMessage` on stdout, if any.
    pub fn system_message(&self) -> String {
        self.json()["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// stdout parsed as JSON (`null` when empty).
    pub fn json(&self) -> Value {
        let text = self.stdout();
        if text.trim().is_empty() {
            return Value::Null;
        }
        serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {text}\nstderr: {}",
                self.stderr()
            )
        })
    }

    /// The exit code (panics when killed by a signal).
    pub fn code(&self) -> i32 {
        self.output
            .status
            .code()
            .unwrap_or_else(|| panic!("killed by a signal; stderr: {}", self.stderr()))
    }

    /// Fails the test, showing stderr, unless stderr contains `want`.
    #[track_caller]
    pub fn assert_stderr_contains(&self, want: &str) {
        let stderr = self.stderr();
        assert!(stderr.contains(want), "no {want:?} in stderr: {stderr}");
    }

    /// Fails the test unless the run took less than `limit`.
    #[track_caller]
    pub fn assert_took_less_than(&self, limit: Duration) {
        assert!(self.elapsed < limit, "took {:?}", self.elapsed);
    }
}

impl TempProject {
    /// An empty project: `<tmp>/project/.git/`, `<tmp>/project/.agents/`, `<tmp>/home/`.
    pub fn new() -> TempProject {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // Canonical, so paths compare equal to what the binary computes.
        let base = dir
            .path()
            .canonicalize()
            .expect("the temporary directory exists");
        let root = base.join("project");
        let home = base.join("home");
        for d in [
            root.join(".git"),
            root.join(".agents"),
            home.join(".agents"),
        ] {
            std::fs::create_dir_all(&d).expect("create a directory");
        }
        TempProject { dir, root, home }
    }

    /// A project whose `.agents/hooks.json` is `config`, trusted.
    pub fn trusted(config: &Value) -> TempProject {
        let p = TempProject::new();
        p.project_hooks(config);
        p.trust();
        p
    }

    /// A path inside the project.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Write a file inside the project (parents created); returns its path.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create the parent directory");
        }
        std::fs::write(&path, contents).expect("write a file");
        path
    }

    /// Write an executable `sh` script at `.agents/hooks/<name>`; returns its path.
    pub fn script(&self, name: &str, body: &str) -> PathBuf {
        let path = self.write(
            &format!(".agents/hooks/{name}"),
            format!("#!/bin/sh\n{body}\n"),
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .expect("make the script executable");
        }
        path
    }

    /// A trusted PreToolUse hook matched to `matcher` that appends one line
    /// to `<tmp>/count` each time it runs and denies with `reason`; returns
    /// the count file's path (read it with [`runs`]).
    pub fn counting_deny(&self, matcher: &str, reason: &str) -> PathBuf {
        let count = self.tmp().join("count");
        let deny = json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":reason}});
        let script = self.script(
            "count.sh",
            &format!("echo run >> '{}'\necho '{deny}'", count.display()),
        );
        self.project_hooks(&hooks(
            "PreToolUse",
            matcher,
            json!([command(&script.display().to_string())]),
        ));
        self.trust();
        count
    }

    /// Write `<project>/.agents/hooks.json`.
    pub fn project_hooks(&self, config: &Value) {
        self.write(".agents/hooks.json", pretty(config));
    }

    /// Write `~/.agents/hooks.json` (user scope).
    pub fn user_hooks(&self, config: &Value) {
        let path = self.home.join(".agents/hooks.json");
        std::fs::write(path, pretty(config)).expect("write the user hooks");
    }

    /// Where this project's managed (system-wide) `hooks.json` goes.
    pub fn managed_file(&self) -> PathBuf {
        self.root
            .parent()
            .expect("the project has a parent")
            .join("managed/hooks.json")
    }

    /// Where `install --system` puts the agents' system-wide files in this
    /// project's environment (`AGENTHOOKS_SYSTEM_ROOT`).
    pub fn system_root(&self) -> PathBuf {
        self.root
            .parent()
            .expect("the project has a parent")
            .join("system")
    }

    /// Write the managed `hooks.json` (parents created).
    pub fn managed_hooks(&self, config: &Value) {
        self.write_managed(pretty(config));
    }

    /// Write the managed `hooks.json` as raw bytes.
    pub fn write_managed(&self, contents: impl AsRef<[u8]>) {
        let path = self.managed_file();
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create its directory");
        std::fs::write(path, contents).expect("write the managed hooks");
    }

    /// Trust the project's current command hooks, as `agenthooks trust` would,
    /// in this project's own trust store.
    pub fn trust(&self) {
        use agenthooks::config::{self, LoadOptions};
        use agenthooks::trust::TrustStore;
        let options = LoadOptions::new()
            .with_home(&self.home)
            .with_project_root(&self.root);
        let loaded = config::load(&options);
        assert!(loaded.broken.is_empty(), "{:?}", loaded.broken);
        let (mut store, note) = TrustStore::load_from(&self.trust_store());
        assert_eq!(note, None);
        store
            .trust(&self.root, &loaded.handlers)
            .expect("trust the project");
        store.save().expect("save the trust store");
    }

    /// The trust store file the binary reads in this project's environment.
    pub fn trust_store(&self) -> PathBuf {
        self.home.join(".local/share/agenthooks/trust.json")
    }

    /// Where the binary keeps the backups of the files it changes in this
    /// project's environment (its state directory's `backups/`).
    pub fn backups(&self) -> PathBuf {
        self.home.join(".local/state/agenthooks/backups")
    }

    /// The backups folder of `file` (the one whose `path` names it), if any.
    pub fn backup_of(&self, file: &Path) -> Option<PathBuf> {
        let entries = std::fs::read_dir(self.backups()).ok()?;
        entries.flatten().map(|e| e.path()).find(|dir| {
            std::fs::read_to_string(dir.join("path"))
                .is_ok_and(|line| Path::new(line.trim_end()) == file)
        })
    }

    /// The original (the file as agenthooks first found it) kept for the
    /// project file `rel`, if any.
    pub fn original_of(&self, rel: &str) -> Option<PathBuf> {
        let original = self.backup_of(&self.path(rel))?.join("original");
        original.is_file().then_some(original)
    }

    /// `program` in the project, with this project's home and XDG
    /// directories and no inherited hook variables.
    pub fn isolated(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.current_dir(&self.root)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
            .env("XDG_STATE_HOME", self.home.join(".local/state"))
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("AGENTHOOKS_AUDIT")
            // This project's managed file (absent unless a test writes it),
            // never the machine's (where none is installed).
            .env("AGENTHOOKS_MANAGED_CONFIG", self.managed_file())
            // The agents' system-wide files (`install --system`) under this
            // project's own root, never the machine's `/etc`: a system entry
            // installed there would make every `run` here step aside.
            .env("AGENTHOOKS_SYSTEM_ROOT", self.system_root())
            .env_remove("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
            .env_remove("QWEN_CODE_SYSTEM_SETTINGS_PATH")
            .env_remove("SEMA_ROOT")
            // No trace or OpenTelemetry export of the machine's.
            .env_remove("TRACEPARENT")
            .env_remove("TRACESTATE")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_PROTOCOL")
            .env_remove("OTEL_EXPORTER_OTLP_HEADERS")
            .env_remove("OTEL_SDK_DISABLED")
            .env_remove("OTEL_RESOURCE_ATTRIBUTES")
            .env_remove("OTEL_SERVICE_NAME")
            .env("NO_COLOR", "1");
        cmd
    }

    /// `agenthooks ARGS`, [`isolated`](TempProject::isolated), with a timeout.
    pub fn cmd<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = Command::from_std(self.isolated(bin()));
        cmd.args(args).timeout(Duration::from_secs(60));
        cmd
    }

    /// Run `cmd` with `stdin` and time it.
    pub fn output(&self, mut cmd: Command, stdin: impl Into<Vec<u8>>) -> Ran {
        let stdin = stdin.into();
        let mut started = Instant::now();
        let mut output = cmd.write_stdin(stdin.clone()).output();
        // Under Wine, creating a process now and then fails with
        // ERROR_INTERNAL_ERROR (1359) before it runs (seen once in eight CI
        // runs): the spawn is tried again; anything the process did is not.
        if cfg!(windows)
            && output
                .as_ref()
                .is_err_and(|e| e.raw_os_error() == Some(1359))
        {
            started = Instant::now();
            output = cmd.write_stdin(stdin).output();
        }
        Ran {
            output: output.expect("run agenthooks"),
            elapsed: started.elapsed(),
        }
    }

    /// `agenthooks run --agent claude` with `payload` on stdin.
    pub fn run(&self, payload: &Value) -> Ran {
        self.run_raw(payload.to_string())
    }

    /// `agenthooks run --agent claude` with raw bytes on stdin.
    pub fn run_raw(&self, stdin: impl Into<Vec<u8>>) -> Ran {
        self.output(self.cmd(["run", "--agent", "claude"]), stdin)
    }

    /// A payload shaped like Claude Code's for `event`, in this project, with
    /// `extra` fields added.
    pub fn payload(&self, event: &str, extra: Value) -> Value {
        let mut payload = json!({
            "session_id": "11111111-2222-4333-8444-555555555555",
            "transcript_path": self.home.join(".claude/projects/p/s.jsonl"),
            "cwd": self.root,
            "permission_mode": "default",
            "hook_event_name": event,
        });
        if let (Some(map), Value::Object(extra)) = (payload.as_object_mut(), extra) {
            map.extend(extra);
        }
        payload
    }

    /// A UserPromptSubmit payload for `prompt`.
    pub fn prompt(&self, prompt: &str) -> Value {
        self.payload("UserPromptSubmit", json!({ "prompt": prompt }))
    }

    /// A PreToolUse payload for `Bash` running `command`.
    pub fn bash(&self, command: &str) -> Value {
        self.payload(
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"}),
        )
    }

    /// Keep the temporary directory alive (and reachable) as long as `self`.
    pub fn tmp(&self) -> &Path {
        self.dir.path()
    }
}

/// How many times a [`TempProject::counting_deny`] hook ran.
pub fn runs(count: &Path) -> usize {
    std::fs::read_to_string(count).map_or(0, |s| s.lines().count())
}

/// `{"hooks": {EVENT: [{"matcher": MATCHER, "hooks": HANDLERS}]}}`.
pub fn hooks(event: &str, matcher: &str, handlers: Value) -> Value {
    json!({"hooks": {event: [{"matcher": matcher, "hooks": handlers}]}})
}

/// A command handler.
pub fn command(cmd: &str) -> Value {
    json!({"type": "command", "command": cmd})
}

/// A command handler with a timeout in seconds.
pub fn command_with_timeout(cmd: &str, timeout: u64) -> Value {
    json!({"type": "command", "command": cmd, "timeout": timeout})
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("JSON serializes")
}

/// Wait up to `limit` for `cond` to hold.
pub fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid a hook wrote into `path`.
pub fn read_pid(path: &Path) -> i32 {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the hook wrote no pid to {}: {e}", path.display()));
    text.trim()
        .parse()
        .unwrap_or_else(|e| panic!("not a pid in {}: {text:?}: {e}", path.display()))
}

/// Whether a process with this pid exists (and is not a zombie we could see).
#[cfg(unix)]
pub fn alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks whether the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    if !exists {
        return false;
    }
    // A zombie still "exists" until its new parent reaps it; it runs nothing.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|s| s.split_whitespace().next());
    state != Some("Z")
}

/// `answer` without agenthooks' own `systemMessage` (one that starts
/// `agenthooks: `), `null` when nothing else is left: what the hooks said.
pub fn without_own_message(mut answer: Value) -> Value {
    if let Some(map) = answer.as_object_mut() {
        let own = map
            .get("systemMessage")
            .and_then(Value::as_str)
            .is_some_and(|m| m.starts_with("agenthooks: "));
        if own {
            map.remove("systemMessage");
        }
        if map.is_empty() {
            return Value::Null;
        }
    }
    answer
}
