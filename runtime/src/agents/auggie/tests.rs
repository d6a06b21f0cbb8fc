use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

#[test]
fn auggie_s_own_names_decode_to_claude_s() {
    // Recorded from Auggie 0.36.0 in tests/real-agents (the events phase).
    let prompt = fixture_event(&AGENT, "01-PromptSubmit.json");
    assert_eq!(prompt.name(), EventName::UserPromptSubmit);
    assert_eq!(
        prompt.input()["prompt"],
        json!("Run the shell commands the task needs, one at a time, then report the output.")
    );
    assert_eq!(
        prompt.input()["session_id"],
        json!("8f6fd710-3d9f-4372-b693-309749eb4105")
    );
    let pre = fixture_event(&AGENT, "04-PreToolUse.json");
    assert_eq!(pre.tool_name(), Some("Bash"));
    assert_eq!(
        pre.if_target().as_deref(),
        Some("rm -rf /tmp/ra-realagents/auggie-events/victim-auggie")
    );
    let post = fixture_event(&AGENT, "03-PostToolUse.json");
    // Hooks read Claude's shape: only what Auggie puts between `<output>`
    // tags, not its preamble and return code; its own value stays beside it.
    assert_eq!(post.input()["tool_response"]["stdout"], json!("hello"));
    assert_eq!(
        post.input()["tool_response_native"],
        json!("Here are the results from executing the command.\n<return-code>\n0\n</return-code>\n<output>\nhello\n\n</output>")
    );
}

// Only the deny is written (allow and a block at Stop are dropped with a
// note): rows of `each_canonical_answer_is_each_agent_s_documented_answer`
// (tests.rs).
