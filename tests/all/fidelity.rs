//! Published Claude hooks in other agents (issue 27): derived session ids,
//! a payload's `cwd` that names no directory, and stdin left open.

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::{bin, command, hooks, TempProject};

/// Each payload a hook saw, from the file its command appended them to.
fn seen(p: &TempProject) -> Vec<Value> {
    let text = std::fs::read_to_string(p.path("seen.jsonl")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a payload"))
        .collect()
}

#[test]
fn kiro_calls_from_one_agent_process_share_a_derived_session_id() {
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("cat >> seen.jsonl; echo >> seen.jsonl")]),
    ));
    // Kiro's documented preToolUse payload: no session id, no tool call id.
    let payload = |cmd: &str| {
        json!({"hook_event_name":"preToolUse","cwd":p.root,"tool_name":"shell","tool_input":{"command":cmd}})
            .to_string()
    };
    for cmd in ["ls", "pwd"] {
        let ran = p.output(p.cmd(["run", "--agent", "kiro"]), payload(cmd));
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
    }
    // As agents run a hook: through a shell, a new one each call (`; true`
    // keeps the shell from exec'ing into agenthooks).
    if cfg!(unix) {
        let script = format!("'{}' run --agent kiro; true", bin());
        let mut through_sh = p.isolated("sh");
        through_sh.args(["-c", &script]);
        let ran = p.output(assert_cmd::Command::from_std(through_sh), payload("id"));
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
    }
    let seen = seen(&p);
    assert_eq!(seen.len(), if cfg!(unix) { 3 } else { 2 }, "{seen:?}");
    let id = seen[0]["session_id"].as_str().expect("a session id");
    assert_eq!(id.len(), 36, "{id}");
    for other in &seen[1..] {
        assert_eq!(other["session_id"], id, "one agent process, one session");
    }
    assert_eq!(
        seen[0]["agenthooks_derived"],
        json!(["session_id", "tool_use_id"])
    );
    assert_ne!(seen[0]["tool_use_id"], seen[1]["tool_use_id"]);
}

#[test]
fn a_payload_cwd_that_is_no_directory_is_said() {
    let p = TempProject::trusted(&hooks("PreToolUse", "Bash", json!([command("exit 0")])));
    let mut payload = p.bash("ls");
    payload["cwd"] = json!("/nonexistent/agenthooks-test");
    let ran = p.run(&payload);
    assert_eq!(ran.code(), 0, "run never blocks on its own trouble");
    ran.assert_stderr_contains("`cwd` `/nonexistent/agenthooks-test` does not exist");
    let file = p.write("a-file", "x");
    payload["cwd"] = json!(file);
    p.run(&payload).assert_stderr_contains("is not a directory");

    let fired = p.output(
        p.cmd([
            "fire",
            "PreToolUse",
            "--cwd",
            "/nonexistent/agenthooks-test",
        ]),
        "",
    );
    assert_eq!(fired.code(), 2, "{}", fired.stderr());
    fired.assert_stderr_contains(
        "`/nonexistent/agenthooks-test` does not exist; give `--cwd` an existing directory",
    );
    assert_eq!(fired.stderr().lines().count(), 1, "{}", fired.stderr());
}

#[test]
fn run_answers_once_the_payload_is_complete_though_stdin_stays_open() {
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo 'no' >&2; exit 2")]),
    ));
    let mut child = p
        .isolated(bin())
        .args(["run", "--agent", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn run");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(p.bash("rm -rf /").to_string().as_bytes())
        .expect("write the payload");
    let started = Instant::now();
    // stdin stays open (held here) until run has answered.
    let limit = Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > limit {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let Some(status) = status else {
        let _ = child.kill();
        panic!("run still waiting for EOF after {limit:?}");
    };
    let output = child.wait_with_output().expect("output");
    assert!(status.success());
    let answer: Value = serde_json::from_slice(&output.stdout).expect("an answer");
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// The issue's reproduction: hookify's deny (its text only in
/// `systemMessage`) through `run` for Cursor, Copilot and Kiro.
#[test]
fn hookify_s_deny_reaches_cursor_copilot_and_kiro_with_its_text() {
    let hookify = r#"echo '{"systemMessage":"rule R1 fired","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'"#;
    let p = TempProject::trusted(&hooks("PreToolUse", "Bash", json!([command(hookify)])));
    let cases = [
        (
            "cursor",
            json!({"conversation_id":"c1","hook_event_name":"preToolUse","workspace_roots":[p.root],"tool_name":"Shell","tool_input":{"command":"ls"}}),
        ),
        (
            "copilot",
            json!({"sessionId":"s1","timestamp":1,"cwd":p.root,"toolName":"bash","toolArgs":{"command":"ls"}}),
        ),
        (
            "kiro",
            json!({"hook_event_name":"preToolUse","cwd":p.root,"tool_name":"shell","tool_input":{"command":"ls"}}),
        ),
    ];
    for (agent, payload) in cases {
        let ran = p.output(
            p.cmd(["run", "--agent", agent, "--event", "preToolUse"]),
            payload.to_string(),
        );
        let said = format!("{}{}", ran.stdout(), ran.stderr());
        assert!(said.contains("rule R1 fired"), "{agent}: {said}");
        assert!(!said.contains("blocked by a hook"), "{agent}: {said}");
    }
}

/// `"matcher": "startup"`, the most common published SessionStart hook,
/// through `run` for agents that send no `source` (Cursor, Kiro) or their
/// own word for it (Copilot's recorded `"new"`).
#[test]
fn a_startup_matcher_adds_context_in_cursor_kiro_and_copilot() {
    let p = TempProject::trusted(&hooks(
        "SessionStart",
        "startup",
        json!([command("echo 'project rules: R1'")]),
    ));
    let copilot = std::fs::read_to_string(crate::util::fixtures(
        "copilot-1.0.102/deny/00-sessionStart.json",
    ))
    .expect("the recorded payload");
    let mut copilot: Value = serde_json::from_str(&copilot).expect("JSON");
    copilot["cwd"] = json!(p.root);
    let cases = [
        (
            "cursor",
            "sessionStart",
            json!({"conversation_id":"c1","hook_event_name":"sessionStart","workspace_roots":[p.root]}),
        ),
        (
            "kiro",
            "agentSpawn",
            json!({"hook_event_name":"agentSpawn","cwd":p.root}),
        ),
        ("copilot", "sessionStart", copilot),
    ];
    for (agent, event, payload) in cases {
        let ran = p.output(
            p.cmd(["run", "--agent", agent, "--event", event]),
            payload.to_string(),
        );
        assert!(
            ran.stdout().contains("project rules: R1"),
            "{agent}: {} {}",
            ran.stdout(),
            ran.stderr()
        );
    }
}
