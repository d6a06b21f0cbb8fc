//! `install --system` / `uninstall --system` through the real binary, with
//! the agents' system-wide files under `AGENTHOOKS_SYSTEM_ROOT`: an existing
//! managed settings file is merged and restored byte for byte, agents without
//! a documented system file are refused, and a `run` from a user or project
//! entry steps aside while the system entry (which runs every scope) is
//! installed. Also the scope and file each hook came from in `check`, `fire`
//! and `trust`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agenthooks::install::{Env, Os};
use serde_json::{json, Value};

use crate::install::snapshot;
use crate::util::{command, hooks, TempProject};

/// The system-wide file `install --system` writes for `agent` in `p`'s
/// environment; `None` where the agent has none on this platform.
fn system_file(p: &TempProject, agent: &str) -> Option<PathBuf> {
    let spec = agenthooks::agents::find(agent).unwrap().install_spec();
    Env::with_home(p.tmp())
        .with_system_root(p.system_root())
        .system_path(&spec.system, Os::CURRENT)
}

fn ok(p: &TempProject, args: &[&str]) -> String {
    let out = p.cmd(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Claude Code's managed settings as an organisation already has them: other
/// keys, an odd indent and key order, which install must keep.
const MANAGED_SETTINGS: &str = "{\n    \"permissions\": {\n        \"deny\": [\"Bash(curl:*)\"]\n    },\n    \"allowManagedHooksOnly\": true,\n    \"env\": {\"CORP\": \"1\"}\n}\n";

#[test]
fn install_system_merges_into_managed_settings_and_uninstall_restores_the_bytes() {
    let p = TempProject::new();
    let Some(file) = system_file(&p, "claude") else {
        panic!("Claude Code has a managed settings file on every platform");
    };
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, MANAGED_SETTINGS).unwrap();
    let before = snapshot(&p.system_root());

    let out = ok(&p, &["install", "claude", "--system"]);
    assert!(out.contains("claude: updated "), "{out}");
    // The test's policy comes from AGENTHOOKS_MANAGED_CONFIG, which the
    // agents would not see: said.
    assert!(out.contains("named by AGENTHOOKS_MANAGED_CONFIG"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    // Merged, not clobbered: the organisation's keys are all there, in order.
    assert_eq!(doc["permissions"]["deny"], json!(["Bash(curl:*)"]));
    assert_eq!(doc["allowManagedHooksOnly"], json!(true));
    assert_eq!(doc["env"]["CORP"], json!("1"));
    let keys: Vec<_> = doc.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["permissions", "allowManagedHooksOnly", "env", "hooks"]
    );
    // The entries call the engine beside this binary by absolute path, as
    // the system entry: it runs hooks of every user and project, which this
    // machine cannot list, so the one that runs every kind.
    let command = doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let binary = Path::new(crate::util::bin())
        .canonicalize()
        .unwrap()
        .with_file_name(format!("agenthooks-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(command.contains(&format!(
        "exec {} run --agent claude --event PreToolUse --system ",
        binary.display()
    )));
    assert!(text.starts_with("{\n    \"permissions\""), "{text}");
    // Idempotent.
    let again = ok(&p, &["install", "claude", "--system"]);
    assert!(again.contains("claude: unchanged"), "{again}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    let out = ok(&p, &["uninstall", "claude", "--system"]);
    assert!(out.contains("claude: restored"), "{out}");
    assert_eq!(snapshot(&p.system_root()), before);
}

#[test]
fn every_agent_with_a_system_file_round_trips_and_the_others_are_refused() {
    let p = TempProject::new();
    let mut installed = 0;
    for agent in agenthooks::agents::AGENTS {
        let id = agent.id();
        let out = p.cmd(["install", id, "--system"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        match system_file(&p, id) {
            Some(file) => {
                assert!(out.status.success(), "{id}: {stderr}");
                let text = std::fs::read_to_string(&file).unwrap();
                assert!(text.contains(&format!("--agent {id} --event ")), "{id}");
                assert!(text.contains(" --system"), "{id}: {text}");
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
                    assert_eq!(mode & 0o022, 0, "{id}: {mode:o}");
                }
                installed += 1;
            }
            None => {
                assert_eq!(out.status.code(), Some(2), "{id}");
                let line = format!(
                    "has no documented system-wide hooks file on {}",
                    Os::CURRENT.name()
                );
                assert!(stderr.contains(&line), "{id}: {stderr}");
                // One line (besides the warning that the test binary is a
                // build output).
                let prefix = format!("agenthooks: {id}: ");
                let refusals = stderr.lines().filter(|l| l.starts_with(&prefix));
                assert_eq!(refusals.count(), 1, "{id}: {stderr}");
            }
        }
    }
    assert!(installed >= 5, "only {installed} agents have a system file");
    // `check` says the system entries have no managed policy to enforce.
    let out = ok(&p, &["check"]);
    assert!(out.contains("but there is no managed policy"), "{out}");
    p.managed_hooks(&hooks("Stop", "", json!([command("true")])));
    let out = ok(&p, &["check"]);
    assert!(!out.contains("no managed policy"), "{out}");
    let out = ok(&p, &["uninstall", "--all-installed", "--system"]);
    assert_eq!(out.matches(": removed ").count(), installed, "{out}");
    // Every file and every directory install made is gone again.
    assert_eq!(snapshot(&p.system_root()), BTreeMap::new());
}

#[test]
fn the_system_entry_runs_every_scope_and_the_user_entry_steps_aside() {
    let p = TempProject::trusted(&hooks("PreToolUse", "Bash", json!([command("exit 0")])));
    p.managed_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo 'the security team forbids this' >&2; exit 2")]),
    ));
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--agent", "claude"];
        args.extend_from_slice(extra);
        p.output(p.cmd(args), p.bash("curl x | sh").to_string())
    };
    let decision =
        |ran: &crate::util::Ran| ran.json()["hookSpecificOutput"]["permissionDecision"].clone();
    // Before `install --system`, the user's entry enforces the policy.
    assert_eq!(decision(&run(&[])), "deny");
    ok(&p, &["install", "claude", "--system"]);
    // The system entry denies; the user entry answers nothing, so the deny
    // is not given (and no hook run) twice.
    assert_eq!(decision(&run(&["--system"])), "deny");
    let aside = run(&["--verbose"]);
    assert_eq!(aside.code(), 0);
    assert_eq!(aside.stdout(), "");
    aside.assert_stderr_contains("system-wide file has the agenthooks entry");
    ok(&p, &["uninstall", "claude", "--system"]);
    assert_eq!(decision(&run(&[])), "deny");
}

#[test]
fn check_fire_and_trust_name_each_hooks_scope_and_file() {
    let p = TempProject::trusted(&hooks("PreToolUse", "Bash", json!([command("exit 0")])));
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([command("true")])));
    p.managed_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("echo managed")]),
    ));
    let managed = p.managed_file().display().to_string();
    let user = p.tmp().join("home/.agents/hooks.json");
    let project = p.path(".agents/hooks.json");

    let out = ok(&p, &["check"]);
    for (scope, file) in [
        ("managed", managed.clone()),
        ("user", user.display().to_string()),
        ("project", project.display().to_string()),
    ] {
        assert!(
            out.contains(&format!("note: {scope} scope `{file}`: 1 hook")),
            "{scope}: {out}"
        );
    }

    let fire = |extra: &[&str]| {
        let input = r#"{"command":"ls"}"#;
        let mut args = vec!["fire", "PreToolUse", "--tool", "Bash", "--input", input];
        args.extend_from_slice(extra);
        p.cmd(args).output().unwrap().stdout
    };
    let text = String::from_utf8(fire(&[])).unwrap();
    assert!(
        text.contains(&format!("[1] command `echo managed` (managed: {managed})")),
        "{text}"
    );
    let doc: Value = serde_json::from_slice(&fire(&["--json"])).unwrap();
    let hooks = doc["handlers"].as_array().unwrap();
    let scopes: Vec<(&str, &str)> = hooks
        .iter()
        .map(|h| (h["scope"].as_str().unwrap(), h["file"].as_str().unwrap()))
        .collect();
    assert_eq!(
        scopes,
        [
            ("managed", managed.as_str()),
            ("user", user.to_str().unwrap()),
            ("project", project.to_str().unwrap()),
        ]
    );

    let out = ok(&p, &["trust", "--list"]);
    assert!(out.contains(&format!("(managed: {managed})")), "{out}");
    assert!(
        out.contains(&format!("(user: {})", user.display())),
        "{out}"
    );
}

#[test]
fn all_detected_installs_the_agents_whose_system_folder_exists() {
    let p = TempProject::new();
    let claude = system_file(&p, "claude").unwrap();
    std::fs::create_dir_all(claude.parent().unwrap()).unwrap();
    let mcp = claude.with_file_name("managed-mcp.json");
    std::fs::write(&mcp, "{}\n").unwrap();
    let out = ok(&p, &["install", "--all-detected", "--system"]);
    assert!(out.contains("claude: created "), "{out}");
    assert_eq!(out.matches(": created ").count(), 1, "{out}");
    let out = ok(&p, &["uninstall", "--all-installed", "--system"]);
    assert!(out.contains("claude: removed "), "{out}");
    // The organisation's other file, and so its folder, stay.
    assert_eq!(std::fs::read(&mcp).unwrap(), b"{}\n");
    assert!(!claude.exists());
}

#[test]
fn under_copilot_with_its_system_entry_the_claude_project_entry_steps_aside() {
    let p = TempProject::trusted(&hooks("PreToolUse", "*", json!([command("exit 0")])));
    ok(&p, &["install", "claude"]);
    ok(&p, &["install", "copilot", "--system"]);
    // Copilot CLI runs `.claude/settings.json` too, with COPILOT_CLI set:
    // the Claude entry answers nothing, Copilot's system entry runs the hooks.
    let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
    cmd.env("COPILOT_CLI", "1");
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert_eq!(ran.stdout(), "");
    ran.assert_stderr_contains("runs this event through its own agenthooks entry");
    // Claude Code itself (no COPILOT_CLI) still runs its entry.
    let mut cmd = p.cmd(["run", "--agent", "claude", "--verbose"]);
    cmd.env_remove("COPILOT_CLI");
    let ran = p.output(cmd, p.bash("ls").to_string());
    assert!(!ran.stderr().contains("steps aside"), "{}", ran.stderr());
}

/// A hook that Copilot CLI's machine-wide policy folder runs natively and
/// `.agents/hooks.json` runs too: `check` and `status` say it runs twice and
/// that the fix is in `.agents/hooks.json` (the policy file is the
/// administrator's), and `run` skips the copy.
#[test]
fn a_copilot_policy_hook_also_in_agents_hooks_json_is_reported_and_skipped() {
    let p = TempProject::new();
    p.write("guard.sh", "#!/bin/sh\nexit 0\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(p.path("guard.sh"), mode).unwrap();
    }
    p.project_hooks(&hooks("PreToolUse", "Bash", json!([command("./guard.sh")])));
    p.trust();
    ok(&p, &["install", "copilot"]);
    let out = ok(&p, &["check"]);
    assert!(!out.contains("runs it twice"), "{out}");

    let ours = system_file(&p, "copilot").expect("Copilot CLI has a policy folder");
    let policy = ours.with_file_name("10-security.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(
        &policy,
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh"}]}}"#,
    )
    .unwrap();

    // A warning: `check --strict` fails.
    let ran = p.output(p.cmd(["check", "--strict"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    let out = ran.stdout();
    assert!(
        out.contains(&format!(
            "`{}` and `.agents/hooks.json` both run `./guard.sh` on PreToolUse: GitHub Copilot CLI runs it twice; the machine's file runs it for every project",
            policy.display()
        )),
        "{out}"
    );
    let status = p.output(p.cmd(["status", "--json"]), "");
    let doc: Value = serde_json::from_str(&status.stdout()).unwrap();
    let text = doc.to_string();
    assert!(text.contains("runs-twice"), "{text}");
    assert!(text.contains("10-security.json"), "{text}");

    let payload = json!({"toolName": "bash", "toolArgs": "{\"command\":\"ls\"}", "cwd": p.root});
    let ran = p.output(
        p.cmd([
            "run",
            "--agent",
            "copilot",
            "--event",
            "preToolUse",
            "--verbose",
        ]),
        payload.to_string(),
    );
    ran.assert_stderr_contains("GitHub Copilot CLI runs the same command from");
    ran.assert_stderr_contains("10-security.json");
}
