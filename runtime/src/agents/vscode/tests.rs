use serde_json::{json, Value};

use super::*;
use crate::agents::tests::*;
use crate::agents::{claude, copilot, find, preferred_entry, visitor, Agent};
use crate::protocol::{Event, EventName};

/// The payload built from vscode-copilot-chat's source in `file` of the
/// `source` fixtures.
fn source(file: &str) -> Value {
    fixtures("vscode")
        .into_iter()
        .find(|(p, _, _)| p.ends_with(format!("source/{file}")))
        .unwrap_or_else(|| panic!("no source/{file}"))
        .2
}

/// `source(file)` as the entry `entry` decodes it (no `--event` for
/// Claude's and VS Code's, Copilot's entry passes its native name).
fn through(entry: &dyn Agent, file: &str) -> Event {
    let event = (entry.id() == "copilot").then(|| {
        let name = file.split_once('-').unwrap().1.trim_end_matches(".json");
        copilot::TABLE
            .by_canonical(name.parse().unwrap())
            .unwrap()
            .native
    });
    entry
        .decode(source(file), event)
        .unwrap_or_else(|e| panic!("{file} through {}: {e}", entry.id()))
}

/// The tool input of the PreToolUse in `file`, checking that it is `tool`.
fn tool_call(file: &str, tool: &str) -> Value {
    let ev = through(&VsCode, file);
    assert_eq!(ev.tool_name(), Some(tool), "{file}");
    ev.tool_input().unwrap().clone()
}

#[test]
fn session_start_is_decoded_with_its_source() {
    let ev = through(&VsCode, "00-SessionStart.json");
    assert_eq!(ev.name(), EventName::SessionStart);
    assert_eq!(ev.harness(), "vscode");
    assert_eq!(
        ev.session_id(),
        Some("6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
    );
    // VS Code's "new" is Claude's "startup", so a `startup` matcher fires.
    assert_eq!(ev.input()["source"], "startup");
    assert_eq!(ev.input()["source_native"], "new");
    assert_eq!(
        answered(&VsCode, &ev, &context("ctx")),
        json!({"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}})
    );
}

#[test]
fn user_prompt_submit_blocks_at_the_top_level_and_takes_context() {
    let ev = through(&VsCode, "01-UserPromptSubmit.json");
    assert_eq!(ev.name(), EventName::UserPromptSubmit);
    assert_eq!(
        ev.str_field("prompt"),
        Some("Clean the build output, then add a notes file")
    );
    // defaultIntentRequestHandler.ts reads a top-level `decision: block`.
    assert_eq!(
        answered(&VsCode, &ev, &block("not now")),
        json!({"decision":"block","reason":"not now"})
    );
    let n = VsCode.encode(&ev, &context("ctx"));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["additionalContext"],
        "ctx"
    );
}

#[test]
fn run_in_terminal_is_bash_and_a_deny_is_hook_specific() {
    let ev = through(&VsCode, "02-PreToolUse.json");
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(ev.tool_name(), Some("Bash"));
    assert_eq!(ev.input()["tool_kind"], "shell");
    let args = ev.tool_input().unwrap();
    assert_eq!(args["command"], "rm -rf /");
    assert_eq!(args["description"], "Remove the build output");
    assert_eq!(args["run_in_background"], false);
    let n = VsCode.encode(&ev, &deny("no rm"));
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}})
    );
    assert_eq!(n.exit_code, 0);
    // A rewrite goes back under VS Code's parameter names.
    let n = VsCode.encode(
        &ev,
        &rewrite(json!({"command":"rm -rf ./out","description":"d","run_in_background":false})),
    );
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["updatedInput"],
        json!({"command":"rm -rf ./out","explanation":"d","isBackground":false})
    );
}

#[test]
fn file_tools_are_write_edit_and_multi_edit() {
    let args = tool_call("03-PreToolUse.json", "Write");
    assert_eq!(args["file_path"], "/home/dev/work/app/NOTES.md");
    assert_eq!(args["content"], "# Notes\n");

    let args = tool_call("05-PreToolUse.json", "Edit");
    assert_eq!(args["file_path"], "/home/dev/work/app/src/main.ts");
    assert_eq!(args["old_string"], "const port = 3000;");
    assert_eq!(
        args["new_string"],
        "const port = Number(process.env.PORT ?? 3000);"
    );

    let args = tool_call("06-PreToolUse.json", "MultiEdit");
    assert_eq!(args["file_path"], "/home/dev/work/app/src/util.ts");
    assert_eq!(
        args["file_paths"],
        json!([
            "/home/dev/work/app/src/util.ts",
            "/home/dev/work/app/src/main.ts"
        ])
    );
    assert_eq!(
        args["edits"][1],
        json!({"file_path":"/home/dev/work/app/src/main.ts","old_string":"fmt(value)","new_string":"format(value)"})
    );
}

#[test]
fn apply_patch_is_read_as_codex_reads_it() {
    let ev = through(&VsCode, "07-PreToolUse.json");
    assert_eq!(
        ev.tool_name(),
        Some("Write"),
        "a patch that only adds files"
    );
    let args = ev.tool_input().unwrap();
    assert_eq!(args["file_path"], "/home/dev/work/app/docs/CHANGES.md");
    assert!(args["content"]
        .as_str()
        .unwrap()
        .starts_with("# Changes\n- port from PORT"));
    assert!(args["input"]
        .as_str()
        .unwrap()
        .starts_with("*** Begin Patch"));
}

#[test]
fn read_fetch_search_and_notebook_take_claude_s_parameters() {
    let args = tool_call("08-PreToolUse.json", "Read");
    assert_eq!(args["file_path"], "/home/dev/work/app/.env");
    assert_eq!(
        (args["offset"].as_u64(), args["limit"].as_u64()),
        (Some(1), Some(40))
    );

    let args = tool_call("09-PreToolUse.json", "WebFetch");
    assert_eq!(args["url"], "https://example.com/docs/config");
    assert_eq!(args["prompt"], "PORT variable");

    let args = tool_call("10-PreToolUse.json", "Grep");
    assert_eq!(
        (&args["pattern"], &args["glob"]),
        (&json!("process\\.env"), &json!("src/**/*.ts"))
    );

    let glob = through(&VsCode, "11-PreToolUse.json");
    assert_eq!(glob.tool_name(), Some("Glob"));
    assert_eq!(glob.tool_input().unwrap()["pattern"], "**/*.test.ts");

    let args = tool_call("12-PreToolUse.json", "NotebookEdit");
    assert_eq!(args["notebook_path"], "/home/dev/work/app/analysis.ipynb");
    assert_eq!(args["cell_id"], "#VSC-1a2b3c4d");
    assert_eq!(args["new_source"], "print(df.head())");
    assert_eq!(args["edit_mode"], "replace");
}

#[test]
fn mcp_tools_and_subagents_take_claude_s_names() {
    let mcp = through(&VsCode, "13-PreToolUse.json");
    assert_eq!(mcp.tool_name(), Some("mcp__github__create_issue"));
    assert_eq!(mcp_name("mcp_"), None);
    assert_eq!(mcp_name("mcp__x"), None);
    assert_eq!(mcp_name("read_file"), None);

    let args = tool_call("14-PreToolUse.json", "Agent");
    assert_eq!(args["prompt"], "Find where PORT is read");
    assert_eq!(args["subagent_type"], "Plan");
}

#[test]
fn post_tool_use_blocks_at_the_top_level() {
    let ev = through(&VsCode, "04-PostToolUse.json");
    assert_eq!(ev.name(), EventName::PostToolUse);
    assert_eq!(ev.tool_name(), Some("Write"));
    assert!(ev.input()["tool_response"].is_string() || ev.input()["tool_response"].is_object());
    assert_eq!(
        answered(&VsCode, &ev, &block("lint failed")),
        json!({"decision":"block","reason":"lint failed"})
    );
}

#[test]
fn subagent_events_keep_going_inside_hook_specific_output() {
    let start = through(&VsCode, "15-SubagentStart.json");
    assert_eq!(start.name(), EventName::SubagentStart);
    assert_eq!(start.input()["agent_type"], "Plan");
    assert_eq!(
        answered(&VsCode, &start, &context("follow the guide")),
        json!({"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"follow the guide"}})
    );
    let stop_ev = through(&VsCode, "16-SubagentStop.json");
    assert_eq!(stop_ev.name(), EventName::SubagentStop);
    assert_eq!(
        answered(&VsCode, &stop_ev, &block("check the results")),
        json!({"hookSpecificOutput":{"hookEventName":"SubagentStop","decision":"block","reason":"check the results"}})
    );
}

#[test]
fn stop_keeps_going_inside_hook_specific_output() {
    let ev = through(&VsCode, "18-Stop.json");
    assert_eq!(ev.name(), EventName::Stop);
    assert_eq!(ev.input()["stop_hook_active"], false);
    let n = VsCode.encode(&ev, &block("run the tests"));
    // toolCallingLoop.ts reads only `hookSpecificOutput.decision` at Stop.
    assert_eq!(
        stdout_json(&n),
        json!({"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"run the tests"}})
    );
    assert_eq!(
        answered(&VsCode, &ev, &stop("halt")),
        json!({"continue":false,"stopReason":"halt"})
    );
}

#[test]
fn pre_compact_acts_on_nothing() {
    let ev = through(&VsCode, "17-PreCompact.json");
    assert_eq!(ev.name(), EventName::PreCompact);
    assert_eq!(ev.input()["trigger"], "auto");
    let n = VsCode.encode(&ev, &stop("halt"));
    assert_eq!(n.stdout, "", "its results are only logged");
    assert_eq!(n.notes().count(), 1);
}

#[test]
fn the_documented_camel_case_fields_are_read_too() {
    let (_, _, payload) = fixtures("vscode")
        .into_iter()
        .find(|(p, _, _)| p.ends_with("documented/02-PreToolUse.json"))
        .unwrap();
    let ev = claude::Claude.decode(payload, None).unwrap();
    assert_eq!(ev.harness(), "vscode");
    assert_eq!(ev.name(), EventName::PreToolUse);
    assert_eq!(
        ev.session_id(),
        Some("6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
    );
    assert_eq!(ev.tool_name(), Some("Bash"));
}

#[test]
fn every_vscode_payload_is_vscode_s_through_claude_s_and_copilot_s_entries() {
    for (path, native, payload) in fixtures("vscode") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for entry in [&claude::Claude as &dyn Agent, &copilot::Copilot] {
            assert_eq!(
                visitor(entry.id(), &payload).map(|a| a.id()),
                Some("vscode"),
                "{name} through {}",
                entry.id()
            );
            let argv = (entry.id() == "copilot").then(|| {
                copilot::TABLE
                    .by_canonical(native.parse().unwrap())
                    .unwrap()
                    .native
            });
            let ev = entry.decode(payload.clone(), argv).unwrap();
            let own = VsCode.decode(payload.clone(), None).unwrap();
            assert_eq!(ev.harness(), "vscode", "{name}");
            assert_eq!(ev.input(), own.input(), "{name} through {}", entry.id());
            // And answered as VS Code reads it, whichever entry.
            assert_eq!(
                entry.encode(&ev, &block("again")).stdout,
                VsCode.encode(&own, &block("again")).stdout,
                "{name}"
            );
        }
    }
}

#[test]
fn other_agents_payloads_stay_theirs() {
    let agents = ["claude", "copilot"];
    for agent in agents {
        let agent = find(agent).unwrap();
        for (path, _, payload) in fixtures(agent.id()) {
            assert!(
                visitor(agent.id(), &payload).is_none(),
                "{path:?} taken for another agent's"
            );
        }
    }
    // Claude Code's payload has no timestamp; Copilot's Claude-format one
    // has no tool_use_id.
    let claude_pre = json!({"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"});
    assert!(!is_payload(claude_pre.as_object().unwrap()));
}

#[test]
fn copilot_s_entry_answers_vscode_as_vscode_reads_it() {
    let ev = through(&copilot::Copilot, "02-PreToolUse.json");
    assert_eq!(ev.harness(), "vscode");
    assert_eq!(ev.tool_name(), Some("Bash"));
    // Copilot's own answer is top-level, which VS Code ignores.
    let n = copilot::Copilot.encode(&ev, &deny("no rm"));
    assert_eq!(
        stdout_json(&n)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert!(stdout_json(&n).get("permissionDecision").is_none());
}

#[test]
fn the_first_installed_entry_vscode_prefers_runs_each_event() {
    let vscode = find("vscode").unwrap();
    let none = |_: &dyn Agent| false;
    let all = |_: &dyn Agent| true;
    let only = |id: &'static str| move |a: &dyn Agent| a.id() == id;
    // Its own entry always runs what reaches it.
    assert!(preferred_entry(vscode, vscode, all).is_none());
    // Through Claude's: its own entry first, then Copilot's.
    assert_eq!(
        preferred_entry(vscode, &claude::Claude, all).map(|a| a.id()),
        Some("vscode")
    );
    assert_eq!(
        preferred_entry(vscode, &claude::Claude, only("copilot")).map(|a| a.id()),
        Some("copilot")
    );
    assert!(preferred_entry(vscode, &claude::Claude, none).is_none());
    assert!(preferred_entry(vscode, &claude::Claude, only("claude")).is_none());
    // Through Copilot's: only its own comes first.
    assert_eq!(
        preferred_entry(vscode, &copilot::Copilot, all).map(|a| a.id()),
        Some("vscode")
    );
    assert!(preferred_entry(vscode, &copilot::Copilot, only("claude")).is_none());
}

#[test]
fn its_deadline_is_thirty_seconds_whichever_entry() {
    let claude = find("claude").unwrap();
    let decoded =
        crate::agents::deadline::decode(claude, source("02-PreToolUse.json"), None).unwrap();
    assert_eq!(decoded.deadline.agent, "vscode");
    assert_eq!(decoded.deadline.wait, std::time::Duration::from_secs(30));
}

#[test]
fn its_transcript_is_read_in_copilot_s_event_format() {
    // sessionTranscriptService.ts's records, as its log* methods write them.
    let lines = [
        json!({"type":"session.start","data":{"sessionId":"s","version":1,"producer":"copilot-agent","startTime":"2026-03-28T09:14:02.000Z"}}),
        json!({"type":"user.message","data":{"content":"Clean the build output","attachments":[]}}),
        json!({"type":"assistant.message","data":{"messageId":"m1","content":"Removing it.","toolRequests":[{"toolCallId":"call_1","name":"run_in_terminal","arguments":"{\"command\":\"rm -rf out\"}","type":"function"}]}}),
        json!({"type":"tool.execution_complete","data":{"toolCallId":"call_1","success":true,"result":{"content":"done"}}}),
    ];
    let crate::agents::transcript::TranscriptShape::Reader(read) = VsCode.transcript() else {
        panic!("VS Code's transcript has a reader");
    };
    let records = read(&mut lines.into_iter(), &TABLE);
    let text = serde_json::to_string(&records).unwrap();
    assert!(text.contains("Clean the build output"), "{text}");
    assert!(text.contains("\"Bash\""), "tool names are Claude's: {text}");
    assert!(text.contains("done"), "{text}");
}

#[test]
fn vs_code_calls_copilot_s_entries_only_under_its_own_event_names() {
    use crate::agents::calls_entry_for;
    let vscode = find("vscode").unwrap();
    assert!(calls_entry_for(vscode, "preToolUse", EventName::PreToolUse));
    assert!(calls_entry_for(vscode, "PreToolUse", EventName::PreToolUse));
    assert!(calls_entry_for(
        vscode,
        "subagentStop",
        EventName::SubagentStop
    ));
    // Copilot's names that are not VS Code's once capitalized.
    assert!(!calls_entry_for(
        vscode,
        "userPromptSubmitted",
        EventName::UserPromptSubmit
    ));
    assert!(!calls_entry_for(vscode, "agentStop", EventName::Stop));
    assert!(!calls_entry_for(
        vscode,
        "preToolUse",
        EventName::PostToolUse
    ));
    assert!(!calls_entry_for(vscode, "", EventName::Stop));
    // Copilot CLI calls VS Code's Claude-named entries.
    assert!(calls_entry_for(&copilot::Copilot, "Stop", EventName::Stop));
}
