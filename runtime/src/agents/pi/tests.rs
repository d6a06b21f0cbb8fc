use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;
use crate::protocol::{Answer, Event, EventName};

// Payloads as the extension written by `install` sends them (module docs).
fn pi_event(event: &str, payload: serde_json::Value) -> Event {
    decoded(
        &Pi,
        json!({"event": event, "payload": payload, "cwd": "/w", "session_id": "s1"}),
    )
}

#[test]
fn extension_payloads_decode() {
    let ev = pi_event(
        "tool_call",
        json!({"type":"tool_call","toolName":"bash","toolCallId":"c1","input":{"command":"rm -rf /"}}),
    );
    assert_eq!(
        (
            ev.name(),
            ev.tool_name(),
            ev.session_id(),
            ev.str_field("cwd")
        ),
        (EventName::PreToolUse, Some("Bash"), Some("s1"), Some("/w"))
    );
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /"));
    assert_eq!(ev.input()["tool_use_id"], "c1");

    let ev = pi_event(
        "tool_call",
        json!({"toolName":"edit","input":{"path":"a.rs","oldText":"x","newText":"y"}}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    // Pi's path is relative to its cwd; Claude's `file_path` is absolute.
    assert_eq!(
        ev.tool_input(),
        Some(&json!({"file_path":"/w/a.rs","old_string":"x","new_string":"y"}))
    );

    let ev = pi_event("before_agent_start", json!({"prompt": "hi there"}));
    assert_eq!(
        (ev.name(), ev.str_field("prompt")),
        (EventName::UserPromptSubmit, Some("hi there"))
    );
    let ev = pi_event("session_shutdown", json!({"reason": "quit"}));
    assert_eq!(ev.name(), EventName::SessionEnd);
}

#[test]
fn a_deny_blocks_with_the_reason_and_a_rewrite_replaces_the_input_in_pis_names() {
    let ev = pi_event(
        "tool_call",
        json!({"toolName":"bash","input":{"command":"rm -rf /"}}),
    );
    let native = Pi.encode(&ev, &deny("no"));
    assert_eq!(native.stdout, r#"{"result":{"block":true,"reason":"no"}}"#);
    // Pi has no permission prompt: ask is a deny, with a note.
    let native = Pi.encode(&ev, &ask("sure?"));
    assert!(
        native.stdout.contains(r#""block":true"#),
        "{}",
        native.stdout
    );

    let ev = pi_event(
        "tool_call",
        json!({"toolName":"write","input":{"path":"a","content":"x"}}),
    );
    let mut rewrite = Answer::none();
    rewrite.specific_mut().updated_input =
        json!({"file_path":"b","content":"y"}).as_object().cloned();
    let native = Pi.encode(&ev, &rewrite);
    let v: Value = serde_json::from_str(&native.stdout).expect("json");
    assert_eq!(v, json!({"input": {"path": "b", "content": "y"}}));
}

#[test]
fn context_is_appended_to_the_tool_result_and_given_to_a_prompt_as_a_message() {
    let ev = pi_event(
        "tool_result",
        json!({"toolName":"bash","input":{"command":"ls"},"content":[{"type":"text","text":"a\n"}],"isError":false}),
    );
    let v: Value = serde_json::from_str(&Pi.encode(&ev, &context("ctx")).stdout).expect("json");
    assert_eq!(
        v,
        json!({"result": {"content": [{"type":"text","text":"a\n"},{"type":"text","text":"ctx"}]}})
    );
    let ev = pi_event("before_agent_start", json!({"prompt": "hi"}));
    let v: Value = serde_json::from_str(&Pi.encode(&ev, &context("ctx")).stdout).expect("json");
    assert_eq!(v["result"]["message"]["content"], "ctx");
    // Nothing to say: nothing on stdout, so the handler returns undefined.
    assert_eq!(Pi.encode(&ev, &Answer::none()).stdout, "");
}

#[test]
fn the_extension_subscribes_the_installed_events_and_is_ours() {
    let src = plugin_source(&Pi);
    assert!(src.contains(r#"const AGENT = "pi";"#));
    for row in TABLE.installed() {
        assert!(src.contains(&format!("{:?}", row.native)), "{}", row.native);
    }
    assert!(src.contains("export default function (pi)"));
    assert!(src.lines().any(|l| crate::install::is_ours(l, "pi")));
}
