//! Tests of reading and parsing one file: missing, empty, broken, hostile, unknown keys.

use std::fs;
use std::path::Path;

use serde_json::json;

use crate::config::load::testutil::*;
use crate::config::*;

#[test]
fn missing_files_are_no_hooks_and_no_errors() {
    let d = Dirs::new();
    let c = d.load();
    assert!(c.handlers.is_empty());
    assert!(c.error_lines().is_empty() && c.warning_lines().is_empty() && c.files.is_empty());
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
    assert!(c.handlers.is_empty() && c.error_lines().is_empty());
    assert_eq!(c.files, [d.project_file()]);
}

#[test]
fn syntax_error_names_file_line_column_and_other_scope_still_runs() {
    let d = Dirs::with_user(&one_handler(json!({"type": "command", "command": "u"})));
    d.write_project("{\n  \"hooks\": {\n    \"Stop\": []\n    \"PreToolUse\": []\n  }\n}\n");
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(
        c.error_lines(),
        [format!(
            "`{}`: line 4 column 5: expected `,` or `}}`; fix the file (other scopes still run)",
            d.project_file().display()
        )]
    );
}

#[test]
fn a_value_of_the_wrong_type_skips_its_part_and_the_rest_of_the_file_loads() {
    let d = Dirs::with_user(
        "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [\n\
         {\"type\": \"command\", \"command\": \"x\", \"timeout\": \"soon\"},\n\
         {\"type\": \"command\", \"command\": \"y\"}\n]}],\n\
         \"Stop\": [{\"matcher\": 3, \"hooks\": [{\"type\": \"command\", \"command\": \"z\"}]}],\n\
         \"PostToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"w\"}]}]}}",
    );
    d.write_project(&one_handler(json!({"type": "command", "command": "p"})));
    let c = d.load();
    assert_eq!(commands(&c), ["y", "w", "p"]);
    assert!(c.error_lines().is_empty(), "{:?}", c.error_lines());
    let user = d.user_file().display().to_string();
    assert_eq!(
        c.warning_lines(),
        [
            format!(
                "`{user}`: `hooks.PreToolUse[0].hooks[0].timeout`: invalid type: string \"soon\", \
                 expected a number; this handler is skipped"
            ),
            format!(
                "`{user}`: `hooks.Stop[0].matcher`: invalid type: integer `3`, expected a string; \
                 this group is skipped"
            ),
        ]
    );

    // A part that asks to fail closed is not skipped: the file is broken,
    // and says where.
    d.write_user("{\"hooks\": {\"Stop\": [{\"hooks\": [\n{\"type\": \"command\", \"command\": \"x\", \"timeout\": \"soon\", \"onError\": \"deny\"}\n]}]}}");
    let c = d.load();
    assert_eq!(commands(&c), ["p"]);
    assert_eq!(c.error_lines().len(), 1);
    assert_eq!(
        c.error_lines()[0],
        format!(
            "`{}`: line 2 column 53: `hooks.Stop[0].hooks[0].timeout`: invalid type: string \"soon\", expected a number; \
             fix the file (other scopes still run); its `onError: deny` could not apply",
            d.user_file().display()
        )
    );

    // A top level that is not an object.
    d.write_project("[1]");
    let c = d.load();
    assert_eq!(c.error_lines().len(), 2, "{:?}", c.error_lines());
    assert_line(&c.error_lines(), 1, "the top level is an array");
}

#[test]
fn a_top_level_that_is_not_an_object_is_one_error_naming_the_file() {
    let d = Dirs::with_user(&one_handler(json!({"type": "command", "command": "u"})));
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
            c.error_lines(),
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
    let d = Dirs::with_user(&one_handler(json!({"type": "command", "command": "u"})));
    fs::create_dir_all(d.project().join(".agents")).unwrap();
    fs::write(d.project_file(), b"{\"hooks\": \xff}").unwrap();
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(
        c.error_lines(),
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
    let d = Dirs::with_user(&one_handler(json!({"type": "command", "command": "u"})));
    fs::create_dir_all(d.project().join(".agents")).unwrap();
    make(&d.project_file());
    let c = d.load();
    assert_eq!(commands(&c), ["u"]);
    assert_eq!(c.error_lines().len(), 1, "{:?}", c.error_lines());
    let shown = format!("`{}`", d.project_file().display());
    assert!(
        c.error_lines()[0].starts_with(&shown),
        "{:?}",
        c.error_lines()
    );
    assert_line(&c.error_lines(), 0, says);
    assert!(
        c.error_lines()[0].ends_with("(other scopes still run)"),
        "{:?}",
        c.error_lines()
    );
    assert!(!c.error_lines()[0].contains('\n'));
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
    assert_eq!(c.error_lines().len(), 1, "{:?}", c.error_lines());
    assert!(c.error_lines()[0].contains(&d.user_file().display().to_string()));
}

#[test]
fn unreadable_file_is_an_error() {
    let d = Dirs::new();
    // A directory where the file should be cannot be read as text.
    fs::create_dir_all(d.project_file()).unwrap();
    let c = d.load();
    assert_eq!(
        c.error_lines(),
        [format!(
            "`{}` is a directory, not a regular file; replace it with a regular file \
             (other scopes still run)",
            d.project_file().display()
        )]
    );
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
    assert!(c.error_lines().is_empty(), "{:?}", c.error_lines());
    let f = d.project_file().display().to_string();
    assert_eq!(
        c.warning_lines(),
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
    // The same warnings as data: a consumer tells them apart by kind.
    let names: Vec<_> = c.warnings.iter().map(|w| w.kind.name()).collect();
    assert_eq!(
        names,
        [
            "unknown-key",
            "unknown-event",
            "unknown-key",
            "unknown-key",
            "unknown-handler-type",
            "unknown-key"
        ]
    );
    assert!(c.warnings.iter().all(|w| w.file == d.project_file()));
    assert_eq!(
        c.warnings[1].kind,
        WarningKind::Unknown(hooks_json::Unknown::Event {
            name: "PreToolUze".into(),
            suggestion: Some("PreToolUse")
        })
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
fn unknown_names_get_a_suggestion() {
    let d = Dirs::with_user(
        r#"{"hooks": {"PreToolUs": [], "Stop": [{"hooks": [{"type": "wasm", "component": "g.wasm", "memoryMib": 1}]}]}}"#,
    );
    let c = d.load();
    let text = c.warning_lines().join("\n");
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
