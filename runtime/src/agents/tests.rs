//! Tests over every agent at once, and helpers the per-agent tests share.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::*;
use crate::protocol::{Answer, Note, PermissionDecision};

/// Every recorded payload of `agent`: (path, event name from the file name, payload).
pub fn fixtures(agent: &str) -> Vec<(PathBuf, String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/agents");
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{agent}-")))
        })
        .collect();
    dirs.sort();
    for version in dirs {
        for phase in std::fs::read_dir(&version).expect("version dir") {
            let phase = phase.expect("entry").path();
            if !phase.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&phase).expect("phase dir") {
                let file = file.expect("entry").path();
                if file.extension().and_then(|e| e.to_str()) != Some("json") {
                    continue;
                }
                let stem = file.file_stem().and_then(|s| s.to_str()).expect("stem");
                let event = stem.split_once('-').map_or(stem, |(_, e)| e).to_string();
                let text = std::fs::read_to_string(&file).expect("read fixture");
                let value: Value = serde_json::from_str(&text).expect("fixture is JSON");
                out.push((file, event, value));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Every payload of `agent` in `tests/fixtures/agents/`, decoded under the
/// native event its file is named after: (file name, event).
pub fn decoded_fixtures(agent: &dyn Agent) -> Vec<(String, Event)> {
    let all = fixtures(agent.id());
    assert!(!all.is_empty(), "{}: no payloads", agent.id());
    all.into_iter()
        .map(|(path, native, payload)| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let event = agent
                .decode(payload, Some(&native))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(event.native_name(), Some(native.as_str()), "{name}");
            (name, event)
        })
        .collect()
}

/// The recorded payload `file` of `phase` (`control-allow`,
/// `04-PostToolUse.json`), decoded under the event its name gives.
pub fn recorded(agent: &dyn Agent, phase: &str, file: &str) -> Event {
    let (_, native, payload) = fixtures(agent.id())
        .into_iter()
        .find(|(path, _, _)| path.ends_with(format!("{phase}/{file}")))
        .unwrap_or_else(|| panic!("{}: no {phase}/{file}", agent.id()));
    agent
        .decode(payload, Some(&native))
        .unwrap_or_else(|e| panic!("{phase}/{file}: {e}"))
}

/// The source of the plugin (or extension) `install` writes for `agent`,
/// subscribed to its installed events.
pub fn plugin_source(agent: &dyn Agent) -> String {
    let Registration::Plugin(spec) = agent.install_spec().registration else {
        panic!("{} registers no plugin", agent.id());
    };
    let events: Vec<_> = agent.table().installed().collect();
    (spec.text)(Path::new("agenthooks"), &events)
}

/// The decoded payload in the file called `name`.
pub fn fixture_event(agent: &dyn Agent, name: &str) -> Event {
    decoded_fixtures(agent)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{}: no fixture {name}", agent.id()))
        .1
}

/// `payload` as `agent` decodes it, from the event the payload names.
pub fn decoded(agent: &dyn Agent, payload: Value) -> Event {
    decoded_at(agent, payload, None)
}

/// `payload` as `agent` decodes it, with `--event` `event`.
pub fn decoded_at(
    agent: &dyn Agent,
    payload: Value,
    event: impl Into<Option<&'static str>>,
) -> Event {
    agent
        .decode(payload, event.into())
        .unwrap_or_else(|e| panic!("{} cannot decode: {e}", agent.id()))
}

/// An answer from its Claude JSON.
pub fn answer(v: Value) -> Answer {
    serde_json::from_value(v).expect("answer JSON")
}

/// `permissionDecision: deny` + reason.
pub fn deny(reason: &str) -> Answer {
    answer(
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":reason}}),
    )
}

/// `permissionDecision: ask` + reason.
pub fn ask(reason: &str) -> Answer {
    answer(
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":reason}}),
    )
}

/// `permissionDecision: allow`.
pub fn allow() -> Answer {
    answer(
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}),
    )
}

/// `permissionDecision: allow` + `updatedInput`.
pub fn rewrite(input: Value) -> Answer {
    answer(
        json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":input}}),
    )
}

/// `additionalContext`.
pub fn context(text: &str) -> Answer {
    answer(json!({"hookSpecificOutput":{"additionalContext":text}}))
}

/// `decision: block` + reason.
pub fn block(reason: &str) -> Answer {
    answer(json!({"decision":"block","reason":reason}))
}

/// `continue: false` + `stopReason`.
pub fn stop(reason: &str) -> Answer {
    answer(json!({"continue":false,"stopReason":reason}))
}

/// `systemMessage`.
pub fn system(message: &str) -> Answer {
    answer(json!({"systemMessage":message}))
}

/// A made-up event as `agent` would have decoded it from `native`.
pub fn event_at(agent: &dyn Agent, row: &EventRow, extra: Value) -> Event {
    let mut input = Map::new();
    if row.canonical.is_tool_event() {
        let tool = row.tool.unwrap_or("Bash");
        input.insert("tool_name".into(), json!(tool));
        input.insert(
            "tool_input".into(),
            json!({"command":"ls","file_path":"/p/a.txt"}),
        );
    }
    if let Value::Object(extra) = extra {
        input.extend(extra);
    }
    Event::new(Value::Object(input), Some(row.canonical), agent.id())
        .expect("event")
        .with_native(row.native)
}

/// [`event_at`] the row of `agent`'s native event `native`, nothing extra.
pub fn at_native(agent: &dyn Agent, native: &str) -> Event {
    let row = agent.table().by_native(native).expect("a row of that name");
    event_at(agent, row, json!({}))
}

/// The stdout of a native answer as JSON.
pub fn stdout_json(native: &Native) -> Value {
    serde_json::from_str(&native.stdout)
        .unwrap_or_else(|e| panic!("stdout {:?}: {e}", native.stdout))
}

/// `answer` as `agent` answers `event`, its stdout read as JSON.
pub fn answered(agent: &dyn Agent, event: &Event, answer: &Answer) -> Value {
    stdout_json(&agent.encode(event, answer))
}

/// The one answer of each kind, built for `event`.
fn answer_of(kind: AnswerKind, event: EventName) -> Answer {
    let mut a = match kind {
        AnswerKind::Deny => deny("no"),
        AnswerKind::Ask => ask("sure?"),
        AnswerKind::Allow => allow(),
        AnswerKind::UpdatedInput => {
            let mut a = Answer::none();
            a.specific_mut().updated_input = Some(
                json!({"command":"ls -la","file_path":"/p/b.txt"})
                    .as_object()
                    .cloned()
                    .expect("object"),
            );
            a
        }
        AnswerKind::Context => context("ctx"),
        AnswerKind::Block => block("because"),
        AnswerKind::Stop => stop("halt"),
        AnswerKind::SystemMessage => system("hello user"),
    };
    if event == EventName::PermissionRequest {
        // Claude's PermissionRequest answers through decision.behavior.
        if let Some(p) = a.permission() {
            let behavior = match p {
                PermissionDecision::Deny => Some(crate::protocol::Behavior::Deny),
                PermissionDecision::Allow => Some(crate::protocol::Behavior::Allow),
                PermissionDecision::Ask | PermissionDecision::Defer => None,
            };
            if behavior.is_some() {
                let hso = a.specific_mut();
                hso.permission_decision = None;
                let reason = hso.permission_decision_reason.take();
                hso.decision = Some(crate::protocol::PermissionRequestDecision {
                    behavior,
                    message: reason,
                    ..Default::default()
                });
            }
        }
    }
    a
}

fn is_permission(e: EventName) -> bool {
    e.takes_permission()
}

#[test]
fn every_agent_is_registered_once_and_found_by_id() {
    let mut ids: Vec<&str> = AGENTS.iter().map(|a| a.id()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), AGENTS.len());
    for a in AGENTS {
        assert_eq!(find(a.id()).map(|f| f.id()), Some(a.id()));
    }
    assert!(find("nope").is_none());
    let err = named("nope").err().expect("no such agent");
    assert!(
        err.to_string()
            .starts_with("no agent named `nope` (known: claude, codex, gemini,"),
        "{err}"
    );
}

#[test]
fn tables_give_permission_answers_only_before_tools_and_block_only_elsewhere() {
    for agent in AGENTS {
        for row in agent.table().events {
            let c = row.caps;
            if is_permission(row.canonical) {
                assert!(
                    !c.block,
                    "{} {}: block on a permission event",
                    agent.id(),
                    row.native
                );
            } else {
                assert!(
                    !(c.deny || c.ask || c.allow || c.updated_input),
                    "{} {}: permission answer outside a tool event",
                    agent.id(),
                    row.native
                );
            }
            assert!(row.tool.is_none() || row.canonical.is_tool_event());
        }
        // Native names are unique within an agent.
        let mut names: Vec<&str> = agent.table().events.iter().map(|r| r.native).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "{}: duplicate native event", agent.id());
    }
}

#[test]
fn every_capability_row_agrees_with_the_event_facts_claude_included() {
    for agent in AGENTS {
        for row in agent.table().events {
            let (c, e) = (row.caps, row.canonical);
            let ctx = format!("{} {} ({e})", agent.id(), row.native);
            // An agent can act on a block only where the aggregator makes one,
            // and on a verdict only where the event takes one.
            assert!(!c.block || e.takes_block(), "block: {ctx}");
            let verdict = c.deny || c.ask || c.allow || c.updated_input;
            assert!(!verdict || e.takes_permission(), "verdict: {ctx}");
        }
    }
    // Claude Code is the protocol: its row is the event facts exactly, for
    // every event.
    let claude = find("claude").expect("claude");
    for e in EventName::ALL.iter().copied() {
        let row = claude
            .table()
            .events
            .iter()
            .find(|r| r.canonical == e)
            .unwrap_or_else(|| panic!("claude has no row for {e}"));
        assert_eq!(row.caps.block, e.takes_block(), "claude block at {e}");
        assert_eq!(row.caps.deny, e.takes_permission(), "claude deny at {e}");
    }
}

#[test]
fn the_encoder_drops_a_field_exactly_when_the_capability_row_says_so() {
    for agent in AGENTS.iter().filter(|a| a.id() != "claude") {
        for row in agent.table().events {
            let event = event_at(*agent, row, json!({}));
            let silent = agent.encode(&event, &Answer::none());
            for kind in AnswerKind::ALL.iter().copied() {
                let applies = match kind {
                    AnswerKind::Deny
                    | AnswerKind::Ask
                    | AnswerKind::Allow
                    | AnswerKind::UpdatedInput => is_permission(row.canonical),
                    AnswerKind::Block => !is_permission(row.canonical),
                    AnswerKind::Context | AnswerKind::Stop | AnswerKind::SystemMessage => true,
                };
                if !applies
                    || (row.canonical == EventName::PermissionRequest && kind == AnswerKind::Ask)
                {
                    continue;
                }
                let native = agent.encode(&event, &answer_of(kind, row.canonical));
                let dropped: Vec<&Note> = native
                    .notes()
                    .filter(|n| n.kind == crate::protocol::NoteKind::Dropped(kind))
                    .collect();
                let all_notes: Vec<&Note> = native.notes().collect();
                let ctx = format!("{} {} {:?}: {native:?}", agent.id(), row.native, kind);
                if row.caps.supports(kind) {
                    assert!(all_notes.is_empty(), "supported but noted: {ctx}");
                    assert_ne!(native, silent, "supported but no effect: {ctx}");
                } else {
                    assert_eq!(dropped.len(), 1, "unsupported needs one note: {ctx}");
                    assert_eq!(all_notes.len(), 1, "one note only: {ctx}");
                }
            }
        }
    }
}

#[test]
fn every_answer_encodes_to_well_formed_native_output() {
    for agent in AGENTS {
        for row in agent.table().events {
            let event = event_at(*agent, row, json!({}));
            let none = agent.encode(&event, &Answer::none());
            assert_eq!(
                none.exit_code,
                0,
                "{} {}: no opinion exits 0",
                agent.id(),
                row.native
            );
            assert!(
                none.stderr.is_empty(),
                "{} {}: no opinion is silent",
                agent.id(),
                row.native
            );
            let mut answers: Vec<Answer> = AnswerKind::ALL
                .iter()
                .map(|k| answer_of(*k, row.canonical))
                .collect();
            answers.push(answer(json!({"decision":"approve"})));
            answers.push(answer(
                json!({"hookSpecificOutput":{"permissionDecision":"defer"}}),
            ));
            answers.push(answer(json!({"continue":false,"decision":"block","systemMessage":"m","terminalSequence":"x","hookSpecificOutput":{"additionalContext":"c","sessionTitle":"t","permissionDecision":"ask","updatedInput":{"command":"x"}}})));
            answers.push(answer(json!({"decision":"block"})));
            answers.push(answer(
                json!({"hookSpecificOutput":{"permissionDecision":"deny"}}),
            ));
            for a in answers {
                let native = agent.encode(&event, &a);
                let ctx = format!("{} {} {a:?}: {native:?}", agent.id(), row.native);
                if !native.stdout.is_empty() && !agent.table().plain_stdout {
                    let v: Value = serde_json::from_str(&native.stdout)
                        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    assert!(v.is_object(), "{ctx}");
                }
                assert!(matches!(native.exit_code, 0 | 2), "{ctx}");
                if native.exit_code == 2 {
                    assert!(
                        native.stderr.first().is_some_and(|l| !l.trim().is_empty()),
                        "exit 2 needs a reason first on stderr: {ctx}"
                    );
                }
                for line in &native.stderr {
                    assert!(!line.contains('\n'), "one line each: {ctx}");
                }
            }
        }
    }
}

#[test]
fn decode_never_panics_on_odd_json() {
    let odd = [
        json!(null),
        json!([]),
        json!([1, {"a": 2}]),
        json!("PreToolUse"),
        json!(42),
        json!({}),
        json!({"hook_event_name": 5}),
        json!({"hook_event_name": "PreToolUse", "tool_name": {"x":1}, "tool_input": "not json"}),
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": [1,2]}),
        json!({"hookName": ["x"], "toolName": 3, "toolArgs": "{\"command\":"}),
        json!({"agent_action_name": {"a": null}, "tool_info": "str"}),
        json!({"tool_info": {"command_line": 3, "mcp_tool_arguments": "[]"}}),
        json!({"tool_call": "x", "preToolUse": {"parameters": null}, "postToolUse": 7}),
        json!({"tool_input": {"operations": "x"}, "tool_name": "fs_read"}),
        json!({"tool_input": {"operations": [1, null, {"path": 4}]}, "tool_name": "fs_read"}),
        json!({"mcp_context": {"server_name": 1}, "tool_name": "read_file", "tool_input": {"start_line": "a", "end_line": -4}}),
        json!({"tool_name": "apply_patch", "tool_input": {"command": 7}}),
        json!({"args": "x", "tool": null, "permission": []}),
        json!({"sessionId": {"deep": [[[[{}]]]]}}),
    ];
    for agent in AGENTS {
        let mut events: Vec<Option<&str>> = vec![None, Some("PreToolUse"), Some("nonsense")];
        events.extend(agent.table().events.iter().map(|r| Some(r.native)));
        for ev in events {
            for v in &odd {
                let _ = agent.decode(v.clone(), ev);
            }
        }
    }
}

#[test]
fn unmapped_native_events_are_reported_as_such() {
    for agent in AGENTS.iter().filter(|a| a.id() != "claude") {
        let got = agent.decode(
            json!({"hook_event_name": "NoSuchEvent"}),
            Some("NoSuchEvent"),
        );
        assert!(
            matches!(got, Err(DecodeError::UnmappedEvent { agent: a, .. }) if a == agent.id()),
            "{}: {got:?}",
            agent.id()
        );
    }
}

#[test]
fn capabilities_come_from_the_table() {
    for agent in AGENTS {
        let caps = agent.capabilities();
        assert_eq!(caps.agent, agent.id());
        assert_eq!(
            caps.events.iter().map(|r| r.event).collect::<Vec<_>>(),
            agent.events()
        );
        for row in &caps.events {
            for native in &row.native {
                let r = agent.table().by_native(native).expect("row");
                for k in r.caps.kinds() {
                    assert!(row.answers.contains(&k));
                }
            }
        }
    }
}

#[test]
fn claude_passes_answers_through_unchanged() {
    let claude = find("claude").expect("claude");
    let ev = claude
        .decode(json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}), None)
        .expect("decode");
    let a = answer(
        json!({"decision":"block","terminalSequence":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}),
    );
    let native = claude.encode(&ev, &a);
    assert_eq!(
        stdout_json(&native),
        serde_json::to_value(&a).expect("json")
    );
    assert!(native.stderr.is_empty());
    assert_eq!(claude.encode(&ev, &Answer::none()), Native::default());
}

/// (agent, native event, answer, expected stdout, exit code, reason lines, notes).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    i32,
    &'static [&'static str],
    usize,
);

/// Each canonical answer × each agent, against the agent's documented answer
/// (`docs/agent-protocols.md` §14.3): (agent, native event, answer,
/// expected stdout — JSON compared as JSON, else exactly —, exit code,
/// stderr lines that are not notes, number of notes).
#[test]
fn each_canonical_answer_is_each_agent_s_documented_answer() {
    const HSO_DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    const HSO_ASK: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#;
    const HSO_ALLOW: &str =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    // An agent that cannot apply a rewrite denies rather than run the original input.
    const QWEN_REWRITE_DENIED: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook rewrote the tool input, which qwen cannot apply; denied rather than running the original input"}}"#;
    const WINDSURF_REWRITE_DENIED: &str = "a hook rewrote the tool input, which windsurf cannot apply; denied rather than running the original input";
    const KIRO_REWRITE_DENIED: &str = "a hook rewrote the tool input, which kiro cannot apply; denied rather than running the original input";
    const HSO_REWRITE: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}"#;
    const SS_CTX: &str =
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}"#;
    const BLOCK_NO: &str = r#"{"decision":"block","reason":"no"}"#;
    const AGAIN: &str = r#"{"decision":"block","reason":"again"}"#;
    const HALT: &str = r#"{"continue":false,"stopReason":"halt"}"#;
    // Factory and Qoder answer as Claude does, but for SessionStart's
    // `hookEventName`.
    #[rustfmt::skip]
    let claude_s: &[(&str, &str, &str)] = &[
        ("PreToolUse", "deny", HSO_DENY),
        ("PreToolUse", "ask", HSO_ASK),
        ("PreToolUse", "allow", HSO_ALLOW),
        ("PreToolUse", "rewrite", HSO_REWRITE),
        ("SessionStart", "context", SS_CTX),
        ("UserPromptSubmit", "block", BLOCK_NO),
        ("Stop", "keep going", AGAIN),
        ("Stop", "stop", HALT),
        ("PreToolUse", "none", ""),
    ];
    let as_claude = ["factory", "qoder"].into_iter().flat_map(|id| {
        let no_lines: &[&str] = &[];
        claude_s
            .iter()
            .map(move |&(native, what, stdout)| (id, native, what, stdout, 0, no_lines, 0))
    });
    #[rustfmt::skip]
    let mut cases: Vec<Case> = vec![
        ("claude", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("claude", "PreToolUse", "ask", HSO_ASK, 0, &[], 0),
        ("claude", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("claude", "PreToolUse", "rewrite", HSO_REWRITE, 0, &[], 0),
        ("claude", "SessionStart", "context", r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#, 0, &[], 0),
        ("claude", "UserPromptSubmit", "block", BLOCK_NO, 0, &[], 0),
        ("claude", "Stop", "keep going", AGAIN, 0, &[], 0),
        ("claude", "Stop", "stop", HALT, 0, &[], 0),
        ("claude", "PreToolUse", "none", "", 0, &[], 0),

        ("codex", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("codex", "PreToolUse", "ask", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook asked for confirmation, which codex cannot ask for: sure?"}}"#, 0, &[], 1),
        ("codex", "PreToolUse", "allow", "", 0, &[], 1),
        ("codex", "PreToolUse", "rewrite", HSO_REWRITE, 0, &[], 0),
        ("codex", "SessionStart", "context", SS_CTX, 0, &[], 0),
        ("codex", "UserPromptSubmit", "block", BLOCK_NO, 0, &[], 0),
        ("codex", "Stop", "keep going", AGAIN, 0, &[], 0),
        ("codex", "Stop", "stop", HALT, 0, &[], 0),
        ("codex", "PreToolUse", "none", "", 0, &[], 0),

        ("gemini", "BeforeTool", "deny", r#"{"decision":"deny","reason":"no"}"#, 0, &[], 0),
        ("gemini", "BeforeTool", "ask", r#"{"decision":"ask","reason":"sure?"}"#, 0, &[], 0),
        ("gemini", "BeforeTool", "allow", r#"{"decision":"allow"}"#, 0, &[], 0),
        ("gemini", "BeforeTool", "rewrite", r#"{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls -la"}}}"#, 0, &[], 0),
        ("gemini", "SessionStart", "context", SS_CTX, 0, &[], 0),
        ("gemini", "BeforeAgent", "block", r#"{"decision":"deny","reason":"no"}"#, 0, &[], 0),
        ("gemini", "AfterAgent", "keep going", r#"{"decision":"deny","reason":"again"}"#, 0, &[], 0),
        ("gemini", "AfterAgent", "stop", HALT, 0, &[], 0),
        ("gemini", "BeforeTool", "none", "{}", 0, &[], 0),

        ("copilot", "preToolUse", "deny", r#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#, 0, &[], 0),
        ("copilot", "preToolUse", "ask", r#"{"permissionDecision":"ask","permissionDecisionReason":"sure?"}"#, 0, &[], 0),
        ("copilot", "preToolUse", "allow", r#"{"permissionDecision":"allow"}"#, 0, &[], 0),
        ("copilot", "preToolUse", "rewrite", r#"{"permissionDecision":"allow","modifiedArgs":{"command":"ls -la"}}"#, 0, &[], 0),
        ("copilot", "sessionStart", "context", r#"{"additionalContext":"ctx"}"#, 0, &[], 0),
        ("copilot", "userPromptSubmitted", "block", "", 0, &[], 1),
        ("copilot", "agentStop", "keep going", AGAIN, 0, &[], 0),
        ("copilot", "agentStop", "stop", "", 0, &[], 1),
        ("copilot", "preToolUse", "none", "", 0, &[], 0),

        ("vscode", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("vscode", "PreToolUse", "ask", HSO_ASK, 0, &[], 0),
        ("vscode", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("vscode", "PreToolUse", "rewrite", HSO_REWRITE, 0, &[], 0),
        ("vscode", "SessionStart", "context", SS_CTX, 0, &[], 0),
        ("vscode", "UserPromptSubmit", "block", BLOCK_NO, 0, &[], 0),
        ("vscode", "Stop", "keep going", r#"{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"again"}}"#, 0, &[], 0),
        ("vscode", "Stop", "stop", HALT, 0, &[], 0),
        ("vscode", "PreToolUse", "none", "", 0, &[], 0),

        ("qwen", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("qwen", "PreToolUse", "ask", HSO_ASK, 0, &[], 0),
        ("qwen", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("qwen", "PreToolUse", "rewrite", QWEN_REWRITE_DENIED, 0, &[], 1),
        ("qwen", "SessionStart", "context", SS_CTX, 0, &[], 0),
        ("qwen", "UserPromptSubmit", "block", BLOCK_NO, 0, &[], 0),
        ("qwen", "Stop", "keep going", AGAIN, 0, &[], 0),
        ("qwen", "Stop", "stop", HALT, 0, &[], 0),
        ("qwen", "PreToolUse", "none", "", 0, &[], 0),

        ("cursor", "preToolUse", "deny", r#"{"permission":"deny","user_message":"no","agent_message":"no"}"#, 0, &[], 0),
        ("cursor", "preToolUse", "ask", r#"{"permission":"ask","user_message":"sure?","agent_message":"sure?"}"#, 0, &[], 0),
        ("cursor", "preToolUse", "allow", r#"{"permission":"allow"}"#, 0, &[], 0),
        ("cursor", "preToolUse", "rewrite", r#"{"permission":"allow","updated_input":{"command":"ls -la"}}"#, 0, &[], 0),
        ("cursor", "sessionStart", "context", r#"{"additional_context":"ctx"}"#, 0, &[], 0),
        ("cursor", "beforeSubmitPrompt", "block", r#"{"continue":false,"user_message":"no"}"#, 0, &[], 0),
        ("cursor", "stop", "keep going", r#"{"followup_message":"again"}"#, 0, &[], 0),
        ("cursor", "stop", "stop", "", 0, &[], 1),
        ("cursor", "preToolUse", "none", "", 0, &[], 0),

        ("windsurf", "pre_run_command", "deny", "", 2, &["no"], 0),
        ("windsurf", "pre_run_command", "ask", "", 2, &["a hook asked for confirmation, which windsurf cannot ask for: sure?"], 1),
        ("windsurf", "pre_run_command", "allow", "", 0, &[], 1),
        ("windsurf", "pre_run_command", "rewrite", "", 2, &[WINDSURF_REWRITE_DENIED], 2),
        ("windsurf", "pre_user_prompt", "context", "", 0, &[], 1),
        ("windsurf", "pre_user_prompt", "block", "", 2, &["no"], 0),
        ("windsurf", "post_cascade_response", "keep going", "", 0, &[], 1),
        ("windsurf", "post_cascade_response", "stop", "", 0, &[], 1),
        ("windsurf", "pre_run_command", "none", "", 0, &[], 0),

        ("cline", "PreToolUse", "deny", r#"{"cancel":true,"errorMessage":"no"}"#, 0, &[], 0),
        ("cline", "PreToolUse", "ask", r#"{"review":true,"errorMessage":"sure?"}"#, 0, &[], 0),
        ("cline", "PreToolUse", "allow", "{}", 0, &[], 1),
        ("cline", "PreToolUse", "rewrite", r#"{"overrideInput":{"command":"ls -la"}}"#, 0, &[], 0),
        ("cline", "PostToolUse", "context", r#"{"context":"ctx","contextModification":"ctx"}"#, 0, &[], 0),
        ("cline", "UserPromptSubmit", "block", "{}", 0, &[], 1),
        ("cline", "TaskComplete", "keep going", "{}", 0, &[], 1),
        ("cline", "TaskComplete", "stop", "{}", 0, &[], 1),
        ("cline", "PreToolUse", "none", "{}", 0, &[], 0),

        ("kiro", "preToolUse", "deny", "", 2, &["no"], 0),
        ("kiro", "preToolUse", "ask", "", 2, &["a hook asked for confirmation, which kiro cannot ask for: sure?"], 1),
        ("kiro", "preToolUse", "allow", "", 0, &[], 1),
        ("kiro", "preToolUse", "rewrite", "", 2, &[KIRO_REWRITE_DENIED], 2),
        ("kiro", "agentSpawn", "context", "ctx", 0, &[], 0),
        ("kiro", "userPromptSubmit", "block", "", 0, &[], 1),
        ("kiro", "stop", "keep going", "", 0, &[], 1),
        ("kiro", "stop", "stop", "", 0, &[], 1),
        ("kiro", "preToolUse", "none", "", 0, &[], 0),

        ("opencode", "tool.execute.before", "deny", r#"{"error":"no"}"#, 0, &[], 0),
        ("opencode", "tool.execute.before", "ask", r#"{"error":"a hook asked for confirmation, which opencode cannot ask for: sure?"}"#, 0, &[], 1),
        ("opencode", "tool.execute.before", "allow", "", 0, &[], 1),
        ("opencode", "tool.execute.before", "rewrite", r#"{"output":{"args":{"command":"ls -la"}}}"#, 0, &[], 0),
        ("opencode", "tool.execute.after", "context", r#"{"output":{"output":"ctx"}}"#, 0, &[], 0),
        ("opencode", "chat.message", "block", r#"{"error":"no"}"#, 0, &[], 0),
        ("opencode", "session.idle", "keep going", "", 0, &[], 1),
        ("opencode", "session.idle", "stop", "", 0, &[], 1),
        ("opencode", "tool.execute.before", "none", "", 0, &[], 0),

        ("kilo", "tool.execute.before", "deny", r#"{"error":"no"}"#, 0, &[], 0),
        ("kilo", "tool.execute.before", "ask", r#"{"error":"a hook asked for confirmation, which kilo cannot ask for: sure?"}"#, 0, &[], 1),
        ("kilo", "tool.execute.before", "allow", "", 0, &[], 1),
        ("kilo", "tool.execute.before", "rewrite", r#"{"output":{"args":{"command":"ls -la"}}}"#, 0, &[], 0),
        ("kilo", "tool.execute.after", "context", r#"{"output":{"output":"ctx"}}"#, 0, &[], 0),
        ("kilo", "chat.message", "block", r#"{"error":"no"}"#, 0, &[], 0),
        ("kilo", "session.idle", "keep going", "", 0, &[], 1),
        ("kilo", "session.idle", "stop", "", 0, &[], 1),
        ("kilo", "tool.execute.before", "none", "", 0, &[], 0),

        ("pi", "tool_call", "deny", r#"{"result":{"block":true,"reason":"no"}}"#, 0, &[], 0),
        ("pi", "tool_call", "ask", r#"{"result":{"block":true,"reason":"a hook asked for confirmation, which pi cannot ask for: sure?"}}"#, 0, &[], 1),
        ("pi", "tool_call", "allow", "", 0, &[], 1),
        ("pi", "tool_call", "rewrite", r#"{"input":{"command":"ls -la"}}"#, 0, &[], 0),
        ("pi", "tool_result", "context", r#"{"result":{"content":[{"type":"text","text":"ctx"}]}}"#, 0, &[], 0),
        ("pi", "before_agent_start", "block", "", 0, &[], 1),
        ("pi", "agent_end", "keep going", "", 0, &[], 1),
        ("pi", "agent_end", "stop", "", 0, &[], 1),
        ("pi", "tool_call", "none", "", 0, &[], 0),

        ("amp", "tool.call", "deny", r#"{"result":{"action":"reject-and-continue","message":"no"}}"#, 0, &[], 0),
        ("amp", "tool.call", "ask", r#"{"result":{"action":"reject-and-continue","message":"a hook asked for confirmation, which amp cannot ask for: sure?"}}"#, 0, &[], 1),
        ("amp", "tool.call", "allow", "", 0, &[], 1),
        ("amp", "tool.call", "rewrite", r#"{"result":{"action":"modify","input":{"cmd":"ls -la"}}}"#, 0, &[], 0),
        ("amp", "tool.result", "context", r#"{"result":{"status":"done","output":"ctx"}}"#, 0, &[], 0),
        ("amp", "agent.start", "block", "", 0, &[], 1),
        ("amp", "agent.end", "keep going", r#"{"result":{"action":"continue","userMessage":"again"}}"#, 0, &[], 0),
        ("amp", "agent.end", "stop", "", 0, &[], 1),
        ("amp", "tool.call", "none", "", 0, &[], 0),

        ("antigravity", "PreToolUse", "deny", r#"{"decision":"deny","reason":"no"}"#, 0, &[], 0),
        ("antigravity", "PreToolUse", "ask", r#"{"decision":"ask","reason":"sure?"}"#, 0, &[], 0),
        ("antigravity", "PreToolUse", "allow", r#"{"decision":"allow"}"#, 0, &[], 0),
        ("antigravity", "PreToolUse", "rewrite", r#"{"decision":"deny","reason":"a hook rewrote the tool input, which antigravity cannot apply; denied rather than running the original input"}"#, 0, &[], 1),
        ("antigravity", "PostToolUse", "context", "", 0, &[], 1),
        ("antigravity", "PostToolUse", "block", "", 0, &[], 1),
        ("antigravity", "PostToolUse", "keep going", "", 0, &[], 1),
        ("antigravity", "PostToolUse", "stop", "", 0, &[], 1),
        ("antigravity", "PreToolUse", "none", "", 0, &[], 0),

        ("goose", "PreToolUse", "deny", r#"{"decision":"block","reason":"no"}"#, 0, &[], 0),
        ("goose", "PreToolUse", "ask", r#"{"decision":"block","reason":"a hook asked for confirmation, which goose cannot ask for: sure?"}"#, 0, &[], 1),
        ("goose", "PreToolUse", "allow", r#"{"decision":"allow"}"#, 0, &[], 0),
        ("goose", "PreToolUse", "rewrite", r#"{"decision":"block","reason":"a hook rewrote the tool input, which goose cannot apply; denied rather than running the original input"}"#, 0, &[], 1),
        ("goose", "SessionStart", "context", "", 0, &[], 1),
        ("goose", "UserPromptSubmit", "block", "", 0, &[], 1),
        ("goose", "Stop", "keep going", "", 0, &[], 1),
        ("goose", "Stop", "stop", "", 0, &[], 1),
        ("goose", "PreToolUse", "none", "", 0, &[], 0),

        ("crush", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("crush", "PreToolUse", "ask", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook asked for confirmation, which crush cannot ask for: sure?"}}"#, 0, &[], 1),
        ("crush", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("crush", "PreToolUse", "rewrite", HSO_REWRITE, 0, &[], 0),
        ("crush", "PreToolUse", "context", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"}}"#, 0, &[], 0),
        ("crush", "PostToolUse", "block", "", 0, &[], 1),
        ("crush", "PostToolUse", "keep going", "", 0, &[], 1),
        ("crush", "SessionStart", "stop", "", 0, &[], 1),
        ("crush", "PreToolUse", "none", "", 0, &[], 0),

        ("auggie", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("auggie", "PreToolUse", "ask", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook asked for confirmation, which auggie cannot ask for: sure?"}}"#, 0, &[], 1),
        ("auggie", "PreToolUse", "allow", "", 0, &[], 1),
        ("auggie", "PreToolUse", "rewrite", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook rewrote the tool input, which auggie cannot apply; denied rather than running the original input"}}"#, 0, &[], 2),
        ("auggie", "SessionStart", "context", "", 0, &[], 1),
        ("auggie", "PromptSubmit", "block", "", 0, &[], 1),
        ("auggie", "Stop", "keep going", "", 0, &[], 1),
        ("auggie", "Stop", "stop", "", 0, &[], 1),
        ("auggie", "PreToolUse", "none", "", 0, &[], 0),
        // After a tool it takes context (seen in tests/real-agents, `post`),
        // and a block's reason goes as that.
        ("auggie", "PostToolUse", "context", r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#, 0, &[], 0),
        ("auggie", "PostToolUse", "block", r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"no"}}"#, 0, &[], 1),
        ("factory", "PostToolUse", "block", r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"no"}}"#, 0, &[], 1),

        ("junie", "PreToolUse", "deny", "", 2, &["no"], 0),
        ("junie", "PreToolUse", "ask", "", 2, &["a hook asked for confirmation, which junie cannot ask for: sure?"], 1),
        ("junie", "PreToolUse", "allow", "", 0, &[], 1),
        ("junie", "PreToolUse", "rewrite", "", 2, &["a hook rewrote the tool input, which junie cannot apply; denied rather than running the original input"], 2),
        ("junie", "SessionStart", "context", "", 0, &[], 1),
        ("junie", "UserPromptSubmit", "block", "", 0, &[], 1),
        ("junie", "Stop", "keep going", "", 0, &[], 1),
        ("junie", "Stop", "stop", "", 0, &[], 1),
        ("junie", "PreToolUse", "none", "", 0, &[], 0),

        ("kimi", "PreToolUse", "deny", "", 2, &["no"], 0),
        ("kimi", "PreToolUse", "ask", "", 2, &["a hook asked for confirmation, which kimi cannot ask for: sure?"], 1),
        ("kimi", "PreToolUse", "allow", "", 0, &[], 1),
        ("kimi", "PreToolUse", "rewrite", "", 2, &["a hook rewrote the tool input, which kimi cannot apply; denied rather than running the original input"], 2),
        ("kimi", "SessionStart", "context", "", 0, &[], 1),
        ("kimi", "UserPromptSubmit", "block", "", 2, &["no"], 0),
        ("kimi", "Stop", "keep going", "", 2, &["again"], 0),
        ("kimi", "Stop", "stop", "", 0, &[], 1),
        ("kimi", "PreToolUse", "none", "", 0, &[], 0),

        ("letta", "PreToolUse", "deny", "", 2, &["no"], 0),
        ("letta", "PreToolUse", "ask", "", 2, &["a hook asked for confirmation, which letta cannot ask for: sure?"], 1),
        ("letta", "PreToolUse", "allow", "", 0, &[], 1),
        ("letta", "PreToolUse", "rewrite", "", 2, &["a hook rewrote the tool input, which letta cannot apply; denied rather than running the original input"], 2),
        ("letta", "SessionStart", "context", "", 0, &[], 1),
        ("letta", "UserPromptSubmit", "block", "", 2, &["no"], 0),
        ("letta", "Stop", "keep going", "", 2, &["again"], 0),
        ("letta", "Stop", "stop", "", 0, &[], 1),
        ("letta", "PreToolUse", "none", "", 0, &[], 0),

        ("hermes", "pre_tool_call", "deny", BLOCK_NO, 0, &[], 0),
        ("hermes", "pre_tool_call", "ask", r#"{"decision":"block","reason":"a hook asked for confirmation, which hermes cannot ask for: sure?"}"#, 0, &[], 1),
        ("hermes", "pre_tool_call", "allow", "", 0, &[], 1),
        ("hermes", "pre_tool_call", "rewrite", r#"{"action":"modify","args":{"command":"ls -la"}}"#, 0, &[], 0),
        ("hermes", "on_session_start", "context", "", 0, &[], 1),
        ("hermes", "pre_llm_call", "block", "", 0, &[], 1),
        ("hermes", "post_tool_call", "keep going", "", 0, &[], 1),
        ("hermes", "post_tool_call", "stop", "", 0, &[], 1),
        ("hermes", "pre_tool_call", "none", "", 0, &[], 0),

        ("devin", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("devin", "PreToolUse", "ask", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook asked for confirmation, which devin cannot ask for: sure?"}}"#, 0, &[], 1),
        ("devin", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("devin", "PreToolUse", "rewrite", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook rewrote the tool input, which devin cannot apply; denied rather than running the original input"}}"#, 0, &[], 1),
        ("devin", "SessionStart", "context", "", 0, &[], 1),
        ("devin", "UserPromptSubmit", "block", "", 0, &[], 1),
        ("devin", "Stop", "keep going", "", 0, &[], 1),
        ("devin", "Stop", "stop", "", 0, &[], 1),
        ("devin", "PreToolUse", "none", "", 0, &[], 0),

        ("semaclaw", "PreToolUse", "deny", r#"{"decision":"reject","reason":"no"}"#, 0, &[], 0),
        ("semaclaw", "PreToolUse", "ask", r#"{"decision":"reject","reason":"a hook asked for confirmation, which semaclaw cannot ask for: sure?"}"#, 0, &[], 1),
        ("semaclaw", "PreToolUse", "allow", "", 0, &[], 1),
        ("semaclaw", "PreToolUse", "rewrite", r#"{"updatedInput":{"command":"ls -la"}}"#, 0, &[], 0),
        ("semaclaw", "UserPromptSubmit", "context", r#"{"additionalContext":"ctx"}"#, 0, &[], 0),
        ("semaclaw", "UserPromptSubmit", "block", r#"{"decision":"reject","reason":"no"}"#, 0, &[], 0),
        ("semaclaw", "Stop", "keep going", "", 0, &[], 1),
        ("semaclaw", "PreToolUse", "stop", r#"{"decision":"reject","reason":"halt","abort":true}"#, 0, &[], 0),
        ("semaclaw", "PreToolUse", "none", "", 0, &[], 0),

        ("sema", "PreToolUse", "deny", HSO_DENY, 0, &[], 0),
        ("sema", "PreToolUse", "ask", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook asked for confirmation, which sema cannot ask for: sure?"}}"#, 0, &[], 1),
        ("sema", "PreToolUse", "allow", HSO_ALLOW, 0, &[], 0),
        ("sema", "PreToolUse", "rewrite", r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a hook rewrote the tool input, which sema cannot apply; denied rather than running the original input"}}"#, 0, &[], 1),
        ("sema", "SessionStart", "context", SS_CTX, 0, &[], 0),
        ("sema", "UserPromptSubmit", "block", BLOCK_NO, 0, &[], 0),
        ("sema", "Stop", "keep going", "", 0, &[], 1),
        ("sema", "Stop", "stop", "", 0, &[], 1),
        ("sema", "PreToolUse", "none", "", 0, &[], 0),
    ];
    cases.extend(as_claude);
    for agent in AGENTS {
        let n = cases.iter().filter(|c| c.0 == agent.id()).count();
        // Nine answers each, and the odd extra case for an agent limit.
        assert!(n >= 9, "{}: every canonical answer has a case", agent.id());
    }
    for (id, native, what, stdout, exit, reasons, notes) in &cases {
        let agent = find(id).expect("agent");
        let row = agent.table().by_native(native).expect("native event");
        let event = Event::new(
            if row.canonical.is_tool_event() {
                json!({"tool_name": row.tool.unwrap_or("Bash"), "tool_input": {"command": "ls"}})
            } else {
                json!({})
            },
            Some(row.canonical),
            id,
        )
        .expect("event")
        .with_native(native);
        let a = match *what {
            "deny" => deny("no"),
            "ask" => ask("sure?"),
            "allow" => allow(),
            "rewrite" => rewrite(json!({"command":"ls -la"})),
            "context" => context("ctx"),
            "block" => block("no"),
            "keep going" => block("again"),
            "stop" => stop("halt"),
            "none" => Answer::none(),
            other => panic!("no answer {other}"),
        };
        let got = agent.encode(&event, &a);
        let ctx = format!("{id} {native} {what}: {got:?}");
        if stdout.starts_with('{') {
            let want: Value = serde_json::from_str(stdout).expect("expected JSON");
            assert_eq!(stdout_json(&got), want, "{ctx}");
        } else {
            assert_eq!(got.stdout, *stdout, "{ctx}");
        }
        assert_eq!(got.exit_code, *exit, "{ctx}");
        let lines: Vec<&str> = got.stderr.iter().map(String::as_str).collect();
        assert_eq!(lines, *reasons, "{ctx}");
        assert_eq!(got.notes().count(), *notes, "{ctx}");
    }
}

/// A small deterministic generator (no dependency needed for this much).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const KEYS: &[&str] = &[
    "hook_event_name",
    "hookName",
    "agent_action_name",
    "hook",
    "tool_name",
    "toolName",
    "tool_input",
    "toolArgs",
    "toolInput",
    "toolResult",
    "tool_info",
    "command_line",
    "command",
    "commands",
    "file_path",
    "path",
    "filePath",
    "dir_path",
    "start_line",
    "end_line",
    "operations",
    "mcp_context",
    "server_name",
    "tool_call",
    "tool_result",
    "preToolUse",
    "postToolUse",
    "parameters",
    "input",
    "output",
    "args",
    "parts",
    "type",
    "text",
    "workspaceRoots",
    "workspace_roots",
    "sessionId",
    "session_id",
    "cwd",
    "info",
    "id",
    "sessionID",
    "pattern",
    "metadata",
    "edits",
    "mcp_tool_arguments",
    "mcp_server_name",
    "mcp_tool_name",
    "userPromptSubmit",
    "prompt",
    "result_json",
    "conversation_id",
    "name",
    "arguments",
    "tool",
    "success",
    "result",
    "old_str",
    "offset",
    "limit",
];

fn strings() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = vec![
        "",
        "{\"command\":\"ls\"}",
        "[1]",
        "{",
        "@srv/tool",
        "@",
        "@/",
        "str_replace",
        "fs_read",
        "fs_write",
        "apply_patch",
        "use_mcp_tool",
        "*** Add File: a\n",
        "bash",
        "text",
        "mcp_x_y",
    ];
    for agent in AGENTS {
        out.extend(agent.table().events.iter().map(|r| r.native));
        out.extend(
            agent
                .table()
                .tools
                .iter()
                .flat_map(|t| [t.native, t.canonical]),
        );
    }
    out.extend(EventName::ALL.iter().map(|e| e.as_str()));
    out
}

fn random_value(rng: &mut Rng, strings: &[&'static str], depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64 - (1 << 30)),
        3 => json!(-1.5e300),
        4 => json!(rng.pick(strings)),
        5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, strings, depth - 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(7) {
                let k = rng.pick(KEYS).to_string();
                m.insert(k, random_value(rng, strings, depth - 1));
            }
            Value::Object(m)
        }
    }
}

#[test]
fn decode_never_panics_on_generated_json_and_what_decodes_encodes() {
    let strings = strings();
    let mut rng = Rng(0x5eed);
    let answers = [
        deny("d"),
        ask("a"),
        rewrite(json!({"command":"c"})),
        context("c"),
        block("b"),
        stop("s"),
    ];
    let mut decoded = 0;
    for _ in 0..1500 {
        // Mostly objects, since those reach the agent-specific code.
        let mut v = random_value(&mut rng, &strings, 4);
        if !v.is_object() && rng.below(4) != 0 {
            v = random_value(&mut rng, &strings, 4);
        }
        for agent in AGENTS {
            let rows = agent.table().events;
            let argv = match rng.below(3) {
                0 => None,
                1 => Some(rows[rng.below(rows.len())].native),
                _ => Some(rng.pick(&strings)),
            };
            if let Ok(event) = agent.decode(v.clone(), argv) {
                decoded += 1;
                for a in &answers {
                    let n = agent.encode(&event, a);
                    assert!(matches!(n.exit_code, 0 | 2), "{} {v}: {n:?}", agent.id());
                    if !n.stdout.is_empty() && !agent.table().plain_stdout {
                        let out: Value = serde_json::from_str(&n.stdout).expect("JSON stdout");
                        assert!(out.is_object());
                    }
                }
            }
        }
    }
    assert!(
        decoded > 500,
        "the generator must reach decoding: {decoded}"
    );
}

/// Every subset of the answer kinds, merged into one answer for `event`.
fn combined_answers(event: EventName) -> Vec<Answer> {
    (0u32..(1 << AnswerKind::ALL.len()))
        .map(|mask| {
            let mut merged = Map::new();
            for (i, kind) in AnswerKind::ALL.iter().enumerate() {
                if mask & (1 << i) == 0 {
                    continue;
                }
                let Value::Object(part) =
                    serde_json::to_value(answer_of(*kind, event)).expect("json")
                else {
                    unreachable!("answers serialize to objects")
                };
                for (k, v) in part {
                    match (merged.get_mut(&k), v) {
                        (Some(Value::Object(into)), Value::Object(from)) => into.extend(from),
                        (_, v) => {
                            merged.insert(k, v);
                        }
                    }
                }
            }
            answer(Value::Object(merged))
        })
        .collect()
}

#[test]
fn combined_answers_keep_each_agent_s_rules() {
    for agent in AGENTS {
        for row in agent.table().events {
            let event = event_at(*agent, row, json!({}));
            for a in combined_answers(row.canonical) {
                let n = agent.encode(&event, &a);
                let ctx = format!("{} {} {a:?}: {n:?}", agent.id(), row.native);
                assert!(matches!(n.exit_code, 0 | 2), "{ctx}");
                if matches!(
                    agent.id(),
                    "copilot"
                        | "gemini"
                        | "codex"
                        | "cline"
                        | "cursor"
                        | "opencode"
                        | "qwen"
                        | "factory"
                        | "claude"
                        | "antigravity"
                        | "goose"
                        | "crush"
                        | "auggie"
                        | "qoder"
                        | "devin"
                        | "semaclaw"
                        | "sema"
                ) {
                    assert_eq!(n.exit_code, 0, "answers in JSON, never by exit code: {ctx}");
                }
                if agent.id() == "codex" && !n.stdout.is_empty() {
                    codex_fields_only(row.canonical, &stdout_json(&n), &ctx);
                }
            }
        }
    }
}

/// Codex rejects unknown fields and a few combinations (docs/agent-protocols.md §2.4).
fn codex_fields_only(event: EventName, v: &Value, ctx: &str) {
    let top = [
        "continue",
        "stopReason",
        "suppressOutput",
        "systemMessage",
        "decision",
        "reason",
        "hookSpecificOutput",
    ];
    for k in v.as_object().expect("object").keys() {
        assert!(top.contains(&k.as_str()), "unknown top-level `{k}`: {ctx}");
    }
    let Some(hso) = v.get("hookSpecificOutput") else {
        return;
    };
    let allowed: &[&str] = match event {
        EventName::PreToolUse => &[
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
        EventName::PermissionRequest => &["hookEventName", "decision"],
        _ => &["hookEventName", "additionalContext"],
    };
    for k in hso.as_object().expect("object").keys() {
        assert!(
            allowed.contains(&k.as_str()),
            "unknown hookSpecificOutput `{k}`: {ctx}"
        );
    }
    assert_eq!(hso["hookEventName"], event.as_str(), "{ctx}");
    if event == EventName::PreToolUse {
        assert!(
            v.get("continue").is_none() && v.get("stopReason").is_none(),
            "{ctx}"
        );
        let pd = hso.get("permissionDecision").and_then(Value::as_str);
        assert_ne!(pd, Some("ask"), "{ctx}");
        if pd == Some("allow") {
            assert!(
                hso.get("updatedInput").is_some(),
                "allow only with updatedInput: {ctx}"
            );
        }
        if pd == Some("deny") {
            let r = hso
                .get("permissionDecisionReason")
                .and_then(Value::as_str)
                .unwrap_or("");
            assert!(!r.is_empty(), "deny needs a reason: {ctx}");
        }
    }
    if event == EventName::PermissionRequest {
        if let Some(d) = hso.get("decision") {
            for k in d.as_object().expect("object").keys() {
                assert!(
                    ["behavior", "message"].contains(&k.as_str()),
                    "`decision.{k}` fails closed: {ctx}"
                );
            }
        }
    }
    if v.get("decision").is_some() {
        assert!(
            v["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "block needs a reason: {ctx}"
        );
    }
}

#[test]
fn every_recorded_claude_payload_decodes_unchanged_but_for_the_added_fields() {
    let claude = find("claude").expect("claude");
    let all = fixtures("claude");
    assert!(all.len() >= 60, "fixtures found: {}", all.len());
    for (path, name, payload) in all {
        let ev = claude
            .decode(payload.clone(), None)
            .unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert_eq!(ev.name().as_str(), name, "{path:?}");
        let mut input = ev.input().clone();
        assert_eq!(input.remove("harness"), Some(json!("claude")));
        if ev.name().is_tool_event() {
            assert_eq!(input.remove("tool_kind"), Some(json!("shell")), "{path:?}");
        }
        assert_eq!(Value::Object(input), payload, "{path:?}");
    }
}

/// What one agent's recorded payloads (`tests/fixtures/agents/<id>-*/`) must
/// decode to beyond what [`every_recorded_payload_decodes_as_its_agent`]
/// checks for all of them.
struct Recorded {
    agent: &'static str,
    /// At least this many payloads are recorded.
    at_least: usize,
    /// Native events with no canonical equivalent: decode refuses them.
    unmapped: &'static [&'static str],
    /// Native events whose canonical name is not their own (the others are
    /// spelled as Claude spells them).
    renamed: &'static [(&'static str, EventName)],
    /// A native top-level field each payload has, kept beside Claude's.
    kept: &'static str,
    /// Where a payload holds the tool's arguments (JSON pointers, the first
    /// present), for agents whose recorded tool calls are shell commands
    /// (but for a file tool's, named as such): each decodes to `Bash` with
    /// the same `command`.
    shell_args: &'static [&'static str],
}

impl Recorded {
    /// An agent whose events have Claude's names and a canonical equivalent.
    const fn new(
        agent: &'static str,
        at_least: usize,
        kept: &'static str,
        shell_args: &'static [&'static str],
    ) -> Recorded {
        Recorded {
            agent,
            at_least,
            unmapped: &[],
            renamed: &[],
            kept,
            shell_args,
        }
    }

    const fn unmapped(self, unmapped: &'static [&'static str]) -> Recorded {
        Recorded { unmapped, ..self }
    }

    const fn renamed(self, renamed: &'static [(&'static str, EventName)]) -> Recorded {
        Recorded { renamed, ..self }
    }
}

const RECORDED: &[Recorded] = &[
    Recorded::new("codex", 30, "turn_id", &["/tool_input"]).unmapped(&["PreModelRequest"]),
    Recorded::new("qwen", 50, "timestamp", &["/tool_input"]),
    Recorded::new("gemini", 50, "timestamp", &["/tool_input"])
        .unmapped(&["BeforeModel", "AfterModel", "BeforeToolSelection"])
        .renamed(&[
            ("BeforeAgent", EventName::UserPromptSubmit),
            ("PreCompress", EventName::PreCompact),
            ("BeforeTool", EventName::PreToolUse),
            ("AfterTool", EventName::PostToolUse),
            ("AfterAgent", EventName::Stop),
        ]),
    // The file name is the key the hook was registered under, which is what
    // install passes as --event: camelCase for native registrations,
    // Claude's names for Claude-format ones.
    Recorded::new(
        "copilot",
        30,
        "cwd",
        &["/toolArgs", "/toolInput", "/tool_input"],
    )
    .renamed(&[
        ("sessionStart", EventName::SessionStart),
        ("userPromptSubmitted", EventName::UserPromptSubmit),
        ("preToolUse", EventName::PreToolUse),
        ("permissionRequest", EventName::PermissionRequest),
        ("postToolUse", EventName::PostToolUse),
        ("agentStop", EventName::Stop),
        ("sessionEnd", EventName::SessionEnd),
    ]),
    // 15 phases recorded from SemaClaw 1.0's engine, 5 from sema-core 2.1.5:
    // every tool call a shell command (`Bash`).
    Recorded::new("semaclaw", 90, "timestamp", &["/tool_input"]),
    Recorded::new("sema", 30, "sema_tool_name", &["/tool_input"]),
    // Run in tests/real-agents: Factory Droid 0.225.2 and Auggie 0.36.0
    // (against the fake Augment backend); their shell tools, `Execute` and
    // `launch-process`.
    Recorded::new("factory", 25, "permission_mode", &["/tool_input"]),
    Recorded::new("auggie", 15, "workspace_roots", &["/tool_input"])
        .renamed(&[("PromptSubmit", EventName::UserPromptSubmit)]),
];

/// Every recorded payload of every agent decodes under the native event its
/// file is named after (what `install` passes as `--event`) to the canonical
/// event it stands for, as that agent, with its session id and its native
/// fields; without `--event` exactly when the payload names its event.
#[test]
fn every_recorded_payload_decodes_as_its_agent() {
    let mut replayed = Vec::new();
    for agent in AGENTS {
        let all = fixtures(agent.id());
        let want = RECORDED.iter().find(|r| r.agent == agent.id());
        let at_least = want.map_or(0, |r| r.at_least);
        assert!(
            all.len() >= at_least,
            "{}: {} fixtures",
            agent.id(),
            all.len()
        );
        if !all.is_empty() {
            replayed.push(agent.id());
        }
        let mut shell_calls = 0;
        for (path, native, payload) in all {
            let got = agent.decode(payload.clone(), Some(&native));
            if want.is_some_and(|r| r.unmapped.contains(&native.as_str())) {
                assert!(
                    matches!(got, Err(DecodeError::UnmappedEvent { .. })),
                    "{path:?}"
                );
                continue;
            }
            let ev = got.unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let renamed = want.and_then(|r| r.renamed.iter().find(|(n, _)| *n == native));
            let expected = match (renamed.map(|r| r.1), native.parse::<EventName>()) {
                (Some(canonical), _) | (None, Ok(canonical)) => canonical,
                // Only agents without a list above spell events otherwise.
                (None, Err(e)) if want.is_some() => panic!("{path:?}: {e}"),
                (None, Err(_)) => agent.table().by_native(&native).expect("row").canonical,
            };
            assert_eq!(ev.name(), expected, "{path:?}");
            // Claude's payload passes through as it is (checked below).
            if agent.table().by_native(&native).is_some() && agent.id() != "claude" {
                assert_eq!(ev.native_name(), Some(native.as_str()), "{path:?}");
            }
            if let Some(prompt) = payload.get("prompt").filter(|_| expected.is_prompt()) {
                assert_eq!(ev.str_field("prompt"), prompt.as_str(), "{path:?}");
            }
            assert_eq!(ev.harness(), agent.id(), "{path:?}");
            let session_keys = std::iter::once("session_id").chain(
                agent
                    .table()
                    .fields
                    .iter()
                    .filter(|f| f.1 == "session_id")
                    .map(|f| f.0),
            );
            let session = session_keys.filter_map(|k| payload.get(k)).next();
            if let Some(session) = session {
                assert_eq!(ev.session_id(), session.as_str(), "{path:?}");
            }
            if let Some(kept) = want.map(|r| r.kept) {
                assert_eq!(
                    ev.input().get(kept),
                    payload.get(kept),
                    "{path:?}: {kept} kept"
                );
            }
            let shell_args = want.map_or(&[][..], |r| r.shell_args);
            // A file tool's calls (Codex's apply_patch, also when run as a
            // shell command) are checked where that tool is decoded.
            let file_tool = payload
                .get("tool_name")
                .and_then(Value::as_str)
                .is_some_and(|t| agent.table().canonical_tool(t) != "Bash" && t != "Bash")
                || (matches!(ev.tool_name(), Some("Write" | "Edit"))
                    && ev
                        .tool_input()
                        .is_some_and(|a| a.get("file_path").is_some()));
            if ev.name().is_tool_event() && !shell_args.is_empty() && !file_tool {
                shell_calls += 1;
                assert_eq!(ev.tool_name(), Some("Bash"), "{path:?}");
                assert_eq!(ev.input()["tool_kind"], "shell", "{path:?}");
                let args = shell_args
                    .iter()
                    .find_map(|p| payload.pointer(p))
                    .expect("the tool's arguments");
                assert_eq!(
                    ev.tool_input().unwrap()["command"],
                    args["command"],
                    "{path:?}"
                );
                if ev.name() == EventName::PostToolUse {
                    assert!(ev.input().contains_key("tool_response"), "{path:?}");
                }
            }
            let named = agent.info().names.iter().any(|k| payload[*k].is_string());
            let alone = agent.decode(payload.clone(), None);
            assert_eq!(alone.is_ok(), named, "{path:?}: decoded without --event");
        }
        if want.is_some_and(|r| !r.shell_args.is_empty()) {
            assert!(shell_calls > 0, "{}: no tool call recorded", agent.id());
        }
    }
    // Agents replayed here that a change could silently drop from the list.
    for id in [
        "claude", "codex", "qwen", "gemini", "copilot", "opencode", "kilo", "pi", "semaclaw",
        "sema",
    ] {
        assert!(replayed.contains(&id), "{id}: no recorded payloads");
    }
}

/// Found by the `decode` fuzz target: an unknown or unmapped event name was
/// echoed whole (10 MB, line breaks and all) in the decode error.
#[test]
fn decode_errors_about_an_event_name_are_one_bounded_line() {
    let name = format!("No\nSuch{}", "E".repeat(1 << 20));
    for agent in AGENTS {
        for argv in [Some(name.as_str()), None] {
            let payload = json!({"hook_event_name": name, "hookName": name, "hook": name});
            let Err(e) = agent.decode(payload, argv) else {
                continue;
            };
            let text = e.to_string();
            let ctx = format!("{}: {}", agent.id(), text.len());
            assert!(!text.contains('\n'), "{ctx}");
            assert!(
                text.chars().count() < 2 * crate::protocol::NOTE_MAX_CHARS,
                "{ctx}"
            );
        }
    }
}

/// The module docs' promise, checked: an agent's id appears as a string
/// literal only under `agents/` (tests aside), so a new agent needs no edit
/// elsewhere in the runtime. Claude is the exception: its protocol is the
/// runtime's own, and `fire` defaults to it. (Its sibling over imports,
/// `layers::no_module_imports_from_a_layer_above_it`, keeps the stage order.)
#[test]
fn no_code_outside_agents_names_an_agent() {
    let mut found = Vec::new();
    for (name, text) in crate::layers::sources() {
        if name.starts_with("agents/") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for agent in AGENTS.iter().filter(|a| a.id() != "claude") {
            if code.contains(&format!("\"{}\"", agent.id())) {
                found.push(format!("{name}: \"{}\"", agent.id()));
            }
        }
    }
    assert!(found.is_empty(), "agent ids outside agents/: {found:?}");
}

/// Every transcript an agent wrote in the real-agents `events` phase
/// (`tests/fixtures/transcripts/<id>-<version>/`, long strings trimmed),
/// rendered by that agent's reader into Claude's records, has the run's
/// prompt and its first shell call (`echo hello`).
#[test]
fn every_recorded_transcript_renders_with_the_prompt_and_the_shell_call() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/transcripts");
    let mut seen = Vec::new();
    for dir in std::fs::read_dir(&root).expect("transcripts").flatten() {
        let name = dir.file_name().to_string_lossy().into_owned();
        let (id, _version) = name.rsplit_once('-').expect("<id>-<version>");
        let agent = find(id).unwrap_or_else(|| panic!("{name}: no agent `{id}`"));
        let transcript::TranscriptShape::Reader(read) = agent.transcript() else {
            panic!("{name}: `{id}` has no transcript reader");
        };
        assert_prompt_and_echo(&recorded_transcript(&name, read, agent.table()));
        seen.push(name);
    }
    assert!(seen.len() >= 5, "{seen:?}");
}

/// The transcript `agent_version` (e.g. `codex-0.171.0`) wrote in the
/// real-agents `events` phase, rendered by `read` into Claude's records.
fn recorded_transcript(
    agent_version: &str,
    read: super::transcript::ReadTranscript,
    table: &Table,
) -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/transcripts")
        .join(agent_version)
        .join("events");
    let file = std::fs::read_dir(&dir)
        .expect("transcript dir")
        .flatten()
        .map(|e| e.path())
        .next()
        .expect("one transcript");
    let text = std::fs::read_to_string(&file).expect("transcript");
    let mut values = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"));
    read(&mut values, table)
}

/// The prompt of the real-agents runs, as the user's first record.
pub const RECORDED_PROMPT: &str =
    "Run the shell commands the task needs, one at a time, then report the output.";

/// `records` have the run's prompt as a user record and its `echo hello`
/// as a `Bash` tool_use whose result follows it, all in Claude's shape.
fn assert_prompt_and_echo(records: &[Value]) {
    let users: Vec<&Value> = records
        .iter()
        .filter(|r| r["type"] == "user" && r["message"]["content"].is_string())
        .collect();
    assert!(
        users
            .iter()
            .any(|r| r["message"]["content"] == RECORDED_PROMPT),
        "no prompt in {records:#?}"
    );
    let blocks = |kind: &'static str| {
        records
            .iter()
            .filter_map(|r| r["message"]["content"].as_array())
            .flatten()
            .filter(move |b| b["type"] == kind)
            .cloned()
            .collect::<Vec<Value>>()
    };
    let uses = blocks("tool_use");
    let echo = uses
        .iter()
        .find(|b| b["input"]["command"] == "echo hello")
        .unwrap_or_else(|| panic!("no echo call in {uses:#?}"));
    assert_eq!(echo["name"], "Bash", "{echo}");
    let results = blocks("tool_result");
    let result = results
        .iter()
        .find(|b| b["tool_use_id"] == echo["id"])
        .unwrap_or_else(|| panic!("no result for {echo} in {results:#?}"));
    assert!(
        result["content"]
            .as_str()
            .is_some_and(|c| c.contains("hello")),
        "{result}"
    );
    for r in records {
        assert!(
            matches!(r["type"].as_str(), Some("user" | "assistant")),
            "{r}"
        );
        assert_eq!(r["message"]["role"], r["type"], "{r}");
    }
}
