//! Google Antigravity (`agy`): a named-hook file, camelCase payloads with the
//! tool call under `toolCall`, and a bare `{"decision", "reason"}` answer.
//!
//! Verified how: documented only, no binary run here.
//! - Where and in what shape: `~/.gemini/config/hooks.json`, a JSON object
//!   whose keys are hook names, each a Claude-style event map; the catch-all
//!   matcher is `""`; PreToolUse and PostToolUse run, PreInvocation,
//!   PostInvocation and Stop parse but did not run on agy 1.0.5 — measured by
//!   websentry-ai/setup PR #104 ("AGY-EMPIRICAL-FINDINGS", 2026-06) and by
//!   DefenseClaw's connector docs (cisco-ai-defense.github.io/defenseclaw,
//!   "Antigravity merges every discovered hooks.json").
//! - The project file is `<project>/.agents/hooks.json`, read with a strict
//!   loader that drops the whole file on any error (skillsaw rule
//!   `antigravity-hooks-valid`, measured on agy 1.1.25; rulesync
//!   `src/features/hooks/antigravity-hooks.ts`@cfebcd75). Contrary evidence:
//!   toolahead v0.7.0 says agy 1.1.11 read hooks only from plugins.
//! - Payload `{conversationId, stepIdx, toolCall: {name, args}, transcriptPath,
//!   workspacePaths}` (PostToolUse adds `error`; `toolCall` may be null), args
//!   with PascalCase keys; answer `{"decision": "allow"|"deny"|"ask", "reason"}`
//!   (websentry PR #104; clawd's Antigravity hook tests for `ask`).
//!
//! That project file is agenthooks' own `.agents/hooks.json`, so agenthooks'
//! entry lives only in the user file ([`USER_ONLY`]), and the project file is
//! kept inert for Antigravity (see [`reads_natively`] and docs/agents.md, "Antigravity").

use serde_json::Value;

use super::claude_json::{ClaudeLike, Dialect};
use super::{Info, NativeRead, USER_ONLY};
use super::{InstallSpec, JsonSpec, Shape, TimeUnit, UserPath};

// The table is data: `antigravity/table.toml`, made Rust by `build.rs`.
pub use super::tables::antigravity::TABLE;

/// Agenthooks' entry: a named hook (called `hooks`, so the file reads like
/// Claude's) in the user file, matcher `""` (a bare `*` is not a valid Go
/// regex), timeout in seconds.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::claude(Shape::NestedMatching(""), TimeUnit::Seconds),
    USER_ONLY,
    UserPath::home(".gemini/config/hooks.json"),
)
.detected_by(
    &[],
    &[
        UserPath::home(".gemini/antigravity"),
        UserPath::home(".gemini/config/hooks.json"),
    ],
);

/// The Antigravity adapter.
pub static AGENT: ClaudeLike = ClaudeLike::new(
    Info::new("antigravity", "Google Antigravity", &TABLE, &INSTALL).with_names(&[]),
    Dialect::Decision {
        deny: "deny",
        allow: "allow",
        ask: Some("ask"),
    },
)
.with_tool_call("toolCall")
.with_reads_hooks_file(reads_natively);

/// What Antigravity does with `file` (a parsed `.agents/hooks.json`): load
/// it as its own named-hook file and run its command handlers natively, or
/// drop it, as its strict loader does for a top-level value that is not an
/// object (agenthooks' `"$schema"`) or a handler type other than
/// `command`/`prompt` (`wasm`).
pub fn reads_natively(file: &Value) -> NativeRead {
    count_commands(file).map_or(NativeRead::Ignores, NativeRead::Runs)
}

fn count_commands(file: &Value) -> Option<usize> {
    let hooks = file.as_object()?;
    let mut commands = 0;
    for named in hooks.values() {
        for (event, groups) in named.as_object()? {
            if event == "enabled" {
                continue;
            }
            for group in groups.as_array()? {
                // Matcher groups hold handlers; flat lists are handlers.
                let handlers = match group.get("hooks") {
                    Some(hs) => hs.as_array()?.iter().collect::<Vec<_>>(),
                    None => vec![group],
                };
                for handler in handlers {
                    match handler.get("type").and_then(Value::as_str) {
                        Some("command") => commands += 1,
                        Some("prompt") => {}
                        _ => return None,
                    }
                }
            }
        }
    }
    Some(commands)
}

#[cfg(test)]
mod tests;
