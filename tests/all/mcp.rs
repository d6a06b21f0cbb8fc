//! mcp_tool hooks (Claude Code's `type: "mcp_tool"`) through the real binary,
//! against a small MCP server written for the tests
//! (`tests/fixtures/mcp/server.py`, Python's stdlib only): on stdio, and on
//! streamable HTTP at 127.0.0.1.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{self, TempProject};

/// A literal token in the server's environment: never shown by the review.
const TOKEN: &str = "sk-literal-SECRET-123";

/// The test server's script.
fn script() -> PathBuf {
    util::repo_root().join("tests/fixtures/mcp/server.py")
}

/// Where the stdio server of `p` writes its pid when it starts.
fn marker(p: &TempProject) -> PathBuf {
    p.tmp().join("mcp-started")
}

/// `p`'s `.mcp.json`: the test server as `t`, started with `args`.
fn stdio_server(p: &TempProject, args: &[&str]) {
    let mut argv = vec![script().display().to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let servers = json!({"mcpServers": {"t": {
        "type": "stdio", "command": "python3", "args": argv,
        "env": {"MCP_MARKER": marker(p), "API_TOKEN": TOKEN}
    }}});
    p.write(".mcp.json", servers.to_string());
}

/// A project whose PreToolUse hook on Bash calls `tool` of server `t`
/// (on stdio) with `extra` keys added to the handler; trusted.
fn project(tool: &str, extra: Value) -> TempProject {
    let p = TempProject::new();
    stdio_server(&p, &[]);
    let mut handler = json!({"type": "mcp_tool", "server": "t", "tool": tool,
        "input": {"cmd": "${tool_input.command}", "fixed": 1}});
    if let (Some(h), Value::Object(extra)) = (handler.as_object_mut(), extra) {
        h.extend(extra);
    }
    p.project_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    p.trust();
    p
}

fn decision(ran: &util::Ran) -> Value {
    ran.json()["hookSpecificOutput"]["permissionDecision"].clone()
}

/// The pid a server (or its child) wrote to `path`.
fn pid_in(path: &Path) -> i32 {
    assert!(
        util::eventually(Duration::from_secs(10), || path.exists()),
        "{} was never written",
        path.display()
    );
    util::read_pid(path)
}

#[track_caller]
fn assert_gone(pid: i32) {
    assert!(
        util::eventually(Duration::from_secs(10), || !util::alive(pid)),
        "process {pid} outlived the event"
    );
}

#[test]
fn a_deny_answer_denies_with_the_input_filled_from_the_event() {
    let p = project("deny", json!({}));
    let ran = p.run(&p.bash("rm -rf /tmp/x"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_eq!(decision(&ran), "deny", "{}", ran.stdout());
    let reason = ran.json()["hookSpecificOutput"]["permissionDecisionReason"].to_string();
    assert!(
        reason.contains(r#"{\"cmd\": \"rm -rf /tmp/x\", \"fixed\": 1}"#),
        "{reason}"
    );
    // Started for the event and stopped with it.
    assert_gone(pid_in(&marker(&p)));
}

#[test]
fn plain_text_is_read_like_a_commands_stdout() {
    let p = TempProject::new();
    stdio_server(&p, &[]);
    let handler = json!({"type": "mcp_tool", "server": "t", "tool": "plain"});
    p.project_hooks(&util::hooks("UserPromptSubmit", "", json!([handler])));
    p.trust();
    let ran = p.run(&p.prompt("hello"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert!(
        ran.stdout().contains("plain words from mcp"),
        "stdout: {} stderr: {}",
        ran.stdout(),
        ran.stderr()
    );
}

#[test]
fn an_error_result_is_allowed_with_a_note_and_denied_when_fail_closed() {
    let p = project("fail", json!({}));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    assert_ne!(decision(&ran), "deny", "{}", ran.stdout());
    ran.assert_stderr_contains("MCP tool `fail` returned an error: the tool broke: disk on fire");
    let closed = project("fail", json!({"onError": "deny"}));
    let ran = closed.run(&closed.bash("ls"));
    assert_eq!(decision(&ran), "deny", "{}", ran.stdout());
}

#[test]
fn a_hanging_tool_times_out_and_its_whole_process_group_is_killed() {
    let p = project("hang", json!({"timeout": 2}));
    let ran = p.run(&p.bash("ls"));
    assert_eq!(ran.code(), 0, "{}", ran.stderr());
    ran.assert_stderr_contains("timed out after 2s");
    ran.assert_took_less_than(Duration::from_secs(20));
    assert_gone(pid_in(&marker(&p)));
    let child = marker(&p).with_extension("child");
    assert_gone(pid_in(&child));
}

#[test]
fn a_server_that_exits_at_once_failed_to_start_and_says_why() {
    let p = TempProject::new();
    stdio_server(&p, &["--exit"]);
    let handler = json!({"type": "mcp_tool", "server": "t", "tool": "deny", "onError": "deny"});
    p.project_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    ran.assert_stderr_contains("MCP server `t` failed to start");
    ran.assert_stderr_contains("boom: no config file for the test server");
    assert_eq!(decision(&ran), "deny", "fail-closed: {}", ran.stdout());
}

#[test]
fn an_unknown_tool_or_server_is_a_failure_naming_the_fix() {
    let p = project("nope", json!({}));
    let ran = p.run(&p.bash("ls"));
    ran.assert_stderr_contains(
        "MCP server `t` has no tool `nope` (it has: deny, plain, fail, hang); fix the hook's `tool`",
    );
    assert_ne!(decision(&ran), "deny");

    let p = TempProject::new();
    let handler = json!({"type": "mcp_tool", "server": "missing", "tool": "deny"});
    p.project_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    p.trust();
    let ran = p.run(&p.bash("ls"));
    ran.assert_stderr_contains("MCP server `missing` is not defined in");
    ran.assert_stderr_contains(".mcp.json");
    for command in ["check", "status"] {
        let ran = p.output(p.cmd([command]), "");
        let all = format!("{}{}", ran.stdout(), ran.stderr());
        assert!(
            all.contains("MCP server `missing` is not defined in"),
            "{command}: {all}"
        );
        assert_ne!(ran.code(), 0, "{command}: {all}");
    }
}

#[test]
fn check_names_an_mcp_tool_hook_without_server_or_tool() {
    let p = TempProject::new();
    let hooks = json!([
        {"type": "mcp_tool", "tool": "deny"},
        {"type": "mcp_tool", "server": "t"}
    ]);
    p.project_hooks(&util::hooks("PreToolUse", "Bash", hooks));
    let check = p.output(p.cmd(["check"]), "");
    let all = format!("{}{}", check.stdout(), check.stderr());
    assert!(
        all.contains("hooks[0]`: `server` is missing or empty"),
        "{all}"
    );
    assert!(
        all.contains("hooks[1]`: `tool` is missing or empty"),
        "{all}"
    );
    assert_ne!(check.code(), 0, "{all}");
}

#[test]
fn an_untrusted_projects_server_never_starts() {
    let p = TempProject::new();
    stdio_server(&p, &[]);
    let handler = json!({"type": "mcp_tool", "server": "t", "tool": "deny"});
    p.project_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    let ran = p.run(&p.bash("rm -rf /"));
    assert_ne!(decision(&ran), "deny", "{}", ran.stdout());
    ran.assert_stderr_contains("held back 1 untrusted project mcp_tool hook");
    assert!(!marker(&p).exists(), "the server was started");
    assert!(!ran.stderr().contains(TOKEN) && !ran.stdout().contains(TOKEN));

    // The review shows what the server runs, and no literal secret.
    let review = p.output(p.cmd(["trust"]), "");
    let shown = review.stdout();
    assert!(shown.contains("$ python3 "), "{shown}");
    assert!(shown.contains("tool    deny"), "{shown}");
    assert!(
        shown.contains("env API_TOKEN=(a literal value, not shown)"),
        "{shown}"
    );
    assert!(!shown.contains(TOKEN), "{shown}");

    // Trusted, then the server's definition changes: held back again.
    p.trust();
    stdio_server(&p, &["--changed"]);
    let ran = p.run(&p.bash("rm -rf /"));
    ran.assert_stderr_contains("held back 1 untrusted project mcp_tool hook");
    assert!(!marker(&p).exists(), "the changed server was started");
}

/// Kills the HTTP test server when the test ends, however it ends.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_streamable_http_server_answers_too() {
    let p = TempProject::new();
    let port_file = p.tmp().join("port");
    let _server = Killed(
        std::process::Command::new("python3")
            .arg(script())
            .arg("--http")
            .arg(&port_file)
            .spawn()
            .expect("start python3"),
    );
    assert!(
        util::eventually(Duration::from_secs(20), || port_file.exists()),
        "the HTTP server never listened"
    );
    let port = std::fs::read_to_string(&port_file).unwrap();
    let servers = json!({"mcpServers": {"h": {"type": "http",
        "url": format!("http://127.0.0.1:{}/mcp", port.trim())}}});
    p.write(".mcp.json", servers.to_string());
    let handler = json!({"type": "mcp_tool", "server": "h", "tool": "deny",
        "input": {"cmd": "${tool_input.command}"}});
    p.project_hooks(&util::hooks("PreToolUse", "Bash", json!([handler])));
    p.trust();
    let ran = p.run(&p.bash("git push --force"));
    assert_eq!(decision(&ran), "deny", "{} {}", ran.stdout(), ran.stderr());
    let reason = ran.json()["hookSpecificOutput"]["permissionDecisionReason"].to_string();
    assert!(reason.contains("git push --force"), "{reason}");
}
