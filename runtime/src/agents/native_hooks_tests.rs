//! Each agent's native hooks file shape, read back in Claude's format.

use serde_json::{json, Value};

use super::*;
use crate::agents::find;

fn read_as(id: &str, file: Value) -> Vec<NativeHook> {
    read(find(id).unwrap(), file.as_object().unwrap())
}

fn ok(hook: &NativeHook) -> &Imported {
    hook.import.as_ref().unwrap()
}

/// The hook's import, checked to serve `event` with `matcher`.
fn imported_at<'a>(hook: &'a NativeHook, event: EventName, matcher: Option<&str>) -> &'a Imported {
    let imported = ok(hook);
    assert_eq!(
        (imported.event, imported.matcher.as_deref()),
        (event, matcher)
    );
    imported
}

fn handler(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

#[test]
fn gemini_events_tools_milliseconds_and_variables_are_claude_s() {
    let hooks = read_as(
        "gemini",
        json!({"hooksConfig": {"enabled": true}, "hooks": {
            "BeforeTool": [{"matcher": "run_shell_command|write_file|replace", "sequential": true, "hooks": [
                {"name": "guard", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/guard.sh ${GEMINI_SESSION_ID}", "timeout": 5000}
            ]}],
            "AfterAgent": [{"hooks": [{"type": "command", "command": "./done.sh", "timeout": 1500}]}],
            "BeforeModel": [{"hooks": [{"type": "command", "command": "./model.sh"}]}]
        }}),
    );
    assert_eq!(hooks.len(), 3);
    let guard = imported_at(&hooks[0], EventName::PreToolUse, Some("Bash|Write|Edit"));
    assert_eq!(
        guard.handler,
        handler(
            json!({"type": "command", "command": "$CLAUDE_PROJECT_DIR/.gemini/guard.sh ${GEMINI_SESSION_ID}", "timeout": 5})
        )
    );
    assert_eq!(
        guard.dropped,
        [
            "`name`: Gemini CLI only",
            "`$GEMINI_SESSION_ID`: Gemini CLI only, kept as written (it is empty under agenthooks)",
            "group `sequential`: Gemini CLI only, no such key in .agents/hooks.json",
        ]
    );
    assert_eq!(
        hooks[0].command.as_deref(),
        Some("$GEMINI_PROJECT_DIR/.gemini/guard.sh ${GEMINI_SESSION_ID}")
    );
    let done = imported_at(&hooks[1], EventName::Stop, None);
    assert_eq!(done.handler["timeout"], json!(1.5));
    let model = hooks[2].import.as_ref().unwrap_err();
    assert!(
        model.contains("`BeforeModel` has no Claude Code equivalent"),
        "{model}"
    );
}

#[test]
fn claude_hooks_are_carried_as_they_are_but_types_agenthooks_does_not_run() {
    let entry = json!({"type": "command", "command": "npx prettier --write \"$CLAUDE_PROJECT_DIR\"", "timeout": 30, "statusMessage": "Formatting", "async": true});
    let hooks = read_as(
        "claude",
        json!({"permissions": {}, "hooks": {
            "PostToolUse": [{"matcher": "Write|Edit", "hooks": [entry.clone(), {"type": "prompt", "prompt": "ok?"}]}],
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "http", "url": "http://127.0.0.1:1/x"}]}]
        }}),
    );
    let carried = ok(&hooks[0]);
    assert_eq!(carried.handler, handler(entry));
    assert_eq!(carried.matcher.as_deref(), Some("Write|Edit"));
    assert!(carried.dropped.is_empty(), "{:?}", carried.dropped);
    assert_eq!(
        hooks[1].import.as_ref().unwrap_err(),
        "type `prompt` is not run by agenthooks"
    );
    imported_at(&hooks[2], EventName::SessionStart, Some("startup"));
}

#[test]
fn copilot_bash_powershell_and_timeout_sec_become_command_powershell_and_timeout() {
    let hooks = read_as(
        "copilot",
        json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": "./scripts/audit.sh", "powershell": "./scripts/audit.ps1", "timeoutSec": 15, "matcher": "bash|edit", "cwd": "scripts"}
        ]}}),
    );
    let audit = imported_at(&hooks[0], EventName::PreToolUse, Some("Bash|Edit"));
    assert_eq!(
        audit.handler,
        handler(
            json!({"type": "command", "command": "./scripts/audit.sh", "powershell": "./scripts/audit.ps1", "timeout": 15})
        )
    );
    assert_eq!(
        audit.dropped,
        ["`cwd`: GitHub Copilot CLI only, no such key in .agents/hooks.json"]
    );
}

#[test]
fn flat_agents_events_about_one_tool_match_that_tool() {
    let cursor = read_as(
        "cursor",
        json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": "$CURSOR_PROJECT_DIR/guard.sh", "timeout": 10}],
            "afterFileEdit": [{"command": "./hooks/format.sh"}]
        }}),
    );
    let guard = imported_at(&cursor[0], EventName::PreToolUse, Some("Bash"));
    assert_eq!(
        guard.handler,
        handler(
            json!({"type": "command", "command": "$CLAUDE_PROJECT_DIR/guard.sh", "timeout": 10})
        )
    );
    imported_at(&cursor[1], EventName::PostToolUse, Some("Edit"));
    let windsurf = read_as(
        "windsurf",
        json!({"hooks": {"pre_run_command": [{"command": "./fmt.sh", "show_output": true}]}}),
    );
    let fmt = imported_at(&windsurf[0], EventName::PreToolUse, Some("Bash"));
    assert_eq!(fmt.dropped, ["`show_output`: Windsurf only"]);
}

#[test]
fn kiro_matchers_and_timeout_ms() {
    let hooks = read_as(
        "kiro",
        json!({"name": "dev", "tools": ["*"], "hooks": {
            "postToolUse": [{"matcher": "fs_write", "command": "cargo fmt", "timeout_ms": 1500, "cache_ttl_seconds": 0}],
            "preToolUse": [{"matcher": "execute_bash|@git", "command": "./guard.sh"}]
        }}),
    );
    let fmt = imported_at(&hooks[0], EventName::PostToolUse, Some("Write"));
    assert_eq!(
        fmt.handler,
        handler(json!({"type": "command", "command": "cargo fmt", "timeout": 1.5}))
    );
    assert_eq!(
        fmt.dropped,
        ["`cache_ttl_seconds`: Kiro CLI only, no such key in .agents/hooks.json"]
    );
    let guard = ok(&hooks[1]);
    assert_eq!(guard.matcher.as_deref(), Some("Bash|@git"));
    assert_eq!(
        guard.dropped,
        ["matcher `@git`: a pattern, kept as written; check it against Claude Code's tool names"]
    );
}

#[test]
fn claude_shaped_agents_tools_units_and_variables() {
    let qwen = read_as(
        "qwen",
        json!({"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "$QWEN_PROJECT_DIR/guard.sh", "timeout": 5000},
            {"type": "http", "url": "http://127.0.0.1:9/h", "timeout": 30}
        ]}]}}),
    );
    let guard = ok(&qwen[0]);
    assert_eq!(
        ok(&qwen[1]).handler,
        handler(json!({"type": "http", "url": "http://127.0.0.1:9/h", "timeout": 30}))
    );
    assert_eq!(guard.matcher.as_deref(), Some("Bash"));
    assert_eq!(
        guard.handler,
        handler(
            json!({"type": "command", "command": "$CLAUDE_PROJECT_DIR/guard.sh", "timeout": 5})
        )
    );
    let factory = read_as(
        "factory",
        json!({"hooks": {"PreToolUse": [{"matcher": "Execute|Create", "hooks": [
            {"type": "command", "command": "${FACTORY_PROJECT_DIR}/rtk hook droid", "timeout": 10}
        ]}]}}),
    );
    let rtk = ok(&factory[0]);
    assert_eq!(rtk.matcher.as_deref(), Some("Bash|Write"));
    assert_eq!(
        rtk.handler["command"],
        json!("${CLAUDE_PROJECT_DIR}/rtk hook droid")
    );
    assert_eq!(rtk.handler["timeout"], json!(10));
    let crush = read_as(
        "crush",
        json!({"hooks": {"PreToolUse": [{"matcher": "^bash$", "command": "dcg", "timeout": 10}]}}),
    );
    assert_eq!(ok(&crush[0]).matcher.as_deref(), Some("Bash"));
    let codex = read_as(
        "codex",
        json!({"description": "team", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "python3 .codex/check.py", "timeout": 10, "statusMessage": "Checking"}
        ]}]}}),
    );
    let check = ok(&codex[0]);
    assert_eq!(check.matcher.as_deref(), Some("Bash"));
    assert_eq!(check.handler["statusMessage"], json!("Checking"));
}

#[test]
fn entries_without_a_command_or_not_objects_are_refused_and_odd_files_yield_nothing() {
    let hooks = read_as(
        "cursor",
        json!({"hooks": {"stop": [{"timeout": 3}, 7], "preToolUse": "nope"}}),
    );
    assert_eq!(hooks[0].import.as_ref().unwrap_err(), "no `command` to run");
    assert_eq!(
        hooks[1].import.as_ref().unwrap_err(),
        "the entry is not an object"
    );
    assert!(read_as("claude", json!({"hooks": [1]})).is_empty());
    assert!(read_as("claude", json!({"model": "x"})).is_empty());
    // An agent whose hooks are code, not entries in a JSON file.
    assert!(read_as("cline", json!({"hooks": {"PreToolUse": []}})).is_empty());
}

#[test]
fn variables_are_rewritten_whole() {
    assert_eq!(
        replace_var("$A/x ${A} $AB $A_ ${AB} $", "A", "C"),
        "$C/x ${C} $AB $A_ ${AB} $"
    );
    assert_eq!(find_var("x ${A}", "A"), Some(2));
    assert_eq!(find_var("x $AB", "A"), None);
}

#[test]
fn milliseconds_become_seconds() {
    assert_eq!(
        seconds(&Value::from(5000), TimeUnit::Milliseconds),
        Some(Value::from(5))
    );
    assert_eq!(
        seconds(&Value::from(1500), TimeUnit::Milliseconds),
        Some(Value::from(1.5))
    );
    assert_eq!(
        seconds(&Value::from(7), TimeUnit::Seconds),
        Some(Value::from(7))
    );
    assert_eq!(seconds(&Value::from("7"), TimeUnit::Seconds), None);
}

/// SemaClaw's comma lists of globs become Claude's matchers, `blocking`
/// (true by default) `onError: "deny"`, `async` stays, its variables are
/// Claude's, and what it alone has is named.
#[test]
fn semaclaw_globs_blocking_async_and_variables_are_claude_s() {
    let hooks = read_as(
        "semaclaw",
        json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash, Write", "hooks": [
                    {"type": "command", "command": "${AGENT_WORKSPACE}/guard.sh", "timeout": 5}
                ]},
                {"matcher": "Edit*,Read", "hooks": [
                    {"type": "command", "command": "./log.sh ${SEMACLAW_ROOT}", "blocking": false, "async": true}
                ]},
                {"matcher": "*", "hooks": [
                    {"type": "command", "command": "./all.sh", "include_history": true}
                ]}
            ],
            "UserPromptSubmit": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./p.sh"}]}]
        }}),
    );
    assert_eq!(hooks.len(), 4);
    let guard = imported_at(&hooks[0], EventName::PreToolUse, Some("Bash|Write"));
    assert_eq!(
        guard.handler,
        handler(json!({"type": "command", "onError": "deny",
                       "command": "${CLAUDE_PROJECT_DIR}/guard.sh", "timeout": 5}))
    );
    assert!(guard.dropped[0].starts_with("`blocking`: carried as `onError: \"deny\"`"));

    let log = ok(&hooks[1]);
    assert_eq!(log.matcher.as_deref(), Some("^(?:Edit.*|Read)$"));
    let re = crate::select::Matcher::parse(log.matcher.as_deref()).unwrap();
    assert!(re.matches(Some("Edit")) && re.matches(Some("EditNotebook")));
    assert!(!re.matches(Some("NotebookEdit")) && !re.matches(Some("Bash")));
    assert_eq!(
        log.handler,
        handler(json!({"type": "command", "command": "./log.sh ${SEMACLAW_ROOT}", "async": true}))
    );
    assert_eq!(
        log.dropped,
        ["`$SEMACLAW_ROOT`: SemaClaw only, kept as written (it is empty under agenthooks)"]
    );

    let all = ok(&hooks[2]);
    assert_eq!(all.matcher, None);
    assert!(all.dropped.contains(
        &"`include_history`: SemaClaw only, no such key in .agents/hooks.json".to_string()
    ));
    // A matcher on an event without tools is ignored there, as SemaClaw ignores it.
    assert_eq!(ok(&hooks[3]).matcher, None);
}
