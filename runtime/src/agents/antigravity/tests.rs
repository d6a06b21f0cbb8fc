use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

#[test]
fn the_tool_call_object_and_pascal_case_args_decode_to_claude_s() {
    let ev = fixture_event(&AGENT, "01-PreToolUse.json");
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /tmp/victim"));
    assert_eq!(ev.input()["session_id"], json!("c1"));
    // PostToolUse may come without a tool call: still an event.
    let post = fixture_event(&AGENT, "02-PostToolUse.json");
    assert_eq!(post.name(), EventName::PostToolUse);
    assert_eq!(post.tool_name(), None);
}

// Its verdicts (a bare decision; a rewrite denies with a note) are rows of
// `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).

#[test]
fn a_claude_shaped_command_file_is_one_antigravity_would_run_itself() {
    let live = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./check.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]}});
    assert_eq!(reads_natively(&live), NativeRead::Runs(2));
    // agenthooks' `$schema` key is not a named hook: the strict loader drops the file.
    let mut marked = live.clone();
    marked["$schema"] = json!("agenthooks");
    assert_eq!(reads_natively(&marked), NativeRead::Ignores);
    // A wasm handler is not a type it knows: dropped too.
    let wasm = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "wasm", "component": "h.wasm"}]}]}});
    assert_eq!(reads_natively(&wasm), NativeRead::Ignores);
    // Its own named-hook files, flat lists included, are read.
    let own =
        json!({"lint": {"enabled": false, "PreInvocation": [{"type": "command", "command": "x"}]}});
    assert_eq!(reads_natively(&own), NativeRead::Runs(1));
}
