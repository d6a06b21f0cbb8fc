//! Hermes Agent (Nous Research): shell hooks in the `hooks:` mapping of the
//! user's `~/.hermes/config.yaml` (event to a list of `{command, matcher,
//! timeout, fail_closed}`), global only.
//!
//! Verified how: read in Hermes' source, no binary run. NousResearch/hermes-agent
//! @00067189 `agent/shell_hooks.py`: the command is split into words and run
//! without a shell (so our launcher goes in `sh -c '…'`); stdin is
//! `{hook_event_name, tool_name, tool_input, session_id, cwd, profile,
//! extra}` with Hermes' own event names; `timeout` in seconds, default 60,
//! clamped to 300; only `pre_tool_call` can block: `{"decision": "block",
//! "reason"}` (or `{"action": "block", "message"}`, or exit 2 with stderr),
//! and `{"action": "modify", "args": {...}}` replaces the tool's arguments;
//! every other event reads `{"context": "..."}`, which `pre_llm_call` (the
//! turn's start, Hermes' UserPromptSubmit) adds to the model's context
//! (gortex #51 quoting Hermes' hooks guide). Each (event, command) needs a
//! first-use consent at a terminal, else `hooks_auto_accept: true` or
//! `HERMES_ACCEPT_HOOKS=1`. Home: `HERMES_HOME`, default `~/.hermes`. Tool
//! names (`terminal`, `read_file`, `write_file`, `patch`) from the guide's
//! matcher examples; their argument names beyond `command` and `path` are
//! unverified.

use serde_json::{json, Map, Value};

use super::deadline::{secs, Deadline};
use super::plan::DEFAULT_DENY;
use super::{Agent, EventRow, Field, Info, Intent, Native, Verdict};
use super::{InstallSpec, Registration, TimeUnit, UserDir, UserPath, YamlSpec, USER_ONLY};
use crate::protocol::Event;

// The table is data: `hermes/table.toml`, made Rust by `build.rs`.
pub use super::tables::hermes::TABLE;

/// Hermes' home: `HERMES_HOME`, else `~/.hermes`.
const HOME: UserDir = UserDir::var("HERMES_HOME", ".hermes");

/// The Hermes adapter.
pub struct Hermes;

/// Our entry: `command` (in `sh -c`) and `timeout` in seconds.
pub static INSTALL: InstallSpec = InstallSpec::new(
    Registration::Yaml(YamlSpec {
        key: "hooks",
        handler: &[
            ("command", Field::Command),
            ("timeout", Field::Timeout(TimeUnit::Seconds)),
        ],
        argv: true,
    }),
    USER_ONLY,
    UserPath::new(HOME, "config.yaml"),
)
.detected_by(&[], &[UserPath::new(HOME, "")])
.with_after_install("Hermes asks to approve each new hook at its next start in a terminal (or set `hooks_auto_accept: true`): approve the agenthooks entries");

/// Hermes waits 60 s for a hook unless `timeout` says otherwise.
static INFO: Info = Info::new("hermes", "Hermes Agent", &TABLE, &INSTALL)
    .with_deadline(Deadline::new(secs(60), &[]));

impl Agent for Hermes {
    fn info(&self) -> &Info {
        &INFO
    }

    fn write(&self, _event: &Event, _row: &EventRow, intent: Intent) -> Native {
        let mut out = Map::new();
        if let Some(Verdict::Deny) = intent.verdict {
            out.insert("decision".into(), json!("block"));
            out.insert("reason".into(), json!(intent.reason_or(DEFAULT_DENY)));
        } else if let Some(input) = &intent.updated_input {
            out.insert("action".into(), json!("modify"));
            out.insert("args".into(), Value::Object(input.clone()));
        }
        if let Some(text) = &intent.context {
            out.insert("context".into(), json!(text));
        }
        Native::object_or_nothing(out, intent.notes)
    }
}

#[cfg(test)]
mod tests;
