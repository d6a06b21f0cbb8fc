//! Factory Droid: a Claude Code clone with its own tool names.
//!
//! Docs: <https://docs.factory.ai/reference/hooks-reference>,
//! <https://docs.factory.ai/harness/hooks>; tool names also from
//! <https://github.com/rtk-ai/rtk/pull/2267> (checked 2026-08 in
//! `shared/reference/agent-protocols.md` §11; no recorded payloads).
//!
//! Input and answer are Claude's; only `Execute`, `Create` and `Edit` were
//! seen in primary sources, the other tool names are unverified.

use serde_json::Value;

use super::claude::{BLOCK, CONTEXT, CONTEXT_BLOCK, OTHER, TOOL};
use super::claude_json;
use super::{claude_handler, InstallSpec, JsonSpec, Registration, Shape, TimeUnit, UserPath};
use super::{tool, Agent, DecodeError, EventRow, Native, Table};
use crate::protocol::{Answer, Event, EventName};

/// The Factory Droid adapter.
pub struct Factory;

/// Factory Droid's table.
pub static TABLE: Table = Table {
    events: &[
        EventRow::new(EventName::SessionStart, "SessionStart", CONTEXT),
        EventRow::new(
            EventName::UserPromptSubmit,
            "UserPromptSubmit",
            CONTEXT_BLOCK,
        ),
        EventRow::new(EventName::PreToolUse, "PreToolUse", TOOL),
        EventRow::new(EventName::PostToolUse, "PostToolUse", CONTEXT_BLOCK),
        EventRow::new(EventName::Notification, "Notification", OTHER),
        EventRow::new(EventName::SubagentStop, "SubagentStop", CONTEXT_BLOCK),
        EventRow::new(EventName::Stop, "Stop", CONTEXT_BLOCK),
        EventRow::new(EventName::PreCompact, "PreCompact", BLOCK),
        EventRow::new(EventName::SessionEnd, "SessionEnd", OTHER),
    ],
    tools: &[
        tool("Bash", "Execute"),
        tool("Write", "Create"),
        tool("WebFetch", "FetchUrl"),
        tool("Agent", "Task"),
    ],
    renames: &[],
    fields: &[],
    notes: &["tool names other than Execute, Create and Edit are unverified"],
    plain_stdout: false,
};

/// Factory Droid reads Claude's shape from `hooks.json`, timeout in seconds.
pub static INSTALL: InstallSpec = InstallSpec {
    registration: Registration::Json(JsonSpec {
        shape: Shape::Nested,
        handler: claude_handler(TimeUnit::Seconds),
        root: &[],
        jsonc: false,
        off: &[],
    }),
    project: ".factory/hooks.json",
    user: UserPath::home(".factory/hooks.json"),
    system: super::SystemFile::NONE,
    detect: &[".factory"],
    detect_user: &[UserPath::home(".factory")],
    after_install: None,
};

impl Agent for Factory {
    fn id(&self) -> &'static str {
        "factory"
    }

    fn display_name(&self) -> &'static str {
        "Factory Droid"
    }

    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn install_spec(&self) -> &'static InstallSpec {
        &INSTALL
    }

    fn decode(&self, input: Value, event: Option<&str>) -> Result<Event, DecodeError> {
        claude_json::decode(self.id(), &TABLE, input, event)
    }

    fn encode(&self, event: &Event, answer: &Answer) -> Native {
        claude_json::encode(self, event, answer)
    }
}

#[cfg(test)]
#[path = "factory_tests.rs"]
mod tests;
