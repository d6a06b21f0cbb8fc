//! Tests of the aggregator: one case per rule of docs/design.md §5 and per row of §3's table.

use std::time::Duration;

use serde_json::{json, Value};

use super::*;
use crate::protocol::{parse_output, Exit, Failure, Skip};

/// A hook's outcome from its JSON answer.
fn says(answer: Value) -> Outcome {
    Outcome::Answered(serde_json::from_value(answer).expect("a valid answer"))
}

/// A hook's outcome from how a command ended, through the one parser.
fn ran(event: EventName, code: i32, stdout: &str, stderr: &str) -> Outcome {
    parse_output(event, Exit::Code(code), stdout, stderr)
}

fn timed_out() -> Outcome {
    Outcome::Failed(Failure::Timeout {
        after: Duration::from_secs(2),
    })
}

/// A PreToolUse answer with a permission decision and its reason.
fn decided(decision: &str, reason: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": decision, "permissionDecisionReason": reason}})
}

fn pre(decision: &str, reason: &str) -> Outcome {
    says(decided(decision, reason))
}

fn context(event: EventName, text: &str) -> Outcome {
    says(
        json!({"hookSpecificOutput": {"hookEventName": event.as_str(), "additionalContext": text}}),
    )
}

fn updated(input: Value) -> Outcome {
    says(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": input}}))
}

/// Aggregate outcomes labelled `a`, `b`, `c`, ... in order, failures allowing.
fn agg(event: EventName, outcomes: &[Outcome]) -> Aggregated {
    agg_with(
        event,
        &outcomes
            .iter()
            .map(|o| (OnError::Allow, o.clone()))
            .collect::<Vec<_>>(),
    )
}

fn agg_with(event: EventName, outcomes: &[(OnError, Outcome)]) -> Aggregated {
    let labels = ["a", "b", "c", "d", "e", "f"];
    let verdicts: Vec<Verdict<'_>> = outcomes
        .iter()
        .zip(labels)
        .map(|((on_error, outcome), label)| Verdict {
            label,
            on_error: *on_error,
            outcome,
        })
        .collect();
    aggregate(event, &verdicts)
}

fn json_of(a: &Aggregated) -> Value {
    serde_json::to_value(&a.answer).unwrap()
}

struct Case {
    name: &'static str,
    event: EventName,
    hooks: Vec<(OnError, Outcome)>,
    answer: Value,
    notes: &'static [&'static str],
}

fn allow(o: Outcome) -> (OnError, Outcome) {
    (OnError::Allow, o)
}

fn deny_on_error(o: Outcome) -> (OnError, Outcome) {
    (OnError::Deny, o)
}

fn texts(got: &Aggregated) -> Vec<&str> {
    got.notes.iter().map(|n| n.text.as_str()).collect()
}

fn check(cases: Vec<Case>) {
    for case in cases {
        let got = agg_with(case.event, &case.hooks);
        assert_eq!(json_of(&got), case.answer, "case `{}`: answer", case.name);
        assert_eq!(texts(&got), case.notes, "case `{}`: notes", case.name);
    }
}

use EventName::*;

#[test]
fn precedence_before_a_tool() {
    check(vec![
        Case {
            name: "deny beats ask and allow",
            event: PreToolUse,
            hooks: vec![
                allow(pre("allow", "ok")),
                allow(pre("ask", "sure?")),
                allow(pre("deny", "no")),
            ],
            answer: decided("deny", "no"),
            notes: &[],
        },
        Case {
            name: "defer beats ask",
            event: PreToolUse,
            hooks: vec![allow(pre("ask", "sure?")), allow(pre("defer", "later"))],
            answer: decided("defer", "later"),
            notes: &[],
        },
        Case {
            name: "deny beats defer",
            event: PreToolUse,
            hooks: vec![allow(pre("defer", "later")), allow(pre("deny", "no"))],
            answer: decided("deny", "no"),
            notes: &[],
        },
        Case {
            name: "ask beats allow",
            event: PreToolUse,
            hooks: vec![allow(pre("allow", "fine")), allow(pre("ask", "sure?"))],
            answer: decided("ask", "sure?"),
            notes: &[],
        },
        Case {
            name: "allow beats no decision",
            event: PreToolUse,
            hooks: vec![allow(says(json!({}))), allow(pre("allow", "fine"))],
            answer: decided("allow", "fine"),
            notes: &[],
        },
        Case {
            name: "only the winners' reasons, one a line, in declaration order",
            event: PreToolUse,
            hooks: vec![
                allow(pre("deny", "first")),
                allow(pre("allow", "not me")),
                allow(pre("ask", "nor me")),
                allow(pre("deny", "second")),
            ],
            answer: decided("deny", "first\nsecond"),
            notes: &[],
        },
        Case {
            name: "deprecated block is deny and approve is allow; no top-level decision is emitted",
            event: PreToolUse,
            hooks: vec![
                allow(says(json!({"decision": "approve", "reason": "fine"}))),
                allow(says(json!({"decision": "block", "reason": "old style"}))),
            ],
            answer: decided("deny", "old style"),
            notes: &[],
        },
        Case {
            name: "a winner without a reason adds none",
            event: PreToolUse,
            hooks: vec![
                allow(says(
                    json!({"hookSpecificOutput": {"permissionDecision": "deny"}}),
                )),
                allow(pre("deny", "why")),
            ],
            answer: decided("deny", "why"),
            notes: &[],
        },
    ]);
}

#[test]
fn any_permutation_gives_the_same_decision() {
    let outcomes = [
        pre("allow", "1"),
        pre("ask", "2"),
        pre("defer", "3"),
        pre("deny", "4"),
    ];
    let mut order = [0usize, 1, 2, 3];
    // Heap's algorithm would do; four nested rotations cover all 24 orders too.
    let mut seen = 0;
    for _ in 0..4 {
        order.rotate_left(1);
        for _ in 0..3 {
            order[1..].rotate_left(1);
            for _ in 0..2 {
                order[2..].rotate_left(1);
                let shuffled: Vec<Outcome> = order.iter().map(|&i| outcomes[i].clone()).collect();
                let got = agg(PreToolUse, &shuffled);
                let hso = got.answer.hook_specific_output.unwrap();
                assert_eq!(hso.permission_decision, Some(PermissionDecision::Deny));
                assert_eq!(hso.permission_decision_reason.as_deref(), Some("4"));
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 24);
}

#[test]
fn blocks_and_context() {
    check(vec![
        Case {
            name: "any block blocks the prompt, reasons joined",
            event: UserPromptSubmit,
            hooks: vec![
                allow(says(
                    json!({"decision": "block", "reason": "secret in prompt"}),
                )),
                allow(says(json!({}))),
                allow(ran(UserPromptSubmit, 2, "", "too long\n")),
            ],
            answer: json!({"decision": "block", "reason": "secret in prompt\ntoo long"}),
            notes: &[],
        },
        Case {
            name: "a block at Stop keeps the agent going",
            event: Stop,
            hooks: vec![allow(says(
                json!({"decision": "block", "reason": "tests fail"}),
            ))],
            answer: json!({"decision": "block", "reason": "tests fail"}),
            notes: &[],
        },
        Case {
            name: "contexts and system messages, all of them, in declaration order",
            event: PostToolUse,
            hooks: vec![
                allow(context(PostToolUse, "first")),
                allow(says(json!({"systemMessage": "warn 1"}))),
                allow(context(PostToolUse, "second")),
                allow(says(json!({"systemMessage": "warn 2"}))),
            ],
            answer: json!({"systemMessage": "warn 1\nwarn 2", "hookSpecificOutput": {
                "hookEventName": "PostToolUse", "additionalContext": "first\nsecond"}}),
            notes: &[],
        },
        Case {
            name: "continue false from any hook stops, stop reasons joined",
            event: PostToolUse,
            hooks: vec![
                allow(says(json!({"continue": false, "stopReason": "budget"}))),
                allow(says(json!({"continue": true, "stopReason": "ignored"}))),
                allow(says(json!({"continue": false, "stopReason": "policy"}))),
                allow(says(json!({"continue": false}))),
            ],
            answer: json!({"continue": false, "stopReason": "budget\npolicy"}),
            notes: &[],
        },
        Case {
            name: "a block where nothing can be blocked is a note",
            event: SessionStart,
            hooks: vec![allow(ran(SessionStart, 2, "", "nope"))],
            answer: json!({}),
            notes: &["hook a blocked, but SessionStart cannot be blocked; ignored: nope"],
        },
        Case {
            name: "the first hook wins fields nobody aggregates",
            event: UserPromptSubmit,
            hooks: vec![
                allow(says(
                    json!({"suppressOutput": true, "terminalSequence": "1",
                    "hookSpecificOutput": {"sessionTitle": "first"}}),
                )),
                allow(says(
                    json!({"suppressOutput": false, "terminalSequence": "2", "custom": 3,
                    "hookSpecificOutput": {"sessionTitle": "second", "other": 4}}),
                )),
            ],
            answer: json!({"suppressOutput": true, "terminalSequence": "1", "custom": 3,
                "hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                    "sessionTitle": "first", "other": 4}}),
            notes: &[],
        },
        Case {
            name: "nobody said anything",
            event: PreToolUse,
            hooks: vec![
                allow(says(json!({}))),
                allow(ran(PreToolUse, 0, "", "chatter")),
            ],
            answer: json!({}),
            notes: &[],
        },
        Case {
            name: "no hooks at all",
            event: Stop,
            hooks: vec![],
            answer: json!({}),
            notes: &[],
        },
    ]);
}

#[test]
fn updated_input() {
    check(vec![
        Case {
            name: "merged key by key, first wins a conflict, with a note",
            event: PreToolUse,
            hooks: vec![
                allow(updated(json!({"command": "ls -a", "description": "list"}))),
                allow(updated(
                    json!({"command": "ls -b", "description": "list", "timeout": 5}),
                )),
            ],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": "ls -a", "description": "list", "timeout": 5}}}),
            notes: &[
                "hooks `a` and `b` both change `updatedInput.command`; `a` wins (declared first)",
            ],
        },
        Case {
            name: "dropped when the tool is denied",
            event: PreToolUse,
            hooks: vec![
                allow(updated(json!({"command": "ls -a"}))),
                allow(pre("deny", "no")),
            ],
            answer: decided("deny", "no"),
            notes: &["hook a: `updatedInput` dropped because the tool call is denied"],
        },
        Case {
            name: "kept with ask",
            event: PreToolUse,
            hooks: vec![
                allow(updated(json!({"command": "ls -a"}))),
                allow(pre("ask", "sure?")),
            ],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "ask", "permissionDecisionReason": "sure?",
                "updatedInput": {"command": "ls -a"}}}),
            notes: &[],
        },
    ]);
}

#[test]
fn permission_request() {
    let pr = |behavior: &str, extra: Value| {
        let mut decision = json!({"behavior": behavior});
        if let Value::Object(extra) = extra {
            decision.as_object_mut().unwrap().extend(extra);
        }
        says(
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}),
        )
    };
    check(vec![
        Case {
            name: "deny beats allow, messages joined, interrupt or-ed",
            event: PermissionRequest,
            hooks: vec![
                allow(pr("allow", json!({"updatedInput": {"command": "x"}}))),
                allow(pr("deny", json!({"message": "m1"}))),
                allow(pr("deny", json!({"message": "m2", "interrupt": true}))),
            ],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "m1\nm2", "interrupt": true}}}),
            notes: &["hook a: `updatedInput` dropped because the tool call is denied"],
        },
        Case {
            name: "allow merges updatedInput and keeps the first updatedPermissions",
            event: PermissionRequest,
            hooks: vec![
                allow(pr(
                    "allow",
                    json!({"updatedInput": {"command": "x"},
                    "updatedPermissions": [{"type": "addRules"}]}),
                )),
                allow(pr(
                    "allow",
                    json!({"updatedInput": {"command": "y", "timeout": 1},
                    "updatedPermissions": []}),
                )),
            ],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow", "updatedInput": {"command": "x", "timeout": 1},
                    "updatedPermissions": [{"type": "addRules"}]}}}),
            notes: &[
                "hooks `a` and `b` both change `updatedInput.command`; `a` wins (declared first)",
            ],
        },
        Case {
            name: "a block (exit 2) is read as deny, the safe reading",
            event: PermissionRequest,
            hooks: vec![
                allow(pr("allow", json!({}))),
                allow(ran(PermissionRequest, 2, "", "not on main")),
            ],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "not on main"}}}),
            notes: &[],
        },
        Case {
            name: "interrupt from a hook that did not win is ignored",
            event: PermissionRequest,
            hooks: vec![allow(pr("allow", json!({"interrupt": true})))],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"}}}),
            notes: &[],
        },
    ]);
}

#[test]
fn failures_and_skips() {
    check(vec![
        Case {
            name: "a failure allows, with a note",
            event: PreToolUse,
            hooks: vec![allow(timed_out()), allow(pre("allow", "ok"))],
            answer: decided("allow", "ok"),
            notes: &["hook a: timed out after 2s and was killed"],
        },
        Case {
            name: "onError deny turns a failure into a deny before a tool",
            event: PreToolUse,
            hooks: vec![allow(pre("allow", "ok")), deny_on_error(timed_out())],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason":
                    "hook b failed and is set to fail closed: timed out after 2s and was killed"}}),
            notes: &["hook b: timed out after 2s and was killed"],
        },
        Case {
            name: "onError deny turns a failure into a block at the prompt",
            event: UserPromptSubmit,
            hooks: vec![deny_on_error(ran(UserPromptSubmit, 1, "", "boom"))],
            answer: json!({"decision": "block",
                "reason": "hook a failed and is set to fail closed: exited with code 1: boom"}),
            notes: &["hook a: exited with code 1: boom"],
        },
        Case {
            name: "onError deny turns a failure into a deny on a permission request",
            event: PermissionRequest,
            hooks: vec![deny_on_error(timed_out())],
            answer: json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny",
                    "message": "hook a failed and is set to fail closed: timed out after 2s and was killed"}}}),
            notes: &["hook a: timed out after 2s and was killed"],
        },
        Case {
            name: "onError deny where nothing can be refused is the note alone",
            event: SessionStart,
            hooks: vec![deny_on_error(timed_out())],
            answer: json!({}),
            notes: &["hook a: timed out after 2s and was killed"],
        },
        Case {
            name: "bad output is a failure like any other",
            event: Stop,
            hooks: vec![allow(ran(Stop, 0, "{not json", ""))],
            answer: json!({}),
            notes: &["hook a: gave output that is not a valid answer: key must be a string at line 1 column 2"],
        },
        Case {
            name: "a skipped hook does not count, even under onError deny",
            event: PreToolUse,
            hooks: vec![
                deny_on_error(Outcome::Skipped(Skip::Untrusted)),
                allow(Outcome::Skipped(Skip::Unsupported { kind: "prompt".into() })),
            ],
            answer: json!({}),
            // Untrusted hooks are summed up in one note by the trust gate.
            notes: &["hook b: handler type `prompt` is not supported yet; skipped"],
        },
    ]);
}

/// docs/design.md §3: each row of the answer table, through the real parser, at each column.
#[test]
fn design_answer_table() {
    let block = |reason: &str| json!({"decision": "block", "reason": reason});
    let deny = |reason: &str| {
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}})
    };
    let ctx = |event: EventName, text: &str| json!({"hookSpecificOutput": {"hookEventName": event.as_str(), "additionalContext": text}});
    let cant_block =
        |event: EventName| format!("hook a blocked, but {event} cannot be blocked; ignored: r");
    let block_json = r#"{"decision":"block","reason":"r"}"#;
    let deny_json =
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
    let ctx_json = r#"{"hookSpecificOutput":{"additionalContext":"r"}}"#;
    // (row, event, code, stdout, stderr, answer, notes)
    type Row<'a> = (
        &'a str,
        EventName,
        i32,
        &'a str,
        &'a str,
        Value,
        Vec<String>,
    );
    let rows: Vec<Row<'_>> = vec![
        (
            "exit 2",
            SessionStart,
            2,
            "",
            "r",
            json!({}),
            vec![cant_block(SessionStart)],
        ),
        ("exit 2", UserPromptSubmit, 2, "", "r", block("r"), vec![]),
        ("exit 2", PreToolUse, 2, "", "r", deny("r"), vec![]),
        ("exit 2", PostToolUse, 2, "", "r", block("r"), vec![]),
        ("exit 2", Stop, 2, "", "r", block("r"), vec![]),
        (
            "block",
            SessionStart,
            0,
            block_json,
            "",
            json!({}),
            vec![cant_block(SessionStart)],
        ),
        (
            "block",
            UserPromptSubmit,
            0,
            block_json,
            "",
            block("r"),
            vec![],
        ),
        ("block", PreToolUse, 0, block_json, "", deny("r"), vec![]),
        ("block", PostToolUse, 0, block_json, "", block("r"), vec![]),
        ("block", Stop, 0, block_json, "", block("r"), vec![]),
        ("deny", SessionStart, 0, deny_json, "", json!({}), vec![]),
        (
            "deny",
            UserPromptSubmit,
            0,
            deny_json,
            "",
            json!({}),
            vec![],
        ),
        ("deny", PreToolUse, 0, deny_json, "", deny("r"), vec![]),
        ("deny", PostToolUse, 0, deny_json, "", json!({}), vec![]),
        ("deny", Stop, 0, deny_json, "", json!({}), vec![]),
        (
            "context",
            SessionStart,
            0,
            ctx_json,
            "",
            ctx(SessionStart, "r"),
            vec![],
        ),
        (
            "context",
            UserPromptSubmit,
            0,
            ctx_json,
            "",
            ctx(UserPromptSubmit, "r"),
            vec![],
        ),
        (
            "context",
            PostToolUse,
            0,
            ctx_json,
            "",
            ctx(PostToolUse, "r"),
            vec![],
        ),
        (
            "plain text",
            SessionStart,
            0,
            "r",
            "",
            ctx(SessionStart, "r"),
            vec![],
        ),
        (
            "plain text",
            UserPromptSubmit,
            0,
            "r",
            "",
            ctx(UserPromptSubmit, "r"),
            vec![],
        ),
        ("plain text", PreToolUse, 0, "r", "", json!({}), vec![]),
        ("plain text", PostToolUse, 0, "r", "", json!({}), vec![]),
        ("plain text", Stop, 0, "r", "", json!({}), vec![]),
        ("nothing", Stop, 0, "", "", json!({}), vec![]),
        ("nothing", PreToolUse, 0, "", "", json!({}), vec![]),
    ];
    for (row, event, code, stdout, stderr, answer, notes) in rows {
        let got = agg(event, &[ran(event, code, stdout, stderr)]);
        assert_eq!(json_of(&got), answer, "row `{row}` at {event}");
        assert_eq!(texts(&got), notes, "row `{row}` at {event}");
    }
}

#[test]
fn the_result_follows_declaration_order_and_is_deterministic() {
    let first = [context(PostToolUse, "one"), context(PostToolUse, "two")];
    let a = agg(PostToolUse, &first);
    assert_eq!(a, agg(PostToolUse, &first));
    assert_eq!(a.answer.additional_context(), Some("one\ntwo"));
    // The input order is the declaration order: swapped input, swapped text.
    let swapped = [context(PostToolUse, "two"), context(PostToolUse, "one")];
    assert_eq!(
        agg(PostToolUse, &swapped).answer.additional_context(),
        Some("two\none")
    );
}

#[test]
fn blockable_events_are_the_ones_claude_code_lets_block() {
    let blockable: Vec<EventName> = EventName::ALL
        .iter()
        .copied()
        .filter(|e| e.takes_block())
        .collect();
    for e in [
        UserPromptSubmit,
        Stop,
        SubagentStop,
        PostToolUse,
        PostToolBatch,
        PreCompact,
    ] {
        assert!(blockable.contains(&e), "{e}");
    }
    for e in [
        PreToolUse,
        PermissionRequest,
        SessionStart,
        SessionEnd,
        Notification,
    ] {
        assert!(!blockable.contains(&e), "{e}");
    }
}

#[test]
fn identical_reasons_are_joined_once_in_order() {
    let got = agg(
        PreToolUse,
        &[pre("deny", "X"), pre("deny", "Y"), pre("deny", "X")],
    );
    assert_eq!(
        json_of(&got)["hookSpecificOutput"]["permissionDecisionReason"],
        "X\nY"
    );
    let blocked = agg(
        UserPromptSubmit,
        &[
            ran(UserPromptSubmit, 2, "", "X"),
            ran(UserPromptSubmit, 2, "", "X"),
        ],
    );
    assert_eq!(json_of(&blocked)["reason"], "X");
    // Context is not a reason: each hook's is kept.
    let context = agg(
        SessionStart,
        &[context(SessionStart, "C"), context(SessionStart, "C")],
    );
    assert_eq!(
        json_of(&context)["hookSpecificOutput"]["additionalContext"],
        "C\nC"
    );
}

#[test]
fn a_refusal_is_where_it_stops_something_before_it_happens() {
    for event in EventName::ALL {
        if event.can_veto() {
            // Every event a configuration failure refuses can be refused.
            assert!(event.can_refuse(), "{event}");
        }
    }
    assert!(PreToolUse.can_veto() && UserPromptSubmit.can_veto());
    assert!(!Stop.can_veto() && !PostToolUse.can_veto() && !SessionStart.can_veto());
}

#[test]
fn a_block_after_a_failed_tool_is_context_not_a_decision() {
    // PostToolUseFailure is observation only in Claude Code: a `decision`
    // there would be ignored, so the reason reaches the agent as context.
    let got = agg(
        PostToolUseFailure,
        &[
            ran(PostToolUseFailure, 2, "", "retry with --force-with-lease"),
            context(PostToolUseFailure, "ctx"),
        ],
    );
    let v = json_of(&got);
    assert_eq!(v.get("decision"), None, "{v}");
    assert_eq!(
        v["hookSpecificOutput"]["additionalContext"],
        "retry with --force-with-lease\nctx"
    );
    assert!(got.notes.is_empty(), "{:?}", got.notes);
    // After a successful tool, the block stays a decision.
    let post = agg(PostToolUse, &[ran(PostToolUse, 2, "", "why")]);
    assert_eq!(json_of(&post)["decision"], "block");
}

#[test]
fn a_model_switch_is_allowed_denied_or_asked_about_like_a_tool_call() {
    // Exit 2 and `decision: block` read as a deny, the strongest decision wins.
    let got = agg(
        PreModelSwitch,
        &[
            pre("ask", "costly"),
            ran(PreModelSwitch, 2, "", "the cache is warm"),
        ],
    );
    assert_eq!(
        json_of(&got),
        json!({"hookSpecificOutput": {"hookEventName": "PreModelSwitch",
            "permissionDecision": "deny", "permissionDecisionReason": "the cache is warm"}})
    );
    // A fail-closed failure refuses the switch.
    let got = agg_with(PreModelSwitch, &[deny_on_error(timed_out())]);
    assert_eq!(
        json_of(&got)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    // After the switch, plain stdout is context, as Claude Code reads it.
    let got = agg(
        PostModelSwitch,
        &[ran(PostModelSwitch, 0, "now on opus", "")],
    );
    assert_eq!(
        json_of(&got)["hookSpecificOutput"]["additionalContext"],
        "now on opus"
    );
}
