use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;

#[test]
fn lowercase_tools_decode_to_claude_s() {
    let names: Vec<_> = decoded_fixtures(&AGENT)
        .into_iter()
        .map(|(_, e)| e.tool_name().map(str::to_string))
        .collect();
    assert_eq!(
        names,
        [
            Some("Bash".into()),
            Some("Bash".into()),
            Some("Edit".into())
        ]
    );
}

#[test]
fn the_answer_is_claude_s_json_without_ask() {
    let ev = fixture_event(&AGENT, "01-PreToolUse.json");
    assert_eq!(
        stdout_json(&AGENT.encode(&ev, &rewrite(json!({"command":"ls"})))),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}})
    );
    let n = AGENT.encode(&ev, &ask("sure?"));
    let hso = &stdout_json(&n)["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], json!("deny"));
    assert_eq!(n.notes().count(), 1);
    // Only PreToolUse is registered.
    let installed: Vec<_> = TABLE.installed().map(|r| r.native).collect();
    assert_eq!(installed, ["PreToolUse"]);
}
