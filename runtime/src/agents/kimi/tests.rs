use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;

/// A PreToolUse payload as Kimi's `runPreToolUse` builds it (snake_case
/// keys, the tool's own argument names).
fn pre_tool(tool: &str, input: serde_json::Value) -> serde_json::Value {
    json!({
        "hook_event_name": "PreToolUse",
        "session_id": "session_abc",
        "session_title": "t",
        "client_type": "kimi_code_cli",
        "cwd": "/p",
        "tool_name": tool,
        "tool_input": input,
        "tool_call_id": "call_1",
    })
}

#[test]
fn file_tools_path_is_claude_s_file_path() {
    let ev = decoded(
        &AGENT,
        pre_tool(
            "Edit",
            json!({"path": "a.rs", "old_string": "x", "new_string": "y"}),
        ),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    assert_eq!(ev.tool_input().unwrap()["file_path"], json!("/p/a.rs"));
}

#[test]
fn a_deny_and_a_block_are_exit_2_with_the_reason() {
    let ev = decoded(&AGENT, pre_tool("Bash", json!({"command": "rm -rf /"})));
    let n = AGENT.encode(&ev, &deny("no rm"));
    assert_eq!(
        (n.exit_code, n.stdout.as_str(), n.stderr[0].as_str()),
        (2, "", "no rm")
    );
    let stop = decoded(
        &AGENT,
        json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/p", "stop_hook_active": false}),
    );
    let n = AGENT.encode(&stop, &block("run the tests"));
    assert_eq!((n.exit_code, n.stderr[0].as_str()), (2, "run the tests"));
    let start = decoded(
        &AGENT,
        json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "/p", "source": "startup"}),
    );
    let n = AGENT.encode(&start, &context("c"));
    assert_eq!(
        (n.exit_code, n.notes().count()),
        (0, 1),
        "context is said to be dropped"
    );
}

#[test]
fn only_the_user_config_and_kimi_s_accepted_timeout() {
    assert_eq!(INSTALL.project, USER_ONLY);
    let Registration::Toml(spec) = INSTALL.registration else {
        panic!("Kimi registers in TOML");
    };
    assert_eq!((spec.array, spec.event_key), ("hooks", "event"));
    assert_eq!(spec.timeout_range, (1, 600));
    // Every event install registers is one Kimi's config accepts.
    const KIMI_EVENTS: &[&str] = &[
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "PermissionResult",
        "UserPromptSubmit",
        "UserPromptQueued",
        "TurnStarted",
        "Stop",
        "StopFailure",
        "Interrupt",
        "SessionStart",
        "SessionEnd",
        "SessionHeartbeat",
        "SubagentStart",
        "SubagentStop",
        "TaskStarted",
        "PreCompact",
        "PostCompact",
        "Notification",
    ];
    for row in TABLE.events {
        assert!(KIMI_EVENTS.contains(&row.native), "{}", row.native);
    }
}
