//! A note: one line on stderr about something the user should know (a hook
//! failed, a field was dropped, a config key is unknown), kept as data from
//! where it is made to where it is printed.
//!
//! Who said it ([`Source`]) and what kind of thing it is ([`NoteKind`],
//! serialized as a stable kebab-case name) travel with the text, so `fire
//! --json`, the library and tests tell a timeout from running out of fuel
//! without reading words, and the `agenthooks: ` prefix is spelled in one
//! place, [`note_prefix!`]: [`Note::line`] adds it to a note, [`prefixed!`]
//! to a line the CLI or the event head says of its own.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{one_line, AnswerKind, Failure, Skip};

/// The prefix as a literal, for `concat!` (the launchers' constant lines
/// in `origin.rs`); everything else reads [`NOTE_PREFIX`].
macro_rules! note_prefix {
    () => {
        "agenthooks: "
    };
}
pub(crate) use note_prefix;

/// What every line agenthooks says of its own starts with, on stderr or
/// in the agent: added by [`Note::line`] and by `prefixed!`.
pub const NOTE_PREFIX: &str = note_prefix!();

/// `format!` with [`NOTE_PREFIX`] in front: a line of agenthooks' own that
/// is not a [`Note`] (an error of a CLI command, a message in the agent).
macro_rules! prefixed {
    ($($arg:tt)*) => {
        format!("{}{}", $crate::protocol::NOTE_PREFIX, format_args!($($arg)*))
    };
}
pub(crate) use prefixed;

/// Who a note is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Source {
    /// A configuration file (`hooks.json`): unknown keys, broken files.
    Config,
    /// The trust gate: hooks held back or narrowed.
    Trust,
    /// One hook, by its label (``command `./x.sh` ``).
    Hook {
        /// The hook's label.
        label: String,
    },
    /// The agent's adapter: what the agent cannot do.
    Agent {
        /// The agent's id.
        id: String,
    },
    /// The audit log.
    Audit,
    /// agenthooks itself: input it cannot read, its own trouble.
    Runtime,
}

/// What kind of thing a note says. Serialized (in `fire --json`) as the
/// stable kebab-case name [`NoteKind::as_str`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoteKind {
    /// A hook failed: named by [`Failure::kind`].
    Failed(Failure),
    /// A hook was not run: named by [`Skip::kind`].
    Skipped(Skip),
    /// A configuration file could not be used (`config-error`).
    ConfigError,
    /// A configuration file has something ignored or suspect (`config-warning`).
    ConfigWarning,
    /// hooks.json uses an event the agent's entries do not call (`wiring`).
    Wiring,
    /// The trust gate held hooks back or narrowed them (`trust`).
    Trust,
    /// Untrusted hooks arrived with the session (`held-back`).
    HeldBack,
    /// Two hooks' answers disagree; one part was dropped (`conflict`).
    Conflict,
    /// A block where the event cannot be blocked (`ignored-block`).
    IgnoredBlock,
    /// A `--verbose` line (`verbose`).
    Verbose,
    /// A hook's own note: output cut, grants withheld, ... (`hook-note`).
    HookNote,
    /// The audit log could not be written (`audit`).
    Audit,
    /// The agent's input could not be read (`input`).
    Input,
    /// agenthooks' own trouble (`internal`).
    Internal,
    /// A message of a command, not about a hook (`info`).
    Info,
    /// A hook skipped because the agent runs the same command itself (`double`).
    Double,
    /// The agent does not act on this kind of answer here; it was dropped or
    /// read otherwise: named by [`AnswerKind::note_kind`].
    Dropped(AnswerKind),
    /// The agent does not act on `permissionDecision: defer` (`defer`).
    Defer,
    /// The agent does not act on a field the canonical answer lacks (`other-field`).
    OtherField,
    /// The agent has no such event; the answer was dropped (`no-event`).
    NoEvent,
    /// A reason or context longer than the agent takes was cut (`cut`).
    Cut,
    /// Spans could not be exported, or were dropped (`telemetry`).
    Telemetry,
}

impl NoteKind {
    /// The stable kebab-case name of the kind: what `fire --json` shows.
    pub fn as_str(&self) -> &'static str {
        match self {
            NoteKind::Failed(failure) => failure.kind(),
            NoteKind::Skipped(skip) => skip.kind(),
            NoteKind::ConfigError => "config-error",
            NoteKind::ConfigWarning => "config-warning",
            NoteKind::Wiring => "wiring",
            NoteKind::Trust => "trust",
            NoteKind::HeldBack => "held-back",
            NoteKind::Conflict => "conflict",
            NoteKind::IgnoredBlock => "ignored-block",
            NoteKind::Verbose => "verbose",
            NoteKind::HookNote => "hook-note",
            NoteKind::Audit => "audit",
            NoteKind::Input => "input",
            NoteKind::Internal => "internal",
            NoteKind::Info => "info",
            NoteKind::Double => "double",
            NoteKind::Dropped(kind) => kind.note_kind(),
            NoteKind::Defer => "defer",
            NoteKind::OtherField => "other-field",
            NoteKind::NoEvent => "no-event",
            NoteKind::Cut => "cut",
            NoteKind::Telemetry => "telemetry",
        }
    }
}

impl fmt::Display for NoteKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for NoteKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// One note: who, what kind, and the text (without the `agenthooks: ` prefix).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Note {
    /// Who the note is about.
    pub source: Source,
    /// What kind of thing it says.
    pub kind: NoteKind,
    /// The sentence, one line once printed.
    pub text: String,
}

impl Note {
    /// A note of `kind` from `source`.
    pub fn new(source: Source, kind: NoteKind, text: impl Into<String>) -> Note {
        Note {
            source,
            kind,
            text: text.into(),
        }
    }

    /// A note about the hook labelled `label`.
    pub fn hook(label: &str, kind: NoteKind, text: impl Into<String>) -> Note {
        let source = Source::Hook {
            label: label.to_string(),
        };
        Note::new(source, kind, text)
    }

    /// ``hook <label>: <failure>``, of the failure's kind.
    pub fn failed(label: &str, failure: &Failure) -> Note {
        let text = format!("hook {label}: {failure}");
        Note::hook(label, NoteKind::Failed(failure.clone()), text)
    }

    /// ``hook <label>: <skip>``, of the skip's kind.
    pub fn skipped(label: &str, skip: &Skip) -> Note {
        let text = format!("hook {label}: {skip}");
        Note::hook(label, NoteKind::Skipped(skip.clone()), text)
    }

    /// A note from agenthooks itself.
    pub fn runtime(kind: NoteKind, text: impl Into<String>) -> Note {
        Note::new(Source::Runtime, kind, text)
    }

    /// The note as printed on stderr: [`NOTE_PREFIX`], then the text cut to
    /// one line of bounded length ([`one_line`]). Every note is printed
    /// through here, so a 10 MB event name or a guest's multi-line message
    /// cannot flood stderr.
    pub fn line(&self) -> String {
        format!("{NOTE_PREFIX}{}", one_line(&self.text))
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_note_is_prefixed_once_and_is_one_bounded_line() {
        let huge = format!("unknown event `{}`\nsecond line", "X".repeat(10 << 20));
        let line = Note::runtime(NoteKind::Input, huge).line();
        assert!(!line.contains('\n'));
        assert!(line.len() < 1000, "{}", line.len());
        assert!(line.starts_with("agenthooks: unknown event `XXX"));
        assert!(line.ends_with('…'));
        assert_eq!(Note::runtime(NoteKind::Input, "x").line(), "agenthooks: x");
    }

    #[test]
    fn a_failure_note_keeps_its_kind_as_data() {
        let note = Note::failed(
            "command `x`",
            &Failure::Timeout {
                after: Duration::from_secs(1),
            },
        );
        assert_eq!(note.kind.as_str(), "timeout");
        assert!(matches!(
            note.kind,
            NoteKind::Failed(Failure::Timeout { .. })
        ));
        assert_eq!(
            note.source,
            Source::Hook {
                label: "command `x`".into()
            }
        );
        let json = serde_json::to_value(&note).unwrap();
        assert_eq!(json["kind"], "timeout");
        assert_eq!(json["source"]["type"], "hook");
        assert_eq!(json["source"]["label"], "command `x`");
        let dropped = Note::new(
            Source::Runtime,
            NoteKind::Dropped(AnswerKind::UpdatedInput),
            "y",
        );
        assert_eq!(
            serde_json::to_value(&dropped).unwrap()["kind"],
            "updated-input"
        );
        assert_eq!(
            Note::skipped("h", &Skip::Async).kind,
            NoteKind::Skipped(Skip::Async)
        );
    }
}
