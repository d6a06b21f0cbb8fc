//! Start only when a hook selects the event (issue 37): `install` writes
//! the agents' native matchers, one entry per binary, and the entries of a
//! user's file and a project's run each hook once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::util::{self, runs, Ran, TempProject};

/// A project with `guard` (a hook the engine runs) on PreToolUse `Bash`
/// and a command hook on PostToolUse `Write|Edit`.
fn guarded_by(guard: Value) -> TempProject {
    let p = TempProject::new();
    p.project_hooks(&json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [guard]}],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [util::command("true")]}],
    }}));
    p
}

/// [`guarded_by`] a wasm guard.
fn guarded() -> TempProject {
    guarded_by(json!({"type": "wasm", "component": ".agents/hooks/guard.wasm"}))
}

fn install(p: &TempProject, args: &[&str]) -> Ran {
    let ran = p.output(p.cmd([&["install"], args].concat()), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each entry under `event`: its matcher, and whether it calls the engine.
fn entries(file: &Value, event: &str) -> Vec<(String, bool)> {
    file["hooks"][event]
        .as_array()
        .unwrap_or_else(|| panic!("no {event} in {file}"))
        .iter()
        .map(|group| {
            let command = group["hooks"][0]["command"].as_str().unwrap();
            (
                group["matcher"].as_str().unwrap().to_string(),
                command.contains("agenthooks-engine run"),
            )
        })
        .collect()
}

fn entry(matcher: &str, engine: bool) -> (String, bool) {
    (matcher.to_string(), engine)
}

#[test]
fn install_writes_native_matchers_one_entry_per_binary() {
    let p = guarded();
    install(&p, &["claude", "gemini"]);
    let claude = read(&p.path(".claude/settings.json"));
    assert_eq!(entries(&claude, "PreToolUse"), [entry("Bash", true)]);
    assert_eq!(
        entries(&claude, "PostToolUse"),
        [entry("Edit|Write", false)]
    );
    let gemini = read(&p.path(".gemini/settings.json"));
    assert_eq!(
        entries(&gemini, "BeforeTool"),
        [entry("run_shell_command|Bash", true)]
    );
    assert_eq!(
        entries(&gemini, "AfterTool"),
        [entry("replace|write_file|Edit|Write", false)]
    );
    // Nothing selects Read (or Gemini's read_file).
    for (file, events) in [
        (&claude, ["PreToolUse", "PostToolUse"]),
        (&gemini, ["BeforeTool", "AfterTool"]),
    ] {
        for event in events {
            for (matcher, _) in entries(file, event) {
                let m = agenthooks::select::Matcher::parse(Some(&matcher)).unwrap();
                assert!(
                    !m.matches(Some("Read")) && !m.matches(Some("read_file")),
                    "{matcher}"
                );
            }
        }
    }
    // The narrowed entries say what they cover, in Claude's names.
    let bash = claude["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        bash.contains("run --agent claude --event PreToolUse --tools Bash "),
        "{bash}"
    );
    let after = gemini["hooks"]["AfterTool"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(after.contains(" --tools 'Edit|Write' "), "{after}");

    // Installing again writes the same bytes (and says so).
    let before: Vec<Vec<u8>> = [".claude/settings.json", ".gemini/settings.json"]
        .iter()
        .map(|f| std::fs::read(p.path(f)).unwrap())
        .collect();
    let ran = install(&p, &["claude", "gemini"]);
    assert!(!ran.stdout().contains("updated"), "{}", ran.stdout());
    let after: Vec<Vec<u8>> = [".claude/settings.json", ".gemini/settings.json"]
        .iter()
        .map(|f| std::fs::read(p.path(f)).unwrap())
        .collect();
    assert_eq!(before, after);
}

#[test]
fn a_hook_on_a_tool_the_wiring_does_not_cover_makes_status_say_install() {
    let p = guarded_by(json!({"type": "http", "url": "http://127.0.0.1:9/guard"}));
    p.trust();
    install(&p, &["claude"]);
    let ran = p.output(p.cmd(["check"]), "");
    assert!(
        !ran.stdout().contains("agenthooks install claude"),
        "{}",
        ran.stdout()
    );
    // A Read hook: Claude Code would not start agenthooks for Read.
    let mut config = read(&p.path(".agents/hooks.json"));
    config["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "Read", "hooks": [util::command("true")]}));
    p.project_hooks(&config);
    p.trust();
    let ran = p.output(p.cmd(["status"]), "");
    assert_eq!(ran.code(), 1, "{}{}", ran.stdout(), ran.stderr());
    let said = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(said.contains("PreToolUse for Read"), "{said}");
    assert!(said.contains("agenthooks install claude"), "{said}");
    // Installed again: covered, and status has nothing to say of it.
    install(&p, &["claude"]);
    let ran = p.output(p.cmd(["status"]), "");
    let said = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(!said.contains("PreToolUse for Read"), "{said}");
    // A command hook where the wasm guard was: the Bash entry now calls
    // the engine for a tool whose hooks the front runs.
    config["hooks"]["PreToolUse"][0]["hooks"] = json!([util::command("true")]);
    p.project_hooks(&config);
    p.trust();
    let ran = p.output(p.cmd(["check"]), "");
    let said = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(
        said.contains("PreToolUse for Bash through agenthooks-engine, not agenthooks"),
        "{said}"
    );
}

/// Every entry of `file` under `event`, run as the agent runs it (`sh -c`,
/// the payload on stdin, both binaries on `PATH`): those whose matcher
/// selects `tool` where `honour`, all of them where not (VS Code's Local
/// harness ignores matchers).
fn run_entries(p: &TempProject, file: &Path, event: &str, tool: &str, honour: bool) -> Vec<Ran> {
    let doc = read(file);
    let bin_dir = Path::new(util::bin()).parent().unwrap().to_path_buf();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let payload = p.payload(
        event,
        json!({"tool_name": tool, "tool_input": {"command": "ls", "file_path": "x"}, "tool_use_id": "toolu_1"}),
    );
    let mut out = Vec::new();
    for group in doc["hooks"][event].as_array().into_iter().flatten() {
        let matcher = group["matcher"].as_str().unwrap_or("*");
        let selects = agenthooks::select::Matcher::parse(Some(matcher)).unwrap();
        if honour && !selects.matches(Some(tool)) {
            continue;
        }
        for hook in group["hooks"].as_array().into_iter().flatten() {
            let line = hook["command"].as_str().unwrap();
            let mut cmd = Command::from_std(p.isolated("sh"));
            cmd.args(["-c", line])
                .env("PATH", &path)
                .timeout(Duration::from_secs(60));
            out.push(p.output(cmd, payload.to_string()));
        }
    }
    out
}

/// A project whose PreToolUse `Bash` hook counts its runs, trusted, with a
/// user hook on `Bash` too (so the user's entry covers Bash), wired at
/// both scopes.
fn wired_twice() -> (TempProject, PathBuf, PathBuf) {
    let p = TempProject::new();
    let count = p.counting_deny("Bash", "counted");
    let mine = p.tmp().join("mine");
    p.user_hooks(&util::hooks(
        "PreToolUse",
        "Bash",
        json!([util::command(&format!("echo run >> '{}'", mine.display()))]),
    ));
    install(&p, &["claude"]);
    install(&p, &["claude", "--user"]);
    (p, count, mine)
}

#[test]
fn a_hook_reached_through_user_and_project_wiring_runs_once() {
    let (p, count, mine) = wired_twice();
    let user_file = p.home.join(".claude/settings.json");
    let user = read(&user_file);
    let line = user["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(line.contains(" --user --tools Bash "), "{line}");
    for honour in [true, false] {
        let mut ran = run_entries(&p, &user_file, "PreToolUse", "Bash", honour);
        ran.extend(run_entries(
            &p,
            &p.path(".claude/settings.json"),
            "PreToolUse",
            "Bash",
            honour,
        ));
        assert_eq!(ran.len(), 2, "both entries start");
        let denied = ran
            .iter()
            .filter(|r| r.stdout().contains("\"permissionDecision\":\"deny\""))
            .count();
        assert_eq!(
            denied,
            1,
            "{:?}",
            ran.iter().map(Ran::stdout).collect::<Vec<_>>()
        );
    }
    // Once per tool call, each time: the project's hook and the user's.
    assert_eq!(runs(&count), 2);
    assert_eq!(runs(&mine), 2);
    // `fire` answers as the project's entry (it steps aside, saying why),
    // and with `--user` as the user's (which runs them).
    let fire = |extra: &[&str]| {
        let args = [
            &[
                "fire",
                "PreToolUse",
                "--tool",
                "Bash",
                "--input",
                r#"{"command":"ls"}"#,
                "--json",
            ][..],
            extra,
        ]
        .concat();
        let ran = p.output(p.cmd(args), "");
        serde_json::from_str::<Value>(&ran.stdout())
            .unwrap_or_else(|e| panic!("{e}: {}", ran.stderr()))
    };
    let project = fire(&[]);
    let aside = project["steppedAside"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(aside.contains("`fire --user` shows it"), "{project}");
    let user = fire(&["--user"]);
    assert_eq!(user["steppedAside"], Value::Null, "{user}");
    assert_eq!(
        user["answer"]["hookSpecificOutput"]["permissionDecision"], "deny",
        "{user}"
    );
    assert_eq!(runs(&count), 3);
}

#[test]
fn a_users_own_hooks_run_in_a_project_wired_by_someone_else() {
    let (p, count, mine) = wired_twice();
    // The user's entry is gone from this machine: the project's runs all.
    let ran = p.output(p.cmd(["uninstall", "claude", "--user"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let ran = run_entries(
        &p,
        &p.path(".claude/settings.json"),
        "PreToolUse",
        "Bash",
        true,
    );
    assert_eq!(ran.len(), 1);
    assert!(ran[0].stdout().contains("counted"), "{}", ran[0].stdout());
    assert_eq!((runs(&count), runs(&mine)), (1, 1));
}

#[test]
fn entries_a_host_runs_without_their_matchers_answer_each_tool_once() {
    let p = TempProject::new();
    let count = p.counting_deny("Bash", "counted");
    let mut config = read(&p.path(".agents/hooks.json"));
    config["hooks"]["PreToolUse"].as_array_mut().unwrap().push(
        json!({"matcher": "Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/h"}]}),
    );
    p.project_hooks(&config);
    p.trust();
    install(&p, &["claude"]);
    let claude = read(&p.path(".claude/settings.json"));
    assert_eq!(
        entries(&claude, "PreToolUse"),
        [entry("Bash", false), entry("Write", true)]
    );
    let ran = run_entries(
        &p,
        &p.path(".claude/settings.json"),
        "PreToolUse",
        "Bash",
        false,
    );
    assert_eq!(ran.len(), 2);
    assert_eq!(runs(&count), 1, "the Write entry stepped aside");
}
