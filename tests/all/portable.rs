//! A project wired by one machine works on the next: `install` runs in one
//! home with one `PATH`, then each agent's entry is run the way the agent runs
//! it (its command string through `sh -c`, Cline's script by its shebang, the
//! OpenCode plugin under node) from a second home, first with `agenthooks`
//! elsewhere on `PATH` (the hooks run), then with no `agenthooks` at all (the
//! agent gets its own "no opinion" and one line saying how to install it,
//! never an error or a deny).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::util::{fixtures, TempProject};
use agenthooks::agents::{self, Field, Registration, Shape};
use agenthooks::install::NOT_INSTALLED;

/// What a user-scope hook on the second machine answers to every tool call.
const REASON: &str = "denied on the second machine";

/// A `PATH` with the system's tools and no `agenthooks`.
const SYSTEM_PATH: &str = "/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The project, wired by the first machine, and the second machine: its
/// home (with a user-scope hook that denies every tool call) and a bin
/// directory holding `agenthooks` (a link to the binary under test).
struct TwoMachines {
    p: TempProject,
    home2: PathBuf,
    bin2: PathBuf,
}

impl TwoMachines {
    fn wired(agents: &[&str]) -> TwoMachines {
        let p = TempProject::new();
        // The first machine's hooks use PreToolUse: install wires it.
        p.user_hooks(&json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}));
        let mut cmd = p.cmd([&["install"], agents].concat());
        cmd.env("PATH", SYSTEM_PATH);
        let ran = p.output(cmd, "");
        assert_eq!(ran.code(), 0, "{}{}", ran.stdout(), ran.stderr());

        let home2 = p.tmp().join("home2");
        std::fs::create_dir_all(home2.join(".agents")).unwrap();
        let hook = json!({"hooks": {"PreToolUse": [{"matcher": "", "hooks": [
            {"type": "command", "command": format!("echo '{REASON}' >&2; exit 2")}
        ]}]}});
        std::fs::write(home2.join(".agents/hooks.json"), hook.to_string()).unwrap();
        let bin2 = p.tmp().join("elsewhere/bin");
        std::fs::create_dir_all(&bin2).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(crate::util::bin(), bin2.join("agenthooks")).unwrap();
        TwoMachines { p, home2, bin2 }
    }

    /// `program` in the project, on the second machine: its home and XDG
    /// directories, and `PATH` with or without its `agenthooks`.
    fn second(&self, program: impl AsRef<std::ffi::OsStr>, with_agenthooks: bool) -> Command {
        let path = if with_agenthooks {
            format!("{}:{SYSTEM_PATH}", self.bin2.display())
        } else {
            SYSTEM_PATH.to_string()
        };
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.p.root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", &self.home2)
            .env("XDG_CONFIG_HOME", self.home2.join(".config"))
            .env("XDG_DATA_HOME", self.home2.join(".local/share"))
            .env("XDG_CACHE_HOME", self.home2.join(".cache"));
        cmd
    }

    /// The command string of `agent`'s installed entry for `event`.
    fn entry(&self, agent: &str, event: &str) -> String {
        let spec = agents::find(agent).unwrap().install_spec();
        let Registration::Json(j) = &spec.registration else {
            panic!("{agent} does not register in a JSON file");
        };
        let text = std::fs::read_to_string(self.p.path(spec.project)).unwrap();
        let root: Value = serde_json::from_str(&text).unwrap();
        let key = j
            .handler
            .iter()
            .find(|(_, f)| matches!(f, Field::Command))
            .map(|(k, _)| *k)
            .unwrap();
        let item = &root["hooks"][event][0];
        let handler = match j.shape {
            Shape::Nested | Shape::NestedMatching(_) => &item["hooks"][0],
            Shape::Flat => item,
        };
        handler[key]
            .as_str()
            .unwrap_or_else(|| panic!("{agent}: no {event} entry in {text}"))
            .to_string()
    }
}

/// Runs `cmd` with `stdin`, within a minute.
fn feed(mut cmd: Command, stdin: &str) -> Output {
    use std::io::Write as _;
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the entry");
    // A hook that exits before reading all of stdin closes the pipe: not an error here.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// A recorded payload, moved into the project.
fn recorded(p: &TempProject, rel: &str) -> String {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures(rel)).unwrap()).unwrap();
    if v.get("cwd").is_some() {
        v["cwd"] = json!(p.root);
    }
    v.to_string()
}

/// Each agent whose entry is a command string it runs through a shell, the
/// native event of a tool call, and the payload it sends for one (recorded
/// from the real agent where tests/fixtures has one, else as documented).
fn shell_agents(p: &TempProject) -> Vec<(&'static str, &'static str, String)> {
    let root = p.root.display().to_string();
    vec![
        (
            "claude",
            "PreToolUse",
            recorded(p, "claude-2.1.332/deny/02-PreToolUse.json"),
        ),
        (
            "codex",
            "PreToolUse",
            recorded(p, "codex-0.171.0/deny/03-PreToolUse.json"),
        ),
        (
            "gemini",
            "BeforeTool",
            recorded(p, "gemini-0.61.0/deny/06-BeforeTool.json"),
        ),
        (
            "copilot",
            "preToolUse",
            recorded(p, "copilot-1.0.102/deny/02-preToolUse.json"),
        ),
        (
            "qwen",
            "PreToolUse",
            recorded(p, "qwen-0.24.4/deny/03-PreToolUse.json"),
        ),
        (
            "factory",
            "PreToolUse",
            json!({"session_id": "s1", "transcript_path": "/t", "cwd": root, "permission_mode": "default",
                   "hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": {"command": "rm -rf build"}})
            .to_string(),
        ),
        (
            "cursor",
            "preToolUse",
            json!({"conversation_id": "c1", "generation_id": "g1", "model": "m", "cursor_version": "1.7",
                   "workspace_roots": [root], "hook_event_name": "preToolUse", "tool_name": "Shell",
                   "tool_input": {"command": "rm -rf build"}})
            .to_string(),
        ),
        (
            "windsurf",
            "pre_run_command",
            json!({"agent_action_name": "pre_run_command", "trajectory_id": "t1", "execution_id": "e1",
                   "timestamp": "2026-01-01T00:00:00Z", "tool_info": {"command_line": "rm -rf build", "cwd": root}})
            .to_string(),
        ),
        (
            "kiro",
            "preToolUse",
            json!({"hook_event_name": "preToolUse", "cwd": root, "tool_name": "shell",
                   "tool_input": {"command": "rm -rf build"}})
            .to_string(),
        ),
    ]
}

#[track_caller]
fn assert_hooks_ran(agent: &str, out: &Output) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(REASON),
        "{agent}: the second machine's hook did not decide (exit {:?}): {text}",
        out.status.code()
    );
}

#[track_caller]
fn assert_skipped_with_a_hint(agent: &str, out: &Output) {
    let neutral = agents::find(agent).unwrap().no_opinion(Vec::new()).stdout;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{agent}: {stdout}{stderr}");
    assert_eq!(stdout.trim_end(), neutral, "{agent}: stdout");
    assert_eq!(stderr, format!("{NOT_INSTALLED}\n"), "{agent}: stderr");
}

#[cfg(unix)]
#[test]
fn every_shell_entry_runs_the_hooks_on_another_machine_and_allows_where_agenthooks_is_missing() {
    let ids = [
        "claude", "codex", "gemini", "copilot", "qwen", "factory", "cursor", "windsurf", "kiro",
    ];
    let m = TwoMachines::wired(&ids);
    let cases = shell_agents(&m.p);
    assert_eq!(cases.len(), ids.len());
    for (agent, event, payload) in cases {
        let entry = m.entry(agent, event);
        assert!(
            !entry.contains(&*m.p.tmp().to_string_lossy()),
            "{agent}: the entry names a path of the first machine: {entry}"
        );
        let mut sh = m.second("sh", true);
        sh.arg("-c").arg(&entry);
        assert_hooks_ran(agent, &feed(sh, &payload));

        let mut sh = m.second("sh", false);
        sh.arg("-c").arg(&entry);
        assert_skipped_with_a_hint(agent, &feed(sh, &payload));
    }
}

/// Codex runs the command with the user's login shell (`$SHELL -lc`), whose
/// profile sets `PATH` afresh: agenthooks is found where the user's profile
/// puts it (as `~/.cargo/env` does for `cargo install`).
#[cfg(unix)]
#[test]
fn the_codex_entry_also_works_under_bash_as_a_login_shell() {
    if Command::new("bash").arg("--version").output().is_err() {
        println!("SKIPPED: no bash here");
        return;
    }
    let m = TwoMachines::wired(&["codex"]);
    let entry = m.entry("codex", "PreToolUse");
    let payload = recorded(&m.p, "codex-0.171.0/deny/03-PreToolUse.json");
    let profile = m.home2.join(".profile");
    std::fs::write(
        &profile,
        format!("PATH=\"{}:$PATH\"\nexport PATH\n", m.bin2.display()),
    )
    .unwrap();
    let mut bash = m.second("bash", false);
    bash.arg("-lc").arg(&entry);
    assert_hooks_ran("codex", &feed(bash, &payload));
    std::fs::remove_file(&profile).unwrap();
    let mut bash = m.second("bash", false);
    bash.arg("-lc").arg(&entry);
    assert_skipped_with_a_hint("codex", &feed(bash, &payload));
}

/// Cline runs each event's script file itself (by its `#!/bin/sh`).
#[cfg(unix)]
#[test]
fn the_cline_script_runs_the_hooks_on_another_machine_and_allows_where_agenthooks_is_missing() {
    let m = TwoMachines::wired(&["cline"]);
    let script = m.p.path(".clinerules/hooks/PreToolUse");
    let root = m.p.root.display().to_string();
    let payload =
        json!({"hookName": "tool_call", "clineVersion": "4.1", "timestamp": "t", "taskId": "task1",
        "workspaceRoots": [root], "userId": "u", "iteration": 1,
        "tool_call": {"id": "c1", "name": "run_commands", "input": {"commands": ["rm -rf build"]}},
        "preToolUse": {"toolName": "run_commands", "parameters": {}}})
        .to_string();
    assert_hooks_ran("cline", &feed(m.second(&script, true), &payload));
    assert_skipped_with_a_hint("cline", &feed(m.second(&script, false), &payload));
}

/// OpenCode loads the plugin in-process and it spawns `agenthooks` by name.
#[cfg(unix)]
#[test]
fn the_opencode_plugin_finds_agenthooks_on_the_path_of_another_machine() {
    if Command::new("node").arg("--version").output().is_err() {
        println!("SKIPPED: no node here");
        return;
    }
    let m = TwoMachines::wired(&["opencode"]);
    // node reads `.js` as CommonJS outside a `"type": "module"` package.
    let module = m.p.tmp().join("agenthooks-plugin.mjs");
    std::fs::copy(m.p.path(".opencode/plugins/agenthooks.js"), &module).unwrap();
    let driver = m.p.tmp().join("driver.mjs");
    std::fs::write(
        &driver,
        r#"
const [, , module, root] = process.argv;
const { AgentHooks } = await import(module);
const hooks = await AgentHooks({ directory: root, worktree: root });
const output = { args: { command: "rm -rf build", description: "test" } };
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, output);
  console.log(JSON.stringify({ ran: true }));
} catch (err) {
  console.log(JSON.stringify({ ran: false, error: String(err.message) }));
}
"#,
    )
    .unwrap();
    let node = |with: bool| {
        let node = which("node").unwrap();
        let mut cmd = m.second(node, with);
        cmd.arg(&driver).arg(&module).arg(&m.p.root);
        feed(cmd, "")
    };
    let out = node(true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("\"ran\":false") && stdout.contains(REASON),
        "{stdout}"
    );
    let out = node(false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"ran\":true"), "{stdout}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(NOT_INSTALLED),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `name` on this process's `PATH` (the second machine's `PATH` is bare).
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| Path::new(p).is_file())
}

/// Where agenthooks is missing, the SessionStart entry of an agent that
/// shows a `systemMessage` says so in the agent itself, with the install
/// command; the agent goes on (exit 0).
#[cfg(unix)]
#[test]
fn a_missing_agenthooks_is_shown_in_the_agent_at_session_start() {
    let m = TwoMachines::wired(&["claude", "gemini"]);
    for agent in ["claude", "gemini"] {
        let entry = m.entry(agent, "SessionStart");
        let mut sh = m.second("sh", false);
        sh.arg("-c").arg(&entry);
        let out = feed(
            sh,
            r#"{"hook_event_name": "SessionStart", "session_id": "s"}"#,
        );
        assert_eq!(out.status.code(), Some(0), "{agent}");
        let answer: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{agent}: {e}: {:?}", out.stdout));
        assert_eq!(answer["systemMessage"], NOT_INSTALLED, "{agent}");
        assert!(NOT_INSTALLED.contains("/releases/latest/download/install.sh | sh"));
        assert!(!NOT_INSTALLED.contains("cargo install"));
    }
}
