//! VS Code's Local harness runs `.github/hooks/*.json` and, by default,
//! `.claude/settings.json`: a project wired for Claude Code or Copilot CLI
//! gets VS Code's payloads through those entries. agenthooks reads them as
//! VS Code's (tool names and all), answers as VS Code reads, and runs each
//! hook once however many of the entries VS Code runs are installed.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::util::{command, fixtures, runs, Ran, TempProject};

/// A trusted project whose one PreToolUse hook, matched to `Bash`, counts
/// its runs and denies.
fn guarded() -> (TempProject, PathBuf) {
    let p = TempProject::new();
    let count = p.counting_deny("Bash", "BLOCKED rm");
    (p, count)
}

fn install(p: &TempProject, agent: &str) {
    let ran = p.output(p.cmd(["install", agent]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
}

/// The payload VS Code's hook service builds (`source/<file>`), in `p`.
fn payload(p: &TempProject, file: &str) -> Value {
    let path = fixtures("vscode-1.111-source/source").join(file);
    let mut payload: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    payload["cwd"] = json!(p.root);
    payload
}

/// `run` as each entry's command line has it (VS Code runs them all with
/// its own payload; Copilot's entry names the event in camelCase).
fn run_entry(p: &TempProject, entry: &str, payload: &Value) -> Ran {
    let args: &[&str] = match entry {
        "copilot" => &["run", "--agent", "copilot", "--event", "preToolUse"],
        other => &["run", "--agent", other],
    };
    let mut cmd = p.cmd(args);
    cmd.env_remove("COPILOT_CLI");
    p.output(cmd, payload.to_string())
}

fn assert_vscode_deny(ran: &Ran) {
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(
        ran.json(),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}}),
        "{}",
        ran.stderr()
    );
}

#[test]
fn run_in_terminal_rm_rf_is_denied_through_claude_s_copilot_s_and_its_own_entry() {
    let (p, count) = guarded();
    let rm = payload(&p, "02-PreToolUse.json");
    assert_eq!(rm["tool_name"], "run_in_terminal");
    for entry in ["claude", "copilot", "vscode"] {
        assert_vscode_deny(&run_entry(&p, entry, &rm));
    }
    assert_eq!(runs(&count), 3, "no entry is installed: each one ran it");
    // The guard is matched to Bash: VS Code's create_file is not Bash.
    let write = payload(&p, "03-PreToolUse.json");
    for entry in ["claude", "copilot", "vscode"] {
        let ran = run_entry(&p, entry, &write);
        assert_eq!(
            (ran.code(), ran.stdout()),
            (0, String::new()),
            "{}",
            ran.stderr()
        );
    }
    assert_eq!(runs(&count), 3);
}

#[test]
fn the_same_hook_reached_through_three_entries_runs_once() {
    let (p, count) = guarded();
    install(&p, "claude");
    install(&p, "copilot");
    let rm = payload(&p, "02-PreToolUse.json");

    // Without VS Code's own entry, Copilot's runs it (it comes first) and
    // Claude's steps aside.
    assert_vscode_deny(&run_entry(&p, "copilot", &rm));
    let ran = run_entry(&p, "claude", &rm);
    assert_eq!((ran.code(), ran.stdout()), (0, String::new()));
    ran.assert_stderr_contains("steps aside");
    assert_eq!(runs(&count), 1);

    // With it, VS Code's own runs it and both others step aside.
    install(&p, "vscode");
    assert!(p.root.join(".github/hooks/agenthooks-vscode.json").exists());
    for entry in ["claude", "copilot"] {
        let ran = run_entry(&p, entry, &rm);
        assert_eq!(ran.stdout(), "", "{entry}: {}", ran.stderr());
    }
    assert_eq!(runs(&count), 1);
    assert_vscode_deny(&run_entry(&p, "vscode", &rm));
    assert_eq!(runs(&count), 2);

    // Claude Code itself still runs its own entry: its payload is its own.
    let claude = p.bash("rm -rf /");
    let ran = run_entry(&p, "claude", &claude);
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert_eq!(runs(&count), 3);
}

#[test]
fn an_event_vs_code_does_not_call_copilot_s_entry_for_runs_through_claude_s() {
    // VS Code reads Copilot's `userPromptSubmitted` as `UserPromptSubmitted`,
    // not one of its events: only Claude's entry gets its prompts.
    let p = TempProject::new();
    p.project_hooks(&json!({"hooks": {"UserPromptSubmit": [{"hooks": [command(
        "echo '{\"decision\":\"block\",\"reason\":\"no prompts\"}'"
    )]}]}}));
    p.trust();
    install(&p, "claude");
    install(&p, "copilot");
    let prompt = payload(&p, "01-UserPromptSubmit.json");
    let ran = run_entry(&p, "claude", &prompt);
    assert_eq!(
        ran.json(),
        json!({"decision":"block","reason":"no prompts"}),
        "{}",
        ran.stderr()
    );
}

#[test]
fn install_writes_vs_code_s_own_file_with_claude_s_event_names() {
    let (p, _) = guarded();
    install(&p, "vscode");
    let file = p.root.join(".github/hooks/agenthooks-vscode.json");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let pre = &written["hooks"]["PreToolUse"][0];
    assert_eq!(pre["type"], "command");
    assert!(
        pre["command"].as_str().unwrap().contains("--agent vscode"),
        "{written}"
    );
    assert!(pre["timeout"].is_number(), "{written}");
    assert!(written["hooks"]["SessionStart"].is_array(), "{written}");
}

#[test]
fn copilot_cli_reading_vs_code_s_file_is_answered_as_copilot() {
    // Copilot CLI reads every `.github/hooks/*.json`, VS Code's file too.
    let (p, count) = guarded();
    install(&p, "vscode");
    let copilot_payload =
        std::fs::read_to_string(fixtures("copilot-1.0.102/claude-format/05-PreToolUse.json"))
            .unwrap();
    let mut copilot_payload: Value = serde_json::from_str(&copilot_payload).unwrap();
    copilot_payload["cwd"] = json!(p.root);
    copilot_payload["tool_input"] = json!({"command": "rm -rf /"});
    let run = |p: &TempProject| {
        let mut cmd = p.cmd(["run", "--agent", "vscode"]);
        cmd.env("COPILOT_CLI", "1");
        p.output(cmd, copilot_payload.to_string())
    };
    let ran = run(&p);
    assert_eq!(
        ran.json(),
        json!({"permissionDecision":"deny","permissionDecisionReason":"BLOCKED rm"}),
        "{}",
        ran.stderr()
    );
    assert_eq!(runs(&count), 1);
    // With Copilot's own entry installed, that one runs it.
    install(&p, "copilot");
    let ran = run(&p);
    assert_eq!(ran.stdout(), "", "{}", ran.stderr());
    assert_eq!(runs(&count), 1);
}

#[cfg(unix)]
#[test]
fn check_and_status_say_vs_code_runs_the_claude_and_copilot_entries() {
    let p = TempProject::new();
    install(&p, "claude");
    install(&p, "copilot");
    let ran = p.output(p.cmd(["check"]), "");
    let text = format!("{}{}", ran.stdout(), ran.stderr());
    for agent in ["Claude Code", "GitHub Copilot CLI"] {
        assert!(
            text.contains(&format!("{agent}: VS Code also runs these entries")),
            "{text}"
        );
    }
    // Copilot CLI runs VS Code's own file, in `.github/hooks`.
    install(&p, "vscode");
    let ran = p.output(p.cmd(["check"]), "");
    let text = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(
        text.contains("VS Code: GitHub Copilot CLI also runs these entries"),
        "{text}"
    );

    // `status` says so and stays green: nothing stops a hook.
    let bin = p.tmp().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(crate::util::bin(), bin.join("agenthooks")).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let mut cmd = p.cmd(["status"]);
    cmd.env("PATH", &path);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "informational only: {}", ran.stdout());
    for agent in ["claude", "copilot"] {
        assert!(
            ran.stdout()
                .contains(&format!("agent {agent}: VS Code also runs these entries")),
            "{}",
            ran.stdout()
        );
    }
    let mut cmd = p.cmd(["status", "--json"]);
    cmd.env("PATH", &path);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(ran.stdout().contains("\"also-run-by\""), "{}", ran.stdout());
}
