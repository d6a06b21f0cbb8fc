//! Windsurf (Cascade hooks): one event per kind of action, answered by exit
//! code only.
//!
//! Docs: <https://docs.windsurf.com/windsurf/cascade/hooks> (checked 2026-08 in
//! `docs/agent-protocols.md` §6, with third-party adapters; no
//! recorded payloads). Closed source.
//!
//! The payload names its event in `agent_action_name` and carries the action
//! in `tool_info`; each `pre_*` event decodes to PreToolUse with a synthesized
//! tool (`pre_run_command` → Bash, ...). Only the `pre_*` hooks can block:
//! exit 2 with the reason on stderr. Nothing else (ask, rewrite, context) is
//! read.

use serde_json::{Map, Value};

use super::claude_json;
use super::{parse_if_string, Agent, EventRow, Info, Intent, Native};
use super::{Field, InstallSpec, JsonSpec, Literal, Shape, UserPath};
use crate::protocol::{Event, EventName};

// The table is data: `windsurf/table.toml`, made Rust by `build.rs`.
pub use super::tables::windsurf::TABLE;

/// The Windsurf adapter.
pub struct Windsurf;

/// Windsurf reads `hooks.json`: flat handlers under snake_case events, no
/// timeout field; `show_output: false` keeps our notes out of its UI.
pub static INSTALL: InstallSpec = InstallSpec::json(
    JsonSpec::new(
        Shape::Flat,
        &[
            ("command", Field::Command),
            ("show_output", Field::Literal(Literal::Bool(false))),
        ],
    ),
    ".windsurf/hooks.json",
    UserPath::home(".codeium/windsurf/hooks.json"),
)
.with_system(super::SystemFile::new(
    "/etc/windsurf/hooks.json",
    "/Library/Application Support/Windsurf/hooks.json",
    r"Windsurf\hooks.json",
))
.detected_by(&[".windsurf"], &[UserPath::home(".codeium/windsurf")]);

static INFO: Info =
    Info::new("windsurf", "Windsurf", &TABLE, &INSTALL).with_names(&["agent_action_name"]);

impl Agent for Windsurf {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, input: &mut Map<String, Value>) {
        let (info, has_info) = match input.get("tool_info") {
            Some(Value::Object(info)) => (info.clone(), true),
            _ => (Map::new(), false),
        };
        if let Some(cwd) = info.get("cwd") {
            input.entry("cwd").or_insert(cwd.clone());
        }
        if row.canonical == EventName::UserPromptSubmit {
            if let Some(prompt) = info.get("user_prompt") {
                input.entry("prompt").or_insert(prompt.clone());
            }
        }
        if let Some(response) = info.get("response") {
            input
                .entry("last_assistant_message")
                .or_insert(response.clone());
        }
        if row.canonical.is_tool_event() && has_info {
            let mut args = info.clone();
            args.remove("cwd");
            if let Some(cmd) = args.remove("command_line") {
                args.insert("command".into(), cmd);
            }
            if row.tool.is_none() {
                let server = info.get("mcp_server_name").and_then(Value::as_str);
                let tool = info.get("mcp_tool_name").and_then(Value::as_str);
                let name = format!(
                    "mcp__{}__{}",
                    server.unwrap_or("unknown"),
                    tool.unwrap_or("unknown")
                );
                input.insert("tool_name".into(), Value::String(name));
                if let Some(a) = info.get("mcp_tool_arguments") {
                    if let Value::Object(a) = parse_if_string(a.clone()) {
                        args = a;
                    }
                }
            }
            input.insert("tool_input".into(), Value::Object(args));
        }
    }

    fn write(&self, _event: &Event, _row: &EventRow, intent: Intent) -> Native {
        claude_json::write_exit2(intent)
    }
}

#[cfg(test)]
mod tests;
