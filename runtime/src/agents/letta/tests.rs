use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;
use crate::protocol::EventName;

#[test]
fn letta_payloads_decode_to_claudes_keys_and_tool_names() {
    let ev = fixture_event(&AGENT, "02-PreToolUse.json");
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.str_field("cwd"), Some("/home/dev/project"));
    assert_eq!(ev.str_field("tool_use_id"), Some("toolu_01"));
    // Codex's toolset: `exec_command` with `cmd`.
    let ev = fixture_event(&AGENT, "03-PreToolUse.json");
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.tool_input().unwrap()["command"], "rm -rf build");
    // Gemini's toolset, after the tool: the result is `tool_response`.
    let ev = fixture_event(&AGENT, "04-PostToolUse.json");
    assert_eq!(ev.tool_name(), Some("Write"));
    assert_eq!(
        ev.tool_input().unwrap()["file_path"],
        "/home/dev/project/src/notes.md"
    );
    assert!(
        ev.input().get("tool_response").is_some(),
        "{:?}",
        ev.input()
    );
    let stop = fixture_event(&AGENT, "05-Stop.json");
    assert_eq!(
        stop.str_field("last_assistant_message"),
        Some("The build directory is gone.")
    );
}

#[test]
fn every_answer_letta_acts_on_is_exit_2_with_the_reason() {
    let pre = fixture_event(&AGENT, "02-PreToolUse.json");
    let n = AGENT.encode(&pre, &deny("no rm"));
    assert_eq!((n.exit_code, n.stdout.as_str()), (2, ""));
    assert_eq!(n.stderr[0], "no rm");
    // A rewrite it is not known to apply denies rather than run the original.
    assert_eq!(
        AGENT
            .encode(&pre, &rewrite(json!({"command": "ls"})))
            .exit_code,
        2
    );
    let n = AGENT.encode(&pre, &allow());
    assert_eq!((n.exit_code, n.notes().count()), (0, 1));
    let post = fixture_event(&AGENT, "04-PostToolUse.json");
    assert_eq!(AGENT.encode(&post, &block("format it")).exit_code, 2);
    let stop = fixture_event(&AGENT, "05-Stop.json");
    let n = AGENT.encode(&stop, &block("run the tests"));
    assert_eq!((n.exit_code, n.stderr[0].as_str()), (2, "run the tests"));
    let start = fixture_event(&AGENT, "00-SessionStart.json");
    let n = AGENT.encode(&start, &context("c"));
    assert_eq!((n.exit_code, n.stdout.as_str()), (0, ""));
}
