//! Factory Droid: a Claude Code clone with its own tool names.
//!
//! Docs: <https://docs.factory.ai/reference/hooks-reference>,
//! <https://docs.factory.ai/harness/hooks>; tool names also from
//! <https://github.com/rtk-ai/rtk/pull/2267> (checked 2026-08 in
//! `docs/agent-protocols.md` §11; no recorded payloads).
//!
//! Input and answer are Claude's; only `Execute`, `Create` and `Edit` were
//! seen in primary sources, the other tool names are unverified.

use super::claude_json::{ClaudeLike, Dialect};
use super::table::claude_rows;
use super::{project_and_home, InstallSpec, JsonSpec, Shape, TimeUnit};
use super::{tool, Info, Table};

/// Factory Droid's table.
pub static TABLE: Table = Table::new(claude_rows![
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    Notification,
    SubagentStop,
    Stop,
    PreCompact,
    SessionEnd,
])
.with_tools(&[
    tool("Bash", "Execute"),
    tool("Write", "Create"),
    tool("WebFetch", "FetchUrl"),
    tool("Agent", "Task"),
])
.with_notes(&["tool names other than Execute, Create and Edit are unverified"]);

/// Factory Droid reads Claude's shape from the `hooks` key of
/// `settings.json`, timeout in seconds. Droid 0.225.2 also reads a
/// `.factory/hooks.json`, but there the file's root *is* the hooks object
/// (no `hooks` key; a `{"hooks": ...}` file there is silently ignored: seen
/// in the real-agents run), and its events override settings.json's.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::claude(Shape::Nested, TimeUnit::Seconds),
    ".factory",
    "settings.json"
);

/// The Factory Droid adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("factory", "Factory Droid", &TABLE, &INSTALL).with_native_hooks(
        super::NativeHooks::INSTALLED
            .with_vars(&[("FACTORY_PROJECT_DIR", Some("CLAUDE_PROJECT_DIR"))]),
    ),
    Dialect::Claude,
);

#[cfg(test)]
#[path = "factory_tests.rs"]
mod tests;
