//! The contract: the canonical [`Event`] a hook reads, the [`Answer`] it gives,
//! the one parser of a command's output, and the [`Outcome`] of a handler.
//!
//! Nothing here does I/O.

mod answer;
mod answer_kind;
mod event;
mod note;
mod outcome;
mod parse;

pub use answer::{
    Answer, Behavior, Decision, HookSpecificOutput, PermissionDecision, PermissionRequestDecision,
};
pub use answer_kind::AnswerKind;
pub use event::{Event, EventError, EventName, ToolKind, UnknownEvent};
pub(crate) use note::note_prefix;
pub(crate) use note::prefixed;
pub use note::{Note, NoteKind, Source, NOTE_PREFIX};
pub use outcome::{one_line, Failure, Outcome, Skip, NOTE_MAX_CHARS};
pub use parse::{parse_output, parse_stdout, Exit};
