//! `agenthooks import` through the real binary: agents' own hooks files into
//! `.agents/hooks.json`, translated, each once; `--dry-run`; and the
//! never-twice check of `install`, `check` and `run`.

use serde_json::{json, Value};

use crate::install::snapshot;
use crate::util::TempProject;

fn hooks_json(p: &TempProject) -> Value {
    let text = std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

const GEMINI: &str = "{\n\t\"general\": {\n\t\t\"disableAutoUpdate\": true\n\t},\n\t\"hooks\": {\n\t\t\"BeforeTool\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"run_shell_command|write_file\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"name\": \"guard\",\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"$GEMINI_PROJECT_DIR/guard.sh\",\n\t\t\t\t\t\t\"timeout\": 5000\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t],\n\t\t\"AfterAgent\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"./done.sh\"\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}\n";

#[test]
fn gemini_hooks_come_over_translated_next_to_the_user_s_own() {
    let p = TempProject::new();
    p.write(".gemini/settings.json", GEMINI);
    let mine = "{\n  \"description\": \"team hooks\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./notify.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n";
    p.write(".agents/hooks.json", mine);
    let ran = p.output(p.cmd(["import", "gemini"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("gemini: .gemini/settings.json BeforeTool `$GEMINI_PROJECT_DIR/guard.sh`: imported as PreToolUse on `Bash|Write`"),
        "{out}"
    );
    assert!(
        out.contains("gemini: .gemini/settings.json BeforeTool `$GEMINI_PROJECT_DIR/guard.sh`: not carried: `name`: Gemini CLI only"),
        "{out}"
    );
    assert!(
        out.contains("AfterAgent `./done.sh`: imported as Stop\n"),
        "{out}"
    );
    assert!(out.contains("updated .agents/hooks.json"), "{out}");
    assert!(out.contains("`agenthooks trust`"), "{out}");
    assert_eq!(
        hooks_json(&p),
        json!({"description": "team hooks", "hooks": {
            "Stop": [{"hooks": [
                {"type": "command", "command": "./notify.sh"},
                {"type": "command", "command": "./done.sh"}
            ]}],
            "PreToolUse": [{"matcher": "Bash|Write", "hooks": [
                {"type": "command", "command": "$CLAUDE_PROJECT_DIR/guard.sh", "timeout": 5}
            ]}]
        }})
    );
    // The layout of the user's file is kept; Gemini's file is not touched.
    let text = std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap();
    assert!(
        text.starts_with("{\n  \"description\": \"team hooks\",\n  \"hooks\": {\n    \"Stop\""),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".gemini/settings.json")).unwrap(),
        GEMINI
    );
    // Again: every hook is there already, and nothing is written.
    let before = snapshot(&p.root);
    let again = p.output(p.cmd(["import", "gemini"]), "");
    assert!(
        again
            .stdout()
            .contains("already in .agents/hooks.json as PreToolUse"),
        "{}",
        again.stdout()
    );
    assert!(
        again.stdout().contains("unchanged .agents/hooks.json"),
        "{}",
        again.stdout()
    );
    assert_eq!(snapshot(&p.root), before);
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let p = TempProject::new();
    let empty = p.output(p.cmd(["import"]), "");
    assert_eq!(empty.code(), 0, "{}", empty.stderr());
    assert_eq!(
        empty.stdout(),
        "no hooks in this project's agent files (agenthooks' own entries aside): nothing to import\n"
    );
    p.write(".gemini/settings.json", GEMINI);
    let before = snapshot(&p.root);
    let ran = p.output(p.cmd(["import", "--dry-run"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert!(out.contains("would create .agents/hooks.json"), "{out}");
    assert!(
        out.contains("--- /dev/null\n+++ b/.agents/hooks.json"),
        "{out}"
    );
    assert!(
        out.contains("+            \"command\": \"$CLAUDE_PROJECT_DIR/guard.sh\","),
        "{out}"
    );
    assert!(out.contains("dry run: nothing was written"), "{out}");
    assert_eq!(snapshot(&p.root), before);
}

#[test]
fn agenthooks_own_entries_are_never_imported() {
    let p = TempProject::new();
    p.write(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"npx prettier --write .\",\n            \"timeout\": 30\n          }\n        ]\n      }\n    ]\n  }\n}\n",
    );
    let installed = p.output(p.cmd(["install", "claude", "copilot"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let ran = p.output(p.cmd(["import"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    // The file import created is marked as agenthooks' own (Antigravity
    // then leaves it alone), first.
    assert_eq!(
        hooks_json(&p),
        json!({"$schema": "agenthooks", "hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
            {"type": "command", "command": "npx prettier --write .", "timeout": 30}
        ]}]}})
    );
    let text = std::fs::read_to_string(p.path(".agents/hooks.json")).unwrap();
    assert!(
        text.starts_with("{\n  \"$schema\": \"agenthooks\",\n"),
        "{text}"
    );
    assert!(!ran.stdout().contains("agenthooks run"), "{}", ran.stdout());
}

#[test]
fn a_pasted_claude_hook_is_flagged_by_install_and_check_and_run_runs_it_once() {
    let p = TempProject::new();
    let log = p.path("log.txt");
    p.script("log.sh", &format!("echo pasted >> '{}'", log.display()));
    p.script("other.sh", &format!("echo other >> '{}'", log.display()));
    let pasted = json!({"type": "command", "command": "$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh"});
    p.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [pasted.clone()]}
        ]}}))
        .unwrap(),
    );
    p.project_hooks(&json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh   "},
            {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.agents/hooks/other.sh"}
        ]}
    ]}}));
    p.trust();
    let line = "`.claude/settings.json` and `.agents/hooks.json` both run `$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh` on PreToolUse: Claude Code runs it twice; `agenthooks import claude --move` keeps the one in .agents/hooks.json";
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    assert!(
        installed
            .stdout()
            .contains(&format!("claude: warning: {line}")),
        "{}",
        installed.stdout()
    );
    assert_eq!(installed.stdout().matches("both run").count(), 1);
    let checked = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(checked.code(), 1, "{}", checked.stdout());
    assert!(
        checked.stdout().contains(&format!("warning: {line}")),
        "{}",
        checked.stdout()
    );
    // Claude Code runs the pasted hook from its own file; agenthooks runs
    // only the other one, and says why.
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "other\n");
    ran.assert_stderr_contains("skipped: Claude Code runs the same command from `");
    // For a tool the native hook does not match, agenthooks runs both.
    std::fs::remove_file(&log).unwrap();
    let edit = p.payload(
        "PreToolUse",
        json!({"tool_name": "Edit", "tool_input": {"file_path": "a"}, "tool_use_id": "t"}),
    );
    p.project_hooks(&json!({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh"}]}
    ]}}));
    p.trust();
    let ran = p.run(&edit);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "pasted\n",
        "{}",
        ran.stderr()
    );
}

#[test]
fn every_agent_s_own_hooks_file_comes_over() {
    use agenthooks::agents::{Registration, AGENTS, USER_ONLY};
    let json_agents = AGENTS.iter().filter(|a| {
        matches!(a.install_spec().registration, Registration::Json(_))
            && a.install_spec().project != USER_ONLY
    });
    let mut seen = 0;
    for agent in json_agents {
        let id = agent.id();
        let p = TempProject::new();
        let (files, needle) = crate::install::existing(id);
        for (rel, text) in &files {
            p.write(rel, text);
        }
        let ran = p.output(p.cmd(["import", id]), "");
        assert_eq!(ran.code(), 0, "{id}: {}", ran.stderr());
        assert!(
            ran.stdout().contains(": imported as "),
            "{id}: {}",
            ran.stdout()
        );
        let imported = std::fs::read_to_string(p.path(".agents/hooks.json"))
            .unwrap_or_else(|e| panic!("{id}: {e}\n{}", ran.stdout()));
        assert!(imported.contains(needle), "{id}: {imported}");
        // Without `--move` the agent's own file keeps its bytes.
        for (rel, text) in &files {
            assert_eq!(&std::fs::read_to_string(p.path(rel)).unwrap(), text, "{id}");
        }
        seen += 1;
    }
    assert!(seen >= 12, "{seen}");
}

const GEMINI_JSONC: &str = "{\r\n  // team settings\r\n  \"general\": {\r\n    \"disableAutoUpdate\": true, // keep\r\n  },\r\n  \"hooksConfig\": {\"enabled\": true},\r\n  \"hooks\": {\r\n    \"BeforeTool\": [\r\n      {\r\n        \"matcher\": \"run_shell_command\",\r\n        \"hooks\": [\r\n          {\"name\": \"guard\", \"type\": \"command\", \"command\": \"$GEMINI_PROJECT_DIR/guard.sh\", \"timeout\": 5000}\r\n        ]\r\n      }\r\n    ],\r\n    \"BeforeModel\": [\r\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"./model.sh\"}]} // not movable\r\n    ]\r\n  }\r\n}\r\n";

const CLAUDE_LOCAL: &str = "{\n    \"permissions\": {\n        \"allow\": [\"Bash(make:*)\"]\n    },\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"./notify.sh\"\n                    }\n                ]\n            }\n        ]\n    }\n}\n";

#[test]
fn move_takes_the_hooks_out_and_wires_agenthooks_keeping_every_other_byte() {
    let p = TempProject::new();
    p.write(".gemini/settings.json", GEMINI_JSONC);
    p.write(".claude/settings.local.json", CLAUDE_LOCAL);
    let ran = p.output(p.cmd(["import", "gemini", "claude", "--move"]), "");
    assert_eq!(ran.code(), 0, "{}\n{}", ran.stdout(), ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("gemini: updated .gemini/settings.json"),
        "{out}"
    );
    assert!(
        out.contains("claude: updated .claude/settings.local.json"),
        "{out}"
    );
    assert!(
        out.contains("claude: created .claude/settings.json"),
        "{out}"
    );
    // What the agent still needs before it runs agenthooks' entry, as after `install`.
    assert!(
        out.contains("gemini: note: Gemini CLI runs these hooks only in a folder you trust"),
        "{out}"
    );
    assert!(out.contains("BeforeModel `./model.sh`: not imported: Gemini CLI event `BeforeModel` has no Claude Code equivalent"), "{out}");
    assert_eq!(
        hooks_json(&p),
        json!({"$schema": "agenthooks", "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "$CLAUDE_PROJECT_DIR/guard.sh", "timeout": 5}
            ]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]
        }})
    );
    // Gemini's file: everything before `hooks` byte for byte (comments,
    // trailing comma, CRLF), the hook that could not move still there, the
    // moved one gone, agenthooks' entry in.
    let gemini = std::fs::read_to_string(p.path(".gemini/settings.json")).unwrap();
    let head = &GEMINI_JSONC[..GEMINI_JSONC.find("  \"hooks\"").unwrap()];
    assert!(gemini.starts_with(head), "{gemini}");
    assert!(gemini.contains("{\"hooks\": [{\"type\": \"command\", \"command\": \"./model.sh\"}]} // not movable\r\n"), "{gemini}");
    assert!(!gemini.contains("guard.sh"), "{gemini}");
    assert!(
        gemini.contains(" run --agent gemini --event BeforeTool"),
        "{gemini}"
    );
    assert!(
        !gemini.replace("\r\n", "").contains('\n'),
        "CRLF kept: {gemini:?}"
    );
    // Claude's local file keeps its other keys, bytes and all; the hook is gone.
    let local = std::fs::read_to_string(p.path(".claude/settings.local.json")).unwrap();
    assert!(
        local
            .starts_with("{\n    \"permissions\": {\n        \"allow\": [\"Bash(make:*)\"]\n    }"),
        "{local}"
    );
    let local: Value = serde_json::from_str(&local).unwrap();
    assert_eq!(local, json!({"permissions": {"allow": ["Bash(make:*)"]}}));
    // Each hook now runs once: nothing is flagged, and a second move is a no-op.
    p.trust();
    let checked = p.output(p.cmd(["check"]), "");
    assert!(
        !checked.stdout().contains("both run"),
        "{}",
        checked.stdout()
    );
    let before = snapshot(&p.root);
    let again = p.output(p.cmd(["import", "gemini", "claude", "--move"]), "");
    assert_eq!(again.code(), 0, "{}", again.stderr());
    assert_eq!(snapshot(&p.root), before, "{}", again.stdout());
}

#[test]
fn move_on_a_dry_run_prints_each_file_s_diff_and_writes_nothing() {
    let p = TempProject::new();
    p.write(".gemini/settings.json", GEMINI_JSONC);
    let before = snapshot(&p.root);
    let ran = p.output(p.cmd(["import", "gemini", "--move", "--dry-run"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert!(out.contains("would create .agents/hooks.json"), "{out}");
    assert!(
        out.contains("gemini: would update .gemini/settings.json"),
        "{out}"
    );
    assert!(
        out.contains("--- a/.gemini/settings.json\n+++ b/.gemini/settings.json"),
        "{out}"
    );
    assert!(out.contains("-          {\"name\": \"guard\""), "{out}");
    assert_eq!(
        out.matches("dry run: nothing was written").count(),
        1,
        "{out}"
    );
    assert_eq!(snapshot(&p.root), before);
}

#[test]
fn user_hooks_go_to_the_user_s_hooks_file_and_broken_files_are_one_line() {
    let p = TempProject::new();
    let settings = p.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "~/bin/hello"}]}]}}"#,
    )
    .unwrap();
    p.write(".cursor/hooks.json", "{ oops");
    let ran = p.output(p.cmd(["import", "claude", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(ran.stdout().contains("claude: ~/.claude/settings.json SessionStart `~/bin/hello`: imported as SessionStart on `startup`"), "{}", ran.stdout());
    assert!(
        ran.stdout().contains("created ~/.agents/hooks.json"),
        "{}",
        ran.stdout()
    );
    // The user's own hooks need no trust.
    assert!(
        !ran.stdout().contains("agenthooks trust"),
        "{}",
        ran.stdout()
    );
    let user: Value =
        serde_json::from_str(&std::fs::read_to_string(p.home.join(".agents/hooks.json")).unwrap())
            .unwrap();
    assert_eq!(
        user,
        json!({"$schema": "agenthooks", "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "~/bin/hello"}]}]}})
    );
    assert!(!p.path(".agents/hooks.json").exists());
    // A file that is not JSON: one line naming it, exit 2, the others imported.
    p.write(".gemini/settings.json", GEMINI);
    let ran = p.output(p.cmd(["import", "cursor", "gemini"]), "");
    assert_eq!(ran.code(), 2, "{}", ran.stdout());
    let stderr = ran.stderr();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(".cursor/hooks.json") && stderr.contains("not valid JSON"),
        "{stderr}"
    );
    assert!(hooks_json(&p)["hooks"]["PreToolUse"].is_array());
}

/// Kimi Code's `[[hooks]]` tables, comments and all, as a user keeps them
/// in `~/.kimi-code/config.toml` beside agenthooks' own entry.
const KIMI_TOML: &str = "# my Kimi settings\ndefault_model = \"kimi-k2\"\n\n[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"~/bin/guard.sh\" # mine\ntimeout = 5\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"~/bin/notify.sh\"\n";

#[test]
fn kimi_s_toml_hooks_come_over_and_move_is_refused_in_one_line() {
    let p = TempProject::new();
    let config = p.home.join(".kimi-code/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, KIMI_TOML).unwrap();
    // agenthooks' own entry in the same file is never imported.
    let ran = p.output(p.cmd(["install", "kimi", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let installed = std::fs::read_to_string(&config).unwrap();

    let ran = p.output(p.cmd(["import", "kimi", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}{}", ran.stdout(), ran.stderr());
    let user: Value =
        serde_json::from_str(&std::fs::read_to_string(p.home.join(".agents/hooks.json")).unwrap())
            .unwrap();
    assert_eq!(
        user,
        json!({"$schema": "agenthooks", "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh", "timeout": 5}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "~/bin/notify.sh"}]}],
        }})
    );
    // Read, not edited.
    assert_eq!(std::fs::read_to_string(&config).unwrap(), installed);

    let ran = p.output(p.cmd(["import", "kimi", "--user", "--move"]), "");
    assert_ne!(ran.code(), 0, "{}", ran.stdout());
    let stderr = ran.stderr();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("takes hooks out of JSON files only"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&config).unwrap(), installed);
}

/// Claude Code's project settings as a team keeps them: other settings and
/// one hook of its own.
const CLAUDE_SETTINGS: &str = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(make:*)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"$CLAUDE_PROJECT_DIR/.claude/guard.sh\",\n            \"timeout\": 10\n          }\n        ]\n      }\n    ]\n  }\n}\n";

/// `git ARGS` in the project (its own home, no system config), which must succeed.
fn git(p: &TempProject, args: &[&str]) -> String {
    let out = p
        .isolated("git")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A real repository holding the agents' files `files`, committed.
fn repository(files: &[(&str, &str)]) -> TempProject {
    let p = TempProject::new();
    std::fs::remove_dir_all(p.path(".git")).unwrap();
    git(&p, &["init", "-q"]);
    for (rel, text) in files {
        p.write(rel, text);
    }
    git(&p, &["add", "-A"]);
    git(&p, &["commit", "-q", "-m", "the team's settings"]);
    p
}

/// `git status`, one file a line (untracked files listed one by one).
fn status(p: &TempProject) -> Vec<String> {
    let mut lines: Vec<String> = git(p, &["status", "--porcelain", "--untracked-files=all"])
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn move_install_and_uninstall_give_the_agents_files_back_and_git_sees_only_what_was_meant() {
    let p = repository(&[
        (".claude/settings.json", CLAUDE_SETTINGS),
        (".gemini/settings.json", GEMINI_JSONC),
    ]);
    let moved = p.output(p.cmd(["import", "claude", "gemini", "--move"]), "");
    assert_eq!(moved.code(), 0, "{}\n{}", moved.stdout(), moved.stderr());
    let changed = vec![
        " M .claude/settings.json".to_string(),
        " M .gemini/settings.json".to_string(),
        "?? .agents/hooks.json".to_string(),
    ];
    // No backup (nor lock, nor temporary file) in the work tree: they are
    // under the state directory.
    assert_eq!(status(&p), changed, "{}", moved.stdout());
    assert!(p.original_of(".claude/settings.json").is_some());
    let claude_moved = std::fs::read_to_string(p.path(".claude/settings.json")).unwrap();
    assert!(!claude_moved.contains("guard.sh"), "{claude_moved}");

    let installed = p.output(p.cmd(["install", "claude", "gemini"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    assert_eq!(status(&p), changed, "{}", installed.stdout());

    let ran = p.output(p.cmd(["uninstall", "claude", "gemini"]), "");
    assert_eq!(ran.code(), 0, "{}\n{}", ran.stdout(), ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("claude: put back the 1 hook `import --move` took out of .claude/settings.json, as it was"),
        "{out}"
    );
    assert!(
        out.contains("gemini: put back the 1 hook `import --move` took out of .gemini/settings.json, as it was"),
        "{out}"
    );
    assert!(
        out.contains("note: no agent runs the 2 hooks of .agents/hooks.json any more; `agenthooks install <agent>` wires them again"),
        "{out}"
    );
    // Byte for byte (CRLF, comments, trailing commas and all): git sees
    // only the hooks file import created, which keeps its copies.
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap(),
        CLAUDE_SETTINGS
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".gemini/settings.json")).unwrap(),
        GEMINI_JSONC
    );
    assert_eq!(status(&p), vec!["?? .agents/hooks.json".to_string()]);
    // Given back: nothing of those files is kept any more.
    assert_eq!(p.backup_of(&p.path(".claude/settings.json")), None);
    assert_eq!(p.backup_of(&p.path(".gemini/settings.json")), None);
    // And again: nothing to put back, nothing changes.
    let again = p.output(p.cmd(["uninstall", "claude", "gemini"]), "");
    assert_eq!(again.code(), 0, "{}", again.stderr());
    assert!(!again.stdout().contains("put back"), "{}", again.stdout());
    assert_eq!(status(&p), vec!["?? .agents/hooks.json".to_string()]);
}

#[test]
fn a_file_edited_since_the_move_gets_its_hooks_merged_back_and_says_so() {
    let p = repository(&[
        (".claude/settings.json", CLAUDE_SETTINGS),
        (".claude/settings.local.json", CLAUDE_LOCAL),
    ]);
    let moved = p.output(p.cmd(["import", "claude", "--move"]), "");
    assert_eq!(moved.code(), 0, "{}", moved.stderr());
    // The user adds a setting and a hook of their own after the move.
    let path = p.path(".claude/settings.json");
    let mut edited: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edited["model"] = json!("opus");
    edited["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "Edit", "hooks": [{"type": "command", "command": "./mine.sh"}]}));
    std::fs::write(&path, serde_json::to_string_pretty(&edited).unwrap()).unwrap();

    let ran = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}\n{}", ran.stdout(), ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("claude: merged back the 1 hook `import --move` took out of .claude/settings.json: the file changed since the move, so check it"),
        "{out}"
    );
    // The local file was not touched since: its bytes come back.
    assert!(
        out.contains("claude: put back the 1 hook `import --move` took out of .claude/settings.local.json, as it was"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.local.json")).unwrap(),
        CLAUDE_LOCAL
    );
    // Where to look if the merge is not what the user wanted.
    assert!(
        out.contains("claude: updated .claude/settings.json (backups: ~/.local/state/agenthooks/backups/settings.json-"),
        "{out}"
    );
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        back,
        json!({
            "permissions": {"allow": ["Bash(make:*)"]},
            "model": "opus",
            "hooks": {"PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/guard.sh", "timeout": 10}
                ]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "./mine.sh"}]}
            ]}
        })
    );
    let changed: Vec<String> = status(&p)
        .into_iter()
        .filter(|l| !l.ends_with(".agents/hooks.json"))
        .collect();
    assert_eq!(changed, vec![" M .claude/settings.json".to_string()]);
}

#[test]
fn keep_moved_leaves_the_hooks_in_the_hooks_file_and_says_no_agent_runs_them() {
    let p = repository(&[(".claude/settings.json", CLAUDE_SETTINGS)]);
    let moved = p.output(p.cmd(["import", "claude", "--move"]), "");
    assert_eq!(moved.code(), 0, "{}", moved.stderr());
    let ran = p.output(p.cmd(["uninstall", "claude", "--keep-moved"]), "");
    assert_eq!(ran.code(), 0, "{}\n{}", ran.stdout(), ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("claude: the 1 hook `import --move` took out of .claude/settings.json stays in .agents/hooks.json only; Claude Code no longer runs it"),
        "{out}"
    );
    assert!(
        out.contains("note: no agent runs the 1 hook of .agents/hooks.json any more; `agenthooks install <agent>` wires it again"),
        "{out}"
    );
    assert!(!out.contains("put back"), "{out}");
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(p.path(".claude/settings.json")).unwrap())
            .unwrap();
    assert_eq!(
        settings,
        json!({"permissions": {"allow": ["Bash(make:*)"]}})
    );
    assert!(
        hooks_json(&p)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("/.claude/guard.sh")
    );
    // The record is forgotten: a later uninstall puts nothing back.
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    let later = p.output(p.cmd(["uninstall", "claude"]), "");
    assert!(!later.stdout().contains("put back"), "{}", later.stdout());
    assert!(!std::fs::read_to_string(p.path(".claude/settings.json"))
        .unwrap()
        .contains("guard.sh"));
}

#[test]
fn move_without_a_terminal_trusts_nothing_and_says_how() {
    let p = TempProject::new();
    p.write(".claude/settings.json", CLAUDE_SETTINGS);
    let ran = p.output(p.cmd(["import", "claude", "--move"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("`agenthooks trust`"),
        "{}",
        ran.stdout()
    );
    assert!(!ran.stdout().contains("Trust "), "{}", ran.stdout());
    assert!(!p.trust_store().exists());
}
