//! sema-core 2 (PyPI `sema-core`, the engine after SemaClaw 1.0's): a subset
//! of Claude Code's hook protocol, read from `.sema/hooks/hooks.json`.
//!
//! Sources: the engine of PyPI `sema-core` 2.1.5 (its Node sidecar,
//! `sema_core/_sidecar/server.js`: the hooks manager, `parseHookOutput`
//! and the `fire*` functions), summed up in
//! `shared/reference/llm-hooks-and-semaclaw.md` §6; checked 2026-12 against
//! the payloads recorded from it in `tests/fixtures/agents/sema-2.1.5/` and
//! in tests/real-agents (`deny`, `exit2`, `wasm`, `failclosed`, `allow`,
//! `context` phases).
//!
//! Payloads are Claude's (`tool_name` in Claude's names, plus
//! `sema_tool_name`; `tool_response` as the text the model got). Answers are
//! Claude's JSON, of which the engine reads `decision: block` (not at
//! SessionStart, Stop, SessionEnd), `hookSpecificOutput.permissionDecision`
//! `allow` or `deny` (`ask` is read as no answer) and `additionalContext`
//! (at SessionStart, UserPromptSubmit and after a tool), and
//! nothing else: no `updatedInput`, no `continue`. PermissionRequest, too,
//! takes `permissionDecision`, not Claude's `decision.behavior`. An allow
//! before a tool skips the engine's permission check, as in Claude Code; a
//! PermissionRequest hook with no answer leaves the request to the user.

use serde_json::{Map, Value};

use super::claude_json::{claude_json, put_verdict, write_common, PERMISSION_DECISION};
use super::deadline::{secs, Deadline};
use super::plan::Intent;
use super::{Agent, EventRow, Info, InstallSpec, JsonSpec, Native};
use super::{UserDir, UserPath};
use crate::protocol::{Event, EventName};

// The table is data: `sema/table.toml`, made Rust by `build.rs`.
pub use super::tables::sema::TABLE;

/// Where sema-core keeps its user-level config: `$SEMA_ROOT`, default `~/.sema`.
pub const SEMA_ROOT: UserDir = UserDir::var("SEMA_ROOT", ".sema");

/// sema-core reads `hooks` in `hooks/hooks.json` under the working
/// directory's `.sema` and under `$SEMA_ROOT`: Claude's shape, timeout in
/// seconds (default 60, at most 60; 120 for PermissionRequest).
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::CLAUDE,
    ".sema/hooks/hooks.json",
    UserPath::new(SEMA_ROOT, "hooks/hooks.json"),
)
.detected_by(&[".sema"], &[UserPath::new(SEMA_ROOT, "")])
.with_after_install(
    "sema-core reads its hooks once per process: restart the program that embeds it",
);

/// The sema-core 2 adapter.
pub struct Sema;

static INFO: Info =
    Info::new("sema", "sema-core 2", &TABLE, &INSTALL).with_deadline(Deadline::new(secs(60), &[]));

impl Agent for Sema {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        super::semaclaw::main_agent_id(input);
    }

    fn write(&self, event: &Event, row: &EventRow, intent: Intent) -> Native {
        if event.name() != EventName::PermissionRequest || intent.is_empty() {
            let value = claude_json(event.name(), row.native, &intent);
            return Native::json(&value, intent.notes);
        }
        let mut out = Map::new();
        let mut hso = Map::new();
        put_verdict(&mut hso, &intent, PERMISSION_DECISION);
        write_common(&mut out, hso, row.native, &intent);
        Native::json(&Value::Object(out), intent.notes)
    }
}

#[cfg(test)]
mod tests;
