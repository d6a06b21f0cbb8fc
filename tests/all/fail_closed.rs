//! Failing closed: a hook set to `onError: "deny"` that fails in any way
//! denies, with a reason naming the hook and the failure, in the native deny
//! form of every agent that can deny; and it does so before the agent's own
//! hook deadline.

use std::time::Duration;

use agenthooks::agents::AGENTS;
use agenthooks::protocol::EventName;
use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// One way for a hook to fail.
struct Kind {
    /// The failure's kind (`Failure::kind`), as `fire --json` gives it.
    name: &'static str,
    handler: Value,
    /// Part of the failure's note, as it must appear in the reason.
    says: &'static str,
    /// Run with no `sh` on PATH (the command cannot start).
    no_path: bool,
}

fn kinds() -> Vec<Kind> {
    let deny = |mut h: Value| {
        h["onError"] = json!("deny");
        h
    };
    let wasm = |guest: &str, extra: Value| {
        let mut h = json!({"type": "wasm", "component": crate::wasm::guest(guest), "timeout": 20});
        if let (Some(h), Value::Object(extra)) = (h.as_object_mut(), extra) {
            h.extend(extra);
        }
        deny(h)
    };
    vec![
        Kind {
            name: "spawn",
            handler: deny(command("true")),
            says: "could not start",
            no_path: true,
        },
        Kind {
            name: "timeout",
            handler: deny(json!({"type": "command", "command": "sleep 5", "timeout": 0.3})),
            says: "timed out after 0.3s",
            no_path: false,
        },
        Kind {
            name: "exit-code",
            handler: deny(command("echo oops >&2; exit 1")),
            says: "exited with code 1: oops",
            no_path: false,
        },
        Kind {
            name: "bad-output",
            handler: deny(command("echo '{not json'")),
            says: "not a valid answer",
            no_path: false,
        },
        Kind {
            name: "out-of-fuel",
            handler: wasm("spin", json!({"fuel": 5_000_000})),
            says: "ran out of fuel",
            no_path: false,
        },
        Kind {
            name: "memory-limit",
            handler: wasm("memory_bomb", json!({"memoryMiB": 16})),
            says: "memory limit of 16 MiB",
            no_path: false,
        },
        Kind {
            name: "trap",
            handler: wasm("panic", json!({})),
            says: "crashed",
            no_path: false,
        },
    ]
}

/// `fire PreToolUse --agent AGENT --json` with `handler` as the only (user) hook.
fn fire(p: &TempProject, agent: &str, handler: &Value, no_path: bool) -> Value {
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([handler])));
    let mut cmd = p.cmd(["fire", "PreToolUse", "--json", "--agent", agent]);
    cmd.env("XDG_CACHE_HOME", crate::wasm::xdg_cache());
    if no_path {
        cmd.env("PATH", p.tmp().join("no-such-dir"));
    }
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
    ran.json()
}

/// The native answer with `reason` replaced by `<R>`, keeping the stderr
/// lines that carry it: what a deny looks like to the agent, whatever its reason.
fn shape(fired: &Value, reason: &str) -> (i64, String, Vec<String>) {
    let native = &fired["native"];
    let escaped = serde_json::to_string(reason).unwrap();
    let escaped = &escaped[1..escaped.len() - 1];
    let stdout = native["stdout"].as_str().unwrap().replace(escaped, "<R>");
    let stderr = native["stderr"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().replace(reason, "<R>"))
        .filter(|l| l.contains("<R>"))
        .collect();
    (native["exitCode"].as_i64().unwrap(), stdout, stderr)
}

fn reason_of(fired: &Value) -> String {
    fired["answer"]["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_else(|| panic!("no deny reason: {fired}"))
        .to_string()
}

#[test]
fn every_failure_denies_in_every_agents_native_deny_form() {
    let p = TempProject::new();
    let kinds = kinds();
    let mut checked = 0;
    for agent in AGENTS {
        let id = agent.id();
        let can_deny = agent
            .table()
            .by_canonical(EventName::PreToolUse)
            .is_some_and(|row| row.caps.deny);
        if !can_deny {
            continue;
        }
        let denied = fire(&p, id, &command("echo 'EXPLICIT' >&2; exit 2"), false);
        let deny = shape(&denied, "EXPLICIT");
        let allowed = fire(&p, id, &command("exit 0"), false);
        assert_ne!(
            shape(&allowed, "EXPLICIT"),
            deny,
            "{id}: a deny must look different from an allow"
        );
        for kind in &kinds {
            let fired = fire(&p, id, &kind.handler, kind.no_path);
            let reason = reason_of(&fired);
            assert!(
                reason.contains("failed and is set to fail closed") && reason.contains(kind.says),
                "{id} / {}: {reason}",
                kind.name
            );
            let label = fired["handlers"][0]["label"].as_str().unwrap().to_string();
            assert!(reason.contains(&label), "{id} / {}: {reason}", kind.name);
            assert_eq!(
                shape(&fired, &reason),
                deny,
                "{id} / {}: not the agent's deny form: {}",
                kind.name,
                fired["native"]
            );
            checked += 1;
        }
    }
    assert!(checked >= 3 * kinds.len(), "only {checked} checks");
}

#[test]
fn the_same_failures_allow_without_on_error_deny() {
    let p = TempProject::new();
    for kind in kinds() {
        let mut handler = kind.handler.clone();
        handler.as_object_mut().unwrap().remove("onError");
        let fired = fire(&p, "claude", &handler, kind.no_path);
        // No decision; the agent is told the hook failed open.
        let answer = crate::util::without_own_message(fired["answer"].clone());
        assert!(
            answer.is_null() || answer == json!({}),
            "{}: {fired}",
            kind.name
        );
        // The kind is data (`fire --json`), in the hook's report and its note.
        assert_eq!(
            fired["handlers"][0]["failure"]["kind"], kind.name,
            "{fired}"
        );
        let notes = fired["notes"].as_array().unwrap();
        assert!(
            notes
                .iter()
                .any(|n| n["kind"] == kind.name && n["source"]["type"] == "hook"),
            "{}: {notes:?}",
            kind.name
        );
    }
}

#[test]
fn a_top_level_on_error_sets_the_default() {
    let p = TempProject::new();
    let mut config = hooks(
        "PreToolUse",
        "Bash",
        json!([command("exit 1"), {"type": "command", "command": "exit 3", "onError": "allow"}]),
    );
    config["onError"] = json!("deny");
    p.user_hooks(&config);
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let hso = &ran.json()["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny");
    let reason = hso["permissionDecisionReason"].as_str().unwrap();
    // Only the first hook fails closed: the second overrides the default.
    assert!(reason.contains("exited with code 1"), "{reason}");
    assert!(!reason.contains("code 3"), "{reason}");
}

#[test]
fn a_project_hook_fails_closed_too_once_trusted() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "exit 1", "onError": "deny"}]),
    ));
    // Untrusted, it does not run at all, so it cannot deny.
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.stdout(), "", "{}", ran.stderr());
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
}

#[test]
fn the_runtime_answers_before_the_agents_own_deadline() {
    // Codex waits 1 s for a SessionEnd hook: a 60 s hook is cut at 0.8 s.
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {"SessionEnd": [{"hooks": [
        {"type": "command", "command": "sleep 10", "timeout": 60, "onError": "deny"}
    ]}]}}));
    let cmd = p.cmd(["fire", "SessionEnd", "--agent", "codex", "--json"]);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(ran.elapsed < Duration::from_secs(5), "{:?}", ran.elapsed);
    let notes = ran.json()["notes"].to_string();
    assert!(notes.contains("timed out after 0.8s"), "{notes}");
    assert!(
        notes
            .contains("timeout lowered from 60s to 0.8s to answer within codex's 1s hook deadline"),
        "{notes}"
    );
    // A hook that ends in time says nothing about the clamp.
    p.user_hooks(&json!({"hooks": {"SessionEnd": [{"hooks": [command("exit 0")]}]}}));
    let ran = p.output(
        p.cmd(["fire", "SessionEnd", "--agent", "codex", "--json"]),
        "",
    );
    assert!(
        !ran.stdout().contains("timeout lowered"),
        "{}",
        ran.stdout()
    );
}
