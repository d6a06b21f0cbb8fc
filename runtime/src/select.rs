//! Stage 3 of the pipeline (select): which handlers an event runs.
//!
//! Claude Code's matcher semantics: `""`, `"*"` or no matcher match everything;
//! a matcher of only letters, digits, `_`, `-`, space, `,` and `|` is a list of
//! exact names; anything else is an unanchored regex. A matcher on an event
//! that has no matcher field is ignored, as Claude Code ignores it.
//!
//! Then the `if` regex (on the shell command, or on the JSON of the tool input)
//! filters further, and identical handlers declared in several places run once.

use crate::config::Handler;
use crate::protocol::Event;

pub use crate::config::Matcher;

/// The handlers `event` runs, in declaration order, identical ones once.
///
/// A handler is selected when its event is the event's, its matcher accepts
/// [`Event::matcher_target`] (a matcher is ignored on events without a matcher
/// field), and its `if` regex, if any, matches [`Event::if_target`] (an `if`
/// with no tool input to test does not match). Handlers of the same kind running
/// the same thing (same command, or same component with the same limits and
/// grants) are deduplicated; the first declared (user scope first) wins.
pub fn select<'a>(handlers: &'a [Handler], event: &Event) -> Vec<&'a Handler> {
    let name = event.name();
    let matcher_applies = name.matcher_field().is_some();
    let matcher_target = event.matcher_target();
    let mut if_target: Option<Option<String>> = None;
    let mut chosen: Vec<&Handler> = Vec::new();
    for handler in handlers {
        if handler.event != name {
            continue;
        }
        if matcher_applies && !handler.matcher.matches(matcher_target) {
            continue;
        }
        if let Some(re) = &handler.if_ {
            // Computed once per event, and only when some handler has an `if`.
            let target = if_target.get_or_insert_with(|| event.if_target());
            match target {
                Some(text) if re.is_match(text) => {}
                _ => continue,
            }
        }
        if chosen.iter().any(|c| c.kind == handler.kind) {
            continue;
        }
        chosen.push(handler);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use serde_json::json;

    use super::*;
    use crate::config::{
        CommandSpec, Grants, HandlerKind, OnError, Scope, WasmSpec, DEFAULT_TIMEOUT,
    };
    use crate::protocol::EventName;

    fn m(s: Option<&str>) -> Matcher {
        Matcher::parse(s).unwrap()
    }

    #[test]
    fn all_matchers_match_everything() {
        for s in [None, Some(""), Some("*"), Some("  ")] {
            let matcher = m(s);
            assert!(matches!(matcher, Matcher::All), "{s:?}");
            assert!(matcher.matches(Some("Bash")));
            assert!(matcher.matches(None));
        }
    }

    /// `matcher` parses and matches each of `yes` (a tool name, `None`: no
    /// tool) and none of `no`.
    fn matches_only(matcher: &str, yes: &[&str], no: &[Option<&str>]) -> Matcher {
        let parsed = m(Some(matcher));
        for tool in yes {
            assert!(parsed.matches(Some(tool)), "{matcher} should match {tool}");
        }
        for tool in no {
            assert!(
                !parsed.matches(*tool),
                "{matcher} should not match {tool:?}"
            );
        }
        parsed
    }

    #[test]
    fn exact_names_match_whole_names_only() {
        matches_only("Bash", &["Bash"], &[Some("BashOutput"), Some("bash"), None]);
        matches_only(
            "Edit|Write",
            &["Edit", "Write"],
            &[Some("NotebookEdit"), Some("MultiEdit")],
        );
        matches_only(
            "Read, Grep ,Glob",
            &["Read", "Grep", "Glob"],
            &[Some("Read, Grep")],
        );
    }

    #[test]
    fn hyphenated_names_are_exact() {
        let hy = matches_only(
            "my-tool",
            &["my-tool"],
            &[Some("my-tool-2"), Some("xmy-tool")],
        );
        assert!(matches!(hy, Matcher::Exact(_)));
    }

    #[test]
    fn regex_matchers_are_unanchored() {
        let edit = matches_only("Edit.*", &["Edit", "NotebookEdit"], &[Some("Write"), None]);
        assert!(matches!(edit, Matcher::Regex(_)));
        matches_only(
            "mcp__memory__.*",
            &["mcp__memory__create_entities"],
            &[Some("mcp__github__search")],
        );
        matches_only("^Bash$", &["Bash"], &[Some("BashOutput")]);
    }

    #[test]
    fn mcp_server_prefix_alone_matches_no_tool() {
        // `mcp__memory` is in the exact charset: it names a tool, not a prefix.
        matches_only(
            "mcp__memory",
            &[],
            &[Some("mcp__memory__x"), Some("mcp__memory__create_entities")],
        );
    }

    #[test]
    fn a_matcher_displays_as_written_back() {
        // Trust fingerprints hash this text: changing it untrusts every hook.
        assert_eq!(m(None).to_string(), "*");
        assert_eq!(m(Some("")).to_string(), "*");
        assert_eq!(m(Some("Read, Grep ,Glob")).to_string(), "Read|Grep|Glob");
        assert_eq!(m(Some("^Bash$")).to_string(), "^Bash$");
    }

    #[test]
    fn invalid_regex_is_an_error() {
        assert!(Matcher::parse(Some("Edit(")).is_err());
        assert!(Matcher::parse(Some("[")).is_err());
    }

    fn handler(event: EventName, matcher: Option<&str>, if_: Option<&str>, cmd: &str) -> Handler {
        Handler {
            event,
            matcher: m(matcher),
            if_: if_.map(|r| regex_lite::Regex::new(r).unwrap()),
            kind: HandlerKind::Command(CommandSpec {
                command: cmd.into(),
                async_: false,
                shell: crate::config::Shell::System,
            }),
            timeout: DEFAULT_TIMEOUT,
            on_error: OnError::Allow,
            scope: Scope::User,
            file: PathBuf::from("/u/.agents/hooks.json"),
            project_root: None,
            label: format!("command `{cmd}`"),
            status_message: None,
            once: false,
        }
    }

    /// Claude's event of this payload.
    fn claude(payload: serde_json::Value) -> Event {
        Event::new(payload, None, "claude").unwrap()
    }

    fn pre_tool(tool: &str, input: serde_json::Value) -> Event {
        claude(json!({"hook_event_name":"PreToolUse","tool_name":tool,"tool_input":input}))
    }

    fn labels(selected: &[&Handler]) -> Vec<String> {
        selected.iter().map(|h| h.label.clone()).collect()
    }

    #[test]
    fn selects_by_event_and_matcher_in_declaration_order() {
        let hs = vec![
            handler(EventName::PreToolUse, Some("Bash"), None, "a"),
            handler(EventName::PostToolUse, Some("Bash"), None, "b"),
            handler(EventName::PreToolUse, Some("Edit|Write"), None, "c"),
            handler(EventName::PreToolUse, None, None, "d"),
            handler(EventName::PreToolUse, Some("Ba.*"), None, "e"),
        ];
        let ev = pre_tool("Bash", json!({"command":"ls"}));
        assert_eq!(
            labels(&select(&hs, &ev)),
            ["command `a`", "command `d`", "command `e`"]
        );
        let ev = pre_tool("Write", json!({"file_path":"/x"}));
        assert_eq!(labels(&select(&hs, &ev)), ["command `c`", "command `d`"]);
    }

    #[test]
    fn matcher_is_ignored_on_events_without_matcher_field() {
        let hs = vec![handler(EventName::Stop, Some("Bash"), None, "s")];
        let ev = claude(json!({"hook_event_name":"Stop"}));
        assert_eq!(labels(&select(&hs, &ev)), ["command `s`"]);
    }

    #[test]
    fn matcher_uses_the_events_own_field() {
        let hs = vec![
            handler(EventName::SessionStart, Some("startup"), None, "s"),
            handler(EventName::SessionStart, Some("resume|clear"), None, "r"),
        ];
        let ev = claude(json!({"hook_event_name":"SessionStart","source":"clear"}));
        assert_eq!(labels(&select(&hs, &ev)), ["command `r`"]);
        // No source at all: only match-all matchers apply.
        let ev = claude(json!({"hook_event_name":"SessionStart"}));
        assert!(select(&hs, &ev).is_empty());
    }

    #[test]
    fn if_filters_on_shell_command_or_input_json() {
        let hs = vec![
            handler(
                EventName::PreToolUse,
                Some("Bash"),
                Some("^git (push|reset)"),
                "g",
            ),
            handler(
                EventName::PreToolUse,
                None,
                Some(r#""file_path":"/etc/"#),
                "f",
            ),
        ];
        let push = pre_tool("Bash", json!({"command":"git push origin"}));
        assert_eq!(labels(&select(&hs, &push)), ["command `g`"]);
        let status = pre_tool("Bash", json!({"command":"git status"}));
        assert!(select(&hs, &status).is_empty());
        // The regex sees the command, not the JSON: an echo of the words does not anchor.
        let echo = pre_tool("Bash", json!({"command":"echo git push"}));
        assert!(select(&hs, &echo).is_empty());
        let etc = pre_tool("Write", json!({"file_path":"/etc/passwd"}));
        assert_eq!(labels(&select(&hs, &etc)), ["command `f`"]);
    }

    #[test]
    fn if_without_tool_input_does_not_select() {
        let hs = vec![
            handler(EventName::UserPromptSubmit, None, Some(".*"), "i"),
            handler(EventName::UserPromptSubmit, None, None, "n"),
        ];
        let ev = claude(json!({"hook_event_name":"UserPromptSubmit","prompt":"hi"}));
        assert_eq!(labels(&select(&hs, &ev)), ["command `n`"]);
    }

    #[test]
    fn identical_handlers_run_once_first_declared_wins() {
        let mut user = handler(EventName::PreToolUse, Some("Bash"), None, "same");
        user.label = "user".into();
        let mut project = handler(EventName::PreToolUse, None, None, "same");
        project.scope = Scope::Project;
        project.label = "project".into();
        let other = handler(EventName::PreToolUse, None, None, "other");
        let hs = vec![user, project, other];
        let ev = pre_tool("Bash", json!({"command":"ls"}));
        assert_eq!(labels(&select(&hs, &ev)), ["user", "command `other`"]);
        // When the first copy does not match, the second one still runs.
        let ev = pre_tool("Read", json!({"file_path":"/a"}));
        assert_eq!(labels(&select(&hs, &ev)), ["project", "command `other`"]);
    }

    #[test]
    fn wasm_handlers_dedupe_on_component_and_grants() {
        let wasm = |grants: Grants, label: &str| {
            let mut h = handler(EventName::PreToolUse, None, None, "");
            h.kind = HandlerKind::Wasm(WasmSpec {
                component: PathBuf::from("/p/guard.wasm"),
                oci: None,
                limits: crate::config::Limits {
                    fuel: 1,
                    memory_mib: 1,
                },
                allow: grants,
            });
            h.label = label.into();
            h
        };
        let hs = vec![
            wasm(Grants::default(), "a"),
            wasm(Grants::default(), "b"),
            wasm(
                Grants {
                    env: vec!["HOME".into()],
                    ..Grants::default()
                },
                "c",
            ),
        ];
        let ev = pre_tool("Bash", json!({"command":"ls"}));
        assert_eq!(labels(&select(&hs, &ev)), ["a", "c"]);
    }
}
