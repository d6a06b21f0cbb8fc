//! The one mapping from the fields of the WIT `answer` record
//! (`wit/hook.wit`) to Claude Code's hook output JSON.
//!
//! The host reads a component's answer through it, and the SDK writes a
//! native command hook's stdout through it, so a hook built both ways
//! answers the same (`tests/all/examples.rs` checks the two builds against
//! each other; the tests here cover every field at every event).
//!
//! No wasmtime and no bindings here: it builds for the host and for
//! `wasm32-wasip2` guests alike.
#![warn(missing_docs)]

use std::fmt;

use serde_json::{Map, Value};

/// A permission decision before a tool. When several hooks answer, `deny`
/// beats `defer`, which beats `ask`, which beats `allow`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Run the tool without asking.
    Allow,
    /// Ask the user first.
    Ask,
    /// Leave the decision to the agent (headless mode).
    Defer,
    /// Do not run the tool; the reason tells the model why.
    Deny,
}

impl Permission {
    /// The wire spelling (`allow`, `ask`, `defer`, `deny`).
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Defer => "defer",
            Permission::Deny => "deny",
        }
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The fields of one WIT `answer`, with its JSON text already parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields<'a> {
    /// `permission`.
    pub permission: Option<Permission>,
    /// `block`.
    pub block: bool,
    /// `reason`.
    pub reason: Option<&'a str>,
    /// `additional-context`.
    pub additional_context: Option<&'a str>,
    /// `updated-input`.
    pub updated_input: Option<Value>,
    /// `system-message`.
    pub system_message: Option<&'a str>,
    /// `continue`.
    pub continue_: Option<bool>,
    /// `stop-reason`.
    pub stop_reason: Option<&'a str>,
    /// `extra`, merged over the rest.
    pub extra: Map<String, Value>,
}

/// Claude Code's hook output JSON for `fields` at an `event_name` event.
///
/// | field | Claude Code's JSON |
/// |---|---|
/// | permission (PreToolUse, other events) | `hookSpecificOutput.permissionDecision` + `permissionDecisionReason` = reason |
/// | permission allow/deny (PermissionRequest) | `hookSpecificOutput.decision.behavior` (+ `message` = reason for deny, `updatedInput` for allow); ask/defer say nothing |
/// | block | `decision: "block"` + `reason` |
/// | reason without a permission | `reason` |
/// | additional context | `hookSpecificOutput.additionalContext` |
/// | updated input | `hookSpecificOutput.updatedInput`; at PermissionRequest only inside an allow (Claude Code reads it nowhere else there) |
/// | system message | `systemMessage` |
/// | continue, stop reason | `continue`, `stopReason` |
/// | extra | merged over the above, objects key by key |
///
/// `hookSpecificOutput.hookEventName` is set whenever `hookSpecificOutput`
/// is present, as Claude Code requires. No field gives `{}`.
pub fn to_claude_json(event_name: &str, fields: Fields<'_>) -> Value {
    let mut out = Map::new();
    let mut specific = Map::new();
    if let Some(c) = fields.continue_ {
        out.insert("continue".into(), Value::Bool(c));
    }
    if let Some(r) = fields.stop_reason {
        out.insert("stopReason".into(), r.into());
    }
    if let Some(m) = fields.system_message {
        out.insert("systemMessage".into(), m.into());
    }
    if fields.block {
        out.insert("decision".into(), "block".into());
    }
    if let Some(r) = fields.reason {
        // A reason with neither a block nor a permission is kept where
        // Claude Code's plain `reason` lives; it does no harm there.
        if fields.block || fields.permission.is_none() {
            out.insert("reason".into(), r.into());
        }
    }
    let permission_request = event_name == "PermissionRequest";
    let mut updated_input = fields.updated_input;
    let mut decision = None;
    match fields.permission {
        Some(p) if permission_request => {
            // The permission prompt knows only allow and deny; ask and
            // defer leave it to the user.
            if matches!(p, Permission::Allow | Permission::Deny) {
                let mut d = Map::new();
                d.insert("behavior".into(), p.as_str().into());
                if let (Permission::Deny, Some(r)) = (p, fields.reason) {
                    d.insert("message".into(), r.into());
                }
                if let (Permission::Allow, Some(input)) = (p, updated_input.take()) {
                    d.insert("updatedInput".into(), input);
                }
                decision = Some(Value::Object(d));
            }
        }
        Some(p) => {
            specific.insert("permissionDecision".into(), p.as_str().into());
            if let Some(r) = fields.reason {
                specific.insert("permissionDecisionReason".into(), r.into());
            }
        }
        None => {}
    }
    // At PermissionRequest a rewrite rides only on an allow (above).
    if let Some(input) = updated_input.filter(|_| !permission_request) {
        specific.insert("updatedInput".into(), input);
    }
    if let Some(c) = fields.additional_context {
        specific.insert("additionalContext".into(), c.into());
    }
    if let Some(d) = decision {
        specific.insert("decision".into(), d);
    }
    if !specific.is_empty() {
        out.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    let mut out = Value::Object(out);
    merge(&mut out, Value::Object(fields.extra));
    if let Some(Value::Object(specific)) = out.get_mut("hookSpecificOutput") {
        if !specific.contains_key("hookEventName") {
            // Claude Code rejects a hookSpecificOutput that does not name its event.
            let mut named = Map::new();
            named.insert("hookEventName".into(), event_name.into());
            named.append(specific);
            *specific = named;
        }
    }
    out
}

/// Merge `over` into `base`: objects key by key (recursively), anything
/// else replaced. How `extra` goes over the typed fields.
pub fn merge(base: &mut Value, over: Value) {
    match (base, over) {
        (Value::Object(base), Value::Object(over)) => {
            for (key, value) in over {
                match base.get_mut(&key) {
                    Some(old) => merge(old, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, over) => *base = over,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(event: &str, fields: Fields<'_>) -> Value {
        to_claude_json(event, fields)
    }

    #[test]
    fn a_rewrite_at_permission_request_rides_only_on_an_allow() {
        let input = Some(json!({"command": "ls"}));
        let alone = Fields {
            updated_input: input.clone(),
            ..Fields::default()
        };
        assert_eq!(at("PermissionRequest", alone.clone()), json!({}));
        let denied = Fields {
            permission: Some(Permission::Deny),
            ..alone.clone()
        };
        assert_eq!(
            at("PermissionRequest", denied),
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                   "decision": {"behavior": "deny"}}})
        );
        let allowed = Fields {
            permission: Some(Permission::Allow),
            ..alone.clone()
        };
        assert_eq!(
            at("PermissionRequest", allowed),
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                   "decision": {"behavior": "allow", "updatedInput": {"command": "ls"}}}})
        );
        assert_eq!(
            at("PreToolUse", alone),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                   "updatedInput": {"command": "ls"}}})
        );
    }

    #[test]
    fn extra_alone_gets_the_event_name() {
        let mut extra = Map::new();
        extra.insert("hookSpecificOutput".into(), json!({"sessionTitle": "t"}));
        let fields = Fields {
            extra,
            ..Fields::default()
        };
        assert_eq!(
            at("SessionStart", fields),
            json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "sessionTitle": "t"}})
        );
        assert_eq!(at("Stop", Fields::default()), json!({}));
    }
}
