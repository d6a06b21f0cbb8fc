//! Agents that run Claude Code's `.claude/settings.json` as well as their own
//! hooks file (Copilot CLI, Cursor with its third-party setting, Devin CLI):
//! with both entries installed, the Claude entry steps aside under that
//! agent, so each hook runs once; `install` and `check` say so. One
//! mechanism ([`agenthooks::agents::Agent::also_runs`]) for all three;
//! `copilot_double_run.rs` goes deeper into Copilot's recorded payloads.

use std::path::PathBuf;

use crate::util::{command, hooks, TempProject};

/// Each agent that also runs Claude's hooks, and the variable it sets.
const HOSTS: &[(&str, &str)] = &[
    ("copilot", "COPILOT_CLI"),
    ("cursor", "CURSOR_VERSION"),
    ("devin", "DEVIN_PROJECT_DIR"),
];

/// A trusted project whose one PreToolUse hook counts its runs, with the
/// Claude entry installed.
fn counting_project() -> (TempProject, PathBuf) {
    let p = TempProject::new();
    let count = p.tmp().join("count");
    let script = p.script("count.sh", &format!("echo run >> '{}'", count.display()));
    p.project_hooks(&hooks(
        "PreToolUse",
        "*",
        serde_json::json!([command(&script.display().to_string())]),
    ));
    p.trust();
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    (p, count)
}

fn runs(count: &PathBuf) -> usize {
    std::fs::read_to_string(count).map_or(0, |s| s.lines().count())
}

/// The Claude entry, as `host` runs it (its variable set) or as Claude Code does.
fn run_claude_entry(p: &TempProject, env: Option<&str>) {
    let mut cmd = p.cmd(["run", "--agent", "claude", "--event", "PreToolUse"]);
    if let Some(var) = env {
        cmd.env(var, "1");
    }
    for (_, var) in HOSTS {
        if Some(*var) != env {
            cmd.env_remove(var);
        }
    }
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
}

#[test]
fn under_each_host_with_its_own_entry_the_claude_entry_steps_aside() {
    for (host, var) in HOSTS {
        let (p, count) = counting_project();
        // Only the Claude entry: it is the one that runs the hook, under the host too.
        run_claude_entry(&p, Some(var));
        assert_eq!(runs(&count), 1, "{host}: without its own entry");

        let ran = p.output(p.cmd(["install", host]), "");
        assert_eq!(ran.code(), 0, "{host}: {}", ran.stderr());
        assert!(
            ran.stdout().contains("steps aside") && ran.stdout().contains(var),
            "{host}: install says nothing about the double load:\n{}",
            ran.stdout()
        );
        run_claude_entry(&p, Some(var));
        assert_eq!(runs(&count), 1, "{host}: the Claude entry ran again");
        // Claude Code itself (no host variable) still gets its hooks.
        run_claude_entry(&p, None);
        assert_eq!(runs(&count), 2, "{host}: Claude Code lost its hooks");

        let ran = p.output(p.cmd(["check"]), "");
        assert!(
            ran.stdout().contains("steps aside under"),
            "{host}: check:\n{}",
            ran.stdout()
        );
    }
}

#[test]
fn installing_claude_where_a_host_lives_points_at_the_host_s_own_entry() {
    let p = TempProject::new();
    p.write(".devin/config.json", "{}\n");
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout()
            .contains("devin: note: Devin CLI also runs the hooks in `.claude/settings.json`")
            && ran.stdout().contains("`agenthooks install devin`"),
        "{}",
        ran.stdout()
    );
}
