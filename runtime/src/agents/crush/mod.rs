//! Crush (Charm): Claude-compatible hooks in `crush.json`, flat handlers.
//!
//! Verified how: documented only, no binary run (the npm package downloads
//! its binary from github.com at install time; `docs/agent-protocols.md` §15.7).
//! Docs: <https://github.com/charmbracelet/crush/blob/main/docs/hooks/README.md>
//! ("Hooks are Claude Code-compatible"; "currently supports just one hook,
//! `PreToolUse`") and the built-in skill `internal/skills/builtin/crush-hooks/SKILL.md`
//! (newer builds: 13 events, PreToolUse answers allow/deny/halt/rewrite/context;
//! an unknown event name is a config error). Config `{"hooks": {"PreToolUse":
//! [{"matcher", "command", "timeout"}]}}`, timeout in seconds (default 30);
//! agent-config 0.2.0's `docs/agents/crush.md` agrees (JSONC `crush.json`,
//! user file `$XDG_CONFIG_HOME/crush/crush.json`). Tool names are lowercase
//! (`^bash$` in the docs' example); the others are unverified.

use super::claude_json::{ClaudeLike, Dialect};
use super::deadline::{secs, Deadline};
use super::Info;
use super::COMMAND_AND_TIMEOUT;
use super::{InstallSpec, JsonSpec, Shape, UserDir, UserPath};

// The table is data: `crush/table.toml`, made Rust by `build.rs`.
pub use super::tables::crush::TABLE;

/// Crush reads `hooks` in `crush.json` (JSONC): flat `{command, timeout}`
/// handlers, no `type`.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::new(Shape::Flat, COMMAND_AND_TIMEOUT).jsonc(),
    "crush.json",
    UserPath::new(UserDir::XDG_CONFIG_HOME, "crush/crush.json"),
)
.detected_by(
    &["crush.json", ".crush.json", ".crush"],
    &[UserPath::new(UserDir::XDG_CONFIG_HOME, "crush")],
);

/// The Crush adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("crush", "Crush", &TABLE, &INSTALL)
        .with_deadline(Deadline::new(secs(30), &[]))
        .with_names(&["hook_event_name", "event"]),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
