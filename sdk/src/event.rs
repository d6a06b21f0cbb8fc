//! The event a hook receives: Claude Code's hook input, with typed accessors.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What a tool does, so one hook can match "any shell" across agents.
///
/// The host computes it from the canonical (Claude Code) tool name; in native
/// mode the SDK computes it with the same table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolKind {
    /// Runs a shell command (`Bash`, `PowerShell`).
    Shell,
    /// Reads or searches files (`Read`, `Glob`, `Grep`, `LS`).
    Read,
    /// Writes or edits files (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`).
    Write,
    /// An MCP tool (`mcp__<server>__<tool>`).
    Mcp,
    /// Anything else.
    Other,
}

impl ToolKind {
    /// The kind of a tool, by its canonical (Claude Code) name.
    ///
    /// The same table as the runtime's `agenthooks::protocol::ToolKind::of`.
    pub fn of(tool_name: &str) -> ToolKind {
        match tool_name {
            "Bash" | "PowerShell" => ToolKind::Shell,
            "Read" | "Glob" | "Grep" | "LS" => ToolKind::Read,
            "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::Write,
            name if name.starts_with("mcp__") => ToolKind::Mcp,
            _ => ToolKind::Other,
        }
    }

    /// The lower-case name used on the wire (`shell`, `read`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Shell => "shell",
            ToolKind::Read => "read",
            ToolKind::Write => "write",
            ToolKind::Mcp => "mcp",
            ToolKind::Other => "other",
        }
    }

    /// Parse the wire name; `None` for anything else.
    pub fn parse(s: &str) -> Option<ToolKind> {
        match s {
            "shell" => Some(ToolKind::Shell),
            "read" => Some(ToolKind::Read),
            "write" => Some(ToolKind::Write),
            "mcp" => Some(ToolKind::Mcp),
            "other" => Some(ToolKind::Other),
            _ => None,
        }
    }
}

impl fmt::Display for ToolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why some JSON could not become an [`Event`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventError {
    /// The text is not JSON.
    NotJson(String),
    /// The input is not a JSON object.
    NotAnObject,
    /// The input has no `hook_event_name`.
    NoEventName,
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::NotJson(why) => write!(f, "the hook input is not JSON: {why}"),
            EventError::NotAnObject => f.write_str("the hook input is not a JSON object"),
            EventError::NoEventName => f.write_str("the hook input has no `hook_event_name`"),
        }
    }
}

impl std::error::Error for EventError {}

/// One event, in Claude Code's shape.
///
/// The common fields have accessors; [`Event::input`] is the whole hook
/// input, exactly what a command hook reads on stdin (with `harness` and
/// `tool_kind` added by agenthooks), so nothing an agent sent is lost.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    name: String,
    harness: String,
    tool_name: Option<String>,
    tool_kind: Option<ToolKind>,
    session_id: Option<String>,
    cwd: Option<String>,
    input: Value,
}

/// The harness assumed when the input names none: a hook run directly by
/// Claude Code (native mode) gets Claude Code's input, which has no `harness`.
const DEFAULT_HARNESS: &str = "claude";

impl Event {
    /// Build an event from a Claude Code hook input object, as a command hook
    /// reads it on stdin. Useful in unit tests:
    ///
    /// ```
    /// use agenthooks_sdk::{Event, ToolKind};
    /// use serde_json::json;
    ///
    /// let event = Event::from_json(json!({
    ///     "hook_event_name": "PreToolUse",
    ///     "tool_name": "Bash",
    ///     "tool_input": {"command": "ls -la"},
    /// }))?;
    /// assert_eq!(event.tool_kind(), Some(ToolKind::Shell));
    /// assert_eq!(event.shell_command(), Some("ls -la"));
    /// assert_eq!(event.harness(), "claude");
    /// # Ok::<(), agenthooks_sdk::EventError>(())
    /// ```
    ///
    /// `harness` defaults to `claude` and `tool_kind` is computed from
    /// `tool_name` when the input does not carry them.
    ///
    /// # Errors
    /// When `input` is not an object or has no `hook_event_name`.
    pub fn from_json(input: Value) -> Result<Event, EventError> {
        let Value::Object(map) = &input else {
            return Err(EventError::NotAnObject);
        };
        let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
        let name = text("hook_event_name").ok_or(EventError::NoEventName)?;
        let tool_name = text("tool_name");
        let tool_kind = map
            .get("tool_kind")
            .and_then(Value::as_str)
            .and_then(ToolKind::parse)
            .or_else(|| tool_name.as_deref().map(ToolKind::of));
        Ok(Event {
            name,
            harness: text("harness").unwrap_or_else(|| DEFAULT_HARNESS.to_string()),
            tool_name,
            tool_kind,
            session_id: text("session_id"),
            cwd: text("cwd"),
            input,
        })
    }

    /// Parse an event from the JSON text of a Claude Code hook input.
    ///
    /// # Errors
    /// When the text is not JSON, or as [`Event::from_json`].
    pub fn from_json_str(text: &str) -> Result<Event, EventError> {
        let value = serde_json::from_str(text).map_err(|e| EventError::NotJson(e.to_string()))?;
        Event::from_json(value)
    }

    /// Assemble an event from the typed fields the host sends and the input text.
    pub(crate) fn from_parts(
        name: String,
        harness: String,
        tool_name: Option<String>,
        tool_kind: Option<ToolKind>,
        session_id: Option<String>,
        cwd: Option<String>,
        input: &str,
    ) -> Result<Event, EventError> {
        let input: Value =
            serde_json::from_str(input).map_err(|e| EventError::NotJson(e.to_string()))?;
        if !input.is_object() {
            return Err(EventError::NotAnObject);
        }
        Ok(Event {
            name,
            harness,
            tool_name,
            tool_kind,
            session_id,
            cwd,
            input,
        })
    }

    /// Claude Code's event name: `PreToolUse`, `SessionStart`, `Stop`, ...
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The agent that sent the event: `claude`, `codex`, `gemini`, ...
    pub fn harness(&self) -> &str {
        &self.harness
    }

    /// The tool's canonical (Claude Code) name, for tool events: `Bash`, `Edit`, `mcp__s__t`.
    pub fn tool_name(&self) -> Option<&str> {
        self.tool_name.as_deref()
    }

    /// What the tool does, for tool events.
    pub fn tool_kind(&self) -> Option<ToolKind> {
        self.tool_kind
    }

    /// The agent's session id.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The agent's working directory, a host path. A wasm hook can read under
    /// it only when `.agents/hooks.json` grants it (`"allow": {"read": [...]}`).
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The whole hook input, as a JSON object.
    pub fn input(&self) -> &Value {
        &self.input
    }

    /// A string field of the input (`source`, `transcript_path`, ...).
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }

    /// `tool_input`, for tool events.
    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        self.input.get("tool_input").and_then(Value::as_object)
    }

    /// `tool_input.command`, for shell tools (`Bash`, `PowerShell`) only.
    pub fn shell_command(&self) -> Option<&str> {
        if self.tool_kind != Some(ToolKind::Shell) {
            return None;
        }
        self.tool_input()?.get("command")?.as_str()
    }

    /// The file a tool touches: `tool_input.file_path`, else `path`, else
    /// `notebook_path` (`Read`, `Write`, `Edit`, `NotebookEdit`, `Glob`, ...).
    pub fn file_path(&self) -> Option<&str> {
        let input = self.tool_input()?;
        ["file_path", "path", "notebook_path"]
            .iter()
            .find_map(|key| input.get(*key).and_then(Value::as_str))
    }

    /// `prompt`, the user's prompt (`UserPromptSubmit`).
    pub fn prompt(&self) -> Option<&str> {
        self.str_field("prompt")
    }

    /// `tool_input`, deserialized into your own type.
    ///
    /// # Errors
    /// When the event has no `tool_input` or it does not fit `T`.
    pub fn tool_input_as<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        let input = self.input.get("tool_input").cloned().unwrap_or(Value::Null);
        serde_json::from_value(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pre_tool(tool: &str, input: Value) -> Event {
        Event::from_json(json!({
            "hook_event_name": "PreToolUse",
            "session_id": "s1",
            "cwd": "/repo",
            "tool_name": tool,
            "tool_input": input,
        }))
        .unwrap()
    }

    #[test]
    fn from_json_reads_the_common_fields() {
        let ev = pre_tool("Bash", json!({"command": "ls"}));
        assert_eq!(ev.name(), "PreToolUse");
        assert_eq!(ev.harness(), "claude");
        assert_eq!(ev.tool_name(), Some("Bash"));
        assert_eq!(ev.tool_kind(), Some(ToolKind::Shell));
        assert_eq!(ev.session_id(), Some("s1"));
        assert_eq!(ev.cwd(), Some("/repo"));
        assert_eq!(ev.input()["tool_input"]["command"], "ls");
    }

    #[test]
    fn harness_and_tool_kind_from_the_input_win() {
        let ev = Event::from_json(json!({
            "hook_event_name": "PreToolUse", "harness": "gemini",
            "tool_name": "run_thing", "tool_kind": "shell",
            "tool_input": {"command": "x"}
        }))
        .unwrap();
        assert_eq!(ev.harness(), "gemini");
        assert_eq!(ev.tool_kind(), Some(ToolKind::Shell));
        assert_eq!(ev.shell_command(), Some("x"));
    }

    #[test]
    fn shell_command_only_for_shell_tools() {
        let ev = pre_tool("Task", json!({"command": "rm -rf /"}));
        assert_eq!(ev.shell_command(), None);
        assert_eq!(
            pre_tool("PowerShell", json!({"command": "dir"})).shell_command(),
            Some("dir")
        );
    }

    #[test]
    fn file_path_tries_each_spelling() {
        assert_eq!(
            pre_tool("Write", json!({"file_path": "/a"})).file_path(),
            Some("/a")
        );
        assert_eq!(
            pre_tool("Grep", json!({"path": "/b"})).file_path(),
            Some("/b")
        );
        assert_eq!(
            pre_tool("NotebookEdit", json!({"notebook_path": "/c.ipynb"})).file_path(),
            Some("/c.ipynb")
        );
        assert_eq!(pre_tool("Bash", json!({"command": "x"})).file_path(), None);
    }

    #[test]
    fn tool_input_as_deserializes_or_errors() {
        #[derive(serde::Deserialize)]
        struct Write {
            file_path: String,
            content: String,
        }
        let ev = pre_tool("Write", json!({"file_path": "/a", "content": "hi"}));
        let w: Write = ev.tool_input_as().unwrap();
        assert_eq!((w.file_path.as_str(), w.content.as_str()), ("/a", "hi"));
        let none = Event::from_json(json!({"hook_event_name": "Stop"})).unwrap();
        assert!(none.tool_input_as::<Write>().is_err());
        assert!(none.tool_input().is_none());
    }

    #[test]
    fn prompt_and_str_field() {
        let ev = Event::from_json(
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi", "source": "x"}),
        )
        .unwrap();
        assert_eq!(ev.prompt(), Some("hi"));
        assert_eq!(ev.str_field("source"), Some("x"));
        assert_eq!(ev.tool_kind(), None);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert_eq!(Event::from_json(json!([1])), Err(EventError::NotAnObject));
        assert_eq!(Event::from_json(json!({})), Err(EventError::NoEventName));
        assert!(matches!(
            Event::from_json_str("{"),
            Err(EventError::NotJson(_))
        ));
        assert_eq!(
            EventError::NoEventName.to_string(),
            "the hook input has no `hook_event_name`"
        );
    }

    #[test]
    fn tool_kind_table_matches_the_runtime() {
        for (name, kind) in [
            ("Bash", ToolKind::Shell),
            ("PowerShell", ToolKind::Shell),
            ("Read", ToolKind::Read),
            ("Glob", ToolKind::Read),
            ("Grep", ToolKind::Read),
            ("LS", ToolKind::Read),
            ("Write", ToolKind::Write),
            ("Edit", ToolKind::Write),
            ("MultiEdit", ToolKind::Write),
            ("NotebookEdit", ToolKind::Write),
            ("mcp__memory__create", ToolKind::Mcp),
            ("WebFetch", ToolKind::Other),
        ] {
            assert_eq!(ToolKind::of(name), kind, "{name}");
            assert_eq!(ToolKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(ToolKind::parse("bogus"), None);
    }
}
