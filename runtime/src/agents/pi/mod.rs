//! Pi (`@mariozechner/pi-coding-agent`): no command hooks, only TS/JS
//! extensions; `install` writes one (`extension`, the text below) to
//! `.pi/extensions/agenthooks.ts` (user: `~/.pi/agent/extensions/`) that
//! hands each subscribed event to `agenthooks run --agent pi --event <event>`.
//!
//! Source: the package's `docs/extensions.md` and `dist/core/tools/*.js`
//! (0.73.1, read from the npm tarball); verified against the binary (0.73.1,
//! `tests/real-agents/` against the fake model on 127.0.0.1, payloads under
//! `tests/fixtures/agents/pi-0.73.1/`): project extensions load in `-p` mode
//! with no trust prompt, `tool_call` blocks with `{block: true, reason}` and
//! the model gets `reason` as the tool result.
//!
//! # The extension contract
//!
//! - argv: `run --agent pi --event <event>`, `<event>` a `pi.on` name
//!   (`tool_call`, `tool_result`, `before_agent_start`, `session_start`,
//!   `agent_end`, `session_before_compact`, `session_shutdown`);
//! - stdin: `{"event": <name>, "payload": <the event's fields the runtime
//!   reads>, "cwd": ctx.cwd, "session_id": <the session's id>}`;
//! - stdout: nothing (no opinion), or one JSON object with `"result"` (what
//!   the handler returns to Pi: `{block, reason}` for `tool_call`,
//!   `{content}` for `tool_result`, `{message}` for `before_agent_start`)
//!   and/or `"input"` (the tool's whole new input, Pi's parameter names,
//!   put in place of `event.input`, which Pi then runs).
//! - stderr: one line each, to Pi's log. Exit code always 0.
//!
//! What Pi cannot be told: `ask` or `allow` before a tool (it has no
//! permission prompt in the loop), blocking a prompt (`before_agent_start`
//! cannot cancel; `input` can, but does not fire for `pi -p`), keeping the
//! agent going at `agent_end`.

use std::path::Path;

use serde_json::{json, Map, Value};

use super::plan::DEFAULT_DENY;
use super::{shim, Agent, EventRow, Info, Intent, Native, Verdict};
use super::{InstallSpec, PluginSpec, Registration, UserPath};
use crate::protocol::{Event, EventName};

// The table is data: `pi/table.toml`, made Rust by `build.rs`.
pub use super::tables::pi::TABLE;

/// The Pi adapter.
pub struct Pi;

/// Pi has no command hooks: install writes an extension (`extension`) that
/// spawns the binary; Pi loads project extensions without asking.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Plugin(PluginSpec { text: extension }),
    ".pi/extensions/agenthooks.ts",
    UserPath::home(".pi/agent/extensions/agenthooks.ts"),
)
.detected_by(&[".pi"], &[UserPath::home(".pi")]);

/// The extension's source for this binary and `events`: [`shim::prelude`]
/// and one `pi.on` per event.
fn extension(binary: &Path, events: &[&'static EventRow]) -> String {
    format!(
        r#"{prelude}
const EVENTS = [{events}];
const FIELDS = [{fields}];

export default function (pi) {{
  for (const name of EVENTS) {{
    pi.on(name, async (event, ctx) => {{
      const payload = {{}};
      for (const key of FIELDS) if (event && event[key] !== undefined) payload[key] = event[key];
      let session_id;
      try {{
        session_id = ctx?.sessionManager?.getSessionId?.();
      }} catch {{}}
      const answer = await call(name, {{ event: name, payload, cwd: ctx?.cwd, session_id }});
      if (answer && answer.input && typeof answer.input === "object" && event && event.input) {{
        for (const key of Object.keys(event.input)) delete event.input[key];
        Object.assign(event.input, answer.input);
      }}
      return answer && typeof answer.result === "object" ? answer.result : undefined;
    }});
  }}
}}
"#,
        prelude = shim::prelude("pi", binary, "event"),
        events = shim::js_strings(events.iter().map(|row| row.native)),
        fields = shim::js_strings(SHAPE.sent()),
    )
}

/// Where Pi's events keep what Claude's fields hold.
const SHAPE: shim::PayloadShape = shim::PayloadShape {
    tool: ["toolName", "input", "toolCallId"],
    result: &["content", "isError"],
    copies: &[
        (EventName::UserPromptSubmit, "prompt", "prompt"),
        (EventName::SessionStart, "reason", "source"),
        (EventName::SessionEnd, "reason", "reason"),
    ],
    also_sent: &["type"],
};

static INFO: Info = Info::new("pi", "Pi", &TABLE, &INSTALL).with_names(&["event"]);

impl Agent for Pi {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, out: &mut Map<String, Value>) {
        SHAPE.reshape(row, out);
    }

    fn write(&self, event: &Event, _row: &EventRow, intent: Intent) -> Native {
        let mut out = Map::new();
        if let Some(Verdict::Deny) = intent.verdict {
            out.insert(
                "result".into(),
                json!({"block": true, "reason": intent.reason_or(DEFAULT_DENY)}),
            );
        }
        if let Some(input) = &intent.updated_input {
            out.insert("input".into(), Value::Object(input.clone()));
        }
        if let Some(text) = intent.added_text() {
            match event.name() {
                EventName::PostToolUse => {
                    let mut content = native_content(event);
                    content.push(json!({"type": "text", "text": text}));
                    out.insert("result".into(), json!({ "content": content }));
                }
                EventName::UserPromptSubmit => {
                    out.insert(
                        "result".into(),
                        json!({"message": {"customType": "agenthooks", "content": text, "display": false}}),
                    );
                }
                _ => {}
            }
        }
        Native::object_or_nothing(out, intent.notes)
    }
}

/// The tool result's content blocks as Pi sent them.
fn native_content(event: &Event) -> Vec<Value> {
    event
        .input()
        .get("payload")
        .and_then(|p| p.get("content"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
