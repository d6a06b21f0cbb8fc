//! The answer a hook gives: the fields of the WIT `answer` record, with builders.

use serde_json::{Map, Value};

pub use agenthooks_answer::Permission;

/// A hook's answer, in Claude Code's hook protocol.
///
/// Every field is optional: [`Answer::none`] means "no opinion" and lets the
/// agent go on. Start from a constructor ([`Answer::deny`], [`Answer::context`],
/// ...) and add to it with the `with_*` builders:
///
/// ```
/// use agenthooks_sdk::{Answer, Permission};
/// use serde_json::json;
///
/// let answer = Answer::allow()
///     .with_updated_input(json!({"command": "ls --color=never"}))
///     .with_system_message("rewrote the command");
/// assert_eq!(answer.permission(), Some(Permission::Allow));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    permission: Option<Permission>,
    block: bool,
    reason: Option<String>,
    additional_context: Option<String>,
    updated_input: Option<Value>,
    system_message: Option<String>,
    continue_: Option<bool>,
    stop_reason: Option<String>,
    extra: Map<String, Value>,
}

impl Answer {
    /// No opinion: the agent goes on as if the hook had not run.
    pub fn none() -> Answer {
        Answer::default()
    }

    /// Before a tool: run it without asking.
    pub fn allow() -> Answer {
        Answer::none().with_permission(Permission::Allow)
    }

    /// Before a tool: do not run it; `reason` tells the model why.
    pub fn deny(reason: impl Into<String>) -> Answer {
        Answer::none()
            .with_permission(Permission::Deny)
            .with_reason(reason)
    }

    /// Before a tool: ask the user first; `reason` says what to confirm.
    pub fn ask(reason: impl Into<String>) -> Answer {
        Answer::none()
            .with_permission(Permission::Ask)
            .with_reason(reason)
    }

    /// Before a tool: leave the decision to the agent (headless mode).
    pub fn defer() -> Answer {
        Answer::none().with_permission(Permission::Defer)
    }

    /// Add `text` to the model's context (session start, prompt, after a tool).
    pub fn context(text: impl Into<String>) -> Answer {
        Answer::none().with_context(text)
    }

    /// Block: the prompt (`UserPromptSubmit`), the tool (`PreToolUse`), or
    /// stopping (at `Stop` it means "keep going", with `reason` as the next
    /// instruction). After a tool, `reason` is told to the model.
    pub fn block(reason: impl Into<String>) -> Answer {
        Answer::none().with_block(reason)
    }

    /// Stop the agent entirely (`continue: false`); `reason` is shown to the user.
    pub fn stop(reason: impl Into<String>) -> Answer {
        Answer::none().with_stop(reason)
    }

    /// Also block, with `reason` (see [`Answer::block`]).
    pub fn with_block(mut self, reason: impl Into<String>) -> Answer {
        self.block = true;
        self.with_reason(reason)
    }

    /// Also stop the agent, with `reason` shown to the user (see [`Answer::stop`]).
    pub fn with_stop(mut self, reason: impl Into<String>) -> Answer {
        self.continue_ = Some(false);
        self.stop_reason = Some(reason.into());
        self
    }

    /// Set the permission decision.
    pub fn with_permission(mut self, permission: Permission) -> Answer {
        self.permission = Some(permission);
        self
    }

    /// Set the reason shown to the model for a deny, an ask or a block.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Answer {
        self.reason = Some(reason.into());
        self
    }

    /// Add `text` to the model's context (appended on a new line if some is there).
    pub fn with_context(mut self, text: impl Into<String>) -> Answer {
        let text = text.into();
        self.additional_context = Some(match self.additional_context.take() {
            Some(before) => format!("{before}\n{text}"),
            None => text,
        });
        self
    }

    /// Before a tool: run it with this input instead (a JSON object that
    /// replaces the whole `tool_input`). A value that is not an object is
    /// passed on as is and rejected by the host as a bad answer.
    pub fn with_updated_input(mut self, input: Value) -> Answer {
        self.updated_input = Some(input);
        self
    }

    /// Show a warning to the user.
    pub fn with_system_message(mut self, message: impl Into<String>) -> Answer {
        self.system_message = Some(message.into());
        self
    }

    /// Any other field of Claude Code's answer, merged over the typed ones;
    /// objects merge key by key, e.g. `with_extra("hookSpecificOutput",
    /// json!({"sessionTitle": "x"}))` keeps the permission decision.
    pub fn with_extra(mut self, key: impl Into<String>, value: Value) -> Answer {
        let key = key.into();
        match self.extra.get_mut(&key) {
            Some(old) => agenthooks_answer::merge(old, value),
            None => {
                self.extra.insert(key, value);
            }
        }
        self
    }

    /// Whether the answer says nothing at all.
    pub fn is_none(&self) -> bool {
        self == &Answer::none()
    }

    /// The permission decision, if any.
    pub fn permission(&self) -> Option<Permission> {
        self.permission
    }

    /// Whether the answer blocks.
    pub fn is_block(&self) -> bool {
        self.block
    }

    /// The reason for a deny, an ask or a block.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// Text added to the model's context.
    pub fn additional_context(&self) -> Option<&str> {
        self.additional_context.as_deref()
    }

    /// The replacement tool input.
    pub fn updated_input(&self) -> Option<&Value> {
        self.updated_input.as_ref()
    }

    /// The warning shown to the user.
    pub fn system_message(&self) -> Option<&str> {
        self.system_message.as_deref()
    }

    /// `continue`: `Some(false)` stops the agent.
    pub fn continue_(&self) -> Option<bool> {
        self.continue_
    }

    /// Shown to the user when the agent is stopped.
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop_reason.as_deref()
    }

    /// The extra fields merged over the typed ones.
    pub fn extra(&self) -> &Map<String, Value> {
        &self.extra
    }

    /// Claude Code's hook output JSON for this answer to an `event_name`
    /// event: what a command hook prints on stdout.
    ///
    /// | field | Claude Code's JSON |
    /// |---|---|
    /// | permission (PreToolUse, other events) | `hookSpecificOutput.permissionDecision` + `permissionDecisionReason` = reason |
    /// | permission allow/deny (PermissionRequest) | `hookSpecificOutput.decision.behavior` (+ `message` = reason for deny, `updatedInput` for allow); ask/defer say nothing |
    /// | block | `decision: "block"` + `reason` |
    /// | reason without a permission | `reason` |
    /// | additional context | `hookSpecificOutput.additionalContext` |
    /// | updated input | `hookSpecificOutput.updatedInput`; at PermissionRequest only inside an allow |
    /// | system message | `systemMessage` |
    /// | continue, stop reason | `continue`, `stopReason` |
    /// | extra | merged over the above, objects key by key |
    ///
    /// `hookSpecificOutput.hookEventName` is set whenever `hookSpecificOutput`
    /// is present, as Claude Code requires. [`Answer::none`] gives `{}`.
    pub fn to_claude_json(&self, event_name: &str) -> Value {
        let fields = agenthooks_answer::Fields {
            permission: self.permission,
            block: self.block,
            reason: self.reason.as_deref(),
            additional_context: self.additional_context.as_deref(),
            updated_input: self.updated_input.clone(),
            system_message: self.system_message.as_deref(),
            continue_: self.continue_,
            stop_reason: self.stop_reason.as_deref(),
            extra: self.extra.clone(),
        };
        agenthooks_answer::to_claude_json(event_name, fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn none_is_the_empty_object() {
        assert_eq!(Answer::none().to_claude_json("PreToolUse"), json!({}));
        assert!(Answer::none().is_none());
        assert!(!Answer::allow().is_none());
    }

    #[test]
    fn deny_maps_to_permission_decision() {
        assert_eq!(
            Answer::deny("no").to_claude_json("PreToolUse"),
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no"
            }})
        );
        assert_eq!(
            Answer::ask("sure?").to_claude_json("PreToolUse")["hookSpecificOutput"]
                ["permissionDecision"],
            "ask"
        );
        assert_eq!(
            Answer::defer().to_claude_json("PreToolUse"),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}})
        );
    }

    #[test]
    fn allow_with_updated_input() {
        let a = Answer::allow().with_updated_input(json!({"command": "ls"}));
        assert_eq!(
            a.to_claude_json("PreToolUse"),
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": "ls"}
            }})
        );
    }

    #[test]
    fn permission_request_uses_decision_behavior() {
        assert_eq!(
            Answer::deny("nope").to_claude_json("PermissionRequest"),
            json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "nope"}
            }})
        );
        assert_eq!(
            Answer::allow()
                .with_updated_input(json!({"a": 1}))
                .to_claude_json("PermissionRequest"),
            json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow", "updatedInput": {"a": 1}}
            }})
        );
    }

    #[test]
    fn permission_request_has_no_ask() {
        assert_eq!(
            Answer::ask("hm").to_claude_json("PermissionRequest"),
            json!({})
        );
    }

    #[test]
    fn block_context_stop_and_system_message() {
        assert_eq!(
            Answer::block("keep going").to_claude_json("Stop"),
            json!({"decision": "block", "reason": "keep going"})
        );
        assert_eq!(
            Answer::context("branch: main").to_claude_json("SessionStart"),
            json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "branch: main"}})
        );
        assert_eq!(
            Answer::stop("done")
                .with_system_message("bye")
                .to_claude_json("Stop"),
            json!({"continue": false, "stopReason": "done", "systemMessage": "bye"})
        );
        assert_eq!(
            Answer::context("a").with_context("b").additional_context(),
            Some("a\nb")
        );
    }

    #[test]
    fn block_with_deny_keeps_both_reasons() {
        let a = Answer::deny("r").with_block("r");
        let json = a.to_claude_json("PreToolUse");
        assert_eq!(json["decision"], "block");
        assert_eq!(json["reason"], "r");
        assert_eq!(json["hookSpecificOutput"]["permissionDecisionReason"], "r");
    }

    #[test]
    fn reason_alone_is_top_level() {
        assert_eq!(
            Answer::none()
                .with_reason("why")
                .to_claude_json("PostToolUse"),
            json!({"reason": "why"})
        );
    }

    #[test]
    fn extra_merges_key_by_key() {
        let a = Answer::deny("x")
            .with_extra("hookSpecificOutput", json!({"sessionTitle": "t"}))
            .with_extra("suppressOutput", json!(true));
        assert_eq!(
            a.to_claude_json("PreToolUse"),
            json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "x",
                    "sessionTitle": "t"
                },
                "suppressOutput": true
            })
        );
        // Extra alone still names the event in hookSpecificOutput.
        let a = Answer::none().with_extra("hookSpecificOutput", json!({"sessionTitle": "t"}));
        assert_eq!(
            a.to_claude_json("UserPromptSubmit"),
            json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "sessionTitle": "t"}})
        );
        // Extra wins a conflict and merges repeated keys.
        let a = Answer::deny("x")
            .with_extra("hookSpecificOutput", json!({"permissionDecision": "ask"}))
            .with_extra("hookSpecificOutput", json!({"b": 2}));
        let json = a.to_claude_json("PreToolUse");
        assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "ask");
        assert_eq!(json["hookSpecificOutput"]["b"], 2);
    }
}
