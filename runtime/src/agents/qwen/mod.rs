//! Qwen Code: a Gemini CLI fork that speaks Claude Code's hook protocol with
//! Gemini's tool names.
//!
//! Docs: <https://github.com/QwenLM/qwen-code/blob/main/docs/users/features/hooks.md>;
//! source: <https://github.com/QwenLM/qwen-code> `packages/core/src/hooks/{types.ts,
//! hook-matcher.ts, tool-name-mapping.json}` (checked 2026-08 in
//! `docs/agent-protocols.md` §8, and 2026-11 against the recorded
//! payloads of Qwen Code 0.15.10 and 0.24.4).
//!
//! The answer is Claude's JSON; only the tool names (and a rewritten input's
//! parameter names) are translated. `ask` falls back to deny in headless mode
//! and in background subagents — Qwen's own doing.

use super::claude_json::{ClaudeLike, Dialect};
use super::deadline::{secs, Deadline};
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec, Shape, TimeUnit, ToolNames};
use super::{OffSwitches, DISABLE_ALL_HOOKS};

pub(crate) mod transcript;

// The table is data: `qwen/table.toml`, made Rust by `build.rs`.
pub use super::tables::qwen::TABLE;

/// Qwen Code reads `hooks` in `settings.json` (JSONC allowed): Claude's shape
/// and names, the timeout in milliseconds.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::claude(Shape::Nested, TimeUnit::Milliseconds)
        .jsonc()
        .with_off(OffSwitches::new(DISABLE_ALL_HOOKS))
        .matching(ToolNames::Native),
    ".qwen",
    "settings.json"
)
.with_system(
    super::SystemFile::new(
        "/etc/qwen-code/settings.json",
        "/Library/Application Support/QwenCode/settings.json",
        r"qwen-code\settings.json",
    )
    .var("QWEN_CODE_SYSTEM_SETTINGS_PATH"),
);

/// The Qwen Code adapter (60 000 ms for commands).
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("qwen", "Qwen Code", &TABLE, &INSTALL)
        .with_transcript(super::transcript::TranscriptShape::Reader(
            super::qwen::transcript::read,
        ))
        .with_deadline(Deadline::new(secs(60), &[]))
        .with_native_hooks(
            super::NativeHooks::INSTALLED
                .with_vars(&[("QWEN_PROJECT_DIR", Some("CLAUDE_PROJECT_DIR"))]),
        ),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
