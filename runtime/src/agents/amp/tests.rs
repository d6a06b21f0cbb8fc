use std::path::Path;

use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::Agent;
use crate::protocol::{Answer, Event, EventName};

// Constructed payloads, not recorded ones: the events' fields as Amp's
// declared plugin types (`amp plugins show-docs`, amp 0.0.1790142911) give
// them, wrapped the way the plugin written by `install` sends them (module
// docs). No Amp thread was run to record them.
fn amp_event(event: &str, payload: serde_json::Value) -> Event {
    decoded(
        &Amp,
        json!({"event": event, "payload": payload, "cwd": "/w", "session_id": "T-1"}),
    )
}

#[test]
fn constructed_plugin_payloads_decode_in_claude_s_names() {
    let ev = amp_event(
        "tool.call",
        json!({"toolUseID":"toolu_1","tool":"Bash","input":{"cmd":"rm -rf /"},"thread":{"id":"T-1"}}),
    );
    assert_eq!(
        (
            ev.name(),
            ev.tool_name(),
            ev.session_id(),
            ev.str_field("cwd")
        ),
        (EventName::PreToolUse, Some("Bash"), Some("T-1"), Some("/w"))
    );
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /"));
    assert_eq!(ev.input()["tool_use_id"], "toolu_1");

    let ev = amp_event(
        "tool.call",
        json!({"tool":"edit_file","input":{"path":"/w/a.rs","old_str":"x","new_str":"y"}}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    assert_eq!(
        ev.tool_input(),
        Some(&json!({"file_path":"/w/a.rs","old_string":"x","new_string":"y"}))
    );
    let ev = amp_event(
        "tool.call",
        json!({"tool":"create_file","input":{"path":"/w/b","content":"z"}}),
    );
    assert_eq!(ev.tool_name(), Some("Write"));

    let ev = amp_event(
        "agent.start",
        json!({"message": "hi there", "id": 3, "thread": {"id": "T-1"}}),
    );
    assert_eq!(
        (ev.name(), ev.str_field("prompt")),
        (EventName::UserPromptSubmit, Some("hi there"))
    );
    let ev = amp_event(
        "tool.result",
        json!({"tool":"Bash","input":{"cmd":"false"},"status":"error","error":"exit 1"}),
    );
    assert_eq!(ev.name(), EventName::PostToolUse);
    assert_eq!(ev.input()["tool_response_native"]["status"], "error");
    assert_eq!(ev.input()["tool_response_native"]["error"], "exit 1");
    assert_eq!(amp_event("agent.end", json!({})).name(), EventName::Stop);
    assert_eq!(
        amp_event("session.start", json!({})).name(),
        EventName::SessionStart
    );
}

#[test]
fn a_deny_rejects_and_continues_and_a_rewrite_modifies_in_amp_s_names() {
    let ev = amp_event(
        "tool.call",
        json!({"tool":"Bash","input":{"cmd":"rm -rf /"}}),
    );
    let native = Amp.encode(&ev, &deny("no"));
    assert_eq!(
        native.stdout,
        r#"{"result":{"action":"reject-and-continue","message":"no"}}"#
    );
    // An empty reason still tells the model why (Amp shows `message`).
    let native = Amp.encode(&ev, &deny(""));
    assert!(native.stdout.contains(DEFAULT_DENY), "{}", native.stdout);

    let ev = amp_event(
        "tool.call",
        json!({"tool":"create_file","input":{"path":"/w/a","content":"x"}}),
    );
    let mut rewrite = Answer::none();
    rewrite.specific_mut().updated_input = json!({"file_path":"/w/b","content":"y"})
        .as_object()
        .cloned();
    let v: Value = serde_json::from_str(&Amp.encode(&ev, &rewrite).stdout).expect("json");
    assert_eq!(
        v,
        json!({"result": {"action": "modify", "input": {"path": "/w/b", "content": "y"}}})
    );
}

#[test]
fn context_is_added_to_the_tool_output_whatever_its_shape_and_the_status_kept() {
    let cases = [
        (json!("a"), json!("a\n\nctx")),
        (json!(null), json!("ctx")),
        (
            json!([{"type":"text","text":"a"}]),
            json!([{"type":"text","text":"a"},{"type":"text","text":"ctx"}]),
        ),
        (json!({"exitCode": 1}), json!("{\"exitCode\":1}\n\nctx")),
    ];
    for (output, want) in cases {
        let ev = amp_event(
            "tool.result",
            json!({"tool":"Bash","input":{"cmd":"ls"},"status":"error","error":"e","output":output}),
        );
        let v: Value =
            serde_json::from_str(&Amp.encode(&ev, &context("ctx")).stdout).expect("json");
        assert_eq!(
            v,
            json!({"result": {"status": "error", "error": "e", "output": want}}),
            "{output}"
        );
    }
    let ev = amp_event("agent.start", json!({"message": "hi"}));
    let v: Value = serde_json::from_str(&Amp.encode(&ev, &context("ctx")).stdout).expect("json");
    assert_eq!(
        v,
        json!({"result": {"message": {"content": "ctx", "display": false}}})
    );
    // Nothing to say: nothing on stdout, so the plugin answers its default.
    assert_eq!(Amp.encode(&ev, &Answer::none()).stdout, "");
}

#[test]
fn the_plugin_subscribes_the_installed_events_allows_by_default_and_is_ours() {
    let Registration::Plugin(spec) = INSTALL.registration else {
        panic!("amp registers by plugin");
    };
    let events: Vec<_> = TABLE.installed().collect();
    let src = (spec.text)(Path::new("agenthooks"), &events);
    assert!(src.contains(r#"const AGENT = "amp";"#));
    for row in TABLE.installed() {
        assert!(src.contains(&format!("{:?}", row.native)), "{}", row.native);
    }
    assert!(src.contains("export default function (amp)"));
    // tool.call must return a result: no opinion runs the tool.
    assert!(src.contains(r#""tool.call": { action: "allow" }"#));
    assert!(src.lines().any(|l| crate::install::is_ours(l, "amp")));
    assert!(!src.lines().any(|l| crate::install::is_ours(l, "pi")));
}
