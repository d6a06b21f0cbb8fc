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

/// The `payload` object a shim sends (the agent's own event, as its plugin
/// API gave it), for an adapter's `reshape` to copy into Claude's fields.
pub(crate) struct Payload(Map<String, Value>);

impl Payload {
    /// The payload of the decoded shim body `out` (empty when it has none).
    pub(crate) fn of(out: &Map<String, Value>) -> Payload {
        let payload = out.get("payload").and_then(Value::as_object);
        Payload(payload.cloned().unwrap_or_default())
    }

    /// Each `(from, to)`: the payload's `from` as `to`, unless `out` has a
    /// `to` already.
    pub(crate) fn copy(&self, out: &mut Map<String, Value>, pairs: &[(&str, &str)]) {
        for (from, to) in pairs {
            if let Some(v) = self.0.get(*from) {
                out.entry(to.to_string()).or_insert(v.clone());
            }
        }
    }

    /// A tool event's Claude fields: the payload's keys for the tool's
    /// name, input and call id (`names`, in that order) as `tool_name`,
    /// `tool_input` and `tool_use_id`; after the tool (`post`), `result`'s
    /// keys gathered as `tool_response`.
    pub(crate) fn tool_event(
        &self,
        out: &mut Map<String, Value>,
        names: [&str; 3],
        post: bool,
        result: &[&str],
    ) {
        let [name, input, id] = names;
        let pairs = [
            (name, "tool_name"),
            (input, "tool_input"),
            (id, "tool_use_id"),
        ];
        self.copy(out, &pairs);
        if post {
            out.insert("tool_response".into(), self.gather(result));
        }
    }

    /// An object of `keys` as sent, `null` for each one absent: the
    /// agent's tool result, kept whole under `tool_response`.
    pub(crate) fn gather(&self, keys: &[&str]) -> Value {
        let fields = keys.iter().map(|k| {
            let v = self.0.get(*k).cloned().unwrap_or(Value::Null);
            (k.to_string(), v)
        });
        Value::Object(fields.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prelude_quotes_its_values_and_is_recognised_as_ours() {
        let src = prelude("pi", Path::new("/opt/it's \"x\"/agenthooks"), "event");
        assert!(src.contains(r#"const BINARY = "/opt/it's \"x\"/agenthooks";"#));
        assert!(src.contains(r#"const AGENT = "pi";"#));
        assert!(src.lines().any(|l| crate::install::is_ours(l, "pi")));
        assert!(!src.lines().any(|l| crate::install::is_ours(l, "opencode")));
    }
}
