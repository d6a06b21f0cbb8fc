use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::protocol::EventName;

fn pre_tool(tool: &str, input: Value) -> Value {
    json!({
        "hook_event_name": "pre_tool_call",
        "tool_name": tool,
        "tool_input": input,
        "session_id": "s1",
        "cwd": "/p",
        "profile": "default",
        "extra": {},
    })
}

#[test]
fn hermes_names_decode_to_claude_s() {
    let ev = decoded(
        &Hermes,
        pre_tool("terminal", json!({"command": "rm -rf /"})),
    );
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    let ev = decoded(
        &Hermes,
        pre_tool("write_file", json!({"path": "a", "content": "x"})),
    );
    assert_eq!(ev.tool_input().unwrap()["file_path"], json!("/p/a"));
}

#[test]
fn deny_rewrite_and_context_are_hermes_own_answers() {
    let ev = decoded(
        &Hermes,
        pre_tool("terminal", json!({"command": "rm -rf /"})),
    );
    assert_eq!(
        stdout_json(&Hermes.encode(&ev, &deny("no rm"))),
        json!({"decision": "block", "reason": "no rm"})
    );
    assert_eq!(
        answered(&Hermes, &ev, &rewrite(json!({"command": "ls"}))),
        json!({"action": "modify", "args": {"command": "ls"}})
    );
    let n = Hermes.encode(&ev, &ask("sure?"));
    assert_eq!(
        stdout_json(&n)["decision"],
        json!("block"),
        "an ask it cannot put denies"
    );
    let prompt = decoded(
        &Hermes,
        json!({"hook_event_name": "pre_llm_call", "session_id": "s", "cwd": "/p", "extra": {}}),
    );
    assert_eq!(
        stdout_json(&Hermes.encode(&prompt, &context("ctx"))),
        json!({"context": "ctx"})
    );
    assert_eq!(Hermes.encode(&ev, &allow()).stdout, "");
}

#[test]
fn the_entry_runs_the_launcher_in_sh_because_hermes_uses_no_shell() {
    let Registration::Yaml(spec) = INSTALL.registration else {
        panic!("Hermes registers in YAML");
    };
    assert!(spec.argv);
    assert_eq!(INSTALL.project, USER_ONLY);
}
