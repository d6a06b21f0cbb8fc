//! OpenAI Codex CLI: Claude's protocol with a strict answer schema.
//!
//! Docs: <https://developers.openai.com/codex/hooks>; source:
//! <https://github.com/openai/codex> `codex-rs/hooks/src/{engine/output_parser.rs, schema.rs,
//! events/pre_tool_use.rs}` (checked 2026-08 in `docs/agent-protocols.md` §2,
//! and 2026-11 against the recorded payloads of Codex 0.171.0).
//!
//! Traps (§15): every answer struct is `deny_unknown_fields`, so only the
//! fields below are ever written; `allow` is accepted only with `updatedInput`;
//! `ask` and `continue:false` before a tool are rejected and the tool runs;
//! exit 2 needs non-empty stderr, so this adapter answers in JSON only.

use serde_json::{Map, Value};

pub(crate) mod transcript;

pub(crate) mod patch;

use super::claude_json::claude_json;
use super::deadline::{secs, Deadline};
use super::plan::{Intent, Verdict, DEFAULT_DENY};
use super::{Agent, AnswerKind, EventRow, Info, Native};
use super::{InstallSpec, JsonSpec, UserDir, UserPath};
use crate::protocol::{Event, EventName, NoteKind};

// The table is data: `codex/table.toml`, made Rust by `build.rs`.
pub use super::tables::codex::TABLE;

/// The Codex adapter.
pub struct Codex;

/// The user directory Codex keeps its config in: `$CODEX_HOME`, default `~/.codex`.
pub const CODEX_HOME: UserDir = UserDir::var("CODEX_HOME", ".codex");

/// Codex reads `hooks.json` (its root accepts only `description` and
/// `hooks`), Claude's shape, timeout in seconds; the user layer lives in
/// `$CODEX_HOME`.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::CLAUDE,
    ".codex/hooks.json",
    UserPath::new(CODEX_HOME, "hooks.json"),
)
.with_system(super::SystemFile::new(
    "/etc/codex/hooks.json",
    "/etc/codex/hooks.json",
    "",
))
.detected_by(&[".codex"], &[UserPath::new(CODEX_HOME, "")])
.with_after_install(
    "Codex runs these hooks only after you review and trust them in its /hooks screen (`codex exec --dangerously-bypass-hook-trust` skips that review), and project hooks only in a project you trust in Codex",
);

/// Codex: 600 s; SessionEnd 1 s, and it clamps a configured SessionEnd
/// timeout to 3 s (warning "clamping SessionEnd hook timeout to 3s").
static INFO: Info = Info::new("codex", "OpenAI Codex CLI", &TABLE, &INSTALL)
    .with_deadline(
        Deadline::new(secs(600), &[(EventName::SessionEnd, secs(1))])
            .capped(&[(EventName::SessionEnd, secs(3))]),
    )
    .with_transcript(super::transcript::TranscriptShape::Reader(
        super::codex::transcript::read,
    ));

impl Agent for Codex {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        let tool = input.get("tool_name").and_then(Value::as_str);
        // A model without the apply_patch tool runs it as a shell command,
        // as Codex's instructions say; Codex intercepts that and applies the
        // patch itself (no shell runs), but hooks get it as `Bash`.
        let shell_patch = tool == Some("Bash")
            && input
                .get("tool_input")
                .and_then(|a| a.get("command"))
                .and_then(Value::as_str)
                .is_some_and(super::codex::patch::is_shell_patch);
        if tool != Some("apply_patch") && !shell_patch {
            return;
        }
        let cwd = input.get("cwd").and_then(Value::as_str).map(str::to_string);
        let tool = match input.get_mut("tool_input") {
            Some(Value::Object(args)) => super::codex::patch::to_claude(args, cwd.as_deref()),
            _ => None,
        };
        if let Some(tool) = tool {
            input.insert("tool_name".into(), Value::String(tool.into()));
        }
    }

    fn write(&self, event: &Event, row: &EventRow, mut intent: Intent) -> Native {
        if event.name() == EventName::PreToolUse {
            if let Some(input) = intent.updated_input.take() {
                match command_only(event, input) {
                    Some(input) => {
                        // Codex takes a rewrite only as "allow with this input".
                        intent.verdict = Some(Verdict::Allow);
                        intent.updated_input = Some(input);
                    }
                    None => {
                        intent.notes.push(super::plan::agent_note(
                            "codex",
                            NoteKind::Dropped(AnswerKind::UpdatedInput),
                            format!(
                                "codex can rewrite `{}` only through a string `command`; \
                                 `updatedInput` dropped",
                                event.tool_name().unwrap_or_default()
                            ),
                        ));
                        if intent.verdict == Some(Verdict::Allow) {
                            intent.verdict = None;
                        }
                    }
                }
            }
        }
        if intent.block.is_some() {
            // Codex rejects `decision: block` without a reason.
            intent.block = Some(intent.block_reason_or(DEFAULT_DENY));
        }
        let value = claude_json(event.name(), row.native, &intent);
        Native::json(&value, intent.notes)
    }
}

/// Codex requires a rewrite of its shell and patch tools to be exactly
/// `{"command": "<string>"}`; MCP tools take the whole argument object.
fn command_only(event: &Event, input: Map<String, Value>) -> Option<Map<String, Value>> {
    let shell_or_patch = matches!(event.tool_name(), Some("Bash" | "Edit" | "Write"));
    if !shell_or_patch {
        return Some(input);
    }
    match input.get("command") {
        Some(Value::String(cmd)) => {
            let mut only = Map::new();
            only.insert("command".into(), Value::String(cmd.clone()));
            Some(only)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
