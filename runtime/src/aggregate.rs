//! Stage 5 of the pipeline (aggregate): many outcomes → one answer (docs/design.md §5).
//!
//! The precedence table lives here and only here. Verdicts are folded in
//! declaration order (user scope before project, file order within a file),
//! never in finishing order, so the same outcomes always give the same answer.
//!
//! The answer is normalized to what Claude Code honours for the event: before
//! a tool the decision goes in `hookSpecificOutput.permissionDecision` (never a
//! top-level `decision`), on PermissionRequest in `hookSpecificOutput.decision`,
//! on the other blockable events in a top-level `decision: "block"` + `reason`.

use serde_json::{Map, Value};

use crate::config::OnError;
use crate::protocol::{
    Answer, Behavior, Decision, EventName, HookSpecificOutput, Note, NoteKind, Outcome,
    PermissionDecision, PermissionRequestDecision,
};

/// What one selected handler came to, with what the aggregator needs to know about it.
#[derive(Debug, Clone, Copy)]
pub struct Verdict<'a> {
    /// The handler's label, used in notes (`command \`./x.sh\``).
    pub label: &'a str,
    /// What a failure of this handler counts as.
    pub on_error: OnError,
    /// What it came to.
    pub outcome: &'a Outcome,
}

/// The one answer for the agent, plus the notes to show on stderr.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aggregated {
    /// The combined answer, in Claude Code's shape for the event.
    pub answer: Answer,
    /// One line each: failures, skips, conflicts, dropped fields.
    pub notes: Vec<Note>,
}

/// One hook's contribution after `onError` is applied: its answer, or the deny
/// a fail-closed failure stands for.
struct Said<'a> {
    label: &'a str,
    answer: std::borrow::Cow<'a, Answer>,
}

/// Fold the verdicts of the selected handlers, in declaration order, into one answer.
///
/// The rules (docs/design.md §5): `continue: false` from any hook stops the agent,
/// stop reasons joined; before a tool `deny` > `defer` > `ask` > `allow`, with
/// the reasons of the hooks that gave the winning decision; a block from any
/// hook blocks, reasons joined; every `additionalContext` and `systemMessage`,
/// joined in order; `updatedInput` dropped on deny, else merged key by key,
/// first hook winning; failures allow with a note, or deny under
/// `onError: "deny"`; skipped handlers only leave a note. Other fields: the
/// first hook that sets one wins.
pub fn aggregate(event: EventName, verdicts: &[Verdict<'_>]) -> Aggregated {
    let (said, mut notes) = answers_of(event, verdicts);

    let mut out = Answer::none();
    let mut specific = HookSpecificOutput::default();

    // continue: false, from any hook; stop reasons joined.
    if said.iter().any(|s| s.answer.stops()) {
        out.continue_ = Some(false);
        out.stop_reason = join_reasons(
            said.iter()
                .filter(|s| s.answer.stops())
                .filter_map(|s| s.answer.stop_reason.as_deref()),
        );
    }
    out.system_message = join(
        said.iter()
            .filter_map(|s| s.answer.system_message.as_deref()),
    );
    out.suppress_output = said.iter().find_map(|s| s.answer.suppress_output);
    specific.additional_context = join(said.iter().filter_map(|s| s.answer.additional_context()));

    match event {
        // A model switch is allowed, denied or asked about as a tool call is.
        EventName::PreToolUse | EventName::PreModelSwitch => {
            pre_tool_use(&said, &mut specific, &mut notes)
        }
        EventName::PermissionRequest => permission_request(&said, &mut specific, &mut notes),
        other if other.takes_block() => {
            let blockers: Vec<&Said<'_>> = said.iter().filter(|s| s.answer.blocks()).collect();
            if !blockers.is_empty() {
                out.decision = Some(Decision::Block);
                out.reason =
                    join_reasons(blockers.iter().filter_map(|s| s.answer.reason.as_deref()));
            }
        }
        // After a tool a block gives its reason to the agent (DESIGN §3); where
        // the event takes no `decision` (PostToolUseFailure) that is context.
        other if other.is_after_tool() => {
            let reasons = join_reasons(
                said.iter()
                    .filter(|s| s.answer.blocks())
                    .filter_map(|s| s.answer.reason.as_deref()),
            );
            if let Some(reasons) = reasons {
                specific.additional_context = Some(match specific.additional_context.take() {
                    Some(context) => format!("{reasons}\n{context}"),
                    None => reasons,
                });
            }
        }
        other => {
            for s in said.iter().filter(|s| s.answer.blocks()) {
                let why = s
                    .answer
                    .reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default();
                notes.push(Note::hook(
                    s.label,
                    NoteKind::IgnoredBlock,
                    format!(
                        "hook {} blocked, but {other} cannot be blocked; ignored{why}",
                        s.label
                    ),
                ));
            }
        }
    }

    // Fields nobody aggregates: the first hook that sets one wins.
    for s in &said {
        merge_first_wins(&mut out.extra, &s.answer.extra);
        if let Some(hso) = &s.answer.hook_specific_output {
            merge_first_wins(&mut specific.extra, &hso.extra);
        }
    }

    if specific != HookSpecificOutput::default() {
        specific.hook_event_name = Some(event.as_str().to_string());
        out.hook_specific_output = Some(specific);
    }
    Aggregated { answer: out, notes }
}

/// What each hook said, in declaration order (a failure under `onError:
/// "deny"` says a refusal), and the notes of the hooks that said nothing.
fn answers_of<'a>(event: EventName, verdicts: &'a [Verdict<'a>]) -> (Vec<Said<'a>>, Vec<Note>) {
    let mut notes = Vec::new();
    let mut said: Vec<Said<'_>> = Vec::new();
    for v in verdicts {
        match v.outcome {
            Outcome::Answered(answer) => said.push(Said {
                label: v.label,
                answer: std::borrow::Cow::Borrowed(answer),
            }),
            // The trust gate says once per run which hooks were not trusted
            // (or over its cap) and how to trust them; a note per hook would repeat it.
            Outcome::Skipped(skip) if skip.noted_once() => {}
            Outcome::Skipped(skip) => notes.push(Note::skipped(v.label, skip)),
            Outcome::Failed(failure) => {
                notes.push(Note::failed(v.label, failure));
                match v.on_error {
                    // Where nothing can be refused, failing closed is the note alone.
                    OnError::Deny if event.can_refuse() => {
                        let reason = format!(
                            "hook {} failed and is set to fail closed: {failure}",
                            v.label
                        );
                        said.push(Said {
                            label: v.label,
                            answer: std::borrow::Cow::Owned(refusal(event, reason)),
                        });
                    }
                    OnError::Deny | OnError::Allow => {}
                }
            }
        }
    }
    (said, notes)
}

/// The answer that refuses at `event` with `reason`, in the field Claude Code
/// reads there: what a failed `onError: "deny"` handler stands for.
pub fn refusal(event: EventName, reason: String) -> Answer {
    let mut answer = Answer::none();
    match event {
        EventName::PreToolUse | EventName::PreModelSwitch => {
            let hso = answer.specific_mut();
            hso.permission_decision = Some(PermissionDecision::Deny);
            hso.permission_decision_reason = Some(reason);
        }
        EventName::PermissionRequest => {
            answer.specific_mut().decision = Some(PermissionRequestDecision {
                behavior: Some(Behavior::Deny),
                message: Some(reason),
                ..PermissionRequestDecision::default()
            });
        }
        _ => {
            answer.decision = Some(Decision::Block);
            answer.reason = Some(reason);
        }
    }
    answer
}

fn pre_tool_use(said: &[Said<'_>], specific: &mut HookSpecificOutput, notes: &mut Vec<Note>) {
    let winner = said.iter().filter_map(|s| s.answer.permission()).max();
    if let Some(winner) = winner {
        specific.permission_decision = Some(winner);
        specific.permission_decision_reason = join_reasons(
            said.iter()
                .filter(|s| s.answer.permission() == Some(winner))
                .filter_map(|s| s.answer.permission_reason()),
        );
    }
    let inputs = said.iter().filter_map(|s| {
        let hso = s.answer.hook_specific_output.as_ref()?;
        Some((s.label, hso.updated_input.as_ref()?))
    });
    specific.updated_input = merge_inputs(inputs, winner == Some(PermissionDecision::Deny), notes);
}

/// PermissionRequest's behavior of one answer: `decision.behavior`, or a deny
/// spelled the PreToolUse way (a blocking hook meant to refuse; the safe reading).
fn behavior(answer: &Answer) -> Option<(Behavior, Option<&str>)> {
    let decision = answer
        .hook_specific_output
        .as_ref()
        .and_then(|h| h.decision.as_ref());
    if let Some(b) = decision.and_then(|d| d.behavior) {
        return Some((b, decision.and_then(|d| d.message.as_deref())));
    }
    match answer.permission() {
        Some(PermissionDecision::Deny) => Some((Behavior::Deny, answer.permission_reason())),
        Some(PermissionDecision::Allow | PermissionDecision::Ask | PermissionDecision::Defer)
        | None => None,
    }
}

fn permission_request(said: &[Said<'_>], specific: &mut HookSpecificOutput, notes: &mut Vec<Note>) {
    let behaviors: Vec<Option<(Behavior, Option<&str>)>> =
        said.iter().map(|s| behavior(&s.answer)).collect();
    let winner = if behaviors
        .iter()
        .any(|b| matches!(b, Some((Behavior::Deny, _))))
    {
        Behavior::Deny
    } else if behaviors
        .iter()
        .any(|b| matches!(b, Some((Behavior::Allow, _))))
    {
        Behavior::Allow
    } else {
        return;
    };
    let mut decision = PermissionRequestDecision {
        behavior: Some(winner),
        ..PermissionRequestDecision::default()
    };
    let winners = || {
        said.iter()
            .zip(&behaviors)
            .filter(|(_, b)| b.map(|(b, _)| b) == Some(winner))
    };
    decision.message = join_reasons(winners().filter_map(|(_, b)| b.and_then(|(_, m)| m)));
    let interrupt = winners().any(|(s, _)| {
        s.answer
            .hook_specific_output
            .as_ref()
            .and_then(|h| h.decision.as_ref())
            .and_then(|d| d.interrupt)
            == Some(true)
    });
    if interrupt && winner == Behavior::Deny {
        decision.interrupt = Some(true);
    }
    for (s, _) in winners() {
        if let Some(d) = s
            .answer
            .hook_specific_output
            .as_ref()
            .and_then(|h| h.decision.as_ref())
        {
            merge_first_wins(&mut decision.extra, &d.extra);
        }
    }
    let inputs = said.iter().filter_map(|s| {
        let d = s.answer.hook_specific_output.as_ref()?.decision.as_ref()?;
        Some((s.label, d.updated_input.as_ref()?))
    });
    decision.updated_input = merge_inputs(inputs, winner == Behavior::Deny, notes);
    specific.decision = Some(decision);
}

/// Merge `updatedInput`s key by key, the first hook winning a conflicting key.
/// When the tool is denied they are all dropped, each with a note.
fn merge_inputs<'a>(
    inputs: impl Iterator<Item = (&'a str, &'a Map<String, Value>)>,
    denied: bool,
    notes: &mut Vec<Note>,
) -> Option<Map<String, Value>> {
    let mut merged: Option<Map<String, Value>> = None;
    // Which hook set each key, for the conflict note.
    let mut owner: Vec<(String, &'a str)> = Vec::new();
    for (label, input) in inputs {
        if denied {
            notes.push(Note::hook(
                label,
                NoteKind::Conflict,
                format!("hook {label}: `updatedInput` dropped because the tool call is denied"),
            ));
            continue;
        }
        let merged = merged.get_or_insert_with(Map::new);
        for (key, value) in input {
            match merged.get(key) {
                None => {
                    merged.insert(key.clone(), value.clone());
                    owner.push((key.clone(), label));
                }
                Some(existing) if existing == value => {}
                Some(_) => {
                    let first = owner
                        .iter()
                        .find(|(k, _)| k == key)
                        .map_or("?", |(_, l)| *l);
                    notes.push(Note::hook(
                        label,
                        NoteKind::Conflict,
                        format!(
                            "hooks `{first}` and `{label}` both change `updatedInput.{key}`; \
                             `{first}` wins (declared first)"
                        ),
                    ));
                }
            }
        }
    }
    merged
}

/// Insert the keys of `from` that `into` does not have yet.
fn merge_first_wins(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (k, v) in from {
        if !into.contains_key(k) {
            into.insert(k.clone(), v.clone());
        }
    }
}

/// Join the non-empty reasons one a line, each once (two hooks refusing for
/// the same reason say it once), in order; `None` when there are none.
fn join_reasons<'s>(texts: impl Iterator<Item = &'s str>) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    join(texts.filter(|t| {
        let new = !seen.contains(t);
        seen.push(t);
        new
    }))
}

/// Join the non-empty texts one a line; `None` when there are none.
fn join<'s>(texts: impl Iterator<Item = &'s str>) -> Option<String> {
    let parts: Vec<&str> = texts.filter(|t| !t.trim().is_empty()).collect();
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("\n"))
    }
}

#[cfg(test)]
#[path = "aggregate_tests.rs"]
mod tests;
