//! Rendering what hooks did: one-line notes for stderr, a readable block per
//! hook for `fire`, and the same as JSON for `fire --json`.

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::exec::Report;
use crate::protocol::{one_line, Exit, Note, NoteKind, Outcome};

/// How much of a hook's stdout or stderr the text report shows.
const EXCERPT_CHARS: usize = 400;

/// `eprintln!` with agenthooks' prefix ([`prefixed!`](crate::protocol::prefixed)):
/// how a command says a line of its own on stderr (an error, a warning)
/// that is not a [`Note`].
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::protocol::prefixed!($($arg)*))
    };
}
pub(crate) use say;

/// A line of the CLI's own for stderr, as every note is printed
/// ([`Note::line`]: prefixed once, one bounded line).
pub fn note_line(text: &str) -> String {
    Note::runtime(NoteKind::Info, text).line()
}

/// A report as JSON (for `fire --json`).
pub fn report_json(report: &Report) -> Value {
    let (answer, failure, skip) = match &report.outcome {
        Outcome::Answered(answer) => (json!(answer), Value::Null, Value::Null),
        Outcome::Failed(failure) => (
            Value::Null,
            json!({"kind": failure.kind(), "message": failure.to_string()}),
            Value::Null,
        ),
        Outcome::Skipped(skip) => (
            Value::Null,
            Value::Null,
            json!({"kind": skip.kind(), "message": skip.to_string()}),
        ),
    };
    let (exit_code, signal) = match report.exit {
        Some(Exit::Code(code)) => (json!(code), Value::Null),
        Some(Exit::Signal(signal)) => (Value::Null, json!(signal)),
        None => (Value::Null, Value::Null),
    };
    json!({
        "label": report.label,
        "kind": report.kind,
        "scope": report.scope,
        "file": report.file,
        "status": report.status(),
        "exitCode": exit_code,
        "signal": signal,
        "durationMs": crate::audit::millis(report.duration),
        "answer": answer,
        "failure": failure,
        "skip": skip,
        "stdout": report.stdout,
        "stderr": report.stderr,
        "notes": report.notes,
        "details": report.details,
        "fuelUsed": report.fuel_used,
        "llm": report.llm,
    })
}

/// A report as an indented block of text (for `fire`): a header line, then
/// what it answered, excerpts of its output and its notes.
pub fn report_text(index: usize, report: &Report) -> String {
    // The label names the kind already: `command `./x.sh``; the scope and
    // file say where it was declared.
    let mut out = format!(
        "  [{index}] {} ({}: {})  {}",
        report.label,
        report.scope,
        report.file.display(),
        report.status()
    );
    if let Some(exit) = report.exit {
        let _ = write!(out, "  {exit}");
    }
    let _ = writeln!(out, "  {} ms", report.duration.as_millis());
    match &report.outcome {
        Outcome::Answered(answer) if answer.is_empty() => {
            let _ = writeln!(out, "      answered: nothing (no opinion)");
        }
        Outcome::Answered(answer) => {
            let text = serde_json::to_string(answer).unwrap_or_default();
            let _ = writeln!(out, "      answered: {text}");
        }
        Outcome::Failed(failure) => {
            let _ = writeln!(out, "      failure: {failure}");
        }
        Outcome::Skipped(skip) => {
            let _ = writeln!(out, "      skipped: {skip}");
        }
    }
    for (name, text) in [("stdout", &report.stdout), ("stderr", &report.stderr)] {
        if let Some(excerpt) = excerpt(text) {
            let _ = writeln!(out, "      {name}: {excerpt}");
        }
    }
    for note in &report.notes {
        let _ = writeln!(out, "      note: {}", one_line(note));
    }
    for detail in &report.details {
        let _ = writeln!(out, "      {detail}");
    }
    out
}

/// The start of `text` on one line, or `None` when it is blank.
pub fn excerpt(text: &str) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let flat: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { '⏎' } else { c })
        .collect();
    let mut chars = flat.chars();
    let mut short: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        short.push('…');
    }
    Some(short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_one_bounded_line() {
        assert_eq!(excerpt("  \n "), None);
        assert_eq!(excerpt("a\nb\n").as_deref(), Some("a⏎b"));
        let long = "x".repeat(EXCERPT_CHARS + 10);
        let short = excerpt(&long).unwrap();
        assert_eq!(short.chars().count(), EXCERPT_CHARS + 1);
        assert!(short.ends_with('…'));
    }
}
