//! Copilot CLI runs the hooks in `.claude/settings.json` as well as its own,
//! with `COPILOT_CLI=1` set. With both agents installed, the Claude entry
//! steps aside under Copilot so each hook runs once; otherwise it runs as
//! usual.

use std::path::PathBuf;

use serde_json::Value;

use crate::util::{fixtures, runs, Ran, TempProject};

/// A project whose one PreToolUse hook counts its runs (one line each in
/// `<tmp>/count`) and denies, trusted, with the Claude entry installed.
fn counting_project() -> (TempProject, PathBuf) {
    let p = TempProject::new();
    let count = p.counting_deny("*", "counted");
    install(&p, &["claude"]);
    (p, count)
}

fn install(p: &TempProject, args: &[&str]) {
    let ran = p.output(p.cmd([&["install"], args].concat()), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
}

/// The PreToolUse payload Copilot CLI 1.0.102 sent to a Claude-format entry,
/// moved into this project.
fn copilot_claude_payload(p: &TempProject) -> Value {
    let path = fixtures("copilot-1.0.102/claude-format/02-PreToolUse.json");
    let mut payload: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    payload["cwd"] = Value::String(p.root.display().to_string());
    payload
}

/// `run --agent claude` as Copilot calls it (`COPILOT_CLI=1` and
/// `CLAUDE_PROJECT_DIR` set), or as Claude Code does when `copilot` is false.
fn run_claude(p: &TempProject, copilot: bool) -> Ran {
    let mut cmd = p.cmd(["run", "--agent", "claude", "--event", "PreToolUse"]);
    if copilot {
        cmd.env("COPILOT_CLI", "1")
            .env("CLAUDE_PROJECT_DIR", &p.root);
    } else {
        cmd.env_remove("COPILOT_CLI");
    }
    p.output(cmd, copilot_claude_payload(p).to_string())
}

fn assert_denied(ran: &Ran) {
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        ran.stderr()
    );
}

#[test]
fn under_copilot_without_its_own_entry_the_claude_entry_runs_the_hooks() {
    let (p, count) = counting_project();
    assert_denied(&run_claude(&p, true));
    assert_eq!(runs(&count), 1);
}

#[test]
fn under_copilot_with_its_own_entry_installed_the_claude_entry_runs_nothing() {
    let (p, count) = counting_project();
    install(&p, &["copilot"]);
    let ran = run_claude(&p, true);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(ran.stdout(), "", "no opinion");
    assert_eq!(ran.stderr(), "");
    assert_eq!(runs(&count), 0, "the Claude entry ran the hook");

    // Copilot's own entry is what runs the hook, once.
    let native = std::fs::read_to_string(fixtures("copilot-1.0.102/deny/02-preToolUse.json"))
        .unwrap()
        .replace(
            "/home/dev/e2e-run/copilot-deny/work",
            &p.root.display().to_string(),
        );
    let mut cmd = p.cmd(["run", "--agent", "copilot", "--event", "preToolUse"]);
    cmd.env("COPILOT_CLI", "1")
        .env("CLAUDE_PROJECT_DIR", &p.root);
    let ran = p.output(cmd, native);
    assert_eq!(ran.json()["permissionDecision"], "deny", "{}", ran.stderr());
    assert_eq!(runs(&count), 1);

    // --verbose says why nothing ran.
    let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
    cmd.env("COPILOT_CLI", "1");
    let ran = p.output(cmd, copilot_claude_payload(&p).to_string());
    ran.assert_stderr_contains("steps aside");
    assert_eq!(runs(&count), 1);
}

#[test]
fn in_claude_code_itself_the_claude_entry_runs_even_with_copilot_installed() {
    let (p, count) = counting_project();
    install(&p, &["copilot"]);
    assert_denied(&run_claude(&p, false));
    assert_eq!(runs(&count), 1);
    // An empty COPILOT_CLI is not Copilot either.
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("COPILOT_CLI", "");
    assert_denied(&p.output(cmd, copilot_claude_payload(&p).to_string()));
    assert_eq!(runs(&count), 2);
}

#[test]
fn copilots_user_level_entry_counts_as_installed_too() {
    let (p, count) = counting_project();
    install(&p, &["copilot", "--user"]);
    assert!(p.home.join(".copilot/hooks/agenthooks.json").exists());
    let ran = run_claude(&p, true);
    assert_eq!(ran.stdout(), "", "{}", ran.stderr());
    assert_eq!(runs(&count), 0);

    // Uninstalled again: the Claude entry is the only one and runs.
    let ran = p.output(p.cmd(["uninstall", "copilot", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_denied(&run_claude(&p, true));
    assert_eq!(runs(&count), 1);
}
