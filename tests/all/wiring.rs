//! `install` registers only the events the hooks use (and the session
//! start), never an event whose mere registration changes the agent
//! (Claude Code's WorktreeCreate replaces `git worktree add`) unless a hook
//! handles it; `check` and `run` at a session's start notice when
//! `hooks.json` gained an event the entries do not call, and `install` again
//! brings the wiring up to date.

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// The event keys of `.claude/settings.json`'s `hooks`.
fn claude_events(p: &TempProject) -> Vec<String> {
    let text = std::fs::read_to_string(p.path(".claude/settings.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["hooks"]
        .as_object()
        .map(|h| h.keys().cloned().collect())
        .unwrap_or_default()
}

/// User hooks (trusted, so `check` has nothing else to say) on these events.
fn user_hooks_on(p: &TempProject, events: &[&str]) {
    let mut all = serde_json::Map::new();
    for event in events {
        all.insert(
            (*event).to_string(),
            json!([{"matcher": "*", "hooks": [command("true")]}]),
        );
    }
    p.user_hooks(&json!({ "hooks": all }));
}

fn session_start(p: &TempProject) -> String {
    json!({
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": p.root,
        "hook_event_name": "SessionStart",
        "source": "startup"
    })
    .to_string()
}

#[test]
fn install_claude_with_pre_tool_use_hooks_registers_no_worktree_create() {
    let p = TempProject::new();
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(claude_events(&p), ["SessionStart", "PreToolUse"]);
    let text = std::fs::read_to_string(p.path(".claude/settings.json")).unwrap();
    assert!(!text.contains("Worktree"), "{text}");

    // No hooks at all: the session start alone, for agenthooks' own work.
    let p = TempProject::new();
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    assert_eq!(claude_events(&p), ["SessionStart"]);

    // A hook that handles WorktreeCreate gets it.
    let p = TempProject::new();
    user_hooks_on(&p, &["WorktreeCreate"]);
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    assert_eq!(claude_events(&p), ["SessionStart", "WorktreeCreate"]);
}

#[test]
fn a_new_event_in_hooks_json_is_noticed_then_wired_and_unused_ones_go() {
    let p = TempProject::new();
    user_hooks_on(&p, &["PreToolUse"]);
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    let check = p.output(p.cmd(["check"]), "");
    assert_eq!(check.code(), 0, "{}", check.stdout());

    // hooks.json gains Stop: `check` says what to run, on one line (a
    // warning, which `--strict` fails on).
    user_hooks_on(&p, &["PreToolUse", "Stop"]);
    let check = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(check.code(), 1, "{}", check.stdout());
    let line = check
        .stdout()
        .lines()
        .find(|l| l.contains("agenthooks install claude`"))
        .unwrap_or_else(|| panic!("no wiring line:\n{}", check.stdout()))
        .to_string();
    assert!(
        line.starts_with("warning: hooks.json has hooks for Stop "),
        "{line}"
    );
    // So does `run` at the session's start, as a note on stderr.
    let ran = p.output(p.cmd(["run", "--agent", "claude"]), session_start(&p));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let stderr = ran.stderr();
    let notes = stderr
        .lines()
        .filter(|l| l.contains("run `agenthooks install claude`"))
        .count();
    assert_eq!(notes, 1, "{stderr}");
    // ... and in Claude Code's own window: the user sees it there.
    let answer: serde_json::Value =
        serde_json::from_str(&ran.stdout()).unwrap_or_else(|e| panic!("{e}: {}", ran.stdout()));
    let shown = answer["systemMessage"].as_str().unwrap_or_default();
    assert!(
        shown.contains("hooks for Stop") && shown.contains("run `agenthooks install claude`"),
        "{answer}"
    );
    // ... and not on the other events.
    let pre = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": p.root,
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}
    });
    let ran = p.output(p.cmd(["run", "--agent", "claude"]), pre.to_string());
    assert!(
        !ran.stderr().contains("agenthooks install"),
        "{}",
        ran.stderr()
    );

    // `install` again adds it, idempotently, and the notices stop.
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    assert_eq!(claude_events(&p), ["SessionStart", "PreToolUse", "Stop"]);
    let bytes = std::fs::read(p.path(".claude/settings.json")).unwrap();
    let again = p.output(p.cmd(["install", "claude"]), "");
    assert!(
        again.stdout().contains("claude: unchanged"),
        "{}",
        again.stdout()
    );
    assert_eq!(
        std::fs::read(p.path(".claude/settings.json")).unwrap(),
        bytes
    );
    assert_eq!(p.output(p.cmd(["check"]), "").code(), 0);
    let ran = p.output(p.cmd(["run", "--agent", "claude"]), session_start(&p));
    assert!(
        !ran.stderr().contains("agenthooks install"),
        "{}",
        ran.stderr()
    );

    // The PreToolUse hooks are removed: install drops their entries.
    user_hooks_on(&p, &["Stop"]);
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    assert_eq!(claude_events(&p), ["SessionStart", "Stop"]);
    // Uninstall removes every entry of ours.
    assert_eq!(p.output(p.cmd(["uninstall", "claude"]), "").code(), 0);
    assert!(!p.path(".claude/settings.json").exists());
}

#[test]
fn a_hooks_json_that_does_not_load_keeps_every_safe_event_wired() {
    // Its hooks (an `onConfigError: deny` policy, say) cannot be listed:
    // every event that changes nothing by being registered.
    let p = TempProject::new();
    std::fs::write(p.home.join(".agents/hooks.json"), "{ not json").unwrap();
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    let events = claude_events(&p);
    assert!(events.len() > 20, "{events:?}");
    assert!(events.iter().any(|e| e == "PreToolUse"), "{events:?}");
    assert!(
        !events.iter().any(|e| e.starts_with("Worktree")),
        "{events:?}"
    );
}
