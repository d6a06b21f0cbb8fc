use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Native};
use crate::protocol::{Answer, Event};

fn before_tool(tool: &str, input: serde_json::Value) -> Event {
    decoded(
        &Gemini,
        json!({"hook_event_name":"BeforeTool","tool_name":tool,"tool_input":input,"session_id":"s","cwd":"/w","timestamp":"t"}),
    )
}

#[test]
fn tool_names_and_params_become_claude_s() {
    let ev = before_tool("list_directory", json!({"dir_path":"/w/src"}));
    assert_eq!(ev.tool_name(), Some("LS"));
    assert_eq!(ev.tool_input().unwrap(), &json!({"path":"/w/src"}));
    let ev = before_tool(
        "replace",
        json!({"file_path":"/a","old_string":"x","new_string":"y"}),
    );
    assert_eq!(ev.tool_name(), Some("Edit"));
    assert_eq!(ev.input()["tool_kind"], "write");
    let ev = before_tool(
        "read_file",
        json!({"file_path":"/a","start_line":10,"end_line":19}),
    );
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"file_path":"/a","offset":10,"limit":10})
    );
    let ev = before_tool("save_memory", json!({"fact":"x"}));
    assert_eq!(
        ev.tool_name(),
        Some("save_memory"),
        "no Claude equivalent: name kept"
    );
    // The shell's working dir is not Glob's `path`: left alone.
    let ev = before_tool(
        "run_shell_command",
        json!({"command":"ls","dir_path":"sub"}),
    );
    assert_eq!(ev.tool_input().unwrap()["dir_path"], "sub");
}

#[test]
fn mcp_tools_are_named_from_mcp_context() {
    let ev = decoded(
        &Gemini,
        json!({"hook_event_name":"BeforeTool","tool_name":"mcp_my_srv_do_it","tool_input":{},"mcp_context":{"server_name":"my_srv","tool_name":"do_it"}}),
    );
    assert_eq!(ev.tool_name(), Some("mcp__my_srv__do_it"));
    assert_eq!(ev.input()["tool_kind"], "mcp");
}

#[test]
fn pre_tool_answers() {
    let ev = before_tool(
        "run_shell_command",
        json!({"command":"rm -rf /","description":"d"}),
    );
    let n = Gemini.encode(&ev, &deny("no"));
    assert_eq!(stdout_json(&n), json!({"decision":"deny","reason":"no"}));
    assert_eq!(n.exit_code, 0);
    let rewritten = rewrite(json!({"command":"ls","description":"d"}));
    for (answer, want) in [
        (ask("sure?"), json!({"decision":"ask","reason":"sure?"})),
        (allow(), json!({"decision":"allow"})),
        (
            rewritten,
            json!({"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","description":"d"}}}),
        ),
    ] {
        assert_eq!(answered(&Gemini, &ev, &answer), want);
    }
    let n = Gemini.encode(&ev, &context("ctx"));
    assert_eq!(n.stdout, "{}");
    assert_eq!(n.notes().count(), 1, "no context on BeforeTool");
    assert_eq!(
        answered(&Gemini, &ev, &stop("halt")),
        json!({"continue":false,"stopReason":"halt"})
    );
    assert_eq!(
        Gemini.encode(&ev, &Answer::none()),
        Native::ok("{}".into(), vec![])
    );
}

#[test]
fn a_rewrite_goes_back_in_gemini_s_param_names() {
    let ev = before_tool("list_directory", json!({"dir_path":"/w"}));
    let n = Gemini.encode(&ev, &rewrite(json!({"path":"/w/sub"})));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["tool_input"],
        json!({"dir_path":"/w/sub"})
    );
    let ev = before_tool(
        "read_file",
        json!({"file_path":"/a","start_line":1,"end_line":5}),
    );
    let n = Gemini.encode(
        &ev,
        &rewrite(json!({"file_path":"/b","offset":3,"limit":2})),
    );
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["tool_input"],
        json!({"file_path":"/b","start_line":3,"end_line":4})
    );
}

// A block at BeforeAgent or AfterAgent and SessionStart's context are rows
// of `each_canonical_answer_is_each_agent_s_documented_answer` (tests.rs).
#[test]
fn prompt_context_and_system_messages() {
    let at = |name: &str| decoded(&Gemini, json!({"hook_event_name":name,"session_id":"s"}));
    assert_eq!(
        stdout_json(&Gemini.encode(&at("BeforeAgent"), &context("ctx"))),
        json!({"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"ctx"}})
    );
    assert_eq!(
        stdout_json(&Gemini.encode(&at("SessionStart"), &system("hi"))),
        json!({"systemMessage":"hi"})
    );
    // SessionEnd shows no system message: Gemini's "no opinion" and a note.
    let n = Gemini.encode(&at("SessionEnd"), &system("hi"));
    assert_eq!((n.stdout.as_str(), n.notes().count()), ("{}", 1));
}
