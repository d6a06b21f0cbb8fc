//! Qoder CLI: Claude Code's hook protocol verbatim, in `.qoder/settings.json`.
//!
//! Verified how: documented only, no binary run. Docs:
//! <https://docs.qoder.com/cli/hooks> (files `~/.qoder/settings.json`,
//! `<project>/.qoder/settings.json` and `.local.json`, all merged; Claude's
//! `{matcher, hooks: [{type, command}]}` groups with Claude's tool names
//! (`"matcher": "Bash"`); `tool_input.command`; exit 2 blocks with the stderr
//! reason), rtk-ai/rtk `hooks/qoder/README.md`@c165608e (PreToolUse
//! `hookSpecificOutput.updatedInput` rewrites the command), and the CLI's
//! bundled `hook-config` skill (qodercli 1.0.14). Which other answers each
//! event acts on is taken from Claude's protocol, which Qoder says it follows;
//! only the PreToolUse deny and rewrite were seen in a source.

use super::claude_json::{ClaudeLike, Dialect};
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec};

// The table is data: `qoder/table.toml`, made Rust by `build.rs`.
pub use super::tables::qoder::TABLE;

/// Qoder reads `hooks` in `settings.json`, Claude's shape, seconds.
pub static INSTALL: InstallSpec = project_and_home!(JsonSpec::CLAUDE, ".qoder", "settings.json");

/// The Qoder adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("qoder", "Qoder CLI", &TABLE, &INSTALL),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
