//! `agenthooks plugin`: a plugin directory whose hooks call agenthooks; the
//! command in its hooks file denies through the project's hooks.

use serde_json::{json, Value};

use crate::util::{bin, command, TempProject};

/// A trusted project whose PreToolUse hook denies `rm -rf`.
fn denying_project() -> TempProject {
    TempProject::trusted(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            command(r#"if grep -q 'rm -rf'; then echo "no rm -rf here" >&2; exit 2; fi"#)
        ]}]}}),
    )
}

#[test]
fn the_claude_plugin_registers_the_used_events_and_its_command_denies() {
    let p = denying_project();
    let ran = p.output(p.cmd(["plugin", "claude", "--out", "plug"]), "");
    assert_eq!(ran.code(), 0, "{}{}", ran.stdout(), ran.stderr());
    assert!(
        ran.stdout().contains("claude --plugin-dir plug"),
        "{}",
        ran.stdout()
    );
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(p.path("plug/.claude-plugin/plugin.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["name"], "agenthooks");
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(p.path("plug/hooks/hooks.json")).unwrap())
            .unwrap();
    let events: Vec<&str> = hooks["hooks"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        events,
        ["SessionStart", "PreToolUse"],
        "only the events in use"
    );
    // The plugin's command, as Claude Code runs it, with agenthooks on PATH.
    let line = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let dir = std::path::Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = p.isolated("sh");
    sh.args(["-c", line]).env("PATH", path);
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": p.root,
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"}});
    let mut cmd = assert_cmd::Command::from_std(sh);
    cmd.timeout(std::time::Duration::from_secs(60));
    let denied = p.output(cmd, payload.to_string());
    assert!(
        denied.stdout().contains("\"permissionDecision\":\"deny\""),
        "{}{}",
        denied.stdout(),
        denied.stderr()
    );
    assert!(
        denied.stdout().contains("no rm -rf here"),
        "{}",
        denied.stdout()
    );
}

#[test]
fn a_gemini_extension_and_refusals_in_one_line() {
    let p = denying_project();
    let ran = p.output(p.cmd(["plugin", "gemini", "--out", "ext"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(p.path("ext/gemini-extension.json").is_file());
    let hooks = std::fs::read_to_string(p.path("ext/hooks/hooks.json")).unwrap();
    assert!(
        hooks.contains(" run --agent gemini --event BeforeTool"),
        "{hooks}"
    );

    let ran = p.output(p.cmd(["plugin", "kimi"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("loads no plugin with hooks");
    p.write("busy/notes.txt", "mine");
    let ran = p.output(p.cmd(["plugin", "claude", "--out", "busy"]), "");
    assert_eq!(ran.code(), 2);
    ran.assert_stderr_contains("not a file of the plugin");
    assert!(!p.path("busy/hooks").exists());
    // Writing it again over its own files is fine.
    let again = p.output(p.cmd(["plugin", "gemini", "--out", "ext"]), "");
    assert_eq!(again.code(), 0, "{}", again.stderr());
}

/// An agenthooks plugin in an agent's own plugin store, with agenthooks'
/// entries installed for that agent too: every hook would run twice, and
/// `check` and `status` say so. Each store is laid out as the agent's own
/// install command leaves it (Claude Code's cache, Copilot CLI's
/// `installed-plugins/_direct`, a linked Gemini extension).
#[test]
fn a_plugin_in_the_agent_s_store_beside_its_entries_is_a_double_run() {
    let p = denying_project();
    let home = p.tmp().join("home");
    let linked = p.tmp().join("gemini-ext");
    let stores = [
        (
            "claude",
            home.join(".claude/plugins/cache/local/agenthooks/0.1.0"),
        ),
        (
            "copilot",
            home.join(".copilot/installed-plugins/_direct/agenthooks"),
        ),
        ("gemini", linked.clone()),
    ];
    for (agent, _) in &stores {
        let ran = p.output(p.cmd(["install", agent]), "");
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
    }
    // Someone else's plugin in the store is not ours, whatever its name.
    let foreign = home.join(".claude/plugins/cache/other/agenthooks/1.0.0/hooks/hooks.json");
    std::fs::create_dir_all(foreign.parent().unwrap()).unwrap();
    std::fs::write(
        &foreign,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}"#,
    )
    .unwrap();
    let ran = p.output(p.cmd(["check"]), "");
    assert!(
        !ran.stdout().contains("also loads the agenthooks plugin"),
        "{}",
        ran.stdout()
    );

    for (agent, dir) in &stores {
        let out = dir.display().to_string();
        let ran = p.output(p.cmd(["plugin", agent, "--out", &out]), "");
        assert_eq!(ran.code(), 0, "{}", ran.stderr());
    }
    // `gemini extensions link` leaves only the metadata naming the folder.
    let meta = home.join(".gemini/extensions/agenthooks/.gemini-extension-install.json");
    std::fs::create_dir_all(meta.parent().unwrap()).unwrap();
    std::fs::write(&meta, json!({"source": linked, "type": "link"}).to_string()).unwrap();

    let ran = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    for (agent, dir) in &stores {
        assert!(
            ran.stdout().contains(&format!(
                "{agent} also loads the agenthooks plugin `{}`, so it runs every hook twice",
                dir.display()
            )),
            "{agent}: {}",
            ran.stdout()
        );
    }
    let ran = p.output(p.cmd(["status", "--json"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let doc: Value = serde_json::from_str(&ran.stdout()).unwrap();
    let codes: Vec<String> = doc["agents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["findings"].as_array().unwrap().iter())
        .filter_map(|f| f["code"].as_str().map(str::to_string))
        .filter(|c| c == "plugin-too")
        .collect();
    assert_eq!(codes.len(), 3, "{doc}");
}
