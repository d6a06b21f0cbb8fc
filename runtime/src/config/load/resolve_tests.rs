//! Tests of resolving groups and handlers: matchers, `if`, timeouts, labels.

use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::load::testutil::*;
use crate::config::*;
use crate::protocol::Event;
use crate::select::select;

#[test]
fn handlers_missing_their_essentials_are_skipped_with_a_warning() {
    let d = Dirs::with_user(
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command"},
            {"type": "command", "command": "  "},
            {"type": "wasm"},
            {"command": "no type"},
            {"type": "command", "command": "ok"}
        ]}]}}"#,
    );
    let c = d.load();
    assert!(c.error_lines().is_empty(), "{:?}", c.error_lines());
    assert_eq!(commands(&c), ["ok"]);
    let f = d.user_file().display().to_string();
    assert_eq!(
        c.warning_lines(),
        [
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[3]: the handler has no `type`; it is skipped"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[0]: `command` is missing or empty; \
                 this handler is skipped"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[1]: `command` is missing or empty; \
                 this handler is skipped"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[2]: `component` is missing or empty; \
                 this handler is skipped"
            ),
        ]
    );
}

#[test]
fn invalid_matcher_skips_its_group_with_a_warning() {
    let d = Dirs::with_user(
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Edit(", "hooks": [{"type": "command", "command": "bad"}]},
            {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "good"}]}
        ]}}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["good"]);
    assert_eq!(c.warning_lines().len(), 1);
    let w = &c.warning_lines()[0];
    assert!(
        w.starts_with(&format!(
            "`{}`: hooks.PreToolUse[0]: invalid matcher `Edit(` for PreToolUse: ",
            d.user_file().display()
        )),
        "{w}"
    );
    assert!(w.contains("without closing ')'"), "{w}");
    assert!(w.ends_with("; this group is skipped"), "{w}");
    assert!(!w.contains('\n'), "{w}");
}

#[test]
fn matcher_on_an_event_without_one_is_ignored_even_when_broken() {
    let d = Dirs::with_user(
        r#"{"hooks": {"Stop": [{"matcher": "((", "hooks": [{"type": "command", "command": "s"}]}]}}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["s"]);
    assert!(c.warning_lines().is_empty(), "{:?}", c.warning_lines());
}

#[test]
fn invalid_if_skips_the_group_or_the_handler() {
    let d = Dirs::with_user(
        r#"{"hooks": {"PreToolUse": [
            {"if": "git (", "hooks": [{"type": "command", "command": "group-bad"}]},
            {"if": "^git", "hooks": [
                {"type": "command", "command": "handler-bad", "if": "[z-a]"},
                {"type": "command", "command": "inherits"},
                {"type": "command", "command": "overrides", "if": "^rm "}
            ]}
        ]}}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["inherits", "overrides"]);
    assert_eq!(c.warning_lines().len(), 2, "{:?}", c.warning_lines());
    assert!(c.warning_lines()[0]
        .contains("hooks.PreToolUse[0]: invalid `if` regex `git (` for PreToolUse"));
    assert!(c.warning_lines()[0].ends_with("this group is skipped"));
    assert!(
        c.warning_lines()[1].contains("hooks.PreToolUse[1].hooks[0]: invalid `if` regex `[z-a]`")
    );
    assert!(c.warning_lines()[1].ends_with("this handler is skipped"));
    assert_eq!(c.handlers[0].if_.as_ref().unwrap().as_str(), "^git");
    assert_eq!(c.handlers[1].if_.as_ref().unwrap().as_str(), "^rm ");
}

#[test]
fn mcp_tool_handlers_resolve_their_server_from_claude_codes_files() {
    let d = Dirs::new();
    std::fs::write(
        d.home().join(".claude.json"),
        r#"{"mcpServers": {"s": {"command": "srv", "args": ["-v"]}}}"#,
    )
    .unwrap();
    d.write_user(
        r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "mcp_tool", "server": "s", "tool": "t", "onError": "deny", "timeout": 30,
             "input": {"a": "${cwd}"}},
            {"type": "mcp_tool", "server": "gone", "tool": "t"},
            {"type": "mcp_tool", "server": " ", "tool": "t"}
        ]}]}}"#,
    );
    let c = d.load();
    // A server no file defines is `check`'s finding and `run`'s failure, not a warning.
    let lines = c.warning_lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("`server` is missing or empty"),
        "{lines:?}"
    );
    let specs: Vec<&McpToolSpec> = c
        .handlers
        .iter()
        .map(|h| match &h.kind {
            HandlerKind::McpTool(spec) => spec,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(c.handlers[0].label, "mcp_tool `s/t`");
    assert_eq!(specs[0].input, r#"{"a":"${cwd}"}"#);
    let found = specs[0].found.as_ref().expect("found in ~/.claude.json");
    assert_eq!(found.file, d.home().join(".claude.json"));
    assert!(matches!(&found.transport, McpTransport::Stdio { command, .. } if command == "srv"));
    assert!(specs[1].found.is_none());
    assert!(specs[1].server_problem().unwrap().contains(".claude.json"));
    assert_eq!(c.handlers[0].timeout, Duration::from_secs(30));
    assert_eq!(c.handlers[0].on_error, OnError::Deny);
    assert_eq!(
        c.handlers[1].timeout,
        Duration::from_secs(600),
        "Claude Code's default"
    );
}

#[test]
fn on_failure_is_claude_codes_spelling_of_on_error() {
    let d = Dirs::with_user(
        r#"{"onError": "deny", "hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "a", "onFailure": "block"},
            {"type": "command", "command": "b", "onFailure": "continue"},
            {"type": "command", "command": "c", "onFailure": "block", "onError": "deny"},
            {"type": "command", "command": "d", "onFailure": "continue", "onError": "deny"},
            {"type": "command", "command": "e"}
        ]}]}}"#,
    );
    let c = d.load();
    let policies: Vec<OnError> = c.handlers.iter().map(|h| h.on_error).collect();
    use OnError::{Allow, Deny};
    assert_eq!(policies, [Deny, Allow, Deny, Deny, Deny]);
    assert_eq!(c.warning_lines().len(), 1, "{:?}", c.warning_lines());
    assert_line(
        &c.warning_lines(),
        0,
        "hooks.Stop[0].hooks[3]: `onError` and `onFailure` disagree",
    );
}

#[test]
fn long_commands_get_short_one_line_labels() {
    let d = Dirs::new();
    let long = format!("python3 -c '{}'\n  --flag", "x".repeat(100));
    d.write_user(&one_handler(json!({"type": "command", "command": long})));
    let c = d.load();
    let label = &c.handlers[0].label;
    let inner = label
        .strip_prefix("command `")
        .and_then(|l| l.strip_suffix('`'))
        .unwrap();
    assert_eq!(inner.chars().count(), 60);
    assert!(
        inner.starts_with("python3 -c 'xxx") && inner.ends_with('…'),
        "{label}"
    );
    assert!(!label.contains('\n'));
    // The command itself is untouched.
    assert_eq!(command_of(&c.handlers[0]), long);
}

#[test]
fn regex_errors_are_one_line() {
    for bad in ["(", "[z-a]", "a{99999999}", "\\"] {
        let e = regex_lite::Regex::new(bad).unwrap_err();
        let line = regex_error(&e);
        assert!(!line.is_empty() && !line.contains('\n'), "{bad}: {line}");
    }
}

#[test]
fn claude_permission_rules_in_if_name_the_tool_and_match_the_command() {
    let d = Dirs::new();
    d.write_project(
        r#"{"hooks": {
            "PreToolUse": [
                {"hooks": [{"type": "command", "command": "git-guard", "if": "Bash(git push *)"}]},
                {"matcher": "Edit|Write", "hooks": [
                    {"type": "command", "command": "edit-guard", "if": "Edit(src/**)"},
                    {"type": "command", "command": "never", "if": "Bash(rm *)"}
                ]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "no-input", "if": "x"}]}]
        }}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["git-guard", "edit-guard"]);
    let f = d.project_file().display().to_string();
    assert_eq!(
        c.warning_lines(),
        [
            format!(
                "`{f}`: hooks.PreToolUse[1].hooks[0]: only the tool of the permission rule \
                 `Edit(src/**)` is checked (its pattern is not supported); the hook runs for \
                 every Edit call"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[1].hooks[1]: `if` names the tool `Bash`, which the \
                 group's matcher never selects; this handler never runs"
            ),
            format!(
                "`{f}`: hooks.Stop[0].hooks[0]: `if` tests the tool input, and Stop has none; \
                 this handler never runs"
            ),
        ]
    );
    let event = |tool: &str, input: serde_json::Value| {
        Event::new(
            json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}),
            None,
            "claude",
        )
        .unwrap()
    };
    let chosen = |ev: &Event| -> Vec<String> {
        select(&c.handlers, ev)
            .iter()
            .map(|h| command_of(h).to_string())
            .collect()
    };
    assert_eq!(
        chosen(&event("Bash", json!({"command": "git push origin main"}))),
        ["git-guard"]
    );
    assert!(chosen(&event("Bash", json!({"command": "git status"}))).is_empty());
    // The rule names Bash: another tool whose input mentions `git push` does not run it.
    assert_eq!(
        chosen(&event(
            "Write",
            json!({"file_path": "/a", "content": "git push"})
        )),
        Vec::<String>::new()
    );
    assert_eq!(
        chosen(&event("Edit", json!({"file_path": "/p/src/a.rs"}))),
        ["edit-guard"]
    );
}
