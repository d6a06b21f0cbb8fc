use serde_json::json;

use super::*;
use crate::agents::tests::*;
use crate::agents::{Agent, Native};
use crate::protocol::{Answer, Event};

fn pre_tool() -> Event {
    decoded_at(
        &Copilot,
        json!({"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"rm -rf x","description":"d"}}),
        Some("preToolUse"),
    )
}

#[test]
fn tool_args_may_be_a_json_string() {
    let ev = decoded_at(
        &Copilot,
        json!({"sessionId":"s","toolName":"create","toolArgs":"{\"path\":\"/a\",\"file_text\":\"hi\"}"}),
        Some("preToolUse"),
    );
    assert_eq!(ev.tool_name(), Some("Write"));
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"file_path":"/a","content":"hi"})
    );
    assert_eq!(ev.input()["toolName"], "create", "native fields kept");
    assert_eq!(ev.input()["tool_kind"], "write");
}

#[test]
fn pre_tool_answers_are_top_level_and_exit_zero() {
    let ev = pre_tool();
    let n = Copilot.encode(&ev, &deny("no rm"));
    assert_eq!(
        stdout_json(&n),
        json!({"permissionDecision":"deny","permissionDecisionReason":"no rm"})
    );
    assert_eq!(n.exit_code, 0, "a non-zero exit would lose the reason");
    let rewritten = rewrite(json!({"command":"ls","description":"d"}));
    for (answer, want) in [
        (
            ask("sure?"),
            json!({"permissionDecision":"ask","permissionDecisionReason":"sure?"}),
        ),
        (allow(), json!({"permissionDecision":"allow"})),
        (
            rewritten,
            json!({"permissionDecision":"allow","modifiedArgs":{"command":"ls","description":"d"}}),
        ),
    ] {
        assert_eq!(answered(&Copilot, &ev, &answer), want);
    }
    let n = Copilot.encode(&ev, &context("ctx"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1);
    let n = Copilot.encode(&ev, &stop("halt"));
    assert_eq!(
        stdout_json(&n),
        json!({"permissionDecision":"deny","permissionDecisionReason":"halt"})
    );
    assert_eq!(n.exit_code, 0);
    assert_eq!(Copilot.encode(&ev, &Answer::none()), Native::default());
}

#[test]
fn a_rewrite_goes_back_in_copilot_s_param_names() {
    let ev = decoded_at(
        &Copilot,
        json!({"toolName":"edit","toolArgs":{"path":"/a","old_str":"x","new_str":"y"}}),
        Some("preToolUse"),
    );
    assert_eq!(
        ev.tool_input().unwrap(),
        &json!({"file_path":"/a","old_string":"x","new_string":"y"})
    );
    let n = Copilot.encode(
        &ev,
        &rewrite(json!({"file_path":"/b","old_string":"x","new_string":"z"})),
    );
    assert_eq!(
        stdout_json(&n)["modifiedArgs"],
        json!({"path":"/b","old_str":"x","new_str":"z"})
    );
}

#[test]
fn permission_request_and_stop_answers() {
    let ev = decoded(
        &Copilot,
        json!({"hookName":"permissionRequest","toolName":"bash","toolInput":{"command":"x"}}),
    );
    let a = answer(json!({"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}));
    assert_eq!(
        stdout_json(&Copilot.encode(&ev, &a)),
        json!({"behavior":"deny","message":"no"})
    );
    assert_eq!(
        answered(&Copilot, &ev, &stop("halt")),
        json!({"behavior":"deny","message":"halt","interrupt":true})
    );

    let stop_ev = decoded_at(&Copilot, json!({"sessionId":"s"}), Some("agentStop"));
    assert_eq!(
        answered(&Copilot, &stop_ev, &block("keep going")),
        json!({"decision":"block","reason":"keep going"})
    );
    let start = decoded_at(&Copilot, json!({"sessionId":"s"}), Some("sessionStart"));
    assert_eq!(
        answered(&Copilot, &start, &context("ctx")),
        json!({"additionalContext":"ctx"})
    );
    let prompt = decoded_at(&Copilot, json!({"prompt":"p"}), Some("userPromptSubmitted"));
    let n = Copilot.encode(&prompt, &block("no"));
    assert_eq!(n.stdout, "");
    assert_eq!(n.notes().count(), 1, "Copilot cannot block a prompt");
}

#[test]
fn a_block_after_a_tool_reaches_the_model_as_context() {
    // Copilot 1.0.102 shows postToolUse `additionalContext` to the model and
    // has no `decision` there (tests/real-agents, `post` phase).
    let ev = decoded_at(
        &Copilot,
        json!({"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a"}}),
        Some("postToolUse"),
    );
    let n = Copilot.encode(&ev, &block("check the output"));
    assert_eq!(
        stdout_json(&n),
        json!({"additionalContext":"check the output"})
    );
    assert_eq!(n.notes().count(), 1, "says the block became context");
    let both = answer(
        json!({"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}),
    );
    assert_eq!(
        stdout_json(&Copilot.encode(&ev, &both)),
        json!({"additionalContext":"r\nc"})
    );
    let n = Copilot.encode(&ev, &block(""));
    assert_eq!(
        n.stdout, "",
        "an empty reason has nothing to tell the model"
    );
}
