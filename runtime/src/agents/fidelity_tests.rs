//! Published Claude Code hooks behave the same in every agent (issue 27):
//! the hook's own text reaches the agent, matcher fields carry Claude's
//! values, edit tools carry Claude's fields.

use serde_json::json;

use super::copilot::Copilot;
use super::cursor::Cursor;
use super::kiro::Kiro;
use super::tests::*;
use super::*;
use crate::protocol::Answer;
use crate::protocol::EventName;

/// What hookify prints to deny: the text only in `systemMessage`.
fn hookify() -> crate::protocol::Answer {
    answer(
        json!({"systemMessage":"rule R1 fired","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}),
    )
}

/// An auto-approve hook: allow, with a reason.
fn auto_approve() -> crate::protocol::Answer {
    answer(
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"auto-approved: read-only"}}),
    )
}

/// Copilot's recorded payload `file` of its `deny` run, decoded as `event`.
fn copilot(file: &str, event: &'static str) -> Event {
    let (_, _, payload) = fixtures("copilot")
        .into_iter()
        .find(|(p, _, _)| p.ends_with(format!("deny/{file}")))
        .unwrap_or_else(|| panic!("no recorded {file}"));
    decoded_at(&Copilot, payload, event)
}

/// Kiro's documented preToolUse payload (docs/agent-protocols.md §12).
fn kiro_pre_tool() -> Event {
    decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":"ls"}}),
    )
}

/// Cursor's documented preToolUse payload (docs/agent-protocols.md §5).
fn cursor_pre_tool() -> Event {
    decoded(
        &Cursor,
        json!({"conversation_id":"c1","hook_event_name":"preToolUse","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"ls"}}),
    )
}

#[test]
fn a_deny_with_only_a_system_message_says_it_in_every_agent() {
    for agent in AGENTS.iter().filter(|a| a.id() != "claude") {
        for row in agent.table().events.iter().filter(|r| r.caps.deny) {
            let event = event_at(*agent, row, json!({"cwd": "/w"}));
            let said = |native: Native| format!("{} {}", native.stdout, native.stderr.join(" "));
            if !said(agent.encode(&event, &deny("R0"))).contains("R0") {
                continue; // no text channel at all here (OpenCode's permission.ask)
            }
            let said = said(agent.encode(&event, &hookify()));
            assert!(
                said.contains("rule R1 fired"),
                "{} at {}: {said}",
                agent.id(),
                row.native
            );
        }
    }
}

/// `answer` to a PreToolUse in Cursor (`permission`, the hook's `text` in
/// both its channels) and in Copilot (the decision, `text` its reason);
/// Copilot's answer is returned for what else it says.
fn in_cursor_and_copilot(answer: &Answer, permission: &str, text: &str) -> Native {
    let native = Cursor.encode(&cursor_pre_tool(), answer);
    assert_eq!(
        stdout_json(&native),
        json!({"permission": permission, "agent_message": text, "user_message": text})
    );
    let event = copilot("02-preToolUse.json", "preToolUse");
    let native = Copilot.encode(&event, answer);
    assert_eq!(
        stdout_json(&native),
        json!({"permissionDecision": permission, "permissionDecisionReason": text})
    );
    native
}

#[test]
fn hookify_denies_carry_the_hook_s_text_in_cursor_copilot_and_kiro() {
    let native = in_cursor_and_copilot(&hookify(), "deny", "rule R1 fired");
    assert!(
        native
            .notes
            .iter()
            .any(|n| n.text.contains("given as the reason instead")),
        "{:?}",
        native.notes
    );
    let native = Kiro.encode(&kiro_pre_tool(), &hookify());
    assert_eq!(
        (native.exit_code, native.stderr.clone()),
        (2, vec!["rule R1 fired".to_string()])
    );
}

#[test]
fn a_reason_and_a_system_message_go_to_cursor_s_two_channels() {
    let both = answer(
        json!({"systemMessage":"shown to you","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"for the model"}}),
    );
    let native = Cursor.encode(&cursor_pre_tool(), &both);
    assert_eq!(
        stdout_json(&native),
        json!({"permission":"deny","agent_message":"for the model","user_message":"shown to you"})
    );
    // Copilot has one channel: the reason wins, the message is noted dropped.
    let event = copilot("02-preToolUse.json", "preToolUse");
    let native = Copilot.encode(&event, &both);
    assert_eq!(
        stdout_json(&native)["permissionDecisionReason"],
        "for the model"
    );
}

#[test]
fn a_block_or_stop_with_only_a_system_message_takes_it_as_its_reason() {
    let event = copilot("06-agentStop.json", "agentStop");
    let keep_going = answer(json!({"decision":"block","systemMessage":"tests still fail"}));
    let native = Copilot.encode(&event, &keep_going);
    assert_eq!(
        stdout_json(&native),
        json!({"decision":"block","reason":"tests still fail"})
    );
    let prompt = decoded(
        &Cursor,
        json!({"conversation_id":"c1","hook_event_name":"beforeSubmitPrompt","prompt":"hi"}),
    );
    let native = Cursor.encode(&prompt, &keep_going);
    assert_eq!(
        stdout_json(&native),
        json!({"continue":false,"user_message":"tests still fail"})
    );
}

#[test]
fn auto_approve_answers_in_cursor_copilot_and_kiro() {
    in_cursor_and_copilot(&auto_approve(), "allow", "auto-approved: read-only");
    // Kiro has no allow (an agent limit `agents` names): its own rules apply.
    let native = Kiro.encode(&kiro_pre_tool(), &auto_approve());
    assert_eq!((native.exit_code, native.stdout.as_str()), (0, ""));
    let notes: Vec<&str> = native.notes.iter().map(|n| n.text.as_str()).collect();
    assert!(
        notes.iter().any(|n| n.contains("permissionDecision")),
        "{notes:?}"
    );
}

/// Every agent's recorded payloads of `event`, decoded.
fn recorded(event: EventName) -> Vec<(String, Event)> {
    AGENTS
        .iter()
        .filter(|a| !fixtures(a.id()).is_empty())
        .flat_map(|a| {
            fixtures(a.id())
                .into_iter()
                .filter_map(move |(path, native, payload)| {
                    let ev = a.decode(payload, Some(&native)).ok()?;
                    let name = format!("{}: {}", a.id(), path.display());
                    (ev.name() == event).then_some((name, ev))
                })
        })
        .collect()
}

#[test]
fn a_startup_matcher_fires_in_every_agent_that_has_session_start() {
    let startup = crate::config::Matcher::parse(Some("startup")).expect("matcher");
    let mut seen = 0;
    // Claude's own payloads always carry `source` (its recorded ones are below).
    for agent in AGENTS.iter().filter(|a| a.id() != "claude") {
        for row in agent.table().events {
            if row.canonical != EventName::SessionStart {
                continue;
            }
            // What the agents without a `source` send: nothing to go on but
            // the event.
            let event = decoded_at(*agent, json!({"cwd": "/w"}), row.native);
            let want = if row.native.to_ascii_lowercase().contains("resume") {
                "resume"
            } else {
                seen += 1;
                assert!(startup.matches(event.matcher_target()), "{}", agent.id());
                "startup"
            };
            assert_eq!(
                event.matcher_target(),
                Some(want),
                "{} at {}",
                agent.id(),
                row.native
            );
        }
    }
    assert!(seen >= 15, "{seen} agents with SessionStart");
    // And what they send where they send one, recorded.
    let all = recorded(EventName::SessionStart);
    assert!(all.len() >= 10, "{}", all.len());
    for (name, ev) in all {
        assert!(
            startup.matches(ev.matcher_target()),
            "{name}: {:?}",
            ev.input()
        );
    }
    let ev = copilot("00-sessionStart.json", "sessionStart");
    assert_eq!(ev.str_field("source_native"), Some("new"));
}

#[test]
fn session_end_reasons_and_other_matcher_fields_are_claude_s_values() {
    let claude = ["clear", "resume", "logout", "prompt_input_exit", "other"];
    let all = recorded(EventName::SessionEnd);
    assert!(all.len() >= 10, "{}", all.len());
    for (name, ev) in &all {
        let reason = ev.matcher_target().unwrap_or_default();
        assert!(claude.contains(&reason), "{name}: {reason}");
    }
    let reason = |agent: &str, native: &str| {
        let ev = &all
            .iter()
            .find(|(n, e)| {
                n.starts_with(&format!("{agent}:")) && e.str_field("reason_native") == Some(native)
            })
            .unwrap_or_else(|| panic!("{agent}: no recorded reason {native}"))
            .1;
        ev.matcher_target().map(str::to_string)
    };
    assert_eq!(reason("copilot", "complete").as_deref(), Some("other"));
    assert_eq!(
        reason("gemini", "exit").as_deref(),
        Some("prompt_input_exit")
    );
    assert_eq!(reason("pi", "quit").as_deref(), Some("prompt_input_exit"));
    // Where an agent says no trigger (SemaClaw) none is made up.
    for (name, ev) in recorded(EventName::PreCompact) {
        let trigger = ev.matcher_target();
        assert!(
            matches!(trigger, None | Some("auto")),
            "{name}: {trigger:?}"
        );
    }
    // Gemini's only notification type is its word for Claude's permission prompt.
    let gemini = find("gemini").expect("gemini");
    let ev = decoded(
        gemini,
        json!({"hook_event_name":"Notification","notification_type":"ToolPermission","message":"m"}),
    );
    assert_eq!(ev.matcher_target(), Some("permission_prompt"));
    assert_eq!(
        ev.str_field("notification_type_native"),
        Some("ToolPermission")
    );
}

#[test]
fn every_agent_s_file_tools_give_an_absolute_file_path() {
    let mut checked = std::collections::BTreeSet::new();
    for agent in AGENTS {
        let table = agent.table();
        for row in table
            .events
            .iter()
            .filter(|r| r.canonical == EventName::PreToolUse)
        {
            for claude in ["Read", "Write", "Edit"] {
                // The agent's own tool name and parameter names for it.
                let Some(native_tool) = table
                    .tools
                    .iter()
                    .find(|t| t.canonical == claude)
                    .map(|t| t.native)
                else {
                    continue;
                };
                let args = plan::to_native_input(
                    table,
                    claude,
                    &json!({"file_path": "src/a.rs", "content": "c"})
                        .as_object()
                        .unwrap()
                        .clone(),
                );
                let payload = json!({"hook_event_name": row.native, "cwd": "/w", "workspace_roots": ["/w"],
                    "tool_name": native_tool, "tool_input": args, "toolName": native_tool, "toolArgs": args});
                let Ok(ev) = agent.decode(payload, Some(row.native)) else {
                    continue;
                };
                if ev.tool_name() != Some(claude) {
                    continue; // the row is for another tool (Cursor's beforeReadFile)
                }
                // A payload of another shape (OpenCode's plugin) says no path here.
                let Some(path) = ev.tool_input().and_then(|i| i.get("file_path")) else {
                    continue;
                };
                checked.insert(agent.id());
                assert_eq!(
                    path,
                    &json!("/w/src/a.rs"),
                    "{} {native_tool} at {}",
                    agent.id(),
                    row.native
                );
            }
        }
    }
    assert!(checked.len() >= 8, "{checked:?}");
}

/// The book's table (docs/agents.md) of the Claude fields a hook can rely on, per agent:
/// every agent has a row, ids are sent or derived, and where the agent's
/// payloads are recorded, "sent" is what they hold.
#[test]
fn readme_says_which_claude_fields_each_agent_sends() {
    const FIELDS: [&str; 5] = [
        "session_id",
        "transcript_path",
        "cwd",
        "permission_mode",
        "tool_use_id",
    ];
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/agents.md"))
        .expect("docs/agents.md");
    let header =
        "| agent | `session_id` | `transcript_path` | `cwd` | `permission_mode` | `tool_use_id` |";
    let rows: Vec<Vec<&str>> = readme
        .lines()
        .skip_while(|l| *l != header)
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), AGENTS.len(), "one row per agent");
    for agent in AGENTS {
        let row = rows
            .iter()
            .find(|r| r[0] == agent.id())
            .unwrap_or_else(|| panic!("docs/agents.md: no row for {}", agent.id()));
        let says = |field: &str| row[1 + FIELDS.iter().position(|f| *f == field).unwrap()];
        for id in ["session_id", "tool_use_id"] {
            assert!(
                says(id).starts_with("sent") || says(id) == "derived",
                "{}: {id}",
                agent.id()
            );
        }
        for field in ["transcript_path", "cwd", "permission_mode"] {
            assert_ne!(says(field), "derived", "{}: {field}", agent.id());
        }
        // A transcript in a shape agenthooks cannot read reaches hooks only
        // as `transcript_path_native` (exec::transcript), so it is not "sent".
        let readable = !matches!(
            agent.transcript(),
            super::transcript::TranscriptShape::Unknown
        );
        assert!(
            readable || !says("transcript_path").starts_with("sent"),
            "docs/agents.md on {}'s `transcript_path`: hooks get only transcript_path_native",
            agent.id()
        );
        let recorded: Vec<Event> = fixtures(agent.id())
            .into_iter()
            .filter_map(|(_, native, payload)| agent.decode(payload, Some(&native)).ok())
            .collect();
        if recorded.is_empty() {
            continue;
        }
        for field in FIELDS {
            let sent = recorded
                .iter()
                .any(|e| e.input().get(field).is_some_and(|v| !v.is_null()))
                && (field != "transcript_path" || readable);
            assert_eq!(
                says(field).starts_with("sent"),
                sent,
                "docs/agents.md on {}'s `{field}`, against its recorded payloads",
                agent.id()
            );
        }
    }
}

#[test]
fn an_edit_sent_as_a_list_of_edits_has_claude_s_old_and_new_strings() {
    let ev = decoded(
        &Cursor,
        json!({"conversation_id":"c1","hook_event_name":"afterFileEdit","workspace_roots":["/w"],"file_path":"src/a.js",
            "edits":[{"old_string":"a","new_string":"el.innerHTML = x"},{"old_string":"b","new_string":"eval(y)"}]}),
    );
    let input = ev.tool_input().expect("tool input");
    assert_eq!(input["file_path"], "/w/src/a.js");
    assert_eq!(input["old_string"], "a\nb");
    assert_eq!(input["new_string"], "el.innerHTML = x\neval(y)");
    let windsurf = find("windsurf").expect("windsurf");
    let ev = decoded(
        windsurf,
        json!({"agent_action_name":"pre_write_code","trajectory_id":"t","tool_info":{"file_path":"/w/b.py","edits":[{"old_string":"x","new_string":"y"}]}}),
    );
    let input = ev.tool_input().expect("tool input");
    assert_eq!(
        (&input["old_string"], &input["new_string"]),
        (&json!("x"), &json!("y"))
    );
}

/// README's table of agents (its front page) has a row for every agent,
/// named as `agents` names it, with the id `install` takes.
#[test]
fn readme_lists_every_agent_with_its_install_id() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README");
    for agent in AGENTS {
        let row = format!("| {} | `{}` |", agent.display_name(), agent.id());
        assert!(
            readme.lines().any(|line| line.starts_with(&row)),
            "README's table of agents has no row `{row}`"
        );
    }
}
