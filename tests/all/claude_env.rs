//! Claude Code's hook variables in every agent: `CLAUDE_PLUGIN_ROOT` and
//! `CLAUDE_PLUGIN_DATA` derived from where the hooks file lies, and `check`
//! naming the variables only Claude Code can set.

use serde_json::json;

use crate::util::{command, hooks, TempProject};

/// A PreToolUse hook that writes its plugin variables to `out` (under the project).
#[cfg(unix)]
fn recorder(p: &TempProject, out: &str) -> serde_json::Value {
    let out = p.path(out);
    command(&format!(
        "printf '%s\\n%s\\n' \"$CLAUDE_PLUGIN_ROOT\" \"$CLAUDE_PLUGIN_DATA\" > '{}'",
        out.display()
    ))
}

#[cfg(unix)]
#[test]
fn a_hook_in_a_plugin_shaped_directory_gets_it_as_its_plugin_root_and_others_the_project() {
    let p = TempProject::new();
    // The home is laid out as a plugin: `.claude-plugin/plugin.json` beside
    // the user hooks file's folder.
    let home = p.tmp().join("home");
    std::fs::create_dir_all(home.join(".claude-plugin")).unwrap();
    std::fs::write(home.join(".claude-plugin/plugin.json"), "{\"name\":\"p\"}").unwrap();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([recorder(&p, "user.txt")]),
    ));
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([recorder(&p, "project.txt")]),
    ));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let user = std::fs::read_to_string(p.path("user.txt")).unwrap();
    let mut lines = user.lines();
    assert_eq!(lines.next(), Some(home.to_str().unwrap()));
    let data = lines.next().unwrap();
    let data_root = home.join(".local/share/agenthooks/plugin-data");
    assert!(
        std::path::Path::new(data).starts_with(&data_root),
        "{data} not under {}",
        data_root.display()
    );
    assert!(std::path::Path::new(data).is_dir(), "{data} was not made");
    // Not in a plugin: the project root, and (its command names the
    // variable) a data directory of its own.
    let project = std::fs::read_to_string(p.path("project.txt")).unwrap();
    let mut lines = project.lines();
    assert_eq!(
        lines.next(),
        Some(p.path("").to_str().unwrap().trim_end_matches('/'))
    );
    let project_data = lines.next().unwrap();
    assert!(std::path::Path::new(project_data).starts_with(&data_root));
    assert_ne!(project_data, data);
}

#[test]
fn check_names_a_variable_only_claude_sets_with_the_fix() {
    let p = TempProject::new();
    p.project_hooks(&hooks(
        "SessionStart",
        "",
        json!([
            command("echo 'export A=1' >> \"$CLAUDE_ENV_FILE\""),
            command("\"${CLAUDE_PLUGIN_ROOT}\"/x.sh")
        ]),
    ));
    p.trust();
    let ran = p.output(p.cmd(["check"]), "");
    let out = ran.stdout();
    let flagged: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("only Claude Code sets"))
        .collect();
    assert_eq!(flagged.len(), 1, "{out}");
    assert!(flagged[0].contains("`$CLAUDE_ENV_FILE`"), "{out}");
    assert!(flagged[0].contains("additionalContext"), "{out}");
    assert_ne!(ran.code(), 0, "{out}");
}
