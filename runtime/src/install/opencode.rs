//! OpenCode has no command hooks, only in-process JS plugins; install writes a
//! small plugin that hands each hook to `agenthooks run --agent opencode`.
//!
//! The contract between the plugin and the opencode adapter
//! (`crate::agents::opencode`):
//! - argv: `run --agent opencode --event <native>`, `<native>` being a plugin
//!   hook name (`tool.execute.before`, `chat.message`, ...) or a bus event
//!   type (`session.created`, `session.idle`, ...);
//! - stdin: `{"hook": <native>, "input": <the hook's input>, "output": <the
//!   hook's output object>, "directory", "worktree"}`; for bus events `input`
//!   is the event's `properties` and `output` is `{}`;
//! - stdout: nothing, or a JSON object: `"error"` (a string: the plugin throws
//!   it, which blocks a tool call), `"output"` (an object whose fields are
//!   assigned onto the hook's output: `args` to rewrite a tool call, `output`
//!   to replace a tool result, `status` for `permission.ask`);
//! - the binary's stderr lines are passed on to OpenCode's log; a failure of
//!   the binary itself allows (the runtime's failure policy is applied inside
//!   `run`, never here).

use std::path::Path;

use super::plan::NOT_INSTALLED;
use crate::agents::Table;

/// Bus events arrive through the plugin's `event` hook rather than by name.
fn is_bus_event(native: &str) -> bool {
    native.starts_with("session.")
        || native.starts_with("file.")
        || native.starts_with("message.")
        || native.starts_with("permission.asked")
        || native.starts_with("command.")
}

/// The plugin's source for this binary and the table's installed events.
///
/// `binary` is the bare name `agenthooks` (then `spawn` looks it up on the
/// `PATH` OpenCode runs with) or an absolute path; when it cannot be started
/// the plugin logs [`NOT_INSTALLED`] and allows.
pub(crate) fn plugin(binary: &Path, table: &Table) -> String {
    let binary = serde_json::to_string(&binary.to_string_lossy()).unwrap_or_default();
    let missing = serde_json::to_string(NOT_INSTALLED).unwrap_or_default();
    let mut hooks = String::new();
    let mut bus = Vec::new();
    for row in table.installed() {
        let name = serde_json::to_string(row.native).unwrap_or_default();
        if is_bus_event(row.native) {
            bus.push(name);
        } else {
            hooks.push_str(&format!(
                "    {name}: async (input, output) => act(await call({name}, input, output), output),\n"
            ));
        }
    }
    let bus = bus.join(", ");
    format!(
        r#"// Written by `agenthooks install opencode`: each hook below runs
// `agenthooks run --agent opencode --event <hook>`; `agenthooks uninstall opencode` removes this file.
import {{ spawn }} from "node:child_process";

const BINARY = {binary};
const MISSING = {missing};
const BUS_EVENTS = new Set([{bus}]);

function call(hook, input, output, context) {{
  return new Promise((resolve) => {{
    let stdout = "";
    let stderr = "";
    let child;
    try {{
      child = spawn(BINARY, ["run", "--agent", "opencode", "--event", hook], {{
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
    child.stdin.end(JSON.stringify({{ hook, input, output, ...context }}));
  }});
}}

function act(answer, output) {{
  if (answer && typeof answer.output === "object" && answer.output !== null && output) {{
    Object.assign(output, answer.output);
  }}
  if (answer && typeof answer.error === "string") throw new Error(answer.error);
}}

export const AgentHooks = async ({{ directory, worktree }}) => {{
  const context = {{ directory, worktree }};
  const run = (hook, input, output) => call(hook, input, output, context);
  return {{
{hooks_with_context}    event: async ({{ event }}) => {{
      if (event && BUS_EVENTS.has(event.type)) act(await run(event.type, event.properties ?? {{}}, {{}}), null);
    }},
  }};
}};
"#,
        hooks_with_context = hooks.replace("await call(", "await run(")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Caps, EventRow};
    use crate::protocol::EventName;

    static ROWS: &[EventRow] = &[
        EventRow::new(EventName::PreToolUse, "tool.execute.before", Caps::NONE),
        EventRow::new(EventName::SessionStart, "session.created", Caps::NONE),
        EventRow::new(EventName::Stop, "session.idle", Caps::NONE).decode_only(),
    ];
    static T: Table = Table {
        events: ROWS,
        tools: &[],
        renames: &[],
        fields: &[],
        notes: &[],
        plain_stdout: false,
    };

    #[test]
    fn plugin_registers_installed_hooks_and_bus_events_only() {
        let src = plugin(Path::new("/opt/it's/agenthooks"), &T);
        assert!(src.contains(r#"const BINARY = "/opt/it's/agenthooks";"#));
        assert!(src.contains(r#""tool.execute.before": async (input, output) => act(await run("tool.execute.before", input, output), output),"#));
        assert!(src.contains(r#"const BUS_EVENTS = new Set(["session.created"]);"#));
        assert!(!src.contains("session.idle"));
        assert!(src.lines().any(|l| crate::install::is_ours(l, "opencode")));
    }
}
