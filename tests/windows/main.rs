//! The Windows subset: the real `agenthooks.exe` with `cmd /C` hooks, the
//! Job Object at a timeout, a cached component, the known folders, and
//! install with Windows paths and CRLF. Built for `x86_64-pc-windows-gnu`
//! and run under Wine by `.ci/windows.sh`; empty elsewhere.
//!
//! Every run gets its own `USERPROFILE`, `LOCALAPPDATA` and `APPDATA` (and
//! the Unix variables `util` sets, which Windows must ignore).
#![cfg(windows)]

#[path = "../all/util.rs"]
mod util;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use util::{command, command_with_timeout, hooks, Ran, TempProject};

/// A [`TempProject`] with Windows' per-user folders inside its home.
struct Win {
    p: TempProject,
}

impl Win {
    fn new() -> Win {
        let p = TempProject::new();
        for dir in ["AppData/Local", "AppData/Roaming"] {
            std::fs::create_dir_all(p.home.join(dir)).unwrap();
        }
        Win { p }
    }

    fn local(&self) -> PathBuf {
        self.p.home.join("AppData").join("Local")
    }

    fn roaming(&self) -> PathBuf {
        self.p.home.join("AppData").join("Roaming")
    }

    /// `agenthooks ARGS` with this project's Windows folders.
    fn cmd<I, S>(&self, args: I) -> assert_cmd::Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = self.p.cmd(args);
        // `HOME` (set by `util`) points elsewhere: Windows must not read it.
        cmd.env("HOME", self.p.root.join("not-home"))
            .env("USERPROFILE", &self.p.home)
            .env("LOCALAPPDATA", self.local())
            .env("APPDATA", self.roaming());
        cmd
    }

    fn run(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Ran {
        self.p.output(self.cmd(args), stdin)
    }

    fn bash(&self, command: &str) -> String {
        self.p.bash(command).to_string()
    }
}

fn hso(answer: &Value) -> &Value {
    &answer["hookSpecificOutput"]
}

/// A command the hook starts in the background that writes `up` at once
/// and `marker` about five seconds later, unless it is killed first.
fn late_writer(up: &Path, marker: &Path) -> String {
    format!(
        "start /b cmd /d /c \"echo up> {} & ping -n 6 127.0.0.1 >NUL & echo alive> {}\" >NUL 2>NUL <NUL",
        up.display(),
        marker.display()
    )
}

#[test]
fn a_user_hook_under_userprofile_denies_through_cmd_with_exit_2() {
    let w = Win::new();
    // The hook says back the event it read on stdin, as its reason.
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("set /p EVENT= & call echo %EVENT% 1>&2 & exit 2")]),
    ));
    let ran = w.run(&["run", "--agent", "claude"], w.bash("git push"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let answer = ran.json();
    assert_eq!(hso(&answer)["permissionDecision"], "deny");
    let reason = hso(&answer)["permissionDecisionReason"].as_str().unwrap();
    // Not parsed: Wine's `set /p` drops the last character of a line
    // without a newline at the end of the input.
    assert!(reason.starts_with("{\"session_id\""), "{reason}");
    assert!(
        reason.contains(r#""tool_input":{"command":"git push"}"#),
        "{reason}"
    );
    assert!(reason.contains(r#""tool_kind":"shell""#), "{reason}");
}

#[test]
fn a_json_answer_on_stdout_is_read() {
    let w = Win::new();
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(
            r#"echo {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}"#
        )]),
    ));
    let ran = w.run(&["run", "--agent", "claude"], w.bash("del x"));
    assert_eq!(hso(&ran.json())["permissionDecisionReason"], "policy");
}

#[test]
fn a_timeout_kills_the_hook_and_what_it_started() {
    let w = Win::new();
    let up = w.p.home.join("up.txt");
    let marker = w.p.home.join("marker.txt");
    let cmd = format!("{} & ping -n 30 127.0.0.1 >NUL", late_writer(&up, &marker));
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command_with_timeout(&cmd, 3)]),
    ));
    let ran = w.run(&["run", "--agent", "claude"], w.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_stderr_contains("timed out");
    // Well before the hook's own 30 s (Wine starts processes slowly).
    ran.assert_took_less_than(Duration::from_secs(25));
    assert!(
        up.exists(),
        "the background process never started: this proves nothing"
    );
    std::thread::sleep(Duration::from_secs(8));
    assert!(!marker.exists(), "a process the hook started outlived it");
}

#[test]
fn the_trust_store_and_the_cache_live_under_localappdata() {
    let w = Win::new();
    let ran = w.run(&["trust", "--list"], "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let store = w.local().join("agenthooks").join("trust.json");
    assert!(
        ran.stdout().contains(&store.display().to_string()),
        "{} not in {}",
        store.display(),
        ran.stdout()
    );

    // A user-scope component, compiled once into the cache, then loaded from it.
    let guest = std::env::var_os("AGENTHOOKS_TEST_GUEST")
        .map(PathBuf::from)
        .expect(
            "AGENTHOOKS_TEST_GUEST names the `deny` guest component (.ci/windows.sh builds it)",
        );
    let component = w.p.home.join(".agents").join("deny.wasm");
    std::fs::copy(&guest, &component).unwrap();
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": "~/.agents/deny.wasm", "timeout": 60}]),
    ));
    for round in ["compiled", "cached"] {
        let ran = w.run(&["run", "--agent", "claude", "--verbose"], w.bash("ls"));
        assert_eq!(ran.code(), 0, "{round}: {}", ran.stderr());
        assert_eq!(
            hso(&ran.json())["permissionDecision"],
            "deny",
            "{round}: {}",
            ran.stderr()
        );
        if round == "cached" {
            ran.assert_stderr_contains("loaded from the compile cache");
        }
    }
    let cache = w.local().join("agenthooks").join("cache");
    assert!(
        std::fs::read_dir(&cache).is_ok_and(|mut d| d.next().is_some()),
        "nothing cached in {}",
        cache.display()
    );
    // Nothing went to the roaming folder, nor to `HOME`.
    assert!(std::fs::read_dir(w.roaming()).unwrap().next().is_none());
    assert!(!w.p.root.join("not-home").exists());
}

#[test]
fn install_keeps_crlf_and_uninstall_gives_the_bytes_back() {
    let w = Win::new();
    let settings = w.p.path(".claude/settings.json");
    let before = "{\r\n  \"model\": \"x\"\r\n}\r\n";
    w.p.write(".claude/settings.json", before);
    // install wires the events hooks use.
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 0"}]),
    ));
    let ran = w.run(&["install", "claude", "--absolute"], "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let text = std::fs::read_to_string(&settings).unwrap();
    assert_eq!(
        text.matches('\n').count(),
        text.matches("\r\n").count(),
        "a bare LF in {text}"
    );
    let file: Value = serde_json::from_str(&text).unwrap();
    let line = file["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    // `--absolute`: the Windows path of this very binary, as Windows spells it.
    let exe = std::fs::canonicalize(util::bin()).unwrap();
    let exe = exe.to_string_lossy();
    let exe = exe.strip_prefix(r"\\?\").unwrap_or(&exe);
    assert!(
        line.contains(&exe.to_string()) || line.contains(util::bin()),
        "{line}"
    );
    let ran = w.run(&["uninstall", "claude"], "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
}

#[test]
fn install_copilot_writes_powershell_next_to_bash() {
    let w = Win::new();
    std::fs::create_dir_all(w.p.path(".github/hooks")).unwrap();
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 0"}]),
    ));
    let ran = w.run(&["install", "copilot"], "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(w.p.path(".github/hooks/agenthooks.json")).unwrap(),
    )
    .unwrap();
    let entry = &file["hooks"]["preToolUse"][0];
    assert!(entry["bash"]
        .as_str()
        .unwrap()
        .contains("agenthooks run --agent copilot"));
    assert!(entry["powershell"]
        .as_str()
        .unwrap()
        .contains("& 'agenthooks' run --agent copilot --event 'preToolUse'"));
}

#[test]
fn copilots_powershell_field_runs_through_powershell_on_windows() {
    // Wine's `powershell.exe` is a stub that runs nothing and exits 0: what
    // is checked is that the `powershell` text, not `command`, is chosen and
    // started; without any PowerShell on PATH, the note says so.
    let w = Win::new();
    w.p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "echo from-command 1>&2 & exit 2",
                "powershell": "exit 2"}]),
    ));
    let empty = w.p.home.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = w.cmd(["run", "--agent", "claude"]);
    cmd.env("PATH", &empty);
    let ran = w.p.output(cmd, w.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(!ran.stdout().contains("from-command"), "{}", ran.stdout());
    ran.assert_stderr_contains("neither `pwsh` nor `powershell` is on PATH");
}
