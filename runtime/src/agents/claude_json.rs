//! Claude Code's answer JSON written from an [`Intent`], for the agents that
//! read Claude's protocol (Codex, Qwen Code, Factory Droid).

use serde_json::{json, Map, Value};

use super::plan::{Intent, Verdict};
use crate::protocol::EventName;

/// Claude-shaped answer for `event` (named `native` in the agent's config);
/// `Value::Null` when the intent is empty.
///
/// Only the fields the intent carries are written, so an agent that rejects
/// unknown fields (Codex) gets nothing it did not ask for.
pub fn claude_json(event: EventName, native: &str, intent: &Intent) -> Value {
    if intent.is_empty() {
        return Value::Null;
    }
    let mut out = Map::new();
    let mut hso = Map::new();
    match event {
        EventName::PreToolUse => {
            if let Some(v) = intent.verdict {
                hso.insert("permissionDecision".into(), json!(verdict_str(v)));
                if let Some(r) = intent.reason.as_deref().filter(|r| !r.is_empty()) {
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
                let behavior = if v == Verdict::Allow { "allow" } else { "deny" };
                decision.insert("behavior".into(), json!(behavior));
                if let Some(r) = intent.reason.as_deref().filter(|r| !r.is_empty()) {
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
        _ => {
            if let Some(reason) = &intent.block {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason));
            }
        }
    }
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
    Value::Object(out)
}

/// The wire spelling of a verdict.
pub fn verdict_str(v: Verdict) -> &'static str {
    match v {
        Verdict::Deny => "deny",
        Verdict::Ask => "ask",
        Verdict::Allow => "allow",
    }
}
