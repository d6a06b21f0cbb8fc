//! What every plugin agent's shim (OpenCode's and Kilo's plugin, Pi's
//! extension) shares: the JavaScript that starts `agenthooks run` for one
//! event and reads its answer. Each agent's module writes the rest (which
//! events it registers and how it acts on an answer).
//!
//! The contract of [`prelude`]'s `call(event, body)`:
//! - argv: `run --agent <id> --event <event>`;
//! - stdin: `body` as one JSON document;
//! - it resolves to the answer parsed from stdout, or `{}` for an empty or
//!   unreadable stdout and for a binary that cannot be started (the agent is
//!   then allowed, with [`NOT_INSTALLED`] or the error in its log: a missing
//!   binary never blocks an agent; the runtime's failure policy applies
//!   inside `run`, never here);
//! - the binary's stderr lines are passed on to the agent's log.

use std::path::Path;

use serde_json::{Map, Value};

use super::EventRow;
use crate::protocol::EventName;

/// The one line an entry's launcher (an install command line, a shim)
/// prints on stderr when it cannot find `agenthooks` (it then answers "no
/// opinion", so the agent goes on): the platform's install line
/// ([`crate::origin`]). Re-exported here, below `install`, which writes the
/// command lines that print it too.
pub use crate::origin::{NOT_INSTALLED, NOT_INSTALLED_WINDOWS};

/// The header comment that marks a shim as ours (`install` recognises its
/// files by the `agenthooks run --agent <id>` it contains), the `spawn`
/// import, `BINARY`, `AGENT`, `MISSING` and `call`. `what` names the
/// agent's unit (`hook`, `event`).
///
/// `binary` is the bare name `agenthooks` (then `spawn` looks it up on the
/// `PATH` the agent runs with) or an absolute path.
pub(crate) fn prelude(id: &str, binary: &Path, what: &str) -> String {
    let binary = serde_json::to_string(&binary.to_string_lossy()).unwrap_or_default();
    let missing = serde_json::to_string(NOT_INSTALLED).unwrap_or_default();
    let missing_windows = serde_json::to_string(NOT_INSTALLED_WINDOWS).unwrap_or_default();
    let agent = serde_json::to_string(id).unwrap_or_default();
    format!(
        r#"// Written by `agenthooks install {id}`: each {what} below runs
// `agenthooks run --agent {id} --event <{what}>`; `agenthooks uninstall {id}` removes this file.
import {{ spawn }} from "node:child_process";

const BINARY = {binary};
const AGENT = {agent};
const MISSING = process.platform === "win32" ? {missing_windows} : {missing};

function call(event, body) {{
  return new Promise((resolve) => {{
    let stdout = "";
    let stderr = "";
    let child;
    try {{
      child = spawn(BINARY, ["run", "--agent", AGENT, "--event", event], {{
        stdio: ["pipe", "pipe", "pipe"],
      }});
    }} catch (err) {{
      console.error(err && err.code === "ENOENT" ? MISSING : `agenthooks: cannot start ${{BINARY}}: ${{err}}; allowing`);
      return resolve({{}});
    }}
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => {{
      console.error(err && err.code === "ENOENT" ? MISSING : `agenthooks: ${{err}}; allowing`);
      resolve({{}});
    }});
    child.on("close", () => {{
      for (const line of stderr.split("\n")) if (line.trim()) console.error(line);
      const text = stdout.trim();
      if (!text) return resolve({{}});
      try {{
        resolve(JSON.parse(text));
      }} catch {{
        console.error(`agenthooks: unreadable answer ${{JSON.stringify(text.slice(0, 200))}}; allowing`);
        resolve({{}});
      }}
    }});
    child.stdin.on("error", () => {{}});
    child.stdin.end(JSON.stringify(body));
  }});
}}
"#
    )
}

/// A JavaScript array's items: each string quoted as JSON, joined by `, `
/// (the events a shim subscribes to, the fields it sends).
pub(crate) fn js_strings<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items
        .into_iter()
        .map(|item| serde_json::to_string(item).unwrap_or_default())
        .collect();
    quoted.join(", ")
}

/// Where a shim's `payload` (the agent's own event, as its plugin API gave
/// it) keeps what Claude's fields hold: one agent's reshaping, as data.
pub(crate) struct PayloadShape {
    /// The payload's keys for the tool's name, input and call id, read as
    /// `tool_name`, `tool_input` and `tool_use_id`.
    pub tool: [&'static str; 3],
    /// After the tool, the keys gathered (each as sent, `null` when absent)
    /// as `tool_response`: the agent's tool result, kept whole.
    pub result: &'static [&'static str],
    /// For one event, a payload key copied as a Claude field, unless the
    /// decoded body has that field already.
    pub copies: &'static [(EventName, &'static str, &'static str)],
    /// Keys sent for no Claude field (kept in the payload a hook sees).
    pub also_sent: &'static [&'static str],
}

impl PayloadShape {
    /// Every payload key the shim sends, each once: the rest of the
    /// agent's event (a system prompt, every message of the turn) is large
    /// and read by no hook.
    pub(crate) fn sent(&self) -> Vec<&'static str> {
        let copied = self.copies.iter().map(|(_, from, _)| *from);
        let all = self.tool.iter().copied().chain(self.result.iter().copied());
        let mut sent = Vec::new();
        for key in all.chain(copied).chain(self.also_sent.iter().copied()) {
            if !sent.contains(&key) {
                sent.push(key);
            }
        }
        sent
    }

    /// Adds to the decoded shim body `out` the Claude fields that `row`'s
    /// event reads from its `payload`.
    pub(crate) fn reshape(&self, row: &EventRow, out: &mut Map<String, Value>) {
        let payload = out
            .get("payload")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut copy = |from: &str, to: &str| {
            if let Some(v) = payload.get(from) {
                out.entry(to.to_string()).or_insert(v.clone());
            }
        };
        if matches!(
            row.canonical,
            EventName::PreToolUse | EventName::PostToolUse
        ) {
            let [name, input, id] = self.tool;
            copy(name, "tool_name");
            copy(input, "tool_input");
            copy(id, "tool_use_id");
        }
        for (event, from, to) in self.copies {
            if *event == row.canonical {
                copy(from, to);
            }
        }
        if row.canonical == EventName::PostToolUse {
            let fields = self.result.iter().map(|k| {
                let v = payload.get(*k).cloned().unwrap_or(Value::Null);
                (k.to_string(), v)
            });
            out.insert("tool_response".into(), Value::Object(fields.collect()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_shape_sends_each_key_once_and_reshapes_by_event() {
        const SHAPE: PayloadShape = PayloadShape {
            tool: ["tool", "input", "id"],
            result: &["output", "error"],
            copies: &[(EventName::UserPromptSubmit, "text", "prompt")],
            also_sent: &["input", "kind"],
        };
        assert_eq!(
            SHAPE.sent(),
            ["tool", "input", "id", "output", "error", "text", "kind"]
        );
        let row = |event| crate::agents::claude::TABLE.by_canonical(event).unwrap();
        let body = |payload: serde_json::Value| {
            let mut out = Map::new();
            out.insert("payload".into(), payload);
            out
        };
        let mut post =
            body(serde_json::json!({"tool": "Bash", "input": {"command": "ls"}, "output": "a"}));
        post.insert("tool_name".into(), "Kept".into());
        SHAPE.reshape(row(EventName::PostToolUse), &mut post);
        assert_eq!(
            post["tool_name"], "Kept",
            "a field the body has already stays"
        );
        assert_eq!(post["tool_input"]["command"], "ls");
        assert_eq!(
            post["tool_response"],
            serde_json::json!({"output": "a", "error": null})
        );
        assert!(!post.contains_key("prompt"));
        let mut prompt = body(serde_json::json!({"text": "hi", "tool": "Bash"}));
        SHAPE.reshape(row(EventName::UserPromptSubmit), &mut prompt);
        assert_eq!(prompt["prompt"], "hi");
        assert!(
            !prompt.contains_key("tool_name"),
            "tool fields only at tool events"
        );
    }

    #[test]
    fn the_prelude_quotes_its_values_and_is_recognised_as_ours() {
        let src = prelude("pi", Path::new("/opt/it's \"x\"/agenthooks"), "event");
        assert!(src.contains(r#"const BINARY = "/opt/it's \"x\"/agenthooks";"#));
        assert!(src.contains(r#"const AGENT = "pi";"#));
        assert!(src.lines().any(|l| crate::install::is_ours(l, "pi")));
        assert!(!src.lines().any(|l| crate::install::is_ours(l, "opencode")));
    }
}
