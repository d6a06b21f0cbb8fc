//! PowerShell hooks: Claude Code's `"shell": "powershell"` and Copilot's
//! `powershell` field. PowerShell is not packaged for this machine, so a
//! stand-in `pwsh` on `PATH` shows what a hook is run with; without any, the
//! hook allows with a note saying what to install.

use std::path::Path;

use serde_json::{json, Value};

use crate::util::{hooks, TempProject};

/// A project whose user-scope hooks are `handler` on PreToolUse `Bash`.
fn with_user_hook(handler: Value) -> TempProject {
    let p = TempProject::new();
    p.user_hooks(&hooks("PreToolUse", "Bash", json!([handler])));
    p
}

/// `run --agent claude` on a Bash call, with only `dir` on `PATH`.
fn run_with_path(p: &TempProject, dir: &Path) -> crate::util::Ran {
    let mut cmd = p.cmd(["run", "--agent", "claude"]);
    cmd.env("PATH", dir);
    p.output(cmd, p.bash("ls").to_string())
}

fn deny_reason(ran: &crate::util::Ran) -> Value {
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.json()["hookSpecificOutput"]["permissionDecisionReason"].clone()
}

#[cfg(unix)]
#[test]
fn shell_powershell_runs_the_command_through_pwsh_without_a_profile() {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let pwsh = bin.path().join("pwsh");
    // Says how it was called, then blocks the way a PowerShell `exit 2` would.
    std::fs::write(&pwsh, "#!/bin/sh\nprintf '%s|' \"$@\" >&2\nexit 2\n").unwrap();
    std::fs::set_permissions(&pwsh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let p = with_user_hook(json!({
        "type": "command", "shell": "powershell",
        "command": "Write-Error 'no'; exit 2"
    }));
    let ran = run_with_path(&p, bin.path());
    assert_eq!(
        deny_reason(&ran),
        "-NoProfile|-NonInteractive|-Command|Write-Error 'no'; exit 2|"
    );
}

#[test]
fn without_powershell_the_hook_allows_with_a_note_saying_what_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let p = with_user_hook(json!({
        "type": "command", "shell": "powershell", "command": "exit 2"
    }));
    let ran = run_with_path(&p, empty.path());
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(
        ran.decided(),
        serde_json::Value::Null,
        "no decision: {}",
        ran.stdout()
    );
    ran.assert_stderr_contains("neither `pwsh` nor `powershell` is on PATH");
}

#[cfg(unix)]
#[test]
fn copilots_powershell_field_is_what_windows_runs_and_command_what_others_do() {
    let p = with_user_hook(json!({
        "type": "command",
        "command": "echo from-command >&2; exit 2",
        "powershell": "Write-Error 'from-powershell'; exit 2"
    }));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(deny_reason(&ran), "from-command");
    assert!(!ran.stderr().contains("powershell"), "{}", ran.stderr());
}

#[test]
fn install_copilot_writes_a_powershell_entry_next_to_bash() {
    let p = TempProject::new();
    // install wires the events hooks use.
    p.user_hooks(
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    std::fs::create_dir_all(p.path(".github/hooks")).unwrap();
    let ran = p.output(p.cmd(["install", "copilot"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    let text = std::fs::read_to_string(p.path(".github/hooks/agenthooks.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let entry = &file["hooks"]["preToolUse"][0];
    let bash = entry["bash"].as_str().unwrap();
    let powershell = entry["powershell"].as_str().unwrap();
    assert!(
        bash.contains("agenthooks run --agent copilot --event preToolUse"),
        "{bash}"
    );
    assert!(
        powershell.starts_with("if (Get-Command 'agenthooks' -ErrorAction SilentlyContinue) { & 'agenthooks' run --agent copilot --event 'preToolUse'; exit $LASTEXITCODE }"),
        "{powershell}"
    );
    // Uninstall recognises the pair as ours and takes the file away again.
    let ran = p.output(p.cmd(["uninstall", "copilot"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(!p.path(".github/hooks/agenthooks.json").exists());
}
