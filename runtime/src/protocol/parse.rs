//! The one parser of a command hook's output: (exit code, stdout, stderr) → [`Outcome`].
//!
//! It follows Claude Code's rules (docs/design.md §3): exit 2 blocks with stderr as
//! the reason (a JSON reason on stdout wins); exit 0 parses stdout as JSON when
//! it starts with `{`, or treats plain text as context on the events where
//! Claude Code does; any other exit is a failure, which allows.

use super::{Answer, Decision, EventName, Failure, Outcome, PermissionDecision};

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// It was killed by this signal.
    Signal(i32),
}

/// `exit 0` or `signal 9`.
impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(code) => write!(f, "exit {code}"),
            Exit::Signal(signal) => write!(f, "signal {signal}"),
        }
    }
}

/// Turn a finished hook's exit status and output into its outcome for `event`.
pub fn parse_output(event: EventName, exit: Exit, stdout: &str, stderr: &str) -> Outcome {
    let code = match exit {
        Exit::Code(code) => code,
        Exit::Signal(signal) => return Outcome::Failed(Failure::Signal { signal }),
    };
    match code {
        0 => match parse_stdout(event, stdout) {
            Ok(answer) => Outcome::Answered(answer),
            Err(failure) => Outcome::Failed(failure),
        },
        2 => {
            // A JSON answer on stdout is still read; only its blocking reason matters
            // beside the block, and even `permissionDecision: allow` cannot undo exit 2.
            let mut answer = parse_stdout(event, stdout).unwrap_or_default();
            let stderr = stderr.trim();
            if answer.reason.is_none() && !stderr.is_empty() {
                answer.reason = Some(stderr.to_string());
            }
            answer.decision = Some(Decision::Block);
            if let Some(hso) = answer.hook_specific_output.as_mut() {
                if hso.permission_decision.is_some() {
                    hso.permission_decision = Some(PermissionDecision::Deny);
                    if hso.permission_decision_reason.is_none() {
                        hso.permission_decision_reason = answer.reason.clone();
                    }
                }
            }
            Outcome::Answered(answer)
        }
        code => Outcome::Failed(Failure::ExitCode {
            code,
            stderr: stderr.to_string(),
        }),
    }
}

/// Parse the stdout of a hook that exited 0.
///
/// # Errors
/// A [`Failure::BadOutput`] when stdout looks like JSON but is not a valid answer.
pub fn parse_stdout(event: EventName, stdout: &str) -> Result<Answer, Failure> {
    let text = stdout.trim();
    if text.is_empty() {
        return Ok(Answer::none());
    }
    if text.starts_with('{') {
        return serde_json::from_str::<Answer>(text)
            // serde quotes what it could not read (`unknown variant `...``):
            // a hook's text, so cut to one bounded line.
            .map_err(|e| Failure::BadOutput {
                why: super::one_line(&e.to_string()),
            });
    }
    let mut answer = Answer::none();
    if event.plain_text_is_context() {
        answer.specific_mut().hook_event_name = Some(event.as_str().to_string());
        answer.specific_mut().additional_context = Some(text.to_string());
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use EventName::*;

    fn answered(o: Outcome) -> Answer {
        match o {
            Outcome::Answered(a) => a,
            other => panic!("expected an answer, got {other:?}"),
        }
    }

    #[test]
    fn design_table_rows() {
        // exit 2, reason on stderr: blocks, with stderr as the reason, at every event.
        for ev in [UserPromptSubmit, PreToolUse, PostToolUse, Stop] {
            let a = answered(parse_output(ev, Exit::Code(2), "", "  no way \n"));
            assert!(a.blocks());
            assert_eq!(a.reason.as_deref(), Some("no way"));
        }
        // decision: block JSON.
        let a = answered(parse_output(
            PreToolUse,
            Exit::Code(0),
            r#"{"decision":"block","reason":"r"}"#,
            "",
        ));
        assert_eq!(a.permission(), Some(PermissionDecision::Deny));
        // permissionDecision deny.
        let a = answered(parse_output(
            PreToolUse,
            Exit::Code(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
            "",
        ));
        assert_eq!(a.permission(), Some(PermissionDecision::Deny));
        assert_eq!(a.permission_reason(), Some("x"));
        // additionalContext.
        let a = answered(parse_output(
            PostToolUse,
            Exit::Code(0),
            r#"{"hookSpecificOutput":{"additionalContext":"c"}}"#,
            "",
        ));
        assert_eq!(a.additional_context(), Some("c"));
        // plain text: context at session start and prompt, ignored elsewhere.
        for ev in [SessionStart, UserPromptSubmit, UserPromptExpansion] {
            let a = answered(parse_output(ev, Exit::Code(0), "hello\n", ""));
            assert_eq!(a.additional_context(), Some("hello"));
        }
        for ev in [PreToolUse, PostToolUse, Stop] {
            let a = answered(parse_output(ev, Exit::Code(0), "hello\n", ""));
            assert!(a.is_empty());
        }
        // exit 0 with no output: no opinion.
        assert!(answered(parse_output(Stop, Exit::Code(0), "", "ignored")).is_empty());
    }

    #[test]
    fn exit_two_overrides_allow_and_keeps_json_reason() {
        let a = answered(parse_output(
            PreToolUse,
            Exit::Code(2),
            r#"{"reason":"json reason","hookSpecificOutput":{"permissionDecision":"allow"}}"#,
            "stderr reason",
        ));
        assert_eq!(a.permission(), Some(PermissionDecision::Deny));
        assert_eq!(a.reason.as_deref(), Some("json reason"));
    }

    #[test]
    fn exit_two_with_garbage_stdout_still_blocks() {
        let a = answered(parse_output(PreToolUse, Exit::Code(2), "{nope", "why"));
        assert!(a.blocks());
        assert_eq!(a.reason.as_deref(), Some("why"));
    }

    #[test]
    fn other_exits_and_signals_fail() {
        assert_eq!(
            parse_output(PreToolUse, Exit::Code(1), r#"{"decision":"block"}"#, "boom"),
            Outcome::Failed(Failure::ExitCode {
                code: 1,
                stderr: "boom".into()
            })
        );
        assert_eq!(
            parse_output(PreToolUse, Exit::Signal(9), "", ""),
            Outcome::Failed(Failure::Signal { signal: 9 })
        );
    }

    #[test]
    fn invalid_json_is_bad_output() {
        let o = parse_output(PreToolUse, Exit::Code(0), "{\"decision\": 3}", "");
        assert!(
            matches!(o, Outcome::Failed(Failure::BadOutput { .. })),
            "{o:?}"
        );
        let o = parse_output(PreToolUse, Exit::Code(0), "{ not json", "");
        assert!(
            matches!(o, Outcome::Failed(Failure::BadOutput { .. })),
            "{o:?}"
        );
    }

    #[test]
    fn unknown_fields_are_kept() {
        let a = answered(parse_output(Stop, Exit::Code(0), r#"{"custom":1}"#, ""));
        assert_eq!(a.extra.get("custom"), Some(&json!(1)));
    }

    /// Found by the `hook_output` fuzz target: serde's message quoted the
    /// hook's value whole (`unknown variant `<10 MB>``), line breaks and all.
    #[test]
    fn bad_output_notes_are_one_bounded_line() {
        let value = format!("x\\n{}", "v".repeat(1 << 20));
        let stdout = format!(r#"{{"decision": "{value}"}}"#);
        let Outcome::Failed(failure) = parse_output(PreToolUse, Exit::Code(0), &stdout, "") else {
            panic!("not a failure");
        };
        let note = failure.to_string();
        assert!(!note.contains('\n'), "{note:?}");
        assert!(
            note.chars().count() < 2 * crate::protocol::NOTE_MAX_CHARS,
            "{}",
            note.len()
        );
    }
}
