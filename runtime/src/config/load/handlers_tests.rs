//! Tests of the type-specific parts: command, shell, wasm, prompt, http.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;

use crate::config::load::testutil::*;
use crate::config::*;

#[test]
fn command_fields_and_defaults() {
    let d = Dirs::with_user(
        r#"{"onError": "deny", "hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "plain"},
            {"type": "command", "command": "tuned", "timeout": 0.5, "async": true,
             "statusMessage": "checking", "onError": "allow", "once": true, "shell": "bash"},
            {"type": "command", "command": "rewake", "asyncRewake": true, "timeout": 10},
            {"type": "command", "command": "neg", "timeout": -1}
        ]}]}}"#,
    );
    let c = d.load();
    let h = &c.handlers;
    assert_eq!(h[0].timeout, DEFAULT_TIMEOUT);
    assert_eq!(h[0].on_error, OnError::Deny, "file-wide default");
    assert_eq!(h[0].status_message, None);
    assert_eq!(
        h[0].kind,
        HandlerKind::Command(CommandSpec {
            command: "plain".into(),
            async_: false,
            shell: crate::config::Shell::System,
        })
    );
    assert_eq!(h[1].timeout, Duration::from_millis(500));
    assert_eq!(h[1].on_error, OnError::Allow, "the handler's own wins");
    assert_eq!(h[1].status_message.as_deref(), Some("checking"));
    assert!(matches!(&h[1].kind, HandlerKind::Command(c) if c.async_));
    assert!(matches!(&h[2].kind, HandlerKind::Command(c) if c.async_));
    assert_eq!(h[2].timeout, Duration::from_secs(10));
    assert_eq!(h[3].timeout, DEFAULT_TIMEOUT);
    assert_eq!(
        c.warning_lines(),
        [format!(
            "`{}`: hooks.PreToolUse[0].hooks[3]: `timeout` must be a positive number of seconds, \
             not -1; using 60",
            d.user_file().display()
        )]
    );
}

#[test]
fn unsupported_shell_warns() {
    let d = Dirs::with_user(&one_handler(
        json!({"type": "command", "command": "x", "shell": "zsh"}),
    ));
    let c = d.load();
    assert_eq!(commands(&c), ["x"]);
    assert_eq!(shells(&c), [Shell::System]);
    assert_eq!(c.warning_lines().len(), 1);
    assert!(
        c.warning_lines()[0].contains("`shell: zsh` is not supported (use `bash` or `powershell`)")
    );
}

fn shells(config: &Config) -> Vec<Shell> {
    config
        .handlers
        .iter()
        .map(|h| match &h.kind {
            HandlerKind::Command(spec) => spec.shell,
            other => panic!("not a command: {other:?}"),
        })
        .collect()
}

#[test]
fn shell_powershell_and_copilots_powershell_field_choose_powershell() {
    let d = Dirs::with_user(
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "a", "shell": "bash"},
            {"type": "command", "command": "Write-Output $CLAUDE_PROJECT_DIR", "shell": "powershell"},
            {"type": "command", "command": "c", "powershell": "d"},
            {"type": "command", "command": "e.ps1", "args": ["it's"], "shell": "powershell"}
        ]}]}})
        .to_string(),
    );
    let c = d.load();
    assert_eq!(c.warning_lines(), Vec::<String>::new());
    let root = d.project().display().to_string();
    // PowerShell does not read `$CLAUDE_PROJECT_DIR`: it is always replaced;
    // exec form quotes PowerShell's way and calls with `&`.
    let (third, third_shell) = if cfg!(windows) {
        ("d", Shell::PowerShell)
    } else {
        ("c", Shell::System)
    };
    assert_eq!(
        commands(&c),
        [
            "a".to_string(),
            format!("Write-Output {root}"),
            third.to_string(),
            "& 'e.ps1' 'it''s'".to_string()
        ]
    );
    assert_eq!(
        shells(&c),
        [
            Shell::System,
            Shell::PowerShell,
            third_shell,
            Shell::PowerShell
        ]
    );
}

#[test]
fn wasm_paths_resolve_against_the_scope_and_defaults_apply() {
    let d = Dirs::new();
    let wasm = json!({"type": "wasm", "component": ".agents/hooks/guard.wasm",
        "allow": {"read": ["$CLAUDE_PROJECT_DIR", "docs", "/abs"], "write": ["~/out"],
                  "env": ["HOME"], "net": ["127.0.0.1:80"]}});
    d.write_user(&one_handler(wasm.clone()));
    d.write_project(&one_handler(
        json!({"type": "wasm", "component": "${CLAUDE_PROJECT_DIR}/g.wasm",
        "fuel": 5, "memoryMiB": 8, "timeout": 2}),
    ));
    let c = d.load();
    assert!(c.warning_lines().is_empty() && c.error_lines().is_empty());
    let user = wasm_of(&c.handlers[0]);
    assert_eq!(user.component, d.home().join(".agents/hooks/guard.wasm"));
    assert_eq!(user.limits, crate::config::Limits::DEFAULT);
    assert_eq!(
        user.allow,
        Grants {
            read: vec![
                d.project().to_path_buf(),
                d.home().join("docs"),
                PathBuf::from("/abs")
            ],
            write: vec![d.home().join("out")],
            env: vec!["HOME".into()],
            net: vec!["127.0.0.1:80".into()],
        }
    );
    assert_eq!(c.handlers[0].label, "wasm `guard.wasm`");
    let project = wasm_of(&c.handlers[1]);
    assert_eq!(project.component, d.project().join("g.wasm"));
    assert_eq!((project.limits.fuel, project.limits.memory_mib), (5, 8));
    assert_eq!(project.allow, Grants::default());
    assert_eq!(c.handlers[1].timeout, Duration::from_secs(2));

    // In the project file, a relative path is the project's.
    d.write_project(&one_handler(wasm));
    let c = d.load();
    assert_eq!(
        wasm_of(&c.handlers[1]).component,
        d.project().join(".agents/hooks/guard.wasm")
    );
    assert_eq!(
        wasm_of(&c.handlers[1]).allow.read[1],
        d.project().join("docs")
    );
}

#[test]
fn prompt_handlers_resolve_on_the_events_claude_allows_them() {
    let d = Dirs::with_user(
        r#"{"hooks": {
            "PreToolUse": [{"hooks": [
                {"type": "prompt", "prompt": "Safe? $ARGUMENTS", "model": "m", "continueOnBlock": true},
                {"type": "prompt", "prompt": "   "},
                {"type": "agent", "prompt": "Read POLICY.md first"}
            ]}],
            "SessionStart": [{"hooks": [{"type": "prompt", "prompt": "Hi"}]}]
        }}"#,
    );
    let c = d.load();
    assert_eq!(c.handlers.len(), 2, "{:?}", c.handlers);
    assert!(matches!(c.handlers[1].kind, HandlerKind::Agent(_)));
    assert_eq!(c.handlers[1].timeout, DEFAULT_TIMEOUT);
    let HandlerKind::Prompt(spec) = &c.handlers[0].kind else {
        panic!("{:?}", c.handlers[0].kind)
    };
    assert_eq!(spec.prompt, "Safe? $ARGUMENTS");
    assert_eq!(
        (spec.model.as_deref(), spec.continue_on_block),
        (Some("m"), true)
    );
    assert_eq!(c.handlers[0].label, "prompt `Safe? $ARGUMENTS`");
    assert_eq!(c.handlers[0].timeout, crate::config::DEFAULT_PROMPT_TIMEOUT);
    assert_eq!(c.warning_lines().len(), 2, "{:?}", c.warning_lines());
    assert!(
        c.warning_lines()[0].contains("`prompt` is missing or empty"),
        "{}",
        c.warning_lines()[0]
    );
    assert!(
        c.warning_lines()[1].contains("prompt and agent hooks are not allowed on SessionStart"),
        "{}",
        c.warning_lines()[1]
    );
}

#[test]
fn http_handlers_are_resolved_and_bad_urls_skipped() {
    let d = Dirs::with_user(
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "http", "url": " http://127.0.0.1:9/hook ", "timeout": 3,
             "headers": {"Authorization": "Bearer $TOKEN", "X-Team": "${TEAM}-$SECRET"},
             "allowedEnvVars": ["TOKEN", "TEAM"], "once": true},
            {"type": "http", "url": "ftp://example.com/x"},
            {"type": "http"}
        ]}]}}"#,
    );
    let c = d.load();
    assert_eq!(c.handlers.len(), 1, "{:?}", c.handlers);
    let h = &c.handlers[0];
    let HandlerKind::Http(spec) = &h.kind else {
        panic!("{:?}", h.kind)
    };
    assert_eq!(spec.url, "http://127.0.0.1:9/hook");
    assert_eq!(
        spec.headers,
        [
            ("Authorization".to_string(), "Bearer $TOKEN".to_string()),
            ("X-Team".to_string(), "${TEAM}-$SECRET".to_string())
        ]
    );
    assert_eq!(spec.allowed_env_vars, ["TOKEN", "TEAM"]);
    assert_eq!(h.label, "http `http://127.0.0.1:9/hook`");
    assert_eq!(h.timeout, Duration::from_secs(3));
    assert!(h.once);
    let w = c.warning_lines().join("\n");
    assert!(
        w.contains("header `X-Team` uses `$SECRET`, which `allowedEnvVars` does not list"),
        "{w}"
    );
    assert!(
        w.contains("hooks[1]: `url` `ftp://example.com/x` must start with"),
        "{w}"
    );
    assert!(w.contains("hooks[2]: `url` is missing or empty"), "{w}");
    assert_eq!(c.warning_lines().len(), 3, "{w}");
}
