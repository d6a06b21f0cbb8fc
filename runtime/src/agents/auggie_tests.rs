use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

#[test]
fn auggie_s_own_names_decode_to_claude_s() {
    let prompt = fixture_event(&AGENT, "01-PromptSubmit.json");
    assert_eq!(prompt.name(), EventName::UserPromptSubmit);
    assert_eq!(
        prompt.input()["prompt"],
        json!("Run echo hello, then delete /tmp/victim")
    );
    assert_eq!(prompt.input()["session_id"], json!("conv-1"));
    let pre = fixture_event(&AGENT, "04-PreToolUse.json");
    assert_eq!(pre.tool_name(), Some("Bash"));
    assert_eq!(pre.if_target().as_deref(), Some("rm -rf /tmp/victim"));
    let post = fixture_event(&AGENT, "03-PostToolUse.json");
    // Hooks read Claude's shape; Auggie's own value stays beside it.
    assert_eq!(post.input()["tool_response"]["stdout"], json!("hello"));
    assert_eq!(post.input()["tool_response_native"], json!("hello\n"));
}

// Only the deny is written (allow and a block at Stop are dropped with a
// note): rows of `each_canonical_answer_is_each_agent_s_documented_answer`
// (tests.rs).
