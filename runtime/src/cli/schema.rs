//! `agenthooks schema [input|answer|config]`: JSON Schemas generated from the
//! Rust types, so they cannot drift from what the runtime reads and writes.
//!
//! The same schemas are checked in under `runtime/schema/`; a test regenerates
//! them and fails on any difference. After changing a type, update them with
//! `AGENTHOOKS_UPDATE_SCHEMAS=1 cargo test -p agenthooks --lib schema`.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use schemars::{schema::RootSchema, schema_for, JsonSchema};
use serde_json::{Map, Value};

use crate::config;
use crate::protocol::{Answer, EventName, ToolKind};

/// `agenthooks schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which schema; all three, keyed by name, when omitted.
    #[arg(value_enum)]
    pub which: Option<Which>,
}

/// One of the schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The JSON a hook reads on stdin.
    Input,
    /// The JSON a hook may print on stdout.
    Answer,
    /// `.agents/hooks.json`.
    Config,
}

impl Which {
    /// Every schema, in the order they are printed.
    pub const ALL: [Which; 3] = [Which::Input, Which::Answer, Which::Config];

    /// The name on the command line and of the file under `runtime/schema/`.
    pub fn name(self) -> &'static str {
        match self {
            Which::Input => "input",
            Which::Answer => "answer",
            Which::Config => "config",
        }
    }
}

/// The hook input: Claude Code's common fields and the tool fields, plus
/// `harness` and `tool_kind`, and the fields whose shape differs by agent,
/// given in Claude Code's shape with the agent's own value beside them
/// (`*_native`). Every event adds its own fields (`source`, `reason`, ...), so
/// other properties are allowed.
#[derive(JsonSchema)]
#[schemars(rename = "HookInput")]
#[allow(dead_code)] // Only its schema is used.
struct HookInput {
    /// The agent's session; derived where the agent sends none (see
    /// `agenthooks_derived`).
    session_id: Option<String>,
    /// The fields agenthooks derived because the agent sent none
    /// (`session_id`: one per agent process and directory; `tool_use_id`:
    /// the same before and after one call).
    agenthooks_derived: Option<Vec<String>>,
    /// The conversation transcript (JSONL), when the agent has one.
    transcript_path: Option<String>,
    /// The agent's working directory.
    cwd: Option<String>,
    /// `default`, `plan`, `acceptEdits`, `auto`, `dontAsk` or `bypassPermissions`.
    permission_mode: Option<String>,
    /// The event, as Claude Code names it.
    hook_event_name: EventName,
    /// The agent that sent the event: `claude`, `codex`, `gemini`, `copilot`, ...
    harness: String,
    /// Tool events: the tool, as Claude Code names it (`Bash`, `Write`, `mcp__s__t`);
    /// a tool Claude Code does not have keeps its own name.
    tool_name: Option<String>,
    /// Tool events: the tool's input (`Bash`: `command` as text; `Read`/`Edit`/`Write`: `file_path`).
    tool_input: Option<Value>,
    /// Tool events: the id of this tool call (derived where the agent sends none).
    tool_use_id: Option<String>,
    /// Tool events: what kind of thing the tool does.
    tool_kind: Option<ToolKind>,
    /// After a tool: its result in Claude Code's shape for the tool, whatever
    /// the agent: `Bash` `{stdout, stderr, interrupted, isImage}`, `Read`
    /// `{type, file: {filePath, content, numLines, startLine, totalLines}}`,
    /// `Write` `{filePath, content}`, `Edit` `{filePath, oldString, newString,
    /// replaceAll}`; other tools as the agent gives them.
    tool_response: Option<Value>,
    /// After a tool, where the agent's own `tool_response` differs from
    /// Claude Code's shape: the agent's value as it sent it (Codex a string,
    /// Gemini `{llmContent, returnDisplay}`, ...).
    tool_response_native: Option<Value>,
    /// PostToolUseFailure: the error, as text (Claude Code's shape).
    error: Option<String>,
    /// PostToolUseFailure, where the agent's error was not text: its value.
    error_native: Option<Value>,
    /// UserPromptSubmit: the prompt, as text (Claude Code's shape).
    prompt: Option<String>,
    /// UserPromptSubmit, where the agent's prompt was not text (a list of
    /// parts): its value.
    prompt_native: Option<Value>,
}

/// The schema `which` as a JSON value.
pub fn generate(which: Which) -> Value {
    let schema: RootSchema = match which {
        Which::Input => schema_for!(HookInput),
        Which::Answer => schema_for!(Answer),
        Which::Config => config::config_schema(),
    };
    serde_json::to_value(schema).unwrap_or(Value::Null)
}

/// Print the schema(s) as pretty JSON.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let value = match args.which {
        Some(which) => generate(which),
        None => {
            let all: Map<String, Value> = Which::ALL
                .iter()
                .map(|w| (w.name().to_string(), generate(*w)))
                .collect();
            Value::Object(all)
        }
    };
    let mut text = serde_json::to_string_pretty(&value).context("could not print the schema")?;
    text.push('\n');
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not print the schema")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn file(which: Which) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(format!("{}.json", which.name()))
    }

    #[test]
    fn checked_in_schemas_match_the_types() {
        let update = std::env::var_os("AGENTHOOKS_UPDATE_SCHEMAS").is_some();
        for which in Which::ALL {
            let mut fresh = serde_json::to_string_pretty(&generate(which)).unwrap();
            fresh.push('\n');
            let path = file(which);
            if update {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &fresh).unwrap();
                continue;
            }
            let stored = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                stored == fresh,
                "{} is out of date; regenerate with AGENTHOOKS_UPDATE_SCHEMAS=1 cargo test -p agenthooks --lib schema",
                path.display()
            );
        }
    }

    #[test]
    fn input_schema_names_the_added_fields_and_allows_others() {
        let input = generate(Which::Input);
        let props = &input["properties"];
        assert!(props["harness"].is_object());
        assert!(props["tool_kind"].is_object());
        assert_ne!(input["additionalProperties"], Value::Bool(false));
        let required: Vec<&str> = input["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(required, ["harness", "hook_event_name"]);
    }
}
