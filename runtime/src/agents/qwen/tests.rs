use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, DecodeError, Native};
use crate::protocol::Answer;

// Deny, ask, the rewrite it turns into a deny, block and stop at Stop are
// rows of `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).
#[test]
fn a_stop_before_a_tool_and_no_answer_at_stop() {
    let pre = event_at(&AGENT, TABLE.by_native("PreToolUse").unwrap(), json!({}));
    assert_eq!(
        stdout_json(&AGENT.encode(&pre, &stop("halt"))),
        json!({"continue":false,"stopReason":"halt"})
    );
    let at_stop = event_at(&AGENT, TABLE.by_native("Stop").unwrap(), json!({}));
    assert_eq!(AGENT.encode(&at_stop, &Answer::none()), Native::default());
}

#[test]
fn a_rewrite_goes_back_in_qwen_s_param_names() {
    // AGENT applies a rewrite only from PermissionRequest's decision.
    let ev = decoded(
        &AGENT,
        json!({"hook_event_name":"PermissionRequest","tool_name":"read_file","tool_input":{"absolute_path":"/a"}}),
    );
    assert_eq!(ev.tool_name(), Some("Read"));
    assert_eq!(ev.tool_input().unwrap(), &json!({"file_path":"/a"}));
    let a = answer(
        json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"file_path":"/b"}}}}),
    );
    let n = AGENT.encode(&ev, &a);
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["decision"]["updatedInput"],
        json!({"absolute_path":"/b"}),
        "{n:?}"
    );
}

#[test]
fn qwen_only_events_are_unmapped() {
    let got = AGENT.decode(json!({"hook_event_name":"TodoCreated"}), None);
    assert!(
        matches!(got, Err(DecodeError::UnmappedEvent { .. })),
        "{got:?}"
    );
}

#[test]
fn a_block_after_a_tool_reaches_the_model_as_context() {
    // AGENT 0.15.10 and 0.24.4 ignore PostToolUse `decision: block` (the model
    // never sees the reason) and show `additionalContext` (tests/real-agents,
    // `post` phase).
    let ev = decoded(
        &AGENT,
        json!({"hook_event_name":"PostToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{}}),
    );
    let n = AGENT.encode(&ev, &block("check the output"));
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"check the output"}})
    );
    assert_eq!(n.notes().count(), 1, "says the block became context");
}
