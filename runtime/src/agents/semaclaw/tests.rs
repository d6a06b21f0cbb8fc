use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Native};
use crate::protocol::{Answer, EventName};

#[test]
fn recorded_payloads_decode_into_claude_s_shape() {
    let post = recorded(&SemaClaw, "control-allow", "04-PostToolUse.json");
    assert_eq!(post.tool_name(), Some("Bash"));
    assert_eq!(
        post.input()["tool_response"],
        json!({"stdout":"hello","stderr":"","interrupted":false,"isImage":false})
    );
    assert_eq!(
        post.input()["tool_response_native"]["stdoutLines"],
        json!(1),
        "SemaClaw's own result is kept"
    );
    assert!(
        !post.input().contains_key("agent_id"),
        "`main` is not a subagent"
    );
    assert_eq!(post.input()["agent_id_native"], "main");
    assert_eq!(post.input()["timestamp"], "2026-12-03T07:57:27.375Z");

    let stop = recorded(&SemaClaw, "control-allow", "07-Stop.json");
    assert_eq!(stop.name(), EventName::Stop);
    assert_eq!(stop.input()["stop_hook_active"], false);
    assert_eq!(stop.input()["turn_duration_ms"], 994);

    let permission = recorded(&SemaClaw, "permission-request", "04-PermissionRequest.json");
    assert_eq!(permission.name(), EventName::PermissionRequest);
    assert_eq!(
        permission.tool_input().unwrap(),
        &json!({"command":"echo hello"})
    );

    let compact = recorded(&SemaClaw, "compact", "09-PreCompact.json");
    assert_eq!(compact.input()["message_count"], 6);
    let prompt = recorded(&SemaClaw, "compact", "08-UserPromptSubmit.json");
    assert_eq!(prompt.str_field("prompt"), Some("/compact"));
}

#[test]
fn semaclaw_s_own_tool_names_map_to_claude_s() {
    let ev = decoded(
        &SemaClaw,
        json!({"hook_event_name":"PreToolUse","tool_name":"AskUser","tool_input":{"questions":[]}}),
    );
    assert_eq!(ev.tool_name(), Some("AskUserQuestion"));
    let ev = decoded(
        &SemaClaw,
        json!({"hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"prompt":"p"}}),
    );
    assert_eq!(ev.tool_name(), Some("Agent"));
    // A subagent's id is Claude's `agent_id` as it is.
    let ev = decoded(
        &SemaClaw,
        json!({"hook_event_name":"PreToolUse","agent_id":"sub-1","tool_name":"Read","tool_input":{"file_path":"/a"}}),
    );
    assert_eq!(ev.input()["agent_id"], "sub-1");
}

#[test]
fn a_deny_is_a_reject_with_its_reason_and_no_opinion_is_nothing() {
    let pre = recorded(&SemaClaw, "deny", "05-PreToolUse.json");
    let n = SemaClaw.encode(&pre, &deny("rm -rf is not allowed"));
    assert_eq!(n.exit_code, 0);
    assert_eq!(
        stdout_json(&n),
        json!({"decision":"reject","reason":"rm -rf is not allowed"})
    );
    assert_eq!(n.notes().count(), 0);
    assert_eq!(SemaClaw.encode(&pre, &Answer::none()), Native::default());
    // A deny without a reason still tells the model why.
    let bare = answer(json!({"hookSpecificOutput":{"permissionDecision":"deny"}}));
    assert_eq!(
        stdout_json(&SemaClaw.encode(&pre, &bare)),
        json!({"decision":"reject","reason":"blocked by a hook"})
    );
}

#[test]
fn a_stop_is_a_reject_with_abort_where_semaclaw_can_block() {
    for native in ["PreToolUse", "UserPromptSubmit", "PermissionRequest"] {
        let n = SemaClaw.encode(&at_native(&SemaClaw, native), &stop("halt"));
        assert_eq!(
            stdout_json(&n),
            json!({"decision":"reject","reason":"halt","abort":true}),
            "{native}"
        );
        assert_eq!(n.notes().count(), 0, "{native}");
    }
    // A stop beside a deny keeps the deny's reason when it has none.
    let both = answer(
        json!({"continue":false,"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no rm"}}),
    );
    assert_eq!(
        stdout_json(&SemaClaw.encode(&at_native(&SemaClaw, "PreToolUse"), &both)),
        json!({"decision":"reject","reason":"no rm","abort":true})
    );
    // Stop cannot be blocked: said, not written.
    let n = SemaClaw.encode(&at_native(&SemaClaw, "Stop"), &stop("halt"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn context_reaches_the_model_only_at_user_prompt_submit() {
    let n = SemaClaw.encode(
        &at_native(&SemaClaw, "UserPromptSubmit"),
        &context("uses pnpm"),
    );
    assert_eq!(stdout_json(&n), json!({"additionalContext":"uses pnpm"}));
    for native in ["SessionStart", "PreToolUse", "PostToolUse", "Stop"] {
        let n = SemaClaw.encode(&at_native(&SemaClaw, native), &context("uses pnpm"));
        assert_eq!(n.stdout, "", "{native}");
        assert_eq!(n.notes().count(), 1, "{native}: says it was dropped");
    }
}

#[test]
fn an_allow_is_approve_only_where_it_approves() {
    let n = SemaClaw.encode(&at_native(&SemaClaw, "PreToolUse"), &allow());
    assert_eq!(n.stdout, "", "approve means nothing before a tool");
    assert_eq!(n.notes().count(), 1);
    let grant = answer(
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}),
    );
    assert_eq!(
        answered(
            &SemaClaw,
            &at_native(&SemaClaw, "PermissionRequest"),
            &grant
        ),
        json!({"decision":"approve"})
    );
    let refuse = answer(
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}),
    );
    assert_eq!(
        answered(
            &SemaClaw,
            &at_native(&SemaClaw, "PermissionRequest"),
            &refuse
        ),
        json!({"decision":"reject","reason":"not here"})
    );
}

#[test]
fn a_rewrite_replaces_the_whole_input_and_never_rides_on_a_reject() {
    let n = SemaClaw.encode(
        &at_native(&SemaClaw, "PreToolUse"),
        &rewrite(json!({"command":"echo safe"})),
    );
    assert_eq!(
        stdout_json(&n),
        json!({"updatedInput":{"command":"echo safe"}})
    );
    let mut halted = rewrite(json!({"command":"echo safe"}));
    halted.continue_ = Some(false);
    let n = SemaClaw.encode(&at_native(&SemaClaw, "PreToolUse"), &halted);
    let out = stdout_json(&n);
    assert_eq!(out["decision"], "reject", "{out}");
    assert!(out.get("updatedInput").is_none(), "{out}");
}

#[test]
fn the_deadline_stays_under_semaclaw_s_ten_seconds() {
    let wait = SemaClaw.deadline().on(EventName::PreToolUse);
    assert_eq!(wait, secs(10));
    assert!(crate::agents::deadline::budget(wait) < secs(10));
}
