//! The canonical answer: Claude Code's hook output, typed.
//!
//! A hook's stdout JSON parses into an [`Answer`]; the aggregator folds many
//! into one; adapters read the one to write their agent's native answer. Fields
//! this type does not name are kept verbatim in `extra`, so an answer passes
//! through to Claude Code unchanged.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Claude Code's hook output (the contract).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// `false` stops the agent entirely; takes precedence over everything else.
    #[serde(rename = "continue", default, skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Shown to the user when `continue` is `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// A warning shown to the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Hide the hook's output from the transcript (accepted, no effect in Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// `block` (or the deprecated `approve`, before a tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The reason for `decision`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The event-specific part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<HookSpecificOutput>,
    /// Anything else the hook said, kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The top-level `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Block the prompt / tool / stop ("keep going" at Stop).
    Block,
    /// Deprecated: allow the tool (before a tool only).
    Approve,
}

/// A permission decision before a tool, in precedence order (`deny` wins).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum PermissionDecision {
    /// Run the tool without asking.
    Allow,
    /// Ask the user.
    Ask,
    /// Defer to the agent (headless mode).
    Defer,
    /// Do not run the tool.
    Deny,
}

impl PermissionDecision {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionDecision::Allow => "allow",
            PermissionDecision::Ask => "ask",
            PermissionDecision::Defer => "defer",
            PermissionDecision::Deny => "deny",
        }
    }
}

/// `hookSpecificOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookSpecificOutput {
    /// The event this output is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_event_name: Option<String>,
    /// PreToolUse: allow / deny / ask / defer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// PreToolUse: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// PreToolUse: the tool input to use instead (replaces the whole input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// Context added for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// PermissionRequest: the decision on the permission prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// Anything else, kept verbatim (`sessionTitle`, `updatedToolOutput`, ...).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// PermissionRequest's `hookSpecificOutput.decision`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequestDecision {
    /// `allow` or `deny`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behavior: Option<Behavior>,
    /// With `deny`: told to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// With `deny`: stop the agent too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
    /// With `allow`: the tool input to use instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// Anything else (`updatedPermissions`, ...), kept verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// PermissionRequest's `behavior`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Behavior {
    /// Grant the permission.
    Allow,
    /// Refuse it.
    Deny,
}

impl Answer {
    /// An answer with no opinion: the agent goes on as if no hook ran.
    pub fn none() -> Answer {
        Answer::default()
    }

    /// Whether this answer says nothing at all.
    pub fn is_empty(&self) -> bool {
        self == &Answer::default()
    }

    /// The permission decision before a tool, counting the deprecated top-level
    /// `decision` (`block` = deny, `approve` = allow) when no
    /// `permissionDecision` is given.
    pub fn permission(&self) -> Option<PermissionDecision> {
        let hso = self.hook_specific_output.as_ref();
        if let Some(p) = hso.and_then(|h| h.permission_decision) {
            return Some(p);
        }
        match self.decision {
            Some(Decision::Block) => Some(PermissionDecision::Deny),
            Some(Decision::Approve) => Some(PermissionDecision::Allow),
            None => None,
        }
    }

    /// The reason given with the permission decision (or the deprecated `reason`).
    pub fn permission_reason(&self) -> Option<&str> {
        self.hook_specific_output
            .as_ref()
            .and_then(|h| h.permission_decision_reason.as_deref())
            .or(self.reason.as_deref())
    }

    /// Whether the answer blocks (`decision: block`).
    pub fn blocks(&self) -> bool {
        self.decision == Some(Decision::Block)
    }

    /// Whether the answer stops the agent (`continue: false`).
    pub fn stops(&self) -> bool {
        self.continue_ == Some(false)
    }

    /// `hookSpecificOutput.additionalContext`.
    pub fn additional_context(&self) -> Option<&str> {
        self.hook_specific_output
            .as_ref()
            .and_then(|h| h.additional_context.as_deref())
    }

    /// `hookSpecificOutput.updatedInput` (or PermissionRequest's `decision.updatedInput`).
    pub fn updated_input(&self) -> Option<&Map<String, Value>> {
        let hso = self.hook_specific_output.as_ref()?;
        hso.updated_input
            .as_ref()
            .or_else(|| hso.decision.as_ref().and_then(|d| d.updated_input.as_ref()))
    }

    /// The `hookSpecificOutput`, created when missing.
    pub fn specific_mut(&mut self) -> &mut HookSpecificOutput {
        self.hook_specific_output
            .get_or_insert_with(HookSpecificOutput::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_round_trip() {
        let v = json!({
            "continue": true,
            "decision": "block",
            "reason": "r",
            "terminalSequence": "\u{7}",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "sessionTitle": "t",
                "decision": {"behavior": "deny", "message": "m", "interrupt": true, "updatedPermissions": []}
            }
        });
        let a: Answer = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(a.extra["terminalSequence"], "\u{7}");
        assert_eq!(a.permission(), Some(PermissionDecision::Ask));
        assert_eq!(serde_json::to_value(&a).unwrap(), v);
    }

    #[test]
    fn deprecated_decisions_map_to_permissions() {
        let a: Answer = serde_json::from_value(json!({"decision":"approve"})).unwrap();
        assert_eq!(a.permission(), Some(PermissionDecision::Allow));
        let a: Answer = serde_json::from_value(json!({"decision":"block","reason":"no"})).unwrap();
        assert_eq!(a.permission(), Some(PermissionDecision::Deny));
        assert_eq!(a.permission_reason(), Some("no"));
    }

    #[test]
    fn precedence_order_is_deny_defer_ask_allow() {
        use PermissionDecision::*;
        let mut v = vec![Allow, Deny, Ask, Defer];
        v.sort();
        assert_eq!(v, vec![Allow, Ask, Defer, Deny]);
    }

    #[test]
    fn empty_answer_serializes_to_empty_object() {
        assert_eq!(serde_json::to_string(&Answer::none()).unwrap(), "{}");
        assert!(Answer::none().is_empty());
    }
}
