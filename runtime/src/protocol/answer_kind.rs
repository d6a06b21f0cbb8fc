//! The kinds of answer a hook can give, named once: agents' tables say which
//! they act on, and a note says which one was dropped.

use serde::Serialize;

/// One kind of answer a hook can give, as the canonical protocol spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum AnswerKind {
    /// Before a tool: do not run it (`permissionDecision: deny`, or PermissionRequest `behavior: deny`).
    Deny,
    /// Before a tool: ask the user (`permissionDecision: ask`).
    Ask,
    /// Before a tool: run it without asking (`permissionDecision: allow`, or PermissionRequest `behavior: allow`).
    Allow,
    /// Before a tool: run it with this input instead (`updatedInput`).
    UpdatedInput,
    /// Add context for the model (`hookSpecificOutput.additionalContext`).
    Context,
    /// `decision: block` outside PreToolUse: block the prompt, keep going at stop, reason after a tool.
    Block,
    /// `continue: false` (+ `stopReason`): stop the agent.
    Stop,
    /// `systemMessage`: a warning shown to the user.
    SystemMessage,
}

impl AnswerKind {
    /// Every kind, in the order `agenthooks agents` prints them.
    pub const ALL: &'static [AnswerKind] = &[
        AnswerKind::Deny,
        AnswerKind::Ask,
        AnswerKind::Allow,
        AnswerKind::UpdatedInput,
        AnswerKind::Context,
        AnswerKind::Block,
        AnswerKind::Stop,
        AnswerKind::SystemMessage,
    ];

    /// The short name used in `agenthooks agents`.
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerKind::Deny => "deny",
            AnswerKind::Ask => "ask",
            AnswerKind::Allow => "allow",
            AnswerKind::UpdatedInput => "updatedInput",
            AnswerKind::Context => "context",
            AnswerKind::Block => "block",
            AnswerKind::Stop => "stop",
            AnswerKind::SystemMessage => "systemMessage",
        }
    }

    /// The kebab-case name of the note that says this part of an answer was
    /// dropped or read otherwise ([`NoteKind::Dropped`](super::NoteKind::Dropped)).
    pub fn note_kind(self) -> &'static str {
        match self {
            AnswerKind::Deny => "deny",
            AnswerKind::Ask => "ask",
            AnswerKind::Allow => "allow",
            AnswerKind::UpdatedInput => "updated-input",
            AnswerKind::Context => "context",
            AnswerKind::Block => "block",
            AnswerKind::Stop => "stop",
            AnswerKind::SystemMessage => "system-message",
        }
    }

    /// The canonical answer field this kind is written as (named in drop notes).
    pub fn field(self) -> &'static str {
        match self {
            AnswerKind::Deny => "permissionDecision: deny",
            AnswerKind::Ask => "permissionDecision: ask",
            AnswerKind::Allow => "permissionDecision: allow",
            AnswerKind::UpdatedInput => "updatedInput",
            AnswerKind::Context => "additionalContext",
            AnswerKind::Block => "decision: block",
            AnswerKind::Stop => "continue: false",
            AnswerKind::SystemMessage => "systemMessage",
        }
    }
}
