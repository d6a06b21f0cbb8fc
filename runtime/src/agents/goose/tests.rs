use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

#[test]
fn payloads_name_their_event_in_event_and_keep_goose_s_fields() {
    let all = decoded_fixtures(&AGENT);
    assert_eq!(all.len(), 6);
    // Without --event the payload's `event` names it.
    let payload = fixtures("goose").remove(2).2;
    let ev = decoded(&AGENT, payload);
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    let post = fixture_event(&AGENT, "03-PostToolUse.json");
    assert_eq!(post.input()["tool_response"]["stdout"], json!("hello"));
    assert_eq!(
        post.input()["tool_response_native"][0]["text"],
        json!("hello\n")
    );
    assert_eq!(post.input()["cwd"], json!("/w"));
    let prompt = fixture_event(&AGENT, "01-UserPromptSubmit.json");
    assert_eq!(prompt.input()["prompt"], json!("run echo hello"));
}

// Its answers (deny as `decision: block`, allow, ask as a deny with a note,
// nothing at Stop) are rows of
// `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).
