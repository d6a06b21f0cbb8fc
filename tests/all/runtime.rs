//! Library mode ([`agenthooks::Runtime`]): the same answers as `agenthooks
//! run`, configuration changes picked up between events, and many events
//! dispatched at once from many tasks.

use std::sync::Arc;

use agenthooks::exec::wasm::CacheDir;
use agenthooks::protocol::{Event, Outcome};
use agenthooks::{Runtime, RuntimeOptions};
use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};
use crate::wasm::{guest, test_cache};

/// A project with the `deny` guest as a project wasm hook and a user command
/// hook adding context, and a runtime for it (sharing the tests' compile cache).
fn project() -> (TempProject, Runtime) {
    let p = TempProject::new();
    p.write(
        ".agents/hooks/deny.wasm",
        std::fs::read(guest("deny")).expect("the deny guest"),
    );
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/deny.wasm", "timeout": 10}]),
    ));
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"from the user hook"}}'"#)]),
    ));
    let runtime = runtime_for(&p);
    (p, runtime)
}

fn runtime_for(p: &TempProject) -> Runtime {
    Runtime::new(
        RuntimeOptions::default()
            .with_home(p.tmp().canonicalize().expect("tmp").join("home"))
            .with_cache(CacheDir::at(test_cache())),
    )
}

fn event(payload: &Value) -> Event {
    Event::new(payload.clone(), None, "claude").expect("a valid event")
}

fn current_thread() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn dispatch_answers_as_run_does() {
    let (p, runtime) = project();
    let payload = p.bash("rm -rf /");
    let ran = p.run(&payload);
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let rt = current_thread();

    let done = rt.block_on(runtime.dispatch(event(&payload)));
    assert_eq!(done.reports.len(), 2, "{:?}", done.reports);
    assert!(done
        .reports
        .iter()
        .all(|r| matches!(r.outcome, Outcome::Answered(_))));
    let answer = serde_json::to_value(&done.answer).expect("json");
    assert_eq!(
        answer,
        ran.json(),
        "library: {answer}\nrun: {}",
        ran.stdout()
    );
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"],
        json!("deny")
    );

    let claude = agenthooks::agents::find("claude").expect("claude");
    let native = rt
        .block_on(runtime.dispatch_native(claude, payload.clone(), None))
        .expect("decodes");
    assert_eq!(native.stdout, ran.stdout());
    assert_eq!(native.exit_code, ran.code());
    let run_stderr = ran.stderr();
    assert_eq!(native.stderr, run_stderr.lines().collect::<Vec<_>>());

    // Another agent's dialect through the same runtime: Gemini's deny.
    let gemini = agenthooks::agents::find("gemini").expect("gemini");
    let gemini_payload = json!({
        "session_id": "s", "transcript_path": p.path("no-transcript.jsonl"), "cwd": p.path(""),
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf /"}
    });
    let native = rt
        .block_on(runtime.dispatch_native(gemini, gemini_payload.clone(), None))
        .expect("decodes");
    let ran = p.output(
        p.cmd(["run", "--agent", "gemini"]),
        gemini_payload.to_string(),
    );
    assert_eq!(native.stdout, ran.stdout());
    assert_eq!(native.exit_code, ran.code());
    assert!(native.stdout.contains("deny"), "{native:?}");
}

#[test]
fn bad_native_input_is_a_typed_error() {
    let (_p, runtime) = project();
    let claude = agenthooks::agents::find("claude").expect("claude");
    let rt = current_thread();
    let err = rt.block_on(runtime.dispatch_native(claude, json!([1, 2]), None));
    assert!(err.is_err(), "{err:?}");
}

#[test]
fn a_changed_config_is_picked_up() {
    let (p, runtime) = project();
    let rt = current_thread();
    let payload = p.bash("ls");
    let context = |runtime: &Runtime| {
        let done = rt.block_on(runtime.dispatch(event(&payload)));
        serde_json::to_value(&done.answer).expect("json")["hookSpecificOutput"]["additionalContext"]
            .clone()
    };
    let first = context(&runtime);
    assert!(
        first
            .as_str()
            .unwrap_or_default()
            .contains("from the user hook"),
        "{first}"
    );
    // The user hook now says something else, and the wasm hook is gone.
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"changed"}}'"#)]),
    ));
    p.project_hooks(&json!({"hooks": {}}));
    assert_eq!(context(&runtime), json!("changed"));
    let done = rt.block_on(runtime.dispatch(event(&payload)));
    assert_eq!(done.reports.len(), 1, "{:?}", done.reports);

    // A config file that appears later is read too.
    let q = TempProject::new();
    let runtime = runtime_for(&q);
    let payload = q.bash("ls");
    let none = rt.block_on(runtime.dispatch(event(&payload)));
    assert!(none.reports.is_empty());
    q.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": guest("deny")}]),
    ));
    let done = rt.block_on(runtime.dispatch(event(&payload)));
    assert_eq!(done.reports.len(), 1);
}

#[test]
fn many_tasks_dispatch_at_once() {
    let (p, runtime) = project();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .expect("a runtime");
    let runtime = Arc::new(runtime);
    let tasks: Vec<_> = (0..32)
        .map(|task| {
            let runtime = runtime.clone();
            let mut payload = p.bash(&format!("echo {task}"));
            payload["session_id"] = json!(format!("session-{task}"));
            rt.spawn(async move {
                let mut answers = Vec::new();
                for _ in 0..4 {
                    let done = runtime.dispatch(event(&payload)).await;
                    answers.push(serde_json::to_value(&done.answer).expect("json"));
                }
                (task, answers)
            })
        })
        .collect();
    for handle in tasks {
        let (task, answers) = rt.block_on(handle).expect("the task ends");
        for answer in answers {
            let out = &answer["hookSpecificOutput"];
            assert_eq!(out["permissionDecision"], json!("deny"), "{answer}");
            // Each event's own session reached its own guest instance.
            let context = out["additionalContext"].as_str().unwrap_or_default();
            assert!(
                context.contains(&format!("session=session-{task}")),
                "{context}"
            );
            assert!(context.contains("from the user hook"), "{context}");
        }
    }
}

#[test]
fn more_events_at_once_than_the_instance_pool_holds_all_run() {
    // 100 guests that block (each until its 1 s timeout) are alive at once:
    // more than the pooling allocator's 64 instances. None may fail for
    // want of a slot; each ends in its own timeout.
    let p = TempProject::new();
    p.write(
        ".agents/hooks/sleep.wasm",
        std::fs::read(guest("sleep")).expect("the sleep guest"),
    );
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/sleep.wasm", "timeout": 1}]),
    ));
    let runtime = runtime_for(&p);
    // Compiled first: a compile counts against the 1 s timeout too.
    let (compiled, _) = runtime
        .wasm_host()
        .compile(&p.path(".agents/hooks/sleep.wasm"));
    compiled.expect("the sleep guest compiles");
    // Past the settle time of the file just written, so the events take the
    // component from memory instead of hashing it again each (FileStamp).
    std::thread::sleep(agenthooks::fsread::SETTLE + std::time::Duration::from_secs(1));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let payload = p.bash("ls");
    let outcomes = rt.block_on(futures_util::future::join_all(
        (0..100).map(|_| runtime.dispatch(event(&payload))),
    ));
    rt.shutdown_background();
    for done in outcomes {
        assert_eq!(done.reports.len(), 1);
        assert!(
            matches!(
                done.reports[0].outcome,
                Outcome::Failed(agenthooks::protocol::Failure::Timeout { .. })
            ),
            "{:?}",
            done.reports[0].outcome
        );
    }
}
