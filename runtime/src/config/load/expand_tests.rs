//! Tests of variable expansion and shell quoting.

use std::path::Path;

use serde_json::json;

use super::*;
use crate::config::load::testutil::*;
use crate::config::*;

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
fn the_plugin_root_is_written_into_commands_where_the_shell_would_not_read_it() {
    let d = Dirs::with_user(
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
