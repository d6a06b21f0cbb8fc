//! What a hook's author needs when a hook does not do what was meant
//! (issue 26, item 7): `check` and `run` name the cause and the fix.

use serde_json::json;

use crate::util::{command, hooks, TempProject};

/// A script without its executable bit: `check` says so before, and `run`'s
/// failure note says `chmod +x` after.
#[cfg(unix)]
#[test]
fn a_script_without_its_executable_bit_gets_chmod_in_check_and_run() {
    use std::os::unix::fs::PermissionsExt;
    let p = TempProject::new();
    let script = p.script("guard.sh", "exit 0");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    p.user_hooks(&hooks(
        "PreToolUse",
        "Bash",
        json!([command("./.agents/hooks/guard.sh")]),
    ));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 1, "{}", ran.stdout());
    assert!(
        ran.stdout().contains(
            "its script `./.agents/hooks/guard.sh` is not executable, so it fails with `Permission denied`; run `chmod +x ./.agents/hooks/guard.sh`"
        ),
        "{}",
        ran.stdout()
    );
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    ran.assert_stderr_contains("exited with code 126");
    ran.assert_stderr_contains("run `chmod +x ./.agents/hooks/guard.sh`");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
}

/// Text on stdout at PreToolUse is not an answer: it is ignored, with a note
/// saying what to print instead. At SessionStart text is context: no note.
#[test]
fn text_that_is_not_an_answer_at_pre_tool_use_gets_a_note() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [command("echo deny this please")]}],
        "SessionStart": [{"hooks": [command("echo some context")]}],
    }}));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0);
    assert_eq!(ran.stdout(), "");
    ran.assert_stderr_contains(
        "printed text that is not a JSON answer on stdout (`deny this please`), which PreToolUse ignores",
    );
    let ran = p.run(&p.payload("SessionStart", json!({"source": "startup"})));
    assert!(
        !ran.stderr().contains("not a JSON answer"),
        "{}",
        ran.stderr()
    );
}

/// A value of the wrong type names its key path and what was expected; a
/// misspelt handler type gets a suggestion; a matcher is checked against
/// Claude Code's tools with no agent wired; `prompt`, `agent` and
/// `mcp_tool` handlers are fine.
#[test]
fn check_names_key_paths_types_and_tools_without_an_agent() {
    let p = TempProject::new();
    p.user_hooks(&json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "true", "timeout": "10"}
    ]}]}}));
    let out = p.output(p.cmd(["check"]), "").stdout();
    assert!(
        out.contains(
            "`hooks.Stop[0].hooks[0].timeout`: invalid type: string \"10\", expected a number"
        ),
        "{out}"
    );

    p.user_hooks(&json!({"hooks": {
        "Stop": [{"hooks": [{"type": "wams", "component": "x.wasm"}]}],
        "PreToolUse": [{"matcher": "Bahs", "hooks": [command("true")]}],
    }}));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 1);
    let out = ran.stdout();
    assert!(
        out.contains("unknown handler type `wams`; did you mean `wasm`?"),
        "{out}"
    );
    assert!(
        out.contains("matcher `Bahs` matches no tool Claude Code has; did you mean `Bash`?"),
        "{out}"
    );

    // A user hook's server from the user's own MCP file (`~/.claude.json`).
    std::fs::write(
        p.home.join(".claude.json"),
        r#"{"mcpServers": {"s": {"command": "true"}}}"#,
    )
    .unwrap();
    p.user_hooks(&json!({"hooks": {"Stop": [{"hooks": [
        {"type": "prompt", "prompt": "are we done?"},
        {"type": "agent", "prompt": "review it"},
        {"type": "mcp_tool", "server": "s", "tool": "t"}
    ]}]}}));
    let ran = p.output(p.cmd(["check"]), "");
    assert_eq!(ran.code(), 0, "{}", ran.stdout());
    assert!(
        ran.stdout().contains("check: no problems found"),
        "{}",
        ran.stdout()
    );
}
