//! SemaClaw 1.0: Claude Code's event and tool names, its own answer
//! (`{"decision": "approve" | "reject" | "skip", "reason", "abort",
//! "updatedInput", "additionalContext"}`).
//!
//! Sources: SemaClaw's hooks guide (`docs/hooks_guide.md`) and its engine,
//! sema-core 1.0.0 (`vendor/sema-core-1.0.0.tgz` of midea-ai/SemaClaw at
//! 9ad2c4bb: `hooks/executeHooks.js`, `hooks/CommandExecutor.js`,
//! `core/RunTools.js`, `manager/PermissionManager.js`), summed up in
//! `shared/reference/llm-hooks-and-semaclaw.md` §5; checked 2026-12 against
//! the payloads recorded from that engine in
//! `tests/fixtures/agents/semaclaw-1.0.0/` (each phase's `observed.md` says
//! what the engine did with each answer).
//!
//! What the engine does with an answer: a `reject` (or `blocked: true`, or
//! any non-zero exit of a blocking hook) stops the tool and gives the model
//! the reason as the tool's result, and the turn goes on; `abort: true` with
//! it also ends the turn; on UserPromptSubmit a reject drops the turn.
//! Stop, PostToolUse and PostCompact cannot be blocked; PreCompact's block
//! is ignored by its caller. `additionalContext` reaches the model on
//! UserPromptSubmit only (prepended to the prompt); `updatedInput` replaces
//! the whole tool input on PreToolUse only. `approve` means nothing on
//! PreToolUse (the permission check still follows it), and on
//! PermissionRequest it approves the request.
//!
//! PermissionRequest is decoded but never registered: any hook matching it
//! that does not reject approves the request (no answer, `skip` and a
//! timeout included), so an entry of ours there would approve every
//! permission prompt SemaClaw raises.

use serde_json::{json, Map, Value};

use super::deadline::{secs, Deadline};
use super::plan::{Intent, Verdict, DEFAULT_DENY};
use super::response::NATIVE_SUFFIX;
use super::{
    claude_handler_and, project_and_home, Field, InstallSpec, JsonSpec, Literal, Shape, TimeUnit,
};
use super::{Agent, EventRow, Info, Native};
use crate::protocol::{Event, EventName};

// The table is data: `semaclaw/table.toml`, made Rust by `build.rs`.
pub use super::tables::semaclaw::TABLE;

/// The SemaClaw adapter.
pub struct SemaClaw;

/// SemaClaw reads `hooks` in `.semaclaw/hooks.json` of the agent's
/// workspace and of `~/.semaclaw` (strict JSON): Claude's nested shape, a
/// handler of `type`, `command`, `timeout` (seconds) and `blocking`.
pub static INSTALL: InstallSpec = project_and_home!(
    JsonSpec::new(
        Shape::Nested,
        // A blocking hook's answer is the only one SemaClaw acts on.
        claude_handler_and!(
            TimeUnit::Seconds,
            ("blocking", Field::Literal(Literal::Bool(true)))
        ),
    ),
    ".semaclaw",
    "hooks.json"
)
.with_after_install("SemaClaw reads its hooks at start: restart it to run them");

/// SemaClaw waits 10 s for a hook unless its `timeout` says otherwise.
static INFO: Info = Info::new("semaclaw", "SemaClaw", &TABLE, &INSTALL)
    .with_deadline(Deadline::new(secs(10), &[]))
    .with_native_hooks(
        super::NativeHooks::INSTALLED
            .with_vars(&[
                ("AGENT_WORKSPACE", Some("CLAUDE_PROJECT_DIR")),
                ("SEMACLAW_ROOT", None),
                ("SEMACLAW_BIN", None),
            ])
            .with_glob_matchers()
            .with_blocking("blocking", true),
    );

impl Agent for SemaClaw {
    fn info(&self) -> &Info {
        &INFO
    }

    fn reshape(&self, row: &EventRow, input: &mut Map<String, Value>) {
        main_agent_id(input);
        match row.canonical {
            // SemaClaw never goes on after a Stop hook.
            EventName::Stop => {
                input.entry("stop_hook_active").or_insert(json!(false));
            }
            EventName::PostToolUse => bash_response(input),
            _ => {}
        }
    }

    fn write(&self, _event: &Event, _row: &EventRow, intent: Intent) -> Native {
        let mut out = Map::new();
        let deny = matches!(intent.verdict, Some(Verdict::Deny | Verdict::Ask));
        // Planning turned an ask into a deny: SemaClaw has no ask.
        let reject = if intent.stop.is_some() {
            let reasons = [
                intent.stop.clone(),
                deny.then(|| intent.reason.clone()).flatten(),
                intent.block.clone(),
            ];
            let given = reasons.into_iter().flatten().find(|r| !r.trim().is_empty());
            Some(given.unwrap_or_else(|| "a hook asked to stop the agent".to_string()))
        } else if deny {
            Some(intent.reason_or(DEFAULT_DENY))
        } else {
            intent
                .block
                .is_some()
                .then(|| intent.block_reason_or(DEFAULT_DENY))
        };
        if let Some(reason) = reject {
            out.insert("decision".into(), json!("reject"));
            out.insert("reason".into(), json!(reason));
            if intent.stop.is_some() {
                out.insert("abort".into(), json!(true));
            }
        } else if intent.verdict == Some(Verdict::Allow) {
            out.insert("decision".into(), json!("approve"));
            if let Some(r) = intent.verdict_reason() {
                out.insert("reason".into(), json!(r));
            }
        }
        if out.get("decision") != Some(&json!("reject")) {
            if let Some(input) = &intent.updated_input {
                out.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        if let Some(c) = &intent.context {
            out.insert("additionalContext".into(), json!(c));
        }
        Native::object_or_nothing(out, intent.notes)
    }
}

/// Moves `agent_id: "main"` to `agent_id_native`: Claude sends `agent_id`
/// only inside a subagent, and SemaClaw and sema-core send "main" for the
/// main agent, which a hook would read as a subagent.
pub(super) fn main_agent_id(input: &mut Map<String, Value>) {
    if input.get("agent_id").and_then(Value::as_str) == Some("main") {
        if let Some(id) = input.remove("agent_id") {
            input.insert(format!("agent_id{NATIVE_SUFFIX}"), id);
        }
    }
}

/// SemaClaw's Bash result `{stdout, stdoutLines, stderr, stderrLines,
/// interrupted, command}` as Claude's `{stdout, stderr, interrupted,
/// isImage}`, the original kept beside it. Its Read, Write and Edit
/// results already have Claude's shape.
fn bash_response(input: &mut Map<String, Value>) {
    if input.get("tool_name").and_then(Value::as_str) != Some("Bash") {
        return;
    }
    let Some(Value::Object(native)) = input.get("tool_response") else {
        return;
    };
    if !native.contains_key("stdoutLines") || native.contains_key("isImage") {
        return;
    }
    let text = |k: &str| native.get(k).and_then(Value::as_str).unwrap_or_default();
    let claude = json!({
        "stdout": text("stdout"),
        "stderr": text("stderr"),
        "interrupted": native.get("interrupted").and_then(Value::as_bool).unwrap_or(false),
        "isImage": false,
    });
    let native = input.insert("tool_response".into(), claude);
    if let Some(native) = native {
        input.insert(format!("tool_response{NATIVE_SUFFIX}"), native);
    }
}

#[cfg(test)]
mod tests;
