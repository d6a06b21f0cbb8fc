//! The `.agents/hooks.json` file as written: serde mirrors of the format,
//! before variables, paths, defaults and regexes are resolved (see [`super::load`]).
//!
//! Claude Code's `hooks` block is accepted unchanged; on top of it come the
//! `wasm` handler type, `if` on a group or a handler, `onError` on a handler
//! and as a file-wide default (Claude Code's `onFailure` is its other
//! spelling), and (managed and user files only) `audit` and `telemetry`.
//! The same types generate the JSON Schema `agenthooks schema config` prints
//! and the lists of known keys: serde's own list of a struct's fields (`fields_of`), and
//! for a handler [`HandlerType::has_key`] over [`HandlerWire`]'s fields.
//!
//! Unknown keys are not rejected here: serde ignores them and
//! [`unknown_keys`] lists them, so `run` can warn and `check` can fail.
//!
//! The parts: the wire types (here), their JSON Schema (`schema`), and
//! the list of what the format does not know (`unknown`).

use std::fmt;

use schemars::JsonSchema;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{Grants, Limits, LlmProvider, OnError, OnFailure};
use crate::protocol::EventName;

mod schema;
mod unknown;

pub use schema::config_schema;
pub use unknown::{unknown_keys, Unknown};

/// A whole `hooks.json` file.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "agenthooks .agents/hooks.json")]
pub struct HooksFile {
    /// The JSON Schema this file follows (for editors; ignored).
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    /// A description of these hooks (ignored).
    #[serde(default)]
    pub description: Option<String>,
    /// Claude Code's `hooks` object: event name → matcher groups, in file order.
    #[serde(default)]
    pub hooks: Option<EventMap>,
    /// What a failing handler in this file counts as, unless it says otherwise.
    #[serde(default)]
    pub on_error: Option<OnError>,
    /// The audit log (honoured in the user file only).
    #[serde(default)]
    pub audit: Option<AuditEntry>,
    /// What a broken `hooks.json` (either scope) or a missing component counts
    /// as: `allow` (default, with a note) or `deny` for every tool call and
    /// prompt until it is fixed (honoured in the user file only).
    #[serde(default)]
    pub on_config_error: Option<OnError>,
    /// MiB of linear memory all wasm hooks of one event may hold together
    /// (default 512; honoured in the user file only).
    #[serde(rename = "eventMemoryMiB", default)]
    #[schemars(range(min = 1))]
    pub event_memory_mib: Option<u64>,
    /// Only the managed file's hooks run: user and project files are not
    /// loaded (honoured in the managed file only).
    #[serde(default)]
    pub managed_only: Option<bool>,
    /// The most a project's wasm hook may be granted, trusted or not: a
    /// grant outside these directories, variables and addresses is withheld
    /// with a note (honoured in the managed file only).
    // No `default` here: it would put `"default": null` in the schema.
    pub project_grants: Option<AllowEntry>,
    /// The only component sources user and project wasm hooks may name:
    /// directories, or `oci://registry/repository` prefixes (honoured in the
    /// managed file only).
    #[serde(default)]
    pub allowed_components: Option<Vec<String>>,
    /// Where prompt hooks send events (honoured in the managed and user
    /// files only; the managed file's wins). Absent: Claude Code's own
    /// environment (`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, ...).
    // No `default` here: it would put `"default": null` in the schema.
    pub llm: Option<LlmEntry>,
    /// `false`: no prompt hook of any scope runs (honoured in the managed
    /// file only).
    #[serde(default)]
    pub allow_llm_hooks: Option<bool>,
    /// How many model calls one event makes at once (default 12; honoured
    /// in the managed and user files only).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_llm_calls: Option<usize>,
    /// Where each event's trace goes, as OpenTelemetry spans over OTLP/HTTP
    /// (honoured in the managed and user files only; the managed file's
    /// wins). The `OTEL_EXPORTER_OTLP_*` variables, when set, win over it.
    // No `default` here: it would put `"default": null` in the schema.
    pub telemetry: Option<TelemetryEntry>,
}

/// `telemetry`: an OTLP/HTTP endpoint for each event's spans.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TelemetryEntry {
    /// The collector's base URL (`http://127.0.0.1:4318`): spans go to
    /// `{endpoint}/v1/traces`, `audit export` to `{endpoint}/v1/logs`.
    pub endpoint: String,
    /// `http/protobuf` (default) or `http/json`.
    #[serde(default)]
    pub protocol: Option<String>,
    /// Headers sent with each export (an API key: never printed).
    #[serde(default)]
    pub headers: Option<std::collections::BTreeMap<String, String>>,
    /// How long one export may take, in milliseconds (default 2000, at
    /// most 5000).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// `llm`: the model prompt hooks ask.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LlmEntry {
    /// `anthropic` (default: `POST {baseUrl}/v1/messages`) or `openai`
    /// (`POST {baseUrl}/chat/completions`).
    #[serde(default)]
    pub provider: Option<LlmProvider>,
    /// The API's base URL; for `openai` the part before `/chat/completions`
    /// (e.g. `http://127.0.0.1:11434/v1`).
    #[serde(default)]
    pub base_url: Option<String>,
    /// The model used when a hook names none.
    #[serde(default)]
    pub model: Option<String>,
    /// The environment variable that holds the API key (never its value).
    #[serde(default)]
    pub api_key_env: Option<String>,
}

/// `audit`: where to append one JSON line per event.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// The log file; `~/` and relative paths are taken from the home directory.
    pub path: String,
    /// Rotate the log when it grows past this many bytes.
    #[serde(default)]
    pub max_bytes: Option<u64>,
    /// Record each event's tool input (capped at 16 KiB, values under keys
    /// that look like secrets redacted).
    #[serde(default)]
    pub include_input: Option<bool>,
    /// Sign each record with an Ed25519 key (`agenthooks audit public-key`
    /// prints its public half).
    #[serde(default)]
    pub sign: Option<bool>,
    /// The signing key's file (PKCS#8); default: `audit-ed25519.pk8` under
    /// the user's state directory, made on first use.
    #[serde(default)]
    pub signing_key: Option<String>,
}

/// The `hooks` object: event name → matcher groups, in the order of the file.
///
/// Names that are not Claude Code events are kept (with no groups parsed) so
/// the loader can warn about them.
#[derive(Debug, Clone, Default)]
pub struct EventMap(pub Vec<(String, Option<Vec<Group>>)>);

impl<'de> Deserialize<'de> for EventMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EventMapVisitor;
        impl<'de> Visitor<'de> for EventMapVisitor {
            type Value = EventMap;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping event names to arrays of matcher groups")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EventMap, A::Error> {
                let mut events = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if name.parse::<EventName>().is_ok() {
                        let groups = map.next_value::<Vec<Group>>()?;
                        events.push((name, Some(groups)));
                    } else {
                        map.next_value::<IgnoredAny>()?;
                        events.push((name, None));
                    }
                }
                Ok(EventMap(events))
            }
        }
        deserializer.deserialize_map(EventMapVisitor)
    }
}

/// One matcher group: which tools (or sources, ...) and which handlers.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Group {
    /// Claude Code's matcher: `""`, `"*"` or absent match all; `A|B` exact
    /// names; anything else an unanchored regex on the tool name (or the
    /// event's matcher field).
    #[serde(default)]
    pub matcher: Option<String>,
    /// A regex on `tool_input.command` for shell tools, else on the JSON of
    /// `tool_input`, or a Claude Code permission rule such as `Bash(git *)`;
    /// the group's handlers run only when it matches.
    #[serde(rename = "if", default)]
    pub if_: Option<String>,
    /// The handlers, run at once, combined in this order.
    #[serde(default)]
    #[schemars(with = "Vec<schema::HandlerEntry>")]
    pub hooks: Vec<HandlerWire>,
}

/// One handler as read: the keys of every handler type in one flat struct.
///
/// This struct is the one description of a handler's keys: serde reads it,
/// the JSON Schema's properties are its fields, and [`HandlerType::has_key`]
/// says which of them each `type` has (the loader warns about the others).
/// Flat rather than a `#[serde(tag = "type")]` enum because a tagged enum is
/// buffered, and serde_json then reports errors at the end of the object
/// instead of at the bad value; and a missing `command` then skips one
/// handler, not the file.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandlerWire {
    /// `command`, `wasm`, `http`, or one of Claude Code's others (`prompt`,
    /// `agent`, `mcp_tool`): see [`HandlerType`].
    #[serde(rename = "type", default)]
    pub type_: Option<String>,
    /// The command line; `$CLAUDE_PROJECT_DIR` is expanded and also set in its environment.
    #[serde(default)]
    pub command: Option<String>,
    /// Claude Code's exec form: arguments passed to `command` without a shell.
    #[serde(default)]
    pub args: Option<Vec<String>>,
    /// Claude Code's shell choice: `bash` (default: `sh -c`, `cmd /C` on
    /// Windows) or `powershell` (`pwsh`, else `powershell`, `-NoProfile -Command`).
    #[serde(default)]
    pub shell: Option<String>,
    /// Copilot's PowerShell variant of `command`: on Windows it runs instead,
    /// through PowerShell; elsewhere `command` runs.
    #[serde(default)]
    pub powershell: Option<String>,
    /// Run in the background; not waited for and not aggregated.
    #[serde(rename = "async", default)]
    pub async_: Option<bool>,
    /// Claude Code's background hook that wakes the agent; runs in the background here.
    #[serde(default)]
    pub async_rewake: Option<bool>,
    /// Run at most once per session (per `session_id`); later events skip it.
    #[serde(default)]
    pub once: Option<bool>,
    /// Seconds (fractions allowed) the hook may take, compiling or the whole
    /// request included; 60 by default.
    #[serde(default)]
    pub timeout: Option<f64>,
    /// Shown while the hook runs (by agents that show one).
    #[serde(default)]
    pub status_message: Option<String>,
    /// A regex on the tool input, or a permission rule like `Bash(git *)`; overrides the group's `if`.
    #[serde(rename = "if", default)]
    pub if_: Option<String>,
    /// What a failure counts as: `allow` (default) or `deny`.
    #[serde(default)]
    pub on_error: Option<OnError>,
    /// Claude Code's spelling: `block` (= `onError: deny`) or `continue`.
    #[serde(default)]
    pub on_failure: Option<OnFailure>,
    /// The `http://` or `https://` URL the input is POSTed to.
    #[serde(default)]
    pub url: Option<String>,
    /// Extra request headers. `$VAR` and `${VAR}` in a value expand to the
    /// variable's value when `allowedEnvVars` lists it, else to nothing.
    #[serde(default)]
    pub headers: Option<std::collections::BTreeMap<String, String>>,
    /// The environment variables header values may use.
    #[serde(default)]
    pub allowed_env_vars: Option<Vec<String>>,
    /// The component file; relative to the project root (project file) or the home directory (user file).
    #[serde(default)]
    pub component: Option<String>,
    /// CPU budget in fuel units; 2·10⁹ by default.
    #[serde(default)]
    pub fuel: Option<u64>,
    /// Linear memory limit in MiB; 64 by default.
    #[serde(rename = "memoryMiB", default)]
    pub memory_mib: Option<u64>,
    /// What the guest may touch; nothing by default.
    // No `default` here: it would put `"default": null` in the schema.
    pub allow: Option<AllowEntry>,
    /// What the model is asked; `$ARGUMENTS` is replaced by the hook input
    /// (appended when absent; `\$ARGUMENTS` stays as written).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The model to ask (else `llm.model`, `ANTHROPIC_SMALL_FAST_MODEL`, a current Haiku).
    #[serde(default)]
    pub model: Option<String>,
    /// On an objection, feed the reason back and let the turn go on.
    #[serde(default)]
    pub continue_on_block: Option<bool>,
    /// The MCP server (a name in `.mcp.json` or `~/.claude.json` `mcpServers`).
    #[serde(default)]
    pub server: Option<String>,
    /// The MCP tool called.
    #[serde(default)]
    pub tool: Option<String>,
    /// The tool's arguments; `${path}` in a string value is filled from the
    /// hook input (`${tool_input.command}`).
    #[serde(default)]
    pub input: Option<serde_json::Map<String, serde_json::Value>>,
}

impl HandlerWire {
    /// The wasm limits this handler sets, the defaults for the others.
    pub fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel.unwrap_or(Limits::DEFAULT.fuel),
            memory_mib: self.memory_mib.unwrap_or(Limits::DEFAULT.memory_mib),
        }
    }
}

/// A handler's `type`: which of [`HandlerWire`]'s keys it has, and whether
/// it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerType {
    /// `command`.
    Command,
    /// `wasm`.
    Wasm,
    /// `http`.
    Http,
    /// `prompt`: a model judges the event.
    Prompt,
    /// `agent`: a model that may read the project judges the event.
    Agent,
    /// `mcp_tool`: a tool of an MCP server judges the event.
    McpTool,
}

impl HandlerType {
    /// Every type, in the order the schema lists them.
    pub const ALL: [HandlerType; 6] = [
        HandlerType::Command,
        HandlerType::Wasm,
        HandlerType::Http,
        HandlerType::Prompt,
        HandlerType::Agent,
        HandlerType::McpTool,
    ];

    /// The `type` as written.
    pub fn as_str(self) -> &'static str {
        match self {
            HandlerType::Command => "command",
            HandlerType::Wasm => "wasm",
            HandlerType::Http => "http",
            HandlerType::Prompt => "prompt",
            HandlerType::Agent => "agent",
            HandlerType::McpTool => "mcp_tool",
        }
    }

    /// The type a `type` value names, if it is one.
    pub fn named(name: &str) -> Option<HandlerType> {
        HandlerType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether this runtime runs handlers of this type; the others are
    /// parsed and skipped with a note, their own keys not checked.
    pub fn runs(self) -> bool {
        match self {
            HandlerType::Command
            | HandlerType::Wasm
            | HandlerType::Http
            | HandlerType::Prompt
            | HandlerType::Agent
            | HandlerType::McpTool => true,
        }
    }

    /// The keys of [`HandlerWire`] only this type has; the first one is
    /// required.
    fn own_keys(self) -> &'static [&'static str] {
        match self {
            HandlerType::Command => &[
                "command",
                "args",
                "shell",
                "powershell",
                "async",
                "asyncRewake",
            ],
            HandlerType::Wasm => &["component", "fuel", "memoryMiB", "allow"],
            HandlerType::Http => &["url", "headers", "allowedEnvVars"],
            HandlerType::Prompt | HandlerType::Agent => &["prompt", "model", "continueOnBlock"],
            HandlerType::McpTool => &["server", "tool", "input"],
        }
    }

    /// The keys of [`HandlerWire`] this type shares with others.
    fn shared_keys(self) -> &'static [&'static str] {
        const RUNNING: &[&str] = &[
            "timeout",
            "statusMessage",
            "if",
            "onError",
            "onFailure",
            "once",
        ];
        // The first four: what the schema has always shown for them.
        if self.runs() {
            RUNNING
        } else {
            &RUNNING[..4]
        }
    }

    /// Every key a handler of this type has, `type` first.
    pub fn keys(self) -> impl Iterator<Item = &'static str> + Clone {
        std::iter::once("type")
            .chain(self.own_keys().iter().copied())
            .chain(self.shared_keys().iter().copied())
    }

    /// Whether a handler of this type has `key`.
    pub fn has_key(self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }

    /// The key a handler of this type cannot do without, besides `type`.
    pub fn required(self) -> Option<&'static str> {
        self.own_keys().first().copied().filter(|_| self.runs())
    }

    /// What a handler of this type is, for the schema.
    fn description(self) -> &'static str {
        match self {
            HandlerType::Command => {
                "A command run through `sh -c` (`cmd /C` on Windows) with the input on stdin."
            }
            HandlerType::Wasm => "A WebAssembly component run in the sandbox.",
            HandlerType::Http => {
                "Claude Code's `http` handler: the input POSTed to a URL, the response body read \
                 as a command's stdout."
            }
            HandlerType::Prompt => {
                "Claude Code's `prompt` handler: a model (the `llm` setting, else Claude Code's \
                 environment) answers `{ok, reason}` about the event."
            }
            HandlerType::Agent => {
                "Claude Code's `agent` handler: a model that may Read, Grep and Glob the project \
                 answers `{ok, reason}` about the event."
            }
            HandlerType::McpTool => {
                "Claude Code's `mcp_tool` handler: a tool of an MCP server (from `.mcp.json` or \
                 `~/.claude.json`) is called with `input`, its text read as a command's stdout."
            }
        }
    }
}

/// `allow`: a wasm handler's grants, as written (paths not yet resolved).
pub type AllowEntry = Grants<String>;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_keep_file_order_and_unknown_names() {
        let f: HooksFile = serde_json::from_value(json!({
            "hooks": {"Stop": [], "Nope": [{"whatever": 1}], "PreToolUse": [{"hooks": []}]}
        }))
        .unwrap();
        let names: Vec<(&str, bool)> = f
            .hooks
            .as_ref()
            .unwrap()
            .0
            .iter()
            .map(|(n, g)| (n.as_str(), g.is_some()))
            .collect();
        assert_eq!(
            names,
            [("Stop", true), ("Nope", false), ("PreToolUse", true)]
        );
    }

    #[test]
    fn the_wire_struct_reads_every_known_handler_key() {
        // A value of the wrong type for every field: each key must be read (and fail).
        let keys = HandlerType::ALL.into_iter().flat_map(HandlerType::keys);
        for key in keys.filter(|k| *k != "type") {
            // (`allow` is a struct, which serde also reads from an array.)
            let bad = if key == "allow" { "5" } else { "[[]]" };
            let text = format!(r#"{{"type": "command", "{key}": {bad}}}"#);
            assert!(
                serde_json::from_str::<HandlerWire>(&text).is_err(),
                "`{key}` is not read by HandlerWire"
            );
        }
        let h: HandlerWire =
            serde_json::from_str(r#"{"type": "prompt", "prompt": "p", "model": "m"}"#).unwrap();
        assert_eq!(h.type_.as_deref(), Some("prompt"));
    }

    #[test]
    fn wire_errors_point_at_the_bad_value() {
        let text = "{\"hooks\": {\"Stop\": [{\"hooks\": [\n  {\"type\": \"command\", \"timeout\": \"x\",\n \"command\": \"c\"}]}]}}";
        let e = serde_json::from_str::<HooksFile>(text).unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 36), "{e}");
    }
}
