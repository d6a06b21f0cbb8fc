use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

#[test]
fn documented_payloads_decode_with_claude_tool_names() {
    // From docs.factory.ai hooks reference and rtk-ai/rtk#2267.
    let ev = decoded(
        &AGENT,
        json!({"session_id":"s","transcript_path":"/t","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"git status"}}),
    );
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.if_target().as_deref(), Some("git status"));
    let ev = decoded(
        &AGENT,
        json!({"hook_event_name":"PreToolUse","tool_name":"Create","tool_input":{"file_path":"/a","content":"x"}}),
    );
    assert_eq!(ev.tool_name(), Some("Write"));
    let ev = decoded(
        &AGENT,
        json!({"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/a"},"tool_response":{}}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    let ev = decoded(
        &AGENT,
        json!({"hook_event_name":"SessionStart","source":"startup"}),
    );
    assert_eq!(ev.name(), EventName::SessionStart);
}

// Its answers are Claude's: `each_canonical_answer_is_each_agent_s_documented_answer`
// (tests.rs) checks each of them.
