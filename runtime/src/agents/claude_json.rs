//! Claude Code's answer JSON written from an [`Intent`], and the whole
//! decode/encode of the agents that speak Claude's protocol under their own
//! names (Qwen Code, Factory Droid; Codex adds its strict-schema rules on top).
//!
//! Gemini CLI's answer shares the tail of this one (`continue`,
//! `systemMessage`, `hookSpecificOutput` led by `hookEventName`), so
//! [`write_common`] is the one place that tail is written.

use serde_json::{json, Map, Value};

use super::plan::{Intent, Verdict};
use super::{finish_decode, intent_for, start_decode, Agent, DecodeError, Native, Table};
use crate::protocol::{Answer, Event, EventName};

/// Decode for agents whose payload is Claude's, named by `hook_event_name`.
///
/// # Errors
/// As [`start_decode`] and [`finish_decode`].
pub(super) fn decode(
    agent: &'static str,
    table: &Table,
    input: Value,
    event: Option<&str>,
) -> Result<Event, DecodeError> {
    let (input, row) = start_decode(agent, table, input, event, &["hook_event_name"])?;
    finish_decode(agent, table, row, input)
}

/// Encode for agents that read Claude's JSON answer as it is.
pub(super) fn encode(agent: &dyn Agent, event: &Event, answer: &Answer) -> Native {
    let (row, intent) = match intent_for(agent, event, answer) {
        Ok(found) => found,
        Err(native) => return native,
    };
    let value = claude_json(event.name(), row.native, &intent);
    Native::json(&value, intent.notes)
}

/// Claude-shaped answer for `event` (named `native` in the agent's config);
/// `Value::Null` when the intent is empty.
///
/// Only the fields the intent carries are written, so an agent that rejects
/// unknown fields (Codex) gets nothing it did not ask for. A deny always
/// carries a reason ([`Intent::verdict_reason`]).
pub(super) fn claude_json(event: EventName, native: &str, intent: &Intent) -> Value {
    if intent.is_empty() {
        return Value::Null;
    }
    let mut out = Map::new();
    let mut hso = Map::new();
    match event {
        EventName::PreToolUse => {
            if let Some(v) = intent.verdict {
                hso.insert("permissionDecision".into(), json!(verdict_str(v)));
                if let Some(r) = intent.verdict_reason() {
                    hso.insert("permissionDecisionReason".into(), json!(r));
                }
            }
            if let Some(input) = &intent.updated_input {
                hso.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        EventName::PermissionRequest => {
            let mut decision = Map::new();
            if let Some(v) = intent.verdict {
                decision.insert("behavior".into(), json!(behavior_str(v)));
                if let Some(r) = intent.verdict_reason() {
                    decision.insert("message".into(), json!(r));
                }
            }
            if let Some(input) = &intent.updated_input {
                decision.insert("updatedInput".into(), Value::Object(input.clone()));
            }
            if !decision.is_empty() {
                hso.insert("decision".into(), Value::Object(decision));
            }
        }
        // Every other event answers with `decision: block`, whatever it means
        // there (DESIGN §3's table).
        _ => {
            if let Some(reason) = &intent.block {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason));
            }
        }
    }
    write_common(&mut out, hso, native, intent);
    Value::Object(out)
}

/// The tail Claude's and Gemini's answers share: `additionalContext` into
/// `hso`, then `continue: false` + `stopReason`, `systemMessage`, and `hso`
/// as `hookSpecificOutput` led by `hookEventName` (when it holds anything).
pub(super) fn write_common(
    out: &mut Map<String, Value>,
    mut hso: Map<String, Value>,
    native: &str,
    intent: &Intent,
) {
    if let Some(c) = &intent.context {
        hso.insert("additionalContext".into(), json!(c));
    }
    if let Some(reason) = &intent.stop {
        out.insert("continue".into(), json!(false));
        if !reason.is_empty() {
            out.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(m) = &intent.system_message {
        out.insert("systemMessage".into(), json!(m));
    }
    if !hso.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), json!(native));
        with_name.extend(hso);
        out.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
}

/// The wire spelling of a verdict before a tool (`permissionDecision`).
pub(super) fn verdict_str(v: Verdict) -> &'static str {
    match v {
        Verdict::Deny => "deny",
        Verdict::Ask => "ask",
        Verdict::Allow => "allow",
    }
}

/// A PermissionRequest's `behavior`, which has no `ask`: the agents that
/// write it do not act on ask there, so planning already made it a deny.
pub(super) fn behavior_str(v: Verdict) -> &'static str {
    match v {
        Verdict::Allow => "allow",
        Verdict::Deny | Verdict::Ask => "deny",
    }
}
