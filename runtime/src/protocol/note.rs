//! A note: one line on stderr about something the user should know (a hook
//! failed, a field was dropped, a config key is unknown), kept as data from
//! where it is made to where it is printed.
//!
//! Who said it ([`Source`]) and what kind of thing it is ([`Note::kind`], a
//! stable kebab-case name) travel with the text, so `fire --json`, the
//! library and tests tell a timeout from running out of fuel without reading
//! words, and the `agenthooks: ` prefix is added in one place,
//! [`Note::line`].

use std::fmt;

use serde::Serialize;

use super::{one_line, Failure, Skip};

/// What every note printed on stderr starts with (added by [`Note::line`] only).
pub const NOTE_PREFIX: &str = "agenthooks: ";

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

/// One note: who, what kind, and the text (without the `agenthooks: ` prefix).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Note {
    /// Who the note is about.
    pub source: Source,
    /// A stable kebab-case name for what happened: a [`Failure::kind`] or
    /// [`Skip::kind`] for a hook that failed or was skipped, else one of
    /// `config-error`, `config-warning`, `wiring` (hooks.json uses an event
    /// the agent's entries do not call), `trust`, `conflict`,
    /// `ignored-block`, `output`, `verbose`, `audit`, `input`, `internal`,
    /// or, from an agent, the field it dropped (`ask`, `updated-input`, ...).
    pub kind: &'static str,
    /// The sentence, one line once printed.
    pub text: String,
}

impl Note {
    /// A note of `kind` from `source`.
    pub fn new(source: Source, kind: &'static str, text: impl Into<String>) -> Note {
        Note {
            source,
            kind,
            text: text.into(),
        }
    }

    /// A note about the hook labelled `label`.
    pub fn hook(label: &str, kind: &'static str, text: impl Into<String>) -> Note {
        let source = Source::Hook {
            label: label.to_string(),
        };
        Note::new(source, kind, text)
    }

    /// ``hook <label>: <failure>``, of the failure's kind.
    pub fn failed(label: &str, failure: &Failure) -> Note {
        Note::hook(label, failure.kind(), format!("hook {label}: {failure}"))
    }

    /// ``hook <label>: <skip>``, of the skip's kind.
    pub fn skipped(label: &str, skip: &Skip) -> Note {
        Note::hook(label, skip.kind(), format!("hook {label}: {skip}"))
    }

    /// A note from agenthooks itself.
    pub fn runtime(kind: &'static str, text: impl Into<String>) -> Note {
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
        let line = Note::runtime("input", huge).line();
        assert!(!line.contains('\n'));
        assert!(line.len() < 1000, "{}", line.len());
        assert!(line.starts_with("agenthooks: unknown event `XXX"));
        assert!(line.ends_with('…'));
        assert_eq!(Note::runtime("input", "x").line(), "agenthooks: x");
    }

    #[test]
    fn a_failure_note_keeps_its_kind_as_data() {
        let note = Note::failed(
            "command `x`",
            &Failure::Timeout {
                after: Duration::from_secs(1),
            },
        );
        assert_eq!(note.kind, "timeout");
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
        assert_eq!(Note::skipped("h", &Skip::Async).kind, "async");
    }
}
