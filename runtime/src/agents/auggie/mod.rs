//! Augment's Auggie CLI: Claude-shaped `hooks` in `.augment/settings.json`,
//! its own payload keys and event name for the prompt, timeouts in ms.
//!
//! Verified how: run in CI by `tests/real-agents` (`@augmentcode/auggie`
//! 0.36.0 against `fake_augment.py`, a fake Augment backend; payloads in
//! `tests/fixtures/agents/auggie-0.36.0/`), first by hand
//! (`docs/agent-protocols.md` §15.5). Seen there: the files
//! (`~/.augment/settings.json`, `<workspace>/.augment/settings.json`), the
//! events PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd,
//! PromptSubmit (Notification did not fire), the payload (`conversation_id`,
//! `workspace_roots`, `tool_name: "launch-process"`, `tool_input`,
//! `tool_output` with the command's output between `<output>` tags,
//! `user_prompt`; no `cwd` outside tool input), `timeout` in milliseconds,
//! and that both `hookSpecificOutput.permissionDecision: "deny"` and exit 2
//! block while `{"decision":"block"}` does not. Hooks run only when the
//! backend sends the
//! feature flag `enable_hooks`. Cross-checked with rulesync
//! `src/features/hooks/augmentcode-hooks.ts`@cfebcd75 and
//! <https://docs.augmentcode.com/cli/hooks>. Tool names other than
//! `launch-process` are from Augment's tool list, unverified.

use super::claude_json::{ClaudeLike, Dialect};
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec, Shape, TimeUnit};

// The table is data: `auggie/table.toml`, made Rust by `build.rs`.
pub use super::tables::auggie::TABLE;

/// Auggie reads Claude's shape in `settings.json`, timeout in milliseconds;
/// its matcher is a JavaScript regex, where a bare `*` is invalid.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::claude(Shape::NestedMatching(".*"), TimeUnit::Milliseconds),
    ".augment",
    "settings.json"
)
.with_system(super::SystemFile::new("/etc/augment/settings.json", "", ""))
.with_after_install(
    "Auggie runs hooks only when your Augment account has them enabled (feature flag enable_hooks)",
);

/// The Auggie adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("auggie", "Augment (Auggie CLI)", &TABLE, &INSTALL),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
