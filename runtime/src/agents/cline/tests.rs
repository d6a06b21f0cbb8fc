use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, DecodeError};
use crate::protocol::{Answer, EventName};

// Payloads from cline/cline sdk/examples/hooks/README.md and hooks.proto (docs/agent-protocols.md §7.3).
fn sdk_tool_call(name: &str, input: serde_json::Value) -> serde_json::Value {
    json!({"hookName":"tool_call","clineVersion":"4.1","timestamp":"t","taskId":"task1","workspaceRoots":["/w"],"userId":"u","iteration":1,
           "tool_call":{"id":"c1","name":name,"input":input},
           "preToolUse":{"toolName":name,"parameters":{}}})
}

#[test]
fn sdk_and_extension_payloads_decode() {
    let ev = decoded_at(
        &Cline,
        sdk_tool_call(
            "run_commands",
            json!({"commands":["git status","rm -rf /"]}),
        ),
        Some("PreToolUse"),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PreToolUse, Some("Bash"))
    );
    assert_eq!(ev.tool_input().unwrap()["command"], "git status\nrm -rf /");
    assert_eq!(ev.session_id(), Some("task1"));
    assert_eq!(ev.str_field("cwd"), Some("/w"));
    assert_eq!(ev.input()["clineVersion"], "4.1", "native fields kept");

    let ev = decoded(
        &Cline,
        sdk_tool_call("editor", json!({"filePath":"/w/a","text":"x"})),
    );
    assert_eq!(
        ev.tool_name(),
        Some("editor"),
        "no Claude equivalent: name kept"
    );
    assert_eq!(ev.tool_input().unwrap()["file_path"], "/w/a");

    // The VS Code extension: legacy block, string parameters.
    let legacy = json!({"clineVersion":"3.3","hookName":"PreToolUse","timestamp":"t","taskId":"t2","workspaceRoots":["/w"],"userId":"u",
                        "preToolUse":{"toolName":"write_to_file","parameters":{"path":"/w/b","content":"hi"}}});
    let ev = decoded(&Cline, legacy);
    assert_eq!(ev.tool_name(), Some("Write"));
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"file_path":"/w/b","content":"hi"})
    );

    let mcp = json!({"hookName":"PreToolUse","preToolUse":{"toolName":"use_mcp_tool","parameters":{"server_name":"gh","tool_name":"merge","arguments":"{\"pr\":1}"}}});
    let ev = decoded(&Cline, mcp);
    assert_eq!(ev.tool_name(), Some("mcp__gh__merge"));
    assert_eq!(ev.tool_input().unwrap(), &json!({"pr":1}));

    let post = json!({"hookName":"PostToolUse","postToolUse":{"toolName":"execute_command","parameters":{"command":"ls"},"result":"a b","success":false,"executionTimeMs":3}});
    let ev = decoded(&Cline, post);
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PostToolUse, Some("Bash"))
    );
    assert_eq!(
        (
            ev.input()["tool_response_native"].as_str(),
            ev.input()["success"].as_bool()
        ),
        (Some("a b"), Some(false))
    );
    assert_eq!(ev.input()["tool_response"]["stdout"], "a b");

    let ev = decoded(
        &Cline,
        json!({"hookName":"UserPromptSubmit","userPromptSubmit":{"prompt":"hi","attachments":[]}}),
    );
    assert_eq!(ev.str_field("prompt"), Some("hi"));
    let ev = decoded(&Cline, json!({"hookName":"agent_start","taskId":"t"}));
    assert_eq!(ev.name(), EventName::SessionStart);
    let got = Cline.decode(json!({"hookName":"TaskCancel"}), None);
    assert!(matches!(got, Err(DecodeError::UnmappedEvent { .. })));
}

#[test]
fn answers() {
    let ev = decoded(
        &Cline,
        sdk_tool_call("read_file", json!({"path":"/w/.env"})),
    );
    assert_eq!(ev.tool_input().unwrap(), &json!({"file_path":"/w/.env"}));
    let n = Cline.encode(&ev, &deny("secret"));
    assert_eq!(
        stdout_json(&n),
        json!({"cancel":true,"errorMessage":"secret"})
    );
    assert_eq!(n.exit_code, 0);
    assert_eq!(
        answered(&Cline, &ev, &ask("sure?")),
        json!({"review":true,"errorMessage":"sure?"})
    );
    let n = Cline.encode(&ev, &rewrite(json!({"file_path":"/w/ok"})));
    assert_eq!(stdout_json(&n), json!({"overrideInput":{"path":"/w/ok"}}));
    assert_eq!(n.notes().count(), 0, "allow rides on the rewrite");
    let n = Cline.encode(&ev, &allow());
    assert_eq!(stdout_json(&n), json!({}));
    assert_eq!(n.notes().count(), 1);
    assert_eq!(
        answered(&Cline, &ev, &context("c")),
        json!({"context":"c","contextModification":"c"})
    );
    let n = Cline.encode(&ev, &Answer::none());
    assert_eq!(
        (n.stdout.as_str(), n.exit_code, n.stderr.len()),
        ("{}", 0, 0)
    );

    let done = decoded(&Cline, json!({"hookName":"TaskComplete"}));
    let n = Cline.encode(&done, &block("keep going"));
    assert_eq!(stdout_json(&n), json!({}));
    assert_eq!(n.notes().count(), 1);
}
