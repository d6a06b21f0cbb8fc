//! Arbitrary [`Answer`]s: every shape the aggregator can hand an encoder.
//!
//! `Answer` lives in the runtime, which does not depend on `arbitrary`; these
//! mirrors derive it and convert. Extra keys get an `x` prefix so they never
//! collide with a named field: a parsed answer cannot have both (serde takes
//! the named field first).

use agenthooks::fuzzing::{
    Answer, Behavior, Decision, HookSpecificOutput, PermissionDecision, PermissionRequestDecision,
};
use arbitrary::Arbitrary;
use serde_json::{Map, Value};

/// A JSON value, flat (a recursive derive could nest without bound); `Json`
/// is any text that parses, for depth.
#[derive(Debug, Arbitrary)]
enum FuzzValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Json(String),
}

impl FuzzValue {
    fn into_value(self) -> Value {
        match self {
            FuzzValue::Null => Value::Null,
            FuzzValue::Bool(b) => Value::Bool(b),
            FuzzValue::Int(i) => Value::from(i),
            FuzzValue::Float(f) => {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            FuzzValue::Str(s) => Value::String(s),
            FuzzValue::Json(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        }
    }
}

fn map(entries: Vec<(String, FuzzValue)>, prefix: &str) -> Map<String, Value> {
    entries
        .into_iter()
        .map(|(k, v)| (format!("{prefix}{k}"), v.into_value()))
        .collect()
}

#[derive(Debug, Arbitrary)]
enum FuzzPermission {
    Allow,
    Ask,
    Defer,
    Deny,
}

#[derive(Debug, Arbitrary)]
struct FuzzRequestDecision {
    allow: Option<bool>,
    message: Option<String>,
    interrupt: Option<bool>,
    updated_input: Option<Vec<(String, FuzzValue)>>,
    extra: Vec<(String, FuzzValue)>,
}

#[derive(Debug, Arbitrary)]
struct FuzzSpecific {
    hook_event_name: Option<String>,
    permission_decision: Option<FuzzPermission>,
    permission_decision_reason: Option<String>,
    updated_input: Option<Vec<(String, FuzzValue)>>,
    additional_context: Option<String>,
    decision: Option<FuzzRequestDecision>,
    extra: Vec<(String, FuzzValue)>,
}

/// The arbitrary twin of [`Answer`].
#[derive(Debug, Arbitrary)]
pub struct FuzzAnswer {
    continue_: Option<bool>,
    stop_reason: Option<String>,
    system_message: Option<String>,
    suppress_output: Option<bool>,
    /// `Some(true)`: block; `Some(false)`: the deprecated approve.
    block: Option<bool>,
    reason: Option<String>,
    specific: Option<FuzzSpecific>,
    extra: Vec<(String, FuzzValue)>,
}

impl FuzzAnswer {
    /// The runtime's [`Answer`].
    pub fn into_answer(self) -> Answer {
        Answer {
            continue_: self.continue_,
            stop_reason: self.stop_reason,
            system_message: self.system_message,
            suppress_output: self.suppress_output,
            decision: self.block.map(|b| {
                if b {
                    Decision::Block
                } else {
                    Decision::Approve
                }
            }),
            reason: self.reason,
            hook_specific_output: self.specific.map(|s| HookSpecificOutput {
                hook_event_name: s.hook_event_name,
                permission_decision: s.permission_decision.map(|p| match p {
                    FuzzPermission::Allow => PermissionDecision::Allow,
                    FuzzPermission::Ask => PermissionDecision::Ask,
                    FuzzPermission::Defer => PermissionDecision::Defer,
                    FuzzPermission::Deny => PermissionDecision::Deny,
                }),
                permission_decision_reason: s.permission_decision_reason,
                updated_input: s.updated_input.map(|m| map(m, "")),
                additional_context: s.additional_context,
                decision: s.decision.map(|d| PermissionRequestDecision {
                    behavior: d
                        .allow
                        .map(|a| if a { Behavior::Allow } else { Behavior::Deny }),
                    message: d.message,
                    interrupt: d.interrupt,
                    updated_input: d.updated_input.map(|m| map(m, "")),
                    extra: map(d.extra, "x"),
                }),
                extra: map(s.extra, "x"),
            }),
            extra: map(self.extra, "x"),
        }
    }
}

/// Whether `answer` says anything against going on as asked: a deny, ask
/// or defer before a tool, a block, a stop, a PermissionRequest deny, or a
/// rewritten tool input (an agent that cannot apply it denies rather than
/// run the original, docs/design.md §7). An answer without any of these must
/// never come out of an encoder as a block.
pub fn objects(answer: &Answer) -> bool {
    let permission = matches!(
        answer.permission(),
        Some(PermissionDecision::Deny | PermissionDecision::Ask | PermissionDecision::Defer)
    );
    let behavior = answer
        .hook_specific_output
        .as_ref()
        .and_then(|h| h.decision.as_ref())
        .and_then(|d| d.behavior)
        == Some(Behavior::Deny);
    permission || behavior || answer.blocks() || answer.stops() || answer.updated_input().is_some()
}
