use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;

#[test]
fn exec_is_bash_and_the_response_is_kept() {
    let ev = fixture_event(&AGENT, "01-PreToolUse.json");
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /tmp/victim"));
    let post = fixture_event(&AGENT, "02-PostToolUse.json");
    assert_eq!(post.input()["tool_response"]["stdout"], json!("hello"));
    assert_eq!(
        post.input()["tool_response_native"]["output"],
        json!("hello\n")
    );
}

#[test]
fn verdicts_are_claude_json_and_the_claude_entry_steps_aside() {
    let ev = fixture_event(&AGENT, "00-PreToolUse.json");
    assert_eq!(
        stdout_json(&AGENT.encode(&ev, &deny("no")))["hookSpecificOutput"]["permissionDecision"],
        json!("deny")
    );
    let n = AGENT.encode(&ev, &context("c"));
    assert_eq!((n.stdout.as_str(), n.notes().count()), ("", 1));
    let also = AGENT.also_runs().expect("runs Claude's hooks");
    assert_eq!((also.agent, also.env), ("claude", "DEVIN_PROJECT_DIR"));
}
