//! Published Claude Code hooks behave the same in every agent (issue 27):
//! the hook's own text reaches the agent, matcher fields carry Claude's
//! values, edit tools carry Claude's fields.

use serde_json::json;

use super::copilot::Copilot;
use super::cursor::Cursor;
use super::kiro::Kiro;
use super::tests::*;
use super::*;

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

/// Kiro's documented preToolUse payload (agent-protocols.md §12).
fn kiro_pre_tool() -> Event {
    decoded(
        &Kiro,
        json!({"hook_event_name":"preToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":"ls"}}),
    )
}

/// Cursor's documented preToolUse payload (agent-protocols.md §5).
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

#[test]
fn hookify_denies_carry_the_hook_s_text_in_cursor_copilot_and_kiro() {
    let native = Cursor.encode(&cursor_pre_tool(), &hookify());
    assert_eq!(
        stdout_json(&native),
        json!({"permission":"deny","agent_message":"rule R1 fired","user_message":"rule R1 fired"})
    );
    let event = copilot("02-preToolUse.json", "preToolUse");
    let native = Copilot.encode(&event, &hookify());
    assert_eq!(
        stdout_json(&native),
        json!({"permissionDecision":"deny","permissionDecisionReason":"rule R1 fired"})
    );
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
    let native = Cursor.encode(&cursor_pre_tool(), &auto_approve());
    assert_eq!(
        stdout_json(&native),
        json!({"permission":"allow","agent_message":"auto-approved: read-only","user_message":"auto-approved: read-only"})
    );
    let event = copilot("02-preToolUse.json", "preToolUse");
    let native = Copilot.encode(&event, &auto_approve());
    assert_eq!(
        stdout_json(&native),
        json!({"permissionDecision":"allow","permissionDecisionReason":"auto-approved: read-only"})
    );
    // Kiro has no allow (an agent limit `agents` names): its own rules apply.
    let native = Kiro.encode(&kiro_pre_tool(), &auto_approve());
    assert_eq!((native.exit_code, native.stdout.as_str()), (0, ""));
    let notes: Vec<&str> = native.notes.iter().map(|n| n.text.as_str()).collect();
    assert!(
        notes.iter().any(|n| n.contains("permissionDecision")),
        "{notes:?}"
    );
}
