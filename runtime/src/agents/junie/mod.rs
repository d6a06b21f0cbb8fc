//! JetBrains Junie CLI: Claude-shaped `hooks` in the user's
//! `~/.junie/config.json` only (project hooks are ignored, for safety).
//!
//! Verified how: documented only, no binary run. Docs:
//! <https://junie.jetbrains.com/docs/junie-cli-hooks.html> as summarised in
//! rulesync `src/types/hooks.ts` and `src/features/hooks/junie-hooks.ts`
//! @cfebcd75 (seven events, command handlers only, `blockOnError` and
//! `async` per handler, matchers on SessionStart, PreToolUse, StopFailure,
//! PermissionRequest and SessionEnd). Junie's answer JSON and tool names are
//! not documented there, so this adapter answers only with exit 2 (a deny
//! before a tool, its reason on stderr), the one channel every Claude-style
//! runner shares; everything else is dropped with a note.

use super::claude_json::{ClaudeLike, Dialect};
use super::{Info, USER_ONLY};
use super::{InstallSpec, JsonSpec, Shape, TimeUnit, UserPath};

// The table is data: `junie/table.toml`, made Rust by `build.rs`.
pub use super::tables::junie::TABLE;

/// Junie reads `hooks` in `~/.junie/config.json`; the matcher is written as
/// the regex `.*` (its syntax is not documented beyond "tool name").
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::claude(Shape::NestedMatching(".*"), TimeUnit::Seconds),
    USER_ONLY,
    UserPath::home(".junie/config.json"),
)
.detected_by(&[], &[UserPath::home(".junie")]);

/// The Junie adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("junie", "JetBrains Junie CLI", &TABLE, &INSTALL),
    Dialect::Exit2,
);

#[cfg(test)]
mod tests;
