//! `agenthooks install` / `uninstall` / `check` through the real binary, on
//! realistic existing agent configs: merge, idempotence, backups, exact
//! restore, refusals, user scope, dry run, detection and lint findings.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};

/// Every file and directory under `dir` (relative path → bytes, `None` for a directory).
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            // agenthooks' own state (the backups of the files it changed)
            // is not the user's files: left out, with the folders to it.
            let rel_slash = rel.replace('\\', "/");
            if rel_slash.starts_with(".local/state/agenthooks")
                || rel_slash == ".local/state"
                || rel_slash == ".local"
            {
                if path.is_dir() {
                    stack.push(path);
                }
                continue;
            }
            if path.is_dir() {
                out.insert(rel, None);
                stack.push(path);
            } else {
                out.insert(rel, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

/// The native events install registers for an agent in a project with no
/// hooks: its session start alone (see `wiring.rs` for the events hooks use).
fn natives(agent: &str) -> Vec<&'static str> {
    let table = agenthooks::agents::find(agent)
        .unwrap_or_else(|| panic!("agent `{agent}` is registered"))
        .table();
    let none = agenthooks::install::Used::Events(Default::default());
    agenthooks::install::rows(table, &none)
        .iter()
        .map(|r| r.native)
        .collect()
}

/// User hooks on every event, so `install` registers every event of each
/// agent's table (it registers only the events hooks use).
fn every_event(p: &TempProject) {
    let all: serde_json::Map<String, Value> = agenthooks::protocol::EventName::ALL
        .iter()
        .map(|e| {
            (
                e.as_str().to_string(),
                json!([{"hooks": [command("true")]}]),
            )
        })
        .collect();
    p.user_hooks(&json!({ "hooks": all }));
}

/// All text under `dir`, concatenated (to look for our commands anywhere).
fn all_text(dir: &Path) -> String {
    snapshot(dir)
        .into_values()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A realistic existing setup per agent: files that hold the user's own hooks
/// and other settings, and one string of the user's that must survive.
pub(crate) fn existing(agent: &str) -> (Vec<(&'static str, String)>, &'static str) {
    match agent {
        "claude" => (
            vec![(
                ".claude/settings.json",
                "{\n  \"$schema\": \"https://json.schemastore.org/claude-code-settings.json\",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run test:*)\"\n    ]\n  },\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"npx prettier --write \\\"$CLAUDE_PROJECT_DIR\\\"\",\n            \"timeout\": 30\n          }\n        ]\n      }\n    ]\n  },\n  \"env\": {\n    \"DISABLE_TELEMETRY\": \"1\"\n  }\n}\n".to_string(),
            )],
            "npx prettier --write",
        ),
        "codex" => (
            vec![(
                ".codex/hooks.json",
                "{\n    \"description\": \"team hooks\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"python3 .codex/check.py\",\n                        \"timeout\": 10,\n                        \"statusMessage\": \"Checking\"\n                    }\n                ]\n            }\n        ]\n    }\n}".to_string(),
            )],
            "python3 .codex/check.py",
        ),
        "gemini" => (
            vec![(
                ".gemini/settings.json",
                "{\n\t\"general\": {\n\t\t\"disableAutoUpdate\": true\n\t},\n\t\"hooksConfig\": {\n\t\t\"enabled\": true\n\t},\n\t\"hooks\": {\n\t\t\"BeforeTool\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"write_file|replace\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"name\": \"lint\",\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"./lint.sh\",\n\t\t\t\t\t\t\"timeout\": 5000\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}\n".to_string(),
            )],
            "./lint.sh",
        ),
        "qwen" => (
            vec![(
                ".qwen/settings.json",
                "{\n  \"model\": {\n    \"name\": \"qwen3-coder-plus\"\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"run_shell_command\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./guard.sh\",\n            \"timeout\": 5000\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./guard.sh",
        ),
        "factory" => (
            vec![(
                ".factory/settings.json",
                "{\n  \"autoUpdateEnabled\": false,\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Execute\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"rtk hook droid\"\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "rtk hook droid",
        ),
        "copilot" => (
            vec![(
                ".github/hooks/security.json",
                "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\n        \"type\": \"command\",\n        \"bash\": \"./scripts/audit.sh\",\n        \"timeoutSec\": 15\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./scripts/audit.sh",
        ),
        "vscode" => (
            vec![(
                ".github/hooks/format.json",
                "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"type\": \"command\",\n        \"command\": \"npx prettier --write \\\"$TOOL_INPUT_FILE_PATH\\\"\",\n        \"timeout\": 30\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "npx prettier --write",
        ),
        "cursor" => (
            vec![(
                ".cursor/hooks.json",
                "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      {\n        \"command\": \"./hooks/format.sh\"\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./hooks/format.sh",
        ),
        "windsurf" => (
            vec![(
                ".windsurf/hooks.json",
                "{\n  \"hooks\": {\n    \"post_write_code\": [\n      {\n        \"command\": \"./fmt.sh\",\n        \"show_output\": true\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./fmt.sh",
        ),
        "kiro" => (
            vec![(
                ".kiro/agents/dev.json",
                "{\n  \"name\": \"dev\",\n  \"tools\": [\"*\"],\n  \"hooks\": {\n    \"postToolUse\": [\n      {\n        \"matcher\": \"fs_write\",\n        \"command\": \"cargo fmt\"\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "cargo fmt",
        ),
        "cline" => (
            vec![
                (".clinerules/hooks/README.md", "# our hooks\n".to_string()),
                (".clinerules/style.md", "Use tabs.\n".to_string()),
            ],
            "Use tabs.",
        ),
        "opencode" => (
            vec![
                (
                    ".opencode/plugins/notify.js",
                    "export const Notify = async () => ({})\n".to_string(),
                ),
                (
                    "opencode.json",
                    "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n".to_string(),
                ),
            ],
            "export const Notify",
        ),
        "kilo" => (
            vec![
                (
                    ".kilo/plugin/notify.js",
                    "export const Notify = async () => ({})\n".to_string(),
                ),
                ("kilo.json", "{\n  \"autoupdate\": false\n}\n".to_string()),
            ],
            "export const Notify",
        ),
        "pi" => (
            vec![(
                ".pi/extensions/notify.ts",
                "export default function (pi) {}\n".to_string(),
            )],
            "export default function (pi)",
        ),
        "amp" => (
            vec![(
                ".amp/plugins/notify.ts",
                "export default function (amp) {}\n".to_string(),
            )],
            "export default function (amp)",
        ),
        "goose" => (
            vec![(
                ".agents/plugins/agenthooks/hooks/hooks.json",
                "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"developer__text_editor\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"${PLUGIN_ROOT}/fmt.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "${PLUGIN_ROOT}/fmt.sh",
        ),
        "crush" => (
            vec![(
                "crush.json",
                "{\n  \"$schema\": \"https://charm.land/crush.json\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"^bash$\",\n        \"command\": \"dcg\",\n        \"timeout\": 10\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "\"dcg\"",
        ),
        "auggie" => (
            vec![(
                ".augment/settings.json",
                "{\n  \"toolPermissions\": [\n    {\n      \"toolName\": \"launch-process\",\n      \"permission\": {\"type\": \"allow\"}\n    }\n  ],\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./notify.sh\",\n            \"timeout\": 5000\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./notify.sh",
        ),
        "qoder" => (
            vec![(
                ".qoder/settings.json",
                "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"~/.qoder/hooks/block-rm.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "block-rm.sh",
        ),
        "devin" => (
            vec![(
                ".devin/config.json",
                "{\n  \"permissions\": {\n    \"allow\": [\"exec(git status)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"exec\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./scripts/check-command.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./scripts/check-command.sh",
        ),
        "semaclaw" => (
            vec![(
                ".semaclaw/hooks.json",
                "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"if\": \"git push\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"python3 ${SEMACLAW_ROOT}/hooks/block-protected-push.py\",\n            \"timeout\": 5,\n            \"blocking\": true\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "block-protected-push.py",
        ),
        "sema" => (
            vec![(
                ".sema/hooks/hooks.json",
                "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./fmt.sh\",\n            \"timeout\": 20,\n            \"failClosed\": false\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./fmt.sh",
        ),
        "letta" => (
            vec![(
                ".letta/settings.json",
                "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm run test)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./hooks/validate-bash.sh\",\n            \"timeout\": 5000\n          }\n        ]\n      }\n    ]\n  }\n}\n".to_string(),
            )],
            "./hooks/validate-bash.sh",
        ),
        other => panic!("no existing config for `{other}`"),
    }
}

/// Every registered agent with a project file (each must have an entry in
/// [`existing`]); the user-only ones are [`user_only`].
fn agents() -> Vec<&'static str> {
    agenthooks::agents::AGENTS
        .iter()
        .filter(|a| a.install_spec().project != agenthooks::agents::USER_ONLY)
        .map(|a| a.id())
        .collect()
}

/// The agents that read agenthooks' entry only from a user-level file.
fn user_only() -> Vec<&'static str> {
    agenthooks::agents::AGENTS
        .iter()
        .filter(|a| a.install_spec().project == agenthooks::agents::USER_ONLY)
        .map(|a| a.id())
        .collect()
}

/// Each installed event shows up in the agent's files as the argv of `run`.
fn assert_registered(p: &TempProject, agent: &str) {
    let text = all_text(&p.root);
    for native in natives(agent) {
        let plugin = agenthooks::agents::find(agent).is_some_and(|a| {
            matches!(
                a.install_spec().registration,
                agenthooks::agents::Registration::Plugin(_)
            )
        });
        let needle = if plugin {
            format!("{native:?}")
        } else {
            format!(" run --agent {agent} --event {native}")
        };
        assert!(
            text.contains(&needle),
            "{agent}: `{needle}` is not registered:\n{text}"
        );
    }
}

#[test]
fn install_merges_is_idempotent_and_uninstall_restores_the_bytes_for_every_agent() {
    for agent in agents() {
        let p = TempProject::new();
        let (files, mine) = existing(agent);
        for (rel, text) in &files {
            p.write(rel, text);
        }
        let before = snapshot(&p.root);

        let ran = p.output(p.cmd(["install", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}{}", ran.stdout(), ran.stderr());
        assert_registered(&p, agent);
        let installed = snapshot(&p.root);
        assert_ne!(installed, before, "{agent}: nothing changed");
        assert!(
            all_text(&p.root).contains(mine),
            "{agent}: the user's own entry is gone"
        );
        // The file we merged into was backed up, byte for byte, under the
        // state directory: nothing new in the project but what install wrote.
        for (rel, text) in &files {
            assert!(
                !p.path(&format!("{rel}.agenthooks.bak")).exists(),
                "{agent}"
            );
            if let Some(bak) = p.original_of(rel) {
                assert_eq!(
                    std::fs::read_to_string(&bak).unwrap(),
                    *text,
                    "{agent}: backup of {rel}"
                );
                assert!(ran.stdout().contains("backup"), "{agent}: {}", ran.stdout());
            }
        }
        // Everything else the user had is untouched.
        for (rel, bytes) in &before {
            let merged_into = p.original_of(rel).is_some();
            if !merged_into {
                assert_eq!(installed.get(rel), Some(bytes), "{agent}: {rel} changed");
            }
        }

        let again = p.output(p.cmd(["install", agent]), "");
        assert_eq!(again.code(), 0, "{agent}: {}", again.stderr());
        assert_eq!(
            snapshot(&p.root),
            installed,
            "{agent}: second install changed something"
        );
        let note = format!("{agent}: note: ");
        assert!(
            again
                .stdout()
                .lines()
                .filter(|l| !l.starts_with(&note))
                .all(|l| l.contains(" unchanged ")),
            "{agent}: {}",
            again.stdout()
        );

        let ran = p.output(p.cmd(["uninstall", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert_eq!(
            snapshot(&p.root),
            before,
            "{agent}: uninstall did not restore the tree"
        );
        // The originals were given back: their backups are gone too.
        for (rel, _) in &files {
            assert_eq!(p.backup_of(&p.path(rel)), None, "{agent}: {rel}");
        }
    }
}

#[test]
fn install_into_a_fresh_project_and_uninstall_leave_no_trace() {
    for agent in agents() {
        let p = TempProject::new();
        let before = snapshot(&p.root);
        let ran = p.output(p.cmd(["install", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert!(
            ran.stdout().contains(" created "),
            "{agent}: {}",
            ran.stdout()
        );
        assert_registered(&p, agent);
        let ran = p.output(p.cmd(["uninstall", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert!(
            ran.stdout().contains(" removed "),
            "{agent}: {}",
            ran.stdout()
        );
        assert_eq!(snapshot(&p.root), before, "{agent}: left something behind");
    }
}

/// The command an entry of `agent` for `event` runs, calling `program`.
fn launcher(program: &str, agent: &str, event: &str) -> String {
    agenthooks::install::command_line(
        Path::new(program),
        agenthooks::agents::find(agent).unwrap(),
        event,
    )
}

#[test]
fn project_entries_call_agenthooks_by_name_with_the_agents_own_deadline_as_timeout() {
    let p = TempProject::new();
    every_event(&p);
    let mut cmd = p.cmd(["install", "claude", "gemini", "codex"]);
    cmd.env("PATH", "/usr/bin:/bin");
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    // Not on this PATH: said once, on stderr.
    assert_eq!(
        ran.stderr()
            .matches("`agenthooks` is not on PATH here")
            .count(),
        1,
        "{}",
        ran.stderr()
    );
    let bin = Path::new(crate::util::bin()).canonicalize().unwrap();
    let claude = read_json(&p, ".claude/settings.json");
    let handler = &claude["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(
        handler["command"],
        launcher("agenthooks", "claude", "PreToolUse")
    );
    assert!(
        !all_text(&p.root).contains(&bin.display().to_string()),
        "this machine's path is in the project's files"
    );
    assert_eq!(handler["timeout"], 600);
    let timeout = |event: &str| claude["hooks"][event][0]["hooks"][0]["timeout"].clone();
    assert_eq!(timeout("UserPromptSubmit"), 30, "Claude waits 30 s");
    assert_eq!(timeout("MessageDisplay"), 10, "Claude waits 10 s");
    // Claude waits 1.5 s on SessionEnd and accepts at most 60.
    assert_eq!(timeout("SessionEnd"), 2);
    let gemini = read_json(&p, ".gemini/settings.json");
    assert_eq!(
        gemini["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 60_000,
        "milliseconds"
    );
    // Codex caps SessionEnd at 3 s and warns about more; it waits 1 s by default.
    let codex = read_json(&p, ".codex/hooks.json");
    assert_eq!(codex["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 1);
    assert_eq!(codex["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 600);
}

#[test]
fn absolute_paths_go_only_into_user_files_or_on_request_with_a_warning_for_build_outputs() {
    let p = TempProject::new();
    every_event(&p);
    let bin = Path::new(crate::util::bin()).canonicalize().unwrap();
    let bin = bin.to_str().unwrap();
    // The test binary lives under cargo's target/: install says so.
    let warning = "a cargo build output (under `target/`)";
    let ran = p.output(p.cmd(["install", "--absolute", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(ran.stderr().matches(warning).count(), 1, "{}", ran.stderr());
    let claude = read_json(&p, ".claude/settings.json");
    assert_eq!(
        claude["hooks"]["Stop"][0]["hooks"][0]["command"],
        launcher(bin, "claude", "Stop")
    );
    // Back to the portable form: the same entries, updated in place.
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert!(ran.stdout().contains("claude: updated"), "{}", ran.stdout());
    assert!(!ran.stderr().contains(warning), "{}", ran.stderr());
    let claude = read_json(&p, ".claude/settings.json");
    assert_eq!(
        claude["hooks"]["Stop"][0]["hooks"][0]["command"],
        launcher("agenthooks", "claude", "Stop")
    );
    assert_eq!(claude["hooks"]["Stop"].as_array().unwrap().len(), 1);

    let ran = p.output(p.cmd(["install", "--user", "codex"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(ran.stderr().contains(warning), "{}", ran.stderr());
    let text = std::fs::read_to_string(p.home.join(".codex/hooks.json")).unwrap();
    let user: Value = serde_json::from_str(&text).unwrap();
    // A user file's entries say so (`--user`): a project's entry steps
    // aside for one that covers the same tool.
    assert_eq!(
        user["hooks"]["Stop"][0]["hooks"][0]["command"],
        launcher(bin, "codex", "Stop").replace(" --event Stop", " --event Stop --user")
    );
}

#[test]
fn uninstall_removes_entries_of_the_older_absolute_path_form() {
    let p = TempProject::new();
    every_event(&p);
    let (files, _) = existing("claude");
    let (rel, text) = &files[0];
    p.write(rel, text);
    let mut v: Value = serde_json::from_str(text).unwrap();
    // What install wrote before entries became launchers: a bare path.
    for event in ["PreToolUse", "Stop"] {
        let entry = json!({"matcher": "*", "hooks": [{"type": "command", "command": format!("/home/me/.cargo/bin/agenthooks run --agent claude --event {event}"), "timeout": 600}]});
        v["hooks"][event] = json!([entry]);
    }
    let old = serde_json::to_string_pretty(&v).unwrap() + "\n";
    p.write(rel, &old);
    let ran = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let now = all_text(&p.root);
    assert!(!now.contains("agenthooks run"), "{now}");
    assert!(now.contains("npx prettier --write"), "{now}");
    // And install upgrades them in place instead of adding a second entry.
    p.write(rel, &old);
    assert_eq!(p.output(p.cmd(["install", "claude"]), "").code(), 0);
    let v = read_json(&p, rel);
    assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["hooks"]["Stop"][0]["hooks"][0]["command"],
        launcher("agenthooks", "claude", "Stop")
    );
}

/// What an older `agenthooks install` wrote: the same entries, each with a
/// native timeout of 600 s.
fn with_old_timeouts(v: &mut Value) {
    for groups in v["hooks"].as_object_mut().unwrap().values_mut() {
        for group in groups.as_array_mut().unwrap() {
            for handler in group["hooks"].as_array_mut().unwrap() {
                handler["timeout"] = json!(600);
            }
        }
    }
}

#[test]
fn an_entry_of_ours_with_an_old_timeout_is_updated_in_place() {
    let p = TempProject::new();
    every_event(&p);
    assert_eq!(p.output(p.cmd(["install", "codex"]), "").code(), 0);
    let current = read_json(&p, ".codex/hooks.json");
    let mut old = current.clone();
    with_old_timeouts(&mut old);
    // The user added a hook of their own after ours.
    let mine = json!({"hooks": [{"type": "command", "command": "./bye.sh", "timeout": 2}]});
    old["hooks"]["SessionEnd"]
        .as_array_mut()
        .unwrap()
        .push(mine.clone());
    p.write(
        ".codex/hooks.json",
        serde_json::to_string_pretty(&old).unwrap() + "\n",
    );

    let ran = p.output(p.cmd(["install", "codex"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("codex: updated .codex/hooks.json"),
        "{}",
        ran.stdout()
    );
    let now = read_json(&p, ".codex/hooks.json");
    let session_end = now["hooks"]["SessionEnd"].as_array().unwrap();
    assert_eq!(
        session_end[0], current["hooks"]["SessionEnd"][0],
        "in place"
    );
    assert_eq!(session_end[0]["hooks"][0]["timeout"], 1);
    assert_eq!(
        session_end[1], mine,
        "the user's hook keeps its own timeout"
    );
    let mut expected = current.clone();
    expected["hooks"]["SessionEnd"]
        .as_array_mut()
        .unwrap()
        .push(mine);
    assert_eq!(now, expected);

    let again = p.output(p.cmd(["install", "codex"]), "");
    assert!(
        again
            .stdout()
            .contains("codex: unchanged .codex/hooks.json"),
        "{}",
        again.stdout()
    );
}

#[test]
fn a_stale_entry_is_replaced_in_place_and_the_users_hooks_stay_in_order() {
    let p = TempProject::new();
    every_event(&p);
    let stale = "/old/place/agenthooks run --agent claude --event PreToolUse";
    p.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&json!({"hooks": {"PreToolUse": [
            {"matcher": "*", "hooks": [{"type": "command", "command": stale, "timeout": 600}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}
        ]}}))
        .unwrap(),
    );
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let v: Value =
        serde_json::from_slice(&std::fs::read(p.path(".claude/settings.json")).unwrap()).unwrap();
    let groups = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let cmd = groups[0]["hooks"][0]["command"].as_str().unwrap();
    assert!(!cmd.contains("/old/") && cmd.contains(" run --agent claude --event PreToolUse "));
    assert_eq!(groups[1]["hooks"][0]["command"], "./mine.sh");
}

#[test]
fn install_says_what_the_agent_itself_still_needs_before_it_runs_the_hooks() {
    let p = TempProject::new();
    let hint = "Codex runs these hooks only after you review and trust them in its /hooks screen";
    let ran = p.output(p.cmd(["install", "claude", "codex"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert_eq!(
        out.matches(&format!("codex: note: {hint}")).count(),
        1,
        "{out}"
    );
    assert!(out.contains("--dangerously-bypass-hook-trust"), "{out}");
    assert!(!out.contains("claude: note"), "{out}");
    // After the agent's own lines, before the next agent's.
    let codex_line = out.find("codex: created").unwrap();
    assert!(out.find("codex: note").unwrap() > codex_line, "{out}");

    // A dry run says it too, marked as what applies once installed.
    let dry = p.output(p.cmd(["install", "gemini", "--dry-run"]), "");
    assert!(
        dry.stdout().contains(
            "gemini: note (once installed): Gemini CLI runs these hooks only in a folder you trust"
        ),
        "{}",
        dry.stdout()
    );

    // Not after an uninstall, nor after a refused install.
    let ran = p.output(p.cmd(["uninstall", "codex"]), "");
    assert!(!ran.stdout().contains("note"), "{}", ran.stdout());
    p.write(".kiro/agents/agenthooks.json", "{ broken");
    let ran = p.output(p.cmd(["install", "kiro"]), "");
    assert_eq!(ran.code(), 2);
    assert!(!ran.stdout().contains("kiro: note"), "{}", ran.stdout());
}

#[test]
fn a_broken_native_file_is_reported_and_left_alone() {
    let p = TempProject::new();
    let broken = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n  }\n}\n";
    p.write(".claude/settings.json", broken);
    let ran = p.output(p.cmd(["install", "claude", "codex"]), "");
    assert_eq!(ran.code(), 2, "{}", ran.stdout());
    let err = ran.stderr();
    assert!(
        err.contains(".claude/settings.json`:4:3: not valid JSON"),
        "{err}"
    );
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap(),
        broken
    );
    assert_eq!(p.backup_of(&p.path(".claude/settings.json")), None);
    // The other agent was still installed.
    assert!(p.path(".codex/hooks.json").exists());
    // Uninstall refuses the same way.
    let ran = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(ran.code(), 2);
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap(),
        broken
    );
}

/// A Gemini `settings.json` as a user keeps it: comments, a trailing comma,
/// CRLF line ends (it used to be refused: "key must be a string").
const COMMENTED: &str = "{\r\n  // the team's model\r\n  \"model\": {\"name\": \"gemini-2.5-pro\"}, /* pinned */\r\n  \"hooks\": {\r\n    \"BeforeTool\": [\r\n      {\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}, // ours\r\n    ],\r\n  },\r\n}\r\n";

#[test]
fn a_commented_settings_file_is_installed_into_and_given_back_byte_for_byte() {
    // Every agent that accepts comments in its file (Gemini, Qwen, Crush).
    let commented: Vec<_> = agents()
        .into_iter()
        .filter(|a| {
            matches!(
                &agenthooks::agents::find(a).unwrap().install_spec().registration,
                agenthooks::agents::Registration::Json(j) if j.jsonc
            )
        })
        .collect();
    assert!(commented.contains(&"gemini"), "{commented:?}");
    for agent in commented {
        let rel = json_file(agent).unwrap();
        let p = TempProject::new();
        p.write(rel, COMMENTED);
        let ran = p.output(p.cmd(["install", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        let installed = std::fs::read_to_string(p.path(rel)).unwrap();
        assert!(
            installed.starts_with("{\r\n  // the team's model\r\n  \"model\": {\"name\": \"gemini-2.5-pro\"}, /* pinned */\r\n"),
            "{agent}: {installed}"
        );
        assert!(
            installed.contains("\"./lint.sh\"}]}, // ours\r\n"),
            "{agent}: {installed}"
        );
        assert!(
            !installed.replace("\r\n", "").contains('\n'),
            "{agent}: {installed:?}"
        );
        assert!(
            installed.contains(&format!(" run --agent {agent} --event ")),
            "{agent}: {installed}"
        );
        let again = p.output(p.cmd(["install", agent]), "");
        assert_eq!(again.code(), 0, "{agent}: {}", again.stderr());
        assert_eq!(
            std::fs::read_to_string(p.path(rel)).unwrap(),
            installed,
            "{agent}: idempotent"
        );
        let ran = p.output(p.cmd(["uninstall", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert_eq!(
            std::fs::read_to_string(p.path(rel)).unwrap(),
            COMMENTED,
            "{agent}"
        );
        assert_eq!(p.backup_of(&p.path(rel)), None, "{agent}");

        // A comment the user wrote after install survives uninstall, and
        // only our entries go.
        let p = TempProject::new();
        p.write(rel, COMMENTED);
        assert_eq!(p.output(p.cmd(["install", agent]), "").code(), 0);
        let with_note = std::fs::read_to_string(p.path(rel)).unwrap().replacen(
            "{\r\n",
            "{\r\n  // added later\r\n",
            1,
        );
        p.write(rel, &with_note);
        let ran = p.output(p.cmd(["uninstall", agent]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert_eq!(
            std::fs::read_to_string(p.path(rel)).unwrap(),
            COMMENTED.replacen("{\r\n", "{\r\n  // added later\r\n", 1),
            "{agent}"
        );
    }
}

#[test]
fn comments_where_the_agent_reads_strict_json_are_refused_not_corrupted() {
    let p = TempProject::new();
    let text = "{\n  // the team's model\n  \"model\": \"opus\"\n}\n";
    p.write(".claude/settings.json", text);
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 2);
    assert!(
        ran.stderr()
            .contains(".claude/settings.json`:2:3: comments are not valid JSON"),
        "{}",
        ran.stderr()
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap(),
        text
    );
}

#[test]
fn user_scope_writes_under_home_and_honours_codex_home() {
    let p = TempProject::new();
    let codex_home = p.tmp().join("codex-home");
    let project_before = snapshot(&p.root);
    let mut cmd = p.cmd(["install", "--user", "claude", "codex"]);
    cmd.env("CODEX_HOME", &codex_home);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout()
            .contains("claude: created ~/.claude/settings.json"),
        "{}",
        ran.stdout()
    );
    assert!(p.home.join(".claude/settings.json").exists());
    assert!(codex_home.join("hooks.json").exists());
    assert_eq!(snapshot(&p.root), project_before, "the project was touched");

    let mut cmd = p.cmd(["uninstall", "--user", "claude", "codex"]);
    cmd.env("CODEX_HOME", &codex_home);
    assert_eq!(p.output(cmd, "").code(), 0);
    assert!(!p.home.join(".claude").exists());
    assert!(!codex_home.join("hooks.json").exists());
}

#[test]
fn dry_run_prints_a_unified_diff_and_writes_nothing() {
    let p = TempProject::new();
    every_event(&p);
    let (files, _) = existing("claude");
    for (rel, text) in &files {
        p.write(rel, text);
    }
    let before = snapshot(&p.root);
    let ran = p.output(p.cmd(["install", "claude", "codex", "--dry-run"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let out = ran.stdout();
    assert!(
        out.contains("--- a/.claude/settings.json\n+++ b/.claude/settings.json\n"),
        "{out}"
    );
    assert!(
        out.contains("--- /dev/null\n+++ b/.codex/hooks.json\n"),
        "{out}"
    );
    assert!(out.contains("+            \"command\": \""), "{out}");
    assert!(
        out.contains(" run --agent claude --event PreToolUse"),
        "{out}"
    );
    assert!(out.contains("dry run: nothing was written"), "{out}");
    // It says what it would do, never that it did it.
    assert!(
        out.contains("claude: would update .claude/settings.json")
            && out.contains("codex: would create .codex/hooks.json"),
        "{out}"
    );
    assert!(
        !out.contains(": created ") && !out.contains(": updated "),
        "{out}"
    );
    assert_eq!(snapshot(&p.root), before);
}

#[test]
fn all_detected_installs_the_agents_whose_folders_exist() {
    let p = TempProject::new();
    p.write(".codex/config.toml", "model = \"gpt-5\"\n");
    p.write(".gemini/GEMINI.md", "be brief\n");
    let ran = p.output(p.cmd(["install", "--all-detected"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(p.path(".codex/hooks.json").exists());
    assert!(p.path(".gemini/settings.json").exists());
    assert!(!p.path(".claude").exists());

    let ran = p.output(p.cmd(["uninstall", "--all-installed"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(!p.path(".codex/hooks.json").exists());
    assert!(p.path(".codex/config.toml").exists());
    assert!(!p.path(".gemini/settings.json").exists());
}

#[test]
fn an_unknown_agent_is_bad_usage() {
    let p = TempProject::new();
    let ran = p.output(p.cmd(["install", "vim"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("no agent named `vim`");
}

#[test]
fn check_is_clean_for_a_good_config() {
    let p = TempProject::new();
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(ran.stdout().contains("no problems found"));
}

#[test]
fn check_reports_config_errors_and_what_installed_agents_cannot_do() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh", "comand": "typo"}]},
            {"matcher": "NotebookEdit", "hooks": [{"type": "command", "command": "./nb.sh"}]},
            {"matcher": "([", "hooks": [{"type": "command", "command": "./bad.sh"}]},
            {"matcher": "mcp__github__.*", "hooks": [{"type": "command", "command": "./mcp.sh"}]}
        ],
        "PermissionRequest": [{"hooks": [{"type": "command", "command": "./perm.sh"}]}],
        "Stop": [{"hooks": [
            {"type": "wasm", "component": "missing.wasm"},
            {"type": "mcp_tool", "server": "s", "tool": "t"}
        ]}]
    }}));
    // Gemini is installed: its matcher and event gaps are warnings.
    assert_eq!(p.output(p.cmd(["install", "gemini"]), "").code(), 0);
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let out = ran.stdout();
    let has = |needle: &str| assert!(out.contains(needle), "missing `{needle}` in:\n{out}");
    has("unknown key `comand`");
    has("([");
    has("missing.wasm` does not exist");
    has("note: user scope `");
    has("MCP server `s` is not defined in");
    has("PermissionRequest command `./perm.sh`: never runs in Gemini CLI");
    has("matcher `NotebookEdit` matches no tool Gemini CLI has");
    assert!(!out.contains("matcher `Bash`"), "{out}");
    assert!(!out.contains("mcp__github"), "{out}");
}

#[test]
fn check_notes_untrusted_project_command_hooks() {
    let p = TempProject::new();
    p.project_hooks(&hooks("Stop", "", json!([command("true")])));
    // Trust is this machine's: a note in `check`, which CI can gate on.
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(ran.stdout().contains("note: "), "{}", ran.stdout());
    assert!(ran.stdout().contains("not trusted"), "{}", ran.stdout());
    p.trust();
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(!ran.stdout().contains("not trusted"), "{}", ran.stdout());
}
#[test]
fn cline_will_not_replace_a_users_own_event_script() {
    let p = TempProject::new();
    every_event(&p);
    let mine = "#!/bin/sh\necho '{}'\n";
    p.write(".clinerules/hooks/PreToolUse", mine);
    let before = snapshot(&p.root);
    let ran = p.output(p.cmd(["install", "cline"]), "");
    assert_eq!(ran.code(), 2);
    assert!(
        ran.stderr()
            .contains("PreToolUse`: Cline runs one script per event"),
        "{}",
        ran.stderr()
    );
    assert_eq!(snapshot(&p.root), before);
}

fn read_json(p: &TempProject, rel: &str) -> Value {
    serde_json::from_slice(&std::fs::read(p.path(rel)).unwrap()).unwrap()
}

#[test]
fn flat_formats_carry_their_own_keys_and_only_installed_events() {
    let p = TempProject::new();
    every_event(&p);
    let ran = p.output(
        p.cmd(["install", "copilot", "cursor", "windsurf", "kiro", "cline"]),
        "",
    );
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    // Copilot: native camelCase keys (its native payloads), `bash` + `timeoutSec`.
    let copilot = read_json(&p, ".github/hooks/agenthooks.json");
    assert_eq!(copilot["version"], 1);
    let pre = &copilot["hooks"]["preToolUse"][0];
    assert_eq!(pre["bash"], launcher("agenthooks", "copilot", "preToolUse"));
    assert_eq!(pre["timeoutSec"], 30, "Copilot waits 30 s");
    assert!(copilot["hooks"].get("PreToolUse").is_none());

    // Cursor: the generic preToolUse only, not also beforeShellExecution.
    let cursor = read_json(&p, ".cursor/hooks.json");
    assert_eq!(cursor["version"], 1);
    assert_eq!(cursor["hooks"]["preToolUse"][0]["timeout"], 30);
    assert!(cursor["hooks"].get("beforeShellExecution").is_none());

    // Windsurf: one key per kind of action.
    let windsurf = read_json(&p, ".windsurf/hooks.json");
    for key in [
        "pre_run_command",
        "pre_write_code",
        "pre_read_code",
        "pre_mcp_tool_use",
    ] {
        assert_eq!(
            windsurf["hooks"][key][0]["command"],
            launcher("agenthooks", "windsurf", key)
        );
    }

    // Kiro: an agent config of our own, timeouts in ms.
    let kiro = read_json(&p, ".kiro/agents/agenthooks.json");
    assert_eq!(kiro["name"], "agenthooks");
    assert_eq!(kiro["hooks"]["preToolUse"][0]["timeout_ms"], 30_000);

    // Cline: one executable script per event.
    let script = p.path(".clinerules/hooks/PreToolUse");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.starts_with("#!/bin/sh\n"), "{text}");
    assert!(
        text.contains(&format!(
            "\n{}\n",
            launcher("agenthooks", "cline", "PreToolUse")
        )),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&script).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111);
    }
}

#[test]
fn install_adds_the_version_key_to_a_cursor_file_without_one_and_uninstall_takes_it_back() {
    let p = TempProject::new();
    every_event(&p);
    let text = "{\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./notify.sh\"\n      }\n    ]\n  }\n}\n";
    p.write(".cursor/hooks.json", text);
    assert_eq!(p.output(p.cmd(["install", "cursor"]), "").code(), 0);
    let v = read_json(&p, ".cursor/hooks.json");
    assert_eq!(v["version"], 1);
    assert_eq!(v["hooks"]["stop"][0]["command"], "./notify.sh");
    assert_eq!(v["hooks"]["stop"].as_array().unwrap().len(), 2);
    // The user removed the backup meanwhile: uninstall still takes out only ours.
    std::fs::remove_file(p.original_of(".cursor/hooks.json").unwrap()).unwrap();
    assert_eq!(p.output(p.cmd(["uninstall", "cursor"]), "").code(), 0);
    let v = read_json(&p, ".cursor/hooks.json");
    assert_eq!(v["hooks"]["stop"], json!([{"command": "./notify.sh"}]));
}

/// Runs the installed OpenCode plugin under node: loads it the way OpenCode
/// does, calls `tool.execute.before` with a tool call, prints what happened.
fn run_opencode_plugin(p: &TempProject, command: &str) -> Value {
    let plugin = p.path(".opencode/plugins/agenthooks.js");
    // node reads `.js` as CommonJS outside a `"type": "module"` package.
    let module = p.tmp().join("agenthooks-plugin.mjs");
    std::fs::copy(&plugin, &module).unwrap();
    let driver = p.tmp().join("driver.mjs");
    std::fs::write(
        &driver,
        r#"
const [, , module, root, command] = process.argv;
const { AgentHooks } = await import(module);
const hooks = await AgentHooks({ directory: root, worktree: root });
const output = { args: { command, description: "test" } };
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, output);
  console.log(JSON.stringify({ ran: true, args: output.args }));
} catch (err) {
  console.log(JSON.stringify({ ran: false, error: String(err.message) }));
}
"#,
    )
    .unwrap();
    let out = p
        .isolated("node")
        .arg(&driver)
        .arg(&module)
        .arg(&p.root)
        .arg(command)
        .output()
        .expect("node is installed (the OpenCode plugin test runs it)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "driver output is not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn the_opencode_plugin_blocks_and_allows_through_the_real_binary() {
    let p = TempProject::new();
    let guard = p.script(
        "guard.sh",
        r#"if grep -q 'rm -rf'; then echo "no rm -rf here" >&2; exit 2; fi"#,
    );
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command(&guard.display().to_string())]),
    ));
    // By path: `agenthooks` is not on the test's PATH (portable.rs runs the
    // plugin's by-name form).
    let ran = p.output(p.cmd(["install", "--absolute", "opencode"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());

    let denied = run_opencode_plugin(&p, "rm -rf build");
    assert_eq!(denied["ran"], false, "{denied}");
    assert!(
        denied["error"].as_str().unwrap().contains("no rm -rf here"),
        "{denied}"
    );
    let allowed = run_opencode_plugin(&p, "ls");
    assert_eq!(allowed["ran"], true, "{allowed}");
    assert_eq!(allowed["args"]["command"], "ls");
}

#[test]
fn install_says_when_project_command_hooks_still_need_trust() {
    let p = TempProject::new();
    p.project_hooks(&hooks("Stop", "", json!([command("./done.sh")])));
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(ran.stdout().contains("note: 1 command hook in `.agents/hooks.json` will be skipped until you review and trust it: `agenthooks trust`"), "{}", ran.stdout());
    p.trust();
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert!(!ran.stdout().contains("note:"), "{}", ran.stdout());
}

#[test]
fn check_warns_when_the_agent_switched_its_hooks_off() {
    let p = TempProject::new();
    p.write(
        ".claude/settings.json",
        "{\n  \"disableAllHooks\": true\n}\n",
    );
    p.write(
        ".gemini/settings.json",
        "{\n  \"hooksConfig\": {\"enabled\": false}\n}\n",
    );
    let ran = p.output(p.cmd(["install", "claude", "gemini", "copilot"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let ran = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let out = ran.stdout();
    assert!(
        out.contains("`/disableAllHooks` switches every hook of Claude Code off"),
        "{out}"
    );
    assert!(
        out.contains("`/hooksConfig/enabled` switches every hook of Gemini CLI off"),
        "{out}"
    );
    assert!(
        out.contains("note: GitHub Copilot CLI also runs the hooks in `.claude/settings.json`"),
        "{out}"
    );
}

/// The project file of an agent that registers in a JSON file.
fn json_file(agent: &str) -> Option<&'static str> {
    let spec = agenthooks::agents::find(agent).unwrap().install_spec();
    matches!(spec.registration, agenthooks::agents::Registration::Json(_)).then_some(spec.project)
}

/// Install then uninstall `agent`; the project tree must be as before, byte for byte.
#[track_caller]
fn assert_round_trip(p: &TempProject, agent: &str, what: &str) {
    let before = snapshot(&p.root);
    let ran = p.output(p.cmd(["install", agent]), "");
    assert_eq!(ran.code(), 0, "{agent} {what}: {}", ran.stderr());
    assert_registered(p, agent);
    let ran = p.output(p.cmd(["uninstall", agent]), "");
    assert_eq!(ran.code(), 0, "{agent} {what}: {}", ran.stderr());
    let after = snapshot(&p.root);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>(),
        "{agent} {what}: files differ"
    );
    for (rel, bytes) in &before {
        assert_eq!(
            after[rel].as_deref().map(String::from_utf8_lossy),
            bytes.as_deref().map(String::from_utf8_lossy),
            "{agent} {what}: {rel} changed"
        );
    }
}

#[test]
fn install_then_uninstall_restores_every_agents_file_byte_for_byte() {
    let variants: &[(&str, &str)] = &[
        ("an empty object", "{}\n"),
        ("an empty object without a newline", "{}"),
        ("no final newline", "{\n  \"model\": \"x\"\n}"),
        ("CRLF line ends", "{\r\n  \"model\": \"x\"\r\n}\r\n"),
        (
            "empty hooks of the user's, CRLF",
            "{\r\n  \"hooks\": {},\r\n  \"model\": \"x\"\r\n}\r\n",
        ),
        ("one line", "{\"model\":\"x\"}"),
        ("an empty file", ""),
        // Numbers serde_json's default (inexact) float parser reads 1 ulp
        // off: the file was not given back (the fuzzer's find).
        (
            "floats",
            "{\"a\": 1e-88, \"b\": [9.2004e132, 5.91056283096e116, 1.24255793166192932e93]}\n",
        ),
    ];
    for agent in agents() {
        let Some(rel) = json_file(agent) else {
            continue;
        };
        for (what, text) in variants {
            let p = TempProject::new();
            p.write(rel, text);
            assert_round_trip(&p, agent, what);
        }
        // A file install creates goes again, with the directories it made,
        // and a directory holding something else of the user's stays.
        let p = TempProject::new();
        assert_round_trip(&p, agent, "no file");
        let p = TempProject::new();
        let dir = p.path(rel).parent().unwrap().to_path_buf();
        std::fs::create_dir_all(dir.join("keep")).unwrap();
        assert_round_trip(&p, agent, "an existing directory");
    }
}

#[test]
fn a_users_own_kiro_agent_of_that_name_and_a_cursor_file_without_version_come_back_as_they_were() {
    let p = TempProject::new();
    p.write(
        ".kiro/agents/agenthooks.json",
        "{\n  \"name\": \"agenthooks\",\n  \"description\": \"my own agent\",\n  \"tools\": [\"fs_read\"],\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./done.sh\"\n      }\n    ]\n  }\n}\n",
    );
    assert_round_trip(&p, "kiro", "the user's own agent file");
    let p = TempProject::new();
    p.write(".kiro/agents/agenthooks.json", "{\"prompt\": \"be brief\"}");
    assert_round_trip(&p, "kiro", "a one-key agent file");

    let p = TempProject::new();
    p.write(
        ".cursor/hooks.json",
        "{\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./notify.sh\"\n      }\n    ]\n  }\n}\n",
    );
    assert_round_trip(&p, "cursor", "hooks without a version");
}

#[cfg(unix)]
#[test]
fn a_symlinked_native_file_stays_a_link_and_its_target_is_updated_and_restored() {
    let p = TempProject::new();
    every_event(&p);
    let (files, mine) = existing("claude");
    let (_, text) = &files[0];
    let shared = p.write("shared/claude-settings.json", text);
    std::fs::create_dir_all(p.path(".claude")).unwrap();
    let link = p.path(".claude/settings.json");
    std::os::unix::fs::symlink("../shared/claude-settings.json", &link).unwrap();
    let is_link = || {
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    };

    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(is_link(), "install replaced the link by a file");
    let target = std::fs::read_to_string(&shared).unwrap();
    assert!(
        target.contains(" run --agent claude --event PreToolUse"),
        "{target}"
    );
    assert!(target.contains(mine), "{target}");

    let ran = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(is_link(), "uninstall replaced the link by a file");
    assert_eq!(std::fs::read_to_string(&shared).unwrap(), *text);
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("../shared/claude-settings.json")
    );
}

/// Eight installs at once into one file (five agents whose files are links
/// to it, some twice): every agent's entries and the user's own content are
/// there afterwards.
#[cfg(unix)]
#[test]
fn eight_concurrent_installs_into_one_file_lose_nothing() {
    let order = [
        "claude", "codex", "factory", "qwen", "gemini", "claude", "codex", "factory",
    ];
    for round in 0..3 {
        let p = TempProject::new();
        let (files, mine) = existing("claude");
        let (rel, text) = &files[0];
        let shared = p.write(rel, text);
        for agent in ["codex", "factory", "qwen", "gemini"] {
            let link = p.path(json_file(agent).unwrap());
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(&shared, &link).unwrap();
        }
        let children: Vec<_> = order
            .iter()
            .map(|agent| {
                p.isolated(crate::util::bin())
                    .args(["install", agent])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (agent, child) in order.iter().zip(children) {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {round}, {agent}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let text = std::fs::read_to_string(&shared).unwrap();
        assert!(
            text.contains(mine),
            "round {round}: the user's hook is gone:\n{text}"
        );
        assert!(text.contains("DISABLE_TELEMETRY"), "round {round}:\n{text}");
        for agent in ["claude", "codex", "factory", "qwen", "gemini"] {
            for native in natives(agent) {
                let needle = format!(" run --agent {agent} --event {native} ");
                assert!(
                    text.contains(&needle),
                    "round {round}: {agent} {native} lost:\n{text}"
                );
            }
        }
        let leftovers: Vec<_> = snapshot(&p.root)
            .into_keys()
            .filter(|k| k.ends_with(".lock") || k.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

/// A tmpfs of `size` mounted on `dir`, unmounted on drop; `None` (with a
/// printed reason) where this test may not mount.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs(dir.to_path_buf())),
            Ok(o) => {
                println!(
                    "SKIPPED: cannot mount a tmpfs here ({}); the full-disk install test did not run",
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                println!("SKIPPED: no `mount` ({e}); the full-disk install test did not run");
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

#[cfg(target_os = "linux")]
#[test]
fn install_on_a_full_disk_leaves_the_file_intact_and_says_so_in_one_line() {
    let p = TempProject::new();
    let Some(_fs) = Tmpfs::mount(&p.root, "64k") else {
        return;
    };
    std::fs::create_dir_all(p.path(".git")).unwrap();
    // About 38 KiB of the user's settings: the file fits in 64 KiB, and the
    // rewritten file (some 12 KiB larger) does not fit next to it (the
    // backup goes to the state directory, on another file system here).
    let allow: Vec<String> = (0..1130)
        .map(|i| format!("Bash(npm run task-{i:04}:*)"))
        .collect();
    let text =
        serde_json::to_string_pretty(&json!({"permissions": {"allow": allow}})).unwrap() + "\n";
    assert!(
        (36 * 1024..40 * 1024).contains(&text.len()),
        "{}",
        text.len()
    );
    let file = p.write(".claude/settings.json", &text);

    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 2, "{}{}", ran.stdout(), ran.stderr());
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "the file changed"
    );
    let err = ran.stderr();
    let lines: Vec<_> = err
        .lines()
        .filter(|l| !l.contains("is not on PATH"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains("settings.json") && lines[0].contains("No space left"),
        "{err}"
    );
    // Nothing half-written is left: no temporary file, no lock, no backup.
    let names: Vec<_> = std::fs::read_dir(p.path(".claude"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["settings.json"], "{names:?}");
    assert_eq!(p.backup_of(&file), None);
}

#[cfg(unix)]
#[test]
fn a_native_file_that_is_a_fifo_or_a_link_to_a_device_is_refused_at_once() {
    let p = TempProject::new();
    std::fs::create_dir_all(p.path(".claude")).unwrap();
    let fifo = std::ffi::CString::new(p.path(".claude/settings.json").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path this test owns.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::fs::create_dir_all(p.path(".codex")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", p.path(".codex/hooks.json")).unwrap();
    // (No `snapshot` here: it would read the FIFO and /dev/zero.)
    let ran = p.output(p.cmd(["install", "claude", "codex"]), "");
    assert_eq!(ran.code(), 2, "{}", ran.stderr());
    let err = ran.stderr();
    assert!(
        err.contains("settings.json` is a FIFO, not a regular file"),
        "{err}"
    );
    assert!(
        err.contains("hooks.json` is a device, not a regular file"),
        "{err}"
    );
    ran.assert_took_less_than(std::time::Duration::from_secs(10));
    for dir in [".claude", ".codex"] {
        let names: Vec<_> = std::fs::read_dir(p.path(dir))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{dir}: {names:?}");
    }
    assert!(!Path::new("/dev/.zero.agenthooks.lock").exists());
}

#[test]
fn user_only_agents_refuse_project_scope_and_round_trip_at_user_scope() {
    let names = user_only();
    assert_eq!(names, ["antigravity", "junie", "kimi", "hermes"]);
    for agent in names {
        let p = TempProject::new();
        let before = snapshot(&p.root);
        let ran = p.output(p.cmd(["install", agent]), "");
        assert_eq!(ran.code(), 2, "{agent}: {}", ran.stdout());
        ran.assert_stderr_contains(&format!("agenthooks install {agent} --user"));
        assert_eq!(snapshot(&p.root), before, "{agent}: project touched");

        let home_before = snapshot(&p.home);
        let ran = p.output(p.cmd(["install", agent, "--user"]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        let text = all_text(&p.home);
        for native in natives(agent) {
            let needle = format!(" run --agent {agent} --event {native}");
            assert!(text.contains(&needle), "{agent}: no `{needle}` in:\n{text}");
        }
        let ran = p.output(p.cmd(["uninstall", agent, "--user"]), "");
        assert_eq!(ran.code(), 0, "{agent}: {}", ran.stderr());
        assert_eq!(
            snapshot(&p.home),
            home_before,
            "{agent}: left something behind"
        );
    }
}

/// SemaClaw approves every permission request a matching hook does not
/// reject (no answer included), so an entry of ours on PermissionRequest
/// would approve every prompt: `install` never writes one, whatever the
/// hooks select, and the entries it writes block and fit the deadline.
#[test]
fn install_semaclaw_writes_no_permission_request_entry() {
    for user in [false, true] {
        let p = TempProject::new();
        p.project_hooks(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [command("true")]}],
            "PermissionRequest": [{"matcher": "*", "hooks": [command("true")]}],
            "UserPromptSubmit": [{"hooks": [command("true")]}],
        }}));
        let args: &[&str] = if user {
            &["install", "--user", "semaclaw"]
        } else {
            &["install", "semaclaw"]
        };
        let ran = p.output(p.cmd(args), "");
        assert_eq!(ran.code(), 0, "{}{}", ran.stdout(), ran.stderr());
        assert!(
            ran.stdout().contains("restart"),
            "says SemaClaw reads hooks at start: {}",
            ran.stdout()
        );
        let file = if user {
            p.home.join(".semaclaw/hooks.json")
        } else {
            p.path(".semaclaw/hooks.json")
        };
        let text = std::fs::read_to_string(&file).expect("hooks.json written");
        assert!(!text.contains("PermissionRequest"), "{text}");
        let written: Value = serde_json::from_str(&text).unwrap();
        let handler = &written["hooks"]["PreToolUse"][0]["hooks"][0];
        assert_eq!(handler["blocking"], true, "{text}");
        assert_eq!(handler["timeout"], 10, "SemaClaw's own default: {text}");
        let command = handler["command"].as_str().unwrap_or_default();
        assert!(
            command.contains(" run --agent semaclaw --event PreToolUse "),
            "{text}"
        );
    }
}

#[test]
fn an_older_backup_beside_the_file_is_given_back_and_removed_with_it() {
    let p = TempProject::new();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    let file = p.write(".claude/settings.json", original);
    let ran = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    // Where an older agenthooks kept the original: beside the file.
    let slot = p.backup_of(&file).expect("a backups folder");
    let legacy = p.path(".claude/settings.json.agenthooks.bak");
    std::fs::rename(slot.join("original"), &legacy).unwrap();
    std::fs::remove_dir_all(&slot).unwrap();
    let ran = p.output(p.cmd(["uninstall", "claude"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout()
            .contains("claude: restored .claude/settings.json (from its backup, now removed)"),
        "{}",
        ran.stdout()
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert!(!legacy.exists());
    assert_eq!(p.backup_of(&file), None);
}

#[test]
fn each_file_keeps_its_original_and_only_the_last_versions_a_write_replaced() {
    let p = TempProject::new();
    let file = p.write(".claude/settings.json", "{\n  \"model\": \"opus\"\n}\n");
    // Each install registers one more event: each rewrites the file.
    let events = [
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "UserPromptSubmit",
        "SessionEnd",
        "Notification",
    ];
    for (i, _) in events.iter().enumerate() {
        let used: serde_json::Map<String, Value> = events[..=i]
            .iter()
            .map(|e| (e.to_string(), json!([{"hooks": [command("true")]}])))
            .collect();
        p.user_hooks(&json!({ "hooks": used }));
        let ran = p.output(p.cmd(["install", "claude"]), "");
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
        if i == 0 {
            assert!(
                ran.stdout()
                    .contains("(backup: ~/.local/state/agenthooks/backups/settings.json-"),
                "{}",
                ran.stdout()
            );
        } else {
            assert!(
                ran.stdout()
                    .contains("(backups: ~/.local/state/agenthooks/backups/settings.json-"),
                "{}",
                ran.stdout()
            );
        }
    }
    let slot = p.backup_of(&file).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&slot)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // Five rewrites after the first: the newest three are kept.
    assert_eq!(
        names,
        ["original", "path", "previous-3", "previous-4", "previous-5"]
    );
    assert_eq!(
        std::fs::read_to_string(slot.join("original")).unwrap(),
        "{\n  \"model\": \"opus\"\n}\n"
    );
}
