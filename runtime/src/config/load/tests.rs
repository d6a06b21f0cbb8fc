//! Tests of loading as a whole: the scopes' order, a file read once, bounded warnings.

use serde_json::json;

use super::*;
use crate::config::load::testutil::*;
use crate::config::*;
use crate::protocol::Event;
use crate::select::select;

#[test]
fn user_scope_comes_first_then_project_in_file_order() {
    let d = Dirs::with_user(
        r#"{"hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "u-stop"}]}],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "u-pre-1"},
                                              {"type": "command", "command": "u-pre-2"}]},
                {"hooks": [{"type": "command", "command": "u-pre-3"}]}
            ]
        }}"#,
    );
    d.write_project(
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "p-pre"}]}]}}"#,
    );
    let c = d.load();
    assert_eq!(c.error_lines(), Vec::<String>::new());
    assert_eq!(c.warning_lines(), Vec::<String>::new());
    assert_eq!(
        commands(&c),
        ["u-stop", "u-pre-1", "u-pre-2", "u-pre-3", "p-pre"]
    );
    let scopes: Vec<Scope> = c.handlers.iter().map(|h| h.scope).collect();
    assert_eq!(
        scopes,
        [
            Scope::User,
            Scope::User,
            Scope::User,
            Scope::User,
            Scope::Project
        ]
    );
    assert_eq!(c.handlers[0].event, EventName::Stop);
    assert_eq!(c.handlers[0].file, d.user_file());
    assert_eq!(c.handlers[4].file, d.project_file());
    assert_eq!(c.files, [d.user_file(), d.project_file()]);
    assert_eq!(c.project_root.as_deref(), Some(d.project()));
    // Both scopes know the project root, for `CLAUDE_PROJECT_DIR`.
    for h in &c.handlers {
        assert_eq!(h.project_root.as_deref(), Some(d.project()));
    }
    assert!(matches!(c.handlers[1].matcher, Matcher::Exact(_)));
    assert!(matches!(c.handlers[3].matcher, Matcher::All));
}

#[test]
fn home_as_project_is_loaded_once() {
    let d = Dirs::with_user(&one_handler(json!({"type": "command", "command": "u"})));
    let c = load(&LoadOptions {
        home: Some(d.home().to_path_buf()),
        project_root: Some(d.home().join(".")),
    });
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(c.files.len(), 1);
}

#[test]
fn identical_hooks_in_both_scopes_run_once_from_the_user_scope() {
    let d = Dirs::new();
    let file = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/check.sh"}]}]}}"#;
    d.write_user(file);
    d.write_project(file);
    let c = d.load();
    assert_eq!(c.handlers.len(), 2);
    let ev = Event::new(
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        None,
        "claude",
    )
    .unwrap();
    let chosen = select(&c.handlers, &ev);
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].scope, Scope::User);
}

/// Found by the `hooks_json` fuzz target: warnings and errors quoted the
/// file's keys and values whole, line breaks and all.
#[test]
fn warnings_and_errors_quoting_the_file_are_one_bounded_line() {
    let d = Dirs::new();
    let long = format!("a\nb\u{1b}[2J{}", "k".repeat(1 << 20));
    let group = json!([{"hooks": [{"type": "command", "command": "y", &long: 1}]}]);
    d.write_user(&json!({"hooks": {&long: [], "PreToolUse": group}, &long: 1}).to_string());
    // A value of the wrong kind: serde's message quotes it (the handler
    // fails closed, so the file is broken rather than the handler skipped).
    d.write_project(&json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "z", "timeout": long, "onError": "deny"}]}]}}).to_string());
    let c = d.load();
    assert!(
        c.warning_lines().len() >= 3 && c.error_lines().len() == 1,
        "{} {}",
        c.warning_lines().len(),
        c.error_lines().len()
    );
    for line in c.warning_lines().iter().chain(&c.error_lines()) {
        let ctx = format!("{} chars: {:?}", line.len(), line.get(..200));
        assert!(!line.contains(['\n', '\r', '\u{1b}']), "{ctx}");
        assert!(
            line.chars().count() < 3 * crate::protocol::NOTE_MAX_CHARS,
            "{ctx}"
        );
    }
}

#[test]
fn each_broken_file_is_one_problem_before_the_warnings() {
    let d = Dirs::with_user(r#"{"hookz": {}}"#);
    d.write_project("{,}");
    let c = d.load();
    assert_eq!(c.broken.len(), 1);
    assert_eq!(c.broken[0].file, d.project_file());
    let problems: Vec<String> = c.problems().collect();
    assert_eq!(
        problems,
        [c.broken[0].to_string(), c.warnings[0].to_string()],
        "{problems:?}"
    );
    assert!(problems[0].contains("line 1 column 2"), "{}", problems[0]);
    assert!(
        problems[1].contains("unknown key `hookz`"),
        "{}",
        problems[1]
    );
}
