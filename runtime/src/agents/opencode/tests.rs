use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Caps, DecodeError, Native, Table};
use crate::protocol::{Answer, Event, EventName};

// Payloads as the plugin written by `install` sends them (see the module docs).
fn before(tool: &str, args: serde_json::Value) -> Event {
    decoded(
        &OpenCode,
        json!({"hook":"tool.execute.before","input":{"tool":tool,"sessionID":"s1","callID":"c1"},"output":{"args":args},"directory":"/w","worktree":"/w"}),
    )
}

#[test]
fn plugin_payloads_decode() {
    let ev = before("bash", json!({"command":"rm -rf /","description":"d"}));
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PreToolUse, Some("Bash"))
    );
    assert_eq!(ev.if_target().as_deref(), Some("rm -rf /"));
    assert_eq!(
        (ev.session_id(), ev.str_field("cwd")),
        (Some("s1"), Some("/w"))
    );
    assert_eq!(ev.input()["tool_use_id"], "c1");

    let ev = before(
        "edit",
        json!({"filePath":"/w/a","oldString":"x","newString":"y"}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"file_path":"/w/a","old_string":"x","new_string":"y"})
    );

    let ev = decoded(
        &OpenCode,
        json!({"hook":"tool.execute.after","input":{"tool":"read","sessionID":"s1","callID":"c1","args":{"filePath":"/w/a"}},"output":{"title":"t","output":"text","metadata":{}}}),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PostToolUse, Some("Read"))
    );
    // Hooks read Claude's shape; OpenCode's text stays beside it.
    assert_eq!(ev.input()["tool_response"]["file"]["content"], "text");
    assert_eq!(ev.input()["tool_response"]["file"]["filePath"], "/w/a");
    assert_eq!(ev.input()["tool_response_native"], "text");

    let ev = decoded(
        &OpenCode,
        json!({"hook":"permission.ask","input":{"id":"p","type":"bash","pattern":["git push"],"sessionID":"s1","title":"Run git push","metadata":{}},"output":{"status":"ask"}}),
    );
    assert_eq!(
        (ev.name(), ev.tool_name()),
        (EventName::PermissionRequest, Some("Bash"))
    );
    assert_eq!(ev.tool_input().unwrap()["command"], "git push");

    let ev = decoded(
        &OpenCode,
        json!({"hook":"chat.message","input":{"sessionID":"s1","agent":"build"},"output":{"message":{},"parts":[{"type":"text","text":"hello"},{"type":"file","url":"x"}]}}),
    );
    assert_eq!(
        (ev.name(), ev.str_field("prompt")),
        (EventName::UserPromptSubmit, Some("hello"))
    );

    let ev = decoded_at(
        &OpenCode,
        json!({"hook":"session.created","input":{"info":{"id":"s9"}},"output":{}}),
        Some("session.created"),
    );
    assert_eq!(
        (ev.name(), ev.session_id()),
        (EventName::SessionStart, Some("s9"))
    );
    let got = OpenCode.decode(json!({"hook":"file.edited","input":{}}), None);
    assert!(matches!(got, Err(DecodeError::UnmappedEvent { .. })));
}

#[test]
fn answers_follow_the_plugin_contract() {
    let ev = before("bash", json!({"command":"x"}));
    let n = OpenCode.encode(&ev, &deny("no"));
    assert_eq!(stdout_json(&n), json!({"error":"no"}));
    assert_eq!(n.exit_code, 0);
    let n = OpenCode.encode(&ev, &ask("?"));
    assert!(stdout_json(&n)["error"]
        .as_str()
        .unwrap()
        .contains("confirmation"));
    let edit = before(
        "edit",
        json!({"filePath":"/w/a","oldString":"x","newString":"y"}),
    );
    let n = OpenCode.encode(
        &edit,
        &rewrite(json!({"file_path":"/w/b","old_string":"x","new_string":"z"})),
    );
    assert_eq!(
        stdout_json(&n),
        json!({"output":{"args":{"filePath":"/w/b","oldString":"x","newString":"z"}}})
    );
    assert_eq!(OpenCode.encode(&ev, &Answer::none()), Native::default());

    let perm = decoded(
        &OpenCode,
        json!({"hook":"permission.ask","input":{"type":"bash","pattern":"ls"},"output":{"status":"ask"}}),
    );
    let a = answer(json!({"hookSpecificOutput":{"decision":{"behavior":"allow"}}}));
    assert_eq!(
        stdout_json(&OpenCode.encode(&perm, &a)),
        json!({"output":{"status":"allow"}})
    );
    assert_eq!(
        stdout_json(&OpenCode.encode(&perm, &ask("?"))),
        json!({"output":{"status":"ask"}})
    );

    let after = decoded(
        &OpenCode,
        json!({"hook":"tool.execute.after","input":{"tool":"bash"},"output":{"output":"ok"}}),
    );
    assert_eq!(
        answered(&OpenCode, &after, &context("note this")),
        json!({"output":{"output":"ok\n\nnote this"}})
    );

    let chat = decoded(
        &OpenCode,
        json!({"hook":"chat.message","input":{"sessionID":"s"},"output":{"parts":[{"id":"p1","type":"text","text":"hi"}]}}),
    );
    assert_eq!(
        answered(&OpenCode, &chat, &context("ctx")),
        json!({"output":{"parts":[{"id":"p1","type":"text","text":"hi\n\nctx"}]}})
    );
    assert_eq!(
        stdout_json(&OpenCode.encode(&chat, &block("no"))),
        json!({"error":"no"})
    );

    let compact = decoded(
        &OpenCode,
        json!({"hook":"experimental.session.compacting","input":{"sessionID":"s"},"output":{"context":["a"]}}),
    );
    assert_eq!(
        stdout_json(&OpenCode.encode(&compact, &context("b"))),
        json!({"output":{"context":["a","b"]}})
    );
    let idle = decoded(
        &OpenCode,
        json!({"hook":"session.idle","input":{"sessionID":"s"},"output":{}}),
    );
    let n = OpenCode.encode(&idle, &block("keep going"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
}

static PLUGIN_ROWS: &[EventRow] = &[
    EventRow::new(EventName::PreToolUse, "tool.execute.before", Caps::NONE),
    EventRow::new(EventName::SessionStart, "session.created", Caps::NONE),
    EventRow::new(EventName::Stop, "session.idle", Caps::NONE).decode_only(),
];
static PLUGIN_TABLE: Table = Table::new(PLUGIN_ROWS);

#[test]
fn plugin_registers_installed_hooks_and_bus_events_only() {
    let events: Vec<_> = PLUGIN_TABLE.installed().collect();
    let src = plugin("opencode", Path::new("/opt/it's/agenthooks"), &events);
    assert!(src.contains(r#"const BINARY = "/opt/it's/agenthooks";"#));
    assert!(src.contains(r#"const AGENT = "opencode";"#));
    assert!(src.contains(r#""tool.execute.before": async (input, output) => act(await run("tool.execute.before", input, output), output),"#));
    assert!(src.contains(r#"const BUS_EVENTS = new Set(["session.created"]);"#));
    assert!(!src.contains("session.idle"));
    assert!(src.lines().any(|l| crate::install::is_ours(l, "opencode")));
}

/// The spec's text is OpenCode's: a fork reusing [`plugin`] names itself.
#[test]
fn the_install_spec_writes_this_agents_plugin() {
    let src = plugin_source(&OpenCode);
    assert!(src.lines().any(|l| crate::install::is_ours(l, "opencode")));
    let events: Vec<_> = TABLE.installed().collect();
    let fork = plugin("kilo", Path::new("agenthooks"), &events);
    assert!(fork.contains(r#"const AGENT = "kilo";"#));
    assert!(!fork.lines().any(|l| crate::install::is_ours(l, "opencode")));
}
