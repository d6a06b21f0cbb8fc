//! Letta Code: Claude Code's hooks files and exit codes, with a payload of
//! its own.
//!
//! Verified how: read in Letta Code's source, no binary run.
//! letta-ai/letta-code @1f4d3e3e (0.30.29, 2026-08-22) and the docs
//! (<https://docs.letta.com/letta-code/hooks>):
//! - `src/hooks/loader.ts`: `hooks` in `~/.letta/settings.json`,
//!   `.letta/settings.json` and `.letta/settings.local.json`, merged; Claude's
//!   `{matcher, hooks: [{type, command, timeout}]}` groups, the matcher an
//!   anchored regex (`*` or `""`: every tool), simple events without one;
//!   `hooks.disabled: true` turns them all off.
//! - `src/hooks/types.ts`, `index.ts`: the payload is `{event_type,
//!   working_directory, ...}` (no session id), tools with `tool_name`,
//!   `tool_input`, `tool_call_id`, a result as `tool_result {status,
//!   output}`; decoded here to Claude's keys (`letta/table.toml`).
//! - `src/hooks/executor.ts`: the timeout is in milliseconds (default
//!   60 000); exit 2 blocks with stderr as the reason, sequential hooks stop
//!   at the first; any other non-zero exit is an error and lets it through.
//! - Where a block acts (`tools/manager.ts`, `cli/app/use-submit-handler.ts`,
//!   `use-conversation-loop.ts`): before a tool, the tool is not run and the
//!   model gets "Tool execution blocked by hook" with the reason; after a
//!   tool, the reason is appended to its result; at UserPromptSubmit the
//!   prompt is dropped; at Stop the reason is sent as the next user message.
//! - Hooks get the toolset's internal tool names (`Task`, not the `Agent`
//!   the model sees: letta-code #3150).
//!
//! The answer is exit 2 with the reason on stderr, the channel every one of
//! those shares. Letta also reads `hookSpecificOutput.updatedInput` on exit
//! 0 before a tool, in one of its two tool paths, and plain stdout as
//! context at UserPromptSubmit and SessionStart; neither is written (a
//! rewrite denies, context is dropped with a note) until a run shows which
//! apply.

use super::claude_json::{ClaudeLike, Dialect};
use super::deadline::{secs, Deadline};
use super::Info;
use super::{project_and_home, InstallSpec, JsonSpec, Shape, TimeUnit};

// The table is data: `letta/table.toml`, made Rust by `build.rs`.
pub use super::tables::letta::TABLE;

/// Letta Code reads `hooks` in `.letta/settings.json`: Claude's shape, the
/// timeout in milliseconds.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::claude(Shape::Nested, TimeUnit::Milliseconds),
    ".letta",
    "settings.json"
);

/// The Letta Code adapter (60 000 ms for commands).
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("letta", "Letta Code", &TABLE, &INSTALL).with_deadline(Deadline::new(secs(60), &[])),
    Dialect::Exit2,
);

#[cfg(test)]
mod tests;
