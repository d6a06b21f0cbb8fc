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
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec};

// The table is data: `tables/factory.toml`, made Rust by `build.rs`.
pub use super::tables::factory::TABLE;

/// Factory Droid reads Claude's shape from `hooks.json`, timeout in seconds.
pub static INSTALL: InstallSpec = project_and_home!(JsonSpec::CLAUDE, ".factory", "hooks.json");

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
