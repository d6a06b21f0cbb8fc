//! Claude Code's answer JSON written from an [`Intent`] (the default
//! [`Agent::write`]; Codex adds its strict-schema rules on top), and the
//! adapter of the agents that speak Claude's protocol under their own names.
//!
//! [`ClaudeLike`] is the whole adapter of an agent that copies Claude's
//! hooks closely enough to be described by data alone: its [`Info`] (table,
//! install spec, deadline, the payload keys that name the event), and which
//! of the few answer [`Dialect`]s it reads (Qwen, Factory, Antigravity,
//! Goose, Crush, Auggie, Junie, Qoder, Devin). Each such agent's module is
//! then data plus tests.
//!
//! Gemini CLI's answer shares the tail of this one (`continue`,
//! `systemMessage`, `hookSpecificOutput` led by `hookEventName`), so
//! [`write_common`] is the one place that tail is written.

use serde_json::{json, Map, Value};

use super::plan::{Intent, Verdict, DEFAULT_DENY};
use super::{Agent, EventRow, Info, Native, NativeRead};
use crate::protocol::{Event, EventName};

/// How an agent described by [`ClaudeLike`] reads a hook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Claude's JSON answer (`claude_json`), exit 0.
    Claude,
    /// Only a verdict before a tool, as top-level `{"decision", "reason"}`
    /// with the agent's own words (Antigravity: `deny`/`allow`/`ask`; Goose:
    /// `block`/`allow`), exit 0. The table's caps must allow nothing else.
    Decision {
        /// The word for deny.
        deny: &'static str,
        /// The word for allow.
        allow: &'static str,
        /// The word for ask, where the agent has one.
        ask: Option<&'static str>,
    },
    /// Only a deny (or a block), as exit 2 with the reason on stderr: for
    /// agents whose JSON answer is undocumented (Junie).
    Exit2,
}

/// An agent adapter that is data only (see the module doc).
#[derive(Debug, Clone, Copy)]
pub struct ClaudeLike {
    /// Its id, names, table, install spec, deadline and event keys.
    pub info: Info,
    /// A payload key holding the tool call as `{name, args}` (Antigravity's
    /// `toolCall`), copied to `tool_name`/`tool_input`.
    pub tool_call: Option<&'static str>,
    /// How the agent reads the answer.
    pub dialect: Dialect,
    /// [`Agent::reads_hooks_file`], for an agent that reads agenthooks' own
    /// file natively.
    pub reads_hooks_file: Option<fn(&Value) -> NativeRead>,
}

impl ClaudeLike {
    /// The agent `info` describes, with no tool-call object, not reading
    /// agenthooks' file, answering in `dialect`; the `with_*` methods say
    /// where it differs.
    pub const fn new(info: Info, dialect: Dialect) -> ClaudeLike {
        ClaudeLike {
            info,
            tool_call: None,
            dialect,
            reads_hooks_file: None,
        }
    }

    /// The same agent, sending the tool call as `{name, args}` under `key`.
    pub const fn with_tool_call(self, key: &'static str) -> ClaudeLike {
        ClaudeLike {
            tool_call: Some(key),
            ..self
        }
    }

    /// The same agent, reading agenthooks' own file natively as `read` says.
    pub const fn with_reads_hooks_file(self, read: fn(&Value) -> NativeRead) -> ClaudeLike {
        ClaudeLike {
            reads_hooks_file: Some(read),
            ..self
        }
    }
}

impl Agent for ClaudeLike {
    fn info(&self) -> &Info {
        &self.info
    }

    fn reads_hooks_file(&self, file: &Value) -> Option<NativeRead> {
        self.reads_hooks_file.map(|read| read(file))
    }

    fn reshape(&self, _row: &EventRow, input: &mut Map<String, Value>) {
        let call = self
            .tool_call
            .and_then(|key| input.get(key))
            .and_then(Value::as_object)
            .cloned();
        if let Some(call) = call {
            if let Some(name) = call.get("name").filter(|n| n.is_string()) {
                input.entry("tool_name").or_insert_with(|| name.clone());
            }
            if let Some(args) = call.get("args") {
                input
                    .entry("tool_input")
                    .or_insert_with(|| super::parse_if_string(args.clone()));
            }
        }
    }

    fn write(&self, event: &Event, row: &EventRow, intent: Intent) -> Native {
        let (deny, allow, ask) = match self.dialect {
            Dialect::Claude => {
                let value = claude_json(event.name(), row.native, &intent);
                return Native::json(&value, intent.notes);
            }
            Dialect::Exit2 => return write_exit2(intent),
            Dialect::Decision { deny, allow, ask } => (deny, allow, ask),
        };
        let Some(verdict) = intent.verdict else {
            return Native::ok(String::new(), intent.notes);
        };
        let word = match verdict {
            Verdict::Deny => deny,
            Verdict::Allow => allow,
            // Planning turns ask into a deny where the table has no ask.
            Verdict::Ask => ask.unwrap_or(deny),
        };
        let mut out = Map::new();
        out.insert("decision".into(), json!(word));
        if let Some(r) = intent.verdict_reason() {
            out.insert("reason".into(), json!(r));
        }
        Native::json(&Value::Object(out), intent.notes)
    }
}

/// [`Dialect::Exit2`] (and Windsurf's answer): a deny or a block is exit 2
/// with its reason on stderr, anything else "no opinion". Only deny survives
/// planning among the verdicts of such an agent (ask became a deny).
pub(super) fn write_exit2(intent: Intent) -> Native {
    if intent.verdict.is_some() {
        return Native::exit2(&intent.reason_or(DEFAULT_DENY), intent.notes);
    }
    if intent.block.is_some() {
        return Native::exit2(&intent.block_reason_or(DEFAULT_DENY), intent.notes);
    }
    Native::ok(String::new(), intent.notes)
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
            put_verdict(&mut hso, intent, PERMISSION_DECISION);
            if let Some(input) = &intent.updated_input {
                hso.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        EventName::PermissionRequest => {
            let mut decision = Map::new();
            put_verdict(&mut decision, intent, BEHAVIOR);
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

/// Where and how an agent's answer writes a verdict: the key, the verdict's
/// spelling there, and the keys its reason goes under.
pub(super) struct VerdictKeys {
    /// The verdict's key (`permissionDecision`).
    pub key: &'static str,
    /// How the verdict is spelled there.
    pub spell: fn(Verdict) -> &'static str,
    /// The keys the reason is written under (`permissionDecisionReason`).
    pub reason: &'static [&'static str],
}

/// Claude's `permissionDecision` before a tool (Copilot's too, at the top level).
pub(super) const PERMISSION_DECISION: VerdictKeys = VerdictKeys {
    key: "permissionDecision",
    spell: verdict_str,
    reason: &["permissionDecisionReason"],
};

/// Claude's PermissionRequest `decision.behavior` (Copilot's too, at the top level).
pub(super) const BEHAVIOR: VerdictKeys = VerdictKeys {
    key: "behavior",
    spell: behavior_str,
    reason: &["message"],
};

/// Writes the intent's verdict, if any, into `out` as `keys` say, with its
/// reason ([`Intent::verdict_reason`]: a deny always has one).
pub(super) fn put_verdict(out: &mut Map<String, Value>, intent: &Intent, keys: VerdictKeys) {
    let Some(v) = intent.verdict else {
        return;
    };
    out.insert(keys.key.into(), json!((keys.spell)(v)));
    if let Some(r) = intent.verdict_reason() {
        for key in keys.reason {
            out.insert((*key).into(), json!(r));
        }
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
