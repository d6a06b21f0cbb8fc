//! Tests of the loader: scopes, order, errors and warnings, variables, paths.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use tempfile::TempDir;

use super::*;
use crate::protocol::Event;
use crate::select::select;

/// A home directory and a project directory, each with an optional hooks.json.
struct Dirs {
    home: TempDir,
    project: TempDir,
}

impl Dirs {
    fn new() -> Dirs {
        Dirs {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
        }
    }

    fn home(&self) -> &Path {
        self.home.path()
    }

    fn project(&self) -> &Path {
        self.project.path()
    }

    fn user_file(&self) -> PathBuf {
        self.home().join(".agents/hooks.json")
    }

    fn project_file(&self) -> PathBuf {
        self.project().join(".agents/hooks.json")
    }

    fn write_user(&self, text: &str) {
        write(self.home(), text);
    }

    fn write_project(&self, text: &str) {
        write(self.project(), text);
    }

    fn load(&self) -> Config {
        self.load_managed(None)
    }

    /// With the managed file `managed` (the machine's own is never read).
    fn load_managed(&self, managed: Option<&Path>) -> Config {
        let opts = LoadOptions {
            home: Some(self.home().to_path_buf()),
            project_root: Some(self.project().to_path_buf()),
        };
        load_with_managed(&opts, managed)
    }
}

fn write(dir: &Path, text: &str) {
    fs::create_dir_all(dir.join(".agents")).unwrap();
    fs::write(dir.join(".agents/hooks.json"), text).unwrap();
}

fn command_of(h: &Handler) -> &str {
    match &h.kind {
        HandlerKind::Command(c) => &c.command,
        other => panic!("not a command: {other:?}"),
    }
}

fn wasm_of(h: &Handler) -> &WasmSpec {
    match &h.kind {
        HandlerKind::Wasm(w) => w,
        other => panic!("not wasm: {other:?}"),
    }
}

fn commands(config: &Config) -> Vec<&str> {
    config.handlers.iter().map(command_of).collect()
}

/// Asserts that line `i` of `lines` (a config's warnings or errors) holds `part`.
#[track_caller]
fn assert_line(lines: &[String], i: usize, part: &str) {
    assert!(
        lines.get(i).is_some_and(|line| line.contains(part)),
        "line {i} does not hold {part:?}: {lines:?}"
    );
}

fn one_handler(handler: serde_json::Value) -> String {
    json!({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}).to_string()
}

#[test]
fn user_scope_comes_first_then_project_in_file_order() {
    let d = Dirs::new();
    d.write_user(
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
    assert_eq!(c.errors, Vec::<String>::new());
    assert_eq!(c.warnings, Vec::<String>::new());
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
fn missing_files_are_no_hooks_and_no_errors() {
    let d = Dirs::new();
    let c = d.load();
    assert!(c.handlers.is_empty());
    assert!(c.errors.is_empty() && c.warnings.is_empty() && c.files.is_empty());
    // No project root at all: only the user scope is read.
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    d.write_project(&one_handler(json!({"type": "command", "command": "p"})));
    let c = load(&LoadOptions {
        home: Some(d.home().to_path_buf()),
        project_root: None,
    });
    assert_eq!(commands(&c), ["u"]);
}

#[test]
fn empty_file_is_no_hooks() {
    let d = Dirs::new();
    d.write_project("  \n");
    let c = d.load();
    assert!(c.handlers.is_empty() && c.errors.is_empty());
    assert_eq!(c.files, [d.project_file()]);
}

#[test]
fn syntax_error_names_file_line_column_and_other_scope_still_runs() {
    let d = Dirs::new();
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    d.write_project("{\n  \"hooks\": {\n    \"Stop\": []\n    \"PreToolUse\": []\n  }\n}\n");
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(
        c.errors,
        [format!(
            "`{}`: line 4 column 5: expected `,` or `}}`; fix the file (other scopes still run)",
            d.project_file().display()
        )]
    );
}

#[test]
fn wrong_types_are_errors_with_a_position() {
    let d = Dirs::new();
    d.write_user("{\"hooks\": {\"PreToolUse\": [{\"hooks\": [\n{\"type\": \"command\", \"command\": \"x\", \"timeout\": \"soon\"}\n]}]}}");
    d.write_project(&one_handler(json!({"type": "command", "command": "p"})));
    let c = d.load();
    assert_eq!(commands(&c), ["p"]);
    assert_eq!(c.errors.len(), 1);
    assert_eq!(
        c.errors[0],
        format!(
            "`{}`: line 2 column 53: `hooks.PreToolUse[0].hooks[0].timeout`: invalid type: string \"soon\", expected a number; \
             fix the file (other scopes still run)",
            d.user_file().display()
        )
    );

    // A top level that is not an object.
    d.write_project("[1]");
    let c = d.load();
    assert_eq!(c.errors.len(), 2, "{:?}", c.errors);
    assert_line(&c.errors, 1, "the top level is an array");
}

#[test]
fn a_top_level_that_is_not_an_object_is_one_error_naming_the_file() {
    let d = Dirs::new();
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    // serde would read `[]` as a file with no hooks, silently.
    for (text, kind) in [
        ("[]", "an array"),
        ("\"hooks\"", "a string"),
        ("3", "a number"),
        ("null", "null"),
    ] {
        d.write_project(text);
        let c = d.load();
        assert_eq!(commands(&c), ["u"], "{text}");
        assert_eq!(
            c.errors,
            [format!(
                "`{}`: the top level is {kind}, not an object; write `{{\"hooks\": {{...}}}}`; \
                 fix the file (other scopes still run)",
                d.project_file().display()
            )],
            "{text}"
        );
    }
}

#[test]
fn invalid_utf8_is_one_error_and_the_other_scope_runs() {
    let d = Dirs::new();
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    fs::create_dir_all(d.project().join(".agents")).unwrap();
    fs::write(d.project_file(), b"{\"hooks\": \xff}").unwrap();
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(
        c.errors,
        [format!(
            "`{}`: it is not UTF-8 text (an invalid byte at offset 10); save it as UTF-8; \
             fix the file (other scopes still run)",
            d.project_file().display()
        )]
    );
}

/// A hostile project file: one error naming it, read without blocking or
/// reading it whole, and the user's hooks still load.
#[cfg(unix)]
fn hostile_project_file(make: impl FnOnce(&Path), says: &str) {
    let d = Dirs::new();
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    fs::create_dir_all(d.project().join(".agents")).unwrap();
    make(&d.project_file());
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(c.errors.len(), 1, "{:?}", c.errors);
    let shown = format!("`{}`", d.project_file().display());
    assert!(c.errors[0].starts_with(&shown), "{:?}", c.errors);
    assert_line(&c.errors, 0, says);
    assert!(
        c.errors[0].ends_with("(other scopes still run)"),
        "{:?}",
        c.errors
    );
    assert!(!c.errors[0].contains('\n'));
}

#[cfg(unix)]
#[test]
fn a_fifo_project_file_does_not_block_the_user_scope() {
    hostile_project_file(
        |p| {
            crate::fsread::make_fifo(p);
        },
        "is a FIFO, not a regular file",
    );
}

#[cfg(unix)]
#[test]
fn a_project_file_linked_to_dev_zero_does_not_block_the_user_scope() {
    hostile_project_file(
        |p| std::os::unix::fs::symlink("/dev/zero", p).unwrap(),
        "is a device, not a regular file",
    );
}

#[cfg(unix)]
#[test]
fn a_huge_sparse_project_file_is_refused_by_its_size() {
    hostile_project_file(
        |p| fs::File::create(p).unwrap().set_len(2 << 30).unwrap(),
        "is 2147483648 bytes, over the 4194304-byte limit",
    );
}

#[cfg(unix)]
#[test]
fn a_hostile_user_file_does_not_block_the_project_scope() {
    let d = Dirs::new();
    d.write_project(&one_handler(json!({"type": "command", "command": "p"})));
    fs::create_dir_all(d.home().join(".agents")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.user_file()).unwrap();
    let c = d.load();
    assert_eq!(commands(&c), ["p"]);
    assert_eq!(c.errors.len(), 1, "{:?}", c.errors);
    assert!(c.errors[0].contains(&d.user_file().display().to_string()));
}

#[test]
fn handlers_missing_their_essentials_are_skipped_with_a_warning() {
    let d = Dirs::new();
    d.write_user(
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command"},
            {"type": "command", "command": "  "},
            {"type": "wasm"},
            {"command": "no type"},
            {"type": "command", "command": "ok"}
        ]}]}}"#,
    );
    let c = d.load();
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(commands(&c), ["ok"]);
    let f = d.user_file().display().to_string();
    assert_eq!(
        c.warnings,
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
fn unreadable_file_is_an_error() {
    let d = Dirs::new();
    // A directory where the file should be cannot be read as text.
    fs::create_dir_all(d.project_file()).unwrap();
    let c = d.load();
    assert_eq!(
        c.errors,
        [format!(
            "`{}` is a directory, not a regular file; replace it with a regular file \
             (other scopes still run)",
            d.project_file().display()
        )]
    );
}

#[test]
fn home_as_project_is_loaded_once() {
    let d = Dirs::new();
    d.write_user(&one_handler(json!({"type": "command", "command": "u"})));
    let c = load(&LoadOptions {
        home: Some(d.home().to_path_buf()),
        project_root: Some(d.home().join(".")),
    });
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(c.files.len(), 1);
}

#[test]
fn unknown_keys_events_and_types_warn_and_the_rest_runs() {
    let d = Dirs::new();
    d.write_project(
        r#"{"disableAllHooks": true, "hooks": {
            "PreToolUze": [{"hooks": [{"type": "command", "command": "never"}]}],
            "PreToolUse": [{"matchr": "Bash", "hooks": [
                {"type": "command", "command": "a", "comand": "b"},
                {"type": "shell", "command": "c"},
                {"type": "wasm", "component": "g.wasm", "allow": {"exec": ["x"]}}
            ]}]
        }}"#,
    );
    let c = d.load();
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    let f = d.project_file().display().to_string();
    assert_eq!(
        c.warnings,
        [
            format!("`{f}`: the top level: unknown key `disableAllHooks`; ignored"),
            format!(
                "`{f}`: unknown event `PreToolUze` in `hooks`; its hooks never run; \
                 did you mean `PreToolUse`?"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0]: unknown key `matchr`; ignored; \
                 did you mean `matcher`?"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[0]: unknown key `comand`; ignored; \
                 did you mean `command`?"
            ),
            format!(
                "`{f}`: hooks.PreToolUse[0].hooks[1]: unknown handler type `shell`; \
                 this handler is skipped"
            ),
            format!("`{f}`: hooks.PreToolUse[0].hooks[2].allow: unknown key `exec`; ignored"),
        ]
    );
    assert_eq!(c.handlers.len(), 2);
    assert_eq!(command_of(&c.handlers[0]), "a");
    assert_eq!(c.handlers[1].label, "wasm `g.wasm`");
}

#[test]
fn invalid_matcher_skips_its_group_with_a_warning() {
    let d = Dirs::new();
    d.write_user(
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Edit(", "hooks": [{"type": "command", "command": "bad"}]},
            {"matcher": "Edit.*", "hooks": [{"type": "command", "command": "good"}]}
        ]}}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["good"]);
    assert_eq!(c.warnings.len(), 1);
    let w = &c.warnings[0];
    assert!(
        w.starts_with(&format!(
            "`{}`: hooks.PreToolUse[0]: invalid matcher `Edit(` for PreToolUse: ",
            d.user_file().display()
        )),
        "{w}"
    );
    assert!(w.contains("unclosed group"), "{w}");
    assert!(w.ends_with("; this group is skipped"), "{w}");
    assert!(!w.contains('\n'), "{w}");
}

#[test]
fn matcher_on_an_event_without_one_is_ignored_even_when_broken() {
    let d = Dirs::new();
    d.write_user(
        r#"{"hooks": {"Stop": [{"matcher": "((", "hooks": [{"type": "command", "command": "s"}]}]}}"#,
    );
    let c = d.load();
    assert_eq!(commands(&c), ["s"]);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn invalid_if_skips_the_group_or_the_handler() {
    let d = Dirs::new();
    d.write_user(
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
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert!(
        c.warnings[0].contains("hooks.PreToolUse[0]: invalid `if` regex `git (` for PreToolUse")
    );
    assert!(c.warnings[0].ends_with("this group is skipped"));
    assert!(c.warnings[1].contains("hooks.PreToolUse[1].hooks[0]: invalid `if` regex `[z-a]`"));
    assert!(c.warnings[1].ends_with("this handler is skipped"));
    assert_eq!(c.handlers[0].if_.as_ref().unwrap().as_str(), "^git");
    assert_eq!(c.handlers[1].if_.as_ref().unwrap().as_str(), "^rm ");
}

#[test]
fn command_fields_and_defaults() {
    let d = Dirs::new();
    d.write_user(
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
        c.warnings,
        [format!(
            "`{}`: hooks.PreToolUse[0].hooks[3]: `timeout` must be a positive number of seconds, \
             not -1; using 60",
            d.user_file().display()
        )]
    );
}

#[test]
fn unsupported_shell_warns() {
    let d = Dirs::new();
    d.write_user(&one_handler(
        json!({"type": "command", "command": "x", "shell": "zsh"}),
    ));
    let c = d.load();
    assert_eq!(commands(&c), ["x"]);
    assert_eq!(shells(&c), [Shell::System]);
    assert_eq!(c.warnings.len(), 1);
    assert!(c.warnings[0].contains("`shell: zsh` is not supported (use `bash` or `powershell`)"));
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
    let d = Dirs::new();
    d.write_user(
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "a", "shell": "bash"},
            {"type": "command", "command": "Write-Output $CLAUDE_PROJECT_DIR", "shell": "powershell"},
            {"type": "command", "command": "c", "powershell": "d"},
            {"type": "command", "command": "e.ps1", "args": ["it's"], "shell": "powershell"}
        ]}]}})
        .to_string(),
    );
    let c = d.load();
    assert_eq!(c.warnings, Vec::<String>::new());
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
fn project_dir_variable_is_expanded_in_commands() {
    let d = Dirs::new();
    d.write_project(
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.agents/hooks/a.sh"},
            {"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/b.sh $CLAUDE_PROJECT_DIRS $HOME $"}
        ]}]}}"#,
    );
    let c = d.load();
    let root = d.project().display().to_string();
    assert_eq!(
        commands(&c),
        [
            format!("{root}/.agents/hooks/a.sh"),
            format!("\"{root}\"/b.sh $CLAUDE_PROJECT_DIRS $HOME $"),
        ]
    );
    // The label shows the command as written.
    assert_eq!(
        c.handlers[0].label,
        "command `$CLAUDE_PROJECT_DIR/.agents/hooks/a.sh`"
    );
}

#[test]
fn project_dir_with_shell_characters_is_left_to_the_shell() {
    let d = Dirs::new();
    let odd = d.project().join("my $(project)");
    write(
        &odd,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR/x.sh\""},
                                          {"type": "wasm", "component": "$CLAUDE_PROJECT_DIR/g.wasm"}]}]}}"#,
    );
    let c = load(&LoadOptions {
        home: Some(d.home().to_path_buf()),
        project_root: Some(odd.clone()),
    });
    assert_eq!(command_of(&c.handlers[0]), "\"$CLAUDE_PROJECT_DIR/x.sh\"");
    // Paths are not shell text: they are expanded whatever the characters.
    assert_eq!(wasm_of(&c.handlers[1]).component, odd.join("g.wasm"));
}

#[test]
fn exec_form_args_are_quoted_for_the_shell() {
    let d = Dirs::new();
    d.write_project(&one_handler(json!({
        "type": "command", "command": "$CLAUDE_PROJECT_DIR/bin/check",
        "args": ["--mode", "it's", "a b", ""]
    })));
    let c = d.load();
    let root = d.project().display().to_string();
    let expected = if cfg!(windows) {
        format!("{root}/bin/check --mode \"it's\" \"a b\" \"\"")
    } else {
        format!("{root}/bin/check --mode 'it'\\''s' 'a b' ''")
    };
    assert_eq!(commands(&c), [expected]);
    assert_eq!(
        c.handlers[0].label,
        "command `$CLAUDE_PROJECT_DIR/bin/check --mode it's a b`"
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
    assert!(c.warnings.is_empty() && c.errors.is_empty());
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
fn unsupported_types_become_unsupported_handlers() {
    let d = Dirs::new();
    d.write_user(
        r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "mcp_tool", "server": "s", "tool": "t", "onError": "deny", "timeout": 30}
        ]}]}}"#,
    );
    let c = d.load();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let kinds: Vec<(&str, &str)> = c
        .handlers
        .iter()
        .map(|h| match &h.kind {
            HandlerKind::Unsupported { kind } => (kind.as_str(), h.label.as_str()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds, [("mcp_tool", "mcp_tool handler")]);
    assert_eq!(c.handlers[0].timeout, Duration::from_secs(30));
    assert_eq!(c.handlers[0].on_error, OnError::Deny);
}

#[test]
fn prompt_handlers_resolve_on_the_events_claude_allows_them() {
    let d = Dirs::new();
    d.write_user(
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
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert!(
        c.warnings[0].contains("`prompt` is missing or empty"),
        "{}",
        c.warnings[0]
    );
    assert!(
        c.warnings[1].contains("prompt and agent hooks are not allowed on SessionStart"),
        "{}",
        c.warnings[1]
    );
}

#[test]
fn llm_is_the_managed_or_user_files_and_never_a_projects() {
    let d = Dirs::new();
    let llm = r#""llm": {"provider": "openai", "baseUrl": "http://127.0.0.1:1/v1", "model": "u"}"#;
    d.write_user(&format!("{{{llm}, \"maxLlmCalls\": 3}}"));
    d.write_project(
        r#"{"llm": {"baseUrl": "https://evil.example"}, "allowLlmHooks": false, "maxLlmCalls": 99}"#,
    );
    let c = d.load();
    let settings = c.llm.as_ref().unwrap();
    assert_eq!(settings.provider, crate::config::LlmProvider::Openai);
    assert_eq!(settings.model.as_deref(), Some("u"));
    assert_eq!(c.budgets.max_llm_calls, 3);
    assert_eq!(c.warnings.len(), 3, "{:?}", c.warnings);
    assert!(
        c.warnings.iter().all(|w| w.contains("ignored")),
        "{:?}",
        c.warnings
    );

    let file = managed(
        &d,
        r#"{"llm": {"baseUrl": "https://gateway.corp", "model": "g"}, "allowLlmHooks": false}"#,
    );
    d.write_project(r#"{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]}}"#);
    let c = d.load_managed(Some(&file));
    let settings = c.llm.as_ref().unwrap();
    assert_eq!(settings.base_url.as_deref(), Some("https://gateway.corp"));
    assert!(c.handlers.is_empty(), "{:?}", c.handlers);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("`allowLlmHooks: false`")),
        "{:?}",
        c.warnings
    );
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("`llm` is set by the managed policy")));
}

#[test]
fn http_handlers_are_resolved_and_bad_urls_skipped() {
    let d = Dirs::new();
    d.write_user(
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
    let w = c.warnings.join("\n");
    assert!(
        w.contains("header `X-Team` uses `$SECRET`, which `allowedEnvVars` does not list"),
        "{w}"
    );
    assert!(
        w.contains("hooks[1]: `url` `ftp://example.com/x` must start with"),
        "{w}"
    );
    assert!(w.contains("hooks[2]: `url` is missing or empty"), "{w}");
    assert_eq!(c.warnings.len(), 3, "{w}");
}

#[test]
fn on_failure_is_claude_codes_spelling_of_on_error() {
    let d = Dirs::new();
    d.write_user(
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
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert_line(
        &c.warnings,
        0,
        "hooks.Stop[0].hooks[3]: `onError` and `onFailure` disagree",
    );
}

#[test]
fn a_broken_file_that_says_on_failure_block_reports_the_lost_policy() {
    let d = Dirs::new();
    d.write_project(r#"{"hooks": {"Stop": [{"hooks": [{"onFailure": "block"}]}]},}"#);
    let c = d.load();
    assert!(c.broken[0].lost_deny, "{:?}", c.broken);
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
fn audit_is_read_from_the_user_file_only() {
    let d = Dirs::new();
    d.write_user(r#"{"audit": {"path": ".agents/audit.jsonl", "maxBytes": 1048576}}"#);
    d.write_project(r#"{"audit": {"path": "/tmp/evil.jsonl"}}"#);
    let c = d.load();
    assert_eq!(
        c.audit,
        Some(AuditConfig {
            path: d.home().join(".agents/audit.jsonl"),
            max_bytes: Some(1_048_576),
            include_input: false,
        })
    );
    assert_eq!(c.warnings.len(), 1);
    assert!(c.warnings[0].contains("`audit` is honoured only in the user file"));
    assert!(c.warnings[0].starts_with(&format!("`{}`", d.project_file().display())));
}

#[test]
fn the_event_memory_budget_is_set_in_the_user_file_only() {
    let d = Dirs::new();
    assert_eq!(d.load().budgets.event_memory_mib, 512);
    d.write_user(r#"{"eventMemoryMiB": 256}"#);
    d.write_project(r#"{"eventMemoryMiB": 100000}"#);
    let c = d.load();
    assert_eq!(c.budgets.event_memory_mib, 256);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].contains("`eventMemoryMiB` is honoured only in the user file"));
    d.write_user(r#"{"eventMemoryMiB": 0}"#);
    let c = d.load();
    assert_eq!(c.budgets.event_memory_mib, 512);
    assert_line(&c.warnings, 0, "must be at least 1");
}

#[test]
fn project_root_prefers_the_variable_then_the_nearest_marker() {
    let d = Dirs::new();
    let root = d.project();
    let deep = root.join("a/b/c");
    fs::create_dir_all(&deep).unwrap();
    // No marker anywhere under the temp dir: the search walks up past it, so
    // only check it does not pick the project.
    assert_ne!(project_root_from(None, Some(&deep)).as_deref(), Some(root));
    fs::create_dir_all(root.join(".agents")).unwrap();
    assert_eq!(project_root_from(None, Some(&deep)).as_deref(), Some(root));
    // A nearer `.git` (a file in worktrees and submodules) wins.
    fs::write(root.join("a/.git"), "gitdir: elsewhere").unwrap();
    assert_eq!(project_root_from(None, Some(&deep)), Some(root.join("a")));
    // The directory itself counts.
    assert_eq!(
        project_root_from(None, Some(&root.join("a"))),
        Some(root.join("a"))
    );
    // `CLAUDE_PROJECT_DIR` wins, unless empty.
    assert_eq!(
        project_root_from(Some("/elsewhere".into()), Some(&deep)),
        Some(PathBuf::from("/elsewhere"))
    );
    assert_eq!(
        project_root_from(Some("".into()), Some(&deep)),
        Some(root.join("a"))
    );
    assert_eq!(project_root_from(None, None), None);
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

#[test]
fn regex_errors_are_one_line() {
    for bad in ["(", "[z-a]", "a{99999999}", "\\"] {
        let e = regex::Regex::new(bad).unwrap_err();
        let line = regex_error(&e);
        assert!(!line.is_empty() && !line.contains('\n'), "{bad}: {line}");
    }
}

#[test]
fn variable_expansion_is_textual_and_exact() {
    let root = Path::new("/r");
    let ex = |s: &str| expand_var(s, "CLAUDE_PROJECT_DIR", Some(root), true);
    assert_eq!(ex("$CLAUDE_PROJECT_DIR"), "/r");
    assert_eq!(ex("${CLAUDE_PROJECT_DIR}x"), "/rx");
    assert_eq!(ex("$CLAUDE_PROJECT_DIR_X"), "$CLAUDE_PROJECT_DIR_X");
    assert_eq!(ex("$$CLAUDE_PROJECT_DIR/"), "$/r/");
    assert_eq!(ex("${CLAUDE_PROJECT_DIR"), "${CLAUDE_PROJECT_DIR");
    assert_eq!(ex("ünï $CLAUDE_PROJECT_DIR"), "ünï /r");
    assert_eq!(
        expand_var("$CLAUDE_PROJECT_DIR", "CLAUDE_PROJECT_DIR", None, true),
        "$CLAUDE_PROJECT_DIR"
    );
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
        c.warnings,
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

#[test]
fn on_config_error_is_the_users_and_a_broken_file_is_typed() {
    let d = Dirs::new();
    d.write_user(r#"{"onConfigError": "deny"}"#);
    d.write_project(r#"{"onError": "deny", "hooks": {},}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(c.fails_closed());
    assert_eq!(c.broken.len(), 1);
    let broken = &c.broken[0];
    assert_eq!(
        (broken.file.clone(), broken.scope),
        (d.project_file(), Scope::Project)
    );
    assert!(broken.lost_deny);
    assert_eq!(c.errors, [broken.to_string()]);
    assert!(
        c.errors[0].ends_with("its `onError: deny` could not apply"),
        "{:?}",
        c.errors
    );

    // A project cannot set it.
    let d = Dirs::new();
    d.write_project(r#"{"onConfigError": "deny"}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Allow);
    assert_line(&c.warnings, 0, "honoured only in the user file");

    // A broken user file that spells it out is honoured.
    let d = Dirs::new();
    d.write_user(r#"{"onConfigError" : "deny", "hooks": {"Stop": []},}"#);
    let c = d.load();
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(!c.broken[0].lost_deny);
    assert_eq!(c.broken[0].file, d.user_file());
}

#[test]
fn unknown_names_get_a_suggestion() {
    let d = Dirs::new();
    d.write_user(
        r#"{"hooks": {"PreToolUs": [], "Stop": [{"hooks": [{"type": "wasm", "component": "g.wasm", "memoryMib": 1}]}]}}"#,
    );
    let c = d.load();
    let text = c.warnings.join("\n");
    assert!(
        text.contains(
            "unknown event `PreToolUs` in `hooks`; its hooks never run; did you mean `PreToolUse`?"
        ),
        "{text}"
    );
    assert!(
        text.contains("unknown key `memoryMib`; ignored; did you mean `memoryMiB`?"),
        "{text}"
    );
}

/// A managed file with `text`, beside the two scopes of `d`.
fn managed(d: &Dirs, text: &str) -> PathBuf {
    let file = d.home().join("etc-agenthooks/hooks.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, text).unwrap();
    file
}

#[test]
fn managed_hooks_come_first_and_are_trusted_by_scope() {
    let d = Dirs::new();
    let file = managed(
        &d,
        &one_handler(json!({"type": "command", "command": "managed"})),
    );
    d.write_user(&one_handler(json!({"type": "command", "command": "user"})));
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert!(c.errors.is_empty() && c.warnings.is_empty(), "{c:?}");
    assert_eq!(commands(&c), ["managed", "user", "project"]);
    assert_eq!(c.handlers[0].scope, Scope::Managed);
    assert_eq!(c.handlers[0].file, file);
    assert!(!Scope::Managed.needs_trust());
    assert_eq!(c.managed.as_ref().unwrap().file, file);
    // No managed file: no policy.
    assert_eq!(
        d.load_managed(Some(&d.home().join("none.json"))).managed,
        None
    );
}

#[test]
fn managed_only_keeps_user_and_project_files_out() {
    let d = Dirs::new();
    let mut text: serde_json::Value = serde_json::from_str(&one_handler(
        json!({"type": "command", "command": "managed"}),
    ))
    .unwrap();
    text["managedOnly"] = json!(true);
    let file = managed(&d, &text.to_string());
    d.write_user(&one_handler(json!({"type": "command", "command": "user"})));
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert_eq!(commands(&c), ["managed"]);
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert_line(&c.warnings, 0, "managedOnly");
    // A user file cannot set it for itself.
    d.write_user(r#"{"managedOnly": true}"#);
    let c = d.load();
    assert_line(&c.warnings, 0, "honoured only in the managed file");
}

#[test]
fn a_broken_managed_file_fails_closed_and_the_user_cannot_reopen_it() {
    let d = Dirs::new();
    let file = managed(&d, "{ \"hooks\": ");
    d.write_user(r#"{"onConfigError": "allow", "hooks": {}}"#);
    d.write_project(&one_handler(
        json!({"type": "command", "command": "project"}),
    ));
    let c = d.load_managed(Some(&file));
    assert_eq!(c.broken.len(), 1);
    assert_eq!(c.broken[0].scope, Scope::Managed);
    assert_eq!(c.on_config_error, OnError::Deny);
    assert!(c.fails_closed());
    // The other scopes still load.
    assert_eq!(commands(&c), ["project"]);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("set by the managed policy")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn managed_settings_win_over_the_user_file() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"onConfigError": "deny", "eventMemoryMiB": 128, "audit": {"path": "/var/log/a.jsonl", "includeInput": true}}"#,
    );
    d.write_user(
        r#"{"onConfigError": "allow", "eventMemoryMiB": 4096, "audit": {"path": "mine.jsonl"}}"#,
    );
    let c = d.load_managed(Some(&file));
    assert_eq!(c.on_config_error, OnError::Deny);
    assert_eq!(c.budgets.event_memory_mib, 128);
    let audit = c.audit.unwrap();
    assert_eq!(audit.path, PathBuf::from("/var/log/a.jsonl"));
    assert!(audit.include_input);
    assert_eq!(c.warnings.len(), 3, "{:?}", c.warnings);
}

#[test]
fn a_project_grant_the_managed_policy_forbids_is_withheld_with_a_note() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"projectGrants": {"read": ["$CLAUDE_PROJECT_DIR"], "env": ["LANG"]}}"#,
    );
    fs::create_dir_all(d.project().join("src")).unwrap();
    d.write_project(&one_handler(json!({"type": "wasm", "component": "g.wasm",
        "allow": {"read": ["src", "/etc"], "write": ["src"], "env": ["LANG", "AWS_SECRET_ACCESS_KEY"],
                  "net": ["example.com:443"]}})));
    let c = d.load_managed(Some(&file));
    let spec = wasm_of(&c.handlers[0]);
    assert_eq!(spec.allow.read, [d.project().join("src")]);
    assert!(spec.allow.write.is_empty());
    assert_eq!(spec.allow.env, ["LANG"]);
    assert!(spec.allow.net.is_empty());
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    let w = &c.warnings[0];
    for withheld in [
        "`allow.read` /etc",
        "`allow.write`",
        "AWS_SECRET_ACCESS_KEY",
        "example.com:443",
    ] {
        assert!(w.contains(withheld), "{withheld}: {w}");
    }
    assert!(w.contains("managed policy"), "{w}");
    // A user's own hook is the user's business: not narrowed.
    d.write_user(&one_handler(json!({"type": "wasm", "component": "u.wasm",
        "allow": {"net": ["example.com:443"]}})));
    let c = d.load_managed(Some(&file));
    assert_eq!(wasm_of(&c.handlers[0]).allow.net, ["example.com:443"]);
}

#[test]
fn components_from_sources_the_managed_policy_does_not_allow_are_skipped() {
    let d = Dirs::new();
    let file = managed(
        &d,
        r#"{"allowedComponents": ["$CLAUDE_PROJECT_DIR/.agents/vetted", "oci://registry.example/sec/"]}"#,
    );
    // One PreToolUse group of wasm hooks, one per component.
    let components = |list: &[&str]| {
        let hooks: Vec<_> = list
            .iter()
            .map(|c| json!({"type": "wasm", "component": c}))
            .collect();
        d.write_project(&json!({"hooks": {"PreToolUse": [{"hooks": hooks}]}}).to_string());
        d.load_managed(Some(&file))
    };
    let c = components(&[
        ".agents/vetted/ok.wasm",
        ".agents/vetted/../../evil.wasm",
        "other/x.wasm",
    ]);
    assert_eq!(c.handlers.len(), 1, "{:?}", c.warnings);
    assert!(wasm_of(&c.handlers[0])
        .component
        .ends_with(".agents/vetted/ok.wasm"));
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert_line(&c.warnings, 1, "`other/x.wasm` is not from a source");
    assert_eq!(c.refused_components.len(), 2);

    // Registries: the same registry and a repository at or below the prefix.
    let c = components(&[
        "oci://registry.example/sec/guard:v1",
        "oci://registry.example/security/guard:v1",
        "oci://elsewhere.example/sec/guard:v1",
        "oci://registry.example/sec/Guard:v1",
    ]);
    assert_eq!(c.handlers.len(), 1, "{:?}", c.warnings);
    let spec = wasm_of(&c.handlers[0]);
    let oci = spec.oci.as_ref().expect("an oci source");
    assert_eq!(
        oci.reference.to_string(),
        "oci://registry.example/sec/guard:v1"
    );
    // Not locked here: it fails when run, it is not skipped at load.
    assert!(matches!(
        oci.pin,
        Err(crate::oci::Unpinned::NotLocked { .. })
    ));
    assert_eq!(
        c.handlers[0].label,
        "wasm `oci://registry.example/sec/guard:v1`"
    );
    assert_eq!(
        c.refused_components,
        [
            "oci://registry.example/security/guard:v1",
            "oci://elsewhere.example/sec/guard:v1"
        ]
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("`oci://registry.example/sec/Guard:v1` is not an OCI reference")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn the_managed_path_override_applies_only_where_no_policy_is_installed() {
    let d = Dirs::new();
    let installed = managed(&d, "{}");
    let var = Some(std::ffi::OsString::from("/tmp/mine.json"));
    assert_eq!(managed_file_from(var.clone(), installed.clone()), installed);
    let absent = d.home().join("absent.json");
    assert_eq!(
        managed_file_from(var, absent.clone()),
        PathBuf::from("/tmp/mine.json")
    );
    assert_eq!(managed_file_from(Some("".into()), absent.clone()), absent);
}

/// Found by the `hooks_json` fuzz target: warnings and errors quoted the
/// file's keys and values whole, line breaks and all.
#[test]
fn warnings_and_errors_quoting_the_file_are_one_bounded_line() {
    let d = Dirs::new();
    let long = format!("a\nb\u{1b}[2J{}", "k".repeat(1 << 20));
    let group = json!([{"hooks": [{"type": "command", "command": "y", &long: 1}]}]);
    d.write_user(&json!({"hooks": {&long: [], "PreToolUse": group}, &long: 1}).to_string());
    // A value of the wrong kind: serde's message quotes it.
    d.write_project(&json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "z", "timeout": long}]}]}}).to_string());
    let c = d.load();
    assert!(
        c.warnings.len() >= 3 && c.errors.len() == 1,
        "{} {}",
        c.warnings.len(),
        c.errors.len()
    );
    for line in c.warnings.iter().chain(&c.errors) {
        let ctx = format!("{} chars: {:?}", line.len(), line.get(..200));
        assert!(!line.contains(['\n', '\r', '\u{1b}']), "{ctx}");
        assert!(
            line.chars().count() < 3 * crate::protocol::NOTE_MAX_CHARS,
            "{ctx}"
        );
    }
}

#[test]
fn the_plugin_root_is_written_into_commands_where_the_shell_would_not_read_it() {
    let d = Dirs::new();
    d.write_user(
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "Write-Output ${CLAUDE_PLUGIN_ROOT}/a", "shell": "powershell"},
            {"type": "command", "command": "$CLAUDE_PLUGIN_ROOT/b.sh $CLAUDE_PLUGIN_ROOTS"}
        ]}]}})
        .to_string(),
    );
    // Not in a plugin: the project root.
    let root = d.project().display().to_string();
    assert_eq!(
        commands(&d.load()),
        [
            format!("Write-Output {root}/a"),
            format!("{root}/b.sh $CLAUDE_PLUGIN_ROOTS")
        ]
    );
    // The user file's folder beside `.claude-plugin/plugin.json`: that plugin.
    std::fs::create_dir_all(d.home().join(".claude-plugin")).unwrap();
    std::fs::write(d.home().join(".claude-plugin/plugin.json"), "{}").unwrap();
    let plugin = d.home().display().to_string();
    assert_eq!(
        commands(&d.load())[1],
        format!("{plugin}/b.sh $CLAUDE_PLUGIN_ROOTS")
    );
}
