//! `sdk-echo`: answers what `tool_input.answer` describes, through the SDK's
//! builders; `tool_input.fail` makes it fail with that message instead.
//!
//! A test fixture for the SDK's two mappings (to the WIT record and to Claude
//! Code's JSON), not an example of a useful hook.

#![forbid(unsafe_code)]

use agenthooks_sdk::{Answer, Event, Permission};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Spec {
    permission: Option<String>,
    reason: Option<String>,
    block: Option<String>,
    context: Option<String>,
    updated_input: Option<Value>,
    system_message: Option<String>,
    stop: Option<String>,
    extra: Map<String, Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Input {
    answer: Spec,
    fail: Option<String>,
}

fn echo(event: Event) -> Result<Answer, String> {
    let input: Input = event
        .tool_input_as()
        .map_err(|e| format!("bad spec: {e}"))?;
    if let Some(message) = input.fail {
        return Err(message);
    }
    let spec = input.answer;
    let mut answer = Answer::none();
    if let Some(p) = spec.permission.as_deref() {
        let p = match p {
            "allow" => Permission::Allow,
            "ask" => Permission::Ask,
            "defer" => Permission::Defer,
            "deny" => Permission::Deny,
            other => return Err(format!("bad permission `{other}`")),
        };
        answer = answer.with_permission(p);
    }
    if let Some(r) = spec.reason {
        answer = answer.with_reason(r);
    }
    if let Some(r) = spec.block {
        answer = answer.with_block(r);
    }
    if let Some(c) = spec.context {
        answer = answer.with_context(c);
    }
    if let Some(u) = spec.updated_input {
        answer = answer.with_updated_input(u);
    }
    if let Some(m) = spec.system_message {
        answer = answer.with_system_message(m);
    }
    if let Some(s) = spec.stop {
        answer = answer.with_stop(s);
    }
    for (key, value) in spec.extra {
        answer = answer.with_extra(key, value);
    }
    Ok(answer)
}

agenthooks_sdk::export!(echo);
