//! `agenthooks status`: every hook that would not run, why, and the one
//! command that fixes it (exit 1 until they are fixed); the agents wired and
//! for which events; and the same news in the agent itself, once per
//! session, at SessionStart (item 2 of issue 26), which also starts the
//! background compile of the components the cache lacks.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{command, hooks, TempProject};
use crate::wasm::guest;

/// `status --json` in `p` with `xdg` as the cache home and `path` as `PATH`.
fn status(p: &TempProject, xdg: &Path, path: Option<&str>) -> (i32, Value) {
    let mut cmd = p.cmd(["status", "--json"]);
    cmd.env("XDG_CACHE_HOME", xdg);
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let ran = p.output(cmd, "");
    let json: Value = serde_json::from_str(&ran.stdout())
        .unwrap_or_else(|e| panic!("{e}: {}{}", ran.stdout(), ran.stderr()));
    (ran.code(), json)
}

/// The (code, fix) of each finding of the hook whose label contains `label`.
fn findings(status: &Value, label: &str) -> Vec<(String, Option<String>)> {
    let hook = status["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["label"].as_str().unwrap().contains(label))
        .unwrap_or_else(|| panic!("no hook {label} in {status:#}"));
    hook["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["fix"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// A `PATH` of the system's tools and a directory of `p`'s holding
/// `agenthooks` (a link to the binary under test).
#[cfg(unix)]
fn path_with_agenthooks(p: &TempProject) -> String {
    let bin = p.tmp().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(crate::util::bin(), bin.join("agenthooks")).unwrap();
    format!("{}:/usr/bin:/bin", bin.display())
}

fn finding(code: &str, fix: Option<&str>) -> Vec<(String, Option<String>)> {
    vec![(code.to_string(), fix.map(str::to_string))]
}

/// A teammate's clone: a project command hook not trusted, an `oci://`
/// component not pulled, a component whose crate is there but not built,
/// one built but not compiled, and an `mcp_tool` hook naming a server no
/// MCP file defines. Each is named with
/// its fix, and status exits 1 until the fixes are run.
#[test]
fn status_names_each_held_back_hook_and_its_fix() {
    let p = TempProject::new();
    p.script("guard.sh", "exit 0");
    std::fs::create_dir_all(p.path(".agents/hooks/unbuilt")).unwrap();
    p.write(
        ".agents/hooks/unbuilt/Cargo.toml",
        "[package]\nname = \"unbuilt\"\n",
    );
    std::fs::copy(guest("deny"), p.path(".agents/hooks/deny.wasm")).unwrap();
    p.project_hooks(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            command("sh .agents/hooks/guard.sh"),
            {"type": "wasm", "component": "oci://127.0.0.1:9/org/guard:v1"},
            {"type": "wasm", "component": ".agents/hooks/unbuilt.wasm"},
            {"type": "wasm", "component": ".agents/hooks/deny.wasm"},
            {"type": "mcp_tool", "server": "s", "tool": "t"},
        ]}]}}),
    );
    // Wired, with `agenthooks` on PATH: what is left is each hook's own.
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let bin = p.tmp().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(crate::util::bin(), bin.join("agenthooks")).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let xdg = p.tmp().join("xdg");
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 1, "{found:#}");
    assert_eq!(found["ok"], false);
    assert_eq!(
        findings(&found, "guard.sh"),
        finding("untrusted", Some("agenthooks trust"))
    );
    assert_eq!(
        findings(&found, "oci://"),
        finding("not-pulled", Some("agenthooks pull"))
    );
    assert_eq!(
        findings(&found, "unbuilt.wasm"),
        finding("component-missing", Some("agenthooks build"))
    );
    assert_eq!(
        findings(&found, "deny.wasm"),
        finding("not-compiled", Some("agenthooks compile"))
    );
    assert_eq!(
        findings(&found, "mcp_tool"),
        vec![
            (
                "untrusted".to_string(),
                Some("agenthooks trust".to_string())
            ),
            ("mcp-server".to_string(), None)
        ]
    );
    let hook = &found["hooks"][0];
    assert_eq!(hook["scope"], "project");
    assert_eq!(hook["event"], "PreToolUse");
    assert_eq!(hook["matcher"], "Bash");
    assert_eq!(hook["type"], "command");
    assert_eq!(hook["runs"], false);

    // The text form says the same, one line per finding, with the command.
    let mut cmd = p.cmd(["status"]);
    cmd.env("XDG_CACHE_HOME", &xdg).env("PATH", &path);
    let text = p.output(cmd, "");
    assert_eq!(text.code(), 1);
    let out = text.stdout();
    for want in [
        "does not run: not trusted yet; run `agenthooks trust`",
        "run `agenthooks pull`",
        "run `agenthooks build`",
        "does not run: not compiled yet",
        "run `agenthooks compile`",
        "MCP server `s` is not defined in",
        "define the server in `.mcp.json` or `~/.claude.json`, or fix the hook's `server`",
        "status: 5 of 5 configured hooks not running",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    assert!(out.lines().count() < 20, "{out}");

    // After the fixes (trust, compile; the rest removed), status is green.
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("sh .agents/hooks/guard.sh"),
               {"type": "wasm", "component": ".agents/hooks/deny.wasm"}]),
    ));
    let mut cmd = p.cmd(["trust", "--yes"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    assert_eq!(p.output(cmd, "").code(), 0);
    let mut cmd = p.cmd(["compile"]);
    cmd.env("XDG_CACHE_HOME", &xdg)
        .timeout(Duration::from_secs(600));
    let compiled = p.output(cmd, "");
    assert_eq!(compiled.code(), 0, "{}", compiled.stderr());
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 0, "{found:#}");
    assert_eq!(found["ok"], true);
    assert!(found["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["runs"] == true && h["findings"] == json!([])));
}

/// The agents wired in the project, at which scope and for which events;
/// a project entry calls `agenthooks` from PATH, so where it is not there,
/// that is a finding with the real install command.
#[cfg(unix)]
#[test]
fn status_shows_the_wired_agents_and_a_missing_binary_on_path() {
    let p = TempProject::new();
    // `install` registers the events the hooks use, and the session start.
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    p.trust();
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let xdg = p.tmp().join("xdg");
    let bin = p.tmp().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(crate::util::bin(), bin.join("agenthooks")).unwrap();

    let (code, found) = status(&p, &xdg, Some(&format!("{}:/usr/bin:/bin", bin.display())));
    assert_eq!(code, 0, "{found:#}");
    let claude = &found["agents"][0];
    assert_eq!(claude["agent"], "claude", "{found:#}");
    assert_eq!(claude["installed"][0]["scope"], "project");
    let events: Vec<&str> = claude["installed"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["native"].as_str().unwrap())
        .collect();
    assert!(
        events.contains(&"PreToolUse") && events.contains(&"SessionStart"),
        "{events:?}"
    );
    // Only what does not stop it: VS Code runs Claude's entries too.
    let codes: Vec<&str> = claude["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["also-run-by"], "{found:#}");

    let mut cmd = p.cmd(["status"]);
    cmd.env("XDG_CACHE_HOME", &xdg)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    let text = p.output(cmd, "").stdout();
    assert!(
        text.contains("agent claude: installed at project (")
            && text.contains("PreToolUse")
            && text.contains("SessionStart"),
        "{text}"
    );

    let (code, found) = status(&p, &xdg, Some("/usr/bin:/bin"));
    assert_eq!(code, 1, "{found:#}");
    let finding = &found["agents"][0]["findings"][0];
    assert_eq!(finding["code"], "not-on-path", "{found:#}");
    // The line of the package manager the binary came from; the test's,
    // built by cargo, gets the platform's release line (a package's names
    // its own: `.ci/dist.sh`).
    assert_eq!(finding["fix"], agenthooks::origin::INSTALL_SH);
}

/// The SessionStart answer carries `systemMessage` naming the untrusted
/// project hooks and `agenthooks trust`, in Claude's and Gemini's dialects,
/// once per session.
#[test]
fn session_start_tells_the_user_once_about_held_back_hooks() {
    let p = TempProject::new();
    p.script("guard.sh", "exit 0");
    p.project_hooks(&hooks(
        "PreToolUse",
        "",
        json!([
            command("sh .agents/hooks/guard.sh"),
            command("sh .agents/hooks/guard.sh x")
        ]),
    ));
    let want =
        "agenthooks: 2 project hooks are not trusted yet and did not run; run `agenthooks trust`";
    for (agent, session) in [("claude", "s-claude"), ("gemini", "s-gemini")] {
        let payload = json!({"session_id": session, "transcript_path": "/t", "cwd": p.path(""),
                             "hook_event_name": "SessionStart", "source": "startup"})
        .to_string();
        let first = p.output(p.cmd(["run", "--agent", agent]), payload.clone());
        assert_eq!(first.code(), 0, "{agent}: {}", first.stderr());
        assert_eq!(
            first.json()["systemMessage"],
            want,
            "{agent}: {}",
            first.stderr()
        );
        // The same session again (a resume): said once.
        let again = p.output(p.cmd(["run", "--agent", agent]), payload);
        assert!(
            !again.stdout().contains("systemMessage"),
            "{agent}: said twice: {}",
            again.stdout()
        );
    }
    // A trusted project has nothing to say.
    p.trust();
    let payload = json!({"session_id": "s-trusted", "cwd": p.path(""),
                         "hook_event_name": "SessionStart", "source": "startup"});
    let ran = p.run(&payload);
    assert!(!ran.stdout().contains("systemMessage"), "{}", ran.stdout());
}

/// An agent without a SessionStart agenthooks can register (Windsurf) is
/// told on its first event of a session, as a note where it shows no message.
#[test]
fn an_agent_without_session_start_is_told_on_its_first_event() {
    let p = TempProject::new();
    p.script("guard.sh", "exit 0");
    p.project_hooks(&hooks(
        "PreToolUse",
        "",
        json!([command("sh .agents/hooks/guard.sh")]),
    ));
    let event = |trajectory: &str| {
        json!({"agent_action_name": "pre_run_command", "trajectory_id": trajectory,
               "execution_id": "e1", "timestamp": "2026-01-01T00:00:00Z",
               "tool_info": {"command_line": "ls", "cwd": p.path("")}})
        .to_string()
    };
    let told = "1 project hook is not trusted yet and did not run; run `agenthooks trust`";
    let first = p.output(p.cmd(["run", "--agent", "windsurf"]), event("t1"));
    assert_eq!(first.code(), 0, "{}", first.stderr());
    first.assert_stderr_contains(told);
    let second = p.output(p.cmd(["run", "--agent", "windsurf"]), event("t1"));
    assert!(
        !second.stderr().contains(told),
        "told twice: {}",
        second.stderr()
    );
    let other = p.output(p.cmd(["run", "--agent", "windsurf"]), event("t2"));
    other.assert_stderr_contains(told);
}

/// SessionStart starts compiling the components the cache lacks, without
/// waiting for them; the next event loads the compiled entry.
#[cfg(unix)]
#[test]
fn session_start_warms_the_cache_so_the_next_event_loads_from_it() {
    let p = TempProject::new();
    std::fs::create_dir_all(p.path(".agents/hooks")).unwrap();
    std::fs::copy(guest("deny"), p.path(".agents/hooks/deny.wasm")).unwrap();
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "wasm", "component": ".agents/hooks/deny.wasm", "timeout": 120}]),
    ));
    let xdg = p.tmp().join("xdg");
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    let start = p.output(
        cmd,
        p.payload("SessionStart", json!({"source": "startup"}))
            .to_string(),
    );
    assert_eq!(start.code(), 0, "{}", start.stderr());
    // Not compiled in the answer's time: a compile takes seconds here.
    start.assert_took_less_than(Duration::from_secs(5));
    // Done when the optimized entry is stored: the baseline entry (where
    // there is one) comes first and is swept once the optimized one is in
    // place, so counting files would race with the sweep.
    let listing = || {
        let mut cmd = p.cmd(["cache"]);
        cmd.env("XDG_CACHE_HOME", &xdg);
        p.output(cmd, "").stdout()
    };
    assert!(
        crate::util::eventually(Duration::from_secs(600), || {
            // Each look is a process; look a few times a second, not fifty.
            std::thread::sleep(Duration::from_millis(250));
            listing().contains("optimized")
        }),
        "SessionStart never filled the cache: {}",
        listing()
    );
    let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
    cmd.env("XDG_CACHE_HOME", &xdg);
    let first = p.output(cmd, p.bash("rm -rf /").to_string());
    assert_eq!(
        first.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        first.stderr()
    );
    first.assert_stderr_contains("loaded from the compile cache");
}

/// An agent whose entries do not call an event the hooks now use is a
/// finding with `agenthooks install <agent>` (exit 1, then green after it);
/// a hook the agent's own file runs too is named with `import --move`.
#[cfg(unix)]
#[test]
fn status_names_stale_wiring_and_a_hook_that_runs_twice() {
    let p = TempProject::new();
    p.script("log.sh", "exit 0");
    p.project_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh")]),
    ));
    p.trust();
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let xdg = p.tmp().join("xdg");
    let path = path_with_agenthooks(&p);
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 0, "{found:#}");

    // A Stop hook is added: Claude's entries do not call Stop yet.
    p.project_hooks(&json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [command("$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh")]}],
        "Stop": [{"hooks": [command("$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh")]}],
    }}));
    p.trust();
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 1, "{found:#}");
    let finding = &found["agents"][0]["findings"][0];
    assert_eq!(finding["code"], "stale-wiring", "{found:#}");
    assert_eq!(finding["fix"], "agenthooks install claude");
    assert!(
        finding["why"].as_str().unwrap().contains("Stop"),
        "{found:#}"
    );
    let installed = p.output(p.cmd(["install", "claude"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 0, "{found:#}");

    // The same command pasted into Claude's own settings: it runs there, so
    // status names it (and stays green: the hook runs, once).
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(p.path(".claude/settings.json")).unwrap())
            .unwrap();
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!(
            {"matcher": "Bash", "hooks": [command("$CLAUDE_PROJECT_DIR/.agents/hooks/log.sh")]}
        ));
    p.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&settings).unwrap(),
    );
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 0, "{found:#}");
    let twice: Vec<_> = found["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| {
            h["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["code"] == "runs-twice")
        })
        .collect();
    assert_eq!(twice.len(), 1, "{found:#}");
    assert_eq!(twice[0]["event"], "PreToolUse");
    assert_eq!(
        twice[0]["findings"][0]["fix"],
        "agenthooks import claude --move"
    );
}

/// Issue 39: Gemini CLI's own off switch (`hooksConfig.enabled: false`)
/// leaves its agenthooks entries installed and silent. `status` says so and
/// exits 1; a Claude Code session in the same project is told at its
/// start, since Gemini CLI starts none.
#[cfg(unix)]
#[test]
fn gemini_s_hooks_config_enabled_false_makes_status_exit_1_and_say_so() {
    let p = TempProject::new();
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    p.trust();
    let installed = p.output(p.cmd(["install", "claude", "gemini"]), "");
    assert_eq!(installed.code(), 0, "{}", installed.stderr());
    let xdg = p.tmp().join("xdg");
    let path = path_with_agenthooks(&p);
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 0, "{found:#}");

    // Gemini CLI's settings as the user edits them: with a comment.
    let settings = p.path(".gemini/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    let off = text.replacen(
        '{',
        "{\n  // off while debugging\n  \"hooksConfig\": {\"enabled\": false},",
        1,
    );
    std::fs::write(&settings, off).unwrap();
    let (code, found) = status(&p, &xdg, Some(&path));
    assert_eq!(code, 1, "{found:#}");
    let gemini = (found["agents"].as_array().unwrap().iter())
        .find(|a| a["agent"] == "gemini")
        .unwrap_or_else(|| panic!("{found:#}"));
    let finding = &gemini["findings"][0];
    assert_eq!(finding["code"], "switched-off", "{found:#}");

    let mut cmd = p.cmd(["status"]);
    cmd.env("XDG_CACHE_HOME", &xdg).env("PATH", &path);
    let ran = p.output(cmd, "");
    assert_eq!(ran.code(), 1);
    let want = "`/hooksConfig/enabled` switches every hook of Gemini CLI off, agenthooks' entries included";
    assert!(ran.stdout().contains(want), "{}", ran.stdout());

    let start = json!({"session_id": "s-off", "transcript_path": "/t", "cwd": p.path(""),
                       "hook_event_name": "SessionStart", "source": "startup"});
    let ran = p.output(p.cmd(["run", "--agent", "claude"]), start.to_string());
    let said = ran.json()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(said.contains(want), "{said:?}; {}", ran.stderr());
}
