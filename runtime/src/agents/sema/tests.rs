use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Native};
use crate::protocol::Answer;

#[test]
fn recorded_payloads_decode_with_claude_s_tool_response() {
    let post = recorded(&Sema, "control-allow", "04-PostToolUse.json");
    assert_eq!(post.tool_name(), Some("Bash"));
    assert_eq!(post.input()["sema_tool_name"], "run_shell");
    assert_eq!(
        post.input()["tool_response"],
        json!({"stdout":"hello","stderr":"","interrupted":false,"isImage":false})
    );
    assert_eq!(post.input()["tool_response_native"], "hello");
    assert_eq!(post.input()["agent_id_native"], "main");
    assert!(!post.input().contains_key("agent_id"));
    let start = recorded(&Sema, "control-allow", "01-SessionStart.json");
    assert_eq!(start.name(), EventName::SessionStart);
    assert_eq!(start.input()["source"], "startup");
}

#[test]
fn a_permission_request_is_answered_with_permission_decision() {
    let refuse = answer(
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}),
    );
    assert_eq!(
        answered(&Sema, &at_native(&Sema, "PermissionRequest"), &refuse),
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"deny","permissionDecisionReason":"not here"}})
    );
    let grant = answer(
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}),
    );
    assert_eq!(
        answered(&Sema, &at_native(&Sema, "PermissionRequest"), &grant),
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}})
    );
    assert_eq!(
        Sema.encode(&at_native(&Sema, "PermissionRequest"), &Answer::none()),
        Native::default()
    );
}

#[test]
fn what_sema_does_not_read_is_denied_or_said() {
    // A stop before a tool: the tool does not run.
    let n = Sema.encode(&at_native(&Sema, "PreToolUse"), &stop("halt"));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert_eq!(n.notes().count(), 1);
    // A block after a tool reaches the model as the engine's own context.
    let n = Sema.encode(&at_native(&Sema, "PostToolUse"), &block("check the output"));
    assert_eq!(
        stdout_json(&n),
        json!({"decision":"block","reason":"check the output"})
    );
    assert_eq!(n.notes().count(), 0);
    // Context before a tool is dropped by the engine: said.
    let n = Sema.encode(&at_native(&Sema, "PreToolUse"), &context("ctx"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn install_writes_under_sema_root() {
    assert_eq!(INSTALL.project, ".sema/hooks/hooks.json");
    assert_eq!(INSTALL.user.dir, SEMA_ROOT);
    assert_eq!(INSTALL.user.path, "hooks/hooks.json");
}
