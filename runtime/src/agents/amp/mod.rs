//! Amp (Sourcegraph's `amp` CLI): no command hooks, only TypeScript plugins
//! that Amp runs under its own Bun; `install` writes one (`plugin`, the text
//! below) to `.amp/plugins/agenthooks.ts` (user: `~/.config/amp/plugins/`)
//! that hands each subscribed event to `agenthooks run --agent amp --event
//! <event>`. Amp's plugin API is modelled on Pi's extensions, and so is this
//! module on `pi.rs`.
//!
//! Verified how (amp 0.0.1790142911, the `@ampcode/cli-linux-x64` npm
//! package):
//! - from the binary's own API text (`amp plugins show-docs`, "the plugin
//!   API documentation understood by this version of Amp"): the locations,
//!   the events (`session.start`, `tool.call`, `tool.result`, `agent.start`,
//!   `agent.end`, `changes.prompt`), their fields and what each handler may
//!   return (below);
//! - by running the binary (`amp plugins exec <file> <event> --data`, no
//!   login): it loads a plugin file, calls its default export with the API,
//!   and delivers `session.start` with the `--data` fields as the event; the
//!   plugin written by `install` ran `agenthooks run` from there, which ran a
//!   SessionStart hook. Amp starts the plugin in its own folder
//!   (`.amp/plugins`), with `PWD` the folder amp was started in and
//!   `workspaceRoot` null when there is no workspace.
//!   `amp plugins exec` did not call a `tool.call` or `agent.*` handler
//!   offline (a real thread needs an Amp login and its servers), so those
//!   were not exercised: their shapes are the declared types;
//! - tool names from the binary's built-in permission rules (`amp
//!   permissions list --builtin`: `Bash` with `cmd`, `Glob`); `Read`,
//!   `create_file`, `edit_file`, `Grep` and their `path`, `old_str`,
//!   `new_str` keys from Amp SDK docs (secondary, not seen in the binary).
//!
//! # The plugin contract
//!
//! - argv: `run --agent amp --event <event>`, `<event>` an `amp.on` name;
//! - stdin: `{"event": <name>, "payload": <the event's fields the runtime
//!   reads>, "cwd": <the workspace root, else `$PWD`>, "session_id":
//!   <the thread id>}`;
//! - stdout: nothing (no opinion), or one JSON object whose `"result"` the
//!   handler returns to Amp as is: `{action: "reject-and-continue",
//!   message}` or `{action: "modify", input}` for `tool.call` (with no
//!   result the plugin answers `{action: "allow"}`, which runs the tool as
//!   without the plugin), `{status, output, error}` for `tool.result`,
//!   `{message: {content}}` for `agent.start`, `{action: "continue",
//!   userMessage}` for `agent.end`;
//! - stderr: one line each, to Amp's plugin log. Exit code always 0.
//!
//! What Amp cannot be told: `ask` before a tool (a plugin could open its own
//! dialog, but `amp -x` has no UI to show it), blocking a prompt
//! (`agent.start` only adds a message), stopping the agent
//! (`{action: "error"}` stops Amp's thread worker with an error, not a
//! clean stop, so it is not used).

use std::path::Path;

use serde_json::{json, Map, Value};

use super::plan::DEFAULT_DENY;
use super::{shim, Agent, EventRow, Info, Intent, Native, Verdict};
use super::{InstallSpec, PluginSpec, Registration, UserPath};
use crate::protocol::{Event, EventName};

// The table is data: `amp/table.toml`, made Rust by `build.rs`.
pub use super::tables::amp::TABLE;

/// The Amp adapter.
pub struct Amp;

/// Amp has no command hooks: install writes a plugin (`plugin`) that spawns
/// the binary. Amp loads project plugins from `.amp/plugins/*.ts`.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Plugin(PluginSpec { text: plugin }),
    ".amp/plugins/agenthooks.ts",
    UserPath::home(".config/amp/plugins/agenthooks.ts"),
)
.detected_by(&[".amp"], &[UserPath::home(".config/amp")]);

/// What a request event answers when agenthooks has no opinion: `tool.call`
/// must return a result, the others may return nothing.
const NO_OPINION: &str = r#"{ "tool.call": { action: "allow" } }"#;

/// The plugin's source for this binary and `events`: [`shim::prelude`] and
/// one `amp.on` per event.
fn plugin(binary: &Path, events: &[&'static EventRow]) -> String {
    format!(
        r#"{prelude}
const EVENTS = [{events}];
const FIELDS = [{fields}];
const NO_OPINION = {NO_OPINION};

export const description = "Runs the hooks of .agents/hooks.json through agenthooks";

export default function (amp) {{
  // Amp starts a plugin in the plugin's own folder: the workspace root,
  // else the folder amp was started in, is the hooks' cwd.
  let cwd = process.env.PWD || process.cwd();
  try {{
    const root = amp.system?.workspaceRoot;
    if (root) cwd = amp.helpers.filePathFromURI(root);
  }} catch {{}}
  for (const name of EVENTS) {{
    amp.on(name, async (event) => {{
      const payload = {{}};
      for (const key of FIELDS) if (event && event[key] !== undefined) payload[key] = event[key];
      const session_id = event?.thread?.id;
      const answer = await call(name, {{ event: name, payload, cwd, session_id }});
      return answer && typeof answer.result === "object" ? answer.result : NO_OPINION[name];
    }});
  }}
}}
"#,
        prelude = shim::prelude("amp", binary, "event"),
        events = shim::js_strings(events.iter().map(|row| row.native)),
        fields = shim::js_strings(SHAPE.sent()),
    )
}

/// Where Amp's events keep what Claude's fields hold.
const SHAPE: shim::PayloadShape = shim::PayloadShape {
    tool: ["tool", "input", "toolUseID"],
    result: &["status", "output", "error"],
    copies: &[(EventName::UserPromptSubmit, "message", "prompt")],
    also_sent: &["id"],
};

static INFO: Info = Info::new("amp", "Amp", &TABLE, &INSTALL).with_names(&["event"]);

impl Agent for Amp {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, out: &mut Map<String, Value>) {
        SHAPE.reshape(row, out);
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        let result = match event.name() {
            EventName::PreToolUse if intent.verdict == Some(Verdict::Deny) => Some(json!({
                "action": "reject-and-continue",
                "message": intent.reason_or(DEFAULT_DENY),
            })),
            EventName::PreToolUse => intent
                .updated_input
                .as_ref()
                .map(|input| json!({"action": "modify", "input": input})),
            EventName::PostToolUse => intent.added_text().map(|text| with_text(event, &text)),
            EventName::UserPromptSubmit => intent
                .added_text()
                .map(|text| json!({"message": {"content": text, "display": false}})),
            EventName::Stop if intent.block.is_some() => Some(json!({
                "action": "continue",
                "userMessage": intent.block_reason_or(DEFAULT_DENY),
            })),
            _ => None,
        };
        let mut out = Map::new();
        if let Some(result) = result {
            out.insert("result".into(), result);
        }
        Native::object_or_nothing(out, intent.notes)
    }
}

/// The `tool.result` answer that keeps the tool's status, error and output
/// as Amp sent them and adds `text` to the output: a string gets it after a
/// blank line, content blocks get one more text block, anything else is
/// given as its JSON followed by the text (Amp passes `output` to the model).
fn with_text(event: &Event, text: &str) -> Value {
    let sent = event.input().get("payload");
    let field = |k: &str| sent.and_then(|p| p.get(k)).cloned();
    let output = match field("output") {
        None | Some(Value::Null) => Value::String(text.to_string()),
        Some(Value::String(s)) if s.is_empty() => Value::String(text.to_string()),
        Some(Value::String(s)) => Value::String(format!("{s}\n\n{text}")),
        Some(Value::Array(mut blocks)) => {
            blocks.push(json!({"type": "text", "text": text}));
            Value::Array(blocks)
        }
        Some(other) => Value::String(format!("{other}\n\n{text}")),
    };
    let mut result = Map::new();
    result.insert(
        "status".into(),
        field("status").unwrap_or_else(|| Value::String("done".into())),
    );
    if let Some(error) = field("error").filter(|e| !e.is_null()) {
        result.insert("error".into(), error);
    }
    result.insert("output".into(), output);
    Value::Object(result)
}

#[cfg(test)]
mod tests;
