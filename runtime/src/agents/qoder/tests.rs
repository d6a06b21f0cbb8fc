use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;

#[test]
fn claude_s_payload_and_answer_pass_under_qoder_s_name() {
    let ev = fixture_event(&AGENT, "02-PreToolUse.json");
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.harness(), "qoder");
    assert_eq!(
        stdout_json(&AGENT.encode(&ev, &rewrite(json!({"command":"rtk git status"}))))
            ["hookSpecificOutput"]["updatedInput"],
        json!({"command":"rtk git status"})
    );
    let start = fixture_event(&AGENT, "00-SessionStart.json");
    assert_eq!(
        stdout_json(&AGENT.encode(&start, &context("c"))),
        json!({"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}})
    );
    let stop = fixture_event(&AGENT, "03-Stop.json");
    assert_eq!(
        stdout_json(&AGENT.encode(&stop, &block("again"))),
        json!({"decision":"block","reason":"again"})
    );
}
