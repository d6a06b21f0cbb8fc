//! Claude Code: the canonical protocol, so decode and encode pass through.
//!
//! Docs: <https://code.claude.com/docs/en/hooks> (checked 2026-11 against the
//! recorded payloads of Claude Code 2.1.197 and 2.1.332 in `tests/fixtures/agents/`).

use std::time::Duration;

use serde_json::Value;

use super::deadline::{secs, Deadline};
use super::AnswerKind::{Allow, Ask, Block, Context, Deny, Stop, SystemMessage, UpdatedInput};
use super::{
    claude_handler_and, project_and_home, Field, InstallSpec, JsonSpec, Shape, TimeUnit, ToolNames,
};
use super::{Agent, Caps, DecodeError, EventRow, Info, Native, Table};
use super::{Off, OffSwitches, WindowsShell};
use crate::protocol::{Answer, Event, EventName};

/// The Claude Code adapter.
pub struct Claude;

// What Claude Code acts on, by kind of event. The agents that copy Claude's
// protocol start from its rows ([`row`]) and say where they differ.

/// Before a tool: every verdict, a rewrite, context, stop and a message.
pub const TOOL: Caps = Caps::of(&[Deny, Ask, Allow, UpdatedInput, Context, Stop, SystemMessage]);
/// PermissionRequest: allow or deny (with a rewrite), no ask, no context.
pub const PERMISSION: Caps = TOOL.without(&[Ask, Context]);
/// PreModelSwitch: allow, deny or ask about the switch (no input to rewrite, no context).
pub const MODEL_SWITCH: Caps = TOOL.without(&[UpdatedInput, Context]);
/// Events that take context and `decision: block` (prompt, after a tool, stop).
pub const CONTEXT_BLOCK: Caps = OTHER.with(&[Context, Block]);
/// Events that take context but cannot block.
pub const CONTEXT: Caps = OTHER.with(&[Context]);
/// Events that can block but take no context.
pub const BLOCK: Caps = OTHER.with(&[Block]);
/// Events observed only: stop and a message work everywhere.
pub const OTHER: Caps = Caps::of(&[Stop, SystemMessage]);

macro_rules! same_names {
    ($($name:ident => $caps:expr $(=> $modifier:ident)?),* $(,)?) => {
        &[$(EventRow::new(EventName::$name, stringify!($name), $caps)$(.$modifier())?),*]
    };
}

/// Claude Code's built-in tools, as hooks see them (`mcp__<server>__<tool>`
/// aside): what a plain-name matcher can match in Claude Code, and what
/// `fire --tool` checks a name against.
pub const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Edit",
    "EnterPlanMode",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "LSP",
    "ListMcpResourcesTool",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskOutput",
    "TaskStop",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// Claude Code's row for `event`: its own name and what it acts on there.
/// The agents that copy Claude's event names build their tables from these
/// (`claude_rows!`).
pub const fn row(event: EventName) -> EventRow {
    let mut i = 0;
    while i < ROWS.len() {
        if ROWS[i].canonical as usize == event as usize {
            return ROWS[i];
        }
        i += 1;
    }
    panic!("Claude Code's table has a row for every event")
}

/// Claude Code's table: every event under its own name, no renames.
pub static TABLE: Table = Table::new(ROWS)
    .with_notes(&["the canonical protocol: the aggregated answer passes through unchanged"]);

/// Every event under its own name, with what Claude Code acts on there.
const ROWS: &[EventRow] = same_names! {
        SessionStart => CONTEXT,
        Setup => CONTEXT,
        UserPromptSubmit => CONTEXT_BLOCK,
        UserPromptExpansion => CONTEXT_BLOCK,
        PreToolUse => TOOL,
        PermissionRequest => PERMISSION,
        PermissionDenied => OTHER,
        PostToolUse => CONTEXT_BLOCK,
        PostToolUseFailure => CONTEXT,
        PostToolBatch => BLOCK,
        Notification => OTHER,
        MessageDisplay => OTHER,
        SubagentStart => CONTEXT,
        SubagentStop => CONTEXT_BLOCK,
        TaskCreated => BLOCK,
        TaskCompleted => BLOCK,
        Stop => CONTEXT_BLOCK,
        StopFailure => OTHER,
        TeammateIdle => BLOCK,
        InstructionsLoaded => OTHER,
        ConfigChange => BLOCK,
        CwdChanged => OTHER,
        DirectoryAdded => OTHER,
        FileChanged => OTHER,
        // A WorktreeCreate hook replaces `git worktree add` (`claude
        // --worktree` fails unless it prints a path); a WorktreeRemove hook
        // replaces the removal.
        WorktreeCreate => BLOCK => changes_agent,
        WorktreeRemove => OTHER => changes_agent,
        PreCompact => BLOCK,
        PostCompact => OTHER,
        Elicitation => BLOCK,
        ElicitationResult => BLOCK,
        PreModelSwitch => MODEL_SWITCH,
        PostModelSwitch => CONTEXT,
        SessionEnd => OTHER,
};

/// `disableAllHooks` in any of Claude Code's settings files switches its
/// hooks off, but for the managed file's, which a managed
/// `disableAllHooks` alone switches off; a managed `allowManagedHooksOnly`
/// switches off all others (Claude Code 2.1.332's own strings: "Hooks
/// configured in managed settings (they run even under a non-managed
/// disableAllHooks)").
const OFF: OffSwitches = OffSwitches::new(&[
    ("/disableAllHooks", Off::Is(true)),
    ("/allowManagedHooksOnly", Off::Is(true)),
])
.also(&[".claude/settings.local.json"], &[])
.system_exempt()
.managed_only("/allowManagedHooksOnly");

/// Claude Code reads `hooks` in `settings.json` (strict JSON), timeout in
/// seconds; the settings in `OFF` switch them off.
pub static INSTALL: InstallSpec = project_and_home!(
    // Claude Code shows `statusMessage` while the entry runs: the messages
    // of the event's hooks go there (install reads hooks.json).
    JsonSpec::new(
        Shape::Nested,
        claude_handler_and!(TimeUnit::Seconds, ("statusMessage", Field::StatusMessage)),
    )
    .with_off(OFF)
    .on_windows(WindowsShell::Sh)
    .matching(ToolNames::Canonical),
    ".claude",
    "settings.json"
)
.with_system(super::SystemFile::new(
    "/etc/claude-code/managed-settings.json",
    "/Library/Application Support/ClaudeCode/managed-settings.json",
    r"ClaudeCode\managed-settings.json",
))
.with_plugin(CLAUDE_PLUGIN);

/// Claude Code's plugin layout, which Copilot CLI loads too: hooks in
/// Claude's settings format in `hooks/hooks.json`.
pub const CLAUDE_PLUGIN: super::PluginLayout = super::PluginLayout {
    manifest: ".claude-plugin/plugin.json",
    hooks: "hooks/hooks.json",
    load: "claude --plugin-dir {dir} (for one session), or add it to a marketplace and `/plugin install`",
    // `/plugin install` copies into cache/<marketplace>/<plugin>/<version>
    // (a `--plugin-dir` session leaves nothing to find).
    store: Some((super::UserPath::home(".claude/plugins/cache"), 3)),
    link: None,
};

/// Claude Code: 600 s; UserPromptSubmit, Pre/PostModelSwitch 30 s, MessageDisplay 10 s;
/// SessionEnd 1.5 s, which a hook's `timeout` may raise to at most 60 s
/// (`docs/agent-protocols.md` §1.1).
static INFO: Info = Info::new("claude", "Claude Code", &TABLE, &INSTALL)
    .with_transcript(super::transcript::TranscriptShape::Claude)
    .with_deadline(
        Deadline::new(
            secs(600),
            &[
                (EventName::UserPromptSubmit, secs(30)),
                (EventName::PreModelSwitch, secs(30)),
                (EventName::PostModelSwitch, secs(30)),
                (EventName::MessageDisplay, secs(10)),
                (EventName::SessionEnd, Duration::from_millis(1500)),
            ],
        )
        .capped(&[(EventName::SessionEnd, secs(60))]),
    )
    .with_native_hooks(super::NativeHooks::INSTALLED.in_files(
        &[".claude/settings.json", ".claude/settings.local.json"],
        &[super::UserPath::home(".claude/settings.json")],
    ));

impl Agent for Claude {
    fn info(&self) -> &Info {
        &INFO
    }

    fn decode_own(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        let name = event
            .map(str::parse::<EventName>)
            .transpose()
            .map_err(crate::protocol::EventError::from)?;
        Ok(Event::new(input, name, self.id())?)
    }

    fn encode_own(&self, _event: &Event, answer: &Answer) -> Native {
        let stdout = if answer.is_empty() {
            String::new()
        } else {
            serde_json::to_string(answer).unwrap_or_default()
        };
        Native::ok(stdout, Vec::new())
    }
}

/// The rows of an agent that names its events as Claude Code does, built
/// from Claude's own rows ([`row`]): each listed
/// event under Claude's name with Claude's caps, unless the entry says
/// otherwise: `Event => caps` acts on other caps, `Event as "Native"` has
/// another name. After `observed:`, an event without `=> caps` acts on
/// nothing ([`Caps::NONE`]) instead of on Claude's caps.
///
/// ```ignore
/// Table::new(claude_rows![SessionStart, Stop, PostToolUse => CONTEXT])
/// Table::new(claude_rows![observed: SessionStart, UserPromptSubmit as "PromptSubmit", PreToolUse => DENY])
/// ```
macro_rules! claude_rows {
    (@caps $default:expr) => { $default };
    (@caps $default:expr, $caps:expr) => { $caps };
    (@row $event:ident, $default:expr $(, $native:literal)? $(=> $caps:expr)?) => {{
        let row = $crate::agents::claude::row($crate::protocol::EventName::$event);
        row $(.named($native))?.with_caps($crate::agents::claude::claude_rows!(@caps $default $(, $caps)?))
    }};
    // A const item, so the rows are `'static` also as an argument of
    // `Table::new`, where a temporary would not be.
    (@static $($row:expr),*) => {{
        const ROWS: &[$crate::agents::EventRow] = &[$($row),*];
        ROWS
    }};
    (observed: $($event:ident $(as $native:literal)? $(=> $caps:expr)?),* $(,)?) => {
        $crate::agents::claude::claude_rows!(@static $($crate::agents::claude::claude_rows!(@row $event, $crate::agents::Caps::NONE $(, $native)? $(=> $caps)?)),*)
    };
    ($($event:ident $(as $native:literal)? $(=> $caps:expr)?),* $(,)?) => {
        $crate::agents::claude::claude_rows!(@static $($crate::agents::claude::claude_rows!(
            @row $event,
            $crate::agents::claude::row($crate::protocol::EventName::$event).caps
            $(, $native)? $(=> $caps)?
        )),*)
    };
}
pub(crate) use claude_rows;
