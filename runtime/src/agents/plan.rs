//! The shared half of encode: read the aggregated [`Answer`] as a list of
//! intents, keep those the agent acts on at this event (per its [`Table`]
//! row), and turn the rest into the safe reading plus one note each.
//!
//! Each agent then only writes its own spelling of an [`Intent`]. Because the
//! dropping happens here, from the same [`Caps`](super::Caps) that `agenthooks agents`
//! prints, the printed table and the encoder cannot disagree.

use serde_json::{Map, Value};

use super::table::{AnswerKind, Caps, EventRow, Rename, Table};
use crate::protocol::{
    one_line, Answer, Behavior, Event, Note, NoteKind, PermissionDecision, Source,
};

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

    /// What an agent that can only add text for the model writes: a
    /// non-empty block reason, then the context, a blank line apart; `None`
    /// when there is neither.
    pub fn added_text(&self) -> Option<String> {
        let parts: Vec<&str> = [non_empty(self.block.as_deref()), self.context.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }

    /// The text for the user of an agent whose answer has a user's channel
    /// beside the reason (Cursor's `user_message`): the hook's
    /// `systemMessage`, else the reason.
    pub fn user_text(&self) -> Option<String> {
        non_empty(self.system_message.as_deref())
            .map(str::to_string)
            .or_else(|| self.verdict_reason())
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
    agent_note(agent, NoteKind::Dropped(kind), text)
}

/// A note of `kind` from the adapter of `agent`.
pub fn agent_note(agent: &str, kind: NoteKind, text: String) -> Note {
    let source = Source::Agent {
        id: agent.to_string(),
    };
    Note::new(source, kind, text)
}

/// Read `answer` for `event` and keep what `row` says the agent acts on.
///
/// Each part of the answer is one rule below (the methods of `Planner`), read
/// in this order because later parts look at what earlier ones decided: a
/// rewrite after a deny is moot, a stop before a tool becomes a deny unless
/// one was already given.
pub fn plan(agent: &str, table: &Table, row: &EventRow, event: &Event, answer: &Answer) -> Intent {
    let mut plan = Planner {
        agent,
        native: row.native,
        caps: row.caps,
        out: Intent::default(),
    };
    let hso = answer.hook_specific_output.as_ref();
    let permission_event = event.name().takes_permission();
    let mut asked_stop = answer
        .stops()
        .then(|| answer.stop_reason.clone().unwrap_or_default());
    let updated = answer.updated_input();
    if permission_event {
        let (verdict, reason, interrupt) = requested_verdict(answer);
        plan.out.reason = reason;
        asked_stop = asked_stop.or(interrupt);
        plan.verdict(verdict, updated.is_some());
    }
    if let Some(input) = updated {
        let tool = event.tool_name().unwrap_or_default();
        plan.rewrite(|| to_native_input(table, tool, input));
    }
    let block_as_context = if !permission_event && answer.blocks() {
        let reason = answer.reason.clone().unwrap_or_default();
        plan.block(reason, event.name().is_after_tool())
    } else {
        None
    };
    plan.context(
        hso.and_then(|h| h.additional_context.clone()),
        block_as_context,
    );
    if let Some(reason) = asked_stop {
        plan.stop(reason, permission_event, event.name().is_prompt());
    }
    if let Some(message) = answer.system_message.clone() {
        plan.system_message(message);
    }
    plan.other_fields(answer);
    plan.cap_texts(table.text_max);
    plan.out
}

/// The verdict a permission event's answer asks for and its reason, and the
/// stop a PermissionRequest deny with `interrupt` asks for: Claude's
/// PermissionRequest answers through `decision.behavior` (read first), every
/// other tool event through `permissionDecision`.
fn requested_verdict(
    answer: &Answer,
) -> (Option<PermissionDecision>, Option<String>, Option<String>) {
    let request = answer
        .hook_specific_output
        .as_ref()
        .and_then(|h| h.decision.as_ref())
        .filter(|d| d.behavior.is_some());
    let Some(d) = request else {
        let reason = answer.permission_reason().map(str::to_string);
        return (answer.permission(), reason, None);
    };
    let verdict = match d.behavior {
        Some(Behavior::Deny) => Some(PermissionDecision::Deny),
        Some(Behavior::Allow) => Some(PermissionDecision::Allow),
        None => None,
    };
    // Claude Code reads `interrupt` with a deny only, as the aggregator does.
    let interrupts = d.interrupt == Some(true) && d.behavior == Some(Behavior::Deny);
    let stop = interrupts.then(|| d.message.clone().unwrap_or_default());
    (verdict, d.message.clone(), stop)
}

/// The intent being planned for one native event: what the agent acts on
/// there (`caps`) and, for each part of the answer, what it does instead
/// where it cannot, with the note that says so.
struct Planner<'a> {
    agent: &'a str,
    native: &'a str,
    caps: Caps,
    out: Intent,
}

impl Planner<'_> {
    /// Notes that the agent does not act on `kind` here, and what happened `instead`.
    fn noted(&mut self, kind: AnswerKind, instead: &str) {
        let note = note(self.agent, self.native, kind, instead);
        self.out.notes.push(note);
    }

    /// A verdict before a tool. An `ask` the agent cannot ask is a deny
    /// where it can deny (confirmation was needed, so running the tool is
    /// not the safe reading); an `allow` it cannot give is dropped, silently
    /// when it says allow through a rewrite (`rewrites`: Codex takes a
    /// rewrite only as "allow with this input").
    fn verdict(&mut self, verdict: Option<PermissionDecision>, rewrites: bool) {
        let caps = self.caps;
        match verdict {
            Some(PermissionDecision::Deny) if caps.deny => self.out.verdict = Some(Verdict::Deny),
            Some(PermissionDecision::Deny) => self.noted(AnswerKind::Deny, "dropped"),
            Some(PermissionDecision::Ask) if caps.ask => self.out.verdict = Some(Verdict::Ask),
            Some(PermissionDecision::Ask) if caps.deny => {
                let agent = self.agent;
                let why = non_empty(self.out.reason.as_deref())
                    .map_or(String::new(), |r| format!(": {r}"));
                self.out.verdict = Some(Verdict::Deny);
                self.out.reason = Some(format!(
                    "a hook asked for confirmation, which {agent} cannot ask for{why}"
                ));
                self.noted(AnswerKind::Ask, "denied instead (confirmation was needed)");
            }
            Some(PermissionDecision::Ask) => self.noted(AnswerKind::Ask, "dropped"),
            Some(PermissionDecision::Allow) if caps.allow => {
                self.out.verdict = Some(Verdict::Allow);
            }
            Some(PermissionDecision::Allow) if rewrites && caps.updated_input => {}
            Some(PermissionDecision::Allow) => self.noted(
                AnswerKind::Allow,
                "dropped; the agent's own permission rules apply",
            ),
            Some(PermissionDecision::Defer) => {
                let (agent, native) = (self.agent, self.native);
                self.out.notes.push(agent_note(
                    agent,
                    NoteKind::Defer,
                    format!(
                        "{agent} does not act on `permissionDecision: defer` at `{native}`; dropped"
                    ),
                ));
            }
            None => {}
        }
    }

    /// `updatedInput` (`native_input`: in the agent's parameter names),
    /// moot after a deny. The hook said "not as it is": an agent that cannot
    /// apply it would do what the hook meant to prevent by running the
    /// original input, so the safe reading is a deny, as for an `ask` the
    /// agent cannot ask.
    fn rewrite(&mut self, native_input: impl FnOnce() -> Map<String, Value>) {
        if self.out.verdict == Some(Verdict::Deny) {
            return;
        }
        if self.caps.updated_input {
            self.out.updated_input = Some(native_input());
        } else if self.caps.deny {
            let agent = self.agent;
            self.out.verdict = Some(Verdict::Deny);
            self.out.reason = Some(format!(
                "a hook rewrote the tool input, which {agent} cannot apply; \
                 denied rather than running the original input"
            ));
            self.noted(
                AnswerKind::UpdatedInput,
                "denied instead (the original input would have run)",
            );
        } else {
            self.noted(
                AnswerKind::UpdatedInput,
                "dropped; the tool runs with its original input",
            );
        }
    }

    /// `decision: block` outside a permission event. After a tool it means
    /// "give the reason to the agent" (DESIGN §3): an agent that cannot block
    /// there but takes context gets the reason as context, returned here
    /// (Copilot's postToolUse, Qwen's PostToolUse: both verified with the
    /// real CLIs in tests/real-agents, `post` phase).
    fn block(&mut self, reason: String, after_tool: bool) -> Option<String> {
        if self.caps.block {
            self.out.block = Some(reason);
        } else if after_tool && self.caps.context && non_empty(Some(&reason)).is_some() {
            self.noted(
                AnswerKind::Block,
                "its reason is given to the model as context instead",
            );
            return Some(reason);
        } else {
            self.noted(AnswerKind::Block, "dropped");
        }
        None
    }

    /// `additionalContext`, after a block reason read as context.
    fn context(&mut self, context: Option<String>, block_reason: Option<String>) {
        if let Some(context) = context {
            if self.caps.context {
                self.out.context = Some(context);
            } else {
                self.noted(AnswerKind::Context, "dropped");
            }
        }
        if let Some(reason) = block_reason {
            self.out.context = Some(match self.out.context.take() {
                Some(context) => format!("{reason}\n{context}"),
                None => reason,
            });
        }
    }

    /// `continue: false` (or an interrupting deny). Where the agent cannot
    /// stop, the nearest safe reading: not running the tool before one, not
    /// taking the prompt at a prompt (at Stop, `block` means "keep going":
    /// the opposite of stop).
    fn stop(&mut self, reason: String, permission_event: bool, prompt: bool) {
        if self.caps.stop {
            self.out.stop = Some(reason);
        } else if permission_event && self.caps.deny {
            if self.out.verdict != Some(Verdict::Deny) {
                self.out.verdict = Some(Verdict::Deny);
                self.out.updated_input = None;
                self.out.reason = Some(if reason.trim().is_empty() {
                    "a hook asked to stop the agent".to_string()
                } else {
                    reason
                });
            }
            self.noted(AnswerKind::Stop, "denied the tool instead");
        } else if self.caps.block && prompt {
            if self.out.block.is_none() {
                self.out.block = Some(reason);
            }
            self.noted(AnswerKind::Stop, "blocked instead");
        } else {
            self.noted(AnswerKind::Stop, "dropped");
        }
    }

    /// `systemMessage`. An agent that cannot show it has one channel for
    /// the hook's text: a deny, block or stop the hook gave no reason for
    /// takes the message as its reason (hookify denies that way), rather
    /// than the agent saying only [`DEFAULT_DENY`].
    fn system_message(&mut self, message: String) {
        if self.caps.system_message {
            self.out.system_message = Some(message);
            return;
        }
        let out = &mut self.out;
        let mut used = false;
        if out.verdict == Some(Verdict::Deny) && non_empty(out.reason.as_deref()).is_none() {
            out.reason = Some(message.clone());
            used = true;
        }
        for slot in [&mut out.block, &mut out.stop] {
            if slot.as_deref().is_some_and(|r| r.trim().is_empty()) {
                *slot = Some(message.clone());
                used = true;
            }
        }
        if used {
            self.noted(AnswerKind::SystemMessage, "given as the reason instead");
        } else {
            self.noted(AnswerKind::SystemMessage, "dropped");
        }
    }

    /// Cuts each text the agent is given to `max` bytes as the agent receives
    /// them (at a character boundary, saying so at the end), with one note per
    /// text cut: a 10 MB exit-2 stderr must not reach the agent whole, nor
    /// 10 KiB of control characters as 60 KiB of `\u0000` ([`sent_len`]).
    fn cap_texts(&mut self, max: usize) {
        let agent = self.agent;
        let out = &mut self.out;
        let mut cut = Vec::new();
        for (field, text) in [
            ("reason", &mut out.reason),
            ("block reason", &mut out.block),
            ("additionalContext", &mut out.context),
            ("stopReason", &mut out.stop),
            ("systemMessage", &mut out.system_message),
        ] {
            if let Some(t) = text.as_mut() {
                if let Some(len) = cap(t, max) {
                    cut.push(format!(
                        "{agent} is given at most {max} bytes of the hook's {field} as sent; cut from {len}"
                    ));
                }
            }
        }
        for text in cut {
            self.out.notes.push(agent_note(agent, NoteKind::Cut, text));
        }
    }

    /// Fields outside the kinds above (`sessionTitle`, `updatedToolOutput`,
    /// `terminalSequence`, ...): no other agent acts on them. A hook names
    /// these keys: each is cut to one bounded line, and past `EXTRA_NOTES`
    /// of them one note counts the rest, so an answer with a 10 MB key or
    /// 10,000 keys still gives a few short lines.
    fn other_fields(&mut self, answer: &Answer) {
        let (agent, native) = (self.agent, self.native);
        let hso = answer.hook_specific_output.as_ref();
        let mut extra = answer
            .extra
            .keys()
            .chain(hso.into_iter().flat_map(|h| h.extra.keys()));
        for field in extra.by_ref().take(EXTRA_NOTES) {
            self.out.notes.push(agent_note(
                agent,
                NoteKind::OtherField,
                format!(
                    "{agent} does not act on `{}` at `{native}`; dropped",
                    one_line(field)
                ),
            ));
        }
        let more = extra.count();
        if more > 0 {
            self.out.notes.push(agent_note(
                agent,
                NoteKind::OtherField,
                format!("{agent} does not act on {more} more answer fields at `{native}`; dropped"),
            ));
        }
    }
}

/// Cuts `text` to at most `max` bytes as sent ([`sent_len`]), ending with a
/// marker that says so; its length as sent before, when it was cut.
fn cap(text: &mut String, max: usize) -> Option<usize> {
    const MARK: &str = " [cut by agenthooks]";
    let len: usize = text.chars().map(sent_len).sum();
    if len <= max {
        return None;
    }
    let room = max.saturating_sub(MARK.len());
    let mut used = 0;
    let end = text
        .char_indices()
        .find_map(|(at, c)| {
            used += sent_len(c);
            (used > room).then_some(at)
        })
        .unwrap_or(text.len());
    text.truncate(end);
    text.push_str(MARK);
    Some(len)
}

/// The bytes `c` takes in what the agent receives: inside a JSON string as
/// serde_json writes it (`"`, `\` and the control characters escaped, six
/// bytes for `\u0000`), the most any agent's answer spends on it (plain
/// text and exit-2 stderr spend its UTF-8 length or less). So a text of at
/// most `max` of these bytes reaches every agent in at most `max` bytes.
fn sent_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        '\0'..='\u{1f}' => 6,
        c => c.len_utf8(),
    }
}

/// The most answer fields named one note each; the rest share one note.
const EXTRA_NOTES: usize = 8;

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
        table.renames_for(tool).partition(|r| !r.tools.is_empty());
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

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use crate::agents::{Agent, EventRow, AGENTS};
    use crate::protocol::{Answer, Event, NOTE_MAX_CHARS};

    /// Every row of every agent but Claude, with a Bash event decoded there.
    fn every_row() -> impl Iterator<Item = (&'static dyn Agent, &'static EventRow, Event)> {
        AGENTS
            .iter()
            .copied()
            .filter(|a| a.id() != "claude")
            .flat_map(|agent| agent.table().events.iter().map(move |row| (agent, row)))
            .map(|(agent, row)| {
                let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
                let event = Event::new(input, Some(row.canonical), agent.id())
                    .expect("event")
                    .with_native(row.native);
                (agent, row, event)
            })
    }

    /// Found by the `encode` fuzz target: `interrupt: true` beside
    /// `behavior: allow` stopped the agent (Gemini wrote `continue: false`).
    #[test]
    fn interrupt_stops_only_with_a_deny() {
        let answer: Answer = serde_json::from_value(json!({"hookSpecificOutput": {
            "decision": {"behavior": "allow", "interrupt": true}
        }}))
        .expect("answer");
        for (agent, row, event) in every_row().filter(|(_, r, _)| r.canonical.is_tool_event()) {
            let intent = super::plan(agent.id(), agent.table(), row, &event, &answer);
            assert_eq!(intent.stop, None, "{} at {}", agent.id(), row.native);
        }
    }

    /// A 10 MB reason reaches no agent whole: each gets at most its
    /// table's `text_max` bytes, with a note.
    #[test]
    fn reasons_and_context_are_cut_to_what_the_agent_takes() {
        let huge = "é".repeat(5 << 20);
        let answer: Answer = serde_json::from_value(json!({
            "decision": "block", "reason": huge, "systemMessage": huge,
            "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": huge, "additionalContext": huge}
        }))
        .expect("answer");
        let mut cut = 0;
        for (agent, row, event) in every_row() {
            let intent = super::plan(agent.id(), agent.table(), row, &event, &answer);
            let max = agent.table().text_max;
            let texts = [
                &intent.reason,
                &intent.block,
                &intent.context,
                &intent.stop,
                &intent.system_message,
            ];
            for text in texts.into_iter().flatten() {
                assert!(
                    text.len() <= max,
                    "{} at {}: {}",
                    agent.id(),
                    row.native,
                    text.len()
                );
                assert!(text.ends_with("[cut by agenthooks]"));
                cut += 1;
            }
            let notes = intent
                .notes
                .iter()
                .filter(|n| n.kind == crate::protocol::NoteKind::Cut)
                .count();
            assert_eq!(notes, texts.iter().filter(|t| t.is_some()).count());
        }
        assert!(cut > 50, "{cut}");
        let mut short = "ok".to_string();
        assert_eq!(super::cap(&mut short, 10), None);
        assert_eq!(short, "ok");
    }

    /// The length a text is capped by is the length serde_json writes, for
    /// every character: escapes included.
    #[test]
    fn sent_len_is_what_serde_json_writes() {
        for c in (0..=0x10_FFFF)
            .step_by(7)
            .chain(0..0x800)
            .filter_map(char::from_u32)
        {
            let written = serde_json::to_string(&c.to_string()).expect("a string serializes");
            assert_eq!(super::sent_len(c), written.len() - 2, "{c:?}");
        }
    }

    /// Issue 39: 10 KiB of NUL bytes reached Gemini as 61 KiB of `\u0000`.
    /// Control characters, quotes and backslashes are counted as sent, so
    /// every agent's whole answer stays within a few of its `text_max`.
    #[test]
    fn escaped_texts_are_capped_as_sent() {
        let mut huge = "\0\"\\\u{1b}é".repeat(1 << 16);
        let answer: Answer = serde_json::from_value(json!({
            "hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": huge}
        }))
        .expect("answer");
        for (agent, row, event) in every_row().filter(|(_, r, _)| r.canonical.is_tool_event()) {
            let intent = super::plan(agent.id(), agent.table(), row, &event, &answer);
            let max = agent.table().text_max;
            if let Some(reason) = &intent.reason {
                let sent = serde_json::to_string(reason).expect("a string serializes");
                assert!(
                    sent.len() - 2 <= max,
                    "{} at {}: {}",
                    agent.id(),
                    row.native,
                    sent.len()
                );
            }
            let native = agent.encode(&event, &answer);
            let bytes = native.stdout.len() + native.stderr.iter().map(String::len).sum::<usize>();
            assert!(
                bytes <= 2 * max + 1024,
                "{} at {}: {bytes}",
                agent.id(),
                row.native
            );
        }
        let len = huge.len();
        assert_eq!(
            super::cap(&mut huge, 100),
            Some(3 * len),
            "6 bytes sent as 18"
        );
        assert_eq!(
            serde_json::to_string(&huge).expect("serializes").len() - 2,
            100
        );
    }

    /// Found by the `encode` fuzz target: a hook's answer field names were
    /// echoed whole into notes, one note each.
    #[test]
    fn notes_about_unknown_answer_fields_stay_few_and_one_bounded_line() {
        let huge = format!("a\n{}\u{1b}[2J", "k".repeat(1 << 20));
        let mut extra: Map<String, Value> =
            (0..10_000).map(|i| (format!("f{i}"), json!(i))).collect();
        extra.insert(huge, json!(1));
        let answer = Answer {
            extra,
            ..Answer::none()
        };
        for (agent, _row, event) in every_row() {
            let native = agent.encode(&event, &answer);
            let lines = native.stderr.len() + native.notes.len();
            assert!(lines <= 16, "{}: {lines} lines", agent.id());
            // The text as kept (fire --json and the audit log show it), not
            // only as `Note::line` prints it.
            for note in &native.notes {
                let text = &note.text;
                assert!(!text.contains(['\n', '\r', '\u{1b}']), "{text:?}");
                assert!(
                    text.chars().count() < 2 * NOTE_MAX_CHARS,
                    "{} chars",
                    text.len()
                );
            }
        }
    }
}
