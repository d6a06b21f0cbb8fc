//! OpenCode: no command hooks, only in-process JS plugins; `install` writes a
//! small plugin (`plugin`, the text below) that hands each plugin hook to
//! `agenthooks run --agent opencode --event <hook>`.
//!
//! Source: <https://github.com/anomalyco/opencode> `packages/plugin/src/index.ts`;
//! docs: <https://opencode.ai/docs/plugins> (checked 2026-08 in
//! `docs/agent-protocols.md` §9; no recorded payloads).
//!
//! # The plugin contract
//!
//! - argv: `run --agent opencode --event <native>`, `<native>` a plugin hook
//!   (`tool.execute.before`, `tool.execute.after`, `permission.ask`,
//!   `chat.message`, `experimental.session.compacting`) or a bus event type
//!   (`session.created`, `session.idle`, `session.compacted`, `session.error`).
//! - stdin: `{"hook": <native>, "input": <the hook's input>, "output": <the
//!   hook's output object>, "directory": .., "worktree": ..}`; for bus events
//!   `input` is the event's `properties` and `output` is `{}`.
//! - stdout: nothing (no opinion), or one JSON object with
//!   - `"error": "<reason>"`: the plugin throws it (blocks the tool call or the
//!     prompt);
//!   - `"output": {..}`: fields assigned onto the hook's output object:
//!     `args` (the whole rewritten tool input, OpenCode's parameter names),
//!     `status` (`permission.ask`: `"allow"|"deny"|"ask"`), `output` (the tool
//!     result with context appended), `parts` (the prompt's parts with context
//!     appended to the last text part), `context` (compaction context list).
//! - stderr: one line each, passed to OpenCode's log. Exit code always 0; a
//!   failure of the binary itself allows (the runtime's failure policy is
//!   applied inside `run`, never in the plugin).

use serde_json::{json, Map, Value};

use super::claude_json::verdict_str;
use super::plan::DEFAULT_DENY;
use super::{shim, InstallSpec, PluginSpec, Registration, UserDir, UserPath};
use super::{Agent, EventRow, Info, Intent, Native, Verdict};
use crate::protocol::{Event, EventName};
use std::path::Path;

// The table is data: `opencode/table.toml`, made Rust by `build.rs`.
pub use super::tables::opencode::TABLE;

/// The OpenCode adapter.
pub struct OpenCode;

/// OpenCode has no command hooks: install writes a plugin (`plugin`) that
/// spawns the binary, in its plugins directory.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Plugin(PluginSpec {
        text: |binary, events| plugin("opencode", binary, events),
    }),
    ".opencode/plugins/agenthooks.js",
    UserPath::new(UserDir::XDG_CONFIG_HOME, "opencode/plugins/agenthooks.js"),
)
.detected_by(
    &[".opencode"],
    &[UserPath::new(UserDir::XDG_CONFIG_HOME, "opencode")],
);

static INFO: Info = Info::new("opencode", "OpenCode", &TABLE, &INSTALL).with_names(&["hook"]);

impl Agent for OpenCode {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, payload: &mut Map<String, Value>) {
        reshape(row, payload);
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        write(event, intent)
    }
}

/// Reshapes what [`plugin`] sends, for OpenCode or a fork that loads the
/// same plugins and so has the same [`TABLE`].
pub(crate) fn reshape(row: &EventRow, payload: &mut Map<String, Value>) {
    let hook_in = payload
        .get("input")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let hook_out = payload
        .get("output")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(dir) = payload.get("directory").cloned() {
        payload.entry("cwd").or_insert(dir);
    }
    let session = hook_in
        .get("sessionID")
        .or_else(|| hook_in.get("info").and_then(|i| i.get("id")))
        .cloned();
    if let Some(s) = session {
        payload.entry("session_id").or_insert(s);
    }
    match row.canonical {
        EventName::PreToolUse | EventName::PostToolUse => {
            if let Some(t) = hook_in.get("tool") {
                payload.insert("tool_name".into(), t.clone());
            }
            let args = if row.canonical == EventName::PreToolUse {
                hook_out.get("args")
            } else {
                hook_in.get("args")
            };
            let args = args.filter(|a| a.is_object()).cloned().unwrap_or(json!({}));
            payload.insert("tool_input".into(), args);
            if let Some(id) = hook_in.get("callID") {
                payload.insert("tool_use_id".into(), id.clone());
            }
            if row.canonical == EventName::PostToolUse {
                if let Some(result) = hook_out.get("output") {
                    payload.insert("tool_response".into(), result.clone());
                }
            }
        }
        EventName::PermissionRequest => {
            if let Some(t) = hook_in.get("type") {
                payload.insert("tool_name".into(), t.clone());
            }
            let mut args = hook_in
                .get("metadata")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let pattern = match hook_in.get("pattern") {
                Some(Value::String(p)) => Some(p.clone()),
                Some(Value::Array(ps)) => Some(
                    ps.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            };
            let is_bash = hook_in.get("type").and_then(Value::as_str) == Some("bash");
            if let (Some(p), true) = (pattern, is_bash) {
                args.entry("command").or_insert(json!(p));
            }
            payload.insert("tool_input".into(), Value::Object(args));
        }
        EventName::UserPromptSubmit => {
            payload
                .entry("prompt")
                .or_insert(json!(prompt_text(&hook_out)));
        }
        _ => {}
    }
}

/// Writes an answer for [`plugin`] to act on, for OpenCode or a fork.
pub(crate) fn write(event: &Event, intent: Intent) -> Native {
    let mut out = Map::new();
    let mut assign = Map::new();
    let native_out = event.input().get("output").and_then(Value::as_object);
    match (event.name(), intent.verdict) {
        (EventName::PermissionRequest, Some(v)) => {
            assign.insert("status".into(), json!(verdict_str(v)));
        }
        (_, Some(Verdict::Deny)) => {
            out.insert("error".into(), json!(intent.reason_or(DEFAULT_DENY)));
        }
        // Elsewhere OpenCode's table takes no ask or allow: planning left none.
        (_, Some(Verdict::Ask | Verdict::Allow) | None) => {}
    }
    if let Some(input) = &intent.updated_input {
        assign.insert("args".into(), Value::Object(input.clone()));
    }
    // A blocked prompt throws; elsewhere a block reason is text for the model.
    let prompt_blocked = intent.block.is_some() && event.name() == EventName::UserPromptSubmit;
    if prompt_blocked {
        out.insert("error".into(), json!(intent.block_reason_or(DEFAULT_DENY)));
    }
    let added = if prompt_blocked {
        intent.context.clone()
    } else {
        intent.added_text()
    };
    if let Some(text) = added {
        match event.name() {
            EventName::PostToolUse => {
                // The tool's own output text, before it was given to hooks in
                // Claude's shape.
                let input = event.input();
                let native = input
                    .get("tool_response_native")
                    .or_else(|| input.get("tool_response"));
                let original = match native {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(other) => other.to_string(),
                };
                let joined = if original.is_empty() {
                    text
                } else {
                    format!("{original}\n\n{text}")
                };
                assign.insert("output".into(), json!(joined));
            }
            EventName::UserPromptSubmit => {
                assign.insert("parts".into(), Value::Array(parts_with(native_out, &text)));
            }
            EventName::PreCompact => {
                let mut list = native_out
                    .and_then(|o| o.get("context"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                list.push(json!(text));
                assign.insert("context".into(), Value::Array(list));
            }
            _ => {}
        }
    }
    if !assign.is_empty() {
        out.insert("output".into(), Value::Object(assign));
    }
    Native::object_or_nothing(out, intent.notes)
}

/// Bus events arrive through the plugin's `event` hook rather than by name.
fn is_bus_event(native: &str) -> bool {
    native.starts_with("session.")
        || native.starts_with("file.")
        || native.starts_with("message.")
        || native.starts_with("permission.asked")
        || native.starts_with("command.")
}

/// The plugin's source for agent `id` (OpenCode or a fork that loads the same
/// plugins), this binary and `events`: [`shim::prelude`] and the hooks that
/// call it.
pub(crate) fn plugin(id: &str, binary: &Path, events: &[&'static EventRow]) -> String {
    let mut hooks = String::new();
    let mut bus = Vec::new();
    for row in events {
        let name = serde_json::to_string(row.native).unwrap_or_default();
        if is_bus_event(row.native) {
            bus.push(name);
        } else {
            hooks.push_str(&format!(
                "    {name}: async (input, output) => act(await run({name}, input, output), output),\n"
            ));
        }
    }
    let bus = bus.join(", ");
    format!(
        r#"{prelude}
const BUS_EVENTS = new Set([{bus}]);

// OpenCode keeps its own references to the objects and lists of `output`
// (a new `args` object would be ignored): those are changed in place.
function act(answer, output) {{
  if (answer && typeof answer.output === "object" && answer.output !== null && output) {{
    for (const [key, value] of Object.entries(answer.output)) {{
      const held = output[key];
      if (Array.isArray(held) && Array.isArray(value)) {{
        held.splice(0, held.length, ...value);
      }} else if (held && typeof held === "object" && !Array.isArray(held) && value && typeof value === "object" && !Array.isArray(value)) {{
        for (const k of Object.keys(held)) delete held[k];
        Object.assign(held, value);
      }} else {{
        output[key] = value;
      }}
    }}
  }}
  if (answer && typeof answer.error === "string") throw new Error(answer.error);
}}

export const AgentHooks = async ({{ directory, worktree }}) => {{
  const run = (hook, input, output) => call(hook, {{ hook, input, output, directory, worktree }});
  return {{
{hooks}    event: async ({{ event }}) => {{
      if (event && BUS_EVENTS.has(event.type)) act(await run(event.type, event.properties ?? {{}}, {{}}), null);
    }},
  }};
}};
"#,
        prelude = shim::prelude(id, binary, "hook"),
    )
}

/// The text of a `chat.message` output's text parts.
fn prompt_text(output: &Map<String, Value>) -> String {
    output
        .get("parts")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The prompt's parts with `text` appended to the last text part (a new part
/// would need ids only OpenCode can make); a bare text part when there is none.
fn parts_with(output: Option<&Map<String, Value>>, text: &str) -> Vec<Value> {
    let mut parts = output
        .and_then(|o| o.get("parts"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let last_text = parts
        .iter_mut()
        .rev()
        .find(|p| p.get("type").and_then(Value::as_str) == Some("text"));
    match last_text.and_then(Value::as_object_mut) {
        Some(part) => {
            let old = part.get("text").and_then(Value::as_str).unwrap_or_default();
            let new = if old.is_empty() {
                text.to_string()
            } else {
                format!("{old}\n\n{text}")
            };
            part.insert("text".into(), json!(new));
        }
        None => parts.push(json!({"type": "text", "text": text, "synthetic": true})),
    }
    parts
}

#[cfg(test)]
mod tests;
