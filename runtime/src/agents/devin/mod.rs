//! Devin CLI (Devin for Terminal / Devin Local): Claude-compatible hooks,
//! which also runs Claude Code's own hooks.
//!
//! Verified how: documented only, no binary run. Docs:
//! <https://docs.devin.ai/cli/extensibility/hooks/overview> and
//! `.../lifecycle-hooks` (events PreToolUse, PostToolUse, PermissionRequest,
//! UserPromptSubmit, Stop, SessionStart, SessionEnd; tools `exec` and `edit`;
//! `tool_response` is `{success, output, error}`; exit 2 blocks; stdout JSON
//! `decision`/`reason`; `DEVIN_PROJECT_DIR` is set for every hook; "If you
//! already have hooks configured for Claude Code, they will work with Devin
//! CLI automatically"), rulesync `src/features/hooks/devin-hooks.ts`@cfebcd75
//! (project `.devin/hooks.v1.json` or `hooks` in `.devin/config.json`, user
//! `~/.config/devin/config.json`; PostCompaction added later), and
//! agent-harness-adapter PLAN-015 (Devin runs Claude's hooks too). Because a
//! Claude hook works unchanged there, the answer is Claude's JSON; only the
//! verdict before a tool is claimed.

use super::claude_json::{ClaudeLike, Dialect};
use super::{AlsoRuns, Info, UserPath};
use super::{InstallSpec, JsonSpec, Shape, TimeUnit, UserDir};

// The table is data: `devin/table.toml`, made Rust by `build.rs`.
pub use super::tables::devin::TABLE;

/// Devin reads `hooks` in `.devin/config.json` (user:
/// `~/.config/devin/config.json`), Claude's shape; `""` matches every tool.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::claude(Shape::NestedMatching(""), TimeUnit::Seconds),
    ".devin/config.json",
    UserPath::new(UserDir::XDG_CONFIG_HOME, "devin/config.json"),
)
.detected_by(
    &[".devin"],
    &[UserPath::new(UserDir::XDG_CONFIG_HOME, "devin")],
);

/// The Devin CLI adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("devin", "Devin CLI", &TABLE, &INSTALL)
        // Its own entry speaks Devin's tool names; the Claude one steps aside.
        .with_also_runs(AlsoRuns {
            agent: "claude",
            env: "DEVIN_PROJECT_DIR",
            when: None,
        }),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
