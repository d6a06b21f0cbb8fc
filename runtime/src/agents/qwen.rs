//! Qwen Code: a Gemini CLI fork that speaks Claude Code's hook protocol with
//! Gemini's tool names.
//!
//! Docs: <https://github.com/QwenLM/qwen-code/blob/main/docs/users/features/hooks.md>;
//! source: <https://github.com/QwenLM/qwen-code> `packages/core/src/hooks/{types.ts,
//! hook-matcher.ts, tool-name-mapping.json}` (checked 2026-08 in
//! `shared/reference/agent-protocols.md` §8, and 2026-11 against the recorded
//! payloads of Qwen Code 0.15.10 and 0.24.4).
//!
//! The answer is Claude's JSON; only the tool names (and a rewritten input's
//! parameter names) are translated. `ask` falls back to deny in headless mode
//! and in background subagents — Qwen's own doing.

use serde_json::Value;

use super::claude::{BLOCK, CONTEXT, CONTEXT_BLOCK, OTHER, PERMISSION};
use super::deadline::{secs, Deadline};
use super::{claude, claude_json};
use super::{claude_handler, InstallSpec, JsonSpec, Registration, Shape, TimeUnit, UserPath};
use super::{tool, Agent, Caps, DecodeError, EventRow, Native, Table};
use crate::protocol::{Answer, Event, EventName};

/// The Qwen Code adapter.
pub struct Qwen;

/// Qwen 0.15.10 and 0.24.4 read no `updatedInput` from a PreToolUse answer
/// (their `PreToolUseHookOutput` has only the decision and its reason; the
/// original command ran in tests/real-agents' `rewrite` phase). Only
/// PermissionRequest's `decision.updatedInput` is applied.
const TOOL: Caps = Caps {
    updated_input: false,
    ..claude::TOOL
};

/// Qwen Code's table.
pub static TABLE: Table = Table {
    events: &[
        EventRow::new(EventName::SessionStart, "SessionStart", CONTEXT),
        EventRow::new(
            EventName::UserPromptSubmit,
            "UserPromptSubmit",
            CONTEXT_BLOCK,
        ),
        EventRow::new(
            EventName::UserPromptExpansion,
            "UserPromptExpansion",
            CONTEXT_BLOCK,
        ),
        EventRow::new(EventName::PreToolUse, "PreToolUse", TOOL),
        EventRow::new(
            EventName::PermissionRequest,
            "PermissionRequest",
            PERMISSION,
        ),
        EventRow::new(EventName::PermissionDenied, "PermissionDenied", OTHER),
        // Qwen 0.15.10 and 0.24.4 ignore `decision: block` here (the model
        // never sees the reason); `additionalContext` reaches it.
        EventRow::new(EventName::PostToolUse, "PostToolUse", CONTEXT),
        EventRow::new(EventName::PostToolUseFailure, "PostToolUseFailure", CONTEXT),
        EventRow::new(EventName::PostToolBatch, "PostToolBatch", BLOCK),
        EventRow::new(EventName::Notification, "Notification", OTHER),
        EventRow::new(EventName::MessageDisplay, "MessageDisplay", OTHER),
        EventRow::new(EventName::SubagentStart, "SubagentStart", CONTEXT),
        EventRow::new(EventName::SubagentStop, "SubagentStop", CONTEXT_BLOCK),
        EventRow::new(EventName::Stop, "Stop", CONTEXT_BLOCK),
        EventRow::new(EventName::StopFailure, "StopFailure", OTHER),
        EventRow::new(EventName::InstructionsLoaded, "InstructionsLoaded", OTHER),
        EventRow::new(EventName::PreCompact, "PreCompact", BLOCK),
        EventRow::new(EventName::PostCompact, "PostCompact", OTHER),
        EventRow::new(EventName::SessionEnd, "SessionEnd", OTHER),
    ],
    tools: &[
        tool("Bash", "run_shell_command"),
        tool("Read", "read_file"),
        tool("Write", "write_file"),
        tool("Edit", "edit"),
        tool("Edit", "replace"),
        tool("Grep", "grep_search"),
        tool("Glob", "glob"),
        tool("LS", "list_directory"),
        tool("LS", "ls"),
        tool("WebFetch", "web_fetch"),
        tool("WebSearch", "web_search"),
        tool("TodoWrite", "todo_write"),
        tool("Agent", "task"),
        tool("ExitPlanMode", "exit_plan_mode"),
    ],
    renames: &[
        super::rename(Some("Read"), "absolute_path", "file_path"),
        super::rename(Some("LS"), "dir_path", "path"),
        super::rename(Some("Glob"), "dir_path", "path"),
        super::rename(Some("Grep"), "dir_path", "path"),
    ],
    fields: &[],
    notes: &[
        "SessionStart fires from 0.24 on (0.15 sends Notification auth_success instead)",
        "ask falls back to deny in headless mode and background subagents",
        "Qwen-only events (SessionDelete, TodoCreated, TodoCompleted) are not served",
    ],
    plain_stdout: false,
};

/// Qwen Code reads `hooks` in `settings.json` (JSONC allowed): Claude's shape
/// and names, the timeout in milliseconds.
pub static INSTALL: InstallSpec = InstallSpec {
    registration: Registration::Json(JsonSpec {
        shape: Shape::Nested,
        handler: claude_handler(TimeUnit::Milliseconds),
        root: &[],
        jsonc: true,
        off: &[("/disableAllHooks", true)],
    }),
    project: ".qwen/settings.json",
    user: UserPath::home(".qwen/settings.json"),
    system: super::SystemFile::new(
        "/etc/qwen-code/settings.json",
        "/Library/Application Support/QwenCode/settings.json",
        r"qwen-code\settings.json",
    )
    .var("QWEN_CODE_SYSTEM_SETTINGS_PATH"),
    detect: &[".qwen"],
    detect_user: &[UserPath::home(".qwen")],
    after_install: None,
};

impl Agent for Qwen {
    fn id(&self) -> &'static str {
        "qwen"
    }

    fn display_name(&self) -> &'static str {
        "Qwen Code"
    }

    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn install_spec(&self) -> &'static InstallSpec {
        &INSTALL
    }

    /// Qwen Code: 60 000 ms for commands.
    fn deadline(&self) -> Deadline {
        Deadline::new(secs(60), &[])
    }

    fn decode(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        claude_json::decode(self.id(), &TABLE, input, event)
    }

    fn encode(&self, event: &Event, answer: &Answer) -> Native {
        claude_json::encode(self, event, answer)
    }
}

#[cfg(test)]
#[path = "qwen_tests.rs"]
mod tests;
