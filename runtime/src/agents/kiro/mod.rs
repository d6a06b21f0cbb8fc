//! Kiro CLI: camelCase events in the agent config, answered by exit code and
//! stdout only.
//!
//! Docs: <https://kiro.dev/docs/cli/hooks> (same text as
//! <https://github.com/aws/amazon-q-developer-cli/blob/main/docs/hooks.md>),
//! <https://kiro.dev/docs/cli/v3/hooks/> (checked 2026-08 in
//! `docs/agent-protocols.md` §12; no recorded payloads).
//!
//! Only `preToolUse` can block (exit 2, stderr to the model); the stdout of
//! `agentSpawn` and `userPromptSubmit` is added to the context; nothing else is
//! read. No ask, no rewrite (confirmed by <https://github.com/rtk-ai/rtk/pull/3302>).

use serde_json::{json, Map, Value};

use super::deadline::{secs, Deadline};
use super::plan::{Intent, DEFAULT_DENY};
use super::{project_and_home, Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit};
use super::{Agent, EventRow, Info, Native};
use crate::protocol::Event;

// The table is data: `kiro/table.toml`, made Rust by `build.rs`.
pub use super::tables::kiro::TABLE;

/// The Kiro CLI adapter.
pub struct Kiro;

/// Kiro CLI reads `hooks` inside an agent config; we keep our own agent,
/// `agenthooks`, so the user's agents stay untouched. Flat handlers,
/// `timeout_ms`.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::new(
        Shape::Flat,
        &[
            ("command", Field::Command),
            ("timeout_ms", Field::Timeout(TimeUnit::Milliseconds)),
        ],
    )
    .with_root(&[
        ("name", Literal::Str("agenthooks")),
        (
            "description",
            Literal::Str(
                "Runs the hooks of .agents/hooks.json (written by agenthooks install kiro)",
            ),
        ),
        ("tools", Literal::Strs(&["*"])),
    ]),
    ".kiro",
    "agents/agenthooks.json"
)
.with_after_install(
    "Kiro CLI runs these hooks only in the `agenthooks` agent: start it with `kiro-cli chat --agent agenthooks` (or make it your default agent)",
);

/// Kiro: `timeout_ms` 30 000.
static INFO: Info = Info::new("kiro", "Kiro CLI", &TABLE, &INSTALL)
    .with_deadline(Deadline::new(secs(30), &[]))
    .with_native_hooks(super::NativeHooks::INSTALLED.in_files(
        &[".kiro/agents/*.json"],
        &[super::UserPath::home(".kiro/agents/*.json")],
    ));

impl Agent for Kiro {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        let tool = input
            .get("tool_name")
            .and_then(Value::as_str)
            .map(str::to_string);
        match tool.as_deref() {
            Some("fs_write") => {
                let str_replace = input
                    .get("tool_input")
                    .and_then(|t| t.get("command"))
                    .and_then(Value::as_str)
                    == Some("str_replace");
                if str_replace {
                    input.insert("tool_name".into(), json!("Edit"));
                }
            }
            Some("fs_read") => {
                if let Some(Value::Object(args)) = input.get_mut("tool_input") {
                    let first = args
                        .get("operations")
                        .and_then(Value::as_array)
                        .and_then(|ops| ops.iter().find_map(|op| op.get("path")))
                        .cloned();
                    if let Some(path) = first {
                        args.entry("file_path").or_insert(path);
                    }
                }
            }
            Some(name) if name.starts_with('@') => {
                if let Some((server, tool)) = name[1..].split_once('/') {
                    input.insert("tool_name".into(), json!(format!("mcp__{server}__{tool}")));
                }
            }
            _ => {}
        }
    }

    fn write(&self, _event: &Event, _row: &EventRow, intent: Intent) -> Native {
        if intent.verdict.is_some() {
            return Native::exit2(&intent.reason_or(DEFAULT_DENY), intent.notes);
        }
        Native::ok(intent.context.clone().unwrap_or_default(), intent.notes)
    }
}

#[cfg(test)]
mod tests;
