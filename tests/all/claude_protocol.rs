//! Claude Code's newest protocol through the real binary: `onFailure`,
//! `once`, and the model-switch events. (`http` hooks: `http.rs`.)

use serde_json::{json, Value};

use crate::util::{self, TempProject};

#[test]
fn on_failure_block_fails_closed_as_on_error_deny_does() {
    let p = TempProject::new();
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 1", "onFailure": "block"}]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("fail closed: exited with code 1"));

    // `continue` is the default: the failure allows, with a note.
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 1", "onFailure": "continue"}]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.decided(), Value::Null);
    ran.assert_stderr_contains("exited with code 1");
    // Allowed, and said in the agent: the hook failed open.
    let said = ran.system_message();
    assert!(
        said.contains("failed (exited with code 1) and allowed `Bash`"),
        "{said}"
    );
}

#[test]
fn check_rejects_on_error_and_on_failure_that_disagree() {
    let p = TempProject::new();
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 1", "onFailure": "continue", "onError": "deny"}]),
    ));
    let check = p.output(p.cmd(["check"]), "");
    assert_eq!(check.code(), 1);
    let all = format!("{}{}", check.stdout(), check.stderr());
    assert!(all.contains("`onError` and `onFailure` disagree"), "{all}");
    // `run` warns and fails closed meanwhile.
    let ran = p.run(&p.bash("ls"));
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
}

#[test]
fn a_once_hook_runs_once_per_session() {
    let p = TempProject::new();
    let log = p.tmp().join("ran.log");
    p.user_hooks(&util::hooks(
        "SessionStart",
        "",
        json!([{"type": "command", "once": true,
                "command": format!("echo ran >> '{}'; echo hello", log.display())}]),
    ));
    let start = |session: &str| {
        let mut payload = p.payload("SessionStart", json!({"source": "startup"}));
        payload["session_id"] = json!(session);
        p.run(&payload)
    };
    let lines = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let first = start("session-a");
    assert_eq!(
        first.json()["hookSpecificOutput"]["additionalContext"],
        "hello"
    );
    let again = start("session-a");
    assert_eq!(again.json(), Value::Null, "{}", again.stdout());
    assert!(again.stderr().is_empty(), "{}", again.stderr());
    assert_eq!(lines(), 1);
    start("session-b");
    assert_eq!(lines(), 2);
    // The marker lives in the cache directory, one small file per session and hook.
    let markers = std::fs::read_dir(p.home.join(".cache/agenthooks/once"))
        .unwrap()
        .count();
    assert_eq!(markers, 2);
}

#[test]
fn a_model_switch_can_be_refused_and_observed() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {
        "PreModelSwitch": [{"matcher": "^claude-opus", "hooks": [
            {"type": "command", "command": "echo 'the prompt cache is warm' >&2; exit 2"}]}],
        "PostModelSwitch": [{"hooks": [
            {"type": "command", "command": "echo 'now on a new model'"}]}]
    }}));
    let switch = |event: &str, to: &str| {
        p.run(&p.payload(
            event,
            json!({"from_model": "claude-sonnet-4-5", "to_model": to}),
        ))
    };
    let refused = switch("PreModelSwitch", "claude-opus-4-1");
    assert_eq!(refused.code(), 0, "{}", refused.stderr());
    assert_eq!(
        refused.json()["hookSpecificOutput"],
        json!({"hookEventName": "PreModelSwitch", "permissionDecision": "deny",
               "permissionDecisionReason": "the prompt cache is warm"})
    );
    // The matcher is tested against `to_model`.
    assert_eq!(
        switch("PreModelSwitch", "claude-haiku-4-5").json(),
        Value::Null
    );
    let after = switch("PostModelSwitch", "claude-opus-4-1");
    assert_eq!(
        after.json()["hookSpecificOutput"]["additionalContext"],
        "now on a new model"
    );
}

#[test]
fn status_messages_go_on_claudes_entries_and_check_notes_where_not_shown() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "true", "statusMessage": "Checking the command"},
            {"type": "command", "command": ":", "statusMessage": "Checking the command"},
            {"type": "command", "command": "exit 0", "statusMessage": "Asking the\npolicy server"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]
    }}));
    let ran = p.output(p.cmd(["install", "claude", "codex"]), "");
    assert_eq!(ran.code(), 0, "{}{}", ran.stdout(), ran.stderr());
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(p.path(".claude/settings.json")).unwrap())
            .unwrap();
    let entry = |event: &str| settings["hooks"][event][0]["hooks"][0].clone();
    assert_eq!(
        entry("PreToolUse")["statusMessage"],
        "Checking the command; Asking the policy server"
    );
    assert!(
        entry("Stop").get("statusMessage").is_none(),
        "{}",
        entry("Stop")
    );
    // Codex has no such key: its entries stay as they were, and check says so.
    let codex = std::fs::read_to_string(p.path(".codex/hooks.json")).unwrap_or_default();
    assert!(!codex.contains("statusMessage"), "{codex}");
    let check = p.output(p.cmd(["check"]), "");
    let all = format!("{}{}", check.stdout(), check.stderr());
    assert!(
        all.contains("OpenAI Codex CLI does not show a hook's `statusMessage` (set by command `true` and 2 more)"),
        "{all}"
    );
    assert!(!all.contains("Claude Code does not show"), "{all}");
    let agents = p.output(p.cmd(["agents", "claude", "codex"]), "");
    assert!(agents
        .stdout()
        .contains("statusMessage: shown while the event's hooks run"));
    assert!(agents.stdout().contains("statusMessage: not shown"));
}
