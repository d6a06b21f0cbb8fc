//! The spine: `run`, `fire` and `schema` end to end, with real shell hooks.

use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{
    alive, command, command_with_timeout, eventually, fixtures, hooks, read_pid, repo_root,
    TempProject,
};

/// The project with `handlers` for PreToolUse on `Bash`, trusted.
fn bash_project(handlers: Value) -> TempProject {
    TempProject::trusted(&hooks("PreToolUse", "Bash", handlers))
}

fn hso(answer: &Value) -> &Value {
    &answer["hookSpecificOutput"]
}

#[test]
fn deny_by_exit_two_with_the_reason_from_stderr() {
    let p = bash_project(json!([command("echo 'no pushing here' >&2; exit 2")]));
    let ran = p.run(&p.bash("git push"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let answer = ran.json();
    assert_eq!(hso(&answer)["hookEventName"], "PreToolUse");
    assert_eq!(hso(&answer)["permissionDecision"], "deny");
    assert_eq!(hso(&answer)["permissionDecisionReason"], "no pushing here");
}

#[test]
fn deny_by_json() {
    let p = bash_project(json!([command(
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}'"#
    )]));
    let answer = p.run(&p.bash("rm -rf /")).json();
    assert_eq!(hso(&answer)["permissionDecision"], "deny");
    assert_eq!(hso(&answer)["permissionDecisionReason"], "policy");
}

#[test]
fn ask_passes_through() {
    let p = bash_project(json!([command(
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'"#
    )]));
    let answer = p.run(&p.bash("git reset --hard")).json();
    assert_eq!(hso(&answer)["permissionDecision"], "ask");
    assert_eq!(hso(&answer)["permissionDecisionReason"], "sure?");
}

#[test]
fn updated_inputs_merge_key_by_key_and_the_first_hook_wins_a_conflict() {
    let first = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la","timeout":5000}}}'"#;
    let second = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -rf /","description":"listing"}}}'"#;
    let p = bash_project(json!([command(first), command(second)]));
    let ran = p.run(&p.bash("ls"));
    let answer = ran.json();
    assert_eq!(hso(&answer)["permissionDecision"], "allow");
    assert_eq!(
        hso(&answer)["updatedInput"],
        json!({"command": "ls -la", "timeout": 5000, "description": "listing"})
    );
    let stderr = ran.stderr();
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("agenthooks: ") && l.contains("updatedInput.command")),
        "no conflict note: {stderr}"
    );
}

#[test]
fn contexts_join_in_declaration_order_not_finishing_order() {
    // The first-declared hook finishes last.
    let p = TempProject::trusted(&hooks(
        "UserPromptSubmit",
        "",
        json!([
            command("sleep 0.4; echo from-first"),
            command("echo from-second")
        ]),
    ));
    let ran = p.run(&p.prompt("hi"));
    let answer = ran.json();
    let context = hso(&answer)["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (a, b) = (context.find("from-first"), context.find("from-second"));
    assert!(a.is_some() && b.is_some() && a < b, "{context}");
    assert_eq!(hso(&answer)["hookEventName"], "UserPromptSubmit");
}

#[test]
fn continue_false_stops_the_agent() {
    let p = bash_project(json!([command(
        r#"echo '{"continue":false,"stopReason":"budget exhausted"}'"#
    )]));
    let answer = p.run(&p.bash("make")).json();
    assert_eq!(answer["continue"], false);
    assert_eq!(answer["stopReason"], "budget exhausted");
}

#[cfg(unix)]
#[test]
fn a_hook_past_its_timeout_allows_and_its_whole_process_group_is_killed() {
    let p = TempProject::new();
    p.script(
        "slow.sh",
        "sleep 30 &\necho $! > \"$CLAUDE_PROJECT_DIR/grandchild.pid\"\nwait",
    );
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command_with_timeout(
            "\"$CLAUDE_PROJECT_DIR\"/.agents/hooks/slow.sh",
            1
        )]),
    ));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    ran.assert_took_less_than(Duration::from_secs(2));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), serde_json::Value::Null, "a timeout allows");
    ran.assert_stderr_contains("timed out after 1s");
    let pid = read_pid(&p.path("grandchild.pid"));
    assert!(
        eventually(Duration::from_secs(2), || !alive(pid)),
        "grandchild {pid} survived the timeout"
    );
}

#[cfg(unix)]
#[test]
fn a_background_process_holding_stdout_does_not_hold_the_answer_past_the_timeout() {
    let p = TempProject::new();
    // The hook answers and exits at once, but leaves a process with its stdout.
    p.script(
        "leaky.sh",
        "sleep 30 &\necho $! > \"$CLAUDE_PROJECT_DIR/leak.pid\"\n\
         echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"leaky\"}}'",
    );
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command_with_timeout(
            "\"$CLAUDE_PROJECT_DIR\"/.agents/hooks/leaky.sh",
            1
        )]),
    ));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    ran.assert_took_less_than(Duration::from_secs(2));
    assert_eq!(
        hso(&ran.json())["permissionDecision"],
        "deny",
        "its answer counts"
    );
    ran.assert_stderr_contains("kept its output open");
    let pid = read_pid(&p.path("leak.pid"));
    assert!(
        eventually(Duration::from_secs(2), || !alive(pid)),
        "{pid} survived"
    );
}

#[test]
fn exit_one_allows_with_a_note() {
    let p = bash_project(json!([command("echo 'it broke' >&2; exit 1")]));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), serde_json::Value::Null);
    let stderr = ran.stderr();
    assert!(
        stderr.contains("exited with code 1: it broke") && stderr.starts_with("agenthooks: "),
        "{stderr}"
    );
}

#[test]
fn a_missing_command_allows_with_a_note() {
    let p = bash_project(json!([command("/nonexistent/agenthooks-hook.sh")]));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.decided(), serde_json::Value::Null);
    ran.assert_stderr_contains("exited with code 127");
}

#[test]
fn an_async_hook_gets_its_input_but_does_not_delay_the_answer() {
    let p = TempProject::trusted(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "async": true,
             "command": "cat > \"$CLAUDE_PROJECT_DIR/async-input.json\"; sleep 5"},
            {"type": "command", "command": "echo 'sync said no' >&2; exit 2"}
        ]}]}}),
    );
    let ran = p.run(&p.bash("ls"));
    ran.assert_took_less_than(Duration::from_secs(3));
    assert_eq!(hso(&ran.json())["permissionDecision"], "deny");
    let path = p.path("async-input.json");
    assert!(
        eventually(Duration::from_secs(3), || {
            std::fs::read_to_string(&path).is_ok_and(|t| t.contains("\"PreToolUse\""))
        }),
        "the async hook never got its input"
    );
}

#[test]
fn an_identical_hook_in_user_and_project_scope_runs_once() {
    let p = TempProject::new();
    let config = hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo ran >> \"$CLAUDE_PROJECT_DIR/count\"")]),
    );
    p.user_hooks(&config);
    p.project_hooks(&config);
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let count = std::fs::read_to_string(p.path("count")).expect("the hook ran");
    assert_eq!(count.lines().count(), 1, "{count}");
}

#[test]
fn if_filters_on_the_shell_command() {
    let p = TempProject::trusted(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "if": "^git push",
        "hooks": [command("echo 'no push' >&2; exit 2")]}]}}),
    );
    assert_eq!(p.run(&p.bash("git status")).stdout(), "");
    assert_eq!(
        hso(&p.run(&p.bash("git push origin main")).json())["permissionDecision"],
        "deny"
    );
}

#[test]
fn a_broken_config_file_is_a_note_and_the_other_scope_still_runs() {
    let p = TempProject::new();
    p.user_hooks(&hooks(
        "UserPromptSubmit",
        "",
        json!([command("echo user-hook-ran")]),
    ));
    p.write(
        ".agents/hooks.json",
        "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n",
    );
    let ran = p.run(&p.prompt("x"));
    assert_eq!(ran.code(), 0);
    assert_eq!(hso(&ran.json())["additionalContext"], "user-hook-ran");
    let stderr = ran.stderr();
    let note = stderr
        .lines()
        .find(|l| l.contains(".agents/hooks.json"))
        .unwrap_or_else(|| panic!("no note naming the file: {stderr}"));
    assert!(note.starts_with("agenthooks: "), "{note}");
    assert!(note.contains("line 3") && note.contains("column"), "{note}");
}

#[test]
fn five_megabytes_of_hook_output_are_truncated_with_a_note() {
    let p = bash_project(json!([command(
        "head -c 5000000 /dev/zero | tr '\\0' 'a'; echo 'big' >&2; exit 2"
    )]));
    let ran = p.run(&p.bash("ls"));
    ran.assert_took_less_than(Duration::from_secs(20));
    let answer = ran.json();
    assert_eq!(hso(&answer)["permissionDecision"], "deny");
    ran.assert_stderr_contains("stdout was over 1 MiB");
}

#[test]
fn input_over_32_mib_is_refused_and_allows() {
    let p = bash_project(json!([command("exit 2")]));
    let mut payload = p.bash("ls");
    payload["tool_input"]["command"] = json!("x".repeat(33 << 20));
    let ran = p.run(&payload);
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.stdout(), "");
    ran.assert_stderr_contains("over 32 MiB");
}

#[test]
fn malformed_json_allows_with_one_note() {
    let p = bash_project(json!([command("exit 2")]));
    let ran = p.run_raw("{\"hook_event_name\": \"PreToolUse\",");
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.stdout(), "");
    let stderr = ran.stderr();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("agenthooks: the hook input is not valid JSON"),
        "{stderr}"
    );
    assert!(stderr.trim_end().ends_with("allowing"), "{stderr}");
}

#[test]
fn an_unknown_event_allows_with_a_note() {
    let p = TempProject::new();
    let ran = p.run(&json!({"hook_event_name": "NoSuchEvent", "cwd": p.root}));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.stdout(), "");
    ran.assert_stderr_contains("unknown event `NoSuchEvent`");
}

#[test]
fn an_unknown_agent_or_bad_arguments_allow() {
    let p = TempProject::new();
    let ran = p.output(p.cmd(["run", "--agent", "nope"]), "{}");
    assert_eq!((ran.code(), ran.stdout()), (0, String::new()));
    ran.assert_stderr_contains("no agent named `nope`");
    let ran = p.output(p.cmd(["run", "--agent", "claude", "--no-such-flag"]), "{}");
    assert_eq!((ran.code(), ran.stdout()), (0, String::new()));
    assert!(ran.stderr().starts_with("agenthooks: "), "{}", ran.stderr());
}

#[test]
fn untrusted_project_commands_do_not_run() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("touch \"$CLAUDE_PROJECT_DIR/ran\"; exit 2")]),
    ));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.stdout(), "");
    assert!(!p.path("ran").exists());
    ran.assert_stderr_contains("agenthooks trust");
}

#[test]
fn hooks_run_in_the_event_cwd_with_the_project_dir_set() {
    let p = TempProject::new();
    std::fs::create_dir_all(p.path("sub")).unwrap();
    p.project_hooks(&hooks(
        "UserPromptSubmit",
        "",
        json!([command("echo \"cwd=$(pwd) project=$CLAUDE_PROJECT_DIR\"")]),
    ));
    p.trust();
    let mut payload = p.prompt("x");
    payload["cwd"] = json!(p.path("sub"));
    let answer = p.run(&payload).json();
    let expected = format!(
        "cwd={} project={}",
        p.path("sub").display(),
        p.root.display()
    );
    assert_eq!(hso(&answer)["additionalContext"], expected);
}

/// What the recording hook answers at each event, and what Claude Code must
/// then receive on stdout.
fn recorded_case(event: &str) -> (&'static str, Value) {
    match event {
        "SessionStart" | "UserPromptSubmit" => (
            "echo context-for-the-model",
            json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": "context-for-the-model"}}),
        ),
        "PreToolUse" => (
            r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"recorded"}}'"#,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "recorded"}}),
        ),
        "PostToolUse" | "PostToolBatch" | "Stop" => (
            "echo 'look again' >&2; exit 2",
            json!({"decision": "block", "reason": "look again"}),
        ),
        _ => ("true", Value::Null),
    }
}

#[test]
fn recorded_claude_payloads_reach_the_hook_and_the_answer_is_what_claude_honours() {
    let dir = fixtures("claude-2.1.332/control-allow");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "fixtures missing in {}", dir.display());
    let mut seen = std::collections::BTreeSet::new();
    for file in files {
        let mut payload: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let event = payload["hook_event_name"].as_str().unwrap().to_string();
        if !seen.insert(event.clone()) {
            continue;
        }
        let p = TempProject::new();
        // The recorded cwd is on another machine: the agent runs in our project.
        payload["cwd"] = json!(p.root);
        let (answer_cmd, expected) = recorded_case(&event);
        let record = format!("cat > \"$CLAUDE_PROJECT_DIR/got.json\"; {answer_cmd}");
        p.project_hooks(&hooks(&event, "", json!([command(&record)])));
        p.trust();
        let ran = p.run(&payload);
        assert_eq!(ran.code(), 0, "{event}: {}", ran.stderr());
        let got: Value =
            serde_json::from_str(&std::fs::read_to_string(p.path("got.json")).unwrap())
                .unwrap_or_else(|e| panic!("{event}: the hook got no JSON: {e}"));
        let mut want = payload.clone();
        want["harness"] = json!("claude");
        if let Some(tool) = payload["tool_name"].as_str() {
            assert_eq!(tool, "Bash");
            want["tool_kind"] = json!("shell");
        }
        assert_eq!(got, want, "{event}: the hook's input");
        assert_eq!(
            ran.json(),
            expected,
            "{event}: the answer; stderr: {}",
            ran.stderr()
        );
    }
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
    ] {
        assert!(seen.contains(event), "no recorded {event}");
    }
}

#[test]
fn fire_shows_each_hook_the_answer_and_the_native_output() {
    let p = bash_project(json!([
        command("echo 'not on main' >&2; exit 2"),
        command("echo '{\"systemMessage\":\"checked\"}'"),
    ]));
    let out = p
        .cmd([
            "fire",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"git push"}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "event: PreToolUse from Claude Code",
        "[1] command",
        "[2] command",
        "exit 2",
        "stderr: not on main",
        "\"permissionDecision\":\"deny\"",
        "native answer for claude: exit 0",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

#[test]
fn fire_json_is_one_document_with_the_event_hooks_answer_and_native_output() {
    let p = bash_project(json!([command(
        "cat > \"$CLAUDE_PROJECT_DIR/got.json\"; echo 'nope' >&2; exit 2"
    )]));
    let out = p
        .cmd([
            "fire",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"git push"}"#,
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["event"]["tool_input"]["command"], "git push");
    assert_eq!(doc["event"]["harness"], "claude");
    assert_eq!(doc["event"]["tool_kind"], "shell");
    for key in [
        "session_id",
        "transcript_path",
        "cwd",
        "permission_mode",
        "tool_use_id",
    ] {
        assert!(
            doc["event"][key].is_string(),
            "event lacks {key}: {}",
            doc["event"]
        );
    }
    let hook = &doc["handlers"][0];
    assert_eq!(hook["status"], "answered");
    assert_eq!(hook["exitCode"], 2);
    assert_eq!(hook["stderr"], "nope\n");
    assert!(hook["durationMs"].as_u64().is_some());
    assert_eq!(
        doc["answer"]["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert_eq!(doc["native"]["exitCode"], 0);
    let native: Value = serde_json::from_str(doc["native"]["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(native, doc["answer"]);
    // The hook saw the same event that was reported.
    let got: Value =
        serde_json::from_str(&std::fs::read_to_string(p.path("got.json")).unwrap()).unwrap();
    assert_eq!(got, doc["event"]);
}

#[test]
fn fire_makes_up_the_events_own_fields() {
    let p = TempProject::new();
    let out = p.cmd(["fire", "SessionStart", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["event"]["source"], "startup");
    assert_eq!(doc["event"]["cwd"], json!(p.root));
    assert_eq!(doc["handlers"], json!([]));
    let out = p
        .cmd(["fire", "UserPromptSubmit", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["event"]["prompt"].is_string());
}

#[test]
fn fire_replays_a_recorded_payload() {
    let p = bash_project(json!([command("echo 'recorded deny' >&2; exit 2")]));
    let file = fixtures("claude-2.1.332/control-allow/05-PreToolUse.json");
    let out = p
        .cmd(["fire", "PreToolUse", "--input-file"])
        .arg(&file)
        .args(["--cwd", p.root.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["event"]["tool_input"]["command"],
        "rm -rf /home/dev/victim-claude"
    );
    assert_eq!(doc["event"]["tool_use_id"], "toolu_0003");
    assert_eq!(
        doc["answer"]["hookSpecificOutput"]["permissionDecisionReason"],
        "recorded deny"
    );
}

#[test]
fn fire_rejects_an_unknown_event_with_one_line_and_exit_two() {
    let p = TempProject::new();
    let out = p.cmd(["fire", "PreTooluse"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("agenthooks: unknown event `PreTooluse`"),
        "{stderr}"
    );
}

#[test]
fn schema_prints_the_checked_in_schemas() {
    let p = TempProject::new();
    for which in ["input", "answer", "config"] {
        let out = p.cmd(["schema", which]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let stored =
            std::fs::read(repo_root().join(format!("runtime/schema/{which}.json"))).unwrap();
        assert_eq!(out.stdout, stored, "{which}");
    }
    let out = p.cmd(["schema"]).output().unwrap();
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(all["answer"]["properties"]["hookSpecificOutput"].is_object());
    let out = p.cmd(["schema", "bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_exits_zero() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(crate::util::bin())
        .arg("schema")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_hook_that_never_reads_a_large_input_does_not_deadlock() {
    // 4 MB of input is far past a pipe buffer; the hook answers without reading it.
    let p = bash_project(json!([command("echo 'did not read' >&2; exit 2")]));
    let mut payload = p.bash("ls");
    payload["tool_input"]["content"] = json!("y".repeat(4 << 20));
    let ran = p.run(&payload);
    ran.assert_took_less_than(Duration::from_secs(10));
    assert_eq!(hso(&ran.json())["permissionDecisionReason"], "did not read");
}

#[test]
fn output_that_is_not_utf8_survives_lossily() {
    let p = TempProject::trusted(&hooks(
        "UserPromptSubmit",
        "",
        json!([command("printf 'caf\\351 ok'")]),
    ));
    let answer = p.run(&p.prompt("x")).json();
    assert_eq!(hso(&answer)["additionalContext"], "caf\u{FFFD} ok");
}

#[test]
fn verbose_shows_each_hooks_outcome() {
    let p = bash_project(json!([command("exit 0"), command("echo no >&2; exit 2")]));
    let ran = p.output(
        p.cmd(["run", "--agent", "claude", "--verbose"]),
        p.bash("ls").to_string(),
    );
    let stderr = ran.stderr();
    assert!(
        stderr.contains(": answered (no opinion, exit 0,"),
        "{stderr}"
    );
    assert!(stderr.contains("\"decision\":\"block\""), "{stderr}");
    assert!(stderr.contains("exit 2,"), "{stderr}");
}

#[test]
fn run_appends_one_audit_line_per_event() {
    let p = bash_project(json!([command("echo 'audited' >&2; exit 2")]));
    let log = p.tmp().join("audit.jsonl");
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("AGENTHOOKS_AUDIT", &log);
    let ran = p.output(cmd, p.bash("git push").to_string());
    assert_eq!(hso(&ran.json())["permissionDecision"], "deny");
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("AGENTHOOKS_AUDIT", &log);
    // Nothing is selected at Stop: still one line.
    p.output(cmd, p.payload("Stop", json!({})).to_string());
    let text = std::fs::read_to_string(&log).expect("the audit log was written");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["event"], "PreToolUse");
    assert_eq!(lines[0]["decision"], "deny");
    assert_eq!(lines[0]["handlers"].as_array().unwrap().len(), 1);
    assert_eq!(lines[1]["event"], "Stop");
    // Nothing had an opinion: the agent decides.
    assert_eq!(lines[1]["decision"], "none");
}

#[test]
fn a_cwd_that_does_not_exist_falls_back_to_the_project_root() {
    let p = TempProject::trusted(&hooks(
        "UserPromptSubmit",
        "",
        json!([command("echo \"cwd=$(pwd)\"")]),
    ));
    let mut payload = p.prompt("x");
    payload["cwd"] = json!("/nonexistent/agenthooks/cwd");
    // As in Claude Code, the agent names the project in the environment.
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("CLAUDE_PROJECT_DIR", &p.root).current_dir(&p.home);
    let ran = p.output(cmd, payload.to_string());
    let expected = format!("cwd={}", p.root.display());
    assert_eq!(
        hso(&ran.json())["additionalContext"],
        expected,
        "{}",
        ran.stderr()
    );
}
