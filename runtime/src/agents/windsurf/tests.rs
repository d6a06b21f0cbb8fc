use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, DecodeError, Native};
use crate::protocol::{Answer, EventName};

// Payloads as documented at docs.windsurf.com/windsurf/cascade/hooks (docs/agent-protocols.md §6.2).
fn payload(action: &str, info: serde_json::Value) -> serde_json::Value {
    json!({"agent_action_name":action,"trajectory_id":"t1","execution_id":"e1","timestamp":"2026-01-01T00:00:00Z","tool_info":info})
}

#[test]
fn documented_payloads_decode_with_synthesized_tools() {
    let ev = decoded(
        &Windsurf,
        payload(
            "pre_run_command",
            json!({"command_line":"rm -rf /","cwd":"/w"}),
        ),
    );
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.tool_input().unwrap(), &json!({"command":"rm -rf /"}));
    assert_eq!(ev.str_field("cwd"), Some("/w"));
    assert_eq!(ev.session_id(), Some("t1"));
    assert_eq!(ev.input()["execution_id"], "e1", "native fields kept");

    let ev = decoded(
        &Windsurf,
        payload(
            "pre_write_code",
            json!({"file_path":"/w/a","edits":[{"old_string":"a","new_string":"b"}]}),
        ),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    let input = ev.tool_input().unwrap();
    assert_eq!(
        (input["file_path"].as_str(), input["old_string"].as_str()),
        (Some("/w/a"), Some("a"))
    );

    let ev = decoded(
        &Windsurf,
        payload("pre_read_code", json!({"file_path":"/w/.env"})),
    );
    assert_eq!(ev.tool_name(), Some("Read"));

    let ev = decoded(
        &Windsurf,
        payload(
            "pre_mcp_tool_use",
            json!({"mcp_server_name":"gh","mcp_tool_name":"merge","mcp_tool_arguments":{"pr":1}}),
        ),
    );
    assert_eq!(ev.tool_name(), Some("mcp__gh__merge"));
    assert_eq!(ev.tool_input().unwrap(), &json!({"pr":1}));

    let ev = decoded(
        &Windsurf,
        payload("pre_user_prompt", json!({"user_prompt":"hi"})),
    );
    assert_eq!(
        (ev.name(), ev.str_field("prompt")),
        (EventName::UserPromptSubmit, Some("hi"))
    );
    let ev = decoded(
        &Windsurf,
        payload("post_run_command", json!({"command_line":"ls"})),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PostToolUse, Some("Bash"))
    );
    let got = Windsurf.decode(payload("post_setup_worktree", json!({})), None);
    assert!(matches!(got, Err(DecodeError::UnmappedEvent { .. })));
}

#[test]
fn answers_are_exit_codes() {
    let ev = decoded(
        &Windsurf,
        payload("pre_run_command", json!({"command_line":"x"})),
    );
    let n = Windsurf.encode(&ev, &deny("no rm"));
    assert_eq!((n.stdout.as_str(), n.exit_code), ("", 2));
    assert_eq!(n.stderr, ["no rm"]);
    let n = Windsurf.encode(&ev, &ask("sure?"));
    assert_eq!(n.exit_code, 2);
    assert!(n.stderr[0].contains("confirmation") && n.stderr[0].contains("sure?"));
    assert_eq!(n.notes().count(), 1);
    let n = Windsurf.encode(&ev, &rewrite(json!({"command":"ls"})));
    // No rewrites here: denied rather than running the original input.
    assert_eq!(n.exit_code, 2);
    assert!(n.stderr[0].contains("cannot apply"), "{n:?}");
    assert_eq!(
        n.notes().count(),
        2,
        "allow and updatedInput both dropped: {n:?}"
    );
    assert_eq!(Windsurf.encode(&ev, &Answer::none()), Native::default());

    let prompt = decoded(
        &Windsurf,
        payload("pre_user_prompt", json!({"user_prompt":"p"})),
    );
    let n = Windsurf.encode(&prompt, &block("not that"));
    assert_eq!(
        (n.exit_code, n.stderr.clone()),
        (2, vec!["not that".to_string()])
    );
    let n = Windsurf.encode(&prompt, &context("c"));
    assert_eq!(n.exit_code, 0);
    assert_eq!(n.notes().count(), 1);
    let done = decoded(
        &Windsurf,
        payload("post_cascade_response", json!({"response":"done"})),
    );
    let n = Windsurf.encode(&done, &block("keep going"));
    assert_eq!(n.exit_code, 0, "cannot keep going");
    assert_eq!(n.notes().count(), 1);
}
