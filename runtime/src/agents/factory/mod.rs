//! Factory Droid: a Claude Code clone with its own tool names.
//!
//! Docs: <https://docs.factory.ai/reference/hooks-reference>,
//! <https://docs.factory.ai/harness/hooks>; tool names also from
//! <https://github.com/rtk-ai/rtk/pull/2267> (checked 2026-08 in
//! `docs/agent-protocols.md` §11; no recorded payloads).
//!
//! Input and answer are Claude's; only `Execute`, `Create` and `Edit` were
//! seen in primary sources, the other tool names are unverified.
//!
//! Run for real in `tests/real-agents` (`@factory/cli-linux-x64` 0.225.2,
//! `droid exec` on a BYOK custom model; payloads recorded in
//! `tests/fixtures/agents/factory-0.225.2/`): a deny (JSON or exit 2), an
//! allow, `updatedInput`, SessionStart context and a Stop block work; a
//! PostToolUse `decision: block` is ignored (Droid takes only
//! `additionalContext` there, which is how agenthooks gives it the block's
//! reason: the `post` phase), and `droid exec` fires no UserPromptSubmit.

use super::claude_json::{ClaudeLike, Dialect};
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec};

pub(crate) mod transcript;

// The table is data: `factory/table.toml`, made Rust by `build.rs`.
pub use super::tables::factory::TABLE;

/// Factory Droid reads Claude's shape from the `hooks` key of
/// `settings.json`, timeout in seconds. Droid 0.225.2 also reads a
/// `.factory/hooks.json`, but there the file's root *is* the hooks object
/// (no `hooks` key; a `{"hooks": ...}` file there is silently ignored: seen
/// in the real-agents run), and its events override settings.json's.
pub static INSTALL: InstallSpec = project_and_home!(JsonSpec::CLAUDE, ".factory", "settings.json");

/// The Factory Droid adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("factory", "Factory Droid", &TABLE, &INSTALL)
        .with_transcript(super::transcript::TranscriptShape::Reader(
            super::factory::transcript::read,
        ))
        .with_native_hooks(
            super::NativeHooks::INSTALLED
                .with_vars(&[("FACTORY_PROJECT_DIR", Some("CLAUDE_PROJECT_DIR"))]),
        ),
    Dialect::Claude,
);

#[cfg(test)]
mod tests;
