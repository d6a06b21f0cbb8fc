//! Kimi Code CLI (Moonshot AI): Claude-named events and payloads, hooks as
//! `[[hooks]]` tables of the user's `~/.kimi-code/config.toml` (global only).
//!
//! Verified how: read in Kimi Code's source, no binary run. MoonshotAI/kimi-code
//! @d723cc47 (2026-08-22): `docs/en/customization/hooks.md`;
//! `packages/agent-core-v2/src/features/externalHooks/configSection.ts` (a
//! table is exactly `event`, `matcher`, `command`, `timeout`, strict: any
//! other key, or an unknown event, fails the whole config; `timeout` an
//! integer 1..=600 s, default 30); `internal/types.ts` (the 20 events);
//! `internal/runHook.ts` (exit 2 blocks with stderr as the reason; exit 0
//! with JSON blocks only on `hookSpecificOutput.permissionDecision: "deny"`,
//! reason `permissionDecisionReason`; every other field is ignored; any other
//! exit, a timeout or a crash allows); `agent/agentExternalHooksService.ts`
//! (only PreToolUse, UserPromptSubmit and Stop act on a block: the tool is
//! not run and the reason goes to the model; the prompt's turn is dropped;
//! the reason is appended as a user message and the turn goes on);
//! `app/bootstrap/bootstrap.ts` (`KIMI_CODE_HOME`, default `~/.kimi-code`);
//! tool names from `agent/tools/**` (`Bash`, `Read`, `Write`, `Edit`,
//! `Glob`, `Grep`, `Agent`, ...; file tools take `path`).
//!
//! The answer is exit 2 with the reason on stderr, the channel all three
//! blocking events share. Context (plain stdout appended at
//! UserPromptSubmit) is not written: the exit-2 dialect has no channel for it.

use super::claude_json::{ClaudeLike, Dialect};
use super::deadline::{secs, Deadline};
use super::{Field, Info, InstallSpec, Registration, TimeUnit};
use super::{TomlSpec, UserDir, UserPath, USER_ONLY};

// The table is data: `kimi/table.toml`, made Rust by `build.rs`.
pub use super::tables::kimi::TABLE;

/// Kimi's home: `KIMI_CODE_HOME`, else `~/.kimi-code`.
const HOME: UserDir = UserDir::var("KIMI_CODE_HOME", ".kimi-code");

/// Our table: `event`, then `command` and `timeout` (no `matcher`: every
/// target), the only keys Kimi accepts.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Toml(TomlSpec {
        array: "hooks",
        event_key: "event",
        handler: &[
            ("command", Field::Command),
            ("timeout", Field::Timeout(TimeUnit::Seconds)),
        ],
        timeout_range: (1, 600),
    }),
    USER_ONLY,
    UserPath::new(HOME, "config.toml"),
)
.detected_by(&[], &[UserPath::new(HOME, "")])
.with_after_install("Kimi Code reads its config at start: restart it to run the hooks");

/// The Kimi Code adapter. Kimi waits 30 s for a hook unless `timeout` says
/// otherwise.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("kimi", "Kimi Code CLI", &TABLE, &INSTALL)
        .with_deadline(Deadline::new(secs(30), &[])),
    Dialect::Exit2,
);

#[cfg(test)]
mod tests;
