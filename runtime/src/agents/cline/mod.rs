//! Cline: one executable per event, named after it, answering in JSON.
//!
//! Source: <https://github.com/cline/cline> @ 21cb8d25:
//! `sdk/packages/core/src/hooks/{hook-file-config,hook-file-hooks,subprocess}.ts`,
//! `apps/vscode/proto/cline/hooks.proto`, `sdk/examples/hooks/README.md`;
//! docs: <https://docs.cline.bot/features/hooks> (checked 2026-08 in
//! `docs/agent-protocols.md` §7; no recorded payloads).
//!
//! A hook is a script whose file name is the event (`PreToolUse`, `TaskStart`,
//! ...); the payload names the event again in `hookName` (the SDK's own names,
//! `tool_call`, `agent_start`, ...). The tool call arrives as
//! `tool_call{name,input}` (SDK) or `preToolUse{toolName,parameters}` (the
//! VS Code extension, string values). The answer is JSON only — the exit code
//! is not a decision channel: `{cancel, errorMessage}` blocks a tool,
//! `review` asks, `overrideInput` rewrites (SDK), `context`
//! (`contextModification` in the extension) adds context.

use serde_json::{json, Map, Value};

use super::deadline::{secs, Deadline};
use super::Verdict;
use super::{parse_if_string, Agent, EventRow, Info, Intent, Native};
use super::{InstallSpec, Registration, ScriptSpec, UserPath};
use crate::protocol::Event;

// The table is data: `cline/table.toml`, made Rust by `build.rs`.
pub use super::tables::cline::TABLE;

/// The Cline adapter.
pub struct Cline;

/// Cline runs one executable per event, named after it, from its hooks
/// directory.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Scripts(ScriptSpec { text: script }),
    ".clinerules/hooks",
    UserPath::home("Documents/Cline/Hooks"),
)
.detected_by(
    &[".clinerules", ".cline"],
    &[UserPath::home("Documents/Cline"), UserPath::home(".cline")],
)
.with_after_install(
    "the Cline extension runs these scripts only with hooks switched on: Settings > Features > Enable Hooks",
);

/// Cline's hook file for one event: a shell script that hands over to `run`
/// (`command`, on a line of its own, is how install knows the file as ours).
fn script(command: &str, agent: &str) -> String {
    format!(
        "#!/bin/sh\n# Written by `agenthooks install {agent}`; `agenthooks uninstall {agent}` removes it.\n{command}\n"
    )
}

/// Cline: 30 s for extension hooks (120 s for SDK tool hooks).
static INFO: Info = Info::new("cline", "Cline", &TABLE, &INSTALL)
    .with_deadline(Deadline::new(secs(30), &[]))
    .with_names(&["hookName"]);

impl Agent for Cline {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, input: &mut Map<String, Value>) {
        super::cwd_from_roots(input, "workspaceRoots");
        let prompt = input
            .get("userPromptSubmit")
            .and_then(|u| u.get("prompt"))
            .cloned();
        if let Some(prompt) = prompt {
            input.entry("prompt").or_insert(prompt);
        }
        if row.canonical.is_tool_event() {
            tool_call(input);
        }
    }

    fn write(&self, _event: &Event, _row: &EventRow, intent: Intent) -> Native {
        let mut out = Map::new();
        match intent.verdict {
            Some(Verdict::Deny) => {
                out.insert("cancel".into(), json!(true));
            }
            Some(Verdict::Ask) => {
                out.insert("review".into(), json!(true));
            }
            // Cline has no allow: the tool runs unless a hook cancels it.
            Some(Verdict::Allow) | None => {}
        }
        if let Some(r) = intent.verdict_reason() {
            out.insert("errorMessage".into(), json!(r));
        }
        if let Some(input) = &intent.updated_input {
            out.insert("overrideInput".into(), Value::Object(input.clone()));
        }
        if let Some(c) = &intent.context {
            out.insert("context".into(), json!(c));
            out.insert("contextModification".into(), json!(c));
        }
        // `{}` is Cline's "nothing to say".
        Native::json(&Value::Object(out), intent.notes)
    }
}

/// `tool_name` / `tool_input` / `tool_response` from the SDK's `tool_call` /
/// `tool_result` or the extension's `preToolUse` / `postToolUse` blocks.
fn tool_call(input: &mut Map<String, Value>) {
    let sdk = input
        .get("tool_call")
        .or_else(|| input.get("tool_result"))
        .and_then(Value::as_object)
        .cloned();
    let legacy = input
        .get("preToolUse")
        .or_else(|| input.get("postToolUse"))
        .and_then(Value::as_object)
        .cloned();
    let (name, args) = match (&sdk, &legacy) {
        (Some(call), _) => (call.get("name"), call.get("input")),
        (None, Some(block)) => (block.get("toolName"), block.get("parameters")),
        (None, None) => (None, None),
    };
    let (Some(Value::String(name)), args) = (name.cloned(), args.cloned()) else {
        return;
    };
    let mut args = match args.map(parse_if_string) {
        Some(Value::Object(a)) => a,
        _ => Map::new(),
    };
    let mut name = name;
    if name == "use_mcp_tool" {
        let server = args.get("server_name").and_then(Value::as_str);
        let tool = args.get("tool_name").and_then(Value::as_str);
        if let (Some(server), Some(tool)) = (server, tool) {
            name = format!("mcp__{server}__{tool}");
            if let Some(Value::Object(a)) = args.get("arguments").cloned().map(parse_if_string) {
                args = a;
            }
        }
    }
    if let Some(Value::Array(cmds)) = args.get("commands") {
        // run_commands takes a list; hooks that judge "the command" see them all.
        let joined: Vec<&str> = cmds.iter().filter_map(Value::as_str).collect();
        if !joined.is_empty() && !args.contains_key("command") {
            args.insert("command".into(), json!(joined.join("\n")));
        }
    }
    input.insert("tool_name".into(), Value::String(name));
    input.insert("tool_input".into(), Value::Object(args));
    let response = sdk
        .as_ref()
        .and_then(|c| c.get("output"))
        .or_else(|| legacy.as_ref().and_then(|b| b.get("result")))
        .cloned();
    if let Some(r) = response {
        input.insert("tool_response".into(), r);
    }
    if let Some(ok) = legacy.as_ref().and_then(|b| b.get("success")).cloned() {
        input.entry("success").or_insert(ok);
    }
}

#[cfg(test)]
mod tests;
