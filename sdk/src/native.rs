//! The same hook function as a native command hook: Claude Code's hook input
//! JSON on stdin, Claude Code's answer JSON on stdout.

use std::io::{Read, Write};
use std::process::ExitCode;

use crate::{Event, HookOutput};

/// Run `hook` as a Claude Code command hook and return the process's exit code.
///
/// Reads the hook input from stdin and prints the answer as Claude Code's JSON
/// on stdout ([`crate::Answer::to_claude_json`]); [`crate::Answer::none`]
/// prints nothing. Exits 0. When the input is not a hook input or the hook
/// returns `Err`, the message goes to stderr and the exit code is 1, which
/// Claude Code and agenthooks treat as a failure that allows.
///
/// [`crate::export!`] generates a `main` that calls this on native targets.
pub fn run_native<F, R>(hook: F) -> ExitCode
where
    F: FnOnce(Event) -> R,
    R: HookOutput,
{
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("could not read the hook input from stdin: {e}");
        return ExitCode::FAILURE;
    }
    match answer_native(&input, hook) {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(json)) => {
            let mut stdout = std::io::stdout().lock();
            match writeln!(stdout, "{json}").and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("could not write the answer to stdout: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// The testable core of [`run_native`]: the hook input text in, the stdout
/// text out (`None` for no output), or the message for stderr.
///
/// # Errors
/// When `input` is not a hook input, or the hook fails.
pub fn answer_native<F, R>(input: &str, hook: F) -> Result<Option<String>, String>
where
    F: FnOnce(Event) -> R,
    R: HookOutput,
{
    let event = Event::from_json_str(input).map_err(|e| e.to_string())?;
    let name = event.name().to_string();
    let answer = hook(event).into_result()?;
    if answer.is_none() {
        return Ok(None);
    }
    Ok(Some(answer.to_claude_json(&name).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Answer;
    use serde_json::{json, Value};

    fn guard(event: Event) -> Answer {
        match event.shell_command() {
            Some(cmd) if cmd.contains("rm -rf /") => Answer::deny("no"),
            _ => Answer::none(),
        }
    }

    #[test]
    fn prints_claude_json_for_an_answer() {
        let input = json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}});
        let out = answer_native(&input.to_string(), guard).unwrap().unwrap();
        let out: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(out["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    }

    #[test]
    fn prints_nothing_for_no_opinion() {
        let input = json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}});
        assert_eq!(answer_native(&input.to_string(), guard), Ok(None));
    }

    #[test]
    fn bad_input_and_hook_errors_are_messages() {
        assert!(answer_native("nope", guard).is_err());
        let input = json!({"hook_event_name":"Stop"}).to_string();
        let err = answer_native(&input, |_| -> Result<Answer, String> { Err("boom".into()) });
        assert_eq!(err, Err("boom".to_string()));
    }
}
