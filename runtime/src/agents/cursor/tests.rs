use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, DecodeError, Native};
use crate::protocol::{Answer, Event, EventName};

// Payloads as documented at cursor.com/docs/agent/hooks (docs/agent-protocols.md §5.3).
fn common() -> serde_json::Value {
    json!({"conversation_id":"c1","generation_id":"g1","model":"m","cursor_version":"1.7","workspace_roots":["/w"],"user_email":"u@x"})
}

/// `extra` over [`common`], as Cursor's payload, decoded.
fn cursor_event(extra: serde_json::Value) -> Event {
    decoded(&Cursor, with(common(), extra))
}

fn with(mut base: serde_json::Value, extra: serde_json::Value) -> serde_json::Value {
    base.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    base
}

#[test]
fn documented_payloads_decode() {
    let ev = cursor_event(
        json!({"hook_event_name":"beforeShellExecution","command":"rm -rf /","cwd":"/w/sub"}),
    );
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.tool_input().unwrap()["command"], "rm -rf /");
    assert_eq!(ev.session_id(), Some("c1"));
    assert_eq!(ev.str_field("cwd"), Some("/w/sub"));
    assert_eq!(ev.native_name(), Some("beforeShellExecution"));

    let ev = cursor_event(
        json!({"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":"{\"command\":\"ls\"}"}),
    );
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"command":"ls"}),
        "string tool_input parsed"
    );
    assert_eq!(ev.str_field("cwd"), Some("/w"), "cwd from workspace_roots");

    let ev = cursor_event(
        json!({"hook_event_name":"beforeMCPExecution","tool_name":"create_issue","tool_input":"{\"title\":\"t\"}","url":"http://x"}),
    );
    assert_eq!(ev.tool_name(), Some("mcp__cursor__create_issue"));
    assert_eq!(ev.input()["tool_kind"], "mcp");
    assert_eq!(ev.tool_input().unwrap(), &json!({"title":"t"}));

    let ev = cursor_event(
        json!({"hook_event_name":"beforeReadFile","file_path":"/w/.env","content":"SECRET=1"}),
    );
    assert_eq!(ev.tool_name(), Some("Read"));
    assert_eq!(ev.tool_input().unwrap()["file_path"], "/w/.env");

    let ev = cursor_event(
        json!({"hook_event_name":"afterFileEdit","file_path":"/w/a","edits":[{"old_string":"a","new_string":"b"}]}),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PostToolUse, Some("Edit"))
    );

    let ev = cursor_event(
        json!({"hook_event_name":"beforeSubmitPrompt","prompt":"hi","attachments":[]}),
    );
    assert_eq!(
        (ev.name(), ev.str_field("prompt")),
        (EventName::UserPromptSubmit, Some("hi"))
    );
    let ev = cursor_event(json!({"hook_event_name":"stop","status":"completed","loop_count":0}));
    assert_eq!(ev.name(), EventName::Stop);
    let got = Cursor.decode(
        with(common(), json!({"hook_event_name":"afterAgentThought"})),
        None,
    );
    assert!(matches!(got, Err(DecodeError::UnmappedEvent { .. })));
}

#[test]
fn permission_answers() {
    let ev = cursor_event(
        json!({"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"x"}}),
    );
    let n = Cursor.encode(&ev, &deny("no"));
    assert_eq!(
        stdout_json(&n),
        json!({"permission":"deny","user_message":"no","agent_message":"no"})
    );
    assert_eq!(n.exit_code, 0);
    assert_eq!(
        answered(&Cursor, &ev, &ask("sure?")),
        json!({"permission":"ask","user_message":"sure?","agent_message":"sure?"})
    );
    assert_eq!(
        stdout_json(&Cursor.encode(&ev, &allow())),
        json!({"permission":"allow"})
    );
    assert_eq!(
        answered(&Cursor, &ev, &rewrite(json!({"command":"ls"}))),
        json!({"permission":"allow","updated_input":{"command":"ls"}})
    );
    assert_eq!(Cursor.encode(&ev, &Answer::none()), Native::default());

    // The dedicated shell event takes no rewrite.
    let shell = cursor_event(json!({"hook_event_name":"beforeShellExecution","command":"x"}));
    let n = Cursor.encode(&shell, &rewrite(json!({"command":"ls"})));
    let why = "a hook rewrote the tool input, which cursor cannot apply; denied rather than running the original input";
    assert_eq!(
        stdout_json(&n),
        json!({"permission":"deny","user_message":why,"agent_message":why})
    );
    assert_eq!(n.notes().count(), 1);
    // beforeReadFile: allow or deny only.
    let read = cursor_event(json!({"hook_event_name":"beforeReadFile","file_path":"/a"}));
    let n = Cursor.encode(&read, &ask("?"));
    assert_eq!(stdout_json(&n)["permission"], "deny");
}

#[test]
fn prompt_stop_and_context_answers() {
    let at = |name: &str| cursor_event(json!({"hook_event_name":name}));
    assert_eq!(
        answered(&Cursor, &at("beforeSubmitPrompt"), &block("no")),
        json!({"continue":false,"user_message":"no"})
    );
    assert_eq!(
        answered(&Cursor, &at("stop"), &block("keep going")),
        json!({"followup_message":"keep going"})
    );
    assert_eq!(
        answered(&Cursor, &at("sessionStart"), &context("c")),
        json!({"additional_context":"c"})
    );
    let n = Cursor.encode(&at("sessionEnd"), &context("c"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn a_rewrite_without_a_decision_does_not_allow() {
    let ev = cursor_event(
        json!({"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"x"}}),
    );
    let mut a = Answer::none();
    a.specific_mut().updated_input = json!({"command":"y"}).as_object().cloned();
    assert_eq!(
        answered(&Cursor, &ev, &a),
        json!({"updated_input":{"command":"y"}})
    );
}
