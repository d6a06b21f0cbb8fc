use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;
use crate::protocol::EventName;

// Payloads as documented at kiro.dev/docs/cli/hooks (docs/agent-protocols.md §12).
#[test]
fn documented_payloads_decode() {
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","cwd":"/w","tool_name":"execute_bash","tool_input":{"command":"rm -rf /"}}),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PreToolUse, Some("Bash"))
    );
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /"));
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","tool_name":"shell","tool_input":{"command":"ls"}}),
    );
    assert_eq!(ev.tool_name(), Some("Bash"));
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"/w/a"}]}}),
    );
    assert_eq!(ev.tool_name(), Some("Read"));
    assert_eq!(ev.tool_input().unwrap()["file_path"], "/w/a");
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"create","path":"/w/b","file_text":"x"}}),
    );
    assert_eq!(ev.tool_name(), Some("Write"));
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"command":"create","file_path":"/w/b","content":"x"})
    );
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"/w/b","old_str":"a","new_str":"b"}}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    assert_eq!(ev.tool_input().unwrap()["old_string"], "a");
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","tool_name":"@git/status","tool_input":{}}),
    );
    assert_eq!(ev.tool_name(), Some("mcp__git__status"));
    let ev = decoded(&Kiro, json!({"hook_event_name":"agentSpawn","cwd":"/w"}));
    assert_eq!(ev.name(), EventName::SessionStart);
    let ev = decoded(
        &Kiro,
        json!({"hook_event_name":"userPromptSubmit","prompt":"hi"}),
    );
    assert_eq!(ev.name(), EventName::UserPromptSubmit);
}

// Exit 2 for a deny or an ask, plain stdout for context at agentSpawn, no
// block at userPromptSubmit: rows of
// `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).
#[test]
fn context_before_a_tool_is_dropped_with_a_note() {
    let ev = event_at(&Kiro, TABLE.by_native("preToolUse").unwrap(), json!({}));
    let n = Kiro.encode(&ev, &context("c"));
    assert_eq!((n.exit_code, n.stdout.as_str()), (0, ""));
    assert_eq!(n.notes().count(), 1);
}
