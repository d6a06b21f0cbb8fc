//! The shared half of encode: read the aggregated [`Answer`] as a list of
//! intents, keep those the agent acts on at this event (per its [`Table`]
//! row), and turn the rest into the safe reading plus one note each.
//!
//! Each agent then only writes its own spelling of an [`Intent`]. Because the
//! dropping happens here, from the same [`Caps`](super::Caps) that `agenthooks agents`
//! prints, the printed table and the encoder cannot disagree.

use serde_json::{Map, Value};

use super::table::{AnswerKind, EventRow, Rename, Table};
use crate::protocol::{Answer, Behavior, Event, Note, PermissionDecision, Source};

/// A permission verdict before a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Do not run the tool.
    Deny,
    /// Ask the user.
    Ask,
    /// Run it without asking.
    Allow,
}

/// What the answer asks of the agent at this event, limited to what it can do.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Intent {
    /// Before a tool: the verdict.
    pub verdict: Option<Verdict>,
    /// The reason given with the verdict (may be empty).
    pub reason: Option<String>,
    /// The tool input to use instead, in the agent's own parameter names.
    pub updated_input: Option<Map<String, Value>>,
    /// `decision: block` outside PreToolUse, with its reason (may be empty).
    pub block: Option<String>,
    /// Context for the model.
    pub context: Option<String>,
    /// Stop the agent, with this reason (may be empty).
    pub stop: Option<String>,
    /// A message for the user.
    pub system_message: Option<String>,
    /// One per part of the answer the agent cannot act on.
    pub notes: Vec<Note>,
}

impl Intent {
    /// Whether nothing is asked (the agent goes on as if no hook ran).
    pub fn is_empty(&self) -> bool {
        self.verdict.is_none()
            && self.updated_input.is_none()
            && self.block.is_none()
            && self.context.is_none()
            && self.stop.is_none()
            && self.system_message.is_none()
    }

    /// The reason, or `fallback` when none or empty was given (several agents
    /// need a non-empty reason to act).
    pub fn reason_or(&self, fallback: &str) -> String {
        non_empty(self.reason.as_deref())
            .unwrap_or(fallback)
            .to_string()
    }

    /// The block reason, or `fallback`.
    pub fn block_reason_or(&self, fallback: &str) -> String {
        non_empty(self.block.as_deref())
            .unwrap_or(fallback)
            .to_string()
    }

    /// The reason to write with the verdict: for a deny never empty
    /// ([`DEFAULT_DENY`] when the hook gave none, since several agents need a
    /// reason to act on a deny), otherwise the hook's reason when it gave one.
    pub fn verdict_reason(&self) -> Option<String> {
        match self.verdict? {
            Verdict::Deny => Some(self.reason_or(DEFAULT_DENY)),
            Verdict::Ask | Verdict::Allow => non_empty(self.reason.as_deref()).map(str::to_string),
        }
    }
}

/// `s` unless it is missing or blank.
pub(super) fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.trim().is_empty())
}

/// The reason used when a hook denied without saying why.
pub const DEFAULT_DENY: &str = "blocked by a hook";

/// A note saying the agent cannot act on `kind` at `native` and what happened instead.
pub fn note(agent: &str, native: &str, kind: AnswerKind, instead: &str) -> Note {
    let text = format!(
        "{agent} does not act on `{}` at `{native}`; {instead}",
        kind.field()
    );
    agent_note(agent, kind.note_kind(), text)
}

/// A note of `kind` from the adapter of `agent`.
pub fn agent_note(agent: &str, kind: &'static str, text: String) -> Note {
    let source = Source::Agent {
        id: agent.to_string(),
    };
    Note::new(source, kind, text)
}

/// Read `answer` for `event` and keep what `row` says the agent acts on.
pub fn plan(agent: &str, table: &Table, row: &EventRow, event: &Event, answer: &Answer) -> Intent {
    let caps = row.caps;
    let native = row.native;
    let mut out = Intent::default();
    let hso = answer.hook_specific_output.as_ref();
    let permission_event = event.name().takes_permission();

    // The verdict and its reason.
    let mut asked_stop = answer
        .stops()
        .then(|| answer.stop_reason.clone().unwrap_or_default());
    let mut verdict = None;
    if permission_event {
        let request = hso.and_then(|h| h.decision.as_ref());
        if let Some(d) = request.filter(|d| d.behavior.is_some()) {
            verdict = match d.behavior {
                Some(Behavior::Deny) => Some(PermissionDecision::Deny),
                Some(Behavior::Allow) => Some(PermissionDecision::Allow),
                None => None,
            };
            out.reason = d.message.clone();
            if d.interrupt == Some(true) && asked_stop.is_none() {
                asked_stop = Some(d.message.clone().unwrap_or_default());
            }
        } else {
            verdict = answer.permission();
            out.reason = answer.permission_reason().map(str::to_string);
        }
    }
    let updated = answer.updated_input();
    match verdict {
        Some(PermissionDecision::Deny) => {
            if caps.deny {
                out.verdict = Some(Verdict::Deny);
            } else {
                out.notes
                    .push(note(agent, native, AnswerKind::Deny, "dropped"));
            }
        }
        Some(PermissionDecision::Ask) => {
            if caps.ask {
                out.verdict = Some(Verdict::Ask);
            } else if caps.deny {
                out.verdict = Some(Verdict::Deny);
                let why =
                    non_empty(out.reason.as_deref()).map_or(String::new(), |r| format!(": {r}"));
                out.reason = Some(format!(
                    "a hook asked for confirmation, which {agent} cannot ask for{why}"
                ));
                out.notes.push(note(
                    agent,
                    native,
                    AnswerKind::Ask,
                    "denied instead (confirmation was needed)",
                ));
            } else {
                out.notes
                    .push(note(agent, native, AnswerKind::Ask, "dropped"));
            }
        }
        Some(PermissionDecision::Allow) => {
            if caps.allow {
                out.verdict = Some(Verdict::Allow);
            } else if !(updated.is_some() && caps.updated_input) {
                // An agent that takes a rewrite only as "allow with this input"
                // (Codex) says allow through the rewrite; no note then.
                out.notes.push(note(
                    agent,
                    native,
                    AnswerKind::Allow,
                    "dropped; the agent's own permission rules apply",
                ));
            }
        }
        Some(PermissionDecision::Defer) => {
            out.notes.push(agent_note(
                agent,
                "defer",
                format!(
                    "{agent} does not act on `permissionDecision: defer` at `{native}`; dropped"
                ),
            ));
        }
        None => {}
    }

    if let Some(input) = updated {
        if out.verdict != Some(Verdict::Deny) {
            if caps.updated_input {
                let tool = event.tool_name().unwrap_or_default();
                out.updated_input = Some(to_native_input(table, tool, input));
            } else if caps.deny {
                // The hook said "not as it is": running the original input
                // would do what it meant to prevent, so the safe reading is a
                // deny, as for an `ask` the agent cannot ask.
                out.verdict = Some(Verdict::Deny);
                out.reason = Some(format!(
                    "a hook rewrote the tool input, which {agent} cannot apply; \
                     denied rather than running the original input"
                ));
                out.notes.push(note(
                    agent,
                    native,
                    AnswerKind::UpdatedInput,
                    "denied instead (the original input would have run)",
                ));
            } else {
                out.notes.push(note(
                    agent,
                    native,
                    AnswerKind::UpdatedInput,
                    "dropped; the tool runs with its original input",
                ));
            }
        }
    }

    // After a tool, `block` means "give the reason to the agent" (DESIGN §3);
    // an agent that cannot block there but takes context gets the reason as
    // context (Copilot's postToolUse, Qwen's PostToolUse: both verified with
    // the real CLIs in tests/real-agents, `post` phase).
    let mut block_as_context = None;
    if !permission_event && answer.blocks() {
        let reason = answer.reason.clone().unwrap_or_default();
        let after_tool = event.name().is_after_tool();
        if caps.block {
            out.block = Some(reason);
        } else if after_tool && caps.context && non_empty(Some(&reason)).is_some() {
            block_as_context = Some(reason);
            out.notes.push(note(
                agent,
                native,
                AnswerKind::Block,
                "its reason is given to the model as context instead",
            ));
        } else {
            out.notes
                .push(note(agent, native, AnswerKind::Block, "dropped"));
        }
    }

    if let Some(context) = hso.and_then(|h| h.additional_context.clone()) {
        if caps.context {
            out.context = Some(context);
        } else {
            out.notes
                .push(note(agent, native, AnswerKind::Context, "dropped"));
        }
    }
    if let Some(reason) = block_as_context {
        out.context = Some(match out.context.take() {
            Some(context) => format!("{reason}\n{context}"),
            None => reason,
        });
    }

    if let Some(reason) = asked_stop {
        if caps.stop {
            out.stop = Some(reason);
        } else if permission_event && caps.deny {
            // Stopping is not possible here, but not running the tool is the
            // nearest safe reading of "stop".
            if out.verdict != Some(Verdict::Deny) {
                out.verdict = Some(Verdict::Deny);
                out.updated_input = None;
                out.reason = Some(if reason.trim().is_empty() {
                    "a hook asked to stop the agent".to_string()
                } else {
                    reason
                });
            }
            out.notes.push(note(
                agent,
                native,
                AnswerKind::Stop,
                "denied the tool instead",
            ));
        } else if caps.block && event.name().is_prompt() {
            // Not taking the prompt is the nearest safe reading there. (At
            // Stop, `block` means "keep going": the opposite of stop.)
            if out.block.is_none() {
                out.block = Some(reason);
            }
            out.notes
                .push(note(agent, native, AnswerKind::Stop, "blocked instead"));
        } else {
            out.notes
                .push(note(agent, native, AnswerKind::Stop, "dropped"));
        }
    }

    if let Some(message) = answer.system_message.clone() {
        if caps.system_message {
            out.system_message = Some(message);
        } else {
            out.notes
                .push(note(agent, native, AnswerKind::SystemMessage, "dropped"));
        }
    }

    // Fields outside the kinds above (`sessionTitle`, `updatedToolOutput`,
    // `terminalSequence`, ...): no other agent acts on them.
    let extra = answer
        .extra
        .keys()
        .chain(hso.into_iter().flat_map(|h| h.extra.keys()));
    for field in extra {
        out.notes.push(agent_note(
            agent,
            "other-field",
            format!("{agent} does not act on `{field}` at `{native}`; dropped"),
        ));
    }
    out
}

/// A canonical tool input → the agent's parameter names (the reverse of the
/// table's renames; the canonical value wins over a native copy).
pub fn to_native_input(
    table: &Table,
    tool: &str,
    input: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = input.clone();
    // A rename scoped to the tool is the more precise reading of which native
    // key the agent expects, so it goes first.
    let (scoped, global): (Vec<&Rename>, Vec<&Rename>) =
        table.renames_for(tool).partition(|r| r.tool.is_some());
    for r in scoped.into_iter().chain(global) {
        if let Some(v) = out.remove(r.canonical) {
            out.insert(r.native.to_string(), v);
        }
    }
    out
}

/// A native tool input → canonical parameter names (moves the keys).
pub fn to_canonical_input(table: &Table, tool: &str, input: &mut Map<String, Value>) {
    for r in table.renames_for(tool) {
        if let Some(v) = input.remove(r.native) {
            input.entry(r.canonical.to_string()).or_insert(v);
        }
    }
}
