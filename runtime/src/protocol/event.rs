//! The canonical event: Claude Code's hook input, plus `harness` and `tool_kind`.
//!
//! Every adapter decodes its agent's native payload into an [`Event`]; every hook
//! sees [`Event::to_json`]. The whole input is kept as a JSON object so that no
//! field an agent sent is lost, and the common fields are read from it through
//! typed accessors.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

macro_rules! event_names {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        /// A hook event, spelled as Claude Code spells it (the contract).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
        pub enum EventName {
            $($(#[$doc])* $name,)*
        }

        impl EventName {
            /// Every event, in Claude Code's documentation order.
            pub const ALL: &'static [EventName] = &[$(EventName::$name,)*];

            /// The event's name as Claude Code writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventName::$name => stringify!($name),)*
                }
            }
        }

        impl FromStr for EventName {
            type Err = UnknownEvent;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $(stringify!($name) => Ok(EventName::$name),)*
                    _ => Err(UnknownEvent(s.to_string())),
                }
            }
        }
    };
}

event_names! {
    /// A session starts, resumes, is cleared or compacted.
    SessionStart,
    /// Repository setup (`init` / `maintenance`).
    Setup,
    /// The user submitted a prompt.
    UserPromptSubmit,
    /// A slash command expanded into a prompt.
    UserPromptExpansion,
    /// A tool is about to run.
    PreToolUse,
    /// The agent is about to ask the user for permission.
    PermissionRequest,
    /// A permission was denied.
    PermissionDenied,
    /// A tool ran successfully.
    PostToolUse,
    /// A tool failed.
    PostToolUseFailure,
    /// A batch of tool calls finished.
    PostToolBatch,
    /// The agent shows a notification.
    Notification,
    /// The agent displays a message.
    MessageDisplay,
    /// A subagent starts.
    SubagentStart,
    /// A subagent wants to stop.
    SubagentStop,
    /// A task was created.
    TaskCreated,
    /// A task completed.
    TaskCompleted,
    /// The agent wants to stop.
    Stop,
    /// The turn ended with an error.
    StopFailure,
    /// A teammate went idle.
    TeammateIdle,
    /// Instructions (CLAUDE.md, ...) were loaded.
    InstructionsLoaded,
    /// A configuration file changed.
    ConfigChange,
    /// The working directory changed.
    CwdChanged,
    /// A directory was added to the workspace.
    DirectoryAdded,
    /// A watched file changed.
    FileChanged,
    /// A worktree is being created.
    WorktreeCreate,
    /// A worktree is being removed.
    WorktreeRemove,
    /// The conversation is about to be compacted.
    PreCompact,
    /// The conversation was compacted.
    PostCompact,
    /// An MCP server asks the user for input.
    Elicitation,
    /// The user answered an elicitation.
    ElicitationResult,
    /// The user or a client asked to switch the session's model (Claude Code
    /// 2.1.251): `from_model`, `to_model`; a hook may allow, deny or ask.
    PreModelSwitch,
    /// The session's model changed, also by fallback or resume (Claude Code
    /// 2.1.251): `from_model`, `to_model`; observed, may add context.
    PostModelSwitch,
    /// The session ends.
    SessionEnd,
}

/// What Claude Code does at one event: the per-event rules the aggregator,
/// the output parser and the adapters read (`docs/agent-protocols.md`
/// §1). One row per event in [`EventName::facts`].
#[derive(Debug, Clone, Copy)]
struct Facts {
    /// The input field a matcher is tested against, if any.
    matcher: Option<&'static str>,
    /// Takes a permission verdict (`permissionDecision` / `decision.behavior`).
    permission: bool,
    /// Honours a top-level `decision: "block"` (or exit 2).
    block: bool,
    /// A refusal keeps the agent from doing something (see [`EventName::can_veto`]).
    veto: bool,
    /// Plain stdout becomes context.
    plain_text_context: bool,
    /// Fires after a tool ran (or failed).
    after_tool: bool,
    /// Fires on the user's prompt.
    prompt: bool,
}

const OBSERVED: Facts = Facts {
    matcher: None,
    permission: false,
    block: false,
    veto: false,
    plain_text_context: false,
    after_tool: false,
    prompt: false,
};
const BLOCKS: Facts = Facts {
    block: true,
    ..OBSERVED
};
const fn on(matcher: &'static str, facts: Facts) -> Facts {
    Facts {
        matcher: Some(matcher),
        ..facts
    }
}

impl EventName {
    /// The one table of per-event rules: every other fact about an event is
    /// read from here, so an event's rules are one row (the match is
    /// exhaustive). The other files a new event touches are listed in
    /// `crate::agents`' module docs.
    const fn facts(self) -> Facts {
        use EventName::*;
        const PERMISSION: Facts = Facts {
            permission: true,
            veto: true,
            ..OBSERVED
        };
        const PROMPT: Facts = Facts {
            veto: true,
            plain_text_context: true,
            prompt: true,
            ..BLOCKS
        };
        const VETO: Facts = Facts {
            veto: true,
            ..BLOCKS
        };
        match self {
            SessionStart => on(
                "source",
                Facts {
                    plain_text_context: true,
                    ..OBSERVED
                },
            ),
            Setup => on("trigger", OBSERVED),
            UserPromptSubmit => PROMPT,
            UserPromptExpansion => on("command_name", PROMPT),
            PreToolUse | PermissionRequest => on("tool_name", PERMISSION),
            PermissionDenied => on("tool_name", OBSERVED),
            PostToolUse => on(
                "tool_name",
                Facts {
                    after_tool: true,
                    ..BLOCKS
                },
            ),
            // Observation only: Claude Code shows the failure and takes
            // context, but no `decision` (its capability row says so too).
            PostToolUseFailure => on(
                "tool_name",
                Facts {
                    after_tool: true,
                    ..OBSERVED
                },
            ),
            PostToolBatch | Stop | TeammateIdle | TaskCompleted => BLOCKS,
            Notification => on("notification_type", OBSERVED),
            MessageDisplay | CwdChanged | DirectoryAdded | WorktreeRemove => OBSERVED,
            SubagentStart => on("agent_type", OBSERVED),
            SubagentStop => on("agent_type", BLOCKS),
            TaskCreated | WorktreeCreate => VETO,
            StopFailure => on("error_type", OBSERVED),
            InstructionsLoaded => on("load_reason", OBSERVED),
            ConfigChange => on("source", BLOCKS),
            FileChanged => on("file_path", OBSERVED),
            PreCompact => on("trigger", BLOCKS),
            PostCompact => on("trigger", OBSERVED),
            Elicitation => on("mcp_server_name", VETO),
            ElicitationResult => on("mcp_server_name", BLOCKS),
            // A refused switch keeps the current model: safe to veto.
            PreModelSwitch => on("to_model", PERMISSION),
            PostModelSwitch => on(
                "to_model",
                Facts {
                    plain_text_context: true,
                    ..OBSERVED
                },
            ),
            SessionEnd => on("reason", OBSERVED),
        }
    }

    /// Whether this event carries `tool_name` / `tool_input`: exactly the
    /// events whose matcher is tested against the tool name.
    pub fn is_tool_event(self) -> bool {
        self.matcher_field() == Some("tool_name")
    }

    /// The input field a matcher is tested against for this event, if the event
    /// supports matchers at all (Claude Code ignores a matcher elsewhere).
    pub fn matcher_field(self) -> Option<&'static str> {
        self.facts().matcher
    }

    /// Whether the event takes a permission verdict (PreToolUse's
    /// `permissionDecision`, PermissionRequest's `decision.behavior`) rather
    /// than a top-level `decision: "block"`.
    pub fn takes_permission(self) -> bool {
        self.facts().permission
    }

    /// Whether Claude Code honours a top-level `decision: "block"` (or exit 2)
    /// here. The permission events are not listed: their decisions have their
    /// own fields. After a tool, a block is not a veto but gives the reason to
    /// the agent.
    pub fn takes_block(self) -> bool {
        self.facts().block
    }

    /// Whether a hook can refuse anything here: a permission verdict or a block.
    pub fn can_refuse(self) -> bool {
        self.takes_permission() || self.takes_block()
    }

    /// Whether a refusal keeps the agent from doing something (a tool call, a
    /// prompt, a new worktree or task), rather than making it keep going
    /// (Stop) or telling it after the fact (PostToolUse). Where the
    /// configuration itself is broken and the user asked to fail closed
    /// (`onConfigError`), these are the events refused: refusing a Stop would
    /// trap the agent in a loop, refusing a compaction or a settings change
    /// could keep the session from recovering.
    pub fn can_veto(self) -> bool {
        self.facts().veto
    }

    /// Whether Claude Code adds a hook's plain (non-JSON) stdout as context.
    pub fn plain_text_is_context(self) -> bool {
        self.facts().plain_text_context
    }

    /// Whether the event fires after a tool ran or failed, where "block"
    /// means "give the reason to the agent" (DESIGN §3).
    pub fn is_after_tool(self) -> bool {
        self.facts().after_tool
    }

    /// Whether the event fires on the user's prompt, where not taking the
    /// prompt is the nearest safe reading of "stop".
    pub fn is_prompt(self) -> bool {
        self.facts().prompt
    }
}

impl fmt::Display for EventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An event name that is not one of Claude Code's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
// The name comes from a payload or a config: one bounded line.
#[error("unknown event `{}`", super::one_line(.0))]
pub struct UnknownEvent(pub String);

/// What kind of thing a tool does, so a hook can match "any shell" across agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    /// Runs a shell command (`Bash`, `PowerShell`).
    Shell,
    /// Reads files or searches them (`Read`, `Glob`, `Grep`, `LS`).
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
    pub fn of(tool_name: &str) -> ToolKind {
        match tool_name {
            "Bash" | "PowerShell" => ToolKind::Shell,
            "Read" | "Glob" | "Grep" | "LS" => ToolKind::Read,
            "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::Write,
            name if name.starts_with("mcp__") => ToolKind::Mcp,
            _ => ToolKind::Other,
        }
    }

    /// The lower-case name used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Shell => "shell",
            ToolKind::Read => "read",
            ToolKind::Write => "write",
            ToolKind::Mcp => "mcp",
            ToolKind::Other => "other",
        }
    }
}

/// One event in canonical form: Claude Code's input for `name`, as a JSON object.
///
/// `input` always holds `hook_event_name`, and after [`Event::new`] also
/// `harness` and (for tool events) `tool_kind`, so the JSON a hook reads is
/// exactly [`Event::to_json`].
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    name: EventName,
    harness: String,
    input: Map<String, Value>,
    /// The agent's own name for the event, when an adapter decoded it (not
    /// part of the input a hook sees; encode answers in its terms).
    native: Option<String>,
}

/// Why a JSON value could not become an [`Event`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EventError {
    /// The input is not a JSON object.
    #[error("the hook input is not a JSON object")]
    NotAnObject,
    /// No event name, neither in the input nor given on the command line.
    #[error("the hook input has no `hook_event_name`; pass `--event`")]
    NoEventName,
    /// The event name is not one of Claude Code's.
    #[error(transparent)]
    Unknown(#[from] UnknownEvent),
}

impl Event {
    /// Build an event from a Claude-shaped input object.
    ///
    /// `name` overrides `hook_event_name` when given (agents whose payloads do
    /// not name the event pass it in argv). `harness` is the agent id.
    ///
    /// # Errors
    /// When `input` is not an object or names no known event.
    pub fn new(input: Value, name: Option<EventName>, harness: &str) -> Result<Event, EventError> {
        let Value::Object(mut input) = input else {
            return Err(EventError::NotAnObject);
        };
        let name = match name {
            Some(name) => name,
            None => match input.get("hook_event_name").and_then(Value::as_str) {
                Some(s) => s.parse()?,
                None => return Err(EventError::NoEventName),
            },
        };
        input.insert(
            "hook_event_name".into(),
            Value::String(name.as_str().into()),
        );
        input.insert("harness".into(), Value::String(harness.into()));
        if let Some(tool) = input.get("tool_name").and_then(Value::as_str) {
            let kind = ToolKind::of(tool);
            input.insert("tool_kind".into(), Value::String(kind.as_str().into()));
        }
        Ok(Event {
            name,
            harness: harness.to_string(),
            input,
            native: None,
        })
    }

    /// The event's name.
    pub fn name(&self) -> EventName {
        self.name
    }

    /// The same event, recording the agent's own name for it.
    pub fn with_native(mut self, native: &str) -> Event {
        self.native = Some(native.to_string());
        self
    }

    /// The agent's own name for the event, if an adapter recorded it.
    pub fn native_name(&self) -> Option<&str> {
        self.native.as_deref()
    }

    /// The agent that sent the event (`claude`, `codex`, ...).
    pub fn harness(&self) -> &str {
        &self.harness
    }

    /// The whole canonical input.
    pub fn input(&self) -> &Map<String, Value> {
        &self.input
    }

    /// The whole canonical input, mutably (adapters fill it in).
    pub fn input_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.input
    }

    /// The JSON document a hook receives on stdin.
    pub fn to_json(&self) -> Value {
        Value::Object(self.input.clone())
    }

    /// A string field of the input.
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }

    /// `session_id`.
    pub fn session_id(&self) -> Option<&str> {
        self.str_field("session_id")
    }

    /// `cwd`, the agent's working directory.
    pub fn cwd(&self) -> Option<PathBuf> {
        self.str_field("cwd").map(PathBuf::from)
    }

    /// `tool_name`, canonical.
    pub fn tool_name(&self) -> Option<&str> {
        self.str_field("tool_name")
    }

    /// The kind of the tool, for tool events.
    pub fn tool_kind(&self) -> Option<ToolKind> {
        self.tool_name().map(ToolKind::of)
    }

    /// `tool_input`.
    pub fn tool_input(&self) -> Option<&Value> {
        self.input.get("tool_input")
    }

    /// The value a matcher is tested against for this event, if any.
    pub fn matcher_target(&self) -> Option<&str> {
        self.name.matcher_field().and_then(|f| self.str_field(f))
    }

    /// The text an `if` regex is tested against: `tool_input.command` for shell
    /// tools, else the JSON of `tool_input`.
    pub fn if_target(&self) -> Option<String> {
        let input = self.tool_input()?;
        if self.tool_kind() == Some(ToolKind::Shell) {
            if let Some(cmd) = input.get("command").and_then(Value::as_str) {
                return Some(cmd.to_string());
            }
        }
        Some(input.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_event_name_round_trips() {
        for name in EventName::ALL {
            assert_eq!(name.as_str().parse::<EventName>().unwrap(), *name);
            let json = serde_json::to_value(name).unwrap();
            assert_eq!(json, json!(name.as_str()));
        }
        assert_eq!(EventName::ALL.len(), 33);
    }

    #[test]
    fn new_adds_harness_and_tool_kind() {
        let ev = Event::new(
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp"}),
            None,
            "claude",
        )
        .unwrap();
        assert_eq!(ev.name(), EventName::PreToolUse);
        assert_eq!(ev.input()["harness"], "claude");
        assert_eq!(ev.input()["tool_kind"], "shell");
        assert_eq!(ev.if_target().as_deref(), Some("ls"));
        assert_eq!(ev.matcher_target(), Some("Bash"));
    }

    #[test]
    fn argv_event_overrides_missing_name() {
        let ev = Event::new(
            json!({"toolName":"bash"}),
            Some(EventName::PreToolUse),
            "copilot",
        )
        .unwrap();
        assert_eq!(ev.input()["hook_event_name"], "PreToolUse");
        assert_eq!(
            Event::new(json!({}), None, "x"),
            Err(EventError::NoEventName)
        );
        assert_eq!(
            Event::new(json!([1]), None, "x"),
            Err(EventError::NotAnObject)
        );
        assert!(matches!(
            Event::new(json!({"hook_event_name":"Nope"}), None, "x"),
            Err(EventError::Unknown(_))
        ));
    }

    #[test]
    fn tool_kinds() {
        assert_eq!(ToolKind::of("Edit"), ToolKind::Write);
        assert_eq!(ToolKind::of("Grep"), ToolKind::Read);
        assert_eq!(ToolKind::of("mcp__memory__create"), ToolKind::Mcp);
        assert_eq!(ToolKind::of("WebFetch"), ToolKind::Other);
    }

    #[test]
    fn the_sdk_computes_the_same_tool_kinds() {
        // A hook run natively (no runtime, so no `tool_kind` in its input)
        // computes the kind with the SDK's copy of this table.
        let mut names = vec![
            "Bash",
            "PowerShell",
            "MultiEdit",
            "NotebookEdit",
            "mcp__s__t",
        ];
        for agent in crate::agents::AGENTS {
            names.extend(agent.table().tools.iter().map(|t| t.canonical));
            names.extend(agent.table().tools.iter().map(|t| t.native));
        }
        for name in names {
            let host = ToolKind::of(name).as_str();
            let sdk = agenthooks_sdk::ToolKind::of(name).as_str();
            assert_eq!(host, sdk, "{name}");
        }
    }

    #[test]
    fn if_target_is_input_json_for_other_tools() {
        let ev = Event::new(
            json!({"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/a"}}),
            None,
            "claude",
        )
        .unwrap();
        assert_eq!(ev.if_target().as_deref(), Some(r#"{"file_path":"/a"}"#));
    }
}
