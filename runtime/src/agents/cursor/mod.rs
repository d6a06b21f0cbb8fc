//! Cursor (hooks since 1.7): camelCase events, `permission` answers.
//!
//! Docs: <https://cursor.com/docs/agent/hooks>,
//! <https://cursor.com/docs/reference/third-party-hooks> (checked 2026-08 in
//! `docs/agent-protocols.md` §5, partly from secondary sources;
//! no recorded payloads). Closed source.
//!
//! Cursor splits "before a tool" into the generic `preToolUse` and dedicated
//! `beforeShellExecution` / `beforeMCPExecution` / `beforeReadFile` events;
//! all decode to PreToolUse, and install registers only `preToolUse` so a hook
//! runs once per tool call. `updated_input` is honoured on `preToolUse` only.

use serde_json::{json, Map, Value};

pub(crate) mod transcript;

use super::claude_json::verdict_str;
use super::plan::{non_empty, Intent, DEFAULT_DENY};
use super::COMMAND_AND_TIMEOUT;
use super::{project_and_home, InstallSpec, JsonSpec, Literal, Shape};
use super::{Agent, AlsoRuns, EventRow, Info, Native};
use crate::protocol::{Event, EventName};

// The table is data: `cursor/table.toml`, made Rust by `build.rs`.
pub use super::tables::cursor::TABLE;

/// The Cursor adapter.
pub struct Cursor;

/// Cursor reads `hooks.json` with a `version`, camelCase events and flat
/// handlers, timeout in seconds.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::new(Shape::Flat, COMMAND_AND_TIMEOUT).with_root(&[("version", Literal::Int(1))]),
    ".cursor",
    "hooks.json"
)
.with_system(super::SystemFile::new(
    "/etc/cursor/hooks.json",
    "/Library/Application Support/Cursor/hooks.json",
    r"Cursor\hooks.json",
))
.with_after_install("Cursor runs a project's hooks only in a workspace you trust");

/// With "Include third-party Plugins, Skills, and other configs" on,
/// Cursor also runs the hooks in `.claude/settings*.json` and
/// `~/.claude/settings.json` (<https://cursor.com/docs/reference/third-party-hooks>),
/// and sets `CURSOR_VERSION` for every hook it runs (its hooks docs'
/// environment table; unverified against a binary). Its own entry knows
/// Cursor's dialect, so the Claude entry is the one to step aside.
static INFO: Info = Info::new("cursor", "Cursor", &TABLE, &INSTALL)
    .with_transcript(super::transcript::TranscriptShape::Reader(
        super::cursor::transcript::read,
    ))
    .with_also_runs(AlsoRuns {
        agent: "claude",
        env: "CURSOR_VERSION",
        when: Some("with its third-party configs setting on"),
    })
    .with_native_hooks(
        super::NativeHooks::INSTALLED
            .with_vars(&[("CURSOR_PROJECT_DIR", Some("CLAUDE_PROJECT_DIR"))]),
    );

impl Agent for Cursor {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, input: &mut Map<String, Value>) {
        super::cwd_from_roots(input, "workspace_roots");
        match row.native {
            "beforeShellExecution" | "afterShellExecution" => {
                let mut args = Map::new();
                if let Some(cmd) = input.get("command") {
                    args.insert("command".into(), cmd.clone());
                }
                input.entry("tool_input").or_insert(Value::Object(args));
                if let Some(output) = input.get("output").cloned() {
                    input.entry("tool_response").or_insert(output);
                }
            }
            "beforeReadFile" | "afterFileEdit" => {
                let mut args = Map::new();
                if let Some(path) = input.get("file_path") {
                    args.insert("file_path".into(), path.clone());
                }
                if let Some(edits) = input.get("edits") {
                    args.insert("edits".into(), edits.clone());
                }
                input.entry("tool_input").or_insert(Value::Object(args));
            }
            "beforeMCPExecution" | "afterMCPExecution" => {
                let name = input
                    .get("tool_name")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown");
                let canonical = format!("mcp__cursor__{name}");
                input.insert("tool_name".into(), Value::String(canonical));
                if let Some(result) = input.get("result_json").cloned() {
                    input
                        .entry("tool_response")
                        .or_insert(super::parse_if_string(result));
                }
            }
            _ => {}
        }
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        if intent.is_empty() {
            return Native::ok(String::new(), intent.notes);
        }
        let mut out = Map::new();
        if let Some(verdict) = intent.verdict {
            out.insert("permission".into(), json!(verdict_str(verdict)));
            // Two channels: the model reads `agent_message`, the user
            // `user_message`. A hook that denies with only a `systemMessage`
            // (hookify) meant that text for both.
            let for_agent = non_empty(intent.reason.as_deref())
                .or(non_empty(intent.system_message.as_deref()))
                .map(str::to_string)
                .or_else(|| intent.verdict_reason());
            if let Some(text) = for_agent {
                out.insert("agent_message".into(), json!(text));
            }
            if let Some(text) = intent.user_text() {
                out.insert("user_message".into(), json!(text));
            }
        }
        if let Some(input) = &intent.updated_input {
            // No `permission` is added: a rewrite alone must not skip
            // Cursor's own confirmation.
            out.insert("updated_input".into(), Value::Object(input.clone()));
        }
        if intent.block.is_some() {
            let reason = intent.block_reason_or(DEFAULT_DENY);
            if event.name() == EventName::UserPromptSubmit {
                out.insert("continue".into(), json!(false));
                out.insert("user_message".into(), json!(reason));
            } else {
                out.insert("followup_message".into(), json!(reason));
            }
        }
        if let Some(c) = &intent.context {
            out.insert("additional_context".into(), json!(c));
        }
        if let Some(m) = &intent.system_message {
            out.entry("user_message").or_insert(json!(m));
        }
        Native::json(&Value::Object(out), intent.notes)
    }
}

#[cfg(test)]
mod tests;
