//! The event head (`runtime/src/head/`): `fire` answers exactly what `run`
//! answers for the same event, through every step (step aside, arrival,
//! drift, never twice, hand-off), and what agenthooks says once per session
//! when a guard is not guarding (a `hooks.json` that does not load, a hook
//! that failed and allowed).

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// What an agent receives: stdout, stderr lines, exit code.
#[derive(Debug, PartialEq)]
struct Received {
    stdout: String,
    stderr: Vec<String>,
    code: i64,
}

/// The cache and state directories under `p`'s temporary directory named
/// `name`: where the once-per-session markers live, so two commands with
/// different names see two different sessions' worth of them.
fn private_state(cmd: &mut assert_cmd::Command, p: &TempProject, name: &str) {
    // The wasm case shares the suite's warm compile cache (its guest's
    // first compile is not what is compared); it has no SessionStart.
    let cache = if name.ends_with("-wasm") {
        crate::wasm::xdg_cache()
    } else {
        p.tmp().join(name).join("cache")
    };
    cmd.env("XDG_CACHE_HOME", cache)
        .env("XDG_STATE_HOME", p.tmp().join(name).join("state"));
}

/// `run --agent AGENT` with `payload` on stdin, its caches in `cache`.
fn run(p: &TempProject, agent: &str, payload: &Value, cache: &str, extra: &[&str]) -> Received {
    let mut cmd = p.cmd(["run", "--agent", agent]);
    cmd.args(extra);
    private_state(&mut cmd, p, cache);
    let ran = p.output(cmd, payload.to_string());
    Received {
        stdout: ran.stdout(),
        stderr: ran.stderr().lines().map(str::to_string).collect(),
        code: i64::from(ran.code()),
    }
}

/// `fire EVENT --agent AGENT --input PAYLOAD --json`, its caches in
/// `cache`: the native answer it shows, and the whole report.
fn fire(
    p: &TempProject,
    agent: &str,
    payload: &Value,
    cache: &str,
    extra: &[&str],
) -> (Received, Value) {
    let event = payload["hook_event_name"].as_str().unwrap_or("PreToolUse");
    let mut cmd = p.cmd(["fire", event, "--agent", agent, "--json", "--input"]);
    cmd.arg(payload.to_string()).args(extra);
    private_state(&mut cmd, p, cache);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let shown: Value = serde_json::from_str(&ran.stdout()).expect("fire --json prints JSON");
    let native = &shown["native"];
    let received = Received {
        stdout: native["stdout"].as_str().unwrap_or_default().to_string(),
        stderr: native["stderr"]
            .as_array()
            .map(|lines| {
                lines
                    .iter()
                    .map(|l| l.as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default(),
        code: native["exitCode"].as_i64().unwrap_or(-1),
    };
    (received, shown)
}

/// `run` and `fire` on the same event, each with a fresh cache (the
/// once-per-session markers live there): the same answer. Returns it.
fn same(p: &TempProject, agent: &str, payload: &Value, case: &str) -> (Received, Value) {
    let by_run = run(p, agent, payload, &format!("cache-run-{case}"), &[]);
    let (by_fire, shown) = fire(p, agent, payload, &format!("cache-fire-{case}"), &[]);
    assert_eq!(by_fire, by_run, "{case}: fire and run differ");
    (by_run, shown)
}

/// Each agent's own SessionStart payload (as recorded in
/// tests/fixtures/agents, or documented for Cursor), and the flags its
/// entry passes.
fn native_session_start(agent: &str, p: &TempProject, session: &str) -> (Value, Vec<&'static str>) {
    match agent {
        "gemini" => (
            json!({"session_id": session, "transcript_path": p.home.join(".gemini/tmp/s.jsonl"),
                   "cwd": p.root, "hook_event_name": "SessionStart",
                   "timestamp": "2026-12-03T14:38:13.645Z", "source": "startup"}),
            vec![],
        ),
        "copilot" => (
            json!({"sessionId": session, "timestamp": 1796308692676_u64, "cwd": p.root,
                   "source": "new", "initialPrompt": "hi"}),
            vec!["--event", "sessionStart"],
        ),
        "cursor" => (
            json!({"conversation_id": session, "generation_id": "g1", "model": "m",
                   "cursor_version": "1.7", "workspace_roots": [p.root], "user_email": "u@x",
                   "hook_event_name": "sessionStart"}),
            vec![],
        ),
        _ => (session_start(p, session), vec![]),
    }
}

fn session_start(p: &TempProject, session: &str) -> Value {
    let mut payload = p.payload("SessionStart", json!({"source": "startup"}));
    payload["session_id"] = json!(session);
    payload
}

#[test]
fn fire_answers_what_run_answers_at_every_step_of_the_head() {
    // A plain deny.
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo no >&2; exit 2")]),
    ));
    let (got, _) = same(&p, "claude", &p.bash("rm -rf /"), "deny");
    assert!(
        got.stdout.contains("\"permissionDecision\":\"deny\""),
        "{got:?}"
    );

    // Arrival: an untrusted project's hook is held back, and SessionStart says so.
    let p = TempProject::new();
    p.project_hooks(&hooks("SessionStart", "*", json!([command("true")])));
    let (got, shown) = same(&p, "claude", &session_start(&p, "s-arrival"), "arrival");
    assert!(
        got.stdout.contains("not trusted yet and did not run"),
        "{got:?}"
    );
    assert!(
        shown["oncePerSession"]
            .to_string()
            .contains("not trusted yet"),
        "{shown}"
    );

    // Drift: hooks.json uses an event the installed entries do not call.
    let p = TempProject::trusted(&hooks("PreToolUse", "Bash", json!([command("true")])));
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    p.project_hooks(&json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [command("true")]}],
        "Stop": [{"hooks": [command("true")]}],
    }}));
    p.trust();
    let (got, _) = same(&p, "claude", &session_start(&p, "s-drift"), "drift");
    assert!(
        got.stderr
            .iter()
            .any(|l| l.contains("agenthooks install claude")),
        "{got:?}"
    );

    // Never twice: Claude Code's own settings run the same command.
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo twice >&2; exit 2")]),
    ));
    p.write(
        ".claude/settings.json",
        hooks(
            "PreToolUse",
            "Bash",
            json!([command("echo twice >&2; exit 2")]),
        )
        .to_string(),
    );
    let (got, _) = same(&p, "claude", &p.bash("ls"), "twice");
    assert_eq!(got.code, 0, "{got:?}");
    assert!(
        got.stderr
            .iter()
            .any(|l| l.contains("runs the same command from")),
        "{got:?}"
    );
}

#[test]
fn fire_steps_aside_where_run_does_and_says_why() {
    let p = TempProject::trusted(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo no >&2; exit 2")]),
    ));
    let installed = p.output(p.cmd(["install", "claude", "--system"]), "");
    if installed.code() != 0 {
        // No documented system-wide file for Claude Code on this platform.
        return;
    }
    let (got, shown) = same(&p, "claude", &p.bash("rm -rf /"), "aside");
    assert_eq!(got.stdout, "", "{got:?}");
    assert!(
        shown["steppedAside"]
            .as_str()
            .is_some_and(|why| why.contains("system-wide file")),
        "{shown}"
    );
    // As the system entry, both answer with the hook's deny.
    let by_run = run(
        &p,
        "claude",
        &p.bash("rm -rf /"),
        "cache-r-sys",
        &["--system"],
    );
    let (by_fire, _) = fire(
        &p,
        "claude",
        &p.bash("rm -rf /"),
        "cache-f-sys",
        &["--system"],
    );
    assert_eq!(by_fire, by_run);
    assert!(
        by_run.stdout.contains("\"permissionDecision\":\"deny\""),
        "{by_run:?}"
    );
}

#[test]
fn an_event_the_front_hands_to_the_engine_gets_the_answer_fire_gives() {
    let p = TempProject::new();
    let guest = p.path(".agents/hooks/deny.wasm");
    std::fs::create_dir_all(guest.parent().unwrap()).unwrap();
    std::fs::copy(crate::wasm::guest("deny"), &guest).unwrap();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": "$CLAUDE_PROJECT_DIR/.agents/hooks/deny.wasm"}]),
    ));
    let (got, _) = same(&p, "claude", &p.bash("rm -rf /"), "handoff-wasm");
    assert!(got.stdout.contains("deny"), "{got:?}");
}

#[test]
fn a_hooks_json_that_does_not_load_is_said_in_the_agent_at_session_start() {
    let p = TempProject::new();
    p.write(
        ".agents/hooks.json",
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]},]}}\n",
    );
    for agent in ["claude", "gemini", "copilot", "cursor"] {
        let session = format!("s-broken-{agent}");
        let (payload, args) = native_session_start(agent, &p, &session);
        let got = run(&p, agent, &payload, &format!("cache-broken-{agent}"), &args);
        let shown = got.stdout.clone();
        assert!(
            shown.contains("hooks.json")
                && shown.contains("does not load")
                && shown.contains("line 1"),
            "{agent}: {got:?}"
        );
        assert!(shown.contains("its hooks did not run"), "{agent}: {got:?}");
    }
}

#[test]
fn a_prompt_hook_that_cannot_reach_its_model_is_said_once_and_counted_at_the_next_start() {
    // A port nothing listens on: bound, then closed.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let p = TempProject::new();
    p.user_hooks(&json!({
        "llm": {"provider": "anthropic", "baseUrl": format!("http://127.0.0.1:{port}"), "apiKeyEnv": "AGENTHOOKS_TEST_KEY"},
        "allowLlmHooks": true,
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "prompt", "prompt": "Block anything that deletes files. $ARGUMENTS", "timeout": 5}
        ]}]}
    }));
    let cache = "cache-model";
    let session = "s-model-1";
    let mut event = p.bash("rm -rf /");
    event["session_id"] = json!(session);
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    private_state(&mut cmd, &p, cache);
    cmd.env("AGENTHOOKS_TEST_KEY", "k");
    let first = p.output(cmd, event.to_string());
    assert_eq!(first.code(), 0, "{}", first.stderr());
    let answer: Value = serde_json::from_str(&first.stdout()).expect("an answer");
    let message = answer["systemMessage"].as_str().unwrap_or_default();
    assert!(
        message.contains("hook prompt `")
            && message.contains("allowed `Bash`")
            && message.contains("\"onError\": \"deny\""),
        "{}",
        first.stdout()
    );
    // `status` knows it too, from the same record: the hook failed recently.
    let mut cmd = p.cmd(["status"]);
    private_state(&mut cmd, &p, cache);
    let status = p.output(cmd, "");
    assert_eq!(status.code(), 1, "{}", status.stdout());
    assert!(
        status
            .stdout()
            .contains("failed recently and was allowed (the model request failed"),
        "{}",
        status.stdout()
    );
    // The next event of the session does not say it again.
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    private_state(&mut cmd, &p, cache);
    cmd.env("AGENTHOOKS_TEST_KEY", "k");
    let second = p.output(cmd, event.to_string());
    assert!(
        !second.stdout().contains("allowed `Bash`"),
        "{}",
        second.stdout()
    );
    // The next session starts with the count.
    let start = session_start(&p, "s-model-2");
    let next = run(&p, "claude", &start, cache, &[]);
    assert!(
        next.stdout
            .contains("2 hook runs failed open in the last session"),
        "{next:?}"
    );
    // Once.
    let again = run(&p, "claude", &session_start(&p, "s-model-3"), cache, &[]);
    assert!(!again.stdout.contains("failed open"), "{again:?}");
}
