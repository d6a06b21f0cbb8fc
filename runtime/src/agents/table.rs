//! The one table per agent: its events, tool names and input-field renames
//! against the canonical (Claude Code) ones, and what it acts on per event.
//!
//! Decode, encode, install and `agenthooks agents` all read this table, so an
//! agent's native names appear in its module's table and nowhere else.

use serde::Serialize;

use crate::protocol::EventName;

pub use crate::protocol::AnswerKind;

/// Which answer kinds an agent acts on for one of its events.
///
/// Built in `const` context: `Caps { deny: true, ..Caps::NONE }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Caps {
    /// See [`AnswerKind::Deny`].
    pub deny: bool,
    /// See [`AnswerKind::Ask`].
    pub ask: bool,
    /// See [`AnswerKind::Allow`].
    pub allow: bool,
    /// See [`AnswerKind::UpdatedInput`].
    pub updated_input: bool,
    /// See [`AnswerKind::Context`].
    pub context: bool,
    /// See [`AnswerKind::Block`].
    pub block: bool,
    /// See [`AnswerKind::Stop`].
    pub stop: bool,
    /// See [`AnswerKind::SystemMessage`].
    pub system_message: bool,
}

impl Caps {
    /// Acts on nothing (the event is observed only).
    pub const NONE: Caps = Caps {
        deny: false,
        ask: false,
        allow: false,
        updated_input: false,
        context: false,
        block: false,
        stop: false,
        system_message: false,
    };

    /// Acts on exactly `kinds`: `Caps::of(&[AnswerKind::Deny, AnswerKind::Allow])`.
    pub const fn of(kinds: &[AnswerKind]) -> Caps {
        Caps::NONE.with(kinds)
    }

    /// These caps, acting on `kinds` too.
    pub const fn with(self, kinds: &[AnswerKind]) -> Caps {
        self.set(kinds, true)
    }

    /// These caps, not acting on `kinds`.
    pub const fn without(self, kinds: &[AnswerKind]) -> Caps {
        self.set(kinds, false)
    }

    const fn set(mut self, kinds: &[AnswerKind], on: bool) -> Caps {
        let mut i = 0;
        while i < kinds.len() {
            match kinds[i] {
                AnswerKind::Deny => self.deny = on,
                AnswerKind::Ask => self.ask = on,
                AnswerKind::Allow => self.allow = on,
                AnswerKind::UpdatedInput => self.updated_input = on,
                AnswerKind::Context => self.context = on,
                AnswerKind::Block => self.block = on,
                AnswerKind::Stop => self.stop = on,
                AnswerKind::SystemMessage => self.system_message = on,
            }
            i += 1;
        }
        self
    }

    /// Whether the agent acts on `kind` here.
    pub fn supports(self, kind: AnswerKind) -> bool {
        match kind {
            AnswerKind::Deny => self.deny,
            AnswerKind::Ask => self.ask,
            AnswerKind::Allow => self.allow,
            AnswerKind::UpdatedInput => self.updated_input,
            AnswerKind::Context => self.context,
            AnswerKind::Block => self.block,
            AnswerKind::Stop => self.stop,
            AnswerKind::SystemMessage => self.system_message,
        }
    }

    /// The kinds supported, in [`AnswerKind::ALL`] order.
    pub fn kinds(self) -> Vec<AnswerKind> {
        AnswerKind::ALL
            .iter()
            .copied()
            .filter(|k| self.supports(*k))
            .collect()
    }
}

/// One native event of an agent and the canonical event it is served as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRow {
    /// The canonical event a hook sees.
    pub canonical: EventName,
    /// The agent's own name for the event (the key in its config, the `--event` value).
    pub native: &'static str,
    /// For events about one kind of tool (Cursor `beforeShellExecution`, Windsurf
    /// `pre_run_command`): the canonical tool name the decoder synthesizes.
    pub tool: Option<&'static str>,
    /// Whether `install` may register this native event (it registers those
    /// the hooks use: `install::rows`). Several natives may decode
    /// to one canonical event; only one of them is registered so that a hook runs
    /// once per action (e.g. Cursor's generic `preToolUse`, not also
    /// `beforeShellExecution`).
    pub install: bool,
    /// A registered hook changes what the agent does here even when it has
    /// no opinion: Claude Code runs a WorktreeCreate hook *instead of* `git
    /// worktree add` (and fails without a path from it). `install` registers
    /// such an event only when a hook in `hooks.json` handles it.
    pub changes_agent: bool,
    /// What the agent acts on in the answer to this event.
    pub caps: Caps,
}

impl EventRow {
    /// A row that is installed and decodes to `canonical` with no synthesized tool.
    pub const fn new(canonical: EventName, native: &'static str, caps: Caps) -> EventRow {
        EventRow {
            canonical,
            native,
            tool: None,
            install: true,
            changes_agent: false,
            caps,
        }
    }

    /// The same row, where a hook's mere presence changes the agent
    /// ([`EventRow::changes_agent`]).
    pub const fn changes_agent(self) -> EventRow {
        EventRow {
            changes_agent: true,
            ..self
        }
    }

    /// The same row, not registered by `install` (decoded when it arrives anyway).
    pub const fn decode_only(self) -> EventRow {
        EventRow {
            install: false,
            ..self
        }
    }

    /// The same row under the agent's own name `native`.
    pub const fn named(self, native: &'static str) -> EventRow {
        EventRow { native, ..self }
    }

    /// The same row, acting on `caps`.
    pub const fn with_caps(self, caps: Caps) -> EventRow {
        EventRow { caps, ..self }
    }

    /// The same row, with the canonical tool name this event is about.
    pub const fn for_tool(self, tool: &'static str) -> EventRow {
        EventRow {
            tool: Some(tool),
            ..self
        }
    }
}

/// A native tool name and the canonical (Claude Code) one it maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolRow {
    /// Claude Code's name (`Bash`, `Write`, ...).
    pub canonical: &'static str,
    /// The agent's name (`run_shell_command`, `write_file`, ...).
    pub native: &'static str,
}

/// A `tool_input` key the agent spells differently from Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rename {
    /// Only for these canonical tools (empty: every tool).
    pub tools: &'static [&'static str],
    /// The agent's key (`dir_path`).
    pub native: &'static str,
    /// Claude Code's key (`path`).
    pub canonical: &'static str,
}

/// Shorthand for a [`ToolRow`] in a table literal.
pub const fn tool(canonical: &'static str, native: &'static str) -> ToolRow {
    ToolRow { canonical, native }
}

/// Shorthand for a [`Rename`] in a table literal: `native` is `canonical`
/// for each of `tools` (`&[]`: for every tool).
pub const fn rename(
    tools: &'static [&'static str],
    native: &'static str,
    canonical: &'static str,
) -> Rename {
    Rename {
        tools,
        native,
        canonical,
    }
}

/// Everything that is specific to one agent's names.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// Native events against canonical ones, with their capabilities.
    pub events: &'static [EventRow],
    /// Tool names; several natives may map to one canonical name, and the first
    /// row of a canonical name is the native name it encodes back to.
    pub tools: &'static [ToolRow],
    /// `tool_input` keys renamed on decode (and back on encode of `updatedInput`).
    pub renames: &'static [Rename],
    /// Top-level input keys renamed on decode, `(native, canonical)`; the native
    /// copy is kept too.
    pub fields: &'static [(&'static str, &'static str)],
    /// What the capability flags cannot say (printed by `agenthooks agents`).
    pub notes: &'static [&'static str],
    /// Whether the agent reads stdout as plain text (context), not as JSON.
    pub plain_stdout: bool,
    /// The most bytes of one text (a reason, context, a message) the agent
    /// takes; longer ones are cut there, with a note ([`TEXT_MAX`] unless
    /// the agent documents its own).
    pub text_max: usize,
}

/// The most bytes of one reason, context or message given to an agent that
/// documents no limit of its own: 10 KiB (Claude Code keeps 10,000
/// characters of a hook's text and spills the rest to a file).
pub const TEXT_MAX: usize = 10 << 10;

impl Table {
    /// `events`, with no tool names, renames or notes, answered in JSON; the
    /// `with_*` methods add what an agent has.
    pub const fn new(events: &'static [EventRow]) -> Table {
        Table {
            events,
            tools: &[],
            renames: &[],
            fields: &[],
            notes: &[],
            plain_stdout: false,
            text_max: TEXT_MAX,
        }
    }

    /// The same table, for an agent that takes at most `bytes` of one text.
    pub const fn with_text_max(self, bytes: usize) -> Table {
        Table {
            text_max: bytes,
            ..self
        }
    }

    /// The same table, with these tool names.
    pub const fn with_tools(self, tools: &'static [ToolRow]) -> Table {
        Table { tools, ..self }
    }

    /// The same table, with these `tool_input` renames.
    pub const fn with_renames(self, renames: &'static [Rename]) -> Table {
        Table { renames, ..self }
    }

    /// The same table, with these top-level field renames.
    pub const fn with_fields(self, fields: &'static [(&'static str, &'static str)]) -> Table {
        Table { fields, ..self }
    }

    /// The same table, with these notes.
    pub const fn with_notes(self, notes: &'static [&'static str]) -> Table {
        Table { notes, ..self }
    }

    /// The same table, for an agent that reads stdout as plain text.
    pub const fn with_plain_stdout(self) -> Table {
        Table {
            plain_stdout: true,
            ..self
        }
    }

    /// The row of a native event name.
    pub fn by_native(&self, native: &str) -> Option<&'static EventRow> {
        self.events.iter().find(|r| r.native == native)
    }

    /// The row an event name given on the command line refers to: the native
    /// spelling first, then the canonical one (the first row serving it).
    pub fn resolve(&self, name: &str) -> Option<&'static EventRow> {
        self.by_native(name).or_else(|| {
            let canonical = name.parse::<EventName>().ok()?;
            self.by_canonical(canonical)
        })
    }

    /// The first row serving a canonical event (the installed one, if any).
    pub fn by_canonical(&self, canonical: EventName) -> Option<&'static EventRow> {
        let mut rows = self.events.iter().filter(|r| r.canonical == canonical);
        let first = rows.clone().next()?;
        Some(rows.find(|r| r.install).unwrap_or(first))
    }

    /// The canonical events served, each once, in [`EventName::ALL`] order.
    pub fn canonical_events(&self) -> Vec<EventName> {
        EventName::ALL
            .iter()
            .copied()
            .filter(|e| self.events.iter().any(|r| r.canonical == *e))
            .collect()
    }

    /// The rows `install` may register (those the hooks use, and the
    /// [session start](Table::session_start): `install::rows`).
    pub fn installed(&self) -> impl Iterator<Item = &'static EventRow> {
        self.events.iter().filter(|r| r.install)
    }

    /// The installed row agenthooks keeps registered for its own work at the
    /// start of a session (warming the compile cache, saying what is held
    /// back, noticing wiring that fell behind `hooks.json`): SessionStart,
    /// else the agent's first installed event; never one that
    /// [changes the agent](EventRow::changes_agent).
    pub fn session_start(&self) -> Option<&'static EventRow> {
        let safe = || self.installed().filter(|r| !r.changes_agent);
        safe()
            .find(|r| r.canonical == EventName::SessionStart)
            .or_else(|| safe().next())
    }

    /// The canonical name of a native tool, or the native name kept when Claude
    /// Code has no such tool.
    pub fn canonical_tool<'a>(&self, native: &'a str) -> &'a str {
        self.tools
            .iter()
            .find(|t| t.native == native)
            .map_or(native, |t| t.canonical)
    }

    /// The native name of a canonical tool, or the name itself when the agent
    /// has no other spelling.
    pub fn native_tool<'a>(&self, canonical: &'a str) -> &'a str {
        self.tools
            .iter()
            .find(|t| t.canonical == canonical)
            .map_or(canonical, |t| t.native)
    }

    /// The renames that apply to a canonical tool.
    pub fn renames_for<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'static Rename> + 'a {
        self.renames
            .iter()
            .filter(move |r| r.tools.is_empty() || r.tools.contains(&tool))
    }
}

/// One line of the capability table: a canonical event and what works there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CapabilityRow {
    /// The canonical event.
    pub event: EventName,
    /// The native event names that serve it.
    pub native: Vec<&'static str>,
    /// The answer kinds that work (union over the native events).
    pub answers: Vec<AnswerKind>,
}

/// What one agent can do, derived from its [`Table`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// The agent id.
    pub agent: &'static str,
    /// The agent's display name.
    pub name: &'static str,
    /// One row per canonical event served.
    pub events: Vec<CapabilityRow>,
    /// What the flags cannot say.
    pub notes: Vec<&'static str>,
    /// Whether the agent shows a hook's `statusMessage` while it runs.
    pub status_message: bool,
    /// Which tool calls start agenthooks: the native matchers `install`
    /// writes (`install::coverage`), or a catch-all.
    pub tool_filter: &'static str,
}

impl Capabilities {
    /// Derive the capability rows from a table.
    pub fn from_table(agent: &'static str, name: &'static str, table: &Table) -> Capabilities {
        let events = table
            .canonical_events()
            .into_iter()
            .map(|event| {
                let rows: Vec<&EventRow> = table
                    .events
                    .iter()
                    .filter(|r| r.canonical == event)
                    .collect();
                let answers = AnswerKind::ALL
                    .iter()
                    .copied()
                    .filter(|k| rows.iter().any(|r| r.caps.supports(*k)))
                    .collect();
                CapabilityRow {
                    event,
                    native: rows.iter().map(|r| r.native).collect(),
                    answers,
                }
            })
            .collect();
        Capabilities {
            agent,
            name,
            events,
            notes: table.notes.to_vec(),
            status_message: false,
            tool_filter: "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerKind::{Ask, Deny};
    use super::*;

    static ROWS: &[EventRow] = &[
        EventRow::new(EventName::PreToolUse, "beforeShell", Caps::of(&[Deny]))
            .for_tool("Bash")
            .decode_only(),
        EventRow::new(EventName::PreToolUse, "preTool", Caps::of(&[Ask])),
    ];
    static T: Table = Table::new(ROWS)
        .with_tools(&[
            tool("Bash", "shell"),
            tool("Bash", "bash"),
            tool("Edit", "edit"),
        ])
        .with_renames(&[
            rename(&["Glob", "Grep"], "dir_path", "path"),
            rename(&[], "filePath", "file_path"),
        ])
        .with_notes(&["n"]);

    #[test]
    fn tools_map_both_ways_and_unknown_names_are_kept() {
        assert_eq!(T.canonical_tool("bash"), "Bash");
        assert_eq!(T.canonical_tool("shell"), "Bash");
        assert_eq!(T.canonical_tool("mystery"), "mystery");
        assert_eq!(T.native_tool("Bash"), "shell");
        assert_eq!(T.native_tool("WebFetch"), "WebFetch");
    }

    #[test]
    fn resolve_takes_native_then_canonical_and_prefers_installed_rows() {
        assert_eq!(T.resolve("beforeShell").unwrap().tool, Some("Bash"));
        assert_eq!(T.resolve("PreToolUse").unwrap().native, "preTool");
        assert!(T.resolve("Stop").is_none());
        assert!(T.resolve("nope").is_none());
        assert_eq!(T.installed().count(), 1);
    }

    #[test]
    fn renames_are_scoped_to_their_tool() {
        let glob: Vec<_> = T.renames_for("Glob").map(|r| r.native).collect();
        assert_eq!(glob, ["dir_path", "filePath"]);
        let grep: Vec<_> = T.renames_for("Grep").map(|r| r.native).collect();
        assert_eq!(
            grep,
            ["dir_path", "filePath"],
            "one rename serves each tool listed"
        );
        let bash: Vec<_> = T.renames_for("Bash").map(|r| r.native).collect();
        assert_eq!(bash, ["filePath"]);
    }

    #[test]
    fn capabilities_union_the_rows_of_one_event() {
        let caps = Capabilities::from_table("x", "X", &T);
        assert_eq!(caps.events.len(), 1);
        assert_eq!(caps.events[0].native, ["beforeShell", "preTool"]);
        assert_eq!(caps.events[0].answers, [AnswerKind::Deny, AnswerKind::Ask]);
        assert_eq!(caps.notes, ["n"]);
    }
}
