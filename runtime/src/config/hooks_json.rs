//! The `.agents/hooks.json` file as written: serde mirrors of the format,
//! before variables, paths, defaults and regexes are resolved (see [`super::load`]).
//!
//! Claude Code's `hooks` block is accepted unchanged; on top of it come the
//! `wasm` handler type, `if` on a group or a handler, `onError` on a handler
//! and as a file-wide default (Claude Code's `onFailure` is its other
//! spelling), and (user file only) `audit`. The same types
//! generate the JSON Schema `agenthooks schema config` prints.
//!
//! Unknown keys are not rejected here: serde ignores them and
//! [`unknown_keys`] lists them, so `run` can warn and `check` can fail.

use std::fmt;

use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, ObjectValidation, RootSchema, Schema, SchemaObject};
use schemars::JsonSchema;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{OnError, OnFailure};
use crate::protocol::EventName;

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
    #[serde(default)]
    pub project_grants: Option<AllowEntry>,
    /// The only component sources user and project wasm hooks may name:
    /// directories, or `oci://registry/repository` prefixes (honoured in the
    /// managed file only).
    #[serde(default)]
    pub allowed_components: Option<Vec<String>>,
}

/// The keys [`HooksFile`] knows, for [`unknown_keys`].
const FILE_KEYS: &[&str] = &[
    "$schema",
    "description",
    "hooks",
    "onError",
    "audit",
    "onConfigError",
    "eventMemoryMiB",
    "managedOnly",
    "projectGrants",
    "allowedComponents",
];

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
}

const AUDIT_KEYS: &[&str] = &["path", "maxBytes", "includeInput"];

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

impl JsonSchema for EventMap {
    fn schema_name() -> String {
        "EventMap".to_string()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        let groups = gen.subschema_for::<Vec<Group>>();
        let mut object = ObjectValidation::default();
        for name in EventName::ALL {
            object
                .properties
                .insert(name.as_str().to_string(), groups.clone());
        }
        // Unknown event names are warnings in `run` and errors in `check`.
        object.additional_properties = Some(Box::new(Schema::Bool(false)));
        SchemaObject {
            instance_type: Some(InstanceType::Object.into()),
            object: Some(Box::new(object)),
            metadata: Some(Box::new(schemars::schema::Metadata {
                description: Some(
                    "Event name (as Claude Code spells it) → matcher groups, run in order."
                        .to_string(),
                ),
                ..Default::default()
            })),
            ..Default::default()
        }
        .into()
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
    #[schemars(with = "Vec<HandlerEntry>")]
    pub hooks: Vec<HandlerWire>,
}

const GROUP_KEYS: &[&str] = &["matcher", "if", "hooks"];

/// One handler as read: the keys of every handler type in one flat struct.
///
/// The loader checks which keys apply to the `type`. Flat rather than a
/// `#[serde(tag = "type")]` enum because a tagged enum is buffered, and
/// serde_json then reports errors at the end of the object instead of at the
/// bad value; and a missing `command` then skips one handler, not the file.
/// [`HandlerEntry`] is the same thing as the schema shows it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandlerWire {
    /// `command`, `wasm`, `http`, or one of Claude Code's others (`prompt`, `agent`, `mcp_tool`).
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// Command: the command line.
    pub command: Option<String>,
    /// Command: exec-form arguments.
    pub args: Option<Vec<String>>,
    /// Command: Claude Code's shell choice.
    pub shell: Option<String>,
    /// Command: Copilot's PowerShell variant, run instead of `command` on Windows.
    pub powershell: Option<String>,
    /// Command: run in the background.
    #[serde(rename = "async")]
    pub async_: Option<bool>,
    /// Command: Claude Code's background hook that wakes the agent.
    pub async_rewake: Option<bool>,
    /// Run at most once per session.
    pub once: Option<bool>,
    /// Seconds, fractions allowed.
    pub timeout: Option<f64>,
    /// Shown while the hook runs.
    pub status_message: Option<String>,
    /// A regex on the tool input, or a permission rule like `Bash(git *)`; overrides the group's `if`.
    #[serde(rename = "if")]
    pub if_: Option<String>,
    /// What a failure counts as.
    pub on_error: Option<OnError>,
    /// Claude Code's spelling of `onError`: `block` or `continue`.
    pub on_failure: Option<OnFailure>,
    /// Http: the URL the input is POSTed to.
    pub url: Option<String>,
    /// Http: extra headers; `$VAR` / `${VAR}` in a value expand when listed in `allowedEnvVars`.
    pub headers: Option<std::collections::BTreeMap<String, String>>,
    /// Http: the environment variables header values may use.
    pub allowed_env_vars: Option<Vec<String>>,
    /// Wasm: the component file.
    pub component: Option<String>,
    /// Wasm: fuel units.
    pub fuel: Option<u64>,
    /// Wasm: linear memory limit in MiB.
    #[serde(rename = "memoryMiB")]
    pub memory_mib: Option<u64>,
    /// Wasm: grants.
    pub allow: Option<AllowEntry>,
}

/// One handler, by its `type`, as the JSON Schema describes it (the loader reads [`HandlerWire`]).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HandlerEntry {
    /// A command run through `sh -c` (`cmd /C` on Windows) with the input on stdin.
    Command(CommandEntry),
    /// A WebAssembly component run in the sandbox.
    Wasm(WasmEntry),
    /// Claude Code's `http` handler: the input POSTed to a URL, the response body read as a command's stdout.
    Http(HttpEntry),
    /// Claude Code's `prompt` handler: parsed, skipped with a note.
    Prompt(OtherEntry),
    /// Claude Code's `agent` handler: parsed, skipped with a note.
    Agent(OtherEntry),
    /// Claude Code's `mcp_tool` handler: parsed, skipped with a note.
    McpTool(OtherEntry),
}

/// The handler types that are parsed and skipped with a note.
pub const UNSUPPORTED_TYPES: &[&str] = &["prompt", "agent", "mcp_tool"];

/// The keys of every handler type that runs (`command`, `wasm`, `http`),
/// written once for the schema.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommonEntry {
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
    /// Run at most once per session (per `session_id`); later events skip it.
    #[serde(default)]
    pub once: Option<bool>,
}

/// `"type": "command"`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommandEntry {
    /// The command line; `$CLAUDE_PROJECT_DIR` is expanded and also set in its environment.
    pub command: String,
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
    /// The keys every handler type that runs has.
    #[serde(flatten)]
    pub common: CommonEntry,
}

const COMMAND_KEYS: &[&str] = &[
    "type",
    "command",
    "args",
    "shell",
    "powershell",
    "async",
    "asyncRewake",
    "once",
    "timeout",
    "statusMessage",
    "if",
    "onError",
    "onFailure",
];

/// `"type": "wasm"`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WasmEntry {
    /// The component file; relative to the project root (project file) or the home directory (user file).
    pub component: String,
    /// CPU budget in fuel units; 2·10⁹ by default.
    #[serde(default)]
    pub fuel: Option<u64>,
    /// Linear memory limit in MiB; 64 by default.
    #[serde(rename = "memoryMiB", default)]
    pub memory_mib: Option<u64>,
    /// What the guest may touch; nothing by default.
    #[serde(default)]
    pub allow: Option<AllowEntry>,
    /// The keys every handler type that runs has.
    #[serde(flatten)]
    pub common: CommonEntry,
}

const WASM_KEYS: &[&str] = &[
    "type",
    "component",
    "fuel",
    "memoryMiB",
    "allow",
    "timeout",
    "statusMessage",
    "if",
    "onError",
    "onFailure",
    "once",
];

/// `"type": "http"`: Claude Code's http handler. The input is POSTed as JSON;
/// a 2xx body is read as a command's stdout; anything else is a failure.
/// Redirects are not followed and no proxy is taken from the environment.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HttpEntry {
    /// The `http://` or `https://` URL the input is POSTed to.
    pub url: String,
    /// Extra request headers. `$VAR` and `${VAR}` in a value expand to the
    /// variable's value when `allowedEnvVars` lists it, else to nothing.
    #[serde(default)]
    pub headers: Option<std::collections::BTreeMap<String, String>>,
    /// The environment variables header values may use.
    #[serde(default)]
    pub allowed_env_vars: Option<Vec<String>>,
    /// The keys every handler type that runs has.
    #[serde(flatten)]
    pub common: CommonEntry,
}

const HTTP_KEYS: &[&str] = &[
    "type",
    "url",
    "headers",
    "allowedEnvVars",
    "timeout",
    "statusMessage",
    "if",
    "onError",
    "onFailure",
    "once",
];

/// `allow`: a wasm handler's grants.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct AllowEntry {
    /// Directories preopened read-only.
    #[serde(default)]
    pub read: Vec<String>,
    /// Directories preopened read-write.
    #[serde(default)]
    pub write: Vec<String>,
    /// Environment variables passed through by name.
    #[serde(default)]
    pub env: Vec<String>,
    /// `host:port` pairs the guest may connect to.
    #[serde(default)]
    pub net: Vec<String>,
}

const ALLOW_KEYS: &[&str] = &["read", "write", "env", "net"];

/// A handler type this runtime parses but does not run (`prompt`, `agent`, `mcp_tool`).
/// Its own keys are not checked.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherEntry {
    /// Seconds before it is abandoned.
    #[serde(default)]
    pub timeout: Option<f64>,
    /// Shown while the hook runs.
    #[serde(default)]
    pub status_message: Option<String>,
    /// A regex on the tool input, or a permission rule like `Bash(git *)`; overrides the group's `if`.
    #[serde(rename = "if", default)]
    pub if_: Option<String>,
    /// What a failure counts as.
    #[serde(default)]
    pub on_error: Option<OnError>,
}

/// The JSON Schema of `.agents/hooks.json`.
pub fn config_schema() -> RootSchema {
    schemars::schema_for!(HooksFile)
}

/// Something in a file that the format does not know: a warning in `run`, an error in `check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// A key no one reads, at a path like `hooks.PreToolUse[0].hooks[1]`.
    Key {
        /// Where: `the top level`, `audit`, `hooks.<Event>[i]`, `...hooks[j]`, `...allow`.
        at: String,
        /// The key.
        key: String,
        /// The known key it is closest to (`memoryMib` → `memoryMiB`).
        suggestion: Option<&'static str>,
    },
    /// A name under `hooks` that is not a Claude Code event.
    Event {
        /// The name as written.
        name: String,
        /// The event it is closest to (`PreToolUs` → `PreToolUse`).
        suggestion: Option<&'static str>,
    },
    /// A handler whose `type` is missing (`None`) or not one this runtime knows.
    HandlerType {
        /// Where: `hooks.<Event>[i].hooks[j]`.
        at: String,
        /// The `type` as written.
        type_: Option<String>,
    },
}

/// Every key, event name and handler type of a parsed file that the format
/// does not know, in file order.
pub fn unknown_keys(file: &Value) -> Vec<Unknown> {
    let mut found = Vec::new();
    let Value::Object(top) = file else {
        return found;
    };
    extra_keys(top, FILE_KEYS, "the top level", &mut found);
    if let Some(Value::Object(audit)) = top.get("audit") {
        extra_keys(audit, AUDIT_KEYS, "audit", &mut found);
    }
    let Some(Value::Object(events)) = top.get("hooks") else {
        return found;
    };
    for (event, groups) in events {
        if event.parse::<EventName>().is_err() {
            found.push(Unknown::Event {
                name: event.clone(),
                suggestion: crate::suggest::closest(
                    event,
                    EventName::ALL.iter().map(|e| e.as_str()),
                ),
            });
            continue;
        }
        let Value::Array(groups) = groups else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let Value::Object(group) = group else {
                continue;
            };
            let at = format!("hooks.{event}[{g}]");
            extra_keys(group, GROUP_KEYS, &at, &mut found);
            let Some(Value::Array(handlers)) = group.get("hooks") else {
                continue;
            };
            for (h, handler) in handlers.iter().enumerate() {
                let Value::Object(handler) = handler else {
                    continue;
                };
                let at = format!("{at}.hooks[{h}]");
                match handler.get("type").and_then(Value::as_str) {
                    Some("command") => extra_keys(handler, COMMAND_KEYS, &at, &mut found),
                    Some("wasm") => {
                        extra_keys(handler, WASM_KEYS, &at, &mut found);
                        if let Some(Value::Object(allow)) = handler.get("allow") {
                            extra_keys(allow, ALLOW_KEYS, &format!("{at}.allow"), &mut found);
                        }
                    }
                    Some("http") => extra_keys(handler, HTTP_KEYS, &at, &mut found),
                    Some(ty) if UNSUPPORTED_TYPES.contains(&ty) => {}
                    ty => found.push(Unknown::HandlerType {
                        at,
                        type_: ty.map(str::to_string),
                    }),
                }
            }
        }
    }
    found
}

fn extra_keys(
    object: &serde_json::Map<String, Value>,
    known: &[&'static str],
    at: &str,
    found: &mut Vec<Unknown>,
) {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            found.push(Unknown::Key {
                at: at.to_string(),
                key: key.clone(),
                suggestion: crate::suggest::closest(key, known.iter().copied()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_keys_match_the_serde_types() {
        // The lists of known keys must name exactly the keys serde reads, or they drift.
        let schema = serde_json::to_value(config_schema()).unwrap();
        let keys = |pointer: &str| -> Vec<String> {
            let props = schema
                .pointer(pointer)
                .unwrap_or_else(|| panic!("{pointer}"));
            let mut keys: Vec<String> = props.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            keys
        };
        let list = |l: &[&str]| {
            let mut v: Vec<String> = l.iter().map(|s| s.to_string()).collect();
            v.sort();
            v
        };
        assert_eq!(keys("/properties"), list(FILE_KEYS));
        assert_eq!(keys("/definitions/AuditEntry/properties"), list(AUDIT_KEYS));
        assert_eq!(keys("/definitions/Group/properties"), list(GROUP_KEYS));
        assert_eq!(keys("/definitions/AllowEntry/properties"), list(ALLOW_KEYS));
        let variants = &schema["definitions"]["HandlerEntry"]["oneOf"];
        let type_of = |i: usize| variants[i]["properties"]["type"]["enum"][0].clone();
        assert_eq!(type_of(0), "command");
        assert_eq!(type_of(1), "wasm");
        assert_eq!(type_of(2), "http");
        assert_eq!(
            keys("/definitions/HandlerEntry/oneOf/0/properties"),
            list(COMMAND_KEYS)
        );
        assert_eq!(
            keys("/definitions/HandlerEntry/oneOf/1/properties"),
            list(WASM_KEYS)
        );
        assert_eq!(
            keys("/definitions/HandlerEntry/oneOf/2/properties"),
            list(HTTP_KEYS)
        );
    }

    #[test]
    fn schema_lists_every_event_and_handler_type() {
        let schema = serde_json::to_value(config_schema()).unwrap();
        let events = &schema["definitions"]["EventMap"]["properties"];
        for name in EventName::ALL {
            assert!(events.get(name.as_str()).is_some(), "{name}");
        }
        let text = schema.to_string();
        for ty in ["command", "wasm", "prompt", "agent", "http", "mcp_tool"] {
            assert!(text.contains(&format!("\"{ty}\"")), "{ty}");
        }
    }

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
        let keys = COMMAND_KEYS
            .iter()
            .chain(WASM_KEYS)
            .chain(HTTP_KEYS)
            .filter(|k| **k != "type");
        for key in keys {
            // (`allow` is a struct, which serde also reads from an array.)
            let bad = if *key == "allow" { "5" } else { "[[]]" };
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

    #[test]
    fn unknown_keys_are_listed_with_where() {
        let v = json!({
            "hook": {},
            "audit": {"path": "a", "size": 1},
            "hooks": {
                "PreToolUse": [{
                    "matcher": "Bash", "matchr": "x",
                    "hooks": [
                        {"type": "command", "command": "x", "comand": "y"},
                        {"type": "wasm", "component": "c", "allow": {"read": [], "exec": []}},
                        {"type": "prompt", "prompt": "p", "model": "m"},
                        {"type": "shell"},
                        {"command": "z"}
                    ]
                }],
                "PreToolUze": []
            }
        });
        let found = unknown_keys(&v);
        let key = |at: &str, key: &str, suggestion| Unknown::Key {
            at: at.into(),
            key: key.into(),
            suggestion,
        };
        let expect = [
            key("the top level", "hook", Some("hooks")),
            key("audit", "size", None),
            key("hooks.PreToolUse[0]", "matchr", Some("matcher")),
            key("hooks.PreToolUse[0].hooks[0]", "comand", Some("command")),
            key("hooks.PreToolUse[0].hooks[1].allow", "exec", None),
            Unknown::HandlerType {
                at: "hooks.PreToolUse[0].hooks[3]".into(),
                type_: Some("shell".into()),
            },
            Unknown::HandlerType {
                at: "hooks.PreToolUse[0].hooks[4]".into(),
                type_: None,
            },
            Unknown::Event {
                name: "PreToolUze".into(),
                suggestion: Some("PreToolUse"),
            },
        ];
        assert_eq!(found, expect);
    }
}
